"""Ankh-Morpork's difficulty levels and the fitted evaluation its search judges positions by
(issue 13, part 3): ``evaluate.py``, ``fit_evaluation.py``, ``data/evaluation.json`` and
``Game.levels``. Rules cited: the rulebook's winning conditions and the rulings
(``shared/rules``: 1, 24-28)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import citywatch
from citywatch.bots import LEVELS, Observation, make_bot, parse_spec
from citywatch.bots.ismcts import ISMCTSBot
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork import evaluate as ev
from citywatch.games.ankh_morpork import fit_evaluation as fit
from citywatch.games.ankh_morpork.data import PERSONALITIES
from citywatch.games.ankh_morpork.heuristic import HeuristicBot
from citywatch.games.ankh_morpork.state import AnkhMorporkState

AM = "ankh-morpork"
GAME = citywatch.load(AM)
README = Path(__file__).resolve().parents[3] / "README.md"


def _random_positions(count: int, players: int = 4, seed: int = 11) -> list[AnkhMorporkState]:
    """Positions along random games, some of them finished."""
    out: list[AnkhMorporkState] = []
    k = 0
    while len(out) < count:
        s = GAME.new_game(players, seed + k)
        rng = Rng(seed + k)
        steps = 0
        while s.to_move is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
            if steps % 37 == 0:
                out.append(s.copy())
        out.append(s)
        k += 1
    return out


def _seat_with(s: AnkhMorporkState, name: str) -> int | None:
    """The seat holding the personality called ``name`` in ``s``, or None."""
    for seat in range(s.n):
        if PERSONALITIES[s.personality[seat]].name == name:
            return seat
    return None


def test_evaluation_shares_sum_to_one_and_a_finished_game_gives_its_winners_everything() -> None:
    """Rulings 1 and 24-25: a game ends with its winners; the evaluation of a finished game
    gives each winner an equal share and the others none, and of a running game shares in
    [0, 1] summing to 1, fitted (``evaluate``) or hand-made (``hand_evaluate``)."""
    finished = 0
    for s in _random_positions(40):
        for values in (ev.evaluate(s), ev.hand_evaluate(s), GAME.evaluate(s)):
            assert values is not None and len(values) == s.n
            assert math.isclose(sum(values), 1.0)
            assert all(0.0 <= v <= 1.0 for v in values)
        if s.result is not None:
            finished += 1
            winners = s.result.winners
            assert ev.evaluate(s) == [1 / len(winners) if p in winners else 0.0
                                      for p in range(s.n)]
    assert finished >= 2


def test_evaluation_favours_chrysoprase_nearing_his_net_worth() -> None:
    """Ruling 26: Chrysoprase wins with a net worth of $50; more money brings him nearer, and
    his share of winning grows with it, taken from the others."""
    for seed in range(40):
        s = GAME.new_game(4, seed)
        seat = _seat_with(s, "Chrysoprase")
        if seat is not None:
            break
    else:
        pytest.fail("no deal with Chrysoprase")
    before = ev.evaluate(s)
    s.money[seat] += 35
    after = ev.evaluate(s)
    assert after[seat] > before[seat]
    assert after[seat] == max(after)


def test_evaluation_features_are_one_row_per_seat_in_the_order_of_features() -> None:
    """``features`` measures every seat with ``FEATURES``' columns; exactly one personality
    kind is set (the five kinds of the rulebook's personality cards)."""
    s = _random_positions(3)[1]
    for seat in range(s.n):
        row = ev.features(s, seat)
        assert len(row) == len(ev.FEATURES)
        kinds = row[ev.FEATURES.index("vetinari"):ev.FEATURES.index("vimes") + 1]
        assert sorted(kinds) == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_evaluate_is_the_softmax_of_the_weighed_features() -> None:
    """``evaluate`` shares the parts of every seat's features (and reads a seat's points as
    its material unless a loan is due, ruling 25) yet gives exactly the softmax of
    ``WEIGHTS`` times ``features``."""
    assert ev.WEIGHTS is not None
    for s in _random_positions(30, seed=40):
        if s.result is not None:
            continue
        values = [sum(w * x for w, x in zip(ev.WEIGHTS, ev.features(s, p), strict=True))
                  for p in range(s.n)]
        top = max(values)
        exps = [math.exp(v - top) for v in values]
        expected = [x / sum(exps) for x in exps]
        assert all(math.isclose(a, b, abs_tol=1e-12)
                   for a, b in zip(ev.evaluate(s), expected, strict=True))


def test_evaluation_weights_file_weighs_exactly_the_features(tmp_path: Path) -> None:
    """The committed weights are for ``FEATURES`` in order and beat equal shares on the games
    held out; a file for other features is refused with the command that refits it, and
    without a file the hand-made evaluation is used."""
    data = json.loads(ev.WEIGHTS_JSON.read_text())
    assert data["features"] == list(ev.FEATURES)
    assert ev.WEIGHTS is not None
    assert len(ev.WEIGHTS) == len(ev.FEATURES) and any(ev.WEIGHTS)
    assert data["held_out_log_loss"] < data["equal_shares_log_loss"]
    other = tmp_path / "w.json"
    other.write_text(json.dumps({"features": ["money"], "weights": [1.0]}))
    with pytest.raises(ValueError, match="fit_evaluation"):
        ev.load_weights(other)
    assert ev.load_weights(tmp_path / "missing.json") is None
    s = _random_positions(2)[0]
    assert ev.evaluate(s, None) == ev.hand_evaluate(s)


def test_fit_writes_what_it_fitted_and_lowers_the_log_loss(tmp_path: Path) -> None:
    """``fit_evaluation`` plays heuristic games, fits weights that explain them better than
    zeros, writes exactly what it returns, and is deterministic."""
    out = tmp_path / "evaluation.json"
    args = ["--games", "2", "--held-out", "1", "--seed", "71000", "--out", str(out)]
    result = fit.main(args)
    assert json.loads(out.read_text()) == result
    assert result["features"] == list(ev.FEATURES)
    train = [x for seed in range(71_000, 71_002) for x in fit.play(seed)]
    assert train
    assert fit.log_loss(result["weights"], train) < fit.log_loss([0.0] * len(ev.FEATURES), train)
    assert fit.main(args)["weights"] == result["weights"]


def test_levels_resolve_to_the_specs_the_readme_documents() -> None:
    """Issue 13.3: easy, normal and hard are each the bot of the spec the game names
    (``Game.levels``; hard is ``ismcts`` with ``search_options``), and the README's
    "Measured strength" table names each spec."""
    readme = README.read_text()
    easy = make_bot("easy", AM)
    assert isinstance(easy, HeuristicBot)
    assert (easy.lookahead, easy.width) == (0, 8)
    for level in LEVELS:
        spec = GAME.level_spec(level)
        assert f"`{spec}`" in readme, f"README documents no spec {spec!r} for {level}"
    normal, hard = make_bot("normal", AM), make_bot("hard", AM)
    assert isinstance(normal, ISMCTSBot) and isinstance(hard, ISMCTSBot)
    name, options = parse_spec(GAME.level_spec("normal"))
    assert name == "ismcts"
    for key, value in {**GAME.search_options, **options}.items():
        assert getattr(normal, key) == value
    for key, value in GAME.search_options.items():
        assert getattr(hard, key) == value
    assert hard.iterations > normal.iterations
    assert normal.evaluator is not None


def test_levels_choose_legal_actions_from_their_own_view() -> None:
    """Each level plays a legal action chosen from its seat's observation alone: the same
    choice in the true state and in a world sampled for that seat."""
    s = _random_positions(2, seed=5)[0]
    seat = s.to_move
    assert seat is not None
    legal = s.legal_actions()
    world = s.determinize(seat, Rng(9))
    for level in ("easy", "normal"):
        bot = make_bot(level, AM)
        choice = bot.choose(Observation(s, seat), legal, Rng(3))
        assert choice in legal
        assert make_bot(level, AM).choose(Observation(world, seat), world.legal_actions(),
                                          Rng(3)) == choice
