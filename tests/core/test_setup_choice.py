"""Set-up choices (``core/setup_choice.py``, issue 25): decks and scenarios as one idea. A
choice takes a shipped document by id or name, or a document of one's own that breaks no
rule; it is made per table or per seat; a game's options, checks and titles handle every
choice it declares the same way."""

from __future__ import annotations

from typing import Any

import pytest

from citywatch.core.api import COMPETITIVE, Game, GameType, Role, ViewKeys
from citywatch.core.setup_choice import SetupChoice


class Maps(SetupChoice):
    """A toy per-table choice: a map needs a name and 1 to 9 rooms."""

    name, plural, keyword = "map", "maps", "board"
    help = "the map"

    def shipped(self) -> list[dict[str, Any]]:
        return [{"id": "keep", "name": "The Keep", "rooms": 4, "summary": "A small keep."},
                {"id": "vault", "name": "The Vault", "rooms": 9}]

    def problems(self, data: Any) -> list[str]:
        if not isinstance(data, dict):
            raise ValueError("a map is a JSON object")
        out = [] if isinstance(data.get("name"), str) else ["rule 1: a name"]
        rooms = data.get("rooms")
        if not (isinstance(rooms, int) and 1 <= rooms <= 9):
            out.append("rule 2: 1 to 9 rooms")
        return out

    def load(self, value: Any) -> dict[str, Any]:
        found = self.shipped_id(value)
        if found is not None:
            return next(d for d in self.shipped() if d["id"] == found)
        broken = self.problems(value)
        if broken:
            raise ValueError(f"the map breaks {len(broken)} rule(s): " + "; ".join(broken))
        return dict(value)


class Kits(Maps):
    """The same documents chosen once per seat."""

    name, plural, keyword, per_seat = "kit", "kits", "kits", True


class Toy(Game):
    """A game with no play, only its set-up choices."""

    name, min_players, max_players = "toy", 2, 3
    type = GameType(seats=(2, 3), play=COMPETITIVE, chance=False, hidden_information=False,
                    role=Role("seat", "seats"), view=ViewKeys("name"), setup=(Maps(), Kits()))

    def new_game(self, players: int, seed: Any, **options: Any) -> Any:
        raise NotImplementedError

    def from_position(self, position: dict[str, Any]) -> Any:
        raise NotImplementedError

    def action_from_json(self, data: Any) -> Any:
        raise NotImplementedError


OWN = {"name": "Cellar", "rooms": 3}


def test_a_per_table_choice_takes_a_shipped_id_or_name_or_a_good_document() -> None:
    """A per-table choice keeps a shipped document by its id (its name becomes the id) and
    one's own as its JSON form; a document that breaks rules is refused naming each rule,
    and an unknown id names the shipped ones."""
    maps = Maps()
    assert maps.check("vault") == "vault" and maps.check("The Vault") == "vault"
    assert maps.check(OWN) == OWN
    with pytest.raises(ValueError) as caught:
        maps.check({"rooms": 12})
    assert "breaks 2 rule(s)" in str(caught.value) and "rule 2: 1 to 9 rooms" in str(caught.value)
    with pytest.raises(ValueError,
                       match="there is no map 'cellar'; the shipped maps are keep, vault"):
        maps.check("cellar")
    with pytest.raises(ValueError, match="a JSON object"):
        maps.check(7)
    assert maps.default(3) == "keep"
    assert maps.show(OWN) == "Cellar" and maps.show("keep") == "The Keep"


def test_a_per_seat_choice_takes_one_document_per_seat_naming_the_bad_seat() -> None:
    """A per-seat choice takes a non-empty list, one value per seat; its default gives the
    shipped documents in turn, round again; an error names the seat from 1."""
    kits = Kits()
    assert kits.default(3) == ["keep", "vault", "keep"]
    assert kits.check(["The Keep", OWN]) == ["keep", OWN]
    with pytest.raises(ValueError, match="seat 2's kit: the map breaks 1 rule"):
        kits.check(["keep", {"name": "x", "rooms": 0}])
    for bad in ([], "keep", None):
        with pytest.raises(ValueError, match="must list one kit per seat"):
            kits.check(bad)
    assert kits.show(["keep", OWN]) == "The Keep / Cellar"


def test_a_game_checks_shows_and_declares_every_choice_alike() -> None:
    """``Game.checked_options`` checks set-up choices beside options; ``option_values`` fills
    a per-table choice's default (a per-seat one depends on the seats and is left out);
    a table's title shows each choice by name; ``GameType.to_json`` lists every choice with
    its shipped documents for pages."""
    toy = Toy()
    assert toy.checked_options({"board": "The Vault", "kits": ["vault", OWN]}) == {
        "board": "vault", "kits": ["vault", OWN]}
    assert toy.option_values({}) == {"board": "keep"}
    assert toy.changed_options({"board": "keep"}) == {}
    assert toy.shown_options({"board": OWN}, 2) == {"board": "Cellar",
                                                    "kits": "The Keep / The Vault"}
    with pytest.raises(ValueError, match=r"unknown options for toy: size \(its options are "
                                         r"board, kits\)"):
        toy.option_values({"size": 3})
    with pytest.raises(ValueError, match="option board: the map breaks"):
        toy.option_values({"board": {"name": "Pit"}})
    declared = toy.type.to_json()["setup"]
    assert [(c["name"], c["keyword"], c["per_seat"]) for c in declared] == [
        ("map", "board", False), ("kit", "kits", True)]
    assert declared[0]["shipped"][0] == {"id": "keep", "name": "The Keep",
                                         "summary": "A small keep."}
    assert toy.type.choice("kits") is toy.type.setup[1] and toy.type.choice("x") is None
