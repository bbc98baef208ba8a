"""Generate ``web/board.json``, the facts the browser map (``web/board.js``) reads besides the view.

The map itself (hexes, walls, Special Hexes, tiles) differs by scenario, and a scenario may be a
player's own file, so it comes with every view (``view.map_json``). This file holds what every
scenario shares: the hex size, the six facings, the guards' statuses (letter, colour, sight and
movement, spec 4.2) and types, the Special Hex kinds, the thieves' colours, and the text of the
thief cards, Guard cards and treasures (``data/cards.json``). It is served at
``/games/black-keep/board.json``. Run it again after the card data changes, and commit its
output::

    python -m citywatch.games.black_keep.make_web
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citywatch.core.web import render_facts, write_facts
from citywatch.games.black_keep.actions import SEATS
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.games.black_keep.hexes import DELTAS, FACINGS
from citywatch.games.black_keep.state import DEFAULT_STATUS, GUARD_TYPES, STATUSES

WEB = Path(__file__).parent / "web"
BOARD_JSON = WEB / "board.json"

SIZE = 26
"""A hex's circumradius in the SVG's units: a hex's centre is SIZE * (1.5 q, sqrt(3) (r + q/2))."""

STATUS_LOOK = {
    "distracted": ("D", "#8a8f98", "sees nothing and does not move (R22)"),
    "bored": ("B", "#3f8f5a", "sees a row of 2; its routine (Stationary: turns)"),
    "interested": ("I", "#7b4fc9", "sees a row; its routine (1 step)"),
    "alert": ("A", "#e07b24", "sees a row and field; 1 step toward its target (R30, R33)"),
    "pursuing": ("P", "#d0312d", "sees a row and field; 2 steps toward the nearest visible "
                 "marker (undead 1, R34)"),
    "returning": ("R", "#2f6fd0", "sees a row and field; 1 step toward home (R38)"),
}
"""Each status (spec 4.2): its letter on the guard, its colour, what it sees and does."""
THIEF_COLOURS = ("#2a9d8f", "#9b5de5", "#f15bb5", "#00a6fb")
"""Thief 1 to Thief 4's colours on the map."""
SPECIAL_KINDS = {"door": "Door", "window": "Window", "grate": "Grate"}
"""The Special Hex kinds (spec 2.7) and their names; they differ only in their picture (R7)."""


def board_json() -> dict[str, Any]:
    """The facts every Black Keep map shares, as the page reads them."""
    return {
        "game": "black-keep",
        "size": SIZE,
        "facings": [{"name": name, "dq": dq, "dr": dr}
                    for name, (dq, dr) in zip(FACINGS, DELTAS, strict=True)],
        "statuses": [{"name": name, "title": name.capitalize(), "letter": STATUS_LOOK[name][0],
                      "colour": STATUS_LOOK[name][1], "text": STATUS_LOOK[name][2]}
                     for name in STATUSES],
        "types": [{"name": name, "letter": name[0].upper(),
                   "default": STATUSES[DEFAULT_STATUS[k]]}
                  for k, name in enumerate(GUARD_TYPES)],
        "specials": [{"kind": kind, "name": name} for kind, name in SPECIAL_KINDS.items()],
        "thieves": [{"name": name, "colour": colour}
                    for name, colour in zip(SEATS, THIEF_COLOURS, strict=True)],
        "thief_cards": [{"name": c.name, "kind": c.kind, "text": c.text} for c in THIEF_CARDS],
        "guard_cards": [{"name": c.name, "cost": c.cost, "range": c.range, "target": c.target,
                         "text": c.text} for c in GUARD_CARDS],
        "treasures": [{"name": t.name, "value": t.value, "real": t.real, "text": t.text}
                      for t in TREASURES],
    }


def render() -> str:
    """The text of ``board.json``: stable, one entry per line, ending in a newline."""
    return render_facts(board_json())


if __name__ == "__main__":  # write board.json next to the board
    write_facts(BOARD_JSON, render())
