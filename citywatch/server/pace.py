"""The bots' pace at a table (issue 26; docs/server.md, "The bots' pace").

A bot pauses before its decision only when the seat to decide changed: another seat decided
last, or nothing is known of the last decision (a table just made or loaded). The decisions
that follow of the same bot come without a pause, so a bot's turn of many short decisions
costs one pause, not one per decision. The pause is ``turn`` seconds, but the pauses of one
round add up to at most ``round`` seconds (the first pause of a round is always paid whole,
so a ``turn`` longer than ``round`` still holds the bots back that long). A round begins at
a person's decision, and again once the game has begun as many turns as the table has seats
since the round began (a table of bots only, or one whose people no longer decide).
"""

from __future__ import annotations

from dataclasses import dataclass

TURN = 1.0
"""Seconds a bot waits before its turn (``--bot-delay``)."""
ROUND = 3.0
"""The most seconds of pause in one round (``--round-pause``)."""


@dataclass
class BotPace:
    """When one table's bots pause (see the module's docstring)."""

    turn: float = TURN
    round: float = ROUND
    seats: int = 1
    """The table's seats: a round also ends after as many turns."""
    paid: float = 0.0
    """Seconds of pause paid in the current round."""
    began: int | None = None
    """The game's turn count when the current round began (None: no round yet)."""

    def __post_init__(self) -> None:
        if self.turn < 0 or self.round < 0:
            raise ValueError("the bots' pauses must be 0 or more seconds")

    def person_decided(self, turn: int) -> None:
        """A person decided at the game's turn ``turn`` (``State.turn_count``): a new round."""
        self.paid, self.began = 0.0, turn

    def pause(self, seat: int, last: int | None, turn: int) -> float:
        """The seconds to wait before the decision of the bot at ``seat``, the game at turn
        ``turn``, after a decision of ``last`` (None: not known); counted as paid."""
        if last == seat:
            return 0.0
        if self.began is None or turn - self.began >= max(self.seats, 1):
            self.paid, self.began = 0.0, turn
        wait = self.turn if self.paid == 0 else min(self.turn, max(self.round - self.paid, 0.0))
        self.paid += wait
        return wait
