"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

from typing import Any

from citywatch.bots.base import Observation
from citywatch.core.rng import Rng


class RandomBot:
    """Uniformly random over the legal actions."""

    name = "random"
    OPTIONS: tuple[str, ...] = ()
    """The options a spec may set: none."""
    INSTANT = True
    """It decides in constant time, so a server need not send it to a worker process."""

    def choose(self, observation: Observation, legal_actions: list[Any], rng: Rng) -> Any:
        """Return a uniformly chosen legal action."""
        return rng.choice(legal_actions)
