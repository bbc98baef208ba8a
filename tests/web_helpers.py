"""What the tests of every game's browser board share.

Without a browser: the ``data``, ``js`` and ``css`` fixtures (a game's ``board.json`` and the
``board.js`` and ``board.css`` beside it) and the checks every board passes (the board
interface of the server's ``common.js``, the pages' Content Security Policy, every class
styled, the folder served). In a real browser (``test_browser``): a server, a table, clicks
that wait for the server's answer, the person's decisions to the end of the game, the end;
and the ``server`` and ``browser`` fixtures (``shared_server``, ``shared_browser``: import
them into a test module to use them).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import (
    NEXT_STATE,
    STEPPING,
    launched_browser,
    open_page,
    server_view,
    serving,
    wait_for_state,
)

from citywatch.server import create_app

if TYPE_CHECKING:
    from starlette.testclient import TestClient


# --- without a browser ---------------------------------------------------------------------
def board_files(board_json: Path) -> tuple[Any, Any, Any]:
    """The ``data``, ``js`` and ``css`` fixtures of a game's board: ``board_json`` read, and
    the ``board.js`` and ``board.css`` beside it (each read once per test module)."""
    web = board_json.parent

    @pytest.fixture(scope="module")
    def data() -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(board_json.read_text(encoding="utf-8"))
        return loaded

    @pytest.fixture(scope="module")
    def js() -> str:
        return (web / "board.js").read_text(encoding="utf-8")

    @pytest.fixture(scope="module")
    def css() -> str:
        return (web / "board.css").read_text(encoding="utf-8")

    return data, js, css


def check_board_interface(js: str, game: str) -> None:
    """``js`` registers the board of ``game`` with load, mount and render (and banner, hint,
    outcome and who), fetches board.json and board.css from the folder it is served from, and
    finds by id only elements that its mount builds (common.js's board interface)."""
    register = f'window.CityWatchBoards["{game}"] = {{'
    assert register in js
    module = js[js.index(register):]
    for name in ("load", "mount", "render", "banner", "hint", "outcome", "who"):
        assert re.search(rf"\b{name}\b", module), name
    assert "`${base}board.json`" in js and "`${base}board.css`" in js
    looked_up = set(re.findall(r'getElementById\("([\w-]+)"\)', js))
    looked_up |= set(re.findall(r'\$\("([\w-]+)"\)', js))
    built = set(re.findall(r'\bid: "([\w-]+)"', js))
    assert looked_up and looked_up <= built, looked_up - built


def check_content_security_policy(js: str, css: str) -> None:
    """No HTML strings, inline styles, eval, inline handlers or other origins: elements are
    built with common.js's ``el``/``svg`` and styled by classes in board.css."""
    for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                   "new Function", ".style.", "style=", '"style"', "cssText", "onclick=",
                   "javascript:", "https://"):
        assert banned not in js, banned
    assert "@import" not in css and "http:" not in css and "https:" not in css
    assert "http://" not in js.replace('"http://www.w3.org/2000/svg"', "")


def unstyled(js: str, css: str, prefix: str, hooks: set[str], last: str = "a-z0-9") -> list[str]:
    """The fixed ``prefix-`` classes ``js`` names (ending in a character of ``last``) that
    have no rule in ``css``, leaving out ``hooks``, element ids and the prefixes of classes
    made by ``${...}``."""
    styled = set(re.findall(rf"\.({prefix}-[\w-]+)", css))
    hooks = hooks | set(re.findall(rf'\bid: "({prefix}-[\w-]+)"', js))
    named = set(re.findall(rf"\b({prefix}-[a-z][\w-]*[{last}])\b", js)) - hooks
    return sorted(c for c in named if f"{c}-${{" not in js and c not in styled)


def check_served(client: TestClient, game: str, web: Path) -> None:
    """``/games/<game>/`` serves board.js, board.css and board.json as they are in ``web``,
    and ``/api/games`` lists the game as having a board."""
    for name in ("board.js", "board.css", "board.json"):
        response = client.get(f"/games/{game}/{name}")
        assert response.status_code == 200, name
        assert response.text == (web / name).read_text(encoding="utf-8")
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games[game]["board"] is True


# --- in a real browser ---------------------------------------------------------------------
MINE_OR_OVER = ("() => (document.body.dataset.mine === 'yes' "
                "&& document.body.dataset.pending !== 'yes' "
                "&& document.body.dataset.walking !== 'yes') "
                "|| document.body.dataset.over === 'yes'")
"""The page has a decision to take (nothing sent and unanswered, no plan being followed,
issue 27), or the game is over."""


def real_server(tmp_path: Path, db: str) -> Iterator[str]:
    """The base URL of a real server (uvicorn in a thread, SQLite file ``db`` in tmp_path, no
    bot delay), for a fixture to ``yield from``."""
    with serving(create_app(f"sqlite:///{tmp_path / db}", bot_delay=0)) as base:
        yield base


@pytest.fixture(name="server")
def shared_server(tmp_path: Path) -> Iterator[str]:
    """The ``server`` fixture a test module gets by importing this one: ``real_server``."""
    yield from real_server(tmp_path, "table.db")


@pytest.fixture(name="browser")
def shared_browser() -> Iterator[Browser]:
    """The ``browser`` fixture a test module gets by importing this one (``launched_browser``)."""
    yield from launched_browser()


def create_table(base: str, game: str, seats: list[str], seed: int,
                 options: dict[str, Any] | None = None) -> str:
    """A table of ``game`` made through the API; the link of its first person's page."""
    body: dict[str, Any] = {"game": game, "seats": seats, "seed": seed}
    if options is not None:
        body["options"] = options
    response = httpx.post(f"{base}/api/tables", json=body, timeout=120)  # a busy machine
    assert response.is_success, response.text
    link: str = next(s["link"] for s in response.json()["seats"] if s["link"])
    return link


def open_board(browser: Browser, url: str, watch: Any) -> Page:
    """The table page at ``url``, watched, once it has drawn a state on the game's own board
    and is live."""
    page = open_page(browser, url, watch)
    wait_for_state(page)
    assert page.evaluate("document.body.dataset.board") == "yes"
    expect(page.locator("#status")).to_have_text("live")
    return page


def check_refusal(page: Page) -> None:
    """The server refused nothing the page sent."""
    error = page.locator("#error .banner")
    assert error.count() == 0, f"the server refused a click: {error.inner_text()}"


def click_and_wait(page: Page, target: Any, pick_first: bool = True) -> None:
    """Click ``target`` and wait for the server's answer; with ``pick_first``, a click that
    only picks out several choice buttons is followed by a click on the first of them."""
    step = page.evaluate("document.body.dataset.step")
    target.click()
    highlighted = page.locator("#actions .action.highlight:not([disabled])")
    if pick_first and page.evaluate("document.body.dataset.step") == step \
            and highlighted.count():
        highlighted.first.click()
    while page.evaluate(STEPPING, step):  # issue 16.3: a big choice is taken in steps
        page.locator("#actions button.action:not([disabled])").first.click()
    page.wait_for_function(NEXT_STATE, arg=step, timeout=15000)
    check_refusal(page)


def decisions(page: Page, deadline: float, clicks: dict[str, int]) -> Iterator[int]:
    """Wait for each decision of the page's until the game is over, yielding how many it has
    taken (the sum of ``clicks``, which the caller counts); the game must end within
    ``deadline`` seconds."""
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < deadline, f"no end after {clicks} clicks"
        page.wait_for_function(MINE_OR_OVER, timeout=30000)
        if page.evaluate("document.body.dataset.over") == "yes":
            return
        yield sum(clicks.values())


def check_the_end(page: Page, base: str, link: str) -> dict[str, Any]:
    """The game of the page at ``link`` is over and did not fail, and the page shows how it
    ended and no choice; the server's last view for the page."""
    final = server_view(base, link)
    assert final["table"]["over"] and final["view"]["result"] is not None
    assert final["table"]["failed"] is None, final["table"]["failed"]
    expect(page.locator("#result .outcome")).to_be_visible()
    expect(page.locator("#result .outcome")).to_contain_text("The game ended:")
    expect(page.locator("#actions button")).to_have_count(0)
    return final


def keep_screenshot(page: Page, tmp_path: Path, path: Path) -> None:
    """A screenshot of the whole page, kept at ``path`` after the test."""
    shot = tmp_path / path.name
    page.screenshot(path=shot, full_page=True)
    shutil.copyfile(shot, path)


TUTORIAL = {"scenario": "tutorial"}
"""The Black Keep's tutorial: the quickest game the server's table tests set up."""


def create_tutorial(client: TestClient, seats: list[str], **body: Any) -> dict[str, Any]:
    """A Black Keep tutorial table of ``seats`` made through ``POST /api/tables`` (more of the
    request in ``body``); its answer."""
    response = client.post("/api/tables", json={"game": "black-keep", "seats": seats,
                                                "options": TUTORIAL, **body})
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created

