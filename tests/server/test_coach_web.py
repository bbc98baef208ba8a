"""Issue 30 on the server: the table option "hints" (its default and its checks), hints asked
over the WebSocket (refused when not allowed, not the asker's decision or the game over;
recorded in the table and its record and announced to every seat; their contents sent to the
asker only), and the analysis of a finished table (409 while the game runs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server import humans, token_of, view
from web_helpers import TUTORIAL, create_tutorial

from citywatch.bots.decide import bot_rng
from citywatch.coach import hint_rng as coach_rng
from citywatch.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GAME = "black-keep"
OPTIONS = TUTORIAL
"""The fastest game to play to its end: the tutorial ends within a dozen decisions."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server (no bot delay, one bot worker) for the module's tests."""
    db = tmp_path_factory.mktemp("coach") / "coach.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0, bot_workers=1)) as test_client:
        yield test_client




def next_message(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message of one of ``kinds`` on ``ws`` (state messages before it skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds:
            return message


def mover(client: TestClient, people: dict[int, str]) -> tuple[int, dict[str, Any]]:
    """The person to decide now and their view."""
    for seat, token in people.items():
        data = view(client, token)
        if data["choices"]:
            return seat, data
    raise AssertionError("no person is to decide")


def finish(client: TestClient, people: dict[int, str]) -> None:
    """People take their first choice until the game is over."""
    for _ in range(200):
        data = view(client, next(iter(people.values())))
        if data["table"]["over"]:
            return
        seat, data = mover(client, people)
        answer = client.post(f"/api/act/{people[seat]}", json={
            "step": data["step"], "action": data["choices"][0]["json"]})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def test_hints_are_on_with_one_person_off_with_more_and_checked(client: TestClient) -> None:
    """Issue 30: the option "hints" defaults to on with exactly one person (the rest bots),
    off with two or more; a creator may choose either; anything but true or false is refused
    with a 400 naming the option, and nothing is made; the choice is stored with the table
    and every seat is told it."""
    alone = create_tutorial(client, ["human", "random"])
    assert alone["hints"] is True
    assert view(client, humans(alone)[0])["table"]["hints_on"] is True
    two = create_tutorial(client, ["human", "human"])
    assert two["hints"] is False
    assert view(client, token_of(two["spectator"]))["table"]["hints_on"] is False
    assert create_tutorial(client, ["human", "random"], hints=False)["hints"] is False
    chosen = create_tutorial(client, ["human", "human"], hints=True)
    assert view(client, humans(chosen)[1])["table"]["hints_on"] is True
    for bad in ("yes", 1, 0, [True], {"on": True}):
        answer = client.post("/api/tables", json={"game": GAME, "seats": ["human", "random"],
                                                  "options": OPTIONS, "hints": bad})
        assert answer.status_code == 400, bad
        assert "hints must be true" in answer.json()["error"]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    assert storage.table(chosen["table"]).hints_allowed is True
    assert storage.table(two["table"]).hints_allowed is False


def test_a_hint_is_refused_when_off_not_yours_or_over(client: TestClient) -> None:
    """Issue 30: a hint is refused, with a sentence and nothing recorded, at a table that
    does not allow hints, for a seat whose decision it is not, for the spectator, for a step
    that is not current, and once the game is over."""
    off = create_tutorial(client, ["human", "human"])
    people = humans(off)
    seat, data = mover(client, people)
    with client.websocket_connect(f"/ws/{people[seat]}") as ws:
        ws.send_json({"type": "hint", "step": data["step"]})
        assert "not allowed" in next_message(ws, ("hint", "hint_error"))["error"]
    on = create_tutorial(client, ["human", "human"], hints=True)
    people = humans(on)
    seat, data = mover(client, people)
    other = next(s for s in people if s != seat)
    with client.websocket_connect(f"/ws/{people[other]}") as ws:
        ws.send_json({"type": "hint", "step": data["step"]})
        assert "not yours" in next_message(ws, ("hint", "hint_error"))["error"]
    with client.websocket_connect(f"/ws/{token_of(on['spectator'])}") as ws:
        ws.send_json({"type": "hint", "step": data["step"]})
        assert "spectator" in next_message(ws, ("hint", "hint_error"))["error"]
    with client.websocket_connect(f"/ws/{people[seat]}") as ws:
        ws.send_json({"type": "hint", "step": data["step"] + 1})
        assert "not 1" in next_message(ws, ("hint", "hint_error"))["error"]
        ws.send_json({"type": "hint", "step": "0"})
        assert "ask for a hint as" in next_message(ws, ("error",))["error"]
    finish(client, people)
    with client.websocket_connect(f"/ws/{people[seat]}") as ws:
        ws.send_json({"type": "hint", "step": view(client, people[seat])["step"]})
        assert "game is over" in next_message(ws, ("hint", "hint_error"))["error"]
    assert view(client, people[seat])["table"]["hints"] == []


def test_a_hint_goes_to_the_asker_only_and_every_seat_is_told(client: TestClient) -> None:
    """Issue 30: the seat to decide asks for a hint: it alone receives the chances (one per
    choice, matching the choices' JSON, and the hard level's pick); every seat's next state
    lists the hint asked ({"step", "seat"}), the other seat's connection never receives the
    hint itself, and the finished table's record carries it in ``meta["hints"]``; the
    analysis is refused with 409 while the game runs, then shows the curve and the hint."""
    created = create_tutorial(client, ["human", "human"], hints=True)
    people = humans(created)
    seat, data = mover(client, people)
    other = next(s for s in people if s != seat)
    replay_id = created["replay"].removeprefix("/replay/")
    running = client.get(f"/api/tables/{replay_id}/analysis")
    assert running.status_code == 409
    assert "hidden information" in running.json()["error"]
    with client.websocket_connect(f"/ws/{people[seat]}") as mine, \
            client.websocket_connect(f"/ws/{people[other]}") as theirs:
        mine.receive_json()
        theirs.receive_json()
        mine.send_json({"type": "hint", "step": data["step"]})
        told = next_message(mine, ("state",))
        assert told["table"]["hints"] == [{"step": data["step"], "seat": seat}]
        answer = next_message(mine, ("hint", "hint_error"))
        assert answer["type"] == "hint", answer
        hint = answer["hint"]
        assert [o["json"] for o in hint["options"]] == [c["json"] for c in data["choices"]]
        assert all(0.0 <= o["chance"] <= 1.0 for o in hint["options"])
        assert hint["seat"] == seat and hint["hard"] is not None
        seen = theirs.receive_json()
        assert seen["type"] == "state"
        assert seen["table"]["hints"] == [{"step": data["step"], "seat": seat}]
        mine.send_json({"type": "hint", "step": data["step"]})  # the same hint, not again
        assert next_message(mine, ("hint",))["hint"] == hint
        mine.send_json({"type": "act", "step": data["step"],
                        "action": data["choices"][0]["json"]})
        after = theirs.receive_json()
        assert after["type"] == "state" and after["step"] == data["step"] + 1
    assert view(client, token_of(created["spectator"]))["table"]["hints"] == [
        {"step": data["step"], "seat": seat}]
    finish(client, people)
    record = client.get(f"/api/record/{replay_id}").json()
    assert record["meta"]["hints"] == [{"step": data["step"], "seat": seat}]
    analysis = client.get(f"/api/tables/{replay_id}/analysis")
    assert analysis.status_code == 200, analysis.text
    found = analysis.json()
    assert len(found["curve"]) == record_length(record) + 1
    assert found["hints"] == [{"step": data["step"], "seat": seat}]
    assert client.get(f"/analysis/{replay_id}").status_code == 200
    assert client.get("/api/tables/no-such-table/analysis").status_code == 404


def record_length(record: dict[str, Any]) -> int:
    """The decisions of a record."""
    return len(record["actions"])


def test_the_coachs_generator_is_not_a_bots(tmp_path: Path) -> None:
    """Issue 30: a hint's generator is derived from the table's seed and the step for a
    purpose of its own: never the generator a bot uses at any step."""
    seed = "blake2b:" + "ab" * 32
    bots = {bot_rng(seed, step).next64() for step in range(50)}
    assert not bots & {coach_rng(seed, step).next64() for step in range(50)}
    assert coach_rng(7, 3).next64() == coach_rng(7, 3).next64()
    assert coach_rng(7, 3).next64() != coach_rng(7, 4).next64()
