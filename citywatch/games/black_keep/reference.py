"""The Black Keep's rules reference (``Game.reference()``): the game's facts for people, read
from the card data (``data.py``, spec 6.2, 6.5, 6.6) and the shipped scenarios
(``scenario.py``, spec 11).

Sections, in order: the ten thief cards, the Guard cards (price, range, whom or what they
target, text), the treasures (value, real or fake, text) and the shipped scenarios (summary,
thieves, dawn). Nothing here depends on a game in progress.
"""

from __future__ import annotations

from typing import Any

from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.games.black_keep.state import GUARD_TYPES

TITLES = {"thief_cards": "Thief cards", "guard_cards": "Guard cards",
          "treasures": "Treasures", "scenarios": "Scenarios"}
"""Each section's heading."""

Entry = dict[str, Any]


def _scenario(name: str) -> Entry:
    doc = scenario.read(name)
    players = doc.get("players", {})
    return {"id": name, "name": doc["name"], "text": doc.get("summary", ""),
            "thieves": f"{players.get('min', 1)}-{players.get('max', 4)}",
            "dawn": f"round {doc['dawn']}", "advanced": bool(doc.get("advanced"))}


def reference(game: str) -> dict[str, Any]:
    """The reference of the game named ``game``: its sections of entries, each with a name."""
    return {
        "game": game,
        "titles": TITLES,
        "thief_cards": [{"name": c.name, "kind": c.kind, "text": c.text} for c in THIEF_CARDS],
        "guard_cards": [{"name": c.name, "price": f"{c.cost} Gold Coins",
                         "range": f"{c.range} hexes", "target": c.target,
                         **({"statuses": ", ".join(c.statuses)} if c.statuses else {}),
                         **({"types": ", ".join(GUARD_TYPES[t] for t in c.types)}
                            if c.types else {}),
                         "text": c.text} for c in GUARD_CARDS],
        "treasures": [{"name": t.name, "value": t.value, "real": t.real, "text": t.text}
                      for t in TREASURES],
        "scenarios": [_scenario(name) for name in scenario.names()],
    }
