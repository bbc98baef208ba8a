"""Thieves of the Black Keep in a real browser (Debian's chromium, driven by Playwright).

A real server runs in a thread (as in ``test_browser``); one person plays a whole solo game of
the tutorial against the keep through the table page's map (``citywatch/games/black_keep/web``):
the start hex and every step by clicking the glowing hexes, the thief card or the Guard card by
clicking the glowing cards, every other decision by its button, until the game is over. On the
way the SVG shows every placed guard where the server's view has it, with its field of view
shaded hex by hex, the Thief Markers and the thief; after each Guard Phase the map walks the
guards through its steps. Then the replay page plays a Guard Phase in which a guard pursues two
steps, and the guard is seen on its way through the hex between. No page reports a script error
or breaks the Content Security Policy.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    ENABLED_ACTIONS,
    Watch,
    browser,
    open_page,
    server_view,
)
from web_helpers import (
    check_the_end,
    click_and_wait,
    create_table,
    decisions,
    keep_screenshot,
    open_board,
    real_server,
)

GAME = "black-keep"
SEED = 25
"""The table's seed: the deal, the guards' dice and so the whole game follow from it and the
person's (seeded) clicks."""
GAME_DEADLINE = 240.0
"""Seconds the whole game may take in the browser before the test fails."""
FINAL_SCREENSHOT = Path("/tmp/bk-final.png")

STILL = "() => document.getElementById('board-panel').dataset.animating === 'no'"
RECORD_FRAMES = """() => {
    window.bkFrames = [];
    const host = document.getElementById('bk-board');
    new MutationObserver(() => {
        const root = host.querySelector('svg');
        if (!root) return;
        window.bkFrames.push({
            animating: root.dataset.animating,
            guards: [...root.querySelectorAll('g.bk-guard')].map((g) => ({
                guard: Number(g.dataset.guard), hex: g.dataset.hex, facing: g.dataset.facing,
                status: g.dataset.status})),
        });
    }).observe(host, {childList: true});
}"""
"""Record every board the map draws (each frame of a Guard Phase replaces the SVG)."""


@pytest.fixture
def bk_server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    yield from real_server(tmp_path, "bk.db")


def take_a_decision(page: Page, rnd: random.Random) -> str:
    """Take one decision through the map or a card where they offer it: "hex", "card" or
    "button"."""
    buttons = page.locator(ENABLED_ACTIONS)
    texts = buttons.all_inner_texts()
    assert texts, "a decision of the person's with no choice button"
    hexes = page.locator("#bk-board .bk-target")
    if hexes.count() and rnd.random() < 0.85:
        label = hexes.nth(rnd.randrange(hexes.count())).get_attribute("data-hex")
        click_and_wait(page, page.locator(f"#bk-board .bk-target[data-hex='{label}']"))
        return "hex"
    cards = page.locator("#bk-me .bk-card.can-act, #bk-market .bk-card.can-act")
    if cards.count() and rnd.random() < 0.6:
        click_and_wait(page, cards.nth(rnd.randrange(cards.count())))
        return "card"
    click_and_wait(page, buttons.nth(rnd.randrange(len(texts))))
    return "button"


def check_board(page: Page, view: dict[str, Any]) -> int:
    """The map shows every placed guard on its hex, facing and status, its field of view
    shaded hex by hex, the Thief Markers, and the thief on its hex (its own dial); the number
    of shaded hexes is returned."""
    page.wait_for_function(STILL, timeout=15000)
    board = page.locator("#bk-board svg.bk-board")
    expect(board).to_have_attribute("data-animating", "no")
    placed = [g for g in view["guards"] if g["placed"]]
    shown = board.locator("g.bk-guard")
    expect(shown).to_have_count(len(placed))
    for g in placed:
        piece = board.locator(f"g.bk-guard[data-guard='{g['number']}']")
        expect(piece).to_have_attribute("data-hex", g["hex"])
        expect(piece).to_have_attribute("data-facing", g["facing"])
        expect(piece).to_have_attribute("data-status", g["status"])
        fov = board.locator(f"polygon.bk-fov[data-guard='{g['number']}']")
        assert sorted(fov.evaluate_all("(ps) => ps.map((p) => p.dataset.hex)")) == sorted(g["sees"])
    expect(board.locator("g.bk-marker")).to_have_count(len(view["markers"]))
    thief = view["thieves"][0]
    if thief["hex"] and thief["standing"] == "in play":
        expect(board.locator("g.bk-thief.bk-me")).to_have_attribute("data-hex", thief["hex"])
    expect(page.locator("#bk-guards tbody tr")).to_have_count(len(view["guards"]))
    return sum(len(g["sees"]) for g in placed)


def replay_step_with_a_pursuit(base: str, token: str, steps: int) -> tuple[int, int, list[str]]:
    """A replay step whose Guard Phase (new since the step before) has a guard take two steps
    to different hexes: (step, guard number, the hexes it passes: start, between, end)."""
    before: Any = None
    for k in range(steps + 1):
        answer = httpx.get(f"{base}/api/replay/{token}?step={k}").json()
        trace = answer["view"]["guard_steps"]
        if trace and trace != before:
            path: dict[int, list[str]] = {}
            for e in trace:
                hexes = path.setdefault(e["guard"], [])
                if e["hex"] and (not hexes or hexes[-1] != e["hex"]):
                    hexes.append(e["hex"])
            for number, hexes in path.items():
                if len(hexes) >= 3:
                    return k, number, hexes
        before = trace
    raise AssertionError("no Guard Phase of this game has a guard pursue two steps")


def test_one_person_plays_the_tutorial_against_the_keep_in_the_browser(
        bk_server: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """Solo against the keep, to the end, through the map's hexes and the cards (buttons
    otherwise); the SVG matches the server's view on the way (guards, shaded fields of view,
    markers, the thief's secret dial on its own page), each Guard Phase is walked through on
    the live table, and the replay page animates a Guard Phase step by step: the pursuing guard
    is drawn on the hex between its start and its end. No script error, no CSP violation."""
    link = create_table(bk_server, GAME, ["human"], SEED, {"scenario": "tutorial"})
    token = link.removeprefix("/play/")
    watch = Watch()
    page = open_board(browser, bk_server + link, watch)
    expect(page.locator("#bk-board svg.bk-board")).to_be_visible()
    page.evaluate(RECORD_FRAMES)

    rnd = random.Random(SEED)
    start = time.monotonic()
    clicks: dict[str, int] = {}
    checked = shaded = 0
    for taken in decisions(page, GAME_DEADLINE, clicks):
        if taken % 4 == 0:
            data = server_view(bk_server, link)
            if data["step"] == int(page.evaluate("document.body.dataset.step")):
                shaded += check_board(page, data["view"])
                checked += 1
        how = take_a_decision(page, rnd)
        clicks[how] = clicks.get(how, 0) + 1
    elapsed = time.monotonic() - start

    final = check_the_end(page, bk_server, link)
    check_board(page, final["view"])
    assert checked >= 3, "the map was never compared with the server's view"
    assert shaded > 0, "no guard's field of view was ever shaded"
    assert clicks.get("hex", 0) >= 5 and clicks.get("card", 0) >= 2, clicks
    frames = page.evaluate("window.bkFrames")
    assert any(f["animating"] == "yes" for f in frames), "no Guard Phase was walked through"
    keep_screenshot(page, tmp_path, FINAL_SCREENSHOT)

    # The replay: step to just before a Guard Phase with a pursuit, then Next.
    steps = len(httpx.get(f"{bk_server}/api/record/{token}").json()["actions"])
    k, number, hexes = replay_step_with_a_pursuit(bk_server, token, steps)
    replay = open_page(browser, f"{bk_server}/replay/{token}#{k - 1}", watch)
    page_step = f"() => document.body.dataset.step === '{k - 1}'"
    replay.wait_for_function(page_step)
    replay.wait_for_function(STILL)
    replay.evaluate(RECORD_FRAMES)
    replay.click("#next")
    replay.wait_for_function(f"() => document.body.dataset.step === '{k}'")
    replay.wait_for_function("() => window.bkFrames.some((f) => f.animating === 'yes')")
    replay.wait_for_function(STILL, timeout=20000)
    drawn = replay.evaluate("window.bkFrames")
    walked = [g["hex"] for f in drawn if f["animating"] == "yes"
              for g in f["guards"] if g["guard"] == number]
    passed = [h for i, h in enumerate(walked) if i == 0 or walked[i - 1] != h]
    assert passed == hexes, f"guard {number} was drawn on {passed}, not on {hexes}"
    assert drawn[-1]["animating"] == "no"
    last = [g["hex"] for g in drawn[-1]["guards"] if g["guard"] == number]
    assert last == [hexes[-1]]
    expect(replay.locator("#bk-play-phase")).to_be_visible()
    watch.check()
    print(f"black keep browser game: {clicks} clicks in {elapsed:.1f} s; "
          f"{final['view']['result']}; replay step {k}: guard {number} via {hexes}")
