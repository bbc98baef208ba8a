"""Guardians of the City's PettingZoo encoding (``encoding.py``): the fixed action space, the
mask and the observation (ruling 17: what a seat may see). PettingZoo's own ``api_test`` and
``seed_test`` run in ``test_conformance.py``."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pytest

import citywatch
from citywatch.core.rng import Rng
from citywatch.env import pettingzoo_env
from citywatch.games.guardians_of_the_city.actions import VERBS, Action
from citywatch.games.guardians_of_the_city.encoding import (
    ACTIONS,
    INDEX,
    LAYOUT,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_SIZE,
    VERB_RANGES,
    action_mask,
    observation,
)
from citywatch.games.guardians_of_the_city.state import GotcState

GAME = citywatch.load("guardians-of-the-city")


def random_states(games: int, seed: int) -> Iterator[GotcState]:
    """Every decision of ``games`` random games (2, 3 and 4 players in turn), to the end."""
    for k in range(games):
        state = GAME.new_game(players=2 + k % 3, seed=seed + k)
        rng = Rng(seed + k)
        while True:
            yield state
            if state.to_move is None:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


def test_the_game_offers_its_encoding() -> None:
    encoding = GAME.encoding()
    assert encoding is not None
    assert encoding.actions is ACTIONS and encoding.index is INDEX
    assert encoding.observation_high is OBS_HIGH and OBS_HIGH.shape == (OBS_SIZE,)


def test_action_space_is_a_fixed_bijection_over_the_declared_verbs() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(INDEX) == len(set(ACTIONS))
    assert all(INDEX[a] == i for i, a in enumerate(ACTIONS))
    assert set(VERB_RANGES) == set(VERBS)
    ranges = sorted(VERB_RANGES.values())
    assert ranges[0][0] == 0 and ranges[-1][1] == NUM_ACTIONS
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    for verb, (start, stop) in VERB_RANGES.items():
        assert {a.verb for a in ACTIONS[start:stop]} == {verb}
    layout = sorted(LAYOUT.values())
    assert layout[0][0] == 0 and sum(size for _, size in layout) == OBS_SIZE


def test_every_legal_action_round_trips_and_the_mask_is_the_legal_actions() -> None:
    """Random games at 2-4 players: each legal action encodes to a number that decodes to
    itself (and its JSON form reads back), the mask marks exactly the legal actions, and every
    observation stays in its box."""
    decisions = 0
    seen: set[str] = set()
    for state in random_states(12, 300):
        mask = action_mask(state)
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
        for seat in range(state.n):
            vector = observation(state, seat)
            assert vector.shape == (OBS_SIZE,) and vector.dtype == np.float32
            assert (vector >= 0).all() and (vector <= OBS_HIGH).all()
        if state.to_move is None:
            assert not mask.any()
            winners = observation(state, 0)[slice(LAYOUT["winners"][0],
                                                  sum(LAYOUT["winners"]))]
            assert np.flatnonzero(winners).tolist() == sorted(state.outcome().winners)
            continue
        legal = state.legal_actions()
        for action in legal:
            assert ACTIONS[INDEX[action]] == action
            assert Action.from_json(action.to_json()) == action
            seen.add(action.verb)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(INDEX[a] for a in legal)
        assert int(mask.sum()) == len(set(legal)) == len(legal)
        decisions += 1
    assert decisions > 1000 and len(seen) >= 8


def test_observations_do_not_change_when_only_hidden_cards_change() -> None:
    """Ruling 17: another world with the other hands (but for cards everybody saw) and every
    deck's order re-drawn gives the seat the same view, observation and mask; a seat whose own
    hand was re-drawn sees the difference."""
    compared = differed = 0
    for k, state in enumerate(random_states(6, 700)):
        if k % 7 or state.to_move is None:
            continue
        for seat in range(state.n):
            twin = state.determinize(seat, Rng(k * 10 + seat))
            assert twin.view(seat) == state.view(seat)
            assert np.array_equal(observation(twin, seat), observation(state, seat))
            if state.to_move == seat:
                assert np.array_equal(action_mask(twin), action_mask(state))
            compared += 1
            for other in range(state.n):
                if other != seat and sorted(twin.hand[other]) != sorted(state.hand[other]):
                    assert not np.array_equal(observation(twin, other),
                                              observation(state, other))
                    differed += 1
    assert compared >= 100 and differed >= 30


def test_a_bad_seat_is_refused() -> None:
    state = GAME.new_game(players=2, seed=1)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="seat must be 0 to 1"):
            observation(state, seat)


def test_the_environment_plays_a_game_to_the_end() -> None:
    """The PettingZoo environment: the mask of the agent to move is its legal actions, the
    others' masks are empty, and the rewards of a finished game sum to 1."""
    env = pettingzoo_env("guardians-of-the-city", players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    rewards: dict[str, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            assert env.observation_space(agent).contains(obs)
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            state = env.state()
            legal = np.flatnonzero(obs["action_mask"])
            assert sorted(legal.tolist()) == sorted(INDEX[a] for a in state.legal_actions())
            assert all(not env.observe(o)["action_mask"].any() for o in env.agents if o != agent)
            env.step(int(legal[rng.integers(len(legal))]))
    assert len(rewards) == 3 and sum(rewards.values()) == pytest.approx(1.0)
