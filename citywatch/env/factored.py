"""Factored actions: one decision chosen head by head (issue 33).

A game whose decisions are large (``Encoding.heads``) gives each action its value on a few
heads (``Encoding.parts``: the verb, then each field). The environment then asks for one head
at a time from a small ``Discrete`` space: the mask of a head marks the values that some legal
action with the heads chosen so far has, so every masked choice leads to a legal action. A
head whose legal values are one value is taken without asking, and the action is applied as
soon as the heads chosen name exactly one legal action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt


class HeadByHead:
    """The heads chosen so far of one decision, over its legal actions."""

    def __init__(self, heads: tuple[int, ...], parts: Callable[[Any], tuple[int, ...]]) -> None:
        if not heads or min(heads) < 1:
            raise ValueError(f"heads must be one or more positive sizes, not {heads!r}")
        self.heads = heads
        self.width = max(heads)
        """The size of the ``Discrete`` space that every head is chosen from."""
        self._parts = parts
        self._legal: list[Any] = []
        self._table = np.zeros((0, len(heads)), dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int64)
        self.chosen: list[int] = []
        """The values of the heads chosen (or taken as forced) so far, head 0 first."""

    def copy(self) -> HeadByHead:
        """An independent chooser at the same point of the same decision."""
        twin = HeadByHead(self.heads, self._parts)
        twin._legal = self._legal
        twin._table = self._table
        twin._rows = self._rows
        twin.chosen = list(self.chosen)
        return twin

    @property
    def head(self) -> int:
        """The head to choose now."""
        return len(self.chosen)

    def start(self, legal: Sequence[Any]) -> Any | None:
        """Begin a decision over ``legal`` (at least one action); return the action when it
        is already decided (a single legal action), else None."""
        if not legal:
            raise ValueError("a decision needs at least one legal action")
        self._legal = list(legal)
        table = np.array([self._parts(a) for a in self._legal], dtype=np.int64)
        if table.shape[1] != len(self.heads):
            raise ValueError(f"parts give {table.shape[1]} values, the heads are "
                             f"{len(self.heads)}")
        self._table = table
        self._rows = np.arange(len(self._legal))
        self.chosen = []
        return self._advance()

    def mask(self) -> npt.NDArray[np.int8]:
        """1 at each value of the head to choose that some legal action allows, over
        ``width`` values."""
        mask = np.zeros(self.width, dtype=np.int8)
        mask[self._table[self._rows, self.head]] = 1
        return mask

    def allows(self, value: int) -> bool:
        """Whether ``value`` is a legal choice of the head to choose."""
        return bool(np.any(self._table[self._rows, self.head] == value))

    def choose(self, value: int) -> Any | None:
        """Choose ``value`` for the head to choose; return the action once the heads name
        exactly one legal action, else None. ``ValueError`` if the mask forbids it."""
        if not self.allows(value):
            raise ValueError(f"head {self.head} cannot take {value} now")
        self._rows = self._rows[self._table[self._rows, self.head] == value]
        self.chosen.append(int(value))
        return self._advance()

    def _advance(self) -> Any | None:
        """Take forced heads; the action once one legal action is left."""
        while len(self._rows) > 1:
            if self.head >= len(self.heads):
                raise ValueError("two legal actions have the same parts")
            values = self._table[self._rows, self.head]
            if not np.all(values == values[0]):
                return None
            self.chosen.append(int(values[0]))
        return self._legal[int(self._rows[0])]


def choosing_size(heads: tuple[int, ...]) -> int:
    """The numbers the observation adds for a factored decision: the head to choose
    (one-hot over the heads), then each head's chosen value (one-hot over its size)."""
    return len(heads) + sum(heads)


def choosing_block(heads: tuple[int, ...], chooser: HeadByHead | None) -> npt.NDArray[np.float32]:
    """The block ``choosing_size(heads)`` long: zeros unless ``chooser`` is mid-decision."""
    block = np.zeros(choosing_size(heads), dtype=np.float32)
    if chooser is not None and chooser.head < len(heads):
        block[chooser.head] = 1.0
        offset = len(heads)
        for size, value in zip(heads, chooser.chosen, strict=False):
            block[offset + value] = 1.0
            offset += size
    return block
