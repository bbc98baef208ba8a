"""Where a tile is, in words: its quadrant, what it stands beside, the landmarks a few steps
away and what one does there (issue 27: the ``?`` help, the board's hover titles).

A landmark is any tile that is not a street. Directions are compass words from the board as
drawn (north at the top); distances are walking steps.
"""

from __future__ import annotations

import math
from typing import Final

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    QUADRANTS,
    RIVER_HEXES,
    SPELL_COLOURS,
    SPELL_NAMES,
    TILES,
    UNIVERSITY_HEXES,
    USES,
    Tile,
)

COMPASS: Final[tuple[str, ...]] = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
"""The eight compass words, clockwise from north (each covers 45 degrees)."""
NEAR_STEPS: Final = 3
"""Landmarks at most this many walking steps away are named as near."""
NEAR_MOST: Final = 5
"""At most this many near landmarks are named."""
LANDMARKS: Final[tuple[int, ...]] = tuple(t.index for t in TILES if t.kind != "street")
"""Every tile that is not a street."""
_SIDES: Final[tuple[tuple[int, int], ...]] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def bearing(frm: int, to: int) -> float:
    """Degrees clockwise from north of tile ``to`` seen from tile ``frm``."""
    (x0, y0), (x1, y1) = board.pixel(frm), board.pixel(to)
    return math.degrees(math.atan2(x1 - x0, y0 - y1)) % 360


def compass(frm: int, to: int) -> str:
    """The compass word for the way from tile ``frm`` to tile ``to``."""
    return COMPASS[round(bearing(frm, to) / 45) % 8]


def quadrant_words(t: Tile) -> str:
    """"the Thieves quadrant", or "the border of the Thieves and the Fools" for a border gate."""
    if t.quadrant >= 0:
        return f"the {QUADRANTS[t.quadrant].capitalize()} quadrant"
    a, b = (QUADRANTS[q].capitalize() for q in t.border_of)
    return f"the border of the {a} and the {b}"


def beside(t: Tile) -> str:
    """What impassable ground the tile touches: the University's wall, the River Ankh."""
    around = {(t.q + dq, t.r + dr) for dq, dr in _SIDES}
    bits = []
    if around & UNIVERSITY_HEXES:
        bits.append("the Unseen University's wall")
    if t.kind == "bridge":
        bits.append("over the River Ankh")
    elif around & RIVER_HEXES:
        bits.append("the River Ankh")
    return " and ".join(bits)


def near(tile: int) -> list[tuple[int, int, str]]:
    """(landmark, walking steps, compass word from the tile) for the landmarks at most
    :data:`NEAR_STEPS` steps away, nearest first (by steps, then as the crow flies), at most
    :data:`NEAR_MOST`."""
    found = sorted((board.WALK[tile][m], board.hex_distance(tile, m), m) for m in LANDMARKS
                   if m != tile and 0 < board.WALK[tile][m] <= NEAR_STEPS)
    return [(m, steps, compass(tile, m)) for steps, _, m in found[:NEAR_MOST]]


def where(tile: int) -> str:
    """Where the tile is, in a sentence or two: "In the Thieves quadrant, beside the Unseen
    University's wall. Near: The Shades (2 steps north-west), ..."."""
    t = TILES[tile]
    text = f"{'In' if t.quadrant >= 0 else 'On'} {quadrant_words(t)}"
    by = beside(t)
    if by:
        text += (", " if by.startswith("over") else ", beside ") + by
    text += "."
    close = near(tile)
    if close:
        text += " Near: " + ", ".join(
            f"{TILES[m].name} ({steps} step{'' if steps == 1 else 's'} {word})"
            for m, steps, word in close) + "."
    return text


def use(tile: int) -> str:
    """What one does there ("" for a street); a spell tile names its Great Spell."""
    t = TILES[tile]
    text = USES.get(t.kind, "")
    if t.kind == "spell":
        text = text.replace("its Great Spell",
                            f"{SPELL_NAMES[SPELL_COLOURS.index(t.colour)]} (a Great Spell)")
    return text
