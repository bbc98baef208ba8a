"""Issue 31, clocks: a table is live (a time per decision plus a reserve) or turn-based (hours
or days per decision), chosen at creation; the clocks show on every page and in the replay;
when a person's time runs out the clock's stand-in bot decides for that seat (a notice, the
record and the replay say so) until the person takes the seat back."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from postgres_helpers import running_postgres
from starlette.testclient import TestClient
from test_server import humans, sqlite_url, view
from test_server_security import _old_database
from web_helpers import create_tutorial

from citywatch.core.registry import load
from citywatch.server import create_app
from citywatch.server.clocks import Clock, ClockError, ClockRule, parse_clock
from citywatch.server.tables import Tables

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

LIVE = {"kind": "live", "move": 30, "reserve": 60, "stand_in": "random"}
T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def test_a_clock_is_checked_when_asked_for() -> None:
    """Issue 31: a clock is live or turn-based, with seconds per decision in bounds (live 5 s
    to an hour, turn-based an hour to two weeks), a reserve only when live, a stand-in among
    the offered bots; anything else is refused with a sentence."""
    levels = ["easy", "normal", "hard", "random"]
    assert parse_clock(None, levels) is None
    assert parse_clock({"kind": "live", "move": 30}, levels) == ClockRule("live", 30, 300, "easy")
    assert parse_clock({"kind": "turn-based", "move": 86400, "stand_in": "hard"},
                       levels) == ClockRule("turn-based", 86400, 0, "hard")
    for bad in ({"kind": "blitz", "move": 30}, {"kind": "live"}, {"kind": "live", "move": 4},
                {"kind": "live", "move": True}, {"kind": "live", "move": float("nan")},
                {"kind": "live", "move": 30, "reserve": 7201},
                {"kind": "turn-based", "move": 60}, {"kind": "turn-based", "move": 15 * 86400},
                {"kind": "turn-based", "move": 3600, "reserve": 60},
                {"kind": "live", "move": 30, "stand_in": "grandmaster"},
                {"kind": "live", "move": 30, "colour": "red"}, [30], "live"):
        with pytest.raises(ClockError):
            parse_clock(bad, levels)


def test_a_live_clock_pays_overtime_from_the_reserve() -> None:
    """Issue 31, live: a decision within its time costs no reserve; one that takes longer
    pays the excess from its seat's reserve; the next seat's time runs from the decision; a
    timeout gives the seat to the stand-in with no reserve left, and taking it back times the
    seat's decision from then; the replay's reserves follow the same story."""
    rule = ClockRule("live", 30, 60, "easy")
    clock = Clock.new(rule, 2).started(0, {0, 1}, 0, T0)
    assert (clock.running, clock.deadline) == (0, T0 + timedelta(seconds=90))
    clock = clock.decided(0, 1, {0, 1}, 1, T0 + timedelta(seconds=10))
    assert clock.reserves == (60.0, 60.0) and clock.took == ((1, 0, 10.0),)
    assert clock.deadline == T0 + timedelta(seconds=100) and clock.running == 1
    clock = clock.decided(1, 0, {0, 1}, 2, T0 + timedelta(seconds=55))
    assert clock.reserves == (60.0, 45.0)
    assert not clock.due(T0 + timedelta(seconds=144)) and clock.due(T0 + timedelta(seconds=145))
    clock = clock.timed_out()
    assert (clock.away, clock.reserves[0], clock.running, clock.deadline) == ((0,), 0.0, None,
                                                                            None)
    clock = clock.decided(0, 1, {0, 1}, 3, T0 + timedelta(seconds=146))  # the stand-in's
    assert clock.stood_in == ((3, 0),) and clock.mark(3) == {"stood_in": "easy"}
    clock = clock.decided(1, 0, {0, 1}, 4, T0 + timedelta(seconds=150))
    assert clock.running is None  # the stand-in plays seat 0: no time runs
    clock = clock.taken_back(0, 0, {0, 1}, 4, T0 + timedelta(seconds=200))
    assert clock.away == () and clock.deadline == T0 + timedelta(seconds=230)
    assert clock.reserves_after(1) == [60.0, 60.0] and clock.reserves_after(2) == [60.0, 45.0]
    assert clock.reserves_after(3) == [0.0, 45.0] and clock.mark(2) == {"took": 45.0}
    assert Clock.from_json(clock.to_json()) == clock


def test_no_time_runs_while_a_seat_is_free_nor_for_a_bot() -> None:
    """Issue 31: a public table's clock waits until every seat is taken, and a bot's seat is
    never timed."""
    clock = Clock.new(ClockRule("turn-based", 3600, 0, "easy"), 3)
    assert clock.started(0, set(), 0, T0).running is None
    assert clock.started(2, {0, 1}, 0, T0).running is None
    assert clock.started(1, {0, 1}, 0, T0).deadline == T0 + timedelta(hours=1)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose bots move at once."""
    app = create_app(f"sqlite:///{tmp_path / 'clocks.db'}", bot_delay=0, bot_workers=1)
    with TestClient(app) as test_client:
        yield test_client


def _tables(client: TestClient) -> Tables:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    assert isinstance(tables, Tables)
    return tables


def _wait(client: TestClient, token: str, done: Any, what: str) -> dict[str, Any]:
    """``token``'s view once ``done(view)`` holds (the sweep runs every second)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        data = view(client, token)
        if done(data):
            return data
        time.sleep(0.05)
    raise AssertionError(f"no {what} in time: {data['table'].get('clock')}")


def _act(client: TestClient, token: str, data: dict[str, Any]) -> None:
    response = client.post(f"/api/act/{token}", json={"step": data["step"],
                                                      "action": data["choices"][0]["json"]})
    assert response.status_code == 200, response.text


def test_a_timed_out_seat_is_played_by_the_stand_in_until_taken_back(
        client: TestClient) -> None:
    """Issue 31: a live table's clock shows on every page; when the seat to move runs out of
    time the stand-in bot decides for it (a notice tells every seat, the person is offered no
    choice), the person takes the seat back with one message and its time runs again; the
    replay marks the stand-in's decisions and the person's time."""
    made = create_tutorial(client, ["human", "human"], clock=LIVE)
    assert made["clock"] == LIVE
    people = humans(made)
    first = view(client, people[0])
    clock = first["table"]["clock"]
    mover = clock["running"]
    assert clock["reserves"] == [60.0, 60.0] and clock["away"] == []
    spectator = view(client, made["spectator"].removeprefix("/play/"))
    assert spectator["table"]["clock"]["deadline"] == clock["deadline"]
    moving = view(client, people[mover])
    assert moving["choices"]
    _act(client, people[mover], moving)
    other = 1 - mover
    assert view(client, people[other])["table"]["clock"]["running"] == other
    later = datetime.now(UTC) + timedelta(hours=1)
    _tables(client).now = lambda: later
    late = _wait(client, people[other], lambda d: d["table"]["clock"]["away"] == [other]
                 and d["step"] > 1 and d["table"]["clock"]["running"] == mover, "stand-in")
    assert late["choices"] == [] and late["table"]["clock"]["reserves"][other] == 0.0
    assert any(n.startswith(f"{late['table']['colours'][other]}'s time ran out")
               for n in late["table"]["notices"])
    replay = client.get(f"/api/replay/{made['replay'].removeprefix('/replay/')}?step=2").json()
    assert replay["clock"]["stood_in"] == "random"
    assert "took" in client.get(f"/api/replay/{made['replay'].removeprefix('/replay/')}"
                                "?step=1").json()["clock"]
    with client.websocket_connect(f"/ws/{people[other]}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "back"})
        for _ in range(20):
            state = ws.receive_json()
            if state["type"] != "state" or state["table"]["clock"]["away"] == []:
                break
        assert state["type"] == "state", state
        assert any("took the seat back" in n for n in state["table"]["notices"])
        ws.send_json({"type": "back"})
        again = ws.receive_json()
        assert again["type"] == "error" and "no stand-in" in again["error"]


def test_a_bad_clock_is_refused_and_nothing_is_made(client: TestClient) -> None:
    """Issue 31: a clock that is not valid, or one on a table of bots only, is a 400 with a
    sentence, and no table is made."""
    for clock, seats in (({"kind": "live", "move": 1}, ["human", "human"]),
                         (LIVE, ["random", "random"])):
        response = client.post("/api/tables", json={"game": "black-keep", "seats": seats,
                                                    "options": {"scenario": "tutorial"},
                                                    "clock": clock})
        assert response.status_code == 400 and response.json()["error"]


def test_the_record_keeps_the_clock_and_the_stand_in_s_decisions(client: TestClient) -> None:
    """Issue 31: a person who never comes back is played by the stand-in to the end of the
    game; the record keeps the clock's rule and marks every decision the stand-in took."""
    made = create_tutorial(client, ["human", "random"],
                           clock={"kind": "turn-based", "move": 3600, "stand_in": "random"})
    token = humans(made)[0]
    assert view(client, token)["table"]["clock"]["kind"] == "turn-based"
    later = datetime.now(UTC) + timedelta(days=1)
    _tables(client).now = lambda: later
    _wait(client, token, lambda d: d["table"]["over"], "end of the game")
    record = client.get(f"/api/record/{token}").json()
    meta = record["meta"]["clock"]
    assert meta["rule"] == {"kind": "turn-based", "move": 3600, "reserve": 0,
                            "stand_in": "random"}
    assert meta["took"] == [] and meta["stand_in"] and all(seat == 0 for _step, seat in
                                                            meta["stand_in"])
    game = load("black-keep")
    state = game.new_game(players=2, seed=record["seed"], **record["options"])
    movers = []
    for raw in record["actions"]:
        movers.append(state.to_move)
        state.apply(game.action_from_json(raw))
    assert [step for step, _seat in meta["stand_in"]] == [
        n for n, seat in enumerate(movers, start=1) if seat == 0]


def test_a_public_table_s_clock_starts_when_its_last_seat_is_taken(client: TestClient) -> None:
    """Issue 31: while a public table waits for someone to take a free seat no time runs;
    once the last seat is taken, the decision under way is timed from then."""
    made = create_tutorial(client, ["human", "human"], public=True, clock=LIVE)
    token = humans(made)[0]
    waiting = view(client, token)["table"]["clock"]
    assert waiting["waiting"] is True and waiting["running"] is None
    taken = client.post(f"/api/open-tables/{made['table']}/take", json={})
    assert taken.status_code == 200, taken.text
    started = view(client, token)["table"]["clock"]
    assert started["waiting"] is False and started["running"] is not None
    assert started["deadline"] is not None


def test_a_running_clock_keeps_its_table_from_being_closed_as_abandoned(
        client: TestClient) -> None:
    """Issue 31: the abandonment rule (issue 24) leaves a table whose clock runs alone: its
    clock moves it on (a stand-in decides when the time runs out)."""
    timed = create_tutorial(client, ["human", "human"],
                            clock={"kind": "turn-based", "move": 14 * 86400})
    untimed = create_tutorial(client, ["human", "human"])
    storage = _tables(client).storage
    future = datetime.now(UTC) + timedelta(days=10)
    closed = storage.abandon(future, future, "abandoned", "never started")
    assert untimed["table"] in closed and timed["table"] not in closed


def test_two_processes_time_out_a_seat_once_and_one_moves_its_stand_in() -> None:
    """Issue 31 on PostgreSQL: both processes sweep for clocks whose time ran out; the
    timeout is stored once (one notice), and the stand-in's decisions reach a page connected
    to either process."""
    with running_postgres() as url:
        first, second = create_app(url, bot_delay=0), create_app(url, bot_delay=0)
        with TestClient(first) as one, TestClient(second) as two:
            made = create_tutorial(one, ["human", "human"], clock=LIVE)
            people = humans(made)
            mover = view(one, people[0])["table"]["clock"]["running"]
            token = people[mover]
            assert view(two, token)["table"]["clock"]["running"] == mover
            later = datetime.now(UTC) + timedelta(hours=1)
            _tables(one).now = _tables(two).now = lambda: later
            moved = _wait(two, token, lambda d: d["step"] > 0
                          and d["table"]["clock"]["away"] == [mover], "the stand-in's move")
            time.sleep(2.5)  # two more sweeps of each process
            for client in (one, two):
                notices = view(client, token)["table"]["notices"]
                assert len([n for n in notices if "time ran out" in n]) == 1, notices
            assert moved["choices"] == []


def test_a_clock_runs_on_after_a_restart(tmp_path: Path) -> None:
    """Issue 31: the clock is stored with the table: a server started again on the same
    database times out a seat whose time ran out while it was down; an older database gains
    the clock's columns, its tables untimed."""
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(url, bot_delay=0)) as before:
        made = create_tutorial(before, ["human", "human"], clock=LIVE)
        token = humans(made)[0]
        running = view(before, token)["table"]["clock"]["running"]
    with TestClient(create_app(url, bot_delay=0)) as after:
        later = datetime.now(UTC) + timedelta(hours=1)
        _tables(after).now = lambda: later
        _wait(after, token, lambda d: d["table"]["clock"]["away"] == [running], "timeout")
    old = sqlite_url(tmp_path, "old.db")
    _old_database(old, ["human", "human", "random"], 3, [])
    with TestClient(create_app(old, bot_delay=30)) as client:
        assert view(client, "watch-token")["table"]["clock"] is None
