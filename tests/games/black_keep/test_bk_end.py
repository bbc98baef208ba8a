"""Thieves of the Black Keep: the end screen's breakdown (issue 26; spec section 9, ruling 57),
from made states: a winning thief's real treasure and wounds left, the crew's score thief by
thief in co-op, and a sentence saying why each other seat scores 0."""

from __future__ import annotations

from bk_positions import game

from citywatch.games.black_keep.data import TREASURES
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.scoring import outcome
from citywatch.games.black_keep.state import CAUGHT, ESCAPED, IN_PLAY, KILLED

EYE, LANTERN, FAKE = 1, 3, 5


def test_the_crews_score_is_each_thiefs_treasure_and_wounds() -> None:
    """Ruling 57 (co-op): every thief escaped, carrying the Eye (5) and the Lantern (2) with 3
    and 1 wounds left: 11 for every seat, each thief's treasure and wounds a labelled part."""
    s = game(thieves=2)
    s.mode = "coop"
    for t, treasure, wounds in zip(s.thieves, (EYE, LANTERN), (3, 1), strict=True):
        t.standing, t.treasure, t.wounds = ESCAPED, treasure, wounds
    s.result = outcome(s)
    assert s.result is not None and s.result.points == (11, 11)
    first, second = GAME.score_breakdown(s) or ()
    assert first.points == second.points == 11
    assert [(p.label, p.points) for p in first.parts] == [
        ("Thief 1's treasure: Eye", 5), ("Thief 1's wounds left", 3),
        ("Thief 2's treasure: Lantern", 2), ("Thief 2's wounds left", 1)]
    assert first.result.startswith("Won together: every thief escaped with a real treasure")


def test_a_rival_who_escaped_first_scores_and_the_others_are_told_why_not() -> None:
    """Spec section 9 (rivals): Thief 1 escapes with the Eye and 2 wounds left and wins with
    7; Thief 2, caught, Thief 3, out with the Fake, and Thief 4, still inside, score 0, each
    told why."""
    s = game(thieves=4)
    s.mode = "rivals"
    fates = ((ESCAPED, EYE, 2), (CAUGHT, -1, 0), (ESCAPED, FAKE, 3), (IN_PLAY, -1, 3))
    for t, (standing, treasure, wounds) in zip(s.thieves, fates, strict=True):
        t.standing, t.wounds = standing, wounds
        if treasure >= 0:
            t.treasure = treasure
    s.result = outcome(s)
    assert s.result is not None and s.result.points == (7, 0, 0, 0)
    scores = GAME.score_breakdown(s) or ()
    assert [x.points for x in scores] == [7, 0, 0, 0]
    assert [(p.label, p.points) for p in scores[0].parts] == [
        (f"treasure: {TREASURES[EYE].name}", 5), ("wounds left", 2)]
    assert scores[0].result == "Won: escaped with the Eye first."
    assert scores[1].result.startswith("Scores 0: was caught")
    assert scores[2].result.startswith(
        "Scores 0: escaped with the Fake, which is not a real treasure")
    assert scores[3].result.startswith("Scores 0: was still in the keep")


def test_a_lost_crew_scores_0_and_says_who_was_caught() -> None:
    """Ruling 57 (co-op): a thief killed ends the game; the whole crew scores 0 and each seat
    is told why."""
    s = game(thieves=2)
    s.mode = "coop"
    s.thieves[0].standing = KILLED
    s.thieves[1].standing = IN_PLAY
    s.result = outcome(s)
    first, second = GAME.score_breakdown(s) or ()
    assert first.parts == second.parts == () and first.points == second.points == 0
    assert first.result == "Lost together, and scores 0: Thief 1 was killed."
    assert second.result == ("Lost together, and scores 0: Thief 1 was caught or killed; "
                             "Thief 2 was still in the keep.")
