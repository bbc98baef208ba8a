"""Speed of a balance study: run with ``make bench``.

Prints random 4-player games per second (of the first registered game, or ``--game``) with
one worker and with every core (``os.cpu_count()`` processes), and the speed-up. Both play the
same games.
"""

from __future__ import annotations

import argparse
import json
import os

from citywatch import lab
from citywatch.core.registry import game_names


def games_per_second(game: str, games: int, seed: int, workers: int) -> float:
    """Random 4-player games per second of a study with ``workers`` processes."""
    study = lab.make_study(game, 4, seed, ["random"])
    results, run = lab.run_study(study, games, workers=workers)
    assert len(results) == games
    return games / run.seconds


def main() -> None:
    """Run the benchmark and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--game", default=game_names()[0], help="the game (default: the first)")
    args = p.parse_args()
    cores = os.cpu_count() or 1
    one = games_per_second(args.game, args.games, args.seed, 1)
    every = games_per_second(args.game, args.games, args.seed, cores)
    result = {"games": args.games, "workers": cores, "games_per_second_1_worker": round(one, 1),
              "games_per_second_all_workers": round(every, 1), "speed_up": round(every / one, 2)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"study, random 4-player games per second, 1 worker   : {one:10.1f}")
    print(f"study, random 4-player games per second, {cores:>2} workers : {every:10.1f}")
    print(f"speed-up                                           : {every / one:10.2f}x "
          f"(of {cores} cores; the load of other programs counts)")


if __name__ == "__main__":
    main()
