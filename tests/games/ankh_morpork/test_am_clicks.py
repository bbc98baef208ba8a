"""Issue 26 (fewer clicks): which Ankh-Morpork texts the table may do for the player unasked
(decision D31), and that the usual choice never hides a decision that could matter."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import actions, area, blank, do, give, minions, money, next_events, play, start

from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import CARDS
from citywatch.games.ankh_morpork.game import GAME, MONEY_TEXTS
from citywatch.games.ankh_morpork.state import AnkhMorporkState


def usual(s: AnkhMorporkState) -> tuple[str | None, bool]:
    """The usual choice's text (None: no default) and whether it never hurts."""
    legal = s.legal_actions()
    index = GAME.usual_choice(s, legal)
    if index is None:
        return None, False
    return str(legal[index]), GAME.never_hurts(s, legal[index])


def holding(card: str) -> dict[str, Any]:
    """A blank 4-player position where Red holds ``card`` (and a Groat) and Riots comes next;
    Longwall has trouble and a Blue building, the Isle of Gods a Blue minion."""
    p = blank(4)
    give(p, "Red", card, "Groat")
    next_events(p, "Riots")
    area(p, "Longwall", trouble=True, building="Blue")
    minions(p, "Isle of Gods", Blue=1)
    return p


def at_text(s: AnkhMorporkState, card: str) -> AnkhMorporkState:
    """Play ``card``, then take the first choice until its text is offered."""
    play(s, card)
    for _ in range(6):
        if any(a.startswith("Do the text") for a in actions(s)):
            return s
        do(s, actions(s)[0])
    raise AssertionError(f"no text offered: {actions(s)}")


@pytest.mark.parametrize(("card", "gain"), [
    ("Sacharissa Cripslock", 1), ("The Post Office", 1), ("The Opera House", 1),
    ("The Thieves' Guild", 6), ("Nobby Nobbs", 3)])
def test_d31_a_text_that_only_brings_money_never_hurts_when_only_skipping_is_offered(
        card: str, gain: int) -> None:
    """Decision D31: with only "Do the text" and "Skip" offered, a text that only brings its
    player money (one trouble marker, one building, one minion in the Isle of Gods; $2 from
    each other player; $3 from one) is the usual choice and never hurts."""
    s = at_text(start(holding(card)), card)
    assert actions(s) == [f"Do the text of {card}", f"Skip card text on {card}"]
    assert usual(s) == (f"Do the text of {card}", True)
    before = money(s, "Red")
    do(s, f"Do the text of {card}")
    while s.to_move != 0 or any(a.startswith("Aim ") for a in actions(s)):
        do(s, actions(s)[0])  # Nobby's target, and the victims' answers
    assert money(s, "Red") == before + gain


def test_d31_a_money_text_is_asked_while_a_power_could_change_what_it_brings() -> None:
    """Decision D31: Sacharissa Cripslock with Red's The Shades power open is usual but may
    hurt: using the power first (a second trouble marker) makes the text bring $2, not $1."""
    p = holding("Sacharissa Cripslock")
    area(p, "The Shades", building="Red")
    minions(p, "The Shades", Red=1)
    s = start(p)
    play(s, "Sacharissa Cripslock")
    assert usual(s) == ("Do the text of Sacharissa Cripslock", False)
    text_first = start(p)
    play(text_first, "Sacharissa Cripslock")
    do(text_first, "Do the text of Sacharissa Cripslock")
    power_first = start(p)
    play(power_first, "Sacharissa Cripslock")
    do(power_first, "Use The Shades")
    do(power_first, "Do the text of Sacharissa Cripslock")
    assert money(text_first, "Red") == 11
    assert money(power_first, "Red") == 12


@pytest.mark.parametrize("card", ["Mr Bent", "Dr Whiteface", "Sybil Vimes", "The Luggage"])
def test_d31_texts_that_can_cost_the_player_are_asked(card: str) -> None:
    """Decision D31: a loan (repay $12 or lose 15 points), Dr Whiteface (the card leaves the
    player for good), Sybil Vimes (costs money), The Luggage (a discard): "Do the text" is
    usual but never taken unasked."""
    p = holding(card)
    area(p, "Dimwell", building="Blue")
    give(p, "Red", "Modo")
    s = at_text(start(p), card)
    assert usual(s) == (f"Do the text of {card}", False)


def bank_money_texts(players: int, seed: int) -> list[tuple[AnkhMorporkState, int, int]]:
    """In a random game, every decision whose usual choice is a text that never hurts: the
    state, the text's index and the skip's index (the game goes on by random choices)."""
    rng = Rng(seed)
    s = GAME.new_game(players, seed)
    found = []
    while not s.is_terminal() and len(found) < 20:
        legal = s.legal_actions()
        index = GAME.usual_choice(s, legal)
        if index is not None and legal[index].verb == "scroll" \
                and GAME.never_hurts(s, legal[index]):
            skip = next(i for i, a in enumerate(legal) if a.verb == "skip")
            found.append((s.copy(), index, skip))
        s.apply(legal[rng.below(len(legal))])
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_d31_doing_a_never_hurting_text_leaves_the_player_no_worse_than_skipping_it(
        players: int) -> None:
    """Decision D31, in random games: wherever "Do the text" is taken unasked, it is one of the
    money texts with only "Skip" beside it; doing it gives the player at least the money that
    skipping leaves, and the board, the player's personality and cards in front are the same,
    and the player's hand loses nothing (skipping may end the turn and refill it)."""
    checked = 0
    for seed in range(40):
        for s, text, skip in bank_money_texts(players, seed):
            seat = s.to_move
            assert seat is not None
            legal = s.legal_actions()
            frame = s.stack[-1]
            assert CARDS[frame[2]].effect in MONEY_TEXTS
            assert {a.verb for a in legal} == {"scroll", "skip"}
            done, skipped = s.copy(), s.copy()
            done.apply(legal[text])
            skipped.apply(legal[skip])
            while done.current == seat and done.to_move not in (None, seat):
                done.apply(done.legal_actions()[0])  # victims' answers, within the turn
            assert done.money[seat] >= skipped.money[seat]
            a, b = done.position(), skipped.position()
            assert a["areas"] == b["areas"]
            mine, theirs = a["seats"][seat], b["seats"][seat]
            assert (mine["personality"], mine["in_front"]) == (theirs["personality"],
                                                                theirs["in_front"])
            assert set(mine["hand"]) <= set(theirs["hand"])  # skipping may end the turn: refill
            checked += 1
    assert checked > 0
