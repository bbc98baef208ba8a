"""Issue 24, points 2 and 3: the connections of a real ``citywatch serve`` process.

Per-address caps on WebSockets and on TCP connections, the deadline for a request's headers,
and ``X-Forwarded-For`` believed only from ``--trusted-proxy``. Linux's loopback answers all
of 127.0.0.0/8, so a client socket bound to 127.0.0.2 is another address.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from postgres_helpers import free_port, start_server, stop, wait_ready
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from citywatch.cli import main
from citywatch.server import connections
from citywatch.server.connections import ConnectionLimits, Connections, client_key

PROXY = "127.0.0.9"
"""The trusted proxy of the shared server."""


def serve(tmp_path: Path, *options: str) -> Iterator[str]:
    """The base URL of a ``citywatch serve`` subprocess with ``options``, for a fixture."""
    port = free_port()
    log = tmp_path / f"serve-{port}.log"
    process = start_server(f"sqlite:///{tmp_path / f'{port}.db'}", port, log, *options)
    try:
        wait_ready(f"http://127.0.0.1:{port}", process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module: a 1 s header deadline, 3 WebSockets and 6 connections per
    address, 2 tables a minute per address, ``PROXY`` trusted."""
    yield from serve(tmp_path_factory.mktemp("connections"), "--header-timeout", "1",
                     "--max-sockets-per-address", "3", "--max-connections-per-address", "6",
                     "--table-rate", "2/minute", "--trusted-proxy", PROXY)


def from_address(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address=address))


def create(base: str, address: str, forwarded: str | None = None,
           seats: int = 2) -> httpx.Response:
    """Ask for a table of ``seats`` people from ``address``, with ``X-Forwarded-For:
    forwarded`` if given."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    with from_address(address) as client:
        return client.post(f"{base}/api/tables", headers=headers,
                           json={"game": "ankh-morpork", "seats": ["human"] * seats})


def raw_connection(base: str, address: str) -> socket.socket:
    """A TCP connection to the server at ``base`` from ``address``."""
    port = int(base.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(address, 0))


def closed_within(conn: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing ``conn``, if it closed it within ``seconds``."""
    conn.settimeout(0.2)
    end = time.monotonic() + seconds
    received = b""
    while time.monotonic() < end:
        try:
            data = conn.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received
        if not data:
            return received
        received += data
    return None


def test_a_client_that_never_finishes_its_headers_is_closed(server: str) -> None:
    """Issue 24, point 2: half-sent headers are closed after the deadline (here 1 s), on a new
    connection and on a kept-alive one after its answer; whole requests are answered."""
    with raw_connection(server, "127.0.0.3") as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n")
        assert closed_within(slow, 8) == b""
    with raw_connection(server, "127.0.0.3") as kept:
        kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.5)
        kept.settimeout(5)
        assert kept.recv(65536).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = closed_within(kept, 8)
        assert answer is not None and b"HTTP/1.1 200" not in answer


def test_open_connections_per_address_are_capped(server: str) -> None:
    """Issue 24, point 2: an address holds at most its cap of connections (here 6; these
    ones wait for a body, so the header deadline spares them); one more is answered 503 and
    closed at once, while another address is served, and a closed
    connection frees its place."""
    held = [raw_connection(server, "127.0.0.4") for _ in range(6)]
    for conn in held:  # headers complete, the body awaited: past the header deadline
        conn.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 10\r\n\r\n")
    time.sleep(1.5)
    try:
        with raw_connection(server, "127.0.0.4") as extra:
            answer = closed_within(extra, 5)
            assert answer is not None and answer.startswith(b"HTTP/1.1 503")
            assert b"your address already has 6 connections open" in answer
        with from_address("127.0.0.5") as other:
            assert other.get(f"{server}/api/games").status_code == 200
        held.pop().close()
        time.sleep(0.3)
        with from_address("127.0.0.4") as again:
            assert again.get(f"{server}/api/games").status_code == 200
    finally:
        for conn in held:
            conn.close()


async def first_message(base: str, token: str, address: str) -> tuple[str, Any]:
    """Open a WebSocket of ``token`` from ``address``: ("state", the open connection), or
    ("closed", (code, reason))."""
    url = base.replace("http://", "ws://") + f"/ws/{token}"
    ws = await connect(url, local_addr=(address, 0), open_timeout=10)
    try:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return "closed", (exc.rcvd.code, exc.rcvd.reason)
    return message["type"], ws


def test_one_address_cannot_hold_more_than_its_websockets(server: str) -> None:
    """Issue 24, point 2: an address holds at most its cap of WebSockets (here 3, on
    different links), the next is closed with 1008, another address still connects, and a
    closed WebSocket frees its place."""
    created = create(server, "127.0.0.6", seats=4)
    assert created.status_code == 200, created.text
    tokens = [s["link"].removeprefix("/play/") for s in created.json()["seats"]]

    async def scenario() -> None:
        held = []
        for token in tokens[:3]:
            kind, ws = await first_message(server, token, "127.0.0.7")
            assert kind == "state"
            held.append(ws)
        kind, refusal = await first_message(server, tokens[3], "127.0.0.7")
        assert kind == "closed" and refusal[0] == 1008
        assert "your address already has 3 open connections" in refusal[1]
        kind, other = await first_message(server, tokens[3], "127.0.0.8")
        assert kind == "state"
        await other.close()
        await held.pop().close()
        await asyncio.sleep(0.3)
        kind, again = await first_message(server, tokens[3], "127.0.0.7")
        assert kind == "state"
        for ws in [*held, again]:
            await ws.close()

    asyncio.run(scenario())


def test_forwarded_addresses_count_only_from_a_trusted_proxy(server: str) -> None:
    """Issue 24, point 3: with ``--trusted-proxy``, the proxy's ``X-Forwarded-For`` names the
    client the creation limit counts (2 a minute here); from anyone else it is ignored."""
    for _ in range(2):
        assert create(server, PROXY, "198.51.100.1").status_code == 200
    assert create(server, PROXY, "198.51.100.1").status_code == 429
    assert create(server, PROXY, "198.51.100.2").status_code == 200
    for k in range(2):
        assert create(server, "127.0.0.10", f"198.51.100.{k + 3}").status_code == 200
    refused = create(server, "127.0.0.10", "198.51.100.9")
    assert refused.status_code == 429, "an untrusted peer's X-Forwarded-For was believed"


def test_x_forwarded_for_is_ignored_by_default(tmp_path: Path) -> None:
    """Issue 24, point 3: a server started without ``--trusted-proxy`` believes no
    ``X-Forwarded-For``, even from 127.0.0.1: made-up addresses do not pass the creation
    limit (2 a minute here)."""
    for base in serve(tmp_path, "--table-rate", "2/minute"):
        made = [create(base, "127.0.0.1", f"203.0.113.{k}").status_code for k in range(1, 5)]
        assert made == [200, 200, 429, 429]


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--trusted-proxy", "proxy.example", "is not an IP address or network"),
    ("--trusted-proxy", "10.0.0.0/33", "is not an IP address or network"),
    ("--max-sockets-per-address", "0", "must be at least 1"),
    ("--max-connections-per-address", "many", "is not a whole number"),
    ("--max-connections", "-3", "must be at least 1"),
    ("--header-timeout", "0", "more than 0 and at most 3600"),
    ("--header-timeout", "soon", "is not a number of seconds"),
])
def test_serve_refuses_bad_connection_options(option: str, value: str, message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, points 2 and 3: a bad connection option ends ``serve`` with status 2 and a
    sentence naming it."""
    with pytest.raises(SystemExit) as ended:
        main(["serve", option, value])
    assert ended.value.code == 2
    error = capsys.readouterr().err
    assert option in error and message in error


def test_serve_gives_uvicorn_the_connection_options(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, points 2 and 3: ``serve`` hands uvicorn the protocol with the caps and the
    deadline, forwarded headers off by default and believed from ``--trusted-proxy`` only,
    and the WebSocket cap per address to the app."""
    import uvicorn

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append(
        {"app": app, **kw}))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    assert main(["serve", "--bot-workers", "1"]) == 0
    assert ran[0]["proxy_headers"] is False
    limits = ran[0]["http"].connections_of_process.limits
    assert (limits.per_address, limits.header_seconds, limits.trusted_proxies) == (128, 10, ())
    assert ran[0]["limit_concurrency"] == limits.total + 1
    assert ran[0]["app"].state.tables.limits.sockets_per_address == 32
    assert main(["serve", "--bot-workers", "1", "--trusted-proxy", "127.0.0.1",
                 "--trusted-proxy", "10.1.0.0/16", "--max-connections", "500",
                 "--max-connections-per-address", "40", "--max-sockets-per-address", "9",
                 "--header-timeout", "2.5"]) == 0
    options = ran[1]
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == ["127.0.0.1/32", "10.1.0.0/16"]
    limits = options["http"].connections_of_process.limits
    assert (limits.per_address, limits.total, limits.header_seconds) == (40, 500, 2.5)
    assert options["limit_concurrency"] == 501
    assert options["app"].state.tables.limits.sockets_per_address == 9


def test_connections_are_counted_per_address_and_in_all() -> None:
    """Issue 24, point 2: the count behind the caps: per address (a trusted proxy is not
    capped, its clients are capped by their forwarded address in the app), in all, and every
    release gives its place back, leaving no entry behind."""
    count = Connections(ConnectionLimits(per_address=2, total=4, trusted_proxies=("10.0.0.0/8",)))
    assert count.admit("192.0.2.1") is None and count.admit("192.0.2.1") is None
    assert "your address already has 2" in (count.admit("192.0.2.1") or "")
    assert count.admit("10.1.2.3") is None and count.admit("10.1.2.3") is None
    assert "too many connections" in (count.admit("192.0.2.2") or "")
    for address in ("192.0.2.1", "192.0.2.1", "10.1.2.3", "10.1.2.3"):
        count.release(address)
    assert count.open == 0 and not count.by_address and count.refused == 2


def test_an_ipv6_client_is_counted_by_its_64_network() -> None:
    """Issue 24, point 2: an IPv6 client is given a /64 network, so its caps count the
    network, not each of its addresses; an IPv4 address mapped into IPv6 is that address."""
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::7") \
        == "2001:db8:1:2::/64"
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "192.0.2.7"
    count = Connections(ConnectionLimits(per_address=2))
    assert count.admit("2001:db8:1:2::1") is None and count.admit("2001:db8:1:2::2") is None
    assert count.admit("2001:db8:1:2:ffff::3") is not None
    assert count.admit("2001:db8:1:3::1") is None


def test_memory_is_given_back_after_a_burst_of_closed_connections(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, point 2: once 64 connections have ended and a quiet moment follows, the
    process collects its garbage and gives the allocator's free memory back, once a burst."""
    monkeypatch.setattr(connections, "TRIM_DELAY", 0.05)
    trimmed: list[float] = []
    monkeypatch.setattr(connections, "trim_memory", lambda: trimmed.append(time.monotonic())
                        or True)

    async def burst(count: Connections, size: int) -> None:
        for _ in range(size):
            assert count.admit("192.0.2.1") is None
        for _ in range(size):
            count.release("192.0.2.1")
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.5)

    async def scenario() -> None:
        count = Connections(ConnectionLimits())
        await burst(count, 100)
        assert len(trimmed) == 1 and count.trims == 1
        await burst(count, 20)
        assert len(trimmed) == 1
        await burst(count, 50)
        assert len(trimmed) == 2

    asyncio.run(scenario())
