"""Thieves of the Black Keep: line of sight, fields of view and light (``sight.py``, spec
sections 2.8 and 3, rulings R8-R19).

The rulebook's worked example (3.8) and the acceptance cases 1-6 of spec section 13 are tests
of their own; then every (hex, facing, status) of the three shipped scenarios and of random
maps is compared with the shared reference ``los_reference.py`` (skipped where the shared
folder is not beside the project). A difference fails naming the hex and the facing.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.hexes import (
    FACINGS,
    SE,
    SW,
    Hex,
    centre,
    column_letters,
    distance,
    from_offset,
    label,
    neighbour,
    parse,
)
from citywatch.games.black_keep.sight import (
    VIEW_OF_STATUS,
    Sight,
    can_spot,
    is_line_clear,
    sight,
)
from citywatch.games.black_keep.state import (
    ALERT,
    BORED,
    DISTRACTED,
    INTERESTED,
    PURSUING,
    RETURNING,
    STATUSES,
)

REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "reference" / "black-keep"
SCENARIOS = ("tutorial", "the-vault", "the-black-keep")
N, S = 0, 3
ARC = (ALERT, PURSUING, RETURNING)


# --- boards --------------------------------------------------------------------------------

def scenario_doc(name: str) -> dict[str, Any]:
    """A shipped scenario's JSON from the shared folder (skip if it is not there)."""
    path = REFERENCE / "scenarios" / f"{name}.json"
    if not path.is_file():  # pragma: no cover
        pytest.skip(f"{path} is not available")
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def board_of(floor: Iterable[Hex], walls: Iterable[tuple[str, str]] = (),
             special: Iterable[str] = (), torches: Iterable[str] = ()) -> Board:
    """A test map of any floor hexes (also left of column A, which no scenario can hold)."""
    hexes = tuple(sorted(set(floor)))
    index = {h: i for i, h in enumerate(hexes)}
    blocked = {frozenset((parse(a), parse(b))) for a, b in walls}
    step = tuple(tuple(BLOCKED if neighbour(h, f) not in index
                       or frozenset((h, neighbour(h, f))) in blocked else index[neighbour(h, f)]
                       for f in range(6)) for h in hexes)
    doors = {index[parse(t)] for t in special}
    return Board(
        id="test", name="Test map", dawn=20, advanced=False, min_players=1, max_players=4,
        hexes=hexes, index=index, labels=tuple(label(h) for h in hexes), step=step,
        off_map=tuple(() for _ in hexes), special=tuple(i in doors for i in range(len(hexes))),
        special_kind={i: "door" for i in doors}, solid=frozenset(), walls=frozenset(blocked),
        tile_of=tuple(0 for _ in hexes), tiles=(), torches=tuple(index[parse(t)] for t in torches),
        vault_tile=0, crown=0, vault_guard=False, source={})


def block(q0: int, q1: int, first_row: int, last_row: int) -> set[Hex]:
    """The hexes of columns ``q0``-``q1`` and rows ``first_row``-``last_row``."""
    return {from_offset(q, row) for q in range(q0, q1 + 1)
            for row in range(first_row, last_row + 1)}


def corridor(length: int = 7, walls: Iterable[tuple[str, str]] = (), special: Iterable[str] = (),
             torches: Iterable[str] = ()) -> Board:
    """Column D, rows 1 to ``length``: a one-hex-wide corridor (nothing else is floor)."""
    return board_of(block(3, 3, 1, length), walls, special, torches)


EXAMPLE_WALLS = """A3|A4 A5|B5 A6|B5 B5|B6 B6|C6 B6|C7 B7|C7
                   D1|E1 D1|E2 D2|E3 D3|E3 E3|E4 E4|F3 F3|F4 F4|G4 G4|G5
                   E7|F7 F5|G6 F6|F7 F6|G6 F6|G7"""
"""The walls of the rulebook's example tile, as spec 3.8 lists them."""


def worked_example() -> Board:
    """The rulebook's example tile as spec 3.8 reconstructs it (A1-G7; the walls above; B3 a
    door; B4 and D6 solid), with a wall-less tile joined to the west (columns left of A) and
    to the east (H-N), so that sight can be followed off the tile."""
    tile = block(0, 6, 1, 7) - {parse("B4"), parse("D6")}
    walls = [(a, b) for a, b in (pair.split("|") for pair in EXAMPLE_WALLS.split())]
    return board_of(tile | block(-7, -1, 1, 7) | block(7, 13, 1, 7), walls, special=["B3"])


def names(board: Board, hexes: Iterable[int]) -> list[str]:
    """Labels in board order: column by column, each from the top (as the spec lists them)."""
    return [board.labels[i] for i in sorted(hexes)]


def at(board: Board, *labels: str) -> frozenset[int]:
    return frozenset(board.index[parse(t)] for t in labels)


# --- the reference -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ref() -> ModuleType:
    """``los_reference.py`` from the shared folder."""
    path = REFERENCE / "los_reference.py"
    if not path.is_file():  # pragma: no cover
        pytest.skip(f"{path} is not available")
    spec = importlib.util.spec_from_file_location("bk_los_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def reference_board(ref: ModuleType, board: Board) -> Any:
    """The reference's Board of the same floor, walls and Special Hexes."""
    return ref.Board(frozenset(ref.Hex(*h) for h in board.hexes),
                     frozenset(frozenset(ref.Hex(*h) for h in w) for w in board.walls),
                     frozenset(ref.Hex(*board.hexes[i]) for i in range(board.size)
                               if board.special[i]))


class ReferenceArcs:
    """The reference's arc view (``visible_hexes(..., "alert")``) of every (hex, facing),
    composed exactly as the reference's ``is_fully_seen`` does (target not the viewer, six
    corners in front by ``_in_front``, each line clear by ``segment_is_clear`` with
    ``blockers``), but judging the lines of one (viewer, target) once for all six facings:
    the reference alone needs about 45 s for The Black Keep. ``test_the_reference_arcs_are_
    visible_hexes`` checks this against ``visible_hexes`` itself."""

    def __init__(self, ref: ModuleType, rb: Any) -> None:
        self.ref, self.rb = ref, rb
        self.lines: dict[tuple[Any, Any], bool] = {}

    def clear(self, viewer: Any, target: Any) -> bool:
        known = self.lines.get((viewer, target))
        if known is None:
            ref, o = self.ref, self.ref.centre(viewer)
            known = all(ref.segment_is_clear(o, k, self.rb.blockers(viewer, target, k))
                        for k in ref.corners(target))
            self.lines[(viewer, target)] = known
        return known

    def arc(self, viewer: Any, facing: int) -> frozenset[Any]:
        ref = self.ref
        fully = {t for t in self.rb.floor
                 if t != viewer and self.clear(viewer, t)
                 and all(ref._in_front(viewer, facing, k) >= 0 for k in ref.corners(t))}
        return frozenset(fully.union(ref.row(self.rb, viewer, facing)))


def differences(ref: ModuleType, board: Board, arcs: Any = None,
                viewers: Iterable[int] | None = None) -> list[str]:
    """Every (hex, facing, status) where ``Sight.seen`` (and ``row``) differ from the
    reference, named by hex label and facing, for every hex (or ``viewers``);
    ``arcs(viewer, facing)`` gives the reference's arc view (``visible_hexes`` when not
    given)."""
    rb = reference_board(ref, board)
    if arcs is None:
        def arcs(v: Any, f: int) -> Any:
            return ref.visible_hexes(rb, v, f, "alert")
    view = Sight(board)
    out = []
    for v in range(board.size) if viewers is None else viewers:
        h = board.hexes[v]
        viewer = ref.Hex(*h)
        for f in range(6):
            row = [tuple(t) for t in ref.row(rb, viewer, f)]
            want = {DISTRACTED: frozenset(), BORED: frozenset(row[:2]),
                    INTERESTED: frozenset(row), ALERT: arcs(viewer, f)}
            want[PURSUING] = want[RETURNING] = want[ALERT]
            where = f"{board.labels[v]} facing {FACINGS[f]}"
            if [board.hexes[i] for i in view.row(v, f)] != row:
                out.append(f"{where}: row {names(board, view.row(v, f))}")
            for status, hexes in want.items():
                got = {board.hexes[i] for i in view.seen(v, f, status)}
                if got != hexes or h in got:
                    out.append(f"{where} {STATUSES[status]}: also "
                               f"{[label(t) for t in sorted(got - hexes)]}, missing "
                               f"{[label(t) for t in sorted(set(hexes) - got)]}")
            bored3 = {board.hexes[i] for i in view.seen(v, f, BORED, bored_reach=3)}
            if bored3 != set(row[:3]):
                out.append(f"{where} bored, reach 3: {sorted(bored3)}")
    return out


def random_map(seed: int) -> Board:
    """One tile (seeds 1, 2) or two with random solid hexes, walls, doors and torches."""
    rng = random.Random(seed)
    blocks = [(0, 1)] if seed <= 2 else [(0, 1), rng.choice([(7, 1), (0, 8)])]
    tiles, floor = [], []
    for k, (q0, row0) in enumerate(blocks):
        every = sorted(block(q0, q0 + 6, row0, row0 + 6))
        solid = [h for h in every if rng.random() < 0.12]
        floor += [h for h in every if h not in solid]
        tiles.append({"id": f"t{k}", "name": f"T{k}",
                      "cols": f"{column_letters(q0)}-{column_letters(q0 + 6)}",
                      "rows": f"{row0}-{row0 + 6}", "solid": [label(h) for h in solid]})
    inside = set(floor)
    edges = sorted({(a, neighbour(a, f)) for a in floor for f in range(3)
                    if neighbour(a, f) in inside})
    walls = [[label(a), label(b)] for a, b in edges if rng.random() < 0.22]
    doors = rng.sample(floor, 4)
    torches = rng.sample([h for h in floor if h not in doors], 3)
    doc = {"id": f"random-{seed}", "name": f"Random {seed}", "dawn": 20,
           "players": {"min": 1, "max": 4}, "tiles": tiles, "walls": walls,
           "special": [{"hex": label(h), "kind": "door"} for h in doors],
           "torches": [label(h) for h in torches],
           "vault": {"tile": "t0", "crown": label(floor[0])}}
    return Board.from_scenario(doc)


# --- spec 3.8: the rulebook's worked example ----------------------------------------------

def test_the_rulebooks_worked_example_3_8() -> None:
    """Acceptance case 1 (spec 3.8): every statement of the example and of its table."""
    board = worked_example()
    view = sight(board)
    d3, e4, f2 = board.at("D3"), board.at("E4"), board.at("F2")
    tile = frozenset(i for i, h in enumerate(board.hexes) if 0 <= h[0] <= 6)  # A1-G7
    alert = view.seen(d3, SW, ALERT)
    # the Patrolling guard at D3, Alert, facing SW: the table
    assert names(board, alert & tile) == ["A2", "B1", "B2", "B3", "C3", "C4", "C5", "C6", "D4",
                                          "D5", "E6"]
    assert names(board, view.partly_seen(d3, SW) & tile) == ["A1", "B5", "C2", "C7", "E5",
                                                             "E7", "F6"]
    assert [board.labels[i] for i in alert - tile] == ["(-1,1)"]
    assert view.seen(d3, SW, PURSUING) == view.seen(d3, SW, RETURNING) == alert
    # ... and the text: off the tile to the top left; the full hexes; only parts of some
    assert at(board, "B2", "C3") <= alert and board.hexes[next(iter(alert - tile))] == (-1, 1)
    assert at(board, "B3", "C4", "C5", "C6", "D4", "D5", "E6") <= alert
    assert board.special[board.at("B3")]
    assert not at(board, "B5", "C7", "E5", "E7", "F6") & alert
    assert at(board, "B5", "C7", "E5", "E7", "F6") <= view.partly_seen(d3, SW)
    assert board.at("A4") not in alert and board.at("A4") not in view.partly_seen(d3, SW)
    # the Stationary guard at E4, Bored, facing SE: F4 and G5 only (Interested: on east)
    assert names(board, view.seen(e4, SE, BORED)) == ["F4", "G5"]
    assert [board.labels[i] for i in view.row(e4, SE)] == ["F4", "G5", "H5", "I6", "J6", "K7",
                                                          "L7"]
    # the Wandering guard at F2, Distracted: nothing, whatever its facing; a thief next to it
    # is not spotted, even in light
    for f in range(6):
        seen = view.seen(f2, f, DISTRACTED)
        assert seen == frozenset()
        for beside in board.step[f2]:
            if beside != BLOCKED:
                assert not can_spot(board, seen, frozenset(range(board.size)), f2, beside,
                                    hiding=False, eye=True)


def test_the_worked_example_agrees_with_los_reference(ref: ModuleType) -> None:
    """Acceptance case 1: the board above is the reference's ``worked_example_board``, the
    reference's own check of the example passes, and every view of a guard on the example
    tile (and D3's partly seen hexes) equals the reference's."""
    board = worked_example()
    rb = ref.worked_example_board()
    assert reference_board(ref, board) == rb
    assert ref.check_worked_example() == []
    d3 = ref.parse("D3")
    partly = {t for t in rb.floor if ref.is_partly_seen(rb, d3, SW, t)}
    assert {board.hexes[i] for i in sight(board).partly_seen(board.at("D3"), SW)} == partly
    on_tile = [i for i, h in enumerate(board.hexes) if 0 <= h[0] <= 6]
    assert differences(ref, board, ReferenceArcs(ref, rb).arc, on_tile) == []


# --- spec 13: acceptance cases 2-6 --------------------------------------------------------

def test_r9_grazing_a_wall_end_or_running_along_a_wall_is_clear_a_joint_is_not() -> None:
    """Acceptance case 2 (R9), on the lattice: past a wall's end and along a wall is clear,
    a wall crossed or two walls leaning from both sides of one point is not; a wall ending
    at the target point never interrupts."""
    wall = ((0, -1), (0, 1))
    assert not is_line_clear((-4, 0), (4, 0), [wall])
    assert is_line_clear((-4, 1), (4, 1), [wall])  # grazes its end
    assert is_line_clear((0, -4), (0, 4), [wall])  # along it
    assert is_line_clear((-4, 0), (0, 1), [wall])  # ends on it
    assert is_line_clear((-4, 0), (4, 0), [((0, 0), (-2, -1)), ((0, 0), (2, -1))])
    assert not is_line_clear((-4, 0), (4, 0), [((0, 0), (-2, -1)), ((0, 0), (2, 1))])
    assert not is_line_clear((-4, 0), (4, 0), [((0, 0), (2, -1)), ((0, 0), (2, 1))])


def test_r9_on_a_board_graze_along_and_joint() -> None:
    """Acceptance case 2 (R9) on a tile: C4's centre line to E4's runs along the side
    D3|D4 and through C4's east corner, where C4|D3 and C4|D4 meet. Either wall alone is
    grazed, D3|D4 is run along: clear; both C4|D3 and C4|D4: a joint, interrupted. A guard on
    D4 with a wall across its own north side still fully sees E4, its line to E4's lower
    right corner grazing that wall's end."""
    tile = block(0, 6, 1, 7)
    c4, e4 = parse("C4"), parse("E4")
    assert centre(c4)[1] == centre(e4)[1]  # one lattice row: the line passes C4's corner 0
    for walls, clear in (((), True), ((("D3", "D4"),), True), ((("C4", "D3"),), True),
                         ((("C4", "D4"),), True), ((("C4", "D3"), ("C4", "D4")), False)):
        board = board_of(tile, walls)
        assert sight(board).clear_line(board.index[c4], board.index[e4]) is clear, walls
    board = board_of(tile, [("D3", "D4")])
    d4 = board.at("D4")
    assert board.at("E4") in sight(board).seen(d4, N, ALERT)
    assert board.at("D3") not in sight(board).seen(d4, N, ALERT)
    assert sight(board).row(d4, N) == ()


def test_r10_a_door_is_seen_into_not_through() -> None:
    """Acceptance case 3 (R10): a thief in a door hex is spotted; one in the hex behind it,
    in line, is not, in every status that sees down the row or across the field."""
    board = corridor(special=["D4"], torches=["D3", "D6"])
    view = sight(board)
    guard, door, behind = board.at("D1"), board.at("D4"), board.at("D5")
    lit = view.lit(frozenset())
    assert door in lit and behind in lit
    for status in (INTERESTED, *ARC):
        seen = view.seen(guard, S, status)
        assert can_spot(board, seen, lit, guard, door, hiding=False, eye=False)
        assert not can_spot(board, seen, lit, guard, behind, hiding=False, eye=False)
    # a guard standing in the door sees out of it
    assert names(board, view.row(door, S)) == ["D5", "D6", "D7"]


def test_r12_r11_bored_sees_two_interested_the_whole_row_a_wall_stops_both() -> None:
    """Acceptance case 4 (R12, R11): in a lit corridor a Bored guard spots a thief 2 hexes
    ahead, not 3; Interested spots it 6 ahead; a wall across the corridor stops both."""
    everything = [f"D{row}" for row in range(1, 8)]

    def spots(board: Board, status: int, where: str) -> bool:
        view = sight(board)
        guard = board.at("D1")
        return can_spot(board, view.seen(guard, S, status), view.lit(frozenset()), guard,
                        board.at(where), hiding=False, eye=False)

    board = corridor(torches=everything)
    assert spots(board, BORED, "D2") and spots(board, BORED, "D3")
    assert not spots(board, BORED, "D4")
    assert spots(board, INTERESTED, "D7")
    walled = corridor(walls=[("D2", "D3")], torches=everything)
    assert spots(walled, BORED, "D2") and spots(walled, INTERESTED, "D2")
    assert not spots(walled, BORED, "D3") and not spots(walled, INTERESTED, "D7")
    assert names(walled, sight(walled).seen(walled.at("D1"), S, INTERESTED)) == ["D2"]


def test_r14_turning_alert_in_a_corridor_still_sees_to_its_end() -> None:
    """Acceptance case 5 (R14): the arc includes the whole row, so a guard turning Alert in a
    one-hex corridor does not go blind down it (full hexes alone would not reach its end)."""
    board = corridor()
    view = sight(board)
    guard = board.at("D1")
    interested = view.seen(guard, S, INTERESTED)
    assert names(board, interested) == ["D2", "D3", "D4", "D5", "D6", "D7"]
    for status in ARC:
        assert view.seen(guard, S, status) == interested
    assert view.fully_seen(guard, S) < interested


def test_r18_torchlight_two_steps_not_through_walls_into_not_out_of_doors() -> None:
    """R18 (spec 2.8): a torch lights its hex and every hex within 2 steps across open
    sides, into a Special Hex but not out of it; an extinguished torch lights nothing."""
    board = corridor(walls=[("D5", "D6")], special=["D2"], torches=["D1", "D4"])
    view = sight(board)
    assert names(board, view.lit(frozenset())) == ["D1", "D2", "D3", "D4", "D5"]
    # D1's light enters the door D2 and stops; D4's reaches D2 through D3, not D6 (wall)
    assert names(board, view.lit(at(board, "D4"))) == ["D1", "D2"]
    assert names(board, view.lit(at(board, "D1"))) == ["D2", "D3", "D4", "D5"]
    assert view.lit(at(board, "D1", "D4")) == frozenset()
    assert names(board, view.lit(frozenset(), reach=0)) == ["D1", "D4"]
    assert names(board, view.lit(at(board, "D4"), reach=5)) == ["D1", "D2"]


def test_r18_r19_dark_hide_and_the_eye() -> None:
    """Acceptance case 6 (R18, R19, spec 3.7): unlit, a thief is spotted only from a
    neighbouring hex; Hiding, only from a neighbouring hex even when lit; the Eye: spotted in
    the dark unless Hiding; never by a guard that does not see the hex."""
    board = corridor()
    view = sight(board)
    guard, beside, far = board.at("D1"), board.at("D2"), board.at("D4")
    seen = view.seen(guard, S, INTERESTED)
    dark, light = frozenset[int](), frozenset(range(board.size))
    cases = [  # (thief hex, lit, hiding, eye, spotted)
        (beside, dark, False, False, True), (far, dark, False, False, False),
        (far, light, False, False, True), (far, light, True, False, False),
        (beside, light, True, False, True), (beside, dark, True, True, True),
        (far, dark, False, True, True), (far, dark, True, True, False),
        (far, light, True, True, False)]
    for thief, lit, hiding, eye, spotted in cases:
        assert can_spot(board, seen, lit, guard, thief, hiding, eye) is spotted, \
            (board.labels[thief], bool(lit), hiding, eye)
    behind = view.seen(board.at("D3"), S, INTERESTED)  # D3 looks away from D2
    assert not can_spot(board, behind, light, board.at("D3"), beside, False, True)


# --- the API --------------------------------------------------------------------------------

def test_each_status_sees_what_the_table_of_3_6_says() -> None:
    """Spec 3.6: Distracted nothing, Bored a short row (R12), Interested the row (R11),
    Alert, Pursuing and Returning the arc (R13), by the status numbers of ``state``."""
    assert dict(zip(STATUSES, VIEW_OF_STATUS, strict=True)) == {
        "distracted": "nothing", "bored": "short row", "interested": "row", "alert": "arc",
        "pursuing": "arc", "returning": "arc"}
    assert tuple(range(6)) == (DISTRACTED, BORED, INTERESTED, ALERT, PURSUING, RETURNING)


def test_views_are_cached_frozensets_and_bored_is_a_prefix_of_the_row() -> None:
    """Spec 3.9: one ``Sight`` per board; a view is computed once; Bored and Interested are
    prefixes of one row (R11, R12); a guard never sees its own hex (R16)."""
    board = board_of(block(0, 6, 1, 7), [("D3", "D4")], special=["C3"], torches=["A1"])
    view = sight(board)
    assert sight(board) is view and Sight(board) is not view
    for v in range(board.size):
        for f in range(6):
            row = view.row(v, f)
            assert view.row(v, f, 0) == () and view.row(v, f, 3) == row[:3]
            assert view.seen(v, f, BORED) == frozenset(row[:2])
            assert view.seen(v, f, BORED, 1) == frozenset(row[:1])
            assert view.seen(v, f, INTERESTED) == frozenset(row)
            arc = view.seen(v, f, ALERT)
            assert arc is view.seen(v, f, ALERT) and isinstance(arc, frozenset)
            assert frozenset(row) <= arc and v not in arc
            assert view.fully_seen(v, f) | frozenset(row) == arc


@pytest.mark.parametrize("call", [
    lambda v: v.seen(-1, 0, ALERT), lambda v: v.seen(99, 0, ALERT), lambda v: v.seen(0, 6, ALERT),
    lambda v: v.seen(0, 0, 6), lambda v: v.seen(0, 0, BORED, -1), lambda v: v.seen(0, 0, True),
    lambda v: v.row(0, -1), lambda v: v.row(0, 0, -2), lambda v: v.clear_line(0, 99),
    lambda v: v.lit(frozenset({1})), lambda v: v.lit(frozenset(), -1),
    lambda v: v.fully_seen(0, 9), lambda v: v.partly_seen(99, 0), lambda v: v.clear_targets(-1)])
def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(call: Any) -> None:
    """Common rule: bad input gets a ValueError naming it, and no cache keeps it."""
    board = corridor(torches=["D1"])
    view = Sight(board)
    view.seen(0, S, ALERT)
    before = caches(view)
    with pytest.raises(ValueError, match=r"hex|facing|status|reach|torch"):
        call(view)
    assert caches(view) == before


def caches(view: Sight) -> dict[str, dict[Any, Any]]:
    """Copies of every dict the sight keeps (read by name: a compiled ``Sight`` has no
    ``__dict__``)."""
    found = {name: getattr(view, name) for name in dir(view) if not name.startswith("__")}
    return {name: dict(value) for name, value in found.items() if isinstance(value, dict)}


def test_clear_line_enters_and_leaves_special_hexes_but_never_passes_one() -> None:
    """Spec 3.1-3.3 for centre lines (6.5, the arrows): a line may start or end in a door,
    not pass through one; walls stop it; it is the same both ways; a hex sees itself."""
    board = corridor(walls=[("D5", "D6")], special=["D3"])
    view = sight(board)
    d1, d3, d4, d5, d6 = (board.at(f"D{k}") for k in (1, 3, 4, 5, 6))
    assert view.clear_line(d1, d3) and view.clear_line(d3, d5) and view.clear_line(d4, d4)
    assert not view.clear_line(d1, d4) and not view.clear_line(d4, d1)
    assert view.clear_line(d4, d5) and not view.clear_line(d4, d6)


# --- agreement with los_reference ----------------------------------------------------------

def test_the_reference_arcs_are_visible_hexes(ref: ModuleType) -> None:
    """The faster composition of the reference used below (``ReferenceArcs``) is the
    reference's ``visible_hexes`` itself, on every (hex, facing) of the Tutorial."""
    rb = reference_board(ref, Board.from_scenario(scenario_doc("tutorial")))
    arcs = ReferenceArcs(ref, rb)
    for viewer in sorted(rb.floor):
        for f in range(6):
            assert arcs.arc(viewer, f) == ref.visible_hexes(rb, viewer, f, "alert"), \
                (ref.label(viewer), FACINGS[f])


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_view_of_a_scenario_equals_los_reference(ref: ModuleType, name: str) -> None:
    """Spec 3.9: every floor hex, facing and status of each shipped scenario gives the
    reference's field of view (and row, and Bored with reach 3)."""
    board = Board.from_scenario(scenario_doc(name))
    problems = differences(ref, board, ReferenceArcs(ref, reference_board(ref, board)).arc)
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("seed", range(1, 5))
def test_every_view_of_a_random_map_equals_los_reference(ref: ModuleType, seed: int) -> None:
    """Spec 3.9 on random maps (1 or 2 tiles, random solid hexes, walls, doors; fixed
    seeds): every floor hex, facing and status gives the reference's field of view."""
    board = random_map(seed)
    problems = differences(ref, board, ReferenceArcs(ref, reference_board(ref, board)).arc)
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("name", [*SCENARIOS, "random-1", "random-3"])
def test_light_and_centre_lines_equal_los_reference(ref: ModuleType, name: str) -> None:
    """Light (2.8, R18) for several sets of extinguished torches and reaches, and the
    centre-to-centre line (3.1-3.3) of every pair of hexes within 4 steps (the arrows'
    range; one way, as ``clear_line`` is the same both ways), equal the reference's
    ``lit_hexes`` and ``segment_is_clear``."""
    board = (random_map(int(name[-1])) if name.startswith("random")
             else Board.from_scenario(scenario_doc(name)))
    rb = reference_board(ref, board)
    view = sight(board)
    torches = board.torches
    for k in range(len(torches) + 1):
        out = frozenset(torches[:k:2])
        burning = [ref.Hex(*board.hexes[t]) for t in torches if t not in out]
        for reach in (0, 1, 2, 3):
            want = ref.lit_hexes(rb, burning, reach)
            assert {board.hexes[i] for i in view.lit(out, reach)} == want, (k, reach)
    for a, ha in enumerate(board.hexes):
        va = ref.Hex(*ha)
        for b in range(a + 1, board.size):
            hb = board.hexes[b]
            if distance(ha, hb) <= 4:
                vb = ref.Hex(*hb)
                point = ref.centre(vb)
                want = ref.segment_is_clear(ref.centre(va), point, rb.blockers(va, vb, point))
                assert view.clear_line(a, b) is want, (board.labels[a], board.labels[b])


@pytest.mark.parametrize("name", ["tutorial", "joint", "random-3"])
def test_every_corner_line_equals_los_reference(ref: ModuleType, name: str) -> None:
    """R9, R10 line by line: the corners ``clear_corners`` finds from each hex's centre are
    those the reference's ``segment_is_clear`` finds clear with its blockers (fully seen
    hexes hardly ever depend on the leaning rule; single corner lines do: "joint" is the
    board of the R9 case, whose line from C4's centre to E4's west corner runs through the
    joint of C4|D3 and C4|D4)."""
    board = (Board.from_scenario(scenario_doc(name)) if name == "tutorial"
             else random_map(3) if name == "random-3"
             else board_of(block(0, 6, 1, 7), [("C4", "D3"), ("C4", "D4")], special=["E2"]))
    rb = reference_board(ref, board)
    view = sight(board)
    every = {k: t for t in sorted(rb.floor) for k in ref.corners(t)}  # a hex with corner k
    for v, h in enumerate(board.hexes):
        viewer = ref.Hex(*h)
        o = ref.centre(viewer)
        want = set()
        for k, target in every.items():
            if ref.segment_is_clear(o, k, rb.blockers(viewer, target, k)):
                want.add(k)
        assert view.clear_corners(v) == want, board.labels[v]
    if name == "joint":
        assert (10, 6) not in view.clear_corners(board.at("C4"))


def test_partly_seen_equals_los_reference(ref: ModuleType) -> None:
    """R17 (tools only): ``partly_seen`` equals the reference's ``is_partly_seen`` for a
    sample of guards on the Tutorial's tile, every facing."""
    board = Board.from_scenario(scenario_doc("tutorial"))
    rb = reference_board(ref, board)
    view = sight(board)
    for where in ("A1", "B3", "D3", "E4", "C6", "G7"):
        v = board.at(where)
        for f in range(6):
            want = {t for t in rb.floor if ref.is_partly_seen(rb, ref.Hex(*board.hexes[v]), f, t)}
            assert {board.hexes[i] for i in view.partly_seen(v, f)} == want, (where, FACINGS[f])


def test_random_maps_are_what_they_claim() -> None:
    """The random maps above hold walls, solid hexes and doors on 1 or 2 tiles."""
    sizes = set()
    for seed in range(1, 5):
        board = random_map(seed)
        sizes.add(len(board.tiles))
        assert board.walls and board.solid and sum(board.special) == 4
    assert sizes == {1, 2}
