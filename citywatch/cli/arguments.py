"""What the commands' arguments accept, and the checks ``main`` makes of them before a command
runs: numbers, seeds, bots, a game's options and set-up choices (``SetupChoice``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citywatch.bots import make_bot
from citywatch.core.api import Game
from citywatch.core.registry import game_names, load
from citywatch.core.setup_choice import SetupChoice

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


def choice_names() -> dict[str, SetupChoice]:
    """Each kind of set-up choice the registered games declare, by name (``deck``,
    ``scenario``): the first game's declaration of it, for words and per-seat or not."""
    found: dict[str, SetupChoice] = {}
    for name in game_names():
        for choice in load(name).type.setup:
            found.setdefault(choice.name, choice)
    return found


def add_options(command: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``, repeatable: the game's options (``citywatch games`` lists
    them); and a flag per kind of set-up choice: ``--scenario ID|FILE`` for a choice per
    table, ``--deck SEAT=ID|FILE`` (repeatable) for one per seat."""
    command.add_argument("--option", dest="options", type=_option, action="append",
                         default=[], metavar="NAME=VALUE",
                         help="a game option (repeat for more); 'citywatch games' lists "
                              "each game's")
    for name, choice in choice_names().items():
        if choice.per_seat:
            command.add_argument(f"--{name}", dest=f"setup_{name}", action="append",
                                 default=[], metavar="SEAT=ID|FILE",
                                 help=f"for a game with {choice.plural}: seat SEAT (from 1) "
                                      f"plays a shipped {name} (its id or name) or a {name} "
                                      f"file (repeat for more; 'citywatch {name} list' names "
                                      f"the shipped ones)")
        else:
            command.add_argument(f"--{name}", dest=f"setup_{name}", action="append",
                                 default=[], metavar="ID|FILE",
                                 help=f"for a game with {choice.plural}: a shipped {name} or "
                                      f"a {name} file ('citywatch {name} list' names the "
                                      "shipped ones)")


def _given_choices(args: argparse.Namespace) -> dict[str, list[str]]:
    """The set-up choice flags given, by kind: ``{"deck": ["1=a", ...]}``."""
    return {name: list(getattr(args, f"setup_{name}", None) or [])
            for name in choice_names() if getattr(args, f"setup_{name}", None)}


def choice_named(game: Game, kind: str) -> SetupChoice | None:
    """``game``'s set-up choice named ``kind`` (``deck``, ``scenario``), or None."""
    return next((c for c in game.type.setup if c.name == kind), None)


def _game_choice(game: Game, kind: str) -> SetupChoice:
    """``game``'s set-up choice named ``kind``; ``ValueError`` if it has none."""
    choice = choice_named(game, kind)
    if choice is None:
        raise ValueError(f"{game.name} has no {choice_names()[kind].plural} to choose "
                         f"(--{kind})")
    return choice


def _only_for_a_new_game(p: argparse.ArgumentParser, args: argparse.Namespace, flag: str,
                         kept: str) -> None:
    """A usage error for ``flag`` given with ``--resume`` or a position file, which keep their
    own ``kept`` (options, set-up)."""
    if getattr(args, "resume", False):
        p.error(f"{args.command}: {flag} goes with a new game; a resumed game keeps its {kept}")
    if getattr(args, "position", None) is not None:
        p.error(f"{args.command}: {flag} goes with --seed; a position file has its own {kept}")


def check_options(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Turn ``--option`` pairs and per-table set-up flags (``--scenario``) into a dict of the
    game's options (a usage error, exit 2, for one given twice, unknown or out of range, or
    given where no new game is set up); per-seat flags are read by ``seat_choices``."""
    pairs: list[tuple[str, Any]] = list(getattr(args, "options", None) or [])
    given = _given_choices(args)
    if given:
        _only_for_a_new_game(p, args, f"--{next(iter(given))}", "set-up")
    if given and getattr(args, "game", None):
        for kind, values in given.items():
            try:
                choice = _game_choice(load(args.game), kind)
            except ValueError as exc:
                p.error(f"{args.command}: {exc}")
            if choice.per_seat:
                continue
            if len(values) > 1:
                p.error(f"{args.command}: --{kind} is given twice")
            pairs.append((choice.keyword, values[0]))
    options: dict[str, Any] = {}
    for name, value in pairs:
        if name in options:
            p.error(f"{args.command}: option {name} is given twice")
        options[name] = value
    if options:
        _only_for_a_new_game(p, args, "--option", "options")
    if options and getattr(args, "game", None):
        try:
            options = read_documents(load(args.game), options)
            load(args.game).option_values(options)
        except ValueError as exc:
            p.error(f"{args.command}: {exc}")
    args.options = options


def _looks_like_file(text: str) -> bool:
    """Whether a set-up value names a file rather than a shipped document."""
    return text.lower().endswith(".json") or Path(text).is_file()


def read_documents(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with each per-table set-up choice's value that names a file (not a
    shipped document) read as JSON; ``ValueError`` saying why a file cannot be read."""
    out = dict(options)
    for name, value in options.items():
        choice = game.type.choice(name)
        if (choice is not None and not choice.per_seat and isinstance(value, str)
                and choice.shipped_id(value) is None and _looks_like_file(value)):
            out[name] = read_json_file(Path(value))
    return out


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


def seat_choices(game_name: str, players: int, args: argparse.Namespace) -> dict[str, Any]:
    """The per-seat set-up choices the ``--deck SEAT=ID|FILE`` flags make, by ``new_game``
    keyword: the seats not named keep the choice's default, each value checked
    (``SetupChoice.check``); ``ValueError`` naming a bad seat, file or rule."""
    game = load(game_name)
    chosen: dict[str, Any] = {}
    for kind, values in _given_choices(args).items():
        choice = _game_choice(game, kind)
        if not choice.per_seat:
            continue
        picks: list[Any] = list(choice.default(players))
        named: set[int] = set()
        for text in values:
            seat, equals, value = text.partition("=")
            seat, value = seat.strip(), value.strip()
            if not equals or not seat.isdigit() or not value:
                raise ValueError(f"--{kind} {text!r} is not SEAT=ID|FILE, e.g. 1=ID or "
                                 f"2=my-{kind}.json")
            number = int(seat)
            if not 1 <= number <= players:
                raise ValueError(f"--{kind} {text}: seats are numbered 1 to {players}")
            if number in named:
                raise ValueError(f"--{kind}: seat {number} is given two {choice.plural}")
            named.add(number)
            picks[number - 1] = (read_json_file(Path(value))
                                 if choice.shipped_id(value) is None and _looks_like_file(value)
                                 else value)
        chosen[choice.keyword] = choice.check(picks)
    return chosen


def check_seat_choices(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Turn per-seat set-up flags (``--deck``) of ``simulate``, ``tournament`` and ``perft
    --seed`` into the game's options (``play`` does it once its seats are known); a usage
    error, exit 2, for a bad one."""
    if args.command not in ("simulate", "tournament", "perft") or not getattr(args, "game",
                                                                               None):
        return
    if args.command == "tournament":
        players = len(args.bots)
    elif args.command == "perft":
        players = args.players or PERFT_PLAYERS
    else:
        players = args.players
    try:
        args.options.update(seat_choices(args.game, players, args))
    except ValueError as exc:
        p.error(f"{args.command}: {exc}")


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
