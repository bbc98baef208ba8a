"""Issue 26 in the browser, every game at 1366x800: the end screen shows each seat's points
part by part (adding up to the server's ``end``), its result and what the end reveals, and a
rematch button in view that nothing covers; the rematch takes the person to their own seat at
a new table of the same seats and levels; the public replay shows the same end. Screenshots:
/tmp/citywatch-end-<game>.png."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect
from test_browser import Watch, open_page, server_view
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    shared_browser,
    shared_server,
)

ENDS: dict[str, tuple[list[str], dict[str, Any] | None]] = {
    "ankh-morpork": (["human", "random"], None),
    "guards-guards": (["human", "random", "random"], {"rounds": 3}),
    "guardians-of-the-city": (["human", "random"], None),
    "black-keep": (["human", "human"], {"mode": "rivals"}),
}
"""Each game's seats and options for a game a person's first choices end soon."""

SMALLEST_TEXT = """() => {
  const sizes = [];
  const walk = document.createTreeWalker(document.querySelector('#result'), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    if (node.textContent.trim()) sizes.push(size);
  }
  return Math.min(...sizes);
}"""
"""The smallest computed font size of any text of the end screen, in px."""

UNCOVERED = """(id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return hit !== null && (hit.id === id || hit.closest('#' + id) !== null);
}"""
"""Whether the element ``id`` is what a click at its centre reaches (nothing covers it)."""


def finish(base: str, game: str) -> dict[str, Any]:
    """A table of ``game`` (``ENDS``) whose people take their first choice until it ends."""
    seats, options = ENDS[game]
    body: dict[str, Any] = {"game": game, "seats": seats, "names": [
        "Ann" if i == 0 else None for i in range(len(seats))]}
    if options:
        body["options"] = options
    created: dict[str, Any] = httpx.post(f"{base}/api/tables", json=body, timeout=60).json()
    links = [s["link"] for s in created["seats"] if s["link"]]
    deadline = time.monotonic() + 240
    while not server_view(base, links[0])["table"]["over"]:
        assert time.monotonic() < deadline, f"the {game} game did not end"
        moved = False
        for link in links:
            data = server_view(base, link)
            if data["choices"]:
                httpx.post(f"{base}/api/act/{link.removeprefix('/play/')}", json={
                    "step": data["step"], "action": data["choices"][0]["json"]}, timeout=60)
                moved = True
        if not moved:
            time.sleep(0.02)
    return created


@pytest.mark.parametrize("game", list(ENDS))
def test_the_end_screen_shows_the_breakdown_and_a_rematch_at_1366x800(
        server: str, browser: Browser, game: str) -> None:
    """Issue 26: at 1366x800 the end screen shows one card per seat whose parts add up to its
    points (the server's ``end``), with its result in words and what the end reveals; no text
    under 11 px; the rematch button is in view and nothing covers it. Clicking it takes the
    person to their own seat (the same one) at a new table of the same seats and levels."""
    created = finish(server, game)
    link = created["seats"][0]["link"]
    end = server_view(server, link)["end"]
    assert end is not None
    watch = Watch()
    page = open_page(browser, server + link, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    cards = page.locator("#result .end-seat")
    expect(cards).to_have_count(len(end["seats"]))
    assert cards.locator(".end-sum td.num").all_inner_texts() == [
        str(seat["points"]) for seat in end["seats"]]
    for card, seat in zip(cards.all(), end["seats"], strict=True):
        assert seat["points"] == sum(part["points"] for part in seat["parts"])
        expect(card.locator(".end-result")).to_have_text(seat["result"])
        expect(card.locator(".end-parts th")).to_have_text(
            [part["label"] for part in seat["parts"]] + ["Total"])
        expect(card.locator(".end-revealed dd")).to_have_text(
            [fact["value"] for fact in seat["revealed"]])
    expect(cards.first).to_contain_text("Ann (you)")
    assert page.evaluate(SMALLEST_TEXT) >= 11
    rematch = page.locator("#rematch")
    expect(rematch).to_have_text("Rematch")
    box = rematch.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800
    assert page.evaluate(UNCOVERED, "rematch")
    expect(page.locator("#replay-link")).to_have_attribute("href", created["replay"])
    page.screenshot(path=f"/tmp/citywatch-end-{game}.png")
    rematch.click()
    page.wait_for_url(lambda url: link not in url and "/play/" in url, timeout=30000)
    new_link = page.url.removeprefix(server)
    again = server_view(server, new_link)
    before = server_view(server, link)
    assert again["seat"] == 0 and not again["table"]["over"]
    assert again["table"]["bots"] == before["table"]["bots"]
    assert again["table"]["names"][0] == "Ann"
    assert before["table"]["rematch"] is True
    watch.check()


def test_the_public_replay_shows_the_end_and_during_the_game_says_so(
        server: str, browser: Browser) -> None:
    """Issue 26: the public replay link of a finished game shows, at its last step, the same
    breakdown as the end screen; during a game it shows what a spectator saw so far, says the
    game is still being played and offers no record."""
    going = httpx.post(f"{server}/api/tables", json={
        "game": "ankh-morpork", "seats": ["human", "random"]}, timeout=60).json()
    watch = Watch()
    page = open_page(browser, server + going["replay"], watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    expect(page.locator("#banner [data-kind='live']")).to_contain_text("still being played")
    expect(page.locator("#download")).to_be_hidden()
    expect(page.locator("#result")).to_be_hidden()
    created = finish(server, "black-keep")
    end = server_view(server, created["seats"][0]["link"])["end"]
    page = open_page(browser, server + created["replay"], watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    page.locator("#last").click()
    cards = page.locator("#result .end-seat")
    expect(cards).to_have_count(len(end["seats"]))
    expect(cards.locator(".end-result")).to_have_text([s["result"] for s in end["seats"]])
    expect(page.locator("#download")).to_be_visible()
    watch.check()
