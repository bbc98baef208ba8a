"""What the commands' arguments accept, and the checks ``main`` makes of them before a command
runs: numbers, seeds, bots, a game's options and decks."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citywatch.bots import make_bot
from citywatch.core.api import Game, GameOption
from citywatch.core.registry import game_names, load

SCENARIO = "scenario"
"""The per-table set-up choice ``--scenario`` and ``citywatch scenario`` fill
(``SetupChoice.name``)."""
PERFT_PLAYERS = 4
"""The seats of ``perft --seed`` without ``--players``."""
MAX_AMOUNT = 100000
"""The largest number of hours or days a serve option takes."""


def positive(text: str) -> int:
    """A whole number, at least 1."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def seed(text: str) -> int:
    """A seed: a whole number, 0 or more."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError("the seed must be 0 or more")
    return value


def _whole_number(text: str) -> int:
    """``text`` as an int; a usage error saying it is not a whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _number(text: str, kind: str) -> float:
    """``text`` as a float; a usage error saying it is not ``kind`` ("a number", ...)."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None


def bot_list(text: str) -> list[str]:
    """Bots named one per seat, comma-separated: at least one."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot")
    return names


def bot_name(text: str) -> str:
    """One bot's name: a level or a bot spec, no comma."""
    return bot_list(text)[0] if "," not in text else _fail(f"{text!r}: name one bot")


def _fail(message: str) -> str:
    raise argparse.ArgumentTypeError(message)


def rate(text: str) -> str:
    """A rate such as ``20/10 minutes``, kept as written."""
    from limits import parse

    try:
        parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate such as '20/10 minutes'"
                                         ) from None
    return text


def proxy(text: str) -> str:
    """A reverse proxy's address or network, as ``parse_proxy`` writes it."""
    from citywatch.server.connections import parse_proxy

    try:
        return str(parse_proxy(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seconds(what: str) -> Callable[[str], float]:
    """A parser of a number of seconds more than 0 and at most 3600, ``what`` in its error."""

    def parse(text: str) -> float:
        value = _number(text, "a number of seconds")
        if not 0 < value <= 3600:
            raise argparse.ArgumentTypeError(f"{what} must be more than 0 and at most 3600 "
                                             "seconds")
        return value

    return parse


time_limit = seconds("the time limit")
header_timeout = seconds("the header timeout")


def amount(zero: bool) -> Callable[[str], float]:
    """A parser of a number of hours or days: more than 0 (or 0 too, if ``zero``), finite,
    at most ``MAX_AMOUNT``."""

    def parse(text: str) -> float:
        value = _number(text, "a number")
        low = "0 or more" if zero else "more than 0"
        if not ((value >= 0 if zero else value > 0) and value <= MAX_AMOUNT):
            raise argparse.ArgumentTypeError(f"{text!r} must be {low} and at most "
                                             f"{MAX_AMOUNT}")
        return value

    return parse


def delay(text: str) -> float:
    """A bot's delay: a number of seconds, 0 or more."""
    value = _number(text, "a number of seconds")
    if not value >= 0:
        raise argparse.ArgumentTypeError("the bot delay must be 0 or more seconds")
    return value


def _option(text: str) -> tuple[str, int | str]:
    """``NAME=VALUE`` read as an option's name and value: a whole number, else a word (a
    choice, or a file for an option that takes documents)."""
    name, equals, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not equals or not name or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE ('citywatch games' "
                                         "lists each game's options)")
    try:
        return name, int(value)
    except ValueError:
        return name, value


def add_options(command: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``, repeatable: the game's options (``citywatch games`` lists
    them)."""
    command.add_argument("--option", dest="options", type=_option, action="append",
                         default=[], metavar="NAME=VALUE",
                         help="a game option (repeat for more); 'citywatch games' lists "
                              "each game's")
    command.add_argument("--scenario", metavar="NAME|FILE",
                         help="for a game with scenarios: a shipped scenario or a scenario "
                              "file (the same as --option scenario=NAME|FILE)")


def check_options(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Turn ``--option`` pairs into a dict of the game's options (a usage error, exit 2, for
    one given twice, unknown or out of range, or given where no new game is set up)."""
    pairs: list[tuple[str, int | str]] = list(getattr(args, "options", None) or [])
    if getattr(args, "scenario", None) is not None:
        option = scenario_option(load(args.game)) if getattr(args, "game", None) else None
        pairs.append((SCENARIO if option is None else option.name, args.scenario))
    options: dict[str, Any] = {}
    for name, value in pairs:
        if name in options:
            p.error(f"{args.command}: option {name} is given twice")
        options[name] = value
    if options and getattr(args, "resume", False):
        p.error(f"{args.command}: --option goes with a new game; a resumed game keeps its "
                "options")
    if options and getattr(args, "position", None) is not None:
        p.error(f"{args.command}: --option goes with --seed; a position file has its own "
                "options")
    if options and getattr(args, "game", None):
        try:
            options = read_documents(load(args.game), options)
            load(args.game).option_values(options)
        except ValueError as exc:
            p.error(f"{args.command}: {exc}")
    args.options = options


def read_documents(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with each value of a document option (``GameOption.document``) that is
    not one of its choices read as a JSON file; ``ValueError`` saying why a file cannot be
    read, or naming the game's options when the game has no such option."""
    declared = {option.name: option for option in game.options}
    if SCENARIO in options and SCENARIO not in declared:
        raise ValueError(f"{game.name} has no scenarios to choose")
    out = dict(options)
    for name, value in options.items():
        option = declared.get(name)
        if (option is not None and option.document is not None and isinstance(value, str)
                and value not in option.choices
                and (value.lower().endswith(".json") or Path(value).is_file())):
            out[name] = read_json_file(Path(value))
    return out


def scenario_option(game: Game) -> GameOption | None:
    """The option that fills the game's declared per-table set-up choice ``SCENARIO``
    (``GameType.setup``; a choice option taking documents), or None."""
    keywords = {choice.keyword for choice in game.type.setup
                if choice.name == SCENARIO and not choice.per_seat}
    return next((o for o in game.options if o.name in keywords and o.document is not None),
                None)


def _deck_pair(text: str) -> tuple[int, str]:
    """``SEAT=DECK`` read as a seat number (from 1) and a starter deck's id or a deck file."""
    seat, equals, deck = text.partition("=")
    if not equals or not seat.strip().isdigit() or not deck.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not SEAT=DECK, e.g. 1=STARTER-ID or "
                                         "2=my-deck.json")
    return int(seat), deck.strip()


def add_decks(command: argparse.ArgumentParser) -> None:
    """``--deck SEAT=DECK``, repeatable: a seat's deck, for a game with decks."""
    command.add_argument("--deck", dest="decks", type=_deck_pair, action="append", default=[],
                         metavar="SEAT=DECK",
                         help="seat SEAT (from 1) plays DECK: a starter deck's id or name, or "
                              "a deck's JSON file (repeat for more; 'citywatch deck list' "
                              "names the starter decks)")


def read_json_file(path: Path) -> Any:
    """A JSON file's contents (a deck, a scenario); ``ValueError`` saying why it cannot be
    read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file in UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from None


def deck_choice(game_name: str, players: int,
                pairs: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """The decks per seat that ``--deck`` pairs choose (the seats not named keep the game's
    default starter decks), each as its JSON form; ``ValueError`` naming a bad seat, file or
    deck rule."""
    game = load(game_name)
    book = game.decks()
    if book is None:
        raise ValueError(f"{game_name} has no decks to choose (--deck)")
    chosen: list[Any] = list(book.defaults(players))
    named: set[int] = set()
    for seat, text in pairs:
        if not 1 <= seat <= players:
            raise ValueError(f"--deck {seat}={text}: seats are numbered 1 to {players}")
        if seat in named:
            raise ValueError(f"--deck: seat {seat} is given two decks")
        named.add(seat)
        looks_like_file = text.lower().endswith(".json") or Path(text).is_file()
        chosen[seat - 1] = read_json_file(Path(text)) if looks_like_file else text
    return book.check_choice(chosen)


def check_decks(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Turn ``--deck`` pairs of ``simulate``, ``tournament`` and ``perft --seed`` into the
    game's decks option (``play`` does it once its seats are known); a usage error, exit 2,
    for a bad one."""
    pairs: list[tuple[int, str]] = getattr(args, "decks", None) or []
    if not pairs:
        return
    if getattr(args, "resume", False):
        p.error(f"{args.command}: --deck goes with a new game; a resumed game keeps its decks")
    if args.command == "perft" and args.position is not None:
        p.error("perft: --deck goes with --seed; a position file has its own decks")
    if args.command not in ("simulate", "tournament", "perft"):
        return
    if args.command == "tournament":
        players = len(args.bots)
    elif args.command == "perft":
        players = args.players or PERFT_PLAYERS
    else:
        players = args.players
    try:
        decks = deck_choice(args.game, players, pairs)
    except ValueError as exc:
        p.error(f"{args.command}: {exc}")
    book = load(args.game).decks()
    assert book is not None
    args.options[book.keyword] = decks


def check_bots(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every bot named is one of the game's (a usage error, exit 2, if not)."""
    named: list[str] = list(getattr(args, "bots", None) or [])
    named.append(getattr(args, "bot", None) or "")
    for name in filter(None, named):
        try:
            make_bot(name, args.game)
        except ValueError as exc:
            p.error(f"{args.command}: {exc}")


def choose_game(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``play`` without a game: the only registered one, or a usage error naming them."""
    if getattr(args, "game", "") is None and not getattr(args, "resume", False):
        names = game_names()
        if len(names) != 1:
            p.error(f"play: name the game: {', '.join(names)}")
        args.game = names[0]
    if getattr(args, "bot", "") is None and getattr(args, "game", None):
        args.bot = "normal"
