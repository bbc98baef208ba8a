"""Thieves of the Black Keep's PettingZoo encoding (``encoding.py``) and environment (issue
12): the fixed action space over the map box, the mask, the observation (spec 10: what a seat
may see), PettingZoo's own ``api_test`` and ``seed_test``, and the co-operative reward (spec 9:
a co-op crew wins or loses together). ``test_conformance.py`` runs the PettingZoo tests too,
with the default options at every number of thieves."""

from __future__ import annotations

import copy
import re
import warnings
from collections.abc import Iterator
from typing import Any

import bk_positions as bp
import numpy as np
import pytest

import citywatch
from citywatch import lab
from citywatch.core.api import Outcome
from citywatch.core.rng import Rng
from citywatch.env import env_from_state, pettingzoo_env
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.actions import VERBS, Action
from citywatch.games.black_keep.encoding import (
    ACTIONS,
    CELL,
    CELLS,
    INDEX,
    LAYOUT,
    MAX_GUARDS,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_SIZE,
    VERB_RANGES,
    action_index,
    action_mask,
    cell_of_code,
    check_fits,
    code_of_cell,
    index_action,
    observation,
)
from citywatch.games.black_keep.hexes import from_offset, label, parse
from citywatch.games.black_keep.state import BlackKeepState

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # pettingzoo.test loads old-style environments
    from pettingzoo.test import api_test, seed_test

GAME = citywatch.load("black-keep")
SCENARIOS = ("tutorial", "the-vault", "the-black-keep")


def tables() -> Iterator[tuple[str, int, str]]:
    """Every shipped scenario at 1-4 thieves, co-op (solo for one) and rivals (2-4)."""
    for scenario in SCENARIOS:
        for players in range(1, 5):
            for mode in ("coop", "rivals") if players > 1 else ("coop",):
                yield scenario, players, mode


def random_states(scenario: str, players: int, mode: str, seed: int,
                  advanced: str = "scenario") -> Iterator[BlackKeepState]:
    """Every decision of one random game, and its end."""
    state = GAME.new_game(players, seed, scenario=scenario, mode=mode, advanced=advanced,
                          difficulty=("easy", "medium", "hard")[seed % 3])
    rng = Rng(seed)
    while True:
        yield state
        if state.to_move is None:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def block(vector: np.ndarray, name: str) -> np.ndarray:
    start, size = LAYOUT[name]
    return vector[start:start + size]


def shifted(doc: Any, columns: int, rows: int) -> Any:
    """A scenario's JSON with every label moved ``columns`` columns right and ``rows`` rows
    down (an even number of columns keeps the odd-q stagger, so the map is the same)."""
    def column(letters: str) -> str:
        q, _ = parse(letters + "1")
        return label(from_offset(q + columns, 1))[:-1]

    if isinstance(doc, dict):
        out = {k: shifted(v, columns, rows) for k, v in doc.items()}
        if "cols" in doc and "rows" in doc:
            out["cols"] = "-".join(column(c) for c in doc["cols"].split("-"))
            out["rows"] = "-".join(str(int(r) + rows) for r in doc["rows"].split("-"))
        return out
    if isinstance(doc, list):
        return [shifted(v, columns, rows) for v in doc]
    if isinstance(doc, str) and (m := re.fullmatch(r"([A-Z]+)([0-9]+)", doc)):
        return column(m[1]) + str(int(m[2]) + rows)
    return doc


# --- the action space -------------------------------------------------------------------------
def test_the_game_offers_its_encoding() -> None:
    """Layout 0 (the flat space) stays behind ``encoding(0)``; the newest is layout 1."""
    encoding = GAME.encoding(0)
    assert encoding is not None
    assert encoding.actions is ACTIONS and encoding.index is INDEX
    assert encoding.observation_high is OBS_HIGH and OBS_HIGH.shape == (OBS_SIZE,)
    assert encoding.observation is observation and encoding.action_mask is action_mask
    assert encoding.heads == () and encoding.scale is None and encoding.potential is None
    newest = GAME.encoding()
    assert newest is not None and newest.version == 1 and newest.heads


def test_every_hex_of_the_box_is_one_cell() -> None:
    """The box is columns A-AB, rows 1-28 of the label grid (spec 2.2): each label one cell,
    and a hex code (``actions.hex_code``) maps to its cell and back."""
    assert len(CELL) == CELLS == 28 * 28 and sorted(CELL.values()) == list(range(CELLS))
    assert CELL["A1"] == 0 and CELL["AB28"] == CELLS - 1 and CELL["B1"] == 28
    for text, cell in CELL.items():
        q, r = parse(text)
        code = q * 1024 + r + (q - (q & 1)) // 2
        assert cell_of_code(code) == cell and code_of_cell(cell) == code
    for code in (28 * 1024, 28, 1024 * 3 + 28):  # column AC; row 29
        with pytest.raises(KeyError):
            cell_of_code(code)


def test_action_space_is_a_fixed_bijection_over_the_declared_verbs() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(INDEX)
    assert set(VERB_RANGES) == set(VERBS)
    ranges = sorted(VERB_RANGES.values())
    assert ranges[0][0] == 0 and ranges[-1][1] == NUM_ACTIONS
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    for verb, (start, stop) in VERB_RANGES.items():
        assert ACTIONS[start].verb == ACTIONS[stop - 1].verb == verb
        assert {a.verb for a in ACTIONS[start:stop:max(1, (stop - start) // 50)]} == {verb}
    for i in [*range(0, NUM_ACTIONS, 101), NUM_ACTIONS - 1]:
        action = ACTIONS[i]
        assert INDEX[action] == i and isinstance(action.x, int)
        assert Action.from_json(action.to_json()) == action
    assert ACTIONS[-1] == ACTIONS[NUM_ACTIONS - 1]
    with pytest.raises(IndexError):
        index_action(NUM_ACTIONS)
    for outside in (Action("start", 28 * 1024), Action("guard_card", 0, MAX_GUARDS, 0),
                    Action("take", 1)):
        with pytest.raises(KeyError):
            action_index(outside)
    with pytest.raises(KeyError):
        INDEX[("start", 0)]


def test_every_legal_action_is_in_the_space_and_the_mask_is_the_legal_actions() -> None:
    """Random games on all three scenarios, 1-4 thieves, co-op and rivals: each legal action
    encodes to a number that decodes to itself, the mask marks exactly the legal actions, and
    every seat's observation stays in its box; at the end the mask is empty and the
    observation names the winners."""
    decisions = 0
    verbs: set[str] = set()
    for k, (scenario, players, mode) in enumerate(list(tables()) * 3):
        advanced = ("on", "off", "scenario")[k % 3]
        for state in random_states(scenario, players, mode, 40 + k, advanced):
            mask = action_mask(state)
            assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
            if decisions % 5 == 0 or state.to_move is None:
                for seat in range(players):
                    vector = observation(state, seat)
                    assert vector.shape == (OBS_SIZE,) and vector.dtype == np.float32
                    assert (vector >= 0).all() and (vector <= OBS_HIGH).all()
            if state.to_move is None:
                assert not mask.any()
                outcome = state.outcome()
                assert outcome is not None
                winners = block(observation(state, 0), "winners")
                assert np.flatnonzero(winners).tolist() == sorted(outcome.winners)
                continue
            legal = state.legal_actions()
            for action in legal:
                assert ACTIONS[INDEX[action]] == action
                verbs.add(action.verb)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(INDEX[a] for a in legal)
            assert int(mask.sum()) == len(set(legal)) == len(legal)
            decisions += 1
    assert decisions > 1000 and verbs == set(VERBS) - {"take", "leave"}


def test_the_treasure_decision_is_masked() -> None:
    """6.6 (R51): a plan ending on the crown asks whether to take a treasure, which random
    play rarely reaches: both answers are in the space and are the mask."""
    pos = bp.opening("tutorial", thieves=1, seed=3)
    bp.put_thief(pos, 0, "G6")
    state = bp.load(pos)
    state.apply(next(a for a in state.legal_actions() if str(a) == "Play Move SE/S: step S to G7"))
    legal = state.legal_actions()
    assert {a.verb for a in legal} == {"take", "leave"}
    assert sorted(np.flatnonzero(action_mask(state))) == sorted(INDEX[a] for a in legal)
    vector = observation(state, 0)
    assert block(vector, "plan_step")[CELL["G7"]] == 1 and block(vector, "decision")[4] == 1


# --- the observation -------------------------------------------------------------------------
def test_the_observation_shows_the_map_guards_and_the_seats_own_thief() -> None:
    """Spec 10: the map, the guards and the seat's own dial are in the observation; in rivals
    another thief's dial is not (its hex plane is empty), in co-op it is."""
    for mode in ("coop", "rivals"):
        state = GAME.new_game(2, 5, scenario="the-vault", mode=mode)
        while state.to_move is not None and state.stack[-1][0] == "start":
            state.apply(state.legal_actions()[-1])
        vector = observation(state, 0)
        floor = block(vector, "floor")
        assert int(floor.sum()) == state.board.size
        assert floor[CELL["A4"]] == 1 and floor[CELL["O1"]] == 0
        assert block(vector, "crown")[CELL["K11"]] == 1
        placed = [g for g in state.guards if g.placed]
        assert int(block(vector, "guard_status").sum()) == len({g.hex for g in placed})
        assert block(vector, "thief_hex")[CELL[state.board.labels[state.thieves[0].hex]]] == 1
        other = block(vector, "thief_hex")[CELLS:2 * CELLS]
        assert int(other.sum()) == (1 if mode == "coop" else 0)
        seen = {CELL[at] for g in state.view(0)["guards"] for at in g["sees"]}
        assert set(np.flatnonzero(block(vector, "seen")).tolist()) == seen and seen
        assert int(block(vector, "guard_present").sum()) == len(state.guards)
        first = state.guards[0]
        assert block(vector, "guard_tile")[first.tile] == 1
        q, row = divmod(CELL[state.board.labels[first.hex]], 28)
        assert block(vector, "guard_where")[:2].tolist() == [q + 1, row + 1]


def test_observations_do_not_change_when_only_hidden_facts_change() -> None:
    """Spec 10, citywatch ruling 16: another world with another rival thief's dial, the other
    thieves' plans and the decks' and crown's order re-drawn (``determinize``) gives the seat
    the same view, observation and mask; a seat whose own dial or plan was re-drawn sees the
    difference."""
    compared = differed = 0
    for k, (scenario, players, mode) in enumerate(tables()):
        if players < 2:
            continue
        for n, state in enumerate(random_states(scenario, players, mode, 900 + k)):
            if n % 3 or state.to_move is None:
                continue
            for seat in range(players):
                twin = state.determinize(seat, Rng(k * 100 + n * 7 + seat))
                assert twin.view(seat) == state.view(seat)
                assert np.array_equal(observation(twin, seat), observation(state, seat))
                if state.to_move == seat:
                    assert np.array_equal(action_mask(twin), action_mask(state))
                compared += 1
                for other in range(players):
                    a, b = state.thieves[other], twin.thieves[other]
                    if other != seat and (a.hex, a.plan) != (b.hex, b.plan):
                        assert not np.array_equal(observation(twin, other),
                                                  observation(state, other))
                        differed += 1
    assert compared >= 300 and differed >= 50


def test_deck_and_crown_order_are_not_observed() -> None:
    """Spec 10: the Guard deck's, the Exit deck's and the crown tokens' order are secret."""
    state = GAME.new_game(3, 8, scenario="the-black-keep")
    twin = state.copy()
    assert isinstance(twin, BlackKeepState)
    twin.guard_deck.reverse()
    twin.exit_deck.reverse()
    twin.treasures.reverse()
    assert twin.guard_deck != state.guard_deck and twin.treasures != state.treasures
    for seat in range(3):
        assert np.array_equal(observation(twin, seat), observation(state, seat))


def test_a_bad_seat_is_refused() -> None:
    state = GAME.new_game(2, 1)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="seat must be 0 to 1"):
            observation(state, seat)


# --- scenarios of one's own (spec 11) ---------------------------------------------------------
def test_a_scenario_of_ones_own_inside_the_box_is_encoded() -> None:
    """Spec 11.2 allows a map anywhere on the label grid: the Tutorial moved to O15-U21 plays
    through the environment, its hexes encoded in their own cells."""
    doc = shifted(scenarios.read("tutorial"), 14, 14)
    assert not scenarios.problems(doc)
    env = pettingzoo_env("black-keep", players=2, options={"scenario": doc}, version=0)
    env.reset(seed=3)
    state = env.state()
    assert isinstance(state, BlackKeepState)
    legal = state.legal_actions()
    assert {str(a) for a in legal} == {"Set your Location Dial to " + label(
        from_offset(q + 14, row + 14)) for q, row in ((0, 1), (2, 1), (3, 7), (0, 7))}
    obs = env.observe("player_0")
    assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(INDEX[a] for a in legal)
    assert block(obs["observation"], "crown")[CELL["U21"]] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)


def test_a_map_beyond_the_box_is_refused_clearly() -> None:
    """A map reaching column AC (or row 29), or more than ``MAX_GUARDS`` guards, is outside
    the fixed spaces: ``ValueError`` naming the box, not a wrong vector."""
    for columns, rows in ((28, 0), (0, 28)):
        doc = shifted(scenarios.read("tutorial"), columns, rows)
        state = GAME.new_game(1, 1, scenario=doc)
        for call in (lambda s=state: observation(s, 0), lambda s=state: action_mask(s)):
            with pytest.raises(ValueError, match="beyond the PettingZoo encoding's box"):
                call()
        env = pettingzoo_env("black-keep", players=1, options={"scenario": doc}, version=0)
        env.reset(seed=1)
        with pytest.raises(ValueError, match="columns A-AB, rows 1-28"):
            env.observe("player_0")
    state = GAME.new_game(1, 1)
    state.guards = state.guards * (MAX_GUARDS + 1)
    with pytest.raises(ValueError, match=f"at most {MAX_GUARDS}"):
        check_fits(state)


# --- PettingZoo ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "options"), [
    (1, {"scenario": "the-vault", "difficulty": "hard"}),
    (3, {"scenario": "the-black-keep", "mode": "rivals"}),
    (4, {"scenario": "the-black-keep", "advanced": "off", "difficulty": "easy"}),
])
def test_pettingzoo_api_test_and_seed_test_pass(players: int, options: dict[str, str]) -> None:
    """PettingZoo's own checks on each scenario and mode (the defaults run in
    test_conformance.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations are outside PettingZoo's own list
        for version in (0, 1):
            api_test(pettingzoo_env("black-keep", players=players, options=options,
                                    version=version), num_cycles=1000)
            seed_test(lambda v=version: pettingzoo_env("black-keep", players=players,
                                                       options=options, version=v),
                      num_cycles=500)


def final_rewards(env: Any, rng: np.random.Generator,
                  script: dict[str, list[str]] | None = None) -> dict[str, tuple[float, Any]]:
    """Play ``env`` to the end (by ``script``'s action texts per agent, else at random),
    checking every mask; each agent's final reward and info."""
    final: dict[str, tuple[float, Any]] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            assert not obs["action_mask"].any()
            final[agent] = (reward, info)
            env.step(None)
            continue
        state = env.state()
        legal = state.legal_actions()
        assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(INDEX[a] for a in legal)
        assert all(not env.observe(o)["action_mask"].any() for o in env.agents if o != agent)
        if script is not None:
            text = script[agent].pop(0)
            env.step(INDEX[next(a for a in legal if str(a) == text)])
        else:
            indexes = np.flatnonzero(obs["action_mask"])
            env.step(int(indexes[rng.integers(len(indexes))]))
    return final


def two_thieves_at_the_edge(mode: str) -> Any:
    """The tutorial's environment with two thieves in ``mode``: Thief 1 on A1 with the Eye,
    Thief 2 on A7, two other treasures left."""
    pos = bp.opening("tutorial", thieves=2, mode=mode, seed=3)
    pos["treasures"] = [x for x in pos["treasures"] if x != "Eye"][:2]
    bp.put_thief(pos, 0, "A1", treasure="Eye")
    bp.put_thief(pos, 1, "A7")
    return env_from_state(bp.load(pos), version=0)


def test_a_coop_crew_that_wins_gives_every_thief_the_whole_reward() -> None:
    """Spec 9 (R57): co-op, both thieves escape and carry a real treasure between them: the
    crew wins together, so each agent's reward is 1.0, not half (``Outcome.rewards``)."""
    env = two_thieves_at_the_edge("coop")
    final = final_rewards(env, np.random.default_rng(0), {
        "player_0": ["Play Move SW/NW: escape SW off the map"],
        "player_1": ["Play Move SW/NW: escape NW off the map"]})
    outcome = env.state().outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.cooperative
    assert {a: r for a, (r, _) in final.items()} == {"player_0": 1.0, "player_1": 1.0}
    assert outcome.shares(2) == [0.5, 0.5]
    assert final["player_1"][1]["winners"] == ["player_0", "player_1"]


def test_in_rivals_the_first_out_with_a_treasure_alone_wins() -> None:
    """Spec 9: rivals are no crew: the thief escaping with a real treasure gets 1.0, the
    other 0.0."""
    env = two_thieves_at_the_edge("rivals")
    final = final_rewards(env, np.random.default_rng(0), {
        "player_0": ["Play Move SW/NW: escape SW off the map"],
        "player_1": ["Play Hide"]})
    outcome = env.state().outcome()
    assert outcome is not None and outcome.winners == (0,) and not outcome.cooperative
    assert {a: r for a, (r, _) in final.items()} == {"player_0": 1.0, "player_1": 0.0}


def test_the_environment_plays_random_games_to_the_end() -> None:
    """Random co-op and rivals games through the environment, to the end: every mask is the
    legal actions, and a co-op game rewards its seats alike (spec 9)."""
    rng = np.random.default_rng(4)
    for k, mode in enumerate(("coop", "rivals", "coop")):
        env = pettingzoo_env("black-keep", players=3, options={
            "scenario": SCENARIOS[k], "mode": mode}, version=0)
        env.reset(seed=20 + k)
        final = final_rewards(env, rng)
        outcome = env.state().outcome()
        assert outcome is not None and len(final) == 3
        rewards = [final[f"player_{p}"][0] for p in range(3)]
        assert rewards == outcome.rewards(3)
        if mode == "coop":
            assert len(set(rewards)) == 1
        else:
            assert sum(rewards) <= 1.0


# --- Outcome.rewards for the lab and tournaments -----------------------------------------------
def test_rewards_give_each_winner_of_a_cooperative_game_the_whole_win() -> None:
    """``Outcome.rewards``: a co-operative game's winners each win 1; otherwise winners split
    1 as ``shares`` do (shares stay split: evaluators and search work on that scale)."""
    coop = Outcome((0, 1, 2), "every thief escaped", cooperative=True)
    assert coop.rewards(3) == [1.0, 1.0, 1.0] and coop.shares(3) == pytest.approx([1 / 3] * 3)
    lost = Outcome((), "dawn came", cooperative=True)
    assert lost.rewards(2) == [0.0, 0.0]
    shared = Outcome((0, 1), "a shared win")
    assert shared.rewards(3) == shared.shares(3) == [0.5, 0.5, 0.0]


def test_the_lab_counts_a_coop_crews_win_for_every_seat() -> None:
    """The lab's results keep ``cooperative`` (only when true, so other games' lines are
    unchanged) and count a crew's win as a win for each seat."""
    crew = lab.Result(0, 1, 2, 0, (0, 1), "every thief escaped", 3, 9, (), (8, 8), ((), ()),
                      cooperative=True)
    assert crew.to_json()["cooperative"] is True
    assert lab.Result.from_json(copy.deepcopy(crew.to_json())) == crew
    lost = lab.Result(1, 1, 2, 0, (), "dawn came", 3, 9, (), (0, 0), ((), ()), cooperative=True)
    plain = lab.Result(2, 1, 2, 0, (0, 1), "a shared win", 3, 9, (), None, ((), ()))
    assert "cooperative" not in plain.to_json() and plain.wins(2) == [0.5, 0.5]
    study = lab.Study("black-keep", 2, 0, ("random", "random"))
    summary = lab.summarise(study, [crew, lost], lab.Run("serial", 1))
    assert summary["wins_by_seat"] == [1.0, 1.0]
    assert [r["rate"] for r in summary["win_rate_by_seat"]] == [0.5, 0.5]


def test_a_black_keep_outcome_is_cooperative_in_solo_and_coop_only() -> None:
    """Spec 9: solo and co-op thieves win or lose together; rivals do not."""
    for players, mode, together in ((1, "coop", True), (2, "coop", True), (2, "rivals", False)):
        *_, end = random_states("tutorial", players, mode, 7)
        outcome = end.outcome()
        assert outcome is not None and outcome.cooperative is together
        assert outcome.details["mode"] == ("solo" if players == 1 else mode)
