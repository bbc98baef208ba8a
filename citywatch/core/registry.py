"""Find games by name: each game is one package with a ``GAME``.

Every folder ``citywatch/games/<package>/`` with an ``__init__.py`` is the game named by its
folder with ``-`` for ``_`` (a folder ``city_game`` is ``"city-game"``): adding a game is
adding its folder. Other packages (plug-ins, tests) join with ``register``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from citywatch.core.api import Game
from citywatch.core.errors import UnknownGame

GAMES_FOLDER = Path(__file__).resolve().parent.parent / "games"


def _found() -> dict[str, str]:
    """The game folders under ``citywatch/games/``, by game name (nothing is imported)."""
    return {
        folder.name.replace("_", "-"): f"citywatch.games.{folder.name}"
        for folder in sorted(GAMES_FOLDER.iterdir())
        if (folder / "__init__.py").is_file() and not folder.name.startswith("_")
    }


GAMES: dict[str, str] = _found()
"""Game name -> the module holding its ``GAME``."""


def load(name: str) -> Game:
    """Return the game called ``name``; ``UnknownGame`` naming the known ones if none is."""
    try:
        module_name = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {name!r}; known games: {known}") from None
    module = importlib.import_module(module_name)
    game: Game = module.GAME
    if game.name != name:
        raise UnknownGame(f"{module_name} holds the game {game.name!r}, not {name!r}")
    return game


def game_names() -> list[str]:
    """Names of all registered games."""
    return sorted(GAMES)


def register(name: str, module: str) -> None:
    """Register the game ``name`` whose ``GAME`` lives in ``module`` (for plug-ins and tests);
    ``ValueError`` if the name is taken by another module."""
    if GAMES.get(name, module) != module:
        raise ValueError(f"the game name {name!r} is taken by {GAMES[name]}")
    GAMES[name] = module


def unregister(name: str) -> None:
    """Forget the game ``name`` (nothing if it is not registered)."""
    GAMES.pop(name, None)
