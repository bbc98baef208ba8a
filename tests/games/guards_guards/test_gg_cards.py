"""Guards! Guards!: Items, Dragons, Guild Cards and the Wizards' Challenges, each built from a
position (``gg_positions``), checking the effect and its limits; the rulebook's worked examples;
and a meta-test that every card with an effect is named by some test."""

from __future__ import annotations

import ast
import glob
from collections.abc import Sequence
from pathlib import Path

import pytest
from gg_positions import (
    Position,
    act,
    base,
    face_up,
    far_apart,
    find,
    give,
    legal,
    load,
    place_dragon,
    plant,
    put,
    scripted,
    seat,
    set_dollars,
    set_level,
    set_run,
    tile,
    top,
    turn_of,
    unset,
    verbs,
    volunteer,
    walk,
)

from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    CHALLENGES,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
TESTS = Path(__file__).parent
RED_CARD = "The Housebreaker"  # spells violet, octarine, red, orange, yellow
BOTH = (RED_CARD, "The Transmuter")  # Blue: no Ambush bonus
RED_SPELLS = [SPELL_COLOURS[c] for c in next(g for g in GUILD_CARDS if g.name == RED_CARD).spells]


def item_index(name: str) -> int:
    return next(i.index for i in ITEMS if i.name == name)


# --- the Wizards' Challenges ------------------------------------------------------------------
def at_gate(challenge: int, runners: Sequence[tuple[str, str | None]],
            hand_items: Sequence[str] = ()) -> Position:
    """Red, before moving, with Runners waiting at the gate for Challenge ``challenge`` (1-4):
    the spells before it are returned."""
    pos = base(2, guilds=BOTH)
    red = seat(pos, "Red")
    red["returned"] = RED_SPELLS[:challenge - 1]
    set_run(pos, "Red", RED_SPELLS[challenge - 1], at_gate=runners)
    give(pos, "Red", item=list(hand_items))
    return pos


def attempt(pos: Position, rolls: Sequence[int]) -> State:
    s = load(pos)
    scripted(s, rolls)
    act(s, "retry_challenge")
    return s


def returned(s: State) -> int:
    return len(s.returned[0])


CHALLENGE_CASES = [
    # (challenge, name, Runners: their summed stat leaves a roll of 3-4 to hit the target)
    (1, "Windel's Wisdom", [("Cuddy", None), ("Ludmilla Cake", None)]),  # Streetwise 6 of 9
    (2, "Stibbon's Stumper", [("Detritus", None), ("Cuddy", None)]),  # Toughness 8 of 11
    (3, "Ridcully's Revenge", [("Willikins", None), ("Cuddy", None)]),  # Loyalty 8 of 12
]


@pytest.mark.parametrize(("number", "name", "runners"), CHALLENGE_CASES)
def test_rulebook_the_wizards_challenges_pass_exactly_at_the_target(
        number: int, name: str, runners: list[tuple[str, str | None]]) -> None:
    """The Wizards' Challenges: "If the resulting total is equal to, or higher than that
    required for the Challenge, their Runners have passed the test"; Windel's Wisdom
    (Streetwise 9), Stibbon's Stumper (Toughness 11), Ridcully's Revenge (Loyalty 12)."""
    ch = CHALLENGES[number - 1]
    assert ch.name == name
    stat, _, target = ch.tests[0]
    total = sum(VOLUNTEERS[volunteer(v)].stat(stat) for v, _ in runners)
    roll = target - total
    assert 3 <= roll <= 7
    s = attempt(at_gate(number, runners), [roll])
    assert returned(s) == number and s.run[0] is None
    assert s.dollars[0] == 10 and top(s)[:3] == ("challenge", 0, "point")
    s2 = attempt(at_gate(number, runners), [roll - 1])
    assert returned(s2) == number - 1 and s2.run[0] is not None
    assert s2.current != 0  # "THEIR TURN ENDS"


def test_windels_wisdom_natural_one_fails_and_natural_eight_rerolls() -> None:
    """Windel's Wisdom (Challenge 1, Streetwise 9): "A roll of 1 is an automatic failure!";
    ruling 22: "A natural 8 is re-rolled and added in Wizards' Challenge tests"; ruling 21: a
    1 rolled as a re-roll after a natural 8 simply adds 1."""
    strong = [("Gaspode the Wonder Dog", None), ("Corporal Nobby Nobbs", None)]  # S 10
    s = attempt(at_gate(1, strong), [1])
    assert returned(s) == 0
    weak = [("Lady Sybil Ramkin", None)]  # Streetwise 1: 1 + 8 + 1 = 10
    s = attempt(at_gate(1, weak), [8, 1])
    assert returned(s) == 1
    s = attempt(at_gate(1, weak), [7])  # 8 < 9 without the re-roll
    assert returned(s) == 0


def test_malichs_melancholy_brawl_and_streetwise_eleven_passed_test_stays_passed() -> None:
    """Malich's Melancholy (Challenge 4): "two tests, one for Brawl and a second for
    Streetwise" (11 each); ruling 44: "a passed test stays passed, and later turns re-roll
    only the failed one"."""
    runners = [("Conina", None), ("Cuddy", None)]  # Brawl 8, Streetwise 6
    pos = at_gate(4, runners)
    assert CHALLENGES[3].name == "Malich's Melancholy"
    s = attempt(pos, [3, 4])  # Brawl 8 + 3 = 11 passes; Streetwise 6 + 4 = 10 fails
    run = s.run[0]
    assert run is not None and run.passed == 0b01 and returned(s) == 3
    again = turn_of(s.position(), "Red")
    s2 = attempt(again, [5])  # only the Streetwise test is rolled: 6 + 5 = 11
    assert returned(s2) == 4
    s3 = attempt(again, [4])  # 10: still short
    assert returned(s3) == 3 and s3.run[0] is not None and s3.run[0].passed == 0b01


def final_at_gate(magic: int, guild: int) -> Position:
    pos = base(2, guilds=BOTH)
    seat(pos, "Red")["returned"] = RED_SPELLS[:4]
    set_run(pos, "Red", RED_SPELLS[4], final=True)
    give(pos, "Red", volunteer="Cuddy")
    set_level(pos, "Red", "magic", magic)
    set_level(pos, "Red", "guild", guild)
    return pos


def test_rincewinds_redemption_magic_nine_and_guild_nine() -> None:
    """Rincewind's Redemption (Challenge 5): "first rolling the die and adding the result to
    their character's current Magic Level and then roll again and add the result to their
    character's current Guild Level. They must achieve a score of 9 or above in both cases";
    "If either roll fails, they must wait and re-attempt only the failed roll"."""
    assert CHALLENGES[4].name == "Rincewind's Redemption"
    s = attempt(final_at_gate(5, 4), [4, 5])  # 9 and 9
    assert s.result is not None and s.result.winners == (0,)
    s = attempt(final_at_gate(5, 4), [3, 5])  # Magic 8 fails, Guild 9 passes
    run = s.run[0]
    assert s.result is None and run is not None and run.passed == 0b10
    again = turn_of(s.position(), "Red")
    s2 = attempt(again, [4])  # only Magic is rolled again
    assert s2.result is not None and s2.result.winners == (0,)
    s3 = attempt(final_at_gate(5, 4), [1, 5])  # a natural 1 on Magic fails
    assert s3.result is None


# --- Items: equipment bonuses and their limits ---------------------------------------------------
EQUIPMENT = [
    # (item, challenge, Runner, roll exactly at the target with the item)
    ("Thieves' Guild Receipt", 1, "Cuddy", 4),  # Streetwise 3 + 2 + 4 = 9
    ("False Beard", 1, "Cuddy", 5),  # 3 + 1 + 5 = 9
    ("Bag of Humbugs", 1, "Cuddy", 5),  # Streetwise 3 + 1 + 5
    ("Stout Walking Boots", 1, "Cuddy", 5),  # Streetwise 3 + 1 + 5
    ("Stout Walking Boots", 2, "Detritus", 5),  # Toughness 5 + 1 + 5 = 11
    ("Militia Badge", 3, "Willikins", 5),  # Loyalty 5 + 2 + 5 = 12
    ("Bag of Humbugs", 3, "Willikins", 6),  # 5 + 1 + 6 = 12
]


@pytest.mark.parametrize(("item", "number", "runner", "roll"), EQUIPMENT)
def test_equipment_counts_in_a_challenge_only_when_carried(item: str, number: int, runner: str,
                                                            roll: int) -> None:
    """Items: "Equip it on one Volunteer you send out"; the challenge total adds "any
    additional points gained/lost from Items" carried by the Runners at the gate, and an Item
    left in the hand adds nothing."""
    carried = at_gate(number, [(runner, item)])
    assert returned(attempt(carried, [roll])) == number
    assert returned(attempt(carried, [roll - 1])) == number - 1
    in_hand = at_gate(number, [(runner, None)], hand_items=[item])
    assert returned(attempt(in_hand, [roll])) == number - 1


@pytest.mark.parametrize(("item", "bonus"), [("Dwarf Bread", 2), ("Knuckledusters", 1)])
def test_brawl_items_count_in_malichs_melancholy(item: str, bonus: int) -> None:
    """Dwarf Bread "+2 Brawl", Knuckledusters "+1 Brawl", carried by a Runner at the gate of
    Malich's Melancholy (Brawl 11)."""
    runners = [("Conina", item)]  # Brawl 5, Streetwise 3
    roll = 11 - 5 - bonus
    s = attempt(at_gate(4, runners), [roll, 2])
    run = s.run[0]
    assert run is not None and run.passed == 0b01
    s = attempt(at_gate(4, runners), [roll - 1, 2])
    run = s.run[0]
    assert run is not None and run.passed == 0


def spell_tile_run(runners: Sequence[str], items: Sequence[str]) -> State:
    """Red stopped on the tile of their next spell with ``runners`` and ``items`` in hand."""
    pos = base(2, guilds=BOTH)
    spell = RED_SPELLS[0]
    give(pos, "Red", volunteer=list(runners), item=list(items))
    far_apart(pos, ("Red", f"spell_{spell}"))
    turn_of(pos, "Red", stopped=True)
    s = load(pos)
    act(s, "collect_spell")
    return s


def test_one_item_per_runner_and_each_item_once() -> None:
    """Making a Spell Run: "equip their chosen Volunteer/s with any Items they have acquired (a
    maximum of one Item per Volunteer)"; Militia Badge and Dwarf Bread."""
    badge, bread = item_index("Militia Badge"), item_index("Dwarf Bread")
    cuddy, angua = volunteer("Cuddy"), volunteer("Angua")
    s = spell_tile_run(["Cuddy", "Angua"], ["Militia Badge", "Dwarf Bread"])
    assert top(s)[0] == "run"
    options = {(a.x, a.y) for a in legal(s) if a.verb == "add_runner"}
    assert options == {(v, i) for v in (cuddy, angua) for i in (-1, badge, bread)}
    act(s, "add_runner", cuddy, badge)
    options = {(a.x, a.y) for a in legal(s) if a.verb == "add_runner"}
    assert options == {(angua, -1), (angua, bread)}  # one Item each; the Badge is taken


def launch(s: State, runner: str) -> None:
    """Send ``runner`` alone and launch the run (a single option is taken at once)."""
    if top(s)[0] == "run" and "add_runner" in verbs(s):
        act(s, "add_runner", volunteer(runner), -1)
    while top(s)[0] == "run":
        s.apply(next(a for a in legal(s) if a.verb == "choose_route"))


def test_saboteur_item_knuckledusters_adds_to_the_ambush_brawl() -> None:
    """Planting a Saboteur: "A Saboteur may be equipped with one Item"; Knuckledusters (+1
    Brawl) count in the Saboteur's Ambush strike: Brawl 3 + 1 + 5 = 9 beats Toughness 3 + 5."""
    for with_item, hit in ((True, True), (False, False)):
        pos = base(2, guilds=BOTH)
        spell = RED_SPELLS[0]
        give(pos, "Red", volunteer="Cuddy")  # Toughness 3
        gate_q = QUADRANTS[GUILD_CARDS[1].guild]
        plant(pos, "Blue", gate_q, "Withel", "Knuckledusters" if with_item else None)  # Brawl 4
        far_apart(pos, ("Red", f"spell_{spell}"))
        turn_of(pos, "Red", stopped=True)
        s = load(pos)
        act(s, "collect_spell")
        launch(s, "Cuddy")
        while top(s)[0] == "sabotage" and top(s)[4] != QUADRANTS.index(gate_q):
            act(s, "let_pass")
        # Withel: Brawl 4 (+1) + 4 against Cuddy's Toughness 3 + 5 (+ the strike back)
        scripted(s, [4, 5, 1, 2])  # (2: the challenge roll if Cuddy gets through)
        act(s, "ambush")
        cuddy = volunteer("Cuddy")
        if hit:
            assert cuddy in s.vol_discard[VOLUNTEERS[cuddy].deck]
        else:
            assert cuddy not in s.vol_discard[VOLUNTEERS[cuddy].deck]


# --- Dragons ----------------------------------------------------------------------------------
def dragon_fight(dragon: str, fighters: Sequence[tuple[str, str | None]], rolls: Sequence[int],
                 quadrant: str = "assassins") -> State:
    """Red fights ``dragon`` (on the ``quadrant``'s Guild House) with ``fighters``."""
    pos = base(2, guilds=BOTH)
    place_dragon(pos, quadrant, dragon)
    for v, i in fighters:
        give(pos, "Red", volunteer=v, item=[i] if i else [])
    s = load(pos)
    scripted(s, rolls)
    act(s, "fight_dragon", QUADRANTS.index(quadrant))
    for v, i in fighters:
        act(s, "send_fighter", volunteer(v), -1 if i is None else item_index(i))
    if top(s)[0] == "dragon" and "no_more_fighters" in verbs(s):
        act(s, "no_more_fighters")
    return s


@pytest.mark.parametrize("dragon", ["Old Sulphurwing", "The Scourge of the Shades"])
def test_dragon_wounded_exactly_at_its_toughness(dragon: str) -> None:
    """Dragons: "If the result is equal to or higher than the Dragon's toughness the Dragon is
    wounded and it will withdraw"; otherwise "each Volunteer must make a Toughness test against
    the Dragon's Brawl Value" (Old Sulphurwing Brawl 8 Toughness 14, The Scourge of the Shades
    Brawl 7 Toughness 13)."""
    d = next(x for x in DRAGONS if x.name == dragon)
    fighters = [("Conina", "Dwarf Bread"), ("Cuddy", None)]  # Brawl 5 + 2 + 3 = 10
    roll = d.toughness - 10
    assert 3 <= roll <= 7
    s = dragon_fight(dragon, fighters, [roll])
    assert s.dragons[1] == -1 and d.index in s.dragon_pile
    assert s.dollars[0] == 5 + 2
    # one below: no wound; the Toughness tests against the Dragon's Brawl follow
    conina_t, cuddy_t = 2, 3
    s = dragon_fight(dragon, fighters, [roll - 1, d.brawl - conina_t, d.brawl - cuddy_t - 1])
    assert s.dragons[1] == d.index
    assert volunteer("Conina") in s.hand[0]  # Toughness exactly at the Brawl survives
    assert volunteer("Cuddy") in s.vol_discard[1]  # one below is burnt
    assert item_index("Dwarf Bread") in s.items[0]


def test_dragon_natural_one_fails_and_eights_reroll() -> None:
    """Combat Rules (Dragons use them, ruling 22): "any roll of a Natural 8 allows the player
    to re-roll the die and add the result"; "A roll of 1 is an automatic failure"."""
    fighters = [("Conina", None), ("Cohen the Barbarian", None), ("Hrun the Barbarian", None)]
    s = dragon_fight("Old Sulphurwing", fighters, [8, 1])  # 15 + 9 >= 14
    assert s.dragons[1] == -1
    s = dragon_fight("Old Sulphurwing", fighters, [1, 7, 7, 7])  # 15 + 1 but a natural 1
    assert s.dragons[1] >= 0


# --- the Guild Cards --------------------------------------------------------------------------
GUILD_CASES = [
    # (card, ability key, starting magic/guild/charm, Fire Water tokens)
    ("The Cutpurse", "cut_purse", (1, 3, 2), 0),
    ("The Housebreaker", "cut_purse", (1, 3, 3), 0),
    ("The Clown", "street_theatre", (2, 1, 3), 0),
    ("The Jester", "street_theatre", (2, 2, 3), 0),
    ("The Poisoner", "unnatural_selection", (2, 3, 1), 0),
    ("The Blade", "unnatural_selection", (2, 3, 2), 0),
    ("The Transmuter", "fire_water", (1, 4, 1), 3),
    ("The Fire-Raiser", "fire_water", (1, 4, 2), 3),
]


def _geometry() -> tuple[int, int, int]:
    """(owner tile, mover start at hex distance 3, a street step to distance 2)."""
    streets = [t.index for t in TILES if t.kind == "street"]
    for p in streets:
        for a in streets:
            if board.hex_distance(a, p) == 3:
                for b in board.NEIGHBOURS[a]:
                    if b in streets and board.hex_distance(b, p) == 2:
                        return p, a, b
    raise AssertionError("no geometry")


OWNER, START, STEP = _geometry()


@pytest.mark.parametrize(("card", "key", "start", "tokens"), GUILD_CASES)
def test_guild_card_starting_levels(card: str, key: str, start: tuple[int, int, int],
                                    tokens: int) -> None:
    """What Players Need to Begin: "3 Attribute markers ... the starting levels of the
    Character Skills on their Guild Card"; "5 Ankh-Morpork Dollars"; "Any player selecting to
    join the Guild of Alchemists also receives 3 - Fire Water tokens"."""
    s = load(unset(2))
    g = next(x for x in GUILD_CARDS if x.name == card)
    assert g.ability_key == key
    who = top(s)[1]
    s.apply(next(a for a in legal(s) if a.verb == "choose_guild" and a.x == g.index))
    assert s.attrs[who] == list(start) and s.dollars[who] == 5 and s.fire_water[who] == tokens


def guild_position(card: str) -> Position:
    """Blue holds ``card`` and stands 3 tiles from Red, who is about to step within 2."""
    mover = "The Cutpurse" if GUILD_CARDS[next(
        g.index for g in GUILD_CARDS if g.name == card)].guild == 1 else "The Poisoner"
    pos = base(2, guilds=(mover, card))
    far_apart(pos, ("Red", TILES[START].id), ("Blue", TILES[OWNER].id))
    for colour in ("Red", "Blue"):
        for attr in ("magic", "guild", "charm"):
            set_level(pos, colour, attr, 1)
    set_level(pos, "Blue", "guild", 3)
    give(pos, "Red", volunteer="Drumknott")  # Toughness 1
    return turn_of(pos, "Red")


@pytest.mark.parametrize(("card", "key", "start", "tokens"), GUILD_CASES)
def test_guild_card_ability_its_test_and_its_effect(card: str, key: str,
                                                    start: tuple[int, int, int],
                                                    tokens: int) -> None:
    """Guild Abilities: "They then make a Guild test of 6 or more by rolling the die and adding
    the current Guild Skill Value"; the target's defence roll fails and the card's ability
    (Cut Purse, Street Theatre, Fire Water, Unnatural Selection) takes effect; a Guild test
    one below 6 does nothing."""
    for guild_roll, works in ((3, True), (2, False)):
        s = load(guild_position(card))
        scripted(s, [guild_roll, 2], belows=[0])  # guild 3 + roll; the defence: 2 + 1 < 7
        walk(s, TILES[STEP].id)
        assert top(s)[:3] == ("guild_ability", 1, 0)
        act(s, "use_guild_ability")
        drumknott = volunteer("Drumknott")
        if key == "cut_purse":
            assert (s.dollars[0], s.dollars[1]) == ((2, 8) if works else (5, 5))
        elif key == "street_theatre":
            # movement over at once (a street offers nothing more: the turn passes on)
            assert s.pos[0] == STEP and (s.current != 0) == works
        elif key == "fire_water":
            assert s.flasks[0] == ((1,) if works else ())
            assert s.fire_water[1] == (2 if works else 3)
        else:
            assert (drumknott in s.hand[0]) != works


def test_assassins_cards_add_one_to_the_ambush_brawl() -> None:
    """The Poisoner and The Blade: their Ambush sabotage skill adds 1 to the Saboteur's
    Brawl (the Guild Card's "saboteur_brawl_bonus")."""
    bonus = {g.name: g.ambush_bonus for g in GUILD_CARDS}
    assert bonus["The Poisoner"] == bonus["The Blade"] == 1
    assert all(bonus[n] == 0 for n in bonus if n not in ("The Poisoner", "The Blade"))


# --- the rulebook's worked examples -----------------------------------------------------------
def test_rulebook_recruiting_volunteers_worked_example_charm_then_bribe() -> None:
    """To 'Charm' a Volunteer: "A player rolls the die and adds the result to the current Charm
    Level ... If the total is equal to, or higher than the Volunteer's Charm value, they
    succeed"; "If they roll a Natural 1 ... it is an automatic failure; however they may still
    try to Bribe the Volunteer"; a Natural 8 lifts "another Volunteer card from the same
    Volunteer deck"."""
    def at_tile(charm: int) -> State:
        pos = base(2, guilds=BOTH)
        face_up(pos, "Cuddy")  # Charm 7, Bribe 3
        far_apart(pos, ("Red", "vol_mb_thieves"))
        set_level(pos, "Red", "charm", charm)
        turn_of(pos, "Red", stopped=True)
        s = load(pos)
        act(s, "recruit_here")
        act(s, "take_face_up", volunteer("Cuddy"))
        return s

    cuddy = volunteer("Cuddy")
    s = at_tile(3)
    scripted(s, [4], belows=[0] * 4)  # 3 + 4 = 7: exactly the Charm
    act(s, "charm_volunteer", cuddy)
    assert cuddy in s.hand[0]
    s = at_tile(3)
    scripted(s, [3])  # 6 < 7
    act(s, "charm_volunteer", cuddy)
    assert cuddy not in s.hand[0] and "bribe_volunteer" in verbs(s)
    s = at_tile(9)
    scripted(s, [1])  # a natural 1 fails whatever the Charm
    act(s, "charm_volunteer", cuddy)
    assert cuddy not in s.hand[0]
    scripted(s, [], belows=[0] * 4)
    act(s, "bribe_volunteer", cuddy)
    assert cuddy in s.hand[0] and s.dollars[0] == 5 - VOLUNTEERS[cuddy].bribe
    s = at_tile(3)
    scripted(s, [8], belows=[0] * 4)
    act(s, "charm_volunteer", cuddy)
    assert cuddy in s.hand[0]
    assert {"take_face_up", "turn_over"} & verbs(s) or "no_extra_volunteer" in verbs(s)


def test_rulebook_worked_example_movement_up_to_six_spaces() -> None:
    """Movement: "A player can move their playing piece up to a maximum of 6 spaces per turn.
    This is automatic and players DO NOT have to roll the die to move"; "Bridges count as 1
    space"."""
    pos = base(2)
    bridge = tile("bridge_brass")
    start = next(n for n in board.NEIGHBOURS[bridge] if TILES[n].kind == "street")
    far_apart(pos, ("Red", TILES[start].id))
    s = load(pos)
    scripted(s, [])  # no die is rolled to move
    act(s, "move_to", bridge)
    assert s.t.steps == 1
    here = bridge
    for step in range(2, 7):
        assert "move_to" in verbs(s) and s.t.steps == step - 1
        nxt = next(n for n in board.NEIGHBOURS[here] if s.can_end_on(0, n)
                   and TILES[n].kind in ("street", "bridge")
                   and n not in s.t.path and n != start)
        act(s, "move_to", nxt)
        here = nxt
    # the sixth space ends the movement (on a street nothing is left: the turn passes on)
    assert s.pos[0] == here and s.current == 1


def test_rulebook_combat_rules_worked_example_hit_and_strike_back() -> None:
    """Combat Rules: "If the Saboteur/Attacker's total Brawl Score is greater than the
    Defenders total Toughness Score the attacker's blow hits"; "If the Attackers total Brawl
    score is lower ... The Defender then gets one chance to strike back"."""
    for rolls, runner_lost, saboteur_lost in (([6, 3], True, False),
                                               ([2, 6, 7, 2, 2], False, True)):
        pos = base(2, guilds=BOTH)
        give(pos, "Red", volunteer="Cuddy")  # Brawl 3, Toughness 3
        gate_q = QUADRANTS[GUILD_CARDS[1].guild]
        plant(pos, "Blue", gate_q, "Withel")  # Brawl 4, Toughness 4
        far_apart(pos, ("Red", f"spell_{RED_SPELLS[0]}"))
        turn_of(pos, "Red", stopped=True)
        s = load(pos)
        act(s, "collect_spell")
        launch(s, "Cuddy")
        while top(s)[0] == "sabotage" and top(s)[4] != QUADRANTS.index(gate_q):
            act(s, "let_pass")
        scripted(s, rolls)
        act(s, "ambush")
        cuddy, withel = volunteer("Cuddy"), volunteer("Withel")
        assert (cuddy in s.vol_discard[1]) == runner_lost
        assert (withel in s.vol_discard[2]) == saboteur_lost
        assert (not s.saboteurs[1]) == saboteur_lost


# --- every card is named by some test ---------------------------------------------------------
def test_every_card_with_an_effect_is_named_by_a_test() -> None:
    """Every Volunteer with an ability, every Scroll, Item, Fate card, Dragon, Guild Card and
    Wizards' Challenge appears by name in some tests/games/guards_guards/test_gg_*.py."""
    text = ""
    for f in sorted(glob.glob(str(TESTS / "test_gg_*.py"))):
        source = Path(f).read_text()
        text += source
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text += "\n" + node.value
    text = text.lower()
    names = ([v.name for v in VOLUNTEERS if v.ability] + [c.name for c in SCROLLS]
             + [c.name for c in ITEMS] + [c.name for c in FATE_CARDS]
             + [d.name for d in DRAGONS] + [g.name for g in GUILD_CARDS]
             + [c.name for c in CHALLENGES])
    missing = [n for n in names if n.lower() not in text]
    assert not missing, f"no test names {missing}"


def test_set_dollars_helper_keeps_positions_valid() -> None:
    """The position helpers keep every card in exactly one place (the position reads back)."""
    pos = base(3)
    give(pos, "Blue", volunteer=["Angua", "Cuddy"], item="Dwarf Bread", scroll="Stasis")
    plant(pos, "Black", "fools", "Withel", "Knuckledusters")
    set_dollars(pos, "Red", 0)
    put(pos, "Red", pos["seats"][0]["tile"])
    s = load(pos)
    assert s.position()["seats"][1]["hand"] == ["Angua", "Cuddy"]
    assert find(s, "end_movement") is not None
