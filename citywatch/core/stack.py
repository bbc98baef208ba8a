"""A decision stack for games whose turns are sequences of pending decisions.

A frame is a tuple ``(kind, seat, ...)`` on a state's ``stack``; the top frame says who decides
now. Each kind has a ``Handler``: ``legal`` lists the seat's actions, ``apply`` carries one out,
``prepare`` lets a frame move on by itself when nothing needs deciding. A frame with one legal
action is applied at once, so a seat is only asked when it has a choice; a frame with none is
popped. When the stack is empty the game's ``begin_turn`` pushes the next turn.

``Decisions`` holds one game's handlers and runs the loop; the game's state keeps ``stack``,
``result`` (an ``Outcome`` or None) and ``_legal`` (the cached legal actions, or None).
``StackedState`` is a ``State`` base class for such games: its API methods call the game's
``StateHooks``, filled by the game's upper modules at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from mypy_extensions import mypyc_attr

from citywatch.core.api import Outcome, State
from citywatch.core.errors import IllegalAction
from citywatch.core.log import LogNode, log_entry, log_lines
from citywatch.core.rng import Rng

if TYPE_CHECKING:
    from citywatch.core.api import Game

Frame = tuple[Any, ...]


class Stacked(Protocol):
    """What ``Decisions`` needs of a state."""

    stack: list[Frame]
    result: Any
    _legal: list[Any] | None


S = TypeVar("S", bound="StackedState")
"""A game's state: a ``StackedState`` (compiled code then reads its fields directly)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Handler(Generic[S]):
    """How one kind of frame is decided."""

    kind: ClassVar[str] = ""

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


class _OpsHandler(Handler[Any]):
    """Runs queued automatic steps one at a time: frame ``("ops", -1, steps)``."""

    kind = "ops"

    def __init__(self, ops: dict[str, Callable[..., None]]) -> None:
        self.ops = ops

    def prepare(self, s: Any, f: Frame) -> bool:
        steps: tuple[tuple[Any, ...], ...] = f[2]
        s.stack.pop()
        if len(steps) > 1:
            s.stack.append(("ops", -1, steps[1:]))
        first = steps[0]
        self.ops[first[0]](s, *first[1:])
        return True


class Decisions(Generic[S]):
    """One game's frame handlers and the loop that runs them."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler[S]] = {}
        self.ops: dict[str, Callable[..., None]] = {}
        """Automatic steps by name, queued with ``then`` and run by the ``ops`` frame."""
        self.begin_turn: Callable[[S], None] | None = None
        self.before_step: Callable[[S], bool] | None = None
        """Called before each step of ``advance``; True ends the game loop (e.g. a game end
        detected outside the frames)."""
        self.on_apply: Callable[[S, Frame, Any], None] | None = None
        """Called with each legal action just before its handler applies it (e.g. to log)."""
        self.handlers["ops"] = _OpsHandler(self.ops)

    def op(self, name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Register an automatic step ``fn(s, *args)`` that ``then`` can queue (a decorator)."""

        def register(fn: Callable[..., None]) -> Callable[..., None]:
            if name in self.ops:
                raise ValueError(f"op {name!r} registered twice")
            self.ops[name] = fn
            return fn

        return register

    @staticmethod
    def push(s: S, *frame: Any) -> None:
        """Push a decision frame ``(kind, seat, ...)``."""
        s.stack.append(frame)

    @staticmethod
    def then(s: S, *ops: tuple[Any, ...]) -> None:
        """Queue automatic steps ``(name, *args)`` to run, in order, once everything pushed
        above them is decided."""
        if ops:
            s.stack.append(("ops", -1, ops))

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

    def serve(self, hooks: StateHooks, action_type: type,
              who: Callable[[int], str]) -> None:
        """Make this stack answer the state API of ``hooks``: its ``legal_actions``, and its
        ``apply_action`` taking ``action_type`` values and naming seats with ``who``."""
        hooks.legal_actions = self.legal_actions
        hooks.apply_action = lambda s, action: self.apply(s, action, action_type, who)

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
        if self.on_apply is not None:
            self.on_apply(s, f, action)
        self.handlers[f[0]].apply(s, f, action)
        self.advance(s)


class StateHooks:
    """The State API's functions that live above a game's state module, registered at import
    time by the modules that define them (the decision stack's ``legal_actions`` and
    ``apply_action``, the view's ``view`` and ``determinize``, the position's
    ``write_position``, and the ``game`` object)."""

    __slots__ = ("apply_action", "determinize", "game", "legal_actions", "view",
                 "write_position")

    game: Any
    legal_actions: Callable[[Any], list[Any]]
    apply_action: Callable[[Any, Any], None]
    view: Callable[[Any, int | None], dict[str, Any]]
    determinize: Callable[[Any, int, Any], Any]
    write_position: Callable[[Any], dict[str, Any]]


@mypyc_attr(allow_interpreted_subclasses=True)
class StackedState(State):
    """A ``State`` whose pending decisions are frames on ``stack`` and whose API methods call
    the game's ``HOOKS``. A subclass keeps ``n`` (seats), ``turn``, ``stack``, ``rng``,
    ``result``, ``log_tail`` and ``_legal`` (cached legal actions), and implements ``copy``
    with ``copy_stacked_parts``."""

    __slots__ = ("n", "turn", "stack", "rng", "result", "log_tail", "_legal")

    HOOKS: ClassVar[StateHooks]
    n: int
    turn: int
    stack: list[Frame]
    rng: Rng
    result: Outcome | None
    log_tail: LogNode | None
    _legal: list[Any] | None

    def init_stacked_parts(self) -> None:
        """Give this new state an empty stack, a generator seeded 0, no result, an empty log
        and no cached legal actions."""
        self.stack = []
        self.rng = Rng(0)
        self.result = None
        self.log_tail = None
        self._legal = None

    def copy_stacked_parts(self, twin: Self) -> Self:
        """Give ``twin``, a copy of this state's own parts, this state's seats, turn, stack and
        generator (copied) and result, log and cached legal actions (shared: never changed in
        place); return it."""
        twin.n = self.n
        twin.turn = self.turn
        twin.stack = self.stack[:]
        twin.rng = self.rng.copy()
        twin.result = self.result
        twin.log_tail = self.log_tail
        twin._legal = self._legal
        return twin

    def say(self, text: str, seats: Iterable[int] | None = None,
            others: str | None = None) -> None:
        """Add a sentence to the log: public, or read by ``seats`` only (others read
        ``others``, or nothing)."""
        self.log_tail = (log_entry(text, seats, others), self.log_tail)

    def check_seat(self, seat: int | None) -> None:
        """``ValueError`` unless ``seat`` is None (a spectator) or one of this game's seats."""
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0 to {self.n - 1}, not {seat}")

    def decision_view(self, seat: int | None, seat_names: Sequence[str],
                      describe: Callable[[Any], str]) -> dict[str, Any] | None:
        """The view's pending decision: the seat to move by name and its task (``describe`` of
        this state), and only for that seat itself its legal actions as text and JSON; None
        when nobody is to move."""
        to_move = self.to_move
        if to_move is None:
            return None
        decision: dict[str, Any] = {"seat": seat_names[to_move], "task": describe(self)}
        if to_move == seat:
            actions = self.legal_actions()
            decision["actions"] = [str(a) for a in actions]
            decision["actions_json"] = [a.to_json() for a in actions]
        return decision

    def sampling_copy(self, seat: int, rng: Rng) -> Self:
        """The start of a world sampled for ``seat``: a copy whose generator is spawned from
        ``rng``, with an empty log and no cached legal actions; ``ValueError`` for a bad seat."""
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0 to {self.n - 1}, not {seat}")
        world = self.copy()
        assert isinstance(world, type(self))
        world.rng = rng.spawn()
        world._legal = None
        world.log_tail = None
        return world

    @property
    def game(self) -> Game:
        game: Game = self.HOOKS.game
        return game

    @property
    def players(self) -> int:
        return self.n

    @property
    def to_move(self) -> int | None:
        if self.result is not None or not self.stack:
            return None
        seat: int = self.stack[-1][1]
        return seat

    def legal_actions(self) -> list[Any]:
        if self._legal is None:
            self._legal = self.HOOKS.legal_actions(self)
        return list(self._legal)

    def apply(self, action: Any) -> None:
        self.HOOKS.apply_action(self, action)

    def outcome(self) -> Outcome | None:
        return self.result

    def turn_count(self) -> int:
        return self.turn

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.HOOKS.view(self, seat)

    def determinize(self, seat: int, rng: Rng) -> State:
        world: State = self.HOOKS.determinize(self, seat, rng)
        return world

    def log(self, seat: int | None = None) -> list[str]:
        return log_lines(self.log_tail, seat)

    def position(self) -> dict[str, Any]:
        return self.HOOKS.write_position(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, StackedState)
        return self.position() == other.position() and self.log() == other.log()

    __hash__ = None  # type: ignore[assignment]


def frame_to_json(value: Any) -> Any:
    """A frame (nested tuples of ints and strings) as JSON lists."""
    if isinstance(value, tuple):
        return [frame_to_json(v) for v in value]
    return value


def frame_from_json(value: Any) -> Any:
    """A frame read back from JSON lists as nested tuples."""
    if isinstance(value, list):
        return tuple(frame_from_json(v) for v in value)
    return value
