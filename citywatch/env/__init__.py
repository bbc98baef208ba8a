"""PettingZoo environments for citywatch games (needs the optional extra ``env``).

``pettingzoo_env("ankh-morpork", players=4)`` is an AEC environment; ``docs/pettingzoo.md``
describes its observation, its action space and how to search from ``env.state()``.
"""

from citywatch.env.aec import (
    ENCODINGS,
    CitywatchEnv,
    Encoding,
    encoding,
    env_from_state,
    pettingzoo_env,
)

__all__ = ["ENCODINGS", "CitywatchEnv", "Encoding", "encoding", "env_from_state",
           "pettingzoo_env"]
