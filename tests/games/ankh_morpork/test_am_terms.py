"""Issue 26: ``? TERM`` knows every term Ankh-Morpork's screens use (``glossary.py``): each
capitalised term or status word of the menu lines, logs, views and terminal screens of played
games is found in the rules reference (cards, areas, events, personalities, the guide's
terms)."""

from __future__ import annotations

import pytest
from glossary import screen_texts, unknown_terms

from citywatch.core.registry import load

GAME = load("ankh-morpork")


@pytest.mark.parametrize("players", [2, 4])
def test_question_mark_knows_every_term_the_screens_use(players: int) -> None:
    """Two games to the end per player count: symbols (Minion, Build, No-trouble, +Card,
    EVENT), column heads (Tr, Dm, Minions, City Area cards), colours, areas, cards and
    personalities are all found."""
    texts = screen_texts(GAME, players, (1, 2), steps=3000, every=40)
    assert len(texts.sentences) > 500 and len(texts.labels) > 100
    assert unknown_terms(GAME.reference(), texts, frozenset({GAME.display_name()})) == {}
