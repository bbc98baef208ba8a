"""Guards! Guards! actions: a verb and up to three small integers.

Each verb is declared once with ``verb(name, fields, text)``: ``fields`` names what each
integer means (a tile, a volunteer, a seat, ...), so that ``str()`` reads as English and the
JSON form names things (``{"verb": "move", "tile": "Misbegot Bridge"}``) and reads back.
The modules that use a verb declare it at import time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    COLOURS,
    DECK_NAMES,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    STATS,
    TILES,
    VOLUNTEERS,
    tile_named,
)

# field kind -> (names in order, for JSON)
_NAMES: dict[str, tuple[str, ...]] = {
    "tile": tuple(t.name for t in TILES),
    "volunteer": tuple(v.name for v in VOLUNTEERS),
    "scroll": tuple(c.name for c in SCROLLS),
    "item": tuple(c.name for c in ITEMS),
    "fate": tuple(c.name for c in FATE_CARDS),
    "dragon": tuple(d.name for d in DRAGONS),
    "guild_card": tuple(g.name for g in GUILD_CARDS),
    "seat": tuple(COLOURS),
    "quadrant": tuple(q.capitalize() for q in QUADRANTS),
    "deck": tuple(DECK_NAMES),
    "attribute": tuple(a.capitalize() for a in ATTRIBUTES),
    "stat": tuple(a.capitalize() for a in STATS),
    "spell": tuple(c.capitalize() for c in SPELL_COLOURS),
}
_INDEX: dict[str, dict[str, int]] = {
    kind: {name.lower(): i for i, name in enumerate(names)} for kind, names in _NAMES.items()
}
FIELD_KINDS = (*_NAMES, "number", "route")
ROUTE_CODES = 5 ** 5
"""A ``route`` field is a run's quadrant sequence in base 5, first quadrant lowest, each digit
quadrant + 1 (at most five quadrants: ruling 35 never repeats one consecutively)."""


def route_names(code: int) -> list[str]:
    """The quadrants of a route code, in order."""
    names = []
    while code:
        names.append(QUADRANTS[code % 5 - 1].capitalize())
        code //= 5
    return names


def route_code(names: list[str]) -> int:
    """The route code of a list of quadrant names; ``ValueError`` if one is unknown."""
    code = 0
    for name in reversed(names):
        found = _INDEX["quadrant"].get(name.lower())
        if found is None:
            raise ValueError(f"unknown quadrant {name!r} in a route")
        code = code * 5 + found + 1
    return code


class Verb(NamedTuple):
    """A declared verb: what its integers mean and how it reads."""

    fields: tuple[tuple[str, str], ...]
    """(JSON key, field kind) for ``x``, ``y``, ``z`` in order."""
    text: Callable[[Action], str]


VERBS: dict[str, Verb] = {}


def verb(name: str, fields: tuple[tuple[str, str], ...], text: Callable[[Action], str]) -> str:
    """Declare a verb; return its name. ``fields``: (JSON key, kind) for x, y, z."""
    if name in VERBS:
        raise ValueError(f"verb {name!r} declared twice")
    if len(fields) > 3 or any(kind not in FIELD_KINDS for _, kind in fields):
        raise ValueError(f"bad fields for verb {name!r}: {fields}")
    VERBS[name] = Verb(fields, text)
    return name


def name_of(kind: str, index: int) -> str:
    """The readable name of ``index`` as a ``kind`` (a tile's name, a seat's colour, ...)."""
    if kind == "number":
        return str(index)
    if kind == "route":
        return "-".join(route_names(index))
    return _NAMES[kind][index]


def tile(i: int) -> str:
    """A tile's name."""
    return TILES[i].name


def vol(i: int) -> str:
    """A volunteer's name."""
    return VOLUNTEERS[i].name


def seat(i: int) -> str:
    """A seat's colour."""
    return COLOURS[i]


class Action(NamedTuple):
    """One decision: a declared verb and up to three integers (-1 when unused)."""

    verb: str
    x: int = -1
    y: int = -1
    z: int = -1

    def __str__(self) -> str:
        return VERBS[self.verb].text(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON dict naming tiles, cards and seats by name."""
        data: dict[str, Any] = {"verb": self.verb}
        for (key, kind), value in zip(VERBS[self.verb].fields, (self.x, self.y, self.z),
                                      strict=False):
            if value >= 0:
                data[key] = value if kind == "number" else name_of(kind, value)
                if kind == "route":
                    data[key] = route_names(value)
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
        values = [-1, -1, -1]
        for i, (key, kind) in enumerate(fields):
            if key not in data:
                continue
            raw = data[key]
            if kind == "number":
                if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
                    raise ValueError(f"field {key!r} of {name!r} must be a whole number >= 0")
                values[i] = raw
            elif kind == "route":
                if not isinstance(raw, list) or not 1 <= len(raw) <= 5 or not all(
                        isinstance(q, str) for q in raw):
                    raise ValueError(f"field {key!r} of {name!r} must list 1 to 5 quadrants")
                values[i] = route_code(raw)
            elif not isinstance(raw, str):
                raise ValueError(f"field {key!r} of {name!r} must be a name")
            elif kind == "tile":
                values[i] = tile_named(raw).index
            else:
                found = _INDEX[kind].get(raw.lower())
                if found is None:
                    raise ValueError(f"unknown {kind} {raw!r} in field {key!r}")
                values[i] = found
        return cls(name, values[0], values[1], values[2])
