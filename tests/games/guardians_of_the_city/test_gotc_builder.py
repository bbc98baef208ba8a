"""The deck builder's declaration and check (issue 29): ``DeckChoice.builder`` gives the
card pool a deck is built from (every Action and Crisis card of the set, from the game's
data, with the fields to filter by and the curve's), a choice that declares none has no
builder, and ``POST /api/check/<game>/<keyword>`` runs the checks of ``citywatch deck check``
(rulebook section 4, ruling 20, the limits) on a posted deck: each broken rule named, bad
input a clear 4xx, nothing stored."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from citywatch.core.setup_choice import SetupChoice
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CONSTANTS, CRISIS_CARDS
from citywatch.games.guardians_of_the_city.decks import DECKS, MAX_CHARS, STARTER_DECKS
from citywatch.server import create_app
from citywatch.server.setup import MAX_DOCUMENT

GAME = "guardians-of-the-city"
CHECK = f"/api/check/{GAME}/decks"


def built(picks: dict[str, dict[str, int]]) -> dict[str, Any]:
    """A deck written as the builder page writes one: the skeleton, then each list's chosen
    entries as ``{"id", "name", "count"}``."""
    spec = DECKS.builder()
    doc: dict[str, Any] = dict(spec["skeleton"])
    for side in spec["lists"]:
        doc[side["key"]] = [{"id": e["id"], "name": e["name"], "count": picks[side["key"]][e["id"]]}
                            for e in side["entries"] if picks[side["key"]].get(e["id"])]
    return doc


def starter_picks(index: int = 0) -> dict[str, dict[str, int]]:
    """A starter deck's counts by card id, per side."""
    deck = STARTER_DECKS[index]
    return {"action": {ACTION_CARDS[i].id: n for i, n in enumerate(deck.action) if n},
            "crisis": {CRISIS_CARDS[i].id: n for i, n in enumerate(deck.crisis) if n}}


def test_the_builder_offers_every_card_of_the_set_with_its_fields() -> None:
    """Rulebook section 4 (a deck of 50 Action and 40 Crisis cards, from ruling 20's one
    set): the pool lists every card design once, in the data's order, with its pillar,
    effort (Action cards), kind, type and how many a set holds; filters and curve name
    fields each entry has."""
    spec = DECKS.builder()
    action, crisis = spec["lists"]
    assert (action["key"], action["size"], crisis["key"], crisis["size"]) == (
        "action", CONSTANTS.action_deck_size, "crisis", CONSTANTS.crisis_deck_size)
    assert [e["id"] for e in action["entries"]] == [c.id for c in ACTION_CARDS]
    assert [e["id"] for e in crisis["entries"]] == [c.id for c in CRISIS_CARDS]
    raids = next(e for e in action["entries"] if e["name"] == "Raids")
    assert raids["fields"] == {"Pillar": "Military", "Effort": 3, "Kind": "Action", "Type": "-",
                               "In a set": 3}
    unity = next(e for e in action["entries"] if e["name"] == "Galvanised People (Unity)")
    assert unity["fields"]["Kind"] == "Galvanised People" and unity["fields"]["Type"] == "Unity"
    assert action["curve"] == ["Pillar", "Effort"] and crisis["curve"] == ["Pillar"]
    for side in spec["lists"]:
        for entry in side["entries"]:
            assert set(side["fields"]) == set(entry["fields"]), entry
            assert set(side["filters"]) | set(side["curve"]) <= set(entry["fields"])
    assert spec["largest"] == CONSTANTS.max_copies + 1  # enough to break rule 2 and see it
    spec["lists"].clear()
    assert DECKS.builder()["lists"], "each call gives a fresh copy"
    json.dumps(DECKS.builder())
    assert DECKS.to_json()["builder"] is True


def test_a_deck_written_from_the_builder_is_read_by_the_deck_rules() -> None:
    """A starter deck's counts written in the builder's form keep every deck rule
    (``SetupChoice.problems`` empty; ``load`` takes it, ``"game"`` field and all)."""
    doc = built(starter_picks(2))
    assert doc["game"] == GAME
    assert DECKS.problems(doc) == []
    assert DECKS.load(doc)["action"] == STARTER_DECKS[2].to_json()["action"]


def test_a_choice_declares_no_builder_by_default() -> None:
    """``SetupChoice.builder`` is None unless a choice declares one; ``to_json`` says so."""

    class Plain(SetupChoice):
        name, plural, keyword = "map", "maps", "board"

        def shipped(self) -> list[dict[str, Any]]:
            return [{"id": "keep", "name": "The Keep"}]

        def problems(self, data: Any) -> list[str]:
            return []

        def load(self, value: Any) -> dict[str, Any]:
            return {"id": "keep", "name": "The Keep"}

    assert Plain().builder() is None
    assert Plain().to_json()["builder"] is False


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file of the module's server."""
    return Path(tmp_path_factory.mktemp("builder")) / "x.db"


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    """A server on a fresh SQLite file (one set-up worker, as every server has)."""
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0)) as test_client:
        yield test_client


def table_count(db: Path) -> int:
    """How many tables the server has stored."""
    with sqlite3.connect(db) as connection:
        count: int = connection.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    return count


def test_the_check_names_each_rule_a_posted_deck_breaks(client: TestClient) -> None:
    """``POST /api/check``: the same problems as ``citywatch deck check`` (``problems``):
    rulebook section 4's Action rules 1 (50 cards), 2 (3 copies) and 3 (one Galvanised
    People card of a type), the Crisis rule 3 (one Subversive of a type) and ruling 20 (no
    more than a set holds); a legal deck has none."""
    good = client.post(CHECK, json=built(starter_picks()))
    assert good.status_code == 200 and good.json() == {"problems": [], "notes": []}
    picks = starter_picks()
    picks["action"]["A01"] = 4  # Border Patrol: 4 copies (rule 2), and 51 cards (rule 1)
    unity = next(c for c in ACTION_CARDS if c.type == "Unity")
    picks["action"][unity.id] = 2  # rule 3
    subversive = next(c for c in CRISIS_CARDS if c.type)
    picks["crisis"][subversive.id] = 2  # Crisis rule 3, and 41 cards
    two = next(c for c in ACTION_CARDS if c.copies_in_box == 2 and c.id not in picks["action"])
    picks["action"][two.id] = 3  # ruling 20
    doc = built(picks)
    answer = client.post(CHECK, json=doc)
    assert answer.status_code == 200
    problems = answer.json()["problems"]
    assert problems == DECKS.problems(doc)
    rules = [p.split(":")[0] for p in problems]
    for rule in ("rulebook section 4, Action deck rule 1", "rulebook section 4, Action deck rule 2",
                 "rulebook section 4, Action deck rule 3", "rulebook section 4, Crisis deck rule 1",
                 "rulebook section 4, Crisis deck rule 3", "ruling 20 (each player builds from "
                 "their own set, rulebook section 2)"):
        assert rule in rules, (rule, problems)


@pytest.mark.parametrize(("path", "body", "headers", "status", "says"), [
    (CHECK, b'{"name": "x", "action": [', {"content-type": "application/json"}, 400,
     "must be JSON"),
    (CHECK, b'{"name": "x"}', {"content-type": "text/plain"}, 415, "as JSON"),
    (CHECK, json.dumps({"name": "x", "action": [{"name": "Nope", "count": 1}], "crisis": []}),
     {"content-type": "application/json"}, 400, "there is no Action card 'Nope'"),
    (CHECK, json.dumps({"game": "ankh-morpork", "name": "x", "action": [], "crisis": []}),
     {"content-type": "application/json"}, 400, "this deck is for"),
    (CHECK, b"[" * 5000 + b"]" * 5000, {"content-type": "application/json"}, 400,
     "nested too deeply"),
    (CHECK, b" " * (MAX_DOCUMENT + 1), {"content-type": "application/json"}, 413,
     f"at most {MAX_DOCUMENT} bytes"),
    (f"/api/check/{GAME}/nope", b"{}", {"content-type": "application/json"}, 404, "no builder"),
    ("/api/check/ankh-morpork/decks", b"{}", {"content-type": "application/json"}, 404,
     "no builder"),
    ("/api/check/no-such-game/decks", b"{}", {"content-type": "application/json"}, 404,
     "no builder"),
])
def test_bad_input_is_a_clear_4xx_and_stores_nothing(
        client: TestClient, db: Path, path: str, body: str | bytes, headers: dict[str, str],
        status: int, says: str) -> None:
    """Issue 24's rule for what a person sends, kept by the check: a body over
    ``MAX_DOCUMENT`` bytes is refused before it is read (413), a body not sent as JSON is
    415, what is not JSON or not a deck is 400 naming why, a game or choice without a
    builder is 404; the server stores no table."""
    answer = client.post(path, content=body, headers=headers)
    assert answer.status_code == status, answer.text
    assert says in answer.json()["error"]
    assert table_count(db) == 0


def test_a_deck_over_the_limits_is_told_its_limit(client: TestClient) -> None:
    """Issue 24's limits (``decks.MAX_CHARS``) are a deck's first rule: a deck's plan over
    its length is named as a limit, not refused as bad input."""
    doc = built(starter_picks())
    doc["plan"] = "x" * (MAX_CHARS + 1)
    answer = client.post(CHECK, json=doc)
    assert answer.status_code == 200
    assert answer.json()["problems"][0].startswith("limit:")


def test_the_builder_page_and_its_data_are_served_for_a_choice_with_a_builder(
        client: TestClient) -> None:
    """``/build/<game>/<keyword>`` is the builder page (404 for a choice without one);
    ``/api/builder`` gives the choice, the shipped decks whole and ``builder()``."""
    page = client.get(f"/build/{GAME}/decks")
    assert page.status_code == 200 and "/static/build.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/build/ankh-morpork/decks").status_code == 404
    assert client.get(f"/build/{GAME}/nope").status_code == 404
    data = client.get(f"/api/builder/{GAME}/decks").json()
    assert data["builder"] == DECKS.builder()
    assert data["shipped"] == DECKS.shipped() and data["choice"]["keyword"] == "decks"
    assert client.get(f"/api/builder/{GAME}/nope").status_code == 404


def test_one_address_has_at_most_check_rate_documents_checked_a_minute(tmp_path: Path) -> None:
    """Bounds on what a person sends: ``/api/check`` shares the set-up worker with new tables,
    so one address gets at most ``CHECK_RATE`` checks a minute (bad ones count too); beyond,
    429 with a Retry-After, before the body is read."""
    from citywatch.server.app import CHECK_RATE

    url = "/api/check/guardians-of-the-city/decks"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}", bot_delay=0)) as fresh:
        for _ in range(CHECK_RATE.amount):
            answer = fresh.post(url, content=b"x", headers={"Content-Type": "text/plain"})
            assert answer.status_code == 415
        refused = fresh.post(url, content=b"{}", headers={"Content-Type": "application/json"})
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
        assert "too many checks" in refused.json()["error"]
