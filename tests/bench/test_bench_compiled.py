"""Issue 32, ``make bench``: the logic of ``benchmarks/bench_compiled.py`` (compiled against pure
Python, today's engine and OpenSpiel's hearts). Nothing here is timed: the rates are made up."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_compiled as bc  # noqa: E402


def _run(games: float, decisions: float, iterations: float, digest: str = "d1") -> dict[str, Any]:
    return {"games_per_second": games, "decisions_per_second": decisions,
            "ismcts_iterations_per_second": iterations, "digest": digest}


def _result(engines: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {"players": 4, "engines": {engine: {"median": bc.median_rates(runs)}
                                      for engine, runs in engines.items()}}


def test_identical_games_give_the_one_digest() -> None:
    """Issue 32, identical games: every run of every engine reported the same digest."""
    runs = {"pure": [_run(1, 1, 1, "abc")] * 3, "compiled": [_run(2, 2, 2, "abc")] * 3}
    assert bc.common_digest("ankh-morpork", runs) == "abc"


def test_a_compiled_engine_playing_other_games_fails_loudly() -> None:
    """Issue 32, identical games: one compiled run with another digest is a failure that names
    the engines and their digests."""
    runs = {"pure": [_run(1, 1, 1, "a" * 64)] * 3,
            "compiled": [_run(2, 2, 2, "a" * 64), _run(2, 2, 2, "b" * 64)]}
    with pytest.raises(bc.DigestMismatch) as failure:
        bc.common_digest("guards-guards", runs)
    message = str(failure.value)
    assert "guards-guards" in message and "compiled " + "b" * 16 in message
    assert "pure " + "a" * 16 in message


def test_medians_of_each_measure() -> None:
    """Interleaved rounds are summed up by their medians, one measure at a time."""
    runs = [_run(10, 300, 7), _run(30, 100, 5), _run(20, 200, 9)]
    assert bc.median_rates(runs) == {"games_per_second": 20, "decisions_per_second": 200,
                                     "ismcts_iterations_per_second": 7}


def test_table_ratios_are_compiled_over_pure_and_over_today() -> None:
    """Issue 32: compiled against pure Python and against today's engine, beside the target
    of targets.json (random games and ISMCTS; none for decisions)."""
    result = _result({"pure": [_run(400, 80_000, 4000)], "compiled": [_run(1000, 150_000, 9000)],
                      "today": [_run(380, 76_000, 4100)]})
    rows = {row["workload"]: row for row in bc.table_rows({"ankh-morpork": result})}
    games = rows[bc.MEASURES["games_per_second"]]
    assert games["compiled_over_pure"] == pytest.approx(1000 / 400)
    assert games["compiled_over_today"] == pytest.approx(1000 / 380)
    assert games["target"] == bc.TARGETS["ankh-morpork"]["speedup_vs_today"]
    search = rows[bc.MEASURES["ismcts_iterations_per_second"]]
    assert search["compiled_over_today"] == pytest.approx(9000 / 4100)
    assert rows[bc.MEASURES["decisions_per_second"]]["target"] is None


def test_a_missing_compiled_column_is_shown_as_missing() -> None:
    """No compiled modules built: the compiled column and its ratio read "-", not a number."""
    result = _result({"pure": [_run(400, 80_000, 4000)]})
    rows = bc.table_rows({"black-keep": result})
    assert all(row["compiled"] is None and row["compiled_over_pure"] is None for row in rows)
    lines = bc.format_table(rows, with_today=False)
    assert len(lines) == 1 + len(bc.MEASURES)
    assert all(line.split()[-2:] == ["-", "-"] for line in lines[1:])


def test_ratios_to_hearts_are_ours_over_hearts() -> None:
    """OpenSpiel's hearts: each game's decisions and ISMCTS iterations per second over hearts'."""
    result = _result({"pure": [_run(400, 50_000, 4000)], "compiled": [_run(1000, 125_000, 6000)]})
    hearts = {"version": "2.0.2", "games_per_second": 800.0, "decisions_per_second": 50_000.0,
              "decisions_per_game": 61.0, "ismcts_iterations_per_second": 12_000.0}
    slow = _result({"pure": [_run(800, 10_000, 72)], "compiled": [_run(1000, 12_500, 96)]})
    lines = bc.hearts_lines({"ankh-morpork": result, "black-keep": slow}, hearts)
    assert lines[-2].split() == ["ankh-morpork", "x1.00", "x2.50", "x0.33", "x0.50"]
    assert lines[-1].split() == ["black-keep", "x0.20", "x0.25", "x0.006", "x0.008"]


def test_each_game_is_set_against_the_hearts_runs_of_its_own_rounds() -> None:
    """Under a changing load, a game's ratio to hearts uses the hearts runs interleaved with
    that game's, not the median of every hearts run."""
    result = {**_result({"pure": [_run(400, 50_000, 4000)]}),
              "hearts": {"decisions_per_second": 25_000.0, "ismcts_iterations_per_second": 8000.0}}
    overall = {"version": "2.0.2", "games_per_second": 800.0, "decisions_per_second": 50_000.0,
               "decisions_per_game": 61.0, "ismcts_iterations_per_second": 12_000.0}
    last = bc.hearts_lines({"ankh-morpork": result}, overall)[-1].split()
    assert last == ["ankh-morpork", "x2.00", "-", "x0.50", "-"]


def test_no_baseline_without_the_commit(capsys: pytest.CaptureFixture[str]) -> None:
    """--baseline REV with a commit this clone does not have: today's engine is left out, with
    a line saying why, and nothing is checked out."""
    with bc.checkout("0" * 40) as tree:
        assert tree is None
    assert "not measured" in capsys.readouterr().out
    with bc.checkout(None) as tree:
        assert tree is None


def test_hearts_search_runs_as_many_iterations_as_ours() -> None:
    """OpenSpiel's ISMCTS on hearts is given the iterations of our measured search
    (``bench_engine.DEFAULT_SEARCH``), so the two figures describe the same search size."""
    import bench_engine

    from citywatch.bots import parse_spec

    _, options = parse_spec(bench_engine.DEFAULT_SEARCH)
    assert options["iterations"] == bc.HEARTS_ITERATIONS
