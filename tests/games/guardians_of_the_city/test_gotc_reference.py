"""Guardians of the City's rules reference: ``GAME.reference()``, ``citywatch rules
guardians-of-the-city`` and the terminal's ``? NAME``, all from the stand-in card set (rulebook
section 3: 5 pillars, 4 Citizen Groups, 3 Terrorist Cells, 70 Action and 57 Crisis cards a set;
section 4: decks of 50 Action and 40 Crisis cards)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import citywatch
from citywatch.cli import main
from citywatch.games.guardians_of_the_city.data import LABEL
from citywatch.reference import kinds, lookup, sections
from citywatch.terminal import app

GAME_NAME = "guardians-of-the-city"
RAW = json.loads(
    resources.files("citywatch.games.guardians_of_the_city").joinpath(
        "data", "guardians-of-the-city.json").read_text(encoding="utf-8"))
REFERENCE = citywatch.load(GAME_NAME).reference()
KIND_WORDS = {"action": "Action", "galvanised_people": "Galvanised People",
              "special_intelligence": "Special Intelligence", "crisis": "Crisis",
              "subversive": "Subversive"}
BOX = "│╭╮╰╯─"


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as to a pipe, 80 columns wide."""
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def words(text: str) -> str:
    """``text`` without box lines, its words joined by single spaces."""
    return " ".join(text.translate({ord(c): " " for c in BOX}).split())


# --- the reference itself --------------------------------------------------------------------
def test_sections_in_order() -> None:
    """The card set, pillars, groups, cells, both card kinds, the starter decks and the terms
    of the how-to-play guide (issue 26)."""
    assert REFERENCE["game"] == GAME_NAME and REFERENCE["label"] == LABEL
    assert sections(REFERENCE) == ["card_set", "pillars", "citizen_groups", "terrorist_cells",
                                   "action_cards", "crisis_cards", "starter_decks", "terms"]
    assert kinds(REFERENCE)[-4:] == ["action_card", "crisis_card", "starter_deck", "term"]


def test_every_action_card_with_pillar_requirement_kind_type_copies_and_text() -> None:
    """Every Action card design in the data's order, its facts as printed on the card."""
    cards = REFERENCE["action_cards"]
    assert len(cards) == len(RAW["action_cards"])
    for card, raw in zip(cards, RAW["action_cards"], strict=True):
        assert (card["id"], card["name"], card["pillar"], card["min_effort"],
                card["copies_in_box"], card["text"]) == (
            raw["id"], raw["name"], raw["pillar"], raw["min_effort"], raw["copies_in_box"],
            raw["text"])
        assert card["kind"] == KIND_WORDS[raw["kind"]]
        assert card.get("type") == raw.get("type")
    assert sum(c["copies_in_box"] for c in cards) == 70  # section 3
    loyalty = lookup(REFERENCE, "action_card", "Galvanised People (Loyalty)")
    assert [(c["kind"], c["type"]) for c in loyalty] == [("Galvanised People", "Loyalty")]


def test_every_crisis_card_with_pillar_kind_type_copies_and_text() -> None:
    """Every Crisis card design; a card acting only on the cells has no pillar."""
    cards = REFERENCE["crisis_cards"]
    assert len(cards) == len(RAW["crisis_cards"])
    for card, raw in zip(cards, RAW["crisis_cards"], strict=True):
        assert (card["id"], card["name"], card.get("pillar"), card["copies_in_box"],
                card["text"]) == (raw["id"], raw["name"], raw.get("pillar"),
                                  raw["copies_in_box"], raw["text"])
        assert card["kind"] == KIND_WORDS[raw["kind"]]
        assert card.get("type") == raw.get("type")
    assert sum(c["copies_in_box"] for c in cards) == 57  # section 3
    assert "pillar" not in lookup(REFERENCE, "crisis_card", "Coordinated Terror Plot")[0]


def test_pillars_groups_and_cells() -> None:
    """Five pillars (effort 1 to 4, with the cards of each), four Citizen Groups at support
    4, three Terrorist Cells at strength 6 (section 3)."""
    pillars = REFERENCE["pillars"]
    assert [p["name"] for p in pillars] == RAW["pillars"]
    assert all(p["national_effort"] == "1 to 4" for p in pillars)
    assert sum(p["action_cards"] for p in pillars) == 70
    military = sum(c["copies_in_box"] for c in RAW["crisis_cards"] if c["pillar"] == "Military")
    assert pillars[0]["crisis_cards"] == military
    assert REFERENCE["citizen_groups"] == [
        {"name": g["name"], "starting_support": 4, "max_support": 4}
        for g in RAW["citizen_groups"]]
    assert REFERENCE["terrorist_cells"] == [
        {"name": c["name"], "starting_strength": 6, "max_strength": 6}
        for c in RAW["terrorist_cells"]]


def test_starter_decks_with_their_card_counts() -> None:
    """Each starter deck: 50 Action and 40 Crisis cards (section 4), listed with counts."""
    decks = REFERENCE["starter_decks"]
    assert [d["id"] for d in decks] == [d["id"] for d in RAW["starter_decks"]]
    for deck, raw in zip(decks, RAW["starter_decks"], strict=True):
        assert deck["name"] == raw["name"] and deck["plan"] == raw["plan"]
        assert (deck["action_cards"], deck["crisis_cards"]) == (50, 40)
        for side in ("action", "crisis"):
            listed = {row.split(" ", 1)[1]: int(row.split(" ", 1)[0])
                      for row in deck[f"{side}_deck"].split(", ")}
            assert listed == {c["name"]: c["count"] for c in raw[side]}
        effort = ", ".join(f"{p} {e}" for p, e in raw["suggested_effort"].items())
        assert deck["suggested_effort"] == effort


def test_reference_is_json_and_fresh() -> None:
    """The reference survives a JSON round trip, and each call returns a new object."""
    assert json.loads(json.dumps(REFERENCE)) == REFERENCE
    first = citywatch.load(GAME_NAME).reference()
    first["action_cards"].clear()
    assert len(citywatch.load(GAME_NAME).reference()["action_cards"]) == 34


# --- citywatch rules ------------------------------------------------------------------------
def test_rules_lists_every_section_under_the_stand_in_label(
        plain: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole reference at 80 columns: every heading and name, the stand-in label shown."""
    assert main(["rules", GAME_NAME]) == 0
    out = capsys.readouterr().out
    for title in ("Card set (1)", "Total Defence pillars (5)", "Citizen Groups (4)",
                  "Terrorist Cells (3)", "Action cards (34)", "Crisis cards (28)",
                  "Starter decks (4)"):
        assert title in out, title
    assert LABEL in out
    lines = out.splitlines()
    for section in sections(REFERENCE):
        for entry in REFERENCE[section]:
            assert any(entry["name"] in line for line in lines), entry["name"]
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)


def test_rules_wide_is_tables(monkeypatch: pytest.MonkeyPatch, plain: None,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """On a wide terminal the cards are a table no wider than 160 columns."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", GAME_NAME]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 160 for line in lines)
    assert any(line.split()[:4] == ["id", "action", "card", "kind"] for line in lines)


def test_rules_action_card_prints_its_text(plain: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``rules guardians-of-the-city action-card "Border Patrol"``: its facts and text."""
    assert main(["rules", GAME_NAME, "action-card", "Border", "Patrol"]) == 0
    out = words(capsys.readouterr().out)
    patrol = RAW["action_cards"][0]
    assert patrol["name"] == "Border Patrol"
    assert words(patrol["text"]) in out
    assert "A01" in out and "Military" in out and "min effort 1" in out
    assert "copies in box 3" in out
    assert main(["rules", GAME_NAME, "starter_deck", "vanguard"]) == 0
    assert "3 Border Patrol" in words(capsys.readouterr().out)


def test_rules_unknown_name_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown name exits 1 suggesting close names; an unknown kind exits 2 listing the
    game's kinds (as for the other games)."""
    assert main(["rules", GAME_NAME, "action-card", "Border Patrl"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no action-card called 'Border Patrl'; did you mean Border Patrol" in captured.err
    assert main(["rules", GAME_NAME, "crisis_card", "xyzzy", "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"matches": []}
    with pytest.raises(SystemExit) as exc:
        main(["rules", GAME_NAME, "volunteer", "Ada"])
    assert exc.value.code == 2
    assert "action_card, crisis_card, starter_deck" in capsys.readouterr().err


def test_rules_unknown_name_has_no_traceback() -> None:
    """The real command exits 1 on an unknown name, with one line and no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "citywatch.cli", "rules", GAME_NAME, "terrorist-cell",
         "Klatch"], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stderr.strip() == "citywatch rules: no terrorist-cell called 'Klatch'"
    assert result.stdout == ""


# --- ? NAME in the terminal ----------------------------------------------------------------
def test_terminal_help_finds_a_card(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """'? raids' describes the card from the reference; '? vanguard' a starter deck; an
    unknown name says so; then 'quit' saves and stops."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = io.StringIO()
    answers = iter(["? raids", "? vanguard", "? nothing-like-this", "quit"])
    seats = app.parse_seats("you,random", None, "random", GAME_NAME)

    def read(_prompt: str) -> Any:
        return next(answers)

    game = app.new_game(GAME_NAME, seats, 3, read, Console(file=out, width=100))
    assert not game.run()
    screen = words(out.getvalue())
    raids = next(c for c in RAW["action_cards"] if c["name"] == "Raids")
    assert "Raids (Action, Military 3+)" in screen and words(raids["text"]) in screen
    assert "Vanguard (stand-in preset)" in screen and "3 Border Patrol" in screen
    assert "Nothing called 'nothing-like-this' in the rules reference" in screen
