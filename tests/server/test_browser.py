"""The web pages in a real browser (Debian's chromium, driven by Playwright).

A real server runs in a thread; two people play a whole game against two random bots by
clicking the first button their page shows, while a spectator watches; then the replay page
steps through the finished game. Also: Ankh-Morpork's ``web/cards.json`` is what its
``make_web`` writes.

Every page is watched for script errors and for Content Security Policy violations (issue
15: the server's strict policy allows no inline script or style and connections only to
its own origin, and the pages must work under it). What every seat is told of the table
itself (issue 15: a practice table's chosen seed, bots replaced, a failed table) is shown
as banners on every seat's page and the spectator's.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import bot_faults
import httpx
import pytest
import toy_game
import uvicorn
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    WebSocketRoute,
    expect,
    sync_playwright,
)
from postgres_helpers import free_port
from starlette.applications import Starlette

from citywatch.core.registry import game_names, register, unregister
from citywatch.games.ankh_morpork.make_web import CARDS_JSON, render
from citywatch.server import create_app
from citywatch.server.botpool import BotPool

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update"]
GAME_DEADLINE = 150.0
"""Seconds the whole game may take in the browser before the test fails."""
SCREENSHOT = Path("/tmp/citywatch-board.png")
PRACTICE_SCREENSHOT = Path("/tmp/citywatch-practice.png")
GENERIC_SCREENSHOT = Path("/tmp/citywatch-generic.png")
CSP_MARK = "Content Security Policy"
"""Chromium's console message for a blocked script, style or connection names the policy."""
PRACTICE = "#banner .banner[data-kind='practice']"
PRACTICE_TEXT = ("Practice table: its seed was chosen, so anyone who knows it can know every "
                 "hidden card.")
NOTICE = "#banner .banner[data-kind='notice']"
FAILED = "#banner .banner[data-kind='failed']"

ENABLED_ACTIONS = "#actions button.action:not([disabled])"
NEXT_STATE = """(before) => document.body.dataset.step !== before
    || document.querySelector('#error .banner') !== null"""
STEPPING = """(step) => document.body.dataset.step === step
    && (document.body.dataset.picks || '0') !== '0' && document.body.dataset.pending !== 'yes'"""
"""Issue 16.3: the page is part-way through the steps of a big choice (nothing sent yet)."""


def test_cards_json_is_up_to_date() -> None:
    """The committed web/cards.json of Ankh-Morpork is exactly what make_web writes."""
    assert CARDS_JSON.read_text(encoding="utf-8") == render(), (
        "web/cards.json is stale: run python -m citywatch.games.ankh_morpork.make_web")


@contextmanager
def serving(app: Starlette) -> Iterator[str]:
    """The base URL of ``app`` served by uvicorn in a thread, until the block ends."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    with serving(create_app(f"sqlite:///{tmp_path / 'browser.db'}", bot_delay=0)) as base:
        yield base


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[str]:
    """A real server made once the toy game (``toy_game.py``: no web folder) is registered."""
    register(toy_game.NAME, toy_game.__name__)
    try:
        with serving(create_app(f"sqlite:///{tmp_path / 'toy.db'}", bot_delay=0)) as base:
            yield base
    finally:
        unregister(toy_game.NAME)


@pytest.fixture
def failing_server(tmp_path: Path) -> Iterator[str]:
    """A real server whose every bot fails with an error (``bot_faults.always_crash``)."""
    app = create_app(f"sqlite:///{tmp_path / 'failing.db'}", bot_delay=0,
                     pool=BotPool(1, 10, bot_faults.always_crash))
    with serving(app) as base:
        yield base


def launched_browser() -> Iterator[Browser]:
    """Debian's chromium (``CHROMIUM``) driven by Playwright, closed when the generator ends;
    a clear failure if it is missing."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser() -> Iterator[Browser]:
    """A browser for one test (``launched_browser``)."""
    yield from launched_browser()


class Watch:
    """What a test's pages report: script and console errors, Content Security Policy
    violations (Chromium logs them to the console), and the WebSockets they open."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.csp: list[str] = []
        self.sockets: list[str] = []

    def page(self, page: Page, name: str) -> Page:
        """Watch ``page`` (called ``name`` in the reports)."""
        page.on("pageerror", lambda exc: self.errors.append(f"{name}: {exc}"))
        page.on("console", lambda message: self._console(name, message))
        page.on("websocket", lambda ws: self.sockets.append(ws.url))
        return page

    def _console(self, name: str, message: ConsoleMessage) -> None:
        if CSP_MARK in message.text:
            self.csp.append(f"{name}: {message.text}")
        elif message.type == "error":
            self.errors.append(f"{name}: {message.text}")

    def check(self) -> None:
        """No page broke the Content Security Policy or reported an error."""
        assert not self.csp, f"Content Security Policy violations: {self.csp}"
        assert not self.errors, self.errors


def new_page(browser: Browser, watch: Watch, name: str) -> Page:
    """A page in its own browser context (its own cookies and storage), watched."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    return watch.page(page, name)


def open_page(browser: Browser, url: str, watch: Watch) -> Page:
    """``url`` in a new watched page; the server's strict policy must be in force on it."""
    page = new_page(browser, watch, url)
    response = page.goto(url)
    assert response is not None and response.ok, url
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy, policy
    return page


def create_table(base: str, seats: list[str], seed: int | None,
                 practice: bool | None = None) -> dict[str, Any]:
    """A table made through the API; a chosen seed with more than one person is a practice
    table, so ``practice`` defaults to true then (it must be absent without a seed)."""
    body: dict[str, Any] = {"game": "ankh-morpork", "seats": seats}
    if seed is not None:
        body["seed"] = seed
        if practice is None:
            practice = seats.count("human") > 1
    if practice is not None:
        body["practice"] = practice
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.is_success, response.text
    created: dict[str, Any] = response.json()
    return created


def wait_for_state(page: Page) -> None:
    """Wait until the table page has drawn a state from the server."""
    page.wait_for_function("() => document.body.dataset.step !== undefined")


def server_view(base: str, link: str) -> dict[str, Any]:
    response = httpx.get(f"{base}/api/view/{link.removeprefix('/play/')}")
    assert response.is_success, response.text
    data: dict[str, Any] = response.json()
    return data


def take_first_action(page: Page, by_map: bool = False) -> bool:
    """Click the first enabled action button, if the page shows one; wait for the answer.

    ``by_map``: click an area of the map instead, when exactly one action names it.
    """
    if page.evaluate("document.body.dataset.mine") != "yes":
        return False
    buttons = page.locator(ENABLED_ACTIONS)
    areas = page.locator("#board .area.can-act.one")
    target = areas.first if by_map and areas.count() else buttons.first
    if buttons.count() == 0:
        return False
    step = page.evaluate("document.body.dataset.step")
    target.click()
    while page.evaluate(STEPPING, step):  # issue 16.3: a big choice is taken in steps
        buttons.first.click()
    page.wait_for_function(NEXT_STATE, arg=step, timeout=15000)
    error = page.locator("#error .banner")
    assert error.count() == 0, f"the server refused a click: {error.inner_text()}"
    return True


def check_page_shows_only_its_view(page: Page, view: dict[str, Any]) -> None:
    """The hand, personality and players' table match the seat's own view from the server."""
    me = view["seats"][view["seat"]]
    hand = page.locator("#hand .card-name").all_inner_texts()
    assert sorted(hand) == sorted(view["hand"])
    expect(page.locator("#personality strong")).to_have_text(me["personality"])
    rows = page.locator("#players tbody tr")
    for i, seat in enumerate(view["seats"]):
        shown = seat["personality"] or "hidden"
        expect(rows.nth(i).locator("td").last).to_have_text(shown)


def test_two_people_play_a_whole_game_in_the_browser(
        server: str, browser: Browser, tmp_path: Path) -> None:
    """Two people play a whole game through their pages, each seeing only its own seat's
    view, while a spectator watches; issue 15: under the strict Content Security Policy
    (no page breaks it) and its connect-src 'self', live updates come over the WebSocket."""
    created = create_table(server, ["human", "human", "random", "random"], seed=4)
    links = [s["link"] for s in created["seats"] if s["link"]]
    assert len(links) == 2
    watch = Watch()
    pages = [open_page(browser, server + link, watch) for link in links]
    spectator = open_page(browser, server + created["spectator"], watch)
    for page in [*pages, spectator]:
        expect(page.locator("#board svg .area")).to_have_count(12)
        expect(page.locator("#status")).to_have_text("live")
        expect(page.locator("#status")).to_have_class("status status-live")
    for link in [*links, created["spectator"]]:
        ws_url = server.replace("http://", "ws://") + link.replace("/play/", "/ws/")
        assert ws_url in watch.sockets, (ws_url, watch.sockets)

    # Each page shows its own seat's view and nothing of the other's.
    for page, link in zip(pages, links, strict=True):
        page.wait_for_function("() => document.body.dataset.step !== undefined")
        check_page_shows_only_its_view(page, server_view(server, link)["view"])
    expect(spectator.locator("#hand-section")).to_be_hidden()
    expect(spectator.locator("#who")).to_contain_text("Spectator")

    start = time.monotonic()
    clicks = 0
    screenshot = tmp_path / "board.png"
    while not all(p.locator("#result .outcome").is_visible() for p in pages):
        assert time.monotonic() - start < GAME_DEADLINE, f"no end after {clicks} clicks"
        moved = False
        for page in pages:
            # Red places its pieces by clicking the map now and then.
            moved = take_first_action(page, by_map=page is pages[0] and clicks % 3 == 0) or moved
        if moved:
            clicks += 1
            if clicks == 40:
                pages[0].screenshot(path=screenshot, full_page=True)
                check_page_shows_only_its_view(pages[0], server_view(server, links[0])["view"])
                expect(spectator.locator(ENABLED_ACTIONS)).to_have_count(0)
                expect(spectator.locator("#players tbody td:last-child")).to_have_text(
                    ["hidden"] * 4)
        else:
            pages[0].wait_for_timeout(20)
    elapsed = time.monotonic() - start
    assert clicks > 20

    shutil.copyfile(screenshot, SCREENSHOT)
    pages[0].screenshot(path=tmp_path / "end.png", full_page=True)
    final = server_view(server, links[0])["view"]
    assert final["result"] is not None
    for page in [*pages, spectator]:
        expect(page.locator("#result .outcome")).to_be_visible()
        expect(page.locator("#players tbody td:last-child")).to_have_text(
            [s["personality"] for s in final["seats"]])
        expect(page.locator("#actions button")).to_have_count(0)
        expect(page.locator("#status")).to_have_text("live")
    token = links[0].removeprefix("/play/")
    expect(pages[0].locator("#result a", has_text="replay")).to_have_attribute(
        "href", created["replay"])  # issue 26: the public replay id, no seat in it
    expect(pages[0].locator("#result a", has_text="record")).to_have_attribute(
        "href", f"/api/record/{token}")
    watch.check()
    print(f"browser game: {clicks} clicks in {elapsed:.1f} s")


def test_a_refused_decision_is_explained_and_the_page_catches_up(
        server: str, browser: Browser) -> None:
    """A page that missed a state sends a stale decision: it says so and reloads the view
    (with no Content Security Policy violation)."""
    created = create_table(server, ["human", "random"], seed=3)
    link = created["seats"][0]["link"]
    token = link.removeprefix("/play/")
    frozen = False  # while True, the page hears only errors from the server

    def relay(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def down(message: str | bytes) -> None:
            if not frozen or json.loads(message).get("type") == "error":
                ws.send(message)
        upstream.on_message(down)

    watch = Watch()
    page = new_page(browser, watch, link)
    page.route_web_socket("**/ws/*", relay)
    page.goto(server + link)
    page.wait_for_function("() => document.body.dataset.mine === 'yes'")
    frozen = True
    seen = server_view(server, link)
    taken = httpx.post(f"{server}/api/act/{token}", json={
        "step": seen["step"], "action": seen["view"]["decision"]["actions_json"][0]})
    assert taken.is_success, taken.text
    assert page.evaluate("document.body.dataset.step") == str(seen["step"])
    page.locator(ENABLED_ACTIONS).first.click()
    expect(page.locator("#error .banner")).to_contain_text("refused")
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=seen["step"])
    watch.check()


def test_start_page_creates_a_table_with_private_links(server: str, browser: Browser) -> None:
    """The start page creates a table and shows one private link per person and the
    spectator's (with no Content Security Policy violation on either page)."""
    watch = Watch()
    page = open_page(browser, server + "/", watch)
    page.locator('input[name="players"][value="3"]').check()
    expect(page.locator("#seats select")).to_have_count(3)
    page.locator("#seat-1").select_option("human")
    page.locator("#seat-2").select_option("random")
    page.locator("#seed").fill("12")
    page.locator("#create").click()
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("#created")).to_contain_text("private to one seat")
    seat_links = page.locator("input.seat-link")
    expect(seat_links).to_have_count(2)
    expect(page.locator("input.spectator-link")).to_have_count(1)
    url = seat_links.nth(1).input_value()
    assert url.startswith(server + "/play/")
    page.goto(url)
    expect(page.locator("#who")).to_contain_text("Blue")
    expect(page.locator("#status")).to_have_text("live")
    watch.check()


def test_replay_page_steps_through_a_finished_game(server: str, browser: Browser) -> None:
    """The replay page steps through a finished game's public views (with no Content
    Security Policy violation)."""
    created = create_table(server, ["random", "random", "random"], seed=5)
    deadline = time.monotonic() + 60
    while server_view(server, created["spectator"])["view"]["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    token = created["spectator"].removeprefix("/play/")
    steps = len(httpx.get(f"{server}/api/record/{token}").json()["actions"])
    answer = httpx.get(f"{server}/api/replay/{token}", params={"step": 1})
    assert answer.status_code == 200, (
        f"the replay page needs GET /api/replay/{{token}}?step=k: {answer.text}")
    step_one = answer.json()
    assert (step_one["step"], step_one["steps"]) == (1, steps)
    assert step_one["view"]["seat"] is None and isinstance(step_one["log"], list)
    watch = Watch()
    page = open_page(browser, f"{server}/replay/{token}", watch)
    expect(page.locator("#counter")).to_have_text(f"Step 0 / {steps}")
    expect(page.locator("#board svg .area")).to_have_count(12)
    page.locator("#next").click()
    expect(page.locator("#counter")).to_have_text(f"Step 1 / {steps}")
    expect(page.locator("#action")).to_contain_text("Decision 1:")
    page.locator("#last").click()
    expect(page.locator("#counter")).to_have_text(f"Step {steps} / {steps}")
    expect(page.locator("#result .outcome")).to_be_visible()
    page.locator("#prev").click()
    expect(page.locator("#counter")).to_have_text(f"Step {steps - 1} / {steps}")
    expect(page.locator("#banner .banner-error")).to_have_count(0)
    watch.check()


def test_the_watch_sees_a_content_security_policy_violation(
        server: str, browser: Browser) -> None:
    """Issue 15: the pages' Content Security Policy checks are not vacuous: an inline style
    attribute (which the policy forbids) is reported by the watch."""
    watch = Watch()
    page = open_page(browser, server + "/", watch)
    page.evaluate("document.body.setAttribute('style', 'outline: 1px solid red')")
    page.wait_for_timeout(200)
    assert any("style-src" in text for text in watch.csp), watch.csp
    assert page.evaluate("getComputedStyle(document.body).outlineStyle") == "none"


def test_a_chosen_seed_is_marked_practice_on_every_seats_page(
        server: str, browser: Browser) -> None:
    """Issue 15: a chosen seed is marked practice on every seat's page. The start page says
    next to the seed field that a chosen seed makes a practice table, sends "practice": true
    with it, and says "practice table" with the links; both people's pages and the
    spectator's show the practice banner. A table made without a seed shows none."""
    watch = Watch()
    start = open_page(browser, server + "/", watch)
    expect(start.locator("#seed-practice")).to_be_visible()
    expect(start.locator("#seed-practice")).to_contain_text(
        "A chosen seed makes a practice table: whoever knows the seed can know every hidden "
        "card, and every seat's page says so.")
    assert start.locator("#seat-0 option").evaluate_all("os => os.map(o => o.value)") == [
        "human", "easy", "normal", "hard", "random", "heuristic", "ismcts"]
    expect(start.locator("#seat-1")).to_have_value("normal")  # issue 13.3: the middle level
    start.locator('input[name="players"][value="3"]').check()
    start.locator("#seat-0").select_option("human")
    start.locator("#seat-1").select_option("human")
    start.locator("#seat-2").select_option("random")
    start.locator("#seed").fill("7")
    with start.expect_request("**/api/tables") as request:
        start.locator("#create").click()
    sent = request.value.post_data_json
    assert (sent["seed"], sent["practice"]) == (7, True), sent
    expect(start.locator("#created")).to_be_visible()
    expect(start.locator("#practice-note")).to_be_visible()
    expect(start.locator("#practice-note")).to_contain_text("practice table")
    links = start.locator("input.seat-link").evaluate_all("inputs => inputs.map(i => i.value)")
    links.append(start.locator("input.spectator-link").input_value())
    assert len(links) == 3

    pages = [open_page(browser, url, watch) for url in links]
    for page, url in zip(pages, links, strict=True):
        wait_for_state(page)
        expect(page.locator(PRACTICE)).to_have_count(1)
        expect(page.locator(PRACTICE)).to_be_visible()
        expect(page.locator(PRACTICE)).to_have_text(PRACTICE_TEXT)
        assert server_view(server, url.removeprefix(server))["table"]["practice"] is True
    expect(pages[2].locator("#who")).to_contain_text("Spectator")
    pages[0].screenshot(path=PRACTICE_SCREENSHOT, full_page=True)
    # The banner stays through the table's next states.
    step = pages[0].evaluate("document.body.dataset.step")
    if take_first_action(pages[0]) or take_first_action(pages[1]):
        for page in pages:
            page.wait_for_function("s => document.body.dataset.step !== s", arg=step)
            expect(page.locator(PRACTICE)).to_have_text(PRACTICE_TEXT)

    # Without a seed: a real table, not a practice one, and no banner says otherwise.
    created = create_table(server, ["human", "human", "random"], seed=None)
    assert created["practice"] is False
    plain = [open_page(browser, server + link, watch)
             for link in [*(s["link"] for s in created["seats"] if s["link"]),
                          created["spectator"]]]
    for page in plain:
        wait_for_state(page)
        expect(page.locator("#banner .banner")).not_to_have_count(0)
        expect(page.locator(PRACTICE)).to_have_count(0)
        assert page.evaluate("document.body.dataset.practice") == "no"
    start.goto(server + "/")
    start.locator("#create").click()
    expect(start.locator("#created")).to_be_visible()
    expect(start.locator("#practice-note")).to_be_hidden()
    watch.check()


def test_a_failed_table_and_its_notices_are_shown_and_stop_decisions(
        server: str, browser: Browser) -> None:
    """Issue 15: what every seat is told of the table is shown: each notice as a banner and
    a failure as an alert; once the table has failed the page offers no decision (no
    choice button, no glowing area or card) and its status says failed, not live. The
    server's state messages are relayed to the page with a notice and a failure added."""
    created = create_table(server, ["human", "random"], seed=3)
    link = created["seats"][0]["link"]
    notice = ("Blue's bot (ismcts) took longer than 20 seconds to decide; the random bot "
              "plays for Blue from now on.")
    failure = "Blue's bot (random) stopped with an error; the game cannot go on"
    routes: list[WebSocketRoute] = []
    states: list[dict[str, Any]] = []

    def relay(ws: WebSocketRoute) -> None:
        routes.append(ws)
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                states.append(data)
            ws.send(message)
        upstream.on_message(down)

    watch = Watch()
    page = new_page(browser, watch, link)
    page.route_web_socket("**/ws/*", relay)
    page.goto(server + link)
    page.wait_for_function("() => document.body.dataset.mine === 'yes'")
    expect(page.locator(ENABLED_ACTIONS).first).to_be_visible()
    expect(page.locator("#status")).to_have_text("live")
    assert states and routes
    latest = max(states, key=lambda s: s["step"])
    assert latest["table"] == {"practice": True, "failed": None, "notices": [],
                               "game": "ankh-morpork", "title": "Discworld: Ankh-Morpork",
                               "board": True, "over": False, "colours": ["Red", "Blue"],
                               "names": [None, None], "bots": [None, "random"],  # issue 16
                               "replay": latest["table"]["replay"], "rematch": False,  # 26
                               "hints_on": True, "hints": [],  # issue 30
                               "public": False, "free": [],
                               "spectators_chat": False, "clock": None}  # issue 31

    # A bot was replaced: the notice is shown, and decisions go on.
    routes[-1].send(json.dumps({**latest, "table": {**latest["table"], "notices": [notice]}}))
    expect(page.locator(NOTICE)).to_have_text([notice])
    expect(page.locator(FAILED)).to_have_count(0)
    expect(page.locator(ENABLED_ACTIONS).first).to_be_enabled()

    # Then the table fails: an alert, and no decision can be taken any more.
    routes[-1].send(json.dumps({**latest, "table": {
        **latest["table"], "failed": failure, "notices": [notice]}}))
    expect(page.locator(FAILED)).to_have_text(
        f"This table has failed: {failure}. No decision can be taken any more.")
    expect(page.locator(FAILED)).to_have_attribute("role", "alert")
    expect(page.locator(NOTICE)).to_have_text([notice])
    expect(page.locator(PRACTICE)).to_have_text(PRACTICE_TEXT)
    expect(page.locator("#banner .banner-mine, #banner .banner-interrupt")).to_have_count(0)
    expect(page.locator(ENABLED_ACTIONS)).to_have_count(0)
    expect(page.locator("#decision")).to_be_hidden()
    expect(page.locator("#board .area.can-act")).to_have_count(0)
    expect(page.locator("#hand .card.can-act")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("table failed")
    expect(page.locator("#status")).to_have_class("status status-failed")
    assert page.evaluate("document.body.dataset.mine") == "no"
    assert page.evaluate("document.title").startswith("Failed")
    watch.check()


def test_a_table_whose_bots_fail_says_so_on_every_page(
        failing_server: str, browser: Browser) -> None:
    """Issue 15: when a bot fails, every seat is told: the notice that the random bot took
    over, then the table's failure when it fails too, on the person's page and the
    spectator's, with no decision left to take."""
    created = create_table(failing_server, ["human", "heuristic"], seed=0)
    link = created["seats"][0]["link"]
    watch = Watch()
    pages = [open_page(browser, failing_server + url, watch)
             for url in (link, created["spectator"])]
    for page in pages:
        expect(page.locator(FAILED)).to_be_visible(timeout=30000)
        expect(page.locator(FAILED)).to_contain_text(
            "This table has failed: Blue's bot (random) stopped with an error; the game "
            "cannot go on.")
        expect(page.locator(NOTICE)).to_have_text([
            "Blue's bot (heuristic) stopped with an error; the random bot plays for Blue "
            "from now on."])
        expect(page.locator(PRACTICE)).to_be_visible()  # its seed, 0, was chosen
        expect(page.locator(ENABLED_ACTIONS)).to_have_count(0)
        expect(page.locator("#status")).to_have_text("table failed")
        expect(page.locator("#players .tag-deciding")).to_be_hidden()  # nobody decides now
    expect(pages[0].locator("#decision")).to_be_hidden()
    assert server_view(failing_server, link)["table"]["failed"] is not None
    watch.check()


def test_a_game_without_a_board_is_played_through_the_generic_panel(
        toy_server: str, browser: Browser, tmp_path: Path) -> None:
    """A game with no web folder (the toy game) is playable on the day it registers: the
    start page offers it with its seat range and bot levels; its table page shows the view
    as JSON, the log and one button per choice (sending that choice's JSON), with no board
    loaded; the spectator gets no buttons; the replay page shows each step's view as JSON.
    All under the strict Content Security Policy."""
    watch = Watch()
    start = open_page(browser, toy_server + "/", watch)
    expect(start.locator("#game option")).to_have_count(len(game_names()))
    start.locator("#game").select_option("toy")
    expect(start.locator("#game-name")).to_have_text("toy")
    assert start.locator('input[name="players"]').evaluate_all(
        "rs => rs.map(r => r.value)") == ["2", "3", "4"]
    start.locator('input[name="players"][value="2"]').check()
    expect(start.locator("#seats label")).to_have_text(["Seat 1", "Seat 2"])
    assert start.locator("#seat-1 option").evaluate_all("os => os.map(o => o.value)") == [
        "human", "easy", "normal", "hard", "random", "ismcts"]
    start.locator("#seat-1").select_option("random")
    start.locator("#seed").fill("3")
    with start.expect_request("**/api/tables") as request:
        start.locator("#create").click()
    assert request.value.post_data_json["game"] == "toy"
    expect(start.locator("input.seat-link")).to_have_count(1)
    link = start.locator("input.seat-link").input_value().removeprefix(toy_server)
    spectator_link = start.locator("input.spectator-link").input_value()

    page = open_page(browser, toy_server + link, watch)
    spectator = open_page(browser, spectator_link, watch)
    for p in (page, spectator):
        wait_for_state(p)
        expect(p.locator("#generic-panel")).to_be_visible()
        expect(p.locator("#game-name")).to_have_text("toy")
        assert p.evaluate("document.body.dataset.board") == "no"
        expect(p.locator("#board")).to_have_count(0)
        expect(p.locator("#status")).to_have_text("live")
    expect(page.locator("#who")).to_have_text("You play seat 1")
    expect(spectator.locator("#who")).to_contain_text("Spectator")
    assert not any("/games/" in url for url in watch.sockets)

    clicks = 0
    deadline = time.monotonic() + 60
    while page.evaluate("document.body.dataset.over") != "yes":
        assert time.monotonic() < deadline, f"no end after {clicks} clicks"
        data = server_view(toy_server, link)
        if data["choices"] and page.evaluate("document.body.dataset.mine") == "yes":
            texts = page.locator(ENABLED_ACTIONS).all_inner_texts()
            assert texts == [c["text"] for c in data["choices"]]
            hand = page.locator("#generic-view [data-path='/hand'] .json-number")
            assert sorted(int(x) for x in hand.all_inner_texts()) == data["view"]["hand"]
            if clicks == 0:
                page.screenshot(path=GENERIC_SCREENSHOT, full_page=True)
            assert take_first_action(page)
            clicks += 1
            expect(spectator.locator(ENABLED_ACTIONS)).to_have_count(0)
        else:
            page.wait_for_timeout(20)
    assert clicks >= 2
    final = server_view(toy_server, link)
    assert final["table"]["over"] and final["view"]["result"] is not None
    for p in (page, spectator):
        expect(p.locator("#result")).to_contain_text("The game is over.")
        expect(p.locator("#actions button")).to_have_count(0)
    page.screenshot(path=tmp_path / "toy-end.png", full_page=True)
    log = page.locator("#log li").all_inner_texts()
    assert log == final["log"]

    token = link.removeprefix("/play/")
    page.locator("#result a", has_text="replay").click()
    expect(page.locator("#counter")).to_contain_text("Step 0 /")
    expect(page.locator("#generic-panel")).to_be_visible()
    expect(page.locator("#game-name")).to_have_text("toy · replay")
    page.locator("#next").click()
    expect(page.locator("#counter")).to_contain_text("Step 1 /")
    expect(page.locator("#action")).to_contain_text("Decision 1:")
    page.locator("#last").click()
    expect(page.locator("#result")).to_contain_text("The game is over.")
    public = server_view(toy_server, link)["table"]["replay"]  # issue 26: no seat in it
    assert page.url.startswith(f"{toy_server}/replay/{public}") and token not in page.url
    watch.check()
