"""Fit the weights of ``evaluate.py`` to who won games between heuristic bots.

Plays ``--games`` four-player games of ``heuristic`` bots (seeds from ``--seed`` on), records
every seat's ``evaluate.features`` every seventh decision once all have chosen Guild Cards, and
fits a softmax over the seats (conditional logit, a little L2) to the winner of each game. The
result, with the held-out log-loss beside that of equal shares, goes to ``data/evaluation.json``.
Deterministic for the same arguments; run it again after changing the features or the
heuristic, and commit its output::

    python -m citywatch.games.guards_guards.fit_evaluation
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.guards_guards.evaluate import FEATURES, WEIGHTS_JSON, features
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.heuristic import HeuristicBot

Sample = tuple[list[list[float]], int]
"""Every seat's features at one moment, and the seat that went on to win."""

EVERY = 7
"""Record the features every this many decisions."""


def play(seed: int, players: int = 4) -> list[Sample]:
    """One game between heuristic bots: its samples (none if nobody or several won)."""
    s = GAME.new_game(players, seed)
    bot = HeuristicBot()
    rng = Rng(seed)
    rows: list[list[list[float]]] = []
    count = 0
    while (seat := s.to_move) is not None:
        s.apply(bot.choose(Observation(s, seat), s.legal_actions(), rng))
        count += 1
        if count % EVERY == 0 and s.to_move is not None and min(s.guild) >= 0:
            rows.append([features(s, p) for p in range(players)])
    outcome = s.outcome()
    assert outcome is not None
    if len(outcome.winners) != 1:
        return []
    return [(row, outcome.winners[0]) for row in rows]


def log_loss(weights: Sequence[float], samples: Sequence[Sample]) -> float:
    """The mean of -log(the winner's share) under ``weights``."""
    total = 0.0
    for row, winner in samples:
        scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in row]
        top = max(scores)
        norm = math.log(sum(math.exp(x - top) for x in scores)) + top
        total += norm - scores[winner]
    return total / max(1, len(samples))


def fit(samples: Sequence[Sample], steps: int = 3000, l2: float = 1e-3) -> list[float]:
    """Weights maximising the winners' likelihood (Adam on the mean log-loss plus L2)."""
    import numpy as np

    x = np.array([row for row, _ in samples], dtype=float)
    y = np.array([winner for _, winner in samples])
    target = np.zeros(x.shape[:2])
    target[np.arange(len(y)), y] = 1.0
    w = np.zeros(x.shape[2])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = -np.einsum("nk,nkf->f", target - p, x) / len(y) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return [round(float(a), 4) for a in w]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Play, fit, write ``--out``; return what was written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games to fit on (300)")
    parser.add_argument("--held-out", type=int, default=80, help="games to test on (80)")
    parser.add_argument("--seed", type=int, default=2000, help="first game's seed (2000)")
    parser.add_argument("--out", type=Path, default=WEIGHTS_JSON, help="where to write")
    args = parser.parse_args(argv)
    if args.games < 1 or args.held_out < 1:
        parser.error("--games and --held-out must be at least 1")
    train = [x for seed in range(args.seed, args.seed + args.games) for x in play(seed)]
    test_seeds = range(args.seed + args.games, args.seed + args.games + args.held_out)
    test = [x for seed in test_seeds for x in play(seed)]
    weights = fit(train)
    result = {
        "about": "Weights of evaluate.FEATURES, fitted by fit_evaluation.py to the winners of "
                 "four-player heuristic games; log-losses per sample, lower is better.",
        "games": args.games, "held_out": args.held_out, "seed": args.seed,
        "samples": len(train),
        "held_out_log_loss": round(log_loss(weights, test), 4),
        "equal_shares_log_loss": round(math.log(4), 4),
        "features": list(FEATURES), "weights": weights,
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{len(train)} samples; held-out log-loss {result['held_out_log_loss']} "
          f"(equal shares {result['equal_shares_log_loss']}); wrote {args.out}")
    return result


if __name__ == "__main__":
    main()
