"""Issue 26 ("every bot move since your last decision"): ``core.moves``, the history of the
newest decisions and the moves it tells each seat, on a small scripted game (each decision
writes the lines it is given) and on whole Ankh-Morpork games replayed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pytest

from citywatch.core.api import State
from citywatch.core.errors import InvalidRecord
from citywatch.core.log import LogEntry
from citywatch.core.moves import MoveHistory, one_move, replay_with_history
from citywatch.core.record import Record
from citywatch.core.registry import load

NAMES = ["Red", "Blue", "Green"]


class Board:
    """The game of ``Script``: it reads the places a decision touched from the spectator's
    ``at`` (who stands where) and from the place names its public lines hold."""

    PLACES = ("Hill", "River", "Gate")

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        moved = {place for who, place in after["at"].items() if before["at"].get(who) != place}
        named = {place for line in lines for place in self.PLACES if place in line}
        return [place for place in self.PLACES if place in moved | named]


class Script:
    """Just what a history reads of a state: three seats, one log (entries for everyone or for
    some seats only), who stands where (public) and who decides."""

    def __init__(self) -> None:
        self.game = Board()
        self.players = 3
        self.entries: list[LogEntry] = [LogEntry("The game begins.")]
        self.at: dict[str, str] = {}
        self.to_move: int | None = 0

    def log(self, seat: int | None = None) -> list[str]:
        shown = (entry.for_seat(seat) for entry in self.entries)
        return [text for text in shown if text is not None]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"at": dict(self.at)}

    def decide(self, history: MoveHistory, seat: int, *lines: str | LogEntry,
               go: str | None = None, then: int | None = None) -> None:
        """``seat`` decides: its lines are written, it goes to ``go``, ``then`` decides."""
        assert self.to_move == seat
        self.entries += [LogEntry(line) if isinstance(line, str) else line for line in lines]
        if go is not None:
            self.at[NAMES[seat]] = go
        self.to_move = then
        history.add(seat, cast(State, self))


def start() -> tuple[Script, MoveHistory]:
    script = Script()
    return script, MoveHistory(cast(State, script))


def since(script: Script, history: MoveHistory, seat: int | None) -> list[dict[str, Any]]:
    return history.since(seat, script.log(-1 if seat is None else seat), script.to_move, NAMES)


def test_the_moves_since_a_seats_last_decision_one_per_run_of_one_seat() -> None:
    """Issue 26: after Red's decision, Blue's two decisions and Green's one are two moves, in
    order, each with every line it wrote and the places it touched (where Blue went, the place
    Green's line names); Red's own decision and the lines before it are not among them."""
    s, h = start()
    s.decide(h, 0, "Red goes to the Hill.", go="Hill", then=1)
    s.decide(h, 1, "Blue draws.", then=1)
    s.decide(h, 1, "Blue goes to the River.", go="River", then=2)
    s.decide(h, 2, "Green looks at the Gate.", "Turn 2: Red to play.", then=0)
    assert since(s, h, 0) == [
        {"by": "Blue", "spaces": ["River"], "lines": ["Blue draws.", "Blue goes to the River."],
         "mentions": []},
        {"by": "Green", "spaces": ["Gate"],
         "lines": ["Green looks at the Gate.", "Turn 2: Red to play."], "mentions": [1]},
    ]
    assert [m["by"] for m in since(s, h, 1)] == ["Green"]  # Blue decided after Red
    assert since(s, h, 2) == []
    assert h.last_seat == 2 and len(h) == 4


def test_a_seat_that_has_not_decided_is_told_every_move_kept() -> None:
    """Issue 26: a seat that has not decided yet is told every move from the start."""
    s, h = start()
    s.decide(h, 0, "Red goes to the Hill.", go="Hill", then=1)
    s.decide(h, 1, "Blue goes to the Gate.", go="Gate", then=0)
    assert [(m["by"], m["spaces"]) for m in since(s, h, 2)] == [("Red", ["Hill"]),
                                                                ("Blue", ["Gate"])]


def test_each_seat_reads_its_own_lines_and_spaces_come_from_public_lines_only() -> None:
    """Issue 26 (hidden information): a line only Blue reads is in Blue's moves and in no one
    else's (Green reads its public version); a place named only in a private line is never
    marked; the places are the same for every seat."""
    s, h = start()
    s.decide(h, 0, "Red waits.", then=1)
    secret = LogEntry("Blue hides a key by the River.", frozenset({1}), "Blue hides something.")
    s.decide(h, 1, secret, "Blue goes to the Hill.", go="Hill", then=2)
    s.decide(h, 2, "Green waits.", then=0)
    red = since(s, h, 0)
    assert red[0]["lines"] == ["Blue hides something.", "Blue goes to the Hill."]
    assert red[0]["spaces"] == ["Hill"]  # not the River: only Blue's line names it
    blue_seen = h.since(1, s.log(1), s.to_move, NAMES)
    assert blue_seen == [{"by": "Green", "spaces": [], "lines": ["Green waits."],
                          "mentions": []}]
    assert "key" not in str(red) + str(since(s, h, 2)) + str(since(s, h, None))
    only_blue = LogEntry("Blue counts the keys.", frozenset({1}))  # others read nothing
    s.decide(h, 0, "Red waits.", then=1)
    s.decide(h, 1, only_blue, then=0)
    assert since(s, h, 0) == [{"by": "Blue", "spaces": [], "lines": [], "mentions": []}]


def test_the_lines_naming_the_seat_are_its_mentions_by_whole_name() -> None:
    """Issue 26 ("what affects you first"): a move's ``mentions`` are the indices of its lines
    naming the seat as a whole word; the spectator's moves have none."""
    s, h = start()
    s.decide(h, 0, "Red waits.", then=1)
    s.decide(h, 1, "Blue pays Red $2.", "Blue reds the map.", "Redcap laughs.",
             "Blue chooses Red.", then=0)
    assert since(s, h, 0)[0]["mentions"] == [0, 3]
    assert "mentions" not in since(s, h, None)[0]


def test_the_spectator_is_told_the_moves_since_the_seat_to_move_decided() -> None:
    """Issue 26: the spectator's moves are those since the last decision of the seat to move;
    once the game is over, the last round: since the previous decision of the seat that
    decided last, its final move included."""
    s, h = start()
    s.decide(h, 0, "Red goes to the Hill.", go="Hill", then=1)
    s.decide(h, 1, "Blue waits.", then=2)
    assert [m["by"] for m in since(s, h, None)] == ["Red", "Blue"]  # Green has not decided
    s.decide(h, 2, "Green waits.", then=0)
    assert [m["by"] for m in since(s, h, None)] == ["Blue", "Green"]
    s.decide(h, 0, "Red waits.", then=1)
    s.decide(h, 1, "Blue wins.", then=None)
    assert [m["by"] for m in since(s, h, None)] == ["Green", "Red", "Blue"]


def test_a_history_keeps_its_newest_decisions_only() -> None:
    """Issue 26: a history keeps ``keep`` decisions; a seat whose last decision is older is
    told the moves of those kept, whose lines are still exactly theirs."""
    s = Script()
    h = MoveHistory(cast(State, s), keep=3)
    s.decide(h, 0, "Red 1.", then=1)
    for k in range(4):
        s.decide(h, 1, f"Blue {k}.", then=1 if k < 3 else 2)
    assert len(h) == 3 and h.dropped == 2
    assert since(s, h, 0) == [{"by": "Blue", "spaces": [],
                               "lines": ["Blue 1.", "Blue 2.", "Blue 3."], "mentions": []}]
    with pytest.raises(ValueError):
        MoveHistory(cast(State, s), keep=0)


def test_one_move_is_a_decision_for_the_spectator() -> None:
    """Issue 26 (the replay): ``one_move`` is one decision's public lines and places."""
    s, _h = start()
    before = Script()
    before.entries, before.at = list(s.entries), dict(s.at)
    s.entries += [LogEntry("Blue goes to the Gate."), LogEntry("Blue counts.", frozenset({1}))]
    s.at["Blue"] = "Gate"
    assert one_move("Blue", cast(State, before), cast(State, s)) == {
        "by": "Blue", "spaces": ["Gate"], "lines": ["Blue goes to the Gate."]}


def replayed_moves(record: Record, keep: int) -> tuple[list[Any], list[Any]]:
    """Each reader's moves after ``record``, from ``replay_with_history`` and from a history
    that followed every decision."""
    state, history = replay_with_history(record, keep)
    game = load(record.game)
    followed = game.new_game(record.players, record.seed, **record.options)
    step_by_step = MoveHistory(followed, keep)
    for raw in record.actions:
        seat = followed.to_move
        assert seat is not None
        followed.apply(game.action_from_json(raw))
        step_by_step.add(seat, followed)
    names = [f"Seat {k + 1}" for k in range(record.players)]
    readers: list[int | None] = [*range(record.players), None]
    got = [history.since(r, state.log(-1 if r is None else r), state.to_move, names)
           for r in readers]
    wanted = [step_by_step.since(r, followed.log(-1 if r is None else r), followed.to_move,
                                 names) for r in readers]
    return got, wanted


@pytest.mark.parametrize("length", [0, 5, 200])
def test_a_replayed_record_tells_the_same_moves_as_following_the_game(length: int) -> None:
    """Issue 26 (a table loaded from its record): the history rebuilt from a record (its
    newest decisions only) tells every seat and the spectator the same moves as one that
    followed the game decision by decision: at the start, early, and past ``keep``."""
    game = load("ankh-morpork")
    state = game.new_game(4, 11)
    actions: list[Any] = []
    while len(actions) < length and state.to_move is not None:
        legal = state.legal_actions()
        action = legal[len(actions) * 7 % len(legal)]
        state.apply(action)
        actions.append(action.to_json())
    assert len(actions) == length
    got, wanted = replayed_moves(Record("ankh-morpork", 4, 11, actions=actions), keep=64)
    assert got == wanted
    assert length == 0 or any(moves for moves in got)


def test_a_record_that_does_not_replay_names_the_action() -> None:
    """Issue 26: ``replay_with_history`` fails as ``replay`` does, naming the action."""
    with pytest.raises(InvalidRecord, match="action 1 "):
        replay_with_history(Record("ankh-morpork", 4, 11, actions=[{"verb": "nonsense"}]))
