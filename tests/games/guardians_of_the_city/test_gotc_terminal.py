"""Guardians of the City in the terminal: the cells, every nation's pillars and Citizen Groups,
the seat's own hand with each requirement met or not, Subversives, Shields, scores, piles, menus
and the end, drawn from one seat's view (ruling 17: what players see) of real games."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import gotc_positions as gp
from helpers import finish, menu_lines, play_by_menus, play_randomly, render, spawn_play

from citywatch.core.record import Record, replay, start
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CELLS, GROUPS, PILLARS
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.state import GotcState
from citywatch.games.guardians_of_the_city.terminal import GuardiansScreens, label
from citywatch.terminal.screens import screens_for

SCREENS = GuardiansScreens()


def play(steps: int, seed: int = 1, players: int = 2) -> GotcState:
    """A real game after ``steps`` random legal actions (fewer if it ends)."""
    state: GotcState = play_randomly(GAME.new_game(players, seed), steps, seed)
    return state


def everything(view: dict[str, Any], width: int = 100) -> str:
    return "\n".join(render(screen(view), width) for screen in (
        SCREENS.board, SCREENS.players, SCREENS.hand))


def row(text: str, heading: str) -> str:
    """The line of the nations' table that starts with ``heading``."""
    found = [line for line in text.splitlines() if line.startswith(heading + " ")]
    assert found, f"no {heading!r} row in:\n{text}"
    return found[0]


def named(name: str, text: str) -> bool:
    """Whether ``name`` stands in ``text`` as a whole name."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def public_text(s: GotcState, seat: int) -> str:
    """Every word ``seat`` may legitimately read but the deck lists (no screen shows those):
    its view and its log."""
    view = copy.deepcopy(s.view(seat))
    for other in view["seats"]:
        other.pop("deck")
    return json.dumps(view) + "\n".join(s.log(seat))


def hidden_names(s: GotcState, seat: int) -> set[str]:
    """Names of the other seats' hand cards that nothing public names (ruling 17)."""
    secret = {ACTION_CARDS[c].name for p in range(s.players) if p != seat for c in s.hand[p]}
    shown = public_text(s, seat)
    return {name for name in secret if not named(name, shown)}


# --- the screens from views ----------------------------------------------------------------
def test_the_board_shows_every_cell_strength_the_turn_and_step() -> None:
    """Section 3: three shared Terrorist Cells of strength 0-6; eliminated at 0."""
    pos = gp.cells(gp.step2(gp.base(), 0), "630")
    s = gp.load(pos)
    text = render(SCREENS.board(s.view(0)))
    for name, strength in zip(CELLS, (6, 3, 0), strict=True):
        line = next(line for line in text.splitlines() if name in line)
        assert f"{'■' * strength}{'·' * (6 - strength)} {strength}" in line
    assert "eliminated" in next(line for line in text.splitlines() if CELLS[2] in line)
    assert "Step 2: play Action cards (0 of 2 played)" in text
    assert "Player 1 to play" in text


def test_the_card_being_resolved_and_a_frozen_cell_are_shown() -> None:
    """Vigilance freezes the cells it reduced; the card in play stays on the board until
    resolved (section 8)."""
    pos = gp.game_with("Raids", "Galvanised People (Vigilance)")
    pos = gp.lasting(gp.step2(gp.effort(pos, 0, "42222"), 0), 1,
                     "Galvanised People (Vigilance)", "Raids", frozen=[CELLS[1]])
    pos = gp.hand(pos, 0, ["Raids", "Border Patrol", "Border Patrol", "Border Patrol"])
    s = gp.act(gp.load(pos), "Play Raids")
    text = render(SCREENS.board(s.view(0)))
    assert "In play: Player 1 plays Raids (Action, Military 3+)" in text
    assert "frozen" in next(line for line in text.splitlines() if CELLS[1] in line)
    players = render(SCREENS.players(s.view(1)))
    assert "Galvanised People (Vigilance) (with Raids): freezes " + CELLS[1] in players


def test_every_nation_shows_pillars_groups_shield_points_score_and_piles() -> None:
    """Ruling 17: effort, support, Shields, Counter-Terrorism points, card counts and
    discard piles are public; section 10: the score."""
    mine, theirs = "33222", "41222"
    pos = gp.effort(gp.support(gp.base(), 1, "4301"), 1, theirs)
    pos = gp.shield(gp.effort(pos, 0, mine), 0, 2)
    s = gp.load(gp.step2(pos, 0))
    view = s.view(0)
    text = render(SCREENS.players(view))
    assert "Player 1 (you) *" in text and "Player 2" in text
    for k, name in enumerate(PILLARS):
        line = row(text, name)
        a, b = int(mine[k]), int(theirs[k])
        assert re.search(rf"{'■' * a}{'·' * (4 - a)} {a}\s+{'■' * b}{'·' * (4 - b)} {b}",
                         line), line
    for k, group in enumerate(GROUPS):
        line = row(text, group)
        value = int("4301"[k])
        assert line.rstrip().endswith("left the country" if value == 0 else f" {value}"), line
    assert re.search(r"Shield\s+2\s+0", row(text, "Shield"))
    scores = [seat["score"] for seat in view["seats"]]
    assert re.search(rf"Score\s+{scores[0]}\s+{scores[1]}", row(text, "Score"))
    for seat in view["seats"]:
        assert f"{seat['action_deck_count']}, discard {len(seat['action_discard'])}" in text
        assert f"{seat['crisis_deck_count']}, discard {len(seat['crisis_discard'])}" in text
    assert re.search(r"Cards in hand\s+4\s+4", text)


def test_active_subversives_are_listed_with_their_text() -> None:
    """Section 8, Subversives: active in front of the player who drew it, public."""
    pos = gp.subversive(gp.game_with("Subversive (Disrupt)"), 1, "Subversive (Disrupt)")
    s = gp.load(pos)
    text = render(SCREENS.players(s.view(0)))
    assert "in front of Player 2: Subversive (Disrupt): " in text
    assert "Active Subversives: none" in render(SCREENS.players(gp.load(gp.base()).view(0)))


def test_a_readiness_boost_shows_the_effort_crisis_cards_read() -> None:
    """Ruling 4: Readiness raises the effort Crisis cards read, at most 4."""
    pos = gp.game_with("Galvanised People (Readiness)")
    pos = gp.lasting(gp.effort(pos, 0, "33222"), 0, "Galvanised People (Readiness)",
                     "Community Tip-Off", boost=("Social", 1))
    text = render(SCREENS.players(gp.load(pos).view(1)))
    assert "(3 vs Crises)" in row(text, "Social")
    assert "Social +1 against Crises" in text


def test_the_hand_marks_each_requirement_met_or_not() -> None:
    """Section 8: each Action card needs a National Effort level on its pillar."""
    pos = gp.effort(gp.step2(gp.base(), 0), 0, "42222")
    pos = gp.hand(pos, 0, ["Raids", "Border Patrol", "Community Policing",
                           "Freeze Terror Financing"])
    s = gp.load(pos)
    view = s.view(0)
    text = render(SCREENS.hand(view))
    assert "Your hand (Player 1): 4 Action cards" in text
    for card in view["own"]["hand"]:
        line = next(line for line in text.splitlines() if card["name"] in line)
        assert f"{card['pillar']} {card['min_effort']}+" in line
        assert f"(yours {view['seats'][0]['effort'][card['pillar']]})" in line
        assert ("✓ met" if card["requirement_met"] else "✗ not met") in line
        assert ("playable" in line) == card["playable_now"]
        assert card["text"][:40] in " ".join(text.split())
    assert "Military 3+ (yours 4) ✓ met, playable" in text
    assert "Economic 3+ (yours 2) ✗ not met" in text


def test_no_screen_names_another_seats_hidden_hand() -> None:
    """Ruling 17: hands are hidden; a seat's screens draw only its own view."""
    checked = 0
    for seed in range(3):
        for steps in (10, 40, 90):
            s = play(steps, seed, players=3)
            for seat in range(s.players):
                text = everything(s.view(seat)) + everything(s.view(seat), 80)
                for card in s.view(seat)["own"]["hand"]:
                    assert card["name"] in text
                for name in hidden_names(s, seat):
                    checked += 1
                    assert not named(name, text), f"{name}, hidden from seat {seat}, is shown"
    assert checked > 20, "the test saw hidden cards to look for"


def test_a_spectator_sees_the_table_and_no_hand() -> None:
    view = play(30).view(None)
    assert "(You are watching: no hand.)" in render(SCREENS.hand(view))
    assert "Player 1" in render(SCREENS.players(view))
    assert CELLS[0] in render(SCREENS.board(view))


def test_every_menu_line_reads_as_english() -> None:
    """Every decision's lines are the actions' own sentences, with names not numbers."""
    seen = set()
    for seed in range(4):
        for a, line in menu_lines(GAME.new_game(2, seed), seed, label):
            seen.add(a.verb)
            assert re.fullmatch(r"[A-Z][a-z]+( [^ ]+)*", line), line
            assert "_" not in line and "-1" not in line and "{" not in line, line
    assert {"effort", "play", "end_plays", "discard", "draw"} <= seen


def test_the_outcome_names_the_winner_or_a_draw() -> None:
    """Section 10: the highest score wins; all at zero is a draw."""
    view = play(40).view(0)
    view["result"] = {"winners": [1], "reason": "an Action deck ran out", "points": [7, 12]}
    text = render(SCREENS.outcome(view))
    assert "Winner: Player 2 (an Action deck ran out)." in text and "The end" in text
    assert re.search(r"Player 2\s.*\s12\s*$", text, re.M)
    view["result"] = {"winners": [], "reason": "a nation's Citizen Groups all left",
                      "points": [0, 0]}
    assert "A draw: nobody wins" in render(SCREENS.outcome(view))


def test_help_describes_a_card_entry() -> None:
    raids = next(c for c in ACTION_CARDS if c.name == "Raids")
    entry = {"name": raids.name, "kind": raids.kind, "pillar": PILLARS[raids.pillar],
             "min_effort": raids.min_effort, "text": raids.text, "copies_in_box": 3}
    text = render(SCREENS.describe(entry))
    assert "Raids (Action, Military 3+)" in text and raids.text[:30] in text
    assert "copies in box: 3" in text


def test_the_game_offers_these_screens() -> None:
    assert isinstance(screens_for(GAME), GuardiansScreens)


# --- through a real terminal ---------------------------------------------------------------
def test_play_a_game_against_a_bot_to_the_end(tmp_path: Path) -> None:
    """A person plays the whole game through the menus against a bot with the full screen
    (``--screen full``, issue 16): every screen shows the cells, both nations, the hand and
    the log, and never the bot's hidden cards."""
    child = spawn_play(tmp_path, "guardians-of-the-city", "--seats", "you,bot", "--bot", "random",
                       "--seed", "4", "--screen", "full")
    screens = play_by_menus(child, 4, board="Terrorist Cells (shared)",
                            hand="Your hand (Player 1)")
    end = finish(child)
    assert "Winner" in end or "A draw" in end
    assert "the game is over" in end and "The game ends when this round is over" not in end

    first = screens[0]
    for part in (*CELLS, *PILLARS, *GROUPS, "Shield", "Counter-Terrorism", "Score",
                 "Action deck", "Crisis deck", "Active Subversives", "Your hand (Player 1)",
                 "Since your last decision", "Keep your National Effort as it is"):
        assert part in first, part
    assert all(len(line) <= 100 for screen in screens for line in screen.splitlines())
    assert any("Play no more Action cards this turn" in screen for screen in screens)

    save = next(tmp_path.rglob("*.json"))
    record = Record.load(save)
    s = start(record)
    assert isinstance(s, GotcState)
    shown = 0
    checked = 0
    for data in record.actions:
        if s.to_move == 0:
            screen = screens[shown]
            shown += 1
            for name in hidden_names(s, 0):
                checked += 1
                assert not named(name, screen), f"the bot's hidden {name} is on screen {shown}"
        s.apply(GAME.action_from_json(data))
    assert s.to_move is None and shown == len(screens)
    assert checked > 0
    assert replay(record).outcome() == s.outcome()
