"""Play many games between bots and summarise them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citywatch.bots import Bot, Observation, make_bot
from citywatch.core.api import Outcome, State
from citywatch.core.record import Record
from citywatch.core.registry import load
from citywatch.core.rng import Rng

END_REASONS = ("personality", "riots", "deck")


@dataclass
class GameResult:
    """One simulated game."""

    seed: int
    outcome: Outcome
    turns: int
    decisions: int
    record: Record


def play_game(
    game_name: str,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    bot_seed: int,
    *,
    digests: bool = False,
) -> GameResult:
    """Play one game to the end; bots see only their seat's observation."""
    game = load(game_name)
    state: State = game.new_game(players=players, seed=seed)
    rngs = [Rng(bot_seed + 7919 * seat) for seat in range(players)]
    record = Record(game_name, players, seed, {}, [], [] if digests else None)
    decisions = 0
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        action = bots[seat].choose(Observation(state, seat), legal, rngs[seat])
        state.apply(action)
        decisions += 1
        record.actions.append(action.to_json())
        if record.digests is not None:
            record.digests.append(state.digest())
    outcome = state.outcome()
    assert outcome is not None
    turns = state.turn_count()
    return GameResult(seed, outcome, turns, decisions, record)


@dataclass
class Summary:
    """Totals over many games."""

    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    wins_by_seat: list[float] = field(default_factory=list)
    wins_by_personality: dict[str, float] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    mean_turns: float = 0.0
    mean_decisions: float = 0.0
    seconds: float = 0.0
    games_per_second: float = 0.0
    decisions_per_second: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_personality": self.wins_by_personality,
            "end_reasons": self.end_reasons,
            "mean_turns": self.mean_turns,
            "mean_decisions": self.mean_decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
        }


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    bot_names: Sequence[str],
    records: Path | None = None,
) -> Summary:
    """Play ``games`` games; game k's seed is drawn from a generator seeded with ``seed``."""
    game = load(game_name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"{game_name} is for {game.min_players} to {game.max_players} players, not {players}"
        )
    if games < 1:
        raise ValueError("games must be at least 1")
    names = list(bot_names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(
            f"give one bot for all seats or one per seat ({players}), not {len(names)}"
        )
    bots = [make_bot(n, game_name) for n in names]
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    seeds = Rng(seed)
    summary = Summary(game_name, players, games, seed, names)
    wins = [0.0] * players
    by_personality: dict[str, float] = {}
    reasons = dict.fromkeys(END_REASONS, 0)
    turns = decisions = 0
    start = time.perf_counter()
    for number in range(games):
        game_seed = seeds.next64() >> 1
        bot_seed = seeds.next64() >> 1
        result = play_game(game_name, players, game_seed, bots, bot_seed,
                           digests=records is not None)
        share = 1.0 / len(result.outcome.winners)
        personalities = result.outcome.details.get("personalities", [])
        for w in result.outcome.winners:
            wins[w] += share
            if personalities:
                key = personalities[w]
                by_personality[key] = by_personality.get(key, 0.0) + share
        reasons[result.outcome.reason] = reasons.get(result.outcome.reason, 0) + 1
        turns += result.turns
        decisions += result.decisions
        if records is not None:
            result.record.save(records / f"game-{number + 1:05d}.json")
    elapsed = time.perf_counter() - start
    summary.wins_by_seat = wins
    summary.wins_by_personality = dict(sorted(by_personality.items()))
    summary.end_reasons = reasons
    summary.mean_turns = turns / games
    summary.mean_decisions = decisions / games
    summary.seconds = elapsed
    summary.games_per_second = games / elapsed if elapsed else 0.0
    summary.decisions_per_second = decisions / elapsed if elapsed else 0.0
    return summary
