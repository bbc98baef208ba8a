"""The coach's core (issue 30): hints judged from one seat's information, calibrated chances,
and the analysis of a finished game."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import toy_game

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.coach import STRENGTHS, Calibration, Judge, analyse, hint
from citywatch.coach.calibrate import fit, markdown, reliability
from citywatch.coach.chances import calibration_path
from citywatch.core.api import State
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record
from citywatch.core.registry import game_names, load, register, unregister
from citywatch.core.rng import Rng

README = Path(__file__).parents[2] / "README.md"


@pytest.fixture
def toy() -> Iterator[None]:
    """High Card registered for the test."""
    register(toy_game.NAME, toy_game.__name__)
    yield
    unregister(toy_game.NAME)


def played(game_name: str, players: int, seed: int, bot: str = "random",
           stop: int | None = None, **options: object) -> tuple[State, list[object]]:
    """A game between ``bot``s, stopped before decision ``stop`` (or at the end), and the
    JSON of its actions."""
    state = load(game_name).new_game(players, seed, **options)
    rng = Rng(seed)
    actions: list[object] = []
    while state.to_move is not None and (stop is None or len(actions) < stop):
        seat = state.to_move
        action = make_bot(bot, game_name).choose(Observation(state, seat),
                                                 state.legal_actions(), rng)
        actions.append(action.to_json())
        state.apply(action)
    return state, actions


def test_a_hint_judges_every_legal_action_and_names_the_hard_pick() -> None:
    """Issue 30: a hint gives the seat's chance after each legal action (0 to 1, in the legal
    actions' order) and the hard level's pick, and is the same again for the same generator."""
    state, _ = played("guardians-of-the-city", 2, 4, stop=30)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    assert seat is not None
    first = hint(state, seat, Rng(9), "quick", seconds=math.inf)
    again = hint(state, seat, Rng(9), "quick", seconds=math.inf)
    assert [o.action for o in first.options] == state.legal_actions()
    assert all(0.0 <= o.chance <= 1.0 and o.error >= 0.0 for o in first.options)
    assert first.hard is not None and 0 <= first.hard < len(first.options)
    assert first.worlds == STRENGTHS["quick"].worlds
    assert first.to_json() | {"seconds": 0} == again.to_json() | {"seconds": 0}
    assert first.options[first.best].chance == max(o.chance for o in first.options)


def test_a_hint_is_only_for_the_seat_to_decide() -> None:
    """Issue 30: a hint is asked for the seat whose decision it is; any other is refused."""
    state, _ = played("guardians-of-the-city", 2, 4, stop=10)
    assert state.to_move is not None
    other = 1 - state.to_move
    with pytest.raises(ValueError, match="not to decide"):
        hint(state, other, Rng(1), "quick")
    with pytest.raises(ValueError, match="unknown strength"):
        hint(state, state.to_move, Rng(1), "fierce")


def test_a_decision_that_ends_the_game_is_judged_exactly(toy: None) -> None:
    """Issue 30: where every action ends the game and the seat knows everything that decides
    it, the hint's chances are the exact results (High Card's last play: the totals are
    public and the mover knows its hand)."""
    checked = 0
    for seed in range(40):
        game = load(toy_game.NAME)
        state = game.new_game(2, seed)
        rng = Rng(seed)
        while state.to_move is not None:
            actions = state.legal_actions()
            endings = []
            for action in actions:
                after = state.copy()
                after.apply(action)
                endings.append(after.outcome())
            if len(actions) > 1 and all(e is not None for e in endings):
                seat = state.to_move
                judged = hint(state, seat, Rng(seed), "quick", seconds=math.inf)
                assert [o.chance for o in judged.options] == [
                    e.rewards(2)[seat] for e in endings if e is not None]
                checked += 1
            state.apply(actions[rng.below(len(actions))])
    assert checked >= 3


def test_the_calibration_fit_recovers_a_known_map() -> None:
    """Issue 30 (honest numbers): results drawn from a known rising map of the raw chances are
    fitted back to about that map; the fitted map rises strictly between its points (so it
    keeps the ranking of actions), and raw chances that order the results the wrong way round
    get one level, the average (they tell nothing)."""
    rng = Rng(3)

    def truth(p: float) -> float:
        return min(1.0, 0.05 + 1.3 * p * p)

    samples = []
    for _ in range(12):
        for p in [(k + 5) / 1000 for k in range(990)]:
            samples.append((p, 1.0 if rng.below(10 ** 6) < truth(p) * 10 ** 6 else 0.0))
    fitted = fit(samples)
    for p in (0.1, 0.3, 0.5, 0.7):
        assert fitted.apply(p) == pytest.approx(truth(p), abs=0.06)
    values = [fitted.apply(k / 100) for k in range(5, 80)]
    assert all(a < b for a, b in zip(values, values[1:], strict=False))
    wrong_way = fit([(p, 1.0 if p < 0.5 else 0.0) for p, _ in samples])
    average = sum(1.0 for p, _ in samples if p < 0.5) / len(samples)
    assert wrong_way.apply(0.2) == pytest.approx(average, abs=0.01)
    assert wrong_way.apply(0.8) == pytest.approx(average, abs=0.01)
    rows = reliability([(0.05, 0.0), (0.15, 1.0), (0.95, 1.0), (1.0, 1.0)])
    assert [(r["count"], r["observed"]) for r in rows] == [(1, 0.0), (1, 1.0), (2, 1.0)]


def test_a_calibration_is_read_only_if_it_rises() -> None:
    """Issue 30: a calibration file's points are numbers from 0 to 1 that rise; anything else
    is refused, and a judge uses the map fitted for the number of seats when there is one."""
    good = Calibration.from_json({"points": [[0, 0], [0.5, 0.4], [1, 1]]})
    assert good.apply(0.25) == pytest.approx(0.2)
    for bad in ({"points": [[0, 0.5], [1, 0.2]]}, {"points": [[0, 2]]}, {"slope": 1},
                {"points": [[0, True]]}):
        with pytest.raises(ValueError):
            Calibration.from_json(bad)
    game = load("guardians-of-the-city")
    judge = Judge(game, calibrations={"competitive": Calibration(((0.0, 0.1), (1.0, 0.1))),
                                      "competitive/2": Calibration(((0.0, 0.3), (1.0, 0.3)))})
    assert judge.calibrated([0.5, 0.5], "competitive") == [0.3, 0.3]
    assert judge.calibrated([0.5], "competitive", players=3) == [0.1]


@pytest.mark.parametrize("name", game_names())
def test_every_game_is_calibrated_and_the_readme_shows_its_table(name: str) -> None:
    """Issue 30 (honest numbers): every game has a calibration measured on at least 400 games
    the fit never saw, and the README shows exactly that reliability table."""
    data = json.loads(calibration_path(name).read_text(encoding="utf-8"))
    assert data["kinds"], f"{name} has no calibration"
    for entry in data["kinds"].values():
        assert entry["games"] >= 400
        assert sum(row["count"] for row in entry["table"]) == entry["positions"]
        Calibration.from_json(entry["calibration"])
    readme = README.read_text(encoding="utf-8")
    assert markdown(data) in readme, f"the README's table for {name} is not the measured one"


def test_a_finished_game_is_analysed_with_its_turning_points() -> None:
    """Issue 30: the analysis gives every seat's chance before each decision and the outcome
    at the end, each decision's swing, and the largest swings among decisions with a choice
    as turning points, each with the hard level's pick judged beside the action taken."""
    state, actions = played("black-keep", 1, 5, bot="heuristic", scenario="tutorial")
    record = Record("black-keep", 1, 5, {"scenario": "tutorial"}, actions,
                    meta={"hints": [{"step": 2, "seat": 0}]})
    analysis = analyse(record, "quick", turning=3)
    outcome = state.outcome()
    assert outcome is not None
    assert len(analysis.curve) == len(actions) + 1
    assert analysis.curve[-1] == outcome.rewards(1)
    assert analysis.cooperative and analysis.hints == [{"step": 2, "seat": 0}]
    assert [m.step for m in analysis.moments] == list(range(1, len(actions) + 1))
    for k, moment in enumerate(analysis.moments):
        assert moment.before == analysis.curve[k][moment.seat]
    with_choice = [m for m in analysis.moments if m.choices > 1]
    largest = sorted(abs(m.swing) for m in with_choice)[-len(analysis.turning):]
    assert sorted(abs(t.moment.swing) for t in analysis.turning) == largest
    assert [t.moment.step for t in analysis.turning] == sorted(t.moment.step
                                                               for t in analysis.turning)
    for point in analysis.turning:
        assert (point.hard_text is None) == (point.hard is None)
    lines = analysis.lines()
    assert re.match(r"1\. Decision \d+ \(turn \d+\), Thief 1: ", lines[0])
    assert analysis.to_json()["curve"][-1] == outcome.rewards(1)


def test_only_a_finished_game_is_analysed() -> None:
    """Issue 30: during a game the analysis (which reads the whole record) is refused, as are a
    bad seat and too many turning points."""
    _, actions = played("black-keep", 1, 5, bot="heuristic", stop=6, scenario="tutorial")
    record = Record("black-keep", 1, 5, {"scenario": "tutorial"}, actions)
    with pytest.raises(InvalidRecord, match="not over"):
        analyse(record)
    with pytest.raises(ValueError, match="seat"):
        analyse(record, seat=3)
    with pytest.raises(ValueError, match="turning points"):
        analyse(record, turning=21)
