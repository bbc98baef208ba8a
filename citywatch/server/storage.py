"""The server's database (SQLAlchemy Core): tables, tokens, and the actions accepted.

A table's state is its record replayed, so the actions are all that is stored of a game.
An action is accepted once its row is committed; the primary key ``(table_id, n)`` makes a
second row for the same decision fail with ``Duplicate`` instead of applying twice.
Every write commits before it returns. URLs: ``sqlite:///PATH`` and ``postgresql://...``.
A database written by an earlier version gains the newer columns when it is opened.

On PostgreSQL many server processes share one database (``Storage.shared``): decisions for one
table are serialised by a row lock on its ``tables`` row (``Storage.serialised``), every change is
published with ``NOTIFY`` on ``CHANNEL``, and the bots of a table are driven by the holder of its
``bot_leases`` row, which renews it; times are the database's clock, so hosts need not agree.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    inspect,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

from citywatch.core.rng import Seed
from citywatch.server.clocks import Clock, ClockError

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    # added later (see ``_upgrade``), so nullable:
    Column("secret_seed", Text, nullable=True),  # "blake2b:<hex>"; then ``seed`` is 0
    Column("failure", Text, nullable=True),  # why the game cannot go on
    Column("notices", Text, nullable=True),  # JSON list of sentences for every seat
    Column("options", Text, nullable=True),  # JSON object: the game's options (NULL: none)
    Column("names", Text, nullable=True),  # JSON list: each seat's person's name or null
    Column("creator", String(32), nullable=True),  # a hash of the creating address (issue 24)
    Column("closed", DateTime(timezone=True), nullable=True),  # when closed as abandoned
    Column("replay", String(32), nullable=True),  # the public replay id (issue 26)
    Column("rematch", String(64), nullable=True),  # the id of the table set up as its rematch
    Column("hints_allowed", Boolean, nullable=True),  # issue 30: whether hints are allowed
    Column("hints", Text, nullable=True),  # issue 30: JSON list of {"step", "seat"} asked
    Column("public", Boolean, nullable=True),  # issue 31: listed among the open tables
    Column("free", Text, nullable=True),  # issue 31: JSON list of the person seats not taken
    Column("spectators_chat", Boolean, nullable=True),  # issue 31: spectators read the chat
    Column("chat", Text, nullable=True),  # issue 31: JSON list of the newest chat messages
    Column("mutes", Text, nullable=True),  # issue 31: JSON object: seat -> the seats it muted
    Column("clock", Text, nullable=True),  # issue 31: JSON ``Clock.to_json`` (NULL: untimed)
    Column("deadline", DateTime(timezone=True), nullable=True),  # issue 31: the clock's deadline
    Column("webhooks", Text, nullable=True),  # issue 31: JSON object: seat -> its webhook URL
)
REPLAY_INDEX = Index("ix_tables_replay", tables.c.replay, unique=True)
"""One table per public replay id (``Storage._upgrade`` creates it on an older database)."""
DEADLINE_INDEX = Index("ix_tables_deadline", tables.c.deadline)
"""The sweep for clocks whose time ran out reads by deadline (issue 31)."""
REPLAY_ID_BYTES = 16
"""Random bytes of a public replay id (``new_replay_id``)."""


def new_replay_id() -> str:
    """A new public replay id (issue 26): random, url-safe, unrelated to any seat's token."""
    return secrets.token_urlsafe(REPLAY_ID_BYTES)

tokens = Table(
    "tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("table_id", String(64), ForeignKey("tables.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(64), ForeignKey("tables.id"), nullable=False),
    Column("n", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("digest", String(64), nullable=True),  # the state's digest after the action
    Column("at", DateTime(timezone=True), nullable=True),  # when it was stored (issue 24)
    PrimaryKeyConstraint("table_id", "n"),
)

bot_leases = Table(
    "bot_leases",
    metadata,
    Column("table_id", String(64), ForeignKey("tables.id"), primary_key=True),
    Column("holder", String(128), nullable=False),  # the server process driving the bots
    Column("expires", DateTime(timezone=True), nullable=False),
)
"""Who drives a table's bots (PostgreSQL only): a row exists while a bot table is live."""

SCHEMA_LOCK = 0x63697479
"""The advisory lock key held while a process creates or upgrades the schema (PostgreSQL)."""
CHANNEL = "citywatch"
"""The ``LISTEN``/``NOTIFY`` channel: payload ``"<table id> <step>"`` or ``"<table id> about"``."""

ADDED_COLUMNS = {
    "tables": ("secret_seed", "failure", "notices", "options", "names", "creator", "closed",
               "replay", "rematch", "hints_allowed", "hints", "public", "free",
               "spectators_chat", "chat", "mutes", "clock", "deadline", "webhooks"),
    "actions": ("digest", "at"),
}
"""Columns newer than the first release, added to an existing database by ``_upgrade``."""


class StorageError(Exception):
    """The database could not be used as asked."""


class Duplicate(StorageError):
    """A row for this decision (table, n) already exists: the decision was already taken."""


class RematchTaken(StorageError):
    """The table already has a rematch (``rematch``, its id): nothing was stored."""

    def __init__(self, table_id: str, rematch: str) -> None:
        super().__init__(f"table {table_id} already has its rematch, {rematch}")
        self.rematch = rematch


class SeatTaken(StorageError):
    """The seat asked for is not free (issue 31): nothing was changed."""


@dataclass(frozen=True)
class OpenTable:
    """A public table with a free person seat, as the open tables list it (issue 31)."""

    id: str
    game: str
    players: int
    seats: list[str]
    free: tuple[int, ...]
    options: dict[str, Any]
    created: datetime
    clock: Clock | None = None
    """Its clock (issue 31), None if it is untimed."""


@dataclass(frozen=True)
class TableRow:
    """One stored table."""

    id: str
    game: str
    players: int
    seed: Seed
    seats: list[str]
    created: datetime
    finished: bool
    failure: str | None = None
    notices: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    names: tuple[str | None, ...] = ()
    """Each seat's person's name (None: unnamed, or a bot), one per seat (issue 16)."""
    replay: str = ""
    """The public replay id (issue 26): ``/replay/<id>`` shows the game as a spectator."""
    rematch: str | None = None
    """The id of the table set up as this one's rematch, if any (issue 26)."""
    hints_allowed: bool | None = None
    """Whether the table allows hints (issue 30); None for a table stored before."""
    hints: tuple[dict[str, int], ...] = ()
    """The hints asked at the table, ``{"step", "seat"}`` each, in order (issue 30)."""
    public: bool = False
    """Whether the table is listed among the open tables while a seat is free (issue 31)."""
    free: tuple[int, ...] = ()
    """The person seats of a public table nobody has taken yet (issue 31)."""
    spectators_chat: bool = False
    """Whether the spectator link reads the chat (issue 31; false for a table stored before)."""
    chat: tuple[dict[str, Any], ...] = ()
    """The newest chat messages (issue 31), ``{"n", "seat", "text", "at"}`` each, oldest
    first, at most ``CHAT_KEPT``."""
    mutes: tuple[tuple[int, ...], ...] = ()
    """Per seat, the seats whose messages it hides (issue 31); empty for none at all."""
    clock: Clock | None = None
    """The table's clock (issue 31), None for an untimed table."""
    webhooks: dict[int, str] = field(default_factory=dict)
    """A seat -> the webhook its person gave (issue 31; private to that seat)."""


def _seat_list(raw: str | None) -> tuple[int, ...]:
    """The stored free seats (JSON text or NULL) as seat numbers."""
    found = json.loads(raw) if raw else []
    return tuple(int(s) for s in (found if isinstance(found, list) else [])
                 if isinstance(s, int) and not isinstance(s, bool))


def _hints(raw: str | None) -> tuple[dict[str, int], ...]:
    """The stored hints (JSON text or NULL) as ``{"step", "seat"}`` entries."""
    found = json.loads(raw) if raw else []
    return tuple({"step": int(h["step"]), "seat": int(h["seat"])}
                 for h in (found if isinstance(found, list) else []) if isinstance(h, dict))


CHAT_KEPT = 200
"""How many chat messages a table keeps (issue 31): the newest; older ones are dropped."""


def _chat(raw: str | None) -> tuple[dict[str, Any], ...]:
    """The stored chat (JSON text or NULL) as ``{"n", "seat", "text", "at"}`` messages."""
    found = json.loads(raw) if raw else []
    return tuple({"n": int(m["n"]), "seat": int(m["seat"]), "text": str(m["text"]),
                  "at": str(m["at"])}
                 for m in (found if isinstance(found, list) else []) if isinstance(m, dict))


def _mutes(raw: str | None, players: int) -> tuple[tuple[int, ...], ...]:
    """The stored mutes (a JSON object, seat -> seats, or NULL), one tuple per seat."""
    found = json.loads(raw) if raw else {}
    found = found if isinstance(found, dict) else {}
    return tuple(tuple(sorted(int(s) for s in found.get(str(seat), [])))
                 for seat in range(players))


def _webhooks(raw: str | None) -> dict[int, str]:
    """The stored webhooks (a JSON object, seat -> URL, or NULL)."""
    found = json.loads(raw) if raw else {}
    return ({int(seat): url for seat, url in found.items()
             if seat.isdigit() and isinstance(url, str)} if isinstance(found, dict) else {})


def _names(raw: str | None, players: int) -> tuple[str | None, ...]:
    """The stored names (JSON text or NULL) as one entry per seat."""
    found = json.loads(raw) if raw else []
    found = found if isinstance(found, list) else []
    return tuple(n if isinstance(n, str) else None
                 for n in (found + [None] * players)[:players])


def _table_row(row: Any) -> TableRow:
    seed: Seed = str(row.secret_seed) if row.secret_seed else int(row.seed)
    notices = json.loads(row.notices) if row.notices else []
    options = json.loads(row.options) if row.options else {}
    return TableRow(str(row.id), str(row.game), int(row.players), seed, list(row.seats),
                    row.created, bool(row.finished), row.failure, tuple(notices), options,
                    _names(row.names, int(row.players)), str(row.replay or ""),
                    None if row.rematch is None else str(row.rematch),
                    None if row.hints_allowed is None else bool(row.hints_allowed),
                    _hints(row.hints), bool(row.public), _seat_list(row.free),
                    bool(row.spectators_chat), _chat(row.chat),
                    _mutes(row.mutes, int(row.players)), _clock(row.id, row.clock),
                    _webhooks(row.webhooks))


def _clock(table_id: Any, raw: str | None) -> Clock | None:
    """The stored clock (JSON text or NULL); ``StorageError`` if it cannot be read."""
    if not raw:
        return None
    try:
        return Clock.from_json(json.loads(raw))
    except (ClockError, ValueError) as exc:
        raise StorageError(f"table {table_id}'s clock is not readable: {exc}") from None


def _clock_values(clock: Clock) -> dict[str, Any]:
    """The columns that store ``clock``."""
    return {"clock": json.dumps(clock.to_json(), separators=(",", ":")),
            "deadline": clock.deadline}


class Locked:
    """One table's row locked in an open transaction (``Storage.serialised``): read what
    other processes stored, add an action, publish it. Committed when the block ends."""

    def __init__(self, conn: Connection, row: TableRow, last: int, leased: bool) -> None:
        self.conn = conn
        self.row = row
        self.last = last
        """The number of actions stored."""
        self.leased = leased
        """True if the holder named to ``Storage.serialised`` holds the bot lease now."""

    def actions_after(self, n: int) -> list[tuple[Any, str | None]]:
        """The actions after the first ``n``, in order, with their digests."""
        return _actions_after(self.conn, self.row.id, n) if self.last > n else []

    def add_action(self, n: int, action: Any, digest: str, finished: bool,
                   clock: Clock | None = None) -> None:
        """Store action ``n`` (``Duplicate`` if it exists: then the transaction is lost)
        and the table's ``clock`` after it, and publish it on commit."""
        try:  # under the row lock this cannot clash; the key stays the last guard
            self.conn.execute(sql_text(
                "WITH a AS (INSERT INTO actions (table_id, n, action, digest, at) "
                "VALUES (:t, :n, :a, :d, now()) RETURNING n) SELECT pg_notify(:c, :p) FROM a"
            ), {"t": self.row.id, "n": n, "a": json.dumps(action, separators=(",", ":")),
                "d": digest, "c": CHANNEL, "p": f"{self.row.id} {n}"})
        except IntegrityError:
            raise Duplicate(f"decision {n} of table {self.row.id} was already taken") from None
        values: dict[str, Any] = _clock_values(clock) if clock is not None else {}
        if finished:
            values["finished"] = True
        if values:
            self.conn.execute(update(tables).where(tables.c.id == self.row.id).values(**values))


def _notify(conn: Connection, table_id: str, what: str) -> None:
    conn.execute(sql_text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{table_id} {what}"})


def _actions_after(conn: Connection, table_id: str, n: int) -> list[tuple[Any, str | None]]:
    rows = conn.execute(
        select(actions.c.n, actions.c.action, actions.c.digest)
        .where(actions.c.table_id == table_id, actions.c.n > n).order_by(actions.c.n)
    ).all()
    for expected, row in enumerate(rows, start=n + 1):
        if row.n != expected:
            raise StorageError(f"table {table_id} has no action {expected}")
    return [(json.loads(row.action), row.digest) for row in rows]


@dataclass
class _Write:
    """One action row waiting for a commit."""

    table_id: str
    n: int
    text: str
    finished: bool
    digest: str | None = None
    clock: Clock | None = None
    done: bool = False
    stored: bool = False
    error: StorageError | None = None


def engine_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` is served by psycopg 3."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StorageError(f"{url!r} is not a database URL") from None
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername in ("sqlite", "postgresql+psycopg"):
        return parsed
    raise StorageError(
        f"unsupported database {parsed.drivername!r}: use sqlite:///PATH or postgresql://..."
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Storage:
    """Reads and writes the server's tables; every method is a short blocking call."""

    def __init__(self, url: str) -> None:
        """Connect to ``url`` and create the tables that do not exist yet."""
        target = engine_url(url)
        self.url = target
        self.engine: Engine
        # SQLite has one writer at a time and makes the others sleep and retry; writers
        # queue on a lock here instead, which is fairer and faster.
        self._write_lock: AbstractContextManager[Any] = nullcontext()
        self._group = threading.Condition()
        self._queue: list[_Write] = []
        self._committing = False
        if target.get_backend_name() == "sqlite":
            self._write_lock = threading.Lock()
            self.engine = create_engine(
                target, connect_args={"check_same_thread": False, "timeout": 30}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(target, pool_pre_ping=True)
        with self._write_lock, self.engine.begin() as conn:
            if self.shared:  # processes starting together create the schema one at a time
                conn.execute(sql_text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
            metadata.create_all(conn)
            self._upgrade(conn)

    def _upgrade(self, conn: Connection) -> None:
        """Add the columns an older database lacks (each is nullable: old rows keep NULL)."""
        found = inspect(conn)
        for table_name, names in ADDED_COLUMNS.items():
            have = {c["name"] for c in found.get_columns(table_name)}
            for name in names:
                if name in have:
                    continue
                column = metadata.tables[table_name].c[name]
                kind = column.type.compile(dialect=self.engine.dialect)
                conn.execute(sql_text(f'ALTER TABLE {table_name} ADD COLUMN "{name}" {kind}'))
                if (table_name, name) == ("actions", "at"):
                    # the retention rule's clock starts now for the moves stored before
                    conn.execute(update(actions).values(at=datetime.now(UTC)))
        # issue 26: every table has a public replay id, older ones too
        for row in conn.execute(select(tables.c.id).where(tables.c.replay.is_(None))).all():
            conn.execute(update(tables).where(tables.c.id == row.id)
                         .values(replay=new_replay_id()))
        REPLAY_INDEX.create(conn, checkfirst=True)
        DEADLINE_INDEX.create(conn, checkfirst=True)

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    @property
    def shared(self) -> bool:
        """True on PostgreSQL: many server processes may share the database."""
        return self.url.get_backend_name() == "postgresql"

    def create_table(self, table_id: str, game: str, players: int, seed: Seed,
                     seats: list[str], seat_tokens: dict[str, int],
                     options: dict[str, Any] | None = None,
                     lease: tuple[str, float] | None = None,
                     names: list[str | None] | None = None,
                     creator: str | None = None, replay: str | None = None,
                     rematch_of: str | None = None,
                     hints_allowed: bool | None = None,
                     free: list[int] | None = None,
                     spectators_chat: bool = False, clock: Clock | None = None) -> None:
        """Store a new table, its ``clock`` (issue 31; None: untimed), whether it allows
        hints (issue 30), with ``free`` a public table (issue 31) whose seats ``free`` wait
        for someone to take them, whether its spectators read the chat (issue 31), its
        game's ``options``,
        its seats' ``names`` (None: unnamed), its ``creator`` (a hash of the creating
        address), its public ``replay`` id (None: a new one) and its tokens (token -> seat,
        -1 for the spectator) at once; with ``lease`` (holder, seconds), its bot lease too.
        With ``rematch_of``, the new table becomes that table's rematch in the same
        transaction, unless it has one already: then nothing is stored and ``RematchTaken``
        names it (a conditional update, so two people asking at once, in any processes, get
        one rematch)."""
        secret = seed if isinstance(seed, str) else None
        named = json.dumps(names) if names and any(n is not None for n in names) else None
        with self._write_lock, self.engine.begin() as conn:
            if rematch_of is not None:  # first, so that only one rematch is ever stored
                claimed = conn.execute(update(tables).where(
                    tables.c.id == rematch_of, tables.c.rematch.is_(None))
                    .values(rematch=table_id)).rowcount
                if not claimed:
                    found = conn.execute(select(tables.c.rematch)
                                         .where(tables.c.id == rematch_of)).first()
                    if found is None or found.rematch is None:
                        raise StorageError(f"there is no table {rematch_of}")
                    raise RematchTaken(rematch_of, str(found.rematch))
            conn.execute(tables.insert().values(
                id=table_id, game=game, players=players, seed=0 if secret else seed,
                secret_seed=secret, seats=list(seats), created=datetime.now(UTC),
                finished=False, notices="[]",
                options=json.dumps(options, separators=(",", ":")) if options else None,
                names=named, creator=creator, replay=replay or new_replay_id(),
                hints_allowed=hints_allowed, hints="[]", public=free is not None,
                free=None if free is None else json.dumps(free),
                spectators_chat=spectators_chat, chat="[]",
                **(_clock_values(clock) if clock is not None else {})))
            conn.execute(tokens.insert(), [
                {"token": token, "table_id": table_id, "seat": seat}
                for token, seat in seat_tokens.items()
            ])
            if lease is not None:
                conn.execute(sql_text(
                    "INSERT INTO bot_leases (table_id, holder, expires) "
                    "VALUES (:t, :h, now() + make_interval(secs => :s))"
                ), {"t": table_id, "h": lease[0], "s": lease[1]})
            if rematch_of is not None and self.shared:
                _notify(conn, rematch_of, "about")

    def replay_table(self, replay: str) -> str | None:
        """The id of the table whose public replay id is ``replay``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables.c.id).where(tables.c.replay == replay)).first()
        return None if row is None else str(row.id)

    def token(self, token: str) -> tuple[str, int] | None:
        """The table and seat of ``token`` (seat -1: the spectator), or None if unknown."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tokens.c.table_id, tokens.c.seat).where(tokens.c.token == token)
            ).first()
        return None if row is None else (str(row.table_id), int(row.seat))

    def tokens(self, table_id: str) -> dict[int, str]:
        """Every token of a table by seat (-1: the spectator)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tokens.c.token, tokens.c.seat).where(tokens.c.table_id == table_id)
            ).all()
        return {int(r.seat): str(r.token) for r in rows}

    def table(self, table_id: str) -> TableRow | None:
        """The stored table, or None if there is none with that id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else _table_row(row)

    def update_table(self, table_id: str, *, seats: list[str] | None = None,
                     notices: list[str] | None = None, failure: str | None = None) -> None:
        """Change a table's seats, notices or failure (only those given)."""
        values: dict[str, Any] = {}
        if seats is not None:
            values["seats"] = list(seats)
        if notices is not None:
            values["notices"] = json.dumps(notices)
        if failure is not None:
            values["failure"] = failure
        if not values:
            return
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(**values))
            if self.shared:
                _notify(conn, table_id, "about")

    @contextmanager
    def _locked_row(self, table_id: str, *columns: Any) -> Iterator[tuple[Connection, Any]]:
        """A write transaction with table ``table_id``'s ``columns`` read under its row's
        lock (PostgreSQL; SQLite's writers queue on ``_write_lock``), committed when the block
        ends; ``StorageError`` for an unknown table."""
        with self._write_lock, self.engine.begin() as conn:
            query = select(*columns).where(tables.c.id == table_id)
            row = conn.execute(query.with_for_update() if self.shared else query).first()
            if row is None:
                raise StorageError(f"there is no table {table_id}")
            yield conn, row

    def _rewrite(self, conn: Connection, table_id: str, **values: Any) -> None:
        """Write ``values`` to table ``table_id``'s row and announce it (``NOTIFY "<table id>
        about"`` on a shared database)."""
        conn.execute(update(tables).where(tables.c.id == table_id).values(**values))
        if self.shared:
            _notify(conn, table_id, "about")

    def set_name(self, table_id: str, seat: int, name: str) -> tuple[str | None, ...]:
        """Name seat ``seat`` of a table ``name`` (issue 16), leaving the other seats' names as
        stored (read and written under the row's lock, so two seats named at once in two
        processes both keep theirs); every seat's names after it. Announced with ``NOTIFY``
        ``"<table id> about"`` on a shared database; ``StorageError`` for an unknown table."""
        with self._locked_row(table_id, tables.c.players, tables.c.names) as (conn, row):
            names = list(_names(row.names, int(row.players)))
            names[seat] = name
            self._rewrite(conn, table_id, names=json.dumps(names))
        return tuple(names)

    def add_hint(self, table_id: str, step: int, seat: int) -> tuple[dict[str, int], ...]:
        """Note that ``seat`` asked the coach for a hint at the decision after ``step``
        actions (issue 30), after the hints stored (read and written under the row's lock);
        every hint of the table after it. Announced with ``NOTIFY`` ``"<table id> about"`` on
        a shared database; ``StorageError`` for an unknown table."""
        with self._locked_row(table_id, tables.c.hints) as (conn, row):
            hints = [*_hints(row.hints), {"step": step, "seat": seat}]
            self._rewrite(conn, table_id, hints=json.dumps(hints, separators=(",", ":")))
        return tuple(hints)

    def open_tables(self, limit: int) -> list[OpenTable]:
        """At most ``limit`` public tables, newest first, neither finished nor failed, with a
        free person seat (issue 31)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.game, tables.c.players, tables.c.seats,
                       tables.c.free, tables.c.options, tables.c.created, tables.c.clock)
                .where(tables.c.public.is_(True), tables.c.finished.is_(False),
                       tables.c.failure.is_(None), tables.c.free.is_not(None),
                       tables.c.free != "[]")
                .order_by(tables.c.created.desc()).limit(limit)).all()
        return [OpenTable(str(r.id), str(r.game), int(r.players), list(r.seats),
                          _seat_list(r.free), json.loads(r.options) if r.options else {},
                          r.created, _clock(r.id, r.clock)) for r in rows]

    def take_seat(self, table_id: str, seat: int | None) -> tuple[int, str]:
        """Take a free person seat of a public table (issue 31): ``seat``, or the first free
        one if None; read and written under the row's lock, so of two people taking the last
        seat at once, in any processes, one gets it. The seat and its token. ``SeatTaken``
        if the table is over or the seat not free (nothing changed), ``StorageError`` for an
        unknown table. Announced with ``NOTIFY`` ``"<table id> about"`` on a shared
        database."""
        with self._write_lock, self.engine.begin() as conn:
            query = select(tables.c.public, tables.c.free, tables.c.finished,
                           tables.c.failure).where(tables.c.id == table_id)
            row = conn.execute(query.with_for_update() if self.shared else query).first()
            if row is None or not row.public:
                raise StorageError(f"there is no open table {table_id}")
            free = list(_seat_list(row.free))
            if row.finished or row.failure is not None:
                raise SeatTaken(f"the game at table {table_id} is over")
            if not free:
                raise SeatTaken(f"every seat of table {table_id} is taken")
            chosen = free[0] if seat is None else seat
            if chosen not in free:
                raise SeatTaken(f"seat {chosen + 1} of table {table_id} is not free")
            found = conn.execute(select(tokens.c.token).where(
                tokens.c.table_id == table_id, tokens.c.seat == chosen)).first()
            if found is None:
                raise StorageError(f"table {table_id} has no token for seat {chosen}")
            free.remove(chosen)
            self._rewrite(conn, table_id, free=json.dumps(free))
        return chosen, str(found.token)

    def add_chat(self, table_id: str, seat: int, text: str) -> tuple[dict[str, Any], ...]:
        """Add ``seat``'s chat message ``text`` (already cleaned) after the messages stored,
        keeping the newest ``CHAT_KEPT`` (read and written under the row's lock, issue 31);
        the table's messages after it. Announced with ``NOTIFY`` ``"<table id> about"`` on a
        shared database; ``StorageError`` for an unknown table."""
        with self._locked_row(table_id, tables.c.chat) as (conn, row):
            before = _chat(row.chat)
            n = before[-1]["n"] + 1 if before else 1
            at = datetime.now(UTC).isoformat(timespec="seconds")
            chat = [*before, {"n": n, "seat": seat, "text": text, "at": at}][-CHAT_KEPT:]
            self._rewrite(conn, table_id,
                          chat=json.dumps(chat, ensure_ascii=False, separators=(",", ":")))
        return tuple(chat)

    def set_muted(self, table_id: str, seat: int, other: int,
                  muted: bool) -> tuple[tuple[int, ...], ...]:
        """Note that ``seat`` hides (``muted``) or shows ``other``'s chat messages (issue 31),
        under the row's lock; every seat's mutes after it. Announced with ``NOTIFY`` on a
        shared database; ``StorageError`` for an unknown table."""
        with self._locked_row(table_id, tables.c.mutes, tables.c.players) as (conn, row):
            mutes = [set(m) for m in _mutes(row.mutes, int(row.players))]
            if muted:
                mutes[seat].add(other)
            else:
                mutes[seat].discard(other)
            stored = {str(s): sorted(m) for s, m in enumerate(mutes) if m}
            self._rewrite(conn, table_id, mutes=json.dumps(stored, separators=(",", ":")))
        return tuple(tuple(sorted(m)) for m in mutes)

    def set_webhook(self, table_id: str, seat: int, url: str | None) -> dict[int, str]:
        """Keep ``url`` (already checked; None: none) as ``seat``'s webhook (issue 31), under
        the row's lock; every seat's webhooks after it. Announced with ``NOTIFY`` on a shared
        database; ``StorageError`` for an unknown table."""
        with self._locked_row(table_id, tables.c.webhooks) as (conn, row):
            hooks = _webhooks(row.webhooks)
            if url is None:
                hooks.pop(seat, None)
            else:
                hooks[seat] = url
            stored = {str(s): u for s, u in sorted(hooks.items())}
            self._rewrite(conn, table_id, webhooks=json.dumps(stored, separators=(",", ":"))
                          if stored else None)
        return hooks

    def count_unfinished(self, since: datetime, creator: str | None = None) -> int:
        """How many tables created at ``since`` or later (by ``creator``, if given) are
        neither finished nor failed."""
        query = select(func.count()).select_from(tables).where(
            tables.c.finished.is_(False), tables.c.failure.is_(None), tables.c.created >= since)
        if creator is not None:
            query = query.where(tables.c.creator == creator)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one()
        return int(found)

    def abandon(self, idle_before: datetime, unstarted_before: datetime,
                idle_reason: str, unstarted_reason: str) -> dict[str, str]:
        """Close as abandoned (issue 24) every unfinished, unfailed table whose last action
        was stored before ``idle_before`` (or, with no action, created before
        ``unstarted_before``): its failure is set to the reason and ``closed`` to now, and
        every process is told. The tables closed: id -> reason."""
        last = (select(actions.c.table_id, func.max(actions.c.at).label("moved"))
                .group_by(actions.c.table_id).subquery())
        open_ = tables.c.finished.is_(False) & tables.c.failure.is_(None)
        open_ = open_ & tables.c.deadline.is_(None)  # issue 31: a running clock moves it on
        unstarted = (select(tables.c.id).where(
            open_, tables.c.created < unstarted_before,
            ~tables.c.id.in_(select(actions.c.table_id))))
        idle = (select(tables.c.id).select_from(tables.outerjoin(last,
                                                                 last.c.table_id == tables.c.id))
                .where(open_, func.coalesce(last.c.moved, tables.c.created) < idle_before))
        now = datetime.now(UTC)
        closed: dict[str, str] = {}
        with self._write_lock, self.engine.begin() as conn:
            for query, reason in ((unstarted, unstarted_reason), (idle, idle_reason)):
                ids = [str(r.id) for r in conn.execute(query).all()]
                if not ids:
                    continue
                conn.execute(update(tables).where(tables.c.id.in_(ids), open_)
                             .values(failure=reason, closed=now))
                for table_id in ids:
                    if self.shared:
                        _notify(conn, table_id, "about")
                closed.update(dict.fromkeys(ids, reason))
        return closed

    def delete_closed(self, before: datetime) -> list[str]:
        """Delete every table closed as abandoned before ``before``, with its tokens, actions
        and bot lease (issue 24); the ids deleted."""
        with self._write_lock, self.engine.begin() as conn:
            ids = [str(r.id) for r in conn.execute(
                select(tables.c.id).where(tables.c.closed < before)).all()]
            if ids:
                for table in (tokens, actions, bot_leases):
                    conn.execute(table.delete().where(table.c.table_id.in_(ids)))
                conn.execute(tables.delete().where(tables.c.id.in_(ids)))
        return ids

    def actions(self, table_id: str) -> list[Any]:
        """The JSON of every accepted action of a table, in order."""
        return [action for action, _digest in self.actions_and_digests(table_id)]

    def actions_and_digests(self, table_id: str) -> list[tuple[Any, str | None]]:
        """Every accepted action of a table, in order, with the state digest stored after it
        (None for actions stored before digests were kept)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.n, actions.c.action, actions.c.digest)
                .where(actions.c.table_id == table_id).order_by(actions.c.n)
            ).all()
        for expected, row in enumerate(rows, start=1):
            if row.n != expected:
                raise StorageError(f"table {table_id} has no action {expected}")
        return [(json.loads(row.action), row.digest) for row in rows]

    def add_action(self, table_id: str, n: int, action: Any, *, finished: bool = False,
                   digest: str | None = None, clock: Clock | None = None) -> None:
        """Store action ``n`` of a table with the state's ``digest`` after it (and, if it ends
        the game, mark the table finished), with the table's ``clock`` after it if timed.

        Returns once the row is committed. Raise ``Duplicate`` if action ``n`` is already
        stored; then nothing is written. Concurrent calls share one commit (group commit).
        """
        item = _Write(table_id, n, json.dumps(action, separators=(",", ":")), finished, digest,
                      clock)
        with self._group:
            self._queue.append(item)
            while not item.done:
                if self._committing:
                    self._group.wait()
                    continue
                batch, self._queue = self._queue, []
                self._committing = True
                self._group.release()
                try:
                    self._commit(batch)
                finally:
                    self._group.acquire()
                    self._committing = False
                    for written in batch:
                        written.done = True
                        if not written.stored and written.error is None:
                            written.error = StorageError(
                                f"action {written.n} of table {written.table_id} was not stored")
                    self._group.notify_all()
        if item.error is not None:
            raise item.error

    def _commit(self, batch: list[_Write]) -> None:
        """Write a batch in one transaction, or row by row if one of them cannot be written."""
        try:
            self._write(batch)
            return
        except IntegrityError:
            pass
        except SQLAlchemyError as exc:
            for item in batch:
                item.error = StorageError(f"cannot store action {item.n} of table "
                                          f"{item.table_id}: {exc}")
            return
        for item in batch:
            try:
                self._write([item])
            except IntegrityError as exc:
                item.error = self._refusal(item, exc)
            except SQLAlchemyError as exc:
                item.error = StorageError(f"cannot store action {item.n} of table "
                                          f"{item.table_id}: {exc}")

    def _write(self, batch: list[_Write]) -> None:
        with self._write_lock, self.engine.begin() as conn:
            now = datetime.now(UTC)
            conn.execute(actions.insert(), [
                {"table_id": item.table_id, "n": item.n, "action": item.text,
                 "digest": item.digest, "at": now} for item in batch
            ])
            for item in batch:
                values = _clock_values(item.clock) if item.clock is not None else {}
                if item.finished:
                    values["finished"] = True
                if values:
                    conn.execute(
                        update(tables).where(tables.c.id == item.table_id).values(**values))
        for item in batch:
            item.stored = True

    def _refusal(self, item: _Write, exc: IntegrityError) -> StorageError:
        with self.engine.connect() as conn:
            taken = conn.execute(select(actions.c.n).where(
                actions.c.table_id == item.table_id, actions.c.n == item.n)).first()
        if taken is None:
            return StorageError(
                f"cannot store action {item.n} of table {item.table_id}: {exc.orig}")
        return Duplicate(f"decision {item.n} of table {item.table_id} was already taken")

    def mark_finished(self, table_id: str) -> None:
        """Mark a table's game as over."""
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(finished=True))

    def unfinished(self) -> list[str]:
        """The ids of every table whose game is neither over nor failed."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id).where(tables.c.finished.is_(False), tables.c.failure.is_(None))
                .order_by(tables.c.created)
            ).all()
        return [str(r.id) for r in rows]

    def change_clock(self, table_id: str,
                     change: Any) -> tuple[Clock, tuple[str, ...]] | None:
        """Change a table's clock under its row's lock (issue 31): ``change(clock, actions,
        free, notices)`` gets the stored clock, the number of actions stored, the free seats
        and the notices, and returns the new clock and notices, or None to change nothing.
        What was stored, or None. Announced with ``NOTIFY`` on a shared database;
        ``StorageError`` for an unknown table or one without a clock."""
        last = select(func.coalesce(func.max(actions.c.n), 0)).where(
            actions.c.table_id == table_id).scalar_subquery()
        with self._write_lock, self.engine.begin() as conn:
            query = select(tables.c.clock, tables.c.free, tables.c.notices,
                           tables.c.finished, tables.c.failure,
                           last.label("last_n")).where(tables.c.id == table_id)
            row = conn.execute(query.with_for_update(of=tables) if self.shared
                               else query).first()
            if row is None:
                raise StorageError(f"there is no table {table_id}")
            clock = _clock(table_id, row.clock)
            if clock is None:
                raise StorageError(f"table {table_id} has no clock")
            if row.finished or row.failure is not None:
                return None
            notices = tuple(json.loads(row.notices) if row.notices else [])
            changed = change(clock, int(row.last_n), _seat_list(row.free), notices)
            if changed is None:
                return None
            new, new_notices = changed
            self._rewrite(conn, table_id, notices=json.dumps(list(new_notices)),
                          **_clock_values(new))
        return new, tuple(new_notices)

    def due_clocks(self, now: datetime, limit: int = 100) -> list[str]:
        """Unfinished, unfailed tables whose clock's deadline is ``now`` or earlier (issue
        31), the earliest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id).where(tables.c.deadline <= now,
                                          tables.c.finished.is_(False),
                                          tables.c.failure.is_(None))
                .order_by(tables.c.deadline).limit(limit)).all()
        return [str(r.id) for r in rows]

    # PostgreSQL: many processes on one database.

    @contextmanager
    def serialised(self, table_id: str, holder: str | None = None) -> Iterator[Locked]:
        """A transaction holding table ``table_id``'s row lock (``SELECT ... FOR UPDATE``):
        decisions for one table, in any process, are taken one at a time. It reads the row,
        the number of actions stored and whether ``holder`` holds the bot lease, at once.
        Committed when the block ends, rolled back if it raises; ``StorageError`` for an
        unknown table."""
        last = select(func.coalesce(func.max(actions.c.n), 0)).where(
            actions.c.table_id == table_id).scalar_subquery()
        leased = select(bot_leases.c.table_id).where(
            bot_leases.c.table_id == table_id, bot_leases.c.holder == (holder or ""),
            bot_leases.c.expires > func.now()).exists()
        with self.engine.begin() as conn:
            row = conn.execute(
                select(tables, last.label("last_n"), leased.label("leased"))
                .where(tables.c.id == table_id).with_for_update(of=tables)).first()
            if row is None:
                raise StorageError(f"there is no table {table_id}")
            yield Locked(conn, _table_row(row), int(row.last_n), bool(row.leased))

    def since(self, table_id: str, n: int) -> tuple[TableRow, list[tuple[Any, str | None]]]:
        """The stored table and its actions after the first ``n`` (with digests)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                raise StorageError(f"there is no table {table_id}")
            return _table_row(row), _actions_after(conn, table_id, n)

    def acquire_lease(self, table_id: str, holder: str, seconds: float) -> float:
        """Take or renew table ``table_id``'s bot lease for ``seconds`` if it is free, expired
        or already ``holder``'s; 0 if taken, else the seconds the other holder still has."""
        with self.engine.begin() as conn:
            got = conn.execute(sql_text(
                "INSERT INTO bot_leases (table_id, holder, expires) "
                "VALUES (:t, :h, now() + make_interval(secs => :s)) "
                "ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, "
                "expires = EXCLUDED.expires WHERE bot_leases.holder = EXCLUDED.holder "
                "OR bot_leases.expires < now() RETURNING holder"
            ), {"t": table_id, "h": holder, "s": seconds}).first()
            if got is not None:
                return 0.0
            left = conn.execute(sql_text(
                "SELECT extract(epoch FROM expires - now()) FROM bot_leases WHERE table_id = :t"
            ), {"t": table_id}).scalar()
        return max(float(left or 0.0), 0.01)

    def renew_leases(self, holder: str, table_ids: list[str], seconds: float) -> set[str]:
        """Extend ``holder``'s leases of ``table_ids`` by ``seconds``; the ones it still holds."""
        if not table_ids:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(sql_text(
                "UPDATE bot_leases SET expires = now() + make_interval(secs => :s) "
                "WHERE holder = :h AND table_id = ANY(:ids) AND expires > now() "
                "RETURNING table_id"
            ), {"h": holder, "ids": table_ids, "s": seconds}).all()
        return {str(r.table_id) for r in rows}

    def release_lease(self, table_id: str, holder: str, *, needed: bool) -> None:
        """Give up ``holder``'s lease of a table: expire it if a bot still has to move there
        (``needed``: another process takes it over), else delete it."""
        with self.engine.begin() as conn:
            if needed:
                conn.execute(sql_text(
                    "UPDATE bot_leases SET expires = now() - interval '1 second' "
                    "WHERE table_id = :t AND holder = :h"), {"t": table_id, "h": holder})
            else:
                conn.execute(sql_text(
                    "DELETE FROM bot_leases WHERE table_id = :t AND holder = :h"),
                    {"t": table_id, "h": holder})

    def expired_leases(self, limit: int = 100) -> list[str]:
        """Tables whose bot lease has expired (their holder died or let go), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sql_text(
                "SELECT table_id FROM bot_leases WHERE expires < now() ORDER BY expires "
                "LIMIT :n"), {"n": limit}).all()
        return [str(r.table_id) for r in rows]

    def take_expired_lease(self, table_id: str, holder: str, seconds: float) -> bool:
        """Take table ``table_id``'s lease only if it has expired; True if taken."""
        with self.engine.begin() as conn:
            got = conn.execute(sql_text(
                "UPDATE bot_leases SET holder = :h, expires = now() + make_interval(secs => :s) "
                "WHERE table_id = :t AND expires < now() RETURNING table_id"
            ), {"t": table_id, "h": holder, "s": seconds}).first()
        return got is not None

    def unleased_bot_tables(self) -> list[str]:
        """Unfinished tables with a bot seat and no lease row (stored by an earlier version,
        or left while a person was to move), which a started server should look at."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.seats).where(
                    tables.c.finished.is_(False), tables.c.failure.is_(None),
                    ~tables.c.id.in_(select(bot_leases.c.table_id)))
            ).all()
        return [str(r.id) for r in rows if any(s != "human" for s in r.seats)]

    def add_expired_leases(self, table_ids: list[str]) -> None:
        """Lease rows, already expired, for ``table_ids``: the sweep of some process takes them."""
        if not table_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(sql_text(
                "INSERT INTO bot_leases (table_id, holder, expires) "
                "SELECT t, '', now() - interval '1 second' FROM unnest(CAST(:ids AS text[])) AS t "
                "ON CONFLICT (table_id) DO NOTHING"), {"ids": table_ids})

    def listen_url(self) -> str:
        """The libpq URL of the database, for the ``LISTEN`` connection."""
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)
