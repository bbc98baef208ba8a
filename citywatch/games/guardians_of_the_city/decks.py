"""Decks as data: a player's 50 Action and 40 Crisis cards, checked against every deck rule.

A deck is written as JSON (the starter decks' own form)::

    {"name": "My deck",
     "action": [{"name": "Raids", "count": 3}, {"id": "A01", "count": 2}, ...],
     "crisis": [{"name": "Fear Mongering", "count": 3}, ...],
     "suggested_effort": {"Military": 3, "Civil": 3, ...}}      # optional

Cards are named by ``name`` or ``id`` (or both, which must agree). :func:`read_deck` reads
that form (``DeckError`` for what is not a deck list); :func:`deck_problems` lists every deck
rule broken, each naming its rule: rulebook section 4 (50 Action cards, at most 3 copies,
at most 1 Galvanised People card of each type; 40 Crisis cards, at most 3 copies, at most 1
Subversive of each type) and ruling 20 (a deck is built from one set, so no card more often
than one box holds it). Rule 4 of each deck (shuffle) is the set-up's work (``turn.py``).
"""

from __future__ import annotations

import copy
import reprlib
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from citywatch.core.documents import DocumentLimits
from citywatch.core.setup_choice import SetupChoice
from citywatch.core.text import text_problem
from citywatch.games.guardians_of_the_city.data import (
    ACTION_BY_ID,
    ACTION_BY_NAME,
    ACTION_CARDS,
    CONSTANTS,
    CRISIS_BY_ID,
    CRISIS_BY_NAME,
    CRISIS_CARDS,
    DATA,
    PILLARS,
    ActionCard,
    CrisisCard,
)

DEFAULT_EFFORT: Final[tuple[int, ...]] = (3, 3, 2, 2, 2)
"""The opening effort of a deck without ``suggested_effort`` (players change it at set-up)."""
_KEYS: Final = frozenset({"id", "name", "plan", "action", "crisis", "suggested_effort"})

# -- limits (issue 24; docs/guardians-of-the-city-rulings.md), checked before any rule -------
MAX_CHARS: Final = 16 * 1024
"""Characters of a deck as compact JSON (a starter deck holds about 2,800)."""
MAX_DEPTH: Final = 4
"""Lists and objects inside each other (the form needs 3: the deck, a side, a card)."""
MAX_ENTRIES: Final = {"action": len(ACTION_CARDS), "crisis": len(CRISIS_CARDS)}
"""Entries of each side of a deck: one per card design of the set, each listed once."""
MAX_NAME: Final = 48
"""Characters of a deck's name (shown to every seat; the starter decks' hold up to 31)."""
MAX_ID: Final = 40
"""Characters of a deck's id."""
MAX_PLAN: Final = 300
"""Characters of a deck's plan (the starter decks' hold up to 133); also the longest string
anywhere in a deck."""
LIMITS: Final = DocumentLimits("a deck", MAX_CHARS, MAX_DEPTH, MAX_PLAN)
"""The size limits every deck document is held to first."""
TEXTS: Final = (("name", "the deck's name", MAX_NAME, 1), ("id", "the deck's id", MAX_ID, 0),
                ("plan", "the deck's plan", MAX_PLAN, 0))
"""The deck's fields others read, each held to the rule of a player's name (``core.text``):
field, its words in messages, most and fewest characters."""


class DeckError(ValueError):
    """A deck that is not a deck list or breaks a deck rule; the message names the rule."""


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: how many copies of each Action and Crisis card design (by index), its name,
    its starter id ("" for a player's own deck) and the opening effort it suggests."""

    name: str
    action: tuple[int, ...]
    crisis: tuple[int, ...]
    suggested_effort: tuple[int, ...] = DEFAULT_EFFORT
    id: str = ""
    plan: str = ""

    def __reduce__(self) -> tuple[type[Deck], tuple[Any, ...]]:
        """Pickled as a call of the class with the fields: a compiled frozen dataclass
        cannot be restored field by field."""
        return (type(self), (self.name, self.action, self.crisis, self.suggested_effort,
                             self.id, self.plan))

    def action_cards(self) -> list[int]:
        """Every Action card of the deck, one entry per copy, in card order."""
        return [i for i, n in enumerate(self.action) for _ in range(n)]

    def crisis_cards(self) -> list[int]:
        """Every Crisis card of the deck, one entry per copy, in card order."""
        return [i for i, n in enumerate(self.crisis) for _ in range(n)]

    def to_json(self) -> dict[str, Any]:
        """The deck in its JSON form (cards by id and name, in card order)."""
        data: dict[str, Any] = {}
        if self.id:
            data["id"] = self.id
        data["name"] = self.name
        if self.plan:
            data["plan"] = self.plan
        data["suggested_effort"] = dict(zip(PILLARS, self.suggested_effort, strict=True))
        data["action"] = [{"id": ACTION_CARDS[i].id, "name": ACTION_CARDS[i].name, "count": n}
                          for i, n in enumerate(self.action) if n]
        data["crisis"] = [{"id": CRISIS_CARDS[i].id, "name": CRISIS_CARDS[i].name, "count": n}
                          for i, n in enumerate(self.crisis) if n]
        return data


def _card(row: Any, side: str, where: str) -> tuple[int, int]:
    by_name, by_id, cards, other_name, other_id = (
        (ACTION_BY_NAME, ACTION_BY_ID, ACTION_CARDS, CRISIS_BY_NAME, CRISIS_BY_ID)
        if side == "action" else
        (CRISIS_BY_NAME, CRISIS_BY_ID, CRISIS_CARDS, ACTION_BY_NAME, ACTION_BY_ID))
    deck = "Action" if side == "action" else "Crisis"
    article = "an Action" if side == "action" else "a Crisis"
    if not isinstance(row, dict) or not ({"name", "id"} & set(row)) or \
            set(row) - {"name", "id", "count"}:
        raise DeckError(f"{where}: each card is an object with a 'name' or 'id' and a 'count'")
    name, card_id = row.get("name"), row.get("id")
    if not isinstance(name, str | None) or not isinstance(card_id, str | None):
        raise DeckError(f"{where}: a card's name and id are text")
    index = by_name.get(name) if name is not None else by_id.get(card_id or "")
    if index is None:
        label = name if name is not None else card_id
        if label in other_name or label in other_id:
            raise DeckError(f"{where}: {label!r} is not {article} card, it belongs in the "
                            f"{'Crisis' if side == 'action' else 'Action'} deck")
        raise DeckError(f"{where}: there is no {deck} card {label!r} in the set")
    if name is not None and card_id is not None and cards[index].id != card_id:
        raise DeckError(f"{where}: the id {card_id!r} does not match the card {name!r}")
    count = row.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DeckError(f"{where}: the count of {cards[index].name} must be a whole number of "
                        f"at least 1, not {count!r}")
    return index, count


def limit_problems(data: Any) -> list[str]:
    """The limits (``LIMITS``, ``MAX_ENTRIES``) a deck's JSON form breaks, then, if none, its
    shown texts (``TEXTS``) that break the rule of a player's name; each a sentence starting
    ``limit:`` or ``text:`` (empty: the deck's rules may be checked). Cheap whatever ``data``
    is."""
    found = LIMITS.problems(data)
    if found or not isinstance(data, dict):
        return found
    for side, most in MAX_ENTRIES.items():
        rows = data.get(side)
        if isinstance(rows, list) and len(rows) > most:
            found.append(f"limit: the {side.capitalize()} side of a deck lists at most {most} "
                         f"entries (one per card of the set), not {len(rows)}")
    for key, who, longest, shortest in TEXTS:
        value = data.get(key)
        if isinstance(value, str) and (value.strip() or shortest == 0):
            problem = text_problem(value, who, longest, shortest)
            if problem is not None:
                found.append(f"text: {problem} (the rule of a player's name)")
    return found


def read_deck(data: Any) -> Deck:
    """A deck from its JSON form, not yet checked against the deck rules; ``DeckError`` if it
    is not a deck list (unknown card, a card on the wrong side, a card listed twice, ...)."""
    if not isinstance(data, dict):
        raise DeckError("a deck must be a JSON object with 'name', 'action' and 'crisis'")
    unknown = set(data) - _KEYS
    if unknown:
        raise DeckError(f"unknown deck fields: {', '.join(sorted(map(str, unknown)))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DeckError("a deck needs a 'name'")
    counts: dict[str, list[int]] = {}
    for side, size in (("action", len(ACTION_CARDS)), ("crisis", len(CRISIS_CARDS))):
        rows = data.get(side)
        if not isinstance(rows, list):
            raise DeckError(f"a deck needs '{side}', a list of cards with counts")
        counts[side] = [0] * size
        for row in rows:
            index, count = _card(row, side, f"{name} {side} deck")
            if counts[side][index]:
                cards = ACTION_CARDS if side == "action" else CRISIS_CARDS
                raise DeckError(f"{name}: {cards[index].name} is listed twice")
            counts[side][index] = count
    effort = DEFAULT_EFFORT
    if "suggested_effort" in data:
        raw = data["suggested_effort"]
        if not isinstance(raw, dict) or set(raw) != set(PILLARS) or not all(
                isinstance(raw[p], int) and not isinstance(raw[p], bool) and 1 <= raw[p] <= 4
                for p in PILLARS) or sum(raw.values()) != 12:
            raise DeckError(f"{name}: suggested_effort must give every pillar 1-4, 12 in all "
                            "(rulebook section 5 step 2)")
        effort = tuple(raw[p] for p in PILLARS)
    deck_id, plan = data.get("id", ""), data.get("plan", "")
    if not isinstance(deck_id, str) or not isinstance(plan, str):
        raise DeckError(f"{name}: the deck's id and plan must be text")
    return Deck(unicodedata.normalize("NFC", name.strip()), tuple(counts["action"]),
                tuple(counts["crisis"]), effort, deck_id, unicodedata.normalize("NFC", plan))


def deck_problems(deck: Deck) -> list[str]:
    """Every deck rule ``deck`` breaks, each sentence naming its rule (empty: a legal deck)."""
    limits = CONSTANTS
    return (_side_problems("Action", deck.action, ACTION_CARDS, limits.action_deck_size,
                           "Galvanised People", limits.max_per_galvanised_type)
            + _side_problems("Crisis", deck.crisis, CRISIS_CARDS, limits.crisis_deck_size,
                             "Subversive", limits.max_per_subversive_type))


def _side_problems(side: str, counts: tuple[int, ...],
                   cards: Sequence[ActionCard | CrisisCard], size: int, typed: str,
                   type_limit: int) -> list[str]:
    problems: list[str] = []
    limits = CONSTANTS
    total = sum(counts)
    if total != size:
        problems.append(f"rulebook section 4, {side} deck rule 1: the {side} Card Game "
                        f"Deck must hold exactly {size} cards, not {total}")
    per_type: Counter[str] = Counter()
    reported: set[int] = set()
    for card, n in zip(cards, counts, strict=True):
        if n > limits.max_copies:
            problems.append(f"rulebook section 4, {side} deck rule 2: at most "
                            f"{limits.max_copies} copies of any {side} card, not {n} of "
                            f"{card.name}")
            reported.add(card.index)
        if n and card.type:
            per_type[card.type] += n
    for card_type, n in per_type.items():
        if n > type_limit:
            problems.append(f"rulebook section 4, {side} deck rule 3: at most {type_limit} "
                            f"{typed} card of each type, not {n} of type {card_type}")
            reported.update(c.index for c in cards if c.type == card_type)
    for card, n in zip(cards, counts, strict=True):
        if n > card.copies_in_box and card.index not in reported:
            problems.append(f"ruling 20 (each player builds from their own set, rulebook "
                            f"section 2): one set holds only {card.copies_in_box} "
                            f"{card.name}, not {n}")
    return problems


def check_deck(deck: Deck) -> Deck:
    """``deck`` if it keeps every deck rule; ``DeckError`` listing each rule broken."""
    problems = deck_problems(deck)
    if problems:
        raise DeckError(f"the deck {deck.name!r} breaks the deck rules: " + "; ".join(problems))
    return deck


def load_deck(data: Any) -> Deck:
    """Check a deck's JSON form against the limits and the rule of shown text first
    (``limit_problems``), then read it and check it against every deck rule (``DeckError``
    naming each broken)."""
    found = limit_problems(data)
    if found:
        raise DeckError("the deck is refused: " + "; ".join(found))
    return check_deck(read_deck(data))


def _starters() -> tuple[Deck, ...]:
    decks = []
    for raw in DATA.starter_decks:
        deck = load_deck(raw)
        if not deck.id:
            raise DeckError(f"the starter deck {deck.name!r} needs an id")
        decks.append(deck)
    return tuple(decks)


STARTER_DECKS: Final = _starters()
"""The four starter decks (stand-in presets), in the JSON's order."""


def starter_deck(key: str) -> Deck:
    """The starter deck with this id or name (any case); ``DeckError`` naming the others."""
    wanted = key.strip().lower()
    for deck in STARTER_DECKS:
        if wanted in (deck.id.lower(), deck.name.lower(), deck.name.lower().split(" (")[0]):
            return deck
    known = ", ".join(d.id for d in STARTER_DECKS)
    raise DeckError(f"there is no starter deck {key!r}; the starter decks are {known}")


def deck_from(value: Any) -> Deck:
    """A checked deck from a :class:`Deck`, a starter deck's id or name, or a deck's JSON
    form; ``DeckError`` otherwise."""
    if isinstance(value, Deck):
        return check_deck(value)
    if isinstance(value, str):
        return starter_deck(value)
    return load_deck(value)


GAME_NAME: Final = "guardians-of-the-city"


class DeckChoice(SetupChoice):
    """Each seat's deck as the interfaces see it (``GameType.setup``): the four starter
    decks, the deck rules' check, and a deck file's optional ``"game"`` field."""

    name = "deck"
    plural = "decks"
    keyword = "decks"
    per_seat = True
    help = "the deck each seat plays: a starter deck or a deck of one's own"

    def shipped(self) -> list[dict[str, Any]]:
        """The starter decks' JSON forms, in order."""
        return [deck.to_json() for deck in STARTER_DECKS]

    def summary(self, doc: dict[str, Any]) -> str:
        """A starter deck's plan."""
        return str(doc.get("plan", ""))

    def problems(self, data: Any) -> list[str]:
        """Every limit, or else every rule of shown text and deck rule, the deck's JSON form
        breaks (``DeckError`` if not a deck list)."""
        found = limit_problems(data)
        if any(p.startswith("limit:") for p in found):
            return found
        return found + deck_problems(read_deck(_without_game(data)))

    def builder(self) -> dict[str, Any]:
        """The card pool a deck is built from (``SetupChoice.builder``): the Action cards
        (filtered by pillar, effort and kind; the curve by pillar and effort) and the Crisis
        cards (by pillar and kind; the curve by pillar), each with how many one set holds."""
        return copy.deepcopy(_BUILDER)

    def load(self, value: Any) -> dict[str, Any]:
        """A legal deck's JSON form from a starter deck's id or name or a deck's JSON form
        (``DeckError`` naming each rule broken)."""
        return deck_from(_without_game(value)).to_json()


CELLS_ONLY: Final = "Cells"
"""A Crisis card's pillar in the builder when it acts on the Terrorist Cells only."""


def _kind(kind: str) -> str:
    """A card kind in words (``galvanised_people``: ``Galvanised People``)."""
    return kind.replace("_", " ").title()


def _builder() -> dict[str, Any]:
    """The deck builder's JSON (``DeckChoice.builder``), from the game's data."""
    action = [{"id": c.id, "name": c.name, "text": c.text,
               "fields": {"Pillar": PILLARS[c.pillar], "Effort": c.min_effort,
                          "Kind": _kind(c.kind), "Type": c.type or "-",
                          "In a set": c.copies_in_box}}
              for c in ACTION_CARDS]
    crisis = [{"id": c.id, "name": c.name, "text": c.text,
               "fields": {"Pillar": PILLARS[c.pillar] if c.pillar >= 0 else CELLS_ONLY,
                          "Kind": _kind(c.kind), "Type": c.type or "-",
                          "In a set": c.copies_in_box}}
              for c in CRISIS_CARDS]
    return {"skeleton": {"game": GAME_NAME, "name": "My deck"},
            "largest": CONSTANTS.max_copies + 1,
            "lists": [{"key": "action", "label": "Action", "size": CONSTANTS.action_deck_size,
                       "fields": ["Pillar", "Effort", "Kind", "Type", "In a set"],
                       "filters": ["Pillar", "Effort", "Kind"],
                       "curve": ["Pillar", "Effort"], "entries": action},
                      {"key": "crisis", "label": "Crisis", "size": CONSTANTS.crisis_deck_size,
                       "fields": ["Pillar", "Kind", "Type", "In a set"],
                       "filters": ["Pillar", "Kind"],
                       "curve": ["Pillar"], "entries": crisis}]}


_BUILDER: Final = _builder()


def _without_game(data: Any) -> Any:
    """A deck's JSON form without its optional ``"game"`` field (``DeckError`` if that field
    names another game)."""
    if not isinstance(data, dict) or "game" not in data:
        return data
    if data["game"] != GAME_NAME:
        raise DeckError(f"this deck is for {reprlib.repr(data['game'])}, not {GAME_NAME}")
    return {k: v for k, v in data.items() if k != "game"}


DECKS: Final = DeckChoice()
"""Each seat's deck, the game's set-up choice (``GuardiansOfTheCity.type.setup``)."""
