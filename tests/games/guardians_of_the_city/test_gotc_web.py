"""The Guardians of the City browser board (``citywatch/games/guardians_of_the_city/web``),
without a browser.

``web/board.json`` is exactly what ``make_web`` writes now, and it holds the game data's
pillars, Citizen Groups, Terrorist Cells, rules numbers and every card's face; ``board.js``
follows the board interface of the server's ``common.js`` and the pages' Content Security
Policy (no inline scripts or styles, no HTML strings); every class it draws with is styled in
``board.css``; the server serves the folder; and a real view carries every field the board
reads, while a seat's snapshot holds no other seat's hand (ruling 17).
"""

from __future__ import annotations

import json
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

from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    GROUPS,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.make_web import BOARD_JSON, render

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

WEB = Path(BOARD_JSON).parent
data, js, css = board_files(BOARD_JSON)


def test_board_json_is_up_to_date() -> None:
    """The committed web/board.json is exactly what make_web writes from the game data."""
    assert BOARD_JSON.read_text(encoding="utf-8") == render(), (
        "web/board.json is stale: run python -m citywatch.games.guardians_of_the_city.make_web")


def test_board_json_holds_the_game_facts(data: dict[str, Any]) -> None:
    """The five pillars, four Citizen Groups and three cells in the data's order (rulebook
    section 3), the effort range 1-4, cells and support at most 6 and 4, a hand of 4, and
    every Action and Crisis card's face as the data has it."""
    assert [p["name"] for p in data["pillars"]] == list(PILLARS)
    assert len({p["hex"] for p in data["pillars"]}) == len(PILLARS)
    assert data["groups"] == list(GROUPS) and data["cells"] == list(CELLS)
    assert data["numbers"] == {"effort_min": CONSTANTS.effort_min,
                               "effort_max": CONSTANTS.effort_max,
                               "cell_max": CONSTANTS.cell_max,
                               "group_max": CONSTANTS.group_max,
                               "hand_size": CONSTANTS.hand_size}
    assert (data["numbers"]["effort_min"], data["numbers"]["effort_max"]) == (1, 4)
    assert len(data["action_cards"]) == len(ACTION_CARDS)
    for raw, card in zip(data["action_cards"], ACTION_CARDS, strict=True):
        assert (raw["id"], raw["name"], raw["kind"], raw["pillar"], raw["min_effort"],
                raw["text"]) == (card.id, card.name, card.kind, PILLARS[card.pillar],
                                 card.min_effort, card.text)
    assert len(data["crisis_cards"]) == len(CRISIS_CARDS)
    for raw, crisis in zip(data["crisis_cards"], CRISIS_CARDS, strict=True):
        assert (raw["id"], raw["name"], raw["kind"], raw["text"]) == (
            crisis.id, crisis.name, crisis.kind, crisis.text)
        assert raw["pillar"] == (None if crisis.pillar < 0 else PILLARS[crisis.pillar])


def test_board_js_follows_the_board_interface(js: str) -> None:
    """board.js registers the module under the game's name with load, mount and render,
    fetches board.json and board.css from the folder it is served from, and finds by id only
    elements that its mount builds."""
    check_board_interface(js, "guardians-of-the-city")


def test_board_js_keeps_to_the_content_security_policy(js: str, css: str) -> None:
    """No HTML strings, inline styles, eval or inline handlers: elements are built with
    common.js's ``el`` and styled by classes in board.css."""
    check_content_security_policy(js, css)


def test_every_class_the_board_draws_with_is_styled(data: dict[str, Any], js: str,
                                                    css: str) -> None:
    """Each pillar's colour class and each seat's chip has its rule in board.css, and so
    does every fixed ``gc-`` class board.js names (but for a few layout hooks)."""
    styled = set(re.findall(r"\.(gc-[\w-]+)", css))
    wanted = {f"gc-p-{i}" for i in range(len(data["pillars"]))} | {"gc-p-none"}
    wanted |= {f"gc-seat-{k}" for k in range(1, CONSTANTS.max_players + 1)}
    assert wanted <= styled, wanted - styled
    hooks = {"gc-who", "gc-cells-panel", "gc-hand-panel", "gc-pillars", "gc-groups"}
    assert unstyled(js, css, "gc", hooks) == []


def test_the_server_serves_the_board(tmp_path: Path) -> None:
    """``/games/guardians-of-the-city/`` serves board.js, board.css and board.json, and the
    game is listed as having a board."""
    from citywatch.games.guardians_of_the_city.game import GAME
    from citywatch.server import create_app

    assert GAME.web_folder() == WEB
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        check_served(client, "guardians-of-the-city", WEB)


@pytest.fixture(scope="module")
def views() -> Iterator[dict[str, Any]]:
    from citywatch.games.guardians_of_the_city.game import GAME

    state = GAME.new_game(3, 4)
    seat = state.to_move
    assert seat is not None
    yield {"seat": state.view(seat), "spectator": state.view(None)}


def test_a_real_view_has_what_the_board_reads(views: dict[str, Any],
                                              data: dict[str, Any]) -> None:
    """The fields board.js reads are in the engine's view, named as board.json names them."""
    view = views["seat"]
    for key in ("seat", "name", "label", "turn", "first", "current", "step", "step_name",
                "plays", "decision", "cells", "ending", "in_play", "crisis", "seats", "own",
                "result"):
        assert key in view, key
    assert [c["name"] for c in view["cells"]] == data["cells"]
    for cell in view["cells"]:
        assert {"strength", "eliminated", "frozen"} <= set(cell)
    pillars = [p["name"] for p in data["pillars"]]
    for seat in view["seats"]:
        for key in ("name", "deck", "effort", "effective_effort", "required_effort", "support",
                    "shield", "counter_terrorism_points", "special_intelligence_used",
                    "score", "hand_count", "known_in_hand", "action_deck_count",
                    "crisis_deck_count", "action_discard", "crisis_discard", "score_pile",
                    "subversive", "lasting", "action_limit"):
            assert key in seat, key
        assert list(seat["effort"]) == list(seat["effective_effort"]) == pillars
        assert list(seat["support"]) == data["groups"]
        assert set(seat["deck"]["suggested_effort"]) == set(pillars)
    names = {c["name"] for c in data["action_cards"]}
    assert len(view["own"]["hand"]) == CONSTANTS.hand_size
    for card in view["own"]["hand"]:
        assert {"name", "kind", "pillar", "min_effort", "text", "requirement_met",
                "playable_now"} <= set(card)
        assert card["name"] in names and card["pillar"] in pillars
    decision = view["decision"]
    assert decision is not None and decision["actions_json"]
    for action in decision["actions_json"]:
        assert action["verb"] in ("effort", "keep_effort")
        if action["verb"] == "effort":
            assert action["pillar"] in pillars
    assert views["spectator"]["own"] is None


def test_a_seats_snapshot_holds_no_other_hand(tmp_path: Path) -> None:
    """The server sends a seat the engine's view for that seat and nothing more: no other
    seat's hand (ruling 17), whatever the board draws."""
    from citywatch.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as client:
        created = client.post("/api/tables", json={
            "game": "guardians-of-the-city", "seats": ["human", "human"], "seed": 2,
            "practice": True}).json()
        links = [s["link"] for s in created["seats"]]
        snapshots = [client.get(f"/api/view/{link.removeprefix('/play/')}").json()
                     for link in links]
    for seat, snapshot in enumerate(snapshots):
        view = snapshot["view"]
        assert view["seat"] == seat and view["own"] is not None
        assert all("hand" not in s for s in view["seats"])
        other = snapshots[1 - seat]["view"]["own"]["hand"]
        hidden = {c["name"] for c in other} - {c["name"] for c in view["own"]["hand"]}
        text = json.dumps({k: v for k, v in view.items() if k != "seats"})
        for name in hidden:
            assert name not in text, name
