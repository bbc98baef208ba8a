"""Thieves of the Black Keep's heuristic thief (``heuristic.py``) and evaluation
(``evaluate.py``), checked from positions built from text (``bk_positions``). Rules cited: the
spec's sections and rulings (``shared/reference/black-keep/spec.md``)."""

from __future__ import annotations

from collections import Counter

import bk_positions as P
import pytest

from citywatch.bots.base import Observation
from citywatch.core.rng import Rng
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep import evaluate as ev
from citywatch.games.black_keep.actions import Action, board_hex, hex_code
from citywatch.games.black_keep.data import GUARD_CARDS, LOCKPICKS, NOISE_ARROW
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.heuristic import (
    HeuristicBot,
    card_plan,
    choose_buy,
    choose_start,
    simulate,
)
from citywatch.games.black_keep.round import buy_options, check_end, start_hexes
from citywatch.games.black_keep.state import CAUGHT, ESCAPED, IN_PLAY, BlackKeepState

State = BlackKeepState


def choice(s: State, seat: int = 0, seed: int = 3, lookahead: int = 2) -> Action:
    """The heuristic's choice for ``seat`` through its observation."""
    bot = HeuristicBot(lookahead=lookahead)
    action: Action = bot.choose(Observation(s, seat), s.legal_actions(), Rng(seed))
    return action


def end_of(s: State, a: Action, seat: int = 0) -> str:
    """Where a thief card action's movement ends, by label."""
    plan = card_plan(s, seat, a)
    return s.board.labels[plan.end(s.thieves[seat].hex)]


def spotted(s: State, a: Action, seat: int = 0) -> bool:
    """Whether thief ``seat`` playing ``a`` is spotted in the Thief Phase and the Guard Phase
    that follows: on medium every guard has a bow, so a spotted thief is shot (4.9) or, when
    the guard reaches it, caught."""
    after = simulate(s, seat, card_plan(s, seat, a))
    t = after.thieves[seat]
    return t.standing != IN_PLAY or t.wounds < s.thieves[seat].wounds


def set_cards(pos: P.Position, market: list[str], thief: int = 0, **fields: object) -> None:
    """Lay out ``market`` face up and give thief ``thief`` the Guard card fields ``fields``
    (``guard_cards``, ``lockpicks``), the Guard deck holding the rest of the two copies of
    each card (6.5)."""
    pos["thieves"][thief].update(fields)
    left = Counter({c.name: 2 for c in GUARD_CARDS})
    left.subtract(market)
    for t in pos["thieves"]:
        left.subtract(t["guard_cards"])
        left["Lockpicks"] -= bool(t["lockpicks"])
    assert min(left.values()) >= 0
    pos["market"] = list(market)
    pos["guard_deck"] = sorted(left.elements())


# --- the heuristic's choices ---------------------------------------------------------------------
def test_heuristic_takes_the_treasure_on_the_crown() -> None:
    """6.6, R51: a thief next to the crown steps onto it and plans to take a treasure, and the
    treasure decision is always to take."""
    pos = P.opening("tutorial", seed=1, difficulty="easy")
    P.put_guard(pos, 1, "E4", facing="N")
    P.put_thief(pos, 0, "G6")
    s = P.load(pos)
    a = choice(s)
    assert end_of(s, a) == "G7" and card_plan(s, 0, a).take == 1
    s.apply(a)
    while s.stack[-1][0] == "plan_guard":
        s.apply(s.legal_actions()[0])
    assert s.stack[-1][0] == "plan_treasure"
    assert choice(s).verb == verbs.TAKE


def test_heuristic_does_not_step_into_a_lit_hex_a_guard_sees() -> None:
    """3.7, R18: the Bored guard at E4 faces SE, so at the start of the Guard Phase it looks
    down F4 and G5, both lit. G5 is the thief's way to the crown, yet it goes elsewhere and is
    not spotted."""
    pos = P.opening("tutorial", seed=1)
    P.put_guard(pos, 1, "E4", facing="SE")
    P.put_thief(pos, 0, "F5")
    s = P.load(pos)
    to_g5 = [a for a in s.legal_actions() if a.verb == verbs.MOVE and end_of(s, a) == "G5"]
    assert to_g5 and all(spotted(s, a) for a in to_g5)
    a = choice(s)
    assert end_of(s, a) != "G5" and not spotted(s, a)


def test_heuristic_hides_when_it_would_be_seen() -> None:
    """R19, R47: on lit E6 in the row of the Bored guard at E4 facing S, with only Hide, Rest
    and a Move to D5 (which the guard sees lit after it turns, R25) in hand, the thief hides:
    a Hiding thief is spotted only from a neighbouring hex."""
    pos = P.opening("tutorial", seed=1)
    P.put_guard(pos, 1, "E4", facing="S")
    P.put_thief(pos, 0, "E6", hand=["Move SW/NW", "Hide", "Rest"],
                discard=["Move N/NE", "Move NE/SE", "Move SE/S", "Move S/SW", "Move NW/N", "Run",
                         "Pick Pocket"])
    s = P.load(pos)
    rest = next(a for a in s.legal_actions() if a.verb == verbs.REST)
    assert spotted(s, rest)
    a = choice(s)
    assert a.verb == verbs.HIDE and not spotted(s, a)


def test_heuristic_escapes_from_its_exit_hex_with_a_treasure() -> None:
    """6.7, R52: carrying a real treasure on an outside edge hex of its Exit tile, the thief
    steps off the map."""
    pos = P.opening("tutorial", seed=1)
    carried = pos["treasures"].pop()
    P.put_thief(pos, 0, "D7", treasure=carried)
    s = P.load(pos)
    a = choice(s)
    assert a.verb == verbs.ESCAPE
    after = simulate(s, 0, card_plan(s, 0, a))
    assert after.thieves[0].standing == ESCAPED and after.result is not None \
        and after.result.winners == (0,)


def test_heuristic_does_not_escape_without_a_treasure_in_solo() -> None:
    """Section 9: solo, escaping with nothing loses, so from a start hex the thief goes in."""
    pos = P.opening("tutorial", seed=1)
    P.put_thief(pos, 0, "D7")
    s = P.load(pos)
    assert any(a.verb == verbs.ESCAPE for a in s.legal_actions())
    assert choice(s).verb != verbs.ESCAPE


def test_heuristic_buys_lockpicks_when_its_way_needs_them() -> None:
    """2.7, R49, 6.5: the Vault's crown lies behind the door K9 and the grate K13, so a thief
    with neither key nor Lockpicks buys Lockpicks when they are on offer."""
    pos = P.opening("the-vault", seed=1)
    set_cards(pos, ["Moss Arrow", "Lockpicks", "Noise Arrow"])
    P.put_thief(pos, 0, "A4")
    s = P.load(pos)
    assert ev.needs_lockpicks(s, 0)
    actions = [Action(verbs.BUY, c) for c in buy_options(s, 0)] + [Action(verbs.NO_BUY)]
    assert choose_buy(s, 0, actions) == Action(verbs.BUY, LOCKPICKS)


def test_heuristic_buys_a_noise_arrow_while_the_roving_guard_holds_the_crown() -> None:
    """R30: the Roving guard leaves the crown only for a Thief Marker, so with Lockpicks
    already held a Noise Arrow is bought to lure it."""
    pos = P.opening("the-black-keep", seed=1)
    set_cards(pos, ["Art", "Noise Arrow", "Hip Flask"], lockpicks=True)
    P.put_thief(pos, 0, "J1", coins=1)
    s = P.load(pos)
    actions = [Action(verbs.BUY, c) for c in buy_options(s, 0)] + [Action(verbs.NO_BUY)]
    assert Action(verbs.BUY, NOISE_ARROW) in actions
    assert choose_buy(s, 0, actions) == Action(verbs.BUY, NOISE_ARROW)


def test_heuristic_lures_the_roving_guard_off_the_crown_with_a_noise_arrow() -> None:
    """R30, R32, 6.5: with the Roving guard alone on the crown and no marker on the map, the
    thief plays its Noise Arrow (any marker draws the Roving guard away)."""
    pos = P.opening("the-black-keep", seed=1)
    set_cards(pos, pos["market"], lockpicks=True, guard_cards=["Noise Arrow"])
    P.put_thief(pos, 0, "J1")
    s = P.load(pos)
    rover = next(g for g in s.guards if g.role == "roving")
    assert rover.hex == s.board.crown and not s.markers
    s.apply(next(a for a in s.legal_actions() if a.verb == verbs.HIDE))
    assert s.stack[-1][0] == "plan_guard"
    a = choice(s)
    assert a.verb == verbs.GUARD_CARD and a.x == NOISE_ARROW


def test_coop_thieves_do_not_start_on_one_hex() -> None:
    """Section 9 co-op, 3.7: one look or noise finds both thieves on a hex, so the second
    thief starts elsewhere than the hex the first one took."""
    s = GAME.new_game(2, 4, scenario="tutorial")
    actions = [Action(verbs.START, hex_code(s.board, h)) for h in start_hexes(s)]
    first = board_hex(s.board, choose_start(s, 0, actions).x)
    s.thieves[0].hex = first
    second = board_hex(s.board, choose_start(s, 1, actions).x)
    assert second != first


def test_heuristic_reads_no_hidden_facts() -> None:
    """Spec 10: states differing only in what the seat cannot know (the crown's tokens and the
    Guard and Exit decks' order; in rivals the other thief's dial within its public possible
    hexes) get the same choice."""
    pos = P.opening("the-vault", seed=2)
    other = P.opening("the-vault", seed=2)
    other["treasures"] = list(reversed(pos["treasures"]))
    other["guard_deck"] = list(reversed(pos["guard_deck"]))
    assert other["treasures"] != pos["treasures"] and other["guard_deck"] != pos["guard_deck"]
    assert choice(P.load(pos)) == choice(P.load(other))
    rivals = P.opening("tutorial", thieves=2, mode="rivals", seed=2, starts=["A1", "C1"])
    moved = P.opening("tutorial", thieves=2, mode="rivals", seed=2, starts=["A1", "C1"])
    P.put_thief(rivals, 1, "C1", possible=["C1", "D7"])
    P.put_thief(moved, 1, "D7", possible=["C1", "D7"])
    for seed in range(3):
        assert choice(P.load(rivals), seed=seed) == choice(P.load(moved), seed=seed)


def test_heuristic_is_deterministic_given_its_rng() -> None:
    """The same observation and generator give the same choice."""
    s = P.load(P.opening("the-black-keep", seed=5))
    assert choice(s, seed=11) == choice(s, seed=11)


@pytest.mark.parametrize("thieves", [1, 2])
def test_heuristic_plays_games_to_the_end(thieves: int) -> None:
    """Every choice is legal, and games end (section 9) in solo and co-op."""
    s = GAME.new_game(thieves, 7, scenario="tutorial")
    bots = [HeuristicBot(lookahead=1) for _ in range(thieves)]
    rng = Rng(1)
    steps = 0
    while (seat := s.to_move) is not None:
        legal = s.legal_actions()
        a = bots[seat].choose(Observation(s, seat), legal, rng)
        assert a in legal
        s.apply(a)
        steps += 1
    assert s.outcome() is not None and steps > 0


def test_heuristic_rejects_an_unknown_lookahead() -> None:
    """Bad input gets a clear error."""
    with pytest.raises(ValueError, match="lookahead"):
        HeuristicBot(lookahead=3)


def test_game_offers_the_heuristic_and_its_evaluation() -> None:
    """``GAME.bots()`` names the heuristic; ``GAME.evaluate`` is the evaluation."""
    assert GAME.bots() == {"heuristic": HeuristicBot}
    s = P.load(P.opening("tutorial", seed=1))
    assert GAME.evaluate(s) == ev.evaluate(s)


# --- the evaluation ------------------------------------------------------------------------------
def test_evaluation_is_a_chance_in_solo() -> None:
    """Solo: one value between 0 and 1."""
    values = ev.evaluate(P.load(P.opening("the-vault", seed=3)))
    assert len(values) == 1 and 0.0 < values[0] < 1.0


def test_evaluation_rises_as_the_thief_nears_the_crown() -> None:
    """The way to go (6.3): the same thief one step from the crown is likelier to win than at
    the map's edge."""
    near = P.opening("tutorial", seed=1)
    far = P.opening("tutorial", seed=1)
    P.put_thief(near, 0, "G6")
    P.put_thief(far, 0, "A1")
    assert ev.way_to_go(P.load(near), 0) < ev.way_to_go(P.load(far), 0)
    assert ev.evaluate(P.load(near))[0] > ev.evaluate(P.load(far))[0]


def test_evaluation_falls_with_wounds_and_a_seeing_guard() -> None:
    """4.9: lost wounds and a guard about to step in lower the chance."""
    base = P.opening("tutorial", seed=1)
    P.put_thief(base, 0, "C4")
    hurt = P.opening("tutorial", seed=1)
    P.put_thief(hurt, 0, "C4", wounds=1)
    hunted = P.opening("tutorial", seed=1)
    P.put_thief(hunted, 0, "C4")
    P.put_guard(hunted, 1, "C3", facing="S", status="pursuing", target="C4")
    hunted["markers"] = {"C4": 0}
    hunted["markers_placed"] = 1
    value = ev.evaluate(P.load(base))[0]
    assert ev.evaluate(P.load(hurt))[0] < value
    assert ev.evaluate(P.load(hunted))[0] < value


def test_evaluation_shares_the_crews_chance_in_coop() -> None:
    """Section 9 co-op: one shared result, so every seat gets the crew's chance divided by the
    number of thieves (the scale of ``Outcome.shares``: winners split 1); a caught thief loses
    it for everybody."""
    pos = P.opening("the-vault", thieves=3, seed=3)
    s = P.load(pos)
    values = ev.evaluate(s)
    assert len(set(values)) == 1 and 0.0 < sum(values) <= 1.0 and values[0] <= 1 / 3
    s.thieves[1].standing = CAUGHT
    s.thieves[1].hex = -1
    assert ev.evaluate(s) == [0.0, 0.0, 0.0]


def test_evaluation_in_rivals_sums_to_at_most_one() -> None:
    """Section 9 rivals: only the first out wins, so the seats' values sum to at most 1."""
    pos = P.opening("the-vault", thieves=4, mode="rivals", seed=3)
    values = ev.evaluate(P.load(pos))
    assert len(values) == 4 and all(0.0 <= v <= 1.0 for v in values) and sum(values) <= 1.0


def test_evaluation_of_a_finished_game_is_its_shares() -> None:
    """A finished game is worth its ``Outcome.shares``."""
    s = P.load(P.opening("tutorial", seed=1))
    s.thieves[0].standing = CAUGHT
    s.thieves[0].hex = -1
    check_end(s)
    assert s.result is not None and ev.evaluate(s) == s.result.shares(1) == [0.0]

