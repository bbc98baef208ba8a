"""Numbered action spaces and observation layouts for a game's encoding (``Encoding``).

``ActionSpace`` numbers every action of a declared-verb table (``citywatch.core.verbs``):
verbs in name order, and within a verb its fields as mixed-radix digits, the first field most
significant, each digit the field's value + 1 (so an unused field, -1, is 0). ``ActionList``
and ``ActionIndex`` give a game's ``ACTIONS`` and ``INDEX`` over such a numbering without
listing them. ``Layout`` names the blocks of an observation vector and the largest value of
each number in it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

from citywatch.core.verbs import Verbs

A = TypeVar("A")


class ActionSpace:
    """Every action of ``verbs`` numbered from 0, a field of kind k taking ``sizes[k]`` values
    (0 to ``sizes[k] - 1``) or -1."""

    def __init__(self, verbs: Verbs[Any], sizes: Mapping[str, int]) -> None:
        self.width = verbs.size
        """How many integers an action has after its verb."""
        self.verb_names = tuple(sorted(verbs))
        """The verbs in the order they are numbered."""
        self._radices: list[tuple[int, ...]] = []
        self._starts: list[int] = []
        self._number = {name: i for i, name in enumerate(self.verb_names)}
        total = 0
        for name in self.verb_names:
            radices = tuple(sizes[kind] + 1 for _, kind in verbs[name].fields)
            self._radices.append(radices)
            self._starts.append(total)
            count = 1
            for radix in radices:
                count *= radix
            total += count
        self._size = total

    def __len__(self) -> int:
        return self._size

    def verb_range(self, verb: str) -> tuple[int, int]:
        """The first number of ``verb``'s actions and one past the last."""
        i = self._number[verb]
        stop = self._starts[i + 1] if i + 1 < len(self._starts) else self._size
        return self._starts[i], stop

    def number(self, verb: str, values: Sequence[int]) -> int:
        """The number of the action ``verb`` with ``values``; ``KeyError`` if it is outside
        the space (an unknown verb, a value out of range, or a value for a field the verb
        does not have)."""
        i = self._number.get(verb)
        if i is None:
            raise KeyError((verb, *values))
        radices = self._radices[i]
        index = 0
        for radix, value in zip(radices, values, strict=False):
            if not 0 <= value + 1 < radix:
                raise KeyError((verb, *values))
            index = index * radix + value + 1
        if any(v != -1 for v in values[len(radices):]):
            raise KeyError((verb, *values))
        return self._starts[i] + index

    def action_at(self, index: int) -> tuple[str, list[int]]:
        """The verb and the ``width`` integers (-1 when unused) of the action numbered
        ``index``; ``IndexError`` if out of range."""
        if not 0 <= index < self._size:
            raise IndexError(f"action index must be 0 to {self._size - 1}, not {index}")
        i = bisect_right(self._starts, index) - 1  # the last verb starting at or before index
        rest = index - self._starts[i]
        values = [-1] * self.width
        radices = self._radices[i]
        for k in range(len(radices) - 1, -1, -1):
            rest, digit = divmod(rest, radices[k])
            values[k] = digit - 1
        return self.verb_names[i], values


class ActionList(Sequence[A]):
    """The ``size`` actions numbered 0 to ``size - 1``, each computed on demand by
    ``action_at`` (which raises ``IndexError`` out of range)."""

    def __init__(self, size: int, action_at: Callable[[int], A]) -> None:
        self._size = size
        self._action_at = action_at

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> A: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[A]: ...

    def __getitem__(self, i: int | slice) -> A | Sequence[A]:
        if isinstance(i, slice):
            return [self._action_at(k) for k in range(*i.indices(self._size))]
        return self._action_at(i if i >= 0 else i + self._size)


class ActionIndex(Mapping[Any, int], Generic[A]):
    """Action -> its number, computed on demand by ``number`` for instances of ``kind``
    (anything else is a ``KeyError``); iterates the actions in number order."""

    def __init__(self, kind: type[A], actions: Sequence[A], number: Callable[[A], int]) -> None:
        self._kind = kind
        self._actions = actions
        self._number = number

    def __getitem__(self, action: Any) -> int:
        if not isinstance(action, self._kind):
            raise KeyError(action)
        return self._number(action)

    def __iter__(self) -> Iterator[Any]:
        return (self._actions[i] for i in range(len(self._actions)))

    def __len__(self) -> int:
        return len(self._actions)


class Layout:
    """The named blocks of an observation vector, added in order."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[int, int]] = {}
        """Block name -> (start, size) in the vector."""
        self.high: list[float] = []
        """The largest value of each number in the vector."""

    def block(self, name: str, size: int, high: float = 1.0) -> int:
        """Add a block of ``size`` numbers from 0 to ``high``; return its start.
        ``ValueError`` if the name is taken or the size negative."""
        if name in self.blocks or size < 0:
            raise ValueError(f"bad observation block {name!r} of size {size}")
        start = len(self.high)
        self.blocks[name] = (start, size)
        self.high.extend([high] * size)
        return start
