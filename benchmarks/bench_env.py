"""Steps per second of every game's PettingZoo environment against PettingZoo's classic games.

Every environment is stepped by the same random loop (``last()``, a random legal action
sampled from the action mask, ``step()``; done agents step ``None``), in the same run, for
at least ``--steps`` steps and ``--seconds`` seconds, and the ratios are printed: each game at
each encoding version (a factored version steps once per head asked), against
``tictactoe_v3``, ``texas_holdem_v4`` and ``chess_v6``. Targets (issue 33): the Black Keep's
newest version at least 1,000 steps a second. Needs the extra ``env``; a classic game that
cannot be imported is reported and left out.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
import timeit
import warnings
from typing import Any

import numpy as np

CLASSIC = ("tictactoe_v3", "texas_holdem_v4", "chess_v6")


def random_loop(env: Any, steps: int, seed: int, seconds: float = 0.0) -> float:
    """Play whole games with random legal actions until ``steps`` steps and ``seconds``
    seconds (whichever comes last, a game at a time); return steps/s."""
    rng = np.random.default_rng(seed)
    done = 0
    game = 0
    start = time.perf_counter()
    while done < steps or time.perf_counter() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done += 1
    return done / (time.perf_counter() - start)


def classic_env(name: str) -> Any:
    """``pettingzoo.classic.<name>.env()``, or None with the reason printed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        return module.env()
    except ImportError as exc:
        print(f"{name}: cannot import ({exc}); install 'pettingzoo[classic]==1.27.0' "
              f"or the extra 'env' to compare with it. Skipped.")
        return None


def encoding_us(game: str, players: int, seed: int,
                version: int | None = None) -> dict[str, float]:
    """Microseconds per observation vector, per flat action mask, and per engine decision."""
    import citywatch
    from citywatch.core.api import State
    from citywatch.core.rng import Rng
    from citywatch.env import encoding

    enc = encoding(game, version)
    observation, action_mask = enc.observation, enc.action_mask
    states: list[State] = []
    decisions = 0
    start = time.perf_counter()
    for k in range(20):
        state = citywatch.load(game).new_game(players=players, seed=seed + k)
        rng = Rng(seed + k)
        while state.to_move is not None:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            decisions += 1
            if decisions % 13 == 0:
                states.append(state.copy())
    engine = (time.perf_counter() - start) / decisions * 1e6

    def per_call(fn: Any) -> float:
        times = timeit.repeat(lambda: [fn(s) for s in states], number=2, repeat=3)
        return min(times) / (2 * len(states)) * 1e6

    return {
        "observation_us": per_call(lambda s: observation(s, s.to_move or 0)),
        "action_mask_us": per_call(action_mask),
        "engine_decision_us": engine,
    }


def seats_for(game: str, wanted: int) -> int:
    """``wanted`` seats, brought into the game's range."""
    from citywatch.core.registry import load

    found = load(game)
    return max(found.min_players, min(found.max_players, wanted))


def main() -> None:
    """Run the loops and print steps per second and ratios."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=5000, help="least steps per environment")
    p.add_argument("--seconds", type=float, default=3.0,
                   help="least seconds per environment")
    p.add_argument("--players", type=int, default=4,
                   help="seats (brought into each game's range)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--game", help="the game (default: every registered game with an encoding)")
    args = p.parse_args()
    if not 1 <= args.steps <= 10**7 or not 0 <= args.seconds <= 600:
        p.error("--steps must be 1 to 10,000,000 and --seconds 0 to 600")
    if not 1 <= args.players <= 8:
        p.error("--players must be 1 to 8")
    from citywatch.core.registry import game_names, load
    from citywatch.env import pettingzoo_env

    games = [args.game] if args.game else [g for g in game_names()
                                           if load(g).encoding() is not None]
    if args.game and args.game not in game_names():
        p.error(f"unknown game {args.game}; games: {', '.join(game_names())}")
    classic: dict[str, float] = {}
    for name in CLASSIC:
        env = classic_env(name)
        if env is not None:
            classic[name] = random_loop(env, args.steps // 4 if name == "chess_v6"
                                        else args.steps, args.seed, args.seconds)
    rows: list[dict[str, Any]] = []
    for game in games:
        players = seats_for(game, args.players)
        newest = load(game).encoding()
        assert newest is not None
        for version in range(newest.version + 1):
            env = pettingzoo_env(game, players=players, version=version)
            rate = random_loop(env, args.steps, args.seed, args.seconds)
            parts = encoding_us(game, players, args.seed, version)
            rows.append({"game": game, "players": players, "version": version,
                         "environment": env.metadata["name"],
                         "factored": bool(env.encoding.heads), "steps_per_second": rate,
                         **parts})
    if args.json:
        print(json.dumps({"classic_steps_per_second": {k: round(v) for k, v in classic.items()},
                          "environments": [{k: round(v, 2) if isinstance(v, float) else v
                                            for k, v in row.items()} for row in rows]}))
        return
    names = [n for n in CLASSIC if n in classic]
    print("classic: " + ", ".join(f"{n} {classic[n]:,.0f} steps/s" for n in names))
    header = f"{'environment':<38}{'seats':>5}{'steps/s':>10}" + "".join(
        f"{'/ ' + n.split('_')[0]:>12}" for n in names) + f"{'obs us':>9}{'engine us':>10}"
    print(header)
    for row in rows:
        line = (f"{row['environment']:<38}{row['players']:>5}"
                f"{row['steps_per_second']:>10,.0f}")
        line += "".join(f"{row['steps_per_second'] / classic[n]:>12.2f}" for n in names)
        line += f"{row['observation_us']:>9.0f}{row['engine_decision_us']:>10.1f}"
        print(line)
    print("(a factored version steps once per head asked; the mask of a flat version is built "
          "at every step)")


if __name__ == "__main__":
    main()
