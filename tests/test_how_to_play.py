"""Issue 26: "How to play" for every game (set-up, a turn, how to win, the terms) as game data
(``Game.how_to_play()``, ``core/guide.py``), at the top of ``citywatch rules GAME``; ``? TERM``
and ``citywatch rules GAME TERM`` find the terms; values read as sentences, never Python."""

from __future__ import annotations

import copy
import io
import os
import re
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
import toy_game
from glossary import screen_texts, unknown_terms
from rich.console import Console

from citywatch.cli import main
from citywatch.core.guide import REQUIRED, GuideError, check_guide, terms
from citywatch.core.presentation import field_text
from citywatch.core.registry import game_names, load
from citywatch.reference import entry_panel, kinds, lookup, sections, singular
from citywatch.terminal.screens import GenericScreens, screens_for

GAMES = [name for name in game_names() if name != toy_game.NAME]
PYTHONISH = re.compile(r"(?:^|[:│]|\s\s)\s*(?:True|False|None)(?:\s\s|\s*$|[,│])"
                       r"|\[['\"\]]|\{['\"}]|'\]", re.MULTILINE)
"""How Python spells a flag or a missing value as a field's value or a table's cell (not
"False Beard"), or a list or a dict of strings."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")


def plain(renderable: Any, width: int = 100) -> str:
    """``renderable`` drawn by rich as plain text."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()
    assert isinstance(out, str)
    return out


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as to a pipe, 80 columns wide."""
    monkeypatch.setenv("COLUMNS", "80")
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


# --- the guides ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_guide_with_set_up_turn_winning_and_terms(name: str) -> None:
    """Issue 26: each game's how-to-play has set-up, a turn, how to win and the terms, in that
    order, each with something in it; the terms have names and meanings."""
    guide = load(name).how_to_play()
    assert guide is not None
    check_guide(guide)
    ids = [s["id"] for s in guide["sections"]]
    assert [i for i in ids if i in REQUIRED] == list(REQUIRED)
    assert guide["title"].startswith("How to play")
    for section in guide["sections"]:
        assert section["title"] and (section.get("body") or section.get("terms"))
    assert len(terms(guide)) >= 20
    for term in terms(guide):
        assert term["name"] and term["meaning"].endswith((".", ")"))


@pytest.mark.parametrize("name", GAMES)
def test_the_guides_terms_are_the_references_last_section(name: str) -> None:
    """The guide's terms are the reference's ``terms`` (kind ``term``), so ``? TERM`` finds
    each by its name and by each of its other names."""
    game = load(name)
    reference = game.reference()
    guide = game.how_to_play()
    assert sections(reference)[-1] == "terms" and kinds(reference)[-1] == "term"
    assert reference["terms"] == terms(guide)
    for term in terms(guide):
        for known in [term["name"], *term.get("also", [])]:
            assert term in lookup(reference, None, known), known


def test_a_game_without_a_guide_has_none(toy_registered: Any) -> None:
    """The default ``how_to_play`` is None, and the reference gains no terms."""
    game = load(toy_game.NAME)
    assert game.how_to_play() is None
    assert "terms" not in game.reference()


def test_the_checker_refuses_a_guide_without_its_sections() -> None:
    """A guide must have set-up, a turn, how to win and the terms, in that order, with text;
    a term named twice (or by another term's other name) is refused."""
    good = load("ankh-morpork").how_to_play()
    assert good is not None
    check_guide(good)
    for broken, says in (
            ({**good, "sections": good["sections"][1:]}, "setup, turn, winning, terms"),
            ({**good, "sections": good["sections"][::-1]}, "in that order"),
            ({**good, "title": ""}, "title"),
    ):
        with pytest.raises(GuideError, match=says):
            check_guide(broken)
    twice = copy.deepcopy(good)
    twice["sections"][-1]["terms"].append({"name": "trouble", "meaning": "Again."})
    with pytest.raises(GuideError, match="named twice"):
        check_guide(twice)
    empty = copy.deepcopy(good)
    empty["sections"][0]["body"] = [[]]
    with pytest.raises(GuideError, match="empty list"):
        check_guide(empty)


# --- citywatch rules -----------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_rules_starts_with_how_to_play(name: str, columns: None,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: ``citywatch rules GAME`` begins with the guide: its title, then set-up, a
    turn, how to win and the terms under their headings, before the rules reference, which
    does not list the terms again; every line fits 80 columns."""
    guide = load(name).how_to_play()
    assert guide is not None
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == guide["title"]
    first, _, reference = out.partition(f"{name}: rules reference")
    assert reference
    where = [first.index(s["title"] + " ─") for s in guide["sections"]]
    assert where == sorted(where)
    flat = " ".join(first.split())
    for term in terms(guide):
        assert term["name"] in flat
        assert " ".join(term["meaning"].split()) in flat, term["name"]
    assert "Terms (" not in reference
    assert all(len(line) <= 80 for line in out.splitlines())


@pytest.mark.parametrize(("name", "words", "says"), [
    ("guards-guards", ["Cut", "Purse"], "The target gives you 3 dollars"),
    ("guards-guards", ["Saboteurs"], "planted face down"),
    ("black-keep", ["Bored"], "2 hexes straight ahead"),
    ("black-keep", ["Location", "Dial"], "Where a thief really is"),
    ("ankh-morpork", ["trouble"], "at most one per area"),
    ("guardians-of-the-city", ["Shield"], "soak up support"),
])
def test_rules_finds_a_term_without_a_kind(name: str, words: list[str], says: str, columns: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``citywatch rules GAME TERM``: words that are no kind but name entries are looked up in
    every kind (issue 26: the words the screens use)."""
    assert main(["rules", name, *words]) == 0
    assert says in " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert main(["rules", name, *words, "--json"]) == 0
    assert says in capsys.readouterr().out


def test_lookup_finds_plurals_and_other_names() -> None:
    """A plural finds the singular (``Thief Markers``, ``Special Hexes``, ``Thieves``), and a
    term is found by its other names (``Dm``: Demon)."""
    black_keep = load("black-keep").reference()
    assert lookup(black_keep, None, "Thief Markers")[0]["name"] == "Thief Marker"
    assert lookup(black_keep, None, "special hexes")[0]["name"] == "Special Hex"
    assert lookup(black_keep, None, "Thieves")[0]["name"] == "Thief"
    assert lookup(load("ankh-morpork").reference(), None, "Dm")[0]["name"] == "Demon"
    assert singular("hexes") == "hex"


# --- values as sentences -------------------------------------------------------------------
def test_field_text_reads_as_words() -> None:
    """Flags are yes or no, lists are joined by commas, a missing value is "none" (and the
    test's own pattern tells Python's spelling from a name such as "False Beard")."""
    assert PYTHONISH.search("advanced: False") and PYTHONISH.search("x  None  y")
    assert PYTHONISH.search("marks: ['Fate']") and not PYTHONISH.search("False Beard (Item)")
    assert [field_text(v) for v in (True, False, None, [], ["a", "b"], {"x_y": [1, 2]}, 3)] == [
        "yes", "no", "none", "none", "a, b", "x y: 1, 2", "3"]


@pytest.mark.parametrize("name", GAMES)
def test_no_reference_value_reads_as_python(name: str) -> None:
    """Issue 26 (``? tutorial`` printed ``advanced: False``): every entry of every kind, as
    ``?`` shows it in the terminal and as ``citywatch rules GAME KIND NAME`` shows it, has no
    True, False, None, list or dict written as Python."""
    game = load(name)
    reference = game.reference()
    screens = screens_for(game)
    for section in sections(reference):
        for entry in reference[section]:
            for shown in (plain(screens.describe(entry)),
                          plain(entry_panel(singular(section), entry))):
                assert not PYTHONISH.search(shown), (section, entry["name"], shown)


def test_the_generic_screens_describe_in_words(toy_registered: Any) -> None:
    """A game without its own screens shows a reference entry field by field in words."""
    entry = {"name": "Ada Quill", "brave": True, "gear": ["pike", "lamp"], "motto": None}
    shown = plain(GenericScreens(load(toy_game.NAME).type).describe(entry))
    assert "brave: yes" in shown and "gear: pike, lamp" in shown and "motto: none" in shown
    assert not PYTHONISH.search(shown)


@pytest.mark.parametrize("name", GAMES)
def test_the_whole_rules_output_has_no_python(name: str, columns: None,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``citywatch rules GAME`` (guide and reference) writes no value as Python."""
    assert main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert not PYTHONISH.search(out), PYTHONISH.search(out)


# --- '?' in the terminal -------------------------------------------------------------------
def spawn(tmp: Path, *args: str) -> pexpect.spawn:
    env = dict(os.environ, CITYWATCH_DATA_DIR=str(tmp), TERM="xterm-256color")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return pexpect.spawn(sys.executable, ["-m", "citywatch.cli", *args], env=env,
                         dimensions=(24, 80), encoding="utf-8", timeout=60)


@pytest.mark.parametrize(("args", "asked"), [
    (("guards-guards", "--seats", "you,bot", "--seed", "4"),
     [("Cut Purse", "The target gives you 3 dollars"), ("Saboteur", "planted face down"),
      ("Lords & Ladies", "nobility")]),
    (("black-keep", "--seats", "you", "--seed", "4"),
     [("Bored", "2 hexes straight ahead"), ("Location Dial", "Where a thief really is"),
      ("tutorial", "advanced: no")]),
])
def test_question_mark_finds_the_words_the_screens_use(tmp_path: Path, args: tuple[str, ...],
                                                       asked: list[tuple[str, str]]) -> None:
    """Issue 26: in a real terminal ``? Cut Purse``, ``? Saboteur``, ``? Bored`` and
    ``? Location Dial`` find their terms (they found nothing before), and ``? tutorial``
    prints ``advanced: no``, not ``advanced: False``."""
    child = spawn(tmp_path, "play", *args)
    child.expect_exact("choice> ")
    for query, says in asked:
        child.sendline(f"? {query}")
        child.expect_exact("choice> ")
        shown = " ".join(ANSI.sub("", child.before or "").split())
        assert says in shown, (query, shown[-400:])
        assert "Nothing called" not in shown and not PYTHONISH.search(shown), shown[-400:]
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_term_check_finds_what_a_reference_lacks() -> None:
    """The screens' words check (``glossary.py``, the per-game ``test_*_terms.py``) is not
    vacuous: without the guide's terms, the words issue 26 found missing are reported again,
    and a sentence's first word (``Play``) is not asked for."""
    game = load("black-keep")
    texts = screen_texts(game, 1, (1,), 3000, scenario="tutorial")
    reference = {k: v for k, v in game.reference().items() if k != "terms"}
    missing = unknown_terms(reference, texts, frozenset({game.display_name()}))
    assert {"Bored", "Location Dial", "Thief Marker"} <= set(missing)
    assert "Play" not in missing
