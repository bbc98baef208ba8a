"""Issue 26: "How to play" in the browser: ``/how-to-play/<game>`` shows the game's guide
(set-up, a turn, how to win, the terms), linked from the start page and the table page; the
page reads at 1366x800 with no text under 11 px."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import toy_game
from playwright.sync_api import Browser, Page
from test_browser import Watch, launched_browser, serving

from citywatch.core.guide import terms
from citywatch.core.registry import game_names, load, register, unregister
from citywatch.server import create_app
from citywatch.server.guide_page import anchor, guide_page

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = [name for name in game_names() if name != toy_game.NAME]
SIZES = [(1280, 720), (1366, 800), (1920, 1080)]
SMALL_TEXT = """() => {
  const small = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && size < 11) small.push(`${el.tagName} ${size}px: ${el.textContent.slice(0, 40)}`);
  }
  return small;
}"""
"""Every element showing text of its own in a font under 11 px."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'guide.db'}", bot_delay=0)) as c:
        yield c


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real server for the module's browser tests."""
    db = tmp_path_factory.mktemp("guide") / "guide.db"
    with serving(create_app(f"sqlite:///{db}", bot_delay=0)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched_browser()


def _open(browser: Browser, url: str, size: tuple[int, int], watch: Watch) -> Page:
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    watch.page(page, url)
    response = page.goto(url)
    assert response is not None and response.ok, url
    return page


# --- without a browser ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_each_games_page_holds_its_whole_guide(client: TestClient, name: str) -> None:
    """``/how-to-play/<game>``: the guide's title, every section with its id and heading, and
    every term at its anchor; public (no token), under the security headers."""
    guide = load(name).how_to_play()
    assert guide is not None
    response = client.get(f"/how-to-play/{name}")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page = response.text
    assert f"<h1>{guide['title']}</h1>" in page.replace("&#x27;", "'")
    for section in guide["sections"]:
        assert f'<section id="{section["id"]}">' in page
    for term in terms(guide):
        assert f'id="{anchor(term["name"])}"' in page
    for other in GAMES:
        assert f'href="/how-to-play/{other}"' in page or other == name


def test_a_game_without_a_guide_and_an_unknown_game_are_404(client: TestClient) -> None:
    """A registered game with no guide, and a name that is no game, get a 404 page that
    links to the guides there are; ``/how-to-play`` lists them."""
    register(toy_game.NAME, toy_game.__name__)
    try:
        for name in (toy_game.NAME, "chess", "<b>"):
            response = client.get(f"/how-to-play/{name}")
            assert response.status_code == 404, name
            assert 'href="/how-to-play/ankh-morpork"' in response.text
            assert "<b>" not in response.text
        assert client.get("/how-to-play/..%2fgame.py").status_code == 404
        index = client.get("/how-to-play")
        assert index.status_code == 200
        assert all(f'href="/how-to-play/{name}"' in index.text for name in GAMES)
        assert f'href="/how-to-play/{toy_game.NAME}"' not in index.text
    finally:
        unregister(toy_game.NAME)


def test_the_page_escapes_every_text() -> None:
    """The guide's texts are data: markup in them is shown, never run."""
    guide: dict[str, Any] = {
        "title": "How to play <b>x</b>", "intro": "<script>alert(1)</script>",
        "sections": [{"id": "setup", "title": "Set-up", "body": ["a & b", ["<i>c</i>"]]},
                     {"id": "turn", "title": "A turn", "body": ["d"]},
                     {"id": "winning", "title": "How to win", "body": ["e"]},
                     {"id": "terms", "title": "Terms",
                      "terms": [{"name": "<img>", "meaning": "\"q\"", "also": ["<u>"]}]}]}
    page = guide_page("ankh-morpork", guide, "A <title>")
    for raw in ("<b>x</b>", "<script>", "<i>c</i>", "<img>", "<u>", "A <title>"):
        assert raw not in page
    assert "&lt;script&gt;" in page and "a &amp; b" in page


# --- in a real browser ---------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_guide_reads_at_each_size(base: str, browser: Browser,
                                        size: tuple[int, int]) -> None:
    """At 1280x720, 1366x800 and 1920x1080 each game's page shows its title, the set-up, turn,
    winning and terms headings and its terms, no text under 11 px, nothing wider than the
    window, and breaks no Content Security Policy."""
    watch = Watch()
    for name in GAMES:
        guide = load(name).how_to_play()
        assert guide is not None
        page = _open(browser, f"{base}/how-to-play/{name}", size, watch)
        assert page.locator("h1").inner_text() == guide["title"]
        headings = page.locator("section h2").all_inner_texts()
        assert headings == [s["title"] for s in guide["sections"]]
        assert page.locator("dl.terms dt").count() == len(terms(guide))
        assert page.evaluate(SMALL_TEXT) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        first = page.locator("#setup").bounding_box()
        assert first is not None and first["width"] > 500, "the text column is comfortable"
        page.close()
    watch.check()


def test_the_start_page_links_to_the_chosen_games_guide(base: str, browser: Browser) -> None:
    """The start page's "How to play this game" follows the chosen game and opens its page."""
    watch = Watch()
    page = _open(browser, f"{base}/", (1366, 800), watch)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    link = page.locator("#how-to-play")
    for name in GAMES:
        page.select_option("#game", name)
        assert link.is_visible()
        assert link.get_attribute("href") == f"/how-to-play/{name}"
    response = httpx.get(f"{base}{link.get_attribute('href')}", timeout=60)
    assert response.status_code == 200 and "How to play" in response.text
    watch.check()


def test_the_table_page_links_to_its_games_guide(base: str, browser: Browser) -> None:
    """The table page's header has a "How to play" link to its own game's guide, in view at
    1366x800 and in a font of at least 11 px."""
    created = httpx.post(f"{base}/api/tables",
                         json={"game": "black-keep", "seats": ["human"], "seed": 5},
                         timeout=60).json()
    watch = Watch()
    page = _open(browser, base + created["seats"][0]["link"], (1366, 800), watch)
    link = page.locator("header #how-to-play")
    page.wait_for_function(
        "() => document.getElementById('how-to-play').getAttribute('href') !== '/how-to-play'")
    assert link.get_attribute("href") == "/how-to-play/black-keep"
    assert link.is_visible() and link.inner_text() == "How to play"
    box = link.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    assert float(link.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")) >= 11
    watch.check()
