"""The game-agnostic core: API, generator, log, records, registry."""

from citywatch.core.api import Action, Game, Outcome, State
from citywatch.core.errors import IllegalAction, InvalidPosition, InvalidRecord, UnknownGame
from citywatch.core.record import Record, replay
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "InvalidPosition",
    "InvalidRecord",
    "Outcome",
    "Record",
    "Rng",
    "State",
    "UnknownGame",
    "game_names",
    "load",
    "replay",
]
