"""Guards! Guards! (Backspindle Games, 2012 revised edition).

The modules, bottom-up (each imports only those before it; ``docs/guards-guards-engine.md``):
``data``, ``board``, ``actions``, ``state``, ``frames``, ``harm``, ``luggage``, ``combat``,
``magic``, ``dragons``, ``fate``, ``recruit``, ``spells``, ``abilities``, ``turn``, ``setup``,
``position``, ``view``, ``rules`` (imports them all), ``evaluate``, ``heuristic``,
``terminal``, ``encoding``, ``game``. Lower modules reach higher ones only through frame kinds
and ops named in ``frames`` and the hooks of ``frames.TURN_HOOKS``.
"""

from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.game import GAME, GuardsGuards
from citywatch.games.guards_guards.state import GuardsGuardsState

__all__ = ["GAME", "Action", "GuardsGuards", "GuardsGuardsState"]
