"""Drawing a Black Keep view in the terminal with rich (the game's ``TerminalScreens``).

The board is the scenario's map as a character hex grid: one column of characters per hex
column (odd-q: the odd columns half a hex lower), each hex two lines tall between its sloping
sides. A hex's top line is its label, its bottom line what stands on it (thieves, a guard's
facing arrow and status letter, a Thief Marker, a torch, the crown, a door, window or grate); a
wall is drawn as ``/``, ``\\`` or a bottom line ``___``, an open side as a gap, and a gap in the
frame around the map is a way out. Nothing is drawn over a wall: on a hex whose south side is a
wall what stands on it takes the top line (issue 28). Lit hexes and the hexes a guard sees are
tinted. When the map is wider than the terminal the cells shrink to two characters without
labels. Under the map: a legend, every guard, the markers, torches and the market. The
players' screen is one column per thief; the hand is the seat's own thief cards, plan and
Guard cards.

Everything comes from one seat's ``view``: the static map (floor and solid hexes, walls,
Special Hexes, tiles, the crown) from its ``map`` section, what changes from the rest, so a
scenario of one's own is drawn with its own map whatever its id, and a thief whose dial the
seat may not know (``hex`` is None) appears nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citywatch.core.guide import is_term, term_text
from citywatch.core.presentation import ScreenFunctions, field_text
from citywatch.games.black_keep.data import GUARD_CARDS, THIEF_CARDS, TREASURES
from citywatch.games.black_keep.hexes import (
    FACINGS,
    Hex,
    column_letters,
    from_offset,
    neighbour,
    row_number,
)

View = dict[str, Any]
Char = tuple[str, str]
"""One character of the map and its style."""

# --- colours and glyphs ------------------------------------------------------------------
SEAT_STYLE = ("bold bright_cyan", "bold bright_magenta", "bold bright_yellow",
              "bold bright_green")
"""Each thief's style in text, Thief 1 first."""
PIECE_STYLE = ("bold black on bright_cyan", "bold black on bright_magenta",
               "bold black on bright_yellow", "bold black on bright_green")
"""Each thief's piece on the map: its number."""
ARROW = dict(zip(FACINGS, "↑↗↘↓↙↖", strict=True))
"""A facing as an arrow."""
STATUS_LETTER = {"bored": "B", "interested": "I", "alert": "A", "pursuing": "P",
                 "returning": "R", "distracted": "D"}
"""A guard status's letter on the map."""
STATUS_STYLE = {"bored": "bold green", "interested": "bold bright_cyan", "alert": "bold yellow",
                "pursuing": "bold bright_red", "returning": "bold magenta",
                "distracted": "bold blue"}
"""A guard status's colour."""
SPECIAL_GLYPH = {"door": "+", "grate": "#", "window": "="}
"""A Special Hex's glyph by kind (spec 2.7: they differ only in their picture)."""
SPECIAL_STYLE = "bold cyan"
MARKER = ("!", "bold bright_red")
TORCH = ("*", "bold bright_yellow")
TORCH_OUT = ("x", "bold grey50")
CROWN = ("$", "bold yellow")
CROWN_EMPTY = ("$", "grey50")
WALL = "bold bright_white"
SOLID = ("░", "grey39")
FIXTURES = frozenset({TORCH, TORCH_OUT, CROWN, CROWN_EMPTY,
                      *((glyph, SPECIAL_STYLE) for glyph in SPECIAL_GLYPH.values())})
"""What stands on a hex for good (torches, the crown, Special Hexes): beside the label on a
hex with a wall to the south; a piece there takes the label's place."""
LABEL_STYLE = "grey58"
EDGE_LABEL_STYLE = "bold green"
"""The label of an outside edge hex (a way in and out)."""
LIT_BG = "color(58)"
SEEN_BG = "color(52)"
SEEN_LIT_BG = "color(88)"
WIDE = 3
"""Characters inside a hex on a line, when the map fits (labels shown)."""
COMPACT = 2
"""Characters inside a hex on a line, when it does not (no labels)."""
MARGIN = 3
"""Characters left of the map, for the row numbers."""
PHASE_WORDS = {"setup": "setting up", "resource": "Resource Phase", "plan": "planning",
               "thief": "Thief Phase", "guard": "Guard Phase", "over": "the game is over"}
TREASURE_BY_NAME = {t.name: t for t in TREASURES}
GUARD_CARD_BY_NAME = {c.name: c for c in GUARD_CARDS}
THIEF_CARD_BY_NAME = {c.name: c for c in THIEF_CARDS}


def seat_number(name: str) -> int | None:
    """The seat index of a thief named ``Thief k`` (None for any other name)."""
    number = name.removeprefix("Thief ").strip()
    if number.isdigit() and 1 <= int(number) <= len(SEAT_STYLE):
        return int(number) - 1
    return None


def colour(name: str) -> Text:
    """A thief's name in its style."""
    seat = seat_number(name)
    return Text(name, style="bold" if seat is None else SEAT_STYLE[seat])


def status_word(status: str) -> Text:
    """A guard's status, capitalised, in its colour."""
    return Text(status.capitalize(), style=STATUS_STYLE.get(status, "bold"))


def indented(text: str | Text, by: int = 2, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(text if isinstance(text, Text) else Text(text, style=style), (0, 0, 0, by))


def map_of(view: View) -> dict[str, Any] | None:
    """The view's map (``view["map"]``, see ``view.map_json``); None if it has none."""
    found = view.get("map")
    return found if isinstance(found, dict) and found.get("hexes") else None


def tile_name(known: dict[str, Any] | None, tile_id: str | None) -> str:
    """A tile's name from its id, by the view's map ``known`` ("-" for none)."""
    if tile_id is None:
        return "-"
    for tile in (known or {}).get("tiles", ()):
        if tile.get("id") == tile_id:
            return str(tile.get("name", tile_id))
    return tile_id


# --- the map -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Geometry:
    """The static map of a view (its ``map``) laid out as characters: the floor and solid
    hexes, the columns and rows they span, and what every side between two hexes is."""

    source: dict[str, Any]
    """The view's map this was made from."""
    floor: dict[Hex, str]
    """Each floor hex's label."""
    solid: frozenset[Hex]
    walls: frozenset[frozenset[Hex]]
    """The walls between two floor hexes."""
    q_min: int
    q_max: int
    row_min: int
    row_max: int
    ways_out: frozenset[tuple[Hex, int]]
    """(floor hex, facing) of every side an outside edge hex leads off the map by: toward a
    hex that is neither floor nor solid (spec 2.9)."""

    @classmethod
    def of(cls, known: dict[str, Any]) -> Geometry:
        """The layout of a view's map: every floor and solid hex inside it."""
        at = {str(name): (int(q), int(r)) for name, (q, r) in known["hexes"].items()}
        floor = {h: name for name, h in at.items()}
        solid = frozenset((int(q), int(r)) for q, r in known.get("solid", {}).values())
        walls = frozenset(frozenset((at[a], at[b])) for a, b in known.get("walls", ()))
        ways = frozenset((at[name], f) for tile in known.get("tiles", ())
                         for name in tile.get("outside_edge", ()) for f in range(6)
                         if neighbour(at[name], f) not in floor
                         and neighbour(at[name], f) not in solid)
        hexes = [*floor, *solid]
        return cls(known, floor, solid, walls, min(h[0] for h in hexes),
                   max(h[0] for h in hexes), min(row_number(h) for h in hexes),
                   max(row_number(h) for h in hexes), ways)

    @property
    def columns(self) -> int:
        """Hex columns across the map."""
        return self.q_max - self.q_min + 1

    @property
    def height(self) -> int:
        """Lines of the map (without the letters above it)."""
        return 2 * (self.row_max - self.row_min + 1) + 2

    def width(self, inside: int) -> int:
        """Characters across the map with ``inside`` characters per hex line."""
        return MARGIN + (inside + 1) * self.columns + 1

    def top_line(self, q: int, row: int) -> int:
        """The map line of the top half of hex column ``q``, row ``row``."""
        return 2 * (row - self.row_min) + 1 + (q & 1)

    def occupant(self, q: int, y: int) -> tuple[Hex, int]:
        """The hex of column ``q`` drawn on line ``y`` and which half (0 top, 1 bottom)."""
        k = y - 1 - (q & 1)
        return from_offset(q, self.row_min + k // 2), k % 2

    def kind(self, h: Hex) -> str:
        """"floor", "solid" or "off" (not on the map)."""
        if h in self.floor:
            return "floor"
        return "solid" if h in self.solid else "off"

    def side(self, h: Hex, facing: int) -> str:
        """What the side of ``h`` toward ``facing`` is: "open", "wall", "out" (a way off the
        map from an outside edge hex) or "none" (between two hexes that are not floor)."""
        other = neighbour(h, facing)
        mine, theirs = self.kind(h), self.kind(other)
        if mine == "floor" and theirs == "floor":
            return "wall" if frozenset((h, other)) in self.walls else "open"
        if mine != "floor" and theirs != "floor":
            return "none"
        if mine != "floor":
            h, other, facing, theirs = other, h, (facing + 3) % 6, mine
        if theirs == "solid":
            return "wall"
        return "out" if (h, facing) in self.ways_out else "wall"


_GEOMETRY: dict[int, Geometry] = {}
KEPT = 16
"""How many maps' layouts are kept (a view's map is shared per board, so a few suffice)."""


def geometry(known: dict[str, Any]) -> Geometry:
    """The layout of a view's map (kept per map: the view shares one map per board)."""
    found = _GEOMETRY.get(id(known))
    if found is None or found.source is not known:
        found = Geometry.of(known)
        while len(_GEOMETRY) >= KEPT:
            del _GEOMETRY[next(iter(_GEOMETRY))]
        _GEOMETRY[id(known)] = found
    return found


def hex_contents(view: View, known: dict[str, Any]) -> dict[str, list[Char]]:
    """What stands on each hex, by label, most important first: thieves the seat knows the
    dial of, a guard (facing arrow, status letter), a Thief Marker, a torch, the crown, a
    Special Hex's glyph."""
    out: dict[str, list[Char]] = {}
    for seat, thief in enumerate(view.get("thieves", ())):
        where = thief.get("hex")
        if where and thief.get("standing") == "in play":
            out.setdefault(where, []).append(
                (str(seat + 1), PIECE_STYLE[seat % len(PIECE_STYLE)]))
    for guard in view.get("guards", ()):
        if guard.get("placed") and guard.get("hex"):
            style = STATUS_STYLE.get(guard["status"], "bold")
            out.setdefault(guard["hex"], []).extend(
                [(ARROW.get(guard["facing"], "?"), style),
                 (STATUS_LETTER.get(guard["status"], "?"), style)])
    for marker in view.get("markers", ()):
        out.setdefault(marker["hex"], []).append(MARKER)
    out_torches = set(view.get("extinguished", ()))
    for torch in view.get("torches", ()):
        out.setdefault(torch, []).append(TORCH_OUT if torch in out_torches else TORCH)
    if known.get("crown"):
        out.setdefault(known["crown"], []).append(
            CROWN if view.get("treasures_on_crown") else CROWN_EMPTY)
    for name, kind in known.get("special", {}).items():
        out.setdefault(name, []).append((SPECIAL_GLYPH.get(kind, kind[:1]), SPECIAL_STYLE))
    return out


def _styled(style: str, background: str | None, underline: bool = False) -> str:
    parts = [style] if style else []
    if underline:
        parts.append("underline")
    if background is not None and " on " not in f" {style} ":
        parts.append(f"on {background}")
    return " ".join(parts)


def hex_lines(geo: Geometry, h: Hex, contents: list[Char], lit: bool, seen: bool,
              inside: int) -> tuple[list[Char], list[Char]]:
    """The top and bottom line inside hex ``h``: the label (wide cells) over what stands on
    it, overflowing upward; where its south side is a wall, a bottom line ``___`` that
    nothing covers, what stands on the hex on the top line (as much as fits, most important
    first, issue 28); solid hexes filled; hexes off the map blank but for the frame along
    their south side."""
    kind = geo.kind(h)
    blank = [(" ", "")] * inside
    if kind == "solid":
        return [SOLID] * inside, [SOLID] * inside
    south = geo.side(h, FACINGS.index("S"))
    if kind == "off":
        return blank, ([("_", WALL)] * inside if south == "wall" else blank)
    background = SEEN_LIT_BG if seen and lit else SEEN_BG if seen else LIT_BG if lit else None
    walled = south == "wall"
    chars = contents[:inside if walled else 2 * inside]
    edge = any((h, f) in geo.ways_out for f in range(6))
    name = [(c, EDGE_LABEL_STYLE if edge else LABEL_STYLE)
            for c in geo.floor[h][:inside]] if inside >= WIDE else []
    if walled and all(c in FIXTURES for c in contents) and len(name) + len(contents) <= inside:
        top, bottom = [*name, *contents], list[Char]()  # the label, then a door: "B3+"
    elif walled:
        top, bottom = chars, []
    elif inside >= WIDE:
        bottom, top = chars[:inside], chars[inside:]
    else:
        top, bottom = chars[:inside], chars[inside:]
    if not top and inside >= WIDE:
        top = name
    elif not top:
        top = [("·", LABEL_STYLE)]
    fill = "_" if walled else " "
    top = [*top, *[(" ", "")] * (inside - len(top))]
    bottom = [*bottom, *[(fill, WALL)] * (inside - len(bottom))]
    return ([(c, _styled(s, background)) for c, s in top],
            [(c, _styled(s, background, walled)) for c, s in bottom])


def map_lines(view: View, inside: int) -> list[Text]:
    """The view's map as lines of text: column letters, then the hex grid with row numbers
    (no lines if the view has no map)."""
    known = map_of(view)
    if known is None:
        return []
    geo = geometry(known)
    contents = hex_contents(view, known)
    lit = set(view.get("lit", ()))
    seen = {label for guard in view.get("guards", ()) for label in guard.get("sees", ())}
    width = geo.width(inside)
    grid: list[list[Char]] = [[(" ", "")] * width for _ in range(geo.height)]
    pitch = inside + 1
    for q in range(geo.q_min, geo.q_max + 1):
        x = MARGIN + pitch * (q - geo.q_min) + 1
        for row in range(geo.row_min - 1, geo.row_max + 1):
            h = from_offset(q, row)
            label = geo.floor.get(h, "")
            top, bottom = hex_lines(geo, h, contents.get(label, []), label in lit,
                                    label in seen, inside)
            y = geo.top_line(q, row)
            for line, chars in ((y, top), (y + 1, bottom)):
                if 0 <= line < geo.height:
                    grid[line][x:x + inside] = chars
    for q in range(geo.q_min - 1, geo.q_max + 1):
        x = MARGIN + pitch * (q + 1 - geo.q_min)
        for y in range(geo.height):
            h, half = geo.occupant(q, y)
            facing = FACINGS.index("NE") if half == 0 else FACINGS.index("SE")
            if geo.side(h, facing) == "wall":
                grid[y][x] = ("\\" if half == 0 else "/", WALL)
    for row in range(geo.row_min, geo.row_max + 1):
        y = geo.top_line(geo.q_min - (geo.q_min & 1), row)
        grid[y][0:MARGIN - 1] = [(c, LABEL_STYLE) for c in f"{row:>{MARGIN - 1}}"[-(MARGIN - 1):]]
    letters = [" "] * width
    for q in range(geo.q_min, geo.q_max + 1):
        x = MARGIN + pitch * (q - geo.q_min) + 1
        name = column_letters(q) if q >= 0 else "?"
        letters[x:x + len(name)] = list(name)
    lines = [Text("".join(letters).rstrip(), style=LABEL_STYLE)]
    for chars in grid:
        text = Text()
        for c, style in chars:
            text.append(c, style=style or None)
        text.rstrip()
        lines.append(text)
    return lines


class MapView:
    """The view's map, drawn with labels when it fits the width it is given and compact if
    not."""

    def __init__(self, view: View) -> None:
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        known = map_of(self.view)
        if known is None:
            return
        inside = WIDE if geometry(known).width(WIDE) <= options.max_width else COMPACT
        yield from map_lines(self.view, inside)


# --- the legend and the lists under the map -----------------------------------------------
MARKS: tuple[tuple[Char, str], ...] = (
    (MARKER, "Thief Marker"), (TORCH, "torch"), (TORCH_OUT, "torch out"), (CROWN, "crown"),
    *(((glyph, SPECIAL_STYLE), kind) for kind, glyph in SPECIAL_GLYPH.items()),
    (SOLID, "solid"))
"""The legend's marks of what is not a piece, each with its words (issue 28: one meaning per
mark; the crown with no treasure left is the same ``$`` in grey)."""


def legend(view: View) -> list[Text]:
    """What the glyphs, walls and tints mean."""
    pieces = Text("Thieves: ", style="bold")
    known = [(seat, t) for seat, t in enumerate(view.get("thieves", ()))
             if t.get("hex") and t.get("standing") == "in play"]
    for k, (seat, thief) in enumerate(known):
        pieces.append(", " if k else "", style="")
        pieces.append(str(seat + 1), style=PIECE_STYLE[seat % len(PIECE_STYLE)])
        pieces.append(f" {thief['name']}", style="")
    if not known:
        pieces.append("none on the map you may see", style="")
    for mark, words in MARKS:
        pieces.append(" · ", style="")
        pieces.append(*mark)
        pieces.append(f" {words}", style="")
    statuses = Text.assemble(("Guards ", "bold"), "(", ("↑B", STATUS_STYLE["bored"]),
                             " faces N, Bored):")
    for status, letter in STATUS_LETTER.items():
        statuses.append("  ")
        statuses.append(letter, style=STATUS_STYLE[status])
        statuses.append(f" {status.capitalize()}")
    tint = Text.assemble(("Walls: ", "bold"), "/ \\ ___ · gaps in the frame: ways out (",
                         ("green", EDGE_LABEL_STYLE), " labels) · tint: ", ("lit", f"on {LIT_BG}"),
                         ", ", ("seen by a guard", f"on {SEEN_BG}"), ", ",
                         ("both", f"on {SEEN_LIT_BG}"))
    return [pieces, statuses, tint]


def guard_table(view: View) -> Table:
    """Every guard: number, hex and facing, status, target and home, who it is, what it
    carries."""
    t = Table.grid(padding=(0, 1))
    for _ in range(5):
        t.add_column(no_wrap=True)
    for guard in view.get("guards", ()):
        name = str(guard.get("name", "")).removeprefix("the ")
        name = name[:1].upper() + name[1:]
        if guard.get("placed") and guard.get("hex"):
            style = STATUS_STYLE.get(guard["status"], "bold")
            where = Text.assemble((f"{guard['hex']:<4}", "bold"),
                                  (ARROW.get(guard["facing"], "?"), style),
                                  f" {guard['facing']:<2}")
            status = status_word(guard["status"])
        else:
            where = Text("-", style="dim")
            status = Text("waits for the vault", style="dim")
        goal = Text()
        if guard.get("target"):
            goal.append(f"→ {guard['target']}", style="bold bright_red")
        if guard.get("home"):
            goal.append(f"{' ' if goal else ''}home {guard['home']['hex']}", style="dim")
        things = [word for word, on in (("undead", guard.get("undead")),
                                        ("bow", guard.get("bow")), ("key", guard.get("key")))
                  if on]
        if guard.get("coins"):
            things.append(f"{guard['coins']} coins")
        t.add_row(Text(f"{guard.get('number', '?'):>2}", style="bold"), where, status, goal,
                  Text(f"{name}" + (f" ({', '.join(things)})" if things else ""), style="dim"))
    return t


def round_line(view: View) -> Text:
    """The scenario, round, phase, options and who decides."""
    scenario = (view.get("scenario") or {}).get("name", "?")
    head = Text.assemble((str(scenario), "bold"), f" · round {view.get('round', '?')} of "
                         f"{view.get('dawn', '?')} · ",
                         PHASE_WORDS.get(str(view.get("phase")), str(view.get("phase"))))
    head.append(f" · {view.get('mode', '?')}, {view.get('difficulty', '?')}")
    if view.get("advanced"):
        head.append(", advanced")
    decision = view.get("decision")
    if view.get("result") is None and isinstance(decision, dict):
        if decision.get("seat") == view.get("name"):
            head.append(f" · you: {decision.get('task', 'decide')}", style="bold")
        else:
            head.append(" · waiting for ")
            head.append_text(colour(str(decision.get("seat", "?"))))
    return head


def ways_line(view: View, known: dict[str, Any]) -> Text:
    """The outside edge hexes by tile, from the view's map ``known``: where thieves come in
    (entry tiles) and go out (exit tiles, by the thief's Exit card)."""
    out = Text("Ways in and out: ", style="bold")
    first = True
    for tile in known.get("tiles", ()):
        if not tile.get("outside_edge"):
            continue
        out.append("" if first else " · ", style="")
        first = False
        out.append(f"{tile['name']} ", style="")
        out.append(" ".join(tile["outside_edge"]), style=EDGE_LABEL_STYLE)
        notes = [] if tile.get("entry") else ["out only"]
        if not tile.get("exit"):
            notes.append("in only")
        holders = [t["name"] for t in view.get("thieves", ()) if t.get("exit") == tile["id"]]
        if tile.get("exit") and holders:
            notes.append("exit of " + ", ".join(holders))
        if notes:
            out.append(f" ({'; '.join(notes)})", style="")
    return out


def board(view: View) -> RenderableType:
    """The map, its legend, every guard, the markers, torches, ways out and market."""
    known = map_of(view)
    parts: list[RenderableType] = [round_line(view)]
    if known is None:
        parts.append(Text("(The map of this scenario is not available here.)", style="dim"))
    else:
        parts.append(MapView(view))
        parts.extend(legend(view))
    parts.append(guard_table(view))
    if view.get("forecast"):
        parts.append(Text(FORECAST_HEAD, style="bold"))
        parts.extend(indented(str(item.get("text", ""))) for item in view["forecast"])
        parts.extend(careful_lines(view))
    markers = [m["hex"] for m in view.get("markers", ())]
    out = list(view.get("extinguished", ()))
    parts.append(Text.assemble(
        ("Thief Markers: ", "bold"), ", ".join(markers) if markers else "none",
        (" · Torches out: ", "bold"), ", ".join(out) if out else "none",
        (" · On the crown: ", "bold"), f"{view.get('treasures_on_crown', 0)} treasures",
        " · vault guard " + ("called" if view.get("vault_triggered") else "not called")))
    if known is not None:
        parts.append(ways_line(view, known))
    market = Text("Market: ", style="bold")
    for k, name in enumerate(view.get("market", ())):
        if k:
            market.append(", ", style="")
        card = GUARD_CARD_BY_NAME.get(str(name))
        market.append(f"{name}" + (f" ({card.cost})" if card else "") if name else "-",
                      style="")
    market.append(f" · Guard deck {view.get('guard_deck', 0)}", style="")
    parts.append(market)
    return Group(*parts)


# --- the players ---------------------------------------------------------------------------
def where(thief: dict[str, Any]) -> Text:
    """Where a thief is as this seat may know it: its hex, and how much of it the public knows
    (its possible hexes, spec 10); hidden; or escaped, caught or killed; and whether it
    hides."""
    standing = str(thief.get("standing"))
    if standing != "in play":
        return Text(standing, style=STANDING_STYLE.get(standing, ""))
    possible = thief.get("possible") or []
    if len(possible) == 1:
        out = Text.assemble((str(possible[0]), "bold"), " (known to all)")
    elif thief.get("hex"):
        out = Text(str(thief["hex"]), style="bold")
        if possible:
            out.append(f" (hidden among {len(possible)})")
    elif thief.get("hex_known"):
        out = Text("not placed yet", style="dim")
    else:
        out = Text(f"hidden among {len(possible)} hexes" if possible else "hidden",
                   style="italic")
    if thief.get("hiding"):
        out.append(", hiding", style="bold")
    return out


def treasure_cell(thief: dict[str, Any]) -> Text:
    """A thief's treasure and its value, with Armour or Sword spent."""
    name = thief.get("treasure")
    if not name:
        return Text("-", style="dim")
    found = TREASURE_BY_NAME.get(str(name))
    out = Text(str(name), style="bold yellow")
    if found is not None:
        out.append(f" (worth {found.value})")
    if thief.get("armour_used") or thief.get("sword_used"):
        out.append(" used", style="dim")
    return out


STANDING_STYLE = {"in play": "bold", "escaped": "bold green", "caught": "bold red",
                  "killed": "bold red"}


def cards_cell(thief: dict[str, Any]) -> Text:
    """How many thief cards a thief holds, and its discards (public)."""
    out = Text(f"{len(thief.get('hand') or ())} in hand")
    if thief.get("discard"):
        out.append(f"; discarded {', '.join(thief['discard'])}", style="dim")
    return out


def items_cell(thief: dict[str, Any], known: dict[str, Any] | None) -> str:
    """A thief's Guard cards, Lockpicks and keys (by tile name, from the view's map
    ``known``)."""
    own = list(thief.get("guard_cards") or ())
    own += ["Lockpicks"] if thief.get("lockpicks") else []
    own += [f"key ({tile_name(known, k)})" for k in thief.get("keys") or ()]
    return ", ".join(own) or "-"


def thieves_table(view: View) -> Table:
    """One column per thief: where, wounds, coins, cards, Guard cards and items, treasure,
    Exit card."""
    thieves = list(view.get("thieves", ()))
    known = map_of(view)
    decision = view.get("decision") or {}
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
              collapse_padding=True)
    t.add_column("", no_wrap=True)
    for thief in thieves:
        head = colour(thief["name"])
        if thief["name"] == view.get("name"):
            head.append(" (you)")
        if thief["name"] == decision.get("seat") and view.get("result") is None:
            head.append(" *", style="bold")
        t.add_column(head)
    if not thieves:
        return t
    rows: list[tuple[str, list[Text | str]]] = [
        ("Where", [where(th) for th in thieves]),
        ("Wounds left", [Text.assemble(("■" * int(th.get("wounds", 0)), "bold red"),
                                       f" {th.get('wounds', 0)}") for th in thieves]),
        ("Coins", [str(th.get("coins", 0)) for th in thieves]),
        ("Thief cards", [cards_cell(th) for th in thieves]),
        ("Guard cards", [items_cell(th, known) for th in thieves]),
        ("Treasure", [treasure_cell(th) for th in thieves]),
        ("Exit card", [tile_name(known, th.get("exit")) for th in thieves]),
    ]
    for heading, cells in rows:
        t.add_row(Text(heading, style="bold"), *cells)
    return t


def players(view: View) -> RenderableType:
    """Every thief: where it is (or hidden, escaped, caught), wounds, coins, cards, items,
    treasure, Exit card; the round and dawn."""
    note = Text(f"Round {view.get('round', '?')} of {view.get('dawn', '?')}: after round "
                f"{view.get('dawn', '?')} dawn comes and every thief still inside is caught.",
                style="dim")
    if view.get("result") is None:
        note.append(" *: decides now.", style="dim")
    return Group(thieves_table(view), note)


def table(view: View) -> RenderableType:
    """One line per thief for every decision screen (issue 26): where (as far as this seat may
    know), wounds, coins, cards, treasure; a line too long ends in '…'."""
    lines: list[RenderableType] = []
    decision = view.get("decision") or {}
    for thief in view.get("thieves", ()):
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append_text(colour(thief["name"]))
        if thief["name"] == view.get("name"):
            line.append(" (you)")
        if thief["name"] == decision.get("seat") and view.get("result") is None:
            line.append(" *", style="bold")
        line.append(": ")
        line.append_text(where(thief))
        line.append(f" · wounds {thief.get('wounds', 0)} · coins {thief.get('coins', 0)} · "
                    f"{len(thief.get('hand') or ())} cards")
        if thief.get("treasure"):
            line.append(" · ")
            line.append_text(treasure_cell(thief))
        lines.append(line)
    return Group(*lines)


def summary(view: View) -> RenderableType:
    """The compact screen's board summary (issue 16): the round line, then every guard (the
    thieves are in ``table``): with a forecast, one line each saying its next move (issue 28),
    and the warnings on the seat's own moves."""
    if not view.get("forecast"):
        return Group(round_line(view), guard_table(view))
    return Group(round_line(view), *careful_lines(view), *forecast_lines(view))


def summary_least(view: View) -> int:
    """The summary lines to keep while the seat plans its thief card (issue 28): the round
    line, the warnings and every guard's next move; otherwise none claimed."""
    decision = view.get("decision") or {}
    if not view.get("forecast") or decision.get("seat") != view.get("name") \
            or decision.get("task") != "plan your thief card":
        return 0
    return 1 + len(careful_lines(view)) + len(forecast_lines(view))


# --- the guards' next moves and warnings (issue 28) ------------------------------------------
FORECAST_HEAD = "The guards next, unless they see or hear a thief:"


def forecast_lines(view: View) -> list[Text]:
    """One line per guard (the view's ``forecast``): number, hex and facing, status, then what
    it will do (``walks 1 to C4, faces SE``), cut with '…' at the screen's edge."""
    lines = []
    guards = {g.get("number"): g for g in view.get("guards", ())}
    for item in view.get("forecast", ()):
        guard = guards.get(item.get("number"), {})
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(f"{item.get('number', '?'):>2} ", style="bold")
        if guard.get("placed") and guard.get("hex"):
            style = STATUS_STYLE.get(guard["status"], "bold")
            line.append(f"{guard['hex']:<4}", style="bold")
            line.append(ARROW.get(guard["facing"], "?"), style=style)
            line.append(f" {guard['facing']:<2}", style=style)
            line.append(f" {str(guard['status']).capitalize():<11}", style=style)
        else:
            line.append(f"{'-':<5} {'off map':<14}", style="dim")
        line.append(str(item.get("does", "")))
        if guard.get("bow"):
            line.append(" (bow)", style="dim")
        lines.append(line)
    return lines


CAREFUL_WIDTH = 80
"""The width the warnings are packed in (the terminal's least)."""


def careful_lines(view: View) -> list[Text]:
    """The warnings on the seat's own choices (the decision's ``warnings``), grouped: the kind
    of move (Move, Run, ...), the hexes it would end on, and the warning; packed in lines of
    ``CAREFUL_WIDTH`` characters (a group longer than a line ends in '…')."""
    decision = view.get("decision") or {}
    grouped: dict[tuple[str, str], list[str]] = {}
    for warning in decision.get("warnings") or ():
        action = str(warning.get("action", ""))
        kind = action.removeprefix("Play ").split(":")[0].split(" ")[0]
        if kind == "Move" and "stay" in action:
            kind = "Stay"
        grouped.setdefault((kind, str(warning.get("note"))), []).append(str(warning.get("hex")))
    lines: list[Text] = []
    start = len("Careful: ")
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append("Careful: ", style="bold bright_red")
    for (kind, note), hexes in grouped.items():
        where = " ".join(dict.fromkeys(hexes))
        part = Text.assemble((f"{kind} to {where}" if kind in ("Move", "Run") else kind, "bold"),
                             f": {note}")
        if len(line) > start and len(line) + 3 + len(part) > CAREFUL_WIDTH:
            lines.append(line)
            line = Text("  ", no_wrap=True, overflow="ellipsis")
        elif len(line) > start:
            line.append(" · ")
        line.append_text(part)
    if grouped:
        lines.append(line)
    return lines


# --- the hand ------------------------------------------------------------------------------
HINT = {"Run": "1 or 2 steps, a noise", "Hide": "seen only from next to you",
        "Rest": "discards back", "Pick Pocket": "a key or coins from a guard next to you"}
"""A reminder of what a thief card does, in the hand."""


def card_text(name: str) -> str:
    """A thief card's, Guard card's or treasure's text ('' if unknown)."""
    for table in (THIEF_CARD_BY_NAME, GUARD_CARD_BY_NAME, TREASURE_BY_NAME):
        found = table.get(name)
        if found is not None:
            return str(found.text)
    return ""


def hand(view: View) -> RenderableType:
    """The seat's thief cards in hand, its plan once made, its Guard cards and treasure with
    their text, and the market's cards while it may buy."""
    seat = view.get("seat")
    thieves = list(view.get("thieves", ()))
    if seat is None or not 0 <= seat < len(thieves):
        return Text("(You are watching: no hand.)", style="dim")
    me = thieves[seat]
    cards = list(me.get("hand") or ())
    line = Text.assemble("Your thief cards (", colour(me["name"]), "): ")
    moves = [c.removeprefix("Move ") for c in cards if c.startswith("Move ")]
    shown = [Text.assemble(("Move ", "bold"), " ".join(moves))] if moves else []
    shown += [Text.assemble((c, "bold"), (f" ({HINT[c]})" if c in HINT else "", "dim"))
              for c in cards if not c.startswith("Move ")]
    line.append_text(Text(" · ").join(shown) if shown else Text("none", style="dim"))
    parts: list[RenderableType] = [line]
    plan = me.get("plan")
    if isinstance(plan, dict) and plan.get("text"):
        parts.append(Text.assemble(("Your plan: ", "bold"), str(plan["text"])))
    held = list(me.get("guard_cards") or ())
    if me.get("lockpicks"):
        held.append("Lockpicks")
    for name in held:
        parts.append(Text.assemble(("Guard card ", "bold"), (name, "bold"),
                                   (f": {card_text(name)}", "dim")))
    if me.get("treasure"):
        parts.append(Text.assemble(("Your treasure: ", "bold"), treasure_cell(me),
                                   (f": {card_text(str(me['treasure']))}", "dim")))
    decision = view.get("decision") or {}
    if decision.get("seat") == me["name"] and any(
            str(a).startswith("Buy ") for a in decision.get("actions") or ()):
        parts.append(Text(f"The market (you have {me.get('coins', 0)} coins):", style="bold"))
        for name in dict.fromkeys(n for n in view.get("market", ()) if n):
            card = GUARD_CARD_BY_NAME.get(str(name))
            cost = f" ({card.cost} coin{'' if card.cost == 1 else 's'})" if card else ""
            parts.append(indented(Text.assemble((f"{name}{cost}", "bold"),
                                                (f": {card_text(str(name))}", "dim"))))
    return Group(*parts)


# --- menus, the end and help ---------------------------------------------------------------
def label(text: str) -> str:
    """An action's menu line: its own English text ('Play Move N/NE: step N to C4')."""
    return text


def outcome(view: View) -> RenderableType:
    """The end: who won (or nobody), why, and every thief's standing, treasure, wounds and
    points."""
    result = view.get("result") or {}
    thieves = list(view.get("thieves", ()))
    winners = [thieves[w]["name"] for w in result.get("winners", ()) if 0 <= w < len(thieves)]
    if winners:
        head = Text("Winner: " if len(winners) == 1 else "Winners: ")
        head.append_text(Text(" and ").join(colour(w) for w in winners))
    else:
        head = Text("Nobody wins")
    reason = str(result.get("reason", ""))
    if reason:
        head.append(f" ({reason}).")
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="The end", title_justify="left")
    t.add_column("Thief")
    t.add_column("Standing")
    t.add_column("Treasure")
    t.add_column("Wounds left", justify="right")
    t.add_column("Points", justify="right")
    points = result.get("points")
    for i, thief in enumerate(thieves):
        score = points[i] if isinstance(points, list) and i < len(points) else "-"
        t.add_row(colour(thief["name"]), Text(str(thief.get("standing")), style=STANDING_STYLE.get(
            str(thief.get("standing")), "")), treasure_cell(thief), str(thief.get("wounds", 0)),
                  Text(str(score), style="bold"))
    return Group(head, t, Text(f"After round {view.get('round', '?')} of "
                               f"{view.get('dawn', '?')}.", style="dim"))


def describe(entry: dict[str, Any]) -> RenderableType:
    """A reference entry (a card, a treasure, a scenario, a tile, a term): its name and text,
    then its other plain fields as ``key: value``, every value in words (yes or no, never
    Python's True or False)."""
    if is_term(entry):
        return Group(Text(str(entry["name"]), style="bold"), indented(term_text(entry)))
    rows: list[RenderableType] = [Text(str(entry.get("name", "?")), style="bold")]
    text = entry.get("text") or card_text(str(entry.get("name", "")))
    if text:
        rows.append(indented(str(text)))
    for key, value in entry.items():
        if key not in ("name", "text") and isinstance(value, (str, int, float, bool)):
            rows.append(indented(f"{key.replace('_', ' ')}: {field_text(value)}", 2, "dim"))
    return Group(*rows)


class BlackKeepScreens(ScreenFunctions):
    """The terminal screens of Thieves of the Black Keep."""

    def __init__(self) -> None:
        super().__init__(colour, board, players, hand, label, outcome, describe, summary)

    def table(self, view: View) -> RenderableType:
        """One line per thief (every decision screen, issue 26)."""
        return table(view)

    def summary_least(self, view: View) -> int:
        """The summary lines to keep (``summary_least``, issue 28)."""
        return summary_least(view)
