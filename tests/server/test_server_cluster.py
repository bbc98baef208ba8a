"""Issue 14: three ``citywatch serve`` processes on one PostgreSQL (docs/server.md, "Running
many processes"): full games with people and bots, every seat's updates on any process,
duplicates across processes, a killed bot-lease holder, hidden information, idle tables."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from postgres_helpers import free_port, running_postgres, start_server, stop, wait_ready
from test_server import GAME, new_table, token_of, view
from websockets.asyncio.client import ClientConnection, connect

import citywatch
from citywatch.server import create_app

with __import__("warnings").catch_warnings():  # Starlette would rather have httpx2
    __import__("warnings").simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEADLINE = 60.0
"""Seconds a game, a start or a takeover may take at most (a generous bound, not a target)."""
TAKEOVER = 20.0
"""Seconds another process may take to move the bots of a killed lease holder's table."""


@dataclass
class Server:
    """One ``citywatch serve`` process of the cluster."""

    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, db_url: str) -> None:
        self.process = start_server(db_url, self.port, self.log, "--bot-workers", "1",
                                    "--table-rate", "1000/minute",
                                    "--tables-per-address", "100000")

    def wait_ready(self) -> None:
        assert self.process is not None
        wait_ready(self.base, self.process, self.log, DEADLINE)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process, kill=True)


@dataclass
class Cluster:
    """A PostgreSQL database and three server processes on it."""

    db_url: str
    servers: list[Server]

    def running(self) -> list[Server]:
        """The servers, each started again if it was killed."""
        dead = [s for s in self.servers if s.process is None or s.process.poll() is not None]
        for server in dead:
            server.start(self.db_url)
        for server in dead:
            server.wait_ready()
        return self.servers

    def sql(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            return list(conn.execute(query, args).fetchall())


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("cluster")
    with ExitStack() as stack:
        db_url = stack.enter_context(running_postgres("max_connections=200"))
        servers = [Server(free_port(), folder / f"server{k}.log") for k in range(3)]
        for server in servers:
            stack.callback(server.stop)  # every process ends, whatever fails
        found = Cluster(db_url, servers)
        found.running()
        yield found


@dataclass
class Seen:
    """The messages one WebSocket connection received."""

    seat: int | None
    states: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)


async def follow(url: str, seen: Seen, act: Any = None) -> None:
    """Read state messages until the game is over; ``act(ws, message)`` answers decisions."""
    async with connect(url, max_size=None) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "state":
                seen.errors.append(message)
                continue
            seen.states.append(message)
            if message["table"]["over"]:
                return
            if act is not None and message["choices"]:
                await act(ws, message)


def ws_url(server: Server, token: str) -> str:
    return server.base.replace("http://", "ws://") + f"/ws/{token}"


@dataclass
class Played:
    """A whole game played on three processes: what every connection saw, and the record."""

    tokens: dict[int | None, str]
    seen: list[Seen]
    record: dict[str, Any]
    views: list[dict[str, Any]]
    """``GET /api/view`` of every token on every process after the end."""
    ports: list[int]


@pytest.fixture(scope="module")
def played(cluster: Cluster) -> Played:
    """Seats 0 and 2 are people, 1 and 3 random bots. Seat 0 acts over its WebSocket on
    process 0 and also watches on process 1; seat 2 watches on process 1 and acts over HTTP
    on process 2; the spectator watches on process 2. Each person picks at random."""
    servers = cluster.running()
    with httpx.Client(base_url=servers[2].base, timeout=30) as client:
        created = new_table(client, ["human", "random", "human", "random"], seed=None)
    tokens: dict[int | None, str] = {
        s["seat"]: token_of(s["link"]) for s in created["seats"] if s["link"]}
    tokens[None] = token_of(created["spectator"])
    rng = random.Random(14)

    async def by_socket(ws: ClientConnection, message: dict[str, Any]) -> None:
        choice = rng.choice(message["choices"])["json"]
        await ws.send(json.dumps({"type": "act", "step": message["step"], "action": choice}))

    async def scenario() -> list[Seen]:
        async with httpx.AsyncClient(base_url=servers[2].base, timeout=30) as http:

            async def by_http(_ws: ClientConnection, message: dict[str, Any]) -> None:
                choice = rng.choice(message["choices"])["json"]
                response = await http.post(f"/api/act/{tokens[2]}",
                                           json={"step": message["step"], "action": choice})
                assert response.status_code == 200, response.text

            seen = [Seen(0), Seen(0), Seen(2), Seen(None)]
            followers = [
                follow(ws_url(servers[0], tokens[0]), seen[0], by_socket),
                follow(ws_url(servers[1], tokens[0]), seen[1]),
                follow(ws_url(servers[1], tokens[2]), seen[2], by_http),
                follow(ws_url(servers[2], tokens[None]), seen[3]),
            ]
            await asyncio.wait_for(asyncio.gather(*followers), DEADLINE)
            return seen

    seen = asyncio.run(scenario())
    views = []
    for server in servers:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            views.extend(view(client, token) for token in tokens.values())
            record = client.get(f"/api/record/{tokens[None]}").json()
    return Played(tokens, seen, record, views, [s.port for s in servers])


def test_full_games_every_seat_sees_every_action_once_in_order_on_any_process(
        played: Played) -> None:
    """Issue 14, Tests: a full game with people and bots to the end on three processes; every
    seat sees every action once, in order, on whichever process it is connected to, and its
    last state is what ``GET /api/view`` answers on every process."""
    final = len(played.record["actions"])
    assert final > 20
    for seen in played.seen:
        assert seen.errors == []
        steps = [m["step"] for m in seen.states]
        assert steps == list(range(steps[0], final + 1)), steps
    for seen in played.seen:
        last = {k: v for k, v in seen.states[-1].items() if k != "type"}
        token = played.tokens[seen.seat]
        for k, answer in enumerate(played.views):
            if list(played.tokens.values())[k % len(played.tokens)] == token:
                assert answer == last
    assert all(answer["table"]["over"] for answer in played.views)


def test_hidden_information_across_processes(played: Played) -> None:
    """docs/server.md, Information (issue 14: the hidden-information check across processes):
    every state message on every process is the seat's own ``view(seat)`` and ``log(seat)``
    of the game replayed to that step (the spectator's ``view(None)``, ``log(-1)``), with
    choices only for its own decisions; ``GET /api/view`` on every process likewise."""
    record = citywatch.Record.from_json(played.record)
    game = citywatch.load(record.game)
    state = game.new_game(players=record.players, seed=record.seed, **record.options)
    states = [state.copy()]
    for raw in record.actions:
        state.apply(game.action_from_json(raw))
        states.append(state.copy())
    messages = [(seen.seat, m) for seen in played.seen for m in seen.states]
    messages += [(answer["seat"], answer) for answer in played.views]
    assert len(messages) > 4 * len(record.actions) // 2
    for seat, message in messages:
        at = states[message["step"]]
        assert message["seat"] == seat
        assert message["view"] == at.view(seat)
        assert message["log"] == at.log(-1 if seat is None else seat)
        own = seat is not None and at.to_move == seat
        offered = [{"text": c["text"], "json": c["json"]} for c in message["choices"]]
        expected = [{"text": str(a), "json": a.to_json()} for a in at.legal_actions()]
        assert offered == (expected if own else [])


def test_the_record_of_a_game_played_on_three_processes_verifies(
        played: Played, tmp_path: Path) -> None:
    """Issue 14, Tests: the record of a game played on three processes replays with
    ``citywatch replay --verify`` (every stored digest matches)."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played.record))
    done = subprocess.run([sys.executable, "-m", "citywatch.cli", "replay", "--verify",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "every digest matches" in done.stdout


def test_the_processes_share_one_record_key_that_verifies_their_record(
        played: Played, tmp_path: Path) -> None:
    """Issue 24, point 5: three processes started at once on one key file (none there before)
    serve one public key, and the record of a game played on all three verifies with it."""
    keys = [httpx.get(f"http://127.0.0.1:{port}/api/record-key", timeout=30).json()
            for port in played.ports]
    assert keys[0] == keys[1] == keys[2]
    assert played.record["signature"]["key_id"] == keys[0]["key_id"]
    key = tmp_path / "record-key.json"
    key.write_text(json.dumps(keys[0]))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played.record))
    done = subprocess.run([sys.executable, "-m", "citywatch.cli", "replay", "--verify",
                           "--public-key", str(key), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "signature: valid" in done.stdout


def test_the_same_decision_sent_to_two_processes_applies_once(cluster: Cluster) -> None:
    """Issue 14, Tests: duplicate submissions sent to two processes at once apply once (one
    200, one 409: the table's row lock and the unique (table, n) key); the stored actions
    are gapless. Duplicates are sent for decisions after which the same seat decides on, so
    the late copy is a stale step (409), not another seat's turn (403, docs/server.md)."""
    servers = cluster.running()
    with httpx.Client(base_url=servers[0].base, timeout=30) as client:
        created = new_table(client, ["human", "human", "human"], seed=23)
    people = {s["seat"]: token_of(s["link"]) for s in created["seats"]}
    state = GAME.new_game(3, 23)
    clients = [httpx.Client(base_url=s.base, timeout=30) for s in servers]
    try:
        duplicates = 0
        with ThreadPoolExecutor(2) as pool:
            for k in range(300):
                if duplicates == 10:
                    break
                seat, step = state.to_move, k
                assert seat is not None
                one, other = clients[k % 3], clients[(k + 1) % 3]
                keeps = [a for a in state.legal_actions() if _same_seat_after(state, a)]
                action = (keeps or state.legal_actions())[0]
                body = {"step": step, "action": action.to_json()}
                path = f"/api/act/{people[seat]}"
                senders = (one, other) if keeps else (one,)
                answers = [f.result() for f in [pool.submit(c.post, path, json=body)
                                                for c in senders]]
                codes = sorted(a.status_code for a in answers)
                assert codes == ([200, 409] if keeps else [200]), [a.text for a in answers]
                duplicates += bool(keeps)
                state.apply(action)
                for client in clients:
                    assert view(client, people[seat])["view"] == state.view(seat)
    finally:
        for client in clients:
            client.close()
    assert duplicates == 10
    stored = cluster.sql("SELECT n FROM actions WHERE table_id = %s ORDER BY n",
                         created["table"])
    assert [n for (n,) in stored] == list(range(1, k + 1))


def _same_seat_after(state: Any, action: Any) -> bool:
    after = state.copy()
    after.apply(action)
    return bool(after.to_move == state.to_move)


def test_idle_tables_leave_memory_and_come_back_intact(cluster: Cluster) -> None:
    """Issue 14, What to build: a table nobody used for ``idle_seconds`` (no subscriber, no
    request, no bot move) leaves memory, tokens too, and comes back intact on the next
    request; the game then goes on to the end."""
    server, _name = cluster.db_url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE citywatch_idle")
    app = create_app(server + "/citywatch_idle", bot_delay=0, idle_seconds=0.3)
    tables = app.state.tables
    end = time.monotonic() + DEADLINE

    def my_turn(client: TestClient, token: str) -> dict[str, Any]:
        """The person's view once it decides, or once the game is over."""
        while not ((data := view(client, token))["choices"] or data["table"]["over"]):
            assert time.monotonic() < end, "the bot did not move"
            time.sleep(0.01)
        return data

    with TestClient(app) as client:
        created = new_table(client, ["human", "random"], seed=None)
        person = token_of(created["seats"][0]["link"])
        for _ in range(3):
            data = my_turn(client, person)
            client.post(f"/api/act/{person}",
                        json={"step": data["step"], "action": data["choices"][0]["json"]})
        before = my_turn(client, person)
        assert not before["table"]["over"]
        while created["table"] in tables.in_memory:
            assert time.monotonic() < end, "the idle table stayed in memory"
            time.sleep(0.05)
        assert person not in tables._tokens
        assert view(client, person) == before
        assert created["table"] in tables.in_memory
        while not (data := my_turn(client, person))["table"]["over"]:
            client.post(f"/api/act/{person}",
                        json={"step": data["step"], "action": data["choices"][0]["json"]})
        record = client.get(f"/api/record/{person}").json()
    assert citywatch.replay(record, verify=True).outcome() is not None


def test_killing_the_bot_lease_holder_mid_game_loses_nothing(
        cluster: Cluster, tmp_path: Path) -> None:
    """Issue 14, Tests: kill -9 of the process that drives a table's bots mid-game: another
    process takes the lease within a few seconds, the game finishes, no accepted action is
    lost, and the record replays with ``--verify``."""
    servers = cluster.running()
    with httpx.Client(base_url=servers[0].base, timeout=30) as client:
        response = client.post("/api/tables", json={"game": "guards-guards",
                                                    "seats": ["random"] * 4})
        assert response.status_code == 200, response.text
        created = response.json()
    table_id, spectator = created["table"], token_of(created["spectator"])
    end = time.monotonic() + DEADLINE
    while cluster.sql("SELECT count(*) FROM actions WHERE table_id = %s", table_id)[0][0] < 50:
        assert time.monotonic() < end, "the bots did not move"
        time.sleep(0.02)
    (holder,), = cluster.sql("SELECT holder FROM bot_leases WHERE table_id = %s", table_id)
    pid = int(holder.split(":")[-2])
    victim = next(s for s in servers if s.process is not None and s.process.pid == pid)
    os.kill(pid, signal.SIGKILL)
    assert victim.process is not None
    victim.process.wait(timeout=30)
    killed_at = time.monotonic()
    before = cluster.sql("SELECT n, action FROM actions WHERE table_id = %s ORDER BY n",
                         table_id)
    (finished,), = cluster.sql("SELECT finished FROM tables WHERE id = %s", table_id)
    assert not finished, "the game ended before the kill: make it longer"
    while True:
        rows = cluster.sql("SELECT holder FROM bot_leases WHERE table_id = %s", table_id)
        moved = cluster.sql("SELECT count(*) FROM actions WHERE table_id = %s", table_id)
        if (rows and rows[0][0] != holder) or moved[0][0] > len(before):
            break
        assert time.monotonic() < killed_at + TAKEOVER, "no process took the bots over"
        time.sleep(0.1)
    alive = next(s for s in servers if s is not victim)
    with httpx.Client(base_url=alive.base, timeout=30) as client:
        while not view(client, spectator)["table"]["over"]:
            assert time.monotonic() < end + DEADLINE, "the game did not finish"
            time.sleep(0.1)
        record = client.get(f"/api/record/{spectator}").json()
    assert [json.loads(a) for _n, a in before] == record["actions"][:len(before)]
    stored = cluster.sql("SELECT n FROM actions WHERE table_id = %s ORDER BY n", table_id)
    assert [n for (n,) in stored] == list(range(1, len(record["actions"]) + 1))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "citywatch.cli", "replay", "--verify",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_soak_measures_idle_memory_growth_after_the_warm_up() -> None:
    """Issue 14, "memory stays flat under a long soak": ``bench_cluster.py --rounds N``
    reports each process's idle RSS after the last round minus after round 1 (the warm-up,
    excluded), and nothing with one round."""
    import bench_cluster

    rounds = [{"rss_mb_idle": [80.0, 81.0, 79.5]}, {"rss_mb_idle": [90.0, 81.0, 79.0]},
              {"rss_mb_idle": [82.5, 81.0, 80.0]}]
    assert bench_cluster.growth(rounds) == [2.5, 0.0, 0.5]
    assert bench_cluster.growth(rounds[:1]) is None


def test_tests_and_benchmarks_share_one_postgres_and_server_start() -> None:
    """Issue 14, review: the PostgreSQL start-up, free ports and server start of these tests
    and of ``benchmarks/bench_cluster.py`` / ``bench_server.py`` are one piece of code
    (``benchmarks/serving.py``)."""
    import bench_cluster
    import bench_server
    import postgres_helpers
    import serving

    assert postgres_helpers.start_server is serving.start_server
    assert postgres_helpers.free_port is serving.free_port is bench_server.free_port
    assert bench_cluster.running_postgres is serving.running_postgres
    assert bench_cluster.play_bot_tables is bench_server.play_bot_tables
