"""The deck builder in a real browser (issue 29; Debian's chromium, driven by Playwright, as
in ``test_browser``): a person builds a legal deck card by card from the pool (rulebook
section 4: 50 Action and 40 Crisis cards), sees each kind of broken deck rule named as they
build (section 4's Action and Crisis rules 1 to 3, ruling 20, a deck without a name), saves
the deck in the browser and downloads it as a file ``citywatch deck check`` accepts, and the
start page offers the saved deck for a seat: a table starts with it and plays. No page
reports a script error or breaks the Content Security Policy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    Watch,
    browser,
    open_page,
    server_view,
    take_first_action,
    wait_for_state,
)
from test_gotc_startpage import Server, deck_server  # noqa: F401  (the real server fixture)

from citywatch.cli import main
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CRISIS_CARDS
from citywatch.games.guardians_of_the_city.decks import DECKS, STARTER_DECKS

GAME = "guardians-of-the-city"
BUILD = f"/build/{GAME}/decks"
SCREENSHOT = Path("/tmp/gotc-builder.png")
RULE_1 = "rulebook section 4, Action deck rule 1"
RULE_2 = "rulebook section 4, Action deck rule 2"
RULE_3 = "rulebook section 4, Action deck rule 3"
CRISIS_RULE_1 = "rulebook section 4, Crisis deck rule 1"
CRISIS_RULE_3 = "rulebook section 4, Crisis deck rule 3"
RULING_20 = "ruling 20 (each player builds from their own set, rulebook section 2)"


def builder(browser: Browser, base: str, watch: Watch) -> Page:  # noqa: F811
    """The builder page, loaded, at 1366x800."""
    page = open_page(browser, base + BUILD, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    return page


def settled(page: Page) -> str:
    """Wait for the rules' check of the deck as it stands; its verdict (good or broken)."""
    page.wait_for_function("() => document.getElementById('rules').dataset.state !== 'checking'")
    return str(page.locator("#rules").get_attribute("data-state"))


def broken_rules(page: Page) -> list[str]:
    """The rules the builder names as broken (each problem's bold part)."""
    settled(page)
    return page.locator("#rules li.problem strong").all_inner_texts()


def add(page: Page, side: str, card_id: str, times: int = 1) -> None:
    """Click ``+`` on a card of the pool ``times`` times (its side's tab shown first)."""
    page.locator(f'#tabs [data-list="{side}"]').click()
    plus = page.locator(f'#pool tr[data-entry="{card_id}"] button[aria-label^="One more"]')
    for _ in range(times):
        plus.click()


def remove(page: Page, side: str, card_id: str) -> None:
    """Click ``−`` on a card of the pool once."""
    page.locator(f'#tabs [data-list="{side}"]').click()
    page.locator(f'#pool tr[data-entry="{card_id}"] button[aria-label$="fewer"]').click()


def build_starter(page: Page, index: int, name: str) -> None:
    """Build starter deck ``index``'s cards from an empty deck, card by card."""
    page.locator("#doc-name").fill(name)
    deck = STARTER_DECKS[index]
    for side, counts, cards in (("action", deck.action, ACTION_CARDS),
                                ("crisis", deck.crisis, CRISIS_CARDS)):
        for card, n in zip(cards, counts, strict=True):
            if n:
                add(page, side, card.id, n)


def test_a_legal_deck_is_built_saved_downloaded_and_played(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """Issue 29: from an empty deck (which breaks rule 1 of each side: 0 of 50 and 40), a
    person adds a starter deck's cards one by one and the builder calls it good; the curve
    counts its Action cards by pillar and effort; saved by name, it is offered again on the
    builder and on the start page's seat pick; downloaded, ``citywatch deck check`` accepts
    it; chosen for seat 1, the table starts with it and a few decisions are played."""
    base = deck_server.base
    watch = Watch()
    page = builder(browser, base, watch)
    assert broken_rules(page) == [RULE_1, CRISIS_RULE_1]
    build_starter(page, 1, "Built Bastion")
    assert settled(page) == "good"
    expect(page.locator("#rules .verdict")).to_have_text("A good deck: it keeps every rule.")
    expect(page.locator('#tabs [data-list="action"]')).to_have_text("Action (50 / 50)")
    expect(page.locator('#tabs [data-list="crisis"]')).to_have_text("Crisis (40 / 40)")
    deck = STARTER_DECKS[1]
    military_1 = sum(n for card, n in zip(ACTION_CARDS, deck.action, strict=True)
                     if card.pillar == 0 and card.min_effort == 1)
    first_row = page.locator('#curve table[data-list="action"] tbody tr').first
    expect(first_row.locator("th")).to_have_text("Military")
    expect(first_row.locator("td").first).to_have_text(str(military_1))
    page.screenshot(path=SCREENSHOT)

    page.locator("#save").click()
    expect(page.locator("#saved-note")).to_contain_text("Saved as “Built Bastion”")
    with page.expect_download() as download:
        page.locator("#download").click()
    path = tmp_path / "built.json"
    download.value.save_as(path)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["game"] == GAME and written["name"] == "Built Bastion"
    assert DECKS.load(written)["action"] == deck.to_json()["action"]
    assert main(["deck", "check", str(path)]) == 0

    page.reload()
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.locator("#start-from").select_option("saved:Built Bastion")
    page.locator("#load").click()
    expect(page.locator("#doc-name")).to_have_value("Built Bastion")
    assert settled(page) == "good"

    start = watch.page(page.context.new_page(), "start page")  # the same browser's storage
    start.goto(base + "/")
    start.wait_for_function("() => document.body.dataset.ready === 'yes'")
    start.locator("#game").select_option(GAME)
    start.locator('input[name="players"][value="2"]').check()
    start.locator("#seat-1").select_option("random")
    expect(start.locator("#setup-row-decks a.builder-link")).to_have_attribute("href", BUILD)
    start.locator("#setup-decks-0").select_option("saved:Built Bastion")
    with start.expect_request("**/api/tables") as request:
        start.locator("#create").click()
    body: dict[str, Any] = request.value.post_data_json
    assert body["options"]["decks"][0]["name"] == "Built Bastion"
    expect(start.locator("input.seat-link")).to_have_count(1)
    link = start.locator("input.seat-link").input_value().removeprefix(base)
    table = open_page(browser, base + link, watch)
    wait_for_state(table)
    assert server_view(base, link)["view"]["seats"][0]["deck"]["name"] == "Built Bastion"
    played = 0
    for _ in range(40):
        if played == 3:
            break
        if take_first_action(table):
            played += 1
        else:
            table.wait_for_timeout(100)
    assert played == 3
    assert deck_server.table_count() == 1
    watch.check()


def test_each_kind_of_broken_deck_rule_is_named_as_it_is_built(
        deck_server: Server, browser: Browser) -> None:  # noqa: F811
    """Rulebook section 4 and ruling 20, as ``citywatch deck check`` names them: starting
    from a starter deck (legal), each change breaks one rule and the builder names it: a
    51st Action card (Action rule 1), a 4th copy (Action rule 2, not ruling 20 as well), a
    second Galvanised People card of a type (Action rule 3), a second Subversive of a type
    (Crisis rule 3), a third copy of a card a set holds two of (ruling 20); a deck with no
    name is not a deck at all, and says so. No table is made."""
    base = deck_server.base
    watch = Watch()
    page = builder(browser, base, watch)
    page.locator("#start-from").select_option(f"shipped:{STARTER_DECKS[0].id}")
    page.locator("#load").click()
    assert settled(page) == "good"
    counts = dict(zip((c.id for c in ACTION_CARDS), STARTER_DECKS[0].action, strict=True))
    three = next(c for c in ACTION_CARDS if counts[c.id] == 3)
    add(page, "action", three.id)
    assert broken_rules(page) == [RULE_1, RULE_2]
    remove(page, "action", three.id)
    assert settled(page) == "good"

    galvanised = next(c for c in ACTION_CARDS if c.type and counts[c.id] == 1)
    swap = next(c for c in ACTION_CARDS if counts[c.id] >= 2)
    add(page, "action", galvanised.id)
    remove(page, "action", swap.id)
    assert broken_rules(page) == [RULE_3]
    remove(page, "action", galvanised.id)
    add(page, "action", swap.id)

    two = next(c for c in ACTION_CARDS if c.copies_in_box == 2 and counts[c.id] == 2)
    add(page, "action", two.id)
    remove(page, "action", swap.id)
    assert broken_rules(page) == [RULING_20]
    remove(page, "action", two.id)
    add(page, "action", swap.id)
    assert settled(page) == "good"

    crisis = dict(zip((c.id for c in CRISIS_CARDS), STARTER_DECKS[0].crisis, strict=True))
    subversive = next(c for c in CRISIS_CARDS if c.type and crisis[c.id] == 1)
    add(page, "crisis", subversive.id)
    assert broken_rules(page) == [CRISIS_RULE_1, CRISIS_RULE_3]
    remove(page, "crisis", subversive.id)

    page.locator("#doc-name").fill("")
    assert settled(page) == "broken"
    expect(page.locator("#rules .verdict")).to_have_text("Not a deck yet:")
    expect(page.locator("#rules li.problem")).to_contain_text("a deck needs a 'name'")
    # the check's answer is a 400, which the browser reports on its console
    assert [e.split(": ", 1)[1] for e in watch.errors] == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    watch.errors.clear()
    page.locator("#doc-name").fill("Fine again")
    assert settled(page) == "good"
    assert deck_server.table_count() == 0
    watch.check()
