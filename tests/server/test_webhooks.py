"""Issue 31, notifications by webhook: a seat of a turn-based table gives an address; the
server checks it (http or https, 500 characters, every resolved address global unless the
private option allows others) when it is set and again when it posts, connects to the address
it checked, and posts ``{"table", "game", "seat", "step", "text"}`` when that seat's turn
begins, from the process that stored the decision; the address stays the seat's own. No real
network: names are resolved by a stub, the receiver is a tiny HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from postgres_helpers import running_postgres
from sqlalchemy import inspect
from starlette.testclient import TestClient
from test_server import humans, sqlite_url, view
from test_server_security import _old_database
from web_helpers import create_tutorial

from citywatch.cli import main
from citywatch.core.registry import load
from citywatch.server import create_app
from citywatch.server.storage import Storage
from citywatch.server.tables import Tables
from citywatch.server.webhooks import (
    LONGEST,
    Target,
    WebhookError,
    WebhookRules,
    Webhooks,
    check_url,
    is_global_address,
    post,
)

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

PUBLIC = "93.184.215.14"
"""A global IPv4 address (never connected to: resolving is stubbed)."""
TURN_BASED = {"kind": "turn-based", "move": 86400, "stand_in": "easy"}
"""The creation option of a turn-based table: a day per decision."""
LIVE = {"kind": "live", "move": 60, "reserve": 300, "stand_in": "easy"}


def resolver(names: dict[str, list[str]]) -> Any:
    """A resolver stub: a host name -> its addresses in ``names``; an IP address -> itself."""
    def found(host: str, _port: int) -> list[str]:
        return names.get(host, [host])
    return found


class Receiver:
    """A tiny HTTP server on 127.0.0.1 (its own free port) keeping every POST it gets."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], Any]] = []
        received = self.posts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                size = int(self.headers.get("Content-Length", "0"))
                received.append((self.path, dict(self.headers.items()),
                                 json.loads(self.rfile.read(size))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """The receiving server, for one test."""
    found = Receiver()
    yield found
    found.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A server whose webhooks may reach private addresses; "hooks.test" resolves to
    127.0.0.1 and "public.test" to a global address."""
    db = tmp_path_factory.mktemp("webhooks") / "hooks.db"
    sender = Webhooks(WebhookRules(allow_private=True),
                      resolver({"hooks.test": ["127.0.0.1"], "public.test": [PUBLIC]}))
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=30, bot_workers=1,
                               webhooks=sender)) as test_client:
        yield test_client


def fresh_limits(client: TestClient) -> None:
    """Forget what the server counted for its rate limits (each test starts afresh)."""
    client.app.state.limiter = MovingWindowRateLimiter(MemoryStorage())  # type: ignore[attr-defined]


def tables_of(client: TestClient) -> Tables:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    assert isinstance(tables, Tables)
    return tables


def set_hook(client: TestClient, token: str, url: Any) -> Any:
    return client.post(f"/api/webhook/{token}", json={"url": url})


def play_first(client: TestClient, token: str) -> None:
    """Take the first choice of ``token``'s seat."""
    seen = view(client, token)
    answer = client.post(f"/api/act/{token}", json={"step": seen["step"],
                                                    "action": seen["choices"][0]["json"]})
    assert answer.status_code == 200, answer.text


def settled(client: TestClient) -> None:
    """Wait until no post is waiting or being sent."""
    deadline = time.monotonic() + 10
    while tables_of(client).webhooks.busy and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tables_of(client).webhooks.busy == 0


# --- the address rules ------------------------------------------------------------------------
@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "192.168.0.10", "169.254.169.254",
                                     "172.16.0.1", "0.0.0.0", "224.0.0.1", "::1", "fc00::1",
                                     "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::",
                                     "100.64.0.1", "240.0.0.1"])
def test_addresses_that_are_not_global_are_refused(address: str) -> None:
    """Issue 31: a webhook never reaches loopback, private, link-local, multicast, reserved or
    unspecified addresses, IPv4 or IPv6 (IPv4-mapped too), as a name's address or written in
    the URL, unless the server allows private addresses."""
    assert not is_global_address(address)
    stub = resolver({"inside.test": [address]})
    for url in ("https://inside.test/hook",
                f"http://{'[' + address + ']' if ':' in address else address}:8080/hook"):
        with pytest.raises(WebhookError, match="public address"):
            check_url(url, False, stub)
        assert check_url(url, True, stub).addresses == (address,)


def test_a_public_address_is_allowed_and_any_private_one_among_many_refuses() -> None:
    """Issue 31: a name whose every address is global is allowed (its addresses kept, to
    connect to them); one private address among them refuses it."""
    stub = resolver({"public.test": [PUBLIC, "2606:4700::1111"],
                     "mixed.test": [PUBLIC, "10.0.0.1"]})
    assert check_url("https://public.test/h?x=1", False, stub) == Target(
        "https", "public.test", 443, "/h?x=1", (PUBLIC, "2606:4700::1111"))
    assert check_url("http://public.test", False, stub).port == 80
    with pytest.raises(WebhookError):
        check_url("https://mixed.test/", False, stub)


@pytest.mark.parametrize(("url", "says"), [
    ("ftp://public.test/", "http:// or https://"),
    ("javascript:alert(1)", "http:// or https://"),
    ("https://", "names a host"),
    ("https://user:pw@public.test/", "user name or password"),
    ("https://public.test/#x", "fragment"),
    ("https://public.test/a b", "spaces"),
    ("https://public.test:99999/", "cannot be read"),
    ("https://public.test/" + "a" * LONGEST, f"at most {LONGEST}"),
    (42, "an address such as"),
])
def test_malformed_addresses_are_refused_with_a_reason(url: Any, says: str) -> None:
    """Issue 31: only http or https URLs of at most 500 characters naming a host, without
    credentials, fragments or spaces; each refusal says why."""
    with pytest.raises(WebhookError, match=says):
        check_url(url, True, resolver({}))


def test_a_name_that_cannot_be_resolved_is_refused() -> None:
    """Issue 31: a host the resolver cannot find is refused (no post goes anywhere)."""
    def missing(host: str, port: int) -> list[str]:
        raise OSError("no such name")
    with pytest.raises(WebhookError, match="cannot be found"):
        check_url("https://nowhere.test/", False, missing)


def test_the_post_goes_to_the_checked_address_with_the_name_as_host(
        receiver: Receiver) -> None:
    """Issue 31 (DNS rebinding): the post connects to the address checked, whatever the
    name resolves to later, and still names the host in its Host header."""
    target = check_url(f"http://hooks.test:{receiver.port}/in?k=1", True,
                       resolver({"hooks.test": ["127.0.0.1"]}))
    assert post(target, {"a": 1}) == 204
    path, headers, body = receiver.posts[0]
    assert (path, body) == ("/in?k=1", {"a": 1})
    assert headers["Host"] == f"hooks.test:{receiver.port}"
    assert headers["Content-Type"] == "application/json"


def test_posts_beyond_the_bound_are_dropped() -> None:
    """Issue 31: at most ``in_flight`` posts wait at once; more are dropped, not queued."""
    gate = threading.Event()

    def slow(host: str, port: int) -> list[str]:
        gate.wait(5)
        raise OSError("stopped")
    sender = Webhooks(WebhookRules(allow_private=True), slow, in_flight=2)
    try:
        assert sender.send("http://a.test/", {}, "t")
        assert sender.send("http://a.test/", {}, "t")
        assert not sender.send("http://a.test/", {}, "t")
        gate.set()
        deadline = time.monotonic() + 5
        while sender.busy and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sender.busy == 0 and sender.send("http://a.test/", {}, "t")
    finally:
        gate.set()
        sender.close()


# --- the server ---------------------------------------------------------------------------------
def test_a_seat_is_told_when_its_turn_begins_and_only_then(
        client: TestClient, receiver: Receiver) -> None:
    """Issue 31: at a turn-based table of two people (the tutorial alternates 0, 1, 0, ...),
    each seat's webhook gets one POST each time its turn begins, never for the other seat's
    turn nor for its own decisions, with the table, the game's title, the seat's colour, the
    step and "It is your turn", and no link; the seat's own state says "webhook": true, no
    other state, message or the record holds the address; removing it stops the posts."""
    fresh_limits(client)
    created = create_tutorial(client, ["human", "human"], clock=TURN_BASED)
    one, two = humans(created).values()
    base = f"http://hooks.test:{receiver.port}"
    for token, path in ((one, "/one"), (two, "/two")):
        answer = set_hook(client, token, base + path)
        assert answer.status_code == 200 and answer.json() == {"ok": True, "webhook": True}
    assert view(client, one)["webhook"] is True
    for _ in range(5):  # five of the six decisions: 0, 1, 0, 1, 0
        play_first(client, one if view(client, one)["choices"] else two)
    settled(client)
    colours = [s["colour"] for s in created["seats"]]
    title = load("black-keep").display_name()
    assert [(path, body) for path, _headers, body in receiver.posts] == [
        ("/two" if step % 2 else "/one",
         {"table": created["table"], "game": title, "seat": colours[step % 2], "step": step,
          "text": "It is your turn"}) for step in (1, 2, 3, 4, 5)]
    assert set_hook(client, two, None).json() == {"ok": True, "webhook": False}
    play_first(client, two)
    settled(client)
    assert len(receiver.posts) == 5
    with client.websocket_connect(f"/ws/{created['spectator'].removeprefix('/play/')}") as ws:
        seen = json.dumps(ws.receive_json())
    record = client.get(f"/api/record/{one}")
    assert record.status_code == 200
    for text in (json.dumps(view(client, two)), seen, record.text,
                 json.dumps(client.get(f"/api/replay/{created['replay'].split('/')[-1]}",
                                       params={"step": 3}).json())):
        assert "hooks.test" not in text
    assert view(client, one)["webhook"] is True and "hooks.test" not in json.dumps(
        view(client, one))


def test_the_first_seat_is_told_when_the_clock_starts(
        client: TestClient, receiver: Receiver) -> None:
    """Issue 31: at a public turn-based table the clock starts when the last free seat is
    taken; the first decision's seat, whose webhook was set while it waited, is told then
    (step 0), once."""
    fresh_limits(client)
    created = create_tutorial(client, ["human", "human"], clock=TURN_BASED, public=True)
    first = humans(created)[0]
    assert set_hook(client, first, f"http://hooks.test:{receiver.port}/first").status_code == 200
    settled(client)
    assert receiver.posts == []
    taken = client.post(f"/api/open-tables/{created['table']}/take", json={})
    assert taken.status_code == 200, taken.text
    settled(client)
    assert [(path, body["step"], body["seat"]) for path, _h, body in receiver.posts] == [
        ("/first", 0, created["seats"][0]["colour"])]


def test_no_webhook_while_the_stand_in_plays_the_seat(tmp_path: Path,
                                                     receiver: Receiver) -> None:
    """Issue 31: once a seat's time ran out, the clock's stand-in decides for it, and its
    turns are not told to its webhook (its person is away); the other seat's turns still
    are, also when they begin with the stand-in's decision."""
    sender = Webhooks(WebhookRules(allow_private=True), resolver({"hooks.test": ["127.0.0.1"]}))
    app = create_app(sqlite_url(tmp_path), bot_delay=0, bot_workers=1, webhooks=sender)
    with TestClient(app) as client:
        created = create_tutorial(client, ["human", "human"], clock=TURN_BASED)
        one, two = humans(created).values()
        for token, path in ((one, "/one"), (two, "/two")):
            assert set_hook(client, token, f"http://hooks.test:{receiver.port}{path}").json()[
                "webhook"] is True
        play_first(client, one)  # step 1: seat 1's turn begins
        later = datetime.now(UTC) + timedelta(days=2)
        tables_of(client).now = lambda: later  # seat 1's day runs out
        deadline = time.monotonic() + 20
        while view(client, one)["step"] < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the stand-in decides step 2 for seat 1
        assert view(client, two)["table"]["clock"]["away"] == [1]
        play_first(client, one)  # step 3: seat 1's turn again, the stand-in's
        while view(client, one)["step"] < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        settled(client)
    assert [(path, body["step"]) for path, _h, body in receiver.posts] == [
        ("/two", 1), ("/one", 2), ("/one", 4)]


def test_no_webhook_for_a_live_or_untimed_table(client: TestClient, receiver: Receiver) -> None:
    """Issue 31: only a turn-based table's seats are told: a live table and an untimed one
    refuse a webhook (409), say "webhook": null, and post nothing when a turn begins."""
    fresh_limits(client)
    for clock in (LIVE, None):
        created = create_tutorial(client, ["human", "human"], clock=clock)
        one, two = humans(created).values()
        answer = set_hook(client, two, f"http://hooks.test:{receiver.port}/")
        assert answer.status_code == 409 and "turn-based" in answer.json()["error"]
        assert view(client, two)["webhook"] is None
        play_first(client, one)
    settled(client)
    assert receiver.posts == []


def test_the_api_refuses_and_changes_nothing(client: TestClient) -> None:
    """Issue 31: ``POST /api/webhook/<token>``: 403 for the spectator link, 400 for a bad
    body or an address the rules refuse, 404 for an unknown link, 415 if not JSON; after
    each the seat still has no webhook. More than 10 changes a minute from one address are
    refused (429), and change nothing. (409 for a table that is not turn-based: below.)"""
    fresh_limits(client)
    created = create_tutorial(client, ["human", "human"], clock=TURN_BASED)
    one = humans(created)[0]
    spectator = created["spectator"].removeprefix("/play/")
    assert set_hook(client, spectator, "https://public.test/").status_code == 403
    assert set_hook(client, "nobody", "https://public.test/").status_code == 404
    for url in ("ftp://public.test/", "https://" + "a" * 600, 7, "https://x@public.test/"):
        answer = set_hook(client, one, url)
        assert answer.status_code == 400, url
    assert client.post(f"/api/webhook/{one}", json={"url": "https://public.test/",
                                                    "seat": 1}).status_code == 400
    assert client.post(f"/api/webhook/{one}", content=b'{"url": null}').status_code == 415
    assert view(client, one)["webhook"] is False
    for _ in range(5):  # the 6th to 10th changes counted (403 and 400 count too)
        assert set_hook(client, one, "https://public.test/").json()["webhook"] is True
    answer = set_hook(client, one, None)
    assert answer.status_code == 429 and view(client, one)["webhook"] is True


def test_without_the_private_option_a_loopback_hook_is_refused(tmp_path: Path) -> None:
    """Issue 31: by default a webhook may reach public addresses only (400 naming the rule);
    with webhooks off (``--no-webhooks``) no seat may give one (409)."""
    stub = resolver({"hooks.test": ["127.0.0.1"], "public.test": [PUBLIC]})
    for rules, status in ((WebhookRules(), 400), (WebhookRules(enabled=False), 409)):
        app = create_app(sqlite_url(tmp_path, f"{status}.db"), bot_delay=30, bot_workers=1,
                         webhooks=Webhooks(rules, stub))
        with TestClient(app) as own:
            created = create_tutorial(own, ["human", "human"], clock=TURN_BASED)
            one = humans(created)[0]
            answer = set_hook(own, one, "http://hooks.test:8080/")
            assert answer.status_code == status, answer.text
            if status == 400:
                assert "public address" in answer.json()["error"]
                assert set_hook(own, one, "https://public.test/").status_code == 200
            else:
                assert view(own, one)["webhook"] is None


def test_two_processes_on_postgresql_post_once_per_turn(receiver: Receiver) -> None:
    """Issue 31 on PostgreSQL: a webhook set through one process is used by the other, and
    only the process that stored a decision posts for the turn it begins: one post per turn
    although both processes hold the table."""
    stub = resolver({"hooks.test": ["127.0.0.1"]})
    with running_postgres() as url:
        apps = [create_app(url, bot_delay=30, bot_workers=1,
                           webhooks=Webhooks(WebhookRules(allow_private=True), stub))
                for _ in range(2)]
        with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
            created = create_tutorial(one, ["human", "human"], clock=TURN_BASED)
            red, blue = humans(created).values()
            answer = set_hook(two, blue, f"http://hooks.test:{receiver.port}/blue")
            assert answer.json()["webhook"] is True
            assert view(one, blue)["webhook"] is True
            play_first(one, red)  # blue's turn: told by the first process
            play_first(two, blue)
            play_first(two, red)  # blue's turn: told by the second
            for client in (one, two):
                settled(client)
            time.sleep(0.3)  # a late post from the process that only caught up would show
            assert [(body["step"], body["seat"]) for _p, _h, body in receiver.posts] == [
                (1, created["seats"][1]["colour"]), (3, created["seats"][1]["colour"])]


def test_an_old_database_gains_the_webhooks_column(tmp_path: Path) -> None:
    """Issue 31: a database of the first release gains the nullable webhooks column when
    opened; its table has no webhook."""
    url = sqlite_url(tmp_path, "old.db")
    _old_database(url, ["human", "human"], 3, [])
    storage = Storage(url)
    try:
        with storage.engine.connect() as conn:
            assert "webhooks" in {c["name"] for c in inspect(conn).get_columns("tables")}
        row = storage.table("old")
        assert row is not None and row.webhooks == {}
        assert storage.set_webhook("old", 1, "https://public.test/") == {
            1: "https://public.test/"}
        assert storage.set_webhook("old", 1, None) == {}
    finally:
        storage.close()


def test_serve_options_switch_webhooks_off_or_allow_private_addresses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: ``citywatch serve`` sends webhooks to public addresses by default;
    ``--webhooks-private`` allows private ones, ``--no-webhooks`` switches them off."""
    import uvicorn

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append(app))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    for options, rules in (([], WebhookRules()),
                           (["--webhooks-private"], WebhookRules(allow_private=True)),
                           (["--no-webhooks"], WebhookRules(enabled=False))):
        assert main(["serve", "--bot-workers", "1", *options]) == 0
        assert ran[-1].state.tables.webhooks.rules == rules
