"""Ankh-Morpork's encoding layout 1 (``encoding_v1.py``, issue 33): layout 0's actions and
blocks, every number divided by its block's scale and clipped to [0, 1], built from the seat's
view only; the potential is the mean of the view's own progress to the seat's personality
win and its share of the points. Layout 0 stays as it
was (its fingerprint is pinned in ``tests/encodings.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers import area, blank, hidden_twin, minions, play_randomly, seat_of, start

import citywatch
from citywatch.env import pettingzoo_env
from citywatch.games.ankh_morpork.data import STARTING_MONEY
from citywatch.games.ankh_morpork.encoding import (
    ACTIONS,
    INDEX,
    LAYOUT,
    OBS_HIGH,
    VERB_RANGES,
    action_mask,
    observation,
)
from citywatch.games.ankh_morpork.encoding_v1 import (
    OPENING_DRAW_PILE,
    SCALES,
    personality_share,
    points_share,
    potential,
)
from citywatch.games.ankh_morpork.scoring import points
from citywatch.games.ankh_morpork.state import AnkhMorporkState

GAME = citywatch.load("ankh-morpork")
V0, V1 = GAME.encoding(0), GAME.encoding(1)
PINS = Path(__file__).resolve().parents[2] / "encodings.json"


def random_states(games: int, seed: int, every: int = 1) -> Iterator[AnkhMorporkState]:
    """Every ``every``-th decision of ``games`` random games (2, 3, 4 players in turn)."""
    for k in range(games):
        state = GAME.new_game(players=2 + k % 3, seed=seed + k)
        step = 0
        while state.to_move is not None:
            if step % every == 0:
                yield state
            state = play_randomly(state, 1, seed * 1000 + step)
            step += 1
        yield state


def test_layout_1_keeps_layout_0s_actions_and_blocks_and_scales_every_number() -> None:
    """Layout 1 is the newest: the same 5393 flat actions and 1563 numbers in the same blocks,
    every number's high 1.0, and every scale above 0 and at most layout 0's max."""
    assert GAME.encoding().version == V1.version == 1
    assert len(V1.actions) == 5393 and len(V1.observation_high) == 1563
    assert V1.actions is ACTIONS and V1.index is INDEX and V1.action_mask is action_mask
    assert V1.blocks == LAYOUT and V1.verbs == VERB_RANGES and V1.heads == ()
    assert (np.asarray(V1.observation_high) == 1.0).all()
    assert V1.scale is not None and len(V1.scale) == len(OBS_HIGH)
    scale = np.asarray(V1.scale)
    assert (scale > 0).all() and (scale <= OBS_HIGH).all()
    for name, value in SCALES.items():
        start_, size = LAYOUT[name]
        assert (scale[start_:start_ + size] == value).all() and value < OBS_HIGH[start_]


def test_layout_1_is_layout_0_divided_by_the_scale_and_clipped() -> None:
    scale = np.asarray(V1.scale, dtype=np.float32)
    checked = 0
    for state in random_states(6, 40, every=5):
        for seat in range(state.n):
            expected = np.minimum(observation(state, seat) / scale, 1.0)
            assert np.array_equal(V1.observation(state, seat), expected)
            checked += 1
    assert checked > 500


def test_money_is_scaled_by_100_at_the_start() -> None:
    """Every seat starts with $10 (rulebook set-up): 0.1 in layout 1's money block."""
    state = GAME.new_game(players=3, seed=5)
    money, _ = LAYOUT["money"]
    vector = V1.observation(state, 0)
    assert vector[money:money + 4].tolist() == pytest.approx([STARTING_MONEY / 100] * 3 + [0])


def test_a_hidden_twin_gets_the_same_observation_and_potential() -> None:
    """Other hands, personalities, the deck and the events re-dealt (``hidden_twin``): nothing
    the seat sees changes, so neither does its layout 1 observation nor its potential; a seat
    whose own hand was re-dealt sees the difference."""
    compared = differed = 0
    for state in random_states(4, 80, every=9):
        if state.to_move is None:
            continue
        for seat in range(state.n):
            twin = hidden_twin(state, seat)
            assert twin.view(seat) == state.view(seat)
            assert np.array_equal(V1.observation(twin, seat), V1.observation(state, seat))
            assert potential(twin, seat) == potential(state, seat)
            compared += 1
            for other in range(state.n):
                if other != seat and sorted(twin.hands[other]) != sorted(state.hands[other]):
                    assert not np.array_equal(V1.observation(twin, other),
                                              V1.observation(state, other))
                    differed += 1
    assert compared > 60 and differed > 30


def test_the_potential_is_the_views_progress_to_the_win() -> None:
    """The personality share is the view's ``have / need`` (clipped to [0, 1]); for Commander
    Vimes the share of the opening draw pile drawn (its size from the view). The potential is
    its mean with the seat's share of the points (ruling 25), the two ways to win."""
    checked = 0
    for state in random_states(6, 120, every=4):
        if state.to_move is None:
            continue
        for seat in range(state.n):
            view = state.view(seat)
            progress = view["progress"]
            if progress["need"]:
                expected = progress["have"] / progress["need"]
            else:
                expected = 1 - view["draw_pile_size"] / OPENING_DRAW_PILE[view["players"]]
            assert personality_share(state, seat) == pytest.approx(
                min(max(expected, 0.0), 1.0))
            assert potential(state, seat) == pytest.approx(
                (personality_share(state, seat) + points_share(state, seat)) / 2)
            assert 0.0 <= potential(state, seat) <= 1.0
            checked += 1
    assert checked > 300


def test_the_points_share_is_the_seats_part_of_the_points_now() -> None:
    """End of the Game (ruling 25): $5 a minion, building costs, cash, loans. The points
    share is the seat's part of all seats' points now, a negative score counting 0, and the
    shares of a table add up to 1."""
    checked = 0
    for state in random_states(4, 120, every=6):
        scores = [max(score, 0) for score in points(state)]
        for seat in range(state.n):
            if sum(scores):
                assert points_share(state, seat) == pytest.approx(scores[seat] / sum(scores))
        assert sum(points_share(state, seat) for seat in range(state.n)) == pytest.approx(1.0)
        checked += 1
    assert checked > 30
    # Red's 3 minions score $5 each; with $10 cash each, Red has 25 points of 35.
    for money, red_share in ((0, 1.0), (10, 25 / 35)):
        pos = minions(blank(players=2, money=money), "Dolly Sisters", Red=3)
        state = start(pos)
        assert points_share(state, seat_of("Red")) == pytest.approx(red_share)
        assert points_share(state, 1 - seat_of("Red")) == pytest.approx(1 - red_share)


def test_the_opening_draw_pile_is_what_set_up_leaves() -> None:
    """Set-up deals 5 cards a seat and takes 2 cards out at 2 players (rulebook)."""
    for players in (2, 3, 4):
        state = GAME.new_game(players=players, seed=players)
        assert len(state.draw_pile) == OPENING_DRAW_PILE[players]
        vimes_like = 1 - state.view(0)["draw_pile_size"] / OPENING_DRAW_PILE[players]
        assert vimes_like == 0.0


def test_each_personality_is_measured_by_its_own_condition() -> None:
    """4 players (rulings 26-28): Vetinari (Blue) has minions in 3 of 9 areas, the Dragon King
    (Green) sees 4 of 8 trouble markers, Lord Rust (Yellow) controls 2 of 4 areas; for Vimes
    (Red) more than 27 of the 81 cards of the opening draw pile are drawn."""
    pos = blank(players=4)
    for name in ("Dolly Sisters", "The Scours", "The Shades"):
        minions(pos, name, Blue=1)
    for name in ("Dimwell", "Longwall", "Nap Hill", "The Hippo"):
        area(pos, name, trouble=True)
    minions(pos, "Isle of Gods", Yellow=2)
    minions(pos, "Seven Sleepers", Yellow=1)
    pos["discard_pile"] = pos["draw_pile"][54:]
    pos["draw_pile"] = pos["draw_pile"][:54]
    state = start(pos)
    assert personality_share(state, seat_of("Blue")) == pytest.approx(3 / 9)
    assert personality_share(state, seat_of("Green")) == pytest.approx(4 / 8)
    assert personality_share(state, seat_of("Yellow")) == pytest.approx(2 / 4)
    left = state.view(seat_of("Red"))["draw_pile_size"]
    assert left < 81 - 27
    assert personality_share(state, seat_of("Red")) == pytest.approx((81 - left) / 81)


def test_layout_0_is_unchanged() -> None:
    """Layout 0 is the unscaled layout it was: its own observation and highs, no scale, no
    potential, and the fingerprint pinned for version 0."""
    assert V0.version == 0 and V0.scale is None and V0.potential is None
    assert V0.observation is observation and V0.observation_high is OBS_HIGH
    assert float(OBS_HIGH[LAYOUT["money"][0]]) == 999.0
    pinned = json.loads(PINS.read_text(encoding="utf-8"))["ankh-morpork"]["0"]
    assert V0.fingerprint() == pinned
    assert pettingzoo_env("ankh-morpork", players=2, version=0).metadata["name"] \
        == "citywatch_ankh_morpork_v0"
