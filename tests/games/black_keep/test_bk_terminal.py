"""Thieves of the Black Keep in the terminal (issue 12, "Terminal"): the map as a readable hex
grid (walls, solid hexes, ways out, torches, guards with facing and status, markers, the
thieves a seat may know of), the thieves, the hand, menus and the end, drawn from one seat's
view (spec 10: who knows what), and whole games played through the real terminal program, solo
and hot-seat co-op."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import bk_positions as bp
import pexpect
from helpers import (
    ANSI,
    PROMPT,
    finish,
    menu_lines,
    menu_numbers,
    play_by_menus,
    play_randomly,
    render,
    spawn_play,
)
from rich.console import Console

from citywatch.core.presentation import summary_of
from citywatch.core.record import Record, replay, start
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.hexes import FACINGS, row_number
from citywatch.games.black_keep.state import BlackKeepState
from citywatch.games.black_keep.terminal import (
    ARROW,
    LIT_BG,
    MARGIN,
    SEEN_BG,
    SEEN_LIT_BG,
    STATUS_LETTER,
    WIDE,
    BlackKeepScreens,
    MapView,
    geometry,
    label,
    legend,
    map_lines,
)
from citywatch.terminal.screens import screens_for

SCREENS = BlackKeepScreens()
N, NE, SE, S, SW, NW = range(6)


def everything(view: dict[str, Any], width: int = 100) -> str:
    """Every screen of ``view``: board, thieves, hand and the compact screen's summary."""
    return "\n".join(render(screen(view), width) for screen in (
        SCREENS.board, SCREENS.players, SCREENS.hand, lambda v: summary_of(SCREENS, v)))


class MapText(list[str]):
    """The plain lines of a map drawn with labels (wide cells), and the view's map."""

    def __init__(self, lines: list[str], view: dict[str, Any]) -> None:
        super().__init__(lines)
        self.geo = geometry(view["map"])


def map_text(view: dict[str, Any], width: int = 100) -> MapText:
    """The map alone (drawn from the view's map), as plain lines."""
    return MapText(render(MapView(view), width).splitlines(), view)


def find(lines: MapText, name: str) -> tuple[int, int]:
    """(line, column) of hex ``name``'s top line in a map of wide cells (under the letters
    line); its label, when shown, stands there and nowhere else."""
    geo = lines.geo
    q, r = next(h for h, text in geo.floor.items() if text == name)
    y, x = 1 + geo.top_line(q, row_number((q, r))), MARGIN + (WIDE + 1) * (q - geo.q_min) + 1
    hits = [(i, m.start()) for i, line in enumerate(lines)
            for m in re.finditer(rf"(?<![A-Z0-9]){name}(?![0-9])", line)]
    assert hits in ([], [(y, x)]), f"{name} found at {hits}, not at {(y, x)}"
    return y, x


def at(lines: list[str], y: int, x: int, n: int = 1) -> str:
    """``n`` characters of the map from (y, x), spaces past a line's end."""
    return lines[y][x:x + n].ljust(n) if 0 <= y < len(lines) else " " * n


def content(lines: MapText, name: str) -> str:
    """What stands on a hex: its top line without its label, then its bottom line."""
    y, x = find(lines, name)
    return at(lines, y, x, 3).replace(name, "", 1).strip() + at(lines, y + 1, x, 3)


def bottom(lines: MapText, name: str) -> str:
    """A hex's bottom line (``___`` where its south side is a wall)."""
    y, x = find(lines, name)
    return at(lines, y + 1, x, 3)


def guard_row(text: str, number: int) -> str:
    """The board's line for guard ``number``."""
    found = [line for line in text.splitlines() if re.match(rf"\s*{number} [A-Z]+\d+ ", line)]
    assert len(found) == 1, text
    return found[0]


def row(text: str, heading: str) -> str:
    """The line of the thieves' table that starts with ``heading``."""
    found = [line for line in text.splitlines() if line.startswith(heading + " ")]
    assert found, f"no {heading!r} row in:\n{text}"
    return found[0]


def rivals(where: str = "J1") -> dict[str, Any]:
    """A rivals opening on The Vault: Thief 1 on A4 planning, Thief 2 on ``where`` with every
    start hex still possible as far as the public knows."""
    pos = bp.opening("the-vault", 2, mode="rivals", starts=["A4", "J1"])
    return bp.put_thief(pos, 1, where, possible=["A4", "A5", "D7", "J1", "N5"])


def from_deck(pos: dict[str, Any], *cards: str) -> dict[str, Any]:
    """Take Guard cards out of a position's Guard deck (to give them to a thief)."""
    for card in cards:
        pos["guard_deck"].remove(card)
    return pos


def play(scenario: str, players: int, mode: str, seed: int, steps: int) -> BlackKeepState:
    """A real game after ``steps`` random legal actions (fewer if it ends)."""
    state: BlackKeepState = play_randomly(
        GAME.new_game(players, seed, scenario=scenario, mode=mode), steps, seed)
    return state


def check_sides(lines: MapText, board: Board, name: str) -> None:
    """Every side of every floor hex of ``board`` is drawn blocked exactly where the board
    blocks it and it is no way out: ``/`` or ``\\`` for a sloping side, ``___`` or a solid hex
    for the north and south sides."""
    ways = {(i, f) for tile in board.tiles for i in tile.outside_edge for f in board.off_map[i]}
    checked = 0
    for i, text in enumerate(board.labels):
        y, x = find(lines, text)
        drawn = {NE: at(lines, y, x + 3) == "\\", SE: at(lines, y + 1, x + 3) == "/",
                 SW: at(lines, y + 1, x - 1) == "\\", NW: at(lines, y, x - 1) == "/",
                 S: at(lines, y + 1, x + 2) == "_" or at(lines, y + 2, x + 2) == "░",
                 N: at(lines, y - 1, x + 2) in ("_", "░")}
        for facing, shown in drawn.items():
            blocked = board.step[i][facing] == BLOCKED and (i, facing) not in ways
            assert shown == blocked, f"{name} {text} {FACINGS[facing]}"
            checked += 1
    assert checked == 6 * board.size
    assert any(f in board.off_map[i] for i, f in ways)


# --- the map -------------------------------------------------------------------------------
def test_the_map_draws_every_wall_solid_hex_and_way_out() -> None:
    """Spec 2.6: walls, solid hexes and the map edge block; spec 2.9, 6.7: thieves leave
    across the map edge of an outside edge hex. A blocked side is drawn (/ or \\ for a sloping
    side, ___ or a solid hex for the north and south sides), an open side and a way out are
    gaps."""
    for name in scenarios.names():
        board = scenarios.load(name)
        view = copy.deepcopy(GAME.new_game(1, 1, scenario=name).view(0))
        view["guards"], view["markers"] = [], []
        lines = map_text(view)
        assert sum(line.count("░░░") for line in lines) == 2 * len(board.solid)
        check_sides(lines, board, name)


def test_nothing_is_drawn_over_a_wall_and_pieces_sit_inside_their_hexes() -> None:
    """Spec 2.6 (walls block) and issue 28 ("the thief's token is drawn over a wall in the
    terminal map"): at 80 columns (wide cells for the Tutorial and The Vault, narrow ones for
    The Black Keep), Thief 1 and a guard on a hex walled to the south and beside another wall,
    a Thief Marker on every other hex walled to the south: every wall is still drawn whole
    (``/``, ``\\``, the whole bottom line ``___``), and each piece's mark stands inside its
    own hex's cell, on its top line."""
    for name in scenarios.names():
        board = scenarios.load(name)
        view = copy.deepcopy(GAME.new_game(1, 1, scenario=name).view(0))
        geo = geometry(view["map"])
        inside = WIDE if geo.width(WIDE) <= 80 else 2
        walled = [h for h in geo.floor if geo.side(h, S) == "wall"]
        beside = next(h for h in walled if sum(geo.side(h, f) == "wall" for f in range(6)) > 1)
        thief = geo.floor[beside]
        view["thieves"][0].update(hex=thief, standing="in play")
        view["guards"] = [{**view["guards"][0], "hex": thief, "placed": True, "facing": "N",
                           "status": "bored", "sees": []}]
        view["markers"] = [{"hex": geo.floor[h], "order": k}
                           for k, h in enumerate(walled) if h != beside]
        lines = render(MapView(view), 80).splitlines()
        assert all(len(line) <= 80 for line in lines)
        for h, text in geo.floor.items():
            y = 1 + geo.top_line(h[0], row_number(h))
            x = MARGIN + (inside + 1) * (h[0] - geo.q_min) + 1
            i = board.labels.index(text)
            drawn = {NE: at(lines, y, x + inside) == "\\", SE: at(lines, y + 1, x + inside) == "/",
                     SW: at(lines, y + 1, x - 1) == "\\", NW: at(lines, y, x - 1) == "/",
                     S: at(lines, y + 1, x, inside) == "_" * inside
                     or at(lines, y + 2, x, inside) == "░" * inside,
                     N: at(lines, y - 1, x, inside) in ("_" * inside, "░" * inside)}
            for facing, shown in drawn.items():
                ways = (i, facing) in {(k, f) for tile in board.tiles for k in tile.outside_edge
                                       for f in board.off_map[k]}
                blocked = board.step[i][facing] == BLOCKED and not ways
                assert shown == blocked, f"{name} {text} {FACINGS[facing]}"
            cell = at(lines, y, x, inside)
            if h == beside:
                assert cell.startswith("1↑B"[:inside]), (name, text, cell)
            elif h in walled:
                assert "!" in cell, (name, text, cell)

def test_guards_show_their_facing_and_status() -> None:
    """Spec 4.1, 4.2: every guard's hex, facing and status are public; the map shows an arrow
    and the status letter, the list under it the words."""
    for k, status in enumerate(STATUS_LETTER):
        facing = FACINGS[k % 6]
        extra: dict[str, Any] = {} if status == "bored" else {
            "home": {"hex": "F4", "route": {"position": 0, "direction": 1}, "facing": "NE"}}
        if status in ("alert", "pursuing"):
            extra["target"] = "D5"
        pos = bp.put_guard(rivals(), 1, "E4", facing, status=status, **extra)
        view = bp.load(pos).view(0)
        assert content(map_text(view), "E4").startswith(ARROW[facing] + STATUS_LETTER[status])
        line = guard_row(render(SCREENS.board(view)), 1)
        assert re.search(rf"E4\s+{ARROW[facing]} {facing}\s+{status.capitalize()}", line), line
        assert "Gatehouse stationary guard (bow, key, 2 coins)" in line
    text = render(SCREENS.board(bp.load(rivals()).view(0)))
    assert re.search(r"3 -\s+waits for the vault\s+Vault wandering guard", text)
    assert "Guards (↑B faces N, Bored):  B Bored  I Interested  A Alert  P Pursuing  " \
           "R Returning  D Distracted" in text


def test_torches_markers_the_crown_and_doors_are_on_the_map() -> None:
    """Spec 2.7 (Special Hexes), 2.8 (torches and Extinguished Torch counters), 4.6 (Thief
    Markers), 2.9 (the crown)."""
    pos = rivals()
    pos["extinguished"] = ["C1"]
    pos["markers"] = {"D5": 0, "K12": 1}
    pos["markers_placed"] = 2
    view = bp.load(pos).view(0)
    lines = map_text(view)
    assert "x" in content(lines, "C1") and "*" not in content(lines, "C1")
    assert all("*" in content(lines, t) for t in ("A3", "B7", "K8", "K14", "N6"))
    assert "!" in content(lines, "D5") and "!" in content(lines, "K12")
    assert "$" in content(lines, "K11")
    assert "+" in content(lines, "K9") and "#" in content(lines, "K13")
    text = render(SCREENS.board(view))
    assert "Thief Markers: D5, K12 · Torches out: C1 · On the crown: 3 treasures" in text
    assert "Ways in and out: Gatehouse A4 A5 D7 (exit of Thief 1, Thief 2) · Great Hall " \
           "J1 N5\n" in text


def legend_keys(view: dict[str, Any]) -> list[tuple[str, str]]:
    """The legend's (symbol, meaning) pairs as the board screen prints them: the thieves and
    marks of its first line, the guards' status letters of its second, the walls of its
    third."""
    first, statuses, walls = (line.plain for line in legend(view))
    keys = []
    for part in first.removeprefix("Thieves: ").split(" · "):
        for item in part.split(", "):
            symbol, _, meaning = item.partition(" ")
            keys.append((symbol, meaning))
    for item in re.split(r" {2,}", statuses.split(":", 1)[1].strip()):
        symbol, _, meaning = item.partition(" ")
        keys.append((symbol, meaning))
    drawn = walls.removeprefix("Walls: ").split(" · ")[0]
    keys += [(symbol, "wall") for symbol in drawn.split()]
    return keys


def test_every_mark_on_the_map_means_one_thing_in_the_legend() -> None:
    """Issue 28 ("no letter means two things"; the legend's D = Distracted clashed with the
    door marks): on a board with two thieves, a guard in every status (spec 4.2), Thief
    Markers (4.6), torches burning and out (2.8), the crown (2.9) and every kind of Special
    Hex (2.7: door, window, grate): every symbol of the legend means one thing, and every mark
    drawn inside a hex, at 100 and at 80 columns, is a symbol of the legend (the facing arrows
    aside: the legend's "↑B faces N" explains them)."""
    pos = bp.opening("the-black-keep", 2, mode="coop")
    pos["extinguished"] = ["C1"]
    view = copy.deepcopy(bp.load(pos).view(0))
    geo = geometry(view["map"])
    special = view["map"]["special"]
    special[next(h for h, kind in special.items() if kind == "door")] = "window"  # none ships
    assert set(special.values()) == {"door", "window", "grate"}
    spots = iter(label for h, label in sorted(geo.floor.items())
                 if label not in special and label not in view["torches"])
    model = view["guards"][0]
    view["guards"] = [{**model, "number": k + 1, "hex": next(spots), "placed": True,
                       "facing": FACINGS[k], "status": status, "sees": []}
                      for k, status in enumerate(STATUS_LETTER)]
    view["markers"] = [{"hex": next(spots), "order": k} for k in range(3)]
    for thief in view["thieves"]:
        thief.update(hex=next(spots), standing="in play")
    keys = legend_keys(view)
    symbols = [symbol for symbol, _ in keys]
    assert len(symbols) == len(set(symbols)), keys
    assert {symbol for symbol, _ in keys} >= {"1", "2", "!", "*", "x", "$", "+", "=", "#",
                                              "░", *STATUS_LETTER.values()}
    meanings = dict(keys)
    assert len({m for s, m in keys if m != "wall"}) == len([s for s, m in keys if m != "wall"])
    for width in (100, 80):
        lines = render(MapView(view), width).splitlines()
        inside = WIDE if geo.width(WIDE) <= width else 2
        drawn: set[str] = set()
        for h, text in geo.floor.items():
            y = 1 + geo.top_line(h[0], row_number(h))
            x = MARGIN + (inside + 1) * (h[0] - geo.q_min) + 1
            top = at(lines, y, x, inside)
            if inside == WIDE and top.startswith(text):
                top = top[len(text):]
            drawn |= set(top + at(lines, y + 1, x, inside)) - {" ", "·", *ARROW.values()}
        assert drawn >= {"1", "2", "!", "$", "+", "=", "#", *STATUS_LETTER.values()}, width
        assert drawn <= set(meanings) | {"_"}, drawn - set(meanings)

def test_lit_hexes_and_hexes_a_guard_sees_are_tinted() -> None:
    """Spec 2.8: a torch lights its hex and every hex within 2 steps; 3.6: what a guard sees
    now. Each hex is tinted by which of the two it is."""
    pos = bp.put_guard(rivals(), 2, "H10", "S", status="interested")
    view = bp.load(pos).view(0)
    board = scenarios.load("the-vault")
    lines = map_lines(view, 3)
    plain = MapText([line.plain for line in lines], view)
    lit = set(view["lit"])
    seen = {h for g in view["guards"] for h in g["sees"]}
    tint = {(True, False): LIT_BG, (False, True): SEEN_BG, (True, True): SEEN_LIT_BG,
            (False, False): None}
    kinds = set()
    for name in board.labels:
        y, x = find(plain, name)
        background = lines[y].get_style_at_offset(Console(), x).bgcolor
        kind = (name in lit, name in seen)
        kinds.add(kind)
        assert (background.name if background else None) == tint[kind], name
    assert kinds == set(tint)


def test_the_map_fits_100_columns_and_shrinks_to_fit_80() -> None:
    """The Black Keep, the biggest scenario (21 columns, 14 rows), fits 100 columns with
    labels; at 80 columns the cells shrink and the labels go."""
    s = play("the-black-keep", 1, "coop", 3, 6)
    wide = render(SCREENS.board(s.view(0)), 100)
    assert all(len(line) <= 100 for line in wide.splitlines())
    assert "/K11\\" in wide or " K11 " in wide or "K11" in wide
    narrow = render(SCREENS.board(s.view(0)), 80)
    assert all(len(line) <= 80 for line in narrow.splitlines())
    letters = next(line for line in narrow.splitlines() if line.strip().startswith("A  B  C"))
    assert letters.split() == [chr(65 + q) for q in range(21)]
    assert not re.search(r"[A-U]1[0-4]\b", render(MapView(s.view(0)), 80))


def test_a_scenario_of_ones_own_is_drawn_too() -> None:
    """Spec 11: a scenario file read by this program has its map drawn like a shipped one."""
    doc = scenarios.read("tutorial")
    doc.update(id="my-keep", name="My Keep", torches=["A6"])
    s = GAME.new_game(1, 1, scenario=doc)
    text = render(SCREENS.board(s.view(0)))
    assert text.startswith("My Keep · round 0 of 20")
    lines = map_text(s.view(0))
    assert "*" in content(lines, "A6") and "*" not in content(lines, "D1")


def test_a_scenario_of_ones_own_with_a_shipped_id_is_drawn_with_its_own_map() -> None:
    """Spec 11: a scenario file of one's own is played on its own map, even with the id and
    name of a shipped one ("tutorial"): its walls and solid hexes are drawn from the view's
    map, not the shipped Tutorial's (spec 2.6: walls and solid hexes block)."""
    doc = scenarios.read("tutorial")
    assert (doc["id"], doc["name"]) == ("tutorial", "Tutorial")
    doc["walls"] = [w for w in doc["walls"] if w != ["A3", "A4"]] + [["C2", "C3"]]
    doc["tiles"][0]["solid"] = [*doc["tiles"][0]["solid"], "B2"]
    own = GAME.new_game(1, 1, scenario=doc)
    shipped = GAME.new_game(1, 1, scenario="tutorial")
    assert own.board is not shipped.board
    mine, theirs = map_text(own.view(0)), map_text(shipped.view(0))
    check_sides(mine, own.board, "own tutorial")
    assert sum(line.count("░░░") for line in mine) == 2 * 3
    assert sum(line.count("░░░") for line in theirs) == 2 * 2
    assert bottom(mine, "C2") == "___" and bottom(theirs, "C2") == "   "
    assert "_" not in bottom(mine, "A3") and bottom(theirs, "A3").startswith("_")
    assert "Ways in and out: Guardroom A1 C1 D7 A7" in render(SCREENS.board(own.view(0)))
    for width in (100, 80):
        assert everything(own.view(0), width) != everything(shipped.view(0), width)


# --- hidden information --------------------------------------------------------------------
def test_a_rival_thief_is_never_shown_where_it_is() -> None:
    """Spec 10: in rivals each Location Dial is secret from the other players; the spectator
    sees none. Thief 2 on J1 or on N5, with the same public facts, draws the same screens for
    Thief 1 and for the spectator; Thief 2's own screens differ."""
    here, there = bp.load(rivals("J1")), bp.load(rivals("N5"))
    for seat in (0, None):
        for width in (100, 80):
            assert everything(here.view(seat), width) == everything(there.view(seat), width)
    mine = everything(here.view(1))
    assert mine != everything(there.view(1))
    assert re.search(r"Where\s+A4 \(hidden among 5\)\s+hidden among 5 hexes",
                     row(render(SCREENS.players(here.view(0))), "Where"))
    assert re.search(r"Where\s+hidden among 5 hexes\s+J1 \(hidden among 5\)",
                     row(render(SCREENS.players(here.view(1))), "Where"))
    assert content(map_text(here.view(0)), "J1").strip() == ""
    assert "2" in content(map_text(here.view(1)), "J1")
    assert "Thieves: 1 Thief 1 ·" in render(SCREENS.board(here.view(0)))
    spectator = render(SCREENS.board(here.view(None)))
    assert "Thieves: none on the map you may see" in spectator
    assert content(map_text(here.view(None)), "A4").strip() == ""


def test_in_coop_every_thief_is_shown() -> None:
    """Spec 10: in solo and co-op all thief information is shared by the players."""
    pos = bp.opening("the-vault", 2, mode="coop", starts=["A4", "J1"])
    view = bp.load(pos).view(0)
    lines = map_text(view)
    assert "1" in content(lines, "A4") and "2" in content(lines, "J1")
    assert re.search(r"Where\s+A4 \(hidden among 5\)\s+J1 \(hidden among 5\)",
                     row(render(SCREENS.players(view)), "Where"))


# --- the thieves and the hand --------------------------------------------------------------
def test_every_thief_shows_wounds_coins_cards_items_treasure_and_exit() -> None:
    """Spec 6.1: wounds, coins, Guard cards, Lockpicks, keys, one treasure, the Exit card;
    the discard pile is face up (6.2)."""
    pos = bp.put_thief(from_deck(rivals(), "Art", "Lockpicks"), 0, "A4", wounds=2, coins=1,
                       guard_cards=["Art"], lockpicks=True, keys=["hall"], treasure="Armour",
                       armour_used=True, hiding=True, discard=["Move NE/SE", "Hide"],
                       hand=["Move N/NE", "Move SE/S", "Move S/SW", "Move SW/NW", "Move NW/N",
                             "Run", "Rest", "Pick Pocket"])
    pos["treasures"].remove("Armour")
    view = bp.load(pos).view(1)
    text = render(SCREENS.players(view))
    assert "Thief 1 *" in text and "Thief 2 (you)" in text
    assert re.search(r"Where\s+A4 \(known to all\), hiding\s+J1 \(hidden among 5\)", text)
    assert re.search(r"Wounds left\s+■■ 2\s+■■■ 3", text)
    assert re.search(r"Coins\s+1\s+4", text)
    assert "8 in hand; discarded Move NE/SE, Hide" in text
    assert re.search(r"Guard cards\s+Art, Lockpicks, key \(Great Hall\)\s+-", text)
    assert re.search(r"Treasure\s+Armour \(worth 3\) used\s+-", text)
    assert re.search(r"Exit card\s+Gatehouse\s+Gatehouse", text)
    assert "Round 1 of 30: after round 30 dawn comes" in text


def test_the_hand_shows_cards_plan_guard_cards_and_the_market() -> None:
    """Spec 6.2 (ten thief cards), 7.2 (the plan, secret until the reveal: citywatch ruling
    16), 6.5 (Guard cards, the market)."""
    pos = bp.put_thief(from_deck(rivals(), "Art"), 0, "A4", guard_cards=["Art"])
    s = bp.load(pos)
    text = render(SCREENS.hand(s.view(0)))
    assert "Your thief cards (Thief 1): Move N/NE NE/SE SE/S S/SW SW/NW NW/N · Run" in text
    assert "Guard card Art: A Bored guard within 3 hexes becomes Distracted." in text
    s.apply(next(a for a in s.legal_actions() if str(a).startswith("Play Hide")))
    assert "Your plan: " in render(SCREENS.hand(s.view(0)))
    assert "Your plan" not in render(SCREENS.hand(s.view(1)))
    assert "(You are watching: no hand.)" in render(SCREENS.hand(s.view(None)))
    buying = GAME.new_game(1, 2, scenario="tutorial")
    buying.apply(buying.legal_actions()[0])
    view = buying.view(0)
    assert view["decision"]["task"] == "buy a Guard card or none"
    text = render(SCREENS.hand(view))
    assert "The market (you have 4 coins):" in text
    for name in view["market"]:
        assert name in text


def test_every_menu_line_reads_as_english() -> None:
    """Every decision's lines are the actions' own sentences (cards as menus), with labels
    and names, never numbers or field names."""
    seen = set()
    for seed, (scenario, players, mode) in enumerate(
            [("tutorial", 1, "coop"), ("the-vault", 2, "coop"), ("the-black-keep", 3, "rivals"),
             ("the-black-keep", 1, "coop")]):
        for a, line in menu_lines(GAME.new_game(players, seed, scenario=scenario, mode=mode),
                                  seed, label):
            seen.add(a.verb)
            assert re.fullmatch(r"[A-Z][a-z]+( [^ ]+)*", line), line
            assert not re.search(r"_|\{|None|-1\b", line), line
    assert {"start", "buy", "no_buy", "move", "run", "hide", "rest"} <= seen


def test_the_outcome_names_the_winners_or_nobody() -> None:
    """Spec 9: solo and co-op win by escaping with real treasure; otherwise nobody wins."""
    s = play("tutorial", 1, "coop", 2, 400)
    assert s.to_move is None
    view = s.view(0)
    text = render(SCREENS.outcome(view))
    assert "The end" in text and str(view["result"]["reason"]) in " ".join(text.split())
    assert ("Nobody wins" in text) == (not view["result"]["winners"])
    view = copy.deepcopy(view)
    view["result"] = {"winners": [0], "reason": "Thief 1 escaped with the Eye",
                      "points": [8]}
    view["thieves"][0].update(standing="escaped", treasure="Eye")
    text = render(SCREENS.outcome(view))
    assert "Winner: Thief 1 (Thief 1 escaped with the Eye)." in text
    assert re.search(r"Thief 1\s+escaped\s+Eye \(worth 5\)\s+\d+\s+8", text)


def test_help_describes_an_entry() -> None:
    text = render(SCREENS.describe({"name": "Hip Flask", "cost": 2}))
    assert "Hip Flask" in text and "Bored or Interested guard within 2 hexes" in text
    assert "cost: 2" in text


def test_the_game_offers_these_screens() -> None:
    assert isinstance(screens_for(GAME), BlackKeepScreens)


# --- through a real terminal ---------------------------------------------------------------
HAND_OVER = "press Enter when nobody else is looking."


def spawn(tmp_path: Path, seats: str, scenario: str, seed: int, *more: str) -> pexpect.spawn:
    return spawn_play(tmp_path, "black-keep", "--seats", seats, "--scenario", scenario,
                      "--seed", str(seed), *more)


def finish_the_game(child: pexpect.spawn) -> str:
    end = finish(child)
    assert "Winner" in end or "Nobody wins" in end
    return end


def test_play_a_solo_game_on_the_black_keep_to_the_end(tmp_path: Path) -> None:
    """A person plays The Black Keep alone through the menus to the end with the full screen
    (``--screen full``, issue 16): every screen shows the map, the guards, the thief and its
    cards, fits 100 columns, and shows the thief where it is."""
    child = spawn(tmp_path, "you", "the-black-keep", 3, "--screen", "full")
    screens = play_by_menus(child, 3, board="Ways in and out: Gatehouse A4 A5 D7",
                            hand="Your thief cards (Thief 1)")
    finish_the_game(child)

    first = screens[0]
    for part in ("The Black Keep · round 0 of 40 · setting up · solo", "Thieves:", "Guards (",
                 "Walls:", "Gatehouse stationary guard", "Market:", "Where", "Wounds left",
                 "Exit card", "Your thief cards (Thief 1)", "Since your last decision",
                 "Set your Location Dial to A4"):
        assert part in first, part
    assert all(len(line) <= 100 for screen in screens for line in screen.splitlines())

    screens = [screen for screen in screens if "· b: back" not in screen]  # a decision's first
    record = Record.load(next(tmp_path.rglob("*.json")))
    s = start(record)
    shown = 0
    for data in record.actions:
        if s.to_move == 0:
            screen = screens[shown]
            shown += 1
            thief = s.view(0)["thieves"][0]
            where = row(screen, "Where")
            assert where.split()[1] == (thief["hex"] or "not"), where
        s.apply(GAME.action_from_json(data))
    assert s.to_move is None and shown == len(screens) > 2
    assert replay(record).outcome() == s.outcome()


def test_play_hot_seat_coop_with_both_thieves_at_the_keyboard(tmp_path: Path) -> None:
    """Two people share the keyboard in co-op: the keyboard is handed over between them, each
    decides from their own screen with both thieves on the map (spec 10: co-op shares the
    dials), and neither sees the other's plan before the reveal (citywatch ruling 16). Each
    decision's compact screen and its full board ('board', issue 16) are checked."""
    child = spawn(tmp_path, "you,you", "the-vault", 5)
    rng = random.Random(5)
    screens: list[tuple[str, str]] = []
    hand_overs = 0
    while (i := child.expect_exact([PROMPT, "Game over", HAND_OVER])) != 1:
        if i == 2:
            hand_overs += 1
            assert "Pass the keyboard to Thief" in ANSI.sub("", child.before)
            child.sendline("")
            continue
        screen = ANSI.sub("", child.before)
        who = re.search(r"you are (Thief \d)", screen)
        assert who, screen
        child.sendline("board")
        child.expect_exact(PROMPT)
        board = ANSI.sub("", child.before)
        assert "Ways in and out:" in board and "Ways in and out:" not in screen
        screens.append((who.group(1), screen + board))
        child.sendline(str(rng.choice(menu_numbers(screen))))
    finish_the_game(child)

    assert {who for who, _ in screens} == {"Thief 1", "Thief 2"}
    assert hand_overs >= 2
    for who, screen in screens:
        other = "Thief 2" if who == "Thief 1" else "Thief 1"
        assert f"{other} plans:" not in screen
        assert all(len(line) <= 100 for line in screen.splitlines())
    planning = [screen for _, screen in screens if "· planning ·" in screen]
    assert planning
    for screen in planning:
        assert re.search(r"Thieves: 1 Thief 1, 2 Thief 2", screen) or "escaped" in screen
