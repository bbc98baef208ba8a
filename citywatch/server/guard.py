"""The server's protections at the HTTP level: security headers, same-origin writes.

``SecurityHeaders`` adds to every HTTP response a Content Security Policy that allows only
the server's own scripts, styles and connections, forbids framing, and keeps seat tokens
(they live in URLs) out of ``Referer`` headers and caches. ``SameOrigin`` refuses
state-changing requests and WebSocket upgrades that a browser sends from a page of another
origin. Both are plain ASGI middleware.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
PRIVATE_PREFIXES = ("/play/", "/replay/", "/analysis/", "/api/", "/ws/")
"""Paths that carry a seat's token or a table's state: never stored by a cache."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SecurityHeaders:
    """Adds the security headers to every HTTP response (``no-store`` on private paths)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = str(scope["path"]).startswith(PRIVATE_PREFIXES)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in {name for name, _ in HEADERS}]
                headers.extend(HEADERS)
                if private:
                    headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case (``""`` if it has none)."""
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}".lower()


class SameOrigin:
    """Refuses (403) a state-changing request or a WebSocket upgrade from another origin.

    A request is from the page's own origin if its ``Origin`` header names the host it was
    sent to (or one of ``origins``, for a server behind a proxy with another public name).
    A request with no ``Origin`` comes from a program, not a page, and is let through unless
    the browser's ``Sec-Fetch-Site`` says it is cross-site.
    """

    def __init__(self, app: ASGIApp, origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(origin_of(o) for o in origins)

    def allows(self, headers: Headers) -> bool:
        """True if the request may change state."""
        origin = headers.get("origin")
        if origin is None:
            return headers.get("sec-fetch-site", "same-origin") != "cross-site"
        parts = urlsplit(origin.strip().lower())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (sandboxed frames, files) and other schemes
        if origin_of(origin) in self.origins:
            return True
        return parts.netloc == headers.get("host", "").lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        checked = kind == "websocket" or (kind == "http" and scope["method"] not in SAFE_METHODS)
        if not checked or self.allows(Headers(scope=scope)):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 1008,
                        "reason": "connections from other sites are refused"})
            return
        body = json.dumps({"error": "requests from pages of other sites are refused"}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
