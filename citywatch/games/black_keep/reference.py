"""The Black Keep's rules reference (``Game.reference()``): the game's facts for people, read
from the card data (``data.py``, spec 6.2, 6.5, 6.6) and the shipped scenarios
(``scenario.py``, spec 11).

Sections, in order: the ten thief cards, the Guard cards (price, range, whom or what they
target, text), the treasures (value, real or fake, text), the shipped scenarios (summary,
thieves, dawn), the tiles of the shipped scenarios (what each is for, which scenarios use it)
and the terms of the how-to-play guide (``data/how-to-play.json``). Nothing here depends on a
game in progress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citywatch.core.guide import Guide, load_guide, with_terms
from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.games.black_keep.state import GUARD_TYPES

TITLES = {"thief_cards": "Thief cards", "guard_cards": "Guard cards",
          "treasures": "Treasures", "scenarios": "Scenarios", "tiles": "Tiles"}
"""Each section's heading."""

Entry = dict[str, Any]


def _scenario(name: str) -> Entry:
    doc = scenario.read(name)
    players = doc.get("players", {})
    return {"id": name, "name": doc["name"], "text": doc.get("summary", ""),
            "thieves": f"{players.get('min', 1)}-{players.get('max', 4)}",
            "dawn": f"round {doc['dawn']}", "advanced": bool(doc.get("advanced"))}


def how_to_play() -> Guide:
    """Set-up, a round, how to win and the terms (``data/how-to-play.json``)."""
    return load_guide(Path(__file__).parent / "data" / "how-to-play.json")


def _coins(n: int) -> str:
    return f"{n} Gold Coin{'' if n == 1 else 's'}"


def _tiles() -> list[Entry]:
    """Every tile of the shipped scenarios, by name in first-seen order: what it is for
    (entry, exit, the Vault) and the scenarios that use it."""
    tiles: dict[str, Entry] = {}
    for name in scenario.names():
        doc = scenario.read(name)
        vault = doc.get("vault", {}).get("tile")
        for tile in doc.get("tiles", []):
            roles = [word for word, on in (("an entry tile", tile.get("entry")),
                                           ("an exit tile", tile.get("exit"))) if on]
            if tile.get("id") == vault:
                roles = ["the Vault tile, with the crown"]
            entry = tiles.setdefault(tile["name"], {
                "name": tile["name"],
                "text": f"A tile of the keep: {' and '.join(roles) or 'neither entry nor exit'}.",
                "scenarios": []})
            entry["scenarios"].append(doc["name"])
    return [{**t, "scenarios": ", ".join(t["scenarios"])} for t in tiles.values()]


def reference(game: str) -> dict[str, Any]:
    """The reference of the game named ``game``: its sections of entries, each with a name."""
    return with_terms({
        "game": game,
        "titles": TITLES,
        "thief_cards": [{"name": c.name, "kind": c.kind, "text": c.text} for c in THIEF_CARDS],
        "guard_cards": [{"name": c.name, "price": _coins(c.cost),
                         "range": f"{c.range} hexes", "target": c.target,
                         **({"statuses": ", ".join(c.statuses)} if c.statuses else {}),
                         **({"types": ", ".join(GUARD_TYPES[t] for t in c.types)}
                            if c.types else {}),
                         "text": c.text} for c in GUARD_CARDS],
        "treasures": [{"name": t.name, "value": t.value, "real": t.real, "text": t.text}
                      for t in TREASURES],
        "scenarios": [_scenario(name) for name in scenario.names()],
        "tiles": _tiles(),
    }, how_to_play())
