"""citywatch: play, simulate and study Discworld city board games."""

from citywatch import engine as engine  # first: it may install SourceFirst (issue 32)
from citywatch.core import (
    Game,
    IllegalAction,
    InvalidPosition,
    InvalidRecord,
    Outcome,
    Record,
    Rng,
    State,
    UnknownGame,
    game_names,
    load,
    replay,
)

__all__ = [
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
