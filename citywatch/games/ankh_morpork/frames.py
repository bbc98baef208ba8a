"""The pending-decision machinery: frame handlers and the loop that runs them.

A frame is a tuple ``(kind, seat, ...)`` on the state's stack. Its handler says
which actions ``seat`` may take (``legal``) and what each does (``apply``).
``prepare`` lets a frame move on by itself when nothing needs deciding. A frame
with one legal action is applied at once: a seat is only asked when it has a choice.

The turn itself lives above, in ``rules``: it registers ``begin_turn`` in
``FRAME_HOOKS``. This module registers ``legal_actions`` and ``apply_action`` as the
state's API (``STATE_HOOKS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from citywatch.core.errors import IllegalAction
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.scoring import end_by_deck
from citywatch.games.ankh_morpork.state import STATE_HOOKS, AnkhMorporkState, Frame


class Handler:
    """How one kind of frame is decided."""

    kind = ""

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        """Move on without a decision if possible; True if the stack changed."""
        return False

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        """The actions open to the frame's seat."""
        raise NotImplementedError

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        """Carry out ``a``; the frame is still on top of the stack."""
        raise NotImplementedError

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        """What the seat is deciding, in a few words."""
        return "decide"


class FrameHooks:
    """What ``advance`` calls from the turn above; ``rules`` fills it at import time."""

    __slots__ = ("begin_turn",)

    begin_turn: Callable[[AnkhMorporkState], None]


FRAME_HOOKS = FrameHooks()
HANDLERS: dict[str, Handler] = {}
Op = tuple[Any, ...]
OPS: dict[str, Callable[..., None]] = {}


def handler(cls: type[Handler]) -> type[Handler]:
    """Register a frame handler class under its ``kind``."""
    HANDLERS[cls.kind] = cls()
    return cls


def op(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register an automatic step that an ``ops`` frame can run."""

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        OPS[name] = fn
        return fn

    return register


def then(s: AnkhMorporkState, *ops: Op) -> None:
    """Push automatic steps to run, in order, once everything above them is decided."""
    if ops:
        s.stack.append(("ops", -1, ops))


@handler
class OpsHandler(Handler):
    """Runs queued automatic steps one at a time."""

    kind = "ops"

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        ops: tuple[Op, ...] = f[2]
        s.stack.pop()
        if len(ops) > 1:
            s.stack.append(("ops", -1, ops[1:]))
        first = ops[0]
        OPS[first[0]](s, *first[1:])
        return True


def advance(s: AnkhMorporkState) -> None:
    """Run automatic steps until a seat must choose between two or more actions."""
    while s.result is None:
        if not s.draw_pile:
            end_by_deck(s)
            break
        if not s.stack:
            FRAME_HOOKS.begin_turn(s)
            continue
        f = s.stack[-1]
        h = HANDLERS[f[0]]
        if h.prepare(s, f):
            continue
        actions = h.legal(s, f)
        if not actions:
            s.stack.pop()
            continue
        if len(actions) == 1:
            h.apply(s, f, actions[0])
            continue
        s._legal = actions
        return
    s.stack.clear()
    s._legal = []


def legal_actions(s: AnkhMorporkState) -> list[Action]:
    """The legal actions of the seat to move (empty when the game is over)."""
    if s.result is not None or not s.stack:
        return []
    f = s.stack[-1]
    return HANDLERS[f[0]].legal(s, f)


def apply_action(s: AnkhMorporkState, action: Any) -> None:
    """Apply a legal action, or raise ``IllegalAction`` and change nothing."""
    if s.result is not None:
        raise IllegalAction("the game is over")
    legal = s.legal_actions()
    if not isinstance(action, Action) or action not in legal:
        f = s.stack[-1]
        what = HANDLERS[f[0]].describe(s, f)
        try:
            shown = str(action) if isinstance(action, Action) else repr(action)
        except (IndexError, KeyError):
            shown = repr(tuple(action))
        raise IllegalAction(
            f"{shown!s} is not legal now: {s.colour(f[1])} must {what} "
            f"({len(legal)} legal actions)"
        )
    f = s.stack[-1]
    s._legal = None
    quiet = QUIET_VERBS.get(action.verb)
    if quiet is not None:
        s.say(quiet.format(who=s.colour(f[1]), action=str(action)))
    HANDLERS[f[0]].apply(s, f, action)
    advance(s)


# Actions whose handlers write nothing to the log: every applied action is logged.
QUIET_VERBS = {
    "skip": "{who} chose: {action}.",
    "stop": "{who} played no more cards.",
    "end_turn": "{who} ended their turn.",
    "allow": "{who} played no interrupt.",
    "done": "{who} is done.",
}

STATE_HOOKS.legal_actions = legal_actions
STATE_HOOKS.apply_action = apply_action
