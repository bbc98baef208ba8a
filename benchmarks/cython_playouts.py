"""Fixed seeded workload for comparing pure-Python and Cython-compiled modules (issue 32).

Usage: python benchmarks/cython_playouts.py [--game NAME] [--games N] [--ismcts N] [--digest]
Prints one JSON line: which modules are compiled, games/s, decisions/s, ISMCTS iterations/s and
a digest of every decision taken (identical with and without the compiled modules).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from bench_engine import random_games

import citywatch
from citywatch.core.rng import Rng
from citywatch.engine import compiled_modules


def playouts(game_name: str, players: int, games: int,
             seed: int = 1) -> tuple[float, float, str, list[citywatch.State]]:
    """``bench_engine.random_games`` with a digest of every decision taken."""
    digest = hashlib.sha256()
    per_game, per_decision, samples = random_games(game_name, players, games, seed, digest)
    return per_game, per_decision, digest.hexdigest()[:16], samples


def ismcts(game_name: str, states: list[citywatch.State], spec: str) -> tuple[float, str]:
    from citywatch.bots import Observation, make_bot
    bot = make_bot(spec, game_name)
    iterations = int(getattr(bot, "iterations", 0))
    positions = [s for s in states[len(states) // 3:] if s.to_move is not None][:10]
    chosen = []
    start = time.perf_counter()
    for s in positions:
        chosen.append(repr(bot.choose(Observation(s, s.to_move or 0), s.legal_actions(), Rng(1))))
    elapsed = time.perf_counter() - start
    digest = hashlib.sha256("".join(chosen).encode()).hexdigest()[:16]
    return iterations * len(positions) / elapsed, digest


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="ankh-morpork")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--spec", default="ismcts:iterations=300:depth=12")
    p.add_argument("--no-ismcts", action="store_true")
    a = p.parse_args()
    gps, dps, digest, states = playouts(a.game, a.players, a.games)
    out = {"game": a.game, "compiled": len(compiled_modules()), "games_per_second": round(gps, 2),
           "decisions_per_second": round(dps), "digest": digest}
    if not a.no_ismcts:
        its, idig = ismcts(a.game, states, a.spec)
        out.update(ismcts_iterations_per_second=round(its), ismcts_digest=idig)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
