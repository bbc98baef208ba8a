"""PettingZoo environments for citywatch games (needs the optional extra ``env``).

``pettingzoo_env(game, players=4, options=None)`` is an AEC environment for any registered
game whose ``Game.encoding()`` gives its observation and fixed action space, set up with the
game's ``options`` (an option's name to its value); ``docs/pettingzoo.md`` describes them and how to
search from ``env.state()``. ``SingleAgentEnv`` (``citywatch.env.gym``) is a Gymnasium
environment for one seat, the project's bots playing the others (``docs/training.md``).
"""

from citywatch.core.presentation import Encoding
from citywatch.env.aec import CitywatchEnv, encoding, env_from_state, pettingzoo_env
from citywatch.env.gym import SingleAgentEnv

__all__ = ["CitywatchEnv", "Encoding", "SingleAgentEnv", "encoding", "env_from_state",
           "pettingzoo_env"]
