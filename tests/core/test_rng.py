"""The generators (core/rng.py): the fast SplitMix64 one, and the secret one that a table
people play uses (issue 15: at least 128 bits of secret entropy through a cryptographically
secure deterministic generator, so records replay exactly and nothing is predictable)."""

from __future__ import annotations

import hashlib
import json
import re
import struct

import pytest

import citywatch
from citywatch.core.errors import InvalidPosition, InvalidRecord
from citywatch.core.record import Record, replay
from citywatch.core.rng import (
    Rng,
    SecureRng,
    is_secret_seed,
    new_secret_seed,
    rng_from_json,
    rng_from_seed,
)
from citywatch.games.ankh_morpork.state import AnkhMorporkState

GAME = citywatch.load("ankh-morpork")
KEY = bytes(range(32))


def test_secret_generator_is_keyed_blake2b_over_a_counter() -> None:
    """Known answer: number i is word i mod 8 of BLAKE2b-512(i // 8, key, person)."""
    rng = SecureRng(KEY)
    drawn = [rng.next64() for _ in range(20)]
    expected = []
    for block in range(3):
        digest = hashlib.blake2b(block.to_bytes(16, "little"), key=KEY, digest_size=64,
                                 person=b"citywatch/rng").digest()
        expected.extend(struct.unpack("<8Q", digest))
    assert drawn == expected[:20]
    assert rng.state == 20


def test_new_secret_seeds_carry_256_bits() -> None:
    """Issue 15: at least 128 bits of secret entropy; a new seed has 256, never repeated."""
    seeds = {new_secret_seed() for _ in range(200)}
    assert len(seeds) == 200
    for seed in seeds:
        assert re.fullmatch(r"blake2b:[0-9a-f]{64}", seed)
        assert is_secret_seed(seed)
        assert isinstance(rng_from_seed(seed), SecureRng)
    assert not is_secret_seed(7)
    assert not is_secret_seed("blake2b:" + "ab" * 8 + "a")  # odd digits
    assert not is_secret_seed("blake2b:" + "ab" * 15)  # 120 bits: too few


@pytest.mark.parametrize("bad", [True, 1.5, "7", "blake2b:xyz", "blake2b:" + "00" * 65, None,
                                 [1]])
def test_bad_seeds_are_refused_with_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="seed|key"):
        rng_from_seed(bad)
    with pytest.raises(ValueError):
        GAME.new_game(2, bad)  # type: ignore[arg-type]


def _bits(numbers: list[int]) -> list[int]:
    return [(n >> b) & 1 for n in numbers for b in range(64)]


def test_secret_generator_numbers_look_like_chance() -> None:
    """Independence, part 1: die rolls are uniform (chi-square) and successive numbers are
    uncorrelated bit for bit."""
    rng = SecureRng(KEY)
    rolls = [rng.roll(6) for _ in range(60_000)]
    counts = [rolls.count(face) for face in range(1, 7)]
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.5  # 5 degrees of freedom: p = 0.001
    words = [rng.next64() for _ in range(4000)]
    ones = sum(_bits(words))
    assert abs(ones - 128_000) < 1_500  # 256,000 fair bits: 6 standard deviations
    same = sum(a == b for a, b in zip(_bits(words[:-1]), _bits(words[1:]), strict=True))
    assert abs(same - 127_968) < 1_500


def test_related_secret_streams_are_independent() -> None:
    """Independence, part 2: keys one bit apart, derived streams (a bot's, step by step) and
    spawned streams share no more bits than chance, and none repeats the game's own."""
    base = SecureRng(KEY)
    flipped = SecureRng(bytes([KEY[0] ^ 1]) + KEY[1:])
    streams = [base.copy(), flipped, base.derive(0), base.derive(1), base.copy().spawn()]
    drawn = [[s.next64() for _ in range(500)] for s in streams]
    for i in range(len(drawn)):
        for j in range(i + 1, len(drawn)):
            agree = sum(a == b for a, b in zip(_bits(drawn[i]), _bits(drawn[j]), strict=True))
            assert abs(agree - 16_000) < 700, (i, j)  # 32,000 bits: 7.8 standard deviations
    assert base.state == 0  # deriving changes nothing


def test_copy_derive_and_json_round_trip() -> None:
    """A copy continues the same numbers; ``to_json``/``rng_from_json`` keep the state."""
    rng = SecureRng(KEY)
    for _ in range(13):
        rng.next64()
    twin = rng.copy()
    back = rng_from_json(json.loads(json.dumps(rng.to_json())))
    assert [twin.next64() for _ in range(10)] == [back.next64() for _ in range(10)] \
        == [rng.next64() for _ in range(10)]
    fast = Rng(99)
    fast.next64()
    assert rng_from_json(fast.to_json()).next64() == fast.copy().next64()
    assert rng.derive(5).next64() == rng.derive(5).next64() != rng.derive(6).next64()
    for bad in ({"blake2b": "zz", "drawn": 0}, {"blake2b": KEY.hex(), "drawn": -1},
                {"blake2b": KEY.hex()}, -1, 2**64, True, "1"):
        with pytest.raises(ValueError):
            rng_from_json(bad)


def test_a_secret_seed_game_replays_and_its_position_round_trips() -> None:
    """Determinism: a record with a secret seed replays to the identical state (with
    digests), and a position keeps the secret generator so chance continues the same."""
    seed = new_secret_seed()
    state = GAME.new_game(3, seed)
    assert isinstance(state, AnkhMorporkState) and isinstance(state.rng, SecureRng)
    rng = Rng(4)
    actions, digests = [], []
    while state.to_move is not None and len(actions) < 400:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        actions.append(action.to_json())
        digests.append(state.digest())
    record = Record("ankh-morpork", 3, seed, actions=actions, digests=digests)
    again = replay(json.loads(json.dumps(record.to_json())), verify=True)
    assert again == state
    position = state.position()
    assert position["rng"]["blake2b"] == seed.removeprefix("blake2b:")
    copied = GAME.from_position(json.loads(json.dumps(position)))
    assert copied.position() == position
    bad = {**position, "rng": {"blake2b": "00", "drawn": 0}}
    with pytest.raises(InvalidPosition):
        GAME.from_position(bad)
    wrong = record.to_json()
    wrong["digests"][5] = "0" * 16
    with pytest.raises(InvalidRecord, match="action 6"):
        replay(wrong, verify=True)
    with pytest.raises(InvalidRecord, match="seed"):
        Record.from_json({**record.to_json(), "seed": "blake2b:short"})


def test_the_fast_generator_is_unchanged_for_simulations() -> None:
    """Records made before issue 15 (whole-number seeds) replay as before: SplitMix64."""
    rng = Rng(1)
    assert rng.next64() == 0x910A2DEC89025CC1
    assert isinstance(GAME.new_game(2, 5).rng, Rng)
    assert not isinstance(GAME.new_game(2, 5).rng, SecureRng)


def test_generators_pickle_and_continue_the_same_numbers() -> None:
    """A table's state crosses to and from the server's worker processes by pickle (issue 24):
    both generators, compiled or not (issue 32), continue the same numbers after a round trip."""
    import pickle

    for rng in (SecureRng(KEY), Rng(7)):
        for _ in range(11):
            rng.next64()
        back = pickle.loads(pickle.dumps(rng))
        assert type(back) is type(rng)
        assert [back.next64() for _ in range(10)] == [rng.next64() for _ in range(10)]
