"""The Gymnasium single-agent environment (citywatch.env.gym.SingleAgentEnv): both checkers on
every game with an encoding, seeded replays, illegal actions, hidden information, opponents."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng
from citywatch.env import SingleAgentEnv, pettingzoo_env

ENCODED = [name for name in game_names() if load(name).encoding() is not None]
CHEAP = "guardians-of-the-city"
"""A game whose episodes are short and whose easy level is quick."""
HIDDEN = "ankh-morpork"
"""A game with hidden hands, personalities and a deck."""


def play_episode(env: SingleAgentEnv, seed: int, policy_seed: int = 0
                 ) -> tuple[list[np.ndarray], list[float], dict[str, Any]]:
    """One episode with random legal learner actions: its observations, rewards, last info."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    observations, rewards = [obs], []
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        rewards.append(reward)
        done = terminated or truncated
    return observations, rewards, info


@pytest.mark.parametrize("game", ENCODED)
def test_gymnasium_and_sb3_checkers_pass(game: str) -> None:
    """Gymnasium's check_env and stable-baselines3's check_env pass at the fewest players."""
    env = SingleAgentEnv(game, load(game).min_players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env, skip_render_check=True)
        sb3_check_env(env, warn=True)


def test_every_game_has_a_checked_environment() -> None:
    """The parametrised checker test covers at least the four games with encodings."""
    assert len(ENCODED) >= 4


@pytest.mark.parametrize("opponent", ["random", "easy"])
def test_same_seed_replays_the_same_episode(opponent: str) -> None:
    """A seed fixes the game, the bots' choices and so every observation and reward;
    another seed gives another episode."""
    env = SingleAgentEnv(CHEAP, 2, opponents=opponent)
    first = play_episode(env, seed=11)
    again = play_episode(env, seed=11)
    other = play_episode(env, seed=12)
    assert len(first[0]) == len(again[0])
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0], strict=True))
    assert first[1] == again[1]
    assert len(first[0]) != len(other[0]) or not all(
        np.array_equal(a, b) for a, b in zip(first[0], other[0], strict=True))


def test_numpy_seed_is_the_same_seed() -> None:
    """``reset(seed=np.int64(n))`` is ``reset(seed=n)``; a float seed is a ValueError."""
    env = SingleAgentEnv(CHEAP, 2)
    plain, _ = env.reset(seed=5)
    numpy, _ = env.reset(seed=np.int64(5))
    assert np.array_equal(plain, numpy)
    with pytest.raises(ValueError):
        env.reset(seed=5.0)  # type: ignore[arg-type]


def test_unseeded_resets_follow_the_last_seed() -> None:
    """Without a seed, reset draws the game from the generator the last seed set."""
    env = SingleAgentEnv(CHEAP, 2)
    env.reset(seed=3)
    first = [env.reset()[0] for _ in range(3)]
    env.reset(seed=3)
    again = [env.reset()[0] for _ in range(3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_rewards_add_up_to_the_outcome() -> None:
    """Without shaping, an episode's rewards sum to the learner's end reward: 1 when it wins
    alone, 0 when the bot wins."""
    env = SingleAgentEnv(CHEAP, 2, seat=1)
    results = set()
    for seed in range(6):
        _, rewards, info = play_episode(env, seed)
        won = "player_1" in info["winners"]
        expected = 1.0 / len(info["winners"]) if won else 0.0
        assert sum(rewards) == pytest.approx(expected)
        assert all(r == 0.0 for r in rewards[:-1])
        results.add(won)
    assert results == {True, False}


def test_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    """An action the mask forbids, or outside the space, terminates with illegal_reward and
    info illegal_action, leaving the game as it was; stepping on raises until reset."""
    env = SingleAgentEnv(CHEAP, 2, illegal_reward=-2.5)
    for bad in ("forbidden", env.action_space.n, -1):
        obs, _ = env.reset(seed=4)
        mask = env.action_masks()
        action = int(np.flatnonzero(~mask)[0]) if bad == "forbidden" else bad
        before = env.aec.state()
        after_obs, reward, terminated, truncated, info = env.step(action)
        after = env.aec.state()
        assert (reward, terminated, truncated, info) == (-2.5, True, False,
                                                          {"illegal_action": True})
        assert np.array_equal(after_obs, obs)
        assert after.log() == before.log() and after.legal_actions() == before.legal_actions()
        assert after.to_move == before.to_move
        assert not env.action_masks().any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(int(np.flatnonzero(mask)[0]))


def test_learner_sees_only_its_own_seat() -> None:
    """The observation is the AEC observe of the learner's seat, and the same in every world
    that re-deals what the seat cannot see (the other hands, the deck)."""
    env = SingleAgentEnv(HIDDEN, 2, seat=None)
    aec = pettingzoo_env(HIDDEN, 2)
    width = len(env.aec.encoding.observation_high)
    rng = np.random.default_rng(1)
    seats, other_views_differ = set(), False
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        seat = info["seat"]
        seats.add(seat)
        for _ in range(15):
            state = env.aec.state()
            assert np.array_equal(obs, env.aec.observe(f"player_{seat}")["observation"])
            for k in range(3):
                world = state.determinize(seat, Rng(k))
                assert np.array_equal(obs[:width], aec.encoding.observation(world, seat))
                other = 1 - seat
                other_views_differ |= not np.array_equal(
                    aec.encoding.observation(world, other), aec.encoding.observation(state, other))
            obs, _, terminated, truncated, info = env.step(
                rng.choice(np.flatnonzero(env.action_masks())))
            if terminated or truncated:
                break
    assert other_views_differ
    assert seats == {0, 1}


def test_drawn_seat_follows_the_seed() -> None:
    """With seat=None the seat is drawn from the reset's seed: the same seed, the same seat;
    the bots move first when the learner's seat does not."""
    env = SingleAgentEnv(CHEAP, 2, seat=None)
    drawn = {seed: env.reset(seed=seed)[1]["seat"] for seed in range(8)}
    assert set(drawn.values()) == {0, 1}
    assert all(env.reset(seed=seed)[1]["seat"] == seat for seed, seat in drawn.items())
    for seed in drawn:
        env.reset(seed=seed)
        assert env.aec.agent_selection == f"player_{env.seat}"
        assert env.action_masks().any()


def test_one_spec_per_other_seat() -> None:
    """A list gives each other seat its bot, in seat order; a spec alone serves all."""
    env = SingleAgentEnv(CHEAP, 3, seat=1, opponents=["random", "easy"])
    assert env.specs == ["random", "easy"]
    assert SingleAgentEnv(CHEAP, 3, opponents="easy").specs == ["easy", "easy"]
    _, rewards, info = play_episode(env, seed=2)
    assert info["winners"]


@pytest.mark.parametrize("opponents", [["random"], ["random", "random", "random"],
                                       ["nobody", "random"], "nobody", [1, 2]])
def test_wrong_opponents_are_refused(opponents: Any) -> None:
    """The wrong number of specs, an unknown bot or a spec that is no text: ValueError."""
    with pytest.raises(ValueError):
        SingleAgentEnv(CHEAP, 3, opponents=opponents)


@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_wrong_seat_is_refused(seat: Any) -> None:
    """A seat outside the table, or not a whole number: ValueError."""
    with pytest.raises(ValueError):
        SingleAgentEnv(CHEAP, 2, seat=seat)


def test_reset_options_reach_the_game() -> None:
    """reset(options=...) sets up that game with the game's options (Guards! Guards!'s
    spells); a value the game refuses is a ValueError."""
    guards = load("guards-guards")
    wanted = guards.new_game(2, seed=5, spells=2)
    assert wanted.position() != guards.new_game(2, seed=5).position()
    env = SingleAgentEnv("guards-guards", 2, seat=wanted.to_move)
    env.reset(seed=5, options={"spells": 2})
    assert env.aec.state().position() == wanted.position()
    with pytest.raises(ValueError, match="spells"):
        env.reset(seed=5, options={"spells": 9})
