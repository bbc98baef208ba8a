"""The Black Keep's rules reference (``citywatch rules black-keep``, ``? NAME`` in the
terminal): every thief card (spec 6.2), Guard card (6.5), treasure (6.6) and shipped scenario
(11) can be looked up by name, with the text the game plays by."""

from __future__ import annotations

import json

import pytest

from citywatch.cli import main
from citywatch.core.registry import load
from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.reference import kinds, lookup

REFERENCE = load("black-keep").reference()


def test_the_sections_are_the_cards_treasures_and_scenarios() -> None:
    """Spec 6.2, 6.5, 6.6 and 11: the cards, treasures and scenarios, every entry of the data
    in each; then the shipped scenarios' tiles and the how-to-play guide's terms (issue 26)."""
    assert kinds(REFERENCE) == ["thief_card", "guard_card", "treasure", "scenario", "tile",
                                "term"]
    assert [e["name"] for e in REFERENCE["thief_cards"]] == [c.name for c in THIEF_CARDS]
    assert [e["name"] for e in REFERENCE["guard_cards"]] == [c.name for c in GUARD_CARDS]
    assert [e["name"] for e in REFERENCE["treasures"]] == [t.name for t in TREASURES]
    assert [e["id"] for e in REFERENCE["scenarios"]] == scenario.names()


def test_every_entry_is_found_by_its_name_with_its_text() -> None:
    """Each card and treasure is found by name under its kind, carrying the data's text."""
    for kind, items in (("thief_card", THIEF_CARDS), ("guard_card", GUARD_CARDS),
                        ("treasure", TREASURES)):
        for item in items:
            found = lookup(REFERENCE, kind, item.name)
            assert [e["text"] for e in found] == [item.text], (kind, item.name)
    art = lookup(REFERENCE, "guard_card", "Art")[0]
    assert (art["price"], art["range"], art["statuses"]) == ("2 Gold Coins", "3 hexes", "bored")
    assert lookup(REFERENCE, "treasure", "Fake")[0]["real"] is False


def test_rules_command_prints_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    """``citywatch rules black-keep scenario vault --json``: the Vault's summary and dawn."""
    assert main(["rules", "black-keep", "scenario", "vault", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    text = json.dumps(found)
    assert "The Vault" in text and "round 30" in text
