"""The terminal game, driven through a real pseudo-terminal with pexpect (issue 3)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from helpers import FIRST, answering, first_choice

import citywatch
from citywatch.core.record import Record, replay

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
PROMPT = "choice> "


def spawn(tmp: Path, *args: str, cols: int = 80, rows: int = 24) -> pexpect.spawn:
    env = dict(os.environ, CITYWATCH_DATA_DIR=str(tmp), TERM="xterm-256color")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return pexpect.spawn(sys.executable, ["-m", "citywatch.cli", *args], env=env,
                         dimensions=(rows, cols), encoding="utf-8", timeout=60)


def plain(text: str | None) -> str:
    return ANSI.sub("", text or "")


def saves(tmp: Path) -> list[Path]:
    return sorted((tmp / "saves").glob("*.json"))


def last_screen(text: str) -> str:
    """The part of the output after the last screen clear."""
    return text.split("\x1b[2J")[-1] if "\x1b[2J" in text else text


def test_a_person_plays_a_whole_game_against_bots(tmp_path: Path) -> None:
    """A scripted person plays to the end; the end shows winner, reason and personalities."""
    child = spawn(tmp_path, "play", "ankh-morpork", "--seats", "you,bot,bot", "--seed", "3",
                  cols=100, rows=40)
    decisions = 0
    while True:
        if child.expect_exact([PROMPT, "Game over"]) == 1:
            break
        screen = plain(last_screen(child.before))
        assert "Your hand (Red)" in screen and "Number, '?' help" in screen
        child.sendline(first_choice(screen))
        decisions += 1
        assert decisions < 3000
    child.expect(pexpect.EOF)
    end = plain(child.before)
    assert "Winner:" in end and "Personality" in end
    assert "Seven Sleepers" in end, "issue 16: the end still shows the final board"
    record = Record.load(saves(tmp_path)[0])
    assert record.meta["finished"] is True
    final = replay(record)
    assert final.outcome() is not None
    for name in final.outcome().roles:
        assert name in end, "every personality is revealed at the end"
    assert decisions > 10


def test_bad_input_gets_a_hint_and_commands_work(tmp_path: Path) -> None:
    """Invalid input is answered with a hint and asked again, never a traceback."""
    child = spawn(tmp_path, "play", "ankh-morpork", "--seats", "you,bot,bot,bot", "--seed", "8")
    child.expect_exact(PROMPT)
    for bad in ("banana", "0", "999", "-1"):
        child.sendline(bad)
        child.expect_exact("is not a choice here")
        child.expect_exact(PROMPT)
    child.sendline("? gaspode")
    child.expect_exact("Gaspode")
    child.expect_exact(PROMPT)
    child.sendline("? nap hill")
    child.expect_exact("building costs $12")
    child.expect_exact(PROMPT)
    child.sendline("? nothing-like-this")
    child.expect_exact("Nothing called")
    child.expect_exact(PROMPT)
    child.sendline("log")
    child.expect_exact("Turn 1")
    child.expect_exact(PROMPT)
    child.sendline("board")
    child.expect_exact("Seven Sleepers")
    child.expect_exact(PROMPT)
    child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in plain(child.before)


def _menu_and_hand(screen: str, hand: str) -> tuple[str, str]:
    """The hand's heading and cards (from the 'hand' screen ``hand``) and the menu."""
    text = plain(hand)
    heading = text[text.index("Your hand"):text.index("\n", text.index("Your hand"))]
    cards = re.findall(r"^  (\S.*?)  \S", text[text.index("Your hand"):], flags=re.M)
    assert cards, text
    options = re.findall(r"^\d+\. .*$", plain(screen), flags=re.M)
    return heading + "|" + "|".join(cards), "|".join(options)


def _hand_screen(child: pexpect.spawn) -> str:
    """What the 'hand' command prints at the prompt (issue 16: the whole hand on demand)."""
    child.sendline("hand")
    child.expect_exact(PROMPT)
    return str(child.before)


@pytest.mark.parametrize("how", ["quit", "kill"])
def test_quit_or_kill_then_resume_continues_the_same_decision(tmp_path: Path, how: str) -> None:
    """Autosave after every decision: quitting, or killing the terminal, and --resume
    continue from the same decision with the same hand."""
    child = spawn(tmp_path, "play", "ankh-morpork", "--seats", "you,bot,bot,bot", "--seed", "21",
                  cols=100, rows=50)
    for _ in range(4):
        child.expect_exact(PROMPT)
        child.sendline(first_choice(plain(last_screen(child.before))))
    child.expect_exact(PROMPT)
    screen = last_screen(child.before)
    before = _menu_and_hand(screen, _hand_screen(child))
    saved = Record.load(saves(tmp_path)[0])
    if how == "quit":
        child.sendline("quit")
        child.expect_exact("Game saved")
        child.expect(pexpect.EOF)
    else:
        child.kill(9)
        child.wait()
    again = spawn(tmp_path, "play", "--resume", cols=100, rows=50)
    again.expect_exact("Unfinished games")
    again.expect_exact("Which game?")
    again.sendline("")
    again.expect_exact(PROMPT)
    screen = last_screen(again.before)
    after = _menu_and_hand(screen, _hand_screen(again))
    assert after == before, "issue 26: the numbers too, as before (the save keeps them)"
    assert Record.load(saves(tmp_path)[0]).actions == saved.actions
    again.sendline(first_choice(plain(screen)))
    again.expect_exact(PROMPT)
    assert len(Record.load(saves(tmp_path)[0]).actions) > len(saved.actions)
    again.sendline("quit")
    again.expect(pexpect.EOF)


def test_resume_with_nothing_to_resume(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "--resume")
    child.expect_exact("no unfinished game")
    child.expect(pexpect.EOF)


def test_hot_seat_screens_never_show_the_other_persons_cards(tmp_path: Path) -> None:
    """Hot-seat hides secrets: a hand-over screen before each person's decisions, and no
    screen (the compact one, nor the full board and players that 'board' shows, issue 16)
    contains a card of the other person's hand that this person could not know."""
    game = citywatch.load("ankh-morpork")
    child = spawn(tmp_path, "play", "ankh-morpork", "--seats", "you,you", "--seed", "6",
                  cols=100, rows=50)
    handovers = screens = 0
    while screens < 60:
        i = child.expect_exact(["press Enter", PROMPT, "Game over"])
        if i == 2:
            break
        if i == 0:
            handovers += 1
            assert "Pass the keyboard to" in plain(last_screen(child.before + child.after))
            assert "\x1b[3J" in child.before, "the scrollback is cleared too"
            child.sendline("")
            continue
        screens += 1
        screen = plain(last_screen(child.before))
        first = first_choice(screen)
        child.sendline("board")
        child.expect_exact(PROMPT)
        assert "Seven Sleepers" in plain(child.before)
        screen += plain(child.before)
        seat = 0 if "you are Red" in screen else 1
        state = replay(Record.load(saves(tmp_path)[0]))
        known = json.dumps(state.view(seat)) + "\n".join(state.log(seat))
        texts = game.reference()["cards"]
        known += "\n".join(c["text"] for c in texts if c["name"] in known)
        other = 1 - seat
        from citywatch.games.ankh_morpork.data import CARDS, PERSONALITIES

        for card in state.hands[other]:
            name = CARDS[card].name
            if name not in known:
                assert name not in screen, f"{name} of the other hand shown"
        personality = PERSONALITIES[state.personality[other]].name
        if personality not in known:
            assert personality not in screen
        child.sendline(first)
    assert handovers >= 5 and screens >= 20
    assert game is not None


def test_replay_step_by_step(tmp_path: Path) -> None:
    """A finished game can be watched step by step: Enter next, b back."""
    child = spawn(tmp_path, "simulate", "ankh-morpork", "--games", "1", "--seed", "2",
                  "--records", str(tmp_path / "rec"), "--json")
    child.expect(pexpect.EOF)
    record = sorted((tmp_path / "rec").glob("*.json"))[0]
    viewer = spawn(tmp_path, "replay", str(record), cols=100, rows=50)
    viewer.expect_exact("step 0 of")
    viewer.expect_exact("replay> ")
    viewer.sendline("")
    viewer.expect_exact("step 1 of")
    viewer.expect_exact("replay> ")
    viewer.sendline("")
    viewer.expect_exact("step 2 of")
    viewer.expect_exact("replay> ")
    viewer.sendline("b")
    viewer.expect_exact("step 1 of")
    viewer.expect_exact("replay> ")
    viewer.sendline("e")
    viewer.expect_exact("Winner:")
    viewer.expect_exact("replay> ")
    viewer.sendline("q")
    viewer.expect(pexpect.EOF)


def test_bad_play_options(tmp_path: Path) -> None:
    """Wrong options give a clear error and exit status 2."""
    for args in (["play", "ankh-morpork", "--seats", "you,alien"],
                 ["play", "ankh-morpork", "--players", "3", "--seats", "you,bot"],
                 ["play", "ankh-morpork", "--players", "6"],
                 ["play", "ankh-morpork", "--bot", "genius"]):
        child = spawn(tmp_path, *args)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2, args
        assert "error" in plain(child.before) and "Traceback" not in plain(child.before)


def test_a_game_without_its_own_screens_is_playable_in_the_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 9: a newly registered game with no terminal screens plays through the generic
    ones (its view as JSON, its actions by ``str(action)``), hot seat included, and replays."""
    from io import StringIO

    from rich.console import Console

    from citywatch.core.record import Record
    from citywatch.terminal import app
    from citywatch.terminal.viewer import watch

    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    answers = answering(out, ["", "board", "hand", "? nothing", FIRST] + ["", FIRST] * 40)
    seats = app.parse_seats("you,you,random", None, "random", "toy")
    game = app.new_game("toy", seats, 5, answers, Console(file=out, width=100))
    assert game.run()
    screen = out.getvalue()
    assert "Pass the keyboard to Seat" in screen
    assert "Your hand:" in screen and "'played'" in screen  # the generic screens
    assert "1. Play " in screen  # menu lines are str(action)
    assert "The end:" in screen
    points = game.state.outcome().seat_points()  # issue 26: the core's default breakdown
    assert "Points part by part:" in screen and f"Seat 1 · points: {points[0]}" in screen
    record = Record.load(game.path)
    assert game.state.outcome() is not None and len(record.actions) >= 6
    shown = StringIO()
    steps = iter(["e", "q"])
    assert watch(record, None, lambda _prompt: next(steps), Console(file=shown, width=100)) == 0
    assert "Seat 1 holds" in shown.getvalue()


def test_seat_name_is_the_views_colour_or_name_else_a_number() -> None:
    """The terminal names a seat as its own view does (a colour in the Discworld games, a
    name in Guardians of the City), so the title, the menu and the hand-over agree."""
    from citywatch.core.registry import load
    from citywatch.terminal.screens import seat_name

    assert seat_name(load("ankh-morpork"), {"colour": "Red", "name": "x"}, 0) == "Red"
    assert seat_name(load("guardians-of-the-city"), {"name": "Player 2"}, 1) == "Player 2"
    assert seat_name(load("ankh-morpork"), {}, 2) == "Seat 3"


@pytest.mark.parametrize("name", ["ankh-morpork", "guards-guards", "guardians-of-the-city",
                                  "black-keep"])
def test_the_replay_of_an_all_bot_game_calls_no_seat_you(name: str) -> None:
    """Issue 16: watching a finished record as a whole (no --seat) shows every seat's hand and
    the public view, so no seat is marked "(you)" (it used to be the first seat's view); issue
    26: its end shows every seat's points part by part and result."""
    import random
    from io import StringIO

    from rich.console import Console

    from citywatch.core.record import Record
    from citywatch.core.registry import load
    from citywatch.terminal.viewer import watch

    game = load(name)
    players = max(game.min_players, 2)
    state = game.new_game(players=players, seed=3)
    chooser = random.Random(3)
    taken = []
    while state.outcome() is None and len(taken) < 5000:
        action = chooser.choice(state.legal_actions())
        taken.append(action.to_json())
        state.apply(action)
    assert state.outcome() is not None
    record = Record(name, players, 3, {}, actions=taken)
    shown = StringIO()
    steps = iter(["", "e", "q"])
    assert watch(record, None, lambda _prompt: next(steps), Console(file=shown, width=120)) == 0
    assert "step 1 of" in shown.getvalue() and "holds" in shown.getvalue()
    assert "(you)" not in shown.getvalue()
    scores = game.score_breakdown(state) or ()  # issue 26: the end shows the breakdown
    assert "Points part by part:" in shown.getvalue()
    assert all(score.result[:40] in shown.getvalue().replace("\n", " ") for score in scores)


@pytest.mark.parametrize("args", [("games",), ("rules", "ankh-morpork"),
                                  ("tournament", "ankh-morpork", "--bots", "random,random",
                                   "--games", "2", "--json")])
def test_a_closed_output_ends_quietly(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``citywatch ... | head``: when whoever reads the output stops (the pipe is closed
    before a word is written), the command ends with status 1 and no BrokenPipeError
    traceback, as the Python documentation recommends (issue 16, small bugs)."""
    env = dict(os.environ, CITYWATCH_DATA_DIR=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-m", "citywatch.cli", *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    errors = child.stderr.read().decode()
    assert child.wait(timeout=120) == 1
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    child.stderr.close()
