"""Seeded generators: a fast one for simulations and a secret one for games people play.

``Rng`` is SplitMix64: the same seed gives the same numbers on every machine, and a copy of
its state is a copy of one int, so game states copy cheaply. Its 64-bit seed can be searched
for, so it must not guard secrets. ``SecureRng`` is BLAKE2b keyed with 128 to 512 secret
bits over a counter: as deterministic and replayable, but nobody who lacks the key can tell
its numbers from chance or predict the next one from the ones seen.

A seed is a whole number (``Rng``) or the text ``"blake2b:"`` followed by the key in hex
(``SecureRng``); ``rng_from_seed`` makes the generator of either.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import MutableSequence, Sequence
from typing import Any, Final, TypeVar

from mypy_extensions import i64, mypyc_attr

T = TypeVar("T")

Seed = int | str
"""A game's seed: a whole number (the fast generator) or ``"blake2b:<hex key>"``."""

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
SECRET_PREFIX: Final = "blake2b:"
SECRET_KEY_BYTES: Final = 32
"""Bytes of entropy in a new secret seed (256 bits)."""
_MIN_KEY_BYTES: Final = 16
_MAX_KEY_BYTES: Final = 64
_WORDS: Final = struct.Struct("<8Q")
_STREAM: Final = b"citywatch/rng"
_DERIVE: Final = b"citywatch/derive"


def _all_ones() -> i64:
    """A 64-bit word of ones as this engine holds it: 2**64 - 1 where an ``i64`` is a Python
    int (the interpreted source), -1 where it is a machine word that wraps (the compiled
    module; its products wrap as well)."""
    one: i64 = 1
    return one * 65536 * 65536 * 65536 * 65536 - 1


_ALL: Final[i64] = _all_ones()
"""``x & _ALL`` is ``x`` modulo 2**64 in either form of the engine: every 64-bit step below
is exact in both, and the compiled module runs it on machine words."""
_GOLDEN64: Final[i64] = -0x61C8864680B583EB  # 0x9E3779B97F4A7C15 - 2**64
_MIX1: Final[i64] = -0x40A7B892E31B1A47  # 0xBF58476D1CE4E5B9 - 2**64
_MIX2: Final[i64] = -0x6B2FB644ECCEEE15  # 0x94D049BB133111EB - 2**64
_LOW32: Final[i64] = 0xFFFFFFFF


def _word(value: int) -> i64:
    """A 64-bit unsigned ``value`` as a signed 64-bit word (the same bits)."""
    return i64(value - (value >> 63 << 64))


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' scripted dice are subclasses
class Rng:
    """SplitMix64 generator; ``state`` is a 64-bit integer (kept as a 64-bit word)."""

    __slots__ = ("_word",)

    def __init__(self, seed: int = 0) -> None:
        self._word: i64 = _word(seed & _MASK)

    @property
    def state(self) -> int:
        """The 64-bit state, from 0 to 2**64 - 1."""
        return int(self._word) & _MASK

    @state.setter
    def state(self, value: int) -> None:
        self._word = _word(value & _MASK)

    def _step(self) -> i64:
        """Advance and return the next number as a 64-bit word (SplitMix64: the state moves
        by the golden gamma, then is mixed by two xor-shift-multiplies and a xor-shift)."""
        z = (self._word + _GOLDEN64) & _ALL
        self._word = z
        z = ((z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1) & _ALL
        z = ((z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2) & _ALL
        return z ^ ((z >> 31) & 0x1FFFFFFFF)

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        return int(self._step()) & _MASK

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)`` (multiply-shift; bias under n / 2**64)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if type(self) is not Rng or n >= 0x80000000:
            return (self.next64() * n) >> 64
        z = self._step()
        m: i64 = n
        # (z * m) >> 64 from z's 32-bit halves: every product stays under 2**63
        return int(((z >> 32 & _LOW32) * m + ((z & _LOW32) * m >> 32)) >> 32)

    def roll(self, sides: int) -> int:
        """Roll a die with ``sides`` faces: 1..sides."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        """Return one item chosen uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates): ``items[i]`` swaps with ``items[below(i + 1)]``
        from the last down (this generator's steps inlined: a game shuffles some 90 cards
        in every sampled world)."""
        if type(self) is not Rng:
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        w = self._word
        for i in range(len(items) - 1, 0, -1):
            w = (w + _GOLDEN64) & _ALL
            z = ((w ^ ((w >> 30) & 0x3FFFFFFFF)) * _MIX1) & _ALL
            z = ((z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2) & _ALL
            z ^= (z >> 31) & 0x1FFFFFFFF
            m: i64 = i + 1
            k = int(((z >> 32 & _LOW32) * m + ((z & _LOW32) * m >> 32)) >> 32)
            items[i], items[k] = items[k], items[i]
        self._word = w

    def spawn(self) -> Rng:
        """Return an independent generator seeded from this one."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        """Return a generator in the same state."""
        twin = Rng()
        twin._word = self._word
        return twin

    def derive(self, number: int) -> Rng:
        """The generator for purpose ``number`` (a bot's decision at a step, say).

        Depends only on this generator's state and ``number``; this one is unchanged.
        """
        rng = Rng(self.state ^ ((number + 1) * 0xD1B54A32D192ED03 & _MASK))
        return rng.spawn()

    def to_json(self) -> Any:
        """The generator's state as JSON (``rng_from_json`` reads it back)."""
        return self.state


class SecureRng(Rng):
    """BLAKE2b keyed with a secret, over a counter: a cryptographically secure deterministic
    generator. Number i is the (i mod 8)-th little-endian 64-bit word of
    ``blake2b(i // 8 as 16 little-endian bytes, key=key, digest_size=64,
    person=b"citywatch/rng")``; ``state`` counts the numbers drawn.
    """

    __slots__ = ("key", "_block", "_words")

    def __init__(self, key: bytes, drawn: int = 0) -> None:
        if not _MIN_KEY_BYTES <= len(key) <= _MAX_KEY_BYTES:
            raise ValueError(f"a secret key has {_MIN_KEY_BYTES} to {_MAX_KEY_BYTES} bytes, "
                             f"not {len(key)}")
        if drawn < 0:
            raise ValueError("the count of numbers drawn cannot be negative")
        self.state = drawn
        self.key = bytes(key)
        self._block = -1
        self._words: tuple[int, ...] = ()

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        drawn = self.state
        self.state = drawn + 1
        block = drawn >> 3
        if block != self._block:
            digest = hashlib.blake2b(block.to_bytes(16, "little"), key=self.key,
                                     digest_size=64, person=_STREAM).digest()
            self._words = _WORDS.unpack(digest)
            self._block = block
        return self._words[drawn & 7]

    def spawn(self) -> SecureRng:
        """Return an independent secret generator keyed by this one's next 256 bits."""
        return SecureRng(b"".join(self.next64().to_bytes(8, "little") for _ in range(4)))

    def copy(self) -> SecureRng:
        """Return a generator in the same state."""
        twin = SecureRng(self.key, self.state)
        twin._block = self._block
        twin._words = self._words
        return twin

    def __reduce__(self) -> tuple[type[SecureRng], tuple[bytes, int]]:
        """Pickled as its key and count (a compiled class is rebuilt through ``__init__``)."""
        return (SecureRng, (self.key, self.state))

    def derive(self, number: int) -> SecureRng:
        """The secret generator for purpose ``number``: keyed by a hash of this key and
        ``number``, so it tells nothing of this generator's numbers, nor they of it."""
        key = hashlib.blake2b(number.to_bytes(16, "little", signed=True), key=self.key,
                              digest_size=SECRET_KEY_BYTES, person=_DERIVE).digest()
        return SecureRng(key)

    def to_json(self) -> Any:
        """``{"blake2b": key in hex, "drawn": numbers drawn}``."""
        return {"blake2b": self.key.hex(), "drawn": self.state}


def new_secret_seed() -> str:
    """A fresh seed of 256 bits from the operating system's secure source."""
    return SECRET_PREFIX + secrets.token_hex(SECRET_KEY_BYTES)


def is_secret_seed(seed: object) -> bool:
    """True if ``seed`` is a well-formed secret seed (``"blake2b:<hex key>"``)."""
    try:
        return isinstance(rng_from_seed(seed), SecureRng)
    except ValueError:
        return False


def _key(text: str) -> bytes:
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError("a secret key must be written in hexadecimal digits") from None
    if not _MIN_KEY_BYTES <= len(key) <= _MAX_KEY_BYTES:
        raise ValueError(f"a secret key has {2 * _MIN_KEY_BYTES} to {2 * _MAX_KEY_BYTES} "
                         f"hex digits, not {2 * len(key)}")
    return key


def rng_from_seed(seed: object) -> Rng:
    """The generator of a seed; ``ValueError`` if it is neither a whole number nor
    ``"blake2b:"`` with 32 to 128 hex digits."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        return Rng(seed)
    if isinstance(seed, str) and seed.startswith(SECRET_PREFIX):
        return SecureRng(_key(seed.removeprefix(SECRET_PREFIX)))
    raise ValueError('a seed is a whole number or "blake2b:" followed by 32 to 128 hex digits')


def rng_from_json(data: object) -> Rng:
    """A generator from ``Rng.to_json``; ``ValueError`` if malformed."""
    if isinstance(data, int) and not isinstance(data, bool):
        if not 0 <= data <= _MASK:
            raise ValueError("rng must be a whole number from 0 to 2**64 - 1")
        return Rng(data)
    if isinstance(data, dict) and set(data) == {"blake2b", "drawn"}:
        key, drawn = data["blake2b"], data["drawn"]
        if not isinstance(key, str) or isinstance(drawn, bool) or not isinstance(drawn, int) \
                or drawn < 0:
            raise ValueError('rng must be {"blake2b": hex key, "drawn": a count from 0}')
        return SecureRng(_key(key), drawn)
    raise ValueError('rng must be a whole number or {"blake2b": hex key, "drawn": count}')
