"""The twelve random events (rulebook, back page) and their limits: rulings 10, 18, 20-24
and decisions D10-D14. Every test starts from a position; the dice come from the
position's "rng" value and every roll a test relies on is checked in the log."""

from __future__ import annotations

from typing import Any

from helpers import (
    actions,
    area,
    blank,
    count,
    do,
    give,
    minions,
    money,
    next_events,
    play,
    rng_giving,
    set_personalities,
    short_pile,
    start,
)

from citywatch.games.ankh_morpork.state import AnkhMorporkState

EVENT_CARD = "Professor of Recent Runes"  # random event, then "draw two cards", play another


def event_position(
    event: str, *rolls: int | None, players: int = 4, current: str = "Red"
) -> dict[str, Any]:
    """``current`` holds an event card (and Groat); ``event`` is next; the die gives ``rolls``."""
    pos = blank(players, current)
    give(pos, current, EVENT_CARD, "Groat")
    next_events(pos, event)
    pos["rng"] = rng_giving(*rolls)
    return pos


def run_event(pos: dict[str, Any]) -> AnkhMorporkState:
    """Play the event card; draw the event if City Area powers made that a choice (D2)."""
    s = start(pos)
    play(s, EVENT_CARD)
    if "Draw a random event" in actions(s):
        do(s, "Draw a random event")
    return s


def dice(s: AnkhMorporkState) -> list[str]:
    return [line for line in s.log() if line.startswith("The die shows")]


def board(s: AnkhMorporkState, name: str) -> dict[str, Any]:
    areas: dict[str, Any] = s.position()["areas"]
    return dict(areas[name])


# --- The Dragon ----------------------------------------------------------------------------------
def test_dragon_removes_every_piece_building_and_trouble_in_the_rolled_area() -> None:
    """The Dragon (rulebook; D14): all minions of every owner, trolls, demons, the building
    and the trouble marker go; the City Area card returns to the display."""
    pos = event_position("The Dragon", 8)
    minions(pos, "Dimwell", Red=1, Blue=2)
    area(pos, "Dimwell", trolls=1, demons=1, trouble=True, building="Green")
    minions(pos, "Longwall", Blue=1)
    area(pos, "Longwall", building="Blue", trouble=True)
    s = run_event(pos)
    assert dice(s) == ["The die shows 8: Dimwell."]
    assert board(s, "Dimwell") == {"minions": {}, "trolls": 0, "demons": 0, "trouble": False,
                                   "building": None, "card": "display"}
    longwall = board(s, "Longwall")
    assert longwall["minions"] == {"Blue": 1}
    assert longwall["building"] == "Blue" and longwall["trouble"]
    assert s.to_move == 0 and "Do the text of Professor of Recent Runes" in actions(s)


# --- Flood ---------------------------------------------------------------------------------------
def test_flood_rolls_away_from_the_river_flood_nothing() -> None:
    """Ruling 21: only rolled areas that border the river flood (Dragon's Landing and
    The Hippo do not)."""
    pos = event_position("Flood", 3, 6)
    minions(pos, "Dragon's Landing", Red=1, Blue=1)
    minions(pos, "The Hippo", Green=2)
    s = run_event(pos)
    assert dice(s) == ["The die shows 3: Dragon's Landing.", "The die shows 6: The Hippo."]
    assert "Neither area borders the river: nothing floods." in s.log()
    assert count(s, "Red", "Dragon's Landing") == 1 and count(s, "Blue", "Dragon's Landing") == 1
    assert count(s, "Green", "The Hippo") == 2
    assert s.to_move == 0 and "Do the text of Professor of Recent Runes" in actions(s)


def test_flood_both_rolled_areas_are_forbidden_destinations() -> None:
    """Ruling 21: Small Gods floods, Dragon's Landing (rolled, off the river) does not, but
    neither may receive a minion fleeing the flood."""
    pos = event_position("Flood", 4, 3)
    minions(pos, "Small Gods", Red=1)
    minions(pos, "Dragon's Landing", Red=1)
    s = run_event(pos)
    assert dice(s) == ["The die shows 4: Small Gods.", "The die shows 3: Dragon's Landing."]
    assert "Flooded: Small Gods." in s.log()
    assert s.to_move == 0
    assert sorted(actions(s)) == sorted(
        f"Move Red's minion from Small Gods to {b}"
        for b in ("Unreal Estate", "The Scours", "The Hippo", "Isle of Gods")
    )
    do(s, "Move Red's minion from Small Gods to The Hippo")
    assert count(s, "Red", "Small Gods") == 0 and count(s, "Red", "The Hippo") == 1
    assert count(s, "Red", "Dragon's Landing") == 1  # not flooded: it stays


def test_flood_players_move_in_turn_order_from_the_active_player() -> None:
    """Ruling 21: starting with the active player (Green), in turn order, each player moves
    each of their minions out of the flooded areas; buildings, trolls and demons stay."""
    pos = event_position("Flood", 4, 5, current="Green")
    minions(pos, "Small Gods", Red=1, Blue=1, Green=1, Yellow=1)
    minions(pos, "The Scours", Yellow=1)
    area(pos, "Small Gods", building="Blue")
    area(pos, "The Scours", trolls=1, demons=1, trouble=True)
    s = run_event(pos)
    assert dice(s) == ["The die shows 4: Small Gods.", "The die shows 5: The Scours."]
    order = []
    while s.to_move is not None and s.legal_actions()[0].verb == "move_minion":
        order.append(s.colour(s.to_move))
        moves = actions(s)
        assert all(m.split(" to ")[1] not in ("Small Gods", "The Scours") for m in moves)
        do(s, moves[0])
    assert order == ["Green", "Yellow", "Yellow", "Red", "Blue"]
    for name in ("Small Gods", "The Scours"):
        assert board(s, name)["minions"] == {}
    assert board(s, "Small Gods")["building"] == "Blue"
    assert board(s, "The Scours")["trolls"] == 1 and board(s, "The Scours")["demons"] == 1
    assert s.to_move == 2  # back to Green's card


# --- Fire ----------------------------------------------------------------------------------------
def test_fire_spreads_to_an_adjacent_building_and_stops_at_one_not_adjacent() -> None:
    """Ruling 22: Dimwell burns, then Longwall (adjacent, built) burns; Unreal Estate is
    built but not adjacent to Longwall, so the fire goes out there."""
    pos = event_position("Fire", 8, 9, 2)
    area(pos, "Dimwell", building="Red")
    area(pos, "Longwall", building="Blue")
    area(pos, "Unreal Estate", building="Green")
    s = run_event(pos)
    assert dice(s) == ["The die shows 8: Dimwell.", "The die shows 9: Longwall.",
                       "The die shows 2: Unreal Estate."]
    assert board(s, "Dimwell")["building"] is None and board(s, "Dimwell")["card"] == "display"
    assert board(s, "Longwall")["building"] is None
    assert board(s, "Unreal Estate")["building"] == "Green"
    assert "Unreal Estate is not next to Longwall: the fire goes out." in s.log()


def test_fire_stops_at_an_adjacent_area_without_a_building() -> None:
    """Ruling 22: after Dimwell burns the die shows Longwall, which has no building: the
    fire stops, and the building in Isle of Gods (next to Longwall) is never touched."""
    pos = event_position("Fire", 8, 9)
    area(pos, "Dimwell", building="Red")
    area(pos, "Isle of Gods", building="Blue")
    s = run_event(pos)
    assert dice(s) == ["The die shows 8: Dimwell.", "The die shows 9: Longwall."]
    assert board(s, "Dimwell")["building"] is None
    assert board(s, "Isle of Gods")["building"] == "Blue"
    assert "There is no building there: the fire goes out." in s.log()


def test_fire_in_an_area_without_a_building_does_nothing() -> None:
    """Fire (rulebook): no building in the rolled area, no fire; one die only."""
    pos = event_position("Fire", 8)
    area(pos, "Longwall", building="Blue")
    minions(pos, "Dimwell", Red=1)
    s = run_event(pos)
    assert dice(s) == ["The die shows 8: Dimwell."]
    assert board(s, "Longwall")["building"] == "Blue"
    assert count(s, "Red", "Dimwell") == 1


def test_fire_goes_on_from_a_building_saved_by_small_gods() -> None:
    """D11 and ruling 18: Blue pays $3 to save the Dimwell building; the fire still
    reached Dimwell, so it spreads to the adjacent Longwall building."""
    pos = event_position("Fire", 8, 9, 1)
    area(pos, "Dimwell", building="Blue")
    area(pos, "Small Gods", building="Blue")
    area(pos, "Longwall", building="Green")
    s = run_event(pos)
    assert s.to_move == 1
    assert actions(s) == ["Pay $3 (Small Gods) to ignore the event for this piece",
                          "Play no interrupt"]
    do(s, "Pay $3 (Small Gods)")
    assert dice(s) == ["The die shows 8: Dimwell.", "The die shows 9: Longwall.",
                       "The die shows 1: Dolly Sisters."]
    assert money(s, "Blue") == 7
    assert board(s, "Dimwell")["building"] == "Blue"
    assert board(s, "Longwall")["building"] is None


# --- Fog -----------------------------------------------------------------------------------------
def test_fog_discards_the_top_five_cards_of_the_draw_pile() -> None:
    """Fog (rulebook): the top five cards of the draw pile go to the discard pile."""
    pos = event_position("Fog")
    top = pos["draw_pile"][:5]
    rest = pos["draw_pile"][5:]
    s = run_event(pos)
    p = s.position()
    assert p["draw_pile"] == rest
    assert sorted(p["discard_pile"]) == sorted(top)
    assert s.outcome() is None


def test_fog_emptying_the_draw_pile_ends_the_game_and_vimes_wins() -> None:
    """Ruling 24: the game ends as soon as the draw pile is empty, Fog included;
    Commander Vimes (Red here) then wins."""
    pos = short_pile(event_position("Fog"), 4)
    minions(pos, "Nap Hill", Blue=3)  # Blue would win on points
    s = run_event(pos)
    assert s.position()["draw_pile"] == []
    result = s.outcome()
    assert result is not None
    assert (result.winners, result.reason) == ((0,), "deck")


def test_fog_emptying_the_draw_pile_without_vimes_is_scored_on_points() -> None:
    """Ruling 24: nobody holds Commander Vimes, so the deck-out is scored on points."""
    pos = short_pile(event_position("Fog"), 5)
    set_personalities(pos, Red="Lord Selachii", Blue="Lord Vetinari",
                      Green="Dragon King of Arms", Yellow="Lord Rust")
    minions(pos, "Nap Hill", Blue=3)
    s = run_event(pos)
    result = s.outcome()
    assert result is not None
    assert (result.winners, result.reason, result.points) == ((1,), "deck", (10, 25, 10, 10))


# --- Riots ---------------------------------------------------------------------------------------
TROUBLE_AREAS = ["Dolly Sisters", "Unreal Estate", "Dragon's Landing", "Small Gods",
                 "The Scours", "The Hippo", "The Shades", "Dimwell"]


def test_riots_with_seven_trouble_markers_do_nothing() -> None:
    """Riots (ruling 24): fewer than eight trouble markers, the game goes on."""
    pos = event_position("Riots")
    for name in TROUBLE_AREAS[:7]:
        area(pos, name, trouble=True)
    s = run_event(pos)
    assert s.outcome() is None
    assert "Only 7 trouble markers: the riots come to nothing." in s.log()
    assert sum(s.trouble) == 7


def test_riots_with_eight_markers_end_on_points_and_vimes_does_not_win_automatically() -> None:
    """Ruling 24: with 8 markers Riots ends the game at once, scored on points; Red holds
    Commander Vimes but Blue has more points, so Blue wins."""
    pos = event_position("Riots")
    for name in TROUBLE_AREAS:
        area(pos, name, trouble=True)
    minions(pos, "Nap Hill", Blue=1)
    s = run_event(pos)
    result = s.outcome()
    assert result is not None
    assert (result.winners, result.reason, result.points) == ((1,), "riots", (10, 15, 10, 10))
    assert s.to_move is None and s.legal_actions() == []


def test_riots_vimes_can_still_win_on_points() -> None:
    """Riots text: Commander Vimes does not win automatically but can win on points."""
    pos = event_position("Riots")
    for name in TROUBLE_AREAS:
        area(pos, name, trouble=True)
    minions(pos, "Nap Hill", Red=1)
    s = run_event(pos)
    result = s.outcome()
    assert result is not None
    assert (result.winners, result.reason) == ((0,), "riots")


# --- Explosion -----------------------------------------------------------------------------------
def test_explosion_removes_only_the_building_in_the_rolled_area() -> None:
    """Explosion (rulebook): the building goes, its card returns; minions and the
    neighbouring buildings stay."""
    pos = event_position("Explosion", 11)
    area(pos, "Seven Sleepers", building="Blue")
    minions(pos, "Seven Sleepers", Blue=1)
    area(pos, "Nap Hill", building="Red")
    s = run_event(pos)
    assert dice(s) == ["The die shows 11: Seven Sleepers."]
    sleepers = board(s, "Seven Sleepers")
    assert sleepers["building"] is None and sleepers["card"] == "display"
    assert sleepers["minions"] == {"Blue": 1}
    assert board(s, "Nap Hill")["building"] == "Red"


# --- Mysterious Murders --------------------------------------------------------------------------
def test_mysterious_murders_each_player_rolls_in_turn_order_and_removes_a_piece() -> None:
    """Mysterious Murders (ruling 9, D12): from the active player (Blue) in turn order each
    player rolls and removes a piece there, trouble or not; another player's piece (troll
    or demon included) must be chosen if there is one; only then one's own; nobody there,
    nothing happens."""
    pos = event_position("Mysterious Murders", 7, 9, 1, 12, current="Blue")
    minions(pos, "The Shades", Red=1, Blue=1, Green=1)  # Blue's roll: no trouble there
    minions(pos, "Longwall", Green=2)  # Green's roll: only their own
    minions(pos, "Dolly Sisters", Yellow=1)  # Yellow's roll: a troll and a demon too
    area(pos, "Dolly Sisters", trolls=1, demons=1, trouble=True)
    s = run_event(pos)
    assert s.to_move == 1
    assert actions(s) == ["Remove Red's minion from The Shades",
                          "Remove Green's minion from The Shades"]
    do(s, "Remove Red's minion from The Shades")
    assert s.to_move == 3  # Green had no choice: their own minion went
    assert actions(s) == ["Remove a troll from Dolly Sisters", "Remove a demon from Dolly Sisters"]
    do(s, "Remove a demon from Dolly Sisters")
    assert dice(s) == ["The die shows 7: The Shades for Blue.",
                       "The die shows 9: Longwall for Green.",
                       "The die shows 1: Dolly Sisters for Yellow.",
                       "The die shows 12: Nap Hill for Red."]
    assert "Nobody is there." in s.log()
    assert board(s, "The Shades")["minions"] == {"Blue": 1, "Green": 1}
    assert board(s, "Longwall")["minions"] == {"Green": 1}
    dolly = board(s, "Dolly Sisters")
    assert (dolly["minions"], dolly["trolls"], dolly["demons"]) == ({"Yellow": 1}, 1, 0)
    assert s.to_move == 1  # back to Blue's card


# --- Demons from the Dungeon Dimensions ----------------------------------------------------------
def test_demons_go_to_each_rolled_area_and_always_bring_trouble() -> None:
    """Demons (rulebook; ruling 7): a demon per roll, repeats allowed, and a trouble marker
    even in an empty area."""
    pos = event_position("Demons from the Dungeon Dimensions", 3, 3, 6, 9)
    minions(pos, "The Hippo", Red=1)
    area(pos, "Longwall", trouble=True)
    s = run_event(pos)
    assert dice(s) == ["The die shows 3: Dragon's Landing.", "The die shows 3: Dragon's Landing.",
                       "The die shows 6: The Hippo.", "The die shows 9: Longwall."]
    assert board(s, "Dragon's Landing")["demons"] == 2
    assert board(s, "The Hippo")["demons"] == 1 and board(s, "Longwall")["demons"] == 1
    for name in ("Dragon's Landing", "The Hippo", "Longwall"):
        assert board(s, name)["trouble"], name
    assert sum(s.trouble) == 3


def test_demons_are_finite() -> None:
    """Ruling 10: four demons; with two on the board only two more come."""
    pos = event_position("Demons from the Dungeon Dimensions", 3, 6, 9, 1)
    area(pos, "Nap Hill", demons=2, trouble=True)
    s = run_event(pos)
    assert len(dice(s)) == 4
    assert board(s, "Dragon's Landing")["demons"] == 1 and board(s, "The Hippo")["demons"] == 1
    assert board(s, "Longwall")["demons"] == 0 and board(s, "Dolly Sisters")["demons"] == 0
    assert not board(s, "Longwall")["trouble"]
    assert sum(s.demons) == 4
    assert s.log().count("No demons are left in the supply.") == 2


def test_small_gods_stops_a_demon_which_stays_in_the_supply() -> None:
    """Ruling 18, D10: Blue has a building in The Hippo and owns Small Gods; paying $3 stops
    that demon, which stays in the supply (so the last roll still finds one)."""
    pos = event_position("Demons from the Dungeon Dimensions", 6, 3, 3, 1)
    area(pos, "The Hippo", building="Blue")
    area(pos, "Small Gods", building="Blue")
    area(pos, "Nap Hill", demons=1)
    s = run_event(pos)
    assert s.to_move == 1
    assert actions(s) == ["Pay $3 (Small Gods) to ignore the event for this piece",
                          "Play no interrupt"]
    do(s, "Pay $3 (Small Gods)")
    assert money(s, "Blue") == 7
    assert board(s, "The Hippo")["demons"] == 0 and not board(s, "The Hippo")["trouble"]
    assert board(s, "Dragon's Landing")["demons"] == 2
    assert board(s, "Dolly Sisters")["demons"] == 1
    assert sum(s.demons) == 4


def test_a_demon_nobody_pays_for_is_placed() -> None:
    """Ruling 18: Small Gods is a choice; declined, the demon comes."""
    pos = event_position("Demons from the Dungeon Dimensions", 6, 3, 3, 3)
    minions(pos, "The Hippo", Blue=1)
    area(pos, "Small Gods", building="Blue")
    s = run_event(pos)
    do(s, "Play no interrupt")
    assert money(s, "Blue") == 10
    assert board(s, "The Hippo")["demons"] == 1 and board(s, "The Hippo")["trouble"]


# --- Subsidence ----------------------------------------------------------------------------------
def test_subsidence_costs_two_dollars_per_building_or_the_building() -> None:
    """Subsidence (rulebook; D13): each player pays $2 per building; Red can pay for two of
    three and chooses which to lose; Blue cannot pay at all; Green pays for both."""
    pos = event_position("Subsidence")
    pos["seats"][0]["money"] = 4
    pos["seats"][1]["money"] = 1
    for name in ("Dimwell", "Longwall", "Nap Hill"):
        area(pos, name, building="Red")
    area(pos, "The Hippo", building="Blue")
    area(pos, "Dolly Sisters", building="Green")
    area(pos, "The Scours", building="Green")
    s = run_event(pos)
    assert s.to_move == 0
    assert sorted(actions(s)) == sorted(
        f"Remove Red's building in {name}" for name in ("Dimwell", "Longwall", "Nap Hill"))
    do(s, "Remove Red's building in Longwall")
    assert money(s, "Red") == 0
    assert [board(s, n)["building"] for n in ("Dimwell", "Longwall", "Nap Hill")] == [
        "Red", None, "Red"]
    assert money(s, "Blue") == 1 and board(s, "The Hippo")["building"] is None
    assert money(s, "Green") == 6
    assert board(s, "Dolly Sisters")["building"] == "Green"
    assert board(s, "The Scours")["building"] == "Green"
    assert money(s, "Yellow") == 10


# --- Bloody Stupid Johnson -----------------------------------------------------------------------
def test_bloody_stupid_johnson_card_leaves_the_game_but_the_building_stays() -> None:
    """Ruling 23: the rolled area's City Area card leaves the game, its owner removes one of
    their minions there, and the building stays."""
    pos = event_position("Bloody Stupid Johnson", 11)
    area(pos, "Seven Sleepers", building="Blue")
    minions(pos, "Seven Sleepers", Blue=2, Red=1)
    s = run_event(pos)
    assert dice(s) == ["The die shows 11: Seven Sleepers."]
    sleepers = board(s, "Seven Sleepers")
    assert sleepers["card"] == "gone" and sleepers["building"] == "Blue"
    assert sleepers["minions"] == {"Blue": 1, "Red": 1}


def test_bloody_stupid_johnson_building_still_scores_and_its_power_is_gone() -> None:
    """Ruling 23: after BSJ the Seven Sleepers building keeps its value for points, but its
    owner no longer has the power."""
    pos = blank(current="Blue")
    give(pos, "Blue", "Groat", "Dwarves")
    area(pos, "Seven Sleepers", building="Blue", card="gone")
    area(pos, "Nap Hill", building="Blue")
    s = start(pos)
    assert "Use Nap Hill: take $1 from the bank" in actions(s)
    assert not any("Seven Sleepers" in a for a in actions(s))
    pos = short_pile(pos, 0)
    set_personalities(pos, Red="Lord Selachii")
    s = start(pos)
    result = s.outcome()
    assert result is not None
    assert result.points == (10, 10 + 18 + 12, 10, 10)


def test_bloody_stupid_johnson_on_a_card_on_display_does_nothing() -> None:
    """BSJ (rulebook): nobody owns the card, nothing happens."""
    pos = event_position("Bloody Stupid Johnson", 11)
    minions(pos, "Seven Sleepers", Blue=2)
    s = run_event(pos)
    assert "Nobody owns that City Area card." in s.log()
    assert board(s, "Seven Sleepers")["card"] == "display"
    assert count(s, "Blue", "Seven Sleepers") == 2


# --- Trolls --------------------------------------------------------------------------------------
def test_trolls_arrive_in_each_rolled_area_with_trouble_only_where_minions_were() -> None:
    """Trolls (rulebook; ruling 7): an empty area gets a troll and no trouble; an area with
    a minion (a troll counts) gets trouble too."""
    pos = event_position("Trolls", 3, 6, 3)
    minions(pos, "The Hippo", Red=1)
    s = run_event(pos)
    assert dice(s) == ["The die shows 3: Dragon's Landing.", "The die shows 6: The Hippo.",
                       "The die shows 3: Dragon's Landing."]
    assert board(s, "Dragon's Landing")["trolls"] == 2
    assert board(s, "The Hippo")["trolls"] == 1
    assert board(s, "The Hippo")["trouble"] and board(s, "Dragon's Landing")["trouble"]


def test_a_troll_into_an_empty_area_brings_no_trouble() -> None:
    """Ruling 7: no minion there before, no trouble."""
    pos = event_position("Trolls", 3, 6, 9)
    s = run_event(pos)
    assert len(dice(s)) == 3
    assert sum(s.trolls) == 3 and sum(s.trouble) == 0


def test_trolls_are_finite() -> None:
    """Ruling 10: three trolls; with two on the board only one more comes."""
    pos = event_position("Trolls", 3, 6, 9)
    area(pos, "Nap Hill", trolls=2)
    s = run_event(pos)
    assert len(dice(s)) == 3
    assert board(s, "Dragon's Landing")["trolls"] == 1
    assert board(s, "The Hippo")["trolls"] == 0 and board(s, "Longwall")["trolls"] == 0
    assert sum(s.trolls) == 3
    assert s.log().count("No trolls are left in the supply.") == 2


# --- Earthquake ----------------------------------------------------------------------------------
def test_earthquake_removes_the_buildings_in_both_rolled_areas() -> None:
    """Earthquake (rulebook): two rolls, each area's building goes; others stay."""
    pos = event_position("Earthquake", 2, 12)
    area(pos, "Unreal Estate", building="Red")
    area(pos, "Nap Hill", building="Blue")
    area(pos, "Seven Sleepers", building="Green")
    s = run_event(pos)
    assert dice(s) == ["The die shows 2: Unreal Estate.", "The die shows 12: Nap Hill."]
    assert board(s, "Unreal Estate")["building"] is None
    assert board(s, "Nap Hill")["building"] is None
    assert board(s, "Seven Sleepers")["building"] == "Green"


# --- the event deck ------------------------------------------------------------------------------
def test_each_event_happens_only_once() -> None:
    """Ruling 20: a drawn event leaves the deck; the next event symbol draws the next one."""
    pos = event_position("Fog", None)
    give(pos, "Red", "Doctor Hix")
    next_events(pos, "Fog", "Explosion")
    s = run_event(pos)
    do(s, "Skip card text on Professor of Recent Runes")
    play(s, "Doctor Hix")
    log = s.log()
    assert log.count("Random event: Fog.") == 1 and "Random event: Explosion." in log
    p = s.position()
    assert p["events_done"] == ["Fog", "Explosion"]
    assert "Fog" not in p["events"] and "Explosion" not in p["events"]
    assert len(p["events"]) == 10


def test_an_empty_event_deck_does_nothing_and_the_card_goes_on() -> None:
    """Ruling 20: with all 12 events done, the random event symbol does nothing; the rest of
    the card (Rincewind's text) is still played."""
    pos = blank()
    give(pos, "Red", "Rincewind", "Groat")
    pos["events_done"], pos["events"] = pos["events"], []
    minions(pos, "Small Gods", Red=1)
    area(pos, "Small Gods", trouble=True, building="Blue")
    s = start(pos)
    play(s, "Rincewind")
    assert "No random events are left." in s.log()
    assert s.to_move == 0
    assert actions(s) == ["Do the text of Rincewind", "Skip card text on Rincewind"]
    do(s, "Do the text of Rincewind")
    do(s, "Move Red's minion from Small Gods to The Hippo")
    assert count(s, "Red", "The Hippo") == 1
    assert board(s, "Small Gods")["building"] == "Blue"
