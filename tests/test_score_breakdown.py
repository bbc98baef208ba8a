"""The end screen's breakdown (issue 26): every game declares, through ``Game.score_breakdown``,
each seat's points as labelled parts that add up to the points the outcome gives it, a result
in words, and what the end reveals; the interfaces read only that. Games of random bots to the
end, for every registered game and the toy game (the core's default)."""

from __future__ import annotations

import json

import pytest
import toy_game

from citywatch.bots import Observation, RandomBot
from citywatch.core.api import Game, ScorePart, SeatScore, State
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

SEATS = {"ankh-morpork": 4, "guards-guards": 3, "guardians-of-the-city": 2, "black-keep": 2}
"""Seats per game (the smallest with something to compare, else the game's usual number)."""


def played(game: Game, players: int, seed: int) -> tuple[State, State]:
    """A game of random bots from ``seed``: a state after its first decisions, and the end."""
    state = game.new_game(players, seed)
    bot, rng = RandomBot(), Rng(seed)
    early = state.copy()
    steps = 0
    while (seat := state.to_move) is not None:
        state.apply(bot.choose(Observation(state, seat), state.legal_actions(), rng))
        steps += 1
        if steps == 5:
            early = state.copy()
    return early, state


def check_breakdown(game: Game, state: State) -> list[SeatScore]:
    """The breakdown of a finished ``state``: one ``SeatScore`` per seat, each adding up to
    its points (``Outcome.seat_points``), every part labelled, every result a sentence, and
    JSON that reads back the same."""
    outcome = state.outcome()
    assert outcome is not None
    scores = game.score_breakdown(state)
    assert scores is not None and len(scores) == state.players
    points = outcome.seat_points()
    assert points is None or [x.points for x in scores] == list(points)
    for score in scores:
        assert all(isinstance(p, ScorePart) and p.label for p in score.parts)
        assert score.points == sum(p.points for p in score.parts)
        assert score.result and score.result.endswith(".")
        assert all(what and value for what, value in score.revealed)
        shown = score.to_json()
        assert json.loads(json.dumps(shown)) == shown
        assert shown["points"] == score.points
    return list(scores)


@pytest.mark.parametrize("name", game_names())
def test_every_games_breakdown_adds_up_to_its_points(name: str) -> None:
    """Issue 26: in random games of every game to the end, each seat's labelled parts add up
    to the points its outcome gives it; before the end there is no breakdown."""
    game = load(name)
    for seed in range(3):
        start, end = played(game, SEATS.get(name, game.min_players), seed)
        assert game.score_breakdown(start) is None
        check_breakdown(game, end)


def test_the_cores_default_breakdown_is_one_part_of_points() -> None:
    """Issue 26: a game that declares no breakdown gets one part per seat, its points under
    the name ``GameType.points`` gives them, and whether it won."""
    game = toy_game.GAME
    _start, end = played(game, 2, 4)
    scores = check_breakdown(game, end)
    outcome = end.outcome()
    assert outcome is not None
    for seat, score in enumerate(scores):
        assert [p.label for p in score.parts] == [game.type.points.capitalize()]
        assert score.result.startswith("Won" if seat in outcome.winners else "Did not win")
