"""Speed of the Ankh-Morpork forward model on one core: run with ``make bench``.

Prints random 4-player games per second, decisions per second (legal_actions +
apply), and microseconds per copy() and per determinize().
"""

from __future__ import annotations

import argparse
import json
import time
import timeit

import citywatch
from citywatch.core.rng import Rng


def random_games(games: int, seed: int) -> tuple[float, float, list[citywatch.State]]:
    """Play random 4-player games; return games/s, decisions/s and some mid-game states."""
    game = citywatch.load("ankh-morpork")
    samples: list[citywatch.State] = []
    decisions = 0
    start = time.perf_counter()
    for k in range(games):
        state = game.new_game(players=4, seed=seed + k)
        rng = Rng(seed + k)
        while state.to_move is not None:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
            if decisions % 97 == 0 and len(samples) < 200:
                samples.append(state.copy())
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, samples


def per_call_us(fn: object, states: list[citywatch.State], repeat: int = 5) -> float:
    """Best-of-``repeat`` mean microseconds of ``fn(state)`` over ``states``."""
    number = 20
    times = timeit.repeat(lambda: [fn(s) for s in states], number=number, repeat=repeat)  # type: ignore[operator]
    return min(times) / (number * len(states)) * 1e6


def main() -> None:
    """Run the benchmark and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    gps, dps, states = random_games(args.games, args.seed)
    rng = Rng(99)
    copy_us = per_call_us(lambda s: s.copy(), states)
    det_us = per_call_us(lambda s: s.determinize(s.to_move or 0, rng), states)
    result = {
        "games_per_second": round(gps, 1),
        "decisions_per_second": round(dps),
        "copy_us": round(copy_us, 2),
        "determinize_us": round(det_us, 2),
        "games": args.games,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"random 4-player games per second : {gps:10.1f}   (target >= 50)")
    print(f"decisions per second              : {dps:10.0f}   (target >= 20000)")
    print(f"copy()        microseconds        : {copy_us:10.2f}   (target < 20)")
    print(f"determinize() microseconds        : {det_us:10.2f}")


if __name__ == "__main__":
    main()
