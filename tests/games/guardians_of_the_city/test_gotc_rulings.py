"""Guardians of the City: citywatch's own rulings without a test elsewhere
(``docs/guardians-of-the-city-rulings.md``), and the meta-tests that every rulebook section,
every shared ruling, every citywatch ruling and every card is named by some test."""

from __future__ import annotations

import re
from pathlib import Path

from gotc_positions import (
    act,
    crisis_top,
    discards,
    effort,
    game_with,
    hand,
    legal,
    load,
    reveal,
    step2,
    support,
    task,
)

from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CRISIS_CARDS
from citywatch.games.guardians_of_the_city.effects import weakened
from citywatch.games.guardians_of_the_city.game import GAME

P1, P2 = 0, 1
TESTS = Path(__file__).parent
RULINGS_DOC = TESTS.parents[2] / "docs" / "guardians-of-the-city-rulings.md"


# --- citywatch rulings ------------------------------------------------------------------------
def test_choosing_several_cells_or_groups_is_one_decision() -> None:
    """Citywatch ruling 8: a set of different cells or groups is chosen in one decision, and
    nothing is asked when there is no choice."""
    pos = step2(game_with("Joint Task Force"), P1)
    hand(pos, P1, ["Joint Task Force", "Emergency Response Team"])
    effort(pos, P1, "33222")
    s = load(pos)
    act(s, "Play Joint Task Force")
    assert len(legal(s)) == 3 and task(s)[0] == "cells"
    pos["cells"] = {"The Harbour Network": 0, "The Grey Couriers": 6, "The Night Signal": 6}
    s = load(pos)
    act(s, "Play Joint Task Force", "Raise the support of Youth")
    assert s.cells == [0, 5, 5]


def test_a_galvanised_play_is_one_decision_and_stopping_is_offered_while_cards_remain() -> None:
    """Citywatch ruling 10: "Play X with Galvanised People (Y)" is one decision; stopping is
    offered while a card could be played, and Step 2 ends by itself when none can."""
    unity = "Galvanised People (Unity)"
    pos = step2(game_with(unity), P1)
    hand(pos, P1, [unity, "Raids", "Precision Strike"])
    effort(pos, P1, "33231")
    s = load(pos)
    assert legal(s) == ["Play Raids", f"Play Raids with {unity}",
                        "Play no more Action cards this turn"]
    act(s, f"Play Raids with {unity}", "Reduce The Grey Couriers")
    assert s.cells == [6, 3, 6] and task(s)[0] == "step4"  # Precision Strike cannot be played


def test_the_last_group_leaving_lowers_no_pillar() -> None:
    """Citywatch ruling 11 (ruling 5): a player losing their last group lowers nothing; the
    game ends after the card with their effort still adding up to 9."""
    pos = game_with("Youth Disillusionment")
    effort(pos, P1, "33321")
    effort(pos, P2, "33222")
    support(pos, P1, "1000")
    effort(pos, P1, "22311")
    crisis_top(pos, P1, ["Youth Disillusionment"])
    s = load(reveal(pos, P1))
    assert s.result is not None and sum(s.effort[P1]) == 9
    assert not any("lowers" in line for line in s.log()[-4:])


def test_weakened_reductions_never_grow() -> None:
    """Citywatch ruling 12 (weaken_reductions): an amount is lowered by the cut but not below
    the floor, and an amount already below the floor is not raised to it."""
    assert weakened(2, 1, 1) == 1 and weakened(1, 1, 1) == 1 and weakened(3, 1, 1) == 2
    assert weakened(1, 1, 2) == 1 and weakened(4, 3, 2) == 2 and weakened(2, 0, 0) == 2


def test_conservation_may_take_nothing_or_the_paired_card_itself() -> None:
    """Citywatch ruling 13: "up to one card" allows none; the paired card is already in the
    discard pile and may come back."""
    conservation = "Galvanised People (Conservation)"
    pos = step2(game_with(conservation), P1)
    hand(pos, P1, [conservation, "Raids", "Border Patrol"])
    effort(pos, P1, "33222")
    s = load(pos)
    act(s, f"Play Raids with {conservation}", "Reduce The Night Signal")
    assert legal(s) == ["Take Raids back from your discard pile", "Take no card back"]
    act(s, "Take no card back")
    assert sorted(ACTION_CARDS[c].name for c in s.action_discard[P1]) == [conservation, "Raids"]
    discards(pos, P1, [])
    s = load(pos)
    act(s, f"Play Raids with {conservation}", "Reduce The Night Signal",
        "Take Raids back from your discard pile")
    assert sorted(ACTION_CARDS[c].name for c in s.hand[P1]) == ["Border Patrol", "Raids"]


def test_default_decks_and_seats() -> None:
    """Citywatch rulings 1 and 4: seats are Player 1-4 in turn order from a first player drawn
    at random; without decks, seat k plays the k-th starter deck."""
    s = GAME.new_game(4, 2)
    assert [d.id for d in s.decks] == ["vanguard", "heartland", "lifeline", "total_defence"]
    assert s.view(None)["seats"][3]["name"] == "Player 4"
    assert s.view(None)["first"] == f"Player {s.first + 1}"


# --- every rule and card is named by a test ---------------------------------------------------
def _texts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8")
            for path in sorted(TESTS.glob("test_gotc_*.py"))}


def _numbers(listed: str) -> set[int]:
    found: set[int] = set()
    for part in re.split(r",\s*|\s+and\s+", listed):
        if "-" in part:
            low, high = part.split("-")
            found.update(range(int(low), int(high) + 1))
        elif part.strip().isdigit():
            found.add(int(part))
    return found


def cited(kind: str) -> set[int]:
    """Numbers cited as "rulebook section N", "ruling(s) N" (the shared rulings) or "citywatch
    ruling(s) N", including lists and ranges ("rulings 5, 15", "rulings 1-3")."""
    numbers = r"(\d+(?:-\d+)?(?:(?:,\s*|\s+and\s+)\d+(?:-\d+)?)*)"
    patterns = {
        "section": rf"(?i)rulebook\s+sections?\s+{numbers}",
        "shared": rf"(?i)(?<!citywatch )(?<!citywatch\n)\brulings?\s+{numbers}",
        "citywatch": rf"(?i)citywatch\s+rulings?\s+{numbers}",
    }
    found: set[int] = set()
    for text in _texts().values():
        for match in re.finditer(patterns[kind], text):
            found |= _numbers(match.group(1))
    return found


def test_every_rulebook_section_is_named_by_a_test() -> None:
    """The rulebook's sections 1-10 each have a test naming them."""
    assert set(range(1, 11)) <= cited("section")


def test_every_shared_ruling_is_named_by_a_test() -> None:
    """The shared rulings 1-20 each have a test naming them."""
    assert set(range(1, 21)) <= cited("shared")


def test_every_citywatch_ruling_is_named_by_a_test() -> None:
    """Every ruling of docs/guardians-of-the-city-rulings.md has a test naming it."""
    numbered = {int(n) for n in re.findall(r"(?m)^(\d+)\. \*\*", RULINGS_DOC.read_text())}
    assert numbered == set(range(1, len(numbered) + 1)) and len(numbered) >= 10
    assert numbered <= cited("citywatch")


def test_every_card_has_a_test_of_its_own() -> None:
    """Every Action card is named in test_gotc_action_cards.py and every Crisis card in
    test_gotc_crisis_cards.py, by a test function named after it."""
    texts = _texts()
    for cards, name in ((ACTION_CARDS, "test_gotc_action_cards.py"),
                        (CRISIS_CARDS, "test_gotc_crisis_cards.py")):
        functions = re.findall(r"def (test_\w+)", texts[name])
        for card in cards:
            slug = re.sub(r"[^a-z0-9]+", "_", card.name.lower()).strip("_")
            assert card.name in texts[name], f"{card.name} has no test"
            assert any(slug in f for f in functions), f"no test is named after {card.name}"
