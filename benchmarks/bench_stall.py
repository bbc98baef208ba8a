"""Can one table's creator stall everyone else? (issue 24, point 1; run by ``make bench``.)

Starts ``citywatch serve`` (a fresh SQLite file, bot delay 0, a creation rate of
``--rate``) and a table of one person. Then an attacker creates tables as fast as the rate
limit lets it, each with the largest options the server declares for ``--game`` (every
number option at its ``max`` from ``GET /api/games``; ``--options`` gives others, e.g. the
unbounded ``{"copies_per_guard_card": 10000000}`` of the issue), while the person's page
asks for its view (``GET /api/view``) every 20 ms. Prints the view's latency (p50, p99,
max), the tables created and refused, how long a creation took, and the server's resident
memory before and after. Target: p99 under 100 ms (``benchmarks/targets.json``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from serving import free_port, probe, quantile_ms, rss_mb, start_server, stop, wait_ready

TARGETS = json.loads((Path(__file__).parent / "targets.json").read_text())


def largest_options(catalogue: list[dict[str, Any]], game: str) -> dict[str, Any]:
    """Every number option of ``game`` at its declared maximum (none for an unbounded one)."""
    about = next(g for g in catalogue if g["name"] == game)
    return {option["name"]: option["max"] for option in about.get("options", [])
            if "max" in option and option["max"] is not None}


async def attack(client: httpx.AsyncClient, body: dict[str, Any], seconds: float,
                 made: list[float], refused: dict[int, int]) -> None:
    """Create tables with ``body`` for ``seconds``, waiting as ``Retry-After`` says."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        response = await client.post("/api/tables", json=body)
        if response.status_code == 200:
            made.append(time.perf_counter() - start)
            continue
        refused[response.status_code] = refused.get(response.status_code, 0) + 1
        wait = float(response.headers.get("retry-after", "0.2"))
        await asyncio.sleep(min(wait, max(0.0, end - time.monotonic())))


async def measure(base: str, game: str, options: dict[str, Any], seats: list[str],
                  seconds: float, timeout: float) -> dict[str, Any]:
    """The person's latencies while the attacker creates tables for ``seconds``."""
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as person, \
            httpx.AsyncClient(base_url=base, timeout=timeout) as attacker:
        created = (await person.post("/api/tables", json={
            "game": "ankh-morpork", "seats": ["human", "random"]})).json()
        token = created["seats"][0]["link"].rsplit("/", 1)[1]
        latencies: list[float] = []
        made: list[float] = []
        refused: dict[int, int] = {}
        done = asyncio.Event()
        probing = asyncio.create_task(probe(person, f"/api/view/{token}", latencies, done,
                                              every=0.02))
        await asyncio.sleep(1.0)  # the quiet baseline
        body = {"game": game, "seats": seats, "options": options}
        try:
            await attack(attacker, body, seconds, made, refused)
        finally:
            done.set()
            await probing
    return {"latencies": latencies, "made": made, "refused": refused}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black-keep")
    parser.add_argument("--options", type=json.loads, default=None,
                        help="the attacker's options as JSON (default: every number option "
                             "at its declared maximum)")
    parser.add_argument("--seats", default="human",
                        help="the attacker's seats, comma-separated (default: human)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the attack lasts")
    parser.add_argument("--rate", default="1000/minute",
                        help="the server's creation rate per address (--table-rate)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a request may take before the benchmark gives up")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="citywatch-stall-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "server.log"
    server = start_server(f"sqlite:///{folder / 'bench.db'}", port, log,
                          "--table-rate", args.rate, "--tables-per-address", "100000")
    try:
        wait_ready(base, server, log)
        options = args.options
        if options is None:
            options = largest_options(httpx.get(base + "/api/games").json(), args.game)
        before = rss_mb(server.pid)
        result = asyncio.run(measure(base, args.game, options, args.seats.split(","),
                                     args.seconds, args.timeout))
        after = rss_mb(server.pid)
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    latencies, made = result["latencies"], result["made"]
    p99 = quantile_ms(latencies, 0.99)
    target = TARGETS["server-stall"]["view_p99_ms"]
    print(f"attack: {args.game} tables with {json.dumps(options)} for {args.seconds:g} s, "
          f"seats {args.seats}, creation rate {args.rate}")
    print(f"tables created: {len(made)}, refused: {result['refused'] or 'none'}; creation "
          f"p50 {quantile_ms(made, 0.5)} ms, max {quantile_ms(made, 1.0)} ms")
    print(f"another table's view: {len(latencies)} answers, p50 {quantile_ms(latencies, 0.5)} "
          f"ms, p99 {p99} ms, max {quantile_ms(latencies, 1.0)} ms (target p99 < {target} ms)")
    print(f"server memory: {before} MB before, {after} MB after")
    return 0 if p99 is not None and p99 < target else 1


if __name__ == "__main__":
    sys.exit(main())
