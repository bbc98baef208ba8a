"""Backends: a study's games played in batches, in this process (``run_serial``), in a pool of
processes (``run_processes``) or as Ray tasks (``run_ray``).

Workers run a ``Work``: a batch of game indices in, what it sends back and the seconds it took
out. Playing games is ``timed_batch`` (with the study and whether to keep records bound by
``functools.partial``; workers import it from this module by name); the decisive moments'
analyses (``lab.moments``) are another. ``Batcher`` sizes the batches."""

from __future__ import annotations

import logging
import math
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from citywatch.bots import make_bot
from citywatch.lab.play import play_game
from citywatch.lab.results import Result
from citywatch.lab.study import LabError, Study, game_options, game_seeds

MAX_BATCH = 64
BATCH_SECONDS = 0.5


Played = tuple[dict[str, Any], dict[str, Any] | None]
"""A played game as sent back by a worker: its result line, and its record if asked for."""

T = TypeVar("T")

Work = Callable[[tuple[int, ...]], tuple[list[T], float]]
"""A batch's work in a worker: what it sends back for the game indices given (an item per
game) and the seconds it took. It must pickle (a module-level function, or a
``functools.partial`` of one) to reach worker processes and Ray tasks."""


def play_batch(study: Study, indices: Sequence[int], records: bool = False) -> list[Played]:
    """Play the games ``indices`` of ``study`` (in a worker); return their results."""
    bots = [make_bot(spec, study.game) for spec in study.bots]
    out: list[Played] = []
    for index in indices:
        game_seed, bot_seed = game_seeds(study.seed, index)
        game = play_game(study.game, study.players, game_seed, bots, bot_seed, digests=records,
                         options=game_options(study, index))
        outcome = game.outcome
        points = outcome.seat_points()
        result = Result(index, game_seed, bot_seed, game.first, tuple(outcome.winners),
                        outcome.reason, game.turns, game.decisions,
                        outcome.roles,
                        None if points is None else tuple(int(p) for p in points),
                        tuple(tuple(c) for c in game.cards), outcome.cooperative)
        out.append((result.to_json(), game.record.to_json() if records else None))
    return out


def timed_batch(study: Study, records: bool, indices: Sequence[int]
                ) -> tuple[list[Played], float]:
    """``play_batch`` and the seconds it took (for worker processes and Ray tasks)."""
    start = time.perf_counter()
    played = play_batch(study, indices, records)
    return played, time.perf_counter() - start


def _worker_init() -> None:
    """Leave Ctrl-C to the main process."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Batcher:
    """Hands out the games to play in batches that take about ``BATCH_SECONDS`` each.

    The first batches hold one game; later ones are sized from the seconds per game seen so
    far, at most ``MAX_BATCH`` games and at most a share of what is left, so every worker
    stays busy to the end. ``in_flight`` batches are kept queued: two per worker.
    """

    def __init__(self, todo: Sequence[int], workers: int) -> None:
        self.todo = deque(todo)
        self.workers = workers
        self.in_flight = 2 * workers
        self.games = 0
        self.seconds = 0.0

    def next(self) -> tuple[int, ...] | None:
        """The next batch, or None when every game has been handed out."""
        if not self.todo:
            return None
        size = 1
        if self.games and self.seconds > 0:
            size = round(BATCH_SECONDS * self.games / self.seconds)
        share = math.ceil(len(self.todo) / (2 * self.workers))
        size = max(1, min(size, MAX_BATCH, share))
        return tuple(self.todo.popleft() for _ in range(min(size, len(self.todo))))

    def finished(self, games: int, seconds: float) -> None:
        """Note a batch of ``games`` that took ``seconds``."""
        self.games += games
        self.seconds += seconds


def run_work(work: Work[T], batch: tuple[int, ...]) -> tuple[list[T], float]:
    """Run ``work`` on ``batch`` (the function Ray tasks run)."""
    return work(batch)


Emit = Callable[[Played], None]


def run_serial(study: Study, todo: Sequence[int], records: bool, emit: Emit) -> None:
    """Play the games one after another in this process."""
    for index in todo:
        for played in play_batch(study, [index], records):
            emit(played)


def run_processes(work: Work[T], todo: Sequence[int], emit: Callable[[T], None],
                  workers: int) -> None:
    """Run ``work`` on batches of ``todo`` in ``workers`` processes on this machine; ``emit``
    each item sent back, as the batches finish."""
    batcher = Batcher(todo, workers)
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init) as pool:
        pending: set[Future[tuple[list[T], float]]] = set()
        try:
            while True:
                while len(pending) < batcher.in_flight and (batch := batcher.next()):
                    pending.add(pool.submit(work, batch))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    items, seconds = future.result()
                    batcher.finished(len(items), seconds)
                    for item in items:
                        emit(item)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def ray_target(address: str | None) -> tuple[str, int] | None:
    """The (host, port) a Ray address points at, or None for ``local``/``auto``/the default.

    ``LabError`` if the address is not ``HOST:PORT`` or ``ray://HOST:PORT``.
    """
    if address is None:
        address = os.environ.get("RAY_ADDRESS") or None
    if address is None or address in ("local", "auto"):
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise LabError(f"the Ray address {address!r} should be HOST:PORT, ray://HOST:PORT, "
                       "'auto' or 'local'")
    return host, int(port)


def run_ray(work: Work[T], todo: Sequence[int], emit: Callable[[T], None],
            address: str | None, workers: int | None) -> int:
    """Run ``work`` on batches of ``todo`` as Ray tasks: on a cluster at ``address``, or
    ``local``; ``emit`` each item sent back, as the batches finish.

    ``None`` is Ray's own default (``RAY_ADDRESS``, a cluster running here, else a new local
    instance). A local instance gets ``workers`` CPUs when given. Code is shipped to a cluster
    as a runtime environment, so its workers need only Ray and the same Python. Return the
    cluster's CPUs.
    """
    try:
        import ray
    except ImportError:
        raise LabError("--ray needs the ray package: pip install 'citywatch[ray]'") from None
    started = False
    if not ray.is_initialized():
        target = ray_target(address)
        if target is not None:
            try:
                socket.create_connection(target, timeout=5).close()
            except OSError as exc:
                reason = exc.strerror or str(exc) or type(exc).__name__
                raise LabError(f"cannot reach the Ray cluster at {address}: {reason}") from None
        options: dict[str, Any] = {}
        if target is not None:
            import citywatch

            options["runtime_env"] = {"py_modules": [citywatch]}
        if not (address or "").startswith("ray://"):  # Ray Client takes no other options
            options.update(log_to_driver=False, logging_level=logging.ERROR)
        if target is None:
            options["include_dashboard"] = False
        if address == "local" and workers is not None:
            options["num_cpus"] = workers
        try:
            ray.init(address=address, **options)
        except Exception as exc:  # Ray raises many kinds; all mean no cluster
            hint = ("; a cluster with token authentication also needs RAY_AUTH_MODE=token"
                    if target is not None and "RAY_AUTH_MODE" not in os.environ else "")
            raise LabError(f"cannot start or join the Ray cluster at {address or 'default'}: "
                           f"{exc}{hint}") from None
        started = True
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = max(1, int(resources.get("CPU", 1)))
        task: Any = ray.remote(num_cpus=1)(run_work)
        batcher = Batcher(todo, cpus)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < batcher.in_flight and (batch := batcher.next()):
                    pending.append(task.remote(work, batch))
                if not pending:
                    break
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    items, seconds = ray.get(ref)
                    batcher.finished(len(items), seconds)
                    for item in items:
                        emit(item)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return cpus
    finally:
        if started:
            ray.shutdown()
