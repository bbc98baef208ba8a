"""What happened since a seat's last decision (issue 26): the moves of the other seats, each
with the log lines it wrote and the board's places it touched.

A ``MoveHistory`` follows one game decision by decision and keeps its newest ``KEEP``
decisions: for each, the seat that took it, every reader's log length after it and the
places it touched (``Game.move_spaces``, read from the spectator's views and the public log
lines, so public facts only). ``since`` groups the decisions after a seat's last one into
moves, one per run of decisions of the same seat, and gives each that seat's own log lines
(which it reads anyway), never another seat's.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from citywatch.core.api import State
from citywatch.core.errors import IllegalAction, InvalidRecord
from citywatch.core.record import Record, replay

KEEP = 256
"""The decisions a history keeps: a seat whose last decision is older is told the moves of
these only (a seat out of the game, say)."""

SPECTATOR = -1
"""The log reader that is no seat (``State.log(-1)``: public lines only)."""


@dataclass(frozen=True)
class Decision:
    """One decision as a history keeps it."""

    seat: int
    """The seat that took it."""
    ends: tuple[int, ...]
    """The length of each seat's log after it, then the spectator's (``log_lengths``)."""
    spaces: tuple[str, ...]
    """The places it touched (``Game.move_spaces``)."""


def log_lengths(state: State) -> tuple[int, ...]:
    """How many log lines each seat reads in ``state``, then how many the spectator reads."""
    return (*(len(state.log(seat)) for seat in range(state.players)),
            len(state.log(SPECTATOR)))


def touched(before: dict[str, Any], after: State,
            public_before: int) -> tuple[list[str], dict[str, Any]]:
    """The places one decision touched (``Game.move_spaces`` of the spectator's view
    ``before`` it and of ``after``, and the public lines after the first ``public_before``),
    and the spectator's view of ``after``."""
    view = after.view(None)
    lines = after.log(SPECTATOR)[public_before:]
    return list(after.game.move_spaces(before, view, lines)), view


def merged(lists: Sequence[Sequence[str]]) -> list[str]:
    """The names of ``lists`` once each, in the order first named."""
    seen: dict[str, None] = {}
    for names in lists:
        seen.update(dict.fromkeys(names))
    return list(seen)


def naming(name: str) -> re.Pattern[str]:
    """A pattern finding ``name`` as a whole word ("Seat 1", not "Seat 10")."""
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


class MoveHistory:
    """The newest decisions of one game (see the module's docstring)."""

    def __init__(self, state: State, keep: int = KEEP, dropped: int = 0) -> None:
        """A history starting at ``state``, after ``dropped`` decisions it does not keep."""
        if keep < 1:
            raise ValueError("a history keeps 1 decision or more")
        self.keep = keep
        self.dropped = dropped
        """Decisions taken before the oldest one kept."""
        self._start = log_lengths(state)
        self._view = state.view(None)
        self._decisions: deque[Decision] = deque()

    def __len__(self) -> int:
        """The decisions kept."""
        return len(self._decisions)

    @property
    def last_seat(self) -> int | None:
        """The seat that took the newest decision (None: none is known)."""
        return self._decisions[-1].seat if self._decisions else None

    def add(self, seat: int, after: State) -> None:
        """Note that ``seat`` took a decision, which led to ``after``."""
        spaces, self._view = touched(self._view, after, self._ends(len(self._decisions))[-1])
        self._decisions.append(Decision(seat, log_lengths(after), tuple(spaces)))
        if len(self._decisions) > self.keep:
            self._start = self._decisions.popleft().ends
            self.dropped += 1

    def _ends(self, count: int) -> tuple[int, ...]:
        """The log lengths after the first ``count`` decisions kept."""
        return self._decisions[count - 1].ends if count else self._start

    def since(self, seat: int | None, log: Sequence[str], to_move: int | None,
              names: Sequence[str]) -> list[dict[str, Any]]:
        """The moves since ``seat``'s last decision (all those kept if it took none), oldest
        first: ``{"by": the mover's name in names, "spaces": [places], "lines": [its log
        lines as log, seat's own log, reads them], "mentions": [indices of the lines naming
        seat]}``; one move per run of decisions of one seat. For the spectator (``seat`` None)
        the moves since the last decision of the seat ``to_move`` (the game over: of the seat
        that decided last, its final move included), with no mentions."""
        decisions = self._decisions
        last = len(decisions)
        reference = seat if seat is not None else to_move
        if seat is None and to_move is None and decisions:
            reference = decisions[-1].seat
            while last and decisions[last - 1].seat == reference:
                last -= 1
        first = 0
        for index in range(last - 1, -1, -1):
            if decisions[index].seat == reference:
                first = index + 1
                break
        column = SPECTATOR if seat is None else seat
        named = None if seat is None else naming(names[seat])
        moves: list[dict[str, Any]] = []
        index = first
        while index < len(decisions):
            mover = decisions[index].seat
            end = index
            while end + 1 < len(decisions) and decisions[end + 1].seat == mover:
                end += 1
            lines = list(log[self._ends(index)[column]:decisions[end].ends[column]])
            move: dict[str, Any] = {
                "by": names[mover],
                "spaces": merged([d.spaces for d in islice(decisions, index, end + 1)]),
                "lines": lines,
            }
            if named is not None:
                move["mentions"] = [i for i, line in enumerate(lines) if named.search(line)]
            moves.append(move)
            index = end + 1
        return moves


def one_move(seat_name: str, before: State, after: State) -> dict[str, Any]:
    """One decision as a move (``MoveHistory.since``'s form, for the spectator): from
    ``before`` to ``after``, taken by the seat named ``seat_name``."""
    public = before.log(SPECTATOR)
    spaces, _view = touched(before.view(None), after, len(public))
    return {"by": seat_name, "spaces": spaces,
            "lines": after.log(SPECTATOR)[len(public):]}


def replay_with_history(record: Record, keep: int = KEEP) -> tuple[State, MoveHistory]:
    """``record`` replayed (``core.record.replay``), with the history of its newest ``keep``
    decisions; ``InvalidRecord`` naming the action where it fails."""
    head = max(len(record.actions) - keep, 0)
    state = replay(replace(record, actions=record.actions[:head], digests=None))
    history = MoveHistory(state, keep, dropped=head)
    game = state.game
    for number, raw in enumerate(record.actions[head:], start=head + 1):
        seat = state.to_move
        try:
            state.apply(game.action_from_json(raw))
        except IllegalAction as exc:
            raise InvalidRecord(f"action {number} ({raw!r}) is not legal: {exc}") from None
        except ValueError as exc:
            raise InvalidRecord(f"action {number} ({raw!r}) is malformed: {exc}") from None
        if seat is not None:
            history.add(seat, state)
    return state, history
