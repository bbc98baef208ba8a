"""Bots think in a bounded pool of worker processes, off the server's event loop.

At most ``workers`` decisions are computed at once, each in a process of its own, so people's
requests never wait for a bot; a decision that runs longer than ``time_limit`` seconds is
stopped (its process is killed and replaced) and reported as a ``BotFailure``. A bot that
does not think (``random``) decides at once in the server's process, the same way.
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
from citywatch.core.rng import Seed

log = logging.getLogger("citywatch.server")

TIME_LIMIT = 20.0
"""Default seconds one bot decision may take."""
MAX_TASKS = 500
"""A worker process is replaced after this many decisions (memory stays bounded)."""


def default_workers() -> int:
    """One worker per core but one (at least one): a core is left for people's requests."""
    return max(1, (os.cpu_count() or 2) - 1)


class BotFailure(Exception):
    """A bot could not decide; ``reason`` says why in words fit for the table's page."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BotPool:
    """Worker processes for bot decisions, started on first use."""

    def __init__(self, workers: int | None = None, time_limit: float = TIME_LIMIT,
                 function: Callable[..., Any] = decide) -> None:
        """``function(game, position, seat, spec, seed, step)`` returns the action JSON;
        it must be importable by name (the workers import it)."""
        if workers is not None and workers < 1:
            raise ValueError("the bot pool needs at least one worker")
        if time_limit <= 0:
            raise ValueError("the time limit of a bot decision must be positive")
        self.workers = workers or default_workers()
        self.time_limit = time_limit
        self.function = function
        self._pool: ProcessPool | None = None

    def _started(self) -> ProcessPool:
        if self._pool is None or not self._pool.active:
            # forkserver: workers start from a clean process, not a copy of the server's threads
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPool(max_workers=self.workers, max_tasks=MAX_TASKS,
                                     context=context)
        return self._pool

    async def decide(self, state: State, seat: int, spec: str, seed: Seed, step: int) -> Any:
        """The action JSON bot ``spec`` chooses for ``seat``; ``BotFailure`` if it cannot."""
        if self.function is decide and is_instant(spec):
            try:
                return decide_in(state.copy(), seat, spec, seed, step)
            except Exception as exc:
                log.error("bot %r failed at step %d: %r", spec, step, exc)
                raise BotFailure("stopped with an error") from None
        args = (state.game.name, state.position(), seat, spec, seed, step)
        future = self._started().schedule(self.function, args=args, timeout=self.time_limit)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()  # type: ignore[no-untyped-call]
            raise
        except TimeoutError:
            raise BotFailure(f"took longer than {self.time_limit:g} seconds to decide") from None
        except Exception as exc:
            log.error("bot %r failed at step %d: %r", spec, step, exc)
            raise BotFailure("stopped with an error") from None

    def close(self) -> None:
        """Stop every worker."""
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=10)
            self._pool = None
