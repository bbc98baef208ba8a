"""Guards! Guards!: the turn, movement, places and the Luggage (turn.py, luggage.py), each
situation built from a position (``gg_positions``) and played through legal actions."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

import pytest
from gg_positions import (
    Position,
    act,
    add_effect,
    base,
    deck_top,
    far_apart,
    find,
    finish_turn,
    give,
    item_index,
    legal,
    let_pass,
    load,
    luggage_moves,
    place_dragon,
    plant,
    put_flask,
    scripted,
    scroll_index,
    seat,
    set_dollars,
    set_level,
    set_pox,
    set_run,
    tile,
    top,
    turn_begins,
    turn_of,
    verbs,
    volunteer,
    walk,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import allowance
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    DRAGONS,
    GUILD_CARDS,
    GUILD_HOUSES,
    HOSPITALS,
    ITEMS,
    MERCHANTS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    TAVERNS,
    TEMPLES,
    TILES,
    VOLUNTEER_TILES,
    VOLUNTEERS,
    WATCH_HOUSES,
    tile_named,
)
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.state import UNTIL_HEALED, GuardsGuardsState

State = GuardsGuardsState


# --- places on the board ------------------------------------------------------------------------
def street_next_to(tile_id: str, exclude: Sequence[str] = ()) -> str:
    """A street tile next to ``tile_id`` (not one of ``exclude``)."""
    return next(TILES[n].id for n in board.NEIGHBOURS[tile(tile_id)]
                if TILES[n].kind == "street" and TILES[n].id not in exclude)


def inner_street(t: int) -> bool:
    """True for a street whose neighbours are all streets."""
    return TILES[t].kind == "street" and all(TILES[n].kind == "street"
                                             for n in board.NEIGHBOURS[t])


START, NEXT, THIRD = next(
    (TILES[a].id, TILES[b].id, TILES[c].id)
    for a in range(len(TILES)) if inner_street(a) for b in board.NEIGHBOURS[a] if inner_street(b)
    for c in board.NEIGHBOURS[b] if TILES[c].kind == "street" and board.hex_distance(a, c) == 2)
"""Plain streets for the movement tests: Red starts on ``START``; ``NEXT`` is next to it and
``THIRD`` next to ``NEXT``, at hex distance 2 from ``START``."""


def red_at(where: str, players: int = 3, **others: str) -> Position:
    """Red to move, before moving, on ``where``; the ``others`` (colour=tile id) where named,
    everyone else far away (no Pox, no Guild Ability reaches)."""
    pos = base(players)
    return far_apart(pos, ("Red", where), *others.items())


def house_of(pos: Position, colour: str) -> str:
    """The tile id of ``colour``'s Guild House."""
    card = next(g for g in GUILD_CARDS if g.name == seat(pos, colour)["guild_card"])
    return TILES[card.guild_house].id


def space_id(where: str, kind: str) -> str:
    """The deck space of ``kind`` nearest ``where`` (its shop)."""
    return DECK_SPACES[board.nearest_deck(tile(where), kind)[0]].id


def deck_index(space: str) -> int:
    """The index of the deck space ``space``."""
    return next(d.index for d in DECK_SPACES if d.id == space)


def spaces(pos: Position) -> int:
    """How far Red may move from ``START``: the steps walked back and forth to ``NEXT`` until
    no step is offered (the movement then ends and the turn passes), checked against
    ``allowance`` (read while it is Blue's turn, before Red's effects count down)."""
    far_apart(pos, ("Red", START))
    expected = allowance(load(turn_of(copy.deepcopy(pos), "Blue")), 0)
    s = load(pos)
    steps = 0
    while s.current == 0 and "move_to" in verbs(s):
        walk(s, NEXT if steps % 2 == 0 else START)
        steps += 1
    assert steps == expected and s.current == 1 and s.pos[0] == tile(START if steps % 2 == 0
                                                                        else NEXT)
    return steps


# --- movement (rulings 10-13) ---------------------------------------------------------------------


def test_ruling_10_allowance_six_four_with_pox_bonuses_caps_and_boots() -> None:
    """Ruling 10: "Movement allowance = 6 (4 with the Pox), plus every bonus and penalty, then
    any cap (Fog, Stasis). It is never below 0, and Seven-League Boots override it all." """
    pos = base()
    assert spaces(pos) == 6
    set_pox(pos, "Red")
    assert spaces(pos) == 4
    add_effect(pos, "Red", "move", 1, 0, 3, "City Map")
    assert spaces(pos) == 5
    add_effect(pos, "Red", "move_cap", 3, 0, 1, "Fog on the Ankh")
    assert spaces(pos) == 3
    add_effect(pos, "Red", "move", -9, 0, 1, "Curse")
    assert spaces(pos) == 0
    add_effect(pos, "Red", "move_set", 10, 0, 1, "Seven-League Boots")
    assert spaces(pos) == 10


def test_ruling_11_moves_go_step_by_step_to_listed_neighbours() -> None:
    """Ruling 11: "The player moves step by step to adjacent listed tiles, and may revisit a
    tile." """
    s = load(red_at(START))
    moves = {a.x for a in legal(s) if a.verb == "move_to"}
    assert moves == set(board.NEIGHBOURS[tile(START)])
    assert all(s.can_end_on(0, n) for n in moves)
    walk(s, NEXT, START)
    assert s.pos[0] == tile(START) and s.t.steps == 2
    assert {a.x for a in legal(s) if a.verb == "move_to"} == moves


def test_rulebook_movement_at_most_six_spaces_then_it_ends() -> None:
    """A Player's Turn: "A player can move their playing piece up to a maximum of 6 spaces per
    turn." Once every space is used the movement is over."""
    s = load(red_at(START))
    for k in range(5):
        walk(s, NEXT if k % 2 == 0 else START)
    assert s.current == 0 and s.t.steps == 5
    walk(s, START)
    # the sixth step ends the movement; with nothing left to do the turn passes on
    assert s.current == 1 and s.pos[0] == tile(START)


def test_ruling_12_pass_through_an_occupied_tile_but_never_end_there() -> None:
    """Ruling 12: "A player may pass through tiles that hold players or the Luggage, but may
    end only on a free tile." """
    pos = red_at(START)
    pos["luggage"] = NEXT
    s = load(pos)
    walk(s, NEXT)
    assert "end_movement" not in verbs(s) and "move_to" in verbs(s)
    # with only one space left a step onto the Luggage is not offered
    add_effect(pos, "Red", "move_set", 1, 0, 1, "Seven-League Boots")
    s = load(pos)
    steps = {a.x for a in legal(s) if a.verb == "move_to"}
    assert tile(NEXT) not in steps and steps


def test_ruling_12_bridges_hold_any_number_of_players() -> None:
    """Ruling 12: "Bridges, Hospitals and Watch Houses hold any number of players." """
    bridge = tile_named("Misbegot Bridge").id
    beside = street_next_to(bridge)
    s = load(red_at(beside, Blue=bridge))
    walk(s, bridge)
    let_pass(s)
    assert "end_movement" in verbs(s)
    act(s, "end_movement")
    assert s.pos[0] == s.pos[1] == tile(bridge)
    street = street_next_to(beside, exclude=[bridge])
    s = load(red_at(beside, Blue=street))
    walk(s, street)
    let_pass(s)
    assert "end_movement" not in verbs(s)


def test_ruling_13_nobody_ends_on_another_players_start_gate() -> None:
    """Ruling 13: "Nobody may end their movement on another player's Start Gate." """
    pos = base()
    blue_gate = seat(pos, "Blue")["gate"]
    beside = street_next_to(blue_gate)
    s = load(far_apart(pos, ("Red", beside)))
    walk(s, blue_gate)
    assert "end_movement" not in verbs(s) and "move_to" in verbs(s)
    pos = base()
    s = load(turn_of(far_apart(pos, ("Blue", beside)), "Blue"))
    walk(s, blue_gate)
    let_pass(s)
    assert "end_movement" in verbs(s)


def test_ruling_11_not_moving_is_allowed() -> None:
    """Ruling 11: "Moving is optional and may stop early." """
    s = load(red_at(START))
    act(s, "end_movement")
    assert s.pos[0] == tile(START) and s.current == 1


# --- the Pox (ruling 58) ----------------------------------------------------------------------


def test_ruling_58_pox_passes_both_ways_at_distance_one_after_each_step() -> None:
    """Ruling 58: "The Pox passes automatically at hex distance 1, checked after each step of
    the mover, in either direction." """
    pos = red_at(START, Blue=THIRD)
    set_pox(pos, "Blue")
    s = load(pos)
    assert not s.pox[0]
    walk(s, NEXT)
    assert s.pox[0]
    pos = red_at(START, Blue=THIRD)
    set_pox(pos, "Red")
    s = load(pos)
    assert not s.pox[1]
    walk(s, NEXT)
    assert s.pox[1]


def test_ruling_56_no_pox_in_a_hospital() -> None:
    """Ruling 56: a player in a Hospital or Watch House "cannot give or catch the Pox"."""
    hospital = TILES[HOSPITALS[0]].id
    beside = street_next_to(hospital)
    away = street_next_to(beside, exclude=[hospital])
    pos = red_at(beside, Blue=hospital)
    set_pox(pos, "Red")
    s = load(pos)
    walk(s, away, beside)
    assert s.pos[0] == tile(beside) and not s.pox[1]


# --- pass-through tiles -------------------------------------------------------------------------


def house_position(players: int = 3) -> tuple[Position, str, str]:
    """Red one step from their own Guild House: (position, house, the street before it)."""
    pos = base(players)
    house = house_of(pos, "Red")
    beside = street_next_to(house)
    return far_apart(pos, ("Red", beside)), house, beside


def test_rulebook_guild_house_pays_three_and_sells_two_points_at_eight() -> None:
    """A Player's Guild House: "collect payment of 3 Ankh-Morpork Dollars ... Points cost 8
    dollars each and no more than two points can be purchased on any one visit." """
    pos, house, _ = house_position()
    set_dollars(pos, "Red", 30)
    for attr in ("magic", "guild", "charm"):
        set_level(pos, "Red", attr, 1)
    s = load(pos)
    walk(s, house)
    act(s, "collect_pay")
    assert s.dollars[0] == 33
    assert "collect_pay" not in verbs(s)
    act(s, "buy_point", 0)
    act(s, "buy_point", 2)
    assert s.attrs[0] == [2, 1, 2] and s.dollars[0] == 17
    assert s.t.stopped is False and "buy_point" not in verbs(s)


def test_ruling_63_guild_house_not_on_two_consecutive_own_turns() -> None:
    """Ruling 63: "'Two consecutive turns' means two of the player's own turns in a row." """
    pos, house, beside = house_position(2)
    s = load(pos)
    walk(s, house)
    act(s, "collect_pay")
    act(s, "done_here")
    act(s, "end_movement")
    assert s.current == 1
    finish_turn(s)  # Blue's turn
    assert s.current == 0
    walk(s, beside, house)
    assert "collect_pay" not in verbs(s)
    assert s.pos[0] == tile(house)
    finish_turn(s)
    finish_turn(s)
    assert s.current == 0  # the turn after next: the house pays again
    walk(s, beside, house)
    assert "collect_pay" in verbs(s)


def test_ruling_14_pass_through_at_most_once_per_tile_per_turn() -> None:
    """Ruling 14: "Pass-through actions happen on every tile entered, the last one included, at
    most once per tile per turn." """
    pos, house, beside = house_position()
    s = load(pos)
    walk(s, house)
    act(s, "collect_pay")
    act(s, "done_here")
    walk(s, beside, house)
    assert "collect_pay" not in verbs(s)
    assert s.dollars[0] == 8


def test_ruling_14_player_who_does_not_move_uses_own_tile() -> None:
    """Ruling 14: "A player who does not move may use the tile they stand on." """
    pos, house, _ = house_position()
    s = load(far_apart(pos, ("Red", house)))
    act(s, "end_movement")
    act(s, "collect_pay")
    assert s.dollars[0] == 8


def test_ruling_77_no_guild_house_shop_or_recruiting_in_a_dragons_quadrant() -> None:
    """Ruling 77: "A Dragon blocks only the listed actions in its quadrant (Taverns
    included)." """
    pos, house, _ = house_position()
    quadrant = QUADRANTS[TILES[tile(house)].quadrant]
    s = load(pos)
    walk(s, house)
    assert "collect_pay" in verbs(s)
    s = load(place_dragon(pos, quadrant, DRAGONS[0].name))
    walk(s, house)
    assert "collect_pay" not in verbs(s)
    for where, verb in ((next(iter(VOLUNTEER_TILES)), "recruit_here"), (MERCHANTS[0], "buy_item"),
                        (TAVERNS[0], "tavern_here")):
        pos = red_at(TILES[where].id)
        s = load(pos)
        act(s, "end_movement")
        assert verb in verbs(s)
        s = load(place_dragon(pos, QUADRANTS[TILES[where].quadrant], DRAGONS[1].name))
        act(s, "end_movement")
        assert verb not in verbs(s)


def shop_position(shops: Sequence[int]) -> tuple[Position, str]:
    """Red with $50 on the first of ``shops``: (position, its tile id)."""
    shop = TILES[shops[0]].id
    pos = red_at(shop)
    set_dollars(pos, "Red", 50)
    return pos, shop


def test_rulebook_merchant_sells_any_items_of_the_nearest_deck() -> None:
    """Temples and Shops: "lift the ... deck nearest to the Temple they have passed through and
    select which ... they wish to purchase ... pay the cost marked on the card"; ruling 69:
    the price is public, the card hidden."""
    pos, shop = shop_position(MERCHANTS)
    space = space_id(shop, "odds_and_sods")
    deck = [item_index(name) for name in pos["decks"][space]]
    s = load(pos)
    act(s, "end_movement")
    offered = {a.x: a.y for a in legal(s) if a.verb == "buy_item"}
    assert set(offered) == set(deck)
    card = next(c for c in deck if (ITEMS[c].op or {}).get("op") != "movement")
    act(s, "buy_item", card)
    assert card in s.items[0] and card not in s.decks[deck_index(space)]
    assert s.dollars[0] == 50 - ITEMS[card].price
    assert 100 + card in s.bought[0]
    assert ITEMS[card].name in s.log(0)[-1]
    assert ITEMS[card].name not in s.log(1)[-1] and f"${ITEMS[card].price}" in s.log(1)[-1]
    act(s, "buy_item")
    assert len(s.items[0]) == 2


def test_dibbler_items_cost_one_dollar_less_never_below_one() -> None:
    """Cut-Me-Own-Throat Dibbler: "While he is in your hand, Items cost you 1 dollar less
    (never less than 1)." """
    pos, _ = shop_position(MERCHANTS)
    s = load(pos)
    act(s, "end_movement")
    full = {a.x: a.y for a in legal(s) if a.verb == "buy_item"}
    assert full and all(price == ITEMS[item].price for item, price in full.items())
    s = load(give(pos, "Red", volunteer="Cut-Me-Own-Throat Dibbler"))
    act(s, "end_movement")
    cheap = {a.x: a.y for a in legal(s) if a.verb == "buy_item"}
    assert cheap.keys() == full.keys()
    assert all(price == max(1, ITEMS[item].price - 1) for item, price in cheap.items())


def test_city_map_adds_one_space_for_three_turns_then_goes() -> None:
    """City Map: "Takes effect as soon as you buy it ... Until the end of your third turn (the
    turn you bought it counts as the first) you may move 1 extra space each turn. Then
    discard it." """
    pos, shop = shop_position(MERCHANTS)
    space = space_id(shop, "odds_and_sods")
    deck_top(pos, space, item="City Map")
    city_map = item_index("City Map")
    s = load(pos)
    act(s, "end_movement")
    act(s, "buy_item", city_map)
    assert allowance(s, 0) == 7
    for own_turn in range(3):
        assert city_map in s.items[0]
        if own_turn:
            assert s.current == 0 and allowance(s, 0) == 7
        for _ in range(s.n):  # Red's turn, then Blue's and Black's
            finish_turn(s)
    assert s.current == 0 and allowance(s, 0) == 6
    assert city_map not in s.items[0]
    assert s.decks[deck_index(space)][0] == city_map  # the bottom of the nearest deck


def test_fire_water_explodes_when_buying() -> None:
    """Fire Water explodes when the target tries "buying": "that action fails, the target's
    turn ends at once and the token comes back"."""
    pos, _ = shop_position(MERCHANTS)
    seat(pos, "Blue")["fire_water"] = 3
    put_flask(pos, "Blue", "Red")
    s = load(pos)
    act(s, "end_movement")
    act(s, "buy_item")
    assert not s.items[0] and s.dollars[0] == 50 and s.fire_water[1] == 3
    assert not s.flasks[0] and s.current == 1


def test_rulebook_temple_sells_scrolls() -> None:
    """Temples and Shops: Scrolls are bought at a Temple from the nearest Curses & Cures
    deck."""
    pos, shop = shop_position(TEMPLES)
    top_scroll = pos["decks"][space_id(shop, "curses_and_cures")][-1]
    card = scroll_index(top_scroll)
    s = load(pos)
    act(s, "end_movement")
    act(s, "buy_scroll", card)
    assert card in s.scrolls[0] and s.dollars[0] == 50 - SCROLLS[card].price
    assert card in s.bought[0]


def test_ruling_67_shop_uses_the_other_deck_when_empty() -> None:
    """Ruling 67: "A shop whose deck is empty uses the other deck of that kind." """
    pos, shop = shop_position(TEMPLES)
    space = space_id(shop, "curses_and_cures")
    other = next(d.id for d in DECK_SPACES if d.deck == "curses_and_cures" and d.id != space)
    pos["decks"][other] = pos["decks"][space] + pos["decks"][other]
    pos["decks"][space] = []
    s = load(pos)
    act(s, "end_movement")
    offered = {a.x for a in legal(s) if a.verb == "buy_scroll"}
    assert offered == set(s.decks[deck_index(other)]) and len(offered) == 20


def test_ruling_62_wanted_reward_is_bribe_plus_one_and_colon_adds_one() -> None:
    """Ruling 62: "The Wanted reward is Bribe + 1"; Sergeant Colon: "each Wanted Volunteer you
    turn in earns 1 extra dollar"."""
    hrun, nobby = volunteer("Hrun the Barbarian"), volunteer("Corporal Nobby Nobbs")
    pos = red_at(TILES[WATCH_HOUSES[0]].id)
    give(pos, "Red", volunteer=["Hrun the Barbarian", "Corporal Nobby Nobbs"])
    s = load(pos)
    act(s, "end_movement")
    assert find(s, "turn_in", hrun).y == VOLUNTEERS[hrun].bribe + 1  # type: ignore[operator]
    act(s, "turn_in", hrun)
    assert s.dollars[0] == 5 + 5
    assert hrun in s.vol_discard[VOLUNTEERS[hrun].deck]
    assert find(s, "turn_in", nobby).y == 2
    act(s, "turn_in", nobby)
    assert s.dollars[0] == 12
    assert "turn_in" not in verbs(s)
    s = load(give(pos, "Red", volunteer="Sergeant Fred Colon"))
    act(s, "end_movement")
    assert find(s, "turn_in", hrun).y == 6 and find(s, "turn_in", nobby).y == 3
    act(s, "turn_in", nobby)
    assert s.dollars[0] == 8


# --- stop actions, Hospitals, missed turns -------------------------------------------------------


def test_ruling_59_hospital_stop_cures_for_a_dollar_an_ailment_and_ends_turn() -> None:
    """Ruling 59: "A Hospital cures everything. Private care costs 1 dollar per ailment"; the
    Turn Guide: "If you stop on a Hospital Tile to be cured you may take no further actions on
    that turn." """
    pos = red_at(TILES[HOSPITALS[0]].id)
    set_pox(pos, "Red")
    add_effect(pos, "Red", "attr", 2, -1, UNTIL_HEALED, "Curse")
    s = load(pos)
    act(s, "end_movement")
    act(s, "cure_here")
    assert not s.pox[0] and not s.effects[0] and s.dollars[0] == 3
    assert s.current == 1


def test_ruling_60_city_health_service_then_missed_turn_counts_effects() -> None:
    """Ruling 60: "A patient who cannot pay in full gets the free City Health Service and misses
    their next turn"; ruling 16: "A player who misses a turn only counts down their timed
    effects"."""
    pos = red_at(TILES[HOSPITALS[0]].id)
    set_pox(pos, "Red")
    set_dollars(pos, "Red", 0)
    add_effect(pos, "Red", "move", 1, 0, 3, "City Map")
    s = load(pos)
    act(s, "end_movement")
    act(s, "cure_here")
    assert s.missed[0] == 1 and not s.pox[0]
    assert s.effects[0][0].turns == 2  # the cured turn counted down
    finish_turn(s)  # Blue
    finish_turn(s)  # Black; Red's turn is missed at once
    assert s.missed[0] == 0 and s.current == 1 and s.pos[0] == HOSPITALS[0]
    assert s.effects[0][0].turns == 1


def test_ruling_15_one_stop_action_per_turn() -> None:
    """Ruling 15: "One stop action is allowed per turn"."""
    vt = next(t for t, d in VOLUNTEER_TILES.items() if d == 0)
    pos = red_at(TILES[vt].id)
    plant(pos, "Red", QUADRANTS[0], "Lupine Wonse")  # a recall keeps the turn open
    s = load(pos)
    scripted(s)
    act(s, "end_movement")
    act(s, "recruit_here")
    act(s, "turn_over")
    act(s, "let_volunteer_go")
    assert s.current == 0 and {"recall", "end_turn"} <= verbs(s)
    assert "recruit_here" not in verbs(s)


def test_ruling_42_open_run_allows_only_recruiting() -> None:
    """Ruling 42: "While a run is open, the player may only: re-try the challenge, or send more
    Runners from their hand, or go to recruit"."""
    spell = SPELL_COLOURS[next(g for g in GUILD_CARDS if g.name == "The Housebreaker").spells[0]]
    pos = red_at(TILES[HOSPITALS[0]].id)
    assert seat(pos, "Red")["guild_card"] == "The Housebreaker"
    s = load(pos)
    act(s, "end_movement")
    assert "cure_here" in verbs(s)
    s = load(set_run(pos, "Red", spell))
    act(s, "end_movement")
    assert "cure_here" not in verbs(s)
    pos = red_at(TILES[next(iter(VOLUNTEER_TILES))].id)
    s = load(set_run(pos, "Red", spell))
    act(s, "end_movement")
    assert "recruit_here" in verbs(s)


def test_ruling_54_effects_count_down_at_the_end_of_own_turns() -> None:
    """Ruling 54: '"N turns" means the target's next N turns; a turn of the target's that is in
    progress counts as the first.'; 'until healed' effects stay."""
    pos = red_at(START)
    add_effect(pos, "Red", "move", -1, 0, 1, "A")
    add_effect(pos, "Red", "move", -1, 0, 2, "B")
    add_effect(pos, "Red", "attr", 0, -1, UNTIL_HEALED, "C")
    s = load(pos)
    act(s, "end_movement")
    assert s.current == 1
    assert [(e.source, e.turns) for e in s.effects[0]] == [("B", 1), ("C", UNTIL_HEALED)]


# --- the Watch House (ruling 61) -----------------------------------------------------------------


def jailed(rolls: Sequence[int] = (), dollars: int = 5, hand: Sequence[str] = ()) -> State:
    """Red's turn begins in the Watch House, arrested."""
    pos = red_at(TILES[WATCH_HOUSES[0]].id)
    seat(pos, "Red")["jailed"] = True
    set_dollars(pos, "Red", dollars)
    give(pos, "Red", volunteer=list(hand))
    s = load(turn_begins(pos, "Red"))
    scripted(s, rolls)
    assert top(s)[:2] == ("jail", 0)
    return s


def test_ruling_61_charm_seven_walks_out() -> None:
    """Ruling 61: "An arrested player, at the start of their next turn, rolls Charm (7+) or pays
    2 dollars to leave." """
    s = jailed([7])
    act(s, "jail_charm")
    assert not s.jailed[0] and s.current == 0 and "move_to" in verbs(s)
    assert s.dollars[0] == 5


def test_ruling_61_failed_roll_then_bail() -> None:
    """Ruling 61: rolls Charm (7+) "or pays 2 dollars to leave"."""
    s = jailed([1])
    act(s, "jail_charm")
    assert s.jailed[0]
    assert "jail_charm" not in verbs(s)
    act(s, "jail_bail")
    assert not s.jailed[0] and s.dollars[0] == 3 and "move_to" in verbs(s)


def test_ruling_61_staying_misses_the_turn_and_leaves_freely_next() -> None:
    """Ruling 61: "Otherwise they miss that turn and leave freely on the following one." """
    s = jailed(dollars=0)
    assert "jail_bail" not in verbs(s)
    act(s, "jail_stay")
    assert s.current == 1 and not s.jailed[0]
    finish_turn(s)
    finish_turn(s)
    assert s.current == 0 and "move_to" in verbs(s) and s.pos[0] == WATCH_HOUSES[0]


def test_mr_slant_walks_out_of_the_watch_house() -> None:
    """Mr Slant: "Discard him at the start of your turn in a Watch House to walk out at once,
    with no roll and no bail." """
    slant = volunteer("Mr Slant")
    s = jailed(hand=["Mr Slant"])
    act(s, "jail_slant")
    assert not s.jailed[0] and slant not in s.hand[0] and s.dollars[0] == 5
    assert "move_to" in verbs(s)


# --- Saboteurs (rulings 37, 39) -------------------------------------------------------------------


def test_rulebook_plant_a_saboteur_with_a_guild_test_of_five() -> None:
    """Planting a Saboteur: "a player can attempt to plant a single Saboteur by making a Guild
    Test ... If the result is 5 or higher they can plant one Saboteur in the quadrant of their
    choice ... A Saboteur may be equipped with one Item"; ruling 70: identity and quadrant
    hidden."""
    wonse, sword = volunteer("Lupine Wonse"), item_index("Well-Kept Sword")
    pos = red_at(START)
    give(pos, "Red", volunteer="Lupine Wonse", item="Well-Kept Sword")
    set_level(pos, "Red", "guild", 3)
    s = load(pos)
    scripted(s, rolls=[2])
    act(s, "try_plant")
    act(s, "plant", wonse, 2)
    act(s, "plant_item", sword)
    assert s.saboteurs[0] == ((2, wonse, sword),)
    assert not s.hand[0] and not s.items[0]
    assert "Lupine Wonse" not in s.log(1)[-1] and "Lupine Wonse" in s.log(0)[-1]
    assert "try_plant" not in verbs(s)


def test_rulebook_plant_natural_one_fails_and_uses_the_attempt() -> None:
    """Planting a Saboteur: "A roll of 1 is an automatic failure." and "a single Saboteur"."""
    pos = red_at(START)
    give(pos, "Red", volunteer="Lupine Wonse")
    set_level(pos, "Red", "guild", 9)
    s = load(pos)
    scripted(s, rolls=[1])
    act(s, "try_plant")
    assert not s.saboteurs[0] and "try_plant" not in verbs(s)


def test_ruling_37_one_saboteur_per_quadrant_and_no_plant_after_recall() -> None:
    """Ruling 37: "Each player has at most one Saboteur per quadrant (one marker each). A
    player who recalls a Saboteur may not plant one on the same turn." """
    wonse = volunteer("Lupine Wonse")
    pos = red_at(START)
    give(pos, "Red", volunteer="Lord Rust")
    plant(pos, "Red", QUADRANTS[0], "Lupine Wonse")
    s = load(pos)
    scripted(s, rolls=[6])
    act(s, "try_plant")
    assert {a.y for a in legal(s) if a.verb == "plant"} == {1, 2, 3}
    s = load(pos)
    assert "try_plant" in verbs(s)
    act(s, "recall", 0, wonse)
    assert wonse in s.hand[0] and not s.saboteurs[0]
    assert "try_plant" not in verbs(s)


def test_ruling_39_no_plant_or_recall_after_an_opponents_announced_run() -> None:
    """Ruling 39: "from the announcement until the running player's next turn, opponents may
    not plant, recall or re-plant." """
    pos = red_at(START)
    give(pos, "Red", volunteer="Lord Rust")
    plant(pos, "Red", QUADRANTS[0], "Lupine Wonse")
    s = load(pos)
    assert "try_plant" in verbs(s) and "recall" in verbs(s)
    seat(pos, "Blue")["frozen"] = True
    s = load(pos)
    assert "try_plant" not in verbs(s) and "recall" not in verbs(s)


def test_ruling_39_own_freeze_clears_at_the_start_of_own_turn() -> None:
    """Ruling 39: the freeze lasts "until the running player's next turn"."""
    pos = red_at(START)
    seat(pos, "Red")["frozen"] = True
    s = load(turn_of(pos, "Black"))
    assert s.frozen[0]
    finish_turn(s)
    assert s.current == 0 and not s.frozen[0]


# --- free actions ------------------------------------------------------------------------------


def test_mrs_whitlow_discards_to_cure_the_pox() -> None:
    """Mrs Whitlow: "Discard her at any time to cure yourself of the Pox." """
    whitlow = volunteer("Mrs Whitlow")
    pos = red_at(START)
    give(pos, "Red", volunteer="Mrs Whitlow")
    assert "discard_to_cure" not in verbs(load(pos))
    s = load(set_pox(pos, "Red"))
    act(s, "discard_to_cure", whitlow)
    assert not s.pox[0] and whitlow not in s.hand[0]


def test_hughnon_ridcully_cures_pox_and_until_healed_effects() -> None:
    """Hughnon Ridcully: "Discard him at any time to cure yourself of the Pox and of every
    'until healed' effect." """
    hughnon = volunteer("Hughnon Ridcully")
    pos = red_at(START)
    give(pos, "Red", volunteer="Hughnon Ridcully")
    add_effect(pos, "Red", "attr", 0, -1, UNTIL_HEALED, "Curse")
    add_effect(pos, "Red", "move", 1, 0, 2, "City Map")
    s = load(pos)
    act(s, "discard_to_cure", hughnon)
    assert [e.source for e in s.effects[0]] == ["City Map"] and hughnon not in s.hand[0]


def test_ruling_57_fire_water_fizzles_when_carried_into_a_hospital() -> None:
    """Ruling 57: "A Fire Water token carried into a Hospital or Watch House fizzles and goes
    back to its owner." """
    hospital = TILES[HOSPITALS[0]].id
    pos = red_at(street_next_to(hospital))
    seat(pos, "Blue")["fire_water"] = 3
    put_flask(pos, "Blue", "Red")
    s = load(pos)
    walk(s, hospital)
    assert not s.flasks[0] and s.fire_water[1] == 3


def test_ridcully_cannot_catch_the_pox() -> None:
    """Archchancellor Mustrum Ridcully: "While he is in your hand you cannot catch the Pox."
    (Without him the same step catches it: ruling 58's test.)"""
    pos = red_at(START, Blue=THIRD)
    set_pox(pos, "Blue")
    give(pos, "Red", volunteer="Archchancellor Mustrum Ridcully")
    s = load(pos)
    walk(s, NEXT)
    assert not s.pox[0] and s.pox[1]


# --- the Luggage (rulings 79-82) ------------------------------------------------------------------


def luggage_position(at: int, *places: tuple[str, int], avoid: Sequence[int] = ()) -> Position:
    """Red to move, the Luggage on tile ``at``; the named colours on the given tiles and
    everyone else far from them, from the Luggage and from the tiles ``avoid``."""
    pos = base()
    pos["luggage"] = TILES[at].id
    named = [(c, TILES[t].id) for c, t in places]
    return far_apart(pos, *named, avoid=[TILES[t].id for t in (at, *avoid)])


def test_ruling_80_luggage_hits_everyone_on_each_tile_entered() -> None:
    """Ruling 80: "The Luggage hits everyone on each tile it enters, whether passing or
    stopping, the mover included. A hit player goes to the nearest Hospital." """
    path = board.luggage_paths(board.LUGGAGE_START, 3)[0]
    pos = luggage_position(board.LUGGAGE_START, ("Red", path[0]), ("Blue", path[2]))
    s = load(luggage_moves(pos, "Red", 3, 3))
    assert s.luggage == path[2]
    assert s.pos[0] in HOSPITALS and s.pos[1] in HOSPITALS
    assert s.pos[2] not in HOSPITALS


def test_rulebook_hospital_example_pox_and_luggage_cost_two_dollars() -> None:
    """Hospitals: "if they have the Pox and get hit by the Luggage before they are cured, their
    private health care will cost 2 dollars." """
    path = board.luggage_paths(board.LUGGAGE_START, 1)[0]
    pos = luggage_position(board.LUGGAGE_START, ("Red", path[0]))
    set_pox(pos, "Red")
    s = load(luggage_moves(pos, "Blue", 1, 1))
    assert s.pos[0] in HOSPITALS and not s.pox[0] and s.dollars[0] == 3


def test_ruling_79_mover_picks_grey_or_orange_at_the_split() -> None:
    """Ruling 79: "whoever moves it picks grey or orange at the split." """
    split = next(t for t in range(len(TILES)) if len(board.LUGGAGE_NEXT[t]) > 1)
    s = load(luggage_moves(luggage_position(split), "Blue", 1, 1))
    assert top(s)[:2] == ("luggage_path", 1) and s.to_move == 1
    assert {a.x for a in legal(s)} == set(board.LUGGAGE_NEXT[split])
    orange = board.LUGGAGE_NEXT[split][1]
    act(s, "luggage_way", orange)
    assert s.luggage == orange


def test_rulebook_luggage_mover_chooses_how_far_when_a_range_is_given() -> None:
    """Where Is Twoflower? / Sliver of Sapient Pearwood: the mover picks 0 to N tiles."""
    s = load(luggage_moves(luggage_position(board.LUGGAGE_START), "Red", 0, 2))
    assert {a.x for a in legal(s) if a.verb == "luggage_tiles"} == {0, 1, 2}
    act(s, "luggage_tiles", 2)
    assert s.luggage == board.luggage_paths(board.LUGGAGE_START, 2)[0][-1]


def dragons_at(*quadrant_dragons: tuple[int, int]) -> Position:
    """The Luggage one tile before the Assassins' Guild House, Dragons on these quadrants."""
    house = GUILD_HOUSES[1]  # Assassins
    before = next(t for t in range(len(TILES)) if house in board.LUGGAGE_NEXT[t])
    pos = luggage_position(before, avoid=[house])
    for q, d in quadrant_dragons:
        place_dragon(pos, QUADRANTS[q], DRAGONS[d].name)
    return luggage_moves(pos, "Red", 1, 1)


def test_ruling_81_luggage_scares_a_dragon_anticlockwise() -> None:
    """Ruling 81: "If the Luggage enters a Guild House with a Dragon, the Dragon flies
    anti-clockwise to the next Guild House without one." """
    s = load(dragons_at((0, 2), (1, 0)))
    assert s.luggage == GUILD_HOUSES[1]
    assert s.dragons == [2, -1, -1, 0]


def test_ruling_81_dragon_stays_if_every_house_has_one() -> None:
    """Ruling 81: "If every Guild House has a Dragon, it stays." """
    s = load(dragons_at((0, 0), (1, 1), (2, 2), (3, 3)))
    assert s.luggage == GUILD_HOUSES[1]
    assert s.dragons == [0, 1, 2, 3]


def test_rulebook_luggage_tile_cannot_be_stopped_on() -> None:
    """The Luggage: "If the Luggage is stationary, players may pass through, but not stop on any
    tile occupied by the Luggage." """
    tavern = TILES[TAVERNS[0]].id
    pos = red_at(street_next_to(tavern))
    s = load(pos)
    walk(s, tavern)
    assert "end_movement" in verbs(s)
    pos["luggage"] = tavern
    s = load(pos)
    walk(s, tavern)
    assert "end_movement" not in verbs(s) and "move_to" in verbs(s)


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_run_without_errors(chunk: int) -> None:
    """200 games (50 per chunk) of random legal actions, 300 decisions each: every action is
    legal, reads as English, and nothing raises."""
    for g in range(chunk * 50, chunk * 50 + 50):
        s = GAME.new_game(2 + g % 5, g)
        r = random.Random(g)
        for _ in range(300):
            if s.result is not None:
                break
            actions = s.legal_actions()
            if not actions:
                break
            a = r.choice(actions)
            assert str(a)
            s.apply(a)

