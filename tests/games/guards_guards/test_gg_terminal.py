"""Guards! Guards! in the terminal: the hex map, players, hand, menus and help, drawn from one
seat's view of a real game (issue: "the board drawn as a readable hex map")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pexpect
import pytest
from helpers import ANSI, PROMPT, play_randomly, spawn_play
from helpers import render as render_text

from citywatch.games.guards_guards.data import (
    RIVER_HEXES,
    TILES,
    UNIVERSITY_HEXES,
    VOLUNTEERS,
    tile_named,
)
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.screens import GuardsGuardsScreens
from citywatch.games.guards_guards.terminal import (
    CELL,
    INITIAL,
    MAP_WIDTH,
    Q_MIN,
    HexMap,
    _line_key,
    label,
)

SCREENS = GuardsGuardsScreens(GAME.reference())


def play(steps: int, seed: int = 1, players: int = 4) -> Any:
    """A real game after ``steps`` random legal actions (fewer if it ends)."""
    return play_randomly(GAME.new_game(players, seed), steps, seed)


def render(thing: Any, width: int = 100, height: int = 40) -> str:
    return render_text(thing, width, height)


def everything(view: dict[str, Any], width: int = 100, height: int = 40) -> str:
    return "\n".join(render(screen(view), width, height) for screen in (
        SCREENS.board, SCREENS.players, SCREENS.hand))


def cell_at(lines: list[str], q: int, r: int, tall: bool) -> str:
    """The three characters drawn for hex (q, r)."""
    keys = [_line_key(t.q, t.r, tall) for t in TILES]
    keys += [_line_key(q2, r2, tall) for q2, r2 in RIVER_HEXES | UNIVERSITY_HEXES]
    y = _line_key(q, r, tall) - min(keys)
    x = (q - Q_MIN) * CELL
    return lines[y][x:x + CELL].ljust(CELL)


def moving_state() -> Any:
    """A real game at a seat's movement decision, with reachable tiles."""
    for steps in range(8, 200):
        s = play(steps, seed=3)
        if s.to_move is None:
            continue
        decision = s.view(s.to_move)["decision"]
        if decision.get("reachable"):
            return s
    pytest.skip("no movement decision reached")


@pytest.mark.parametrize("tall", [True, False])
def test_every_tile_river_and_university_is_drawn(tall: bool) -> None:
    s = play(60)
    view = s.view(0)
    lines = [t.plain for t in HexMap(view).lines(tall)]
    assert max(len(line) for line in lines) <= MAP_WIDTH <= 60
    assert len(lines) == (29 if tall else 15)
    for t in TILES:
        assert cell_at(lines, t.q, t.r, tall).strip(), f"{t.id} is not drawn"
    for q, r in RIVER_HEXES:
        assert cell_at(lines, q, r, tall).strip() == "~"
    for q, r in UNIVERSITY_HEXES:
        assert cell_at(lines, q, r, tall).strip() == "U"
    text = "\n".join(lines)
    assert text.count("~") == len(RIVER_HEXES) and text.count("U") == len(UNIVERSITY_HEXES)
    glyphs = sum(text.count(g) for g in "·=*GHT$t+WLMSCd")
    assert glyphs >= 140, "nearly every tile shows its kind's glyph"
    for name in ("THIEVES", "ASSASSINS", "ALCHEMISTS", "FOOLS"):
        assert name in text


def test_pieces_luggage_and_dragons_stand_on_their_tiles() -> None:
    s = play(120)
    view = s.view(1)
    lines = [t.plain for t in HexMap(view).lines(True)]
    by_id = {t.id: t for t in TILES}
    crowd: dict[str, int] = {}
    for seat in view["seats"]:
        if seat["tile"]:
            crowd[seat["tile"]] = crowd.get(seat["tile"], 0) + 1
    for seat in view["seats"]:
        if seat["tile"]:
            t = by_id[seat["tile"]]
            shown = cell_at(lines, t.q, t.r, True)
            want = INITIAL[seat["colour"]] if crowd[seat["tile"]] == 1 else str(crowd[t.id])
            assert want in shown, (seat["colour"], shown)
    if view["luggage"] and view["luggage"] not in crowd:
        t = by_id[view["luggage"]]
        assert "&" in cell_at(lines, t.q, t.r, True)
    view["dragons"] = {"fools": {"name": "Errol", "brawl": 9, "toughness": 8}}
    lines = [t.plain for t in HexMap(view).lines(True)]
    house = next(t for t in TILES if t.kind == "guild_house" and t.quadrant == 3)
    assert "D" in cell_at(lines, house.q, house.r, True)
    assert "Errol" in render(SCREENS.board(view))


def test_board_fits_100_by_40_beside_its_legend_and_80_by_24_below() -> None:
    view = play(80).view(0)
    wide = render(SCREENS.board(view), 100, 40).splitlines()
    assert all(len(line.rstrip()) <= 100 for line in wide)
    assert len(wide) <= 32
    assert "Luggage" in wide[5] + wide[6] or any("Luggage" in line for line in wide[:30])
    narrow = render(SCREENS.board(view), 80, 24).splitlines()
    assert all(len(line.rstrip()) <= 80 for line in narrow)
    assert len(narrow) <= 26, "the short map and its legend about fill a 24-line terminal"
    for text in (wide, narrow):
        joined = "\n".join(text)
        assert "Guild House" in joined or "Guild" in joined
        for seat in view["seats"]:
            assert seat["colour"] in joined


def test_reachable_tiles_are_highlighted_and_menu_tiles_numbered() -> None:
    s = moving_state()
    seat = s.to_move
    view = s.view(seat)
    decision = view["decision"]
    lines = [t.plain for t in HexMap(view).lines(True)]
    by_id = {t.id: t for t in TILES}
    occupied = {p["tile"] for p in view["seats"]}
    numbered = 0
    for tid in decision["reachable"]:
        t = by_id[tid]
        shown = cell_at(lines, t.q, t.r, True)
        if shown.strip().lstrip("#").isdigit():
            n = int(shown.strip().lstrip("#"))
            numbered += 1
            assert t.name in decision["actions"][n - 1], "the number is the menu choice"
        elif tid not in occupied:
            assert shown.startswith("["), (tid, shown)
    names = [t.name for t in TILES]
    assert numbered or not any(any(n in a for n in names) for a in decision["actions"])
    menu = [SCREENS.label(a) for a in decision["actions"]]
    assert any(re.search(r"\((Thieves|Assassins|Alchemists|Fools)", m) or " in " in m
               for m in menu)


def test_players_table_shows_every_seat_and_levels() -> None:
    s = play(150)
    view = s.view(2)
    text = render(SCREENS.players(view))
    for seat in view["seats"]:
        assert seat["colour"] in text
        if seat["guild_card"]:
            assert seat["guild_card"]["name"].removeprefix("The ") in text
        levels = "/".join(str(seat["effective"][a]) for a in ("magic", "guild", "charm"))
        if seat["levels"] == seat["effective"]:
            assert levels in text
    assert "(you)" in text and "M/G/C" in text and "Sab" in text


def test_hand_names_own_cards_and_never_another_seats_hand() -> None:
    s = play(150)
    for seat in range(s.players):
        view = s.view(seat)
        text = everything(view) + "\n" + everything(view, 80, 24)
        own = view["own"]
        for v in own["hand"]:
            assert v["name"] in text
        for c in own["scrolls"] + own["items"]:
            assert c["name"] in text
        shown = {v["name"] for v in own["hand"]} | {x["volunteer"] for x in own["saboteurs"]}
        for deck in view["volunteer_decks"]:
            shown |= {v["name"] for v in deck["face_up"]} | set(deck["discard"])
        secret = set()
        for other in range(s.players):
            if other != seat:
                secret |= {VOLUNTEERS[v].name for v in s.hand[other]}
                secret |= {VOLUNTEERS[v].name for _, v, _ in s.saboteurs[other]}
        for name in secret - shown:
            assert not re.search(rf"\b{re.escape(name)}\b", text), \
                f"{name}, hidden from seat {seat}, is on its screen"


def test_hand_shows_guild_card_volunteer_stats_and_saboteurs() -> None:
    s = play(150)
    view = s.view(0)
    me = view["seats"][0]
    text = render(SCREENS.hand(view))
    assert "Your hand (" in text
    if me["guild_card"]:
        assert me["guild_card"]["name"] in text and me["guild_card"]["ability"] in text
    if view["own"]["hand"]:
        assert "Loy" in text and "Brw" in text and "Tgh" in text
    view["own"]["saboteurs"] = [{"quadrant": "fools", "volunteer": "Someone Secret",
                                 "item": None}]
    assert "Someone Secret" in render(SCREENS.hand(view))
    assert "your Saboteurs 1" in render(SCREENS.board(view))


def test_a_spectator_sees_the_board_and_no_hand() -> None:
    s = play(100)
    view = s.view(None)
    assert "THIEVES" in render(SCREENS.board(view))
    assert "watching" in render(SCREENS.hand(view))
    assert "Player" in render(SCREENS.players(view))


def test_outcome_names_the_winner() -> None:
    view = play(100).view(0)
    view["result"] = {"winners": [1], "reason": "spells", "points": None}
    text = render(SCREENS.outcome(view))
    assert f"Winner: {view['seats'][1]['colour']}" in text and "The end" in text


def test_label_names_the_quadrant_of_tiles() -> None:
    assert label("Move to Nap Hill") == "Move to Nap Hill (Assassins)"
    street = tile_named("s+5-9").name
    assert label(f"Stop here ({street})") == f"Stop here ({street} in Assassins)"
    # a street named after a landmark of another quadrant says its own; no second quadrant
    across = tile_named("s+1-4").name
    assert across == "the Assassins street north-east of Brass Bridge"
    assert label(f"Move to {across}") == f"Move to {across}"
    # an old record's "Street q,r" still reads as the tile
    assert label("Stop here (Street 5,-9)") == "Stop here (Street 5,-9 in Assassins)"
    assert label("Roll the die") == "Roll the die"


def test_every_reference_entry_is_described() -> None:
    reference = GAME.reference()
    for key, entries in reference.items():
        if not isinstance(entries, list):
            continue
        for entry in entries:
            text = render(SCREENS.describe(entry))
            assert entry["name"] in text, (key, entry["name"])
    nap = next(p for p in reference["places"] if p["name"] == "Nap Hill")
    assert "Assassins" in render(SCREENS.describe(nap))


def test_help_on_a_place_says_where_it_is_in_words() -> None:
    """Issue 27: '? Red Gate' says where the gate is (quadrant, what it stands beside, the
    landmarks near with steps and direction) and what one does there, not coordinates; a
    street's name finds it too."""
    from citywatch.reference import lookup

    reference = GAME.reference()
    gate = lookup(reference, None, "Red Gate")
    assert [e["name"] for e in gate] == ["Red Gate"]
    text = " ".join(render(SCREENS.describe(gate[0])).split())
    assert "q -2" not in text and "Thieves quadrant" in text
    assert "beside the Unseen University's wall" in text
    assert "Green Gate (1 step south)" in text and "Players start here" in text
    street = tile_named("s-2-2").name
    found = lookup(reference, None, street.upper())
    assert [e["name"] for e in found] == [street]
    text = " ".join(render(SCREENS.describe(found[0])).split())
    assert street in text and "Thieves quadrant" in text and "Near: " in text


# --- through a real terminal ---------------------------------------------------------------
@pytest.mark.parametrize(("cols", "rows"), [(100, 40), (80, 24)])
def test_play_guards_guards_in_a_terminal(tmp_path: Path, cols: int, rows: int) -> None:
    """A person's screens in a real terminal at 100x40 and 80x24: the compact screen (the
    players' summary, the hand), help, and the map on demand ('board', issue 16)."""
    child = spawn_play(tmp_path, "guards-guards", "--seats", "you,you", "--seed", "5",
                       rows=rows, cols=cols)
    child.expect_exact("Pass the keyboard")
    child.sendline("")
    child.expect_exact(PROMPT)
    screen = ANSI.sub("", child.before)
    assert "(you)" in screen and "Your hand (" in screen and "THIEVES" not in screen
    assert all(len(line) <= cols for line in screen.splitlines())
    child.sendline("? nap hill")
    child.expect_exact("Nap Hill")
    child.expect_exact(PROMPT)
    child.sendline("board")
    child.expect_exact(PROMPT)
    board = ANSI.sub("", child.before)
    assert "THIEVES" in board and "ALCHEMISTS" in board and "Luggage" in board
    assert all(len(line) <= cols for line in board.splitlines())
    child.sendline("1")
    while child.expect_exact(["Pass the keyboard", PROMPT]) == 1:  # issue 16: a big choice
        child.sendline("1")  # is chosen in steps where its menu does not fit
    child.sendline("")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in ANSI.sub("", child.before or "")
