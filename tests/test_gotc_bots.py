"""Guardians of the City's heuristic bot (``heuristic.py``) and evaluation (``evaluate.py``),
each checked from positions (``gotc_positions``). Rules cited: the rulebook's sections and the
rulings (``shared/reference/guardians-of-the-city/rulings.md``)."""

from __future__ import annotations

import math

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

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city import evaluate as ev
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
    seat with more Counter-Terrorism points gets the larger share; shares sum to 1."""
    pos = game_with("Raids")
    even = ev.evaluate(load(pos))
    assert math.isclose(sum(even), 1.0) and math.isclose(even[0], 0.5)
    seat(pos, P1)["ct"] = 6
    ahead = ev.evaluate(load(pos))
    assert math.isclose(sum(ahead), 1.0) and ahead[0] > 0.75
    support(pos, P1, "1111")
    behind = ev.evaluate(load(pos))
    assert behind[0] < 0.5 < behind[1]


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
