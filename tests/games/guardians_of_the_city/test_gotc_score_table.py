"""Guardians of the City: the score as it stands, part by part (issue 29). Every view gives
each nation's ``score_parts`` (rulebook section 10: Counter-Terrorism points, support left,
2 points per Special Intelligence card used, and the score deemed 0 with no Citizen Group
left), adding up to its score; the terminal's nations table shows those parts as labelled
rows above the Score and says why a nation scores 0."""

from __future__ import annotations

import re

import gotc_positions as gp
from helpers import play_randomly, render

from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.scoring import CITIZENS_LEFT, finish
from citywatch.games.guardians_of_the_city.terminal import GuardiansScreens

SCREENS = GuardiansScreens()
P1, P2 = 0, 1


def row(text: str, heading: str) -> str:
    """The line of the nations' table that starts with ``heading``."""
    found = [line for line in text.splitlines() if line.startswith(heading + " ")]
    assert found, f"no {heading!r} row in:\n{text}"
    return found[0]


def test_the_parts_in_every_view_add_up_to_the_score() -> None:
    """Rulebook section 10: at every point of real games, each nation's parts in the view add
    up to its score, and the Special Intelligence part is 2 per card used (counted once)."""
    for seed in range(6):
        s = GAME.new_game(2, seed)
        for steps in range(12):
            s = play_randomly(s, 25, seed * 100 + steps)
            for seat in s.view(P1)["seats"]:
                parts = {p["label"]: p["points"] for p in seat["score_parts"]}
                assert sum(parts.values()) == seat["score"]
                assert parts["Special Intelligence used"] == \
                    2 * seat["special_intelligence_used"]
            if s.to_move is None:
                break


def test_the_nations_table_reads_17_plus_16_plus_2_as_35() -> None:
    """Rulebook section 10 (issue 29): 17 Counter-Terrorism points, 16 support left and one
    Special Intelligence card used show as three labelled rows, 17, 16 and 2 (the card count
    beside the points, not in their place), above a Score of 35."""
    pos = gp.base()
    pos["seats"][P1]["ct"] = 17
    gp.support(pos, P1, "4444")
    gp.effort(pos, P1, "33222")
    gp.score_pile(pos, P1, ["Special Intelligence"])
    text = render(SCREENS.players(gp.load(pos).view(P1)), 80)
    assert re.search(r"Counter-Terrorism\s+17\s+0\s*$", row(text, "Counter-Terrorism"))
    assert re.search(r"Support left\s+16\s+16\s*$", row(text, "Support left"))
    assert re.search(r"Special Intel\.\s+2 \(1 used\)\s+0 \(0 used\)\s*$",
                     row(text, "Special Intel."))
    assert re.search(r"Score\s+35\s+16\s*$", row(text, "Score"))
    lines = text.splitlines()
    order = [next(i for i, line in enumerate(lines) if line.startswith(h + " "))
             for h in ("Counter-Terrorism", "Support left", "Special Intel.", "Score")]
    assert order == sorted(order)


def test_no_special_intelligence_row_until_one_is_used() -> None:
    """Rulebook section 8: a Special Intelligence card scores only once used; with none used
    the table has no row for them, and the score is the two parts above it."""
    text = render(SCREENS.players(gp.load(gp.base()).view(P1)), 80)
    assert "Special Intel." not in text
    assert re.search(r"Score\s+16\s+16\s*$", row(text, "Score"))


def test_a_nation_without_groups_scores_0_and_the_table_says_why() -> None:
    """Rulebook section 10: a nation whose Citizen Groups all left scores 0 whatever its
    points: a "No group left" row takes its 9 points away, and a sentence says why."""
    pos = gp.base()
    pos["seats"][P1]["ct"] = 9
    gp.support(pos, P1, "1000")
    gp.effort(pos, P1, "22221")
    s = gp.load(pos)
    s.support[P1][0] = 0  # its last group leaves
    finish(s, [CITIZENS_LEFT])
    text = render(SCREENS.players(s.view(P2)), 80)
    assert re.search(r"Counter-Terrorism\s+9\s+0\s*$", row(text, "Counter-Terrorism"))
    assert re.search(r"No group left\s+-9\s*$", row(text, "No group left"))
    assert re.search(r"Score\s+0\s+16\s*$", row(text, "Score"))
    flat = " ".join(text.split())
    assert "Player 1 scores 0: every Citizen Group left the country" in flat
    assert "Player 2 scores 0" not in flat


def test_four_nations_fit_80_columns() -> None:
    """The table with four nations and every score row stays within 80 columns."""
    pos = gp.base(players=4)
    gp.score_pile(pos, 2, ["Special Intelligence"])
    text = render(SCREENS.players(gp.load(pos).view(P1)), 80)
    assert "Special Intel." in text
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())
