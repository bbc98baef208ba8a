"""A PettingZoo AEC environment over any citywatch game that has an encoding.

One agent per seat, named ``player_0``, ``player_1``, ...; ``agent_selection`` is always the
seat ``to_move``, so an interrupt question makes an agent act out of turn. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; actions are indexes into the
game's fixed action space. Rewards come at the end (``Outcome.rewards``): 1 to the winner,
shared wins split, but 1 to every winner of a co-operative game (the seats win together).
Game options (``Game.options``) are fixed when the environment is made, checked by the game,
and start every ``reset()``. The environment is ``citywatch_<game>_v<version>`` after its
encoding's declared ``version``, which rises with every change of the layout;
``metadata["encoding_fingerprint"]`` is ``Encoding.fingerprint()``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from citywatch.core.api import State
from citywatch.core.presentation import Encoding
from citywatch.core.registry import load

Observation = dict[str, npt.NDArray[Any]]


def encoding(game: str) -> Encoding:
    """The encoding of ``game`` (``Game.encoding()``); ``ValueError`` if it has none."""
    found = load(game).encoding()
    if found is None:
        raise ValueError(f"{game} has no PettingZoo encoding yet (Game.encoding() returns None)")
    return found


class CitywatchEnv(AECEnv):  # type: ignore[misc]
    """A citywatch game as a PettingZoo ``AECEnv``: one agent per seat.

    ``options`` are the game's set-up options (``Game.options``; ``citywatch games`` lists
    them), an option's name to its value. The game checks them and ``players`` here
    (``ValueError`` before anything starts); every ``reset()`` starts with them;
    ``self.options`` and ``metadata["options"]`` hold every option's value, defaults filled in.
    """

    def __init__(self, game: str, players: int = 4, render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.game = load(game)
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"options must be a mapping of option names to values, "
                             f"not {options!r}")
        self.options: dict[str, Any] = self.game.check_new_game(players, options or {})
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.encoding = encoding(game)
        self.players = players
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "name": f"citywatch_{game.replace('-', '_')}_v{self.encoding.version}",
            "encoding_fingerprint": self.encoding.fingerprint(),
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "options": dict(self.options),
        }
        self.possible_agents: list[str] = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        size = len(self.encoding.actions)
        high = self.encoding.observation_high
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict({
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(size) for a in self.possible_agents
        }
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._state: State | None = None
        self._seeds = random.Random()

    @classmethod
    def from_state(cls, state: State, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None) -> CitywatchEnv:
        """A new environment that continues from a copy of ``state`` (no ``reset`` needed).
        The state goes on with the options it was set up with; ``options`` are those of any
        later ``reset()`` (default: the game's defaults)."""
        env = cls(state.game.name, state.players, render_mode, options)
        env._start(state.copy())
        return env

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        """The same Dict space object for the same agent, every time."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The same Discrete space object for the same agent, every time."""
        return self.action_spaces[agent]

    def action_index(self, action: Any) -> int:
        """The index of a game action; ``KeyError`` if the action space lacks it."""
        return self.encoding.index[action]

    def index_action(self, index: int) -> Any:
        """The game action at ``index``; ``IndexError`` if out of range."""
        if not 0 <= index < len(self.encoding.actions):
            raise IndexError(f"action index must be 0 to {len(self.encoding.actions) - 1}")
        return self.encoding.actions[index]

    # --- the AEC API --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``game.new_game(players, seed=seed, **self.options)``; without a
        seed, the next seed of the environment's own generator (itself seeded by the last seed
        given). ``options`` is PettingZoo's per-reset argument, accepted and ignored: the game
        options are the environment's own (make a new environment to change them)."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**32)
        self._start(self.game.new_game(self.players, seed=game_seed, **self.options))

    def observe(self, agent: str) -> Observation:
        """The agent's observation vector and action mask (all zeros unless it moves now)."""
        state = self._require()
        seat = self._seat[agent]
        enc = self.encoding
        if state.to_move == seat:
            mask = enc.action_mask(state)
        else:
            mask = np.zeros(len(enc.actions), dtype=np.int8)
        return {"observation": enc.observation(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action at index ``action`` for ``agent_selection`` (None once it is done).

        Raises ``IllegalAction`` (a ``ValueError``) if the action is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require()
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        i = int(action)
        if not 0 <= i < len(self.encoding.actions):
            raise ValueError(f"action must be 0 to {len(self.encoding.actions) - 1}, not {i}")
        state.apply(self.encoding.actions[i])
        self._cumulative_rewards[agent] = 0.0
        to_move = state.to_move
        if to_move is None:
            self._finish(state)
        else:
            self.agent_selection = self.possible_agents[to_move]

    def state(self) -> State:
        """A deep copy of the game state (not PettingZoo's global array): mutate it freely."""
        return self._require().copy()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the last lines of the full log and who decides."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use 'ansi'")
            return None
        state = self._require()
        lines = state.log()[-8:]
        who = state.to_move
        lines.append("game over" if who is None else f"{self.possible_agents[who]} to move")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    # --- internals ------------------------------------------------------------------------------
    def _require(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _start(self, state: State) -> None:
        self._state = state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        to_move = state.to_move
        if to_move is None:
            self.agent_selection = self.agents[0]
            self._finish(state)
        else:
            self.agent_selection = self.possible_agents[to_move]

    def _finish(self, state: State) -> None:
        outcome = state.outcome()
        assert outcome is not None
        winners = outcome.winners
        points = outcome.seat_points()
        names = [self.possible_agents[w] for w in winners]
        rewards = outcome.rewards(state.players)
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {
                "points": None if points is None else points[seat],
                "all_points": None if points is None else list(points),
                "winners": names,
                "reason": outcome.reason,
            }
        self._accumulate_rewards()


def pettingzoo_env(game: str, players: int = 4, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None) -> CitywatchEnv:
    """A PettingZoo AEC environment for ``game`` with ``players`` seats and the game's
    ``options`` (an option's name to its value; ``ValueError`` if the game refuses them); call
    ``reset()``."""
    return CitywatchEnv(game, players, render_mode, options)


def env_from_state(state: State, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None) -> CitywatchEnv:
    """A new environment continuing from a copy of ``state`` (for tree search from a node);
    ``options`` are those of any later ``reset()``."""
    return CitywatchEnv.from_state(state, render_mode, options)
