"""Issue 26 on the server: the end screen's breakdown in every state, a rematch at the same
seats (each person's own link leads only to their own new seat), records named after the game,
day and table, and a public replay id that carries no seat and never shows a seat's hidden
cards during the game."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from test_server import (
    DEADLINE,
    TestClient,
    humans,
    sqlite_url,
    token_of,
    view,
)

import citywatch
from citywatch.core.api import Game
from citywatch.core.record import replay
from citywatch.server import create_app
from citywatch.server.storage import Storage
from citywatch.server.tables import end_json

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

KEEP = "black-keep"
"""A game whose first choices end within a few decisions (a thief walks out)."""


def create(client: TestClient, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    """A new table of ``game`` (more of the request in ``body``)."""
    response = client.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def first_choices(client: TestClient, people: dict[int, str], limit: int = 400) -> int:
    """Each person takes their first choice until the game ends; the decisions taken."""
    taken = 0
    end = time.monotonic() + DEADLINE
    while taken < limit:
        moved = False
        for token in people.values():
            data = view(client, token)
            if data["table"]["over"]:
                return taken
            if data["choices"]:
                answer = client.post(f"/api/act/{token}", json={
                    "step": data["step"], "action": data["choices"][0]["json"]})
                assert answer.status_code in (200, 409), answer.text
                taken += answer.status_code == 200
                moved = True
        if not moved:
            assert time.monotonic() < end, "the bots did not move"
            time.sleep(0.005)
    return taken


def test_the_end_breakdown_is_in_every_state_once_the_game_is_over(tmp_path: Path) -> None:
    """Issue 26: while the game runs ``end`` is null; once it is over every seat and the
    spectator get the same ``end``: ``Game.score_breakdown`` as JSON, one entry per seat with
    its colour, parts adding up to its points, its result and what the end reveals."""
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        created = create(client, KEEP, ["human", "human"], options={"mode": "rivals"})
        people = humans(created)
        spectator = token_of(created["spectator"])
        assert view(client, spectator)["end"] is None
        first_choices(client, people)
        record = client.get(f"/api/record/{spectator}").json()
        final = replay(record)
        colours = [view(client, token)["table"]["colours"] for token in people.values()][0]
        wanted = end_json(final, colours)
        assert wanted is not None
        for token in (*people.values(), spectator):
            assert view(client, token)["end"] == wanted
        outcome = final.outcome()
        assert outcome is not None
        assert [s["points"] for s in wanted["seats"]] == list(outcome.seat_points() or ())
        for seat in wanted["seats"]:
            assert seat["points"] == sum(p["points"] for p in seat["parts"])
            assert seat["result"]


def test_a_rematch_keeps_the_seats_levels_names_and_options(tmp_path: Path) -> None:
    """Issue 26: once the game is over, a person's link sets up the rematch: the same game,
    options, seats (bots at their levels) and names, a new secret seed. Each person's own link
    then leads to their own seat there and to no other; a second person asking gets the same
    table; the spectator link, once it exists, leads to its spectator link. Every page is told
    a rematch exists."""
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        seats = ["human", "easy", "human"]
        options = {"mode": "rivals", "difficulty": "hard"}
        created = create(client, KEEP, seats, names=["Ann", None, "Bob"], options=options)
        people = humans(created)
        spectator = token_of(created["spectator"])
        early = client.post(f"/api/rematch/{people[0]}", json={})
        assert early.status_code == 409 and "over" in early.json()["error"]
        assert client.post(f"/api/rematch/{people[0]}", content="{}",
                           headers={"Content-Type": "text/plain"}).status_code == 415
        assert client.post(f"/api/rematch/{people[0]}", json={"seat": 1}).status_code == 400
        assert client.post(f"/api/rematch/{people[0]}", json={},
                           headers={"Origin": "http://evil.example"}).status_code == 403
        first_choices(client, people)
        assert client.post(f"/api/rematch/{spectator}", json={}).status_code == 409  # none yet
        asked = client.post(f"/api/rematch/{people[2]}", json={})
        assert asked.status_code == 200, asked.text
        bob = asked.json()
        assert bob["created"] is True and bob["link"].startswith("/play/")
        again = client.post(f"/api/rematch/{people[0]}", json={}).json()
        assert again["table"] == bob["table"] and again["created"] is False
        watcher = client.post(f"/api/rematch/{spectator}", json={}).json()
        assert watcher["table"] == bob["table"]
        links = {0: again["link"], 2: bob["link"], None: watcher["link"]}
        assert len(set(links.values())) == 3
        assert set(links.values()).isdisjoint(
            {s["link"] for s in created["seats"]} | {created["spectator"]})
        for seat, link in links.items():
            data = view(client, token_of(link))
            assert data["seat"] == seat, "a link leads only to the seat it held"
            assert data["step"] >= 0 and not data["table"]["over"]
            assert data["table"]["names"] == ["Ann", None, "Bob"]
            assert data["table"]["bots"] == [None, "easy", None]
            assert data["table"]["options"] == {"difficulty": "hard", "mode": "rivals"}
        assert view(client, people[0])["table"]["rematch"] is True
        storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
        old, new = storage.table(created["table"]), storage.table(bob["table"])
        assert old is not None and new is not None and old.rematch == new.id
        assert (new.game, new.seats, new.options) == (old.game, old.seats, old.options)
        assert isinstance(new.seed, str) and new.seed != old.seed  # a new secret seed
        assert new.replay and new.replay != old.replay


def test_the_record_is_named_after_the_game_the_day_and_the_table(tmp_path: Path) -> None:
    """Issue 26: a downloaded record's file name is ``<game>-<YYYY-MM-DD>-table-<id>.json``
    (the day the table was made), whichever link asks."""
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        created = create(client, KEEP, ["human"])
        people = humans(created)
        first_choices(client, people)
        made = client.app.state.storage.table(created["table"]).created  # type: ignore
        name = f"{KEEP}-{made:%Y-%m-%d}-table-{created['table']}.json"
        for key in (people[0], token_of(created["spectator"]),
                    created["replay"].removeprefix("/replay/")):
            answer = client.get(f"/api/record/{key}")
            assert answer.status_code == 200
            assert answer.headers["content-disposition"] == f'attachment; filename="{name}"'
        assert re.fullmatch(rf"{KEEP}-\d{{4}}-\d\d-\d\d-table-[\w-]+\.json", name)


def hidden_texts(game: Game, state: Any) -> set[str]:
    """The names in each seat's hand (as its own view holds it) that the spectator's view
    and log never show: what a seat holds hidden right now."""
    public = json.dumps([state.view(None), state.log(-1)])
    hidden = set()
    for seat in range(state.players):
        for card in game.type.hand(state.view(seat)) or []:
            name = card.get("name") if isinstance(card, dict) else card
            if isinstance(name, str) and len(name) > 3 and name not in public:
                hidden.add(name)
    return hidden


def test_the_public_replay_never_shows_a_hidden_card_during_the_game(tmp_path: Path) -> None:
    """Issue 26: the public replay id carries no seat: during the game ``/api/replay/<id>``
    answers each step with exactly what a spectator saw then (``view(None)``, the public
    log), no action's text, and none of the cards any seat held hidden at that step; the
    page for it is the replay page, and a seat's old ``/replay/<token>`` link is redirected
    to it. It cannot act, name or set up a rematch."""
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=0)) as client:
        created = create(client, "ankh-morpork", ["human", "human", "random"], seed=5,
                         practice=True)
        people = humans(created)
        public = created["replay"].removeprefix("/replay/")
        assert public not in {token_of(s["link"]) for s in created["seats"] if s["link"]}
        first_choices(client, people, limit=25)
        steps = view(client, people[0])["step"]
        assert view(client, people[0])["table"]["replay"] == public
        game = citywatch.load("ankh-morpork")
        taken = replay_actions(client, people[0], steps)
        state = game.new_game(3, 5)
        found_hidden = 0
        for k in range(steps + 1):
            if k:
                state.apply(game.action_from_json(taken[k - 1]))
            answer = client.get(f"/api/replay/{public}?step={k}")
            assert answer.status_code == 200, answer.text
            shown = answer.json()
            assert (shown["over"], shown["action"], shown["end"]) == (False, None, None)
            assert shown["view"] == state.view(None) and shown["log"] == state.log(-1)
            hidden = hidden_texts(game, state)
            found_hidden += len(hidden)
            assert not {name for name in hidden if name in answer.text}
        assert found_hidden > 0, "the seats held hidden cards the test looked for"
        assert client.get(f"/replay/{public}").status_code == 200
        moved = client.get(f"/replay/{people[0]}", follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (302, f"/replay/{public}")
        assert client.get(f"/api/record/{public}").status_code == 409
        assert client.post(f"/api/act/{public}", json={"step": steps, "action": {}}) \
            .status_code == 404
        assert client.post(f"/api/rematch/{public}", json={}).status_code == 404
        assert client.get(f"/api/view/{public}").status_code == 404


def replay_actions(client: TestClient, token: str, steps: int) -> list[Any]:
    """The actions of the table so far, read as its seat ``token`` may: from the server's
    database (the test's own knowledge, not an answer any link gets during the game)."""
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    found = storage.token(token)
    assert found is not None
    actions = storage.actions(found[0])
    assert len(actions) == steps
    return actions


def test_an_older_database_gives_every_table_its_own_replay_id(tmp_path: Path) -> None:
    """Issue 26: a database written before replay ids gains the column when opened, and each
    table it holds a replay id of its own (unique, like a new table's)."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # the first release's schema
        db.executescript("""
            CREATE TABLE tables (id VARCHAR(64) PRIMARY KEY, game VARCHAR(64) NOT NULL,
                players INTEGER NOT NULL, seed BIGINT NOT NULL, seats JSON NOT NULL,
                created DATETIME NOT NULL, finished BOOLEAN NOT NULL);
            CREATE TABLE tokens (token VARCHAR(64) PRIMARY KEY, table_id VARCHAR(64) NOT NULL
                REFERENCES tables (id), seat INTEGER NOT NULL);
            CREATE TABLE actions (table_id VARCHAR(64) NOT NULL REFERENCES tables (id),
                n INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, n));
            INSERT INTO tables VALUES ('a', 'ankh-morpork', 2, 1, '["human","human"]',
                '2026-01-01 00:00:00', 0);
            INSERT INTO tables VALUES ('b', 'ankh-morpork', 2, 2, '["human","human"]',
                '2026-01-01 00:00:00', 0);
        """)
    storage = Storage(f"sqlite:///{path}")
    try:
        rows = [storage.table(t) for t in ("a", "b")]
        ids = [row.replay for row in rows if row is not None]
        assert len(ids) == 2 and all(len(i) >= 20 for i in ids) and ids[0] != ids[1]
        assert [storage.replay_table(i) for i in ids] == ["a", "b"]
        assert all(row is not None and row.rematch is None for row in rows)
    finally:
        storage.close()
    again = Storage(f"sqlite:///{path}")  # opening again keeps them
    try:
        assert [r.replay for r in (again.table("a"), again.table("b")) if r] == ids
    finally:
        again.close()


def check_one_rematch(db_url: str) -> None:
    """Issue 26: two people asking for the rematch at the same moment, through two server
    processes' apps on one database (on PostgreSQL, two processes), get the same new table,
    each their own seat there."""
    with TestClient(create_app(db_url, bot_delay=0)) as one, \
            TestClient(create_app(db_url, bot_delay=0)) as two:
        created = create(one, KEEP, ["human", "human"], options={"mode": "rivals"})
        people = humans(created)
        first_choices(one, people)
        with ThreadPoolExecutor(2) as pool:
            asked = list(pool.map(lambda pair: pair[0].post(f"/api/rematch/{pair[1]}", json={}),
                                  [(one, people[0]), (two, people[1])]))
        assert [a.status_code for a in asked] == [200, 200], [a.text for a in asked]
        answers = [a.json() for a in asked]
        assert answers[0]["table"] == answers[1]["table"]
        assert sorted(a["created"] for a in answers) == [False, True]
        seats = [view(client, token_of(a["link"]))["seat"]
                 for client, a in zip((one, two), answers, strict=True)]
        assert seats == [0, 1]


def test_two_people_asking_at_once_get_one_rematch(tmp_path: Path) -> None:
    """Issue 26 (SQLite): see ``check_one_rematch``."""
    check_one_rematch(sqlite_url(tmp_path))
