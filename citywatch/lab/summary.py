"""A study's summary (``summarise``, ``Summary``): win rates with their 95% Wilson intervals by
seat, turn order, role, bot, card, per-seat set-up choice and swept options, and the spread
of game lengths."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from citywatch.core.registry import load
from citywatch.lab.results import Result
from citywatch.lab.run import Run
from citywatch.lab.study import (
    Study,
    combination_label,
    combinations,
    first_seat_choice,
    game_options,
    sweep_json,
)
from citywatch.tournament import wilson

MIN_PLAYS = 20
TOP_CARDS = 10
RUN_KEYS = frozenset({"seconds", "games_per_second", "decisions_per_second", "run"})
"""Summary keys that describe one run (timing, backend), not the games."""


@dataclass(frozen=True)
class Rate:
    """A win rate (or any share) with its 95% Wilson interval."""

    games: int
    wins: float

    @property
    def rate(self) -> float:
        """``wins / games`` (0 when there are no games)."""
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval ((0, 1) when there are no games), never excluding the rate."""
        if not self.games:
            return 0.0, 1.0
        low, high = wilson(self.wins, self.games)
        return min(low, self.rate), max(high, self.rate)

    def to_json(self) -> dict[str, Any]:
        """``games, wins, rate, ci_low, ci_high``."""
        low, high = self.interval()
        return {"games": self.games, "wins": self.wins, "rate": self.rate,
                "ci_low": low, "ci_high": high}


def spread(values: Sequence[int]) -> dict[str, Any]:
    """``games, mean, median, q1, q3, min, max`` of a list of counts (None when empty)."""
    if not values:
        return {"games": 0, "mean": None, "median": None, "q1": None, "q3": None,
                "min": None, "max": None}
    data = sorted(values)
    return {"games": len(data), "mean": sum(data) / len(data), "median": quantile(data, 0.5),
            "q1": quantile(data, 0.25), "q3": quantile(data, 0.75), "min": data[0],
            "max": data[-1]}


def quantile(data: Sequence[int], q: float) -> float:
    """The ``q`` quantile of sorted ``data``, interpolating linearly between ranks."""
    position = (len(data) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(data) - 1)
    return float(data[low] + (data[high] - data[low]) * (position - low))


@dataclass
class Tally:
    """Wins (shares of a game) out of games, by key."""

    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)

    def add(self, key: str, win: float) -> None:
        """Count one game for ``key`` with its share of the win."""
        self.games[key] = self.games.get(key, 0) + 1
        self.wins[key] = self.wins.get(key, 0.0) + win

    def rates(self) -> dict[str, Rate]:
        """Each key's rate, keys sorted."""
        return {k: Rate(self.games[k], self.wins[k]) for k in sorted(self.games)}


def seat_names(game_name: str, players: int) -> list[str]:
    """Each seat's name in its own view (``GameType.seat_name``), else ``seat N``."""
    state = load(game_name).new_game(players=players, seed=0)
    return [state.game.type.seat_name(state.view(number)) or f"seat {number}"
            for number in range(players)]


def summarise(study: Study, results: Sequence[Result], run: Run,
              min_plays: int = MIN_PLAYS) -> dict[str, Any]:
    """The study's summary as JSON (see docs/lab.md); ``results`` in game order."""
    players = study.players
    games = len(results)
    wins = [0.0] * players
    firsts = [0] * players
    order_games = [0] * players
    order_wins = [0.0] * players
    roles = Tally()
    bots = Tally()
    cards = Tally()
    reasons: dict[str, int] = {}  # the game's own end reasons, as its outcomes name them
    turns: dict[str, list[int]] = {}
    decisions = 0
    for result in results:
        won = result.wins(players)
        for seat in range(players):
            wins[seat] += won[seat]
            bots.add(study.bots[seat], won[seat])
            if result.roles:
                roles.add(result.roles[seat], won[seat])
            for card in result.cards[seat] if result.cards else ():
                cards.add(card, won[seat])
            if result.first is not None:
                offset = (seat - result.first) % players
                order_games[offset] += 1
                order_wins[offset] += won[seat]
        if result.first is not None:
            firsts[result.first] += 1
        reasons[result.reason] = reasons.get(result.reason, 0) + 1
        turns.setdefault(result.reason, []).append(result.turns)
        decisions += result.decisions
    reasons = {k: reasons[k] for k in sorted(reasons)}
    order = [Rate(order_games[k], order_wins[k]) for k in range(players)]
    by_role = roles.rates()
    card_rates = cards.rates()
    eligible = sorted(((k, r) for k, r in card_rates.items() if r.games >= min_plays),
                      key=lambda kv: (-kv[1].rate, kv[0]))
    top = eligible[:min(TOP_CARDS, math.ceil(len(eligible) / 2))]
    bottom = eligible[len(top):][-min(TOP_CARDS, len(eligible) // 2):] if len(eligible) > 1 else []
    all_turns = [r.turns for r in results]
    names = seat_names(study.game, players)
    seconds = run.seconds
    extra = {**seat_choice_summary(study, results), **sweep_summary(study, results)}
    swept = {name for name, _ in study.sweep}
    options = {k: v for k, v in load(study.game).option_values(study.options).items()
               if k not in swept}
    return {
        "game": study.game,
        "role": load(study.game).type.role.name,
        "players": players,
        "games": games,
        "seed": study.seed,
        "bots": list(study.bots),
        "options": options,
        "wins_by_seat": wins,
        "wins_by_role": {k: roles.wins[k] for k in by_role},
        "end_reasons": reasons,
        "mean_turns": sum(all_turns) / games if games else 0.0,
        "mean_decisions": sum(r.decisions for r in results) / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": run.played / seconds if seconds and run.played else 0.0,
        "decisions_per_second": run.decisions / seconds if seconds and run.decisions else 0.0,
        "seat_names": names,
        "win_rate_by_seat": [Rate(games, wins[s]).to_json() for s in range(players)],
        "first_player_by_seat": firsts,
        "win_rate_by_turn_order": [r.to_json() for r in order],
        "win_rate_by_role": {k: r.to_json() for k, r in by_role.items()},
        "win_rate_by_bot": {k: r.to_json() for k, r in bots.rates().items()},
        "end_reason_rates": {k: Rate(games, n).to_json() for k, n in reasons.items()},
        "turns": spread(all_turns),
        "turns_by_end_reason": {k: spread(turns[k]) for k in reasons},
        "min_plays": min_plays,
        "win_rate_by_card": {k: r.to_json() for k, r in card_rates.items()},
        "most_decisive_cards": [{"card": k, **r.to_json()} for k, r in top],
        "least_decisive_cards": [{"card": k, **r.to_json()} for k, r in bottom],
        **extra,
        "run": run.to_json(),
    }


def seat_choice_summary(study: Study, results: Sequence[Result]) -> dict[str, Any]:
    """For a game with a per-seat set-up choice (``GameType.setup``; the first, if it has
    more: ``first_seat_choice``): ``seat_choice``, the choice in words (``choice``,
    ``plural``, ``keyword``) and ``by_seat``, the names of the documents per seat the study
    chose (``None``: the shipped documents were rotated over the games); and
    ``seat_matrix``: ``choice``, ``names`` (shipped documents first) and ``rows``: for row
    document A and column document B (A not B), A's win rate in the games where A and B sat
    at the same table (each seat's share of the win), with its Wilson interval. Each game's
    documents are those it was set up with (``game_options``). Nothing for a game without a
    per-seat set-up choice."""
    choice = first_seat_choice(load(study.game))
    if choice is None:
        return {}
    shipped = {str(doc["id"]): str(doc["name"]) for doc in choice.shipped()}

    def shown(value: Any) -> str:
        """A document's name: a shipped one's looked up, one's own as the choice shows it."""
        if isinstance(value, str) and value in shipped:
            return shipped[value]
        return choice.show(value)

    chosen = study.options.get(choice.keyword)
    by_seat = [shown(value) for value in chosen] if isinstance(chosen, list | tuple) else None
    cells: dict[tuple[str, str], Tally] = {}
    seen: set[str] = set()
    for result in results:
        values = game_options(study, result.index).get(choice.keyword)
        if not isinstance(values, list | tuple) or len(values) != study.players:
            continue
        names = [shown(value) for value in values]
        wins = result.wins(study.players)
        seen.update(names)
        for seat, name in enumerate(names):
            for other_seat, other in enumerate(names):
                if other_seat != seat and other != name:
                    cells.setdefault((name, other), Tally()).add("", wins[seat])
    order = [n for n in shipped.values() if n in seen] + sorted(seen - set(shipped.values()))
    rows: dict[str, dict[str, Any]] = {}
    for row in order:
        rows[row] = {}
        for column in order:
            tally = cells.get((row, column))
            if tally is not None:
                rows[row][column] = tally.rates()[""].to_json()
    return {"seat_choice": {"choice": choice.name, "plural": choice.plural,
                            "keyword": choice.keyword, "by_seat": by_seat},
            "seat_matrix": {"choice": choice.name, "names": order, "rows": rows}}


def sweep_summary(study: Study, results: Sequence[Result]) -> dict[str, Any]:
    """For a study that sweeps options: ``sweep``, with ``options`` (each swept option's
    values) and ``combinations``, one per combination in order: its ``options`` and
    ``label``, ``games``, ``any_winner`` (the share of its games somebody won: a co-operative
    crew's win rate), ``win_rate_by_seat`` (each seat's share of the wins), ``turns`` (as
    the summary's) and ``mean_decisions``. Nothing for a study without a sweep."""
    if not study.sweep:
        return {}
    game = load(study.game)
    every = combinations(study.sweep)
    anyone = [Tally() for _ in every]
    seats = [Tally() for _ in every]
    turns: list[list[int]] = [[] for _ in every]
    decisions = [0] * len(every)
    for result in results:
        k = result.index % len(every)
        won = result.wins(study.players)
        anyone[k].add("", 1.0 if result.winners else 0.0)
        for seat in range(study.players):
            seats[k].add(str(seat), won[seat])
        turns[k].append(result.turns)
        decisions[k] += result.decisions
    rows = []
    for k, combination in enumerate(every):
        games = len(turns[k])
        by_seat = seats[k].rates()
        rows.append({
            "options": combination,
            "label": combination_label(combination, game),
            "games": games,
            "any_winner": anyone[k].rates().get("", Rate(0, 0.0)).to_json(),
            "win_rate_by_seat": [by_seat.get(str(seat), Rate(0, 0.0)).to_json()
                                 for seat in range(study.players)],
            "turns": spread(turns[k]),
            "mean_decisions": decisions[k] / games if games else 0.0,
        })
    return {"sweep": {"options": sweep_json(study.sweep), "combinations": rows}}


@dataclass
class Summary:
    """A study's summary as an object; ``extra`` holds the further fields (see docs/lab.md)."""

    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    wins_by_seat: list[float] = field(default_factory=list)
    wins_by_role: dict[str, float] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    mean_turns: float = 0.0
    mean_decisions: float = 0.0
    seconds: float = 0.0
    games_per_second: float = 0.0
    decisions_per_second: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_role": self.wins_by_role,
            "end_reasons": self.end_reasons,
            "mean_turns": self.mean_turns,
            "mean_decisions": self.mean_decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
            **self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        """A summary from its JSON object."""
        names = [f for f in cls.__dataclass_fields__ if f != "extra"]
        return cls(**{k: data[k] for k in names},
                   extra={k: v for k, v in data.items() if k not in names})
