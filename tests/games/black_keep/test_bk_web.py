"""The Black Keep browser map (``citywatch/games/black_keep/web``), without a browser.

``web/board.json`` is exactly what ``make_web`` writes now and holds what every scenario shares
(facings, statuses, cards); the map itself comes with every view (``map``, made once per board,
spec 2) so a scenario of one's own draws too; the last Guard Phase is in every view step by
step (``guard_steps``, spec 5), round-trips through positions and is shared by copies;
``board.js`` follows the board interface of the server's ``common.js`` and the pages' Content
Security Policy; every class it draws with is styled; the server serves the folder; and the
page data a seat gets never holds a rival thief's hex (spec 10).
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bk_positions import at, corridor, game, guard, marker, without_unplaced
from web_helpers import (
    board_files,
    check_board_interface,
    check_content_security_policy,
    check_served,
    unstyled,
)

from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards as rules
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep import view as views
from citywatch.games.black_keep.actions import SEATS
from citywatch.games.black_keep.board import BLOCKED
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.hexes import DELTAS, FACINGS, label, neighbour
from citywatch.games.black_keep.make_web import BOARD_JSON, render
from citywatch.games.black_keep.state import GUARD_TYPES, IN_PLAY, STATUSES, BlackKeepState

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

State = BlackKeepState
WEB = Path(BOARD_JSON).parent
data, js, css = board_files(BOARD_JSON)


def played(scenario: str, rounds: int, seed: int = 3, thieves: int = 1,
           mode: str = "coop") -> State:
    """A game on ``scenario`` played by random legal actions until ``rounds`` rounds have
    begun (or it ends)."""
    s = GAME.new_game(thieves, seed, scenario=scenario, mode=mode)
    rng = Rng(seed)
    while s.to_move is not None and s.round < rounds:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


# --- board.json ------------------------------------------------------------------------------
def test_board_json_is_up_to_date() -> None:
    """The committed web/board.json is exactly what make_web writes from the game data."""
    assert BOARD_JSON.read_text(encoding="utf-8") == render(), (
        "web/board.json is stale: run python -m citywatch.games.black_keep.make_web")


def test_board_json_holds_the_shared_facts(data: dict[str, Any]) -> None:
    """Spec 2.3 facings (clockwise from N, with their axial steps), 4.2 statuses with a letter
    each, 4.3 guard types, 2.7 Special Hex kinds, and the cards and treasures of 6.2, 6.5 and
    6.6 by name, as the game data has them."""
    assert [(f["name"], (f["dq"], f["dr"])) for f in data["facings"]] == list(
        zip(FACINGS, DELTAS, strict=True))
    assert [s["name"] for s in data["statuses"]] == list(STATUSES)
    assert len({s["letter"] for s in data["statuses"]}) == len(STATUSES)
    assert len({s["colour"] for s in data["statuses"]}) == len(STATUSES)
    assert [t["name"] for t in data["types"]] == list(GUARD_TYPES)
    assert [s["kind"] for s in data["specials"]] == ["door", "window", "grate"]
    assert [t["name"] for t in data["thieves"]] == list(SEATS)
    assert [(c["name"], c["text"]) for c in data["thief_cards"]] == [
        (c.name, c.text) for c in THIEF_CARDS]
    assert [(c["name"], c["cost"], c["text"]) for c in data["guard_cards"]] == [
        (c.name, c.cost, c.text) for c in GUARD_CARDS]
    assert [t["name"] for t in data["treasures"]] == [t.name for t in TREASURES]


# --- the map in the view ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tutorial", "the-vault", "the-black-keep"])
def test_the_view_carries_the_scenarios_map(name: str) -> None:
    """Spec 2.5-2.9: every floor hex by label with its axial (q, r); the solid hexes; each wall
    between two floor hexes once; the Special Hexes by kind; each tile's block, flags, outside
    edge hexes and routes; the crown. A side is the map's edge exactly where the board has a
    way off the map (``off_map``): no floor and no solid hex across it."""
    board = scenarios.load(name)
    v = GAME.new_game(1, 2, scenario=name).view(0)
    m = v["map"]
    assert m["hexes"] == {board.labels[i]: [q, r] for i, (q, r) in enumerate(board.hexes)}
    assert m["solid"] == {label(h): [h[0], h[1]] for h in board.solid}
    walls = set()
    for i, h in enumerate(board.hexes):
        for f in range(6):
            across = board.index.get(neighbour(h, f))
            if across is not None and board.step[i][f] == BLOCKED:
                walls.add(tuple(sorted((board.labels[i], board.labels[across]))))
    assert [tuple(w) for w in m["walls"]] == sorted(walls)  # each wall once
    assert m["special"] == {board.labels[i]: k for i, k in board.special_kind.items()}
    solid = {tuple(x) for x in m["solid"].values()}
    floor = {tuple(x) for x in m["hexes"].values()}
    for i, h in enumerate(board.hexes):
        edges = [f for f in range(6) if neighbour(h, f) not in floor | solid]
        assert tuple(edges) == board.off_map[i], board.labels[i]
    assert [t["id"] for t in m["tiles"]] == [t.id for t in board.tiles]
    for raw, tile in zip(m["tiles"], board.tiles, strict=True):
        assert raw["outside_edge"] == [board.labels[h] for h in tile.outside_edge]
        assert raw["green_line"] == [board.labels[h] for h in tile.green_line]
        assert raw["columns"][1] - raw["columns"][0] == raw["rows"][1] - raw["rows"][0] == 6
    assert m["crown"] == board.labels[board.crown]
    assert m["vault_tile"] == board.tiles[board.vault_tile].id
    assert set(v["lit"]) <= set(m["hexes"]) and set(v["torches"]) <= set(m["hexes"])


def test_the_map_is_made_once_per_board() -> None:
    """The map is cached on the board: every view of every state on it shares one object, so
    a view costs no more than before."""
    s = played("the-vault", 3)
    first = s.view(0)["map"]
    assert s.view(None)["map"] is first and s.copy().view(0)["map"] is first
    assert GAME.new_game(2, 9, scenario="the-vault").view(1)["map"] is first


def test_a_scenario_of_ones_own_brings_its_own_map() -> None:
    """Spec 11.1: a scenario file of one's own is drawn from its own JSON (a wall added and a
    torch moved show in its map and light), not from a shipped one of the same shape."""
    doc = scenarios.read("tutorial")
    doc["id"], doc["name"] = "my-guardroom", "My Guardroom"
    doc["walls"] = [*doc["walls"], ["C2", "C3"]]
    v = GAME.new_game(1, 5, scenario=doc).view(0)
    assert v["scenario"]["name"] == "My Guardroom"
    assert ["C2", "C3"] in v["map"]["walls"]
    assert ["C2", "C3"] not in GAME.new_game(1, 5, scenario="tutorial").view(0)["map"]["walls"]


# --- the Guard Phase step by step ------------------------------------------------------------
def test_guard_steps_walk_a_pursuing_guard_through_both_its_steps() -> None:
    """Spec 5, R34: a Pursuing guard steps twice in one Guard Phase; the view's guard_steps
    show every guard as the phase began (step 0), then its first step, then its second."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling", status="pursuing", target="D6", home="D1")
    marker(s, "D6")
    without_unplaced(s)
    rules.guard_phase(s)
    number = s.guards.index(g) + 1
    steps = views.guard_steps(s)
    assert [e["step"] for e in steps[:len(s.guards)]] == [0] * len(s.guards)
    assert [e["guard"] for e in steps[:len(s.guards)]] == list(range(1, len(s.guards) + 1))
    assert steps[number - 1]["hex"] == "D1" and steps[number - 1]["status"] == "pursuing"
    mine = [e for e in steps[len(s.guards):] if e["guard"] == number]
    assert [(e["hex"], e["facing"]) for e in mine] == [("D2", "S"), ("D3", "S")]
    later = steps[len(s.guards):]
    assert [e["step"] for e in later] == list(range(1, len(later) + 1))


def test_guard_steps_end_where_the_guards_stand() -> None:
    """Spec 5: over random games on the-black-keep, each guard's last entry in guard_steps is
    where the view shows it (hex, facing, status), each later entry differs from the guard's
    entry before it, and a step moves a guard at most one hex (R29)."""
    board = scenarios.load("the-black-keep")
    checked = 0
    for seed in range(4):
        s = played("the-black-keep", 4 + seed, seed=seed)
        v = s.view(0)
        steps = v["guard_steps"]
        if not steps:
            continue
        last: dict[int, dict[str, Any]] = {}
        for e in steps:
            before = last.get(e["guard"])
            if before is not None:
                assert (e["hex"], e["facing"], e["status"]) != (
                    before["hex"], before["facing"], before["status"])
                if before["hex"] and e["hex"] and before["hex"] != e["hex"]:
                    a, b = board.at(before["hex"]), board.at(e["hex"])
                    assert b in board.step[a]
            last[e["guard"]] = e
        for g in v["guards"]:
            e = last[g["number"]]
            assert (e["hex"], e["facing"], e["status"]) == (g["hex"], g["facing"], g["status"])
        checked += 1
    assert checked >= 3


def test_each_guard_phase_starts_a_new_trace() -> None:
    """Spec 5: guard_steps hold the last Guard Phase only: a second phase replaces the first's
    steps (the tuple is replaced, never changed in place, so copies share the old one)."""
    s = game(corridor(7))
    guard(s, "D1", facing="S", type="patrolling", status="pursuing", target="D6", home="D1")
    marker(s, "D6")
    without_unplaced(s)
    rules.guard_phase(s)
    first = s.guard_trace
    twin = s.copy()
    assert twin.guard_trace is first
    rules.guard_phase(s)
    assert twin.guard_trace is first and s.guard_trace is not first
    assert s.guard_trace[0][1] == at(s, "D3")  # the second phase begins where the first ended
    assert len([e for e in s.guard_trace if e[1] == at(s, "D1")]) == 0


def test_the_trace_round_trips_through_positions() -> None:
    """docs/black-keep-position.md: ``guard_trace`` is part of the position, so a state read
    back from its position shows the same guard_steps; a bad entry is refused by name."""
    from citywatch.core.errors import InvalidPosition

    s = played("the-vault", 4)
    pos = s.position()
    assert pos["guard_trace"] and pos["guard_trace"][0][0] == 1
    back = GAME.from_position(json.loads(json.dumps(pos)))
    assert back.guard_trace == s.guard_trace
    assert back.view(0)["guard_steps"] == s.view(0)["guard_steps"]
    for bad, words in (([[2, "A4", "N", "bored"]], "listing order"),
                       ([[1, "A4", "UP", "bored"]], "not a facing"),
                       ([[1, "Z99", "N", "bored"]], "not a floor hex"),
                       ([[1, "A4", "N", "bored"]], "begins with all")):
        with pytest.raises(InvalidPosition, match=words):
            GAME.from_position({**pos, "guard_trace": bad})


# --- hidden information ----------------------------------------------------------------------
def test_moving_a_rival_changes_nothing_another_seat_sees() -> None:
    """Spec 10: in rivals a seat's view (map, guard steps and all) is the same wherever a
    rival's dial points among the hexes where the public knows it may be."""
    compared = 0
    for seed in range(6):
        s = played("the-vault", 3 + seed % 3, seed=seed, thieves=2, mode="rivals")
        rival = s.thieves[1]
        if rival.standing != IN_PLAY or rival.possible is None:
            continue
        guarded = {g.hex for g in s.guards if g.placed}
        others = [h for h in sorted(rival.possible) if h != rival.hex and h not in guarded]
        if not others:
            continue
        moved = s.copy()
        moved.thieves[1].hex = others[0]
        assert moved.view(0) == s.view(0) and moved.view(None) == s.view(None)
        assert moved.view(1) != s.view(1)
        compared += 1
    assert compared >= 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from citywatch.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as c:
        yield c


def test_a_seats_page_data_never_holds_a_rival_thiefs_hex(client: TestClient) -> None:
    """Spec 10: through the server, in a rivals game of two people, every page's data is its
    seat's view (the spectator's: no dial), and the other thief's hex is never in it."""
    options = {"scenario": "the-vault", "mode": "rivals"}
    response = client.post("/api/tables", json={"game": "black-keep", "seats": ["human", "human"],
                                                 "seed": 6, "practice": True, "options": options})
    assert response.status_code == 200, response.text
    created = response.json()
    tokens = {s["seat"]: s["link"].removeprefix("/play/") for s in created["seats"]}
    spectator = created["spectator"].removeprefix("/watch/").removeprefix("/play/")
    state = GAME.new_game(2, 6, **options)
    rng = Rng(6)
    for _ in range(40):
        if state.to_move is None:
            break
        for seat, token in tokens.items():
            data = client.get(f"/api/view/{token}").json()
            assert data["view"] == state.view(seat)
            other = data["view"]["thieves"][1 - seat]
            assert other["hex"] is None and other["hex_known"] is False and other["plan"] is None
            own = data["view"]["thieves"][seat]
            assert own["hex"] == (None if state.thieves[seat].hex < 0
                                  else state.board.labels[state.thieves[seat].hex])
        watching = client.get(f"/api/view/{spectator}").json()["view"]
        assert all(t["hex"] is None for t in watching["thieves"])
        mover = state.to_move
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        answer = client.post(f"/api/act/{tokens[mover]}",
                             json={"step": client.get(f"/api/view/{tokens[mover]}").json()["step"],
                                   "action": action.to_json()})
        assert answer.status_code == 200, answer.text
        state.apply(action)
    assert state.round >= 2


# --- board.js and board.css ------------------------------------------------------------------
def test_board_js_follows_the_board_interface(js: str) -> None:
    """board.js registers the module under the game's name with load, mount and render (and
    the optional parts), fetches board.json and board.css from the folder it is served from,
    and finds by id only elements that its mount builds."""
    check_board_interface(js, "black-keep")


def test_board_js_reads_what_the_view_has(js: str) -> None:
    """The view fields board.js reads exist in a real view (a seat's and the spectator's)."""
    s = played("the-black-keep", 3)
    for v in (s.view(0), s.view(None)):
        for key in ("map", "guard_steps", "guards", "thieves", "markers", "lit", "torches",
                    "extinguished", "market", "decision", "round", "dawn", "phase", "result",
                    "guard_deck", "exit_deck", "treasures_on_crown", "vault_triggered", "seat",
                    "scenario", "mode"):
            assert key in v and f"view.{key}" in js, key
        for g in v["guards"]:
            assert {"number", "name", "tile", "type", "status", "hex", "facing", "placed",
                    "undead", "bow", "key", "coins", "target", "sees"} <= set(g)
        for t in v["thieves"]:
            assert {"name", "hex", "possible", "wounds", "coins", "hand", "discard", "keys",
                    "lockpicks", "guard_cards", "treasure", "exit", "hiding", "standing",
                    "plan"} <= set(t)


def test_board_js_keeps_to_the_content_security_policy(js: str, css: str) -> None:
    """No HTML strings, inline styles, eval or inline handlers: elements are built with
    common.js's ``el``/``svg`` and styled by classes in board.css (colours from board.json
    go on SVG presentation attributes, which the policy allows)."""
    check_content_security_policy(js, css)


def test_every_class_the_board_draws_with_is_styled(data: dict[str, Any], js: str,
                                                    css: str) -> None:
    """Every fixed ``bk-`` class board.js names has its rule in board.css, and so do the
    Special Hex kinds and the two tile tints."""
    styled = set(re.findall(r"\.(bk-[\w-]+)", css))
    wanted = {f"bk-special-{s['kind']}" for s in data["specials"]} | {"bk-tile-0", "bk-tile-1"}
    assert wanted <= styled, wanted - styled
    hooks = {"bk-guard-row", "bk-thief-row", "bk-cell", "bk-tile", "bk-special", "bk-guard",
             "bk-route", "bk-features", "bk-pieces", "bk-targets", "bk-floor", "bk-fov-layer"}
    assert unstyled(js, css, "bk", hooks) == []


def test_the_server_serves_the_board(client: TestClient) -> None:
    """``/games/black-keep/`` serves board.js, board.css and board.json, and the game is
    listed as having a board."""
    assert GAME.web_folder() == WEB
    check_served(client, "black-keep", WEB)
