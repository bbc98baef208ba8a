"""Drawing a Guards! Guards! view in the terminal with rich (the game's ``TerminalScreens``).

The board is a character hex map of the city laid out from the tiles' axial (q, r): column
``q`` (three characters per column), and the row from ``r + q/2``. On a tall terminal (34 lines
or more) each half-hex is a line, which keeps the true hex shape (29 lines); on a short one the
odd columns are pulled up half a hex, which keeps the whole city in 15 lines. A tile that one
choice of the seat's menu names shows that choice's number (``#4``); the tiles within reach are
bracketed (``[·]``). Everything here
reads one seat's ``view`` (and the game's public reference and static board facts), never the
state itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citywatch.core.guide import is_term, term_text
from citywatch.games.guards_guards.data import (
    QUADRANTS,
    RIVER_HEXES,
    TILES,
    UNIVERSITY_HEXES,
    Tile,
    tile_named,
)
from citywatch.games.guards_guards.explain import spells_words, volunteer_words

View = dict[str, Any]

# --- colours and glyphs ------------------------------------------------------------------
TEXT_STYLE = {"Red": "bold red", "Blue": "bold blue", "Black": "bold bright_black",
              "White": "bold white", "Yellow": "bold yellow", "Green": "bold green"}
"""A player's colour name, in text."""
PIECE_STYLE = {"Red": "bold white on red", "Blue": "bold white on blue",
               "Black": "bold white on grey7", "White": "bold black on white",
               "Yellow": "bold black on yellow", "Green": "bold black on green"}
"""A player's piece on the map."""
INITIAL = {"Red": "R", "Blue": "B", "Black": "K", "White": "W", "Yellow": "Y", "Green": "G"}
"""A player's piece letter (K for Black, as Blue has B)."""
GATE_STYLE = {"red": "bold red", "blue": "bold bright_blue", "black": "bold bright_black",
              "white": "bold bright_white", "yellow": "bold yellow", "green": "bold green"}
SPELL_STYLE = {"red": "bold bright_red", "orange": "bold dark_orange", "yellow": "bold yellow",
               "green": "bold bright_green", "blue": "bold bright_blue",
               "indigo": "bold slate_blue1", "violet": "bold violet",
               "octarine": "bold bright_magenta"}
"""A Great Spell's colour."""
SPELL_LETTER = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b",
                "indigo": "i", "violet": "v", "octarine": "8"}
"""A spell colour's letter on the map: octarine, the eighth colour, is ``8``."""
QUADRANT_BG = {"thieves": "color(52)", "assassins": "color(17)", "alchemists": "color(22)",
               "fools": "color(58)"}
"""Each quadrant's tint, as a background."""
QUADRANT_STYLE = {"thieves": "bold bright_red", "assassins": "bold bright_blue",
                  "alchemists": "bold bright_green", "fools": "bold yellow"}
"""Each quadrant's name, in text."""
QUADRANT_WHERE = {"thieves": "NW", "assassins": "NE", "alchemists": "SE", "fools": "SW"}
DECK_LETTER = {"Lords & Ladies": "L", "Man & Beast": "M", "Shades & Shadows": "S"}
DECK_STYLE = {"Lords & Ladies": "bold magenta", "Man & Beast": "bold dark_orange3",
              "Shades & Shadows": "bold cyan"}
GLYPH: dict[str, tuple[str, str]] = {
    "street": ("·", "grey70"),
    "bridge": ("=", "bold bright_white"),
    "guild_house": ("H", "bold bright_white"),
    "temple": ("T", "bold bright_cyan"),
    "merchant": ("$", "bold bright_yellow"),
    "tavern": ("t", "bold dark_orange"),
    "hospital": ("+", "bold bright_red"),
    "watch_house": ("W", "bold bright_white"),
    "volunteer_lords_ladies": ("L", DECK_STYLE["Lords & Ladies"]),
    "volunteer_man_beast": ("M", DECK_STYLE["Man & Beast"]),
    "volunteer_shades_shadows": ("S", DECK_STYLE["Shades & Shadows"]),
    "curry_gardens": ("C", "bold bright_green"),
    "sunshine_sanctuary": ("d", "bold bright_magenta"),
    "spell": ("*", ""),
    "start_gate": ("G", ""),
}
"""Each tile kind's letter and style (spell tiles and gates take their colour)."""
RIVER = ("~", "bold bright_blue on color(18)")
UNIVERSITY = ("U", "bold bright_white on color(54)")
DRAGON_STYLE = "bold bright_red"
LUGGAGE_STYLE = "bold orange1"
CROWD_STYLE = "bold white on magenta"
NUMBER_STYLE = "bold black on bright_cyan"
REACH_STYLE = "bold bright_cyan"
CELL = 3
GAP_TINT = False
"""Whether the tall map tints the gap between two tiles of one quadrant on a line."""
"""Characters per map column."""
TALL = 34
"""From this many terminal lines on, the map keeps the true hex shape."""
LEGEND_MIN = 36
"""The narrowest the legend is put beside the map."""

_QS = [t.q for t in TILES] + [h[0] for h in RIVER_HEXES | UNIVERSITY_HEXES]
Q_MIN, Q_MAX = min(_QS), max(_QS)
MAP_WIDTH = (Q_MAX - Q_MIN + 1) * CELL
_TILE_BY_ID = {t.id: t for t in TILES}
_BY_QR = {(t.q, t.r): t for t in TILES}


def colour(name: str) -> Text:
    """A colour name in its colour."""
    return Text(name, style=TEXT_STYLE.get(name, "bold"))


def piece(name: str) -> Text:
    """A player's piece letter as drawn on the map."""
    return Text.assemble((INITIAL.get(name, name[:1]), PIECE_STYLE.get(name, "bold")))


def spell(colour_name: str, returned: bool = True) -> Text:
    """A Great Spell's colour name, in its colour (dim when not yet returned)."""
    style = SPELL_STYLE.get(colour_name, "bold") if returned else "dim"
    return Text(colour_name.capitalize(), style=style)


def tile_of(tile_id: str | None) -> Tile | None:
    """The tile with this id (None for none)."""
    return None if tile_id is None else _TILE_BY_ID.get(tile_id)


def tile_name(tile_id: str | None) -> str:
    """A tile's readable name from its id ('-' for none)."""
    t = tile_of(tile_id)
    return "-" if t is None else t.name


def quadrant_of(t: Tile) -> str:
    """The quadrant a tile lies in, or the two a border gate stands between."""
    if t.quadrant >= 0:
        return QUADRANTS[t.quadrant].capitalize()
    return "/".join(QUADRANTS[b].capitalize() for b in t.border_of)


# --- the map -------------------------------------------------------------------------------
def _line_key(q: int, r: int, tall: bool) -> int:
    """The map line of hex (q, r), before shifting to start at 0."""
    return 2 * r + q if tall else r + q // 2


@dataclass
class Cell:
    """What one tile shows: three (character, style) pairs and its tint."""

    chars: list[tuple[str, str]]
    background: str | None


def _with_bg(style: str, background: str | None) -> str:
    if background is None or " on " in f" {style} ":
        return style
    return f"{style} on {background}".strip()


def _menu_tiles(view: View) -> tuple[dict[str, int], set[str]]:
    """Tiles the seat's menu names: tile id -> menu number where exactly one choice names it,
    and the ids of every tile named (by one or several choices)."""
    decision = view.get("decision") or {}
    named: dict[str, list[int]] = {}
    for number, action in enumerate(decision.get("actions_json") or (), 1):
        if not isinstance(action, dict):
            continue
        for key, value in action.items():
            if key == "verb" or not isinstance(value, str):
                continue
            try:
                t = tile_named(value)
            except ValueError:
                continue
            named.setdefault(t.id, []).append(number)
    numbers = {tid: ns[0] for tid, ns in named.items() if len(set(ns)) == 1}
    return numbers, set(named)


def _tile_cell(t: Tile, occupants: list[str], dragon: bool, luggage: bool,
               number: int | None, highlighted: bool) -> Cell:
    bg = QUADRANT_BG[QUADRANTS[t.quadrant]] if t.quadrant >= 0 else None
    glyph, style = GLYPH.get(t.kind, ("?", "bold"))
    right: tuple[str, str] = (" ", "")
    if t.kind == "spell":
        style = SPELL_STYLE.get(t.colour, "bold")
        right = (SPELL_LETTER.get(t.colour, " "), style)
    elif t.kind == "start_gate":
        style = GATE_STYLE.get(t.colour, "bold")
        right = (INITIAL.get(t.colour.capitalize(), " ").lower(), style)
    extra = [("D", DRAGON_STYLE)] if dragon else []
    extra += [("&", LUGGAGE_STYLE)] if luggage else []
    left: tuple[str, str] = (" ", "")
    if occupants:
        centre = ((INITIAL.get(occupants[0], "?"), PIECE_STYLE.get(occupants[0], "bold"))
                  if len(occupants) == 1 else (str(min(len(occupants), 9)), CROWD_STYLE))
        right = extra[0] if extra else (" ", "")
    elif number is not None:
        digits = f"#{number}".ljust(CELL) if number < 100 else str(number)[-CELL:]
        return Cell([(c, NUMBER_STYLE) for c in digits], bg)
    elif extra:
        centre = extra[0]
        right = extra[1] if len(extra) > 1 else (" ", "")
    else:
        centre = (glyph, style)
    if highlighted:
        left = ("[", REACH_STYLE)
        if right[0] == " " or not occupants:
            right = ("]", REACH_STYLE)
    return Cell([left, centre, right], bg)


class HexMap:
    """The city as a character hex map, drawn for the console's width and height."""

    def __init__(self, view: View) -> None:
        self.view = view

    def cells(self) -> dict[tuple[int, int], Cell]:
        """Every hex (q, r) of the map -> what it shows."""
        view = self.view
        occupants: dict[str, list[str]] = {}
        for seat in view.get("seats", ()):
            if seat.get("tile"):
                occupants.setdefault(seat["tile"], []).append(seat["colour"])
        dragon_houses = set()
        for quadrant in (view.get("dragons") or {}):
            if quadrant in QUADRANTS:
                dragon_houses.add(_guild_house(quadrant))
        numbers, named = _menu_tiles(view)
        decision = view.get("decision") or {}
        reach = set(decision.get("reachable") or ()) | named
        out: dict[tuple[int, int], Cell] = {}
        for t in TILES:
            out[(t.q, t.r)] = _tile_cell(t, occupants.get(t.id, []), t.id in dragon_houses,
                                         view.get("luggage") == t.id, numbers.get(t.id),
                                         t.id in reach)
        for hexes, (glyph, style) in ((RIVER_HEXES, RIVER), (UNIVERSITY_HEXES, UNIVERSITY)):
            for h in hexes:
                out[h] = Cell([(" ", style), (glyph, style), (" ", style)], None)
        return out

    def lines(self, tall: bool) -> list[Text]:
        """The map's lines, ``tall`` for the true hex shape."""
        cells = self.cells()
        keys = {h: _line_key(h[0], h[1], tall) for h in cells}
        top = min(keys.values())
        height = max(keys.values()) - top + 1
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * MAP_WIDTH for _ in range(height)]
        used: list[list[bool]] = [[False] * MAP_WIDTH for _ in range(height)]
        tint: list[list[str | None]] = [[None] * MAP_WIDTH for _ in range(height)]
        for (q, _), cell in cells.items():
            h = (q, _)
            y, x = keys[h] - top, (q - Q_MIN) * CELL
            for k, (ch, style) in enumerate(cell.chars):
                grid[y][x + k] = (ch, _with_bg(style, cell.background))
                used[y][x + k] = True
                tint[y][x + k] = cell.background
        if tall and GAP_TINT:  # tint the gap between two tiles of one quadrant on a line
            for y in range(height):
                for x in range(CELL, MAP_WIDTH - CELL):
                    if not used[y][x]:
                        left, right = _tinted_at(tint[y], x, -1), _tinted_at(tint[y], x, 1)
                        if left is not None and left == right:
                            grid[y][x] = (" ", f"on {left}")
        self._labels(grid, used)
        out = []
        for row in grid:
            text = Text(no_wrap=True, overflow="crop")
            for ch, style in row:
                text.append(ch, style=style or None)
            text.rstrip()
            out.append(text)
        return out

    def _labels(self, grid: list[list[tuple[str, str]]], used: list[list[bool]]) -> None:
        """Each quadrant's name (and Dragon, and your Saboteurs there) in its empty corner."""
        dragons = self.view.get("dragons") or {}
        own = self.view.get("own") or {}
        mine = [s.get("quadrant") for s in own.get("saboteurs") or ()]
        height = len(grid)
        for quadrant in QUADRANTS:
            words = [quadrant.upper()]
            if quadrant in dragons:
                words.append(f"Dragon {dragons[quadrant]['name']}")
            if quadrant in mine:
                words.append(f"your Sab x{mine.count(quadrant)}")
            where = QUADRANT_WHERE[quadrant]
            rows = range(len(words)) if where[0] == "N" else range(height - len(words), height)
            style = QUADRANT_STYLE[quadrant]
            for y, word in zip(rows, words, strict=True):
                x0 = 0 if where[1] == "W" else MAP_WIDTH - len(word)
                span = range(max(0, x0 - 1), min(MAP_WIDTH, x0 + len(word) + 1))
                if all(not used[y][x] for x in span):
                    for k, ch in enumerate(word):
                        grid[y][x0 + k] = (ch, style if y == rows[0] else "bold")
                        used[y][x0 + k] = True

    def legend(self, width: int, short: bool = False) -> Text:
        """What the glyphs mean, the pieces, the Dragons and the decks, in lines of at most
        ``width`` characters where it can; ``short`` packs it into fewer lines."""
        view = self.view
        you = view.get("colour")
        pieces = [Text.assemble(piece(s["colour"]), f" {s['colour']}"
                                + (" (you)" if s["colour"] == you else ""))
                  for s in view.get("seats", ())]
        keys = [Text.assemble((glyph, style), f" {short_what if short else what}")
                for glyph, style, what, short_what in (
            ("·", GLYPH["street"][1], "street", "street"),
            ("=", GLYPH["bridge"][1], "bridge", "bridge"),
            ("~", RIVER[1], "river", "river"), ("U", UNIVERSITY[1], "University", "Univ."),
            ("H", GLYPH["guild_house"][1], "Guild House", "Guild"),
            ("T", GLYPH["temple"][1], "Temple", "Temple"),
            ("$", GLYPH["merchant"][1], "Merchant", "Merchant"),
            ("t", GLYPH["tavern"][1], "Tavern", "Tavern"),
            ("+", GLYPH["hospital"][1], "Hospital", "Hospital"),
            ("W", GLYPH["watch_house"][1], "Watch House", "Watch"),
            ("L", DECK_STYLE["Lords & Ladies"], "M S Volunteers", "M S Volunteers"),
            ("C", GLYPH["curry_gardens"][1], "Curry Gardens", "Curry"),
            ("d", GLYPH["sunshine_sanctuary"][1], "Dragon Sanctuary", "Sanctuary"),
            ("&", LUGGAGE_STYLE, "Luggage", "Luggage"), ("D", DRAGON_STYLE, "Dragon", "Dragon"),
            ("2", CROWD_STYLE, "players", "players"), ("*x", "bold", "spell tile", "spell"),
            ("Gx", "bold", "gate (x: colour)", "gate"),
            ("[ ]", REACH_STYLE, "you may go", "reach"),
            ("#7", NUMBER_STYLE, "menu choice 7", "choice 7"))]
        spells = [Text.assemble((letter, SPELL_STYLE[name]), f" {name}")
                  for name, letter in SPELL_LETTER.items()]
        if short:
            spells = [Text.assemble(*((letter, SPELL_STYLE[name])
                                      for name, letter in SPELL_LETTER.items()),
                                    " spells (8 octarine)")]
        lines = _pack(pieces, width) + _pack(keys + spells if short else keys, width)
        if not short:
            lines += _pack(spells, width)
        dragons = view.get("dragons") or {}
        own = view.get("own") or {}
        mine = [s.get("quadrant") for s in own.get("saboteurs") or ()]
        quadrants = []
        for quadrant in QUADRANTS:
            line = Text.assemble(("  ", f"on {QUADRANT_BG[quadrant]}"), " ",
                                 (quadrant.capitalize(), QUADRANT_STYLE[quadrant]),
                                 f" {QUADRANT_WHERE[quadrant]}")
            d = dragons.get(quadrant)
            if d:
                line.append(" · Dragon ", style=DRAGON_STYLE)
                line.append(f"{d['name']} {d['brawl']}/{d['toughness']}")
            if quadrant in mine:
                line.append(f" · your Saboteurs {mine.count(quadrant)}", style="bold")
            quadrants.append(line)
        decks = []
        for deck in view.get("volunteer_decks") or ():
            name = deck["deck"]
            line = Text.assemble((DECK_LETTER.get(name, "?"), DECK_STYLE.get(name, "bold")),
                                 f" {name} {deck['face_down']}")
            if deck.get("face_up"):
                line.append(" · up: ")
                line.append(deck["face_up"][-1]["name"], style="bold")
            decks.append(line)
        luggage = view.get("luggage")
        decks.append(Text.assemble(("&", LUGGAGE_STYLE), f" Luggage at {tile_name(luggage)}"
                                   if luggage else " Luggage off the map"))
        cards = view.get("card_decks") or {}
        decks.append(Text(f"Fate {view.get('fate_deck', 0)} · Dragons "
                          f"{view.get('dragon_pile', 0)} · Items {_deck_count(cards, 'item')}"
                          f" · Scrolls {_deck_count(cards, 'scroll')}", style="dim"))
        if short:
            lines += _pack(quadrants, width) + _pack(decks, width)
        else:
            lines += quadrants + decks
        return Text("\n").join(lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        tall = console.height >= TALL
        lines = self.lines(tall)
        drawing = Text("\n", no_wrap=True, overflow="crop").join(lines)
        beside = options.max_width - MAP_WIDTH - 2
        if beside >= LEGEND_MIN:
            legend = self.legend(beside)
            grid = Table.grid(padding=(0, 0, 0, 2))
            grid.add_column(width=MAP_WIDTH, no_wrap=True)
            grid.add_column()
            grid.add_row(drawing, legend)
            yield grid
        else:
            yield drawing
            yield self.legend(options.max_width, short=not tall)


def _pack(entries: list[Text], width: int) -> list[Text]:
    """Entries joined by two spaces into lines of at most ``width`` (a longer entry alone)."""
    lines: list[Text] = []
    for entry in entries:
        if lines and lines[-1].cell_len + 2 + entry.cell_len <= width:
            lines[-1].append("  ")
            lines[-1].append_text(entry)
        else:
            lines.append(entry.copy())
    return lines


def _tinted_at(row: list[str | None], x: int, step: int) -> str | None:
    """The tint of the nearest drawn character from ``x`` going ``step``, within a gap."""
    for k in range(1, CELL + 1):
        i = x + step * k
        if 0 <= i < len(row) and row[i] is not None:
            return row[i]
    return None


def _deck_count(cards: dict[str, Any], kind: str) -> int:
    return sum(int(n) for key, n in cards.items() if key.startswith(kind))


def _guild_house(quadrant: str) -> str:
    for t in TILES:
        if t.kind == "guild_house" and QUADRANTS[t.quadrant] == quadrant:
            return t.id
    return ""


def board(view: View) -> RenderableType:
    """The hex map with its legend."""
    return HexMap(view)


# --- players -------------------------------------------------------------------------------
def levels(seat: dict[str, Any]) -> Text:
    """Magic/Guild/Charm: effective, with the permanent level in brackets when different."""
    out = Text()
    for k, attr in enumerate(("magic", "guild", "charm")):
        if k:
            out.append("/")
        now = seat["effective"][attr]
        base = seat["levels"][attr]
        out.append(str(now), style="bold" if now == base else "bold yellow")
        if now != base:
            out.append(f"({base})", style="dim")
    return out


def spells_line(seat: dict[str, Any], target: int = 5) -> Text:
    """The spells returned, counted and named in their colours: '1/5 Octarine' (issue 27:
    words, not letters; the letter of Octarine, 8, looked the same returned or not). The
    spells still wanted are in ``spells_text`` (the players screen)."""
    card = seat.get("guild_card") or {}
    done, _ = spells_words(card.get("spells") or (), seat.get("returned") or ())
    out = Text(f"{len(done)}/{target}")
    for name in done:
        out.append(" ")
        out.append(name, style=SPELL_STYLE.get(name.lower(), "bold"))
    return out


def spells_text(seat: dict[str, Any], target: int = 5) -> Text:
    """A player's spells in a sentence: returned ones in their colours, the ones still
    wanted named after."""
    card = seat.get("guild_card") or {}
    done, wanted = spells_words(card.get("spells") or (), seat.get("returned") or ())
    out = Text.assemble(piece(seat["colour"]), f" Spells returned {len(done)} of {target}")
    for k, name in enumerate(done):
        out.append(": " if k == 0 else ", ")
        out.append(name, style=SPELL_STYLE.get(name.lower(), "bold"))
    if wanted:
        out.append(f"; still wanted: {', '.join(wanted)}")
    out.append(".")
    return out


EFFECT_WORDS = {"move": "move", "move_set": "move =", "move_cap": "move ≤", "fog": "Fog"}


def effect_text(e: dict[str, Any]) -> str:
    """A timed effect in a few words."""
    kind = e.get("kind")
    a, b = e.get("a", 0), e.get("b", 0)
    if kind == "attr":
        what = f"{('Magic', 'Guild', 'Charm')[a] if 0 <= a < 3 else '?'} {b:+d}"
    elif kind == "move":
        what = f"move {a:+d}"
    elif kind in ("move_set", "move_cap"):
        what = f"{EFFECT_WORDS[kind]} {a}"
    elif kind == "fog":
        what = "Fog"
    else:
        what = str(kind)
    turns = e.get("turns", 0)
    when = "until healed" if turns < 0 else f"{turns}t"
    source = e.get("source")
    return f"{what} ({source + ', ' if source else ''}{when})"


def run_text(run: dict[str, Any] | None) -> Text:
    """An open Spell Run in a few words."""
    if not run:
        return Text("")
    out = Text("Run ")
    out.append_text(spell(run["spell"]))
    quadrants = run.get("quadrants") or []
    done = run.get("next_quadrant", 0)
    out.append(f" {done}/{len(quadrants)} quadrants")
    if run.get("final"):
        out.append(" (final)")
    runners = [r["volunteer"] for r in run.get("runners") or ()]
    if runners:
        out.append(f" runners {len(runners)}")
    return out


def status(seat: dict[str, Any]) -> Text:
    """The Pox, Fire Water, effects, Spell Run, missed turns and jail."""
    parts: list[Text] = []
    if seat.get("pox"):
        parts.append(Text("Pox", style="bold green"))
    if seat.get("fire_water"):
        parts.append(Text(f"Fire Water {seat['fire_water']}", style="dark_orange"))
    if seat.get("flasks"):
        parts.append(Text("flasks of " + ", ".join(seat["flasks"])))
    for e in seat.get("effects") or ():
        parts.append(Text(effect_text(e), style="yellow"))
    if seat.get("run"):
        parts.append(run_text(seat["run"]))
    if seat.get("missed"):
        parts.append(Text(f"misses {seat['missed']} turn(s)", style="red"))
    if seat.get("jailed"):
        parts.append(Text("in jail", style="bold red"))
    if seat.get("kept"):
        parts.append(Text("kept " + ", ".join(seat["kept"])))
    return Text("; ").join(parts) if parts else Text("-", style="dim")


def seats_table(view: View, lines: bool = True) -> Table:
    """A row per player: Guild Card, levels, money, cards held, Saboteurs, spells (``lines``:
    the heading underlined)."""
    t = Table(box=box.SIMPLE_HEAD if lines else None, pad_edge=False, padding=(0, 1),
              collapse_padding=True)
    t.add_column("Player", no_wrap=True)
    t.add_column("Guild Card", no_wrap=True)
    t.add_column("M/G/C", no_wrap=True)
    t.add_column("$", justify="right")
    t.add_column("V/S/I", no_wrap=True, justify="center")
    t.add_column("Sab", justify="right")
    t.add_column("Spells", no_wrap=True)
    current = view.get("current")
    target = view.get("spells_to_win", 5)
    for seat in view.get("seats", ()):
        name = seat["colour"]
        who = piece(name)
        who.append(" ")
        who.append_text(colour(name))
        if name == view.get("colour"):
            who.append(" (you)")
        if name == current:
            who.append(" *", style="bold")
        card = seat.get("guild_card")
        guild = Text("(choosing)", style="dim")
        if card:
            guild = Text(card["name"].removeprefix("The "), style="bold")
            guild.append(f" ({card['guild'].capitalize()})",
                         style=QUADRANT_STYLE.get(card["guild"], ""))
        t.add_row(who, guild, levels(seat), str(seat["dollars"]),
                  f"{seat['volunteers']}/{seat['scrolls']}/{seat['items']}",
                  str(seat["saboteurs"]), spells_line(seat, target))
    return t


def whereabouts(view: View) -> list[RenderableType]:
    """Where each player is and their state, a line each, then what the table's headings
    mean."""
    current = view.get("current")
    below: list[RenderableType] = []
    for seat in view.get("seats", ()):
        name = seat["colour"]
        if not seat.get("tile") and not seat.get("guild_card"):
            continue  # choosing a Guild Card: nowhere yet (issue 27)
        line = Text.assemble(piece(name), f" at {tile_name(seat.get('tile'))}")
        state = status(seat)
        if state.plain != "-":
            line.append(" · ")
            line.append_text(state)
        below.append(Padding(line, (0, 0, 0, 1)))
    note = Text("M/G/C: Magic/Guild/Charm (permanent) · V/S/I: Volunteers/Scrolls/Items held · "
                "Sab: Saboteurs planted · Spells: returned of those to win, named · "
                "*: to play", style="dim")
    decision = view.get("decision")
    if decision and decision.get("seat") != current:
        note.append(f" · {decision['seat']} must {decision.get('task', 'decide')}",
                    style="bold")
    return [*below, note]


def players(view: View) -> RenderableType:
    """Each player's public position: a table, then where each player is and their state."""
    target = view.get("spells_to_win", 5)
    spells = [Padding(spells_text(seat, target), (0, 0, 0, 1)) for seat in view.get("seats", ())
              if seat.get("guild_card")]
    return Group(seats_table(view), *whereabouts(view), *spells)


def table(view: View) -> RenderableType:
    """The players' table, a line each under its heading (every decision screen, issue 26)."""
    return seats_table(view, lines=False)


def notes_lines(view: View) -> list[RenderableType]:
    """The deciding seat's notes on its decision (the view's ``decision.notes``): what the
    Guild Cards on offer give, what a Challenge tests and each Runner's chance, who may
    collect a spell tile."""
    decision = view.get("decision") or {}
    return [Text(str(line), style="cyan") for line in decision.get("notes") or ()]


# --- the hand ------------------------------------------------------------------------------
def volunteer_marks(v: dict[str, Any]) -> str:
    """A Volunteer's marks and Player Bonus in a few words."""
    words = [str(m).capitalize() for m in v.get("marks") or ()]
    words += [f"{a.capitalize()} {d:+d}" for a, d in (v.get("bonus") or {}).items()]
    return ", ".join(words)


def volunteers_table(cards: Iterable[dict[str, Any]]) -> Table:
    """Volunteer cards as a table of stats."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
    t.add_column("Volunteer", no_wrap=True)
    for name in ("D", "Ch", "Bribe", "Loy", "Str", "Brw", "Tgh", "Lug"):
        t.add_column(name, justify="right")
    t.add_column("Marks", overflow="fold")
    for v in cards:
        deck = v.get("deck", "")
        t.add_row(Text(v["name"], style="bold"),
                  Text(DECK_LETTER.get(deck, "?"), style=DECK_STYLE.get(deck, "")),
                  str(v["charm"]), str(v["bribe"]), str(v["loyalty"]), str(v["streetwise"]),
                  str(v["brawl"]), str(v["toughness"]), str(v["luggage_moves"]),
                  volunteer_marks(v))
    return t


def hand(view: View) -> RenderableType:
    """Your Guild Card, Volunteers (stats and marks), Scrolls, Items and Saboteurs."""
    own = view.get("own")
    if own is None or view.get("seat") is None:
        return Text("(You are watching: no hand.)", style="dim")
    me = view["seats"][view["seat"]]
    lines: list[RenderableType] = []
    head = Text.assemble("Your hand (", colour(me["colour"]), ")")
    card = me.get("guild_card")
    if card:
        head.append(" · ")
        head.append(card["name"], style="bold")
        head.append(f" of the {card['guild'].capitalize()}",
                    style=QUADRANT_STYLE.get(card["guild"], ""))
        head.append(" · spells ")
        returned = set(me.get("returned") or ())
        for k, c in enumerate(card["spells"]):
            if k:
                head.append(" ")
            head.append_text(spell(c, True))
            if c in returned:
                head.append(" ✓", style="bold")
    else:
        head.append(" · no Guild Card yet")
    lines.append(head)
    if card:
        lines.append(indented(f"{card['ability']}: {card['ability_text']}", 2, "dim"))
    else:
        lines += offered_cards(view)
    volunteers = list(own.get("hand") or ())
    if volunteers:
        lines.append(volunteers_table(volunteers))
        lines += volunteer_lines(volunteers)
    else:
        lines.append(Text("  No Volunteers.", style="dim"))
    for title, key in (("Scrolls", "scrolls"), ("Items", "items")):
        cards = list(own.get(key) or ())
        if not cards:
            continue
        lines.append(Text(f"{title}:", style="bold"))
        for c in cards:
            extra = f", Magic {c['magic_target']}" if c.get("magic_target") else ""
            lines.append(indented(f"{c['name']} (${c['price']}{extra}): {c['text']}", 2))
    saboteurs = list(own.get("saboteurs") or ())
    if saboteurs:
        line = Text("Your Saboteurs: ", style="bold")
        for k, s in enumerate(saboteurs):
            if k:
                line.append("; ")
            line.append(s["quadrant"].capitalize(), style=QUADRANT_STYLE.get(s["quadrant"], ""))
            line.append(f" {s['volunteer']}")
            if s.get("item"):
                line.append(f" with {s['item']}")
        lines.append(line)
    if me.get("kept"):
        lines.append(Text("Kept Fate cards: " + ", ".join(me["kept"])))
    return Group(*lines)


def offered_cards(view: View) -> list[RenderableType]:
    """The Guild Cards a set-up choice offers (the view's ``decision.guild_cards``), each with
    its guild, starting levels, Great Spells and Guild Ability in full (issue 27)."""
    cards = (view.get("decision") or {}).get("guild_cards") or ()
    out: list[RenderableType] = []
    if cards:
        out.append(Text("The Guild Cards you may choose:", style="bold"))
    for c in cards:
        line = Text(c["name"], style="bold")
        line.append(f" of the {c['guild'].capitalize()}",
                    style=QUADRANT_STYLE.get(c["guild"], ""))
        line.append(": " + ", ".join(f"{a.capitalize()} {n}" for a, n in c["start"].items()))
        line.append(" · spells " + ", ".join(x.capitalize() for x in c["spells"]))
        if c.get("fire_water"):
            line.append(f" · {c['fire_water']} Fire Water tokens")
        out.append(Padding(line, (0, 0, 0, 2)))
        test = f" ({c['ability_test']}; {c['defence']})" if c.get("defence") \
            else f" ({c['ability_test']})"
        out.append(indented(f"{c['ability']}{test}: {c['ability_text']}", 4, "dim"))
    return out


def volunteer_lines(volunteers: Iterable[dict[str, Any]]) -> list[RenderableType]:
    """Each Volunteer's numbers in words, then its ability (issue 27: "Charm 10, cannot be
    bribed, Loyalty 4, ..." rather than "Ch10 BriX Loy4")."""
    out: list[RenderableType] = []
    for v in volunteers:
        text = f"{v['name']}: {volunteer_words(v)}."
        if v.get("ability"):
            text += f" {v['ability']}"
        out.append(indented(text, 2, "dim"))
    return out


def indented(text: str, by: int, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(Text(text, style=style), (0, 0, 0, by))


# --- menus ---------------------------------------------------------------------------------
_PLACE_NAMES = sorted((t.name for t in TILES), key=len, reverse=True)
"""Every tile's name, longest first, so a street's name is found whole before the landmark
it names ("the street north of Red Gate" before "Red Gate")."""
_PLACE = re.compile(r"\b(" + "|".join(re.escape(n) for n in _PLACE_NAMES)
                    + r"|Street -?\d+,-?\d+)")


def label(text: str) -> str:
    """An action's text with the quadrant of each tile it names: 'Move to Nap Hill
    (Assassins)'."""
    def where(m: re.Match[str]) -> str:
        try:
            t = tile_named(m.group(1))
        except ValueError:
            return m.group(1)
        if t.kind == "street" and f" {quadrant_of(t)} street " in m.group(1):
            return m.group(1)  # the name says its quadrant already
        inside = m.end() < len(text) and text[m.end()] == ")"
        return f"{m.group(1)} in {quadrant_of(t)}" if inside else f"{m.group(1)} ({quadrant_of(t)})"

    return _PLACE.sub(where, text)


# --- the end -------------------------------------------------------------------------------
def outcome(view: View) -> RenderableType:
    """The end of the game: winners, reason, Great Spells returned."""
    result = view.get("result") or {}
    seats = view.get("seats", [])
    winners = [seats[w]["colour"] for w in result.get("winners", ()) if 0 <= w < len(seats)]
    head = Text("Winner: " if len(winners) == 1 else "Winners: ")
    head.append_text(Text(" and ").join(colour(w) for w in winners) if winners
                     else Text("nobody"))
    reason = str(result.get("reason", "")).replace("_", " ")
    if reason:
        head.append(f" ({reason}).")
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="The end")
    t.add_column("Player")
    t.add_column("Guild Card")
    t.add_column("Spells returned")
    points = result.get("points")
    if points is not None:
        t.add_column("Points", justify="right")
    for i, seat in enumerate(seats):
        card = seat.get("guild_card")
        row: list[Any] = [colour(seat["colour"]), card["name"] if card else "-",
                          Text(", ").join(spell(c) for c in seat.get("returned") or ())
                          or Text("-", style="dim")]
        if points is not None:
            row.append(str(points[i]))
        t.add_row(*row)
    return Group(head, t)


# --- the '?' help --------------------------------------------------------------------------
def describe(entry: dict[str, Any]) -> RenderableType:
    """Any reference entry: a Volunteer, Scroll, Item, Fate card, Guild Card, Dragon, place,
    Great Spell, Wizards' Challenge, Tavern result, Guild Ability or term."""
    name = Text(str(entry.get("name", "?")), style="bold")
    if is_term(entry):
        return Group(name, indented(term_text(entry), 2))
    if "colour" in entry:
        name.append(f" ({entry['colour']} Great Spell)")
        return Group(name, indented(f"On the Guild Cards of {entry['wanted_by']}.", 2))
    if "tests" in entry:
        name.append(f" (Wizards' Challenge {entry['number']})")
        return Group(name, indented(f"Test: {entry['tests']}.", 2))
    if "roll" in entry:
        name.append(f" (Tavern table, roll {entry['roll']})")
        return Group(name, indented(str(entry.get("text", "")), 2))
    if "guild_cards" in entry:
        name.append(f" (Guild Ability of {entry['guild_cards']})")
        return Group(name, indented(str(entry.get("text", "")), 2))
    if "loyalty" in entry:
        deck = entry.get("deck", "")
        name.append(f" ({deck} Volunteer)", style=DECK_STYLE.get(deck, ""))
        card = {"luggage_moves": 0, "bonus": {}, **entry}
        rows: list[RenderableType] = [volunteers_table([card])]
        if entry.get("ability"):
            rows.append(indented(str(entry["ability"]), 2))
        return Group(name, *rows)
    if "magic_target" in entry:
        name.append(f" (Scroll, ${entry['price']}, Magic {entry['magic_target']})")
        return Group(name, indented(str(entry.get("text", "")), 2))
    if "magical" in entry:
        name.append(f" (Item, ${entry['price']}{', magical' if entry['magical'] else ''})")
        return Group(name, indented(str(entry.get("text", "")), 2))
    if "toughness" in entry:
        name.append(f" (Dragon: Brawl {entry['brawl']}, Toughness {entry['toughness']})")
        return name
    if "kind" in entry:
        return describe_place(entry, name)
    if "ability" in entry:
        name.append(" (Guild Card)")
        rows = [name]
        if entry.get("guild") and entry.get("start"):
            rows.append(indented(f"Of the {entry['guild']}; starts with {entry['start']}.", 2))
        return Group(*rows, indented(f"{entry['ability']}: {entry.get('text', '')}", 2))
    name.append(" (Fate card)" if "text" in entry else "")
    return Group(name, indented(str(entry.get("text", "")), 2))


def describe_place(entry: dict[str, Any], name: Text) -> RenderableType:
    """A place or street on the board: its kind and glyph on the map, where it is in words
    (quadrant, what it stands beside, the landmarks near it) and what one does there."""
    try:
        t = tile_named(str(entry["name"]))
    except ValueError:
        return name.append(f" ({entry['kind']})")
    glyph, style = GLYPH.get(t.kind, ("?", ""))
    if t.kind == "spell":
        style = SPELL_STYLE.get(t.colour, "")
    elif t.kind == "start_gate":
        style = GATE_STYLE.get(t.colour, "")
    name.append(f" ({entry['kind']}, {quadrant_of(t)}; ")
    name.append(glyph, style=style)
    name.append(" on the map)")
    rows: list[RenderableType] = [name]
    for key in ("where", "use"):
        if entry.get(key):
            rows.append(indented(str(entry[key]), 2))
    return Group(*rows)
