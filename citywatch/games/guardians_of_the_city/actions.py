"""Guardians of the City actions: a verb and up to two small integers.

Each verb is declared once here with what its integers mean, so that ``str()`` reads as
English and the JSON form names things (``{"verb": "play", "card": "Raids"}``) and reads back.
Sets of Terrorist Cells or Citizen Groups are bitmasks (bit i: ``CELLS[i]`` / ``GROUPS[i]``)
written in JSON as lists of names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from citywatch.games.guardians_of_the_city.data import (
    ACTION_BY_NAME,
    ACTION_CARDS,
    CELLS,
    CRISIS_BY_NAME,
    CRISIS_CARDS,
    GROUPS,
    PILLARS,
)

SEATS = ("Player 1", "Player 2", "Player 3", "Player 4")
"""The seats' names, in turn order."""

_NAMES: dict[str, tuple[str, ...]] = {
    "pillar": PILLARS,
    "group": GROUPS,
    "action_card": tuple(c.name for c in ACTION_CARDS),
    "crisis_card": tuple(c.name for c in CRISIS_CARDS),
    "seat": SEATS,
}
_INDEX: dict[str, dict[str, int]] = {
    "pillar": {p: i for i, p in enumerate(PILLARS)},
    "group": {g: i for i, g in enumerate(GROUPS)},
    "action_card": ACTION_BY_NAME,
    "crisis_card": CRISIS_BY_NAME,
    "seat": {s: i for i, s in enumerate(SEATS)},
}
_SETS = {"cells": CELLS, "groups": GROUPS}
FIELD_KINDS = (*_NAMES, "number", "cells", "groups")


def names_of(mask: int, names: tuple[str, ...]) -> list[str]:
    """The names of the bits set in ``mask``, in order."""
    return [name for i, name in enumerate(names) if mask >> i & 1]


def and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class Verb(NamedTuple):
    """A declared verb: (JSON key, field kind) for ``x`` and ``y``, and how it reads."""

    fields: tuple[tuple[str, str], ...]
    text: Callable[[Action], str]


VERBS: dict[str, Verb] = {}


def verb(name: str, fields: tuple[tuple[str, str], ...], text: Callable[[Action], str]) -> str:
    """Declare a verb; return its name."""
    if name in VERBS:
        raise ValueError(f"verb {name!r} declared twice")
    if len(fields) > 2 or any(kind not in FIELD_KINDS for _, kind in fields):
        raise ValueError(f"bad fields for verb {name!r}: {fields}")
    VERBS[name] = Verb(fields, text)
    return name


class Action(NamedTuple):
    """One decision: a declared verb and up to two integers (-1 when unused)."""

    verb: str
    x: int = -1
    y: int = -1

    def __str__(self) -> str:
        return VERBS[self.verb].text(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON dict naming pillars, cards, groups, cells and seats by name."""
        data: dict[str, Any] = {"verb": self.verb}
        for (key, kind), value in zip(VERBS[self.verb].fields, (self.x, self.y), strict=False):
            if value < 0:
                continue
            if kind == "number":
                data[key] = value
            elif kind in _SETS:
                data[key] = names_of(value, _SETS[kind])
            else:
                data[key] = _NAMES[kind][value]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read an action dict; ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
            raise ValueError("an action must be an object with a 'verb'")
        name = data["verb"]
        if name not in VERBS:
            raise ValueError(f"unknown verb {name!r}")
        fields = VERBS[name].fields
        unknown = set(data) - {"verb"} - {key for key, _ in fields}
        if unknown:
            raise ValueError(f"unknown fields for {name!r}: {sorted(unknown)}")
        values = [-1, -1]
        for i, (key, kind) in enumerate(fields):
            if key not in data:
                continue
            raw = data[key]
            if kind == "number":
                if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
                    raise ValueError(f"field {key!r} of {name!r} must be a whole number >= 0")
                values[i] = raw
            elif kind in _SETS:
                names = _SETS[kind]
                if not isinstance(raw, list) or not raw or not all(n in names for n in raw) \
                        or len(set(raw)) != len(raw):
                    raise ValueError(f"field {key!r} of {name!r} must list different {kind}")
                values[i] = sum(1 << names.index(n) for n in raw)
            else:
                found = _INDEX[kind].get(raw) if isinstance(raw, str) else None
                if found is None:
                    raise ValueError(f"unknown {kind.replace('_', ' ')} {raw!r} in field {key!r}")
                values[i] = found
        return cls(name, values[0], values[1])


def _card(i: int) -> str:
    return ACTION_CARDS[i].name


def _cells(mask: int) -> str:
    return and_list(names_of(mask, CELLS))


def _groups(mask: int) -> str:
    return and_list(names_of(mask, GROUPS))


# --- the verbs -------------------------------------------------------------------------------
EFFORT = verb("effort", (("pillar", "pillar"), ("level", "number")),
              lambda a: f"Set {PILLARS[a.x]} effort to {a.y}")
KEEP_EFFORT = verb("keep_effort", (), lambda a: "Keep your National Effort as it is")
PLAY = verb("play", (("card", "action_card"), ("galvanised", "action_card")),
            lambda a: f"Play {_card(a.x)}" + (f" with {_card(a.y)}" if a.y >= 0 else ""))
END_PLAYS = verb("end_plays", (), lambda a: "Play no more Action cards this turn")
REDUCE_CELLS = verb("reduce_cells", (("cells", "cells"),), lambda a: f"Reduce {_cells(a.x)}")
RAISE_CELLS = verb("raise_cells", (("cells", "cells"),), lambda a: f"Raise {_cells(a.x)}")
RAISE_GROUPS = verb("raise_groups", (("groups", "groups"),),
                    lambda a: f"Raise the support of {_groups(a.x)}")
LOSE_GROUPS = verb("lose_groups", (("groups", "groups"),),
                   lambda a: f"Lose support in {_groups(a.x)}")
NEXT_LOSS = verb("next_loss", (("group", "group"),),
                 lambda a: f"Apply the loss to {GROUPS[a.x]} next")
LOWER = verb("lower", (("pillar", "pillar"),),
             lambda a: f"Lower {PILLARS[a.x]} effort by 1 (a Citizen Group has left)")
DISCARD = verb("discard", (("card", "action_card"),), lambda a: f"Discard {_card(a.x)}")
DRAW = verb("draw", (), lambda a: "Draw back up to 4 Action cards")
REMOVE_SUBVERSIVE = verb(
    "remove_subversive", (("seat", "seat"), ("card", "crisis_card")),
    lambda a: f"Remove {CRISIS_CARDS[a.y].name} from in front of {SEATS[a.x]}")
TAKE_BACK = verb("take_back", (("card", "action_card"),),
                 lambda a: f"Take {_card(a.x)} back from your discard pile")
TAKE_NOTHING = verb("take_nothing", (), lambda a: "Take no card back")
