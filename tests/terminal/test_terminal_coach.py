"""Issue 30, "Terminal": the ``hint`` command. For the seat deciding, the coach's chance after
each choice, best first, under the menu's own numbers, the hard level's pick marked; allowed by
default for one person against bots and off with two or more (``--hints`` overrides); every
hint used recorded in ``meta["hints"]`` and told to every seat."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from helpers import ANSI, FIRST, HINT, recording
from rich.console import Console

from citywatch import saves
from citywatch.bots.decide import bot_rng
from citywatch.coach import Hint, HintOption, hint_rng
from citywatch.core.record import Record
from citywatch.terminal import app
from citywatch.terminal.coaching import HARD_MARK, hint_lines, number_paths
from citywatch.terminal.compact import Option, Steps, key_of

GAME = "guardians-of-the-city"
"""The quickest game to coach (a hint at quick strength: well under 0.1 s)."""
HINT_LINE = re.compile(r"^\s*(\d+)\.\s+(<1%|>99%|\d+%) ±\d+\s+(.*?)\s*$")
ASKED = "Player 1 asked the coach for a hint."


def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seats: str, read: app.Reader,
          out: StringIO, hints: bool | None = None, height: int = 24) -> app.TerminalGame:
    """A new game of ``GAME`` on an 80-column console, saved in ``tmp_path``."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    return app.new_game(GAME, app.parse_seats(seats, None, "random", GAME), 5,
                        read, Console(file=out, width=80, height=height),
                        hints=hints)


def menu_of(screen: str) -> dict[int, str]:
    """The menu just above the commands line: number -> text."""
    lines = screen[:screen.rindex(HINT)].splitlines()
    menu = {}
    for line in reversed(lines):
        m = re.match(r"^(\d+)\. (.*)$", line)
        if not m:
            break
        menu[int(m.group(1))] = m.group(2).strip()
    return menu


def hint_screen(screen: str) -> list[tuple[int, str, str]]:
    """The hint's options as printed: (number, chance, text with its mark)."""
    part = screen[screen.index("The coach, for"):]
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in map(HINT_LINE.match,
                                                                   part.splitlines()) if m]


def test_a_hint_lists_every_choice_under_its_menu_number_best_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, terminal hint: one person against a bot may ask; every choice of the menu is
    listed once under the number the menu gives it, with the menu's text, best first, the hard
    level's pick marked once; the whole screen fits 80x24; the hint is recorded in the save as
    {"step", "seat"} and nothing is decided by it."""
    out = StringIO()
    read, screens = recording(out, ["hint quick", "quit"], then=0)
    game = start(tmp_path, monkeypatch, "you,random", read, out)
    assert game.run() is False
    plain = [ANSI.sub("", s) for s in screens]
    menu = menu_of(plain[0])
    assert len(menu) >= 2 and "hint" in plain[0].splitlines()[-1]
    shown = plain[1]
    assert "The coach is thinking for Player 1" in shown
    listed = hint_screen(shown)
    assert sorted(n for n, _, _ in listed) == sorted(menu)
    for number, _chance, text in listed:
        assert text.removesuffix(HARD_MARK.strip()).strip() == menu[number]
    assert sum(text.endswith(HARD_MARK.strip()) for _, _, text in listed) == 1
    chances = [int(c.strip("%<>")) for _, c, _ in listed]
    assert chances == sorted(chances, reverse=True)
    last = shown[shown.index("The coach, for Player 1"):]
    assert len(last.rstrip("\n").splitlines()) <= 23, "fits 24 rows with the prompt"
    assert all(len(line) <= 80 for line in shown.splitlines())
    saved = Record.load(game.path)
    assert saved.meta["hints"] == [{"step": 0, "seat": 0}]
    assert saved.actions == [], "a hint decides nothing"


def test_hints_are_off_by_default_with_two_people_and_say_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, terminal hint: with two people at one keyboard hints are off by default; 'hint'
    says so and changes nothing (no estimate, nothing recorded, the same decision asked); the
    commands line does not offer it. --hints off does the same for one person."""
    for seats, hints, answers in (("you,you", None, ["", "hint", "quit"]),
                                  ("you,random", False, ["hint", "quit"])):
        out = StringIO()
        read, screens = recording(out, answers, then=0)
        game = start(tmp_path, monkeypatch, seats, read, out, hints=hints)
        assert game.run() is False
        text = ANSI.sub("", out.getvalue())
        assert "Hints are off in this game" in text and "The coach, for" not in text
        before, after = (ANSI.sub("", s) for s in screens[-2:])
        assert "Hints are off in this game" in after and menu_of(after) == menu_of(before)
        assert "hint," not in after
        saved = Record.load(game.path)
        assert saved.meta["hints_allowed"] is False and not saved.meta.get("hints")
        assert saved.actions == []
        game.path.unlink()


def test_every_hint_is_told_to_every_seat_and_kept_when_resumed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, terminal hint: with --hints on at a hot seat, Player 1's hint is told to Player
    2 at their next screen ("Player 1 asked the coach for a hint."); the save keeps the setting
    and the hints, so a resumed game allows hints and appends to the same list."""
    out = StringIO()
    read, screens = recording(out, [FIRST, "hint quick", FIRST, FIRST, "quit"], then=0)
    game = start(tmp_path, monkeypatch, "you,you", read, out, hints=True, height=60)
    assert game.run() is False
    player_2 = [ANSI.sub("", s) for s in screens if "you are Player 2" in ANSI.sub("", s)]
    assert player_2 and ASKED in player_2[0]
    saved = Record.load(game.path)
    assert saved.meta["hints_allowed"] is True
    assert saved.meta["hints"] == [{"step": 0, "seat": 0}]
    again = StringIO()
    resumed_read, _ = recording(again, [FIRST, "hint quick", "quit"], then=0)
    assert app.resume(resumed_read, Console(file=again, width=80, height=60), choice="1") == 0
    assert "The coach, for" in ANSI.sub("", again.getvalue())
    resumed = Record.load(game.path)
    step = len(saved.actions)
    assert resumed.meta["hints"] == [{"step": 0, "seat": 0},
                                     {"step": step, "seat": replay_mover(resumed, step)}]
    assert saves.lock_holder(game.path) is None


def replay_mover(record: Record, step: int) -> int:
    """The seat to decide after ``step`` of ``record``'s actions."""
    from citywatch.core.record import start as first_state

    state = first_state(record)
    for raw in record.actions[:step]:
        state.apply(state.game.action_from_json(raw))
    assert state.to_move is not None
    return state.to_move


def test_a_choice_inside_a_group_is_numbered_as_its_steps_go() -> None:
    """Issue 30, terminal hint: a choice inside a group ("Move … (2)") reads '1 › 2' (type 1,
    then 2 in the list the group opens, as ``Steps`` numbers it); a choice of its own keeps its
    one number."""
    forms = [{"verb": "move", "to": "Dimwell"}, {"verb": "move", "to": "The Shades"},
             {"verb": "play", "card": "Hex"}]
    labels = ["Move to Dimwell", "Move to The Shades", "Play Hex"]
    steps = Steps(forms, labels)
    shown = [(4, Option(key_of("move"), [0, 1], "Move … (2)")),
             (7, Option(key_of(forms[2]), [2], "Play Hex"))]
    paths = number_paths(shown, steps, "verb", {0, 1, 2})
    assert paths == {0: "4 › 1", 1: "4 › 2", 2: "7"}
    inner = Steps(forms, labels, [("verb", key_of("move"))]).step()
    assert inner is not None and [o.actions for o in inner[1]] == [[0], [1]]


def test_a_hints_generator_is_not_the_bots() -> None:
    """Issue 30, hint generator: derived from the game's seed and step, the same each time,
    and not the bots' generator for that step (``bot_rng``)."""
    for seed in (7, "blake2b:" + "ab" * 32):
        assert hint_rng(seed, 3).next64() == hint_rng(seed, 3).next64()
        assert hint_rng(seed, 3).next64() != bot_rng(seed, 3).next64()
        assert hint_rng(seed, 3).next64() != hint_rng(seed, 4).next64()


def test_a_long_hint_fits_the_screen() -> None:
    """Issue 30, terminal hint in 80x24: with 40 choices the hint keeps the best ones and says
    how many more, in at most the rows the screen leaves it (two: the Enter line and the
    prompt), every line at most 80 columns, the hard level's pick marked even when cut."""
    options = tuple(HintOption(f"a{i}", f"Choice {i} " + "with a long text " * 6,
                               i / 40, 0.01) for i in range(40))
    judged = Hint(0, options, 3, 16, "normal", False, 0.4)
    labels = [o.text for o in options]
    paths = {i: f"{i + 1} › {i % 3 + 1}" for i in range(40)}
    lines = hint_lines(judged, list(range(40)), labels, paths, "Red", 80, 24 - 7)
    assert len(lines) <= 24 - 2
    assert all(len(line.plain) <= 80 for line in lines)
    plain = [line.plain for line in lines]
    assert plain[2].startswith("40 › 1.") and "… and 24 more, below these" in plain
    judged = Hint(0, options, 39, 16, "normal", False, 0.4)
    lines = hint_lines(judged, list(range(40)), labels, paths, "Red", 80, 24 - 7)
    assert lines[2].plain.endswith(HARD_MARK), "the best choice is the hard pick, marked"
