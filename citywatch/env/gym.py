"""A Gymnasium single-agent environment: one seat learns, the project's bots play the others.

``SingleAgentEnv`` wraps the AEC environment (``CitywatchEnv``): the learner plays one seat
and every other seat is played by a bot (``citywatch.bots.make_bot``) that sees only its own
seat's ``Observation``. A step is one learner step of the AEC environment (one head of a
factored decision), followed by the bots' moves until the learner must act again or the game
ends; its reward is everything the AEC environment gave the learner meanwhile. An action the
mask forbids, or outside the space, ends the episode with ``illegal_reward`` and changes
nothing in the game (PettingZoo's TerminateIllegalWrapper convention), so Gymnasium's
``check_env`` passes. ``action_masks()`` is the mask sb3-contrib's ``MaskablePPO`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from citywatch.bots import Bot, Observation, make_bot
from citywatch.core.rng import Rng
from citywatch.env.aec import CitywatchEnv, whole_seed

ObsVector = npt.NDArray[np.float32]

SEED_WORDS = 2**64
"""Episode seeds drawn by the wrapper's own generator are below this."""
NEW_GAME_TRIES = 100
"""How many games ``reset`` deals, at most, looking for one where the learner gets to act."""
_BOT_STREAM = 0xB07
"""The purpose number (``Rng.derive``) of the bots' generator, apart from the game's deal."""


def opponent_specs(opponents: str | Sequence[str], others: int) -> list[str]:
    """One bot spec per other seat: ``opponents`` repeated when it is one spec, else the list
    itself, which must hold exactly ``others`` specs (``ValueError`` otherwise)."""
    if isinstance(opponents, str):
        return [opponents] * others
    if not isinstance(opponents, Sequence) or not all(isinstance(s, str) for s in opponents):
        raise ValueError(f"opponents must be a bot spec or a list of bot specs, "
                         f"not {opponents!r}")
    if len(opponents) != others:
        raise ValueError(f"opponents lists {len(opponents)} bot specs; the other seats are "
                         f"{others}")
    return list(opponents)


class SingleAgentEnv(gymnasium.Env[ObsVector, np.int64]):
    """One seat of a citywatch game as a Gymnasium environment; bots play the other seats.

    ``seat`` is the learner's seat, or None for a seat drawn from each reset's seed.
    ``opponents`` is one bot spec or level for every other seat (``"random"``, ``"easy"``,
    ``"heuristic"``, ...), or a list with one per other seat in seat order (skipping the
    learner's). ``options``, ``version``, ``max_cycles`` and ``shaping`` are the AEC
    environment's (``CitywatchEnv``); ``illegal_reward`` is the reward of an action the mask
    forbids. ``ValueError`` for a wrong seat, opponents list or spec, or anything the AEC
    environment refuses.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, game: str, players: int = 2, seat: int | None = 0,
                 opponents: str | Sequence[str] = "random",
                 options: Mapping[str, Any] | None = None, version: int | None = None,
                 max_cycles: int | None = None, shaping: float = 0.0, *,
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        super().__init__()
        self.aec = CitywatchEnv(game, players, render_mode, options, version=version,
                                max_cycles=max_cycles, shaping=shaping)
        """The AEC environment underneath (its ``state()`` is a copy of the true state)."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < players):
            raise ValueError(f"seat must be None or a seat from 0 to {players - 1}, "
                             f"not {seat!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise ValueError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.game = game
        self.players = players
        self.fixed_seat = seat
        """The seat asked for (None: drawn each episode)."""
        self.specs = opponent_specs(opponents, players - 1)
        """The bot spec of each other seat, in seat order."""
        self._bots: list[Bot] = [make_bot(spec, game) for spec in self.specs]
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        first = self.aec.possible_agents[0]
        self.observation_space = cast(spaces.Space[ObsVector],
                                      self.aec.observation_spaces[first]["observation"])
        self.action_space: spaces.Discrete = self.aec.action_spaces[first]
        self.seat = 0 if seat is None else seat
        """The learner's seat in this episode."""
        self._agent = self.aec.possible_agents[self.seat]
        self._seat_bots: dict[int, Bot] = {}
        self._bot_rng = Rng(0)
        self._pending = 0.0
        self._over = True

    # --- Gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsVector, dict[str, Any]]:
        """Start an episode: a new game and, after the bots' moves before the learner's
        first decision, the learner's observation. ``seed`` is any integer (NumPy's too): the
        game's seed, the seat drawn (when ``seat`` is None) and the bots' generator follow
        from it, so a seed replays the same episode; without one, the wrapper's generator
        (seeded by the last seed given) draws it. ``options`` are game options for this game
        (the AEC environment's ``reset`` checks them). Should a game end before the learner
        acts, the next game is dealt from the wrapper's generator."""
        if seed is not None:
            game_seed = whole_seed(seed)
            super().reset(seed=game_seed % SEED_WORDS)
        else:
            super().reset()
            game_seed = int(self.np_random.integers(SEED_WORDS, dtype=np.uint64))
        for _ in range(NEW_GAME_TRIES):
            if self._deal(game_seed, options):
                return self._observation(), self._info()
            game_seed = int(self.np_random.integers(SEED_WORDS, dtype=np.uint64))
        raise RuntimeError(f"{NEW_GAME_TRIES} games in a row ended before seat "
                           f"{self.seat} could act")

    def step(self, action: Any) -> tuple[ObsVector, float, bool, bool, dict[str, Any]]:
        """Take the learner's ``action`` (an index of the ``Discrete`` space), then let the
        bots move until the learner must act again or the game ends. The reward is the
        learner's AEC rewards over all those steps (the end reward and any shaping). An
        action outside the space or forbidden by the mask ends the episode: reward
        ``illegal_reward``, info ``{"illegal_action": True}``, the game unchanged.
        ``RuntimeError`` once the episode is over (call ``reset``)."""
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        if not self.action_space.contains(action) or not self.action_masks()[int(action)]:
            self._over = True
            return (self._observation(), self.illegal_reward, True, False,
                    {"illegal_action": True})
        self.aec.step(int(action))
        reward = self._pending + self.aec.rewards.get(self._agent, 0.0)
        self._pending = 0.0
        reward += self._play_bots()
        terminated, truncated = self._ended()
        self._over = terminated or truncated
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which actions the learner may take now (all False once the episode is over)."""
        if self._over:
            return np.zeros(self.action_space.n, dtype=np.bool_)
        return self.aec.observe(self._agent)["action_mask"].astype(np.bool_)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the AEC environment's text (the last lines of the
        full log and who decides)."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""
        self.aec.close()

    # --- internals ------------------------------------------------------------------------------
    def _deal(self, game_seed: int, options: dict[str, Any] | None) -> bool:
        """Start the game of ``game_seed`` and play the bots up to the learner's first
        decision; False if the game ended first."""
        self.aec.reset(seed=game_seed, options=options)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.players))
        self._agent = self.aec.possible_agents[self.seat]
        others = [s for s in range(self.players) if s != self.seat]
        self._seat_bots = dict(zip(others, self._bots, strict=True))
        self._bot_rng = Rng(game_seed).derive(_BOT_STREAM)
        self._over = False
        self._pending = self.aec.rewards.get(self._agent, 0.0)
        self._pending += self._play_bots()
        terminated, truncated = self._ended()
        return not (terminated or truncated)

    def _play_bots(self) -> float:
        """Let the bots move until the learner's turn or the end; the learner's rewards
        meanwhile."""
        aec = self.aec
        reward = 0.0
        while not any(self._ended()) and aec.agent_selection != self._agent:
            seat = aec.possible_agents.index(aec.agent_selection)
            state = aec.state()
            action = self._seat_bots[seat].choose(Observation(state, seat),
                                                  state.legal_actions(), self._bot_rng)
            for index in aec.action_steps(action):
                aec.step(index)
                reward += aec.rewards.get(self._agent, 0.0)
        return reward

    def _ended(self) -> tuple[bool, bool]:
        """Whether the learner's game is over (terminated) or cut (truncated)."""
        agent = self._agent
        return (bool(self.aec.terminations.get(agent, False)),
                bool(self.aec.truncations.get(agent, False)))

    def _observation(self) -> ObsVector:
        """The learner's observation vector (the AEC ``observe`` of its seat)."""
        vector: ObsVector = self.aec.observe(self._agent)["observation"]
        return vector

    def _info(self) -> dict[str, Any]:
        """The learner's AEC info (the outcome once the game is over) and its seat."""
        return {**self.aec.infos.get(self._agent, {}), "seat": self.seat}
