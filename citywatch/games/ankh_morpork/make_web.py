"""Generate ``web/cards.json``, the game facts the browser board (``web/board.js``) shows.

The board reads card symbols and texts, area numbers, costs and powers, events and
personalities from this file (served at ``/games/ankh-morpork/cards.json``) instead of
asking the server. Run it again after the game data changes, and commit its output::

    python -m citywatch.games.ankh_morpork.make_web
"""

from __future__ import annotations

import json
from typing import Any

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
    data = cards_json()
    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            rows = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in value)
            parts.append(f"{json.dumps(key)}: [\n{rows}\n]")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    """Write ``cards.json`` next to the board."""
    CARDS_JSON.write_text(render(), encoding="utf-8")
    print(f"wrote {CARDS_JSON}")


if __name__ == "__main__":
    main()
