"""Load test of the web server on loopback: run with ``make bench`` (not part of the tests).

Starts ``citywatch serve`` (bot delay 0, a fresh SQLite file) as a subprocess, creates tables of
four bots of one level (``--bot``; they play themselves), watches each with one spectator
WebSocket until every game is over, and prints actions per second, the 99th-percentile gap
between consecutive state messages, how long a page load takes meanwhile (what a person waits
for while the bots think), the errors (expected 0) and whether every game finished. Bounded by
``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


@dataclass
class Watch:
    """What one spectator saw of one table."""

    steps: list[int] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: bool = False


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db_url: str, port: int, log: Path, timeout: float) -> subprocess.Popen[bytes]:
    """Start ``citywatch serve`` and wait until it answers."""
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "citywatch.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--db", db_url, "--bot-delay", "0",
             "--table-rate", "100000/minute"],
            stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + timeout
    while time.monotonic() < end and server.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()}")


async def watch(base: str, token: str, seen: Watch) -> None:
    """Follow one table as its spectator until its game is over."""
    url = base.replace("http://", "ws://") + f"/ws/{token}"
    last = time.perf_counter()
    async with connect(url, max_size=None) as ws:
        async for raw in ws:
            now = time.perf_counter()
            message: dict[str, Any] = json.loads(raw)
            if message.get("type") != "state":
                seen.errors.append(f"unexpected message: {str(raw)[:200]}")
                continue
            step = message["step"]
            if seen.steps:
                seen.gaps.append(now - last)
                if step != seen.steps[-1] + 1:
                    seen.errors.append(f"state {step} came after {seen.steps[-1]}")
            seen.steps.append(step)
            last = now
            if message["view"]["result"] is not None:
                seen.finished = True
                return


async def probe(client: httpx.AsyncClient, path: str, latencies: list[float],
                stop: asyncio.Event) -> None:
    """What a person waits for while the bots play: GET ``path`` every 50 ms until ``stop``."""
    while not stop.is_set():
        start = time.perf_counter()
        response = await client.get(path)
        if response.status_code == 200:
            latencies.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)


def _quantile(values: list[float], q: float) -> float | None:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * q))], 2) \
        if ordered else None


async def run(tables: int, timeout: float, bot: str = "random",
              game: str | None = None) -> dict[str, Any]:
    """Run the load test on ``game`` (default: the first registered); return its numbers."""
    from citywatch.core.registry import game_names, load

    game = game or game_names()[0]
    players = min(4, load(game).max_players)
    folder = Path(tempfile.mkdtemp(prefix="citywatch-bench-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(f"sqlite:///{folder / 'bench.db'}", port, folder / "server.log", 60)
    watches = [Watch() for _ in range(tables)]
    errors: list[str] = []
    tokens: list[str] = []
    try:
        start = time.perf_counter()
        async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
            tasks: list[asyncio.Task[None]] = []
            for k in range(tables):
                response = await client.post("/api/tables", json={
                    "game": game, "seats": [bot] * players, "seed": 1000 + k})
                if response.status_code != 200:
                    errors.append(f"table {k}: {response.status_code} {response.text}")
                    continue
                token = response.json()["spectator"].removeprefix("/play/")
                tokens.append(token)
                tasks.append(asyncio.create_task(watch(base, token, watches[k])))
            stop = asyncio.Event()
            latencies: list[float] = []
            probing = asyncio.create_task(probe(client, "/", latencies, stop))
            done, pending = await asyncio.wait(tasks, timeout=timeout)
            elapsed = time.perf_counter() - start
            stop.set()
            await probing
            for task in pending:
                task.cancel()
                errors.append("a game did not finish before the timeout")
            for task in done:
                exc = task.exception()
                if exc is not None:
                    kind = "WebSocket" if isinstance(exc, WebSocketException) else "watcher"
                    errors.append(f"{kind} failed: {exc!r}")
            actions = 0
            for token in tokens:
                response = await client.get(f"/api/record/{token}")
                if response.status_code == 200:
                    actions += len(response.json()["actions"])
                else:
                    errors.append(f"record: {response.status_code} {response.text}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
    gaps = sorted(g for w in watches for g in w.gaps)
    for w in watches:
        errors.extend(w.errors)
    if errors:
        print(f"the server's database and log are kept in {folder}", file=sys.stderr)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "game": game,
        "bot": bot,
        "tables": tables,
        "finished": sum(w.finished for w in watches),
        "actions": actions,
        "seconds": round(elapsed, 2),
        "actions_per_second": round(actions / elapsed, 1),
        "messages": sum(len(w.steps) for w in watches),
        "p50_gap_ms": round(1000 * gaps[len(gaps) // 2], 2) if gaps else None,
        "p99_gap_ms": round(1000 * gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))], 2)
        if gaps else None,
        "max_gap_ms": round(1000 * gaps[-1], 2) if gaps else None,
        "page_p50_ms": _quantile(latencies, 0.5),
        "page_p99_ms": _quantile(latencies, 0.99),
        "page_max_ms": round(1000 * max(latencies), 2) if latencies else None,
        "errors": len(errors),
        "first_errors": errors[:5],
    }


def main() -> int:
    """Run and print the load test; exit 1 on any error or unfinished game."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--tables", type=int, default=50, help="tables of four bots (default 50)")
    p.add_argument("--bot", default="random", help="the bot level of every seat (default random)")
    p.add_argument("--game", help="the game (default: the first registered)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds at most (default 300)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    result = asyncio.run(run(args.tables, args.timeout, args.bot, args.game))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"server: {result['tables']} {result['game']} tables of {result['bot']} bots, "
              f"bot delay 0, SQLite, one spectator WebSocket each")
        print(f"  games finished      {result['finished']} / {result['tables']}")
        print(f"  actions             {result['actions']} in {result['seconds']} s: "
              f"{result['actions_per_second']} actions/s")
        print(f"  state messages      {result['messages']}")
        print(f"  gap between states  p50 {result['p50_gap_ms']} ms, "
              f"p99 {result['p99_gap_ms']} ms, max {result['max_gap_ms']} ms")
        print(f"  page load meanwhile p50 {result['page_p50_ms']} ms, "
              f"p99 {result['page_p99_ms']} ms, max {result['page_max_ms']} ms")
        print(f"  errors              {result['errors']}")
        for error in result["first_errors"]:
            print(f"    {error}")
    ok = result["errors"] == 0 and result["finished"] == result["tables"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
