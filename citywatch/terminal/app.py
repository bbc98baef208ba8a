"""The terminal game loop: people at one keyboard and bots, saved after every decision.

The loop talks only to the core API: ``to_move``, ``legal_actions``, ``apply``,
``view(seat)`` and ``log(seat)``. A person's screen is drawn from their own view.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from citywatch import saves
from citywatch.bots import Observation, make_bot
from citywatch.core.api import Game, State
from citywatch.core.presentation import View, summary_of
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.terminal.compact import (
    MenuLayout,
    Option,
    Steps,
    cut,
    hand_lines,
    non_blank,
    one_line,
    to_lines,
)
from citywatch.terminal.scores import end_scores
from citywatch.terminal.screens import indented, screens_for, seat_name

YOU = "you"
PROMPT = "choice> "
COMMANDS = ("Type the number of your choice, or press Enter for the usual choice when the "
            "screen offers one ('Enter: ...'). Other commands: '? NAME' help on anything in the "
            "game's rules reference (a card, a place, ...); 'board' (or 'b') the whole board and "
            "players; 'hand' your whole hand; 'log' the whole history; after one of these, Enter "
            "comes back to your choices (or type your choice at once); 'b' back a step of a big "
            "choice; 'n'/'p' the next or previous page of a long menu; 'auto on' or 'auto off' "
            "to let the usual choice be taken for you when it can never hurt; 'screen full' to "
            "see the whole board before every decision, 'screen compact' for one screen that "
            "fits the terminal; 'quit' to save and stop.")
SCREEN_SETTINGS = ("compact", "full")
"""The screen settings: one compact screen per decision, or the full board above it too."""
Reader = Callable[[str], str]
STEP_ABOVE = 10
"""A decision with more choices than this is chosen in steps when its menu does not fit."""
LOG_LINES = 4
"""The most log lines the compact screen shows."""
HEADING_WIDTH = 1000
"""Wide enough to read the first line of a hand screen whole (its heading)."""
SUMMARY_LEAST = 3
SUMMARY_MOST = 12
"""The fewest and most lines of board summary on the compact screen (fewer if it has fewer)."""


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
    """Chosen in steps (None: not yet known)."""
    picking: str = ""
    """The field the step on the screen picks."""
    pages: list[list[int]] = field(default_factory=lambda: [[]])
    page: int = 0

    def usual_left(self) -> bool:
        """Whether the usual choice is still one of the choices (Enter takes it)."""
        return self.usual is not None and (not self.stepped or
                                           self.usual in self.steps.remaining())


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
        self.seen_log = {seat: 0 for seat in range(state.players)}
        self.last_human: int | None = None
        self.auto: set[int] = {int(seat) for seat in record.meta.get("auto", [])}
        """The seats whose usual choice is taken unasked when it never hurts."""
        self.taken: dict[int, list[str]] = {}
        """Per seat, the "Taken for you" lines not yet on its screen."""
        self.notices: dict[int, str] = {}
        """Per seat, a word for its next screen (the auto-take or screen setting)."""
        screen = record.meta.get("screen", "compact")
        self.screen = screen if screen in SCREEN_SETTINGS else "compact"
        """'compact': each decision's screen fits the terminal, the full screens on demand;
        'full': the whole board, players and hand above it too (issue 16)."""
        changed = self.game.shown_options(record.options, state.players)
        self.options_shown = "".join(f" · {name} {value}" for name, value in changed.items())
        """The options not at their default and the seats' decks, for the screen's title."""

    def name(self, seat: int) -> str:
        """A seat's name (``GameType.seat_name``), else its number."""
        return seat_name(self.game, self.state.view(seat), seat)

    # --- the loop -------------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the end (True) or until the person quits (False)."""
        while (seat := self.state.to_move) is not None:
            if seat in self.bots:
                self.bot_moves(seat)
            elif not self.person_moves(seat):
                self.console.print(f"Game saved in {self.path}.\n"
                                   "Continue it with: citywatch play --resume")
                return False
        self.save()
        self.show_end()
        return True

    def save(self) -> None:
        """Write the record; it is the save."""
        saves.write(self.path, self.record, finished=self.state.to_move is None)

    def apply(self, action: Any) -> None:
        """Apply an action, record it and save at once."""
        self.state.apply(action)
        self.record.actions.append(action.to_json())
        self.save()

    def bot_moves(self, seat: int) -> None:
        """A bot decides from its own observation; its own generator, fixed per decision."""
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
        taken = f"Taken for you: {self.screens.label(str(legal[usual]))}"
        self.taken.setdefault(seat, []).append(taken)
        self.console.print(Text(taken, style="dim"))
        self.apply(legal[usual])
        return True

    def person_moves(self, seat: int) -> bool:
        """Show the seat's compact screen and read a decision, in steps if it is big; False
        if they quit."""
        if self.auto_takes(seat):
            return True
        if len(self.humans) > 1 and seat != self.last_human:
            if not self.hand_over(seat):
                return False
        self.last_human = seat
        legal = self.state.legal_actions()
        labels = [self.screens.label(str(a)) for a in legal]
        decision = Decision(labels, self.game.usual_choice(self.state, legal),
                            Steps([a.to_json() for a in legal], labels))
        lines = self.state.log(seat)
        decision.recent = lines[self.seen_log[seat]:]
        decision.recent[:0] = self.taken.pop(seat, [])
        self.seen_log[seat] = len(lines)
        self.show(seat, decision)
        browsing = False
        while True:
            try:
                text = self.read(PROMPT).strip()
            except (EOFError, KeyboardInterrupt):
                return False
            word = text.lower()
            shown = self.options(decision)
            if word.isdigit() and 1 <= int(word) <= len(shown):
                chosen = shown[int(word) - 1]
                if len(chosen.actions) == 1:
                    self.apply(legal[chosen.actions[0]])
                    return True
                decision.steps.pick(decision.picking, chosen)
                decision.page = 0
                self.show(seat, decision)
            elif word == "" and not browsing and decision.usual_left():
                assert decision.usual is not None
                self.apply(legal[decision.usual])
                return True
            elif word in ("q", "quit", "exit"):
                return False
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
                                        f"1 to {len(shown)})", style="dim"))
                browsing = True
                continue
            else:
                decision.notice = (f"'{text}' is not a choice here. Type a number from 1 to "
                                   f"{len(shown)}, '?' for help, 'log', 'board' or 'quit'.")
                self.show(seat, decision)
            browsing = False

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

    def set_screen(self, seat: int, setting: str) -> None:
        """``screen full|compact``: the whole board before every decision, or only the
        compact screen (the save keeps it)."""
        if setting in SCREEN_SETTINGS:
            self.screen = setting
            self.record.meta["screen"] = setting
            self.save()
        self.notices[seat] = (f"The screen is {self.screen} ('screen full': the whole board "
                              "before every decision; 'screen compact': one screen that fits).")

    def options(self, decision: Decision) -> list[Option]:
        """The choices on the screen now: a step's values, or every legal action."""
        if decision.stepped:
            step = decision.steps.step()
            if step is not None:
                decision.picking = step[0]
                return step[1]
        return [Option(str(i), [i], label) for i, label in enumerate(decision.labels)]

    def hand_over(self, seat: int) -> bool:
        """Hot-seat: clear the screen and its scrollback, then wait for the right person."""
        self.wipe()
        name = self.name(seat)
        current = self.state.view(seat).get("current")
        out_of_turn = isinstance(current, str) and current != name
        why = "a decision out of turn" if out_of_turn else "your turn"
        self.console.print(Panel(Text.assemble(
            "Pass the keyboard to ", self.screens.colour(name), f": {why}.\n",
            f"{name}, press Enter when nobody else is looking."), title="Hot seat"))
        try:
            self.read("")
        except (EOFError, KeyboardInterrupt):
            return False
        return True

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
        board summary, hand, the newest log lines, the menu); with the screen setting 'full',
        the whole board, players and hand above it (left in the scrollback)."""
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
        """The compact screen's lines: at most the terminal's height less the prompt's line
        when the terminal has room for its least."""
        con = self.console
        width, height = con.width, con.size.height
        title = to_lines(con, Rule(self.title(seat, view)), width)[:1]
        heading = non_blank(to_lines(con, self.screens.hand(view), HEADING_WIDTH))[:1]
        if heading and ":" in heading[0].plain:
            heading[0] = heading[0][:heading[0].plain.index(":") + 1]
        hand = hand_lines(con, heading[0] if heading else None, self.game.type.hand(view),
                          width)
        recent = self.recent_lines(decision.recent, width)
        summary = non_blank(to_lines(con, summary_of(self.screens, view), width))
        if decision.stepped is None:
            decision.stepped = False
            flat = self.layout(decision, width)
            room = height - self.fixed_lines(title, hand, recent, decision, width, summary)
            decision.stepped = (len(decision.labels) > STEP_ABOVE and decision.steps.stepwise()
                                and len(flat.pages(room)) > 1)
        layout = self.layout(decision, width)
        room = height - self.fixed_lines(title, hand, recent, decision, width, summary)
        decision.pages = layout.pages(max(3, room))
        decision.page = min(decision.page, len(decision.pages) - 1)
        menu = layout.lines(decision.pages[decision.page])
        task = self.task_lines(seat, view, decision, width)
        tail = self.tail_lines(decision, width)
        spare = height - 1 - len(title) - len(hand) - len(recent) - len(task) - len(menu) \
            - len(tail)
        summary = cut(summary, max(0, min(SUMMARY_MOST, spare)), "… ('board' shows it all)")
        return [*title, *summary, *hand, *recent, *task, *menu, *tail]

    def layout(self, decision: Decision, width: int) -> MenuLayout:
        """The numbered choices on the screen now, to lay out."""
        items = [Text(f"{i}. {o.text}") for i, o in enumerate(self.options(decision), 1)]
        return MenuLayout(items, width, self.console)

    def fixed_lines(self, title: list[Text], hand: list[Text], recent: list[Text],
                    decision: Decision, width: int, summary: list[Text]) -> int:
        """The lines of the compact screen other than the menu: the least summary, the task
        (two lines at most), the tail (with a page line) and the prompt."""
        paged = Decision(decision.labels, decision.usual, decision.steps, notice=decision.notice,
                         stepped=decision.stepped, pages=[[], []])
        return (len(title) + min(len(summary), SUMMARY_LEAST) + len(hand) + len(recent) + 2
                + len(self.tail_lines(paged, width)) + 1)

    def task_lines(self, seat: int, view: View, decision: Decision, width: int) -> list[Text]:
        """"Red, decide ...:" and, in steps, the values picked so far (two lines at most)."""
        asked = view.get("decision")
        task_text = asked.get("task", "decide") if isinstance(asked, dict) else "decide"
        task = Text.assemble(self.screens.colour(self.name(seat)), f", {task_text}:")
        if decision.stepped and decision.steps.picks:
            task.append(f" {decision.steps.crumbs()} ›", style="bold")
        return cut(to_lines(self.console, task, width), 2, "…")

    def recent_lines(self, recent: list[str], width: int) -> list[Text]:
        """The newest log lines since one's last decision, at most ``LOG_LINES`` lines."""
        if not recent:
            return []
        kept: list[Text] = []
        left = len(recent)
        for entry in reversed(recent):
            lines = to_lines(self.console, indented(entry, 2), width)
            if not kept and len(lines) > LOG_LINES:
                lines = cut(lines, LOG_LINES, "  … ('log' shows it all)")
            if len(kept) + len(lines) > LOG_LINES:
                break
            kept[:0] = lines
            left -= 1
        more = f" ({left} earlier: 'log')" if left else ""
        return [Text(f"Since your last decision{more}:", style="bold"), *kept]

    def tail_lines(self, decision: Decision, width: int) -> list[Text]:
        """Under the menu: the commands, a notice, and what Enter takes."""
        hint = "Number, '?' help, board, hand, log, auto, screen, quit"
        if decision.stepped and decision.steps.picks:
            hint += " · b: back"
        if len(decision.pages) > 1:
            hint += f" · n/p: page {decision.page + 1} of {len(decision.pages)}"
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
            self.console.print(Text(f"Nothing called '{query}' in the rules reference. Try a "
                                    "name, or part of one.", style="yellow"))
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
                           f"citywatch replay {self.path}")


def console() -> Console:
    """The console for play: colour when the terminal has it."""
    return Console(highlight=False)


def new_game(game_name: str, seats: list[str], seed: int | None, read: Reader,
             out: Console | None = None, options: Mapping[str, Any] | None = None,
             auto: bool = False, screen: str = "compact") -> TerminalGame:
    """Set up a new game with the game's ``options``, saved at once (the save keeps the
    options); ``run()`` plays it. ``auto``: every person's usual choice is taken unasked
    when it can never hurt (the save keeps it; ``auto off`` in the game undoes it).
    ``screen``: 'compact' or 'full' (the save keeps it; ``screen ...`` in the game changes
    it).

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
    path = saves.new_save_path(game_name)
    play = TerminalGame(out or console(), state, record, path, read)
    play.save()
    return play


def resume(read: Reader, out: Console | None = None, choice: str | None = None,
           auto: bool = False, screen: str | None = None) -> int:
    """List unfinished games, continue the chosen one (``auto``: with auto-take on for every
    person; ``screen``: with this screen setting, else the save's); exit status."""
    con = out or console()
    found, broken = saves.list_saves()
    for path, why in broken:
        con.print(Text(f"(skipping unreadable save {path}: {why})", style="dim"))
    open_games = [s for s in found if not s.finished]
    if not open_games:
        con.print("There is no unfinished game to resume. Start one with: citywatch play")
        return 1
    con.print("Unfinished games:")
    for i, s in enumerate(open_games, 1):
        con.print(f"  {i}. {s.describe()}", highlight=False)
    while True:
        try:
            text = choice if choice is not None else read("Which game? [1] ").strip()
        except (EOFError, KeyboardInterrupt):
            return 1
        choice = None
        if text == "":
            text = "1"
        if text.isdigit() and 1 <= int(text) <= len(open_games):
            break
        if text.lower() in ("q", "quit"):
            return 1
        con.print(Text(f"Type a number from 1 to {len(open_games)}.", style="yellow"))
    save = open_games[int(text) - 1]
    state = replay(save.record)
    if auto:
        save.record.meta["auto"] = [i for i, seat in enumerate(save.record.meta.get("seats", []))
                                    if seat == YOU]
    if screen in SCREEN_SETTINGS:
        save.record.meta["screen"] = screen
    play = TerminalGame(con, state, save.record, save.path, read)
    if auto or screen in SCREEN_SETTINGS:
        play.save()  # the save keeps the settings given now
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
