"""Menu numbers that keep their meaning (issue 26): a choice of the same kind keeps its place
from one of a seat's decisions to the next.

Every action has a *kind*: its JSON form's verb (or, for an action without one, the first word
of its text). A decision that mixes lists (two kinds or more with several choices each) and has
more than ``FOLD_ABOVE`` choices is shown by kind: each kind with several choices is one
*group* ("Move … (8)", chosen then in steps), whatever the terminal's height, so a menu never
folds or unfolds because a screen had a line more or less. (Twelve areas to place a minion in
and "Skip" are one list and a choice: shown whole.)

The numbers: the terminal remembers each seat's last menus. A decision shares its sort with the
newest remembered menu that offered one of its kinds (the *reference*); between the two, a number
shown in both means the same kind, the same way (a group, or an action). So:

- an entry offered both times keeps its number (the same action, or the same kind's group);
- an entry of a kind the reference offered takes one of that kind's numbers if one is free
  (so "End movement" stays 5 while the moves before it come and go);
- any other entry takes the lowest number the reference did not use: a number that opened a
  group, or took an action of another kind, is left out rather than given a new meaning.

A decision that shares no kind with a remembered menu is numbered from 1 in the legal order.
Nothing here reads a state: only the legal actions' JSON forms and menu texts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FOLD_ABOVE = 10
"""A decision of several kinds with more choices than this is shown by kind."""
REMEMBERED = 8
"""How many of a seat's menus are remembered."""


def kind_of(form: Any, label: str) -> str:
    """An action's kind: its JSON verb, else the first word of its menu text."""
    if isinstance(form, dict) and isinstance(form.get("verb"), str):
        return str(form["verb"])
    return label.split(" ", 1)[0].lower() if label else ""


def action_key(form: Any) -> str:
    """A short key of an action's JSON form (the same action has the same key)."""
    text = json.dumps(form, sort_keys=True)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:12]


@dataclass(frozen=True)
class Entry:
    """One numbered line of a decision's menu: an action, or a group of a kind's actions."""

    kind: str
    key: str
    """``group:KIND`` for a group, else the action's key."""
    actions: tuple[int, ...]
    """The legal actions (their indices) it leads to."""

    @property
    def group(self) -> bool:
        """Whether it opens a list of its kind's actions (chosen in steps)."""
        return self.key.startswith("group:")


@dataclass
class Menu:
    """A numbered menu: number -> entry."""

    entries: dict[int, Entry] = field(default_factory=dict)

    def kinds(self) -> set[str]:
        """The kinds it offered."""
        return {e.kind for e in self.entries.values()}

    def numbered(self) -> list[tuple[int, Entry]]:
        """The entries in number order."""
        return sorted(self.entries.items())

    def to_json(self) -> list[list[Any]]:
        """``[number, kind, key]`` per entry, for the save (the actions are not kept)."""
        return [[n, e.kind, e.key] for n, e in self.numbered()]

    @classmethod
    def from_json(cls, data: Any) -> Menu:
        """A remembered menu from ``to_json`` (entries that do not read are left out)."""
        menu = cls()
        for item in data if isinstance(data, list) else ():
            if (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int)
                    and isinstance(item[1], str) and isinstance(item[2], str)):
                menu.entries[item[0]] = Entry(item[1], item[2], ())
        return menu


@dataclass
class Memory:
    """A seat's last menus, newest last."""

    menus: list[Menu] = field(default_factory=list)

    def reference(self, kinds: set[str]) -> Menu | None:
        """The newest remembered menu that offered one of ``kinds``."""
        return next((m for m in reversed(self.menus) if m.kinds() & kinds), None)

    def remember(self, menu: Menu) -> None:
        """Keep ``menu`` as the newest (forgetting the oldest beyond ``REMEMBERED``)."""
        self.menus = [*self.menus, menu][-REMEMBERED:]

    def to_json(self) -> list[list[list[Any]]]:
        """The menus, oldest first, for the save (a resumed game numbers as before)."""
        return [menu.to_json() for menu in self.menus]

    @classmethod
    def from_json(cls, data: Any) -> Memory:
        """A seat's memory from ``to_json``."""
        return cls([Menu.from_json(m) for m in data][-REMEMBERED:] if isinstance(data, list)
                   else [])


def entries_of(forms: Sequence[Any], labels: Sequence[str], foldable: bool) -> list[Entry]:
    """The menu's entries in the legal order: each action, or, for a decision that mixes lists
    (two kinds or more with several choices each) and has more than ``FOLD_ABOVE`` choices
    (when ``foldable``: every action has a verb), one group per kind with several choices,
    where its first action stands."""
    kinds = [kind_of(f, t) for f, t in zip(forms, labels, strict=True)]
    by_kind: dict[str, list[int]] = {}
    for i, kind in enumerate(kinds):
        by_kind.setdefault(kind, []).append(i)
    lists = sum(1 for group in by_kind.values() if len(group) > 1)
    fold = foldable and lists > 1 and len(forms) > FOLD_ABOVE
    entries: list[Entry] = []
    for i, kind in enumerate(kinds):
        group = by_kind[kind]
        if fold and len(group) > 1:
            if group[0] == i:
                entries.append(Entry(kind, f"group:{kind}", tuple(group)))
        else:
            entries.append(Entry(kind, action_key(forms[i]), (i,)))
    return entries


def number(entries: Sequence[Entry], reference: Menu | None) -> Menu:
    """Number ``entries`` so that every number shown in ``reference`` too keeps its meaning
    (the module's rules)."""
    menu = Menu()
    before = reference.entries if reference is not None else {}
    slot = {e.key: n for n, e in before.items()}
    left: list[Entry] = []
    for entry in entries:  # the same entry keeps its number
        n = slot.get(entry.key)
        if n is not None and n not in menu.entries:
            menu.entries[n] = entry
        else:
            left.append(entry)
    rest: list[Entry] = []
    for entry in left:  # a kind keeps its numbers, the same way (a group, or an action)
        n = next((n for n, e in sorted(before.items()) if n not in menu.entries
                  and e.kind == entry.kind and e.group == entry.group), None)
        if n is not None:
            menu.entries[n] = entry
        else:
            rest.append(entry)
    n = 1
    for entry in rest:  # the rest: numbers the reference left unused
        while n in menu.entries or n in before:
            n += 1
        menu.entries[n] = entry
    return menu
