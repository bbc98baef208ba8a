"""Generate ``web/cards.json``, the game facts the browser board (``web/board.js``) shows.

The board reads card symbols and texts, area numbers, costs and powers, events and
personalities from this file (served at ``/games/ankh-morpork/cards.json``) instead of
asking the server. Run it again after the game data changes, and commit its output::

    python -m citywatch.games.ankh_morpork.make_web
"""

from __future__ import annotations

from typing import Any

from citywatch.core.web import render_facts, write_facts
from citywatch.games.ankh_morpork.game import GAME

WEB = GAME.web_folder()
CARDS_JSON = WEB / "cards.json"


def cards_json() -> dict[str, Any]:
    """The Ankh-Morpork reference, as the page uses it."""
    reference = GAME.reference()
    return {
        "game": GAME.name,
        "cards": reference["cards"],
        "areas": reference["areas"],
        "events": reference["events"],
        "personalities": reference["personalities"],
    }


def render() -> str:
    """The text of ``cards.json``: stable, one entry per line, ending in a newline."""
    return render_facts(cards_json())


if __name__ == "__main__":  # write cards.json next to the board
    write_facts(CARDS_JSON, render())
