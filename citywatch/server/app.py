"""The web game's ASGI app (Starlette): pages, the JSON API and one WebSocket per seat.

Every response for a token is built from that token's seat's ``view`` and ``log`` only;
the record is served once the game is over. The contract and the threat model are
``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from citywatch.core.registry import GAMES, game_names, load
from citywatch.server.botpool import TIME_LIMIT, BotPool, WorkerPool
from citywatch.server.connections import Sockets, client_key
from citywatch.server.guard import SameOrigin, SecurityHeaders
from citywatch.server.guide_page import guide_page, index_page, missing_page
from citywatch.server.pace import ROUND, TURN
from citywatch.server.setup import MAX_DOCUMENT, SETUP_TIME_LIMIT, Checked, check_document
from citywatch.server.signing import RecordSigner, load_signer
from citywatch.server.storage import Storage
from citywatch.server.tables import (
    IDLE_SECONDS,
    Limits,
    LiveTable,
    TableError,
    Tables,
    catalogue,
    has_board,
    parse_act,
    parse_take,
)
from citywatch.server.webhooks import WebhookRules, Webhooks

log = logging.getLogger("citywatch.server")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
"""Bytes of an HTTP body, and of a WebSocket message."""
UNKNOWN_TOKEN = 4404
RECONNECT = 1012
POLICY = 1008
TOO_BIG = 1009

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>citywatch: no such table</title></head>
<body><h1>No such table</h1><p>This link does not belong to any table.</p>
<p><a href="/">Start a new game</a></p></body></html>
"""
NO_BUILDER_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>citywatch: no builder</title></head>
<body><h1>No builder</h1><p>This game has no builder for that choice.</p>
<p><a href="/">Start a new game</a></p></body></html>
"""


def _error(exc: TableError) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=exc.status)


def parse_json(raw: str | bytes, what: str) -> Any:
    """``raw`` read as JSON; ``TableError`` 400 naming ``what`` if it is not."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise TableError(400, f"{what} is nested too deeply") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableError(400, f"{what} must be JSON") from None


async def _body(request: Request) -> Any:
    """The request's JSON body; ``TableError`` 415 if it is not sent as
    ``application/json``, 400 if it is not JSON."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError(415, "send the request body as JSON, with the header "
                              "Content-Type: application/json")
    return parse_json(await request.body(), "the request body")


def _tables(request: Request | WebSocket) -> Tables:
    tables = request.app.state.tables
    assert isinstance(tables, Tables)
    return tables


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html")


async def index(request: Request) -> Response:
    """The start page: create a table."""
    return _page("index.html")


async def _token_page(request: Request, name: str) -> Response:
    """Page ``name`` for a known token; a 404 page for an unknown one."""
    try:
        await _tables(request).resolve(request.path_params["token"], fresh=False)
    except TableError as exc:
        if exc.status == 404:
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        return Response(exc.message, status_code=exc.status, media_type="text/plain")
    return _page(name)


async def play_page(request: Request) -> Response:
    """The table page of a token's seat; a 404 page for an unknown token."""
    return await _token_page(request, "table.html")


async def replay_page(request: Request) -> Response:
    """The step-by-step replay page of a table's public replay id (issue 26); a seat's or
    the spectator's token (an older link) is redirected to it; a 404 page for anything
    else."""
    key = request.path_params["token"]
    try:
        table = await _tables(request).resolve_replay(key)
    except TableError as exc:
        if exc.status == 404:
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        return Response(exc.message, status_code=exc.status, media_type="text/plain")
    if key != table.replay:
        return RedirectResponse(f"/replay/{table.replay}", status_code=302)
    return _page("replay.html")


async def analysis_page(request: Request) -> Response:
    """``/analysis/{key}``: the coach's analysis of a finished table (issue 30); ``{key}`` is
    its public replay id, a seat's or the spectator's token, or its id; a 404 page for
    anything else. The page asks ``/api/tables/{key}/analysis``, which says if the game
    still runs."""
    try:
        await _tables(request).resolve_any(request.path_params["key"])
    except TableError as exc:
        if exc.status == 404:
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        return Response(exc.message, status_code=exc.status, media_type="text/plain")
    return _page("analysis.html")


async def api_analysis(request: Request) -> Response:
    """``GET /api/tables/{key}/analysis``: the coach's analysis of a finished table (issue
    30, ``LiveTable.analysis``), worked out once in the bot pool and kept; ``{key}`` as for
    ``/analysis/{key}``. 404 for an unknown key, 409 while the game runs (hidden
    information), 429 beyond ``ANALYSIS_RATE`` analyses not yet kept from one address, 503
    if the coach fails."""
    try:
        table = await _tables(request).resolve_any(request.path_params["key"])
        if table.over and not table.analysed:
            refused = _limited(request, ANALYSIS_RATE, "analysis", "analyses")
            if refused is not None:
                return refused
        answer = await table.analysis()
    except TableError as exc:
        return _error(exc)
    return JSONResponse(answer)


async def how_to_play(request: Request) -> Response:
    """``/how-to-play/<game>``: the game's how-to-play guide (``guide_page.py``); a 404 page
    for a game without one; ``/how-to-play``: the games that have one."""
    name = request.path_params.get("game")
    if name is None:
        return HTMLResponse(index_page())
    guide = load(name).how_to_play() if name in game_names() else None
    if guide is None:
        return HTMLResponse(missing_page(name), status_code=404)
    return HTMLResponse(guide_page(name, guide, load(name).display_name()))


def _builder_choice(request: Request) -> tuple[str, str, dict[str, Any]]:
    """The game, keyword and builder (``SetupChoice.builder``) of a builder's path;
    ``TableError`` 404 if the game has no such choice or the choice no builder."""
    name, keyword = request.path_params["game"], request.path_params["keyword"]
    choice = load(name).type.choice(keyword) if name in game_names() else None
    built = choice.builder() if choice is not None else None
    if choice is None or built is None:
        raise TableError(404, "there is no builder for this game's choice")
    return name, keyword, {"game": name, "title": load(name).display_name(),
                           "choice": choice.to_json(), "shipped": choice.shipped(),
                           "builder": built}


async def build_page(request: Request) -> Response:
    """``/build/<game>/<keyword>``: the builder of a set-up choice's documents (issue 29);
    a 404 page for a choice without one."""
    try:
        _builder_choice(request)
    except TableError:
        return HTMLResponse(NO_BUILDER_PAGE, status_code=404)
    return _page("build.html")


async def api_builder(request: Request) -> Response:
    """``GET /api/builder/<game>/<keyword>``: the game's title, the choice
    (``SetupChoice.to_json``), its shipped documents whole and its builder
    (``SetupChoice.builder``); 404 if none."""
    try:
        return JSONResponse(_builder_choice(request)[2])
    except TableError as exc:
        return _error(exc)


async def api_check(request: Request) -> Response:
    """``POST /api/check/<game>/<keyword>``: a document of a set-up choice checked as
    ``citywatch <choice> check`` checks it, in a worker: ``{"problems": [...], "notes":
    [...]}``, each problem naming its rule; 404 for a choice without a builder, 413 for a
    body over ``MAX_DOCUMENT`` bytes, 415 if not sent as JSON, 400 if not such a document.
    Nothing is stored. At most ``CHECK_RATE`` a client address (429 beyond): the checks
    share the set-up worker with new tables."""
    try:
        name, keyword, _ = _builder_choice(request)
        refused = _limited(request, CHECK_RATE, "check", "checks")
        if refused is not None:
            return refused
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise TableError(415, "send the document as JSON, with the header "
                                  "Content-Type: application/json")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_DOCUMENT:
                raise TableError(413, f"a document is at most {MAX_DOCUMENT} bytes")
        pool = _tables(request).setup_pool
        try:
            checked: Checked = await pool.run(check_document, name, GAMES[name], keyword, raw)
        except TimeoutError:
            raise TableError(400, f"checking this document took longer than "
                                  f"{pool.time_limit:g} seconds") from None
        if checked.error is not None:
            raise TableError(400, checked.error)
    except TableError as exc:
        return _error(exc)
    return JSONResponse({"problems": checked.problems, "notes": checked.notes})


async def api_games(request: Request) -> Response:
    """``GET /api/games``: every registered game, its seat range, bot levels, whether it
    has a browser board (served at ``/games/<name>/``) and its options, if it has any."""
    return JSONResponse(request.app.state.games)


def game_mounts() -> list[Mount]:
    """``/games/<name>/``: the web folder (``board.js`` and its data) of each registered game
    that has one; other paths under ``/games/`` are 404."""
    mounts = []
    for name in game_names():
        game = load(name)
        folder = game.web_folder()
        if folder is not None and has_board(game):
            mounts.append(Mount(f"/games/{name}", StaticFiles(directory=folder),
                                name=f"game-{name}"))
    return mounts


async def create_table(request: Request) -> Response:
    """``POST /api/tables``: a new table (with the game's ``options``, if given), its seats'
    links and the spectator link."""
    try:
        body = await _body(request)
        if not isinstance(body, dict):
            raise TableError(400, 'the request must be a JSON object {"game": ..., "seats": [...]}')
        _count_creation(request)
        created = await _tables(request).create(body.get("game"), body.get("seats"),
                                                body.get("seed"), body.get("practice", False),
                                                body.get("options"), body.get("names"),
                                                _address(request), body.get("hints"),
                                                body.get("public", False),
                                                body.get("spectators_chat"),
                                                body.get("clock"))
    except TableError as exc:
        return _error(exc)
    except _TooMany as exc:
        return JSONResponse({"error": exc.message}, status_code=429,
                            headers={"Retry-After": str(exc.retry_after)})
    return JSONResponse(created)


class _TooMany(Exception):
    """Too many requests from one address; try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def _address(conn: Request | WebSocket) -> str:
    """The client's address as the limits count it: the TCP peer's, or what a trusted proxy
    forwarded; an IPv6 address by its /64 network (``client_key``)."""
    return client_key(conn.client.host) if conn.client else "unknown"


def _count_creation(request: Request) -> None:
    """Count a table creation against the client's address; ``_TooMany`` over the limit."""
    limiter: MovingWindowRateLimiter = request.app.state.limiter
    rate = request.app.state.creation_rate
    address = _address(request)
    if limiter.hit(rate, "create", address):
        return
    reset = limiter.get_window_stats(rate, "create", address).reset_time
    wait = max(1, math.ceil(reset - time.time()))
    raise _TooMany(f"too many new tables from your address ({rate}); try again in "
                   f"{wait} seconds", wait)


async def api_view(request: Request) -> Response:
    """``GET /api/view/{token}``: the step, seat, view and log of the token's seat."""
    try:
        table, seat = await _tables(request).resolve(request.path_params["token"])
    except TableError as exc:
        return _error(exc)
    table.start_bots()
    return JSONResponse(table.snapshot(seat))


async def api_act(request: Request) -> Response:
    """``POST /api/act/{token}``: take the seat's decision; ``{"ok": true, "step": n + 1}``."""
    try:
        table, seat = await _tables(request).resolve(request.path_params["token"], fresh=False)
        step, action = parse_act(await _body(request))
        new_step = await table.act(seat, step, action)
    except TableError as exc:
        return _error(exc)
    return JSONResponse({"ok": True, "step": new_step})


NAME_RATE = parse("20/minute")
HINT_RATE = parse("30/minute")
CHAT_SEAT_RATE = parse("5/10 seconds")
"""How many chat messages one seat may write in 10 seconds (issue 31)."""
CHAT_TABLE_RATE = parse("60/minute")
"""How many chat messages the seats of one table may write in a minute (issue 31)."""
MUTE_RATE = parse("30/minute")
"""How many times one seat may mute or unmute in a minute (issue 31)."""
"""How many hints the seats of one table may ask for in a minute (issue 30)."""
ANALYSIS_RATE = parse("10/minute")
"""How many analyses not yet worked out one address may ask for in a minute (issue 30)."""
CHECK_RATE = parse("300/minute")
"""How many documents one address may have checked (``/api/check``) in a minute: more than
the builder page asks while a person clicks (one check per 250 ms pause, 240 a minute)."""
"""How often one link may set its seat's name (each change is sent to every seat)."""


async def api_name(request: Request) -> Response:
    """``POST /api/name/{token}`` with ``{"name": "..."}``: set or change the name of the
    token's own seat (issue 16); ``{"ok": true, "name": the name kept}``. 404 for an unknown
    token, 403 for the spectator, 400 for a bad name, 429 for too many changes."""
    token = request.path_params["token"]
    try:
        table, seat = await _tables(request).resolve(token, fresh=False)
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != {"name"}:
            raise TableError(400, 'the request must be a JSON object {"name": "..."}: a link '
                                  "names only its own seat")
        limiter: MovingWindowRateLimiter = request.app.state.limiter
        if not limiter.hit(NAME_RATE, "name", token):
            return JSONResponse({"error": f"too many name changes ({NAME_RATE}); try again "
                                          "in a minute"}, status_code=429,
                                headers={"Retry-After": "60"})
        name = await table.set_name(seat, body["name"])
    except TableError as exc:
        return _error(exc)
    return JSONResponse({"ok": True, "name": name})


OPEN_LIST_RATE = parse("60/minute")
"""How often one address may read the open tables (issue 31): the start page asks every 5 s."""
TAKE_RATE = parse("10/minute")
"""How many seats one address may try to take in a minute (issue 31)."""


def _limited(request: Request, rate: Any, what: str, sentence: str) -> Response | None:
    """A 429 answer if the client's address is over ``rate`` for ``what``, else None."""
    limiter: MovingWindowRateLimiter = request.app.state.limiter
    if limiter.hit(rate, what, _address(request)):
        return None
    return JSONResponse({"error": f"too many {sentence} from your address ({rate}); try "
                                  "again in a minute"}, status_code=429,
                        headers={"Retry-After": "60"})


async def api_open_tables(request: Request) -> Response:
    """``GET /api/open-tables``: the public tables with a free person seat, newest first, at
    most ``MAX_OPEN_LISTED`` (issue 31, ``Tables.open_tables``): ``{"tables": [...]}``. 429
    beyond ``OPEN_LIST_RATE`` from one address."""
    refused = _limited(request, OPEN_LIST_RATE, "open-list", "requests for the open tables")
    if refused is not None:
        return refused
    try:
        body = await _tables(request).open_tables()
    except TableError as exc:
        return _error(exc)
    return Response(body, media_type="application/json")


async def api_take_seat(request: Request) -> Response:
    """``POST /api/open-tables/{table}/take`` with ``{}`` or ``{"seat": n}`` (and, if
    wanted, ``"name"``): a free seat of an open table and its private link, given once
    (issue 31, ``Tables.take_seat``). 400 for a bad body, 404 for no such open table, 409
    if the seat was taken, 415 if not sent as JSON, 429 beyond ``TAKE_RATE``."""
    try:
        body = await _body(request)
        parse_take(body)  # a bad request is refused before it counts
        refused = _limited(request, TAKE_RATE, "take", "seats taken")
        if refused is not None:
            return refused
        taken = await _tables(request).take_seat(request.path_params["table"], body)
    except TableError as exc:
        return _error(exc)
    return JSONResponse(taken)


WEBHOOK_RATE = parse("10/minute")
"""How many webhook changes one address may ask for in a minute (issue 31): each resolves a
host name."""


async def api_webhook(request: Request) -> Response:
    """``POST /api/webhook/{token}`` with ``{"url": "https://..."}`` or ``{"url": null}``: set
    or remove the webhook the server posts to when the token's seat's turn begins at a
    turn-based table (issue 31, ``LiveTable.set_webhook``): ``{"ok": true, "webhook": whether
    one is set}``. 400 for a bad body or an address the rules refuse, 403 for the spectator,
    404 for an unknown token, 409 for a table that is not turn-based, 415 if not sent as
    JSON, 429 beyond ``WEBHOOK_RATE``; nothing is changed then."""
    try:
        table, seat = await _tables(request).resolve(request.path_params["token"], fresh=False)
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != {"url"}:
            raise TableError(400, 'the request must be a JSON object {"url": "https://..."} '
                                  'or {"url": null}')
        refused = _limited(request, WEBHOOK_RATE, "webhook", "webhook changes")
        if refused is not None:
            return refused
        kept = await table.set_webhook(seat, body["url"])
    except TableError as exc:
        return _error(exc)
    return JSONResponse({"ok": True, "webhook": kept})


async def api_record(request: Request) -> Response:
    """``GET /api/record/{token}``: the signed record, once the game is over (409 before);
    ``{token}`` is a seat's, the spectator's or the public replay id. Its file name names the
    game, the day and the table (``LiveTable.record_name``)."""
    try:
        table = await _tables(request).resolve_replay(request.path_params["token"])
        signer: RecordSigner = request.app.state.signer
        record = signer.sign(await run_in_threadpool(table.record))
    except TableError as exc:
        return _error(exc)
    return JSONResponse(record, headers={
        "Content-Disposition": f'attachment; filename="{table.record_name()}"'})


async def api_rematch(request: Request) -> Response:
    """``POST /api/rematch/{token}``: the link of the token's own seat at the rematch of its
    finished table, set up by the first person who asks (``Tables.rematch``): ``{"table",
    "link", "created"}``. Counted as a new table of the asker's address. The body is
    ``{}``, sent as JSON like every write (415 otherwise)."""
    try:
        if await _body(request) != {}:
            raise TableError(400, "the request body must be {}: a link asks for its own seat")
        answer = await _tables(request).rematch(request.path_params["token"], _address(request),
                                                lambda: _count_creation(request))
    except TableError as exc:
        return _error(exc)
    except _TooMany as exc:
        return JSONResponse({"error": exc.message}, status_code=429,
                            headers={"Retry-After": str(exc.retry_after)})
    return JSONResponse(answer)


async def api_record_key(request: Request) -> Response:
    """``GET /api/record-key``: the public key that checks the records' signatures."""
    signer: RecordSigner = request.app.state.signer
    return JSONResponse(signer.public_document())


async def api_replay(request: Request) -> Response:
    """``GET /api/replay/{key}?step=k``: what a spectator saw after k actions
    (``LiveTable.replay_step``); ``{key}`` is the public replay id, or a token."""
    try:
        table = await _tables(request).resolve_replay(request.path_params["token"])
        raw = request.query_params.get("step", "")
        try:
            step = int(raw)
        except ValueError:
            raise TableError(400, "give the step to show as ?step=k, a whole number") from None
        answer = await run_in_threadpool(table.replay_step, step)
    except TableError as exc:
        return _error(exc)
    return JSONResponse(answer)


async def _send_loop(websocket: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    while True:
        text = await queue.get()
        if text is None:
            await websocket.close(code=RECONNECT, reason="reconnect for the current state")
            return
        await websocket.send_text(text)


def _ws_error(message: str, step: int) -> str:
    return json.dumps({"type": "error", "error": message, "step": step})


def parse_hint(body: Any) -> int:
    """The step of a hint message ``{"type": "hint", "step": n}``; ``TableError`` 400 if
    malformed."""
    step = body.get("step") if isinstance(body, dict) else None
    if isinstance(step, bool) or not isinstance(step, int):
        raise TableError(400, 'ask for a hint as {"type": "hint", "step": n}, n the number '
                              "of decisions you saw")
    return step


async def _hint(websocket: WebSocket, table: LiveTable, seat: int | None, step: int,
                queue: asyncio.Queue[str | None]) -> None:
    """Ask the coach for ``seat``'s hint and put the answer, or the refusal, on ``queue``:
    the asking connection's only (issue 30)."""
    try:
        limiter: MovingWindowRateLimiter = websocket.app.state.limiter
        if not limiter.hit(HINT_RATE, "hint", table.id):
            raise TableError(429, f"too many hints at this table ({HINT_RATE}); try again "
                                  "in a minute")
        found = await table.hint(seat, step)
    except TableError as exc:
        queue.put_nowait(json.dumps({"type": "hint_error", "error": exc.message,
                                     "step": table.step}))
        return
    queue.put_nowait(json.dumps({"type": "hint", "step": step, "hint": found},
                                separators=(",", ":")))


async def _chat(websocket: WebSocket, table: LiveTable, seat: int | None,
                data: dict[str, Any], queue: asyncio.Queue[str | None]) -> None:
    """A chat message ``{"type": "chat", "text": ...}`` or a mute ``{"type": "mute", "seat":
    n, "muted": true|false}`` from ``seat`` (issue 31); the new state goes to every seat, a
    refusal (``{"type": "chat_error", "error"}``) to this connection only, nothing changed."""
    limiter: MovingWindowRateLimiter = websocket.app.state.limiter
    who = f"{table.id}:{seat}"
    try:
        if data["type"] == "mute":
            if not limiter.hit(MUTE_RATE, "mute", who):
                raise TableError(429, f"too many mutes ({MUTE_RATE}); try again in a minute")
            await table.mute(seat, data.get("seat"), data.get("muted"))
            return
        text = table.chat_text(seat, data.get("text"))  # refused before it counts
        if not limiter.test(CHAT_TABLE_RATE, "chat", table.id):
            raise TableError(429, f"too many chat messages at this table ({CHAT_TABLE_RATE}); "
                                  "wait a little")
        if not limiter.hit(CHAT_SEAT_RATE, "chat", who):
            raise TableError(429, f"too many chat messages from your seat ({CHAT_SEAT_RATE}); "
                                  "wait a few seconds")
        limiter.hit(CHAT_TABLE_RATE, "chat", table.id)
        await table.say(seat, text)
    except TableError as exc:
        queue.put_nowait(json.dumps({"type": "chat_error", "error": exc.message}))


async def ws_endpoint(websocket: WebSocket) -> None:
    """``/ws/{token}``: state messages for the token's seat; ``act`` messages decide."""
    await websocket.accept()
    token = websocket.path_params["token"]
    try:
        table, seat = await _tables(websocket).resolve(token)
    except TableError as exc:
        code = UNKNOWN_TOKEN if exc.status == 404 else 1011
        await websocket.close(code=code, reason=exc.message)
        return
    sockets: Sockets = websocket.app.state.sockets
    limits: Limits = _tables(websocket).limits
    address = _address(websocket)
    refusal = sockets.admit(token, address, limits.sockets_per_link, limits.sockets_per_address,
                            limits.sockets)
    if refusal is not None:
        await websocket.close(code=refusal[0], reason=refusal[1])
        return
    queue = table.subscribe(seat)
    sender = asyncio.get_running_loop().create_task(_send_loop(websocket, queue))
    asking: set[asyncio.Task[None]] = set()
    try:
        while not sender.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if len(text or message.get("bytes") or b"") > MAX_BODY:
                await websocket.close(code=TOO_BIG, reason=f"a message may have at most "
                                                           f"{MAX_BODY} bytes")
                break
            try:
                if text is None:
                    raise TableError(400, "send JSON text messages")
                data = parse_json(text, "the message")
                if isinstance(data, dict) and data.get("type") in ("chat", "mute"):
                    await _chat(websocket, table, seat, data, queue)
                    continue
                if isinstance(data, dict) and data.get("type") == "back":  # issue 31
                    await table.take_back(seat)
                    continue
                if isinstance(data, dict) and data.get("type") == "hint":
                    task = asyncio.get_running_loop().create_task(
                        _hint(websocket, table, seat, parse_hint(data), queue))
                    asking.add(task)
                    task.add_done_callback(asking.discard)
                    continue
                if not isinstance(data, dict) or data.get("type") != "act":
                    raise TableError(400, 'a client sends {"type": "act", "step": n, '
                                          '"action": ...}, {"type": "hint", "step": n}, '
                                          '{"type": "chat", "text": ...}, {"type": '
                                          '"mute", "seat": n, "muted": true|false} or '
                                          '{"type": "back"}')
                step, action = parse_act(data)
                await table.act(seat, step, action)
            except TableError as exc:
                queue.put_nowait(_ws_error(exc.message, table.step))
    except WebSocketDisconnect:
        pass
    finally:
        sockets.release(token, address)
        table.unsubscribe(queue)
        for task in list(asking):
            task.cancel()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                            headers=exc.headers)
    if exc.status_code == 404:
        return HTMLResponse(NOT_FOUND_PAGE.replace("No such table", "Not found")
                            .replace("This link does not belong to any table.",
                                     "There is no page here."), status_code=404)
    return Response(exc.detail, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("error serving %s", request.url.path, exc_info=exc)
    return JSONResponse({"error": "the server failed; nothing was changed"}, status_code=500)


def create_app(db_url: str, bot_delay: float = TURN, *, bot_workers: int | None = None,
               bot_time_limit: float = TIME_LIMIT, limits: Limits | None = None,
               allowed_hosts: Sequence[str] | None = None, origins: Iterable[str] = (),
               pool: BotPool | None = None, idle_seconds: float = IDLE_SECONDS,
               setup_time_limit: float = SETUP_TIME_LIMIT,
               signing_key: RecordSigner | str | Path | None = None,
               round_pause: float = ROUND,
               webhooks: WebhookRules | Webhooks | None = None) -> Starlette:
    """The app serving tables stored at ``db_url`` (``sqlite:///PATH`` or ``postgresql://``).

    A bot waits ``bot_delay`` seconds before its turn, and the pauses of a round add up to
    at most ``round_pause`` (``server/pace.py``); bots think in a pool of ``bot_workers``
    processes (default: a core is left free), each decision within ``bot_time_limit``
    seconds. A new table's options are checked and its game set up in a worker process of
    its own, within ``setup_time_limit`` seconds. ``limits`` bounds creations, connections
    and how long tables are kept. ``allowed_hosts`` (None: any)
    are the names the server answers to; ``origins`` are other origins whose pages may
    change state (a proxy's public name). Unfinished tables are loaded, and their bots
    resume, in the background when the app starts (its lifespan); on PostgreSQL many such
    apps, in many processes, may serve one database (docs/server.md). A table nobody used
    for ``idle_seconds`` leaves memory until it is needed again. Records are signed with
    ``signing_key``: a signer, or a key file (created if missing; ``KeyFileError``, a
    ``ValueError``, if unusable); None signs with a key kept in memory only. ``webhooks``:
    the rules of turn-based seats' webhooks (issue 31; None: on, public addresses only), or
    the sender itself.
    """
    if bot_delay < 0:
        raise ValueError("bot_delay must be 0 or more seconds")
    if round_pause < 0:
        raise ValueError("round_pause must be 0 or more seconds")
    if not isinstance(signing_key, RecordSigner):
        signing_key = (RecordSigner.ephemeral() if signing_key is None
                       else load_signer(signing_key))
    limits = limits or Limits()
    creation_rate = parse(limits.creations)
    storage = Storage(db_url)
    pool = pool or BotPool(bot_workers, bot_time_limit)
    sender = webhooks if isinstance(webhooks, Webhooks) else Webhooks(webhooks)
    tables = Tables(storage, bot_delay, pool, limits, idle_seconds,
                    WorkerPool(1, setup_time_limit), round_pause, sender)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.start()
        try:
            yield
        finally:
            await tables.close()
            storage.close()

    routes = [
        Route("/", index),
        Route("/play/{token}", play_page),
        Route("/replay/{token}", replay_page),
        Route("/analysis/{key}", analysis_page),
        Route("/how-to-play", how_to_play),
        Route("/how-to-play/{game}", how_to_play),
        Route("/api/games", api_games),
        Route("/build/{game}/{keyword}", build_page),
        Route("/api/builder/{game}/{keyword}", api_builder),
        Route("/api/check/{game}/{keyword}", api_check, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/open-tables", api_open_tables),
        Route("/api/open-tables/{table}/take", api_take_seat, methods=["POST"]),
        Route("/api/view/{token}", api_view),
        Route("/api/act/{token}", api_act, methods=["POST"]),
        Route("/api/name/{token}", api_name, methods=["POST"]),
        Route("/api/webhook/{token}", api_webhook, methods=["POST"]),
        Route("/api/record/{token}", api_record),
        Route("/api/record-key", api_record_key),
        Route("/api/rematch/{token}", api_rematch, methods=["POST"]),
        Route("/api/replay/{token}", api_replay),
        Route("/api/tables/{key}/analysis", api_analysis),
        WebSocketRoute("/ws/{token}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        *game_mounts(),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts),
                                     www_redirect=False))
    middleware.append(Middleware(SameOrigin, origins=list(origins)))
    app = Starlette(routes=routes, lifespan=lifespan, max_body_size=MAX_BODY,
                    middleware=middleware,
                    exception_handlers={HTTPException: _http_error, 500: _server_error})
    app.state.tables = tables
    app.state.games = catalogue()
    app.state.storage = storage
    app.state.signer = signing_key
    app.state.limiter = MovingWindowRateLimiter(MemoryStorage())
    app.state.creation_rate = creation_rate
    app.state.sockets = Sockets()
    return app
