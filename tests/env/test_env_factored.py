"""The environment's factored actions and shaped rewards, on any encoding (issue 33).

Guardians of the City's layout 0 is given two heads here, its verb and the action's place in
the verb, and a potential (the share of turns played), so these tests check the
environment's own machinery whatever the games' layouts do: each head masked to what the
heads before allow, every step leading to a legal action, the steps of a chosen action, and
the shaped rewards summing to the potential's change.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np
import pytest

import citywatch
from citywatch.core.presentation import Encoding
from citywatch.env import aec, pettingzoo_env

GAME = "guardians-of-the-city"


def factored(enc: Encoding, potential: Any = None) -> Encoding:
    """``enc`` with two heads: the verb's number, the action's place within its verb."""
    starts = sorted(start for start, _ in enc.verbs.values())
    widest = max(stop - start for start, stop in enc.verbs.values())

    def parts(action: Any) -> tuple[int, ...]:
        index = enc.index[action]
        verb = max(i for i, start in enumerate(starts) if start <= index)
        return (verb, index - starts[verb])

    return dataclasses.replace(enc, heads=(len(starts), widest), parts=parts,
                               potential=potential)


def turns_played(state: Any, seat: int) -> float:
    """A potential from what the seat may see: how much its log has grown (tests only)."""
    return min(1.0, len(state.log(seat)) / 400.0)


@pytest.fixture
def heads(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = aec.encoding

    def encoding(game: str, version: int | None = None) -> Encoding:
        return factored(plain(game, version), turns_played)

    monkeypatch.setattr(aec, "encoding", encoding)


@pytest.mark.usefixtures("heads")
def test_each_head_is_one_discrete_choice_masked_by_the_heads_before() -> None:
    env = pettingzoo_env(GAME, players=2)
    enc = env.encoding
    env.reset(seed=3)
    assert env.action_space("player_0").n == max(enc.heads)
    rng = np.random.default_rng(0)
    decisions = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.state()
        legal = state.legal_actions()
        mask = obs["action_mask"]
        choosing = obs["observation"][-(len(enc.heads) + sum(enc.heads)):]
        head = int(np.flatnonzero(choosing[:len(enc.heads)])[0])
        assert enc.parts is not None
        allowed = {enc.parts(a)[head] for a in legal
                   if list(enc.parts(a)[:head]) == _chosen(choosing, enc.heads, head)}
        assert set(np.flatnonzero(mask).tolist()) == allowed, agent
        value = int(rng.choice(np.flatnonzero(mask)))
        env.step(value)
        decisions += env.state().position() != state.position()
    assert decisions > 20


def _chosen(block: Any, heads: tuple[int, ...], head: int) -> list[int]:
    """The values chosen for the heads before ``head``, read from the choosing block."""
    values, offset = [], len(heads)
    for size in heads[:head]:
        values.append(int(np.flatnonzero(block[offset:offset + size])[0]))
        offset += size
    return values


@pytest.mark.usefixtures("heads")
def test_the_steps_of_an_action_play_that_action() -> None:
    """``action_steps(action)`` are the choices that apply exactly that legal action."""
    env = pettingzoo_env(GAME, players=2)
    env.reset(seed=5)
    for k in range(40):
        state = env.state()
        if state.to_move is None:
            break
        legal = state.legal_actions()
        action = legal[k % len(legal)]
        for value in env.action_steps(action):
            env.step(value)
        expected = state.copy()
        expected.apply(action)
        assert env.state().position() == expected.position() or env.state().to_move is None
    with pytest.raises(ValueError, match="not legal"):
        env.action_steps(object())


@pytest.mark.usefixtures("heads")
def test_a_forbidden_head_value_raises_and_changes_nothing() -> None:
    env = pettingzoo_env(GAME, players=2)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state().position()
    with pytest.raises(citywatch.IllegalAction):
        env.step(forbidden)
    assert env.state().position() == before
    assert (env.observe(env.agent_selection)["action_mask"] == obs["action_mask"]).all()


@pytest.mark.usefixtures("heads")
def test_shaped_rewards_add_up_to_the_change_of_potential() -> None:
    """Potential-based shaping: over a game each seat's shaped rewards sum to
    ``shaping * (0 - potential at the start)`` (the potential is 0 once the game is over), on
    top of the end rewards; ``shaping=0`` gives the end rewards alone."""
    totals: dict[float, dict[str, float]] = {}
    for weight in (0.0, 0.5):
        env = pettingzoo_env(GAME, players=2, shaping=weight)
        env.reset(seed=9)
        rng = np.random.default_rng(1)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        totals[weight] = total
    first = pettingzoo_env(GAME, players=2)
    first.reset(seed=9)
    for agent, plain in totals[0.0].items():
        seat = int(agent.split("_")[1])
        assert totals[0.5][agent] == pytest.approx(
            plain - 0.5 * turns_played(first.state(), seat))


def test_shaping_needs_a_potential() -> None:
    enc = aec.encoding(GAME)
    if enc.potential is None:
        with pytest.raises(ValueError, match="no shaped rewards"):
            pettingzoo_env(GAME, players=2, shaping=0.5)


@pytest.mark.usefixtures("heads")
def test_pettingzoo_api_test_passes_with_factored_actions() -> None:
    env = pettingzoo_env(GAME, players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.test import api_test

        api_test(env, num_cycles=300)
