"""Guardians of the City actions: a verb and up to two small integers.

Each verb is declared once here with what its integers mean (``verb``, the core's
``citywatch.core.verbs.Verbs`` table), so that ``str()`` reads as English and the JSON form
names things (``{"verb": "play", "card": "Raids"}``) and reads back.
Sets of Terrorist Cells or Citizen Groups are bitmasks (bit i: ``CELLS[i]`` / ``GROUPS[i]``)
written in JSON as lists of names.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from citywatch.core.built import BuiltActions
from citywatch.core.verbs import (
    FieldKind,
    Names,
    NameSet,
    Number,
    Verb,
    VerbAction2,
    Verbs,
    and_list,
    names_of,
)
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CRISIS_CARDS,
    GROUPS,
    PILLARS,
)

SEATS: Final[tuple[str, ...]] = ("Player 1", "Player 2", "Player 3", "Player 4")
"""The seats' names, in turn order."""

KINDS: Final[dict[str, FieldKind]] = {
    "pillar": Names("pillar", PILLARS),
    "group": Names("group", GROUPS),
    "action_card": Names("action card", [c.name for c in ACTION_CARDS]),
    "crisis_card": Names("crisis card", [c.name for c in CRISIS_CARDS]),
    "seat": Names("seat", SEATS),
    "number": Number(),
    "cells": NameSet("cells", CELLS),
    "groups": NameSet("groups", GROUPS),
}
"""Field kind -> how its integers are named and read."""
FIELD_KINDS: Final = tuple(KINDS)

VERBS: Final[Verbs[Action]] = Verbs(2, KINDS)
"""Every declared verb by name."""
verb = VERBS.declare
__all__ = ["FIELD_KINDS", "KINDS", "SEATS", "VERBS", "Action", "Verb", "and_list", "names_of",
           "verb"]


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a tuple as native
class Action(VerbAction2):
    """One decision: a declared verb and up to two integers (-1 when unused); ``to_json``
    naming pillars, cards, groups, cells and seats by name."""

    __slots__ = ()
    VERBS = VERBS


_BUILT: Final = BuiltActions(Action)
"""Every action ``act`` has built (``core.built``)."""


def act(verb: str, x: int = -1, y: int = -1) -> Action:
    """``Action(verb, x, y)``, built once (then shared)."""
    found: Action = _BUILT.two(verb, x, y)
    return found


def _card(i: int) -> str:
    return ACTION_CARDS[i].name


def _cells(mask: int) -> str:
    return and_list(names_of(mask, CELLS))


def _groups(mask: int) -> str:
    return and_list(names_of(mask, GROUPS))


# --- the verbs -------------------------------------------------------------------------------
EFFORT: Final = verb("effort", (("pillar", "pillar"), ("level", "number")),
                     lambda a: f"Set {PILLARS[a.x]} effort to {a.y}")
KEEP_EFFORT: Final = verb("keep_effort", (), lambda a: "Keep your National Effort as it is")
PLAY: Final = verb("play", (("card", "action_card"), ("galvanised", "action_card")),
                   lambda a: f"Play {_card(a.x)}" + (f" with {_card(a.y)}" if a.y >= 0 else ""))
END_PLAYS: Final = verb("end_plays", (), lambda a: "Play no more Action cards this turn")
REDUCE_CELLS: Final = verb("reduce_cells", (("cells", "cells"),), lambda a: f"Reduce {_cells(a.x)}")
RAISE_CELLS: Final = verb("raise_cells", (("cells", "cells"),), lambda a: f"Raise {_cells(a.x)}")
RAISE_GROUPS: Final = verb("raise_groups", (("groups", "groups"),),
                           lambda a: f"Raise the support of {_groups(a.x)}")
LOSE_GROUPS: Final = verb("lose_groups", (("groups", "groups"),),
                          lambda a: f"Lose support in {_groups(a.x)}")
NEXT_LOSS: Final = verb("next_loss", (("group", "group"),),
                        lambda a: f"Apply the loss to {GROUPS[a.x]} next")
LOWER: Final = verb("lower", (("pillar", "pillar"),),
                    lambda a: f"Lower {PILLARS[a.x]} effort by 1 (a Citizen Group has left)")
DISCARD: Final = verb("discard", (("card", "action_card"),), lambda a: f"Discard {_card(a.x)}")
DRAW: Final = verb("draw", (), lambda a: "Draw back up to 4 Action cards")
REMOVE_SUBVERSIVE: Final = verb(
    "remove_subversive", (("seat", "seat"), ("card", "crisis_card")),
    lambda a: f"Remove {CRISIS_CARDS[a.y].name} from in front of {SEATS[a.x]}")
TAKE_BACK: Final = verb("take_back", (("card", "action_card"),),
                        lambda a: f"Take {_card(a.x)} back from your discard pile")
TAKE_NOTHING: Final = verb("take_nothing", (), lambda a: "Take no card back")
