"""The set-up choices on the command line (``SetupChoice``, issue 25): one subcommand per
kind of choice the games declare (``citywatch deck``, ``citywatch scenario``), each with
``list`` (the shipped documents) and ``check FILE|ID`` (a document of one's own, or a shipped
one by id, against every rule, with the notes the choice makes on a good one). The
subcommands are made from the declarations; no game is named here."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from citywatch.cli.arguments import choice_named, choice_names, read_json_file
from citywatch.cli.games import wrapped
from citywatch.core.registry import game_names, load
from citywatch.core.setup_choice import SetupChoice
from citywatch.core.text import title_of

ID_COLUMN = 18
"""Where a shipped document's name starts, and its summary under it (``list``)."""


def games_with(kind: str) -> list[str]:
    """The registered games that declare a set-up choice named ``kind``."""
    return [name for name in game_names() if choice_of(name, kind) is not None]


def choice_of(game_name: str, kind: str) -> SetupChoice | None:
    """Game ``game_name``'s set-up choice named ``kind``, or None."""
    return choice_named(load(game_name), kind)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add a subcommand, with ``list`` and ``check``, per kind of set-up choice."""
    for kind, plural in choice_names().items():
        command = subparsers.add_parser(kind, help=f"list a game's {plural} or check a "
                                                   f"{kind} file")
        sub = command.add_subparsers(dest="setup_command", required=True)
        listing = sub.add_parser("list", help=f"the shipped {plural} of every game with some")
        listing.add_argument("setup_game", nargs="?", default=None, choices=games_with(kind),
                             metavar="GAME", help="only this game")
        listing.add_argument("--json", action="store_true",
                             help=f"print the shipped {plural} as JSON, by game")
        check = sub.add_parser("check", help=f"check a {kind} file (or a shipped {kind}) "
                                             f"against every rule, with its notes")
        check.add_argument("file", type=Path, metavar="FILE|ID",
                           help=f"a {kind}'s JSON file, or a shipped {kind}'s id")
        check.add_argument("--game", dest="setup_game", choices=games_with(kind),
                           help=f"the {kind}'s game, if the file does not name it ('game') "
                                f"and several games have {plural}")


def run(args: argparse.Namespace) -> int:
    """``citywatch KIND list [GAME]`` and ``citywatch KIND check FILE|ID``: exit 0 for a good
    document (its notes printed under it, wrapped to 80 columns), 1 for one that breaks
    rules (each printed), 2 for a file that is not such a document or cannot be read."""
    kind = args.command
    if args.setup_command == "list":
        return _list(kind, args.setup_game, args.json)
    return _check(kind, args.file, args.setup_game)


def _list(kind: str, only: str | None, as_json: bool) -> int:
    """Print the shipped documents of kind ``kind`` of every game (or of ``only``): each one's
    id and name, its summary under it, wrapped to 80 columns (issue 26)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for name in [only] if only else games_with(kind):
        choice = choice_of(name, kind)
        assert choice is not None  # argparse's choices
        found[name] = choice.shipped()
    if as_json:
        print(json.dumps(found))
        return 0
    for name, shipped in found.items():
        choice = choice_of(name, kind)
        assert choice is not None
        heading = (f"{load(name).display_name()} ({name}): {choice.plural} "
                   f"(default {choice.show(choice.default(load(name).min_players))})")
        for line in wrapped(heading, indent=0, more=2):
            print(line)
        for doc in shipped:
            print(f"  {doc['id']:<16}{doc['name']}")
            summary = choice.summary(doc)
            for line in wrapped(summary, indent=ID_COLUMN, more=ID_COLUMN) if summary else ():
                print(line)
    return 0


def _check(kind: str, path: Path, game_name: str | None) -> int:
    """Check the file at ``path`` (or, when there is no such file, the shipped document
    whose id or name it is) as a document of kind ``kind``."""

    def fail(message: str) -> int:
        print(f"citywatch {kind} check: {path}: {message}", file=sys.stderr)
        return 2

    found = None if path.exists() else shipped_named(kind, str(path), game_name)
    if found is not None:
        game_name, data = found
    else:
        try:
            data = read_json_file(path)
        except ValueError as exc:
            return fail(str(exc).replace(f"{path} ", "", 1))
    candidates = games_with(kind)
    named = data.get("game") if isinstance(data, dict) else None
    if game_name is None and isinstance(named, str):
        if named not in candidates:
            return fail(f"the file names the game {named[:40]!r}, which has no {kind}s; "
                        f"games with them: {', '.join(candidates)}")
        game_name = named
    if game_name is None:
        if len(candidates) != 1:
            return fail(f"the file does not name its game (\"game\"): give --game "
                        f"({', '.join(candidates)})")
        game_name = candidates[0]
    choice = choice_of(game_name, kind)
    assert choice is not None
    title = load(game_name).display_name()
    try:
        problems = choice.problems(data)
    except ValueError as exc:
        return fail(f"not a {kind}: {exc}")
    shown = title_of(data, f"the {kind}")
    if problems:
        print(f"{path}: {shown} breaks {len(problems)} rule{'s' if len(problems) > 1 else ''} "
              f"of a {kind} of {title}:")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print(f"{path}: {shown} is a good {kind} for {title}")
    for note in choice.notes(data):
        for line in wrapped(note, indent=2, more=4):
            print(line)
    return 0


def shipped_named(kind: str, text: str, game_name: str | None) -> tuple[str, Any] | None:
    """The game and document of the one shipped document of kind ``kind`` whose id or name
    is ``text`` (among ``game_name``'s, else every game's); None if none or several."""
    found = []
    for name in [game_name] if game_name else games_with(kind):
        choice = choice_of(name, kind)
        shipped = choice.shipped_id(text) if choice is not None else None
        if choice is not None and shipped is not None:
            found += [(name, doc) for doc in choice.shipped() if doc["id"] == shipped]
    return found[0] if len(found) == 1 else None
