"""Thieves of the Black Keep for learning agents: a fixed action space and a fixed observation
vector over a fixed box of the label grid.

**The box.** Spec 11.2 bounds neither the number of tiles nor where they lie (any 7x7 blocks
of the label grid joined edge to edge), so no fixed space holds every map the rules allow.
The encoding covers every map inside the box of ``BLOCKS`` by ``BLOCKS`` tile places from A1:
columns A-AB, rows 1-28 (``MAP_COLUMNS`` by ``MAP_ROWS``, ``CELLS`` hexes, up to
``MAX_TILES`` tiles), with up to ``MAX_GUARDS`` guards (two per tile place). The shipped maps
fit with room to spare: The Black Keep is 3 by 2 tiles (A-U, 1-14) with at most 11 guards.
A scenario of one's own beyond the box plays everywhere else; here ``observation`` and
``action_mask`` refuse it with a ``ValueError`` (``check_fits``).

**Version.** ``VERSION`` numbers this layout; the environment is
``citywatch_<game>_v<VERSION>``. Raise it by one with any change to the tables below (a block
or verb added, moved, resized, renamed or rescaled, or what a number or an action means) and
pin the new ``Encoding.fingerprint()`` under it in ``tests/encodings.json``;
``tests/test_encodings.py`` checks the tables against the code and the fingerprint against the
pin.

**Observation.** ``observation(state, seat)`` is built from ``state.view(seat)`` only (its
facts: not the guards' forecast or the warnings, which are worked out from them), plus
the map's fixed geometry (``state.board``: floor, walls, Special Hexes, tiles and their
markers, which every seat sees). It is a float32 vector of 50,949 numbers (``OBS_SIZE``), each
from 0 to its block's max (``OBS_HIGH``; every number is clipped to it): first the hex planes,
each ``CELLS`` (784) numbers, hex ``c`` of plane ``k`` of a block at ``start + 784 * k + c``
(cell ``c = column * MAP_ROWS + row - 1``), the map's fixed planes up to ``STATIC_END``; then
the scalars. Seats and guards are absolute (seat 0 is Thief 1; guards in listing order) and
blocks of absent seats and guards stay 0; a ``[guard][tile]`` block holds guard ``g``, tile
``t`` at ``start + MAX_TILES * g + t`` (and alike). ``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size   max  what
    floor                          0   784     1  plane: a hex of the map's floor
    solid                        784   784     1  plane: a solid hex
    closed_side                 1568  4704     1  6 planes ``[facing]``: a wall, a solid hex or the
                                                  map's edge on that side
    special                     6272   784     1  plane: doors, windows, grates (Special Hexes)
    outside_edge                7056   784     1  plane: outside edge hexes of every tile
    entry_hex                   7840   784     1  plane: outside edge hexes of entry tiles
    vault_tile                  8624   784     1  plane: the vault tile's hexes
    crown                       9408   784     1  plane: the crown
    tile                       10192   784    16  plane: the hex's tile, numbered in scenario order
                                                  from 1
    green_line                 10976   784    99  plane: position + 1 on its tile's green line
    red_arrows                 11760   784    99  plane: position + 1 on its tile's red arrows
    crescent                   12544   784     1  plane: crescent markers
    star                       13328   784     1  plane: star markers
    shield                     14112   784     1  plane: shield markers
    red_shield                 14896   784     1  plane: red shield markers
    torch                      15680   784     1  plane: burning torches
    extinguished               16464   784     1  plane: put-out torches
    lit                        17248   784     1  plane: lit hexes
    guard_status               18032  4704     1  ``STATUSES`` planes: a placed guard here, by
                                                  status
    guard_facing               22736  4704     1  ``FACINGS`` planes: a placed guard here, by facing
    guard_undead               27440   784     1  plane: a placed undead guard here
    guard_bow                  28224   784     1  plane: a placed guard with a bow here
    seen                       29008   784     1  plane: some guard sees the hex now
    seen_by_bow                29792   784     1  plane: a guard with a bow sees it
    marker                     30576   784     1  plane: a Thief Marker
    marker_age                 31360   784    99  plane: 1 for the newest marker, 2 the one before,
                                                  ...
    guard_target               32144   784     1  plane: where some guard heads
    guard_home                 32928   784     1  plane: some guard's home
    thief_hex                  33712  3136     1  ``[seat]`` planes: where the thief is, when the
                                                  observing seat may know
    thief_possible             36848  3136     1  ``[seat]`` planes: where the public knows it may
                                                  be
    exit_hex                   39984  3136     1  ``[seat]`` planes: outside edge hexes of its Exit
                                                  card's tile
    key_door                   43120  3136     1  ``[seat]`` planes: Special Hexes of tiles whose
                                                  key it holds
    plan_step                  46256  1568     1  2 planes ``[first, second]``: the steps of the
                                                  seat's own plan
    plan_target                47824   784     1  plane: its planned Guard card's hex target, or its
                                                  guard's hex
    players                    48608     4     1  one-hot: 1 to 4 thieves
    seat                       48612     4     1  one-hot: the observing seat
    mode                       48616     3     1  one-hot: ``MODES``
    difficulty                 48619     3     1  one-hot: ``DIFFICULTIES``
    advanced                   48622     1     1  the advanced game
    round                      48623     1   999  the round
    dawn                       48624     1   999  the round dawn comes
    rounds_left                48625     1   999  dawn - round, at least 0
    phase                      48626     6     1  one-hot: ``PHASES``
    to_move                    48632     4     1  one-hot: who decides now
    decision                   48636     6     1  one-hot: the task (``TASKS``)
    vault_triggered            48642     1     1  the vault was triggered
    market                     48643     8     3  ``[Guard card]``: face-up copies in the market
    guard_deck                 48651     1    16  cards left in the Guard deck
    exit_deck                  48652     1    32  cards left in the Exit deck
    treasures_on_crown         48653     1     6  treasure tokens on the crown
    thief_present              48654     4     1  ``[seat]``: the thief is in the game
    wounds                     48658     4     9  ``[seat]``: wounds
    coins                      48662     4    99  ``[seat]``: coins
    hand                       48666    40     1  ``[seat][thief card]``: cards in hand
    discard                    48706    40     1  ``[seat][thief card]``: cards discarded
    guard_cards                48746    32     2  ``[seat][Guard card]``: copies held
    lockpicks                  48778     4     1  ``[seat]``: has lockpicks
    keys                       48782     4    16  ``[seat]``: keys held
    treasure                   48786    24     1  ``[seat][treasure]``: the treasure carried
    armour_used                48810     4     1  ``[seat]``: armour used
    sword_used                 48814     4     1  ``[seat]``: sword used
    hiding                     48818     4     1  ``[seat]``: hiding
    standing                   48822    16     1  ``[seat][STANDINGS]``: in play, escaped, caught,
                                                  killed
    hex_known                  48838     4     1  ``[seat]``: the public knows its hex
    plan                       48842     1     1  the observing seat has a plan
    plan_card                  48843    10     1  one-hot: its planned thief card
    plan_escape                48853     1     1  it plans to escape
    plan_pocket                48854    32     1  ``[guard]``: the guard it plans to pick-pocket
    plan_loot                  48886     2     1  ``[loot]``: what it plans to take from it
    plan_guard_card            48888     8     1  one-hot: its planned Guard card
    plan_guard_target          48896    32     1  ``[guard]``: the guard its Guard card targets
    plan_take                  48928     1     1  it plans to take a treasure
    guard_present              48929    32     1  ``[guard]``: the guard exists
    guard_placed               48961    32     1  ``[guard]``: it is on the map
    guard_tile                 48993   512     1  ``[guard][tile]``: its tile
    guard_role                 49505   128     1  ``[guard][ROLES]``: its role
    guard_type                 49633   128     1  ``[guard][GUARD_TYPES]``: its type
    guard_is_undead            49761    32     1  ``[guard]``: undead
    guard_has_bow              49793    32     1  ``[guard]``: has a bow
    guard_status_of            49825   192     1  ``[guard][STATUSES]``: its status
    guard_facing_of            50017   192     1  ``[guard][FACINGS]``: its facing
    guard_key                  50209    32     1  ``[guard]``: carries a key
    guard_coins                50241    32     9  ``[guard]``: its coins
    guard_route_position       50273    32    99  ``[guard]``: route position + 1
    guard_route_backward       50305    32     1  ``[guard]``: walks its route backward
    guard_shot                 50337   128     1  ``[guard][seat]``: thieves it shot
    guard_where                50465   192    28  ``[guard][6]``: column + 1 and row of its hex, its
                                                  target and its home (0 for none)
    guard_has_home             50657    32     1  ``[guard]``: has a home
    guard_home_facing          50689   192     1  ``[guard][FACINGS]``: its home's facing
    guard_home_route_position  50881    32    99  ``[guard]``: its home's route position + 1
    guard_home_route_backward  50913    32     1  ``[guard]``: its home's route runs backward
    winners                    50945     4     1  the winners, at the end

**Actions.** 411,120 (``NUM_ACTIONS``): every declared verb (``actions.VERBS``) with every value
of its fields, numbered by ``citywatch.core.spaces.ActionSpace``: verbs in name order, and
within a verb its fields as mixed-radix digits, the first field most significant, each digit
the field's value + 1 (-1, unused, is 0), so a field of N values takes N + 1 digits. A ``hex``
field takes one of the ``CELLS`` hexes of the box by its cell (an action itself holds the
hex's label code, ``actions.hex_code``), a ``guard`` field one of ``MAX_GUARDS`` guards, the
other kinds their cards, directions (``FACINGS``) and loot. ``ACTIONS`` and ``INDEX`` compute
an action from its number and back without listing them; ``action_mask(state)`` marks the
legal actions of the thief to move. ``VERB_RANGES[verb]`` is ``(start, stop)``. Fields below:
name (kind, values)::

    verb                   start    size  values
    buy                        0       9  card (guard_card, 8)
    escape                     9     539  card (thief_card, 10) x first (direction, 6) x second
                                          (direction, 6)
    guard_card               548  233145  card (guard_card, 8) x guard (32) x at (hex, 784)
    hide                  233693       1
    leave                 233694       1
    move                  233695   60445  card (thief_card, 10) x direction (6) x to (hex, 784)
    no_buy                294140       1
    no_guard_card         294141       1
    pick_pocket           294142   77715  guard (32) x at (hex, 784) x take (loot, 2)
    rest                  371857       1
    run                   371858   38465  first (direction, 6) x second (direction, 6) x to (hex,
                                          784)
    start                 410323     785  hex (784)
    stay                  411108      11  card (thief_card, 10)
    take                  411119       1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from citywatch.core.presentation import Encoding
from citywatch.core.spaces import ActionIndex, ActionList, ActionSpace, Layout
from citywatch.games.black_keep.actions import ROWS, SEATS, VERBS, Action
from citywatch.games.black_keep.board import BLOCKED, TILE_SIZE, Board
from citywatch.games.black_keep.data import (
    GUARD_CARD_NAMES,
    LOOT,
    THIEF_CARD_NAMES,
    TREASURE_NAMES,
)
from citywatch.games.black_keep.hexes import (
    FACINGS,
    column_letters,
    from_offset,
    label,
    row_number,
)
from citywatch.games.black_keep.scenario import ROLES
from citywatch.games.black_keep.state import (
    DIFFICULTIES,
    GUARD_TYPES,
    MODES,
    STANDINGS,
    STATUSES,
    BlackKeepState,
)
from citywatch.games.black_keep.view import seat_view

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

VERSION = 0
"""The layout's version (the environment's ``_v<VERSION>``): raise it by one with any change to
the layout the module's docstring gives, and pin the new fingerprint (``tests/encodings.json``)."""

BLOCKS = 4
"""Tile places across and down the box."""
MAP_COLUMNS = MAP_ROWS = BLOCKS * TILE_SIZE
"""The box: columns A-AB, rows 1-28."""
CELLS = MAP_COLUMNS * MAP_ROWS
"""Hexes in the box, numbered ``column * MAP_ROWS + row - 1``."""
MAX_TILES = BLOCKS * BLOCKS
MAX_GUARDS = 2 * MAX_TILES
MAX_SEATS = len(SEATS)
MAX_ROUND = 999
"""The cap of the round and dawn numbers."""
MAX_COUNT = 99
"""The cap of coins, route positions and marker ages."""
MAX_SMALL = 9
"""The cap of wounds and a guard's coins (tuning options may raise them)."""
PHASES = ("setup", "resource", "plan", "thief", "guard", "over")
TASKS = {"choose your start hex": 0, "buy a Guard card or none": 1,
         "plan your thief card": 2, "plan a Guard card or none": 3,
         "decide whether to take a treasure": 4, "make its plan": 5}
"""A decision's task as the view words it -> its number: start, buy, the plan's thief card,
Guard card and treasure (the seat's own), and another thief making its plan."""
NT, NG, NL = len(THIEF_CARD_NAMES), len(GUARD_CARD_NAMES), len(LOOT)

# --- the box ------------------------------------------------------------------------------------
CELL: dict[str, int] = {label(from_offset(q, row)): q * MAP_ROWS + row - 1
                        for q in range(MAP_COLUMNS) for row in range(1, MAP_ROWS + 1)}
"""Label -> cell, for every hex of the box."""


def cell_of_code(code: int) -> int:
    """The cell of a hex code (``actions.hex_code``); ``KeyError`` outside the box."""
    q, row = divmod(code, ROWS)
    if not (0 <= q < MAP_COLUMNS and 0 <= row < MAP_ROWS):
        raise KeyError(code)
    return q * MAP_ROWS + row


def code_of_cell(cell: int) -> int:
    """The hex code of a cell of the box."""
    q, row = divmod(cell, MAP_ROWS)
    return q * ROWS + row


@lru_cache(maxsize=64)
def map_problem(board: Board, size: int = MAP_COLUMNS) -> str | None:
    """Why ``board`` lies outside the box of ``size`` columns by ``size`` rows from A1, or
    None when it fits."""
    for h in (*board.hexes, *board.solid):
        if not (0 <= h[0] < size and 1 <= row_number(h) <= size):
            return (f"the map of {board.name} reaches {label(h)}, beyond the PettingZoo "
                    f"encoding's box (columns A-{column_letters(size - 1)}, rows "
                    f"1-{size})")
    return None


def check_fits(state: BlackKeepState, size: int = MAP_COLUMNS,
               max_guards: int = MAX_GUARDS) -> None:
    """``ValueError`` if the state's map lies outside the box (``size`` columns and rows) or
    it has more than ``max_guards`` guards."""
    problem = map_problem(state.board, size)
    if problem is None and len(state.guards) > max_guards:
        problem = (f"{state.board.name} has {len(state.guards)} guards; the PettingZoo encoding "
                   f"holds at most {max_guards}")
    if problem is not None:
        raise ValueError(problem)


# --- the action space -----------------------------------------------------------------------------
SPACE = ActionSpace(VERBS, {"hex": CELLS, "direction": len(FACINGS), "thief_card": NT,
                            "guard_card": NG, "guard": MAX_GUARDS, "loot": NL})
"""Every action numbered (``citywatch.core.spaces``), a hex field by its cell."""
VERB_NAMES = SPACE.verb_names
NUM_ACTIONS = len(SPACE)
VERB_RANGES: dict[str, tuple[int, int]] = {name: SPACE.verb_range(name) for name in VERB_NAMES}
"""Verb -> (first number, one past the last) of its actions."""
_HEX_FIELDS = {name: tuple(i for i, (_, kind) in enumerate(VERBS[name].fields) if kind == "hex")
               for name in VERB_NAMES}


def action_index(action: Action) -> int:
    """The number of ``action``; ``KeyError`` if it is outside the action space."""
    values = [action.x, action.y, action.z]
    for i in _HEX_FIELDS.get(action.verb, ()):
        if values[i] >= 0:
            values[i] = cell_of_code(values[i])
    return SPACE.number(action.verb, values)


def index_action(index: int) -> Action:
    """The action numbered ``index``; ``IndexError`` if out of range."""
    name, values = SPACE.action_at(int(index))
    for i in _HEX_FIELDS[name]:
        if values[i] >= 0:
            values[i] = code_of_cell(values[i])
    return Action(name, *values)


ACTIONS: Sequence[Action] = ActionList(NUM_ACTIONS, index_action)
"""Every action, by number."""
INDEX: Mapping[Any, int] = ActionIndex(Action, ACTIONS, action_index)
"""Action -> its number."""


def action_mask(state: BlackKeepState) -> Mask:
    """1 at the number of every legal action of the thief to move, else 0 (all 0 once the game
    is over); ``ValueError`` for a map outside the box."""
    check_fits(state)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.to_move is not None:
        mask[[action_index(a) for a in state.legal_actions()]] = 1
    return mask


# --- the observation ------------------------------------------------------------------------------
_OBSERVATION = Layout()
LAYOUT = _OBSERVATION.blocks
"""Block name -> (start, size) in the observation vector, in order."""
_HIGH = _OBSERVATION.high
_block = _OBSERVATION.block


def _planes(name: str, count: int = 1, high: float = 1.0) -> int:
    """``count`` hex planes of the box (plane k of hex c at ``start + k * CELLS + c``)."""
    return _block(name, count * CELLS, high)


# the map (fixed for a scenario: every seat sees it)
FLOOR = _planes("floor")
SOLID = _planes("solid")
CLOSED = _planes("closed_side", 6)  # [facing]: a wall, a solid hex or the map's edge
SPECIAL = _planes("special")  # doors, windows, grates
OUTSIDE_EDGE = _planes("outside_edge")
ENTRY = _planes("entry_hex")  # outside edge hexes of entry tiles
VAULT = _planes("vault_tile")
CROWN = _planes("crown")
TILE = _planes("tile", 1, MAX_TILES)  # the tile's number in scenario order, from 1
GREEN_LINE = _planes("green_line", 1, MAX_COUNT)  # route position + 1
RED_ARROWS = _planes("red_arrows", 1, MAX_COUNT)  # route position + 1
CRESCENT = _planes("crescent")
STAR = _planes("star")
SHIELD = _planes("shield")
RED_SHIELD = _planes("red_shield")
STATIC_END = len(_HIGH)
# what changes, by hex
TORCH = _planes("torch")  # a burning torch
EXTINGUISHED = _planes("extinguished")
LIT = _planes("lit")
GUARD_STATUS = _planes("guard_status", len(STATUSES))  # [status]: a placed guard here
GUARD_FACING = _planes("guard_facing", len(FACINGS))
GUARD_UNDEAD = _planes("guard_undead")
GUARD_BOW = _planes("guard_bow")
SEEN = _planes("seen")  # some guard sees the hex now
SEEN_BY_BOW = _planes("seen_by_bow")
MARKER = _planes("marker")
MARKER_AGE = _planes("marker_age", 1, MAX_COUNT)  # 1 for the newest marker, 2 the one before
TARGET = _planes("guard_target")
HOME = _planes("guard_home")
THIEF_HEX = _planes("thief_hex", MAX_SEATS)  # [seat]: where it is, when the seat may know
POSSIBLE = _planes("thief_possible", MAX_SEATS)  # [seat]: where the public knows it may be
EXIT = _planes("exit_hex", MAX_SEATS)  # [seat]: outside edge hexes of its Exit card's tile
KEY_DOOR = _planes("key_door", MAX_SEATS)  # [seat]: Special Hexes of tiles whose key it holds
PLAN_STEP = _planes("plan_step", 2)  # [first, second]: the seat's own plan
PLAN_TARGET = _planes("plan_target")  # its Guard card's hex target, or its guard's hex
# the table
PLAYERS = _block("players", MAX_SEATS)  # one-hot: 1-4 thieves
SEAT = _block("seat", MAX_SEATS)
MODE = _block("mode", len(MODES))
DIFFICULTY = _block("difficulty", len(DIFFICULTIES))
ADVANCED = _block("advanced", 1)
ROUND = _block("round", 1, MAX_ROUND)
DAWN = _block("dawn", 1, MAX_ROUND)
ROUNDS_LEFT = _block("rounds_left", 1, MAX_ROUND)
PHASE = _block("phase", len(PHASES))
TO_MOVE = _block("to_move", MAX_SEATS)
DECISION = _block("decision", len(TASKS))
VAULT_TRIGGERED = _block("vault_triggered", 1)
MARKET = _block("market", NG, 3)  # face-up copies of each Guard card
GUARD_DECK = _block("guard_deck", 1, 2 * NG)
EXIT_DECK = _block("exit_deck", 1, 2 * MAX_TILES)
CROWN_TOKENS = _block("treasures_on_crown", 1, len(TREASURE_NAMES))
# every thief, public: [seat][...]
THIEF_PRESENT = _block("thief_present", MAX_SEATS)
WOUNDS = _block("wounds", MAX_SEATS, MAX_SMALL)
COINS = _block("coins", MAX_SEATS, MAX_COUNT)
HAND = _block("hand", MAX_SEATS * NT)
DISCARD = _block("discard", MAX_SEATS * NT)
GUARD_CARDS = _block("guard_cards", MAX_SEATS * NG, 2)
LOCKPICKS = _block("lockpicks", MAX_SEATS)
KEYS = _block("keys", MAX_SEATS, MAX_TILES)
TREASURE = _block("treasure", MAX_SEATS * len(TREASURE_NAMES))
ARMOUR_USED = _block("armour_used", MAX_SEATS)
SWORD_USED = _block("sword_used", MAX_SEATS)
HIDING = _block("hiding", MAX_SEATS)
STANDING = _block("standing", MAX_SEATS * len(STANDINGS))
HEX_KNOWN = _block("hex_known", MAX_SEATS)
# the seat's own plan (until the reveal only its own seat sees it)
PLAN = _block("plan", 1)
PLAN_CARD = _block("plan_card", NT)
PLAN_ESCAPE = _block("plan_escape", 1)
PLAN_POCKET = _block("plan_pocket", MAX_GUARDS)
PLAN_LOOT = _block("plan_loot", NL)
PLAN_GUARD_CARD = _block("plan_guard_card", NG)
PLAN_GUARD = _block("plan_guard_target", MAX_GUARDS)
PLAN_TAKE = _block("plan_take", 1)
# every guard, public, in listing order: [guard][...]
G_PRESENT = _block("guard_present", MAX_GUARDS)
G_PLACED = _block("guard_placed", MAX_GUARDS)
G_TILE = _block("guard_tile", MAX_GUARDS * MAX_TILES)
G_ROLE = _block("guard_role", MAX_GUARDS * len(ROLES))
G_TYPE = _block("guard_type", MAX_GUARDS * len(GUARD_TYPES))
G_UNDEAD = _block("guard_is_undead", MAX_GUARDS)
G_BOW = _block("guard_has_bow", MAX_GUARDS)
G_STATUS = _block("guard_status_of", MAX_GUARDS * len(STATUSES))
G_FACING = _block("guard_facing_of", MAX_GUARDS * len(FACINGS))
G_KEY = _block("guard_key", MAX_GUARDS)
G_COINS = _block("guard_coins", MAX_GUARDS, MAX_SMALL)
G_ROUTE = _block("guard_route_position", MAX_GUARDS, MAX_COUNT)  # position + 1
G_BACKWARD = _block("guard_route_backward", MAX_GUARDS)  # direction -1
G_SHOT = _block("guard_shot", MAX_GUARDS * MAX_SEATS)
G_WHERE = _block("guard_where", MAX_GUARDS * 6, MAP_ROWS)  # column + 1, row: hex, target, home
G_HOME = _block("guard_has_home", MAX_GUARDS)
G_HOME_FACING = _block("guard_home_facing", MAX_GUARDS * len(FACINGS))
G_HOME_ROUTE = _block("guard_home_route_position", MAX_GUARDS, MAX_COUNT)
G_HOME_BACKWARD = _block("guard_home_route_backward", MAX_GUARDS)
WINNERS = _block("winners", MAX_SEATS)
OBS_SIZE = len(_HIGH)
OBS_HIGH = np.array(_HIGH, dtype=np.float32)

# Each name's number in the layouts (a card, a status, a seat, ...).
STATUS_OF = {name: i for i, name in enumerate(STATUSES)}
FACING_OF = {name: i for i, name in enumerate(FACINGS)}
TYPE_OF = {name: i for i, name in enumerate(GUARD_TYPES)}
ROLE_OF = {name: i for i, name in enumerate(ROLES)}
THIEF_CARD_OF = {name: i for i, name in enumerate(THIEF_CARD_NAMES)}
GUARD_CARD_OF = {name: i for i, name in enumerate(GUARD_CARD_NAMES)}
TREASURE_OF = {name: i for i, name in enumerate(TREASURE_NAMES)}
STANDING_OF = {name: i for i, name in enumerate(STANDINGS)}
SEAT_OF = {name: i for i, name in enumerate(SEATS)}


def _cell(board: Board, hex: int) -> int:
    return CELL[board.labels[hex]]


@lru_cache(maxsize=64)
def _static(board: Board) -> Vector:
    """The map's planes (``FLOOR`` up to ``STATIC_END``) of a board inside the box."""
    out = np.zeros(STATIC_END, dtype=np.float32)
    for h in board.solid:
        out[SOLID + CELL[label(h)]] = 1
    for i, steps in enumerate(board.step):
        c = _cell(board, i)
        out[FLOOR + c] = 1
        for f, there in enumerate(steps):
            if there == BLOCKED:
                out[CLOSED + f * CELLS + c] = 1
        if board.special[i]:
            out[SPECIAL + c] = 1
        out[TILE + c] = board.tile_of[i] + 1
    for k, tile in enumerate(board.tiles):
        for i in tile.outside_edge:
            out[OUTSIDE_EDGE + _cell(board, i)] = 1
            if tile.entry:
                out[ENTRY + _cell(board, i)] = 1
        if k == board.vault_tile:
            for i in tile.hexes:
                out[VAULT + _cell(board, i)] = 1
        for start, route in ((GREEN_LINE, tile.green_line), (RED_ARROWS, tile.red_arrows)):
            for position, i in enumerate(route):
                out[start + _cell(board, i)] = min(position + 1, MAX_COUNT)
        marks: tuple[tuple[int, tuple[int | None, ...]], ...] = (
            (CRESCENT, (tile.crescent,)), (STAR, (tile.star,)), (SHIELD, (tile.shield,)),
            (RED_SHIELD, tile.red_shields))
        for start, where in marks:
            for mark in where:
                if mark is not None:
                    out[start + _cell(board, mark)] = 1
    out[CROWN + _cell(board, board.crown)] = 1
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _tile_hexes(board: Board) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Tile id -> (the cells of its outside edge hexes, of its Special Hexes)."""
    return {tile.id: (tuple(_cell(board, i) for i in tile.outside_edge),
                      tuple(_cell(board, i) for i in tile.hexes if board.special[i]))
            for tile in board.tiles}


@lru_cache(maxsize=64)
def _tile_numbers(board: Board) -> dict[str, int]:
    """Tile id -> its number in scenario order, from 0."""
    return {tile.id: k for k, tile in enumerate(board.tiles)}


def _where(at: str | None) -> tuple[int, int]:
    """(column + 1, row) of a label, (0, 0) for none."""
    if at is None:
        return 0, 0
    q, row = divmod(CELL[at], MAP_ROWS)
    return q + 1, row + 1


def _guards(board: Board, guards: list[dict[str, Any]], out: Vector, ones: list[int]) -> None:
    """Every guard of the view: its planes at its hex and its own numbers by slot."""
    tiles = _tile_numbers(board)
    for k, g in enumerate(guards):
        status, facing = STATUS_OF[g["status"]], FACING_OF[g["facing"]]
        ones += [G_PRESENT + k, G_TILE + k * MAX_TILES + tiles[g["tile"]],
                 G_ROLE + k * len(ROLES) + ROLE_OF[g["role"]],
                 G_TYPE + k * len(GUARD_TYPES) + TYPE_OF[g["type"]],
                 G_STATUS + k * len(STATUSES) + status, G_FACING + k * len(FACINGS) + facing]
        ones += [start + k for start, on in ((G_PLACED, g["placed"]), (G_UNDEAD, g["undead"]),
                                             (G_BOW, g["bow"]), (G_KEY, g["key"])) if on]
        ones += [G_SHOT + k * MAX_SEATS + SEAT_OF[name] for name in g["shot"]]
        out[G_COINS + k] = g["coins"]
        out[G_ROUTE + k] = g["route"]["position"] + 1
        if g["route"]["direction"] < 0:
            ones.append(G_BACKWARD + k)
        home = g["home"]
        places = (g["hex"], g["target"], None if home is None else home["hex"])
        for n, at in enumerate(places):
            out[G_WHERE + 6 * k + 2 * n: G_WHERE + 6 * k + 2 * n + 2] = _where(at)
        if home is not None:
            ones += [G_HOME + k, G_HOME_FACING + k * len(FACINGS) + FACING_OF[home["facing"]]]
            out[G_HOME_ROUTE + k] = home["route"]["position"] + 1
            if home["route"]["direction"] < 0:
                ones.append(G_HOME_BACKWARD + k)
            ones.append(HOME + CELL[home["hex"]])
        if g["target"] is not None:
            ones.append(TARGET + CELL[g["target"]])
        if g["placed"]:
            c = CELL[g["hex"]]
            ones += [GUARD_STATUS + status * CELLS + c, GUARD_FACING + facing * CELLS + c]
            if g["undead"]:
                ones.append(GUARD_UNDEAD + c)
            if g["bow"]:
                ones.append(GUARD_BOW + c)
        seen = [CELL[at] for at in g["sees"]]
        ones += [SEEN + c for c in seen]
        if g["bow"]:
            ones += [SEEN_BY_BOW + c for c in seen]


def _thieves(board: Board, thieves: list[dict[str, Any]], out: Vector, ones: list[int]) -> None:
    """Every thief of the view: its numbers by seat and its planes."""
    tiles = _tile_hexes(board)
    for p, t in enumerate(thieves):
        ones.append(THIEF_PRESENT + p)
        out[WOUNDS + p] = t["wounds"]
        out[COINS + p] = t["coins"]
        ones += [HAND + p * NT + THIEF_CARD_OF[c] for c in t["hand"]]
        ones += [DISCARD + p * NT + THIEF_CARD_OF[c] for c in t["discard"]]
        for c in t["guard_cards"]:
            out[GUARD_CARDS + p * NG + GUARD_CARD_OF[c]] += 1
        out[KEYS + p] = len(t["keys"])
        for tile in t["keys"]:
            ones += [KEY_DOOR + p * CELLS + c for c in tiles[tile][1]]
        if t["exit"] is not None:
            ones += [EXIT + p * CELLS + c for c in tiles[t["exit"]][0]]
        if t["treasure"] is not None:
            ones.append(TREASURE + p * len(TREASURE_NAMES) + TREASURE_OF[t["treasure"]])
        ones += [start + p for start, on in (
            (LOCKPICKS, t["lockpicks"]), (ARMOUR_USED, t["armour_used"]),
            (SWORD_USED, t["sword_used"]), (HIDING, t["hiding"]), (HEX_KNOWN, t["hex_known"]))
            if on]
        ones.append(STANDING + p * len(STANDINGS) + STANDING_OF[t["standing"]])
        if t["hex"] is not None:
            ones.append(THIEF_HEX + p * CELLS + CELL[t["hex"]])
        ones += [POSSIBLE + p * CELLS + CELL[at] for at in t["possible"] or ()]


def _plan(plan: dict[str, Any], guards: list[dict[str, Any]], ones: list[int]) -> None:
    """The seat's own plan."""
    ones += [PLAN, PLAN_CARD + THIEF_CARD_OF[plan["card"]]]
    ones += [PLAN_STEP + k * CELLS + CELL[plan[key]]
             for k, key in enumerate(("first", "second")) if plan[key] is not None]
    if plan["escape"]:
        ones.append(PLAN_ESCAPE)
    if plan["pocket"] is not None:
        ones += [PLAN_POCKET + plan["pocket"] - 1, PLAN_LOOT + LOOT.index(plan["loot"])]
    if plan["guard_card"] is not None:
        ones.append(PLAN_GUARD_CARD + GUARD_CARD_OF[plan["guard_card"]])
    target = plan["target"]
    if isinstance(target, int):
        ones.append(PLAN_GUARD + target - 1)
        at = guards[target - 1]["hex"]
        if at is not None:
            ones.append(PLAN_TARGET + CELL[at])
    elif isinstance(target, str):
        ones.append(PLAN_TARGET + CELL[target])
    if plan["take"]:
        ones.append(PLAN_TAKE)


def observation(state: BlackKeepState, seat: int) -> Vector:
    """What ``seat`` may see of ``state``: the facts of ``state.view(seat)`` (spec 10) on the
    map's fixed planes, as a vector; ``ValueError`` for a bad seat or a map outside the box."""
    n = state.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    check_fits(state)
    board = state.board
    v = seat_view(state, seat, advice=False)  # the view's facts, without the forecast
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[:STATIC_END] = _static(board)
    extinguished = set(v["extinguished"])
    ones = [PLAYERS + n - 1, SEAT + seat, MODE + MODES.index(v["mode"]),
            DIFFICULTY + DIFFICULTIES.index(v["difficulty"])]
    ones += [TORCH + CELL[at] for at in v["torches"] if at not in extinguished]
    ones += [EXTINGUISHED + CELL[at] for at in extinguished]
    ones += [LIT + CELL[at] for at in v["lit"]]
    markers = v["markers"]
    for age, marker in enumerate(reversed(markers), 1):
        ones.append(MARKER + CELL[marker["hex"]])
        out[MARKER_AGE + CELL[marker["hex"]]] = age
    _guards(board, v["guards"], out, ones)
    _thieves(board, v["thieves"], out, ones)
    own = v["thieves"][seat]["plan"]
    if own is not None:
        _plan(own, v["guards"], ones)
    if v["advanced"]:
        ones.append(ADVANCED)
    out[ROUND] = v["round"]
    out[DAWN] = v["dawn"]
    out[ROUNDS_LEFT] = max(0, v["dawn"] - v["round"])
    if v["phase"] in PHASES:
        ones.append(PHASE + PHASES.index(v["phase"]))
    decision = v["decision"]
    if decision is not None:
        ones += [TO_MOVE + SEAT_OF[decision["seat"]], DECISION + TASKS[decision["task"]]]
    if v["vault_triggered"]:
        ones.append(VAULT_TRIGGERED)
    for card in v["market"]:
        if card is not None:
            out[MARKET + GUARD_CARD_OF[card]] += 1
    out[GUARD_DECK] = v["guard_deck"]
    out[EXIT_DECK] = v["exit_deck"]
    out[CROWN_TOKENS] = v["treasures_on_crown"]
    if v["result"] is not None:
        ones += [WINNERS + w for w in v["result"]["winners"]]
    out[ones] = 1.0
    np.minimum(out, OBS_HIGH, out=out)
    return out


__all__ = ["ACTIONS", "CELLS", "INDEX", "LAYOUT", "MAX_GUARDS", "NUM_ACTIONS", "OBS_HIGH",
           "OBS_SIZE", "action_index", "action_mask", "check_fits", "index_action",
           "observation"]


def encoding_v0() -> Encoding:
    """Layout 0: the flat action space and the unscaled observation above."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES)
