"""Load test and memory soak of three server processes on one PostgreSQL: run with ``make bench``.

Starts a PostgreSQL server of its own (Debian's package, in a temporary directory, ``fsync``
off) and three ``citywatch serve`` processes on it (bot delay 0, ``--idle-seconds``), then
plays ``--rounds`` rounds. A round creates ``--tables`` tables of four random bots spread over
the processes and watches every table with one spectator WebSocket on each process; once the
games are over it waits until the finished tables have left memory (``--idle-seconds`` and
three more). Prints, per round, actions per second, the 99th percentile of the time from an
action's acceptance (its commit, heard by this script's own ``LISTEN``) to the last
spectator's update, the errors (target 0) and each process's resident memory (RSS) after
the games and once idle; then each process's growth of idle RSS from round 2 to the last
(idle RSS after the last round minus after round 1, the warm-up; issue 14: "memory stays
flat under a long soak"). ``make bench`` runs three rounds; a long soak:
``bench_cluster.py --rounds 30``. The processes and the driver are ``serving.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
from serving import (
    Load,
    free_port,
    play_bot_tables,
    quantile_ms,
    rss_mb,
    running_postgres,
    start_server,
    stop,
    wait_ready,
)

TARGET: dict[str, Any] = json.loads(
    Path(__file__).with_name("targets.json").read_text())["server-cluster"]
"""Issue 14: the processes, tables, errors (0) and soak growth of the run (``targets.json``)."""
PROCESSES = int(TARGET["processes"])


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


async def play(bases: list[str], db_url: str, tables: int, timeout: float,
               game: str) -> dict[str, Any]:
    """One round: create the tables, watch them on every process, return the numbers."""
    accepted: dict[tuple[str, int], float] = {}
    ready = asyncio.Event()
    listener = asyncio.create_task(listen(db_url, accepted, ready))
    await ready.wait()
    try:
        load: Load = await play_bot_tables(bases, tables, ["random"] * 4, game, timeout)
    finally:
        listener.cancel()
    latencies = []
    for table_id, seen in load.watches.items():
        common = set.intersection(*(set(w.arrivals) for w in seen))
        for step in common:
            heard = accepted.get((table_id, step))
            if heard is not None:
                latencies.append(max(w.arrivals[step] for w in seen) - heard)
    return {"actions": load.actions, "seconds": round(load.seconds, 2),
            "actions_per_second": round(load.actions / load.seconds, 1),
            "finished": load.finished, "updates_measured": len(latencies),
            "p50_update_ms": quantile_ms(latencies, 0.5),
            "p99_update_ms": quantile_ms(latencies, 0.99),
            "max_update_ms": quantile_ms(latencies, 1.0),
            "errors": len(load.errors), "first_errors": load.errors[:5]}


def growth(rounds: list[dict[str, Any]]) -> list[float] | None:
    """Each process's idle RSS after the last round minus after round 1 (the warm-up), in
    MB; None with fewer than two rounds."""
    if len(rounds) < 2:
        return None
    return [round(last - first, 1) for first, last
            in zip(rounds[0]["rss_mb_idle"], rounds[-1]["rss_mb_idle"], strict=True)]


def run(tables: int, timeout: float, game: str | None, rounds: int,
        idle_seconds: float) -> dict[str, Any]:
    """Start PostgreSQL and the servers, play the rounds, stop everything."""
    from citywatch.core.registry import game_names

    game = game or game_names()[0]
    played: list[dict[str, Any]] = []
    logged: list[str] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="citywatch-cluster-bench-")))
        db_url = stack.enter_context(running_postgres("max_connections=200", database="bench"))
        ports = [free_port() for _ in range(PROCESSES)]
        logs = [folder / f"server{k}.log" for k in range(PROCESSES)]
        servers = []
        for port, log in zip(ports, logs, strict=True):
            server = start_server(db_url, port, log, "--bot-workers", "1", "--table-rate",
                                  "100000/minute", "--tables-per-address", "100000",
                                  "--idle-seconds", str(idle_seconds))
            servers.append(server)
            stack.callback(stop, server)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base, server, log in zip(bases, servers, logs, strict=True):
            wait_ready(base, server, log)
        before = [rss_mb(s.pid) for s in servers]
        for _ in range(rounds):
            result = asyncio.run(play(bases, db_url, tables, timeout, game))
            result["rss_mb_after"] = [rss_mb(s.pid) for s in servers]
            time.sleep(idle_seconds + 3)  # the finished tables leave memory
            result["rss_mb_idle"] = [rss_mb(s.pid) for s in servers]
            played.append(result)
        for k, log in enumerate(logs):
            text = log.read_text()
            if "Traceback" in text or "ERROR" in text:
                logged.append(f"server {k} logged an error")
    errors = sum(r["errors"] for r in played) + len(logged)
    first = [e for r in played for e in r["first_errors"]][:5] + logged
    return {"game": game, "tables": tables, "processes": PROCESSES, "rounds": played,
            "rss_mb_before": before, "rss_growth_mb": growth(played),
            "finished": sum(r["finished"] for r in played), "errors": errors,
            "first_errors": first}


def main() -> int:
    """Run and print the load test and soak; exit 1 on any error, an unfinished game or a
    process whose memory grew more than the target."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=int(TARGET["tables"]),
                   help=f"tables of four bots per round (default {TARGET['tables']})")
    p.add_argument("--rounds", type=int, default=3,
                   help="rounds of that load (default 3; a long soak: 30)")
    p.add_argument("--idle-seconds", type=float, default=5.0,
                   help="the servers' --idle-seconds (default 5)")
    p.add_argument("--game", help="the game (default: the first registered)")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds at most per round (default 600)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    if args.rounds < 1 or args.tables < 1 or not args.idle_seconds > 0:
        p.error("--rounds and --tables must be at least 1, --idle-seconds more than 0")
    result = run(args.tables, args.timeout, args.game, args.rounds, args.idle_seconds)
    limit = float(TARGET["soak_growth_mb"])
    grown = result["rss_growth_mb"] or []
    if args.json:
        print(json.dumps(result))
    else:
        print(f"cluster: {args.rounds} rounds of {result['tables']} {result['game']} tables "
              f"of random bots on {PROCESSES} processes, one PostgreSQL (fsync off), bot "
              f"delay 0, a spectator WebSocket per table on every process, idle tables "
              f"leave memory after {args.idle_seconds} s")
        print(f"  RSS per process MB before    {result['rss_mb_before']}")
        for k, r in enumerate(result["rounds"], start=1):
            print(f"  round {k}: {r['finished']}/{result['tables']} finished, {r['actions']} "
                  f"actions in {r['seconds']} s: {r['actions_per_second']} actions/s; commit "
                  f"to last seat p50 {r['p50_update_ms']} ms, p99 {r['p99_update_ms']} ms, "
                  f"max {r['max_update_ms']} ms; errors {r['errors']}; RSS MB after "
                  f"{r['rss_mb_after']}, idle {r['rss_mb_idle']}")
        print(f"  idle RSS growth MB, rounds 2 to {args.rounds} (after round {args.rounds} "
              f"minus after round 1) {result['rss_growth_mb']} (target at most {limit:g})")
        print(f"  errors              {result['errors']}")
        for error in result["first_errors"]:
            print(f"    {error}")
    ok = (result["errors"] <= TARGET["errors"]
          and result["finished"] == result["tables"] * args.rounds
          and all(g <= limit for g in grown))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
