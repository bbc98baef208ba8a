"""Lock-out test of the web server (issue 24, points 2 and 3): run with ``make bench``.

Against ``citywatch serve`` subprocesses on loopback (Linux's loopback answers all of
127.0.0.0/8, so a client socket bound to 127.0.0.2 is another address):

(a) one address (127.0.0.1) opens ``--sockets`` WebSockets as fast as it can, on links of
    tables made from other addresses; then a real player at 127.0.0.2 opens its page, its
    WebSocket and its view. The server's resident memory before, while and after, and after
    ``--rounds`` rounds of ``--spread`` WebSockets opened and closed from many addresses.
(b) one address opens ``--slow`` connections that send half a request's headers and nothing
    more (slowloris), against a server started with a soft open-file limit of ``--nofile``
    (systemd's default is 1024); how many are still open after 1 s and after 15 s, and how
    long a normal request from 127.0.0.2 takes meanwhile.
(c) 127.0.0.1 asks for ``--spoof`` tables, each with a made-up ``X-Forwarded-For``; how many
    are made (the default limit is 20 per address in 10 minutes).

``--source DIR`` runs the servers from another checkout (e.g. the code before issue 24).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from serving import free_port, rss_mb, start_server, stop, wait_ready
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ATTACKER = "127.0.0.1"
PLAYER = "127.0.0.2"
GAME = "ankh-morpork"
PER_LINK = 8
"""WebSockets one link may hold (the server's cap)."""
TIMEOUT = 20.0


@contextmanager
def server(folder: Path, name: str, *options: str,
           nofile: int | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A fresh ``citywatch serve`` (SQLite in ``folder``) with ``options``, started with a soft
    open-file limit of ``nofile`` if given; its base URL and process."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / f"{name}.log"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if nofile is not None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))
    try:
        process = start_server(f"sqlite:///{folder / name}.db", port, log, *options)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        wait_ready(base, process, log)
        yield base, process
    finally:
        stop(process)


def client(base: str, address: str, timeout: float = TIMEOUT) -> httpx.AsyncClient:
    """An HTTP client of ``base`` whose connections come from ``address``."""
    return httpx.AsyncClient(base_url=base, timeout=timeout,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def new_table(base: str, address: str, seats: int) -> dict[str, Any]:
    """A table of ``seats`` people made from ``address``."""
    async with client(base, address) as http:
        response = await http.post("/api/tables", json={"game": GAME, "seats": ["human"] * seats})
        response.raise_for_status()
        created: dict[str, Any] = response.json()
        return created


def links(created: dict[str, Any]) -> list[str]:
    """The tokens of a table's people and its spectator."""
    return [s["link"].removeprefix("/play/") for s in created["seats"] if s["link"]] + \
        [created["spectator"].removeprefix("/play/")]


async def open_socket(base: str, token: str, address: str
                      ) -> tuple[str, ClientConnection | None]:
    """A WebSocket of ``token`` from ``address``: ("open", it) once its first state came, or
    what refused it and None."""
    url = base.replace("http://", "ws://") + f"/ws/{token}"
    try:
        ws = await connect(url, local_addr=(address, 0), open_timeout=TIMEOUT,
                           origin=None, max_size=None)
    except InvalidStatus as exc:
        return f"HTTP {exc.response.status_code}", None
    except (OSError, TimeoutError) as exc:
        return type(exc).__name__, None
    try:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    except ConnectionClosed as exc:
        return f"closed {exc.rcvd.code if exc.rcvd else 'without a code'}", None
    except (OSError, TimeoutError) as exc:
        await ws.close()
        return type(exc).__name__, None
    if message.get("type") != "state":
        await ws.close()
        return "no state", None
    return "open", ws


async def open_many(base: str, tokens: list[str], addresses: list[str], count: int,
                    at_once: int = 200) -> tuple[Counter[str], list[ClientConnection]]:
    """Open ``count`` WebSockets, socket ``k`` on link ``k // PER_LINK`` from address
    ``k % len(addresses)``, ``at_once`` at a time; the outcomes and the open ones."""
    gate = asyncio.Semaphore(at_once)

    async def one(k: int) -> tuple[str, ClientConnection | None]:
        async with gate:
            return await open_socket(base, tokens[(k // PER_LINK) % len(tokens)],
                                     addresses[k % len(addresses)])

    results = await asyncio.gather(*(one(k) for k in range(count)))
    return Counter(r for r, _ in results), [ws for _, ws in results if ws is not None]


async def close_all(sockets: list[ClientConnection]) -> None:
    """Close ``sockets``, 200 at a time."""
    for k in range(0, len(sockets), 200):
        await asyncio.gather(*(ws.close() for ws in sockets[k:k + 200]),
                             return_exceptions=True)


async def player(base: str, token: str) -> dict[str, Any]:
    """A real player at ``PLAYER``: its page, its WebSocket's first state and its view, each
    with its status and milliseconds."""
    found: dict[str, Any] = {}
    async with client(base, PLAYER, timeout=10) as http:
        for name, path in (("page", f"/play/{token}"), ("view", f"/api/view/{token}")):
            start = time.perf_counter()
            try:
                status: int | str = (await http.get(path)).status_code
            except httpx.TransportError as exc:
                status = type(exc).__name__
            found[name] = (status, round(1000 * (time.perf_counter() - start)))
    start = time.perf_counter()
    outcome, ws = await open_socket(base, token, PLAYER)
    found["websocket"] = (outcome, round(1000 * (time.perf_counter() - start)))
    if ws is not None:
        await ws.close()
    return found


async def flood(base: str, pid: int, sockets: int, spread: int, rounds: int) -> dict[str, Any]:
    """Part (a): the WebSocket flood from one address, the player, and memory."""
    mine = links(await new_table(base, PLAYER, 2))[0]
    needed = max(sockets, spread) // PER_LINK + 1
    tokens: list[str] = []
    k = 0
    while len(tokens) < needed:
        k += 1
        tokens += links(await new_table(base, f"127.0.1.{k}", 4))
    result: dict[str, Any] = {"rss_before_mb": rss_mb(pid)}
    start = time.perf_counter()
    outcomes, held = await open_many(base, tokens, [ATTACKER], sockets)
    result["flood_seconds"] = round(time.perf_counter() - start, 1)
    result["flood"] = dict(outcomes)
    result["rss_while_mb"] = rss_mb(pid)
    result["player_during"] = await player(base, mine)
    await close_all(held)
    await asyncio.sleep(3)
    result["rss_after_mb"] = rss_mb(pid)
    addresses = [f"127.0.2.{a}" for a in range(1, spread // 16 + 2)]
    result["spread"] = []
    for _ in range(rounds):
        outcomes, held = await open_many(base, tokens, addresses, spread)
        open_rss = rss_mb(pid)
        await close_all(held)
        await asyncio.sleep(3)
        result["spread"].append({"opened": outcomes["open"], "rss_open_mb": open_rss,
                                 "rss_after_mb": rss_mb(pid)})
    return result


async def slowloris(base: str, slow: int) -> dict[str, Any]:
    """Part (b): ``slow`` half-sent requests from one address; when they are closed, and a
    normal request from ``PLAYER`` meanwhile."""
    host = base.removeprefix("http://").split(":")
    closed_at: list[float] = []
    start = time.monotonic()
    writers: list[asyncio.StreamWriter] = []
    failed: Counter[str] = Counter()

    async def hold(reader: asyncio.StreamReader) -> None:
        try:
            while await reader.read(4096):
                pass
        except OSError:
            pass
        closed_at.append(time.monotonic() - start)

    tasks: list[asyncio.Task[None]] = []

    async def one() -> None:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                host[0], int(host[1]), local_addr=(ATTACKER, 0)), 5)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n")
        except (OSError, TimeoutError) as exc:
            failed[type(exc).__name__] += 1
            return
        writers.append(writer)
        tasks.append(asyncio.create_task(hold(reader)))

    for k in range(0, slow, 500):
        await asyncio.gather(*(one() for _ in range(min(500, slow - k))))
    opened = time.monotonic() - start
    result: dict[str, Any] = {"connected": len(writers), "connect_failed": dict(failed),
                              "open_seconds": round(opened, 1)}
    for at in (1.0, 15.0):
        await asyncio.sleep(max(0.0, start + opened + at - time.monotonic()))
        result[f"open_after_{at:g}s"] = len(writers) - sum(
            1 for t in closed_at if t <= opened + at)
        async with client(base, PLAYER, timeout=10) as http:
            begin = time.perf_counter()
            try:
                status: int | str = (await http.get("/api/games")).status_code
            except httpx.TransportError as exc:
                status = type(exc).__name__
            result[f"request_after_{at:g}s"] = (status, round(1000 * (time.perf_counter()
                                                                        - begin)))
    for writer in writers:
        writer.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return result


async def spoof(base: str, count: int) -> dict[str, Any]:
    """Part (c): ``count`` creations from ``ATTACKER``, each with a made-up
    ``X-Forwarded-For``; the statuses."""
    statuses: Counter[int] = Counter()
    async with client(base, ATTACKER) as http:
        for k in range(count):
            response = await http.post("/api/tables", json={"game": GAME, "seats": ["human"] * 2},
                                       headers={"X-Forwarded-For": f"203.0.113.{k % 250 + 1}"})
            statuses[response.status_code] += 1
    return {"asked": count, "made": statuses[200], "statuses": dict(statuses)}


def run(sockets: int, spread: int, rounds: int, slow: int, nofile: int,
        count: int) -> dict[str, Any]:
    """The three parts, each against a fresh server."""
    folder = Path(tempfile.mkdtemp(prefix="citywatch-lockout-"))
    result: dict[str, Any] = {}
    try:
        with server(folder, "flood", "--table-rate", "100000/minute") as (base, process):
            result["flood"] = asyncio.run(flood(base, process.pid, sockets, spread, rounds))
        with server(folder, "slow", nofile=nofile) as (base, process):
            result["slowloris"] = asyncio.run(slowloris(base, slow))
        with server(folder, "spoof") as (base, process):
            result["forwarded"] = asyncio.run(spoof(base, count))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def main() -> int:
    """Run and print the lock-out test; exit 1 if the player was locked out."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sockets", type=int, default=4000,
                   help="WebSockets one address tries to open (default 4000)")
    p.add_argument("--spread", type=int, default=2000,
                   help="WebSockets opened and closed from many addresses (default 2000)")
    p.add_argument("--rounds", type=int, default=2, help="rounds of --spread (default 2)")
    p.add_argument("--slow", type=int, default=3000,
                   help="half-sent requests from one address (default 3000)")
    p.add_argument("--nofile", type=int, default=1024,
                   help="the soft open-file limit the slowloris server starts with "
                        "(default 1024)")
    p.add_argument("--spoof", type=int, default=60,
                   help="creations with a made-up X-Forwarded-For (default 60)")
    p.add_argument("--source", type=Path, default=None,
                   help="run the servers from this checkout of citywatch")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    if args.source is not None:
        os.environ["PYTHONPATH"] = str(args.source.resolve())
    result = run(args.sockets, args.spread, args.rounds, args.slow, args.nofile, args.spoof)
    flooded, slow, spoofed = result["flood"], result["slowloris"], result["forwarded"]
    if args.json:
        print(json.dumps(result))
    else:
        print(f"(a) {args.sockets} WebSockets from one address in "
              f"{flooded['flood_seconds']} s: {flooded['flood']}")
        print(f"    a player at another address meanwhile: {flooded['player_during']}")
        print(f"    server RSS: {flooded['rss_before_mb']} MB before, {flooded['rss_while_mb']}"
              f" MB while open, {flooded['rss_after_mb']} MB after they closed")
        for k, one in enumerate(flooded["spread"], 1):
            print(f"    round {k}: {one['opened']} WebSockets from many addresses: RSS "
                  f"{one['rss_open_mb']} MB open, {one['rss_after_mb']} MB after")
        print(f"(b) {args.slow} half-sent requests (server's open-file limit {args.nofile}): "
              f"{slow['connected']} connected in {slow['open_seconds']} s "
              f"(failed: {slow['connect_failed']})")
        for at in ("1", "15"):
            print(f"    after {at} s: {slow[f'open_after_{at}s']} still open; a normal "
                  f"request: {slow[f'request_after_{at}s']}")
        print(f"(c) {spoofed['asked']} tables asked for with made-up X-Forwarded-For: "
              f"{spoofed['made']} made {spoofed['statuses']}")
    return 0 if flooded["player_during"]["websocket"][0] == "open" else 1


if __name__ == "__main__":
    sys.exit(main())
