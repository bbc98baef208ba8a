"""Issue 26 ("fewer clicks"): at most 1.5 clicks per decision in a scripted game against normal
bots, in Ankh-Morpork and Guards! Guards!, on the real page with its own settings.

The person's page is played by ``benchmarks/bench_clicks.py``'s ``browser_game``: it keeps a
mirror of the game (the bots' decisions worked out as the server does), checks at every
decision that the page offers exactly the mirror's choices and marks, takes what a normal bot
would take in the person's place by clicking buttons, and counts the clicks. The setting "Take
what can never hurt without asking" is on until the person turns it off.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from test_browser import Watch
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    create_table,
    shared_browser,
    shared_server,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_clicks import TARGET, browser_game  # noqa: E402


def test_issue_26_what_never_hurts_is_taken_until_the_person_says_no(
        server: str, browser: Browser) -> None:
    """Issue 26: on a first visit the setting "Take what can never hurt without asking" is
    on; turned off, it stays off after a reload (remembered), and on again when ticked."""
    watch = Watch()
    link = create_table(server, "ankh-morpork", ["human", "random"], seed=3)
    page = watch.page(browser.new_context(viewport={"width": 1366, "height": 800}).new_page(),
                      server + link)
    page.goto(server + link)
    page.wait_for_function("() => document.body.dataset.step !== undefined")
    box = page.locator("#auto-take")
    expect(box).to_be_checked()
    box.uncheck()
    assert page.evaluate("localStorage.getItem('citywatch.autoTake')") == "no"
    page.reload()
    page.wait_for_function("() => document.body.dataset.step !== undefined")
    expect(page.locator("#auto-take")).not_to_be_checked()
    page.locator("#auto-take").check()
    page.reload()
    page.wait_for_function("() => document.body.dataset.step !== undefined")
    expect(page.locator("#auto-take")).to_be_checked()
    watch.check()


@pytest.mark.parametrize(("game", "seed", "bots"), [("ankh-morpork", 2, 3),
                                                   ("guards-guards", 1, 1)])
def test_issue_26_a_scripted_game_takes_at_most_1_5_clicks_per_decision(
        server: str, browser: Browser, game: str, seed: int, bots: int) -> None:
    """Issue 26: one person (playing as a normal bot would) against normal bots (three in
    Ankh-Morpork; one in Guards! Guards!, whose game with three took a minute), with
    the page's own settings, clicks at most 1.5 times per decision of theirs (the page's and
    theirs); the page offers at every decision exactly the engine's choices and marks, needs
    exactly the clicks bench_clicks's model of app.js counts, and leaves no decision that can
    never hurt to the person."""
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    try:
        count = browser_game(context.new_page(), server, game, seed, bots, "bot", "page")
    finally:
        context.close()
    print(f"issue 26 clicks, {game} seed {seed}: {count.summary()}")
    assert count.decisions > 20
    assert count.model_mismatches == 0
    assert count.harmless_by_hand == 0
    assert count.clicks <= TARGET * count.decisions
