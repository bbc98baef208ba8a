"""Processes for the server's tests and benchmarks, written once for both.

Free ports, a PostgreSQL server of one's own (Debian's package, in a temporary directory,
``fsync`` off), ``citywatch serve`` subprocesses, their resident memory and CPU time, the driver
that creates tables of bots spread over servers and follows each with a spectator WebSocket
on every server. It imports nothing of citywatch (the servers run in subprocesses):
``benchmarks/bench_server.py``, ``benchmarks/bench_cluster.py``, ``bench_open_tables.py``,
``tests/server/postgres_helpers.py`` and ``tests/server/test_server_cluster.py`` use it.
"""

from __future__ import annotations

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
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

NOT_INSTALLED = ("PostgreSQL is not installed: make test installs it (scripts/system-packages), "
                 "or: sudo apt-get install postgresql")


KEEPALIVE_SECONDS = 2.0
"""How long the benchmark clients keep an idle connection (below uvicorn's 5 s keep-alive)."""


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL's programs, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@contextmanager
def running_postgres(*settings: str, database: str = "citywatch_test") -> Iterator[str]:
    """A PostgreSQL server in a temporary directory, stopped and removed on exit; yields the
    URL of an empty database ``database``. ``settings`` are extra ``name=value`` server
    settings (e.g. ``max_connections=200``). ``RuntimeError`` if it is not installed or
    does not start."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError(NOT_INSTALLED)
    root = Path(tempfile.mkdtemp(prefix="citywatch-pg-"))
    user: dict[str, Any] = {}
    if os.geteuid() == 0:  # postgres refuses to run as root
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        user = {"user": owner.pw_uid, "group": owner.pw_gid}
    data = root / "data"
    subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "--no-sync", "-E", "UTF8"],
                   check=True, capture_output=True, cwd=root, timeout=120, **user)
    port = free_port()
    extra = [arg for setting in settings for arg in ("-c", setting)]
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(
        [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(root),
         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", *extra],
        stdout=log, stderr=subprocess.STDOUT, cwd=root, **user)
    try:
        end = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(host="127.0.0.1", port=port, user="postgres",
                                     dbname="postgres", autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{database}"')
                break
            except psycopg.OperationalError:
                if server.poll() is not None or time.monotonic() > end:
                    raise RuntimeError("PostgreSQL did not start: "
                                       + (root / "server.log").read_text()) from None
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/{database}"
    finally:
        server.send_signal(signal.SIGINT)  # a fast shutdown: it closes client connections
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        log.close()
        shutil.rmtree(root, ignore_errors=True)


def start_server(db_url: str, port: int, log: Path, *options: str) -> subprocess.Popen[bytes]:
    """Start ``citywatch serve`` on loopback ``port`` with bot delay 0 and ``options``, its
    output appended to ``log``; it does not answer yet (``wait_ready``). Its record-signing key
    is ``record-signing-key.pem`` beside ``log`` (shared by servers whose logs share a folder),
    never the user's."""
    key = ["--signing-key", str(log.parent / "record-signing-key.pem")]
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "citywatch.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", db_url, "--bot-delay", "0", *key, *options],
            stdout=out, stderr=subprocess.STDOUT)


def wait_ready(base: str, server: subprocess.Popen[bytes], log: Path,
               timeout: float = 60.0) -> None:
    """Wait until the server at ``base`` answers ``GET /``; ``RuntimeError`` with its log if
    it ends or does not answer within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if server.poll() is not None or time.monotonic() > end:
            raise RuntimeError(f"a server did not start:\n{log.read_text()}")
        time.sleep(0.1)


def stop(server: subprocess.Popen[bytes], kill: bool = False) -> None:
    """End ``server`` if it runs (``kill``: at once, else politely, killed after 30 s)."""
    if server.poll() is not None:
        return
    if kill:
        server.kill()
    else:
        server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=30)


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (0 if it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except FileNotFoundError:
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used, in seconds (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantile_ms(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` (seconds) in milliseconds, or None if there are none."""
    ordered = sorted(values)
    if not ordered:
        return None
    return round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * q))], 2)


async def probe(client: httpx.AsyncClient, path: str, latencies: list[float],
                stop: asyncio.Event, every: float = 0.05) -> None:
    """What a person waits for: GET ``path`` every ``every`` seconds until ``stop``, the
    latency of each answer kept."""
    while not stop.is_set():
        start = time.perf_counter()
        response = await client.get(path)
        if response.status_code == 200:
            latencies.append(time.perf_counter() - start)
        await asyncio.sleep(every)


@dataclass
class Watch:
    """What one spectator saw of one table: when each step's state message arrived."""

    arrivals: dict[int, float] = field(default_factory=dict)
    """Step -> ``time.perf_counter()`` when its state message came."""
    errors: list[str] = field(default_factory=list)
    finished: bool = False

    def gaps(self) -> list[float]:
        """Seconds between consecutive state messages."""
        times = [self.arrivals[step] for step in sorted(self.arrivals)]
        return [b - a for a, b in zip(times, times[1:], strict=False)]


async def watch(url: str, seen: Watch) -> None:
    """Follow one table's WebSocket ``url`` until its game is over; a state message that is
    not the next step is an error."""
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


@dataclass
class Load:
    """What playing a batch of bot tables gave (``play_bot_tables``)."""

    watches: dict[str, list[Watch]]
    """Table id -> its spectator's watch on every server, in the order of the servers."""
    actions: int
    seconds: float
    errors: list[str]

    @property
    def finished(self) -> int:
        """Tables whose end every watching spectator saw."""
        return sum(all(w.finished for w in seen) for seen in self.watches.values())


async def play_bot_tables(bases: list[str], tables: int, seats: list[str], game: str,
                          timeout: float, first_seed: int | None = None) -> Load:
    """Create ``tables`` tables of ``game`` with bot ``seats``, table ``k`` on server
    ``k % len(bases)`` (seed ``first_seed + k`` if given, else secret), follow each with a
    spectator WebSocket on every server until every game is over (at most ``timeout``
    seconds), then count the actions of the records, each read from the next server."""
    errors: list[str] = []
    watches: dict[str, list[Watch]] = {}
    spectators: dict[str, str] = {}
    tasks: list[asyncio.Task[None]] = []
    # Idle connections are dropped before the server's keep-alive (uvicorn: 5 s) ends them, so
    # a request never races the server closing its connection.
    limits = httpx.Limits(keepalive_expiry=KEEPALIVE_SECONDS)
    clients = [httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits)
               for base in bases]
    start = time.perf_counter()
    try:
        for k in range(tables):
            body: dict[str, Any] = {"game": game, "seats": seats}
            if first_seed is not None:
                body["seed"] = first_seed + k
            try:
                response = await clients[k % len(bases)].post("/api/tables", json=body)
            except httpx.TransportError as failed:
                errors.append(f"table {k}: no answer ({failed!r})")
                continue
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
        done, pending = await asyncio.wait(tasks, timeout=timeout) if tasks else (set(), set())
        elapsed = time.perf_counter() - start
        for task in pending:
            task.cancel()
            errors.append("a game did not finish before the timeout")
        for task in done:
            exc = task.exception()
            if exc is not None:
                kind = "WebSocket" if isinstance(exc, WebSocketException) else "watcher"
                errors.append(f"{kind} failed: {exc!r}")
        actions = 0
        for k, token in enumerate(spectators.values()):
            try:
                response = await clients[(k + 1) % len(bases)].get(f"/api/record/{token}")
            except httpx.TransportError as failed:
                errors.append(f"record: no answer ({failed!r})")
                continue
            if response.status_code != 200:
                errors.append(f"record: {response.status_code} {response.text}")
                continue
            actions += len(response.json()["actions"])
    finally:
        for client in clients:
            await client.aclose()
    for table_id, seen in watches.items():
        for w in seen:
            errors.extend(w.errors)
            if not w.finished:
                errors.append(f"table {table_id}: a spectator did not see the end")
    return Load(watches, actions, elapsed, errors)
