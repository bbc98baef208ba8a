"""Guards! Guards!: recruiting on Volunteer tiles and in Taverns (recruit.py)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from test_gg_turn import (
    ScriptedRng,
    act,
    begin,
    game,
    isolate,
    legal,
    verbs,
    vol_named,
)

from citywatch.games.guards_guards.data import (
    FATE_CARDS,
    HOSPITALS,
    TAVERNS,
    VOLUNTEER_TILES,
)
from citywatch.games.guards_guards.state import CHARM, GuardsGuardsState

LL, MB, SS = 0, 1, 2


def at_tile(deck: int, rolls: Sequence[int] = (), belows: Sequence[int] = (),
            top: int = -1, face_up: int = -1, luggage_far: bool = True) -> GuardsGuardsState:
    """Seat 0 stopped on a Volunteer tile of ``deck``, about to recruit; ``top`` is put on top
    of the face-down deck and ``face_up`` on the face-up pile."""
    s = game()
    vt = next(t for t, d in VOLUNTEER_TILES.items() if d == deck)
    isolate(s, 0, vt)
    for card in (top, face_up):
        if card >= 0:
            for pile in (s.vol_down[deck], s.vol_up[deck], s.vol_discard[deck]):
                if card in pile:
                    pile.remove(card)
    if top >= 0:
        s.vol_down[deck].append(top)
    if face_up >= 0:
        s.vol_up[deck].append(face_up)
    if luggage_far:
        s.luggage = 124  # the Luggage's start: nobody stands on its next tiles
    begin(s, 0, ScriptedRng(rolls=rolls, belows=belows))
    act(s, "end_movement")
    act(s, "recruit_here")
    return s


PLAIN = vol_named("Drumknott")  # LL, Charm 6, Bribe 3, no Fate mark, Luggage 0, gives $1
SYBIL = vol_named("Lady Sybil Ramkin")  # LL, Charm 8, Bribe X, gives $3, Luggage 2


def test_ruling_26_take_the_face_up_card_or_turn_over_the_top_card() -> None:
    """Ruling 26: "The player takes the face-up card or turns over the top face-down card."""
    s = at_tile(LL, top=PLAIN, face_up=SYBIL)
    assert {a.verb for a in legal(s)} == {"take_face_up", "turn_over"}
    act(s, "take_face_up")
    assert s.stack[-1][3] == SYBIL


def test_rulebook_charm_succeeds_on_die_plus_charm_equal_or_higher() -> None:
    """To 'Charm' a Volunteer: "If the total is equal to, or higher than the Volunteer's Charm
    value, they succeed and that Volunteer joins their quest." """
    s = at_tile(LL, rolls=[6 - 2], top=PLAIN)
    s.attrs[0][CHARM] = 2
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN in s.hand[0]
    assert s.dollars[0] == 6  # Drumknott brings $1


def test_ruling_21_natural_one_fails_charm_but_bribe_is_still_open() -> None:
    """Rulebook: "If a player rolls a Natural 1 on the die when making a Charm Roll, it is an
    automatic failure; however they may still try to Bribe the Volunteer." """
    s = at_tile(LL, rolls=[1], top=PLAIN)
    s.attrs[0][CHARM] = 10
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN not in s.hand[0]
    assert verbs(s) == {"bribe_volunteer", "let_volunteer_go"}
    act(s, "bribe_volunteer")
    assert PLAIN in s.hand[0] and s.dollars[0] == 5 - 3 + 1


def test_rulebook_bribe_x_cannot_be_bribed() -> None:
    """To 'Bribe' a Volunteer: "Volunteers marked with a Bribe value 'X' cannot be bribed." """
    s = at_tile(LL, face_up=SYBIL)
    s.dollars[0] = 50
    act(s, "take_face_up")
    assert "bribe_volunteer" not in verbs(s)


def test_ruling_26_bribe_may_be_paid_without_rolling() -> None:
    """Ruling 26: "They may roll Charm once, then Bribe if the roll failed or was skipped." """
    s = at_tile(LL, top=PLAIN)
    act(s, "turn_over")
    assert {"charm_volunteer", "bribe_volunteer", "let_volunteer_go"} == verbs(s)
    act(s, "bribe_volunteer")
    assert PLAIN in s.hand[0]


def test_rulebook_a_volunteer_let_go_lies_face_up() -> None:
    """"If a player fails to recruit a Volunteer the card is placed face up on top of the
    relevant 'face up' pile." """
    s = at_tile(LL, rolls=[1], top=PLAIN)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    act(s, "let_volunteer_go")
    assert s.vol_up[LL][-1] == PLAIN and PLAIN not in s.hand[0]


def test_ruling_23_natural_eight_wins_and_gives_one_extra_volunteer() -> None:
    """Ruling 23: "In a recruiting Charm roll, a natural 8 gives one extra Volunteer instead
    (never more than one, and never in a Tavern)."; the rulebook: a natural 8 "has not only
    won over the chosen Volunteer"."""
    vetinari = vol_named("Lord Havelock Vetinari")  # Charm 12
    s = at_tile(LL, rolls=[8, 8], top=PLAIN, face_up=vetinari)
    s.attrs[0][CHARM] = 1
    act(s, "take_face_up")
    act(s, "charm_volunteer")
    assert vetinari in s.hand[0]
    # ruling 27: the extra may be the face-up card or the next face-down card
    assert {"take_face_up", "turn_over", "no_extra_volunteer"} == verbs(s)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN in s.hand[0]
    assert s.stack[-1][0] == "turn" and "recruit_here" not in verbs(s)


def test_ruling_28_bonus_then_gifts_then_fate_then_luggage() -> None:
    """Ruling 28: "On a successful recruit, apply in this order: the Player Bonus, then gifts
    (Scroll, Item, dollars), then the Fate card, then the Luggage moves." """
    senior = vol_named("The Senior Wrangler")  # Fate, gives a Scroll, Luggage 2
    s = at_tile(LL, rolls=[7], top=senior)
    s.fate_deck.append(next(c.index for c in FATE_CARDS if c.name == "A Purse in the Gutter"))
    act(s, "turn_over")
    start = s.luggage
    act(s, "charm_volunteer")
    # Scoone Avenue is equally near two Scroll decks: the gift's deck is chosen first (ruling 18)
    assert verbs(s) == {"draw_from"} and "A Purse in the Gutter" not in " ".join(s.log(0))
    act(s, "draw_from")
    log = s.log(0)
    i_scroll = next(i for i, line in enumerate(log) if "takes the Scroll" in line)
    i_fate = next(i for i, line in enumerate(log) if "A Purse in the Gutter" in line)
    i_lug = next(i for i, line in enumerate(log) if "moves the Luggage 2" in line)
    assert i_scroll < i_fate < i_lug
    assert s.luggage != start and s.dollars[0] == 8
    assert len(s.scrolls[0]) == 1


def test_rulebook_player_bonus_is_permanent() -> None:
    """When a Player Successfully Recruits: Player Bonuses "are permanent, and remain even if
    they lose that Volunteer"."""
    dean = vol_named("The Dean")  # Magic +1
    s = at_tile(LL, rolls=[8 - 2], top=dean)
    s.attrs[0] = [1, 1, 2]
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert s.attrs[0][0] == 2
    s.hand[0].remove(dean)
    assert s.attrs[0][0] == 2


def test_ruling_29_infectious_card_gives_the_pox_even_if_let_go() -> None:
    """Infected Volunteers: "that player becomes infected with 'The Pox' instantly when they
    touch the card; even if they fail or choose not to recruit that Volunteer." """
    gaspode = vol_named("Gaspode the Wonder Dog")
    s = at_tile(MB, top=gaspode)
    act(s, "turn_over")
    assert s.pox[0]
    act(s, "let_volunteer_go")
    assert s.vol_up[MB][-1] == gaspode


def test_ruling_29_turning_an_infectious_card_face_up_gives_the_pox() -> None:
    """Infected Volunteers: "This applies even if they are just turning over a face down card
    to replace one recruited from the face up pile"."""
    gaspode = vol_named("Gaspode the Wonder Dog")
    colon = vol_named("Sergeant Fred Colon")
    s = at_tile(MB, rolls=[8 - 1], top=gaspode, face_up=colon)
    s.attrs[0][CHARM] = 2
    s.vol_up[MB][:] = [colon]
    act(s, "take_face_up")
    act(s, "charm_volunteer")
    assert colon in s.hand[0]
    assert s.vol_up[MB] == [gaspode] and s.pox[0]


def test_rulebook_face_up_pile_is_refilled() -> None:
    """"There should always be at least one card of each Volunteer deck displayed face up." """
    s = at_tile(LL, face_up=PLAIN)
    s.vol_up[LL][:] = [PLAIN]
    act(s, "take_face_up")
    act(s, "bribe_volunteer")
    assert len(s.vol_up[LL]) == 1 and s.vol_up[LL][0] != PLAIN


def test_ruling_29_recruit_fire_water_explodes() -> None:
    """Fire Water: it explodes when the target next tries recruiting: "that action fails, the
    target's turn ends at once and the token comes back"."""
    s = game()
    vt = next(iter(VOLUNTEER_TILES))
    isolate(s, 0, vt)
    s.flasks[0].append(1)
    s.fire_water[1] = 2
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "recruit_here")
    assert s.current == 1 and s.fire_water[1] == 3 and not s.flasks[0]


def test_mrs_cake_cancels_a_fate_card_just_drawn() -> None:
    """Mrs Evadne Cake: "Discard her to cancel a Fate card you have just drawn, before it takes
    effect." """
    bursar = vol_named("The Bursar")  # Fate mark, gives $2
    cake = vol_named("Mrs Evadne Cake")
    tax = next(c.index for c in FATE_CARDS if c.name == "Tax Demand from the Palace")
    s = at_tile(LL, rolls=[8 - 2], top=bursar)
    s.attrs[0][CHARM] = 2
    s.hand[0].append(cake)
    s.fate_deck.append(tax)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    act(s, "cake_cancel", tax)
    assert s.dollars[0] == 7 and cake not in s.hand[0] and tax in s.fate_discard


# --- Taverns (ruling 25) ----------------------------------------------------------------------


def tavern(rolls: Sequence[int], hand: Sequence[int] = (), dollars: int = 5) -> GuardsGuardsState:
    s = game()
    isolate(s, 0, TAVERNS[0])
    s.hand[0].extend(hand)
    s.dollars[0] = dollars
    s.luggage = 124
    begin(s, 0, ScriptedRng(rolls=rolls))
    act(s, "end_movement")
    act(s, "tavern_here")
    return s


def test_tavern_1_bar_brawl_sends_to_hospital() -> None:
    """Tavern 1, Bar Brawl: "Go to the nearest Hospital."; ruling 25: a 1 is just result 1."""
    s = tavern([1])
    assert s.pos[0] in HOSPITALS and s.current == 1


def test_tavern_2_empty_bar_costs_a_dollar() -> None:
    """Tavern 2, Empty Bar: "Pay 1 dollar for your drink if you have it." """
    s = tavern([2])
    assert s.dollars[0] == 4
    s2 = tavern([2], dollars=0)
    assert s2.dollars[0] == 0


@pytest.mark.parametrize(("roll", "deck"), [(3, SS), (4, MB), (5, LL)])
def test_tavern_3_to_5_turn_over_a_given_deck(roll: int, deck: int) -> None:
    """Tavern 3-5: "Turn over the top face-down ... card and recruit it by Charm or Bribe as
    usual"."""
    s = tavern([roll])
    f = s.stack[-1]
    assert f[0] == "recruit" and f[2] == deck and f[3] >= 0 and f[6]


def test_tavern_natural_eight_gives_no_extra_volunteer() -> None:
    """Ruling 23: the natural-8 extra Volunteer is "never in a Tavern"."""
    s = tavern([5, 8])
    act(s, "charm_volunteer")
    assert len(s.hand[0]) == 1
    assert not any(f[0] == "recruit" for f in s.stack)


def test_tavern_6_pick_of_the_house_chooses_a_deck() -> None:
    """Tavern 6: "Turn over the top face-down card of a Volunteer deck of your choice and
    recruit it by Charm or Bribe as usual"."""
    s = tavern([6])
    assert {a.x for a in legal(s) if a.verb == "turn_over"} == {0, 1, 2}
    act(s, "turn_over", MB)
    assert s.stack[-1][0] == "recruit" and s.stack[-1][2] == MB


def test_tavern_7_willing_drinker_joins_free() -> None:
    """Tavern 7: "it joins you without a Charm roll or Bribe." """
    s = tavern([7])
    top = s.vol_down[SS][-1]
    act(s, "turn_over", SS)
    assert top in s.hand[0]


def test_tavern_8_your_round_free_card_then_another_deck() -> None:
    """Tavern 8: "As 7, then turn over the top face-down card of a different deck and recruit
    it by Charm or Bribe as usual"."""
    s = tavern([8])
    top = s.vol_down[LL][-1]
    act(s, "turn_over", LL)
    assert top in s.hand[0]
    while s.stack[-1][0] != "tavern":
        a = legal(s)[0]
        s.apply(a)
    assert {a.x for a in legal(s) if a.verb == "turn_over"} == {MB, SS}


def test_broadman_adds_one_to_tavern_rolls_up_to_eight() -> None:
    """Broadman: "add 1 to your Tavern table rolls (a result above 8 counts as 8)." """
    broadman = vol_named("Broadman")
    s = tavern([1], hand=[broadman])
    assert s.pos[0] not in HOSPITALS and s.dollars[0] == 4
    s2 = tavern([8], hand=[broadman])
    assert s2.stack[-1][0] == "tavern" and s2.stack[-1][2] == "free_then_paid"


def test_ruling_77_no_tavern_in_a_dragons_quadrant() -> None:
    """Ruling 77: Dragons block recruiting in their quadrant, "Taverns included"."""
    from citywatch.games.guards_guards.data import TILES

    s = game()
    isolate(s, 0, TAVERNS[0])
    s.dragons[TILES[TAVERNS[0]].quadrant] = 0
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert s.current == 1

