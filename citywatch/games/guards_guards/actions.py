"""Guards! Guards! actions: a verb and up to three small integers.

Each verb is declared once with ``verb(name, fields, text)`` (the core's
``citywatch.core.verbs.Verbs`` table): ``fields`` names what each integer means (a tile, a
volunteer, a seat, ...), so that ``str()`` reads as English and the JSON form names things
(``{"verb": "move", "tile": "Misbegot Bridge"}``) and reads back.
The modules that use a verb declare it at import time.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from citywatch.core.built import BuiltActions
from citywatch.core.verbs import FieldKind, Names, Number, Verb, VerbAction3, Verbs
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

_QUADRANTS: Final = Names("quadrant", [q.capitalize() for q in QUADRANTS], ignore_case=True)
ROUTE_CODES: Final = 5 ** 5
"""A ``route`` field is a run's quadrant sequence in base 5, first quadrant lowest, each digit
quadrant + 1 (at most five quadrants: ruling 35 never repeats one consecutively)."""


def route_names(code: int) -> list[str]:
    """The quadrants of a route code, in order."""
    names = []
    while code:
        names.append(_QUADRANTS.name(code % 5 - 1))
        code //= 5
    return names


def route_code(names: list[str]) -> int:
    """The route code of a list of quadrant names; ``ValueError`` if one is unknown."""
    code = 0
    for name in reversed(names):
        try:
            found = _QUADRANTS.from_json(name)
        except ValueError:
            raise ValueError(f"unknown quadrant {name!r} in a route") from None
        code = code * 5 + found + 1
    return code


class _Route(FieldKind):
    """A run's route: written as the list of its quadrants, read as "A-B-C"."""

    def name(self, index: int) -> str:
        """The quadrants joined by ``-``."""
        return "-".join(route_names(index))

    def to_json(self, index: int) -> Any:
        """The list of the quadrants."""
        return route_names(index)

    def from_json(self, raw: Any) -> int:
        """The code of a list of 1 to 5 quadrant names."""
        if not isinstance(raw, list) or not 1 <= len(raw) <= 5 or not all(
                isinstance(q, str) for q in raw):
            raise ValueError(f"{raw!r} is not a list of 1 to 5 quadrants")
        return route_code(raw)


class _Tile(Names):
    """A tile, written by name and read by id or name (ignoring case)."""

    def from_json(self, raw: Any) -> int:
        """The index of the tile whose id or name is ``raw``."""
        if not isinstance(raw, str):
            raise ValueError(f"{raw!r} is not a tile's name")
        return tile_named(raw).index


def _names(what: str, names: list[str]) -> Names:
    return Names(what, names, ignore_case=True)


KINDS: Final[dict[str, FieldKind]] = {
    "tile": _Tile("tile", [t.name for t in TILES], ignore_case=True),
    "volunteer": _names("volunteer", [v.name for v in VOLUNTEERS]),
    "scroll": _names("scroll", [c.name for c in SCROLLS]),
    "item": _names("item", [c.name for c in ITEMS]),
    "fate": _names("fate", [c.name for c in FATE_CARDS]),
    "dragon": _names("dragon", [d.name for d in DRAGONS]),
    "guild_card": _names("guild_card", [g.name for g in GUILD_CARDS]),
    "seat": _names("seat", list(COLOURS)),
    "quadrant": _QUADRANTS,
    "deck": _names("deck", list(DECK_NAMES)),
    "attribute": _names("attribute", [a.capitalize() for a in ATTRIBUTES]),
    "stat": _names("stat", [a.capitalize() for a in STATS]),
    "spell": _names("spell", [c.capitalize() for c in SPELL_COLOURS]),
    "number": Number(),
    "route": _Route(),
}
"""Field kind -> how its integers are named, written and read (names ignoring case)."""
FIELD_KINDS: Final = tuple(KINDS)

VERBS: Final[Verbs[Action]] = Verbs(3, KINDS)
"""Every declared verb by name; ``verb(name, fields, text)`` declares one, ``fields`` being
(JSON key, kind) for x, y, z."""
verb = VERBS.declare
name_of = VERBS.name_of
__all__ = ["FIELD_KINDS", "KINDS", "ROUTE_CODES", "VERBS", "Action", "Verb", "name_of",
           "route_code", "route_names", "seat", "tile", "verb", "vol"]


def tile(i: int) -> str:
    """A tile's name."""
    return TILES[i].name


def vol(i: int) -> str:
    """A volunteer's name."""
    return VOLUNTEERS[i].name


def seat(i: int) -> str:
    """A seat's colour."""
    return COLOURS[i]


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a tuple as native
class Action(VerbAction3):
    """One decision: a declared verb and up to three integers (-1 when unused); ``to_json``
    naming tiles, cards and seats by name."""

    __slots__ = ()
    VERBS = VERBS


_BUILT: Final = BuiltActions(Action)
"""Every action ``act`` has built (``core.built``)."""


def act(verb: str, x: int = -1, y: int = -1, z: int = -1) -> Action:
    """``Action(verb, x, y, z)``, built once (then shared)."""
    found: Action = _BUILT.three(verb, x, y, z)
    return found
