"""``citywatch replay``: watch a game record step by step, or replay it and check its digests
and signature."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citywatch.cli.games import wrapped
from citywatch.core.api import State
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record, replay


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand to ``subparsers``."""
    rep = subparsers.add_parser("replay",
                                help="replay a game record (step by step in a terminal)")
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


def run(args: argparse.Namespace) -> int:
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
        for line in _result(state):
            print("\n".join(wrapped(line, indent=0, more=2)))
    print(f"digest: {state.digest()}")
    if verifying:
        for line in _verified(record, signed_by):
            print(line)
    return 0


def _result(state: State) -> list[str]:
    """How a finished game ended, in sentences (issue 26): who won and why, then each seat's
    points, the seats named as their views name them (``GameType.seat_name``)."""
    outcome = state.outcome()
    assert outcome is not None
    names = [state.game.type.seat_name(state.view(p)) or f"Seat {p + 1}"
             for p in range(state.players)]
    winners = [names[p] for p in outcome.winners]
    if not winners:
        who = "Nobody wins"
    elif len(winners) == 1:
        who = f"{winners[0]} wins"
    else:
        who = f"{', '.join(winners[:-1])} and {winners[-1]} win together"
    lines = [f"{who} ({outcome.reason})."]
    points = outcome.seat_points()
    if points is not None:
        word = state.game.type.points
        shown = ", ".join(f"{names[p]} {value}" for p, value in enumerate(points))
        lines.append(f"{word[:1].upper()}{word[1:]}: {shown}.")
    return lines


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
