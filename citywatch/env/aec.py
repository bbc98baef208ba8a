"""A PettingZoo AEC environment over any citywatch game that has an encoding.

One agent per seat, named ``player_0``, ``player_1``, ...; ``agent_selection`` is always the
seat ``to_move``, so an interrupt question makes an agent act out of turn. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; actions are indexes into the
game's fixed action space, or, where the encoding factors its actions (``Encoding.heads``),
the value of one head at a time (``citywatch.env.factored``). Rewards come at the end
(``Outcome.rewards``): 1 to the winner, shared wins split, but 1 to every winner of a
co-operative game (the seats win together); ``shaping`` adds potential-based rewards during
the game. Game options (``Game.options``) are fixed when the environment is made, checked by
the game, and start every ``reset()`` unless its ``options`` change them for that game. The
environment is ``citywatch_<game>_v<version>`` after its encoding's ``version`` (the newest
unless asked); ``metadata["encoding_fingerprint"]`` is ``Encoding.fingerprint()``.
"""

from __future__ import annotations

import operator
import random
import warnings
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from citywatch.core.api import State
from citywatch.core.errors import IllegalAction
from citywatch.core.presentation import Encoding
from citywatch.core.registry import load
from citywatch.env.factored import HeadByHead, choosing_block, choosing_size

Observation = dict[str, npt.NDArray[Any]]

MAX_CYCLES_LIMIT = 10**9
"""The largest ``max_cycles`` an environment takes."""


def encoding(game: str, version: int | None = None) -> Encoding:
    """The encoding of ``game`` at layout ``version`` (None: the newest,
    ``Game.encoding(version)``); ``ValueError`` if it has none or lacks that version."""
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise ValueError(f"an encoding version is a whole number, not {version!r}")
    found = load(game).encoding(version)
    if found is None:
        raise ValueError(f"{game} has no PettingZoo encoding yet (Game.encoding() returns None)")
    return found


def whole_seed(seed: Any) -> int:
    """``seed`` as a Python int: any integer, NumPy's included; ``ValueError`` otherwise
    (a bool, a float, a string)."""
    if isinstance(seed, bool | np.bool_):
        raise ValueError(f"a seed is a whole number, not {seed!r}")
    try:
        return operator.index(seed)
    except TypeError:
        raise ValueError(f"a seed is a whole number, not {seed!r}") from None


class CitywatchEnv(AECEnv):  # type: ignore[misc]
    """A citywatch game as a PettingZoo ``AECEnv``: one agent per seat.

    ``options`` are the game's set-up options (``Game.options``; ``citywatch games`` lists
    them), an option's name to its value. The game checks them and ``players`` here
    (``ValueError`` before anything starts); every ``reset()`` starts with them;
    ``self.options`` and ``metadata["options"]`` hold every option's value, defaults filled in.
    ``version`` picks the encoding's layout (None: the newest). ``max_cycles`` (None: no
    limit) truncates every agent once the agents have taken ``max_cycles * players`` steps in
    all. ``shaping`` (0: off) weighs the potential-based rewards of ``Encoding.potential``.
    """

    def __init__(self, game: str, players: int = 4, render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None, *, version: int | None = None,
                 max_cycles: int | None = None, shaping: float = 0.0) -> None:
        super().__init__()
        self.game = load(game)
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"options must be a mapping of option names to values, "
                             f"not {options!r}")
        self.options: dict[str, Any] = self.game.check_new_game(players, options or {})
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, int)
                                       or not 1 <= max_cycles <= MAX_CYCLES_LIMIT):
            raise ValueError(f"max_cycles must be None or a whole number from 1 to "
                             f"{MAX_CYCLES_LIMIT}, not {max_cycles!r}")
        if isinstance(shaping, bool) or not isinstance(shaping, int | float) \
                or not 0.0 <= shaping <= 1.0:
            raise ValueError(f"shaping must be a number from 0 to 1, not {shaping!r}")
        self.encoding = encoding(game, version)
        if shaping and self.encoding.potential is None:
            raise ValueError(f"{game} offers no shaped rewards (its encoding has no potential)")
        self.players = players
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.shaping = float(shaping)
        self.metadata: dict[str, Any] = {
            "name": f"citywatch_{game.replace('-', '_')}_v{self.encoding.version}",
            "encoding_fingerprint": self.encoding.fingerprint(),
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "options": dict(self.options),
            "max_cycles": max_cycles,
            "shaping": self.shaping,
        }
        self.possible_agents: list[str] = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        enc = self.encoding
        self._chooser: HeadByHead | None = None
        if enc.heads:
            if enc.parts is None:
                raise ValueError(f"{game}'s encoding has heads but no parts")
            self._chooser = HeadByHead(enc.heads, enc.parts)
            size = self._chooser.width
        else:
            size = len(enc.actions)
        self.action_count = size
        """How many values the ``Discrete`` action space has (a head's values when factored)."""
        high = np.asarray(enc.observation_high, dtype=np.float32)
        if enc.heads:
            high = np.concatenate([high, np.ones(choosing_size(enc.heads), dtype=np.float32)])
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
        self._steps = 0
        self._potentials: list[float] = []
        self._observed: dict[int, npt.NDArray[np.float32]] = {}
        """Each seat's game numbers since the state last changed (factored actions only)."""

    @classmethod
    def from_state(cls, state: State, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None, *, version: int | None = None,
                   max_cycles: int | None = None, shaping: float = 0.0) -> CitywatchEnv:
        """A new environment that continues from a copy of ``state`` (no ``reset`` needed).
        The state goes on with the options it was set up with; ``options`` are those of any
        later ``reset()`` (default: the game's defaults)."""
        env = cls(state.game.name, state.players, render_mode, options, version=version,
                  max_cycles=max_cycles, shaping=shaping)
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
        """The index of a game action in the flat space; ``KeyError`` if it lacks it."""
        return self.encoding.index[action]

    def index_action(self, index: int) -> Any:
        """The game action at ``index`` of the flat space; ``IndexError`` if out of range."""
        if not 0 <= index < len(self.encoding.actions):
            raise IndexError(f"action index must be 0 to {len(self.encoding.actions) - 1}")
        return self.encoding.actions[index]

    def action_steps(self, action: Any) -> list[int]:
        """The steps that take the legal ``action`` now: ``[its index]`` in a flat space, the
        heads still to choose, in order, in a factored one (forced heads are not steps).
        ``ValueError`` if it is not legal now."""
        state = self._require()
        if action not in state.legal_actions():
            raise ValueError(f"{action} is not legal now")
        chooser = self._chooser
        if chooser is None:
            return [self.encoding.index[action]]
        assert self.encoding.parts is not None
        parts = self.encoding.parts(action)
        trial = chooser.copy()
        steps: list[int] = []
        result = None
        while result is None:
            value = parts[trial.head]
            if not trial.allows(value):
                raise ValueError(f"{action} does not follow the heads chosen so far")
            steps.append(value)
            result = trial.choose(value)
        return steps

    # --- the AEC API --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``game.new_game(players, seed=seed, **options)``. ``seed`` is any
        integer (NumPy's too); without one, the next seed of the environment's own generator
        (itself seeded by the last seed given). ``options`` change game options for this game
        only, over the environment's own; a value the game refuses, or a seed that is not an
        integer, is a ``ValueError`` and changes nothing. A key that is no option of the game
        is ignored with a ``UserWarning`` naming it (PettingZoo's api_test passes
        ``{"options": 1}``, so it cannot be an error)."""
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"reset options must be a mapping of game options to values, "
                             f"not {options!r}")
        chosen = self.options
        if options:
            known = {k: v for k, v in options.items() if k in self.options}
            unknown = sorted(map(str, set(options) - set(known)))
            if known:
                chosen = self.game.check_new_game(self.players, {**self.options, **known})
            if unknown:
                offered = ", ".join(self.options) or "none"
                warnings.warn(f"reset options {', '.join(unknown)} ignored: they are not "
                              f"options of {self.game.name} (its options: {offered})",
                              UserWarning, stacklevel=2)
        if seed is not None:
            game_seed = whole_seed(seed)
            self._seeds.seed(game_seed)
        else:
            game_seed = self._seeds.randrange(2**32)
        self._start(self.game.new_game(self.players, seed=game_seed, **chosen))

    def observe(self, agent: str) -> Observation:
        """The agent's observation vector and action mask (all zeros unless it moves now)."""
        state = self._require()
        seat = self._seat[agent]
        enc = self.encoding
        moves = state.to_move == seat and not (self.terminations.get(agent)
                                               or self.truncations.get(agent))
        chooser = self._chooser
        if chooser is None:
            mask = enc.action_mask(state) if moves else np.zeros(self.action_count, np.int8)
            return {"observation": enc.observation(state, seat), "action_mask": mask}
        mask = chooser.mask() if moves else np.zeros(self.action_count, np.int8)
        cached = self._observed.get(seat)
        if cached is None:  # the game's numbers hold for every head of a decision
            cached = self._observed[seat] = enc.observation(state, seat)
        vector = np.concatenate([cached, choosing_block(enc.heads, chooser if moves else None)])
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action at index ``action`` for ``agent_selection`` (None once it is done);
        with factored actions, choose the value ``action`` of the head to choose, applying
        the game action once the heads name it.

        Raises ``ValueError`` for an index outside the space and ``IllegalAction`` (a
        ``ValueError``) for one the mask forbids; either changes nothing.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require()
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        if isinstance(action, bool | np.bool_):
            raise ValueError(f"action must be a whole number, not {action!r}")
        try:
            i = operator.index(action)
        except TypeError:
            raise ValueError(f"action must be a whole number, not {action!r}") from None
        if not 0 <= i < self.action_count:
            raise ValueError(f"action must be 0 to {self.action_count - 1}, not {i}")
        chooser = self._chooser
        chosen = None
        if chooser is None:
            state.apply(self.encoding.actions[i])
        else:
            if not chooser.allows(i):
                raise IllegalAction(f"head {chooser.head} cannot take {i} now (see the mask)")
            chosen = chooser.choose(i)
            if chosen is not None:
                state.apply(chosen)
                self._observed.clear()
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if chooser is None or chosen is not None:
            self._shape(state)
            if self._next_decision(state):
                return
        if self.max_cycles is not None and self._steps >= self.max_cycles * self.players:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated": "max_cycles", "steps": self._steps}
        self._accumulate_rewards()

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
        self._steps = 0
        self._observed.clear()
        self._potentials = self._potential_of(state)
        self.agent_selection = self.agents[0]
        self._next_decision(state)

    def _next_decision(self, state: State) -> bool:
        """Select the agent to move and start its decision (taking single-choice decisions
        of a factored space at once); True once the game is over (rewards given)."""
        while True:
            to_move = state.to_move
            if to_move is None:
                self._finish(state)
                return True
            self.agent_selection = self.possible_agents[to_move]
            chooser = self._chooser
            if chooser is None:
                return False
            decided = chooser.start(state.legal_actions())
            if decided is None:
                return False
            state.apply(decided)
            self._observed.clear()
            self._shape(state)

    def _potential_of(self, state: State) -> list[float]:
        """Every seat's potential now (0 for all without shaping, or once the game is over)."""
        potential = self.encoding.potential
        if not self.shaping or potential is None or state.to_move is None:
            return [0.0] * self.players
        return [float(potential(state, seat)) for seat in range(self.players)]

    def _shape(self, state: State) -> None:
        """Add each seat's change of potential, weighed by ``shaping``, to its reward."""
        if not self.shaping:
            return
        now = self._potential_of(state)
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] += self.shaping * (now[seat] - self._potentials[seat])
        self._potentials = now

    def _finish(self, state: State) -> None:
        outcome = state.outcome()
        assert outcome is not None
        winners = outcome.winners
        points = outcome.seat_points()
        names = [self.possible_agents[w] for w in winners]
        rewards = outcome.rewards(state.players)
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = self.rewards.get(agent, 0.0) + rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {
                "points": None if points is None else points[seat],
                "all_points": None if points is None else list(points),
                "winners": names,
                "reason": outcome.reason,
            }
        self._accumulate_rewards()


def pettingzoo_env(game: str, players: int = 4, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None, *, version: int | None = None,
                   max_cycles: int | None = None, shaping: float = 0.0) -> CitywatchEnv:
    """A PettingZoo AEC environment for ``game`` with ``players`` seats and the game's
    ``options`` (an option's name to its value; ``ValueError`` if the game refuses them), at
    encoding ``version`` (None: the newest), cut after ``max_cycles`` cycles and with shaped
    rewards weighed ``shaping`` (``CitywatchEnv``); call ``reset()``."""
    return CitywatchEnv(game, players, render_mode, options, version=version,
                        max_cycles=max_cycles, shaping=shaping)


def env_from_state(state: State, render_mode: str | None = None,
                   options: Mapping[str, Any] | None = None, *, version: int | None = None,
                   max_cycles: int | None = None, shaping: float = 0.0) -> CitywatchEnv:
    """A new environment continuing from a copy of ``state`` (for tree search from a node);
    ``options`` are those of any later ``reset()``."""
    return CitywatchEnv.from_state(state, render_mode, options, version=version,
                                   max_cycles=max_cycles, shaping=shaping)
