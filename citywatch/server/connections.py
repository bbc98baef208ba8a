"""Connections of one server process: caps per client address and in all, a deadline for
a request's headers, which proxies may name the client, and uvicorn set up with them.

uvicorn counts nothing per address and, on a new connection, waits for the first request's
headers for ever; its HTTP/1.1 protocol (h11) is subclassed here so that each TCP
connection is counted from ``connection_made`` to ``connection_lost`` (a WebSocket keeps
the slot of the connection it was upgraded from), refused at once over a cap, and closed
when its request's headers are not complete in time. After a burst of ended connections
the process collects its garbage and hands free memory back to the system (glibc keeps it
otherwise). The contract is ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import ipaddress
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PER_ADDRESS = 128
"""Default of the TCP connections (HTTP and WebSocket) one client address may hold open."""
HEADER_SECONDS = 10.0
"""Default of the seconds a client has to send a request's headers."""
MAX_CONNECTIONS = 10_000
"""The most connections a process opens by default (fewer if it may open fewer files)."""
SPARE_FILES = 256
"""Open files kept for the database, the bot pool, logs and static files."""
TRIM_AFTER = 64
"""Connections that end before the allocator is asked to give free memory back."""
TRIM_DELAY = 1.0
"""Seconds without an ended connection before the allocator is asked."""
TRIM_LATEST = 30.0
"""Seconds from a burst's first ended connection to the request at the latest."""
REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"connection: close\r\ncontent-length: %d\r\n\r\n%s")
"""The answer to a connection over a cap (sent before closing it, without reading)."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxy(text: str) -> Network:
    """A trusted proxy's address (``127.0.0.1``, ``::1``) or network (``10.0.0.0/8``);
    ``ValueError`` with a clear sentence for anything else."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"{text!r} is not an IP address or network such as 127.0.0.1 or "
                         "10.0.0.0/8") from None


def client_key(host: str) -> str:
    """What a client's limits count under: an IPv4 address as it is, an IPv6 address by its
    /64 network (what one subscriber is given: its addresses are one client), an IPv4
    address mapped into IPv6 as that IPv4 address; anything else as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections a process holds and how long it waits for a request's headers."""

    per_address: int = PER_ADDRESS
    """TCP connections (HTTP and WebSocket) one client address may hold open; a trusted
    proxy's own address is not capped (the proxy caps its clients)."""
    total: int = MAX_CONNECTIONS
    """TCP connections open at once in the process."""
    header_seconds: float = HEADER_SECONDS
    """Seconds from a connection's start, or from the end of its previous response, to the
    end of the next request's headers; a connection slower than that is closed."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are
    believed; from anyone else those headers are ignored."""

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.total < 1:
            raise ValueError("the connection limits must be whole numbers of at least 1")
        if not 0 < self.header_seconds <= 3600:
            raise ValueError("the header deadline must be more than 0 and at most 3600 "
                             "seconds")
        for proxy in self.trusted_proxies:
            parse_proxy(proxy)


def default_total(spare: int = SPARE_FILES) -> int:
    """The default cap of connections: ``MAX_CONNECTIONS``, or fewer if the process may open
    fewer files (its soft ``RLIMIT_NOFILE`` less ``spare``, at least 16)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - spare))


def raise_open_files() -> int:
    """Raise the process's soft limit of open files to its hard limit; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


class Connections:
    """The open TCP connections of one process, counted by client address."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.proxies = [parse_proxy(p) for p in limits.trusted_proxies]
        self.by_address: Counter[str] = Counter()
        self.open = 0
        self.refused = 0
        self.timed_out = 0
        self.ended_since_trim = 0
        self.trims = 0
        self.trim_timer: asyncio.TimerHandle | None = None
        self.burst_start = 0.0
        self.trim_seconds = 0.0

    def trusted(self, address: str) -> bool:
        """True if ``address`` is a trusted proxy's."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)

    def _key(self, address: str | None) -> str | None:
        """What ``address``'s connections count under; None for no cap (a trusted proxy, or
        not an IP connection)."""
        if address is None or self.trusted(address):
            return None
        return client_key(address)

    def admit(self, address: str | None) -> str | None:
        """Count a new connection from ``address`` (None: not an IP connection); why it is
        refused instead (nothing counted), or None."""
        if self.open >= self.limits.total:
            self.refused += 1
            return "the server has too many connections; try again later"
        key = self._key(address)
        if key is not None:
            if self.by_address[key] >= self.limits.per_address:
                self.refused += 1
                return (f"your address already has {self.limits.per_address} connections "
                        "open")
            self.by_address[key] += 1
        self.open += 1
        return None

    def release(self, address: str | None) -> None:
        """Forget a connection ``admit`` counted. Once ``TRIM_AFTER`` have ended, the memory
        they left free goes back to the system when none has ended for ``TRIM_DELAY``
        seconds (at most ``TRIM_LATEST`` seconds after the first)."""
        self.open -= 1
        key = self._key(address)
        if key is not None and key in self.by_address:
            self.by_address[key] -= 1
            if self.by_address[key] <= 0:
                del self.by_address[key]
        self.ended_since_trim += 1
        if self.ended_since_trim >= TRIM_AFTER and self.trim_timer is None:
            loop = asyncio.get_running_loop()
            self.burst_start = loop.time()
            self.trim_timer = loop.call_later(TRIM_DELAY, self._trim, self.ended_since_trim)

    def _trim(self, ended: int) -> None:
        """Trim once no connection has ended for ``TRIM_DELAY`` seconds, or ``TRIM_LATEST``
        seconds after the burst began."""
        loop = asyncio.get_running_loop()
        if self.ended_since_trim != ended and loop.time() - self.burst_start < TRIM_LATEST:
            self.trim_timer = loop.call_later(TRIM_DELAY, self._trim, self.ended_since_trim)
            return
        self.trim_timer = None
        self.ended_since_trim = 0
        start = time.perf_counter()
        gc.collect()  # a closed connection's objects are in reference cycles
        if trim_memory():
            self.trims += 1
        self.trim_seconds = time.perf_counter() - start


class Sockets:
    """The WebSockets an app holds open, counted by link, by client address and in all."""

    def __init__(self) -> None:
        self.by_link: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()
        self.total = 0

    def admit(self, link: str, address: str, per_link: int, per_address: int,
              total: int) -> tuple[int, str] | None:
        """Count a WebSocket of ``link`` from ``address``, or the close code (1008 over the
        link's or the address's cap, 1013 over the total) and reason refusing it."""
        if self.by_link[link] >= per_link:
            return 1008, f"this link already has {per_link} open connections"
        if self.by_address[address] >= per_address:
            return 1008, f"your address already has {per_address} open connections"
        if self.total >= total:
            return 1013, "the server has too many connections; try again later"
        self.by_link[link] += 1
        self.by_address[address] += 1
        self.total += 1
        return None

    def release(self, link: str, address: str) -> None:
        """Forget a WebSocket ``admit`` counted."""
        self.total -= 1
        for counter, key in ((self.by_link, link), (self.by_address, address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that lets the connection's slot go when it ends."""

    on_lost: Callable[[], None] | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.on_lost is not None:
            self.on_lost()
            self.on_lost = None


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the caps of ``connections`` and the header deadline."""

    connections_of_process: ClassVar[Connections]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address: str | None = None
        self.counted = False
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else None
        refusal = self.connections_of_process.admit(self.address)
        if refusal is not None:
            text = refusal.encode()
            transport.write(REFUSED % (len(text), text))
            transport.close()
            return
        self.counted = True
        self._start_deadline()

    def _start_deadline(self) -> None:
        self._stop_deadline()
        self.deadline = self.loop.call_later(self.connections_of_process.limits.header_seconds,
                                             self._too_slow)

    def _stop_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.connections_of_process.timed_out += 1
            self.transport.close()

    def _release(self) -> None:
        if self.counted:
            self.counted = False
            self.connections_of_process.release(self.address)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in
            self._stop_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._start_deadline()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_deadline()
        super().handle_websocket_upgrade(event)
        protocol = self.transport.get_protocol()
        if isinstance(protocol, GuardedWebSocket) and self.counted:
            self.counted = False
            address = self.address
            protocol.on_lost = lambda: self.connections_of_process.release(address)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)
        self._release()


def guarded_protocol(connections: Connections) -> type[GuardedH11]:
    """``GuardedH11`` counting into ``connections`` (one class per server)."""
    return type("GuardedH11", (GuardedH11,), {"connections_of_process": connections})


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


MALLOC_TRIM = _malloc_trim()


def trim_memory() -> bool:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim``);
    False where there is no such function."""
    if MALLOC_TRIM is None:
        return False
    MALLOC_TRIM(0)
    return True


def uvicorn_options(limits: ConnectionLimits) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` (or ``uvicorn.Config``) that serve within
    ``limits``: h11 with the caps and the header deadline (its class's
    ``connections_of_process`` is the count), forwarded headers believed only from
    ``limits.trusted_proxies`` (none: never), requests beyond ``limits.total`` connections
    or tasks answered 503."""
    proxies = [str(parse_proxy(p)) for p in limits.trusted_proxies]
    return {"http": guarded_protocol(Connections(limits)), "ws": GuardedWebSocket,
            "proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or "",
            "limit_concurrency": limits.total + 1}  # uvicorn refuses at >=, we above
