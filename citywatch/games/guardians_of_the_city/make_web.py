"""Generate ``web/board.json``, the card and table facts the browser board (``web/board.js``)
draws: the five pillars (with the colour the board paints each), the Citizen Groups, the
Terrorist Cells, the rules' numbers the board shows (effort range, cell and support maxima,
hand size) and every Action and Crisis card's face, so the board can explain a card named in a
discard pile, a Score pile or a log without asking the server. Run it again after the game
data changes, and commit its output::

    python -m citywatch.games.guardians_of_the_city.make_web
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citywatch.core.web import render_facts, write_facts
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    GROUPS,
    LABEL,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.scoring import REASONS

WEB = Path(__file__).parent / "web"
BOARD_JSON = WEB / "board.json"

PILLAR_HEX = ("#b03a2e", "#2e6fb0", "#c8961e", "#2f8a4a", "#7a4fb0")
"""The colour the board paints each pillar, in ``PILLARS`` order."""
PILLAR_SHORT = ("MIL", "CIV", "ECO", "SOC", "PSY")
"""A pillar's three-letter mark on small card corners, in ``PILLARS`` order."""


def board_json() -> dict[str, Any]:
    """The game's table facts, as the page draws them."""
    return {
        "game": "guardians-of-the-city",
        "label": LABEL,
        "pillars": [{"name": name, "short": short, "hex": colour}
                    for name, short, colour in zip(PILLARS, PILLAR_SHORT, PILLAR_HEX,
                                                   strict=True)],
        "groups": list(GROUPS),
        "cells": list(CELLS),
        "numbers": {"effort_min": CONSTANTS.effort_min, "effort_max": CONSTANTS.effort_max,
                    "cell_max": CONSTANTS.cell_max, "group_max": CONSTANTS.group_max,
                    "hand_size": CONSTANTS.hand_size},
        "reasons": list(REASONS),
        "action_cards": [
            {"id": c.id, "name": c.name, "kind": c.kind, "type": c.type,
             "pillar": PILLARS[c.pillar], "min_effort": c.min_effort, "lasting": c.lasting,
             "text": c.text}
            for c in ACTION_CARDS
        ],
        "crisis_cards": [
            {"id": c.id, "name": c.name, "kind": c.kind, "type": c.type,
             "pillar": None if c.pillar < 0 else PILLARS[c.pillar], "text": c.text}
            for c in CRISIS_CARDS
        ],
    }


def render() -> str:
    """The text of ``board.json``: stable, one entry per line, ending in a newline."""
    return render_facts(board_json())


if __name__ == "__main__":  # write board.json next to the board
    write_facts(BOARD_JSON, render())
