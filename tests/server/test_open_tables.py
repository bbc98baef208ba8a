"""Issue 31, open tables, on the server: the table option "public" (its default and its
checks), the list of open tables (only public tables with a free person seat, not over;
its fields, its bound and its rate), and taking a free seat (its private link, given once;
two people taking the last seat at once: one gets it)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from playwright.sync_api import Browser, expect
from postgres_helpers import running_postgres
from sqlalchemy import inspect
from starlette.testclient import TestClient
from test_browser import (  # noqa: F401  (browser, server: the Playwright fixtures)
    Watch,
    browser,
    open_page,
    server,
    wait_for_state,
)
from test_server import token_of, view
from test_server_security import _old_database
from web_helpers import TUTORIAL, create_tutorial

from citywatch.server import create_app
from citywatch.server import tables as tables_module
from citywatch.server.storage import SeatTaken, Storage
from citywatch.server.tables import Limits

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

GAME = "black-keep"
OPTIONS = TUTORIAL
"""The fastest game to set up."""
STRIP = "#seat-names .seat-entry"
ROOMY = Limits(creations="1000/minute", open_tables_per_address=1000)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server (bots wait long: no bot moves during a test) for the module's tests."""
    db = tmp_path_factory.mktemp("open") / "open.db"
    app = create_app(f"sqlite:///{db}", bot_delay=30, bot_workers=1, limits=ROOMY)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(autouse=True)
def fresh_limits(client: TestClient) -> None:
    """Every test starts with no request counted against the test client's address."""
    client.app.state.limiter = MovingWindowRateLimiter(MemoryStorage())  # type: ignore[attr-defined]




def listed(client: TestClient) -> dict[str, dict[str, Any]]:
    """The open tables by id."""
    response = client.get("/api/open-tables")
    assert response.status_code == 200, response.text
    return {row["table"]: row for row in response.json()["tables"]}


def take(client: TestClient, table: str, body: Any = None) -> Any:
    return client.post(f"/api/open-tables/{table}/take", json={} if body is None else body)


def test_public_is_off_by_default_and_checked(client: TestClient) -> None:
    """Issue 31: "public" defaults to false (every person's link given, the table unlisted);
    a value other than true or false, or a public table with no second person's seat, is a
    400 that stores nothing."""
    private = create_tutorial(client, ["human", "human"])
    assert private["public"] is False
    assert all(seat["link"] and not seat["free"] for seat in private["seats"])
    assert private["table"] not in listed(client)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with storage.engine.connect() as conn:
        before = conn.exec_driver_sql("SELECT count(*) FROM tables").scalar()
    for public, wrong in (("yes", "public must be true"), (1, "public must be true"),
                          (True, "needs a second person's seat")):
        response = client.post("/api/tables", json={"game": GAME, "seats": ["human", "hard"],
                                                    "options": OPTIONS, "public": public})
        assert response.status_code == 400, public
        assert wrong in response.json()["error"]
    with storage.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM tables").scalar() == before


def test_a_public_table_is_listed_with_its_fields(client: TestClient) -> None:
    """Issue 31: a public table is listed with its game and title, the person seats taken of
    the person seats, its bots' levels, the options its header shows, when it was made and
    its clock;
    the creator gets their own link only, the free seat's is kept for whoever takes it."""
    created = create_tutorial(client, ["human", "hard", "human"], public=True,
                              names=["Ann", None, None])
    assert created["public"] is True
    first, bot, free = created["seats"]
    assert first["link"] and not first["free"]
    assert bot["link"] is None and not bot["free"]
    assert free["link"] is None and free["free"] is True
    row = listed(client)[created["table"]]
    about = view(client, token_of(first["link"]))["table"]
    assert row["game"] == GAME and row["title"] == about["title"]
    assert (row["seats"], row["people"], row["taken"], row["free"]) == (3, 2, 1, [2])
    assert row["bots"] == ["hard"] and row["kinds"] == ["human", "hard", "human"]
    assert row["options"] == about.get("options", {})
    assert datetime.fromisoformat(row["since"]).tzinfo is not None
    assert about["public"] is True and about["free"] == [2]
    assert row["clock"] is None
    timed = create_tutorial(client, ["human", "human"], public=True,
                            clock={"kind": "turn-based", "move": 86400})
    assert listed(client)[timed["table"]]["clock"] == {  # issue 31: what a visitor joins
        "kind": "turn-based", "move": 86400, "reserve": 0, "stand_in": "easy"}


def test_taking_a_seat_gives_its_link_once(client: TestClient) -> None:
    """Issue 31: taking the free seat answers its private link (which views that seat, with
    the taker's name), the seat is no longer free, and the full table leaves the list; a
    second take is a 409; bad bodies are 400 and take nothing."""
    created = create_tutorial(client, ["human", "human"], public=True)
    table = created["table"]
    for body, wrong in (({"seat": "1"}, "seat must be"), ({"seat": True}, "seat must be"),
                        ({"seat": 10**9}, "seat must be"), ({"who": 1}, "JSON object"),
                        ([], "JSON object"), ({"name": "x" * 25}, "1 to 24 characters")):
        response = take(client, table, body)
        assert response.status_code == 400, body
        assert wrong in response.json()["error"]
    assert take(client, table, {"seat": 0}).status_code == 409  # the creator's seat
    assert take(client, "no-such-table").status_code == 404
    assert take(client, created["seats"][0]["link"][6:]).status_code == 404  # a token, no id
    assert table in listed(client)
    answer = take(client, table, {"seat": 1, "name": "Bea"})
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert (got["table"], got["seat"]) == (table, 1)
    seen = view(client, token_of(got["link"]))
    assert seen["seat"] == 1
    assert seen["table"]["names"][1] == "Bea" and seen["table"]["free"] == []
    again = take(client, table)
    assert again.status_code == 409
    assert "every seat" in again.json()["error"]
    assert table not in listed(client)


def test_two_takes_of_the_last_seat_one_gets_it(client: TestClient) -> None:
    """Issue 31: two people taking the last free seat at once (two threads in the storage,
    under the row lock): one gets the seat's token, the other ``SeatTaken`` (a 409)."""
    table = create_tutorial(client, ["human", "human"], public=True)["table"]
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    start = threading.Barrier(2)
    results: list[Any] = []

    def taker() -> None:
        start.wait()
        try:
            results.append(storage.take_seat(table, None))
        except SeatTaken as exc:
            results.append(exc)

    threads = [threading.Thread(target=taker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    won = [r for r in results if isinstance(r, tuple)]
    assert len(won) == 1 and won[0][0] == 1
    assert len([r for r in results if isinstance(r, SeatTaken)]) == 1
    assert storage.tokens(table)[1] == won[0][1]
    response = take(client, table)
    assert response.status_code == 409


def test_a_table_over_leaves_the_list(client: TestClient,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: a public table whose game is over, or failed, is not listed, and its free
    seat cannot be taken (409)."""
    monkeypatch.setattr(tables_module, "OPEN_LIST_SECONDS", 0)  # changed behind its back
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    finished = create_tutorial(client, ["human", "human"], public=True)["table"]
    failed = create_tutorial(client, ["human", "human"], public=True)["table"]
    assert {finished, failed} <= set(listed(client))
    storage.mark_finished(finished)
    storage.update_table(failed, failure="closed as abandoned")
    assert not {finished, failed} & set(listed(client))
    assert take(client, finished).status_code == 409
    assert take(client, failed).status_code == 409


def test_the_list_is_bounded_newest_first(client: TestClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: at most ``MAX_OPEN_LISTED`` tables are listed, the newest first."""
    made = [create_tutorial(client, ["human", "human"], public=True)["table"] for _ in range(3)]
    monkeypatch.setattr(tables_module, "MAX_OPEN_LISTED", 2)
    response = client.get("/api/open-tables")
    assert [row["table"] for row in response.json()["tables"]] == made[:0:-1]


def test_the_list_is_read_once_a_second_and_dropped_by_a_take(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31 (load): a process answers the list from its last read for
    ``OPEN_LIST_SECONDS`` (a seat taken behind its back, as by another process, is still
    listed), but a take through it, even a 409, or a new public table drops that read."""
    monkeypatch.setattr(tables_module, "OPEN_LIST_SECONDS", 3600)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    elsewhere, here = (create_tutorial(client, ["human", "human"], public=True)["table"]
                       for _ in range(2))
    assert {elsewhere, here} <= set(listed(client))
    storage.take_seat(elsewhere, None)  # another process takes its seat
    assert elsewhere in listed(client)  # still the last read
    assert take(client, here).status_code == 200
    assert not {elsewhere, here} & set(listed(client))
    again = create_tutorial(client, ["human", "human"], public=True)["table"]
    assert again in listed(client)
    storage.take_seat(again, None)
    assert again in listed(client)
    assert take(client, again).status_code == 409
    assert again not in listed(client)


def test_the_list_and_takes_are_rate_limited(tmp_path: Any) -> None:
    """Issue 31: one address reads the list at most ``OPEN_LIST_RATE`` times a minute and
    tries to take at most ``TAKE_RATE`` seats; beyond, a 429 that says when to try again."""
    app = create_app(f"sqlite:///{tmp_path / 'rate.db'}", bot_delay=30, bot_workers=1)
    with TestClient(app) as client:
        codes = [client.get("/api/open-tables").status_code for _ in range(61)]
        assert codes[:60] == [200] * 60 and codes[60] == 429
        codes = [take(client, "none").status_code for _ in range(11)]
        assert codes[:10] == [404] * 10 and codes[10] == 429
        refused = take(client, "none")
        assert "too many seats taken" in refused.json()["error"]
        assert refused.headers["Retry-After"] == "60"


def test_a_second_browser_sees_an_open_table_appear_and_takes_its_seat(
        server: str, browser: Browser) -> None:  # noqa: F811
    """Issue 31 in two browsers: the first makes a public table of two people on the start
    page; the second, on its start page already, sees it appear in "Open tables" without a
    reload and takes the seat; the first's table page, open meanwhile, shows the free seat and
    then, without a reload, the taker's name; both pages show the two people by name, and
    the table is no longer listed. With several open tables, "Show" keeps one game's (and
    counts them). Issue 31's clock: chosen on the start page, shown in the
    list, waiting on the table page until the seat is taken, then running."""
    watch = Watch()
    first = open_page(browser, server + "/", watch)
    second = open_page(browser, server + "/", watch)
    for page in (first, second):
        page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    expect(second.locator("#open-empty")).to_be_visible()
    first.locator("#your-name").fill("Ann")
    first.locator('input[name="players"][value="2"]').check()
    first.locator("#seat-1").select_option("human")
    first.locator("#public").check()
    first.locator("#clock-kind").select_option("live")  # issue 31: the defaults, 30 s + 5 min
    first.locator("#create").click()
    expect(first.locator("#created")).to_be_visible()
    expect(first.locator("input.seat-link")).to_have_count(1)  # the free seat's link is not given
    expect(first.locator(".free-seat")).to_have_count(1)
    first.goto(first.locator("input.seat-link").input_value())
    wait_for_state(first)
    expect(first.locator(STRIP).nth(1)).to_contain_text("Blue — free seat (open table)")
    expect(first.locator("#clock-rule")).to_contain_text("clock starts when every seat is taken")

    row = second.locator(".open-table")
    expect(row).to_have_count(1, timeout=10_000)  # polled, no reload
    expect(second.locator("#open-filter")).to_be_hidden()  # nothing to choose among
    mine = row.get_attribute("data-table")
    with httpx.Client(base_url=server) as client:
        others = [client.post("/api/tables", json={
            "game": "guardians-of-the-city", "seats": ["human", "human"], "public": True,
        }).json()["table"] for _ in range(2)]
    expect(row).to_have_count(3, timeout=10_000)
    second.locator("#open-game").select_option("guardians-of-the-city")
    expect(row).to_have_count(2)
    expect(second.locator("#open-count")).to_have_text("2 of 3 open tables")
    second.locator("#open-game").select_option("")
    expect(row).to_have_count(3)
    row = second.locator(f'.open-table[data-table="{mine}"]')
    expect(row.locator(".open-seats")).to_have_text(" 1 of 2 people · no bots")
    expect(row.locator(".open-clock")).to_have_text(
        "Live clock: 30 s per decision + 5 min reserve · stand-in: easy bot")
    expect(second.locator("#open-empty")).to_be_hidden()
    second.locator("#your-name").fill("Bob")
    row.locator(".take-seat").click()
    second.wait_for_url(re.compile(r"/play/"))
    wait_for_state(second)
    for page, mine in ((first, 0), (second, 1)):
        expect(page.locator(STRIP)).to_have_count(2)
        names = [re.compile(rf"^{colour} — {name}{' [(]you[)]' if seat == mine else ''}")
                 for seat, (colour, name) in enumerate((("Red", "Ann"), ("Blue", "Bob")))]
        expect(page.locator(STRIP)).to_have_text(names)
        expect(page.locator("#clock-rule")).not_to_contain_text("starts when")  # it runs now
    expect(first.locator(".seat-clock").first).to_contain_text(re.compile(r"\d:\d\d"))
    with httpx.Client(base_url=server) as client:
        listed_now = [t["table"] for t in client.get("/api/open-tables").json()["tables"]]
        assert sorted(listed_now) == sorted(others)
    watch.check()


def test_an_old_database_gains_the_columns_and_its_tables_stay_private(tmp_path: Any) -> None:
    """Issue 31: a database written before open tables gains ``public`` and ``free`` when
    opened; its tables are private (unlisted, told ``public`` false, no seat free)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    _old_database(url, ["human", "human"], 3, [])
    app = create_app(url, bot_delay=30, bot_workers=1)
    with TestClient(app) as client:
        storage: Storage = app.state.storage
        columns = {c["name"] for c in inspect(storage.engine).get_columns("tables")}
        assert {"public", "free"} <= columns
        assert listed(client) == {}
        table = view(client, "person-token")["table"]
        assert table["public"] is False and table["free"] == []
        assert take(client, "old").status_code == 404


def test_open_tables_across_processes_on_postgres() -> None:
    """Issue 31 on PostgreSQL, two server processes (two apps) on one database: a public table
    made through one is listed by the other; two takes of its last seat at once, one through
    each, give it to one (the other a 409); the first process's page is told it was taken."""
    with running_postgres() as url:
        first, second = (create_app(url, bot_delay=30, bot_workers=1, limits=ROOMY)
                         for _ in range(2))
        with TestClient(first) as one, TestClient(second) as two:
            created = create_tutorial(one, ["human", "human"], public=True)
            assert created["table"] in listed(two)
            start = threading.Barrier(2)
            codes: list[int] = []

            def taker(client: TestClient) -> None:
                start.wait()
                codes.append(take(client, created["table"]).status_code)

            threads = [threading.Thread(target=taker, args=(c,)) for c in (one, two)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(codes) == [200, 409]
            assert listed(one) == {} and listed(two) == {}
            mine = view(one, token_of(created["seats"][0]["link"]))["table"]
            assert mine["free"] == []
