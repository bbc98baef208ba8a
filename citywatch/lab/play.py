"""Playing one game between bots (``play_game``, which returns a ``GameResult``) and the seat
that moves first (``first_seat``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citywatch.bots import Bot, Observation
from citywatch.core.api import Outcome, State
from citywatch.core.record import Record
from citywatch.core.registry import load
from citywatch.core.rng import Rng


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
    options: Mapping[str, Any] | None = None,
) -> GameResult:
    """Play one game to the end, set up with the game's ``options``; bots see only their
    seat's observation.

    The result also names the seat that moved first and the cards each seat played
    (actions whose JSON has the verb ``"play"`` and a ``"card"``), in order, without repeats.
    """
    game = load(game_name)
    chosen = dict(options or {})
    state: State = game.new_game(players=players, seed=seed, **chosen)
    first = first_seat(state)
    rngs = [Rng(bot_seed + 7919 * seat) for seat in range(players)]
    record = Record(game_name, players, seed, chosen, [], [] if digests else None)
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
    """The seat to move first: the spectator view's ``current`` (a seat, or its name as
    ``GameType.seat_name`` reads it)."""
    view = state.view(None)
    current = view.get("current")
    if isinstance(current, int) and not isinstance(current, bool):
        return current
    if isinstance(current, str):
        for number in range(state.players):
            if state.game.type.seat_name(state.view(number)) == current:
                return number
    return state.to_move
