"""The start page's options for the Black Keep, in a real browser (Debian's chromium, driven
by Playwright, as in ``test_browser``).

A choice option (the scenario, the difficulty) is a pick of its words; the rules' numbers
(``GameOption.tuning``: every ``Parameters`` field, issue 12) sit folded under "Tune the
rules' numbers" at the spec's defaults, and only the options changed from their defaults are
sent. No page reports a script error or breaks the Content Security Policy.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    Watch,
    browser,
    open_page,
    serving,
)

from citywatch.games.black_keep.params import Parameters
from citywatch.server import create_app

GAME = "black-keep"
SCREENSHOT = Path("/tmp/bk-startpage-tuning.png")


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    with serving(create_app(f"sqlite:///{tmp_path / 'bk.db'}", bot_delay=0)) as url:
        yield url


def test_scenario_pick_and_folded_tuning_numbers(base: str,
                                                 browser: Browser) -> None:  # noqa: F811
    """Spec 11 (the shipped scenarios) as a pick, spec 14's numbers folded away at their
    defaults; a changed scenario and hearing range are sent as the table's options."""
    watch = Watch()
    page = open_page(browser, base + "/", watch)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.locator("#game").select_option(GAME)
    page.locator('input[name="players"][value="1"]').check()
    assert page.locator("#option-scenario option").all_inner_texts() == [
        "tutorial", "the-vault", "the-black-keep"]
    tuning = page.locator("#tuning")
    expect(tuning).to_be_visible()
    expect(page.locator("#option-hearing_range")).to_be_hidden()  # folded
    tuning.locator("summary").click()
    defaults = Parameters()
    for f in fields(Parameters):
        expect(page.locator(f"#tuning #option-{f.name}")).to_have_value(
            str(getattr(defaults, f.name)))
    page.locator("#option-scenario").select_option("the-vault")
    page.locator("#option-hearing_range").fill("3")
    page.screenshot(path=SCREENSHOT, full_page=True)
    with page.expect_request("**/api/tables") as request:
        page.locator("#create").click()
    body = request.value.post_data_json
    assert body["options"] == {"scenario": "the-vault", "hearing_range": 3}
    expect(page.locator("input.seat-link")).to_have_count(1)
    watch.check()
