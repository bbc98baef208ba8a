"""The ``citywatch simulate`` command: a balance study of many games between bots, summarised.

The command sits on the balance lab: ``citywatch.lab`` plays and summarises the games and
``citywatch.lab.report`` writes the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from citywatch import lab
from citywatch.lab import GameResult, Progress, Summary, first_seat, play_game
from citywatch.lab.moments import MOMENT_GAMES, check_moment_games, measure_moments
from citywatch.lab.report import write_report

__all__ = ["GameResult", "Summary", "first_seat", "play_game", "simulate"]


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    bot_names: Sequence[str],
    records: Path | None = None,
    *,
    workers: int | None = 1,
    ray: str | None = None,
    use_ray: bool = False,
    report: Path | None = None,
    progress: Progress | None = None,
    min_plays: int | None = None,
    options: Mapping[str, Any] | None = None,
    sweep: Mapping[str, Sequence[Any] | None] | None = None,
    moments: int | None = None,
) -> Summary:
    """Play ``games`` games; game k's seed is drawn from a generator seeded with ``seed``.

    ``workers`` processes (``None``: every core) or Ray tasks when ``use_ray`` (``ray`` is the
    address). With ``report`` or ``records`` a directory, finished games are kept in its
    ``games.jsonl`` and a rerun continues from them; ``report`` also receives the summary as
    JSON, CSV and an HTML page with plots. ``options`` are the game's (``Game.options``) and
    its set-up choices (``GameType.setup``; a per-seat one left out rotates its shipped
    documents over the games). ``sweep`` names options or per-table set-up choices to sweep
    with their values (``None``: every choice of a choice option, every shipped document of
    a set-up choice), e.g. ``{"NAME": ["a", "b"]}``: game k plays combination k mod C,
    and the summary's ``sweep`` has a row per combination. With ``report``, the coach
    analyses the first ``moments`` games (default ``MOMENT_GAMES``; 0: none) in the same
    workers, and the summary's ``decisive_moments`` has each kind of action's swing
    (``lab.moments``). ``ValueError`` for bad options, or ``moments`` without ``report``.
    """
    if moments is not None:
        check_moment_games(moments)
        if moments and report is None:
            raise lab.LabError("the decisive moments are part of a report: give a report "
                               "folder too")
    study = lab.make_study(game_name, players, seed, bot_names, options, sweep)
    folder = report if report is not None else records
    results, run = lab.run_study(
        study, games, workers=workers, ray=ray, use_ray=use_ray,
        results_file=None if folder is None else folder / lab.RESULTS,
        records=records, progress=progress)
    data = lab.summarise(study, results, run,
                         lab.MIN_PLAYS if min_plays is None else min_plays)
    if report is not None:
        count = MOMENT_GAMES if moments is None else moments
        if count:
            data["decisive_moments"] = measure_moments(
                study, results, count, workers=workers, ray=ray, use_ray=use_ray,
                records=records)
        write_report(report, data, results)
    return Summary.from_json(data)
