"""Discworld: Ankh-Morpork (Martin Wallace, 2011)."""

from citywatch.games.ankh_morpork import rules  # noqa: F401  (registers every frame)
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.game import GAME, AnkhMorpork
from citywatch.games.ankh_morpork.state import AnkhMorporkState

__all__ = ["GAME", "Action", "AnkhMorpork", "AnkhMorporkState"]
