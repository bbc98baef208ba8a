"""Building test situations from positions, and acting by readable action text."""

from __future__ import annotations

import copy
import io
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
from rich.console import Console

import citywatch
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import AREAS, CARDS, COLOURS, EVENTS, PERSONALITIES
from citywatch.games.ankh_morpork.state import AnkhMorporkState

GAME = citywatch.load("ankh-morpork")
ALL_CARDS = [c.name for c in CARDS]


def blank(players: int = 4, current: str = "Red", money: int = 10) -> dict[str, Any]:
    """A position with an empty board, empty hands, every card in the draw pile
    (in data order, top first), events in data order (first is next), and personalities
    Commander Vimes for Red, then Lord Vetinari, Dragon King of Arms, Lord Rust."""
    people = ["Commander Vimes", "Lord Vetinari", "Dragon King of Arms", "Lord Rust"][:players]
    available = [p.name for p in PERSONALITIES if players > 2 or p.name != "Chrysoprase"]
    return {
        "players": players,
        "areas": {a.name: {"minions": {}, "trolls": 0, "demons": 0, "trouble": False,
                           "building": None, "card": "display"} for a in AREAS},
        "seats": [{"colour": COLOURS[p], "money": money, "personality": people[p],
                   "hand": [], "in_front": []} for p in range(players)],
        "draw_pile": list(ALL_CARDS),
        "discard_pile": [],
        "in_play": [],
        "out_of_game": [],
        "unused_personalities": [p for p in available if p not in people],
        "events": [e.name for e in EVENTS],
        "events_done": [],
        "current": current,
        "turn": 0,
        "stack": [],
        "rng": 12345,
    }


def seat_of(colour: str) -> int:
    return COLOURS.index(colour)


def _take_card(pos: dict[str, Any], name: str) -> None:
    for zone in ("draw_pile", "discard_pile", "in_play", "out_of_game"):
        if name in pos[zone]:
            pos[zone].remove(name)
            return
    for seat in pos["seats"]:
        for zone in ("hand", "in_front"):
            if name in seat[zone]:
                seat[zone].remove(name)
                return
    raise AssertionError(f"card {name} not found")


def give(pos: dict[str, Any], colour: str, *cards: str, zone: str = "hand") -> dict[str, Any]:
    """Move the named cards into a seat's hand (or ``in_front``)."""
    for name in cards:
        _take_card(pos, name)
        pos["seats"][seat_of(colour)][zone].append(name)
    return pos


def to_pile(pos: dict[str, Any], pile: str, *cards: str) -> dict[str, Any]:
    """Move the named cards to the top of ``draw_pile`` / ``discard_pile`` (first is top)."""
    for name in reversed(cards):
        _take_card(pos, name)
        pos[pile].insert(0, name)
    return pos


def minions(pos: dict[str, Any], area: str, **counts: int) -> dict[str, Any]:
    """Set minion counts in an area: ``minions(pos, "Dimwell", Red=2, Blue=1)``."""
    pos["areas"][area]["minions"].update(counts)
    return pos


def area(pos: dict[str, Any], name: str, **fields: Any) -> dict[str, Any]:
    """Set fields of an area (trouble, trolls, demons, building, card)."""
    pos["areas"][name].update(fields)
    if "building" in fields and "card" not in fields:
        pos["areas"][name]["card"] = fields["building"] or "display"
    return pos


def next_events(pos: dict[str, Any], *names: str) -> dict[str, Any]:
    """Make these random events come next, in this order."""
    rest = [e for e in pos["events"] if e not in names]
    pos["events"] = list(names) + rest
    return pos


def start(pos: dict[str, Any]) -> AnkhMorporkState:
    """Read the position; with an empty stack, the current seat's turn begins."""
    state = GAME.from_position(copy.deepcopy(pos))
    assert isinstance(state, AnkhMorporkState)
    return state


def actions(state: AnkhMorporkState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in state.legal_actions()]


def do(state: AnkhMorporkState, text: str) -> Action:
    """Apply the legal action whose text is ``text`` (exactly, or else uniquely containing it)."""
    legal = state.legal_actions()
    exact = [a for a in legal if str(a) == text]
    found = exact or [a for a in legal if text in str(a)]
    shown = [str(a) for a in legal]
    assert len(found) == 1, f"{text!r} matches {[str(a) for a in found]} among {shown}"
    state.apply(found[0])
    return found[0]


def play(state: AnkhMorporkState, card: str) -> None:
    """Play a card from the hand of the seat to move."""
    do(state, f"Play {card}")


def money(state: AnkhMorporkState, colour: str) -> int:
    return state.money[seat_of(colour)]


def count(state: AnkhMorporkState, colour: str, area_name: str) -> int:
    from citywatch.games.ankh_morpork.data import AREA_BY_NAME

    return state.minions[seat_of(colour)][AREA_BY_NAME[area_name].index]


def hand(state: AnkhMorporkState, colour: str) -> list[str]:
    return sorted(CARDS[c].name for c in state.hands[seat_of(colour)])


def idx(area_name: str) -> int:
    from citywatch.games.ankh_morpork.data import AREA_BY_NAME

    return AREA_BY_NAME[area_name].index


def rng_giving(*rolls: int | None) -> int:
    """The first "rng" value from which successive twelve-sided die rolls give ``rolls``
    (``None`` matches any roll). Tests still check the rolls in the log."""
    from citywatch.core.rng import Rng

    seed = 0
    while True:
        r = Rng(seed)
        for want in rolls:
            value = r.roll(12)
            if want is not None and value != want:
                break
        else:
            return seed
        seed += 1


def set_personalities(pos: dict[str, Any], **by_colour: str) -> dict[str, Any]:
    """Give seats these personalities; a seat not named whose personality is now taken gets a
    free one, and the unused list is rebuilt to match."""
    available = [p.name for p in PERSONALITIES if pos["players"] > 2 or p.name != "Chrysoprase"]
    for colour, name in by_colour.items():
        pos["seats"][seat_of(colour)]["personality"] = name
    taken = set(by_colour.values())
    for seat in pos["seats"]:
        if seat["colour"] not in by_colour and seat["personality"] in taken:
            seat["personality"] = next(
                p for p in available if p not in taken
                and p not in {s["personality"] for s in pos["seats"]})
        taken.add(seat["personality"])
    used = {seat["personality"] for seat in pos["seats"]}
    pos["unused_personalities"] = [p for p in available if p not in used]
    return pos


def short_pile(pos: dict[str, Any], keep: int) -> dict[str, Any]:
    """Leave only the top ``keep`` cards in the draw pile; the rest go under the discard pile."""
    rest = pos["draw_pile"][keep:]
    pos["draw_pile"] = pos["draw_pile"][:keep]
    pos["discard_pile"] = pos["discard_pile"] + rest
    return pos


def state_after(players: int, seed: int, steps: int) -> AnkhMorporkState:
    state = GAME.new_game(players=players, seed=seed)
    rng = Rng(seed + 17)
    for _ in range(steps):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert isinstance(state, AnkhMorporkState)
    return state


def hidden_twin(state: AnkhMorporkState, seat: int) -> AnkhMorporkState:
    """The same state with other hands, other personalities, the deck, the events and the
    dice changed: nothing ``seat`` can see is different ."""
    twin = state.copy()
    for p in range(twin.n):
        if p != seat:
            size = len(twin.hands[p])
            pool = twin.hands[p] + twin.draw_pile
            twin.hands[p], twin.draw_pile = (pool[-size:], pool[:-size]) if size else ([], pool)
    twin.draw_pile.reverse()
    twin.events.reverse()
    others = [p for p in range(twin.n) if p != seat]
    people = [twin.personality[p] for p in others] + twin.unused_personalities
    people = people[1:] + people[:1]
    for p in others:
        twin.personality[p] = people.pop(0)
    twin.unused_personalities = people
    twin.rng = Rng(twin.rng.state ^ 0x1234567)
    twin._legal = None
    return twin


def play_randomly(state: Any, steps: int, seed: int) -> Any:
    """``state`` after ``steps`` random legal actions (``random.Random(seed)``; fewer if the
    game ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.to_move is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def menu_lines(state: Any, seed: int, label: Any) -> Iterator[tuple[Any, str]]:
    """Every legal action of every decision of a random game from ``state`` to its end
    (``random.Random(seed)``), with its menu line ``label(str(action))``."""
    rng = random.Random(seed)
    while state.to_move is not None:
        actions = state.legal_actions()
        for a in actions:
            yield a, label(str(a))
        state.apply(rng.choice(actions))


# --- the terminal: screens drawn to text, and the real terminal program ----------------------
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
"""The terminal's escape sequences (and carriage returns), to strip from what it printed."""
PROMPT = "choice> "
HINT = "Number, '?' help"
"""The line under a menu."""


def render(thing: Any, width: int = 100, height: int | None = None) -> str:
    """What ``rich`` prints of ``thing`` in a terminal ``width`` columns wide, as plain text."""
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    console.print(thing)
    return console.export_text()


def menu_numbers(screen: str) -> list[int]:
    """The numbers of the menu just above the hint, in order (issue 26: a number not offered
    now may be left out, so they need not run 1, 2, 3, ...)."""
    lines = screen[:screen.rindex(HINT)].rstrip("\n").splitlines()
    numbers = []
    for line in reversed(lines):
        if line.rstrip().endswith((":", "›")):
            break  # the task, above the menu
        if re.match(r"\d+\. ", line):
            numbers += [int(n) for n in re.findall(r"(?:^|   )(\d+)\. ", line)]
    assert numbers, screen
    return sorted(numbers)


def menu_size(screen: str) -> int:
    """The highest number the menu just above the hint offers."""
    return max(menu_numbers(screen))


def first_choice(screen: str) -> str:
    """The first number of the menu just above the hint, to type."""
    return str(menu_numbers(screen)[0])


FIRST = "<the first choice>"
"""An answer for ``answering``: the first number of the newest menu."""


def answering(out: io.StringIO, answers: list[str], then: int = 40) -> Any:
    """A terminal reader (``citywatch.terminal.app.Reader``) that gives ``answers``, then
    ``then`` times ``FIRST``; ``FIRST`` is the first number of the newest menu printed to
    ``out`` (Enter before any menu: a hot-seat hand-over)."""
    given = iter([*answers, *[FIRST] * then])

    def read(_prompt: str) -> str:
        answer = next(given)
        if answer != FIRST:
            return answer
        text = ANSI.sub("", out.getvalue())
        return first_choice(text) if HINT in text else ""

    return read


def recording(out: io.StringIO, answers: list[str], then: int = 40) -> tuple[Any, list[str]]:
    """A terminal reader answering ``answers`` then ``then`` times the first choice
    (``answering``), and the list it fills with what was printed before each read (one screen
    each)."""
    answer = answering(out, answers, then)
    screens: list[str] = []
    seen = [0]

    def read(prompt: str) -> str:
        screens.append(out.getvalue()[seen[0]:])
        seen[0] = len(out.getvalue())
        return str(answer(prompt))

    return read, screens


def spawn_play(tmp_path: Path, game: str, *args: str, rows: int = 50,
               cols: int = 100) -> pexpect.spawn:
    """``citywatch play game *args`` in a real terminal of ``rows`` by ``cols`` (saves in
    tmp_path)."""
    env = dict(os.environ, CITYWATCH_DATA_DIR=str(tmp_path), TERM="xterm-256color")
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return pexpect.spawn(sys.executable, ["-m", "citywatch.cli", "play", game, *args],
                         env=env, dimensions=(rows, cols), encoding="utf-8", timeout=60)


def play_by_menus(child: pexpect.spawn, seed: int, board: str, hand: str) -> list[str]:
    """Pick a random choice (seeded) at every prompt until the game is over; at the first, the
    ``board`` and ``hand`` commands must show the texts ``board`` and ``hand``. Every screen
    with a menu, in order."""
    rng = random.Random(seed)
    screens = []
    while child.expect_exact([PROMPT, "Game over"]) == 0:
        screen = ANSI.sub("", child.before)
        screens.append(screen)
        if len(screens) == 1:
            for command, shown in (("board", board), ("hand", hand)):
                child.sendline(command)
                child.expect_exact(PROMPT)
                assert shown in ANSI.sub("", child.before)
        child.sendline(str(rng.choice(menu_numbers(screen))))
    return screens


def finish(child: pexpect.spawn) -> str:
    """The program's last words, once it has ended without a traceback and said "The end"."""
    child.expect(pexpect.EOF)
    end = ANSI.sub("", child.before)
    assert "Traceback" not in end and "The end" in end
    return end
