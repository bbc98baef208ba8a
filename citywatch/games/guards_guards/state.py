"""The Guards! Guards! state: plain data and the primitive operations every rule shares.

Everything is lists of small integers (tile, card and seat indexes from ``data``) so that
``copy()`` is cheap. Pending decisions are tuples on ``stack`` (``citywatch.core.stack``).
The operations here (dice, levels, money, decks, sending a player somewhere, the Pox) are
the one place each is done; the rule modules above call them.

This module imports nothing of the rules above it: the State API methods that need them
call through ``STATE_HOOKS``, which those modules fill when they are imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeVar

from mypy_extensions import mypyc_attr

from citywatch.core.stack import StackedState, StateHooks
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    COLOURS,
    DECK_SPACES,
    HOSPITALS,
    ITEMS,
    TILES,
    VOLUNTEERS,
)

if TYPE_CHECKING:
    pass

MAGIC: Final = 0
GUILD: Final = 1
CHARM: Final = 2
NO_CARD: Final = -1
MULTI_KINDS: Final = frozenset({"bridge", "hospital", "watch_house"})
"""Tiles that hold any number of players (rulebook, Getting Ready; ruling 12)."""
SHARED_TILES: Final = frozenset(t.index for t in TILES if t.kind in MULTI_KINDS)
UNTIL_HEALED: Final = -1
"""``Effect.turns`` of an effect that lasts until the player is healed (ruling 59)."""


T = TypeVar("T")


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``items`` less the first ``item`` in it (``ValueError`` if none)."""
    k = items.index(item)
    return items[:k] + items[k + 1:]


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a tuple as native
class Effect(tuple[str, int, int, int, str]):
    """A timed effect on a player: (kind, a, b, turns, source).

    Kinds: ``move`` (a = movement delta), ``move_set`` (a = allowance, Seven-League Boots,
    Stasis), ``move_cap`` (a = most spaces, Fog), ``attr`` (a = attribute index, b = delta),
    ``fog`` (no Guild Ability may target the player). ``turns`` counts the player's own
    turns left (the one in progress included, ruling 54), or ``UNTIL_HEALED``.
    """

    __slots__ = ()

    def __new__(cls, kind: str, a: int, b: int, turns: int, source: str) -> Effect:
        return tuple.__new__(cls, (kind, a, b, turns, source))

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def a(self) -> int:
        return self[1]

    @property
    def b(self) -> int:
        return self[2]

    @property
    def turns(self) -> int:
        return self[3]

    @property
    def source(self) -> str:
        return self[4]


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class Run:
    """An open Spell Run (or the Final Spell carried in person).

    ``runners`` are (volunteer, item) pairs still on their way; ``at_gate`` those who reached
    the player's Start Gate (immune from Sabotage); ``route`` the announced path and
    ``quadrants`` the quadrants it passes in order; ``next_quadrant`` how many of them have
    been resolved; ``passed`` a bitmask of passed tests of the current challenge (ruling 44);
    ``final`` is True for the Final Spell; ``tried`` the turn number of the last attempt.
    """

    __slots__ = ("colour", "runners", "at_gate", "route", "quadrants", "next_quadrant",
                 "passed", "final", "tried")

    def __init__(self, colour: int, final: bool = False) -> None:
        self.colour = colour
        self.runners: list[tuple[int, int]] = []
        self.at_gate: list[tuple[int, int]] = []
        self.route: tuple[int, ...] = ()
        self.quadrants: tuple[int, ...] = ()
        self.next_quadrant = 0
        self.passed = 0
        self.final = final
        self.tried = -1

    def copy(self) -> Run:
        c = Run.__new__(Run)
        c.colour = self.colour
        c.runners = self.runners[:]
        c.at_gate = self.at_gate[:]
        c.route = self.route
        c.quadrants = self.quadrants
        c.next_quadrant = self.next_quadrant
        c.passed = self.passed
        c.final = self.final
        c.tried = self.tried
        return c


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class Turn:
    """Scratch facts of the turn in progress, reset by ``begin_turn``."""

    __slots__ = ("seat", "allowance", "steps", "path", "used", "asked", "moving", "stopped",
                 "stop_done", "cast", "planted", "recalled", "house", "entered", "over")

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.allowance = 0  # spaces the player may move this turn
        self.steps = 0  # spaces moved so far
        self.path: list[int] = []  # tiles entered, in order
        self.used: list[int] = []  # tiles whose pass-through action was used (ruling 14)
        self.asked = 0  # bitmask of seats already offered their Guild Ability (ruling 49)
        self.moving = False  # movement has begun (and not ended)
        self.stopped = False  # movement is over
        self.stop_done = False  # the one stop action was taken (ruling 15)
        self.cast: list[tuple[int, int]] = []  # (caster, scroll) attempted (ruling 53)
        self.planted = False
        self.recalled = False
        self.house = False  # the Guild House was used this turn
        self.entered = 0  # bitmask of quadrants entered carrying the Final Spell (ruling 46)
        self.over = False  # the turn has ended (Hospital, Watch House, Fire Water, summons)

    def copy(self) -> Turn:
        c = Turn.__new__(Turn)
        c.seat = self.seat
        c.allowance = self.allowance
        c.steps = self.steps
        c.path = self.path[:]
        c.used = self.used[:]
        c.asked = self.asked
        c.moving = self.moving
        c.stopped = self.stopped
        c.stop_done = self.stop_done
        c.cast = self.cast[:]
        c.planted = self.planted
        c.recalled = self.recalled
        c.house = self.house
        c.entered = self.entered
        c.over = self.over
        return c


STATE_HOOKS: Final = StateHooks()
"""Filled at import time by the modules above this one (see ``StackedState``)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # then Cls.__new__ (copy) skips __init__
class GuardsGuardsState(StackedState):
    """One moment of a game of Guards! Guards!."""

    __slots__ = (
        "spells_to_win", "rounds", "guild", "gate", "pos", "attrs", "dollars", "hand", "scrolls",
        "items", "kept", "bought", "saboteurs", "returned", "pox", "fire_water", "flasks",
        "effects", "vol_mods", "missed", "jailed", "own_turns", "house_turn", "run", "frozen",
        "vol_down", "vol_up", "vol_discard", "fate_deck", "fate_discard", "decks", "dragon_pile",
        "dragons", "luggage", "current", "t",
    )

    def __init__(self, players: int) -> None:
        n = players
        self.n = n
        self.spells_to_win = 5  # the short game agrees fewer (Winning the Game)
        self.rounds = 0  # the short game stopped after this many rounds (0: play to the end)
        self.guild = [-1] * n  # Guild Card index, -1 until chosen
        self.gate = [-1] * n  # Start Gate tile
        self.pos = [-1] * n  # the playing piece's tile
        self.attrs: list[list[int]] = [[0, 0, 0] for _ in range(n)]  # permanent levels 0-10
        self.dollars = [0] * n
        self.hand: list[list[int]] = [[] for _ in range(n)]  # volunteers
        self.scrolls: list[list[int]] = [[] for _ in range(n)]
        self.items: list[list[int]] = [[] for _ in range(n)]
        self.kept: list[tuple[int, ...]] = [()] * n  # Fate cards kept (Ook!)
        # cards whose price is public (bought): scroll index, or 100 + item index (ruling 69)
        self.bought: list[tuple[int, ...]] = [()] * n
        # planted Saboteurs: (quadrant, volunteer, item), at most one per quadrant (ruling 37)
        self.saboteurs: list[tuple[tuple[int, int, int], ...]] = [()] * n
        self.returned: list[tuple[int, ...]] = [()] * n  # spell colours, in order
        self.pox = [False] * n
        self.fire_water = [0] * n  # Fire Water tokens in the owner's supply
        self.flasks: list[tuple[int, ...]] = [()] * n  # owners of tokens on the seat
        self.effects: list[tuple[Effect, ...]] = [()] * n
        # this-turn volunteer modifiers: (volunteer, stat index, delta)
        self.vol_mods: list[tuple[int, int, int]] = []
        self.missed = [0] * n  # turns the player will miss
        self.jailed = [False] * n  # arrested: leaves at the start of their next turn
        self.own_turns = [0] * n  # turns each player has begun
        self.house_turn = [-9] * n  # own turn number of the last Guild House use (ruling 63)
        self.run: list[Run | None] = [None] * n
        # seats whose announced run forbids opponents' planting until their next turn
        self.frozen = [False] * n
        self.vol_down: list[list[int]] = [[], [], []]  # face-down decks, top is the end
        self.vol_up: list[list[int]] = [[], [], []]  # face-up piles, top is the end
        self.vol_discard: list[list[int]] = [[], [], []]
        self.fate_deck: list[int] = []
        self.fate_discard: list[int] = []
        self.decks: list[list[int]] = [[] for _ in DECK_SPACES]  # top is the end, bottom [0]
        self.dragon_pile: list[int] = []
        self.dragons = [-1, -1, -1, -1]  # Dragon per quadrant, -1 for none
        self.luggage = -1
        self.current = 0
        self.turn = 0
        self.t = Turn()
        self.init_stacked_parts()

    # --- the State API (the rest comes from ``StackedState`` through ``STATE_HOOKS``) ----
    HOOKS = STATE_HOOKS

    def copy(self) -> GuardsGuardsState:
        c = GuardsGuardsState.__new__(GuardsGuardsState)
        c.spells_to_win = self.spells_to_win
        c.rounds = self.rounds
        c.guild = self.guild[:]
        c.gate = self.gate[:]
        c.pos = self.pos[:]
        c.attrs = list(map(list.copy, self.attrs))
        c.dollars = self.dollars[:]
        c.hand = list(map(list.copy, self.hand))
        c.scrolls = list(map(list.copy, self.scrolls))
        c.items = list(map(list.copy, self.items))
        c.kept = self.kept[:]
        c.bought = self.bought[:]
        c.saboteurs = self.saboteurs[:]
        c.returned = self.returned[:]
        c.pox = self.pox[:]
        c.fire_water = self.fire_water[:]
        c.flasks = self.flasks[:]
        c.effects = self.effects[:]
        c.vol_mods = self.vol_mods[:]
        c.missed = self.missed[:]
        c.jailed = self.jailed[:]
        c.own_turns = self.own_turns[:]
        c.house_turn = self.house_turn[:]
        c.run = [None if r is None else r.copy() for r in self.run]
        c.frozen = self.frozen[:]
        c.vol_down = list(map(list.copy, self.vol_down))
        c.vol_up = list(map(list.copy, self.vol_up))
        c.vol_discard = list(map(list.copy, self.vol_discard))
        c.fate_deck = self.fate_deck[:]
        c.fate_discard = self.fate_discard[:]
        c.decks = list(map(list.copy, self.decks))
        c.dragon_pile = self.dragon_pile[:]
        c.dragons = self.dragons[:]
        c.luggage = self.luggage
        c.current = self.current
        c.t = self.t.copy()
        return self.copy_stacked_parts(c)


    # --- the log -------------------------------------------------------------------------
    def colour(self, seat: int) -> str:
        """A seat's colour name."""
        return COLOURS[seat]

    # --- dice (rulings 21-25) ------------------------------------------------------------
    def roll(self) -> int:
        """One roll of the eight-sided die."""
        return self.rng.roll(8)

    def test(self, bonus: int, target: int, reroll_eights: bool = False) -> tuple[bool, int]:
        """Roll the die plus ``bonus`` against ``target``: (passed, total). A natural 1 on the
        first die fails (ruling 21); with ``reroll_eights`` each 8 is rolled again and added
        (ruling 22)."""
        first = self.roll()
        total = first + bonus
        if reroll_eights:
            face = first
            while face == 8:
                face = self.roll()
                total += face
        if first == 1:
            return False, total
        return total >= target, total

    def contest_roll(self, bonus: int) -> tuple[int, bool]:
        """A combat or Dragon roll: (total, natural 1), eights re-rolled (rulings 21-22)."""
        first = self.roll()
        total = first + bonus
        face = first
        while face == 8:
            face = self.roll()
            total += face
        return total, first == 1

    # --- levels --------------------------------------------------------------------------
    def level(self, seat: int, attr: int) -> int:
        """The effective Magic, Guild or Charm level: permanent level plus temporary effects
        (the Pox, curses), never below 0 (ruling 30)."""
        value = self.attrs[seat][attr]
        if attr == CHARM and self.pox[seat]:
            value -= 1
        for e in self.effects[seat]:
            if e[0] == "attr" and e[1] == attr:
                value += e[2]
        return max(0, value)

    def add_attribute(self, seat: int, attr: int, delta: int) -> None:
        """Change a permanent level, kept on the 0-10 track (ruling 30)."""
        old = self.attrs[seat][attr]
        new = min(10, max(0, old + delta))
        self.attrs[seat][attr] = new
        if new != old:
            self.say(f"{self.colour(seat)}'s {ATTRIBUTES[attr].capitalize()} is now {new}.")

    def stat(self, volunteer: int, stat: str, item: int = NO_CARD) -> int:
        """A volunteer's Loyalty, Streetwise, Brawl or Toughness with its Item and this
        turn's modifiers, never below 0."""
        value = VOLUNTEERS[volunteer].stat(stat)
        if item >= 0:
            value += ITEMS[item].bonus_for(stat)
        index = ("loyalty", "streetwise", "brawl", "toughness").index(stat)
        for v, s, d in self.vol_mods:
            if v == volunteer and s == index:
                value += d
        return max(0, value)

    def magic_defence(self, seat: int) -> int:
        """The highest single magic defence among the seat's Volunteers in hand and the
        Octarine Amulet (ruling 55)."""
        best = 0
        for v in self.hand[seat]:
            best = max(best, VOLUNTEERS[v].magic_defence)
        for i in self.items[seat]:
            op = ITEMS[i].op
            if op is not None and op.get("op") == "magic_defence":
                best = max(best, int(op["value"]))
        return best

    def has_ability(self, seat: int, key: str) -> bool:
        """True if a Volunteer in the seat's hand has the ability ``key``."""
        return any(VOLUNTEERS[v].ability == key for v in self.hand[seat])

    # --- money (rulings 64-65) -----------------------------------------------------------
    def gain(self, seat: int, amount: int) -> None:
        """Take dollars from the Bank (it never runs out)."""
        self.dollars[seat] += amount

    def lose(self, seat: int, amount: int) -> int:
        """Pay up to ``amount`` to the Bank (all they have if less); return what was paid."""
        paid = min(amount, self.dollars[seat])
        self.dollars[seat] -= paid
        return paid

    # --- places --------------------------------------------------------------------------
    def is_safe_place(self, seat: int) -> bool:
        """True in a Hospital or Watch House: no Magic, Guild Abilities or Pox (ruling 56)."""
        kind = TILES[self.pos[seat]].kind
        return kind == "hospital" or kind == "watch_house"

    def can_end_on(self, seat: int, tile: int) -> bool:
        """True if ``seat`` may end its movement (or be placed) on ``tile``: no other player
        unless the tile holds many, not the Luggage, not another player's Start Gate
        (rulings 12-13)."""
        if tile == self.luggage:
            return False
        for other in range(self.n):
            if other == seat:
                continue
            if self.gate[other] == tile:
                return False
            if self.pos[other] == tile and tile not in SHARED_TILES:
                return False
        return True

    def free_tile_near(self, seat: int, tile: int, avoid: int = -1) -> int:
        """``tile`` if ``seat`` may be placed there, else the nearest tile it may be placed
        on, never ``avoid`` (rulings 19, 47, 82); ties go to the lowest tile index."""
        if tile != avoid and self.can_end_on(seat, tile):
            return tile
        walk = board.WALK[tile]
        best = -1
        for t in range(len(TILES)):
            if t != tile and t != avoid and self.can_end_on(seat, t) and (
                best < 0 or walk[t] < walk[best]
            ):
                best = t
        return best

    def nearest_of(self, seat: int, targets: tuple[int, ...]) -> int:
        """The target nearest the seat's piece in walking steps (ties: the first listed)."""
        here = self.pos[seat]
        walk = board.WALK[here]
        return min(targets, key=lambda t: walk[t])

    def nearest_hospital(self, seat: int) -> int:
        """The nearest Hospital to the seat's piece."""
        return self.nearest_of(seat, HOSPITALS)

    # --- decks (rulings 66-67) -----------------------------------------------------------
    def draw_volunteer(self, deck: int) -> int:
        """The top face-down card of a Volunteer deck (the discards shuffled in when it runs
        out), or ``NO_CARD`` if there is none anywhere."""
        down = self.vol_down[deck]
        if not down:
            if not self.vol_discard[deck]:
                return NO_CARD
            down.extend(self.vol_discard[deck])
            self.vol_discard[deck].clear()
            self.rng.shuffle(down)
            self.say(f"The {('Lords & Ladies', 'Man & Beast', 'Shades & Shadows')[deck]} "
                     "discards are shuffled into a new deck.")
        return down.pop()

    def refill_face_up(self, deck: int) -> None:
        """Keep one card of each Volunteer deck face up (rulebook, Recruiting)."""
        if not self.vol_up[deck]:
            card = self.draw_volunteer(deck)
            if card >= 0:
                self.vol_up[deck].append(card)
                self.say(f"{VOLUNTEERS[card].name} is turned face up.")

    def discard_volunteer(self, volunteer: int) -> None:
        """Put a Volunteer card on its deck's discard pile."""
        self.vol_discard[VOLUNTEERS[volunteer].deck].append(volunteer)

    def draw_fate(self) -> int:
        """The top Fate card (the discards shuffled in when the deck runs out)."""
        if not self.fate_deck:
            self.fate_deck.extend(self.fate_discard)
            self.fate_discard.clear()
            self.rng.shuffle(self.fate_deck)
        return self.fate_deck.pop() if self.fate_deck else NO_CARD

    def deck_for(self, seat: int, kind: str) -> int:
        """The deck space of ``kind`` ("odds_and_sods"/"curses_and_cures") nearest the seat's
        piece, counted to its shop (ruling 18); the first of equals, without asking: a used
        card returns there and a shop sells from it (citywatch ruling 5)."""
        return board.nearest_deck(self.pos[seat], kind)[0]

    def draw_choices(self, seat: int, kind: str) -> tuple[int, ...]:
        """The deck spaces of ``kind`` the seat may draw from: the nearest ones that hold
        cards (two when equally near: the seat chooses, ruling 18), else the first other deck
        of that kind that holds cards (ruling 67); empty if every such deck is empty."""
        held = tuple(d for d in board.nearest_deck(self.pos[seat], kind) if self.decks[d])
        if held:
            return held
        return tuple(d.index for d in DECK_SPACES if d.deck == kind and self.decks[d.index])[:1]

    def draw_card(self, seat: int, kind: str, space: int = -1) -> int:
        """Take the top card of deck space ``space`` (by default the first of
        ``draw_choices``); once that deck is empty, of the deck ``draw_choices`` gives
        (ruling 67); ``NO_CARD`` if every deck of ``kind`` is empty."""
        if space >= 0 and DECK_SPACES[space].deck != kind:
            raise ValueError(f"deck space {DECK_SPACES[space].id!r} does not hold {kind}")
        if space < 0 or not self.decks[space]:
            choices = self.draw_choices(seat, kind)
            if not choices:
                return NO_CARD
            space = choices[0]
        return self.decks[space].pop()

    def return_card(self, seat: int, kind: str, card: int) -> None:
        """Put a used Scroll or Item at the bottom of the deck of ``kind`` nearest the seat's
        piece (ruling 67); of two equally near, the first, without asking (citywatch
        ruling 5)."""
        self.decks[self.deck_for(seat, kind)].insert(0, card)

    # --- the Pox (ruling 58) -------------------------------------------------------------
    def can_catch_pox(self, seat: int) -> bool:
        """False if the seat has it, is immune (Ridcully) or is in a Hospital or Watch
        House (ruling 56)."""
        if self.pox[seat] or self.pos[seat] < 0:
            return False
        return not self.has_ability(seat, "pox_immunity") and not self.is_safe_place(seat)

    def catch_pox(self, seat: int, how: str) -> bool:
        """Infect the seat if it can catch the Pox; True if it did."""
        if not self.can_catch_pox(seat):
            return False
        self.pox[seat] = True
        self.say(f"{self.colour(seat)} catches the Pox ({how}).")
        return True
