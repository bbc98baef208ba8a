"""Guards! Guards!'s PettingZoo layout 1 (``encoding_v1``, issue 33): the actions chosen head by
head reach exactly the legal actions, and the scaled observation stays in [0, 1] and shows
only what the seat may see (rulings 69-70). The docstring tables and the pins are checked
for every game in ``tests/test_encodings.py``; PettingZoo's own tests in
``test_conformance.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import citywatch
from citywatch.bots import Observation, make_bot
from citywatch.core.rng import Rng
from citywatch.env import env_from_state, pettingzoo_env
from citywatch.env.factored import HeadByHead, choosing_size
from citywatch.games.guards_guards import encoding as v0
from citywatch.games.guards_guards import encoding_v1 as v1
from citywatch.games.guards_guards.actions import VERBS, Action, route_names
from citywatch.games.guards_guards.state import GuardsGuardsState

GAME = citywatch.load("guards-guards")
ENCODING = GAME.encoding(1)
assert ENCODING is not None


def random_states(games: int, seed: int) -> Iterator[GuardsGuardsState]:
    """Every decision of ``games`` random games (2 to 6 players in turn), then the end."""
    for k in range(games):
        state = GAME.new_game(2 + k % 5, seed=seed + k)
        assert isinstance(state, GuardsGuardsState)
        rng = random.Random(seed + k)
        while True:
            yield state
            if state.to_move is None:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_layout_1_is_the_newest_and_keeps_layout_0s_sizes() -> None:
    """Version 1 is the default; its actions are layout 0's numbering, its observation layout
    0's numbers; the environment chooses from the widest head and adds the choosing block."""
    newest = GAME.encoding()
    assert newest is not None and newest.version == 1
    assert ENCODING.version == 1 and ENCODING.actions is v0.ACTIONS and ENCODING.index is v0.INDEX
    assert len(ENCODING.actions) == v0.NUM_ACTIONS and v1.OBS_SIZE == v0.OBS_SIZE
    assert ENCODING.scale is not None and len(ENCODING.scale) == v0.OBS_SIZE
    assert np.all(ENCODING.observation_high == 1.0)
    env = pettingzoo_env("guards-guards", players=4, version=1)
    assert env.metadata["name"] == "citywatch_guards_guards_v1"
    assert env.action_space("player_0").n == max(ENCODING.heads) == 159
    box = env.observation_space("player_0")["observation"]
    assert box.shape == (v0.OBS_SIZE + choosing_size(ENCODING.heads),)


def test_heads_are_the_verb_then_each_field_position() -> None:
    """Head 0 numbers the verbs; each later head is as large as the largest field (value + 1)
    that takes it, a route's five base-5 digits (+ 1) taking one head each."""
    heads = ENCODING.heads
    assert heads[0] == len(v0.VERB_NAMES) == len(set(v0.VERB_NAMES) & set(VERBS))
    widest: dict[int, int] = {}
    for name in v0.VERB_NAMES:
        at = 1
        for _, kind in VERBS[name].fields:
            sizes = [6] * 5 if kind == "route" else [v0._KIND_SIZE[kind] + 1]
            for size in sizes:
                widest[at] = max(widest.get(at, 0), size)
                at += 1
    assert heads == (heads[0], *(widest[k] for k in range(1, len(heads))))
    assert heads == (78, 159, 159, 6, 6, 6)


def test_parts_name_each_action_once_and_fit_the_heads() -> None:
    """Every action of the 51,477 has its own parts, each within its head; a route's heads
    are its quadrants in order (quadrant + 1, 0 after the last)."""
    parts = ENCODING.parts
    assert parts is not None
    seen: set[tuple[int, ...]] = set()
    for index in range(len(ENCODING.actions)):
        action = ENCODING.actions[index]
        values = parts(action)
        assert len(values) == len(ENCODING.heads)
        assert all(0 <= v < size for v, size in zip(values, ENCODING.heads, strict=True))
        assert v0.VERB_NAMES[values[0]] == action.verb
        seen.add(values)
    assert len(seen) == len(ENCODING.actions)
    route = Action("choose_route", 3 + 5 * 1 + 25 * 4)  # quadrants 2, 0, 3 in order
    names = [q.lower() for q in route_names(route.x)]
    assert parts(route)[1:] == (4, 2, 5, 1, 1)
    assert [v0.QUADRANTS[d - 2] for d in parts(route)[1:] if d > 1] == names
    assert parts(Action("choose_route"))[1:] == (0, 0, 0, 0, 0)  # unused, unlike code 0


def reachable(chooser: HeadByHead) -> list[Any]:
    """Every action reached by choosing, head after head, each value the mask allows."""
    found: list[Any] = []
    for value in np.flatnonzero(chooser.mask()):
        branch = chooser.copy()
        action = branch.choose(int(value))
        found += reachable(branch) if action is None else [action]
    return found


def test_head_by_head_reaches_every_legal_action_and_nothing_else() -> None:
    """Random 4-player games through ``pettingzoo_env(version=1)``: at every decision the
    actions reachable by following the masks are exactly the legal actions, each once; the
    environment shows the same mask at every head, and random masked steps play to the end."""
    parts = ENCODING.parts
    assert parts is not None
    rng = np.random.default_rng(7)
    decisions = steps = 0
    for seed in range(2):
        env = pettingzoo_env("guards-guards", players=4, version=1)
        env.reset(seed=seed)
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            agent = env.agent_selection
            legal = env.state().legal_actions()
            chooser = HeadByHead(ENCODING.heads, parts)
            assert chooser.start(legal) is None, "a single legal action is taken for the agent"
            found = reachable(chooser)
            assert sorted(found) == sorted(legal) and len(found) == len(set(found))
            decisions += 1
            action = None
            while action is None:
                assert env.agent_selection == agent
                mask = env.last()[0]["action_mask"]
                assert np.array_equal(mask, chooser.mask())
                value = int(rng.choice(np.flatnonzero(mask)))
                env.step(value)
                action = chooser.choose(value)
                steps += 1
            assert action in legal
    assert decisions > 300 and steps > decisions


def test_every_legal_action_takes_its_own_steps() -> None:
    """``action_steps`` walks any legal action through the heads: at a few decisions, each
    legal action's steps, taken in a copy of the environment, apply that action (and then any
    decision with a single legal action, which the environment takes itself)."""
    env = pettingzoo_env("guards-guards", players=4, version=1)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(40):
        state = env.state()
        legal = state.legal_actions()
        for action in legal:
            steps = env.action_steps(action)
            assert 1 <= len(steps) <= len(ENCODING.heads)
            expected = state.copy()
            expected.apply(action)
            while expected.to_move is not None and len(expected.legal_actions()) == 1:
                expected.apply(expected.legal_actions()[0])
            branch = env_from_state(state, version=1)
            for step in steps:
                branch.step(step)
            assert branch.state().position() == expected.position()
            checked += 1
        for step in env.action_steps(legal[int(rng.integers(len(legal)))]):
            env.step(step)
    assert checked > 80


def test_observation_is_scaled_to_0_1_and_hides_what_the_seat_cannot_see() -> None:
    """Rulings 69-70: another hand, the Saboteurs' identities and the decks' order are
    hidden, so a world re-sampled for the seat (``determinize``) gives the seat the same
    observation; every number is layout 0's divided by its scale, within [0, 1]."""
    scale = np.asarray(ENCODING.scale)
    resampled = 0
    for k, state in enumerate(random_states(6, 40)):
        if k % 23:
            continue
        for seat in range(state.n):
            vector = ENCODING.observation(state, seat)
            assert vector.shape == (v1.OBS_SIZE,) and vector.dtype == np.float32
            assert vector.min() >= 0.0 and vector.max() <= 1.0
            expected = np.minimum(v0.observation(state, seat) / scale, 1.0)
            assert np.allclose(vector, expected, atol=1e-6)
            if state.to_move is not None:
                twin = state.determinize(seat, Rng(k))
                resampled += twin.position() != state.position()
                assert np.array_equal(ENCODING.observation(twin, seat), vector)
    assert resampled > 100


def test_the_scales_hold_the_measured_games() -> None:
    """The scales are the maxima of the documented measurement: the first 5 of its random
    games (seeds 1000-1004) never reach past any scale, so nothing there is clipped."""
    scale = np.asarray(ENCODING.scale)
    for state in random_states(5, 1000):
        seat = 0 if state.to_move is None else state.to_move
        assert np.all(v0.observation(state, seat) <= scale)


def test_potential_follows_the_judging_spells_then_dollars() -> None:
    """Winning the Game: the first to return all their Great Spells wins; a stopped Short
    Game is judged by spells, then dollars (ruling 48). The potential is 0.9 times the share
    of spells returned (Short Game: of the agreed number) plus 0.1 times the seat's share of
    the dollars, the same in a re-sampled world, and one spell outweighs every dollar."""
    potential = ENCODING.potential
    assert potential is not None
    state = GAME.new_game(3, seed=5, spells=2)
    assert isinstance(state, GuardsGuardsState)
    state.dollars = [0, 0, 0]
    assert potential(state, 0) == pytest.approx(0.1 / 3)
    state.returned[1] = (0,)
    assert potential(state, 1) == pytest.approx(0.45 + 0.1 / 3)
    state.dollars = [6, 2, 0]
    assert potential(state, 0) == pytest.approx(0.1 * 6 / 8)
    assert potential(state, 1) == pytest.approx(0.45 + 0.1 * 2 / 8)
    assert potential(state, 1) > potential(state, 0)  # a spell beats the richer purse
    assert potential(state.determinize(1, Rng(1)), 1) == potential(state, 1)
    state.returned[1] = (0, 3)
    assert potential(state, 1) == pytest.approx(0.9 + 0.1 * 2 / 8)
    state.dollars = [0, 8, 0]
    assert potential(state, 1) == 1.0


def test_shaped_rewards_follow_returned_spells_and_sum_to_the_game_less_the_start() -> None:
    """With ``shaping``, a seat earns at least ``shaping * (0.45 - 0.1)`` when it returns one
    of two spells (a dollar change moves its reward by at most ``0.1 * shaping``), and the
    shaped rewards of a whole game add up to the game's own reward less ``shaping`` times
    the first potential (the potential counts 0 at the end). The heuristic bot plays every
    seat of a Short Game of two spells, which ends when a seat returns its second."""
    weight = 0.5
    bot = make_bot("heuristic", "guards-guards")
    totals: dict[str, float] = {}
    plain: dict[str, float] = {}
    first: dict[str, float] = {}
    rises = 0
    for shaping, into in ((weight, totals), (0.0, plain)):
        env = pettingzoo_env("guards-guards", players=2, version=1, shaping=shaping,
                             options={"spells": 2})
        env.reset(seed=4)
        potential = ENCODING.potential
        assert potential is not None
        first = {agent: potential(env.state(), seat)
                 for seat, agent in enumerate(env.possible_agents)}
        rng = Rng(4)
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            into[agent] = into.get(agent, 0.0) + reward
            if terminated or truncated:
                env.step(None)
                continue
            if shaping and reward > 0.2 * weight:
                rises += 1
            state = env.state()
            assert state.to_move is not None
            choice = bot.choose(Observation(state, state.to_move), state.legal_actions(), rng)
            for step in env.action_steps(choice):
                env.step(step)
        outcome = env.state().outcome()
        assert outcome is not None and outcome.reason == "the Final Spell returned"
    assert rises >= 1
    assert sorted(totals) == sorted(plain) == ["player_0", "player_1"]
    assert all(abs(totals[a] - (plain[a] - weight * first[a])) < 1e-9 for a in plain)
