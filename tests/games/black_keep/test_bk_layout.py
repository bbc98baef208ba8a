"""Issue 26 for Thieves of the Black Keep: the table at a laptop's window. At 1280x720,
1366x800 and 1920x1080, on The Black Keep's map (the largest) with three thieves, mid-game at
a decision of the person's and on the end screen: the thief's cards in full (hand, discards,
Guard cards: beside the map, two to four a row as the height needs; never in a box that
scrolls or cuts them); the map in the window, uncovered, no text on it under 11 px on the
screen (hex names included), zooming and panning; nothing sticky over the map, the Guards
table, the Thieves table or the end. Issue 28: walls that read (wide and dark on the screen,
whole map included) and no mark on the map meaning two things. Screenshots:
/tmp/citywatch-bk-layout-<size>.png and /tmp/citywatch-bk-layout-end-<size>.png."""

from __future__ import annotations

import re
from typing import Any

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

GAME = "black-keep"
SEATS = ["human", "heuristic", "heuristic"]
SEED = 25
OPTIONS = {"scenario": "the-black-keep"}
OWN_CARDS = "#bk-me .bk-card"
BOARD_TEXT = "#board-panel, #bk-me, #bk-guards-panel, #players-panel, #bk-market"
READY = (f"document.querySelector('{FRAME}')?.dataset.zoom"
         " && document.getElementById('board-panel').dataset.animating !== 'yes'")
SHOT = "/tmp/citywatch-bk-layout-{}{}x{}.png"


WALL_PX = 6.0
"""The least width of a wall on the screen at the map's first (readable) zoom, in px."""
WALL_LEAST_PX = 4.0
"""The least width of a wall on the screen with the whole map shown, in px."""
WALL_CONTRAST = 4.5
"""The least contrast ratio (WCAG) of a wall against the lit and the dark floor."""


def wall_on_screen(page: Page) -> dict[str, Any]:
    """A wall's width on the screen in px (the wider of its line, which scales with the map,
    and its least line, which does not), a hex outline's, and the wall's and the floors'
    colours as ``rgb(...)``."""
    found: dict[str, Any] = page.evaluate("""() => {
      const board = document.querySelector('#bk-board svg.bk-board');
      const scale = board.getScreenCTM().a;
      const style = (sel) => getComputedStyle(board.querySelector(sel));
      const width = (sel) => parseFloat(style(sel).strokeWidth);
      return {
        wall: Math.max(width('.bk-wall') * scale, width('.bk-wall-least')),
        edge: Math.max(width('.bk-edge') * scale, width('.bk-edge-least')),
        outline: width('.bk-hex') * scale,
        colour: style('.bk-wall').stroke, least: style('.bk-wall-least').stroke,
        lit: style('.bk-lit').fill, dark: style('.bk-dark').fill,
      };
    }""")
    return found


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours given as ``rgb(r, g, b)``."""
    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                   for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, deep = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (deep + 0.05)


def check_walls(page: Page) -> None:
    """Issue 28 ("walls are hard to see"; walls and doors drawn so that they read at
    1366x800): at the first zoom a wall is at least WALL_PX wide on the screen and the map's
    edge 3 px, at least five times a hex's outline; with the whole map shown a wall is still
    WALL_LEAST_PX; walls are near black, WALL_CONTRAST against the lit and the dark floor.
    Special Hexes (spec 2.7) carry a picture, no letter, and differ from walls."""
    first = wall_on_screen(page)
    assert first["wall"] >= WALL_PX and first["edge"] >= 3, first
    assert first["wall"] >= 5 * first["outline"], first
    assert first["colour"] == first["least"]
    for floor in ("lit", "dark"):
        assert contrast(first["colour"], first[floor]) >= WALL_CONTRAST, first
    specials = page.locator("#bk-board .bk-special")
    assert specials.count() == 9 and page.locator("#bk-board .bk-special-mark").count() == 9
    assert page.locator("#bk-board .bk-special-mark text").count() == 0
    # Thief 1 holds neither Lockpicks nor a key: every Special Hex is locked to it.
    assert page.locator("#bk-board .bk-special-locked").count() == 9
    assert specials.first.evaluate("(s) => getComputedStyle(s).fill") != first["colour"]
    page.locator(".cw-zoom-button", has_text="Whole map").click()
    whole = wall_on_screen(page)
    assert whole["wall"] >= WALL_LEAST_PX, whole
    page.locator(".cw-zoom-button", has_text="Readable").click()


def check_marks(page: Page) -> None:
    """Issue 28 ("no letter means two things"; the legend's D = Distracted clashed with the
    doors' D): the legend's symbols under the map are each there once, and every letter or
    sign drawn on the map (hex names and the guards' numbers aside) is drawn by one kind of
    piece only and keyed in the legend: a guard's status letter (spec 4.2; also where its
    forecast arrow ends, the status it will have: the same letter, the same meaning), a thief's
    T and number, a Thief Marker's ! (4.6)."""
    found = page.evaluate("""() => {
      const legend = [...document.querySelectorAll('#board-panel .bk-legend [data-symbol]')]
        .map((n) => n.dataset.symbol);
      const marks = [...document.querySelectorAll('#bk-board svg text')]
        .filter((t) => !t.matches('.bk-hex-label, .bk-guard-number'))
        .map((t) => [t.textContent, t.getAttribute('class') || t.parentNode.getAttribute('class')]);
      return { legend, marks };
    }""")
    legend = found["legend"]
    assert len(legend) == len(set(legend)), legend
    drawers: dict[str, set[str]] = {}
    for text, kind in found["marks"]:
        kind = kind.split()[0].replace("bk-forecast-letter", "bk-guard-letter")
        drawers.setdefault(re.sub(r"\d+$", "", text), set()).add(kind)
    assert "T" in drawers, drawers
    if page.locator("#bk-board .bk-marker").count():
        assert "!" in drawers, drawers
    for symbol, kinds in drawers.items():
        assert len(kinds) == 1, (symbol, kinds)
        assert symbol in legend, (symbol, legend)


def check_table_rows(page: Page, panel: str) -> None:
    """The table in ``panel`` (under the map's row) is as wide as its panel allows (no column
    hidden behind a scroll bar); each of its rows comes wholly into the window by scrolling
    the main column, and nothing lies over it; the column goes back to its top."""
    assert page.locator(f"{panel} .table-wrap").evaluate(
        "(w) => w.scrollWidth <= w.clientWidth + 1")
    for k in range(1, page.locator(f"{panel} tbody tr").count() + 1):
        row = f"{panel} tbody tr:nth-child({k})"
        into_view(page, row)
        assert inside(rect(page, row), window(page)), row
        check_uncovered(page, row, 3)
    to_top(page)


def test_at_a_laptop_window_the_thiefs_cards_are_in_full_and_the_map_readable(
        server: str, browser: Browser) -> None:
    """Issue 26 ("your own cards readable in full without scrolling a small box ... no text
    under 11 px (zoom and pan where the board is large), nothing sticky ever covering the
    board, a table of pieces or the end screen"; Black Keep's hex ids were 5 px and its
    Guards table covered): mid-game (the person planning, eight cards in hand) and at the
    end, at each size."""
    link = make_table(server, GAME, SEATS, SEED, OPTIONS)
    advance(server, link, 5)
    watch = Watch()
    for size in SIZES:
        page = open_at(browser, server, link, size, watch, READY)
        assert page.evaluate("document.body.dataset.mine") == "yes"
        page.screenshot(path=SHOT.format("", *size))
        assert scrolled(page) == [0, 0]
        check_nothing_sticks(page)
        check_map(page)
        hand = page.locator("#bk-me h3").all_inner_texts()[0]
        assert re.fullmatch(r"Hand \(([6-9]|10)\)", hand), hand
        assert rect(page, "#bk-me")[0] > rect(page, FRAME)[2]  # beside the map
        shown = check_own_cards(page, OWN_CARDS, with_map=True)
        assert shown >= 6, shown
        check_text_sizes(page, BOARD_TEXT)
        assert page.locator("#bk-board .bk-hex-label").count() == 203
        assert inside(rect(page, "#actions button.action"), window(page))
        check_table_rows(page, "#bk-guards-panel")
        check_table_rows(page, "#players-panel")
        check_zoom(page)
        check_walls(page)
        check_marks(page)
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
        into_view(page, "#board-panel", "start")
        check_map(page)
        check_own_cards(page, OWN_CARDS, with_map=False)
        check_text_sizes(page, BOARD_TEXT + ", #result")
        to_top(page)
        check_table_rows(page, "#bk-guards-panel")
        check_table_rows(page, "#players-panel")
        page.context.close()
    watch.check()


def test_the_map_follows_your_thief_onto_the_board(server: str, browser: Browser) -> None:
    """Issue 28 (a clear map; CityWatch.zoomMap): the map opens on the middle of The Vault
    before the thief is on it; once the person sets the Location Dial on an edge hex, the next
    drawing brings the thief into the map's frame at 1366x800 (it used to stay out of sight:
    each drawing replaced the map, resetting the frame's scroll, so the thief's hex looked in
    sight)."""
    link = make_table(server, GAME, ["human", "heuristic"], 5, {"scenario": "the-vault"})
    watch = Watch()
    page = open_at(browser, server, link, (1366, 800), watch, READY)
    for _ in range(8):
        page.wait_for_function("() => document.body.dataset.mine === 'yes' "
                               "&& document.body.dataset.pending !== 'yes'")
        button = page.locator("#actions button.action:not([disabled])").first
        if button.inner_text().startswith("Play "):
            break
        step = page.evaluate("document.body.dataset.step")
        button.click()
        page.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
    else:
        raise AssertionError("no thief card to play in 8 decisions")
    page.wait_for_timeout(300)
    token = page.locator("#bk-board .bk-thief-text", has_text="T1").first
    box = token.evaluate(RECT_OF)
    assert inside(box, rect(page, FRAME)), (box, rect(page, FRAME))
    page.context.close()
    watch.check()


RECT_OF = ("(node) => { const r = node.getBoundingClientRect(); "
           "return [r.left, r.top, r.right, r.bottom]; }")
