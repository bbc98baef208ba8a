"""Winning: personalities at the start of the turn (ruling 1; rulebook, End of the Game;
rulings 24-28), points (ruling 25), the tie-break, and the 2-player variant and set-up
(rulings 29-30). Every test starts from a position or a new game."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import (
    GAME,
    actions,
    area,
    blank,
    do,
    give,
    minions,
    play,
    set_personalities,
    short_pile,
    start,
)

from citywatch.games.ankh_morpork.data import AREAS, CARDS
from citywatch.games.ankh_morpork.state import AnkhMorporkState

AREA_NAMES = [a.name for a in AREAS]
NO_VIMES = {"Red": "Lord Selachii", "Blue": "Lord Vetinari", "Green": "Dragon King of Arms"}


def position(players: int = 4, current: str = "Red", **people: str) -> dict[str, Any]:
    """A blank position where the current seat holds two cards, so its turn waits for it."""
    pos = blank(players, current)
    set_personalities(pos, **people)
    give(pos, current, "Groat", "Dwarves")
    return pos


def won(s: AnkhMorporkState) -> tuple[tuple[int, ...], str] | None:
    result = s.outcome()
    return None if result is None else (result.winners, result.reason)


# --- ruling 1: only the active player, at the start of the turn ----------------------------------
def test_only_the_active_players_personality_is_checked() -> None:
    """Ruling 1: Green (Dragon King of Arms) has 8 trouble markers, but on Red's turn only
    Red's personality is checked; on Green's turn Green wins."""
    pos = position()
    for name in AREA_NAMES[:8]:
        area(pos, name, trouble=True)
    s = start(pos)
    assert s.outcome() is None and s.to_move == 0
    pos["current"] = "Green"
    s = start(pos)
    assert won(s) == ((2,), "personality")
    assert "Green reveals Dragon King of Arms and wins." in s.log()


def test_a_condition_met_during_ones_turn_wins_only_at_the_start_of_the_next() -> None:
    """Rulebook, End of the Game: conditions must hold at the start of your turn. Red (Dragon
    King) puts the 8th marker down with The Mob, plays on, and wins when their next turn
    begins."""
    pos = position(Red="Dragon King of Arms", Green="Commander Vimes")
    give(pos, "Red", "The Mob")
    for name in AREA_NAMES[:7]:
        area(pos, name, trouble=True)
    s = start(pos)
    play(s, "The Mob")
    do(s, "Do the text of The Mob")
    do(s, "Put a trouble marker in Dimwell")
    assert sum(s.trouble) == 8
    do(s, "Skip place a minion on The Mob")
    assert s.outcome() is None
    do(s, "Play no more cards")  # the others hold no cards: they pass
    assert won(s) == ((0,), "personality")
    assert s.turn == 5


# --- Lord Vetinari -------------------------------------------------------------------------------
@pytest.mark.parametrize("players,need", [(2, 11), (3, 10), (4, 9)])
def test_vetinari_needs_minions_in_11_10_9_areas(players: int, need: int) -> None:
    """Ruling 29, rulebook: Vetinari wins with minions in 11 / 10 / 9 different areas for
    2 / 3 / 4 players; one area fewer is not enough."""
    pos = position(players, Red="Lord Vetinari", Blue="Commander Vimes")
    for name in AREA_NAMES[:need - 1]:
        minions(pos, name, Red=1)
    minions(pos, AREA_NAMES[0], Red=2)  # several minions in one area count once
    assert won(start(pos)) is None
    minions(pos, AREA_NAMES[need - 1], Red=1)
    assert won(start(pos)) == ((0,), "personality")


def test_vetinari_does_not_count_areas_with_demons() -> None:
    """Ruling 28: nine areas with Red's minions, one of them holding a demon, are eight."""
    pos = position(Red="Lord Vetinari", Blue="Commander Vimes")
    for name in AREA_NAMES[:9]:
        minions(pos, name, Red=1)
    area(pos, AREA_NAMES[4], demons=1)
    assert won(start(pos)) is None
    area(pos, AREA_NAMES[4], demons=0)
    area(pos, AREA_NAMES[10], demons=1)  # a demon where Red has no minion changes nothing
    assert won(start(pos)) == ((0,), "personality")


# --- the Lords -----------------------------------------------------------------------------------
@pytest.mark.parametrize("lord", ["Lord Selachii", "Lord Rust", "Lord de Worde"])
@pytest.mark.parametrize("players,need", [(2, 7), (3, 5), (4, 4)])
def test_lords_need_to_control_7_5_4_areas(lord: str, players: int, need: int) -> None:
    """Ruling 29, rulebook: each Lord wins controlling 7 / 5 / 4 areas for 2 / 3 / 4 players."""
    people = {"Red": lord, "Blue": "Commander Vimes"}
    if players > 2:
        people["Green"] = "Dragon King of Arms"
    pos = position(players, **people)
    for name in AREA_NAMES[:need - 1]:
        minions(pos, name, Red=1)
    assert won(start(pos)) is None
    minions(pos, AREA_NAMES[need - 1], Red=1)
    assert won(start(pos)) == ((0,), "personality")


CONTROL_CASES = {
    # rulebook example: Yellow controls Nap Hill even though there is a trouble marker there
    "trouble does not matter": ({"Red": 1}, {"trouble": True}, True),
    # rulebook example: Red does not control Dolly Sisters as there is a demon there
    "a demon blocks control": ({"Red": 3}, {"demons": 1, "trouble": True}, False),
    # rulebook example: Blue does not control Unreal Estate as there is one troll there ...
    "a single troll blocks a single piece": ({"Red": 1}, {"trolls": 1, "trouble": True}, False),
    # ... if Blue had another piece there, either another minion or a building, he would
    "a building beats a single troll": ({"Red": 1}, {"trolls": 1, "building": "Red"}, True),
    "a second minion beats a single troll": ({"Red": 2}, {"trolls": 1, "trouble": True}, True),
    # rulebook example: neither yellow nor green control Dragon's Landing
    "a tie does not control": ({"Red": 2, "Blue": 2}, {"trouble": True}, False),
    "a building counts for its owner": ({"Red": 1, "Blue": 1}, {"building": "Red"}, True),
    "another's building ties": ({"Red": 1}, {"building": "Blue"}, False),
    "more than each other player separately": (
        {"Red": 2, "Blue": 1, "Green": 1}, {"trouble": True}, True),
}


@pytest.mark.parametrize("case", list(CONTROL_CASES))
def test_lord_control_follows_the_rulebook_example(case: str) -> None:
    """Ruling 27 and the rulebook's control example: Red (Lord Rust) controls three areas;
    the fourth, Seven Sleepers, decides the game."""
    pieces, fields, controls = CONTROL_CASES[case]
    pos = position(Red="Lord Rust", Blue="Commander Vimes")
    for name in ("Dolly Sisters", "Unreal Estate", "Dragon's Landing"):
        minions(pos, name, Red=1)
    minions(pos, "Seven Sleepers", **pieces)
    area(pos, "Seven Sleepers", **fields)
    assert won(start(pos)) == (((0,), "personality") if controls else None)


def test_a_building_whose_card_left_the_game_still_counts_for_control() -> None:
    """Ruling 23 (BSJ): the building stays and counts; Red's building beats Blue's minion."""
    pos = position(Red="Lord Rust", Blue="Commander Vimes")
    for name in ("Dolly Sisters", "Unreal Estate", "Dragon's Landing"):
        minions(pos, name, Red=1)
    minions(pos, "Seven Sleepers", Red=1, Blue=1)
    area(pos, "Seven Sleepers", building="Red", card="gone")
    assert won(start(pos)) == ((0,), "personality")


# --- Dragon King of Arms -------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_dragon_king_needs_eight_trouble_markers(players: int) -> None:
    """Dragon King of Arms (rulebook): 8 trouble markers on the board, whatever the number
    of players; 7 are not enough."""
    pos = position(players, Red="Dragon King of Arms", Blue="Commander Vimes")
    for name in AREA_NAMES[:7]:
        area(pos, name, trouble=True)
    assert won(start(pos)) is None
    area(pos, AREA_NAMES[11], trouble=True)
    assert won(start(pos)) == ((0,), "personality")


# --- Chrysoprase ---------------------------------------------------------------------------------
CHRYSOPRASE_CASES = {
    "$50 cash": (50, [], [], False, True),
    "$49 cash": (49, [], [], False, False),
    "cash and a building": (32, ["Seven Sleepers"], [], False, True),
    "one short with buildings": (25, ["Seven Sleepers", "Dimwell"], [], False, False),
    "a loan counts -$12": (44, ["Seven Sleepers"], ["Mr Bent"], False, True),
    "a loan makes it one short": (43, ["Seven Sleepers"], ["Mr Bent"], False, False),
    "two loans": (74, [], ["Mr Bent", "The Bank of Ankh-Morpork"], False, True),
    "two loans, one short": (73, [], ["Mr Bent", "The Bank of Ankh-Morpork"], False, False),
    "a building in a demon area is worth $0": (32, ["Seven Sleepers"], [], True, False),
}


@pytest.mark.parametrize("case", list(CHRYSOPRASE_CASES))
@pytest.mark.parametrize("players", [3, 4])
def test_chrysoprase_net_worth(case: str, players: int) -> None:
    """Ruling 26: cash + printed cost of own buildings (0 in a demon area) - $12 per loan
    card, at least $50."""
    cash, buildings, loans, demon, wins = CHRYSOPRASE_CASES[case]
    pos = position(players, Red="Chrysoprase", Blue="Commander Vimes")
    pos["seats"][0]["money"] = cash
    for name in buildings:
        area(pos, name, building="Red", demons=int(demon))
    give(pos, "Red", *loans, zone="in_front")
    assert won(start(pos)) == (((0,), "personality") if wins else None)


# --- Commander Vimes and the end of the draw pile ------------------------------------------------
def deck_out_position(**people: str) -> dict[str, Any]:
    """Red holds The Peeled Nuts (no symbols, no text) and Groat."""
    pos = blank()
    set_personalities(pos, **people)
    give(pos, "Red", "The Peeled Nuts", "Groat")
    return pos


def last_turn(pos: dict[str, Any]) -> AnkhMorporkState:
    """With one card left in the draw pile, Red plays The Peeled Nuts and ends the turn:
    refilling takes the last card."""
    s = start(short_pile(pos, 1))
    assert s.outcome() is None
    play(s, "The Peeled Nuts")
    if s.outcome() is None:
        do(s, "End your turn")
    assert s.position()["draw_pile"] == []
    return s


def test_commander_vimes_wins_when_the_draw_pile_runs_out() -> None:
    """Ruling 24: Red draws the last card; Blue holds Commander Vimes and wins, though Red
    has far more points."""
    pos = deck_out_position(Red="Lord Rust", Blue="Commander Vimes", Yellow="Lord Selachii")
    minions(pos, "Nap Hill", Red=5)
    s = last_turn(pos)
    assert won(s) == ((1,), "deck")
    assert "Blue reveals Commander Vimes and wins." in s.log()


def test_deck_out_without_vimes_is_scored_on_points() -> None:
    """Ruling 24: nobody holds Commander Vimes, so the deck-out is scored on points."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    minions(pos, "Nap Hill", Green=1)
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None
    assert (result.winners, result.reason, result.points) == ((2,), "deck", (10, 10, 15, 10))


def test_points_minions_buildings_cash_loans_and_demon_areas() -> None:
    """Ruling 25: $5 per minion, each building its printed cost, $1 per dollar; each loan is
    repaid with $12 or costs 15 points; nothing standing in a demon area scores."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    # Red: 2 minions + Nap Hill (12) + $7 = 29
    minions(pos, "Longwall", Red=2)
    area(pos, "Nap Hill", building="Red")
    pos["seats"][0]["money"] = 7
    # Blue: a minion (5); a minion and a building in a demon area (0); $20 repays a loan: 13
    minions(pos, "Dimwell", Blue=1)
    minions(pos, "Seven Sleepers", Blue=1)
    area(pos, "Seven Sleepers", building="Blue", demons=1, trouble=True)
    pos["seats"][1]["money"] = 20
    give(pos, "Blue", "Mr Bent", zone="in_front")
    # Green: $5 cannot repay the loan: 5 - 15 = -10
    pos["seats"][2]["money"] = 5
    give(pos, "Green", "The Bank of Ankh-Morpork", zone="in_front")
    # Yellow: Dolly Sisters (6) + $18
    area(pos, "Dolly Sisters", building="Yellow")
    pos["seats"][3]["money"] = 18
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None
    assert result.points == (29, 13, -10, 24)
    assert result.winners == (0,)


def test_two_loans_with_money_for_one() -> None:
    """Ruling 25: each loan separately: $20 repays one ($8 left), the other costs 15."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    pos["seats"][1]["money"] = 20
    give(pos, "Blue", "Mr Bent", "The Bank of Ankh-Morpork", zone="in_front")
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None and result.points is not None
    assert result.points[1] == 8 - 15


def test_tie_broken_by_the_most_expensive_city_area_card() -> None:
    """Ruling 25: Red and Blue both score 22; Red's best card (Nap Hill, $12) beats Blue's
    (Dimwell, $6). Green holds a dearer card but is not tied."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    area(pos, "Nap Hill", building="Red")  # 12 + 10
    area(pos, "Dimwell", building="Blue")
    pos["seats"][1]["money"] = 16  # 6 + 16
    area(pos, "Seven Sleepers", building="Green")
    pos["seats"][2]["money"] = 0  # 18
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None
    assert result.points == (22, 22, 18, 10)
    assert result.winners == (0,)


def test_a_tie_on_points_and_cards_is_a_shared_win() -> None:
    """Ruling 25: still tied after the card tie-break, the tied players share the win."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    area(pos, "Nap Hill", building="Red")
    area(pos, "Longwall", building="Blue")
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None
    assert result.points == (22, 22, 10, 10)
    assert (result.winners, result.reason) == ((0, 1), "deck")


def test_a_tie_without_city_area_cards_is_a_shared_win() -> None:
    """Ruling 25: all four score $10 and hold no card: everybody wins."""
    pos = deck_out_position(**NO_VIMES, Yellow="Lord Rust")
    s = last_turn(pos)
    result = s.outcome()
    assert result is not None
    assert result.winners == (0, 1, 2, 3)


# --- the 2-player variant and the set-up ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_two_player_game_has_no_chrysoprase_hubert_or_cosmo_lavish(seed: int) -> None:
    """Ruling 29 (rulebook, playing with two players): Chrysoprase is removed from the
    personalities, Hubert and Cosmo Lavish from the brown deck."""
    s = GAME.new_game(players=2, seed=seed)
    p = s.position()
    people = [seat["personality"] for seat in p["seats"]] + p["unused_personalities"]
    assert "Chrysoprase" not in people
    assert len(people) == 6 and len(set(people)) == 6
    assert sorted(p["out_of_game"]) == ["Cosmo Lavish", "Hubert"]
    for zone in ("draw_pile", "discard_pile"):
        assert "Hubert" not in p[zone] and "Cosmo Lavish" not in p[zone]
    for seat in p["seats"]:
        assert "Hubert" not in seat["hand"] and "Cosmo Lavish" not in seat["hand"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_set_up(players: int, seed: int) -> None:
    """Ruling 30 (rulebook, Setup): $10 each; one minion of each player and a trouble marker
    in Dolly Sisters, The Scours and The Shades; five cards each from the green deck, which
    lies shuffled on top of the shuffled brown deck; all 12 events to come; the first
    player's turn is waiting for their first card."""
    s = GAME.new_game(players=players, seed=seed)
    p = s.position()
    start_areas = {"Dolly Sisters", "The Scours", "The Shades"}
    colours = [seat["colour"] for seat in p["seats"]]
    for name, a in p["areas"].items():
        if name in start_areas:
            assert a["minions"] == {c: 1 for c in colours}
            assert a["trouble"]
        else:
            assert a["minions"] == {} and not a["trouble"]
        assert (a["trolls"], a["demons"], a["building"], a["card"]) == (0, 0, None, "display")
    deck = {c.name: c.deck for c in CARDS}
    for seat in p["seats"]:
        assert seat["money"] == 10
        assert len(seat["hand"]) == 5
        assert all(deck[c] == "green" for c in seat["hand"])
        assert seat["in_front"] == []
    greens = 48 - 5 * players
    browns = 53 - (2 if players == 2 else 0)
    pile = p["draw_pile"]
    assert len(pile) == greens + browns
    assert all(deck[c] == "green" for c in pile[:greens])
    assert all(deck[c] == "brown" for c in pile[greens:])
    assert p["discard_pile"] == [] and p["in_play"] == []
    assert len(p["events"]) == 12 and p["events_done"] == []
    assert s.turn == 1 and s.to_move == s.current
    first = p["current"]
    assert f"A game for {players} players begins; {first} plays first." in s.log()
    assert any(a.startswith("Play ") for a in actions(s))


def test_four_player_game_keeps_chrysoprase_hubert_and_cosmo_lavish() -> None:
    """Ruling 29: the removals are for 2 players only."""
    s = GAME.new_game(players=4, seed=1)
    p = s.position()
    people = [seat["personality"] for seat in p["seats"]] + p["unused_personalities"]
    assert sorted(people) == sorted(
        ["Lord Vetinari", "Lord Selachii", "Lord Rust", "Lord de Worde", "Dragon King of Arms",
         "Chrysoprase", "Commander Vimes"])
    assert p["out_of_game"] == []
    assert "Hubert" in p["draw_pile"] and "Cosmo Lavish" in p["draw_pile"]


def test_the_first_player_is_chosen_at_random() -> None:
    """Ruling 30: over a few seeds, each seat of a 2-player game starts some game."""
    firsts = {GAME.new_game(players=2, seed=seed).current for seed in range(20)}
    assert firsts == {0, 1}
