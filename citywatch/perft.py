"""perft for any game: the exact size of the legal-action tree below a position.

As in chess engines and python-chess, ``perft(state, depth)`` counts the nodes of the tree of
legal actions ``depth`` decisions below ``state``. Chance is part of the state (each state carries
its own seeded generator, and ``copy()`` copies it), so the count is exact and the same on every
machine: fixed positions with their counts, checked by a test, turn any change to the rules into
a number that moved (``tests/test_perft.py``).

Counting rule: a node is a state ``depth`` decisions below the root, and a finished game reached
sooner (no legal actions) counts as one leaf at every greater depth, so ``perft(s, 0) == 1`` and
``perft(s, d) == 1`` for a finished ``s``. (Chess perft counts a mate before the depth as 0; here
the end of a game stays visible in the numbers.) A decision is one ``legal_actions()`` /
``apply()`` step of the seat to move, in turn or out of turn, so an interrupt question or a
"play another card?" is a ply like any other.

The walk uses only the core API: ``copy()`` and ``apply()`` per edge (states cannot be undone),
and at the last ply only ``len(legal_actions())`` (bulk counting), with no views or JSON.
"""

from __future__ import annotations

from citywatch.core.api import State


def perft(state: State, depth: int) -> int:
    """The number of leaves ``depth`` decisions below ``state`` (a finished game is a leaf)."""
    return perft_counts(state, depth)[-1] if depth > 0 else 1


def perft_counts(state: State, depth: int) -> list[int]:
    """``[perft(state, 1), ..., perft(state, depth)]``, from one walk of the tree."""
    if depth < 0:
        raise ValueError(f"the depth must be 0 or more, not {depth}")
    counts = [0] * depth
    if depth:
        _walk(state, 0, counts, owned=False)
    return counts


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Per legal action of ``state``: its ``str()`` and ``perft`` of the state after it at
    ``depth - 1``; the counts sum to ``perft(state, depth)`` (empty for a finished game)."""
    if depth < 1:
        raise ValueError(f"divide needs a depth of 1 or more, not {depth}")
    out: list[tuple[str, int]] = []
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        out.append((str(action), perft(child, depth - 1)))
    return out


def _walk(state: State, ply: int, counts: list[int], owned: bool) -> None:
    """Add the nodes below ``state`` (at ``ply``) to ``counts[ply:]``; ``owned``: the walk made
    this state and may change it (the caller's root is never changed)."""
    actions = state.legal_actions()
    depth = len(counts)
    if not actions:  # a finished game: one leaf at every greater depth
        for k in range(ply, depth):
            counts[k] += 1
        return
    counts[ply] += len(actions)
    if ply + 1 == depth:
        return
    last = len(actions) - 1
    for i, action in enumerate(actions):
        child = state if owned and i == last else state.copy()
        child.apply(action)
        _walk(child, ply + 1, counts, owned=True)
