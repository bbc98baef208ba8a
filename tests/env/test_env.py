"""The PettingZoo environment (citywatch.env): Ankh-Morpork's masks, hidden information and
copies, and game options (Guards! Guards!'s Short Game); PettingZoo's api_test and seed_test,
for every game with default options, are in test_conformance.py."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import hidden_twin, state_after

import citywatch
from citywatch.bots import Observation, make_bot
from citywatch.core.rng import Rng
from citywatch.env import CitywatchEnv, env_from_state, pettingzoo_env
from citywatch.games.ankh_morpork.encoding import (
    ACTIONS,
    INDEX,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_SIZE,
    VERB_RANGES,
    action_index,
    index_action,
    observation,
)
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.games.guards_guards.state import GuardsGuardsState

GAME = citywatch.load("ankh-morpork")
GUARDS = citywatch.load("guards-guards")
ROOT = Path(__file__).resolve().parents[2]


def random_index(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def test_action_space_is_a_fixed_bijection() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(INDEX)
    assert all(index_action(action_index(a)) == a for a in ACTIONS)
    starts = sorted(VERB_RANGES.values())
    assert starts[0][0] == 0 and starts[-1][1] == NUM_ACTIONS
    assert all(a[1] == b[0] for a, b in zip(starts, starts[1:], strict=False))
    for verb, (start, stop) in VERB_RANGES.items():
        assert {a.verb for a in ACTIONS[start:stop]} == {verb}
    with pytest.raises(IndexError):
        index_action(NUM_ACTIONS)


def test_masks_match_legal_actions_in_many_games() -> None:
    """30 random games through the environment: at every step the mask is exactly
    the legal actions, the observation keeps its shape, and the rewards sum to 1."""
    rng = np.random.default_rng(0)
    steps = 0
    for k in range(30):
        players = 2 + k % 3
        env = pettingzoo_env("ankh-morpork", players=players)
        env.reset(seed=100 + k)
        ended: dict[str, tuple[float, dict[str, object]]] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            vector, mask = obs["observation"], obs["action_mask"]
            assert vector.shape == (OBS_SIZE,) and vector.dtype == np.float32
            assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
            assert env.observation_space(agent).contains(obs)
            if terminated or truncated:
                assert not mask.any()
                ended[agent] = (reward, info)
                env.step(None)
                continue
            state = env.state()
            assert agent == f"player_{state.to_move}"
            legal = state.legal_actions()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(INDEX[a] for a in legal)
            assert len(set(legal)) == len(legal) == int(mask.sum())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(random_index(mask, rng))
            steps += 1
        outcome = env.state().outcome()
        assert outcome is not None and len(ended) == players
        assert sum(r for r, _ in ended.values()) == pytest.approx(1.0)
        points = outcome.seat_points()
        for agent, (reward, info) in ended.items():
            seat = int(agent.split("_")[1])
            assert reward == (1 / len(outcome.winners) if seat in outcome.winners else 0.0)
            assert info["points"] == points[seat]
            assert info["reason"] == outcome.reason
    assert steps > 3000


def test_observation_hides_what_the_seat_cannot_see() -> None:
    """A state and its twin with other hands, personalities, deck and dice changed give
    seat A the same observation and mask; a seat whose hand changed sees the difference."""
    compared = differed = 0
    for seed in range(24):
        state = state_after(2 + seed % 3, seed, 11 * seed)
        for seat in range(state.n):
            twin = hidden_twin(state, seat)
            if twin.view(seat) != state.view(seat):
                continue  # a shown hand (Cable Street Particulars) was changed too
            assert np.array_equal(observation(state, seat), observation(twin, seat))
            a, b = env_from_state(state), env_from_state(twin)
            agent = f"player_{seat}"
            assert np.array_equal(a.observe(agent)["action_mask"],
                                  b.observe(agent)["action_mask"])
            compared += 1
            for other in range(state.n):
                if other != seat and state.hands[other] != twin.hands[other]:
                    assert not np.array_equal(observation(state, other),
                                              observation(twin, other))
                    differed += 1
    assert compared >= 50 and differed >= 20


def test_observation_stays_in_its_box() -> None:
    for seed in range(6):
        state = state_after(4, seed, 40 * seed)
        for seat in range(4):
            vector = observation(state, seat)
            assert vector.shape == OBS_HIGH.shape
            assert (vector >= 0).all() and (vector <= OBS_HIGH).all()


def test_state_is_a_copy_and_env_from_state_continues() -> None:
    env = pettingzoo_env("ankh-morpork", players=3)
    env.reset(seed=5)
    assert env.state().position() == GAME.new_game(players=3, seed=5).position()
    rng = np.random.default_rng(1)
    for _ in range(25):
        env.step(random_index(env.last()[0]["action_mask"], rng))
    before = env.state()
    obs = env.observe(env.agent_selection)["observation"]
    copy = env.state()
    assert isinstance(copy, AnkhMorporkState)
    copy.money[0] += 50
    copy.hands[1].clear()
    copy.apply(copy.legal_actions()[0])
    assert env.state().position() == before.position()
    assert np.array_equal(env.observe(env.agent_selection)["observation"], obs)
    # a new environment from the state (or a determinized world) goes on from there
    branch = env_from_state(env.state())
    assert branch.agent_selection == env.agent_selection
    assert np.array_equal(branch.observe(branch.agent_selection)["observation"], obs)
    seat = int(env.agent_selection.split("_")[1])
    world = env.state().determinize(seat, Rng(3))
    sampled = CitywatchEnv.from_state(world)
    assert np.array_equal(sampled.observe(env.agent_selection)["observation"], obs)
    action = random_index(branch.last()[0]["action_mask"], rng)
    branch.step(action)
    assert env.state().position() == before.position()


def test_illegal_and_out_of_range_actions_are_refused() -> None:
    env = pettingzoo_env("ankh-morpork", players=4)
    env.reset(seed=2)
    mask = env.last()[0]["action_mask"]
    with pytest.raises(citywatch.IllegalAction):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError):
        env.step(NUM_ACTIONS)
    with pytest.raises(ValueError):
        env.step(None)
    with pytest.raises(ValueError):
        pettingzoo_env("ankh-morpork", players=5)


def test_reset_without_seed_follows_the_last_seed() -> None:
    a, b = pettingzoo_env("ankh-morpork", players=2), pettingzoo_env("ankh-morpork", players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.state().position() == b.state().position()
    assert a.state().position() != GAME.new_game(players=2, seed=9).position()


def test_example_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "pettingzoo_loop.py"), "--games", "2"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert out.count("random game") == 2
    assert "ismcts:iterations=50 as player_0" in out


# --- game options ------------------------------------------------------------------------------

def heuristic_episode(env: CitywatchEnv, seed: int) -> dict[str, tuple[float, dict[str, Any]]]:
    """Play the environment's game to the end with the game's heuristic bot in every seat;
    each agent's final reward and info."""
    bot = make_bot("heuristic", env.game.name)
    rng = Rng(seed)
    final: dict[str, tuple[float, dict[str, Any]]] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            env.step(None)
            continue
        state = env.state()
        seat = state.to_move
        assert seat is not None
        choice = bot.choose(Observation(state, seat), state.legal_actions(), rng)
        for step in env.action_steps(choice):
            env.step(step)
    return final


def test_game_options_start_every_reset() -> None:
    """Options given to the environment are the game's set-up (Short Game, Winning the Game):
    reset(seed) is new_game(players, seed, **options), and a later reset keeps them."""
    env = pettingzoo_env("guards-guards", players=3, options={"spells": 2})
    assert env.options == {"spells": 2, "rounds": 100}
    assert env.metadata["options"] == {"spells": 2, "rounds": 100}
    env.reset(seed=4)
    assert env.state().position() == GUARDS.new_game(3, seed=4, spells=2).position()
    env.reset()
    state = env.state()
    assert isinstance(state, GuardsGuardsState)
    assert (state.spells_to_win, state.rounds) == (2, 100)
    assert pettingzoo_env("guards-guards", players=3).options == {"spells": 5, "rounds": 100}
    assert pettingzoo_env("ankh-morpork", players=3).metadata["options"] == {}


def test_reset_options_set_up_that_game_only() -> None:
    """PettingZoo's per-reset ``options`` are game options for that game (over the
    environment's own); the next reset without them goes back to the environment's."""
    env = pettingzoo_env("guards-guards", players=3, options={"spells": 2})
    env.reset(seed=5, options={"spells": 4})
    assert env.state().position() == GUARDS.new_game(3, seed=5, spells=4).position()
    env.reset(seed=5)
    assert env.state().position() == GUARDS.new_game(3, seed=5, spells=2).position()
    assert env.options == {"spells": 2, "rounds": 100}


def test_a_reset_option_the_game_lacks_is_named_in_a_warning() -> None:
    """An unknown key is ignored loudly, not silently: PettingZoo's api_test resets with
    ``{"options": 1}``, so it warns rather than raises; the known options still hold."""
    env = pettingzoo_env("guards-guards", players=3)
    with pytest.warns(UserWarning, match="reset options spels ignored.*spells, rounds"):
        env.reset(seed=5, options={"spels": 2, "spells": 3})
    assert env.state().position() == GUARDS.new_game(3, seed=5, spells=3).position()


@pytest.mark.parametrize("options, wanted", [
    ({"spells": 9}, "option spells must be a whole number from 1 to 5"),
    ({"spells": 9, "spels": 1}, "option spells must be a whole number from 1 to 5"),
    ([("spells", 2)], "reset options must be a mapping"),
])
def test_bad_reset_options_are_refused_and_change_nothing(options: Any, wanted: str) -> None:
    env = pettingzoo_env("guards-guards", players=3)
    env.reset(seed=1)
    before = env.state().position()
    with pytest.raises(ValueError, match=wanted):
        env.reset(seed=2, options=options)
    assert env.state().position() == before


@pytest.mark.parametrize("seed", [3, np.int64(3), np.uint8(3), np.int32(3)])
def test_any_integer_seed_starts_the_same_game(seed: Any) -> None:
    """A seed is any integer, NumPy's included: the same game as the Python int."""
    env = pettingzoo_env("ankh-morpork", players=3)
    env.reset(seed=seed)
    assert env.state().position() == GAME.new_game(3, seed=3).position()


def test_large_and_negative_seeds_are_seeds_too() -> None:
    env = pettingzoo_env("ankh-morpork", players=3)
    for seed in (2**80 + 1, -7, np.int64(-7)):
        env.reset(seed=seed)
        assert env.state().position() == GAME.new_game(3, seed=int(seed)).position()


@pytest.mark.parametrize("seed", [3.0, "3", True, np.bool_(True), np.float64(3)])
def test_a_seed_that_is_not_an_integer_is_refused(seed: Any) -> None:
    env = pettingzoo_env("ankh-morpork", players=3)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        env.reset(seed=seed)


def test_max_cycles_truncates_every_agent() -> None:
    """``max_cycles``: after max_cycles * players steps in all, every agent is truncated
    (not terminated), with no end reward; each then steps None and the agents empty."""
    env = pettingzoo_env("ankh-morpork", players=3, max_cycles=4)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            assert info == {"truncated": "max_cycles", "steps": 12}
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        env.step(random_index(obs["action_mask"], rng))
        steps += 1
    assert steps == 12 and env.agents == []


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "9", 10**10])
def test_a_bad_max_cycles_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_cycles"):
        pettingzoo_env("ankh-morpork", players=3, max_cycles=bad)


@pytest.mark.parametrize("bad", [-0.1, 1.5, "1", True])
def test_a_bad_shaping_weight_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="shaping"):
        pettingzoo_env("ankh-morpork", players=3, shaping=bad)


def test_each_version_names_its_environment() -> None:
    """``version`` picks the encoding layout: v0 keeps its name and sizes; an unknown version
    is refused before anything starts."""
    env = pettingzoo_env("ankh-morpork", players=3, version=0)
    assert env.metadata["name"] == "citywatch_ankh_morpork_v0"
    assert env.action_space("player_0").n == NUM_ACTIONS
    with pytest.raises(ValueError, match="versions"):
        pettingzoo_env("ankh-morpork", players=3, version=99)


@pytest.mark.parametrize("options, wanted", [
    ({"spells": 6}, "option spells must be a whole number from 1 to 5"),
    ({"spells": 0}, "option spells must be a whole number from 1 to 5"),
    ({"spells": "2"}, "option spells must be"),
    ({"spells": True}, "option spells must be"),
    ({"rounds": -1}, "option rounds must be a whole number from 0 to 300"),
    ({"spels": 2}, "unknown options for guards-guards: spels"),
    ([("spells", 2)], "options must be a mapping"),
])
def test_bad_options_are_refused_before_anything_starts(options: Any, wanted: str) -> None:
    """The game checks the options (Game.option_values): a ValueError names the problem and
    no environment is made."""
    with pytest.raises(ValueError, match=wanted):
        pettingzoo_env("guards-guards", players=3, options=options)


def test_a_game_without_options_refuses_any() -> None:
    with pytest.raises(ValueError, match="it has no options"):
        pettingzoo_env("ankh-morpork", players=3, options={"spells": 2})
    with pytest.raises(ValueError, match="2 to 6 players"):
        pettingzoo_env("guards-guards", players=7, options={"spells": 2})


def test_a_short_game_ends_when_the_agreed_spells_are_returned() -> None:
    """Short Game (Winning the Game): with spells=2 the first seat to return two Great Spells
    wins at once; every agent is terminated with the winner's reward 1 and its 2 points."""
    for seed in range(3):
        env = pettingzoo_env("guards-guards", players=3, options={"spells": 2})
        env.reset(seed=seed)
        final = heuristic_episode(env, seed)
        state = env.state()
        assert isinstance(state, GuardsGuardsState)
        outcome = state.outcome()
        assert outcome is not None and outcome.reason == "the Final Spell returned"
        (winner,) = outcome.winners
        assert len(state.returned[winner]) == 2
        assert all(len(state.returned[p]) < 2 for p in range(3) if p != winner)
        reward, info = final[f"player_{winner}"]
        assert reward == 1.0 and info["points"] == 2
        assert sorted(final) == env.possible_agents


def test_a_round_limit_ends_the_episode() -> None:
    """ruling 6: with rounds=2 the game stops after two rounds and is judged; the episode
    ends there with rewards summing to 1."""
    env = pettingzoo_env("guards-guards", players=2, options={"rounds": 2})
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            assert info["reason"] == "2 rounds played"
            env.step(None)
            continue
        env.step(random_index(obs["action_mask"], rng))
    assert sum(rewards.values()) == pytest.approx(1.0) and len(rewards) == 2
    assert env.state().turn_count() == 2 * 2  # two rounds of two seats' turns


def test_api_test_passes_with_options() -> None:
    """PettingZoo's api_test on a Short Game with a round limit."""
    env = pettingzoo_env("guards-guards", players=3, options={"spells": 1, "rounds": 4})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pettingzoo.test loads old-style environments, and
        from pettingzoo.test import api_test  # dict observations are outside its own list

        api_test(env, num_cycles=300)
    env.reset(seed=0)
    state = env.state()
    assert isinstance(state, GuardsGuardsState) and state.spells_to_win == 1


def test_env_from_state_keeps_the_state_and_takes_options_for_resets() -> None:
    """A branch continues the state's own Short Game; its options serve later resets only."""
    state = GUARDS.new_game(2, seed=8, spells=3)
    branch = env_from_state(state)
    assert branch.state().position() == state.position()
    assert branch.options == {"spells": 5, "rounds": 100}
    branch = env_from_state(state, options={"spells": 3})
    branch.reset(seed=9)
    assert branch.state().position() == GUARDS.new_game(2, seed=9, spells=3).position()
    with pytest.raises(ValueError, match="option spells"):
        env_from_state(state, options={"spells": 9})
