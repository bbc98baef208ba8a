"""Guards! Guards!: the turn, movement, places and the Luggage (turn.py, luggage.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from gg_positions import ScriptedRng, act, find, legal, verbs

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import allowance
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    GUILD_CARDS,
    GUILD_HOUSES,
    HOSPITALS,
    ITEMS,
    MERCHANTS,
    SCROLLS,
    TAVERNS,
    TEMPLES,
    TILES,
    VOLUNTEER_TILES,
    VOLUNTEERS,
    WATCH_HOUSES,
    tile_named,
)
from citywatch.games.guards_guards.frames import advance
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.state import (
    UNTIL_HEALED,
    Effect,
    GuardsGuardsState,
    Run,
)

# --- helpers shared by the gg_turn/recruit/fate/abilities tests ---------------------------------


def vol_named(name: str) -> int:
    """A Volunteer's index by name."""
    return next(v.index for v in VOLUNTEERS if v.name == name)


def item_named(name: str) -> int:
    """An Item's index by name."""
    return next(i.index for i in ITEMS if i.name == name)


def tid(name: str) -> int:
    """A tile's index by id or name."""
    return tile_named(name).index


def guild_card(key: str) -> int:
    """The first Guild Card with the ability ``key``."""
    return next(g.index for g in GUILD_CARDS if g.ability_key == key)


def game(players: int = 3, seed: int = 1, guilds: Sequence[str] = ()) -> GuardsGuardsState:
    """A set-up game with empty hands, $5 each, no Pox, nobody's turn yet. ``guilds``: the
    ability keys of the seats' Guild Cards (default: the first free card each)."""
    s = GAME.new_game(players, seed)
    for seat in range(players):
        s.stack.clear()
        s.guild[seat] = -1
        s.gate[seat] = -1
    used: set[int] = set()
    for seat in range(players):
        want = guilds[seat] if seat < len(guilds) else ""
        card = next(g.index for g in GUILD_CARDS
                    if g.ability_key == (want or g.ability_key) and g.index not in used
                    and any(x not in s.gate for x in g.gates))
        used.add(card)
        g = GUILD_CARDS[card]
        gate = next(x for x in g.gates if x not in s.gate)
        s.guild[seat] = card
        s.gate[seat] = gate
        s.pos[seat] = gate
        s.attrs[seat] = list(g.start)
        s.fire_water[seat] = g.fire_water
    for seat in range(players):
        for v in s.hand[seat]:
            s.discard_volunteer(v)
        s.hand[seat].clear()
        s.scrolls[seat].clear()
        s.items[seat].clear()
        s.dollars[seat] = 5
        s.pox[seat] = False
        s.effects[seat].clear()
        s.missed[seat] = 0
        s.jailed[seat] = False
    for deck in range(3):
        s.refill_face_up(deck)
    s.stack.clear()
    s._legal = None
    return s


def begin(s: GuardsGuardsState, seat: int, rng: Any = None) -> None:
    """Start ``seat``'s turn and run until someone must choose."""
    if rng is not None:
        s.rng = rng
    s.stack.clear()
    s._legal = None
    s.current = (seat - 1) % s.n
    advance(s)


def walk(s: GuardsGuardsState, *tiles: int) -> None:
    """Step along ``tiles``."""
    for t in tiles:
        act(s, "move_to", t)


def far_tile(s: GuardsGuardsState, near: int, least: int = 4) -> int:
    """A street tile at hex distance >= ``least`` from every player other than whoever is
    moved there, and from ``near``'s hex."""
    for t in TILES:
        if t.kind == "street" and board.hex_distance(t.index, near) >= least and all(
                board.hex_distance(t.index, p) >= least for p in s.pos if p >= 0):
            return t.index
    raise AssertionError("no far tile")


def isolate(s: GuardsGuardsState, seat: int, where: int) -> None:
    """Put ``seat`` on ``where`` and every other player far away from it (no Pox, no Guild
    Abilities reach)."""
    s.pos[seat] = where
    for other in range(s.n):
        if other != seat:
            s.pos[other] = -1
    for other in range(s.n):
        if other != seat:
            s.pos[other] = far_tile(s, where, 5)


def street_next_to(where: int, exclude: Sequence[int] = ()) -> int:
    """A street neighbour of ``where``."""
    return next(n for n in board.NEIGHBOURS[where]
                if TILES[n].kind == "street" and n not in exclude)


# --- movement (rulings 10-13) ---------------------------------------------------------------------


def test_ruling_10_allowance_six_four_with_pox_bonuses_caps_and_boots() -> None:
    """Ruling 10: "Movement allowance = 6 (4 with the Pox), plus every bonus and penalty, then
    any cap (Fog, Stasis). It is never below 0, and Seven-League Boots override it all." """
    s = game()
    assert allowance(s, 0) == 6
    s.pox[0] = True
    assert allowance(s, 0) == 4
    s.effects[0].append(Effect("move", 1, 0, 3, "City Map"))
    assert allowance(s, 0) == 5
    s.effects[0].append(Effect("move_cap", 3, 0, 1, "Fog on the Ankh"))
    assert allowance(s, 0) == 3
    s.effects[0].append(Effect("move", -9, 0, 1, "Curse"))
    assert allowance(s, 0) == 0
    s.effects[0].append(Effect("move_set", 10, 0, 1, "Seven-League Boots"))
    assert allowance(s, 0) == 10


def test_ruling_11_moves_go_step_by_step_to_listed_neighbours() -> None:
    """Ruling 11: "The player moves step by step to adjacent listed tiles, and may revisit a
    tile." """
    s = game()
    start = far_tile(s, s.pos[0], 4)
    isolate(s, 0, start)
    begin(s, 0, ScriptedRng())
    moves = {a.x for a in legal(s) if a.verb == "move_to"}
    assert moves == {n for n in board.NEIGHBOURS[start] if s.can_end_on(0, n)}
    nxt = street_next_to(start)
    walk(s, nxt, start)
    assert s.pos[0] == start and s.t.steps == 2


def test_rulebook_movement_at_most_six_spaces_then_it_ends() -> None:
    """A Player's Turn: "A player can move their playing piece up to a maximum of 6 spaces per
    turn." Once every space is used the movement is over."""
    s = game()
    start = far_tile(s, s.pos[0], 5)
    isolate(s, 0, start)
    begin(s, 0, ScriptedRng())
    other = street_next_to(start)
    for k in range(5):
        walk(s, other if k % 2 == 0 else start)
    assert s.current == 0 and s.t.steps == 5
    walk(s, start)
    # the sixth step ends the movement; with nothing left to do the turn passes on
    assert s.current == 1 and s.pos[0] == start


def test_ruling_12_pass_through_an_occupied_tile_but_never_end_there() -> None:
    """Ruling 12: "A player may pass through tiles that hold players or the Luggage, but may
    end only on a free tile." """
    s = game()
    start = far_tile(s, s.pos[0], 5)
    isolate(s, 0, start)
    nxt = street_next_to(start)
    s.luggage = nxt
    begin(s, 0, ScriptedRng())
    walk(s, nxt)
    assert "end_movement" not in verbs(s)
    # with only one space left a step onto the Luggage is not offered
    s2 = game()
    isolate(s2, 0, start)
    s2.luggage = nxt
    s2.effects[0].append(Effect("move_set", 1, 0, 1, "test"))
    begin(s2, 0, ScriptedRng())
    assert nxt not in {a.x for a in legal(s2) if a.verb == "move_to"}


def test_ruling_12_bridges_hold_any_number_of_players() -> None:
    """Ruling 12: "Bridges, Hospitals and Watch Houses hold any number of players." """
    s = game()
    bridge = tid("Misbegot Bridge")
    s.pos[1] = bridge
    assert s.can_end_on(0, bridge)
    street = street_next_to(bridge)
    s.pos[1] = street
    assert not s.can_end_on(0, street)


def test_ruling_13_nobody_ends_on_another_players_start_gate() -> None:
    """Ruling 13: "Nobody may end their movement on another player's Start Gate." """
    s = game()
    assert not s.can_end_on(0, s.gate[1])
    assert s.can_end_on(1, s.gate[1])


def test_ruling_11_not_moving_is_allowed() -> None:
    """Ruling 11: "Moving is optional and may stop early." """
    s = game()
    start = far_tile(s, s.pos[0], 5)
    isolate(s, 0, start)
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert s.pos[0] == start and s.current == 1


# --- the Pox (ruling 58) ----------------------------------------------------------------------


def test_ruling_58_pox_passes_both_ways_at_distance_one_after_each_step() -> None:
    """Ruling 58: "The Pox passes automatically at hex distance 1, checked after each step of
    the mover, in either direction." """
    s = game()
    start = far_tile(s, s.pos[0], 5)
    isolate(s, 0, start)
    nxt = street_next_to(start)
    third = next(n for n in board.NEIGHBOURS[nxt] if n != start
                 and board.hex_distance(n, start) == 2 and TILES[n].kind == "street")
    s.pos[1] = third
    s.pox[1] = True
    begin(s, 0, ScriptedRng())
    assert not s.pox[0]
    walk(s, nxt)
    assert s.pox[0]
    s2 = game()
    isolate(s2, 0, start)
    s2.pos[1] = third
    s2.pox[0] = True
    begin(s2, 0, ScriptedRng())
    walk(s2, nxt)
    assert s2.pox[1]


def test_ruling_56_no_pox_in_a_hospital() -> None:
    """Ruling 56: a player in a Hospital or Watch House "cannot give or catch the Pox"."""
    s = game()
    hosp = HOSPITALS[0]
    nxt = next(n for n in board.NEIGHBOURS[hosp] if TILES[n].kind == "street")
    isolate(s, 0, nxt)
    s.pos[1] = hosp
    s.pox[0] = True
    far = next(n for n in board.NEIGHBOURS[nxt] if n != hosp and s.can_end_on(0, n))
    begin(s, 0, ScriptedRng())
    walk(s, far, nxt)
    assert not s.pox[1]


# --- pass-through tiles -------------------------------------------------------------------------


def house_setup(players: int = 3) -> tuple[GuardsGuardsState, int, int]:
    """Seat 0 one step from its own Guild House."""
    s = game(players)
    house = GUILD_CARDS[s.guild[0]].guild_house
    nxt = next(n for n in board.NEIGHBOURS[house] if TILES[n].kind == "street")
    isolate(s, 0, nxt)
    return s, house, nxt


def test_rulebook_guild_house_pays_three_and_sells_two_points_at_eight() -> None:
    """A Player's Guild House: "collect payment of 3 Ankh-Morpork Dollars ... Points cost 8
    dollars each and no more than two points can be purchased on any one visit." """
    s, house, nxt = house_setup()
    s.dollars[0] = 30
    s.attrs[0] = [1, 1, 1]
    begin(s, 0, ScriptedRng())
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
    s, house, nxt = house_setup(2)
    begin(s, 0, ScriptedRng())
    walk(s, house)
    act(s, "collect_pay")
    act(s, "done_here")
    act(s, "end_movement")
    assert s.current == 1
    s.pos[1] = far_tile(s, house, 5)
    s.stack.clear()
    s.pos[0] = nxt
    begin(s, 0, ScriptedRng())
    walk(s, house)
    assert "collect_pay" not in verbs(s)
    assert s.pos[0] == house


def test_ruling_14_pass_through_at_most_once_per_tile_per_turn() -> None:
    """Ruling 14: "Pass-through actions happen on every tile entered, the last one included, at
    most once per tile per turn." """
    s, house, nxt = house_setup()
    begin(s, 0, ScriptedRng())
    walk(s, house)
    act(s, "collect_pay")
    act(s, "done_here")
    walk(s, nxt, house)
    assert "collect_pay" not in verbs(s)
    assert s.dollars[0] == 8


def test_ruling_14_player_who_does_not_move_uses_own_tile() -> None:
    """Ruling 14: "A player who does not move may use the tile they stand on." """
    s, house, nxt = house_setup()
    s.pos[0] = house
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "collect_pay")
    assert s.dollars[0] == 8


def test_ruling_77_no_guild_house_shop_or_recruiting_in_a_dragons_quadrant() -> None:
    """Ruling 77: "A Dragon blocks only the listed actions in its quadrant (Taverns
    included)." """
    s, house, nxt = house_setup()
    s.dragons[GUILD_CARDS[s.guild[0]].guild] = 0
    begin(s, 0, ScriptedRng())
    walk(s, house)
    assert "collect_pay" not in verbs(s)
    s2 = game()
    vt = next(iter(VOLUNTEER_TILES))
    isolate(s2, 0, vt)
    s2.dragons[TILES[vt].quadrant] = 1
    begin(s2, 0, ScriptedRng())
    act(s2, "end_movement")
    assert "recruit_here" not in verbs(s2)
    s3 = game()
    shop = MERCHANTS[0]
    isolate(s3, 0, shop)
    s3.dragons[TILES[shop].quadrant] = 1
    begin(s3, 0, ScriptedRng())
    act(s3, "end_movement")
    assert "buy_item" not in verbs(s3)


def shop_setup(shops: Sequence[int]) -> tuple[GuardsGuardsState, int]:
    s = game()
    shop = shops[0]
    isolate(s, 0, shop)
    s.dollars[0] = 50
    return s, shop


def test_rulebook_merchant_sells_any_items_of_the_nearest_deck() -> None:
    """Temples and Shops: "lift the ... deck nearest to the Temple they have passed through and
    select which ... they wish to purchase ... pay the cost marked on the card"; ruling 69:
    the price is public, the card hidden."""
    s, shop = shop_setup(MERCHANTS)
    space = s.deck_for(0, "odds_and_sods")
    deck = list(s.decks[space])
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    offered = {a.x: a.y for a in legal(s) if a.verb == "buy_item"}
    assert set(offered) == set(deck)
    card = next(c for c in deck if (ITEMS[c].op or {}).get("op") != "movement")
    act(s, "buy_item", card)
    assert card in s.items[0] and card not in s.decks[space]
    assert s.dollars[0] == 50 - ITEMS[card].price
    assert 100 + card in s.bought[0]
    assert ITEMS[card].name in s.log(0)[-1]
    assert ITEMS[card].name not in s.log(1)[-1] and f"${ITEMS[card].price}" in s.log(1)[-1]
    act(s, "buy_item")
    assert len(s.items[0]) == 2


def test_dibbler_items_cost_one_dollar_less_never_below_one() -> None:
    """Cut-Me-Own-Throat Dibbler: "While he is in your hand, Items cost you 1 dollar less
    (never less than 1)." """
    s, shop = shop_setup(MERCHANTS)
    s.hand[0].append(vol_named("Cut-Me-Own-Throat Dibbler"))
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    for a in legal(s):
        if a.verb == "buy_item":
            assert a.y == max(1, ITEMS[a.x].price - 1)


def test_city_map_adds_one_space_for_three_turns_then_goes() -> None:
    """City Map: "Takes effect as soon as you buy it ... Until the end of your third turn (the
    turn you bought it counts as the first) you may move 1 extra space each turn. Then
    discard it." """
    s, shop = shop_setup(MERCHANTS)
    cmap = item_named("City Map")
    space = s.deck_for(0, "odds_and_sods")
    for d in s.decks:
        if cmap in d:
            d.remove(cmap)
    s.decks[space].append(cmap)
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "buy_item", cmap)
    assert allowance(s, 0) == 7
    for _ in range(3):
        assert cmap in s.items[0]
        s.stack.clear()
        s.t.over = True
        from citywatch.games.guards_guards.turn import end_of_turn
        end_of_turn(s, 0, 0)
    assert allowance(s, 0) == 6
    assert cmap not in s.items[0]


def test_fire_water_explodes_when_buying() -> None:
    """Fire Water explodes when the target tries "buying": "that action fails, the target's
    turn ends at once and the token comes back"."""
    s, shop = shop_setup(MERCHANTS)
    s.flasks[0].append(1)
    s.fire_water[1] = 2
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "buy_item")
    assert not s.items[0] and s.dollars[0] == 50 and s.fire_water[1] == 3
    assert s.current == 1


def test_rulebook_temple_sells_scrolls() -> None:
    """Temples and Shops: Scrolls are bought at a Temple from the nearest Curses & Cures
    deck."""
    s, shop = shop_setup(TEMPLES)
    space = s.deck_for(0, "curses_and_cures")
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    card = s.decks[space][-1]
    act(s, "buy_scroll", card)
    assert card in s.scrolls[0] and s.dollars[0] == 50 - SCROLLS[card].price
    assert card in s.bought[0]


def test_ruling_67_shop_uses_the_other_deck_when_empty() -> None:
    """Ruling 67: "A shop whose deck is empty uses the other deck of that kind." """
    s, shop = shop_setup(TEMPLES)
    space = s.deck_for(0, "curses_and_cures")
    other = next(d.index for d in DECK_SPACES if d.deck == "curses_and_cures"
                 and d.index != space)
    s.decks[other].extend(s.decks[space])
    s.decks[space].clear()
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert {a.x for a in legal(s) if a.verb == "buy_scroll"} == set(s.decks[other])


def test_ruling_62_wanted_reward_is_bribe_plus_one_and_colon_adds_one() -> None:
    """Ruling 62: "The Wanted reward is Bribe + 1"; Sergeant Colon: "each Wanted Volunteer you
    turn in earns 1 extra dollar"."""
    s = game()
    wh = WATCH_HOUSES[0]
    isolate(s, 0, wh)
    hrun = vol_named("Hrun the Barbarian")
    nobby = vol_named("Corporal Nobby Nobbs")
    s.hand[0] += [hrun, nobby]
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert find(s, "turn_in", hrun).y == VOLUNTEERS[hrun].bribe + 1  # type: ignore[operator]
    act(s, "turn_in", hrun)
    assert s.dollars[0] == 5 + 5
    assert hrun in s.vol_discard[VOLUNTEERS[hrun].deck]
    s.hand[0].append(vol_named("Sergeant Fred Colon"))
    assert find(s, "turn_in", nobby).y == 3
    act(s, "turn_in", nobby)
    assert s.dollars[0] == 13
    assert "turn_in" not in verbs(s)


# --- stop actions, Hospitals, missed turns -------------------------------------------------------


def test_ruling_59_hospital_stop_cures_for_a_dollar_an_ailment_and_ends_turn() -> None:
    """Ruling 59: "A Hospital cures everything. Private care costs 1 dollar per ailment"; the
    Turn Guide: "If you stop on a Hospital Tile to be cured you may take no further actions on
    that turn." """
    s = game()
    isolate(s, 0, HOSPITALS[0])
    s.pox[0] = True
    s.effects[0].append(Effect("attr", 2, -1, UNTIL_HEALED, "Curse"))
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "cure_here")
    assert not s.pox[0] and not s.effects[0] and s.dollars[0] == 3
    assert s.current == 1


def test_ruling_60_city_health_service_then_missed_turn_counts_effects() -> None:
    """Ruling 60: "A patient who cannot pay in full gets the free City Health Service and misses
    their next turn"; ruling 16: "A player who misses a turn only counts down their timed
    effects"."""
    s = game()
    isolate(s, 0, HOSPITALS[0])
    s.pox[0] = True
    s.dollars[0] = 0
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    act(s, "cure_here")
    assert s.missed[0] == 1 and not s.pox[0]
    s.effects[0].append(Effect("move", 1, 0, 2, "City Map"))
    begin(s, 0, ScriptedRng())
    assert s.missed[0] == 0 and s.current != 0
    assert s.effects[0][0].turns == 1


def test_ruling_15_one_stop_action_per_turn() -> None:
    """Ruling 15: "One stop action is allowed per turn"."""
    s = game()
    vt = next(t for t, d in VOLUNTEER_TILES.items() if d == 0)
    isolate(s, 0, vt)
    begin(s, 0, ScriptedRng(rolls=[2]))
    act(s, "end_movement")
    act(s, "recruit_here")
    act(s, "turn_over")
    act(s, "let_volunteer_go")
    assert "recruit_here" not in verbs(s)


def test_ruling_42_open_run_allows_only_recruiting() -> None:
    """Ruling 42: "While a run is open, the player may only: re-try the challenge, or send more
    Runners from their hand, or go to recruit"."""
    s = game()
    isolate(s, 0, HOSPITALS[0])
    s.run[0] = Run(0)
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert "cure_here" not in verbs(s)
    s2 = game()
    vt = next(iter(VOLUNTEER_TILES))
    isolate(s2, 0, vt)
    s2.run[0] = Run(0)
    begin(s2, 0, ScriptedRng())
    act(s2, "end_movement")
    assert "recruit_here" in verbs(s2)


def test_ruling_54_effects_count_down_at_the_end_of_own_turns() -> None:
    """Ruling 54: '"N turns" means the target's next N turns; a turn of the target's that is in
    progress counts as the first.'; 'until healed' effects stay."""
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    s.effects[0] += [Effect("move", -1, 0, 1, "A"), Effect("move", -1, 0, 2, "B"),
                     Effect("attr", 0, -1, UNTIL_HEALED, "C")]
    begin(s, 0, ScriptedRng())
    act(s, "end_movement")
    assert [(e.source, e.turns) for e in s.effects[0]] == [("B", 1), ("C", UNTIL_HEALED)]


# --- the Watch House (ruling 61) -----------------------------------------------------------------


def jailed(rolls: Sequence[int] = ()) -> GuardsGuardsState:
    s = game()
    isolate(s, 0, WATCH_HOUSES[0])
    s.jailed[0] = True
    begin(s, 0, ScriptedRng(rolls=rolls))
    return s


def test_ruling_61_charm_seven_walks_out() -> None:
    """Ruling 61: "An arrested player, at the start of their next turn, rolls Charm (7+) or pays
    2 dollars to leave." """
    s = jailed([7])
    act(s, "jail_charm")
    assert not s.jailed[0] and s.current == 0 and "move_to" in verbs(s)


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
    s = jailed()
    s.dollars[0] = 0
    s._legal = None
    act(s, "jail_stay")
    assert s.current == 1 and not s.jailed[0]
    begin(s, 0, ScriptedRng())
    assert "move_to" in verbs(s)


def test_mr_slant_walks_out_of_the_watch_house() -> None:
    """Mr Slant: "Discard him at the start of your turn in a Watch House to walk out at once,
    with no roll and no bail." """
    s = game()
    isolate(s, 0, WATCH_HOUSES[0])
    s.jailed[0] = True
    slant = vol_named("Mr Slant")
    s.hand[0].append(slant)
    begin(s, 0, ScriptedRng())
    act(s, "jail_slant")
    assert not s.jailed[0] and slant not in s.hand[0] and s.dollars[0] == 5


# --- Saboteurs (rulings 37, 39) -------------------------------------------------------------------


def test_rulebook_plant_a_saboteur_with_a_guild_test_of_five() -> None:
    """Planting a Saboteur: "a player can attempt to plant a single Saboteur by making a Guild
    Test ... If the result is 5 or higher they can plant one Saboteur in the quadrant of their
    choice ... A Saboteur may be equipped with one Item"; ruling 70: identity and quadrant
    hidden."""
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    wonse = vol_named("Lupine Wonse")
    sword = item_named("Well-Kept Sword")
    s.hand[0].append(wonse)
    s.items[0].append(sword)
    s.attrs[0][1] = 3
    begin(s, 0, ScriptedRng(rolls=[2]))
    act(s, "try_plant")
    act(s, "plant", wonse, 2)
    act(s, "plant_item", sword)
    assert s.saboteurs[0] == [(2, wonse, sword)]
    assert not s.hand[0] and not s.items[0]
    assert "Lupine Wonse" not in s.log(1)[-1] and "Lupine Wonse" in s.log(0)[-1]
    assert "try_plant" not in verbs(s)


def test_rulebook_plant_natural_one_fails_and_uses_the_attempt() -> None:
    """Planting a Saboteur: "A roll of 1 is an automatic failure." and "a single Saboteur"."""
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    s.hand[0].append(vol_named("Lupine Wonse"))
    s.attrs[0][1] = 9
    begin(s, 0, ScriptedRng(rolls=[1]))
    act(s, "try_plant")
    assert not s.saboteurs[0] and "try_plant" not in verbs(s)


def test_ruling_37_one_saboteur_per_quadrant_and_no_plant_after_recall() -> None:
    """Ruling 37: "Each player has at most one Saboteur per quadrant (one marker each). A
    player who recalls a Saboteur may not plant one on the same turn." """
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    wonse, rust = vol_named("Lupine Wonse"), vol_named("Lord Rust")
    s.hand[0].append(rust)
    s.saboteurs[0] = [(0, wonse, -1)]
    begin(s, 0, ScriptedRng(rolls=[6]))
    act(s, "try_plant")
    assert {a.y for a in legal(s) if a.verb == "plant"} == {1, 2, 3}
    s2 = game()
    isolate(s2, 0, far_tile(s2, s2.pos[0], 5))
    s2.hand[0].append(rust)
    s2.saboteurs[0] = [(0, wonse, -1)]
    begin(s2, 0, ScriptedRng())
    act(s2, "recall", 0, wonse)
    assert wonse in s2.hand[0] and not s2.saboteurs[0]
    assert "try_plant" not in verbs(s2)


def test_ruling_39_no_plant_or_recall_after_an_opponents_announced_run() -> None:
    """Ruling 39: "from the announcement until the running player's next turn, opponents may
    not plant, recall or re-plant." """
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    s.hand[0].append(vol_named("Lord Rust"))
    s.saboteurs[0] = [(0, vol_named("Lupine Wonse"), -1)]
    s.frozen[1] = True
    begin(s, 0, ScriptedRng())
    assert "try_plant" not in verbs(s) and "recall" not in verbs(s)
    s.frozen[1] = False
    assert "try_plant" in verbs(s) and "recall" in verbs(s)


def test_ruling_39_own_freeze_clears_at_the_start_of_own_turn() -> None:
    """Ruling 39: the freeze lasts "until the running player's next turn"."""
    s = game()
    s.frozen[0] = True
    begin(s, 0, ScriptedRng())
    assert not s.frozen[0]


# --- free actions ------------------------------------------------------------------------------


def test_mrs_whitlow_discards_to_cure_the_pox() -> None:
    """Mrs Whitlow: "Discard her at any time to cure yourself of the Pox." """
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    whitlow = vol_named("Mrs Whitlow")
    s.hand[0].append(whitlow)
    begin(s, 0, ScriptedRng())
    assert "discard_to_cure" not in verbs(s)
    s.pox[0] = True
    act(s, "discard_to_cure", whitlow)
    assert not s.pox[0] and whitlow not in s.hand[0]


def test_hughnon_ridcully_cures_pox_and_until_healed_effects() -> None:
    """Hughnon Ridcully: "Discard him at any time to cure yourself of the Pox and of every
    'until healed' effect." """
    s = game()
    isolate(s, 0, far_tile(s, s.pos[0], 5))
    hughnon = vol_named("Hughnon Ridcully")
    s.hand[0].append(hughnon)
    s.effects[0].append(Effect("attr", 0, -1, UNTIL_HEALED, "Curse"))
    s.effects[0].append(Effect("move", 1, 0, 2, "City Map"))
    begin(s, 0, ScriptedRng())
    act(s, "discard_to_cure", hughnon)
    assert [e.source for e in s.effects[0]] == ["City Map"]


def test_ruling_57_fire_water_fizzles_when_carried_into_a_hospital() -> None:
    """Ruling 57: "A Fire Water token carried into a Hospital or Watch House fizzles and goes
    back to its owner." """
    s = game()
    hosp = HOSPITALS[0]
    nxt = next(n for n in board.NEIGHBOURS[hosp] if TILES[n].kind == "street")
    isolate(s, 0, nxt)
    s.flasks[0].append(1)
    s.fire_water[1] = 2
    begin(s, 0, ScriptedRng())
    walk(s, hosp)
    assert not s.flasks[0] and s.fire_water[1] == 3


def test_ridcully_cannot_catch_the_pox() -> None:
    """Archchancellor Mustrum Ridcully: "While he is in your hand you cannot catch the Pox." """
    s = game()
    s.hand[0].append(vol_named("Archchancellor Mustrum Ridcully"))
    assert not s.catch_pox(0, "test")


# --- the Luggage (rulings 79-82) ------------------------------------------------------------------


def run_luggage(s: GuardsGuardsState, mover: int, least: int, most: int) -> None:
    from citywatch.games.guards_guards.frames import then

    s.stack.clear()
    s.stack.append(("turn", 0, 0, s.pos[0], 2))
    s.t.seat = s.current = 0
    then(s, ("move_luggage", mover, least, most))
    s._legal = None
    advance(s)


def test_ruling_80_luggage_hits_everyone_on_each_tile_entered() -> None:
    """Ruling 80: "The Luggage hits everyone on each tile it enters, whether passing or
    stopping, the mover included. A hit player goes to the nearest Hospital." """
    s = game()
    s.luggage = board.LUGGAGE_START
    path = board.luggage_paths(s.luggage, 3)[0]
    s.pos[0] = path[0]
    s.pos[1] = path[2]
    s.pos[2] = far_tile(s, path[0], 4)
    run_luggage(s, 0, 3, 3)
    assert s.luggage == path[2]
    assert s.pos[0] in HOSPITALS and s.pos[1] in HOSPITALS
    assert s.pos[2] not in HOSPITALS


def test_rulebook_hospital_example_pox_and_luggage_cost_two_dollars() -> None:
    """Hospitals: "if they have the Pox and get hit by the Luggage before they are cured, their
    private health care will cost 2 dollars." """
    s = game()
    s.luggage = board.LUGGAGE_START
    path = board.luggage_paths(s.luggage, 1)[0]
    s.pos[0] = path[0]
    s.pos[1] = far_tile(s, path[0], 4)
    s.pos[2] = far_tile(s, path[0], 4)
    s.pox[0] = True
    run_luggage(s, 1, 1, 1)
    assert s.pos[0] in HOSPITALS and not s.pox[0] and s.dollars[0] == 3


def test_ruling_79_mover_picks_grey_or_orange_at_the_split() -> None:
    """Ruling 79: "whoever moves it picks grey or orange at the split." """
    s = game()
    split = next(t for t in range(len(TILES)) if len(board.LUGGAGE_NEXT[t]) > 1)
    s.luggage = split
    for k in range(s.n):
        s.pos[k] = far_tile(s, split, 4)
    run_luggage(s, 1, 1, 1)
    assert s.stack[-1][0] == "luggage_path" and s.stack[-1][1] == 1
    orange = board.LUGGAGE_NEXT[split][1]
    act(s, "luggage_way", orange)
    assert s.luggage == orange


def test_rulebook_luggage_mover_chooses_how_far_when_a_range_is_given() -> None:
    """Where Is Twoflower? / Sliver of Sapient Pearwood: the mover picks 0 to N tiles."""
    s = game()
    s.luggage = board.LUGGAGE_START
    for k in range(s.n):
        s.pos[k] = far_tile(s, s.luggage, 5)
    run_luggage(s, 0, 0, 2)
    assert {a.x for a in legal(s) if a.verb == "luggage_tiles"} == {0, 1, 2}
    act(s, "luggage_tiles", 2)
    assert s.luggage == board.luggage_paths(board.LUGGAGE_START, 2)[0][-1]


def test_ruling_81_luggage_scares_a_dragon_anticlockwise() -> None:
    """Ruling 81: "If the Luggage enters a Guild House with a Dragon, the Dragon flies
    anti-clockwise to the next Guild House without one." """
    s = game()
    house = GUILD_HOUSES[1]  # Assassins
    before = next(t for t in range(len(TILES)) if house in board.LUGGAGE_NEXT[t])
    s.luggage = before
    for k in range(s.n):
        s.pos[k] = far_tile(s, house, 4)
    s.dragons = [2, 0, -1, -1]
    run_luggage(s, 0, 1, 1)
    assert s.dragons == [2, -1, -1, 0]


def test_ruling_81_dragon_stays_if_every_house_has_one() -> None:
    """Ruling 81: "If every Guild House has a Dragon, it stays." """
    s = game()
    house = GUILD_HOUSES[1]
    s.luggage = next(t for t in range(len(TILES)) if house in board.LUGGAGE_NEXT[t])
    for k in range(s.n):
        s.pos[k] = far_tile(s, house, 4)
    s.dragons = [0, 1, 2, 3]
    run_luggage(s, 0, 1, 1)
    assert s.dragons == [0, 1, 2, 3]


def test_rulebook_luggage_tile_cannot_be_stopped_on() -> None:
    """The Luggage: "If the Luggage is stationary, players may pass through, but not stop on any
    tile occupied by the Luggage." """
    s = game()
    s.luggage = TAVERNS[0]
    assert not s.can_end_on(0, TAVERNS[0])


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
