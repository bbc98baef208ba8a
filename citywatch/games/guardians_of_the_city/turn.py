"""Set-up and the turn: the four steps (rulebook sections 4-7; rulings 2-7, 10, 14, 16).

Set-up (``deal``): the first player is drawn at random (ruling 2); every deck is shuffled
(section 4, rule 4 of each deck); each player draws 4 Action cards and assigns 12 National
Effort, in turn order from the first player (ruling 3), starting from their deck's suggested
effort (the ``effort`` frame offers to keep it).

A turn (``begin_turn``, ``DECISIONS.begin_turn``): the next seat clockwise; immediately before
Step 1 its lasting Galvanised People cards go to its discard pile and its Shield is removed
(ruling 6). Then:

1. ``effort`` frame ``(seat, chosen)``: assign 8 + surviving groups over the five pillars,
   each 1-4, one pillar at a time (or keep the effort as it is when its total still fits);
2. ``play`` frame ``(seat)``: play an Action card, or a Galvanised People card with the card it
   combines with, while under the limit (2, or less under Disrupt), or stop (rulings 7-9);
3. reveal two Crisis cards one after the other (none when the deck is empty), then every
   active Subversive's ``each_turn`` ops in turn order from the active player, then end
   condition (b) (rulings 10, 14, 18);
4. ``step4`` frame ``(seat)``: discard any Action cards, then draw back up to 4 (ruling 16).

The end conditions are checked after every card, trigger and Step 4 (``scoring``).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guardians_of_the_city.actions import (
    DISCARD,
    DRAW,
    EFFORT,
    END_PLAYS,
    KEEP_EFFORT,
    PLAY,
    SEATS,
    Action,
    act,
    and_list,
)
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CONSTANTS,
    CRISIS_CARDS,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.effects import (
    action_limit,
    playable,
    seat_order,
    start_action,
    start_crisis,
    start_trigger,
)
from citywatch.games.guardians_of_the_city.frames import DECISIONS, handler, op, push, then
from citywatch.games.guardians_of_the_city.scoring import round_is_over
from citywatch.games.guardians_of_the_city.state import NONE, GotcState

State = GotcState
EFFORT_LEVELS: Final = range(CONSTANTS.effort_min, CONSTANTS.effort_max + 1)


def effort_text(levels: list[int] | tuple[int, ...]) -> str:
    """``Military 3, Civil 3, Economic 2, Social 2, Psychological 2``."""
    return ", ".join([f"{p} {v}" for p, v in zip(PILLARS, levels, strict=True)])


def _cards(cards: list[int]) -> str:
    return and_list([ACTION_CARDS[c].name for c in cards]) or "nothing"


# --- set-up --------------------------------------------------------------------------------
def deal(s: State) -> None:
    """Set the table: first player, shuffled decks, opening hands, opening effort frames."""
    s.first = s.current = s.rng.below(s.n)
    for p, deck in enumerate(s.decks):
        actions = deck.action_cards()
        crises = deck.crisis_cards()
        s.rng.shuffle(actions)
        s.rng.shuffle(crises)
        s.action_deck[p] = actions
        s.crisis_deck[p] = crises
    for p in range(s.n):
        _draw(s, p)
    s.say(f"{SEATS[s.first]} goes first.")
    order = [(s.first + k) % s.n for k in range(s.n)]
    for p in reversed(order):
        push(s, "effort", p, ())


def _draw(s: State, seat: int) -> None:
    drawn = s.draw_actions(seat)
    if drawn:
        s.say(f"{SEATS[seat]} draws {_cards(drawn)}.", frozenset({seat}),
              f"{SEATS[seat]} draws {len(drawn)} Action card{'s' if len(drawn) > 1 else ''}.")


# --- the turn ------------------------------------------------------------------------------
def begin_turn(s: State) -> None:
    """Start the next seat's turn, or end the game when a waiting end condition's round is
    over (ruling 18)."""
    seat = s.first if s.turn == 0 else (s.current + 1) % s.n
    if round_is_over(s, seat):
        return
    s.turn += 1
    s.current = seat
    s.turns[seat] += 1
    s.plays = 0
    s.say(f"Turn {s.turn}: {SEATS[seat]}'s turn {s.turns[seat]}.")
    start_of_turn(s, seat)
    then(s, ("assign_effort", seat), ("play_actions", seat), ("crisis_step", seat),
         ("discard_and_draw", seat))


DECISIONS.begin_turn = begin_turn


def start_of_turn(s: State, seat: int) -> None:
    """Immediately before Step 1: lasting Galvanised People cards go to the discard pile, the
    Shield is removed and every "until your next turn" effect ends (ruling 6)."""
    for entry in s.lasting[seat]:
        s.discard_action(seat, entry.card)
    if s.lasting[seat]:
        s.say(f"{_cards([e.card for e in s.lasting[seat]])} go to {SEATS[seat]}'s discards.")
    s.lasting[seat] = []
    if s.shield[seat]:
        s.say(f"{SEATS[seat]}'s Shield of {s.shield[seat]} is removed.")
    s.shield[seat] = 0


@op("assign_effort")
def _assign_effort(s: State, seat: int) -> None:
    s.step = 1
    push(s, "effort", seat, ())


_EFFORT_ACTIONS: Final[dict[tuple[int, tuple[int, ...]], tuple[Action, ...]]] = {}
"""(required total, levels chosen) -> the effort actions for the next pillar (a cache)."""


def _effort_actions(required: int, chosen: tuple[int, ...]) -> tuple[Action, ...]:
    found = _EFFORT_ACTIONS.get((required, chosen))
    if found is None:
        left = len(PILLARS) - len(chosen) - 1
        room = required - sum(chosen)
        found = tuple(act(EFFORT, len(chosen), v) for v in EFFORT_LEVELS
                      if left * CONSTANTS.effort_min <= room - v <= left * CONSTANTS.effort_max)
        _EFFORT_ACTIONS[(required, chosen)] = found
    return found


def effort_levels(s: State, seat: int, chosen: tuple[int, ...]) -> list[int]:
    """The levels the next pillar may take after ``chosen`` so that every pillar stays 1-4
    and the total is 8 + surviving groups."""
    return [a.y for a in _effort_actions(s.required_effort(seat), chosen)]


def may_keep_effort(s: State, seat: int) -> bool:
    """True if the seat's effort already adds up to what it must assign."""
    levels = s.effort[seat]
    return sum(levels) == s.required_effort(seat) and all(v in EFFORT_LEVELS for v in levels)


class EffortHandler(Handler[State]):
    """Frame ``("effort", seat, chosen)``: the levels chosen so far, pillar by pillar."""

    kind = "effort"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, chosen = f[1], f[2]
        actions = list(_effort_actions(s.required_effort(seat), chosen))
        if not chosen and may_keep_effort(s, seat):
            actions.insert(0, act(KEEP_EFFORT))
        return actions

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f[1]
        if a.verb == KEEP_EFFORT:
            s.stack.pop()
            s.say(f"{SEATS[seat]} keeps their National Effort: {effort_text(s.effort[seat])}.")
            return
        chosen = (*f[2], a.y)
        if len(chosen) < len(PILLARS):
            s.stack[-1] = ("effort", seat, chosen)
            return
        s.stack.pop()
        s.effort[seat] = list(chosen)
        s.say(f"{SEATS[seat]} assigns National Effort: {effort_text(chosen)}.")

    def describe(self, s: State, f: Frame) -> str:
        pillar = PILLARS[len(f[2])]
        return (f"assign {s.required_effort(f[1])} National Effort over the five pillars "
                f"({pillar} next)")


handler(EffortHandler)


@op("play_actions")
def _play_actions(s: State, seat: int) -> None:
    s.step = 2
    push(s, "play", seat)


class PlayHandler(Handler[State]):
    """Frame ``("play", seat)``: Step 2, one Action card (with its Galvanised People card) at a
    time, or stop."""

    kind = "play"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat = f[1]
        if s.plays >= action_limit(s, seat):
            return [act(END_PLAYS)]
        # stopping is always open, so a world sampled for another seat (whose hand differs)
        # still has a move; alone, it is taken at once (citywatch ruling 10)
        return [act(PLAY, card, g) for card, g in playable(s, seat)] + [act(END_PLAYS)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == END_PLAYS:
            s.stack.pop()
            return
        s.plays += 1
        start_action(s, f[1], a.x, a.y)

    def describe(self, s: State, f: Frame) -> str:
        return (f"play up to {action_limit(s, f[1])} Action cards "
                f"({s.plays} played so far)")


handler(PlayHandler)


@op("crisis_step")
def _crisis_step(s: State, seat: int) -> None:
    s.step = 3
    reveals = [("reveal", seat)] * CONSTANTS.crises_per_turn
    then(s, *reveals, ("triggers", seat), ("crisis_deck_check", seat))


@op("reveal")
def _reveal(s: State, seat: int) -> None:
    deck = s.crisis_deck[seat]
    if deck:
        start_crisis(s, deck.pop())


@op("triggers")
def _triggers(s: State, seat: int) -> None:
    then(s, *[("trigger", q) for q in seat_order(s)
              if s.subversive[q] != NONE and CRISIS_CARDS[s.subversive[q]].each_turn])


@op("trigger")
def _trigger(s: State, owner: int) -> None:
    start_trigger(s, owner)


@op("discard_and_draw")
def _discard_and_draw(s: State, seat: int) -> None:
    s.step = 4
    then(s, ("check_end",))
    push(s, "step4", seat)


class Step4Handler(Handler[State]):
    """Frame ``("step4", seat)``: discard Action cards one at a time, then draw up to 4."""

    kind = "step4"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(DISCARD, c) for c in sorted(set(s.hand[f[1]]))] + [act(DRAW)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f[1]
        if a.verb == DISCARD:
            s.take_from_hand(seat, a.x)
            s.discard_action(seat, a.x)
            s.say(f"{SEATS[seat]} discards {ACTION_CARDS[a.x].name}.")
            return
        s.stack.pop()
        _draw(s, seat)

    def describe(self, s: State, f: Frame) -> str:
        return "discard any Action cards, then draw back up to 4"


handler(Step4Handler)
