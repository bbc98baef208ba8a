"""Guards! Guards! in a real browser (Debian's chromium, driven by Playwright).

A real server runs in a thread (as in ``test_browser``); one person plays a whole game of
Guards! Guards! against two heuristic bots through the table page's board
(``citywatch/games/guards_guards/web``): moving by clicking the glowing tiles of the hex
map, taking every other decision by its button, until the game is over. On the way the page
shows the map's 158 tiles, the tiles still within reach while moving, the person's Guild
Card and hand (as the server's view has them), and the Dice panel with the latest rolls the
log reports, newest first; no page reports a script error or breaks the Content Security
Policy.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import (  # noqa: F401  (browser: the Playwright fixture)
    ENABLED_ACTIONS,
    Watch,
    browser,
    server_view,
)
from web_helpers import (
    MINE_OR_OVER,
    check_the_end,
    create_table,
    decisions,
    keep_screenshot,
    open_board,
    real_server,
)
from web_helpers import click_and_wait as click_and_wait_for

GAME = "guards-guards"
SEATS = ["human", "heuristic", "heuristic"]
SEED = 3
"""The table's seed: the bots and the person's choices are deterministic with it."""
GAME_DEADLINE = 120.0
"""Seconds the whole game may take in the browser before the test fails."""
END_MOVEMENT = 0.5
"""How often the person stops moving early when a step is theirs to take."""
FINAL_SCREENSHOT = Path("/tmp/gg-final.png")

TILES = "#gg-board svg .gg-tile"
GLOWING = "#gg-board svg .gg-tile.can-act"
REACHABLE = "#gg-board svg .gg-tile.reachable"
ROLLS = "#gg-dice-list li.gg-roll"
STEP_BUTTONS = "#actions button.step:not([disabled])"
PLAIN_ROLL = re.compile(r"\brolls \d+ \+ \d+ = |\btest (?:passed|failed): \d")
"""Log lines that surely report a roll (the Dice panel shows more kinds)."""


@pytest.fixture
def gg_server(tmp_path: Path) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite in tmp_path, no bot delay)."""
    yield from real_server(tmp_path, "gg.db")


def tile(page: Page, name: str) -> Any:
    """The glowing tile called ``name`` on the map."""
    return page.locator(f"{GLOWING}[data-name={json.dumps(name, ensure_ascii=False)}]")


def click_and_wait(page: Page, target: Any) -> None:
    """Click ``target`` (a choice button or a glowing tile) and wait for the server's answer."""
    click_and_wait_for(page, target, pick_first=False)


def take_a_decision(page: Page, rnd: random.Random) -> str:
    """Take one decision as a sensible-ish person would; "tile" or "button": how.

    An opponent passing by is let pass. While moving: any other thing to do first (try to
    plant, recruit, use an ability...), else a step to a random glowing tile, or now and
    then a stop (the person's own tile glows for it). Any other decision: its first choice.
    """
    buttons = page.locator(ENABLED_ACTIONS)
    texts = [t.split("\n")[0] for t in buttons.all_inner_texts()]  # not the notes (issue 27)
    assert texts, "a decision of the person's with no choice button"
    if any(t.startswith("Go to") for t in texts) and rnd.random() < 0.4:
        return take_a_big_decision(page, rnd)  # issue 27: a walk (or a step) on the map
    lets = [i for i, t in enumerate(texts) if t.startswith("Let ")]
    if lets:  # an opponent passes by: let them (always stopping them, no game would end)
        click_and_wait(page, buttons.nth(lets[0]))
        return "button"
    moves = [i for i, t in enumerate(texts) if t.startswith("Move to ")]
    ends = [i for i, t in enumerate(texts) if t.startswith("End movement here (")]
    other = [i for i in range(len(texts)) if i not in moves and i not in ends
             and not texts[i].startswith("Go to")]
    if not moves and not ends:
        click_and_wait(page, buttons.first)
        return "button"
    if other and not texts[other[0]].startswith("Recall"):
        click_and_wait(page, buttons.nth(other[0]))
        return "button"
    if moves and (not ends or rnd.random() > END_MOVEMENT):
        chosen = texts[rnd.choice(moves)]
        name = chosen.removeprefix("Move to ")
    else:
        chosen = texts[ends[0]]
        name = chosen.removeprefix("End movement here (").removesuffix(")")
    glowing = tile(page, name)
    expect(glowing).to_have_count(1)
    if "one" not in (glowing.get_attribute("class") or "").split():
        # Several choices name the tile: its small menu offers them.
        glowing.click()
        click_and_wait(page, page.locator("#gg-menu .gg-menu-choice", has_text=chosen).first)
        return "tile"
    assert chosen in (glowing.locator("title").text_content() or "")
    click_and_wait(page, glowing)
    return "tile"


def check_own_panels(page: Page, view: dict[str, Any]) -> None:
    """The Guild Card panel and the hand show the person's seat as the server's view has it."""
    me = view["seats"][view["seat"]]
    expect(page.locator("#gg-me")).to_be_visible()
    expect(page.locator("#gg-me h2")).to_have_text("Your Guild Card")
    expect(page.locator("#gg-hand")).to_be_visible()
    hand = [v["name"] for v in view["own"]["hand"]]
    expect(page.locator("#gg-hand h2").first).to_have_text(f"Your Volunteers ({len(hand)})")
    assert sorted(page.locator("#gg-hand .gg-hand .gg-vol-name").all_inner_texts()) == sorted(hand)
    if me["guild_card"]:
        expect(page.locator("#gg-me .gg-guild-card .gg-card-name strong")).to_have_text(
            me["guild_card"]["name"])
        expect(page.locator("#gg-me .gg-track-box .gg-track-row")).to_have_count(4)
        expect(page.locator("#gg-me .gg-money")).to_have_text(f"${me['dollars']}")


def check_dice(page: Page, log: list[str]) -> int:
    """The Dice panel shows the latest rolls of the log, newest first, the newest picked out;
    how many it shows."""
    rolls = page.locator(ROLLS)
    shown = rolls.all_inner_texts()
    if not shown:
        expect(page.locator("#gg-dice-list .gg-dice-none")).to_have_text("No dice rolled yet.")
        return 0
    expect(page.locator("#gg-dice h2")).to_have_text("Dice")
    assert len(shown) <= 6
    expect(rolls.first).to_have_class(re.compile(r"(^|\s)gg-roll-newest(\s|$)"))
    expect(page.locator(f"{ROLLS}.gg-roll-newest")).to_have_count(1)
    # The shown lines are log lines (with their pass/fail tag), newest first, and no plain
    # roll came after the newest.
    at = len(log)
    for k, text in enumerate(shown):
        at = next((i for i in range(at - 1, -1, -1) if text.startswith(log[i])), -1)
        assert at >= 0, (text, shown)
        if k == 0:
            later = [line for line in log[at + 1:] if PLAIN_ROLL.search(line)]
            assert not later, (text, later)
    return len(shown)


def take_a_big_decision(page: Page, rnd: random.Random) -> str:
    """A move with the walks to every reachable tile (issue 27), too big for its buttons:
    mostly a click on a random glowing tile (a step, a walk there, or a stop), else its first
    step button and then its first choice."""
    glowing = page.locator(GLOWING)
    if glowing.count() and rnd.random() < 0.8:
        target = glowing.nth(rnd.randrange(glowing.count()))
        if "one" in (target.get_attribute("class") or "").split():
            click_and_wait(page, target)
        else:
            target.click()
            click_and_wait(page, page.locator("#gg-menu .gg-menu-choice").first)
        return "tile"
    click_and_wait_for(page, page.locator(STEP_BUTTONS).first)
    return "button"


def test_one_person_plays_a_whole_game_of_guards_guards_in_the_browser(
        gg_server: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    """One person against two heuristic bots, to the end, by clicking tiles and buttons;
    the map, the reachable tiles, the Guild Card, the hand and the Dice panel are shown, with
    no script error and no Content Security Policy violation, and no bot failed on the way
    (the server would have replaced it and said so in a notice)."""
    link = create_table(gg_server, GAME, SEATS, SEED)
    watch = Watch()
    page = open_board(browser, gg_server + link, watch)
    expect(page.locator(TILES)).to_have_count(158)
    expect(page.locator("#gg-dice")).to_be_visible()

    rnd = random.Random(SEED)
    start = time.monotonic()
    clicks = {"tile": 0, "button": 0}
    reachable_seen = 0
    rolls_seen = 0
    checked_panels = False
    mid_screenshot = tmp_path / "gg-mid.png"
    for taken in decisions(page, GAME_DEADLINE, clicks):
        reachable_seen = max(reachable_seen, page.locator(REACHABLE).count())
        if taken % 10 == 0:
            data = server_view(gg_server, link)
            if data["step"] == int(page.evaluate("document.body.dataset.step")):
                rolls_seen = max(rolls_seen, check_dice(page, data["log"]))
                if data["view"]["seats"][data["view"]["seat"]]["guild_card"]:
                    check_own_panels(page, data["view"])
                    checked_panels = True
        if taken == 60:
            page.screenshot(path=mid_screenshot, full_page=True)
        clicks[take_a_decision(page, rnd)] += 1
    elapsed = time.monotonic() - start

    final = check_the_end(page, gg_server, link)
    expect(page.locator(GLOWING)).to_have_count(0)
    expect(page.locator(TILES)).to_have_count(158)
    check_own_panels(page, final["view"])
    assert check_dice(page, final["log"]) == 6, "a whole game has more than six rolls"

    assert clicks["tile"] >= 10 and clicks["button"] >= 3, clicks
    assert checked_panels, "the Guild Card and hand were never compared with the server's view"
    assert reachable_seen > 0, "no tile was ever highlighted as within reach"
    assert rolls_seen >= 2, "the Dice panel never showed a roll during the game"

    keep_screenshot(page, tmp_path, FINAL_SCREENSHOT)
    if mid_screenshot.exists():
        shutil.copyfile(mid_screenshot, FINAL_SCREENSHOT.with_name("gg-mid.png"))
    watch.check()
    assert not final["table"]["notices"], final["table"]["notices"]
    print(f"guards-guards browser game: {clicks} clicks in {elapsed:.1f} s; "
          f"{final['view']['result']}; notices: {final['table']['notices']}")


WALK_DONE = ("(before) => document.body.dataset.walking === 'no' && "
             "document.body.dataset.pending !== 'yes' && Number(document.body.dataset.step) > "
             "before && (document.body.dataset.mine === 'yes' || "
             "document.body.dataset.over === 'yes')")
"""The page followed a plan to its end (or stopped it) and waits for the person again."""


def test_movement_one_click_on_a_far_tile_walks_there_a_recorded_step_at_a_time(
        gg_server: str, browser: Browser) -> None:  # noqa: F811
    """Issue 27 (move by destination; Movement, rulings 12-14): a glowing tile 2 or more steps
    away is one click; the page sends the walk's steps one at a time, each an action of the
    record, and the piece stands on that tile with its movement ended."""
    from citywatch.games.guards_guards.data import tile_named

    link = create_table(gg_server, GAME, ["human", "heuristic"], SEED)
    watch = Watch()
    sent: list[Any] = []
    page = open_board(browser, gg_server + link, watch)
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(
        json.loads(frame)) if isinstance(frame, str) else None))
    page.reload()  # the socket opened again, now with the frames it sends heard
    page.wait_for_function(MINE_OR_OVER, timeout=30000)
    plans: list[dict[str, Any]] = []
    for _ in range(40):
        page.wait_for_function(MINE_OR_OVER, timeout=30000)
        data = server_view(gg_server, link)
        plans = [c for c in data["choices"] if c.get("steps")]
        if plans:
            break
        click_and_wait(page, page.locator(ENABLED_ACTIONS).first)
    walks = [p for p in plans if "via" not in p["json"]
             and p["steps"][-1]["verb"] == "end_movement"]
    assert walks, "no walk was offered in 40 decisions"
    walk = max(walks, key=lambda p: len(p["steps"]))
    goal = walk["json"]["tile"]
    seat = data["view"]["seat"]
    glowing = tile(page, goal)
    assert walk["text"] in (glowing.locator("title").text_content() or "")
    before = len(sent)
    glowing.click()
    page.wait_for_function(WALK_DONE, arg=data["step"], timeout=30000)
    acts = [m["action"] for m in sent[before:] if m.get("type") == "act"]
    assert acts == walk["steps"], "the walk's steps, in order, each sent as an action"
    after = server_view(gg_server, link)
    assert after["step"] >= data["step"] + len(walk["steps"])
    assert after["view"]["seats"][seat]["tile"] == tile_named(goal).id
    watch.check()
