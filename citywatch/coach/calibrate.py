"""Fit and measure the calibration of a game's winning chances (issue 30).

``python -m citywatch.coach.calibrate GAME`` plays games between the game's normal level (or
``--bots``) in every seat (the player counts, the choice options and the per-table set-up
choices rotated over the games), judges positions every ``--every`` decisions as the seat to
move judges them at normal strength (``Judge.raw_chances``: worlds sampled from its own
observation), and records every seat's raw chance and whether it won (a tie counts as the
seat's share). The first ``--fit`` games fit an isotonic map (``Calibration``) per kind of
play, and per number of seats where there are enough judgements; the next ``--games`` games,
never seen by the fit, measure it: a reliability table (predicted against observed, by tenths)
and Brier scores, beside the Brier score of always saying the average. The result is written to
``calibration/<game>.json``, which ``Judge`` reads and the README's tables show.

Game k's seed, bots and worlds depend only on ``--seed`` and k, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.coach.chances import STRENGTHS, Calibration, Judge, calibration_path
from citywatch.core.api import Game
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

Sample = tuple[str, int, float, float]
"""The kind of play, the number of seats, a raw chance and the result (1 won, 0 lost, a
tie's share)."""
BINS = 10
"""The reliability table's rows: tenths."""
LEAST_BLOCK = 40
"""The fewest judgements a fitted point stands for (more with many: a 200th of them)."""
LEAST_FOR_SEATS = 300
"""The fewest judgements for a calibration of its own for one number of seats."""


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
    return [(kind, players, p, rewards[i]) for raw in judged for i, p in enumerate(raw)]


def fit(samples: Sequence[tuple[float, float]]) -> Calibration:
    """The isotonic calibration of (raw chance, result) pairs: the pairs sorted by raw chance
    in blocks of at least ``LEAST_BLOCK``, blocks merged while a block's results are not above
    the one before (pool adjacent violators), each block a point (its mean raw chance, its
    mean result), and the points (0, 0) and (1, 1) at the ends where they keep the order (not
    for a single block: then the raw chances tell nothing and every one gets the average). The
    map rises strictly between points, so it keeps the ranking of actions."""
    pairs = sorted(samples)
    if not pairs:
        return Calibration()
    size = max(LEAST_BLOCK, len(pairs) // 200)
    blocks: list[list[float]] = []  # [sum of raw chances, sum of results, count]
    for start in range(0, len(pairs), size):
        chunk = pairs[start:start + size]
        if blocks and len(chunk) < size:
            blocks[-1] = [blocks[-1][0] + sum(p for p, _ in chunk),
                          blocks[-1][1] + sum(y for _, y in chunk), blocks[-1][2] + len(chunk)]
        else:
            blocks.append([sum(p for p, _ in chunk), sum(y for _, y in chunk), len(chunk)])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last, strict=True)]
    points = [(x / n, y / n) for x, y, n in blocks]
    if len(points) > 1 and points[0][0] > 0.0 and points[0][1] > 0.0:
        points.insert(0, (0.0, 0.0))
    if len(points) > 1 and points[-1][0] < 1.0 and points[-1][1] < 1.0:
        points.append((1.0, 1.0))
    return Calibration(tuple((round(x, 4), round(y, 4)) for x, y in points))


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
    """One kind of play's calibration, fitted on ``fit_samples`` (for the kind, and for each
    number of seats with ``LEAST_FOR_SEATS`` judgements) and measured on ``test_samples`` as
    ``Judge.calibrated`` applies it."""
    train = [(n, p, y) for k, n, p, y in fit_samples if k == kind]
    test = [(n, p, y) for k, n, p, y in test_samples if k == kind]
    overall = fit([(p, y) for _, p, y in train])
    by_players = {}
    for players in sorted({n for n, _, _ in train}):
        these = [(p, y) for n, p, y in train if n == players]
        if len(these) >= LEAST_FOR_SEATS:
            by_players[players] = fit(these)
    calibrated = [(by_players.get(n, overall).apply(p), y) for n, p, y in test]
    average = sum(y for _, _, y in test) / max(1, len(test))
    return {"calibration": overall.to_json(),
            "by_players": {str(n): c.to_json() for n, c in by_players.items()},
            "fit_games": fit_games, "games": test_games, "positions": len(test),
            "brier": round(brier(calibrated), 4),
            "brier_raw": round(brier([(p, y) for _, p, y in test]), 4),
            "brier_average": round(brier([(average, y) for _, _, y in test]), 4),
            "average": round(average, 4), "table": reliability(calibrated)}


def read_samples(path: str | None, run_key: dict[str, Any]) -> list[list[Sample]] | None:
    """The judged games kept at ``path`` for the run ``run_key``; None if there are none."""
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("run") != run_key:
        return None
    return [[(k, int(n), float(p), float(y)) for k, n, p, y in game] for game in data["games"]]


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
    parser.add_argument("--samples", help="a file keeping the judged games: read back when it "
                        "holds the same run, else written (refit without playing again)")
    parser.add_argument("--out", help="where to write (the game's calibration file)")
    args = parser.parse_args(argv)
    if min(args.fit, args.games, args.every, args.workers) < 1:
        parser.error("--fit, --games, --every and --workers must be at least 1")
    worlds = STRENGTHS["normal"].worlds
    total = args.fit + args.games
    run_key = {"game": args.game, "bots": args.bots, "seed": args.seed, "every": args.every,
               "worlds": worlds, "games": total}
    per_game = read_samples(args.samples, run_key)
    if per_game is None:
        with ProcessPoolExecutor(args.workers) as pool:
            per_game = list(pool.map(play_and_judge, [args.game] * total, range(total),
                                     [args.seed] * total, [args.every] * total,
                                     [worlds] * total, [args.bots] * total, chunksize=4))
        if args.samples:
            with open(args.samples, "w", encoding="utf-8") as f:
                f.write(json.dumps({"run": run_key, "games": per_game}) + "\n")
    fit_samples = [s for game in per_game[:args.fit] for s in game]
    test_samples = [s for game in per_game[args.fit:] for s in game]
    kinds = sorted({k for k, _, _, _ in fit_samples})
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
        lines.append(f"**{load(result['game']).display_name()}, {kind}**: fitted on "
                     f"{entry['fit_games']} games, measured on {entry['games']} others, "
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
