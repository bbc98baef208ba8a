"""Bots: they talk only to the core API and see only their seat's observation."""

from __future__ import annotations

from collections.abc import Callable

from citywatch.bots.base import Bot, Observation
from citywatch.bots.random_bot import RandomBot

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
}


def make_bot(name: str) -> Bot:
    """A new bot of the registered kind ``name``."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None


__all__ = ["BOTS", "Bot", "Observation", "RandomBot", "make_bot"]
