"""How well each seat is doing: progress toward each personality, and material.

Used by the heuristic bot (from its own sampled world) and by search bots to
judge a position where a playout is cut short.
"""

from __future__ import annotations

import math

from citywatch.games.ankh_morpork.data import (
    AREAS,
    CHRYSOPRASE_WORTH,
    DRAGON_KING_TROUBLE,
    LORD_AREAS,
    LORDS,
    NUM_AREAS,
    PERSONALITIES,
    TWO_PLAYER_REMOVED_PERSONALITIES,
    VETINARI_AREAS,
)
from citywatch.games.ankh_morpork.scoring import controlled_areas, net_worth, spy_areas
from citywatch.games.ankh_morpork.state import AnkhMorporkState

FULL_PILE = 80.0
VIMES = "Commander Vimes"


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


def evaluate(s: AnkhMorporkState) -> list[float]:
    """Each seat's chance of winning as a share summing to 1 (personalities as in ``s``)."""
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
