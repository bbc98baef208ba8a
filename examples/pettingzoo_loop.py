"""A citywatch game through the PettingZoo environment: random agents, then ISMCTS in one seat.

Needs the optional extra: ``pip install -e '.[env]'``. Run:
``python examples/pettingzoo_loop.py [--game NAME] [--games 3] [--seed 1]`` (the game: any
registered one with an encoding; ``citywatch games`` lists them).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from citywatch.bots import Observation, make_bot
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng
from citywatch.env import pettingzoo_env


def random_action(obs: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random legal action index, sampled from the action mask."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


def random_games(game: str, games: int, players: int, seed: int) -> None:
    """The plain AEC loop: every agent picks a random legal action."""
    env = pettingzoo_env(game, players=players)
    rng = np.random.default_rng(seed)
    for g in range(games):
        env.reset(seed=seed + g)
        steps = 0
        final: dict[str, tuple[float, dict[str, Any]]] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                final[agent] = (reward, info)
                env.step(None)
                continue
            env.step(random_action(obs, rng))
            steps += 1
        reason = final["player_0"][1]["reason"]
        summary = ", ".join(f"{a} {r:g} ({i['points']} points)"
                            for a, (r, i) in sorted(final.items()))
        print(f"random game {g + 1}: {steps} steps, ended by {reason}; rewards: {summary}")


def ismcts_game(game: str, players: int, seed: int, spec: str = "ismcts:iterations=50") -> None:
    """player_0 is the ISMCTS bot, deciding from its seat's Observation of ``env.state()``."""
    env = pettingzoo_env(game, players=players)
    env.reset(seed=seed)
    bot = make_bot(spec, game)
    bot_rng = Rng(seed)
    rng = np.random.default_rng(seed)
    final: dict[str, tuple[float, dict[str, Any]]] = {}
    decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            env.step(None)
            continue
        if agent == "player_0":
            state = env.state()  # a copy; the bot reads it only through Observation
            choice = bot.choose(Observation(state, 0), state.legal_actions(), bot_rng)
            steps = env.action_steps(choice)  # one index, or a head at a time when factored
            assert obs["action_mask"][steps[0]] == 1
            for step in steps[:-1]:
                env.step(step)
            action = steps[-1]
            decisions += 1
        else:
            action = random_action(obs, rng)
        env.step(action)
    reward, info = final["player_0"]
    print(f"{spec} as player_0 against random agents: {decisions} decisions, reward "
          f"{reward:g}, {info['points']} points, winners {', '.join(info['winners'])}")


def main() -> None:
    """Run both loops and say how long they took."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", default=None, help="the game (default: the first with an encoding)")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = args.game or next(name for name in game_names() if load(name).encoding() is not None)
    start = time.perf_counter()
    random_games(game, args.games, args.players, args.seed)
    ismcts_game(game, args.players, args.seed)
    print(f"done in {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
