"""Tournaments: a line-up of bots, seats rotated, the same deals for every rotation.

Each bot name's win rate comes with a 95% Wilson score interval.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from citywatch.bots import Observation, make_bot
from citywatch.core.registry import load
from citywatch.core.rng import Rng

Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / games`` (wins may be fractional)."""
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    if not 0 <= wins <= games:
        raise ValueError("wins must be between 0 and games")
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SeatResult:
    """What one seat's bot did in one game; ``seconds`` is wall-clock time spent deciding,
    ``cpu_seconds`` the deciding thread's processor time (one core, unaffected by other work)."""

    bot: str
    win: float
    points: int
    decisions: int
    seconds: float
    cpu_seconds: float


def play_deal(game_name: str, lineup: Sequence[str], seed: int, bot_seed: int,
              options: Mapping[str, Any] | None = None) -> list[SeatResult]:
    """Play one game, set up with the game's ``options``, with ``lineup[i]`` in seat i;
    return each seat's result."""
    game = load(game_name)
    players = len(lineup)
    bots = [make_bot(spec, game_name) for spec in lineup]
    rngs = [Rng(bot_seed + 104_729 * seat) for seat in range(players)]
    state = game.new_game(players=players, seed=seed, **dict(options or {}))
    decisions = [0] * players
    seconds = [0.0] * players
    cpu_seconds = [0.0] * players
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        start, cpu_start = time.perf_counter(), time.thread_time()
        action = bots[seat].choose(Observation(state, seat), legal, rngs[seat])
        seconds[seat] += time.perf_counter() - start
        cpu_seconds[seat] += time.thread_time() - cpu_start
        decisions[seat] += 1
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    wins = outcome.rewards(players)  # a co-operative crew's win is a win for each seat
    points = outcome.seat_points() or (0,) * players
    return [SeatResult(lineup[i], wins[i], int(points[i]),
                       decisions[i], seconds[i], cpu_seconds[i]) for i in range(players)]


Task = tuple[str, tuple[str, ...], int, int, dict[str, Any]]
"""One scheduled game: game, line-up by seat, game seed, bot seed, the game's options."""


def _task(args: Task) -> list[SeatResult]:
    """Play one scheduled game (for worker processes)."""
    return play_deal(*args)


def schedule(game_name: str, lineup: Sequence[str], games: int, seed: int,
             options: Mapping[str, Any] | None = None) -> list[Task]:
    """The games to play: each deal (game seed, bot seed) once per rotation of the seats,
    every one set up with ``options``."""
    players = len(lineup)
    seeds = Rng(seed)
    tasks: list[Task] = []
    for _ in range(math.ceil(games / players)):
        deal_seed, bot_seed = seeds.next64() >> 1, seeds.next64() >> 1
        for r in range(players):
            rotated = tuple(lineup[(i + r) % players] for i in range(players))
            tasks.append((game_name, rotated, deal_seed, bot_seed, dict(options or {})))
    return tasks


def tournament(game_name: str, lineup: Sequence[str], games: int, seed: int,
               workers: int = 1, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole rotations), set up with the game's
    ``options``, and summarise by bot name; ``options`` in the summary are every option's
    value (a per-table set-up choice's included), and ``seat_choice`` names the documents
    per seat when the options choose the game's (first) per-seat set-up choice
    (``GameType.setup``): ``choice``, ``plural`` and ``keyword`` in words, and ``by_seat``,
    each seat's document's name (``SetupChoice.show``). ``ValueError`` for a bad line-up,
    count or option."""
    game = load(game_name)
    chosen = dict(options or {})
    values = game.option_values(chosen)
    players = len(lineup)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game_name} is for {game.min_players} to {game.max_players} players; "
                         f"the line-up names {players} bots")
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    seat_choice: dict[str, Any] = {}
    per_seat = [choice for choice in game.type.setup if choice.per_seat]
    for choice in per_seat:
        documents = chosen.get(choice.keyword)
        if documents is None:
            continue
        if len(documents) != players:
            raise ValueError(f"option {choice.keyword} must list one {choice.name} per seat: "
                             f"{players} {choice.plural}, not {len(documents)}")
        if choice is per_seat[0]:
            seat_choice = {"choice": choice.name, "plural": choice.plural,
                           "keyword": choice.keyword,
                           "by_seat": [choice.show(value) for value in documents]}
    for spec in set(lineup):
        make_bot(spec, game_name)
    tasks = schedule(game_name, lineup, games, seed, chosen)
    start = time.perf_counter()
    if workers == 1:
        results = [_task(t) for t in tasks]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_task, tasks, chunksize=1))
    elapsed = time.perf_counter() - start
    summary: dict[str, dict[str, Any]] = {}
    for game_result in results:
        for seat in game_result:
            total = summary.setdefault(seat.bot, {"games": 0, "wins": 0.0, "points": 0,
                                                  "decisions": 0, "seconds": 0.0,
                                                  "cpu_seconds": 0.0})
            total["games"] += 1
            total["wins"] += seat.win
            total["points"] += seat.points
            total["decisions"] += seat.decisions
            total["seconds"] += seat.seconds
            total["cpu_seconds"] += seat.cpu_seconds
    bots: dict[str, dict[str, Any]] = {}
    for name, s in summary.items():
        low, high = wilson(s["wins"], s["games"])
        bots[name] = {
            "games": s["games"],
            "wins": s["wins"],
            "win_rate": s["wins"] / s["games"],
            "ci_low": low,
            "ci_high": high,
            "mean_points": s["points"] / s["games"],
            "seconds_per_decision": s["seconds"] / max(1, s["decisions"]),
            "cpu_seconds_per_decision": s["cpu_seconds"] / max(1, s["decisions"]),
        }
    return {"game": game_name, "players": players, "games": len(tasks), "seed": seed,
            "options": values, "lineup": list(lineup), "workers": workers, "seconds": elapsed,
            "bots": bots, **({"seat_choice": seat_choice} if seat_choice else {})}
