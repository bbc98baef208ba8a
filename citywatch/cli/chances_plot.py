"""The graph of a finished game's winning chances (issue 30, ``citywatch analyse --plot``): one
line per seat (co-operative games: the crew's), decisions along the bottom and the turns they
fell in along the top, the turning points numbered as the printed list numbers them, and the
hints the players asked for. Drawn with matplotlib's Agg backend (no display needed)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING

from citywatch.coach import Analysis

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf")
"""Line colours by seat, when a seat's name is no colour."""
NAMED = {"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#c9a000",
         "purple": "#9467bd", "orange": "#ff7f0e", "black": "#333333", "white": "#999999",
         "brown": "#8c564b", "pink": "#e377c2", "grey": "#7f7f7f", "gray": "#7f7f7f"}
"""A seat named by a colour gets a readable shade of it (yellow and white on white are not)."""
HINT_ABOVE = 6
"""How far above its seat's line a hint's triangle is drawn, in percentage points."""
MOST_TURN_LABELS = 24
"""The most turn numbers along the top; a long game labels every few turns."""


def seat_colour(name: str, seat: int) -> str:
    """A line's colour: the seat's own colour when its name is one, else the palette's."""
    return NAMED.get(name.strip().lower(), PALETTE[seat % len(PALETTE)])


def write_plot(analysis: Analysis, path: Path, title: str) -> None:
    """Draw ``analysis`` and write it to ``path`` as a PNG, atomically."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    decisions = len(analysis.curve) - 1
    figure = Figure(figsize=(min(16.0, 9.0 + decisions / 150), 5.2), dpi=110)
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    steps = list(range(decisions + 1))
    lines = [0] if analysis.cooperative else list(range(analysis.players))
    for seat in lines:
        label = "the crew" if analysis.cooperative else analysis.names[seat]
        ax.plot(steps, [100 * row[seat] for row in analysis.curve], drawstyle="steps-post",
                linewidth=1.8, color=seat_colour(label, seat), label=label)
    mark_turns(ax, analysis)
    mark_turning_points(ax, analysis)
    mark_hints(ax, analysis)
    pad = max(0.3, decisions / 100)
    ax.set_xlim(-pad, max(1, decisions) + pad)
    ax.set_ylim(-3, 108)
    ax.set_yticks(range(0, 101, 20), [f"{p}%" for p in range(0, 101, 20)])
    ax.set_xlabel("decisions")
    ax.set_ylabel("chance of winning" + (" (the crew's)" if analysis.cooperative else ""))
    ax.grid(axis="y", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if analysis.turning:
        handles.append(Line2D([], [], marker="o", markersize=11, color="white",
                              markeredgecolor="#555555", markeredgewidth=1.5, linestyle="none"))
        labels.append("turning point:\nchance before → after\n(numbered as listed)")
    if analysis.hints:
        handles.append(Line2D([], [], marker="v", markersize=7, color="#bbbbbb",
                              markeredgecolor="black", linestyle="none"))
        labels.append("hint asked for\n(above the asker's line)")
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
              frameon=False, labelspacing=1.0)
    result = ("the crew won" if analysis.winners else "the crew lost") if analysis.cooperative \
        else ("won by " + ", ".join(analysis.names[w] for w in analysis.winners)
              if analysis.winners else "nobody won")
    ax.set_title(f"{analysis.game}: winning chances, {analysis.strength} strength "
                 f"({title}; {result})", fontsize=10)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    write_atomically(path, buffer.getvalue())


def mark_turns(ax: Axes, analysis: Analysis) -> None:
    """A faint line where each turn begins and the turn numbers along the top (every few in a
    long game)."""
    starts = [k for k in range(1, len(analysis.turns))
              if analysis.turns[k] != analysis.turns[k - 1]]
    for k in starts:
        ax.axvline(k, color="#000000", alpha=0.08, linewidth=0.8)
    every = max(1, -(-len(starts) // MOST_TURN_LABELS))
    shown = starts[::every]
    top = ax.secondary_xaxis("top")
    top.set_xticks(shown, [str(analysis.turns[k]) for k in shown], fontsize=7)
    top.set_xlabel("turn", fontsize=8)


def mark_turning_points(ax: Axes, analysis: Analysis) -> None:
    """Each turning point: the mover's chance before and after its decision joined by an arrow,
    numbered as ``Analysis.lines`` numbers it."""
    for number, point in enumerate(analysis.turning, start=1):
        m = point.moment
        x = m.step - 1
        name = "the crew" if analysis.cooperative else analysis.names[m.seat]
        colour = seat_colour(name, 0 if analysis.cooperative else m.seat)
        ax.annotate("", xy=(x, 100 * m.after), xytext=(x, 100 * m.before),
                    arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 1.4})
        ax.plot([x], [100 * m.before], marker="o", markersize=13, color="white",
                markeredgecolor=colour, markeredgewidth=1.5, zorder=5)
        ax.text(x, 100 * m.before, str(number), ha="center", va="center", fontsize=7,
                fontweight="bold", color=colour, zorder=6)


def mark_hints(ax: Axes, analysis: Analysis) -> None:
    """Each hint used: a small triangle just above the asking seat's line, pointing at it, at
    the decision it was asked for (above, so a turning point there stays readable)."""
    for used in analysis.hints:
        step, seat = used.get("step"), used.get("seat")
        if not (isinstance(step, int) and isinstance(seat, int)
                and 0 <= step < len(analysis.curve) and 0 <= seat < analysis.players):
            continue
        line = 0 if analysis.cooperative else seat
        name = "the crew" if analysis.cooperative else analysis.names[seat]
        ax.plot([step], [100 * analysis.curve[step][line] + HINT_ABOVE], marker="v",
                markersize=7, color=seat_colour(name, line), markeredgecolor="black",
                linestyle="none", zorder=7)


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it, so a reader never sees a
    half-written file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
