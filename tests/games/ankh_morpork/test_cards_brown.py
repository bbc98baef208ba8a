"""Rules tests for the 53 brown-bordered cards (B01-B53), each built from a position.

Every test names the card and the rule it checks: the rulebook section, a numbered ruling of
``ankh-morpork-rulings.md`` ("ruling 6") or an engine decision of ``docs/rulings.md`` ("D17").
Random events are set to Riots with few trouble markers, which does nothing; dice come from a
seed found by ``seed_for`` and each roll is asserted in the log.
"""

from __future__ import annotations

from typing import Any

import helpers
import pytest
from helpers import (
    GAME,
    actions,
    area,
    blank,
    count,
    do,
    give,
    hand,
    idx,
    minions,
    money,
    next_events,
    seat_of,
    start,
    to_pile,
)

from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import CARDS, EVENT_BY_NAME
from citywatch.games.ankh_morpork.state import AnkhMorporkState

BROWN = [c.name for c in CARDS if c.deck == "brown"]


def pos(*red_cards: str, players: int = 4, red_money: int = 10) -> dict[str, Any]:
    """A blank position where Red holds ``red_cards`` and the next random event is Riots."""
    p = blank(players)
    p["seats"][0]["money"] = red_money
    give(p, "Red", *red_cards)
    next_events(p, "Riots")
    return p


def seed_for(*rolls: int) -> int:
    """An rng seed whose next twelve-sided rolls are ``rolls``."""
    for seed in range(1_000_000):
        r = Rng(seed)
        if all(r.roll(12) == v for v in rolls):
            return seed
    raise AssertionError(f"no seed rolls {rolls}")


def play(s: AnkhMorporkState, card: str) -> None:
    """Play ``card``; when it is the only card Red can play it was played at once (D1)."""
    if f"Play {card}" in actions(s):
        helpers.play(s, card)
    else:
        assert f"Red played {card}." in s.log()


def trouble(s: AnkhMorporkState, name: str) -> bool:
    return s.trouble[idx(name)]


def building(s: AnkhMorporkState, name: str) -> str | None:
    owner = s.building[idx(name)]
    return None if owner < 0 else s.colour(owner)


def card_owner(s: AnkhMorporkState, name: str) -> str:
    owner = s.area_card[idx(name)]
    return "display" if owner < 0 else s.colour(owner)


def names(cards: list[int]) -> list[str]:
    return [CARDS[c].name for c in cards]


def top_of_discard(s: AnkhMorporkState) -> str:
    return CARDS[s.discard_pile[-1]].name


def stop_blue(p: dict[str, Any]) -> None:
    """Give Blue two playable cards so that the state stops when Blue's turn begins."""
    give(p, "Blue", "Hex", "Modo")


# --- the deck ------------------------------------------------------------------------------
def test_brown_deck_has_53_cards_B01_to_B53() -> None:
    """Components: 53 brown-bordered cards, ids B01-B53; every one is tested below."""
    ids = sorted(c.id for c in CARDS if c.deck == "brown")
    assert ids == [f"B{i:02d}" for i in range(1, 54)]


# --- B01 Sybil Vimes, B15 Reacher Gilt (D23) --------------------------------------------------
def test_sybil_vimes_replaces_building_without_trouble_and_pays_owner() -> None:
    """Sybil Vimes (B01, D23): $3 first, then replace another player's building in an area with
    NO trouble; the cost goes to its owner, the City Area card changes hands, no trouble."""
    p = pos("Sybil Vimes", red_money=12)
    area(p, "Nap Hill", building="Blue")  # $12, no trouble: offered
    area(p, "The Hippo", building="Yellow")  # $12, no trouble: offered
    area(p, "Dolly Sisters", building="Blue", trouble=True)  # trouble: not Sybil's
    area(p, "Seven Sleepers", building="Green")  # $18: more than Red will have
    area(p, "Longwall", building="Red", card="gone")  # Red's own: never offered
    s = start(p)
    play(s, "Sybil Vimes")
    assert actions(s) == ["Take $3 from the bank", "Skip take $3 on Sybil Vimes"]
    do(s, "Take $3 from the bank")
    do(s, "Do the text of Sybil Vimes")
    assert sorted(actions(s)) == [
        "Replace Blue's building in Nap Hill with yours",
        "Replace Yellow's building in The Hippo with yours",
    ]
    do(s, "Replace Blue's building in Nap Hill with yours")
    assert building(s, "Nap Hill") == "Red"
    assert card_owner(s, "Nap Hill") == "Red"
    assert not trouble(s, "Nap Hill")
    assert money(s, "Red") == 15 - 12
    assert money(s, "Blue") == 10 + 12
    assert s.building_supply(seat_of("Blue")) == 6 - 1
    assert "Red paid $12 to Blue." in s.log()


def test_reacher_gilt_replaces_building_only_where_there_is_trouble() -> None:
    """Reacher Gilt (B15, D23): replace another player's building in an area that DOES have a
    trouble marker; the marker stays, the owner is paid the cost, the card changes hands."""
    p = pos("Reacher Gilt", red_money=12)
    area(p, "Dolly Sisters", building="Blue", trouble=True)  # $6
    area(p, "Dragon's Landing", building="Green", trouble=True)  # $12
    area(p, "Seven Sleepers", building="Yellow", trouble=True)  # $18: too dear
    area(p, "Nap Hill", building="Blue")  # no trouble: Sybil's, not Reacher's
    s = start(p)
    play(s, "Reacher Gilt")
    do(s, "Do the text of Reacher Gilt")
    assert sorted(actions(s)) == [
        "Replace Blue's building in Dolly Sisters with yours",
        "Replace Green's building in Dragon's Landing with yours",
    ]
    do(s, "Replace Green's building in Dragon's Landing with yours")
    assert building(s, "Dragon's Landing") == "Red"
    assert card_owner(s, "Dragon's Landing") == "Red"
    assert trouble(s, "Dragon's Landing")
    assert money(s, "Red") == 0
    assert money(s, "Green") == 22


@pytest.mark.parametrize("card", ["Sybil Vimes", "Reacher Gilt"])
def test_replacing_a_building_needs_the_full_cost(card: str) -> None:
    """Sybil Vimes / Reacher Gilt (D23): the full cost must be paid in cash, so with too little
    money the text is not offered at all."""
    p = pos(card, red_money=5)
    area(p, "Dolly Sisters", building="Blue", trouble=card == "Reacher Gilt")
    stop_blue(p)
    s = start(p)
    play(s, card)
    if card == "Sybil Vimes":
        do(s, "Skip take $3 on Sybil Vimes")  # $5 < $6
    assert building(s, "Dolly Sisters") == "Blue"
    assert money(s, "Red") == 5 and money(s, "Blue") == 10
    assert f"Red played {card}." in s.log() and s.current == seat_of("Blue")


def test_sybil_vimes_with_six_buildings_moves_one_of_red_s_own() -> None:
    """Sybil Vimes (D23): with all six buildings on the board one of the player's own buildings
    is moved (as for the building symbol); its City Area card returns to the display."""
    p = pos("Sybil Vimes", red_money=20)
    own = ["Dolly Sisters", "Dimwell", "The Shades", "The Scours", "Longwall", "The Hippo"]
    for name in own:
        area(p, name, building="Red")
    area(p, "Nap Hill", building="Blue")
    s = start(p)
    play(s, "Sybil Vimes")
    do(s, "Skip take $3")
    do(s, "Do the text of Sybil Vimes")
    assert sorted(actions(s)) == sorted(
        f"Replace Blue's building in Nap Hill with yours, moving your building from {name}"
        for name in own
    )
    do(s, "moving your building from Longwall")
    assert building(s, "Nap Hill") == "Red" and card_owner(s, "Nap Hill") == "Red"
    assert building(s, "Longwall") is None and card_owner(s, "Longwall") == "display"
    assert len(s.buildings_of(seat_of("Red"))) == 6
    assert money(s, "Red") == 8 and money(s, "Blue") == 22


# --- B02 Mr Teatime ------------------------------------------------------------------------------
def test_mr_teatime_money_then_assassination_then_another_card() -> None:
    """Mr Teatime (B02; rulebook, Assassination): take $3, then remove a minion that is not
    yours (troll allowed) from an area with trouble; the marker goes too; then play another."""
    p = pos("Mr Teatime", "The Watch")
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "The Shades", Green=1)
    area(p, "The Shades", trouble=True, trolls=1)
    minions(p, "Nap Hill", Blue=1)  # no trouble: cannot be assassinated
    s = start(p)
    play(s, "Mr Teatime")
    do(s, "Take $3 from the bank")
    assert money(s, "Red") == 13
    assert sorted(actions(s)) == [
        "Assassinate Blue's minion in Dimwell",
        "Assassinate Green's minion in The Shades",
        "Assassinate a troll in The Shades",
        "Skip assassination on Mr Teatime",
    ]
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0 and count(s, "Red", "Dimwell") == 1
    assert not trouble(s, "Dimwell")
    assert count(s, "Blue", "Nap Hill") == 1
    assert actions(s) == ["Play The Watch", "Play no more cards"]
    assert top_of_discard(s) == "Mr Teatime"  # D5


# --- B03 The Watch -------------------------------------------------------------------------------
def test_the_watch_builds_then_removes_trouble() -> None:
    """The Watch (B03; rulebook, Place a Building): build only where Red has a minion, with no
    trouble, no building and enough money; the trouble symbol comes after the building."""
    p = pos("The Watch")
    minions(p, "Dolly Sisters", Red=1)
    area(p, "Dolly Sisters", trouble=True)  # trouble: no building
    minions(p, "The Shades", Red=1)
    area(p, "The Shades", building="Blue")  # already built
    minions(p, "Dimwell", Red=1)  # $6: fine
    minions(p, "Seven Sleepers", Red=1)  # $18: too dear
    minions(p, "Nap Hill", Blue=1)  # no minion of Red's
    s = start(p)
    play(s, "The Watch")
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on The Watch"]
    do(s, "Build in Dimwell for $6")
    assert building(s, "Dimwell") == "Red" and card_owner(s, "Dimwell") == "Red"
    assert money(s, "Red") == 4
    assert actions(s) == [
        "Remove the trouble marker from Dolly Sisters",
        "Skip remove a trouble marker on The Watch",
    ]
    do(s, "Remove the trouble marker from Dolly Sisters")
    assert s.trouble_count() == 0
    assert building(s, "Dolly Sisters") is None


# --- B04 Wee Mad Arthur ---------------------------------------------------------------------------
def test_wee_mad_arthur_builds_for_half_the_cost() -> None:
    """Wee Mad Arthur (B04): build one building for half the printed cost ($3/$6/$9); the normal
    building limits (own minion, no trouble) still apply."""
    p = pos("Wee Mad Arthur", red_money=6)
    for name in ("Dimwell", "Dragon's Landing", "Seven Sleepers", "Dolly Sisters"):
        minions(p, name, Red=1)
    area(p, "Dolly Sisters", trouble=True)
    s = start(p)
    play(s, "Wee Mad Arthur")
    do(s, "Do the text of Wee Mad Arthur")
    assert sorted(actions(s)) == ["Build in Dimwell for $3", "Build in Dragon's Landing for $6"]
    do(s, "Build in Dragon's Landing for $6")
    assert money(s, "Red") == 0
    assert building(s, "Dragon's Landing") == "Red" and card_owner(s, "Dragon's Landing") == "Red"


# --- B05 William de Worde, B38 Otto Chriek ------------------------------------------------------
@pytest.mark.parametrize("card", ["William de Worde", "Otto Chriek"])
def test_money_per_trouble_marker(card: str) -> None:
    """William de Worde (B05) / Otto Chriek (B38), same text as Sacharissa: $1 for every trouble
    marker on the board."""
    p = pos(card)
    for name in ("Dimwell", "Nap Hill", "Longwall", "The Hippo"):
        area(p, name, trouble=True)
    s = start(p)
    play(s, card)
    if card == "William de Worde":
        do(s, "Skip place a minion")
    do(s, f"Do the text of {card}")
    assert money(s, "Red") == 14
    assert s.trouble_count() == 4


def test_william_de_worde_counts_trouble_made_by_its_own_minion() -> None:
    """William de Worde (B05; symbols left to right): the minion comes first, so trouble it
    causes (ruling 7) is counted by the text."""
    p = pos("William de Worde")
    minions(p, "Dimwell", Red=1)
    minions(p, "The Shades", Blue=1)
    area(p, "Dolly Sisters", trouble=True)
    s = start(p)
    play(s, "William de Worde")
    do(s, "Place a minion in The Shades")
    assert trouble(s, "The Shades")
    do(s, "Do the text of William de Worde")
    assert money(s, "Red") == 12


def test_otto_chriek_text_then_building() -> None:
    """Otto Chriek (B38): $1 per marker, then the building symbol; trouble blocks building."""
    p = pos("Otto Chriek", red_money=4)
    minions(p, "Dimwell", Red=1)
    minions(p, "Dolly Sisters", Red=1)
    area(p, "Dolly Sisters", trouble=True)
    area(p, "Nap Hill", trouble=True)
    s = start(p)
    play(s, "Otto Chriek")
    do(s, "Do the text of Otto Chriek")
    assert money(s, "Red") == 6  # $4 + $2: now Dimwell is affordable
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Otto Chriek"]


# --- B06 Willikins --------------------------------------------------------------------------------
def test_willikins_places_only_where_red_has_a_building() -> None:
    """Willikins (B06, ruling 6): place a minion in an area with one of your buildings, even far
    from your minions, and nowhere else; it brings trouble if the area is occupied (ruling 7)."""
    p = pos("Willikins")
    minions(p, "Dolly Sisters", Red=1)
    area(p, "Longwall", building="Red")
    area(p, "The Hippo", building="Red")
    minions(p, "The Hippo", Blue=1)
    area(p, "Nap Hill", building="Blue")
    s = start(p)
    play(s, "Willikins")
    do(s, "Do the text of Willikins")
    assert sorted(actions(s)) == ["Place a minion in Longwall", "Place a minion in The Hippo"]
    do(s, "Place a minion in The Hippo")
    assert count(s, "Red", "The Hippo") == 1
    assert trouble(s, "The Hippo")


def test_willikins_without_a_building_does_nothing() -> None:
    """Willikins (B06, D3): with no building of one's own the text cannot be done."""
    p = pos("Willikins")
    minions(p, "Dolly Sisters", Red=1)
    stop_blue(p)
    s = start(p)
    play(s, "Willikins")
    assert sum(s.minions[0]) == 1
    assert s.current == seat_of("Blue")


# --- B07 The Senior Wrangler, B17 Archchancellor Ridcully ----------------------------------------
NEAR_UNREAL = [
    "Dolly Sisters", "Dragon's Landing", "Isle of Gods", "Nap Hill", "Seven Sleepers",
    "Small Gods", "Unreal Estate",
]


def test_senior_wrangler_event_then_minion_near_unreal_estate() -> None:
    """The Senior Wrangler (B07, ruling 6): the random event first, then one minion in Unreal
    Estate or an adjacent area (whatever Red's own minions are), then play another card."""
    p = pos("The Senior Wrangler", "The Watch")
    minions(p, "The Shades", Red=1)
    s = start(p)
    play(s, "The Senior Wrangler")
    assert "Random event: Riots." in s.log()
    do(s, "Do the text of The Senior Wrangler")
    assert sorted(actions(s)) == sorted(f"Place a minion in {n}" for n in NEAR_UNREAL)
    do(s, "Place a minion in Seven Sleepers")
    assert count(s, "Red", "Seven Sleepers") == 1
    assert actions(s) == ["Play The Watch", "Play no more cards"]


def test_archchancellor_ridcully_places_one_or_two_minions() -> None:
    """Archchancellor Ridcully (B17, D27): after the random event, each of up to two minions goes
    to Unreal Estate or an adjacent area; the player may stop after the first."""
    p = pos("Archchancellor Ridcully")
    minions(p, "The Shades", Red=1)
    minions(p, "Nap Hill", Blue=1)
    s = start(p)
    play(s, "Archchancellor Ridcully")
    assert "Random event: Riots." in s.log()
    do(s, "Do the text of Archchancellor Ridcully")
    first = sorted(f"Place a minion in {n}" for n in NEAR_UNREAL)
    assert sorted(actions(s)) == first
    do(s, "Place a minion in Nap Hill")
    assert trouble(s, "Nap Hill")
    assert sorted(actions(s)) == sorted([*first, "Done"])
    do(s, "Place a minion in Small Gods")
    assert count(s, "Red", "Nap Hill") == 1 and count(s, "Red", "Small Gods") == 1
    assert sum(s.minions[0]) == 3  # two placed, no third offered


def test_archchancellor_ridcully_may_stop_after_one() -> None:
    """Archchancellor Ridcully (B17, D27): "Done" after the first minion places only one."""
    p = pos("Archchancellor Ridcully")
    stop_blue(p)
    s = start(p)
    play(s, "Archchancellor Ridcully")
    do(s, "Do the text of Archchancellor Ridcully")
    do(s, "Place a minion in Unreal Estate")
    do(s, "Done")
    assert sum(s.minions[0]) == 1 and count(s, "Red", "Unreal Estate") == 1
    assert s.current == seat_of("Blue")


# --- B08 Mr Shine, B32 Deep Dwarves ---------------------------------------------------------------
@pytest.mark.parametrize("card", ["Mr Shine", "Deep Dwarves"])
def test_place_a_minion_anywhere_without_trouble(card: str) -> None:
    """Mr Shine (B08) / Deep Dwarves (B32), ruling 6: a minion in any area, adjacency ignored,
    and no trouble marker for it even where other minions stand."""
    p = pos(card)
    minions(p, "Dolly Sisters", Red=1)
    minions(p, "Dimwell", Blue=1)
    s = start(p)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert len(actions(s)) == 12
    do(s, "Place a minion in Dimwell")
    assert count(s, "Red", "Dimwell") == 1
    assert not trouble(s, "Dimwell")
    assert s.trouble_count() == 0


def test_deep_dwarves_then_play_another_card() -> None:
    """Deep Dwarves (B32): after its text comes "play another card" (Mr Shine has none)."""
    p = pos("Deep Dwarves", "The Watch")
    s = start(p)
    play(s, "Deep Dwarves")
    do(s, "Skip card text on Deep Dwarves")
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B09 Mr Slant ---------------------------------------------------------------------------------
def test_mr_slant_two_dollars_per_minion_in_an_area_with_trouble() -> None:
    """Mr Slant (B09, D15): choose an area WITH trouble; $2 per minion of any owner there, trolls
    and demons included; then the building symbol."""
    p = pos("Mr Slant")
    minions(p, "Dimwell", Red=1, Blue=2)
    area(p, "Dimwell", trouble=True, trolls=1)
    minions(p, "Dolly Sisters", Green=1)
    area(p, "Dolly Sisters", trouble=True)
    minions(p, "Nap Hill", Blue=3, Green=3)  # no trouble: not offered
    minions(p, "Longwall", Red=1)
    s = start(p)
    play(s, "Mr Slant")
    do(s, "Do the text of Mr Slant")
    assert sorted(actions(s)) == ["Choose Dimwell", "Choose Dolly Sisters"]
    do(s, "Choose Dimwell")
    assert money(s, "Red") == 10 + 2 * 4
    assert actions(s) == ["Build in Longwall for $12", "Skip place a building on Mr Slant"]


# --- B10 The Smoking Gnu --------------------------------------------------------------------------
def test_smoking_gnu_places_only_in_an_area_with_trouble() -> None:
    """The Smoking Gnu (B10, ruling 6): a minion in an area that has a trouble marker, however
    far from Red's minions; the area keeps one marker (ruling 7); then play another card."""
    p = pos("The Smoking Gnu", "The Watch")
    minions(p, "The Shades", Red=1)
    minions(p, "Nap Hill", Blue=1)
    area(p, "Nap Hill", trouble=True)
    area(p, "Longwall", trouble=True)
    s = start(p)
    play(s, "The Smoking Gnu")
    do(s, "Do the text of The Smoking Gnu")
    assert sorted(actions(s)) == ["Place a minion in Longwall", "Place a minion in Nap Hill"]
    do(s, "Place a minion in Nap Hill")
    assert count(s, "Red", "Nap Hill") == 1 and trouble(s, "Nap Hill")
    assert s.trouble_count() == 2
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B11 Stanley ----------------------------------------------------------------------------------
def test_stanley_takes_two_random_cards_and_gives_one_back() -> None:
    """Stanley (B11, D24): take two random cards from a player with cards; the taker keeps one and
    gives the other back; players with empty hands cannot be chosen."""
    p = pos("Stanley", "The Watch")
    give(p, "Blue", "Ruby", "Dwarves", "Buggy Swires")
    give(p, "Yellow", "Sergeant Colon")
    s = start(p)
    play(s, "Stanley")
    do(s, "Do the text of Stanley")
    assert actions(s) == ["Aim Stanley at Blue", "Aim Stanley at Yellow"]
    do(s, "Aim Stanley at Blue")
    offered = actions(s)
    assert len(offered) == 2 and all(a.endswith(" to Blue") for a in offered)
    taken = [a.removeprefix("Give ").removesuffix(" to Blue") for a in offered]
    assert set(taken) <= {"Ruby", "Dwarves", "Buggy Swires"} and len(set(taken)) == 2
    assert s.to_move == seat_of("Red")
    do(s, offered[0])
    assert hand(s, "Red") == sorted(["The Watch", taken[1]])
    assert hand(s, "Blue") == sorted(
        [c for c in ("Ruby", "Dwarves", "Buggy Swires") if c != taken[1]]
    )


def test_stanley_from_a_one_card_hand_keeps_it() -> None:
    """Stanley (B11, D24): from a hand of one card the only card is taken and kept."""
    p = pos("Stanley", "The Watch")
    give(p, "Yellow", "Sergeant Colon")
    s = start(p)
    play(s, "Stanley")
    do(s, "Do the text of Stanley")
    assert hand(s, "Red") == ["Sergeant Colon", "The Watch"]
    assert hand(s, "Yellow") == []


# --- B12 Susan, B19 Igor (interrupts; deep tests elsewhere) ---------------------------------------
def test_susan_stops_an_assassination() -> None:
    """Susan (B12, ruling 13): the victim may play Susan and the minion stays; an interrupt is
    not a card one can play on one's turn (ruling 2)."""
    p = pos("Mr Teatime")
    give(p, "Blue", "Susan")
    minions(p, "Dimwell", Blue=1, Green=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "Mr Teatime")
    do(s, "Skip take $3")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert s.to_move == seat_of("Blue")
    assert actions(s) == ["Play Susan", "Play no interrupt"]
    do(s, "Play Susan")
    assert count(s, "Blue", "Dimwell") == 1
    assert "Susan" in names(s.discard_pile) and "Blue played Susan." in s.log()


def test_susan_alone_cannot_be_played_as_the_turn_s_card() -> None:
    """Susan (B12, ruling 2): a player holding only interrupts passes."""
    p = pos("Susan", "Igor", "Doctor Mossy Lawn")
    stop_blue(p)
    s = start(p)
    assert "Red has no card to play and passes." in s.log()
    assert s.current == seat_of("Blue")


def test_igor_puts_the_removed_minion_elsewhere() -> None:
    """Igor (B19, ruling 14): when the minion is removed it goes to another area instead."""
    p = pos("Mr Teatime")
    give(p, "Blue", "Igor")
    minions(p, "Dimwell", Blue=1, Green=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "Mr Teatime")
    do(s, "Skip take $3")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert actions(s) == ["Play Igor", "Play no interrupt"]
    do(s, "Play Igor")
    assert "Choose Dimwell" not in actions(s) and len(actions(s)) == 11
    do(s, "Choose Nap Hill")
    assert count(s, "Blue", "Dimwell") == 0 and count(s, "Blue", "Nap Hill") == 1
    assert not trouble(s, "Dimwell")


# --- B13 Ponder Stibbons (ruling 5) ---------------------------------------------------------------
def test_ponder_stibbons_plays_two_cards_each_with_its_own_play_another() -> None:
    """Ponder Stibbons (B13, ruling 5): after the random event, two further cards are each
    resolved fully and separately, including the first one's own "play another card"."""
    p = pos("Ponder Stibbons", "Mr Teatime", "Buggy Swires", "Dwarves", "The Watch")
    stop_blue(p)
    s = start(p)
    play(s, "Ponder Stibbons")
    assert "Random event: Riots." in s.log()
    do(s, "Do the text of Ponder Stibbons")
    assert sorted(actions(s)) == [
        "Play Buggy Swires", "Play Dwarves", "Play Mr Teatime", "Play The Watch",
        "Play no more cards",
    ]
    play(s, "Mr Teatime")  # Ponder's first card
    do(s, "Take $3 from the bank")
    # Mr Teatime's own play-another-card symbol
    assert sorted(actions(s)) == [
        "Play Buggy Swires", "Play Dwarves", "Play The Watch", "Play no more cards",
    ]
    play(s, "Buggy Swires")  # no trouble anywhere: nothing to do
    # back to Ponder: its second card
    assert sorted(actions(s)) == ["Play Dwarves", "Play The Watch", "Play no more cards"]
    play(s, "Dwarves")
    do(s, "Skip place a minion on Dwarves")
    do(s, "Skip place a minion on Dwarves")
    assert s.current == seat_of("Blue")  # no third card: the turn is over
    assert "The Watch" in hand(s, "Red")
    assert money(s, "Red") == 13


def test_ponder_stibbons_may_stop_early() -> None:
    """Ponder Stibbons (B13): the two cards are optional ("Play no more cards")."""
    p = pos("Ponder Stibbons", "The Watch", "Dwarves")
    stop_blue(p)
    s = start(p)
    play(s, "Ponder Stibbons")
    do(s, "Do the text of Ponder Stibbons")
    do(s, "Play no more cards")
    assert s.current == seat_of("Blue")
    assert {"The Watch", "Dwarves"} <= set(hand(s, "Red"))


# --- B14 The Post Office, B48 Sir Charles Lavatory ----------------------------------------------
@pytest.mark.parametrize("card", ["The Post Office", "Sir Charles Lavatory"])
def test_money_per_building_on_the_board(card: str) -> None:
    """The Post Office (B14) / Sir Charles Lavatory (B48): $1 per building of any colour."""
    p = pos(card)
    area(p, "Dimwell", building="Red")
    area(p, "Nap Hill", building="Blue")
    area(p, "Longwall", building="Green")
    s = start(p)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert money(s, "Red") == 13


def test_sir_charles_lavatory_building_comes_after_the_count() -> None:
    """Sir Charles Lavatory (B48): text then building, so the new building is not counted."""
    p = pos("Sir Charles Lavatory")
    minions(p, "Dimwell", Red=1)
    area(p, "Nap Hill", building="Blue")
    s = start(p)
    play(s, "Sir Charles Lavatory")
    do(s, "Do the text of Sir Charles Lavatory")
    assert money(s, "Red") == 11
    do(s, "Build in Dimwell for $6")
    assert money(s, "Red") == 5


def test_post_office_then_place_a_minion() -> None:
    """The Post Office (B14): text, then the place-a-minion symbol; with no building on the
    board the text would change nothing and is skipped without asking (D3)."""
    p = pos("The Post Office")
    minions(p, "The Shades", Red=1)
    s = start(p)
    play(s, "The Post Office")
    assert money(s, "Red") == 10
    assert sorted(actions(s)) == sorted(
        [f"Place a minion in {n}" for n in ("The Shades", "The Scours", "The Hippo", "Dimwell")]
        + ["Skip place a minion on The Post Office"]
    )


# --- B16, B22, B37, B39: draw two cards (ruling 31 for The Clacks) --------------------------------
DRAW_TWO = {
    "Professor of Recent Runes": [],
    "Moist von Lipwig": ["Skip place a minion", "Skip take $3"],
    "Sergeant Cheery Littlebottom": [],
    "The Clacks": [],
}


@pytest.mark.parametrize("card", list(DRAW_TWO))
def test_draw_two_cards(card: str) -> None:
    """Professor of Recent Runes (B16) / Moist von Lipwig (B22) / Sergeant Cheery Littlebottom
    (B37) / The Clacks (B39): draw the top two cards of the draw pile."""
    p = pos(card)
    area(p, "Dimwell", trouble=True)  # so that Sergeant Cheery Littlebottom's turn goes on
    to_pile(p, "draw_pile", "Ruby", "Dwarves", "The Watch")
    s = start(p)
    play(s, card)
    for skip in DRAW_TWO[card]:
        do(s, skip)
    do(s, f"Do the text of {card}")
    assert hand(s, "Red") == ["Dwarves", "Ruby"]
    assert names(s.draw_pile[-1:]) == ["The Watch"]


def test_the_clacks_draws_then_takes_two_dollars() -> None:
    """The Clacks (B39, ruling 31): draw two, then take $2 (not $3), then play another card."""
    p = pos("The Clacks")
    to_pile(p, "draw_pile", "Ruby", "Dwarves")
    s = start(p)
    play(s, "The Clacks")
    do(s, "Do the text of The Clacks")
    assert actions(s) == ["Take $2 from the bank", "Skip take $2 on The Clacks"]
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 12
    assert sorted(actions(s)) == ["Play Dwarves", "Play Ruby", "Play no more cards"]


def test_moist_von_lipwig_symbols_in_order() -> None:
    """Moist von Lipwig (B22): minion, $3, draw two, play another - left to right."""
    p = pos("Moist von Lipwig")
    minions(p, "Dimwell", Red=1)
    to_pile(p, "draw_pile", "Ruby", "Dwarves")
    s = start(p)
    play(s, "Moist von Lipwig")
    do(s, "Place a minion in Longwall")
    assert actions(s) == ["Take $3 from the bank", "Skip take $3 on Moist von Lipwig"]
    do(s, "Take $3 from the bank")
    do(s, "Do the text of Moist von Lipwig")
    assert money(s, "Red") == 13 and count(s, "Red", "Longwall") == 1
    assert sorted(actions(s)) == ["Play Dwarves", "Play Ruby", "Play no more cards"]


def test_sergeant_cheery_littlebottom_draws_then_removes_trouble() -> None:
    """Sergeant Cheery Littlebottom (B37): draw two, then remove one trouble marker; no play
    another card symbol."""
    p = pos("Sergeant Cheery Littlebottom", "The Watch")
    area(p, "Dimwell", trouble=True)
    stop_blue(p)
    to_pile(p, "draw_pile", "Ruby", "Dwarves")
    s = start(p)
    play(s, "Sergeant Cheery Littlebottom")
    do(s, "Do the text of Sergeant Cheery Littlebottom")
    assert actions(s) == [
        "Remove the trouble marker from Dimwell",
        "Skip remove a trouble marker on Sergeant Cheery Littlebottom",
    ]
    do(s, "Remove the trouble marker from Dimwell")
    assert s.trouble_count() == 0
    assert s.current == seat_of("Blue")  # no card could follow: the turn ended
    assert {"The Watch", "Ruby", "Dwarves"} <= set(hand(s, "Red"))


def test_professor_of_recent_runes_event_first_then_another_card() -> None:
    """Professor of Recent Runes (B16): random event, draw two, play another card."""
    p = pos("Professor of Recent Runes")
    to_pile(p, "draw_pile", "Ruby", "Dwarves")
    s = start(p)
    play(s, "Professor of Recent Runes")
    log = s.log()
    played = log.index("Red played Professor of Recent Runes.")
    assert log.index("Random event: Riots.") == played + 1
    do(s, "Do the text of Professor of Recent Runes")
    assert sorted(actions(s)) == ["Play Dwarves", "Play Ruby", "Play no more cards"]


# --- the random event symbol is mandatory (rulebook, Random Event; ruling 2) ----------------------
EVENT_CARDS = [
    "The Senior Wrangler", "Ponder Stibbons", "Professor of Recent Runes",
    "Archchancellor Ridcully", "Doctor Hix", "The Dean", "The Bursar",
    "The Chair of Indefinite Studies",
]


@pytest.mark.parametrize("card", EVENT_CARDS)
def test_random_event_symbol_cannot_be_skipped(card: str) -> None:
    """Brown cards with a random event (ruling 2): the event is the only symbol that is not
    optional; even when a City Area power could be used first, no "Skip" is offered."""
    p = pos(card)
    area(p, "Nap Hill", building="Red")
    s = start(p)
    play(s, card)
    assert actions(s) == ["Draw a random event", "Use Nap Hill: take $1 from the bank"]
    do(s, "Draw a random event")
    assert "Random event: Riots." in s.log()
    assert s.events_done == [EVENT_BY_NAME["Riots"].index]


# --- B18 Ruby -------------------------------------------------------------------------------------
def test_ruby_places_a_minion_then_builds_there() -> None:
    """Ruby (B18): place a minion, then a building, which may use the minion just placed."""
    p = pos("Ruby", red_money=12)
    minions(p, "Dolly Sisters", Red=1)
    s = start(p)
    play(s, "Ruby")
    do(s, "Place a minion in Nap Hill")
    assert not trouble(s, "Nap Hill")
    assert sorted(actions(s)) == [
        "Build in Dolly Sisters for $6", "Build in Nap Hill for $12",
        "Skip place a building on Ruby",
    ]
    do(s, "Build in Nap Hill for $12")
    assert building(s, "Nap Hill") == "Red" and money(s, "Red") == 0


def test_ruby_minion_next_to_own_minion_brings_trouble_and_blocks_building() -> None:
    """Ruby (B18, ruling 7): a minion placed beside one's own minion brings a trouble marker,
    and no building may go where there is trouble."""
    p = pos("Ruby", red_money=12)
    minions(p, "Dolly Sisters", Red=1)
    stop_blue(p)
    s = start(p)
    play(s, "Ruby")
    do(s, "Place a minion in Dolly Sisters")
    assert trouble(s, "Dolly Sisters")
    assert building(s, "Dolly Sisters") is None and money(s, "Red") == 12
    assert s.current == seat_of("Blue")


# --- B20 The Luggage ------------------------------------------------------------------------------
def test_the_luggage_assassinates_then_discards_one_card() -> None:
    """The Luggage (B20): assassination, then Red must discard one card (no "Done")."""
    p = pos("The Luggage", "The Watch", "Ruby")
    minions(p, "Dimwell", Blue=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "The Luggage")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0
    do(s, "Do the text of The Luggage")
    assert sorted(actions(s)) == ["Discard Ruby", "Discard The Watch"]
    do(s, "Discard Ruby")
    assert "Ruby" in names(s.discard_pile) and "Ruby" not in hand(s, "Red")


def test_the_luggage_with_an_empty_hand_skips_the_text() -> None:
    """The Luggage (B20, D3): with no card left to discard the text is skipped."""
    p = pos("The Luggage")
    stop_blue(p)
    s = start(p)
    play(s, "The Luggage")
    assert "Red discarded" not in " ".join(s.log())
    assert s.current == seat_of("Blue")


# --- B21 The Mob ----------------------------------------------------------------------------------
def test_the_mob_puts_trouble_next_to_trouble() -> None:
    """The Mob (B21, ruling 8): a trouble marker in an area adjacent to one that has one, even an
    empty area; then a minion, then play another card."""
    p = pos("The Mob", "The Watch")
    area(p, "The Shades", trouble=True)
    minions(p, "Nap Hill", Red=1)
    s = start(p)
    play(s, "The Mob")
    do(s, "Do the text of The Mob")
    assert sorted(actions(s)) == [
        "Put a trouble marker in Dimwell",
        "Put a trouble marker in The Hippo",
        "Put a trouble marker in The Scours",
    ]
    do(s, "Put a trouble marker in The Hippo")
    assert trouble(s, "The Hippo") and s.pieces_in(idx("The Hippo")) == 0
    do(s, "Place a minion in Unreal Estate")
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B23 Doctor Mossy Lawn (ruling 16, D5, D6) ---------------------------------------------------
def test_doctor_mossy_lawn_ends_the_turn_and_returns_the_card() -> None:
    """Doctor Mossy Lawn (B23, ruling 16, D5, D6): not before a card is played; after one, the
    turn ends at once, the card played (already discarded at its play-another symbol) returns
    to the hand, what it did stands, and the hand is refilled to five."""
    p = pos("Mr Teatime", "Doctor Mossy Lawn", "The Watch")
    stop_blue(p)
    to_pile(p, "draw_pile", "Ruby", "Dwarves", "Hubert")
    s = start(p)
    assert actions(s) == ["Play Mr Teatime", "Play The Watch"]
    play(s, "Mr Teatime")
    mossy = "Play Doctor Mossy Lawn: end your turn and take back Mr Teatime"
    assert mossy in actions(s)
    do(s, "Take $3 from the bank")
    do(s, "Skip assassination on Mr Teatime")
    assert "Mr Teatime" in names(s.discard_pile)  # D5
    assert sorted(actions(s)) == sorted(["Play The Watch", "Play no more cards", mossy])
    do(s, mossy)
    assert money(s, "Red") == 13
    assert hand(s, "Red") == sorted(["Mr Teatime", "The Watch", "Ruby", "Dwarves", "Hubert"])
    assert "Mr Teatime" not in names(s.discard_pile)
    assert top_of_discard(s) == "Doctor Mossy Lawn"
    assert s.current == seat_of("Blue") and s.to_move == seat_of("Blue")


def test_doctor_mossy_lawn_takes_back_only_the_last_card() -> None:
    """Doctor Mossy Lawn (B23, D6): with Ponder Stibbons played and Mr Teatime played through it,
    only Mr Teatime returns; Ponder Stibbons is discarded."""
    p = pos("Ponder Stibbons", "Mr Teatime", "Doctor Mossy Lawn", "The Watch")
    stop_blue(p)
    s = start(p)
    play(s, "Ponder Stibbons")
    assert actions(s) == [
        "Draw a random event",
        "Play Doctor Mossy Lawn: end your turn and take back Ponder Stibbons",
    ]
    do(s, "Draw a random event")
    do(s, "Do the text of Ponder Stibbons")
    play(s, "Mr Teatime")
    do(s, "Play Doctor Mossy Lawn: end your turn and take back Mr Teatime")
    assert "Mr Teatime" in hand(s, "Red") and "Ponder Stibbons" not in hand(s, "Red")
    assert "Ponder Stibbons" in names(s.discard_pile)
    assert s.in_play == []
    assert s.current == seat_of("Blue")


def test_doctor_mossy_lawn_cannot_take_back_a_loan() -> None:
    """Doctor Mossy Lawn (B23, D6): a loan lying in front of the player cannot be taken back."""
    p = pos("Mr Bent", "Doctor Mossy Lawn", "The Watch")
    s = start(p)
    play(s, "Mr Bent")
    assert "Play Doctor Mossy Lawn" in " ".join(actions(s))
    do(s, "Do the text of Mr Bent")
    assert "Mr Bent" in names(s.in_front[0]) and money(s, "Red") == 20
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B24 Patrician's Palace -----------------------------------------------------------------------
def test_patricians_palace_building_before_money() -> None:
    """Patrician's Palace (B24; ruling 2): the building comes before the $4, so money taken by the
    card cannot pay for it; a skipped symbol cannot be done later."""
    p = pos("Patrician's Palace", red_money=2)
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Patrician's Palace")
    assert actions(s) == ["Take $4 from the bank", "Skip take $4 on Patrician's Palace"]
    do(s, "Take $4 from the bank")
    assert money(s, "Red") == 6
    assert all(a.startswith(("Place a minion", "Skip place a minion")) for a in actions(s))
    do(s, "Place a minion in Longwall")
    assert building(s, "Dimwell") is None


def test_patricians_palace_all_three_symbols() -> None:
    """Patrician's Palace (B24): building, $4, minion."""
    p = pos("Patrician's Palace", red_money=6)
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Patrician's Palace")
    do(s, "Build in Dimwell for $6")
    do(s, "Take $4 from the bank")
    do(s, "Place a minion in Dimwell")
    assert building(s, "Dimwell") == "Red" and money(s, "Red") == 4
    assert count(s, "Red", "Dimwell") == 2 and trouble(s, "Dimwell")


# --- B25 Edward d'Eath, B35 Lord Downey -----------------------------------------------------------
@pytest.mark.parametrize("card", ["Edward d'Eath", "Lord Downey"])
def test_assassinate_money_build(card: str) -> None:
    """Edward d'Eath (B25) / Lord Downey (B35): assassination, $3, building. The assassination
    takes the trouble marker away, so the building may then go in that area."""
    p = pos(card, red_money=3)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Nap Hill", Red=1, Green=1)  # no trouble: Green is safe
    s = start(p)
    play(s, card)
    assert sorted(actions(s)) == [
        "Assassinate Blue's minion in Dimwell", f"Skip assassination on {card}",
    ]
    do(s, "Assassinate Blue's minion in Dimwell")
    assert not trouble(s, "Dimwell")
    do(s, "Take $3 from the bank")
    assert actions(s) == ["Build in Dimwell for $6", f"Skip place a building on {card}"]
    do(s, "Build in Dimwell for $6")
    assert building(s, "Dimwell") == "Red" and money(s, "Red") == 0
    assert count(s, "Green", "Nap Hill") == 1


# --- B26 Errol (D16) ------------------------------------------------------------------------------
def test_errol_high_roll_removes_any_minion_where_there_is_trouble() -> None:
    """Errol (B26, D16): on 7-12 remove a minion of Red's choice - any owner, Red's own, trolls
    included - from an area with a trouble marker; areas without trouble are safe."""
    p = pos("Errol", "The Watch")
    p["rng"] = seed_for(9)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True, trolls=1)
    minions(p, "Nap Hill", Green=1)
    area(p, "Nap Hill", trouble=True)
    minions(p, "Longwall", Yellow=1)
    s = start(p)
    play(s, "Errol")
    do(s, "Do the text of Errol")
    assert "Red rolled 9." in s.log()
    assert sorted(actions(s)) == [
        "Remove Blue's minion from Dimwell",
        "Remove Green's minion from Nap Hill",
        "Remove Red's minion from Dimwell",
        "Remove a troll from Dimwell",
    ]
    do(s, "Remove a troll from Dimwell")
    assert s.trolls[idx("Dimwell")] == 0 and not trouble(s, "Dimwell")
    assert actions(s) == ["Play The Watch", "Play no more cards"]


def test_errol_roll_of_one_removes_one_of_red_s_own() -> None:
    """Errol (B26): on a 1, Red removes one of their own minions."""
    p = pos("Errol")
    p["rng"] = seed_for(1)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Nap Hill", Red=1)
    s = start(p)
    play(s, "Errol")
    do(s, "Do the text of Errol")
    assert "Red rolled 1." in s.log()
    assert sorted(actions(s)) == [
        "Remove Red's minion from Dimwell", "Remove Red's minion from Nap Hill",
    ]
    do(s, "Remove Red's minion from Nap Hill")
    assert count(s, "Red", "Nap Hill") == 0 and count(s, "Blue", "Dimwell") == 1


@pytest.mark.parametrize("roll", [2, 6])
def test_errol_middle_roll_does_nothing(roll: int) -> None:
    """Errol (B26): on 2-6 nothing happens."""
    p = pos("Errol", "The Watch")
    p["rng"] = seed_for(roll)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "Errol")
    do(s, "Do the text of Errol")
    assert f"Red rolled {roll}." in s.log()
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Dimwell") == 1
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B27 Gargoyles --------------------------------------------------------------------------------
def test_gargoyles_draws_one_card_per_own_building() -> None:
    """Gargoyles (B27): one card for each of Red's buildings (not others'), then the building
    symbol."""
    p = pos("Gargoyles")
    area(p, "Longwall", building="Red", card="gone")  # no power to offer (ruling 23)
    area(p, "The Hippo", building="Red", card="gone")
    area(p, "Nap Hill", building="Blue")
    minions(p, "Dimwell", Red=1)
    to_pile(p, "draw_pile", "Ruby", "Dwarves", "The Watch")
    s = start(p)
    play(s, "Gargoyles")
    do(s, "Do the text of Gargoyles")
    assert hand(s, "Red") == ["Dwarves", "Ruby"]
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Gargoyles"]


def test_gargoyles_without_buildings_draws_nothing() -> None:
    """Gargoyles (B27, D3): with no building the text is not offered."""
    p = pos("Gargoyles")
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Gargoyles")
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Gargoyles"]
    assert hand(s, "Red") == []


# --- B28 Doctor Hix -------------------------------------------------------------------------------
def test_doctor_hix_trouble_in_any_area_without_one() -> None:
    """Doctor Hix (B28, ruling 8): after the random event, a trouble marker in any area that has
    none, even an empty one; then play another card."""
    p = pos("Doctor Hix", "The Watch")
    for name in ("Dolly Sisters", "The Scours", "The Shades"):
        area(p, name, trouble=True)
    s = start(p)
    play(s, "Doctor Hix")
    do(s, "Do the text of Doctor Hix")
    offered = actions(s)
    assert len(offered) == 9
    assert not any(n in a for a in offered for n in ("Dolly Sisters", "Scours", "Shades"))
    do(s, "Put a trouble marker in Longwall")
    assert trouble(s, "Longwall") and s.trouble_count() == 4
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B29 Hobsons's Livery Stable (D21) ---------------------------------------------------------
def test_hobsons_pays_a_chosen_player_then_moves_own_minion_anywhere() -> None:
    """Hobsons's Livery Stable (B29, D21): pay $2 to a player of Red's choice, then move one of
    Red's own minions to any other area (ruling 7 trouble on both ends)."""
    p = pos("Hobsons's Livery Stable", red_money=2)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Seven Sleepers", Green=1)
    s = start(p)
    play(s, "Hobsons's Livery Stable")
    do(s, "Do the text of Hobsons's Livery Stable")
    assert sorted(actions(s)) == ["Pay $2 to Blue", "Pay $2 to Green", "Pay $2 to Yellow"]
    do(s, "Pay $2 to Green")
    assert money(s, "Red") == 0 and money(s, "Green") == 12
    offered = actions(s)
    assert len(offered) == 11
    assert all(a.startswith("Move Red's minion from Dimwell to ") for a in offered)
    do(s, "Move Red's minion from Dimwell to Seven Sleepers")
    assert count(s, "Red", "Seven Sleepers") == 1 and trouble(s, "Seven Sleepers")
    assert not trouble(s, "Dimwell") and count(s, "Blue", "Dimwell") == 1


def test_hobsons_needs_two_dollars() -> None:
    """Hobsons's Livery Stable (B29, D21): with less than $2 the text cannot start."""
    p = pos("Hobsons's Livery Stable", red_money=1)
    minions(p, "Dimwell", Red=1)
    stop_blue(p)
    s = start(p)
    play(s, "Hobsons's Livery Stable")
    assert money(s, "Red") == 1 and count(s, "Red", "Dimwell") == 1
    assert s.current == seat_of("Blue")


# --- B30 Hubert (ruling 29, D20, D28) ------------------------------------------------------------
def test_hubert_makes_one_other_player_pay_another() -> None:
    """Hubert (B30, D20): one player gives $3 to another, neither being Red; a payer with less
    pays what they have."""
    p = pos("Hubert", players=3)
    p["seats"][2]["money"] = 1
    s = start(p)
    play(s, "Hubert")
    do(s, "Do the text of Hubert")
    assert sorted(actions(s)) == ["Make Blue give $3 to Green", "Make Green give $3 to Blue"]
    do(s, "Make Green give $3 to Blue")
    assert money(s, "Green") == 0 and money(s, "Blue") == 11 and money(s, "Red") == 10


def test_hubert_in_four_player_game_never_involves_red() -> None:
    """Hubert (B30): "you cannot be either of them" - six pairs of the three others."""
    p = pos("Hubert")
    s = start(p)
    play(s, "Hubert")
    do(s, "Do the text of Hubert")
    assert len(actions(s)) == 6 and not any("Red" in a for a in actions(s))


def test_hubert_not_playable_with_two_players() -> None:
    """Hubert (B30, ruling 29, D28): only with three or more players; with two the text is not
    offered (only its minion symbol is)."""
    p = pos("Hubert", players=2)
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Hubert")
    offered = actions(s)  # already at the minion symbol: the text was passed over
    assert offered[-1] == "Skip place a minion on Hubert"
    assert all(a.startswith("Place a minion in ") for a in offered[:-1])
    assert money(s, "Blue") == 10 and money(s, "Red") == 10


def test_two_player_game_removes_hubert_and_cosmo_lavish() -> None:
    """Ruling 29 (rulebook, Playing with just two players): Hubert and Cosmo Lavish are removed
    from the brown deck with two players, and kept with three."""
    two = GAME.new_game(players=2, seed=3)
    assert sorted(names(two.out_of_game)) == ["Cosmo Lavish", "Hubert"]
    three = GAME.new_game(players=3, seed=3)
    assert three.out_of_game == []


# --- B31 DEATH (ruling 17) ------------------------------------------------------------------------
def test_death_second_assassination_may_hit_the_minion_saved_from_the_first() -> None:
    """DEATH (B31, ruling 17): one interrupt stops one attempt; the minion saved from the first
    assassination may be the target of the second; then the building symbol."""
    p = pos("DEATH")
    give(p, "Blue", "Susan")
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "DEATH")
    do(s, "Assassinate Blue's minion in Dimwell")
    do(s, "Play Susan")
    assert count(s, "Blue", "Dimwell") == 1 and trouble(s, "Dimwell")
    assert actions(s) == ["Assassinate Blue's minion in Dimwell", "Skip assassination on DEATH"]
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0 and not trouble(s, "Dimwell")
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on DEATH"]


def test_death_two_assassinations_in_different_areas() -> None:
    """DEATH (B31): two assassination symbols; each needs trouble in the area."""
    p = pos("DEATH")
    minions(p, "Dimwell", Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Nap Hill", Green=1)
    area(p, "Nap Hill", trouble=True)
    minions(p, "Longwall", Yellow=1)
    s = start(p)
    play(s, "DEATH")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert actions(s) == ["Assassinate Green's minion in Nap Hill", "Skip assassination on DEATH"]
    do(s, "Assassinate Green's minion in Nap Hill")
    assert s.trouble_count() == 0 and count(s, "Yellow", "Longwall") == 1


# --- B33 Sergeant Detritus, B52 Buggy Swires, B40 Sergeant Colon ----------------------------------
def test_sergeant_detritus_removes_two_markers() -> None:
    """Sergeant Detritus (B33): two remove-trouble symbols."""
    p = pos("Sergeant Detritus")
    area(p, "Dolly Sisters", trouble=True)
    area(p, "The Shades", trouble=True)
    area(p, "Longwall", trouble=True)
    s = start(p)
    play(s, "Sergeant Detritus")
    do(s, "Remove the trouble marker from Dolly Sisters")
    assert sorted(actions(s)) == [
        "Remove the trouble marker from Longwall",
        "Remove the trouble marker from The Shades",
        "Skip remove a trouble marker on Sergeant Detritus",
    ]
    do(s, "Remove the trouble marker from The Shades")
    assert s.trouble_count() == 1 and trouble(s, "Longwall")


def test_sergeant_detritus_with_one_marker() -> None:
    """Sergeant Detritus (B33, D3): the second symbol has nothing left to remove."""
    p = pos("Sergeant Detritus")
    area(p, "The Shades", trouble=True)
    stop_blue(p)
    s = start(p)
    play(s, "Sergeant Detritus")
    do(s, "Remove the trouble marker from The Shades")
    assert s.trouble_count() == 0
    assert s.current == seat_of("Blue")


def test_buggy_swires_removes_one_marker() -> None:
    """Buggy Swires (B52): remove one trouble marker of Red's choice (optional)."""
    p = pos("Buggy Swires")
    area(p, "Dimwell", trouble=True)
    area(p, "Nap Hill", trouble=True)
    s = start(p)
    play(s, "Buggy Swires")
    assert actions(s) == [
        "Remove the trouble marker from Dimwell",
        "Remove the trouble marker from Nap Hill",
        "Skip remove a trouble marker on Buggy Swires",
    ]
    do(s, "Remove the trouble marker from Nap Hill")
    assert trouble(s, "Dimwell") and not trouble(s, "Nap Hill")


def test_sergeant_colon_removes_trouble_then_places_a_minion() -> None:
    """Sergeant Colon (B40, ruling 7): trouble removed first; a minion then placed where minions
    stand brings a marker back."""
    p = pos("Sergeant Colon")
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "Sergeant Colon")
    do(s, "Remove the trouble marker from Dimwell")
    assert not trouble(s, "Dimwell")
    do(s, "Place a minion in Dimwell")
    assert trouble(s, "Dimwell") and count(s, "Red", "Dimwell") == 2


# --- B34 Dorfl, B49 Adora Belle Dearheart ---------------------------------------------------------
@pytest.mark.parametrize("card", ["Dorfl", "Adora Belle Dearheart"])
def test_move_own_minion_to_any_area(card: str) -> None:
    """Dorfl (B34) / Adora Belle Dearheart (B49), ruling 7: move one of Red's own minions to any
    other area, adjacent or not; the old area loses its marker, the new one gains one if
    occupied; other players' minions cannot be moved."""
    p = pos(card)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Seven Sleepers", Green=1)
    s = start(p)
    play(s, card)
    do(s, f"Do the text of {card}")
    offered = actions(s)
    assert len(offered) == 11
    assert all(a.startswith("Move Red's minion from Dimwell to ") for a in offered)
    do(s, "Move Red's minion from Dimwell to Seven Sleepers")
    assert count(s, "Red", "Seven Sleepers") == 1 and trouble(s, "Seven Sleepers")
    assert count(s, "Blue", "Dimwell") == 1 and not trouble(s, "Dimwell")


def test_adora_belle_dearheart_move_minion_building() -> None:
    """Adora Belle Dearheart (B49): move, then place a minion, then a building."""
    p = pos("Adora Belle Dearheart", red_money=12)
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Adora Belle Dearheart")
    do(s, "Do the text of Adora Belle Dearheart")
    do(s, "Move Red's minion from Dimwell to Longwall")
    do(s, "Place a minion in Isle of Gods")
    assert sorted(actions(s)) == [
        "Build in Isle of Gods for $12",
        "Build in Longwall for $12",
        "Skip place a building on Adora Belle Dearheart",
    ]
    assert count(s, "Red", "Dimwell") == 0


def test_dorfl_then_play_another_card() -> None:
    """Dorfl (B34): the text is followed by "play another card"."""
    p = pos("Dorfl", "The Watch")
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Dorfl")
    do(s, "Skip card text on Dorfl")
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B36 Dwarves ----------------------------------------------------------------------------------
def test_dwarves_two_minions_the_second_may_use_the_first() -> None:
    """Dwarves (B36, ruling 6): two place-a-minion symbols; the second may go next to the first."""
    p = pos("Dwarves")
    minions(p, "The Shades", Red=1)
    s = start(p)
    play(s, "Dwarves")
    near_shades = ["Dimwell", "The Hippo", "The Scours", "The Shades"]
    assert sorted(actions(s)) == sorted(
        [f"Place a minion in {n}" for n in near_shades] + ["Skip place a minion on Dwarves"]
    )
    do(s, "Place a minion in Dimwell")
    assert "Place a minion in Longwall" in actions(s)
    do(s, "Place a minion in Longwall")
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Red", "Longwall") == 1
    assert s.trouble_count() == 0


# --- B41 Cosmo Lavish (D18) -----------------------------------------------------------------------
def test_cosmo_lavish_paid_player_removes_a_minion_not_red_s() -> None:
    """Cosmo Lavish (B41, D18): Red pays another player $2; that player removes any minion (their
    own, a third player's, a troll) but not Red's, from an area with trouble."""
    p = pos("Cosmo Lavish", "The Watch", red_money=2)
    minions(p, "Dimwell", Red=1, Blue=1, Green=1)
    area(p, "Dimwell", trouble=True, trolls=1)
    minions(p, "Nap Hill", Yellow=1)  # no trouble
    s = start(p)
    play(s, "Cosmo Lavish")
    do(s, "Do the text of Cosmo Lavish")
    assert actions(s) == [
        "Aim Cosmo Lavish at Blue", "Aim Cosmo Lavish at Green", "Aim Cosmo Lavish at Yellow",
    ]
    do(s, "Aim Cosmo Lavish at Blue")
    assert money(s, "Red") == 0 and money(s, "Blue") == 12
    assert s.to_move == seat_of("Blue")
    assert sorted(actions(s)) == [
        "Remove Blue's minion from Dimwell",
        "Remove Green's minion from Dimwell",
        "Remove a troll from Dimwell",
    ]
    do(s, "Remove Green's minion from Dimwell")
    assert count(s, "Green", "Dimwell") == 0 and count(s, "Red", "Dimwell") == 1
    assert not trouble(s, "Dimwell")
    assert actions(s) == ["Play The Watch", "Play no more cards"]


def test_cosmo_lavish_blocked_by_wallace_sonky() -> None:
    """Cosmo Lavish (B41, D18): a target who plays Wallace Sonky is neither paid nor made to
    remove anything."""
    p = pos("Cosmo Lavish", red_money=2)
    give(p, "Blue", "Wallace Sonky")
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "Cosmo Lavish")
    do(s, "Do the text of Cosmo Lavish")
    do(s, "Aim Cosmo Lavish at Blue")
    assert actions(s) == ["Play Wallace Sonky", "Play no interrupt"]
    do(s, "Play Wallace Sonky")
    assert money(s, "Red") == 2 and money(s, "Blue") == 10
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Dimwell") == 1


# --- B42 The Dean ---------------------------------------------------------------------------------
def test_the_dean_removes_any_minion_from_unreal_estate() -> None:
    """The Dean (B42, D15): after the event, remove one minion of any owner (Red's own, a troll)
    from Unreal Estate, without trouble; nowhere else."""
    p = pos("The Dean", "The Watch")
    minions(p, "Unreal Estate", Red=1, Blue=1)
    area(p, "Unreal Estate", trolls=1)
    minions(p, "Dimwell", Green=1)
    area(p, "Dimwell", trouble=True)
    s = start(p)
    play(s, "The Dean")
    do(s, "Do the text of The Dean")
    assert sorted(actions(s)) == [
        "Remove Blue's minion from Unreal Estate",
        "Remove Red's minion from Unreal Estate",
        "Remove a troll from Unreal Estate",
    ]
    do(s, "Remove Blue's minion from Unreal Estate")
    assert count(s, "Blue", "Unreal Estate") == 0 and count(s, "Green", "Dimwell") == 1
    assert actions(s) == ["Play The Watch", "Play no more cards"]


def test_the_dean_with_empty_unreal_estate() -> None:
    """The Dean (B42, D3): nobody in Unreal Estate - the text is not offered."""
    p = pos("The Dean", "The Watch")
    minions(p, "Dimwell", Blue=1)
    s = start(p)
    play(s, "The Dean")
    assert actions(s) == ["Play The Watch", "Play no more cards"]
    assert count(s, "Blue", "Dimwell") == 1


# --- B43 The Bursar (D17) -------------------------------------------------------------------------
def test_the_bursar_swaps_pieces_of_different_owners_in_different_areas() -> None:
    """The Bursar (B43, D17, ruling 7): two pieces of different owners in different areas swap;
    both areas lose their markers and gain one only if the arriving piece finds company."""
    p = pos("The Bursar")
    minions(p, "Dimwell", Red=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "Nap Hill", Blue=1)
    minions(p, "Longwall", Blue=1)
    area(p, "Longwall", trolls=1)
    s = start(p)
    play(s, "The Bursar")
    do(s, "Do the text of The Bursar")
    assert sorted(actions(s)) == sorted([
        "Swap Red's minion in Dimwell with Blue's minion in Nap Hill",
        "Swap Red's minion in Dimwell with Blue's minion in Longwall",
        "Swap Red's minion in Dimwell with a troll in Longwall",
        "Swap a troll in Longwall with Blue's minion in Nap Hill",
    ])
    do(s, "Swap Red's minion in Dimwell with a troll in Longwall")
    assert count(s, "Red", "Longwall") == 1 and s.trolls[idx("Dimwell")] == 1
    assert trouble(s, "Longwall")  # Red joined Blue there
    assert not trouble(s, "Dimwell")  # the troll arrived in an empty area


def test_the_bursar_swap_stopped_by_gaspode() -> None:
    """The Bursar (B43, D17): a player whose minion would move may play Gaspode; then nothing
    moves."""
    p = pos("The Bursar")
    give(p, "Blue", "Gaspode")
    minions(p, "Dimwell", Red=1)
    minions(p, "Nap Hill", Blue=1)
    s = start(p)
    play(s, "The Bursar")
    do(s, "Do the text of The Bursar")
    assert s.to_move == seat_of("Blue")
    assert actions(s) == ["Play Gaspode", "Play no interrupt"]
    do(s, "Play Gaspode")
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Nap Hill") == 1


def test_the_bursar_swap_of_two_other_players_stopped_by_the_second() -> None:
    """The Bursar (B43, D17): each other player whose minion would move is asked; if either
    protects, nothing moves."""
    p = pos("The Bursar")
    give(p, "Green", "Wallace Sonky")
    minions(p, "Dimwell", Blue=1)
    minions(p, "Nap Hill", Green=1)
    s = start(p)
    play(s, "The Bursar")
    do(s, "Do the text of The Bursar")
    assert s.to_move == seat_of("Green")
    do(s, "Play Wallace Sonky")
    assert count(s, "Blue", "Dimwell") == 1 and count(s, "Green", "Nap Hill") == 1


# --- B44 Cable Street Particulars -----------------------------------------------------------------
def test_cable_street_particulars_red_picks_the_discard() -> None:
    """Cable Street Particulars (B44): look at one player's hand (one with cards) and choose the
    card they discard; then the minion symbol."""
    p = pos("Cable Street Particulars", "The Watch")
    give(p, "Blue", "Ruby", "Dwarves")
    give(p, "Yellow", "Sergeant Colon")
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "Cable Street Particulars")
    do(s, "Do the text of Cable Street Particulars")
    assert actions(s) == [
        "Aim Cable Street Particulars at Blue", "Aim Cable Street Particulars at Yellow",
    ]
    do(s, "Aim Cable Street Particulars at Blue")
    assert "Red looked at Blue's hand: Ruby, Dwarves." in s.log(seat_of("Red"))
    assert "Red looked at Blue's hand." in s.log(seat_of("Green"))
    assert sorted(actions(s)) == ["Make Blue discard Dwarves", "Make Blue discard Ruby"]
    do(s, "Make Blue discard Ruby")
    assert hand(s, "Blue") == ["Dwarves"] and top_of_discard(s) == "Ruby"
    assert hand(s, "Red") == ["The Watch"]
    assert "Place a minion in Dimwell" in actions(s)


# --- B45 Canting Crew -----------------------------------------------------------------------------
def test_canting_crew_moves_another_player_s_minion_to_an_adjacent_area() -> None:
    """Canting Crew (B45, ruling 7): move a minion of another player to an adjacent area; Red's
    own cannot be chosen; trouble follows the move."""
    p = pos("Canting Crew")
    minions(p, "Dimwell", Blue=1, Red=1)
    area(p, "Dimwell", trouble=True)
    minions(p, "The Shades", Green=1)
    s = start(p)
    play(s, "Canting Crew")
    do(s, "Do the text of Canting Crew")
    assert sorted(actions(s)) == sorted([
        "Move Blue's minion from Dimwell to The Scours",
        "Move Blue's minion from Dimwell to The Shades",
        "Move Blue's minion from Dimwell to Longwall",
        "Move Green's minion from The Shades to The Scours",
        "Move Green's minion from The Shades to The Hippo",
        "Move Green's minion from The Shades to Dimwell",
    ])
    do(s, "Move Blue's minion from Dimwell to The Shades")
    assert count(s, "Blue", "The Shades") == 1 and trouble(s, "The Shades")
    assert not trouble(s, "Dimwell")
    do(s, "Place a minion in Longwall")
    assert count(s, "Red", "Longwall") == 1


# --- B46 Carcer (ruling 9, D16) ------------------------------------------------------------------
def test_carcer_removes_one_minion_from_each_rolled_area_without_trouble() -> None:
    """Carcer (B46, ruling 9, D16): roll twice; from each rolled area remove a minion of Red's
    choice - Red's own, trolls and demons count - trouble or not."""
    p = pos("Carcer", "The Watch")
    p["rng"] = seed_for(8, 12)
    minions(p, "Dimwell", Red=1)
    area(p, "Dimwell", trolls=1)
    minions(p, "Nap Hill", Blue=1)
    area(p, "Nap Hill", demons=1)
    minions(p, "Longwall", Green=1)
    s = start(p)
    play(s, "Carcer")
    do(s, "Do the text of Carcer")
    log = s.log()
    assert "The die shows 8: Dimwell." in log and "The die shows 12: Nap Hill." in log
    assert sorted(actions(s)) == ["Remove Red's minion from Dimwell", "Remove a troll from Dimwell"]
    do(s, "Remove a troll from Dimwell")
    assert sorted(actions(s)) == [
        "Remove Blue's minion from Nap Hill", "Remove a demon from Nap Hill",
    ]
    do(s, "Remove a demon from Nap Hill")
    assert s.trolls[idx("Dimwell")] == 0 and s.demons[idx("Nap Hill")] == 0
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Nap Hill") == 1
    assert count(s, "Green", "Longwall") == 1
    assert actions(s) == ["Play The Watch", "Play no more cards"]


def test_carcer_empty_rolled_area_removes_nothing() -> None:
    """Carcer (B46, D16): an empty rolled area removes nothing; a lone minion must go, even
    Red's own."""
    p = pos("Carcer", "The Watch")
    p["rng"] = seed_for(8, 12)
    minions(p, "Dimwell", Red=1)
    minions(p, "Longwall", Green=1)
    s = start(p)
    play(s, "Carcer")
    do(s, "Do the text of Carcer")
    assert "The die shows 12: Nap Hill." in s.log()
    assert count(s, "Red", "Dimwell") == 0 and count(s, "Green", "Longwall") == 1
    assert "Red's minion was removed from Dimwell." in s.log()
    assert actions(s) == ["Play The Watch", "Play no more cards"]


# --- B47 The Chair of Indefinite Studies ----------------------------------------------------------
def test_chair_of_indefinite_studies_exchanges_hands() -> None:
    """The Chair of Indefinite Studies (B47): after the event, exchange Red's whole hand with
    another player's; then Red may play a card from the new hand."""
    p = pos("The Chair of Indefinite Studies", "The Watch")
    give(p, "Blue", "Ruby", "Dwarves", "Buggy Swires")
    s = start(p)
    play(s, "The Chair of Indefinite Studies")
    do(s, "Do the text of The Chair of Indefinite Studies")
    assert actions(s) == [
        "Aim The Chair of Indefinite Studies at Blue",
        "Aim The Chair of Indefinite Studies at Green",
        "Aim The Chair of Indefinite Studies at Yellow",
    ]
    do(s, "Aim The Chair of Indefinite Studies at Blue")
    assert hand(s, "Red") == ["Buggy Swires", "Dwarves", "Ruby"]
    assert hand(s, "Blue") == ["The Watch"]
    assert sorted(actions(s)) == [
        "Play Buggy Swires", "Play Dwarves", "Play Ruby", "Play no more cards",
    ]


# --- B50 The Alchemists' Guild (D22) --------------------------------------------------------------
def test_alchemists_guild_discards_up_to_three_then_refills() -> None:
    """The Alchemists' Guild (B50): discard up to three cards (no fourth is offered), then refill
    the hand to five; then the building symbol."""
    p = pos("The Alchemists' Guild", "The Watch", "Ruby", "Dwarves", "Buggy Swires",
            "Sergeant Colon")
    to_pile(p, "draw_pile", "DEATH", "Errol", "Carcer", "Dorfl")
    minions(p, "Dimwell", Red=1)
    s = start(p)
    play(s, "The Alchemists' Guild")
    do(s, "Do the text of The Alchemists' Guild")
    assert "Done" in actions(s)
    do(s, "Discard The Watch")
    do(s, "Discard Ruby")
    do(s, "Discard Dwarves")
    assert hand(s, "Red") == sorted(["Buggy Swires", "Sergeant Colon", "DEATH", "Errol", "Carcer"])
    assert actions(s) == [
        "Build in Dimwell for $6", "Skip place a building on The Alchemists' Guild",
    ]


def test_alchemists_guild_may_discard_fewer_and_whiteface_takes_a_slot() -> None:
    """The Alchemists' Guild (B50, D22): "up to" three - one is fine; Dr Whiteface in front
    counts toward the five."""
    p = pos("The Alchemists' Guild", "The Watch", "Ruby")
    give(p, "Red", "Dr Whiteface", zone="in_front")
    to_pile(p, "draw_pile", "DEATH", "Errol", "Carcer")
    s = start(p)
    play(s, "The Alchemists' Guild")
    do(s, "Do the text of The Alchemists' Guild")
    do(s, "Discard The Watch")
    do(s, "Done")
    assert hand(s, "Red") == sorted(["Ruby", "DEATH", "Errol", "Carcer"])


# --- B51 The Auditors -----------------------------------------------------------------------------
def test_the_auditors_each_other_player_removes_one_of_their_own() -> None:
    """The Auditors (B51): each other player, in turn order, removes one of their own minions
    (their choice); a player with none is skipped; Red is not affected."""
    p = pos("The Auditors")
    minions(p, "Dimwell", Red=1, Blue=1)
    minions(p, "Nap Hill", Blue=1)
    minions(p, "Longwall", Yellow=2)
    s = start(p)
    play(s, "The Auditors")
    do(s, "Do the text of The Auditors")
    assert s.to_move == seat_of("Blue")
    assert sorted(actions(s)) == [
        "Remove Blue's minion from Dimwell", "Remove Blue's minion from Nap Hill",
    ]
    do(s, "Remove Blue's minion from Nap Hill")
    assert count(s, "Yellow", "Longwall") == 1  # Yellow's only choice, made at once
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Dimwell") == 1
    log = s.log()
    assert log.index("Blue's minion was removed from Nap Hill.") < log.index(
        "Yellow's minion was removed from Longwall.")


# --- B53 Burleigh & Stronginthearm (D21) ----------------------------------------------------------
def test_burleigh_pays_a_player_then_assassinates() -> None:
    """Burleigh & Stronginthearm (B53, D21): pay $2 to a player of Red's choice, then a normal
    assassination (not Red's own; trouble needed); then the building symbol."""
    p = pos("Burleigh & Stronginthearm", red_money=2)
    minions(p, "Dimwell", Red=1, Blue=1)
    area(p, "Dimwell", trouble=True, trolls=1)
    minions(p, "Nap Hill", Green=1)
    s = start(p)
    play(s, "Burleigh & Stronginthearm")
    do(s, "Do the text of Burleigh & Stronginthearm")
    do(s, "Pay $2 to Yellow")
    assert money(s, "Red") == 0 and money(s, "Yellow") == 12
    assert sorted(actions(s)) == [
        "Assassinate Blue's minion in Dimwell", "Assassinate a troll in Dimwell",
    ]
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0 and not trouble(s, "Dimwell")
    assert count(s, "Green", "Nap Hill") == 1


def test_burleigh_needs_two_dollars() -> None:
    """Burleigh & Stronginthearm (B53, D21): with less than $2 the text cannot start."""
    p = pos("Burleigh & Stronginthearm", red_money=1)
    minions(p, "Dimwell", Blue=1)
    area(p, "Dimwell", trouble=True)
    stop_blue(p)
    s = start(p)
    play(s, "Burleigh & Stronginthearm")
    assert count(s, "Blue", "Dimwell") == 1 and money(s, "Red") == 1
    assert s.current == seat_of("Blue")


# --- every brown card is covered ------------------------------------------------------------------
def test_every_brown_card_is_named_by_a_test() -> None:
    """Every brown card (B01-B53) is named in a test of this module."""
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    missing = [name for name in BROWN if f'"{name}"' not in source]
    assert missing == []
