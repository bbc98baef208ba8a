"""Discworld: Ankh-Morpork (Martin Wallace, 2011).

The modules, bottom-up. Each imports only modules listed before it, at module level:

- ``data``: the game's facts (cards, areas, events, personalities) from ``data/*.json``.
- ``actions``: ``Action``, the one move type.
- ``state``: ``AnkhMorporkState``, the board's operations, placing pieces, playing a card.
- ``scoring``: personalities' win conditions, the end of the game and points.
- ``frames``: the decision stack (``Handler``, ``HANDLERS``, ``advance``, ``apply_action``).
- ``harm``: the one gateway for harm, where protections (interrupts) are offered.
- ``events``: the random events.
- ``effects``: the scroll texts.
- ``rules``: the turn, card symbols and City Area powers.
- ``position``: the state as JSON, written and read back.
- ``view``: what one seat sees; determinization.
- ``evaluate``, ``heuristic``: the static evaluation and the heuristic bot.
- ``terminal``, ``encoding``: presentation; ``game`` imports them only when asked for
  (``encoding`` needs the optional numpy).
- ``game``: ``AnkhMorpork``, the ``Game`` object, set-up and the presentation seams
  (``terminal()``, ``encoding()``, ``web_folder()`` with ``web/``: the browser board).

Where a lower module must call up, the higher module registers itself at import time:
frame handlers in ``frames.HANDLERS`` (``@handler``), ``rules.begin_turn`` in
``frames.DECISIONS``, and the State API's ``legal_actions``/``apply`` (``frames``),
``view``/``determinize`` (``view``), ``position`` (``position``) and ``game`` (``game``) in
``state.STATE_HOOKS``. ``game`` imports ``rules`` and ``view``, so importing this
package registers everything.
"""

from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.game import GAME, AnkhMorpork
from citywatch.games.ankh_morpork.state import AnkhMorporkState

__all__ = ["GAME", "Action", "AnkhMorpork", "AnkhMorporkState"]
