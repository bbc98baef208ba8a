"""Generate ``web/board.json``, the board facts the browser board (``web/board.js``) draws.

The board reads the hex map (every walkable tile with its id, name, kind, quadrant, axial
q, r, pixel centre, colour and what one does there, ``use``), the River and University hexes,
the Luggage track, the quadrants and their Guild Houses, the deck spaces, the Great Spells and
the player colours from this file (served at ``/games/guards-guards/board.json``) instead of
asking the server. Run it again after the game data changes, and commit its output::

    python -m citywatch.games.guards_guards.make_web
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from citywatch.core.web import render_facts, write_facts
from citywatch.games.guards_guards import board, places
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    COLOURS,
    DECK_NAMES,
    DECK_SPACES,
    GUILD_CARDS,
    GUILD_HOUSES,
    LUGGAGE_TRACK,
    QUADRANTS,
    RIVER_HEXES,
    SPELL_COLOURS,
    SPELL_NAMES,
    SPELL_TILES,
    TILES,
    UNIVERSITY_HEXES,
)

DATA_JSON = Path(__file__).parent / "data" / "guards-guards.json"
WEB = Path(__file__).parent / "web"
BOARD_JSON = WEB / "board.json"

SIZE = 30
"""A hex's circumradius in the SVG's units: pixel = SIZE * board.pixel(tile)."""
MARGIN = 12
"""Room around the outermost hexes and deck spaces, in SVG units."""
DECK_HALF = (34, 24)
"""Half the width and height of a deck space's card stack, in SVG units."""
TITLE_ROOM = 16
"""Extra room above and below the map for the quadrants' names, in SVG units."""

SPELL_HEX = {
    "red": "#d03a2f", "orange": "#ee8a1c", "yellow": "#f2cf1d", "green": "#3c9a45",
    "blue": "#2f6fd0", "indigo": "#4b3a9e", "violet": "#9a4fc2", "octarine": "#b5e61d",
}
"""The Great Spells' colours as the board paints them (octarine: a greenish glow)."""
PLAYER_HEX = {
    "Red": "#c0392b", "Blue": "#2364c4", "Black": "#222222", "White": "#f4f4f0",
    "Yellow": "#e6b800", "Green": "#2e8b3e",
}
"""The six player colours as the board paints pieces."""
LABELS = {
    "guild_house": "Guild", "temple": "Temple", "merchant": "Shop", "tavern": "Tavern",
    "hospital": "Hosp.", "watch_house": "Watch", "volunteer_lords_ladies": "LL",
    "volunteer_man_beast": "MB", "volunteer_shades_shadows": "SS", "bridge": "Bridge",
    "spell": "Spell", "start_gate": "Gate", "curry_gardens": "Curry",
    "sunshine_sanctuary": "Dragons", "street": "",
}
"""A short label drawn on each kind of tile (streets have none)."""
KIND_NAMES = {
    "volunteer_lords_ladies": "Volunteer tile (Lords & Ladies)",
    "volunteer_man_beast": "Volunteer tile (Man & Beast)",
    "volunteer_shades_shadows": "Volunteer tile (Shades & Shadows)",
    "merchant": "Merchant (Odds & Sods)", "temple": "Temple (Curses & Cures)",
    "curry_gardens": "The Curry Gardens", "sunshine_sanctuary": "Dragon sanctuary",
    "guild_house": "Guild House", "spell": "Spell tile", "start_gate": "Start Gate",
    "watch_house": "Watch House",
}
"""Readable kinds for the tiles' hover titles (others: the kind with spaces)."""


def _xy(q: float, r: float) -> tuple[float, float]:
    return round(SIZE * 1.5 * q, 2), round(SIZE * math.sqrt(3) * (r + q / 2), 2)


def _hexes(cells: frozenset[tuple[int, int]]) -> list[dict[str, Any]]:
    out = []
    for q, r in sorted(cells, key=lambda c: (c[1] + c[0] / 2, c[0])):
        x, y = _xy(q, r)
        out.append({"q": q, "r": r, "x": x, "y": y})
    return out


def _tile_json(i: int) -> dict[str, Any]:
    t = TILES[i]
    x, y = board.pixel(i)
    spell = SPELL_COLOURS.index(t.colour) if t.kind == "spell" else -1
    return {
        "id": t.id, "name": t.name, "kind": t.kind,
        "kind_name": KIND_NAMES.get(t.kind, t.kind.replace("_", " ").capitalize()),
        "quadrant": QUADRANTS[t.quadrant] if t.quadrant >= 0 else None,
        "border_of": [QUADRANTS[q] for q in t.border_of],
        "q": t.q, "r": t.r, "x": round(SIZE * x, 2), "y": round(SIZE * y, 2),
        "colour": t.colour, "label": LABELS.get(t.kind, ""),
        "spell_name": SPELL_NAMES[spell] if spell >= 0 else None,
        "use": places.use(i),
    }


def board_json() -> dict[str, Any]:
    """The Guards! Guards! board, as the page draws it."""
    raw = json.loads(DATA_JSON.read_text(encoding="utf-8"))["board"]
    tiles = [_tile_json(i) for i in range(len(TILES))]
    every = [(t["x"], t["y"]) for t in tiles]
    every += [_xy(q, r) for q, r in RIVER_HEXES | UNIVERSITY_HEXES]
    half_w, half_h = SIZE, SIZE * math.sqrt(3) / 2
    decks = [_xy(*raw["deck_spaces"][d.index]["anchor"]) for d in DECK_SPACES]
    left = math.floor(min([x - half_w for x, _ in every] + [x - DECK_HALF[0] for x, _ in decks])
                      - MARGIN)
    right = math.ceil(max([x + half_w for x, _ in every] + [x + DECK_HALF[0] for x, _ in decks])
                      + MARGIN)
    top = math.floor(min([y - half_h for _, y in every] + [y - DECK_HALF[1] for _, y in decks])
                     - MARGIN - TITLE_ROOM)
    bottom = math.ceil(max([y + half_h for _, y in every] + [y + DECK_HALF[1] for _, y in decks])
                       + MARGIN + TITLE_ROOM)
    track = LUGGAGE_TRACK
    edges = [[TILES[u].id, TILES[v].id] for u in range(len(TILES)) for v in board.LUGGAGE_NEXT[u]]
    houses = dict(zip(QUADRANTS, GUILD_HOUSES, strict=True))
    centre = raw["unseen_university"]["centre"]
    cx, cy = _xy(centre[0], centre[1])
    return {
        "game": "guards-guards",
        "size": SIZE,
        "view_box": [left, top, right - left, bottom - top],
        "attributes": list(ATTRIBUTES),
        "colours": [{"name": c, "hex": PLAYER_HEX.get(c, "#888888")} for c in COLOURS],
        "spells": [{"colour": c, "name": n, "tile": TILES[t].id, "hex": SPELL_HEX.get(c, "#888")}
                   for c, n, t in zip(SPELL_COLOURS, SPELL_NAMES, SPELL_TILES, strict=True)],
        "quadrants": [
            {"name": q, "title": q.capitalize(), "compass": raw["quadrants"][q]["compass"],
             "half": raw["quadrants"][q]["half"], "guild_house": TILES[houses[q]].id,
             "guild_cards": [g.name for g in GUILD_CARDS if QUADRANTS[g.guild] == q]}
            for q in QUADRANTS
        ],
        "decks": list(DECK_NAMES),
        "deck_spaces": [
            {"id": d.id, "deck": d.deck, "label": raw["deck_spaces"][d.index]["label"],
             "corner": raw["deck_spaces"][d.index]["corner"],
             "shop": TILES[d.shop].id, "cards_at_setup": d.cards,
             "x": _xy(*raw["deck_spaces"][d.index]["anchor"])[0],
             "y": _xy(*raw["deck_spaces"][d.index]["anchor"])[1]}
            for d in DECK_SPACES
        ],
        "river": {"name": raw["river"]["name"], "hexes": _hexes(RIVER_HEXES)},
        "university": {"name": raw["unseen_university"]["name"], "x": cx, "y": cy,
                       "hexes": _hexes(UNIVERSITY_HEXES)},
        "luggage": {
            "start": TILES[track.start].id,
            "before": [TILES[t].id for t in track.before],
            "grey": [TILES[t].id for t in track.grey],
            "orange": [TILES[t].id for t in track.orange],
            "after": [TILES[t].id for t in track.after],
            "edges": edges,
        },
        "tiles": tiles,
    }


def render() -> str:
    """The text of ``board.json``: stable, one entry per line, ending in a newline."""
    return render_facts(board_json())


if __name__ == "__main__":  # write board.json next to the board
    write_facts(BOARD_JSON, render())
