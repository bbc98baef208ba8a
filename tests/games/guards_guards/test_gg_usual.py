"""Issue 26 (fewer clicks): Guards! Guards!' usual choices and what never hurts (citywatch
rulings 24 and 25): the usual choice never hides a decision that could matter."""

from __future__ import annotations

import pytest
from test_gg_combat import fight, iid, make, script, top, vid
from test_gg_magic import cast, react, sc

from citywatch.core.rng import Rng
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.combat import LEAVE_ITEM, TAKE_ITEM
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.magic import CAST, CAST_ON_PLAYER, NO_MAGIC
from citywatch.games.guards_guards.state import MAGIC, GuardsGuardsState


def usual(s: GuardsGuardsState) -> tuple[str | None, bool]:
    """The usual choice's text (None: no default) and whether it never hurts."""
    legal = s.legal_actions()
    index = GAME.usual_choice(s, legal)
    if index is None:
        return None, False
    return str(legal[index]), GAME.never_hurts(s, legal[index])


def test_citywatch_ruling_24_cast_nothing_now_is_usual_but_always_asked() -> None:
    """Citywatch ruling 24: at the start of Red's turn Blue, holding Stasis, is asked; "Cast
    nothing now" is the usual choice but can hurt, so it is never taken unasked: cast now,
    Stasis holds Red still for the very turn that begins."""
    s = make()
    stasis = sc("Stasis")
    s.scrolls[1].append(stasis)
    react(s, 1)
    assert s.legal_actions() == [Action(CAST, stasis), Action(NO_MAGIC)]
    assert usual(s) == ("Cast nothing now", False)
    cast_now = make()
    cast_now.attrs[1][MAGIC] = 4
    script(cast_now, 4, 1)  # 4 + 4 = 8 >= 7: cast; Red's defence roll a natural 1 fails
    cast(cast_now, 1, stasis, Action(CAST_ON_PLAYER, stasis, 0))
    assert any(e.kind == "move_cap" and e.a == 0 for e in cast_now.effects[0])


def test_citywatch_ruling_24_the_window_is_asked_only_of_a_holder_of_usable_magic() -> None:
    """Citywatch ruling 24 (and ruling 3): with nothing to cast, Blue is not asked at all at the
    start of Red's turn."""
    s = make()
    react(s, 1)
    assert top(s)[0] != "react"
    assert s.to_move != 1


def test_citywatch_ruling_25_taking_the_losers_item_is_usual_and_never_hurts() -> None:
    """Citywatch ruling 25: the winner of a combat takes the loser's Chain-Mail Shirt by
    default, and that never hurts: taken, it is the winner's; left, it goes to a shop's deck."""
    s = make()
    mail = iid("Chain-Mail Shirt")
    script(s, 6, 2)  # Brawl 3 + 6 = 9 against Toughness 1 + 2 + 2 = 5: a hit
    fight(s, vid("Count Notfaroutoe"), vid("The Bursar"), d_item=mail)
    assert set(s.legal_actions()) == {Action(TAKE_ITEM, mail), Action(LEAVE_ITEM, mail)}
    assert usual(s) == ("Take the Chain-Mail Shirt", True)
    leave = next(a for a in s.legal_actions() if a.verb == LEAVE_ITEM)
    assert not GAME.never_hurts(s, leave)
    left = s.copy()
    left.apply(leave)
    s.apply(Action(TAKE_ITEM, mail))
    assert s.items[0] == [*left.items[0], mail]
    assert any(mail in deck for deck in left.decks)


@pytest.mark.parametrize("players", [2, 4])
def test_rulings_24_25_the_usual_choice_hides_nothing_that_could_matter(players: int) -> None:
    """Citywatch rulings 24-25, in random games: only taking a defeated Volunteer's Item (beside
    leaving it) is ever taken unasked; "Cast nothing now" is usual wherever it is offered and
    always asked; the usual choice and what never hurts are the same in any world sampled
    for the seat to move (hidden facts never decide)."""
    offered = 0
    for seed in range(12):
        rng = Rng(seed)
        s = GAME.new_game(players, seed)
        while not s.is_terminal() and s.turn_count() < 30 * players:
            legal = s.legal_actions()
            seat = s.to_move
            assert seat is not None
            index = GAME.usual_choice(s, legal)
            world = s.determinize(seat, Rng(seed + 1))
            assert GAME.usual_choice(world, legal) == index
            for a in legal:
                harmless = GAME.never_hurts(s, a)
                assert harmless == GAME.never_hurts(world, a)
                if harmless and index is not None and legal[index] == a:
                    assert {b.verb for b in legal} == {"take_item", "leave_item"}
            if any(a.verb == "no_magic" for a in legal):
                offered += 1
                assert index is not None and legal[index].verb == "no_magic"
                assert not GAME.never_hurts(s, legal[index])
            s.apply(legal[rng.below(len(legal))])
    assert offered > 0
