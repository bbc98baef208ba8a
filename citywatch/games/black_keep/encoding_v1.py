"""Thieves of the Black Keep for learning agents, layout 1 (issue 33): factored actions, a
compact observation scaled to [0, 1], and a progress potential for shaped rewards.

TABLES

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
    INDEX,
    MAP_ROWS,
    PHASES,
    TASKS,
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
WOUND_SCALE = 3.0
"""The default wound counters (6.1): 1.0 is the last wound."""
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
    """``action``'s value on each head (``HEADS``); ``KeyError`` for a hex outside the box."""
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
        else:
            out[1 + 2 * k] = value + 1
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

_STATUS = {name: i for i, name in enumerate(STATUSES)}
_FACING = {name: i for i, name in enumerate(FACINGS)}
_TYPE = {name: i for i, name in enumerate(GUARD_TYPES)}
_ROLE = {name: i for i, name in enumerate(ROLES)}
_THIEF_CARD = {name: i for i, name in enumerate(THIEF_CARD_NAMES)}
_GUARD_CARD = {name: i for i, name in enumerate(GUARD_CARD_NAMES)}
_TREASURE = {name: i for i, name in enumerate(TREASURE_NAMES)}
_STANDING = {name: i for i, name in enumerate(STANDINGS)}
_SEAT = {name: i for i, name in enumerate(SEATS)}
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




def _guards(guards: list[dict[str, Any]], m: _Map, out: Vector, ones: list[int]) -> None:
    """Every guard of the view: its numbers by slot, its hex, goal and sight on the planes."""
    nf, nst, nr, nty = len(FACINGS), len(STATUSES), len(ROLES), len(GUARD_TYPES)
    for k, g in enumerate(guards):
        flags = (True, g["placed"], g["undead"], g["bow"], g["key"],
                 g["route"]["direction"] < 0)
        ones += [G_FLAGS + 6 * k + n for n, on in enumerate(flags) if on]
        ones += [G_ROLE + k * nr + _ROLE[g["role"]], G_TYPE + k * nty + _TYPE[g["type"]],
                 G_STATUS + k * nst + _STATUS[g["status"]],
                 G_FACING + k * nf + _FACING[g["facing"]]]
        out[G_TILE + k] = (m.tile_number[g["tile"]] + 1) / MAX_TILES
        out[G_COINS + k] = g["coins"] / 2.0
        out[G_ROUTE + 2 * k] = (g["route"]["position"] + 1) / ROUTE_SCALE
        ones += [G_SHOT + k * MAX_SEATS + _SEAT[name] for name in g["shot"]]
        home = g["home"]
        places = (g["hex"], g["target"], None if home is None else home["hex"])
        for n, at in enumerate(places):
            out[G_WHERE + 6 * k + 2 * n: G_WHERE + 6 * k + 2 * n + 2] = _where(at)
        if home is not None:
            ones.append(G_HOME_FACING + k * nf + _FACING[home["facing"]])
            out[G_ROUTE + 2 * k + 1] = (home["route"]["position"] + 1) / ROUTE_SCALE
            out[GOAL + CELL1[home["hex"]]] = 0.5
        if g["placed"]:
            ones.append(GUARD + CELL1[g["hex"]])
        seen = [SEEN + CELL1[at] for at in g["sees"]]
        if g["bow"]:
            ones += seen
        else:
            out[seen] = np.maximum(out[seen], 0.5)
    ones += [GOAL + CELL1[g["target"]] for g in guards if g["target"] is not None]


def _thieves(v: dict[str, Any], seat: int, m: _Map, out: Vector, ones: list[int]) -> None:
    """Every thief of the view, from ``seat`` on: its numbers and its planes."""
    n = len(v["thieves"])
    for p, t in enumerate(v["thieves"]):
        r = (p - seat) % n
        own = r == 0
        ones.append(T_PRESENT + r)
        out[T_WHERE + 2 * r: T_WHERE + 2 * r + 2] = _where(t["hex"])
        out[WOUNDS + r] = t["wounds"] / WOUND_SCALE
        out[COINS + r] = t["coins"] / COIN_SCALE
        out[[CARDS + r * NT + _THIEF_CARD[c] for c in t["discard"]]] = 0.5
        ones += [CARDS + r * NT + _THIEF_CARD[c] for c in t["hand"]]
        for c in t["guard_cards"]:
            out[GUARD_CARDS + r * NG + _GUARD_CARD[c]] += 0.5
        out[KEYS + r] = len(t["keys"]) / 4.0
        doors = [KEY_DOOR + c for tile in t["keys"] for c in m.door_cells[tile]]
        edges = [] if t["exit"] is None else [EXIT + c for c in m.edge_cells[t["exit"]]]
        if own:
            ones += doors + edges
        else:
            out[doors] = np.maximum(out[doors], 0.5)
            out[edges] = np.maximum(out[edges], 0.5)
        if t["treasure"] is not None:
            ones.append(TREASURE + r * len(TREASURE_NAMES) + _TREASURE[t["treasure"]])
        ones += [FLAGS + 4 * r + k for k, key in enumerate(
            ("armour_used", "sword_used", "hiding", "hex_known")) if t[key]]
        if t["lockpicks"]:
            ones.append(LOCKPICKS + r)
        ones.append(STANDING + r * len(STANDINGS) + _STANDING[t["standing"]])
        if t["hex"] is not None:
            at = THIEF + CELL1[t["hex"]]
            if own:
                ones.append(at)
            else:
                out[at] = max(out[at], 0.5)
        possible = [CELL1[at] for at in t["possible"] or ()]
        if own:
            ones += [POSSIBLE + c for c in possible]
        elif possible:
            out[[POSSIBLE + CELLS + c for c in possible]] += 1.0 / (MAX_SEATS - 1)


def _plan(plan: dict[str, Any], guards: list[dict[str, Any]], out: Vector,
          ones: list[int]) -> None:
    """The seat's own plan: 0.5 at its first step, 1 at its second, 0.25 at its target."""
    ones += [PLAN, PLAN_CARD + _THIEF_CARD[plan["card"]]]
    if plan["escape"]:
        ones.append(PLAN_ESCAPE)
    if plan["pocket"] is not None:
        ones += [PLAN_POCKET + plan["pocket"] - 1, PLAN_LOOT + LOOT.index(plan["loot"])]
    if plan["guard_card"] is not None:
        ones.append(PLAN_GUARD_CARD + _GUARD_CARD[plan["guard_card"]])
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
    extinguished = v["extinguished"]
    ones = [PLAYERS + n - 1, SEAT + seat, MODE + MODES.index(v["mode"]),
            DIFFICULTY + DIFFICULTIES.index(v["difficulty"])]
    ones += [TORCH + CELL1[at] for at in v["torches"]]
    out[[TORCH + CELL1[at] for at in extinguished]] = 0.5
    ones += [LIT + CELL1[at] for at in v["lit"]]
    markers = v["markers"]
    for age, marker in enumerate(reversed(markers), 1):
        out[MARKER + CELL1[marker["hex"]]] = age / MARKER_SCALE
    _guards(v["guards"], m, out, ones)
    _thieves(v, seat, m, out, ones)
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
        ones += [TO_MOVE + (_SEAT[decision["seat"]] - seat) % n,
                 DECISION + TASKS[decision["task"]]]
    if v["vault_triggered"]:
        ones.append(VAULT_TRIGGERED)
    for card in v["market"]:
        if card is not None:
            out[MARKET + _GUARD_CARD[card]] += 0.5
    out[GUARD_DECK] = v["guard_deck"] / (2.0 * NG)
    out[EXIT_DECK] = v["exit_deck"] / 8.0
    out[CROWN_TOKENS] = v["treasures_on_crown"] / (len(TREASURE_NAMES) - 1)
    if v["result"] is not None:
        ones += [WINNERS + (w - seat) % n for w in v["result"]["winners"]]
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
    taken lowers an in-play thief's progress by a tenth."""
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
    return (base + gain * near) * max(0.0, 1.0 - 0.1 * t.wounds)


def encoding_v1() -> Encoding:
    """Layout 1: factored actions (``HEADS``, ``parts``), the scaled observation above and the
    potential; the flat actions and mask are layout 0's."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES, heads=HEADS, parts=parts, scale=SCALE, potential=potential)
