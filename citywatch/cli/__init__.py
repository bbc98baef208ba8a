"""citywatch: play the city games in the terminal or the browser, pit bots against each
other, replay records and look up the rules."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citywatch import reference
from citywatch.bots import bot_names, make_bot
from citywatch.core.api import Game, GameOption
from citywatch.core.errors import InvalidRecord, UnknownGame
from citywatch.core.record import Record, replay
from citywatch.core.registry import game_names, load
from citywatch.core.text import title_of
from citywatch.saves import show_option


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("the seed must be 0 or more")
    return value


def _bots(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot")
    return names


def _option(text: str) -> tuple[str, int | str]:
    """``NAME=VALUE`` read as an option's name and value: a whole number, else a word (a
    choice, or a file for an option that takes documents)."""
    name, equals, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not equals or not name or not value:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE, e.g. spells=2")
    try:
        return name, int(value)
    except ValueError:
        return name, value


def _sweep(text: str) -> tuple[str, list[int | str] | None]:
    """``NAME`` or ``NAME=V1,V2,...`` read as an option to sweep and its values (whole
    numbers, else words); no values (``None``): every choice of a choice option."""
    name, equals, rest = text.partition("=")
    name = name.strip()
    values = [v.strip() for v in rest.split(",")]
    if not name or (equals and not all(values)):
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME or NAME=V1,V2,..., e.g. "
                                         "spells=1,5")
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


def _add_options(command: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``, repeatable: the game's options (``citywatch games`` lists
    them)."""
    command.add_argument("--option", dest="options", type=_option, action="append",
                         default=[], metavar="NAME=VALUE",
                         help="a game option (repeat for more); 'citywatch games' lists "
                              "each game's")
    command.add_argument("--scenario", metavar="NAME|FILE",
                         help="for a game with scenarios: a shipped scenario or a scenario "
                              "file (the same as --option scenario=NAME|FILE)")


def _check_options(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Turn ``--option`` pairs into a dict of the game's options (a usage error, exit 2, for
    one given twice, unknown or out of range, or given where no new game is set up)."""
    pairs: list[tuple[str, int | str]] = list(getattr(args, "options", None) or [])
    if getattr(args, "scenario", None) is not None:
        pairs.append((SCENARIO, args.scenario))
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


def _deck_pair(text: str) -> tuple[int, str]:
    """``SEAT=DECK`` read as a seat number (from 1) and a starter deck's id or a deck file."""
    seat, equals, deck = text.partition("=")
    if not equals or not seat.strip().isdigit() or not deck.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not SEAT=DECK, e.g. 1=STARTER-ID or "
                                         "2=my-deck.json")
    return int(seat), deck.strip()


def _add_decks(command: argparse.ArgumentParser) -> None:
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


def _check_decks(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
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


def _check_bots(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every bot named is one of the game's (a usage error, exit 2, if not)."""
    named: list[str] = list(getattr(args, "bots", None) or [])
    named.append(getattr(args, "bot", None) or "")
    for name in filter(None, named):
        try:
            make_bot(name, args.game)
        except ValueError as exc:
            p.error(f"{args.command}: {exc}")


def _choose_game(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``play`` without a game: the only registered one, or a usage error naming them."""
    if getattr(args, "game", "") is None and not getattr(args, "resume", False):
        names = game_names()
        if len(names) != 1:
            p.error(f"play: name the game: {', '.join(names)}")
        args.game = names[0]
    if getattr(args, "bot", "") is None and getattr(args, "game", None):
        args.bot = "normal"


def parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    p = argparse.ArgumentParser(prog="citywatch", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play many games between bots and summarise them")
    sim.add_argument("game", choices=game_names(), help="the game to play")
    sim.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    sim.add_argument("--games", type=_positive, default=100, help="how many games (default 100)")
    sim.add_argument("--seed", type=_seed, default=1, help="master seed (default 1)")
    sim.add_argument("--bots", type=_bots, default=["random"],
                     help="one bot for every seat, or a comma-separated bot per seat")
    sim.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sim.add_argument("--records", type=Path, help="write one record file per game here")
    sim.add_argument("--workers", type=_positive,
                     help="processes on this machine (default: every core)")
    sim.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                     help="run on a Ray cluster: HOST:PORT, ray://HOST:PORT, auto, or local "
                          "(start one here); alone, Ray's default")
    sim.add_argument("--report", type=Path, metavar="DIR",
                     help="write the summary as JSON, CSV and an HTML page with plots here")
    sim.add_argument("--min-plays", type=_positive, default=None, metavar="N",
                     help="rank cards played at least N times (default 20)")
    sim.add_argument("--sweep", type=_sweep, action="append", default=[],
                     metavar="NAME[=V1,V2,...]",
                     help="sweep a game option (repeat for more): game k plays combination "
                          "k mod C of the values (a choice option: all its choices by "
                          "default); the summary has a row per combination")
    _add_options(sim)
    _add_decks(sim)
    rep = sub.add_parser("replay", help="replay a game record (step by step in a terminal)")
    rep.add_argument("record", type=Path, help="a record file written by citywatch")
    rep.add_argument("--verify", action="store_true",
                     help="check every stored digest; exit 1 saying where it differs")
    rep.add_argument("--public-key", type=Path, metavar="FILE",
                     help="with --verify (implied), also check the record's signature with "
                          "this public key: a PEM file, or the JSON of a server's "
                          "GET /api/record-key; exit 1 if unsigned, signed by another key "
                          "or changed")
    rep.add_argument("--summary", action="store_true",
                     help="print a summary instead of watching step by step")
    rep.add_argument("--seat", help="watch from one seat (a colour), seeing only what it saw")
    reference.add_parser(sub)
    sub.add_parser("games", help="list the games, their player counts, bots and options")
    tour = sub.add_parser("tournament", help="bots against bots, seats rotated, with intervals")
    tour.add_argument("game", choices=game_names(), help="the game")
    tour.add_argument("--bots", type=_bots, required=True,
                      help="the line-up, one bot per seat, e.g. ismcts,heuristic,random,random")
    tour.add_argument("--games", type=_positive, default=100,
                      help="games to play, rounded up to whole rotations of the seats")
    tour.add_argument("--seed", type=_seed, default=1, help="master seed (default 1)")
    tour.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    _add_options(tour)
    _add_decks(tour)
    perft = sub.add_parser("perft", help="count the legal-action tree below a position, exactly")
    perft.add_argument("game", choices=game_names(), help="the game")
    perft.add_argument("position", type=Path, nargs="?",
                       help="a position file (JSON, as state.position() writes it)")
    perft.add_argument("--depth", type=_positive, required=True, help="decisions deep")
    perft.add_argument("--divide", action="store_true",
                       help="the count below each first action, then the total")
    perft.add_argument("--seed", type=_seed, help="instead of a file: a new game with this seed")
    perft.add_argument("--players", type=int, help="with --seed: number of seats (default 4)")
    _add_options(perft)
    _add_decks(perft)
    play = sub.add_parser("play", help="play in the terminal against bots or friends")
    play.add_argument("game", nargs="?", default=None, choices=game_names(),
                      help="the game (may be left out when only one is registered)")
    play.add_argument("--players", type=int, help="number of seats (default: as --seats, or 4)")
    play.add_argument("--seats", help="who sits where, e.g. you,bot,bot,bot or you,you,bot")
    play.add_argument("--bot", type=_bot_name, default=None,
                      help="the bot for seats named 'bot': a level (easy, normal, hard) or a "
                           "bot spec (default normal)")
    play.add_argument("--seed", type=_seed, help="seed for the game (default: random)")
    play.add_argument("--resume", action="store_true", help="continue an unfinished game")
    play.add_argument("--auto", action="store_true",
                      help="take your usual choice for you when it can never hurt (e.g. taking "
                           "money from the bank); 'auto off' in the game undoes it")
    play.add_argument("--screen", choices=("compact", "full"), default=None,
                      help="compact (default): one screen per decision that fits the terminal, "
                           "'board' and 'log' on demand; full: the whole board before every "
                           "decision too (a resumed game keeps its own unless given; 'screen "
                           "full' or 'screen compact' in the game changes it)")
    _add_options(play)
    _add_decks(play)
    deck = sub.add_parser("deck", help="list a game's starter decks or check a deck file")
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
    scen = sub.add_parser("scenario", help="list a game's scenarios or check a scenario file")
    scen_sub = scen.add_subparsers(dest="scenario_command", required=True)
    scen_list = scen_sub.add_parser("list", help="the shipped scenarios of every game with some")
    scen_list.add_argument("scenario_game", nargs="?", default=None, choices=game_names(),
                           metavar="GAME", help="only this game")
    scen_check = scen_sub.add_parser("check", help="check a scenario file against every rule")
    scen_check.add_argument("file", type=Path, help="a scenario's JSON file")
    scen_check.add_argument("--game", dest="scenario_game", choices=game_names(),
                            help="the scenario's game (needed only when several games have "
                                 "scenarios)")
    serve = sub.add_parser("serve", help="serve the web game: tables for people and bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--db", help="database URL, sqlite:///PATH or postgresql://... "
                                    "(default: citywatch.db in the data directory)")
    serve.add_argument("--bot-delay", type=_delay, default=0.6,
                       help="seconds a bot waits before it moves (default 0.6)")
    serve.add_argument("--bot-workers", type=_positive, default=None,
                       help="processes for bots' thinking (default: the cores but one)")
    serve.add_argument("--bot-time-limit", type=_time_limit, default=20.0,
                       help="seconds one bot decision may take (default 20)")
    serve.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                       help="a host name the server answers to (repeat; default: the "
                            "loopback names when listening on loopback, else any)")
    serve.add_argument("--table-rate", type=_rate, default=None, metavar="RATE",
                       help="tables one address may create (default '20/10 minutes')")
    serve.add_argument("--max-open-tables", type=_positive, default=None, metavar="N",
                       help="unfinished tables of the last week the server keeps "
                            "(default 2000)")
    serve.add_argument("--origin", action="append", default=[], metavar="URL",
                       help="another origin whose pages may use the server, e.g. a proxy's "
                            "https://games.example.org (repeat)")
    serve.add_argument("--idle-seconds", type=float, default=600.0, metavar="S",
                       help="a table nobody used for S seconds leaves memory until needed "
                            "again (default 600)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                       type=_proxy,
                       help="a reverse proxy's address or network (e.g. 127.0.0.1) whose "
                            "X-Forwarded-For and X-Forwarded-Proto are believed (repeat; "
                            "default: none, the headers are ignored)")
    serve.add_argument("--max-sockets-per-address", type=_positive, default=None, metavar="N",
                       help="WebSockets one client address may hold open (default 32)")
    serve.add_argument("--max-connections-per-address", type=_positive, default=None,
                       metavar="N",
                       help="TCP connections (HTTP and WebSocket) one client address may hold "
                            "open; a trusted proxy is not capped (default 128)")
    serve.add_argument("--max-connections", type=_positive, default=None, metavar="N",
                       help="TCP connections open at once in the process (default 10000, or "
                            "the open-file limit less 256 if that is lower)")
    serve.add_argument("--header-timeout", type=_header_timeout, default=None, metavar="S",
                       help="seconds a client has to send a request's headers, from the "
                            "connection's start or the previous answer (default 10)")
    serve.add_argument("--setup-time-limit", type=_time_limit, default=10.0, metavar="S",
                       help="seconds checking a new table's options and setting it up may "
                            "take (default 10)")
    serve.add_argument("--tables-per-address", type=_positive, default=None, metavar="N",
                       help="unfinished tables of the last week one address may keep "
                            "(default 20)")
    serve.add_argument("--abandon-hours", type=_amount(False), default=None, metavar="H",
                       help="an unfinished table with no move for H hours is closed as "
                            "abandoned (default 72)")
    serve.add_argument("--unstarted-hours", type=_amount(False), default=None, metavar="H",
                       help="a table with no move at all H hours after it was made is "
                            "closed as abandoned (default 24)")
    serve.add_argument("--delete-days", type=_amount(True), default=None, metavar="D",
                       help="a table closed as abandoned is deleted D days later; 0: never "
                            "(default 30)")
    serve.add_argument("--bot-table-steps", type=_positive, default=None, metavar="N",
                       help="the most decisions of a table of bots only (default 20000)")
    serve.add_argument("--bot-table-hours", type=_amount(False), default=None, metavar="H",
                       help="the longest a table of bots only may play (default 2)")
    serve.add_argument("--signing-key", type=Path, default=None, metavar="PATH",
                       help="the Ed25519 private key (PEM) that signs the records the server "
                            "issues, created if missing (default: record-signing-key.pem in "
                            "the data directory); processes serving one database share it")
    return p


LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
SCENARIO = "scenario"
"""The option a game with scenarios declares (``--scenario``, ``citywatch scenario``)."""
PERFT_PLAYERS = 4
"""The seats of ``perft --seed`` without ``--players``."""


def _rate(text: str) -> str:
    from limits import parse

    try:
        parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate such as '20/10 minutes'"
                                         ) from None
    return text


def _proxy(text: str) -> str:
    from citywatch.server.connections import parse_proxy

    try:
        return str(parse_proxy(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(what: str) -> Callable[[str], float]:
    """A parser of a number of seconds more than 0 and at most 3600, ``what`` in its error."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not 0 < value <= 3600:
            raise argparse.ArgumentTypeError(f"{what} must be more than 0 and at most 3600 "
                                             "seconds")
        return value

    return parse


_time_limit = _seconds("the time limit")
_header_timeout = _seconds("the header timeout")


def _amount(zero: bool) -> Callable[[str], float]:
    """A parser of a number of hours or days: more than 0 (or 0 too, if ``zero``), finite,
    at most ``MAX_AMOUNT``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        low = "0 or more" if zero else "more than 0"
        if not ((value >= 0 if zero else value > 0) and value <= MAX_AMOUNT):
            raise argparse.ArgumentTypeError(f"{text!r} must be {low} and at most "
                                             f"{MAX_AMOUNT}")
        return value

    return parse


MAX_AMOUNT = 100000
"""The largest number of hours or days a serve option takes."""


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError("the bot delay must be 0 or more seconds")
    return value


def _bot_name(text: str) -> str:
    return _bots(text)[0] if "," not in text else _fail(f"{text!r}: name one bot")


def _fail(message: str) -> str:
    raise argparse.ArgumentTypeError(message)


def _interval(rate: dict[str, Any]) -> str:
    interval = f"{rate['ci_low']:.1%} - {rate['ci_high']:.1%}"
    return f"{rate['rate']:>9.1%}{interval:>17}"


def _print_summary(data: dict[str, Any]) -> None:
    games = data["games"]
    players = data["players"]
    defaults = {o.name: o.default for o in load(data["game"]).options if o.tuning}
    options = "".join(f", {name} {value}" for name, value in data.get("options", {}).items()
                      if name not in defaults or value != defaults[name])
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
    if data["win_rate_by_personality"]:
        print()
        print(f"{data.get('role', 'personality'):<22}{'games':>7}{head}")
    for name, rate in sorted(data["win_rate_by_personality"].items(),
                             key=lambda kv: -kv[1]["rate"]):
        print(f"{name:<22}{rate['games']:>7}{rate['wins']:>9.2f}{_interval(rate)}")
    matrix = data.get("deck_matrix")
    if matrix:
        print()
        print(f"{'deck':<32}{'against':<32}{'games':>7}{head}")
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
    print()
    print(f"mean turns {data['mean_turns']:.1f}, mean decisions {data['mean_decisions']:.1f}")
    run = data["run"]
    resumed = f", {run['games_resumed']} read back" if run["games_resumed"] else ""
    print(f"{data['games_per_second']:.1f} games/s, {data['decisions_per_second']:.0f} decisions/s "
          f"({data['seconds']:.2f} s; {run['backend']}, {run['workers']} workers{resumed})")


def _simulate(args: argparse.Namespace) -> int:
    from citywatch.lab import progress_bar
    from citywatch.simulate import simulate

    folder = args.report or args.records
    try:
        sweep = _sweep_choice(args.sweep)
        with progress_bar() as progress:
            summary = simulate(args.game, args.players, args.games, args.seed, args.bots,
                               args.records, workers=args.workers, ray=args.ray or None,
                               use_ray=args.ray is not None, report=args.report,
                               progress=progress, min_plays=args.min_plays,
                               options=args.options, sweep=sweep)
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


def _games() -> int:
    """``citywatch games``: every registered game, its players and bots, then its options
    (``--option NAME=VALUE``) with their range and default, one a line."""
    names = game_names()
    width = max(map(len, names), default=0) + 2
    titles = max((len(load(name).display_name()) for name in names), default=0) + 2
    for name in names:
        game = load(name)
        print(f"{name:<{width}}{game.display_name():<{titles}}{game.min_players}-"
              f"{game.max_players} players   bots: {', '.join(bot_names(name))}")
        tuning = False
        for option in game.options:
            if option.tuning and not tuning:
                tuning = True
                print(f"{'':<{width}}the rules' numbers, for designers to tune:")
            value = "WORD" if option.choices else "N"
            print(f"{'':<{width}}--option {option.name}={value}: {option.help} "
                  f"({option.describe_range()}, default {option.default})")
        book = game.decks()
        if book is not None:
            ids = ", ".join(str(deck["id"]) for deck in book.starters())
            print(f"{'':<{width}}--deck SEAT=DECK: a starter deck ({ids}) or a deck file")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status. A closed standard output (``citywatch
    ... | head``) ends it quietly with status 1, as the Python documentation recommends."""
    try:
        status = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit writes nowhere
        return 1
    return status


def _main(argv: list[str] | None) -> int:
    """The command line's work (``main`` without the closed-pipe guard)."""
    p = parser()
    args = p.parse_args(argv)
    _choose_game(p, args)
    if getattr(args, "game", None):
        _check_bots(p, args)
    _check_options(p, args)
    _check_decks(p, args)
    if args.command == "deck":
        return _deck(args)
    if args.command == "scenario":
        return _scenario(args)
    if args.command == "games":
        return _games()
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "rules":
        return reference.run(args)
    if args.command == "play":
        return _play(args)
    if args.command == "tournament":
        return _tournament(args)
    if args.command == "serve":
        return _serve(args)
    if args.command == "perft":
        return _perft(args)
    if args.command == "replay":
        return _replay(args)
    return 2  # pragma: no cover - argparse requires a command


def _replay(args: argparse.Namespace) -> int:
    """``citywatch replay``: watch a record, or replay it (``--summary``, ``--verify``) and say
    what was checked: the digests, and the signature with ``--public-key``."""
    from citywatch.core.record import read_json
    from citywatch.core.signature import KeyFileError, load_public_key, verify

    verifying = args.verify or args.public_key is not None
    try:
        key = None if args.public_key is None else load_public_key(args.public_key)
    except KeyFileError as exc:
        print(f"citywatch replay: error: {exc}", file=sys.stderr)
        return 2
    try:
        data = read_json(args.record)
        record = Record.from_json(data)
        if not (verifying or args.summary) and sys.stdin.isatty():
            from citywatch.terminal.viewer import watch

            return watch(record, args.seat)
        signed_by = None if key is None else verify(data, key)
        state = replay(record, verify=verifying)
    except InvalidRecord as exc:
        print(f"citywatch replay: {args.record}: {exc}", file=sys.stderr)
        return 1
    outcome = state.outcome()
    status = "finished" if outcome is not None else "unfinished"
    checked = " and every digest matches" if verifying and record.digests else ""
    print(f"{args.record}: {len(record.actions)} actions replayed{checked}; game {status}.")
    if outcome is not None:
        print(f"winners: {list(outcome.winners)}, reason: {outcome.reason}, "
              f"points: {None if outcome.points is None else list(outcome.points)}")
    print(f"digest: {state.digest()}")
    if verifying:
        for line in _verified(record, signed_by):
            print(line)
    return 0


def _verified(record: Record, signed_by: str | None) -> list[str]:
    """What ``replay --verify`` checked besides the replay, in plain sentences."""
    lines = []
    if record.digests is None:
        lines.append("warning: the record carries no digests: only that its actions are legal "
                     "was checked, not that they lead to the states its issuer recorded")
    if signed_by is not None:
        lines.append(f"signature: valid, made with key {signed_by}: the record is as that "
                     "key's holder issued it")
    elif record.signature is None:
        lines.append("signature: none: the record is not signed, so nothing shows who wrote "
                     "it or that it was not changed")
    else:
        lines.append(f"signature: present (key {record.signature['key_id']}) but NOT checked: "
                     "pass --public-key FILE, the issuing server's GET /api/record-key")
    return lines


def _perft(args: argparse.Namespace) -> int:
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
            chosen = "".join(f", {name} {show_option(value)}"
                             for name, value in args.options.items())
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


def scenario_option(game: Game) -> GameOption | None:
    """The game's scenario option (a choice option taking documents), or None."""
    return next((o for o in game.options if o.name == SCENARIO and o.document is not None),
                None)


def _scenario(args: argparse.Namespace) -> int:
    """``citywatch scenario list [GAME]`` and ``citywatch scenario check FILE``: exit 0 for a
    good scenario, 1 for one that breaks rules (each printed), 2 for a file that cannot be
    read or a game without scenarios."""
    with_scenarios = [n for n in game_names() if scenario_option(load(n)) is not None]
    name = args.scenario_game
    if name is None and args.scenario_command == "check":
        if len(with_scenarios) != 1:
            print(f"citywatch scenario check: give --game ({', '.join(with_scenarios)})",
                  file=sys.stderr)
            return 2
        name = with_scenarios[0]
    names = [name] if name else with_scenarios
    for game_name in names:
        if scenario_option(load(game_name)) is None:
            print(f"citywatch scenario: error: {game_name} has no scenarios", file=sys.stderr)
            return 2
    if args.scenario_command == "list":
        for game_name in names:
            option = scenario_option(load(game_name))
            assert option is not None
            print(f"{load(game_name).display_name()} ({game_name}): scenarios "
                  f"(default {option.default})")
            for choice in option.choices:
                print(f"  {choice}")
        return 0
    option = scenario_option(load(name))
    assert option is not None and option.document is not None
    try:
        data = read_json_file(args.file)
    except ValueError as exc:
        print(f"citywatch scenario check: {exc}", file=sys.stderr)
        return 2
    problems = option.document(data)
    title = option.show(data) if isinstance(data, dict) else "the file"
    if problems:
        print(f"{args.file}: {title} breaks {len(problems)} rule(s) of a "
              f"{load(name).display_name()} scenario:")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print(f"{args.file}: {title} is a good scenario for {load(name).display_name()}")
    return 0


def _deck(args: argparse.Namespace) -> int:
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


def _tournament(args: argparse.Namespace) -> int:
    from citywatch.tournament import tournament

    try:
        result = tournament(args.game, args.bots, args.games, args.seed, args.workers,
                            options=args.options)
    except ValueError as exc:
        print(f"citywatch tournament: error: {exc}", file=sys.stderr)
        return 2
    if result["games"] != args.games:
        print(f"citywatch tournament: {args.games} games rounded up to {result['games']}, "
              f"whole rotations of the {len(result['lineup'])} seats", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    options = "".join(f", {name} {value}" for name, value in result["options"].items())
    print(f"{result['game']}: {result['games']} games{options}, line-up "
          f"{', '.join(result['lineup'])}, seed {result['seed']}, {result['seconds']:.1f} s")
    print(f"{'bot':<28}{'games':>7}{'wins':>9}{'win rate':>10}{'95% interval':>17}"
          f"{'points':>8}{'s/decision':>12}{'cpu s':>8}")
    for name, b in sorted(result["bots"].items(), key=lambda kv: -kv[1]["win_rate"]):
        interval = f"{b['ci_low']:.1%}-{b['ci_high']:.1%}"
        print(f"{name:<28}{b['games']:>7}{b['wins']:>9.1f}{b['win_rate']:>10.1%}"
              f"{interval:>17}{b['mean_points']:>8.1f}{b['seconds_per_decision']:>12.4f}"
              f"{b['cpu_seconds_per_decision']:>8.4f}")
    return 0


def port_taken(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host`` and ``port`` (e.g. another program uses
    the port), or None if it can."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"unknown address ({exc})"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "the port is in use by another program"
            return exc.strerror or str(exc)
    return None


def _serve(args: argparse.Namespace) -> int:
    busy = port_taken(args.host, args.port)
    if busy:
        print(f"citywatch serve: error: cannot listen on {args.host} port {args.port}: {busy}; "
              "choose another port with --port N (with make: make play PORT=N)",
              file=sys.stderr)
        return 2
    from dataclasses import replace

    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from citywatch.core.signature import KeyFileError
    from citywatch.saves import data_dir
    from citywatch.server import create_app
    from citywatch.server.app import MAX_BODY
    from citywatch.server.connections import (
        ConnectionLimits,
        default_total,
        raise_open_files,
        uvicorn_options,
    )
    from citywatch.server.signing import KEY_FILE, load_signer
    from citywatch.server.storage import StorageError
    from citywatch.server.tables import Limits

    key_path = args.signing_key if args.signing_key is not None else data_dir() / KEY_FILE
    try:
        signer = load_signer(key_path)
    except KeyFileError as exc:
        print(f"citywatch serve: error: {exc}", file=sys.stderr)
        return 2
    if signer.created:
        print(f"citywatch: made a new record-signing key {key_path} (key id {signer.key_id}); "
              "keep it: records signed with it verify only with its public key", flush=True)

    url = args.db
    if url is None:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{folder / 'citywatch.db'}"
    allowed = args.allowed_host
    if allowed is None and args.host in ("127.0.0.1", "localhost", "::1"):
        allowed = LOOPBACK_HOSTS  # a page on another name (DNS rebinding) is refused
    try:
        limits = Limits()
        if args.max_open_tables is not None:
            limits = replace(limits, open_tables=args.max_open_tables)
        if args.table_rate is not None:
            limits = replace(limits, creations=args.table_rate)
        if args.max_sockets_per_address is not None:
            limits = replace(limits, sockets_per_address=args.max_sockets_per_address)
        chosen = {"open_tables_per_address": args.tables_per_address,
                  "abandon_hours": args.abandon_hours, "unstarted_hours": args.unstarted_hours,
                  "delete_days": args.delete_days, "bot_table_steps": args.bot_table_steps,
                  "bot_table_hours": args.bot_table_hours}
        limits = replace(limits, **{k: v for k, v in chosen.items() if v is not None})
        raise_open_files()
        connection_limits = ConnectionLimits()
        connection_limits = replace(
            connection_limits, trusted_proxies=tuple(args.trusted_proxy),
            total=args.max_connections or default_total(),
            per_address=args.max_connections_per_address or connection_limits.per_address,
            header_seconds=args.header_timeout or connection_limits.header_seconds)
        app = create_app(url, bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                         bot_time_limit=args.bot_time_limit, allowed_hosts=allowed,
                         origins=args.origin, limits=limits, idle_seconds=args.idle_seconds,
                         setup_time_limit=args.setup_time_limit, signing_key=signer)
    except (StorageError, ValueError) as exc:
        print(f"citywatch serve: error: {exc}", file=sys.stderr)
        return 2
    except SQLAlchemyError as exc:
        print(f"citywatch serve: error: cannot open the database: {exc}", file=sys.stderr)
        return 2
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(args.host, args.host)
    host = f"[{host}]" if ":" in host else host
    shown = make_url(url).render_as_string(hide_password=True)
    print(f"citywatch: open http://{host}:{args.port}/ (database {shown})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_max_size=MAX_BODY, **uvicorn_options(connection_limits))
    return 0


def _play(args: argparse.Namespace) -> int:
    from citywatch.terminal import app

    con = app.console()
    read = app.default_reader(con)
    if args.resume:
        return app.resume(read, con, auto=args.auto, screen=args.screen)
    try:
        seats = app.parse_seats(args.seats, args.players, args.bot, args.game)
        if args.decks:
            book = load(args.game).decks()
            chosen = deck_choice(args.game, len(seats), args.decks)
            args.options[book.keyword if book is not None else "decks"] = chosen
        game = app.new_game(args.game, seats, args.seed, read, con, options=args.options,
                            auto=args.auto, screen=args.screen or "compact")
    except ValueError as exc:
        print(f"citywatch play: error: {exc}", file=sys.stderr)
        return 2
    game.run()
    return 0
