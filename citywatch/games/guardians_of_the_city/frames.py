"""Guardians of the City's decision stack: its frame handlers and queued automatic steps.

``DECISIONS`` (``citywatch.core.stack``) holds the handlers; rule modules register theirs with
``@handler`` and their automatic steps with ``@op``. ``then(s, (op, ...), ...)`` queues steps
to run once every decision pushed above them is settled: this is how a rule says "after that,
do this". The turn (``turn.py``) registers ``DECISIONS.begin_turn``.
"""

from __future__ import annotations

from citywatch.core.stack import Decisions
from citywatch.games.guardians_of_the_city.actions import SEATS, Action
from citywatch.games.guardians_of_the_city.state import STATE_HOOKS, GotcState

State = GotcState
DECISIONS: Decisions[GotcState] = Decisions()


handler = DECISIONS.handler
"""Register a frame handler class under its ``kind`` (a class decorator)."""


op = DECISIONS.op
"""Register an automatic step ``fn(s, *args)`` that ``then`` can queue (a decorator)."""
then = DECISIONS.then
"""Queue automatic steps ``(name, *args)`` to run once everything above them is decided."""


push = DECISIONS.push
"""Push a decision frame ``(kind, seat, ...)``."""


advance = DECISIONS.advance
"""Run automatic steps until a seat must choose."""


DECISIONS.serve(STATE_HOOKS, Action, lambda seat: SEATS[seat])
