"""Information-set Monte-Carlo tree search (single-observer ISMCTS), for any game.

Each iteration samples a world from the bot's own observation (``determinize``),
never from the true state, then walks the one tree, keyed by the actions taken
from the bot's information set, choosing only among actions available in that
world (UCB with availability counts). Playouts use a policy (random or a bot) and
are cut at a depth, where the game's evaluation judges the position. With ``guided`` the
playout policy makes only a playout's first that many decisions and random choices the rest:
``guided=0`` keeps the policy for the prior and the margin alone, at a fraction of its cost.

With ``worlds`` > 0 the search samples that many worlds once and cycles through copies of
them: each copy carries its world's dice (the state owns its generator) and its own playout
seed, so the branches are compared on the same draws (common random numbers), which makes
small differences between actions visible in few iterations.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from citywatch.bots.base import Observation
from citywatch.core.api import State
from citywatch.core.rng import Rng

Evaluator = Callable[[State], "list[float] | None"]


class Node:
    """A tree node: the action that led here and who took it, and statistics."""

    __slots__ = ("action", "mover", "children", "visits", "reward", "squares", "available",
                 "by_world")

    def __init__(self, action: Any = None, mover: int = -1) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.squares = 0.0
        self.available = 0
        self.by_world: dict[int, list[float]] | None = None  # root children with fixed worlds:
        # fixed world -> [reward sum, visits]

    def mean_and_error(self) -> tuple[float, float]:
        """The mean reward and its standard error (infinite below two visits)."""
        if self.visits < 2:
            return (self.reward / self.visits if self.visits else 0.0), math.inf
        mean = self.reward / self.visits
        variance = max(0.0, self.squares / self.visits - mean * mean)
        return mean, math.sqrt(variance / (self.visits - 1))


@mypyc_attr(native_class=False)  # compiled methods, but attributes in a __dict__ (vars())
class ISMCTSBot:
    """Single-observer ISMCTS with depth-limited playouts."""

    name = "ismcts"
    OPTIONS: ClassVar[tuple[str, ...]] = (
        "iterations", "seconds", "depth", "exploration", "playout", "prior", "worlds", "margin",
        "guided")
    """The options a spec may set; the evaluator and policy are supplied by ``make_bot``."""

    def __init__(
        self,
        iterations: int = 300,
        seconds: float | None = None,
        depth: int = 12,
        exploration: float = 0.7,
        playout: str = "random",
        prior: float = 0.0,
        worlds: int = 0,
        margin: float = 0.0,
        guided: int = -1,
        evaluator: Evaluator | None = None,
        policy: Any = None,
    ) -> None:
        if iterations < 1 or depth < 0 or exploration < 0:
            raise ValueError("iterations must be >= 1, depth and exploration >= 0")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be positive")
        if playout not in ("random", "heuristic"):
            raise ValueError(f"unknown playout policy {playout!r}; use random or heuristic")
        if playout == "heuristic" and policy is None:
            raise ValueError("this game has no heuristic policy for playouts")
        if prior < 0 or (prior > 0 and playout != "heuristic"):
            raise ValueError("prior must be >= 0, and needs playout=heuristic")
        if worlds < 0:
            raise ValueError("worlds must be >= 0 (0: a new world every iteration)")
        if margin < 0 or (margin > 0 and playout != "heuristic"):
            raise ValueError("margin must be >= 0, and needs playout=heuristic")
        if guided < -1 or (guided >= 0 and playout != "heuristic"):
            raise ValueError("guided must be >= -1 (-1: the policy plays every playout "
                             "decision), and needs playout=heuristic")
        self.guided = guided
        self.worlds = worlds
        self.margin = margin
        self.prior = prior
        self.policy = policy if playout == "heuristic" else None
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.evaluator = evaluator

    def choose(self, observation: Observation, legal_actions: list[Any], rng: Rng) -> Any:
        """Search from the observation and return the most visited legal action."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        fixed = [(observation.sample(rng), rng.next64()) for _ in range(self.worlds)]
        done = 0
        while done < self.iterations:
            if deadline is not None and done > 0 and time.perf_counter() > deadline:
                break
            if fixed:
                world, seed = fixed[done % len(fixed)]
                self._iterate(root, world.copy(), Rng(seed), done % len(fixed))
            else:
                self._iterate(root, observation.sample(rng), rng)
            done += 1
        legal = set(legal_actions)
        best = max((c for a, c in root.children.items() if a in legal),
                   key=lambda c: (c.visits, c.reward), default=None)
        if best is None:
            return legal_actions[0]
        if self.margin > 0:
            return self._unless_sure(root, best, observation, legal_actions, rng)
        return best.action

    def _unless_sure(self, root: Node, best: Node, observation: Observation,
                     legal_actions: list[Any], rng: Rng) -> Any:
        """The playout policy's own choice, unless the search's best action beats it by more
        than ``margin`` standard errors of the difference: paired by world when the worlds
        are fixed (a world searched twice along one path gives the same result twice, so
        its visits are not independent samples), else from the two actions' visits."""
        hint = self._policy(observation.sample(rng), observation.seat, legal_actions, rng)
        mine = root.children.get(hint)
        if mine is None or mine is best:
            return hint if mine is None else best.action
        if self.worlds:
            ours, theirs = best.by_world or {}, mine.by_world or {}
            diffs = [ours[k][0] / ours[k][1] - t[0] / t[1] for k, t in theirs.items() if k in ours]
            if len(diffs) < 3:
                return hint
            mean = sum(diffs) / len(diffs)
            variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
            return best.action if mean > self.margin * math.sqrt(variance / len(diffs)) \
                else hint
        (a, ea), (b, eb) = best.mean_and_error(), mine.mean_and_error()
        sure = a - b > self.margin * math.sqrt(ea * ea + eb * eb)
        return best.action if sure else hint

    def _iterate(self, root: Node, world: State, rng: Rng, key: int = -1) -> None:
        path = [root]
        node = root
        while world.to_move is not None:
            mover = world.to_move
            actions = world.legal_actions()
            untried = [a for a in actions if a not in node.children]
            for a in actions:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            hint = self._hint(world, mover, actions, rng)
            if untried:
                action = hint if hint in untried else untried[rng.below(len(untried))]
                child = Node(action, mover)
                child.available = 1
                node.children[action] = child
                world.apply(action)
                path.append(child)
                break
            best: Node | None = None
            best_score = -float("inf")
            for a in actions:
                c = node.children[a]
                score = c.reward / c.visits + self.exploration * math.sqrt(
                    math.log(max(1, c.available)) / c.visits) if c.visits else float("inf")
                if a == hint:
                    score += self.prior / (1 + c.visits)
                if score > best_score:
                    best, best_score = c, score
            assert best is not None
            world.apply(best.action)
            node = best
            path.append(node)
        rewards = self._playout(world, rng)
        if key >= 0 and len(path) > 1:
            child = path[1]
            if child.by_world is None:
                child.by_world = {}
            tally = child.by_world.setdefault(key, [0.0, 0])
            tally[0] += rewards[child.mover]
            tally[1] += 1
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += rewards[n.mover]
                n.squares += rewards[n.mover] ** 2

    def _hint(self, world: State, seat: int, actions: list[Any], rng: Rng) -> Any:
        """The playout policy's choice here when ``prior`` > 0 (a bias toward it), else None."""
        if self.prior <= 0 or self.policy is None or len(actions) == 1:
            return None
        return self._policy(world, seat, actions, rng)

    def _policy(self, world: State, seat: int, actions: list[Any], rng: Rng) -> Any:
        """The playout policy's choice in ``world`` (already a sample: ``choose_in`` if the
        policy has it), or a random one without a policy."""
        if self.policy is None or len(actions) == 1:
            return actions[rng.below(len(actions))]
        if hasattr(self.policy, "choose_in"):
            return self.policy.choose_in(world, seat, actions, rng)
        return self.policy.choose(Observation(world, seat), actions, rng)

    def _playout(self, world: State, rng: Rng) -> list[float]:
        steps = 0
        guided = self.depth if self.guided < 0 else self.guided
        while (seat := world.to_move) is not None and steps < self.depth:
            actions = world.legal_actions()
            if steps < guided:
                world.apply(self._policy(world, seat, actions, rng))
            else:
                world.apply(actions[rng.below(len(actions))])
            steps += 1
        outcome = world.outcome()
        if outcome is not None:
            return outcome.shares(world.players)
        values = None if self.evaluator is None else self.evaluator(world)
        return [1.0 / world.players] * world.players if values is None else values
