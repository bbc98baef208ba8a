"""The server against one person who would stall or lock out everyone else (issue 24,
points 1 and 4; docs/server.md): a table's set-up off the event loop and within a time
limit, unfinished tables per address, tables of bots only that stop, and the retention rule
for abandoned tables. Each test names the point it checks."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import slow_game
from sqlalchemy import update
from starlette.applications import Starlette
from test_server import sqlite_url, token_of

from citywatch.core.registry import register, unregister
from citywatch.server import create_app
from citywatch.server.storage import actions, tables
from citywatch.server.tables import Limits

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

DEADLINE = 60.0
OPEN = Limits(creations="1000/minute", open_tables_per_address=1000)
PERSON_AND_BOT = {"game": "ankh-morpork", "seats": ["human", "random"]}


def until(condition: Any, what: str) -> None:
    """Wait for ``condition()`` to hold; fail with ``what`` after ``DEADLINE`` seconds."""
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.05)


def create(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """A new table (the request must succeed)."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def person(created: dict[str, Any]) -> str:
    """The token of the first person's seat of a new table."""
    return token_of(next(s["link"] for s in created["seats"] if s["link"]))


def stored(app: Starlette) -> int:
    """How many tables the database holds."""
    with app.state.storage.engine.connect() as conn:
        return len(conn.execute(tables.select()).all())


@pytest.fixture
def slow_registered() -> Iterator[None]:
    """The game whose set-up takes ``seconds`` (``slow_game.py``), registered."""
    register(slow_game.NAME, slow_game.__name__)
    yield
    unregister(slow_game.NAME)


def test_a_slow_set_up_neither_stalls_other_tables_nor_outlives_its_time_limit(
        tmp_path: Path, slow_registered: None) -> None:
    """Issue 24, point 1: building a table runs off the event loop, with a time limit: while
    one creator's set-up keeps a process busy, another table's page answers, and a set-up
    over the limit is refused with a clear 400 that stores nothing."""
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN, setup_time_limit=2.0)
    with TestClient(app) as client:
        token = person(create(client, PERSON_AND_BOT))
        before = stored(app)
        answer: dict[str, Any] = {}

        def slow_creation() -> None:
            response = client.post("/api/tables", json={
                "game": slow_game.NAME, "seats": ["human", "human"],
                "options": {"seconds": 30}})
            answer["status"], answer["body"] = response.status_code, response.json()

        creating = threading.Thread(target=slow_creation)
        creating.start()
        time.sleep(0.5)  # the set-up is under way
        assert client.get(f"/api/view/{token}").status_code == 200
        assert creating.is_alive(), "the view waited for the other table's set-up"
        creating.join(DEADLINE)
        assert answer["status"] == 400
        assert "took longer than 2 seconds" in answer["body"]["error"]
        assert stored(app) == before
        # the pool is whole again: the next table is set up as usual
        create(client, PERSON_AND_BOT)


def test_options_are_checked_in_the_set_up_before_anything_is_stored(
        tmp_path: Path, slow_registered: None) -> None:
    """Issue 24, point 1: an option out of its declared range is refused (400, naming the
    range) without a set-up and without a row."""
    app = create_app(sqlite_url(tmp_path), limits=OPEN)
    with TestClient(app) as client:
        response = client.post("/api/tables", json={
            "game": slow_game.NAME, "seats": ["human", "human"], "options": {"seconds": 61}})
        assert response.status_code == 400
        assert "from 0 to 60" in response.json()["error"]
        assert stored(app) == 0


def test_one_address_keeps_only_so_many_unfinished_tables(tmp_path: Path) -> None:
    """Issue 24, point 4: abandoned tables cannot lock everyone out: one address may keep
    ``open_tables_per_address`` unfinished tables (429 with a sentence beyond), while
    another address still creates."""
    limits = Limits(creations="1000/minute", open_tables_per_address=2)
    app = create_app(sqlite_url(tmp_path), limits=limits)
    with TestClient(app, client=("203.0.113.7", 5000)) as attacker:
        for _ in range(2):
            create(attacker, PERSON_AND_BOT)
        refused = attacker.post("/api/tables", json=PERSON_AND_BOT)
        assert refused.status_code == 429
        assert "your address already has 2 unfinished games" in refused.json()["error"]
        assert stored(app) == 2
    with TestClient(app, client=("198.51.100.4", 5000)) as other:
        create(other, PERSON_AND_BOT)
    assert stored(app) == 3


def _failure(app: Starlette, table_id: str) -> str | None:
    row = app.state.storage.table(table_id)
    assert row is not None
    failure: str | None = row.failure
    return failure


def test_a_table_of_bots_only_stops_at_its_decision_limit(tmp_path: Path) -> None:
    """Issue 24, point 4: all-bot tables cannot run for ever: after ``bot_table_steps``
    decisions the table stops, stored and told on its page; a table with a person is
    not stopped by it."""
    limits = Limits(creations="1000/minute", bot_table_steps=12)
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=limits)
    with TestClient(app) as client:
        bots = create(client, {"game": "ankh-morpork", "seats": ["random"] * 4})
        until(lambda: _failure(app, bots["table"]) is not None, "the bot table never stopped")
        assert app.state.storage.actions(bots["table"]).__len__() == 12
        assert _failure(app, bots["table"]) == ("stopped: a table of bots only may take at "
                                                "most 12 decisions")
        page = client.get(f"/api/view/{token_of(bots['spectator'])}").json()
        assert page["table"]["failed"] == _failure(app, bots["table"])
        mixed = create(client, PERSON_AND_BOT)
        assert _failure(app, mixed["table"]) is None


def test_a_table_of_bots_only_stops_after_its_hours(tmp_path: Path) -> None:
    """Issue 24, point 4: an all-bot table also stops after ``bot_table_hours``."""
    limits = Limits(creations="1000/minute", bot_table_hours=0.5 / 3600)
    app = create_app(sqlite_url(tmp_path), bot_delay=0.05, limits=limits)
    with TestClient(app) as client:
        bots = create(client, {"game": "guards-guards", "seats": ["random"] * 2})
        until(lambda: _failure(app, bots["table"]) is not None, "the bot table never stopped")
        assert _failure(app, bots["table"]) == ("stopped: a table of bots only may play for "
                                                "at most 0.000138889 hours")
        assert app.state.storage.table(bots["table"]).finished is False


def _age(app: Starlette, table_id: str, hours: float, *, moves: bool) -> None:
    """Make table ``table_id`` (and, with ``moves``, its stored actions) ``hours`` old."""
    then = datetime.now(UTC) - timedelta(hours=hours)
    with app.state.storage.engine.begin() as conn:
        conn.execute(update(tables).where(tables.c.id == table_id).values(created=then))
        if moves:
            conn.execute(update(actions).where(actions.c.table_id == table_id).values(at=then))


def test_abandoned_tables_are_closed_then_deleted(tmp_path: Path) -> None:
    """Issue 24, point 4, the retention rule: an unfinished table with no move for
    ``abandon_hours`` (or none at all ``unstarted_hours`` after it was made) is closed as
    abandoned: its page says so, it no longer counts against the limits; ``delete_days``
    after that it is deleted with its links. A table in play is kept."""
    limits = Limits(creations="1000/minute", open_tables=2, open_tables_per_address=1000)
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=limits)
    with TestClient(app) as client:
        idle = create(client, {"game": "ankh-morpork", "seats": ["random", "human"],
                               "seed": 3})
        until(lambda: app.state.storage.actions(idle["table"]), "the bot never moved")
        never = create(client, {"game": "ankh-morpork", "seats": ["human", "human"]})
        assert client.post("/api/tables", json=PERSON_AND_BOT).status_code == 503
        _age(app, idle["table"], 73, moves=True)
        _age(app, never["table"], 25, moves=False)
        kept = idle["table"], never["table"]
        closed, deleted = client.portal.call(app.state.tables.retain)  # type: ignore[union-attr]
        assert sorted(closed) == sorted(kept) and deleted == []
        assert _failure(app, idle["table"]) == "closed as abandoned: no move for 72 hours"
        assert _failure(app, never["table"]) == ("closed as abandoned: no move in the 24 "
                                                 "hours after it was made")
        page = client.get(f"/api/view/{person(idle)}").json()
        assert page["table"]["failed"].startswith("closed as abandoned")
        assert page["choices"] == []
        playing = create(client, PERSON_AND_BOT)  # room again
        with app.state.storage.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id.in_(kept))
                         .values(closed=datetime.now(UTC) - timedelta(days=31)))
        closed, deleted = client.portal.call(app.state.tables.retain)  # type: ignore[union-attr]
        assert closed == [] and sorted(deleted) == sorted(kept)
        assert client.get(f"/api/view/{person(idle)}").status_code == 404
        assert app.state.storage.table(idle["table"]) is None
        assert app.state.storage.actions(idle["table"]) == []
        assert _failure(app, playing["table"]) is None


def test_the_retention_rule_can_keep_closed_tables_for_ever(tmp_path: Path) -> None:
    """Issue 24, point 4: with ``delete_days`` 0 a closed table is never deleted."""
    limits = Limits(creations="1000/minute", delete_days=0)
    app = create_app(sqlite_url(tmp_path), limits=limits)
    with TestClient(app) as client:
        table = create(client, PERSON_AND_BOT)["table"]
        _age(app, table, 10000, moves=False)
        closed, _deleted = client.portal.call(app.state.tables.retain)  # type: ignore[union-attr]
        assert closed == [table]
        with app.state.storage.engine.begin() as conn:
            conn.execute(update(tables).values(closed=datetime.now(UTC) - timedelta(days=9999)))
        assert client.portal.call(app.state.tables.retain) == ([], [])  # type: ignore[union-attr]
        assert app.state.storage.table(table) is not None


@pytest.mark.parametrize("option, value, message", [
    ("--abandon-hours", "0", "more than 0"), ("--unstarted-hours", "-1", "more than 0"),
    ("--delete-days", "-1", "0 or more"), ("--bot-table-hours", "nan", "more than 0"),
    ("--bot-table-steps", "0", "at least 1"), ("--tables-per-address", "x", "whole number"),
    ("--setup-time-limit", "0", "more than 0"), ("--delete-days", "1e9", "at most"),
])
def test_serve_refuses_bad_limits(option: str, value: str, message: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, points 1 and 4: a wrong serve option is a clear error (exit 2) and starts
    nothing."""
    from citywatch.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["serve", option, value])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
