"""Load test of the web server on loopback: run with ``make bench`` (not part of the tests).

Starts ``citywatch serve`` (bot delay 0, a fresh SQLite file) as a subprocess, creates tables of
four bots of one level (``--bot``; they play themselves), watches each with one spectator
WebSocket until every game is over, and prints actions per second, the 99th-percentile gap
between consecutive state messages, how long a page load takes meanwhile (what a person waits
for while the bots think), the errors (expected 0) and whether every game finished. Bounded by
``--timeout``. The server and the driver are ``serving.py``'s, shared with ``bench_cluster.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from serving import (
    free_port,
    play_bot_tables,
    probe,
    quantile_ms,
    start_server,
    stop,
    wait_ready,
)


async def measure(base: str, tables: int, timeout: float, bot: str, game: str,
                  players: int) -> tuple[Any, list[float]]:
    """Play the tables on the server at ``base`` while probing its start page."""
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as client:
        done = asyncio.Event()
        latencies: list[float] = []
        probing = asyncio.create_task(probe(client, "/", latencies, done))
        try:
            load = await play_bot_tables([base], tables, [bot] * players, game, timeout,
                                         first_seed=1000)
        finally:
            done.set()
            await probing
    return load, latencies


def run(tables: int, timeout: float, bot: str = "random",
        game: str | None = None) -> dict[str, Any]:
    """Run the load test on ``game`` (default: the first registered); return its numbers."""
    from citywatch.core.registry import game_names, load

    game = game or game_names()[0]
    players = min(4, load(game).max_players)
    folder = Path(tempfile.mkdtemp(prefix="citywatch-bench-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "server.log"
    server = start_server(f"sqlite:///{folder / 'bench.db'}", port, log,
                          "--table-rate", "100000/minute", "--tables-per-address", "100000")
    try:
        wait_ready(base, server, log)
        played, latencies = asyncio.run(measure(base, tables, timeout, bot, game, players))
    finally:
        stop(server)
    watches = [w for seen in played.watches.values() for w in seen]
    gaps = [g for w in watches for g in w.gaps()]
    if played.errors:
        print(f"the server's database and log are kept in {folder}", file=sys.stderr)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "game": game,
        "bot": bot,
        "tables": tables,
        "finished": played.finished,
        "actions": played.actions,
        "seconds": round(played.seconds, 2),
        "actions_per_second": round(played.actions / played.seconds, 1),
        "messages": sum(len(w.arrivals) for w in watches),
        "p50_gap_ms": quantile_ms(gaps, 0.5),
        "p99_gap_ms": quantile_ms(gaps, 0.99),
        "max_gap_ms": quantile_ms(gaps, 1.0),
        "page_p50_ms": quantile_ms(latencies, 0.5),
        "page_p99_ms": quantile_ms(latencies, 0.99),
        "page_max_ms": quantile_ms(latencies, 1.0),
        "errors": len(played.errors),
        "first_errors": played.errors[:5],
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
    result = run(args.tables, args.timeout, args.bot, args.game)
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
