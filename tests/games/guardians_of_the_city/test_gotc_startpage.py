"""The start page's deck choice for Guardians of the City, in a real browser (Debian's
chromium, driven by Playwright, as in ``test_browser``).

The game declares a per-seat set-up choice, the deck (``GameType.setup``, ``DeckChoice``;
docs/server.md, ``GET /api/games``, set-up choices), so the start page offers a deck pick per
seat: a starter deck or an uploaded JSON deck list. The server checks every deck rule
(rulebook section 4, ruling 20) before it sets the table up; a deck breaking one is refused
with a sentence naming the seat and the rule, and no table is made. The table's board then
shows each seat's deck. A game without set-up choices (Ankh-Morpork) shows no set-up
controls. No page reports a script error or breaks the Content Security Policy.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import Browser, Page, Request, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    Watch,
    browser,
    open_page,
    server_view,
    serving,
    wait_for_state,
)

from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS, load_deck
from citywatch.server import create_app

GAME = "guardians-of-the-city"
DECKS_SCREENSHOT = Path("/tmp/gotc-startpage-decks.png")
REFUSED_SCREENSHOT = Path("/tmp/gotc-startpage-refused.png")
DECK_SELECTS = "#setup-row-decks select[data-setup=decks]:visible"
"""The deck picks of the seats played (every seat's is drawn; those past the count hidden)."""
DECK_NAME = ".gc-nation[data-seat={seat}] .gc-deck-name"


class Server(NamedTuple):
    """A real server's base URL and the SQLite file its tables are stored in."""

    base: str
    db: Path

    def table_count(self) -> int:
        """How many tables the server has stored."""
        with sqlite3.connect(self.db) as connection:
            count: int = connection.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        return count


@pytest.fixture
def deck_server(tmp_path: Path) -> Iterator[Server]:
    """A real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    db = tmp_path / "decks.db"
    with serving(create_app(f"sqlite:///{db}", bot_delay=0)) as base:
        yield Server(base, db)


def starter_json(deck_id: str) -> dict[str, Any]:
    """The JSON form of the starter deck ``deck_id``, without its starter id."""
    deck = next(d for d in STARTER_DECKS if d.id == deck_id).to_json()
    del deck["id"]
    return deck


def own_deck() -> dict[str, Any]:
    """Heartland with one change that keeps every deck rule: its single Public Reassurance
    becomes a Joint Task Force (still 50 Action cards, no card above 3 copies or its box)."""
    deck = starter_json("heartland")
    deck["name"] = "Our Heartland"
    deck["action"] = [row for row in deck["action"] if row["name"] != "Public Reassurance"]
    deck["action"].append({"name": "Joint Task Force", "count": 1})
    load_deck(deck)  # the rules' own check agrees that it is legal
    return deck


def four_raids_deck() -> dict[str, Any]:
    """Heartland with a 4th Raids for one Border Patrol: 50 Action cards still, but rulebook
    section 4, Action deck rule 2 allows at most 3 copies of a card."""
    deck = starter_json("heartland")
    deck["name"] = "Four Raids"
    counts = {"Raids": 4, "Border Patrol": 2}
    deck["action"] = [{**row, "count": counts.get(row["name"], row["count"])}
                      for row in deck["action"]]
    return deck


def sent(request: Request) -> dict[str, Any]:
    """The JSON body the start page sent with ``request``."""
    body = request.post_data_json
    assert isinstance(body, dict), body
    return body


def start_page(browser: Browser, base: str, watch: Watch) -> Page:  # noqa: F811
    """The start page, its games loaded, with Guardians of the City chosen for 2 players:
    seat 1 a person, seat 2 a random bot."""
    page = open_page(browser, base + "/", watch)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.locator("#game").select_option(GAME)
    page.locator('input[name="players"][value="2"]').check()
    page.locator("#seat-1").select_option("random")
    return page


def upload(page: Page, seat: int, deck: dict[str, Any], folder: Path) -> None:
    """Choose an uploaded deck for ``seat`` (from 0) and pick ``deck`` written as a file."""
    path = folder / f"{deck['name'].replace(' ', '-').lower()}.json"
    path.write_text(json.dumps(deck, indent=1), encoding="utf-8")
    page.locator(f"#setup-decks-{seat}").select_option("upload")
    file = page.locator(f"#setup-decks-file-{seat}")
    expect(file).to_be_visible()
    file.set_input_files(path)


def check_layout(page: Page) -> None:
    """The deck picks line up with the seat picks (same left edge and width), and a shown
    file picker lies on its own line under its seat's deck pick, not squeezing it."""
    seat = page.locator("#seat-0").bounding_box()
    assert seat is not None
    for i in range(page.locator(DECK_SELECTS).count()):
        deck = page.locator(f"#setup-decks-{i}").bounding_box()
        assert deck is not None
        assert (round(deck["x"]), round(deck["width"])) == (
            round(seat["x"]), round(seat["width"])), (i, deck, seat)
        file = page.locator(f"#setup-decks-file-{i}")
        if file.is_visible():
            box = file.bounding_box()
            assert box is not None
            assert box["y"] >= deck["y"] + deck["height"], (i, box, deck)
            assert round(box["x"]) == round(deck["x"]), (i, box, deck)


def open_seat(browser: Browser, page: Page, base: str, watch: Watch) -> tuple[Page, str]:  # noqa: F811
    """The person's table page from the start page's link, once it has drawn a state."""
    expect(page.locator("input.seat-link")).to_have_count(1)
    link = page.locator("input.seat-link").input_value().removeprefix(base)
    table = open_page(browser, base + link, watch)
    wait_for_state(table)
    return table, link


def test_a_chosen_starter_deck_is_played_by_its_seat(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """docs/server.md, GET /api/games (set-up choices): each seat picks a starter deck (the
    starter decks in order by default, with each deck's plan as its title); the decks of the
    seats played are sent as options.decks, one per seat, and the table's board shows seat
    1's non-default pick on seat 1's nation."""
    base = deck_server.base
    watch = Watch()
    page = start_page(browser, base, watch)
    expect(page.locator("#setup-row-decks")).to_be_visible()
    expect(page.locator("#setup-row-decks > .label")).to_have_text("Decks")
    expect(page.locator("#setup-row-decks label:visible")).to_have_text(["Seat 1", "Seat 2"])
    expect(page.locator(DECK_SELECTS)).to_have_count(2)
    names = [deck.name for deck in STARTER_DECKS]
    assert page.locator("#setup-decks-0 option").all_inner_texts() == [
        *names, "Upload a deck (JSON file)…"]
    assert page.locator("#setup-decks-0 option").evaluate_all(
        "os => os.map(o => o.title)")[:4] == [deck.plan for deck in STARTER_DECKS]
    assert [page.locator(f"#setup-decks-{i}").input_value() for i in (0, 1)] == [
        STARTER_DECKS[0].id, STARTER_DECKS[1].id]
    expect(page.locator("#setup-decks-file-0")).to_be_hidden()

    chosen = STARTER_DECKS[3]
    page.locator("#setup-decks-0").select_option(chosen.id)
    upload(page, 1, own_deck(), tmp_path)
    check_layout(page)
    page.screenshot(path=DECKS_SCREENSHOT, full_page=True)
    page.locator("#setup-decks-1").select_option(STARTER_DECKS[1].id)  # back to a starter
    expect(page.locator("#setup-decks-file-1")).to_be_hidden()
    check_layout(page)

    with page.expect_request("**/api/tables") as request:
        page.locator("#create").click()
    assert sent(request.value)["options"] == {
        "decks": [chosen.id, STARTER_DECKS[1].id]}
    table, link = open_seat(browser, page, base, watch)
    expect(table.locator(DECK_NAME.format(seat='"Player 1"'))).to_have_text(chosen.name)
    expect(table.locator(DECK_NAME.format(seat='"Player 2"'))).to_have_text(
        STARTER_DECKS[1].name)
    seats = server_view(base, link)["view"]["seats"]
    assert [s["deck"]["name"] for s in seats] == [chosen.name, STARTER_DECKS[1].name]
    assert deck_server.table_count() == 1
    watch.check()


def test_an_uploaded_legal_deck_starts_the_table(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """docs/server.md, POST /api/tables (decks): a deck list uploaded as a JSON file (a
    starter deck with a change that keeps rulebook section 4's rules) is sent as the seat's
    deck, the table starts, and the board shows the uploaded deck's name for that seat."""
    base = deck_server.base
    watch = Watch()
    page = start_page(browser, base, watch)
    deck = own_deck()
    upload(page, 0, deck, tmp_path)
    with page.expect_request("**/api/tables") as request:
        page.locator("#create").click()
    assert sent(request.value)["options"]["decks"] == [deck, STARTER_DECKS[1].id]
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("#create-error .banner")).to_have_count(0)
    table, link = open_seat(browser, page, base, watch)
    expect(table.locator(DECK_NAME.format(seat='"Player 1"'))).to_have_text("Our Heartland")
    mine = server_view(base, link)["view"]["seats"][0]["deck"]
    assert {row["name"]: row["count"] for row in mine["action"]} == {
        row["name"]: row["count"] for row in deck["action"]}
    assert deck_server.table_count() == 1
    watch.check()


def test_a_deck_breaking_a_rule_is_refused_and_no_table_is_made(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """Rulebook section 4, Action deck rule 2 (at most 3 copies of any Action card): an
    uploaded deck with 4 Raids is refused with a sentence naming the seat, the rule and the
    card; no table is made. So is an upload that is missing or not JSON (checked on the
    page). Choosing a starter deck again then makes the table."""
    base = deck_server.base
    watch = Watch()
    page = start_page(browser, base, watch)
    error = page.locator("#create-error .banner")

    page.locator("#setup-decks-0").select_option("upload")
    page.locator("#create").click()
    expect(error).to_have_text("Choose seat 1's deck file, or one of the decks offered.")

    not_json = tmp_path / "not-a-deck.json"
    not_json.write_text("{ Raids: 4", encoding="utf-8")
    page.locator("#setup-decks-file-0").set_input_files(not_json)
    page.locator("#create").click()
    expect(error).to_have_text("Seat 1's deck file not-a-deck.json is not valid JSON.")

    upload(page, 0, four_raids_deck(), tmp_path)
    with page.expect_response("**/api/tables") as answer:
        page.locator("#create").click()
    assert answer.value.status == 400
    expect(error).to_contain_text("seat 1's deck: the deck 'Four Raids' breaks the deck rules")
    expect(error).to_contain_text("rulebook section 4, Action deck rule 2: at most 3 copies "
                                  "of any Action card, not 4 of Raids")
    expect(error).to_be_visible()
    expect(page.locator("#created")).to_be_hidden()
    expect(page.locator("input.seat-link")).to_have_count(0)
    page.screenshot(path=REFUSED_SCREENSHOT, full_page=True)
    assert deck_server.table_count() == 0
    # Chromium logs the refused request itself as an error; nothing else is reported.
    assert [e.split(": ", 1)[1] for e in watch.errors] == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    watch.errors.clear()

    page.locator("#setup-decks-0").select_option(STARTER_DECKS[2].id)
    page.locator("#create").click()
    expect(page.locator("#created")).to_be_visible()
    expect(error).to_have_count(0)
    assert deck_server.table_count() == 1
    watch.check()


def test_ankh_morpork_shows_no_deck_controls(
        deck_server: Server, browser: Browser) -> None:  # noqa: F811
    """A game without set-up choices (Ankh-Morpork: an empty ``GameType.setup``) shows no
    set-up controls, also after another game's were shown, and sends no options."""
    base = deck_server.base
    watch = Watch()
    page = open_page(browser, base + "/", watch)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.locator("#game").select_option("ankh-morpork")
    expect(page.locator("#setup")).to_be_hidden()
    expect(page.locator(DECK_SELECTS)).to_have_count(0)
    page.locator("#game").select_option(GAME)
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator(DECK_SELECTS)).to_have_count(4)
    page.locator("#game").select_option("ankh-morpork")
    expect(page.locator("#setup")).to_be_hidden()
    expect(page.locator(DECK_SELECTS)).to_have_count(0)
    expect(page.locator("#setup select, #setup input[type=file]")).to_have_count(0)
    page.locator('input[name="players"][value="2"]').check()
    with page.expect_request("**/api/tables") as request:
        page.locator("#create").click()
    assert "options" not in sent(request.value)
    expect(page.locator("#created")).to_be_visible()
    watch.check()


def test_deck_picks_follow_the_number_of_players(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """docs/server.md, POST /api/tables (set-up choices): a per-seat choice is sent as a list
    with one deck per seat played, in seat order. The page shows a deck pick for each seat
    played; a seat's picked file stays picked when the number of players changes."""
    base = deck_server.base
    watch = Watch()
    page = open_page(browser, base + "/", watch)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    page.locator("#game").select_option(GAME)
    expect(page.locator(DECK_SELECTS)).to_have_count(4)  # the most players, checked first
    assert [page.locator(f"#setup-decks-{i}").input_value() for i in range(4)] == [
        deck.id for deck in STARTER_DECKS]
    deck = own_deck()
    upload(page, 1, deck, tmp_path)
    page.locator('input[name="players"][value="2"]').check()
    expect(page.locator(DECK_SELECTS)).to_have_count(2)
    page.locator('input[name="players"][value="3"]').check()
    expect(page.locator(DECK_SELECTS)).to_have_count(3)
    expect(page.locator("#setup-decks-1")).to_have_value("upload")
    expect(page.locator("#setup-decks-file-1")).to_be_visible()
    assert page.locator("#setup-decks-file-1").evaluate("f => f.files.length") == 1
    check_layout(page)
    for seat in (1, 2):
        page.locator(f"#seat-{seat}").select_option("random")
    with page.expect_request("**/api/tables") as request:
        page.locator("#create").click()
    assert sent(request.value)["options"] == {
        "decks": [STARTER_DECKS[0].id, deck, STARTER_DECKS[2].id]}
    expect(page.locator("#created")).to_be_visible()
    assert deck_server.table_count() == 1
    watch.check()


def test_each_seats_deck_description_shows_under_its_pick(
        deck_server: Server, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """Issue 29: each seat's picked starter deck has its description (the shipped document's
    summary from ``GET /api/games``) written under its pick, not only as a tooltip; it
    follows the pick, hides for an upload, and hides with a seat not played."""
    import httpx

    base = deck_server.base
    games = httpx.get(f"{base}/api/games", timeout=30).json()
    entry = next(g for g in (games["games"] if isinstance(games, dict) else games)
                 if g["name"] == GAME)
    shipped = {doc["id"]: doc["summary"] for doc in entry["type"]["setup"][0]["shipped"]}
    watch = Watch()
    page = start_page(browser, base, watch)
    for seat in (0, 1):
        chosen = page.locator(f"#setup-decks-{seat}").input_value()
        note = page.locator(f"#setup-decks-summary-{seat}")
        expect(note).to_be_visible()
        expect(note).to_have_text(shipped[chosen])
        pick = page.locator(f"#setup-decks-{seat}").bounding_box()
        box = note.bounding_box()
        assert pick is not None and box is not None
        assert box["y"] >= pick["y"] + pick["height"] and round(box["x"]) == round(pick["x"])
    expect(page.locator("#setup-decks-summary-2")).to_be_hidden()
    other = STARTER_DECKS[3].id
    page.locator("#setup-decks-0").select_option(other)
    expect(page.locator("#setup-decks-summary-0")).to_have_text(shipped[other])
    upload(page, 1, own_deck(), tmp_path)
    expect(page.locator("#setup-decks-summary-1")).to_be_hidden()
    check_layout(page)
    watch.check()
