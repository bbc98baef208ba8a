"""Guards! Guards!: the data loader and the board geometry, checked against the rulings
(``/work/shared/reference/guards-guards/rulings.md``) and the reference ``validate.py``."""

from __future__ import annotations

import collections
import copy
import importlib.util
import json
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from citywatch.games.guards_guards import board, data
from citywatch.games.guards_guards.board import (
    HEX_DISTANCE,
    LUGGAGE_BRANCH_NAMES,
    LUGGAGE_NEXT,
    LUGGAGE_START,
    NEIGHBOURS,
    WALK,
    hex_distance,
    nearest,
    nearest_deck,
    reachable,
    route_quadrants,
    shortest_routes,
    within,
)
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    GUILD_CARDS,
    GUILD_HOUSES,
    HOSPITALS,
    QUADRANTS,
    SPELL_COLOURS,
    SPELL_TILES,
    START_GATES,
    TILES,
    DataError,
    load,
    tile_named,
)

REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "reference" / "guards-guards"
N = len(TILES)


def _raw() -> dict[str, Any]:
    path = resources.files("citywatch.games.guards_guards").joinpath("data", "guards-guards.json")
    with path.open("r", encoding="utf-8") as f:
        raw: dict[str, Any] = json.load(f)
    return raw


RAW = _raw()


@pytest.fixture(scope="module")
def validate() -> ModuleType:
    """The reference checker, imported from the shared folder."""
    path = REFERENCE / "validate.py"
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    spec = importlib.util.spec_from_file_location("gg_validate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ref_board(validate: ModuleType) -> Any:
    """validate.py's own Board and Luggage loops, built from the same JSON."""
    checker = validate.Checker()
    b, loops = validate.check_board(RAW, checker)
    assert checker.errors == []
    return b, loops


# --- the data --------------------------------------------------------------------------------

def test_packaged_json_is_a_copy_of_the_shared_file() -> None:
    shared = REFERENCE / "guards-guards.json"
    if not shared.is_file():
        pytest.skip(f"{shared} is not available")
    packaged = resources.files("citywatch.games.guards_guards").joinpath(
        "data", "guards-guards.json").read_bytes()
    assert packaged == shared.read_bytes()


def test_tile_counts_by_kind_equal_the_json() -> None:
    expected = collections.Counter(t["kind"] for t in RAW["board"]["tiles"])
    assert collections.Counter(t.kind for t in TILES) == expected
    assert [t.id for t in TILES] == [t["id"] for t in RAW["board"]["tiles"]]
    assert all(t.index == i for i, t in enumerate(TILES))


def test_tile_names_are_unique_and_readable() -> None:
    names = [t.name for t in TILES]
    assert len(set(n.lower() for n in names)) == N
    assert tile_named("s+5-9").name == "the street two east of Phedre Road"
    assert TILES[SPELL_TILES[SPELL_COLOURS.index("red")]].name == "Red spell tile"


def test_tile_named_works_by_id_and_by_name() -> None:
    gate = tile_named("gate_red")
    assert gate is tile_named("Red Gate") is tile_named("  red GATE ")
    assert gate.kind == "start_gate" and gate.colour == "red"
    assert tile_named("GUILD_THIEVES").index == GUILD_HOUSES[QUADRANTS.index("thieves")]
    for t in TILES:
        assert tile_named(t.id) is t and tile_named(t.name) is t
    with pytest.raises(ValueError, match="no tile") as err:
        tile_named("The Patrician's Palace")
    assert len(str(err.value)) < 100


def test_border_gates_have_no_quadrant_and_two_borders() -> None:
    for t in TILES:
        if t.quadrant == -1:
            assert t.kind == "start_gate" and len(t.border_of) == 2
        else:
            assert t.border_of == ()


def test_colours_are_the_start_gates_colours() -> None:
    assert len(data.COLOURS) == 6
    assert [TILES[g].colour.capitalize() for g in START_GATES] == list(data.COLOURS)
    assert sorted(TILES[g].index for g in START_GATES) == [
        t.index for t in TILES if t.kind == "start_gate"]


def test_ruling_3_guild_cards_start_on_their_own_gate_or_their_border_gate() -> None:
    """What Players Need, ruling 3: a guild's gates are its own coloured gate and its border
    gate (green for Thieves and Fools, black for Assassins and Alchemists)."""
    for card in GUILD_CARDS:
        assert len(card.gates) == 2
        kinds = sorted("border" if TILES[g].quadrant < 0 else "own" for g in card.gates)
        assert kinds == ["border", "own"]
        for g in card.gates:
            t = TILES[g]
            assert t.kind == "start_gate" and g in START_GATES
            assert t.quadrant == card.guild or card.guild in t.border_of
        assert TILES[card.guild_house].kind == "guild_house"
        assert TILES[card.guild_house].quadrant == card.guild


def test_ruling_72_guild_houses_run_clockwise_thieves_assassins_alchemists_fools() -> None:
    """How Dragons Come into Play, ruling 72: the clockwise order of Guild Houses is Thieves,
    Assassins, Alchemists, Fools."""
    assert QUADRANTS == ("thieves", "assassins", "alchemists", "fools")
    assert [TILES[h].quadrant for h in GUILD_HOUSES] == [0, 1, 2, 3]
    assert all(TILES[h].kind == "guild_house" for h in GUILD_HOUSES)


def test_loaded_values_follow_the_json() -> None:
    raw_v = RAW["volunteers"]
    for v, raw in zip(data.VOLUNTEERS, raw_v, strict=True):
        assert v.id == raw["id"] and data.DECKS[v.deck] == raw["deck"]
        assert v.bribe == (None if raw["bribe"] == "X" else raw["bribe"])
        for s in data.STATS:
            assert v.stat(s) == raw[s]
        assert v.bonus == tuple(raw["player_bonus"].get(a, 0) for a in data.ATTRIBUTES)
    plate = next(i for i in data.ITEMS if i.name == "Iron Breastplate")
    assert plate.bonus_for("toughness") == 3 and plate.bonus_for("streetwise") == -1
    assert plate.bonus_for("brawl") == 0
    assert [t.roll for t in data.TAVERN] == list(range(1, 9))
    assert [c.number for c in data.CHALLENGES] == [1, 2, 3, 4, 5]
    assert data.CONSTANTS["movement"] == 6
    with pytest.raises(TypeError):
        data.CONSTANTS["movement"] = 7  # type: ignore[index]


def test_load_accepts_the_json_as_it_is() -> None:
    game = load(copy.deepcopy(RAW))
    assert game.tiles == TILES and game.guild_cards == GUILD_CARDS


def _corrupt_shop(raw: dict[str, Any]) -> None:
    raw["board"]["deck_spaces"][0]["nearest_shop"] = "no_such_tile"


def _corrupt_fate(raw: dict[str, Any]) -> None:
    raw["fate_cards"][8]["ops"][0]["place"] = "watch_ankh_tower"


def _corrupt_luggage(raw: dict[str, Any]) -> None:
    raw["board"]["luggage"]["track"][1] = "s+99+99"


def _duplicate_tile(raw: dict[str, Any]) -> None:
    raw["board"]["tiles"][1]["id"] = raw["board"]["tiles"][0]["id"]


def _spell_tile_colour(raw: dict[str, Any]) -> None:
    raw["great_spells"][0]["tile"] = "gate_red"


def _guild_house(raw: dict[str, Any]) -> None:
    raw["guilds"][0]["guild_house"] = "guild_fools"


def _missing_section(raw: dict[str, Any]) -> None:
    del raw["volunteers"]


def _tile_in_river(raw: dict[str, Any]) -> None:
    q, r = raw["board"]["river"]["hexes"][0]
    raw["board"]["tiles"][0]["q"], raw["board"]["tiles"][0]["r"] = q, r


@pytest.mark.parametrize(("corrupt", "message"), [
    (_corrupt_shop, "unknown tile id 'no_such_tile'"),
    (_corrupt_fate, "unknown tile 'watch_ankh_tower'"),
    (_corrupt_luggage, "unknown tile id 's\\+99\\+99'"),
    (_duplicate_tile, "used twice"),
    (_spell_tile_colour, "is not the red spell tile"),
    (_guild_house, "is not the thieves Guild House"),
    (_missing_section, "malformed game data"),
    (_tile_in_river, "river"),
])
def test_load_rejects_a_corrupted_copy(corrupt: Any, message: str) -> None:
    raw = copy.deepcopy(RAW)
    corrupt(raw)
    with pytest.raises(DataError, match=message):
        load(raw)


# --- the board -------------------------------------------------------------------------------

def test_neighbours_are_symmetric_adjacent_hexes() -> None:
    for a in range(N):
        assert len(set(NEIGHBOURS[a])) == len(NEIGHBOURS[a])
        for b in NEIGHBOURS[a]:
            assert a in NEIGHBOURS[b]
            assert hex_distance(a, b) == 1


def test_neighbours_match_validate(ref_board: Any) -> None:
    b, _ = ref_board
    for t in TILES:
        assert sorted(TILES[n].id for n in NEIGHBOURS[t.index]) == sorted(b.adj[t.id])


def test_university_and_river_hexes_are_not_walkable() -> None:
    blocked = {tuple(h) for h in RAW["board"]["unseen_university"]["hexes"]}
    blocked |= {tuple(h) for h in RAW["board"]["river"]["hexes"]}
    assert blocked == data.UNIVERSITY_HEXES | data.RIVER_HEXES
    assert not any((t.q, t.r) in blocked for t in TILES)
    # Only bridges cross: without them the city falls into its two halves.
    bridges = {t.index for t in TILES if t.kind == "bridge"}
    start = next(t.index for t in TILES if t.index not in bridges)
    seen = {start}
    todo = [start]
    while todo:
        u = todo.pop()
        for v in NEIGHBOURS[u]:
            if v not in seen and v not in bridges:
                seen.add(v)
                todo.append(v)
    assert len(seen) < N - len(bridges)


def test_every_tile_is_reachable_from_every_other() -> None:
    for a in range(N):
        assert WALK[a][a] == 0
        for b in range(N):
            assert WALK[a][b] == WALK[b][a] >= HEX_DISTANCE[a][b]
            assert (WALK[a][b] > 0) == (a != b)


def test_ruling_17_within_two_is_hex_distance() -> None:
    crossing = 0
    for t in range(N):
        for d in (0, 1, 2, 3):
            expected = tuple(b for b in range(N) if hex_distance(t, b) <= d)
            assert within(t, d) == expected
        crossing += any(WALK[t][b] > 2 for b in within(t, 2))
    assert within(0, 0) == (0,)
    assert crossing > 0  # the ring reaches across the river and the University


def test_ruling_17_hex_distance_matches_validate(validate: ModuleType) -> None:
    for a in TILES:
        for b in TILES:
            assert hex_distance(a.index, b.index) == validate.hex_distance((a.q, a.r), (b.q, b.r))


def test_pixel_matches_validate(validate: ModuleType) -> None:
    for t in TILES:
        assert board.pixel(t.index) == pytest.approx(validate.pixel(t.q, t.r))


def test_reachable_is_walking_distance() -> None:
    for t in (0, START_GATES[0], N - 1):
        for steps in (0, 1, 6, 40):
            got = reachable(t, steps)
            assert got == {b: WALK[t][b] for b in range(N) if WALK[t][b] <= steps}
    assert reachable(START_GATES[0], 0) == {START_GATES[0]: 0}


def test_ruling_34_walk_from_gates_to_spell_tiles_matches_validate(ref_board: Any) -> None:
    b, _ = ref_board
    for gate in START_GATES:
        from_gate = b.bfs(TILES[gate].id)
        for spell in SPELL_TILES:
            assert WALK[gate][spell] == WALK[spell][gate] == from_gate[TILES[spell].id]
    for t in TILES:
        from_t = b.bfs(t.id)
        assert list(WALK[t.index]) == [from_t[u.id] for u in TILES]


def _count_shortest(start: int, goal: int) -> int:
    ways = {goal: 1}
    for u in sorted(range(N), key=lambda x: WALK[x][goal]):
        if u != goal:
            ways[u] = sum(ways.get(v, 0) for v in NEIGHBOURS[u] if WALK[v][goal] < WALK[u][goal])
    return ways[start]


def test_ruling_34_shortest_routes_are_every_shortest_walk() -> None:
    for spell in SPELL_TILES:
        for gate in START_GATES:
            routes = shortest_routes(spell, gate)
            assert routes and len(set(routes)) == len(routes)
            assert len(routes) == _count_shortest(spell, gate)
            for route in routes:
                assert len(route) == WALK[spell][gate] + 1
                assert route[0] == spell and route[-1] == gate
                assert all(v in NEIGHBOURS[u] for u, v in zip(route, route[1:], strict=False))
            assert shortest_routes(spell, gate) == routes  # deterministic
    assert shortest_routes(5, 5) == ((5,),)


def test_ruling_35_route_quadrants_match_validate_run_listing(
        validate: ModuleType, ref_board: Any) -> None:
    b, _ = ref_board
    for gate in START_GATES:
        t = TILES[gate]
        guilds = (t.quadrant,) if t.quadrant >= 0 else t.border_of
        for guild in guilds:
            for spell in SPELL_TILES:
                options = set()
                for route in shortest_routes(spell, gate):
                    quads = route_quadrants(route, guild)
                    assert quads[0] == TILES[spell].quadrant and quads[-1] == guild
                    assert all(x != y for x, y in zip(quads, quads[1:], strict=False))
                    options.add(tuple(sorted(QUADRANTS[q] for q in set(quads))))
                expected = validate.run_quadrants(b, TILES[spell].id, t.id, QUADRANTS[guild])
                assert sorted(list(o) for o in options) == expected


def test_ruling_5_a_border_gate_on_the_way_counts_as_both_quadrants_or_its_owner() -> None:
    green = tile_named("gate_green").index
    red = tile_named("gate_red").index
    yellow = tile_named("gate_yellow").index
    street = tile_named("s-3+2").index
    thieves, fools = QUADRANTS.index("thieves"), QUADRANTS.index("fools")
    assert TILES[street].quadrant == thieves and TILES[green].border_of == (thieves, fools)
    # unowned, the green gate passed on the way counts as Thieves and Fools
    assert route_quadrants((street, green, red), thieves) == (thieves, fools, thieves)
    assert route_quadrants((red, green, yellow), fools) == (thieves, fools)
    # owned, it counts only as its owner's guild quadrant
    assert route_quadrants((street, green, red), thieves, {green: thieves}) == (thieves,)
    assert route_quadrants((street, green, red), thieves, {green: fools}) == (
        thieves, fools, thieves)
    assert route_quadrants((red, green, yellow), fools, {green: thieves}) == (thieves, fools)
    # the runner's own gate at the end counts as their guild only (ruling 35)
    assert route_quadrants((street, green), fools) == (thieves, fools)
    assert route_quadrants((street, green), thieves) == (thieves,)


def test_ruling_79_luggage_track_is_a_cycle_with_one_split(ref_board: Any) -> None:
    _, loops = ref_board
    splits = [t for t in range(N) if len(LUGGAGE_NEXT[t]) == 2]
    assert len(splits) == 1 and all(len(n) <= 2 for n in LUGGAGE_NEXT)
    split = splits[0]
    grey, orange = LUGGAGE_NEXT[split]
    assert dict(LUGGAGE_BRANCH_NAMES) == {(split, grey): "grey", (split, orange): "orange"}
    assert board.on_luggage_track(LUGGAGE_START) and not board.on_luggage_track(HOSPITALS[0])
    rejoins = set()
    for first in (grey, orange):
        name = LUGGAGE_BRANCH_NAMES[(split, first)]
        loop = [split, first]
        while True:
            step = LUGGAGE_NEXT[loop[-1]]
            assert step, f"the track stops at {TILES[loop[-1]].id}"
            if loop[-1] == split:
                break
            loop.append(step[0])
            assert len(loop) <= N
            if len(LUGGAGE_NEXT[loop[-2]]) == 1 and sum(
                    loop[-1] in LUGGAGE_NEXT[u] for u in range(N)) == 2:
                rejoins.add(loop[-1])
        loop.pop()
        assert all(b in NEIGHBOURS[a] for a, b in zip(loop, loop[1:] + loop[:1], strict=True))
        # the same cycle as validate.py's, which checks that it runs clockwise
        expected = [tile_named(x).index for x in loops[name]]
        k = expected.index(split)
        assert loop == expected[k:] + expected[:k]
        assert LUGGAGE_START in loop
    assert len(rejoins) == 1  # both branches come back to the same tile
    predecessors = collections.Counter(v for n in LUGGAGE_NEXT for v in n)
    assert [t for t, c in predecessors.items() if c == 2] == list(rejoins)
    for house in GUILD_HOUSES:
        assert board.on_luggage_track(house)


def test_luggage_paths_follow_the_track() -> None:
    split = next(t for t in range(N) if len(LUGGAGE_NEXT[t]) == 2)
    paths = board.luggage_paths(split, 3)
    assert len(paths) == 2 and [p[0] for p in paths] == list(LUGGAGE_NEXT[split])
    assert board.luggage_paths(LUGGAGE_START, 0) == ((),)
    assert board.luggage_paths(HOSPITALS[0], 2) == ()


def test_ruling_18_nearest_returns_every_tie() -> None:
    watch = data.WATCH_HOUSES
    ties = [t for t in range(N) if len(nearest(t, watch)) == 2]
    assert ties, "some tile is as near to both Watch Houses"
    for places in (HOSPITALS, watch, data.TEMPLES, data.TAVERNS, GUILD_HOUSES, START_GATES):
        for t in range(N):
            best = min(WALK[t][h] for h in places)
            assert nearest(t, places) == tuple(h for h in places if WALK[t][h] == best)
    assert nearest(ties[0], reversed(watch)) == tuple(reversed(watch))
    assert nearest(0, (*NEIGHBOURS[0], START_GATES[0])) == NEIGHBOURS[0]
    assert nearest(0, []) == ()
    assert nearest(0, [0, 0, 5]) == (0,)


def test_ruling_18_nearest_deck_counts_to_its_shop() -> None:
    for kind in ("odds_and_sods", "curses_and_cures"):
        spaces = [d.index for d in DECK_SPACES if d.deck == kind]
        ties = 0
        for t in range(N):
            got = nearest_deck(t, kind)
            best = min(WALK[t][DECK_SPACES[d].shop] for d in spaces)
            assert got == tuple(d for d in spaces if WALK[t][DECK_SPACES[d].shop] == best)
            ties += len(got) == 2
        shop = DECK_SPACES[spaces[0]].shop
        assert nearest_deck(shop, kind) == (spaces[0],)
        assert ties > 0
    with pytest.raises(ValueError, match="unknown deck kind"):
        nearest_deck(0, "fate")
