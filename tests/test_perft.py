"""perft: rules changes show up as numbers; changing these counts is a deliberate, explained
commit.

As python-chess checks perft in CI, the exact size of the legal-action tree below fixed
positions of every game (``tests/perft/<game>/*.json``, written by
``tests/perft/make_positions.py``, which says how each was found) is checked against that
folder's ``counts.json``. Chance is part of the state, so the counts are exact. If a count moves,
either the change was meant to alter the rules (then regenerate with ``make_positions.py
--counts`` and say why in the commit), or it is a bug.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_architecture import imports
from toy_game import GAME as TOY

from citywatch.cli import main
from citywatch.core.registry import GAMES as REGISTERED
from citywatch.core.registry import game_names, load
from citywatch.perft import divide, perft, perft_counts

PERFT = Path(__file__).parent / "perft"
GAMES = [name for name in game_names() if REGISTERED[name].startswith("citywatch.games.")]
"""The package's games (not one a test registers, as the toy game)."""
COUNTS: dict[str, dict[str, dict[str, Any]]] = {
    game: json.loads((PERFT / game / "counts.json").read_text())
    for game in GAMES if (PERFT / game / "counts.json").is_file()}
GAME = "ankh-morpork"
FOLDER = PERFT / GAME


def position(name: str, game: str = GAME) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PERFT / game / name).read_text())
    return data


def test_every_game_has_perft_counts() -> None:
    """Issue 25: pinned perft counts for every game, each folder named after a game."""
    assert sorted(COUNTS) == GAMES
    assert sorted(p.name for p in PERFT.iterdir() if p.is_dir() and p.name != "__pycache__") \
        == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_every_position_file_has_counts(game: str) -> None:
    """No fixed position goes unchecked, and no count names a missing file."""
    assert sorted(COUNTS.get(game, {})) == sorted(
        p.name for p in (PERFT / game).glob("*.json") if p.name != "counts.json")


@pytest.mark.parametrize(("game", "name"),
                         [(game, name) for game in sorted(COUNTS) for name in COUNTS[game]])
def test_perft_counts(game: str, name: str) -> None:
    """perft: rules changes show up as numbers; changing these counts is a deliberate,
    explained commit (issue 25: for every game)."""
    expected = COUNTS[game][name]
    state = load(game).from_position(position(name, game))
    assert perft_counts(state, expected["depth"]) == expected["counts"], (
        f"{game} {name}: the perft counts moved; if the rules were meant to change, run "
        "python tests/perft/make_positions.py --counts and say why in the commit")


def test_perft_leaves_the_state_unchanged() -> None:
    state = load(GAME).from_position(position("drumknott-chain-2p.json"))
    before = state.position()
    perft(state, 4)
    divide(state, 3)
    assert state.position() == before


@pytest.mark.parametrize("name", ["interrupt-question-4p.json", "start-3p-seed2.json"])
def test_divide_sums_to_perft(name: str) -> None:
    state = load(GAME).from_position(position(name))
    rows = divide(state, 4)
    assert [text for text, _ in rows] == [str(a) for a in state.legal_actions()]
    assert sum(count for _, count in rows) == perft(state, 4) == perft_counts(state, 4)[-1]


def test_toy_start_counted_by_hand() -> None:
    """High Card, 2 seats of 2 cards and a pile of 6: the seat to move plays one of its 2 cards
    or draws (3); so does the other (3 x 3 = 9); then the first seat has 1 card after a play
    (play it or draw: 2) or 3 after a draw (play one of them; a full hand may not draw: 3):
    2 x 3 x 2 + 1 x 3 x 3 = 21."""
    state = TOY.new_game(2, 1)
    assert perft(state, 0) == 1
    assert perft_counts(state, 3) == [3, 9, 21]
    assert [count for _, count in divide(state, 3)] == [6, 6, 9]


def test_a_finished_game_is_one_leaf_at_every_greater_depth() -> None:
    """Each seat has played once and holds one card. Seat 1 plays its card or draws (2); seat 2
    likewise (4); at depth 3 the line play, play has ended the game and counts once, and the
    other three lines leave a seat with 2 cards and a non-empty pile (3 each): 1 + 3 x 3 = 10."""
    near_end = TOY.from_position({"players": 2, "hands": [[1], [2]], "played": [[3], [4]],
                                  "pile": [5, 6, 7, 8, 9, 10], "current": 0, "turns": 2,
                                  "rng": 1})
    assert perft_counts(near_end, 3) == [2, 4, 10]
    finished = near_end.copy()
    finished.apply(finished.legal_actions()[0])
    finished.apply(finished.legal_actions()[0])
    assert finished.to_move is None
    assert perft_counts(finished, 3) == [1, 1, 1]
    assert divide(finished, 2) == []


def test_bad_depths() -> None:
    state = TOY.new_game(2, 1)
    with pytest.raises(ValueError):
        perft_counts(state, -1)
    with pytest.raises(ValueError):
        divide(state, 0)


def test_perft_uses_only_the_core() -> None:
    """perft is game-agnostic: it imports the core API and nothing else of citywatch."""
    assert all(name.startswith("citywatch.core") for name in imports("citywatch.perft"))


# --- the command line ------------------------------------------------------------------------
def test_cli_prints_the_count_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    name = "random-event-next-4p.json"
    assert main(["perft", GAME, str(FOLDER / name), "--depth", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    counts = COUNTS[GAME][name]["counts"][:4]
    assert lines[1:5] == [f"depth {d}: {n}" for d, n in enumerate(counts, start=1)]
    assert lines[-1].startswith("time: ") and lines[-1].endswith(" s")


def test_cli_divide_sums_to_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    name = "assassination-choice-3p.json"
    assert main(["perft", GAME, str(FOLDER / name), "--depth", "4", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows, total = lines[1:-2], lines[-2]
    assert rows[0].startswith("Assassinate Blue's minion in Dolly Sisters: ")
    assert sum(int(row.rpartition(": ")[2]) for row in rows) == COUNTS[GAME][name]["counts"][3]
    assert total == f"total at depth 4: {COUNTS[GAME][name]['counts'][3]}"


def test_cli_from_a_new_game(capsys: pytest.CaptureFixture[str], toy_registered: object) -> None:
    assert main(["perft", GAME, "--seed", "1", "--players", "2", "--depth", "3"]) == 0
    assert "depth 3: 72" in capsys.readouterr().out
    assert main(["perft", "toy", "--seed", "1", "--players", "2", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "toy perft from a new game of 2 players, seed 1" in out and "depth 3: 21" in out


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"),
    ("{", "not valid JSON"),
    ("[1, 2]", "a position is a JSON object"),
    ('{"players": 2}', "perft.json: "),
])
def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None,
                    message: str) -> None:
    """An unreadable file, invalid JSON or an invalid position: a clear error, exit 2."""
    path = tmp_path / "perft.json"
    if content is not None:
        path.write_text(content)
    assert main(["perft", GAME, str(path), "--depth", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("citywatch perft: error: ") and message in captured.err


@pytest.mark.parametrize("args", [
    ["--depth", "2"],
    [str(FOLDER / "start-2p-seed1.json"), "--seed", "1", "--depth", "2"],
    [str(FOLDER / "start-2p-seed1.json"), "--players", "3", "--depth", "2"],
    ["--seed", "1", "--players", "9", "--depth", "2"],
])
def test_cli_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(["perft", GAME, *args]) == 2
    assert capsys.readouterr().err.startswith("citywatch perft: error: ")


def test_cli_depth_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["perft", GAME, "--seed", "1", "--depth", "0"])
    assert exit_.value.code == 2
