"""citywatch: play the city games in the terminal or the browser, pit bots against each
other, replay records and look up the rules."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Protocol

from citywatch import reference
from citywatch.cli import (
    analyse,
    games,
    perft,
    play,
    replay,
    serve,
    setup,
    simulate,
    tournament,
)
from citywatch.cli.arguments import (
    check_bots,
    check_options,
    check_seat_choices,
    choice_names,
    choose_game,
)
from citywatch.core.registry import game_names


class Command(Protocol):
    """A command's module: it adds its subparser and runs the command."""

    def add_parser(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]
                   ) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMANDS: dict[str, Command] = {
    "simulate": simulate, "replay": replay, "analyse": analyse, "rules": reference, "games": games,
    "tournament": tournament, "perft": perft, "play": play,
    **{kind: setup for kind in choice_names()}, "serve": serve,
}
"""Each command's module by the command's name, in the order ``citywatch --help`` lists
them: a command per kind of set-up choice the games declare (``cli/setup.py``)."""


def parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    p = argparse.ArgumentParser(prog="citywatch", description=__doc__)
    p.add_argument("--version", action="version", version=version_text(),
                   help="show the version and which engine runs (pure Python or compiled)")
    sub = p.add_subparsers(dest="command", required=True)
    for command in dict.fromkeys(COMMANDS.values()):
        command.add_parser(sub)
    return p


def version_text() -> str:
    """``citywatch --version``: the installed version and the engine (issue 32)."""
    from importlib.metadata import PackageNotFoundError, version

    from citywatch.core.registry import load as load_game
    from citywatch.engine import describe

    for name in game_names():  # the engine is what the games import
        load_game(name)
    try:
        installed = version("citywatch")
    except PackageNotFoundError:
        installed = "not installed"
    return f"citywatch {installed}; engine: {describe()}"


INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells give it."""


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status. A closed standard output (``citywatch
    ... | head``) ends it quietly with status 1, as the Python documentation recommends; Ctrl-C
    outside a game (which saves and says so itself) ends it quietly with ``INTERRUPTED``."""
    try:
        status = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit writes nowhere
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return INTERRUPTED
    return status


def _main(argv: list[str] | None) -> int:
    """The command line's work (``main`` without the closed-pipe guard)."""
    p = parser()
    args = p.parse_args(argv)
    choose_game(p, args)
    if getattr(args, "game", None):
        check_bots(p, args)
    check_options(p, args)
    check_seat_choices(p, args)
    return COMMANDS[args.command].run(args)
