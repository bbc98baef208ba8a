"""Issue 27, "Terminal: a map excerpt around your piece (or the reachable places with distance
and what is there) on the decision screen, within 80x24": Guards! Guards!'s compact summary."""

from __future__ import annotations

import contextlib
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from helpers import ANSI, HINT, play_randomly, recording
from helpers import render as render_text
from rich.console import Console

from citywatch.games.guards_guards import excerpt as ex
from citywatch.games.guards_guards.board import WALK
from citywatch.games.guards_guards.data import TILES, tile_named
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.screens import GuardsGuardsScreens
from citywatch.games.guards_guards.terminal import CELL, INITIAL
from citywatch.terminal import app

SCREENS = GuardsGuardsScreens(GAME.reference())
ROWS, COLS = 24, 80
BY_ID = {t.id: t for t in TILES}


def move_views(players: int, seed: int, wanted: int = 3) -> list[dict[str, Any]]:
    """Views of real games at the seat's own move decision, on the map."""
    out: list[dict[str, Any]] = []
    for steps in range(5, 400, 3):
        s = play_randomly(GAME.new_game(players, seed), steps, seed)
        if s.to_move is None:
            continue
        view = s.view(s.to_move)
        if ex.is_moving(view) and ex.seat_tile(view) is not None:
            out.append(view)
            if len(out) == wanted:
                break
    assert out, "no move decision reached"
    return out


def lines_of(thing: Any, height: int) -> list[str]:
    return render_text(thing, COLS, height).rstrip("\n").split("\n")


@pytest.mark.parametrize("players", [2, 6])
def test_the_excerpt_is_centred_on_your_piece_and_never_wider_than_80(players: int) -> None:
    """Issue 27: the map's window has the viewing seat's piece in its middle line and middle
    column, drawn as on the full map (its letter, or the count of a crowd); no line of the
    excerpt is wider than 80 columns, at any height the screen gives it."""
    for view in move_views(players, seed=3):
        here = ex.seat_tile(view)
        assert here is not None
        crowd = sum(s["tile"] == here.id for s in view["seats"])
        me = view["seats"][view["seat"]]["colour"]
        for height in range(1, ex.MOST + 3):
            lines = lines_of(ex.Excerpt(view, here), height)
            assert len(lines) <= min(height, ex.MOST)
            assert all(len(line) <= COLS for line in lines), lines
            if height >= ex.MAP_LEAST:
                middle = (min(height, ex.MOST) - 1) // 2
                cell = lines[middle][ex.RADIUS * CELL:(ex.RADIUS + 1) * CELL]
                assert (INITIAL[me] if crowd == 1 else str(crowd)) in cell, (height, lines)


@pytest.mark.parametrize("players", [2, 6])
def test_the_places_listed_are_those_within_reach_by_walking_steps(players: int) -> None:
    """Issue 27: at the seat's own move the places listed are exactly the tiles its movement
    left reaches (the task's "N spaces left", by walking steps, ``board.WALK``) that hold a
    place, a piece, the Luggage or a menu choice, nearest first, each with its steps."""
    for view in move_views(players, seed=5):
        here = ex.seat_tile(view)
        assert here is not None
        left = ex.steps_left(view)
        assert left is not None and f"({left} space" in view["decision"]["task"]
        listed = ex.places(view, here)
        assert [d for d, _ in listed] == sorted(d for d, _ in listed)
        for steps, t in listed:
            assert steps == WALK[here.index][t.index] <= left
        want = {t.id for t in TILES if t.kind != "street" and t is not here
                and WALK[here.index][t.index] <= left}
        assert want <= {t.id for _, t in listed}
        excerpt = ex.Excerpt(view, here)
        text = "\n".join(lines_of(excerpt, ex.MOST))
        name = here.name if len(here.name) < 30 else here.name[:30]  # a long name is cut
        assert "in reach:" in text and name in text
        shown = excerpt.listing(ex.MOST, 200)[1:]
        for line, (steps, t) in zip(shown, listed, strict=False):
            if "more ('board'" not in line.plain:
                assert re.match(rf"\s*{steps} \S+ {re.escape(t.name)}", line.plain), line.plain


def test_what_is_there_names_decks_shops_spells_gates_players_and_the_luggage() -> None:
    """Issue 27: a place says what is there, from the seat's view: a Volunteer tile its deck
    (and the face-up card), a shop its deck, a spell tile whose Guild Cards want that Great
    Spell, a gate whose it is, the Luggage, the other players there."""
    view = move_views(4, seed=7, wanted=1)[0]
    view["seats"][0]["guild_card"] = {"name": "X", "guild": "fools", "spells": ["red"],
                                      "ability": "", "ability_text": ""}
    volunteer = next(t for t in TILES if t.kind == "volunteer_man_beast")
    assert "Man & Beast Volunteers" in ex.what_is_there(view, volunteer)[0]
    merchant = next(t for t in TILES if t.kind == "merchant")
    assert ex.what_is_there(view, merchant)[0].startswith("Merchant: Odds & Sods (")
    red = tile_named("Red spell tile")
    who = "yours" if view["seat"] == 0 else f"{view['seats'][0]['colour']}'s"
    assert who in ex.what_is_there(view, red)[0]
    gate = BY_ID[view["seats"][1]["gate"]]
    assert any(view["seats"][1]["colour"] in w or "your gate" in w
               for w in ex.what_is_there(view, gate))
    view["luggage"] = volunteer.id
    view["seats"][1 - view["seat"] if view["seat"] < 2 else 0]["tile"] = volunteer.id
    words = ex.what_is_there(view, volunteer)
    assert "the Luggage" in words and len(words) == 3


def test_off_the_map_and_for_a_spectator_the_summary_is_the_whereabouts() -> None:
    """Issue 27: a seat not on the map yet (choosing its Guild Card) and a spectator get the
    players' whereabouts, not an excerpt, and ask no lines of the screen."""
    s = GAME.new_game(3, 1)
    view = s.view(s.to_move)
    assert ex.excerpt(view) is None and SCREENS.summary_least(view) == 0
    assert "in reach:" not in render_text(SCREENS.summary(view), COLS, ROWS)
    later = play_randomly(GAME.new_game(3, 1), 60, 1).view(None)
    assert ex.excerpt(later) is None
    assert " at " in render_text(SCREENS.summary(later), COLS, ROWS)
    assert SCREENS.summary_least(move_views(2, 3, 1)[0]) == ex.LEAST


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (6, 7)])
def test_the_whole_move_screen_fits_80_by_24_with_the_excerpt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, seed: int) -> None:
    """Issue 27, in the terminal's own rendering at 80x24: at each of the person's move
    decisions the compact screen (title, players' table, the excerpt, hand, what happened,
    task, menu, commands) holds at most 23 lines and the prompt, none over 80 columns, and
    shows the map around the piece (at least ``excerpt.LEAST`` lines) and the task."""
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path))
    out = StringIO()
    read, screens = recording(out, [], then=150)
    seats = ",".join(["you"] + ["random"] * (players - 1))
    game = app.new_game("guards-guards", app.parse_seats(seats, None, "random", "guards-guards"),
                        seed, read, Console(file=out, width=COLS, height=ROWS))
    with contextlib.suppress(StopIteration):
        game.run()
    moves = 0
    for screen in screens:
        if HINT not in screen or "spaces left) or act" not in screen:
            continue
        lines = ANSI.sub("", screen).split("\n")
        title = max(i for i, line in enumerate(lines) if "you are " in line and "──" in line)
        lines = lines[title:]
        assert len(lines) <= ROWS and all(len(line) <= COLS for line in lines), screen
        at = next(i for i, line in enumerate(lines) if " at " in line and "in reach:" in line)
        assert at >= 1 + players, "the excerpt is under the players' table"
        if players == 2:  # six players' folded "since your last decision" may leave less
            window = [line for line in lines[at:at + ex.MOST] if len(line) > 23
                      and line[21:23] == "  " and "in reach" not in line[:21]]
            assert len(window) >= ex.LEAST, screen
        moves += 1
    assert moves >= 2
