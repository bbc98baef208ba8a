"""The web server (docs/server.md): tables, tokens, decisions, WebSockets, hidden information,
restarts and a killed process. The ``check_*`` helpers also run against PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from postgres_helpers import free_port, start_server, wait_ready
from starlette.websockets import WebSocketDisconnect

import citywatch
from citywatch.bots.decide import bot_rng
from citywatch.cli import main
from citywatch.games.ankh_morpork.data import CARDS
from citywatch.server import create_app
from citywatch.server import tables as server_tables
from citywatch.server.storage import Duplicate, Storage, StorageError, engine_url
from citywatch.server.tables import end_json

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GAME = citywatch.load("ankh-morpork")
DEADLINE = 90.0


class Client(Protocol):
    """What the tests use of TestClient and httpx.Client."""

    def get(self, url: str) -> httpx.Response: ...

    def post(self, url: str, *, json: Any = None, content: Any = None) -> httpx.Response: ...


def sqlite_url(tmp_path: Path, name: str = "server.db") -> str:
    return f"sqlite:///{tmp_path / name}"


def token_of(link: str) -> str:
    assert link.startswith("/play/")
    return link.removeprefix("/play/")


def new_table(client: Client, seats: list[str], seed: int | None = 7) -> dict[str, Any]:
    """A new table; with a chosen seed and more than one person, a practice table."""
    body: dict[str, Any] = {"game": "ankh-morpork", "seats": seats}
    if seed is not None:
        body["seed"] = seed
        body["practice"] = seats.count("human") > 1
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    assert created["practice"] is (seed is not None)
    return created


PRACTICE: dict[str, Any] = {"practice": True, "failed": None, "notices": [],
                            "game": "ankh-morpork", "title": "Discworld: Ankh-Morpork",
                            "board": True, "over": False}
"""What a page is told of a practice table whose bots never failed (a game going on)."""


def told(seats: list[str], created: dict[str, Any]) -> dict[str, Any]:
    """``PRACTICE`` with what every seat is told of each of four ``seats`` (issue 16: the
    seat's colour, its person's name, none here, and its bot's level) of the table
    ``created`` (issue 26: its public replay id, no rematch yet; issue 30: hints allowed by
    default with exactly one person, none asked; issue 31: private, no seat free, spectators
    do not read the chat)."""
    return {**PRACTICE, "colours": ["Red", "Blue", "Green", "Yellow"],
            "names": [None] * 4, "bots": [None if s == "human" else s for s in seats],
            "replay": created["replay"].removeprefix("/replay/"), "rematch": False,
            "hints_on": seats.count("human") == 1, "hints": [],  # issue 30
            "public": False, "free": [], "spectators_chat": False, "clock": None}  # issue 31


def choices(state: Any, seat: int | None) -> list[dict[str, Any]]:
    """The ``choices`` a snapshot for ``seat`` carries: its legal actions if it decides, the
    game's usual choice marked ``usual`` (and ``never_hurts`` when it never hurts; issue 16)."""
    if seat is None or state.to_move != seat:
        return []
    actions = state.legal_actions()
    shown: list[dict[str, Any]] = [{"text": str(a), "json": a.to_json()} for a in actions]
    usual = state.game.usual_choice(state, actions)
    if usual is not None:
        shown[usual]["usual"] = True
        if state.game.never_hurts(state, actions[usual]):
            shown[usual]["never_hurts"] = True
    return shown


def humans(created: dict[str, Any]) -> dict[int, str]:
    """Seat -> token of every human seat of a created table."""
    return {s["seat"]: token_of(s["link"]) for s in created["seats"] if s["link"]}


def view(client: Client, token: str) -> dict[str, Any]:
    response = client.get(f"/api/view/{token}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_for_person(client: Client, people: dict[int, str]) -> tuple[int, dict[str, Any]] | None:
    """The human seat to decide now and its view (bots moved first); None once the game ends."""
    end = time.monotonic() + DEADLINE
    while True:
        for seat, token in people.items():
            data = view(client, token)
            if data["view"]["result"] is not None:
                return None
            decision = data["view"]["decision"]
            if decision is not None and "actions_json" in decision:
                return seat, data
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.003)


def play(client: Client, people: dict[int, str], limit: int | None = None,
         accepted: list[tuple[int, Any]] | None = None) -> int:
    """People take their first legal action until the game ends (or ``limit`` decisions).

    Each accepted decision is added to ``accepted`` as (step, action). Returns decisions.
    """
    taken = 0
    while limit is None or taken < limit:
        found = wait_for_person(client, people)
        if found is None:
            return taken
        seat, data = found
        action = data["view"]["decision"]["actions_json"][0]
        response = client.post(f"/api/act/{people[seat]}",
                               json={"step": data["step"], "action": action})
        assert response.status_code == 200, response.text
        assert response.json() == {"ok": True, "step": data["step"] + 1}
        if accepted is not None:
            accepted.append((data["step"], action))
        taken += 1
    return taken


def not_holding(data: dict[str, Any]) -> str:
    """A card name not in the seat's hand (so playing it is illegal)."""
    return next(c.name for c in CARDS if c.name not in data["view"]["hand"])


# Checks shared with the PostgreSQL tests.

def check_create(db_url: str) -> None:
    """A new table: its links, pages and views; bad requests are 400 and create nothing."""
    with TestClient(create_app(db_url, bot_delay=30)) as client:
        kinds = ["human", "human", "random", "heuristic"]
        created = new_table(client, kinds)
        assert [s["colour"] for s in created["seats"]] == ["Red", "Blue", "Green", "Yellow"]
        assert [s["kind"] for s in created["seats"]] == ["human", "human", "random", "heuristic"]
        assert [s["link"] is None for s in created["seats"]] == [False, False, True, True]
        links = [s["link"] for s in created["seats"][:2]] + [created["spectator"]]
        assert len(set(links)) == 3
        assert all(len(token_of(link)) >= 43 for link in links)
        for link in links:
            page = client.get(link)
            assert page.status_code == 200
            assert "text/html" in page.headers["content-type"]
        people = humans(created)
        spectator = token_of(created["spectator"])
        state = GAME.new_game(4, 7)
        for seat, token in people.items():
            data = view(client, token)
            assert data == {"step": 0, "seat": seat, "view": state.view(seat),
                            "log": state.log(seat), "table": told(kinds, created),
                            "choices": choices(state, seat), "last_move": None, "end": None,
                            "moves": [],  # issue 26: nobody decided yet
                            "chat": [], "muted": [],  # issue 31
                            "webhook": None}  # issue 31: not a turn-based table
        data = view(client, spectator)
        assert data == {"step": 0, "seat": None, "view": state.view(None), "log": state.log(-1),
                        "table": told(kinds, created), "choices": [], "last_move": None,
                        "end": None, "moves": [], "chat": [], "muted": [], "webhook": None}
        for body in ({"game": "chess", "seats": ["human", "human"]},
                     {"game": "ankh-morpork", "seats": ["human"]},
                     {"game": "ankh-morpork", "seats": ["human"] * 5},
                     {"game": "ankh-morpork", "seats": "human,human"},
                     {"game": "ankh-morpork", "seats": ["human", "grandmaster"]},
                     {"game": "ankh-morpork", "seats": ["human", "human"], "seed": -1},
                     {"game": "ankh-morpork", "seats": ["human", "human"], "seed": "7"},
                     ["human", "human"]):
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400, body
            assert isinstance(response.json()["error"], str)
        response = client.post("/api/tables", content=b"{not json",
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert "JSON" in response.json()["error"]
        assert client.get("/api/record/" + people[0]).status_code == 409


def check_act(db_url: str) -> None:
    """Errors in the documented order change nothing; a duplicate decision applies once."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = new_table(client, ["human", "human", "human"], seed=11)
        people = humans(created)
        spectator = token_of(created["spectator"])
        found = wait_for_person(client, people)
        assert found is not None
        seat, data = found
        step = data["step"]
        other = next(s for s in people if s != seat)
        colour = data["view"]["colour"]
        action = data["view"]["decision"]["actions_json"][0]

        def refused(token: str, body: Any, status: int) -> str:
            response = client.post(f"/api/act/{token}", json=body)
            assert response.status_code == status, response.text
            assert view(client, people[seat])["step"] == step
            message: str = response.json()["error"]
            return message

        assert refused("no-such-token", {"step": step, "action": action}, 404)
        assert refused(spectator, {"step": step, "action": action}, 403)
        message = refused(people[other], {"step": step, "action": action}, 403)
        assert message == f"it is {colour}'s decision, not yours"
        assert refused(people[seat], {"step": step + 1, "action": action}, 409)
        assert refused(people[seat], {"step": step - 1, "action": action}, 409)
        assert refused(people[seat], {"step": step, "action": {"verb": "fly"}}, 400)
        assert refused(people[seat], {"step": step, "action": 3}, 400)
        assert refused(people[seat], {"step": True, "action": action}, 400)
        assert refused(people[seat], {"step": "0", "action": action}, 400)
        assert refused(people[seat], {"action": action}, 400)
        assert refused(people[seat], [step, action], 400)
        illegal = {"verb": "play", "card": not_holding(data)}
        assert "legal" in refused(people[seat], {"step": step, "action": illegal}, 422)
        response = client.post(f"/api/act/{people[seat]}", content=b"step=0",
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert response.json() == {"error": "the request body must be JSON"}

        first = client.post(f"/api/act/{people[seat]}", json={"step": step, "action": action})
        assert first.status_code == 200
        assert first.json() == {"ok": True, "step": step + 1}
        expected = GAME.new_game(3, 11)
        expected.apply(GAME.action_from_json(action))
        assert expected.to_move == seat  # playing a card: the same seat decides on
        again = client.post(f"/api/act/{people[seat]}", json={"step": step, "action": action})
        assert again.status_code == 409
        assert again.json() == {"error": f"decision {step + 1} was already taken; "
                                         f"the table is at step {step + 1}"}
        assert view(client, spectator)["step"] == step + 1
        assert view(client, people[seat])["view"] == expected.view(seat)

        action = expected.legal_actions()[0].to_json()
        body = {"step": step + 1, "action": action}
        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(
                lambda _: client.post(f"/api/act/{people[seat]}", json=body), range(4)))
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        expected.apply(GAME.action_from_json(action))
        assert view(client, spectator)["step"] == step + 2
        assert view(client, spectator)["view"] == expected.view(None)


def check_restart(db_url: str) -> None:
    """A new app on the same database continues every table from the same step and view."""
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = new_table(client, ["human", "random", "human", "random"], seed=5)
        people = humans(created)
        play(client, people, limit=15)
        found = wait_for_person(client, people)
        assert found is not None
        tokens = [*people.values(), token_of(created["spectator"])]
        before = [view(client, token) for token in tokens]
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert [view(client, token) for token in tokens] == before
        play(client, people)
        record = client.get(f"/api/record/{tokens[-1]}").json()
        final = view(client, tokens[-1])["view"]["result"]
    assert final is not None
    state = citywatch.replay(record)
    outcome = state.outcome()
    assert outcome is not None and outcome.to_json() == final


def check_bots_resume(db_url: str) -> None:
    """A table whose next decision is a bot's moves again when the server starts."""
    assert GAME.new_game(2, 3).to_move == 0
    with TestClient(create_app(db_url, bot_delay=60)) as client:
        created = new_table(client, ["human", "random"], seed=3)
        people = humans(created)
        if wait_for_person(client, people) is None:  # pragma: no cover
            pytest.fail("the game ended at once")
        data = view(client, people[0])
        action = data["view"]["decision"]["actions_json"]
        while True:  # act until the bot is to decide
            response = client.post(f"/api/act/{people[0]}",
                                   json={"step": data["step"], "action": action[0]})
            assert response.status_code == 200
            data = view(client, people[0])
            decision = data["view"]["decision"]
            if "actions_json" not in decision:
                break
            action = decision["actions_json"]
        step = data["step"]
    app = create_app(db_url, bot_delay=0)
    storage = app.state.storage
    with TestClient(app):
        end = time.monotonic() + DEADLINE
        while len(storage.actions(created["table"])) == step:
            assert time.monotonic() < end, "the bot did not resume"
            time.sleep(0.01)


# The tests (SQLite).

def test_create_table_links_and_pages(tmp_path: Path) -> None:
    check_create(sqlite_url(tmp_path))
    with TestClient(create_app(sqlite_url(tmp_path))) as client:
        assert client.get("/").status_code == 200
        for name in ("app.js", "style.css", "index.html"):
            assert client.get(f"/static/{name}").status_code == 200
        page = client.get("/play/not-a-token")
        assert page.status_code == 404 and "text/html" in page.headers["content-type"]
        assert client.get("/replay/not-a-token").status_code == 404
        for path in ("/api/view/x", "/api/record/x", "/api/nothing"):
            response = client.get(path)
            assert response.status_code == 404
            assert isinstance(response.json()["error"], str)
        assert client.get("/api/tables").status_code == 405
        assert client.get("/api/tables").json()["error"]
        assert client.post("/api/tables", content=b"x" * 100_000,
                           headers={"Content-Type": "application/json"}).status_code == 413


def test_acting_errors_and_duplicates(tmp_path: Path) -> None:
    check_act(sqlite_url(tmp_path))


def test_whole_game_two_people_two_bots(tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        created = new_table(client, ["human", "random", "human", "random"], seed=21)
        people = humans(created)
        spectator = token_of(created["spectator"])
        assert client.get(f"/api/record/{spectator}").status_code == 409
        early = client.get(f"/api/replay/{spectator}?step=0").json()  # issue 26: as it goes
        assert (early["over"], early["action"], early["end"]) == (False, None, None)
        assert play(client, people) > 10
        final = view(client, spectator)
        assert final["view"]["result"] is not None
        assert final["view"]["decision"] is None
        response = client.get(f"/api/record/{people[0]}")
        assert response.status_code == 200
        record = response.json()
        assert client.get(f"/api/record/{spectator}").json() == record
        assert len(record["actions"]) == final["step"]
        assert record["meta"]["seats"] == ["human", "random", "human", "random"]
        public = created["replay"].removeprefix("/replay/")
        page = client.get(f"/replay/{spectator}", follow_redirects=False)  # issue 26
        assert (page.status_code, page.headers["location"]) == (302, f"/replay/{public}")
        assert client.get(f"/replay/{public}").status_code == 200
        outcome = citywatch.replay(record).outcome()
        assert outcome is not None and outcome.to_json() == final["view"]["result"]
        check_replay_steps(client, spectator, record)
        check_replay_steps(client, public, record)
        for seat, token in people.items():
            done = client.post(f"/api/act/{token}", json={"step": final["step"], "action": {}})
            assert done.status_code == 409
            assert view(client, token)["view"]["seats"][seat]["personality"] is not None


def check_replay_steps(client: Client, token: str, record: dict[str, Any]) -> None:
    """``/api/replay/{token}?step=k`` is the public view and log after k actions (``token``
    a seat's, the spectator's or the public replay id), and at the last step what the end
    screen shows (issue 26)."""
    steps = len(record["actions"])
    wanted = {0, 1, 2, 31, 32, 33, 64, 65, steps - 1, steps}
    state = citywatch.replay({**record, "actions": []})
    for k in range(steps + 1):
        by = action = None
        moves: list[dict[str, Any]] = []
        if k > 0:
            taken = GAME.action_from_json(record["actions"][k - 1])
            by, action = state.view(state.to_move)["colour"], str(taken)
            before, public = state.view(None), len(state.log(-1))
            state.apply(taken)
            lines = state.log(-1)[public:]  # issue 26: decision k as a move, public facts
            moves = [{"by": by, "lines": lines,
                      "spaces": GAME.move_spaces(before, state.view(None), lines)}]
        if k in wanted:
            answer = client.get(f"/api/replay/{token}?step={k}")
            assert answer.status_code == 200, answer.text
            colours = [state.view(p)["colour"] for p in range(state.players)]
            shown = answer.json()
            assert shown.pop("table")["colours"] == colours
            assert shown == {"step": k, "steps": steps, "view": state.view(None),
                                     "log": state.log(-1), "action": action, "by": by,
                                     "last_move": GAME.last_move(state),  # issue 16
                                     "over": True, "moves": moves,
                                     "end": end_json(state, colours) if k == steps else None,
                                     "clock": None}  # issue 31: an untimed table
    for bad in (f"?step={steps + 1}", "?step=-1", "?step=one", ""):
        answer = client.get(f"/api/replay/{token}{bad}")
        assert answer.status_code == 400 and answer.json()["error"]
    assert client.get("/api/replay/nobody?step=0").status_code == 404


def test_bots_are_deterministic_per_step() -> None:
    assert bot_rng(7, 3).next64() == bot_rng(7, 3).next64()
    assert bot_rng(7, 3).next64() != bot_rng(7, 4).next64()
    assert bot_rng(7, 3).next64() != bot_rng(8, 3).next64()


def test_storage_refuses_a_second_row_for_one_decision(tmp_path: Path) -> None:
    storage = Storage(sqlite_url(tmp_path))
    storage.create_table("t1", "ankh-morpork", 2, 1, ["human", "human"], {"tok": 0})
    storage.add_action("t1", 1, {"verb": "stop"})
    with pytest.raises(Duplicate, match="decision 1 of table t1 was already taken"):
        storage.add_action("t1", 1, {"verb": "end_turn"})
    assert storage.actions("t1") == [{"verb": "stop"}]
    assert storage.token("tok") == ("t1", 0)
    assert storage.token("nope") is None
    assert storage.unfinished() == ["t1"]
    storage.add_action("t1", 2, {"verb": "end_turn"}, finished=True)
    assert storage.unfinished() == []
    storage.close()
    assert engine_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert engine_url("sqlite:///x.db").drivername == "sqlite"
    with pytest.raises(StorageError, match="unsupported database"):
        engine_url("mysql://h/db")
    with pytest.raises(StorageError, match="not a database URL"):
        engine_url("nonsense")


def test_storage_group_commit_keeps_every_row_once(tmp_path: Path) -> None:
    storage = Storage(sqlite_url(tmp_path))
    for k in range(4):
        storage.create_table(f"t{k}", "ankh-morpork", 2, k, ["human", "human"], {f"k{k}": 0})

    def write(job: tuple[int, int]) -> str:
        table, n = job
        try:
            storage.add_action(f"t{table}", n, {"verb": "stop", "n": n})
        except Duplicate:
            return "duplicate"
        return "ok"

    jobs = [(table, n) for n in range(1, 31) for table in range(4) for _twice in range(2)]
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(write, jobs))
    assert results.count("ok") == 120 and results.count("duplicate") == 120
    for k in range(4):
        assert storage.actions(f"t{k}") == [{"verb": "stop", "n": n} for n in range(1, 31)]
    with pytest.raises(StorageError, match="cannot store action 1 of table nowhere"):
        storage.add_action("nowhere", 1, {})
    storage.close()


def test_websocket_state_messages_and_errors(tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        created = new_table(client, ["human", "human", "human", "human"], seed=2)
        people = humans(created)
        spectator = token_of(created["spectator"])
        found = wait_for_person(client, people)
        assert found is not None
        seat, data = found
        with ExitStack() as stack:
            ws = stack.enter_context(client.websocket_connect(f"/ws/{people[seat]}"))
            watcher = stack.enter_context(client.websocket_connect(f"/ws/{spectator}"))
            first = ws.receive_json()
            assert first == {"type": "state", **data}
            shown = watcher.receive_json()
            assert shown["step"] == 0 and shown["seat"] is None
            state = GAME.new_game(4, 2)
            assert shown["view"] == state.view(None) and shown["log"] == state.log(-1)
            action = data["view"]["decision"]["actions_json"][0]
            response = client.post(f"/api/act/{people[seat]}",
                                   json={"step": 0, "action": action})
            assert response.status_code == 200
            state.apply(GAME.action_from_json(action))
            assert ws.receive_json() == {"type": "state", "step": 1, "seat": seat,
                                         "view": state.view(seat), "log": state.log(seat),
                                         "table": told(["human"] * 4, created),
                                         "choices": choices(state, seat),
                                         "last_move": GAME.last_move(state),  # issue 16
                                         "end": None,  # issue 26
                                         "moves": [],  # issue 26: the seat decided last
                                         "chat": [], "muted": [],  # issue 31
                                         "webhook": None}  # issue 31: no webhook offered
            assert watcher.receive_json()["step"] == 1
            for bad in ("not json", json.dumps([1]), json.dumps({"type": "hello"}),
                        json.dumps({"type": "act", "step": "one", "action": {}}),
                        json.dumps({"type": "act", "step": 0, "action": action})):
                ws.send_text(bad)
                error = ws.receive_json()
                assert error["type"] == "error" and error["step"] == 1
                assert isinstance(error["error"], str) and error["error"]
            ws.send_bytes(b"\x00")
            assert ws.receive_json()["type"] == "error"
            to_move = state.to_move
            assert to_move is not None
            if to_move == seat:
                mover = ws
            else:
                mover = stack.enter_context(client.websocket_connect(f"/ws/{people[to_move]}"))
                assert mover.receive_json()["step"] == 1
            legal = state.legal_actions()[0]
            mover.send_json({"type": "act", "step": 1, "action": legal.to_json()})
            state.apply(legal)
            reply = mover.receive_json()
            assert reply["type"] == "state" and reply["step"] == 2
            assert reply["view"] == state.view(to_move)
            assert watcher.receive_json()["step"] == 2
            watcher.send_json({"type": "act", "step": 2, "action": legal.to_json()})
            assert watcher.receive_json()["error"] == "the spectator link can watch but not decide"
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect("/ws/not-a-token") as ws:
            ws.receive_json()
        assert closed.value.code == 4404


def _serve(db_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``citywatch serve`` on ``port`` (bot delay 0), answering; its output in ``log``."""
    process = start_server(db_url, port, log)
    try:
        wait_ready(f"http://127.0.0.1:{port}", process, log, timeout=DEADLINE)
    except RuntimeError as exc:
        process.kill()
        raise AssertionError(str(exc)) from None
    return process


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


def test_killed_server_loses_no_accepted_action(
        tmp_path: Path, servers: list[subprocess.Popen[bytes]]) -> None:
    db_url = sqlite_url(tmp_path)
    log = tmp_path / "server.log"
    port = free_port()
    servers.append(_serve(db_url, port, log))
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        created = new_table(client, ["human", "random", "human", "random"], seed=41)
        people = humans(created)
        tokens = [*people.values(), token_of(created["spectator"])]
        accepted: list[tuple[int, Any]] = []
        decided = play(client, people, limit=25, accepted=accepted)
        assert decided == 25
        assert wait_for_person(client, people) is not None
        before = [view(client, token) for token in tokens]
    os.kill(servers[0].pid, signal.SIGKILL)
    servers[0].wait(timeout=30)
    port = free_port()
    servers.append(_serve(db_url, port, log))
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        assert [view(client, token) for token in tokens] == before
        play(client, people)
        record = client.get(f"/api/record/{tokens[-1]}").json()
        final = view(client, tokens[-1])
    assert len(record["actions"]) == final["step"] > before[0]["step"]
    assert all(record["actions"][step] == action for step, action in accepted)
    outcome = citywatch.replay(record).outcome()
    assert outcome is not None and outcome.to_json() == final["view"]["result"]


def test_restart_continues_from_the_same_step(tmp_path: Path) -> None:
    check_restart(sqlite_url(tmp_path))


def test_bots_resume_when_the_server_starts(tmp_path: Path) -> None:
    check_bots_resume(sqlite_url(tmp_path))


def test_finished_tables_leave_memory_and_come_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_tables, "KEEP_FINISHED", 0)
    app = create_app(sqlite_url(tmp_path), bot_delay=0)
    with TestClient(app) as client:
        created = new_table(client, ["random", "random"], seed=8)
        spectator = token_of(created["spectator"])
        live = app.state.tables._live
        end = time.monotonic() + DEADLINE
        while created["table"] in live:
            assert time.monotonic() < end, "the finished table stayed in memory"
            time.sleep(0.01)
        final = view(client, spectator)
        assert final["view"]["result"] is not None
        record = client.get(f"/api/record/{spectator}").json()
        assert len(record["actions"]) == final["step"]


def test_a_websocket_too_far_behind_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_tables, "BACKLOG", 3)

    async def scenario() -> None:
        tables = server_tables.Tables(Storage(sqlite_url(tmp_path)), bot_delay=0)
        created = await tables.create("ankh-morpork", ["human", "human"], 3, practice=True)
        table, _seat = await tables.resolve(token_of(created["seats"][0]["link"]))
        queue = table.subscribe(None)
        for _ in range(5):
            await table.act(table.state.to_move, table.step,
                            table.state.legal_actions()[0].to_json())
        assert queue.qsize() == 1 and queue.get_nowait() is None
        assert queue not in table.subscribers
        await tables.close()
        tables.storage.close()

    asyncio.run(scenario())


def test_serve_command_defaults_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    ran: list[tuple[Any, str, int]] = []
    monkeypatch.setattr(uvicorn, "run",
                        lambda app, host, port, **_: ran.append((app, host, port)))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path / "data"))
    assert main(["serve", "--port", "8123"]) == 0
    assert (tmp_path / "data" / "citywatch.db").exists()
    assert ran and ran[0][1:] == ("127.0.0.1", 8123)
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out
    assert main(["serve", "--db", "mysql://h/db"]) == 2
    assert "unsupported database" in capsys.readouterr().err
    assert main(["serve", "--db", f"sqlite:///{tmp_path}/no/such/dir/x.db"]) == 2
    assert "cannot open the database" in capsys.readouterr().err
    assert main(["serve", "--host", "0.0.0.0", "--port", "8124"]) == 0
    assert "http://127.0.0.1:8124/" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["serve", "--bot-delay", "-1"])
