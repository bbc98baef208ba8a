"""The citywatch command: simulate and replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citywatch.cli import main
from citywatch.core.registry import game_names

KEYS = {"game", "players", "games", "seed", "wins_by_seat", "wins_by_role",
        "end_reasons", "mean_turns", "games_per_second", "decisions_per_second"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "citywatch.cli", *args],
                          capture_output=True, text=True, check=False)


def test_simulate_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """simulate --json prints one JSON object with the summary keys; shares add up."""
    assert main(["simulate", "ankh-morpork", "--players", "3", "--games", "12", "--seed", "1",
                 "--bots", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= KEYS
    assert data["games"] == 12 and data["players"] == 3
    assert len(data["wins_by_seat"]) == 3
    assert sum(data["wins_by_seat"]) == pytest.approx(12)
    assert sum(data["wins_by_role"].values()) == pytest.approx(12)
    assert set(data["end_reasons"]) <= {"personality", "riots", "deck"}
    assert all(n > 0 for n in data["end_reasons"].values())
    assert sum(data["end_reasons"].values()) == 12
    assert data["mean_turns"] > 0 and data["decisions_per_second"] > 0


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed gives the same games."""
    outs = []
    for _ in range(2):
        main(["simulate", "ankh-morpork", "--games", "5", "--seed", "9", "--json"])
        data = json.loads(capsys.readouterr().out)
        outs.append((data["wins_by_seat"], data["end_reasons"], data["mean_turns"]))
    assert outs[0] == outs[1]


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "ankh-morpork", "--games", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Red" in out and "end reasons" in out and "games/s" in out


def test_records_replay_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--records writes one record per game; replay --verify reproduces each."""
    records = tmp_path / "records"
    assert main(["simulate", "ankh-morpork", "--games", "3", "--seed", "4", "--records",
                 str(records), "--json"]) == 0
    files = sorted(records.glob("*.json"))
    assert len(files) == 3
    capsys.readouterr()
    assert main(["replay", str(files[0]), "--verify"]) == 0
    assert "every digest matches" in capsys.readouterr().out
    data = json.loads(files[1].read_text())
    data["digests"][7] = "f" * 16
    files[1].write_text(json.dumps(data))
    assert main(["replay", str(files[1]), "--verify"]) == 1
    assert "after action 8" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "chess"],
        ["simulate", "ankh-morpork", "--games", "0"],
        ["simulate", "ankh-morpork", "--games", "ten"],
        ["simulate", "ankh-morpork", "--bots", "genius"],
        ["simulate", "ankh-morpork", "--seed", "-4"],
        ["simulate", "ankh-morpork", "--colour", "red"],
        ["fly"],
    ],
)
def test_bad_options_give_a_clear_error(args: list[str]) -> None:
    """A wrong option is refused with a message and exit status 2, never a traceback."""
    result = run(*args)
    assert result.returncode == 2
    assert "error" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_player_count_is_an_error() -> None:
    result = run("simulate", "ankh-morpork", "--players", "7", "--games", "1")
    assert result.returncode == 2
    assert "2 to 4 players" in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_missing_or_corrupt_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nothing.json"))
    assert result.returncode == 1 and "cannot read" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "ankh-morpork"}')
    result = run("replay", str(bad))
    assert result.returncode == 1 and "no 'players'" in result.stderr
    assert "Traceback" not in result.stderr


def test_games_lists_every_registered_game(capsys: pytest.CaptureFixture[str],
                                            toy_registered: object) -> None:
    """Issue 9: ``citywatch games`` lists the registry's games, player counts and bots; bots
    are checked against the chosen game."""
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = lines.index("ankh-morpork: Discworld: Ankh-Morpork, 2-4 players")
    assert lines[first + 1].startswith("  bots: ") and "heuristic" in lines[first + 1]
    toy = next(i for i, line in enumerate(lines) if line.startswith("toy: "))
    assert lines[toy + 1] == "  bots: easy, normal, hard, ismcts, random"
    assert all(len(line) <= 80 for line in lines), "issue 26: every listing fits 80 columns"
    with pytest.raises(SystemExit):
        main(["tournament", "toy", "--bots", "heuristic,random"])  # toy has no heuristic bot
    assert "unknown bot 'heuristic'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--seats", "you,bot"])  # two games registered: name one
    assert f"name the game: {', '.join(game_names())}" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "says"), [
    ("ismcts:iterations=abc", "bot 'ismcts': iterations must be a whole number, not 'abc'"),
    ("ismcts:exploration=high", "bot 'ismcts': exploration must be a number, not 'high'"),
])
def test_a_bot_option_of_the_wrong_kind_is_named_in_plain_words(spec: str, says: str) -> None:
    """Issue 16: ``--bots ismcts:iterations=abc`` says which option wants a number, not a
    Python message about comparing str and int."""
    result = run("tournament", "guards-guards", "--bots", f"{spec},random", "--games", "2")
    assert result.returncode == 2
    assert says in result.stderr
    assert "not supported between" not in result.stderr and "Traceback" not in result.stderr


def test_a_tournament_says_when_it_rounds_the_games_up(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: ``--games 3`` with two seats plays 4 (whole rotations) and says so."""
    assert main(["tournament", "guards-guards", "--bots", "random,random", "--games", "3",
                 "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 4
    assert "3 games rounded up to 4, whole rotations of the 2 seats" in captured.err
    assert main(["tournament", "guards-guards", "--bots", "random,random", "--games", "2",
                 "--json"]) == 0
    assert "rounded" not in capsys.readouterr().err


def test_the_help_says_what_citywatch_does(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: ``citywatch --help`` names playing, not only simulating and replaying."""
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "play the city games in the terminal or the browser" in out
    assert "``" not in out


def test_serve_on_a_busy_port_names_the_port_and_the_way_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: ``make play`` on a busy port says which port is busy and how to choose
    another (``--port``, ``make play PORT=...``), with no traceback, and creates nothing."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "citywatch.db"
        assert main(["serve", "--port", str(port), "--db", f"sqlite:///{db}"]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1 port {port}: the port is in use by another program" in err
    assert "make play PORT=N" in err and "Traceback" not in err
    assert not db.exists()
