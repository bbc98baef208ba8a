"""Fit a game's evaluation weights to who won games between bots, for any game.

A game's evaluation may be a softmax over the seats of weighed features (a conditional logit):
each seat's share of winning is ``exp(w . f_seat)`` over the sum for every seat. This module
records samples (every seat's features at moments of finished games, and the one winner),
measures weights by their log-loss and fits them; each game's ``fit_evaluation.py`` supplies
the features and how its games are played, and calls ``run``. Deterministic for the same
arguments.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from citywatch.bots.base import Bot, Observation
from citywatch.core.api import State
from citywatch.core.rng import Rng

Sample = tuple[list[list[float]], int]
"""Every seat's features at one moment, and the seat that went on to win."""

Features = Callable[[Any, int], list[float]]
"""One seat's features in a state."""


def play_and_record(s: State, bot: Bot, rng: Rng, features: Features, every: int,
                    ready: Callable[[Any], bool] = lambda s: True) -> list[Sample]:
    """Play ``s`` to the end with ``bot`` in every seat, recording every seat's ``features``
    after every ``every``-th decision while the game goes on and ``ready`` holds; the samples
    (none if nobody or several won)."""
    rows: list[list[list[float]]] = []
    count = 0
    while (seat := s.to_move) is not None:
        s.apply(bot.choose(Observation(s, seat), s.legal_actions(), rng))
        count += 1
        if count % every == 0 and s.to_move is not None and ready(s):
            rows.append([features(s, p) for p in range(s.players)])
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
    """Weights maximising the winners' likelihood (Adam on the mean log-loss plus L2),
    rounded to 4 decimals."""
    import numpy as np

    if not samples:
        raise ValueError("no samples to fit: play more games")
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


def run(argv: Sequence[str] | None, *, description: str, play: Callable[[int], list[Sample]],
        features: Sequence[str], out: Path, about: str, players: int, games: int = 300,
        held_out: int = 80, seed: int = 2000) -> dict[str, Any]:
    """A fit script's command line: play ``--games`` games (seeds from ``--seed`` on) with
    ``play``, fit, score the fit on ``--held-out`` further games against equal shares among
    ``players``, write the result to ``--out`` as JSON and return it."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games, help=f"games to fit on ({games})")
    parser.add_argument("--held-out", type=int, default=held_out,
                        help=f"games to test on ({held_out})")
    parser.add_argument("--seed", type=int, default=seed, help=f"first game's seed ({seed})")
    parser.add_argument("--out", type=Path, default=out, help="where to write")
    args = parser.parse_args(argv)
    if args.games < 1 or args.held_out < 1:
        parser.error("--games and --held-out must be at least 1")
    train = [x for k in range(args.seed, args.seed + args.games) for x in play(k)]
    test_seeds = range(args.seed + args.games, args.seed + args.games + args.held_out)
    test = [x for k in test_seeds for x in play(k)]
    weights = fit(train)
    result = {
        "about": about,
        "games": args.games, "held_out": args.held_out, "seed": args.seed,
        "samples": len(train),
        "held_out_log_loss": round(log_loss(weights, test), 4),
        "equal_shares_log_loss": round(math.log(players), 4),
        "features": list(features), "weights": weights,
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{len(train)} samples; held-out log-loss {result['held_out_log_loss']} "
          f"(equal shares {result['equal_shares_log_loss']}); wrote {args.out}")
    return result
