"""Thieves of the Black Keep (curufea, 2017): its guard rules as an automaton, completed into
a stealth game for 1 to 4 thieves (``../shared/reference/black-keep/spec.md``).

The rules modules, bottom-up (each imports only those before it;
``docs/black-keep-engine.md``): ``hexes``, ``board``, ``params``, ``sight`` (line of sight,
cached per map), ``data``, ``actions``, ``state``, ``guards``, ``harm``, ``referee``,
``round``, ``setup``, ``scoring``, ``scenario``, ``position``, ``view``; above them the
bots' ``evaluate`` and ``heuristic``, the presentation and ``game``.
"""

from citywatch.games.black_keep.actions import Action
from citywatch.games.black_keep.game import GAME, BlackKeep
from citywatch.games.black_keep.state import BlackKeepState

__all__ = ["GAME", "Action", "BlackKeep", "BlackKeepState"]
