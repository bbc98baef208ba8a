"""Bot decision functions that fail on purpose, for the server's bot pool in tests.

They run in the pool's worker processes, which import them by name from this module.
"""

from __future__ import annotations

import time
from typing import Any

from citywatch.bots.decide import decide
from citywatch.core.rng import Seed


def hang_unless_random(game: str, position: dict[str, Any], seat: int, spec: str, seed: Seed,
                       step: int) -> Any:
    """Decides like the server, but every bot other than ``random`` thinks forever."""
    if spec != "random":
        time.sleep(3600)
    return decide(game, position, seat, spec, seed, step)


def always_crash(game: str, position: dict[str, Any], seat: int, spec: str, seed: Seed,
                 step: int) -> Any:
    """Every bot fails with an error."""
    raise RuntimeError(f"bot {spec} crashed on purpose")


def hang(game: str, position: dict[str, Any], seat: int, spec: str, seed: Seed,
         step: int) -> Any:
    """Every bot thinks forever."""
    time.sleep(3600)
    return None
