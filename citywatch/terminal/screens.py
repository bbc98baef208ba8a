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

from citywatch.core.api import Game
from citywatch.core.presentation import TerminalScreens, View

PRIVATE_KEYS = ("hand",)
"""View keys the generic hand screen shows (and the board leaves out)."""


class GenericScreens:
    """The view as JSON: the board is everything but the hand, the hand is the hand."""

    def colour(self, name: str) -> Text:
        """A seat's name, in bold."""
        return Text(name, style="bold")

    def board(self, view: View) -> RenderableType:
        """Everything the seat sees but its hand and the result."""
        shown = {k: v for k, v in view.items() if k not in (*PRIVATE_KEYS, "result")}
        return Pretty(shown, expand_all=False)

    def players(self, view: View) -> RenderableType:
        """Nothing more: the generic board already shows every seat."""
        return Text("")

    def summary(self, view: View) -> RenderableType:
        """The board in short: one line per key of the view, as JSON."""
        shown = {k: v for k, v in view.items()
                 if k not in (*PRIVATE_KEYS, "result", "game", "seat", "decision")}
        return Group(*(Text(f"{key}: {json.dumps(value)}", no_wrap=True, overflow="ellipsis")
                       for key, value in shown.items()))

    def hand(self, view: View) -> RenderableType:
        """The viewing seat's hand, if its view has one."""
        hand = view.get("hand")
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
        """A reference entry as JSON."""
        return Pretty(entry)


def screens_for(game: Game) -> TerminalScreens:
    """The game's own terminal screens, or the generic ones."""
    return game.terminal() or GenericScreens()


def seat_name(view: View, seat: int) -> str:
    """How ``view`` (the seat's own) names the seat: its colour or name, else "Seat k"."""
    for key in ("colour", "name"):
        own = view.get(key)
        if isinstance(own, str) and own:
            return own
    return f"Seat {seat + 1}"


def indented(text: str, by: int, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(Text(text, style=style), (0, 0, 0, by))
