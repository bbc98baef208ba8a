"""Guardians of the City's heuristic bot (``heuristic.py``) and evaluation (``evaluate.py``),
each checked from positions (``gotc_positions``). Rules cited: the rulebook's sections and the
rulings (``shared/reference/guardians-of-the-city/rulings.md``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from gotc_positions import (
    act,
    cells,
    effort,
    game_with,
    hand,
    load,
    seat,
    step2,
    step4,
    subversive,
    support,
)

from citywatch.bots import fitting, make_bot
from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city import evaluate as ev
from citywatch.games.guardians_of_the_city import fit_evaluation as fit
from citywatch.games.guardians_of_the_city.data import CELLS, GROUPS
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.heuristic import HeuristicBot
from citywatch.games.guardians_of_the_city.state import GotcState

P1, P2 = 0, 1


def choice(s: GotcState, seat_: int = P1, seed: int = 3) -> str:
    """The heuristic's choice for ``seat_``, as text."""
    return str(HeuristicBot().choose(Observation(s, seat_), s.legal_actions(), Rng(seed)))


def test_heuristic_plays_the_card_that_takes_most_from_the_cells() -> None:
    """Step 2 (rulebook section 7): 1 Counter-Terrorism point per point removed, so of Raids
    (-2) and Border Patrol (-1) with one play allowed (Subversive (Disrupt): Civil at most 2
    plays one card), it plays Raids."""
    pos = game_with("Raids", "Border Patrol", "Subversive (Disrupt)")
    step2(pos, P1)
    hand(pos, P1, ["Raids", "Border Patrol"])
    effort(pos, P1, "42222")
    subversive(pos, P2, "Subversive (Disrupt)")
    s = load(pos)
    assert choice(s) == "Play Raids"


def test_heuristic_finishes_the_weakest_cell_without_waste() -> None:
    """A cell at 0 is eliminated and overkill earns nothing (section 9, ruling 1): Border
    Patrol's single point goes to the cell at 1, finishing it, not to a stronger one."""
    pos = game_with("Border Patrol")
    step2(pos, P1)
    hand(pos, P1, ["Border Patrol"])
    cells(pos, "516")
    s = act(load(pos), "Play Border Patrol")
    assert choice(s) == f"Reduce {CELLS[1]}"


def test_heuristic_protects_a_group_about_to_leave() -> None:
    """A Citizen Group at 0 leaves for good (section 7 Step 3) and losing every group loses
    the game: with one play allowed (Disrupt) and a group at 1, the heuristic heals rather
    than takes a cell point, and raises that weakest group."""
    pos = game_with("Neighbourly Help", "Border Patrol", "Subversive (Disrupt)")
    step2(pos, P1)
    hand(pos, P1, ["Neighbourly Help", "Border Patrol"])
    effort(pos, P1, "42222")
    support(pos, P1, "4414")
    subversive(pos, P2, "Subversive (Disrupt)")
    s = load(pos)
    assert choice(s) == "Play Neighbourly Help"
    s = act(s, "Play Neighbourly Help")
    assert choice(s) == f"Raise the support of {GROUPS[2]}"


def test_heuristic_never_discards_in_step_4() -> None:
    """End condition (a) (section 6, ruling 18): the player whose Action deck runs out loses,
    so in Step 4 the heuristic draws without discarding."""
    pos = game_with("Raids")
    step4(pos, P1)
    s = load(pos)
    assert choice(s) == "Draw back up to 4 Action cards"


def _twin(s: GotcState, me: int) -> GotcState:
    """The same state with every card hidden from ``me`` dealt otherwise (the other seats'
    hands and every deck's order) and other dice: nothing ``me`` sees differs (ruling 17)."""
    twin = s.copy()
    for p in range(twin.n):
        if p != me:
            size = len(twin.hand[p]) - len(twin.known[p])
            pool = list(twin.hand[p])
            for c in twin.known[p]:
                pool.remove(c)
            pool += twin.action_deck[p]
            pool.reverse()
            twin.hand[p] = list(twin.known[p]) + pool[:size]
            twin.action_deck[p] = pool[size:]
        twin.crisis_deck[p] = twin.crisis_deck[p][::-1]
    twin.action_deck[me] = twin.action_deck[me][::-1]
    twin.rng = Rng(twin.rng.state ^ 0x5151)
    twin._legal = None
    return twin


def test_heuristic_never_reads_hidden_cards() -> None:
    """Hands and deck order are hidden (ruling 17): in two worlds that differ only there, the
    heuristic (and the search over it) makes the same choice."""
    compared = 0
    for seed in range(30):
        s = GAME.new_game(2, seed)
        rng = Rng(seed)
        for _ in range(15 + 3 * seed):
            if s.to_move is None:
                break
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        me = s.to_move
        if me is None or len(s.legal_actions()) < 2:
            continue
        twin = _twin(s, me)
        assert twin.view(me) == s.view(me)
        if twin.position() == s.position():
            continue
        for spec in ("heuristic", "ismcts:iterations=8:depth=6:playout=heuristic"):
            a = make_bot(spec, GAME.name).choose(Observation(s, me), s.legal_actions(), Rng(9))
            b = make_bot(spec, GAME.name).choose(Observation(twin, me), twin.legal_actions(),
                                                 Rng(9))
            assert a == b
        compared += 1
    assert compared >= 5


def test_evaluation_sums_to_one_and_rewards_the_leader() -> None:
    """Section 10: the highest score (CT points + support + Special Intelligence) wins, so a
    seat with 6 more Counter-Terrorism points gets a much larger share, and one whose groups
    all fall to 1 a smaller one; shares sum to 1."""
    pos = game_with("Raids")
    even = ev.evaluate(load(pos))
    assert math.isclose(sum(even), 1.0) and 0.2 < even[0] < 0.8
    seat(pos, P1)["ct"] = 6
    ahead = ev.evaluate(load(pos))
    assert math.isclose(sum(ahead), 1.0) and ahead[0] > even[0] + 0.3
    support(pos, P1, "1111")
    behind = ev.evaluate(load(pos))
    assert math.isclose(sum(behind), 1.0) and behind[0] < ahead[0] - 0.3


def test_evaluation_of_a_finished_game_is_its_result() -> None:
    """Ruling 19: a finished game's winner takes the whole share."""
    s = GAME.new_game(2, 4)
    rng = Rng(4)
    while s.to_move is not None:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    shares = ev.evaluate(s)
    outcome = s.outcome()
    assert outcome is not None and math.isclose(sum(shares), 1.0)
    for p in outcome.winners:
        assert shares[p] > 0
    assert GAME.evaluate(s) == shares


def test_heuristic_lookahead_option_is_checked() -> None:
    """A bot spec with a bad option value is refused with a clear error, naming the option."""
    assert make_bot("heuristic:lookahead=0", GAME.name).choose is not None
    with pytest.raises(ValueError, match="lookahead"):
        make_bot("heuristic:lookahead=2", GAME.name)


def test_evaluation_weights_file_weighs_exactly_the_features(tmp_path: Path) -> None:
    """The committed weights are for ``FEATURES`` in order and beat equal shares on the games
    held out; a file for other features is refused with the command that refits it."""
    data = json.loads(ev.WEIGHTS_JSON.read_text())
    assert data["features"] == list(ev.FEATURES)
    assert len(ev.WEIGHTS) == len(ev.FEATURES) and any(ev.WEIGHTS)
    assert data["held_out_log_loss"] < data["equal_shares_log_loss"]
    other = tmp_path / "w.json"
    other.write_text(json.dumps({"features": ["score"], "weights": [1.0]}))
    with pytest.raises(ValueError, match="fit_evaluation"):
        ev.load_weights(other)


def test_evaluation_predicts_the_winner_of_unseen_games_better_than_equal_shares() -> None:
    """Section 10: who leads in score when the cells fall wins; on heuristic games the fit
    never saw, the fitted shares' log-loss is well below that of equal shares."""
    samples = [x for seed in range(90_000, 90_008) for x in fit.play(seed)]
    assert len(samples) > 100
    assert fit.log_loss(ev.WEIGHTS, samples) < math.log(2) - 0.1


def test_fit_lowers_the_log_loss_and_writes_the_weights(tmp_path: Path) -> None:
    """``fit_evaluation`` fits weights that explain its games better than zeros, writes them
    with their held-out score, and is deterministic; bad arguments are refused."""
    out = tmp_path / "evaluation.json"
    args = ["--games", "3", "--held-out", "1", "--seed", "70000", "--out", str(out)]
    result = fit.main(args)
    assert json.loads(out.read_text()) == result
    assert result["features"] == list(ev.FEATURES)
    train = [x for seed in range(70_000, 70_003) for x in fit.play(seed)]
    assert fit.log_loss(result["weights"], train) < fit.log_loss([0.0] * len(ev.FEATURES), train)
    assert fit.main(args)["weights"] == result["weights"]
    with pytest.raises(SystemExit):
        fit.main(["--games", "0", "--out", str(out)])
    with pytest.raises(ValueError, match="no samples"):
        fitting.fit([])


def _choices(spec: str, seed: int, decisions: int) -> list[str]:
    """The first ``decisions`` choices of a game of ``spec`` against the heuristic."""
    s = GAME.new_game(2, seed)
    bots = [make_bot(spec, GAME.name), HeuristicBot()]
    rng = Rng(seed)
    played = []
    while (me := s.to_move) is not None and len(played) < decisions:
        action = bots[me].choose(Observation(s, me), s.legal_actions(), rng)
        played.append(str(action))
        s.apply(action)
    return played


def test_remembered_exposure_and_effort_values_change_no_choice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic remembers exposure tables and effort assignments' values by everything
    they read, so that a playout's five National Effort steps (rulebook section 7, Step 1)
    value the assignments once: the heuristic and a search over it choose exactly as they
    do with nothing remembered."""
    import citywatch.games.guardians_of_the_city.heuristic as heuristic

    spec = "ismcts:iterations=6:worlds=2:depth=6:playout=heuristic:prior=0.1:margin=2"
    remembered = _choices(spec, 11, 80)
    assert ev._TABLES and heuristic._VALUES
    monkeypatch.setattr(ev, "CACHE_LIMIT", 0)
    monkeypatch.setattr(heuristic, "VALUES_LIMIT", 0)
    ev._TABLES.clear()
    heuristic._VALUES.clear()
    assert _choices(spec, 11, 80) == remembered
    assert not ev._TABLES and not heuristic._VALUES
