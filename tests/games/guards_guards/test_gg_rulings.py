"""Guards! Guards!: the rulings without a test elsewhere, and the rulebook sections, each built
from a position (``gg_positions``); and the meta-tests that every ruling 1-85 and every
rulebook section is named by some test."""

from __future__ import annotations

import ast
import glob
import re
from pathlib import Path

import pytest
from gg_positions import (
    Position,
    act,
    base,
    face_up,
    far_apart,
    fate_drawn,
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
    set_pox,
    set_run,
    tile,
    top,
    turn_of,
    unset,
    verbs,
    volunteer,
    walk,
)

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.core.errors import InvalidPosition
from citywatch.core.rng import Rng
from citywatch.games.guards_guards import board, harm
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    DRAGONS,
    GUILD_CARDS,
    GUILD_HOUSES,
    HOSPITALS,
    ITEMS,
    LUGGAGE_TRACK,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    TILES,
    VOLUNTEERS,
    WATCH_HOUSES,
)
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.setup import first_player
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
TESTS = Path(__file__).parent
RED_CARD = "The Housebreaker"
BOTH = (RED_CARD, "The Transmuter")
RED_SPELLS = [SPELL_COLOURS[c] for c in next(g for g in GUILD_CARDS if g.name == RED_CARD).spells]
BRETHREN = [v.name for v in VOLUNTEERS if v.brethren and not v.ability]


def street_next_to(tile_id: str) -> str:
    """A street tile next to ``tile_id``."""
    return next(TILES[n].id for n in board.NEIGHBOURS[tile(tile_id)]
                if TILES[n].kind == "street")


def launch(s: State, *runners: str) -> None:
    """Send ``runners`` and launch the run (a single option is taken at once)."""
    for r in runners:
        if top(s)[0] == "run" and "add_runner" in verbs(s):
            act(s, "add_runner", volunteer(r), -1)
    while top(s)[0] == "run":
        s.apply(next(a for a in legal(s) if a.verb == "choose_route"))


def on_spell_tile(pos: Position, spell: str = RED_SPELLS[0]) -> Position:
    far_apart(pos, ("Red", f"spell_{spell}"))
    return turn_of(pos, "Red", stopped=True)


# --- Setup (rulings 1-6) ----------------------------------------------------------------------
def test_ruling_1_highest_roll_starts_ties_roll_again_play_goes_left() -> None:
    """Ruling 1: "Everyone rolls the die; the highest starts, and tied players roll again. Play
    then goes left, which the engine treats as seat order.\""""
    s = load(unset(3))
    scripted(s, [5, 7, 7, 3, 6])  # Blue and Black tie on 7; Black wins the re-roll
    assert first_player(s) == 2
    # a new game, not a position: the roll is in the game's log, which a position does not carry
    s = GAME.new_game(4, 5)
    first = top(s)[1]
    assert f"{s.colour(first)} rolls highest and will play first." in s.log()
    s = load(s.position())
    while top(s)[0] == "setup":
        s.apply(legal(s)[0])
    assert s.current == first and s.to_move == first
    pos = base(3)
    far_apart(pos, ("Red", street_next_to("bridge_brass")))
    s = load(pos)
    act(s, "end_movement")  # a plain street: the turn ends and play goes left
    assert s.current == 1


def test_ruling_2_in_turn_order_an_unused_card_and_a_gate_of_its_quadrant() -> None:
    """Ruling 2: "In turn order, each player takes an unused Guild Card and a free Start Gate in
    that guild's quadrant." (citywatch ruling 2: the roll for the first player comes first.)"""
    # a new game, not a position: the order of its set-up log is checked (positions carry no log)
    s = GAME.new_game(3, 2)
    first = top(s)[1]
    taken: list[int] = []
    for k in range(3):
        assert top(s)[:2] == ("setup", (first + k) % 3)
        acts = legal(s)
        assert all(a.x not in taken and a.y in GUILD_CARDS[a.x].gates for a in acts)
        assert all(a.y not in s.gate for a in acts)
        taken.append(acts[-1].x)
        s.apply(acts[-1])
    log = s.log()
    assert [i for i, line in enumerate(log) if "rolls highest" in line][0] < min(
        i for i, line in enumerate(log) if " joins as " in line)


def test_ruling_4_two_players_of_one_guild_share_its_guild_house() -> None:
    """Ruling 4: "Two players of the same guild share its Guild House." """
    house = TILES[GUILD_HOUSES[0]].id
    for colour in ("Red", "Blue"):
        pos = base(2, guilds=("The Cutpurse", "The Housebreaker"))
        far_apart(pos, (colour, street_next_to(house)))
        turn_of(pos, colour)
        s = load(pos)
        walk(s, house)
        k = ("Red", "Blue").index(colour)
        act(s, "collect_pay")
        assert s.dollars[k] == 8


def test_ruling_6_starting_cards_give_bonuses_and_gifts_not_pox_fate_or_luggage() -> None:
    """Ruling 6: "Starting cards give their Player Bonuses and gifts; a gifted Scroll or Item
    comes from the deck nearest the player's gate. Infectious and Fate marks are ignored, and
    the Luggage does not move." """
    pos = unset(2, seed=3)
    first = pos["stack"][-1][1]
    ll, mb = pos["volunteers"]["lords_ladies"], pos["volunteers"]["man_beast"]
    for name in ("Archchancellor Mustrum Ridcully", "Lord Venturi"):  # Venturi: Fate, +1 Item
        ll["face_down"].remove(name)
        ll["face_down"].append(name)
    for name in ("Cut-Me-Own-Throat Dibbler", "Gaspode the Wonder Dog"):  # both Infectious
        mb["face_down"].remove(name)
        mb["face_down"].append(name)
    s = load(pos)
    fate_before, luggage = list(s.fate_deck), s.luggage
    while top(s)[0] == "setup":
        s.apply(legal(s)[0])
    second = 1 - first
    assert VOLUNTEERS[s.hand[first][0]].name == "Lord Venturi"
    assert VOLUNTEERS[s.hand[second][0]].name == "Archchancellor Mustrum Ridcully"
    start = GUILD_CARDS[s.guild[second]].start
    assert s.attrs[second][0] == min(10, start[0] + 1)  # Ridcully: +1 Magic
    assert not any(s.pox) and s.fate_deck == fate_before and s.luggage == luggage
    nearest = board.nearest_deck(s.gate[first], "odds_and_sods")[0]
    space = DECK_SPACES[nearest].id
    assert ITEMS[s.items[first][0]].name == pos["decks"][space][-1]
    assert len(s.items[second]) == 1  # Dibbler's Item


# --- The turn (rulings 7, 9) ------------------------------------------------------------------
def test_ruling_7_start_duties_then_plant_then_move_then_stop_then_countdown() -> None:
    """Ruling 7: "Turn order: start-of-turn duties (leaving a Watch House, or a missed turn),
    then an optional Saboteur plant, then movement, then at most one stop action, then timed
    effects count down.\""""
    pos = base(2)
    watch = TILES[WATCH_HOUSES[0]].id
    far_apart(pos, ("Red", watch))
    seat(pos, "Red")["jailed"] = True
    seat(pos, "Red")["effects"] = [["move", 1, 0, 2, "City Map"]]
    give(pos, "Red", volunteer="Withel")
    turn_of(pos, "Red")
    pos["stack"] = [["turn", 0, 0, tile(watch), 0]]  # the turn just begun: phase 0
    s = load(pos)
    assert top(s)[0] == "jail" and "move_to" not in verbs(s)
    act(s, "jail_bail")
    assert {"try_plant", "move_to"} <= verbs(s)
    act(s, "end_movement")
    while top(s)[0] == "pass_through":
        act(s, "done_here")
    assert s.current != 0 or "try_plant" not in verbs(s)
    assert s.effects[0] == (("move", 1, 0, 1, "City Map"),)  # counted down at the end


def test_ruling_9_free_actions_before_during_and_after_movement() -> None:
    """Ruling 9: "Free actions (casting Scrolls, using magical Items, recalling a Saboteur,
    fighting a Dragon) may be taken at any point of the player's own turn.\""""
    pos = base(2)
    start = street_next_to("bridge_brass")
    far_apart(pos, ("Red", start))
    plant(pos, "Red", "fools", "Withel")
    give(pos, "Red", volunteer="Cuddy")
    place_dragon(pos, "alchemists", "Little Smokejaw")
    s = load(pos)
    assert {"recall", "fight_dragon"} <= verbs(s)
    walk(s, "bridge_brass")
    assert {"recall", "fight_dragon", "move_to"} <= verbs(s)
    act(s, "end_movement")
    assert {"recall", "fight_dragon", "end_turn"} <= verbs(s)


def test_ruling_30_attributes_on_the_track_effective_never_below_zero() -> None:
    """Ruling 30: "Attributes stay on the 0-10 track, and permanent bonuses are clamped to it.
    Temporary modifiers (the Pox, curses) apply on top, and an effective level is never below
    0." """
    pos = base(2)
    face_up(pos, "Mrs Rosie Palm")  # Charm 7, Player Bonus +1 Charm
    far_apart(pos, ("Red", "vol_ll_thieves"))
    set_level(pos, "Red", "charm", 10)
    turn_of(pos, "Red", stopped=True)
    s = load(pos)
    act(s, "recruit_here")
    act(s, "take_face_up", volunteer("Mrs Rosie Palm"))
    scripted(s, [5], belows=[0] * 8)
    act(s, "charm_volunteer")
    assert volunteer("Mrs Rosie Palm") in s.hand[0] and s.attrs[0][2] == 10
    low = base(2)
    set_level(low, "Blue", "charm", 0)
    set_pox(low, "Blue")
    seat(low, "Blue")["effects"] = [["attr", 0, -2, -1, "Curse of Muddled Wits"]]
    set_level(low, "Blue", "magic", 1)
    s = load(low)
    assert s.level(1, 2) == 0 and s.level(1, 0) == 0
    assert s.view(0)["seats"][1]["effective"] == {"magic": 0, "guild": s.attrs[1][1],
                                                  "charm": 0}
    set_level(low, "Blue", "magic", 11)
    with pytest.raises(InvalidPosition):
        load(low)


# --- Spell Runs (rulings 36, 43, 46, 47) ------------------------------------------------------
def test_ruling_36_sabotage_quadrant_by_quadrant_once_each_never_own_run() -> None:
    """Ruling 36: "Sabotage is resolved quadrant by quadrant along the route, with at most one
    attempt per quadrant per run. No player sabotages their own run." """
    pos = base(3, guilds=(RED_CARD,))
    names = iter(BRETHREN)
    for colour in ("Red", "Blue", "Black"):
        for q in QUADRANTS:
            plant(pos, colour, q, next(names))
    give(pos, "Red", volunteer="Angua")
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    scripted(s, [2])  # the challenge roll at the gate
    launch(s, "Angua")
    asked = []
    while top(s)[0] == "sabotage":
        asked.append((top(s)[1], top(s)[4]))
        act(s, "let_pass")
    run = s.run[0]
    order = list(dict.fromkeys(run.quadrants if run else ()))
    if run is None:  # the spell was returned: read the route from the log instead
        order = list(dict.fromkeys(q for _, q in asked))
    assert asked == [(who, q) for q in order for who in (1, 2)]
    assert len(order) >= 2


def test_ruling_43_later_runners_go_straight_to_the_gate_pass_through_allowed() -> None:
    """Ruling 43: "Runners sent later go straight to the gate and cannot be sabotaged.
    Pass-through actions on the way to recruit are allowed." """
    pos = base(3, guilds=(RED_CARD,))
    names = iter(BRETHREN)
    for colour in ("Blue", "Black"):
        for q in QUADRANTS:
            plant(pos, colour, q, next(names))
    set_run(pos, "Red", RED_SPELLS[0], at_gate=[("Cuddy", None)], tried=0)
    give(pos, "Red", volunteer="Angua")
    house = TILES[GUILD_HOUSES[0]].id  # Red's Guild House (thieves)
    far_apart(pos, ("Red", street_next_to(house)))
    s = load(pos)
    act(s, "send_to_gate", volunteer("Angua"), -1)
    run = s.run[0]
    assert run is not None and [v for v, _ in run.at_gate] == [volunteer("Cuddy"),
                                                                 volunteer("Angua")]
    assert top(s)[0] == "turn" and not run.runners
    walk(s, house)
    assert "collect_pay" in verbs(s)


def final_spell_position() -> Position:
    pos = base(2, guilds=BOTH)
    seat(pos, "Red")["returned"] = RED_SPELLS[:4]
    set_run(pos, "Red", RED_SPELLS[4], final=True)
    give(pos, "Red", volunteer="Cuddy")
    return pos


def test_ruling_46_final_spell_saboteurs_attack_on_first_entry_each_turn() -> None:
    """Ruling 46: "Final Spell: on each turn, the first time the piece enters a quadrant with
    opposing Saboteurs, those Saboteurs may attack its Volunteers as if it were a run." """
    streets = [t for t in TILES if t.kind == "street"]
    a, b, c = next((x, y, z) for x in streets for y in streets for z in streets
                   if y.index in board.NEIGHBOURS[x.index] and z.index in board.NEIGHBOURS[y.index]
                   and x.quadrant != y.quadrant and y.quadrant == z.quadrant
                   and z.index != x.index)
    pos = final_spell_position()
    far_apart(pos, ("Red", a.id))
    plant(pos, "Blue", QUADRANTS[b.quadrant], "Withel")
    s = load(pos)
    walk(s, b.id)
    assert top(s)[:4] == ("sabotage", 1, "ask", 0) and top(s)[4] == b.quadrant
    act(s, "let_pass")
    walk(s, c.id)
    assert top(s)[0] == "turn"  # no second attack in the same quadrant this turn


def test_ruling_47_no_effect_puts_the_final_spell_carrier_on_their_gate() -> None:
    """Ruling 47: "No effect may put a player carrying their Final Spell onto their own
    gate." """
    pos = final_spell_position()
    far_apart(pos, ("Red", "curry_gardens"))
    s = load(pos)
    gate = s.gate[0]
    assert harm.place(s, 0, gate) != gate
    plain = base(2, guilds=BOTH)
    far_apart(plain, ("Red", "curry_gardens"))
    s = load(plain)
    assert harm.place(s, 0, s.gate[0]) == s.gate[0]


def test_ruling_27_the_extra_volunteer_face_up_or_face_down() -> None:
    """Ruling 27: "The natural-8 extra Volunteer may be the face-up card or the next face-down
    card of the same deck." """
    pos = base(2)
    face_up(pos, "Cuddy")
    far_apart(pos, ("Red", "vol_mb_thieves"))
    turn_of(pos, "Red", stopped=True)
    s = load(pos)
    act(s, "recruit_here")
    act(s, "take_face_up", volunteer("Cuddy"))
    scripted(s, [8], belows=[0] * 8)
    act(s, "charm_volunteer")
    while top(s)[0] == "luggage_path":
        s.apply(legal(s)[0])
    assert volunteer("Cuddy") in s.hand[0]
    assert {"take_face_up", "turn_over"} <= verbs(s)
    assert {a.x for a in legal(s) if a.verb == "take_face_up"} == set(s.vol_up[1][-1:])


def test_ruling_33_spells_one_to_four_start_the_run_at_once() -> None:
    """Ruling 33: "For spells 1-4 the run must start at once, with at least one Runner." """
    pos = base(2, guilds=BOTH)
    give(pos, "Red", volunteer=["Cuddy", "Angua"])
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    assert top(s)[0] == "run" and verbs(s) == {"add_runner"}
    act(s, "add_runner", volunteer("Cuddy"), -1)
    assert "choose_route" in verbs(s) and "end_turn" not in verbs(s)


def test_ruling_41_every_runner_lost_new_run_from_where_the_piece_stands() -> None:
    """Ruling 41: "If every Runner is lost, the Great Spell stays with the player. On a later
    turn a new run may start from wherever their piece stands (ruling 34)." """
    pos = base(2, guilds=BOTH)
    set_run(pos, "Red", RED_SPELLS[0], tried=0)
    give(pos, "Red", volunteer=["Cuddy", "Angua"])
    here = street_next_to("bridge_brass")
    far_apart(pos, ("Red", here))
    s = load(pos)
    spell = SPELL_COLOURS.index(RED_SPELLS[0])
    act(s, "new_run", spell)
    assert top(s)[:4] == ("run", 0, spell, tile(here))


# --- Money, Dragons, the Luggage (rulings 64, 74, 75, 82) -------------------------------------
def test_ruling_64_the_bank_never_runs_out() -> None:
    """Ruling 64: "The Bank never runs out; the coins in the box are not a limit." (The box
    holds 56 one-dollar and 39 five-dollar coins: $251.)"""
    house = TILES[GUILD_HOUSES[0]].id
    pos = base(2, guilds=BOTH)
    far_apart(pos, ("Red", street_next_to(house)))
    set_dollars(pos, "Red", 300)
    set_dollars(pos, "Blue", 300)
    s = load(pos)
    walk(s, house)
    act(s, "collect_pay")
    assert s.dollars[0] == 303


def fight(red: list[str], blue: list[str], rolls: list[int], active: str = "Red") -> State:
    """``active`` fights Little Smokejaw (Toughness 12, Brawl 6) with Red's ``red`` and Blue's
    ``blue`` Volunteers."""
    pos = base(2, guilds=BOTH)
    place_dragon(pos, "fools", "Little Smokejaw")
    give(pos, "Red", volunteer=red)
    give(pos, "Blue", volunteer=blue)
    turn_of(pos, active)
    s = load(pos)
    scripted(s, rolls)
    act(s, "fight_dragon", QUADRANTS.index("fools"))
    for colour in (active, "Blue" if active == "Red" else "Red"):
        k = ("Red", "Blue").index(colour)
        for v in red if colour == "Red" else blue:
            if volunteer(v) in s.hand[k] and top(s)[0] == "dragon" and s.to_move == k:
                act(s, "send_fighter", volunteer(v), -1)  # (a single option is taken at once)
        if top(s)[0] == "dragon" and s.to_move == k and "no_more_fighters" in verbs(s):
            act(s, "no_more_fighters")
    return s


def test_ruling_74_the_owner_of_the_highest_brawl_rolls_ties_from_the_active_player() -> None:
    """Ruling 74: "The owner of the highest-Brawl Volunteer rolls. If two are tied, the one
    earliest in seat order from the active player rolls." """
    s = fight(["Cuddy"], ["Hrun the Barbarian"], [7])  # Brawl 3 and 5
    assert any(line.startswith("Blue rolls for the fighters") for line in s.log())
    s = fight(["Conina"], ["Hrun the Barbarian"], [7])  # 5 and 5: Red is active
    assert any(line.startswith("Red rolls for the fighters") for line in s.log())
    s = fight(["Conina"], ["Hrun the Barbarian"], [7], active="Blue")
    assert any(line.startswith("Blue rolls for the fighters") for line in s.log())


def test_ruling_75_a_dollar_per_volunteer_in_a_winning_fight() -> None:
    """Ruling 75: "The Patrician's dollar is paid to each owner for each of their Volunteers in
    a winning fight." """
    s = fight(["Cuddy", "Conina"], ["Hrun the Barbarian"], [2])  # 13 + 2 >= 12
    assert s.dragons[3] == -1
    assert (s.dollars[0], s.dollars[1]) == (7, 6)
    s = fight(["Cuddy", "Conina"], ["Hrun the Barbarian"], [1, 7, 7, 7])  # a natural 1
    assert s.dragons[3] >= 0 and (s.dollars[0], s.dollars[1]) == (5, 5)


def test_ruling_82_never_placed_on_the_luggage() -> None:
    """Ruling 82: "A player who would be placed on the Luggage's tile goes to the nearest free
    tile instead." """
    pos = base(2)
    luggage = TILES[LUGGAGE_TRACK.before[3]].id
    pos["luggage"] = luggage
    far_apart(pos, ("Red", street_next_to(luggage)))
    give(pos, "Red", scroll="Inadvertent Translocation")
    s = load(pos)
    landed = harm.place(s, 0, tile(luggage))
    assert landed != tile(luggage) and TILES[landed].kind != "start_gate"
    assert board.WALK[tile(luggage)][landed] == 1
    s = load(pos)  # Red back beside the Luggage, casting
    scripted(s, [8])
    translocation = next(c.index for c in SCROLLS if c.name == "Inadvertent Translocation")
    act(s, "cast", translocation)
    targets = {a.y for a in legal(s) if a.verb == "cast_to_tile"}
    assert targets and tile(luggage) not in targets


# --- Bots and the engine (rulings 83-85) ------------------------------------------------------
def test_ruling_83_bots_choose_legal_actions_from_what_they_may_see() -> None:
    """Ruling 83: "Bots react in ruling 51's order, and see only what rulings 69-70 make
    public plus their own cards." The heuristic and random bots choose a legal action, and the
    same one when only another seat's hidden hand differs."""
    for name in ("heuristic", "random"):
        bot = make_bot(name, "guards-guards")
        s = load(base(3, clear=False))
        for step in range(40):
            if s.outcome() is not None:
                break
            seat_to_move = s.to_move
            assert seat_to_move is not None
            acts = s.legal_actions()
            choice = bot.choose(Observation(s, seat_to_move), acts, Rng(step))
            assert choice in acts
            s.apply(choice)
    for seed in (1, 2, 3):
        pos = base(3, seed=seed, clear=False)
        blue_card = seat(pos, "Blue")["hand"][0]
        deck = pos["volunteers"][[d for d in pos["volunteers"]
                                  if blue_card in [v.name for v in VOLUNTEERS
                                                   if v.deck == ["lords_ladies", "man_beast",
                                                                 "shades_shadows"].index(d)]][0]]
        other = deck["face_down"][len(deck["face_down"]) // 2]
        swapped = load(pos).position()
        i = swapped["seats"][1]["hand"].index(blue_card)
        swapped["seats"][1]["hand"][i] = other
        down = swapped["volunteers"][[d for d in swapped["volunteers"]
                                      if other in swapped["volunteers"][d]["face_down"]][0]]
        down["face_down"][down["face_down"].index(other)] = blue_card
        a, b = load(pos), load(swapped)
        assert a.position() != b.position()
        assert a.view(0) == b.view(0)
        for name in ("heuristic", "random"):
            bot = make_bot(name, "guards-guards")
            assert bot.choose(Observation(a, 0), a.legal_actions(), Rng(seed)) == \
                bot.choose(Observation(b, 0), b.legal_actions(), Rng(seed))


def play(seed: int, steps: int = 60) -> str:
    s = GAME.new_game(3, seed)
    for k in range(steps):
        if s.outcome() is not None:
            break
        acts = s.legal_actions()
        s.apply(acts[(k * 7) % len(acts)])
    return s.digest()


def test_ruling_84_every_random_pick_comes_from_the_seeded_source() -> None:
    """Ruling 84: "Every random pick (dice, shuffles, "at random" choices) comes from the game's
    seeded random source." The same seed and actions replay to the same digest; another seed
    does not."""
    assert play(11) == play(11)
    assert play(11) != play(12)
    pos = base(3, seed=4, clear=False)
    assert load(pos).digest() == load(pos).digest()


def test_ruling_85_the_affected_player_chooses() -> None:
    """Ruling 85: "Where an effect leaves a choice open, the affected player chooses." The
    runner's owner picks which Runner faces an Ambush (Ambush: "The player making the Spell Run
    can select which one of his Runners will face the Saboteur")."""
    pos = base(2, guilds=BOTH)
    gate_q = QUADRANTS[GUILD_CARDS[1].guild]
    plant(pos, "Blue", gate_q, "Withel")
    give(pos, "Red", volunteer=["Cuddy", "Angua"])
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    launch(s, "Cuddy", "Angua")
    while top(s)[0] == "sabotage" and top(s)[4] != QUADRANTS.index(gate_q):
        act(s, "let_pass")
    assert s.to_move == 1
    act(s, "ambush")
    assert top(s)[:3] == ("sabotage", 0, "defend") and s.to_move == 0
    assert {a.x for a in legal(s)} == {volunteer("Cuddy"), volunteer("Angua")}


# --- rulebook sections ------------------------------------------------------------------------
def test_rulebook_game_objectives_five_spells_of_the_card_in_any_order() -> None:
    """Game Objectives: "Each player will be assigned a unique selection of 5 of the 8 Great
    Spells (shown on their Guild Card) which they must collect and return in any order"."""
    assert all(len(set(g.spells)) == 5 for g in GUILD_CARDS)
    assert len({g.spells for g in GUILD_CARDS}) == len(GUILD_CARDS)
    card = next(g for g in GUILD_CARDS if g.name == RED_CARD)
    for colour in SPELL_COLOURS:
        pos = base(2, guilds=BOTH)
        give(pos, "Red", volunteer="Cuddy")
        seat(pos, "Red")["returned"] = [RED_SPELLS[2]] if colour != RED_SPELLS[2] else []
        s = load(on_spell_tile(pos, colour))
        mine = SPELL_COLOURS.index(colour) in card.spells
        assert ("collect_spell" in verbs(s)) == mine


def test_rulebook_winning_the_game_short_game_by_spells_then_dollars() -> None:
    """Winning the Game, Short Game: "stopping play at any time and judging the winner by;
    firstly the number of Spells collected; and then ... by the amount of Dollars"."""
    pos = base(3, rounds=1)
    pos["turn"] = 3
    turn_of(pos, "Black")
    seat(pos, "Blue")["returned"] = [seat(pos, "Blue")["returned"] or
                                     SPELL_COLOURS[GUILD_CARDS[[g.name for g in GUILD_CARDS]
                                                   .index(seat(pos, "Blue")["guild_card"])]
                                                   .spells[0]]]
    set_dollars(pos, "Red", 50)
    far_apart(pos, ("Black", street_next_to("bridge_brass")))
    s = load(pos)
    act(s, "end_movement")
    assert s.result is not None and s.result.winners == (1,)
    assert s.result.details["ranking"][:2] == [[1], [0]]


def test_rulebook_set_up_board_decks_and_starting_hands() -> None:
    """Set Up: the Luggage on its start, the Dragons face down, the Fate deck, 2 piles of 10
    Items and of 10 Scrolls, and "Deal 1 card from the Man & Beast deck and 1 from the Lords &
    Ladies deck to each player"; "Lift the top card of each deck and place it face up"."""
    pos = unset(4, seed=9)
    assert pos["luggage"] == TILES[LUGGAGE_TRACK.start].id
    assert sorted(pos["dragons"]["pile"]) == sorted(d.name for d in DRAGONS)
    assert sorted(len(cards) for cards in pos["decks"].values()) == [10, 10, 10, 10]
    assert len(pos["fate"]["deck"]) == 36
    s = load(pos)
    while top(s)[0] == "setup":
        s.apply(legal(s)[0])
    for p in range(4):
        assert sorted(VOLUNTEERS[v].deck for v in s.hand[p]) == [0, 1]
    assert all(len(s.vol_up[d]) == 1 for d in range(3))


def test_rulebook_beginning_the_game_pieces_on_their_start_gates() -> None:
    """Beginning the Game: "Each player places their playing piece on their chosen Start Gate
    in the centre of the playing board."; the player rolling highest begins."""
    s = load(unset(5, seed=3))
    first = top(s)[1]
    while top(s)[0] == "setup":
        s.apply(legal(s)[-1])
    assert all(s.pos[p] == s.gate[p] and TILES[s.gate[p]].kind == "start_gate"
               for p in range(5))
    assert s.to_move == first


def test_rulebook_recruiting_volunteers_worked_example_bribe_and_x() -> None:
    """Recruiting Volunteers, To 'Bribe' a Volunteer: "Return dollar coins equal to the
    Volunteer's Bribe value to the Bank"; "Volunteers marked with a Bribe value 'X' cannot be
    bribed"."""
    for name, bribable in (("Cuddy", True), ("Angua", False)):
        pos = base(2)
        face_up(pos, name)
        far_apart(pos, ("Red", "vol_mb_thieves" if name == "Cuddy" else "vol_ss_thieves"))
        turn_of(pos, "Red", stopped=True)
        s = load(pos)
        act(s, "recruit_here")
        act(s, "take_face_up", volunteer(name))
        assert ("bribe_volunteer" in verbs(s)) == bribable
        if bribable:
            scripted(s, [], belows=[0] * 8)
            act(s, "bribe_volunteer")
            assert volunteer(name) in s.hand[0] and s.dollars[0] == 2


def test_rulebook_collecting_the_great_spells_needs_a_volunteer() -> None:
    """Collecting the Great Spells: "Have they got at least one Volunteer to take the Spell back
    to their Starting Gate"; a Dragon in the quadrant blocks it (Effects of Dragons)."""
    pos = base(2, guilds=BOTH)
    s = load(on_spell_tile(pos))
    assert "collect_spell" not in verbs(s)
    give(pos, "Red", volunteer="Cuddy")
    assert "collect_spell" in verbs(load(pos))
    q = QUADRANTS[TILES[tile(f"spell_{RED_SPELLS[0]}")].quadrant]
    place_dragon(pos, q, "The Noble Dragon")
    assert "collect_spell" not in verbs(load(pos))


def test_rulebook_making_a_spell_run_at_most_four_runners_at_first() -> None:
    """Making a Spell Run: "Select the Volunteer/s they are sending back as Runners with the
    Great Spell, (initially up to a maximum of 4)"."""
    pos = base(2, guilds=BOTH)
    five = ["Cuddy", "Angua", "Conina", "Dorfl", "Detritus"]
    give(pos, "Red", volunteer=five)
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    scripted(s, [1])  # the challenge at the gate fails
    for name in five[:4]:
        assert "add_runner" in verbs(s)
        act(s, "add_runner", volunteer(name), -1)
    while top(s)[0] == "run":
        assert "add_runner" not in verbs(s)
        s.apply(next(a for a in legal(s) if a.verb == "choose_route"))
    run = s.run[0]
    assert run is not None and len(run.at_gate) == 4 and volunteer("Detritus") in s.hand[0]


def test_rulebook_returning_the_final_spell_collect_ends_the_turn() -> None:
    """Returning the Final Spell: "To collect the last of the Great Spells, a player must land
    on the Spell tile as before, but this time the player's turn ends"; "Players do not send
    Runners with the Final Spell"."""
    pos = base(2, guilds=BOTH)
    seat(pos, "Red")["returned"] = RED_SPELLS[1:]
    give(pos, "Red", volunteer="Cuddy")
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    run = s.run[0]
    assert run is not None and run.final and not run.runners and not run.at_gate
    assert s.current == 1 and volunteer("Cuddy") in s.hand[0]


def test_rulebook_casting_scrolls_magic_roll_against_the_target() -> None:
    """Casting Scrolls: "Players roll the die for their magic Roll and add the result to the
    current Magic Skill Level ... If the total is equal to or greater than the Target Value of
    the Scroll they have successfully cast the Scroll"; a failed one "is kept by the player".
    Seven-League Stride (Magic 4): +2 movement."""
    stride = next(c.index for c in SCROLLS if c.name == "Seven-League Stride")
    for roll, cast in ((3, True), (2, False)):
        pos = base(2)
        far_apart(pos, ("Red", street_next_to("bridge_brass")))
        set_level(pos, "Red", "magic", 1)
        give(pos, "Red", scroll="Seven-League Stride")
        s = load(pos)
        scripted(s, [roll])
        act(s, "cast", stride)
        assert (stride in s.scrolls[0]) != cast
        assert any(e.kind == "move" and e.a == 2 for e in s.effects[0]) == cast


def test_rulebook_elucidated_brethren_only_brethren_are_planted() -> None:
    """Elucidated Brethren: "Only Volunteers carrying the 'Mark of the Brethren' may be planted
    as Saboteurs"; Planting a Saboteur: a Guild test of 5 or higher."""
    pos = base(2)
    far_apart(pos, ("Red", street_next_to("bridge_brass")))
    give(pos, "Red", volunteer=["Withel", "Cuddy"])
    set_level(pos, "Red", "guild", 2)
    s = load(pos)
    scripted(s, [3])
    act(s, "try_plant")
    planted = {a.x for a in legal(s) if a.verb == "plant"}
    assert planted == {volunteer("Withel")}


def test_rulebook_sabotage_two_saboteurs_guild_tests_highest_goes() -> None:
    """Sabotage: "If there is more than one Saboteur active in the same Quadrant, all players
    with a Saboteur in the Quadrant must make a Guild Test. Only the Player with the Highest
    Result may attempt to sabotage the Spell Run." """
    pos = base(3, guilds=(RED_CARD,))
    gate_q = QUADRANTS[GUILD_CARDS[1].guild]
    plant(pos, "Blue", gate_q, "Withel")
    plant(pos, "Black", gate_q, "Schleppel")
    set_level(pos, "Blue", "guild", 3)
    set_level(pos, "Black", "guild", 3)
    give(pos, "Red", volunteer="Rincewind")  # Loyalty 1
    s = load(on_spell_tile(pos))
    act(s, "collect_spell")
    launch(s, "Rincewind")
    while top(s)[0] == "sabotage" and top(s)[4] != QUADRANTS.index(gate_q):
        act(s, "let_pass")
    act(s, "alter_allegiance")
    scripted(s, [2, 5, 2], belows=[0])  # Blue 5, Black 8: Black goes; Loyalty 1 + 2 < 7
    act(s, "alter_allegiance")
    assert volunteer("Rincewind") in s.hand[2]


def test_rulebook_the_dragons_win_four_dragons_final_fight_lost() -> None:
    """The Dragons Win!: "If ... there is a Dragon in each of the four quadrants
    simultaneously, the players will have one chance to fight the final Dragon in the usual
    way. If they fail the game ends. - All players lose!" """
    pos = base(2, guilds=BOTH)
    for q, d in zip(QUADRANTS[:3], ["The Noble Dragon", "Old Sulphurwing",
                                    "The Scourge of the Shades"], strict=True):
        place_dragon(pos, q, d)
    give(pos, "Red", volunteer=["Withel", "Schleppel", "Reg Shoe"])
    give(pos, "Blue", volunteer="Cuddy")
    s = load(pos)
    scripted(s, [1, 7, 7, 7])  # the fight: a natural 1; the Toughness tests
    act(s, "summon_dragon", 3, volunteer("Withel"))
    while s.result is None and top(s)[0] == "dragon":
        s.apply(legal(s)[0])
    assert s.result is not None and s.result.winners == ()


def test_rulebook_city_watch_house_charm_seven_or_bail() -> None:
    """City Watch House: "On their next turn they can attempt to either talk their way out by
    making a 'Charm Roll of 7' or higher, or failing that pay bail of 2 dollars." """
    for roll, out in ((3, True), (2, False)):
        pos = base(2)
        watch = TILES[WATCH_HOUSES[1]].id
        far_apart(pos, ("Red", watch))
        seat(pos, "Red")["jailed"] = True
        set_level(pos, "Red", "charm", 4)
        pos["stack"] = [["turn", 0, 0, tile(watch), 0]]
        s = load(pos)
        scripted(s, [roll])
        act(s, "jail_charm")
        if out:
            assert "move_to" in verbs(s) and s.dollars[0] == 5
        else:
            assert "jail_bail" in verbs(s)
            act(s, "jail_bail")
            assert "move_to" in verbs(s) and s.dollars[0] == 3


def test_rulebook_wanted_volunteers_bribe_four_reward_five() -> None:
    """Wanted Volunteers: "This Volunteer has a bribe value of 4 which means he can be turned
    in at a Watch House for a reward of 5 dollars." """
    hrun = volunteer("Hrun the Barbarian")
    assert VOLUNTEERS[hrun].wanted and VOLUNTEERS[hrun].bribe == 4
    watch = TILES[WATCH_HOUSES[0]].id
    pos = base(2)
    far_apart(pos, ("Red", street_next_to(watch)))
    give(pos, "Red", volunteer="Hrun the Barbarian")
    s = load(pos)
    walk(s, watch)
    act(s, "turn_in", hrun)
    assert s.dollars[0] == 10 and hrun in s.vol_discard[1]


def test_rulebook_faq_move_through_but_not_onto_an_occupied_tile() -> None:
    """FAQ: "Can I move through a tile currently occupied by another player?" Yes; "Players
    cannot occupy the same tile, with the exceptions of Bridges, Hospitals and the City Watch
    Houses"."""
    streets = [t for t in TILES if t.kind == "street"]
    a, b = next((x, y) for x in streets for y in streets if y.index in board.NEIGHBOURS[x.index])
    pos = base(2)
    far_apart(pos, ("Red", a.id), ("Blue", b.id))
    s = load(pos)
    assert "move_to" in {x.verb for x in legal(s) if x.x == b.index}
    walk(s, b.id)
    while top(s)[0] == "guild_ability":
        act(s, "let_mover_pass")
    assert "end_movement" not in verbs(s)
    put(pos, "Blue", "bridge_brass")
    far_apart(pos, ("Red", street_next_to("bridge_brass")), ("Blue", "bridge_brass"))
    s = load(pos)
    walk(s, "bridge_brass")
    while top(s)[0] == "guild_ability":
        act(s, "let_mover_pass")
    assert "end_movement" in verbs(s)


# --- the meta-tests ---------------------------------------------------------------------------
def _tests() -> list[tuple[str, str]]:
    """(name, docstring) of every test function in tests/games/guards_guards/test_gg_*.py."""
    out = []
    for f in sorted(glob.glob(str(TESTS / "test_gg_*.py"))):
        for node in ast.walk(ast.parse(Path(f).read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append((node.name, ast.get_docstring(node) or ""))
    return out


def test_every_ruling_has_a_test() -> None:
    """Each of the 85 rulings is named by some test: ``ruling_N`` in its name or "ruling N" in
    its docstring."""
    tests = _tests()
    missing = []
    for n in range(1, 86):
        name = re.compile(rf"ruling_{n}(?!\d)")
        doc = re.compile(rf"(?<!citywatch )\bruling {n}(?!\d)", re.IGNORECASE)
        if not any(name.search(t) or doc.search(d) for t, d in tests):
            missing.append(n)
    assert not missing, f"rulings without a test: {missing}"


SECTIONS = ["GAME OBJECTIVES", "WINNING THE GAME", "SET UP", "BEGINNING THE GAME",
            "A PLAYER'S TURN", "RECRUITING VOLUNTEERS", "INFECTED VOLUNTEERS",
            "COLLECTING THE GREAT SPELLS", "MAKING A SPELL RUN", "THE WIZARDS' CHALLENGES",
            "RETURNING THE FINAL SPELL", "A PLAYER'S GUILD HOUSE", "TEMPLES AND SHOPS",
            "CASTING SCROLLS", "GUILD ABILITIES", "ELUCIDATED BRETHREN", "PLANTING A SABOTEUR",
            "SABOTAGE", "ALTER ALLEGIANCE", "AMBUSH", "COMBAT RULES", "DRAGONS",
            "THE DRAGONS WIN", "THE LUGGAGE", "THE POX", "HOSPITALS", "CITY WATCH HOUSE",
            "WANTED VOLUNTEERS", "FAQ"]


def test_every_rulebook_section_has_a_test() -> None:
    """Each section heading of the rulebook is named by some test: "rulebook_<section words>"
    in its name, or the section's name in its docstring."""
    tests = _tests()
    missing = []
    for section in SECTIONS:
        words = re.sub(r"[^a-z ]", "", section.lower()).split()
        key = "rulebook_" + "_".join(words)
        if not any(key in t or section.lower() in d.lower() for t, d in tests):
            missing.append(section)
    assert not missing, f"rulebook sections without a test: {missing}"


def test_ruling_18_the_arrested_player_chooses_between_equally_near_watch_houses() -> None:
    """Ruling 18: "'Nearest' Hospital, Watch House or deck is counted in walking steps from the
    player's tile ... If two are equally near, the player concerned chooses." (Mistaken
    Identity: "go to the nearest Watch House".)"""
    ties = [t for t in range(len(TILES)) if len(board.nearest(t, WATCH_HOUSES)) == 2]
    assert ties, "the board has tiles equally near both Watch Houses (two bridges)"
    pos = far_apart(base(), ("Red", TILES[ties[0]].id))
    s = load(fate_drawn(pos, "Red", "Mistaken Identity"))
    options = legal(s)
    assert s.to_move == 0 and {a.verb for a in options} == {"taken_to"}
    assert sorted(a.x for a in options) == sorted(WATCH_HOUSES)
    s.apply(options[1])
    assert s.pos[0] == options[1].x and s.jailed[0]
    # one nearer Watch House: no question
    near = next(t for t in range(len(TILES)) if len(board.nearest(t, WATCH_HOUSES)) == 1
                and TILES[t].kind == "street" and t not in ties)
    pos = far_apart(base(), ("Red", TILES[near].id))
    s = load(fate_drawn(pos, "Red", "Mistaken Identity"))
    assert s.pos[0] == board.nearest(near, WATCH_HOUSES)[0] and s.jailed[0]
    assert "taken_to" not in verbs(s)


def test_citywatch_ruling_23_only_a_holder_is_asked_and_the_question_names_no_card() -> None:
    """Citywatch ruling 23: a protection in hand (Nanny Ogg's Cure All) is offered only to a
    player who holds it; the question shows the others that something is held, never what."""
    for holds in (True, False):
        pos = base(3)
        if holds:
            give(pos, "Blue", item="Nanny Ogg's Cure All")
        s = load(pos)
        harm.send_to_hospital(s, 1, "a test mishap")
        s._legal = None
        if holds:
            assert s.to_move == 1 and verbs(s) == {"use_cure_all", "go_to_hospital"}
            for watcher in (0, 2):
                shown = str(s.view(watcher))
                assert "Cure All" not in shown and "a test mishap" in shown
        else:
            assert s.to_move == 0 and s.pos[1] in HOSPITALS


def test_ruling_3_a_card_whose_two_gates_are_taken_cannot_be_chosen() -> None:
    """What Players Need, ruling 3: "A card whose gates are both taken cannot be chosen." Once
    the red and green gates are taken, The Housebreaker (red and green) is no longer offered;
    The Jester (green and yellow) still is, on yellow only."""
    cutpurse, housebreaker, clown, jester = (
        next(k for k, g in enumerate(GUILD_CARDS) if g.name == name)
        for name in ("The Cutpurse", "The Housebreaker", "The Clown", "The Jester"))
    red, green = GUILD_CARDS[cutpurse].gates
    yellow = next(g for g in GUILD_CARDS[jester].gates if g != green)
    assert set(GUILD_CARDS[housebreaker].gates) == {red, green}
    s = GAME.new_game(4, 2)
    assert {a.y for a in legal(s) if a.x == housebreaker} == {red, green}
    for card, gate in ((cutpurse, red), (clown, green)):
        s.apply(next(a for a in legal(s) if (a.x, a.y) == (card, gate)))
    assert top(s)[0] == "setup"
    assert not any(a.x == housebreaker for a in legal(s))
    assert {a.y for a in legal(s) if a.x == jester} == {yellow}
