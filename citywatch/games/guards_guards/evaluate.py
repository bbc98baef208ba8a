"""How well each seat is doing: Great Spells returned, a run under way, and material.

Used by search bots to judge a position where a playout is cut short; it reads facts every
seat can see (rulings 69-70), so it may be given a sampled world.
"""

from __future__ import annotations

import math

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    CHALLENGES,
    GUILD_CARDS,
    SPELL_TILES,
    TILES,
    VOLUNTEER_TILES,
)
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
DECK_FOR_STAT = {"streetwise": 1, "toughness": 2, "loyalty": 0, "brawl": 2}
"""The Volunteer deck richest in each stat (Man & Beast streetwise, Shades toughness, ...)."""


def challenge_stats(s: State, seat: int) -> tuple[str, ...]:
    """The Volunteer stats the seat's next Wizard's Challenge tests (none for the last)."""
    number = len(s.returned[seat])
    if number >= len(CHALLENGES) - 1 or number + 1 >= s.spells_to_win:
        return ()
    return tuple(a for a, source, _ in CHALLENGES[number].tests if source == "runners")


def challenge_target(s: State, seat: int) -> int:
    """The highest target of the seat's next challenge's tests."""
    number = min(len(s.returned[seat]), len(CHALLENGES) - 1)
    return max(t for _, _, t in CHALLENGES[number].tests)


def strength(s: State, seat: int, stats: tuple[str, ...]) -> int:
    """The summed challenge stats of the seat's best four Volunteers in hand."""
    if not stats:
        return 0
    values = sorted((sum(s.stat(v, st) for st in stats) for v in s.hand[seat]), reverse=True)
    return sum(values[:4])


def target_tile(s: State, seat: int) -> int:
    """Where the seat wants to walk this turn."""
    here = s.pos[seat]
    walk = board.WALK[here]
    run = s.run[seat]
    if run is not None and run.final:
        return s.gate[seat]
    card = GUILD_CARDS[s.guild[seat]]
    stats = challenge_stats(s, seat)
    ready = (run is None and len(s.hand[seat]) >= 1
             and (not stats or strength(s, seat, stats) + 4 >= challenge_target(s, seat) - 1))
    if ready:
        spells = [SPELL_TILES[c] for c in card.spells if c not in s.returned[seat]
                  and s.dragons[max(0, TILES[SPELL_TILES[c]].quadrant)] < 0]
        if spells:
            return min(spells, key=lambda t: walk[t])
    wanted = DECK_FOR_STAT.get(stats[0], 1) if stats else 1
    places = [t for t, d in VOLUNTEER_TILES.items()
              if s.dragons[max(0, TILES[t].quadrant)] < 0 and s.can_end_on(seat, t)]
    if not places:
        return here
    return min(places, key=lambda t: walk[t] + (0 if VOLUNTEER_TILES[t] == wanted else 3))


def progress(s: GuardsGuardsState, seat: int) -> float:
    """Spells returned plus the stage reached toward the next one, on one scale where one
    returned spell is worth 1: a run at the gate, the Final Spell on its way (less the steps
    home), Runners enough and the steps to the spell, or the Volunteers still to find."""
    if s.guild[seat] < 0:
        return 0.0
    value = float(len(s.returned[seat]))
    run = s.run[seat]
    here = s.pos[seat]
    if run is not None:
        if run.final:
            value += 0.7 - 0.02 * board.WALK[here][s.gate[seat]]
            value += 0.02 * (s.level(seat, 0) + s.level(seat, 1))
        else:
            value += 0.5 + 0.02 * len(run.at_gate)
    else:
        stats = challenge_stats(s, seat)
        need = challenge_target(s, seat)
        have = strength(s, seat, stats) + 4 if stats else 0
        ready = 1.0 if not stats else min(1.0, have / max(1, need))
        value += 0.25 * ready
        goal = target_tile(s, seat)
        value += 0.15 * ready - 0.01 * board.WALK[here][goal]
        if not stats:  # the final challenge tests the player's Magic and Guild
            value += 0.02 * (s.level(seat, 0) + s.level(seat, 1))
    value += 0.02 * min(len(s.hand[seat]), 5)
    value += 0.005 * min(s.dollars[seat], 20)
    return value


def evaluate(s: GuardsGuardsState) -> list[float]:
    """Each seat's share of winning (summing to 1): a softmax of progress toward the target
    number of spells."""
    if s.result is not None:
        return s.result.shares(s.n) if s.result.winners else [1.0 / s.n] * s.n
    scale = 30.0 / max(1, s.spells_to_win)  # sharp: search bots must see small steps
    weights = [math.exp(scale * progress(s, p)) for p in range(s.n)]
    total = sum(weights)
    return [w / total for w in weights]
