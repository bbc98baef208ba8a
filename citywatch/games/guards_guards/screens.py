"""The terminal screens of Guards! Guards! put together: the hex map, the players and the hand
(``terminal.py``), with the map excerpt around the seat's piece as the compact screen's summary
(``excerpt.py``, issue 27)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType

from citywatch.core.presentation import ScreenFunctions, View
from citywatch.games.guards_guards.excerpt import excerpt, excerpt_least
from citywatch.games.guards_guards.terminal import (
    board,
    colour,
    describe,
    hand,
    label,
    notes_lines,
    outcome,
    players,
    table,
    whereabouts,
)


def summary(view: View) -> RenderableType:
    """The compact screen's board summary, after what the decision's notes explain: the map
    around the seat's piece and the places nearest it (``excerpt``, issue 27); off the map
    (set-up, a spectator), where each player is and their state (the players' table is
    ``table``)."""
    notes = notes_lines(view)
    around = excerpt(view)
    if around is not None:
        return Group(*notes, around)
    where = whereabouts(view)
    return Group(*notes, *(where[:-1] if notes else where))  # notes before the legend


class GuardsGuardsScreens(ScreenFunctions):
    """The terminal screens of Guards! Guards!, with the game's reference at hand."""

    def __init__(self, reference: dict[str, Any]) -> None:
        super().__init__(colour, board, players, hand, label, outcome, describe, summary)
        self.reference = reference

    def table(self, view: View) -> RenderableType:
        """The players' table, a line each (every decision screen, issue 26)."""
        return table(view)

    def summary_least(self, view: View) -> int:
        """The lines the summary keeps on the compact screen: the map excerpt's least at the
        seat's own move (issue 27), else no claim (0)."""
        return excerpt_least(view)
