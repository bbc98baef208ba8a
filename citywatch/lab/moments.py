"""A study's decisive moments (issue 30): the coach's analysis (``citywatch.coach.analyse``)
of its first finished games, each decision's swing grouped by the card or kind of action it
was (``Game.action_kind``).

A decision's swing is the mover's chance of winning after it less before it, as the mover
could judge it then (``Moment.swing``). Only decisions with a choice count. Per kind: how many
decisions, the mean swing with its 95% interval (Student's t: mean +- t standard errors, so a
kind seen a few times gets the wide interval it deserves) and the mean absolute swing, the
rows sorted by the mean absolute swing, largest first, those of kinds decided fewer than
``SETTLED`` times after the others.

The analyses run in the backends' workers (``swings_batch``), each game's record read from the
records folder when it holds the game, else the game played again from its seeds.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from citywatch.bots import make_bot
from citywatch.coach import analyse
from citywatch.coach.review import replayed_states
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record
from citywatch.lab.backends import run_processes, run_ray
from citywatch.lab.play import play_game
from citywatch.lab.results import Result
from citywatch.lab.run import record_name
from citywatch.lab.study import LabError, Study, game_options, game_seeds

MOMENT_GAMES = 20
"""How many games ``--report`` analyses for the decisive moments unless told."""
MAX_MOMENT_GAMES = 1000
"""The most games a study's decisive moments may analyse (one takes a second or more)."""
LEVEL = "quick"
"""The coach's strength the analyses use."""
SETTLED = 5
"""Kinds decided at least this often are listed first: a kind seen once or twice may top the
list by chance."""
Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student's t quantile of a two-sided 95% interval for 1 to 30 degrees of freedom."""

Swing = tuple[str, float]
"""A decision with a choice: its kind (``Game.action_kind``) and its swing."""
GameSwings = tuple[int, list[Swing]]
"""A game's index and its decisions' swings, in order, as a worker sends them back."""
Progress = Callable[[int, int], None]
"""Told (games analysed, games to analyse) at the start and after every game."""


def check_moment_games(games: Any) -> int:
    """``games`` if it is a whole number from 0 to ``MAX_MOMENT_GAMES``; ``LabError``
    otherwise."""
    if isinstance(games, bool) or not isinstance(games, int) \
            or not 0 <= games <= MAX_MOMENT_GAMES:
        raise LabError(f"the games analysed for the decisive moments must be a whole number "
                       f"from 0 (none) to {MAX_MOMENT_GAMES}, not {games!r}")
    return games


def kept_record(study: Study, index: int, decisions: int, records: Path | None
                ) -> Record | None:
    """Game ``index``'s record from ``records``, if the folder holds it: the study's game,
    seats and game seed, and its ``decisions`` actions; else None."""
    if records is None:
        return None
    try:
        record = Record.load(records / record_name(index))
    except InvalidRecord:
        return None
    game_seed, _ = game_seeds(study.seed, index)
    if (record.game, record.players, record.seed, len(record.actions)) \
            != (study.game, study.players, game_seed, decisions):
        return None
    return record


def game_swings(record: Record) -> list[Swing]:
    """The kind and swing of each decision with a choice of a finished game's ``record``,
    in order (``analyse`` at ``LEVEL``)."""
    analysis = analyse(record, LEVEL, turning=0)
    states, actions = replayed_states(record)
    game = states[0].game
    return [(game.action_kind(states[m.step - 1], actions[m.step - 1]), m.swing)
            for m in analysis.moments if m.choices > 1]


def swings_batch(study: Study, records: Path | None, decisions: Mapping[int, int],
                 indices: Sequence[int]) -> tuple[list[GameSwings], float]:
    """The swings of games ``indices`` (in a worker) and the seconds they took: each game's
    record kept in ``records`` (``kept_record``; ``decisions`` holds each game's count from
    the results), else the game played again from its seeds."""
    start = time.perf_counter()
    bots = None
    out: list[GameSwings] = []
    for index in indices:
        record = kept_record(study, index, decisions[index], records)
        if record is None:
            if bots is None:
                bots = [make_bot(spec, study.game) for spec in study.bots]
            game_seed, bot_seed = game_seeds(study.seed, index)
            record = play_game(study.game, study.players, game_seed, bots, bot_seed,
                               options=game_options(study, index)).record
        out.append((index, game_swings(record)))
    return out, time.perf_counter() - start


def measure_moments(study: Study, results: Sequence[Result], games: int, *,
                    workers: int | None = None, ray: str | None = None, use_ray: bool = False,
                    records: Path | None = None, progress: Progress | None = None
                    ) -> dict[str, Any]:
    """The decisive moments of the first ``games`` of ``results`` (a study's, in game order),
    analysed in ``workers`` processes (default: every core) or as Ray tasks when ``use_ray``
    (``ray`` is the address), as JSON (``moment_summary``)."""
    check_moment_games(games)
    chosen = list(results[:games])
    decisions = {r.index: r.decisions for r in chosen}
    todo = [r.index for r in chosen]
    found: dict[int, list[Swing]] = {}
    if progress is not None:
        progress(0, len(todo))

    def emit(item: GameSwings) -> None:
        found[item[0]] = item[1]
        if progress is not None:
            progress(len(found), len(todo))

    work = partial(swings_batch, study, records, decisions)
    count = workers or os.cpu_count() or 1
    if not todo:
        pass
    elif use_ray:
        run_ray(work, todo, emit, ray, workers)
    elif count == 1 or len(todo) == 1:
        for index in todo:
            for item in work((index,))[0]:
                emit(item)
    else:
        run_processes(work, todo, emit, min(count, len(todo)))
    return moment_summary([found[k] for k in todo])


def moment_summary(games: Sequence[Sequence[Swing]]) -> dict[str, Any]:
    """``games`` (each a game's swings) summarised: ``games``, ``level``, ``decisions`` (with
    a choice) and ``kinds``, a row per kind: ``kind``, ``decisions``, ``mean_swing``,
    ``ci_low``, ``ci_high`` (its 95% interval; ``null`` for a single decision) and
    ``mean_abs_swing``: first the kinds decided at least ``SETTLED`` times, then the others,
    each by ``mean_abs_swing``, largest first (ties by kind)."""
    by_kind: dict[str, list[float]] = {}
    for swings in games:
        for kind, swing in swings:
            by_kind.setdefault(kind, []).append(swing)
    rows = [kind_row(kind, swings) for kind, swings in by_kind.items()]
    rows.sort(key=lambda row: (row["decisions"] < SETTLED, -row["mean_abs_swing"], row["kind"]))
    return {"games": len(games), "level": LEVEL,
            "decisions": sum(row["decisions"] for row in rows), "kinds": rows}


def t95(freedom: int) -> float:
    """Student's t quantile of a two-sided 95% interval with ``freedom`` (>= 1) degrees of
    freedom: the table up to 30, then the Cornish-Fisher expansion (off by under 0.001)."""
    if freedom <= len(T95):
        return T95[freedom - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * freedom)
            + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * freedom ** 2))


def kind_row(kind: str, swings: Sequence[float]) -> dict[str, Any]:
    """One kind's row of ``moment_summary``."""
    n = len(swings)
    mean = sum(swings) / n
    low = high = None
    if n > 1:
        sd = math.sqrt(sum((s - mean) ** 2 for s in swings) / (n - 1))
        half = t95(n - 1) * sd / math.sqrt(n)
        low, high = mean - half, mean + half
    return {"kind": kind, "decisions": n, "mean_swing": mean, "ci_low": low, "ci_high": high,
            "mean_abs_swing": sum(abs(s) for s in swings) / n}
