"""PettingZoo environments for citywatch games (needs the optional extra ``env``).

``pettingzoo_env(game, players=4, options=None)`` is an AEC environment for any registered
game whose ``Game.encoding()`` gives its observation and fixed action space, set up with the
game's ``options`` (an option's name to its value); ``docs/pettingzoo.md`` describes them and how to
search from ``env.state()``.
"""

from citywatch.core.presentation import Encoding
from citywatch.env.aec import CitywatchEnv, encoding, env_from_state, pettingzoo_env

__all__ = ["CitywatchEnv", "Encoding", "encoding", "env_from_state", "pettingzoo_env"]
