"""A heuristic Guardians of the City bot: it races for the cells while keeping its people.

It looks only at a world sampled from its own view (``Observation.sample``), so it never reads
another player's hidden cards. National Effort: of every assignment the rules allow, the one
whose two best playable cards (judged from their text) most outweigh the support it exposes
to the Crisis cards still to come. Step 2: each legal play is tried on a copy of the world,
the seat's own further choices for it are settled, and the play that leaves the seat furthest
ahead of the best other seat wins (``advantage``: score, Shield, weak groups), if it beats
keeping the cards (option ``lookahead=0``: plays judged from their text instead). Cells: the
least waste, the weakest first; groups: raise the weakest, lose where it costs least. Never
discards in Step 4 (an empty Action deck loses); takes back and keeps its best cards, lowers
the pillar it misses least, and removes the Subversive that hurts it most.
"""

from __future__ import annotations

from itertools import product
from typing import Any, ClassVar, Final, NamedTuple

from citywatch.bots.base import WorldBot
from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city.actions import (
    DISCARD,
    DRAW,
    EFFORT,
    END_PLAYS,
    KEEP_EFFORT,
    LOSE_GROUPS,
    LOWER,
    RAISE_CELLS,
    RAISE_GROUPS,
    REDUCE_CELLS,
    REMOVE_SUBVERSIVE,
    TAKE_BACK,
    TAKE_NOTHING,
    Action,
)
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CONSTANTS,
    CRISIS_CARDS,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.evaluate import (
    GROUP_LEFT,
    LOW_SUPPORT,
    advantage,
    card_value,
    exposure,
    exposure_table,
    hits,
    op_loss,
)
from citywatch.games.guardians_of_the_city.state import EFFORT_MAX, SUPPORT_MAX, GotcState

State = GotcState
LEVELS: Final = range(CONSTANTS.effort_min, CONSTANTS.effort_max + 1)
ASSIGNMENTS: Final[dict[int, list[tuple[int, ...]]]] = {}
"""Every assignment of National Effort, by its total (filled on first use)."""
CARD_COST: Final = 0.3
"""What a card in hand is worth kept: a play must bring more than this."""
SETTLE_STEPS: Final = 12
"""At most this many of its own further choices are settled when trying an action."""


def assignments(total: int) -> list[tuple[int, ...]]:
    """Every effort assignment (each pillar 1-4) adding up to ``total``."""
    if total not in ASSIGNMENTS:
        ASSIGNMENTS[total] = [a for a in product(LEVELS, repeat=len(PILLARS)) if sum(a) == total]
    return ASSIGNMENTS[total]


class HandCard(NamedTuple):
    """A playable-looking card in hand: its requirement, and its value from ``card_value``
    with and without its ``if_effort`` condition (pillar -1: none) met."""

    pillar: int
    min_effort: int
    if_pillar: int
    if_at_least: int
    met: float
    unmet: float


def hand_cards(s: State, seat: int) -> list[HandCard]:
    """The seat's non-Galvanised cards in hand, valued once for every assignment."""
    found = []
    for card in s.hand[seat]:
        c = ACTION_CARDS[card]
        if c.is_galvanised:
            continue
        cond = next((o for o in c.effect if o.name == "if_effort"), None)
        found.append(HandCard(
            c.pillar, c.min_effort, cond.pillar if cond else -1, cond.at_least if cond else 0,
            card_value(s, seat, card, (EFFORT_MAX,) * len(PILLARS)),
            card_value(s, seat, card, (CONSTANTS.effort_min,) * len(PILLARS))))
    return found


def plays_value(cards: list[HandCard], levels: tuple[int, ...]) -> float:
    """The two best of ``cards`` playable with ``levels``."""
    values = sorted((h.met if h.if_pillar < 0 or levels[h.if_pillar] >= h.if_at_least
                     else h.unmet for h in cards if levels[h.pillar] >= h.min_effort),
                    reverse=True)
    return sum(values[:2])


def assignment_value(s: State, seat: int, levels: tuple[int, ...]) -> float:
    """How good an effort assignment is: its two best plays less the support it exposes."""
    return plays_value(hand_cards(s, seat), levels) - exposure(exposure_table(s, seat), levels)


VALUES_LIMIT = 1024
"""At most this many seats' assignment values are remembered (0: none); emptied when full."""
_VALUES: Final[dict[tuple[object, ...], list[tuple[tuple[int, ...], float]]]] = {}


def assignment_values(s: State, seat: int) -> list[tuple[tuple[int, ...], float]]:
    """Every assignment of the seat's required effort with its ``assignment_value``, in the
    order of ``assignments``; remembered by everything the values read (the hand, cells,
    support, Subversives, the other seats' effort and the Crisis decks), so the five steps of
    one National Effort decision value the assignments once."""
    key = (seat, tuple(s.hand[seat]), tuple(s.cells), tuple(s.support[seat]),
           tuple(s.subversive), tuple(tuple(e) for q, e in enumerate(s.effort) if q != seat),
           tuple(tuple(d) for d in s.crisis_deck))
    pairs = _VALUES.get(key)
    if pairs is None:
        table = exposure_table(s, seat)
        cards = hand_cards(s, seat)
        pairs = [(a, plays_value(cards, a) - exposure(table, a))
                 for a in assignments(s.required_effort(seat))]
        if len(_VALUES) >= VALUES_LIMIT:
            _VALUES.clear()
        if VALUES_LIMIT > 0:
            _VALUES[key] = pairs
    return pairs


def best_assignment(s: State, seat: int, chosen: tuple[int, ...], rng: Rng) -> tuple[int, ...]:
    """The best assignment starting with the levels ``chosen`` so far (ties at random)."""
    k = len(chosen)
    pairs = [(a, v) for a, v in assignment_values(s, seat) if a[:k] == chosen]
    best = max(v for _, v in pairs)
    top = [a for a, v in pairs if v >= best - 1e-9]
    return top[rng.below(len(top))]


def subversive_harm(s: State, seat: int, card: int) -> float:
    """What an active Subversive costs the seat each round, as its effort stands."""
    c = CRISIS_CARDS[card]
    others = [s.effort[q] for q in range(s.n) if q != seat]
    loss = 0.0
    for o in (*c.while_active, *c.each_turn):
        if o.who is not None and hits(o.who, s.effort[seat][o.who.pillar],
                                      [e[o.who.pillar] for e in others]):
            loss += op_loss(o, s.surviving(seat))
    return loss


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class HeuristicBot(WorldBot):
    """Races for the cells and keeps its people, from a sampled world only."""

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ("lookahead",)
    """The options a spec may set."""

    def __init__(self, lookahead: int = 1) -> None:
        if lookahead not in (0, 1):
            raise ValueError("lookahead must be 0 (judge plays by their text) or 1 (try each)")
        self.lookahead = lookahead

    def choose_in(self, world: Any, seat: int, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action the plan prefers in ``world``, a world already sampled for
        ``seat`` (search bots' playouts call this to skip sampling again)."""
        assert isinstance(world, GotcState)
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self._choose(world, seat, legal_actions, rng, SETTLE_STEPS)

    def _choose(self, s: State, seat: int, actions: list[Action], rng: Rng,
                budget: int) -> Action:
        verbs = {a.verb for a in actions}
        kind = s.stack[-1][0] if s.stack else ""
        if EFFORT in verbs or KEEP_EFFORT in verbs:
            return self._effort(s, seat, actions, rng)
        if kind == "step4" and DRAW in verbs:
            return Action(DRAW)
        if LOWER in verbs:
            return max(actions, key=lambda a: assignment_value(
                s, seat, tuple(v - (p == a.x) for p, v in enumerate(s.effort[seat]))))
        if kind == "discard" and DISCARD in verbs:
            return min(actions, key=lambda a: card_value(s, seat, a.x, s.effort[seat]))
        if TAKE_BACK in verbs or TAKE_NOTHING in verbs:
            backs = [a for a in actions if a.verb == TAKE_BACK]
            if not backs:
                return actions[0]
            return max(backs, key=lambda a: card_value(s, seat, a.x, s.effort[seat]))
        if REMOVE_SUBVERSIVE in verbs:
            return max(actions, key=lambda a: self._removal(s, seat, a))
        if kind in ("cells", "groups", "lose_next"):
            return max(actions, key=lambda a: self._pick_value(s, seat, a))
        if not self.lookahead and kind == "play":
            return max(actions, key=lambda a: self._play_value(s, seat, a))
        return self._look_ahead(s, seat, actions, rng, budget)

    def _play_value(self, s: State, seat: int, a: Action) -> float:
        """A play judged from its text (``lookahead`` 0): the card's value and its
        Galvanised People card's, less what the cards are worth kept."""
        if a.verb == END_PLAYS:
            return 0.0
        levels = s.effort[seat]
        value = card_value(s, seat, a.x, levels) - CARD_COST
        if a.y >= 0:
            value += card_value(s, seat, a.y, levels) - CARD_COST
        return value

    def _effort(self, s: State, seat: int, actions: list[Action], rng: Rng) -> Action:
        chosen: tuple[int, ...] = s.stack[-1][2]
        best = best_assignment(s, seat, chosen, rng)
        keep = Action(KEEP_EFFORT)
        if keep in actions and tuple(s.effort[seat]) == best:
            return keep
        want = Action(EFFORT, len(chosen), best[len(chosen)])
        return want if want in actions else actions[-1]

    def _removal(self, s: State, seat: int, a: Action) -> float:
        others = [q for q in range(s.n) if q != seat]
        helps = max((subversive_harm(s, q, a.y) for q in others), default=0.0)
        return subversive_harm(s, seat, a.y) - helps + (0.1 if a.x == seat else 0.0)

    def _pick_value(self, s: State, seat: int, a: Action) -> float:
        """How good a choice of cells or groups is: reduce cells with the least waste, the
        weakest first (to finish them); raise the strongest cells; raise the weakest groups;
        lose support where it costs least (Loyalty's protected groups, the strongest)."""
        f = s.stack[-1]
        if a.verb == REDUCE_CELLS:
            chosen = [s.cells[i] for i in _bits(a.x)]
            amount: int = f[4]
            return -10.0 * sum(max(0, amount - x) for x in chosen) - sum(chosen)
        if a.verb == RAISE_CELLS:
            return float(sum(s.cells[i] for i in _bits(a.x)))
        support = s.support[seat]
        if a.verb == RAISE_GROUPS:
            raised: int = f[5]
            return sum(min(raised, SUPPORT_MAX - support[g]) + LOW_SUPPORT[support[g]]
                       for g in _bits(a.x))
        if a.verb == LOSE_GROUPS:
            safe = s.protected_groups(seat)
            harm = 0.0
            for g in _bits(a.x):
                if safe >> g & 1:
                    continue
                left = max(0, support[g] - f[5])
                harm += support[g] - left + (GROUP_LEFT if left == 0 else LOW_SUPPORT[left])
            return -harm
        return float(support[a.x]) if a.x >= 0 else 0.0

    def _look_ahead(self, s: State, seat: int, actions: list[Action], rng: Rng,
                    budget: int) -> Action:
        best: list[Action] = []
        best_value = -1e18
        for a in actions:
            value = self._after(s, seat, a, rng, budget)
            if value > best_value + 1e-9:
                best, best_value = [a], value
            elif value > best_value - 1e-9:
                best.append(a)
        return best[rng.below(len(best))]

    def _after(self, s: State, seat: int, a: Action, rng: Rng, budget: int) -> float:
        """The seat's advantage after ``a`` and its own further choices for that card."""
        if a.verb == END_PLAYS:
            return advantage(s, seat)
        w = s.copy()
        w.apply(a)
        cost = CARD_COST * (1 + (a.y >= 0)) if a.verb == "play" else 0.0
        while (budget > 0 and w.result is None and w.to_move == seat and w.stack
               and w.stack[-1][0] not in ("play", "effort", "step4")):
            budget -= 1
            legal = w.legal_actions()
            w.apply(legal[0] if len(legal) == 1 else self._choose(w, seat, legal, rng, budget))
        return advantage(w, seat) - cost
