"""The map of a scenario (spec sections 2.5-2.9): floor hexes numbered 0..n-1, open sides,
Special Hexes, tiles with their markers and guards, torches, the crown.

A ``Board`` never changes during play, so states share one and everything derived from it
(walking distances here, fields of view in ``sight``, the browser's map) is kept on it. Build
one from a scenario's JSON with ``Board.from_scenario``; ``scenario.load`` checks the JSON first.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Final

from citywatch.games.black_keep.hexes import Hex, label, neighbour, parse

TILE_SIZE: Final = 7
"""A tile is 7 columns by 7 rows of the global label grid (ruling 3)."""
BLOCKED: Final = -1
"""``Board.step`` across a wall, into a solid hex or off the map."""


@dataclass(frozen=True)
class GuardSlot:
    """A guard a tile lists: its role (basic, hard, vault, roving), type and undead flag."""

    role: str
    type: str
    undead: bool = False


@dataclass(frozen=True)
class Tile:
    """One 7x7 tile: its hexes (floor indices), outside edge hexes, entry/exit flags, guard
    markers (hex indices; routes as tuples) and listed guards."""

    id: str
    name: str
    hexes: tuple[int, ...]
    outside_edge: tuple[int, ...]
    entry: bool
    exit: bool
    crescent: int | None
    star: int | None
    shield: int | None
    green_line: tuple[int, ...]
    red_arrows: tuple[int, ...]
    red_shields: tuple[int, ...]
    guards: tuple[GuardSlot, ...]


@dataclass(frozen=True, eq=False)
class Board:
    """A scenario's map. Hexes are indices into ``hexes``; ``step[i][f]`` is the hex across
    side ``f`` of hex ``i`` or ``BLOCKED``."""

    id: str
    name: str
    dawn: int
    advanced: bool
    min_players: int
    max_players: int
    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    labels: tuple[str, ...]
    step: tuple[tuple[int, ...], ...]
    off_map: tuple[tuple[int, ...], ...]
    """Per hex, the facings whose side is the map's edge (not a solid hex): ways out."""
    special: tuple[bool, ...]
    special_kind: dict[int, str]
    solid: frozenset[Hex]
    walls: frozenset[frozenset[Hex]]
    tile_of: tuple[int, ...]
    tiles: tuple[Tile, ...]
    torches: tuple[int, ...]
    vault_tile: int
    crown: int
    vault_guard: bool
    source: dict[str, Any] = field(repr=False)
    """The scenario's JSON, as given (records and positions name the scenario by it)."""
    _distances: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    derived: dict[str, Any] = field(default_factory=dict, repr=False)
    """What other modules make from the board once and keep with it, by name (its ``Sight``,
    its map for the browser): kept here, not in a weak dictionary, since a compiled board
    takes no weak references."""

    @property
    def size(self) -> int:
        """The number of floor hexes."""
        return len(self.hexes)

    def at(self, text: str) -> int:
        """The floor hex of a label; ``ValueError`` if it is not a floor hex of this map."""
        h = parse(text)
        if h not in self.index:
            raise ValueError(f"{text} is not a floor hex of {self.name}")
        return self.index[h]

    def distances(self, source: int) -> tuple[int, ...]:
        """Steps from ``source`` to every hex along open sides (Special Hexes passable, as
        guards walk and sound travels); -1 where there is no way (cached)."""
        known = self._distances.get(source)
        if known is not None:
            return known
        dist = [-1] * self.size
        dist[source] = 0
        queue = deque([source])
        step = self.step
        while queue:
            here = queue.popleft()
            d = dist[here] + 1
            for there in step[here]:
                if there >= 0 and dist[there] < 0:
                    dist[there] = d
                    queue.append(there)
        result = tuple(dist)
        self._distances[source] = result
        return result

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its scenario's JSON, read again when unpickled (a compiled frozen
        dataclass cannot be filled field by field)."""
        return (Board.from_scenario, (self.source,))

    @classmethod
    def from_scenario(cls, doc: dict[str, Any]) -> Board:
        """The board of a scenario's JSON (assumed valid: see ``scenario.problems``)."""
        floor: list[Hex] = []
        tile_hexes: list[list[Hex]] = []
        solid: set[Hex] = set()
        for tile in doc["tiles"]:
            cols = [parse(c + "1")[0] for c in tile["cols"].split("-")]
            rows = [int(r) for r in tile["rows"].split("-")]
            own_solid = {parse(t) for t in tile.get("solid", [])}
            solid |= own_solid
            these = [(q, (row - 1) - (q - (q & 1)) // 2)
                     for q in range(cols[0], cols[1] + 1) for row in range(rows[0], rows[1] + 1)]
            tile_hexes.append([h for h in these if h not in own_solid])
            floor += tile_hexes[-1]
        hexes = tuple(sorted(floor))
        index = {h: i for i, h in enumerate(hexes)}
        walls = frozenset(frozenset((parse(a), parse(b))) for a, b in doc.get("walls", []))
        step: list[tuple[int, ...]] = []
        off_map: list[tuple[int, ...]] = []
        for h in hexes:
            row = []
            outs = []
            for f in range(6):
                n = neighbour(h, f)
                if n not in index:
                    row.append(BLOCKED)
                    if n not in solid:
                        outs.append(f)
                elif frozenset((h, n)) in walls:
                    row.append(BLOCKED)
                else:
                    row.append(index[n])
            step.append(tuple(row))
            off_map.append(tuple(outs))
        special_kind = {index[parse(s["hex"])]: str(s["kind"]) for s in doc.get("special", [])}
        tile_of = [0] * len(hexes)
        tiles = []
        for k, (tile, these_hexes) in enumerate(zip(doc["tiles"], tile_hexes, strict=True)):
            for h in these_hexes:
                tile_of[index[h]] = k
            marks = tile.get("markers", {})

            def one(name: str, marks: dict[str, Any] = marks) -> int | None:
                return index[parse(marks[name])] if name in marks else None

            def many(name: str, marks: dict[str, Any] = marks) -> tuple[int, ...]:
                return tuple(index[parse(t)] for t in marks.get(name, []))

            tiles.append(Tile(
                id=str(tile["id"]), name=str(tile["name"]),
                hexes=tuple(sorted(index[h] for h in these_hexes)),
                outside_edge=tuple(index[parse(t)] for t in tile.get("outside_edge", [])),
                entry=bool(tile.get("entry", False)), exit=bool(tile.get("exit", False)),
                crescent=one("crescent"), star=one("star"), shield=one("shield"),
                green_line=many("green_line"), red_arrows=many("red_arrows"),
                red_shields=many("red_shields"),
                guards=tuple(GuardSlot(str(g["role"]), str(g["type"]), bool(g.get("undead")))
                             for g in tile.get("guards", []))))
        vault = doc["vault"]
        vault_tile = next(k for k, t in enumerate(tiles) if t.id == vault["tile"])
        return cls(
            id=str(doc["id"]), name=str(doc["name"]), dawn=int(doc["dawn"]),
            advanced=bool(doc.get("advanced", False)),
            min_players=int(doc["players"]["min"]), max_players=int(doc["players"]["max"]),
            hexes=hexes, index=index, labels=tuple(label(h) for h in hexes), step=tuple(step),
            off_map=tuple(off_map),
            special=tuple(i in special_kind for i in range(len(hexes))),
            special_kind=special_kind, solid=frozenset(solid), walls=walls,
            tile_of=tuple(tile_of), tiles=tuple(tiles),
            torches=tuple(index[parse(t)] for t in doc.get("torches", [])),
            vault_tile=vault_tile, crown=index[parse(vault["crown"])],
            vault_guard=bool(vault.get("vault_guard", False)), source=doc)
