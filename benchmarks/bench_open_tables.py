"""Load benchmark of the open tables (issue 31): run with ``make bench``.

Starts a PostgreSQL server of its own (in a temporary directory, ``fsync`` off) and
``--processes`` ``citywatch serve`` processes on it (bot delay 0, one bot worker each), which
trust this script as their reverse proxy (``--trusted-proxy 127.0.0.1``): every simulated
person sends ``X-Forwarded-For`` with an address of their own, so the servers count each
person's requests against that person, with the servers' own limits unchanged. Then:

- ``--tables`` public tables (two person seats and an easy bot, games in turn, default
  options) are created, each by its own address; the creator's seat is taken, the other stays
  free, so the table is listed;
- ``--playing`` private tables of the same seats play at the same time: both person seats are
  driven over their WebSockets by this script, which picks a legal action at random (seeded)
  after a pause of 0.5 to 1.5 s, like a person; a finished game is followed by a new table;
- ``--visitors`` simulated visitors browse, each on one process in turn: the start page once,
  then ``GET /api/open-tables`` at once and every 4 s, as the start page does
  (``citywatch/server/static/index.js``); one in 50 takes a free seat of a listed table
  after a few polls, and leaves the start page.

After ``--seconds`` it prints the 50th and 99th percentiles of the open tables' list, the start
page, taking a seat and a decision (sent over the WebSocket until the seat's own next state),
the requests per second, the tables listed and the errors (target 0), and checks the targets
of ``server-open-tables`` in ``targets.json``. The processes are ``serving.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from serving import (
    KEEPALIVE_SECONDS,
    cpu_seconds,
    free_port,
    quantile_ms,
    running_postgres,
    start_server,
    stop,
    wait_ready,
)
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

TARGET: dict[str, Any] = json.loads(
    Path(__file__).with_name("targets.json").read_text())["server-open-tables"]
"""Issue 31: the p99 of the open tables' list and the errors (0) under the default load."""

SEATS = ["human", "human", "easy"]
"""Every table's seats: two people (the creator and a free seat) and an easy bot."""
POLL_SECONDS = 4.0
"""How often the start page asks for the open tables (``OPEN_POLL_MS`` in index.js)."""
TAKERS_EVERY = 50
"""One visitor in this many takes a free seat."""
THINK_SECONDS = (0.5, 1.5)
"""The pause of a simulated person before each decision, drawn uniformly."""
BOUNDS = {"visitors": (1, 5000), "tables": (1, 1000), "playing": (0, 500),
          "seconds": (5.0, 3600.0), "processes": (1, 8)}
"""The range each option may take (a larger load would measure this script, not the servers)."""
CREATING_AT_ONCE = 8
"""The open tables are made this many at a time, before the run."""
CREATORS, VISITORS, PLAYERS = 1, 2, 3
"""The second byte of the addresses of each kind of simulated person (``address``)."""


def address(kind: int, k: int) -> str:
    """The ``k``-th person's own IPv4 address among those of ``kind`` (10.kind.x.y)."""
    if not 0 <= k < 250 * 256:
        raise ValueError(f"person {k} is beyond the addresses of one kind")
    return f"10.{kind}.{k // 250}.{k % 250 + 1}"


@dataclass
class Measured:
    """What the run measured: latencies in seconds, by what was asked, and the errors."""

    cpu_seconds: list[float] = field(default_factory=list)
    """The CPU time each server used during the run (not making the tables before it)."""
    driver_cpu_seconds: float = 0.0
    """The CPU time this script used during the run."""
    latencies: dict[str, list[float]] = field(default_factory=lambda: {
        "list": [], "start page": [], "take": [], "decision": []})
    requests: int = 0
    listed: list[int] = field(default_factory=list)
    """How many tables each answer of the list held."""
    taken: int = 0
    raced: int = 0
    """Takes answered 409: another visitor took the seat first (not an error)."""
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)


async def timed(client: httpx.AsyncClient, method: str, path: str, who: str,
                measured: Measured, what: str, **sent: Any) -> httpx.Response | None:
    """Send one request as ``who`` (``X-Forwarded-For``), its latency kept under ``what``
    if it succeeds; None (an error noted) if there is no answer."""
    start = time.perf_counter()
    try:
        response = await client.request(method, path, headers={"X-Forwarded-For": who}, **sent)
    except httpx.TransportError as failed:
        measured.errors.append(f"{what}: no answer ({failed!r})")
        return None
    measured.requests += 1
    if response.status_code == 200:
        measured.latencies[what].append(time.perf_counter() - start)
    return response


async def create(client: httpx.AsyncClient, who: str, game: str, public: bool,
                 measured: Measured) -> dict[str, Any] | None:
    """A new table of ``game`` with ``SEATS`` made by ``who``; its answer, or None."""
    body = {"game": game, "seats": SEATS, "public": public}
    try:
        response = await client.post("/api/tables", json=body,
                                     headers={"X-Forwarded-For": who})
    except httpx.TransportError as failed:
        measured.errors.append(f"create: no answer ({failed!r})")
        return None
    measured.requests += 1
    if response.status_code != 200:
        measured.errors.append(f"create {game}: {response.status_code} {response.text[:200]}")
        return None
    created: dict[str, Any] = response.json()
    return created


async def visit(client: httpx.AsyncClient, k: int, end: float, rng: random.Random,
                measured: Measured) -> None:
    """One visitor: the start page, then the open tables every ``POLL_SECONDS`` until
    ``end``; a taker takes a free seat of a listed table after 2 to 5 polls and leaves."""
    who = address(VISITORS, k)
    await asyncio.sleep(rng.uniform(0, POLL_SECONDS))
    take_after = rng.randint(2, 5) if k % TAKERS_EVERY == 0 else None
    response = await timed(client, "GET", "/", who, measured, "start page")
    if response is not None and response.status_code != 200:
        measured.errors.append(f"start page: {response.status_code}")
    polls = 0
    while time.perf_counter() < end:
        started = time.perf_counter()
        response = await timed(client, "GET", "/api/open-tables", who, measured, "list")
        polls += 1
        if response is not None and response.status_code != 200:
            measured.errors.append(f"list: {response.status_code} {response.text[:200]}")
        elif response is not None:
            if take_after is not None and polls >= take_after:
                rows = response.json()["tables"]
                if rows:
                    await take(client, who, rng.choice(rows)["table"], measured)
                    return
            measured.listed.append(response.content.count(b'"table":'))  # as cheap as can be
        now = time.perf_counter()
        await asyncio.sleep(max(0.0, min(POLL_SECONDS - (now - started), end - now)))


async def take(client: httpx.AsyncClient, who: str, table: str, measured: Measured) -> None:
    """Take the first free seat of ``table`` as ``who``; a 409 (taken first) is a race."""
    response = await timed(client, "POST", f"/api/open-tables/{table}/take", who, measured,
                           "take", json={})
    if response is None:
        return
    if response.status_code == 200 and response.json()["link"].startswith("/play/"):
        measured.taken += 1
    elif response.status_code == 409:
        measured.raced += 1
    else:
        measured.errors.append(f"take: {response.status_code} {response.text[:200]}")


async def play_seat(url: str, who: str, rng: random.Random, end: float,
                    measured: Measured) -> bool:
    """Play one person seat over its WebSocket ``url`` until the game is over (True) or
    ``end`` (False): a random legal action after a person's pause, each decision's time from
    sending it to the seat's own next state kept."""
    sent_step: int | None = None
    sent_at = 0.0
    async with connect(url, max_size=None,
                       additional_headers={"X-Forwarded-For": who}) as ws:
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, end - time.monotonic()))
            except TimeoutError:
                return False
            message: dict[str, Any] = json.loads(raw)
            if message.get("type") == "error":
                measured.errors.append(f"decision refused: {message.get('error')}")
                sent_step = None
                continue
            if message.get("type") != "state":
                continue
            step = message["step"]
            if sent_step is not None:
                if step <= sent_step:
                    continue  # a state sent before the answer (a bot's move, a name)
                measured.latencies["decision"].append(time.perf_counter() - sent_at)
                sent_step = None
            if message["table"]["over"]:
                return True
            actions = [c["json"] for c in message["choices"] if "steps" not in c]
            if not actions:
                continue
            await asyncio.sleep(rng.uniform(*THINK_SECONDS))
            if time.monotonic() >= end:
                return False
            sent_step, sent_at = step, time.perf_counter()
            await ws.send(json.dumps({"type": "act", "step": step,
                                      "action": rng.choice(actions)}))


async def keep_playing(client: httpx.AsyncClient, ws_base: str, first: dict[str, Any] | None,
                       slot: int, games: list[str], rng: random.Random, end: float,
                       measured: Measured, counter: list[int]) -> None:
    """Play the table ``first`` (made before the run), then one new table after another
    until ``end`` (monotonic), each made by a new address; both person seats of each are
    played by ``play_seat``."""
    created, who, round_ = first, address(PLAYERS, slot), 1
    while created is not None:
        links = [seat["link"] for seat in created["seats"] if seat["link"]]
        plays = [play_seat(ws_base + link.replace("/play/", "/ws/"), who,
                           random.Random(rng.random()), end, measured) for link in links]
        try:
            over = await asyncio.gather(*plays)
        except (WebSocketException, OSError) as failed:
            measured.errors.append(f"table {created['table']}: WebSocket failed ({failed!r})")
            return
        if all(over):
            measured.games_finished += 1
        if time.monotonic() >= end:
            return
        counter[0] += 1
        who = address(PLAYERS, counter[0])
        created = await create(client, who, games[(slot + round_) % len(games)], False,
                               measured)
        round_ += 1


async def load(bases: list[str], pids: list[int], games: list[str], tables: int,
               playing: int, visitors: int, seconds: float,
               seed: int) -> tuple[Measured, float]:
    """Create the open tables, then run the players and the visitors for ``seconds``; what
    was measured and the seconds the run took."""
    measured = Measured()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=200, keepalive_expiry=KEEPALIVE_SECONDS)
    clients = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases]
    try:
        at_once = asyncio.Semaphore(CREATING_AT_ONCE)

        async def open_table(k: int) -> dict[str, Any] | None:
            async with at_once:
                return await create(clients[k % len(bases)], address(CREATORS, k),
                                    games[k % len(games)], True, measured)

        async def playing_table(k: int) -> dict[str, Any] | None:
            async with at_once:
                return await create(clients[k % len(bases)], address(PLAYERS, k),
                                    games[k % len(games)], False, measured)

        made = await asyncio.gather(*(open_table(k) for k in range(tables)))
        opened = sum(1 for created in made if created is not None)
        if opened < tables:
            measured.errors.append(f"only {opened} of {tables} open tables were made")
        firsts = await asyncio.gather(*(playing_table(k) for k in range(playing)))
        cpu_before, own_before = [cpu_seconds(pid) for pid in pids], time.process_time()
        start = time.perf_counter()
        end_wall = start + seconds
        end = time.monotonic() + seconds
        counter = [playing]
        tasks = [keep_playing(clients[k % len(bases)],
                              bases[k % len(bases)].replace("http://", "ws://"), firsts[k], k,
                              games, random.Random(rng.random()), end, measured, counter)
                 for k in range(playing)]
        tasks += [visit(clients[k % len(bases)], k, end_wall, random.Random(rng.random()),
                        measured) for k in range(visitors)]
        await asyncio.gather(*tasks)
        measured.cpu_seconds = [round(cpu_seconds(pid) - before, 1)
                                for pid, before in zip(pids, cpu_before, strict=True)]
        measured.driver_cpu_seconds = round(time.process_time() - own_before, 1)
        return measured, time.perf_counter() - start
    finally:
        for client in clients:
            await client.aclose()


def run(visitors: int, tables: int, playing: int, seconds: float, processes: int,
        seed: int) -> dict[str, Any]:
    """Start PostgreSQL and the servers, run the load, stop everything; the numbers."""
    from citywatch.core.registry import game_names

    games = game_names()
    logged: list[str] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="citywatch-open-bench-")))
        db_url = stack.enter_context(running_postgres("max_connections=200", database="bench"))
        ports = [free_port() for _ in range(processes)]
        logs = [folder / f"server{k}.log" for k in range(processes)]
        servers = []
        for port, log in zip(ports, logs, strict=True):
            server = start_server(db_url, port, log, "--bot-workers", "1",
                                  "--trusted-proxy", "127.0.0.1")
            servers.append(server)
            stack.callback(stop, server)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base, server, log in zip(bases, servers, logs, strict=True):
            wait_ready(base, server, log)
        loadavg = os.getloadavg()[0]
        measured, elapsed = asyncio.run(load(bases, [server.pid for server in servers], games,
                                             tables, playing, visitors, seconds, seed))
        for k, log in enumerate(logs):
            text = log.read_text()
            if "Traceback" in text or "ERROR" in text:
                logged.append(f"server {k} logged an error")
    errors = measured.errors + logged
    return {"processes": processes, "visitors": visitors, "tables": tables,
            "playing": playing, "seconds": round(elapsed, 1), "games": games,
            "requests": measured.requests, "cores": os.cpu_count(),
            "load_average_before": round(loadavg, 2),
            "load_average_after": round(os.getloadavg()[0], 2),
            "server_cpu_seconds": measured.cpu_seconds,
            "driver_cpu_seconds": measured.driver_cpu_seconds,
            "requests_per_second": round(measured.requests / elapsed, 1),
            "listed_min": min(measured.listed, default=0),
            "listed_max": max(measured.listed, default=0),
            "taken": measured.taken, "raced": measured.raced,
            "games_finished": measured.games_finished,
            "latency_ms": {what: {"count": len(values), "p50": quantile_ms(values, 0.5),
                                  "p99": quantile_ms(values, 0.99)}
                           for what, values in measured.latencies.items()},
            "errors": len(errors), "first_errors": errors[:5]}


def main() -> int:
    """Run and print the benchmark; exit 1 if a target is missed."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--visitors", type=int, default=500,
                   help="visitors browsing the start page (default 500)")
    p.add_argument("--tables", type=int, default=200,
                   help="public tables with a free seat (default 200)")
    p.add_argument("--playing", type=int, default=50,
                   help="tables played at the same time (default 50)")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="how long the visitors browse and the tables play (default 60)")
    p.add_argument("--processes", type=int, default=2,
                   help="server processes on the one PostgreSQL (default 2)")
    p.add_argument("--seed", type=int, default=1, help="the people's choices (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    for name, (low, high) in BOUNDS.items():
        if not low <= getattr(args, name) <= high:
            p.error(f"--{name} must be from {low:g} to {high:g}")
    result = run(args.visitors, args.tables, args.playing, args.seconds, args.processes,
                 args.seed)
    list_p99 = result["latency_ms"]["list"]["p99"]
    ok = (result["errors"] <= TARGET["errors"] and list_p99 is not None
          and list_p99 <= TARGET["list_p99_ms"])
    if args.json:
        print(json.dumps(result))
    else:
        print(f"open tables: {result['tables']} public tables, {result['playing']} tables "
              f"playing, {result['visitors']} visitors for {result['seconds']} s on "
              f"{result['processes']} processes, one PostgreSQL (fsync off), bot delay 0")
        for what, numbers in result["latency_ms"].items():
            print(f"  {what:<12} p50 {numbers['p50']} ms, p99 {numbers['p99']} ms "
                  f"({numbers['count']} measured)")
        print(f"  requests/s   {result['requests_per_second']} ({result['requests']} in all)")
        print(f"  CPU seconds  servers {result['server_cpu_seconds']}, this driver "
              f"{result['driver_cpu_seconds']}; "
              f"{result['cores']} cores, load average {result['load_average_before']} "
              f"before, {result['load_average_after']} after")
        print(f"  listed       {result['listed_min']} to {result['listed_max']} tables; "
              f"{result['taken']} seats taken, {result['raced']} taken first by another; "
              f"{result['games_finished']} games finished")
        print(f"  list p99     {list_p99} ms (target at most {TARGET['list_p99_ms']:g}) "
              f"{'PASS' if list_p99 is not None and list_p99 <= TARGET['list_p99_ms'] else 'FAIL'}")
        print(f"  errors       {result['errors']} (target {TARGET['errors']}) "
              f"{'PASS' if result['errors'] <= TARGET['errors'] else 'FAIL'}")
        for error in result["first_errors"]:
            print(f"    {error}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
