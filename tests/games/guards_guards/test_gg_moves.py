"""Issue 26 for Guards! Guards!: the tiles one decision touched (``Game.move_spaces``), by the
ids the views name them by, read from the spectator's views and the public lines only."""

from __future__ import annotations

import copy

from citywatch.games.guards_guards.data import QUADRANTS, TILES
from citywatch.games.guards_guards.game import GAME

NAME = {t.id: t.name for t in TILES}


def in_board_order(*ids: str) -> list[str]:
    return [t.id for t in TILES if t.id in ids]


def test_move_spaces_are_where_pieces_went_and_the_tiles_public_lines_name() -> None:
    """Issue 26: a piece that moved marks the tile it left and the tile it reached, the
    Luggage's too, a Dragon the Guild House of its quadrant, and a public line the tile it
    names; in the board's order."""
    after = GAME.new_game(4, 3).view(None)
    assert GAME.move_spaces(after, after, []) == []
    before = copy.deepcopy(after)
    before["seats"][1]["tile"], after["seats"][1]["tile"] = "s+1+2", "s+1+1"
    assert GAME.move_spaces(before, after, []) == in_board_order("s+1+2",
                                                                 "s+1+1")
    before = copy.deepcopy(after)
    before["luggage"], after["luggage"] = "s+1+2", after["luggage"] or "s+1+1"
    after["dragons"] = {**(before.get("dragons") or {}), QUADRANTS[0]: {"name": "Errol"}}
    before["dragons"] = {}
    found = GAME.move_spaces(before, after, [f"Blue walks past {NAME['s-1+3']} to the Gate."])
    assert "s+1+2" in found and "s-1+3" in found
    assert any(TILES[i].kind == "guild_house" and TILES[i].id in found
               for i in range(len(TILES)) if TILES[i].quadrant == 0)
    assert found == in_board_order(*found)
