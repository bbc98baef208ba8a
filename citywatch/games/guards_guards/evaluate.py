"""How well each seat is doing: Great Spells returned, a run under way, and material.

Used by search bots to judge a position where a playout is cut short; it reads facts every
seat can see (rulings 69-70), so it may be given a sampled world.
"""

from __future__ import annotations

import math

from citywatch.games.guards_guards.state import GuardsGuardsState


def progress(s: GuardsGuardsState, seat: int) -> float:
    """Spells returned, a run under way, Volunteers, dollars and levels, on one scale where one
    returned spell is worth 1."""
    value = float(len(s.returned[seat]))
    run = s.run[seat]
    if run is not None:
        value += 0.35 if run.at_gate or run.final else 0.2
    value += 0.08 * min(len(s.hand[seat]), 5)
    value += 0.01 * min(s.dollars[seat], 20)
    value += 0.02 * sum(s.attrs[seat])
    return value


def evaluate(s: GuardsGuardsState) -> list[float]:
    """Each seat's share of winning (summing to 1): a softmax of progress toward the target
    number of spells."""
    if s.result is not None:
        return s.result.shares(s.n) if s.result.winners else [1.0 / s.n] * s.n
    scale = 6.0 / max(1, s.spells_to_win)
    weights = [math.exp(scale * progress(s, p)) for p in range(s.n)]
    total = sum(weights)
    return [w / total for w in weights]
