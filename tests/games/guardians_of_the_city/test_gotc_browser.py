"""Guardians of the City Vol.2 in a real browser (Debian's chromium, driven by Playwright).

A real server runs in a thread (as in ``test_browser``); one person plays a whole game against
a random bot through the table page's board (``citywatch/games/guardians_of_the_city/web``):
National Effort with the effort controls (the deck's plan in one click, or one click per
pillar, or keeping it), Action cards by clicking the glowing cards of the hand, cells and
Citizen Groups by clicking them, every other decision by its button, until the game is over.
On the way the page shows the three cells with their strength, every nation's five pillars and
four groups, and the person's hand as the server's view has it; no page reports a script error
or breaks the Content Security Policy, and the bot never failed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    ENABLED_ACTIONS,
    Watch,
    browser,
    server_view,
)
from web_helpers import (
    check_refusal,
    check_the_end,
    click_and_wait,
    create_table,
    decisions,
    keep_screenshot,
    open_board,
    real_server,
)

GAME = "guardians-of-the-city"
SEATS = ["human", "random"]
SEED = 5
"""The table's seed: the bot and the person's choices are deterministic with it."""
GAME_DEADLINE = 150.0
"""Seconds the whole game may take in the browser before the test fails."""
FINAL_SCREENSHOT = Path("/tmp/gotc-final.png")
MID_SCREENSHOT = Path("/tmp/gotc-mid.png")

PLAN_DONE = """(before) => document.body.dataset.pending !== 'yes'
    && document.getElementById('gc-effort').dataset.plan !== 'yes'
    && (document.body.dataset.step !== before
        || document.querySelector('#error .banner') !== null)"""
HAND_CARDS = "#gc-hand .gc-hand .gc-card"
PLAYABLE = "#gc-hand .gc-card.playable.can-act"
LEVELS = "#gc-effort .gc-effort-row.now .gc-level.can-act"


@pytest.fixture
def gotc_server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    yield from real_server(tmp_path, "gotc.db")


def take_a_decision(page: Page, rnd: random.Random) -> str:
    """Take one decision through the board where it offers it; how: "plan", "level",
    "keep", "card", "cell", "group" or "button"."""
    buttons = page.locator(ENABLED_ACTIONS)
    texts = buttons.all_inner_texts()
    assert texts, "a decision of the person's with no choice button"
    if page.locator("#gc-effort").is_visible():
        suggested = page.locator("#gc-effort .gc-suggested:not([disabled])")
        keep = page.locator("#gc-effort .gc-keep:not([disabled])")
        if keep.count() and rnd.random() < 0.6:
            click_and_wait(page, keep)
            return "keep"
        if suggested.count() and rnd.random() < 0.7:
            step = page.evaluate("document.body.dataset.step")
            suggested.click()
            page.wait_for_function(PLAN_DONE, arg=step, timeout=20000)
            check_refusal(page)
            return "plan"
        levels = page.locator(LEVELS)
        assert levels.count(), "the effort panel offers no level for the pillar asked"
        click_and_wait(page, levels.nth(rnd.randrange(levels.count())))
        return "level"
    if any(t.startswith("Play ") for t in texts):
        playable = page.locator(PLAYABLE)
        if playable.count() and rnd.random() < 0.85:
            click_and_wait(page, playable.nth(rnd.randrange(playable.count())))
            return "card"
    if any(t.startswith("Draw back up") for t in texts):
        draw = next(i for i, t in enumerate(texts) if t.startswith("Draw back up"))
        cards = page.locator(f"{HAND_CARDS}.can-act")
        if cards.count() and rnd.random() < 0.25:
            click_and_wait(page, cards.first)  # discard one card by clicking it
            return "card"
        click_and_wait(page, buttons.nth(draw))
        return "button"
    for kind, selector in (("cell", "#gc-table .gc-cell.can-act"),
                           ("group", "#gc-nations .gc-own .gc-group.can-act")):
        found = page.locator(selector)
        if found.count():
            click_and_wait(page, found.nth(rnd.randrange(found.count())))
            return kind
    click_and_wait(page, buttons.nth(rnd.randrange(len(texts))))
    return "button"


def check_board(page: Page, view: dict[str, Any]) -> None:
    """The cells, the nations' pillars and groups, the scores and the hand are shown as the
    server's view for this seat has them."""
    cells = page.locator("#gc-table .gc-cell")
    expect(cells).to_have_count(3)
    for i, cell in enumerate(view["cells"]):
        expect(cells.nth(i).locator(".gc-cell-name")).to_have_text(cell["name"])
        expect(cells.nth(i).locator(".gc-strength")).to_have_text(str(cell["strength"]))
    nations = page.locator("#gc-nations .gc-nation")
    expect(nations).to_have_count(len(view["seats"]))
    for i, seat in enumerate(view["seats"]):
        nation = nations.nth(i)
        expect(nation.locator(".gc-pillar")).to_have_count(5)
        expect(nation.locator(".gc-group")).to_have_count(4)
        expect(nation.locator(".gc-score")).to_have_text(f"Score {seat['score']}")
        efforts = nation.locator(".gc-effort").all_inner_texts()
        assert efforts == [str(v) for v in seat["effort"].values()]
        support = nation.locator(".gc-support").all_inner_texts()
        assert support == [str(v) if v else "left" for v in seat["support"].values()]
    hand = [card["name"] for card in view["own"]["hand"]]
    expect(page.locator("#gc-hand h2")).to_have_text(f"Your hand ({len(hand)})")
    shown = page.locator(f"{HAND_CARDS} .gc-card-name").all_inner_texts()
    assert sorted(shown) == sorted(hand)
    met = page.locator(f"{HAND_CARDS}.met").count()
    assert met == sum(card["requirement_met"] for card in view["own"]["hand"])


def test_one_person_plays_a_whole_game_of_guardians_in_the_browser(
        gotc_server: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """One person against a random bot, to the end, through the board's effort controls,
    hand cards, cells and groups (buttons otherwise); the board matches the server's view on
    the way, with no script error, no Content Security Policy violation and no bot failure
    (the server would have replaced the bot and said so in a notice)."""
    link = create_table(gotc_server, GAME, SEATS, SEED)
    watch = Watch()
    page = open_board(browser, gotc_server + link, watch)
    expect(page.locator("#gc-table .gc-cell")).to_have_count(3)

    rnd = random.Random(SEED)
    start = time.monotonic()
    clicks: dict[str, int] = {}
    checked = 0
    for taken in decisions(page, GAME_DEADLINE, clicks):
        if taken % 7 == 0:
            data = server_view(gotc_server, link)
            if data["step"] == int(page.evaluate("document.body.dataset.step")):
                check_board(page, data["view"])
                checked += 1
        if taken == 25:
            page.screenshot(path=MID_SCREENSHOT, full_page=True)
        how = take_a_decision(page, rnd)
        clicks[how] = clicks.get(how, 0) + 1
    elapsed = time.monotonic() - start

    final = check_the_end(page, gotc_server, link)
    expect(page.locator("#gc-effort")).to_be_hidden()
    check_board(page, final["view"])

    assert checked >= 2, "the board was never compared with the server's view"
    assert clicks.get("plan", 0) + clicks.get("level", 0) >= 1, clicks
    assert clicks.get("card", 0) >= 2, clicks

    keep_screenshot(page, tmp_path, FINAL_SCREENSHOT)
    watch.check()
    assert not final["table"]["notices"], final["table"]["notices"]
    print(f"guardians browser game: {clicks} clicks in {elapsed:.1f} s; "
          f"{final['view']['result']}")
