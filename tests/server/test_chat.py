"""Issue 31, table chat on the server: messages written over the WebSocket by a person's seat
(1 to 200 characters, cleaned by the project's text rule, rate-limited per seat), stored with
the table (the newest ``CHAT_KEPT``) and read again after a reload from storage; the option
"spectators_chat" (checked like "hints"); a seat's mutes, for itself only and kept."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_helpers import running_postgres
from sqlalchemy import inspect
from starlette.testclient import TestClient
from test_server import humans, sqlite_url, token_of, view
from test_server_security import _old_database
from web_helpers import TUTORIAL, create_tutorial

from citywatch.server import create_app
from citywatch.server.storage import CHAT_KEPT, Storage
from citywatch.server.tables import Tables

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GAME = "black-keep"
OPTIONS = TUTORIAL


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's database file."""
    return tmp_path_factory.mktemp("chat") / "chat.db"


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    """One server (bots slow enough to stay put, one bot worker) for the module's tests."""
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=30, bot_workers=1)) as test_client:
        yield test_client




def send(client: TestClient, token: str, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` on ``token``'s WebSocket; the state it brought about (the first whose
    chat or mutes differ from the state on connecting), or the error."""
    with client.websocket_connect(f"/ws/{token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        ws.send_json(message)
        for _ in range(10):  # a state sent for another reason (a reload, a notice) is skipped
            answer: dict[str, Any] = ws.receive_json()
            if answer["type"] != "state" or (answer.get("chat"), answer.get("muted")) != (
                    first.get("chat"), first.get("muted")):
                return answer
        raise AssertionError(f"no answer to {message}")


def test_spectators_chat_option_is_checked_and_stored(client: TestClient) -> None:
    """Issue 31: "spectators_chat" defaults to false; true or false is stored and told to
    every seat; anything else is a 400 naming the option, and no table is made."""
    assert create_tutorial(client, ["human", "human"])["spectators_chat"] is False
    made = create_tutorial(client, ["human", "human"], spectators_chat=True)
    assert made["spectators_chat"] is True
    assert view(client, humans(made)[0])["table"]["spectators_chat"] is True
    for bad in ("yes", 1, [], {}):
        answer = client.post("/api/tables", json={"game": GAME, "seats": ["human", "human"],
                                                  "options": OPTIONS, "spectators_chat": bad})
        assert answer.status_code == 400 and "spectators_chat" in answer.json()["error"]


def test_messages_are_bounded_cleaned_and_refused_without_change(client: TestClient) -> None:
    """Issue 31: a message is 1 to 200 characters once stripped, with no control or invisible
    character; it is kept stripped; anything else (empty, 201 characters, a line break, a
    zero-width mark, not text) gets a chat_error and the chat is unchanged; the spectator and
    a bot's seat cannot write."""
    made = create_tutorial(client, ["human", "human", "random"])
    one, two = humans(made).values()
    spectator = token_of(made["spectator"])
    sent = send(client, one, {"type": "chat", "text": "  " + "é" * 200 + " "})
    assert sent["type"] == "state" and sent["chat"][-1]["text"] == "é" * 200
    assert sent["chat"][-1]["seat"] == 0 and sent["chat"][-1]["at"]
    for bad in ("", "   ", "x" * 201, "a\nb", "a\u200bb", "a\u202eb", 5, None):
        answer = send(client, two, {"type": "chat", "text": bad})
        assert answer["type"] == "chat_error" and "chat message" in answer["error"], bad
    answer = send(client, spectator, {"type": "chat", "text": "hello"})
    assert answer["type"] == "chat_error" and "spectator" in answer["error"]
    assert [m["text"] for m in view(client, two)["chat"]] == ["é" * 200]


def test_a_seat_writes_at_most_five_messages_in_ten_seconds(client: TestClient) -> None:
    """Issue 31: one seat's sixth message within 10 seconds is refused (429 words), not
    stored; another seat of the table may still write."""
    made = create_tutorial(client, ["human", "human"])
    one, two = humans(made).values()
    with client.websocket_connect(f"/ws/{one}") as ws:
        ws.receive_json()
        for k in range(6):
            ws.send_json({"type": "chat", "text": f"message {k}"})
            answer = ws.receive_json()
            assert answer["type"] == ("state" if k < 5 else "chat_error")
        assert "too many chat messages from your seat" in answer["error"]
    assert send(client, two, {"type": "chat", "text": "mine"})["type"] == "state"
    assert [m["text"] for m in view(client, one)["chat"]] == [
        *(f"message {k}" for k in range(5)), "mine"]


def test_every_seat_gets_the_message_and_the_spectator_only_if_allowed(
        client: TestClient) -> None:
    """Issue 31: a message reaches every seat's open page at once; the spectator link reads
    the chat only at a table made with "spectators_chat": true."""
    for allowed in (False, True):
        made = create_tutorial(client, ["human", "human"], spectators_chat=allowed)
        one, two = humans(made).values()
        spectator = token_of(made["spectator"])
        with client.websocket_connect(f"/ws/{two}") as ws:
            ws.receive_json()
            send(client, one, {"type": "chat", "text": "good luck"})
            assert [m["text"] for m in ws.receive_json()["chat"]] == ["good luck"]
        assert [m["text"] for m in view(client, spectator)["chat"]] == (
            ["good luck"] if allowed else [])


def test_a_mute_hides_messages_for_the_muting_seat_only(client: TestClient) -> None:
    """Issue 31: a seat that mutes another no longer reads its messages (earlier ones
    included); the other seats and the muted seat still do; unmuting shows them again; a
    mute of oneself, of no seat, or from the spectator is refused."""
    made = create_tutorial(client, ["human", "human", "human"], spectators_chat=True)
    one, two, three = humans(made).values()
    spectator = token_of(made["spectator"])
    send(client, two, {"type": "chat", "text": "from two"})
    muted = send(client, one, {"type": "mute", "seat": 1, "muted": True})
    assert muted["muted"] == [1] and muted["chat"] == []
    send(client, two, {"type": "chat", "text": "again"})
    assert view(client, one)["chat"] == []
    for token in (two, three, spectator):
        assert [m["text"] for m in view(client, token)["chat"]] == ["from two", "again"]
    for bad in ({"seat": 0, "muted": True}, {"seat": 3, "muted": True},
                {"seat": True, "muted": True}, {"seat": 1, "muted": "yes"}):
        answer = send(client, one, {"type": "mute", **bad})
        assert answer["type"] == "chat_error", bad
    assert send(client, spectator, {"type": "mute", "seat": 1, "muted": True})["type"] == \
        "chat_error"
    shown = send(client, one, {"type": "mute", "seat": 1, "muted": False})
    assert shown["muted"] == [] and len(shown["chat"]) == 2


def test_chat_and_mutes_survive_a_reload_from_storage(client: TestClient, db: Path) -> None:
    """Issue 31: the chat, its order and times, the option and each seat's mutes are stored
    with the table: a new Tables over the same database file reads them back; only the newest
    ``CHAT_KEPT`` messages are kept."""
    made = create_tutorial(client, ["human", "human"], spectators_chat=True)
    one, two = humans(made).values()
    send(client, one, {"type": "chat", "text": "<b>x</b>"})
    send(client, two, {"type": "mute", "seat": 0, "muted": True})
    before = view(client, one)["chat"]
    storage = Storage(f"sqlite:///{db}")
    try:
        for k in range(CHAT_KEPT):
            storage.add_chat(made["table"], 0, f"filler {k}")
        row = storage.table(made["table"])
        assert row is not None and len(row.chat) == CHAT_KEPT
        assert row.chat[0]["text"] == "filler 0" and row.chat[-1]["n"] == CHAT_KEPT + 1
        tables = Tables(storage, bot_delay=30)
        async def reload() -> tuple[Any, Any]:
            try:
                table = await tables.get(made["table"])
                return table.snapshot(0), table.snapshot(1)
            finally:
                await tables.close()

        seat_one, seat_two = asyncio.run(reload())
    finally:
        storage.close()
    assert before[0]["text"] == "<b>x</b>"
    assert len(seat_one["chat"]) == CHAT_KEPT and seat_one["chat"][-1]["text"] == (
        f"filler {CHAT_KEPT - 1}")
    assert seat_two["muted"] == [0] and seat_two["chat"] == []
    assert seat_one["table"]["spectators_chat"] is True


def test_an_old_database_gains_the_chat_columns(tmp_path: Path) -> None:
    """Issue 31: a database of the first release gains the nullable chat columns when opened;
    its table has no message, no mute and no spectator reading, and its person can write."""
    url = sqlite_url(tmp_path, "old.db")
    _old_database(url, ["human", "human", "random"], 3, [])
    storage = Storage(url)
    try:
        with storage.engine.connect() as conn:
            assert {"spectators_chat", "chat", "mutes"} <= {
                c["name"] for c in inspect(conn).get_columns("tables")}
        row = storage.table("old")
        assert row is not None and (row.chat, row.spectators_chat) == ((), False)
        assert row.mutes == ((), (), ())
    finally:
        storage.close()
    with TestClient(create_app(url, bot_delay=30)) as client:
        assert view(client, "watch-token")["table"]["spectators_chat"] is False
        sent = send(client, "person-token", {"type": "chat", "text": "hi"})
        assert sent["chat"][0]["text"] == "hi"


def test_a_message_written_in_one_process_reaches_a_page_on_another() -> None:
    """Issue 31 on PostgreSQL: a message written through one server process reaches a page
    connected to another (``NOTIFY "<table> about"``), and so does a mute, for its seat."""
    with running_postgres() as url:
        first, second = create_app(url, bot_delay=30), create_app(url, bot_delay=30)
        with TestClient(first) as one, TestClient(second) as two:
            made = create_tutorial(one, ["human", "human"])
            red, blue = humans(made).values()
            with two.websocket_connect(f"/ws/{blue}") as ws:
                assert ws.receive_json()["chat"] == []
                assert send(one, red, {"type": "chat", "text": "across"})["type"] == "state"
                assert [m["text"] for m in ws.receive_json()["chat"]] == ["across"]
                assert send(one, blue, {"type": "mute", "seat": 0, "muted": True})["muted"] == [0]
                assert ws.receive_json()["chat"] == []
