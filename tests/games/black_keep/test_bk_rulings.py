"""Thieves of the Black Keep: the rulings no other test names - the spec's rulings (spec
section 12, "Rn") and citywatch's own (``docs/black-keep-rulings.md``, "citywatch ruling N").

Each test builds its situation from text (``bk_positions``: a scenario or a small map, with
pieces placed by label), checks the ruling's effect and its limit (the case on the other side
of the line), and names the ruling and the spec section it completes.
"""

from __future__ import annotations

from typing import Any

from bk_positions import (
    at,
    corridor,
    facing,
    game,
    guard,
    marker,
    markers,
    scripted,
    small_board,
    status,
    thief,
    where,
    without_unplaced,
)

from citywatch.games.black_keep import guards as rules
from citywatch.games.black_keep import referee
from citywatch.games.black_keep import round as rounds
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.data import (
    DILIGENT,
    LANTERN,
    MOSS_ARROW,
    NOISE_ARROW,
    SWORD,
    THIEF_CARDS,
)
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.hexes import FACINGS, label, neighbour, parse
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import (
    BORED,
    CAUGHT,
    ESCAPED,
    INTERESTED,
    NONE,
    STATUSES,
    BlackKeepState,
)

State = BlackKeepState
ART = 1
"""The Guard card Art (``data.GUARD_CARDS`` index)."""


# --- building and playing situations ---------------------------------------------------------
def table(scenario: str = "tutorial", thieves: int = 1, mode: str | None = None,
          exit_tile: int = 0) -> State:
    """A state on ``scenario`` with no guards, every thief off the map with its ten cards and
    Exit tile ``exit_tile``, an empty market and no treasure tokens."""
    s = game(scenario, thieves)
    s.guards = []
    s.mode = mode or ("solo" if thieves == 1 else "coop")
    for t in s.thieves:
        t.hand = list(range(len(THIEF_CARDS)))
        t.exit_tile = exit_tile
    return s


def begin(s: State) -> State:
    """Start the next round: run it up to the first decision."""
    rounds.advance(s)
    return s


def offered(s: State) -> list[str]:
    """The legal actions of the seat to move, as text."""
    return [str(a) for a in s.legal_actions()]


def do(s: State, *texts: str) -> None:
    """Apply actions named by their text, in order."""
    for text in texts:
        legal = {str(a): a for a in s.legal_actions()}
        assert text in legal, f"{text!r} is not offered; offered: {sorted(legal)}"
        s.apply(legal[text])


def halt_after_plans(s: State) -> None:
    """Queue every thief's plan, the reveal and the Thief Phase only, above a pending Location
    Dial decision that stops the loop, so a test can look before the Guard Phase."""
    s.stack = [("start", 0)]
    rounds.then(s, *(("plan", p) for p in range(s.n)), ("reveal",), ("thief_phase",))
    rounds.advance(s)


def names(board: Board, hexes: Any) -> list[str]:
    """The labels of some hexes, sorted."""
    return sorted(board.labels[h] for h in hexes)


def log_has(s: State, words: str, seat: int | None = None) -> bool:
    """Whether a line of ``seat``'s log contains ``words``."""
    return any(words in line for line in s.log(seat))


# --- spec rulings (section 12) ---------------------------------------------------------------
def test_r2_facings_run_clockwise_from_n_and_a_die_roll_k_gives_the_kth() -> None:
    """R2 (spec 2.1, 8.3): the six facings are the sides clockwise from N; a Stationary guard
    placed with black-die roll 1 to 6 faces N, NE, SE, S, SW, NW."""
    e4 = parse("E4")
    assert [label(neighbour(e4, f)) for f in range(6)] == ["E3", "F3", "F4", "E5", "D4", "D3"]
    for roll, name in enumerate(("N", "NE", "SE", "S", "SW", "NW"), start=1):
        s = scripted(game("tutorial"), roll)
        rules.place_initial_guards(s)
        g = s.guards[0]
        assert (where(s, g), facing(g), FACINGS[roll - 1]) == ("E4", name, name)


def test_r3_tiles_are_blocks_of_one_grid_and_their_borders_are_not_walls() -> None:
    """R3 (spec 2.5): rows 1-7 and 8-14 are two tiles of one grid; D7-D8 crosses their border
    as an open side (steps, hearing, light and sight cross it); a wall there blocks them all."""
    open_border = corridor(14)
    d7, d8 = open_border.at("D7"), open_border.at("D8")
    assert (open_border.tile_of[d7], open_border.tile_of[d8]) == (0, 1)
    assert open_border.step[d7][FACINGS.index("S")] == d8
    assert open_border.distances(d7)[d8] == 1
    view = sight(open_border)
    assert d8 in view.lit(frozenset(), 2) and d8 in view.seen(open_border.at("D1"), 3, INTERESTED)
    walled = corridor(14, walls=[("D7", "D8")], torches=["D6"])
    w7, w8 = walled.at("D7"), walled.at("D8")
    assert walled.step[w7][FACINGS.index("S")] != w8 and walled.distances(w7)[w8] < 0
    view = sight(walled)
    assert w8 not in view.lit(frozenset(), 2)
    assert w8 not in view.seen(walled.at("D1"), 3, INTERESTED)


def test_r4_solid_hexes_are_not_floor_and_nothing_enters_them() -> None:
    """R4 (spec 2.6): with D4 solid, D4 is no floor hex, D5 is 3 steps from D3 (round by C4,
    C5), the torch on D3 does not light D5 and a guard on D1 facing S sees only to D3; with D4
    floor, D5 is 2 steps away, lit and seen."""
    solid = small_board(["D1", "D2", "D3", "D5", "D6", "D7", "C4", "C5"], torches=["D3"])
    floor = small_board(["D1", "D2", "D3", "D4", "D5", "D6", "D7", "C4", "C5"],
                        torches=["D3"])
    assert "D4" not in solid.labels and "D4" in floor.labels
    for board, steps, lit, seen in (
            (solid, 3, ["C4", "C5", "D1", "D2", "D3"], ["D2", "D3"]),
            (floor, 2, ["C4", "C5", "D1", "D2", "D3", "D4", "D5"],
             ["D2", "D3", "D4", "D5", "D6", "D7"])):
        view = sight(board)
        assert board.distances(board.at("D3"))[board.at("D5")] == steps
        assert names(board, view.lit(frozenset(), 2)) == lit
        assert names(board, view.seen(board.at("D1"), FACINGS.index("S"), INTERESTED)) == seen


def test_r7_doors_windows_and_grates_are_one_rule() -> None:
    """R7 (spec 2.7): the Tutorial's Special Hex B3 as a door, a window or a grate: every guard
    sees the same hexes, a thief with neither key nor Lockpicks cannot step in, one with
    Lockpicks steps in and stops, and a guard stands in it; B3 as plain floor differs."""
    doc = scenarios.read("tutorial")
    boards = {}
    for kind in ("door", "window", "grate", None):
        doc["special"] = [] if kind is None else [{"hex": "B3", "kind": kind}]
        boards[kind] = Board.from_scenario(doc)

    def views(board: Board) -> list[frozenset[int]]:
        view = sight(board)
        return [view.seen(h, f, INTERESTED) for h in range(board.size) for f in range(6)]

    door = views(boards["door"])
    assert views(boards["window"]) == views(boards["grate"]) == door
    assert views(boards[None]) != door
    for kind in ("door", "window", "grate"):
        s = game(boards[kind])
        s.guards = []
        t = thief(s, 0, "C3")
        b3 = at(s, "B3")
        assert b3 not in [there for _, there, _ in rounds.thief_steps(s, t, t.hex, frozenset())]
        t.lockpicks = True
        assert (b3, True) in [(there, stops) for _, there, stops
                              in rounds.thief_steps(s, t, t.hex, frozenset())]
        g = guard(s, "B3", facing="S", status="alert")
        assert where(s, g) == "B3" and b3 in rounds.guard_hexes(s)
    plain = game(boards[None])
    t = thief(plain, 0, "C3")
    assert (at(plain, "B3"), False) in [(there, stops) for _, there, stops
                                        in rounds.thief_steps(plain, t, t.hex, frozenset())]


def test_r15_sight_has_no_range_limit_but_bored_s_two_hexes() -> None:
    """R15 (spec 3.6): in a lit corridor 14 hexes long an Interested guard on D1 facing S sees
    to D14 and spots a thief there, 13 hexes away; a Bored guard sees D2 and D3 only and does
    not spot a thief on D4."""
    s = game(corridor(14))
    g = guard(s, "D1", facing="S", status="interested")
    view = sight(s.board)
    assert names(s.board, view.seen(g.hex, g.facing, INTERESTED)) == sorted(
        f"D{r}" for r in range(2, 15))
    thief(s, 0, "D14")
    assert referee.sightings(s, g) == [(0, at(s, "D14"))]
    g.status = BORED
    assert names(s.board, view.seen(g.hex, g.facing, BORED)) == ["D2", "D3"]
    s.thieves[0].hex = at(s, "D4")
    assert referee.sightings(s, g) == []


def test_r20_a_marker_is_seen_in_the_dark_a_thief_is_not() -> None:
    """R20 (spec 4.6, 3.7): in an unlit corridor a Pursuing guard on D1 facing S sees the
    marker on D6 (light does not matter) though not the thief beside it on D6; the same marker
    behind a guard on D7 facing S is not seen (geometry does)."""
    s = game(corridor(7, torches=[]))
    g = guard(s, "D1", facing="S", status="pursuing", home="D1")
    marker(s, "D6")
    thief(s, 0, "D6")
    assert not sight(s.board).lit(s.extinguished, 2)
    assert rules.visible_markers(s, g) == [at(s, "D6")]
    assert referee.sightings(s, g) == []
    g.hex = at(s, "D7")
    assert rules.visible_markers(s, g) == []


# --- citywatch rulings (docs/black-keep-rulings.md) ------------------------------------------
def test_citywatch_ruling_2_a_noise_underfoot_is_investigated_without_a_step() -> None:
    """Spec 4.5, 4.7, citywatch ruling 2: a Bored guard on D3 hears a noise on D3 itself:
    Alert, it removes the marker where it stands and chooses (R35) the visible marker on D6,
    without a step; a noise on D4 it walks to and removes there."""
    s = game(corridor(7))
    g = guard(s, "D3", facing="S", status="bored")
    without_unplaced(s)
    rules.noise(s, at(s, "D3"), "run")
    assert status(g) == "alert" and g.target == at(s, "D3")
    marker(s, "D6")
    rules.act(s, g)
    assert (where(s, g), status(g), markers(s), g.target) == ("D3", "alert", ["D6"], at(s, "D6"))
    s = game(corridor(7))
    g = guard(s, "D3", facing="S", status="bored")
    without_unplaced(s)
    rules.noise(s, at(s, "D4"), "run")
    rules.act(s, g)
    assert (where(s, g), markers(s), STATUSES[g.status]) == ("D4", [], "returning")


def test_citywatch_ruling_7_a_noise_arrow_is_heard_with_the_other_noises_in_seat_order() -> None:
    """Spec 7 step 4, R59, citywatch ruling 7: Thief 1's Run ends on C5 and Thief 2's Noise
    Arrow hits C2; the arrow resolves at step 4 but its noise comes at step 6 after Thief 1's,
    so the C5 marker is the older; with the seats swapped the arrow's marker is the older."""
    for runner, archer, first in ((0, 1, "C5"), (1, 0, "C2")):
        s = table(thieves=2, mode="rivals")
        thief(s, runner, "C3")
        thief(s, archer, "D4", guard_cards=[NOISE_ARROW])
        halt_after_plans(s)
        plans = {runner: ("Run S then S to C5",), archer: ("Play Hide", "Play Noise Arrow at C2")}
        do(s, *plans[0], *plans[1])
        order = sorted(s.markers, key=s.markers.__getitem__)
        assert [s.board.labels[h] for h in order] == [first, "C2" if first == "C5" else "C5"]


def test_citywatch_ruling_8_a_caught_runner_still_made_its_noise() -> None:
    """Spec 7 step 4, R46, citywatch ruling 8: Thief 1 runs to D3; Thief 2's Diligent moves
    the Patrolling guard from D2 along its line into D3 at step 4, catching Thief 1; the Run's
    noise is still made at D3 at step 6. With a Moss Arrow on the Run, there is none."""
    for moss in (False, True):
        s = table(thieves=2, mode="rivals")
        g = guard(s, "D2", facing="S", type="patrolling")
        thief(s, 0, "D5", guard_cards=[MOSS_ARROW] if moss else [])
        thief(s, 1, "A1", guard_cards=[DILIGENT])
        halt_after_plans(s)
        do(s, "Run N then N to D3")
        if moss:
            do(s, "Play Moss Arrow with the Run")
        do(s, "Play Hide", "Play Diligent on guard 1 at D2")
        assert where(s, g) == "D3" and s.thieves[0].standing == CAUGHT
        assert markers(s) == ([] if moss else ["D3"])
        assert log_has(s, "Thief 1's Run makes a noise at D3.") is not moss


def test_citywatch_ruling_9_no_pick_pocket_through_a_wall() -> None:
    """Spec 6.2, R48, citywatch ruling 9: from D2 the guards on E2 and E3 are both one hex
    away; the wall D2|E2 leaves only the guard on E3, across an open side, to rob."""
    s = game(small_board(["D1", "D2", "D3", "E2", "E3"], walls=[("D2", "E2")]))
    s.guards = []
    guard(s, "E2", facing="N")
    guard(s, "E3", facing="N")
    assert [where(s, g) for g in s.guards] == ["E2", "E3"]
    thief(s, 0, "D2")
    options = rounds.pocket_options(s, at(s, "D2"))
    assert options and {a.x for a in options} == {1}
    s.guards[0].hex = at(s, "D1")
    assert {a.x for a in rounds.pocket_options(s, at(s, "D2"))} == {0, 1}


def test_citywatch_ruling_12_no_guard_card_when_leaving() -> None:
    """Spec 6.5, 6.7, citywatch ruling 12: on the Exit tile's edge hex A1 with Art and a Bored
    guard 2 hexes away, a thief whose plan steps off the map is asked for no Guard card;
    staying on the map (Hide) it is offered Art on that guard."""
    for leave in (True, False):
        s = table(thieves=2, mode="rivals")
        guard(s, "C2", facing="N")
        thief(s, 0, "A1", guard_cards=[ART])
        thief(s, 1, "D7")
        begin(s)
        if leave:
            do(s, "Play Move SW/NW: escape SW off the map")
            assert s.stack[-1] == ("plan_card", 1)
            assert s.thieves[0].plan is not None and rounds.plan_of(s.thieves[0]).guard_card == NONE
        else:
            do(s, "Play Hide")
            assert s.stack[-1] == ("plan_guard", 0) and "Play Art on guard 1 at C2" in offered(s)


def test_citywatch_ruling_13_rivals_escaping_together_with_treasure_share_the_win() -> None:
    """Spec 9, R57, citywatch ruling 13: in rivals two thieves escaping with a real treasure in
    one Thief Phase both win, each scoring as a solo thief; one escaping in the same phase with
    nothing does not win."""
    s = table(thieves=2, mode="rivals")
    thief(s, 0, "A1", treasure=SWORD)
    thief(s, 1, "C1", treasure=LANTERN)
    begin(s)
    do(s, "Play Move SW/NW: escape SW off the map", "Play Move N/NE: escape N off the map")
    result = s.outcome()
    assert result is not None and result.winners == (0, 1) and result.points == (4 + 3, 2 + 3)
    s = table(thieves=2, mode="rivals")
    thief(s, 0, "A1", treasure=SWORD)
    thief(s, 1, "C1")
    begin(s)
    do(s, "Play Move SW/NW: escape SW off the map", "Play Move N/NE: escape N off the map")
    result = s.outcome()
    assert result is not None and result.winners == (0,) and result.points == (4 + 3, 0)
    assert [t.standing for t in s.thieves] == [ESCAPED, ESCAPED]


def test_citywatch_ruling_15_the_crown_runs_bare_in_seat_order() -> None:
    """Spec 6.6, R51, citywatch ruling 15: two rival thieves on the crown G7 both plan to take
    the last token; Thief 1 (first in seat order) gets it and its taking is public; Thief 2
    finds the crown bare, which only its own seat reads, and nobody learns where it is."""
    s = table(thieves=2, mode="rivals")
    thief(s, 0, "G7")
    thief(s, 1, "G7")
    s.treasures = [LANTERN]
    halt_after_plans(s)
    do(s, "Play Hide", "Take a treasure from the crown", "Play Hide",
           "Take a treasure from the crown")
    first, second = s.thieves
    assert first.treasure == LANTERN and second.treasure == NONE and s.treasures == []
    assert log_has(s, "Thief 1 takes a treasure from the crown: the Lantern.", None)
    assert log_has(s, "Thief 2 finds the crown bare.", 1)
    assert not log_has(s, "bare", 0)
    assert first.possible == frozenset({s.board.crown})
    assert second.possible != frozenset({s.board.crown})


def test_citywatch_ruling_19_exit_cards_are_announced_and_shown_in_every_view() -> None:
    """Spec 6.7, 10, citywatch ruling 19: in rivals every view shows each thief's Exit card,
    announced at set-up in the public log; the Exit deck's order is not shown (a count only)."""
    s = GAME.new_game(3, 4, scenario="the-vault", mode="rivals")
    tiles = [s.board.tiles[t.exit_tile] for t in s.thieves]
    for seat in (0, 1, 2, None):
        v = s.view(seat)
        assert [t["exit"] for t in v["thieves"]] == [tile.id for tile in tiles]
        assert v["exit_deck"] == len(s.exit_deck)
    for k, tile in enumerate(tiles):
        assert f"Thief {k + 1}'s Exit card: the {tile.name}." in s.log(None)


def test_citywatch_ruling_20_hands_and_discards_are_shown_to_everybody() -> None:
    """Spec 10, citywatch ruling 20: in rivals every view shows each thief's hand and discard,
    a rival's too; the card a rival has planned stays hidden until the reveal."""
    s = GAME.new_game(2, 4, scenario="the-vault", mode="rivals")
    while s.stack[-1][0] != "plan_card":
        s.apply(s.legal_actions()[0])
    s.thieves[0].discard = [s.thieves[0].hand.pop(s.thieves[0].hand.index(1))]
    do(s, "Play Hide")
    for seat in (0, 1, None):
        v = s.view(seat)
        for t, shown in zip(s.thieves, v["thieves"], strict=True):
            assert shown["hand"] == [THIEF_CARDS[c].name for c in t.hand]
            assert shown["discard"] == [THIEF_CARDS[c].name for c in t.discard]
    assert s.view(0)["thieves"][0]["plan"] is not None
    assert s.view(1)["thieves"][0]["plan"] is None and s.view(None)["thieves"][0]["plan"] is None

