"""``citywatch analyse``: a finished game's record analysed by the coach (issue 30): each
player's winning chance after every decision, the turning points with what the hard level
would have done instead, and the graph of the whole game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from citywatch.cli.games import wrapped
from citywatch.coach import STRENGTHS, Analysis, analyse
from citywatch.coach.review import MAX_TURNING_POINTS
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record, start

ERROR = 2
"""The exit status of a bad record, an unfinished game, a bad seat or a bad plot path."""


def turning_count(text: str) -> int:
    """How many turning points: a whole number from 0 to ``MAX_TURNING_POINTS``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_TURNING_POINTS:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_TURNING_POINTS}, "
                                         f"not {value}")
    return value


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``analyse`` subcommand to ``subparsers``."""
    cmd = subparsers.add_parser(
        "analyse", help="analyse a finished game: the turning points and each player's winning "
                        "chance over the game")
    cmd.add_argument("record", type=Path, help="a finished game's record (a save, or a record "
                                               "the web game or simulate wrote)")
    cmd.add_argument("--seat", metavar="N",
                     help="only this seat's turning points: its number (from 1) or its name "
                          "(a colour, say)")
    cmd.add_argument("--json", action="store_true", help="print the analysis as JSON")
    cmd.add_argument("--plot", type=Path, metavar="FILE.png",
                     help="draw each player's winning chance over the game, the turning points "
                          "and the hints used, as a PNG")
    cmd.add_argument("--strength", choices=tuple(STRENGTHS), default="normal",
                     help="how hard the coach looks at each decision (default normal: "
                          "seconds for a whole game, up to a minute for a long one)")
    cmd.add_argument("--turning", type=turning_count, default=5, metavar="N",
                     help=f"how many turning points (0 to {MAX_TURNING_POINTS}, default 5)")


class Refused(Exception):
    """A reason the analysis cannot be made, in one line."""


def run(args: argparse.Namespace) -> int:
    """``citywatch analyse``: check everything first (the plot's path, the record, the seat),
    then analyse and print; any problem is one error line and exit status 2, nothing
    written."""
    try:
        plot = None if args.plot is None else plot_path(args.plot)
        record = read_record(args.record)
        seat = None if args.seat is None else seat_number(record, args.seat)
        try:
            analysis = analyse(record, args.strength, args.turning, seat=seat)
        except (InvalidRecord, ValueError) as exc:
            raise Refused(f"{args.record}: {exc}") from None
    except Refused as exc:
        print(f"citywatch analyse: error: {exc}", file=sys.stderr)
        return ERROR
    if args.json:
        print(json.dumps(analysis.to_json()))
    else:
        for line in [*header(analysis, record, args.record), "", *analysis.lines()]:
            indent = len(line) - len(line.lstrip())
            print("\n".join(wrapped(line.lstrip(), indent=indent, more=max(indent, 3))))
    if plot is not None:
        from citywatch.cli.chances_plot import write_plot

        write_plot(analysis, plot, str(args.record.name))
        if not args.json:
            print(f"\nThe graph: {plot}")
    return 0


def plot_path(path: Path) -> Path:
    """``path`` if a PNG can be written there: it ends in ``.png`` and its folder exists."""
    if path.suffix.lower() != ".png":
        raise Refused(f"--plot {path}: the graph is a PNG: name a file ending in .png")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise Refused(f"--plot {path}: there is no folder {folder}")
    if path.is_dir():
        raise Refused(f"--plot {path}: that is a folder")
    return path


def read_record(path: Path) -> Record:
    """The record in ``path``; ``Refused`` saying why it cannot be read."""
    try:
        return Record.load(path)
    except InvalidRecord as exc:
        text = str(exc)
        raise Refused(text if str(path) in text else f"{path}: {text}") from None


def seat_number(record: Record, text: str) -> int:
    """The seat ``text`` names (a number from 1, or a seat's name as its view gives it), from
    0; ``Refused`` if none."""
    players = record.players
    if text.strip().isdigit():
        number = int(text)
        if not 1 <= number <= players:
            raise Refused(f"--seat {text}: this game has seats 1 to {players}")
        return number - 1
    names = seat_names(record)
    wanted = text.strip().casefold()
    for seat, name in enumerate(names):
        if name.casefold() == wanted:
            return seat
    raise Refused(f"--seat {text[:40]!r}: no such seat; the seats are "
                  f"{', '.join(f'{n + 1} ({name})' for n, name in enumerate(names))}")


def seat_names(record: Record) -> list[str]:
    """Each seat's name as its view gives it at the start (``GameType.seat_name``)."""
    try:
        state = start(record)
    except (InvalidRecord, ValueError) as exc:
        raise Refused(f"{exc}") from None
    return [state.game.type.seat_name(state.view(p)) or f"Seat {p + 1}"
            for p in range(record.players)]


def header(analysis: Analysis, record: Record, path: Path) -> list[str]:
    """The game, its players (and who sat where, when the record says), the result, and the
    hints used and by whom."""
    seats = record.meta.get("seats")
    who = list(analysis.names)
    if isinstance(seats, list) and len(seats) == len(who) and all(
            isinstance(s, str) for s in seats):
        who = [f"{name} ({seat})" for name, seat in zip(who, seats, strict=True)]
    if analysis.cooperative:
        result = (f"The crew won ({analysis.reason})." if analysis.winners
                  else f"The crew lost ({analysis.reason}).")
    elif analysis.winners:
        names = [analysis.names[w] for w in analysis.winners]
        result = f"Winner{'s' if len(names) > 1 else ''}: {', '.join(names)} ({analysis.reason})."
    else:
        result = f"Nobody won ({analysis.reason})."
    decisions = len(analysis.moments)
    lines = [f"{analysis.game}, {analysis.players} player{'s' if analysis.players > 1 else ''}: "
             f"{', '.join(who)} ({path.name})",
             f"{result} {decisions} decisions, analysed at {analysis.strength} strength.",
             hints_line(analysis)]
    return lines


def hints_line(analysis: Analysis) -> str:
    """How many hints were used and by whom: 'Hints used: 3 (Red 2, Blue 1).'"""
    counts: dict[int, int] = {}
    for used in analysis.hints:
        seat = used.get("seat")
        if isinstance(seat, int) and 0 <= seat < analysis.players:
            counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return "Hints used: none."
    by = ", ".join(f"{analysis.names[seat]} {n}" for seat, n in sorted(counts.items()))
    return f"Hints used: {sum(counts.values())} ({by})."

