"""Train MaskablePPO (sb3-contrib) on one seat of a citywatch game against a bot, on the CPU.

Needs the optional extras ``env`` and ``train``: ``pip install -e '.[env,train]'``. Run:
``python examples/train_maskable_ppo.py --game guardians-of-the-city --players 2
--opponent random --timesteps 200000 --out runs/gotc.json --plot runs/gotc.png``.

The learner plays ``citywatch.env.SingleAgentEnv`` (a seat drawn each episode unless
``--seat``); the other seats are the ``--opponent`` bot. After the first PPO update at or
past each multiple of ``--eval-every`` steps, and at the end, the policy plays
``--eval-games`` games against the same opponent (masked actions sampled from the policy,
or its most likely ones with ``--eval-actions deterministic``; no shaping; the same
evaluation seeds each time) and its win rate (the learner's end reward: 1 for a win, a
share of a shared win) is written with its 95% Wilson interval. The JSON holds the options,
the curve and the final point; ``docs/training.md`` explains the conventions.
"""

from __future__ import annotations

import argparse
import json
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium.wrappers import RescaleObservation
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from citywatch.bots import make_bot
from citywatch.cli.arguments import add_options, check_options
from citywatch.core.registry import game_names, load
from citywatch.env import SingleAgentEnv
from citywatch.tournament import wilson

MAX_TIMESTEPS = 10**9
MAX_EVAL_GAMES = 100_000
MAX_SEED = 2**32 - 1
EVAL_SEEDS = 10**9
"""Evaluation game ``i`` is dealt from seed ``EVAL_SEEDS + i``: apart from training's seeds,
and the same games at every evaluation, so points of the curve differ by the policy only."""


def encoded_games() -> list[str]:
    """The registered games that have an encoding (the environment needs one)."""
    return [name for name in game_names() if load(name).encoding() is not None]


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        return value
    return parse


def fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not from 0 to 1")
    return value


def positive_fraction(text: str) -> float:
    """An argparse type: a number above 0 and at most 1."""
    value = fraction(text)
    if value == 0.0:
        raise argparse.ArgumentTypeError("0 is not above 0")
    return value


MAX_LAYERS = 8
MAX_WIDTH = 4096


def layer_sizes(text: str) -> list[int]:
    """An argparse type: 1 to 8 comma-separated layer widths, each from 1 to 4096."""
    parts = text.split(",")
    if not 1 <= len(parts) <= MAX_LAYERS:
        raise argparse.ArgumentTypeError(f"give 1 to {MAX_LAYERS} widths, like 256,256")
    width = whole_number(1, MAX_WIDTH)
    return [width(part.strip()) for part in parts]


def parser() -> argparse.ArgumentParser:
    """The command line's options, each bounded."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=encoded_games(), default="guardians-of-the-city")
    p.add_argument("--players", type=whole_number(1, 99), default=2,
                   help="seats at the table (the game's range)")
    p.add_argument("--seat", type=whole_number(0, 98), default=None,
                   help="the learner's seat (default: drawn each episode)")
    p.add_argument("--opponent", default="random",
                   help="bot spec or level for every other seat: random, easy, normal, hard, "
                        "heuristic, ...")
    p.add_argument("--timesteps", type=whole_number(1, MAX_TIMESTEPS), default=100_000,
                   help="learner steps to train for")
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0)
    p.add_argument("--eval-every", type=whole_number(1, MAX_TIMESTEPS), default=10_000,
                   help="learner steps between evaluations")
    p.add_argument("--eval-games", type=whole_number(1, MAX_EVAL_GAMES), default=200,
                   help="games per evaluation")
    p.add_argument("--shaping", type=fraction, default=0.0,
                   help="weight of potential-based shaped rewards in training (0: off)")
    p.add_argument("--n-steps", type=whole_number(8, 1 << 20), default=2048,
                   help="PPO rollout length (default 2048, capped at --timesteps)")
    p.add_argument("--gamma", type=fraction, default=0.999,
                   help="PPO's discount factor (default 0.999: games of hundreds of decisions)")
    p.add_argument("--ent-coef", type=fraction, default=0.0,
                   help="PPO's entropy bonus (default 0)")
    p.add_argument("--learning-rate", type=positive_fraction, default=3e-4,
                   help="Adam's step size (default 3e-4)")
    p.add_argument("--anneal", action=argparse.BooleanOptionalAction, default=True,
                   help="lower the step size linearly to 0 over the run (default: on)")
    p.add_argument("--batch-size", type=whole_number(8, 1 << 20), default=256,
                   help="PPO's minibatch (default 256, capped at the rollout length)")
    p.add_argument("--net-arch", type=layer_sizes, default=[64, 64],
                   help="hidden layers of the policy and value networks, e.g. 256,256 "
                        "(default 64,64)")
    p.add_argument("--eval-actions", choices=("sampled", "deterministic"), default="sampled",
                   help="evaluate with actions sampled from the policy (default), as it plays "
                        "in training, or with its most likely action")
    p.add_argument("--rescale", action=argparse.BooleanOptionalAction, default=True,
                   help="divide each observation number by its bound (default: on)")
    add_options(p)
    p.add_argument("--out", type=Path, required=True, help="the results, as JSON")
    p.add_argument("--plot", type=Path, default=None, help="the curve, as PNG")
    p.add_argument("--save", type=Path, default=None,
                   help="the trained model, as sb3's zip (MaskablePPO.load reads it)")
    p.add_argument("--load", type=Path, default=None,
                   help="start from a model --save wrote (a curriculum's next stage): its "
                        "network and weights, this run's game, options and PPO settings")
    return p


def check(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The bounds that depend on the game: players, seat, opponent, shaping, output paths."""
    game = load(args.game)
    args.command = "train_maskable_ppo.py"
    check_options(p, args)
    if not game.min_players <= args.players <= game.max_players:
        p.error(f"--players: {args.game} is for {game.min_players} to {game.max_players}")
    if args.seat is not None and args.seat >= args.players:
        p.error(f"--seat: must be from 0 to {args.players - 1}")
    try:
        make_bot(args.opponent, args.game)
    except ValueError as exc:
        p.error(f"--opponent: {exc}")
    encoding = game.encoding()
    if args.shaping and (encoding is None or encoding.potential is None):
        p.error(f"--shaping: {args.game} offers no shaped rewards (its encoding has no "
                f"potential)")
    if args.load is not None and not args.load.is_file():
        p.error(f"--load: no file {args.load}")
    for option, path in (("--out", args.out), ("--plot", args.plot), ("--save", args.save)):
        if path is not None and not path.resolve().parent.is_dir():
            p.error(f"{option}: the folder {path.resolve().parent} does not exist")


def make_env(args: argparse.Namespace, shaping: float) -> gymnasium.Env[Any, Any]:
    """The learner's environment, its observations scaled to [0, 1] if asked."""
    env: gymnasium.Env[Any, Any] = SingleAgentEnv(args.game, args.players, seat=args.seat,
                                                  opponents=args.opponent, shaping=shaping,
                                                  options=args.options)
    if args.rescale:
        env = RescaleObservation(env, np.float32(0.0), np.float32(1.0))
    return env


class RandomPolicy:
    """Uniformly random legal actions: the baseline a trained policy is compared with."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def predict(self, observation: Any, action_masks: Any,
                deterministic: bool = True) -> tuple[int, None]:
        """A random action among those ``action_masks`` allows."""
        return int(self.rng.choice(np.flatnonzero(action_masks))), None


def evaluate(model: MaskablePPO | RandomPolicy, env: gymnasium.Env[Any, Any],
             games: int, deterministic: bool = True) -> dict[str, Any]:
    """The policy's win rate over ``games`` evaluation games (its most likely masked action,
    or one sampled from torch's generator seeded afresh), with its 95% Wilson interval."""
    wins = 0.0
    masks = env.get_wrapper_attr("action_masks")
    with torch.random.fork_rng(devices=[]):  # training's generator is left as it was
        torch.manual_seed(EVAL_SEEDS)  # the same sampling at every evaluation
        for game in range(games):
            obs, _ = env.reset(seed=EVAL_SEEDS + game)
            total, done = 0.0, False
            while not done:
                action, _ = model.predict(obs, action_masks=masks(),
                                          deterministic=deterministic)
                obs, reward, terminated, truncated, _ = env.step(action)
                total += float(reward)
                done = terminated or truncated
            wins += min(max(total, 0.0), 1.0)
    low, high = wilson(wins, games)
    return {"win_rate": wins / games, "low": low, "high": high, "games": games}


class Evaluations(BaseCallback):
    """Evaluates the policy after the first update at or past each multiple of ``every``
    learner steps (an evaluation always sees every step counted updated into the network);
    keeps the curve."""

    def __init__(self, learner: MaskablePPO, env: gymnasium.Env[Any, Any], every: int,
                 games: int, deterministic: bool = True) -> None:
        super().__init__()
        self.deterministic = deterministic
        self.learner = learner
        self.env = env
        self.every = every
        self.games = games
        self.curve: list[dict[str, Any]] = []
        self.seconds = 0.0
        """Time spent evaluating (not training)."""

    def evaluate(self) -> None:
        """Add the point of the curve at the current step."""
        start = time.perf_counter()
        steps = int(self.learner.num_timesteps)
        point = {"steps": steps,
                 **evaluate(self.learner, self.env, self.games, self.deterministic)}
        self.seconds += time.perf_counter() - start
        self.curve.append(point)
        print(f"{point['steps']:>9} steps: win rate {point['win_rate']:.3f} "
              f"[{point['low']:.3f}, {point['high']:.3f}]", flush=True)

    def _on_rollout_start(self) -> None:
        """Between PPO's update and its next rollout: evaluate once a multiple of ``every``
        steps has been trained on since the last point."""
        last = self.curve[-1]["steps"] if self.curve else 0
        if self.num_timesteps // self.every > last // self.every:
            self.evaluate()

    def _on_step(self) -> bool:
        return True


def plot(results: dict[str, Any], path: Path) -> None:
    """The curve with its intervals, as PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    curve = results["curve"]
    steps = [p["steps"] for p in curve]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(steps, [p["win_rate"] for p in curve], marker="o")
    axes.fill_between(steps, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.3)
    if "random_policy" in results:
        axes.axhline(results["random_policy"]["win_rate"], linestyle="--", color="grey",
                     label="random play")
        axes.legend(loc="lower right")
    axes.set_ylim(0, 1)
    axes.set_xlabel("learner steps")
    axes.set_ylabel("win rate (95% Wilson interval)")
    players = results["players"]
    table = (f"{players} players, the others: {results['opponent']}" if players > 1
             else "1 player")
    axes.set_title(f"MaskablePPO on {results['game']} ({table})", fontsize=10)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def load_model(p: argparse.ArgumentParser, path: Path, env: gymnasium.Env[Any, Any],
               ppo: dict[str, Any]) -> MaskablePPO:
    """The saved model at ``path``, its network and weights kept, trained on ``env`` with this
    run's PPO settings (``ppo``); a file that is no model, or a model of other spaces, stops
    the script with argparse's error naming --load."""
    try:
        return MaskablePPO.load(path, env=env, device="cpu", **ppo)
    except (ValueError, KeyError, OSError, zipfile.BadZipFile, RuntimeError) as exc:
        p.error(f"--load: {path} is not a model for this game and table: {exc}")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, write the JSON (and the plot); return what the JSON holds."""
    p = parser()
    args = p.parse_args(argv)
    check(p, args)
    torch.set_num_threads(1)
    env = make_env(args, args.shaping)
    n_steps = min(args.n_steps, args.timesteps)
    step_size: float = args.learning_rate
    learning_rate: float | Callable[[float], float] = step_size
    if args.anneal:  # sb3 passes the share of the run still to go, from 1 down to 0
        def learning_rate(remaining: float) -> float:
            return step_size * remaining
    ppo = {"n_steps": n_steps, "batch_size": min(args.batch_size, n_steps),
           "gamma": args.gamma, "ent_coef": args.ent_coef, "learning_rate": learning_rate}
    if args.load is not None:
        model = load_model(p, args.load, env, ppo)
        model.set_random_seed(args.seed)
        model.num_timesteps = 0  # this stage's steps
    else:
        model = MaskablePPO("MlpPolicy", env, **ppo,
                            policy_kwargs={"net_arch": list(args.net_arch)},
                            seed=args.seed, device="cpu", verbose=0)
    evaluations = Evaluations(model, make_env(args, 0.0), args.eval_every, args.eval_games,
                              args.eval_actions == "deterministic")
    baseline = evaluate(RandomPolicy(args.seed), evaluations.env, args.eval_games)
    print(f"random play: win rate {baseline['win_rate']:.3f} [{baseline['low']:.3f}, "
          f"{baseline['high']:.3f}]", flush=True)
    start = time.perf_counter()
    evaluations.evaluate()
    model.learn(total_timesteps=args.timesteps, callback=evaluations)
    if evaluations.curve[-1]["steps"] != model.num_timesteps:
        evaluations.evaluate()
    seconds = time.perf_counter() - start
    training = seconds - evaluations.seconds
    results: dict[str, Any] = {
        "game": args.game, "players": args.players, "seat": args.seat,
        "opponent": args.opponent, "options": args.options, "timesteps": args.timesteps,
        "trained_steps": int(model.num_timesteps), "seed": args.seed,
        "eval_every": args.eval_every, "eval_games": args.eval_games,
        "shaping": args.shaping, "n_steps": n_steps, "rescale": args.rescale,
        "gamma": args.gamma, "ent_coef": args.ent_coef, "learning_rate": args.learning_rate,
        "anneal": args.anneal, "batch_size": ppo["batch_size"],
        "net_arch": list(model.policy_kwargs.get("net_arch", args.net_arch)),
        "eval_actions": args.eval_actions, "loaded": None if args.load is None else str(args.load),
        "seconds": seconds, "training_seconds": training,
        "training_steps_per_second": model.num_timesteps / training if training > 0 else None,
        "curve": evaluations.curve, "final": evaluations.curve[-1], "random_policy": baseline,
    }
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.save is not None:
        model.save(args.save)
    if args.plot is not None:
        plot(results, args.plot)
    final = results["final"]
    print(f"final win rate {final['win_rate']:.3f} [{final['low']:.3f}, {final['high']:.3f}] "
          f"over {final['games']} games; {model.num_timesteps} steps trained in "
          f"{training:.1f} s; wrote {args.out}")
    return results


if __name__ == "__main__":
    main()
