"""Play many games between bots and summarise them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citywatch.bots import Bot, Observation
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
    first: int | None = None
    cards: list[list[str]] = field(default_factory=list)


def play_game(
    game_name: str,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    bot_seed: int,
    *,
    digests: bool = False,
) -> GameResult:
    """Play one game to the end; bots see only their seat's observation.

    The result also names the seat that moved first and the cards each seat played
    (actions whose JSON has the verb ``"play"`` and a ``"card"``), in order, without repeats.
    """
    game = load(game_name)
    state: State = game.new_game(players=players, seed=seed)
    first = first_seat(state)
    rngs = [Rng(bot_seed + 7919 * seat) for seat in range(players)]
    record = Record(game_name, players, seed, {}, [], [] if digests else None)
    cards: list[list[str]] = [[] for _ in range(players)]
    decisions = 0
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        action = bots[seat].choose(Observation(state, seat), legal, rngs[seat])
        state.apply(action)
        decisions += 1
        data = action.to_json()
        record.actions.append(data)
        if isinstance(data, dict) and data.get("verb") == "play":
            card = data.get("card")
            if isinstance(card, str) and card not in cards[seat]:
                cards[seat].append(card)
        if record.digests is not None:
            record.digests.append(state.digest())
    outcome = state.outcome()
    assert outcome is not None
    turns = state.turn_count()
    return GameResult(seed, outcome, turns, decisions, record, first, cards)


def first_seat(state: State) -> int | None:
    """The seat to move first: the spectator view's ``current`` (a seat or its colour)."""
    view = state.view(None)
    current = view.get("current")
    if isinstance(current, int) and not isinstance(current, bool):
        return current
    if isinstance(current, str):
        for number, seat in enumerate(view.get("seats", [])):
            if isinstance(seat, dict) and seat.get("colour") == current:
                return number
    return state.to_move


@dataclass
class Summary:
    """Totals over many games; ``extra`` holds the lab's further fields (see docs/lab.md)."""

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
            "wins_by_personality": self.wins_by_personality,
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


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    bot_names: Sequence[str],
    records: Path | None = None,
    *,
    workers: int | None = 1,
    ray: str | None = None,
    use_ray: bool = False,
    report: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    min_plays: int | None = None,
) -> Summary:
    """Play ``games`` games; game k's seed is drawn from a generator seeded with ``seed``.

    ``workers`` processes (``None``: every core) or Ray tasks when ``use_ray`` (``ray`` is the
    address). With ``report`` or ``records`` a directory, finished games are kept in its
    ``games.jsonl`` and a rerun continues from them; ``report`` also receives the summary as
    JSON, CSV and an HTML page with plots. ``ValueError`` for bad options.
    """
    from citywatch import lab

    study = lab.make_study(game_name, players, seed, bot_names)
    folder = report if report is not None else records
    results, run = lab.run_study(
        study, games, workers=workers, ray=ray, use_ray=use_ray,
        results_file=None if folder is None else folder / lab.RESULTS,
        records=records, progress=progress)
    data = lab.summarise(study, results, run,
                         lab.MIN_PLAYS if min_plays is None else min_plays)
    if report is not None:
        from citywatch.lab_report import write_report

        write_report(report, data, results)
    return Summary.from_json(data)
