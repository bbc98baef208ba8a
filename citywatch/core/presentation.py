"""The seams through which interfaces present a game, owned by the game's folder.

A ``Game`` offers them (``Game.terminal``, ``Game.encoding``, ``Game.web_folder``); each is
optional, and every interface has a working default for a game that lacks one (a terminal
screen and a browser panel built from the view's JSON and ``str(action)``), so a new game is
playable everywhere on the day it registers. None of this imports a rendering library: a
terminal screen returns anything ``rich`` can print.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

View = dict[str, Any]
"""What ``State.view(seat)`` returns."""


class TerminalScreens(Protocol):
    """How a game looks in the terminal: each method returns a ``rich`` renderable (or text)
    built from one seat's view only.

    A game's screens may also have ``summary(view)``: a few lines of board summary for the
    compact screen (issue 16) that the terminal draws at every decision; without one
    (``summary_of``) the terminal shows the players screen cut to fit. And ``table(view)``: one
    line per player (a heading line may come first), drawn on every decision screen and never
    cut (issue 26); without one the terminal lists the seats' names. And
    ``summary_least(view)``: the lines the summary needs kept at this decision (a map around
    one's piece at a move, issue 27), given before "since your last decision"; without one, or
    below the terminal's own least, the terminal's least. The summary is drawn in the lines it
    is given (``options.max_height``), so a renderable may fit itself to them.
    """

    def colour(self, name: str) -> Any:
        """A seat's name (as its view calls it), styled."""
        ...

    def board(self, view: View) -> Any:
        """The shared board."""
        ...

    def players(self, view: View) -> Any:
        """Every seat's public state."""
        ...

    def hand(self, view: View) -> Any:
        """What the viewing seat holds (nothing for a spectator)."""
        ...

    def label(self, text: str) -> str:
        """An action's menu line, from ``str(action)``."""
        ...

    def outcome(self, view: View) -> Any:
        """How a finished game ended."""
        ...

    def describe(self, entry: dict[str, Any]) -> Any:
        """One entry of ``Game.reference()`` (a card, an area, ...), for ``? NAME``."""
        ...


@dataclass
class ScreenFunctions:
    """``TerminalScreens`` made of a game's own screen functions, one for each method of the
    same name (for a game whose screens are plain functions of the view)."""

    colour: Callable[[str], Any]
    board: Callable[[View], Any]
    players: Callable[[View], Any]
    hand: Callable[[View], Any]
    label: Callable[[str], str]
    outcome: Callable[[View], Any]
    describe: Callable[[dict[str, Any]], Any]
    summary: Callable[[View], Any] | None = None
    """A few lines of board summary (None: the players screen, cut to fit)."""


def field_text(value: Any) -> str:
    """A reference entry's field as people read it, never as Python: yes or no for a flag,
    a list's items joined by commas ("none" if empty), an object as ``key: value`` pairs
    (``_`` read as a space), "none" for a missing value."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(field_text(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {field_text(v)}"
                         for k, v in value.items()) or "none"
    return str(value)


def summary_of(screens: TerminalScreens, view: View) -> Any:
    """The compact screen's board summary of ``view``: the game's own ``summary(view)`` if its
    screens have one, else its players screen (the interface cuts either to fit)."""
    own = getattr(screens, "summary", None)
    return own(view) if callable(own) else screens.players(view)


def summary_least_of(screens: TerminalScreens, view: View) -> int:
    """The lines the game's summary asks the compact screen to keep for ``view``
    (``summary_least(view)`` if its screens have one, else 0: no claim)."""
    own = getattr(screens, "summary_least", None)
    return int(own(view)) if callable(own) else 0


@dataclass(frozen=True)
class Encoding:
    """A game's fixed action space and observation vector, for PettingZoo and learners.

    ``actions[i]`` is action ``i``; ``index`` maps an action to its number;
    ``observation(state, seat)`` (a ``State`` of the game) is a float32 array in
    ``[0, observation_high]`` built from ``state.view(seat)`` only; ``action_mask(state)``
    is an int8 array over ``actions``. ``blocks`` and ``verbs`` name the parts of both (the
    game's encoding module documents each), ``version`` numbers the layout: the environment
    is ``citywatch_<game>_v<version>``, and ``fingerprint()`` changes with the layout.
    """

    actions: Sequence[Any]
    index: Mapping[Any, int]
    observation_high: Any
    observation: Callable[[Any, int], Any]
    """``(state, seat)``: the game's own ``State`` class."""
    action_mask: Callable[[Any], Any]
    version: int = 0
    """Raised by one whenever the layout or the meaning of a number or an action changes."""
    blocks: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Observation block name -> (start, size), in vector order."""
    verbs: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Action group (a verb) -> (its first action number, one past its last), in order."""
    heads: tuple[int, ...] = ()
    """Factored actions (issue 33): how many values each head takes; () when the environment
    offers the flat space over ``actions``. With heads, an action is chosen head by head
    (``citywatch.env.factored``), each choice masked to what some legal action allows."""
    parts: Callable[[Any], tuple[int, ...]] | None = None
    """With ``heads``: an action -> its value on each head (0 to the head's size - 1); two
    actions never share all their parts."""
    scale: Sequence[float] | None = None
    """What 1.0 stands for, per number, when ``observation`` is scaled to [0, 1] (a count is
    divided by it and clipped); None: unscaled, each number up to ``observation_high``."""
    potential: Callable[[Any, int], float] | None = None
    """``(state, seat)`` -> the seat's progress in [0, 1], from ``state.view(seat)`` only: the
    potential of the environment's optional shaped rewards; None: the game offers none."""

    def layout(self) -> dict[str, Any]:
        """The layout as data: the sizes, each block's ``[name, start, size, high]`` (``high``
        is the block's first number's largest value, or its scale when scaled) and each verb's
        ``[name, start, size]``; ``"scaled": true`` and ``"heads"`` when the encoding has them."""
        high = self.observation_high if self.scale is None else self.scale
        layout: dict[str, Any] = {
            "observation_size": len(high),
            "action_count": len(self.actions),
            "observation": [[name, start, size, float(high[start]) if size else 0.0]
                            for name, (start, size) in self.blocks.items()],
            "actions": [[name, start, stop - start]
                        for name, (start, stop) in self.verbs.items()],
        }
        if self.scale is not None:
            layout["scaled"] = True
        if self.heads:
            layout["heads"] = list(self.heads)
        return layout

    def fingerprint(self) -> str:
        """16 hex digits of the SHA-256 of ``layout()`` as compact JSON: a pinned value that
        changes whenever a block or a verb moves, grows, shrinks, is renamed or rescaled."""
        text = json.dumps(self.layout(), separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def pick_version(game: str, version: int | None,
                 builders: Mapping[int, Callable[[], Encoding]]) -> Encoding:
    """The encoding of ``version`` from ``builders`` (a version -> what builds it; None: the
    newest); ``ValueError`` naming the versions ``game`` has, for any other."""
    if version is None:
        return builders[max(builders)]()
    if isinstance(version, bool) or not isinstance(version, int) or version not in builders:
        have = ", ".join(str(v) for v in sorted(builders))
        raise ValueError(f"{game}'s encoding has versions {have}, not {version!r}")
    return builders[version]()
