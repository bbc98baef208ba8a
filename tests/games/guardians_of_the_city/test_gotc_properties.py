"""Guardians of the City: properties of random games (hypothesis, derandomized), and the
cross-check of random-game statistics against the reference simulator ``validate.py``.

Over random games of 2-4 players with random starter decks: every card of every deck is in
exactly one place, support stays 0-4, cells 0-6, effort 1-4, a hand never holds more than 4
(and exactly 4 after Step 4 unless the deck ran out), every reached state is a valid position
that round-trips, copies are independent, determinization keeps the view, a record replays,
and every game ends."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citywatch.core.rng import Rng, new_secret_seed
from citywatch.games.guardians_of_the_city import actions as verbs
from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.scoring import (
    ACTION_DECK_OUT,
    CELLS_ELIMINATED,
    CITIZENS_LEFT,
)
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
DECK_IDS = [d.id for d in STARTER_DECKS]
MAX_DECISIONS = 3000


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def accounted(s: State) -> None:
    """Every card of each deck is in exactly one place, and nothing else is anywhere."""
    for p in range(s.n):
        held = Counter(s.hand[p] + s.action_deck[p] + s.action_discard[p] + s.score_pile[p]
                       + [e.card for e in s.lasting[p]])
        play = s.play
        if play is not None and play.seat == p:
            held[play.card] += 0 if play.placed else 1
            held[play.galvanised] += 1 if play.galvanised >= 0 else 0
        assert +held == Counter(s.decks[p].action_cards()), f"Action cards of seat {p}"
        crises = Counter(s.crisis_deck[p] + s.crisis_discard[p])
        crises[s.subversive[p]] += 1 if s.subversive[p] >= 0 else 0
        crises[s.crisis] += 1 if s.crisis >= 0 and s.current == p else 0
        assert +crises == Counter(s.decks[p].crisis_cards()), f"Crisis cards of seat {p}"


def within_limits(s: State) -> None:
    """Support 0-4, cells 0-6, effort 1-4, hands at most 4 (rulebook section 9, ruling 16)."""
    assert all(0 <= c <= 6 for c in s.cells)
    for p in range(s.n):
        assert all(0 <= x <= 4 for x in s.support[p])
        assert all(1 <= x <= 4 for x in s.effort[p])
        assert len(s.hand[p]) <= 4 and s.shield[p] >= 0


def summary(s: State) -> tuple[Any, ...]:
    return (s.position(), s.log(), s.to_move, s.legal_actions(), s.outcome(),
            [s.view(p) for p in range(s.n)])


@settings(derandomize=True, max_examples=24, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1),
       decks=st.lists(st.sampled_from(DECK_IDS), min_size=4, max_size=4))
def test_random_games_keep_every_invariant(players: int, seed: int, decks: list[str]) -> None:
    """Cards accounted for, limits kept, hand of 4 after Step 4, positions valid and
    round-tripping, copies independent, determinization keeping the view; the game ends."""
    s = GAME.new_game(players, seed, decks=decks[:players])
    rng = Rng(seed)
    recorded = []
    for k in itertools.count():
        assert k < MAX_DECISIONS, "the game did not end"
        accounted(s)
        within_limits(s)
        if k % 9 == 0:
            back = GAME.from_position(through_json(s.position()))
            assert back.position() == s.position() and back.legal_actions() == s.legal_actions()
        if k % 23 == 0 and s.to_move is not None:
            seat = k % players
            assert s.determinize(seat, Rng(k)).view(seat) == s.view(seat)
            before = summary(s)
            clone = s.copy()
            assert summary(clone) == before
            for _ in range(12):
                if clone.to_move is None:
                    break
                clone.apply(clone.legal_actions()[rng.below(len(clone.legal_actions()))])
            assert summary(s) == before, "playing on a copy changed the original"
        if s.to_move is None:
            break
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        drawing = s.stack[-1][0] == "step4" and action.verb == verbs.DRAW
        seat = s.to_move
        s.apply(action)
        recorded.append(action.to_json())
        if drawing:
            assert len(s.hand[seat]) == 4 or not s.action_deck[seat]
    outcome = s.outcome()
    assert outcome is not None and outcome.points is not None
    assert all(0 <= w < players for w in outcome.winners)
    again = GAME.new_game(players, seed, decks=decks[:players])
    for raw in recorded:
        again.apply(GAME.action_from_json(through_json(raw)))
    assert again.position() == s.position() and again.log() == s.log()


def test_secret_seeded_games_replay_and_differ() -> None:
    """All randomness comes from the state's generator: a secret seed replays exactly, and two
    secret seeds deal differently."""
    seed = new_secret_seed()
    a, b = GAME.new_game(3, seed), GAME.new_game(3, seed)
    assert a.position() == b.position()
    assert GAME.new_game(3, new_secret_seed()).position() != a.position()


# --- the cross-check against validate.py --------------------------------------------------------
# The reference numbers come from the shared simulator, run once:
#   python3 ../shared/reference/guardians-of-the-city/validate.py          (2,000 games, seed 2024)
# "Turns per player (first player's turns): mean 11.0 ... histogram: 4:4 5:21 6:44 7:109 8:146
#  9:190 10:229 11:266 12:352 13:373 14:209 15:56 16:1"; "How games end (first condition met):
#  citizens_left 35.3%, action_deck_out 33.3%, cells_eliminated 31.4%".
VALIDATE_GAMES = 2000
VALIDATE_TURNS = {4: 4, 5: 21, 6: 44, 7: 109, 8: 146, 9: 190, 10: 229, 11: 266, 12: 352,
                  13: 373, 14: 209, 15: 56, 16: 1}
VALIDATE_ENDS = {CITIZENS_LEFT: 0.353, ACTION_DECK_OUT: 0.333, CELLS_ELIMINATED: 0.314}
GAMES = 300
ALLOCATIONS: dict[int, list[tuple[int, ...]]] = {}


def allocations(total: int) -> list[tuple[int, ...]]:
    """Every effort assignment of ``total`` over five pillars of 1-4, as validate.py lists."""
    if total not in ALLOCATIONS:
        ALLOCATIONS[total] = [a for a in itertools.product(range(1, 5), repeat=5)
                              if sum(a) == total]
    return ALLOCATIONS[total]


class ValidateLikePlayer:
    """validate.py's RandomAgent on this engine's decisions: a uniformly random effort
    assignment; a uniformly random play among the (Galvanised, card) options, copies counted,
    never stopping early; a uniformly random subset of the hand discarded in Step 4; every
    other choice uniformly random (taking a card back when Conservation allows one)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.plan: dict[int, tuple[int, ...]] = {}
        self.drop: list[int] = []
        self.step4_turn = -1

    def _weighted(self, options: list[Any], weights: list[int]) -> Any:
        k = self.rng.below(sum(weights))
        for option, weight in zip(options, weights, strict=True):
            if k < weight:
                return option
            k -= weight
        raise AssertionError("unreachable")

    def choose(self, s: State, legal: list[verbs.Action]) -> verbs.Action:
        seat, frame = s.to_move, s.stack[-1]
        assert seat is not None
        kind = frame[0]
        if kind == "effort":
            if not frame[2]:
                self.plan[seat] = self.rng.choice(allocations(s.required_effort(seat)))
            level = self.plan[seat][len(frame[2])]
            return next(a for a in legal if a.verb == verbs.EFFORT and a.y == level)
        if kind == "play":
            hand = Counter(s.hand[seat])
            plays = [a for a in legal if a.verb == verbs.PLAY]
            return self._weighted(plays, [hand[a.x] * (hand[a.y] if a.y >= 0 else 1)
                                          for a in plays])
        if kind == "step4":
            if self.step4_turn != s.turn:
                self.step4_turn = s.turn
                self.drop = [c for c in s.hand[seat] if self.rng.below(2)]
            if self.drop:
                return verbs.Action(verbs.DISCARD, self.drop.pop())
            return verbs.Action(verbs.DRAW)
        if kind == "discard":
            return verbs.Action(verbs.DISCARD, self.rng.choice(s.hand[seat]))
        if kind == "return":
            back = [a for a in legal if a.verb == verbs.TAKE_BACK]
            pile = Counter(s.action_discard[seat])
            return self._weighted(back, [pile[a.x] for a in back])
        return legal[self.rng.below(len(legal))]


def test_random_game_lengths_and_endings_agree_with_validate() -> None:
    """Ruling 18's end conditions as validate.py simulates them: 300 two-player games with
    random starter decks and validate.py's random player give the same mean length (first
    player's turns) and the same shares of each end condition, within four combined
    standard errors of both samples."""
    rng = Rng(2024)
    turns = []
    ends: Counter[str] = Counter()
    for _ in range(GAMES):
        decks = [DECK_IDS[rng.below(4)] for _ in range(2)]
        s = GAME.new_game(2, rng.next64(), decks=decks)
        player = ValidateLikePlayer(Rng(rng.next64()))
        while s.to_move is not None:
            s.apply(player.choose(s, s.legal_actions()))
        outcome = s.outcome()
        assert outcome is not None
        turns.append(s.turns[s.first])
        ends[outcome.reason] += 1
    ref = [t for t, n in VALIDATE_TURNS.items() for _ in range(n)]
    assert len(ref) == VALIDATE_GAMES

    def mean(xs: list[int]) -> float:
        return sum(xs) / len(xs)

    def variance(xs: list[int]) -> float:
        m = mean(xs)
        return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    error = (variance(ref) / len(ref) + variance(turns) / len(turns)) ** 0.5
    assert abs(mean(turns) - mean(ref)) < 4 * error, (mean(turns), mean(ref))
    assert set(ends) <= set(VALIDATE_ENDS)
    for reason, share in VALIDATE_ENDS.items():
        ours = ends[reason] / GAMES
        error = (share * (1 - share) / VALIDATE_GAMES + ours * (1 - ours) / GAMES) ** 0.5
        assert abs(ours - share) < 4 * error, (reason, ours, share)
