"""Issue 26 ("every bot move since your last decision is shown on the board and listed in
full, what affects you first"), in a real browser, for every game with a board: a person plays
against bots until the bots have moved; then each mover's places are marked on the board in
its name, and the list above the choices holds every line since the person's last decision
(the end of the person's own log, none cut), the lines naming the person first. Screenshots:
/tmp/citywatch-moves-<game>.png at 1366x800."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import toy_game
from playwright.sync_api import Browser, Page
from test_browser import Watch, new_page, open_page, server_view, toy_server  # noqa: F401
from web_helpers import (  # noqa: F401  (the shared server and browser fixtures)
    MINE_OR_OVER,
    create_table,
    shared_browser,
    shared_server,
)

TABLES = {
    "ankh-morpork": (["human", "random", "random", "random"], 4, None),
    "guards-guards": (["human", "random", "random", "random"], 4, None),
    "black-keep": (["human", "random", "random"], 5, {"scenario": "the-vault"}),
    "guardians-of-the-city": (["human", "random"], 8, None),
}
"""Each game's table: its seats (a person first), seed and options."""

MARKS = """() => [...document.querySelectorAll('#game-main [data-moved]')].flatMap((node) =>
    node.dataset.by.split(', ').map((by) => [node.dataset.moved, by]))"""
"""Every mark on the board: the place and the mover (a mark of several movers names each)."""


def moved_enough(moves: list[dict[str, Any]], seats: int) -> bool:
    """Whether the bots' moves are worth checking: some place marked, and (at a table of
    three seats or more) two movers."""
    return (any(m["spaces"] for m in moves)
            and len({m["by"] for m in moves}) >= min(2, seats - 1))


def play_until_bots_moved(page: Page, base: str, link: str, seats: int) -> dict[str, Any]:
    """Take the person's first choices until, at one of its decisions, the bots have moved
    enough (``moved_enough``); that decision's snapshot (``GET /api/view``)."""
    for _ in range(80):
        page.wait_for_function(MINE_OR_OVER, timeout=30000)
        assert page.evaluate("document.body.dataset.over") == "no", "the game ended first"
        snapshot = server_view(base, link)
        if snapshot["choices"] and moved_enough(snapshot["moves"], seats):
            page.wait_for_function("(s) => document.body.dataset.step === String(s)",
                                   arg=snapshot["step"])
            return snapshot
        before = page.evaluate("() => [document.body.dataset.step, document.body.dataset.picks]")
        page.locator("#actions button:not([disabled])").first.click()
        page.wait_for_function("""(b) => document.body.dataset.step !== b[0]
            || document.body.dataset.picks !== b[1]""", arg=before)
    raise AssertionError("the bots never moved enough to check")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_bot_move_since_your_last_decision_is_marked_and_listed_in_full(
        server: str, browser: Browser, game: str) -> None:
    """Issue 26: at the person's decision after the bots moved, the board marks exactly the
    places of every move since the person's last decision, each under its mover's name; the
    list holds every line of every move, in order, and they are the end of the person's own
    log; the lines naming the person come first, under "About you"."""
    seats, seed, options = TABLES[game]
    link = create_table(server, game, seats, seed, options)
    watch = Watch()
    page = open_page(browser, server + link, watch)
    page.set_viewport_size({"width": 1366, "height": 800})
    snapshot = play_until_bots_moved(page, server, link, len(seats))
    moves = snapshot["moves"]
    marks = {(space, m["by"]) for m in moves for space in m["spaces"]}
    assert {tuple(mark) for mark in page.evaluate(MARKS)} == marks
    shown = [m for m in moves if m["lines"] or m["spaces"]]
    assert page.locator("#since .since-move").evaluate_all(
        "(items) => items.map((item) => item.dataset.by)") == [m["by"] for m in shown]
    lines = [line for m in moves for line in m["lines"]]
    assert lines, "no line to list"
    assert page.locator("#since .since-moves .since-line").all_inner_texts() == lines
    log = page.locator("#log li").all_inner_texts()
    assert log[len(log) - len(lines):] == lines == snapshot["log"][-len(lines):]
    about = [m["lines"][i] for m in moves for i in m["mentions"]]
    if about:
        assert [t.strip() for t in page.locator("#since .since-you li").all_inner_texts()] \
            == about
        first = page.evaluate("document.querySelector('#since h3').nextElementSibling.className")
        assert first == "since-you"
    else:
        assert page.locator("#since .since-you").count() == 0
    page.screenshot(path=f"/tmp/citywatch-moves-{game}.png")
    watch.check()


def test_a_decision_taken_for_the_person_does_not_end_the_list(
        toy_server: str, browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Issue 26 with the auto-take setting (issue 16): the list counts from the person's last
    decision by hand. High Card with drawing the usual choice that never hurts: a bot plays,
    the page draws for the person (its list then showed the bot's move), the bots play; at the
    person's next decision, by hand, the list holds the first bot's move, then every move the
    server tells since the draw (never the draw's own line)."""
    monkeypatch.setattr(toy_game.HighCard, "usual_choice", lambda self, state, actions: next(
        (i for i, a in enumerate(actions) if a.verb == "draw"), None))
    monkeypatch.setattr(toy_game.HighCard, "never_hurts",
                        lambda self, state, action: action.verb == "draw")
    seed = next(k for k in range(100) if toy_game.GAME.new_game(3, k).current == 0)
    seats = ["random", "human", "random"]
    created = httpx.post(f"{toy_server}/api/tables", json={"game": "toy", "seats": seats,
                                                           "seed": seed}).json()
    link = created["seats"][1]["link"]
    watch = Watch()
    page = new_page(browser, watch, "toy")
    page.add_init_script("localStorage.setItem('citywatch.autoTake', 'yes')")
    page.goto(toy_server + link)
    page.wait_for_function("() => document.body.dataset.autotake === 'yes'")
    lines = "#since .since-moves .since-line"
    first = page.locator(lines).all_inner_texts()
    assert first == ["Seat 1 played " + first[0].split(" played ")[1]]  # the bot's move
    page.wait_for_function("""() => document.body.dataset.autotaken === '1'
        && document.body.dataset.mine === 'yes' && document.body.dataset.pending !== 'yes'""")
    snapshot = server_view(toy_server, link)
    told = [line for move in snapshot["moves"] for line in move["lines"]]
    assert told and not any(line.startswith("Seat 2 drew") for line in told)
    assert page.locator(lines).all_inner_texts() == first + told
    watch.check()
