"""Guardians of the City's decision stack: its frame handlers and queued automatic steps.

``DECISIONS`` (``citywatch.core.stack``) holds the handlers; rule modules register theirs with
``@handler`` and their automatic steps with ``@op``. ``then(s, (op, ...), ...)`` queues steps
to run once every decision pushed above them is settled: this is how a rule says "after that,
do this". The turn (``turn.py``) registers ``DECISIONS.begin_turn``.
"""

from __future__ import annotations

from typing import Any, Final

from citywatch.core.stack import Decisions
from citywatch.games.guardians_of_the_city.actions import SEATS, Action
from citywatch.games.guardians_of_the_city.state import STATE_HOOKS, GotcState

State = GotcState
DECISIONS: Final[Decisions[GotcState]] = Decisions()


handler: Final = DECISIONS.handler
"""Register a frame handler class under its ``kind`` (a class decorator)."""


op: Final = DECISIONS.op
"""Register an automatic step ``fn(s, *args)`` that ``then`` can queue (a decorator)."""
then: Final = DECISIONS.then
"""Queue automatic steps ``(name, *args)`` to run once everything above them is decided."""


push: Final = DECISIONS.push
"""Push a decision frame ``(kind, seat, ...)``."""


advance: Final = DECISIONS.advance
"""Run automatic steps until a seat must choose."""


def seat_name(seat: int) -> str:
    """A seat's name, for the error message of an illegal action."""
    return SEATS[seat]


def legal_actions(s: GotcState) -> list[Action]:
    """The legal actions of the seat to move (the state's ``legal_actions``)."""
    return DECISIONS.legal_actions(s)


def apply_action(s: GotcState, action: Any) -> None:
    """Apply a legal action and advance (the state's ``apply``). Module-level functions, not
    lambdas, so that a state whose compiled class keeps its hooks per instance pickles."""
    DECISIONS.apply(s, action, Action, seat_name)


STATE_HOOKS.legal_actions = legal_actions
STATE_HOOKS.apply_action = apply_action
