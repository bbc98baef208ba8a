"""Scenarios as data (spec section 11): the shipped scenario files, reading a scenario by name
or from a JSON file, every validation rule of spec 11.2, and the checked ``Board``.

``problems(doc)`` lists what breaks the rules, each message starting ``rule N:`` (the number
of spec 11.2) and naming the tile and hexes involved; it never raises, whatever ``doc`` is.
``load`` builds the ``Board`` of a valid scenario and refuses any other with a
``ScenarioError``; a shipped scenario's ``Board`` is built once and shared by every state.
"""

from __future__ import annotations

import copy
import json
import os
import re
import reprlib
from collections import Counter, deque
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, Final, TypeGuard

from citywatch.core.documents import DocumentLimits
from citywatch.core.setup_choice import SetupChoice
from citywatch.core.text import text_problem
from citywatch.games.black_keep.actions import ROWS
from citywatch.games.black_keep.board import TILE_SIZE, Board
from citywatch.games.black_keep.hexes import Hex, distance, from_offset, label, neighbour, parse
from citywatch.games.black_keep.params import MAXIMUM

FORMAT: Final = "black-keep-scenario/1"
"""The value of a scenario file's ``format`` key."""
SHIPPED: Final[tuple[str, ...]] = ("tutorial", "the-vault", "the-black-keep")
"""The shipped scenarios' ids, from the first to play to the last."""
KEYS: Final[tuple[str, ...]] = (
    "format", "id", "name", "summary", "players", "dawn", "advanced", "tiles", "walls", "special",
    "torches", "vault",
)
"""The keys every scenario has (``grid`` is a reminder for people and is not read)."""
SPECIAL_KINDS: Final[tuple[str, ...]] = ("door", "window", "grate")
"""The kinds of Special Hex (spec 2.7: one rule, three pictures)."""
ROLES: Final[tuple[str, ...]] = ("basic", "hard", "vault", "roving")
"""A listed guard's role (spec 11.1)."""
TYPES: Final[tuple[str, ...]] = ("stationary", "patrolling", "wandering", "roving")
"""A listed guard's type (spec 4.3)."""
MARKERS_FOR: Final = {"stationary": ("crescent",), "patrolling": ("star", "shield", "green_line"),
                      "wandering": ("red_arrows", "red_shields"), "roving": ()}
"""The tile markers each guard type walks by (the Roving guard starts on the crown)."""
MARKERS: Final[tuple[str, ...]] = (
    "crescent", "star", "shield", "green_line", "red_arrows", "red_shields")
"""Every marker a tile may print."""

# -- limits (issue 24; docs/black-keep-rulings.md, "Limits"), checked before any rule -------
MAX_CHARS: Final = 32 * 1024
"""Characters of a scenario as compact JSON (the largest shipped one holds about 5,000)."""
MAX_DEPTH: Final = 6
"""Lists and objects inside each other (the format needs 5: the scenario, its tiles, a tile,
its markers, a route)."""
MAX_TILES: Final = 16
"""Tiles of a scenario: the 4 by 4 tile places the PettingZoo observation holds
(``encoding.MAX_TILES``; the largest shipped scenario has 5)."""
TILE_HEXES: Final = TILE_SIZE * TILE_SIZE
"""Hexes of a tile: the most entries of a tile's lists (solid hexes, outside edge hexes, a
route), which name hexes of the tile, each once."""
MAX_WALLS: Final = 3 * TILE_HEXES * MAX_TILES
"""Walls of a scenario: every side between two hexes of the largest map."""
MAX_MAP_HEXES: Final = TILE_HEXES * MAX_TILES
"""Special Hexes, and torches, of a scenario: every hex of the largest map."""
MAX_TILE_GUARDS: Final = 4
"""Guards a tile lists (one per role: basic, hard, vault, roving; the crypt lists two basic)."""
MAX_GUARDS: Final = 2 * MAX_TILES
"""Guards of a scenario (the PettingZoo observation's ``encoding.MAX_GUARDS``)."""
MAX_DAWN: Final = MAXIMUM["dawn"]
"""The latest dawn a scenario may set (the ``dawn`` parameter's maximum; shipped: 20-40)."""
MAX_ID: Final = 40
"""Characters of a scenario's or a tile's id (shown to every seat)."""
MAX_NAME: Final = 60
"""Characters of a scenario's or a tile's name (shown to every seat)."""
MAX_SUMMARY: Final = 500
"""Characters of a scenario's summary (the longest shipped one holds 216); also the longest
string anywhere in a scenario."""
LIMITS: Final = DocumentLimits("a scenario", MAX_CHARS, MAX_DEPTH, MAX_SUMMARY)
"""The size limits every scenario document is held to first."""
_WORDS: Final = {"special": "Special Hexes", "solid": "solid hexes",
                 "outside_edge": "outside edge hexes", "green_line": "hexes of the green line",
                 "red_arrows": "hexes of the red arrows"}
"""A listed thing in the words of a limit's message."""

_SHOW: Final = reprlib.Repr()
_SHOW.maxstring = _SHOW.maxother = 40
_SHOW.maxlist = _SHOW.maxdict = 4
_SHOW.maxlevel = 3


def _show(value: object) -> str:
    """A short readable form of any value, for messages (``null``, ``true`` as in JSON)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return _SHOW.repr(value)


def _a(value: object) -> str:
    """The JSON kind of a value with its article ("a list", "an object", "null"), for
    messages."""
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int | float, "a number"), (str, "a string"),
                       (list, "a list"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return f"a Python {type(value).__name__}"


def _name(value: object) -> str:
    """A label as written, or a short form of anything else, for messages."""
    return value if isinstance(value, str) and len(value) <= 12 else _show(value)


def _listing(hexes: Iterable[Hex]) -> str:
    """Labels joined by commas."""
    return ", ".join(label(h) for h in hexes)


class ScenarioError(ValueError):
    """A scenario breaks rules of spec 11.2; ``problems`` lists them."""

    def __init__(self, where: str, problems: list[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n  ".join(problems)
        super().__init__(f"{where} is not a valid scenario ({len(problems)} "
                         f"problem{'s' if len(problems) != 1 else ''}):\n  {lines}")


class _Check:
    """One pass of spec 11.2 over a scenario document; fills ``problems`` and ``notes``."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.tiles: list[dict[str, Any]] = []
        self.ids: list[str] = []
        self.tile_hexes: list[frozenset[Hex]] = []
        self.tile_of: dict[Hex, int] = {}
        self.solid: set[Hex] = set()
        self.walls: set[frozenset[Hex]] = set()
        self.special: set[Hex] = set()
        self.crescents: list[Hex] = []
        self.vault_tile: int | None = None

    def fail(self, rule: int, text: str) -> None:
        """Record a problem under its rule's number."""
        self.problems.append(f"rule {rule}: {text}")

    def run(self) -> _Check:
        """The limits first, then every rule in order; a broken limit, shape (rule 1) or map
        (rule 2) stops the rest."""
        if not self.limits() or not self.rule_1() or not self.rule_2():
            return self
        self.rule_3()
        self.rule_4()
        self.rule_5()
        crown = self.rule_6()
        entries, exits = self.rule_7()
        if crown is not None and entries and exits:
            self.rule_8(crown, entries, exits)
        return self

    # -- hexes -----------------------------------------------------------------------------

    def hex(self, rule: int, text: object, where: str) -> Hex | None:
        """The hex of a label written as the spec writes them, else a problem and None."""
        try:
            h = parse(text)
        except ValueError:
            h = None
        if h is None or label(h) != text:
            self.fail(rule, f"{where}: {_show(text)} is not a hex label (labels look like D3 "
                            f"or AA12)")
            return None
        return h

    def floor(self, rule: int, text: object, where: str, tile: int | None = None) -> Hex | None:
        """The floor hex of a label (on ``tile`` if given), else a problem and None."""
        h = self.hex(rule, text, where)
        if h is None:
            return None
        if h not in self.tile_of:
            self.fail(rule, f"{where}: {label(h)} is not on the map")
            return None
        if h in self.solid:
            self.fail(rule, f"{where}: {label(h)} is a solid hex")
            return None
        if tile is not None and self.tile_of[h] != tile:
            self.fail(rule, f"{where}: {label(h)} is on tile {self.ids[self.tile_of[h]]}, "
                            f"not on tile {self.ids[tile]}")
            return None
        return h

    def is_open(self, a: Hex, b: Hex) -> bool:
        """Whether floor hexes ``a`` and ``b`` are neighbours with no wall between them."""
        return distance(a, b) == 1 and frozenset((a, b)) not in self.walls

    def component(self, start: Hex, through_special: bool, blocked: set[Hex]) -> set[Hex]:
        """The floor hexes reachable from ``start`` across open sides, never entering
        ``blocked`` (and Special Hexes only if ``through_special``)."""
        seen = {start}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for f in range(6):
                there = neighbour(here, f)
                if (there in seen or there in blocked or there not in self.tile_of
                        or there in self.solid or frozenset((here, there)) in self.walls
                        or (there in self.special and not through_special)):
                    continue
                seen.add(there)
                todo.append(there)
        return seen

    # -- the limits (issue 24) --------------------------------------------------------------

    def limits(self) -> bool:
        """The size limits (``LIMITS``) and the counts of tiles, guards and list entries, each
        broken one a problem starting ``limit:``. False if one is broken: then no rule is
        checked, so no document costs more than the largest one within the limits."""
        found = LIMITS.problems(self.doc)
        doc = self.doc
        if not found and isinstance(doc, dict):
            tiles = doc.get("tiles")
            tiles = tiles if isinstance(tiles, list) else []
            counts = [(len(tiles), MAX_TILES, "tiles", "a scenario")]
            for key, most in (("walls", MAX_WALLS), ("special", MAX_MAP_HEXES),
                              ("torches", MAX_MAP_HEXES)):
                if isinstance(doc.get(key), list):
                    counts.append((len(doc[key]), most, key, "a scenario"))
            guards = 0
            for n, tile in enumerate(tiles):
                if not isinstance(tile, dict):
                    continue
                where = f"tile {n + 1}"
                lists = [(tile.get(k), k) for k in ("solid", "outside_edge")]
                marks = tile.get("markers")
                if isinstance(marks, dict):
                    lists += [(marks.get(k), k) for k in ("green_line", "red_arrows",
                                                         "red_shields")]
                counts += [(len(v), TILE_HEXES, k, where) for v, k in lists
                           if isinstance(v, list)]
                if isinstance(tile.get("guards"), list):
                    counts.append((len(tile["guards"]), MAX_TILE_GUARDS, "guards", where))
                    guards += len(tile["guards"])
            counts.append((guards, MAX_GUARDS, "guards", "a scenario"))
            found += [f"limit: {where} lists at most {most} {_WORDS.get(what, what)}, not {n}"
                      for n, most, what, where in counts if n > most]
        self.problems += found
        return not found

    def text(self, value: Any, who: str, longest: int, shortest: int = 1) -> None:
        """The rule of shown text (``core.text``) for a string others will read: a problem
        ``text: ...`` naming the field if it breaks it."""
        problem = text_problem(value, who, longest, shortest)
        if problem is not None:
            self.problems.append(f"text: {problem} (the rule of a player's name)")

    # -- the rules -------------------------------------------------------------------------

    def rule_1(self) -> bool:
        """Keys, players, dawn; the shapes later rules read. False if the shape is broken."""
        doc = self.doc
        if not isinstance(doc, dict):
            self.fail(1, f"a scenario is a JSON object, not {_a(doc)}")
            return False
        missing = [k for k in KEYS if k not in doc]
        for key in missing:
            self.fail(1, f"the key {key!r} is missing")
        if doc.get("format", FORMAT) != FORMAT:
            self.fail(1, f"format is {_show(doc['format'])}, expected {FORMAT!r}")
        for key, longest in (("id", MAX_ID), ("name", MAX_NAME)):
            if key in doc and not (isinstance(doc[key], str) and doc[key].strip()):
                self.fail(1, f"{key} must be a non-empty string, not {_show(doc[key])}")
            elif key in doc:
                self.text(doc[key], f"the scenario's {key}", longest)
        if "summary" in doc and not isinstance(doc["summary"], str):
            self.fail(1, f"summary must be a string, not {_show(doc['summary'])}")
        elif "summary" in doc:
            self.text(doc["summary"], "the scenario's summary", MAX_SUMMARY, 0)
        players = doc.get("players", {"min": 1, "max": 1})
        low, high = (players.get(k) if isinstance(players, dict) else None
                     for k in ("min", "max"))
        if not (_whole(low) and _whole(high) and 1 <= low <= high <= 4):
            self.fail(1, f"players must be {{'min': a, 'max': b}} with 1 <= a <= b <= 4, not "
                         f"{_show(players)}")
        dawn = doc.get("dawn", 1)
        if not (_whole(dawn) and 0 < dawn <= MAX_DAWN):
            self.fail(1, f"dawn must be a whole number of rounds from 1 to {MAX_DAWN}, not "
                         f"{_show(dawn)}")
        if not isinstance(doc.get("advanced", False), bool):
            self.fail(1, f"advanced must be true or false, not {_show(doc['advanced'])}")
        shape_ok = not missing
        for key in ("tiles", "walls", "special", "torches"):
            if key in doc and not isinstance(doc[key], list):
                self.fail(1, f"{key} must be a list, not {_a(doc[key])}")
                shape_ok = False
        if isinstance(doc.get("tiles"), list) and not doc["tiles"]:
            self.fail(1, "tiles must list at least one tile")
            shape_ok = False
        vault = doc.get("vault")
        if "vault" in doc:
            if not isinstance(vault, dict):
                self.fail(1, f"vault must be an object, not {_a(vault)}")
                shape_ok = False
            else:
                for key, kind, what in (("tile", str, "string"), ("crown", str, "string"),
                                        ("vault_guard", bool, "boolean")):
                    if not isinstance(vault.get(key), kind):
                        self.fail(1, f"vault.{key} must be a {what}, not {_show(vault.get(key))}")
                        shape_ok = False
        tiles = doc.get("tiles")
        for n, tile in enumerate(tiles if isinstance(tiles, list) else []):
            shape_ok = self.tile_shape(n, tile) and shape_ok
        return shape_ok

    def tile_shape(self, n: int, tile: Any) -> bool:
        """Rule 1 for one tile: an object with the keys and the kinds of value later rules
        read. Records it and returns True when it has them."""
        if not isinstance(tile, dict):
            self.fail(1, f"tile {n + 1} must be an object, not {_a(tile)}")
            return False
        tid = tile.get("id")
        where = f"tile {tid}" if isinstance(tid, str) and tid else f"tile {n + 1}"
        ok = True
        for key in ("id", "name", "cols", "rows"):
            if not (isinstance(tile.get(key), str) and tile[key].strip()):
                self.fail(1, f"{where}: {key} must be a non-empty string, not "
                             f"{_show(tile.get(key))}")
                ok = False
        for key, longest in (("id", MAX_ID), ("name", MAX_NAME)):
            if isinstance(tile.get(key), str) and tile[key].strip():
                self.text(tile[key], f"tile {n + 1}'s {key}", longest)
        for key, kind, what in (("solid", list, "list"), ("outside_edge", list, "list"),
                                ("entry", bool, "boolean"), ("exit", bool, "boolean"),
                                ("markers", dict, "object"), ("guards", list, "list")):
            if key in tile and not isinstance(tile[key], kind):
                self.fail(1, f"{where}: {key} must be a {what}, not {_show(tile[key])}")
                ok = False
        if ok and tid in self.ids:
            self.fail(1, f"tile id {tid!r} is used twice")
            ok = False
        if ok:
            self.tiles.append(tile)
            self.ids.append(str(tid))
        return ok

    def rule_2(self) -> bool:
        """Every tile a 7x7 block of the block grid; no overlaps; joined edge to edge."""
        blocks: dict[tuple[int, int], int] = {}
        before = len(self.problems)
        for n, tile in enumerate(self.tiles):
            where = f"tile {self.ids[n]}"
            cols = re.fullmatch(r"([A-Z]+)-([A-Z]+)", tile["cols"])
            rows = re.fullmatch(r"([1-9][0-9]{0,5})-([1-9][0-9]{0,5})", tile["rows"])
            if cols is None or rows is None:
                self.fail(2, f"{where}: cols {_show(tile['cols'])} and rows "
                             f"{_show(tile['rows'])} must look like 'A-G' and '1-7'")
                self.tile_hexes.append(frozenset())
                continue
            q0, q1 = (parse(c + "1")[0] for c in cols.groups())
            r0, r1 = (int(r) for r in rows.groups())
            if q1 - q0 + 1 != TILE_SIZE or r1 - r0 + 1 != TILE_SIZE:
                self.fail(2, f"{where}: cols {tile['cols']} and rows {tile['rows']} are "
                             f"{q1 - q0 + 1} by {r1 - r0 + 1}; a tile is {TILE_SIZE} columns by "
                             f"{TILE_SIZE} rows")
            elif r1 > ROWS:
                self.fail(2, f"{where}: rows {tile['rows']} go beyond row {ROWS}, the last row "
                             f"the program numbers")
            elif q0 % TILE_SIZE or (r0 - 1) % TILE_SIZE:
                self.fail(2, f"{where}: cols {tile['cols']} and rows {tile['rows']} are off the "
                             f"{TILE_SIZE}x{TILE_SIZE} block grid (columns start at A, H, O, ...; "
                             f"rows at 1, 8, 15, ...)")
            else:
                block = (q0 // TILE_SIZE, (r0 - 1) // TILE_SIZE)
                if block in blocks:
                    self.fail(2, f"{where} overlaps tile {self.ids[blocks[block]]} (both cover "
                                 f"{tile['cols']} {tile['rows']})")
                else:
                    blocks[block] = n
                self.tile_hexes.append(frozenset(
                    from_offset(q, row) for q in range(q0, q1 + 1) for row in range(r0, r1 + 1)))
                continue
            self.tile_hexes.append(frozenset())
        if blocks and len(self.problems) == before:
            first = next(iter(blocks))
            joined, todo = {first}, [first]
            while todo:
                x, y = todo.pop()
                for b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if b in blocks and b not in joined:
                        joined.add(b)
                        todo.append(b)
            for b, n in blocks.items():
                if b not in joined:
                    self.fail(2, f"tile {self.ids[n]} does not join the other tiles edge to edge")
        if len(self.problems) > before:
            return False
        for n, hexes in enumerate(self.tile_hexes):
            for h in hexes:
                self.tile_of[h] = n
        return True

    def rule_3(self) -> None:
        """Solid hexes, walls, Special Hexes and torches."""
        for n, tile in enumerate(self.tiles):
            where = f"tile {self.ids[n]} solid"
            for text in tile.get("solid", []):
                h = self.hex(3, text, where)
                if h is None:
                    continue
                if self.tile_of.get(h) != n:
                    self.fail(3, f"{where}: {label(h)} is not on this tile")
                elif h in self.solid:
                    self.fail(3, f"{where}: {label(h)} is listed twice")
                else:
                    self.solid.add(h)
        for pair in self.doc["walls"]:
            if not (isinstance(pair, list) and len(pair) == 2):
                self.fail(3, f"wall {_show(pair)} is not a pair of hex labels")
                continue
            where = f"wall {_name(pair[0])}|{_name(pair[1])}"
            a, b = (self.floor(3, text, where) for text in pair)
            if a is None or b is None:
                continue
            if distance(a, b) != 1:
                self.fail(3, f"{where}: {label(a)} and {label(b)} are not neighbours")
            elif frozenset((a, b)) in self.walls:
                self.fail(3, f"wall {label(a)}|{label(b)} is listed twice")
            else:
                self.walls.add(frozenset((a, b)))
        for item in self.doc["special"]:
            if not (isinstance(item, dict) and "hex" in item and "kind" in item):
                self.fail(3, f"special {_show(item)} is not an object with a hex and a kind")
                continue
            h = self.floor(3, item["hex"], "special hex")
            if h is None:
                continue
            if item["kind"] not in SPECIAL_KINDS:
                self.fail(3, f"special hex {label(h)}: kind {_show(item['kind'])} is not one "
                             f"of {', '.join(SPECIAL_KINDS)}")
            if h in self.special:
                self.fail(3, f"special hex {label(h)} is listed twice")
            self.special.add(h)
        torches: set[Hex] = set()
        for text in self.doc["torches"]:
            h = self.floor(3, text, "torch")
            if h is None:
                continue
            if h in self.special:
                self.fail(3, f"torch: {label(h)} is a Special Hex")
            if h in torches:
                self.fail(3, f"torch: {label(h)} is listed twice")
            torches.add(h)

    def rule_4(self) -> None:
        """Markers on their tile's floor; the green line and the red loop in open steps."""
        for n, tile in enumerate(self.tiles):
            marks = tile.get("markers", {})
            where = f"tile {self.ids[n]}"
            for key in marks:
                if key not in MARKERS:
                    self.fail(4, f"{where}: unknown marker {_show(key)} (markers are "
                                 f"{', '.join(MARKERS)})")
            if "crescent" in marks:
                crescent = self.floor(4, marks["crescent"], f"{where}: crescent", n)
                if crescent is not None and any(g.get("type") == "stationary"
                                                for g in tile.get("guards", [])
                                                if isinstance(g, dict)):
                    self.crescents.append(crescent)
            if any(k in marks for k in MARKERS_FOR["patrolling"]):
                self.green_line(n, marks, where)
            if any(k in marks for k in MARKERS_FOR["wandering"]):
                self.red_arrows(n, marks, where)

    def route(self, n: int, marks: dict[str, Any], key: str, where: str) -> list[Hex] | None:
        """The hexes of a route marker, or None (with problems) if one is not a floor hex."""
        items = marks.get(key)
        if not isinstance(items, list):
            self.fail(4, f"{where}: {key} must be a list of hex labels, not {_show(items)}")
            return None
        hexes = [self.floor(4, text, f"{where}: {key}", n) for text in items]
        return None if None in hexes else [h for h in hexes if h is not None]

    def steps(self, route: list[Hex], where: str, what: str, closed: bool) -> None:
        """Each step of a route goes to a neighbour across an open side; no hex twice."""
        repeated = sorted(h for h, k in Counter(route).items() if k > 1)
        if repeated:
            self.fail(4, f"{where}: the {what} visits {_listing(repeated)} more than once")
        ends = route[1:] + route[:1] if closed else route[1:]
        pairs = list(zip(route[:len(ends)], ends, strict=True))
        for k, (a, b) in enumerate(pairs):
            closing = " (closing the loop)" if closed and k == len(pairs) - 1 else ""
            verb = "step" if what.endswith("s") else "steps"
            if a == b:
                continue  # reported as a repeat
            if distance(a, b) != 1:
                self.fail(4, f"{where}: the {what} {verb} from {label(a)} to {label(b)}"
                             f"{closing}, which are not neighbours")
            elif not self.is_open(a, b):
                self.fail(4, f"{where}: the {what} {verb} from {label(a)} to {label(b)}"
                             f"{closing} across a wall")

    def green_line(self, n: int, marks: dict[str, Any], where: str) -> None:
        """Star, shield and the green line from one to the other (Patrolling)."""
        missing = [k for k in MARKERS_FOR["patrolling"] if k not in marks]
        if missing:
            self.fail(4, f"{where}: a star, a shield and a green line go together "
                         f"(missing: {', '.join(missing)})")
            return
        star = self.floor(4, marks["star"], f"{where}: star", n)
        shield = self.floor(4, marks["shield"], f"{where}: shield", n)
        line = self.route(n, marks, "green_line", where)
        if line is None or star is None or shield is None:
            return
        if len(line) < 2:
            self.fail(4, f"{where}: the green line needs two or more hexes")
            return
        if line[0] != star:
            self.fail(4, f"{where}: the green line starts at {label(line[0])}, not at the "
                         f"star {label(star)}")
        if line[-1] != shield:
            self.fail(4, f"{where}: the green line ends at {label(line[-1])}, not at the "
                         f"shield {label(shield)}")
        self.steps(line, where, "green line", closed=False)

    def red_arrows(self, n: int, marks: dict[str, Any], where: str) -> None:
        """The red arrows' closed loop and the red shields on it (Wandering)."""
        missing = [k for k in MARKERS_FOR["wandering"] if k not in marks]
        if missing:
            self.fail(4, f"{where}: red arrows and red shields go together "
                         f"(missing: {', '.join(missing)})")
            return
        loop = self.route(n, marks, "red_arrows", where)
        shields = self.route(n, marks, "red_shields", where)
        if loop is not None:
            if len(loop) < 3:
                self.fail(4, f"{where}: the red arrows need a closed loop of three or more hexes")
            else:
                self.steps(loop, where, "red arrows", closed=True)
        if shields is not None:
            if not 1 <= len(shields) <= 6 or len(set(shields)) != len(shields):
                self.fail(4, f"{where}: the red shields must be 1 to 6 different hexes, not "
                             f"{_listing(shields) or 'none'}")
            elif loop is not None:
                for h in shields:
                    if h not in loop:
                        self.fail(4, f"{where}: red shield {label(h)} is not on the red arrows")

    def rule_5(self) -> None:
        """Guards: known role and type, their markers, the hard guard's other type, the vault
        and roving guards on the Vault tile, undead only basic."""
        vault = self.doc["vault"]["tile"]
        self.vault_tile = self.ids.index(vault) if vault in self.ids else None
        count = {"vault": 0, "roving": 0}
        for n, tile in enumerate(self.tiles):
            where = f"tile {self.ids[n]}"
            marks = tile.get("markers", {})
            types: dict[str, list[str]] = {role: [] for role in ROLES}
            for g in tile.get("guards", []):
                if not (isinstance(g, dict) and g.get("role") in ROLES and g.get("type") in TYPES):
                    self.fail(5, f"{where}: guard {_show(g)} needs a role ({', '.join(ROLES)}) "
                                 f"and a type ({', '.join(TYPES)})")
                    continue
                role, kind = g["role"], g["type"]
                types[role].append(kind)
                if role in count:
                    count[role] += 1
                if (role == "roving") != (kind == "roving"):
                    self.fail(5, f"{where}: a {role} guard of type {kind}: the roving role and "
                                 f"the roving type go together")
                need = [k for k in MARKERS_FOR[kind] if k not in marks]
                if need:
                    self.fail(5, f"{where}: its {kind} guard needs the marker"
                                 f"{'s' if len(need) > 1 else ''} {', '.join(need)}")
                if role == "vault" and kind != "wandering":
                    self.fail(5, f"{where}: the vault guard is {kind}; the vault guard is always "
                                 f"a Wandering guard")
                if role in ("vault", "roving") and n != self.vault_tile \
                        and self.vault_tile is not None:
                    self.fail(5, f"{where}: the {role} guard belongs on the Vault tile "
                                 f"{self.ids[self.vault_tile]}")
                undead = g.get("undead", False)
                if not isinstance(undead, bool):
                    self.fail(5, f"{where}: undead must be true or false, not {_show(undead)}")
                elif undead and role != "basic":
                    self.fail(5, f"{where}: a {role} guard cannot be undead (only basic guards "
                                 f"may be)")
            if len(types["hard"]) > 1:
                self.fail(5, f"{where}: lists {len(types['hard'])} hard guards; at most one")
            for kind in types["hard"]:
                if kind in types["basic"] + types["vault"]:
                    self.fail(5, f"{where}: the hard guard is {kind}, like the tile's basic or "
                                 f"vault guard; it must be of another type")
        for role, k in count.items():
            if k > 1:
                self.fail(5, f"the scenario lists {k} {role} guards; at most one")

    def rule_6(self) -> Hex | None:
        """The crown: a floor hex of the Vault tile, not Special; ``vault_guard`` matches."""
        vault = self.doc["vault"]
        if self.vault_tile is None:
            self.fail(6, f"the vault tile {_show(vault['tile'])} is not a tile of this scenario "
                         f"(tiles: {', '.join(self.ids)})")
            return None
        tile = self.tiles[self.vault_tile]
        has_guard = any(isinstance(g, dict) and g.get("role") == "vault"
                        for g in tile.get("guards", []))
        if vault["vault_guard"] != has_guard:
            self.fail(6, f"vault_guard is {str(vault['vault_guard']).lower()} but tile "
                         f"{self.ids[self.vault_tile]} {'lists a' if has_guard else 'lists no'} "
                         f"vault guard")
        crown = self.floor(6, vault["crown"], "the crown", self.vault_tile)
        if crown is not None and crown in self.special:
            self.fail(6, f"the crown {label(crown)} is a Special Hex")
            return None
        return crown

    def rule_7(self) -> tuple[list[Hex], dict[int, list[Hex]]]:
        """Outside edge hexes on the map edge, not Special; entry and exit tiles. Returns the
        entry hexes and each exit tile's outside edge hexes."""
        entries: list[Hex] = []
        exits: dict[int, list[Hex]] = {}
        for n, tile in enumerate(self.tiles):
            where = f"tile {self.ids[n]}"
            edge: list[Hex] = []
            for text in tile.get("outside_edge", []):
                h = self.floor(7, text, f"{where}: outside edge", n)
                if h is None:
                    continue
                if h in edge:  # at most TILE_HEXES entries (the limits)
                    self.fail(7, f"{where}: outside edge hex {label(h)} is listed twice")
                    continue
                if all(neighbour(h, f) in self.tile_of for f in range(6)):
                    self.fail(7, f"{where}: outside edge hex {label(h)} is not on the edge of "
                                 f"the map")
                if h in self.special:
                    self.fail(7, f"{where}: outside edge hex {label(h)} is a Special Hex")
                edge.append(h)
            entry, exit_ = tile.get("entry", False), tile.get("exit", False)
            if (entry or exit_) and n == self.vault_tile and len(self.tiles) > 1:
                self.fail(7, f"{where} is the Vault tile, so neither an entry nor an exit tile")
            if (entry or exit_) and not edge:
                self.fail(7, f"{where} is an {'entry' if entry else 'exit'} tile but has no "
                             f"outside edge hexes")
            if entry:
                entries += edge
            if exit_ and edge:
                exits[n] = edge
        if not entries:
            self.fail(7, "no tile is an entry tile with outside edge hexes")
        if not exits:
            self.fail(7, "no tile is an exit tile with outside edge hexes")
        return entries, exits

    def rule_8(self, crown: Hex, entries: list[Hex], exits: dict[int, list[Hex]]) -> None:
        """With Stationary guards' crescents blocked and Special Hexes passable, the crown is
        reachable from every entry hex and reaches every exit tile; notes entries that need
        a Special Hex."""
        blocked = set(self.crescents)
        if crown in blocked:
            self.fail(8, f"the crown {label(crown)} is a Stationary guard's crescent")
            return
        way = self.component(crown, True, blocked)
        cut_off = [h for h in entries if h not in way]
        if cut_off:
            self.fail(8, f"the crown {label(crown)} cannot be reached from entry hex"
                         f"{'es' if len(cut_off) > 1 else ''} {_listing(cut_off)} (Special Hexes "
                         f"passable, Stationary guards' crescents blocked)")
        for n, edge in exits.items():
            if not any(h in way for h in edge):
                self.fail(8, f"no outside edge hex of exit tile {self.ids[n]} ({_listing(edge)}) "
                             f"can be reached from the crown {label(crown)}")
        open_way = self.component(crown, False, blocked)
        locked = [h for h in entries if h in way and h not in open_way]
        if locked:
            whom = "every entry hex" if len(locked) == len(entries) else _listing(locked)
            self.notes.append(f"rule 8 note: the crown {label(crown)} is reached only through a "
                              f"Special Hex (Lockpicks or a key) from {whom}")


def _whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- public API ----------------------------------------------------------------------------------

def problems(doc: Any) -> list[str]:
    """Every way ``doc`` breaks spec 11.2, as messages ``rule N: ...`` naming the tile and
    hexes involved; ``[]`` for a valid scenario. Never raises: a document of the wrong shape
    gets rule 1 problems (and the rules that need the shape are not checked)."""
    return _Check(doc).run().problems


def notes(doc: Any) -> list[str]:
    """What is allowed but worth knowing (spec 11.2 rule 8): the entry hexes from which the
    crown is reached only through a Special Hex. ``[]`` when the routes were not checked."""
    return _Check(doc).run().notes


def names() -> list[str]:
    """The shipped scenarios' ids, from the first to play to the last."""
    return list(SHIPPED)


_DOCS: Final[dict[str, dict[str, Any]]] = {}
_BOARDS: Final[dict[str, Board]] = {}
CUSTOM_BOARDS: Final = 16
"""How many scenarios of one's own keep their checked Board (the most recently used)."""
_CUSTOM: Final[dict[str, Board]] = {}


def _shipped(name: str) -> dict[str, Any]:
    """The shipped scenario's document, read once (do not change it)."""
    doc = _DOCS.get(name)
    if doc is None:
        data = resources.files(__name__.rpartition(".")[0]).joinpath("scenarios").joinpath(
            f"{name}.json").read_bytes()
        doc = _DOCS[name] = _decode(data, f"shipped scenario {name}")
    return doc


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; ``ValueError`` for a key given twice."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"the key {key!r} appears twice in one object")
        obj[key] = value
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _decode(data: bytes, where: str) -> dict[str, Any]:
    """A scenario document from a file's bytes; ``ValueError`` saying what is wrong."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{where} is not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        doc = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}") from None
    except RecursionError:
        raise ValueError(f"{where} is not a scenario: its JSON is nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{where} holds {_a(doc)}, not a scenario object")
    return doc


def _path(name_or_path: object) -> Path:
    """The file a name stands for; ``ValueError`` for a name that is neither shipped nor a
    path."""
    if isinstance(name_or_path, Path):
        return name_or_path
    if not isinstance(name_or_path, str):
        raise ValueError(f"a scenario is named by a shipped id or a file path, not "
                         f"{_show(name_or_path)}")
    text = name_or_path
    looks_like_path = (os.sep in text or (os.altsep or os.sep) in text
                       or text.lower().endswith(".json"))
    if not looks_like_path:
        try:
            looks_like_path = Path(text).is_file()
        except (OSError, ValueError):
            looks_like_path = False
    if not looks_like_path:
        raise ValueError(f"unknown scenario {_show(text)}: the shipped scenarios are "
                         f"{', '.join(SHIPPED)} (or give the path of a .json file)")
    return Path(text)


def read(name_or_path: str | Path) -> dict[str, Any]:
    """The JSON document of a shipped scenario (by id) or of a scenario file, unchecked (see
    ``problems``); a new copy each call. ``ValueError`` for an unknown name, a missing or
    unreadable file, text that is not UTF-8, or JSON that is broken or not an object."""
    if isinstance(name_or_path, str) and name_or_path in SHIPPED:
        return copy.deepcopy(_shipped(name_or_path))
    path = _path(name_or_path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ValueError(f"there is no scenario file {path}") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder, not a scenario file") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read scenario file {path}: {exc}") from None
    return _decode(data, f"scenario file {path}")


def from_doc(doc: Any, where: str | None = None) -> Board:
    """The ``Board`` of a scenario document, checked first (``ScenarioError`` listing its
    problems); a document equal to a shipped scenario gets that scenario's shared Board, and
    one equal to a recent scenario of one's own (the last ``CUSTOM_BOARDS``) that one's, so its
    sight caches serve every game played on it."""
    if isinstance(doc, dict) and not LIMITS.problems(doc):
        try:
            cached = _CUSTOM.get(json.dumps(doc, sort_keys=True))
        except (TypeError, ValueError):
            cached = None
        if cached is not None:
            return cached
    found = problems(doc)
    if found:
        name = doc.get("id") if isinstance(doc, dict) else None
        raise ScenarioError(where or (f"scenario {name}" if isinstance(name, str)
                                      else "the scenario"), found)
    name = doc["id"]
    if name in SHIPPED and doc == _shipped(name):
        return load(name)
    key = json.dumps(doc, sort_keys=True)
    board = _CUSTOM.pop(key, None) or Board.from_scenario(doc)
    _CUSTOM[key] = board
    while len(_CUSTOM) > CUSTOM_BOARDS:
        del _CUSTOM[next(iter(_CUSTOM))]
    return board


def load(name_or_path: str | Path) -> Board:
    """The checked ``Board`` of a shipped scenario (by id) or of a scenario file; a shipped
    scenario's Board is built once and shared. ``ScenarioError`` (a ``ValueError``) listing
    the problems of an invalid scenario; ``ValueError`` as ``read`` for an unreadable one."""
    if isinstance(name_or_path, str) and name_or_path in SHIPPED:
        board = _BOARDS.get(name_or_path)
        if board is None:
            doc = _shipped(name_or_path)
            found = problems(doc)
            if found:
                raise ScenarioError(f"shipped scenario {name_or_path}", found)
            board = _BOARDS[name_or_path] = Board.from_scenario(doc)
        return board
    return from_doc(read(name_or_path), f"scenario file {_path(name_or_path)}")


class ScenarioChoice(SetupChoice):
    """The table's scenario as the interfaces see it (``GameType.setup``): the shipped
    scenarios by id, or a scenario of one's own checked against every rule of spec 11.2."""

    name = "scenario"
    plural = "scenarios"
    keyword = "scenario"
    help = "the keep to break into: a shipped scenario or a scenario of one's own"

    def shipped(self) -> list[dict[str, Any]]:
        """The shipped scenarios' documents, from the first to play to the last (copies)."""
        return [read(name) for name in SHIPPED]

    def ids(self) -> list[str]:
        """The shipped scenarios' ids (without reading them)."""
        return names()

    def problems(self, data: Any) -> list[str]:
        """Every rule of spec 11.2 the document breaks (``problems``)."""
        return problems(data)

    def notes(self, data: Any) -> list[str]:
        """Spec 11.2 rule 8's note: the entry hexes from which the crown is reached only
        through a Special Hex (``notes``)."""
        return notes(data)

    def load(self, value: Any) -> dict[str, Any]:
        """A shipped scenario's document (by id) or a good scenario's own document;
        ``ValueError`` listing every rule broken, in one line."""
        if isinstance(value, str) and value in SHIPPED:
            return read(value)
        found = problems(value)
        if found:
            raise ValueError(f"the scenario breaks {len(found)} rule(s): " + "; ".join(found))
        assert isinstance(value, dict)
        return value


SCENARIOS: Final = ScenarioChoice()
"""The table's scenario, the game's set-up choice (``BlackKeep.type.setup``)."""
