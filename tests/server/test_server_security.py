"""The web server against an attacker (issue 15; threat model in docs/server.md): secret
seeds, bounded bots, same-origin writes, limits, security headers and verifiable records.
Each test names the point of issue 15 it checks."""

from __future__ import annotations

import json
import secrets
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import bot_faults
import pytest
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
)
from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect
from test_server import humans, new_table, play, sqlite_url, token_of, view, wait_for_person

import citywatch
from citywatch.cli import main
from citywatch.core.rng import SecureRng, is_secret_seed
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.server import create_app
from citywatch.server.botpool import BotPool
from citywatch.server.storage import engine_url
from citywatch.server.tables import Limits

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GAME = citywatch.load("ankh-morpork")
DEADLINE = 90.0
JSON_TYPE = {"Content-Type": "application/json"}
OPEN = Limits(creations="1000/minute", open_tables_per_address=100000)
"""Limits that let a test create as many tables as it needs."""


@pytest.fixture
def app(tmp_path: Path) -> Starlette:
    return create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN)


def stored_tables(app: Starlette) -> int:
    with app.state.storage.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM tables").scalar_one())


def until(condition: Any, what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.01)


# 1. Hidden information: secret seeds

def _seen_by_seat_0(view: dict[str, Any]) -> str:
    """What the old attack matched: seat 0's hand in draw order, its personality, who starts."""
    return json.dumps([view["hand"], view["seats"][0]["personality"], view["current"]])


def _search(players: int, seen: str, seeds: range) -> int | None:
    """The attack of issue 15: try every seed of a range of the old 32-bit space."""
    for seed in seeds:
        if _seen_by_seat_0(GAME.new_game(players, seed).view(0)) == seen:
            return seed
    return None


def test_no_search_over_32_bit_seeds_finds_a_server_tables_seed(
        app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15.1: a table's game comes from 256 secret bits, not a 32-bit seed. Even if every
    32-bit number the server drew were 1234, a search over 2,048 old seeds around it that
    finds a 32-bit-seeded deal does not find the server's."""
    searched = range(2048)
    assert _search(2, _seen_by_seat_0(GAME.new_game(2, 1234).view(0)), searched) == 1234
    monkeypatch.setattr(secrets, "randbits", lambda bits: 1234 % (1 << bits))
    with TestClient(app) as client:
        seen = set()
        for _ in range(3):
            created = new_table(client, ["human", "random"], seed=None)
            assert created["practice"] is False
            data = view(client, humans(created)[0])
            assert data["table"]["practice"] is False
            assert _search(2, _seen_by_seat_0(data["view"]), searched) is None
            seen.add(_seen_by_seat_0(data["view"]))
            row = app.state.storage.table(created["table"])
            assert is_secret_seed(row.seed) and len(row.seed) == len("blake2b:") + 64
            live = app.state.tables._live[created["table"]]
            assert isinstance(live.state, AnkhMorporkState)
            assert isinstance(live.state.rng, SecureRng)
        assert len(seen) == 3


def test_a_chosen_seed_is_for_one_person_or_a_practice_table(app: Starlette) -> None:
    """Issue 15.1: whoever types a seed knows the game; with two people the table must be
    marked practice, and every seat's page is told so."""
    with TestClient(app) as client:
        body = {"game": "ankh-morpork", "seats": ["human", "human", "random"], "seed": 7}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400
        assert "practice" in refused.json()["error"]
        assert stored_tables(app) == 0
        assert client.post("/api/tables", json={**body, "practice": "yes"}).status_code == 400
        no_seed = {"game": "ankh-morpork", "seats": ["human", "human"], "practice": True}
        assert client.post("/api/tables", json=no_seed).status_code == 400
        created = client.post("/api/tables", json={**body, "practice": True}).json()
        assert created["practice"] is True
        for token in [*humans(created).values(), token_of(created["spectator"])]:
            assert view(client, token)["table"]["practice"] is True
        alone = new_table(client, ["human", "random"], seed=9)
        assert view(client, humans(alone)[0])["table"]["practice"] is True
        assert app.state.storage.table(alone["table"]).seed == 9


# 2. Denial of service: named bot levels, a bounded pool, failures shown

@pytest.mark.parametrize("spec", [
    "ismcts:iterations=1000000000", "ismcts:depth=100000", "heuristic:lookahead=1000000",
    "heuristic:width=100000", "ismcts:evaluator=x", "ismcts:policy=1", "ismcts:seconds=9999",
    "random:x=1", "hard:iterations=100000"])
def test_bot_options_are_refused(app: Starlette, spec: str) -> None:
    """Issue 15.2: the server offers named bot levels only; no option reaches a bot."""
    with TestClient(app) as client:
        response = client.post("/api/tables", json={"game": "ankh-morpork",
                                                    "seats": ["human", spec]})
        assert response.status_code == 400
        assert "easy, normal, hard, heuristic, ismcts, random (no options)" in \
            response.json()["error"]
        assert stored_tables(app) == 0


def test_internal_bot_arguments_are_refused_everywhere() -> None:
    """Issue 15.2: a spec never sets a bot's internal arguments (evaluator, policy)."""
    from citywatch.bots import make_bot

    for spec in ("ismcts:evaluator=x", "ismcts:policy=1", "heuristic:evaluator=1"):
        with pytest.raises(ValueError, match="takes only"):
            make_bot(spec, "ankh-morpork")
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("random:depth=1", "ankh-morpork")


OLD_METADATA = MetaData()
Table("tables", OLD_METADATA,
      Column("id", String(64), primary_key=True), Column("game", String(64), nullable=False),
      Column("players", Integer, nullable=False), Column("seed", BigInteger, nullable=False),
      Column("seats", JSON, nullable=False),
      Column("created", DateTime(timezone=True), nullable=False),
      Column("finished", Boolean, nullable=False, default=False))
Table("tokens", OLD_METADATA,
      Column("token", String(64), primary_key=True),
      Column("table_id", String(64), ForeignKey("tables.id"), nullable=False, index=True),
      Column("seat", Integer, nullable=False))
Table("actions", OLD_METADATA,
      Column("table_id", String(64), ForeignKey("tables.id"), nullable=False),
      Column("n", Integer, nullable=False), Column("action", Text, nullable=False),
      PrimaryKeyConstraint("table_id", "n"))
"""The schema of the first release, before secret seeds, failures, notices and digests."""


def _old_database(url: str, seats: list[str], seed: int, actions: list[Any]) -> None:
    """A database at ``url`` as the first release wrote it, with one unfinished table."""
    engine = create_engine(engine_url(url))
    OLD_METADATA.create_all(engine)
    tables, tokens, rows = (OLD_METADATA.tables[name] for name in ("tables", "tokens", "actions"))
    with engine.begin() as conn:
        conn.execute(tables.insert().values(
            id="old", game="ankh-morpork", players=len(seats), seed=seed, seats=seats,
            created=datetime(2026, 1, 1, tzinfo=UTC), finished=False))
        conn.execute(tokens.insert(), [{"token": "person-token", "table_id": "old", "seat": 0},
                                       {"token": "watch-token", "table_id": "old", "seat": -1}])
        if actions:
            conn.execute(rows.insert(), [{"table_id": "old", "n": n, "action": json.dumps(a)}
                                         for n, a in enumerate(actions, start=1)])
    engine.dispose()


def _first_seat_moves(players: int, seed: int) -> list[Any]:
    """The JSON of seat 0's first actions (its first legal one each time) until another
    seat is to decide."""
    state = GAME.new_game(players, seed)
    taken = []
    while state.to_move == 0:
        action = state.legal_actions()[0]
        state.apply(action)
        taken.append(action.to_json())
    return taken


def test_a_stored_table_with_unbounded_bots_resumes_with_offered_levels(tmp_path: Path) -> None:
    """Issue 15.2: tables stored with any bot options (by an earlier version) resume after a
    restart with the offered level of the same bot, told on the page; the old database gains
    the new columns and keeps every action."""
    check_unbounded_bots_resume_with_offered_levels(sqlite_url(tmp_path, "old.db"))


def check_unbounded_bots_resume_with_offered_levels(url: str) -> None:
    """The check of the test above on the (empty) database at ``url``."""
    taken = _first_seat_moves(3, 3)
    _old_database(url, ["human", "ismcts:iterations=1000000000:evaluator=x",
                        "heuristic:lookahead=99999"], 3, taken)
    app = create_app(url, bot_delay=0)
    with TestClient(app) as client:
        until(lambda: len(app.state.storage.actions("old")) > len(taken) + 1,
              "the bots did not move")
        data = view(client, "watch-token")
        notices = data["table"]["notices"]
        assert len(notices) == 2
        assert notices[0].startswith("Blue's bot (ismcts:iterations=1000000000:evaluator=x) is "
                                     "not offered by this server; the ismcts bot plays")
        assert "the heuristic bot plays" in notices[1]
        assert data["table"]["practice"] is True  # a 32-bit seed can be searched for
        assert app.state.storage.table("old").seats == ["human", "ismcts", "heuristic"]
        assert app.state.storage.actions("old")[:len(taken)] == taken
        # issue 16: the old database gained the names column, and a person's seat is named
        assert data["table"]["names"] == [None, None, None]
        named = client.post("/api/name/person-token", json={"name": " Ann "})
        assert named.json() == {"ok": True, "name": "Ann"}
        assert app.state.storage.table("old").names == ("Ann", None, None)


def test_people_never_wait_for_bots(tmp_path: Path) -> None:
    """Issue 15.2: with forty tables whose bots think forever, pages, new tables and people's
    decisions are still answered at once: bots think in a bounded pool of processes."""
    pool = BotPool(1, 3600, bot_faults.hang)
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN, pool=pool)
    with TestClient(app) as client:
        for _ in range(40):
            new_table(client, ["heuristic", "ismcts", "random"], seed=None)
        created = new_table(client, ["human", "human"], seed=None)
        people = humans(created)
        start = time.monotonic()
        assert client.get("/").status_code == 200
        assert client.get(f"/play/{people[0]}").status_code == 200
        assert play(client, people, limit=20) == 20
        assert time.monotonic() - start < 30


def test_a_bot_that_runs_out_of_time_is_replaced_and_the_game_ends(tmp_path: Path) -> None:
    """Issue 15.2: a per-decision time limit; a bot over it is replaced by the random bot,
    every seat is told, and the game goes on to its end."""
    pool = BotPool(1, 1.0, bot_faults.hang_unless_random)
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN, pool=pool)
    with TestClient(app) as client:
        created = new_table(client, ["random", "ismcts", "human"], seed=None)
        people = humans(created)
        play(client, people)
        data = view(client, people[2])
        assert data["view"]["result"] is not None
        assert data["table"]["failed"] is None
        assert data["table"]["notices"] == [
            "Blue's bot (ismcts) took longer than 1 seconds to decide; the random bot plays "
            "for Blue from now on."]
        record = client.get(f"/api/record/{people[2]}").json()
        assert record["meta"]["seats"] == ["random", "random", "human"]


def test_a_table_whose_bots_keep_failing_is_marked_failed(tmp_path: Path) -> None:
    """Issue 15.2: a bot that fails is replaced; when the replacement fails too the table is
    marked failed, on every page and after a restart, never left waiting silently."""
    check_failing_bots_fail_the_table(sqlite_url(tmp_path))


def check_failing_bots_fail_the_table(url: str) -> None:
    """The check of the test above on the database at ``url``."""
    app = create_app(url, bot_delay=0, limits=OPEN, pool=BotPool(1, 10, bot_faults.always_crash))
    assert GAME.new_game(2, 0).to_move == 1
    with TestClient(app) as client:
        created = new_table(client, ["human", "heuristic"], seed=0)
        person = humans(created)[0]
        until(lambda: view(client, person)["table"]["failed"] is not None, "not marked failed")
        about = view(client, person)["table"]
        assert about["notices"] == ["Blue's bot (heuristic) stopped with an error; the random "
                                    "bot plays for Blue from now on."]
        assert about["failed"] == ("Blue's bot (random) stopped with an error; the game cannot "
                                   "go on")
        response = client.post(f"/api/act/{person}", json={"step": 0, "action": {}})
        assert response.status_code == 409
        assert "failed" in response.json()["error"]
        assert created["table"] not in app.state.storage.unfinished()
    with TestClient(create_app(url, bot_delay=0)) as client:
        assert view(client, person)["table"]["failed"] == about["failed"]
        assert view(client, person)["step"] == 0


# 3. Cross-site requests

def test_writes_must_be_json(app: Starlette) -> None:
    """Issue 15.3: text/plain and form bodies (which a page of any site may send without
    asking) are refused; only application/json is read."""
    body = json.dumps({"game": "ankh-morpork", "seats": ["human", "random"]})
    with TestClient(app) as client:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                     None):
            headers = {"Content-Type": kind} if kind else {}
            response = client.post("/api/tables", content=body, headers=headers)
            assert response.status_code == 415, kind
            assert "application/json" in response.json()["error"]
        assert stored_tables(app) == 0
        ok = client.post("/api/tables", content=body,
                         headers={"Content-Type": "application/json; charset=utf-8"})
        assert ok.status_code == 200


def test_pages_of_other_origins_cannot_change_anything(tmp_path: Path) -> None:
    """Issue 15.3: Origin is checked on state-changing requests and WebSocket upgrades."""
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN,
                     origins=["https://games.example.org"])
    body = {"game": "ankh-morpork", "seats": ["human", "human"]}
    with TestClient(app) as client:
        for origin in ("http://evil.example", "null", "http://testserver.evil.example",
                       "file://", "https://testserver:444"):
            response = client.post("/api/tables", json=body, headers={"Origin": origin})
            assert response.status_code == 403, origin
            assert response.json()["error"] == "requests from pages of other sites are refused"
        response = client.post("/api/tables", json=body, headers={"Sec-Fetch-Site": "cross-site"})
        assert response.status_code == 403
        assert stored_tables(app) == 0
        for origin in ("http://testserver", "https://games.example.org"):
            assert client.post("/api/tables", json=body,
                               headers={"Origin": origin}).status_code == 200
        created = new_table(client, ["human", "human"], seed=None)
        people = humans(created)
        seat, data = wait_for_person(client, people) or pytest.fail("no decision")
        act = {"step": data["step"], "action": data["view"]["decision"]["actions_json"][0]}
        response = client.post(f"/api/act/{people[seat]}", json=act,
                               headers={"Origin": "http://evil.example"})
        assert response.status_code == 403
        assert view(client, people[seat])["step"] == data["step"]
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
                f"/ws/{people[seat]}", headers={"Origin": "http://evil.example"}) as ws:
            ws.receive_json()
        assert refused.value.code == 1008
        with client.websocket_connect(f"/ws/{people[seat]}",
                                      headers={"Origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "state"
        assert client.get("/", headers={"Origin": "http://evil.example"}).status_code == 200


def test_other_host_names_are_refused_when_the_server_names_its_hosts(tmp_path: Path) -> None:
    """Issue 15.3: on loopback the server answers only to its own names, so a page whose
    name was made to point at it (DNS rebinding) is refused."""
    app = create_app(sqlite_url(tmp_path), allowed_hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/").status_code == 200
    with TestClient(app, base_url="http://evil.example:8000") as client:
        assert client.get("/").status_code == 400
        assert client.post("/api/tables", json={}).status_code == 400


# 4. Limits

def test_websocket_connections_per_link_and_in_all_are_capped(tmp_path: Path) -> None:
    """Issue 15.4: a link may hold a few connections, the server a bounded number."""
    app = create_app(sqlite_url(tmp_path), limits=Limits(sockets_per_link=2, sockets=3))
    with TestClient(app) as client:
        created = new_table(client, ["human", "human"], seed=None)
        first, second = (f"/ws/{token}" for token in humans(created).values())
        with client.websocket_connect(first) as a, client.websocket_connect(first) as b:
            a.receive_json()
            b.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed, \
                    client.websocket_connect(first) as c:
                c.receive_json()
            assert closed.value.code == 1008 and "2 open connections" in closed.value.reason
            with client.websocket_connect(second) as d:
                d.receive_json()
                with pytest.raises(WebSocketDisconnect) as full, \
                        client.websocket_connect(second) as e:
                    e.receive_json()
                assert full.value.code == 1013
        with client.websocket_connect(first) as again:
            assert again.receive_json()["type"] == "state"


def test_websocket_messages_are_as_small_as_http_bodies(app: Starlette) -> None:
    """Issue 15.4: a WebSocket message over 64 KB closes the connection (1009)."""
    with TestClient(app) as client:
        created = new_table(client, ["human", "human"], seed=None)
        token = humans(created)[0]
        with client.websocket_connect(f"/ws/{token}") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "act", "step": 0, "action": "x" * 70_000}))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
        assert view(client, token)["step"] == 0


def test_deeply_nested_json_is_a_clear_400(app: Starlette) -> None:
    """Issue 15.4: nesting that would overflow the parser is refused, not a 500."""
    deep = "[" * 30_000 + "]" * 30_000
    with TestClient(app) as client:
        response = client.post("/api/tables", content=deep, headers=JSON_TYPE)
        assert response.status_code == 400
        assert response.json() == {"error": "the request body is nested too deeply"}
        created = new_table(client, ["human", "human"], seed=None)
        token = humans(created)[0]
        response = client.post(f"/api/act/{token}", headers=JSON_TYPE,
                               content='{"step": 0, "action": ' + deep + "}")
        assert response.status_code == 400
        with client.websocket_connect(f"/ws/{token}") as ws:
            ws.receive_json()
            ws.send_text(deep)
            error = ws.receive_json()
            assert error["type"] == "error" and "nested too deeply" in error["error"]
        assert view(client, token)["step"] == 0


def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    """Issue 15.4: an address creates a bounded number of tables per window (429)."""
    app = create_app(sqlite_url(tmp_path), limits=Limits(creations="3/minute"))
    body = {"game": "ankh-morpork", "seats": ["human", "random"]}
    with TestClient(app) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=body).status_code == 200
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert refused.json()["error"].startswith("too many new tables from your address")
        assert stored_tables(app) == 3


def test_unfinished_tables_are_capped(tmp_path: Path) -> None:
    """Issue 15.4: the server keeps a bounded number of unfinished tables (503 beyond)."""
    app = create_app(sqlite_url(tmp_path), limits=Limits(open_tables=2), bot_delay=0)
    body = {"game": "ankh-morpork", "seats": ["human", "random"]}
    with TestClient(app) as client:
        first = client.post("/api/tables", json=body).json()
        assert client.post("/api/tables", json=body).status_code == 200
        full = client.post("/api/tables", json=body)
        assert full.status_code == 503
        assert "2 unfinished games" in full.json()["error"]
        assert stored_tables(app) == 2
        play(client, humans(first))
        assert client.post("/api/tables", json=body).status_code == 200


# 5. Headers and records

@pytest.fixture
def served(app: Starlette) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    with TestClient(app) as client:
        yield client, new_table(client, ["human", "random"], seed=None)


def test_every_response_carries_the_security_headers(
        served: tuple[TestClient, dict[str, Any]]) -> None:
    """Issue 15.5: CSP, no framing, no Referer (tokens live in URLs), no caching of tokens."""
    client, created = served
    token = humans(created)[0]
    for path in ("/", f"/play/{token}", f"/replay/{token}", "/static/app.js",
                 f"/api/view/{token}", "/api/view/nobody", "/nowhere"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "script-src 'self'" in csp and "unsafe" not in csp
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
        if path.startswith(("/play/", "/replay/", "/api/")):
            assert headers["cache-control"] == "no-store"
    refused = client.post("/api/tables", content="{}", headers={"Origin": "http://evil.example",
                                                                 **JSON_TYPE})
    assert refused.headers["x-frame-options"] == "DENY"


def test_server_records_carry_digests_that_replay_verify_checks(
        served: tuple[TestClient, dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15.5: a finished table's record has the state digest after every action, and
    ``citywatch replay --verify`` checks them (and names an action whose digest differs)."""
    client, created = served
    token = humans(created)[0]
    play(client, {0: token})
    record = client.get(f"/api/record/{token}").json()
    assert is_secret_seed(record["seed"])
    assert len(record["digests"]) == len(record["actions"]) > 10
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--verify"]) == 0
    record["digests"][7] = "0" * 16
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--verify"]) == 1
    assert "action 8" in capsys.readouterr().err


def test_records_of_tables_stored_before_digests_have_them_too(tmp_path: Path) -> None:
    """Issue 15.5: a table whose actions were stored before digests were kept still gets a
    record with digests (and the state's, replayed, equal the stored ones of new actions)."""
    url = sqlite_url(tmp_path, "old.db")
    taken = _first_seat_moves(2, 3)
    _old_database(url, ["human", "random"], 3, taken)
    app = create_app(url, bot_delay=0)
    with TestClient(app) as client:
        play(client, {0: "person-token"})
        record = client.get("/api/record/person-token").json()
    stored = [d for _a, d in app.state.storage.actions_and_digests("old")]
    assert stored[:len(taken)] == [None] * len(taken) and None not in stored[len(taken):]
    assert record["digests"][len(taken):] == stored[len(taken):]
    citywatch.replay(record, verify=True)


def test_serve_options_for_the_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15.2 and 15.4: ``serve`` sets the bot pool, the time limit and the limits; on
    loopback it answers only to loopback names; a bad value is a clear error."""
    import uvicorn

    ran: list[tuple[Starlette, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append((app, kw)))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    assert main(["serve", "--table-rate", "5/minute", "--max-open-tables", "3",
                 "--bot-time-limit", "2.5", "--bot-workers", "1"]) == 0
    app, options = ran[0]
    assert options["ws_max_size"] == 64 * 1024
    tables = app.state.tables
    assert tables.limits == Limits(open_tables=3, creations="5/minute")
    assert (tables.pool.workers, tables.pool.time_limit) == (1, 2.5)
    with TestClient(app, base_url="http://localhost:8000") as client:
        assert client.get("/").status_code == 200
    with TestClient(app, base_url="http://rebound.example:8000") as client:
        assert client.get("/").status_code == 400
    for bad in (["--table-rate", "lots"], ["--bot-time-limit", "0"], ["--bot-workers", "0"],
                ["--max-open-tables", "x"]):
        with pytest.raises(SystemExit):
            main(["serve", *bad])
        assert "error" in capsys.readouterr().err
