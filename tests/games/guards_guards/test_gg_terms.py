"""Issue 26: ``? TERM`` knows every term Guards! Guards!'s screens use (``glossary.py``): each
capitalised term or status word of the menu lines, logs, views and terminal screens of played
games is found in the rules reference (cards, places, Dragons, Great Spells, Wizards'
Challenges, the Tavern table, Guild Abilities, the guide's terms)."""

from __future__ import annotations

import pytest
from glossary import screen_texts, unknown_terms

from citywatch.core.registry import load

GAME = load("guards-guards")


@pytest.mark.parametrize("players", [3, 6])
def test_question_mark_knows_every_term_the_screens_use(players: int) -> None:
    """Two games of 700 decisions per player count: Cut Purse, Saboteur, Spell Run, the
    Wizards' Challenges, the gate colours, the map's legend and the stat columns (Loy, Str,
    Brw, Tgh, Lug) are all found."""
    texts = screen_texts(GAME, players, (1, 2), steps=700, every=60)
    assert len(texts.sentences) > 500 and len(texts.labels) > 100
    assert unknown_terms(GAME.reference(), texts, frozenset({GAME.display_name()})) == {}
