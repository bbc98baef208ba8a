"""The analysis of a finished game (issue 30): every seat's chance of winning after every
decision, and the turning points with what the hard level would have done instead.

The game is over, so the analysis may read the whole record; still, every moment is judged as
the seat to move could judge it then (worlds sampled from its own observation), which is what
its hint would have said and what the calibration measured (README, "The coach"). In a
co-operative game there is one chance, the crew's.

A decision's swing is the mover's chance after its action less its chance before it, both
judged in the same worlds. The turning points are the decisions with a choice whose swing is
largest either way; at each the taken action and the hard level's pick are judged again side
by side in the same worlds (``hint``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from citywatch.coach.chances import Strength, strength
from citywatch.coach.hints import hint, judge_for, percent
from citywatch.core.api import State
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record, applied, start
from citywatch.core.rng import Rng

MAX_TURNING_POINTS = 20
"""The most turning points an analysis may be asked for."""


@dataclass(frozen=True)
class Moment:
    """One decision of the game and the mover's chance around it."""

    step: int
    """The decision's number in the record, from 1."""
    seat: int
    text: str
    """The action taken, in words."""
    choices: int
    """How many legal actions the mover had."""
    turn: int
    """The turn it was taken in (``State.turn_count``)."""
    before: float
    after: float

    @property
    def swing(self) -> float:
        """The mover's chance after the decision less before it."""
        return self.after - self.before

    def to_json(self) -> dict[str, Any]:
        """``{"step", "seat", "text", "choices", "turn", "before", "after", "swing"}``."""
        return {"step": self.step, "seat": self.seat, "text": self.text,
                "choices": self.choices, "turn": self.turn, "before": round(self.before, 4),
                "after": round(self.after, 4), "swing": round(self.swing, 4)}


@dataclass(frozen=True)
class TurningPoint:
    """A decision with one of the game's largest swings, judged against the hard level's
    pick."""

    moment: Moment
    taken: float
    """The mover's chance after the action taken, judged beside the hard level's pick."""
    hard_text: str | None
    """The hard level's pick in words; None if it would have done the same."""
    hard: float | None
    """The mover's chance after the hard level's pick (same worlds); None as above."""

    def to_json(self) -> dict[str, Any]:
        """The moment's JSON and ``taken``, ``hard_text``, ``hard``."""
        return {**self.moment.to_json(), "taken": round(self.taken, 4),
                "hard_text": self.hard_text,
                "hard": None if self.hard is None else round(self.hard, 4)}


@dataclass
class Analysis:
    """A finished game analysed."""

    game: str
    players: int
    names: list[str]
    """Each seat's name as its own view gives it (a colour, say)."""
    cooperative: bool
    curve: list[list[float]]
    """Before each decision, as its mover judged it, and at the end (the outcome's rewards):
    each seat's chance (co-operative: the crew's, the same for every seat)."""
    turns: list[int]
    """The turn count after each number of decisions (as ``curve``)."""
    moments: list[Moment]
    turning: list[TurningPoint]
    winners: list[int]
    reason: str
    strength: str
    hints: list[dict[str, Any]] = field(default_factory=list)
    """The hints the players asked for, from the record (``{"step", "seat"}``)."""

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON (chances rounded to 4 places)."""
        return {"game": self.game, "players": self.players, "names": self.names,
                "cooperative": self.cooperative,
                "curve": [[round(c, 4) for c in row] for row in self.curve],
                "turns": self.turns, "moments": [m.to_json() for m in self.moments],
                "turning": [t.to_json() for t in self.turning], "winners": self.winners,
                "reason": self.reason, "strength": self.strength, "hints": self.hints}

    def seat_name(self, seat: int) -> str:
        """The seat's name, or "the crew" in a co-operative game."""
        return "the crew" if self.cooperative else self.names[seat]

    def lines(self) -> list[str]:
        """The turning points in words, one or two lines each."""
        if not self.turning:
            return ["No decision with a choice changed anybody's chances."]
        lines = []
        for number, point in enumerate(self.turning, start=1):
            m = point.moment
            who = self.names[m.seat]
            lines.append(f"{number}. Decision {m.step} (turn {m.turn}), {who}: {m.text}: "
                         f"{self.seat_name(m.seat)} {percent(m.before)} -> {percent(m.after)} "
                         f"({signed_points(m.swing)})")
            if point.hard_text is None:
                lines.append("   The hard level would have done the same.")
            else:
                assert point.hard is not None
                lines.append(f"   The hard level would have chosen {point.hard_text}: "
                             f"{percent(point.hard)} against {percent(point.taken)}.")
        return lines


def signed_points(swing: float) -> str:
    """A swing in percentage points with its sign: ``'+12 points'``, ``'-1 point'``."""
    points = round(100 * abs(swing))
    return f"{'-' if swing < 0 else '+'}{points} point{'' if points == 1 else 's'}"


def replayed_states(record: Record) -> tuple[list[State], list[Any]]:
    """Every state of a record's game, from the start to the end, and the actions between
    them; ``InvalidRecord`` naming the first action that is not legal."""
    state = start(record)
    states = [state.copy()]
    actions = []
    for _number, action in applied(record, state):
        actions.append(action)
        states.append(state.copy())
    return states, actions


def analyse(record: Record, level: str | Strength = "quick", turning: int = 5,
            seat: int | None = None, seed: int = 0) -> Analysis:
    """Analyse a finished game: ``turning`` turning points (the decisions of ``seat`` only if
    given). Deterministic for the same record, strength and ``seed``. ``InvalidRecord`` if the
    record does not replay or its game is not over; ``ValueError`` for a bad seat or count."""
    chosen = level if isinstance(level, Strength) else strength(level)
    if not 0 <= turning <= MAX_TURNING_POINTS:
        raise ValueError(f"turning points must be 0 to {MAX_TURNING_POINTS}, not {turning}")
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"seat must be 0 to {record.players - 1}, not {seat}")
    states, actions = replayed_states(record)
    last = states[-1]
    outcome = last.outcome()
    if outcome is None:
        raise InvalidRecord("the game is not over: only a finished game is analysed")
    game = last.game
    judge = judge_for(game.name)
    cooperative = judge.kind(states[0]) == "cooperative"
    n = record.players
    names = [game.type.seat_name(states[0].view(p)) or f"Seat {p + 1}" for p in range(n)]
    curve: list[list[float]] = []
    taken: list[float] = []
    for k, state in enumerate(states[:-1]):
        mover = state.to_move
        assert mover is not None
        before, after = judge.around(state, mover, actions[k], Rng(seed).derive(k),
                                     chosen.worlds)
        curve.append(before)
        taken.append(after[mover])
    curve.append(outcome.rewards(n))
    moments = []
    for k, action in enumerate(actions):
        mover = states[k].to_move
        assert mover is not None
        moments.append(Moment(k + 1, mover, str(action), len(states[k].legal_actions()),
                              states[k + 1].turn_count(), curve[k][mover], taken[k]))
    candidates = [m for m in moments if m.choices > 1 and (seat is None or m.seat == seat)]
    candidates.sort(key=lambda m: (-abs(m.swing), m.step))
    points = []
    for m in sorted(candidates[:turning], key=lambda m: m.step):
        judged = hint(states[m.step - 1], m.seat, Rng(seed).derive(10 ** 6 + m.step), chosen,
                      seconds=math.inf, actions=[actions[m.step - 1]])
        done = judged.options[0]
        extra = judged.options[judged.hard] if judged.hard not in (None, 0) else None
        points.append(TurningPoint(m, done.chance, None if extra is None else extra.text,
                                   None if extra is None else extra.chance))
    hints = [h for h in record.meta.get("hints", []) if isinstance(h, dict)]
    return Analysis(game.name, n, names, cooperative, curve,
                    [s.turn_count() for s in states], moments, points, list(outcome.winners),
                    outcome.reason, chosen.name, hints)
