"""Steps per second of the PettingZoo environment against PettingZoo's classic games.

Every environment is stepped by the same random loop (``last()``, a random legal action
sampled from the action mask, ``step()``; done agents step ``None``), in the same run, and
the ratios are printed. Target: at least as many steps per second as ``texas_holdem_v4``.
Needs the extra ``env`` (``pip install -e '.[env]'``); a classic game that cannot be
imported is reported and left out.
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


def random_loop(env: Any, steps: int, seed: int) -> float:
    """Play whole games with random legal actions until ``steps`` steps; return steps/s."""
    rng = np.random.default_rng(seed)
    done = 0
    game = 0
    start = time.perf_counter()
    while done < steps:
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


def encoding_us(game: str, players: int, seed: int) -> dict[str, float]:
    """Microseconds per observation vector, per action mask, and per engine decision."""
    import citywatch
    from citywatch.core.api import State
    from citywatch.core.rng import Rng
    from citywatch.env import encoding

    observation, action_mask = encoding(game).observation, encoding(game).action_mask
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
        times = timeit.repeat(lambda: [fn(s) for s in states], number=5, repeat=5)
        return min(times) / (5 * len(states)) * 1e6

    return {
        "observation_us": per_call(lambda s: observation(s, s.to_move or 0)),
        "action_mask_us": per_call(action_mask),
        "engine_decision_us": engine,
    }


def main() -> None:
    """Run the loops and print steps per second and ratios."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=20000, help="steps per environment")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--game", help="the game (default: every registered game with an encoding)")
    args = p.parse_args()
    from citywatch.core.registry import game_names, load

    games = [args.game] if args.game else [g for g in game_names()
                                           if load(g).encoding() is not None]
    for game in games:
        compare(game, args)


def compare(game: str, args: argparse.Namespace) -> None:
    """One game's environment against the classic games."""
    from citywatch.env import pettingzoo_env

    ours = random_loop(pettingzoo_env(game, players=args.players), args.steps, args.seed)
    rates: dict[str, float] = {}
    for name in CLASSIC:
        env = classic_env(name)
        if env is not None:
            rates[name] = random_loop(env, args.steps // 4 if name == "chess_v6" else args.steps,
                                      args.seed)
    parts = encoding_us(game, args.players, args.seed)
    if args.json:
        print(json.dumps({"game": game, "steps_per_second": round(ours),
                          "classic_steps_per_second": {k: round(v) for k, v in rates.items()},
                          **{k: round(v, 2) for k, v in parts.items()}}))
        return
    label = f"{game} ({args.players} players)"
    print(f"{label:<28}{ours:10.0f} steps/s")
    for name, rate in rates.items():
        target = "   (target >= 1.0)" if name == "texas_holdem_v4" else ""
        print(f"{name:<28}{rate:10.0f} steps/s   {game} / {name}: "
              f"{ours / rate:5.2f}{target}")
    print(f"observation vector  microseconds  : {parts['observation_us']:8.2f}")
    print(f"action mask         microseconds  : {parts['action_mask_us']:8.2f}")
    print(f"engine decision     microseconds  : {parts['engine_decision_us']:8.2f}"
          "   (legal_actions + apply)")


if __name__ == "__main__":
    main()
