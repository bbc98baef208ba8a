"""The Ankh-Morpork state: plain data and the board's primitive operations.

Everything is lists of small integers so that ``copy()`` is cheap. Pending
decisions are tuples on ``stack``; the top one says who decides now. The placing
rules and playing a card, shared by symbols, scroll texts and interrupts, are here too.

This module imports nothing of the rules above it: the State API methods that need
them (``legal_actions``, ``apply``, ``view``, ``determinize``, ``position``, ``game``)
call through ``STATE_HOOKS``, which those modules fill when they are imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from citywatch.core.stack import StackedState, StateHooks
from citywatch.games.ankh_morpork.actions import Action, act
from citywatch.games.ankh_morpork.data import (
    ADJACENT_OR_SELF,
    AREAS,
    BUILDINGS_PER_PLAYER,
    CARD_BY_NAME,
    CARDS,
    COLOURS,
    DEMON,
    MINIONS_PER_PLAYER,
    NUM_AREAS,
    SMALL_GODS,
    SMALL_GODS_FEE,
    TROLL,
)

if TYPE_CHECKING:
    pass

Frame = tuple[Any, ...]

DISPLAY: Final = -1  # a City Area card on display
GONE: Final = -2  # a City Area card out of the game (Bloody Stupid Johnson)
NO_BUILDING: Final = -1

WHITEFACE_CARDS: Final = frozenset(
    c.index for c in CARDS if c.effect == "whiteface"
)
LOAN_CARDS: Final = frozenset(c.index for c in CARDS if c.effect == "loan")
INTERRUPT_CARDS: Final = frozenset(c.index for c in CARDS if c.is_interrupt)


STATE_HOOKS: Final = StateHooks()
"""Filled at import time by the modules above this one (see ``StackedState``)."""


class AnkhMorporkState(StackedState):
    """One moment of a game of Ankh-Morpork."""

    __slots__ = (
        "minions", "trolls", "demons", "trouble", "building", "area_card", "gained", "powers_used",
        "money", "hands", "draw_pile", "discard_pile", "in_front", "out_of_game", "in_play",
        "personality", "unused_personalities", "events", "events_done", "current", "played",
        "immune", "text_asked", "seen",
    )

    def __init__(self, players: int = 0) -> None:
        # ``players`` has a default because a mypyc-compiled class's ``__new__`` runs
        # ``__init__`` (``copy`` calls ``AnkhMorporkState.__new__``).
        n = players
        self.n = n
        self.minions: list[list[int]] = [[0] * NUM_AREAS for _ in range(n)]
        self.trolls = [0] * NUM_AREAS
        self.demons = [0] * NUM_AREAS
        self.trouble = [False] * NUM_AREAS
        self.building = [NO_BUILDING] * NUM_AREAS
        self.area_card = [DISPLAY] * NUM_AREAS
        self.gained = 0  # bitmask of areas whose card the active player gained this turn
        self.powers_used = 0  # bitmask of area powers used this turn
        self.money = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []  # top is the last element
        self.discard_pile: list[int] = []  # top is the last element
        self.in_front: list[list[int]] = [[] for _ in range(n)]
        self.out_of_game: list[int] = []
        self.in_play: list[int] = []
        self.personality = [0] * n
        self.unused_personalities: list[int] = []
        self.events: list[int] = []  # remaining random events, next is the last element
        self.events_done: list[int] = []
        self.current = 0
        self.turn = 0
        self.init_stacked_parts()
        self.played: list[int] = []  # cards played this turn, in order
        self.immune = 0  # seats whose Wallace Sonky shields them from the current text
        self.text_asked = 0  # seats already offered Wallace Sonky for the current text
        self.seen: list[list[int]] = [[] for _ in range(n)]  # personalities seen (Mrs Cake)

    # --- the State API (the rest comes from ``StackedState`` through ``STATE_HOOKS``) ----
    HOOKS = STATE_HOOKS

    def copy(self) -> AnkhMorporkState:
        c = AnkhMorporkState.__new__(AnkhMorporkState)
        c.minions = [m[:] for m in self.minions]
        c.trolls = self.trolls[:]
        c.demons = self.demons[:]
        c.trouble = self.trouble[:]
        c.building = self.building[:]
        c.area_card = self.area_card[:]
        c.gained = self.gained
        c.powers_used = self.powers_used
        c.money = self.money[:]
        c.hands = [h[:] for h in self.hands]
        c.draw_pile = self.draw_pile[:]
        c.discard_pile = self.discard_pile[:]
        c.in_front = [f[:] for f in self.in_front]
        c.out_of_game = self.out_of_game[:]
        c.in_play = self.in_play[:]
        c.personality = self.personality[:]
        c.unused_personalities = self.unused_personalities[:]
        c.events = self.events[:]
        c.events_done = self.events_done[:]
        c.current = self.current
        c.played = self.played[:]
        c.immune = self.immune
        c.text_asked = self.text_asked
        c.seen = [s[:] for s in self.seen]
        return self.copy_stacked_parts(c)


    def __repr__(self) -> str:
        return f"<AnkhMorporkState players={self.n} turn={self.turn} to_move={self.to_move}>"

    # --- reading the board -----------------------------------------------------------------
    def colour(self, seat: int) -> str:
        """The seat's colour name."""
        return COLOURS[seat]

    def pieces_in(self, area: int) -> int:
        """Minions of any owner, trolls and demons in ``area``."""
        return sum(m[area] for m in self.minions) + self.trolls[area] + self.demons[area]

    def minions_of(self, owner: int, area: int) -> int:
        """How many of ``owner``'s minions (or trolls, or demons) stand in ``area``."""
        if owner == TROLL:
            return self.trolls[area]
        if owner == DEMON:
            return self.demons[area]
        return self.minions[owner][area]

    def minion_supply(self, seat: int) -> int:
        """Minions of ``seat`` not on the board."""
        return MINIONS_PER_PLAYER - sum(self.minions[seat])

    def buildings_of(self, seat: int) -> list[int]:
        """Areas where ``seat`` has a building."""
        return [a for a in range(NUM_AREAS) if self.building[a] == seat]

    def building_supply(self, seat: int) -> int:
        """Buildings of ``seat`` not on the board."""
        return BUILDINGS_PER_PLAYER - len(self.buildings_of(seat))

    def trouble_count(self) -> int:
        """Trouble markers on the board."""
        return sum(self.trouble)

    def others(self, seat: int) -> list[int]:
        """The other seats, in turn order starting to the left of ``seat``."""
        return [(seat + k) % self.n for k in range(1, self.n)]

    def can_use_small_gods(self, seat: int) -> bool:
        """True if ``seat`` owns Small Gods, its area is demon-free and $3 can be paid."""
        return (
            self.area_card[SMALL_GODS] == seat
            and self.demons[SMALL_GODS] == 0
            and self.money[seat] >= SMALL_GODS_FEE
        )

    # --- changing the board ----------------------------------------------------------------
    def add_piece(self, owner: int, area: int, *, trouble: bool = True) -> None:
        """Put a minion (or troll, or demon) into ``area``; trouble if it was occupied."""
        if trouble and (owner == DEMON or self.pieces_in(area) > 0):
            self.trouble[area] = True
        if owner == TROLL:
            self.trolls[area] += 1
        elif owner == DEMON:
            self.demons[area] += 1
        else:
            self.minions[owner][area] += 1

    def take_piece(self, owner: int, area: int) -> None:
        """Take a minion (or troll, or demon) out of ``area``; its trouble marker goes too."""
        if owner == TROLL:
            self.trolls[area] -= 1
        elif owner == DEMON:
            self.demons[area] -= 1
        else:
            self.minions[owner][area] -= 1
        self.trouble[area] = False

    def move_piece(self, owner: int, source: int, target: int) -> None:
        """Move a piece between areas, with the trouble rules for both."""
        self.take_piece(owner, source)
        self.add_piece(owner, target)

    def put_building(self, seat: int, area: int) -> None:
        """Place ``seat``'s building and give them the City Area card."""
        self.building[area] = seat
        if self.area_card[area] != GONE:
            self.area_card[area] = seat
            self.gained |= 1 << area

    def remove_building(self, area: int) -> None:
        """Remove the building in ``area``; its City Area card returns to the display."""
        self.building[area] = NO_BUILDING
        if self.area_card[area] != GONE:
            self.area_card[area] = DISPLAY

    def draw_cards(self, seat: int, count: int) -> list[int]:
        """Draw up to ``count`` cards into ``seat``'s hand; the caller checks for deck-out."""
        drawn: list[int] = []
        for _ in range(count):
            if not self.draw_pile:
                break
            drawn.append(self.draw_pile.pop())
        self.hands[seat].extend(drawn)
        if drawn:
            names = ", ".join(CARDS[c].name for c in drawn)
            word = "card" if len(drawn) == 1 else "cards"
            self.say(
                f"{self.colour(seat)} drew {names}.",
                seats=(seat,),
                others=f"{self.colour(seat)} drew {len(drawn)} {word}.",
            )
        return drawn

    def discard_from_hand(self, seat: int, card: int) -> None:
        """Move a card from ``seat``'s hand to the discard pile."""
        self.hands[seat].remove(card)
        self.discard_pile.append(card)

    def area_name(self, area: int) -> str:
        """The area's name."""
        return AREAS[area].name


def holds(items: list[int], value: int) -> bool:
    """``value in items``, for a short list of small ints (compiled, the loop compares
    machine words where ``in`` compares objects; a plain loop, not ``any()``, spares the
    interpreted source a generator)."""
    for item in items:  # noqa: SIM110
        if item == value:
            return True
    return False


def card_index(name: str) -> int:
    """The index of the card called ``name``."""
    return CARD_BY_NAME[name].index


# --- placing pieces -------------------------------------------------------------------------
def minion_targets(s: AnkhMorporkState, seat: int, lifted: int = -1) -> list[int]:
    """Areas where ``seat`` may place a minion by the normal rule (rule 6)."""
    mine = s.minions[seat]
    present = [a for a in range(NUM_AREAS) if mine[a] - (a == lifted) > 0]
    if not present:
        return list(range(NUM_AREAS))
    allowed: set[int] = set()
    for a in present:
        allowed |= ADJACENT_OR_SELF[a]
    return sorted(allowed)


def placement_options(
    s: AnkhMorporkState, seat: int, areas: Iterable[int] | None = None
) -> list[tuple[int, int]]:
    """``(area, lifted)`` pairs for placing one minion; ``lifted`` is -1 unless all 12 are out.

    ``areas`` names the places a card allows (overriding adjacency); None means the normal rule.
    """
    named = None if areas is None else sorted(set(areas))
    if s.minion_supply(seat) > 0:
        targets = minion_targets(s, seat) if named is None else named
        return [(a, -1) for a in targets]
    out: list[tuple[int, int]] = []
    for lift in range(NUM_AREAS):
        if s.minions[seat][lift] == 0:
            continue
        targets = minion_targets(s, seat, lift) if named is None else named
        out.extend((a, lift) for a in targets if a != lift)
    return out


def place_minion(
    s: AnkhMorporkState, seat: int, area: int, lifted: int = -1, *, trouble: bool = True
) -> None:
    """Place one of ``seat``'s minions, lifting one from ``lifted`` first if given."""
    if lifted >= 0:
        s.take_piece(seat, lifted)
        s.say(f"{s.colour(seat)} lifted a minion from {s.area_name(lifted)}.")
    s.add_piece(seat, area, trouble=trouble)
    s.say(f"{s.colour(seat)} placed a minion in {s.area_name(area)}.")


def building_options(s: AnkhMorporkState, seat: int, divisor: int = 1) -> list[Action]:
    """Where ``seat`` may build now, paying the cost divided by ``divisor``."""
    mine = s.minions[seat]
    out: list[Action] = []
    lifts = [-1] if s.building_supply(seat) > 0 else s.buildings_of(seat)
    for a in range(NUM_AREAS):
        cost = AREAS[a].cost // divisor
        if mine[a] and s.building[a] < 0 and not s.trouble[a] and s.money[seat] >= cost:
            out.extend(act("place_building", area=a, extra=lift, other=cost) for lift in lifts)
    return out


def place_building(s: AnkhMorporkState, seat: int, area: int, lifted: int, cost: int) -> None:
    """Pay and build; a building moved from ``lifted`` returns that area's card."""
    if lifted >= 0:
        s.remove_building(lifted)
        s.say(f"{s.colour(seat)} took back their building from {s.area_name(lifted)}.")
    s.money[seat] -= cost
    s.put_building(seat, area)
    s.say(f"{s.colour(seat)} built in {s.area_name(area)} for ${cost}.")


def assassination_options(
    s: AnkhMorporkState, seat: int, verb: str = "assassinate"
) -> list[Action]:
    """Minions of others, trolls and demons standing where there is trouble."""
    out: list[Action] = []
    for a in range(NUM_AREAS):
        if not s.trouble[a]:
            continue
        for owner in range(s.n):
            if owner != seat and s.minions[owner][a]:
                out.append(act(verb, area=a, seat=owner))
        if s.trolls[a]:
            out.append(act(verb, area=a, seat=TROLL))
        if s.demons[a]:
            out.append(act(verb, area=a, seat=DEMON))
    return out


# --- playing cards -------------------------------------------------------------------------
def playable_cards(s: AnkhMorporkState, seat: int) -> list[int]:
    """Cards in hand that can be played as the turn's card (not interrupts)."""
    return sorted({c for c in s.hands[seat] if c not in INTERRUPT_CARDS})


def play_card(s: AnkhMorporkState, seat: int, card: int) -> None:
    """Take ``card`` from the hand and start resolving its symbols."""
    s.hands[seat].remove(card)
    s.in_play.append(card)
    s.played.append(card)
    s.say(f"{s.colour(seat)} played {CARDS[card].name}.")
    s.stack.append(("card", seat, card, 0))
