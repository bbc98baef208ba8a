"""Guardians of the City Vol.2 (Falling Piano Games with Nexus), on citywatch's stand-in cards.

The rules modules, bottom-up (each imports only those before it;
``docs/guardians-of-the-city-engine.md``): ``data``, ``decks``, ``actions``, ``state``,
``frames``, ``scoring``, ``effects`` (the one interpreter of the effect language), ``turn``,
``position``, ``view``; above them the bots' ``evaluate`` and ``heuristic``, the presentation
(``terminal``, ``encoding``, ``web/``) and ``game``.
"""

from citywatch.games.guardians_of_the_city.actions import Action
from citywatch.games.guardians_of_the_city.game import GAME, GuardiansOfTheCity
from citywatch.games.guardians_of_the_city.state import GotcState

__all__ = ["GAME", "Action", "GotcState", "GuardiansOfTheCity"]
