"""Issue 31 in the browser: notifications. Two people play in two browser contexts (the
``notifications`` permission granted, ``window.Notification`` replaced by a recording stub,
a hidden tab emulated by ``document.visibilityState``): the waiting seat's hidden page shows
"Your turn — <title>" exactly when its turn comes, once; the header asks for the permission
once, on a click; a turn-based table's page saves and removes a webhook, and shows a
refusal. Screenshot: /tmp/citywatch-notify.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_browser import Watch, serving, take_first_action, wait_for_state
from web_helpers import TUTORIAL, keep_screenshot, shared_browser  # noqa: F401  (browser)

from citywatch.core.registry import load
from citywatch.server import create_app
from citywatch.server.webhooks import WebhookRules, Webhooks

NOTIFY_SHOT = Path("/tmp/citywatch-notify.png")
PUBLIC = "93.184.215.14"
STUB = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
  { configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
Object.defineProperty(Document.prototype, "hidden",
  { configurable: true, get() { return window.__hidden; } });
window.__shown = [];
window.__focused = 0;
window.focus = () => { window.__focused += 1; };
class RecordingNotification {
  constructor(title, options) {
    this.title = title;
    this.options = options || {};
    this.onclick = null;
    window.__shown.push(this);
  }
  close() {}
  static requestPermission() {
    RecordingNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
RecordingNotification.permission = "default";
window.Notification = RecordingNotification;
"""
"""The init script of every page: a hidden tab when ``window.__hidden``, and a Notification
that records what it is asked to show (permission "default" until asked)."""


@pytest.fixture(name="app")
def notify_app(tmp_path: Path) -> Any:
    """A server app (no bot delay) whose webhook names resolve by a stub: "hooks.test" to a
    public address; no post is ever sent (no turn begins while one is set)."""
    stub = {"hooks.test": [PUBLIC]}
    return create_app(f"sqlite:///{tmp_path / 'notify.db'}", bot_delay=0, webhooks=Webhooks(
        WebhookRules(), lambda host, _port: stub.get(host, [host])))


@pytest.fixture(name="server")
def notify_server(app: Any) -> Iterator[str]:
    with serving(app) as base:
        yield base


def seat_page(browser: Browser, url: str, watch: Watch, name: str) -> tuple[BrowserContext, Page]:
    """``url`` in a context of its own with the notifications permission and the stub."""
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    context.grant_permissions(["notifications"], origin=url.split("/play/")[0])
    context.add_init_script(STUB)
    page = watch.page(context.new_page(), name)
    page.goto(url)
    wait_for_state(page)
    expect(page.locator("#status")).to_have_text("live")
    return context, page


def shown(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        "() => window.__shown.map((n) => ({title: n.title, tag: n.options.tag}))")
    return found


def hide(page: Page) -> None:
    page.evaluate("() => { window.__hidden = true; "
                  "document.dispatchEvent(new Event('visibilitychange')); }")


def test_the_waiting_seat_is_notified_when_its_turn_comes(
        server: str, app: Any, browser: Browser, tmp_path: Path) -> None:
    """Issue 31: the header offers "Notify me when it is my turn" to a seat (not to the
    spectator) until clicked, and remembers the answer; then the hidden page of the waiting
    seat shows "Your turn — <title>" (tagged per table) exactly when its turn comes, once,
    not again for a state that leaves it its turn, and clicking it focuses the tab; the
    visible page of the other seat shows none. At a turn-based table the page saves a
    webhook, shows the server's refusal of a loopback one, and removes it."""
    created = httpx.post(f"{server}/api/tables", json={
        "game": "black-keep", "seats": ["human", "human"], "options": TUTORIAL,
        "clock": {"kind": "turn-based", "move": 86400, "stand_in": "easy"}},
        timeout=60).json()
    table = app.state.tables._live[created["table"]]
    watch = Watch()
    first_context, first = seat_page(browser, server + created["seats"][0]["link"], watch,
                                     "first")
    second_context, second = seat_page(browser, server + created["seats"][1]["link"], watch,
                                       "second")
    watching_context, watching = seat_page(browser, server + created["spectator"], watch,
                                           "spectator")
    expect(watching.locator("#notify-ask")).to_be_hidden()
    expect(watching.locator("#webhook-panel")).to_be_hidden()
    for page in (first, second):
        ask = page.locator("#notify-ask")
        expect(ask).to_have_text("Notify me when it is my turn")
        ask.click()
        expect(ask).to_be_hidden()
        assert page.evaluate("() => localStorage.getItem('citywatch.notify')") == "granted"
    hide(second)
    assert shown(second) == []
    assert take_first_action(first)  # the second seat's turn begins
    second.wait_for_function("() => window.__shown.length > 0")
    title = load("black-keep").display_name()
    tag = f"citywatch-turn-{created['replay'].split('/')[-1]}"
    assert shown(second) == [{"title": f"Your turn — {title}", "tag": tag}]
    step = second.evaluate("document.body.dataset.step")
    httpx.post(f"{server}/api/name/{created['seats'][0]['link'].split('/')[-1]}",
               json={"name": "Ann"}, timeout=10).raise_for_status()
    expect(second.locator("#seat-names")).to_contain_text("Ann")  # a state: still its turn
    assert second.evaluate("document.body.dataset.step") == step and len(shown(second)) == 1
    second.evaluate("() => window.__shown[0].onclick()")
    assert second.evaluate("window.__focused") == 1
    assert take_first_action(second)  # the first seat's turn: its page is visible
    expect(first.locator("body")).to_have_attribute("data-mine", "yes")
    assert shown(first) == [] and len(shown(second)) == 1
    panel = first.locator("#webhook-panel")
    expect(panel).to_be_visible()
    first.locator("#webhook-input").fill("http://127.0.0.1:9/hook")
    first.locator("#webhook-save").click()
    expect(first.locator("#webhook-note")).to_contain_text("public address")
    first.locator("#webhook-input").fill("https://hooks.test/my-turn")
    first.locator("#webhook-save").click()
    expect(first.locator("#webhook-note")).to_have_text(
        "Saved: the server tells this address when your turn begins.")
    assert table.webhooks == {0: "https://hooks.test/my-turn"}
    keep_screenshot(first, tmp_path, NOTIFY_SHOT)
    first.locator("#webhook-save").click()  # the box is empty: removed
    expect(first.locator("#webhook-note")).to_have_text(
        "Removed: no webhook is told any more.")
    assert table.webhooks == {}
    assert "hooks.test" not in second.content()
    assert watch.csp == []
    assert watch.errors == [  # the refused loopback address, and nothing else
        "first: Failed to load resource: the server responded with a status of 400 "
        "(Bad Request)"]
    for context in (first_context, second_context, watching_context):
        context.close()
