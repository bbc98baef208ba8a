"""What the layout tests of the boards share (issue 26, "every game's table is comfortable on a
laptop"): the three window sizes, a table driven to a position through the API, and checks
made on a real page with bounding boxes, ``document.elementFromPoint`` and computed font
sizes (an SVG text's size is its font size times the map's scale on the screen).

The wanted layout, at 1280x720, 1366x800 and 1920x1080: one's own cards in full, never in a
box that scrolls or cuts them (the main column may run on below the window, the map staying
in sight); the map uncovered, in the window, with no text under ``LEAST_TEXT`` px, zooming
and panning where it is large; nothing sticky over the map, a table of pieces or the end.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Browser, Page
from test_browser import Watch, wait_for_state

SIZES = [(1280, 720), (1366, 800), (1920, 1080)]
"""The window sizes of issue 26."""
LEAST_TEXT = 11.0
"""The least font size (px, on the screen) of a board's text and one's own cards."""
FRAME = ".cw-zoom-frame"
"""A map that zooms and pans (common.js zoomMap)."""
Chooser = Callable[[list[str]], int]
"""Picks a choice by the choices' texts."""


def make_table(base: str, game: str, seats: list[str], seed: int,
               options: dict[str, Any] | None = None) -> str:
    """A table of ``game`` made through the API (a seed chosen: a practice table, its banner
    shown); the link of its first person's page. A slow answer is waited for: the server's
    first bot moves may come first on a busy machine."""
    body: dict[str, Any] = {"game": game, "seats": seats, "seed": seed}
    if options is not None:
        body["options"] = options
    response = httpx.post(f"{base}/api/tables", json=body, timeout=120)
    assert response.is_success, response.text
    link: str = next(s["link"] for s in response.json()["seats"] if s["link"])
    return link


def first_of(prefixes: tuple[str, ...], rnd: random.Random | None = None) -> Chooser:
    """A way to choose: the first choice whose text starts with one of ``prefixes`` (in
    their order), else a choice of ``rnd``'s (None: the first)."""
    def choose(texts: list[str]) -> int:
        for prefix in prefixes:
            for i, text in enumerate(texts):
                if text.startswith(prefix):
                    return i
        return rnd.randrange(len(texts)) if rnd else 0
    return choose


def advance(base: str, link: str, decisions: int | None = None, deadline: float = 300.0,
            choose: Chooser | None = None) -> int:
    """Take a choice of the seat at ``link`` (``choose`` picks it by the choices' texts; by
    default the first), the bots moving in between, until it has taken ``decisions``
    decisions (None: until the game is over); how many it took. The page is then at a
    decision of the seat's (or the game is over)."""
    token = link.removeprefix("/play/")
    taken = 0
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < deadline, f"stuck after {taken} decisions"
        view = httpx.get(f"{base}/api/view/{token}", timeout=120).json()
        if view["table"]["over"]:
            return taken
        if not view["choices"]:
            time.sleep(0.05)
            continue
        if decisions is not None and taken >= decisions:
            return taken
        actions = [c for c in view["choices"] if "steps" not in c]  # issue 27: not the plans
        index = choose([c["text"] for c in actions]) if choose else 0
        answer = httpx.post(f"{base}/api/act/{token}", timeout=120,
                            json={"step": view["step"], "action": actions[index]["json"]})
        assert answer.is_success, answer.text
        taken += 1


RECT = """(node) => { const r = node.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; }"""

UNCOVERED_POINTS = """([selector, n]) => {
    // n x n points spread over the element's box (as far as the window and the boxes
    // around it that clip show it): those where a click would not reach the element or
    // something inside it.
    const node = document.querySelector(selector);
    const r = node.getBoundingClientRect();
    let [left, top, right, bottom] = [Math.max(r.left, 0), Math.max(r.top, 0),
        Math.min(r.right, innerWidth), Math.min(r.bottom, innerHeight)];
    for (let a = node.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top),
            Math.min(right, c.right), Math.min(bottom, c.bottom)];
    }
    const bad = [];
    for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
            const x = left + 3 + ((right - left - 6) * i) / (n - 1);
            const y = top + 3 + ((bottom - top - 6) * j) / (n - 1);
            const hit = document.elementFromPoint(x, y);
            if (!hit || !(node === hit || node.contains(hit))) {
                const what = hit ? `${hit.tagName}#${hit.id}.${hit.className}` : null;
                bad.push([Math.round(x), Math.round(y), what]);
            }
        }
    }
    return bad;
}"""

SMALL_TEXT = """([selectors, least]) => {
    // Text shown in the elements ``selectors`` smaller than ``least`` px on the screen: SVG
    // text by its font size times the map's scale (hidden text left out), HTML text by its
    // computed font size.
    const small = [];
    const shown = (node) => {
        const s = getComputedStyle(node);
        return s.visibility !== 'hidden' && s.display !== 'none' && node.getClientRects().length;
    };
    for (const root of document.querySelectorAll(selectors)) {
        for (const t of root.querySelectorAll('svg text')) {
            if (!shown(t) || !t.textContent.trim()) continue;
            const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
            if (size < least - 0.05) small.push([t.textContent, +size.toFixed(2)]);
        }
        for (const node of root.querySelectorAll('*')) {
            if (node.closest('svg') || !shown(node)) continue;
            const own = [...node.childNodes].some(
                (c) => c.nodeType === 3 && c.textContent.trim());
            const size = parseFloat(getComputedStyle(node).fontSize);
            if (own && size < least - 0.05) {
                small.push([node.textContent.trim().slice(0, 40), size]);
            }
        }
    }
    return small;
}"""

CUT_CARDS = """([selector, stop]) => {
    // The elements ``selector`` that something cuts or scrolls: their own box (text wider or
    // taller than the box), or a box around them, up to ``stop`` (left out), whose content
    // overflows it while it clips or scrolls.
    const cut = [];
    for (const node of document.querySelectorAll(selector)) {
        if (!node.getClientRects().length) continue;
        if (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1) {
            cut.push([node.textContent.trim().slice(0, 40), 'itself']);
            continue;
        }
        for (let a = node.parentElement; a && !a.matches(stop); a = a.parentElement) {
            const s = getComputedStyle(a);
            const clips = (v) => v !== 'visible';
            if ((clips(s.overflowY) && a.scrollHeight > a.clientHeight + 1)
                || (clips(s.overflowX) && a.scrollWidth > a.clientWidth + 1)) {
                const what = `${a.tagName}#${a.id}.${a.className}`;
                cut.push([node.textContent.trim().slice(0, 40), what]);
                break;
            }
        }
    }
    return cut;
}"""

STICKY = """() => [...document.querySelectorAll('.main-column *')]
    .filter((n) => ['sticky', 'fixed'].includes(getComputedStyle(n).position))
    .map((n) => n.id || n.className)"""
"""What sticks in the main column."""


def inside(box: list[float], outer: list[float]) -> bool:
    """Whether ``box`` (left, top, right, bottom) lies in ``outer``, a pixel spared."""
    return (box[0] >= outer[0] - 1 and box[1] >= outer[1] - 1 and box[2] <= outer[2] + 1
            and box[3] <= outer[3] + 1)


def rect(page: Page, selector: str) -> list[float]:
    """The element ``selector``'s box on the screen."""
    box: list[float] = page.locator(selector).first.evaluate(RECT)
    return box


def window(page: Page) -> list[float]:
    """The window's box."""
    size = page.viewport_size
    assert size is not None
    return [0, 0, size["width"], size["height"]]


def open_at(browser: Browser, base: str, link: str, size: tuple[int, int], watch: Watch,
            ready: str) -> Page:
    """The table page at ``link`` in a new window of ``size``, watched, once it has drawn a
    state and ``ready`` (a JavaScript expression) is true."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = watch.page(context.new_page(), f"{link} at {size[0]}x{size[1]}")
    page.goto(base + link)
    wait_for_state(page)
    page.wait_for_function(f"() => {ready}")
    page.wait_for_timeout(150)  # one's cards are fitted once the panels around are drawn
    return page


def scrolled(page: Page) -> list[float]:
    """How far the page and its main column are scrolled."""
    where: list[float] = page.evaluate(
        "[window.scrollY, document.querySelector('.main-column').scrollTop]")
    return where


def to_top(page: Page) -> None:
    """Scroll the main column back to its top."""
    page.evaluate("document.querySelector('.main-column').scrollTop = 0")


def into_view(page: Page, selector: str, block: str = "nearest") -> None:
    """Scroll the element ``selector`` into the window (the page itself never scrolls)."""
    page.locator(selector).first.evaluate(f"(n) => n.scrollIntoView({{block: '{block}'}})")
    assert page.evaluate("window.scrollY") == 0


def check_uncovered(page: Page, selector: str, n: int = 6) -> None:
    """A click at any of n x n points of the element ``selector`` (its part in the window)
    reaches it: nothing lies over it."""
    bad = page.evaluate(UNCOVERED_POINTS, [selector, n])
    assert bad == [], (selector, bad)


def check_text_sizes(page: Page, selectors: str) -> None:
    """No text shown in ``selectors`` is under LEAST_TEXT px on the screen."""
    small = page.evaluate(SMALL_TEXT, [selectors, LEAST_TEXT])
    assert small == [], small


def check_nothing_sticks(page: Page) -> None:
    """Nothing in the main column is sticky or fixed, but the map's panel sticking within a
    row of its own beside one's cards (it covers nothing: no table shares that row)."""
    stuck = page.evaluate(STICKY)
    assert all(s == "board-panel" for s in stuck), stuck
    if stuck:
        assert page.evaluate(
            "() => !document.getElementById('board-panel').parentElement.querySelector('table')")


def check_map(page: Page) -> dict[str, Any]:
    """The map's frame lies wholly in the window, uncovered; its text is readable: no text
    shown under LEAST_TEXT px. Returns the frame's zoom facts (data-zoom, data-whole)."""
    assert inside(rect(page, FRAME), window(page)), rect(page, FRAME)
    check_uncovered(page, FRAME)
    check_text_sizes(page, FRAME)
    facts: dict[str, Any] = page.locator(FRAME).evaluate(
        "(f) => ({zoom: +f.dataset.zoom, whole: f.dataset.whole})")
    assert facts["zoom"] > 0
    return facts


def check_own_cards(page: Page, cards: str, with_map: bool) -> int:
    """One's own cards (``cards``) are shown in full: nothing cuts or scrolls them but the
    main column; each is in the window, or comes into it wholly by scrolling the main column
    (the map staying wholly in the window, uncovered, when ``with_map``); the main column is
    scrolled back to its top. Returns how many cards are in the window at first."""
    assert page.evaluate(CUT_CARDS, [cards, ".main-column"]) == []
    count = page.locator(cards).count()
    assert count > 0, cards
    at_first = 0
    for k in range(count):
        card = page.locator(cards).nth(k)
        if inside(card.evaluate(RECT), window(page)):
            at_first += 1
            continue
        card.evaluate("(n) => n.scrollIntoView({block: 'nearest'})")
        assert inside(card.evaluate(RECT), window(page)), (k, card.inner_text())
        assert page.evaluate("window.scrollY") == 0
        if with_map:
            assert inside(rect(page, FRAME), window(page)), "the map left the window"
            check_uncovered(page, FRAME, 4)
        to_top(page)
    return at_first


def check_zoom(page: Page) -> None:
    """The map zooms and pans: the buttons (reached by the keyboard), + - 0 1 on the focused
    map, Ctrl+wheel; a drag moves the view and takes no choice. Zoomed out to the whole
    map, no text is shown under LEAST_TEXT px; "Readable" brings the first size back."""
    frame = page.locator(FRAME)
    zoom = lambda: float(frame.get_attribute("data-zoom") or 0)  # noqa: E731
    start = zoom()
    tools = page.locator(".cw-zoom-tools .cw-zoom-button")
    assert tools.all_inner_texts() == ["\u2212", "+", "Whole map", "Readable"]
    page.locator(".cw-zoom-button", has_text="+").click()
    assert zoom() > start * 1.2
    check_text_sizes(page, FRAME)
    page.locator(".cw-zoom-button", has_text="Whole map").click()
    assert frame.get_attribute("data-whole") == "yes" and zoom() <= start
    check_text_sizes(page, FRAME)
    page.locator(".cw-zoom-button", has_text="Readable").focus()
    page.keyboard.press("Enter")
    assert abs(zoom() - start) < 1e-3
    frame.focus()
    page.keyboard.press("+")
    assert zoom() > start * 1.2
    page.keyboard.press("1")
    assert abs(zoom() - start) < 1e-3
    if frame.get_attribute("data-whole") == "yes":
        return  # the whole map is readable: nothing to pan
    page.keyboard.press("0")
    assert frame.get_attribute("data-whole") == "yes"
    page.keyboard.press("1")
    box = frame.bounding_box()
    assert box is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*middle)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -300)
    page.keyboard.up("Control")
    page.wait_for_function(
        f"() => +document.querySelector('{FRAME}').dataset.zoom > {start * 1.05}")
    page.keyboard.press("1")
    step = page.evaluate("document.body.dataset.step")
    before = frame.evaluate("(f) => [f.scrollLeft, f.scrollTop]")
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] - 60, middle[1] - 50, steps=5)
    page.mouse.up()
    after = frame.evaluate("(f) => [f.scrollLeft, f.scrollTop]")
    assert after != before, "the drag did not move the map"
    page.wait_for_timeout(200)
    assert page.evaluate("document.body.dataset.step") == step, "the drag took a choice"
    frame.evaluate("(f) => { f.scrollTop = 0; }")
    frame.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"() => document.querySelector('{FRAME}').scrollTop > 0")
