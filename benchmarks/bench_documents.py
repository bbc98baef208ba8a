"""Cost of the largest games and documents a server accepts (issue 24, points 1 and 4): run
with ``make bench``.

For every registered game: milliseconds of ``new_game`` with every number option at its
maximum (on the Black Keep, on the largest shipped scenario and on the worst scenario within
the limits), then a random game from there (decisions, seconds; at most ``--decisions``).
Then the check of the worst scenario document and the worst deck within the limits, and of
documents just over them and as large as a request body may be (``server.app.MAX_BODY``),
which must be refused at once. Each figure is the median of ``--repeat`` runs on one core.
Speed is claimed here only; the tests make no timed assertion.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import citywatch
from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.core.registry import game_names
from citywatch.core.rng import Rng
from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.hexes import distance, from_offset, label, parse
from citywatch.games.guardians_of_the_city import decks
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CRISIS_CARDS
from citywatch.server.app import MAX_BODY

BLOCKS = 4
"""Tile places across and down the worst scenario: ``scenario.MAX_TILES`` tiles."""
SIZE = 7
"""Columns and rows of a tile."""


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """The median milliseconds of ``fn()`` over ``repeat`` runs."""
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def compact(doc: Any) -> int:
    """Characters of ``doc`` as compact JSON."""
    return len(json.dumps(doc, separators=(",", ":"), ensure_ascii=False))


# -- the worst scenario within the limits -------------------------------------------------------

def _hex(q: int, row: int) -> str:
    return label(from_offset(q, row))


def _tile(bx: int, by: int, vault: bool) -> dict[str, Any]:
    """A full tile at block (bx, by): a green line snaking over all 49 hexes, red arrows round
    its border (24 hexes) with 6 red shields, a crescent, two guards; the edge hexes of the
    map are its outside edge (entry and exit), unless it is the Vault tile."""
    q0, r0 = bx * SIZE, by * SIZE + 1
    snake = [_hex(q0 + c, r0 + (r if c % 2 == 0 else SIZE - 1 - r))
             for c in range(SIZE) for r in range(SIZE)]
    ring = ([_hex(q0 + c, r0) for c in range(SIZE)]
            + [_hex(q0 + SIZE - 1, r0 + r) for r in range(1, SIZE)]
            + [_hex(q0 + c, r0 + SIZE - 1) for c in range(SIZE - 2, -1, -1)]
            + [_hex(q0, r0 + r) for r in range(SIZE - 2, 0, -1)])
    edge = sorted({_hex(q0 + c, r0 + r) for c in range(SIZE) for r in range(SIZE)
                   if (bx == 0 and c == 0) or (by == 0 and r == 0)
                   or (bx == BLOCKS - 1 and c == SIZE - 1)
                   or (by == BLOCKS - 1 and r == SIZE - 1)})
    guards = ([{"role": "vault", "type": "wandering"}, {"role": "roving", "type": "roving"}]
              if vault else
              [{"role": "basic", "type": "patrolling"}, {"role": "hard", "type": "wandering"}])
    at_edge = bool(edge) and not vault
    return {
        "id": f"t{bx}{by}", "name": f"Tile {bx}-{by}",
        "cols": f"{_hex(q0, 1)[:-1]}-{_hex(q0 + SIZE - 1, 1)[:-1]}",
        "rows": f"{r0}-{r0 + SIZE - 1}", "solid": [],
        "outside_edge": edge if at_edge else [], "entry": at_edge, "exit": at_edge,
        "markers": {"crescent": snake[24], "star": snake[0], "shield": snake[-1],
                    "green_line": snake, "red_arrows": ring, "red_shields": ring[::4]},
        "guards": guards,
    }


def worst_scenario() -> dict[str, Any]:
    """The largest scenario this benchmark builds within the limits: ``MAX_TILES`` full tiles
    (every route as long as a tile allows), ``MAX_GUARDS`` guards, a torch on most hexes and
    walls on the sides no route crosses until ``MAX_CHARS`` is nearly reached. It breaks no
    rule."""
    tiles = [_tile(bx, by, vault=(bx, by) == (1, 1)) for by in range(BLOCKS)
             for bx in range(BLOCKS)]
    crown = tiles[BLOCKS + 1]["markers"]["green_line"][10]
    doc: dict[str, Any] = {
        "format": scenario.FORMAT, "id": "w" * scenario.MAX_ID,
        "name": "W" * scenario.MAX_NAME, "summary": "s" * scenario.MAX_SUMMARY,
        "players": {"min": 1, "max": 4}, "dawn": scenario.MAX_DAWN, "advanced": True,
        "tiles": tiles, "walls": [], "special": [], "torches": [],
        "vault": {"tile": tiles[BLOCKS + 1]["id"], "crown": crown, "vault_guard": True},
    }
    used: set[frozenset[str]] = set()
    for tile in tiles:
        for key, closed in (("green_line", False), ("red_arrows", True)):
            route = tile["markers"][key]
            ends = route[1:] + route[:1] if closed else route[1:]
            used.update(frozenset(p) for p in zip(route, ends, strict=False))
    edges = {h for tile in tiles for h in tile["outside_edge"]}
    doc["torches"] = [h for tile in tiles for h in tile["markers"]["green_line"][1::2]
                      if h != crown]
    doc["special"] = [{"hex": tile["markers"]["green_line"][k], "kind": "door"}
                      for tile in tiles for k in (20, 30)
                      if tile["markers"]["green_line"][k] not in edges
                      and tile["markers"]["green_line"][k] != crown
                      and tile["markers"]["green_line"][k] not in doc["torches"]]
    for tile in tiles:
        snake = tile["markers"]["green_line"]
        for a in snake:
            for b in snake:
                pair = frozenset((a, b))
                if a < b and pair not in used and _neighbours(a, b):
                    if compact(doc) + 16 > scenario.MAX_CHARS:
                        return doc
                    doc["walls"].append([a, b])
                    used.add(pair)
    return doc


def _neighbours(a: str, b: str) -> bool:
    """Whether hex labels ``a`` and ``b`` name neighbours."""
    return distance(parse(a), parse(b)) == 1


def over_scenarios(worst: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Scenarios just over a limit, and the largest a request body can carry."""
    tile = copy.deepcopy(worst["tiles"][0])
    tile.update(id="extra", cols="AC-AI")
    bomb = scenario.read("the-vault")
    bomb["tiles"][0]["markers"]["red_arrows"] = ["E4", "F4"] * ((MAX_BODY - 3_500) // 12)
    return {
        "17 tiles": {**worst, "tiles": [*worst["tiles"], tile]},
        "every wall twice (over the size)": {**worst, "walls": [*worst["walls"]] * 2},
        f"a route bomb of {compact(bomb) // 1024} KB": bomb,
    }


# -- the worst deck within the limits -----------------------------------------------------------

def worst_deck() -> dict[str, Any]:
    """The largest deck within the limits: every card design listed once on each side (so
    the rules find 50 and 40 wrong), the longest name, id and plan."""
    return {"id": "i" * decks.MAX_ID, "name": "N" * decks.MAX_NAME,
            "plan": "p" * decks.MAX_PLAN,
            "action": [{"id": c.id, "name": c.name, "count": 1} for c in ACTION_CARDS],
            "crisis": [{"id": c.id, "name": c.name, "count": 1} for c in CRISIS_CARDS]}


def over_decks(worst: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Decks just over a limit, and the reported attack (a 40,000-character name)."""
    return {
        "one entry too many": {**worst, "action": [*worst["action"], worst["action"][0]]},
        "a name one character too long": {**worst, "name": "N" * (decks.MAX_NAME + 1)},
        "the reported 40,000-character name": {**worst, "name": "\u202e" + "x" * 39_998
                                               + "\x00"},
    }


# -- the report ---------------------------------------------------------------------------------

def at_maximum(name: str) -> dict[str, int]:
    """Every number option of game ``name`` at its maximum."""
    return {o.name: int(o.maximum) for o in citywatch.load(name).options
            if not o.choices and o.maximum is not None}


def playout(state: citywatch.State, decisions: int, seed: int) -> tuple[int, float]:
    """Random decisions from ``state`` until the end or ``decisions``: how many, seconds."""
    rng = Rng(seed)
    done = 0
    start = time.perf_counter()
    while state.to_move is not None and done < decisions:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        done += 1
    return done, time.perf_counter() - start


def bot_ms(state: citywatch.State, level: str, decisions: int) -> tuple[float, float]:
    """The bot of difficulty ``level`` plays every seat from ``state`` for ``decisions``
    decisions (or to the end): mean and largest milliseconds per decision."""
    game = state.game
    bot = make_bot(level, game.name)
    rng = Rng(7)
    times: list[float] = []
    while state.to_move is not None and len(times) < decisions:
        seat = state.to_move
        legal = state.legal_actions()
        start = time.perf_counter()
        action = bot.choose(Observation(state, seat), legal, rng) if len(legal) > 1 else legal[0]
        times.append(time.perf_counter() - start)
        state.apply(action)
    return statistics.mean(times) * 1000, max(times) * 1000


def main() -> None:
    """Print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    p.add_argument("--decisions", type=int, default=20_000,
                   help="the most random decisions played after each new_game")
    p.add_argument("--bot-decisions", type=int, default=10,
                   help="decisions timed per difficulty level (normal, hard) after new_game")
    args = p.parse_args()
    worst = worst_scenario()
    assert scenario.problems(worst) == [], scenario.problems(worst)[:3]
    print("new_game with every number option at its maximum (median ms), then random play:")
    for name in game_names():
        game = citywatch.load(name)
        options: dict[str, Any] = at_maximum(name)
        boards: dict[str, dict[str, Any]] = {"": {}}
        if name == "black-keep":
            boards = {" on the-black-keep": {"scenario": "the-black-keep"},
                      " on the worst scenario": {"scenario": worst}}
        for where, extra in boards.items():
            players = game.max_players
            ms = median_ms(partial(game.new_game, players, 1, **options, **extra), args.repeat)
            done, seconds = playout(game.new_game(players, 1, **options, **extra),
                                    args.decisions, 1)
            print(f"  {name}{where} ({players} players; {options or 'no number options'}): "
                  f"{ms:.1f} ms; {done} random decisions in {seconds:.2f} s")
            for level in ("normal", "hard"):
                mean, most = bot_ms(game.new_game(players, 1, **options, **extra), level,
                                    args.bot_decisions)
                print(f"    level {level}: {mean:.0f} ms per decision, at most {most:.0f} ms")
    print(f"\nscenario documents (limit {scenario.MAX_CHARS} characters):")
    print(f"  worst within the limits ({compact(worst)} characters, {len(worst['tiles'])} "
          f"tiles, {sum(len(t['guards']) for t in worst['tiles'])} guards, "
          f"{len(worst['walls'])} walls, {len(worst['torches'])} torches): "
          f"check {median_ms(lambda: scenario.problems(worst), args.repeat):.1f} ms")
    for what, doc in over_scenarios(worst).items():
        found = scenario.problems(doc)
        assert found and all(p.startswith("limit:") for p in found), found[:2]
        print(f"  {what} ({compact(doc)} characters): refused in "
              f"{median_ms(partial(scenario.problems, doc), args.repeat):.2f} ms")
    book = citywatch.load("guardians-of-the-city").type.choice("decks")
    assert book is not None
    deck = worst_deck()
    assert not any(p.startswith(("limit:", "text:")) for p in book.problems(deck))
    print(f"\ndeck documents (limit {decks.MAX_CHARS} characters):")
    print(f"  worst within the limits ({compact(deck)} characters, "
          f"{len(deck['action']) + len(deck['crisis'])} entries): check "
          f"{median_ms(lambda: book.problems(deck), args.repeat):.2f} ms")
    for what, doc in over_decks(deck).items():
        found = book.problems(doc)
        assert found and found[0].startswith(("limit:", "text:")), found[:2]
        print(f"  {what} ({compact(doc)} characters): refused in "
              f"{median_ms(partial(book.problems, doc), args.repeat):.2f} ms")


if __name__ == "__main__":
    main()
