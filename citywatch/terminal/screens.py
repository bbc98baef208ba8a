"""The terminal screens of a game: its own (``Game.terminal()``) or the generic ones.

The generic screens show a seat's view as readable JSON and each action by ``str(action)``,
so a game is playable in the terminal on the day it registers.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.pretty import Pretty
from rich.text import Text

from citywatch.core.api import Game, GameType
from citywatch.core.presentation import TerminalScreens, View, field_text


class GenericScreens:
    """The view as JSON: the board is everything but the result, the hand is what the game
    declares the seat holds (``GameType.hand``)."""

    def __init__(self, game_type: GameType) -> None:
        """Screens of a game of ``game_type``."""
        self.type = game_type

    def colour(self, name: str) -> Text:
        """A seat's name, in bold."""
        return Text(name, style="bold")

    def board(self, view: View) -> RenderableType:
        """Everything the seat sees but the result."""
        shown = {k: v for k, v in view.items() if k != "result"}
        return Pretty(shown, expand_all=False)

    def players(self, view: View) -> RenderableType:
        """Nothing more: the generic board already shows every seat."""
        return Text("")

    def summary(self, view: View) -> RenderableType:
        """The board in short: one line per key of the view, as JSON."""
        shown = {k: v for k, v in view.items()
                 if k not in ("result", "game", "seat", "decision")}
        return Group(*(Text(f"{key}: {json.dumps(value)}", no_wrap=True, overflow="ellipsis")
                       for key, value in shown.items()))

    def hand(self, view: View) -> RenderableType:
        """The viewing seat's hand, if its view has one."""
        hand = self.type.hand(view)
        if hand is None:
            return Text("")
        return Group(Text("Your hand:", style="bold"), Padding(Pretty(hand), (0, 0, 0, 2)))

    def label(self, text: str) -> str:
        """The action's own text."""
        return text

    def outcome(self, view: View) -> RenderableType:
        """The result as the view gives it."""
        return Group(Text("The end:", style="bold"), Pretty(view.get("result")))

    def describe(self, entry: dict[str, Any]) -> RenderableType:
        """A reference entry: its name, then each other field as ``key: value`` in words
        (``field_text``: yes or no, lists joined by commas, never Python's own spelling)."""
        lines: list[RenderableType] = [Text(str(entry.get("name", "?")), style="bold")]
        lines += [indented(f"{str(key).replace('_', ' ')}: {field_text(value)}", 2)
                  for key, value in entry.items() if key != "name"]
        return Group(*lines)


def screens_for(game: Game) -> TerminalScreens:
    """The game's own terminal screens, or the generic ones."""
    return game.terminal() or GenericScreens(game.type)


def table_of(screens: TerminalScreens, view: View, names: list[str], me: str) -> Any:
    """The players, one line each, for every decision screen (issue 26): the game's own
    ``table(view)`` if its screens have one, else each seat's name (``GameType.seat_name``)."""
    own = getattr(screens, "table", None)
    if callable(own):
        return own(view)
    return Group(*(Text.assemble(screens.colour(name), " (you)" if name == me else "")
                   for name in names))


def seat_name(game: Game, view: View, seat: int) -> str:
    """How ``view`` (the seat's own) names the seat (``GameType.seat_name``), else
    "Seat k"."""
    return game.type.seat_name(view) or f"Seat {seat + 1}"


def indented(text: str, by: int, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(Text(text, style=style), (0, 0, 0, by))
