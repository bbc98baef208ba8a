"""The Black Keep's scenarios (``scenario.py``, spec section 11) and the geometry under them
(``hexes.py``, spec 2.1-2.4; ``board.py``, spec 2.5-2.9): the shipped files, every rule of
spec 11.2 with its number, agreement with the reference ``validate.py`` (its 19 self-test
breaks and more), and clear errors for files that cannot be read."""

from __future__ import annotations

import copy
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.hexes import (
    DELTAS,
    NE,
    NW,
    SE,
    SW,
    Hex,
    centre,
    column_letters,
    corner,
    distance,
    facing_between,
    label,
    neighbour,
    parse,
    side,
)
from citywatch.games.black_keep.scenario import ScenarioError

REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "reference" / "black-keep"
PACKAGED = Path(scenario.__file__).with_name("scenarios")
Doc = dict[str, Any]


def _reference(name: str) -> ModuleType:
    """A reference module (``validate.py``, ``los_reference.py``) from the shared folder."""
    path = REFERENCE / f"{name}.py"
    if not path.is_file():  # pragma: no cover
        pytest.skip(f"{path} is not available")
    spec = importlib.util.spec_from_file_location(f"bk_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def validate() -> ModuleType:
    """The reference scenario checker."""
    return _reference("validate")


def vault() -> Doc:
    """A fresh copy of The Vault's document, the file validate.py's self-test breaks."""
    return scenario.read("the-vault")


def rules_of(found: list[str]) -> set[int]:
    """The rule numbers the messages cite (a broken limit or text rule of issue 24 cites
    none: it starts ``limit:`` or ``text:``)."""
    numbers = set()
    for message in found:
        match = re.match(r"rule (\d):|limit: |text: ", message)
        assert match, f"message does not start with its rule: {message}"
        if match.group(1):
            numbers.add(int(match.group(1)))
    return numbers


def reported(doc: Doc, rule: int, *words: str) -> bool:
    """Whether some problem of ``doc`` cites ``rule`` and contains every word."""
    return any(p.startswith(f"rule {rule}:") and all(w in p for w in words)
               for p in scenario.problems(doc))


# --- the shipped files ----------------------------------------------------------------------

def test_names_lists_the_three_shipped_scenarios_in_playing_order() -> None:
    """Spec 11.3: tutorial, then The Vault, then The Black Keep; each file's id is its name."""
    assert scenario.names() == ["tutorial", "the-vault", "the-black-keep"]
    assert sorted(p.stem for p in PACKAGED.glob("*.json")) == sorted(scenario.names())
    for name in scenario.names():
        assert scenario.read(name)["id"] == name


def test_shipped_files_are_copies_of_the_shared_ones() -> None:
    """Spec 11.3: the scenarios are the reference files, byte for byte."""
    shared = REFERENCE / "scenarios"
    if not shared.is_dir():  # pragma: no cover
        pytest.skip(f"{shared} is not available")
    for name in scenario.names():
        assert (PACKAGED / f"{name}.json").read_bytes() == (shared / f"{name}.json").read_bytes()


@pytest.mark.parametrize("name", scenario.SHIPPED)
def test_shipped_scenarios_have_no_problems_and_load(name: str) -> None:
    """Spec 11.2: every shipped scenario passes every rule and builds its Board."""
    doc = scenario.read(name)
    assert scenario.problems(doc) == []
    board = scenario.load(name)
    assert (board.id, board.dawn, len(board.tiles)) == \
        {"tutorial": ("tutorial", 20, 1), "the-vault": ("the-vault", 30, 3),
         "the-black-keep": ("the-black-keep", 40, 5)}[name]
    assert board.advanced == (name == "the-black-keep")


def test_a_shipped_board_is_built_once_and_shared() -> None:
    """Every state of one scenario shares one Board (its caches of distances and sight): by
    name, by the same document and by a path to an identical file."""
    board = scenario.load("the-vault")
    assert scenario.load("the-vault") is board
    assert scenario.from_doc(scenario.read("the-vault")) is board
    assert scenario.load(PACKAGED / "the-vault.json") is board
    changed = scenario.read("the-vault")
    changed["dawn"] = 31
    assert scenario.from_doc(changed) is not board


def test_a_scenario_of_ones_own_shares_its_board_between_games(tmp_path: Path) -> None:
    """A user's scenario played game after game (``simulate --scenario FILE``) keeps one
    Board with its sight caches; a different document gets its own, and only the last
    ``CUSTOM_BOARDS`` are kept."""
    mine = scenario.read("the-vault")
    mine["id"], mine["dawn"] = "my-vault", 29
    board = scenario.from_doc(mine)
    assert board.id == "my-vault"
    assert scenario.from_doc(scenario.read("the-vault") | {"id": "my-vault", "dawn": 29}) is board
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(mine))
    assert scenario.load(path) is board
    other = mine | {"dawn": 28}
    assert scenario.from_doc(other) is not board
    for dawn in range(1, scenario.CUSTOM_BOARDS + 1):
        scenario.from_doc(mine | {"dawn": dawn + 30})
    assert scenario.from_doc(mine) is not board


def test_read_returns_a_fresh_copy_each_time() -> None:
    """Changing what ``read`` returned changes neither later reads nor the shared Board."""
    doc = scenario.read("tutorial")
    doc["tiles"].clear()
    assert scenario.read("tutorial")["tiles"]
    assert scenario.problems(scenario.load("tutorial").source) == []


def test_tutorial_tile_is_the_rulebook_example(tmp_path: Path) -> None:
    """Spec 11.3: the Guardroom's walls, solids and door equal ``los_reference.EXAMPLE_*``
    (the worked example of 3.8); its guard is Stationary on E4 and the crown is G7."""
    ref = _reference("los_reference")
    doc = scenario.read("tutorial")
    (tile,) = doc["tiles"]
    assert (tile["cols"], tile["rows"]) == ("A-G", "1-7")
    assert {frozenset(w) for w in doc["walls"]} == {frozenset(w) for w in ref.EXAMPLE_WALLS}
    assert len(doc["walls"]) == len(ref.EXAMPLE_WALLS)
    assert sorted(tile["solid"]) == sorted(ref.EXAMPLE_SOLID)
    assert [s["hex"] for s in doc["special"]] == list(ref.EXAMPLE_SPECIAL)
    assert {ref.label(h) for h in ref.EXAMPLE_TILE} == \
        {f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)}
    board = scenario.load("tutorial")
    assert board.labels[board.tiles[0].crescent or 0] == "E4"
    assert board.labels[board.crown] == "G7"


def test_notes_report_the_crown_behind_special_hexes() -> None:
    """Spec 11.2 rule 8 note: the tutorial's crown needs Lockpicks only from A7 (behind the
    door B3); The Vault's needs the vault door or the grate from every entry."""
    assert scenario.notes(scenario.read("tutorial")) == [
        "rule 8 note: the crown G7 is reached only through a Special Hex (Lockpicks or a key) "
        "from A7"]
    for name in ("the-vault", "the-black-keep"):
        (note,) = scenario.notes(scenario.read(name))
        assert "crown K11" in note and "every entry hex" in note
    doc = vault()
    doc["special"] = [s for s in doc["special"] if s["hex"] not in ("K9", "K13")]
    assert scenario.problems(doc) == [] and scenario.notes(doc) == []


# --- validate.py's self-test breaks, each reported for the same reason ----------------------

def _tile(doc: Doc, tid: str) -> Doc:
    return next(t for t in doc["tiles"] if t["id"] == tid)


def _markers(doc: Doc, tid: str) -> Doc:
    markers: Doc = _tile(doc, tid)["markers"]
    return markers


def _wall_in(doc: Doc, text: str, within: str | None = None) -> None:
    """Walls round every side of ``text`` (toward hexes of tile ``within`` only, if given)."""
    h = parse(text)
    keep = None
    if within is not None:
        t = _tile(doc, within)
        first, last = (parse(c + "1")[0] for c in t["cols"].split("-"))
        keep = {parse(f"{column_letters(q)}{row}") for q in range(first, last + 1)
                for row in range(int(t["rows"].split("-")[0]), int(t["rows"].split("-")[1]) + 1)}
    listed = {frozenset(w) for w in doc["walls"]}
    for f in range(6):
        n = neighbour(h, f)
        if (keep is None or n in keep) and frozenset((text, label(n))) not in listed:
            doc["walls"].append([text, label(n)])


def _shut_hall_exits(doc: Doc) -> None:
    """The hall is no entry and its exits J1, N5 are walled in from the rest of it."""
    _tile(doc, "hall").update(entry=False)
    _wall_in(doc, "J1", "hall")
    _wall_in(doc, "N5", "hall")


Break = tuple[int, tuple[str, ...], Callable[[Doc], object]]
SELF_TEST_BREAKS: dict[str, Break] = {
    # validate.py's name: (rule of spec 11.2, words of the message, how to break The Vault)
    "tiles do not join": (2, ("tile vault", "does not join"),
                          lambda d: _tile(d, "vault").update(cols="O-U", rows="8-14")),
    "tiles overlap": (2, ("tile vault", "overlaps tile"),
                      lambda d: _tile(d, "vault").update(rows="1-7")),
    "tile off the block grid": (2, ("tile vault", "block grid"),
                                lambda d: _tile(d, "vault").update(cols="I-O")),
    "wall between non-neighbours": (3, ("A3", "A5", "not neighbours"),
                                    lambda d: d["walls"].append(["A3", "A5"])),
    "wall listed twice": (3, ("wall B2|A3", "listed twice"),
                          lambda d: d["walls"].append(d["walls"][0][::-1])),
    "marker off the map": (4, ("tile hall", "crescent", "Z99", "not on the map"),
                           lambda d: _markers(d, "hall").update(crescent="Z99")),
    "marker on a solid hex": (4, ("tile hall", "crescent", "J3", "solid hex"),
                              lambda d: _markers(d, "hall").update(crescent="J3")),
    "green line jumps": (4, ("tile hall", "green line steps from J4 to L4", "not neighbours"),
                         lambda d: _markers(d, "hall")["green_line"].pop(3)),
    "green line through a wall": (4, ("tile hall", "green line steps from J4 to K4", "wall"),
                                  lambda d: d["walls"].append(["J4", "K4"])),
    "red arrows do not close": (4, ("tile hall", "red arrows step from I6 to I4",
                                    "closing the loop"),
                                lambda d: _markers(d, "hall")["red_arrows"].pop()),
    "red shield off the arrows": (4, ("tile hall", "red shield K2", "not on the red arrows"),
                                  lambda d: _markers(d, "hall")["red_shields"].append("K2")),
    "hard guard of the same type": (5, ("tile hall", "hard guard is patrolling", "another type"),
                                    lambda d: _tile(d, "hall")["guards"][1].update(
                                        type="patrolling")),
    "vault guard not wandering": (5, ("tile vault", "always a Wandering guard"),
                                  lambda d: _tile(d, "vault")["guards"][0].update(
                                      type="stationary")),
    "outside edge inside the map": (7, ("tile hall", "K4", "not on the edge of the map"),
                                    lambda d: _tile(d, "hall")["outside_edge"].append("K4")),
    "crown walled in": (8, ("crown K11", "cannot be reached", "A4, A5, D7, J1, N5"),
                        lambda d: _wall_in(d, "K11")),
    "exit tile unreachable": (8, ("exit tile hall", "J1, N5", "from the crown K11"),
                              lambda d: _shut_hall_exits(d)),
    "stationary guard on the only way": (8, ("crown K11", "cannot be reached", "A4, A5, D7"),
                                         lambda d: _markers(d, "gatehouse").update(
                                             crescent="G4")),
    "unknown special kind": (3, ("special hex C6", "'portcullis'", "door, window, grate"),
                             lambda d: d["special"][0].update(kind="portcullis")),
    "torch in a solid hex": (3, ("torch", "J3", "solid hex"), lambda d: d["torches"].append("J3")),
}


def test_the_breaks_here_are_validate_self_test_breaks(validate: ModuleType) -> None:
    """Spec 11.2: ``validate.py --self-test`` breaks a good file in 19 ways; these are they."""
    source = inspect.getsource(validate.self_test)
    block = source[source.index("breaks = {"):source.index("missed = []")]
    names = set(re.findall(r'^\s+"([^"]+)": \(', block, flags=re.MULTILINE))
    assert len(names) == 19
    assert names == set(SELF_TEST_BREAKS)


@pytest.mark.parametrize("name", SELF_TEST_BREAKS)
def test_each_self_test_break_is_reported_for_its_rule(name: str, validate: ModuleType) -> None:
    """Spec 11.2: each of validate.py's breaks is a problem citing the same rule and naming
    the hexes or tile involved, and validate.py rejects the same document."""
    rule, words, breaker = SELF_TEST_BREAKS[name]
    doc = vault()
    breaker(doc)
    found = scenario.problems(doc)
    assert reported(doc, rule, *words), found
    assert validate.validate(copy.deepcopy(doc)).problems


# --- more breaks, one rule of spec 11.2 each --------------------------------------------------

def _set(path: tuple[Any, ...], value: Any) -> Callable[[Doc], None]:
    """A breaker setting the value at a path of keys."""
    def breaker(doc: Doc) -> None:
        node: Any = doc
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
    return breaker


def _guards(tid: str, guards: list[Doc]) -> Callable[[Doc], None]:
    return lambda d: _tile(d, tid).update(guards=guards)


MORE_BREAKS: dict[str, Break] = {
    "a key missing": (1, ("'dawn'", "missing"), lambda d: d.pop("dawn")),
    "another format": (1, ("format", "black-keep-scenario/1"), _set(("format",), "bk/2")),
    "five players": (1, ("players",), _set(("players", "max"), 5)),
    "no players": (1, ("players",), _set(("players", "min"), 0)),
    "dawn at zero": (1, ("dawn",), _set(("dawn",), 0)),
    "tile too narrow": (2, ("tile vault", "6 by 7"), lambda d: _tile(d, "vault").update(
        cols="H-M")),
    "wall off the map": (3, ("wall A4|(-1,4)", "not a hex label"),
                         lambda d: d["walls"].append(["A4", "(-1,4)"])),
    "wall into a solid hex": (3, ("A2", "solid hex"), lambda d: d["walls"].append(["A3", "A2"])),
    "special in a solid hex": (3, ("special hex", "J3", "solid hex"),
                               lambda d: d["special"].append({"hex": "J3", "kind": "door"})),
    "special listed twice": (3, ("special hex D3", "listed twice"),
                             lambda d: d["special"].append({"hex": "D3", "kind": "window"})),
    "torch in a door": (3, ("torch", "D3", "Special Hex"), lambda d: d["torches"].append("D3")),
    "torch listed twice": (3, ("torch", "A3", "listed twice"),
                           lambda d: d["torches"].append("A3")),
    "solid hex of another tile": (3, ("tile gatehouse solid", "H1", "not on this tile"),
                                  lambda d: _tile(d, "gatehouse")["solid"].append("H1")),
    "marker on another tile": (4, ("tile gatehouse", "crescent", "K4", "on tile hall"),
                               lambda d: _markers(d, "gatehouse").update(crescent="K4")),
    "green line from elsewhere": (4, ("green line starts at H4", "star I4"),
                                  lambda d: _markers(d, "hall").update(star="I4")),
    "green line repeats": (4, ("green line visits I4 more than once",),
                           lambda d: _markers(d, "hall")["green_line"].insert(2, "I4")),
    "red arrows of two hexes": (4, ("three or more",),
                                lambda d: _markers(d, "hall").update(red_arrows=["I4", "J4"],
                                                                     red_shields=["I4"])),
    "seven red shields": (4, ("1 to 6 different hexes",),
                          lambda d: _markers(d, "vault")["red_shields"].append("H11")),
    "patrolling guard without a line": (5, ("tile vault", "patrolling guard needs",
                                            "star, shield, green_line"),
                                        lambda d: (_markers(d, "vault").pop("star"),
                                                   _markers(d, "vault").pop("shield"),
                                                   _markers(d, "vault").pop("green_line"),
                                                   _tile(d, "vault")["guards"][1].update(
                                                       type="patrolling"))),
    "undead hard guard": (5, ("tile hall", "hard guard cannot be undead"),
                          lambda d: _tile(d, "hall")["guards"][1].update(undead=True)),
    "vault guard off the vault tile": (5, ("tile hall", "vault guard belongs on the Vault tile"),
                                       lambda d: _tile(d, "hall")["guards"].append(
                                           {"role": "vault", "type": "wandering"})),
    "roving guard of another type": (5, ("roving role and the roving type",),
                                     lambda d: _tile(d, "vault")["guards"].append(
                                         {"role": "roving", "type": "wandering"})),
    "unknown role": (5, ("tile hall", "'captain'"), _guards("hall", [
        {"role": "captain", "type": "patrolling"}])),
    "crown in a door": (6, ("crown K9", "Special Hex"), _set(("vault", "crown"), "K9")),
    "crown on the hall": (6, ("crown", "K4", "not on tile vault"),
                          _set(("vault", "crown"), "K4")),
    "vault guard flag wrong": (6, ("vault_guard is false", "tile vault lists a vault guard"),
                               _set(("vault", "vault_guard"), False)),
    "vault tile unknown": (6, ("vault tile 'cellar'", "gatehouse, hall, vault"),
                           _set(("vault", "tile"), "cellar")),
    "vault tile as an entry": (7, ("tile vault is the Vault tile",),
                               lambda d: _tile(d, "vault").update(entry=True,
                                                                  outside_edge=["H14"])),
    "outside edge in a door": (7, ("outside edge hex M3", "Special Hex"),
                               lambda d: _tile(d, "hall")["outside_edge"].append("M3")),
    "no exit tile": (7, ("no tile is an exit tile",),
                     lambda d: [t.update(exit=False) for t in d["tiles"]]),
    "crown on a crescent": (8, ("crown K10", "crescent"), _set(("vault", "crown"), "K10")),
}


@pytest.mark.parametrize("name", MORE_BREAKS)
def test_each_rule_of_11_2_is_checked(name: str, validate: ModuleType) -> None:
    """Spec 11.2 rules 1-8: a break of one rule is reported under that rule's number, with the
    hexes or tile involved; validate.py rejects the same document too (agreement)."""
    rule, words, breaker = MORE_BREAKS[name]
    doc = vault()
    breaker(doc)
    assert reported(doc, rule, *words), scenario.problems(doc)
    assert validate.validate(copy.deepcopy(doc)).problems
    with pytest.raises(ScenarioError):
        scenario.from_doc(doc)


def test_every_rule_has_a_break() -> None:
    """Spec 11.2: the breaks above exercise all eight rules."""
    assert {b[0] for b in (*SELF_TEST_BREAKS.values(), *MORE_BREAKS.values())} == \
        set(range(1, 9))


@pytest.mark.parametrize("name", scenario.SHIPPED)
def test_agrees_with_validate_on_the_shipped_files(name: str, validate: ModuleType) -> None:
    """Spec 11.2: both checkers accept each shipped file, with the same rule 8 note."""
    doc = scenario.read(name)
    checked = validate.validate(doc)
    assert checked.problems == [] and scenario.problems(doc) == []
    ours = [n.split(" from ")[-1] for n in scenario.notes(doc)]
    theirs = [n.split(" from ")[-1] for n in checked.notes if "reached only" in n]
    assert [o.replace(" hex", "") for o in ours] == theirs


def cli_notes(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    """``citywatch scenario check ARGV``'s exit code and its notes, each on one line."""
    from citywatch.cli import main

    code = main(["scenario", "check", *argv])
    lines = capsys.readouterr().out.splitlines()
    notes: list[str] = []
    for line in lines[1:]:
        if line.startswith("    "):  # a wrapped note's next line
            notes[-1] += " " + line.strip()
        else:
            notes.append(line.strip())
    return code, notes


@pytest.mark.parametrize("name", scenario.SHIPPED)
def test_scenario_check_prints_the_rule_8_note_as_validate_does(
        name: str, validate: ModuleType, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """Spec 11.2 rule 8 ("whether the crown can be reached without any Special Hex is
    reported as a note"; issue 28: ``scenario check`` never printed it): by id and as a
    file, the check prints the note, naming the same entry hexes as ``validate.py``'s."""
    doc = scenario.read(name)
    theirs = [n.split(" from ")[-1] for n in validate.validate(doc).notes if "reached only" in n]
    assert theirs  # every shipped scenario has its crown behind a Special Hex somewhere
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for argument in (name, str(path)):
        code, notes = cli_notes(capsys, argument)
        assert code == 0
        assert [n.startswith("rule 8 note: the crown ") for n in notes] == [True]
        assert [n.split(" from ")[-1].replace(" hex", "") for n in notes] == theirs


def test_scenario_check_prints_no_note_when_the_crown_is_open(
        validate: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Spec 11.2 rule 8: The Vault without its vault door and grate reaches the crown without
    a Special Hex: neither checker notes anything."""
    doc = vault()
    doc["special"] = [s for s in doc["special"] if s["hex"] not in ("K9", "K13")]
    assert not [n for n in validate.validate(copy.deepcopy(doc)).notes if "reached only" in n]
    path = tmp_path / "open.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert cli_notes(capsys, str(path)) == (0, [])

def test_rule_1_labels_are_written_as_the_spec_writes_them() -> None:
    """Spec 2.2: a label is column letters then a row number (``D3``); ``d3`` or ``D03`` in a
    file is refused (the parser tolerates them, the files must not)."""
    for text in ("d3", "D03", " D3", "3D", "D0"):
        doc = vault()
        doc["torches"].append(text)
        assert reported(doc, 3, "torch", "not a hex label"), text


def test_a_hard_guard_differs_from_every_basic_guard() -> None:
    """Spec 11.2 rule 5: the Crypt's two basic guards (Wandering, Stationary) leave only
    Patrolling for a hard guard there."""
    doc = scenario.read("the-black-keep")
    crypt = _tile(doc, "crypt")
    crypt["guards"].append({"role": "hard", "type": "stationary"})
    assert reported(doc, 5, "tile crypt", "another type")
    crypt["guards"].pop()
    crypt["guards"].append({"role": "hard", "type": "patrolling"})
    assert scenario.problems(doc) == []


# --- malformed documents and files ---------------------------------------------------------

GARBAGE: list[Any] = [
    None, [], "the-vault", 3, {}, {"format": scenario.FORMAT},
    {**vault(), "tiles": {}}, {**vault(), "tiles": []}, {**vault(), "tiles": [None]},
    {**vault(), "tiles": [{"id": "x"}]}, {**vault(), "walls": "A1|A2"}, {**vault(), "vault": []},
    {**vault(), "vault": {"tile": "vault"}}, {**vault(), "players": [1, 4]},
    {**vault(), "players": {"min": True, "max": 4}}, {**vault(), "dawn": 1.5},
    {**vault(), "dawn": float("nan")}, {**vault(), "advanced": "yes"},
    {**vault(), "walls": [["A3"], ["A3", 4], "A3-A4", [None, None], [[], {}]]},
    {**vault(), "special": [None, "D3", {"hex": "D3"}, {"hex": 4, "kind": "door"}]},
    {**vault(), "torches": [None, ["A3"], "", "A"]},
]


def _variant(tid: str, **changes: Any) -> Doc:
    doc = vault()
    _tile(doc, tid).update(changes)
    return doc


GARBAGE += [
    _variant("hall", cols=7), _variant("hall", rows="one-seven"), _variant("hall", cols="A-ZZZZ"),
    _variant("hall", rows="1-" + "9" * 5000), _variant("hall", solid="J3"),
    _variant("hall", solid=[None, 3, "J3", "J3"]), _variant("hall", markers=["crescent"]),
    _variant("hall", markers={"crescent": ["K6"], "star": None, "shield": 1,
                              "green_line": "H4 N4", "red_arrows": [], "red_shields": {}}),
    _variant("hall", markers={"green_line": [], "red_arrows": [None]}),
    _variant("hall", guards={"role": "basic"}), _variant("hall", guards=[None, [], {"role": 1}]),
    _variant("hall", guards=[{"role": "basic", "type": "patrolling", "undead": "no"}]),
    _variant("hall", outside_edge="J1"), _variant("hall", outside_edge=[None, "Q99", "J3"]),
    _variant("hall", entry=1), _variant("hall", id=None), _variant("hall", id="gatehouse"),
]


@pytest.mark.parametrize("doc", GARBAGE, ids=range(len(GARBAGE)))
def test_problems_never_raise_on_malformed_documents(doc: Any) -> None:
    """Spec 11.2 via ``problems``: a non-object, missing keys and wrong types are problems
    (each citing its rule), never exceptions; ``from_doc`` refuses them with ScenarioError."""
    found = scenario.problems(doc)
    assert found and all(isinstance(p, str) for p in found)
    rules_of(found)
    assert isinstance(scenario.notes(doc), list)
    with pytest.raises(ScenarioError) as caught:
        scenario.from_doc(doc)
    assert caught.value.problems == tuple(found)
    assert all(p in str(caught.value) for p in found)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document: dict keys and list indices."""
    found = [here] if here else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*here, i))
    return found


VAULT_PATHS = _paths(vault())
LABELS = st.sampled_from(["A1", "A4", "D3", "G4", "H4", "J3", "K9", "K11", "N5", "Z99", "d3"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | LABELS | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(VAULT_PATHS), JSON_VALUES | st.just(...)),
                      min_size=1, max_size=3))
def test_any_edit_of_a_good_file_is_a_problem_or_a_board(
        edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Spec 11.2: whatever is replaced or deleted, ``problems`` returns rule-cited messages;
    and a document it passes builds a Board (the rules cover everything ``Board`` reads)."""
    doc = vault()
    for path, value in edits:
        node: Any = doc
        try:
            for step in path[:-1]:
                node = node[step]
            if value is ...:
                del node[path[-1]]
            else:
                node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    found = scenario.problems(doc)
    rules_of(found)
    if not found:
        board = scenario.from_doc(doc)
        assert board.labels[board.crown] == doc["vault"]["crown"]


@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"id": "x",', "not valid JSON"),
    (b'{"dawn": NaN}', "NaN"),
    (b'{"id": 1, "id": 2}', "appears twice"),
    (b"[1, 2]", "holds a list"),
    (b"[" * 100000, "JSON"),
    (b'{"dawn": 1' + b"0" * 5000 + b"}", "not valid JSON"),
])
def test_read_refuses_unreadable_files_clearly(tmp_path: Path, content: bytes,
                                               words: str) -> None:
    """Section 11 files: bad UTF-8, broken JSON, JSON that is not an object: ValueError with
    the file's name and what is wrong."""
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(ValueError) as caught:
        scenario.read(path)
    assert words in str(caught.value) and "broken.json" in str(caught.value)
    with pytest.raises(ValueError):
        scenario.load(str(path))


def test_read_names_missing_files_and_unknown_scenarios(tmp_path: Path) -> None:
    """An unknown name lists the shipped ones; a missing file or a folder is named."""
    with pytest.raises(ValueError, match="tutorial, the-vault, the-black-keep"):
        scenario.read("the-keep")
    with pytest.raises(ValueError, match="there is no scenario file .*nowhere.json"):
        scenario.read(tmp_path / "nowhere.json")
    with pytest.raises(ValueError, match="there is no scenario file"):
        scenario.load(str(tmp_path / "nowhere.json"))
    with pytest.raises(ValueError, match="is a folder"):
        scenario.read(tmp_path)
    for odd in ("", "a\0b", "x" * 5000, None, 3):
        with pytest.raises(ValueError):
            scenario.load(odd)  # type: ignore[arg-type]


def test_load_lists_every_problem_of_a_file(tmp_path: Path) -> None:
    """ScenarioError (a ValueError) names the file and lists each problem with its rule."""
    doc = vault()
    doc["dawn"] = 0
    doc["torches"].append("J3")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        scenario.load(str(path))
    assert isinstance(caught.value, ValueError)
    assert rules_of(list(caught.value.problems)) == {1, 3}
    assert "mine.json is not a valid scenario (2 problems)" in str(caught.value)
    doc["dawn"], doc["torches"] = 12, doc["torches"][:-1]
    path.write_text(json.dumps(doc), encoding="utf-8")
    board = scenario.load(path)
    assert board.dawn == 12 and board is not scenario.load("the-vault")


# --- hexes.py: labels and geometry (spec 2.1-2.4) ---------------------------------------------

def test_labels_are_odd_q_offset_labels() -> None:
    """Spec 2.2 (ruling 1): D3 is axial (3, 1) and back; AA is column 26; odd columns sit
    lower, so E4 -> F4 -> G5 is one straight row (steps SE)."""
    assert parse("D3") == (3, 1) and label((3, 1)) == "D3"
    assert parse("AA2") == (26, -12) and label((26, -12)) == "AA2"
    assert [column_letters(q) for q in (0, 25, 26, 27, 51, 52)] == \
        ["A", "Z", "AA", "AB", "AZ", "BA"]
    e4, f4, g5 = parse("E4"), parse("F4"), parse("G5")
    assert neighbour(e4, SE) == f4 and neighbour(f4, SE) == g5
    assert distance(e4, g5) == 2
    for q in range(-3, 60):
        for r in range(-35, 10):
            if label((q, r)).startswith("("):
                assert q < 0 or r + (q - (q & 1)) // 2 + 1 < 1
            else:
                assert parse(label((q, r))) == (q, r)
    for text in ("", "3D", "A0", "A-1", "A 1", "Ä1", "A1.5"):
        with pytest.raises(ValueError):
            parse(text)


def test_facings_distance_and_lattice() -> None:
    """Spec 2.1 and 2.3-2.4: six facings clockwise from N; distance is the hex metric; each
    side f runs from corner f+4 to f+5 and its midpoint is halfway between the two centres."""
    h: Hex = (4, 2)
    assert [facing_between(h, neighbour(h, f)) for f in range(6)] == list(range(6))
    assert DELTAS[NE] == (1, -1) and DELTAS[SW] == (-1, 1) and DELTAS[NW] == (-1, 0)
    with pytest.raises(ValueError, match="not neighbours"):
        facing_between(h, (6, 2))
    assert distance((0, 0), (3, -1)) == 3 and distance((2, 5), (2, 5)) == 0
    assert centre((1, 0)) == (3, 1)
    assert [corner((0, 0), i) for i in range(6)] == \
        [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]
    for f in range(6):
        (ax, ay), (bx, by) = side(h, f)
        (cx, cy), (nx, ny) = centre(h), centre(neighbour(h, f))
        assert (ax + bx, ay + by) == (cx + nx, cy + ny)


# --- board.py: the facts of a loaded map (spec 2.5-2.9) ---------------------------------------

@pytest.fixture(scope="module")
def board() -> Board:
    return scenario.load("the-vault")


def test_board_knows_the_tile_of_each_hex(board: Board) -> None:
    """Spec 2.5: a hex belongs to the tile whose 7x7 block holds it."""
    def tile(text: str) -> str:
        return board.tiles[board.tile_of[board.at(text)]].id
    assert [tile(t) for t in ("A4", "G6", "H1", "N7", "H8", "K11")] == \
        ["gatehouse", "gatehouse", "hall", "hall", "vault", "vault"]
    assert board.tiles[board.vault_tile].id == "vault" and board.labels[board.crown] == "K11"
    assert board.size == 147 - 7 - 6 - 14
    with pytest.raises(ValueError, match="not a floor hex"):
        board.at("J3")


def test_board_outside_edge_and_off_map_sides(board: Board) -> None:
    """Spec 2.6, 2.9: outside edge hexes face the map's edge; solid hexes are not the edge."""
    gatehouse = board.tiles[0]
    assert [board.labels[i] for i in gatehouse.outside_edge] == ["A4", "A5", "D7"]
    assert gatehouse.entry and gatehouse.exit and not board.tiles[2].entry
    assert board.off_map[board.at("A4")] == (SW, NW)
    assert board.off_map[board.at("D4")] == ()
    a3 = board.at("A3")
    assert board.step[a3][0] == BLOCKED and 0 not in board.off_map[a3]  # A2 is solid


def test_walls_block_steps_both_ways(board: Board) -> None:
    """Spec 2.6 (ruling 6): the wall A3|B2 blocks the step each way; open sides do not."""
    a3, b2 = board.at("A3"), board.at("B2")
    assert board.step[a3][NE] == BLOCKED and board.step[b2][SW] == BLOCKED
    assert board.step[a3][3] == board.at("A4") and board.step[board.at("A4")][0] == a3
    for i, row in enumerate(board.step):
        for f, j in enumerate(row):
            if j != BLOCKED:
                assert board.step[j][(f + 3) % 6] == i
                assert frozenset((board.hexes[i], board.hexes[j])) not in board.walls
    assert board.distances(board.at("A3"))[b2] > 1


def test_board_special_hexes_and_torches(board: Board) -> None:
    """Spec 2.7-2.8: Special Hexes with their kinds; torches on floor hexes."""
    assert {board.labels[i]: k for i, k in board.special_kind.items()} == {
        "C6": "door", "D3": "door", "I3": "door", "K9": "door", "K13": "grate", "M3": "door"}
    assert sum(board.special) == 6 and board.special[board.at("K13")]
    assert [board.labels[i] for i in board.torches] == \
        ["A3", "B7", "C1", "G5", "H6", "K2", "K8", "K11", "K14", "N6"]


def test_rows_beyond_what_actions_can_number_are_refused() -> None:
    """Spec 11.2 rule 2 sets no last row, but an action names a hex by a code with
    ``actions.ROWS`` rows per column: a tile reaching beyond that row is a clear problem
    (citywatch's limit, docs/black-keep-engine.md), not two hexes sharing a code."""
    doc = scenario.read("tutorial")
    doc["tiles"][0]["rows"] = "1023-1029"
    found = scenario.problems(doc)
    assert any("rows 1023-1029 go beyond row 1024" in p for p in found), found
