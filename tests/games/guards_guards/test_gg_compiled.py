"""Issue 32 for Guards! Guards!: what the compiled engine relies on behaves as the named tuples
and the plain states do (run with and without the compiled modules)."""

from __future__ import annotations

import pickle

from citywatch.core.rng import Rng
from citywatch.games.guards_guards.actions import Action, act
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.turn import END_TURN, MOVE_TO


def test_act_builds_the_action_the_class_builds_once() -> None:
    """Issue 32: ``act`` gives an action equal to the class's, of its type and with its repr
    (the records' digests compare reprs), and the same object for the same fields."""
    for built, made in ((act(MOVE_TO, 3), Action(MOVE_TO, 3)), (act(END_TURN), Action(END_TURN))):
        assert built == made
        assert type(built) is Action
        assert repr(built) == repr(made)
        assert str(built) == str(made)
    assert act(MOVE_TO, 3) is act(MOVE_TO, 3)


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
