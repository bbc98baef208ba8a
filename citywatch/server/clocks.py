"""Table clocks (issue 31): a table is untimed, live or turn-based, chosen when it is made.

A clock is its rule (``ClockRule``): a live table gives each decision ``move`` seconds plus a
``reserve`` per seat that pays for the decisions that take longer; a turn-based table gives
each decision ``move`` seconds (hours or days) and has no reserve. When a person's time runs
out, the rule's stand-in bot plays that seat (``Clock.away``) until the person takes the seat
back; a taken-back seat's reserve is what it had left, none after a timeout.

Its reading (``Clock``) is each seat's reserve, the seats a stand-in plays, whose decision's
time runs (``running``) and until when (``deadline``), and ``marks``: how long each person's
decision took and which decisions a stand-in took, for the record and the replay. Nothing
runs while a public table still has a free seat, nor for a bot's seat. The functions here are
pure: the server computes a change at the moment it stores it (UTC wall-clock time of the
storing process; the processes of one server keep their clocks in step, e.g. with NTP).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

KINDS = ("live", "turn-based")
"""The kinds of clock a table may have."""
LIVE_MOVE = (5, 3600)
"""The least and most seconds per decision of a live clock."""
LIVE_RESERVE = (0, 7200)
"""The least and most seconds of a live clock's reserve per seat."""
LIVE_RESERVE_DEFAULT = 300
"""A live clock's reserve per seat when the creator gives none."""
TURN_MOVE = (3600, 14 * 86400)
"""The least and most seconds per decision of a turn-based clock: an hour to two weeks."""
KEYS = {"kind", "move", "reserve", "stand_in"}
"""The keys of a clock asked for at creation."""


class ClockError(ValueError):
    """A clock asked for at creation is not valid; the message says why."""


@dataclass(frozen=True)
class ClockRule:
    """A table's clock as chosen: its kind, seconds per decision, reserve and stand-in level."""

    kind: str
    move: int
    reserve: int
    stand_in: str

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "move", "reserve", "stand_in"}`` (seconds)."""
        return {"kind": self.kind, "move": self.move, "reserve": self.reserve,
                "stand_in": self.stand_in}

    @classmethod
    def from_json(cls, data: Any) -> ClockRule:
        """The rule stored by ``to_json``; ``ClockError`` if it is not one."""
        if not isinstance(data, dict):
            raise ClockError("a stored clock rule is not an object")
        return cls(str(data["kind"]), int(data["move"]), int(data["reserve"]),
                   str(data["stand_in"]))


def _seconds(raw: Any, what: str, bounds: tuple[int, int]) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ClockError(f"the clock's {what} must be a number of seconds")
    low, high = bounds
    if not low <= raw <= high:
        raise ClockError(f"the clock's {what} must be {low} to {high} seconds, not {raw:g}")
    return int(raw)


def parse_clock(raw: Any, levels: list[str]) -> ClockRule | None:
    """The clock asked for at creation: None (or left out) for none, else ``{"kind":
    "live", "move": s, "reserve": s, "stand_in": level}`` (reserve left out: 300 s) or
    ``{"kind": "turn-based", "move": s, "stand_in": level}``; ``stand_in`` is one of
    ``levels`` (left out: "easy" if offered, else the first). ``ClockError`` if not valid."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= KEYS or "kind" not in raw:
        raise ClockError('clock must be null or an object such as {"kind": "live", "move": 30, '
                         '"reserve": 300} or {"kind": "turn-based", "move": 86400}')
    kind = raw["kind"]
    if kind not in KINDS:
        raise ClockError(f"the clock's kind must be {' or '.join(KINDS)}")
    if "move" not in raw:
        raise ClockError("the clock needs its seconds per decision (\"move\")")
    if kind == "live":
        move = _seconds(raw["move"], "time per decision", LIVE_MOVE)
        reserve = _seconds(raw.get("reserve", LIVE_RESERVE_DEFAULT), "reserve", LIVE_RESERVE)
    else:
        move = _seconds(raw["move"], "time per decision", TURN_MOVE)
        if raw.get("reserve", 0) != 0:
            raise ClockError("a turn-based clock has no reserve: leave \"reserve\" out")
        reserve = 0
    stand_in = raw.get("stand_in", "easy" if "easy" in levels else levels[0])
    if not isinstance(stand_in, str) or stand_in not in levels:
        raise ClockError(f"the clock's stand-in must be one of the bots {', '.join(levels)}")
    return ClockRule(kind, move, reserve, stand_in)


@dataclass(frozen=True)
class Clock:
    """A table's clock now: its rule and reading (see the module's docstring)."""

    rule: ClockRule
    reserves: tuple[float, ...]
    away: tuple[int, ...] = ()
    running: int | None = None
    deadline: datetime | None = None
    step: int = 0
    """The number of actions taken when ``deadline`` was set (a timeout is for that decision)."""
    took: tuple[tuple[int, int, float], ...] = ()
    """(step, seat, seconds) of each person's decision taken while its time ran."""
    stood_in: tuple[tuple[int, int], ...] = ()
    """(step, seat) of each decision a stand-in took."""

    @classmethod
    def new(cls, rule: ClockRule, players: int) -> Clock:
        """A clock not started: every seat's reserve full."""
        return cls(rule, tuple(float(rule.reserve) for _ in range(players)))

    def to_json(self) -> dict[str, Any]:
        """What is stored (the deadline is also its own column, for the sweep)."""
        return {"rule": self.rule.to_json(), "reserves": [round(r, 1) for r in self.reserves],
                "away": list(self.away), "running": self.running,
                "deadline": None if self.deadline is None else self.deadline.isoformat(),
                "step": self.step, "took": [list(t) for t in self.took],
                "stood_in": [list(s) for s in self.stood_in]}

    @classmethod
    def from_json(cls, data: Any) -> Clock:
        """The clock stored by ``to_json``; ``ClockError`` if it is not one."""
        try:
            deadline = data["deadline"]
            return cls(ClockRule.from_json(data["rule"]),
                       tuple(float(r) for r in data["reserves"]),
                       tuple(int(s) for s in data["away"]),
                       None if data["running"] is None else int(data["running"]),
                       None if deadline is None else datetime.fromisoformat(deadline),
                       int(data["step"]),
                       tuple((int(n), int(s), float(t)) for n, s, t in data["took"]),
                       tuple((int(n), int(s)) for n, s in data["stood_in"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ClockError(f"a stored clock is not readable: {exc}") from None

    def reading(self, now: datetime, waiting: bool) -> dict[str, Any]:
        """What every page shows (``about()["clock"]``): the rule, each seat's reserve, the
        seat whose time runs and its deadline (ISO 8601), the seats a stand-in plays, the
        server's time now (so a page can correct its own clock) and whether the clock waits
        for free seats to be taken."""
        return {**self.rule.to_json(), "reserves": [round(r, 1) for r in self.reserves],
                "running": self.running,
                "deadline": None if self.deadline is None else self.deadline.isoformat(),
                "away": list(self.away), "now": now.isoformat(), "waiting": waiting}

    def due(self, now: datetime) -> bool:
        """True if the running decision's time has run out."""
        return self.deadline is not None and now >= self.deadline

    def _begin(self, seat: int | None, clocked: set[int], step: int, now: datetime) -> Clock:
        """The clock with ``seat``'s decision begun at ``now`` after ``step`` actions: its time
        runs if it is a clocked person's seat no stand-in plays."""
        if seat is None or seat not in clocked or seat in self.away:
            return replace(self, running=None, deadline=None, step=step)
        allowed = self.rule.move + self.reserves[seat]
        return replace(self, running=seat, deadline=now + timedelta(seconds=allowed), step=step)

    def decided(self, seat: int, to_move: int | None, clocked: set[int], step: int,
                now: datetime) -> Clock:
        """The clock after ``seat`` took decision ``step`` at ``now`` and ``to_move`` is to
        decide next: the mover's time taken and reserve paid if its time ran, a stand-in's
        decision marked, then the next decision begun (``clocked``: the person seats whose
        time may run; empty while a seat is free)."""
        clock = self
        if seat in self.away:
            clock = replace(clock, stood_in=(*clock.stood_in, (step, seat)))
        elif self.running == seat and self.deadline is not None:
            left = max((self.deadline - now).total_seconds(), 0.0)
            reserves = list(self.reserves)
            reserves[seat] = min(reserves[seat], left)
            took = self.rule.move + self.reserves[seat] - left
            clock = replace(clock, reserves=tuple(reserves),
                            took=(*clock.took, (step, seat, round(took, 1))))
        return clock._begin(to_move, clocked, step, now)

    def timed_out(self) -> Clock:
        """The running seat's time ran out: its reserve is gone and a stand-in plays it."""
        seat = self.running
        if seat is None:
            return self
        reserves = list(self.reserves)
        reserves[seat] = 0.0
        return replace(self, reserves=tuple(reserves), away=tuple(sorted({*self.away, seat})),
                       running=None, deadline=None)

    def taken_back(self, seat: int, to_move: int | None, clocked: set[int], step: int,
                   now: datetime) -> Clock:
        """``seat``'s person took the seat back from the stand-in at ``now``; if the decision
        is theirs, its time runs from now."""
        clock = replace(self, away=tuple(s for s in self.away if s != seat))
        if to_move == seat:
            return clock._begin(to_move, clocked, step, now)
        return clock

    def started(self, to_move: int | None, clocked: set[int], step: int,
                now: datetime) -> Clock:
        """The clock once its table has every seat taken: the decision under way begins now
        (nothing changes if a decision's time already runs)."""
        if self.running is not None:
            return self
        return self._begin(to_move, clocked, step, now)

    def reserves_after(self, step: int) -> list[float]:
        """Each seat's reserve right after action ``step`` (for the replay), worked out from
        the times of the decisions and the stand-in's decisions up to it."""
        reserves = [float(self.rule.reserve)] * len(self.reserves)
        paid = [(n, seat, max(t - self.rule.move, 0.0)) for n, seat, t in self.took]
        gone = [(n, seat, math.inf) for n, seat in self.stood_in]
        for n, seat, cost in sorted(paid + gone):
            if n <= step:
                reserves[seat] = max(reserves[seat] - cost, 0.0)
        return [round(r, 1) for r in reserves]

    def mark(self, step: int) -> dict[str, Any] | None:
        """How action ``step`` was decided, for the replay: ``{"took": seconds}`` for a
        person's timed decision, ``{"stood_in": level}`` for a stand-in's; else None."""
        for n, _seat, took in self.took:
            if n == step:
                return {"took": took}
        if any(n == step for n, _seat in self.stood_in):
            return {"stood_in": self.rule.stand_in}
        return None
