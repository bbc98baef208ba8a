"""Deck building everywhere: the per-seat set-up choice (``SetupChoice``, issue 25),
``citywatch deck``, ``--deck`` through simulate, tournament and records, the server's deck
picks and the lab's deck-against-deck matrix (issue 11)."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from citywatch import lab
from citywatch.cli import main
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.lab import report as lab_report
from citywatch.saves import Save

GAME = "guardians-of-the-city"
BOOK = load(GAME).type.choice("decks")
assert BOOK is not None and BOOK.per_seat
STARTERS = BOOK.shipped()
IDS = [deck["id"] for deck in STARTERS]


def own_deck(name: str = "My own deck") -> dict[str, Any]:
    """A legal deck of one's own: the first starter deck renamed, without its id."""
    deck = {k: v for k, v in copy.deepcopy(STARTERS[0]).items() if k != "id"}
    deck["name"] = name
    return deck


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_only_games_with_decks_declare_the_choice() -> None:
    """Rulebook: each seat brings a deck; the other games have no set-up choice per seat."""
    assert load("ankh-morpork").type.setup == ()
    assert load("guards-guards").type.setup == ()
    assert len(IDS) == 4 and BOOK.default(3) == IDS[:3]


def test_deck_list_names_every_starter_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list"]) == 0
    out = capsys.readouterr().out
    for deck in STARTERS:
        assert deck["id"] in out and deck["name"] in out
    assert main(["deck", "list", GAME, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {GAME: STARTERS}


def test_deck_list_of_a_game_without_decks_is_an_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["deck", "list", "ankh-morpork"])
    assert stop.value.code == 2
    assert "invalid choice: 'ankh-morpork'" in capsys.readouterr().err


def test_deck_check_passes_a_legal_deck_naming_its_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "mine.json", {"game": GAME, **own_deck()})
    assert main(["deck", "check", str(path)]) == 0
    assert "My own deck is a good deck" in capsys.readouterr().out


def test_deck_check_prints_each_rule_broken_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = own_deck()
    deck["action"][0]["count"] = 4  # 51 cards, and 4 copies of one card
    path = write(tmp_path / "big.json", deck)
    assert main(["deck", "check", str(path), "--game", GAME]) == 1
    out = capsys.readouterr().out
    assert "breaks 2 rules" in out
    assert "Action deck rule 1: the Action Card Game Deck must hold exactly 50 cards, not 51" in out
    assert "Action deck rule 2: at most 3 copies" in out


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "is not valid JSON"),
    (json.dumps([own_deck()]), "not a deck: a deck must be a JSON object"),
    (json.dumps({"game": "chess", **own_deck()}), "names the game 'chess', which has no decks"),
    (json.dumps({"game": "ankh-morpork", **own_deck()}),
     "names the game 'ankh-morpork', which has no decks"),
    (json.dumps({"game": GAME, "name": "x", "action": [{"name": "No Such Card", "count": 1}],
                 "crisis": []}), "no Action card 'No Such Card'"),
])
def test_deck_check_of_a_file_that_is_not_a_deck_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text(content, encoding="utf-8")
    assert main(["deck", "check", str(path)]) == 2
    assert message in capsys.readouterr().err
    assert main(["deck", "check", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_deck_options_through_simulate_are_kept_in_records_that_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck_file = write(tmp_path / "mine.json", own_deck())
    records = tmp_path / "records"
    assert main(["simulate", GAME, "--players", "2", "--games", "2", "--workers", "1",
                 "--deck", "1=heartland", "--deck", f"2={deck_file}", "--records",
                 str(records), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    chosen = summary["seat_choice"]["by_seat"]
    assert chosen == ["Heartland (stand-in preset)", "My own deck"]
    deck_file.unlink()  # the record holds the deck list itself, not the file's name
    for path in sorted(records.glob("game-*.json")):
        record = Record.load(path)
        # A starter deck is kept by its id, one's own as its list (citywatch ruling 5).
        assert record.options["decks"][0] == "heartland"
        assert record.options["decks"][1]["action"] == STARTERS[0]["action"]
        assert [BOOK.load(d)["name"] for d in record.options["decks"]] == chosen
        assert BOOK.load(record.options["decks"][1])["action"] == STARTERS[0]["action"]
        state = replay(record, verify=True)
        assert [s["deck"]["name"] for s in state.view(None)["seats"]] == chosen


@pytest.mark.parametrize("args", [
    [GAME, "--players", "2", "--deck", "3=vanguard"],
    [GAME, "--players", "2", "--deck", "1=vanguard", "--deck", "1=lifeline"],
    [GAME, "--players", "2", "--deck", "1=no-such-deck"],
    [GAME, "--players", "2", "--deck", "1=/no/such/deck.json"],
    [GAME, "--players", "2", "--deck", "vanguard"],
    ["ankh-morpork", "--players", "2", "--deck", "1=vanguard"],
])
def test_a_bad_deck_option_is_a_usage_error(args: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", *args])
    assert exit_.value.code == 2
    assert "deck" in capsys.readouterr().err


def test_a_rule_breaking_deck_option_names_the_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = own_deck()
    deck["crisis"] = deck["crisis"][1:]
    path = write(tmp_path / "short.json", deck)
    with pytest.raises(SystemExit):
        main(["tournament", GAME, "--bots", "random,random", "--deck", f"2={path}"])
    assert "seat 2's deck" in (err := capsys.readouterr().err) and "Crisis deck rule 1" in err


def test_tournament_plays_the_chosen_decks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", GAME, "--bots", "random,random", "--games", "2",
                 "--deck", "1=lifeline", "--deck", "2=lifeline", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["seat_choice"]["by_seat"] == ["Lifeline (stand-in preset)"] * 2
    assert result["games"] == 2


def test_a_tournament_names_each_seats_document_through_the_choice() -> None:
    """Rule: a tournament's ``seat_choice`` names the per-seat set-up choice in its words and
    each seat's document by name (``SetupChoice.show``: a starter deck by id, one's own as
    its JSON form), and refuses a count that is not one per seat."""
    from citywatch.tournament import tournament

    result = tournament(GAME, ["random", "random"], 2, 1,
                        options={"decks": ["lifeline", own_deck("Mine")]})
    assert result["seat_choice"] == {"choice": "deck", "plural": "decks", "keyword": "decks",
                                     "by_seat": ["Lifeline (stand-in preset)", "Mine"]}
    assert "seat_choice" not in tournament(GAME, ["random", "random"], 2, 1)
    with pytest.raises(ValueError, match="must list one deck per seat: 3 decks, not 2"):
        tournament(GAME, ["random"] * 3, 3, 1, options={"decks": ["lifeline", "vanguard"]})


def test_a_save_names_its_decks_not_their_lists(tmp_path: Path) -> None:
    """A saved game's line names each seat's deck, never its card list."""
    record = Record(game=GAME, players=2, seed=1,
                    options={"decks": ["vanguard", own_deck()]}, actions=[])
    line = Save(tmp_path / "x.json", record).describe()
    assert "decks Vanguard (stand-in preset) / My own deck" in line
    assert "action" not in line


def test_a_tables_title_names_each_seats_deck() -> None:
    """Deck lists are public (citywatch ruling 5), so a table's title names every seat's deck,
    the default starter decks too; games without decks show only changed options."""
    names = [str(deck["name"]) for deck in STARTERS]
    assert load(GAME).shown_options({}, 2) == {"decks": f"{names[0]} / {names[1]}"}
    chosen = {"decks": ["lifeline", own_deck("Uploaded")]}
    assert load(GAME).shown_options(chosen, 2) == {
        "decks": "Lifeline (stand-in preset) / Uploaded"}
    assert load("ankh-morpork").shown_options({}, 4) == {}
    assert load("guards-guards").shown_options({"spells": 2}, 4) == {"spells": 2}


def test_the_terminal_title_names_the_decks(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    from rich.console import Console

    from citywatch.terminal import app

    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    answers = iter(["quit"])
    game = app.new_game(GAME, ["you", "random"], 4, lambda _p: next(answers),
                        Console(file=out, width=160), options={"decks": ["lifeline", "lifeline"]})
    assert game.run() is False
    title = f"{GAME} · decks Lifeline (stand-in preset) / Lifeline (stand-in preset) · turn"
    assert title in out.getvalue()


def test_perft_from_a_seed_plays_the_chosen_decks(capsys: pytest.CaptureFixture[str]) -> None:
    """``perft --seed --deck`` counts the tree of a new game with those decks: the same
    counts as ``new_game`` with them, named in the first line."""
    from citywatch.perft import perft_counts

    args = ["perft", GAME, "--seed", "3", "--players", "2", "--depth", "5"]
    assert main([*args, "--deck", "1=lifeline", "--deck", "2=lifeline"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "decks Lifeline (stand-in preset) / Lifeline (stand-in preset), seed 3" in out[0]
    chosen = perft_counts(load(GAME).new_game(2, 3, decks=["lifeline", "lifeline"]), 5)
    assert out[1:6] == [f"depth {d}: {n}" for d, n in enumerate(chosen, start=1)]
    assert chosen != perft_counts(load(GAME).new_game(2, 3), 5)  # the decks matter


@pytest.mark.parametrize(("args", "words"), [
    ([GAME, "tests/perft/ankh-morpork/start-2p-seed1.json"], "a position file has its own set-up"),
    ([GAME, "--seed", "1", "--players", "2", "--deck", "3=lifeline"], "seats are numbered 1 to 2"),
    (["ankh-morpork", "--seed", "1"], "ankh-morpork has no decks to choose"),
    ([GAME, "--seed", "1", "--players", "2", "--deck", "1=x.json"], "cannot read x.json"),
])
def test_perft_deck_misuse_is_a_usage_error(args: list[str], words: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["perft", *args, "--depth", "1", "--deck", "1=lifeline"])
    assert stop.value.code == 2 and words in capsys.readouterr().err


# The lab ------------------------------------------------------------------------------------


def test_two_player_rotation_plays_every_pairing_from_both_seats() -> None:
    """Rule: with 2 seats the rotation plays each ordered pair of different shipped
    documents in turn; with more, seat s of game k gets document (k + s) mod count."""
    pairs = {tuple(lab.seat_rotation(4, 2, k)) for k in range(12)}
    assert pairs == {(a, b) for a in range(4) for b in range(4) if a != b}
    assert lab.seat_rotation(4, 3, 5) == [1, 2, 3]


def test_unchosen_decks_rotate_over_the_starter_decks_by_id() -> None:
    """Rule: a study that leaves the per-seat set-up choice unchosen sets each game up with
    shipped documents by id (``SetupChoice.shipped``), every ordered pairing in 12 games."""
    study = lab.make_study(GAME, 2, 3, ["random"])
    games = [lab.game_options(study, k)[BOOK.keyword] for k in range(12)]
    assert {tuple(decks) for decks in games} == {(a, b) for a in IDS for b in IDS if a != b}


def test_lab_matrix_has_every_pairing_with_intervals(tmp_path: Path) -> None:
    """Rule: the summary's ``seat_matrix`` (the choice's documents against each other) has
    a cell for every ordered pair of starter decks, with Wilson intervals, in
    seat_matrix.csv and the report's section named by the choice."""
    study = lab.make_study(GAME, 2, 3, ["random"])
    results, run = lab.run_study(study, 12, workers=1)
    summary = lab.summarise(study, results, run)
    assert summary["seat_choice"] == {"choice": "deck", "plural": "decks", "keyword": "decks",
                                      "by_seat": None}
    matrix = summary["seat_matrix"]
    names = [d["name"] for d in STARTERS]
    assert matrix["choice"] == "deck" and matrix["names"] == names
    for row in names:
        assert row not in matrix["rows"][row]  # a deck is not matched against itself
        for column in names:
            if row == column:
                continue
            cell, mirror = matrix["rows"][row][column], matrix["rows"][column][row]
            assert cell["games"] == 2  # once from each seat
            assert cell["ci_low"] <= cell["rate"] <= cell["ci_high"]
            assert cell["wins"] + mirror["wins"] <= 2
    paths = lab_report.write_csv(tmp_path, summary, results)
    table = (tmp_path / "seat_matrix.csv").read_text().splitlines()
    assert tmp_path / "seat_matrix.csv" in paths and len(table) == 1 + 12
    assert table[0] == "deck,against,games,wins,rate,ci_low,ci_high"
    assert "Deck against deck" in lab_report.render_html(summary)


def test_a_study_with_chosen_decks_keeps_them_and_refuses_a_wrong_count() -> None:
    """Rule: chosen decks are kept as a record keeps them (starter decks by id) for every
    game, and a count that is not one per seat is refused."""
    decks = BOOK.check(["total_defence", "vanguard"])
    study = lab.make_study(GAME, 2, 1, ["random"], {"decks": decks})
    assert lab.game_options(study, 5)["decks"] == decks == ["total_defence", "vanguard"]
    with pytest.raises(lab.LabError, match="one deck per seat"):
        lab.make_study(GAME, 3, 1, ["random"], {"decks": decks})


def test_games_without_decks_get_no_matrix() -> None:
    """Rule: a game without a per-seat set-up choice gets no ``seat_choice`` nor matrix,
    and its games no options added."""
    study = lab.make_study("ankh-morpork", 2, 1, ["random"])
    assert lab.seat_choice_summary(study, []) == {}
    assert lab.game_options(study, 0) == {}


# The server ---------------------------------------------------------------------------------


def test_server_offers_starter_decks_and_checks_uploads(tmp_path: Path) -> None:
    """docs/server.md, GET /api/games (set-up choices): the deck is offered as the game's
    per-seat set-up choice in its declaration (``type.setup``), with the starter decks;
    POST /api/tables checks each seat's deck against every deck rule (400 naming the seat and
    the rule, no table made)."""
    with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from citywatch.server import create_app

    choice = load(GAME).type.choice("decks")
    assert choice is not None
    with TestClient(create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_delay=30)) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["ankh-morpork"]["type"]["setup"] == []
        assert "decks" not in games[GAME]  # the old key of the deck seam is gone
        (offered,) = games[GAME]["type"]["setup"]
        assert (offered["keyword"], offered["name"], offered["per_seat"]) == (
            "decks", "deck", True)
        assert [d["id"] for d in offered["shipped"]] == choice.ids()
        body = {"game": GAME, "seats": ["human", "random"], "seed": 4, "practice": True,
                "options": {"decks": ["lifeline", own_deck("Uploaded")]}}
        created = client.post("/api/tables", json=body)
        assert created.status_code == 200, created.text
        token = next(s["link"] for s in created.json()["seats"] if s["link"]).split("/")[-1]
        page = client.get(f"/api/view/{token}").json()
        assert page["table"]["options"] == {"decks": "Lifeline (stand-in preset) / Uploaded"}
        view = page["view"]
        assert [s["deck"]["name"] for s in view["seats"]] == ["Lifeline (stand-in preset)",
                                                              "Uploaded"]
        bad = own_deck("Too many")
        bad["action"][0]["count"] = 4
        tables_before = len(client.app.state.tables._live)  # type: ignore[attr-defined]
        for decks, words in ((["lifeline", bad], "seat 2's deck"),
                             (["lifeline", bad], "Action deck rule 2"),
                             (["lifeline"], "one deck per player"),
                             (["lifeline", "no-such"], "there is no deck 'no-such'"),
                             ("lifeline", "must list one deck per seat")):
            response = client.post("/api/tables", json={**body, "options": {"decks": decks}})
            assert response.status_code == 400, decks
            assert words in response.json()["error"]
        assert len(client.app.state.tables._live) == tables_before  # type: ignore[attr-defined]
