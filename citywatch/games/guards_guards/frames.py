"""Guards! Guards!'s decision stack: its frame handlers and queued automatic steps.

``DECISIONS`` (``citywatch.core.stack``) holds the handlers; rule modules register theirs with
``@handler``. ``then(s, op, ...)`` queues automatic steps (``@op`` functions) to run once every
decision pushed above them is settled: this is how a rule says "after that, do this".
The turn (``turn.py``) registers ``DECISIONS.begin_turn``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from citywatch.core.stack import Decisions
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import COLOURS
from citywatch.games.guards_guards.state import STATE_HOOKS, GuardsGuardsState

State = GuardsGuardsState
DECISIONS: Final[Decisions[GuardsGuardsState]] = Decisions()


Provider = Callable[[GuardsGuardsState, int], list[Action]]


class TurnHooks:
    """What modules below ``turn`` offer the active player, filled at import time.

    ``before_move``: actions open before the first step (e.g. "Summon a Dragon");
    ``free``: actions open at any point of the player's own turn (cast a Scroll, use an Item,
    fight a Dragon, re-try a challenge); ``stop``: the stop actions of the tile where the
    movement ended (collect a Great Spell); each is ``(state, seat) -> actions``.
    ``do``: verb -> ``(state, seat, action)`` for every verb those lists offer.
    ``entered``: ``(state, seat, tile)`` called after each step (the Final Spell's Saboteurs);
    ``recruited``: ``(state, seat, volunteer)`` after a successful recruit (ruling 42).
    """

    def __init__(self) -> None:
        self.before_move: list[Provider] = []
        self.free: list[Provider] = []
        self.stop: list[Provider] = []
        self.do: dict[str, Callable[[GuardsGuardsState, int, Action], None]] = {}
        self.entered: list[Callable[[GuardsGuardsState, int, int], None]] = []
        self.recruited: list[Callable[[GuardsGuardsState, int, int], None]] = []


TURN_HOOKS: Final = TurnHooks()


handler: Final = DECISIONS.handler
"""Register a frame handler class under its ``kind`` (a class decorator)."""


op: Final = DECISIONS.op
"""Register an automatic step ``fn(s, *args)`` that ``then`` can queue (a decorator)."""
then: Final = DECISIONS.then
"""Queue automatic steps ``(name, *args)`` to run once everything above them is decided."""
OPS: Final = DECISIONS.ops


push: Final = DECISIONS.push
"""Push a decision frame ``(kind, seat, ...)``."""


advance: Final = DECISIONS.advance
"""Run automatic steps until a seat must choose."""


def seat_name(seat: int) -> str:
    """A seat's name, for the error message of an illegal action."""
    return COLOURS[seat]


def legal_actions(s: GuardsGuardsState) -> list[Action]:
    """The legal actions of the seat to move (the state's ``legal_actions``)."""
    return DECISIONS.legal_actions(s)


def apply_action(s: GuardsGuardsState, action: Any) -> None:
    """Apply a legal action and advance (the state's ``apply``). Module-level functions, not
    lambdas, so that a state whose compiled class keeps its hooks per instance pickles."""
    DECISIONS.apply(s, action, Action, seat_name)


STATE_HOOKS.legal_actions = legal_actions
STATE_HOOKS.apply_action = apply_action
