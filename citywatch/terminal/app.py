"""The terminal game loop: people at one keyboard and bots, saved after every decision.

The loop talks only to the core API: ``to_move``, ``legal_actions``, ``apply``,
``view(seat)`` and ``log(seat)``. A person's screen is drawn from their own view.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citywatch import saves
from citywatch.bots import Observation, make_bot
from citywatch.core.api import Game, State
from citywatch.core.record import Record, replay
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.terminal.screens import indented, screens_for, seat_name

YOU = "you"
PROMPT = "choice> "
COMMANDS = ("Type the number of your choice. Other commands: '? NAME' help on anything in the "
            "game's rules reference (a card, a place, ...); 'board'; 'hand'; 'log' for the whole "
            "history; 'quit' to save and stop.")
Reader = Callable[[str], str]


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
        changed = self.game.shown_options(record.options, state.players)
        self.options_shown = "".join(f" · {name} {value}" for name, value in changed.items())
        """The options not at their default and the seats' decks, for the screen's title."""

    def name(self, seat: int) -> str:
        """The colour (or number) of a seat."""
        return seat_name(self.state.view(seat), seat)

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
    def person_moves(self, seat: int) -> bool:
        """Show the seat's screen and read a decision; False if they quit."""
        if len(self.humans) > 1 and seat != self.last_human:
            if not self.hand_over(seat):
                return False
        self.last_human = seat
        self.show(seat)
        legal = self.state.legal_actions()
        while True:
            try:
                text = self.read(PROMPT).strip()
            except (EOFError, KeyboardInterrupt):
                return False
            word = text.lower()
            if word.isdigit() and 1 <= int(word) <= len(legal):
                self.apply(legal[int(word) - 1])
                return True
            if word in ("q", "quit", "exit"):
                return False
            if word == "log":
                self.show_log(seat)
            elif word in ("board", "b"):
                self.console.print(self.screens.board(self.state.view(seat)))
            elif word in ("hand", "h"):
                self.console.print(self.screens.hand(self.state.view(seat)))
            elif word in ("menu", "m", ""):
                self.show_menu(seat, legal)
            elif word.startswith("?") or word.startswith("help "):
                self.help(text.lstrip("?").removeprefix("help ").strip())
            elif word == "help":
                self.console.print(COMMANDS)
            else:
                self.console.print(Text(
                    f"'{text}' is not a choice here. Type a number from 1 to {len(legal)}, "
                    "'?' for help, 'log', 'board' or 'quit'.", style="yellow"))

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

    def show(self, seat: int) -> None:
        """The seat's whole screen."""
        view = self.state.view(seat)
        self.console.clear()
        current = view.get("current")
        whose = f" · {current}'s turn" if isinstance(current, str) else ""
        title = (f"{self.game.name}{self.options_shown} · turn {self.state.turn_count()}{whose} · "
                 f"you are {self.name(seat)}")
        self.console.print(Rule(title))
        self.console.print(self.screens.board(view))
        self.console.print(self.screens.players(view))
        self.console.print(self.screens.hand(view))
        lines = self.state.log(seat)
        recent = lines[self.seen_log[seat]:][-10:]
        self.seen_log[seat] = len(lines)
        if recent:
            self.console.print(Text("Since your last decision:", style="bold"))
            for line in recent:
                self.console.print(indented(line, 2))
        self.show_menu(seat, self.state.legal_actions())

    def show_menu(self, seat: int, legal: list[Any]) -> None:
        """The numbered choices."""
        decision = self.state.view(seat).get("decision")
        task = decision.get("task", "decide") if isinstance(decision, dict) else "decide"
        self.console.print(Text.assemble(self.screens.colour(self.name(seat)), f", {task}:"))
        width = max(len(f"{i}. {self.screens.label(str(a))}") for i, a in enumerate(legal, 1))
        columns = max(1, min(3, self.console.width // (width + 3)))
        if len(legal) <= 8:
            columns = 1
        t = Table.grid(padding=(0, 3))
        for _ in range(columns):
            t.add_column()
        rows = (len(legal) + columns - 1) // columns
        items = [f"{i}. {self.screens.label(str(a))}" for i, a in enumerate(legal, 1)]
        for r in range(rows):
            t.add_row(*[items[r + c * rows] if r + c * rows < len(items) else ""
                        for c in range(columns)])
        self.console.print(t, highlight=False)
        self.console.print(Text("Number, '?' help, 'log', 'board', 'quit'", style="dim"))

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
        """The final board and result, every personality revealed."""
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
        self.console.print(f"Saved in {self.path}; watch it again with: "
                           f"citywatch replay {self.path}")


def console() -> Console:
    """The console for play: colour when the terminal has it."""
    return Console(highlight=False)


def new_game(game_name: str, seats: list[str], seed: int | None, read: Reader,
             out: Console | None = None, options: Mapping[str, Any] | None = None,
             ) -> TerminalGame:
    """Set up a new game with the game's ``options``, saved at once (the save keeps the
    options); ``run()`` plays it.

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
    path = saves.new_save_path(game_name)
    play = TerminalGame(out or console(), state, record, path, read)
    play.save()
    return play


def resume(read: Reader, out: Console | None = None, choice: str | None = None) -> int:
    """List unfinished games, continue the chosen one; exit status."""
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
    play = TerminalGame(con, state, save.record, save.path, read)
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
