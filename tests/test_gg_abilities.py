"""Guards! Guards!: Guild Abilities (abilities.py)."""

from __future__ import annotations

from collections.abc import Sequence

from test_gg_turn import (
    ScriptedRng,
    act,
    begin,
    far_tile,
    game,
    item_named,
    legal,
    verbs,
    vol_named,
    walk,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import fire_water_explodes
from citywatch.games.guards_guards.data import HOSPITALS, TILES, VOLUNTEERS
from citywatch.games.guards_guards.state import Effect, GuardsGuardsState

STREETS = [t.index for t in TILES if t.kind == "street"]


def geometry() -> tuple[int, int, int, int]:
    """(owner tile, mover start at hex distance 3, first step at distance 2, second step at
    distance 1), all streets."""
    for p in STREETS:
        for a in STREETS:
            if board.hex_distance(a, p) != 3:
                continue
            for b in board.NEIGHBOURS[a]:
                if b in STREETS and board.hex_distance(b, p) == 2:
                    for c in board.NEIGHBOURS[b]:
                        if c in STREETS and board.hex_distance(c, p) == 1:
                            return p, a, b, c
    raise AssertionError("no geometry")


OWNER_TILE, START, STEP1, STEP2 = geometry()


def setup(key: str, rolls: Sequence[int] = (), belows: Sequence[int] = (),
          start: int = START) -> GuardsGuardsState:
    """Seat 1 holds the Guild Ability ``key`` and stands 3 tiles from seat 0's start; seat 2
    is far away. Seat 0's turn has begun."""
    mover_key = "cut_purse" if key != "cut_purse" else "street_theatre"
    s = game(3, guilds=(mover_key, key))
    s.pos[0] = start
    s.pos[1] = OWNER_TILE
    s.pos[2] = -1
    s.pos[2] = far_tile(s, OWNER_TILE, 5)
    s.attrs[1] = [1, 3, 1]
    s.attrs[0] = [1, 1, 1]
    s.luggage = board.LUGGAGE_START
    begin(s, 0, ScriptedRng(rolls=rolls, belows=belows))
    return s


def test_rulebook_guild_ability_offered_within_two_tiles() -> None:
    """Guild Abilities: "If an opposing player 'on their turn' is foolish enough to pass or land
    within 2 tiles of another player's playing piece, the player they are passing may attempt
    to use their Guild Ability against them." """
    s = setup("cut_purse")
    assert s.stack[-1][0] == "turn"
    walk(s, STEP1)
    assert s.stack[-1][0] == "guild_ability" and s.stack[-1][1] == 1
    assert verbs(s) == {"use_guild_ability", "let_mover_pass"}


def test_cut_purse_takes_three_dollars_unless_the_guild_defence_holds() -> None:
    """Cut Purse: "The target gives you 3 dollars, or all they have if less."; defence: "The
    target rolls the die and adds their Guild level: on 7 or more they catch your wrist"."""
    s = setup("cut_purse", rolls=[3, 5])  # test 3+3=6 passes; defence 5+1=6 fails
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.dollars[0] == 2 and s.dollars[1] == 8
    s2 = setup("cut_purse", rolls=[3, 6])  # defence 6+1=7 holds
    walk(s2, STEP1)
    act(s2, "use_guild_ability")
    assert s2.dollars[0] == 5 and s2.dollars[1] == 5


def test_cut_purse_with_no_money_takes_a_random_card() -> None:
    """Cut Purse: "If they have no money at all, take one card at random from their Scrolls and
    Items instead." """
    s = setup("cut_purse", rolls=[3, 2], belows=[0])
    s.dollars[0] = 0
    sword = item_named("Well-Kept Sword")
    s.items[0].append(sword)
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.items[1] == [sword] and not s.items[0]


def test_guild_test_fails_below_six_and_on_a_natural_one() -> None:
    """Guild Abilities: "They then make a Guild test of 6 or more"; ruling 21: a natural 1
    fails."""
    s = setup("cut_purse", rolls=[2])  # 2+3=5
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.dollars[0] == 5
    s2 = setup("cut_purse", rolls=[1])
    s2.attrs[1][1] = 10
    walk(s2, STEP1)
    act(s2, "use_guild_ability")
    assert s2.dollars[0] == 5


def test_vetinari_raises_the_guild_test_to_eight() -> None:
    """Lord Vetinari: "While he is in your hand, opponents need 8 or more, not 6, on Guild
    Ability tests against you." """
    s = setup("cut_purse", rolls=[4])  # 4+3=7 < 8
    s.hand[0].append(vol_named("Lord Havelock Vetinari"))
    walk(s, STEP1)
    a = next(a for a in legal(s) if a.verb == "use_guild_ability")
    assert "8 against Lord Vetinari" in str(a)  # the menu never says whether he is held
    s.apply(a)
    assert s.dollars[0] == 5


def test_street_theatre_ends_movement_at_once() -> None:
    """Street Theatre: "The target's movement ends at once on the tile they have just
    entered"; defence Charm 7."""
    s = setup("street_theatre", rolls=[3, 2])
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.pos[0] == STEP1
    assert s.t.seat != 0 or (s.t.stopped and "move_to" not in verbs(s))


def test_street_theatre_after_movement_costs_two_spaces_next_turn() -> None:
    """Street Theatre: "If they had already finished moving, they move 2 fewer spaces on their
    next turn." (ruling 54 counting)"""
    from citywatch.games.guards_guards.abilities import allowance

    s = setup("street_theatre", rolls=[3, 2], start=STEP2)
    act(s, "end_movement")
    act(s, "use_guild_ability")
    assert any(e.kind == "move" and e.a == -2 for e in s.effects[0])
    begin(s, 0, ScriptedRng())
    assert allowance(s, 0) == 4


def test_fire_water_token_explodes_on_the_targets_next_action() -> None:
    """Fire Water: "It explodes the moment the target next tries an action on their own turn
    ...: that action fails, the target's turn ends at once and the token comes back"."""
    s = setup("fire_water", rolls=[3, 2])
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.flasks[0] == [1] and s.fire_water[1] == 2
    assert fire_water_explodes(s, 0)
    assert s.fire_water[1] == 3 and not s.flasks[0] and s.t.over


def test_fire_water_magic_defence_tosses_it_aside() -> None:
    """Fire Water defence: "The target rolls the die and adds their Magic level: on 7 or more
    they spot the fizzing flask and toss it aside; the token comes back to you at once." """
    s = setup("fire_water", rolls=[3, 6])
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert not s.flasks[0] and s.fire_water[1] == 3


def test_fire_water_fizzles_at_the_end_of_the_targets_next_turn() -> None:
    """Fire Water: "If it has not exploded by the end of the target's next turn it fizzles and
    comes back to you." """
    s = setup("fire_water", rolls=[3, 2])
    walk(s, STEP1)
    act(s, "use_guild_ability")
    act(s, "end_movement")
    assert s.current != 0 and s.flasks[0] == [1]
    begin(s, 0, ScriptedRng())
    s.pos[1] = far_tile(s, s.pos[0], 5)
    act(s, "end_movement")
    assert not s.flasks[0] and s.fire_water[1] == 3


def test_fire_water_needs_a_token() -> None:
    """Fire Water: "Needs a Fire Water token in your own supply"."""
    s = game(3, guilds=("cut_purse", "fire_water"))
    s.fire_water[1] = 0
    s.pos[0], s.pos[1] = START, OWNER_TILE
    s.pos[2] = -1
    s.pos[2] = far_tile(s, OWNER_TILE, 5)
    begin(s, 0, ScriptedRng())
    walk(s, STEP1)
    assert s.stack[-1][0] == "turn"


def test_unnatural_selection_volunteer_must_pass_toughness_eight() -> None:
    """Unnatural Selection: "Pick one Volunteer at random from the target's hand ... That
    Volunteer must pass a Toughness test or be discarded." (8 or more)"""
    drumknott = vol_named("Drumknott")
    s = setup("unnatural_selection", rolls=[3, 2], belows=[0])
    s.hand[0].append(drumknott)
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert drumknott not in s.hand[0]
    assert drumknott in s.vol_discard[VOLUNTEERS[drumknott].deck]
    s2 = setup("unnatural_selection", rolls=[3, 8 - VOLUNTEERS[drumknott].toughness])
    s2.hand[0].append(drumknott)
    walk(s2, STEP1)
    act(s2, "use_guild_ability")
    assert drumknott in s2.hand[0]


def test_ruling_49_once_per_turn_of_the_mover() -> None:
    """Ruling 49: "An opponent may use their Guild Ability once per turn of the mover"."""
    s = setup("cut_purse")
    walk(s, STEP1)
    act(s, "let_mover_pass")
    walk(s, STEP2)
    assert s.stack[-1][0] == "turn"


def test_ruling_50_first_step_out_of_range_is_safe() -> None:
    """Ruling 50: "A mover who starts within 2 tiles is safe if their first step takes them
    further than 2 tiles away." """
    s = setup("cut_purse", start=STEP1)
    walk(s, START)
    assert s.stack[-1][0] == "turn"


def test_ruling_51_opponents_asked_in_seat_order_from_the_left() -> None:
    """Ruling 51: "the others decide in seat order from the active player's left, each resolving
    in full before the next is asked." """
    s = setup("cut_purse")
    s.pos[2] = OWNER_TILE
    walk(s, STEP1)
    assert s.stack[-1][1] == 1
    act(s, "let_mover_pass")
    assert s.stack[-1][0] == "guild_ability" and s.stack[-1][1] == 2


def test_ruling_56_no_guild_ability_from_or_at_a_hospital() -> None:
    """Ruling 56: "A player in a Hospital or Watch House cannot use Magic or Guild Abilities,
    or be targeted by them"."""
    hosp = HOSPITALS[0]
    near = next(t for t in STREETS if board.hex_distance(t, hosp) == 3
                and any(board.hex_distance(n, hosp) == 2 for n in board.NEIGHBOURS[t]))
    step = next(n for n in board.NEIGHBOURS[near] if board.hex_distance(n, hosp) == 2)
    s = game(3, guilds=("street_theatre", "cut_purse"))
    s.pos[0], s.pos[1] = near, hosp
    s.pos[2] = -1
    s.pos[2] = far_tile(s, hosp, 5)
    begin(s, 0, ScriptedRng())
    walk(s, step)
    assert s.stack[-1][0] == "turn"


def test_fog_of_obscurity_hides_from_guild_abilities() -> None:
    """Fog of Obscurity: no Guild Ability may target a player under it (Effect "fog")."""
    s = setup("cut_purse")
    s.effects[0].append(Effect("fog", 0, 0, 1, "Fog of Obscurity"))
    walk(s, STEP1)
    assert s.stack[-1][0] == "turn"


def test_ruling_52_wand_of_fizzling_cancels_before_the_defence() -> None:
    """Ruling 52: "A cancel (Wand of Fizzling) comes straight after the success it cancels,
    before any defence roll." """
    s = setup("cut_purse", rolls=[3])
    s.items[0].append(item_named("Wand of Fizzling"))
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.stack[-1][0] == "wand"
    act(s, "use_wand")
    assert s.dollars[0] == 5 and not s.items[0]
