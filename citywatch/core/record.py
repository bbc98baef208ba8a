"""Game records: game name, options, seed and the actions taken, as JSON.

The seed is a whole number (the fast generator) or a secret seed ``"blake2b:<hex key>"``.

A record replays to the identical state on any machine. ``digests`` (optional)
holds the state digest after each action so a replay can say where it diverged.
``signature`` (optional) is the Ed25519 signature of the server that issued the record
(``citywatch.core.signature``): digests alone can be recomputed by anyone who changes an
action, a signature cannot.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citywatch.core.api import State
from citywatch.core.errors import IllegalAction, InvalidRecord
from citywatch.core.registry import load
from citywatch.core.rng import Seed, rng_from_seed
from citywatch.core.signature import signature_field

FORMAT = "citywatch-record/1"


@dataclass
class Record:
    """What is needed to replay a game."""

    game: str
    players: int
    seed: Seed
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)
    digests: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    signature: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON dict."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": list(self.actions),
        }
        if self.digests is not None:
            data["digests"] = list(self.digests)
        if self.meta:
            data["meta"] = dict(self.meta)
        if self.signature is not None:
            data["signature"] = dict(self.signature)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read and check a record dict; raise ``InvalidRecord`` with the reason."""
        if not isinstance(data, dict):
            raise InvalidRecord("a record must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise InvalidRecord(f"unknown record format {data.get('format')!r}")
        for key, kind in (("game", str), ("players", int), ("seed", int), ("actions", list)):
            if key not in data:
                raise InvalidRecord(f"record has no {key!r}")
            if key == "seed":
                try:
                    rng_from_seed(data[key])
                except ValueError as exc:
                    raise InvalidRecord(f"record field 'seed': {exc}") from None
            elif not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise InvalidRecord(f"record field {key!r} must be {kind.__name__}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise InvalidRecord("record field 'options' must be an object")
        digests = data.get("digests")
        if digests is not None and (
            not isinstance(digests, list) or not all(isinstance(d, str) for d in digests)
        ):
            raise InvalidRecord("record field 'digests' must be a list of strings")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise InvalidRecord("record field 'meta' must be an object")
        signature = data.get("signature")
        if signature is not None:
            signature = signature_field(signature)
        return cls(data["game"], data["players"], data["seed"], options, data["actions"], digests,
                   meta, signature)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` atomically."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            f.write(json.dumps(self.to_json(), separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(target)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; raise ``InvalidRecord`` if it cannot be read."""
        return cls.from_json(read_json(path))


def read_json(path: str | Path) -> Any:
    """The JSON in a record file, as it is (``Record.from_json`` checks it); ``InvalidRecord``
    if it cannot be read or is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRecord(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidRecord(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidRecord(f"{path} is not valid JSON: {exc}") from None


def start(record: Record) -> State:
    """The initial state of a record's game."""
    try:
        game = load(record.game)
        return game.new_game(players=record.players, seed=record.seed, **record.options)
    except (TypeError, ValueError) as exc:
        raise InvalidRecord(f"cannot start the game: {exc}") from None


def applied(record: Record, state: State) -> Iterator[tuple[int, Any]]:
    """Apply ``record``'s actions to ``state`` (its game's start) one at a time, yielding each
    action's number (from 1) and the action once it is applied; ``InvalidRecord`` naming the
    first action that is not legal or is malformed."""
    game = state.game
    for number, raw in enumerate(record.actions, start=1):
        try:
            action = game.action_from_json(raw)
            state.apply(action)
        except IllegalAction as exc:
            raise InvalidRecord(f"action {number} ({raw!r}) is not legal: {exc}") from None
        except ValueError as exc:
            raise InvalidRecord(f"action {number} ({raw!r}) is malformed: {exc}") from None
        yield number, action


def replay(record: Record | dict[str, Any], *, verify: bool = False) -> State:
    """Replay a record and return the final state.

    Raise ``InvalidRecord`` naming the action number where it fails; with
    ``verify``, also where a stored digest differs.
    """
    rec = record if isinstance(record, Record) else Record.from_json(record)
    state = start(rec)
    for number, _action in applied(rec, state):
        if verify and rec.digests is not None:
            if number > len(rec.digests):
                raise InvalidRecord(f"record has no digest for action {number}")
            if state.digest() != rec.digests[number - 1]:
                raise InvalidRecord(
                    f"state after action {number} does not match the record's digest"
                )
    if verify and rec.digests is not None and len(rec.digests) != len(rec.actions):
        raise InvalidRecord(
            f"record has {len(rec.digests)} digests for {len(rec.actions)} actions"
        )
    return state
