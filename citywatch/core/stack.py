"""A decision stack for games whose turns are sequences of pending decisions.

A frame is a tuple ``(kind, seat, ...)`` on a state's ``stack``; the top frame says who decides
now. Each kind has a ``Handler``: ``legal`` lists the seat's actions, ``apply`` carries one out,
``prepare`` lets a frame move on by itself when nothing needs deciding. A frame with one legal
action is applied at once, so a seat is only asked when it has a choice; a frame with none is
popped. When the stack is empty the game's ``begin_turn`` pushes the next turn.

``Decisions`` holds one game's handlers and runs the loop; the game's state keeps ``stack``,
``result`` (an ``Outcome`` or None) and ``_legal`` (the cached legal actions, or None).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from citywatch.core.errors import IllegalAction

Frame = tuple[Any, ...]


class Stacked(Protocol):
    """What ``Decisions`` needs of a state."""

    stack: list[Frame]
    result: Any
    _legal: list[Any] | None


S = TypeVar("S", bound=Stacked)


class Handler(Generic[S]):
    """How one kind of frame is decided."""

    kind = ""

    def prepare(self, s: S, f: Frame) -> bool:
        """Move on without a decision if possible; True if the stack changed."""
        return False

    def legal(self, s: S, f: Frame) -> list[Any]:
        """The actions open to the frame's seat."""
        raise NotImplementedError

    def apply(self, s: S, f: Frame, a: Any) -> None:
        """Carry out ``a``; the frame is still on top of the stack."""
        raise NotImplementedError

    def describe(self, s: S, f: Frame) -> str:
        """What the seat is deciding, in a few words."""
        return "decide"


class Decisions(Generic[S]):
    """One game's frame handlers and the loop that runs them."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler[S]] = {}
        self.begin_turn: Callable[[S], None] | None = None
        self.before_step: Callable[[S], bool] | None = None
        """Called before each step of ``advance``; True ends the game loop (e.g. a game end
        detected outside the frames)."""

    def handler(self, cls: type[Handler[S]]) -> type[Handler[S]]:
        """Register a handler class under its ``kind`` (a class decorator)."""
        if cls.kind in self.handlers:
            raise ValueError(f"two handlers for frame kind {cls.kind!r}")
        self.handlers[cls.kind] = cls()
        return cls

    def advance(self, s: S) -> None:
        """Run automatic steps until a seat must choose between two or more actions."""
        handlers = self.handlers
        while s.result is None:
            if self.before_step is not None and self.before_step(s):
                break
            if not s.stack:
                assert self.begin_turn is not None, "no begin_turn registered"
                self.begin_turn(s)
                continue
            f = s.stack[-1]
            h = handlers[f[0]]
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

    def legal_actions(self, s: S) -> list[Any]:
        """The legal actions of the seat to move (empty when the game is over)."""
        if s.result is not None or not s.stack:
            return []
        f = s.stack[-1]
        return self.handlers[f[0]].legal(s, f)

    def describe(self, s: S) -> str:
        """What the seat to move is deciding ("" when nobody is)."""
        if s.result is not None or not s.stack:
            return ""
        f = s.stack[-1]
        return self.handlers[f[0]].describe(s, f)

    def apply(self, s: S, action: Any, action_type: type, who: Callable[[int], str]) -> None:
        """Apply a legal ``action`` and advance; ``IllegalAction`` and no change otherwise.
        ``who`` names a seat for the error message."""
        if s.result is not None:
            raise IllegalAction("the game is over")
        legal = s._legal if s._legal is not None else self.legal_actions(s)
        if not isinstance(action, action_type) or action not in legal:
            f = s.stack[-1]
            what = self.handlers[f[0]].describe(s, f)
            try:
                shown = str(action)
            except (IndexError, KeyError, TypeError, ValueError):
                shown = repr(action)
            raise IllegalAction(
                f"{shown} is not legal now: {who(f[1])} must {what} "
                f"({len(legal)} legal actions)"
            )
        f = s.stack[-1]
        s._legal = None
        self.handlers[f[0]].apply(s, f, action)
        self.advance(s)
