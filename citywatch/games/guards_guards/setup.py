"""Setting up a game: decks, the first player, Guild Cards and Start Gates, starting cards.

Rulebook "Set Up", "What Players Need to Begin a Game", "Beginning the Game"; rulings 1-6.
The choice of Guild Card and Start Gate is a decision of each seat in turn order (frame
``setup``); the starting Volunteers are dealt once everyone has chosen, because a gifted
Scroll or Item comes from the deck nearest the player's gate (ruling 6).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action, act, tile, verb
from citywatch.games.guards_guards.data import (
    CONSTANTS,
    DECK_SPACES,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.fate import DRAW_CARDS
from citywatch.games.guards_guards.frames import handler, op, then
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
LORDS_LADIES: Final = 0
MAN_BEAST: Final = 1
SHADES_SHADOWS: Final = 2

CHOOSE_GUILD: Final = verb(
    "choose_guild", (("guild_card", "guild_card"), ("gate", "tile")),
    lambda a: f"Join as {GUILD_CARDS[a.x].name} ({QUADRANTS[GUILD_CARDS[a.x].guild].capitalize()})"
                     f" starting at {tile(a.y)}",
)


def deal(s: State) -> None:
    """Shuffle every deck and lay out the board (Set Up 1-6), and roll for the first player
    (ruling 1)."""
    rng = s.rng
    s.luggage = board.LUGGAGE_START
    s.dragon_pile = [d.index for d in DRAGONS]
    s.fate_deck = [c.index for c in FATE_CARDS]
    rng.shuffle(s.fate_deck)
    for kind, cards in (("odds_and_sods", [c.index for c in ITEMS]),
                        ("curses_and_cures", [c.index for c in SCROLLS])):
        rng.shuffle(cards)
        for space in DECK_SPACES:
            if space.deck == kind:
                s.decks[space.index] = cards[:space.cards]
                cards = cards[space.cards:]
    for deck in range(3):
        down = [v.index for v in VOLUNTEERS if v.deck == deck]
        rng.shuffle(down)
        s.vol_down[deck] = down
    first = first_player(s)
    s.current = first
    s.say(f"{s.colour(first)} rolls highest and will play first.")
    for i in range(s.n):
        s.stack.insert(0, ("setup", (first + i) % s.n))


def first_player(s: State) -> int:
    """Everyone rolls; the highest starts and tied players roll again (ruling 1)."""
    rolling = list(range(s.n))
    while len(rolling) > 1:
        rolls = {seat: s.roll() for seat in rolling}
        best = max(rolls.values())
        rolling = [seat for seat in rolling if rolls[seat] == best]
    return rolling[0]


def gates_free(s: State, card: int) -> list[int]:
    """The card's gates nobody has taken (ruling 3)."""
    return [g for g in GUILD_CARDS[card].gates if g not in s.gate]


class SetupHandler(Handler[State]):
    """A seat takes an unused Guild Card and a free Start Gate of its quadrant (ruling 2)."""

    kind = "setup"

    def legal(self, s: State, f: Frame) -> list[Action]:
        taken = set(s.guild)
        return [act(CHOOSE_GUILD, g.index, gate)
                for g in GUILD_CARDS if g.index not in taken
                for gate in gates_free(s, g.index)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat, card, gate = f[1], a.x, a.y
        g = GUILD_CARDS[card]
        s.guild[seat] = card
        s.gate[seat] = gate
        s.pos[seat] = gate
        s.attrs[seat] = list(g.start)
        s.dollars[seat] = int(CONSTANTS["start_dollars"])
        s.fire_water[seat] = g.fire_water
        s.say(f"{s.colour(seat)} joins as {g.name} of the "
              f"{QUADRANTS[g.guild].capitalize()} and starts at {tile(gate)}.")
        if all(x >= 0 for x in s.guild):
            then(s, ("deal_starting_cards",))

    def describe(self, s: State, f: Frame) -> str:
        return "choose a Guild Card and a Start Gate"


handler(SetupHandler)


@op("deal_starting_cards")
def deal_starting_cards(s: State) -> None:
    """Each player gets one Lords & Ladies and one Man & Beast card with their bonuses and
    gifts; Infectious and Fate marks are ignored and the Luggage stays (ruling 6). Each card
    is a queued step, so that a gift's choice between equally near decks (ruling 18) is made
    before the next card is dealt."""
    steps = [("deal_volunteer", (s.current + i) % s.n, deck)
             for i in range(s.n) for deck in (LORDS_LADIES, MAN_BEAST)]
    then(s, *steps, ("dealt",))


@op("deal_volunteer")
def deal_volunteer(s: State, seat: int, deck: int) -> None:
    """Deal ``seat`` the top card of Volunteer deck ``deck`` with its Player Bonus and gifts;
    a gifted Scroll or Item comes from the deck nearest the player's gate (ruling 6)."""
    v = s.draw_volunteer(deck)
    s.hand[seat].append(v)
    card = VOLUNTEERS[v]
    s.say(f"{s.colour(seat)} is dealt {card.name}.", frozenset({seat}),
          f"{s.colour(seat)} is dealt a {('Lords & Ladies', 'Man & Beast')[deck]} card.")
    for attr, delta in enumerate(card.bonus):
        if delta:
            s.add_attribute(seat, attr, delta)
    s.gain(seat, card.gives_dollars)
    gifts = (("curses_and_cures", card.gives_scroll), ("odds_and_sods", card.gives_item))
    then(s, *((DRAW_CARDS, seat, kind, count) for kind, count in gifts if count))


@op("dealt")
def dealt(s: State) -> None:
    """Every player has their starting cards: turn a card of each Volunteer deck face up;
    the first turn begins with the first player."""
    for deck in range(3):
        s.refill_face_up(deck)
    s.turn = 0
    s.current = (s.current - 1) % s.n  # the first turn begins with the next seat: the first
