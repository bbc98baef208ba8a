"""Guards! Guards!: recruiting on Volunteer tiles and in Taverns (recruit.py), each situation
built from a position (``gg_positions``) and played through legal actions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from gg_positions import (
    Position,
    State,
    act,
    base,
    face_up,
    far_apart,
    fate_drawn,
    fate_index,
    fate_on_top,
    give,
    legal,
    load,
    load_with_dice,
    only_face_up,
    place_dragon,
    put_flask,
    scripted,
    seat,
    set_dollars,
    set_level,
    top,
    top_card,
    verbs,
    volunteer,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    DRAGONS,
    HOSPITALS,
    QUADRANTS,
    TAVERNS,
    TILES,
    VOLUNTEER_TILES,
)

LL, MB, SS = 0, 1, 2
LUGGAGE = TILES[board.LUGGAGE_START].id


def on_volunteer_tile(deck: int, top: str | None = None, face: str | None = None) -> Position:
    """Red to move, standing on a Volunteer tile of ``deck``, everyone else far away and the
    Luggage on its start; ``top`` on top of the face-down deck, ``face`` on the face-up
    pile."""
    vt = next(t for t, d in VOLUNTEER_TILES.items() if d == deck)
    pos = far_apart(base(), ("Red", TILES[vt].id), avoid=[LUGGAGE])
    pos["luggage"] = LUGGAGE
    if top is not None:
        top_card(pos, top)
    if face is not None:
        face_up(pos, face)
    return pos


def recruiting(pos: Position, rolls: Sequence[int] = (), belows: Sequence[int] = ()) -> State:
    """Load ``pos`` with scripted dice; Red ends their movement where they stand and tries to
    recruit there."""
    s = load(pos)
    scripted(s, rolls, belows)
    act(s, "end_movement")
    act(s, "recruit_here")
    return s


def at_tile(deck: int, rolls: Sequence[int] = (), top: str | None = None,
            face: str | None = None, charm: int | None = None, dollars: int = 5) -> State:
    """Red stopped on a Volunteer tile of ``deck``, about to recruit (``on_volunteer_tile``),
    with Charm level ``charm`` if given and ``dollars``."""
    pos = on_volunteer_tile(deck, top, face)
    if charm is not None:
        set_level(pos, "Red", "charm", charm)
    set_dollars(pos, "Red", dollars)
    return recruiting(pos, rolls)


PLAIN = volunteer("Drumknott")  # LL, Charm 6, Bribe 3, no Fate mark, Luggage 0, gives $1
SYBIL = volunteer("Lady Sybil Ramkin")  # LL, Charm 8, Bribe X, gives $3, Luggage 2



def test_ruling_26_take_the_face_up_card_or_turn_over_the_top_card() -> None:
    """Ruling 26: "The player takes the face-up card or turns over the top face-down card."""
    s = at_tile(LL, top="Drumknott", face="Lady Sybil Ramkin")
    assert {a.verb for a in legal(s)} == {"take_face_up", "turn_over"}
    act(s, "take_face_up")
    assert top(s)[3] == SYBIL


def test_rulebook_charm_succeeds_on_die_plus_charm_equal_or_higher() -> None:
    """To 'Charm' a Volunteer: "If the total is equal to, or higher than the Volunteer's Charm
    value, they succeed and that Volunteer joins their quest." """
    s = at_tile(LL, rolls=[6 - 2], top="Drumknott", charm=2)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN in s.hand[0]
    assert s.dollars[0] == 6  # Drumknott brings $1
    s = at_tile(LL, rolls=[6 - 3], top="Drumknott", charm=2)  # one short
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN not in s.hand[0]


def test_ruling_21_natural_one_fails_charm_but_bribe_is_still_open() -> None:
    """Rulebook: "If a player rolls a Natural 1 on the die when making a Charm Roll, it is an
    automatic failure; however they may still try to Bribe the Volunteer." """
    s = at_tile(LL, rolls=[1], top="Drumknott", charm=10)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN not in s.hand[0]
    assert verbs(s) == {"bribe_volunteer", "let_volunteer_go"}
    act(s, "bribe_volunteer")
    assert PLAIN in s.hand[0] and s.dollars[0] == 5 - 3 + 1


def test_rulebook_bribe_x_cannot_be_bribed() -> None:
    """To 'Bribe' a Volunteer: "Volunteers marked with a Bribe value 'X' cannot be bribed." """
    s = at_tile(LL, face="Lady Sybil Ramkin", dollars=50)
    act(s, "take_face_up")
    assert "bribe_volunteer" not in verbs(s)
    assert verbs(s) == {"charm_volunteer", "let_volunteer_go"}


def test_ruling_26_bribe_may_be_paid_without_rolling() -> None:
    """Ruling 26: "They may roll Charm once, then Bribe if the roll failed or was skipped." """
    s = at_tile(LL, top="Drumknott")  # no dice: a roll would fail the test
    act(s, "turn_over")
    assert {"charm_volunteer", "bribe_volunteer", "let_volunteer_go"} == verbs(s)
    act(s, "bribe_volunteer")
    assert PLAIN in s.hand[0] and s.dollars[0] == 5 - 3 + 1


def test_rulebook_a_volunteer_let_go_lies_face_up() -> None:
    """"If a player fails to recruit a Volunteer the card is placed face up on top of the
    relevant 'face up' pile." """
    s = at_tile(LL, rolls=[1], top="Drumknott")
    act(s, "turn_over")
    act(s, "charm_volunteer")
    act(s, "let_volunteer_go")
    assert s.vol_up[LL][-1] == PLAIN and PLAIN not in s.hand[0]


def test_ruling_23_natural_eight_wins_and_gives_one_extra_volunteer() -> None:
    """Ruling 23: "In a recruiting Charm roll, a natural 8 gives one extra Volunteer instead
    (never more than one, and never in a Tavern)."; the rulebook: a natural 8 "has not only
    won over the chosen Volunteer"."""
    vetinari = volunteer("Lord Havelock Vetinari")  # Charm 12
    s = at_tile(LL, rolls=[8, 8], top="Drumknott", face="Lord Havelock Vetinari", charm=1)
    act(s, "take_face_up")
    act(s, "charm_volunteer")
    assert vetinari in s.hand[0]
    # ruling 27: the extra may be the face-up card or the next face-down card
    assert {"take_face_up", "turn_over", "no_extra_volunteer"} == verbs(s)
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert PLAIN in s.hand[0]
    assert top(s)[0] == "turn" and "recruit_here" not in verbs(s)


def test_ruling_28_bonus_then_gifts_then_fate_then_luggage() -> None:
    """Ruling 28: "On a successful recruit, apply in this order: the Player Bonus, then gifts
    (Scroll, Item, dollars), then the Fate card, then the Luggage moves." """
    pos = on_volunteer_tile(LL, top="The Senior Wrangler")  # Fate, gives a Scroll, Luggage 2
    fate_on_top(pos, "A Purse in the Gutter")
    s = recruiting(pos, rolls=[7])
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
    dean = volunteer("The Dean")  # Magic +1
    pos = on_volunteer_tile(LL, top="The Dean")
    for attr, level in (("magic", 1), ("guild", 1), ("charm", 2)):
        set_level(pos, "Red", attr, level)
    s = recruiting(pos, rolls=[8 - 2])
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert s.hand[0] == [dean] and s.attrs[0] == [2, 1, 2]
    # the Dean is lost again: Cold Feet, drawn next, sends home the only Volunteer in hand
    s = load_with_dice(fate_drawn(s.position(), "Red", "Cold Feet"))
    assert not s.hand[0] and dean in s.vol_discard[LL]
    assert s.attrs[0] == [2, 1, 2]


def test_ruling_29_infectious_card_gives_the_pox_even_if_let_go() -> None:
    """Infected Volunteers, ruling 29: "that player becomes infected with 'The Pox' instantly
    when they touch the card; even if they fail or choose not to recruit that Volunteer." """
    gaspode = volunteer("Gaspode the Wonder Dog")
    s = at_tile(MB, top="Gaspode the Wonder Dog")
    assert not s.pox[0]
    act(s, "turn_over")
    assert s.pox[0]
    act(s, "let_volunteer_go")
    assert s.vol_up[MB][-1] == gaspode and gaspode not in s.hand[0]


def test_ruling_29_turning_an_infectious_card_face_up_gives_the_pox() -> None:
    """Infected Volunteers, ruling 29: "This applies even if they are just turning over a face
    down card to replace one recruited from the face up pile"."""
    gaspode = volunteer("Gaspode the Wonder Dog")
    colon = volunteer("Sergeant Fred Colon")
    pos = on_volunteer_tile(MB, top="Gaspode the Wonder Dog")
    only_face_up(pos, "Sergeant Fred Colon")
    set_level(pos, "Red", "charm", 2)
    s = recruiting(pos, rolls=[8 - 1])
    act(s, "take_face_up")
    assert not s.pox[0]
    act(s, "charm_volunteer")
    assert colon in s.hand[0]
    assert s.vol_up[MB] == [gaspode] and s.pox[0]


def test_rulebook_face_up_pile_is_refilled() -> None:
    """"There should always be at least one card of each Volunteer deck displayed face up." """
    pos = on_volunteer_tile(LL)
    only_face_up(pos, "Drumknott")
    following = pos["volunteers"]["lords_ladies"]["face_down"][-1]
    s = recruiting(pos)
    act(s, "take_face_up")
    act(s, "bribe_volunteer")
    assert PLAIN in s.hand[0]
    assert s.vol_up[LL] == [volunteer(following)]


def test_fire_water_explodes_when_the_target_next_recruits() -> None:
    """Fire Water: it explodes when the target next tries recruiting: "that action fails, the
    target's turn ends at once and the token comes back"."""
    pos = on_volunteer_tile(LL)
    seat(pos, "Blue")["fire_water"] = 3
    put_flask(pos, "Blue", "Red")
    s = recruiting(pos)
    assert s.current == 1 and s.fire_water[1] == 3 and not s.flasks[0]
    assert not s.hand[0]


def test_mrs_cake_cancels_a_fate_card_just_drawn() -> None:
    """Mrs Evadne Cake: "Discard her to cancel a Fate card you have just drawn, before it takes
    effect." """
    cake = volunteer("Mrs Evadne Cake")
    tax = fate_index("Tax Demand from the Palace")
    pos = on_volunteer_tile(LL, top="The Bursar")  # Fate mark, gives $2
    set_level(pos, "Red", "charm", 2)
    give(pos, "Red", volunteer="Mrs Evadne Cake")
    fate_on_top(pos, "Tax Demand from the Palace")
    s = recruiting(pos, rolls=[8 - 2])
    act(s, "turn_over")
    act(s, "charm_volunteer")
    assert verbs(s) == {"cake_cancel", "cake_allow"}
    act(s, "cake_cancel", tax)
    assert s.dollars[0] == 7 and cake not in s.hand[0] and tax in s.fate_discard


# --- Taverns (ruling 25) ----------------------------------------------------------------------


def tavern(rolls: Sequence[int], hand: Sequence[str] = (), dollars: int = 5) -> State:
    """Red, in the first Tavern with ``hand`` and ``dollars``, rolls on the Tavern table."""
    pos = far_apart(base(), ("Red", TILES[TAVERNS[0]].id), avoid=[LUGGAGE])
    pos["luggage"] = LUGGAGE
    give(pos, "Red", volunteer=list(hand))
    set_dollars(pos, "Red", dollars)
    s = load(pos)
    scripted(s, rolls)
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
    f = top(s)
    assert f[0] == "recruit" and f[2] == deck and f[3] >= 0 and f[6]
    assert "charm_volunteer" in verbs(s)


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
    assert top(s)[0] == "recruit" and top(s)[2] == MB


def test_tavern_7_willing_drinker_joins_free() -> None:
    """Tavern 7: "it joins you without a Charm roll or Bribe." """
    s = tavern([7])
    card = s.vol_down[SS][-1]
    act(s, "turn_over", SS)
    assert card in s.hand[0]


def test_tavern_8_your_round_free_card_then_another_deck() -> None:
    """Tavern 8: "As 7, then turn over the top face-down card of a different deck and recruit
    it by Charm or Bribe as usual"."""
    s = tavern([8])
    card = s.vol_down[LL][-1]
    act(s, "turn_over", LL)
    assert card in s.hand[0]
    while top(s)[0] != "tavern":
        s.apply(legal(s)[0])
    assert {a.x for a in legal(s) if a.verb == "turn_over"} == {MB, SS}


def test_broadman_adds_one_to_tavern_rolls_up_to_eight() -> None:
    """Broadman: "add 1 to your Tavern table rolls (a result above 8 counts as 8)." """
    s = tavern([1], hand=["Broadman"])
    assert s.pos[0] not in HOSPITALS and s.dollars[0] == 4
    s2 = tavern([8], hand=["Broadman"])
    assert top(s2)[0] == "tavern" and top(s2)[2] == "free_then_paid"


def test_ruling_77_no_tavern_in_a_dragons_quadrant() -> None:
    """Ruling 77: Dragons block recruiting in their quadrant, "Taverns included"."""
    pos = far_apart(base(), ("Red", TILES[TAVERNS[0]].id))
    s = load(pos)
    act(s, "end_movement")
    assert "tavern_here" in verbs(s)
    s = load(place_dragon(pos, QUADRANTS[TILES[TAVERNS[0]].quadrant], DRAGONS[0].name))
    act(s, "end_movement")
    assert s.current == 1
