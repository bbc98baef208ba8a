"""The end screen's breakdown in the terminal (issue 26), for any game: each seat's points
part by part, its result in words and what the end reveals, from ``Game.score_breakdown``
(the same as the browser's end screen). Fits 80 columns: one block per seat."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citywatch.core.api import State


def end_scores(state: State, names: list[str],
               colour: Callable[[str], Text] | None = None) -> RenderableType:
    """The breakdown of the finished ``state``, each seat headed by its name in ``names``
    (drawn by ``colour(name)``, a ``TerminalScreens.colour``, if given); nothing while the
    game runs."""
    scores = state.game.score_breakdown(state)
    if scores is None:
        return Text("")
    word = state.game.type.points
    blocks: list[RenderableType] = [Text("Points part by part:", style="bold")]
    for seat, score in enumerate(scores):
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        head = Text.assemble(colour(name) if colour else Text(name, style="bold"),
                             f" · {word}: {score.points}")
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
        table.add_column("part", max_width=30)
        table.add_column("how", style="dim", max_width=34)
        table.add_column("points", justify="right")
        for part in score.parts:
            table.add_row(part.label, part.detail, str(part.points))
        table.add_row(Text("Total", style="bold"), "", Text(str(score.points), style="bold"))
        lines: list[RenderableType] = [head, _indented(Text(score.result)), _indented(table)]
        lines += [_indented(Text(f"{what}: {value}")) for what, value in score.revealed]
        lines += [_indented(Text(note, style="dim")) for note in score.notes]
        blocks.append(Group(*lines))
    return Group(*blocks)


def _indented(thing: RenderableType) -> RenderableType:
    """``thing`` two columns in, its wrapped lines too."""
    return Padding(thing, (0, 0, 0, 2))
