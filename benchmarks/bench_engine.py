"""Speed of each registered game's forward model on one core: run with ``make bench``.

For every game in the registry (or only ``--game NAME``) prints random games per second (with
the seats of ``targets.json``, else the game's most players, or ``--players``), decisions per
second (legal_actions + apply), microseconds per copy() and per determinize(), and ISMCTS
iterations per second (``DEFAULT_SEARCH``, and the search of each difficulty level with its
seconds per decision), each beside its target from ``targets.json``.
"""

from __future__ import annotations

import argparse
import json
import time
import timeit
from pathlib import Path
from typing import Any

import citywatch
from citywatch.core.registry import game_names
from citywatch.core.rng import Rng


def random_games(game_name: str, players: int, games: int, seed: int,
                 digest: Any = None) -> tuple[float, float, list[citywatch.State]]:
    """Play random games; return games/s, decisions/s and some mid-game states. With a
    ``hashlib`` object as ``digest``, every action taken and every outcome is fed to it (so
    two builds of the engine can be shown to play the same games, issue 32): after the
    clock stops, since writing them out costs the same in every engine."""
    game = citywatch.load(game_name)
    samples: list[citywatch.State] = []
    played: list[Any] = []
    keep = played.append if digest is not None else None
    decisions = 0
    start = time.perf_counter()
    for k in range(games):
        state = game.new_game(players=players, seed=seed + k)
        rng = Rng(seed + k)
        while state.to_move is not None:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            if keep is not None:
                keep(action)
            state.apply(action)
            decisions += 1
            if decisions % 97 == 0 and len(samples) < 200:
                samples.append(state.copy())
        if keep is not None:
            keep(state.outcome())
    elapsed = time.perf_counter() - start
    if digest is not None:
        for item in played:
            digest.update(repr(item).encode())
    return games / elapsed, decisions / elapsed, samples


def per_call_us(fn: object, states: list[citywatch.State], repeat: int = 5) -> float:
    """Best-of-``repeat`` mean microseconds of ``fn(state)`` over ``states``."""
    number = 20
    times = timeit.repeat(lambda: [fn(s) for s in states], number=number, repeat=repeat)  # type: ignore[operator]
    return min(times) / (number * len(states)) * 1e6


def entry_points(state: citywatch.State) -> dict[tuple[str, int, str], str]:
    """The profile keys (file, line, function) of the calls ISMCTS makes into the game: the
    state's ``determinize``, ``copy``, ``legal_actions``, ``apply`` and the game's ``evaluate``."""
    owners = {"determinize": state, "copy": state, "legal_actions": state, "apply": state,
              "evaluate": state.game}
    keys = {}
    for name, owner in owners.items():
        code = getattr(getattr(type(owner), name, None), "__code__", None)
        if code is not None:
            keys[(code.co_filename, code.co_firstlineno, code.co_name)] = name
    return keys


DEFAULT_SEARCH = "ismcts:iterations=300:depth=12"
"""The search measured in every game (random playouts unless the game's options say else)."""


def ismcts_speed(game_name: str, states: list[citywatch.State], spec: str = DEFAULT_SEARCH,
                 profile: bool = True, digest: Any = None) -> tuple[float, float, dict[str, float]]:
    """ISMCTS iterations per second and seconds per decision of the bot ``spec`` on mid-game
    positions, and (with ``profile``) where the time goes. With a ``hashlib`` object as
    ``digest``, every action the bot chooses is fed to it (issue 32: the same choices)."""
    import cProfile
    import pstats

    from citywatch.bots import Observation, make_bot

    bot = make_bot(spec, game_name)
    iterations = int(getattr(bot, "iterations", 0))
    positions = [s for s in states if s.to_move is not None][:10]
    start = time.perf_counter()
    for s in positions:
        choice = bot.choose(Observation(s, s.to_move or 0), s.legal_actions(), Rng(1))
        if digest is not None:
            digest.update(repr(choice).encode())
    elapsed = time.perf_counter() - start
    per_decision = elapsed / max(1, len(positions))
    if not profile:
        return iterations * len(positions) / elapsed, per_decision, {}
    profiler = cProfile.Profile()
    profiler.enable()
    for s in positions:
        bot.choose(Observation(s, s.to_move or 0), s.legal_actions(), Rng(1))
    profiler.disable()
    stats = pstats.Stats(profiler)
    wanted = entry_points(positions[0]) if positions else {}
    cumulative = dict.fromkeys(("determinize", "copy", "legal_actions", "apply", "evaluate"), 0.0)
    total = 0.0
    for key, row in stats.stats.items():  # type: ignore[attr-defined]
        filename, _, function = key
        if key in wanted:
            cumulative[wanted[key]] += row[3]
        if function == "choose" and filename.endswith("ismcts.py"):
            total += row[3]
    shares = {k: v / total for k, v in cumulative.items()} if total else cumulative
    inside = cumulative["determinize"] + cumulative["legal_actions"] + cumulative["apply"] + \
        cumulative["evaluate"]
    shares["bot itself"] = max(0.0, 1 - inside / total) if total else 0.0
    return iterations * len(positions) / elapsed, per_decision, shares


def level_searches(game_name: str) -> dict[str, str]:
    """The ``ismcts`` specs the game's difficulty levels play (``Game.level_spec``), with the
    game's ``search_options`` written out: level -> spec."""
    from citywatch.bots import LEVELS, parse_spec

    game = citywatch.load(game_name)
    out = {}
    for level in LEVELS:
        spec = game.level_spec(level)
        name, options = parse_spec(spec)
        if name == "ismcts":
            merged = {**game.search_options, **options}
            out[level] = ":".join(["ismcts", *(f"{k}={v}" for k, v in merged.items())])
    return out


TARGETS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).with_name("targets.json")).read_text())
"""Per game: the default seats and the targets its issue set (``targets.json``)."""


def bench(game_name: str, players: int | None, games: int, seed: int) -> dict[str, Any]:
    """Measure one game; ``players`` defaults to ``targets.json``'s, else the game's most."""
    game = citywatch.load(game_name)
    if players is None:
        players = TARGETS.get(game_name, {}).get("players", game.max_players)
    if not game.min_players <= players <= game.max_players:
        raise SystemExit(f"{game_name} is for {game.min_players} to {game.max_players} "
                         f"players, not {players}")
    gps, dps, states = random_games(game_name, players, games, seed)
    rng = Rng(99)
    copy_us = per_call_us(lambda s: s.copy(), states)
    det_us = per_call_us(lambda s: s.determinize(s.to_move or 0, rng), states)
    mid = states[len(states) // 3:]
    its, _, shares = ismcts_speed(game_name, mid)
    levels = {}
    for level, spec in level_searches(game_name).items():
        level_its, per_decision, _ = ismcts_speed(game_name, mid, spec, profile=False)
        levels[level] = {"spec": spec, "iterations_per_second": round(level_its),
                         "seconds_per_decision": round(per_decision, 3)}
    return {
        "game": game_name,
        "players": players,
        "ismcts_iterations_per_second": round(its),
        "ismcts_time_shares": {k: round(v, 3) for k, v in shares.items()},
        "ismcts_levels": levels,
        "games_per_second": round(gps, 1),
        "decisions_per_second": round(dps),
        "copy_us": round(copy_us, 2),
        "determinize_us": round(det_us, 2),
        "games": games,
    }


def _target(game: str, key: str, sign: str) -> str:
    value = TARGETS.get(game, {}).get(key)
    return "" if value is None else f"   (target {sign} {value})"


def show(result: dict[str, Any]) -> None:
    """Print one game's figures, with the targets of ``targets.json``."""
    game = result["game"]
    print(f"{game}:")
    print(f"random {result['players']}-player games per second : "
          f"{result['games_per_second']:10.1f}{_target(game, 'games_per_second', '>=')}")
    print(f"decisions per second              : {result['decisions_per_second']:10.0f}"
          f"{_target(game, 'decisions_per_second', '>=')}")
    print(f"copy()        microseconds        : {result['copy_us']:10.2f}"
          f"{_target(game, 'copy_us', '<')}")
    print(f"determinize() microseconds        : {result['determinize_us']:10.2f}")
    print(f"ISMCTS iterations per second      : {result['ismcts_iterations_per_second']:10.0f}"
          f"   ({DEFAULT_SEARCH}){_target(game, 'ismcts_iterations_per_second', '>=')}")
    for level, row in result["ismcts_levels"].items():
        print(f"  level {level:<6} iterations per second: {row['iterations_per_second']:10.0f}"
              f"   ({row['seconds_per_decision']:.3f} s per decision; {row['spec']})"
              f"{_target(game, 'ismcts_iterations_per_second', '>=')}")
    print("ISMCTS time (cumulative; copy is mostly inside determinize):")
    for name, share in result["ismcts_time_shares"].items():
        print(f"  {name:<16}{share:8.1%}")


def main() -> None:
    """Run the benchmark for every registered game (or one) and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", choices=game_names(), help="only this game (default: every game)")
    p.add_argument("--players", type=int,
                   help="seats per game (default: targets.json's, else the game's most)")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object per game, one a line")
    args = p.parse_args()
    for number, name in enumerate([args.game] if args.game else game_names()):
        result = bench(name, args.players, args.games, args.seed)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            if number:
                print()
            show(result)


if __name__ == "__main__":
    main()
