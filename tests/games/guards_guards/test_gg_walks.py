"""Issue 27: moving by destination in Guards! Guards! (``walks.py``, ``Game.plans``): one
choice per reachable place, standing for the turn's own legal steps along a shortest path
(Movement; rulings 12-14), asked per route only where routes differ in what can happen, and
read only from what the mover may see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from citywatch.core.api import following
from citywatch.core.rng import Rng
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import TILES
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.state import GuardsGuardsState
from citywatch.games.guards_guards.turn import END_MOVE, LEAVE, MOVE_TO, PASS_KINDS
from citywatch.games.guards_guards.walks import walks


def moving_states(seeds: range, players: int = 3) -> Iterator[GuardsGuardsState]:
    """Real games' movement decisions with walks to offer (a few per game)."""
    for seed in seeds:
        rng = random.Random(seed)
        s = GAME.new_game(players, seed)
        found = 0
        for _ in range(600):
            if s.to_move is None or found >= 4:
                break
            if walks(s) and rng.random() < 0.3:
                found += 1
                yield s.copy()
            s.apply(rng.choice(s.legal_actions()))


def walk(s: GuardsGuardsState, steps: tuple[Any, ...]) -> int:
    """Take ``steps`` on ``s`` as an interface does (``following``), stopping at the first that
    is not the mover's legal decision; how many were taken."""
    seat = s.to_move
    assert seat is not None
    taken = 0
    while taken < len(steps):
        action = following(s, seat, steps[taken:])
        if action is None:
            break
        s.apply(action)
        taken += 1
    return taken


def test_movement_a_walk_is_the_turns_own_legal_steps_to_its_place() -> None:
    """Movement (rulings 12-14): every walk's steps are the decisions the turn offers, in
    order: one "Move to" per tile of a shortest path, "Done at" each place of passing actions
    on the way, and "End movement here" where the mover may stop with movement left; taken
    without another seat's decision in between, it ends on its place."""
    checked = 0
    for s in moving_states(range(1, 9)):
        seat = s.to_move
        here = s.pos[seat]
        for plan in walks(s):
            goal = TILES.index(next(t for t in TILES if t.name == plan.json["tile"]))
            moves = [a for a in plan.actions if a.verb == MOVE_TO]
            assert len(moves) == board.WALK[here][goal] >= 2
            assert moves[-1] == Action(MOVE_TO, goal)
            passing = [a.x for a in moves[:-1] if TILES[a.x].kind in PASS_KINDS
                       and a.x not in s.t.used]
            assert [a.x for a in plan.actions if a.verb == LEAVE] == passing
            after = s.copy()
            taken = walk(after, plan.actions)
            if taken == len(plan.actions):
                assert after.pos[seat] == goal
                if plan.actions[-1].verb == END_MOVE:
                    assert after.t.stopped or after.t.seat != seat  # ended, or turn over
                    assert "and stop" in plan.text
                checked += 1
            else:
                assert after.to_move != seat or plan.actions[taken] not in after.legal_actions()
    assert checked > 50


def test_movement_walks_reach_every_place_two_or_more_steps_away_within_the_allowance() -> None:
    """Movement: a walk is offered to every tile 2 to N steps away (N: the movement left)
    where the mover may end, or could pass on; the next tiles stay single "Move to" steps."""
    for s in moving_states(range(1, 4)):
        seat = s.to_move
        left = s.t.allowance - s.t.steps if s.t.moving else None
        goals = {plan.json["tile"] for plan in walks(s)}
        names = {TILES[a.x].name for a in s.legal_actions() if a.verb == MOVE_TO}
        assert not goals & names
        here = s.pos[seat]
        far = max(board.WALK[here][TILES.index(t)] for t in TILES if t.name in goals)
        if left is not None:
            assert far <= left


def test_routes_that_differ_in_what_happens_are_asked_the_others_are_one_choice() -> None:
    """Issue 27: where the shortest paths to a place differ (here: one passes the Luggage's
    tile), one walk per difference, named by it; where they do not, one walk."""
    s = next(moving_states(range(1, 4)))
    seat = s.to_move
    here = s.pos[seat]
    for goal, distance in board.reachable(here, 4).items():
        routes = board.shortest_routes(here, goal)
        if distance < 3 or len(routes) < 2:
            continue
        middle = [r[1] for r in routes]
        lonely = [t for t in middle if middle.count(t) < len(routes)]
        if not lonely or any(s.pos[o] in (t, goal) for o in range(s.n) for t in lonely):
            continue
        s.luggage = lonely[0]
        break
    else:
        pytest.fail("no place with two different shortest paths")
    to_goal = [p for p in walks(s) if p.json["tile"] == TILES[goal].name]
    vias = {p.json.get("via", "") for p in to_goal}
    assert len(to_goal) >= 2 and any("past the Luggage" in v for v in vias)
    for plan in to_goal:
        passes = any(a.verb == MOVE_TO and a.x == s.luggage for a in plan.actions)
        says = "past the Luggage" in plan.json["via"].split(", ")
        assert passes == says
        assert plan.json["via"] in plan.text
    assert len(vias) == len(to_goal), "each walk names its own difference"
    if len(to_goal) == 2:
        assert "not past the Luggage" in vias
    plain = [p for p in walks(s) if p.json["tile"] != TILES[goal].name]
    assert any("via" not in p.json for p in plain)


def test_hidden_information_walks_are_the_same_in_every_world_the_mover_cannot_tell_apart(
) -> None:
    """Hidden information: a seat's walks read only what it may see (never an opponent's
    Guild Card or hand), so every determinization for that seat offers the same walks."""
    for s in moving_states(range(10, 16), players=4):
        seat = s.to_move
        mine = [p.to_json() for p in walks(s)]
        for k in range(3):
            other = s.determinize(seat, Rng(k))
            assert [p.to_json() for p in walks(other)] == mine


def test_no_walks_out_of_the_movers_movement() -> None:
    """Walks are offered only at the mover's own movement decision (not at set-up, a stop
    action, or another seat's window)."""
    s = GAME.new_game(3, 2)
    rng = random.Random(2)
    assert GAME.plans(s) == []
    seen = 0
    for _ in range(400):
        if s.to_move is None:
            break
        if s.stack[-1][0] != "turn" or s.t.stopped:
            assert GAME.plans(s) == []
        else:
            seen += bool(GAME.plans(s))
        s.apply(rng.choice(s.legal_actions()))
    assert seen


def test_the_terminal_takes_a_walk_by_the_places_name(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27, terminal: typing a place's name takes the walk there; its steps are taken one
    by one, each a recorded action, and the piece stands on the place."""
    from citywatch.core.record import Record
    from citywatch.terminal import app

    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    chosen: dict[str, Any] = {}

    def read(_prompt: str) -> str:
        s = game.state
        if "goal" in chosen:
            return "quit"
        plans = walks(s) if isinstance(s, GuardsGuardsState) else []
        far = [p for p in plans if p.actions[-1].verb == END_MOVE and "via" not in p.json]
        if far:
            plan = max(far, key=len_of)
            chosen.update(goal=plan.json["tile"], steps=len(plan.actions),
                          before=len(game.record.actions), seat=s.to_move)
            return str(plan.json["tile"]).upper()
        return "1"

    game = app.new_game("guards-guards", ["you", "random"], 4, read,
                        Console(file=out, width=100, height=40))
    assert not game.run()
    record = Record.load(game.path)
    assert len(record.actions) >= chosen["before"] + chosen["steps"]
    state = game.state
    assert isinstance(state, GuardsGuardsState)
    assert TILES[state.pos[chosen["seat"]]].name == chosen["goal"]


def len_of(plan: Any) -> int:
    """A walk's number of steps."""
    return len(plan.actions)
