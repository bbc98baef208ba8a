"""Thieves of the Black Keep for learning agents, layout 1 (issue 33; the environment
``citywatch_black_keep_v1``): factored actions, a compact observation scaled to [0, 1], and a
progress potential for shaped rewards. Layout 0 (``encoding.py``) stays as it was.

**The box.** Layout 1 covers maps inside ``BLOCKS`` by ``BLOCKS`` tile places from A1:
columns A-U, rows 1-21 (``SIDE`` by ``SIDE``, ``CELLS`` = 441 hexes, cell
``c = column * SIDE + row - 1``), up to ``MAX_TILES`` = 9 tiles and ``MAX_GUARDS`` = 18
guards. Every shipped map fits (The Black Keep is 3 by 2 tiles, A-U, 1-14, with at most 11
guards); layout 0's 4-by-4 box would leave 62% of every plane empty on the largest of them.
A map beyond the box is refused with a ``ValueError`` naming it (``encoding.check_fits``).

**Actions.** The environment chooses an action head by head (``citywatch.env.factored``):
``HEADS`` = (14, 22, 22, 22, 22, 22, 22), so every step is a ``Discrete(22)`` choice under a
mask of 22. ``parts(action)`` gives an action's value on each head:

- head 0 (14 values): the verb, numbered in name order (the verbs of the table below);
- heads 1 and 2 (22 values each): the verb's first field. A hex field is its column + 1 on
  head 1 and its row + 1 on head 2 (both 1 to 21); any other field is its value + 1 on head 1
  (a guard card 1-8, a thief card 1-10, a direction 1-6, a guard 1-18) and 0 on head 2;
  0 on both when the verb has no such field or leaves it unused (-1);
- heads 3 and 4: the second field, alike; heads 5 and 6: the third field, alike (loot 1-2).

A hex is split into its column and its row rather than taking one head of 441 cells: every
head then has at most 22 values (a head of 442 would make every step's space and mask 20
times wider, and the environment's "choosing" block about 1,200 numbers longer, for the few
decisions where a hex is a free choice: the start hex and the hex of a Guard card played at a
hex; a move's or a run's hex follows from its card and directions and a pick-pocket's from
its guard, so those heads are forced and never asked). The flat numbering of layout 0 stays
(``actions``, ``index``, ``action_mask``; 411,120 actions, the table below), for
compatibility.

**Observation.** ``observation(state, seat)`` is built from ``state.view(seat)`` only (its
facts, without the guards' forecast or the warnings), plus the map's fixed geometry that
every seat sees. It is a float32 vector of 10,353 numbers (``OBS_SIZE``; 41 KB, 42 KB with
the environment's choosing block and mask), every number in [0, 1]: a count is divided by its
block's ``scale`` (what 1.0 stands for, ``SCALE``, chosen from what the shipped scenarios
reach in play: the latest dawn is round 40, the longest printed route 24,
random games leave up to 9 Thief Markers, a thief starts with 4 coins and gains 2 per pocket)
and clipped at 1. Several facts share a plane where they do not collide, by value (the
``what`` column gives each value). Seats are relative: ``[seat]`` blocks start with the
observing seat's own thief, then the next seats in turn order (``seat`` gives the absolute
seat); guards are in listing order and blocks of absent seats and guards stay 0. Hex planes
come first, each ``CELLS`` numbers (hex ``c`` of plane ``k`` of a block at
``start + 441 * k + c``), the map's fixed planes up to ``STATIC_END`` (made once per board
and kept in ``Board.derived``); then the scalars; a ``[guard][n]`` block holds guard ``g``'s
``i``-th number at ``start + n * g + i`` (and alike). ``LAYOUT[block]`` is ``(start, size)``::

    block               start  size  scale  what
    terrain                0   441      1  plane: 1/3 a solid hex, 2/3 a floor hex, 1 a Special
                                           Hex (door, window, grate)
    wall                 441  1323      1  3 planes ``[N, NE, SE]``: a wall between this floor
                                           hex and the floor hex on that side (its other sides
                                           are its neighbours' planes; a side to a hex that is
                                           not floor is closed)
    edge                1764   441      1  plane: 1 an outside edge hex of an entry tile, 0.5 of
                                           another tile
    vault               2205   441      1  plane: 0.5 the vault tile, 1 the crown
    green_line          2646   441     24  plane: position + 1 on its tile's green line
    red_arrows          3087   441     24  plane: position + 1 on its tile's red arrows
    marks               3528   441      1  plane: 0.25 crescent, 0.5 star, 0.75 shield, 1 red
                                           shield (the highest)
    torch               3969   441      1  plane: 1 a burning torch, 0.5 a put-out one
    lit                 4410   441      1  plane: a lit hex
    guard               4851   441      1  plane: a placed guard (its details: the guard blocks)
    seen                5292   441      1  plane: 1 a guard with a bow sees the hex now, 0.5
                                           only guards without
    marker              5733   441     12  plane: a Thief Marker's age: 1 the newest, 2 the one
                                           before, ...
    guard_goal          6174   441      1  plane: 1 where some guard heads, 0.5 some guard's
                                           home
    thief               6615   441      1  plane: 1 the seat's own thief, 0.5 another thief
                                           whose dial it may see
    possible            7056   882      1  2 planes ``[own, others]``: where the public knows
                                           the own thief may be; how many other thieves may be
                                           here, over 3
    exit                7938   441      1  plane: 1 the outside edge hexes of the own Exit
                                           card's tile, 0.5 of another's
    key_door            8379   441      1  plane: 1 the Special Hexes of tiles whose key the own
                                           thief holds, 0.5 another's
    plan_hexes          8820   441      1  plane: the own plan: 0.5 its first step, 1 its
                                           second, 0.25 its Guard card's hex or guard
    players             9261     4      1  one-hot: 1 to 4 thieves
    seat                9265     4      1  one-hot: the observing seat (turn order)
    mode                9269     3      1  one-hot: ``MODES``
    difficulty          9272     3      1  one-hot: ``DIFFICULTIES``
    advanced            9275     1      1  the advanced game
    round               9276     1     40  the round
    rounds_left         9277     1     40  dawn - round, at least 0
    phase               9278     6      1  one-hot: ``PHASES``
    to_move             9284     4      1  one-hot, by relative seat: who decides now
    decision            9288     6      1  one-hot: the task (``TASKS``)
    vault_triggered     9294     1      1  the vault was triggered
    market              9295     8      2  ``[Guard card]``: face-up copies in the market
    guard_deck          9303     1     16  cards left in the Guard deck
    exit_deck           9304     1      8  cards left in the Exit deck
    treasures_on_crown  9305     1      5  treasure tokens on the crown
    thief_present       9306     4      1  ``[seat]``: the thief is in the game
    thief_where         9310     8      1  ``[seat][2]``: column + 1 and row of its hex when the
                                           seat may know it, else 0
    wounds              9318     4      9  ``[seat]``: wound counters left
    coins               9322     4     12  ``[seat]``: coins
    cards               9326    40      1  ``[seat][thief card]``: 1 in hand, 0.5 discarded
    guard_cards         9366    32      2  ``[seat][Guard card]``: copies held
    lockpicks           9398     4      1  ``[seat]``: has lockpicks
    keys                9402     4      4  ``[seat]``: keys held
    treasure            9406    24      1  ``[seat][treasure]``: the treasure carried
    thief_flags         9430    16      1  ``[seat][4]``: armour used, sword used, hiding, the
                                           public knows its hex
    standing            9446    16      1  ``[seat][STANDINGS]``: in play, escaped, caught,
                                           killed
    plan                9462     1      1  the observing seat has a plan
    plan_card           9463    10      1  one-hot: its planned thief card
    plan_escape         9473     1      1  it plans to escape
    plan_pocket         9474    18      1  ``[guard]``: the guard it plans to pick-pocket
    plan_loot           9492     2      1  ``[loot]``: what it plans to take from it
    plan_guard_card     9494     8      1  one-hot: its planned Guard card
    plan_guard_target   9502    18      1  ``[guard]``: the guard its Guard card targets
    plan_take           9520     1      1  it plans to take a treasure
    guard_flags         9521   108      1  ``[guard][6]``: exists, placed, undead, has a bow,
                                           carries a key, walks its route backward
    guard_tile          9629    18      9  ``[guard]``: its tile's number in scenario order,
                                           from 1
    guard_role          9647    72      1  ``[guard][ROLES]``: its role
    guard_type          9719    72      1  ``[guard][GUARD_TYPES]``: its type
    guard_status        9791   108      1  ``[guard][STATUSES]``: its status
    guard_facing        9899   108      1  ``[guard][FACINGS]``: its facing
    guard_coins        10007    18      2  ``[guard]``: its coins
    guard_route        10025    36     24  ``[guard][2]``: its route position + 1, its home's
    guard_shot         10061    72      1  ``[guard][seat]``: thieves it shot
    guard_where        10133   108      1  ``[guard][6]``: column + 1 and row of its hex, its
                                           target and its home (0 for none)
    guard_home_facing  10241   108      1  ``[guard][FACINGS]``: its home's facing
    winners            10349     4      1  ``[seat]``: the winners, at the end

**Potential.** ``potential(state, seat)`` is a cheap progress estimate in [0, 1] for
potential-based shaping (the environment's ``shaping``: each seat gets
``shaping * (potential after - potential before)``, and 0 once the game is over). It reads
only what ``seat``'s view shows of its own thief (its hex, treasure, Exit card, wounds and
standing), never another thief's dial or plan, a deck or the crown's tokens: 1 escaped with a
treasure; 0 caught, killed or escaped without one; in play without a treasure
``0.3 * near(crown)``; with one ``0.5 + 0.4 * near(exit)``, the exit being the outside edge
hexes of its Exit card's tile (of every exit tile before it has one); ``near`` is
``1 - steps / 42`` along open sides (walking distances made once per board), and each wound
taken (the game's public ``wounds`` option less the counters left) takes a tenth off an
in-play thief's progress.

**Flat actions** (layout 0's numbering, kept): verbs in name order, within a verb its fields
as mixed-radix digits; ``encoding``'s docstring holds the table.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from citywatch.core.presentation import Encoding
from citywatch.core.spaces import Layout
from citywatch.games.black_keep.actions import ROWS, SEATS, VERBS, Action
from citywatch.games.black_keep.board import BLOCKED, TILE_SIZE, Board
from citywatch.games.black_keep.data import GUARD_CARD_NAMES, LOOT, THIEF_CARD_NAMES, TREASURE_NAMES
from citywatch.games.black_keep.encoding import (
    ACTIONS,
    CELL,
    FACING_OF,
    GUARD_CARD_OF,
    INDEX,
    MAP_ROWS,
    PHASES,
    ROLE_OF,
    SEAT_OF,
    STANDING_OF,
    STATUS_OF,
    TASKS,
    THIEF_CARD_OF,
    TREASURE_OF,
    TYPE_OF,
    VERB_NAMES,
    VERB_RANGES,
    Vector,
    action_mask,
    check_fits,
    map_problem,
)
from citywatch.games.black_keep.hexes import FACINGS, label, neighbour
from citywatch.games.black_keep.scenario import ROLES
from citywatch.games.black_keep.state import (
    DIFFICULTIES,
    GUARD_TYPES,
    IN_PLAY,
    MODES,
    NONE,
    STANDINGS,
    STATUSES,
    BlackKeepState,
)
from citywatch.games.black_keep.view import seat_view

VERSION = 1
"""This layout's version: the environment ``citywatch_black_keep_v1``."""

BLOCKS = 3
"""Tile places across and down the box of layout 1."""
SIDE = BLOCKS * TILE_SIZE
"""The box: columns A-U, rows 1-21."""
CELLS = SIDE * SIDE
"""Hexes in the box, numbered ``column * SIDE + row - 1``."""
MAX_TILES = BLOCKS * BLOCKS
MAX_GUARDS = 2 * MAX_TILES
MAX_SEATS = len(SEATS)
NT, NG, NL = len(THIEF_CARD_NAMES), len(GUARD_CARD_NAMES), len(LOOT)

# what 1.0 stands for, from what the shipped scenarios reach in play (docs/environments)
ROUND_SCALE = 40.0
"""The latest shipped dawn (The Black Keep)."""
ROUTE_SCALE = 24.0
"""The longest printed route of the shipped tiles."""
MARKER_SCALE = 12.0
"""Thief Markers on the map (random games leave up to 9)."""
COIN_SCALE = 12.0
"""A thief's coins: 4 at the start, 2 for each guard's pocket picked."""
WOUND_SCALE = 9.0
"""Wound counters left: the ``wounds`` option's most (the default is 3, 6.1; the
curriculum's first stage gives 9)."""
DISTANCE_SCALE = 2.0 * SIDE
"""Steps across the box, for the potential's distances."""

CELL1: dict[str, int] = {text: (c // MAP_ROWS) * SIDE + c % MAP_ROWS for text, c in CELL.items()
                         if c // MAP_ROWS < SIDE and c % MAP_ROWS < SIDE}
"""Label -> cell of layout 1's box (a sub-box of layout 0's, from A1)."""


def _where(at: str | None) -> tuple[float, float]:
    """(column + 1, row) of a label over the box's side, (0, 0) for none."""
    if at is None:
        return 0.0, 0.0
    q, row = divmod(CELL1[at], SIDE)
    return (q + 1) / SIDE, (row + 1) / SIDE


# --- the action heads -------------------------------------------------------------------------
KIND_SIZES = {"hex": SIDE, "direction": len(FACINGS), "thief_card": NT, "guard_card": NG,
              "guard": MAX_GUARDS, "loot": NL}
"""Values of each field kind on its head (a hex: its column; its row goes on the next head)."""
FIELDS = max(len(VERBS[name].fields) for name in VERB_NAMES)
_VERB = {name: k for k, name in enumerate(VERB_NAMES)}
_KINDS = {name: tuple(kind for _, kind in VERBS[name].fields) for name in VERB_NAMES}


def _head_sizes() -> tuple[int, ...]:
    """The verb head, then for each field position its value head and its row head."""
    sizes = [len(VERB_NAMES)]
    for k in range(FIELDS):
        kinds = [kinds[k] for kinds in _KINDS.values() if len(kinds) > k]
        sizes += [1 + max(KIND_SIZES[kind] for kind in kinds),
                  1 + (SIDE if "hex" in kinds else 0)]
    return tuple(sizes)


HEADS = _head_sizes()


def parts(action: Action) -> tuple[int, ...]:
    """``action``'s value on each head (``HEADS``); ``KeyError`` for a hex outside the box or
    a guard past ``MAX_GUARDS``."""
    out = [_VERB[action.verb], 0, 0, 0, 0, 0, 0]
    values = (action.x, action.y, action.z)
    for k, kind in enumerate(_KINDS[action.verb]):
        value = values[k]
        if value < 0:
            continue
        if kind == "hex":
            q, row = divmod(value, ROWS)
            if q >= SIDE or row >= SIDE:
                raise KeyError(action)
            out[1 + 2 * k], out[2 + 2 * k] = q + 1, row + 1
        elif value < KIND_SIZES[kind]:
            out[1 + 2 * k] = value + 1
        else:
            raise KeyError(action)
    return tuple(out)


# --- the observation ---------------------------------------------------------------------------
_OBSERVATION = Layout()
LAYOUT = _OBSERVATION.blocks
"""Block name -> (start, size), in order."""
_SCALE = _OBSERVATION.high
_block = _OBSERVATION.block


def _planes(name: str, count: int = 1) -> int:
    """``count`` hex planes of the box (plane k of cell c at ``start + k * CELLS + c``)."""
    return _block(name, count * CELLS, 1.0)


# the map, fixed for a scenario
TERRAIN = _planes("terrain")
WALL = _planes("wall", 3)
EDGE = _planes("edge")
VAULT = _planes("vault")
GREEN_LINE = _block("green_line", CELLS, ROUTE_SCALE)
RED_ARROWS = _block("red_arrows", CELLS, ROUTE_SCALE)
MARKS = _planes("marks")
STATIC_END = len(_SCALE)
# what changes, by hex
TORCH = _planes("torch")
LIT = _planes("lit")
GUARD = _planes("guard")
SEEN = _planes("seen")
MARKER = _block("marker", CELLS, MARKER_SCALE)
GOAL = _planes("guard_goal")
THIEF = _planes("thief")
POSSIBLE = _planes("possible", 2)
EXIT = _planes("exit")
KEY_DOOR = _planes("key_door")
PLAN_HEXES = _planes("plan_hexes")
# the table
PLAYERS = _block("players", MAX_SEATS)
SEAT = _block("seat", MAX_SEATS)
MODE = _block("mode", len(MODES))
DIFFICULTY = _block("difficulty", len(DIFFICULTIES))
ADVANCED = _block("advanced", 1)
ROUND = _block("round", 1, ROUND_SCALE)
ROUNDS_LEFT = _block("rounds_left", 1, ROUND_SCALE)
PHASE = _block("phase", len(PHASES))
TO_MOVE = _block("to_move", MAX_SEATS)
DECISION = _block("decision", len(TASKS))
VAULT_TRIGGERED = _block("vault_triggered", 1)
MARKET = _block("market", NG, 2.0)
GUARD_DECK = _block("guard_deck", 1, 2.0 * NG)
EXIT_DECK = _block("exit_deck", 1, 8.0)
CROWN_TOKENS = _block("treasures_on_crown", 1, float(len(TREASURE_NAMES) - 1))
# every thief, public, from the observing seat on: [seat][...]
T_PRESENT = _block("thief_present", MAX_SEATS)
T_WHERE = _block("thief_where", 2 * MAX_SEATS)
WOUNDS = _block("wounds", MAX_SEATS, WOUND_SCALE)
COINS = _block("coins", MAX_SEATS, COIN_SCALE)
CARDS = _block("cards", MAX_SEATS * NT)
GUARD_CARDS = _block("guard_cards", MAX_SEATS * NG, 2.0)
LOCKPICKS = _block("lockpicks", MAX_SEATS)
KEYS = _block("keys", MAX_SEATS, 4.0)
TREASURE = _block("treasure", MAX_SEATS * len(TREASURE_NAMES))
FLAGS = _block("thief_flags", MAX_SEATS * 4)
STANDING = _block("standing", MAX_SEATS * len(STANDINGS))
# the seat's own plan
PLAN = _block("plan", 1)
PLAN_CARD = _block("plan_card", NT)
PLAN_ESCAPE = _block("plan_escape", 1)
PLAN_POCKET = _block("plan_pocket", MAX_GUARDS)
PLAN_LOOT = _block("plan_loot", NL)
PLAN_GUARD_CARD = _block("plan_guard_card", NG)
PLAN_GUARD = _block("plan_guard_target", MAX_GUARDS)
PLAN_TAKE = _block("plan_take", 1)
# every guard, in listing order: [guard][...]
G_FLAGS = _block("guard_flags", MAX_GUARDS * 6)
G_TILE = _block("guard_tile", MAX_GUARDS, float(MAX_TILES))
G_ROLE = _block("guard_role", MAX_GUARDS * len(ROLES))
G_TYPE = _block("guard_type", MAX_GUARDS * len(GUARD_TYPES))
G_STATUS = _block("guard_status", MAX_GUARDS * len(STATUSES))
G_FACING = _block("guard_facing", MAX_GUARDS * len(FACINGS))
G_COINS = _block("guard_coins", MAX_GUARDS, 2.0)
G_ROUTE = _block("guard_route", MAX_GUARDS * 2, ROUTE_SCALE)
G_SHOT = _block("guard_shot", MAX_GUARDS * MAX_SEATS)
G_WHERE = _block("guard_where", MAX_GUARDS * 6)
G_HOME_FACING = _block("guard_home_facing", MAX_GUARDS * len(FACINGS))
WINNERS = _block("winners", MAX_SEATS)
OBS_SIZE = len(_SCALE)
SCALE = np.array(_SCALE, dtype=np.float32)
"""What 1.0 stands for, per number."""
OBS_HIGH = np.ones(OBS_SIZE, dtype=np.float32)

_MARK_VALUES = (0.25, 0.5, 0.75, 1.0)
"""The marks plane: crescent, star, shield, red shield."""


class _Map:
    """What layout 1 takes from a board once (kept in ``Board.derived``): its planes, each
    tile's cells, and the walking distances to the crown and to each tile's outside edge."""

    def __init__(self, board: Board) -> None:
        cell = [CELL1[text] for text in board.labels]
        self.cell = cell
        planes = np.zeros(STATIC_END, dtype=np.float32)
        for h in board.solid:
            planes[TERRAIN + CELL1[label(h)]] = 1 / 3
        for i, steps in enumerate(board.step):
            c = cell[i]
            planes[TERRAIN + c] = 1.0 if board.special[i] else 2 / 3
            for f in range(3):  # its N, NE and SE sides (the others are its neighbours')
                if steps[f] == BLOCKED and neighbour(board.hexes[i], f) in board.index:
                    planes[WALL + f * CELLS + c] = 1.0
        for k, tile in enumerate(board.tiles):
            for i in tile.outside_edge:
                planes[EDGE + cell[i]] = max(planes[EDGE + cell[i]], 1.0 if tile.entry else 0.5)
            if k == board.vault_tile:
                planes[[VAULT + cell[i] for i in tile.hexes]] = 0.5
            for start, route in ((GREEN_LINE, tile.green_line), (RED_ARROWS, tile.red_arrows)):
                for position, i in enumerate(route):
                    planes[start + cell[i]] = min(1.0, (position + 1) / ROUTE_SCALE)
            marks = ((tile.crescent,), (tile.star,), (tile.shield,), tile.red_shields)
            for value, where in zip(_MARK_VALUES, marks, strict=True):
                for mark in where:
                    if mark is not None:
                        planes[MARKS + cell[mark]] = max(planes[MARKS + cell[mark]], value)
        planes[VAULT + cell[board.crown]] = 1.0
        planes.setflags(write=False)
        self.planes = planes
        self.tile_number = {tile.id: k for k, tile in enumerate(board.tiles)}
        self.edge_cells = {tile.id: [cell[i] for i in tile.outside_edge] for tile in board.tiles}
        self.door_cells = {tile.id: [cell[i] for i in tile.hexes if board.special[i]]
                           for tile in board.tiles}
        self.to_crown = _walk(board, [board.crown])
        self.to_exit = {k: _walk(board, list(tile.outside_edge))
                        for k, tile in enumerate(board.tiles) if tile.outside_edge}
        self.to_any_exit = _walk(board, [i for tile in board.tiles if tile.exit
                                         for i in tile.outside_edge])


def _walk(board: Board, sources: list[int]) -> list[int]:
    """Steps from each floor hex to the nearest of ``sources`` along open sides (walls and
    doors as the map prints them; -1 where none is reached)."""
    far = [-1] * board.size
    queue = deque(sources)
    for i in sources:
        far[i] = 0
    while queue:
        i = queue.popleft()
        for there in board.step[i]:
            if there >= 0 and far[there] < 0:
                far[there] = far[i] + 1
                queue.append(there)
    return far


def _map(board: Board) -> _Map:
    """The board's ``_Map``, made once."""
    known = board.derived.get("encoding_v1")
    if not isinstance(known, _Map):
        if (problem := map_problem(board, SIDE)) is not None:
            raise ValueError(problem)
        known = _Map(board)
        board.derived["encoding_v1"] = known
    return known




class _Marks:
    """The numbers an observation sets to 1 (``ones``) and to 0.5 (``halves``, unless also
    in ``ones``), collected as indexes and set at once at the end."""

    __slots__ = ("halves", "ones")

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.halves: list[int] = []


def _guards(guards: list[dict[str, Any]], seat: int, n: int, m: _Map, out: Vector,
            marks: _Marks) -> None:
    """Every guard of the view: its numbers by slot, its hex, goal and sight on the planes
    (the thieves it shot by seat from ``seat`` on, of ``n``)."""
    nf, nst, nr, nty = len(FACINGS), len(STATUSES), len(ROLES), len(GUARD_TYPES)
    ones, halves = marks.ones, marks.halves
    for k, g in enumerate(guards):
        route = g["route"]
        flags = (True, g["placed"], g["undead"], g["bow"], g["key"], route["direction"] < 0)
        ones += [G_FLAGS + 6 * k + f for f, on in enumerate(flags) if on]
        ones += [G_ROLE + k * nr + ROLE_OF[g["role"]], G_TYPE + k * nty + TYPE_OF[g["type"]],
                 G_STATUS + k * nst + STATUS_OF[g["status"]],
                 G_FACING + k * nf + FACING_OF[g["facing"]]]
        out[G_TILE + k] = (m.tile_number[g["tile"]] + 1) / MAX_TILES
        out[G_COINS + k] = g["coins"] / 2.0
        out[G_ROUTE + 2 * k] = (route["position"] + 1) / ROUTE_SCALE
        ones += [G_SHOT + k * MAX_SEATS + (SEAT_OF[name] - seat) % n for name in g["shot"]]
        home = g["home"]
        where = G_WHERE + 6 * k
        out[where:where + 2] = _where(g["hex"])
        if g["target"] is not None:
            out[where + 2:where + 4] = _where(g["target"])
            ones.append(GOAL + CELL1[g["target"]])
        if home is not None:
            out[where + 4:where + 6] = _where(home["hex"])
            ones.append(G_HOME_FACING + k * nf + FACING_OF[home["facing"]])
            out[G_ROUTE + 2 * k + 1] = (home["route"]["position"] + 1) / ROUTE_SCALE
            halves.append(GOAL + CELL1[home["hex"]])
        if g["placed"]:
            ones.append(GUARD + CELL1[g["hex"]])
        (ones if g["bow"] else halves).extend([SEEN + CELL1[at] for at in g["sees"]])


_THIEF_FLAGS = ("armour_used", "sword_used", "hiding", "hex_known")


def _thieves(v: dict[str, Any], seat: int, m: _Map, out: Vector, marks: _Marks) -> None:
    """Every thief of the view, from ``seat`` on: its numbers and its planes."""
    thieves = v["thieves"]
    n = len(thieves)
    shares: dict[int, float] = {}
    for p, t in enumerate(thieves):
        r = (p - seat) % n
        own = r == 0
        ones = marks.ones
        near = ones if own else marks.halves  # the own thief's marks at 1, another's at 0.5
        ones.append(T_PRESENT + r)
        out[T_WHERE + 2 * r: T_WHERE + 2 * r + 2] = _where(t["hex"])
        out[WOUNDS + r] = t["wounds"] / WOUND_SCALE
        out[COINS + r] = t["coins"] / COIN_SCALE
        marks.halves.extend([CARDS + r * NT + THIEF_CARD_OF[c] for c in t["discard"]])
        ones += [CARDS + r * NT + THIEF_CARD_OF[c] for c in t["hand"]]
        for c in t["guard_cards"]:
            out[GUARD_CARDS + r * NG + GUARD_CARD_OF[c]] += 0.5
        out[KEYS + r] = len(t["keys"]) / 4.0
        for tile in t["keys"]:
            near += [KEY_DOOR + c for c in m.door_cells[tile]]
        if t["exit"] is not None:
            near += [EXIT + c for c in m.edge_cells[t["exit"]]]
        if t["treasure"] is not None:
            ones.append(TREASURE + r * len(TREASURE_NAMES) + TREASURE_OF[t["treasure"]])
        ones += [FLAGS + 4 * r + k for k, key in enumerate(_THIEF_FLAGS) if t[key]]
        if t["lockpicks"]:
            ones.append(LOCKPICKS + r)
        ones.append(STANDING + r * len(STANDINGS) + STANDING_OF[t["standing"]])
        if t["hex"] is not None:
            near.append(THIEF + CELL1[t["hex"]])
        if t["possible"]:
            if own:
                ones += [POSSIBLE + CELL1[at] for at in t["possible"]]
            else:
                for at in t["possible"]:
                    c = POSSIBLE + CELLS + CELL1[at]
                    shares[c] = shares.get(c, 0.0) + 1.0 / (MAX_SEATS - 1)
    if shares:
        out[list(shares)] = list(shares.values())


def _plan(plan: dict[str, Any], guards: list[dict[str, Any]], out: Vector,
          ones: list[int]) -> None:
    """The seat's own plan: 0.5 at its first step, 1 at its second, 0.25 at its target."""
    ones += [PLAN, PLAN_CARD + THIEF_CARD_OF[plan["card"]]]
    if plan["escape"]:
        ones.append(PLAN_ESCAPE)
    if plan["pocket"] is not None:
        ones += [PLAN_POCKET + plan["pocket"] - 1, PLAN_LOOT + LOOT.index(plan["loot"])]
    if plan["guard_card"] is not None:
        ones.append(PLAN_GUARD_CARD + GUARD_CARD_OF[plan["guard_card"]])
    target = plan["target"]
    at = None
    if isinstance(target, int):
        ones.append(PLAN_GUARD + target - 1)
        at = guards[target - 1]["hex"]
    elif isinstance(target, str):
        at = target
    if at is not None:
        out[PLAN_HEXES + CELL1[at]] = 0.25
    for value, key in ((0.5, "first"), (1.0, "second")):
        if plan[key] is not None:
            out[PLAN_HEXES + CELL1[plan[key]]] = value
    if plan["take"]:
        ones.append(PLAN_TAKE)


def observation(state: BlackKeepState, seat: int) -> Vector:
    """What ``seat`` may see of ``state`` (the facts of ``state.view(seat)``, spec 10, on the
    map's fixed planes), scaled to [0, 1]; ``ValueError`` for a bad seat or a map outside
    the box."""
    n = state.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    check_fits(state, SIDE, MAX_GUARDS)
    m = _map(state.board)
    v = seat_view(state, seat, advice=False)
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[:STATIC_END] = m.planes
    marks = _Marks()
    ones = marks.ones
    extinguished = set(v["extinguished"])
    ones += [PLAYERS + n - 1, SEAT + seat, MODE + MODES.index(v["mode"]),
             DIFFICULTY + DIFFICULTIES.index(v["difficulty"])]
    ones += [TORCH + CELL1[at] for at in v["torches"] if at not in extinguished]
    marks.halves += [TORCH + CELL1[at] for at in extinguished]
    ones += [LIT + CELL1[at] for at in v["lit"]]
    markers = v["markers"]
    for age, marker in enumerate(reversed(markers), 1):
        out[MARKER + CELL1[marker["hex"]]] = age / MARKER_SCALE
    _guards(v["guards"], seat, n, m, out, marks)
    _thieves(v, seat, m, out, marks)
    own = v["thieves"][seat]["plan"]
    if own is not None:
        _plan(own, v["guards"], out, ones)
    if v["advanced"]:
        ones.append(ADVANCED)
    out[ROUND] = v["round"] / ROUND_SCALE
    out[ROUNDS_LEFT] = max(0, v["dawn"] - v["round"]) / ROUND_SCALE
    if v["phase"] in PHASES:
        ones.append(PHASE + PHASES.index(v["phase"]))
    decision = v["decision"]
    if decision is not None:
        ones += [TO_MOVE + (SEAT_OF[decision["seat"]] - seat) % n,
                 DECISION + TASKS[decision["task"]]]
    if v["vault_triggered"]:
        ones.append(VAULT_TRIGGERED)
    for card in v["market"]:
        if card is not None:
            out[MARKET + GUARD_CARD_OF[card]] += 0.5
    out[GUARD_DECK] = v["guard_deck"] / (2.0 * NG)
    out[EXIT_DECK] = v["exit_deck"] / 8.0
    out[CROWN_TOKENS] = v["treasures_on_crown"] / (len(TREASURE_NAMES) - 1)
    if v["result"] is not None:
        ones += [WINNERS + (w - seat) % n for w in v["result"]["winners"]]
    if marks.halves:
        out[marks.halves] = 0.5
    out[ones] = 1.0
    np.minimum(out, 1.0, out=out)
    return out


# --- the potential ---------------------------------------------------------------------------
def potential(state: BlackKeepState, seat: int) -> float:
    """``seat``'s progress in [0, 1] from what its view shows of its own thief (its hex,
    treasure, Exit card, wounds and standing; never another's dial or plan or a deck):
    escaped with a treasure 1; caught, killed or escaped without one 0; in play without a
    treasure up to 0.3 as it walks nearer the crown; with one 0.5 plus up to 0.4 as it walks
    nearer its exit (its Exit card's tile's outside edge, else any exit tile's); each wound
    taken (the public ``wounds`` option less the counters left) lowers an in-play thief's
    progress by a tenth."""
    t = state.thieves[seat]
    if t.standing != IN_PLAY:
        return 1.0 if t.standing == STANDINGS.index("escaped") and t.treasure != NONE else 0.0
    if t.hex == NONE:
        return 0.0
    m = _map(state.board)
    if t.treasure == NONE:
        far, base, gain = m.to_crown[t.hex], 0.0, 0.3
    else:
        walks = m.to_exit.get(t.exit_tile, m.to_any_exit)
        far, base, gain = walks[t.hex], 0.5, 0.4
    near = 0.0 if far < 0 else max(0.0, 1.0 - far / DISTANCE_SCALE)
    taken = max(0, state.params.wounds - t.wounds)
    return (base + gain * near) * max(0.0, 1.0 - 0.1 * taken)


def encoding_v1() -> Encoding:
    """Layout 1: factored actions (``HEADS``, ``parts``), the scaled observation above and the
    potential; the flat actions and mask are layout 0's."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES, heads=HEADS, parts=parts, scale=tuple(_SCALE), potential=potential)
