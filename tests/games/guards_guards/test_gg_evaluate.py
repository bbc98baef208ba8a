"""Guards! Guards!'s evaluation (``evaluate.py``): weighed features fitted to who won heuristic
games (``fit_evaluation.py``), the judge of positions where search bots cut a playout short."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from gg_positions import base, give, load, seat, set_level, unset

from citywatch.games.guards_guards import evaluate as ev
from citywatch.games.guards_guards import fit_evaluation as fit
from citywatch.games.guards_guards.data import GUILD_CARDS, SPELL_COLOURS


def test_equal_shares_until_every_guild_card_is_chosen() -> None:
    """Before set-up ends (Beginning the Game) nobody is ahead: equal shares."""
    s = load(unset(3))
    assert ev.evaluate(s) == [1 / 3] * 3


def test_shares_sum_to_one_and_a_returned_spell_raises_the_share() -> None:
    """Winning the Game: the first to return the agreed Great Spells wins, so a seat with one
    more spell returned has a larger share, and the shares still sum to 1."""
    pos = base(3)
    before = ev.evaluate(load(pos))
    red = seat(pos, "Red")
    card = next(g for g in GUILD_CARDS if g.name == red["guild_card"])
    red["returned"] = [SPELL_COLOURS[card.spells[0]]]
    after = ev.evaluate(load(pos))
    assert math.isclose(sum(before), 1.0) and math.isclose(sum(after), 1.0)
    assert before == pytest.approx([1 / 3] * 3, abs=0.12)  # near-equal after set-up
    assert after[0] > before[0] + 0.05 and after[1] < before[1]


def test_volunteers_and_magic_count_for_the_challenges() -> None:
    """The Wizards' Challenges test the Runners' stats and, last, Magic and Guild: more
    Volunteers in hand and a higher Magic level are worth more."""
    pos = base(3)
    plain = ev.evaluate(load(pos))[0]
    more = ev.evaluate(load(give(base(3), "Red", ["The Dean", "Drumknott"])))[0]
    magic = ev.evaluate(load(set_level(base(3), "Red", "magic", 9)))[0]
    assert more > plain and magic > plain


def test_weights_file_weighs_exactly_the_features(tmp_path: Path) -> None:
    """The committed weights are for ``FEATURES`` in order; a file for other features is
    refused with the command that refits it."""
    data = json.loads(ev.WEIGHTS_JSON.read_text())
    assert data["features"] == list(ev.FEATURES)
    assert len(ev.WEIGHTS) == len(ev.FEATURES) and any(ev.WEIGHTS)
    assert data["held_out_log_loss"] < data["equal_shares_log_loss"]
    other = tmp_path / "w.json"
    other.write_text(json.dumps({"features": ["spells"], "weights": [1.0]}))
    with pytest.raises(ValueError, match="fit_evaluation"):
        ev.load_weights(other)


def test_evaluation_predicts_the_winner_of_unseen_games_better_than_equal_shares() -> None:
    """On heuristic games the fit never saw (seeds far from its own), the winner's mean
    share is higher, and the log-loss lower, than with equal shares."""
    samples = [x for seed in range(90_000, 90_010) for x in fit.play(seed)]
    assert len(samples) > 100
    assert fit.log_loss(ev.WEIGHTS, samples) < math.log(4) - 0.1


def test_fit_lowers_the_log_loss_and_writes_the_weights(tmp_path: Path) -> None:
    """``fit_evaluation`` fits weights that explain its games better than zeros, writes them
    with their held-out score, and is deterministic."""
    out = tmp_path / "evaluation.json"
    args = ["--games", "3", "--held-out", "1", "--seed", "70000", "--out", str(out)]
    result = fit.main(args)
    assert json.loads(out.read_text()) == result
    assert result["features"] == list(ev.FEATURES)
    train = [x for seed in range(70_000, 70_003) for x in fit.play(seed)]
    assert fit.log_loss(result["weights"], train) < fit.log_loss([0.0] * len(ev.FEATURES), train)
    assert fit.main(args)["weights"] == result["weights"]
    with pytest.raises(SystemExit):
        fit.main(["--games", "0"])
