"""Generate ``static/cards.json``, the game facts the browser page shows.

The page reads card symbols and texts, area numbers, costs and powers, events and
personalities from this file instead of asking the server. Run it again after the game
data changes, and commit its output::

    python -m citywatch.server.make_static
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citywatch.core.registry import load

STATIC = Path(__file__).parent / "static"
CARDS_JSON = STATIC / "cards.json"


def cards_json() -> dict[str, Any]:
    """The Ankh-Morpork reference, as the page uses it."""
    reference = load("ankh-morpork").reference()
    return {
        "game": "ankh-morpork",
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
    """Write ``cards.json`` next to the page."""
    CARDS_JSON.write_text(render(), encoding="utf-8")
    print(f"wrote {CARDS_JSON}")


if __name__ == "__main__":
    main()
