"""Guardians of the City positions (``docs/guardians-of-the-city-position.md``): they round-trip
through JSON in every kind of moment, and ``from_position`` refuses impossible positions with
``InvalidPosition`` naming the fault."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from gotc_positions import (
    Position,
    act,
    base,
    cells,
    discards,
    effort,
    game_with,
    hand,
    lasting,
    load,
    seat,
    step2,
    subversive,
    support,
    task,
)

from citywatch.core.errors import InvalidPosition
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.position import FORMAT

P1, P2 = 0, 1


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def round_trips(pos: Position) -> None:
    state = GAME.from_position(through_json(pos))
    back = GAME.from_position(through_json(state.position()))
    assert back.position() == state.position()
    assert back.legal_actions() == state.legal_actions()
    assert [back.view(p) for p in range(state.players)] == \
        [state.view(p) for p in range(state.players)]


def test_positions_round_trip_in_the_middle_of_a_card() -> None:
    """A position written while a card is being resolved (the card in play, a Galvanised card
    waiting, a choice pending, steps queued) reads back to the same state and decisions."""
    conservation = "Galvanised People (Conservation)"
    pos = step2(game_with(conservation), P1)
    hand(pos, P1, [conservation, "Joint Task Force"])
    discards(pos, P1, ["Raids"])
    effort(pos, P1, "33222")
    s = load(pos)
    act(s, f"Play Joint Task Force with {conservation}")
    assert task(s)[0] == "cells"
    written = s.position()
    assert written["play"]["card"] == "Joint Task Force" and written["format"] == FORMAT
    round_trips(written)
    act(s, "Reduce The Harbour Network and The Grey Couriers", "Raise the support of Youth")
    assert task(s)[0] == "return"
    round_trips(s.position())
    ahead = GAME.from_position(through_json(s.position()))
    act(ahead, "Take Raids back from your discard pile")
    act(s, "Take Raids back from your discard pile")
    assert ahead.position() == s.position()


def test_a_finished_game_round_trips() -> None:
    """A finished game's position keeps its result, reasons and points."""
    s = GAME.new_game(2, 3)
    while s.to_move is not None:
        s.apply(s.legal_actions()[-1])
    back = GAME.from_position(through_json(s.position()))
    assert back.outcome() == s.outcome() and back.position() == s.position()
    assert back.outcome() is not None and back.legal_actions() == []


def refuse(pos: Any, message: str) -> None:
    with pytest.raises(InvalidPosition, match=message or None) as info:
        GAME.from_position(through_json(pos))
    assert str(info.value)


def edited(change: Callable[[Position], Any]) -> Position:
    pos = step2(game_with("Galvanised People (Vigilance)"), P1)
    change(pos)
    return pos


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: seat(p, P1)["action_discard"].append("Raids"), r"has 3 Raids but 4 are"),
    (lambda p: seat(p, P1)["action_deck"].pop(), r"every card is in exactly one place"),
    (lambda p: seat(p, P1)["action_discard"].append("National Reserves"),
     "holds National Reserves, which is not in their Action deck"),
    (lambda p: seat(p, P2)["crisis_deck"].append("Fear Mongering"), "has 3 Fear Mongering"),
    (lambda p: support(p, P1, "5444"), r"Player 1 support Youth must be a whole number 0 to 4"),
    (lambda p: cells(p, "607"), r"cells The Night Signal must be a whole number 0 to 6"),
    (lambda p: effort(p, P1, "51222"), r"Player 1 effort Military must be a whole number 1 to 4"),
    (lambda p: effort(p, P1, "33333"), r"adds up to 15, not 12"),
    (lambda p: support(p, P1, "0444"), r"adds up to 12, not 11"),
    (lambda p: hand(p, P1, ["Raids"] * 2 + ["Border Patrol"] * 3), r"never holds more than 4"),
    (lambda p: seat(p, P1).update(known=["Precision Strike"]),
     "known to be in the hand is not in it"),
    (lambda p: seat(p, P1)["score_pile"].append(seat(p, P1)["action_deck"].pop()),
     "cannot be in a Score pile"),
    (lambda p: seat(p, P1).update(subversive=seat(p, P1)["crisis_deck"].pop()),
     "is not a Subversive"),
    (lambda p: lasting(p, P1, "Galvanised People (Unity)", "Raids"),
     "is not a lasting Galvanised People card"),
    (lambda p: lasting(p, P1, "Galvanised People (Vigilance)", "Raids", protect=["Youth"]),
     "protects no Citizen Group"),
    (lambda p: seat(p, P1)["deck"]["action"][0].update(count=4), "Action deck rule 2"),
    (lambda p: (support(p, P2, "0000"), effort(p, P2, "21222")),
     "no Citizen Groups or no Action deck left, so the game is over"),
    (lambda p: cells(p, "000"), "every Terrorist Cell is eliminated but the end is not pending"),
    (lambda p: seat(p, P2).update(crisis_discard=seat(p, P2)["crisis_deck"], crisis_deck=[]),
     "Crisis deck is empty but the end is not pending"),
    (lambda p: p.update(result={"winners": [0], "reason": "a Crisis deck ran out",
                                "points": [1, 2]}), "a finished game has no pending decisions"),
    (lambda p: p.update(result={"winners": [0], "reason": "boredom", "points": [1, 2]}),
     "result reasons must be end conditions"),
    (lambda p: p["stack"].append(["nap", 0]), "malformed pending decision"),
    (lambda p: p["stack"].append(["play", 7]), "malformed pending decision"),
    (lambda p: p["stack"].append(["ops", -1, [["teleport", 0]]]), "malformed queued step"),
    (lambda p: p["stack"].append(["effort", 0, [4, 4, 4, 4, 4]]), "malformed pending decision"),
    (lambda p: p.update(players=5), "players must be 2 to 4"),
    (lambda p: p["seats"].pop(), "seats must list 2 players, not 1"),
    (lambda p: p.update(first="Player 3"), "not a seat of a 2-player game"),
    (lambda p: p.update(pending=["the cells got bored"]), "pending must list end conditions"),
    (lambda p: p.update(rng="seven"), "rng must be"),
    (lambda p: p.update(format="chess/1"), "unknown position format"),
    (lambda p: seat(p, P1).update(hand=["Raidz"]), "'Raidz' is not an Action card"),
    (lambda p: p.update(play={"seat": "Player 1", "card": "Galvanised People (Unity)"}),
     "a Galvanised People card is played with an ordinary card"),
    (lambda p: (hand(p, P1, ["Raids"]), seat(p, P1)["hand"].pop(),
                p.update(play={"seat": "Player 1", "card": "Raids"})),
     "an Action card in play must be the active player's and still being resolved"),
    (lambda p: p.update(crisis=seat(p, P1)["crisis_deck"].pop()),
     "a Crisis card in play must still be being resolved"),
])
def test_impossible_positions_are_refused_naming_the_fault(
        change: Callable[[Position], Any], message: str) -> None:
    """from_position refuses what no game could hold (docs/guardians-of-the-city-position.md,
    "What is refused"), naming the fault."""
    refuse(edited(change), message)


def test_what_is_not_a_position_is_refused() -> None:
    """Not an object, or a value of the wrong kind: InvalidPosition, never another error."""
    pos = base()
    for bad in ([1, 2], None, "position", 7, {}):
        refuse(bad, "")
    for key in pos:
        for wrong in ({"?": [None]}, "?"):
            if type(wrong) is not type(pos[key]):
                refuse({**copy.deepcopy(pos), key: wrong}, "")


def test_a_position_built_by_hand_is_read_as_the_moment_it_describes() -> None:
    """Positions are how tests build situations: the one written back is the one read."""
    pos = step2(base(), P1)
    subversive(pos, P2, "Subversive (Sabotage)")
    s = load(pos)
    assert s.position()["seats"][P2]["subversive"] == "Subversive (Sabotage)"
    assert s.position()["stack"] == pos["stack"]
