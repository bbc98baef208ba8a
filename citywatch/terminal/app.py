"""The terminal game loop: people at one keyboard and bots, saved after every decision.

The loop talks only to the core API: ``to_move``, ``legal_actions``, ``apply``,
``view(seat)`` and ``log(seat)``. A person's screen is drawn from their own view.
"""

from __future__ import annotations

import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citywatch import saves
from citywatch.bots import Observation, make_bot
from citywatch.coach.hints import allowed_by_default
from citywatch.core.api import Game, Plan, State, following
from citywatch.core.presentation import View, summary_least_of, summary_of
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.terminal import coaching
from citywatch.terminal.compact import (
    MenuLayout,
    Option,
    Steps,
    cut,
    hand_lines,
    key_of,
    non_blank,
    one_line,
    to_lines,
)
from citywatch.terminal.numbering import Entry, Memory, Menu, entries_of, number
from citywatch.terminal.recent import TAKEN, recent_lines
from citywatch.terminal.scores import end_scores
from citywatch.terminal.screens import indented, screens_for, seat_name, table_of

YOU = "you"
PROMPT = "choice> "
COMMANDS = ("Type the number of your choice, or press Enter for the usual choice when the "
            "screen offers one ('Enter: ...'), or type a name a choice gives (a place on the "
            "map, say) to take the one choice naming it; a choice that stands for several steps "
            "(walking to a place) takes them one by one. A number keeps its meaning from one "
            "decision to the next: a number not offered now is left out rather than given to "
            "another kind of choice. Other commands: '? NAME' help on anything in the game's "
            "rules reference (a card, a place, ...); 'board' (or 'b') the whole board and "
            "players; 'hand' your whole hand; 'log' the whole history; 'hint' the coach's "
            "estimate of your chance of winning after each of your choices, with their numbers "
            "('hint quick' or 'hint deep': faster or deeper; when the game allows hints: on "
            "against bots, off with two or more people, 'citywatch play --hints on|off' sets "
            "it; every seat is told of a hint used); after one of these, "
            "Enter comes back to your choices (or type your choice at once); 'b' back a step of "
            "a big choice; 'n'/'p' the next or previous page of a long menu; 'auto on' or 'auto "
            "off' to let the usual choice be taken for you when it can never hurt; 'screen "
            "full' to see the whole board before every decision, 'screen compact' for one "
            "screen that fits the terminal; 'quit' (or Ctrl-C) to save and stop.")
SCREEN_SETTINGS = ("compact", "full")
"""The screen settings: one compact screen per decision, or the full board above it too."""
QUIT_WORDS = ("q", "quit", "exit")
Reader = Callable[[str], str]
STEP_ABOVE = 10
"""A decision of one kind with more choices than this is chosen in steps, one field at a
time, when a field groups them (whatever the terminal's height, so its menu never folds or
unfolds with the screen; one that mixes kinds is shown by kind: ``numbering.FOLD_ABOVE``)."""
MENU_LEAST = 5
"""The fewest lines the menu keeps on the compact screen when what happened is long (it pages
beyond)."""
HEADING_WIDTH = 1000
"""Wide enough to read the first line of a hand screen whole (its heading)."""
SUMMARY_LEAST = 2
SUMMARY_MOST = 12
"""The fewest and most lines of board summary on the compact screen (fewer if it has fewer;
more kept when the game's ``summary_least`` asks it, up to the most)."""
MAX_INPUT = 200
"""The longest line read as a choice or command; a longer one is refused unread."""
ECHO = 40
"""The most characters of a line not understood that its notice repeats."""


def parse_seats(text: str | None, players: int | None, bot: str, game: str) -> list[str]:
    """Seats from ``you,bot,bot``: 'you' is a person here; 'bot' or a bot's name (one of
    ``game``'s) is a bot."""
    if text is None:
        count = 4 if players is None else players
        return [YOU] + [bot] * (count - 1)
    seats = []
    for word in (w.strip().lower() for w in text.split(",")):
        if word == YOU:
            seats.append(YOU)
        elif word == "bot":
            seats.append(bot)
        else:
            try:
                make_bot(word, game)
            except ValueError as exc:
                raise ValueError(f"unknown seat {word!r}: use 'you', 'bot' or a bot ({exc})"
                                 ) from None
            seats.append(word)
    if players is not None and players != len(seats):
        raise ValueError(f"--seats names {len(seats)} seats but --players is {players}")
    return seats


def shortened(text: str, most: int = ECHO) -> str:
    """``text`` as a notice repeats it: at most ``most`` characters, '…' where cut."""
    return text if len(text) <= most else text[:most - 1] + "…"


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C ignored for the duration (a save being written is finished), where signals can
    be set (the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@dataclass
class Decision:
    """One decision of a person at this keyboard, while they choose."""

    labels: list[str]
    """The legal actions' menu texts."""
    usual: int | None
    """The usual choice (``Game.usual_choice``), taken by Enter."""
    steps: Steps
    recent: list[str] = field(default_factory=list)
    """What happened since the seat's last decision."""
    notice: str | None = None
    """A word for the next screen (a choice not understood)."""
    stepped: bool | None = None
    """Chosen in steps from the start, one field at a time (a big decision of one kind whose
    first field groups its choices; None: not yet known)."""
    menu: Menu = field(default_factory=Menu)
    """The numbered menu of the decision (its entries: actions and groups of a kind)."""
    picking: str = ""
    """The field the step on the screen picks."""
    pages: list[list[int]] = field(default_factory=lambda: [[]])
    page: int = 0

    def in_steps(self) -> bool:
        """Whether the screen shows a step (a field's values), not the numbered menu."""
        return bool(self.stepped or self.steps.picks)

    def usual_left(self) -> bool:
        """Whether the usual choice is still one of the choices (Enter takes it)."""
        return self.usual is not None and (not self.in_steps() or
                                           self.usual in self.steps.remaining())


def naming(forms: list[Any], text: str) -> list[int] | None:
    """The choices (by their JSON ``forms``) with a field other than the verb whose value is
    ``text``, ignoring case (a place's name typed as on the map, issue 27); None if none."""
    wanted = text.strip().casefold()
    if not wanted:
        return None
    found = [i for i, form in enumerate(forms) if isinstance(form, dict) and any(
        key != "verb" and isinstance(value, str) and value.casefold() == wanted
        for key, value in form.items())]
    return found or None


def seat_label(seats: list[str], seat: int) -> str:
    """'you' or 'bot (random)'."""
    return YOU if seats[seat] == YOU else f"bot ({seats[seat]})"


class TerminalGame:
    """One game at this keyboard."""

    def __init__(self, console: Console, state: State, record: Record, path: Path,
                 read: Reader) -> None:
        self.console = console
        self.state = state
        self.game: Game = state.game
        self.record = record
        self.path = path
        self.read = read
        self.seats: list[str] = list(record.meta["seats"])
        self.humans = [i for i, s in enumerate(self.seats) if s == YOU]
        self.bots = {i: make_bot(s, state.game.name) for i, s in enumerate(self.seats)
                     if s != YOU}
        self.reference = self.game.reference()
        self.screens = screens_for(self.game)
        self.names = [seat_name(self.game, state.view(p), p) for p in range(state.players)]
        """Each seat's name as the views give it (``GameType.seat_name``)."""
        self.seen_log = {seat: 0 for seat in range(state.players)}
        self.last_human: int | None = None
        self.thinking: int | None = None
        """The bot whose "... is thinking" line is the newest on the screen."""
        menus = record.meta.get("menus")
        self.memory: dict[int, Memory] = {
            int(seat): Memory.from_json(data) for seat, data in
            (menus.items() if isinstance(menus, dict) else ()) if str(seat).isdigit()}
        """Per seat, its last menus, so that numbers keep their meaning (``numbering``); the
        save keeps them, so a resumed game numbers as before."""
        self.locked = False
        self.finished = False
        self.auto: set[int] = {int(seat) for seat in record.meta.get("auto", [])}
        """The seats whose usual choice is taken unasked when it never hurts."""
        self.taken: dict[int, list[str]] = {}
        """Per seat, the "Taken for you" lines not yet on its screen."""
        self.walking: dict[int, list[Any]] = {}
        """Per seat, the steps left of the plan it chose (``Game.plans``, issue 27), taken
        one at a time at its next decisions while each is legal (``core.api.following``)."""
        self.notices: dict[int, str] = {}
        """Per seat, a word for its next screen (the auto-take or screen setting)."""
        screen = record.meta.get("screen", "compact")
        self.screen = screen if screen in SCREEN_SETTINGS else "compact"
        """'compact': each decision's screen fits the terminal, the full screens on demand;
        'full': the whole board, players and hand above it too (issue 16)."""
        changed = self.game.shown_options(record.options, state.players)
        self.options_shown = "".join(f" · {name} {value}" for name, value in changed.items())
        """The options not at their default and the seats' decks, for the screen's title."""
        self.hints_allowed = coaching.hints_allowed(record.meta, len(self.humans))
        """Whether 'hint' asks the coach (issue 30: the save's setting, else on for one person
        against bots and off for two or more people)."""
        self.hints_seen = {seat: 0 for seat in range(state.players)}
        """Per seat, how many of the hints used (``meta["hints"]``) its screens have told."""

    def name(self, seat: int) -> str:
        """A seat's name (``GameType.seat_name``), else its number."""
        return seat_name(self.game, self.state.view(seat), seat)

    # --- the loop -------------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the end (True) or until the person quits or presses Ctrl-C (False: the
        game is saved and the way to continue it said). The save is marked in use meanwhile
        (``saves.lock``; ``SaveInUse`` if another terminal has it open)."""
        if not self.locked:
            saves.lock(self.path)
            self.locked = True
        try:
            try:
                while (seat := self.state.to_move) is not None:
                    if seat in self.bots:
                        self.bot_moves(seat)
                    elif not self.person_moves(seat):
                        self.stop()
                        return False
            except KeyboardInterrupt:
                self.stop(interrupted=True)
                return False
            self.finished = True
            self.save()
            try:
                self.show_end()
            except KeyboardInterrupt:
                self.console.print()
            return True
        finally:
            saves.unlock(self.path)
            self.locked = False

    def stop(self, interrupted: bool = False) -> None:
        """Save and say how to continue (after 'quit', or Ctrl-C anywhere in the game)."""
        with interrupts_held():
            self.save()
            if interrupted:
                self.console.print()
            self.console.print(f"Game saved in {self.path}.\n"
                               "Continue it with: citywatch play --resume", soft_wrap=True)

    def save(self) -> None:
        """Write the record; it is the save."""
        saves.write(self.path, self.record, finished=self.finished)

    def apply(self, action: Any) -> None:
        """Apply an action, record it and save at once."""
        self.state.apply(action)
        self.record.actions.append(action.to_json())
        if self.state.to_move is None:
            self.finished = True
        self.save()

    def bot_moves(self, seat: int) -> None:
        """A bot decides from its own observation; its own generator, fixed per decision. The
        screen says who is thinking, once per run of that bot's decisions."""
        if self.thinking != seat:
            self.console.print(Text.assemble(self.screens.colour(self.names[seat]),
                                              " is thinking...", style="dim"))
            self.thinking = seat
        seed = (int(self.record.meta.get("bot_seed", 0)) + 1_000_003 * len(self.record.actions))
        rng = Rng(seed)
        legal = self.state.legal_actions()
        action = self.bots[seat].choose(Observation(self.state, seat), legal, rng)
        self.apply(action)

    # --- a person -------------------------------------------------------------------------
    def auto_takes(self, seat: int) -> bool:
        """With auto-take on for ``seat``, take its usual choice unasked when it never hurts
        (still a recorded decision) and say so; True if it was taken."""
        if seat not in self.auto:
            return False
        legal = self.state.legal_actions()
        usual = self.game.usual_choice(self.state, legal)
        if usual is None or not self.game.never_hurts(self.state, legal[usual]):
            return False
        taken = f"{TAKEN}{self.screens.label(str(legal[usual]))}"
        self.taken.setdefault(seat, []).append(taken)
        self.console.print(Text(taken, style="dim"))
        self.apply(legal[usual])
        return True

    def take(self, seat: int, index: int, legal: list[Any], plans: list[Plan]) -> None:
        """Take choice ``index``: a legal action, or (past them) a plan, whose first step is
        taken now and the rest at the seat's next decisions (``follows_plan``)."""
        if index < len(legal):
            self.walking.pop(seat, None)
            self.apply(legal[index])
            return
        steps = list(plans[index - len(legal)].actions)
        self.walking[seat] = steps[1:]
        self.apply(steps[0])

    def follows_plan(self, seat: int) -> bool:
        """Take the next step of ``seat``'s plan if it is legal now (True); else the plan
        ends."""
        steps = self.walking.get(seat)
        action = following(self.state, seat, steps) if steps else None
        if action is None:
            self.walking.pop(seat, None)
            return False
        assert steps is not None
        steps.pop(0)
        self.console.print(Text(f"→ {self.screens.label(str(action))}", style="dim"))
        self.apply(action)
        return True

    def ask(self, prompt: str) -> str | None:
        """A line from the reader, stripped; None for a line longer than ``MAX_INPUT``."""
        text = self.read(prompt)
        return None if len(text) > MAX_INPUT else text.strip()

    def person_moves(self, seat: int) -> bool:
        """Show the seat's compact screen and read a decision, in steps if it is big; False
        if they quit."""
        self.thinking = None
        if self.follows_plan(seat) or self.auto_takes(seat):
            return True
        if len(self.humans) > 1 and seat != self.last_human:
            if not self.hand_over(seat):
                return False
        self.last_human = seat
        legal = self.state.legal_actions()
        plans = self.game.plans(self.state)
        labels = ([self.screens.label(str(a)) for a in legal]
                  + [self.screens.label(plan.text) for plan in plans])
        forms = [a.to_json() for a in legal] + [dict(plan.json) for plan in plans]
        decision = Decision(labels, self.game.usual_choice(self.state, legal),
                            Steps(forms, labels))
        memory = self.memory.setdefault(seat, Memory())
        entries = entries_of(forms, labels, decision.steps.stepwise())
        decision.menu = number(entries, memory.reference({e.kind for e in entries}))
        memory.remember(decision.menu)
        self.record.meta["menus"] = {str(s): m.to_json() for s, m in sorted(self.memory.items())}
        lines = self.state.log(seat)
        decision.recent = lines[self.seen_log[seat]:]
        decision.recent[:0] = self.taken.pop(seat, []) + self.hint_notices(seat)
        self.seen_log[seat] = len(lines)
        self.show(seat, decision)
        browsing = False
        while True:
            try:
                text = self.ask(PROMPT)
            except EOFError:
                return False
            shown = self.options(decision)
            numbers = dict(shown)
            if text is None:
                decision.notice = (f"That line is longer than {MAX_INPUT} characters: it was "
                                   f"not read. {self.what_to_type(shown)}")
                self.show(seat, decision)
                browsing = False
                continue
            word = text.lower()
            if word.isdigit() and int(word) in numbers:
                chosen = numbers[int(word)]
                if len(chosen.actions) == 1:
                    self.take(seat, chosen.actions[0], legal, plans)
                    return True
                decision.steps.pick(decision.picking, chosen)
                decision.page = 0
                self.show(seat, decision)
            elif word == "" and not browsing and decision.usual_left():
                assert decision.usual is not None
                self.take(seat, decision.usual, legal, plans)
                return True
            elif word in QUIT_WORDS:
                return False
            elif word == "hint" or word.startswith("hint "):
                if self.ask_coach(seat, decision, legal, word.removeprefix("hint")):
                    self.console.print(Text("(Enter: back to your choices, or type your "
                                            f"choice: {self.number_range(shown)})",
                                            style="dim"))
                    browsing = True
                    continue
                self.show(seat, decision)
            elif (named := naming(forms, text)) is not None and len(named) == 1:
                self.take(seat, named[0], legal, plans)
                return True
            elif named is not None:
                decision.notice = (f"'{shortened(text)}' names {len(named)} choices here: "
                                   "choose one of them by its number.")
                self.show(seat, decision)
            elif word in ("", "menu", "m"):
                self.show(seat, decision)
            elif word in ("b", "back") and decision.steps.back():
                decision.page = 0
                self.show(seat, decision)
            elif word in ("n", "p") and len(decision.pages) > 1:
                step = 1 if word == "n" else -1
                decision.page = (decision.page + step) % len(decision.pages)
                self.show(seat, decision)
            elif word == "auto" or word.startswith("auto "):
                if self.set_auto(seat, word.removeprefix("auto").strip()):
                    return True
                self.show(seat, decision)
            elif word == "screen" or word.startswith("screen "):
                self.set_screen(seat, word.removeprefix("screen").strip())
                self.show(seat, decision)
            elif word in ("log", "board", "b", "hand", "h", "help") or word.startswith("?") \
                    or word.startswith("help "):
                self.console.clear()
                self.other_screen(seat, text)
                self.console.print(Text("(Enter: back to your choices, or type your choice: "
                                        f"{self.number_range(shown)})", style="dim"))
                browsing = True
                continue
            else:
                decision.notice = (f"'{shortened(text)}' is not a choice here. "
                                   f"{self.what_to_type(shown)}")
                self.show(seat, decision)
            browsing = False

    @staticmethod
    def number_range(shown: list[tuple[int, Option]]) -> str:
        """The numbers on the screen: '1 to 5', or listed when some are left out."""
        numbers = [n for n, _ in shown]
        if not numbers:
            return "no number"
        if numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"{numbers[0]} to {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
        return ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}"

    def what_to_type(self, shown: list[tuple[int, Option]]) -> str:
        """What may be typed here, for a notice."""
        return (f"Type a number ({self.number_range(shown)}), '?' for help, 'log', 'board' "
                "or 'quit'.")

    def other_screen(self, seat: int, text: str) -> None:
        """A screen on demand: 'log', 'board', 'hand', 'help' or '? NAME'."""
        word = text.lower()
        view = self.state.view(seat)
        if word == "log":
            self.show_log(seat)
        elif word in ("board", "b"):  # the board last: nearest the prompt, still in sight
            self.console.print(self.screens.players(view))
            self.console.print(self.screens.board(view))
        elif word in ("hand", "h"):
            self.console.print(self.screens.hand(view))
        elif word == "help":
            self.console.print(COMMANDS)
        else:
            self.help(text.lstrip("?").removeprefix("help ").strip())

    def set_auto(self, seat: int, setting: str) -> bool:
        """``auto on|off``: let the terminal take ``seat``'s usual choice unasked when it never
        hurts; True if that takes the decision now."""
        if setting in ("on", "off"):
            self.auto.discard(seat)
            if setting == "on":
                self.auto.add(seat)
            self.record.meta["auto"] = sorted(self.auto)
            self.save()
        state = "on" if seat in self.auto else "off"
        self.notices[seat] = (f"Auto-take is {state}: the usual choice is taken for you when it "
                              "can never hurt ('auto on' or 'auto off').")
        return seat in self.auto and self.auto_takes(seat)

    # --- the coach (issue 30) ---------------------------------------------------------------
    def hints_used(self) -> list[dict[str, Any]]:
        """The hints used so far, as the record keeps them: ``{"step", "seat"}`` each."""
        used = self.record.meta.get("hints")
        if not isinstance(used, list):
            used = self.record.meta["hints"] = []
        return used

    def hint_notices(self, seat: int) -> list[str]:
        """"Red asked the coach for a hint." for each hint used that ``seat``'s screens have
        not told yet (every seat is told; a resumed game tells them again, as its log)."""
        used = self.hints_used()
        lines = [f"{self.names[h['seat']]} asked the coach for a hint."
                 for h in used[self.hints_seen[seat]:]
                 if isinstance(h, dict) and h.get("seat") in range(len(self.names))]
        self.hints_seen[seat] = len(used)
        return lines

    def ask_coach(self, seat: int, decision: Decision, legal: list[Any], words: str) -> bool:
        """'hint [quick|deep]': if the game allows hints, the coach's estimate for each of the
        seat's choices (those left in the step on the screen), under the numbers the screen
        gives them, recorded (``meta["hints"]``) and told to every seat; True when that screen
        is printed, else the decision's notice says why not (nothing else changes)."""
        level = coaching.parse_level(words)
        if not self.hints_allowed:
            decision.notice = ("Hints are off in this game, as they are by default with two or "
                               "more people at one keyboard; to allow them, quit and continue "
                               "with 'citywatch play --resume --hints on'.")
            return False
        if level is None:
            decision.notice = (f"'hint {shortened(words.strip())}': type 'hint', or "
                               "'hint quick', 'hint normal' or 'hint deep'.")
            return False
        from citywatch.coach import hint, hint_rng

        shown = self.options(decision)
        remaining = decision.steps.remaining() if decision.in_steps() else range(len(legal))
        judged_actions = [legal[i] for i in remaining if i < len(legal)]
        step = len(self.record.actions)
        self.console.clear()
        self.console.print(Text.assemble("The coach is thinking for ",
                                         self.screens.colour(self.names[seat]), "…",
                                         style="dim"))
        judged = hint(self.state, seat, hint_rng(self.record.seed, step), level,
                      actions=judged_actions)
        self.hints_used().append({"step": step, "seat": seat})
        self.save()
        index = {action: i for i, action in enumerate(legal)}
        indices = [index[option.action] for option in judged.options]
        paths = coaching.number_paths(shown, decision.steps, decision.picking, set(indices))
        width, height = self.console.width, self.console.size.height
        self.console.clear()
        for line in coaching.hint_lines(judged, indices, decision.labels, paths,
                                        self.names[seat], width, height - 7):
            self.console.print(line, no_wrap=True, overflow="ellipsis", crop=True)
        return True

    def set_screen(self, seat: int, setting: str) -> None:
        """``screen full|compact``: the whole board before every decision, or only the
        compact screen (the save keeps it)."""
        if setting in SCREEN_SETTINGS:
            self.screen = setting
            self.record.meta["screen"] = setting
            self.save()
        self.notices[seat] = (f"The screen is {self.screen} ('screen full': the whole board "
                              "before every decision; 'screen compact': one screen that fits).")

    def options(self, decision: Decision) -> list[tuple[int, Option]]:
        """The numbered choices on the screen now: a step's values (1, 2, ...), or the
        decision's menu (``numbering``: numbers that keep their meaning)."""
        if decision.in_steps():
            step = decision.steps.step()
            if step is not None:
                decision.picking = step[0]
                return list(enumerate(step[1], 1))
        decision.picking = "verb"
        return [(n, self.option(decision, entry)) for n, entry in decision.menu.numbered()]

    @staticmethod
    def option(decision: Decision, entry: Entry) -> Option:
        """A menu entry as a choice: an action's own text, or a kind's group, named by its verb
        as the steps' crumbs name it ("Move … (8)"), picked as the verb's value."""
        if not entry.group:
            return Option(entry.key, list(entry.actions), decision.labels[entry.actions[0]])
        shown = entry.kind.replace("_", " ").capitalize()
        return Option(key_of(entry.kind), list(entry.actions),
                      f"{shown} … ({len(entry.actions)})")

    def hand_over(self, seat: int) -> bool:
        """Hot-seat: clear the screen and its scrollback, then wait for the right person
        ('quit' there saves and stops)."""
        self.wipe()
        name = self.name(seat)
        current = self.state.view(seat).get("current")
        out_of_turn = isinstance(current, str) and current != name
        why = "a decision out of turn" if out_of_turn else "your turn"
        self.console.print(Panel(Text.assemble(
            "Pass the keyboard to ", self.screens.colour(name), f": {why}.\n",
            f"{name}, press Enter when nobody else is looking.\n",
            ("('quit' saves the game and stops)", "dim")),
            title="Hot seat"))
        try:
            text = self.ask("")
        except EOFError:
            return False
        return text is None or text.lower() not in QUIT_WORDS

    def wipe(self) -> None:
        """Clear the screen and, on a terminal, the scrollback above it."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def title(self, seat: int, view: View) -> str:
        """The screen's title: game, options, turn, whose turn, who one is."""
        current = view.get("current")
        whose = f" · {current}'s turn" if isinstance(current, str) else ""
        title = (f"{self.game.name}{self.options_shown} · turn {self.state.turn_count()}{whose}"
                 f" · you are {self.name(seat)}")
        if len(title) > self.console.width - 4:  # the options give way to who one is
            title = title.replace(self.options_shown, "", 1)
        return title

    def show(self, seat: int, decision: Decision) -> None:
        """The seat's screen (issue 16): the compact screen that fits the terminal (title,
        players, board summary, hand, what happened, the menu); with the screen setting
        'full', the whole board, players and hand above it (left in the scrollback)."""
        view = self.state.view(seat)
        self.console.clear()
        if self.screen == "full":
            self.console.print(self.screens.board(view))
            self.console.print(self.screens.players(view))
            self.console.print(self.screens.hand(view))
        if seat in self.notices:
            decision.notice = self.notices.pop(seat)
        for line in self.compact(seat, view, decision):
            self.console.print(line, no_wrap=True, overflow="ellipsis", crop=True)
        decision.notice = None

    def compact(self, seat: int, view: View, decision: Decision) -> list[Text]:
        """The compact screen's lines, at most the terminal's height less the prompt's line
        when the terminal has room for its least: the title, one line per player, the hand,
        the task, the commands and the menu's least always; then "since your last decision"
        whole if it fits, else folded per player (folded, or the lines about the seat cut to a
        count, to leave the lines the game's summary asks for: ``summary_least``); then the
        menu (in pages when it is long); the board summary in what is left, drawn to fit."""
        con = self.console
        width, height = con.width, con.size.height
        title = to_lines(con, Rule(self.title(seat, view)), width)[:1]
        table = [one_line(line, width) for line in non_blank(to_lines(
            con, table_of(self.screens, view, self.names, self.names[seat]), HEADING_WIDTH))]
        heading = non_blank(to_lines(con, self.screens.hand(view), HEADING_WIDTH))[:1]
        if heading and ":" in heading[0].plain:
            heading[0] = heading[0][:heading[0].plain.index(":") + 1]
        hand = hand_lines(con, heading[0] if heading else None, self.game.type.hand(view),
                          width)
        drawn = summary_of(self.screens, view)
        summary = non_blank(to_lines(con, drawn, width))
        least = min(SUMMARY_MOST, max(SUMMARY_LEAST, summary_least_of(self.screens, view)))
        task = self.task_lines(seat, view, decision, width)
        tail = self.tail_lines(decision, width)
        fixed = len(title) + len(table) + len(hand) + len(task) + len(tail) + 1
        spare = height - fixed - min(len(summary), SUMMARY_LEAST)
        claimed = min(len(summary), least) - min(len(summary), SUMMARY_LEAST)
        if decision.stepped is None:
            first = decision.steps.step() if decision.steps.stepwise() else None
            decision.stepped = (len(decision.labels) > STEP_ABOVE
                                and len(decision.menu.kinds()) == 1
                                and first is not None and len(first[1]) < len(decision.labels))
        layout = self.layout(decision, width)
        need = layout.best_columns(range(len(layout.items)))[1]
        recent = self.recent(seat, decision, width, spare - claimed, need)
        room = max(1, spare - len(recent))  # the menu may take back the summary's claim
        decision.pages = layout.pages(room)
        if len(decision.pages) > 1:  # the page count may take a line more under the menu
            paged = self.tail_lines(decision, width, paged=True)
            decision.pages = layout.pages(max(1, room - len(paged) + len(tail)))
        decision.page = min(decision.page, len(decision.pages) - 1)
        menu = layout.lines(decision.pages[decision.page])
        task = self.task_lines(seat, view, decision, width)
        tail = self.tail_lines(decision, width)
        left = height - 1 - len(title) - len(table) - len(hand) - len(recent) - len(task) \
            - len(menu) - len(tail)
        most = max(0, min(SUMMARY_MOST, left))
        if len(summary) > most:  # drawn again in the lines it has, to fit itself if it can
            summary = non_blank(to_lines(con, drawn, width, most))
        summary = cut(summary, most, "… ('board' shows it all)")
        return [*title, *table, *summary, *hand, *recent, *task, *menu, *tail]

    def recent(self, seat: int, decision: Decision, width: int, spare: int, need: int
               ) -> list[Text]:
        """"Since your last decision" in the ``spare`` lines left for it and a menu that needs
        ``need``: every line if all fit beside the whole menu, else folded per player, the
        menu keeping at least ``MENU_LEAST`` lines (``recent.recent_lines``)."""
        return recent_lines(self.console, decision.recent, self.names, self.names[seat], width,
                            whole=spare - need, folded=spare - min(need, MENU_LEAST))

    def layout(self, decision: Decision, width: int) -> MenuLayout:
        """The numbered choices on the screen now, to lay out."""
        items = [Text(f"{n}. {o.text}") for n, o in self.options(decision)]
        return MenuLayout(items, width, self.console)

    def task_lines(self, seat: int, view: View, decision: Decision, width: int) -> list[Text]:
        """"Red, decide ...:" and, in steps, the values picked so far (two lines at most)."""
        asked = view.get("decision")
        task_text = asked.get("task", "decide") if isinstance(asked, dict) else "decide"
        task = Text.assemble(self.screens.colour(self.name(seat)), f", {task_text}:")
        if decision.steps.picks:
            task.append(f" {decision.steps.crumbs()} ›", style="bold")
        return cut(to_lines(self.console, task, width), 2, "…")

    def tail_lines(self, decision: Decision, width: int, paged: bool = False) -> list[Text]:
        """Under the menu: the commands, a notice, and what Enter takes (``paged``: as long
        as it would be with a page count)."""
        hint = ("Number, '?' help, hint, board, hand, log, auto, screen, quit"
                if self.hints_allowed else "Number, '?' help, board, hand, log, auto, screen, quit")
        if decision.steps.picks:
            hint += " · b: back"
        if paged or len(decision.pages) > 1:
            hint += f" · n/p: page {decision.page + 1} of {max(len(decision.pages), 2)}"
        lines = to_lines(self.console, Text(hint, style="dim"), width)
        if decision.notice:
            lines += to_lines(self.console, Text(decision.notice, style="yellow"), width)
        if decision.usual_left():
            assert decision.usual is not None
            lines.append(one_line(Text.assemble(("Enter: ", "bold"),
                                                decision.labels[decision.usual]), width))
        return lines

    def show_log(self, seat: int) -> None:
        """Everything this seat may read of the log."""
        for line in self.state.log(seat):
            self.console.print(indented(line, 2))

    def help(self, query: str) -> None:
        """'? NAME': an entry of the game's reference."""
        from citywatch.reference import lookup

        if not query:
            self.console.print(COMMANDS)
            return
        matches = lookup(self.reference, None, query)
        if not matches:
            self.console.print(Text(f"Nothing called '{shortened(query)}' in the rules "
                                    "reference. Try a name, or part of one.", style="yellow"))
            return
        for entry in matches[:6]:
            self.console.print(self.screens.describe(entry))
        if len(matches) > 6:
            self.console.print(f"... and {len(matches) - 6} more; be more exact.")

    def show_end(self) -> None:
        """The final board and result, every seat's role revealed."""
        seat = self.humans[0] if self.humans else 0
        view = self.state.view(seat)
        if len(self.humans) > 1:
            self.wipe()
        self.console.print(Rule("Game over"))
        self.console.print(self.screens.board(view))
        lines = self.state.log(seat)
        for line in lines[self.seen_log[seat]:][-12:]:
            self.console.print(indented(line, 2))
        self.console.print(self.screens.outcome(view))
        names = [seat_name(self.game, self.state.view(p), p) for p in range(self.state.players)]
        self.console.print(end_scores(self.state, names, self.screens.colour))  # issue 26
        self.console.print(f"Saved in {self.path}; watch it again with: "
                           f"citywatch replay {self.path}", soft_wrap=True)


def console() -> Console:
    """The console for play: colour when the terminal has it."""
    return Console(highlight=False)


def new_game(game_name: str, seats: list[str], seed: int | None, read: Reader,
             out: Console | None = None, options: Mapping[str, Any] | None = None,
             auto: bool = False, screen: str = "compact", hints: bool | None = None
             ) -> TerminalGame:
    """Set up a new game with the game's ``options``, saved at once (the save keeps the
    options); ``run()`` plays it. ``auto``: every person's usual choice is taken unasked
    when it can never hurt (the save keeps it; ``auto off`` in the game undoes it).
    ``screen``: 'compact' or 'full' (the save keeps it; ``screen ...`` in the game changes
    it). ``hints``: whether 'hint' asks the coach (None: on for one person against bots, off
    for two or more people; the save keeps it).

    Raise ``ValueError`` for a wrong number of seats or a bad option.
    """
    game = load(game_name)
    if not game.min_players <= len(seats) <= game.max_players:
        raise ValueError(f"{game_name} is for {game.min_players} to {game.max_players} players, "
                         f"not {len(seats)}")
    if seed is None:
        seed = secrets.randbits(32)
    chosen = dict(options or {})
    state = game.new_game(players=len(seats), seed=seed, **chosen)
    record = Record(game_name, len(seats), seed, chosen, [],
                    meta={"seats": seats, "bot_seed": seed ^ 0x5EED, "started": saves.now()})
    if auto:
        record.meta["auto"] = [i for i, seat in enumerate(seats) if seat == YOU]
    if screen not in SCREEN_SETTINGS:
        raise ValueError(f"unknown screen {screen!r}: use {' or '.join(SCREEN_SETTINGS)}")
    record.meta["screen"] = screen
    record.meta["hints_allowed"] = (allowed_by_default(seats.count(YOU))
                                    if hints is None else hints)
    path = saves.new_save_path(game_name)
    play = TerminalGame(out or console(), state, record, path, read)
    play.save()
    return play


def resume(read: Reader, out: Console | None = None, choice: str | None = None,
           auto: bool = False, screen: str | None = None, hints: bool | None = None) -> int:
    """List unfinished games (one open in another terminal marked "in use"), continue the
    chosen one (``auto``: with auto-take on for every person; ``screen``: with this screen
    setting, else the save's; ``hints``: allowed or not, else the save's); exit status: 0, or
    1 when nothing was resumed (none to resume, the choice is in use, or the person
    stopped)."""
    con = out or console()
    found, broken = saves.list_saves()
    for path, why in broken:
        con.print(Text(f"(skipping unreadable save {path}: {why})", style="dim"))
    open_games = [s for s in found if not s.finished]
    if not open_games:
        con.print("There is no unfinished game to resume. Start one with: citywatch play")
        return 1
    con.print("Unfinished games:")
    listing = Table.grid(padding=(0, 1))
    listing.add_column(justify="right", min_width=4)
    listing.add_column()
    for i, s in enumerate(open_games, 1):
        holder = saves.lock_holder(s.path)
        line = Text(s.describe())
        if holder is not None:
            line.append(f" · IN USE ({saves.describe_holder(holder)})", style="bold yellow")
        listing.add_row(f"{i}.", line)
    con.print(listing)
    while True:
        try:
            text = choice if choice is not None else read("Which game? [1] ")
        except (EOFError, KeyboardInterrupt):
            con.print()
            return 1
        choice = None
        text = "" if len(text) > MAX_INPUT else text.strip()
        if text == "":
            text = "1"
        if text.isdigit() and 1 <= int(text) <= len(open_games):
            break
        if text.lower() in QUIT_WORDS:
            return 1
        con.print(Text(f"Type a number from 1 to {len(open_games)}, or 'quit'.",
                       style="yellow"))
    save = open_games[int(text) - 1]
    try:
        saves.lock(save.path)
    except saves.SaveInUse as exc:
        who = saves.describe_holder(exc.holder)
        con.print(Text(f"That game is open in another terminal ({who}): finish or quit it "
                       "there first. A lock left by a terminal of this computer that stopped "
                       "is cleared by itself; the lock file:", style="yellow"))
        con.print(f"  {saves.lock_path(save.path)}", soft_wrap=True)
        return 1
    try:
        state = replay(save.record)
        if auto:
            save.record.meta["auto"] = [i for i, seat in enumerate(save.record.meta.get(
                "seats", [])) if seat == YOU]
        if screen in SCREEN_SETTINGS:
            save.record.meta["screen"] = screen
        if hints is not None:
            save.record.meta["hints_allowed"] = hints
        play = TerminalGame(con, state, save.record, save.path, read)
        play.locked = True
        if auto or screen in SCREEN_SETTINGS or hints is not None:
            play.save()  # the save keeps the settings given now
    except BaseException:
        saves.unlock(save.path)
        raise
    play.run()
    return 0


def default_reader(con: Console) -> Reader:
    """Read a line from the keyboard with a prompt."""
    def read(prompt: str) -> str:
        return con.input(prompt)

    return read


def env_width() -> int | None:
    """COLUMNS from the environment, if set (tests fix the width)."""
    value = os.environ.get("COLUMNS")
    return int(value) if value and value.isdigit() else None
