"""How well each seat is doing: Great Spells returned, a run under way, and material.

Used by search bots to judge a position where a playout is cut short, as each seat's share
of winning: a softmax of weighed ``features``, the weights fitted to the winners of heuristic
games (``fit_evaluation.py``, ``data/evaluation.json``). It reads the whole state it is given;
search bots give it worlds sampled from their own view, never the true state. The heuristic
bot also uses the plan helpers here (``challenge_stats``, ``target_tile``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Final

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
DECK_FOR_STAT: Final = {"streetwise": 1, "toughness": 2, "loyalty": 0, "brawl": 2}
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


FEATURES: Final[tuple[str, ...]] = (
    "spells", "one_left", "run", "run_progress", "run_strength", "final", "final_steps", "ready",
    "steps_to_goal", "hand", "dollars", "magic", "guild", "charm", "pox", "held_up", "turn_order",
    "saboteurs", "magic_cards",
)
"""What ``features`` measures of a seat, in order (``data/evaluation.json`` weighs them)."""

WEIGHTS_JSON: Final = Path(__file__).parent / "data" / "evaluation.json"


def features(s: State, seat: int) -> list[float]:
    """The seat's standing, as numbers on similar scales: spells still to return, the stage
    reached toward the next one (a Spell Run's quadrants passed and its strength against the
    challenge, the Final Spell's steps home, Runners enough and the steps to where the seat
    is going), material, levels, setbacks, and how soon its turn comes."""
    f = [0.0] * len(FEATURES)
    spells = len(s.returned[seat])
    f[0] = spells - s.spells_to_win
    f[1] = 1.0 if s.spells_to_win - spells == 1 else 0.0
    run = s.run[seat]
    here = s.pos[seat]
    stats = challenge_stats(s, seat)
    need = max(1, challenge_target(s, seat))
    if run is not None and run.final:
        f[5] = 1.0
        f[6] = board.WALK[here][s.gate[seat]] / 10 if here >= 0 else 1.0
    elif run is not None:
        f[2] = 1.0
        f[3] = run.next_quadrant / max(1, len(run.quadrants))
        if stats:
            values = sorted((sum(s.stat(v, st, item) for st in stats)
                             for v, item in run.runners + run.at_gate), reverse=True)
            f[4] = min(1.5, (sum(values[:4]) + 4) / need)
        else:
            f[4] = 1.0
    else:
        f[7] = min(1.5, (strength(s, seat, stats) + 4) / need) if stats else 1.0
        f[8] = board.WALK[here][target_tile(s, seat)] / 10 if here >= 0 else 1.0
    f[9] = min(len(s.hand[seat]), 8) / 8
    f[10] = min(s.dollars[seat], 30) / 10
    f[11] = s.level(seat, 0) / 10
    f[12] = s.level(seat, 1) / 10
    f[13] = s.level(seat, 2) / 10
    f[14] = 1.0 if s.pox[seat] else 0.0
    f[15] = 1.0 if s.jailed[seat] or s.missed[seat] > 0 or here < 0 else 0.0
    f[16] = ((seat - s.current) % s.n) / s.n
    f[17] = len(s.saboteurs[seat]) / 4
    f[18] = min(len(s.scrolls[seat]) + len(s.items[seat]), 6) / 6
    return f


def load_weights(path: Path = WEIGHTS_JSON) -> tuple[float, ...]:
    """The fitted weights, one per feature, checked against ``FEATURES``."""
    data = json.loads(path.read_text())
    if tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"{path.name} weighs other features than evaluate.FEATURES: "
                         "run python -m citywatch.games.guards_guards.fit_evaluation")
    return tuple(float(w) for w in data["weights"])


WEIGHTS: Final = load_weights()


def evaluate(s: GuardsGuardsState, weights: tuple[float, ...] = WEIGHTS) -> list[float]:
    """Each seat's share of winning (summing to 1): a softmax of the weighed features, the
    weights fitted to who won heuristic games (``fit_evaluation.py``). Before every seat has
    chosen a Guild Card, equal shares."""
    if s.result is not None:
        return s.result.shares(s.n) if s.result.winners else [1.0 / s.n] * s.n
    if min(s.guild) < 0:
        return [1.0 / s.n] * s.n
    scores = [sum(w * x for w, x in zip(weights, features(s, p), strict=True)) for p in range(s.n)]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    return [x / total for x in exps]
