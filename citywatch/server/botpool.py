"""Work that takes time runs in bounded pools of worker processes, off the event loop.

``WorkerPool`` runs a function in one of at most ``workers`` processes; a call that runs
longer than ``time_limit`` seconds is stopped (its process is killed and replaced). Bots think
in a ``BotPool``: people's requests never wait for a bot, and a decision that fails or runs out
of time is reported as a ``BotFailure``. A bot that does not think (``random``) decides at
once in the server's process, the same way. A table's set-up runs in a pool of its own
(``Tables.setup_pool``; issue 24).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from typing import Any

from pebble import ProcessPool

from citywatch.bots.decide import decide, decide_in, is_instant
from citywatch.core.api import State
from citywatch.core.registry import GAMES
from citywatch.core.rng import Seed

log = logging.getLogger("citywatch.server")

TIME_LIMIT = 20.0
"""Default seconds one bot decision may take."""
MAX_TASKS = 500
"""A worker process is replaced after this many calls (memory stays bounded)."""
PRELOAD = ["citywatch.bots.decide", "citywatch.server.setup", "citywatch.server.coaching",
           *GAMES.values()]
"""Modules the fork server imports once (every registered game's among them), so that a new
worker starts at once."""


def default_workers() -> int:
    """One worker per core but one (at least one): a core is left for people's requests."""
    return max(1, (os.cpu_count() or 2) - 1)


class BotFailure(Exception):
    """A bot could not decide; ``reason`` says why in words fit for the table's page."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WorkerPool:
    """Worker processes, started on first use, each call within ``time_limit`` seconds."""

    def __init__(self, workers: int | None = None, time_limit: float = TIME_LIMIT) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        if time_limit <= 0:
            raise ValueError("the time limit of a worker's call must be positive")
        self.workers = workers or default_workers()
        self.time_limit = time_limit
        self._pool: ProcessPool | None = None

    def _started(self) -> ProcessPool:
        if self._pool is None or not self._pool.active:
            # forkserver: workers start from a clean process, not a copy of the server's
            # threads; the citywatch modules are imported once, in the fork server
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._pool = ProcessPool(max_workers=self.workers, max_tasks=MAX_TASKS,
                                     context=context)
        return self._pool

    async def run(self, function: Callable[..., Any], *args: Any,
                  time_limit: float | None = None) -> Any:
        """``function(*args)`` in a worker (importable by name); ``TimeoutError`` after
        ``time_limit`` seconds (default: the pool's; the worker is replaced), or the
        exception it raised."""
        limit = self.time_limit if time_limit is None else time_limit
        future = self._started().schedule(function, args=args, timeout=limit)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()  # type: ignore[no-untyped-call]
            raise

    def close(self) -> None:
        """Stop every worker."""
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=10)
            self._pool = None


class BotPool(WorkerPool):
    """Worker processes for bot decisions."""

    def __init__(self, workers: int | None = None, time_limit: float = TIME_LIMIT,
                 function: Callable[..., Any] = decide) -> None:
        """``function(game, position, seat, spec, seed, step)`` returns the action JSON;
        it must be importable by name (the workers import it)."""
        if workers is not None and workers < 1:
            raise ValueError("the bot pool needs at least one worker")
        if time_limit <= 0:
            raise ValueError("the time limit of a bot decision must be positive")
        super().__init__(workers, time_limit)
        self.function = function

    async def decide(self, state: State, seat: int, spec: str, seed: Seed, step: int) -> Any:
        """The action JSON bot ``spec`` chooses for ``seat``; ``BotFailure`` if it cannot."""
        if self.function is decide and is_instant(spec):
            try:
                return decide_in(state.copy(), seat, spec, seed, step)
            except Exception as exc:
                log.error("bot %r failed at step %d: %r", spec, step, exc)
                raise BotFailure("stopped with an error") from None
        try:
            return await self.run(self.function, state.game.name, state.position(), seat,
                                  spec, seed, step)
        except TimeoutError:
            raise BotFailure(f"took longer than {self.time_limit:g} seconds to decide") from None
        except Exception as exc:
            log.error("bot %r failed at step %d: %r", spec, step, exc)
            raise BotFailure("stopped with an error") from None
