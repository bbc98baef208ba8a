"""``citywatch simulate``: many games between bots, summarised as a table, JSON or a report
folder."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from citywatch.cli.arguments import add_options, bot_list, positive, seed
from citywatch.core.errors import UnknownGame
from citywatch.core.registry import game_names, load
from citywatch.lab.moments import MAX_MOMENT_GAMES, MOMENT_GAMES, check_moment_games

TOP_MOMENTS = 10
"""The most kinds of action the text summary lists among the decisive moments."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand to ``subparsers``."""
    sim = subparsers.add_parser("simulate",
                                help="play many games between bots and summarise them")
    sim.add_argument("game", choices=game_names(), help="the game to play")
    sim.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    sim.add_argument("--games", type=positive, default=100, help="how many games (default 100)")
    sim.add_argument("--seed", type=seed, default=1, help="master seed (default 1)")
    sim.add_argument("--bots", type=bot_list, default=["random"],
                     help="one bot for every seat, or a comma-separated bot per seat")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--records", type=Path, help="write one record file per game here")
    sim.add_argument("--workers", type=positive,
                     help="processes on this machine (default: every core)")
    sim.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                     help="run on a Ray cluster: HOST:PORT, ray://HOST:PORT, auto, or local "
                          "(start one here); alone, Ray's default")
    sim.add_argument("--report", type=Path, metavar="DIR",
                     help="write the summary as JSON, CSV and an HTML page with plots here")
    sim.add_argument("--moments", type=_moment_games, default=None, metavar="N",
                     help="with --report: the coach analyses the first N games for the "
                          "decisive moments, each kind of action's swing in winning chances "
                          f"(default {MOMENT_GAMES}, 0: none, at most {MAX_MOMENT_GAMES})")
    sim.add_argument("--min-plays", type=positive, default=None, metavar="N",
                     help="rank cards played at least N times (default 20)")
    sim.add_argument("--sweep", type=_sweep, action="append", default=[],
                     metavar="NAME[=V1,V2,...]",
                     help="sweep a game option (repeat for more): game k plays combination "
                          "k mod C of the values (a choice option: all its choices by "
                          "default); the summary has a row per combination")
    add_options(sim)


def _moment_games(text: str) -> int:
    """``--moments``: a whole number from 0 to ``MAX_MOMENT_GAMES``."""
    try:
        return check_moment_games(int(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of games from 0 to {MAX_MOMENT_GAMES}") from exc


def _sweep(text: str) -> tuple[str, list[int | str] | None]:
    """``NAME`` or ``NAME=V1,V2,...`` read as an option to sweep and its values (whole
    numbers, else words); no values (``None``): every choice of a choice option."""
    name, equals, rest = text.partition("=")
    name = name.strip()
    values = [v.strip() for v in rest.split(",")]
    if not name or (equals and not all(values)):
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME or NAME=V1,V2,... "
                                         "('citywatch games' lists each game's options)")
    if not equals:
        return name, None
    return name, [int(v) if v.lstrip("-").isdigit() else v for v in values]


def _sweep_choice(pairs: list[tuple[str, list[int | str] | None]]
                  ) -> dict[str, list[int | str] | None]:
    """``--sweep`` pairs as the sweep ``simulate`` takes; ``ValueError`` for an option
    swept twice."""
    sweep: dict[str, list[int | str] | None] = {}
    for name, values in pairs:
        if name in sweep:
            raise ValueError(f"--sweep {name} is given twice")
        sweep[name] = values
    return sweep


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch simulate``; return the exit status."""
    from citywatch.lab import progress_bar
    from citywatch.simulate import simulate

    folder = args.report or args.records
    try:
        sweep = _sweep_choice(args.sweep)
        if args.moments is not None and args.report is None:
            raise ValueError("--moments needs --report DIR: the decisive moments are part "
                             "of the report")
        with progress_bar() as progress:
            summary = simulate(args.game, args.players, args.games, args.seed, args.bots,
                               args.records, workers=args.workers, ray=args.ray or None,
                               use_ray=args.ray is not None, report=args.report,
                               progress=progress, min_plays=args.min_plays,
                               options=args.options, sweep=sweep, moments=args.moments)
    except (ValueError, UnknownGame) as exc:
        print(f"citywatch simulate: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"citywatch simulate: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = (f"; the finished games are in {folder}, rerun the same command to continue"
                if folder is not None else "")
        print(f"citywatch simulate: interrupted{kept}", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        _print_summary(summary.to_json())
    return 0


def _interval(rate: dict[str, Any]) -> str:
    """A rate and its 95% interval, as two right-aligned columns."""
    interval = f"{rate['ci_low']:.1%} - {rate['ci_high']:.1%}"
    return f"{rate['rate']:>9.1%}{interval:>17}"


def _print_summary(data: dict[str, Any]) -> None:
    """Print a summary (``Summary.to_json()``) as tables."""
    from citywatch.lab.study import shown_value

    games = data["games"]
    players = data["players"]
    game = load(data["game"])
    defaults = {o.name: o.default for o in game.options if o.tuning}
    options = "".join(f", {name} {shown_value(game, name, value)}"
                      for name, value in data.get("options", {}).items()
                      if name not in defaults or value != defaults[name])
    seat_choice = data.get("seat_choice")
    if seat_choice and seat_choice.get("by_seat"):
        options += f", {seat_choice['plural']} {' / '.join(seat_choice['by_seat'])}"
    print(f"{data['game']}: {games} games, {players} players{options}, seed {data['seed']}, "
          f"bots {', '.join(data['bots'])}")
    print()
    sweep = data.get("sweep")
    if sweep:
        width = max(len("swept options"), *(len(r["label"]) for r in sweep["combinations"])) + 1
        print(f"{'swept options':<{width}}{'games':>7}{'somebody won':>13}{'95% interval':>17}"
              f"{'mean turns':>12}")
        for row in sweep["combinations"]:
            mean = row["turns"]["mean"]
            print(f"{row['label']:<{width}}{row['games']:>7}{_interval(row['any_winner']):>30}"
                  f"{'' if mean is None else f'{mean:.1f}':>12}")
        print()
    head = f"{'wins':>9}{'win rate':>9}{'95% interval':>17}"
    print(f"{'seat':<22}{'first':>7}{head}")
    for seat, name in enumerate(data["seat_names"]):
        rate = data["win_rate_by_seat"][seat]
        print(f"{name:<22}{data['first_player_by_seat'][seat]:>7}{rate['wins']:>9.2f}"
              f"{_interval(rate)}")
    print()
    print(f"{'turn order':<22}{'games':>7}{head}")
    for place, rate in enumerate(data["win_rate_by_turn_order"]):
        name = "moved first" if place == 0 else f"{place} after first"
        print(f"{name:<22}{rate['games']:>7}{rate['wins']:>9.2f}{_interval(rate)}")
    if data["win_rate_by_role"]:
        print()
        print(f"{data['role']:<22}{'games':>7}{head}")
    for name, rate in sorted(data["win_rate_by_role"].items(),
                             key=lambda kv: -kv[1]["rate"]):
        print(f"{name:<22}{rate['games']:>7}{rate['wins']:>9.2f}{_interval(rate)}")
    matrix = data.get("seat_matrix")
    if matrix:
        print()
        print(f"{matrix['choice']:<32}{'against':<32}{'games':>7}{head}")
        for row, cells in matrix["rows"].items():
            for column, rate in cells.items():
                print(f"{row[:31]:<32}{column[:31]:<32}{rate['games']:>7}{rate['wins']:>9.2f}"
                      f"{_interval(rate)}")
    if len(data["win_rate_by_bot"]) > 1:
        print()
        print(f"{'bot':<22}{'seats':>7}{head}")
        for name, rate in data["win_rate_by_bot"].items():
            print(f"{name:<22}{rate['games']:>7}{rate['wins']:>9.2f}{_interval(rate)}")
    print()
    reasons = data["end_reasons"]
    print("end reasons: " + ", ".join(f"{r} {n}" for r, n in reasons.items()))
    width = max(22, *(len(r) + 1 for r in data["end_reason_rates"]))
    print(f"{'end reason':<{width}}{'games':>7}{'share':>9}{'95% interval':>17}"
          f"{'turns: mean':>13}{'median':>8}{'q1-q3':>12}")
    for reason, rate in data["end_reason_rates"].items():
        t = data["turns_by_end_reason"][reason]
        quartiles = f"{t['q1']:g}-{t['q3']:g}" if t["games"] else ""
        turns = f"{t['mean']:>13.1f}{t['median']:>8g}{quartiles:>12}" if t["games"] else ""
        print(f"{reason:<{width}}{reasons[reason]:>7}{_interval(rate)}{turns}")
    for title, key in (("most decisive cards", "most_decisive_cards"),
                       ("least decisive cards", "least_decisive_cards")):
        if data[key]:
            print()
            print(f"{title:<30}{'plays':>7}{head}")
            for card in data[key]:
                print(f"{card['card']:<30}{card['games']:>7}{card['wins']:>9.2f}"
                      f"{_interval(card)}")
    moments = data.get("decisive_moments")
    if moments and moments["kinds"]:
        print()
        print(f"decisive moments: {moments['decisions']} decisions with a choice in "
              f"{moments['games']} games, swings in percentage points")
        print(f"{'card or kind of action':<36}{'decisions':>10}{'mean swing':>12}"
              f"{'95% interval':>17}{'mean |swing|':>14}")
        for row in moments["kinds"][:TOP_MOMENTS]:
            interval = ("" if row["ci_low"] is None else
                        f"{100 * row['ci_low']:+.1f} - {100 * row['ci_high']:+.1f}")
            print(f"{row['kind'][:35]:<36}{row['decisions']:>10}"
                  f"{100 * row['mean_swing']:>+12.1f}{interval:>17}"
                  f"{100 * row['mean_abs_swing']:>14.1f}")
    print()
    print(f"mean turns {data['mean_turns']:.1f}, mean decisions {data['mean_decisions']:.1f}")
    run = data["run"]
    resumed = f", {run['games_resumed']} read back" if run["games_resumed"] else ""
    print(f"{data['games_per_second']:.1f} games/s, {data['decisions_per_second']:.0f} decisions/s "
          f"({data['seconds']:.2f} s; {run['backend']}, {run['workers']} workers{resumed})")
