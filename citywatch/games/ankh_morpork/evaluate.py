"""How well each seat is doing: progress toward each personality, and material.

Used by search bots to judge a position where a playout is cut short, as each seat's share of
winning (``evaluate``: a softmax of weighed ``features``, the weights fitted to the winners of
heuristic games by ``fit_evaluation.py``, ``data/evaluation.json``; the hand-made
``hand_evaluate`` is one of the features), and by the heuristic bot to compare the worlds its
actions lead to (``heuristic_value``). It reads the whole state it is given; bots give it
worlds sampled from their own view, never the true state.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from citywatch.games.ankh_morpork.data import (
    AREAS,
    CHRYSOPRASE_WORTH,
    DRAGON_KING_TROUBLE,
    LORD_AREAS,
    LORDS,
    MINIONS_PER_PLAYER,
    NUM_AREAS,
    PERSONALITIES,
    TWO_PLAYER_REMOVED_PERSONALITIES,
    VETINARI_AREAS,
)
from citywatch.games.ankh_morpork.scoring import (
    controlled_areas,
    net_worth,
    points,
    spy_areas,
)
from citywatch.games.ankh_morpork.state import INTERRUPT_CARDS, LOAN_CARDS, AnkhMorporkState

FULL_PILE: Final = 80.0
VIMES: Final = "Commander Vimes"


def progress(s: AnkhMorporkState, seat: int, personality: str) -> float:
    """How close ``seat`` is to winning as ``personality``: 1.0 means the condition holds."""
    if personality == "Lord Vetinari":
        return spy_areas(s, seat) / VETINARI_AREAS[s.n]
    if personality in LORDS:
        return controlled_areas(s, seat) / LORD_AREAS[s.n]
    if personality == "Dragon King of Arms":
        return s.trouble_count() / DRAGON_KING_TROUBLE
    if personality == "Chrysoprase":
        return max(0.0, net_worth(s, seat) / CHRYSOPRASE_WORTH)
    return max(0.0, 1.0 - len(s.draw_pile) / FULL_PILE) * 0.9  # Vimes: the deck running out


def material(s: AnkhMorporkState, seat: int) -> float:
    """Points-like worth: money, minions and buildings outside demon areas."""
    total = s.money[seat]
    for a in range(NUM_AREAS):
        if s.demons[a]:
            continue
        total += 5 * s.minions[seat][a]
        if s.building[a] == seat:
            total += AREAS[a].cost
    return float(total)


def candidates(s: AnkhMorporkState) -> list[str]:
    """Personalities that can be in play with this many players."""
    return [p.name for p in PERSONALITIES
            if s.n > 2 or p.name not in TWO_PLAYER_REMOVED_PERSONALITIES]


def strength(s: AnkhMorporkState, seat: int, personality: str) -> float:
    """One number for a seat's standing as ``personality``."""
    p = progress(s, seat, personality)
    value = 3.0 * min(p, 1.0) ** 2 + 0.01 * material(s, seat)
    if p >= 1.0 and personality != VIMES:
        value += 4.0
    return value


def hand_evaluate(s: AnkhMorporkState) -> list[float]:
    """The hand-made estimate of each seat's chance of winning, a share summing to 1
    (personalities as in ``s``): a softmax of ``strength``. A feature of ``evaluate``."""
    if s.result is not None:
        share = 1.0 / len(s.result.winners)
        return [share if p in s.result.winners else 0.0 for p in range(s.n)]
    scores = [strength(s, p, PERSONALITIES[s.personality[p]].name) for p in range(s.n)]
    top = max(scores)
    weights = [math.exp(1.5 * (x - top)) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


def heuristic_value(s: AnkhMorporkState, seat: int) -> float:
    """``seat``'s standing minus the greatest threat it can see from another player.

    Another player's personality is unknown, so each is judged by the most dangerous
    personality it could have (never one the seat holds itself).
    """
    if s.result is not None:
        return 100.0 if seat in s.result.winners else -100.0
    mine = PERSONALITIES[s.personality[seat]].name
    own = strength(s, seat, mine)
    others = [c for c in candidates(s) if c != mine]
    threat = 0.0
    for p in s.others(seat):
        danger = max(progress(s, p, c) for c in others if c != VIMES)
        threat = max(threat, danger)
    penalty = 6.0 if threat >= 1.0 else 2.0 * max(0.0, threat - 0.5)
    if mine == VIMES:
        penalty *= 1.5
    return own - penalty + 0.05 * len(s.hands[seat])


FEATURES: Final[tuple[str, ...]] = (
    "hand_share", "progress", "progress_squared", "met", "met_later", "turn_order", "money",
    "minions", "buildings", "hand", "interrupts", "points_late", "vetinari", "lord", "dragon_king",
    "chrysoprase", "vimes", "vimes_late",
)
"""What ``features`` measures of a seat, in order (``data/evaluation.json`` weighs them)."""

WEIGHTS_JSON: Final = Path(__file__).parent / "data" / "evaluation.json"
KINDS: Final = {name: (1 if name == "Lord Vetinari" else 2 if name in LORDS
                else 3 if name == "Dragon King of Arms" else 4 if name == "Chrysoprase" else 5)
         for name in (p.name for p in PERSONALITIES)}
"""Each personality's column among the five kind indicators (``features`` 12 to 16)."""


def features(s: AnkhMorporkState, seat: int) -> list[float]:
    """The seat's standing as numbers on similar scales: its ``hand_evaluate`` share, progress
    toward its own personality (capped at 1, and squared), whether the condition holds now
    and that again weighed by how many seats move before its turn comes to check it, how soon
    its turn comes, its money, minions, buildings, cards in hand and interrupts among them,
    its points (``scoring.points``) weighed by how near the draw pile's end is, and which
    kind of personality it has (alone, and Vimes weighed by the draw pile's end)."""
    name = PERSONALITIES[s.personality[seat]].name
    late = max(0.0, 1.0 - len(s.draw_pile) / FULL_PILE)
    return _row(s, seat, name, progress(s, seat, name), hand_evaluate(s)[seat], late,
                points(s)[seat])


def _row(s: AnkhMorporkState, seat: int, name: str, reached: float, hand_share: float,
         late: float, score: float) -> list[float]:
    """``features`` from its parts: ``reached`` is ``progress``, ``late`` the pile's end (0 to
    1), ``score`` the seat's points."""
    p = min(1.0, reached) if name != VIMES else 0.0
    met = 1.0 if p >= 1.0 else 0.0
    order = ((seat - s.current) % s.n) / s.n
    hand = s.hands[seat]
    kind = KINDS[name]
    return [
        hand_share,
        p,
        p * p,
        met,
        met * order,
        order,
        s.money[seat] / 20,
        sum(s.minions[seat]) / MINIONS_PER_PLAYER,
        s.building.count(seat) / 6,
        len(hand) / 5,
        float(sum(1 for c in hand if c in INTERRUPT_CARDS)),
        late * score / 100,
        float(kind == 1), float(kind == 2), float(kind == 3), float(kind == 4), float(kind == 5),
        late if kind == 5 else 0.0,
    ]


def _weigh(weights: tuple[float, ...], row: list[float]) -> float:
    """The sum of ``weights`` times ``row``, term by term in order; ``ValueError`` if their
    lengths differ."""
    if len(weights) != len(row):
        raise ValueError(f"{len(weights)} weights for {len(row)} features")
    return sum([weights[i] * row[i] for i in range(len(row))])


def load_weights(path: Path = WEIGHTS_JSON) -> tuple[float, ...] | None:
    """The fitted weights, one per feature, checked against ``FEATURES``; None without the
    file (``evaluate`` then falls back on ``hand_evaluate``)."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path.name} weighs other features than evaluate.FEATURES: run "
                         "python -m citywatch.games.ankh_morpork.fit_evaluation")
    return tuple(float(w) for w in data["weights"])


WEIGHTS: Final = load_weights()


def evaluate(s: AnkhMorporkState, weights: Sequence[float] | None = WEIGHTS) -> list[float]:
    """Each seat's share of winning (summing to 1; personalities as in ``s``): a finished
    game's winners share it; otherwise a softmax of the weighed ``features``, the weights
    fitted to who won heuristic games (``fit_evaluation.py``), or ``hand_evaluate`` without
    weights. Computes ``features`` once for every seat, sharing their parts."""
    if s.result is not None or weights is None:
        return hand_evaluate(s)
    names = [PERSONALITIES[s.personality[p]].name for p in range(s.n)]
    reached = [progress(s, p, names[p]) for p in range(s.n)]
    worth = [material(s, p) for p in range(s.n)]
    strengths = [3.0 * min(r, 1.0) ** 2 + 0.01 * m + (4.0 if r >= 1.0 and x != VIMES else 0.0)
                 for r, m, x in zip(reached, worth, names, strict=True)]
    top = max(strengths)
    hand = [math.exp(1.5 * (x - top)) for x in strengths]
    total = sum(hand)
    scores: Sequence[float] = worth
    if any(c in LOAN_CARDS for row in s.in_front for c in row):
        scores = points(s)  # points are material unless a loan is due
    late = max(0.0, 1.0 - len(s.draw_pile) / FULL_PILE)
    weighed = tuple(weights)
    values = [_weigh(weighed, _row(s, p, names[p], reached[p], hand[p] / total, late,
                                   scores[p]))
              for p in range(s.n)]
    top = max(values)
    exps = [math.exp(x - top) for x in values]
    total = sum(exps)
    return [x / total for x in exps]
