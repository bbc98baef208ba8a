"""Find games by name."""

from __future__ import annotations

import importlib

from citywatch.core.api import Game
from citywatch.core.errors import UnknownGame

GAMES: dict[str, str] = {
    "ankh-morpork": "citywatch.games.ankh_morpork",
}


def load(name: str) -> Game:
    """Return the game called ``name`` (for example ``"ankh-morpork"``)."""
    try:
        module_name = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {name!r}; known games: {known}") from None
    module = importlib.import_module(module_name)
    game: Game = module.GAME
    return game


def game_names() -> list[str]:
    """Names of all registered games."""
    return sorted(GAMES)
