"""The game log: plain sentences, each visible to all seats or to some only.

The log is a persistent linked list so that copying a state copies one reference. A sentence
every seat reads is kept as its text alone; only the others are ``LogEntry`` values.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class LogEntry(NamedTuple):
    """One sentence. ``seats`` is None for public entries, else the seats that read ``text``;
    every other seat reads ``others`` (or nothing, when ``others`` is None)."""

    text: str
    seats: frozenset[int] | None = None
    others: str | None = None

    def for_seat(self, seat: int | None) -> str | None:
        """The sentence as ``seat`` reads it (``None``: the omniscient reader)."""
        if self.seats is None or seat is None or seat in self.seats:
            return self.text
        return self.others


_new_tuple: Final = tuple.__new__


def log_entry(text: str, seats: frozenset[int] | None = None,
              others: str | None = None) -> LogEntry | str:
    """What the log keeps for a sentence: the text itself when every seat reads it, else
    ``LogEntry(text, seats, others)`` (built without the named tuple's interpreted
    ``__new__``: the log gains an entry at almost every decision)."""
    if seats is None and others is None:
        return text
    return _new_tuple(LogEntry, (text, seats, others))


LogNode = tuple[LogEntry | str, Any]
"""A log node ``(entry, previous node or None)``: the entry is a public sentence's text, or a
``LogEntry``. The previous node is typed ``Any``, not the recursive ``LogNode | None``: mypyc
(2.4.1) unfolds a recursive tuple alias without end and crashes (exit 245, a C stack overflow
in the compiled compiler)."""


def log_append(tail: LogNode | None, entry: LogEntry | str) -> LogNode:
    """Return a new tail with ``entry`` added."""
    return (entry, tail)


def log_lines(tail: LogNode | None, seat: int | None) -> list[str]:
    """All sentences from first to last as ``seat`` may read them."""
    lines: list[str] = []
    node = tail
    while node is not None:
        entry = node[0]
        text = entry if isinstance(entry, str) else entry.for_seat(seat)
        if text is not None:
            lines.append(text)
        node = node[1]
    lines.reverse()
    return lines
