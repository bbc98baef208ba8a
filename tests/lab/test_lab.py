"""The balance lab: parallel and Ray studies, resuming, the summary and the report."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from citywatch import lab
from citywatch.cli import main
from citywatch.core.rng import Rng
from citywatch.simulate import simulate
from citywatch.tournament import wilson

STUDY = lab.make_study("ankh-morpork", 4, 7, ["random"])


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "citywatch.cli", *args], capture_output=True,
                          text=True, check=False, timeout=timeout)


def games_file(path: Path) -> list[dict[str, Any]]:
    """The game lines of a results file, in game order."""
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return sorted(lines, key=lambda g: g["game"])


def same_games(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without what depends on the run (timing, backend)."""
    return {k: v for k, v in summary.items() if k not in lab.RUN_KEYS}


def test_game_seeds_are_the_sequential_draws() -> None:
    """Game k's seeds jump straight to draws 2k+1 and 2k+2 of Rng(seed), as simulate drew them."""
    for seed in (0, 1, 2**63 + 5):
        rng = Rng(seed)
        for k in range(6):
            assert lab.game_seeds(seed, k) == (rng.next64() >> 1, rng.next64() >> 1)


def test_batches_grow_with_the_speed_of_games() -> None:
    """One game first, then batches of about half a second, every game handed out once."""
    batcher = lab.Batcher(range(1000), 2)
    assert batcher.next() == (0,)
    batcher.finished(1, 0.01)
    second = batcher.next()
    assert second == tuple(range(1, 51))
    handed = [0, *second]
    while (batch := batcher.next()) is not None:
        assert len(batch) <= lab.MAX_BATCH
        handed += batch
    assert handed == list(range(1000))


def test_parallel_and_serial_studies_are_identical(capsys: pytest.CaptureFixture[str]) -> None:
    """--workers 2 plays the same games as one process, game for game, and sums them the same."""
    serial, run1 = lab.run_study(STUDY, 60, workers=1)
    parallel, run2 = lab.run_study(STUDY, 60, workers=2)
    assert (run1.backend, run2.backend) == ("serial", "processes")
    assert [r.index for r in parallel] == list(range(60))
    assert serial == parallel
    outs = []
    for workers in ("1", "2"):
        assert main(["simulate", "ankh-morpork", "--games", "60", "--seed", "7",
                     "--workers", workers, "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[1]["run"] == {"backend": "processes", "workers": 2, "games_played": 60,
                              "games_resumed": 0}
    assert same_games(outs[0]) == same_games(outs[1])


def test_parallel_records_are_identical(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """--records in parallel writes the same record files, and the results file beside them."""
    for workers in ("1", "2"):
        assert main(["simulate", "ankh-morpork", "--games", "5", "--seed", "3", "--workers",
                     workers, "--records", str(tmp_path / workers), "--json"]) == 0
    capsys.readouterr()
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == [*(f"game-{k:05d}.json" for k in range(1, 6)), "games.jsonl"]
    for name in names[:-1]:
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes()
    assert games_file(tmp_path / "1" / "games.jsonl") == games_file(tmp_path / "2" / "games.jsonl")


def test_a_killed_study_resumes(tmp_path: Path) -> None:
    """A study killed part-way (with a torn last line) continues when rerun, to the same end."""
    report = tmp_path / "report"
    results = report / lab.RESULTS
    args = ["simulate", "ankh-morpork", "--games", "400", "--seed", "11", "--workers", "2",
            "--moments", "0", "--report", str(report), "--json"]
    child = subprocess.Popen([sys.executable, "-m", "citywatch.cli", *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and child.poll() is None:
            if results.exists() and results.read_text().count("\n") >= 3:
                break
            time.sleep(0.01)
        assert child.poll() is None, "the study finished before it could be killed"
        os.killpg(child.pid, signal.SIGKILL)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    written = len(games_file(results))
    assert 2 <= written < 400
    with results.open("a") as f:
        f.write('{"game": 399, "seed": 12')  # a line torn by the kill
    resumed = cli(*args)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["run"]["games_resumed"] == written
    assert summary["run"]["games_played"] == 400 - written
    assert json.loads((report / "summary.json").read_text())["games"] == 400
    lines = games_file(results)
    assert [g["game"] for g in lines] == list(range(400))
    whole = simulate("ankh-morpork", 4, 400, 11, ["random"], workers=1).to_json()
    assert same_games(summary) == same_games(whole)


def test_resuming_refuses_other_options(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A results file of another study is refused, naming the difference; a finished one is
    read back without playing again."""
    folder = str(tmp_path / "study")
    base = ["simulate", "ankh-morpork", "--games", "4", "--records", folder, "--json"]
    assert main([*base, "--seed", "1"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*base, "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert "error" in err and "seed 1, not seed 2" in err
    assert main([*base, "--seed", "1", "--bots", "random,random,random,heuristic"]) == 2
    assert "bots" in capsys.readouterr().err
    assert main([*base, "--seed", "1", "--workers", "1"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["run"]["games_resumed"] == 4 and again["run"]["games_played"] == 0
    assert same_games(again) == same_games(first)
    (tmp_path / "study" / "games.jsonl").write_text("not json\n{}\n")
    assert main([*base, "--seed", "1"]) == 2
    assert "line 1 is not a study header" in capsys.readouterr().err


def test_resuming_refuses_other_game_options(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A study's results directory is keyed by its game options: rerun with other options it
    is refused, naming them; with the same effective options (a default spelled out) it
    resumes; a header written before studies had options means every default."""
    folder = tmp_path / "study"
    base = ["simulate", "guards-guards", "--players", "2", "--games", "2", "--records",
            str(folder), "--json"]
    assert main([*base, "--option", "rounds=3"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"spells": 5, "rounds": 3}
    assert main([*base, "--option", "rounds=4"]) == 2
    assert "options rounds=3, not options rounds=4" in capsys.readouterr().err
    assert main(base) == 2
    assert "options rounds=3, not options (none)" in capsys.readouterr().err
    assert main([*base, "--option", "rounds=3", "--option", "spells=5"]) == 0
    assert json.loads(capsys.readouterr().out)["run"]["games_resumed"] == 2
    results = folder / lab.RESULTS
    header, *games = results.read_text().splitlines()
    old = {k: v for k, v in json.loads(header).items() if k != "options"}
    results.write_text("\n".join([json.dumps(old), *games]) + "\n")
    assert main([*base, "--option", "rounds=3"]) == 2
    assert "options (none), not options rounds=3" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="ray is not installed (pip install 'citywatch[ray]')")
def test_ray_backend_gives_identical_results(tmp_path: Path) -> None:
    """--ray local --workers 2 starts a local Ray instance and plays the very same games."""
    result = cli("simulate", "ankh-morpork", "--games", "50", "--seed", "7", "--ray", "local",
                 "--workers", "2", "--moments", "0", "--report", str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["run"]["backend"] == "ray" and summary["run"]["workers"] == 2
    serial, run = lab.run_study(STUDY, 50, workers=1)
    assert games_file(tmp_path / lab.RESULTS) == [r.to_json() for r in serial]
    assert same_games(summary) == same_games(lab.summarise(STUDY, serial, run))


def check_rate(rate: dict[str, Any]) -> None:
    assert set(rate) == {"games", "wins", "rate", "ci_low", "ci_high"}
    assert rate["rate"] == pytest.approx(rate["wins"] / rate["games"])
    assert (rate["ci_low"], rate["ci_high"]) == pytest.approx(wilson(rate["wins"], rate["games"]))
    assert rate["ci_low"] <= rate["rate"] <= rate["ci_high"]


def test_summary_fields_are_present_and_consistent() -> None:
    """Every rate carries its Wilson interval; the tables add up to the games played."""
    results, run = lab.run_study(STUDY, 80, workers=1)
    s = lab.summarise(STUDY, results, run, min_plays=10)
    games, players = 80, 4
    assert s["games"] == games and s["seat_names"] == ["Red", "Blue", "Green", "Yellow"]
    assert sum(s["wins_by_seat"]) == pytest.approx(games)
    for seat, rate in enumerate(s["win_rate_by_seat"]):
        check_rate(rate)
        assert rate["games"] == games and rate["wins"] == s["wins_by_seat"][seat]
    assert sum(s["first_player_by_seat"]) == games
    assert len(set(s["first_player_by_seat"])) > 1, "the first player varies"
    for rate in s["win_rate_by_turn_order"]:
        check_rate(rate)
        assert rate["games"] == games
    assert sum(r["wins"] for r in s["win_rate_by_turn_order"]) == pytest.approx(games)
    people = s["win_rate_by_role"]
    assert sum(r["games"] for r in people.values()) == games * players
    assert {k: r["wins"] for k, r in people.items()} == s["wins_by_role"]
    for rate in people.values():
        check_rate(rate)
    assert list(s["win_rate_by_bot"]) == ["random"]
    assert s["win_rate_by_bot"]["random"]["rate"] == pytest.approx(1 / players)
    for reason, rate in s["end_reason_rates"].items():
        assert rate["wins"] == s["end_reasons"][reason] == s["turns_by_end_reason"][reason]["games"]
        assert rate["games"] == games
    for spread in [s["turns"], *s["turns_by_end_reason"].values()]:
        if spread["games"]:
            quartiles = [spread[k] for k in ("min", "q1", "median", "q3", "max")]
            assert quartiles == sorted(quartiles)
    assert s["turns"]["mean"] == pytest.approx(s["mean_turns"])
    top, bottom = s["most_decisive_cards"], s["least_decisive_cards"]
    assert len(top) == lab.TOP_CARDS and len(bottom) == lab.TOP_CARDS
    ranked = [c["rate"] for c in top + bottom]
    assert ranked == sorted(ranked, reverse=True)
    assert not {c["card"] for c in top} & {c["card"] for c in bottom}
    for card in top + bottom:
        check_rate({k: v for k, v in card.items() if k != "card"})
        assert card["games"] >= 10
        assert s["win_rate_by_card"][card["card"]]["wins"] == card["wins"]
    assert all(r["games"] <= games * players for r in s["win_rate_by_card"].values())


def test_cards_and_first_player_are_tracked() -> None:
    """A game's cards are those its seats played (verb 'play'); 'first' is the start's current."""
    import citywatch
    from citywatch.bots import make_bot

    seed, bot_seed = lab.game_seeds(7, 0)
    bots = [make_bot("random", "ankh-morpork")] * 4
    game = lab.play_game("ankh-morpork", 4, seed, bots, bot_seed)
    start = citywatch.load("ankh-morpork").new_game(players=4, seed=seed)
    assert game.first == start.to_move
    played = {a["card"] for a in game.record.actions if a.get("verb") == "play"}
    assert set().union(*map(set, game.cards)) == played
    assert all(len(set(c)) == len(c) for c in game.cards)


def test_summary_takes_end_reasons_from_the_outcomes() -> None:
    """Whatever end reasons a game's outcomes name are counted; none is assumed."""
    results = [lab.Result(k, k, k, 0, (k % 2,), reason, 10 + k, 40, (), None, ((),) * 4)
               for k, reason in enumerate(["checkmate", "stalemate", "checkmate"])]
    s = lab.summarise(STUDY, results, lab.Run("serial", 1))
    assert s["end_reasons"] == {"checkmate": 2, "stalemate": 1}
    assert list(s["end_reason_rates"]) == list(s["turns_by_end_reason"]) == ["checkmate",
                                                                             "stalemate"]
    assert s["turns_by_end_reason"]["checkmate"]["mean"] == 11


def test_report_writes_json_csv_html_and_plots(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """--report writes summary.json, the CSV tables, the PNG plots and an HTML page showing them."""
    report = tmp_path / "report"
    assert main(["simulate", "ankh-morpork", "--games", "30", "--seed", "5", "--players", "3",
                 "--bots", "random,heuristic:lookahead=0,random", "--min-plays", "3",
                 "--moments", "0", "--report", str(report), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert json.loads((report / "summary.json").read_text()) == summary
    assert set(summary["win_rate_by_bot"]) == {"random", "heuristic:lookahead=0"}
    tables = {p.name for p in report.glob("*.csv")}
    assert tables == {"seats.csv", "turn_order.csv", "roles.csv", "bots.csv",
                      "end_reasons.csv", "cards.csv", "games.csv"}
    with (report / "games.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 30 and rows[0]["game"] == "0"
    with (report / "roles.csv").open() as f:
        people = {r["role"]: r for r in csv.DictReader(f)}
    assert set(people) == set(summary["win_rate_by_role"])
    page = (report / "index.html").read_text()
    plots = sorted(report.glob("*.png"))
    assert [p.name for p in plots] == ["cards.png", "end_reasons.png", "roles.png",
                                       "seats.png", "turns.png"]
    for plot in plots:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="{plot.name}"' in page
    assert "95% interval" in page and "By personality" in page


def test_text_summary_and_no_progress_bar_off_a_terminal(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The table shows intervals; with stderr not a terminal nothing is drawn there."""
    assert main(["simulate", "ankh-morpork", "--games", "20", "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "95% interval" in out and "moved first" in out and "end reasons" in out


def test_progress_bar_counts_games() -> None:
    """The progress callback is told (done, total) at the start and after every game."""
    seen: list[tuple[int, int]] = []
    lab.run_study(STUDY, 5, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(k, 5) for k in range(6)]
    with lab.progress_bar(enabled=True) as bar:
        assert bar is not None
        bar(0, 3)
        bar(3, 3)


@pytest.mark.parametrize("args", [
    ["--workers", "0"],
    ["--workers", "two"],
    ["--ray", "127.0.0.1:1"],
    ["--ray", "nowhere"],
    ["--min-plays", "0"],
])
def test_bad_lab_options_give_a_clear_error(args: list[str]) -> None:
    """Bad options and an unreachable Ray cluster: exit 2 with a message, no traceback."""
    result = cli("simulate", "ankh-morpork", "--games", "2", *args, timeout=60)
    assert result.returncode == 2
    assert "error" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_results_line_writes_roles_and_reads_the_older_personalities() -> None:
    """``games.jsonl`` lines name each seat's role ``roles``; lines written before the rename
    (``personalities``) still read."""
    line = lab.Result(0, 1, 2, 0, (1,), "riots", 30, 90, ("A", "B"), (3, 5), ((), ())).to_json()
    assert line["roles"] == ["A", "B"] and "personalities" not in line
    older = {k: v for k, v in line.items() if k != "roles"} | {"personalities": ["A", "B"]}
    assert lab.Result.from_json(older).roles == ("A", "B")
