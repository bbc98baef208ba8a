"""The web pages in a real browser (Debian's chromium, driven by Playwright).

A real server runs in a thread; two people play a whole game against two random bots by
clicking the first button their page shows, while a spectator watches; then the replay page
steps through the finished game. Also: ``static/cards.json`` is what ``make_static`` writes.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, WebSocketRoute, expect, sync_playwright

from citywatch.server import create_app
from citywatch.server.make_static import CARDS_JSON, render

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update"]
GAME_DEADLINE = 150.0
"""Seconds the whole game may take in the browser before the test fails."""
SCREENSHOT = Path("/tmp/citywatch-board.png")

ENABLED_ACTIONS = "#actions button.action:not([disabled])"
NEXT_STATE = """(before) => document.body.dataset.step !== before
    || document.querySelector('#error .banner') !== null"""


def test_cards_json_is_up_to_date() -> None:
    """The committed static/cards.json is exactly what make_static writes."""
    assert CARDS_JSON.read_text(encoding="utf-8") == render(), (
        "static/cards.json is stale: run python -m citywatch.server.make_static")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    app = create_app(f"sqlite:///{tmp_path / 'browser.db'}", bot_delay=0)
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
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Browser, url: str, errors: list[str]) -> Page:
    """A page in its own browser context (its own cookies and storage), watched for errors."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.on("pageerror", lambda exc: errors.append(f"{url}: {exc}"))
    page.on("console", lambda m: errors.append(f"{url}: {m.text}") if m.type == "error" else None)
    page.goto(url)
    return page


def create_table(base: str, seats: list[str], seed: int) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables",
                          json={"game": "ankh-morpork", "seats": seats, "seed": seed})
    assert response.is_success, response.text
    created: dict[str, Any] = response.json()
    return created


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
    created = create_table(server, ["human", "human", "random", "random"], seed=4)
    links = [s["link"] for s in created["seats"] if s["link"]]
    assert len(links) == 2
    errors: list[str] = []
    pages = [open_page(browser, server + link, errors) for link in links]
    spectator = open_page(browser, server + created["spectator"], errors)
    for page in [*pages, spectator]:
        expect(page.locator("#board svg .area")).to_have_count(12)

    # Each page shows its own seat's view and nothing of the other's.
    for page, link in zip(pages, links, strict=True):
        page.wait_for_function("document.body.dataset.step !== undefined")
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
    token = links[0].removeprefix("/play/")
    expect(pages[0].locator("#result a", has_text="replay")).to_have_attribute(
        "href", f"/replay/{token}")
    expect(pages[0].locator("#result a", has_text="record")).to_have_attribute(
        "href", f"/api/record/{token}")
    assert not errors, errors
    print(f"browser game: {clicks} clicks in {elapsed:.1f} s")


def test_a_refused_decision_is_explained_and_the_page_catches_up(
        server: str, browser: Browser) -> None:
    """A page that missed a state sends a stale decision: it says so and reloads the view."""
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

    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route_web_socket("**/ws/*", relay)
    page.goto(server + link)
    page.wait_for_function("document.body.dataset.mine === 'yes'")
    frozen = True
    seen = server_view(server, link)
    taken = httpx.post(f"{server}/api/act/{token}", json={
        "step": seen["step"], "action": seen["view"]["decision"]["actions_json"][0]})
    assert taken.is_success, taken.text
    assert page.evaluate("document.body.dataset.step") == str(seen["step"])
    page.locator(ENABLED_ACTIONS).first.click()
    expect(page.locator("#error .banner")).to_contain_text("refused")
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=seen["step"])
    assert not errors, errors


def test_start_page_creates_a_table_with_private_links(server: str, browser: Browser) -> None:
    errors: list[str] = []
    page = open_page(browser, server + "/", errors)
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
    assert not errors, errors


def test_replay_page_steps_through_a_finished_game(server: str, browser: Browser) -> None:
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
    errors: list[str] = []
    page = open_page(browser, f"{server}/replay/{token}", errors)
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
    assert not errors, errors
