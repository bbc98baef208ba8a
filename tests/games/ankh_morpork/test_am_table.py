"""Issue 16 ("The table feels like a real game") for Ankh-Morpork: the usual choice and what
never hurts, the last move, one's own personality's progress, the points part by part at the
end, and plain player-facing wording (no research notes, no "chose:"). Every test starts from
a position or a new game; the browser tests look at a real page (screenshots in /tmp)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import (
    GAME,
    actions,
    area,
    blank,
    do,
    give,
    minions,
    next_events,
    set_personalities,
    start,
)
from playwright.sync_api import Browser, Page, expect
from rich.console import Console
from test_browser import (
    Watch,
    create_table,
    open_page,
    server_view,
    wait_for_state,
)
from test_personalities import deck_out_position, last_turn
from test_table_flow import find_swap, in_viewport
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    shared_browser,
    shared_server,
)

from citywatch.cli import main
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import (
    AREA_BY_NAME,
    CARDS,
    PERSONALITY_BY_NAME,
    player_text,
)
from citywatch.games.ankh_morpork.make_web import CARDS_JSON
from citywatch.games.ankh_morpork.scoring import points
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.games.ankh_morpork.view import last_move
from citywatch.server.tables import end_json
from citywatch.terminal.scores import end_scores

DATA = Path(__file__).parents[3] / "citywatch/games/ankh_morpork/data/ankh-morpork.json"
SHARED = Path("/work/shared/reference/ankh-morpork.json")
NOTES = ("Per FAQ", "not retrieved", "FAQ", "Same condition as", "same text as", "same as ",
         "sources add", "(no text)", "(no scroll", "transcription", "(ruling")
"""Words of the data file's research notes, never shown to players."""
LAST_MOVE_SHOT = Path("/tmp/citywatch-am-last-move.png")
REPLAY_SHOT = Path("/tmp/citywatch-am-replay-last-move.png")
TABLE_SHOT = Path("/tmp/citywatch-am-table.png")
PROGRESS_SHOT = Path("/tmp/citywatch-am-progress.png")
END_SHOT = Path("/tmp/citywatch-am-end.png")
LAYOUT_SHOT = "/tmp/citywatch-am-layout-{}x{}.png"


def usual(s: AnkhMorporkState) -> tuple[str | None, bool]:
    """The usual choice's text (None: no default) and whether it never hurts."""
    legal = s.legal_actions()
    index = GAME.usual_choice(s, legal)
    if index is None:
        return None, False
    return str(legal[index]), GAME.never_hurts(s, legal[index])


def red(*cards: str, money: int = 10) -> dict[str, Any]:
    """A blank 4-player position where Red holds ``cards`` and Riots is the next event."""
    p = blank(4)
    p["seats"][0]["money"] = money
    give(p, "Red", *cards)
    next_events(p, "Riots")
    return p


def plain(renderable: Any) -> str:
    """A rich renderable as plain text, 100 columns wide."""
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(renderable)
    return out.getvalue()


# --- the usual choice and what never hurts (issue 16, "Fewer confirmations") ----------------
def test_taking_money_is_usual_and_never_hurts_then_the_text_is_usual() -> None:
    """Issue 16 (fewer confirmations): Sybil Vimes (take $3, then text): "Take $3" over "Skip take
    $3", and taking money from the bank never hurts; "Do the text" is usual but may hurt (the text
    costs money)."""
    p = red("Sybil Vimes", "Groat")
    area(p, "Nap Hill", building="Blue")
    s = start(p)
    do(s, "Play Sybil Vimes")
    assert actions(s) == ["Take $3 from the bank", "Skip take $3 on Sybil Vimes"]
    assert usual(s) == ("Take $3 from the bank", True)
    skip = s.legal_actions()[1]
    assert not GAME.never_hurts(s, skip)
    do(s, "Take $3 from the bank")
    assert usual(s) == ("Do the text of Sybil Vimes", False)


def test_a_symbol_with_one_action_is_usual_beside_the_powers() -> None:
    """Issue 16 (fewer confirmations): Mr Teatime with Red's Nap Hill power open: "Take $3" stays
    usual beside "Use Nap Hill"; the assassination that can do nothing (no trouble) is skipped by
    default and that never hurts (the power stays open); at the end, Nap Hill's money is usual and
    never hurts."""
    p = red("Mr Teatime", "Groat")
    area(p, "Nap Hill", building="Red")
    s = start(p)
    do(s, "Play Mr Teatime")
    assert actions(s) == ["Take $3 from the bank", "Skip take $3 on Mr Teatime",
                          "Use Nap Hill: take $1 from the bank"]
    assert usual(s) == ("Take $3 from the bank", True)
    do(s, "Take $3 from the bank")
    assert actions(s) == ["Skip assassination on Mr Teatime", "Use Nap Hill: take $1 from the bank"]
    assert usual(s) == ("Skip assassination on Mr Teatime", True)
    do(s, "Skip assassination on Mr Teatime")
    assert "Red skipped the assassination on Mr Teatime." in s.log()
    assert "Play Groat" in actions(s)
    do(s, "Play no more cards")
    assert actions(s) == ["End your turn", "Use Nap Hill: take $1 from the bank"]
    assert usual(s) == ("Use Nap Hill: take $1 from the bank", True)


def test_ending_the_turn_is_usual_but_may_hurt_beside_other_powers() -> None:
    """Issue 16 (fewer confirmations): At the end of the turn with Dimwell's power (pay $3, place a
    minion) open, ending the turn is the usual choice, but it gives the power up, so it is not taken
    unasked."""
    p = red("The Peeled Nuts", "Groat")
    area(p, "Dimwell", building="Red")
    minions(p, "Dimwell", Red=1)
    s = start(p)
    do(s, "Play The Peeled Nuts")
    assert actions(s)[0] == "End your turn"
    assert usual(s) == ("End your turn", False)


def test_single_building_trouble_and_event_are_usual_but_may_hurt() -> None:
    """Issue 16 (fewer confirmations): The Watch: the only building place is usual (it costs money)
    and so is removing the only trouble marker (Dragon King of Arms wants it); The Dean's random
    event is usual; none of them is taken unasked."""
    p = red("The Watch", "Groat")
    minions(p, "Dimwell", Red=1)
    area(p, "Longwall", trouble=True)
    s = start(p)
    do(s, "Play The Watch")
    assert usual(s) == ("Build in Dimwell for $6", False)
    do(s, "Build in Dimwell for $6")
    assert usual(s) == ("Remove the trouble marker from Longwall", False)
    p = red("The Dean", "Groat")
    area(p, "Nap Hill", building="Red")
    s = start(p)
    do(s, "Play The Dean")
    assert usual(s) == ("Draw a random event", False)


def test_no_default_for_real_choices() -> None:
    """Issue 16 (fewer confirmations): Choosing the card to play, or one of several minion places,
    has no usual choice."""
    s = start(red("Groat", "Dwarves"))
    assert usual(s) == (None, False)
    do(s, "Play Groat")
    assert len(actions(s)) > 2 and usual(s) == (None, False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_usual_choice_reads_only_what_the_seat_to_move_sees(players: int) -> None:
    """Issue 16 (fewer confirmations): In random games the usual choice is a legal index, what never
    hurts is usual, and both are the same in any world sampled for the seat to move (hidden facts
    never decide)."""
    rng = Rng(players)
    for seed in range(6):
        s = GAME.new_game(players, seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            index = GAME.usual_choice(s, legal)
            seat = s.to_move
            assert seat is not None
            world = s.determinize(seat, Rng(seed))
            assert [str(a) for a in world.legal_actions()] == [str(a) for a in legal]
            assert GAME.usual_choice(world, legal) == index
            for a in legal:
                hurts = not GAME.never_hurts(s, a)
                assert hurts == (not GAME.never_hurts(world, a))
                assert hurts or (index is not None and legal[index] == a)
            s.apply(legal[rng.below(len(legal))])


# --- the last move (issue 16, "Highlight the last move on the board") -----------------------
def test_last_move_is_none_at_the_start_then_names_the_areas_touched() -> None:
    """Issue 16 (last move): No last move before any decision; after Red places a minion in Dimwell,
    every seat and the spectator see Red's move touching Dimwell, still so once the turn has passed
    on."""
    s = GAME.new_game(4, 1)
    assert last_move(s) is None
    s = start(red("Groat", "Dwarves"))
    do(s, "Play Groat")
    do(s, "Place a minion in Dimwell")
    assert last_move(s) == {"by": "Red", "areas": ["Dimwell"]}


def test_last_move_covers_its_consequences_in_board_order() -> None:
    """Issue 16 (last move): A move's lines after the decision (an assassination removing a trouble
    marker, a minion placed moving one) all count: Red's assassination in Longwall names
    Longwall."""
    p = red("Mr Teatime", "Groat")
    minions(p, "Longwall", Blue=1, Green=1)
    area(p, "Longwall", trouble=True)
    s = start(p)
    do(s, "Play Mr Teatime")
    do(s, "Skip take $3 on Mr Teatime")
    assert last_move(s) is None  # a skip touches no area
    do(s, "Assassinate Blue's minion in Longwall")
    assert last_move(s) == {"by": "Red", "areas": ["Longwall"]}


def test_game_last_move_names_the_placed_minions_area_by_the_movers_colour() -> None:
    """Issue 16 (last move, Game.last_move): None before any decision; after Red places a minion
    in Dimwell, ``by`` is Red and ``spaces`` names Dimwell; after Blue's move in The Hippo it is
    Blue's, in The Hippo; a JSON dict (the server sends it as it is)."""
    assert GAME.last_move(GAME.new_game(4, 1)) is None
    p = red("Groat", "Dwarves")
    give(p, "Blue", "Mr Boggis", "Modo")
    minions(p, "The Hippo", Blue=1)
    s = start(p)
    do(s, "Play Groat")
    do(s, "Place a minion in Dimwell")
    assert GAME.last_move(s) == {"by": "Red", "spaces": ["Dimwell"]}
    do(s, "Play Mr Boggis")
    do(s, "Skip card text on Mr Boggis")
    assert GAME.last_move(s) == {"by": "Red", "spaces": ["Dimwell"]}  # nothing on the board
    do(s, "Place a minion in The Hippo")
    moved = GAME.last_move(s)
    assert moved == {"by": "Blue", "spaces": ["The Hippo"]}
    assert json.loads(json.dumps(moved)) == moved


def hidden_card_move() -> AnkhMorporkState:
    """Red plays Cable Street Particulars: looks at Blue's hand (Modo, Mr Boggis, Stanley: Red
    and Blue read the names, Green and Yellow only that Red looked), makes Blue discard Stanley
    and places a minion in Dimwell."""
    p = red("Cable Street Particulars", "Groat")
    give(p, "Blue", "Mr Boggis", "Stanley", "Modo")
    s = start(p)
    do(s, "Play Cable Street Particulars")
    do(s, "Do the text of Cable Street Particulars")
    do(s, "Make Blue discard Stanley")
    do(s, "Place a minion in Dimwell")
    return s


def test_last_move_sent_to_another_seat_names_nothing_it_cannot_see() -> None:
    """Issue 16 (last move, hidden information): after a move that played a card on a hidden
    hand, the last move sent to Green and the spectator names only what their own view and log
    show, never the card only Red and Blue read; the same payload for every seat."""
    s = hidden_card_move()
    payload = GAME.last_move(s)
    assert payload == {"by": "Red", "spaces": ["Dimwell"]}
    sent = json.dumps(payload)
    private = set(s.log()) - set(s.log(2))
    assert any("Modo, Mr Boggis" in line for line in private)
    for seat in (2, -1):
        own = json.dumps([s.view(None if seat < 0 else seat), s.log(seat)])
        for secret in ("Modo", "Mr Boggis"):
            assert secret not in own and secret not in sent
        assert all(name in own for name in [payload["by"], *payload["spaces"]])


def test_last_move_reads_only_public_log_lines() -> None:
    """Issue 16 (last move, hidden information): a line only some seats read never counts,
    even when it names an area (a private line added to the newest move changes nothing)."""
    s = hidden_card_move()
    before = GAME.last_move(s)
    s.say("Red secretly looked towards The Shades.", seats=(0, 1))
    assert GAME.last_move(s) == before == {"by": "Red", "spaces": ["Dimwell"]}
    s.say("Red looked towards The Shades.")
    assert GAME.last_move(s) == {"by": "Red", "spaces": ["The Shades", "Dimwell"]}


# --- one's own personality's progress (issue 16, "a progress line") -------------------------
def progress_of(p: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    view = start(p).view(seat)
    result: dict[str, Any] = view["progress"]
    return result


def test_lord_rust_progress_counts_control_and_shows_the_full_text() -> None:
    """Issue 16 (progress line): Lord Rust at 4 players needs 4 areas: Red controls Nap Hill
    (minions) and Dimwell (a building), not Longwall (a demon); the text is Lord Selachii's, in
    full."""
    p = red("Groat", "Dwarves")
    set_personalities(p, Red="Lord Rust")
    minions(p, "Nap Hill", Red=2, Blue=1)
    area(p, "Dimwell", building="Red")
    minions(p, "Longwall", Red=3)
    area(p, "Longwall", demons=1)
    got = progress_of(p)
    assert (got["personality"], got["have"], got["need"], got["met"]) == ("Lord Rust", 2, 4, False)
    assert got["line"] == "You control 2 of the 4 areas you need (4 players)."
    assert got["notes"] == ["Nobody controls an area with a demon: Longwall."]
    assert got["text"] == PERSONALITY_BY_NAME["Lord Selachii"].wins_if
    assert "Same condition" not in got["text"]


@pytest.mark.parametrize(("players", "need"), [(2, 11), (3, 10), (4, 9)])
def test_vetinari_progress_counts_areas_with_minions(players: int, need: int) -> None:
    """Issue 16 (progress line): Lord Vetinari: areas holding Red's minions, demon areas left out,
    against 11/10/9."""
    p = blank(players)
    give(p, "Red", "Groat", "Dwarves")
    set_personalities(p, Red="Lord Vetinari")
    for name in ("Nap Hill", "Dimwell", "Longwall"):
        minions(p, name, Red=1)
    area(p, "Longwall", demons=1)
    got = progress_of(p)
    assert (got["have"], got["need"]) == (2, need)
    assert got["line"] == f"Your minions are in 2 of the {need} areas you need ({players} players)."


def test_dragon_king_progress_and_met() -> None:
    """Issue 16 (progress line): Dragon King of Arms (Green): trouble markers on the board against
    8; with 8 it holds now and says so (it wins at the start of Green's turn)."""
    p = red("Groat", "Dwarves")
    set_personalities(p, Green="Dragon King of Arms")
    for name in ("Nap Hill", "Dimwell", "Longwall"):
        area(p, name, trouble=True)
    got = progress_of(p, 2)
    assert (got["have"], got["need"], got["met"]) == (3, 8, False)
    assert got["line"] == "3 of the 8 trouble markers you need are on the board."
    for name in ("The Hippo", "The Shades", "The Scours", "Small Gods", "Dolly Sisters"):
        area(p, name, trouble=True)
    got = progress_of(p, 2)
    assert got["met"] and got["notes"][-1].startswith("Your condition holds now")


def test_chrysoprase_progress_is_net_worth() -> None:
    """Issue 16 (progress line): Chrysoprase: cash + printed building costs (a building in a demon
    area is worth $0) - $12 a loan, against $50: $20 + $12 (Nap Hill) - $12 = $20."""
    p = red("Groat", "Dwarves", money=20)
    set_personalities(p, Red="Chrysoprase")
    area(p, "Nap Hill", building="Red")
    area(p, "Dimwell", building="Red", demons=1)
    give(p, "Red", "Mr Bent", zone="in_front")
    got = progress_of(p)
    assert (got["have"], got["need"]) == (20, 50)
    assert got["line"] == ("Your net worth is $20 of the $50 you need: cash $20 + buildings $12"
                           " - loans $12.")
    assert got["notes"] == ["Your buildings in areas with a demon are worth $0."]


def test_vimes_progress_and_only_ones_own() -> None:
    """Issue 16 (progress line): Commander Vimes counts the draw pile; every seat sees only its own
    progress (the personality is secret), the spectator none."""
    s = start(red("Groat", "Dwarves"))
    got = s.view(0)["progress"]
    assert got["personality"] == "Commander Vimes" and got["have"] is None
    assert got["line"] == (f"You win if the draw pile runs out ({len(s.draw_pile)} cards "
                           "left) and nobody has won before.")
    assert s.view(None)["progress"] is None
    names = [PERSONALITY_BY_NAME[n].name for n in
             ("Commander Vimes", "Lord Vetinari", "Dragon King of Arms", "Lord Rust")]
    for seat in range(4):
        text = json.dumps(s.view(seat))
        assert s.view(seat)["progress"]["personality"] == names[seat]
        for other, name in enumerate(names):
            assert (name in text) == (other == seat)


# --- the end: points part by part (issue 16, "End of game") ---------------------------------
def test_score_breakdown_follows_the_rulebook_and_adds_up() -> None:
    """Issue 16 (end of game): Ruling 25 / rulebook, End of the Game: $5 a minion, buildings at
    cost, $1 a dollar, loans repaid ($12) or -15, nothing in a demon area; each total is the game's
    points."""
    pos = deck_out_position(Red="Lord Selachii", Blue="Lord Vetinari",
                            Green="Dragon King of Arms", Yellow="Lord Rust")
    minions(pos, "Longwall", Red=2)
    area(pos, "Nap Hill", building="Red")
    pos["seats"][0]["money"] = 7
    minions(pos, "Dimwell", Blue=1)
    minions(pos, "Seven Sleepers", Blue=1)
    area(pos, "Seven Sleepers", building="Blue", demons=1, trouble=True)
    pos["seats"][1]["money"] = 20
    give(pos, "Blue", "Mr Bent", zone="in_front")
    pos["seats"][2]["money"] = 5
    give(pos, "Green", "The Bank of Ankh-Morpork", zone="in_front")
    s = last_turn(pos)
    assert s.outcome() is not None
    for seat in (None, 0, 1):
        scores = s.view(seat)["scores"]
        assert [x["total"] for x in scores] == list(points(s)) == [29, 13, -10, 10]
    red_, blue, green, _ = s.view(None)["scores"]
    assert (red_["minion_points"], red_["buildings"], red_["building_points"], red_["money"]) \
        == (10, ["Nap Hill"], 12, 7)
    assert blue["minions"] == 1 and blue["not_counted"] == {"minions": 1,
                                                            "buildings": ["Seven Sleepers"]}
    assert blue["loans"] == [{"card": "Mr Bent", "repaid": True, "points": -12}]
    assert green["loans"] == [{"card": "The Bank of Ankh-Morpork", "repaid": False,
                               "points": -15}]
    assert start(deck_out_position()).view(0)["scores"] is None  # only at the end


def test_the_end_screens_breakdown_adds_up_and_reveals_personalities_and_hands() -> None:
    """Issue 26, rulebook End of the Game and ruling 25: ``Game.score_breakdown`` labels each
    part (minions, buildings, money, each loan) and adds up to the points; what stands in a
    demon's area is a note, not a part; each seat's personality and hand are revealed; the
    winner is told it won on points, the others how far behind."""
    pos = deck_out_position(Red="Lord Selachii", Blue="Lord Vetinari",
                            Green="Dragon King of Arms", Yellow="Lord Rust")
    minions(pos, "Longwall", Red=2)
    area(pos, "Nap Hill", building="Red")
    pos["seats"][0]["money"] = 7
    minions(pos, "Dimwell", Blue=1)
    minions(pos, "Seven Sleepers", Blue=1)
    area(pos, "Seven Sleepers", building="Blue", demons=1, trouble=True)
    pos["seats"][1]["money"] = 20
    give(pos, "Blue", "Mr Bent", zone="in_front")
    pos["seats"][2]["money"] = 5
    give(pos, "Green", "The Bank of Ankh-Morpork", zone="in_front")
    s = last_turn(pos)
    red_, blue, green, yellow = GAME.score_breakdown(s) or ()
    assert [x.points for x in (red_, blue, green, yellow)] == list(points(s)) == [29, 13, -10, 10]
    assert [(p.label, p.points, p.detail) for p in red_.parts] == [
        ("Minions", 10, "2 minions x $5"), ("Buildings", 12, "Nap Hill $12"),
        ("Money", 7, "$7 in cash")]
    assert [(p.label, p.points) for p in blue.parts][-1] == ("Loan: Mr Bent", -12)
    assert [(p.label, p.points, p.detail) for p in green.parts][-1] == (
        "Loan: The Bank of Ankh-Morpork", -15, "not repaid: -15 points")
    assert blue.notes == ("Not counted, in an area with a demon: 1 minion, building in "
                          "Seven Sleepers.",)
    assert red_.result == "Won on points when the draw pile ran out: the most points (29)."
    assert green.result == "Did not win: 39 points behind the winner when the draw pile ran out."
    assert red_.revealed[0] == ("Personality", "Lord Selachii")
    assert red_.revealed[1] == ("Hand", ", ".join(
        CARDS[c].name for c in s.hands[0]) or "no cards")
    assert GAME.score_breakdown(start(deck_out_position())) is None  # only at the end


def test_a_personalitys_win_is_explained_and_the_points_only_shown() -> None:
    """Issue 26, ruling 24: Blue holds Commander Vimes and wins when the draw pile runs out
    though Red has more points: the breakdown still adds up to each seat's final points
    (``Outcome.final_points``), tells every other seat who won as whom, and every seat that
    the points did not count."""
    pos = deck_out_position(Red="Lord Rust", Blue="Commander Vimes", Yellow="Lord Selachii")
    minions(pos, "Nap Hill", Red=5)
    s = last_turn(pos)
    outcome = s.outcome()
    assert outcome is not None and outcome.points is None
    scores = GAME.score_breakdown(s) or ()
    assert tuple(x.points for x in scores) == outcome.final_points
    assert scores[1].result == ("Won as Commander Vimes: the draw pile ran out, and Commander "
                                "Vimes wins then; the points did not count.")
    assert scores[0].result.startswith("Did not win: Blue won as Commander Vimes")
    assert all(x.result.endswith("the points did not count.") for x in scores)


# --- the terminal (issue 16: the progress line and the breakdown) ---------------------------
def test_terminal_hand_shows_progress_and_outcome_shows_the_breakdown() -> None:
    """Issue 16 (terminal): The terminal's hand screen carries the seat's progress line; the end
    screen the points part by part (issue 26: ``Game.score_breakdown``, as the terminal's end
    screen prints it after the game's own outcome)."""
    screens = GAME.terminal()
    p = red("Groat", "Dwarves")
    set_personalities(p, Red="Lord Rust")
    minions(p, "Nap Hill", Red=1)
    text = plain(screens.hand(start(p).view(0)))
    assert "You control 1 of the 4 areas you need (4 players)." in text
    pos = deck_out_position(Red="Lord Selachii", Blue="Lord Vetinari",
                            Green="Dragon King of Arms", Yellow="Lord Rust")
    minions(pos, "Longwall", Red=2)
    area(pos, "Dimwell", building="Blue", demons=1)
    end = last_turn(pos)
    names = [end.view(p)["colour"] for p in range(end.players)]
    text = plain(screens.outcome(end.view(1))) + plain(end_scores(end, names, screens.colour))
    assert "Not counted, in an area with a demon: building in Dimwell." in text
    assert "2 minions x $5" in text and "Personality: Lord Vetinari" in text


# --- wording (issue 16, "Wording") ------------------------------------------------------------
def test_player_text_strips_research_notes() -> None:
    """Issue 16 (wording): The data file stays a copy of the shared reference; what players read of
    it has no research notes, and Lord Rust / de Worde get Lord Selachii's text in full."""
    if SHARED.exists():
        assert DATA.read_bytes() == SHARED.read_bytes()
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    assert any("Per FAQ" in c["text"] for c in raw["player_cards"])  # the notes are there
    reference = GAME.reference()
    shown = json.dumps(reference) + CARDS_JSON.read_text(encoding="utf-8")
    for note in NOTES:
        assert note not in shown, note
    people = {p["name"]: p["wins_if"] for p in reference["personalities"]}
    assert people["Lord Rust"] == people["Lord de Worde"] == people["Lord Selachii"]
    assert player_text("(no text)") == ""
    assert player_text("Draw four cards (same as Leonard of Quirm).") == "Draw four cards."


def test_rules_and_terminal_help_show_no_research_notes(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16 (wording): ``citywatch rules ankh-morpork`` and every '?' help entry of the terminal
    read without research notes."""
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", "ankh-morpork"]) == 0
    for kind in ("card", "area", "event", "personality"):
        for name in ("Wallace Sonky", "Small Gods", "Riots", "Lord Rust", "Chrysoprase",
                     "Drumknott", "The Shades"):
            main(["rules", "ankh-morpork", kind, name])
    out = capsys.readouterr().out
    screens = GAME.terminal()
    reference = GAME.reference()
    for section in ("cards", "areas", "events", "personalities"):
        out += "".join(plain(screens.describe(entry)) for entry in reference[section])
    for note in NOTES:
        assert note not in out, note
    assert "control at least 7 / 5 / 4 areas" in out


def test_no_log_line_says_chose_colon_in_300_random_games() -> None:
    """Issue 16 (wording): Log sentences are plain English: in 300 random-bot games (2 to 4 players)
    no line of any seat's log says "chose:" or cites a ruling, and skips read "Red skipped the
    ..."."""
    rng = Rng(16)
    skipped = 0
    for game in range(300):
        s = GAME.new_game(2 + game % 3, game)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        for seat in (None, *range(s.players)):
            for line in s.log(seat):
                assert "chose:" not in line and "(ruling" not in line, line
                assert not line.startswith("A world sampled")
        skipped += sum(" skipped the " in line for line in s.log())
    assert skipped > 100


def test_a_skip_is_logged_as_a_sentence() -> None:
    """Issue 16 (wording): "Red skipped the $3 on Sybil Vimes." rather than "Red chose: Skip take $3
    ..."."""
    s = start(red("Sybil Vimes", "Groat"))
    do(s, "Play Sybil Vimes")
    do(s, "Skip take $3 on Sybil Vimes")
    assert "Red skipped the $3 on Sybil Vimes." in s.log()


# --- in the browser (issue 16: the board shows it; screenshots looked at) --------------------
HARNESS = """async ([view, end]) => {
  const board = window.CityWatchBoards["ankh-morpork"];
  await board.load("/games/ankh-morpork/");
  const main = document.createElement("div");
  const side = document.createElement("aside");
  main.className = "main-column";
  side.className = "side-column";
  const layout = document.createElement("main");
  layout.className = "layout";
  layout.append(main, side);
  document.body.replaceChildren(layout);
  board.mount(main, side);
  const ctx = { page: "table", seat: view.seat, step: 0, over: Boolean(view.result),
    mine: false, choices: [], highlighted: new Set(), log: [], naming: () => [],
    pick: () => {}, act: () => {} };
  board.render(view, ctx);
  const outcome = board.outcome(view);
  if (outcome) {
    const box = document.createElement("section");
    box.id = "result";
    box.className = "panel";
    box.append(outcome, CityWatch.endScores(end) || "");
    main.prepend(box);
  }
}"""


def show_view(browser: Browser, base: str, watch: Watch, view: dict[str, Any],
              end: dict[str, Any] | None = None) -> Page:
    """The Ankh-Morpork board module on a page of the real server, drawing ``view`` (and, at
    the end, ``end``, the server's breakdown, as the table page draws it: issue 26)."""
    page = open_page(browser, base + "/", watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    page.add_script_tag(url="/games/ankh-morpork/board.js")
    page.evaluate(HARNESS, [view, end])
    return page


def test_board_shows_progress_by_the_personality(
        server: str, browser: Browser, tmp_path: Path) -> None:
    """Issue 16 (browser board): A real table (a person and three bots): the person's progress line
    stands by their personality with the full text. Screenshot: /tmp/citywatch-am-table.png."""
    created = create_table(server, ["human", "random", "random", "random"], seed=7)
    link = next(s["link"] for s in created["seats"] if s["link"])
    watch = Watch()
    page = open_page(browser, server + link, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    wait_for_state(page)
    page.wait_for_function("() => document.body.dataset.mine === 'yes'")
    view = server_view(server, link)["view"]
    expect(page.locator("#progress")).to_contain_text(view["progress"]["line"])
    expect(page.locator("#personality .personality-text")).to_have_text(view["progress"]["text"])
    page.screenshot(path=TABLE_SHOT)
    watch.check()


def test_board_shows_lord_rusts_progress_and_the_points_at_the_end(
        server: str, browser: Browser) -> None:
    """Issue 16 (browser board): The board module draws a seat's view from a position: Lord Rust's
    progress with the full text; at the end, the points part by part per player with the demon area
    not counted. Screenshots: /tmp/citywatch-am-progress.png, /tmp/citywatch-am-end.png."""
    watch = Watch()
    p = red("Groat", "Dwarves")
    set_personalities(p, Red="Lord Rust")
    minions(p, "Nap Hill", Red=2, Blue=1)
    area(p, "Dimwell", building="Red")
    area(p, "Longwall", demons=1)
    s = start(p)
    do(s, "Play Groat")
    do(s, "Place a minion in Seven Sleepers")
    view = s.view(0)
    page = show_view(browser, server, watch, view)
    expect(page.locator("#progress")).to_have_text(
        "You control 3 of the 4 areas you need (4 players).")
    expect(page.locator("#personality .personality-text")).to_have_text(
        PERSONALITY_BY_NAME["Lord Selachii"].wins_if)
    page.screenshot(path=PROGRESS_SHOT, full_page=True)

    pos = deck_out_position(Red="Lord Selachii", Blue="Lord Vetinari",
                            Green="Dragon King of Arms", Yellow="Lord Rust")
    minions(pos, "Longwall", Red=2)
    area(pos, "Nap Hill", building="Red")
    minions(pos, "Seven Sleepers", Blue=1)
    area(pos, "Seven Sleepers", building="Blue", demons=1)
    give(pos, "Green", "Mr Bent", zone="in_front")
    end = last_turn(pos)
    colours = [end.view(p)["colour"] for p in range(end.players)]
    page = show_view(browser, server, watch, end.view(1), end_json(end, colours))
    cards = page.locator("#result .end-seat")
    expect(cards).to_have_count(4)
    totals = cards.locator(".end-sum td.num").all_inner_texts()
    assert totals == [str(x) for x in points(end)]
    expect(cards.nth(1)).to_contain_text("1 minion, building in Seven Sleepers")
    expect(cards.nth(2).locator(".end-parts")).to_contain_text("-15")
    expect(cards.nth(1)).to_contain_text("Lord Vetinari")
    page.locator("#result").screenshot(path=END_SHOT)
    watch.check()


# --- the last move on the board (issue 16, "Highlight the last move on the board") ----------
# Issue 26: every move since the seat's last decision (the replay: the decision shown).
RINGS = """() => [...document.querySelectorAll('#board [data-moved]')]
    .map((ring) => [ring.dataset.moved, ring.dataset.by, ring.getAttribute('class')])"""
"""Each dashed ring on the map: the area it rings, its mover and its classes."""


def check_moves(page: Page, moves: list[dict[str, Any]], lead: str) -> None:
    """The board rings exactly the areas of ``moves`` (the server's ``moves``), each in its
    mover's colour (an area several movers touched once per mover, the oldest widest), and
    says so in the line above the map after ``lead``; no ring and no line without areas."""
    wanted: list[tuple[str, str]] = []
    for move in moves:
        wanted += [(space, move["by"]) for space in move["spaces"]
                   if (space, move["by"]) not in wanted]
    expect(page.locator("#board [data-moved]")).to_have_count(len(wanted))
    if not wanted:
        expect(page.locator("#last-move")).to_have_text("")
        return
    rings = page.evaluate(RINGS)
    assert sorted((area, by) for area, by, _cls in rings) == sorted(wanted)
    assert all(f"last-move last-move-{by}" in cls for _area, by, cls in rings)
    first = next(m for m in moves if m["spaces"])
    space = first["spaces"][0]
    line = page.locator("#last-move .last-move-line")
    expect(line).to_contain_text(
        f"{lead}: {first['by']} in {space} ({AREA_BY_NAME[space].number})")
    expect(line).to_contain_text("(ringed on the map in each mover's colour)")


def test_the_board_rings_the_areas_of_the_bots_moves(server: str, browser: Browser) -> None:
    """Issue 16 (last move) and 26 (every move since your last decision), browser board: at a
    real table (a person and three bots; seed 9: Red, a bot, places a minion before the
    person's first decision) the snapshot's ``moves`` (beside the view, not in it) end with
    Red's move and the areas it touched (its newest decision's are ``last_move``'s, the same
    for the spectator),
    and the map rings exactly the areas of every move in its mover's colour, with the line
    "Since your last decision: ... in ... (ringed on the map in each mover's colour)". Screenshot:
    /tmp/citywatch-am-last-move.png."""
    created = create_table(server, ["random", "human", "random", "random"], seed=9)
    link = next(s["link"] for s in created["seats"] if s["link"])
    watch = Watch()
    page = open_page(browser, server + link, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    wait_for_state(page)
    page.wait_for_function("() => document.body.dataset.mine === 'yes'")
    snapshot = server_view(server, link)
    moved = snapshot["last_move"]
    assert "last_move" not in snapshot["view"] and "moves" not in snapshot["view"]
    assert moved is not None and moved == server_view(server, created["spectator"])["last_move"]
    assert moved["by"] == "Red" != snapshot["view"]["colour"] and moved["spaces"]
    moves = snapshot["moves"]
    assert moves[-1]["by"] == "Red" and set(moved["spaces"]) <= set(moves[-1]["spaces"])
    assert "Blue" not in [m["by"] for m in moves]  # the person has not decided yet
    check_moves(page, moves, "Since your last decision")
    page.screenshot(path=LAST_MOVE_SHOT)
    watch.check()


def test_the_replay_rings_each_steps_last_move_back_and_forth(
        server: str, browser: Browser) -> None:
    """Issue 16 (last move) and 26, replay page: stepping forth and back through a finished
    all-bot game, the map rings the areas of each step's decision (its ``moves``, from GET
    /api/replay) and nothing at step 0. Screenshot: /tmp/citywatch-am-replay-last-move.png."""
    created = create_table(server, ["random", "random"], seed=3)
    deadline = time.monotonic() + 120
    while server_view(server, created["spectator"])["view"]["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    token = created["spectator"].removeprefix("/play/")

    def moved(k: int) -> list[dict[str, Any]]:
        answer = httpx.get(f"{server}/api/replay/{token}", params={"step": k})
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["moves"]
        assert len(found) == (k > 0)
        return found

    steps = len(httpx.get(f"{server}/api/record/{token}").json()["actions"])
    assert moved(0) == []
    first = next(k for k in range(1, steps + 1) if moved(k)[0]["spaces"])
    watch = Watch()
    page = open_page(browser, f"{server}/replay/{token}#{first - 1}", watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    seen: set[str] = set()
    for k, button in [(first - 1, None), (first, "#next"), (first + 1, "#next"),
                      (first + 2, "#next"), (first + 1, "#prev"), (first, "#prev"),
                      (first - 1, "#prev"), (steps, "#last"), (steps - 1, "#prev"),
                      (0, "#first")]:
        if button:
            page.locator(button).click()
        expect(page.locator("#counter")).to_have_text(f"Step {k} / {steps}")
        page.wait_for_function("(k) => document.body.dataset.step === String(k)", arg=k)
        check_moves(page, moved(k), "This decision")
        seen.add(json.dumps([m["spaces"] for m in moved(k)]))
        if k == first:
            page.screenshot(path=REPLAY_SHOT)
    assert len(seen) >= 3, "the steps checked show too few different moves"
    watch.check()



# --- the table at a laptop's window (issue 16, "at 1366x800 ... keep money, pieces and the last
# moves always visible"; a player sees their hand to choose well) -----------------------------
LOWEST_AREA_POINTS = """() => {
    const lands = [...document.querySelectorAll('#board .area polygon.land')];
    const bottom = (land) => land.getBoundingClientRect().bottom;
    const lowest = lands.reduce((a, b) => (bottom(b) > bottom(a) ? b : a));
    const box = lowest.getBBox();
    const ctm = lowest.getScreenCTM();
    const points = [];
    for (let i = 1; i < 10; i += 1) {  // across the bottom tenth of the area, inside its shape
        const p = new DOMPoint(box.x + (box.width * i) / 10, box.y + box.height * 0.95);
        if (lowest.isPointInFill(p)) {
            const s = p.matrixTransform(ctm);
            points.push([s.x, s.y]);
        }
    }
    const r = lowest.getBoundingClientRect();
    return {area: lowest.parentNode.dataset.area, points,
            box: [r.left, r.top, r.right, r.bottom]};
}"""
"""The map's lowest area: its name, points of its bottom tenth on the screen, its box."""

TOP_ELEMENT = """([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    const area = hit && hit.closest('[data-area]');
    return area ? area.dataset.area : (hit ? hit.tagName + '#' + hit.id : null);
}"""
"""The area (or else the element) a click at a point of the window would reach."""

UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].every((node) => {
    const r = node.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (node.contains(hit) || hit.contains(node));
})"""
"""Whether the centre of each element ``selector`` is that element's (nothing lies over it)."""


def late_position(server: str) -> str:
    """A practice table of four people (seed 15, every seat taking its first choice) at turn
    52: Red holds five cards and chooses one to play, the board full of pieces; Red's link."""
    seed, path = find_swap()
    created = create_table(server, ["human"] * 4, seed=seed)
    links = [s["link"] for s in created["seats"]]
    tokens = [link.removeprefix("/play/") for link in links]
    state = GAME.new_game(4, seed)  # the same game here, to know who moves at each step
    for step, action in enumerate(path[:253]):
        mover = state.to_move
        assert mover is not None
        answer = httpx.post(f"{server}/api/act/{tokens[mover]}",
                            json={"step": step, "action": action})
        assert answer.is_success, answer.text
        state.apply(next(a for a in state.legal_actions() if a.to_json() == action))
    view = server_view(server, links[0])
    assert view["view"]["turn"] >= 50 and len(view["view"]["hand"]) == 5 and view["choices"]
    return str(links[0])


def check_layout(page: Page, width: int, height: int) -> None:
    """Without scrolling the page: the map's lowest area lies in the window and a click at
    points of its bottom reaches it; every card name of the hand, the personality's progress
    line, the last move, the first choice, the players' last row and the log's newest line are
    in the window, and nothing lies over the card names, the players' rows or the progress."""
    assert page.evaluate("[window.scrollY, document.scrollingElement.scrollTop]") == [0, 0]
    lowest = page.evaluate(LOWEST_AREA_POINTS)
    left, top, right, bottom = lowest["box"]
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, lowest
    assert len(lowest["points"]) >= 3, lowest
    for point in lowest["points"]:
        assert page.evaluate(TOP_ELEMENT, point) == lowest["area"], (point, lowest)
    for selector in ("#players-panel", "#players tbody tr:last-child", "#log li:last-child",
                     "#progress", "#last-move", "#actions button.action:first-child"):
        assert in_viewport(page, selector), selector
    for k in range(page.locator("#hand .card-name").count()):
        assert in_viewport(page, f"#hand .card:nth-child({k + 1}) .card-name"), k
    for selector in ("#hand .card-name", "#players tbody tr", "#progress"):
        assert page.evaluate(UNCOVERED, selector), selector


def test_at_a_laptop_window_the_whole_map_the_hand_and_the_players_are_in_view(
        server: str, browser: Browser) -> None:
    """Issue 16 ("at 1366x800 ... keep money, pieces and the last moves always visible"; the
    hand in view to choose well): late in a real game (turn 52, a practice table, so the name
    bar and the practice banner show), at 1366x800, and also 1280x720 and 1920x1080: the
    checks of ``check_layout`` (the whole map uncovered, the hand's every card name, the
    players, the choices and the newest log line in view); each card's text, folded when
    space is short, is on its tile's hover. Screenshots: /tmp/citywatch-am-layout-<size>.png."""
    link = late_position(server)
    cards = {c["name"]: c for c in json.loads(CARDS_JSON.read_text(encoding="utf-8"))["cards"]}
    watch = Watch()
    for width, height in [(1366, 800), (1280, 720), (1920, 1080)]:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = watch.page(context.new_page(), f"{link} at {width}x{height}")
        page.goto(server + link)
        wait_for_state(page)
        page.wait_for_function("() => document.body.dataset.mine === 'yes'")
        expect(page.locator(".banner-practice")).to_be_visible()
        expect(page.locator("#seat-strip")).to_be_visible()
        expect(page.locator("#hand .card-name")).to_have_count(5)
        page.wait_for_timeout(100)  # the hand folds to fit once the panels around are drawn
        page.screenshot(path=LAYOUT_SHOT.format(width, height))
        check_layout(page, width, height)
        for tile in page.locator("#hand .card").all():
            card = cards[tile.locator(".card-name").inner_text()]
            if card["text"] and not card["text"].startswith("("):
                assert card["text"] in (tile.get_attribute("title") or ""), card["name"]
        context.close()
    watch.check()
