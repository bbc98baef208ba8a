"""Load test of three server processes on one PostgreSQL: run with ``make bench``.

Starts a PostgreSQL server of its own (Debian's package, in a temporary directory, ``fsync``
off) and three ``citywatch serve`` processes on it (bot delay 0, ``--idle-seconds 5``), creates
``--tables`` tables of four random bots spread over the processes, and watches every table
with one spectator WebSocket on each process. Prints actions per second, the 99th percentile
of the time from an action's acceptance (its commit, heard by this script's own ``LISTEN``) to
the last spectator's update, the errors (target 0), and each process's resident memory
(RSS) before the games, after them, and once the idle tables have left memory.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import connect

TARGET: dict[str, Any] = json.loads(
    Path(__file__).with_name("targets.json").read_text())["server-cluster"]
"""Issue 14: the processes, the tables and the errors (0) of the run (``targets.json``)."""
PROCESSES = int(TARGET["processes"])
IDLE_SECONDS = 5.0


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def postgres(root: Path) -> Iterator[str]:
    """A PostgreSQL server in ``root``; the URL of an empty database ``bench``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL is not installed (scripts/system-packages installs it)")
    bin_dir = Path(found[-1]).parent
    user: dict[str, Any] = {}
    if os.geteuid() == 0:  # postgres refuses to run as root
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        user = {"user": owner.pw_uid, "group": owner.pw_gid}
    subprocess.run([str(bin_dir / "initdb"), "-D", str(root / "data"), "-U", "postgres",
                    "--auth=trust", "--no-sync", "-E", "UTF8"],
                   check=True, capture_output=True, cwd=root, timeout=120, **user)
    port = free_port()
    with (root / "postgres.log").open("wb") as log:
        server = subprocess.Popen(
            [str(bin_dir / "postgres"), "-D", str(root / "data"), "-p", str(port),
             "-k", str(root), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
             "-c", "max_connections=200"],
            stdout=log, stderr=subprocess.STDOUT, cwd=root, **user)
    try:
        end = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(host="127.0.0.1", port=port, user="postgres",
                                     dbname="postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE bench")
                break
            except psycopg.OperationalError:
                if server.poll() is not None or time.monotonic() > end:
                    raise SystemExit("PostgreSQL did not start") from None
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/bench"
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


def start_server(db_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """Start ``citywatch serve`` on ``port`` (not yet answering)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "citywatch.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", db_url, "--bot-delay", "0", "--bot-workers", "1",
             "--table-rate", "100000/minute", "--idle-seconds", str(IDLE_SECONDS)],
            stdout=out, stderr=subprocess.STDOUT)


def wait_ready(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the server at ``base`` answers."""
    end = time.monotonic() + 60
    while time.monotonic() < end and server.poll() is None:
        try:
            if httpx.get(base + "/", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"a server did not start:\n{log.read_text()}")


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


@dataclass
class Watch:
    """What one spectator saw of one table."""

    arrivals: dict[int, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    finished: bool = False


async def watch(url: str, seen: Watch) -> None:
    """Follow one table as its spectator until its game is over."""
    last: int | None = None
    async with connect(url, max_size=None) as ws:
        async for raw in ws:
            now = time.perf_counter()
            message: dict[str, Any] = json.loads(raw)
            if message.get("type") != "state":
                seen.errors.append(f"unexpected message: {str(raw)[:200]}")
                continue
            step = message["step"]
            if last is not None and step != last + 1:
                seen.errors.append(f"state {step} came after {last}")
            last = step
            seen.arrivals[step] = now
            if message["table"]["over"]:
                seen.finished = True
                return


async def listen(db_url: str, accepted: dict[tuple[str, int], float],
                 ready: asyncio.Event) -> None:
    """Note when each action's commit is heard (``NOTIFY citywatch``)."""
    async with await psycopg.AsyncConnection.connect(db_url, autocommit=True) as conn:
        await conn.execute("LISTEN citywatch")
        ready.set()
        async for note in conn.notifies():
            table_id, _space, what = note.payload.rpartition(" ")
            if what.isdigit():
                accepted.setdefault((table_id, int(what)), time.perf_counter())


def _quantile(values: list[float], q: float) -> float | None:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * q))], 2) \
        if ordered else None


async def play(bases: list[str], db_url: str, tables: int, timeout: float,
               game: str) -> dict[str, Any]:
    """Create the tables, watch them on every process, return the numbers."""
    accepted: dict[tuple[str, int], float] = {}
    ready = asyncio.Event()
    listener = asyncio.create_task(listen(db_url, accepted, ready))
    await ready.wait()
    errors: list[str] = []
    watches: dict[str, list[Watch]] = {}
    tasks: list[asyncio.Task[None]] = []
    spectators: dict[str, str] = {}
    clients = [httpx.AsyncClient(base_url=base, timeout=timeout) for base in bases]
    start = time.perf_counter()
    try:
        for k in range(tables):
            response = await clients[k % len(bases)].post(
                "/api/tables", json={"game": game, "seats": ["random"] * 4})
            if response.status_code != 200:
                errors.append(f"table {k}: {response.status_code} {response.text}")
                continue
            created = response.json()
            token = created["spectator"].removeprefix("/play/")
            spectators[created["table"]] = token
            watches[created["table"]] = [Watch() for _ in bases]
            for base, one in zip(bases, watches[created["table"]], strict=True):
                url = base.replace("http://", "ws://") + f"/ws/{token}"
                tasks.append(asyncio.create_task(watch(url, one)))
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        elapsed = time.perf_counter() - start
        for task in pending:
            task.cancel()
            errors.append("a game did not finish before the timeout")
        for task in done:
            if task.exception() is not None:
                errors.append(f"a watcher failed: {task.exception()!r}")
        actions = 0
        for k, token in enumerate(spectators.values()):
            response = await clients[(k + 1) % len(bases)].get(f"/api/record/{token}")
            if response.status_code != 200:
                errors.append(f"record: {response.status_code} {response.text}")
                continue
            actions += len(response.json()["actions"])
    finally:
        for client in clients:
            await client.aclose()
        listener.cancel()
    latencies = []
    for table_id, seen in watches.items():
        for w in seen:
            errors.extend(w.errors)
            if not w.finished:
                errors.append(f"table {table_id}: a spectator did not see the end")
        common = set.intersection(*(set(w.arrivals) for w in seen))
        for step in common:
            heard = accepted.get((table_id, step))
            if heard is not None:
                latencies.append(max(w.arrivals[step] for w in seen) - heard)
    return {"actions": actions, "seconds": round(elapsed, 2),
            "actions_per_second": round(actions / elapsed, 1),
            "finished": sum(all(w.finished for w in seen) for seen in watches.values()),
            "updates_measured": len(latencies),
            "p50_update_ms": _quantile(latencies, 0.5),
            "p99_update_ms": _quantile(latencies, 0.99),
            "max_update_ms": _quantile(latencies, 1.0),
            "errors": len(errors), "first_errors": errors[:5]}


def run(tables: int, timeout: float, game: str | None) -> dict[str, Any]:
    """Start PostgreSQL and the servers, run the load test, stop everything."""
    from citywatch.core.registry import game_names

    game = game or game_names()[0]
    root = Path(tempfile.mkdtemp(prefix="citywatch-cluster-bench-"))
    try:
        with ExitStack() as stack:
            db_url = stack.enter_context(postgres(root))
            ports = [free_port() for _ in range(PROCESSES)]
            servers = []
            for k, port in enumerate(ports):
                server = start_server(db_url, port, root / f"server{k}.log")
                servers.append(server)
                stack.callback(_stop, server)
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            for k, (base, server) in enumerate(zip(bases, servers, strict=True)):
                wait_ready(base, server, root / f"server{k}.log")
            before = [rss_mb(s.pid) for s in servers]
            result = asyncio.run(play(bases, db_url, tables, timeout, game))
            after = [rss_mb(s.pid) for s in servers]
            time.sleep(IDLE_SECONDS + 3)  # the finished tables leave memory
            idle = [rss_mb(s.pid) for s in servers]
            for k in range(PROCESSES):
                text = (root / f"server{k}.log").read_text()
                if "Traceback" in text or "ERROR" in text:
                    result["errors"] += 1
                    result["first_errors"].append(f"server {k} logged an error")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"game": game, "tables": tables, "processes": PROCESSES, **result,
            "rss_mb_before": before, "rss_mb_after": after, "rss_mb_idle": idle}


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=30)


def main() -> int:
    """Run and print the load test; exit 1 on any error or unfinished game."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--tables", type=int, default=int(TARGET["tables"]),
                   help=f"tables of four bots (default {TARGET['tables']})")
    p.add_argument("--game", help="the game (default: the first registered)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds at most (default 600)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    result = run(args.tables, args.timeout, args.game)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"cluster: {result['tables']} {result['game']} tables of random bots on "
              f"{PROCESSES} processes, one PostgreSQL (fsync off), bot delay 0, "
              f"a spectator WebSocket per table on every process")
        print(f"  games finished      {result['finished']} / {result['tables']}")
        print(f"  actions             {result['actions']} in {result['seconds']} s: "
              f"{result['actions_per_second']} actions/s")
        print(f"  commit to last seat p50 {result['p50_update_ms']} ms, "
              f"p99 {result['p99_update_ms']} ms, max {result['max_update_ms']} ms "
              f"({result['updates_measured']} actions)")
        print(f"  RSS per process MB  before {result['rss_mb_before']}, after "
              f"{result['rss_mb_after']}, idle tables gone {result['rss_mb_idle']}")
        print(f"  errors              {result['errors']}")
        for error in result["first_errors"]:
            print(f"    {error}")
    ok = result["errors"] <= TARGET["errors"] and result["finished"] == result["tables"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
