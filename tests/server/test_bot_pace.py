"""Issue 26 ("a calm pace"): the bots' pace at a table (``server/pace.py``, docs/server.md "The
bots' pace"). A bot pauses once per turn, when the seat to decide changes, never between its
own decisions, and the pauses of a round add up to at most the round's bound. Counted with a
fake sleep (no clock is read: the speed itself is measured in benchmarks/bench_pace.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from citywatch.server import tables as server_tables
from citywatch.server.pace import ROUND, TURN, BotPace
from citywatch.server.storage import Storage


def test_a_bot_pauses_when_the_seat_changes_and_not_between_its_own_decisions() -> None:
    """Issue 26: the first decision of a bot's turn waits ``turn`` seconds; the bot's further
    decisions none; nothing known of the last decision counts as a change."""
    pace = BotPace(turn=1.0, round=3.0, seats=4)
    assert pace.pause(1, None, turn=1) == 1.0
    assert pace.pause(1, 1, turn=1) == 0.0
    assert pace.pause(1, 1, turn=1) == 0.0
    assert pace.pause(2, 1, turn=2) == 1.0


def test_the_pauses_of_a_round_are_bounded_and_a_persons_decision_begins_a_round() -> None:
    """Issue 26: in one round (between two decisions of people) the pauses add up to at most
    ``round`` seconds, the last one cut short and those after it none; a person's decision
    begins a new round."""
    pace = BotPace(turn=1.0, round=2.5, seats=4)
    pace.person_decided(turn=1)
    waits = [pace.pause(seat, last, turn=turn)
             for seat, last, turn in [(1, 0, 2), (2, 1, 3), (1, 2, 3), (3, 1, 4), (2, 3, 4)]]
    assert waits == [1.0, 1.0, 0.5, 0.0, 0.0]
    pace.person_decided(turn=5)
    assert pace.pause(1, 0, turn=6) == 1.0


def test_a_round_without_people_ends_after_a_turn_of_every_seat() -> None:
    """Issue 26: where no person decides (bots only), a round ends once as many turns as the
    table has seats have begun, so the bots never race on without pauses."""
    pace = BotPace(turn=1.0, round=2.0, seats=3)
    waits = [pace.pause(seat, (seat - 1) % 3, turn=turn) for turn, seat in
             [(1, 0), (2, 1), (3, 2), (4, 0), (5, 1), (6, 2)]]
    assert waits == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]


def test_a_first_pause_longer_than_the_round_is_paid_whole() -> None:
    """Issue 26: the first pause of a round is always paid in full (a long ``--bot-delay``
    holds the bots back that long), the rest of that round none."""
    pace = BotPace(turn=30.0, round=3.0, seats=2)
    assert [pace.pause(1, 0, turn=1), pace.pause(0, 1, turn=1)] == [30.0, 0.0]
    with pytest.raises(ValueError):
        BotPace(turn=-1.0)
    assert (TURN, ROUND) == (1.0, 3.0)


def play_with_counted_pauses(tmp_path: Path, people: int, decisions: int
                             ) -> tuple[list[tuple[float, int, int]], list[int], list[str]]:
    """An Ankh-Morpork table of ``people`` people (the first seats, each taking its first legal
    action) and random bots, with ``bot_delay`` 1 and ``round_pause`` 2.5, played for
    ``decisions`` decisions with a fake sleep: each pause (seconds, the step it came before,
    the seat then to decide), the seat that took each decision, and the seats' kinds."""
    kinds = ["human"] * people + ["random"] * (4 - people)
    pauses: list[tuple[float, int, int]] = []

    async def scenario() -> list[int]:
        tables = server_tables.Tables(Storage(f"sqlite:///{tmp_path / 'pace.db'}"),
                                      bot_delay=1.0, round_pause=2.5)
        table_box: list[Any] = []

        async def counted(seconds: float) -> None:
            table = table_box[0]
            pauses.append((seconds, table.step, table.state.to_move))
            await asyncio.sleep(0)

        tables.sleep = counted
        created = await tables.create("ankh-morpork", kinds, 5, practice=people > 1)
        table, _seat = await tables.resolve(created["spectator"].removeprefix("/play/"))
        table_box.append(table)
        links = {s["seat"]: s["link"].removeprefix("/play/") for s in created["seats"]
                 if s["link"]}
        movers: list[int] = []
        state = table.state.copy()
        while table.step < decisions:
            seat = table.state.to_move
            if seat in links:
                await tables.act(links[seat], table.step,
                                 table.state.legal_actions()[0].to_json())
            else:
                await asyncio.sleep(0.001)
        for raw in table.actions[:decisions]:
            movers.append(state.to_move)
            state.apply(state.game.action_from_json(raw))
        await tables.close()
        tables.storage.close()
        return movers

    movers = asyncio.run(scenario())
    return pauses, movers, kinds


def test_a_live_table_pays_one_pause_per_bot_turn_within_the_rounds_bound(
        tmp_path: Path) -> None:
    """Issue 26 (server): at a table of a person and three bots, a pause comes only before a
    bot's decision that follows another seat's, exactly one per such change of seat until the
    round's bound is reached, never between a bot's own decisions; between two of the
    person's decisions the pauses add up to at most 2.5 seconds."""
    pauses, movers, kinds = play_with_counted_pauses(tmp_path, people=1, decisions=120)
    paid = {step: seconds for seconds, step, _seat in pauses if step < len(movers)}
    for step, seconds in paid.items():
        assert kinds[movers[step]] != "human"
        assert step == 0 or movers[step - 1] != movers[step], "a pause inside a bot's turn"
        assert seconds > 0
    changes = [step for step in range(1, len(movers))
               if movers[step] != movers[step - 1] and kinds[movers[step]] != "human"]
    assert set(paid) <= set(changes) | {0}
    rounds: list[float] = [0.0]
    for step, mover in enumerate(movers):
        if kinds[mover] == "human":
            rounds.append(0.0)
        elif step in changes and step not in paid:
            assert rounds[-1] >= 2.5 - 1e-9, f"a bot's turn began unpaid at step {step}"
        rounds[-1] += paid.get(step, 0.0)
    assert max(rounds) <= 2.5 + 1e-9
    assert sum(1 for r in rounds if r > 0) >= 5, "too few rounds with bots to check"
    bot_steps = sum(kinds[m] != "human" for m in movers)
    assert len(paid) < bot_steps / 2, "the bots paused nearly every decision"


def test_a_table_of_bots_only_still_pauses_every_lap(tmp_path: Path) -> None:
    """Issue 26 (server): at a table of bots only the pauses go on all game long (a round
    ends after a turn of every seat), each at most ``bot_delay``, only where the seat changes."""
    pauses, movers, _kinds = play_with_counted_pauses(tmp_path, people=0, decisions=80)
    steps = [step for _seconds, step, _seat in pauses if step < len(movers)]
    assert len(steps) >= 8 and max(steps) > 40
    assert all(step == 0 or movers[step - 1] != movers[step] for step in steps)
    assert all(seconds <= 1.0 for seconds, _step, _seat in pauses)
