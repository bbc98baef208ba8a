"""Running a study: the games not yet in its results file, played by a backend
(``run_study``), and a progress bar."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from citywatch.core.record import Record
from citywatch.lab.backends import Played, run_processes, run_ray, run_serial, timed_batch
from citywatch.lab.results import Result, ResultsFile
from citywatch.lab.study import LabError, Study

Progress = Callable[[int, int], None]
"""Told (games done, games in the study) at the start and after every game."""


def record_name(index: int) -> str:
    """The name of game ``index``'s record file in a study's records folder."""
    return f"game-{index + 1:05d}.json"


@dataclass
class Run:
    """How one run of a study went: backend, workers, games played now and read back."""

    backend: str
    workers: int
    played: int = 0
    resumed: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The run as JSON."""
        return {"backend": self.backend, "workers": self.workers, "games_played": self.played,
                "games_resumed": self.resumed}


def run_study(study: Study, games: int, *, workers: int | None = None, ray: str | None = None,
              use_ray: bool = False, results_file: Path | None = None,
              records: Path | None = None, progress: Progress | None = None,
              ) -> tuple[list[Result], Run]:
    """Play games ``0 .. games-1`` of ``study`` (skipping those already in ``results_file``).

    ``workers`` processes on this machine (default: every core), or Ray tasks when
    ``use_ray`` (``ray`` is the address). Return the results in game order and how it ran.
    """
    if games < 1:
        raise LabError("games must be at least 1")
    if workers is not None and workers < 1:
        raise LabError("workers must be at least 1")
    if use_ray:
        run = Run("ray", workers or 0)
    else:
        count = workers or os.cpu_count() or 1
        run = Run("serial" if count == 1 else "processes", count)
    store = ResultsFile(results_file, study) if results_file is not None else None
    done: dict[int, Result] = {}
    if store is not None:
        done = {k: r for k, r in store.open().items() if k < games}
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    run.resumed = len(done)
    todo = [k for k in range(games) if k not in done]
    if progress is not None:
        progress(len(done), games)

    def emit(played: Played) -> None:
        line, record = played
        result = Result.from_json(line)
        if record is not None and records is not None:
            Record.from_json(record).save(records / record_name(result.index))
        if store is not None:
            store.add(result)
        done[result.index] = result
        run.played += 1
        run.decisions += result.decisions
        if progress is not None:
            progress(len(done), games)

    want = records is not None
    start = time.perf_counter()
    try:
        if not todo:
            pass
        elif use_ray:
            run.workers = run_ray(partial(timed_batch, study, want), todo, emit, ray, workers)
        elif run.workers == 1 or len(todo) == 1:
            run_serial(study, todo, want, emit)
        else:
            run_processes(partial(timed_batch, study, want), todo, emit,
                          min(run.workers, len(todo)))
    finally:
        run.seconds = time.perf_counter() - start
        if store is not None:
            store.close()
    return [done[k] for k in range(games)], run


@contextmanager
def progress_bar(enabled: bool | None = None) -> Iterator[Progress | None]:
    """A rich progress bar on stderr (games done, rate, time left); only on a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.speed
            return Text("" if speed is None else f"{speed:.1f} games/s")

    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task_id: list[Any] = []

    def update(done: int, total: int) -> None:
        if not task_id:
            task_id.append(bar.add_task("games", total=total, completed=done))
        else:
            bar.update(task_id[0], completed=done)

    with bar:
        yield update
