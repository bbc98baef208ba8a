"""Guards! Guards!: the end screen's breakdown (issue 26), each from a made state: a point per
Great Spell returned, named (Winning the Game), why each player won or lost (the Final Spell,
the Short Game's judging by spells then dollars, ruling 48; the Dragons' win, ruling 78), and
the hands revealed."""

from __future__ import annotations

from test_gg_combat import make, vid

from citywatch.core.api import Outcome
from citywatch.games.guards_guards.data import SPELL_NAMES, VOLUNTEERS
from citywatch.games.guards_guards.dragons import dragons_win
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.spells import final_outcome
from citywatch.games.guards_guards.view import FINAL_SPELL


def test_each_great_spell_returned_is_a_named_point() -> None:
    """Winning the Game, Short Game (ruling 48): stopped with Blue on 2 spells and Red and
    Green on 1, Red's $9 beating Green's $1: each spell returned is a labelled point, the
    totals are the outcome's points, and each player is told why it won or lost."""
    s = make(3)
    s.returned[0] = (0,)
    s.returned[1] = (1, 2)
    s.dollars = [9, 1, 1]
    s.result = final_outcome(s, "100 rounds played")
    red, blue, green = GAME.score_breakdown(s) or ()
    assert s.result.points == (1, 2, 0)
    assert (red.points, blue.points, green.points) == s.result.points
    assert [(p.label, p.points) for p in blue.parts] == [
        (f"Great Spell returned: {SPELL_NAMES[1]}", 1),
        (f"Great Spell returned: {SPELL_NAMES[2]}", 1)]
    assert blue.result == ("Won when the game stopped (100 rounds played): the most Great "
                           "Spells returned (2).")
    assert green.parts == () and green.result.startswith(
        "Did not win: returned no Great Spell (0 points), 2 fewer than the winner")
    assert red.notes == ("Dollars: $9 (the tie break when Great Spells are tied).",)


def test_a_tie_on_spells_is_told_by_dollars() -> None:
    """Ruling 48: Red and Blue tied on one spell; Red's $9 against Blue's $1 wins, and Blue
    is told so."""
    s = make(2)
    s.returned[0] = (0,)
    s.returned[1] = (1,)
    s.dollars = [9, 1]
    s.result = final_outcome(s, "100 rounds played")
    red, blue = GAME.score_breakdown(s) or ()
    assert "tied on 1 Great Spell and held the most dollars ($9)" in red.result
    assert blue.result == ("Did not win: tied on 1 Great Spell, but held $1 against $9 when "
                           "the game stopped (100 rounds played).")


def test_the_final_spell_and_the_dragons_are_told_and_hands_revealed() -> None:
    """Winning the Game (Full Game) and ruling 78: the player who returns the Final Spell
    wins; when the Dragons win every player loses. Every hand and Saboteur is shown once the
    game is over."""
    s = make(2)
    s.returned[0] = (0, 1, 2, 3, 4)
    s.hand[1] = [vid("Count Notfaroutoe")]
    s.saboteurs[1] = ((0, vid("Chalky"), -1),)
    s.result = Outcome((0,), FINAL_SPELL, (5, 0))
    red, blue = GAME.score_breakdown(s) or ()
    assert red.points == 5 and red.result == ("Won: returned the Final Spell, the 5 Great "
                                              "Spells to win.")
    assert blue.result == ("Did not win: Red returned the Final Spell first; returned no "
                           "Great Spell (0 points).")
    revealed = dict(blue.revealed)
    assert revealed["Volunteers in hand"] == VOLUNTEERS[vid("Count Notfaroutoe")].name
    assert revealed["Saboteurs"].startswith("Chalky in the ")
    s = make(2)
    s.returned[1] = (3,)
    dragons_win(s)
    red, blue = GAME.score_breakdown(s) or ()
    assert blue.points == 1 and blue.result.startswith("Lost: the Dragons won")
    assert GAME.score_breakdown(make(2)) is None  # only at the end
