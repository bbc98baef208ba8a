"""A heuristic Ankh-Morpork bot: greedy play toward its own personality.

It samples one world consistent with its view, tries each legal action there,
finishes its own part of the turn greedily, and keeps the action whose result it
values most (``evaluate.heuristic_value``): progress toward its personality,
material, and the greatest threat it can see from another player.
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.evaluate import heuristic_value
from citywatch.games.ankh_morpork.state import AnkhMorporkState


@mypyc_attr(native_class=False)  # compiled methods, but attributes in a __dict__ (vars())
class HeuristicBot:
    """Greedy one-turn lookahead on a sampled world."""

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ("lookahead", "width")
    """The options a spec may set."""
    PLAYOUT: ClassVar[dict[str, int]] = {"lookahead": 0, "width": 8}
    """The options of the fast version ISMCTS plays out with."""

    def __init__(self, lookahead: int = 6, width: int = 24) -> None:
        if lookahead < 0 or width < 1:
            raise ValueError("lookahead must be >= 0 and width >= 1")
        self.lookahead = lookahead
        self.width = width

    def choose(self, observation: Observation, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action whose greedy continuation this seat values most."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        world = observation.sample(rng)
        assert isinstance(world, AnkhMorporkState)
        seat = observation.seat
        best = legal_actions[0]
        best_value = -float("inf")
        for action in legal_actions:
            after = world.copy()
            after.apply(action)
            value = self._finish_turn(after, seat, world.turn, rng) + 1e-6 * rng.below(1000)
            if value > best_value:
                best, best_value = action, value
        return best

    def _finish_turn(self, world: AnkhMorporkState, seat: int, turn: int, rng: Rng) -> float:
        """Play ``seat``'s next decisions of this turn greedily; value the result."""
        for _ in range(self.lookahead):
            if world.to_move != seat or world.current != seat or world.turn != turn:
                break
            options = world.legal_actions()
            if len(options) > self.width:
                rng.shuffle(options)
                options = options[: self.width]
            best = options[0]
            best_value = -float("inf")
            for action in options:
                trial = world.copy()
                trial.apply(action)
                value = heuristic_value(trial, seat)
                if value > best_value:
                    best, best_value = action, value
            world.apply(best)
        return heuristic_value(world, seat)
