"""Connections of one server process: caps per client address and in all, a deadline for
a request's headers, which proxies may name the client, and uvicorn set up with them.

uvicorn counts nothing per address and, on a new connection, waits for the first request's
headers for ever; its HTTP/1.1 protocol (h11) is subclassed here so that each TCP
connection is counted from ``connection_made`` to ``connection_lost`` (a WebSocket keeps
the slot of the connection it was upgraded from), refused at once over a cap, and closed
when its request's headers are not complete in time. The contract is ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import ipaddress
import resource
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
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

    def trusted(self, address: str) -> bool:
        """True if ``address`` is a trusted proxy's."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)

    def admit(self, address: str | None) -> str | None:
        """Count a new connection from ``address`` (None: not an IP connection); why it is
        refused instead (nothing counted), or None."""
        if self.open >= self.limits.total:
            self.refused += 1
            return "the server has too many connections; try again later"
        if address is not None and not self.trusted(address):
            if self.by_address[address] >= self.limits.per_address:
                self.refused += 1
                return (f"your address already has {self.limits.per_address} connections "
                        "open")
            self.by_address[address] += 1
        self.open += 1
        return None

    def release(self, address: str | None) -> None:
        """Forget a connection ``admit`` counted."""
        self.open -= 1
        if address is not None and address in self.by_address:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]


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


def trim_memory() -> bool:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim``);
    False where there is no such function."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return False
    trim(0)
    return True


def server_config(app: Any, host: str, port: int, limits: ConnectionLimits,
                  **options: Any) -> tuple[uvicorn.Config, Connections]:
    """uvicorn's configuration serving ``app`` on ``host``:``port`` within ``limits``, and
    the count of its connections: h11 with the caps and the header deadline, forwarded
    headers believed only from ``limits.trusted_proxies`` (none: never), requests beyond
    ``limits.total`` open connections answered 503; ``options`` are other
    ``uvicorn.Config`` arguments."""
    connections = Connections(limits)
    proxies = [str(parse_proxy(p)) for p in limits.trusted_proxies]
    config = uvicorn.Config(app, host=host, port=port, http=guarded_protocol(connections),
                            ws=GuardedWebSocket, proxy_headers=bool(proxies),
                            forwarded_allow_ips=proxies or "", limit_concurrency=limits.total,
                            **options)
    return config, connections
