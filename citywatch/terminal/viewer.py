"""Watching a recorded game step by step: Enter for the next step, 'b' to go back."""

from __future__ import annotations

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from citywatch.core.api import State
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record, start
from citywatch.terminal.app import Reader, console, default_reader
from citywatch.terminal.scores import end_scores
from citywatch.terminal.screens import indented, screens_for
from citywatch.terminal.screens import seat_name as name_of


def steps(record: Record) -> tuple[list[State], list[str], list[int | None]]:
    """Every state of the record, the text of each action and who took it."""
    state = start(record)
    states = [state.copy()]
    texts: list[str] = []
    actors: list[int | None] = []
    for number, raw in enumerate(record.actions, 1):
        try:
            action = state.game.action_from_json(raw)
            actors.append(state.to_move)
            state.apply(action)
        except ValueError as exc:
            raise InvalidRecord(f"action {number} ({raw!r}) does not replay: {exc}") from None
        texts.append(str(action))
        states.append(state.copy())
    return states, texts, actors


def watch(record: Record, seat_name: str | None, read: Reader | None = None,
          out: Console | None = None) -> int:
    """Step through a record; from one seat's view, or all of it once the game is over."""
    con = out or console()
    read = read or default_reader(con)
    states, texts, actors = steps(record)
    final = states[-1]
    colours = [name_of(final.game, final.view(p), p) for p in range(final.players)]
    seat: int | None = None
    if seat_name is not None:
        matches = [i for i, c in enumerate(colours) if c.lower() == seat_name.lower()]
        if not matches:
            con.print(f"No seat {seat_name!r}: choose one of {', '.join(colours)}.")
            return 2
        seat = matches[0]
    elif final.outcome() is None:
        con.print("This game is not finished; watch it from one seat with --seat COLOUR "
                  f"({', '.join(colours)}).")
        return 1
    screens = screens_for(final.game)
    i = 0
    while True:
        state = states[i]
        view = state.view(seat)  # all of it: the public view, no seat is "you"
        con.clear()
        con.print(Rule(f"Replay · step {i} of {len(texts)} · turn {state.turn_count()}"
                       + ("" if seat is None else f" · as {colours[seat]}")))
        con.print(screens.board(view))
        con.print(screens.players(view))
        if seat is None:
            for p, c in enumerate(colours):
                hand = state.game.type.hand(state.view(p))
                shown = ", ".join(map(str, hand)) if isinstance(hand, list) else "(nothing)"
                con.print(Text.assemble(screens.colour(c), f" holds {shown or '(none)'}"),
                          highlight=False)
        else:
            con.print(screens.hand(view))
        if i > 0:
            actor = actors[i - 1]
            if seat is None or actor == seat:
                con.print(Text(f"{colours[actor or 0]}: {texts[i - 1]}", style="bold"))
            before = len(states[i - 1].log(seat))
            for line in state.log(seat)[before:]:
                con.print(indented(line, 2))
        if state.outcome() is not None:
            con.print(screens.outcome(view))
            con.print(end_scores(state, colours, screens.colour))  # issue 26
        con.print(Text("Enter: next · b: back · e: end · q: quit", style="dim"))
        try:
            key = read("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return 0
        if key in ("q", "quit"):
            return 0
        if key == "b":
            i = max(0, i - 1)
        elif key == "e":
            i = len(texts)
        elif key == "" and i < len(texts):
            i += 1
