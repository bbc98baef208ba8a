"""Issue 32 for Guardians of the City: what the compiled engine relies on behaves as the
named tuples and the plain states do (run with and without the compiled modules)."""

from __future__ import annotations

import pickle

from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city.actions import DISCARD, DRAW, Action, act
from citywatch.games.guardians_of_the_city.game import GAME


def test_act_builds_the_action_the_class_builds_once() -> None:
    """Issue 32: ``act`` gives an action equal to the class's, of its type and with its repr
    (the records' digests compare reprs), and the same object for the same fields."""
    for built, made in ((act(DISCARD, 5), Action(DISCARD, 5)), (act(DRAW), Action(DRAW))):
        assert built == made
        assert type(built) is Action
        assert repr(built) == repr(made)
        assert str(built) == str(made)
    assert act(DISCARD, 5) is act(DISCARD, 5)


def test_a_state_pickles_and_plays_on_the_same() -> None:
    """Issue 32: a mid-game state (the server's set-up worker and bot pool send states between
    processes) comes back from pickle equal, and plays on exactly as the original."""
    state = GAME.new_game(2, 5)
    rng = Rng(5)
    for _ in range(40):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    twin = pickle.loads(pickle.dumps(state))
    assert twin == state
    for _ in range(40):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        assert twin.legal_actions() == legal
        pick = legal[rng.below(len(legal))]
        state.apply(pick)
        twin.apply(pick)
    assert twin.position() == state.position()
    assert twin.log() == state.log()
