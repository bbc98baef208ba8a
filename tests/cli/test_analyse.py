"""Issue 30, "Terminal": ``citywatch analyse RECORD.json [--seat N] [--json] [--plot FILE.png]
[--strength ...] [--turning N]`` prints the turning points and draws the graph; a bad record,
an unfinished game, a bad seat, a bad count or plot path is one error line and exit status 2,
nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citywatch.cli import main
from citywatch.core.record import Record
from citywatch.core.registry import load
from citywatch.core.rng import Rng

GAME = "black-keep"
OPTIONS = {"scenario": "tutorial"}
"""The quickest game to analyse: two thieves in the tutorial, a game of 15 decisions."""
HINTS = [{"step": 0, "seat": 0}, {"step": 7, "seat": 1}, {"step": 9, "seat": 0}]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished co-operative game (with three hints asked), a finished competitive one, the
    first of them unfinished, and a file that is not a record."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for name, game, players, options in (("coop", GAME, 2, OPTIONS),
                                         ("versus", "guardians-of-the-city", 2, {})):
        state = load(game).new_game(players=players, seed=1, **options)
        rng = Rng(5)
        actions = []
        while state.to_move is not None:
            action = rng.choice(state.legal_actions())
            actions.append(action.to_json())
            state.apply(action)
        record = Record(game, players, 1, options, actions,
                        meta={"hints": HINTS, "seats": ["you", "random"]})
        paths[name] = folder / f"{name}.json"
        record.save(paths[name])
        if name == "coop":
            paths["open"] = folder / "open.json"
            Record(game, players, 1, options, actions[:4]).save(paths["open"])
    paths["broken"] = folder / "broken.json"
    paths["broken"].write_text('{"game": "black-keep", ', encoding="utf-8")
    return paths


def test_the_turning_points_are_printed_under_a_header(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30, analyse: the text names the game, the players and who sat where, the result,
    the hints used and by whom, then the turning points numbered, each with the hard level's
    view, in lines of at most 80 columns."""
    assert main(["analyse", str(records["coop"]), "--turning", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("black-keep, 2 players: Thief 1 (you), Thief 2 (random)")
    assert "The crew lost" in out and "15 decisions" in out
    assert "Hints used: 3 (Thief 1 2, Thief 2 1)." in out
    assert [line[:12] for line in lines if line[:1].isdigit()] == ["1. Decision ",
                                                                  "2. Decision "]
    assert "The hard level would have" in out
    assert all(len(line) <= 80 for line in lines)


def test_json_has_a_chance_for_every_seat_before_every_decision(
        records: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30, analyse --json: one JSON object whose curve has a row per decision and one for
    the end (len(actions) + 1), a chance per seat; --seat keeps that seat's turning points."""
    actions = Record.load(records["versus"]).actions
    assert main(["analyse", str(records["versus"]), "--json", "--seat", "2",
                 "--turning", "3", "--strength", "quick"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["curve"]) == len(actions) + 1
    assert all(len(row) == 2 and all(0 <= c <= 1 for c in row) for row in data["curve"])
    assert len(data["turning"]) == 3 and {t["seat"] for t in data["turning"]} == {1}
    assert data["hints"] == HINTS and data["cooperative"] is False


def test_plot_writes_a_png(records: dict[str, Path], tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30, analyse --plot: the graph is written as a PNG at the path given (and nothing
    else is left in its folder: the write is atomic)."""
    target = tmp_path / "chances.png"
    assert main(["analyse", str(records["coop"]), "--plot", str(target), "--strength",
                 "quick"]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 10_000
    assert [p.name for p in tmp_path.iterdir()] == ["chances.png"]
    assert f"The graph: {target}" in capsys.readouterr().out


@pytest.mark.parametrize(("record", "extra", "message"), [
    ("broken", [], "is not valid JSON"),
    ("missing", [], "cannot read"),
    ("open", [], "the game is not over"),
    ("coop", ["--seat", "3"], "this game has seats 1 to 2"),
    ("coop", ["--seat", "Nobody"], "no such seat; the seats are 1 (Thief 1), 2 (Thief 2)"),
    ("coop", ["--plot", "{tmp}/no-such-folder/x.png"], "there is no folder"),
    ("coop", ["--plot", "{tmp}/chances.jpg"], "name a file ending in .png"),
])
def test_a_bad_record_seat_or_path_is_one_error_line_and_status_2(
        records: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        record: str, extra: list[str], message: str) -> None:
    """Issue 30, analyse errors: a record that cannot be read, an unfinished game, a seat the
    game lacks or a plot path that cannot be written is one error line and status 2; nothing is
    printed on the output and nothing written."""
    path = records.get(record, tmp_path / "missing.json")
    args = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    assert main(["analyse", str(path), "--plot", str(tmp_path / "g.png"), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("citywatch analyse: error: ")
    assert message in lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("turning", ["21", "-1", "many"])
def test_the_turning_count_is_bounded(records: dict[str, Path], turning: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30, analyse --turning: 0 to 20 (the core's MAX_TURNING_POINTS), checked before
    any work: a usage error, status 2."""
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", str(records["coop"]), "--turning", turning])
    assert exit_.value.code == 2
    assert "argument --turning" in capsys.readouterr().err
