"""Issue 16, "show each player's name beside the colour": names asked on the start page and
on a seat's page, checked and stored by the server (SQLite and PostgreSQL), told to every seat
(across processes too) and shown, as text only, on every game's table page."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from postgres_helpers import running_postgres
from sqlalchemy import inspect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    Watch,
    browser,
    new_page,
    open_page,
    serving,
    wait_for_state,
)
from test_server import humans, sqlite_url, token_of, view
from test_server_security import _old_database

from citywatch.server import create_app
from citywatch.server.storage import Storage

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEATS = ["human", "human", "hard"]
SCREENSHOTS = Path("/tmp/citywatch-names")
STRIP = "#seat-names .seat-entry"


def create(client: Any, seats: list[str] = SEATS, names: Any = None,
           game: str = "ankh-morpork") -> httpx.Response:
    """``POST /api/tables`` for ``game`` with ``seats`` and, if given, ``names``."""
    body: dict[str, Any] = {"game": game, "seats": seats}
    if names is not None:
        body["names"] = names
    response: httpx.Response = client.post("/api/tables", json=body)
    return response


def stored_tables(storage: Storage) -> int:
    with storage.engine.connect() as conn:
        return len(conn.exec_driver_sql("SELECT id FROM tables").all())


# --- the API -------------------------------------------------------------------------------
def check_names_api(url: str) -> None:
    """Issue 16.2 on the database at ``url``: names given at creation (people's seats only)
    and set by a seat's own link; every bad request is refused with one sentence and stores
    nothing; names survive a restart."""
    app = create_app(url, bot_delay=30)
    with TestClient(app) as client:
        storage: Storage = app.state.storage
        for names, wrong in (
                (["Ann", None], "one entry per seat"),
                ("Ann", "one entry per seat"),
                (["Ann", None, "Hal"], "seat 3 is a bot"),
                (["x" * 25, None, None], "1 to 24 characters, not 25"),
                (["  ", None, None], "1 to 24 characters, not 0"),
                ([None, "A\x07", None], "control or invisible"),
                ([7, None, None], "must be text")):
            response = create(client, names=names)
            assert response.status_code == 400, names
            assert wrong in response.json()["error"]
        assert stored_tables(storage) == 0

        created = create(client, names=["  Ann  ", None, None]).json()
        assert [s["name"] for s in created["seats"]] == ["Ann", None, None]
        people = humans(created)
        spectator = token_of(created["spectator"])
        table_id = created["table"]
        told = view(client, spectator)["table"]
        assert told["colours"] == ["Red", "Blue", "Green"]
        assert told["names"] == ["Ann", None, None]
        assert told["bots"] == [None, None, "hard"]

        for token, body, status, wrong in (
                (people[1], {"name": "y" * 25}, 400, "1 to 24 characters"),
                (people[1], {"name": " \t "}, 400, "1 to 24 characters"),
                (people[1], {"name": "Bo\nb"}, 400, "control"),
                (people[1], {"name": "Bo\u202eb"}, 400, "invisible formatting"),
                (people[1], {"name": "Bo\u200bb"}, 400, "invisible formatting"),
                (people[1], {"name": None}, 400, "must be text"),
                (people[1], {"name": "Bob", "seat": 0}, 400, "only its own seat"),
                (people[1], ["Bob"], 400, '{"name": "..."}'),
                (spectator, {"name": "Eve"}, 403, "spectator"),
                ("no-such-token", {"name": "Eve"}, 404, "does not belong")):
            response = client.post(f"/api/name/{token}", json=body)
            assert response.status_code == status, body
            message = response.json()["error"]
            assert wrong in message and "\n" not in message
        response = client.post(f"/api/name/{people[1]}", content=b'{"name": "Bob"}')
        assert response.status_code == 415
        row = storage.table(table_id)
        assert row is not None and row.names == ("Ann", None, None)

        longest = "Ž" * 24
        answer = client.post(f"/api/name/{people[1]}", json={"name": f" {longest} "})
        assert answer.json() == {"ok": True, "name": longest}
        assert client.post(f"/api/name/{people[0]}", json={"name": "Annie"}).status_code == 200
        assert view(client, people[1])["table"]["names"] == ["Annie", longest, None]
    with TestClient(create_app(url, bot_delay=30)) as client:  # a restart
        assert view(client, spectator)["table"]["names"] == ["Annie", longest, None]


def test_names_are_checked_stored_and_survive_a_restart(tmp_path: Path) -> None:
    """Issue 16.2 (names: validation, the seat's own link only, storage) on SQLite."""
    check_names_api(sqlite_url(tmp_path))


def test_a_name_change_reaches_every_seats_open_page(tmp_path: Path) -> None:
    """Issue 16.2: a name set by one seat is sent at once to every WebSocket of the table,
    the other seat's and the spectator's."""
    with TestClient(create_app(sqlite_url(tmp_path), bot_delay=30)) as client:
        created = create(client).json()
        people = humans(created)
        with client.websocket_connect(f"/ws/{people[0]}") as ws, \
                client.websocket_connect(f"/ws/{token_of(created['spectator'])}") as watcher:
            assert ws.receive_json()["table"]["names"] == [None, None, None]
            assert watcher.receive_json()["table"]["names"] == [None, None, None]
            client.post(f"/api/name/{people[1]}", json={"name": "Bob"})
            for socket in (ws, watcher):
                message = socket.receive_json()
                assert message["type"] == "state"
                assert message["table"]["names"] == [None, "Bob", None]


def test_an_old_database_gains_the_names_column(tmp_path: Path) -> None:
    """Issue 16.1: a database of the first release gains the nullable ``names`` column when
    opened; its table has no names, and its person's seat can then be named."""
    url = sqlite_url(tmp_path, "old.db")
    _old_database(url, ["human", "human", "random"], 3, [])
    storage = Storage(url)
    try:
        with storage.engine.connect() as conn:
            assert "names" in {c["name"] for c in inspect(conn).get_columns("tables")}
        row = storage.table("old")
        assert row is not None and row.names == (None, None, None)
        assert storage.set_name("old", 0, "Ann") == ("Ann", None, None)
        again = storage.table("old")
        assert again is not None and again.names == ("Ann", None, None)
    finally:
        storage.close()
    with TestClient(create_app(url, bot_delay=30)) as client:
        assert view(client, "watch-token")["table"]["names"] == ["Ann", None, None]


# --- PostgreSQL ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of its own; the URL of an empty database."""
    with running_postgres() as url:
        yield url


def test_names_on_postgres(postgres: str) -> None:
    """Issue 16.2 on PostgreSQL: the same checks, storage and restart as on SQLite."""
    check_names_api(postgres)


def test_a_name_set_in_one_process_reaches_pages_on_another(postgres: str) -> None:
    """Issue 16.2 with many processes on one database: a name set through one server reaches
    a page connected to another by ``NOTIFY "<table> about"``; two seats named at once
    through two servers both keep their names."""
    first, second = create_app(postgres, bot_delay=30), create_app(postgres, bot_delay=30)
    with TestClient(first) as one, TestClient(second) as two:
        created = create(one).json()
        people = humans(created)
        with two.websocket_connect(f"/ws/{people[0]}") as ws:
            assert ws.receive_json()["table"]["names"] == [None, None, None]
            assert one.post(f"/api/name/{people[1]}", json={"name": "Bob"}).status_code == 200
            message = ws.receive_json()  # pushed by the other process: not asked for
            assert message["table"]["names"] == [None, "Bob", None]
        assert two.post(f"/api/name/{people[0]}", json={"name": "Ann"}).status_code == 200
        deadline = time.monotonic() + 10
        while view(one, people[1])["table"]["names"] != ["Ann", "Bob", None]:
            assert time.monotonic() < deadline, "the first process never heard of Ann"
            time.sleep(0.05)


# --- in a real browser ---------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A real server (uvicorn in a thread, SQLite in tmp_path); bots wait long enough that
    the table stays on the first seats' decisions."""
    with serving(create_app(f"sqlite:///{tmp_path / 'names.db'}", bot_delay=30)) as base:
        yield base


def strip_texts(page: Page) -> list[str]:
    """Each entry of the seats strip as text, without its "deciding" tag."""
    texts: list[str] = page.eval_on_selector_all(STRIP, """entries => entries.map((e) =>
        [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('tag')))
          .map((n) => n.textContent).join(''))""")
    return texts


def check_deciding(page: Page, base: str, link: str, colours: list[str]) -> None:
    """The strip tags exactly the seat deciding, as the page's own view from the server
    says (``decision.seat``)."""
    data = httpx.get(f"{base}/api/view/{token_of(link)}").json()
    seat = colours.index(data["view"]["decision"]["seat"])
    expect(page.locator(f"{STRIP}.deciding")).to_have_count(1)
    expect(page.locator(f"{STRIP}.deciding")).to_have_attribute("data-seat", str(seat))
    expect(page.locator(f"{STRIP}.deciding .tag-deciding")).to_have_text("deciding")


def test_names_from_the_start_page_and_a_seat_page_show_on_both_pages(
        server: str, browser: Browser) -> None:  # noqa: F811
    """Issue 16.3: the start page asks the creator's name (remembered as the default next
    time); the second seat's page asks once for its own; both names show on both pages, the
    seat deciding marked, and a name with HTML in it shows literally."""
    watch = Watch()
    start = open_page(browser, server + "/", watch)
    start.wait_for_function("() => document.body.dataset.ready === 'yes'")
    start.locator("#your-name").fill("  Ann ")
    start.locator('input[name="players"][value="3"]').check()
    start.locator("#seat-1").select_option("human")
    start.locator("#seat-2").select_option("hard")
    start.locator("#create").click()
    expect(start.locator("#created")).to_be_visible()
    expect(start.locator(".link-name")).to_have_text(["Ann"])
    links = start.locator("input.seat-link")
    expect(links).to_have_count(2)
    first_url, second_url = links.nth(0).input_value(), links.nth(1).input_value()
    start.reload()
    expect(start.locator("#your-name")).to_have_value("Ann")

    first = start
    first.goto(first_url)
    wait_for_state(first)
    expect(first.locator(STRIP)).to_have_count(3)
    expect(first.locator("#name-form")).to_be_hidden()  # named on the start page
    second = open_page(browser, second_url, watch)
    wait_for_state(second)
    form = second.locator("#name-form")
    expect(form).to_be_visible()
    expect(second.locator("#name-input")).to_have_value("")  # a new person: no default
    second.locator("#name-input").fill("<b>Bob</b>")
    second.locator("#name-save").click()
    expect(form).to_be_hidden()
    shown = ["Red — Ann", "Blue — <b>Bob</b> (you)change", "Green — hard bot"]
    expect(second.locator(STRIP)).to_have_count(3)
    second.wait_for_function("() => document.querySelector('#seat-names').textContent"
                             ".includes('<b>Bob</b>')")
    assert strip_texts(second) == shown
    first.wait_for_function("() => document.querySelector('#seat-names').textContent"
                            ".includes('<b>Bob</b>')")
    assert strip_texts(first) == ["Red — Ann (you)change", "Blue — <b>Bob</b>",
                                  "Green — hard bot"]
    for page, url in ((first, first_url), (second, second_url)):
        assert page.locator("#seat-names b").count() == 0  # text, never HTML
        check_deciding(page, server, url.removeprefix(server), ["Red", "Blue", "Green"])
    SCREENSHOTS.mkdir(exist_ok=True)
    first.set_viewport_size({"width": 1366, "height": 800})
    first.screenshot(path=str(SCREENSHOTS / "two-names.png"))

    # The name can be changed later; a bad one is refused with the server's sentence.
    second.locator("#change-name").click()
    expect(form).to_be_visible()
    expect(second.locator("#name-input")).to_have_value("<b>Bob</b>")
    second.locator("#name-input").fill("B" * 30)
    second.locator("#name-save").click()
    expect(second.locator("#name-error")).to_have_text(
        "Your name must have 1 to 24 characters, not 30.")
    second.locator("#name-input").fill("Bobby")
    second.locator("#name-save").click()
    expect(form).to_be_hidden()
    # the bots play on meanwhile, so Blue's entry may also carry the "deciding" tag by now
    expect(first.locator(STRIP).nth(1)).to_have_text(re.compile(r"^Blue — Bobby(deciding)?$"))
    refused = [e for e in watch.errors if "status of 400" in e]
    assert len(refused) == 1  # the console's note of the one name refused on purpose
    watch.errors.remove(refused[0])
    watch.check()


def test_a_seat_page_may_skip_naming(server: str, browser: Browser) -> None:  # noqa: F811
    """Issue 16.3: the name form is skippable and, once skipped, not offered again on that
    link (the strip says "no name yet" and offers to give one later)."""
    watch = Watch()
    with httpx.Client(base_url=server) as client:
        created = create(client, ["human", "random"]).json()
    page = new_page(browser, watch, "seat")
    page.goto(server + created["seats"][0]["link"])
    wait_for_state(page)
    expect(page.locator("#name-form")).to_be_visible()
    page.locator("#name-skip").click()
    expect(page.locator("#name-form")).to_be_hidden()
    expect(page.locator(STRIP).first).to_contain_text("Red — no name yet (you)")
    page.reload()
    wait_for_state(page)
    expect(page.locator("#name-form")).to_be_hidden()
    expect(page.locator("#change-name")).to_have_text("give your name")
    watch.check()


GAMES = {
    "ankh-morpork": ["Red", "Blue", "Green", "Yellow"],
    "guards-guards": ["Red", "Blue", "Black", "White"],
    "guardians-of-the-city": ["Player 1", "Player 2", "Player 3", "Player 4"],
    "black-keep": ["Thief 1", "Thief 2", "Thief 3", "Thief 4"],
}
"""Each game with a board, and the names its seats are known by."""


def test_every_games_table_page_shows_the_seats_names(server: str, browser: Browser) -> None:  # noqa: F811
    """Issue 16.3: the table page of every game with a board shows each seat's colour and
    name (or its bot's level) in the one generic strip, and marks the seat deciding as the
    view says; at 1366x800 it stays on one line above the board (screenshots looked at)."""
    watch = Watch()
    SCREENSHOTS.mkdir(exist_ok=True)
    for game, colours in GAMES.items():
        seats = ["human", "human", "normal"]
        created = httpx.post(f"{server}/api/tables", json={
            "game": game, "seats": seats, "names": ["Annabelle Weatherwax", "Bob", None]})
        assert created.is_success, created.text
        link = created.json()["seats"][1]["link"]
        page = new_page(browser, watch, game)
        page.set_viewport_size({"width": 1366, "height": 800})
        page.goto(server + link)
        wait_for_state(page)
        assert page.evaluate("document.body.dataset.board") == "yes"
        expect(page.locator(STRIP)).to_have_count(3)
        assert strip_texts(page) == [f"{colours[0]} — Annabelle Weatherwax",
                                     f"{colours[1]} — Bob (you)change",
                                     f"{colours[2]} — normal bot"], game
        check_deciding(page, server, link, colours)
        box = page.locator("#seat-strip").bounding_box()
        assert box is not None and box["height"] < 40, game  # one line
        chips = page.locator(f"{STRIP} .chip")
        colours_seen = {chips.nth(i).evaluate("c => getComputedStyle(c).backgroundColor")
                        for i in range(3)}
        assert len(colours_seen) == 3, game  # each seat its own swatch
        page.screenshot(path=str(SCREENSHOTS / f"{game}.png"))
        page.context.close()
    watch.check()
