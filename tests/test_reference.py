"""The rules reference: ``Game.reference()``, ``lookup`` and ``citywatch rules``."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest
import toy_game

import citywatch
from citywatch import reference as reference_module
from citywatch.cli import main
from citywatch.core.api import Game
from citywatch.games.ankh_morpork.data import SYMBOL_NAMES, player_text
from citywatch.reference import kinds, lookup, sections, singular, suggest

RAW = json.loads(
    resources.files("citywatch.games.ankh_morpork").joinpath("data", "ankh-morpork.json")
    .read_text(encoding="utf-8"))
REFERENCE = citywatch.load("ankh-morpork").reference()
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


def names(kind: str) -> list[str]:
    """The names of one section of the reference."""
    return [e["name"] for e in REFERENCE[kind]]


def readable(symbol: Any) -> str:
    """A raw JSON symbol as the reference should name it."""
    return f"take ${symbol['money']}" if isinstance(symbol, dict) else SYMBOL_NAMES[symbol]


def test_reference_has_every_card_with_its_symbols() -> None:
    """All 101 cards, in the data's order, with id, deck, text and readable symbols in order."""
    cards = REFERENCE["cards"]
    assert REFERENCE["game"] == "ankh-morpork"
    assert len(cards) == len(RAW["player_cards"]) == 101
    for card, raw in zip(cards, RAW["player_cards"], strict=True):
        assert set(card) == {"id", "name", "deck", "symbols", "text", "interrupt"}
        assert (card["id"], card["name"], card["deck"], card["text"]) == (
            raw["id"], raw["name"], raw["deck"], player_text(raw["text"]))
        assert card["symbols"] == [readable(s) for s in raw["symbols"]]
        assert card["interrupt"] == ("interrupt" in raw["symbols"])
    gaspode = next(c for c in cards if c["name"] == "Gaspode")
    assert gaspode["interrupt"] and gaspode["symbols"] == ["interrupt"]
    mint = next(c for c in cards if c["name"] == "The Royal Mint")
    assert mint["symbols"] == ["place a building", "take $5"] and not mint["interrupt"]
    assert sum(c["interrupt"] for c in cards) == 6


def test_reference_has_areas_events_and_personalities() -> None:
    """12 areas (adjacency by name), 12 events and 7 personalities, as in the data (texts
    without research notes: ``player_text``, issue 16)."""
    areas = REFERENCE["areas"]
    assert len(areas) == 12 and len(REFERENCE["events"]) == 12
    assert len(REFERENCE["personalities"]) == 7
    by_number = {a["number"]: a["name"] for a in RAW["city_areas"]}
    for area, raw in zip(areas, RAW["city_areas"], strict=True):
        assert area == {
            "number": raw["number"], "name": raw["name"], "cost": raw["building_cost"],
            "adjacent": [by_number[n] for n in raw["adjacent"]],
            "borders_river": raw["borders_river"], "power": player_text(raw["power"]),
        }
    assert REFERENCE["events"] == [{"name": e["name"], "text": player_text(e["text"])}
                                   for e in RAW["random_events"]]
    assert REFERENCE["personalities"] == [
        {"name": p["name"], "wins_if": player_text(p["wins_if"])} for p in RAW["personalities"]]


def test_reference_is_json_and_fresh() -> None:
    """The reference survives a JSON round trip, and each call returns a new object."""
    assert json.loads(json.dumps(REFERENCE)) == REFERENCE
    game = citywatch.load("ankh-morpork")
    first = game.reference()
    first["cards"].clear()
    assert len(game.reference()["cards"]) == 101


def test_a_game_without_reference_has_no_sections() -> None:
    """``Game.reference`` is not abstract; by default it is just the game's name."""

    class Bare(Game):
        name = "bare"
        min_players = max_players = 1

        def new_game(self, players: int, seed: int, **options: Any) -> Any:
            raise NotImplementedError

        def from_position(self, position: dict[str, Any]) -> Any:
            raise NotImplementedError

        def action_from_json(self, data: Any) -> Any:
            raise NotImplementedError

    assert Bare().reference() == {"game": "bare"}
    assert sections(Bare().reference()) == [] and lookup(Bare().reference(), None, "x") == []


def test_lookup_exact_and_case_insensitive() -> None:
    """An exact name matches in any case; an exact match hides entries that merely contain it."""
    assert [e["id"] for e in lookup(REFERENCE, "card", "Gaspode")] == ["G31"]
    assert [e["id"] for e in lookup(REFERENCE, "card", "gASPODE")] == ["G31"]
    assert [e["name"] for e in lookup(REFERENCE, "card", "dwarves")] == ["Dwarves"]
    assert [e["name"] for e in lookup(REFERENCE, "event", "FIRE")] == ["Fire"]
    assert [e["name"] for e in lookup(REFERENCE, None, "fire")] == ["Fire"]


def test_lookup_substring_returns_every_match() -> None:
    """Without an exact match, every name containing the words matches, in data order."""
    assert [e["name"] for e in lookup(REFERENCE, "card", "guild")] == [
        "The Beggars' Guild", "The Seamstresses' Guild", "The Thieves' Guild",
        "The Fools' Guild", "The Alchemists' Guild"]
    assert [e["name"] for e in lookup(REFERENCE, "personality", "lord")] == [
        "Lord Vetinari", "Lord Selachii", "Lord Rust", "Lord de Worde"]
    assert [e["name"] for e in lookup(REFERENCE, None, "vimes")] == [
        "Sybil Vimes", "Commander Vimes"]
    assert [e["name"] for e in lookup(REFERENCE, "card", "  beggars   GUILD ")] == [
        "The Beggars' Guild"]


def test_lookup_area_by_number() -> None:
    """An area is found by its number as a string, with or without the kind."""
    assert lookup(REFERENCE, "area", "7") == [REFERENCE["areas"][6]]
    assert lookup(REFERENCE, None, "7")[0]["name"] == "The Shades"
    assert [e["name"] for e in lookup(REFERENCE, "area", "12")] == ["Nap Hill"]
    assert lookup(REFERENCE, "area", "13") == []
    assert lookup(REFERENCE, "card", "7") == []


def test_lookup_without_match() -> None:
    """No match gives an empty list; an unknown kind is a ``ValueError``."""
    assert lookup(REFERENCE, "card", "xyzzy") == []
    assert lookup(REFERENCE, "area", "Gaspode") == []
    assert lookup(REFERENCE, None, "") == []
    with pytest.raises(ValueError, match="unknown kind"):
        lookup(REFERENCE, "spell", "fire")


def test_suggest_close_names() -> None:
    """Misspelt names suggest the names they look like, within the kind."""
    assert suggest(REFERENCE, "card", "gaspoed")[0] == "Gaspode"
    assert suggest(REFERENCE, "personality", "vetinary") == ["Lord Vetinari"]
    assert suggest(REFERENCE, "card", "vetinary") == []
    assert suggest(REFERENCE, "card", "qqqqqq") == []


def test_rules_prints_the_whole_reference(plain: None, capsys: pytest.CaptureFixture[str]) -> None:
    """At 80 columns: every card, area, event and personality name whole on a line; plain text."""
    assert main(["rules", "ankh-morpork"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for kind in ("cards", "areas", "events", "personalities"):
        for name in names(kind):
            assert any(name in line for line in lines), name
    for title in ("Cards (101)", "City areas (12)", "Random events (12)", "Personalities (7)"):
        assert title in out
    assert "card text, play another card" in out and "take $5" in out
    assert "adjacent: The Scours, The Hippo, Dimwell" in out
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    assert "\x1b" not in out


def test_rules_wide_uses_tables(monkeypatch: pytest.MonkeyPatch, plain: None,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """On a wide terminal the reference is tables, no wider than 160 columns (after the
    how-to-play guide, which is at most 100 wide)."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", "ankh-morpork"]) == 0
    out = capsys.readouterr().out
    guide, _, rest = out.partition("ankh-morpork: rules reference")
    assert all(len(line) <= 100 for line in guide.splitlines())
    lines = rest.splitlines()
    assert len(lines) < 300
    assert all(len(line) <= 160 for line in lines)
    assert any(line.split() == ["id", "card", "deck", "symbols", "text"] for line in lines)
    for name in names("cards") + names("areas") + names("events") + names("personalities"):
        assert any(name in line for line in lines), name


def test_rules_in_a_terminal_is_styled(monkeypatch: pytest.MonkeyPatch, plain: None,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """When the output is a terminal the names are styled."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["rules", "ankh-morpork", "card", "gaspode"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" in out and "Gaspode" in out


def test_rules_card_lookup(plain: None, capsys: pytest.CaptureFixture[str]) -> None:
    """``rules ankh-morpork card gaspode`` prints Gaspode's symbols and text."""
    assert main(["rules", "ankh-morpork", "card", "gaspode"]) == 0
    out = capsys.readouterr().out
    gaspode = lookup(REFERENCE, "card", "Gaspode")[0]
    assert "Gaspode" in out and "G31" in out and "interrupt" in out
    assert words(gaspode["text"]) in words(out)
    assert all(len(line) <= 80 for line in out.splitlines())


def test_rules_lookup_prints_every_match(plain: None, capsys: pytest.CaptureFixture[str]) -> None:
    """Several matches are all printed; names of several words and area numbers work."""
    assert main(["rules", "ankh-morpork", "card", "guild"]) == 0
    out = capsys.readouterr().out
    assert "5 cards match 'guild'" in out
    for name in ("The Beggars' Guild", "The Alchemists' Guild"):
        assert name in out
    assert main(["rules", "ankh-morpork", "area", "7"]) == 0
    out = words(capsys.readouterr().out)
    assert "The Shades" in out and "$6" in out and "The Scours, The Hippo, Dimwell" in out
    assert main(["rules", "ankh-morpork", "personality", "commander", "VIMES"]) == 0
    assert "draw deck runs out" in words(capsys.readouterr().out)
    assert main(["rules", "ankh-morpork", "event", "earthquake"]) == 0
    assert "Roll twice; remove any building" in words(capsys.readouterr().out)


def test_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` prints one JSON object: the reference, or ``{"matches": [...]}``."""
    assert main(["rules", "ankh-morpork", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == REFERENCE
    assert main(["rules", "ankh-morpork", "card", "gaspode", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"matches": lookup(REFERENCE, "card", "gaspode")}
    assert main(["rules", "ankh-morpork", "area", "shades", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"][0]["number"] == 7


def test_rules_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown name exits 1 with a message on stderr, suggesting close names."""
    assert main(["rules", "ankh-morpork", "card", "xyzzy"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no card called 'xyzzy'" in captured.err and "did you mean" not in captured.err
    assert main(["rules", "ankh-morpork", "card", "gaspoed"]) == 1
    assert "no card called 'gaspoed'; did you mean Gaspode" in capsys.readouterr().err
    assert main(["rules", "ankh-morpork", "card", "xyzzy", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"matches": []}
    assert "no card called 'xyzzy'" in captured.err


def test_rules_unknown_name_has_no_traceback() -> None:
    """The real command exits 1 on an unknown name, with one line and no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "citywatch.cli", "rules", "ankh-morpork", "area", "Klatch"],
        capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stderr.strip() == "citywatch rules: no area called 'Klatch'"
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "chess"], "invalid choice"),
        (["rules", "ankh-morpork", "spell", "fire"], "invalid choice"),
        (["rules", "ankh-morpork", "card"], "name the card to look up"),
        (["rules"], "required"),
    ],
)
def test_rules_usage_errors(args: list[str], message: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown game or kind, or a kind without a name, is an argparse error: exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_rules_for_a_game_without_reference(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A game that has no reference yet exits 1 with a message."""

    class NoReference:
        def reference(self) -> dict[str, Any]:
            raise NotImplementedError

    monkeypatch.setattr(reference_module, "load", lambda name: NoReference())
    assert main(["rules", "ankh-morpork"]) == 1
    assert "has no rules reference" in capsys.readouterr().err


toy_registered = toy_game.toy_registered  # the fixture: High Card registered as "toy"

TOY_REFERENCE: dict[str, Any] = {
    "game": "toy",
    "volunteers": [
        {"name": "Ada Quill", "strength": 3, "skills": ["dig", "carry"], "veteran": True},
        {"name": "Bo Fenwick", "strength": 1, "skills": [], "veteran": False,
         "motto": "Never volunteer for anything, except this, and only on a Tuesday afternoon"},
    ],
    "scrolls": [{"name": "Scroll of Ember", "number": 4, "school": "fire",
                 "effect": {"range": 2, "burns": "one item"}}],
    "round": 1,
}


def test_kinds_come_from_the_reference() -> None:
    """Sections are the list-of-entries keys; a kind is a section or its singular (the
    terms of the how-to-play guide last, issue 26)."""
    assert sections(REFERENCE) == ["cards", "areas", "events", "personalities", "terms"]
    assert kinds(REFERENCE) == ["card", "area", "event", "personality", "term"]
    assert sections(TOY_REFERENCE) == ["volunteers", "scrolls"]
    assert [singular(s) for s in ("items", "boxes", "crisis_cards", "glasses", "sheep")] == [
        "item", "box", "crisis_card", "glass", "sheep"]
    assert lookup(REFERENCE, "cards", "gaspode") == lookup(REFERENCE, "Card", "gaspode")
    with pytest.raises(ValueError, match="known kinds: card, area, event, personality"):
        lookup(REFERENCE, "spell", "fire")
    with pytest.raises(ValueError, match="known kinds: volunteer, scroll"):
        lookup(TOY_REFERENCE, "card", "ada")


def test_rules_for_a_registered_game_without_reference(
        toy_registered: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A game whose reference has no sections: one line and exit 1; ``--json`` prints it."""
    assert main(["rules", "toy"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == "citywatch rules: toy has no rules reference yet"
    assert main(["rules", "toy", "card", "ace"]) == 1
    assert "toy has no rules reference yet" in capsys.readouterr().err
    assert main(["rules", "toy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"game": "toy"}


@pytest.fixture
def toy_reference(toy_registered: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game with ``TOY_REFERENCE`` as its reference."""
    monkeypatch.setattr(toy_registered, "reference", lambda: TOY_REFERENCE)


def test_rules_for_a_made_up_reference(toy_reference: None, plain: None,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Any game's sections print under their own titles, their fields as ``key: value``."""
    assert main(["rules", "toy"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "toy: rules reference"
    assert "Volunteers (2)" in out and "Scrolls (1)" in out and "round" not in out
    for text in ("Ada Quill", "strength: 3", "skills: dig, carry", "veteran: yes",
                 "veteran: no", "Scroll of Ember", "school: fire",
                 "effect: range: 2, burns: one item"):
        assert text in out, text
    assert any(line.split()[:3] == ["4", "Scroll", "of"] for line in lines)
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)


def test_rules_wide_for_a_made_up_reference(monkeypatch: pytest.MonkeyPatch, toy_reference: None,
                                            plain: None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """On a wide terminal each section is a table with a column per field."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", "toy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split() == ["volunteer", "strength", "skills", "veteran", "motto"]
               for line in lines)
    assert any(line.split() == ["scroll", "no.", "school", "effect"] for line in lines)
    assert any(line.split()[:4] == ["Ada", "Quill", "3", "dig,"] for line in lines)


def test_rules_lookup_in_a_made_up_reference(toy_reference: None, plain: None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A kind is the singular or the section; a numbered entry is found by its number."""
    assert main(["rules", "toy", "volunteer", "ada"]) == 0
    out = words(capsys.readouterr().out)
    assert "Ada Quill" in out and "strength 3" in out and "skills dig, carry" in out
    assert "veteran yes" in out and "Fenwick" not in out
    assert main(["rules", "toy", "volunteers", "i"]) == 0
    assert "2 volunteers match 'i'" in capsys.readouterr().out
    assert main(["rules", "toy", "scroll", "4"]) == 0
    out = words(capsys.readouterr().out)
    assert "Scroll of Ember" in out and "scroll number 4" in out and "school fire" in out
    assert main(["rules", "toy", "scroll", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"matches": TOY_REFERENCE["scrolls"]}
    assert main(["rules", "toy", "volunteer", "ado", "quil"]) == 1
    assert "no volunteer called 'ado quil'; did you mean Ada Quill" in capsys.readouterr().err


def test_rules_unknown_kind_lists_the_games_kinds(toy_reference: None,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A kind the game's reference does not have is a usage error naming the kinds."""
    with pytest.raises(SystemExit) as exc:
        main(["rules", "toy", "card", "ace"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'card'" in err and "(choose from volunteer, scroll)" in err
    with pytest.raises(SystemExit):
        main(["rules", "toy", "scroll"])
    assert "name the scroll to look up" in capsys.readouterr().err
