"""``citywatch deck``: a game's starter decks (``list``), or a deck file checked against every
deck rule (``check``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from citywatch.cli.arguments import read_json_file
from citywatch.core.registry import game_names, load
from citywatch.core.text import title_of


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``deck`` subcommand, with ``list`` and ``check``, to ``subparsers``."""
    deck = subparsers.add_parser("deck", help="list a game's starter decks or check a deck file")
    deck_sub = deck.add_subparsers(dest="deck_command", required=True)
    deck_list = deck_sub.add_parser("list", help="the starter decks of every game with decks")
    deck_list.add_argument("deck_list_game", nargs="?", default=None, choices=game_names(),
                           metavar="GAME",
                           help="only this game")
    deck_list.add_argument("--json", action="store_true",
                           help="print the starter decks' deck lists as JSON")
    deck_check = deck_sub.add_parser("check", help="check a deck file against every deck rule")
    deck_check.add_argument("file", type=Path, help="a deck's JSON file")
    deck_check.add_argument("--game", dest="deck_game", choices=game_names(),
                            help="the deck's game, if the file does not name it ('game')")


def run(args: argparse.Namespace) -> int:
    """``citywatch deck list [GAME]`` and ``citywatch deck check FILE``: exit 0 for a legal
    deck, 1 for a deck that breaks rules (each printed), 2 for a file that is not a deck."""
    if args.deck_command == "list":
        names = ([args.deck_list_game] if args.deck_list_game
                 else [n for n in game_names() if load(n).decks()])
        found: dict[str, list[dict[str, Any]]] = {}
        for name in names:
            book = load(name).decks()
            if book is None:
                print(f"citywatch deck: error: {name} has no decks", file=sys.stderr)
                return 2
            found[name] = book.starters()
        if args.json:
            print(json.dumps(found))
            return 0
        for name, starters in found.items():
            print(f"{load(name).display_name()} ({name}): starter decks")
            for deck in starters:
                plan = f": {deck['plan']}" if deck.get("plan") else ""
                print(f"  {deck['id']:<16}{deck['name']}{plan}")
        return 0

    def fail(message: str) -> int:
        print(f"citywatch deck check: {args.file}: {message}", file=sys.stderr)
        return 2

    try:
        data = read_json_file(args.file)
    except ValueError as exc:
        return fail(str(exc).replace(f"{args.file} ", "", 1))
    named = data.get("game") if isinstance(data, dict) else None
    game_name = args.deck_game or named
    if game_name is None:
        with_decks = ", ".join(n for n in game_names() if load(n).decks())
        return fail(f"the file does not name its game (\"game\"): give --game ({with_decks})")
    if not isinstance(game_name, str) or game_name not in game_names():
        return fail(f"unknown game {game_name!r}; known games: {', '.join(game_names())}")
    book = load(game_name).decks()
    if book is None:
        return fail(f"{game_name} has no decks")
    try:
        problems = book.problems(data)
    except ValueError as exc:
        return fail(f"not a deck list: {exc}")
    title = title_of(data, "the deck")
    if problems:
        print(f"{args.file}: {title} breaks {len(problems)} deck "
              f"rule{'s' if len(problems) > 1 else ''} of {load(game_name).display_name()}:")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print(f"{args.file}: {title} is a legal deck for {load(game_name).display_name()}")
    return 0
