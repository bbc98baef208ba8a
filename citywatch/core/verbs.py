"""Declared verbs: actions as a verb and a few small integers that read as English.

A game declares each verb once with ``Verbs.declare(name, fields, text)``: ``fields`` names,
for each integer in order, its JSON key and its kind (a tile, a card, a seat, a number, ...),
and ``text`` says the action in words. The table then writes an action's integers as JSON that
names things (``{"verb": "play", "card": "Raids"}``) and reads that JSON back, with a clear
``ValueError`` for anything malformed. An unused integer is -1 and is left out of the JSON.

A ``FieldKind`` says how one kind of integer is named, written and read; ``Number``, ``Names``
and ``NameSet`` cover most kinds, and a game subclasses ``FieldKind`` for its own.

A game's action class subclasses ``VerbAction2`` or ``VerbAction3`` (a named tuple of the verb
and two or three integers) and sets ``VERBS`` to its table; ``str()``, ``to_json`` and
``from_json`` then read that table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, Self, TypeVar

A = TypeVar("A")
"""The game's action type, which a verb's ``text`` reads."""


class FieldKind:
    """How one kind of field is named, written as JSON and read back."""

    def name(self, index: int) -> str:
        """The readable name of ``index``."""
        raise NotImplementedError

    def to_json(self, index: int) -> Any:
        """The JSON value of ``index`` (its name unless a kind says otherwise)."""
        return self.name(index)

    def from_json(self, raw: Any) -> int:
        """The index that the JSON value ``raw`` names; ``ValueError`` saying what is wrong."""
        raise NotImplementedError


class Number(FieldKind):
    """A whole number >= 0, written as itself."""

    def name(self, index: int) -> str:
        """The number in digits."""
        return str(index)

    def to_json(self, index: int) -> Any:
        """The number itself."""
        return index

    def from_json(self, raw: Any) -> int:
        """``raw`` if it is a whole number >= 0."""
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            raise ValueError(f"{raw!r} is not a whole number >= 0")
        return raw


class Names(FieldKind):
    """One of a fixed list of names, written by name (matched ignoring case if asked)."""

    def __init__(self, what: str, names: Sequence[str], *, ignore_case: bool = False) -> None:
        self.what = what
        """What one of the names is, in words (for errors)."""
        self.names = tuple(names)
        self.ignore_case = ignore_case
        self._index = {self._key(name): i for i, name in enumerate(self.names)}
        if len(self._index) != len(self.names):
            raise ValueError(f"the {what} names are not all different")

    def _key(self, name: str) -> str:
        return name.lower() if self.ignore_case else name

    def name(self, index: int) -> str:
        """The ``index``-th name."""
        return self.names[index]

    def from_json(self, raw: Any) -> int:
        """The index of the name ``raw``."""
        found = self._index.get(self._key(raw)) if isinstance(raw, str) else None
        if found is None:
            raise ValueError(f"unknown {self.what} {raw!r}")
        return found


class NameSet(FieldKind):
    """A non-empty set of different names, as a bitmask (bit i: ``names[i]``), written as the
    list of the names in order."""

    def __init__(self, what: str, names: Sequence[str]) -> None:
        self.what = what
        """What the names are, in words (for errors)."""
        self.names = tuple(names)

    def members(self, mask: int) -> list[str]:
        """The names of the bits set in ``mask``, in order."""
        return names_of(mask, self.names)

    def name(self, index: int) -> str:
        """The names in ``index``, as ``a, b and c``."""
        return and_list(self.members(index))

    def to_json(self, index: int) -> Any:
        """The list of the names in ``index``."""
        return self.members(index)

    def from_json(self, raw: Any) -> int:
        """The bitmask of a list of different names."""
        if not isinstance(raw, list) or not raw or not all(
                isinstance(n, str) and n in self.names for n in raw) or len(set(raw)) != len(raw):
            raise ValueError(f"{raw!r} is not a list of different {self.what}")
        return sum(1 << self.names.index(n) for n in raw)


def names_of(mask: int, names: Sequence[str]) -> list[str]:
    """The names of the bits set in ``mask``, in order."""
    return [name for i, name in enumerate(names) if mask >> i & 1]


def and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Verb(Generic[A]):
    """A declared verb: (JSON key, field kind) for each integer in order, and how it reads."""

    fields: tuple[tuple[str, str], ...]
    text: Callable[[A], str]


class Verbs(Mapping[str, Verb[A]]):
    """A game's declared verbs by name, for actions of up to ``size`` integers whose field
    kinds are ``kinds`` (kind name -> ``FieldKind``)."""

    def __init__(self, size: int, kinds: Mapping[str, FieldKind]) -> None:
        if size < 0:
            raise ValueError(f"a verb table needs a size >= 0, not {size}")
        self.size = size
        self.kinds: dict[str, FieldKind] = dict(kinds)
        self._verbs: dict[str, Verb[A]] = {}

    def __getitem__(self, name: str) -> Verb[A]:
        return self._verbs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._verbs)

    def __len__(self) -> int:
        return len(self._verbs)

    def declare(self, name: str, fields: tuple[tuple[str, str], ...],
                text: Callable[[A], str]) -> str:
        """Declare a verb; return its name. ``ValueError`` if it is declared already, has more
        than ``size`` fields, an unknown kind or a JSON key used twice."""
        if name in self._verbs:
            raise ValueError(f"verb {name!r} declared twice")
        keys = [key for key, _ in fields]
        if len(fields) > self.size or any(kind not in self.kinds for _, kind in fields) \
                or "verb" in keys or len(set(keys)) != len(keys):
            raise ValueError(f"bad fields for verb {name!r}: {fields}")
        self._verbs[name] = Verb(fields, text)
        return name

    def withdraw(self, name: str) -> None:
        """Forget the verb ``name`` (a test's scaffolding verb, once its tests are done);
        ``KeyError`` if it is not declared."""
        del self._verbs[name]

    def name_of(self, kind: str, index: int) -> str:
        """The readable name of ``index`` as a ``kind``."""
        return self.kinds[kind].name(index)

    def to_json(self, name: str, values: Sequence[int]) -> dict[str, Any]:
        """The JSON dict of the verb ``name`` with ``values``, leaving out unused (-1) fields."""
        data: dict[str, Any] = {"verb": name}
        for (key, kind), value in zip(self._verbs[name].fields, values, strict=False):
            if value >= 0:
                data[key] = self.kinds[kind].to_json(value)
        return data

    def from_json(self, data: Any) -> tuple[str, list[int]]:
        """The verb and the ``size`` integers (-1 when unused) of an action dict;
        ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
            raise ValueError("an action must be an object with a 'verb'")
        name = data["verb"]
        if name not in self._verbs:
            raise ValueError(f"unknown verb {name!r}")
        fields = self._verbs[name].fields
        unknown = set(data) - {"verb"} - {key for key, _ in fields}
        if unknown:
            raise ValueError(f"unknown fields for {name!r}: {sorted(unknown)}")
        values = [-1] * self.size
        for i, (key, kind) in enumerate(fields):
            if key in data:
                try:
                    values[i] = self.kinds[kind].from_json(data[key])
                except ValueError as e:
                    raise ValueError(f"field {key!r} of {name!r}: {e}") from None
        return name, values


class _ActionTuple(Protocol):
    """A verb action as its methods see it: the class's table, the verb and the tuple."""

    VERBS: ClassVar[Verbs[Any]]

    @property
    def verb(self) -> str: ...

    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...


class VerbAction:
    """What an action of a verb and integers does through its class's ``VERBS`` table."""

    __slots__ = ()
    VERBS: ClassVar[Verbs[Any]]
    """The game's verb table (set by the game's action class)."""

    def __str__(self: _ActionTuple) -> str:
        return self.VERBS[self.verb].text(self)

    def to_json(self: _ActionTuple) -> dict[str, Any]:
        """A JSON dict naming the action's integers by their fields' kinds."""
        return self.VERBS.to_json(self.verb, self[1:])

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Read an action dict; ``ValueError`` naming what is wrong."""
        name, values = cls.VERBS.from_json(data)
        return cls(name, *values)  # type: ignore[call-arg]


class _Two(NamedTuple):
    verb: str
    x: int = -1
    y: int = -1


class _Three(NamedTuple):
    verb: str
    x: int = -1
    y: int = -1
    z: int = -1


class VerbAction2(VerbAction, _Two):
    """One decision: a declared verb and up to two integers (-1 when unused)."""

    __slots__ = ()


class VerbAction3(VerbAction, _Three):
    """One decision: a declared verb and up to three integers (-1 when unused)."""

    __slots__ = ()
