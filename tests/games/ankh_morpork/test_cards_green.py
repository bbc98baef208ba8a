"""Rules tests for every green card (G01-G48), built from positions.

Each test names the rule it checks: the card, and the rulebook section, the ruling
(``/work/shared/reference/ankh-morpork-rulings.md``, "ruling N") or the engine's own
decision (``docs/rulings.md``, "D N") it relies on.
"""

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
    seat_of,
    start,
    to_pile,
)

from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import CARDS, PERSONALITIES
from citywatch.games.ankh_morpork.state import AnkhMorporkState

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
FILLER = ("Dwarves", "Ruby")  # two plain brown cards, so Blue's next turn stops for a choice


# --- local helpers ---------------------------------------------------------------------------
def table(
    red: tuple[str, ...] = (),
    blue: tuple[str, ...] = FILLER,
    green: tuple[str, ...] = (),
    yellow: tuple[str, ...] = (),
    players: int = 4,
    **cash: int,
) -> dict[str, Any]:
    """A blank position with these hands; ``Red=3`` etc. set money (default $10)."""
    pos = blank(players)
    for colour, cards in zip(("Red", "Blue", "Green", "Yellow"), (red, blue, green, yellow),
                             strict=True):
        if colour == "Yellow" and players < 4 or colour == "Green" and players < 3:
            continue
        give(pos, colour, *cards)
    for colour, amount in cash.items():
        pos["seats"][seat_of(colour)]["money"] = amount
    return pos


def set_personality(pos: dict[str, Any], colour: str, name: str) -> None:
    """Give ``colour`` the personality ``name`` (swapping it with the unused or another seat)."""
    seat = pos["seats"][seat_of(colour)]
    old = seat["personality"]
    if name in pos["unused_personalities"]:
        pos["unused_personalities"].remove(name)
        pos["unused_personalities"].append(old)
    else:
        other = next(x for x in pos["seats"] if x["personality"] == name)
        other["personality"] = old
    seat["personality"] = name


def seed_for(value: int) -> int:
    """An rng seed whose first twelve-sided roll is ``value``."""
    return next(seed for seed in range(1, 10_000) if Rng(seed).roll(12) == value)


def where(s: AnkhMorporkState, card: str) -> str:
    """The zone a card is in: 'discard', 'in_play', 'draw', 'hand:Red', 'front:Blue', ..."""
    pos = s.position()
    for zone, key in (("discard", "discard_pile"), ("in_play", "in_play"), ("draw", "draw_pile"),
                      ("out", "out_of_game")):
        if card in pos[key]:
            return zone
    for seat in pos["seats"]:
        if card in seat["hand"]:
            return f"hand:{seat['colour']}"
        if card in seat["in_front"]:
            return f"front:{seat['colour']}"
    raise AssertionError(card)


def in_front(s: AnkhMorporkState, colour: str) -> list[str]:
    return list(s.position()["seats"][seat_of(colour)]["in_front"])


def personality(s: AnkhMorporkState, colour: str) -> str:
    return PERSONALITIES[s.personality[seat_of(colour)]].name


def trouble(s: AnkhMorporkState, area_name: str) -> bool:
    return bool(s.position()["areas"][area_name]["trouble"])


def offered(s: AnkhMorporkState, prefix: str) -> set[str]:
    """The offered actions that start with ``prefix``."""
    return {a for a in actions(s) if a.startswith(prefix)}


def turn_passed_to_blue(s: AnkhMorporkState) -> bool:
    """Red's turn is over and Blue is choosing the card for their turn."""
    return s.current == BLUE and s.to_move == BLUE and "Play Dwarves" in actions(s)


def test_every_green_card_has_a_test_here() -> None:
    """Coverage: each of the 48 green cards (G01-G48 in the JSON) is named in this file."""
    import pathlib

    text = pathlib.Path(__file__).read_text(encoding="utf-8")
    green = [c for c in CARDS if c.deck == "green"]
    assert sorted(c.id for c in green) == [f"G{i:02d}" for i in range(1, 49)]
    assert [c.name for c in green if f'"{c.name}"' not in text] == []


# --- G01 Mr Bent, G02 The Bank of Ankh-Morpork (loans; ruling 25, ruling 26) ---------------------
LOANS = ["Mr Bent", "The Bank of Ankh-Morpork"]


@pytest.mark.parametrize("loan", LOANS)
def test_loan_gives_10_and_stays_in_front_then_play_another(loan: str) -> None:
    """Mr Bent / The Bank of Ankh-Morpork (card text; ruling 25): take $10, the card stays face-up
    in front of you (not discarded), then the play-another-card symbol; the loan does not take a
    hand slot."""
    s = start(table(red=(loan, "Groat", "Hex")))
    play(s, loan)
    assert actions(s) == [f"Do the text of {loan}", f"Skip card text on {loan}"]
    do(s, "Do the text")
    assert money(s, "Red") == 20
    assert in_front(s, "Red") == [loan]
    assert where(s, loan) == "front:Red"
    # the next symbol is play another card: both other cards offered, and stopping
    assert actions(s) == ["Play Hex", "Play Groat", "Play no more cards"]
    do(s, "Play no more cards")
    assert turn_passed_to_blue(s)
    assert where(s, loan) == "front:Red"
    assert loan not in s.position()["discard_pile"]
    assert len(hand(s, "Red")) == 5  # a loan is not a Whiteface card: refill to five in hand


@pytest.mark.parametrize("loan", LOANS)
def test_loan_text_is_optional_and_skipped_loan_is_discarded(loan: str) -> None:
    """Mr Bent / The Bank: the scroll is optional (rulebook, Game Play); skipped, no money is
    taken and the card goes to the discard pile like any other card (D5)."""
    s = start(table(red=(loan, "Groat")))
    play(s, loan)
    do(s, f"Skip card text on {loan}")
    assert money(s, "Red") == 10
    assert in_front(s, "Red") == []
    assert where(s, loan) == "discard"


def test_loan_in_front_cannot_be_taken_back_by_mossy_lawn() -> None:
    """Mr Bent (D6): Doctor Mossy Lawn takes back the card played last only if it is in play or
    discarded; a loan lying in front of the player is not offered."""
    s = start(table(red=("Mr Bent", "Doctor Mossy Lawn", "Groat")))
    play(s, "Mr Bent")
    assert "Play Doctor Mossy Lawn: end your turn and take back Mr Bent" in actions(s)
    do(s, "Do the text")
    assert actions(s) == ["Play Groat", "Play no more cards"]
    assert in_front(s, "Red") == ["Mr Bent"]


def _end_by_deck(pos: dict[str, Any]) -> AnkhMorporkState:
    """Red plays The Peeled Nuts and draws the last card of the pile: the game ends (ruling 24)."""
    give(pos, "Red", "The Peeled Nuts", "Groat")
    keep = pos["draw_pile"][0]
    pos["out_of_game"] = [c for c in pos["draw_pile"] if c != keep]
    pos["draw_pile"] = [keep]
    lords = ("Lord Selachii", "Lord Rust", "Lord de Worde", "Dragon King of Arms")
    for colour, name in zip(("Red", "Blue", "Green", "Yellow"), lords, strict=True):
        set_personality(pos, colour, name)
    s = start(pos)
    play(s, "The Peeled Nuts")
    assert s.outcome() is not None and s.outcome().reason == "deck"
    return s


def test_loans_scored_repay_12_or_lose_15() -> None:
    """Mr Bent / The Bank at game end (rulebook, End of the Game; ruling 25): each loan is repaid
    with $12 if possible, else it costs 15 points; other points are unchanged."""
    pos = table(blue=(), Red=12, Blue=11, Green=30, Yellow=5)
    give(pos, "Red", "Mr Bent", zone="in_front")
    give(pos, "Blue", "The Bank of Ankh-Morpork", zone="in_front")
    minions(pos, "Dimwell", Blue=1)
    s = _end_by_deck(pos)
    # Red: $12 repays the loan -> 0. Blue: $11 cannot -> 11 + 5 (minion) - 15 = 1.
    # Green and Yellow have no loan.
    assert s.outcome().points == (0, 1, 30, 5)
    assert s.outcome().winners == (GREEN,)


def test_two_loans_each_repaid_or_penalised() -> None:
    """Both loan cards in front of one player count separately (ruling 25): $20 repays one
    ($12), the remaining $8 cannot repay the other, which costs 15 points: 8 - 15 = -7."""
    pos = table(blue=(), Red=20, Blue=0, Green=0, Yellow=0)
    give(pos, "Red", "Mr Bent", "The Bank of Ankh-Morpork", zone="in_front")
    s = _end_by_deck(pos)
    assert s.outcome().points == (-7, 0, 0, 0)


@pytest.mark.parametrize(("cash", "wins"), [(61, False), (62, True)])
def test_loan_counts_minus_12_for_chrysoprase(cash: int, wins: bool) -> None:
    """Mr Bent / The Bank and Chrysoprase (ruling 26): net worth is cash + buildings - $12 per
    loan, checked at the start of the turn (ruling 1). $62 - 12 = 50 wins; $61 - 12 = 49 not."""
    pos = table(red=("Groat", "Hex"), Red=cash)
    give(pos, "Red", "Mr Bent", zone="in_front")
    set_personality(pos, "Red", "Chrysoprase")
    s = start(pos)
    if wins:
        assert s.outcome() is not None and s.outcome().winners == (RED,)
        assert s.outcome().reason == "personality"
    else:
        assert s.outcome() is None
        assert s.to_move == RED


def test_loan_taken_this_turn_counts_for_chrysoprase_next_turn() -> None:
    """The Bank of Ankh-Morpork played by Chrysoprase with $45: $55 cash but worth $43, so no win
    at the start of the next turn (ruling 26)."""
    pos = table(red=("The Bank of Ankh-Morpork", "Groat"), blue=(), Red=45)
    set_personality(pos, "Red", "Chrysoprase")
    s = start(pos)
    play(s, "The Bank of Ankh-Morpork")
    do(s, "Do the text")
    do(s, "Play no more cards")
    # the others hold no card and pass automatically (D1); Red's next turn begins
    assert s.current == RED and s.turn == 5 and s.to_move == RED
    assert money(s, "Red") == 55
    assert s.outcome() is None


# --- G03 The Beggars' Guild, G13 Queen Molly (same text, symbols in the other order) ----------
@pytest.mark.parametrize(("card", "text_first"), [("The Beggars' Guild", True),
                                                  ("Queen Molly", False)])
def test_beggars_target_chooses_two_cards_to_give(card: str, text_first: bool) -> None:
    """The Beggars' Guild [scroll, minion] / Queen Molly [minion, scroll] (rulebook, symbols left
    to right): pick another player who holds cards (not yourself, not an empty hand); that
    player chooses the two cards they give you."""
    pos = table(red=(card, "Groat"), blue=("Hex", "Modo", "Dwarves", "Buggy Swires"), green=(),
                yellow=("Ruby",))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    first = actions(s)
    if text_first:
        assert first == [f"Do the text of {card}", f"Skip card text on {card}"]
    else:
        assert "Place a minion in Dimwell" in first and f"Do the text of {card}" not in first
        do(s, "Place a minion in Longwall")
        assert count(s, "Red", "Longwall") == 1
    do(s, f"Do the text of {card}")
    assert actions(s) == [f"Aim {card} at Blue", f"Aim {card} at Yellow"]  # Green: no cards
    do(s, f"Aim {card} at Blue")
    assert s.to_move == BLUE
    assert set(actions(s)) == {"Give Hex to Red", "Give Modo to Red", "Give Dwarves to Red",
                               "Give Buggy Swires to Red"}
    do(s, "Give Modo to Red")
    assert s.to_move == BLUE
    assert set(actions(s)) == {"Give Hex to Red", "Give Dwarves to Red", "Give Buggy Swires to Red"}
    do(s, "Give Dwarves to Red")
    assert hand(s, "Blue") == ["Buggy Swires", "Hex"]  # exactly two cards were given
    assert {"Groat", "Modo", "Dwarves"} <= set(hand(s, "Red"))
    if text_first:
        assert s.to_move == RED
        assert hand(s, "Red") == sorted(["Groat", "Modo", "Dwarves"])
        assert "Place a minion in Dimwell" in actions(s)
    else:  # the text was the last symbol: the card is done and the turn ends
        assert where(s, card) == "discard"
        assert s.current == BLUE and s.to_move == BLUE


@pytest.mark.parametrize("card", ["The Beggars' Guild", "Queen Molly"])
def test_beggars_target_with_one_card_gives_only_that(card: str) -> None:
    """The Beggars' Guild / Queen Molly: a player with a single card gives just that one
    (the only possible step is applied at once, D1)."""
    pos = table(red=(card, "Groat"), green=(), yellow=("Ruby",))
    s = start(pos)
    play(s, card)
    if card == "Queen Molly":
        do(s, "Skip place a minion")
    do(s, f"Do the text of {card}")
    do(s, f"Aim {card} at Yellow")
    assert hand(s, "Yellow") == []
    assert "Ruby" in hand(s, "Red")


def test_beggars_text_skipped_when_nobody_holds_cards() -> None:
    """The Beggars' Guild: with no other player holding a card the text cannot be done and is
    skipped without asking (D3); the place-a-minion symbol comes next."""
    pos = table(red=("The Beggars' Guild", "Groat"), blue=())
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "The Beggars' Guild")
    assert "Do the text of The Beggars' Guild" not in actions(s)
    assert "Place a minion in Dimwell" in actions(s)


# --- G04 The Ankh-Morpork Sunshine Dragon Sanctuary ----------------------------------------------
def test_sunshine_sanctuary_each_other_player_gives_1_or_a_card() -> None:
    """The Ankh-Morpork Sunshine Dragon Sanctuary (card text; D1): every other player, in turn
    order, chooses to give $1 or a card; with no money a card must be given; with neither nothing is
    given; then the play-another-card symbol."""
    card = "The Ankh-Morpork Sunshine Dragon Sanctuary"
    pos = table(red=(card, "Groat"), blue=("Hex", "Modo"), green=("Dwarves",), yellow=(),
                Blue=5, Green=0, Yellow=0)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert s.to_move == BLUE
    assert set(actions(s)) == {"Pay $1 to Red", "Give Hex to Red", "Give Modo to Red"}
    do(s, "Pay $1 to Red")
    # Green has $0: must give its card (one option, applied at once); Yellow has nothing.
    assert money(s, "Blue") == 4 and money(s, "Red") == 11
    assert hand(s, "Green") == [] and hand(s, "Yellow") == []
    assert hand(s, "Red") == ["Dwarves", "Groat"]
    assert s.to_move == RED
    assert actions(s) == ["Play Groat", "Play Dwarves", "Play no more cards"]


def test_sunshine_sanctuary_giver_may_choose_a_card_instead_of_paying() -> None:
    """The Ankh-Morpork Sunshine Dragon Sanctuary (card text, D19 spirit): each giver chooses which
    (a card although they could pay)."""
    card = "The Ankh-Morpork Sunshine Dragon Sanctuary"
    pos = table(red=(card, "Groat"), blue=("Hex", "Modo"), green=(), yellow=(), Green=0,
                Yellow=0)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    do(s, "Give Hex to Red")
    assert money(s, "Blue") == 10 and money(s, "Red") == 10
    assert hand(s, "Blue") == ["Modo"] and "Hex" in hand(s, "Red")


def test_sunshine_sanctuary_skipped_when_nobody_can_give() -> None:
    """The Ankh-Morpork Sunshine Dragon Sanctuary: no other player has $1 or a card -> the text
    would change nothing and is skipped (D3)."""
    card = "The Ankh-Morpork Sunshine Dragon Sanctuary"
    s = start(table(red=(card, "Groat"), blue=(), Blue=0, Green=0, Yellow=0))
    play(s, card)
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G05 Sergeant Angua --------------------------------------------------------------------------
def test_angua_removes_one_trouble_marker_then_play_another() -> None:
    """Sergeant Angua [remove trouble, play another] (rulebook, Remove one Trouble Marker; D5): only
    areas with a marker are offered; the minions stay; then another card may be played."""
    pos = table(red=("Sergeant Angua", "Groat"))
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)
    area(pos, "The Shades", trouble=True)
    s = start(pos)
    play(s, "Sergeant Angua")
    assert actions(s) == [
        "Remove the trouble marker from The Shades",
        "Remove the trouble marker from Dimwell",
        "Skip remove a trouble marker on Sergeant Angua",
    ]
    do(s, "Remove the trouble marker from Dimwell")
    assert not trouble(s, "Dimwell") and trouble(s, "The Shades")
    assert count(s, "Red", "Dimwell") == 1 and count(s, "Blue", "Dimwell") == 1
    assert where(s, "Sergeant Angua") == "discard"  # D5
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_angua_with_no_trouble_goes_straight_to_play_another() -> None:
    """Sergeant Angua: no trouble marker on the board -> the symbol is skipped (D3)."""
    s = start(table(red=("Sergeant Angua", "Groat")))
    play(s, "Sergeant Angua")
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G06 The Agony Aunts -------------------------------------------------------------------------
def test_agony_aunts_assassinate_then_2_then_minion() -> None:
    """The Agony Aunts [assassination, $2, minion] (rulebook, Assassination; ruling 9): only
    others' minions, trolls and demons in areas with trouble; the marker goes too."""
    pos = table(red=("The Agony Aunts", "Groat"))
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)
    minions(pos, "Longwall", Green=1)  # no trouble: safe
    area(pos, "The Shades", trolls=1, trouble=True)
    minions(pos, "The Shades", Red=1)
    s = start(pos)
    play(s, "The Agony Aunts")
    assert actions(s) == [
        "Assassinate a troll in The Shades",
        "Assassinate Blue's minion in Dimwell",
        "Skip assassination on The Agony Aunts",
    ]
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0 and count(s, "Red", "Dimwell") == 1
    assert not trouble(s, "Dimwell")
    assert actions(s) == ["Take $2 from the bank", "Skip take $2 on The Agony Aunts"]
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 12
    assert "Place a minion in Dimwell" in actions(s)
    do(s, "Place a minion in Dimwell")
    assert count(s, "Red", "Dimwell") == 2
    assert trouble(s, "Dimwell")  # placed where a minion already stood (rulebook, Trouble)
    assert where(s, "The Agony Aunts") == "discard"


def test_agony_aunts_no_target_skips_to_money() -> None:
    """The Agony Aunts: with no target the assassination is skipped (D3); own minions in trouble
    are never targets (rulebook, Assassination: 'but not your own')."""
    pos = table(red=("The Agony Aunts", "Groat"))
    minions(pos, "Dimwell", Red=2)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "The Agony Aunts")
    assert actions(s) == ["Take $2 from the bank", "Skip take $2 on The Agony Aunts"]
    do(s, "Skip take $2")
    assert money(s, "Red") == 10
    assert "Place a minion in Dimwell" in actions(s)


# --- G07 The Seamstresses' Guild, G16 Rosie Palm ------------------------------------------------
@pytest.mark.parametrize(("card", "text_first"), [("The Seamstresses' Guild", True),
                                                  ("Rosie Palm", False)])
def test_seamstresses_give_a_card_and_receive_2(card: str, text_first: bool) -> None:
    """The Seamstresses' Guild [scroll, minion] / Rosie Palm [minion, scroll]: choose a card
    from your hand and a player; they take it and pay you $2 (D19)."""
    pos = table(red=(card, "Hex", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    if not text_first:
        assert f"Do the text of {card}" not in actions(s)
        do(s, "Skip place a minion")
    do(s, f"Do the text of {card}")
    assert set(actions(s)) == {f"Give {c} to {p}" for c in ("Hex", "Groat")
                               for p in ("Blue", "Green", "Yellow")}
    do(s, "Give Hex to Green")
    assert hand(s, "Green") == ["Hex"] and "Hex" not in hand(s, "Red")
    assert money(s, "Green") == 8 and money(s, "Red") == 12
    if text_first:
        assert hand(s, "Red") == ["Groat"]
        assert "Place a minion in Dimwell" in actions(s)
    else:
        assert turn_passed_to_blue(s)


@pytest.mark.parametrize("card", ["The Seamstresses' Guild", "Rosie Palm"])
def test_seamstresses_receiver_pays_what_they_have(card: str) -> None:
    """The Seamstresses' Guild / Rosie Palm: a receiver with less than $2 pays what they have
    (D20) and still takes the card."""
    pos = table(red=(card, "Hex", "Groat"), Blue=1)
    s = start(pos)
    play(s, card)
    if card == "Rosie Palm":
        do(s, "Skip place a minion")
    do(s, f"Do the text of {card}")
    do(s, "Give Groat to Blue")
    assert money(s, "Blue") == 0 and money(s, "Red") == 11
    assert "Groat" in hand(s, "Blue")


def test_seamstresses_with_empty_hand_skips_text() -> None:
    """The Seamstresses' Guild: with no card left to give, the text cannot be done (D3)."""
    pos = table(red=("The Seamstresses' Guild",))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)  # the only card is played at once (D1)
    assert "Do the text of The Seamstresses' Guild" not in actions(s)
    assert "Place a minion in Dimwell" in actions(s)


# --- G08 Mr Pin & Mr Tulip, G34 Mr Gryle (same symbols) ------------------------------------------
@pytest.mark.parametrize("card", ["Mr Pin & Mr Tulip", "Mr Gryle"])
def test_assassin_pair_assassinate_then_1(card: str) -> None:
    """Mr Pin & Mr Tulip / Mr Gryle [assassination, $1] (rulebook, Assassination): a demon in
    a trouble area may be taken; minions outside trouble may not; then $1; no more cards."""
    pos = table(red=(card, "Groat"))
    area(pos, "Isle of Gods", demons=1, trouble=True)
    minions(pos, "Longwall", Blue=2)
    s = start(pos)
    play(s, card)
    assert actions(s) == ["Assassinate a demon in Isle of Gods", f"Skip assassination on {card}"]
    do(s, "Assassinate a demon in Isle of Gods")
    assert s.demons[9] == 0 and not trouble(s, "Isle of Gods")
    do(s, "Take $1 from the bank")
    assert money(s, "Red") == 11
    assert where(s, card) == "discard"
    assert turn_passed_to_blue(s)  # no play-another-card symbol: Groat stays in hand
    assert "Groat" in hand(s, "Red")


# --- G09 The Thieves' Guild, G43 Mr Boggis ------------------------------------------------------
@pytest.mark.parametrize("card", ["The Thieves' Guild", "Mr Boggis"])
def test_thieves_take_2_from_each_other_player_capped(card: str) -> None:
    """The Thieves' Guild / Mr Boggis: $2 from each other player, or what they have if less
    (D20); then the place-a-minion symbol."""
    pos = table(red=(card, "Groat"), Blue=5, Green=1, Yellow=0)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert (money(s, "Red"), money(s, "Blue"), money(s, "Green"), money(s, "Yellow")) == (
        13, 3, 0, 0)
    assert "Place a minion in Dimwell" in actions(s)


@pytest.mark.parametrize("card", ["The Thieves' Guild", "Mr Boggis"])
def test_thieves_with_everybody_broke_skips_text(card: str) -> None:
    """The Thieves' Guild / Mr Boggis: nobody else has money -> the text would change nothing
    and is skipped without asking (D3)."""
    pos = table(red=(card, "Groat"), Blue=0, Green=0, Yellow=0)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    assert f"Do the text of {card}" not in actions(s)
    assert "Place a minion in Dimwell" in actions(s)


# --- G10 Wallace Sonky (interrupt; ruling 15, D8, D9) --------------------------------------------
def test_wallace_sonky_is_not_a_turn_card() -> None:
    """Wallace Sonky (rulebook, Interrupt; ruling 2): an interrupt is not offered as the turn's
    card; a hand of only interrupts passes."""
    s = start(table(red=("Wallace Sonky", "Groat", "Hex")))
    assert actions(s) == ["Play Hex", "Play Groat"]
    s = start(table(red=("Wallace Sonky",)))
    assert "Red has no card to play and passes." in s.log()
    assert where(s, "Wallace Sonky") == "hand:Red"


def test_wallace_sonky_stops_text_for_its_player_only() -> None:
    """Wallace Sonky (ruling 15): Blue is not affected by The Thieves' Guild's text; the others
    still pay; the interrupt goes to the discard pile."""
    pos = table(red=("The Thieves' Guild", "Groat"), blue=("Wallace Sonky", *FILLER))
    s = start(pos)
    play(s, "The Thieves' Guild")
    do(s, "Do the text of The Thieves' Guild")
    assert s.to_move == BLUE
    assert actions(s) == ["Play Wallace Sonky", "Play no interrupt"]
    do(s, "Play Wallace Sonky")
    assert (money(s, "Red"), money(s, "Blue"), money(s, "Green"), money(s, "Yellow")) == (
        14, 10, 8, 8)
    assert where(s, "Wallace Sonky") == "discard"


def test_wallace_sonky_does_not_stop_an_assassination_symbol() -> None:
    """Wallace Sonky (ruling 15; reference manual FAQ): symbols are not stopped, so Blue is not
    even asked when Mr Gryle's assassination symbol hits their minion (ruling 19)."""
    pos = table(red=("Mr Gryle", "Groat"), blue=("Wallace Sonky", *FILLER))
    minions(pos, "Dimwell", Blue=1, Red=1)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "Mr Gryle")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert count(s, "Blue", "Dimwell") == 0
    assert s.to_move == RED and where(s, "Wallace Sonky") == "hand:Blue"


# --- G11 Dr Whiteface, G40 The Fools' Guild (D22) ------------------------------------------------
WHITEFACE = ["Dr Whiteface", "The Fools' Guild"]


@pytest.mark.parametrize("card", WHITEFACE)
def test_whiteface_target_may_pay_5(card: str) -> None:
    """Dr Whiteface / The Fools' Guild (D22): the chosen player pays $5, or takes the card in front;
    paying, the card is discarded as usual; then place a minion."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert actions(s) == [f"Aim {card} at Blue", f"Aim {card} at Green",
                          f"Aim {card} at Yellow"]
    do(s, f"Aim {card} at Blue")
    assert s.to_move == BLUE
    assert actions(s) == ["Pay $5 to Red",
                          f"Take {card} in front of you instead of paying"]
    do(s, "Pay $5 to Red")
    assert money(s, "Blue") == 5 and money(s, "Red") == 15
    assert in_front(s, "Blue") == []
    do(s, "Place a minion in Dimwell")
    assert where(s, card) == "discard"


@pytest.mark.parametrize("card", WHITEFACE)
def test_whiteface_target_without_5_must_take_the_card(card: str) -> None:
    """Dr Whiteface / The Fools' Guild (D22): a target with less than $5 must take the card
    face-up in front of them; it is not discarded, and pays nothing."""
    pos = table(red=(card, "Groat"), Green=4)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    do(s, f"Aim {card} at Green")  # Green's only choice is applied at once (D1)
    assert in_front(s, "Green") == [card]
    assert money(s, "Green") == 4 and money(s, "Red") == 10
    do(s, "Skip place a minion")
    assert where(s, card) == "front:Green"


@pytest.mark.parametrize("card", WHITEFACE)
def test_whiteface_in_front_takes_a_hand_slot_when_refilling(card: str) -> None:
    """Dr Whiteface / The Fools' Guild in front (ruling 4, D22): it counts toward the five cards,
    so Blue refills to four in hand, and it stays in front for good."""
    pos = table(red=(), blue=("The Peeled Nuts", "Groat"), green=FILLER)
    pos["current"] = "Blue"
    give(pos, "Blue", card, zone="in_front")
    s = start(pos)
    play(s, "The Peeled Nuts")
    assert s.current == GREEN
    assert len(hand(s, "Blue")) == 4
    assert in_front(s, "Blue") == [card]


def test_whiteface_cannot_be_discarded_through_the_scours() -> None:
    """The Fools' Guild in front can never be got rid of (ruling 4): The Scours' power offers only
    cards in hand."""
    pos = table(red=("Groat", "Hex"))
    give(pos, "Red", "The Fools' Guild", zone="in_front")
    minions(pos, "The Scours", Red=1)
    area(pos, "The Scours", building="Red")
    s = start(pos)
    assert offered(s, "Use The Scours") == {"Use The Scours: discard Hex and take $2",
                                            "Use The Scours: discard Groat and take $2"}


# --- G12 Zorgo the Retro-phrenologist (D26) ------------------------------------------------------
def test_zorgo_swaps_personality_with_a_random_unused_one() -> None:
    """Zorgo the Retro-phrenologist [scroll, building] (D26): swap for a random unused
    personality; the old one joins the unused ones; then the building symbol."""
    pos = table(red=("Zorgo the Retro-phrenologist", "Groat"))
    minions(pos, "Dimwell", Red=1)
    unused = list(pos["unused_personalities"])
    s = start(pos)
    play(s, "Zorgo the Retro-phrenologist")
    do(s, "Do the text")
    assert actions(s) == ["Swap your personality for a random unused one", "Done"]
    do(s, "Swap your personality")
    assert personality(s, "Red") in unused
    after = [PERSONALITIES[p].name for p in s.unused_personalities]
    assert sorted(after) == sorted([p for p in unused if p != personality(s, "Red")]
                                   + ["Commander Vimes"])
    assert actions(s) == ["Build in Dimwell for $6",
                          "Skip place a building on Zorgo the Retro-phrenologist"]


def test_zorgo_swap_is_optional() -> None:
    """Zorgo the Retro-phrenologist (D26; rulebook, Game Play: actions optional): 'you may swap' ->
    Done keeps the personality."""
    s = start(table(red=("Zorgo the Retro-phrenologist", "Groat")))
    play(s, "Zorgo the Retro-phrenologist")
    do(s, "Do the text")
    do(s, "Done")
    assert personality(s, "Red") == "Commander Vimes"
    assert "Red kept their personality." in s.log()


# --- G14 The Royal Mint, G19 The Mended Drum (building before money) ------------------------------
def test_royal_mint_builds_then_takes_5() -> None:
    """The Royal Mint [building, $5] (rulebook, Place a Building): only where Red has a minion,
    no trouble, no building, and Red can pay now (the $5 comes after)."""
    pos = table(red=("The Royal Mint", "Groat"), Red=7)
    minions(pos, "Dolly Sisters", Red=1)  # $6: possible
    minions(pos, "Dragon's Landing", Red=1)  # $12: too dear
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)  # trouble: no
    minions(pos, "The Scours", Red=1)
    area(pos, "The Scours", building="Blue")  # built: no
    s = start(pos)
    play(s, "The Royal Mint")
    assert actions(s) == ["Build in Dolly Sisters for $6",
                          "Skip place a building on The Royal Mint"]
    do(s, "Build in Dolly Sisters for $6")
    assert money(s, "Red") == 1
    assert s.position()["areas"]["Dolly Sisters"]["card"] == "Red"
    assert actions(s) == ["Take $5 from the bank", "Skip take $5 on The Royal Mint"]
    do(s, "Take $5 from the bank")
    assert money(s, "Red") == 6
    assert where(s, "The Royal Mint") == "discard"


def test_mended_drum_money_comes_too_late_to_build() -> None:
    """The Mended Drum [building, $2]: with $5 Red cannot build in a $6 area, so the building
    symbol is skipped (D3) and the $2 follows; symbols are done left to right."""
    pos = table(red=("The Mended Drum", "Groat"), Red=5)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "The Mended Drum")
    assert actions(s) == ["Take $2 from the bank", "Skip take $2 on The Mended Drum"]
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 7
    assert s.position()["areas"]["Dimwell"]["building"] is None
    assert turn_passed_to_blue(s)


def test_mended_drum_builds_then_takes_2() -> None:
    """The Mended Drum (rulebook, Place a Building): build (the City Area card is taken),
    then $2."""
    pos = table(red=("The Mended Drum", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "The Mended Drum")
    do(s, "Build in Dimwell for $6")
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 6
    assert s.position()["areas"]["Dimwell"] == {
        "minions": {"Red": 1}, "trolls": 0, "demons": 0, "trouble": False,
        "building": "Red", "card": "Red"}


# --- G15 Rincewind -------------------------------------------------------------------------------
def test_rincewind_random_event_is_mandatory_then_move_out_of_trouble() -> None:
    """Rincewind [random event, scroll, play another] (rulebook, Random Event: the one action
    that is not optional): no skip is offered; then one of Red's minions in an area with trouble
    moves to an adjacent area (only those), taking the marker away (ruling 7)."""
    pos = table(red=("Rincewind", "Groat"))
    next_events(pos, "Riots")
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)
    minions(pos, "Nap Hill", Red=1)
    area(pos, "Nap Hill", building="Red")  # a power is usable, so the event step is shown
    s = start(pos)
    play(s, "Rincewind")
    assert actions(s) == ["Draw a random event", "Use Nap Hill: take $1 from the bank"]
    do(s, "Draw a random event")
    assert "Random event: Riots." in s.log()
    do(s, "Do the text of Rincewind")
    assert set(actions(s)) == {"Move Red's minion from Dimwell to The Scours",
                               "Move Red's minion from Dimwell to The Shades",
                               "Move Red's minion from Dimwell to Longwall"}
    do(s, "Move Red's minion from Dimwell to Longwall")
    assert count(s, "Red", "Dimwell") == 0 and count(s, "Red", "Longwall") == 1
    assert not trouble(s, "Dimwell") and not trouble(s, "Longwall")
    assert where(s, "Rincewind") == "discard"
    assert actions(s) == ["Play Groat", "Play no more cards",
                          "Use Nap Hill: take $1 from the bank"]


def test_rincewind_event_happens_without_asking_and_text_needs_trouble() -> None:
    """Rincewind: with nothing else to decide the random event is drawn at once (D1); with none
    of Red's minions in trouble the text cannot be done (D3): next is play another card."""
    pos = table(red=("Rincewind", "Groat"))
    next_events(pos, "Riots")
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Rincewind")
    assert s.position()["events_done"] == ["Riots"]
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_rincewind_with_no_events_left_keeps_its_other_symbols() -> None:
    """Rincewind (ruling 20): with the event deck empty the random-event symbol does nothing,
    and the card's text and play-another-card symbol still follow."""
    pos = table(red=("Rincewind", "Groat"))
    pos["events_done"], pos["events"] = pos["events"], []
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "Rincewind")
    assert "No random events are left." in s.log()
    assert actions(s) == ["Do the text of Rincewind", "Skip card text on Rincewind"]
    do(s, "Skip card text")
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G17 Sacharissa Cripslock ---------------------------------------------------------------------
def test_sacharissa_takes_1_per_trouble_marker() -> None:
    """Sacharissa Cripslock [scroll, minion] (rulebook, Scroll): $1 for every trouble marker on the
    board."""
    pos = table(red=("Sacharissa Cripslock", "Groat"))
    for name in ("Dimwell", "The Shades", "Nap Hill"):
        area(pos, name, trouble=True)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Sacharissa Cripslock")
    do(s, "Do the text")
    assert money(s, "Red") == 13
    assert "Place a minion in Dimwell" in actions(s)


def test_sacharissa_without_trouble_skips_text() -> None:
    """Sacharissa Cripslock with no trouble marker: the text would change nothing and is
    skipped without asking (D3)."""
    pos = table(red=("Sacharissa Cripslock", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Sacharissa Cripslock")
    assert "Do the text of Sacharissa Cripslock" not in actions(s)
    assert "Place a minion in Dimwell" in actions(s)


# --- G18 Shonky Shop, G36 Harry King (discard any number for money) -------------------------------
def test_shonky_shop_discard_any_number_for_1_each_then_build() -> None:
    """Shonky Shop [scroll, building] (rulebook, Scroll; symbols left to right): discard any number
    of cards, $1 each; stop when you like; then the building symbol."""
    pos = table(red=("Shonky Shop", "Hex", "Modo", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Shonky Shop")
    do(s, "Do the text")
    assert actions(s) == ["Discard Modo", "Discard Hex", "Discard Groat", "Done"]
    do(s, "Discard Hex")
    do(s, "Discard Modo")
    assert actions(s) == ["Discard Groat", "Done"]
    do(s, "Done")
    assert money(s, "Red") == 12
    assert hand(s, "Red") == ["Groat"]
    assert where(s, "Hex") == "discard" and where(s, "Modo") == "discard"
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Shonky Shop"]


def test_harry_king_minion_then_discard_for_2_each() -> None:
    """Harry King [minion, scroll] (rulebook, symbols left to right): place a minion first, then
    discard any number, $2 each (all of the hand may go)."""
    pos = table(red=("Harry King", "Hex", "Modo"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Harry King")
    assert "Do the text of Harry King" not in actions(s)
    do(s, "Place a minion in Dimwell")
    do(s, "Do the text of Harry King")
    do(s, "Discard Hex")
    do(s, "Discard Modo")  # the last card: nothing left to decide, the text ends
    assert money(s, "Red") == 14
    assert turn_passed_to_blue(s)
    assert where(s, "Harry King") == "discard"


# --- G20 Modo ------------------------------------------------------------------------------------
def test_modo_may_discard_one_card_then_minion() -> None:
    """Modo [scroll, minion] (rulebook, Scroll): discard at most one card (no money), or none."""
    pos = table(red=("Modo", "Hex", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Modo")
    do(s, "Do the text")
    assert actions(s) == ["Discard Hex", "Discard Groat", "Done"]
    do(s, "Discard Hex")
    assert money(s, "Red") == 10
    assert hand(s, "Red") == ["Groat"] and where(s, "Hex") == "discard"
    assert "Place a minion in Dimwell" in actions(s)  # only one card: on to the next symbol


def test_modo_discard_is_optional() -> None:
    """Modo (rulebook, Game Play: actions are optional): 'you may' -> Done keeps the hand."""
    pos = table(red=("Modo", "Hex", "Groat"))
    s = start(pos)
    play(s, "Modo")
    do(s, "Do the text")
    do(s, "Done")
    assert hand(s, "Red") == ["Groat", "Hex"]


# --- G21 Nobby Nobbs -----------------------------------------------------------------------------
def test_nobby_nobbs_takes_3_from_one_player_capped() -> None:
    """Nobby Nobbs [scroll, play another]: $3 from one chosen player; one with less pays what
    they have (D20); a player with $0 is not offered (nothing to take, D3); then another card
    may be played."""
    pos = table(red=("Nobby Nobbs", "Groat"), Blue=2, Green=0)
    s = start(pos)
    play(s, "Nobby Nobbs")
    do(s, "Do the text")
    assert actions(s) == ["Aim Nobby Nobbs at Blue", "Aim Nobby Nobbs at Yellow"]
    do(s, "Aim Nobby Nobbs at Blue")
    assert money(s, "Blue") == 0 and money(s, "Red") == 12
    assert money(s, "Green") == 0 and money(s, "Yellow") == 10
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_nobby_nobbs_with_everybody_broke_skips_text() -> None:
    """Nobby Nobbs: no other player has money -> the text would change nothing and is skipped
    (D3); next is the play-another-card symbol."""
    s = start(table(red=("Nobby Nobbs", "Groat"), Blue=0, Green=0, Yellow=0))
    play(s, "Nobby Nobbs")
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_nobby_nobbs_full_3() -> None:
    """Nobby Nobbs (rulebook, Scroll): a player with enough pays the full $3, only that
    player."""
    s = start(table(red=("Nobby Nobbs", "Groat")))
    play(s, "Nobby Nobbs")
    do(s, "Do the text")
    do(s, "Aim Nobby Nobbs at Yellow")
    assert (money(s, "Red"), money(s, "Blue"), money(s, "Yellow")) == (13, 10, 7)


# --- G22 The Opera House, G38 The Dysk (D15) -----------------------------------------------------
@pytest.mark.parametrize("card", ["The Opera House", "The Dysk"])
def test_opera_house_build_then_1_per_minion_in_isle_of_gods(card: str) -> None:
    """The Opera House / The Dysk [building, scroll] (D15): $1 per minion of any owner in the
    Isle of Gods, trolls and demons included; minions elsewhere do not count."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Isle of Gods", Red=1, Blue=2)
    area(pos, "Isle of Gods", trolls=1, demons=1, trouble=True)
    minions(pos, "Dimwell", Red=1, Green=3)
    s = start(pos)
    play(s, card)
    assert actions(s) == ["Build in Dimwell for $6", f"Skip place a building on {card}"]
    do(s, "Build in Dimwell for $6")
    do(s, f"Do the text of {card}")
    assert money(s, "Red") == 10 - 6 + 5
    assert where(s, card) == "discard"
    assert turn_passed_to_blue(s)


@pytest.mark.parametrize("card", ["The Opera House", "The Dysk"])
def test_opera_house_with_empty_isle_of_gods_skips_text(card: str) -> None:
    """The Opera House / The Dysk: nobody in the Isle of Gods -> the text would change nothing
    and is skipped (D3): after the building, the turn is over."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    do(s, "Build in Dimwell for $6")
    assert turn_passed_to_blue(s)
    assert money(s, "Red") == 4


# --- G23 The Peeled Nuts -------------------------------------------------------------------------
def test_peeled_nuts_does_nothing_and_ends_the_turn() -> None:
    """The Peeled Nuts: no symbols, no text. It is a legal turn card (ruling 2); it goes to the
    discard pile, nothing else changes, and no other card is played."""
    pos = table(red=("The Peeled Nuts", "Groat"))
    minions(pos, "Dimwell", Red=1)
    before = start(pos).position()
    s = start(pos)
    assert actions(s) == ["Play The Peeled Nuts", "Play Groat"]
    play(s, "The Peeled Nuts")
    assert turn_passed_to_blue(s)
    assert where(s, "The Peeled Nuts") == "discard"
    after = s.position()
    assert after["areas"] == before["areas"]
    assert [x["money"] for x in after["seats"]] == [10, 10, 10, 10]
    assert "Groat" in hand(s, "Red")


# --- G24 Pink Pussy Cat Club ---------------------------------------------------------------------
def test_pink_pussy_cat_club_takes_3_then_play_another() -> None:
    """Pink Pussy Cat Club [$3, play another] (rulebook, Take Money; D5): take $3; then any other
    card may be played."""
    s = start(table(red=("Pink Pussy Cat Club", "Groat", "Hex")))
    play(s, "Pink Pussy Cat Club")
    assert actions(s) == ["Take $3 from the bank", "Skip take $3 on Pink Pussy Cat Club"]
    do(s, "Take $3 from the bank")
    assert money(s, "Red") == 13
    assert where(s, "Pink Pussy Cat Club") == "discard"  # D5
    assert actions(s) == ["Play Hex", "Play Groat", "Play no more cards"]


def test_pink_pussy_cat_club_money_is_optional() -> None:
    """Pink Pussy Cat Club: every symbol but the random event is optional (rulebook)."""
    s = start(table(red=("Pink Pussy Cat Club", "Groat")))
    play(s, "Pink Pussy Cat Club")
    do(s, "Skip take $3")
    assert money(s, "Red") == 10
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G25 Here'n'Now (dice; D9, D20) --------------------------------------------------------------
def _roll_position(card: str, roll: int, **cash: int) -> dict[str, Any]:
    pos = table(red=(card, "Groat"), **cash)
    pos["rng"] = seed_for(roll)
    return pos


@pytest.mark.parametrize("roll", [7, 12])
def test_here_n_now_high_roll_takes_3_from_a_chosen_player(roll: int) -> None:
    """Here'n'Now on 7-12: take $3 from a player of your choice (less if they have less, D20);
    then play another card."""
    s = start(_roll_position("Here'n'Now", roll, Green=2, Yellow=0))
    play(s, "Here'n'Now")
    do(s, "Do the text")
    assert f"Red rolled {roll}." in s.log()
    assert actions(s) == ["Aim Here'n'Now at Blue", "Aim Here'n'Now at Green"]  # Yellow: $0
    do(s, "Aim Here'n'Now at Green")
    assert money(s, "Green") == 0 and money(s, "Red") == 12
    assert actions(s) == ["Play Groat", "Play no more cards"]


@pytest.mark.parametrize("roll", [2, 6])
def test_here_n_now_middle_roll_does_nothing(roll: int) -> None:
    """Here'n'Now on 2-6 (card text; rulebook, Scroll): nothing happens."""
    pos = _roll_position("Here'n'Now", roll)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Here'n'Now")
    do(s, "Do the text")
    assert f"Red rolled {roll}." in s.log()
    assert [x["money"] for x in s.position()["seats"]] == [10, 10, 10, 10]
    assert count(s, "Red", "Dimwell") == 1
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_here_n_now_roll_of_1_removes_one_of_your_own_minions() -> None:
    """Here'n'Now on 1 (card text; D9): Red must remove one of their own minions (only Red's are
    offered, no way to decline)."""
    pos = _roll_position("Here'n'Now", 1)
    minions(pos, "Dimwell", Red=1, Blue=1)
    minions(pos, "Nap Hill", Red=2)
    s = start(pos)
    play(s, "Here'n'Now")
    do(s, "Do the text")
    assert "Red rolled 1." in s.log()
    assert actions(s) == ["Remove Red's minion from Dimwell", "Remove Red's minion from Nap Hill"]
    do(s, "Remove Red's minion from Nap Hill")
    assert count(s, "Red", "Nap Hill") == 1 and count(s, "Blue", "Dimwell") == 1
    assert money(s, "Red") == 10
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G26 Hex -------------------------------------------------------------------------------------
def test_hex_draws_three_then_building() -> None:
    """Hex [scroll, building] (rulebook, Scroll; symbols left to right): draw the top three
    cards of the draw pile; then build."""
    pos = table(red=("Hex", "Groat"))
    minions(pos, "Dimwell", Red=1)
    top = pos["draw_pile"][:4]
    s = start(pos)
    play(s, "Hex")
    do(s, "Do the text")
    assert hand(s, "Red") == sorted(["Groat", *top[:3]])
    assert s.position()["draw_pile"][0] == top[3]
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Hex"]


# --- G27 History Monks ---------------------------------------------------------------------------
def test_history_monks_take_four_random_cards_from_the_discard_pile() -> None:
    """History Monks [scroll, minion] (rulebook, Scroll): four cards at random from the discard pile
    (not the Monks themselves, still in play); the rest stays as the discard pile."""
    pile = ("Hex", "Modo", "Mr Gryle", "Inigo Skimmer", "Dr Cruces", "Captain Carrot")
    pos = table(red=("History Monks", "Groat"))
    to_pile(pos, "discard_pile", *pile)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "History Monks")
    do(s, "Do the text")
    got = [c for c in hand(s, "Red") if c != "Groat"]
    assert len(got) == 4 and set(got) <= set(pile)
    assert sorted(s.position()["discard_pile"]) == sorted(set(pile) - set(got))
    do(s, "Place a minion in Dimwell")
    assert where(s, "History Monks") == "discard"


def test_history_monks_with_empty_discard_pile_skip_text() -> None:
    """History Monks: an empty discard pile -> the text cannot be done (D3)."""
    pos = table(red=("History Monks", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "History Monks")
    assert "Do the text of History Monks" not in actions(s)
    assert "Place a minion in Dimwell" in actions(s)


def test_history_monks_with_small_discard_pile_take_what_there_is() -> None:
    """History Monks (rulebook, Scroll): fewer than four cards in the discard pile -> take them
    all."""
    pos = table(red=("History Monks", "Groat"))
    to_pile(pos, "discard_pile", "Hex", "Modo")
    s = start(pos)
    play(s, "History Monks")
    do(s, "Do the text")
    assert hand(s, "Red") == ["Groat", "Hex", "Modo"]
    assert s.position()["discard_pile"] == []


# --- G28 Inigo Skimmer, G46 Dr Cruces ------------------------------------------------------------
@pytest.mark.parametrize(("card", "amount"), [("Inigo Skimmer", 2), ("Dr Cruces", 3)])
def test_assassin_then_money(card: str, amount: int) -> None:
    """Inigo Skimmer [assassination, $2] / Dr Cruces [assassination, $3] (rulebook,
    Assassination; ruling 9): another's minion in an area with trouble; the marker goes, the
    other minions stay; then the money; no further card."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Dimwell", Blue=2, Green=1)
    area(pos, "Dimwell", trouble=True)
    minions(pos, "Nap Hill", Yellow=1)
    s = start(pos)
    play(s, card)
    assert actions(s) == ["Assassinate Blue's minion in Dimwell",
                          "Assassinate Green's minion in Dimwell",
                          f"Skip assassination on {card}"]
    do(s, "Assassinate Green's minion in Dimwell")
    assert count(s, "Green", "Dimwell") == 0 and count(s, "Blue", "Dimwell") == 2
    assert not trouble(s, "Dimwell")
    do(s, f"Take ${amount} from the bank")
    assert money(s, "Red") == 10 + amount
    assert turn_passed_to_blue(s)


# --- G29 Leonard of Quirm, G30 Librarian ---------------------------------------------------------
@pytest.mark.parametrize("card", ["Leonard of Quirm", "Librarian"])
def test_draw_four_cards(card: str) -> None:
    """Leonard of Quirm / Librarian [scroll]: draw four cards from the draw pile; the hand may
    exceed five, nothing is discarded at the end of the turn (rulebook, Game Play)."""
    pos = table(red=(card, "Groat", "Hex"))
    top = pos["draw_pile"][:4]
    s = start(pos)
    play(s, card)
    do(s, "Do the text")
    assert turn_passed_to_blue(s)
    assert hand(s, "Red") == sorted(["Groat", "Hex", *top])
    assert where(s, card) == "discard"


# --- G31 Gaspode (interrupt; ruling 12) ----------------------------------------------------------
def test_gaspode_is_not_a_turn_card() -> None:
    """Gaspode (rulebook, Interrupt; ruling 2): not offered as the turn's card."""
    s = start(table(red=("Gaspode", "Groat", "Hex")))
    assert actions(s) == ["Play Hex", "Play Groat"]


def test_gaspode_stops_an_assassination_symbol() -> None:
    """Gaspode (ruling 12): Blue stops Inigo Skimmer's assassination of their minion; the minion
    and the marker stay; Red still takes the $2; Gaspode is discarded."""
    pos = table(red=("Inigo Skimmer", "Groat"), blue=("Gaspode", *FILLER))
    minions(pos, "Dimwell", Blue=1, Red=1)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "Inigo Skimmer")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert s.to_move == BLUE
    assert actions(s) == ["Play Gaspode", "Play no interrupt"]
    do(s, "Play Gaspode")
    assert count(s, "Blue", "Dimwell") == 1 and trouble(s, "Dimwell")
    assert where(s, "Gaspode") == "discard"
    assert s.to_move == RED
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 12


# --- G32 Gimlet's Dwarf Delicatessen, G35 Harga's House of Ribs ----------------------------------
@pytest.mark.parametrize("card", ["Gimlet's Dwarf Delicatessen", "Harga's House of Ribs"])
def test_money_3_then_minion(card: str) -> None:
    """Gimlet's Dwarf Delicatessen / Harga's House of Ribs [$3, minion] (rulebook, Place a
    Minion): $3 first, then a minion where Red has one or next to it."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, card)
    assert actions(s) == ["Take $3 from the bank", f"Skip take $3 on {card}"]
    do(s, "Take $3 from the bank")
    assert money(s, "Red") == 13
    assert set(actions(s)) == {"Place a minion in The Scours", "Place a minion in The Shades",
                               "Place a minion in Dimwell", "Place a minion in Longwall",
                               f"Skip place a minion on {card}"}
    do(s, "Place a minion in Longwall")
    assert count(s, "Red", "Longwall") == 1
    assert turn_passed_to_blue(s)


# --- G33 Groat (ruling 6) ------------------------------------------------------------------------
def test_groat_places_next_to_own_minions() -> None:
    """Groat [minion] (ruling 6): in an area with one of Red's minions or adjacent (bridges
    count); an area already holding a minion gets trouble (ruling 7)."""
    pos = table(red=("Groat", "Hex"))
    minions(pos, "Dolly Sisters", Red=1)
    minions(pos, "Nap Hill", Blue=1)
    s = start(pos)
    play(s, "Groat")
    assert actions(s) == ["Place a minion in Dolly Sisters", "Place a minion in Unreal Estate",
                          "Place a minion in Dragon's Landing", "Place a minion in Nap Hill",
                          "Skip place a minion on Groat"]
    do(s, "Place a minion in Nap Hill")
    assert count(s, "Red", "Nap Hill") == 1 and trouble(s, "Nap Hill")


def test_groat_with_no_minion_on_the_board_places_anywhere() -> None:
    """Groat (ruling 6): with no minion on the board, any of the twelve areas; an empty area
    gets no trouble."""
    s = start(table(red=("Groat", "Hex")))
    play(s, "Groat")
    assert len(offered(s, "Place a minion in")) == 12
    do(s, "Place a minion in Seven Sleepers")
    assert count(s, "Red", "Seven Sleepers") == 1 and not trouble(s, "Seven Sleepers")


def test_groat_with_all_twelve_out_moves_one() -> None:
    """Groat (rulebook, Place a Minion; ruling 6): with all 12 minions on the board Red lifts
    one and places it by the same rule."""
    pos = table(red=("Groat", "Hex"))
    minions(pos, "Dimwell", Red=11)
    minions(pos, "Seven Sleepers", Red=1)
    s = start(pos)
    play(s, "Groat")
    assert "Move a minion from Dimwell to Longwall" in actions(s)
    assert "Move a minion from Seven Sleepers to Dimwell" in actions(s)
    # lifting the lone minion in Seven Sleepers, it can only go next to Dimwell
    assert "Move a minion from Seven Sleepers to Nap Hill" not in actions(s)
    assert not offered(s, "Place a minion in")
    do(s, "Move a minion from Dimwell to Longwall")
    assert count(s, "Red", "Dimwell") == 10 and count(s, "Red", "Longwall") == 1


# --- G37 The Duckman, G41 Foul Ole Ron -----------------------------------------------------------
@pytest.mark.parametrize(("card", "another"), [("The Duckman", False), ("Foul Ole Ron", True)])
def test_move_another_players_minion_to_an_adjacent_area(card: str, another: bool) -> None:
    """The Duckman [scroll] / Foul Ole Ron [scroll, play another]: move one minion of another
    player (not Red's, not a troll) to an adjacent area; trouble follows the move (ruling 7)."""
    pos = table(red=(card, "Groat"))
    minions(pos, "Dimwell", Red=1)
    minions(pos, "Longwall", Green=1, Red=1)
    area(pos, "Longwall", trouble=True)
    area(pos, "The Shades", trolls=1)
    minions(pos, "Nap Hill", Blue=1)
    s = start(pos)
    play(s, card)
    do(s, f"Do the text of {card}")
    assert set(actions(s)) == {
        "Move Green's minion from Longwall to Dimwell",
        "Move Green's minion from Longwall to Isle of Gods",
        "Move Green's minion from Longwall to Seven Sleepers",
        "Move Blue's minion from Nap Hill to Dolly Sisters",
        "Move Blue's minion from Nap Hill to Unreal Estate",
        "Move Blue's minion from Nap Hill to Seven Sleepers",
    }
    do(s, "Move Green's minion from Longwall to Dimwell")
    assert count(s, "Green", "Dimwell") == 1 and count(s, "Green", "Longwall") == 0
    assert trouble(s, "Dimwell") and not trouble(s, "Longwall")
    if another:
        assert actions(s) == ["Play Groat", "Play no more cards"]
    else:
        assert turn_passed_to_blue(s)


# --- G39 The Fire Brigade ------------------------------------------------------------------------
def test_fire_brigade_refused_may_remove_a_building() -> None:
    """The Fire Brigade [scroll, play another] (rulebook, Scroll; D3): only players with a building
    can be chosen; a player who does not pay $5 may lose one building of Red's choice (card back on
    display)."""
    pos = table(red=("The Fire Brigade", "Groat"))
    area(pos, "Nap Hill", building="Blue")
    area(pos, "Longwall", building="Blue")
    area(pos, "Dimwell", building="Yellow")
    s = start(pos)
    play(s, "The Fire Brigade")
    do(s, "Do the text")
    assert actions(s) == ["Aim The Fire Brigade at Blue", "Aim The Fire Brigade at Yellow"]
    do(s, "Aim The Fire Brigade at Blue")
    assert s.to_move == BLUE
    assert actions(s) == ["Pay $5 to Red", "Refuse to pay"]
    do(s, "Refuse to pay")
    assert s.to_move == RED
    assert actions(s) == ["Remove Blue's building in Longwall",
                          "Remove Blue's building in Nap Hill", "Done"]
    do(s, "Remove Blue's building in Nap Hill")
    assert s.position()["areas"]["Nap Hill"]["building"] is None
    assert s.position()["areas"]["Nap Hill"]["card"] == "display"
    assert s.position()["areas"]["Longwall"]["building"] == "Blue"
    assert money(s, "Blue") == 10 and money(s, "Red") == 10
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_fire_brigade_paid_keeps_the_building() -> None:
    """The Fire Brigade (rulebook, Scroll): paying $5 keeps the buildings."""
    pos = table(red=("The Fire Brigade", "Groat"))
    area(pos, "Nap Hill", building="Blue")
    s = start(pos)
    play(s, "The Fire Brigade")
    do(s, "Do the text")  # Blue is the only player with a building
    do(s, "Pay $5 to Red")
    assert money(s, "Blue") == 5 and money(s, "Red") == 15
    assert s.position()["areas"]["Nap Hill"]["building"] == "Blue"


def test_fire_brigade_cannot_pay_and_removal_is_optional() -> None:
    """The Fire Brigade: Blue with $4 cannot pay (refusal applied at once, D1); 'you may remove'
    -> Red may leave the building (Done)."""
    pos = table(red=("The Fire Brigade", "Groat"), Blue=4)
    area(pos, "Nap Hill", building="Blue")
    s = start(pos)
    play(s, "The Fire Brigade")
    do(s, "Do the text")
    assert "Blue refused to pay." in s.log()
    assert actions(s) == ["Remove Blue's building in Nap Hill", "Done"]
    do(s, "Done")
    assert s.position()["areas"]["Nap Hill"]["building"] == "Blue"
    assert money(s, "Blue") == 4


def test_fire_brigade_without_buildings_skips_text() -> None:
    """The Fire Brigade: nobody else has a building -> the text cannot be done (D3)."""
    s = start(table(red=("The Fire Brigade", "Groat")))
    play(s, "The Fire Brigade")
    assert actions(s) == ["Play Groat", "Play no more cards"]
    assert "Red played The Fire Brigade." in s.log()


# --- G42 Fresh Start Club (interrupt; ruling 14) -------------------------------------------------
def test_fresh_start_club_is_not_a_turn_card() -> None:
    """Fresh Start Club (rulebook, Interrupt; ruling 2): not offered as the turn's card."""
    s = start(table(red=("Fresh Start Club", "Groat", "Hex")))
    assert actions(s) == ["Play Hex", "Play Groat"]


def test_fresh_start_club_moves_the_assassinated_minion_elsewhere() -> None:
    """Fresh Start Club (ruling 14): Blue's minion assassinated by Dr Cruces goes to another area
    of Blue's choice instead (any area but that one); Red still takes $3."""
    pos = table(red=("Dr Cruces", "Groat"), blue=("Fresh Start Club", *FILLER))
    minions(pos, "Dimwell", Blue=1, Red=1)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "Dr Cruces")
    do(s, "Assassinate Blue's minion in Dimwell")
    assert actions(s) == ["Play Fresh Start Club", "Play no interrupt"]
    do(s, "Play Fresh Start Club")
    assert s.to_move == BLUE
    assert len(actions(s)) == 11 and "Choose Dimwell" not in actions(s)
    do(s, "Choose Seven Sleepers")
    assert count(s, "Blue", "Dimwell") == 0 and count(s, "Blue", "Seven Sleepers") == 1
    assert not trouble(s, "Dimwell")
    assert where(s, "Fresh Start Club") == "discard"
    do(s, "Take $3 from the bank")
    assert money(s, "Red") == 13


# --- G44 Mrs Cake (D25) --------------------------------------------------------------------------
def test_mrs_cake_shows_all_but_one_unused_personality_then_2_then_building() -> None:
    """Mrs Cake [scroll, $2, building] (D25): Red sees all unused personalities but one chosen
    at random, privately; then $2; then the building symbol."""
    pos = table(red=("Mrs Cake", "Groat"))
    minions(pos, "Dimwell", Red=1)
    unused = set(pos["unused_personalities"])
    assert len(unused) == 3
    s = start(pos)
    play(s, "Mrs Cake")
    assert actions(s) == ["Do the text of Mrs Cake", "Skip card text on Mrs Cake"]
    do(s, "Do the text")
    seen = s.position()["seats"][RED]["seen_personalities"]
    assert len(seen) == 2 and set(seen) < unused
    assert s.position()["seats"][BLUE]["seen_personalities"] == []
    assert any(", ".join(seen) in line for line in s.log(RED))
    assert "Red looked at all but one of the unused personalities." in s.log(BLUE)
    assert actions(s) == ["Take $2 from the bank", "Skip take $2 on Mrs Cake"]
    do(s, "Take $2 from the bank")
    assert money(s, "Red") == 12
    assert actions(s) == ["Build in Dimwell for $6", "Skip place a building on Mrs Cake"]


# --- G45 Captain Carrot --------------------------------------------------------------------------
def test_captain_carrot_minion_then_remove_trouble_then_1() -> None:
    """Captain Carrot [minion, remove trouble, $1] (rulebook, Game Play: left to right): the marker
    Red's own minion brings can then be removed; then $1."""
    pos = table(red=("Captain Carrot", "Groat"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Captain Carrot")
    assert "Place a minion in Dimwell" in actions(s)
    assert not offered(s, "Remove the trouble marker")
    do(s, "Place a minion in Dimwell")
    assert trouble(s, "Dimwell")
    assert actions(s) == ["Remove the trouble marker from Dimwell",
                          "Skip remove a trouble marker on Captain Carrot"]
    do(s, "Remove the trouble marker from Dimwell")
    assert not trouble(s, "Dimwell") and count(s, "Red", "Dimwell") == 2
    assert actions(s) == ["Take $1 from the bank", "Skip take $1 on Captain Carrot"]
    do(s, "Take $1 from the bank")
    assert money(s, "Red") == 11
    assert turn_passed_to_blue(s)


# --- G47 CMOT Dibbler (dice; D9) -----------------------------------------------------------------
@pytest.mark.parametrize("roll", [7, 12])
def test_cmot_dibbler_high_roll_takes_4_from_the_bank(roll: int) -> None:
    """CMOT Dibbler on 7-12 (card text; rulebook, Scroll): take $4 from the bank (nobody else pays);
    then play another."""
    s = start(_roll_position("CMOT Dibbler", roll))
    play(s, "CMOT Dibbler")
    do(s, "Do the text")
    assert f"Red rolled {roll}." in s.log()
    assert [x["money"] for x in s.position()["seats"]] == [14, 10, 10, 10]
    assert actions(s) == ["Play Groat", "Play no more cards"]


@pytest.mark.parametrize("roll", [2, 6])
def test_cmot_dibbler_middle_roll_does_nothing(roll: int) -> None:
    """CMOT Dibbler on 2-6 (card text; rulebook, Scroll): nothing happens."""
    pos = _roll_position("CMOT Dibbler", roll)
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "CMOT Dibbler")
    do(s, "Do the text")
    assert f"Red rolled {roll}." in s.log()
    assert money(s, "Red") == 10 and count(s, "Red", "Dimwell") == 1
    assert actions(s) == ["Play Groat", "Play no more cards"]


def test_cmot_dibbler_roll_of_1_pay_2_or_lose_a_minion() -> None:
    """CMOT Dibbler on 1 (card text; D9): pay $2 to the bank or remove one of Red's own minions (Red
    chooses)."""
    pos = _roll_position("CMOT Dibbler", 1)
    minions(pos, "Dimwell", Red=1, Blue=1)
    s = start(pos)
    play(s, "CMOT Dibbler")
    do(s, "Do the text")
    assert "Red rolled 1." in s.log()
    assert actions(s) == ["Pay $2 to the bank", "Remove Red's minion from Dimwell"]
    do(s, "Pay $2 to the bank")
    assert money(s, "Red") == 8 and count(s, "Red", "Dimwell") == 1
    assert sum(x["money"] for x in s.position()["seats"]) == 38  # to the bank, not a player


def test_cmot_dibbler_roll_of_1_without_2_must_remove_a_minion() -> None:
    """CMOT Dibbler on 1 with $1: paying is impossible, so the minion goes (D1: applied at once)."""
    pos = _roll_position("CMOT Dibbler", 1, Red=1)
    minions(pos, "Dimwell", Red=1, Blue=1)
    area(pos, "Dimwell", trouble=True)
    s = start(pos)
    play(s, "CMOT Dibbler")
    do(s, "Do the text")
    assert count(s, "Red", "Dimwell") == 0 and money(s, "Red") == 1
    assert not trouble(s, "Dimwell")
    assert actions(s) == ["Play Groat", "Play no more cards"]


# --- G48 Drumknott (ruling 5) --------------------------------------------------------------------
def test_drumknott_plays_two_other_cards_each_resolved_fully() -> None:
    """Drumknott [scroll] (ruling 5): play two other cards; each is resolved fully and separately
    (all its symbols before the next is chosen); after two, no more."""
    pos = table(red=("Drumknott", "Pink Pussy Cat Club", "Gimlet's Dwarf Delicatessen", "Groat",
                     "Hex", "Gaspode"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Drumknott")
    do(s, "Do the text of Drumknott")
    # neither Drumknott itself nor an interrupt can be played
    assert actions(s) == ["Play Pink Pussy Cat Club", "Play Hex",
                          "Play Gimlet's Dwarf Delicatessen", "Play Groat", "Play no more cards"]
    play(s, "Gimlet's Dwarf Delicatessen")
    do(s, "Take $3 from the bank")
    assert offered(s, "Place a minion") and not offered(s, "Play")  # Gimlet's still resolving
    do(s, "Place a minion in Longwall")
    # Gimlet's is done; Drumknott's second card
    assert where(s, "Gimlet's Dwarf Delicatessen") == "discard"
    assert actions(s) == ["Play Pink Pussy Cat Club", "Play Hex", "Play Groat",
                          "Play no more cards"]
    play(s, "Hex")
    do(s, "Do the text of Hex")
    do(s, "Build in Dimwell for $6")
    # two cards played: Drumknott is finished, and so is the turn
    assert turn_passed_to_blue(s)
    assert where(s, "Drumknott") == "discard"
    assert money(s, "Red") == 10 + 3 - 6
    assert {"Pink Pussy Cat Club", "Groat"} <= set(hand(s, "Red"))
    assert count(s, "Red", "Longwall") == 1


def test_drumknott_first_card_keeps_its_own_play_another() -> None:
    """Drumknott (ruling 5): a further card's own 'play another card' belongs to that card:
    Pink Pussy Cat Club lets Red play Groat, and Drumknott still gives its second card."""
    pos = table(red=("Drumknott", "Pink Pussy Cat Club", "Groat", "Hex", "Modo"))
    minions(pos, "Dimwell", Red=1)
    s = start(pos)
    play(s, "Drumknott")
    do(s, "Do the text of Drumknott")
    play(s, "Pink Pussy Cat Club")
    do(s, "Take $3 from the bank")
    assert actions(s) == ["Play Modo", "Play Hex", "Play Groat", "Play no more cards"]
    play(s, "Groat")  # Pink Pussy Cat Club's own further card
    do(s, "Place a minion in Longwall")
    # back to Drumknott's second card
    assert actions(s) == ["Play Modo", "Play Hex", "Play no more cards"]
    play(s, "Modo")
    do(s, "Skip card text on Modo")
    do(s, "Skip place a minion on Modo")
    assert turn_passed_to_blue(s)
    assert "Hex" in hand(s, "Red")
    assert [line for line in s.log() if line.startswith("Red played")] == [
        "Red played Drumknott.", "Red played Pink Pussy Cat Club.", "Red played Groat.",
        "Red played Modo."]


def test_drumknott_may_stop_early_and_text_is_skippable() -> None:
    """Drumknott (ruling 5; rulebook, Game Play: actions optional): the further cards are optional
    ('Play no more cards'); skipping the text ends the card without playing any."""
    s = start(table(red=("Drumknott", "Groat", "Hex")))
    play(s, "Drumknott")
    do(s, "Do the text of Drumknott")
    do(s, "Play no more cards")
    assert turn_passed_to_blue(s)
    assert {"Groat", "Hex"} <= set(hand(s, "Red"))
    s = start(table(red=("Drumknott", "Groat", "Hex")))
    play(s, "Drumknott")
    do(s, "Skip card text on Drumknott")
    assert turn_passed_to_blue(s)
    assert {"Groat", "Hex"} <= set(hand(s, "Red"))
