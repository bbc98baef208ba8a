"""Guards! Guards!: every Fate card (fate.py), each drawn in a position (``gg_positions``) and
played on through legal actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from gg_positions import (
    Position,
    State,
    act,
    base,
    far_apart,
    fate_drawn,
    fate_index,
    fate_on_top,
    finish_turn,
    give,
    item_index,
    legal,
    load,
    load_with_dice,
    scripted,
    scroll_index,
    seat,
    set_dollars,
    top,
    top_card,
    turn_of,
    verbs,
    volunteer,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import allowance
from citywatch.games.guards_guards.data import (
    CURRY_GARDENS,
    DECK_SPACES,
    FATE_CARDS,
    HOSPITALS,
    SUNSHINE_SANCTUARY,
    TILES,
    VOLUNTEER_TILES,
    VOLUNTEERS,
    WATCH_HOUSES,
    tile_named,
)
from citywatch.games.guards_guards.frames import OPS

VT = next(t for t, d in VOLUNTEER_TILES.items() if d == 0)
"""The Volunteer tile where Red stands and draws (a Lords & Ladies tile)."""
LUGGAGE = TILES[board.LUGGAGE_START].id


def on_volunteer_tile() -> Position:
    """Red, stopped on ``VT`` during their own turn; the Luggage on its start; everyone else
    far away."""
    pos = far_apart(base(), ("Red", TILES[VT].id), avoid=[LUGGAGE])
    pos["luggage"] = LUGGAGE
    return turn_of(pos, "Red", stopped=True)


def drawn(name: str, rolls: Sequence[int] = (), belows: Sequence[int] = (),
          prepare: Callable[[Position], Any] | None = None) -> State:
    """Red, stopped on ``VT`` during their own turn, has just drawn the Fate card ``name``
    (``prepare`` edits the position first); what it says happens as the position loads, with
    scripted dice."""
    pos = on_volunteer_tile()
    if prepare is not None:
        prepare(pos)
    return load_with_dice(fate_drawn(pos, "Red", name), rolls, belows)


def nearest_space(kind: str) -> str:
    """The id of the first deck space of ``kind`` nearest ``VT``."""
    return DECK_SPACES[board.nearest_deck(VT, kind)[0]].id


def test_every_fate_card_is_tested() -> None:
    """The deck holds 36 Fate cards and each has an op this module carries out."""
    assert len(FATE_CARDS) == 36


def test_fate_f01_supreme_grand_masters_call_queues_the_call(monkeypatch: Any) -> None:
    """F01: "Every player rolls for each Brethren Volunteer ..." (the Call: op call_brethren,
    carried out by the Dragons module)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setitem(OPS, "call_brethren", lambda s, *args: calls.append(args))
    s = drawn("The Supreme Grand Master's Call")
    assert calls == [(0,)]
    assert fate_index("The Supreme Grand Master's Call") in s.fate_discard


@pytest.mark.parametrize(("name", "tiles"), [("Sapient Pearwood Stampede", 6),
                                             ("The Luggage Picks Up a Scent", 3)])
def test_fate_f02_f03_move_the_luggage(name: str, tiles: int) -> None:
    """F02/F03: "Move the Luggage 6 (3) tiles along its track." """
    s = drawn(name)
    assert s.luggage == board.luggage_paths(board.LUGGAGE_START, tiles)[0][-1]


def test_fate_f04_where_is_twoflower_left_player_moves_0_to_4() -> None:
    """F04: "The player on your left moves the Luggage 0 to 4 tiles along its track, as they
    like." """
    s = drawn("Where Is Twoflower?")
    assert top(s)[:2] == ("luggage_path", 1) and s.to_move == 1
    assert {a.x for a in legal(s)} == {0, 1, 2, 3, 4}
    act(s, "luggage_tiles", 2)
    assert s.luggage == board.luggage_paths(board.LUGGAGE_START, 2)[0][-1]


@pytest.mark.parametrize("name", ["Runaway Cart", "A Sausage Inna Bun", "Slippery Cobbles"])
def test_fate_f05_f07_go_to_the_nearest_hospital(name: str) -> None:
    """F05-F07: "Go to the nearest Hospital."; ruling 20: it ends the turn."""
    s = drawn(name)
    assert s.pos[0] in HOSPITALS
    assert s.current == 1


def test_fate_f08_mistaken_identity_arrests_to_nearest_watch_house() -> None:
    """F08: "You are arrested: go to the nearest Watch House." """
    s = drawn("Mistaken Identity")
    assert s.pos[0] == board.nearest(VT, WATCH_HOUSES)[0] and s.jailed[0]


@pytest.mark.parametrize(("name", "place"), [("Loitering with Intent", "watch_old_watch_house"),
                                             ("Helping with Enquiries",
                                              "watch_pseudopolis_yard")])
def test_fate_f09_f10_arrest_to_a_named_watch_house(name: str, place: str) -> None:
    """F09/F10: "You are arrested: go to The Old Watch House / Pseudopolis Yard." """
    s = drawn(name)
    assert s.pos[0] == tile_named(place).index and s.jailed[0]


def test_carrot_prevents_a_fate_arrest() -> None:
    """Carrot: "While he is in your hand you cannot be arrested: ignore any effect that would
    send you to a Watch House." """
    s = drawn("Mistaken Identity", prepare=lambda pos: give(
        pos, "Red", volunteer="Lance-Constable Carrot Ironfoundersson"))
    assert s.pos[0] == VT and not s.jailed[0]


@pytest.mark.parametrize(("name", "delta"), [
    ("Tax Demand from the Palace", -3), ("A Purse in the Gutter", 3),
    ("An Unexpected Inheritance", 5), ("Pickpocketed", -2), ("Guild Dues", -2),
    ("Informer's Fee", 2), ("Wizards' Wager", 4)])
def test_fate_dollar_cards_f11_f14_f20_f28_f33(name: str, delta: int) -> None:
    """F11, F12, F13, F14, F20, F28, F33: pay to or take from the Bank."""
    s = drawn(name)
    assert s.dollars[0] == 5 + delta


def test_ruling_65_a_fate_payment_takes_all_if_short() -> None:
    """Ruling 65: "A payment larger than a player's money takes all they have." """
    s = drawn("Tax Demand from the Palace", prepare=lambda pos: set_dollars(pos, "Red", 1))
    assert s.dollars[0] == 0


def test_fate_f15_curry_night_places_without_moving() -> None:
    """F15: "Go to the Curry Gardens at once. Your movement for this turn ends."; ruling 19: no
    pass-through actions."""
    s = drawn("Curry Night")
    # placed, not moved: nothing is left to do there, so Red's turn passes on at once
    assert s.pos[0] == CURRY_GARDENS and s.current == 1 and s.dollars[0] == 5


def test_fate_f16_dragon_sitting_goes_to_the_sanctuary_and_pays_two() -> None:
    """F16: "Go to the Sunshine Sanctuary at once and take 2 dollars"."""
    s = drawn("Dragon-Sitting for Lady Sybil")
    assert s.pos[0] == SUNSHINE_SANCTUARY and s.dollars[0] == 7


def test_ruling_19_place_on_a_taken_tile_goes_to_nearest_free() -> None:
    """Ruling 19: "A one-player tile that is taken sends them to the nearest free tile." """
    curry = TILES[CURRY_GARDENS].id
    s = drawn("Curry Night", prepare=lambda pos: far_apart(
        pos, ("Red", TILES[VT].id), ("Blue", curry), avoid=[LUGGAGE]))
    assert s.pos[1] == CURRY_GARDENS
    assert s.pos[0] != CURRY_GARDENS and s.pos[0] >= 0
    assert TILES[s.pos[0]].kind != "start_gate" or s.pos[0] == s.gate[0]


def test_fate_f17_something_going_round_gives_the_pox() -> None:
    """F17: "You catch the Pox." """
    s = drawn("Something Going Round")
    assert s.pox[0]


def test_fate_f18_outbreak_in_the_shades_within_two_tiles() -> None:
    """F18: "You and every player within 2 tiles of you catch the Pox." (ruling 17: hex
    distance)"""
    near = next(t.id for t in TILES if board.hex_distance(VT, t.index) == 2
                and t.kind == "street")
    s = drawn("Outbreak in the Shades", prepare=lambda pos: far_apart(
        pos, ("Red", TILES[VT].id), ("Blue", near), avoid=[LUGGAGE]))
    assert s.pox[0] and s.pox[1] and not s.pox[2]


def test_fate_f19_the_patrician_is_pleased_spends_a_point() -> None:
    """F19: "Gain 1 Attribute Point to spend at once on Magic, Guild or Charm." """
    s = drawn("The Patrician Is Pleased")
    before = s.attrs[0][:]
    assert top(s)[:3] == ("fate", 0, "attribute")
    act(s, "spend_fate_point", 1)
    assert s.attrs[0] == [before[0], before[1] + 1, before[2]]


@pytest.mark.parametrize(("name", "kind", "key"),
                         [("A Scroll Falls off a Shelf", "curses_and_cures", "scrolls"),
                          ("Fell off the Back of a Cart", "odds_and_sods", "items")])
def test_fate_f21_f22_free_scroll_or_item(name: str, kind: str, key: str) -> None:
    """F21/F22: "Take the top card of the nearest Curses & Cures (Odds & Sods) deck for
    free."; ruling 18: from a tile equally near two decks of the kind, the drawer chooses."""
    s = drawn(name)
    if len(board.nearest_deck(VT, kind)) == 2:
        assert verbs(s) == {"draw_from"} and not getattr(s, key)[0]
        act(s, "draw_from")
    else:
        assert "draw_from" not in verbs(s)
    assert len(getattr(s, key)[0]) == 1 and s.dollars[0] == 5


def test_fate_f23_exploding_swamp_dragon_loses_a_random_card() -> None:
    """F23: "Lose one Scroll or Item from your hand at random; it goes to the bottom of the
    nearest deck of its kind." """
    items = nearest_space("odds_and_sods")

    def prep(pos: Position) -> None:
        give(pos, "Red", scroll=pos["decks"][nearest_space("curses_and_cures")][-1])
        give(pos, "Red", item=pos["decks"][items][-1])

    held = on_volunteer_tile()
    prep(held)
    item = item_index(seat(held, "Red")["items"][0])
    scroll = scroll_index(seat(held, "Red")["scrolls"][0])
    s = drawn("Exploding Swamp Dragon", belows=[1], prepare=prep)  # pick 1 of 2: the Item
    assert s.scrolls[0] == [scroll] and not s.items[0]
    assert s.decks[next(d.index for d in DECK_SPACES if d.id == items)][0] == item


def test_fate_f24_cold_feet_discards_a_random_volunteer() -> None:
    """F24: "One Volunteer from your hand, picked at random, goes home: discard it." """
    a, b = volunteer("Drumknott"), volunteer("The Dean")
    s = drawn("Cold Feet", belows=[1],
              prepare=lambda pos: give(pos, "Red", volunteer=["Drumknott", "The Dean"]))
    assert s.hand[0] == [a] and b in s.vol_discard[VOLUNTEERS[b].deck]


def test_fate_f25_a_friend_at_the_bar_joins_without_fate() -> None:
    """F25: "Take the top face-down card of any Volunteer deck into your hand without a Charm
    roll or Bribe. Its Fate mark is ignored; everything else on it ... applies." """
    bursar = volunteer("The Bursar")  # Fate mark, $2, Luggage 1
    s = drawn("A Friend at the Bar", prepare=lambda pos: top_card(pos, "The Bursar"))
    fate_before = len(s.fate_deck)
    assert {a.x for a in legal(s) if a.verb == "friend_deck"} == {0, 1, 2}
    act(s, "friend_deck", 0)
    assert bursar in s.hand[0] and s.dollars[0] == 7
    assert len(s.fate_deck) == fate_before
    assert s.luggage == board.luggage_paths(board.LUGGAGE_START, 1)[0][-1]


def test_fate_f26_ook_is_kept() -> None:
    """F26: "Keep this card. Discard it to add 2 to any one Wizard's Challenge roll." """
    s = drawn("Ook!")
    assert s.kept[0] == (fate_index("Ook!"),) and fate_index("Ook!") not in s.fate_discard


def test_fate_f27_the_watch_take_a_wanted_volunteer_and_arrest() -> None:
    """F27: "If you hold a Wanted Volunteer, discard one of them (no reward) and go to the
    nearest Watch House, arrested. Otherwise nothing happens." """
    hrun, nobby = volunteer("Hrun the Barbarian"), volunteer("Corporal Nobby Nobbs")
    s = drawn("The Watch Are Looking for Someone", prepare=lambda pos: give(
        pos, "Red", volunteer=["Hrun the Barbarian", "Corporal Nobby Nobbs"]))
    assert {a.x for a in legal(s) if a.verb == "give_up_wanted"} == {hrun, nobby}
    act(s, "give_up_wanted", nobby)
    assert s.hand[0] == [hrun] and s.jailed[0] and s.pos[0] in WATCH_HOUSES
    assert nobby in s.vol_discard[VOLUNTEERS[nobby].deck] and s.dollars[0] == 5
    s2 = drawn("The Watch Are Looking for Someone")
    assert not s2.jailed[0] and s2.pos[0] == VT


def test_fate_f29_a_long_night_misses_the_next_turn() -> None:
    """F29: "You miss your next turn." """
    s = drawn("A Long Night at the Mended Drum")
    assert s.missed[0] == 1
    for _ in range(3):  # Red's turn, Blue's and Black's; Red's next is missed at once
        finish_turn(s)
    assert s.current == 1 and s.missed[0] == 0


@pytest.mark.parametrize(("name", "attr", "delta"), [("Octarine Glow", "magic", 1),
                                                      ("Guild Promotion", "guild", 1),
                                                      ("Fashion Disaster", "charm", -1)])
def test_fate_f30_f32_attribute_changes(name: str, attr: str, delta: int) -> None:
    """F30-F32: "Your Magic (Guild) level goes up by 1" / "Your Charm level goes down by 1"."""
    before = seat(on_volunteer_tile(), "Red")[attr]
    s = drawn(name)
    assert s.attrs[0][("magic", "guild", "charm").index(attr)] == max(0, before + delta)


def test_fate_f34_the_beggars_pay_or_pox() -> None:
    """F34: "Pay 1 dollar to the Bank or catch the Pox (your choice; with no money you catch
    it)." """
    s = drawn("The Beggars' Guild Calls")
    assert verbs(s) == {"pay_beggars", "take_the_pox"}
    act(s, "pay_beggars")
    assert s.dollars[0] == 4 and not s.pox[0]
    s2 = drawn("The Beggars' Guild Calls")
    act(s2, "take_the_pox")
    assert s2.pox[0] and s2.dollars[0] == 5
    s3 = drawn("The Beggars' Guild Calls", prepare=lambda pos: set_dollars(pos, "Red", 0))
    assert s3.pox[0]


def test_fate_f35_street_collection_one_from_each() -> None:
    """F35: "Every other player gives you 1 dollar if they have one." """
    s = drawn("Street Collection", prepare=lambda pos: set_dollars(pos, "Black", 0))
    assert s.dollars == [6, 4, 0]


def test_fate_f36_fog_on_the_ankh_caps_next_turn_at_three() -> None:
    """F36: "On your next turn you may move at most 3 spaces."; ruling 54 counting."""
    s = drawn("Fog on the Ankh")
    for _ in range(3):  # the rest of Red's turn, then Blue's and Black's
        finish_turn(s)
    assert s.current == 0 and allowance(s, 0) == 3
    for _ in range(3):
        finish_turn(s)
    assert s.current == 0 and allowance(s, 0) == 6


def test_rulebook_fate_card_goes_to_the_discard_pile() -> None:
    """A drawn Fate card is discarded once applied (ruling 66: the discards are reshuffled):
    Red recruits a Volunteer with a Fate mark and draws Informer's Fee from the deck."""
    chair = volunteer("The Chair of Indefinite Studies")  # Fate mark, Bribe 2, Luggage 1
    fee = fate_index("Informer's Fee")
    pos = far_apart(base(), ("Red", TILES[VT].id), avoid=[LUGGAGE])
    pos["luggage"] = LUGGAGE
    top_card(pos, "The Chair of Indefinite Studies")
    fate_on_top(pos, "Informer's Fee")
    s = load(pos)
    scripted(s)
    act(s, "end_movement")
    act(s, "recruit_here")
    act(s, "turn_over")
    act(s, "bribe_volunteer")
    assert chair in s.hand[0] and s.dollars[0] == 5 - 2 + 2
    assert s.fate_discard[-1] == fee and fee not in s.fate_deck

