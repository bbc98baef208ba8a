"""Guards! Guards! Brethren and Dragons (rulebook "Elucidated Brethren", "Dragons", "The Dragons
Win!"; rulings 8, 68, 71-78)."""

from __future__ import annotations

from test_gg_combat import iid, make, script, top, vid

from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import DRAGONS
from citywatch.games.guards_guards.dragons import (
    NO_MORE,
    SEND,
    SUMMON,
    begin_fight,
    brethren_count,
    do_summon,
    summon_actions,
)
from citywatch.games.guards_guards.frames import OPS, advance


def test_lupine_wonse_counts_two_brethren_for_a_summons() -> None:
    """Lupine Wonse "counts as two Brethren when you summon a Dragon"; 3 are needed."""
    s = make()
    s.hand[0] += [vid("Lupine Wonse")]
    assert brethren_count(s, 0) == 2 and summon_actions(s, 0) == []
    s.hand[0].append(vid("Carding"))
    assert Action(SUMMON, 1, vid("Carding")) in summon_actions(s, 0)


def test_ruling_8_summons_replaces_the_plant_and_takes_the_turn() -> None:
    """Ruling 8: "A Dragon summons replaces the Saboteur plant and takes the rest of the
    turn.\""""
    s = make()
    s.hand[0] += [vid("Carding"), vid("Spelter"), vid("Count Notfaroutoe")]
    s.t.planted = True
    assert summon_actions(s, 0) == []
    s.t.planted = False
    s.hand[1].append(vid("The Dean"))
    script(s, 8, 8, picks=[0])
    do_summon(s, 0, Action(SUMMON, 2, vid("Carding")))
    advance(s)
    assert s.t.over and s.dragons[2] >= 0 or s.dragons[2] == -1
    assert vid("Carding") in s.vol_discard[0]


def test_ruling_73_everyone_but_the_summoner_must_send() -> None:
    """Ruling 73: "every player except a summoner sends one Volunteer, and anyone may add
    more\"."""
    s = make()
    s.dragons[1] = 3
    s.dragon_pile = [0, 1, 2]
    s.hand[0].append(vid("The Dean"))
    s.hand[1] += [vid("The Bursar"), vid("Dorfl")]
    begin_fight(s, 1, 0, 1 << 1)
    advance(s)
    assert top(s)[1] == 0 and Action(NO_MORE) in s.legal_actions()  # seat 0 may add
    s.apply(Action(NO_MORE))
    assert Action(NO_MORE) not in s.legal_actions()  # seat 1 must send one
    s.apply(Action(SEND, vid("Dorfl"), -1))
    assert Action(NO_MORE) in s.legal_actions()


def test_rulebook_dragon_wounded_pays_one_dollar_each_ruling_68_75() -> None:
    """"If the result is equal to or higher than the Dragon's toughness the Dragon is wounded
    and it will withdraw ... with 1 dollar each"; ruling 68: back to the pile."""
    s = make()
    s.dragons[3] = 3  # Little Smokejaw, Toughness 12
    s.dragon_pile = [0, 1, 2]
    sybil, errol = vid("Lady Sybil Ramkin"), vid("Errol")
    s.hand[0] += [sybil, errol]
    begin_fight(s, 3, 0, 1)
    advance(s)
    s.apply(Action(SEND, sybil, -1))
    script(s, 1 + 1)  # Brawl 2 + 2, Sybil 3, Errol 5 = 12; +2 = 14 >= 12
    s.apply(Action(SEND, errol, -1))
    advance(s)
    if top(s)[0] == "dragon":
        s.apply(Action(NO_MORE))
    assert s.dragons[3] == -1 and 3 in s.dragon_pile
    assert s.dollars[0] == 7 and sybil in s.hand[0] and errol in s.hand[0]


def test_ruling_76_failed_toughness_discards_but_items_return() -> None:
    """Ruling 76: "Volunteers who fail their Toughness test against a Dragon are discarded, and
    their Items return to the owner's hand." Dragon-Proof Shield: +4 against a Dragon."""
    s = make()
    s.dragons[0] = 0  # The Noble Dragon: Brawl 9, Toughness 16
    s.dragon_pile = [1, 2, 3]
    dean, dorfl = vid("The Dean"), vid("Dorfl")
    shield, mail = iid("Dragon-Proof Shield"), iid("Chain-Mail Shirt")
    s.hand[0] += [dean, dorfl]
    s.items[0] += [shield, mail]
    begin_fight(s, 0, 0, 1)
    advance(s)
    s.apply(Action(SEND, dean, mail))
    s.apply(Action(SEND, dorfl, shield))
    # fight roll 2 (fails); Dean 2+2+2 = 6 < 9 fails; Dorfl 5+1+4+2 = 12 survives
    script(s, 2, 2, 2)
    if top(s)[0] == "dragon":
        s.apply(Action(NO_MORE))
    advance(s)
    assert dean in s.vol_discard[0] and mail in s.items[0]
    assert dorfl in s.hand[0] and shield in s.items[0]
    assert s.dragons[0] == 0


def test_ruling_71_the_call_wonse_always_answers() -> None:
    """Ruling 71: each Brethren "rolls die + Loyalty and answers on a result below 7"; Wonse
    always answers; three answers summon a Dragon to the drawer's Guild House."""
    s = make()
    s.hand[0] += [vid("Lupine Wonse"), vid("Carding")]
    s.saboteurs[1] += ((2, vid("Count Notfaroutoe"), -1),)
    script(s, 3, 5, picks=[0])  # Carding 3+3 = 6 answers; Count 5+1 = 6 answers
    OPS["call_brethren"](s, 0)
    assert s.dragons[0] >= 0


def test_ruling_78_four_dragons_last_fight_lost_everyone_loses() -> None:
    """Ruling 78: "With four Dragons on the board, the players together fight the last one
    placed, once ... If they fail, ruling 48 ranks the losers.\""""
    s = make()
    s.dragons = [0, 1, 2, 3]
    s.dragon_pile = []
    s.hand[0].append(vid("The Dean"))
    s.returned[1] = (0,)
    script(s, 1, 8, 8)
    begin_fight(s, 3, 0, 0b11)
    advance(s)
    assert s.result is not None and s.result.winners == ()
    assert s.result.reason == "the dragons win"
    assert s.result.details["ranking"][0] == [1]
    assert DRAGONS
