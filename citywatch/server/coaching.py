"""The coach at a table (issue 30): what the server's worker processes run for a hint and for
a finished table's analysis, the generator a hint uses, and the table option "hints".

A hint is judged from the asking seat's own information only (``citywatch.coach.hint``); its
generator is derived from the table's secret seed, for a purpose no bot uses, and the step, so
it tells nothing of the game's or the bots' numbers and the same question gets the same answer
after a restart. Both functions take and return JSON-ready values: they run in the bot pool.
"""

from __future__ import annotations

from typing import Any

from citywatch.coach import allowed_by_default, analyse, hint, hint_rng
from citywatch.core.record import Record
from citywatch.core.registry import load
from citywatch.core.rng import Seed

HINT_LEVEL = "normal"
"""The strength of a hint asked at a table."""
ANALYSIS_LEVEL = "normal"
"""The strength of a finished table's analysis."""
ANALYSIS_TIME_LIMIT = 120.0
"""Seconds a finished table's analysis may take in a worker."""


def hint_json(game_name: str, position: dict[str, Any], seat: int, seed: Seed,
              step: int) -> dict[str, Any]:
    """The hint for ``seat``'s decision in ``position`` (``Hint.to_json``), at ``HINT_LEVEL``;
    ``ValueError`` if the decision is not ``seat``'s."""
    state = load(game_name).from_position(position)
    return hint(state, seat, hint_rng(seed, step), HINT_LEVEL).to_json()


def analysis_json(record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a finished game's record (``Analysis.to_json``) at ``ANALYSIS_LEVEL``,
    with its turning points in words (``"lines"``); ``InvalidRecord`` if it is not over."""
    analysis = analyse(Record.from_json(record), ANALYSIS_LEVEL)
    return {**analysis.to_json(), "lines": analysis.lines()}


def hints_by_default(seats: list[str], human: str) -> bool:
    """Whether a table of ``seats`` allows hints unless its creator says: yes with exactly
    one person (the others bots), no with two or more people."""
    return seats.count(human) >= 1 and allowed_by_default(seats.count(human))
