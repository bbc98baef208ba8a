"""Fit and measure the calibration of a game's winning chances (issue 30).

``python -m citywatch.coach.calibrate GAME`` plays games between the game's normal level (or
``--bots``) in every seat (the player counts, the choice options and the per-table set-up
choices rotated over the games), judges positions every ``--every`` decisions as the seat to
move judges them at normal strength (``Judge.raw_chances``: worlds sampled from its own
observation), and records every seat's raw chance and whether it won (a tie counts as the
seat's share). The first ``--fit`` games fit a logistic map (``Calibration``) per kind of
play; the next ``--games`` games, never seen by the fit, measure it: a reliability table
(predicted against observed, by tenths) and Brier scores, beside the Brier score of always
saying the average. The result is written to ``calibration/<game>.json``, which ``Judge``
reads and the README's tables show.

Game k's seed, bots and worlds depend only on ``--seed`` and k, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.coach.chances import EDGE, STRENGTHS, Calibration, Judge, calibration_path
from citywatch.core.api import Game
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

Sample = tuple[str, float, float]
"""The kind of play, a raw chance and the result (1 won, 0 lost, a tie's share)."""
BINS = 10


def game_setup(game: Game, index: int) -> tuple[int, dict[str, Any]]:
    """Game ``index``'s players and options: the player counts in turn, and each choice option
    and per-table set-up choice rotated at its own pace; the defaults where a combination is
    not allowed."""
    low, high = game.min_players, game.max_players
    players = low + index % (high - low + 1)
    options: dict[str, Any] = {}
    stride = high - low + 1
    for option in game.options:
        if option.choices and not option.tuning:
            options[option.name] = option.choices[(index // stride) % len(option.choices)]
            stride *= len(option.choices)
    for choice in game.type.setup:
        if not choice.per_seat and choice.ids():
            ids = choice.ids()
            options[choice.keyword] = ids[(index // stride) % len(ids)]
            stride *= len(ids)
    try:
        game.new_game(players, 0, **options)
    except ValueError:
        return players, {}
    return players, options


def play_and_judge(game_name: str, index: int, seed: int, every: int, worlds: int,
                   bots: str = "normal") -> list[Sample]:
    """Play game ``index`` with bot ``bots`` in every seat and return its samples."""
    game = load(game_name)
    judge = Judge(game, calibrations={})
    players, options = game_setup(game, index)
    base = Rng(seed).derive(index)
    state = game.new_game(players, base.next64(), **options)
    players_bots = [make_bot(bots, game_name) for _ in range(players)]
    bot_rng = Rng(base.next64())
    judge_rng = Rng(base.next64())
    kind = judge.kind(state)
    judged: list[list[float]] = []
    decisions = 0
    while (seat := state.to_move) is not None:
        if decisions % every == 0:
            raw = judge.raw_chances(state, seat, judge_rng, worlds)
            judged.append(raw[:1] if kind == "cooperative" else raw)
        legal = state.legal_actions()
        state.apply(players_bots[seat].choose(Observation(state, seat), legal, bot_rng))
        decisions += 1
    outcome = state.outcome()
    assert outcome is not None
    rewards = outcome.rewards(players)
    return [(kind, p, rewards[i]) for raw in judged for i, p in enumerate(raw)]


def logit(p: float) -> float:
    """The log-odds of ``p``, kept ``EDGE`` from 0 and 1."""
    q = min(1.0 - EDGE, max(EDGE, p))
    return math.log(q / (1.0 - q))


def log_loss(a: float, b: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    """The mean logistic log-loss of slope ``a`` and offset ``b`` on log-odds ``xs``."""
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        z = a * x + b
        # log(1 + e^z) - y z, computed without overflow
        total += (z if z > 0 else 0.0) + math.log1p(math.exp(-abs(z))) - y * z
    return total / max(1, len(xs))


def fit(samples: Sequence[tuple[float, float]], steps: int = 100) -> Calibration:
    """The slope and offset minimising the logistic log-loss of the results (Newton's method,
    each step halved until the loss falls); a slope below 0 is refused (slope 0, the average's
    log-odds), since it would turn the ranking of actions round."""
    a, b = 1.0, 0.0
    xs = [logit(p) for p, _ in samples]
    ys = [y for _, y in samples]
    loss = log_loss(a, b, xs, ys)
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            z = a * x + b
            q = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
            ga += (q - y) * x
            gb += q - y
            w = q * (1.0 - q)
            haa += w * x * x
            hab += w * x
            hbb += w
        haa += 1e-6
        hbb += 1e-6
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6:
            trial = log_loss(a - step * da, b - step * db, xs, ys)
            if trial < loss:
                break
            step /= 2
        else:
            break
        a, b, loss = a - step * da, b - step * db, trial
        if step * (abs(da) + abs(db)) < 1e-9:
            break
    if a < 0:
        # the raw chances order the results the wrong way round: they carry no information
        # the coach may use, so every position gets the average (a hint then ranks nothing)
        a, b = 0.0, logit(sum(ys) / max(1, len(ys)))
    return Calibration(round(a, 4), round(b, 4))


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    """The mean squared difference of prediction and result."""
    return sum((p - y) ** 2 for p, y in pairs) / max(1, len(pairs))


def reliability(pairs: Sequence[tuple[float, float]]) -> list[dict[str, Any]]:
    """Predictions in tenths: each tenth's count, mean prediction and observed rate."""
    rows = []
    for k in range(BINS):
        low, high = k / BINS, (k + 1) / BINS
        inside = [(p, y) for p, y in pairs if low <= p < high or (k == BINS - 1 and p == 1.0)]
        if not inside:
            continue
        rows.append({"from": low, "to": high, "count": len(inside),
                     "predicted": round(sum(p for p, _ in inside) / len(inside), 4),
                     "observed": round(sum(y for _, y in inside) / len(inside), 4)})
    return rows


def measure(fit_samples: Sequence[Sample], test_samples: Sequence[Sample], kind: str,
            fit_games: int, test_games: int) -> dict[str, Any]:
    """One kind of play's calibration, fitted on ``fit_samples`` and measured on
    ``test_samples``."""
    train = [(p, y) for k, p, y in fit_samples if k == kind]
    test = [(p, y) for k, p, y in test_samples if k == kind]
    calibration = fit(train)
    calibrated = [(calibration.apply(p), y) for p, y in test]
    average = sum(y for _, y in test) / max(1, len(test))
    return {"calibration": calibration.to_json(),
            "fit_games": fit_games, "games": test_games, "positions": len(test),
            "brier": round(brier(calibrated), 4), "brier_raw": round(brier(test), 4),
            "brier_average": round(brier([(average, y) for _, y in test]), 4),
            "average": round(average, 4), "table": reliability(calibrated)}


def run(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """The command line: fit, measure, write and print the table."""
    parser = argparse.ArgumentParser(prog="python -m citywatch.coach.calibrate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--fit", type=int, default=200, help="games to fit on (200)")
    parser.add_argument("--games", type=int, default=400, help="games to measure on (400)")
    parser.add_argument("--every", type=int, default=10, help="judge every N decisions (10)")
    parser.add_argument("--seed", type=int, default=30, help="the master seed (30)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    parser.add_argument("--bots", default="normal",
                        help="the bot in every seat (normal: the normal level)")
    parser.add_argument("--out", help="where to write (the game's calibration file)")
    args = parser.parse_args(argv)
    if min(args.fit, args.games, args.every, args.workers) < 1:
        parser.error("--fit, --games, --every and --workers must be at least 1")
    worlds = STRENGTHS["normal"].worlds
    total = args.fit + args.games
    with ProcessPoolExecutor(args.workers) as pool:
        per_game = list(pool.map(play_and_judge, [args.game] * total, range(total),
                                 [args.seed] * total, [args.every] * total,
                                 [worlds] * total, [args.bots] * total, chunksize=4))
    fit_samples = [s for game in per_game[:args.fit] for s in game]
    test_samples = [s for game in per_game[args.fit:] for s in game]
    kinds = sorted({k for k, _, _ in fit_samples})
    result = {
        "about": "Calibration of the coach's winning chances (citywatch.coach.calibrate): "
                 "positions of games between the same bot in every seat ('bots'), judged by "
                 "the seat to move at normal strength; fitted on the first games, measured "
                 "on the rest.",
        "game": args.game, "bots": args.bots, "seed": args.seed, "every": args.every,
        "worlds": worlds,
        "kinds": {kind: measure(fit_samples, test_samples, kind, args.fit, args.games)
                  for kind in kinds},
    }
    out = args.out or calibration_path(args.game)
    with open(out, "w", encoding="utf-8") as f:
        f.write(json.dumps(result, indent=1) + "\n")
    print(markdown(result))
    return result


def markdown(result: dict[str, Any]) -> str:
    """The reliability tables of one game's calibration file, as the README shows them."""
    lines = []
    for kind, entry in result["kinds"].items():
        lines.append(f"{load(result['game']).display_name()}, {kind}: {entry['games']} games, "
                     f"{entry['positions']} judgements; Brier score {entry['brier']} "
                     f"(uncalibrated {entry['brier_raw']}, always {entry['average']:.0%}: "
                     f"{entry['brier_average']})")
        lines.append("")
        lines.append("| predicted | judgements | mean predicted | observed |")
        lines.append("|---|---|---|---|")
        for row in entry["table"]:
            lines.append(f"| {row['from']:.0%}-{row['to']:.0%} | {row['count']} | "
                         f"{row['predicted']:.1%} | {row['observed']:.1%} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    run(sys.argv[1:])
