"""The balance lab: many games between bots, in parallel, resumable, summarised with intervals.

A library for any registered game (the caller names it); the ``citywatch simulate`` command
(``citywatch.simulate``) is built on it. Its modules, bottom-up:

- ``play``: playing one game between bots (``play_game``).
- ``study``: what decides a study's games (``make_study``), its sweep, each game's options and
  seeds.
- ``results``: the results file, one line per finished game.
- ``backends``: the games played in this process, in a pool of processes or as Ray tasks.
- ``run``: running a study (``run_study``), with a progress bar.
- ``summary``: the summary (``summarise``, ``Summary``).
- ``report``: the report's files (JSON, CSV, plots, an HTML page).

Game k of a study depends only on the master seed and k: its game seed and bot seed are the
(2k+1)-th and (2k+2)-th numbers of ``Rng(seed)``, however the games are shared out (one process,
a pool of processes on this machine, or a Ray cluster). Each finished game is appended as one
line of JSON to a results file; a rerun of the same study plays only the games still missing.
A study may sweep options (and per-table set-up choices): game k is set up with combination
k mod C of the swept values. A per-seat set-up choice a study leaves unchosen is rotated over
the games through its shipped documents (``seat_rotation``).

This package re-exports the names other code uses; ``report`` is imported on its own.
"""

from __future__ import annotations

from citywatch.lab.backends import MAX_BATCH, Batcher
from citywatch.lab.play import GameResult, first_seat, play_game
from citywatch.lab.results import RESULTS, Result
from citywatch.lab.run import Progress, Run, progress_bar, run_study
from citywatch.lab.study import (
    LabError,
    Study,
    combinations,
    game_options,
    game_seeds,
    make_study,
    seat_rotation,
)
from citywatch.lab.summary import (
    MIN_PLAYS,
    RUN_KEYS,
    TOP_CARDS,
    Summary,
    seat_choice_summary,
    summarise,
)

__all__ = [
    "MAX_BATCH",
    "MIN_PLAYS",
    "RESULTS",
    "RUN_KEYS",
    "TOP_CARDS",
    "Batcher",
    "GameResult",
    "LabError",
    "Progress",
    "Result",
    "Run",
    "Study",
    "Summary",
    "combinations",
    "first_seat",
    "game_options",
    "game_seeds",
    "make_study",
    "play_game",
    "progress_bar",
    "run_study",
    "seat_choice_summary",
    "seat_rotation",
    "summarise",
]
