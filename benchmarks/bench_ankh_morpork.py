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


def ismcts_speed(states: list[citywatch.State], iterations: int = 300,
                 depth: int = 12) -> tuple[float, dict[str, float]]:
    """ISMCTS iterations per second on mid-game positions, and where the time goes."""
    import cProfile
    import pstats

    from citywatch.bots import Observation, make_bot

    bot = make_bot(f"ismcts:iterations={iterations}:depth={depth}")
    positions = [s for s in states if s.to_move is not None][:10]
    start = time.perf_counter()
    for s in positions:
        bot.choose(Observation(s, s.to_move or 0), s.legal_actions(), Rng(1))
    elapsed = time.perf_counter() - start
    profile = cProfile.Profile()
    profile.enable()
    for s in positions:
        bot.choose(Observation(s, s.to_move or 0), s.legal_actions(), Rng(1))
    profile.disable()
    stats = pstats.Stats(profile)
    wanted = {"determinize": "view.py", "copy": "state.py", "legal_actions": "state.py",
              "apply": "state.py", "evaluate": "evaluate.py"}
    cumulative = dict.fromkeys(wanted, 0.0)
    total = 0.0
    for (filename, _, function), row in stats.stats.items():  # type: ignore[attr-defined]
        if function in wanted and filename.endswith(wanted[function]):
            cumulative[function] += row[3]
        if function == "choose" and filename.endswith("ismcts.py"):
            total += row[3]
    shares = {k: v / total for k, v in cumulative.items()} if total else cumulative
    inside = cumulative["determinize"] + cumulative["legal_actions"] + cumulative["apply"] + \
        cumulative["evaluate"]
    shares["bot itself"] = max(0.0, 1 - inside / total) if total else 0.0
    return iterations * len(positions) / elapsed, shares


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
    its, shares = ismcts_speed(states[len(states) // 3:])
    result = {
        "ismcts_iterations_per_second": round(its),
        "ismcts_time_shares": {k: round(v, 3) for k, v in shares.items()},
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
    print(f"ISMCTS iterations per second      : {its:10.0f}   (depth 12, target >= 1000)")
    print("ISMCTS time (cumulative; copy is mostly inside determinize):")
    for name, share in shares.items():
        print(f"  {name:<16}{share:8.1%}")


if __name__ == "__main__":
    main()
