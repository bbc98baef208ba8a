"""The Guards! Guards! browser board (``citywatch/games/guards_guards/web``), without a browser.

``web/board.json`` is exactly what ``make_web`` writes now, and it describes the board of the
game data (every tile at its pixel position, the River, the University, the Luggage's track,
the deck spaces); ``board.js`` follows the board interface of the server's ``common.js`` and
the pages' Content Security Policy (no inline scripts or styles, no HTML strings); every
class it draws with is styled in ``board.css``; the server serves the folder; and a real
view carries every field the board reads.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    board_files,
    check_board_interface,
    check_content_security_policy,
    check_served,
    unstyled,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    COLOURS,
    DECK_SPACES,
    GUILD_HOUSES,
    QUADRANTS,
    RIVER_HEXES,
    SPELL_COLOURS,
    TILES,
    UNIVERSITY_HEXES,
)
from citywatch.games.guards_guards.make_web import BOARD_JSON, SIZE, render

WEB = Path(BOARD_JSON).parent
data, js, css = board_files(BOARD_JSON)


def test_board_json_is_up_to_date() -> None:
    """The committed web/board.json is exactly what make_web writes from the game data."""
    assert BOARD_JSON.read_text(encoding="utf-8") == render(), (
        "web/board.json is stale: run python -m citywatch.games.guards_guards.make_web")


def test_board_json_describes_the_game_board(data: dict[str, Any]) -> None:
    """Every walkable tile in data order, with its name (as actions name it), kind, quadrant
    and pixel centre (flat-top: x = 1.5 q, y = sqrt(3) (r + q / 2), times the hex size)."""
    tiles = data["tiles"]
    assert len(tiles) == len(TILES) == 158
    for raw, tile in zip(tiles, TILES, strict=True):
        assert (raw["id"], raw["name"], raw["kind"], raw["q"], raw["r"], raw["colour"]) == (
            tile.id, tile.name, tile.kind, tile.q, tile.r, tile.colour)
        assert raw["quadrant"] == (QUADRANTS[tile.quadrant] if tile.quadrant >= 0 else None)
        assert raw["x"] == pytest.approx(SIZE * 1.5 * tile.q, abs=0.01)
        assert raw["y"] == pytest.approx(SIZE * math.sqrt(3) * (tile.r + tile.q / 2), abs=0.01)
    assert len({t["id"] for t in tiles}) == len({t["name"] for t in tiles}) == len(tiles)
    left, top, width, height = data["view_box"]
    for t in tiles:
        assert left + SIZE <= t["x"] <= left + width - SIZE
        assert top + SIZE <= t["y"] <= top + height - SIZE
    walkable = {(t.q, t.r) for t in TILES}
    for key, cells in (("river", RIVER_HEXES), ("university", UNIVERSITY_HEXES)):
        hexes = {(h["q"], h["r"]) for h in data[key]["hexes"]}
        assert hexes == set(cells) and not hexes & walkable
    assert [c["name"] for c in data["colours"]] == list(COLOURS)
    assert [s["colour"] for s in data["spells"]] == list(SPELL_COLOURS)
    assert [q["name"] for q in data["quadrants"]] == list(QUADRANTS)
    assert [q["guild_house"] for q in data["quadrants"]] == [TILES[h].id for h in GUILD_HOUSES]
    assert [d["id"] for d in data["deck_spaces"]] == [d.id for d in DECK_SPACES]


def test_board_json_luggage_track_follows_the_board(data: dict[str, Any]) -> None:
    """The Luggage's track: its parts and every step, each between neighbouring tiles."""
    index = {t.id: t.index for t in TILES}
    luggage = data["luggage"]
    assert luggage["start"] == TILES[board.LUGGAGE_START].id
    steps = {(a, b) for a, b in luggage["edges"]}
    assert steps == {(TILES[u].id, TILES[v].id) for u in range(len(TILES))
                     for v in board.LUGGAGE_NEXT[u]}
    for a, b in steps:
        assert index[b] in board.NEIGHBOURS[index[a]]
    for part in ("before", "grey", "orange", "after"):
        assert luggage[part] and all(t in index for t in luggage[part])


def test_board_js_follows_the_board_interface(js: str) -> None:
    """board.js registers the module under the game's name with load, mount and render,
    fetches board.json and board.css from the folder it is served from, and finds by id only
    elements that its mount builds."""
    check_board_interface(js, "guards-guards")


def test_board_js_keeps_to_the_content_security_policy(js: str, css: str) -> None:
    """No HTML strings, inline styles, eval or inline handlers: elements are built with
    common.js's ``el``/``svg`` and styled by classes in board.css."""
    check_content_security_policy(js, css)


def test_every_class_the_board_draws_with_is_styled(data: dict[str, Any], js: str,
                                                    css: str) -> None:
    """Kinds, quadrants, seat colours and spell colours each have their rule in board.css,
    and so does every fixed ``gg-`` class board.js names."""
    styled = set(re.findall(r"\.(gg-[\w-]+)", css))
    kinds = {t["kind"] for t in data["tiles"]} - {"street"}
    wanted = {f"gg-k-{k}" for k in kinds}
    wanted |= {f"gg-q-{q}" for q in QUADRANTS} | {"gg-q-border"}
    wanted |= {f"gg-c-{c}" for c in COLOURS} | {f"gg-spell-{c}" for c in SPELL_COLOURS}
    assert wanted <= styled, wanted - styled
    hooks = {"gg-tile", "gg-menu-choice", "gg-who", "gg-quadrant-title", "gg-tiles",
             "gg-hand-panel", "gg-table-panel", "gg-faceup-deck", "gg-board-host", "gg-me",
             "gg-track-head", "gg-university"}
    assert unstyled(js, css, "gg", hooks, last="a-z") == []


def test_the_server_serves_the_board(tmp_path: Path) -> None:
    """``/games/guards-guards/`` serves board.js, board.css and board.json, and the game
    is listed as having a board."""
    from citywatch.games.guards_guards.game import GAME
    from citywatch.server import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    assert GAME.web_folder() == WEB
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        check_served(client, "guards-guards", WEB)


@pytest.fixture(scope="module")
def views() -> Iterator[dict[str, Any]]:
    from citywatch.games.guards_guards.game import GAME

    state = GAME.new_game(4, 1)
    seat = state.to_move
    assert seat is not None
    yield {"seat": state.view(seat), "spectator": state.view(None)}


def test_a_real_view_has_what_the_board_reads(views: dict[str, Any],
                                              data: dict[str, Any]) -> None:
    """The fields board.js reads are in the engine's view, and the tiles the view and its
    actions name are in board.json (by id and by name)."""
    view = views["seat"]
    for key in ("seat", "colour", "spells_to_win", "turn", "current", "decision", "luggage",
                "dragons", "dragon_pile", "volunteer_decks", "fate_deck", "fate_discard",
                "card_decks", "volunteer_modifiers", "seats", "own", "result"):
        assert key in view, key
    for seat in view["seats"]:
        for key in ("colour", "guild_card", "tile", "levels", "effective", "dollars",
                    "volunteers", "scrolls", "items", "bought_prices", "kept", "saboteurs",
                    "returned", "pox", "fire_water", "flasks", "effects", "missed", "jailed",
                    "run"):
            assert key in seat, key
        assert set(seat["levels"]) == set(data["attributes"])
    for key in ("hand", "scrolls", "items", "saboteurs"):
        assert key in view["own"], key
    for deck in view["volunteer_decks"]:
        assert {"deck", "face_down", "face_up", "face_up_count", "discard"} <= set(deck)
    assert set(view["card_decks"]) == {d["id"] for d in data["deck_spaces"]}
    ids = {t["id"] for t in data["tiles"]}
    names = {t["name"] for t in data["tiles"]}
    assert view["luggage"] in ids
    decision = view["decision"]
    assert decision is not None and decision["actions_json"]
    for action in decision["actions_json"]:
        for key, value in action.items():
            if key in ("tile", "gate"):
                assert value in names, value
    assert views["spectator"]["own"] is None
