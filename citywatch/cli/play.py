"""``citywatch play``: a game in the terminal, against bots or friends at one keyboard."""

from __future__ import annotations

import argparse
import sys

from citywatch.cli.arguments import add_options, bot_name, seat_choices, seed
from citywatch.core.registry import game_names


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand to ``subparsers``."""
    play = subparsers.add_parser("play", help="play in the terminal against bots or friends")
    play.add_argument("game", nargs="?", default=None, choices=game_names(),
                      help="the game (may be left out when only one is registered)")
    play.add_argument("--players", type=int, help="number of seats (default: as --seats, or 4)")
    play.add_argument("--seats", help="who sits where, e.g. you,bot,bot,bot or you,you,bot")
    play.add_argument("--bot", type=bot_name, default=None,
                      help="the bot for seats named 'bot': a level (easy, normal, hard) or a "
                           "bot spec (default normal)")
    play.add_argument("--seed", type=seed, help="seed for the game (default: random)")
    play.add_argument("--resume", action="store_true", help="continue an unfinished game")
    play.add_argument("--auto", action="store_true",
                      help="take your usual choice for you when it can never hurt (e.g. taking "
                           "money from the bank); 'auto off' in the game undoes it")
    play.add_argument("--screen", choices=("compact", "full"), default=None,
                      help="compact (default): one screen per decision that fits the terminal, "
                           "'board' and 'log' on demand; full: the whole board before every "
                           "decision too (a resumed game keeps its own unless given; 'screen "
                           "full' or 'screen compact' in the game changes it)")
    play.add_argument("--hints", choices=("on", "off"), default=None,
                      help="allow the 'hint' command, the coach's estimate of your chance of "
                           "winning after each choice (default: on when one person plays bots, "
                           "off with two or more people; a resumed game keeps its own unless "
                           "given); every seat is told of a hint used")
    add_options(play)


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch play``; return the exit status."""
    from citywatch.terminal import app

    con = app.console()
    read = app.default_reader(con)
    hints = None if args.hints is None else args.hints == "on"
    if args.resume:
        return app.resume(read, con, auto=args.auto, screen=args.screen, hints=hints)
    try:
        seats = app.parse_seats(args.seats, args.players, args.bot, args.game)
        args.options.update(seat_choices(args.game, len(seats), args))
        game = app.new_game(args.game, seats, args.seed, read, con, options=args.options,
                            auto=args.auto, screen=args.screen or "compact", hints=hints)
    except ValueError as exc:
        print(f"citywatch play: error: {exc}", file=sys.stderr)
        return 2
    game.run()
    return 0
