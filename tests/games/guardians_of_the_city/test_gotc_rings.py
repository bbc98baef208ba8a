"""Issue 29 for Guardians of the City: the rings that mark what to click (a pillar or a
Citizen Group of one's own nation), whose turn it is and what the last moves touched stay
inside their nation's panel, and a row's ring inside its row (never over the next row or the
other nation's panel), at 1280x720, 1366x800 and 1920x1080."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page
from test_browser import Watch
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    MINE_OR_OVER,
    click_and_wait,
    create_table,
    open_board,
    shared_browser,
    shared_server,
)

GAME = "guardians-of-the-city"
RINGS = """() => {
  const reach = (e) => {
    const cs = getComputedStyle(e);
    const outline = cs.outlineStyle === 'none' ? 0
      : parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
    let shadow = 0;
    for (const one of cs.boxShadow.split(/,(?![^(]*\\))/)) {
      const m = one.match(/-?[\\d.]+px -?[\\d.]+px ([\\d.]+)px( -?[\\d.]+px)?/);
      if (m && !one.includes('inset')) {
        shadow = Math.max(shadow, parseFloat(m[1]) + parseFloat(m[2] || 0));
      }
    }
    return Math.max(outline, shadow, 0);
  };
  const out = [];
  for (const n of document.querySelectorAll('#gc-nations .gc-nation')) {
    const nb = n.getBoundingClientRect();
    for (const e of [n, ...n.querySelectorAll('.can-act, .gc-moved')]) {
      const r = e.getBoundingClientRect();
      const k = reach(e);
      out.push({what: e === n ? 'nation' : e.className, reach: k,
        inside: r.left - k >= nb.left && r.right + k <= nb.right
          && r.top - k >= nb.top && r.bottom + k <= nb.bottom});
    }
  }
  return out;
}"""


def reach_a_ringed_group(page: Page) -> None:
    """Take the page's decisions (playing an Action card where one is offered, else keeping
    the effort, else the first choice) until a Citizen Group of one's own is ringed to click."""
    for _ in range(40):
        page.wait_for_function(MINE_OR_OVER, timeout=30000)
        assert page.evaluate("document.body.dataset.over") != "yes"
        if page.locator("#gc-nations .gc-group.can-act").count():
            return
        buttons = page.locator("#actions button.action:not([disabled])")
        texts = buttons.all_inner_texts()
        pick = next((k for k, text in enumerate(texts) if text.startswith("Play ")
                     and "no more" not in text), None)
        if pick is None:
            pick = next((k for k, text in enumerate(texts) if text.startswith("Keep")), 0)
        click_and_wait(page, buttons.nth(pick), pick_first=False)
    raise AssertionError("no Citizen Group to click in 40 decisions")


def test_rings_stay_inside_their_row_and_their_nations_panel(server: str,
                                                              browser: Browser) -> None:
    """Where one's own Citizen Groups are ringed to click (a Crisis card's loss or an Action
    card's raise), the current nation and the nations the last moves touched are ringed too:
    every ring (outline and outer glow) lies inside the element it marks and inside its
    nation's panel, at each window size."""
    link = create_table(server, GAME, ["human", "random"], 5)
    page = open_board(browser, server + link, Watch())
    reach_a_ringed_group(page)
    for width, height in ((1280, 720), (1366, 800), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        rings = page.evaluate(RINGS)
        assert sum("can-act" in ring["what"] for ring in rings) >= 1, rings
        assert any(ring["what"] == "nation" for ring in rings), rings
        assert all(ring["reach"] == 0 and ring["inside"] for ring in rings), (width, rings)


def test_each_nations_score_tells_its_parts_adding_up(server: str, browser: Browser) -> None:
    """Rulebook section 10 (issue 29): hovering a nation's score shows its parts, labelled,
    adding up to it ("Counter-Terrorism points 0 + Support left 16 + Special Intelligence
    used 0 = 16"; a part taken away with a minus, never "+ -9"), each part's detail below."""
    link = create_table(server, GAME, ["human", "random"], 5)
    page = open_board(browser, server + link, Watch())
    for nation in page.locator("#gc-nations .gc-nation").all():
        score = nation.locator(".gc-score")
        total = int(score.inner_text().removeprefix("Score "))
        first, *details = (score.get_attribute("title") or "").split("\n")
        sums, _, shown = first.rpartition(" = ")
        first_part, *rest = re.split(" ([+\u2212]) ", sums)  # a part taken away: minus
        parts = [int(first_part.rsplit(" ", 1)[1])] + [
            (-1 if sign == "\u2212" else 1) * int(part.rsplit(" ", 1)[1])
            for sign, part in zip(rest[::2], rest[1::2], strict=True)]
        assert int(shown) == total == sum(parts), first
        assert sums.startswith("Counter-Terrorism points ") and "Support left " in sums
        assert "Special Intelligence used " in sums and len(details) == len(parts)
    page.close()
