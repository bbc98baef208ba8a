"""The game log (``citywatch.core.log``): who reads each sentence, and marks."""

from __future__ import annotations

from citywatch.core.log import LogEntry, entry_text, is_mark, log_entry, log_lines, log_mark


def test_each_seat_reads_what_the_entry_allows() -> None:
    """A public sentence for all; a private one for its seats and the omniscient reader, the
    others reading ``others`` or nothing; a mark for nobody."""
    tail = None
    for entry in (log_entry("Red plays."), log_mark("Red"),
                  log_entry("Red draws the Duck.", [0], "Red draws a card."),
                  log_entry("Blue counts.", (1,)), LogEntry("Green waits.")):
        tail = (entry, tail)
    assert log_lines(tail, 0) == ["Red plays.", "Red draws the Duck.", "Green waits."]
    assert log_lines(tail, 1) == ["Red plays.", "Red draws a card.", "Blue counts.",
                                  "Green waits."]
    assert log_lines(tail, None) == ["Red plays.", "Red draws the Duck.", "Blue counts.",
                                     "Green waits."]
    assert is_mark(log_mark("Red")) and not is_mark(log_entry("Red plays."))
    assert entry_text(log_mark("Red"), None) is None
    assert LogEntry("x", frozenset({2}), "y").for_seat(1) == "y"
