"""Thieves of the Black Keep positions (``docs/black-keep-position.md``): the whole state as JSON
with names, written by ``state.position()`` and read back by ``GAME.from_position``, which
refuses what no game could hold, naming the first fault.

Situations are built from positions (``bk_positions.opening`` and friends): a real game's
first plan decision, edited by labels and names.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from bk_positions import Position, load, opening, put_guard, put_thief
from hypothesis import given, settings
from hypothesis import strategies as st

from citywatch.core.errors import InvalidPosition
from citywatch.core.rng import Rng
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.position import FORMAT, read_position, write_position
from citywatch.games.black_keep.state import CAUGHT, IN_PLAY, NONE, BlackKeepState

State = BlackKeepState


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def do(s: State, *texts: str) -> None:
    """Apply actions named by their text, in order."""
    for text in texts:
        legal = {str(a): a for a in s.legal_actions()}
        assert text in legal, f"{text!r} is not offered; offered: {sorted(legal)}"
        s.apply(legal[text])


# --- the format ----------------------------------------------------------------------------------
def test_a_position_names_everything_by_label_and_name() -> None:
    """The format: hexes by label, facings N-NW, statuses, cards and treasures by name, tiles by
    id, seats by name; the shipped scenario by its id; the decks top last."""
    s = load(opening("the-vault", 2, "rivals", starts=("A4", "D7")))
    pos = s.position()
    assert pos["format"] == FORMAT and pos["scenario"] == "the-vault"
    assert pos["players"] == 2 and pos["mode"] == "rivals" and pos["round"] == 1
    gate = pos["guards"][0]
    g = s.guards[0]
    assert (gate["tile"], gate["role"], gate["type"], gate["hex"], gate["status"]) == (
        "gatehouse", "basic", "stationary", "F4", "bored")
    assert gate["facing"] == ("N", "NE", "SE", "S", "SW", "NW")[g.facing]
    vault = pos["guards"][2]
    assert vault["role"] == "vault" and not vault["placed"] and vault["hex"] is None
    one = pos["thieves"][0]
    assert one["name"] == "Thief 1" and one["hex"] == "A4" and one["standing"] == "in play"
    assert one["possible"] == ["A4", "A5", "D7", "J1", "N5"]  # ruling 53: any start hex
    assert one["exit"] == s.board.tiles[s.thieves[0].exit_tile].id
    assert pos["guard_deck"][-1] == ("Adjust Rigging", "Art", "Diligent", "Hip Flask",
                                     "Lockpicks", "Moss Arrow", "Noise Arrow",
                                     "Water Arrow")[s.guard_deck[-1]]
    assert pos["stack"][-1] == ["plan_card", 0]
    assert through_json(pos) == pos


def test_a_scenario_of_ones_own_travels_inside_the_position() -> None:
    """A scenario that is not shipped is written as its JSON document and read back from it."""
    doc = scenarios.read("tutorial")
    doc["id"], doc["name"] = "my-guardroom", "My Guardroom"
    s = GAME.new_game(1, 5, scenario=doc)
    pos = s.position()
    assert pos["scenario"] == doc
    back = GAME.from_position(through_json(pos))
    assert back.board.name == "My Guardroom" and back.position() == pos


def test_the_state_api_reads_positions_through_the_game() -> None:
    """``GAME.from_position`` is ``read_position``, and ``state.position()`` is
    ``write_position``."""
    s = GAME.new_game(2, 3, scenario="the-vault")
    assert s.position() == write_position(s)
    assert read_position(s.position()).position() == GAME.from_position(s.position()).position()


# --- round trips ---------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.sampled_from(["tutorial", "the-vault", "the-black-keep"]), st.integers(1, 4),
       st.sampled_from(["coop", "rivals"]), st.sampled_from(["easy", "medium", "hard"]),
       st.integers(0, 2 ** 32))
def test_write_read_write_is_the_same_for_random_games(name: str, thieves: int, mode: str,
                                                       difficulty: str, seed: int) -> None:
    """write(read(write(s))) == write(s) at every decision of random games, and the state read
    back continues exactly like the original (the generator is part of the position)."""
    if thieves == 1:
        mode = "coop"
    s = GAME.new_game(thieves, seed, scenario=name, mode=mode, difficulty=difficulty,
                      parameters={"dawn": 8})
    rng = Rng(seed)
    while True:
        pos = s.position()
        back = GAME.from_position(through_json(pos))
        assert back.position() == pos
        assert back.to_move == s.to_move and back.legal_actions() == s.legal_actions()
        assert back.outcome() == s.outcome()
        if s.to_move is None:
            break
        action = s.legal_actions()[rng.below(len(s.legal_actions()))]
        s.apply(action)
        back.apply(action)
        assert back.position() == s.position()


def test_a_finished_game_round_trips_with_its_result() -> None:
    """Section 9: a finished game's position holds its result and no decision."""
    s = GAME.new_game(2, 11, scenario="tutorial", parameters={"dawn": 3})
    rng = Rng(4)
    while s.to_move is not None:
        s.apply(s.legal_actions()[rng.below(len(s.legal_actions()))])
    pos = s.position()
    assert pos["result"] is not None and pos["stack"] == [] and pos["phase"] == "over"
    back = GAME.from_position(through_json(pos))
    assert back.outcome() == s.outcome() and back.position() == pos


def test_a_position_in_the_middle_of_a_plan_round_trips() -> None:
    """Ruling 58: a plan made so far (the card, before the Guard card) is part of the position
    and is checked against the thief's hex."""
    pos = opening("the-vault", 2, "coop", starts=("A4", "D7"))
    pos["thieves"][0]["guard_cards"] = ["Noise Arrow"]
    pos["guard_deck"] = [c for c in pos["guard_deck"] if c != "Noise Arrow"]
    pos["market"] = [None if c == "Noise Arrow" else c for c in pos["market"]]
    s = load(pos)
    do(s, "Play Move SE/S: step SE to B4")
    assert s.stack[-1] == ("plan_guard", 0)
    back = load(s.position())
    assert back.position() == s.position()
    assert back.position()["thieves"][0]["plan"]["first"] == "B4"
    do(back, "Play Noise Arrow at C3")
    assert back.position()["thieves"][0]["plan"]["target"] == "C3"
    assert load(back.position()).position() == back.position()


# --- a position built by hand is the moment it describes ---------------------------------------
def test_a_hand_built_position_plays_as_the_moment_it_describes() -> None:
    """R37 from a position: the Gatehouse guard turned Pursuing toward a marker beside a thief
    steps in and catches it; co-op then ends in defeat (R57)."""
    pos = opening("the-vault", 1, starts=("A4",))
    put_thief(pos, 0, "D4")
    put_guard(pos, 1, "F4", facing="SW", status="pursuing", target="D4",
              home={"hex": "F4", "route": {"position": 0, "direction": 1}, "facing": "NE"})
    pos["markers"], pos["markers_placed"] = {"D4": 0}, 1
    s = load(pos)
    do(s, "Play Hide")
    assert s.thieves[0].standing == CAUGHT and s.outcome() is not None
    assert s.outcome().winners == ()


# --- what is refused ---------------------------------------------------------------------------
def base() -> Position:
    return opening("the-vault", 2, "rivals", starts=("A4", "D7"))


def edit(change: Any) -> Position:
    pos = base()
    change(pos)
    return pos


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(pos: Position) -> None:
        place: Any = pos
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
    return change


BAD: list[tuple[str, Any, str]] = [
    ("a guard off the floor (solid hex)", _set(("guards", 0, "hex"), "A1"), "not a floor hex"),
    ("a guard off the map", _set(("guards", 0, "hex"), "ZZ99"), "not a floor hex"),
    ("two markers on a hex", _set(("markers",), {"C3": 0, "c3": 1}), "two Thief Markers on C3"),
    ("marker orders above the count", _set(("markers",), {"C3": 4}), "below markers_placed"),
    ("a thief on a guard's hex", lambda p: put_thief(p, 0, "F4"), "with guard 1"),
    ("wounds out of range", _set(("thieves", 0, "wounds"), 4), "wounds must be"),
    ("no wounds but in play", _set(("thieves", 0, "wounds"), 0), "a thief with none is killed"),
    ("a card in two places", _set(("thieves", 0, "discard"), ["Run"]), "Run in 2 places"),
    ("Rest discarded", lambda p: (p["thieves"][0]["hand"].remove("Rest"),
                                  p["thieves"][0]["discard"].append("Rest")), "Rest never"),
    ("an unknown status", _set(("guards", 1, "status"), "sleepy"), "not a status"),
    ("an unknown facing", _set(("guards", 1, "facing"), "UP"), "not a facing"),
    ("an unknown treasure", _set(("thieves", 0, "treasure"), "Crown"), "not a treasure"),
    ("an unknown card", _set(("thieves", 0, "hand", 0), "Fly"), "not a thief card"),
    ("an unknown tile", _set(("thieves", 0, "exit"), "moon"), "not a tile"),
    ("a guard not of the scenario", _set(("guards", 0, "type"), "roving"), "must be the"),
    ("a guard too many", lambda p: p["guards"].append(p["guards"][0]), "3 guards"),
    ("a bow against the difficulty", _set(("guards", 0, "bow"), False), "bow on medium"),
    ("odd guard coins", _set(("guards", 0, "coins"), 1), "2 coins or none"),
    ("the vault guard placed too soon", lambda p: put_guard(p, 3, "K10"), "waits for a thief"),
    ("returning without a home", _set(("guards", 1, "status"), "returning"), "no home"),
    ("a hex outside its possible set", _set(("thieves", 0, "possible"), ["A5"]),
     "not among its possible hexes"),
    ("three copies of a Guard card", _set(("thieves", 0, "guard_cards"), ["Art"] * 3),
     "copies of Art"),
    ("Lockpicks held to play", _set(("thieves", 0, "guard_cards"), ["Lockpicks"]),
     "Lockpicks are kept"),
    ("a carried token also on the crown", lambda p: p["thieves"][0].update(
        treasure=p["treasures"][0]), "places"),
    ("a token too many", lambda p: p["treasures"].append(
        next(x for x in ("Armour", "Eye", "Hammer", "Lantern", "Sword")
             if x not in p["treasures"])), "do not add up"),
    ("the Fake in the basic game", lambda p: p["treasures"].__setitem__(0, "Fake"),
     "only in the advanced game"),
    ("a market of two", lambda p: p["market"].pop(), "the market has 3 places"),
    ("an extinguished hex with no torch", _set(("extinguished",), ["B4"]), "holds no torch"),
    ("a bad pending decision", _set(("stack",), [["plan_card", 7]]), "malformed pending"),
    ("an unknown queued step", _set(("stack",), [["ops", -1, [["dance"]]]]), "malformed queued"),
    ("a frame of a thief out of play", lambda p: p["thieves"][0].update(
        standing="escaped", hex=None, possible=None), "out of the game"),
    ("an illegal plan", lambda p: (p["stack"].__setitem__(-1, ["plan_card", 1]),
                                   p["thieves"][0].update(plan={
                                       "card": "Move N/NE", "first": "C3", "second": None,
                                       "escape": False, "pocket": None, "loot": None,
                                       "guard_card": None, "target": None, "take": False})),
     "not a legal play"),
    ("a game over without a result", lambda p: p["thieves"][1].update(
        standing="caught", hex=None, possible=None) or p.update(mode="coop", stack=[]),
     "game is over"),
    ("a wrong result", _set(("result",), {"winners": [0], "reason": "won", "points": [1, 0]}),
     "not how this position ends"),
    ("no pending decision", _set(("stack",), []), "pending decision"),
    ("a round past dawn", _set(("round",), 31), "round must be"),
    ("an unknown phase", _set(("phase",), "tea"), "phase must be"),
    ("an unknown mode", _set(("mode",), "solo"), "solo is for one thief"),
    ("an unknown format", _set(("format",), "chess"), "unknown position format"),
    ("a scenario file path", _set(("scenario",), "/etc/passwd"), "not a shipped scenario"),
    ("a broken scenario", _set(("scenario",), {"id": "x"}), "scenario"),
    ("bad parameters", _set(("parameters",), {"wounds": -1}), "parameters"),
    ("a bad generator", _set(("rng",), "seven"), "wrong type"),
]


@pytest.mark.parametrize(("what", "change", "words"), BAD, ids=[b[0] for b in BAD])
def test_impossible_positions_are_refused_naming_the_fault(what: str, change: Any,
                                                           words: str) -> None:
    """``InvalidPosition`` names the first fault of a position no game could hold."""
    pos = edit(change)
    with pytest.raises(InvalidPosition, match=words.replace("(", r"\(")):
        load(pos)


def test_the_base_position_of_the_refusals_is_valid() -> None:
    """The refused positions above differ from a valid one only by their fault."""
    assert load(base()).position() == base()


def test_what_is_not_a_position_is_refused() -> None:
    """Not an object, an empty object, a missing key, a value of the wrong kind: all
    ``InvalidPosition``, never another error."""
    for bad in ([1, 2], None, "position", 7, {}):
        with pytest.raises(InvalidPosition):
            GAME.from_position(bad)  # type: ignore[arg-type]
    pos = base()
    for key in pos:
        if key == "format":
            continue
        missing = copy.deepcopy(pos)
        del missing[key]
        with pytest.raises(InvalidPosition, match=repr(key)):
            GAME.from_position(missing)
        for wrong in ({"?": [None]}, "?", [None], True):
            broken = {**copy.deepcopy(pos), key: wrong}
            if type(wrong) is type(pos[key]):
                continue
            with pytest.raises(InvalidPosition):
                GAME.from_position(broken)


def test_r53_possible_hexes_are_optional_and_checked() -> None:
    """A thief's public possible hexes may be unknown (null: anywhere); when given they hold
    its hex, never an off-map thief."""
    pos = base()
    pos["thieves"][1]["possible"] = None
    assert load(pos).thieves[1].possible is None
    pos["thieves"][1]["standing"], pos["thieves"][1]["hex"] = "escaped", None
    pos["thieves"][1]["possible"] = ["D7"]
    with pytest.raises(InvalidPosition, match="not on the map"):
        load(pos)


def test_r41_r37_undead_or_the_sword_may_share_a_thiefs_hex() -> None:
    """An undead guard that walked in wounded the thief and left it there (R41); a thief that
    fought free with the Sword stands with that guard (6.6): both positions are valid."""
    pos = opening("the-black-keep", 1, starts=("A4",))
    crypt = next(k for k, g in enumerate(pos["guards"], 1) if g["undead"])
    spot = pos["guards"][crypt - 1]["hex"]
    put_thief(pos, 0, spot)
    assert load(pos).thieves[0].hex != NONE
    pos = base()
    put_thief(pos, 0, "F4", sword_used=True)
    assert load(pos).thieves[0].standing == IN_PLAY
