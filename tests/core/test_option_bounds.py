"""Issue 24, the game side of points 1 and 4: every number option of every game has an upper
bound, checked before any work; scenario and deck documents have size limits, checked before
any rule; text one person sends that others see (deck and scenario names, summaries, plans)
keeps the rule of a player's name. Each test names the point it checks.

The bounds and limits are documented in docs/black-keep-rulings.md (rulings 22-25),
docs/guardians-of-the-city-rulings.md (rulings 16-17) and docs/guards-guards-rulings.md
(ruling 6)."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import citywatch
from citywatch.cli import main
from citywatch.core.api import GameOption
from citywatch.core.registry import game_names
from citywatch.core.text import clean_text, text_problem
from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.hexes import from_offset, label
from citywatch.games.black_keep.params import MAXIMUM, Parameters
from citywatch.games.guardians_of_the_city import decks
from citywatch.server import create_app
from citywatch.server.tables import Limits, catalogue

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

BK = citywatch.load("black-keep")
GOTC = "guardians-of-the-city"
ATTACK_NAME = "\u202e" + "x" * 39_998 + "\x00"
"""The deck name of the report: 40,000 characters with a right-to-left override and a NUL."""


def number_options() -> list[tuple[str, GameOption]]:
    """Every number option of every registered game, with its game's name."""
    return [(name, option) for name in game_names() for option in citywatch.load(name).options
            if not option.choices]


# --- point 1: every number option has an upper bound ----------------------------------------

def test_issue_24_point_1_every_number_option_of_every_game_has_a_maximum() -> None:
    """Issue 24, point 1: every registered game's number options declare a maximum at least
    their default (Black Keep's 11 tuning numbers and Guards! Guards!'s rounds had none)."""
    found = number_options()
    assert {name for name, _ in found} >= {"black-keep", "guards-guards"}
    for name, option in found:
        assert option.maximum is not None, f"{name} {option.name} has no upper bound"
        assert isinstance(option.default, int)
        assert option.minimum <= option.default <= option.maximum, (name, option.name)
    assert {o.name: o.maximum for _, o in found if o.tuning} == MAXIMUM


def test_issue_24_point_1_a_number_option_cannot_be_declared_without_a_maximum() -> None:
    """Issue 24, point 1: ``GameOption`` refuses a number option without an upper bound, and
    one whose default is out of its range; a choice option needs none."""
    with pytest.raises(ValueError, match="number option copies needs a maximum"):
        GameOption("copies", "copies of each card", 2, 0)
    with pytest.raises(ValueError, match="default 9 is not in its range 0-8"):
        GameOption("copies", "copies of each card", 9, 0, 8)
    assert GameOption("level", "how hard", "easy", choices=("easy", "hard")).maximum is None


def test_issue_24_point_1_one_over_the_maximum_is_refused_with_a_clear_error() -> None:
    """Issue 24, point 1: one over any number option's maximum is a ``ValueError`` naming
    the option and its range, as a ``new_game`` keyword of every game; the reported attack
    (``copies_per_guard_card=10000000``) is refused the same way, at once."""
    for name, option in number_options():
        game = citywatch.load(name)
        assert option.maximum is not None
        with pytest.raises(ValueError) as caught:
            game.new_game(game.min_players, 1, **{option.name: option.maximum + 1})
        assert (f"option {option.name} must be a whole number from {option.minimum} to "
                f"{option.maximum}") in str(caught.value)
        game.new_game(game.min_players, 1, **{option.name: option.maximum})  # the max is fine
    with pytest.raises(ValueError, match="copies_per_guard_card must be a whole number from "
                                         "0 to 8"):
        BK.new_game(1, 1, copies_per_guard_card=10_000_000)


def test_issue_24_point_1_black_keep_parameters_keep_the_same_bounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, point 1: ``Parameters.from_json`` (the ``parameters`` keyword of
    ``new_game``) refuses a number over its maximum as the options do, before the board of
    a scenario of one's own is built."""
    for name, most in MAXIMUM.items():
        with pytest.raises(ValueError, match=f"parameter {name} must be a whole number from "
                                             f"[0-9]+ to {most}, not {most + 1}"):
            Parameters.from_json({name: most + 1})
        assert getattr(Parameters.from_json({name: most}), name) == most
    with pytest.raises(ValueError, match="parameter copies_per_guard_card"):
        BK.new_game(1, 1, parameters={"copies_per_guard_card": 10_000_000})

    def never(*args: Any) -> Any:
        raise AssertionError("the scenario's Board was built before the parameters' check")

    monkeypatch.setattr(scenario, "from_doc", never)
    with pytest.raises(ValueError, match="parameter dawn must be a whole number from 0 to 100"):
        BK.new_game(1, 1, scenario=vault(), parameters={"dawn": 101})


def test_issue_24_point_1_the_catalogue_and_citywatch_games_show_every_maximum(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 1: ``GET /api/games`` (``catalogue()``) shows a ``max`` for every
    number option, never null, and ``citywatch games`` the range ``MIN-MAX``."""
    shown = [option for game in catalogue() for option in game.get("options", [])
             if "choices" not in option]
    assert len(shown) == len(number_options()) >= 12
    assert all(isinstance(option["max"], int) for option in shown)
    assert main(["games"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # each option wrapped to 80 columns
    assert "or more" not in out
    assert "--option copies_per_guard_card=N: copies of each Guard card in the deck (6.5) " \
           "(0-8, default 2)" in out
    assert "(0-300, default 100)" in out


# --- point 1: scenario documents have size limits, checked first ----------------------------

def vault() -> dict[str, Any]:
    return scenario.read("the-vault")


def tutorial() -> dict[str, Any]:
    return scenario.read("tutorial")


def _extra_tiles(count: int) -> list[dict[str, Any]]:
    """``count`` bare tiles east of the shipped maps (from column V on), in one row."""
    tiles = []
    for k in range(count):
        q0 = 21 + 7 * k
        cols = label(from_offset(q0, 1))[:-1] + "-" + label(from_offset(q0 + 6, 1))[:-1]
        tiles.append({"id": f"x{k}", "name": f"Extra {k}", "cols": cols, "rows": "1-7"})
    return tiles


def _over(limit: str) -> dict[str, Any]:
    """A scenario that breaks one limit (and nothing else would be cheap to check)."""
    doc = vault() if limit not in ("walls", "special") else tutorial()
    tile = doc["tiles"][0]
    if limit == "chars":
        doc["walls"] = doc["walls"] * 300
    elif limit == "depth":
        tile["markers"]["green_line"] = [[[["B4"]]]]
    elif limit == "string":
        tile["cols"] = "A-G" + " " * scenario.MAX_SUMMARY
    elif limit == "tiles":
        doc["tiles"] += _extra_tiles(scenario.MAX_TILES + 1 - len(doc["tiles"]))
    elif limit == "walls":
        doc["walls"] = [["A2", "B2"]] * (scenario.MAX_WALLS + 1)
    elif limit == "special":
        doc["special"] = [{"hex": "D3", "kind": "door"}] * (scenario.MAX_MAP_HEXES + 1)
    elif limit == "torches":
        doc["torches"] = ["B3"] * (scenario.MAX_MAP_HEXES + 1)
    elif limit == "route":
        tile["markers"]["red_arrows"] = ["E4", "F4"] * (scenario.TILE_HEXES // 2 + 1)
    elif limit == "tile guards":
        tile["guards"] = [{"role": "basic", "type": "stationary"}] * (
            scenario.MAX_TILE_GUARDS + 1)
    elif limit == "guards":
        for t in doc["tiles"]:
            t["guards"] = [{"role": "basic", "type": "stationary"}] * scenario.MAX_TILE_GUARDS
        doc["tiles"] += [{**t, "guards": [{"role": "basic", "type": "stationary"}] * 4}
                         for t in _extra_tiles(6)]
    return doc


LIMIT_WORDS = {
    "chars": f"holds at most {scenario.MAX_CHARS} characters of JSON",
    "depth": f"nests lists and objects at most {scenario.MAX_DEPTH} deep",
    "string": f"holds at most {scenario.MAX_SUMMARY} characters, not {scenario.MAX_SUMMARY + 3}",
    "tiles": f"a scenario lists at most {scenario.MAX_TILES} tiles, not 17",
    "walls": f"lists at most {scenario.MAX_WALLS} walls, not {scenario.MAX_WALLS + 1}",
    "special": f"a scenario lists at most {scenario.MAX_MAP_HEXES} Special Hexes, not "
               f"{scenario.MAX_MAP_HEXES + 1}",
    "torches": f"at most {scenario.MAX_MAP_HEXES} torches",
    "route": f"tile 1 lists at most {scenario.TILE_HEXES} hexes of the red arrows, not 50",
    "tile guards": f"tile 1 lists at most {scenario.MAX_TILE_GUARDS} guards, not 5",
    "guards": f"a scenario lists at most {scenario.MAX_GUARDS} guards, not 36",
}


@pytest.mark.parametrize("limit", LIMIT_WORDS)
def test_issue_24_point_1_a_scenario_over_a_limit_is_refused_naming_it(
        limit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 1: a scenario over any size limit gets one problem per broken limit,
    each ``limit: ...`` naming it, and no rule is checked after it; the ``scenario`` option
    and ``new_game`` refuse it, and ``citywatch scenario check`` prints it (exit 1)."""
    doc = _over(limit)
    found = scenario.problems(doc)
    assert found and all(p.startswith("limit: ") for p in found), found
    assert any(LIMIT_WORDS[limit] in p for p in found), found
    with pytest.raises(ValueError, match="option scenario: the scenario breaks"):
        BK.new_game(1, 1, scenario=doc)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    assert main(["scenario", "check", str(path)]) == 1
    assert LIMIT_WORDS[limit] in capsys.readouterr().out


def test_issue_24_point_1_a_scenario_dawn_after_round_100_is_refused() -> None:
    """Issue 24, point 1 (citywatch ruling 23): a scenario's own dawn is at most 100 rounds,
    so no scenario makes a game of bots run for ever."""
    doc = vault()
    doc["dawn"] = 10**9
    assert scenario.problems(doc) == [
        "rule 1: dawn must be a whole number of rounds from 1 to 100, not 1000000000"]
    doc["dawn"] = scenario.MAX_DAWN
    assert scenario.problems(doc) == []


def test_issue_24_point_1_the_upload_of_the_report_is_refused_by_a_limit_and_shipped_pass() \
        -> None:
    """Issue 24, point 1: the kind of 60 KB upload that took 8.9 s (a route listing hexes
    thousands of times) is refused by the size limit before any rule; the shipped scenarios
    keep every limit with room to spare and break no rule."""
    doc = vault()
    doc["tiles"][0]["markers"]["red_arrows"] = ["E4", "F4"] * 5_000
    assert len(json.dumps(doc)) > 60_000
    assert scenario.problems(doc) == [
        f"limit: a scenario holds at most {scenario.MAX_CHARS} characters of JSON, and this "
        f"one holds more"]
    for name in scenario.names():
        shipped = scenario.read(name)
        assert scenario.problems(shipped) == []
        assert len(json.dumps(shipped, separators=(",", ":"))) < scenario.MAX_CHARS / 4


# --- point 4: a scenario's shown texts keep the rule of a player's name ---------------------

@pytest.mark.parametrize(("path", "value", "words"), [
    (("name",), "The \u202eVault", "text: the scenario's name may not hold control or "
                                   "invisible formatting characters"),
    (("name",), "V" * 61, "text: the scenario's name must have 1 to 60 characters, not 61"),
    (("id",), "vault\x00", "text: the scenario's id may not hold control"),
    (("summary",), "line one\nline two", "text: the scenario's summary may not hold control"),
    (("tiles", 1, "name"), "Great\u200bHall", "text: tile 2's name may not hold control"),
    (("tiles", 1, "id"), "h" * 41, "text: tile 2's id must have 1 to 40 characters, not 41"),
])
def test_issue_24_point_4_a_scenario_text_breaking_the_name_rule_is_refused(
        path: tuple[Any, ...], value: str, words: str) -> None:
    """Issue 24, point 4: the scenario's id, name and summary and each tile's id and name
    are read by every seat, so each keeps the rule of a player's name; a broken one is a
    problem naming the field and the rule, and the scenario is refused."""
    doc = vault()
    if path[-1] == "id" and path[0] == "tiles":
        doc["vault"]["tile"] = value
    where: Any = doc
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    found = scenario.problems(doc)
    assert any(p.startswith(words) for p in found), found
    with pytest.raises(ValueError, match="option scenario"):
        BK.new_game(1, 1, scenario=doc)


def test_issue_24_point_4_a_scenario_is_shown_by_its_name_only_if_it_keeps_the_rule() -> None:
    """Issue 24, point 4: a table's title and ``citywatch scenario check`` name a scenario by
    its ``name`` only if that keeps the rule of shown text; else by its id, else in words."""
    option = BK.type.choice("scenario")
    assert option is not None
    doc = vault()
    doc["name"] = ATTACK_NAME
    assert option.show(doc) == "the-vault"
    doc["id"] = "x\x00"
    assert option.show(doc) == "a scenario of one's own"


# --- point 1: deck documents have size limits, checked first --------------------------------

BOOK = citywatch.load(GOTC).type.setup[0]
assert BOOK is not None


def own_deck(name: str = "My own deck") -> dict[str, Any]:
    """A legal deck of one's own: the first starter deck renamed, without its id."""
    deck = {k: v for k, v in copy.deepcopy(BOOK.shipped()[0]).items() if k != "id"}
    deck["name"] = name
    return deck


def _deck_over(limit: str) -> dict[str, Any]:
    """A deck that breaks one limit."""
    deck = own_deck()
    if limit == "chars":
        deck["action"] = deck["action"] * 100
    elif limit == "depth":
        deck["action"][0]["count"] = [[[1]]]
    elif limit == "string":
        deck["action"][0]["name"] = "R" * (decks.MAX_PLAN + 1)
    elif limit == "action":
        deck["action"] = [{"id": "A01", "count": 1}] * (decks.MAX_ENTRIES["action"] + 1)
    elif limit == "crisis":
        deck["crisis"] = [{"id": "C01", "count": 1}] * (decks.MAX_ENTRIES["crisis"] + 1)
    return deck


DECK_WORDS = {
    "chars": f"limit: a deck holds at most {decks.MAX_CHARS} characters of JSON",
    "depth": f"limit: a deck nests lists and objects at most {decks.MAX_DEPTH} deep",
    "string": f"limit: a text in a deck holds at most {decks.MAX_PLAN} characters, not "
              f"{decks.MAX_PLAN + 1}",
    "action": f"limit: the Action side of a deck lists at most {decks.MAX_ENTRIES['action']} "
              f"entries (one per card of the set), not {decks.MAX_ENTRIES['action'] + 1}",
    "crisis": f"limit: the Crisis side of a deck lists at most {decks.MAX_ENTRIES['crisis']} "
              f"entries",
}


@pytest.mark.parametrize("limit", DECK_WORDS)
def test_issue_24_point_1_a_deck_over_a_limit_is_refused_naming_it(
        limit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 1: a deck over any size limit gets a ``limit: ...`` problem naming it
    and no deck rule is read after it (a card listed twice is not even reported); loading it
    is a ``ValueError``; ``citywatch deck check`` prints it as a broken rule (exit 1)."""
    deck = _deck_over(limit)
    found = BOOK.problems(deck)
    assert found and all(p.startswith("limit: ") for p in found), found
    assert any(p.startswith(DECK_WORDS[limit]) for p in found), found
    with pytest.raises(ValueError, match="the deck is refused: limit: "):
        BOOK.load(deck)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"game": GOTC, **deck}))
    assert main(["deck", "check", str(path)]) == 1
    assert DECK_WORDS[limit] in capsys.readouterr().out


# --- point 4: a deck's shown texts keep the rule of a player's name -------------------------

@pytest.mark.parametrize(("field", "value", "words"), [
    ("name", "Vanguard \u202eevil", "text: the deck's name may not hold control or invisible "
                                    "formatting characters"),
    ("name", "Vanguard\x00", "text: the deck's name may not hold control"),
    ("name", "N" * 49, "text: the deck's name must have 1 to 48 characters, not 49"),
    ("plan", "p" * 250 + "\u2028p", "text: the deck's plan may not hold control"),
    ("id", "mine\u200b", "text: the deck's id may not hold control"),
])
def test_issue_24_point_4_a_deck_text_breaking_the_name_rule_is_refused(
        field: str, value: str, words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 4: a deck's name, id and plan are sent to every seat, so each keeps
    the rule of a player's name: a problem naming the field and the rule, refused on load,
    and ``citywatch deck check`` (exit 1) never prints the bad name as the deck's title."""
    deck = {**own_deck(), field: value}
    assert any(p.startswith(words) for p in BOOK.problems(deck))
    with pytest.raises(ValueError, match="the deck is refused: text: "):
        BOOK.load(deck)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"game": GOTC, **deck}))
    assert main(["deck", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert words in out
    assert not any(c in out for c in "\u202e\x00\u2028\u200b")
    if field == "name" and len(value) < 40:
        assert out.startswith(f"{path}: the deck breaks")


def test_issue_24_point_4_the_deck_name_attack_is_refused_by_deck_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 4: the reported deck (a name of 40,000 characters with a
    right-to-left override and a NUL) is refused by ``citywatch deck check`` (exit 1) with
    a sentence naming the limit, and its name is not printed; the starter decks still pass."""
    path = tmp_path / "attack.json"
    path.write_text(json.dumps({"game": GOTC, **own_deck(ATTACK_NAME)}))
    assert main(["deck", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"limit: a deck holds at most {decks.MAX_CHARS} characters of JSON" in out
    assert "\u202e" not in out and "xxxxxxxxxx" not in out and len(out) < 400
    for starter in BOOK.shipped():
        assert BOOK.problems(starter) == []
        assert BOOK.load(starter["id"]) == starter


def test_issue_24_point_4_the_server_refuses_the_deck_name_attack(tmp_path: Path) -> None:
    """Issue 24, point 4: ``POST /api/tables`` with the reported deck, or with a short deck
    name holding a right-to-left override, is refused (400) with a sentence naming the
    rule, and no table is made; a deck with a clean name makes its table."""
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_delay=30,
                     limits=Limits(creations="1000/minute"))
    with TestClient(app) as client:
        body = {"game": GOTC, "seats": ["human", "random"]}
        for deck, words in ((own_deck(ATTACK_NAME), "limit: a deck holds at most"),
                            (own_deck("Vanguard \u202eevil"),
                             "text: the deck's name may not hold control or invisible "
                             "formatting characters")):
            response = client.post("/api/tables",
                                   json={**body, "options": {"decks": ["lifeline", deck]}})
            assert response.status_code == 400, response.text
            error = response.json()["error"]
            assert "seat 2's deck" in error and words in error
            assert "\u202e" not in error and len(error) <= 600
        assert app.state.tables._live == {}
        made = client.post("/api/tables", json={**body, "options": {
            "decks": ["lifeline", own_deck("Ann's deck")]}})
        assert made.status_code == 200, made.text


# --- point 4: one rule for every shown text, in the core ------------------------------------

def test_issue_24_point_4_the_name_rule_lives_in_the_core_with_a_length() -> None:
    """Issue 24, point 4: ``core.text.clean_text`` is the rule of a player's name (stripped,
    NFC, a length range, no Unicode Cc, Cf, Cs, Zl, Zp) for any length; the server's
    ``clean_name`` keeps it for names of 1 to 24 characters."""
    from citywatch.server.tables import TableError, clean_name

    assert clean_text("  Cafe\u0301  ", "the name", 5) == "Caf\u00e9"
    assert text_problem("x" * 49, "the deck's name", 48) == \
        "the deck's name must have 1 to 48 characters, not 49"
    assert text_problem("", "the summary", 500, 0) is None
    for bad in ("a\u202eb", "a\x00b", "a\u2028b", "a\u2029b", "a\ud800b", "a\u200bb"):
        assert text_problem(bad, "the name", 60) == \
            "the name may not hold control or invisible formatting characters"
    assert text_problem(7, "the name", 60) == "the name must be text"
    assert clean_name(" Ann ") == "Ann"
    with pytest.raises(TableError, match="your name must have 1 to 24 characters, not 25"):
        clean_name("A" * 25, "your name")
