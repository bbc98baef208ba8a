"""Thieves of the Black Keep test situations built from text: a scenario (or a small test map)
plus guards, thieves, markers and torches placed by label.

``game`` gives a state with the guards created (``guards.create_guards``) but none placed and
every thief off the map; ``guard``, ``thief``, ``marker`` and ``extinguish`` put pieces down;
``scripted`` makes the die roll given faces; ``corridor`` and ``small_board`` build tiny maps for
cases that need a special layout. ``opening`` writes a real game's first plan decision as a
position, ``put_thief`` and ``put_guard`` edit one by labels, and ``load`` reads it back.
Other test files may extend this module with small additive edits.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards as guard_rules
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.board import TILE_SIZE, Board
from citywatch.games.black_keep.hexes import FACINGS, column_letters
from citywatch.games.black_keep.params import Parameters
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import (
    DEFAULT_STATUS,
    GUARD_TYPES,
    IN_PLAY,
    NONE,
    STATUSES,
    BlackKeepState,
    Guard,
    Home,
    Thief,
)

State = BlackKeepState
SCENARIOS = ("tutorial", "the-vault", "the-black-keep")


class ScriptedDice(Rng):
    """A stand-in for the state's generator: ``roll`` pops the scripted faces (a test that
    runs out fails); ``copy`` keeps the faces left."""

    def __init__(self, rolls: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def roll(self, sides: int) -> int:
        assert self.rolls, "the test ran out of scripted die rolls"
        face = self.rolls.pop(0)
        assert 1 <= face <= sides
        return face

    def copy(self) -> ScriptedDice:
        return ScriptedDice(self.rolls)


def board_of(name_or_board: str | Board) -> Board:
    """A shipped scenario's board by id, or the board given."""
    return name_or_board if isinstance(name_or_board, Board) else scenarios.load(name_or_board)


def game(scenario: str | Board = "the-vault", thieves: int = 1, difficulty: str = "medium",
         advanced: bool | None = None, params: Parameters | None = None) -> State:
    """A state on a scenario (or board) with its guards created for ``difficulty`` and
    ``advanced`` (default: the scenario's) but none placed, and every thief off the map with
    its wounds and coins."""
    board = board_of(scenario)
    p = params or Parameters()
    s = BlackKeepState(board, p, thieves)
    s.difficulty = difficulty
    s.advanced = board.advanced if advanced is None else advanced
    for t in s.thieves:
        t.wounds = p.wounds
        t.coins = p.thief_coins
    guard_rules.create_guards(s)
    return s


def scripted(s: State, *rolls: int) -> State:
    """Make ``s``'s die roll ``rolls`` in order; returns ``s``."""
    s.rng = ScriptedDice(rolls)
    return s


def at(s: State, text: str) -> int:
    """The hex index of a label."""
    return s.board.at(text)


def name(s: State, hexes: Iterable[int]) -> list[str]:
    """The labels of some hexes, sorted."""
    return sorted(s.board.labels[h] for h in hexes)


def tile_index(board: Board, tile: str) -> int:
    """A tile's index by its id."""
    for k, t in enumerate(board.tiles):
        if t.id == tile:
            return k
    raise ValueError(f"no tile {tile!r} on {board.name}")


def guard(s: State, where: str, facing: str = "N", status: str | None = None,
          type: str | None = None, tile: str | None = None, **fields: Any) -> Guard:
    """Place a guard on ``where`` facing ``facing``: the first unplaced guard (listing order)
    of ``tile`` (default: the tile of ``where``) and of ``type`` if given; with none, a new
    basic guard of that type is added in listing order. ``status`` defaults to the type's
    default; on its route the route index is set. Other Guard fields by keyword (``bow``,
    ``undead``, ``route_dir``, ``target`` as a label, ``home`` as a label)."""
    board = s.board
    hex = at(s, where)
    k = board.tile_of[hex] if tile is None else tile_index(board, tile)
    kind = None if type is None else GUARD_TYPES.index(type)
    g = next((g for g in s.guards if not g.placed and g.tile == k
              and (kind is None or g.type == kind)), None)
    if g is None:
        g = Guard(k, "basic", kind if kind is not None else 0, bool(fields.get("undead")))
        g.key = not g.undead
        g.coins = 0 if g.undead else s.params.guard_coins
        place = sum(1 for other in s.guards if other.tile <= k)
        s.guards.insert(place, g)
    g.hex = hex
    g.facing = FACINGS.index(facing)
    g.status = DEFAULT_STATUS[g.type] if status is None else STATUSES.index(status)
    g.placed = True
    route = guard_rules.route_of(board, g)
    if hex in route:
        g.route_pos = route.index(hex)
    for key, value in fields.items():
        if key == "target":
            value = at(s, value) if isinstance(value, str) else value
        elif key == "home" and isinstance(value, str):
            value = Home(at(s, value), g.route_pos, g.route_dir, g.facing)
        setattr(g, key, value)
    return g


def without_unplaced(s: State) -> State:
    """Drop every created guard that is not placed and does not wait for the Vault tile, so a
    Guard Phase does not put it on its post: the situation holds only the guards a test placed
    (and the vault guards). Returns ``s``."""
    s.guards = [g for g in s.guards if g.placed or guard_rules.waits_for_vault(s.board, g)]
    return s


def thief(s: State, seat: int, where: str, **fields: Any) -> Thief:
    """Put thief ``seat`` in play on ``where``; other Thief fields by keyword (``hiding``,
    ``treasure``, ``wounds``)."""
    t = s.thieves[seat]
    t.hex = at(s, where)
    t.standing = IN_PLAY
    for key, value in fields.items():
        setattr(t, key, value)
    return t


def marker(s: State, *where: str) -> None:
    """Thief Markers on some hexes, placed in the order given (the last is the newest)."""
    for text in where:
        guard_rules.mark(s, at(s, text))


def extinguish(s: State, *where: str) -> None:
    """Extinguished Torch counters on some torches."""
    s.extinguished = s.extinguished | {at(s, text) for text in where}


def lit(s: State) -> list[str]:
    """The labels of the lit hexes now, sorted."""
    return name(s, sight(s.board).lit(s.extinguished, s.params.torch_reach))


def markers(s: State) -> list[str]:
    """The labels of the hexes holding a Thief Marker, sorted."""
    return name(s, s.markers)


def where(s: State, g: Guard) -> str:
    """A placed guard's hex label (``"-"`` if not placed)."""
    return s.board.labels[g.hex] if g.hex != NONE else "-"


def facing(g: Guard) -> str:
    """A guard's facing by name."""
    return FACINGS[g.facing]


def status(g: Guard) -> str:
    """A guard's status by name."""
    return STATUSES[g.status]


def guard_fields(g: Guard) -> tuple[Any, ...]:
    """Every field of a guard, for comparing guards."""
    home = None if g.home is None else (g.home.hex, g.home.route_pos, g.home.route_dir,
                                        g.home.facing)
    return (g.tile, g.role, g.type, g.undead, g.bow, g.status, g.hex, g.facing, g.route_pos,
            g.route_dir, home, g.target, g.key, g.coins, g.placed, g.shot)


def public_guards(s: State) -> tuple[Any, ...]:
    """Every guard's fields, the markers and the torches: what the guards' rules change."""
    return (tuple(guard_fields(g) for g in s.guards), tuple(sorted(s.markers.items())),
            s.marker_count, tuple(sorted(s.extinguished)))


# --- tiny maps --------------------------------------------------------------------------------
def small_board(open_hexes: Iterable[str], walls: Iterable[tuple[str, str]] = (),
               torches: Iterable[str] = (), special: Iterable[str] = (),
               markers: dict[str, Any] | None = None, crown: str | None = None) -> Board:
    """A board whose only floor hexes are ``open_hexes`` (every other hex of the tiles that
    hold them is solid), on tiles stacked in the first block column (columns A-G). The tiles
    hold one Stationary guard each (markers: ``markers`` on the first tile); the crown is
    ``crown`` or the last open hex. Not a valid scenario for play: a map for rule tests."""
    wanted = list(open_hexes)
    floor = set(wanted)
    rows_needed = max(int("".join(ch for ch in t if ch.isdigit())) for t in wanted)
    tiles = []
    for k in range((rows_needed + TILE_SIZE - 1) // TILE_SIZE):
        top = k * TILE_SIZE + 1
        every = [f"{column_letters(q)}{row}" for q in range(TILE_SIZE)
                 for row in range(top, top + TILE_SIZE)]
        tiles.append({
            "id": f"t{k + 1}", "name": f"Test {k + 1}", "cols": "A-G",
            "rows": f"{top}-{top + TILE_SIZE - 1}",
            "solid": [t for t in every if t not in floor],
            "outside_edge": [], "entry": True, "exit": True,
            "markers": dict(markers or {}) if k == 0 else {},
            "guards": [{"role": "basic", "type": "stationary"}] if k == 0 and markers else [],
        })
    doc = {
        "format": "black-keep-scenario/1", "id": "test", "name": "Test map", "summary": "",
        "players": {"min": 1, "max": 4}, "dawn": 20, "advanced": False,
        "tiles": tiles, "walls": [list(w) for w in walls],
        "special": [{"hex": t, "kind": "door"} for t in special],
        "torches": list(torches),
        "vault": {"tile": "t1", "crown": crown or wanted[-1], "vault_guard": False},
    }
    return Board.from_scenario(doc)


def corridor(length: int = 7, column: str = "D", walls: Iterable[tuple[str, str]] = (),
             torches: Iterable[str] | None = None) -> Board:
    """A one-hex-wide north-south corridor ``column`` 1 to ``length`` (walls on both sides),
    lit end to end by default (a torch every fifth hex from row 3), or by ``torches``."""
    hexes = [f"{column}{row}" for row in range(1, length + 1)]
    if torches is None:
        torches = [f"{column}{row}" for row in range(3, length + 3, 5) if row <= length]
    return small_board(hexes, walls=walls, torches=torches)


# --- positions (docs/black-keep-position.md) ---------------------------------------------------
Position = dict[str, Any]


def opening(scenario: str = "the-vault", thieves: int = 1, mode: str = "coop",
            difficulty: str = "medium", advanced: str = "scenario", seed: int = 1,
            starts: Sequence[str] = ()) -> Position:
    """A real game set up from ``seed`` at its first plan decision, as a position (a copy):
    thief k starts on ``starts[k]`` (default: its first start hex) and nobody buys."""
    from citywatch.games.black_keep.game import GAME

    s = GAME.new_game(thieves, seed, scenario=scenario, mode=mode, difficulty=difficulty,
                      advanced=advanced)
    while s.stack and s.stack[-1][0] in ("start", "buy"):
        seat = s.stack[-1][1]
        legal = {str(a): a for a in s.legal_actions()}
        if s.stack[-1][0] == "buy":
            s.apply(legal["Buy no Guard card"])
        elif seat < len(starts):
            s.apply(legal[f"Set your Location Dial to {starts[seat]}"])
        else:
            s.apply(s.legal_actions()[0])
    return copy.deepcopy(s.position())


def load(pos: Position) -> State:
    """Read a position back (checked by ``from_position``)."""
    from citywatch.games.black_keep.game import GAME

    return GAME.from_position(copy.deepcopy(pos))


def put_thief(pos: Position, seat: int, where: str, possible: Iterable[str] | None = None,
              **fields: Any) -> Position:
    """Move thief ``seat`` of a position to ``where`` (its public possible hexes: ``possible``,
    default just ``where``); other fields by their position names. Returns ``pos``."""
    t = pos["thieves"][seat]
    t["hex"] = where
    t["possible"] = [where] if possible is None else list(possible)
    t.update(fields)
    return pos


def put_guard(pos: Position, number: int, where: str, facing: str = "N", **fields: Any) -> Position:
    """Move guard ``number`` (from 1) of a position to ``where`` facing ``facing``; other
    fields by their position names. Returns ``pos``."""
    g = pos["guards"][number - 1]
    g.update(hex=where, facing=facing, placed=True, **fields)
    return pos
