"""How well each seat is doing: its score now, what protects it, and the Crisis cards to come.

Used by search bots to judge a position where a playout is cut short, as each seat's share of
winning (``evaluate``: a softmax of weighed ``features``, the weights fitted to the winners of
heuristic games by ``fit_evaluation.py``, ``data/evaluation.json``), and by the heuristic bot
to compare the worlds its actions lead to (``standing``) and to weigh National Effort
(``exposure``). It reads the whole state it is given; bots give it worlds sampled from their
own view, never the true state. The Crisis cards still to come are read from the Crisis decks'
contents, which every view can work out (deck lists are public, citywatch ruling 5); their
order is never used.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    PILLARS,
    SCORE_POINTS,
    Op,
    Who,
)
from citywatch.games.guardians_of_the_city.state import EFFORT_MAX, NONE, GotcState

State = GotcState
SHIELD: Final = 0.45
"""A Shield point's worth: a loss it may absorb before the owner's next turn."""
LASTING: Final = 0.5
"""A lasting Galvanised People card's worth until the owner's next turn."""
LOW_SUPPORT: Final[tuple[float, ...]] = (0.0, 1.5, 0.5, 0.0, 0.0)
"""The risk of a Citizen Group at each support level leaving soon (index: support)."""
GROUP_LEFT: Final = 3.0
"""A Citizen Group gone: one effort fewer for good, and nearer losing everything."""
WIN: Final = 100.0
"""A finished game's worth to a winner (split between shared winners)."""
SHORT_DECK: Final = 4
"""An Action deck this short nears end condition (a), which its owner loses."""



def hits(who: Who | None, level: int, others: Sequence[int]) -> bool:
    """True if ``who`` selects a seat at ``level`` on its pillar while the other seats stand
    at ``others`` (lowest and highest select every tied seat; rulebook section 7, Step 3)."""
    if who is None or who.form == "all":
        return True
    if who.form == "at_most":
        return level <= who.value
    if who.form == "at_least":
        return level >= who.value
    if not others:
        return True
    if who.form == "lowest":
        return level <= min(others)
    return level >= max(others)


def op_loss(o: Op, surviving: int) -> float:
    """What one op of a Crisis card costs a seat it selects, in support points."""
    if o.name == "lose_support":
        count = surviving if o.group == "each" else o.groups
        return float(o.amount * min(count, surviving))
    if o.name == "discard_from_hand":
        return 0.8 * o.amount
    if o.name == "mill_actions":
        return 0.2 * o.amount
    if o.name == "limit_actions":
        return 1.5
    if o.name == "weaken_reductions":
        return 0.5
    return 0.0


def _add_losses(table: list[list[float]], ops: tuple[Op, ...], weight: float,
                others: list[list[int]], surviving: int) -> None:
    for o in ops:
        if o.who is None or o.name == "raise_cell":
            continue
        pillar = o.who.pillar
        loss = weight * op_loss(o, surviving)
        if pillar < 0:  # every seat: the same at every level of every pillar
            table[0] = [x + loss for x in table[0]]
            continue
        against = [e[pillar] for e in others]
        row = table[pillar]
        for level in range(1, len(row)):
            if hits(o.who, level, against):
                row[level] += loss


Table = list[list[float]]
"""Expected support lost per pillar and effort level (``exposure_table``)."""
CACHE_LIMIT = 4096
"""At most this many tables are remembered (0: none); the cache is emptied when full."""
_TABLES: Final[dict[tuple[object, ...], Table]] = {}


def exposure_table(s: State, seat: int) -> Table:
    """The support the seat may expect to lose before its next Step 1, per pillar and effort
    level on it (index 0 unused): one round of Crisis cards (two per seat, drawn from the
    decks' contents) and every active Subversive's effects, as the other seats' effort
    stands. Every Crisis op reads one pillar, so an assignment's exposure is a sum. Tables
    are remembered by everything they read (``CACHE_LIMIT``); callers must not change them."""
    key = (seat, s.surviving(seat), tuple(tuple(e) for q, e in enumerate(s.effort) if q != seat),
           tuple(tuple(d) for d in s.crisis_deck), tuple(s.subversive))
    table = _TABLES.get(key)
    if table is None:
        table = compute_exposure_table(s, seat)
        if len(_TABLES) >= CACHE_LIMIT:
            _TABLES.clear()
        if CACHE_LIMIT > 0:
            _TABLES[key] = table
    return table


def compute_exposure_table(s: State, seat: int) -> Table:
    """``exposure_table`` computed afresh."""
    others = [s.effort[q] for q in range(s.n) if q != seat]
    surviving = s.surviving(seat)
    table = [[0.0] * (EFFORT_MAX + 1) for _ in PILLARS]
    for q in range(s.n):
        deck = s.crisis_deck[q]
        if not deck:
            continue
        per_card = min(2, len(deck)) / len(deck)
        for card, count in Counter(deck).items():
            _add_losses(table, CRISIS_CARDS[card].effect, per_card * count, others, surviving)
    for card in s.subversive:
        if card != NONE:
            c = CRISIS_CARDS[card]
            _add_losses(table, c.while_active, 1.0, others, surviving)
            _add_losses(table, c.each_turn, float(s.n), others, surviving)
    return table


def exposure(table: list[list[float]], levels: Sequence[int]) -> float:
    """The expected loss of an effort assignment, read from ``exposure_table``."""
    return sum(row[level] for row, level in zip(table, levels, strict=True))


def standing(s: State, seat: int) -> float:
    """The seat's score (rulebook section 10) with what protects it (Shield, lasting cards),
    less the risk of its weakest Citizen Groups leaving and of its Action deck running out."""
    if s.surviving(seat) == 0:
        return -WIN
    value = float(s.score(seat)) + SHIELD * s.shield[seat] + LASTING * len(s.lasting[seat])
    for level in s.support[seat]:
        value -= GROUP_LEFT if level == 0 else LOW_SUPPORT[level]
    deck = len(s.action_deck[seat])
    if deck < SHORT_DECK:
        value -= 2.0 * (SHORT_DECK - deck)
    return value


def finished_value(s: State, seat: int) -> float:
    """A finished game's worth to the seat: ``WIN`` shared among the winners, ``-WIN`` for a
    loser and 0 for a draw."""
    assert s.result is not None
    winners = s.result.winners
    if not winners:
        return 0.0
    return WIN / len(winners) if seat in winners else -WIN


def advantage(s: State, seat: int) -> float:
    """The seat's standing less the best other seat's: what the heuristic bot maximises."""
    if s.result is not None:
        return finished_value(s, seat)
    best = max(standing(s, q) for q in range(s.n) if q != seat)
    return standing(s, seat) - best


def card_value(s: State, seat: int, card: int, levels: Sequence[int]) -> float:
    """What playing the Action card would bring the seat with effort ``levels``, judged from
    its text without playing it: cell points it can still take, support it can still regain,
    Shield, Special Intelligence points (a Galvanised People card: a small bonus)."""
    c = ACTION_CARDS[card]
    if c.is_galvanised:
        return 0.3 if c.lasting else 0.2
    alive = sorted((x for x in s.cells if x > 0), reverse=True)
    missing = sum(4 - x for x in s.support[seat] if x > 0)
    value = 0.0

    def walk(ops: tuple[Op, ...]) -> None:
        nonlocal value, missing
        for o in ops:
            if o.name == "reduce_cell":
                n = len(alive) if o.target == "each" else o.cells
                value += 1.1 * sum(min(o.amount, x) for x in alive[:n])
            elif o.name == "raise_support":
                n = 4 if o.group == "each" else o.groups
                gain = min(missing, o.amount * n)
                missing -= gain
                value += gain
            elif o.name == "shield":
                value += SHIELD * o.amount
            elif o.name == "if_effort" and levels[o.pillar] >= o.at_least:
                walk(o.then)
            elif o.name == "score_this_card":
                value += o.points + 1.0 if any(x != NONE for x in s.subversive) else 0.0
    walk(c.effect)
    return value


FEATURES: Final[tuple[str, ...]] = (
    "standing", "score", "score_late", "ct", "support", "groups", "weak_groups", "shield",
    "lasting", "deck", "short_deck", "hand", "hand_value", "exposure", "special_intelligence",
    "turn_order",
)
"""What ``features`` measures of a seat, in order (``data/evaluation.json`` weighs them)."""

WEIGHTS_JSON: Final = Path(__file__).parent / "data" / "evaluation.json"
CELL_POINTS: Final = CONSTANTS.cell_max * len(CELLS)
"""The Terrorist Cells' points at most: how far the game is from its usual end."""


def features(s: State, seat: int) -> list[float]:
    """The seat's standing, as numbers on similar scales: ``standing``, the score and its
    parts, the score again weighed by how near the end is (the cells' points gone, or 1 once
    an end condition waits for the round), its groups and the weak ones, Shield and lasting
    cards, its Action deck and hand (the two best plays' ``card_value``), the support it may
    lose before its next turn (``exposure``), and how soon its turn comes."""
    support = s.support[seat]
    score = float(s.score(seat))
    late = 1.0 if s.pending else 1.0 - sum(s.cells) / CELL_POINTS
    deck = len(s.action_deck[seat])
    levels = s.effort[seat]
    values = sorted((card_value(s, seat, c, levels) for c in s.hand[seat]), reverse=True)
    return [
        max(-20.0, standing(s, seat)) / 4,
        score / 10,
        late * score / 10,
        s.ct[seat] / 10,
        sum(support) / 16,
        s.surviving(seat) / 4,
        sum(1 for x in support if x == 1) / 4,
        s.shield[seat] / 4,
        float(len(s.lasting[seat])),
        min(deck, 20) / 20,
        max(0, SHORT_DECK - deck) / SHORT_DECK,
        len(s.hand[seat]) / 4,
        sum(values[:2]) / 4,
        exposure(exposure_table(s, seat), levels) / 4,
        sum(SCORE_POINTS[c] for c in s.score_pile[seat]) / 4,
        ((seat - s.current) % s.n) / s.n,
    ]


def load_weights(path: Path = WEIGHTS_JSON) -> tuple[float, ...]:
    """The fitted weights, one per feature, checked against ``FEATURES``."""
    data = json.loads(path.read_text())
    if tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path.name} weighs other features than evaluate.FEATURES: run "
                         "python -m citywatch.games.guardians_of_the_city.fit_evaluation")
    return tuple(float(w) for w in data["weights"])


WEIGHTS: Final = load_weights()


def evaluate(s: State, weights: Sequence[float] = WEIGHTS) -> list[float]:
    """Each seat's share of winning (summing to 1): a finished game's winners share it, a
    draw is equal shares; otherwise a softmax of the weighed ``features``, the weights fitted
    to who won heuristic games (``fit_evaluation.py``)."""
    if s.result is not None:
        return s.result.shares(s.n) if s.result.winners else [1.0 / s.n] * s.n
    scores = [sum(w * x for w, x in zip(weights, features(s, p), strict=True))
              for p in range(s.n)]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    return [x / total for x in exps]
