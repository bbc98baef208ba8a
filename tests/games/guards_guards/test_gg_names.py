"""Issue 27: every street tile has a name a person can use (``data/places.json``, made by
``make_names.py``): its nearest landmark and the way from it, checked against the board's
geometry; old records' "Street q,r" still read back."""

from __future__ import annotations

import copy
import json
import math
import re
from importlib import resources
from typing import Any

import pytest

from citywatch.games.guards_guards import make_names
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import QUADRANTS, TILES, USES, DataError, load, tile_named

LANDMARKS = [t for t in TILES if t.kind != "street"]
STREETS = [t for t in TILES if t.kind == "street"]
BEARINGS = {"north": 0, "north-east": 45, "east": 90, "south-east": 135, "south": 180,
            "south-west": 225, "west": 270, "north-west": 315}
COUNTS = {"": 1, "two ": 2, "three ": 3}
NAME = re.compile(r"the (?:(\w+) )?street ((?:two |three )?)([a-z-]+) of (?:the )?(.+)")


def _raw(name: str) -> dict[str, Any]:
    path = resources.files("citywatch.games.guards_guards").joinpath("data", name)
    with path.open("r", encoding="utf-8") as f:
        raw: dict[str, Any] = json.load(f)
    return raw


def _hex(a: Any, b: Any) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _bearing(frm: Any, to: Any) -> float:
    dq, dr = to.q - frm.q, to.r - frm.r
    return math.degrees(math.atan2(1.5 * dq, -math.sqrt(3) * (dr + dq / 2))) % 360


def _landmark(phrase: str) -> Any:
    """The one landmark whose name holds ``phrase`` (a short form is a part of the name)."""
    found = [m for m in LANDMARKS if phrase.casefold() in m.name.casefold()]
    assert len(found) == 1, (phrase, [m.name for m in found])
    return found[0]


@pytest.mark.parametrize("street", STREETS, ids=lambda t: t.id)
def test_a_street_is_named_after_its_nearest_landmark_and_the_way_from_it(street: Any) -> None:
    """Issue 27: the landmark a street's name gives is the nearest (or tied nearest) named
    tile by hex distance; the count is that distance; the compass word is within 22.5 degrees
    of the bearing from the landmark (north is the top of the board); the quadrant is named
    exactly when the landmark stands in another one."""
    m = NAME.fullmatch(street.name)
    assert m, street.name
    quarter, count, word, phrase = m.groups()
    landmark = _landmark(phrase)
    nearest = min(_hex(street, x) for x in LANDMARKS)
    assert _hex(street, landmark) == nearest == COUNTS[count]
    off = abs(_bearing(landmark, street) - BEARINGS[word]) % 360
    assert min(off, 360 - off) <= 22.5, (street.name, _bearing(landmark, street))
    own = QUADRANTS[street.quadrant].capitalize()
    assert (quarter is None) == (landmark.quadrant == street.quadrant)
    assert quarter in (None, own)


def test_street_names_are_unique_short_and_made_by_the_script() -> None:
    """Issue 27: names are unique among all tiles (ids too), fit a button and a menu line
    (at most 49 characters; most at most 40), and places.json is what make_names.py makes."""
    every = [t.name.casefold() for t in TILES] + [t.id.casefold() for t in TILES]
    assert len(set(every)) == len(every) - sum(t.name == t.id for t in TILES)
    assert max(len(t.name) for t in STREETS) <= 49
    assert sum(len(t.name) <= 40 for t in STREETS) >= len(STREETS) // 2
    places = _raw("places.json")
    board = _raw("guards-guards.json")["board"]
    assert places["streets"] == make_names.street_names(board)
    assert make_names.render(places, places["streets"]) == (
        resources.files("citywatch.games.guards_guards").joinpath("data", "places.json")
        .read_text(encoding="utf-8"))


def test_every_kind_of_place_but_the_street_says_what_one_does_there() -> None:
    assert set(USES) == {t.kind for t in LANDMARKS}
    assert all(text.endswith(".") for text in USES.values())


def _names_broken(places: dict[str, Any], how: str) -> None:
    if how == "missing":
        places["streets"].pop()
    elif how == "twice":
        places["streets"].append(list(places["streets"][0]))
    elif how == "unknown":
        places["streets"].append(["s+99+99", "the street nowhere"])
    elif how == "landmark":
        places["streets"].append(["gate_red", "the street at Red Gate"])
    elif how == "same":
        places["streets"][1][1] = places["streets"][0][1]
    elif how == "landmark name":
        places["streets"][0][1] = "Red Gate"


@pytest.mark.parametrize(("how", "message"), [
    ("missing", "no name for"), ("twice", "named twice"), ("unknown", "unknown tile id"),
    ("landmark", "is not a street tile"), ("same", "share the name"),
    ("landmark name", "share the name"),
])
def test_load_checks_the_street_names(how: str, message: str) -> None:
    """Issue 27: every street named once, names unique among all tiles, no unknown ids."""
    places = copy.deepcopy(_raw("places.json"))
    _names_broken(places, how)
    with pytest.raises(DataError, match=message):
        load(_raw("guards-guards.json"), places)


def test_old_records_name_streets_by_coordinates_and_still_read_back() -> None:
    """Issue 27: an action JSON written before the street names ("Street 1,2") reads back as
    the same action, which now writes the new name; ids read too."""
    old = {"verb": "move_to", "tile": "Street 1,2"}
    action = Action.from_json(old)
    assert tile_named("Street 1,2").id == "s+1+2"
    assert action.to_json() == {"verb": "move_to", "tile": tile_named("s+1+2").name}
    assert Action.from_json(action.to_json()) == action
    assert Action.from_json({"verb": "move_to", "tile": "s+1+2"}) == action
    assert str(action) == f"Move to {tile_named('s+1+2').name}"
