"""Webhooks of turn-based seats (issue 31): a seat's address is told when its turn begins.

A seat of a turn-based table may give an ``http`` or ``https`` address (``check_url``: at
most ``LONGEST`` characters, a host, no user or password). The server POSTs JSON to it when
a decision of that seat begins: ``{"table", "game", "seat", "step", "text"}`` (``payload``),
never the seat's private link, since the receiver may be a third party.

Every address the host name resolves to must be global (``is_global_address``: not loopback,
private, link-local, multicast, reserved or unspecified, IPv4 and IPv6, IPv4-mapped too)
unless the server allows private addresses (``WebhookRules.allow_private``). The connection
goes to an address that was checked (``PinnedHTTPConnection``, ``PinnedHTTPSConnection``: the
host name is still the ``Host`` header, the TLS server name and the name the certificate must
carry), so a name that resolves to another address between the check and the connection
cannot reach a private host. Redirects are not followed. One attempt, within ``TIMEOUT``
seconds to connect and ``TIMEOUT`` for the answer, in a small thread pool (``Webhooks``):
the event loop never waits for a receiver, and posts beyond ``IN_FLIGHT`` waiting are
dropped and logged. The address itself is never logged.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import logging
import socket
import ssl
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("citywatch.server")

LONGEST = 500
"""The most characters of a webhook's address."""
TIMEOUT = 3.0
"""Seconds a post may take to connect, and then to be answered."""
IN_FLIGHT = 64
"""Posts waiting or being sent at once; more are dropped (and logged)."""
WORKERS = 4
"""Threads that send posts."""
TEXT = "It is your turn"

Resolver = Callable[[str, int], list[str]]
"""A host name and port -> the addresses it resolves to (text)."""


class WebhookError(ValueError):
    """An address refused as a webhook, with a sentence saying why."""


@dataclass(frozen=True)
class WebhookRules:
    """The server's configuration of webhooks (``citywatch serve --no-webhooks``,
    ``--webhooks-private``)."""

    enabled: bool = True
    """Whether seats may give webhooks at all."""
    allow_private: bool = False
    """Whether addresses that are not global (loopback, private networks) are allowed."""


@dataclass(frozen=True)
class Target:
    """A checked webhook address: where to connect and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]
    """The addresses the host resolved to, every one allowed; the post connects to these."""


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (blocking: call it in a thread)."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def is_global_address(text: str) -> bool:
    """True if ``text`` is an IP address a webhook may reach without the private option: a
    global address (an IPv4-mapped IPv6 address is judged as its IPv4 address)."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not (address.is_multicast or address.is_reserved
                                      or address.is_unspecified or address.is_loopback
                                      or address.is_link_local or address.is_private)


def parse_url(raw: Any) -> tuple[str, str, int, str]:
    """The scheme, host, port and path of a webhook's address ``raw``, read without any
    network; ``WebhookError`` unless it is an ``http`` or ``https`` URL of at most
    ``LONGEST`` characters naming a host, without user, password or fragment."""
    if not isinstance(raw, str):
        raise WebhookError("a webhook is an address such as https://example.org/hook, or null")
    if len(raw) > LONGEST:
        raise WebhookError(f"a webhook's address has at most {LONGEST} characters")
    if any(ord(c) <= 32 or ord(c) == 127 for c in raw):
        raise WebhookError("a webhook's address has no spaces or control characters")
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        raise WebhookError("a webhook's address cannot be read as a URL") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise WebhookError("a webhook's address starts with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise WebhookError("a webhook's address has no user name or password")
    if parts.fragment:
        raise WebhookError("a webhook's address has no #fragment")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise WebhookError("a webhook's address names a host")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, host, port or (443 if scheme == "https" else 80), path


def check_url(raw: Any, allow_private: bool, resolver: Resolver = resolve) -> Target:
    """``raw`` checked as a webhook's address (``parse_url``), its host resolved by
    ``resolver`` (blocking: call it in a thread); ``WebhookError`` if it cannot be resolved
    or, unless ``allow_private``, if any address it resolves to is not global
    (``is_global_address``)."""
    scheme, host, port, path = parse_url(raw)
    try:
        found = list(dict.fromkeys(resolver(host, port)))
    except (OSError, UnicodeError):
        raise WebhookError(f"the webhook's host {host[:80]} cannot be found") from None
    if not found:
        raise WebhookError(f"the webhook's host {host[:80]} cannot be found")
    if not allow_private and not all(is_global_address(a) for a in found):
        raise WebhookError("a webhook must reach a public address: this one is a loopback, "
                           "private, link-local or otherwise reserved address")
    return Target(scheme, host, port, path, tuple(found))


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to a checked ``address``; ``host`` stays the ``Host`` header."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        """Connect to the checked address, not to what ``host`` resolves to now."""
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection to a checked ``address``: ``host`` is the TLS server name (SNI),
    the name its certificate must carry and the ``Host`` header."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        """Connect to the checked address, then speak TLS with ``host`` as server name (the
        certificate is checked against it)."""
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def payload(table: str, game: str, seat: str, step: int) -> dict[str, Any]:
    """What a webhook receives when a seat's turn begins: the table's id, the game's title,
    the seat's colour, the step (decisions taken) and ``TEXT``; no link."""
    return {"table": table, "game": game, "seat": seat, "step": step, "text": TEXT}


def post(target: Target, body: dict[str, Any], timeout: float = TIMEOUT) -> int:
    """POST ``body`` as JSON to ``target`` (blocking), connecting to its first checked
    address; the answer's status (a redirect is not followed). ``OSError`` or
    ``http.client.HTTPException`` if it fails."""
    kind = PinnedHTTPSConnection if target.scheme == "https" else PinnedHTTPConnection
    connection = kind(target.host, target.port, target.addresses[0], timeout)
    try:
        connection.request("POST", target.path, body=json.dumps(body).encode(), headers={
            "Content-Type": "application/json", "User-Agent": "citywatch-webhook"})
        answer = connection.getresponse()
        answer.read(4096)
        return answer.status
    finally:
        connection.close()


class Webhooks:
    """Sends the posts of a server process in a few threads, at most ``IN_FLIGHT`` at once."""

    def __init__(self, rules: WebhookRules | None = None, resolver: Resolver = resolve,
                 in_flight: int = IN_FLIGHT) -> None:
        self.rules = rules or WebhookRules()
        self.resolver = resolver
        self.in_flight = in_flight
        self._busy = 0
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    @property
    def busy(self) -> int:
        """Posts waiting or being sent now."""
        with self._lock:
            return self._busy

    def check(self, raw: Any) -> Target:
        """``raw`` checked under the server's rules (``check_url``; blocking); also
        ``WebhookError`` when webhooks are off."""
        if not self.rules.enabled:
            raise WebhookError("this server sends no webhooks")
        return check_url(raw, self.rules.allow_private, self.resolver)

    def send(self, url: str, body: dict[str, Any], what: str) -> bool:
        """Post ``body`` to ``url`` in a thread, the address checked again first; False
        (logged as ``what``, never with the address) if ``IN_FLIGHT`` posts already wait."""
        with self._lock:
            if self._busy >= self.in_flight:
                log.warning("%s: webhook dropped: %d posts already wait", what, self._busy)
                return False
            self._busy += 1
            if self._pool is None:
                self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="webhook")
            pool = self._pool
        pool.submit(self._deliver, url, body, what)
        return True

    def _deliver(self, url: str, body: dict[str, Any], what: str) -> None:
        try:
            status = post(self.check(url), body)
            if not 200 <= status < 300:
                log.info("%s: webhook answered %d", what, status)
        except WebhookError:
            log.info("%s: webhook not sent: its address no longer passes the rules", what)
        except (OSError, http.client.HTTPException) as exc:
            log.info("%s: webhook failed: %s", what, type(exc).__name__)
        except Exception:
            log.exception("%s: webhook failed", what)
        finally:
            with self._lock:
                self._busy -= 1

    def close(self) -> None:
        """Stop the threads; posts not begun are dropped (the server is stopping)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
