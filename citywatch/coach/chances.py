"""Winning chances for any game (issue 30): a seat's chance of winning, judged from one seat's
own information.

A position is judged in worlds sampled from the judging seat's observation
(``State.determinize``), never from the true state. In each world one playout is made as the
hard level's search makes them (``Game.search_options``: its playout policy, cut at its depth)
and judged by the game's evaluation (``Game.evaluate``), or by the outcome if the game ends.
The mean over the worlds is calibrated (``Calibration``, an isotonic map fitted by
``coach.calibrate`` and kept in ``calibration/<game>.json``) so that, over many games,
positions judged at 30% are won about 30% of the time (README, "The coach").

A chance is on the scale of ``Outcome.rewards``: in a co-operative game every seat's chance is
the crew's (``Game.plays_together``), otherwise a seat's own (a tie split).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citywatch.bots.base import Observation
from citywatch.core.api import Game, State
from citywatch.core.rng import Rng

CALIBRATION_FOLDER = Path(__file__).parent / "calibration"
"""Where each game's fitted calibration is kept, as ``<game name>.json``."""
EDGE = 1e-4
"""Chances are kept this far from 0 and 1 before calibrating (a logit must be finite)."""


@dataclass(frozen=True)
class Strength:
    """How hard the coach thinks: worlds sampled per judgement, and a time budget."""

    name: str
    worlds: int
    """Worlds sampled from the seat's information (one playout each)."""
    seconds: float
    """The most a hint should take; worlds are cut short, never below ``MIN_WORLDS``."""


STRENGTHS = {s.name: s for s in (Strength("quick", 4, 0.5), Strength("normal", 16, 2.0),
                                 Strength("deep", 64, 10.0))}
"""The strengths a person may ask for, weakest first."""
MIN_WORLDS = 2
"""A hint never stops for time before judging every action in this many worlds."""


def strength(name: str) -> Strength:
    """The strength called ``name``; ``ValueError`` naming the strengths otherwise."""
    if name not in STRENGTHS:
        raise ValueError(f"unknown strength {name!r}: {', '.join(STRENGTHS)}")
    return STRENGTHS[name]


@dataclass(frozen=True)
class Calibration:
    """A non-decreasing map from a mean playout result to a chance: straight lines between
    ``points`` (result, chance), sorted by result, and level beyond the first and last (an
    isotonic fit, ``coach.calibrate``). No points: the identity."""

    points: tuple[tuple[float, float], ...] = ()

    def apply(self, p: float) -> float:
        """The calibrated chance for the mean result ``p``."""
        points = self.points
        if not points:
            return min(1.0, max(0.0, p))
        if p <= points[0][0]:
            return points[0][1]
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            if p <= x1:
                return y0 if x1 <= x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)
        return points[-1][1]

    def to_json(self) -> dict[str, Any]:
        """``{"points": [[result, chance], ...]}``, rounded to 4 places."""
        return {"points": [[round(x, 4), round(y, 4)] for x, y in self.points]}

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """Read ``{"points": [[result, chance], ...]}``; ``ValueError`` unless every number is
        from 0 to 1 and both run in order."""
        points = data.get("points") if isinstance(data, dict) else None
        if not isinstance(points, list):
            raise ValueError("a calibration must be an object with a list of points")
        read: list[tuple[float, float]] = []
        for point in points:
            if not (isinstance(point, list) and len(point) == 2 and all(
                    isinstance(v, int | float) and not isinstance(v, bool)
                    and 0.0 <= v <= 1.0 for v in point)):
                raise ValueError("a calibration's point is two numbers from 0 to 1")
            read.append((float(point[0]), float(point[1])))
        if any(b[0] < a[0] or b[1] < a[1] for a, b in zip(read, read[1:], strict=False)):
            raise ValueError("a calibration's points must rise")
        return cls(tuple(read))


def calibration_path(game_name: str) -> Path:
    """Where the calibration of ``game_name`` is kept."""
    return CALIBRATION_FOLDER / f"{game_name}.json"


def calibration_key(kind: str, players: int | None = None) -> str:
    """How a calibration is filed: by kind of play (``"competitive"``), and for one number of
    seats (``"competitive/4"``)."""
    return kind if players is None else f"{kind}/{players}"


def load_calibrations(game_name: str) -> dict[str, Calibration]:
    """The fitted calibrations of ``game_name`` by kind of play and by kind and number of seats
    (``calibration_key``); one not fitted is left out."""
    path = calibration_path(game_name)
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    found: dict[str, Calibration] = {}
    for kind, entry in data.get("kinds", {}).items():
        found[kind] = Calibration.from_json(entry["calibration"])
        for players, fitted in entry.get("by_players", {}).items():
            found[calibration_key(kind, int(players))] = Calibration.from_json(fitted)
    return found


class Judge:
    """Judges positions of one game: raw playout results and calibrated chances."""

    def __init__(self, game: Game, calibrations: dict[str, Calibration] | None = None) -> None:
        self.game = game
        options = dict(game.search_options)
        self.depth = int(options.get("depth", 12))
        self.policy: Any = None
        bots = game.bots()
        if options.get("playout") == "heuristic" and "heuristic" in bots:
            factory = bots["heuristic"]
            self.policy = factory(**getattr(factory, "PLAYOUT", {}))
        self.calibrations = load_calibrations(game.name) if calibrations is None \
            else calibrations

    def kind(self, state: State) -> str:
        """``"cooperative"`` if the seats of ``state`` win or lose together, else
        ``"competitive"``."""
        return "cooperative" if self.game.plays_together(state) else "competitive"

    def playout(self, world: State, rng: Rng, depth: int | None = None) -> list[float]:
        """Play ``world`` on (it is changed) for at most ``depth`` decisions (default: the
        judge's) with the playout policy and return each seat's raw result: the outcome's
        rewards if the game ended, else the evaluation (the crew's chance for every seat in a
        co-operative game)."""
        steps = 0
        most = self.depth if depth is None else depth
        while (seat := world.to_move) is not None and steps < most:
            actions = world.legal_actions()
            if self.policy is None or len(actions) == 1:
                action = actions[rng.below(len(actions))]
            elif hasattr(self.policy, "choose_in"):
                action = self.policy.choose_in(world, seat, actions, rng)
            else:
                action = self.policy.choose(Observation(world, seat), actions, rng)
            world.apply(action)
            steps += 1
        n = world.players
        outcome = world.outcome()
        if outcome is not None:
            return outcome.rewards(n)
        values = self.game.evaluate(world)
        if values is None:
            values = [1.0 / n] * n
        if self.game.plays_together(world):
            return [min(1.0, v * n) for v in values]
        return list(values)

    def calibrated(self, raw: Sequence[float], kind: str,
                   players: int | None = None) -> list[float]:
        """The chances of mean raw results ``raw`` in a game of ``kind`` of play and
        ``players`` seats (default: one result per seat): the calibration fitted for that
        number of seats, else for the kind, else the identity."""
        seats = len(raw) if players is None else players
        calibration = self.calibrations.get(calibration_key(kind, seats)) \
            or self.calibrations.get(kind, Calibration())
        return [calibration.apply(p) for p in raw]

    def raw_chances(self, state: State, seat: int, rng: Rng, worlds: int) -> list[float]:
        """Each seat's mean raw result over ``worlds`` worlds sampled for ``seat`` (one
        playout each); the outcome's rewards if ``state`` is over."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.rewards(state.players)
        observation = Observation(state, seat)
        total = [0.0] * state.players
        for _ in range(worlds):
            world = observation.sample(rng)
            for p, value in enumerate(self.playout(world, Rng(rng.next64()))):
                total[p] += value
        return [t / worlds for t in total]

    def chances(self, state: State, seat: int, rng: Rng, worlds: int) -> list[float]:
        """Each seat's chance of winning as ``seat`` can judge it (worlds sampled from its
        observation), calibrated; exact once the game is over."""
        raw = self.raw_chances(state, seat, rng, worlds)
        if state.outcome() is not None:
            return raw
        return self.calibrated(raw, self.kind(state))

    def around(self, state: State, seat: int, action: Any, rng: Rng,
               worlds: int) -> tuple[list[float], list[float]]:
        """Each seat's chance before and after ``seat`` takes ``action`` in ``state``, judged
        in the same ``worlds`` worlds sampled for ``seat`` with the same playout seeds, the
        playouts before it one decision longer (they cut at the same decision of the game)."""
        observation = Observation(state, seat)
        before = [0.0] * state.players
        after = [0.0] * state.players
        ended = 0
        for _ in range(worlds):
            world = observation.sample(rng)
            seed = rng.next64()
            moved = world.copy()
            moved.apply(action)
            ended += moved.outcome() is not None
            # one decision more before the action: both playouts stop at the same decision
            # of the game, so a swing never measures how the evaluation reads another moment
            for p, value in enumerate(self.playout(world, Rng(seed), self.depth + 1)):
                before[p] += value / worlds
            for p, value in enumerate(self.playout(moved, Rng(seed))):
                after[p] += value / worlds
        kind = self.kind(state)
        return (self.calibrated(before, kind),
                after if ended == worlds else self.calibrated(after, kind))
