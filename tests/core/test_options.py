"""Game options (``Game.options``): declared by each game, checked by the core, offered by
every interface that starts a game (``play``, ``simulate``, ``tournament``, ``perft --seed``,
the web server) and kept by records, saves, studies and stored tables.

Guards! Guards! declares two (rulebook, Winning the Game, the Short Game; citywatch ruling 6):
``spells``, the Great Spells to return to win (1-5, default 5), and ``rounds``, the rounds
after which the game is judged (0-300, default 100; 0: no limit). Ankh-Morpork has none.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import citywatch
from citywatch.cli import main
from citywatch.core.api import GameOption
from citywatch.core.record import Record, replay
from citywatch.saves import list_saves
from citywatch.server import create_app
from citywatch.server.storage import Storage
from citywatch.simulate import simulate
from citywatch.tournament import tournament

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GG = citywatch.load("guards-guards")
AM = citywatch.load("ankh-morpork")
SPELLS = {"name": "spells", "help": "Great Spells to win", "default": 5, "min": 1, "max": 5,
          "tuning": False}


# --- the core --------------------------------------------------------------------------

def test_guards_guards_declares_spells_and_rounds_and_ankh_morpork_none() -> None:
    """The Short Game's two options, with their ranges and defaults; Ankh-Morpork has none."""
    assert [o.to_json() for o in GG.options] == [
        SPELLS,
        {"name": "rounds", "help": GG.options[1].help, "default": 100, "min": 0, "max": 300,
         "tuning": False},
    ]
    assert AM.options == ()
    assert GG.option_values({}) == {"spells": 5, "rounds": 100}
    assert GG.option_values({"spells": 2}) == {"spells": 2, "rounds": 100}
    assert GG.changed_options({"spells": 5, "rounds": 30}) == {"rounds": 30}
    assert AM.option_values({}) == {}


@pytest.mark.parametrize(("options", "words"), [
    ({"spells": 0}, "option spells must be a whole number from 1 to 5 (Great Spells to win)"),
    ({"spells": 6}, "option spells must be a whole number from 1 to 5"),
    ({"spells": True}, "option spells must be a whole number from 1 to 5"),
    ({"spells": 2.0}, "option spells must be a whole number from 1 to 5"),
    ({"spells": "2"}, "not '2'"),
    ({"rounds": -1}, "option rounds must be a whole number from 0 to 300"),
    ({"rounds": 301}, "option rounds must be a whole number from 0 to 300"),
    ({"colour": 1}, "unknown options for guards-guards: colour (its options are spells, rounds)"),
])
def test_bad_options_are_refused_naming_the_option_and_its_range(options: dict[str, Any],
                                                                  words: str) -> None:
    """``new_game`` (through ``check_new_game``) refuses an unknown option, one that is not a
    whole number (a bool is not one) and one out of range, with a sentence that names it."""
    with pytest.raises(ValueError) as caught:
        GG.new_game(3, 1, **options)
    assert words in str(caught.value)
    with pytest.raises(ValueError, match="it has no options"):
        AM.new_game(3, 1, spells=2)


def test_an_option_sets_the_game_up_and_defaults_keep_todays_game() -> None:
    """``spells=2``: the first to return 2 Great Spells wins (said in the log); the defaults
    give the same game as no options at all."""
    short = GG.new_game(3, 1, spells=2, rounds=0)
    assert short.position()["spells_to_win"] == 2 and short.position()["rounds"] == 0
    assert "the first to return 2 Great Spells wins" in short.log()[0]
    plain = GG.new_game(3, 1)
    assert plain.position() == GG.new_game(3, 1, spells=5, rounds=100).position()
    assert plain.position()["spells_to_win"] == 5 and plain.position()["rounds"] == 100


def test_a_number_option_needs_a_maximum_and_known_options_pass() -> None:
    """A number option without an upper bound cannot be declared (issue 24); ``check_new_game``'s
    ``known`` names still pass through unchecked for a game that checks them itself."""
    with pytest.raises(ValueError, match="number option turns needs a maximum"):
        GameOption("turns", "turns to play", 10, 1)
    turns = GameOption("turns", "turns to play", 10, 1, 50)
    assert turns.check(50) == 50 and turns.describe_range() == "1-50"
    with pytest.raises(ValueError, match="from 1 to 50"):
        turns.check(51)
    assert GG.check_new_game(2, {"house_rule": "x"}, known=("house_rule",)) == {
        "spells": 5, "rounds": 100, "house_rule": "x"}


LEVEL = GameOption("level", "how hard", "medium", choices=("easy", "medium", "hard"))


def test_a_choice_option_takes_one_of_its_words() -> None:
    """A choice option (a game's difficulty, say) takes only its words, says which in its
    error, and offers them as JSON for the start page's pick."""
    assert LEVEL.check("hard") == "hard"
    assert LEVEL.describe_range() == "easy, medium or hard"
    for bad in ("Hard", 2, None, {"name": "x"}):
        with pytest.raises(ValueError, match="option level must be one of easy, medium, hard"):
            LEVEL.check(bad)
    assert LEVEL.to_json() == {"name": "level", "help": "how hard", "default": "medium",
                               "choices": ["easy", "medium", "hard"]}


# --- the command line ------------------------------------------------------------------

def test_games_lists_each_games_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``citywatch games`` lists each option with its range and default."""
    assert main(["games"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # each option wrapped to 80 columns
    assert "--option spells=N: Great Spells to win (1-5, default 5)" in out
    assert "(0-300, default 100)" in out


def test_simulate_with_spells_2_plays_games_to_2_spells(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --option spells=2``: the summary names the options, every record keeps
    them and replays to a game set up for 2 spells, and the heuristic bots win by returning
    the second spell, the Final Spell (citywatch ruling 6's Short Game)."""
    records = tmp_path / "records"
    assert main(["simulate", "guards-guards", "--players", "2", "--games", "2", "--seed", "3",
                 "--bots", "heuristic", "--option", "spells=2", "--workers", "1",
                 "--records", str(records), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["options"] == {"spells": 2, "rounds": 100}
    assert summary["end_reasons"] == {"the Final Spell returned": 2}
    for path in sorted(records.glob("game-*.json")):
        record = Record.load(path)
        assert record.options == {"spells": 2}
        state = replay(record, verify=True)
        outcome = state.outcome()
        assert outcome is not None and state.position()["spells_to_win"] == 2
        assert outcome.points is not None and max(outcome.points) == 2


def test_tournament_and_perft_take_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``tournament`` plays every deal with the options and reports them; ``perft --seed``
    counts from a new game set up with them."""
    result = tournament("guards-guards", ["random", "random"], 2, 5, options={"rounds": 2})
    assert result["options"] == {"spells": 5, "rounds": 2}
    assert main(["tournament", "guards-guards", "--bots", "heuristic,heuristic", "--games", "2",
                 "--option", "spells=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"spells": 1, "rounds": 100}
    assert main(["perft", "guards-guards", "--seed", "1", "--players", "2", "--depth", "1",
                 "--option", "spells=2"]) == 0
    assert "a new game of 2 players, spells 2, seed 1" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "words"), [
    (["simulate", "guards-guards", "--option", "spells=9"], "from 1 to 5"),
    (["simulate", "guards-guards", "--option", "spells"], "is not NAME=VALUE"),
    (["simulate", "guards-guards", "--option", "spells=two"], "must be a whole number"),
    (["simulate", "ankh-morpork", "--option", "spells=2"], "it has no options"),
    (["tournament", "guards-guards", "--bots", "random,random", "--option", "size=2"],
     "unknown options for guards-guards: size"),
    (["perft", "guards-guards", "--seed", "1", "--depth", "1", "--option", "rounds=-1"],
     "from 0 to 300"),
    (["perft", "guards-guards", "start.json", "--depth", "1", "--option", "spells=2"],
     "a position file has its own options"),
    (["play", "guards-guards", "--seats", "you,bot", "--option", "spells=0"], "from 1 to 5"),
    (["play", "guards-guards", "--option", "spells=2", "--option", "spells=3"],
     "option spells is given twice"),
    (["play", "--resume", "--option", "spells=2"], "a resumed game keeps its options"),
])
def test_bad_options_exit_2_and_start_nothing(
        args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bad ``--option`` is a usage error (exit status 2, the reason on stderr) and nothing
    is started: no game is saved."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as caught:
        main(args)
    assert caught.value.code == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "saves").exists()


# --- the terminal and saves ------------------------------------------------------------

def test_a_saved_terminal_game_resumes_with_its_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game started with ``spells=2`` is saved with it, listed with it, shown with it in
    the title, and resumes set up for 2 spells; a save from before options still loads."""
    from io import StringIO

    from rich.console import Console

    from citywatch.terminal import app

    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    answers = iter(["quit"])
    game = app.new_game("guards-guards", ["you", "random"], 4, lambda _p: next(answers),
                        Console(file=out, width=120), options={"spells": 2})
    assert game.run() is False
    assert "guards-guards · spells 2 · turn" in out.getvalue()
    saved = Record.load(game.path)
    assert saved.options == {"spells": 2}
    [save], broken = list_saves()
    assert not broken and "players (you, random), spells 2," in save.describe()
    resumed_out = StringIO()
    picks = iter(["quit"])
    assert app.resume(lambda _p: next(picks), Console(file=resumed_out, width=120), "1") == 0
    assert "guards-guards · spells 2 · turn" in resumed_out.getvalue()
    assert replay(Record.load(game.path)).position()["spells_to_win"] == 2

    old = saved.to_json()
    del old["options"]  # a save written before games had options
    game.path.write_text(json.dumps(old))
    [save], broken = list_saves()
    assert not broken and save.record.options == {}
    assert replay(save.record).position()["spells_to_win"] == 5


# --- the web server --------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'options.db'}", bot_delay=30)) as c:
        yield c


def test_api_games_lists_each_games_options(client: TestClient) -> None:
    """``GET /api/games``: each option's name, help, default and range; a game without
    options has no ``options`` key."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["guards-guards"]["options"][0] == SPELLS
    assert games["guards-guards"]["options"][1]["max"] == 300
    assert "options" not in games["ankh-morpork"]


def test_a_table_keeps_its_options_across_a_restart(tmp_path: Path) -> None:
    """A table created with ``{"spells": 2}`` is set up with it, shows it to every seat
    (``table.options``, the non-default ones), stores it, and a restarted server replays the
    table with it."""
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(url, bot_delay=30)) as client:
        response = client.post("/api/tables", json={
            "game": "guards-guards", "seats": ["human", "random"], "seed": 3,
            "options": {"spells": 2, "rounds": 100}})
        assert response.status_code == 200, response.text
        created = response.json()
        assert created["options"] == {"spells": 2, "rounds": 100}
        token = created["seats"][0]["link"].removeprefix("/play/")
        before = client.get(f"/api/view/{token}").json()
        assert before["table"]["options"] == {"spells": 2}
        assert before["view"]["spells_to_win"] == 2
        assert before["view"] == GG.new_game(2, 3, spells=2).view(0)
        plain = client.post("/api/tables", json={"game": "guards-guards",
                                                 "seats": ["human", "random"], "seed": 3})
        spectator = plain.json()["spectator"].removeprefix("/play/")
        assert "options" not in client.get(f"/api/view/{spectator}").json()["table"]
    with TestClient(create_app(url, bot_delay=30)) as client:
        after = client.get(f"/api/view/{token}").json()
        assert after["table"]["options"] == {"spells": 2}
        assert after["view"] == before["view"]


@pytest.mark.parametrize("options", [
    "spells=2", [2], {"spells": 9}, {"spells": True}, {"spells": "2"}, {"dragons": 0},
])
def test_bad_table_options_are_refused_and_create_nothing(
        client: TestClient, options: Any) -> None:
    """Options that are not an object of the game's options, each a whole number in its
    range, are a 400 with a sentence; no table is created."""
    storage = client.app.state.storage  # type: ignore[attr-defined]
    response = client.post("/api/tables", json={"game": "guards-guards",
                                                 "seats": ["human", "random"],
                                                 "options": options})
    assert response.status_code == 400
    assert "option" in response.json()["error"]
    response = client.post("/api/tables", json={"game": "ankh-morpork",
                                                 "seats": ["human", "random"],
                                                 "options": {"spells": 2}})
    assert response.status_code == 400
    assert "it has no options" in response.json()["error"]
    with storage.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM tables").scalar_one() == 0


def test_an_older_database_gains_the_options_column(tmp_path: Path) -> None:
    """A database written before tables had options gains the column when opened; its
    tables have no options (the defaults)."""
    path = tmp_path / "old.db"
    storage = Storage(f"sqlite:///{path}")
    storage.create_table("t1", "guards-guards", 2, 5, ["human", "random"], {"x" * 43: 0})
    storage.close()
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE tables DROP COLUMN options")
    storage = Storage(f"sqlite:///{path}")
    row = storage.table("t1")
    assert row is not None and row.options == {}
    storage.create_table("t2", "guards-guards", 2, 5, ["human", "random"], {"y" * 43: 0},
                         {"spells": 3})
    again = storage.table("t2")
    assert again is not None and again.options == {"spells": 3}
    storage.close()


def test_simulate_api_keeps_options_in_the_summary() -> None:
    """``simulate(..., options=...)``: the summary names every option's value, and the
    games stop after the rounds asked for (the Short Game)."""
    summary = simulate("guards-guards", 2, 1, 1, ["random"], options={"rounds": 2}).to_json()
    assert summary["options"] == {"spells": 5, "rounds": 2}
    assert summary["end_reasons"] == {"2 rounds played": 1}


def test_the_study_report_names_its_options(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A lab report of a short game says which options set it up (page and plot titles)."""
    report = tmp_path / "report"
    assert main(["simulate", "guards-guards", "--players", "2", "--games", "2", "--seed", "4",
                 "--bots", "heuristic", "--option", "spells=2", "--workers", "1",
                 "--moments", "0", "--report", str(report), "--json"]) == 0
    capsys.readouterr()
    page = (report / "index.html").read_text()
    assert "options spells=2, rounds=100" in page
