"""Issue 30 in the browser: the person clicks "Hint" once and every choice button gets its
chance as a badge, the best highlighted and the hard level's pick marked; the hint asked is
listed for every seat (and in the replay, at the decision); the finished table's page links
the analysis, whose SVG graph draws the chance over the game with the turning points and the
hint marked. Screenshots:
/tmp/citywatch-coach-hint.png and /tmp/citywatch-coach-analysis.png."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect
from test_browser import Watch, open_page, server_view, wait_for_state
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    shared_browser,
    shared_server,
)

HINT_SHOT = Path("/tmp/citywatch-coach-hint.png")
ANALYSIS_SHOT = Path("/tmp/citywatch-coach-analysis.png")


def test_one_click_shows_the_chances_and_the_analysis_draws_the_game(
        server: str, browser: Browser) -> None:
    """Issue 30: at a table of one person and a bot (hints on by default) the Hint button is
    beside the choices; one click shows "Thinking…", then a badge with a percentage on every
    choice button, at least one best choice and the hard level's pick; the marks vanish at
    the next decision. Once the game is over, "Analysis" opens a page whose SVG graph has the
    crew's line, the turning points and the hint asked, and lists the turning points. The
    start page's "Allow hints" is on with one person and off with two."""
    start = open_page(browser, f"{server}/", Watch())
    start.wait_for_function("() => document.body.dataset.ready === 'yes'")
    start.locator("#game").select_option("black-keep")
    start.locator('input[name="players"][value="2"]').check()
    start.locator("#seat-0").select_option("human")
    start.locator("#seat-1").select_option("random")
    expect(start.locator("#hints")).to_be_checked()  # one person: hints on
    start.locator("#seat-1").select_option("human")
    expect(start.locator("#hints")).not_to_be_checked()  # two people: off
    start.close()
    created = httpx.post(f"{server}/api/tables", json={
        "game": "black-keep", "seats": ["human", "random"],
        "options": {"scenario": "tutorial"}}, timeout=60).json()
    assert created["hints"] is True
    link = created["seats"][0]["link"]
    watch = Watch()
    page = open_page(browser, server + link, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    wait_for_state(page)
    page.wait_for_function("() => document.body.dataset.mine === 'yes'")
    expect(page.locator("#table-options")).to_contain_text("hints allowed")
    ask = page.locator("#coach-ask")
    expect(ask).to_be_visible()
    expect(ask).to_have_text("Hint")
    step = page.evaluate("document.body.dataset.step")
    ask.click()  # the one click a hint takes
    page.wait_for_function("() => document.body.dataset.coach === 'shown'", timeout=30000)
    buttons = page.locator("#actions button.action")
    badges = page.locator("#actions button.action .coach-badge")
    assert buttons.count() > 1 and badges.count() == buttons.count()
    assert all(text.endswith("%") for text in badges.all_inner_texts())
    assert page.locator("#actions button.coach-best").count() >= 1
    expect(page.locator("#actions .coach-hard")).to_have_count(1)
    expect(page.locator("#actions .coach-hard")).to_have_text("hard level's pick")
    expect(page.locator("#coach-used li")).to_have_text(
        [f"Thief 1 asked the coach for a hint (decision {int(step) + 1})"])
    expect(ask).to_be_disabled()
    page.screenshot(path=HINT_SHOT)
    page.locator("#actions button.action").first.click()
    page.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
    expect(page.locator("#actions .coach-badge")).to_have_count(0)
    deadline = time.monotonic() + 60
    while not server_view(server, link)["table"]["over"]:
        assert time.monotonic() < deadline, "the game did not end"
        data = server_view(server, link)
        if data["choices"]:
            httpx.post(f"{server}/api/act/{link.removeprefix('/play/')}", json={
                "step": data["step"], "action": data["choices"][0]["json"]}, timeout=60)
        else:
            time.sleep(0.02)
    page.wait_for_function("() => document.body.dataset.over === 'yes'")
    expect(page.locator("#coach")).to_be_hidden()
    page.locator("#analysis-link").click()
    page.wait_for_url(f"{server}/analysis/**")  # a new page: no body until it has loaded
    page.wait_for_function(
        "() => document.body !== null && document.body.dataset.analysis === 'shown'",
        timeout=30000)
    graph = page.locator("#graph svg.chance-graph")
    expect(graph).to_be_visible()
    expect(graph.locator("path.curve")).to_have_count(1)  # co-operative: the crew's line
    expect(graph.locator("g.hint-mark")).to_have_count(1)
    assert graph.locator("g.turning-mark").count() == page.locator("#turning li").count() >= 1
    expect(page.locator("#legend")).to_contain_text("the crew")
    page.screenshot(path=ANALYSIS_SHOT, full_page=True)
    replay = page.locator("#replay-link").get_attribute("href")
    page.goto(f"{server}{replay}#{int(step) + 1}")
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(int(step) + 1))
    expect(page.locator("#action .replay-hint")).to_have_text(
        " (after asking the coach for a hint)")
    watch.check()
