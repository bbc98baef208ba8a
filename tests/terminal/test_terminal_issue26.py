"""Issue 26, "Terminal": Ctrl-C anywhere saves and stops; "Blue is thinking..."; the whole "since
your last decision", folded per player when long, and a line per player on every decision
screen within 80x24; menu numbers that keep their meaning; long input refused; a save in use
not opened twice; 'quit' at the hot-seat hand-over; every listing within 80 columns."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import socket
from io import StringIO
from pathlib import Path
from typing import Any

import pexpect
import pytest
from helpers import (
    ANSI,
    FIRST,
    HINT,
    PROMPT,
    answering,
    first_choice,
    menu_numbers,
    recording,
    spawn_play,
)
from rich.console import Console

from citywatch import saves
from citywatch.bots import Observation
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.terminal import app
from citywatch.terminal.numbering import FOLD_ABOVE, Entry, Memory, Menu, entries_of, number
from citywatch.terminal.recent import FOLDED, HEADING, attribute, fold, recent_lines

ROWS, COLS = 24, 80
GAMES = {"ankh-morpork": "you,random,random,random", "guards-guards": "you,random,random",
         "guardians-of-the-city": "you,random,random", "black-keep": "you,you"}
"""Each game with a person in the first seat and bots (Black Keep: two thieves in co-op)."""
SAVED = "Continue it with: citywatch play --resume"
"""The last line 'quit' prints (the usual line)."""


class Interrupted(Exception):
    """A stand-in never raised: see ``ctrl_c``."""


def console(out: StringIO, width: int = COLS, height: int = ROWS) -> Console:
    return Console(file=out, width=width, height=height)


def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, seats: str, seed: int,
          read: Any, out: StringIO, height: int = ROWS) -> app.TerminalGame:
    """A new game of ``name`` in the data directory ``tmp_path``, on an 80-column console."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    return app.new_game(name, app.parse_seats(seats, None, "random", name), seed, read,
                        console(out, height=height))


def ctrl_c(_prompt: str = "") -> str:
    """A reader, or a bot's step, at which the person presses Ctrl-C."""
    raise KeyboardInterrupt


# --- 1. Ctrl-C anywhere saves and stops with the usual line --------------------------------------
def test_ctrl_c_at_the_prompt_saves_and_stops_with_the_usual_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, Ctrl-C at a prompt: the game is saved, the line 'quit' prints is printed (no
    traceback: run() returns), the save is no longer marked in use, and --resume continues the
    same decision."""
    out = StringIO()
    answers = iter([FIRST, FIRST, "ctrl-c"])
    first = answering(out, [])

    def read(prompt: str) -> str:
        return ctrl_c() if next(answers) == "ctrl-c" else str(first(prompt))

    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,random,random", 4, read, out)
    assert game.run() is False
    text = out.getvalue()
    assert text.rstrip().endswith(SAVED) and f"Game saved in {game.path}." in text
    saved = Record.load(game.path)
    assert saved.meta["finished"] is False and len(saved.actions) >= 2
    assert saves.lock_holder(game.path) is None and not saves.lock_path(game.path).exists()
    again = StringIO()
    assert app.resume(answering(again, ["quit"]), console(again), choice="1") == 0
    assert Record.load(game.path).actions == saved.actions
    assert again.getvalue().rstrip().endswith(SAVED)


def test_ctrl_c_while_a_bot_thinks_saves_and_stops_with_the_usual_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, Ctrl-C while a bot thinks: the bot's step is interrupted, nothing half-done is
    recorded, the usual line is printed, and the game resumes with that bot's decision (the
    bots play on, the person is asked)."""
    out = StringIO()
    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,random,random", 4,
                 answering(out, []), out)
    blue = game.bots[1]
    asked: list[int] = []

    def choose(observation: Observation, legal: Any, rng: Any) -> Any:
        asked.append(len(game.record.actions))
        return ctrl_c()

    monkeypatch.setattr(blue, "choose", choose)
    assert game.run() is False
    assert asked and out.getvalue().rstrip().endswith(SAVED)
    assert "Blue is thinking..." in out.getvalue()
    saved = Record.load(game.path)
    assert len(saved.actions) == asked[0], "the interrupted decision is not recorded"
    state = replay(saved)
    assert state.to_move == 1, "Blue decides next"
    monkeypatch.undo()
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    again = StringIO()
    read, screens = recording(again, ["quit"])
    assert app.resume(read, console(again), choice="1") == 0
    assert len(Record.load(game.path).actions) > len(saved.actions), "Blue played on"
    assert screens and "you are Red" in screens[-1]


def test_ctrl_c_at_the_hand_over_and_at_the_resume_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toy_registered: Any) -> None:
    """Issue 26, Ctrl-C anywhere: at the hot-seat hand-over the game saves and stops with the
    usual line; at "Which game?" of --resume nothing is opened, quietly."""
    out = StringIO()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return ctrl_c() if prompt == "" else "1"

    game = start(tmp_path, monkeypatch, "toy", "you,you", 5, read, out)
    assert game.run() is False
    assert prompts == [""] and out.getvalue().rstrip().endswith(SAVED)
    listed = StringIO()
    assert app.resume(ctrl_c, console(listed)) == 1
    assert "Traceback" not in listed.getvalue() and "Which game" not in listed.getvalue()
    assert not saves.lock_path(game.path).exists()


def test_ctrl_c_in_a_real_terminal_while_hard_bots_think(tmp_path: Path) -> None:
    """Issue 26, in a real 80x24 terminal: Ctrl-C while a hard bot thinks, and then at the
    prompt, each saves and prints the usual line, never a traceback; --resume continues."""
    child = spawn_play(tmp_path, "ankh-morpork", "--seats", "hard,you", "--seed", "3",
                       rows=ROWS, cols=COLS)
    child.timeout = 120
    while child.expect_exact([PROMPT, " is thinking..."]) == 0:
        child.sendline(first_choice(ANSI.sub("", child.before)))
    assert ANSI.sub("", child.before).endswith("Red"), "the bot, named as its view names it"
    child.sendintr()
    child.expect_exact(SAVED)
    child.expect(pexpect.EOF)
    assert "Traceback" not in ANSI.sub("", child.before or "")
    [save] = (tmp_path / "saves").glob("*.json")
    assert not saves.lock_path(save).exists()
    again = spawn_play(tmp_path, "--resume", rows=ROWS, cols=COLS)
    again.timeout = 120
    again.expect_exact("Which game?")
    again.sendline("")
    again.expect_exact(PROMPT)
    assert "you are Blue" in ANSI.sub("", again.before)
    again.sendintr()
    again.expect_exact(SAVED)
    again.expect(pexpect.EOF)
    assert "Traceback" not in ANSI.sub("", again.before or "")


# --- 2. "Blue is thinking..." ---------------------------------------------------------------------
def test_the_screen_says_which_bot_is_thinking(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: while a bot decides, a line names it as the views do (``GameType.seat_name``:
    'Blue is thinking...'), once per run of its decisions, before it decides."""
    out = StringIO()
    said: list[bool] = []
    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,random,random", 2,
                 answering(out, [FIRST] * 6 + ["quit"]), out)
    green = game.bots[2]
    plain_choose = green.choose

    def choose(observation: Observation, legal: Any, rng: Any) -> Any:
        said.append(out.getvalue().rstrip().endswith("Green is thinking..."))
        return plain_choose(observation, legal, rng)

    monkeypatch.setattr(green, "choose", choose)
    assert game.run() is False
    text = out.getvalue()
    assert "Blue is thinking..." in text and "Green is thinking..." in text
    assert said and said[0], "said before the bot decides"
    record = Record.load(game.path)
    state = load("ankh-morpork").new_game(players=3, seed=2)
    runs: list[str] = []
    last = None
    for data in record.actions:
        seat = state.to_move
        if seat == 0:
            last = None
        elif seat != last:
            runs.append(game.names[seat])
            last = seat
        state.apply(state.game.action_from_json(data))
    if state.to_move not in (0, None) and state.to_move != last:
        runs.append(game.names[state.to_move])  # the bot thinking when the person quit
    said_lines = re.findall(r"^(\w+) is thinking\.\.\.$", text, flags=re.M)
    assert said_lines == runs[:len(said_lines)] and len(said_lines) >= len(runs) - 1, \
        "once per run of a bot's decisions"


# --- 3. since your last decision, and a line per player -------------------------------------------
LOG = ["Turn 3: Blue to play.", "Blue played Mr Bent.", "Blue took a loan of $10 (Mr Bent).",
       "Blue placed a minion in Dolly Sisters.", "Blue pays Red $2.", "Turn 4: Green to play.",
       "Green played Cut Purse: it fails against Red.", "Green drew 2 cards.",
       "Random event: Fog.", "Turn 5: Red to play."]


def test_what_concerns_you_comes_first_and_whole_the_rest_a_line_per_player() -> None:
    """Issue 26, "since your last decision" folded: the lines that concern Red (by Red or naming
    Red: a payment, a failed Cut Purse) are kept whole and first; every other player's lines
    become one line "Blue: 4 moves (…; newest)"; a line naming no seat is the game's."""
    out = Console(file=StringIO(), width=COLS)
    names = ["Red", "Blue", "Green"]
    lines = [line.plain for line in fold(out, LOG, names, "Red", COLS, room=20)]
    assert lines[0] == FOLDED
    assert lines[1:4] == ["  Blue pays Red $2.", "  Green played Cut Purse: it fails against Red.",
                          "  Turn 5: Red to play."]
    assert lines[4] == "  Blue: 4 moves (…; placed a minion in Dolly Sisters)", "the newest"
    assert lines[5:] == ["  Green: 2 moves (Turn 4: Green to play; drew 2 cards)",
                         "  Random event: Fog."]
    by = {line.text: line.by for line in attribute(LOG, names, "Red")}
    assert by["Random event: Fog."] == "The game" and by["Blue pays Red $2."] == "Blue"
    assert all(len(line) <= COLS for line in lines)


def test_the_whole_list_when_it_fits_and_folded_within_its_room() -> None:
    """Issue 26: every line, in order, when they fit (not the last 4); folded when not; and
    when even folded they do not fit, the oldest lines about you give way to a count, the
    other players keeping their line."""
    out = Console(file=StringIO(), width=COLS)
    names = ["Red", "Blue", "Green"]
    whole = [t.plain for t in recent_lines(out, LOG, names, "Red", COLS, whole=11, folded=11)]
    assert whole == [HEADING, *(f"  {line}" for line in LOG)]
    short = [t.plain for t in recent_lines(out, LOG, names, "Red", COLS, whole=10, folded=6)]
    assert short[0] == FOLDED and len(short) == 6
    assert short[1] == "  … 2 earlier lines about you ('log' shows them)"
    assert short[2] == "  Turn 5: Red to play."
    assert [line.split(":")[0] for line in short[3:]] == ["  Blue", "  Green", "  Random event"]
    assert recent_lines(out, [], names, "Red", COLS, whole=5, folded=5) == []


def screen_blocks(screen: str) -> list[str]:
    """The lines of a decision screen from its title to the prompt."""
    lines = ANSI.sub("", screen).split("\n")
    title = max(i for i, line in enumerate(lines) if "you are " in line and "──" in line)
    return lines[title:]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_decision_screen_has_a_line_per_player_and_all_that_happened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Issue 26, at 80x24 in every game: each decision screen fits (at most 23 lines and the
    prompt, none over 80 columns), has the players' table under the title, a line per player,
    and "since your last decision" holds every line the seat may read since then: whole, or,
    folded, every player who did something named on a line of their own, and every line that
    concerns the seat (or a count of those left out)."""
    out = StringIO()
    read, screens = recording(out, [], then=40)
    game = start(tmp_path, monkeypatch, name, GAMES[name], 5, read, out)
    seen: dict[int, int] = {}
    logs: list[tuple[int, list[str]]] = []
    plain_moves = game.person_moves

    def person_moves(seat: int) -> bool:
        lines = game.state.log(seat)
        logs.append((seat, lines[seen.get(seat, 0):]))
        seen[seat] = len(lines)
        return plain_moves(seat)

    monkeypatch.setattr(game, "person_moves", person_moves)
    with contextlib.suppress(StopIteration):  # the answers ran out before the end
        game.run()
    firsts = [s for s in screens if HINT in s and "you are " in s and "b: back" not in s]
    names = game.names
    heading = 1 if name == "guards-guards" else 0
    folded = 0
    for screen, (seat, recent) in zip(firsts, logs, strict=False):
        lines = screen_blocks(screen)
        assert len(lines) <= ROWS and all(len(line) <= COLS for line in lines), screen
        assert f"you are {names[seat]}" in lines[0]
        rows = lines[1 + heading:1 + heading + len(names)]
        assert all(n in row for n, row in zip(names, rows, strict=True)), "\n".join(lines)
        text = "\n".join(lines)
        if not recent:
            assert "Since your last decision" not in text
            continue
        block = text[text.index("Since your last decision"):]
        if block.startswith(HEADING):
            flat = " ".join(block.split())
            assert all(" ".join(line.split()) in flat for line in recent), block
            continue
        folded += 1
        dropped = re.search(r"… (\d+) earlier lines? about you", block)
        for line in attribute(recent, names, names[seat]):
            if line.concerns:
                assert line.text[:30] in block or dropped, line.text
            else:
                assert re.search(rf"^  ({re.escape(line.by)}|{re.escape(line.text[:20])})",
                                 block, flags=re.M), line.text
    assert len(firsts) >= (5 if name == "black-keep" else 20)  # two thieves are soon caught
    if name == "ankh-morpork":
        assert folded, "four players at 80x24: some screens fold"


# --- 4. menu numbers keep their meaning -----------------------------------------------------------
def entry(kind: str, key: str, *actions: int) -> Entry:
    return Entry(kind, key, actions or (0,))


def test_an_entry_offered_again_keeps_its_number_and_a_kind_its_numbers() -> None:
    """Issue 26, numbers keep their meaning: the same choice keeps its number; a kind keeps its
    numbers ("End movement" stays 5 while the moves before it change); a decision sharing no
    kind with the last is numbered from 1."""
    before = number([entry("move_to", f"m{i}") for i in range(4)] + [entry("end", "end")], None)
    assert [(n, e.key) for n, e in before.numbered()] == [
        (1, "m0"), (2, "m1"), (3, "m2"), (4, "m3"), (5, "end")]
    after = number([entry("move_to", "m9"), entry("move_to", "m2"), entry("end", "end")], before)
    assert {e.key: n for n, e in after.numbered()} == {"m2": 3, "m9": 1, "end": 5}
    fresh = number([entry("buy", "b1"), entry("no_buy", "nb")], None)
    assert [n for n, _ in fresh.numbered()] == [1, 2]


def test_a_number_never_turns_from_opening_a_list_into_an_action() -> None:
    """Issue 26 (Black Keep: `1` played the Move card once, then walked the thief into an Alert
    guard's sight): a number that opened a kind's list, or took an action of another kind, is
    left out of the next such decision rather than given to an action."""
    plan = number([entry("escape", "group:escape", 1, 2), entry("move", "group:move", 3, 4),
                   entry("run", "group:run", 5, 6), entry("hide", "hide"),
                   entry("rest", "rest")], None)
    assert [e.key for _, e in plan.numbered()] == ["group:escape", "group:move", "group:run",
                                                  "hide", "rest"]
    flat = number([entry("move", f"move{i}") for i in range(3)]
                  + [entry("hide", "hide"), entry("rest", "rest"), entry("stay", "stay")], plan)
    numbers = {e.key: n for n, e in flat.numbered()}
    assert numbers["hide"] == 4 and numbers["rest"] == 5
    assert not {1, 2, 3} & {n for n, e in flat.numbered()}, "a list's number takes no action"
    folded = number([entry("move", "group:move", 1, 2), entry("hide", "hide")], plan)
    assert {e.key: n for n, e in folded.numbered()} == {"group:move": 2, "hide": 4}


def test_decisions_that_mix_lists_and_have_more_than_ten_choices_are_shown_by_kind() -> None:
    """Issue 26: a decision that mixes lists (two kinds or more with several choices each) and
    has more than ``FOLD_ABOVE`` choices is a menu of its kinds, whatever the terminal's height
    (so it never folds or unfolds with the screen); a smaller one, or a list and single
    choices ("Place a minion in ..." twelve times and "Skip"), lists its actions."""
    forms = ([{"verb": "move", "to": i} for i in range(FOLD_ABOVE - 1)]
             + [{"verb": "run", "to": 1}, {"verb": "run", "to": 2}, {"verb": "hide"}])
    labels = [f"Move to {i}" for i in range(FOLD_ABOVE - 1)] + ["Run 1", "Run 2", "Hide"]
    shown = entries_of(forms, labels, foldable=True)
    assert [(e.key, len(e.actions)) for e in shown] == [
        ("group:move", FOLD_ABOVE - 1), ("group:run", 2), (shown[2].key, 1)]
    assert len(entries_of(forms[2:], labels[2:], foldable=True)) == FOLD_ABOVE
    one_list = [{"verb": "place", "area": i} for i in range(12)] + [{"verb": "skip"}]
    assert len(entries_of(one_list, [str(f) for f in one_list], foldable=True)) == 13
    assert len(entries_of(forms, labels, foldable=False)) == len(forms)


def numbered_decisions(name: str, seed: int, decisions: int) -> list[tuple[Menu, Menu | None]]:
    """The first seat's menus over a random game of ``name``, each with its reference."""
    game = load(name)
    state = game.new_game(players=max(game.min_players, 2), seed=seed)
    rng = random.Random(seed)
    memory = Memory()
    out: list[tuple[Menu, Menu | None]] = []
    while state.to_move is not None and len(out) < decisions:
        legal = state.legal_actions()
        if state.to_move == 0:
            forms = [a.to_json() for a in legal]
            entries = entries_of(forms, [str(a) for a in legal], foldable=True)
            reference = memory.reference({e.kind for e in entries})
            menu = number(entries, reference)
            assert sorted(i for e in menu.entries.values() for i in e.actions) == \
                list(range(len(legal))), "every legal action once"
            memory.remember(Menu.from_json(json.loads(json.dumps(menu.to_json()))))
            out.append((menu, reference))
        state.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", list(GAMES))
def test_between_decisions_of_the_same_sort_a_number_keeps_its_meaning(name: str) -> None:
    """Issue 26, in every game's real decisions: between a decision and the seat's last one
    sharing a kind of action, every number shown in both is the same kind, shown the same way
    (a list of a kind, or an action), and a choice offered in both has the same number."""
    checked = 0
    for menu, reference in [d for seed in (3, 4, 5) for d in numbered_decisions(name, seed, 60)]:
        if reference is None:
            assert min(menu.entries) == 1
            continue
        for n, now in menu.entries.items():
            then = reference.entries.get(n)
            if then is not None:
                assert (now.kind, now.group) == (then.kind, then.group), (n, now, then)
                checked += 1
        keys = {e.key: n for n, e in reference.entries.items()}
        assert all(keys.get(e.key, n) == n for n, e in menu.entries.items())
    assert checked > 50


def test_black_keeps_move_card_keeps_its_number_in_a_real_terminal(tmp_path: Path) -> None:
    """Issue 26, Black Keep at 80x24: over a solo game's planning decisions, the Move card's
    list keeps its number, and a number that opened a list never takes an action at the next
    planning decision."""
    child = spawn_play(tmp_path, "black-keep", "--seats", "you", "--seed", "5", rows=ROWS,
                       cols=COLS)
    rng = random.Random(5)
    plans: list[dict[int, str]] = []
    for _ in range(80):
        if child.expect_exact([PROMPT, "Game over"]) == 1:
            break
        screen = ANSI.sub("", child.before.split("\x1b[2J")[-1])
        menu = dict((int(n), text.strip()) for n, text in
                    re.findall(r"(?:^|   )(\d+)\. (.+?)(?=   \d+\. |$)", screen, flags=re.M))
        if "plan your thief card:" in screen and "b: back" not in screen:
            plans.append(menu)
        numbers = menu_numbers(screen)
        child.sendline(str(rng.choice(numbers)))
    child.sendline("quit")
    assert len(plans) >= 4
    moves = {n for plan in plans for n, text in plan.items() if text.startswith("Move … (")}
    assert len(moves) == 1, plans
    for before, after in zip(plans, plans[1:], strict=False):
        for n, text in after.items():
            if n in before and before[n].endswith(")") and " … (" in before[n]:
                assert " … (" in text, (before, after)


def test_a_number_not_offered_now_is_refused(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: a number left out (its choice is gone) is not a choice: the screen says which
    numbers are, and nothing is recorded."""
    out = StringIO()
    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,random,random", 4,
                 answering(out, []), out)
    game.memory[0] = Memory([Menu({1: Entry("play", "group:play", ())})])
    read, screens = recording(out, ["1", "quit"])
    counts: list[int] = []
    game.read = lambda prompt: counts.append(len(game.record.actions)) or read(prompt)
    assert game.run() is False
    assert "1. " not in screens[0] and "'1' is not a choice here. Type a number (" in screens[1]
    assert counts[0] == counts[-1] == len(Record.load(game.path).actions)


# --- 5. long input -------------------------------------------------------------------------------
def test_a_long_line_is_refused_and_not_echoed(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: a 5000-character line is refused unread with a clear word, never echoed; a
    word not understood is repeated at most 40 characters long."""
    out = StringIO()
    read, screens = recording(out, ["x" * 5000, "y" * 150, "? " + "z" * 100, "quit"])
    counts: list[int] = []
    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,random,random", 4,
                 lambda prompt: counts.append(len(game.record.actions)) or read(prompt), out)
    assert game.run() is False
    assert f"longer than {app.MAX_INPUT} characters: it was not read" in screens[1]
    assert "x" * 40 not in out.getvalue()
    assert "'" + "y" * 39 + "…' is not a choice here" in screens[2]
    assert "y" * 41 not in out.getvalue() and "z" * 41 not in out.getvalue()
    assert counts[0] == counts[-1] == len(Record.load(game.path).actions), "nothing taken"


# --- 6. a save in use ----------------------------------------------------------------------------
def test_a_save_in_use_is_locked_and_a_stale_lock_is_taken_over(tmp_path: Path) -> None:
    """Issue 26: a lock names the process and host; a second lock of a save in use fails
    (``SaveInUse``); a lock left by a process of this host that no longer runs (or whose number
    another process has since taken) is stale and taken over; one from another host holds;
    unlock removes only one's own."""
    save = tmp_path / "game.json"
    saves.lock(save)
    holder = json.loads(saves.lock_path(save).read_text())
    assert holder["pid"] == os.getpid() and holder["host"] == socket.gethostname()
    with pytest.raises(saves.SaveInUse) as busy:
        saves.lock(save)
    assert f"process {os.getpid()} on {socket.gethostname()}" in str(busy.value)
    saves.unlock(save)
    assert saves.lock_holder(save) is None
    gone = pexpect.spawn("true")
    gone.expect(pexpect.EOF)
    gone.close()
    saves.lock_path(save).write_text(json.dumps({"pid": gone.pid, "host": socket.gethostname()}))
    saves.lock(save)  # stale: taken over
    assert json.loads(saves.lock_path(save).read_text())["pid"] == os.getpid()
    saves.unlock(save)
    saves.lock_path(save).write_text(json.dumps({"pid": 1, "host": "elsewhere.example"}))
    with pytest.raises(saves.SaveInUse):
        saves.lock(save)
    saves.unlock(save)
    assert saves.lock_path(save).exists(), "another's lock is left alone"
    alive = pexpect.spawn("sleep", ["60"])
    try:
        here = socket.gethostname()
        since = saves._started(alive.pid)
        saves.lock_path(save).write_text(json.dumps({"pid": alive.pid, "host": here,
                                                     "since": since}))
        with pytest.raises(saves.SaveInUse):
            saves.lock(save)  # a live terminal's lock holds
        if since is not None:  # the system tells when a process started: a reused number
            saves.lock_path(save).write_text(json.dumps({"pid": alive.pid, "host": here,
                                                         "since": "1"}))
            saves.lock(save)
            assert json.loads(saves.lock_path(save).read_text())["pid"] == os.getpid()
    finally:
        alive.terminate(force=True)


def test_resume_marks_a_save_in_use_and_refuses_to_open_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: while a game is open (its run holds the lock), the saves list marks it "IN
    USE" and choosing it gives a clear error, exit 1, the save untouched; once it stops the
    lock is gone and it resumes."""
    out = StringIO()
    listed = StringIO()
    results: list[int] = []

    untouched: list[bool] = []

    def read(prompt: str) -> str:
        if not results:
            before = game.path.read_bytes()
            results.append(app.resume(answering(listed, ["quit"]), console(listed),
                                      choice="1"))
            untouched.append(game.path.read_bytes() == before)
        return "quit"

    game = start(tmp_path, monkeypatch, "guardians-of-the-city", "you,random", 2, read, out)
    assert game.run() is False
    assert results == [1] and untouched == [True]
    text = listed.getvalue()
    assert re.search(r"1\. guardians-of-the-city, 2 players .* · IN USE \(process \d+ on ",
                     " ".join(text.split()))
    assert "That game is open in another terminal" in text and "Traceback" not in text
    assert "you are" not in text
    assert not saves.lock_path(game.path).exists()
    again = StringIO()
    assert app.resume(answering(again, ["quit"]), console(again), choice="1") == 0
    assert "IN USE" not in again.getvalue() and "you are Player 1" in again.getvalue()


def test_a_second_terminal_cannot_open_a_game_in_use(tmp_path: Path) -> None:
    """Issue 26, two real terminals: the second's --resume marks the game in use and refuses
    it with a clear error (no traceback); after the first quits, it resumes."""
    first = spawn_play(tmp_path, "ankh-morpork", "--seats", "you,random", "--seed", "2",
                       rows=ROWS, cols=COLS)
    first.expect_exact(PROMPT)
    second = spawn_play(tmp_path, "--resume", rows=ROWS, cols=COLS)
    second.expect_exact("Which game?")
    assert "IN USE (process" in ANSI.sub("", second.before)
    second.sendline("1")
    second.expect_exact("That game is open in another terminal")
    second.expect(pexpect.EOF)
    second.close()
    assert second.exitstatus == 1 and "Traceback" not in ANSI.sub("", second.before or "")
    first.sendline("quit")
    first.expect_exact(SAVED)
    first.expect(pexpect.EOF)
    third = spawn_play(tmp_path, "--resume", rows=ROWS, cols=COLS)
    third.expect_exact("Which game?")
    assert "IN USE" not in ANSI.sub("", third.before)
    third.sendline("1")
    third.expect_exact(PROMPT)
    third.sendline("quit")
    third.expect(pexpect.EOF)


# --- 7. quit at the hand-over ---------------------------------------------------------------------
def test_quit_at_the_hot_seat_hand_over_saves_and_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: 'quit' typed at the hand-over saves and stops with the usual line; the next
    person's screen is never drawn."""
    out = StringIO()
    game = start(tmp_path, monkeypatch, "ankh-morpork", "you,you", 6,
                 answering(out, ["quit"]), out)
    assert game.run() is False
    text = out.getvalue()
    assert "Pass the keyboard to" in text and "('quit' saves the game and stops)" in text
    assert "you are " not in text and text.rstrip().endswith(SAVED)


# --- 8. every listing fits 80 columns -------------------------------------------------------------
@pytest.mark.parametrize("args", [["games"], ["deck", "list"], ["scenario", "list"]])
def test_every_listing_fits_80_columns(args: list[str], capsys: pytest.CaptureFixture[str],
                                       toy_registered: Any) -> None:
    """Issue 26: ``citywatch games`` (21 lines over 80 before), ``deck list`` and ``scenario
    list`` (130 to 170 columns) fit 80 columns; nothing is lost (each item whole once the
    wrapped lines are joined)."""
    from citywatch.cli import main

    assert main(args) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=len)
    joined = " ".join(out.split())
    if args == ["games"]:
        for name in ("ankh-morpork", "black-keep", "toy"):
            game = load(name)
            assert f"{name}: {game.display_name()}, {game.min_players}-{game.max_players} " \
                   "players" in out
            for option in game.options:
                assert f"--option {option.name}=" in joined and " ".join(
                    option.help.split()) in joined
    else:
        kind = args[0]
        for name in ("guardians-of-the-city", "black-keep"):
            choice = next((c for c in load(name).type.setup if c.name == kind), None)
            for doc in choice.shipped() if choice else ():
                assert f"  {doc['id']:<16}{doc['name']}" in out
                assert " ".join(choice.summary(doc).split()) in joined


def test_replay_summary_says_the_result_in_sentences(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: ``replay --summary`` reads as sentences ("Yellow wins (personality)."; the
    points by seat name), not Python lists, within 80 columns."""
    from citywatch.cli import main

    for name, players in (("ankh-morpork", 3), ("black-keep", 1)):
        records = tmp_path / name
        assert main(["simulate", name, "--players", str(players), "--games", "1", "--seed", "2",
                     "--records", str(records), "--json"]) == 0
        capsys.readouterr()
        [record] = records.glob("*.json")
        assert main(["replay", str(record), "--summary"]) == 0
        out = capsys.readouterr().out
        outcome = replay(Record.load(record)).outcome()
        assert outcome is not None
        assert "[" not in out and "winners:" not in out and "points: " not in out
        assert re.search(r"^(\w[\w ]* wins|.* win together|Nobody wins) \(.+\)\.$", out,
                         flags=re.M), out
        assert re.search(r"^\w[\w ]*: (\w[\w ]* -?\d+, )*\w[\w ]* -?\d+\.$", out, flags=re.M), out
        assert all(len(line) <= 80 for line in out.splitlines() if str(record) not in line)


def test_first_choice_reads_the_numbers_shown() -> None:
    """The tests' helper: the first number of the newest menu, with a number left out."""
    screen = "Red, choose:\n2. Play X\n3. Play Y\n" + HINT + ", quit\n"
    assert first_choice(screen) == "2" and menu_numbers(screen) == [2, 3]
