"""Thieves of the Black Keep's layout 1 (``encoding_v1.py``, issue 33): factored action heads
that reach exactly the legal actions, a compact observation scaled to [0, 1] that hides what
the seat may not see (spec 10), and a progress potential read from the seat's view only, with
the environment's shaped rewards built on it. Layout 0 stays pinned (``test_bk_env.py`` and
``tests/test_encodings.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bk_positions as bp
import numpy as np
import pytest

import citywatch
from citywatch.core.rng import Rng
from citywatch.env import pettingzoo_env
from citywatch.env.factored import HeadByHead, choosing_size
from citywatch.games.black_keep import encoding as v0
from citywatch.games.black_keep.actions import ROWS, VERBS, Action
from citywatch.games.black_keep.encoding import ACTIONS, VERB_NAMES, VERB_RANGES
from citywatch.games.black_keep.encoding_v1 import (
    CELL1,
    HEADS,
    LAYOUT,
    MAX_GUARDS,
    OBS_SIZE,
    SCALE,
    SIDE,
    observation,
    parts,
    potential,
)
from citywatch.games.black_keep.state import NONE, STANDINGS, BlackKeepState

GAME = citywatch.load("black-keep")
SCENARIOS = ("tutorial", "the-vault", "the-black-keep")
PINS = Path(__file__).resolve().parents[2] / "encodings.json"


def layout_1() -> Any:
    enc = GAME.encoding(1)
    assert enc is not None
    return enc


def block(vector: np.ndarray, name: str) -> np.ndarray:
    start, size = LAYOUT[name]
    return vector[start:start + size]


def random_states(scenario: str, players: int, mode: str, seed: int) -> Iterator[BlackKeepState]:
    """Every decision of one random game, and its end."""
    state = GAME.new_game(players, seed, scenario=scenario, mode=mode,
                          difficulty=("easy", "medium", "hard")[seed % 3])
    rng = Rng(seed)
    while True:
        yield state
        if state.to_move is None:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def decoded(values: tuple[int, ...]) -> Action:
    """The action whose parts are ``values`` (the inverse of ``parts``, written out here)."""
    verb = VERB_NAMES[values[0]]
    kinds = [kind for _, kind in VERBS[verb].fields]
    fields = []
    for k in range(3):
        value, row = values[1 + 2 * k], values[2 + 2 * k]
        if k >= len(kinds) or value == 0:
            fields.append(-1)
        elif kinds[k] == "hex":
            fields.append((value - 1) * ROWS + row - 1)
        else:
            fields.append(value - 1)
    return Action(verb, *fields)


def reachable(chooser: HeadByHead) -> set[Any]:
    """Every action some sequence of masked choices from ``chooser`` applies."""
    found: set[Any] = set()
    for value in np.flatnonzero(chooser.mask()):
        twin = chooser.copy()
        done = twin.choose(int(value))
        found |= reachable(twin) if done is None else {done}
    return found


# --- sizes and heads -----------------------------------------------------------------------------
def test_layout_1_sizes_heads_and_scale() -> None:
    """Issue 33: the verb head and two heads (value or column, row) per field position, each at
    most 22 values; an observation of 10,353 numbers, all of high 1 with a positive scale; one
    observation, choosing block and mask well under 100 KB; the flat actions of layout 0 kept."""
    enc = layout_1()
    assert enc.version == 1 and enc.heads == HEADS == (len(VERBS),) + (SIDE + 1,) * 6
    assert enc.actions is ACTIONS and len(enc.actions) == v0.NUM_ACTIONS
    sizes = [size for _, size in LAYOUT.values()]
    assert len(enc.observation_high) == OBS_SIZE == sum(sizes) == len(SCALE)
    assert (enc.observation_high == 1.0).all() and (SCALE >= 1.0).all()
    env = pettingzoo_env("black-keep", players=2, version=1)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert env.action_space("player_0").n == max(HEADS) == 22
    assert obs["observation"].shape == (OBS_SIZE + choosing_size(HEADS),)
    assert obs["observation"].nbytes + obs["action_mask"].nbytes < 50_000
    assert env.metadata["name"] == "citywatch_black_keep_v1"


def test_parts_stay_within_the_heads_and_name_each_action_once() -> None:
    """Factored actions: a sample of every verb's flat actions inside the box has parts within
    the heads' sizes that decode back to the action (so two actions never share parts); a hex
    beyond column U or row 21, or a guard past 18, is refused."""
    checked = 0
    for start, stop in VERB_RANGES.values():
        for i in range(start, stop, max(1, (stop - start) // 300)):
            action = ACTIONS[i]
            try:
                values = parts(action)
            except KeyError:
                kinds = [kind for _, kind in VERBS[action.verb].fields]
                raw = (action.x, action.y, action.z)
                assert any(kind == "hex" and (raw[k] // ROWS >= SIDE or raw[k] % ROWS >= SIDE)
                           or kind == "guard" and raw[k] >= MAX_GUARDS
                           for k, kind in enumerate(kinds))
                continue
            assert len(values) == len(HEADS)
            assert all(0 <= v < size for v, size in zip(values, HEADS, strict=True))
            assert decoded(values) == action
            checked += 1
    assert checked > 1000
    for outside in (Action("start", SIDE * ROWS), Action("start", SIDE),
                    Action("pick_pocket", MAX_GUARDS, 0, 0)):
        with pytest.raises(KeyError):
            parts(outside)


def test_head_by_head_reaches_exactly_the_legal_actions() -> None:
    """Factored actions through ``pettingzoo_env(players=2, version=1)``: on every shipped
    scenario, co-op and rivals, at every step the mask is the chooser's, and the actions that
    masked choices can still reach are exactly the legal actions that agree with the heads
    chosen so far (so every legal action is reachable and nothing illegal is)."""
    rng = np.random.default_rng(7)
    verbs: set[str] = set()
    steps = 0
    for k, scenario in enumerate(SCENARIOS * 2):
        env = pettingzoo_env("black-keep", players=2, options={
            "scenario": scenario, "mode": ("coop", "rivals")[k % 2]}, version=1)
        env.reset(seed=30 + k)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            chooser = env._chooser
            assert chooser is not None
            assert np.array_equal(obs["action_mask"], chooser.mask())
            chosen = tuple(chooser.chosen)
            state = env.state()
            assert agent == f"player_{state.to_move}"
            legal = state.legal_actions()
            expected = {a for a in legal if parts(a)[:len(chosen)] == chosen}
            assert expected and reachable(chooser.copy()) == expected
            verbs |= {a.verb for a in expected}
            allowed = np.flatnonzero(obs["action_mask"])
            env.step(int(allowed[rng.integers(len(allowed))]))
            steps += 1
    assert steps > 100 and {"start", "move", "buy", "no_buy"} <= verbs


# --- the observation ------------------------------------------------------------------------------
def test_observations_are_scaled_and_equal_for_a_hidden_twin() -> None:
    """Spec 10, citywatch ruling 16: every observation lies in [0, 1]; a world with other
    rival dials, other plans and the decks re-drawn (``determinize``) gives the seat the same
    observation and potential, while a seat whose own dial or plan was re-drawn sees it."""
    compared = differed = 0
    for k, scenario in enumerate(SCENARIOS):
        for players, mode in ((2, "rivals"), (3, "coop"), (4, "rivals")):
            for n, state in enumerate(random_states(scenario, players, mode, 60 + k)):
                if n % 2 or state.to_move is None:
                    continue
                for seat in range(players):
                    vector = observation(state, seat)
                    assert vector.shape == (OBS_SIZE,) and vector.dtype == np.float32
                    assert (vector >= 0).all() and (vector <= 1).all()
                    twin = state.determinize(seat, Rng(k * 100 + n * 7 + seat))
                    assert np.array_equal(observation(twin, seat), vector)
                    assert potential(twin, seat) == potential(state, seat)
                    compared += 1
                    for other in range(players):
                        a, b = state.thieves[other], twin.thieves[other]
                        if other != seat and (a.hex, a.plan) != (b.hex, b.plan):
                            assert not np.array_equal(observation(twin, other),
                                                      observation(state, other))
                            differed += 1
    assert compared >= 100 and differed >= 20


def test_the_observation_starts_with_the_seats_own_thief() -> None:
    """Spec 10 and layout 1's relative seats: in rivals the thief plane shows only the seat's
    own thief (1.0) at its dial's hex and the first ``thief_where`` pair is its own hex; in
    co-op the other thief shows at 0.5; the map's planes hold every floor hex."""
    for mode in ("coop", "rivals"):
        state = GAME.new_game(2, 5, scenario="the-vault", mode=mode)
        while state.to_move is not None and state.stack[-1][0] == "start":
            state.apply(state.legal_actions()[-1])
        for seat in (0, 1):
            vector = observation(state, seat)
            own = state.board.labels[state.thieves[seat].hex]
            other = state.board.labels[state.thieves[1 - seat].hex]
            plane = block(vector, "thief")
            assert plane[CELL1[own]] == 1.0
            if mode == "rivals" or other == own:
                assert int((plane > 0).sum()) == 1
            else:
                assert plane[CELL1[other]] == 0.5 and int((plane > 0).sum()) == 2
            q, row = divmod(CELL1[own], SIDE)
            assert block(vector, "thief_where")[:2].tolist() == pytest.approx(
                [(q + 1) / SIDE, (row + 1) / SIDE])
            assert block(vector, "seat")[seat] == 1.0
        terrain = block(observation(state, 0), "terrain")
        assert int((terrain >= 2 / 3 - 1e-6).sum()) == state.board.size
        assert block(observation(state, 0), "vault")[CELL1["K11"]] == 1.0


def test_a_map_beyond_the_box_of_layout_1_is_refused() -> None:
    """A map reaching row 22 (outside layout 1's box, inside layout 0's) plays in layout 0
    but layout 1 refuses it with a ``ValueError`` naming the box."""
    from test_bk_env import shifted  # the same scenario helper as layout 0's tests

    from citywatch.games.black_keep import scenario as scenarios
    doc = shifted(scenarios.read("tutorial"), 0, 21)
    state = GAME.new_game(1, 1, scenario=doc)
    assert v0.observation(state, 0).shape == (v0.OBS_SIZE,)
    with pytest.raises(ValueError, match="columns A-U, rows 1-21"):
        observation(state, 0)


# --- the potential --------------------------------------------------------------------------------
def tutorial_thief(where: str, **fields: Any) -> BlackKeepState:
    pos = bp.opening("tutorial", thieves=1, seed=3)
    if fields.get("treasure") is not None:  # R51: two tokens drawn, one carried, one left
        pos["treasures"] = [x for x in pos["treasures"] if x != fields["treasure"]][:1]
    bp.put_thief(pos, 0, where, **fields)
    state = bp.load(pos)
    assert isinstance(state, BlackKeepState)
    return state


def test_the_potential_follows_the_treasure_hunt() -> None:
    """Layout 1's potential (spec 9's goal: out with a real treasure): nearer the crown is more
    without a treasure, nearer the exit more with one, any treasure more than none, a wound
    less, escaped with a treasure 1 and caught 0; always in [0, 1]."""
    far, near = potential(tutorial_thief("A1"), 0), potential(tutorial_thief("G6"), 0)
    assert 0.0 <= far < near < 0.3
    carrying = potential(tutorial_thief("G6", treasure="Eye"), 0)
    at_edge = potential(tutorial_thief("A1", treasure="Eye"), 0)
    assert 0.5 <= carrying < at_edge <= 0.9
    assert potential(tutorial_thief("A1", treasure="Eye", wounds=2), 0) < at_edge
    for standing, treasure, expected in (("escaped", "Eye", 1.0), ("escaped", None, 0.0),
                                         ("caught", None, 0.0), ("killed", "Eye", 0.0)):
        state = tutorial_thief("A1", treasure=treasure)
        state.thieves[0].standing = STANDINGS.index(standing)
        state.thieves[0].hex = NONE
        assert potential(state, 0) == expected
    for k, scenario in enumerate(SCENARIOS):
        for state in random_states(scenario, 2, "rivals", 80 + k):
            assert all(0.0 <= potential(state, seat) <= 1.0 for seat in range(2))


def test_shaped_rewards_add_up_to_the_outcome_less_the_first_potential() -> None:
    """Potential-based shaping (issue 33): each agent's rewards over a game sum to its
    outcome reward plus ``shaping * (0 - its potential at the start)``, the potential being 0
    once the game is over; without shaping they are the outcome reward alone."""
    for shaping in (0.0, 0.5):
        env = pettingzoo_env("black-keep", players=2, options={"scenario": "the-vault"},
                             version=1, shaping=shaping)
        env.reset(seed=11)
        start = env.state()
        first = {f"player_{p}": potential(start, p) for p in range(2)} if shaping else {}
        total = {agent: 0.0 for agent in env.possible_agents}
        rng = np.random.default_rng(3)
        shaped_step = False
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            total[agent] += reward
            shaped_step |= not terminated and reward != 0.0
            if terminated or truncated:
                env.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"])
            env.step(int(allowed[rng.integers(len(allowed))]))
        outcome = env.state().outcome()
        assert outcome is not None
        for p, reward in enumerate(outcome.rewards(2)):
            agent = f"player_{p}"
            assert total[agent] == pytest.approx(reward - shaping * first.get(agent, 0.0))
        assert shaped_step == bool(shaping)


def test_layout_0_is_still_the_pinned_layout() -> None:
    """Layout 0 is unchanged: its fingerprint is the one pinned for version 0."""
    pinned = json.loads(PINS.read_text(encoding="utf-8"))["black-keep"]
    enc = GAME.encoding(0)
    assert enc is not None and enc.fingerprint() == pinned["0"]
    assert layout_1().fingerprint() == pinned["1"]


def test_burning_and_put_out_torches_share_a_plane() -> None:
    """Spec 2.8 as layout 1 shows it: a burning torch is 1 on the torch plane, a put-out one
    0.5; the lit plane follows the burning torches only."""
    state = tutorial_thief("A1")
    before = observation(state, 0)
    bp.extinguish(state, "E5")
    after = observation(state, 0)
    torch = block(after, "torch")
    assert torch[CELL1["E5"]] == 0.5 and block(before, "torch")[CELL1["E5"]] == 1.0
    assert [torch[CELL1[at]] for at in ("A6", "D1", "G7")] == [1.0, 1.0, 1.0]
    assert block(after, "lit").sum() < block(before, "lit").sum()
