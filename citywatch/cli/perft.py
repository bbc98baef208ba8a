"""``citywatch perft``: the exact size of the legal-action tree below a position, per depth or
per first action."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from citywatch.cli.arguments import PERFT_PLAYERS, add_options, positive, seed
from citywatch.core.registry import game_names, load


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``perft`` subcommand to ``subparsers``."""
    perft = subparsers.add_parser("perft",
                                  help="count the legal-action tree below a position, exactly")
    perft.add_argument("game", choices=game_names(), help="the game")
    perft.add_argument("position", type=Path, nargs="?",
                       help="a position file (JSON, as state.position() writes it)")
    perft.add_argument("--depth", type=positive, required=True, help="decisions deep")
    perft.add_argument("--divide", action="store_true",
                       help="the count below each first action, then the total")
    perft.add_argument("--seed", type=seed, help="instead of a file: a new game with this seed")
    perft.add_argument("--players", type=int, help="with --seed: number of seats (default 4)")
    add_options(perft)


def run(args: argparse.Namespace) -> int:
    """``citywatch perft``: the node count per depth, or per first action with ``--divide``."""
    import time

    from citywatch.perft import divide, perft_counts

    def fail(message: str) -> int:
        print(f"citywatch perft: error: {message}", file=sys.stderr)
        return 2

    game = load(args.game)
    if (args.position is None) == (args.seed is None):
        return fail("give a position file or --seed (and --players), not both or neither")
    if args.position is not None and args.players is not None:
        return fail("--players goes with --seed; a position file has its own players")
    try:
        if args.position is None:
            state = game.new_game(args.players or PERFT_PLAYERS, args.seed, **args.options)
            chosen = "".join(f", {name} {value}" for name, value
                             in game.shown_options(args.options, state.players).items())
            start = f"a new game of {state.players} players{chosen}, seed {args.seed}"
        else:
            start = str(args.position)
            data = json.loads(args.position.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("a position is a JSON object")
            state = game.from_position(data)
    except OSError as exc:
        return fail(f"cannot read {args.position}: {exc.strerror or exc}")
    except json.JSONDecodeError as exc:
        return fail(f"{args.position}: not valid JSON: {exc}")
    except ValueError as exc:  # InvalidPosition, a file not in UTF-8, bad --players
        where = f"{args.position}: " if args.position is not None else ""
        return fail(f"{where}{exc}")
    print(f"{args.game} perft from {start}")
    began = time.perf_counter()
    if args.divide:
        rows = divide(state, args.depth)
        for text, count in rows:
            print(f"{text}: {count}")
        print(f"total at depth {args.depth}: {sum(count for _, count in rows)}")
    else:
        for depth, count in enumerate(perft_counts(state, args.depth), start=1):
            print(f"depth {depth}: {count}")
    print(f"time: {time.perf_counter() - began:.2f} s")
    return 0
