""""Since your last decision" (issue 26): every log line a seat may read since its last
decision, whole when it fits, else folded per player with what concerns the seat first.

A line is *by* the seat whose name it begins with (the names the views give,
``GameType.seat_name``); a line that begins with no name is by the first seat it names, else by
the game. A line *concerns* the seat when it is by the seat or names it.
Folded, the lines that concern the seat stay whole, first, in order; every other player's lines
become one line, their newest kept: "Blue: 5 moves (…; played Zorgo; drew 1 card)".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from citywatch.terminal.compact import one_line, to_lines
from citywatch.terminal.screens import indented

GAME = "The game"
"""Who a line is by when it names no seat."""
TAKEN = "Taken for you: "
"""How the terminal's own line about a choice taken for the seat begins (auto-take)."""
HEADING = "Since your last decision:"
FOLDED = "Since your last decision (what concerns you first; 'log' shows every line):"


def names_in(line: str, names: Sequence[str]) -> list[str]:
    """The seat names ``line`` mentions as whole words, in the order they appear."""
    found = []
    for name in names:
        m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line)
        if m:
            found.append((m.start(), name))
    return [name for _, name in sorted(found)]


@dataclass(frozen=True)
class Line:
    """One log line, who it is by and whether it concerns the viewing seat."""

    text: str
    by: str
    concerns: bool


def attribute(lines: Sequence[str], names: Sequence[str], me: str) -> list[Line]:
    """Who each line is by, and whether it concerns ``me``."""
    out = []
    longest_first = sorted(names, key=len, reverse=True)
    for text in lines:
        starts = next((n for n in longest_first if re.match(rf"{re.escape(n)}(?![\w-])", text)),
                      None)
        named = names_in(text, names)
        if text.startswith(TAKEN):
            out.append(Line(text, me, True))
            continue
        by = starts or (named[0] if named else GAME)
        out.append(Line(text, by, by == me or me in named))
    return out


def every_line(console: Console, lines: Sequence[str], width: int) -> list[Text]:
    """Every line, wrapped and indented, under the heading."""
    out = [Text(HEADING, style="bold")]
    for line in lines:
        out += to_lines(console, indented(line, 2), width)
    return out


def fold_text(by: str, texts: Sequence[str], width: int) -> str:
    """One player's lines as one line of at most ``width`` columns, the newest kept when they
    do not all fit: "Blue: 5 moves (…; played X; drew 1 card)" (the game's own lines: "The
    game: 2 events (...)")."""
    parts = []
    for text in texts:
        part = text.removeprefix(by).strip().rstrip(".")
        parts.append(part or text)
    word = "event" if by == GAME else "move"
    head = f"{by}: {len(texts)} {word}{'' if len(texts) == 1 else 's'} ("
    kept: list[str] = []
    for part in reversed(parts):
        shown = "; ".join([part, *kept])
        more = "…; " if len(kept) + 1 < len(parts) else ""
        if len(head) + len(more) + len(shown) + 1 > width and kept:
            break
        kept.insert(0, part)
    more = "…; " if len(kept) < len(parts) else ""
    return f"{head}{more}{'; '.join(kept)})"


def fold(console: Console, lines: Sequence[str], names: Sequence[str], me: str,
           width: int, room: int) -> list[Text]:
    """The lines that concern ``me`` whole and first, then one line per other player (a
    player with one line keeps it, cut to one line). Within ``room`` lines if it can: the
    lines that concern ``me`` are then cut to a line each, then the oldest of them give way
    to a count."""
    attributed = attribute(lines, names, me)
    mine = [line.text for line in attributed if line.concerns]
    others: dict[str, list[str]] = {}
    for line in attributed:
        if not line.concerns:
            others.setdefault(line.by, []).append(line.text)
    summed = [one_line(Text("  " + (texts[0] if len(texts) == 1
                                    else fold_text(by, texts, width - 2))), width)
              for by, texts in others.items()]
    heading = [one_line(Text(FOLDED, style="bold"), width)]
    concerning: list[Text] = []
    for text in mine:
        concerning += to_lines(console, indented(text, 2), width)
    space = room - len(heading) - len(summed)
    if len(concerning) > space:
        concerning = [one_line(Text("  " + text), width) for text in mine]
    if len(concerning) > max(space, 1):
        keep = max(space - 1, 1)
        dropped = len(concerning) - keep
        concerning = [Text(f"  … {dropped} earlier line{'s' if dropped > 1 else ''} about "
                           "you ('log' shows them)", style="dim"), *concerning[-keep:]]
    return [*heading, *concerning, *summed]


def recent_lines(console: Console, lines: Sequence[str], names: Sequence[str], me: str,
                 width: int, whole: int, folded: int) -> list[Text]:
    """"Since your last decision": every line if they take at most ``whole`` lines, else
    folded per player in at most ``folded`` lines when it can (``fold``). Nothing if nothing
    happened."""
    if not lines:
        return []
    every = every_line(console, lines, width)
    if len(every) <= whole:
        return every
    return fold(console, lines, names, me, width, folded)
