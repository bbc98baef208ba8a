"""A hint for one seat's decision (issue 30), judged from that seat's own information only.

Worlds are sampled from the seat's observation (``Observation.sample``): the true state is
never read, so two true states the seat cannot tell apart give the same hint for the same
generator. Every legal action is tried in the same worlds with the same playout seed (common
random numbers), so the differences between actions are not drowned by the worlds' own. The
hard level's pick is asked of the hard level's bot, which sees the same observation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.coach.chances import MIN_WORLDS, Judge, Strength, strength
from citywatch.core.api import State
from citywatch.core.registry import load
from citywatch.core.rng import Rng, Seed, rng_from_seed

HINT_PURPOSE = -30
"""The derive number of a hint's generators: the bots derive theirs from the step (0 or more,
``bots.decide.bot_rng``), so a hint's is never a bot's."""


def hint_rng(seed: Seed, step: int) -> Rng:
    """The generator of a hint asked after ``step`` actions of a game seeded ``seed``, the same
    in every interface: secret if the seed is, independent of the game's and the bots'
    numbers."""
    return rng_from_seed(seed).derive(HINT_PURPOSE).derive(step)


def allowed_by_default(people: int) -> bool:
    """Whether a table allows hints unless its players say: yes when one person plays (the
    others bots), no with two or more people, where each would see the coach help the
    others."""
    return people <= 1


@cache
def judge_for(game_name: str) -> Judge:
    """The judge of ``game_name`` (made once per process)."""
    return Judge(load(game_name))


@dataclass(frozen=True)
class HintOption:
    """One legal action and the seat's chance of winning after it."""

    action: Any
    text: str
    chance: float
    """The seat's chance after the action (co-operative: the crew's), from 0 to 1."""
    error: float
    """The standard error of the worlds' mean, on the same scale (0 below two worlds)."""

    def to_json(self) -> dict[str, Any]:
        """``{"text", "json", "chance", "error"}``, chances rounded to 4 places."""
        return {"text": self.text, "json": self.action.to_json(),
                "chance": round(self.chance, 4), "error": round(self.error, 4)}


@dataclass(frozen=True)
class Hint:
    """The coach's estimates for one decision."""

    seat: int
    options: tuple[HintOption, ...]
    """One per action judged, in the order of the legal actions."""
    hard: int | None
    """The index in ``options`` of the hard level's pick; None if it was not asked."""
    worlds: int
    """Worlds every action was judged in."""
    strength: str
    cooperative: bool
    """Whether the chances are the crew's."""
    seconds: float

    @property
    def best(self) -> int:
        """The index of the option with the highest chance (the first of equals)."""
        return max(range(len(self.options)), key=lambda i: (self.options[i].chance, -i))

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON: ``seat, options, hard, best, worlds, strength, cooperative,
        seconds``."""
        return {"seat": self.seat, "options": [o.to_json() for o in self.options],
                "hard": self.hard, "best": self.best, "worlds": self.worlds,
                "strength": self.strength, "cooperative": self.cooperative,
                "seconds": round(self.seconds, 3)}

    def lines(self, most: int = 8) -> list[str]:
        """The ``most`` best options in words, best first: ``54% ±3  Play Mr Boggis  (hard
        level's pick)``."""
        order = sorted(range(len(self.options)), key=lambda i: -self.options[i].chance)
        lines = []
        for i in order[:most]:
            o = self.options[i]
            mark = "  (hard level's pick)" if i == self.hard else ""
            lines.append(f"{percent(o.chance):>4} ±{round(100 * o.error):<2} {o.text}{mark}")
        if len(order) > most:
            lines.append(f"… and {len(order) - most} more")
        return lines


def percent(chance: float) -> str:
    """``0.537`` -> ``'54%'``; below 1% and above 99% say so (``'<1%'``, ``'>99%'``) unless
    exact."""
    if 0.0 < chance < 0.005:
        return "<1%"
    if 0.995 < chance < 1.0:
        return ">99%"
    return f"{round(100 * chance)}%"


def hint(state: State, seat: int, rng: Rng, level: str | Strength = "normal",
         seconds: float | None = None, actions: Sequence[Any] | None = None,
         hard: bool = True) -> Hint:
    """The chance of ``seat`` after each legal action (those in ``actions`` if given, then the
    hard level's pick if it is not among them) and the hard level's pick, judged in worlds
    sampled from ``seat``'s observation with ``rng``.

    ``seconds`` caps the time (default: the strength's; ``math.inf``: none, for a hint that
    depends only on the seat's information and ``rng``): no world is begun that would end past
    it at the pace so far. Every action is judged in the same worlds, at least ``MIN_WORLDS``.
    ``ValueError`` if it is not ``seat``'s decision."""
    started = time.perf_counter()
    chosen_strength = level if isinstance(level, Strength) else strength(level)
    if state.to_move != seat:
        raise ValueError(f"seat {seat} is not to decide in this position")
    legal = state.legal_actions()
    judged = list(legal) if actions is None else [a for a in legal if a in set(actions)]
    if not judged:
        raise ValueError("none of the actions to judge is legal")
    game = state.game
    judge = judge_for(game.name)
    observation = Observation(state, seat)
    hard_rng = Rng(rng.next64())
    pick: int | None = None
    if hard:
        bot = make_bot(game.level_spec("hard"), game.name)
        chosen = bot.choose(observation, legal, hard_rng)
        if chosen not in judged:
            judged.append(chosen)
        pick = judged.index(chosen)
    budget = chosen_strength.seconds if seconds is None else seconds
    deadline = started + budget
    sums = [0.0] * len(judged)
    squares = [0.0] * len(judged)
    ended = [0] * len(judged)
    worlds = 0
    judging = time.perf_counter()
    while worlds < chosen_strength.worlds:
        now = time.perf_counter()
        per_world = (now - judging) / worlds if worlds else 0.0
        if worlds >= MIN_WORLDS and now + per_world > deadline:
            break
        world = observation.sample(rng)
        seed = rng.next64()
        for i, action in enumerate(judged):
            after = world.copy()
            after.apply(action)
            if after.outcome() is not None:
                ended[i] += 1
            value = judge.playout(after, Rng(seed))[seat]
            sums[i] += value
            squares[i] += value * value
        worlds += 1
    kind = judge.kind(state)
    options = []
    for i, action in enumerate(judged):
        mean = sums[i] / worlds
        variance = max(0.0, squares[i] / worlds - mean * mean)
        error = math.sqrt(variance / (worlds - 1)) if worlds > 1 else 0.0
        chance = mean if ended[i] == worlds else judge.calibrated([mean], kind, state.players)[0]
        options.append(HintOption(action, str(action), chance, error))
    return Hint(seat, tuple(options), pick, worlds, chosen_strength.name,
                kind == "cooperative", time.perf_counter() - started)
