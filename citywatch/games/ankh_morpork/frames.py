"""The pending-decision machinery: frame handlers and the loop that runs them.

A frame is a tuple ``(kind, seat, ...)`` on the state's stack. Its handler says
which actions ``seat`` may take (``legal``) and what each does (``apply``).
``prepare`` lets a frame move on by itself when nothing needs deciding. A frame
with one legal action is applied at once: a seat is only asked when it has a choice.

The loop is the core's (``citywatch.core.stack.Decisions``); the turn itself lives above,
in ``rules``: it registers ``DECISIONS.begin_turn``. This module registers ``legal_actions``
and ``apply_action`` as the state's API (``STATE_HOOKS``).
"""

from __future__ import annotations

from typing import Any, Final

from citywatch.core.log import log_mark
from citywatch.core.stack import Decisions
from citywatch.core.stack import Handler as CoreHandler
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import (
    ASSASSINATE,
    CARDS,
    COLOURS,
    MONEY,
    PLACE_BUILDING,
    PLACE_MINION,
    REMOVE_TROUBLE,
    SCROLL,
)
from citywatch.games.ankh_morpork.scoring import end_by_deck
from citywatch.games.ankh_morpork.state import STATE_HOOKS, AnkhMorporkState, Frame

Handler = CoreHandler[AnkhMorporkState]
"""How one kind of frame is decided (``prepare``, ``legal``, ``apply``, ``describe``)."""
DECISIONS: Final[Decisions[AnkhMorporkState]] = Decisions()
HANDLERS: Final = DECISIONS.handlers
Op = tuple[Any, ...]
OPS: Final = DECISIONS.ops
op = DECISIONS.op
"""Register an automatic step that an ``ops`` frame can run."""
then = DECISIONS.then
"""Push automatic steps to run, in order, once everything above them is decided."""


handler = DECISIONS.handler
"""Register a frame handler class under its ``kind`` (a class decorator)."""


def _deck_out(s: AnkhMorporkState) -> bool:
    """The game ends when the draw pile is empty (rulebook, end of the game)."""
    if s.draw_pile:
        return False
    end_by_deck(s)
    return True


_MARKS: Final[dict[str, tuple[str, ...]]] = {}
"""The move mark of each seat's colour (``log_mark``; marks are immutable values)."""


def skipped_text(action: Action) -> str:
    """What a skip action gave up, for the log: 'the building on Hex'."""
    card = CARDS[action.card]
    symbol = card.symbols[action.extra]
    if symbol.kind == MONEY:
        what = f"the ${symbol.amount}"
    else:
        what = SKIPPED.get(symbol.kind, f"the {symbol.describe()}")
    return f"{what} on {card.name}"


def _log_quiet(s: AnkhMorporkState, f: Frame, action: Action) -> None:
    """Mark where this decision's log lines begin, and log the actions whose handlers write
    nothing: every applied action is logged."""
    who = s.colour(f[1])
    mark = _MARKS.get(who)
    if mark is None:
        mark = _MARKS[who] = log_mark(who)
    s.log_tail = (mark, s.log_tail)
    if action.verb == "skip":
        s.say(f"{who} skipped {skipped_text(action)}.")
        return
    quiet = QUIET_VERBS.get(action.verb)
    if quiet is not None:
        s.say(quiet.format(who=who))


advance = DECISIONS.advance
"""Run automatic steps until a seat must choose between two or more actions."""


def legal_actions(s: AnkhMorporkState) -> list[Action]:
    """The legal actions of the seat to move (empty when the game is over)."""
    return DECISIONS.legal_actions(s)


def _colour(seat: int) -> str:
    return COLOURS[seat]


def apply_action(s: AnkhMorporkState, action: Any) -> None:
    """Apply a legal action, or raise ``IllegalAction`` and change nothing."""
    DECISIONS.apply(s, action, Action, _colour)


DECISIONS.before_step = _deck_out
DECISIONS.on_apply = _log_quiet

# Actions whose handlers write nothing to the log: every applied action is logged.
QUIET_VERBS: Final = {
    "stop": "{who} played no more cards.",
    "end_turn": "{who} ended their turn.",
    "allow": "{who} played no interrupt.",
    "done": "{who} is done.",
}

SKIPPED: Final = {
    PLACE_MINION: "the minion",
    PLACE_BUILDING: "the building",
    ASSASSINATE: "the assassination",
    REMOVE_TROUBLE: "the trouble marker removal",
    SCROLL: "the card text",
}
"""A skipped symbol in words (money: 'the $3'), as in 'Blue skipped the building on Hex'."""

STATE_HOOKS.legal_actions = legal_actions
STATE_HOOKS.apply_action = apply_action
