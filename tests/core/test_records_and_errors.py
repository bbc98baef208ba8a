"""Records and replay; illegal actions, corrupt positions and corrupt records."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import citywatch
from citywatch.bots import RandomBot
from citywatch.core.record import Record, replay
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.actions import Action
from citywatch.simulate import play_game

GAME = citywatch.load("ankh-morpork")


def recorded_game(seed: int, players: int = 4) -> tuple[Record, citywatch.State]:
    bots = [RandomBot() for _ in range(players)]
    result = play_game("ankh-morpork", players, seed, bots, seed + 1, digests=True)
    final = replay(result.record)
    return result.record, final


def test_rng_matches_splitmix64_reference() -> None:
    """Determinism on any machine: the generator is SplitMix64 (reference outputs for seed 0)."""
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]


def test_illegal_action_says_it_is_not_legal_now() -> None:
    """An illegal action's error says it is not legal now (that it changes nothing, for
    every game, is in test_conformance.py)."""
    state = GAME.new_game(players=4, seed=7)
    bad = [
        Action("play", card=999),
        Action("place_minion", area=3),
        Action("end_turn"),
        "Play Groat",
    ]
    for action in bad:
        with pytest.raises(citywatch.IllegalAction, match="not legal now"):
            state.apply(action)


def test_apply_after_the_end_says_the_game_is_over() -> None:
    """When the game is over, apply refuses saying so."""
    _, final = recorded_game(4)
    assert final.to_move is None
    with pytest.raises(citywatch.IllegalAction, match="game is over"):
        final.apply(Action("end_turn"))


def test_illegal_action_message_does_not_leak_hidden_cards() -> None:
    """The error names the attempted action and the decision, not another seat's hand."""
    state = GAME.new_game(players=4, seed=8)
    seat = state.to_move
    other_cards = {c for p in range(4) if p != seat for c in state.hands[p]}
    from citywatch.games.ankh_morpork.data import CARDS

    with pytest.raises(citywatch.IllegalAction) as info:
        state.apply(Action("end_turn"))
    for c in other_cards - set(state.hands[seat]):
        assert CARDS[c].name not in str(info.value)


def _position() -> dict:
    return GAME.new_game(players=4, seed=9).position()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["seats"][0]["hand"].append("The Great Wizard"), "is not a card"),
        (lambda p: p["areas"]["Dimwell"]["minions"].update(Red=11), "only 12"),
        (lambda p: p["seats"][1].update(money=-3), "at least 0"),
        (lambda p: p["seats"][2]["hand"].append(p["draw_pile"][0]), "exactly one place"),
        (lambda p: p["draw_pile"].pop(), "exactly one place"),
        (lambda p: p["areas"].pop("Nap Hill"), "no area 'Nap Hill'"),
        (lambda p: p.update(players=5), "2 to 4"),
        (lambda p: p["areas"]["The Hippo"].update(trolls=4), "only 3 trolls"),
        (lambda p: p["areas"]["The Hippo"].update(demons=5), "only 4 demons"),
        (lambda p: p["areas"]["The Hippo"].update(building="Red"), "card must be held"),
        (lambda p: p["seats"][0].update(personality="Lord Blackadder"), "not a personality"),
        (lambda p: p["seats"][1].update(personality=p["seats"][0]["personality"]),
         "each available personality once"),
        (lambda p: p["events"].pop(), "each random event once"),
        (lambda p: p.update(current="Purple"), "not a colour"),
        (lambda p: p.update(stack=[["nonsense", 0]]), "malformed stack frame"),
        (lambda p: p.update(stack=[["card", 0, 5]]), "do not fit"),
        (lambda p: p.update(rng=-1), "rng"),
        (lambda p: p["areas"]["Dimwell"].update(trouble="yes"), "true or false"),
    ],
)
def test_corrupt_positions_are_refused_clearly(change, message) -> None:
    """from_position validates: unknown cards, 13 minions, negative purse, lost cards..."""
    position = _position()
    original = copy.deepcopy(position)
    change(position)
    with pytest.raises(citywatch.InvalidPosition, match=message):
        GAME.from_position(position)
    assert original != position or message  # the change was applied to a copy only


def test_position_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(citywatch.InvalidPosition, match="JSON object"):
        GAME.from_position([1, 2, 3])  # type: ignore[arg-type]


def test_corrupt_record_files_are_refused(tmp_path: Path) -> None:
    """A record that is not one (no seed, too many players, not JSON...) is refused saying
    why (tampered actions and digests, for every game, are in test_conformance.py)."""
    for broken, message in [
        ({"game": "chess", "players": 2, "seed": 1, "actions": []}, "unknown game"),
        ({"game": "ankh-morpork", "players": 9, "seed": 1, "actions": []}, "2 to 4"),
        ({"game": "ankh-morpork", "players": 4, "actions": []}, "no 'seed'"),
        ({"game": "ankh-morpork", "players": "4", "seed": 1, "actions": []}, "must be int"),
        ([], "JSON object"),
    ]:
        with pytest.raises(citywatch.InvalidRecord, match=message):
            replay(broken)  # type: ignore[arg-type]
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(citywatch.InvalidRecord, match="not valid JSON"):
        Record.load(path)
