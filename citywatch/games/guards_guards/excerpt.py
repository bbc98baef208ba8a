"""The compact screen's map excerpt of Guards! Guards! (issue 27: "a map excerpt around your
piece on the decision screen, within 80x24").

Left, the short hex map (the full map's cells, glyphs and colours: ``terminal.HexMap``) cut to
a window of ``RADIUS`` columns each side of the viewing seat's piece and as many lines as the
screen gives it, the piece's line in the middle. Right, the places nearest the piece by walking
steps (``board.WALK``): each with its steps, its glyph and name (from the game's data), what is
there (the Volunteer deck and its face-up card, the shop's deck, whose Great Spell a spell tile
holds, whose gate, a Dragon, the Luggage, the players). At the seat's own move, only the tiles
within its movement left (the view's ``decision.reachable``, or from the task's steps left at
the start of the move). Everything is read from one seat's view and the static board.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from citywatch.games.guards_guards.board import WALK, reachable
from citywatch.games.guards_guards.data import (
    DECK_NAMES,
    DECK_SPACES,
    DECKS,
    QUADRANTS,
    TILES,
    Tile,
)
from citywatch.games.guards_guards.terminal import (
    CELL,
    GATE_STYLE,
    GLYPH,
    SPELL_STYLE,
    HexMap,
    _guild_house,
    _line_key,
    _menu_tiles,
    _with_bg,
    piece,
    quadrant_of,
    tile_of,
)

View = dict[str, Any]

RADIUS = 3
"""Map columns drawn each side of the piece's column (7 columns, 21 characters)."""
LEAST = 5
"""The lines the excerpt asks the compact screen to keep at the seat's own move."""
MOST = 9
"""The most lines the excerpt takes (the map's window and the places beside it)."""
GAP = 2
"""Spaces between the map's window and the places."""
MAP_LEAST = 3
"""The fewest lines in which the map's window is drawn (in fewer, the places alone)."""
SIDE_LEAST = 30
"""The narrowest the places are listed beside the map's window."""
NEAR = 4
"""Off a move, the places listed are within this many walking steps."""
MOVE_TASK = re.compile(r"move \((\d+) spaces? left\)")
"""The task of the seat's own move, with its steps left (``turn.Turn.describe``)."""
SHOPS = {"merchant": "odds_and_sods", "temple": "curses_and_cures"}
"""The shop tile kinds and the card decks sold there (``DECK_SPACES``' ``deck``)."""
SHOP_WORDS = {"odds_and_sods": "Odds & Sods", "curses_and_cures": "Curses & Cures"}
KIND_WORDS = {"guild_house": "Guild House", "tavern": "Tavern", "hospital": "Hospital",
              "watch_house": "Watch House", "bridge": "bridge",
              "curry_gardens": "Curry Gardens", "sunshine_sanctuary": "Dragon sanctuary"}
"""What a place of each kind is, in words (streets, shops, gates, spell and Volunteer tiles are
told apart by what is there)."""


def seat_tile(view: View) -> Tile | None:
    """The viewing seat's tile (None for a spectator or a piece not yet on the map)."""
    seat = view.get("seat")
    seats = view.get("seats") or ()
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        return None
    return tile_of(seats[seat].get("tile"))


def steps_left(view: View) -> int | None:
    """The movement the seat has left when the decision is its own move, from the task's
    "move (N spaces left) or act" (``turn.Turn.describe``); None at any other decision."""
    decision = view.get("decision") or {}
    if decision.get("seat") != view.get("colour") or view.get("colour") is None:
        return None
    found = MOVE_TASK.match(str(decision.get("task", "")))
    return None if found is None else int(found.group(1))


def is_moving(view: View) -> bool:
    """Whether the decision is the seat's own move."""
    return steps_left(view) is not None


def in_reach(view: View, here: Tile) -> set[str] | None:
    """The ids of the tiles the seat's movement left reaches from ``here`` (the view's
    ``decision.reachable`` once it moves; at the start of its move, within the steps the task
    gives, ``board.reachable``); None at any other decision."""
    left = steps_left(view)
    if left is None:
        return None
    listed = (view.get("decision") or {}).get("reachable")
    if listed:
        return set(listed)
    return {TILES[i].id for i in reachable(here.index, left)}


def glyph_of(t: Tile) -> Text:
    """A tile's letter as the map draws it (a spell tile's or gate's colour letter too)."""
    glyph, style = GLYPH.get(t.kind, ("?", "bold"))
    if t.kind == "spell":
        return Text(glyph + t.colour[:1], style=SPELL_STYLE.get(t.colour, "bold"))
    if t.kind == "start_gate":
        return Text(glyph, style=GATE_STYLE.get(t.colour, "bold"))
    return Text(glyph, style=style)


def what_is_there(view: View, t: Tile) -> list[str]:
    """What a place holds, in a few words each, as far as the view shows it."""
    words: list[str] = []
    you = view.get("colour")
    seats = view.get("seats") or ()
    if t.kind.startswith("volunteer_"):
        deck = DECK_NAMES[DECKS.index(t.kind.removeprefix("volunteer_"))]
        text = f"{deck} Volunteers"
        for d in view.get("volunteer_decks") or ():
            if d.get("deck") == deck and d.get("face_up"):
                text += f" (up: {d['face_up'][-1]['name']})"
        words.append(text)
    elif t.kind in SHOPS:
        counts = view.get("card_decks") or {}
        left = sum(int(counts.get(space.id, 0)) for space in DECK_SPACES
                   if space.shop == t.index)
        words.append(f"{'Merchant' if t.kind == 'merchant' else 'Temple'}: "
                     f"{SHOP_WORDS[SHOPS[t.kind]]} ({left} cards)")
    elif t.kind == "spell":
        words.append(spell_words(view, t.colour))
    elif t.kind == "start_gate":
        owners = [s["colour"] for s in seats if s.get("gate") == t.id]
        if owners:
            words.append("your gate" if you in owners else "gate of " + ", ".join(owners))
    elif t.kind in KIND_WORDS and KIND_WORDS[t.kind].lower() not in t.name.lower():
        words.append(KIND_WORDS[t.kind])
    dragons = view.get("dragons") or {}
    for quadrant, dragon in dragons.items():
        if quadrant in QUADRANTS and _guild_house(quadrant) == t.id:
            words.append(f"Dragon {dragon['name']} {dragon['brawl']}/{dragon['toughness']}")
    if view.get("luggage") == t.id:
        words.append("the Luggage")
    here = [s["colour"] for s in seats if s.get("tile") == t.id and s["colour"] != you]
    if here:
        words.append(", ".join(here))
    return words


def spell_words(view: View, colour: str) -> str:
    """Whose Guild Cards want this Great Spell and who has returned it: "yours", "yours,
    returned", "Blue's", "nobody's"."""
    you = view.get("colour")
    wanted, returned = [], []
    for s in view.get("seats") or ():
        card = s.get("guild_card") or {}
        who = "yours" if s["colour"] == you else f"{s['colour']}'s"
        if colour in (s.get("returned") or ()):
            returned.append("you" if s["colour"] == you else s["colour"])
        elif colour in (card.get("spells") or ()):
            wanted.append(who)
    text = f"{colour.capitalize()} Great Spell: " + (", ".join(wanted) or "nobody's")
    if returned:
        text += "; returned by " + ", ".join(returned)
    return text


def places(view: View, here: Tile) -> list[tuple[int, Tile]]:
    """(walking steps, tile) of the places worth listing near ``here``, nearest first: at the
    seat's own move the tiles in reach, else those within ``NEAR`` steps; a street only when
    someone or something is on it or the menu names it."""
    reach = in_reach(view, here)
    _, named = _menu_tiles(view)
    busy = {s.get("tile") for s in view.get("seats") or ()} | {view.get("luggage")} | named
    busy |= {_guild_house(q) for q in (view.get("dragons") or {}) if q in QUADRANTS}
    row = WALK[here.index]
    out = []
    for t in TILES:
        if t is here or (t.kind == "street" and t.id not in busy):
            continue
        if (t.id in reach) if reach is not None else row[t.index] <= NEAR:
            out.append((row[t.index], t))
    return sorted(out, key=lambda p: (p[0], p[1].name))


class Excerpt:
    """The map around ``here`` and the places nearest it, side by side, in as many lines as
    the console gives it (``options.max_height``, at most ``MOST``); in fewer than
    ``MAP_LEAST`` lines, the places alone, a line."""

    def __init__(self, view: View, here: Tile) -> None:
        self.view = view
        self.here = here
        self.reach = in_reach(view, here)
        self.places = places(view, here)

    def window(self, height: int) -> list[Text]:
        """The short map's ``height`` lines around the piece, ``RADIUS`` columns each side
        (the tiles in reach bracketed, as on the full map, but no menu numbers: the terminal
        numbers its menu its own way, which the view does not know)."""
        decision = {**(self.view.get("decision") or {}), "actions_json": []}
        if self.reach is not None:
            decision["reachable"] = sorted(self.reach)
        view = {**self.view, "decision": decision}
        cells = HexMap(view).cells()
        q0 = self.here.q
        top = _line_key(q0, self.here.r, False) - (height - 1) // 2
        width = (2 * RADIUS + 1) * CELL
        grid = [[(" ", "")] * width for _ in range(height)]
        for (q, r), cell in cells.items():
            y, x = _line_key(q, r, False) - top, (q - q0 + RADIUS) * CELL
            if 0 <= y < height and 0 <= x < width:
                for k, (ch, style) in enumerate(cell.chars):
                    grid[y][x + k] = (ch, _with_bg(style, cell.background))
        out = []
        for row in grid:
            line = Text(no_wrap=True, overflow="crop")
            for ch, style in row:
                line.append(ch, style=style or None)
            out.append(line)
        return out

    def head(self, width: int) -> Text:
        """Where the piece is and what else is there (cut to fit), then what the places
        listed are, within ``width``."""
        head = Text.assemble(piece(self.view.get("colour") or ""), " at ",
                             (self.here.name, "bold"), f" ({quadrant_of(self.here)})")
        words = what_is_there(self.view, self.here)
        if words:
            head.append(" · " + "; ".join(words))
        label = " · in reach:" if self.reach is not None else " · nearby:"
        head.truncate(max(1, width - len(label)), overflow="ellipsis")
        head.append(label, style="dim")
        return head

    def entry(self, steps: int, t: Tile, whole: bool = True) -> Text:
        """A place: its steps, glyph and name, and (``whole``) what is there."""
        line = Text(f"{steps:>2} " if whole else f"{steps} ", style="bold")
        line.append_text(glyph_of(t))
        line.append(f" {t.name}")
        words = what_is_there(self.view, t)
        if words and whole:
            line.append(" · " + "; ".join(words))
        return line

    def listing(self, height: int, width: int) -> list[Text]:
        """Where the piece is, then the places nearest it, a line each within ``width``
        (the last line says how many more when they do not all fit)."""
        found = self.places
        room = height - 1
        shown = found if len(found) <= room else found[:max(0, room - 1)]
        lines = [self.head(width), *(self.entry(steps, t) for steps, t in shown)]
        if len(shown) < len(found):
            lines.append(Text(f"   … {len(found) - len(shown)} more ('board' shows the map)",
                              style="dim"))
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return lines

    def short(self, height: int, width: int) -> list[Text]:
        """The head and the places, nearest first, run on in ``height`` lines of ``width``."""
        lines = [self.head(width)]
        fresh = True  # the last line has no place yet
        for steps, t in self.places:
            entry = self.entry(steps, t, whole=False)
            if lines[-1].cell_len + 2 + entry.cell_len > width and len(lines) < height:
                lines.append(Text(""))
                fresh = True
            lines[-1].append(" " if fresh else ", ")
            lines[-1].append_text(entry)
            fresh = False
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = max(1, min(MOST, options.max_height))
        side = options.max_width - (2 * RADIUS + 1) * CELL - GAP
        if height < MAP_LEAST or side < SIDE_LEAST:
            yield from self.short(height, options.max_width)
            return
        listing = self.listing(height, side)
        for k, line in enumerate(self.window(height)):
            if k < len(listing):
                line.append(" " * GAP)
                line.append_text(listing[k])
            line.rstrip()
            yield line


def excerpt(view: View) -> Excerpt | None:
    """The excerpt around the viewing seat's piece, or None off the map (set-up, a
    spectator)."""
    here = seat_tile(view)
    return None if here is None else Excerpt(view, here)


def excerpt_least(view: View) -> int:
    """The lines the excerpt asks the compact screen to keep: ``LEAST`` at the seat's own
    move on the map, else none."""
    return LEAST if is_moving(view) and seat_tile(view) is not None else 0

