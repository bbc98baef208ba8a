"""The Black Keep state: the scenario's ``Board`` (shared, never changed), the guards, the
thieves, the public Thief Markers and counters, the decks, and the decision stack.

Hexes are ``Board`` indices. A guard's fields are all public (spec section 10); a thief's
``hex`` (its Location Dial) and ``plan`` are secret, and only ``referee`` reads them on the
guards' behalf. This module imports nothing of the rules above it: the State API methods that
need them call through ``STATE_HOOKS``, which those modules fill when they are imported.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from citywatch.core.stack import StackedState, StateHooks
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.params import Parameters

NONE: Final = -1
"""No hex, card, target or treasure."""

# guard types (``Guard.type``)
STATIONARY: Final = 0
PATROLLING: Final = 1
WANDERING: Final = 2
ROVING: Final = 3
GUARD_TYPES: Final[tuple[str, ...]] = ("stationary", "patrolling", "wandering", "roving")
# guard statuses (``Guard.status``), spec 4.2
DISTRACTED: Final = 0
BORED: Final = 1
INTERESTED: Final = 2
ALERT: Final = 3
PURSUING: Final = 4
RETURNING: Final = 5
STATUSES: Final[tuple[str, ...]] = (
    "distracted", "bored", "interested", "alert", "pursuing", "returning")
DEFAULT_STATUS: Final[tuple[int, ...]] = (BORED, INTERESTED, INTERESTED, ALERT)
"""Each guard type's default status (spec 4.2)."""
# thief standing (``Thief.standing``)
IN_PLAY: Final = 0
ESCAPED: Final = 1
CAUGHT: Final = 2
KILLED: Final = 3
STANDINGS: Final[tuple[str, ...]] = ("in play", "escaped", "caught", "killed")
# modes and difficulties
MODES: Final[tuple[str, ...]] = ("solo", "coop", "rivals")
DIFFICULTIES: Final[tuple[str, ...]] = ("easy", "medium", "hard")

GuardSnapshot = tuple[int, int, int, int]
"""One entry of ``BlackKeepState.guard_trace``: a guard's index, hex, facing and status."""


class Home:
    """Where a guard left its default status (ruling 38): hex, route index and direction,
    facing."""

    __slots__ = ("hex", "route_pos", "route_dir", "facing")

    def __init__(self, hex: int, route_pos: int, route_dir: int, facing: int) -> None:
        self.hex = hex
        self.route_pos = route_pos
        self.route_dir = route_dir
        self.facing = facing

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Home) and (self.hex, self.route_pos, self.route_dir,
                                            self.facing) == (other.hex, other.route_pos,
                                                             other.route_dir, other.facing)

    def __hash__(self) -> int:
        return hash((self.hex, self.route_pos, self.route_dir, self.facing))

    def __reduce__(self) -> tuple[type[Home], tuple[int, int, int, int]]:
        """Pickled as a call of the class with the fields (a compiled class's ``__new__``
        needs them)."""
        return (Home, (self.hex, self.route_pos, self.route_dir, self.facing))


GUARD_FIELDS: Final[tuple[str, ...]] = (
    "tile", "role", "type", "undead", "bow", "status", "hex", "facing", "route_pos", "route_dir",
    "home", "target", "key", "coins", "placed", "shot")
"""A guard's fields, in order (its ``__slots__``; ``intentions.public_key`` reads them all)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class Guard:
    """One guard (spec 4.1). Every field is public. ``route_pos`` indexes the green line
    (Patrolling) or the red arrows (Wandering); ``route_dir`` is +1 or -1. ``target`` is the
    hex of the Thief Marker it is heading for. ``shot`` is a bitmask of the thieves (seats) it
    has shot this round (ruling 39)."""

    __slots__ = GUARD_FIELDS

    def __init__(self, tile: int, role: str, type: int, undead: bool = False) -> None:
        self.tile = tile
        self.role = role  # basic, hard, vault, roving
        self.type = type
        self.undead = undead
        self.bow = False
        self.status = DEFAULT_STATUS[type]
        self.hex = NONE
        self.facing = 0
        self.route_pos = 0
        self.route_dir = 1
        self.home: Home | None = None
        self.target = NONE
        self.key = not undead
        self.coins = 0
        self.placed = False
        self.shot = 0

    def copy(self) -> Guard:
        c = Guard.__new__(Guard)
        c.tile = self.tile
        c.role = self.role
        c.type = self.type
        c.undead = self.undead
        c.bow = self.bow
        c.status = self.status
        c.hex = self.hex
        c.facing = self.facing
        c.route_pos = self.route_pos
        c.route_dir = self.route_dir
        c.home = self.home  # never changed in place
        c.target = self.target
        c.key = self.key
        c.coins = self.coins
        c.placed = self.placed
        c.shot = self.shot
        return c


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class Thief:
    """One thief (spec 6.1). ``hex`` is its Location Dial (secret; NONE once off the map);
    ``hand`` and ``discard`` hold thief card indices; ``guard_cards`` the Guard cards bought
    and not yet played; ``keys`` a bitmask of tiles whose key it holds; ``treasure`` a
    treasure index or NONE; ``plan`` its committed plan (secret until the reveal) or None;
    ``possible`` the hexes where, from public facts alone, it may be (spec 10; None: anywhere):
    public, it always holds ``hex``, and determinization samples from it."""

    __slots__ = ("hex", "wounds", "hand", "discard", "coins", "guard_cards", "lockpicks",
                 "keys", "treasure", "armour_used", "sword_used", "exit_tile", "hiding",
                 "standing", "plan", "possible")

    def __init__(self) -> None:
        self.hex = NONE
        self.wounds = 0
        self.hand: list[int] = []
        self.discard: list[int] = []
        self.coins = 0
        self.guard_cards: list[int] = []
        self.lockpicks = False
        self.keys = 0
        self.treasure = NONE
        self.armour_used = False
        self.sword_used = False
        self.exit_tile = NONE
        self.hiding = False
        self.standing = IN_PLAY
        self.plan: tuple[int, ...] | None = None
        self.possible: frozenset[int] | None = None

    def copy(self) -> Thief:
        c = Thief.__new__(Thief)
        c.hex = self.hex
        c.wounds = self.wounds
        c.hand = self.hand[:]
        c.discard = self.discard[:]
        c.coins = self.coins
        c.guard_cards = self.guard_cards[:]
        c.lockpicks = self.lockpicks
        c.keys = self.keys
        c.treasure = self.treasure
        c.armour_used = self.armour_used
        c.sword_used = self.sword_used
        c.exit_tile = self.exit_tile
        c.hiding = self.hiding
        c.standing = self.standing
        c.plan = self.plan  # a tuple
        c.possible = self.possible  # a frozenset, never changed in place
        return c


STATE_HOOKS: Final = StateHooks()
"""Filled at import time by the modules above this one (see ``StackedState``)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class BlackKeepState(StackedState):
    """One moment of a game of Thieves of the Black Keep."""

    __slots__ = (
        "board", "params", "mode", "difficulty", "advanced", "guards", "thieves", "markers",
        "marker_count", "extinguished", "guard_deck", "market", "exit_deck", "treasures",
        "vault_triggered", "round", "phase", "guard_trace",
    )

    def __init__(self, board: Board, params: Parameters, thieves: int) -> None:
        self.n = thieves
        self.board = board
        self.params = params
        self.mode = "solo" if thieves == 1 else "coop"
        self.difficulty = "medium"
        self.advanced = board.advanced
        self.guards: list[Guard] = []  # in listing order (ruling 23)
        self.thieves = [Thief() for _ in range(thieves)]
        self.markers: dict[int, int] = {}  # hex -> placement order (ruling 43), public
        self.marker_count = 0  # markers placed so far (the next one's order)
        self.extinguished: frozenset[int] = frozenset()  # torch hexes put out
        self.guard_deck: list[int] = []  # top is the end
        self.market: list[int] = []  # face-up Guard cards (NONE: an empty place)
        self.exit_deck: list[int] = []  # tile indices, top is the end
        self.treasures: list[int] = []  # face-down tokens on the crown, top is the end
        self.vault_triggered = False  # a thief has stepped onto the Vault tile
        self.round = 0
        self.phase = ""  # resource, plan, thief, guard, over
        self.turn = 0
        self.init_stacked_parts()
        self.guard_trace: tuple[GuardSnapshot, ...] = ()
        """The last Guard Phase, public, for replays: every guard as it stood when the phase
        began (one entry each, in listing order), then one entry each time a guard stepped,
        turned or changed status (``guards.guard_phase``). Replaced, never changed in place."""

    # --- the State API (the rest comes from ``StackedState`` through ``STATE_HOOKS``) ----
    HOOKS = STATE_HOOKS

    def copy(self) -> BlackKeepState:
        c = BlackKeepState.__new__(BlackKeepState)
        c.board = self.board
        c.params = self.params
        c.mode = self.mode
        c.difficulty = self.difficulty
        c.advanced = self.advanced
        c.guards = [g.copy() for g in self.guards]
        c.thieves = [t.copy() for t in self.thieves]
        c.markers = self.markers.copy()
        c.marker_count = self.marker_count
        c.extinguished = self.extinguished
        c.guard_deck = self.guard_deck[:]
        c.market = self.market[:]
        c.exit_deck = self.exit_deck[:]
        c.treasures = self.treasures[:]
        c.vault_triggered = self.vault_triggered
        c.round = self.round
        c.phase = self.phase
        c.guard_trace = self.guard_trace  # a tuple, never changed in place
        return self.copy_stacked_parts(c)

    # --- dice ----------------------------------------------------------------------------
    def roll(self) -> int:
        """One roll of the black six-sided die (1-6)."""
        return self.rng.roll(6)
