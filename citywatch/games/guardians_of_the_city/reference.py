"""Guardians of the City Vol.2's rules reference (``Game.reference()``): the game's facts for
people, read from the checked card set (``data.py``) and the starter decks (``decks.py``).

Sections, in order: the card set itself (its stand-in label, which must show wherever the cards
are), the five Total Defence pillars, the Citizen Groups, the Terrorist Cells, every Action and
Crisis card design (id, kind, type, pillar, minimum effort, copies in a set, text), the starter
decks with their card counts, and the terms of the how-to-play guide (``data/how-to-play.json``).
Kinds are written as on the cards ("Galvanised People"), pillars by name; nothing here depends on
a game in progress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citywatch.core.guide import Guide, load_guide, with_terms
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    DATA,
    GROUPS,
    LABEL,
    PILLARS,
    ActionCard,
    CrisisCard,
)
from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS, Deck

KIND_WORDS = {"action": "Action", "galvanised_people": "Galvanised People",
              "special_intelligence": "Special Intelligence", "crisis": "Crisis",
              "subversive": "Subversive"}
"""A card kind as the cards name it."""
TITLES = {"card_set": "Card set", "pillars": "Total Defence pillars",
          "citizen_groups": "Citizen Groups", "terrorist_cells": "Terrorist Cells",
          "action_cards": "Action cards", "crisis_cards": "Crisis cards",
          "starter_decks": "Starter decks"}
"""Each section's heading."""

Entry = dict[str, Any]


def action_entry(card: ActionCard) -> Entry:
    """An Action card design: id, name, kind, type (Galvanised People only), pillar, minimum
    effort, copies in a set and text."""
    entry: Entry = {"id": card.id, "name": card.name, "kind": KIND_WORDS[card.kind]}
    if card.type:
        entry["type"] = card.type
    entry |= {"pillar": PILLARS[card.pillar], "min_effort": card.min_effort,
              "copies_in_box": card.copies_in_box, "text": card.text}
    return entry


def crisis_entry(card: CrisisCard) -> Entry:
    """A Crisis card design: id, name, kind, type (Subversive only), pillar (none for a card
    that acts only on the cells), copies in a set and text."""
    entry: Entry = {"id": card.id, "name": card.name, "kind": KIND_WORDS[card.kind]}
    if card.type:
        entry["type"] = card.type
    if card.pillar >= 0:
        entry["pillar"] = PILLARS[card.pillar]
    entry |= {"copies_in_box": card.copies_in_box, "text": card.text}
    return entry


def _counts(counts: tuple[int, ...], names: list[str]) -> str:
    """A deck's side as ``3 Border Patrol, 2 Raids, ...`` in card order."""
    return ", ".join(f"{n} {names[i]}" for i, n in enumerate(counts) if n)


def deck_entry(deck: Deck) -> Entry:
    """A starter deck: id, name, plan, suggested effort, and its cards with their counts."""
    return {
        "id": deck.id, "name": deck.name, "plan": deck.plan,
        "suggested_effort": ", ".join(f"{p} {e}" for p, e in
                                      zip(PILLARS, deck.suggested_effort, strict=True)),
        "action_cards": sum(deck.action),
        "action_deck": _counts(deck.action, [c.name for c in ACTION_CARDS]),
        "crisis_cards": sum(deck.crisis),
        "crisis_deck": _counts(deck.crisis, [c.name for c in CRISIS_CARDS]),
    }


def how_to_play() -> Guide:
    """Set-up, a turn, how to win and the terms (``data/how-to-play.json``)."""
    return load_guide(Path(__file__).parent / "data" / "how-to-play.json")


def reference(game: str) -> dict[str, Any]:
    """The whole reference of ``game`` (its registered name), a new JSON object each call."""
    c = CONSTANTS
    return with_terms({
        "game": game,
        "label": LABEL,
        "card_set": [{
            "name": LABEL, "text": DATA.about,
            "action_cards": sum(card.copies_in_box for card in ACTION_CARDS),
            "crisis_cards": sum(card.copies_in_box for card in CRISIS_CARDS),
        }],
        "pillars": [{
            "name": name,
            "national_effort": f"{c.effort_min} to {c.effort_max}",
            "action_cards": sum(card.copies_in_box for card in ACTION_CARDS
                                if card.pillar == p),
            "crisis_cards": sum(card.copies_in_box for card in CRISIS_CARDS
                                if card.pillar == p),
        } for p, name in enumerate(PILLARS)],
        "citizen_groups": [{"name": name, "starting_support": c.group_start,
                            "max_support": c.group_max} for name in GROUPS],
        "terrorist_cells": [{"name": name, "starting_strength": c.cell_start,
                             "max_strength": c.cell_max} for name in CELLS],
        "action_cards": [action_entry(card) for card in ACTION_CARDS],
        "crisis_cards": [crisis_entry(card) for card in CRISIS_CARDS],
        "starter_decks": [deck_entry(deck) for deck in STARTER_DECKS],
        "titles": dict(TITLES),
    }, how_to_play())
