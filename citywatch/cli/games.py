"""``citywatch games``: every registered game with its players, bots, what it declares it is
(``GameType.describe``), options and set-up choices."""

from __future__ import annotations

import argparse
import textwrap

from citywatch.bots import bot_names
from citywatch.core.registry import game_names, load
from citywatch.engine import describe

WIDTH = 80
"""The columns every listing fits."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``games`` subcommand to ``subparsers``."""
    subparsers.add_parser("games", help="list the games, their player counts, bots and options")


def run(args: argparse.Namespace) -> int:
    """``citywatch games``: every registered game, its players and bots, what it is
    (``GameType.describe``), then its options (``--option NAME=VALUE``) with their range and
    default, one an item, each wrapped to ``WIDTH`` columns (issue 26); last, which engine
    runs (issue 32)."""
    for name in game_names():
        for line in game_lines(name):
            print(line)
    print(f"engine: {describe()}")  # issue 32: pure Python or compiled
    return 0


def game_lines(name: str) -> list[str]:
    """The lines of one game: its name, title and players, then its items indented."""
    game = load(name)
    lines = [f"{name}: {game.display_name()}, {game.min_players}-{game.max_players} players"]
    items = [f"bots: {', '.join(bot_names(name))}", game.type.describe()]
    tuning = False
    for option in game.options:
        if option.tuning and not tuning:
            tuning = True
            items.append("the rules' numbers, for designers to tune:")
        value = "WORD" if option.choices else "N"
        items.append(f"--option {option.name}={value}: {option.help} "
                     f"({option.describe_range()}, default {option.default})")
    for choice in game.type.setup:
        flag = f"--{choice.name} " + ("SEAT=ID|FILE" if choice.per_seat else "ID|FILE")
        items.append(f"{flag}: {choice.help} (shipped: {', '.join(choice.ids())}; "
                     f"default {choice.show(choice.default(game.min_players))})")
    for item in items:
        lines += wrapped(item)
    return lines


def wrapped(text: str, indent: int = 2, more: int = 6) -> list[str]:
    """``text`` in lines of at most ``WIDTH`` columns: the first indented ``indent``, the
    rest ``more`` (a word longer than a line is kept whole)."""
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent,
                         subsequent_indent=" " * more, break_long_words=False,
                         break_on_hyphens=False) or [""]
