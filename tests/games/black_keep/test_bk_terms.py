"""Issue 26: ``? TERM`` knows every term the Black Keep's screens use (``glossary.py``): each
capitalised term or status word of the menu lines, logs, views and terminal screens of played
games is found in the rules reference (cards, treasures, scenarios, tiles, the guide's
terms)."""

from __future__ import annotations

from typing import Any

import pytest
from glossary import screen_texts, unknown_terms

from citywatch.core.registry import load

GAME = load("black-keep")


@pytest.mark.parametrize(("players", "options"), [
    (1, {"scenario": "tutorial"}),
    (2, {"scenario": "the-vault", "mode": "coop", "difficulty": "medium"}),
    (3, {"scenario": "the-black-keep", "mode": "rivals", "difficulty": "hard",
         "advanced": "on"}),
])
def test_question_mark_knows_every_term_the_screens_use(players: int,
                                                        options: dict[str, Any]) -> None:
    """Every shipped scenario, solo, co-op and rivals: the statuses (Bored, Interested, Alert,
    Pursuing, Returning, Distracted), Location Dial, Thief Marker, facings, tiles, Exit card
    and the thieves' table heads are all found."""
    texts = screen_texts(GAME, players, (1, 2, 3), steps=3000, every=30,
                         **options)
    assert len(texts.sentences) > 50 and len(texts.labels) > 20
    assert unknown_terms(GAME.reference(), texts, frozenset({GAME.display_name()})) == {}
