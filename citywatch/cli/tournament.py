"""``citywatch tournament``: bots against bots with the seats rotated, and each bot's win rate
with its interval."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from citywatch.cli.arguments import add_options, bot_list, positive, seed
from citywatch.core.registry import game_names, load


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` subcommand to ``subparsers``."""
    tour = subparsers.add_parser("tournament",
                                 help="bots against bots, seats rotated, with intervals")
    tour.add_argument("game", choices=game_names(), help="the game")
    tour.add_argument("--bots", type=bot_list, required=True,
                      help="the line-up, one bot per seat, e.g. ismcts,heuristic,random,random")
    tour.add_argument("--games", type=positive, default=100,
                      help="games to play, rounded up to whole rotations of the seats")
    tour.add_argument("--seed", type=seed, default=1, help="master seed (default 1)")
    tour.add_argument("--workers", type=positive, default=1, help="processes (default 1)")
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    add_options(tour)


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch tournament``; return the exit status."""
    from citywatch.tournament import tournament

    try:
        result = tournament(args.game, args.bots, args.games, args.seed, args.workers,
                            options=args.options)
    except ValueError as exc:
        print(f"citywatch tournament: error: {exc}", file=sys.stderr)
        return 2
    if result["games"] != args.games:
        print(f"citywatch tournament: {args.games} games rounded up to {result['games']}, "
              f"whole rotations of the {len(result['lineup'])} seats", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    options = "".join(f", {name} {_shown(result['game'], name, value)}"
                      for name, value in result["options"].items())
    seat_choice = result.get("seat_choice")
    if seat_choice:
        options += f", {seat_choice['plural']} {' / '.join(seat_choice['by_seat'])}"
    print(f"{result['game']}: {result['games']} games{options}, line-up "
          f"{', '.join(result['lineup'])}, seed {result['seed']}, {result['seconds']:.1f} s")
    print(f"{'bot':<28}{'games':>7}{'wins':>9}{'win rate':>10}{'95% interval':>17}"
          f"{'points':>8}{'s/decision':>12}{'cpu s':>8}")
    for name, b in sorted(result["bots"].items(), key=lambda kv: -kv[1]["win_rate"]):
        interval = f"{b['ci_low']:.1%}-{b['ci_high']:.1%}"
        print(f"{name:<28}{b['games']:>7}{b['wins']:>9.1f}{b['win_rate']:>10.1%}"
              f"{interval:>17}{b['mean_points']:>8.1f}{b['seconds_per_decision']:>12.4f}"
              f"{b['cpu_seconds_per_decision']:>8.4f}")
    return 0


def _shown(game_name: str, name: str, value: Any) -> Any:
    """An option's value in a few words: a set-up choice's document of one's own by its name
    (``SetupChoice.show``; a shipped one's id as it is), any other option's as it is."""
    choice = load(game_name).type.choice(name)
    return value if choice is None or isinstance(value, str) else choice.show(value)
