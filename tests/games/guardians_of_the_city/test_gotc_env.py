"""Guardians of the City's PettingZoo encoding (``encoding.py``): the fixed action space, the
mask and the observation (ruling 17: what a seat may see); layout 1 (``encoding_v1.py``, issue
33): layout 0 scaled to [0, 1], and the potential. PettingZoo's own ``api_test`` and
``seed_test`` run in ``test_conformance.py``."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

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
from citywatch.games.guardians_of_the_city.encoding_v1 import SCALES, potential
from citywatch.games.guardians_of_the_city.state import GotcState

GAME = citywatch.load("guardians-of-the-city")
V0, V1 = GAME.encoding(0), GAME.encoding(1)
PINS = Path(__file__).resolve().parents[2] / "encodings.json"


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
    encoding = GAME.encoding(0)
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


# --- layout 1 ---------------------------------------------------------------------------------
def test_layout_1_keeps_layout_0s_actions_and_blocks_and_scales_every_number() -> None:
    """Layout 1 is the newest: the same 1543 flat actions and 1098 numbers in the same blocks,
    every number's high 1.0, every scale above 0 and at most layout 0's max."""
    assert GAME.encoding().version == V1.version == 1
    assert len(V1.actions) == 1543 and len(V1.observation_high) == 1098
    assert V1.actions is ACTIONS and V1.index is INDEX and V1.action_mask is action_mask
    assert V1.blocks == LAYOUT and V1.verbs == VERB_RANGES and V1.heads == ()
    assert (np.asarray(V1.observation_high) == 1.0).all()
    assert V1.scale is not None and len(V1.scale) == OBS_SIZE
    scale = np.asarray(V1.scale)
    assert (scale > 0).all() and (scale <= OBS_HIGH).all()
    for name, value in SCALES.items():
        start, size = LAYOUT[name]
        assert (scale[start:start + size] == value).all() and value < OBS_HIGH[start]


def test_layout_1_is_layout_0_divided_by_the_scale_and_clipped() -> None:
    scale = np.asarray(V1.scale, dtype=np.float32)
    checked = 0
    for k, state in enumerate(random_states(6, 40)):
        if k % 5:
            continue
        for seat in range(state.n):
            expected = np.minimum(observation(state, seat) / scale, 1.0)
            assert np.array_equal(V1.observation(state, seat), expected)
            checked += 1
    assert checked > 300


def test_support_is_scaled_by_the_groups_maximum_at_the_start() -> None:
    """Every Citizen Group starts at its maximum support, 4 (rulebook set-up): 1.0 in layout
    1's support block for each seat at the table, 0 for the seats it lacks."""
    state = GAME.new_game(players=3, seed=5)
    support, size = LAYOUT["support"]
    assert V1.observation(state, 0)[support:support + size].tolist() == [1.0] * 12 + [0.0] * 4


def test_a_hidden_twin_gets_the_same_layout_1_observation_and_potential() -> None:
    """Ruling 17: other hands (but cards everybody saw) and every deck's order re-drawn
    (``determinize``): the seat's layout 1 observation and potential do not change; a seat
    whose own hand was re-drawn sees the difference."""
    compared = differed = 0
    for k, state in enumerate(random_states(4, 900)):
        if k % 7 or state.to_move is None:
            continue
        for seat in range(state.n):
            twin = state.determinize(seat, Rng(k * 10 + seat))
            assert np.array_equal(V1.observation(twin, seat), V1.observation(state, seat))
            assert potential(twin, seat) == potential(state, seat)
            compared += 1
            for other in range(state.n):
                if other != seat and sorted(twin.hand[other]) != sorted(state.hand[other]):
                    assert not np.array_equal(V1.observation(twin, other),
                                              V1.observation(state, other))
                    differed += 1
    assert compared >= 60 and differed >= 20


def test_the_potential_is_the_lead_on_the_scores_the_view_shows() -> None:
    """Ruling 19's score, as every seat's view shows it: the potential is the seat's score
    over its score plus the best other seat's (0.5 while both are 0), in [0, 1]."""
    checked = 0
    for k, state in enumerate(random_states(6, 1300)):
        if k % 3 or state.to_move is None:
            continue
        for seat in range(state.n):
            scores = [other["score"] for other in state.view(seat)["seats"]]
            own = scores.pop(seat)
            both = own + max(scores)
            assert potential(state, seat) == pytest.approx(own / both if both else 0.5)
            assert 0.0 <= potential(state, seat) <= 1.0
            checked += 1
    assert checked > 300


def test_layout_0_is_unchanged() -> None:
    """Layout 0 is the unscaled layout it was: its own observation and highs, no scale, no
    potential, and the fingerprint pinned for version 0."""
    assert V0.version == 0 and V0.scale is None and V0.potential is None
    assert V0.observation is observation and V0.observation_high is OBS_HIGH
    assert float(OBS_HIGH[LAYOUT["turn"][0]]) == 999.0
    pinned = json.loads(PINS.read_text(encoding="utf-8"))["guardians-of-the-city"]["0"]
    assert V0.fingerprint() == pinned
    assert pettingzoo_env("guardians-of-the-city", players=2, version=0).metadata["name"] \
        == "citywatch_guardians_of_the_city_v0"
