"""Speed of the Black Keep's guard automaton: microseconds per full Guard Phase
(``guards.guard_phase``) on the-black-keep (hard, advanced: every guard placed, the vault guards
too), with a warm sight cache, beside the target of issue 12 (200 us).

The sample states come from random rounds (thieves wander, noises, the guards react), each
then given thieves in play on random free hexes, so the phases measured have guards in every
status. Run: ``.venv/bin/python benchmarks/bench_black_keep_guards.py [--states N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards, scenario
from citywatch.games.black_keep.params import Parameters
from citywatch.games.black_keep.state import IN_PLAY, NONE, BlackKeepState

TARGET_US = float(json.loads(Path(__file__).with_name("targets.json").read_text())
                  ["black-keep"]["guard_phase_us"])
"""Issue 12: a full Guard Phase on the-black-keep must cost less than this (``targets.json``)."""


def sample_states(count: int, thieves: int, seed: int) -> list[BlackKeepState]:
    """``count`` states of the-black-keep after some random rounds, with ``thieves`` thieves
    in play on random hexes free of guards."""
    board = scenario.load("the-black-keep")
    out: list[BlackKeepState] = []
    rng = Rng(seed)
    while len(out) < count:
        s = BlackKeepState(board, Parameters(), thieves)
        s.difficulty = "hard"
        s.advanced = True
        s.rng = Rng(rng.below(1 << 30))
        guards.create_guards(s)
        guards.place_initial_guards(s)
        s.vault_triggered = True
        guards.place_waiting_guards(s)
        for k in range(1 + rng.below(8)):
            scatter(s, rng)
            guards.resource_phase(s)
            if rng.below(2) == 0:
                guards.noise(s, rng.below(board.size), guards.NOISES[rng.below(3)])
            guards.guard_phase(s)
            if k % 3 == 0:
                out.append(scattered(s, rng))
    return out[:count]


def scatter(s: BlackKeepState, rng: Rng) -> None:
    """Put every thief in play on a random floor hex without a guard."""
    guarded = {g.hex for g in s.guards if g.placed}
    free = [h for h in range(s.board.size) if h not in guarded]
    for t in s.thieves:
        t.standing = IN_PLAY
        t.wounds = s.params.wounds
        t.hex = free[rng.below(len(free))]
        t.hiding = rng.below(4) == 0


def scattered(s: BlackKeepState, rng: Rng) -> BlackKeepState:
    """A copy of ``s`` with its thieves scattered afresh."""
    c = s.copy()
    scatter(c, rng)
    return c


def per_phase_us(states: list[BlackKeepState], repeat: int) -> float:
    """Best-of-``repeat`` mean microseconds of one Guard Phase over copies of ``states``."""
    best = float("inf")
    for _ in range(repeat):
        copies = [s.copy() for s in states]
        start = time.perf_counter()
        for c in copies:
            guards.guard_phase(c)
        best = min(best, (time.perf_counter() - start) / len(copies) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=300, help="sample states (300)")
    parser.add_argument("--thieves", type=int, default=4, help="thieves in play (4)")
    parser.add_argument("--repeat", type=int, default=7, help="timed repetitions (7)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = sample_states(args.states, args.thieves, args.seed)
    for _ in range(3):  # warm the sight cache on every (hex, facing, status) the phases meet
        for c in [s.copy() for s in states]:
            guards.guard_phase(c)
    us = per_phase_us(states, args.repeat)
    placed = sum(g.placed for s in states for g in s.guards) / len(states)
    in_play = sum(t.hex != NONE for s in states for t in s.thieves) / len(states)
    verdict = "ok" if us < TARGET_US else "SLOWER THAN TARGET"
    print(f"the-black-keep, hard, advanced: {placed:.1f} guards placed, {in_play:.1f} thieves "
          f"in play, {len(states)} states")
    print(f"guard_phase: {us:.1f} us per phase (target < {TARGET_US:.0f} us): {verdict}")


if __name__ == "__main__":
    main()
