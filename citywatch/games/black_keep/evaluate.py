"""How near the thieves are to winning: the way still to go, the guards close by, and each
seat's chance of winning, for search bots that cut playouts short and for the heuristic bot.

The way to go is counted along the thief's own steps (6.3): open sides only, a Special Hex
closed to it (no key for its tile, no Lockpicks) costing ``CLOSED_SPECIAL`` steps (the turns
spent getting Lockpicks or a key), and the hexes of guards that stay put (a Stationary guard in
its routine, a Roving guard with no marker to go for, ruling 42) costing ``HELD`` (the turns
spent luring it away). A thief without a treasure goes by the crown, then to an outside edge
hex of its Exit tile and one step off the map (6.7).

Everything here reads the state it is given: bots give it worlds sampled from their own view
(``Observation.sample``), never the true state.
"""

from __future__ import annotations

import heapq
import math
from typing import Final

from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.data import EYE
from citywatch.games.black_keep.scoring import carries_real_treasure
from citywatch.games.black_keep.sight import can_spot, sight
from citywatch.games.black_keep.state import (
    BORED,
    CAUGHT,
    DISTRACTED,
    ESCAPED,
    IN_PLAY,
    INTERESTED,
    KILLED,
    NONE,
    PATROLLING,
    PURSUING,
    ROVING,
    STATIONARY,
    WANDERING,
    BlackKeepState,
    Guard,
    Thief,
)

State = BlackKeepState
CLOSED_SPECIAL: Final = 8
"""Steps a Special Hex the thief cannot open yet is worth (buying Lockpicks, stealing a key)."""
HELD: Final = 12
"""Steps a hex held by a guard that stays put is worth (luring it away, ruling 42)."""
FAR: Final = 99
"""Steps to a goal that cannot be reached at all."""
STEPS_PER_ROUND: Final = 0.75
"""Steps a careful thief makes per round on average (it rests and hides too)."""
CACHE_LIMIT = 4096
"""At most this many distance tables are remembered; the cache is emptied when full."""
_TABLES: Final[dict[tuple[object, ...], tuple[int, ...]]] = {}


# --- the way to go ------------------------------------------------------------------------------
def opened_tiles(t: Thief) -> int:
    """The tiles whose Special Hexes ``t`` may enter, as a bitmask (-1: all, with Lockpicks)."""
    return -1 if t.lockpicks else t.keys


def held_hexes(s: State) -> frozenset[int]:
    """The hexes of guards that will not move off them by themselves: a Stationary guard in its
    routine (it only turns) and a Roving guard with no marker on the map to go for (R30)."""
    return frozenset(g.hex for g in s.guards
                     if g.placed and g.status != DISTRACTED and guard_reach(s, g) == 0)


def way_table(board: Board, goals: tuple[int, ...], opened: int,
              held: frozenset[int]) -> tuple[int, ...]:
    """Per hex, the cost of a thief's way to the nearest of ``goals``: one per step, a closed
    Special Hex (tiles not in ``opened``) ``CLOSED_SPECIAL`` more, a ``held`` hex ``HELD``
    more; ``FAR`` with no way. Remembered (``CACHE_LIMIT``); callers must not change it."""
    key = (board, goals, opened, held)
    known = _TABLES.get(key)
    if known is not None:
        return known
    cost = [FAR] * board.size
    queue = []
    for g in goals:
        cost[g] = 0
        queue.append((0, g))
    heapq.heapify(queue)
    step, special, tile_of = board.step, board.special, board.tile_of
    while queue:
        d, here = heapq.heappop(queue)
        if d > cost[here]:
            continue
        enter = d + 1  # the cost of stepping from a neighbour into ``here``
        if special[here] and not opened >> tile_of[here] & 1:
            enter += CLOSED_SPECIAL
        if here in held:
            enter += HELD
        for there in step[here]:
            if there >= 0 and enter < cost[there]:
                cost[there] = enter
                heapq.heappush(queue, (enter, there))
    table = tuple(cost)
    if len(_TABLES) >= CACHE_LIMIT:
        _TABLES.clear()
    _TABLES[key] = table
    return table


def exit_hexes(s: State, t: Thief) -> tuple[int, ...]:
    """The outside edge hexes of ``t``'s Exit tile (6.7)."""
    return s.board.tiles[t.exit_tile].outside_edge if t.exit_tile != NONE else ()


def fetcher(s: State) -> int:
    """Co-op: the seat of the thief that goes for the crown for the crew, the first in seat
    order still in play (one real treasure is enough to win, section 9, and every thief near
    the crown is one more to be caught); the others make for their Exit tiles and wait there.
    ``NONE`` when no thief is in play."""
    return next((p for p, t in enumerate(s.thieves) if t.standing == IN_PLAY), NONE)


def wants_treasure(s: State, seat: int) -> bool:
    """Whether thief ``seat`` still goes for the crown: it carries no treasure, tokens lie
    there (6.6), and in co-op no other thief of the crew carries a real one already and it is
    the crew's ``fetcher``."""
    t = s.thieves[seat]
    if t.treasure != NONE or not s.treasures:
        return False
    if s.mode == "rivals":
        return True
    if any(carries_real_treasure(o) for p, o in enumerate(s.thieves) if p != seat):
        return False
    return fetcher(s) in (seat, NONE)


def way_to_go(s: State, seat: int, opened: int | None = None) -> int:
    """Thief ``seat``'s cost still to go (steps, see the module): by the crown while it wants a
    treasure, then to its Exit tile's edge and one step off; 0 once escaped, ``FAR`` once out
    of the game. ``opened``: the tiles whose Special Hexes count as open (default: the
    thief's own, ``opened_tiles``)."""
    t = s.thieves[seat]
    if t.standing == ESCAPED:
        return 0
    if t.standing != IN_PLAY or t.hex == NONE:
        return FAR
    board = s.board
    if opened is None:
        opened = opened_tiles(t)
    held = held_hexes(s)
    exits = way_table(board, exit_hexes(s, t), opened, held)
    if wants_treasure(s, seat):
        crown = way_table(board, (board.crown,), opened, held)
        return min(FAR, crown[t.hex] + exits[board.crown] + 1)
    return min(FAR, exits[t.hex] + 1)


def goal_table(s: State, seat: int) -> tuple[int, ...]:
    """``way_table`` to thief ``seat``'s next goal: the crown while it wants a treasure, else
    the outside edge hexes of its Exit tile."""
    t = s.thieves[seat]
    board = s.board
    goals = (board.crown,) if wants_treasure(s, seat) else exit_hexes(s, t)
    return way_table(board, goals, opened_tiles(t), held_hexes(s))


def needs_lockpicks(s: State, seat: int) -> bool:
    """Whether thief ``seat``'s way is shorter through Special Hexes it cannot open yet (it has
    no Lockpicks, and no key for them)."""
    t = s.thieves[seat]
    if t.lockpicks or t.standing != IN_PLAY or t.hex == NONE:
        return False
    return way_to_go(s, seat, -1) < way_to_go(s, seat)


# --- danger -------------------------------------------------------------------------------------
def guard_reach(s: State, g: Guard) -> int:
    """How many steps ``g`` may take toward a thief in its next Guard Phase: none while
    Distracted, a Stationary guard in its routine (it only turns) or a Roving guard with no
    marker to go for; two while Pursuing (undead one, R34); one otherwise."""
    if not g.placed or g.status == DISTRACTED:
        return 0
    if g.status == PURSUING:
        return 1 if g.undead else s.params.pursuing_steps
    if g.type == STATIONARY and g.home is None:
        return 0
    if g.type == ROVING and not s.markers:
        return 0
    return 1


def next_route_hex(s: State, g: Guard) -> int:
    """The hex a Patrolling or Wandering guard in its routine steps into next (``NONE`` for
    other guards)."""
    if g.status not in (BORED, INTERESTED) or g.type not in (PATROLLING, WANDERING):
        return NONE
    tile = s.board.tiles[g.tile]
    route = tile.green_line if g.type == PATROLLING else tile.red_arrows
    if not route:
        return NONE
    pos = g.route_pos + g.route_dir
    if g.type == WANDERING:
        pos %= len(route)
    return route[pos] if 0 <= pos < len(route) else NONE


def danger(s: State, seat: int) -> float:
    """How close the guards are to thief ``seat`` if it stayed where it is: 2 for each guard
    hunting (Alert, Pursuing, Returning) that could step into its hex in the next Guard Phase,
    and 0.5 for one within twice that; 2 for a guard whose routine steps into it next; 0.5
    for each guard that sees it now; 1 for a Thief Marker on its hex (the guards investigate
    markers, 4.7), 1 more with a hunting guard within 6 steps."""
    t = s.thieves[seat]
    if t.standing != IN_PLAY or t.hex == NONE:
        return 0.0
    board = s.board
    here = t.hex
    dist = board.distances(here)
    view = sight(board)
    lit: frozenset[int] | None = None
    eye = t.treasure == EYE
    value = 0.0
    hunters_near = False
    for g in s.guards:
        if not g.placed or g.status == DISTRACTED:
            continue
        seen = view.seen(g.hex, g.facing, g.status, s.params.bored_reach)
        if here in seen:
            if lit is None:
                lit = view.lit(s.extinguished, s.params.torch_reach)
            if can_spot(board, seen, lit, g.hex, here, t.hiding, eye):
                value += 0.5
        d = dist[g.hex]
        if d < 0:
            continue
        if g.status in (BORED, INTERESTED):
            if next_route_hex(s, g) == here:
                value += 2.0
            continue
        reach = guard_reach(s, g)
        if reach <= 0:
            continue
        if d <= reach:
            value += 2.0
        elif d <= 2 * reach + 1:
            value += 0.5
        if d <= 6:
            hunters_near = True
    if here in s.markers:
        value += 2.0 if hunters_near else 1.0
    return value


# --- chances ------------------------------------------------------------------------------------
def rounds_left(s: State) -> int:
    """Rounds still to play, this one included (the dawn round is the last, R56)."""
    last = s.params.dawn or s.board.dawn
    return max(0, last - s.round + (1 if s.phase in ("resource", "plan", "setup", "") else 0))


FEATURES: Final[tuple[str, ...]] = (
    "bias", "way", "late", "wounds_lost", "danger", "treasure", "locked",
)
"""What ``features`` measures of a thief in play, in order (``WEIGHTS`` weighs them)."""
WEIGHTS: Final[tuple[float, ...]] = (-0.8, -0.5, -4.5, -0.7, -0.6, 2.2, -0.3)
"""The weights of ``FEATURES`` in ``thief_chance``'s logistic: a logistic regression on who won
90 solo heuristic games (30 per shipped scenario, medium; log loss 0.28 against 0.47 for the
base rate), rounded, with the way's weight held negative (the fit alone made it slightly
positive, the scenarios' different lengths standing in for it) and "locked" set by hand."""


def features(s: State, seat: int) -> list[float]:
    """Thief ``seat``'s standing as numbers on similar scales: 1; the way to go (tens of
    steps); how many rounds (tens) it is late for dawn at ``STEPS_PER_ROUND``; wounds lost;
    ``danger``; 1 if it carries a real treasure; 1 if its way needs Lockpicks it lacks."""
    t = s.thieves[seat]
    togo = way_to_go(s, seat)
    late = max(0.0, togo / STEPS_PER_ROUND - rounds_left(s))
    return [1.0, togo / 10, late / 10, float(s.params.wounds - t.wounds), danger(s, seat),
            1.0 if carries_real_treasure(t) else 0.0, 1.0 if needs_lockpicks(s, seat) else 0.0]


def thief_chance(s: State, seat: int) -> float:
    """Thief ``seat``'s chance of getting out with what it needs: 1 once escaped with a real
    treasure (co-op: escaped at all), 0 if caught, killed or out of reach of its goal;
    otherwise the logistic of the weighed ``features``."""
    t = s.thieves[seat]
    if t.standing in (CAUGHT, KILLED):
        return 0.0
    if t.standing == ESCAPED:
        return 1.0 if carries_real_treasure(t) or s.mode == "coop" else 0.0
    values = features(s, seat)
    if values[1] * 10 >= FAR:
        return 0.0
    z = sum(w * x for w, x in zip(WEIGHTS, values, strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def crew_chance(s: State) -> float:
    """Solo and co-op: the chance that every thief gets out and the crew carries a real
    treasure (section 9): the product of the thieves' chances; 0 once one is caught."""
    chance = 1.0
    for seat in range(s.n):
        chance *= thief_chance(s, seat)
    if not any(carries_real_treasure(t) for t in s.thieves) and not s.treasures:
        return 0.0
    return chance


def evaluate(s: State) -> list[float]:
    """Each seat's share of winning, on the scale of ``Outcome.shares`` (winners split 1).
    Solo and co-op have one shared result, so every seat gets the crew's chance divided by the
    number of thieves (all win together, each then scores ``1 / n``). Rivals: each seat's
    chance, scaled down so they sum to at most 1 (only one can be first out)."""
    n = s.n
    if s.result is not None:
        return s.result.shares(n)
    if s.mode != "rivals":
        share = crew_chance(s) / n
        return [share] * n
    chances = [thief_chance(s, p) for p in range(n)]
    total = sum(chances)
    return [c / total for c in chances] if total > 1.0 else chances
