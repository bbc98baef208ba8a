"""The Guards! Guards! board's geometry, precomputed once at import.

Walkable neighbours, hex and walking distances, every shortest route, the quadrants a Spell
Run passes, nearest places, the Luggage track and pixel positions. Every function takes and
returns tile indexes (see ``data.TILES``) and is cheap enough for the engine's hot loop.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Final

from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    LUGGAGE_TRACK,
    SHOP_KINDS,
    TILES,
    WALLS,
    DataError,
)

DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""The six axial (dq, dr) steps to a hex's neighbours, in the JSON's order."""

_N: Final = len(TILES)
_AT: Final = {(t.q, t.r): t.index for t in TILES}
_WALLS: Final = {frozenset(w) for w in WALLS}


def _neighbours(tile: int) -> tuple[int, ...]:
    t = TILES[tile]
    out = []
    for dq, dr in DIRECTIONS:
        other = _AT.get((t.q + dq, t.r + dr))
        if other is not None and frozenset((tile, other)) not in _WALLS:
            out.append(other)
    return tuple(out)


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(i) for i in range(_N))
"""Each tile's walkable neighbours: adjacent listed tiles not parted by a wall."""

HEX_DISTANCE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((abs(a.q - b.q) + abs(a.r - b.r) + abs(a.q + a.r - b.q - b.r)) // 2 for b in TILES)
    for a in TILES
)
"""``HEX_DISTANCE[a][b]``: hex distance, ignoring buildings, river and University (ruling 17)."""


def hex_distance(a: int, b: int) -> int:
    """Hex distance between two tiles, through anything (ruling 17: "within N tiles")."""
    return HEX_DISTANCE[a][b]


def _bfs(start: int) -> tuple[int, ...]:
    dist = [-1] * _N
    dist[start] = 0
    todo = deque([start])
    while todo:
        u = todo.popleft()
        for v in NEIGHBOURS[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                todo.append(v)
    if -1 in dist:
        lost = TILES[dist.index(-1)]
        raise DataError(f"the board is not connected: {lost.id} cannot be reached from "
                        f"{TILES[start].id}")
    return tuple(dist)


WALK: Final[tuple[tuple[int, ...], ...]] = tuple(_bfs(i) for i in range(_N))
"""``WALK[a][b]``: the fewest walking steps from tile ``a`` to tile ``b``."""

_BY_WALK: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple(sorted(((b, WALK[a][b]) for b in range(_N)), key=lambda p: (p[1], p[0])))
    for a in range(_N)
)


def _closer(tile: int, goal: int) -> tuple[int, ...]:
    to_goal = WALK[goal]
    want = to_goal[tile] - 1
    return tuple(v for v in NEIGHBOURS[tile] if to_goal[v] == want)


@lru_cache(maxsize=4096)
def shortest_routes(start: int, goal: int) -> tuple[tuple[int, ...], ...]:
    """Every shortest walking path from ``start`` to ``goal``, both included, in a fixed order
    (depth first, neighbours in :data:`DIRECTIONS` order); ruling 34's Spell Run routes."""
    if start == goal:
        return ((start,),)
    return tuple((start, *rest) for v in _closer(start, goal) for rest in shortest_routes(v, goal))


def route_quadrants(route: tuple[int, ...], guild: int,
                    gate_guilds: Mapping[int, int] | None = None) -> tuple[int, ...]:
    """The quadrants a run along ``route`` passes, in order, without consecutive repeats
    (ruling 35). The route's last tile, the runner's gate, counts as ``guild``; a border gate
    passed on the way counts as its owner's guild quadrant from ``gate_guilds`` (gate tile ->
    quadrant), or as both its quadrants if nobody owns it (ruling 5)."""
    out: list[int] = []
    last = len(route) - 1
    for k, tile in enumerate(route):
        t = TILES[tile]
        if k == last and t.kind == "start_gate":
            quads: tuple[int, ...] = (guild,)
        elif t.quadrant >= 0:
            quads = (t.quadrant,)
        elif gate_guilds is not None and tile in gate_guilds:
            quads = (gate_guilds[tile],)
        elif out and out[-1] == t.border_of[1]:
            quads = (t.border_of[1], t.border_of[0])
        else:
            quads = t.border_of
        for q in quads:
            if not out or out[-1] != q:
                out.append(q)
    return tuple(out)


def nearest(tile: int, targets: Iterable[int]) -> tuple[int, ...]:
    """The targets at the fewest walking steps from ``tile``: all of them if tied (ruling 18),
    in the order given; ``()`` if there are no targets."""
    row = WALK[tile]
    pool = tuple(dict.fromkeys(targets))
    if not pool:
        return ()
    best = min(row[t] for t in pool)
    return tuple(t for t in pool if row[t] == best)


_DECKS_OF: Final[dict[str, tuple[int, ...]]] = {
    kind: tuple(d.index for d in DECK_SPACES if d.deck == kind) for kind in SHOP_KINDS
}


def nearest_deck(tile: int, deck: str) -> tuple[int, ...]:
    """The ``DECK_SPACES`` indexes of kind ``deck`` ("odds_and_sods"/"curses_and_cures")
    whose shop is fewest walking steps from ``tile``, all of them if tied (ruling 18)."""
    try:
        spaces = _DECKS_OF[deck]
    except KeyError:
        raise ValueError(f"unknown deck kind {deck!r}") from None
    row = WALK[tile]
    best = min(row[DECK_SPACES[d].shop] for d in spaces)
    return tuple(d for d in spaces if row[DECK_SPACES[d].shop] == best)


def _within(tile: int, distance: int) -> tuple[int, ...]:
    row = HEX_DISTANCE[tile]
    return tuple(b for b in range(_N) if row[b] <= distance)


_WITHIN: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_within(t, d) for t in range(_N)) for d in range(3)
)


def within(tile: int, distance: int) -> tuple[int, ...]:
    """The tiles at hex distance ``distance`` or less from ``tile``, itself included, in index
    order (ruling 17; precomputed for distances 0 to 2)."""
    if 0 <= distance < len(_WITHIN):
        return _WITHIN[distance][tile]
    return _within(tile, distance)


def reachable(tile: int, steps: int) -> dict[int, int]:
    """Tiles within ``steps`` walking steps of ``tile`` (itself included) -> their steps,
    nearest first; pieces in the way are not considered."""
    out: dict[int, int] = {}
    for other, d in _BY_WALK[tile]:
        if d > steps:
            break
        out[other] = d
    return out


def _luggage_next() -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, int], str]]:
    track = LUGGAGE_TRACK
    split = track.before[-1]
    rejoin = track.after[0]
    nxt: list[tuple[int, ...]] = [()] * _N
    branch_names: dict[tuple[int, int], str] = {}
    for name, branch in (("grey", track.grey), ("orange", track.orange)):
        loop = track.before + branch + track.after
        for k, u in enumerate(loop):
            v = loop[(k + 1) % len(loop)]
            if v not in NEIGHBOURS[u]:
                raise DataError(f"Luggage track ({name} way): {TILES[u].id} -> {TILES[v].id} "
                                "is not a step between neighbours")
            if v not in nxt[u]:
                nxt[u] = (*nxt[u], v)
        branch_names[(split, branch[0])] = name
        if loop[loop.index(branch[-1]) + 1] != rejoin:
            raise DataError(f"the Luggage's {name} branch does not rejoin the track")
    return tuple(nxt), branch_names


LUGGAGE_START: Final[int] = LUGGAGE_TRACK.start
"""The Luggage's tile at setup."""
LUGGAGE_NEXT: tuple[tuple[int, ...], ...]
"""For each tile, the next tile(s) clockwise along the Luggage track (ruling 79): ``()`` off
the track, two at the split (grey first, then orange)."""
LUGGAGE_BRANCH_NAMES: dict[tuple[int, int], str]
"""(split tile, next tile) -> "grey" or "orange"."""
LUGGAGE_NEXT, LUGGAGE_BRANCH_NAMES = _luggage_next()
_ON_TRACK: Final = frozenset(i for i in range(_N) if LUGGAGE_NEXT[i])


def on_luggage_track(tile: int) -> bool:
    """True if the Luggage track runs through ``tile``."""
    return tile in _ON_TRACK


def luggage_paths(tile: int, tiles: int) -> tuple[tuple[int, ...], ...]:
    """Every way the Luggage on ``tile`` can move ``tiles`` tiles clockwise: each path lists
    the tiles it enters, in order (grey before orange at the split)."""
    paths: list[tuple[int, ...]] = [()]
    for _ in range(tiles):
        paths = [(*p, v) for p in paths for v in LUGGAGE_NEXT[p[-1] if p else tile]]
    return tuple(paths)


PIXELS: Final[tuple[tuple[float, float], ...]] = tuple(
    (1.5 * t.q, math.sqrt(3) * (t.r + t.q / 2)) for t in TILES
)
"""Each tile's centre as (x, y) for unit flat-top hexes; y grows southwards (north up)."""


def pixel(tile: int) -> tuple[float, float]:
    """The tile's centre: x = 1.5 q, y = sqrt(3) (r + q / 2)."""
    return PIXELS[tile]
