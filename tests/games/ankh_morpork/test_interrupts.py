"""Interrupts and protection (rulings 12-19; decisions D5-D10) and the City Area powers
(rulebook, City Area Cards; ruling 3; decisions D2 and D4). Every test starts from a
position; dice come from the position's "rng" value and are checked in the log."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import (
    actions,
    area,
    blank,
    count,
    do,
    give,
    hand,
    minions,
    money,
    next_events,
    play,
    rng_giving,
    start,
)

from citywatch.games.ankh_morpork.state import AnkhMorporkState

ALLOW = "Play no interrupt"
SMALL_GODS = "Pay $3 (Small Gods) to ignore the event for this piece"


def zone(s: AnkhMorporkState, name: str) -> list[str]:
    pile: list[str] = s.position()[name]
    return pile


# --- the ways Red harms Blue's minion in The Shades ----------------------------------------------
def assassination(*blue_cards: str) -> AnkhMorporkState:
    """Red plays Mr Gryle and assassinates Blue's minion in The Shades (a symbol)."""
    pos = blank()
    give(pos, "Red", "Mr Gryle", "Groat")
    give(pos, "Blue", *blue_cards)
    minions(pos, "The Shades", Blue=1)
    area(pos, "The Shades", trouble=True)
    s = start(pos)
    play(s, "Mr Gryle")
    do(s, "Assassinate Blue's minion in The Shades")
    return s


def text_move(*blue_cards: str) -> AnkhMorporkState:
    """Red plays Foul Ole Ron: Blue's minion is moved from The Shades to Dimwell (a text)."""
    pos = blank()
    give(pos, "Red", "Foul Ole Ron", "Groat")
    give(pos, "Blue", *blue_cards)
    minions(pos, "The Shades", Blue=1)
    s = start(pos)
    play(s, "Foul Ole Ron")
    do(s, "Do the text of Foul Ole Ron")
    do(s, "Move Blue's minion from The Shades to Dimwell")
    return s


def text_removal(*blue_cards: str) -> AnkhMorporkState:
    """Red plays The Dean (the event is Fog): Blue's minion is removed from Unreal Estate."""
    pos = blank()
    give(pos, "Red", "The Dean", "Groat")
    give(pos, "Blue", *blue_cards)
    next_events(pos, "Fog")
    minions(pos, "Unreal Estate", Blue=1)
    s = start(pos)
    play(s, "The Dean")
    do(s, "Do the text of The Dean")
    return s


def event_removal(*blue_cards: str, **setup: Any) -> AnkhMorporkState:
    """The Dragon comes to The Shades, where Blue has a minion (a random event)."""
    pos = blank()
    give(pos, "Red", "Professor of Recent Runes", "Groat")
    give(pos, "Blue", *blue_cards)
    next_events(pos, "The Dragon")
    pos["rng"] = rng_giving(7)
    minions(pos, "The Shades", Blue=1)
    for name, fields in setup.items():
        area(pos, name.replace("_", " "), **fields)
    s = start(pos)
    play(s, "Professor of Recent Runes")
    assert "The die shows 7: The Shades." in s.log()
    return s


HARMS = {"assassination": assassination, "text move": text_move,
         "text removal": text_removal, "event removal": event_removal}
ASKED = {
    "assassination": {"Gaspode", "Susan", "Fresh Start Club", "Igor"},
    "text move": {"Gaspode", "Wallace Sonky"},
    "text removal": {"Gaspode", "Susan", "Fresh Start Club", "Igor", "Wallace Sonky"},
    "event removal": {"Susan", "Fresh Start Club", "Igor"},
}
HOLDINGS = ["Gaspode", "Susan", "Fresh Start Club", "Igor", "Wallace Sonky",
            "Doctor Mossy Lawn", "Dwarves"]


@pytest.mark.parametrize("card", HOLDINGS)
@pytest.mark.parametrize("harm", list(HARMS))
def test_a_player_is_asked_only_when_holding_an_interrupt_that_applies(
    harm: str, card: str
) -> None:
    """Ruling 19 with rulings 12-16: Gaspode (another player's card moving or removing),
    Susan and Fresh Start Club / Igor (any removal, events too), Wallace Sonky (another
    player's text only); Doctor Mossy Lawn never protects; a player holding no interrupt
    that applies is never asked."""
    s = HARMS[harm](card)
    if card in ASKED[harm]:
        assert s.to_move == 1
        assert actions(s) == [f"Play {card}", ALLOW]
    else:
        assert s.to_move == 0
        assert hand(s, "Blue") == [card]
        assert count(s, "Blue", "The Shades") == 0
        assert count(s, "Blue", "Unreal Estate") == 0


# --- Gaspode (ruling 12) -------------------------------------------------------------------------
def test_gaspode_stops_an_assassination() -> None:
    """Ruling 12: Gaspode stops another player's card removing your minion."""
    s = assassination("Gaspode")
    do(s, "Play Gaspode")
    assert count(s, "Blue", "The Shades") == 1
    assert "Gaspode" in zone(s, "discard_pile") and hand(s, "Blue") == []
    assert s.to_move == 0 and actions(s)[0] == "Take $1 from the bank"


def test_gaspode_stops_a_move_by_another_players_text() -> None:
    """Ruling 12: Gaspode stops another player's card moving your minion."""
    s = text_move("Gaspode")
    do(s, "Play Gaspode")
    assert count(s, "Blue", "The Shades") == 1 and count(s, "Blue", "Dimwell") == 0


def test_declining_an_interrupt_lets_the_harm_happen_and_keeps_the_card() -> None:
    """Ruling 19: asking is a choice; declined, the minion goes and Gaspode stays in hand."""
    s = assassination("Gaspode")
    do(s, ALLOW)
    assert count(s, "Blue", "The Shades") == 0 and hand(s, "Blue") == ["Gaspode"]


# --- one's own card (D9) -------------------------------------------------------------------------
@pytest.mark.parametrize("card,asked", [("Gaspode", False), ("Wallace Sonky", False),
                                        ("Susan", True), ("Fresh Start Club", True)])
def test_own_card_removing_own_minion(card: str, asked: bool) -> None:
    """D9: Here'n'Now rolls 1 and Red must remove one of their own minions. Susan and Fresh
    Start Club still work (their text says nothing of who removes); Gaspode and Wallace Sonky
    only work against another player's card."""
    pos = blank()
    give(pos, "Red", "Here'n'Now", "Groat", card)
    minions(pos, "Nap Hill", Red=1)
    pos["rng"] = rng_giving(1)
    s = start(pos)
    play(s, "Here'n'Now")
    do(s, "Do the text of Here'n'Now")
    assert "Red rolled 1." in s.log()
    assert s.to_move == 0
    if asked:
        assert actions(s) == [f"Play {card}", ALLOW]
    else:
        assert count(s, "Red", "Nap Hill") == 0
        assert card in hand(s, "Red")


# --- Susan (ruling 13) ---------------------------------------------------------------------------
def test_susan_stops_an_assassination() -> None:
    """Ruling 13: Susan stops one of your minions being removed."""
    s = assassination("Susan")
    do(s, "Play Susan")
    assert count(s, "Blue", "The Shades") == 1
    assert "Susan" in zone(s, "discard_pile")


def test_susan_stops_a_random_event_removal() -> None:
    """Ruling 13: whatever removes it, random events included; the Dragon still takes the
    trouble marker and the other pieces."""
    s = event_removal("Susan", The_Shades={"trouble": True, "trolls": 1})
    do(s, "Play Susan")
    assert count(s, "Blue", "The Shades") == 1
    shades = s.position()["areas"]["The Shades"]
    assert shades["trolls"] == 0 and not shades["trouble"]


def test_susan_works_on_ones_own_card() -> None:
    """Ruling 13 and D9: Here'n'Now on a 1; Red plays Susan and keeps the minion."""
    pos = blank()
    give(pos, "Red", "Here'n'Now", "Groat", "Susan")
    minions(pos, "Nap Hill", Red=1)
    pos["rng"] = rng_giving(1)
    s = start(pos)
    play(s, "Here'n'Now")
    do(s, "Do the text of Here'n'Now")
    do(s, "Play Susan")
    assert count(s, "Red", "Nap Hill") == 1
    assert hand(s, "Red") == ["Groat"]


# --- Fresh Start Club and Igor (ruling 14) -------------------------------------------------------
def test_fresh_start_club_puts_the_minion_in_another_area() -> None:
    """Ruling 14: the removed minion goes to another area of Blue's choice; the placing rule
    applies (rulebook, Place a Minion: "including due to the play of an interrupt card"):
    Blue's other minion is in Nap Hill, so Nap Hill or an area next to it."""
    pos = blank()
    give(pos, "Red", "Mr Gryle", "Groat")
    give(pos, "Blue", "Fresh Start Club")
    minions(pos, "The Shades", Blue=1, Green=1)
    minions(pos, "Nap Hill", Blue=1)
    minions(pos, "Seven Sleepers", Yellow=1)
    area(pos, "The Shades", trouble=True)
    s = start(pos)
    play(s, "Mr Gryle")
    do(s, "Assassinate Blue's minion in The Shades")
    do(s, "Play Fresh Start Club")
    assert s.to_move == 1
    assert sorted(actions(s)) == sorted(
        f"Choose {name}" for name in ("Dolly Sisters", "Unreal Estate", "Seven Sleepers",
                                      "Nap Hill"))
    do(s, "Choose Seven Sleepers")
    assert count(s, "Blue", "The Shades") == 0 and count(s, "Blue", "Seven Sleepers") == 1
    areas = s.position()["areas"]
    assert not areas["The Shades"]["trouble"]  # the minion left The Shades
    assert areas["Seven Sleepers"]["trouble"]  # and arrived where a minion stood
    assert "Fresh Start Club" in zone(s, "discard_pile")


def test_a_saved_minion_with_no_other_minion_may_go_to_any_other_area() -> None:
    """Ruling 14 and rule 6: with no minion left on the board, any area but the one it left."""
    s = assassination("Fresh Start Club")
    do(s, "Play Fresh Start Club")
    options = actions(s)
    assert len(options) == 11 and "Choose The Shades" not in options
    do(s, "Choose Longwall")
    assert count(s, "Blue", "Longwall") == 1
    assert not s.position()["areas"]["Longwall"]["trouble"]


def test_igor_saves_a_minion_from_a_random_event() -> None:
    """Ruling 14: Igor works against random events too."""
    s = event_removal("Igor")
    do(s, "Play Igor")
    do(s, "Choose Dimwell")
    assert count(s, "Blue", "The Shades") == 0 and count(s, "Blue", "Dimwell") == 1
    assert "Igor" in zone(s, "discard_pile")


def test_one_card_of_each_kind_is_offered() -> None:
    """D7: Fresh Start Club and Igor do the same thing, so only one of them is offered."""
    s = assassination("Igor", "Susan", "Fresh Start Club")
    assert s.to_move == 1
    assert actions(s) == ["Play Fresh Start Club", "Play Susan", ALLOW]


# --- Wallace Sonky (ruling 15, D8) ---------------------------------------------------------------
def test_wallace_sonky_blocks_another_players_text() -> None:
    """Ruling 15: The Thieves' Guild takes $2 from each other player; Blue plays Wallace
    Sonky and keeps their money; the others pay; nothing is redirected."""
    pos = blank()
    give(pos, "Red", "The Thieves' Guild", "Groat")
    give(pos, "Blue", "Wallace Sonky")
    s = start(pos)
    play(s, "The Thieves' Guild")
    do(s, "Do the text of The Thieves' Guild")
    assert s.to_move == 1 and actions(s) == ["Play Wallace Sonky", ALLOW]
    do(s, "Play Wallace Sonky")
    assert [money(s, c) for c in ("Red", "Blue", "Green", "Yellow")] == [14, 10, 8, 8]


def test_wallace_sonky_is_not_redirected() -> None:
    """Ruling 15: Nobby Nobbs aimed at Blue, who plays Wallace Sonky: Red takes nothing and
    cannot choose another player."""
    pos = blank()
    give(pos, "Red", "Nobby Nobbs", "Groat")
    give(pos, "Blue", "Wallace Sonky")
    s = start(pos)
    play(s, "Nobby Nobbs")
    do(s, "Do the text of Nobby Nobbs")
    do(s, "Aim Nobby Nobbs at Blue")
    do(s, "Play Wallace Sonky")
    assert [money(s, c) for c in ("Red", "Blue", "Green", "Yellow")] == [10] * 4
    assert s.to_move == 0 and actions(s) == ["Play Groat", "Play no more cards"]


def carcer(*blue_cards: str) -> AnkhMorporkState:
    """Red plays Carcer; the dice show The Shades and Longwall, each holding one of Blue's
    minions."""
    pos = blank()
    give(pos, "Red", "Carcer", "Groat")
    give(pos, "Blue", *blue_cards)
    minions(pos, "The Shades", Blue=1)
    minions(pos, "Longwall", Blue=1)
    pos["rng"] = rng_giving(7, 9)
    s = start(pos)
    play(s, "Carcer")
    do(s, "Do the text of Carcer")
    assert [line for line in s.log() if line.startswith("The die")] == [
        "The die shows 7: The Shades.", "The die shows 9: Longwall."]
    return s


def test_wallace_sonky_played_covers_the_rest_of_that_text() -> None:
    """D8: once played, the rest of the same text does not affect Blue (both removals)."""
    s = carcer("Wallace Sonky")
    assert s.to_move == 1 and actions(s) == ["Play Wallace Sonky", ALLOW]
    do(s, "Play Wallace Sonky")
    assert count(s, "Blue", "The Shades") == 1 and count(s, "Blue", "Longwall") == 1
    assert "Blue is not affected by the text (Wallace Sonky)." in s.log()
    assert s.to_move == 0


def test_wallace_sonky_is_offered_once_per_text() -> None:
    """D8: Blue declines Wallace Sonky at Carcer's first removal; at the second only Gaspode
    is offered (the text was already answered)."""
    s = carcer("Wallace Sonky", "Gaspode")
    assert s.to_move == 1 and actions(s) == ["Play Wallace Sonky", "Play Gaspode", ALLOW]
    do(s, ALLOW)
    assert count(s, "Blue", "The Shades") == 0
    assert s.to_move == 1 and actions(s) == ["Play Gaspode", ALLOW]
    do(s, ALLOW)
    assert count(s, "Blue", "Longwall") == 0
    assert hand(s, "Blue") == ["Gaspode", "Wallace Sonky"]


# --- one interrupt, one attempt (ruling 17, D7) --------------------------------------------------
def death(*blue_cards: str) -> AnkhMorporkState:
    """Red plays DEATH (assassination twice, then a building) at Blue's minion in The Shades;
    Red could build in Nap Hill afterwards, so the turn waits there."""
    pos = blank()
    give(pos, "Red", "DEATH", "Groat")
    give(pos, "Blue", *blue_cards)
    pos["seats"][0]["money"] = 20
    minions(pos, "Nap Hill", Red=1)
    minions(pos, "The Shades", Blue=1)
    area(pos, "The Shades", trouble=True)
    s = start(pos)
    play(s, "DEATH")
    do(s, "Assassinate Blue's minion in The Shades")
    return s


def test_deaths_second_assassination_may_hit_the_minion_saved_from_the_first() -> None:
    """Ruling 17: Susan stops the first attempt only; the second finds Blue with no
    interrupt and the minion goes."""
    s = death("Susan")
    do(s, "Play Susan")
    assert count(s, "Blue", "The Shades") == 1
    assert s.to_move == 0
    do(s, "Assassinate Blue's minion in The Shades")
    assert count(s, "Blue", "The Shades") == 0
    assert s.to_move == 0 and actions(s)[0] == "Build in Nap Hill for $12"


def test_two_interrupts_stop_two_attempts() -> None:
    """Ruling 17: each attempt may be answered by one interrupt."""
    s = death("Susan", "Gaspode")
    assert actions(s) == ["Play Gaspode", "Play Susan", ALLOW]
    do(s, "Play Susan")
    do(s, "Assassinate Blue's minion in The Shades")
    assert s.to_move == 1 and actions(s) == ["Play Gaspode", ALLOW]
    do(s, "Play Gaspode")
    assert count(s, "Blue", "The Shades") == 1 and hand(s, "Blue") == []
    assert s.to_move == 0 and actions(s)[0] == "Build in Nap Hill for $12"


# --- Doctor Mossy Lawn (ruling 16, D5, D6) -------------------------------------------------------
def test_doctor_mossy_lawn_ends_the_turn_and_takes_back_the_last_card() -> None:
    """Ruling 16, D6: Red plays Pink Pussy Cat Club (its play-another symbol discards it, D5),
    then Groat; Mossy Lawn at Groat's symbol ends the turn and Groat goes back to the hand;
    the money taken stays, the other card stays discarded, and Red refills to five."""
    pos = blank()
    give(pos, "Red", "Pink Pussy Cat Club", "Groat", "Doctor Mossy Lawn")
    give(pos, "Blue", "Dwarves", "Ruby")
    s = start(pos)
    assert actions(s) == ["Play Pink Pussy Cat Club", "Play Groat"]  # no card played yet
    play(s, "Pink Pussy Cat Club")
    assert "Play Doctor Mossy Lawn: end your turn and take back Pink Pussy Cat Club" in actions(s)
    do(s, "Take $3 from the bank")
    assert "Pink Pussy Cat Club" in zone(s, "discard_pile")
    assert "Play Doctor Mossy Lawn: end your turn and take back Pink Pussy Cat Club" in actions(s)
    play(s, "Groat")
    do(s, "Play Doctor Mossy Lawn: end your turn and take back Groat")
    assert s.current == 1 and s.to_move == 1
    assert money(s, "Red") == 13
    assert sum(s.minions[0]) == 0
    red = hand(s, "Red")
    assert "Groat" in red and len(red) == 5
    assert "Pink Pussy Cat Club" not in red and "Doctor Mossy Lawn" not in red
    discards = zone(s, "discard_pile")
    assert "Doctor Mossy Lawn" in discards and "Pink Pussy Cat Club" in discards


def test_doctor_mossy_lawn_discards_the_other_cards_still_in_play() -> None:
    """D6: Red plays Drumknott, then Groat through it; Mossy Lawn takes back Groat (the card
    played last) and Drumknott, still in play, is discarded."""
    pos = blank()
    give(pos, "Red", "Drumknott", "Groat", "Dwarves", "Doctor Mossy Lawn")
    give(pos, "Blue", "Ruby", "Mr Gryle")
    s = start(pos)
    play(s, "Drumknott")
    do(s, "Do the text of Drumknott")
    play(s, "Groat")
    assert "Play Doctor Mossy Lawn: end your turn and take back Drumknott" not in actions(s)
    do(s, "Play Doctor Mossy Lawn: end your turn and take back Groat")
    assert s.current == 1
    p = s.position()
    assert p["in_play"] == []
    assert "Drumknott" in p["discard_pile"] and "Groat" not in p["discard_pile"]
    red = hand(s, "Red")
    assert "Groat" in red and "Dwarves" in red and len(red) == 5


def test_doctor_mossy_lawn_cannot_take_back_a_loan_in_front() -> None:
    """D6: a loan card lying in front of the player cannot be taken back."""
    pos = blank()
    give(pos, "Red", "Mr Bent", "Groat", "Doctor Mossy Lawn")
    s = start(pos)
    play(s, "Mr Bent")
    do(s, "Do the text of Mr Bent")
    assert s.position()["seats"][0]["in_front"] == ["Mr Bent"]
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_doctor_mossy_lawn_is_not_offered_on_another_players_turn() -> None:
    """Ruling 16: in your own turn only; Blue holding it is never asked on Red's turn."""
    s = assassination("Doctor Mossy Lawn")
    assert s.to_move == 0 and not any("Mossy" in a for a in actions(s))


# --- Small Gods (ruling 18, D10; ruling 3) -------------------------------------------------------
def dragon_on_longwall(blue_money: int, **setup: Any) -> AnkhMorporkState:
    """The Dragon comes to Longwall: two of Blue's minions and Blue's building; Blue owns
    Small Gods."""
    pos = blank()
    give(pos, "Red", "Professor of Recent Runes", "Groat")
    next_events(pos, "The Dragon")
    pos["rng"] = rng_giving(9)
    minions(pos, "Longwall", Blue=2)
    area(pos, "Longwall", building="Blue")
    area(pos, "Small Gods", building="Blue")
    pos["seats"][1]["money"] = blue_money
    for name, fields in setup.items():
        area(pos, name.replace("_", " "), **fields)
    s = start(pos)
    play(s, "Professor of Recent Runes")
    assert "The die shows 9: Longwall." in s.log()
    return s


def test_small_gods_pays_three_dollars_per_piece() -> None:
    """Ruling 18: $3 for each piece to protect; with $7 Blue saves two minions and cannot
    pay for the building, which is then removed without asking."""
    s = dragon_on_longwall(7)
    assert s.to_move == 1 and actions(s) == [SMALL_GODS, ALLOW]
    do(s, SMALL_GODS)
    assert s.to_move == 1
    do(s, SMALL_GODS)
    assert s.to_move == 0
    assert money(s, "Blue") == 1
    longwall = s.position()["areas"]["Longwall"]
    assert longwall["minions"] == {"Blue": 2} and longwall["building"] is None


def test_small_gods_is_not_usable_while_a_demon_stands_in_small_gods() -> None:
    """Ruling 3: no City Area power while a demon stands in its area, Small Gods included."""
    s = dragon_on_longwall(10, Small_Gods={"demons": 1, "trouble": True})
    assert s.to_move == 0
    assert s.position()["areas"]["Longwall"]["minions"] == {}
    assert money(s, "Blue") == 10


def test_small_gods_does_not_protect_against_a_players_card() -> None:
    """Ruling 18: only random events."""
    pos = blank()
    give(pos, "Red", "Mr Gryle", "Groat")
    minions(pos, "The Shades", Blue=1)
    area(pos, "The Shades", trouble=True)
    area(pos, "Small Gods", building="Blue")
    s = start(pos)
    play(s, "Mr Gryle")
    do(s, "Assassinate Blue's minion in The Shades")
    assert s.to_move == 0 and count(s, "Blue", "The Shades") == 0


def test_small_gods_keeps_a_minion_in_a_flooded_area() -> None:
    """D10: Flood moves are an effect of a random event; Blue pays $3 to stay in Longwall."""
    pos = blank()
    give(pos, "Red", "Professor of Recent Runes", "Groat")
    next_events(pos, "Flood")
    pos["rng"] = rng_giving(9, 12)
    minions(pos, "Longwall", Blue=1)
    area(pos, "Small Gods", building="Blue")
    s = start(pos)
    play(s, "Professor of Recent Runes")
    assert "Flooded: Longwall, Nap Hill." in s.log()
    assert s.to_move == 1
    assert sorted(actions(s)) == sorted([
        "Move Blue's minion from Longwall to Dimwell",
        "Move Blue's minion from Longwall to Isle of Gods",
        "Move Blue's minion from Longwall to Seven Sleepers",
        "Pay $3 (Small Gods) to keep your minion in Longwall",
    ])
    do(s, "Pay $3 (Small Gods) to keep your minion in Longwall")
    assert count(s, "Blue", "Longwall") == 1 and money(s, "Blue") == 7
    assert s.to_move == 0


def test_small_gods_works_on_the_turn_it_was_gained() -> None:
    """Ruling 3: Small Gods is the exception to "not on the turn gained". Red plays
    Drumknott: The Royal Mint builds in Small Gods, then the Dragon comes to Longwall."""
    pos = blank()
    give(pos, "Red", "Drumknott", "The Royal Mint", "Professor of Recent Runes", "Groat")
    next_events(pos, "The Dragon")
    pos["rng"] = rng_giving(9)
    pos["seats"][0]["money"] = 30
    minions(pos, "Small Gods", Red=1)
    minions(pos, "Longwall", Red=1)
    s = start(pos)
    play(s, "Drumknott")
    do(s, "Do the text of Drumknott")
    play(s, "The Royal Mint")
    do(s, "Build in Small Gods for $18")
    do(s, "Take $5 from the bank")
    play(s, "Professor of Recent Runes")
    assert "The die shows 9: Longwall." in s.log()
    assert s.to_move == 0 and actions(s) == [SMALL_GODS, ALLOW]
    do(s, SMALL_GODS)
    assert count(s, "Red", "Longwall") == 1 and money(s, "Red") == 30 - 18 + 5 - 3


# --- City Area powers (rulebook, City Area Cards; ruling 3) --------------------------------------
def powers(*owned: str, cash: int = 10, **red_minions: int) -> dict[str, Any]:
    """Red owns buildings (and cards) in ``owned`` and holds Groat and Dwarves."""
    pos = blank()
    give(pos, "Red", "Groat", "Dwarves")
    for name in owned:
        area(pos, name, building="Red")
    for name, n in red_minions.items():
        minions(pos, name.replace("_", " "), Red=n)
    pos["seats"][0]["money"] = cash
    return pos


def uses(s: AnkhMorporkState, name: str) -> list[str]:
    return [a for a in actions(s) if a.startswith(f"Use {name}:")]


@pytest.mark.parametrize("name,amount", [("Nap Hill", 1), ("Longwall", 1), ("The Hippo", 2),
                                         ("Dragon's Landing", 2), ("Seven Sleepers", 3)])
def test_money_powers_once_per_turn(name: str, amount: int) -> None:
    """City Area Cards: Nap Hill and Longwall $1, The Hippo and Dragon's Landing $2, Seven
    Sleepers $3; ruling 3: once per turn, and again on the next turn."""
    s = start(powers(name))
    text = f"Use {name}: take ${amount} from the bank"
    assert uses(s, name) == [text]
    do(s, text)
    assert money(s, "Red") == 10 + amount
    assert uses(s, name) == []
    play(s, "Groat")
    assert uses(s, name) == []  # not at the symbol either
    do(s, "Skip place a minion on Groat")  # the turn ends; the others hold no cards and pass
    assert s.turn == 5 and s.to_move == 0
    assert uses(s, name) == [text]


def test_powers_at_the_symbols_and_at_the_end_of_the_turn() -> None:
    """D2, D4: a power is offered at each symbol and, still unused, at the end of the turn."""
    s = start(powers("Seven Sleepers"))
    play(s, "Groat")
    assert "Use Seven Sleepers: take $3 from the bank" in actions(s)
    do(s, "Skip place a minion on Groat")
    assert actions(s) == ["End your turn", "Use Seven Sleepers: take $3 from the bank"]
    do(s, "Use Seven Sleepers: take $3 from the bank")
    assert money(s, "Red") == 13
    assert s.turn == 5  # only "End your turn" was left: applied at once (D1)


def test_power_not_on_the_turn_the_card_is_gained() -> None:
    """Ruling 3: Red builds in Seven Sleepers with Ruby; its power is not offered that turn
    (Nap Hill, held before, is); on Red's next turn it is."""
    pos = powers("Nap Hill", cash=30, Seven_Sleepers=1)
    give(pos, "Red", "Ruby")
    s = start(pos)
    play(s, "Ruby")
    do(s, "Skip place a minion on Ruby")
    do(s, "Build in Seven Sleepers for $18")
    assert actions(s) == ["End your turn", "Use Nap Hill: take $1 from the bank"]
    do(s, "End your turn")
    assert s.turn == 5 and s.to_move == 0
    assert "Use Seven Sleepers: take $3 from the bank" in actions(s)


def test_no_power_while_a_demon_stands_in_the_area() -> None:
    """Ruling 3 (Demons event text: its City Area card power is off)."""
    pos = powers("Seven Sleepers", "Nap Hill")
    area(pos, "Seven Sleepers", demons=1, trouble=True)
    s = start(pos)
    assert uses(s, "Seven Sleepers") == []
    assert uses(s, "Nap Hill") == ["Use Nap Hill: take $1 from the bank"]


def test_small_gods_has_no_power_to_use_in_ones_turn() -> None:
    """City Area Cards: Small Gods only reacts to random events."""
    s = start(powers("Small Gods"))
    assert actions(s) == ["Play Groat", "Play Dwarves"]


def test_the_shades_puts_trouble_in_or_next_to_the_shades_where_a_minion_stands() -> None:
    """City Area Cards, ruling 8: The Shades or an adjacent area, with at least one minion
    (a troll counts) and no trouble yet."""
    pos = powers("The Shades")
    minions(pos, "The Scours", Blue=1)
    minions(pos, "The Shades", Red=1, Blue=1)
    area(pos, "The Shades", trouble=True)
    area(pos, "Dimwell", trolls=1)
    minions(pos, "Nap Hill", Blue=1)  # not adjacent
    s = start(pos)
    assert uses(s, "The Shades") == [
        "Use The Shades: put a trouble marker in The Scours",
        "Use The Shades: put a trouble marker in Dimwell",
    ]
    do(s, "Use The Shades: put a trouble marker in The Scours")
    assert s.position()["areas"]["The Scours"]["trouble"]
    assert uses(s, "The Shades") == []


@pytest.mark.parametrize("name,places,far", [
    ("Dolly Sisters", ["Dolly Sisters", "Unreal Estate", "Dragon's Landing", "Nap Hill"],
     "The Shades"),
    ("Dimwell", ["The Scours", "The Shades", "Dimwell", "Longwall"], "Nap Hill"),
])
def test_minion_powers_pay_three_and_place_near_the_area(
    name: str, places: list[str], far: str
) -> None:
    """City Area Cards (and the FAQ): pay $3 to place a minion in the area or next to it,
    wherever one's other minions are; not offered without $3."""
    pos = powers(name)
    minions(pos, far, Red=1)
    s = start(pos)
    assert uses(s, name) == [f"Use {name}: pay $3 to place a minion in {p}" for p in places]
    do(s, f"Use {name}: pay $3 to place a minion in {places[-1]}")
    assert money(s, "Red") == 7 and count(s, "Red", places[-1]) == 1
    pos["seats"][0]["money"] = 2
    assert uses(start(pos), name) == []


def test_the_scours_discards_a_card_for_two_dollars() -> None:
    """City Area Cards: discard one card and take $2."""
    pos = powers("The Scours")
    give(pos, "Red", "Ruby")
    s = start(pos)
    assert uses(s, "The Scours") == ["Use The Scours: discard Groat and take $2",
                                     "Use The Scours: discard Ruby and take $2",
                                     "Use The Scours: discard Dwarves and take $2"]
    do(s, "Use The Scours: discard Dwarves and take $2")
    assert money(s, "Red") == 12 and hand(s, "Red") == ["Groat", "Ruby"]
    assert zone(s, "discard_pile")[0] == "Dwarves"


def test_isle_of_gods_pays_two_to_remove_any_trouble_marker() -> None:
    """City Area Cards: pay $2 to remove one trouble marker from anywhere on the board."""
    pos = powers("Isle of Gods")
    area(pos, "Nap Hill", trouble=True)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    assert uses(s, "Isle of Gods") == [
        "Use Isle of Gods: pay $2 to remove the trouble marker from Dimwell",
        "Use Isle of Gods: pay $2 to remove the trouble marker from Nap Hill",
    ]
    do(s, "Use Isle of Gods: pay $2 to remove the trouble marker from Nap Hill")
    assert money(s, "Red") == 8 and sum(s.trouble) == 1
    pos["seats"][0]["money"] = 1
    assert uses(start(pos), "Isle of Gods") == []


def test_unreal_estate_draws_a_card_then_discards_one() -> None:
    """City Area Cards: draw one card, then discard a card."""
    pos = powers("Unreal Estate")
    top = pos["draw_pile"][0]
    s = start(pos)
    do(s, "Use Unreal Estate: draw a card, then discard one")
    assert s.to_move == 0
    assert sorted(actions(s)) == sorted(f"Discard {c}" for c in ("Groat", "Dwarves", top))
    do(s, "Discard Groat")
    assert hand(s, "Red") == sorted(["Dwarves", top])
    assert zone(s, "discard_pile")[0] == "Groat"
    assert uses(s, "Unreal Estate") == []


def test_powers_are_not_offered_on_another_players_turn() -> None:
    """Ruling 3: at the owner's own turn only; asked for an interrupt on Red's turn, Blue
    (owning Seven Sleepers) is not offered its power."""
    pos = blank()
    give(pos, "Red", "Mr Gryle", "Groat")
    give(pos, "Blue", "Susan")
    minions(pos, "The Shades", Blue=1)
    area(pos, "The Shades", trouble=True)
    area(pos, "Seven Sleepers", building="Blue")
    s = start(pos)
    play(s, "Mr Gryle")
    do(s, "Assassinate Blue's minion in The Shades")
    assert s.to_move == 1 and actions(s) == ["Play Susan", ALLOW]
