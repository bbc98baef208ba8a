"""Generate ``data/places.json``'s street names: each street tile named by where it is.

A street is named after its nearest landmark (any named tile that is not a street), by hex
distance, and the compass direction from that landmark to the street, north being the top of
the board: "the street north of Red Gate", "the street two south of the Thieves' Guild". The
count says how many tiles away the street is (none for 1). When the landmark lies in another
quadrant (or is a border gate) the street's own quadrant is named too: "the Assassins street
north-east of Brass Bridge". Among tied landmarks the script prefers one in the street's own
quadrant, then one straight along a hex line or due east or west (directions a person can
name), then the shortest name. The other keys of ``places.json`` (what one does at each kind
of place) are written by hand and kept as they are. Run it again after the board changes, and
commit its output::

    python -m citywatch.games.guards_guards.make_names

The names are checked at load (``data.py``) and their geometry by
``tests/games/guards_guards/test_gg_names.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
BOARD_JSON = DATA / "guards-guards.json"
PLACES_JSON = DATA / "places.json"

COMPASS = {0: "north", 45: "north-east", 90: "east", 135: "south-east", 180: "south",
           225: "south-west", 270: "west", 315: "north-west"}
"""Compass words by their bearing in degrees clockwise from north (the top of the board)."""
COUNTS = {1: "", 2: "two ", 3: "three "}
"""How a distance of 1, 2 or 3 tiles is said before the direction."""
SHORT = {"Sunshine Sanctuary for Sick Dragons": "Sunshine Sanctuary",
         "Street of Cunning Artificers": "Cunning Artificers",
         "Lady Sybil Free Hospital": "Free Hospital"}
"""Landmarks whose name is too long for a street's name, and the short form used there (a
part of the name, so that the name still finds the landmark)."""
THE_KINDS = frozenset({"guild_house", "spell", "temple"})
"""Kinds of landmark said with "the" before them ("the Red spell tile", "the Fools' Guild")."""
THE_NAMES = frozenset({"Lady Sybil Free Hospital", "Sunshine Sanctuary for Sick Dragons"})
"""Other landmarks said with "the"; a name that starts with "The" keeps it (in lower case)."""


def hex_distance(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Tiles between two hexes, walls and river ignored."""
    dq, dr = int(a["q"]) - int(b["q"]), int(a["r"]) - int(b["r"])
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def bearing(frm: dict[str, Any], to: dict[str, Any]) -> float:
    """Degrees clockwise from north of ``to`` seen from ``frm`` (flat-top hexes, y south)."""
    dq, dr = to["q"] - frm["q"], to["r"] - frm["r"]
    x, y = 1.5 * dq, math.sqrt(3) * (dr + dq / 2)
    return math.degrees(math.atan2(x, -y)) % 360


def compass(angle: float) -> str | None:
    """The compass word within 22.5 degrees of ``angle`` (the nearest of eight); None when the
    angle is a hex line's in-between (30, 150, 210, 330 degrees), no word fits it well."""
    best = min(COMPASS, key=lambda b: min(abs(angle - b), 360 - abs(angle - b)))
    off = min(abs(angle - best), 360 - abs(angle - best))
    return COMPASS[best] if off <= 15.5 else None


def landmark_phrase(tile: dict[str, Any]) -> str:
    """A landmark as said inside a street's name: "the Mended Drum", "Red Gate"."""
    full = str(tile["name"])
    name = SHORT.get(full, full)
    if name.startswith("The "):
        return "the " + name[4:]
    if tile["kind"] in THE_KINDS or full in THE_NAMES:
        return "the " + name
    return name


def named(tiles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tiles with every generated name filled in (spell tiles' and start gates' as
    ``data.py`` makes them), streets left without a name."""
    out = []
    for t in tiles:
        t = dict(t)
        if not t.get("name") and t["kind"] == "spell":
            t["name"] = f"{t['colour'].capitalize()} spell tile"
        elif not t.get("name") and t["kind"] == "start_gate":
            t["name"] = f"{t['colour'].capitalize()} Start Gate"
        out.append(t)
    return out


def street_name(street: dict[str, Any], landmarks: list[dict[str, Any]]) -> str:
    """The name of one street tile (see the module's docstring)."""
    near = min(hex_distance(street, m) for m in landmarks)
    options = []
    for m in landmarks:
        if hex_distance(street, m) != near:
            continue
        word = compass(bearing(m, street))
        own = m.get("quadrant") == street["quadrant"]
        quarter = "" if own else f"{street['quadrant'].capitalize()} "
        name = (f"the {quarter}street {COUNTS[near]}{word or ''} of {landmark_phrase(m)}")
        options.append((not own, word is None, len(name), name))
    if not options or min(options)[1]:
        raise ValueError(f"street {street['id']}: no nearest landmark in a nameable direction")
    return min(options)[3]


def street_names(board: dict[str, Any]) -> list[list[str]]:
    """[tile id, name] for every street, in the board's order."""
    tiles = named(board["tiles"])
    landmarks = [t for t in tiles if t["kind"] != "street"]
    return [[t["id"], street_name(t, landmarks)] for t in tiles if t["kind"] == "street"]


def render(places: dict[str, Any], streets: list[list[str]]) -> str:
    """``places.json``'s text: its hand-written keys, then one street a line."""
    head = {k: v for k, v in places.items() if k != "streets"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    lines = ",\n".join("  " + json.dumps(pair, ensure_ascii=False) for pair in streets)
    return f'{text},\n "streets": [\n{lines}\n ]\n}}\n'


def main() -> None:
    """Rewrite ``places.json``'s street names from the board."""
    board = json.loads(BOARD_JSON.read_text(encoding="utf-8"))["board"]
    places = json.loads(PLACES_JSON.read_text(encoding="utf-8")) if PLACES_JSON.is_file() else {}
    PLACES_JSON.write_text(render(places, street_names(board)), encoding="utf-8")


if __name__ == "__main__":
    main()
