"""Issue 26 for Guards! Guards!: the table at a laptop's window. At 1280x720, 1366x800 and
1920x1080, mid-game at a decision of the person's and on the end screen: the Guild Card,
the attribute track, the Volunteers, Scrolls, Items and Saboteurs in full (beside the map,
in as many columns as the height needs; never in a box that scrolls or cuts them); the map
in the window, uncovered, no text on it under 11 px on the screen, zooming and panning;
nothing sticky over the map, the players' table or the end. Screenshots:
/tmp/citywatch-gg-layout-<size>.png and /tmp/citywatch-gg-layout-end-<size>.png."""

from __future__ import annotations

import random

from layout_helpers import (
    FRAME,
    SIZES,
    advance,
    check_map,
    check_nothing_sticks,
    check_own_cards,
    check_text_sizes,
    check_uncovered,
    check_zoom,
    first_of,
    inside,
    into_view,
    make_table,
    open_at,
    rect,
    scrolled,
    to_top,
    window,
)
from playwright.sync_api import Browser
from test_browser import Watch
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    shared_browser,
    shared_server,
)

GAME = "guards-guards"
SEATS = ["human", "heuristic", "heuristic"]
SEED = 4
"""With SEED and the person recruiting and buying when they can (else a seeded random
choice), the person holds three Volunteers after 60 decisions (at least two are asked for)."""
OWN_CARDS = ("#gg-own .gg-guild-card, #gg-own .gg-track-box, #gg-own .gg-vol, "
             "#gg-own .gg-list li, #gg-own .gg-none")
BOARD_TEXT = "#board-panel, #gg-own, #gg-dice, #players-panel, #gg-table"
READY = f"document.querySelector('{FRAME}')?.dataset.zoom"
SHOT = "/tmp/citywatch-gg-layout-{}{}x{}.png"


def test_at_a_laptop_window_the_cards_are_in_full_and_the_map_readable(
        server: str, browser: Browser) -> None:
    """Issue 26 ("your own cards readable in full without scrolling a small box ... the board
    using the space left with no text under 11 px (zoom and pan where the board is large),
    nothing sticky ever covering the board, a table of pieces or the end screen"): mid-game
    and at the end (the Short Game after one round), at each size."""
    link = make_table(server, GAME, SEATS, SEED)
    advance(server, link, 60, choose=first_of(("Recruit", "Buy", "Draw", "Take", "Try"),
                                              random.Random(SEED)))
    watch = Watch()
    for size in SIZES:
        page = open_at(browser, server, link, size, watch, READY)
        assert page.evaluate("document.body.dataset.mine") == "yes"
        page.screenshot(path=SHOT.format("", *size))
        assert scrolled(page) == [0, 0]
        check_nothing_sticks(page)
        check_map(page)
        assert page.locator("#gg-own .gg-vol").count() >= 2
        assert rect(page, "#gg-own")[0] > rect(page, FRAME)[2]  # beside the map
        shown = check_own_cards(page, OWN_CARDS, with_map=True)
        assert shown >= 4, shown  # the Guild Card, the track and the first cards at least
        check_text_sizes(page, BOARD_TEXT)
        assert inside(rect(page, "#actions button.action"), window(page))
        for panel in ("#players-panel", "#gg-table"):  # under the map's row
            into_view(page, panel)
            check_uncovered(page, panel)
            to_top(page)
        check_zoom(page)
        page.context.close()

    end = make_table(server, GAME, SEATS, SEED, {"rounds": 1})
    advance(server, end)
    for size in SIZES:
        page = open_at(browser, server, end, size, watch, READY)
        page.screenshot(path=SHOT.format("end-", *size))
        assert page.evaluate("document.body.dataset.over") == "yes"
        check_nothing_sticks(page)
        # The result's headline and its links (rematch, replay, record) are in the first
        # screen; the breakdown per player below them is reached by scrolling, uncovered.
        for part in ("#result > :first-child", "#result .links"):
            assert inside(rect(page, part), window(page)), part
        check_uncovered(page, "#result")
        into_view(page, "#board-panel", "start")
        check_map(page)
        check_own_cards(page, OWN_CARDS, with_map=False)
        check_text_sizes(page, BOARD_TEXT + ", #result")
        into_view(page, "#players-panel")
        check_uncovered(page, "#players-panel")
        page.context.close()
    watch.check()
