"""Issue 16, "Terminal": the compact decision screen that fits 80x24, Enter for the usual
choice, auto-take of what can never hurt, and big choices in steps (the shared contract in
``citywatch/core/api.py``: ``Game.usual_choice``, ``Game.never_hurts``; an action's JSON picked
one field at a time)."""

from __future__ import annotations

import json
import random
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pexpect
import pytest
from helpers import (
    ANSI,
    FIRST,
    PROMPT,
    answering,
    first_choice,
    menu_numbers,
    menu_size,
    recording,
    spawn_play,
)
from rich.console import Console
from toy_game import GAME as TOY
from toy_game import HighCard

from citywatch.core.api import Game, State
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.terminal import app
from citywatch.terminal.compact import Steps

ROWS, COLS = 24, 80
HINT = "Number, '?' help"
GAMES = {
    "ankh-morpork": (("--seats", "you,random,random,random"), "Your hand (Red)"),
    "guards-guards": (("--seats", "you,random"), "Your hand (Red)"),
    "guardians-of-the-city": (("--seats", "you,bot", "--bot", "random"), "Your hand (Player 1)"),
    "black-keep": (("--seats", "you",), "Your thief cards (Thief 1)"),
}
BOARDS = {
    "ankh-morpork": re.compile(r"#\s+Area\s+\$\s+R\s+B"),  # the city's table of areas
    "guards-guards": re.compile(r"ALCHEMISTS"),  # the hex map's quadrant names
    "guardians-of-the-city": re.compile(r"Terrorist Cells \(shared\)"),
    "black-keep": re.compile(r"Ways in and out: "),
}
"""A text of each game's full board screen that its compact screen never shows."""
SUMMARIES = {"ankh-morpork": "Red (you)", "guards-guards": "Red (you)",
             "guardians-of-the-city": "Player 1 (you)", "black-keep": "Thief 1 (you)"}
"""A text of each game's board summary: the viewing seat's row or column."""


def screen_of(child: pexpect.spawn) -> list[str]:
    """The lines printed since the last screen clear, up to the prompt (the last line)."""
    text = child.before.split("\x1b[2J")[-1]
    return ANSI.sub("", text).split("\n")


def numbers_shown(lines: list[str]) -> list[int]:
    """The numbers of the menu lines just above the hint."""
    return menu_numbers("\n".join(lines))


# --- 1. the compact screen fits 80x24 -----------------------------------------------------------
@pytest.mark.parametrize("name", list(GAMES))
def test_every_decision_screen_fits_80_by_24(tmp_path: Path, name: str) -> None:
    """Issue 16, compact screen: in a real 80x24 terminal every decision's screen fits: no
    line wider than 80, and the last 24 rows (what the player sees) hold the title, the board
    summary, the hand, the task, every numbered choice of the menu, the commands and the
    prompt; nothing the player needs has scrolled away."""
    args, hand = GAMES[name]
    child = spawn_play(tmp_path, name, *args, "--seed", "4", rows=ROWS, cols=COLS)
    rng = random.Random(4)
    screens = 0
    while screens < 30 and child.expect_exact([PROMPT, "Game over"]) == 0:
        lines = screen_of(child)
        assert all(len(line) <= COLS for line in lines), max(lines, key=len)
        visible = lines[-ROWS:]  # the prompt is on the last row
        titles = [i for i, line in enumerate(visible) if "you are " in line and "──" in line]
        assert titles, "\n".join(visible)
        compact = visible[titles[-1]:]
        assert any(HINT in line for line in compact)
        first = next(i for i, line in enumerate(compact) if re.match(r"\d+\. ", line))
        assert compact[first - 1].rstrip().endswith((":", "›")), "the task, above the menu"
        shown = numbers_shown(compact)
        assert shown and len(set(shown)) == len(shown), "\n".join(visible)
        if screens == 0:
            assert any(line.startswith(hand) for line in compact), "\n".join(visible)
            assert "Since your last decision" in "\n".join(compact)
        screens += 1
        child.sendline(str(rng.choice(shown)))
    assert screens >= 5
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in ANSI.sub("", child.before or "")


def test_board_log_and_hand_are_there_on_demand(tmp_path: Path) -> None:
    """Issue 16, compact screen: 'board', 'hand' and 'log' print the full screens, and Enter
    after them comes back to the choices (it does not take the usual choice)."""
    child = spawn_play(tmp_path, "ankh-morpork", "--seats", "you,random,random", "--seed", "3",
                       rows=ROWS, cols=COLS)
    child.expect_exact(PROMPT)
    for command, shown in (("board", "Seven Sleepers"), ("hand", "You win if"),
                           ("log", "Turn 1")):
        child.sendline(command)
        child.expect_exact(shown)
        child.expect_exact("(Enter: back to your choices, or type your choice")
        child.expect_exact(PROMPT)
    saved = len(Record.load(next((tmp_path / "saves").glob("*.json"))).actions)
    child.sendline("")
    child.expect_exact(PROMPT)
    assert HINT in ANSI.sub("", child.before)
    assert len(Record.load(next((tmp_path / "saves").glob("*.json"))).actions) == saved
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_compact_screen_alone_and_the_board_on_demand(tmp_path: Path, name: str) -> None:
    """Issue 16, compact screen on its own: at 80x24 each decision's screen (all that is printed
    after the screen is cleared, the prompt included) is at most 24 lines and holds the board
    summary, the hand and the menu, and NOT the full board; 'board' then shows the full board,
    and Enter comes back to the compact screen without deciding."""
    args, hand = GAMES[name]
    child = spawn_play(tmp_path, name, *args, "--seed", "6", rows=ROWS, cols=COLS)
    rng = random.Random(6)
    screens = 0
    while screens < 8 and child.expect_exact([PROMPT, "Game over"]) == 0:
        lines = screen_of(child)
        text = "\n".join(lines)
        assert len(lines) <= ROWS, text
        assert f"you are {SUMMARIES[name].removesuffix(' (you)')}" in lines[0], text
        assert SUMMARIES[name] in text and HINT in text and numbers_shown(lines), text
        assert not BOARDS[name].search(text), text
        if screens == 0:
            assert any(line.startswith(hand) for line in lines), text
            saved = len(Record.load(next((tmp_path / "saves").glob("*.json"))).actions)
            child.sendline("board")
            child.expect_exact(PROMPT)
            assert BOARDS[name].search(ANSI.sub("", child.before))
            child.sendline("")
            child.expect_exact(PROMPT)
            again = screen_of(child)
            assert again == lines, "Enter after 'board': the same compact screen again"
            assert len(Record.load(next((tmp_path / "saves").glob("*.json"))).actions) == saved
        screens += 1
        child.sendline(str(rng.choice(numbers_shown(lines))))
    assert screens >= 5
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in ANSI.sub("", child.before or "")


@pytest.mark.parametrize("name", list(GAMES))
def test_screen_full_shows_the_board_before_every_decision(tmp_path: Path, name: str) -> None:
    """Issue 16, the old big screen on request: with ``--screen full`` the full board is
    printed before every decision, the compact screen under it; the save keeps the setting."""
    args, hand = GAMES[name]
    child = spawn_play(tmp_path, name, *args, "--seed", "6", "--screen", "full", rows=ROWS,
                       cols=COLS)
    rng = random.Random(6)
    screens = 0
    while screens < 6 and child.expect_exact([PROMPT, "Game over"]) == 0:
        text = "\n".join(screen_of(child))
        assert BOARDS[name].search(text) and hand in text and HINT in text, text
        screens += 1
        child.sendline(str(rng.choice(numbers_shown(screen_of(child)))))
    assert screens >= 5
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert Record.load(next((tmp_path / "saves").glob("*.json"))).meta["screen"] == "full"


def test_ankh_morporks_summary_names_the_city_from_the_view_alone() -> None:
    """Issue 16, board summary (Ankh-Morpork): one's personality's progress, every area with
    trouble, a building, demons or trolls (by number), and (issue 26: apart, never cut) the
    players' table, a line each; the same for two states that differ only in what the seat
    cannot see (hands, personalities, deck)."""
    from helpers import hidden_twin, state_after

    from citywatch.core.presentation import summary_of
    from citywatch.games.ankh_morpork.terminal import AnkhMorporkScreens

    game = load("ankh-morpork")
    screens = AnkhMorporkScreens(game.reference())
    numbers = {a["name"]: a["number"] for a in game.reference()["areas"]}
    checked = 0
    for steps in (40, 120, 250):
        state = state_after(4, steps, steps)
        for seat in range(4):
            view = state.view(seat)
            table = render_text(screens.table(view)).splitlines()
            assert len(table) == len(view["seats"]), "a line per player"
            text = render_text(summary_of(screens, view)) + "\n".join(table)
            assert view["progress"]["line"] in text
            for name, area in view["areas"].items():
                if area["trouble"] or area["building"] or area["demons"] or area["trolls"]:
                    assert f"{numbers[name]} {name}" in " ".join(text.split()), name
                    checked += 1
            for other, line in zip(view["seats"], table, strict=True):
                assert line.startswith(other["colour"]) and f"${other['money']}" in line
            twin = hidden_twin(state, seat).view(seat)
            assert (render_text(summary_of(screens, twin))
                    + "\n".join(render_text(screens.table(twin)).splitlines())) == text
    assert checked > 5


def test_black_keeps_summary_names_each_thief_and_guard() -> None:
    """Issue 16, board summary (Black Keep): the round, each thief where this seat may know
    it (spec 10: a rival's hex stays hidden; test_bk_terminal checks the summary of twin
    positions too) with wounds and coins, and every guard's hex, facing and status."""
    from citywatch.core.presentation import summary_of
    from citywatch.games.black_keep.terminal import BlackKeepScreens

    screens = BlackKeepScreens()
    state = load("black-keep").new_game(2, 3, scenario="the-vault", mode="rivals")
    rng = random.Random(3)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    for seat in (0, 1):
        view = state.view(seat)
        table = render_text(screens.table(view))
        assert len(table.splitlines()) == len(view["thieves"]), "issue 26: a line per thief"
        text = render_text(summary_of(screens, view)) + table
        assert f"round {view['round']} of {view['dawn']}" in text
        for thief in view["thieves"]:
            mine = thief["name"] == view["name"]
            you = r" \(you\)" if mine else ""
            assert re.search(rf"{thief['name']}{you}( \*)?: ", text), text
            assert f"wounds {thief['wounds']} · coins {thief['coins']}" in text
            if not mine and len(thief["possible"]) > 1:
                assert re.search(rf"{thief['name']}( \*)?: hidden among", text), \
                    "spec 10: a rival's dial"
        for guard in view["guards"]:
            if guard.get("placed") and guard.get("hex"):
                assert re.search(rf"{guard['hex']}\s+\S {guard['facing']}\s+"
                                 rf"{guard['status'].capitalize()}", text), text


def render_text(thing: Any) -> str:
    """``thing`` drawn 80 columns wide, as plain text."""
    from helpers import render

    return render(thing, COLS)


def screens_read(out: StringIO, answers: list[str]) -> tuple[app.Reader, list[str]]:
    """A reader giving ``answers`` then the first choice of each menu, and the screens it was
    shown (``helpers.recording``)."""
    return recording(out, answers)


def test_the_screen_command_switches_and_the_save_and_resume_keep_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 16, the screen setting: 'screen full' prints the full board (the generic board:
    the view's keys as Python, "'played'") before each decision, and the save keeps it;
    'screen compact' stops it; ``resume(screen=...)`` (``play --resume --screen``) overrides
    the save's setting."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    read, screens = screens_read(out, ["screen full", FIRST, "screen compact", FIRST])
    game = app.new_game("toy", ["you", "random"], 6, read, Console(file=out, width=COLS,
                                                                   height=ROWS))
    assert Record.load(game.path).meta["screen"] == "compact"
    assert game.run()
    board = "'played'"
    assert board not in screens[0] and "played: " in screens[0], "the summary, not the board"
    assert "The screen is full" in screens[1] and board in screens[1]
    assert board in screens[2], "full: the board before the next decision too"
    assert "The screen is compact" in screens[3] and board not in screens[3]
    assert Record.load(game.path).meta["screen"] == "compact"
    out = StringIO()
    read, screens = screens_read(out, ["quit"])
    game = app.new_game("toy", ["you", "random"], 7, read, Console(file=out, width=COLS))
    assert not game.run() and board not in screens[0]
    again = StringIO()
    read, screens = screens_read(again, ["quit"])
    assert app.resume(read, Console(file=again, width=COLS, height=ROWS), choice="1",
                      screen="full") == 0
    assert board in screens[0]
    assert Record.load(game.path).meta["screen"] == "full"


# --- 2. Enter takes the usual choice; auto-take -------------------------------------------------
def draws_usually(monkeypatch: pytest.MonkeyPatch, harmless: bool) -> None:
    """The toy game with a usual choice: drawing a card when one may (else none); it never
    hurts when ``harmless``."""
    def usual(self: Game, state: State, actions: Any) -> int | None:
        texts = [str(a) for a in actions]
        return texts.index("Draw a card") if "Draw a card" in texts else None

    def never_hurts(self: Game, state: State, action: Any) -> bool:
        return harmless and str(action) == "Draw a card"

    monkeypatch.setattr(HighCard, "usual_choice", usual)
    monkeypatch.setattr(HighCard, "never_hurts", never_hurts)


def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: list[str],
             auto: bool = False) -> tuple[app.TerminalGame, StringIO]:
    """A toy game for one person against a random bot, at an 80x24 console, answered
    ``answers`` then the first choice of each menu (``FIRST``: play the lowest card) to the
    end."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    game = app.new_game("toy", ["you", "random"], 6, answering(out, answers),
                        Console(file=out, width=COLS, height=ROWS), auto=auto)
    return game, out


def human_moves(game: app.TerminalGame) -> list[tuple[list[str], int | None, str]]:
    """Each of the person's decisions in the record: the menu, the usual choice, the taken."""
    record = Record.load(game.path)
    state = TOY.new_game(players=2, seed=6)
    moves = []
    for data in record.actions:
        legal = state.legal_actions()
        action = TOY.action_from_json(data)
        if state.to_move == 0:
            moves.append(([str(a) for a in legal], TOY.usual_choice(state, legal), str(action)))
        state.apply(action)
    return moves


def test_enter_takes_the_usual_choice_and_a_number_skips_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 16, fewer confirmations: the screen shows "Enter: Draw a card"; Enter alone takes
    that usual choice, a number still takes any other choice (here: play a card instead)."""
    draws_usually(monkeypatch, harmless=False)
    game, out = toy_game(tmp_path, monkeypatch, ["", FIRST, FIRST])
    assert game.run()
    assert "Enter: Draw a card" in out.getvalue()
    offered = [(menu, taken) for menu, usual, taken in human_moves(game) if usual is not None]
    assert offered[0][1] == "Draw a card", "Enter took the usual choice"
    assert offered[1][1].startswith("Play"), "a number took another choice than the usual"


def test_enter_takes_ankh_morporks_usual_choice(tmp_path: Path) -> None:
    """Issue 16, fewer confirmations, with Ankh-Morpork's own usual choices (e.g. "Take $3"
    over "Skip take $3"): whenever the screen offers "Enter: X", Enter records exactly X, the
    game's ``usual_choice``."""
    child = spawn_play(tmp_path, "ankh-morpork", "--seats", "you,random,random", "--seed", "5",
                       rows=ROWS, cols=COLS)
    game = load("ankh-morpork")
    terminal = game.terminal()
    assert terminal is not None
    entered = 0
    for _ in range(120):
        if child.expect_exact([PROMPT, "Game over"]) == 1:
            break
        text = ANSI.sub("", child.before)
        offered = re.search(r"^Enter: (.+)$", text, flags=re.M)
        if offered is None:
            child.sendline(first_choice(text))
            continue
        record = Record.load(next((tmp_path / "saves").glob("*.json")))
        state = replay(record)
        legal = state.legal_actions()
        usual = game.usual_choice(state, legal)
        assert usual is not None and terminal.label(str(legal[usual])) == offered[1].strip()
        child.sendline("")
        child.expect_exact(PROMPT)
        after = Record.load(next((tmp_path / "saves").glob("*.json")))
        assert after.actions[len(record.actions)] == legal[usual].to_json()
        entered += 1
        if entered == 4:
            break
        child.sendline(first_choice(ANSI.sub("", child.before)))
    assert entered == 4
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_auto_takes_what_never_hurts_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 16, auto-take: with the setting on (``--auto``: ``new_game(auto=True)``) a usual
    choice that never hurts is taken unasked, recorded as a decision, and the screen says
    "Taken for you: ..."; 'auto off' stops it and the person is asked again."""
    draws_usually(monkeypatch, harmless=True)
    game, out = toy_game(tmp_path, monkeypatch, ["auto off", FIRST, ""], auto=True)
    assert game.run()
    screen = out.getvalue()
    first_screen = screen[:screen.index("Since your last decision")]
    assert first_screen.count("Taken for you: Draw a card") == 1, "said when it is taken"
    assert re.search(r"Since your last decision:\n  Taken for you: Draw a card", screen), \
        "issue 26: and listed first under 'Since your last decision' on the next screen"
    assert "Auto-take is off" in screen
    taken = [taken for _, _, taken in human_moves(game)]
    assert taken[0] == "Draw a card"  # taken unasked, before any answer was read
    assert taken[1].startswith("Play")  # '1' after 'auto off'
    assert taken[2] == "Draw a card"  # asked this time: Enter took it
    assert Record.load(game.path).meta["auto"] == []


def test_auto_on_in_the_game_takes_the_decision_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 16, auto-take: the command 'auto on' takes the decision on the screen when its
    usual choice never hurts, and the save keeps the setting; a usual choice that may hurt is
    never taken unasked."""
    draws_usually(monkeypatch, harmless=True)
    game, out = toy_game(tmp_path, monkeypatch, ["auto on", FIRST, FIRST, FIRST])
    assert game.run()
    assert human_moves(game)[0][2] == "Draw a card"
    assert Record.load(game.path).meta["auto"] == [0]
    draws_usually(monkeypatch, harmless=False)
    game, out = toy_game(tmp_path / "2", monkeypatch, [FIRST], auto=True)
    assert game.run()
    assert "Taken for you" not in out.getvalue()


# --- 3. big choices in steps --------------------------------------------------------------------
def big_decisions(name: str, least: int = 11) -> list[State]:
    """Positions of random games of ``name`` whose seat to move has more than ``least``
    choices."""
    game = load(name)
    found = []
    for seed in range(3):
        state = game.new_game(players=max(game.min_players, 2), seed=seed)
        rng = random.Random(seed)
        while state.to_move is not None and len(found) < 12:
            legal = state.legal_actions()
            if len(legal) >= least:
                found.append(state.copy())
            state.apply(rng.choice(legal))
    return found


def walk(steps: Steps, target: int) -> int:
    """Pick, at every step, the option leading to action ``target``; the action reached."""
    seen = 0
    while (step := steps.step()) is not None:
        name, options = step
        assert len(options) > 1, "a field with one value left is skipped"
        groups = [set(o.actions) for o in options]
        assert set().union(*groups) == set(steps.remaining())
        assert sum(map(len, groups)) == len(steps.remaining()), "values do not overlap"
        chosen = next(o for o in options if target in o.actions)
        steps.pick(name, chosen)
        seen += 1
        assert seen < 10
    [reached] = steps.remaining()
    return reached


@pytest.mark.parametrize("name", ["ankh-morpork", "guards-guards", "guardians-of-the-city",
                                  "black-keep"])
def test_steps_reach_every_action_of_a_big_choice(name: str) -> None:
    """Issue 16, big choices in steps (contract): picking the verb, then each field's value
    (only values still leading to a legal action) reaches each legal action, exactly that
    one; 'back' undoes a step."""
    states = big_decisions(name)
    assert states
    for state in states:
        legal = state.legal_actions()
        forms = [a.to_json() for a in legal]
        first = Steps(forms, [str(a) for a in legal]).step()
        assert first is not None
        if len({f["verb"] for f in forms}) > 1:
            assert first[0] == "verb"
        for target in range(len(legal)):
            steps = Steps(forms, [str(a) for a in legal])
            assert steps.stepwise()
            assert walk(steps, target) == target
            while steps.back():
                pass
            assert steps.remaining() == list(range(len(legal)))


def big_ankh_morpork() -> tuple[State, list[Any]]:
    """An Ankh-Morpork position whose seat to move has more than 30 choices in several
    fields (moving a minion)."""
    for state in big_decisions("ankh-morpork", 30):
        legal = state.legal_actions()
        if len({json.dumps(a.to_json()["area"]) for a in legal if "area" in a.to_json()}) > 2:
            return state, legal
    raise AssertionError("no big decision found")


def decide(state: State, answers: list[str], height: int) -> tuple[Any, str]:
    """The action a person takes at ``state`` answering ``answers`` on a console of
    ``height`` rows, and the screen."""
    out = StringIO()
    seats = ["random"] * state.players
    seats[state.to_move or 0] = "you"
    record = Record(state.game.name, state.players, 0, {}, [], meta={"seats": seats})
    given = iter(answers)
    play = app.TerminalGame(Console(file=out, width=COLS, height=height), state.copy(), record,
                            Path("unused.json"), lambda _prompt: next(given))
    taken: list[Any] = []
    play.apply = taken.append  # type: ignore[method-assign]
    assert play.person_moves(state.to_move or 0)
    [action] = taken
    return action, ANSI.sub("", out.getvalue())


def test_a_stepped_menu_is_the_same_at_every_height() -> None:
    """Issue 16, big choices in steps, and issue 26 (numbers keep their meaning): a decision of
    one kind and more than ten choices is a menu of each field's values in turn ("b" goes back
    a step) in a tall terminal as at 80x24, so its numbers never depend on the screen; the
    picks take the action picked."""
    state, legal = big_ankh_morpork()
    target = len(legal) // 2
    steps = Steps([a.to_json() for a in legal], [str(a) for a in legal])
    answers = []
    while (step := steps.step()) is not None:
        name, options = step
        index = next(i for i, o in enumerate(options) if target in o.actions)
        if not answers:
            wrong = (index + 1) % len(options)
            answers += [str(wrong + 1), "b"]
        answers.append(str(index + 1))
        steps.pick(name, options[index])
    taken = []
    for height in (ROWS, 200):
        stepped, screen = decide(state, answers, height=height)
        assert stepped == legal[target]
        assert "b: back" in screen and f"{len(legal)}. " not in screen
        taken.append(stepped)
    assert taken[0] == taken[1]


def test_a_big_choice_in_steps_in_a_real_terminal(tmp_path: Path) -> None:
    """Issue 16, big choices in steps, at 80x24: Guards! Guards!'s first choice (a Guild Card
    and a Start Gate, more than ten) is a menu of cards, then of the gates left for the card
    picked; 'b' goes back; the action recorded is the one picked."""
    child = spawn_play(tmp_path, "guards-guards", "--seats", "you,random", "--seed", "5",
                       rows=ROWS, cols=COLS)
    child.expect_exact(PROMPT)
    first = ANSI.sub("", child.before)
    cards = menu_size(first)
    assert cards < 11 and "… (" in first
    child.sendline("1")
    child.expect_exact(PROMPT)
    assert "b: back" in ANSI.sub("", child.before)
    child.sendline("b")
    child.expect_exact(PROMPT)
    assert menu_size(ANSI.sub("", child.before)) == cards
    child.sendline("2")
    child.expect_exact(PROMPT)
    gates = ANSI.sub("", child.before)
    picked = re.search(r"^1\. (.+?)\s*$", gates, flags=re.M)
    assert picked is not None and picked[1].startswith("Join as")
    child.sendline("1")
    child.expect_exact(PROMPT)
    record = Record.load(next((tmp_path / "saves").glob("*.json")))
    game = load("guards-guards")
    screens = game.terminal()
    assert screens is not None
    state = game.new_game(players=2, seed=5)
    mine = []
    for data in record.actions:
        action = game.action_from_json(data)
        if state.to_move == 0:
            mine.append(action)
        state.apply(action)
    assert screens.label(str(mine[0])) == picked[1]
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_typed_name_takes_the_one_choice_naming_it() -> None:
    """Issue 27: a name a choice gives (a place on the map) typed at the prompt names the
    choices with a field other than the verb of that value, ignoring case; a verb is never a
    name, and a name no choice gives names none."""
    from citywatch.terminal.app import naming

    forms = [{"verb": "move_to", "tile": "Nap Hill"}, {"verb": "go_to", "tile": "Park Lane"},
             {"verb": "go_to", "tile": "Park Lane", "via": "over Brass Bridge"}, "skip"]
    assert naming(forms, "  nap HILL ") == [0]
    assert naming(forms, "park lane") == [1, 2]
    assert naming(forms, "over brass bridge") == [2]
    assert naming(forms, "go_to") is None
    assert naming(forms, "skip") is None and naming(forms, "") is None
