"""Guards! Guards!: Guild Abilities (abilities.py), each situation built from a position
(``gg_positions``) and played through legal actions."""

from __future__ import annotations

from collections.abc import Sequence

from gg_positions import (
    Position,
    State,
    act,
    add_effect,
    base,
    far_apart,
    finish_turn,
    give,
    item_index,
    legal,
    let_pass,
    load,
    scripted,
    scroll_index,
    seat,
    set_dollars,
    set_level,
    top,
    verbs,
    volunteer,
    walk,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import allowance
from citywatch.games.guards_guards.data import GUILD_CARDS, HOSPITALS, TILES, VOLUNTEERS

STREETS = [t.index for t in TILES if t.kind == "street"]
LUGGAGE = TILES[board.LUGGAGE_START].id


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


def card_with(key: str) -> str:
    """The name of the first Guild Card with the Guild Ability ``key``."""
    return next(g.name for g in GUILD_CARDS if g.ability_key == key)


def placed(key: str, start: int = START, third: str | None = None) -> Position:
    """Red to move on ``start``, 3 tiles from Blue, who holds the Guild Ability ``key`` (Red
    holds another); Black far away (with the ability ``third`` if given); Red at Magic, Guild
    and Charm 1, Blue at Guild 3."""
    mover_key = "cut_purse" if key != "cut_purse" else "street_theatre"
    cards = [card_with(mover_key), card_with(key)]
    if third is not None:
        cards.append(card_with(third))
    pos = base(3, guilds=cards)
    pos["luggage"] = LUGGAGE
    far_apart(pos, ("Red", TILES[start].id), ("Blue", TILES[OWNER_TILE].id), avoid=[LUGGAGE])
    for attr, red, blue in (("magic", 1, 1), ("guild", 1, 3), ("charm", 1, 1)):
        set_level(pos, "Red", attr, red)
        set_level(pos, "Blue", attr, blue)
    return pos


def setup(key: str, rolls: Sequence[int] = (), belows: Sequence[int] = (),
          start: int = START, pos: Position | None = None) -> State:
    """Blue holds the Guild Ability ``key`` and stands 3 tiles from Red's start; Black is far
    away; Red's turn has begun, with scripted dice (``pos``: a ``placed`` position edited
    first)."""
    s = load(pos if pos is not None else placed(key, start))
    scripted(s, rolls, belows)
    return s



def test_rulebook_guild_ability_offered_within_two_tiles() -> None:
    """Guild Abilities: "If an opposing player 'on their turn' is foolish enough to pass or land
    within 2 tiles of another player's playing piece, the player they are passing may attempt
    to use their Guild Ability against them." """
    s = setup("cut_purse")
    assert top(s)[0] == "turn"
    walk(s, STEP1)
    assert top(s)[0] == "guild_ability" and top(s)[1] == 1 and s.to_move == 1
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
    pos = placed("cut_purse")
    set_dollars(pos, "Red", 2)
    s3 = setup("cut_purse", rolls=[3, 5], pos=pos)  # less than 3: all they have
    walk(s3, STEP1)
    act(s3, "use_guild_ability")
    assert s3.dollars[0] == 0 and s3.dollars[1] == 7


def test_cut_purse_with_no_money_takes_a_random_card() -> None:
    """Cut Purse: "If they have no money at all, take one card at random from their Scrolls and
    Items instead." """
    sword = item_index("Well-Kept Sword")
    pos = placed("cut_purse")
    set_dollars(pos, "Red", 0)
    give(pos, "Red", item="Well-Kept Sword")
    s = setup("cut_purse", rolls=[3, 2], belows=[0], pos=pos)
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
    pos = placed("cut_purse")
    set_level(pos, "Blue", "guild", 10)
    s2 = setup("cut_purse", rolls=[1], pos=pos)
    walk(s2, STEP1)
    act(s2, "use_guild_ability")
    assert s2.dollars[0] == 5


def test_vetinari_raises_the_guild_test_to_eight() -> None:
    """Lord Vetinari: "While he is in your hand, opponents need 8 or more, not 6, on Guild
    Ability tests against you." """
    pos = placed("cut_purse")
    give(pos, "Red", volunteer="Lord Havelock Vetinari")
    s = setup("cut_purse", rolls=[4], pos=pos)  # 4+3=7 < 8
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
    assert s.current != 0 or (s.t.stopped and "move_to" not in verbs(s))


def test_street_theatre_after_movement_costs_two_spaces_next_turn() -> None:
    """Street Theatre: "If they had already finished moving, they move 2 fewer spaces on their
    next turn." (ruling 54 counting)"""
    s = setup("street_theatre", rolls=[3, 2], start=STEP2)
    act(s, "end_movement")
    act(s, "use_guild_ability")
    assert any(e.kind == "move" and e.a == -2 for e in s.effects[0])
    while s.current != 0:  # the rest of Red's turn, then Blue's and Black's
        finish_turn(s)
    assert allowance(s, 0) == 4


def test_fire_water_token_explodes_on_the_targets_next_action() -> None:
    """Fire Water: "It explodes the moment the target next tries an action on their own turn
    ...: that action fails, the target's turn ends at once and the token comes back"."""
    fog = scroll_index("Fog of Obscurity")
    pos = placed("fire_water")
    give(pos, "Red", scroll="Fog of Obscurity")
    s = setup("fire_water", rolls=[3, 2], pos=pos)
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert s.flasks[0] == (1,) and s.fire_water[1] == 2
    act(s, "cast", fog)  # Red's next action: casting a Scroll
    assert s.fire_water[1] == 3 and not s.flasks[0] and s.current == 1
    assert s.scrolls[0] == [fog] and not s.effects[0]


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
    assert s.current != 0 and s.flasks[0] == (1,)
    while s.current != 0:  # Blue's and Black's turns
        finish_turn(s)
    assert s.flasks[0] == (1,)  # Red's next turn has begun: still there
    finish_turn(s)
    assert s.current == 1 and not s.flasks[0] and s.fire_water[1] == 3


def test_fire_water_needs_a_token() -> None:
    """Fire Water: "Needs a Fire Water token in your own supply"."""
    pos = placed("fire_water")
    seat(pos, "Blue")["fire_water"] = 0
    s = setup("fire_water", pos=pos)
    walk(s, STEP1)
    assert top(s)[0] == "turn"
    s = setup("fire_water")
    walk(s, STEP1)
    assert top(s)[0] == "guild_ability"


def test_unnatural_selection_volunteer_must_pass_toughness_eight() -> None:
    """Unnatural Selection: "Pick one Volunteer at random from the target's hand ... That
    Volunteer must pass a Toughness test or be discarded." (8 or more)"""
    drumknott = volunteer("Drumknott")
    pos = placed("unnatural_selection")
    give(pos, "Red", volunteer="Drumknott")
    s = setup("unnatural_selection", rolls=[3, 2], belows=[0], pos=pos)
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert drumknott not in s.hand[0]
    assert drumknott in s.vol_discard[VOLUNTEERS[drumknott].deck]
    s2 = setup("unnatural_selection", rolls=[3, 8 - VOLUNTEERS[drumknott].toughness], pos=pos)
    walk(s2, STEP1)
    act(s2, "use_guild_ability")
    assert drumknott in s2.hand[0]


def test_ruling_49_once_per_turn_of_the_mover() -> None:
    """Ruling 49: "An opponent may use their Guild Ability once per turn of the mover"."""
    s = setup("cut_purse")
    walk(s, STEP1)
    act(s, "let_mover_pass")
    walk(s, STEP2)
    assert top(s)[0] == "turn"


def test_ruling_50_first_step_out_of_range_is_safe() -> None:
    """Ruling 50: "A mover who starts within 2 tiles is safe if their first step takes them
    further than 2 tiles away." """
    s = setup("cut_purse", start=STEP1)
    walk(s, START)
    assert top(s)[0] == "turn"


def test_ruling_51_opponents_asked_in_seat_order_from_the_left() -> None:
    """Ruling 51: "the others decide in seat order from the active player's left, each resolving
    in full before the next is asked." """
    pos = placed("cut_purse", third="fire_water")
    near = next(t for t in STREETS if board.hex_distance(t, STEP1) <= 2
                and t not in (OWNER_TILE, START, STEP1))
    far_apart(pos, ("Red", TILES[START].id), ("Blue", TILES[OWNER_TILE].id),
              ("Black", TILES[near].id))
    s = setup("cut_purse", pos=pos)
    walk(s, STEP1)
    assert top(s)[:2] == ("guild_ability", 1)
    act(s, "let_mover_pass")
    assert top(s)[:2] == ("guild_ability", 2)
    let_pass(s)
    assert top(s)[0] == "turn"


def test_ruling_56_no_guild_ability_from_or_at_a_hospital() -> None:
    """Ruling 56: "A player in a Hospital or Watch House cannot use Magic or Guild Abilities,
    or be targeted by them"."""
    hosp = HOSPITALS[0]
    near = next(t for t in STREETS if board.hex_distance(t, hosp) == 3
                and any(board.hex_distance(n, hosp) == 2 for n in board.NEIGHBOURS[t]))
    step = next(n for n in board.NEIGHBOURS[near] if board.hex_distance(n, hosp) == 2)
    pos = base(3, guilds=(card_with("street_theatre"), card_with("cut_purse")))
    far_apart(pos, ("Red", TILES[near].id), ("Blue", TILES[hosp].id))
    s = load(pos)
    scripted(s)
    walk(s, step)
    assert top(s)[0] == "turn"


def test_fog_of_obscurity_hides_from_guild_abilities() -> None:
    """Fog of Obscurity: no Guild Ability may target a player under it (Effect "fog")."""
    pos = placed("cut_purse")
    add_effect(pos, "Red", "fog", 0, 0, 1, "Fog of Obscurity")
    s = setup("cut_purse", pos=pos)
    walk(s, STEP1)
    assert top(s)[0] == "turn"


def test_ruling_52_wand_of_fizzling_cancels_before_the_defence() -> None:
    """Ruling 52: "A cancel (Wand of Fizzling) comes straight after the success it cancels,
    before any defence roll." """
    pos = placed("cut_purse")
    give(pos, "Red", item="Wand of Fizzling")
    s = setup("cut_purse", rolls=[3], pos=pos)  # no defence die: a roll would fail the test
    walk(s, STEP1)
    act(s, "use_guild_ability")
    assert top(s)[0] == "wand" and s.to_move == 0
    act(s, "use_wand")
    assert s.dollars[0] == 5 and not s.items[0]
