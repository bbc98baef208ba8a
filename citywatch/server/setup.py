"""A new table's set-up, done in a worker process (issue 24, point 1).

Checking a table's options (an uploaded scenario or deck among them) and dealing its first
state can take time, so the server never does it on its event loop: ``build`` runs in a
process of ``Tables.setup_pool`` under a time limit, and returns the checked options and the
state. It imports nothing of the server's tables, so workers start light.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from citywatch.core.api import Game, State
from citywatch.core.registry import GAMES, load, register
from citywatch.core.rng import Seed

SETUP_TIME_LIMIT = 10.0
"""Default seconds a table's set-up may take (``--setup-time-limit``)."""
MAX_MESSAGE = 600
"""The most characters of an option's error message sent back to the creator."""


@dataclass
class Built:
    """A table's set-up: its checked options, or why they are refused (``error``)."""

    options: dict[str, Any]
    """The options to store (a set-up choice's document as a shipped id or its JSON form)."""
    values: dict[str, Any]
    """Every declared option's value (the defaults filled in)."""
    shown: dict[str, Any]
    """What a table's title shows of its options (``Game.shown_options``)."""
    state: State | None
    error: str | None = None
    """A sentence for the creator (HTTP 400); None if the set-up was made."""


def checked_options(game: Game, options: Any) -> dict[str, Any]:
    """The options a table's creator gave for ``game`` (none: ``{}``) as the record keeps
    them (``Game.checked_options``); ``ValueError`` unless they are a JSON object of the
    game's options and set-up choices, each valid. A set-up choice's document (a deck per
    seat, a scenario) is kept as a shipped one's id or as the JSON form of one's own, checked
    against every rule, so the record replays without the uploaded files."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError('options must be a JSON object {"NAME": VALUE, ...} of the game\'s '
                         'options')
    return game.checked_options(options)


def build(name: str, module: str, players: int, seed: Seed, options: Any) -> Built:
    """Check ``options`` for game ``name`` (registered from ``module`` if this process does
    not know it) and set up a game of ``players`` seats with ``seed``."""
    if name not in GAMES:
        register(name, module)
    game = load(name)
    try:
        chosen = checked_options(game, options)
    except ValueError as exc:
        return Built({}, {}, {}, None, str(exc)[:MAX_MESSAGE])
    try:
        state = game.new_game(players=players, seed=seed, **chosen)
    except ValueError as exc:
        return Built({}, {}, {}, None, f"cannot set up the game: {exc}"[:MAX_MESSAGE])
    return Built(chosen, game.option_values(chosen), game.shown_options(chosen, players), state)


MAX_DOCUMENT = 32 * 1024
"""Bytes of a document sent to be checked (``POST /api/check``; issue 29), refused before
it is read as JSON."""


@dataclass
class Checked:
    """A document's check: the rules it breaks and the notes on it, or why it is not such a
    document at all (``error``)."""

    problems: list[str]
    notes: list[str]
    error: str | None = None
    """A sentence for the sender (HTTP 400); None if the document was checked."""


def check_document(name: str, module: str, keyword: str, raw: bytes) -> Checked:
    """``raw`` (at most ``MAX_DOCUMENT`` bytes) read as JSON and checked as a document of
    game ``name``'s set-up choice ``keyword`` (``SetupChoice.problems``, then, for a good
    one, ``notes``): the same check as ``citywatch <name> check``. Run in a worker."""
    if len(raw) > MAX_DOCUMENT:
        return Checked([], [], f"a document is at most {MAX_DOCUMENT} bytes, not {len(raw)}")
    if name not in GAMES:
        register(name, module)
    choice = load(name).type.choice(keyword)
    if choice is None:
        return Checked([], [], f"there is no set-up choice {keyword[:40]!r}")
    try:
        data = json.loads(raw)
    except RecursionError:
        return Checked([], [], "the document is nested too deeply")
    except (UnicodeDecodeError, json.JSONDecodeError):
        return Checked([], [], "the document must be JSON")
    try:
        problems = choice.problems(data)
        notes = [] if problems else choice.notes(data)
    except ValueError as exc:
        return Checked([], [], f"not a {choice.name}: {exc}"[:MAX_MESSAGE])
    return Checked(problems, notes)
