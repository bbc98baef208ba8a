"""A game whose set-up takes as long as its option ``seconds`` says: the stand-in for a
costly table set-up in the server's tests (issue 24, point 1). Otherwise High Card."""

from __future__ import annotations

import time
from typing import Any

from toy_game import HighCard, HighCardState

from citywatch.core.api import GameOption
from citywatch.core.rng import Seed

NAME = "slow-setup"


class SlowSetup(HighCard):
    """High Card whose set-up keeps a core busy for ``seconds`` seconds."""

    name = NAME
    options = (GameOption("seconds", "seconds the set-up takes", 0, 0, 60),)

    def new_game(self, players: int = 2, seed: Seed = 0, **options: Any) -> HighCardState:
        values = self.check_new_game(players, options)
        end = time.monotonic() + values["seconds"]
        while time.monotonic() < end:
            pass  # busy, as a real set-up would be: it holds the process
        return super().new_game(players, seed)


GAME = SlowSetup()
