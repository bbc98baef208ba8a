"""Set-up choices: what is chosen before play that a JSON document fills, a deck or a
scenario alike (issue 25). A game ships some documents, chosen by id; a player may bring a
document of their own, which the choice checks against every rule. A choice is made once
per table or once per seat. Every interface offers a game's choices through this one class
(``GameType.setup``), never through a game's own keys."""

from __future__ import annotations

import reprlib
from abc import ABC, abstractmethod
from typing import Any

from citywatch.core.text import title_of

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = 4
_SHORT.maxlevel = 2


class SetupChoice(ABC):
    """One set-up choice of a game: its words, the ``new_game`` keyword that takes it, the
    shipped documents and the check of one's own. A value is a shipped document's id (or
    name) or a document's JSON form; a per-seat choice takes a list of such values, one per
    seat in seat order."""

    name: str
    """In words, singular (``deck``); the command line's flag and subcommand."""
    plural: str
    """In words, plural (``decks``)."""
    keyword: str
    """The ``new_game`` keyword (and the option's name in records) that takes the value."""
    per_seat: bool = False
    """One per seat (a list, in seat order), else one per table."""
    help: str = ""
    """A few words on what it chooses, for pages and ``--help``."""

    @abstractmethod
    def shipped(self) -> list[dict[str, Any]]:
        """Every shipped document's JSON form, in order; each has an ``"id"`` and a
        ``"name"`` (and may have a ``"summary"`` in a sentence)."""

    @abstractmethod
    def problems(self, data: Any) -> list[str]:
        """Every rule the document ``data`` breaks, each naming its rule (empty: a good one);
        ``ValueError`` if ``data`` is not such a document at all."""

    @abstractmethod
    def load(self, value: Any) -> dict[str, Any]:
        """The JSON form of a good document given as a shipped id or name or as a JSON form;
        ``ValueError`` naming the rules broken."""

    def notes(self, data: Any) -> list[str]:
        """What is allowed in a good document ``data`` but worth knowing, each naming its
        rule (empty by default: a choice with nothing to note)."""
        return []

    def builder(self) -> dict[str, Any] | None:
        """What a page needs to build a document of this choice by picking entries (issue
        29), or None (the default: no builder). A JSON object::

            {"skeleton": {...},        # the document's fields besides its lists
             "largest": 9,             # the most copies of one entry the page offers
             "lists": [{"key": "...", "label": "...", "size": 50,
                        "fields": ["Pillar", ...],  # each entry's fields, in order
                        "filters": ["Pillar", ...], # the fields a page filters by
                        "curve": ["Pillar", "Effort"],  # rows (and columns) of the curve
                        "entries": [{"id": "...", "name": "...", "text": "...",
                                     "fields": {"Pillar": "Military", ...}}, ...]}]}

        A document lists, under each list's ``key``, ``{"id", "name", "count"}`` per entry
        chosen (count at least 1); ``problems`` checks it."""
        return None

    def ids(self) -> list[str]:
        """The shipped documents' ids, in order."""
        return [str(doc["id"]) for doc in self.shipped()]

    def default(self, players: int) -> Any:
        """The value ``new_game`` takes when nothing is chosen: the first shipped id, or for
        a per-seat choice the shipped ids in order, round again if there are more seats."""
        ids = self.ids()
        if not self.per_seat:
            return ids[0]
        return [ids[seat % len(ids)] for seat in range(players)]

    def shipped_id(self, value: Any) -> str | None:
        """The id of the shipped document ``value`` names (by id or name), or None."""
        if isinstance(value, str):
            for doc in self.shipped():
                if value in (doc["id"], doc["name"]):
                    return str(doc["id"])
        return None

    def check_one(self, value: Any) -> Any:
        """One document's value as a record keeps it: a shipped id as it is (a name becomes
        its id), else the document's JSON form; ``ValueError`` naming every rule broken."""
        found = self.shipped_id(value)
        if found is not None:
            return found
        if isinstance(value, str):
            raise ValueError(f"there is no {self.name} {_SHORT.repr(value)}; the shipped "
                             f"{self.plural} are {', '.join(self.ids())}")
        if not isinstance(value, dict):
            raise ValueError(f"a {self.name} is a shipped {self.name}'s id or a {self.name} "
                             f"of one's own (a JSON object), not {_SHORT.repr(value)}")
        return self.load(value)

    def check(self, value: Any) -> Any:
        """``value`` as a record keeps it (``check_one``; for a per-seat choice, a non-empty
        list of them); ``ValueError`` naming the choice, the seat (from 1) and the rule
        broken."""
        if not self.per_seat:
            try:
                return self.check_one(value)
            except ValueError as exc:
                raise ValueError(f"option {self.keyword}: {exc}") from None
        if not isinstance(value, list | tuple) or not value:
            raise ValueError(f"option {self.keyword} must list one {self.name} per seat")
        chosen = []
        for seat, item in enumerate(value, start=1):
            try:
                chosen.append(self.check_one(item))
            except ValueError as exc:
                raise ValueError(f"seat {seat}'s {self.name}: {exc}") from None
        return chosen

    def show(self, value: Any) -> str:
        """A value in a few words: a document by its name (if that keeps the rule of shown
        text, ``core.text.title_of``); a per-seat list joined by `` / ``."""
        if isinstance(value, list | tuple):
            return " / ".join(self.show(item) for item in value)
        found = self.shipped_id(value)
        if found is not None:
            return next(str(doc["name"]) for doc in self.shipped() if doc["id"] == found)
        return title_of(value, f"a {self.name} of one's own")

    def summary(self, doc: dict[str, Any]) -> str:
        """A shipped document's summary in a sentence (its ``"summary"``; empty if none)."""
        return str(doc.get("summary", ""))

    def to_json(self) -> dict[str, Any]:
        """The choice for pages and tools: its words, keyword, whether per seat, and each
        shipped document's ``id``, ``name`` and ``summary``; ``builder``: whether it has a
        builder (``builder``)."""
        return {"name": self.name, "plural": self.plural, "keyword": self.keyword,
                "per_seat": self.per_seat, "help": self.help,
                "builder": self.builder() is not None,
                "shipped": [{"id": doc["id"], "name": doc["name"],
                             "summary": self.summary(doc)}
                            for doc in self.shipped()]}
