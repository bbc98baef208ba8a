"""The Guardians of the City state: plain lists of small integers and the primitive operations.

Cards are indexes into ``ACTION_CARDS`` / ``CRISIS_CARDS``; decks and piles are lists with the
top at the end. Per seat: National Effort (printed, per pillar), Citizen Group support, the
Shield, Counter-Terrorism points, hand (and which of its cards everybody knows), both decks and
discard piles, the Score pile, the active Subversive and the lasting Galvanised People cards.
Shared: the three Terrorist Cells (ruling 1), whose turn it is and the step, the end conditions
waiting for the round to finish (ruling 18), the Action card being resolved (``play``) and the
Crisis card being resolved (``crisis``), and the decision stack.

This module imports nothing of the rules above it: the State API methods that need them call
through ``STATE_HOOKS``, which those modules fill when they are imported.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from citywatch.core.stack import StackedState, StateHooks
from citywatch.games.guardians_of_the_city.actions import SEATS
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    GROUPS,
    SCORE_POINTS,
)
from citywatch.games.guardians_of_the_city.decks import Deck

NONE: Final = -1
"""No card."""
EFFORT_MAX: Final = CONSTANTS.effort_max
SUPPORT_MAX: Final = CONSTANTS.group_max
CELL_MAX: Final = CONSTANTS.cell_max
HAND_SIZE: Final = CONSTANTS.hand_size


class Lasting(NamedTuple):
    """A lasting Galvanised People card in its owner's play area until their next turn (rulebook
    section 8): the card, the card it was paired with, the Citizen Groups it protects and the
    Terrorist Cells it freezes (bitmasks), and the pillar whose effort it boosts against
    Crisis cards (-1: none) by ``boost``."""

    card: int
    paired: int
    protect: int = 0
    frozen: int = 0
    boost_pillar: int = -1
    boost: int = 0


class Play(NamedTuple):
    """The Action card being resolved: who plays it, the card, the Galvanised People card
    paired with it (-1: none), the Citizen Groups its raise_support ops targeted and the cells
    its reduce_cell ops targeted (bitmasks), whether it went to the Score pile, and whether it
    has left the play area (to the Score pile, or the discard pile once resolved)."""

    seat: int
    card: int
    galvanised: int = NONE
    raised: int = 0
    reduced: int = 0
    scored: bool = False
    placed: bool = False


_new_tuple: Final = tuple.__new__


def play_with(play: Play, raised: int, reduced: int, scored: bool, placed: bool) -> Play:
    """``play`` with its targets and where it went changed: its ``_replace``, without the named
    tuple's interpreted code (every Action card played passes here)."""
    return _new_tuple(Play, (play.seat, play.card, play.galvanised, raised, reduced, scored,
                             placed))


STATE_HOOKS: Final = StateHooks()
"""Filled at import time by the modules above this one (see ``StackedState``)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class GotcState(StackedState):
    """One moment of a game of Guardians of the City Vol.2."""

    __slots__ = (
        "decks", "first", "current", "step", "plays", "cells", "pending", "effort", "support",
        "shield", "ct", "hand", "known", "action_deck", "action_discard", "crisis_deck",
        "crisis_discard", "score_pile", "subversive", "lasting", "turns", "play", "crisis",
    )

    def __init__(self, decks: list[Deck]) -> None:
        n = len(decks)
        self.n = n
        self.decks = list(decks)
        self.first = 0  # the first player (ruling 2)
        self.current = 0  # whose turn it is
        self.turn = 0  # turns begun
        self.step = 0  # 0: set-up, 1-4: the step of the turn (rulebook section 6)
        self.plays = 0  # non-Galvanised Action cards played this Step 2
        self.cells = [CONSTANTS.cell_start] * len(CELLS)
        self.pending: list[str] = []  # end conditions (b), (c) waiting for the round (ruling 18)
        self.effort: list[list[int]] = [list(d.suggested_effort) for d in decks]
        self.support: list[list[int]] = [[CONSTANTS.group_start] * len(GROUPS)
                                         for _ in range(n)]
        self.shield = [0] * n
        self.ct = [0] * n  # Counter-Terrorism points
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]  # hand cards everybody has seen
        self.action_deck: list[list[int]] = [[] for _ in range(n)]
        self.action_discard: list[list[int]] = [[] for _ in range(n)]
        self.crisis_deck: list[list[int]] = [[] for _ in range(n)]
        self.crisis_discard: list[list[int]] = [[] for _ in range(n)]
        self.score_pile: list[list[int]] = [[] for _ in range(n)]
        self.subversive = [NONE] * n
        self.lasting: list[list[Lasting]] = [[] for _ in range(n)]
        self.turns = [0] * n  # own turns begun
        self.play: Play | None = None
        self.crisis = NONE  # the current player's Crisis card being resolved
        self.init_stacked_parts()

    # --- the State API (the rest comes from ``StackedState`` through ``STATE_HOOKS``) ----
    HOOKS = STATE_HOOKS

    def copy(self) -> GotcState:
        c = GotcState.__new__(GotcState)
        c.decks = self.decks
        c.first = self.first
        c.current = self.current
        c.step = self.step
        c.plays = self.plays
        c.cells = self.cells[:]
        c.pending = self.pending[:]
        c.effort = [x[:] for x in self.effort]
        c.support = [x[:] for x in self.support]
        c.shield = self.shield[:]
        c.ct = self.ct[:]
        c.hand = [x[:] for x in self.hand]
        c.known = [x[:] for x in self.known]
        c.action_deck = [x[:] for x in self.action_deck]
        c.action_discard = [x[:] for x in self.action_discard]
        c.crisis_deck = [x[:] for x in self.crisis_deck]
        c.crisis_discard = [x[:] for x in self.crisis_discard]
        c.score_pile = [x[:] for x in self.score_pile]
        c.subversive = self.subversive[:]
        c.lasting = [x[:] for x in self.lasting]
        c.turns = self.turns[:]
        c.play = self.play
        c.crisis = self.crisis
        return self.copy_stacked_parts(c)

    # --- facts ---------------------------------------------------------------------------
    def surviving(self, seat: int) -> int:
        """How many of the seat's Citizen Groups are still in the country."""
        support = self.support[seat]
        return len(support) - support.count(0)

    def required_effort(self, seat: int) -> int:
        """The total National Effort the seat must assign: 8 plus its surviving Citizen Groups
        (rulebook section 7, "Assign National Effort Levels"; ruling 5)."""
        return CONSTANTS.effort_base + self.surviving(seat)

    def effective(self, seat: int, pillar: int) -> int:
        """The effort Crisis and Subversive ``who`` selectors read: printed effort plus any
        Readiness boost, at most 4 (ruling 4)."""
        value = self.effort[seat][pillar]
        for entry in self.lasting[seat]:
            if entry.boost_pillar == pillar:
                value += entry.boost
        return min(EFFORT_MAX, value)

    def frozen_cells(self) -> int:
        """The cells no raise_cell may raise now (Vigilance), as a bitmask."""
        mask = 0
        for entries in self.lasting:
            for entry in entries:
                mask |= entry.frozen
        return mask

    def protected_groups(self, seat: int) -> int:
        """The seat's Citizen Groups that lose no support now (Loyalty), as a bitmask."""
        mask = 0
        for entry in self.lasting[seat]:
            mask |= entry.protect
        return mask

    def surviving_cells(self) -> list[int]:
        """The Terrorist Cells not yet eliminated."""
        return [i for i, x in enumerate(self.cells) if x > 0]

    def special_intelligence_used(self, seat: int) -> int:
        """How many Special Intelligence cards the seat has scored (the tie-break)."""
        return len(self.score_pile[seat])

    def score(self, seat: int) -> int:
        """The seat's score if the game ended now (rulebook section 10, ruling 19): CT points,
        surviving support and Special Intelligence points; 0 without Citizen Groups."""
        if self.surviving(seat) == 0:
            return 0
        return self.ct[seat] + sum(self.support[seat]) + sum(
            SCORE_POINTS[c] for c in self.score_pile[seat])

    # --- cards ---------------------------------------------------------------------------
    def take_from_hand(self, seat: int, card: int) -> None:
        """Remove one copy of ``card`` from the seat's hand (and from what others know of it)."""
        self.hand[seat].remove(card)
        known = self.known[seat]
        if card in known and known.count(card) > self.hand[seat].count(card):
            known.remove(card)

    def discard_action(self, seat: int, card: int) -> None:
        """Put an Action card on its owner's discard pile."""
        self.action_discard[seat].append(card)

    def draw_actions(self, seat: int) -> list[int]:
        """Draw until the hand holds 4 or the deck is empty (ruling 16); the cards drawn."""
        drawn = []
        deck = self.action_deck[seat]
        hand = self.hand[seat]
        while len(hand) < HAND_SIZE and deck:
            card = deck.pop()
            hand.append(card)
            drawn.append(card)
        return drawn

    def card_name(self, card: int) -> str:
        """An Action card's name."""
        return ACTION_CARDS[card].name

    def seat_name(self, seat: int) -> str:
        """A seat's name."""
        return SEATS[seat]
