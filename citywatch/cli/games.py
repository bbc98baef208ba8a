"""``citywatch games``: every registered game with its players, bots, what it declares it is
(``GameType.describe``), options and set-up choices."""

from __future__ import annotations

import argparse

from citywatch.bots import bot_names
from citywatch.core.registry import game_names, load


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``games`` subcommand to ``subparsers``."""
    subparsers.add_parser("games", help="list the games, their player counts, bots and options")


def run(args: argparse.Namespace) -> int:
    """``citywatch games``: every registered game, its players and bots, what it is
    (``GameType.describe``), then its options (``--option NAME=VALUE``) with their range and
    default, one a line."""
    names = game_names()
    width = max(map(len, names), default=0) + 2
    titles = max((len(load(name).display_name()) for name in names), default=0) + 2
    for name in names:
        game = load(name)
        print(f"{name:<{width}}{game.display_name():<{titles}}{game.min_players}-"
              f"{game.max_players} players   bots: {', '.join(bot_names(name))}")
        print(f"{'':<{width}}{game.type.describe()}")
        tuning = False
        for option in game.options:
            if option.tuning and not tuning:
                tuning = True
                print(f"{'':<{width}}the rules' numbers, for designers to tune:")
            value = "WORD" if option.choices else "N"
            print(f"{'':<{width}}--option {option.name}={value}: {option.help} "
                  f"({option.describe_range()}, default {option.default})")
        for choice in game.type.setup:
            flag = f"--{choice.name} " + ("SEAT=ID|FILE" if choice.per_seat else "ID|FILE")
            print(f"{'':<{width}}{flag}: {choice.help} (shipped: {', '.join(choice.ids())}; "
                  f"default {choice.show(choice.default(game.min_players))})")
    return 0
