"""The multi-process duties of a server's tables (docs/server.md, "Running many processes").

``Tables`` owns one ``Cluster``. On PostgreSQL (``Storage.shared``) it follows the ``NOTIFY``s
of every process and catches up the tables held in memory (``_listen``), holds the bot leases
of the tables whose bots this process moves (``LEASE_SECONDS``, renewed every ``TICK``), and
sweeps for expired leases to take those tables over. On both databases it lets the tables
nobody used for ``idle_seconds`` leave memory, and gives the seats whose clock ran out to the
clock's stand-in (issue 31; any process may: the change is made under the table's row
lock). Layering: ``tables.py`` imports this module, never the reverse.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Coroutine
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from citywatch.server.storage import CHANNEL, StorageError

Tables = Any
"""``citywatch.server.tables.Tables``: not imported, so the layers stay one-way."""
LiveTable = Any
"""``citywatch.server.tables.LiveTable``: not imported, so the layers stay one-way."""

log = logging.getLogger("citywatch.server")

LEASE_SECONDS = 5.0
"""How long a bot lease lasts unless renewed: a dead holder's tables move again after this."""
TICK = 1.0
"""Seconds between renewals of the leases held, sweeps for expired ones and idle checks."""
IDLE_SECONDS = 600.0
"""A table nobody used for this long leaves memory (``--idle-seconds``)."""


class Cluster:
    """Bot leases, ``LISTEN``, the sweep for expired leases and idle eviction of ``tables``."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.shared = tables.storage.shared
        self.holder = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process's name in ``bot_leases``."""
        self._held: dict[str, float] = {}
        """Tables whose bot lease this process holds, with when it ends (monotonic clock)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[Any]] = set()

    def start(self) -> None:
        """Start listening (shared databases) and tending: renewals, sweeps, idle eviction."""
        loop = asyncio.get_running_loop()
        if self.shared:
            self._tasks.append(loop.create_task(self._listen()))
        self._tasks.append(loop.create_task(self._tend()))

    async def stop(self) -> None:
        """Stop listening and tending."""
        for task in self._tasks:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._tasks.clear()

    async def drain(self) -> None:
        """Wait for the background work started (``background``) to end."""
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    def background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the event loop without waiting for it (``drain`` waits)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def new_lease(self, bots: bool) -> tuple[str, float] | None:
        """The bot lease a new table is stored with (holder, seconds): on a shared database,
        if it has ``bots``; else none."""
        return (self.holder, LEASE_SECONDS) if self.shared and bots else None

    def hold(self, table_id: str) -> None:
        """Note that this process took ``table_id``'s bot lease just now."""
        self._held[table_id] = time.monotonic() + LEASE_SECONDS - TICK

    async def lease(self, table: LiveTable) -> bool:
        """True if this process holds ``table``'s bot lease (taken now if it is free)."""
        if self._held.get(table.id, 0.0) > time.monotonic():
            return True
        try:
            left = await run_in_threadpool(self.storage.acquire_lease, table.id, self.holder,
                                           LEASE_SECONDS)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot take the bot lease: %s", table.id, exc)
            left = TICK
        if left == 0.0:
            self.hold(table.id)
            return True
        table._lease_wait_until = time.monotonic() + left
        return False

    def lost_lease(self, table: LiveTable) -> None:
        """``table``'s lease turned out to be another process's: stop counting on it."""
        self._held.pop(table.id, None)
        table._lease_wait_until = time.monotonic() + TICK

    def let_go(self, table: LiveTable) -> None:
        """Give up ``table``'s bot lease, if held: expired if a bot is still to move (another
        process takes over), deleted if not (the game is over, failed or a person's turn)."""
        if self._held.pop(table.id, None) is None:
            return
        needed = table._bot_to_move() is not None
        self.background(run_in_threadpool(self._release, table.id, needed))

    def _release(self, table_id: str, needed: bool) -> None:
        try:
            self.storage.release_lease(table_id, self.holder, needed=needed)
        except (StorageError, SQLAlchemyError) as exc:
            log.error("table %s: cannot release the bot lease: %s", table_id, exc)

    def _heard(self, payload: str) -> None:
        """A ``NOTIFY``: ``"<table id> <step>"`` or ``"<table id> about"``."""
        table_id, _space, what = payload.rpartition(" ")
        table = self.tables._live.get(table_id)
        if table is None:
            if table_id in self.tables._loading:
                self.tables._missed.add(table_id)
            return
        if what.isdigit() and int(what) <= table.step:
            return  # already known (this process took it, or caught up)
        table.sync_soon()

    async def _listen(self) -> None:
        """Follow ``NOTIFY``s on one connection of its own, reconnecting if it drops; each
        (re)connection catches up every table in memory, as some may have been missed."""
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.storage.listen_url(),
                                                             autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for table in list(self.tables._live.values()):
                        table.sync_soon()
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except psycopg.Error as exc:
                log.warning("the LISTEN connection failed (%s); reconnecting", exc)
                await asyncio.sleep(TICK)

    async def _tend(self) -> None:
        """Every ``TICK``: renew the leases held, take over expired ones (shared databases),
        and let idle tables leave memory."""
        if self.shared:
            try:
                await run_in_threadpool(self._adopt_unleased)
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot look for tables without a bot lease: %s", exc)
        while True:
            try:
                if self.shared:
                    await self._renew()
                    await self._sweep()
                await self._time_out_due()
                self._evict_idle()
            except (StorageError, SQLAlchemyError) as exc:
                log.error("cannot renew or sweep the bot leases: %s", exc)
            await asyncio.sleep(min(TICK, self.tables.idle_seconds / 2))

    async def _time_out_due(self) -> None:
        """Give every seat whose clock ran out to the clock's stand-in (issue 31)."""
        due = await run_in_threadpool(self.storage.due_clocks, self.tables.now())
        for table_id in due:
            table = await self.tables.revive(table_id, "timed out")
            if table is None:
                continue
            try:
                await table.time_out()
            except Exception as exc:  # a table's failure must not stop the tending
                log.error("table %s: cannot time out its clock: %r", table_id, exc)

    def _adopt_unleased(self) -> None:
        self.storage.add_expired_leases(self.storage.unleased_bot_tables())

    async def _renew(self) -> None:
        ids = [t for t in self._held if t in self.tables._live]
        for table_id in set(self._held) - set(ids):
            del self._held[table_id]
        kept = await run_in_threadpool(self.storage.renew_leases, self.holder, ids,
                                       LEASE_SECONDS)
        until = time.monotonic() + LEASE_SECONDS - TICK
        for table_id in ids:
            if table_id in kept:
                self._held[table_id] = until
            else:
                log.warning("table %s: the bot lease was lost", table_id)
                self._held.pop(table_id, None)

    async def _sweep(self) -> None:
        """Take the expired leases (their holder died or let go) and move those tables' bots."""
        for table_id in await run_in_threadpool(self.storage.expired_leases):
            got = await run_in_threadpool(self.storage.take_expired_lease, table_id,
                                          self.holder, LEASE_SECONDS)
            if not got:
                continue
            self.hold(table_id)
            log.info("table %s: took over its bots", table_id)
            table = await self.tables.revive(table_id, "taken over")
            if table is None:
                self._held.pop(table_id, None)
                await run_in_threadpool(self._release, table_id, False)
                continue
            await table.sync()
            if table.over or table.failure is not None or table._bot_to_move() is None:
                self.let_go(table)
            else:
                table._lease_wait_until = 0.0
                table.start_bots()

    def _evict_idle(self) -> None:
        """Forget the tables nobody used for ``idle_seconds``: no subscriber, no request, no
        bot move. They are replayed from the database when needed again."""
        tables = self.tables
        now = time.monotonic()
        idle = [table for table in tables._live.values()
                if not table.subscribers and not table.busy
                and now - table.used > tables.idle_seconds]
        for table in idle:
            del tables._live[table.id]
            tables._finished.pop(table.id, None)
            self.let_go(table)
            self.background(table.close())
        tables._forget_tokens({table.id for table in idle})
