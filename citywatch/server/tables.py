"""Live tables: states in memory, rebuilt from the database, one asyncio lock each.

A table's state is its record replayed. A decision is checked, stored (the row committed,
with the state's digest after it), and only then becomes the table's state; subscribers then
receive their seat's view. A table's seed is a secret of 256 bits unless its creator chose
one (a practice table). Bots are the named levels the server offers; they decide
in the bounded worker pool (``BotPool``), at the pace of ``BotPace`` (``server/pace.py``), with
a generator derived from the table's seed and the step, so a bot re-deciding after a restart
decides the same. A bot that fails is replaced by the random bot, and a table whose random
bot fails is marked failed; both are told on the table's page. Every error is a
``TableError`` (an HTTP status and a sentence) and changes nothing.

On PostgreSQL (``Storage.shared``) many processes serve the same tables: a decision is checked
and stored inside a transaction that holds the table's row lock, after the actions other
processes stored were applied (``_take_shared``); every change is announced with ``NOTIFY``
and each process catches up the tables it holds (``LiveTable.sync``). A table's bots are
moved only by the process holding its bot lease. The multi-process duties (``LISTEN``, the
leases and their sweep) and idle eviction (tables nobody used for ``idle_seconds`` leave
memory, on both databases, and are replayed when needed again) are ``Tables.cluster``'s
(``citywatch/server/cluster.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from citywatch.bots import LEVELS, bot_names, parse_spec
from citywatch.core.api import Game, State
from citywatch.core.errors import InvalidRecord
from citywatch.core.moves import MoveHistory, one_move, replay_with_history
from citywatch.core.record import Record
from citywatch.core.registry import GAMES, game_names, load
from citywatch.core.rng import Seed, is_secret_seed, new_secret_seed
from citywatch.core.text import TextError, clean_text
from citywatch.server.botpool import BotFailure, BotPool, WorkerPool
from citywatch.server.clocks import Clock, ClockError, ClockRule, parse_clock
from citywatch.server.cluster import IDLE_SECONDS as IDLE_SECONDS  # app.py's default
from citywatch.server.cluster import TICK, Cluster
from citywatch.server.coaching import (
    ANALYSIS_TIME_LIMIT,
    analysis_json,
    hint_json,
    hints_by_default,
)
from citywatch.server.pace import ROUND, TURN, BotPace
from citywatch.server.setup import SETUP_TIME_LIMIT, Built, build
from citywatch.server.storage import (
    Duplicate,
    OpenTable,
    RematchTaken,
    SeatTaken,
    Storage,
    StorageError,
    TableRow,
    new_replay_id,
)
from citywatch.server.webhooks import WebhookError, Webhooks, payload

log = logging.getLogger("citywatch.server")
T = TypeVar("T")

HUMAN = "human"
RETAIN_EVERY = 60.0
"""Seconds between two runs of the retention rule (``Tables.retain``)."""
SPECTATOR = -1
MAX_SEED = 2**63 - 1
CHECKPOINT = 32
"""A finished game's replay keeps a copy of its state every this many steps."""
KEEP_FINISHED = 256
"""Finished tables kept in memory; older ones nobody watches are replayed again if asked for."""
BACKLOG = 512
"""Messages waiting for one WebSocket; a connection further behind is closed (it reconnects)."""
CHAT_LONGEST = 200
"""The most characters of one chat message, after stripping (issue 31)."""
FALLBACK_BOT = "random"
"""The bot that takes over a seat whose bot failed."""


@dataclass(frozen=True)
class Limits:
    """The server's bounds on what its users may ask of it (docs/server.md)."""

    open_tables: int = 2000
    """Unfinished tables created within ``open_days`` days; more are refused (503)."""
    open_days: float = 7.0
    creations: str = "20/10 minutes"
    """Tables one address may create (a ``limits`` rate such as ``20/10 minutes``)."""
    sockets_per_link: int = 8
    """WebSocket connections open at once for one link."""
    sockets_per_address: int = 32
    """WebSocket connections open at once from one client address (issue 24)."""
    sockets: int = 4000
    """WebSocket connections open at once in all."""
    open_tables_per_address: int = 20
    """Unfinished tables created within ``open_days`` days from one address (issue 24)."""
    abandon_hours: float = 72.0
    """An unfinished table with no move for this long is closed as abandoned (issue 24)."""
    unstarted_hours: float = 24.0
    """An unfinished table with no move at all this long after it was made is closed too."""
    delete_days: float = 30.0
    """A table closed as abandoned is deleted this many days later (0: never)."""
    bot_table_steps: int = 20000
    """The most decisions of a table of bots only; then it is stopped (issue 24)."""
    bot_table_hours: float = 2.0
    """The longest a table of bots only may play; then it is stopped (issue 24)."""

    def __post_init__(self) -> None:
        for name in ("open_tables", "sockets_per_link", "sockets", "open_tables_per_address",
                     "bot_table_steps"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} must be 1 or more")
        for name in ("open_days", "abandon_hours", "unstarted_hours", "bot_table_hours"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name.replace('_', ' ')} must be more than 0")
        if not self.delete_days >= 0:
            raise ValueError("delete days must be 0 (never) or more")


class TableError(Exception):
    """A request refused, with its HTTP status and a clear sentence; nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def server_bots(game: str) -> list[str]:
    """The bot levels a server offers for ``game``: each bot by its name, without options."""
    return bot_names(game)


def has_board(game: Game) -> bool:
    """True if ``game`` has a browser board (a web folder with ``board.js``)."""
    folder = game.web_folder()
    return folder is not None and (folder / "board.js").is_file()


def catalogue() -> list[dict[str, Any]]:
    """Every registered game as the start page offers it (``GET /api/games``): its bots are
    the difficulty levels (easy, normal, hard), then the fallback bot, the game's own bots and
    the others, by name. Its set-up choices (a deck per seat, a scenario) are in its ``type``
    (``GameType.to_json``, ``"setup"``), the one place the page reads them from."""
    games = []
    for name in game_names():
        game = load(name)
        own = game.bots()
        bots = sorted(server_bots(name), key=lambda b: (
            LEVELS.index(b) if b in LEVELS else len(LEVELS), b != FALLBACK_BOT, b not in own, b))
        about = {"name": name, "title": game.display_name(),
                 "min_players": game.min_players, "max_players": game.max_players,
                 "bots": bots, "board": has_board(game), "type": game.type.to_json(),
                 "how_to_play": game.how_to_play() is not None}
        if game.options:
            about["options"] = [option.to_json() for option in game.options]
        games.append(about)
    return games


def address_hash(address: str) -> str:
    """What a table stores of its creator's address: a hash, to count tables per address."""
    return hashlib.blake2b(address.encode(), digest_size=16,
                           person=b"citywatch-addr").hexdigest()


def offered_bot(spec: str, game: str) -> str:
    """The level the server plays for a stored seat ``spec``: itself if offered, else the
    level of the same bot (options dropped), else the fallback bot."""
    if spec in server_bots(game):
        return spec
    try:
        name, _options = parse_spec(spec)
    except ValueError:
        return FALLBACK_BOT
    return name if name in server_bots(game) else FALLBACK_BOT


def parse_act(body: Any) -> tuple[int, Any]:
    """The step and action JSON of an act request; ``TableError`` 400 if malformed."""
    if not isinstance(body, dict) or "step" not in body or "action" not in body:
        raise TableError(400, 'the request must be a JSON object {"step": n, "action": ...}')
    step = body["step"]
    if isinstance(step, bool) or not isinstance(step, int):
        raise TableError(400, "step must be a whole number: the number of decisions you saw")
    return step, body["action"]


MAX_NAME = 24
"""The most characters of a person's name (issue 16)."""


def clean_name(raw: Any, who: str = "a name") -> str:
    """``raw`` as a person's name (issue 16): a string, stripped and in NFC form, of 1 to
    ``MAX_NAME`` characters with no control or invisible formatting character
    (``core.text.clean_text``); else ``TableError`` 400 saying so in one sentence that starts
    with ``who``."""
    try:
        return clean_text(raw, who, MAX_NAME)
    except TextError as exc:
        raise TableError(400, str(exc)) from None


def parse_names(names: Any, specs: list[str]) -> list[str | None]:
    """The names a table's creator gave its seats (none: all ``None``), each cleaned by
    ``clean_name``; ``TableError`` 400 unless they are a list with one entry per seat, a
    name or null, and only people's seats are named."""
    if names is None:
        return [None] * len(specs)
    if not isinstance(names, list) or len(names) != len(specs):
        raise TableError(400, f"names must be a list with one entry per seat ({len(specs)}), "
                              "each a name or null")
    chosen: list[str | None] = []
    for seat, (name, spec) in enumerate(zip(names, specs, strict=True)):
        if name is not None and spec != HUMAN:
            raise TableError(400, f"seat {seat + 1} is a bot: only a person's seat has a name")
        chosen.append(None if name is None else clean_name(name, f"seat {seat + 1}'s name"))
    return chosen


def colour_of(state: State, seat: int) -> str:
    """The name a seat is known by, read from that seat's own view as the game declares it
    (``GameType.seat_name``), else "Seat k"."""
    return state.game.type.seat_name(state.view(seat)) or f"Seat {seat + 1}"


def end_json(state: State, colours: list[str]) -> dict[str, Any] | None:
    """What every end screen shows of the finished game ``state`` (issue 26): ``points``,
    what they count (``GameType.points``), ``winners`` (seats) and ``reason`` (the outcome's),
    and ``seats``: each seat's colour and its ``SeatScore`` (``Game.score_breakdown``) as
    JSON. None while the game runs."""
    outcome = state.outcome()
    scores = state.game.score_breakdown(state)
    if outcome is None or scores is None:
        return None
    return {"points": state.game.type.points, "winners": list(outcome.winners),
            "reason": outcome.reason,
            "seats": [{"seat": seat, "colour": colours[seat], **score.to_json()}
                      for seat, score in enumerate(scores)]}


@dataclass
class _Taken:
    """What a decision on a shared database found and did (``LiveTable._take_shared``)."""

    row: TableRow | None = None
    steps: list[tuple[Any, str | None, State]] = field(default_factory=list)
    """Actions stored by other processes, then the one taken: (JSON, digest, state after)."""
    error: TableError | None = None
    lost_lease: bool = False


ClockChange = Callable[[Clock, tuple[int, ...], tuple[str, ...]],
                       tuple[Clock, tuple[str, ...]] | None]
"""A change of a table's clock: (clock, free seats, notices) -> the new clock and notices."""


class _Behind(Exception):
    """More actions are stored than the table in memory knows: catch up, then try again."""

    @staticmethod
    def guard(change: ClockChange, step: int) -> Callable[..., Any]:
        """``change`` for ``Storage.change_clock``, refused (``_Behind``) unless the number
        of actions stored is ``step``."""

        def guarded(clock: Clock, last: int, free: tuple[int, ...],
                    notices: tuple[str, ...]) -> tuple[Clock, tuple[str, ...]] | None:
            if last != step:
                raise _Behind
            return change(clock, free, notices)

        return guarded


MAX_OPEN_LISTED = 200
"""The most open tables listed at once (issue 31), the newest."""
OPEN_LIST_SECONDS = 1.0
"""How long a process answers the open tables from its last read of the database (issue 31):
one read a second serves any number of visitors. A public table made or a take tried in the
process drops it at once; another process's changes are seen within this time."""
MAX_SEATS = 64
"""A bound on a seat's number sent to take a seat, checked before anything is read."""


def parse_take(body: Any) -> tuple[int | None, str | None]:
    """The seat (None: the first free one) and the taker's name (None: unnamed) of a request
    to take a seat (issue 31): ``{}`` or ``{"seat": n}``, either with ``"name"`` (cleaned by
    ``clean_name``) if wanted; ``TableError`` 400 if it is neither."""
    if not isinstance(body, dict) or not set(body) <= {"seat", "name"}:
        raise TableError(400, 'the request must be a JSON object {}, {"seat": n} or '
                              'with "name": "..." too')
    seat = body.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < MAX_SEATS):
        raise TableError(400, f"seat must be a seat's number, 0 to {MAX_SEATS - 1}")
    name = None if body.get("name") is None else clean_name(body["name"], "your name")
    return seat, name


def turn_based(table: LiveTable) -> bool:
    """True if ``table`` is played turn-based (its clock's rule is "turn-based"): only such a
    table's seats may give a webhook (issue 31)."""
    return table.clock is not None and table.clock.rule.kind == "turn-based"


def _open_json(row: OpenTable) -> dict[str, Any]:
    """What the open tables list shows of one (``Tables.open_tables``)."""
    game = load(row.game)
    people = [seat for seat, spec in enumerate(row.seats) if spec == HUMAN]
    return {"table": row.id, "game": row.game, "title": game.display_name(),
            "seats": len(row.seats), "people": len(people),
            "taken": len(people) - len(row.free), "free": list(row.free),
            "kinds": list(row.seats),
            "bots": [spec for spec in row.seats if spec != HUMAN],
            "options": dict(game.shown_options(row.options, row.players)),
            "since": (row.created if row.created.tzinfo else
                      row.created.replace(tzinfo=UTC)).isoformat(),
            "clock": None if row.clock is None else row.clock.rule.to_json()}


class LiveTable:
    """One table in memory: its state, the actions taken, its lock and its subscribers."""

    def __init__(self, manager: Tables, row: TableRow, state: State,
                 taken: list[Any], shown: dict[str, Any] | None = None,
                 history: MoveHistory | None = None) -> None:
        """``shown``: ``Game.shown_options`` of the table's options, if already known;
        ``history``: the newest decisions that led to ``state`` (none: it is the start)."""
        self.manager = manager
        self.id = row.id
        self.game: Game = state.game
        self.players = row.players
        self.seed: Seed = row.seed
        self.options: dict[str, Any] = dict(row.options)
        self.practice = not is_secret_seed(row.seed)
        self.board = has_board(self.game)
        self.seats = list(row.seats)
        self.failure = row.failure
        self.notices = list(row.notices)
        self.names: list[str | None] = list(row.names) if row.names else [None] * row.players
        self.created = row.created
        self.replay = row.replay
        """The public replay id (issue 26), which carries no seat."""
        self.rematch = row.rematch
        """The id of the table set up as this one's rematch, or None."""
        self.hints_allowed = (row.hints_allowed if row.hints_allowed is not None
                              else hints_by_default(list(row.seats), HUMAN))
        """Whether a person may ask the coach for a hint (issue 30)."""
        self.hints: list[dict[str, int]] = [dict(h) for h in row.hints]
        """The hints asked, ``{"step", "seat"}`` each, in order (issue 30)."""
        self.public = row.public
        """Whether the table is listed among the open tables while a seat is free (31)."""
        self.free = row.free
        """The person seats of a public table nobody has taken yet (issue 31)."""
        self.spectators_chat = row.spectators_chat
        """Whether the spectator link reads the chat (issue 31)."""
        self.chat: list[dict[str, Any]] = [dict(m) for m in row.chat]
        """The newest chat messages, ``{"n", "seat", "text", "at"}`` each (issue 31)."""
        self.mutes: list[tuple[int, ...]] = (list(row.mutes) if row.mutes
                                             else [()] * row.players)
        """Per seat, the seats whose chat messages it hides (issue 31)."""
        self.clock: Clock | None = row.clock
        """The table's clock (issue 31; ``server/clocks.py``), None if it is untimed."""
        self.webhooks: dict[int, str] = dict(row.webhooks)
        """A seat -> its webhook (issue 31): private to that seat, never sent to a page."""
        self._hinting: set[int] = set()
        self._last_hint: dict[int, tuple[int, dict[str, Any]]] = {}
        self._analysis: asyncio.Task[dict[str, Any]] | None = None
        self._end: dict[str, Any] | None = None
        self.state = state
        self.actions = list(taken)
        self.digests: list[str | None] = [None] * len(taken)
        self.colours = [colour_of(state, seat) for seat in range(row.players)]
        self.shown = (shown if shown is not None
                      else self.game.shown_options(self.options, row.players))
        """What the table's title shows of its options, computed once (a deck or a
        scenario of one's own is checked when the table is made, not at every view)."""
        self.lock = asyncio.Lock()
        self.subscribers: dict[asyncio.Queue[str | None], int | None] = {}
        self.closed = False
        self._bot_task: asyncio.Task[None] | None = None
        self._checkpoints: list[State] = []
        self._checkpoint_lock = threading.Lock()
        self.used = time.monotonic()
        self._sync_task: asyncio.Task[None] | None = None
        self._dirty = False
        self._lease_wait_until = 0.0
        self.history = history if history is not None else MoveHistory(state)
        """The newest decisions, for each seat's moves since its last one (issue 26)."""
        self.pace = BotPace(manager.bot_delay, manager.round_pause, row.players)

    @contextlib.asynccontextmanager
    async def _changing(self) -> AsyncIterator[None]:
        """Hold the table's lock for a change asked for now (the table is in use);
        ``TableError`` 503 if the table was closed meanwhile (it is being reloaded)."""
        self.touch()
        async with self.lock:
            if self.closed:
                raise TableError(503, "the table is being reloaded; try again")
            yield

    def touch(self) -> None:
        """Note that the table is in use now (it is not idle)."""
        self.used = time.monotonic()

    @property
    def busy(self) -> bool:
        """True while bots move, a decision is taken, or the table catches up."""
        return (self.lock.locked()
                or any(t is not None and not t.done() for t in (self._bot_task, self._sync_task)))

    @property
    def step(self) -> int:
        """How many actions have been accepted."""
        return len(self.actions)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.to_move is None

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: the spectator, who reads the public log).

        ``choices`` are the seat's legal actions (``text``: ``str(action)``, ``json``: what
        to send back) when the decision is its own and the table has not failed; otherwise
        (another seat's decision, the spectator, the game over) none. ``last_move`` is
        ``Game.last_move`` (public, the same for every seat; issue 16), beside the view;
        ``moves`` the moves since the seat's last decision (``MoveHistory.since``: the places
        each touched, public, and the lines of the seat's own log; issue 26).
        """
        log_lines = self.state.log(SPECTATOR if seat is None else seat)
        return {
            "step": self.step,
            "seat": seat,
            "view": self.state.view(seat),
            "log": log_lines,
            "table": self.about(),
            "choices": self.choices(seat),
            "last_move": self.game.last_move(self.state),
            "end": self.end(),
            "moves": self.history.since(seat, log_lines, self.state.to_move, self.colours),
            "chat": self.chat_for(seat),
            "muted": [] if seat is None else list(self.mutes[seat]),
            "webhook": self.webhook_set(seat),
        }

    def webhook_set(self, seat: int | None) -> bool | None:
        """Whether ``seat`` gave a webhook (issue 31); None where none may be given (the
        spectator, a table that is not turn-based, a server whose webhooks are off). Never
        the address."""
        if seat is None or not turn_based(self) or not self.manager.webhooks.rules.enabled:
            return None
        return seat in self.webhooks

    async def set_webhook(self, seat: int | None, raw: Any) -> bool:
        """Keep ``raw`` as ``seat``'s webhook (issue 31), or remove it (``raw`` None): checked
        in a thread by ``Webhooks.check`` (its host resolved), then stored and told to
        ``seat`` only (as ``"webhook": true``). Whether a webhook is set after it.
        ``TableError`` 403 for the spectator or a bot's seat, 409 for a table that is not
        turn-based (or a server whose webhooks are off), 400 for an address the rules
        refuse; nothing is changed then."""
        if seat is None:
            raise TableError(403, "the spectator link has no turn to be told of")
        if self.seats[seat] != HUMAN:
            raise TableError(403, "a bot plays this seat: it needs no webhook")
        if not self.manager.webhooks.rules.enabled:
            raise TableError(409, "this server sends no webhooks")
        if not turn_based(self):
            raise TableError(409, "only a seat of a turn-based table may give a webhook")
        if raw is not None:
            try:
                await run_in_threadpool(self.manager.webhooks.check, raw)
            except WebhookError as exc:
                raise TableError(400, str(exc)) from None
        async with self._changing():
            hooks = await self._stored("a webhook", self.manager.storage.set_webhook,
                                       self.id, seat, raw)
            self.webhooks = dict(hooks)
            self._notify({seat})
        return seat in self.webhooks

    def _turn_began(self, mover: int | None) -> None:
        """This process stored a decision of ``mover`` (None: it started the clock): if that
        made another seat the one to decide at a turn-based table, a seat its person plays
        (not a bot's, not one the clock's stand-in plays), post to that seat's webhook (issue
        31; in the background, ``Webhooks.send``)."""
        seat = self.state.to_move
        if (seat is None or seat == mover or self.failure is not None
                or self.seats[seat] != HUMAN or not turn_based(self)
                or (self.clock is not None and seat in self.clock.away)):
            return
        url = self.webhooks.get(seat)
        if url is not None and self.manager.webhooks.rules.enabled:
            self.manager.webhooks.send(url, payload(self.id, self.game.display_name(),
                                                    self.colours[seat], self.step),
                                       f"table {self.id} seat {seat}")

    async def _stored(self, what: str, store: Callable[..., T], *args: Any) -> T:
        """``store(*args)``, a write of ``what`` to the database, run in a thread; a failure
        is logged and is a ``TableError`` 503. The caller holds the table's lock."""
        try:
            return await run_in_threadpool(store, *args)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot store %s: %s", self.id, what, exc)
            raise TableError(503, "the database cannot be reached; try again") from None

    def chat_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The chat messages ``seat`` reads (issue 31), oldest first: a seat every message
        but those of the seats it muted; the spectator every message if the table allows
        (``spectators_chat``), else none."""
        if seat is None:
            return [dict(m) for m in self.chat] if self.spectators_chat else []
        hidden = self.mutes[seat]
        return [dict(m) for m in self.chat if m["seat"] not in hidden]

    def chat_text(self, seat: int | None, raw: Any) -> str:
        """``raw`` as ``seat``'s chat message (issue 31), cleaned by ``clean_text`` (1 to
        ``CHAT_LONGEST`` characters after stripping, nothing invisible); ``TableError`` 403
        for the spectator or a bot's seat, 400 for a text that breaks the rule."""
        if seat is None:
            raise TableError(403, "the spectator link can read but not write in the chat")
        if self.seats[seat] != HUMAN:
            raise TableError(403, "a bot plays this seat: bots never chat")
        try:
            return clean_text(raw, "a chat message", CHAT_LONGEST)
        except TextError as exc:
            raise TableError(400, str(exc)) from None

    def _chat_read(self) -> dict[int | None, tuple[Any, ...]]:
        """What each subscribed seat reads of the chat now: its messages and its mutes."""
        return {seat: (self.chat_for(seat), () if seat is None else self.mutes[seat])
                for seat in set(self.subscribers.values())}

    async def say(self, seat: int | None, raw: Any) -> dict[str, Any]:
        """Add ``seat``'s chat message (issue 31): ``raw`` cleaned by ``clean_text``
        (``CHAT_LONGEST`` characters at most; 400), from a person's seat only (403 for the
        spectator and a bot's seat); stored (the newest ``CHAT_KEPT`` kept), then sent to
        the seats that read it (not those that muted ``seat``; the spectator if allowed;
        other processes hear of it by ``NOTIFY``). The message stored."""
        text = self.chat_text(seat, raw)
        assert seat is not None  # chat_text refused the spectator
        async with self._changing():
            chat = await self._stored("a chat message", self.manager.storage.add_chat,
                                      self.id, seat, text)
            self.chat = [dict(m) for m in chat]
            readers: set[int | None] = {s for s in range(self.players)
                                        if seat not in self.mutes[s]}
            self._notify(readers | {None} if self.spectators_chat else readers)
        return dict(self.chat[-1])

    async def mute(self, seat: int | None, other: Any, muted: Any) -> list[int]:
        """Hide (``muted`` true) or show again ``other``'s chat messages for ``seat`` only
        (issue 31), stored so that it lasts across reloads; the seats ``seat`` mutes after
        it. ``TableError`` 403 for the spectator, 400 for ``other`` not another seat of
        the table or ``muted`` not true or false."""
        if seat is None:
            raise TableError(403, "the spectator link has no chat to mute")
        if isinstance(other, bool) or not isinstance(other, int) or not (
                0 <= other < self.players) or other == seat:
            raise TableError(400, f"mute another seat: a number from 0 to {self.players - 1}, "
                                  "not your own")
        if not isinstance(muted, bool):
            raise TableError(400, "muted must be true (hide the seat's messages) or false")
        async with self._changing():
            mutes = await self._stored("a mute", self.manager.storage.set_muted,
                                       self.id, seat, other, muted)
            self.mutes = list(mutes)
            self._notify({seat})
        return list(self.mutes[seat])

    async def _change_clock(self, change: ClockChange) -> bool:
        """Change the clock as ``change(clock, free, notices)`` says (None: no change), under
        the row's lock, against the stored clock and this table's state caught up with the
        stored actions; stored, then shown. True if it was changed. ``TableError`` 503 if
        the database cannot be reached."""
        for _attempt in range(3):
            async with self.lock:
                if self.closed:
                    return False
                try:
                    done = await self._stored("the clock", self.manager.storage.change_clock,
                                              self.id, _Behind.guard(change, self.step))
                except _Behind:
                    done = None
                else:
                    if done is None:
                        return False
                if done is not None:
                    self.clock, notices = done
                    self.notices = list(notices)
                    self._notify()
                    self.start_bots()
                    return True
            await self.sync()
        return False

    async def time_out(self) -> bool:
        """If the running decision's time has run out (issue 31), the clock's stand-in bot
        plays that seat from now on, told to every seat; True if it did."""
        now = self.manager.now()

        def change(clock: Clock, free: tuple[int, ...],
                   notices: tuple[str, ...]) -> tuple[Clock, tuple[str, ...]] | None:
            seat = clock.running
            if seat is None or not clock.due(now) or clock.step != self.step:
                return None
            colour = self.colours[seat]
            notice = (f"{colour}'s time ran out at decision {self.step + 1}: the "
                      f"{clock.rule.stand_in} bot decides for {colour} until they take the "
                      "seat back.")
            return clock.timed_out(), (*notices, notice)

        return await self._change_clock(change)

    async def take_back(self, seat: int | None) -> None:
        """``seat``'s person takes the seat back from the clock's stand-in (issue 31); if
        the decision is theirs, its time runs from now. ``TableError`` 403 for the spectator,
        409 if no stand-in plays the seat or the game is over, 503 if it cannot be stored."""
        if seat is None:
            raise TableError(403, "the spectator link has no seat to take back")
        if self.clock is None or seat not in self.clock.away:
            raise TableError(409, "no stand-in plays your seat: it is yours")
        if self.over or self.failure is not None:
            raise TableError(409, "the game is over")
        self.touch()

        def change(clock: Clock, free: tuple[int, ...],
                   notices: tuple[str, ...]) -> tuple[Clock, tuple[str, ...]] | None:
            if seat not in clock.away:
                return None
            notice = f"{self.colours[seat]} took the seat back at decision {self.step + 1}."
            return (clock.taken_back(seat, self.state.to_move, self._clocked(free), self.step,
                                     self.manager.now()), (*notices, notice))

        if not await self._change_clock(change) and (
                self.clock is not None and seat in self.clock.away):
            raise TableError(409, "the table changed meanwhile; try again")

    async def start_clock(self) -> None:
        """Start the clock once every seat is taken (issue 31): the decision under way, if a
        person's, is timed from now."""

        def change(clock: Clock, free: tuple[int, ...],
                   notices: tuple[str, ...]) -> tuple[Clock, tuple[str, ...]] | None:
            if free or clock.running is not None:
                return None
            started = clock.started(self.state.to_move, self._clocked(free), self.step,
                                    self.manager.now())
            return None if started == clock else (started, notices)

        if await self._change_clock(change):
            self._turn_began(None)  # issue 31: the first timed decision's seat is told

    def end(self) -> dict[str, Any] | None:
        """Once the game is over, what every end screen shows (issue 26), the same for every
        seat (``end_json``): ``points`` (what they count, ``GameType.points``), ``winners``,
        ``reason`` and ``seats``, one per seat, ``{"seat", "colour", "points", "parts":
        [{"label", "points", "detail"}], "result", "revealed": [{"what", "value"}], "notes"}``
        from ``Game.score_breakdown``; None while the game runs."""
        if not self.over:
            return None
        if self._end is None:
            self._end = end_json(self.state, self.colours)
        return self._end

    def choices(self, seat: int | None) -> list[dict[str, Any]]:
        """``seat``'s legal actions, as ``{"text", "json"}``, if the decision is its own; the
        game's usual choice (``Game.usual_choice``) also has ``"usual": true``, and
        ``"never_hurts": true`` when ``Game.never_hurts`` holds for it (issue 16). The game's
        plans follow (``Game.plans``, issue 27), as ``{"text", "json", "steps"}``: the page
        sends their steps one at a time, each as an action of its own."""
        if seat is None or self.failure is not None or self.state.to_move != seat:
            return []
        if self.clock is not None and seat in self.clock.away:
            return []  # issue 31: the stand-in decides until the seat is taken back
        actions = self.state.legal_actions()
        choices: list[dict[str, Any]] = [{"text": str(action), "json": action.to_json()}
                                         for action in actions]
        usual = self.game.usual_choice(self.state, actions)
        if usual is not None and 0 <= usual < len(choices):
            choices[usual]["usual"] = True
            if self.game.never_hurts(self.state, actions[usual]):
                choices[usual]["never_hurts"] = True
        choices.extend(plan.to_json() for plan in self.game.plans(self.state))
        return choices

    def about(self) -> dict[str, Any]:
        """What every seat is told of the table itself: practice, failure, notices, the
        game (its registry name, title, whether it has a browser board), whether the game
        is over, and ``options``, the game's options not at their default and its set-up
        choices (``Game.shown_options``; only if any). Issue 16, per seat: ``colours`` (the
        name each seat is known by), ``names`` (its person's name; null for a person not named
        yet and for a bot) and ``bots`` (a bot seat's level, such as "hard"; null for a
        person). Issue 26: ``replay``, the table's public replay id (``/replay/<id>``: no seat
        in it), and ``rematch``, whether a rematch has been set up (each seat's page asks for
        its own link to it, ``Tables.rematch``). Issue 30: ``hints_on``, whether a person
        may ask the coach for a hint, and ``hints``, every hint asked (``{"step", "seat"}``),
        which every seat sees. Issue 31: ``public``, whether the table is listed among the
        open tables, ``free``, its person seats nobody has taken yet, and ``spectators_chat``,
        whether the spectator link reads the chat; ``clock``, the table's clock
        (``Clock.reading``; null if it is untimed)."""
        about: dict[str, Any] = {"replay": self.replay, "rematch": self.rematch is not None,
                                 "practice": self.practice, "failed": self.failure,
                                 "notices": list(self.notices), "game": self.game.name,
                                 "title": self.game.display_name(), "board": self.board,
                                 "over": self.over, "colours": list(self.colours),
                                 "names": [name if kind == HUMAN else None
                                           for name, kind in zip(self.names, self.seats,
                                                                 strict=True)],
                                 "bots": [None if kind == HUMAN else kind
                                          for kind in self.seats],
                                 "hints_on": self.hints_allowed,
                                 "hints": [dict(h) for h in self.hints],
                                 "public": self.public, "free": list(self.free),
                                 "spectators_chat": self.spectators_chat,
                                 "clock": None if self.clock is None else
                                 self.clock.reading(self.manager.now(), bool(self.free))}
        if self.shown:
            about["options"] = dict(self.shown)
        return about

    async def set_name(self, seat: int | None, raw: Any) -> str:
        """Name ``seat``'s person (issue 16): ``raw`` cleaned by ``clean_name`` (400), for a
        person's seat only (403 for the spectator or a bot's seat); stored, then shown to every
        seat (other processes hear of it by ``NOTIFY``). The name kept."""
        if seat is None:
            raise TableError(403, "the spectator link can watch but has no name to set")
        if self.seats[seat] != HUMAN:
            raise TableError(403, "a bot plays this seat: only a person's seat has a name")
        name = clean_name(raw, "your name")
        async with self._changing():
            names = await self._stored("a name", self.manager.storage.set_name, self.id, seat, name)
            self.names = list(names)
            self._notify()
        return name

    def seat_taken(self, seat: int) -> None:
        """Note that free seat ``seat`` was taken (issue 31), and tell every seat."""
        if seat in self.free:
            self.free = tuple(s for s in self.free if s != seat)
            self._notify()

    def rematch_is(self, table_id: str) -> None:
        """Note that table ``table_id`` is this one's rematch, and tell every seat."""
        if self.rematch != table_id:
            self.rematch = table_id
            self._notify()

    def message(self, seat: int | None) -> str:
        """The WebSocket state message for ``seat``, as JSON text."""
        return json.dumps({"type": "state", **self.snapshot(seat)}, separators=(",", ":"))

    def subscribe(self, seat: int | None) -> asyncio.Queue[str | None]:
        """A queue of messages for ``seat``: the current state first, then one per change.

        ``None`` in the queue ends the connection (the table was closed, or the connection
        fell ``BACKLOG`` messages behind): the client reconnects for the current state.
        """
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        queue.put_nowait(self.message(seat))
        self.subscribers[queue] = seat
        self.touch()
        self.start_bots()
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str | None]) -> None:
        """Stop sending to ``queue``."""
        self.subscribers.pop(queue, None)
        self.touch()

    def _notify(self, only: set[int | None] | None = None) -> None:
        """Send the new state to every subscriber (or to the seats in ``only``; None stands
        for the spectator)."""
        messages: dict[int | None, str] = {}
        for queue, seat in list(self.subscribers.items()):
            if only is not None and seat not in only:
                continue
            if queue.qsize() >= BACKLOG:
                self.unsubscribe(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)
                continue
            if seat not in messages:
                messages[seat] = self.message(seat)
            queue.put_nowait(messages[seat])

    async def act(self, seat: int | None, step: int, action_json: Any) -> int:
        """Take ``seat``'s decision ``step`` (the number of actions it saw); the new step.

        Checked in order: a seat, not the spectator (403); the game not over (409); that
        seat's decision (403); the step current (409); the action readable (400) and legal
        (422). Then the action is stored, applied and sent to every subscriber. On a shared
        database the checks see every action stored by any process (``_take_shared``).
        """
        if seat is None:
            raise TableError(403, "the spectator link can watch but not decide")
        async with self._changing():
            if self.manager.shared:
                taken = await self._decide_shared(seat, step, action_json, None)
                if taken.error is not None:
                    raise taken.error
                return self.step
            action = self._check(self.state, self.step, self.failure, seat, step, action_json,
                                 self.clock)
            await self._accept(action)
            return self.step

    def _check(self, state: State, current: int, failure: str | None, seat: int, step: int,
               action_json: Any, clock: Clock | None = None, bot: bool = False) -> Any:
        """The action ``seat`` asks for at ``step`` if it may be taken in ``state`` (after
        ``current`` actions); else ``TableError`` in the order ``act`` documents. With a
        ``clock`` (issue 31), a person's seat is decided by its person unless a stand-in
        plays it, and then only by the stand-in (``bot``)."""
        if failure is not None:
            raise TableError(409, f"this table has failed: {failure}")
        if clock is not None and self.seats[seat] == HUMAN and (seat in clock.away) != bot:
            raise TableError(409, "the stand-in bot decides for you until you take your seat "
                                  "back" if not bot else "the person took the seat back")
        to_move = state.to_move
        if to_move is None:
            raise TableError(409, "the game is over: no decision is left to take")
        if to_move != seat:
            raise TableError(403, f"it is {self.colours[to_move]}'s decision, not yours")
        if step != current:
            if step < current:
                raise TableError(409, f"decision {step + 1} was already taken; "
                                      f"the table is at step {current}")
            raise TableError(409, f"step {step} has not been reached; "
                                  f"the table is at step {current}")
        try:
            action = self.game.action_from_json(action_json)
        except RecursionError:
            raise TableError(400, "the action is nested too deeply") from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise TableError(400, f"the action is malformed: {exc}") from None
        if action not in state.legal_actions():
            raise TableError(422, "that action is not one of your legal actions now")
        return action

    async def _decide_shared(self, seat: int, step: int, action_json: Any,
                             holder: str | None) -> _Taken:
        """Take a decision on a shared database (the caller holds the lock), then show what
        was found and taken; ``holder``: the bot lease a bot's decision needs."""
        taken = await run_in_threadpool(self._take_shared, seat, step, action_json, holder)
        self._adopt(taken.row, taken.steps)
        if taken.error is None and taken.steps:  # issue 31: stored here, so told from here
            self._turn_began(seat)
        return taken

    def _take_shared(self, seat: int, step: int, action_json: Any,
                     holder: str | None) -> _Taken:
        """In a worker thread, in one transaction holding the table's row lock: apply the
        actions other processes stored, check the decision against that state (and, for a
        bot, that ``holder`` holds the lease), store it and ``NOTIFY`` it. Memory is not
        changed here: ``_adopt`` does that on the event loop."""
        taken = _Taken()
        known = len(self.actions)
        found: list[tuple[Any, str | None, State]] = []
        try:
            with self.manager.storage.serialised(self.id, holder) as locked:
                taken.row = locked.row
                state = self.state
                for raw, digest in locked.actions_after(known):
                    state = state.copy()
                    state.apply(self.game.action_from_json(raw))
                    taken.steps.append((raw, digest, state))
                if holder is not None and not locked.leased:
                    taken.lost_lease = True
                    raise TableError(409, "another process moves this table's bots")
                current = known + len(taken.steps)
                clock = locked.row.clock
                action = self._check(state, current, locked.row.failure, seat, step,
                                     action_json, clock, holder is not None)
                after = state.copy()
                after.apply(action)
                digest = after.digest()
                if clock is not None:
                    clock = clock.decided(seat, after.to_move, self._clocked(locked.row.free),
                                          current + 1, self.manager.now())
                    taken.row = replace(locked.row, clock=clock)
                locked.add_action(current + 1, action.to_json(), digest, after.to_move is None,
                                  clock)
                found = list(taken.steps)
                taken.steps.append((action.to_json(), digest, after))
        except TableError as exc:
            taken.error = exc
        except Duplicate:
            taken.steps = found
            taken.error = TableError(409, f"decision {step + 1} was already taken")
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot take decision %d: %s", self.id, step + 1, exc)
            taken.steps = []
            taken.error = TableError(503, "the database cannot be reached; try again")
        return taken

    def _adopt(self, row: TableRow | None, steps: list[tuple[Any, str | None, State]]) -> None:
        """Make stored facts the table's: the row's seats, notices and failure, then each
        action in turn, every subscriber told after each. The caller holds the lock."""
        changed = False
        told: set[int | None] = set()  # issue 31: the seats whose chat changed
        if row is not None:
            seats, notices = list(row.seats), list(row.notices)
            if (seats, notices, row.failure) != (self.seats, self.notices, self.failure):
                self.seats, self.notices, self.failure = seats, notices, row.failure
                changed = True
            names: list[str | None] = list(row.names) or [None] * self.players
            if names != self.names:  # issue 16: a name set through another process
                self.names = names
                changed = True
            if row.rematch != self.rematch:  # issue 26: set up through another process
                self.rematch = row.rematch
                changed = True
            if list(row.hints) != self.hints:  # issue 30: asked through another process
                self.hints = [dict(h) for h in row.hints]
                changed = True
            self.webhooks = dict(row.webhooks)  # issue 31: set through another process
            if row.free != self.free:  # issue 31: a seat taken through another process
                self.free = row.free
                changed = True
            if row.clock != self.clock:  # issue 31: changed through another process
                self.clock = row.clock
                changed = True
            mutes = list(row.mutes) if row.mutes else self.mutes
            if list(row.chat) != self.chat or mutes != self.mutes:  # issue 31: elsewhere
                read = self._chat_read()
                self.chat, self.mutes = [dict(m) for m in row.chat], mutes
                told = {seat for seat, was in read.items() if was != self._chat_read()[seat]}
        for raw, digest, state in steps:
            self._note(state)
            self.state = state
            self.actions.append(raw)
            self.digests.append(digest)
            self._notify()
        if changed and not steps:
            self._notify()
        elif told and not steps:
            self._notify(told)
        if steps:
            self.touch()
            if self.over:
                self.manager.finished(self)
        if self.failure is not None:
            self.manager.cluster.let_go(self)
        self.start_bots()

    async def sync(self) -> None:
        """Catch up with the database (shared databases): the actions and changes other
        processes stored since this table was last read."""
        async with self.lock:
            if self.closed:
                return
            try:
                row, steps = await run_in_threadpool(self._read_since)
            except (StorageError, SQLAlchemyError) as exc:
                log.error("table %s: cannot catch up: %s", self.id, exc)
                return
            self._adopt(row, steps)

    def _read_since(self) -> tuple[TableRow, list[tuple[Any, str | None, State]]]:
        row, stored = self.manager.storage.since(self.id, len(self.actions))
        steps = []
        state = self.state
        for raw, digest in stored:
            state = state.copy()
            state.apply(self.game.action_from_json(raw))
            steps.append((raw, digest, state))
        return row, steps

    def sync_soon(self) -> None:
        """Catch up in the background (after a ``NOTIFY``); calls while one runs coalesce."""
        self._dirty = True
        if self.closed or (self._sync_task is not None and not self._sync_task.done()):
            return
        self._sync_task = asyncio.get_running_loop().create_task(self._sync_while_dirty())

    async def _sync_while_dirty(self) -> None:
        while self._dirty and not self.closed:
            self._dirty = False
            await self.sync()

    async def _accept(self, action: Any) -> None:
        """Take a legal action of ``to_move``; the caller holds the lock.

        The action is applied to a copy first (so an engine error changes nothing), then its
        row is committed, and only then does the copy become the state and go to subscribers.
        """
        after = self.state.copy()
        after.apply(action)
        action_json = action.to_json()
        n = self.step + 1
        finished = after.to_move is None
        digest = after.digest()
        clock = self.clock
        if clock is not None and self.state.to_move is not None:
            clock = clock.decided(self.state.to_move, after.to_move, self._clocked(self.free), n,
                                  self.manager.now())
        try:
            await run_in_threadpool(self.manager.storage.add_action, self.id, n, action_json,
                                    finished=finished, digest=digest, clock=clock)
        except Duplicate:
            self.manager.reload_later(self)
            raise TableError(409, f"decision {n} was already taken") from None
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot store action %d: %s", self.id, n, exc)
            self.manager.reload_later(self)
            raise TableError(503, "the database cannot be reached; try again") from None
        mover = self.state.to_move
        self._note(after)
        self.state = after
        self.clock = clock
        self.actions.append(action_json)
        self.digests.append(digest)
        self._notify()
        self._turn_began(mover)
        if finished:
            self.manager.finished(self)
        self.start_bots()

    def _note(self, after: State) -> None:
        """The seat to move in the table's state took the decision that leads to ``after``:
        note it in the history, and a person's decision begins a round of the bots' pace."""
        seat = self.state.to_move
        if seat is None:
            return
        self.history.add(seat, after)
        if self.seats[seat] == HUMAN:
            self.pace.person_decided(after.turn_count())

    def record(self) -> dict[str, Any]:
        """The record of a finished game; ``TableError`` 409 while it is being played."""
        if not self.over:
            raise TableError(409, "the record is served once the game is over")
        if None in self.digests:  # actions stored before digests were kept
            state = self.game.new_game(players=self.players, seed=self.seed, **self.options)
            digests = []
            for raw in self.actions:
                state.apply(self.game.action_from_json(raw))
                digests.append(state.digest())
            self.digests = list(digests)
        return Record(self.game.name, self.players, self.seed, dict(self.options),
                      actions=list(self.actions),
                      digests=[str(d) for d in self.digests],
                      meta={"table": self.id, "seats": list(self.seats),
                            "hints": [dict(h) for h in self.hints],
                            **self._clock_meta()}).to_json()

    def _clock_meta(self) -> dict[str, Any]:
        """What a record keeps of the table's clock (issue 31): its rule, each person's
        decision's time (``took``: step, seat, seconds) and the decisions the stand-in took
        (``stand_in``: step, seat); nothing for an untimed table."""
        if self.clock is None:
            return {}
        return {"clock": {"rule": self.clock.rule.to_json(),
                          "took": [list(t) for t in self.clock.took],
                          "stand_in": [list(s) for s in self.clock.stood_in]}}

    async def hint(self, seat: int | None, step: int) -> dict[str, Any]:
        """The coach's hint for ``seat``'s decision ``step`` (issue 30), ``Hint.to_json``
        with ``"step"``: worked out in the bot pool from the seat's own information, then
        recorded in the table's hints (stored, and shown to every seat) before it is
        returned, to the asker only. Asked again for the same decision, the same hint is
        returned and not recorded again. Refused with ``TableError``, nothing changed: the
        spectator (403), hints not allowed (403), the table failed or the game over (409),
        another seat's decision (403), a step not current (409), a hint of this seat's
        already being worked out (429), the decision taken meanwhile (409), the coach
        failing or too slow (503)."""
        if seat is None:
            raise TableError(403, "the spectator link can watch but not ask for hints")
        self.touch()
        if not self.hints_allowed:
            raise TableError(403, "hints are not allowed at this table")
        if self.failure is not None:
            raise TableError(409, f"this table has failed: {self.failure}")
        to_move = self.state.to_move
        if to_move is None:
            raise TableError(409, "the game is over: there is no decision to give a hint for")
        if to_move != seat:
            raise TableError(403, f"it is {self.colours[to_move]}'s decision, not yours: a "
                                  "hint is for your own decision")
        if step != self.step:
            raise TableError(409, f"the table is at step {self.step}, not {step}")
        last = self._last_hint.get(seat)
        if last is not None and last[0] == step:
            return last[1]
        if seat in self._hinting:
            raise TableError(429, "the coach is already working on your hint")
        self._hinting.add(seat)
        try:
            try:
                found: dict[str, Any] = await self.manager.pool.run(
                    hint_json, self.game.name, self.state.position(), seat, self.seed, step)
            except TimeoutError:
                raise TableError(503, "the coach took too long; try again") from None
            except Exception as exc:
                log.error("table %s: the coach failed at step %d: %r", self.id, step, exc)
                raise TableError(503, "the coach failed; try again") from None
            async with self.lock:
                if self.closed:
                    raise TableError(503, "the table is being reloaded; try again")
                if self.step != step:
                    raise TableError(409, "the decision was taken before the hint was ready")
                hints = await self._stored("a hint", self.manager.storage.add_hint,
                                           self.id, step, seat)
                self.hints = [dict(h) for h in hints]
                self._notify()
        finally:
            self._hinting.discard(seat)
        answer = {"step": step, **found}
        self._last_hint[seat] = (step, answer)
        return answer

    @property
    def analysed(self) -> bool:
        """True once the finished game's analysis is worked out and kept."""
        task = self._analysis
        return (task is not None and task.done() and not task.cancelled()
                and task.exception() is None)

    async def analysis(self) -> dict[str, Any]:
        """The coach's analysis of the finished game (issue 30): ``Analysis.to_json`` and its
        turning points in words (``lines``), worked out once in the bot pool and kept.
        ``TableError`` 409 while the game runs (it would show hidden information), 503 if
        the coach fails or takes longer than ``ANALYSIS_TIME_LIMIT`` seconds."""
        if not self.over:
            raise TableError(409, "the analysis is served once the game is over: during the "
                                  "game it would show hidden information")
        self.touch()
        if self._analysis is None or (self._analysis.done() and (
                self._analysis.cancelled() or self._analysis.exception() is not None)):
            self._analysis = asyncio.get_running_loop().create_task(self._analyse())
        return await asyncio.shield(self._analysis)

    async def _analyse(self) -> dict[str, Any]:
        record = await run_in_threadpool(self.record)
        try:
            found: dict[str, Any] = await self.manager.pool.run(
                analysis_json, record, time_limit=ANALYSIS_TIME_LIMIT)
        except TimeoutError:
            raise TableError(503, "the analysis took too long") from None
        except Exception as exc:
            log.error("table %s: the analysis failed: %r", self.id, exc)
            raise TableError(503, "the analysis failed; try again") from None
        found["colours"] = list(self.colours)
        found["replay"] = self.replay
        found["title"] = self.game.display_name()
        return found

    def record_name(self) -> str:
        """The file name a downloaded record gets (issue 26): the game, the day the table was
        made and the table, e.g. ``<game>-2026-11-27-table-<id>.json``."""
        return f"{self.game.name}-{self.created:%Y-%m-%d}-table-{self.id}.json"

    def _state_after(self, n: int) -> State:
        """A new copy of the state after the first ``n`` actions, replayed from the nearest
        of the copies kept every ``CHECKPOINT`` actions (made as they are first needed; a
        lock keeps threads from making them twice)."""
        with self._checkpoint_lock:
            if not self._checkpoints:
                self._checkpoints = [self.game.new_game(players=self.players, seed=self.seed,
                                                        **self.options)]
            while len(self._checkpoints) <= n // CHECKPOINT:
                k = len(self._checkpoints)
                state = self._checkpoints[-1].copy()
                for raw in self.actions[(k - 1) * CHECKPOINT:k * CHECKPOINT]:
                    state.apply(self.game.action_from_json(raw))
                self._checkpoints.append(state)
            state = self._checkpoints[n // CHECKPOINT].copy()
        for raw in self.actions[n // CHECKPOINT * CHECKPOINT:n]:
            state.apply(self.game.action_from_json(raw))
        return state

    def replay_step(self, step: int) -> dict[str, Any]:
        """What a spectator saw after ``step`` actions (issue 26: during the game too): the
        public view and log, the colour of the seat that took action ``step`` (``by``; None at
        step 0), ``last_move`` (``Game.last_move`` of that state; issue 16) and ``moves``,
        action ``step`` as a move (``core.moves.one_move``; none at step 0). Once the game
        is over also the text of action ``step`` (``action``; during the game None: a hidden
        choice stays hidden) and, at the last step, ``end`` (``end``: what the end screen
        shows). ``steps``: the actions taken so far; ``over``: whether the game has ended;
        ``table``: what every seat is told of the table (``about``).

        ``TableError`` 400 for a step out of range.
        """
        steps, over = self.step, self.over
        if not 0 <= step <= steps:
            raise TableError(400, f"step must be 0 to {steps}, not {step}")
        state = self._state_after(max(step - 1, 0))  # the state before action ``step``
        action: str | None = None
        by: str | None = None
        moves: list[dict[str, Any]] = []
        if step > 0:
            seat = state.to_move
            assert seat is not None
            taken = self.game.action_from_json(self.actions[step - 1])
            action, by = (str(taken) if over else None), self.colours[seat]
            previous = state.copy()
            state.apply(taken)
            moves.append(one_move(by, previous, state))
        clock = None
        if self.clock is not None:  # issue 31: the clocks as they stood after the step
            clock = {**self.clock.rule.to_json(), "reserves": self.clock.reserves_after(step),
                     **(self.clock.mark(step) or {})}
        return {"step": step, "steps": steps, "over": over, "table": self.about(),
                "view": state.view(None), "log": state.log(SPECTATOR), "action": action,
                "by": by, "last_move": self.game.last_move(state), "moves": moves,
                "end": self.end() if over and step == steps else None, "clock": clock}

    def _past_bot_limits(self) -> str | None:
        """Why a table of bots only must stop now (issue 24: ``Limits.bot_table_steps`` and
        ``bot_table_hours``), or None while it may go on or has a person."""
        if any(kind == HUMAN for kind in self.seats):
            return None
        limits = self.manager.limits
        if self.step >= limits.bot_table_steps:
            return (f"stopped: a table of bots only may take at most "
                    f"{limits.bot_table_steps} decisions")
        if datetime.now(UTC) - self.created > timedelta(hours=limits.bot_table_hours):
            return (f"stopped: a table of bots only may play for at most "
                    f"{limits.bot_table_hours:g} hours")
        return None

    def closed_as(self, failure: str) -> None:
        """The table was closed in the database (``Tables.retain``): show it and stop."""
        self.failure = failure
        self._notify()
        self.manager.cluster.let_go(self)

    def _bot_to_move(self) -> int | None:
        seat = self.state.to_move
        if seat is None or self.failure is not None or self._player(seat) == HUMAN:
            return None
        return seat

    def _player(self, seat: int) -> str:
        """Who decides for ``seat``: its bot's level, the clock's stand-in for a person whose
        time ran out (issue 31), else ``HUMAN``."""
        if self.seats[seat] == HUMAN and self.clock is not None and seat in self.clock.away:
            return self.clock.rule.stand_in
        return self.seats[seat]

    def _clocked(self, free: tuple[int, ...]) -> set[int]:
        """The person seats whose time may run (issue 31): none while a seat is free."""
        return set() if free else {s for s, kind in enumerate(self.seats) if kind == HUMAN}

    def start_bots(self) -> None:
        """Let the bots move if one is to decide (nothing if they already are, or, on a
        shared database, while another process holds the table's bot lease)."""
        if self.closed or self._bot_to_move() is None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self.manager.shared and time.monotonic() < self._lease_wait_until:
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Bots decide in the pool without holding the table's lock; a decision is taken
        only if the table is still at the step it was made for (and, on a shared database,
        while this process holds the table's bot lease)."""
        try:
            while not self.closed and self._bot_to_move() is not None:
                if self.manager.shared and not await self.manager.cluster.lease(self):
                    return
                stopped = self._past_bot_limits()
                if stopped is not None:
                    await self._fail(stopped)
                    return
                mover = self._bot_to_move()
                if mover is not None:
                    wait = self.pace.pause(mover, self.history.last_seat,
                                           self.state.turn_count())
                    if wait > 0:
                        await self.manager.sleep(wait)
                seat = self._bot_to_move()
                if seat is None or self.closed:
                    return
                step, spec = self.step, self._player(seat)
                try:
                    chosen = await self.manager.pool.decide(self.state, seat, spec, self.seed,
                                                            step)
                    action = self.game.action_from_json(chosen)
                except BotFailure as exc:
                    await self._bot_failed(seat, spec, exc.reason)
                    continue
                except ValueError:
                    await self._bot_failed(seat, spec, "answered with an unreadable action")
                    continue
                async with self.lock:
                    if self.closed or self.step != step or self._bot_to_move() != seat:
                        continue
                    self.touch()
                    if self.manager.shared:
                        await self._bot_decides_shared(seat, spec, step, chosen)
                        continue
                    if action not in self.state.legal_actions():
                        await self._bot_failed(seat, spec, "chose an illegal action")
                        continue
                    await self._accept(action)
        except asyncio.CancelledError:
            raise
        except TableError as exc:
            log.error("table %s: a bot could not move: %s", self.id, exc.message)
        except Exception:
            log.exception("table %s: a bot failed", self.id)
            await self._fail("the server failed while a bot was moving")

    async def _bot_decides_shared(self, seat: int, spec: str, step: int, chosen: Any) -> None:
        """Take a bot's decision on a shared database (the caller holds the lock)."""
        taken = await self._decide_shared(seat, step, chosen, self.manager.cluster.holder)
        if taken.lost_lease:
            self.manager.cluster.lost_lease(self)
        elif taken.error is None:
            return
        elif taken.error.status in (400, 422):
            await self._bot_failed(seat, spec, "chose an illegal action")
        elif taken.error.status == 503:
            await asyncio.sleep(TICK)  # the database is away: try again

    async def _bot_failed(self, seat: int, spec: str, reason: str) -> None:
        """Seat ``seat``'s bot failed: the fallback bot takes over, or, if it was the
        fallback that failed, the table fails. Stored and told to every seat."""
        log.warning("table %s: the bot of seat %d (%s) %s", self.id, seat, spec, reason)
        who = f"{self.colours[seat]}'s bot ({spec})"
        if spec == FALLBACK_BOT or self.seats[seat] == HUMAN:
            await self._fail(f"{who} {reason}; the game cannot go on")
            return
        seats = [FALLBACK_BOT if s == seat else kind for s, kind in enumerate(self.seats)]
        notice = (f"{who} {reason}; the {FALLBACK_BOT} bot plays for "
                  f"{self.colours[seat]} from now on.")
        await self._store_about(seats=seats, notices=[*self.notices, notice])

    async def _fail(self, failure: str) -> None:
        """Mark the table failed: no decision is taken any more."""
        await self._store_about(failure=failure)

    async def _store_about(self, *, seats: list[str] | None = None,
                           notices: list[str] | None = None,
                           failure: str | None = None) -> None:
        """Store a change of seats, notices or failure, then show it (memory follows the
        database; if it cannot be written, the table fails in memory only)."""
        try:
            await run_in_threadpool(self.manager.storage.update_table, self.id, seats=seats,
                                    notices=notices, failure=failure)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot store its change: %s", self.id, exc)
            failure = failure or "the database could not be reached"
        if seats is not None:
            self.seats = seats
        if notices is not None:
            self.notices = notices
        if failure is not None:
            self.failure = failure
        self._notify()
        if self.failure is not None:
            self.manager.cluster.let_go(self)

    async def close(self) -> None:
        """Stop the bots and end every subscription."""
        self.closed = True
        for task in (self._bot_task, self._sync_task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for queue in list(self.subscribers):
            queue.put_nowait(None)
        self.subscribers.clear()


class Tables:
    """Every live table of a server, loaded from ``storage`` when first needed."""

    def __init__(self, storage: Storage, bot_delay: float = TURN, pool: BotPool | None = None,
                 limits: Limits | None = None, idle_seconds: float = IDLE_SECONDS,
                 setup_pool: WorkerPool | None = None, round_pause: float = ROUND,
                 webhooks: Webhooks | None = None) -> None:
        """``setup_pool``: where new tables are set up (default: one worker process, each
        set-up within ``SETUP_TIME_LIMIT`` seconds). ``bot_delay``: a bot's pause before its
        turn; ``round_pause``: the most pause of a round (``BotPace``). ``webhooks``: what
        sends the webhooks of turn-based seats (issue 31; default: public addresses only)."""
        if not idle_seconds > 0:
            raise ValueError("the idle time (--idle-seconds) must be more than 0 seconds")
        if bot_delay < 0 or round_pause < 0:
            raise ValueError("the bots' pauses must be 0 or more seconds")
        self.storage = storage
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How a bot waits (a test may count the pauses instead)."""
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        """The time the clocks read (issue 31; a test may move it on)."""
        self.pool = pool or BotPool()
        self.setup_pool = setup_pool or WorkerPool(1, SETUP_TIME_LIMIT)
        self.limits = limits or Limits()
        self.idle_seconds = idle_seconds
        self.shared = storage.shared
        self._live: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._missed: set[str] = set()
        self._tokens: dict[str, tuple[str, int]] = {}
        self._replays: dict[str, str] = {}
        self._finished: dict[str, None] = {}
        self._starting: asyncio.Task[None] | None = None
        self._retaining: asyncio.Task[None] | None = None
        self._open_list: tuple[float, bytes] | None = None
        """The open tables last read (``open_tables``) and when (``time.monotonic()``)."""
        self._open_reading: tuple[int, asyncio.Task[bytes]] | None = None
        """The read of the open tables under way, with the generation it started in."""
        self._open_generation = 0
        """Counts the drops of the open tables read (``forget_open_tables``)."""
        self.webhooks = webhooks or Webhooks()
        """Checks and sends the webhooks of turn-based seats (issue 31)."""
        self.cluster = Cluster(self)
        """Leases, ``LISTEN``, the sweep and idle eviction (``citywatch/server/cluster.py``)."""

    async def create(self, game: Any, seats: Any, seed: Any = None,
                     practice: Any = False, options: Any = None,
                     names: Any = None, address: str | None = None,
                     hints: Any = None, public: Any = False,
                     spectators_chat: Any = False, clock: Any = None) -> dict[str, Any]:
        """Create a table; its id, seats with links (and names), the spectator link and its
        options.

        Without ``seed`` the table's generator is keyed by 256 secret bits. A chosen seed is
        known to its creator, so with more than one person ``practice`` must be true, and
        every seat's page says the seed is known. ``options`` (an object) are the game's,
        stored with the table. ``names`` (issue 16): one per seat, a person's name or null
        (``parse_names``). ``hints`` (issue 30): whether a person may ask the coach for
        hints, true or false (None: yes with exactly one person, no with more,
        ``hints_by_default``). ``public`` (issue 31): true lists the table among the open
        tables while a person seat other than the creator's (the first) is free; those seats'
        links are given only to whoever takes them (``take_seat``), not here.
        ``spectators_chat`` (issue 31): whether the spectator link reads the table's chat,
        true or false (None: false). ``clock`` (issue 31): None for an untimed table, else a
        live or turn-based clock (``clocks.parse_clock``); a table with a clock needs a person.
        ``TableError`` 400 if the game, the seats, the seed, ``practice``, the options, the
        names, ``hints``, ``public``, ``spectators_chat`` or ``clock`` are not valid; 429 if
        ``address`` (the creator's) already has ``Limits.open_tables_per_address``
        unfinished tables; 503 if the server holds too many open tables. The options are
        checked and the game set up in the set-up pool (``_build``), never on the event loop.
        """
        if not isinstance(game, str) or game not in game_names():
            raise TableError(400, f"unknown game {game!r}; known games: "
                                  f"{', '.join(game_names())}")
        g = load(game)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise TableError(400, 'seats must be a list such as ["human", "heuristic"]')
        if not g.min_players <= len(seats) <= g.max_players:
            raise TableError(400, f"{game} is for {g.min_players} to {g.max_players} seats, "
                                  f"not {len(seats)}")
        specs = [s.strip().lower() for s in seats]
        offered = server_bots(game)
        for spec in specs:
            if spec != HUMAN and spec not in offered:
                raise TableError(400, f"seat {spec[:40]!r}: a seat is \"human\" or one of "
                                      f"the bots {', '.join(offered)} (no options)")
        if not isinstance(practice, bool):
            raise TableError(400, "practice must be true or false")
        named = parse_names(names, specs)
        if hints is None:
            hints = hints_by_default(specs, HUMAN)
        elif not isinstance(hints, bool):
            raise TableError(400, "hints must be true (allowed) or false (not allowed), or "
                                  "left out (allowed with one person, not with more)")
        if not isinstance(public, bool):
            raise TableError(400, "public must be true (listed among the open tables) or "
                                  "false (private links only)")
        free = [seat for seat, spec in enumerate(specs) if spec == HUMAN][1:]
        if public and not free:
            raise TableError(400, "a public table needs a second person's seat for someone "
                                  "to take")
        if spectators_chat is None:
            spectators_chat = False
        elif not isinstance(spectators_chat, bool):
            raise TableError(400, "spectators_chat must be true (the spectator link reads the "
                                  "chat) or false (it does not), or left out (false)")
        if seed is None:
            if practice:
                raise TableError(400, "a practice table is one with a chosen seed: "
                                      "give the seed too")
            seed = new_secret_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TableError(400, f"seed must be a whole number from 0 to {MAX_SEED}")
        elif specs.count(HUMAN) > 1 and not practice:
            raise TableError(400, "whoever chooses the seed can know every hidden card: with "
                                  "more than one person, leave the seed out or make it a "
                                  "practice table (\"practice\": true)")
        try:
            rule = parse_clock(clock, offered)
        except ClockError as exc:
            raise TableError(400, str(exc)) from None
        if rule is not None and HUMAN not in specs:
            raise TableError(400, "a clock times people's decisions: this table has no person")
        creator = None if address is None else address_hash(address)
        table, tokens, built = await self._open(game, specs, seed, options, named, creator,
                                                hints_allowed=hints,
                                                free=free if public else None,
                                                spectators_chat=spectators_chat, clock=rule)
        if public:
            self.forget_open_tables()
        links = {seat: f"/play/{token}" for token, seat in tokens.items()
                 if not (public and seat in free)}
        return {
            "table": table.id,
            "public": public,
            "seats": [
                {"seat": seat, "colour": table.colours[seat], "kind": spec,
                 "link": links.get(seat), "name": named[seat],
                 "free": public and seat in free}
                for seat, spec in enumerate(specs)
            ],
            "spectator": links[SPECTATOR],
            "replay": f"/replay/{table.replay}",
            "practice": table.practice,
            "options": built.values,
            "hints": table.hints_allowed,
            "spectators_chat": table.spectators_chat,
            "clock": None if table.clock is None else table.clock.rule.to_json(),
        }

    async def _open(self, game: str, specs: list[str], seed: Seed, options: Any,
                    named: list[str | None], creator: str | None,
                    rematch_of: str | None = None, hints_allowed: bool | None = None,
                    free: list[int] | None = None, spectators_chat: bool = False,
                    clock: ClockRule | None = None) -> tuple[LiveTable, dict[str, int], Built]:
        """Set up and store a new table of checked seats, names and seed (``create``): its
        live table, its tokens (token -> seat, ``SPECTATOR`` for the spectator) and what
        its set-up built. ``rematch_of``: the table it is the rematch of (``RematchTaken``
        if that one has a rematch already: nothing is stored); ``hints_allowed``: None for
        the default (``hints_by_default``); ``free``: a public table's seats left to take
        (issue 31; None: a private table); ``clock``: its clock's rule (issue 31), whose time
        starts at once unless a seat is free."""
        if hints_allowed is None:
            hints_allowed = hints_by_default(specs, HUMAN)
        await self._check_room(creator)
        built = await self._build(game, len(specs), seed, options)
        state, chosen = built.state, built.options
        assert state is not None
        table_id = secrets.token_urlsafe(9)
        tokens = {secrets.token_urlsafe(32): seat
                  for seat, spec in enumerate(specs) if spec == HUMAN}
        spectator = secrets.token_urlsafe(32)
        tokens[spectator] = SPECTATOR
        replay_id = new_replay_id()
        lease = self.cluster.new_lease(any(spec != HUMAN for spec in specs))
        timed = None
        if clock is not None:
            people = set() if free else {s for s, spec in enumerate(specs) if spec == HUMAN}
            timed = Clock.new(clock, len(specs)).started(state.to_move, people, 0,
                                                         self.now())
        try:
            await run_in_threadpool(self.storage.create_table, table_id, game, len(specs), seed,
                                    specs, tokens, chosen, lease, named, creator, replay_id,
                                    rematch_of, hints_allowed, free, spectators_chat, timed)
        except RematchTaken:
            raise
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot store a new table: %s", exc)
            raise TableError(503, "the database cannot be reached; try again") from None
        if lease is not None:
            self.cluster.hold(table_id)
        for token, seat in tokens.items():
            self._tokens[token] = (table_id, seat)
        row = TableRow(table_id, game, len(specs), seed, specs, datetime.now(UTC), False,
                       options=chosen, names=tuple(named), replay=replay_id,
                       hints_allowed=hints_allowed, public=free is not None,
                       free=tuple(free or ()), spectators_chat=spectators_chat, clock=timed)
        table = LiveTable(self, row, state, [], built.shown)
        if table.practice:
            log.info("table %s: a practice table (its seed was chosen)", table_id)
        self._live[table_id] = table
        table.start_bots()
        return table, tokens, built

    async def rematch(self, token: str, address: str | None = None,
                      count: Callable[[], None] | None = None) -> dict[str, Any]:
        """The link of ``token``'s own seat at the rematch of its finished table (issue 26):
        the same game, options, seats (each bot at its level, each person at the same place,
        with the same name) and a new secret seed. The first person to ask sets it up (it
        counts as a table they create: ``TableError`` 429 or 503 at the limits); every other
        person gets their own seat's new link by asking with their own link, and the
        spectator link the rematch's spectator link, once it exists. A link only ever leads to
        the seat it held, so nobody can get another person's seat. ``count`` is called just
        before a rematch is set up (the server's creation rate; it may raise).

        ``{"table": id, "link": "/play/<token>", "created": whether this call set it up}``.
        ``TableError`` 404 for an unknown token, 409 while the game is being played (and for
        the spectator link before a person has set a rematch up).
        """
        table, seat = await self.resolve(token)
        if not table.over:
            raise TableError(409, "a rematch can be set up once the game is over")
        created = False
        if table.rematch is None:
            if seat is None:
                raise TableError(409, "nobody has set up a rematch yet: a player at the table "
                                      "can, from their own link")
            creator = None if address is None else address_hash(address)
            if count is not None:
                count()
            try:
                new, _tokens, _built = await self._open(
                    table.game.name, list(table.seats), new_secret_seed(),
                    dict(table.options), list(table.names), creator, rematch_of=table.id,
                    hints_allowed=table.hints_allowed,
                    spectators_chat=table.spectators_chat,
                    clock=None if table.clock is None else table.clock.rule)
                table.rematch_is(new.id)
                created = True
            except RematchTaken as taken:
                table.rematch_is(taken.rematch)
        assert table.rematch is not None
        try:
            found = await run_in_threadpool(self.storage.tokens, table.rematch)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot read the rematch of table %s: %s", table.id, exc)
            raise TableError(503, "the database cannot be reached; try again") from None
        mine = found.get(SPECTATOR if seat is None else seat)
        if mine is None:
            raise TableError(404, "the rematch has no seat for this link")
        return {"table": table.rematch, "link": f"/play/{mine}", "created": created}

    async def open_tables(self) -> bytes:
        """The open tables (issue 31), as the JSON body ``{"tables": [...]}`` (encoded once
        per read): at most ``MAX_OPEN_LISTED`` public tables with a free person seat, newest
        first, each with its game and title, the person seats taken of the person seats, the
        seats (``"human"`` or a bot's level), the free seats, the options its header shows
        (``Game.shown_options``), when it was made (ISO 8601) and its clock's rule.
        Read from the database in a thread, so every process lists the same, at most once
        per ``OPEN_LIST_SECONDS`` in a process: requests meanwhile share the last read, or the
        read under way (``forget_open_tables`` drops them)."""
        kept = self._open_list
        if kept is not None and time.monotonic() - kept[0] < OPEN_LIST_SECONDS:
            return kept[1]
        reading = self._open_reading
        if reading is None or reading[0] != self._open_generation:
            reading = (self._open_generation, asyncio.create_task(self._read_open()))
            self._open_reading = reading
        try:
            return await asyncio.shield(reading[1])
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot list the open tables: %s", exc)
            raise TableError(503, "the database cannot be reached; try again") from None

    async def _read_open(self) -> bytes:
        """Read the open tables, kept for ``open_tables`` unless dropped meanwhile."""
        generation, started = self._open_generation, time.monotonic()
        try:
            found = await run_in_threadpool(self._list_open)
        finally:
            if self._open_reading is not None and self._open_reading[0] == generation:
                self._open_reading = None
        if generation == self._open_generation:
            self._open_list = (started, found)
        return found

    def forget_open_tables(self) -> None:
        """Drop the open tables read and any read under way: the next request reads them
        again (a public table was made or a take tried in this process)."""
        self._open_list = None
        self._open_generation += 1

    def _list_open(self) -> bytes:
        found = [_open_json(row) for row in self.storage.open_tables(MAX_OPEN_LISTED)
                 if row.game in game_names()]
        return json.dumps({"tables": found}, ensure_ascii=False,
                          separators=(",", ":")).encode()

    async def take_seat(self, table_id: Any, body: Any) -> dict[str, Any]:
        """Take a free seat of an open table (issue 31), ``body`` as ``parse_take`` reads it.
        ``{"table", "seat", "colour", "link"}``: the seat's private link, given to nobody
        else. ``TableError`` 400 for a bad body, 404 for a table that is not
        open, 409 if the seat (or every seat) was taken or the game is over."""
        seat, name = parse_take(body)
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            raise TableError(404, "there is no open table with this id")
        try:
            taken, token = await run_in_threadpool(self.storage.take_seat, table_id, seat)
        except SeatTaken as exc:
            self.forget_open_tables()  # the list that offered the seat is out of date
            raise TableError(409, f"{exc}; choose another open table") from None
        except StorageError:
            raise TableError(404, "there is no open table with this id") from None
        except SQLAlchemyError as exc:
            log.error("cannot take a seat at table %s: %s", table_id, exc)
            raise TableError(503, "the database cannot be reached; try again") from None
        self._tokens[token] = (table_id, taken)
        self.forget_open_tables()
        table = await self.get(table_id)
        table.seat_taken(taken)
        if table.clock is not None and not table.free:
            await table.start_clock()
        if name is not None:
            await table.set_name(taken, name)
        return {"table": table_id, "seat": taken, "colour": table.colours[taken],
                "link": f"/play/{token}"}

    async def resolve_replay(self, key: str) -> LiveTable:
        """The live table of a public replay id (issue 26), or of a seat's or the spectator's
        token (older links); ``TableError`` 404 if ``key`` is neither."""
        if key in self._tokens:  # a token known here: no need to ask the database
            table, _seat = await self.resolve(key)
            return table
        table_id = self._replays.get(key)
        if table_id is None:
            try:
                table_id = await run_in_threadpool(self.storage.replay_table, key)
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot look up a replay id: %s", exc)
                raise TableError(503, "the database cannot be reached; try again") from None
            if table_id is None:
                table, _seat = await self.resolve(key)
                return table
            self._replays[key] = table_id
        table = await self.get(table_id)
        if self.shared:
            await table.sync()
        return table

    async def _build(self, game: str, players: int, seed: Seed, options: Any) -> Built:
        """The checked options and first state of a new table (``setup.build``), made in the
        set-up pool within its time limit: ``TableError`` 400 for options that are not valid
        or take too long to set up, 503 if the pool fails."""
        try:
            built: Built = await self.setup_pool.run(build, game, GAMES[game], players, seed,
                                                     options)
        except TimeoutError:
            raise TableError(400, f"setting up this table took longer than "
                                  f"{self.setup_pool.time_limit:g} seconds; choose other "
                                  "options") from None
        except Exception as exc:
            log.error("cannot set up a table of %s: %r", game, exc)
            raise TableError(503, "the server could not set up the table; try again") from None
        if built.error is not None:
            raise TableError(400, built.error)
        return built

    async def _check_room(self, creator: str | None) -> None:
        """``TableError`` 429 if ``creator`` (an address's hash) already keeps its limit of
        open tables, 503 if the server keeps its own."""
        since = datetime.now(UTC) - timedelta(days=self.limits.open_days)
        try:
            count = await run_in_threadpool(self.storage.count_unfinished, since)
            own = (0 if creator is None else
                   await run_in_threadpool(self.storage.count_unfinished, since, creator))
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot count the open tables: %s", exc)
            raise TableError(503, "the database cannot be reached; try again") from None
        if own >= self.limits.open_tables_per_address:
            raise TableError(429, f"your address already has {own} unfinished games, its "
                                  "limit; finish one, or wait until an abandoned one is "
                                  f"closed ({self.limits.abandon_hours:g} hours without a "
                                  "move)")
        if count >= self.limits.open_tables:
            raise TableError(503, f"this server already keeps {count} unfinished games, its "
                                  "limit; try again when some have finished")

    async def resolve_any(self, key: str) -> LiveTable:
        """The live table of a public replay id, a seat's or the spectator's token, or a
        table's id (issue 30: the analysis page); ``TableError`` 404 if ``key`` is none."""
        try:
            return await self.resolve_replay(key)
        except TableError as exc:
            if exc.status != 404 or not 0 < len(key) <= 64:
                raise
        return await self.get(key)

    async def resolve(self, token: str, fresh: bool = True) -> tuple[LiveTable, int | None]:
        """The live table and seat of ``token`` (``None``: the spectator); 404 if unknown.

        On a shared database the table first catches up with what other processes stored,
        unless ``fresh`` is false (a decision catches up by itself)."""
        found = self._tokens.get(token)
        if found is None:
            try:
                found = await run_in_threadpool(self.storage.token, token)
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot look up a token: %s", exc)
                raise TableError(503, "the database cannot be reached; try again") from None
            if found is None:
                raise TableError(404, "this link does not belong to any table")
            self._tokens[token] = found
        table_id, seat = found
        table = await self.get(table_id)
        if self.shared and fresh:
            await table.sync()
        return table, (None if seat == SPECTATOR else seat)

    async def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, replayed from the database on first use."""
        table = self._live.get(table_id)
        if table is not None:
            table.touch()
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self._live.get(table_id)
                if table is None:
                    self._missed.discard(table_id)
                    table = await run_in_threadpool(self._load, table_id)
                    self._live[table_id] = table
                    table.start_bots()
                    if table.over:
                        self.finished(table)
                    if table_id in self._missed:  # a NOTIFY came while it loaded
                        table.sync_soon()
        finally:
            self._loading.pop(table_id, None)
            self._missed.discard(table_id)
        return table

    def _load(self, table_id: str) -> LiveTable:
        try:
            row = self.storage.table(table_id)
            if row is None:
                raise TableError(404, "this link does not belong to any table")
            stored = self.storage.actions_and_digests(table_id)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot load table %s: %s", table_id, exc)
            raise TableError(503, "the database cannot be reached; try again") from None
        taken = [action for action, _digest in stored]
        try:
            state, history = replay_with_history(Record(row.game, row.players, row.seed,
                                                        dict(row.options), actions=taken))
        except InvalidRecord as exc:
            log.error("table %s does not replay: %s", table_id, exc)
            raise TableError(500, "this table's stored game cannot be replayed") from None
        row = self._offered_seats(row, state)
        table = LiveTable(self, row, state, taken, history=history)
        table.digests = [digest for _action, digest in stored]
        if table.over and not row.finished:
            try:
                self.storage.mark_finished(table_id)
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot mark table %s finished: %s", table_id, exc)
        return table

    def _offered_seats(self, row: TableRow, state: State) -> TableRow:
        """``row`` with every stored bot a level the server offers (a table stored by an
        earlier version may name any options): changed seats are stored and noticed."""
        seats = [spec if spec == HUMAN else offered_bot(spec, row.game) for spec in row.seats]
        if seats == row.seats:
            return row
        notices = list(row.notices)
        for seat, (old, new) in enumerate(zip(row.seats, seats, strict=True)):
            if old != new:
                notices.append(f"{colour_of(state, seat)}'s bot ({old[:60]}) is not offered by "
                               f"this server; the {new} bot plays for it.")
        try:
            self.storage.update_table(row.id, seats=seats, notices=notices)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot store the seats of table %s: %s", row.id, exc)
        return replace(row, seats=seats, notices=tuple(notices))

    def reload_later(self, table: LiveTable) -> None:
        """Forget ``table`` so that its next use replays it from the database."""
        if self._live.get(table.id) is table:
            del self._live[table.id]
        self.cluster.background(table.close())

    async def act(self, token: str, step: int, action_json: Any) -> int:
        """Take the decision of ``token``'s seat (see ``LiveTable.act``); 404 if unknown."""
        table, seat = await self.resolve(token, fresh=False)
        return await table.act(seat, step, action_json)

    def finished(self, table: LiveTable) -> None:
        """Note that ``table``'s game is over; forget the oldest finished tables nobody watches."""
        self.cluster.let_go(table)
        self._finished.pop(table.id, None)
        self._finished[table.id] = None
        gone = set()
        for table_id in list(self._finished)[:max(len(self._finished) - KEEP_FINISHED, 0)]:
            old = self._live.get(table_id)
            if old is None or not old.subscribers:
                del self._finished[table_id]
                gone.add(table_id)
                if old is not None:
                    del self._live[table_id]
        self._forget_tokens(gone)

    def _forget_tokens(self, table_ids: set[str]) -> None:
        if table_ids:
            self._tokens = {t: found for t, found in self._tokens.items()
                            if found[0] not in table_ids}
            self._replays = {r: t for r, t in self._replays.items() if t not in table_ids}

    def start(self) -> None:
        """Start the background work: on SQLite, load every unfinished table so that bots to
        move move again; on a shared database, listen for changes and take over the tables
        whose bot lease expired. Both: let idle tables leave memory."""
        if not self.shared:
            self._starting = asyncio.get_running_loop().create_task(self._resume())
        self._retaining = asyncio.get_running_loop().create_task(self._retain_often())
        self.cluster.start()

    async def _retain_often(self) -> None:
        """Apply the retention rule now and every ``RETAIN_EVERY`` seconds."""
        while True:
            try:
                await self.retain()
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot apply the retention rule: %s", exc)
            await asyncio.sleep(RETAIN_EVERY)

    async def retain(self) -> tuple[list[str], list[str]]:
        """The retention rule (issue 24, docs/server.md): close as abandoned every unfinished
        table with no move for ``Limits.abandon_hours`` (or with no move at all
        ``unstarted_hours`` after it was made), and delete the tables closed so more than
        ``delete_days`` ago (0: never). The ids closed and the ids deleted."""
        limits, now = self.limits, datetime.now(UTC)
        idle = (f"closed as abandoned: no move for {limits.abandon_hours:g} hours")
        unstarted = (f"closed as abandoned: no move in the {limits.unstarted_hours:g} "
                     "hours after it was made")
        closed = await run_in_threadpool(self.storage.abandon,
                                         now - timedelta(hours=limits.abandon_hours),
                                         now - timedelta(hours=limits.unstarted_hours),
                                         idle, unstarted)
        for table_id, reason in closed.items():
            table = self._live.get(table_id)
            if table is not None:
                table.closed_as(reason)
        deleted: list[str] = []
        if limits.delete_days > 0:
            deleted = await run_in_threadpool(self.storage.delete_closed,
                                              now - timedelta(days=limits.delete_days))
            for table_id in deleted:
                table = self._live.pop(table_id, None)
                self._finished.pop(table_id, None)
                if table is not None:
                    await table.close()
            self._forget_tokens(set(deleted))
        if closed or deleted:
            log.info("retention: %d tables closed as abandoned, %d deleted", len(closed),
                     len(deleted))
        return list(closed), deleted

    @property
    def in_memory(self) -> list[str]:
        """The ids of the tables held in memory now."""
        return list(self._live)

    async def revive(self, table_id: str, why: str) -> LiveTable | None:
        """The live table ``table_id`` (``get``), or None, logged as not ``why``, if it cannot
        be loaded."""
        try:
            return await self.get(table_id)
        except TableError as exc:
            log.error("table %s not %s: %s", table_id, why, exc.message)
            return None

    async def _resume(self) -> None:
        try:
            ids = await run_in_threadpool(self.storage.unfinished)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("cannot list the unfinished tables: %s", exc)
            return
        for table_id in ids:
            await self.revive(table_id, "resumed")

    async def close(self) -> None:
        """Stop every table's bots and subscriptions; give up the bot leases held."""
        for task in (self._starting, self._retaining):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.cluster.stop()
        for table in list(self._live.values()):
            await table.close()
        for table in list(self._live.values()):
            self.cluster.let_go(table)
        self._live.clear()
        await self.cluster.drain()
        await run_in_threadpool(self.pool.close)
        await run_in_threadpool(self.setup_pool.close)
        self.webhooks.close()
