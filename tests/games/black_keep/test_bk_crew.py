"""Thieves of the Black Keep: the heuristic thieves play for their crew in co-op (issue 28).

Section 9: the crew loses the moment any thief is caught or killed, or at dawn, and wins when
every thief has escaped and they carry at least one real treasure between them. In the
tutorial every thief's Exit card is the Guardroom, whose outside edge hexes are the start
hexes A1, A7, C1 and D7, so a thief there can step off the map at once (6.7).
"""

from __future__ import annotations

import bk_positions as P

from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep import evaluate as ev
from citywatch.games.black_keep.actions import Action
from citywatch.games.black_keep.data import TREASURES
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.heuristic import HeuristicBot, card_plan, simulate
from citywatch.games.black_keep.scoring import carries_real_treasure
from citywatch.games.black_keep.state import ESCAPED, IN_PLAY, BlackKeepState

State = BlackKeepState


def choice(s: State, seat: int, seed: int = 3, lookahead: int = 2) -> Action:
    """The heuristic's choice for ``seat`` through its observation."""
    action: Action = HeuristicBot(lookahead=lookahead).choose(
        Observation(s, seat), s.legal_actions(), Rng(seed))
    return action


def to_plan_of(s: State, seat: int) -> State:
    """Play the seats before ``seat`` on with their first legal choices until ``seat`` makes
    its thief card plan."""
    while s.stack[-1] != ("plan_card", seat):
        s.apply(s.legal_actions()[0])
    return s


def crew(starts: list[str], **thieves: dict[str, object]) -> State:
    """A tutorial co-op game at its first plan decision, thief k on ``starts[k]``; ``thieves``
    maps ``"t1"``, ``"t2"``... to position fields of that thief."""
    pos = P.opening("tutorial", thieves=len(starts), seed=1, starts=starts)
    for key, fields in thieves.items():
        seat = int(key[1:]) - 1
        P.put_thief(pos, seat, pos["thieves"][seat]["hex"], **fields)
    return P.load(pos)


def real_treasure(pos_treasures: list[str]) -> str:
    """A real treasure's name from the crown's tokens."""
    return next(t for t in pos_treasures if t != "Fake")


def test_first_thief_of_the_crew_fetches_and_the_others_wait() -> None:
    """Section 9: one real treasure is enough for the crew, so only the first thief in play
    goes for the crown; the others make for their Exit tile. Once a crewmate carries a real
    one, nobody else wants one."""
    s = crew(["A1", "D7", "C1"])
    assert [ev.wants_treasure(s, p) for p in range(3)] == [True, False, False]
    assert ev.fetcher(s) == 0
    s.thieves[0].standing = ESCAPED
    assert ev.fetcher(s) == 1 and ev.wants_treasure(s, 1)
    s.thieves[0].treasure = next(x for x in s.treasures if TREASURES[x].real)
    assert not ev.wants_treasure(s, 1)


def test_crew_thief_without_a_treasure_does_not_leave_while_a_crewmate_is_in() -> None:
    """Section 9, issue 28: both thieves stand on outside edge hexes of their Exit tile and may
    step off (6.7), but the crew carries no treasure yet and a crewmate is still in, so
    neither leaves (before, both walked out in round 1 and the crew lost)."""
    for seed in range(3):
        s = crew(["A1", "D7"])
        assert any(a.verb == verbs.ESCAPE for a in s.legal_actions())
        first = choice(s, 0, seed)
        assert first.verb != verbs.ESCAPE
        s.apply(first)
        to_plan_of(s, 1)
        assert any(a.verb == verbs.ESCAPE for a in s.legal_actions())
        assert choice(s, 1, seed).verb != verbs.ESCAPE


def test_crew_thief_carrying_a_treasure_heads_out() -> None:
    """6.7, section 9: carrying a real treasure on an outside edge hex of its Exit tile, a
    thief steps off the map, though its crewmate is still in (it has only to follow)."""
    pos = P.opening("tutorial", thieves=2, seed=1, starts=["D7", "A1"])
    treasure = real_treasure(pos["treasures"])
    pos["treasures"].remove(treasure)
    P.put_thief(pos, 0, "D7", treasure=treasure)
    s = P.load(pos)
    a = choice(s, 0)
    assert a.verb == verbs.ESCAPE
    after = simulate(s, 0, card_plan(s, 0, a))
    assert after.thieves[0].standing == ESCAPED and after.thieves[1].standing == IN_PLAY


def test_crew_thief_carrying_a_treasure_steps_toward_its_exit() -> None:
    """6.7: a real treasure in hand two steps inside the Guardroom, the thief's move ends
    nearer the outside edge of its Exit tile."""
    pos = P.opening("tutorial", thieves=2, seed=1, starts=["A1", "A7"])
    treasure = real_treasure(pos["treasures"])
    pos["treasures"].remove(treasure)
    P.put_thief(pos, 0, "C3", treasure=treasure)
    s = P.load(pos)
    before = ev.way_to_go(s, 0)
    a = choice(s, 0)
    after = simulate(s, 0, card_plan(s, 0, a))
    assert after.thieves[0].standing != IN_PLAY or ev.way_to_go(after, 0) < before


def test_waiting_thief_leaves_once_the_crews_treasure_is_out() -> None:
    """Section 9: once a crewmate has escaped with a real treasure, the last thief in steps
    off the map empty-handed, and the crew wins."""
    pos = P.opening("tutorial", thieves=2, seed=1, starts=["A1", "D7"])
    treasure = real_treasure(pos["treasures"])
    pos["treasures"].remove(treasure)
    pos["thieves"][0].update(hex=None, possible=None, treasure=treasure, standing="escaped")
    pos["stack"] = [["ops", -1, [["reveal"], ["thief_phase"], ["guard_phase"],
                                 ["end_round"]]], ["plan_card", 1]]
    s = P.load(pos)
    assert s.stack[-1] == ("plan_card", 1)
    a = choice(s, 1)
    assert a.verb == verbs.ESCAPE
    after = simulate(s, 1, card_plan(s, 1, a))
    assert after.result is not None and after.result.winners == (0, 1)


def test_crew_thief_leaves_empty_handed_at_dawn() -> None:
    """R56, section 9: at the end of the dawn round every thief still on the map is caught, so
    in the dawn round a thief without a treasure steps off beside a crewmate that carries
    one (staying would lose the game for both)."""
    pos = P.opening("tutorial", thieves=2, seed=1, starts=["A1", "D7"])
    treasure = real_treasure(pos["treasures"])
    pos["treasures"].remove(treasure)
    P.put_thief(pos, 1, "D7", treasure=treasure)
    pos["round"] = GAME.new_game(2, 1, scenario="tutorial").board.dawn
    s = P.load(pos)
    assert choice(s, 0).verb == verbs.ESCAPE


def test_a_crew_of_normal_bots_plays_past_round_one_and_escapes_with_a_treasure() -> None:
    """Issue 28, section 9: two heuristic thieves (the normal level) on the tutorial, seed 4:
    the game lasts past round 1 and ends with every thief out and a real treasure carried."""
    s = GAME.new_game(2, 4, scenario="tutorial")
    bots = [HeuristicBot() for _ in range(2)]
    rng = Rng(4)
    while (seat := s.to_move) is not None:
        s.apply(bots[seat].choose(Observation(s, seat), s.legal_actions(), rng))
    outcome = s.outcome()
    assert outcome is not None and s.round > 1
    assert outcome.winners == (0, 1)
    assert all(t.standing == ESCAPED for t in s.thieves)
    assert any(carries_real_treasure(t) for t in s.thieves)


def test_rivals_and_solo_thieves_each_go_for_the_crown() -> None:
    """Section 9: in rivals each thief wins only with its own treasure, and a solo thief is its
    whole crew, so each goes for the crown."""
    pos = P.opening("tutorial", thieves=2, mode="rivals", seed=1, starts=["A1", "D7"])
    s = P.load(pos)
    assert [ev.wants_treasure(s, p) for p in range(2)] == [True, True]
    solo = P.load(P.opening("tutorial", seed=1))
    assert ev.wants_treasure(solo, 0)


def test_citywatch_ruling_27_a_waiting_thief_leaves_the_guard_cards_to_the_fetcher() -> None:
    """Citywatch ruling 27 (the crew's roles): at every Resource Phase of seeded co-op games,
    a thief of the crew that is not its fetcher buys no Guard card, so the row's cards stay
    for the thief that goes for the crown; the fetcher still buys (section 6.2's market)."""
    bought = {True: 0, False: 0}
    for seed in range(6):
        s = GAME.new_game(2, seed, scenario="the-vault")
        bots = [HeuristicBot(), HeuristicBot()]
        rng = Rng(seed)
        while s.to_move is not None and s.round < 8:
            seat = s.to_move
            legal = s.legal_actions()
            action = bots[seat].choose(Observation(s, seat), legal, rng)
            if any(a.verb == verbs.NO_BUY for a in legal) and s.round >= 1:
                fetching = ev.fetcher(s) == seat
                if not fetching:
                    assert action.verb == verbs.NO_BUY, (seed, s.round, str(action))
                bought[fetching] += action.verb == verbs.BUY
            s.apply(action)
    assert bought[True] > 0 and bought[False] == 0
