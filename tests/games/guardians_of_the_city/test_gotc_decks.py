"""Guardians of the City decks: every deck rule (rulebook section 4; ruling 20) refused with
the message naming it, the starter decks, and decks in ``new_game``."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from citywatch.games.guardians_of_the_city.decks import (
    STARTER_DECKS,
    DeckError,
    check_deck,
    deck_from,
    deck_problems,
    load_deck,
    read_deck,
    starter_deck,
)
from citywatch.games.guardians_of_the_city.game import GAME


def starter(index: int = 3) -> dict[str, Any]:
    """A starter deck's JSON form to edit (default: Total Defence)."""
    return copy.deepcopy(STARTER_DECKS[index].to_json())


def set_count(deck: dict[str, Any], side: str, name: str, count: int) -> dict[str, Any]:
    """Set a card's count (adding the row if needed, removing it at 0)."""
    rows = deck[side]
    for row in rows:
        if row["name"] == name:
            if count:
                row["count"] = count
            else:
                rows.remove(row)
            return deck
    rows.append({"name": name, "count": count})
    return deck


def problems(deck: dict[str, Any]) -> list[str]:
    return deck_problems(read_deck(deck))


def test_the_starter_decks_keep_every_deck_rule() -> None:
    """Ruling 20: the four starter presets meet every deck rule of rulebook section 4."""
    assert [d.id for d in STARTER_DECKS] == ["vanguard", "heartland", "lifeline",
                                             "total_defence"]
    for deck in STARTER_DECKS:
        assert deck_problems(deck) == []
        assert sum(deck.action) == 50 and sum(deck.crisis) == 40


def test_action_deck_rule_1_exactly_50_cards() -> None:
    """Rulebook section 4, Action deck rule 1: exactly 50 cards."""
    deck = set_count(starter(), "action", "Raids", 2)
    assert problems(deck) == ["rulebook section 4, Action deck rule 1: the Action Card Game "
                              "Deck must hold exactly 50 cards, not 49"]


def test_action_deck_rule_2_at_most_3_copies() -> None:
    """Rulebook section 4, Action deck rule 2: at most 3 copies of any Action card (the box's
    own limit is not reported twice)."""
    deck = set_count(set_count(starter(), "action", "Raids", 4), "action", "Border Patrol", 1)
    assert problems(deck) == ["rulebook section 4, Action deck rule 2: at most 3 copies of "
                              "any Action card, not 4 of Raids"]


def test_action_deck_rule_3_one_galvanised_people_card_of_each_type() -> None:
    """Rulebook section 4, Action deck rule 3: at most 1 Galvanised People card of each type."""
    deck = set_count(set_count(starter(), "action", "Galvanised People (Loyalty)", 2),
                     "action", "Border Patrol", 1)
    assert problems(deck) == ["rulebook section 4, Action deck rule 3: at most 1 Galvanised "
                              "People card of each type, not 2 of type Loyalty"]


def test_crisis_deck_rule_1_exactly_40_cards() -> None:
    """Rulebook section 4, Crisis deck rule 1: exactly 40 cards."""
    deck = set_count(starter(), "crisis", "Armed Standoff", 0)
    assert problems(deck) == ["rulebook section 4, Crisis deck rule 1: the Crisis Card Game "
                              "Deck must hold exactly 40 cards, not 38"]


def test_crisis_deck_rule_2_at_most_3_copies() -> None:
    """Rulebook section 4, Crisis deck rule 2: at most 3 copies of any Crisis card."""
    deck = set_count(set_count(starter(), "crisis", "Fear Mongering", 4),
                     "crisis", "Armed Standoff", 1)
    assert problems(deck) == ["rulebook section 4, Crisis deck rule 2: at most 3 copies of "
                              "any Crisis card, not 4 of Fear Mongering"]


def test_crisis_deck_rule_3_one_subversive_of_each_type() -> None:
    """Rulebook section 4, Crisis deck rule 3: at most 1 Subversive card of each type."""
    deck = set_count(set_count(starter(), "crisis", "Subversive (Disrupt)", 2),
                     "crisis", "Armed Standoff", 1)
    assert problems(deck) == ["rulebook section 4, Crisis deck rule 3: at most 1 Subversive "
                              "card of each type, not 2 of type Disrupt"]


def test_ruling_20_no_more_copies_than_one_set_holds() -> None:
    """Ruling 20 (rulebook section 2: each player builds from their own set): Precision
    Strike comes twice in a box, so a third copy is refused."""
    deck = set_count(set_count(set_count(starter(), "action", "Precision Strike", 3),
                               "action", "Border Patrol", 1), "action", "Raids", 2)
    assert problems(deck) == ["ruling 20 (each player builds from their own set, rulebook "
                              "section 2): one set holds only 2 Precision Strike, not 3"]


def test_every_rule_broken_is_listed_in_the_error() -> None:
    """check_deck raises DeckError (a ValueError) listing each rule broken."""
    deck = set_count(set_count(starter(), "action", "Raids", 4), "crisis", "Armed Standoff", 0)
    with pytest.raises(ValueError) as info:
        load_deck(deck)
    assert isinstance(info.value, DeckError)
    text = str(info.value)
    assert "Action deck rule 1" in text and "Action deck rule 2" in text
    assert "Crisis deck rule 1" in text and text.startswith("the deck 'Total Defence")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["action"].append({"name": "No Such Card", "count": 1}),
     "there is no Action card 'No Such Card' in the set"),
    (lambda d: d["action"].append({"name": "Fear Mongering", "count": 1}),
     "'Fear Mongering' is not an Action card, it belongs in the Crisis deck"),
    (lambda d: d["crisis"].append({"id": "A03", "count": 1}),
     "'A03' is not a Crisis card, it belongs in the Action deck"),
    (lambda d: d["action"].append({"name": "Raids", "count": 1}), "Raids is listed twice"),
    (lambda d: d["action"][0].update(count=0), "must be a whole number of at least 1"),
    (lambda d: d["action"][0].update(id="A09"), "does not match the card"),
    (lambda d: d.pop("crisis"), "a deck needs 'crisis'"),
    (lambda d: d.update(name=""), "a deck needs a 'name'"),
    (lambda d: d.update(colour="red"), "unknown deck fields: colour"),
    (lambda d: d["suggested_effort"].update(Military=4), "suggested_effort must give"),
])
def test_what_is_not_a_deck_list_is_refused_clearly(change: Any, message: str) -> None:
    """A deck file that is not a deck list is refused with DeckError saying what is wrong."""
    deck = starter()
    change(deck)
    with pytest.raises(DeckError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_deck(deck)


def test_a_deck_round_trips_through_json_and_starters_are_found_by_name() -> None:
    """A deck's JSON form reads back to the same deck; starter decks by id or name."""
    for deck in STARTER_DECKS:
        assert load_deck(json.loads(json.dumps(deck.to_json()))) == deck
    assert starter_deck("Heartland").id == "heartland"
    assert starter_deck("LIFELINE") is STARTER_DECKS[2]
    assert deck_from("vanguard") is STARTER_DECKS[0]
    assert check_deck(STARTER_DECKS[1]) is STARTER_DECKS[1]
    with pytest.raises(DeckError, match="the starter decks are vanguard, heartland"):
        starter_deck("nope")


def test_new_game_takes_one_deck_per_player_and_checks_each() -> None:
    """Rulebook section 4 and ruling 20: each player brings their own deck, checked before the
    game; a deck breaking a rule is refused naming the seat and the rule."""
    own = set_count(set_count(starter(), "action", "Raids", 2), "action", "Border Patrol", 3)
    own["name"] = "My deck"
    s = GAME.new_game(2, 1, decks=["lifeline", own])
    assert [d.name for d in s.decks] == ["Lifeline (stand-in preset)", "My deck"]
    with pytest.raises(ValueError, match="one deck per player: 2 decks, not 1"):
        GAME.new_game(2, 1, decks=["lifeline"])
    bad = set_count(starter(), "action", "Raids", 4)
    with pytest.raises(ValueError, match=r"Player 2's deck: .*Action deck rule 2"):
        GAME.new_game(2, 1, decks=["lifeline", bad])
    with pytest.raises(ValueError, match="one deck per player"):
        GAME.new_game(2, 1, decks="lifeline")


def test_decks_are_fixed_for_the_whole_game() -> None:
    """Ruling 20 (rulebook section 4: not in the middle of a game): the state keeps each
    player's deck list; no action changes it."""
    s = GAME.new_game(2, 4, decks=["heartland", "heartland"])
    before = list(s.decks)
    for _ in range(200):
        if s.to_move is None:
            break
        s.apply(s.legal_actions()[0])
    assert s.decks == before


def test_deck_size_limits_come_first_and_shown_texts_keep_the_name_rule() -> None:
    """Citywatch rulings 16 and 17 (issue 24): a deck listing more entries than the set has
    cards is refused by that limit alone, before any deck rule; a deck whose name holds a
    right-to-left override and a NUL is refused, naming the field and the rule."""
    book = GAME.type.choice("decks")
    assert book is not None
    starter = {k: v for k, v in copy.deepcopy(book.shipped()[0]).items() if k != "id"}
    too_long = {**starter, "action": [{"id": "A01", "count": 1}] * 35}
    found = book.problems(too_long)
    assert found and all(p.startswith("limit: ") for p in found), found
    attack = {**starter, "name": "\u202e" + "x" * 40 + "\x00"}
    found = book.problems(attack)
    assert any(p.startswith("text: the deck's name") for p in found), found
    with pytest.raises(ValueError, match="the deck's name"):
        book.load(attack)
    assert book.problems(starter) == []
