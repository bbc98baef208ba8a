"""Factored actions (citywatch.env.factored): a decision chosen head by head, each head's mask
the values some legal action with the heads chosen so far allows (issue 33)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from citywatch.env.factored import HeadByHead, choosing_block, choosing_size

HEADS = (3, 4, 5)


def parts(action: tuple[int, int, int]) -> tuple[int, int, int]:
    return action


def test_each_head_is_masked_to_what_the_heads_before_allow() -> None:
    legal = [(0, 1, 2), (0, 1, 3), (0, 2, 4), (2, 3, 0)]
    chooser = HeadByHead(HEADS, parts)
    assert chooser.width == 5
    assert chooser.start(legal) is None
    assert chooser.head == 0
    assert chooser.mask().tolist() == [1, 0, 1, 0, 0]
    assert chooser.choose(0) is None
    assert chooser.mask().tolist() == [0, 1, 1, 0, 0]
    assert chooser.choose(1) is None
    assert chooser.mask().tolist() == [0, 0, 1, 1, 0]
    assert chooser.choose(3) == (0, 1, 3)


def test_a_forced_head_is_taken_without_asking() -> None:
    """Only values that differ between the legal actions left are asked for."""
    legal = [(1, 2, 0), (1, 2, 4)]
    chooser = HeadByHead(HEADS, parts)
    assert chooser.start(legal) is None
    assert chooser.head == 2 and chooser.chosen == [1, 2]
    assert chooser.choose(4) == (1, 2, 4)


def test_a_single_legal_action_is_decided_at_once() -> None:
    chooser = HeadByHead(HEADS, parts)
    assert chooser.start([(2, 0, 1)]) == (2, 0, 1)


def test_the_action_is_taken_once_the_heads_name_one() -> None:
    """Later heads are not asked when one legal action is left."""
    chooser = HeadByHead(HEADS, parts)
    assert chooser.start([(0, 1, 2), (1, 1, 2)]) is None
    assert chooser.choose(1) == (1, 1, 2)


def test_a_value_the_mask_forbids_is_refused_and_changes_nothing() -> None:
    chooser = HeadByHead(HEADS, parts)
    chooser.start([(0, 1, 2), (2, 1, 2)])
    with pytest.raises(ValueError, match="head 0 cannot take 1"):
        chooser.choose(1)
    assert chooser.head == 0 and chooser.mask().tolist() == [1, 0, 1, 0, 0]


def walk(chooser: HeadByHead) -> list[tuple[int, int, int]]:
    """Every action reached by some sequence of masked choices from here."""
    reached: list[tuple[int, int, int]] = []
    for value in np.flatnonzero(chooser.mask()):
        twin = chooser.copy()
        done = twin.choose(int(value))
        reached.extend(walk(twin) if done is None else [done])
    return reached


def test_every_legal_action_is_reachable_and_nothing_else() -> None:
    """Walking every masked choice reaches each legal action exactly once."""
    rng = np.random.default_rng(3)
    everything = list(itertools.product(range(3), range(4), range(5)))
    for _ in range(20):
        picks = rng.choice(len(everything), size=int(rng.integers(1, 15)), replace=False)
        legal = [everything[int(i)] for i in picks]
        chooser = HeadByHead(HEADS, parts)
        decided = chooser.start(legal)
        reached = [decided] if decided is not None else walk(chooser)
        assert sorted(reached) == sorted(legal)


def test_two_actions_with_the_same_parts_are_an_error() -> None:
    chooser = HeadByHead((2,), lambda action: (0,))
    with pytest.raises(ValueError, match="same parts"):
        chooser.start(["a", "b"])


def test_bad_heads_and_empty_decisions_are_refused() -> None:
    for heads in ((), (3, 0)):
        with pytest.raises(ValueError, match="heads"):
            HeadByHead(heads, parts)
    with pytest.raises(ValueError, match="at least one"):
        HeadByHead(HEADS, parts).start([])


def test_the_choosing_block_shows_the_head_and_the_values_chosen() -> None:
    assert choosing_size(HEADS) == 3 + 12
    chooser = HeadByHead(HEADS, parts)
    chooser.start([(0, 1, 2), (0, 2, 2), (1, 0, 0)])
    chooser.choose(0)
    block = choosing_block(HEADS, chooser)
    assert np.flatnonzero(block).tolist() == [1, 3 + 0]
    assert not choosing_block(HEADS, None).any()
