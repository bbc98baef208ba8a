"""Issue 27, "Terminal": a game's summary may ask the compact screen for lines
(``summary_least``) and is drawn in the lines it is given, so it can fit itself (the seam in
``citywatch/core/presentation.py``; Guards! Guards!'s map excerpt uses it)."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from citywatch.core.presentation import summary_least_of
from citywatch.terminal.compact import to_lines


class FitsItself:
    """A summary that draws as many lines as it is given (at most 30)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for k in range(min(30, options.max_height)):
            yield Text(f"line {k}")


def test_the_summary_is_drawn_in_the_lines_it_is_given() -> None:
    """Issue 27: ``to_lines(..., height)`` tells the renderable it has ``height`` lines
    (``options.max_height``); without a height it has the console's."""
    console = Console(width=80, height=24)
    assert len(to_lines(console, FitsItself(), 80, 5)) == 5
    assert len(to_lines(console, FitsItself(), 80, 0)) == 0
    assert len(to_lines(console, FitsItself(), 80)) == 24


def test_summary_least_is_read_from_the_screens_or_is_no_claim() -> None:
    """Issue 27: a game's screens may ask for lines with ``summary_least(view)``; screens
    without it ask none (0), and the view is passed as given."""
    class Asks:
        def summary_least(self, view: dict[str, Any]) -> int:
            return 7 if view.get("moving") else 0

    assert summary_least_of(Asks(), {"moving": True}) == 7  # type: ignore[arg-type]
    assert summary_least_of(Asks(), {}) == 0  # type: ignore[arg-type]
    assert summary_least_of(object(), {"moving": True}) == 0  # type: ignore[arg-type]
