"""Issue 31 in the browser: a live table's clocks show in the seats strip of both people's
pages, the running seat's time counting down; when it runs out the stand-in plays that seat,
whose page says so with "Take my seat back" while the other page reads "stand-in (easy)", and
one click gives the seat back. The start page offers the clock and "Spectators read the chat".
Screenshots: /tmp/citywatch-clock-table.png and /tmp/citywatch-clock-start.png (1366x800)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect
from starlette.applications import Starlette
from test_browser import Watch, open_page, serving, wait_for_state
from web_helpers import TUTORIAL, keep_screenshot, shared_browser  # noqa: F401  (the fixture)

from citywatch.server import create_app
from citywatch.server.tables import Tables

TABLE_SHOT = Path("/tmp/citywatch-clock-table.png")
START_SHOT = Path("/tmp/citywatch-clock-start.png")
LIVE = {"kind": "live", "move": 30, "reserve": 60, "stand_in": "easy"}
COUNTDOWN = re.compile(r"^0:(\d\d) \+ 1:00$")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Starlette, str]]:
    """A real server (uvicorn in a thread, no bot delay) and its app, whose tables' clock a
    test may move on."""
    app = create_app(f"sqlite:///{tmp_path / 'clocks.db'}", bot_delay=0, bot_workers=1)
    with serving(app) as base:
        yield app, base


def test_the_clocks_tick_and_a_timed_out_seat_is_taken_back_in_one_click(
        served: tuple[Starlette, str], browser: Browser, tmp_path: Path) -> None:
    """Issue 31, clocks on the pages: at a live table of two people both pages show the rule
    and each seat's clock, the running one counting down ("0:29 + 1:00"); once the running
    seat's time runs out its page shows "Your time ran out: the easy bot plays for you", the
    other page "stand-in (easy)" beside that seat, and one click on "Take my seat back" gives
    the seat back (the banner goes, and no page reads "stand-in" any more); the replay shows
    each person's reserve after the stand-in's decision (the timed-out seat's gone)."""
    app, base = served
    response = httpx.post(f"{base}/api/tables", json={
        "game": "black-keep", "seats": ["human", "human"], "options": TUTORIAL,
        "clock": LIVE}, timeout=60)
    assert response.is_success, response.text
    created = response.json()
    watch = Watch()
    pages = []
    for seat in created["seats"]:
        page = open_page(browser, base + seat["link"], watch)
        page.set_viewport_size({"width": 1366, "height": 800})
        wait_for_state(page)
        expect(page.locator("#status")).to_have_text("live")
        pages.append(page)
    view = httpx.get(f"{base}/api/view/{created['seats'][0]['link'].removeprefix('/play/')}")
    mover = view.json()["table"]["clock"]["running"]
    other = 1 - mover
    for page in pages:
        expect(page.locator("#clock-rule")).to_have_text(
            "Live clock: 30 s per decision + 1 min reserve · stand-in: easy bot")
        expect(page.locator(f'.seat-clock[data-seat="{other}"]')).to_have_text("reserve 1:00")
        running = page.locator(f'.seat-clock[data-seat="{mover}"]')
        expect(running).to_have_class(re.compile(r"\bclock-running\b"))
        expect(running).to_have_text(COUNTDOWN)
    running = pages[other].locator(f'.seat-clock[data-seat="{mover}"]')
    shown = COUNTDOWN.fullmatch(running.inner_text())
    assert shown is not None
    first = int(shown.group(1))
    pages[other].wait_for_function(
        "([seat, first]) => { const m = /^0:(\\d\\d) /.exec(document.querySelector("
        "`.seat-clock[data-seat=\"${seat}\"]`).textContent); return m && Number(m[1]) < first; }",
        arg=[mover, first], timeout=4000)
    keep_screenshot(pages[mover], tmp_path, TABLE_SHOT)
    tables = app.state.tables
    assert isinstance(tables, Tables)
    later = datetime.now(UTC) + timedelta(hours=1)
    tables.now = lambda: later  # the mover's time runs out at the next sweep
    away = pages[mover].locator('#banner [data-kind="away"]')
    expect(away).to_contain_text("Your time ran out: the easy bot plays for you.",
                                 timeout=10000)
    expect(pages[other].locator(f'.seat-clock[data-seat="{mover}"]')).to_have_text(
        "stand-in (easy)")
    expect(pages[other].locator('#banner [data-kind="away"]')).to_have_count(0)
    pages[mover].locator("#take-back").click()
    expect(away).to_have_count(0)
    expect(pages[mover].locator(f'.seat-clock[data-seat="{mover}"]')).not_to_have_text(
        "stand-in (easy)")
    expect(pages[other].locator(f'.seat-clock[data-seat="{mover}"]')).not_to_have_text(
        "stand-in (easy)")
    assert pages[mover].locator("#error .banner").count() == 0
    colours = [seat["colour"] for seat in created["seats"]]
    reserves = [f"{colours[seat]} {'0:00' if seat == mover else '1:00'}" for seat in (0, 1)]
    replay = pages[other]
    replay.goto(f"{base}{created['replay']}#1")
    expect(replay.locator("#replay-clock")).to_have_text(
        f"Live clock, reserves after this decision: {' · '.join(reserves)}")
    watch.check()
    for page in pages:
        page.context.close()


def test_the_start_page_sends_the_clock_and_spectators_chat(
        served: tuple[Starlette, str], browser: Browser, tmp_path: Path) -> None:
    """Issue 31: the start page's clock is none by default; live offers a time per decision,
    a reserve and a stand-in among the game's bots (easy first chosen), turn-based a time per
    move; the table made has the clock and spectators_chat chosen."""
    _, base = served
    watch = Watch()
    page = open_page(browser, base + "/", watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.select_option("#game", "black-keep")
    page.select_option("#setup-scenario", "tutorial")
    expect(page.locator("#clock-kind")).to_have_value("")
    expect(page.locator("#clock-live")).to_be_hidden()
    page.select_option("#clock-kind", "turn-based")
    expect(page.locator("#clock-turn")).to_be_visible()
    expect(page.locator("#clock-move-turn option")).to_have_text(
        ["1 hour", "8 hours", "24 hours", "48 hours", "72 hours", "7 days", "14 days"])
    page.select_option("#clock-kind", "live")
    expect(page.locator("#clock-turn")).to_be_hidden()
    expect(page.locator("#clock-stand-in")).to_have_value("easy")
    page.select_option("#clock-move-live", "15")
    page.select_option("#clock-reserve", "120")
    page.select_option("#clock-stand-in", "random")
    page.select_option("#seat-1", "human")
    page.check("#spectators-chat")
    page.locator("#clock-choice").scroll_into_view_if_needed()
    page.screenshot(path=START_SHOT)
    page.locator("#create").click()
    link = page.locator(".spectator-link")
    expect(link).to_be_visible()
    spectator = link.input_value().rsplit("/", 1)[1]
    about = httpx.get(f"{base}/api/view/{spectator}").json()["table"]
    assert about["spectators_chat"] is True
    clock = about["clock"]
    assert (clock["kind"], clock["move"], clock["reserve"], clock["stand_in"]) == (
        "live", 15, 120, "random")
    watch.check()
    page.context.close()
