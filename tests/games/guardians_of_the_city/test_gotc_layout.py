"""Issue 26 for Guardians of the City: the table at a laptop's window. At 1280x720, 1366x800
and 1920x1080, mid-game at a decision of the person's (playing Action cards) and on the end
screen: the hand in full, a strip across the main column in the window (no longer a side box
87 to 151 px tall); the cells and the nations (one's own first) uncovered, no nation box
cutting its rows, no text under 11 px; nothing sticky over them or the end. Screenshots:
/tmp/citywatch-gotc-layout-<size>.png and /tmp/citywatch-gotc-layout-end-<size>.png."""

from __future__ import annotations

from layout_helpers import (
    CUT_CARDS,
    SIZES,
    advance,
    check_nothing_sticks,
    check_own_cards,
    check_text_sizes,
    check_uncovered,
    inside,
    into_view,
    make_table,
    open_at,
    rect,
    scrolled,
    to_top,
    window,
)
from playwright.sync_api import Browser, Page
from test_browser import Watch
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    shared_browser,
    shared_server,
)

GAME = "guardians-of-the-city"
SEATS = ["human", "heuristic", "heuristic"]
SEED = 5
OWN_CARDS = "#gc-hand .gc-card"
BOARD_TEXT = "#gc-table, #gc-hand, #gc-nations-panel"
NATIONS = "#gc-nations .gc-nation"
READY = f"document.querySelectorAll('{NATIONS}').length === 3"
SHOT = "/tmp/citywatch-gotc-layout-{}{}x{}.png"


def check_nations(page: Page) -> None:
    """One's own nation comes first; each nation box shows its rows whole (nothing cut)
    and, scrolled into the window by the main column, nothing lies over it."""
    count = page.locator(NATIONS).count()
    boxes = [rect(page, f"{NATIONS}:nth-child({k})") for k in range(1, count + 1)]
    corners = [(top, left) for left, top, _, _ in boxes]
    own = page.locator(NATIONS).evaluate_all("(ns) => ns.findIndex((n) => n.matches('.gc-own'))")
    assert own >= 0 and corners[own] == min(corners), corners
    assert page.evaluate(CUT_CARDS, [NATIONS, ".main-column"]) == []
    for k in range(1, count + 1):
        into_view(page, f"{NATIONS}:nth-child({k})")
        check_uncovered(page, f"{NATIONS}:nth-child({k})", 4)
    to_top(page)


def test_at_a_laptop_window_the_hand_is_in_full_and_the_nations_uncovered(
        server: str, browser: Browser) -> None:
    """Issue 26 ("your own cards readable in full without scrolling a small box ... no text
    under 11 px, nothing sticky ever covering the board ... or the end screen"): mid-game and
    at the end, at each size."""
    link = make_table(server, GAME, SEATS, SEED)
    advance(server, link, 12)
    watch = Watch()
    for size in SIZES:
        page = open_at(browser, server, link, size, watch, READY)
        assert page.evaluate("document.body.dataset.mine") == "yes"
        page.screenshot(path=SHOT.format("", *size))
        assert scrolled(page) == [0, 0]
        check_nothing_sticks(page)
        cards = page.locator(OWN_CARDS).count()
        assert cards >= 3
        assert check_own_cards(page, OWN_CARDS, with_map=False) == cards  # all in the window
        assert rect(page, "#gc-hand")[2] <= rect(page, ".main-column")[2] + 1  # main column
        assert inside(rect(page, "#gc-table"), window(page))
        check_uncovered(page, "#gc-table")
        check_text_sizes(page, BOARD_TEXT)
        assert inside(rect(page, "#actions button.action"), window(page))
        check_nations(page)
        page.context.close()

    advance(server, link)
    for size in SIZES:
        page = open_at(browser, server, link, size, watch, READY)
        page.screenshot(path=SHOT.format("end-", *size))
        assert page.evaluate("document.body.dataset.over") == "yes"
        check_nothing_sticks(page)
        # The result's headline and its links (rematch, replay, record) are in the first
        # screen; the breakdown per player below them is reached by scrolling, uncovered.
        for part in ("#result > :first-child", "#result .links"):
            assert inside(rect(page, part), window(page)), part
        check_uncovered(page, "#result")
        check_own_cards(page, OWN_CARDS, with_map=False)
        check_text_sizes(page, BOARD_TEXT + ", #result")
        check_nations(page)
        page.context.close()
    watch.check()
