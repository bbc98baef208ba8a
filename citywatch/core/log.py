"""The game log: plain sentences, each visible to all seats or to some only.

The log is a persistent linked list so that copying a state copies one reference. An entry
is one of:

- a public sentence: its text;
- a sentence some seats read: ``(text, seats, others)``, a plain tuple (a ``LogEntry`` reads
  the same way), where every other seat reads ``others`` (or nothing, when it is None);
- a mark, ``(label,)``: read by nobody, it tells where a decision's lines begin (``log_mark``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, NamedTuple


class LogEntry(NamedTuple):
    """One sentence. ``seats`` is None for public entries, else the seats that read ``text``;
    every other seat reads ``others`` (or nothing, when ``others`` is None)."""

    text: str
    seats: Collection[int] | None = None
    others: str | None = None

    def for_seat(self, seat: int | None) -> str | None:
        """The sentence as ``seat`` reads it (``None``: the omniscient reader)."""
        return entry_text(self, seat)


Entry = str | tuple[Any, ...]
"""A log entry: a public sentence's text, ``(text, seats, others)`` or a mark ``(label,)``."""


def log_entry(text: str, seats: Iterable[int] | None = None, others: str | None = None) -> Entry:
    """What the log keeps for a sentence: the text itself when every seat reads it, else
    ``(text, seats as a tuple, others)``."""
    if seats is None and others is None:
        return text
    return (text, None if seats is None else tuple(seats), others)


def log_mark(label: str) -> tuple[str, ...]:
    """A mark no seat reads, with a ``label`` (a game's own: the deciding seat's colour, say)."""
    return (label,)


def is_mark(entry: Entry) -> bool:
    """Whether ``entry`` is a mark (``log_mark``)."""
    return not isinstance(entry, str) and len(entry) == 1


def entry_text(entry: Entry, seat: int | None) -> str | None:
    """The entry as ``seat`` reads it (``None``: the omniscient reader; a mark: nobody)."""
    if isinstance(entry, str):
        return entry
    if len(entry) == 1:
        return None
    seats = entry[1]
    if seats is None or seat is None or seat in seats:
        text: str = entry[0]
        return text
    others: str | None = entry[2]
    return others


LogNode = tuple[Entry, Any]
"""A log node ``(entry, previous node or None)``. The previous node is typed ``Any``, not the
recursive ``LogNode | None``: mypyc (2.4.1) unfolds a recursive tuple alias without end and
crashes (exit 245, a C stack overflow in the compiled compiler)."""


def log_append(tail: LogNode | None, entry: Entry) -> LogNode:
    """Return a new tail with ``entry`` added."""
    return (entry, tail)


def log_lines(tail: LogNode | None, seat: int | None) -> list[str]:
    """All sentences from first to last as ``seat`` may read them."""
    lines: list[str] = []
    node = tail
    while node is not None:
        text = entry_text(node[0], seat)
        if text is not None:
            lines.append(text)
        node = node[1]
    lines.reverse()
    return lines
