"""Issue 31 in the browser: a person writes in the chat panel (with its 200-character
counter) and every seat's page and, when the table allows, the spectator's show the message as
plain text, markup and addresses included, never as HTML or a live link; a mute hides a seat's
messages on the muting page only, and lasts across a reload. Screenshot:
/tmp/citywatch-chat.png (1366x800)."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect
from test_browser import Watch, open_page, wait_for_state
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    keep_screenshot,
    shared_browser,
    shared_server,
)

CHAT_SHOT = Path("/tmp/citywatch-chat.png")
WRITTEN = "<b>x</b> see https://example.com"


def test_chat_is_plain_text_reaches_every_page_and_mutes_per_seat(
        server: str, browser: Browser, tmp_path: Path) -> None:
    """Issue 31: at a table of two people with "spectators_chat" on, the first seat (Ann)
    writes `<b>x</b>` and an address: both people's pages and the spectator's list it as
    the very text written, with Ann's name, colour and a time, and no bold element nor any
    link is made of it; the counter counts what is typed; the second seat's mute hides
    Ann's message on its page only, still hidden after a reload, and unmuting shows it again."""
    created = httpx.post(f"{server}/api/tables", json={
        "game": "black-keep", "seats": ["human", "human"], "options": {"scenario": "tutorial"},
        "names": ["Ann", None], "spectators_chat": True}, timeout=60).json()
    watch = Watch()
    pages = []
    for link in (created["seats"][0]["link"], created["seats"][1]["link"], created["spectator"]):
        page = open_page(browser, server + link, watch)
        page.set_viewport_size({"width": 1366, "height": 800})
        wait_for_state(page)
        expect(page.locator("#status")).to_have_text("live")
        pages.append(page)
    red, blue, spectator = pages
    colour = created["seats"][0]["colour"]
    expect(spectator.locator("#chat-panel")).to_be_visible()
    expect(spectator.locator("#chat-form")).to_be_hidden()
    box = red.locator("#chat-input")
    box.fill(WRITTEN)
    expect(red.locator("#chat-count")).to_have_text(f"{len(WRITTEN)}/200")
    red.locator("#chat-send").click()
    expect(box).to_have_value("")
    for page in pages:
        item = page.locator("#chat-list li")
        expect(item).to_have_count(1)
        expect(item.locator(".chat-text")).to_have_text(WRITTEN)
        expect(item).to_contain_text(f"Ann ({colour}):")
        expect(item.locator(".chat-time")).not_to_be_empty()
        assert page.locator("#chat-list b, #chat-list a").count() == 0
        assert page.locator("#chat-list li .chat-text").evaluate(
            "(node) => node.childElementCount") == 0
    mute = blue.locator('#chat-mutes button[data-seat="0"]')
    expect(mute).to_have_text(f"Mute Ann ({colour})")
    mute.click()
    expect(blue.locator("#chat-list li")).to_have_count(0)
    expect(spectator.locator("#chat-list li")).to_have_count(1)
    expect(red.locator("#chat-list li")).to_have_count(1)
    blue.reload()
    wait_for_state(blue)
    expect(blue.locator('#chat-mutes button[data-seat="0"]')).to_have_attribute(
        "aria-pressed", "true")
    expect(blue.locator("#chat-list li")).to_have_count(0)
    blue.locator('#chat-mutes button[data-seat="0"]').click()
    expect(blue.locator("#chat-list li")).to_have_count(1)
    blue.locator("#chat-input").fill("y" * 250)
    expect(blue.locator("#chat-count")).to_have_text("200/200")  # the box takes 200 at most
    keep_screenshot(red, tmp_path, CHAT_SHOT)
    assert watch.errors == [] and watch.csp == [], (watch.errors, watch.csp)
    for page in pages:
        page.close()
