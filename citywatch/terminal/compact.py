"""The compact decision screen's parts (issue 16): rendering to lines cut to fit, the hand on a
line or two, menus laid out in columns and pages, and big choices narrowed one field at a time.

Nothing here reads a state: the parts take a seat's view, the legal actions' texts and their
JSON forms.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

GAP = 3
"""Spaces between menu columns."""
MAX_COLUMNS = 3
MISSING = "(none)"
"""How a step shows a field that some of the remaining actions lack."""


def to_lines(console: Console, renderable: RenderableType, width: int,
             height: int | None = None) -> list[Text]:
    """``renderable`` as ``console`` draws it ``width`` columns wide (and, given ``height``,
    told it has that many lines: ``options.max_height``): one styled ``Text`` per line,
    trailing spaces removed."""
    options = console.options.update_width(width)
    if height is not None:
        options = options.copy()
        options.max_height = max(0, height)
    out = []
    for segments in console.render_lines(renderable, options, pad=False):
        line = Text(no_wrap=True, overflow="ellipsis")
        for segment in segments:
            if not segment.control:
                line.append(segment.text, segment.style)
        line.rstrip()
        out.append(line)
    return out


def non_blank(lines: list[Text]) -> list[Text]:
    """The lines with some text."""
    return [line for line in lines if line.plain.strip()]


def cut(lines: list[Text], most: int, more: str) -> list[Text]:
    """At most ``most`` lines; when some are left out, the last one kept says ``more``."""
    if len(lines) <= most:
        return lines
    if most <= 0:
        return []
    return [*lines[:most - 1], Text(more, style="dim")]


def one_line(text: Text | str, width: int) -> Text:
    """``text`` on one line of ``width`` columns, ending in an ellipsis when cut."""
    line = text.copy() if isinstance(text, Text) else Text(text)
    line.truncate(width, overflow="ellipsis")
    return line


def value_text(value: Any) -> str:
    """A field's value in words: a name as it is, a list joined, nothing as "none"."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value) or "nothing"
    return json.dumps(value, sort_keys=True)


def item_name(item: Any) -> str:
    """A card (or other thing held) by its name."""
    if isinstance(item, dict):
        for key in ("name", "title", "id"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return value_text(item)


def hand_lines(console: Console, heading: Text | None, items: list[Any] | None,
               width: int) -> list[Text]:
    """The hand on one or two lines: the hand screen's heading (its first line) and the names
    held, cut with an ellipsis if they take more."""
    if items is None:
        return [] if heading is None else [one_line(heading, width)]
    line = heading.copy() if heading is not None else Text("Your hand")
    line.no_wrap, line.overflow = False, None
    line.rstrip()
    line.append(" " if line.plain.endswith(":") else ": ")
    line.append(" · ".join(item_name(i) for i in items) if items else "(nothing)")
    lines = to_lines(console, line, width)
    if len(lines) > 2:
        second = lines[1].copy()
        second.truncate(width - 2)
        second.append(" …")
        lines = [lines[0], second]
    return lines


# --- menus: columns and pages ------------------------------------------------------------------
@dataclass
class MenuLayout:
    """A menu's numbered items laid out ``columns`` wide, ``pages`` of item indices."""

    items: list[Text]
    width: int
    console: Console
    heights: dict[tuple[int, int], int] = field(default_factory=dict)

    def column_width(self, columns: int) -> int:
        """The width of each of ``columns`` columns."""
        return (self.width - GAP * (columns - 1)) // columns

    def height(self, index: int, width: int) -> int:
        """Lines item ``index`` takes in a column ``width`` wide."""
        key = (index, width)
        if key not in self.heights:
            self.heights[key] = len(self.items[index].wrap(self.console, max(1, width)))
        return self.heights[key]

    def rows(self, indices: Sequence[int], columns: int) -> int:
        """Lines the items ``indices`` take in ``columns`` columns (filled down, then across)."""
        width = self.column_width(columns)
        per_column = -(-len(indices) // columns)
        return sum(max(self.height(indices[r + c * per_column], width)
                       for c in range(columns) if r + c * per_column < len(indices))
                   for r in range(per_column))

    def best_columns(self, indices: Sequence[int]) -> tuple[int, int]:
        """(columns, lines) with the fewest lines (fewer columns on a tie; one column for a
        short menu that fits one line each); more than one column only where no item has to
        be wrapped."""
        tried = [(self.rows(indices, 1), 1)]
        for columns in range(2, min(MAX_COLUMNS, len(indices)) + 1):
            if self.rows(indices, columns) == -(-len(indices) // columns):
                tried.append((self.rows(indices, columns), columns))
        if len(indices) <= 8 and tried[0][0] == len(indices):
            return 1, tried[0][0]
        lines, columns = min(tried)
        return columns, lines

    def pages(self, room: int) -> list[list[int]]:
        """The items in pages of at most ``room`` lines each (one page if they fit)."""
        everything = list(range(len(self.items)))
        if self.best_columns(everything)[1] <= room:
            return [everything]
        pages: list[list[int]] = []
        start = 0
        while start < len(self.items):
            size = 1
            while (start + size < len(self.items)
                   and self.best_columns(range(start, start + size + 1))[1] <= room):
                size += 1
            pages.append(list(range(start, start + size)))
            start += size
        return pages

    def lines(self, indices: Sequence[int]) -> list[Text]:
        """The items ``indices`` drawn in their best number of columns."""
        columns, _ = self.best_columns(indices)
        width = self.column_width(columns)
        per_column = -(-len(indices) // columns)
        out = []
        for r in range(per_column):
            cells = [self.items[indices[r + c * per_column]].wrap(self.console, width)
                     for c in range(columns) if r + c * per_column < len(indices)]
            for i in range(max(len(cell) for cell in cells)):
                line = Text()
                for c, cell in enumerate(cells):
                    part = cell[i].copy() if i < len(cell) else Text()
                    part.rstrip()
                    if c < len(cells) - 1:
                        part.pad_right(width - part.cell_len + GAP)
                    line.append_text(part)
                line.rstrip()
                out.append(line)
        return out


# --- big choices in steps ----------------------------------------------------------------------
@dataclass
class Option:
    """One choice of a step: a field's value, the actions it leaves, and its menu text."""

    value: str
    """The value's key (its JSON, sorted; ``MISSING`` for an action without the field)."""
    actions: list[int]
    text: str


def key_of(value: Any) -> str:
    """A value's key: its JSON with sorted keys."""
    return json.dumps(value, sort_keys=True)


def common_words(texts: Sequence[str]) -> str:
    """The words every text begins with."""
    split = [t.split() for t in texts]
    words = []
    for column in zip(*split, strict=False):
        if any(w != column[0] for w in column):
            break
        words.append(column[0])
    return " ".join(words)


@dataclass
class Steps:
    """A decision's legal actions narrowed one field of their JSON at a time (issue 16): first
    the verb if there are several, then each field in the JSON's key order, offering only the
    values that still lead to a legal action; a field with one value left is skipped."""

    forms: list[Any]
    """Each legal action's JSON form, in the order of the legal actions."""
    labels: list[str]
    """Each legal action's menu text."""
    picks: list[tuple[str, str]] = field(default_factory=list)
    """The (field, value key) picked so far."""

    def stepwise(self) -> bool:
        """Whether every action is an object with a verb (so it can be chosen in steps)."""
        return all(isinstance(f, dict) and "verb" in f for f in self.forms)

    def remaining(self) -> list[int]:
        """The actions still possible after the picks."""
        return [i for i, form in enumerate(self.forms)
                if all(self.value_key(form, name) == value for name, value in self.picks)]

    @staticmethod
    def value_key(form: dict[str, Any], name: str) -> str:
        """The key of ``form``'s value of field ``name`` (``MISSING`` if it has none)."""
        return key_of(form[name]) if name in form else MISSING

    def fields(self, actions: list[int]) -> list[str]:
        """The fields of ``actions``: the verb, then the others as their JSON orders them."""
        names = ["verb"]
        for i in actions:
            names += [name for name in self.forms[i] if name not in names]
        return names

    def step(self) -> tuple[str, list[Option]] | None:
        """The next field to pick and its options; None when one action is left."""
        actions = self.remaining()
        if len(actions) <= 1:
            return None
        picked = {name for name, _ in self.picks}
        for name in self.fields(actions):
            if name in picked:
                continue
            groups: dict[str, list[int]] = {}
            for i in actions:
                groups.setdefault(self.value_key(self.forms[i], name), []).append(i)
            if len(groups) > 1:
                return name, [Option(value, group, self.option_text(name, value, group))
                              for value, group in groups.items()]
        return None

    def option_text(self, name: str, value: str, group: list[int]) -> str:
        """A value's menu text: the action's own text when it leaves one action, else the
        value (for the verb, the words its actions begin with) and how many it leaves."""
        if len(group) == 1:
            return self.labels[group[0]]
        if name == "verb":
            words = common_words([self.labels[i] for i in group])
            shown = (words if len(words.split()) >= 2
                     else json.loads(value).replace("_", " ").capitalize())
            return f"{shown} … ({len(group)})"
        shown = value if value == MISSING else value_text(json.loads(value))
        return f"{shown} … ({len(group)})"

    def crumbs(self) -> str:
        """The values picked so far, in words."""
        words = []
        for name, value in self.picks:
            if name == "verb":
                words.append(json.loads(value).replace("_", " ").capitalize())
            else:
                words.append(value if value == MISSING else value_text(json.loads(value)))
        return " › ".join(words)

    def pick(self, name: str, option: Option) -> None:
        """Take ``option`` for field ``name``."""
        self.picks.append((name, option.value))

    def back(self) -> bool:
        """Undo the last pick; False if there was none."""
        if not self.picks:
            return False
        self.picks.pop()
        return True
