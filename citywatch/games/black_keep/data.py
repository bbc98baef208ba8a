"""The Black Keep's cards as data (spec 6.2, 6.5, 6.6): ``data/cards.json`` read and checked
once, at import.

Every card and treasure is a small int, its index in JSON order: ``THIEF_CARDS`` (a thief's
ten cards), ``GUARD_CARDS`` (the eight Guard cards of the market) and ``TREASURES`` (the five
real treasures and the Fake). The constants below name those indices, and the import fails
with ``DataError`` if the file's order ever disagrees with them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from citywatch.games.black_keep.hexes import FACINGS
from citywatch.games.black_keep.state import DEFAULT_STATUS, GUARD_TYPES, ROVING, STATUSES, Guard

CARDS_FILE: Final = Path(__file__).parent / "data" / "cards.json"
"""The card file."""


class DataError(ValueError):
    """The card file is inconsistent."""


THIEF_CARD_KINDS: Final[tuple[str, ...]] = ("move", "run", "hide", "rest", "pick_pocket")
"""What a thief card does (spec 6.2)."""
GUARD_CARD_TARGETS: Final[tuple[str, ...]] = ("guard", "hex", "torch", "run", "kept")
"""What a Guard card is played on: a guard, a floor hex, a burning torch, with a Run (Moss
Arrow), or nothing because it is kept (Lockpicks)."""


@dataclass(frozen=True, slots=True)
class ThiefCard:
    """One of a thief's ten cards; ``directions`` are a Move card's two facings."""

    index: int
    name: str
    kind: str
    directions: tuple[int, ...]
    text: str


@dataclass(frozen=True, slots=True)
class GuardCard:
    """A Guard card: its cost in Gold Coins, its range in hexes from the thief's hex after its
    movement, what it is played on, and for cards played on a guard the statuses
    (``"default"``: the guard type's default status) and types it accepts (empty: any)."""

    index: int
    name: str
    cost: int
    range: int
    target: str
    statuses: tuple[str, ...]
    types: tuple[int, ...]
    text: str

    def accepts(self, g: Guard) -> bool:
        """Whether this card may be played on ``g`` (range aside): a placed guard that is not
        undead (undead ignore every card acting on a guard, ruling 41), of an accepted type
        and status; "default" means a Bored or Interested routine (the Roving guard's Alert
        has no routine move a card could trigger)."""
        if self.target != "guard" or not g.placed or g.undead:
            return False
        if self.types and g.type not in self.types:
            return False
        status = STATUSES[g.status]
        routine = g.status == DEFAULT_STATUS[g.type] and g.type != ROVING
        return any(s == status or (s == "default" and routine) for s in self.statuses)


@dataclass(frozen=True, slots=True)
class Treasure:
    """A treasure token: its value and whether it is real (the Fake is not)."""

    index: int
    name: str
    value: int
    real: bool
    text: str


def _str(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise DataError(f"{where}: {key!r} must be a non-empty string")
    return value


def _int(entry: dict[str, Any], key: str, where: str) -> int:
    value = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataError(f"{where}: {key!r} must be a whole number >= 0")
    return value


def _names(entry: dict[str, Any], key: str, where: str, known: tuple[str, ...]) -> list[str]:
    value = entry.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v in known for v in value):
        raise DataError(f"{where}: {key!r} must list names from {', '.join(known)}")
    return value


def load(path: Path = CARDS_FILE) -> tuple[tuple[ThiefCard, ...], tuple[GuardCard, ...],
                                           tuple[Treasure, ...]]:
    """The thief cards, Guard cards and treasures of the card file; ``DataError`` naming the
    first inconsistency."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or doc.get("format") != "black-keep-cards/1":
        raise DataError(f"{path.name} is not a black-keep-cards/1 file")
    thief = []
    for i, e in enumerate(doc.get("thief_cards", [])):
        where = f"thief card {i}"
        kind = _str(e, "kind", where)
        if kind not in THIEF_CARD_KINDS:
            raise DataError(f"{where}: unknown kind {kind!r}")
        directions = tuple(FACINGS.index(d) for d in _names(e, "directions", where, FACINGS))
        if (kind == "move") != (len(directions) == 2):
            raise DataError(f"{where}: a Move card and only a Move card has two directions")
        thief.append(ThiefCard(i, _str(e, "name", where), kind, directions,
                               _str(e, "text", where)))
    guard = []
    for i, e in enumerate(doc.get("guard_cards", [])):
        where = f"Guard card {i}"
        target = _str(e, "target", where)
        if target not in GUARD_CARD_TARGETS:
            raise DataError(f"{where}: unknown target {target!r}")
        statuses = tuple(_names(e, "statuses", where, ("default", *STATUSES)))
        types = tuple(GUARD_TYPES.index(t) for t in _names(e, "types", where, GUARD_TYPES))
        if (target == "guard") != bool(statuses):
            raise DataError(f"{where}: a card played on a guard, and only one, names statuses")
        guard.append(GuardCard(i, _str(e, "name", where), _int(e, "cost", where),
                               _int(e, "range", where), target, statuses, types,
                               _str(e, "text", where)))
    treasures = []
    for i, e in enumerate(doc.get("treasures", [])):
        where = f"treasure {i}"
        real = e.get("real")
        if not isinstance(real, bool):
            raise DataError(f"{where}: 'real' must be true or false")
        treasures.append(Treasure(i, _str(e, "name", where), _int(e, "value", where), real,
                                  _str(e, "text", where)))
    return tuple(thief), tuple(guard), tuple(treasures)


THIEF_CARDS, GUARD_CARDS, TREASURES = load()
"""Every thief card, Guard card and treasure, by index."""

MOVE_N_NE, MOVE_NE_SE, MOVE_SE_S, MOVE_S_SW, MOVE_SW_NW, MOVE_NW_N, RUN, HIDE, REST, \
    PICK_POCKET = range(10)
MOVE_CARDS: Final[tuple[int, ...]] = (
    MOVE_N_NE, MOVE_NE_SE, MOVE_SE_S, MOVE_S_SW, MOVE_SW_NW, MOVE_NW_N,
)
ADJUST_RIGGING, ART, DILIGENT, HIP_FLASK, LOCKPICKS, MOSS_ARROW, NOISE_ARROW, \
    WATER_ARROW = range(8)
ARMOUR: Final = 0
EYE: Final = 1
HAMMER: Final = 2
LANTERN: Final = 3
SWORD: Final = 4
FAKE: Final = 5
REAL_TREASURES: Final[tuple[int, ...]] = (ARMOUR, EYE, HAMMER, LANTERN, SWORD)
"""The treasures drawn at set-up (spec 6.6); the Fake joins them in the advanced game."""
KEY: Final = 0
COINS: Final = 1
LOOT: Final[tuple[str, ...]] = ("key", "coins")
"""What a Pick Pocket takes (spec 6.2)."""

THIEF_CARD_NAMES: Final = tuple(c.name for c in THIEF_CARDS)
GUARD_CARD_NAMES: Final = tuple(c.name for c in GUARD_CARDS)
TREASURE_NAMES: Final = tuple(t.name for t in TREASURES)


def _check_order() -> None:
    expected = (
        (THIEF_CARD_NAMES, ("Move N/NE", "Move NE/SE", "Move SE/S", "Move S/SW", "Move SW/NW",
                            "Move NW/N", "Run", "Hide", "Rest", "Pick Pocket")),
        (GUARD_CARD_NAMES, ("Adjust Rigging", "Art", "Diligent", "Hip Flask", "Lockpicks",
                            "Moss Arrow", "Noise Arrow", "Water Arrow")),
        (TREASURE_NAMES, ("Armour", "Eye", "Hammer", "Lantern", "Sword", "Fake")),
    )
    for found, wanted in expected:
        if found != wanted:
            raise DataError(f"{CARDS_FILE.name} lists {found}, the code expects {wanted}")


_check_order()
