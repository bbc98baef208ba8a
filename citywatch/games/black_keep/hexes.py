"""Hex geometry of the Black Keep (spec section 2): axial coordinates, odd-q labels, the six
facings, and the exact integer lattice that line of sight is judged on.

A hex is an axial pair ``(q, r)``; stepping south adds 1 to ``r`` and south-east adds 1 to
``q``. Labels are odd-q offset labels (ruling 1): column letters from ``A`` (q = 0), rows
from 1 at the top, odd columns half a hex lower.
"""

from __future__ import annotations

from typing import Final

Hex = tuple[int, int]
"""A hex in axial coordinates ``(q, r)``."""
Point = tuple[int, int]
"""A lattice point ``(X, Y)``: the real point ``(X / 2, Y * sqrt(3) / 2)``, y down."""

FACINGS: Final[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")
"""The six facings, clockwise from north (ruling 2); a black-die roll k gives ``FACINGS[k-1]``."""
N: Final = 0
NE: Final = 1
SE: Final = 2
S: Final = 3
SW: Final = 4
NW: Final = 5
DELTAS: Final[tuple[Hex, ...]] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""The axial step of each facing."""
CORNER_OFFSETS: Final[tuple[Point, ...]] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
"""Lattice offsets of corners 0-5 from a centre: E, lower right, lower left, W, upper left,
upper right."""


def neighbour(h: Hex, facing: int) -> Hex:
    """The hex across side ``facing`` of ``h``."""
    dq, dr = DELTAS[facing % 6]
    return (h[0] + dq, h[1] + dr)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes, ignoring walls."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def facing_between(a: Hex, b: Hex) -> int:
    """The facing from ``a`` to its neighbour ``b``; ``ValueError`` if they are not neighbours."""
    try:
        return DELTAS.index((b[0] - a[0], b[1] - a[1]))
    except ValueError:
        raise ValueError(f"{label(a)} and {label(b)} are not neighbours") from None


def column_letters(q: int) -> str:
    """The letters of column ``q`` (0 is ``A``, 26 is ``AA``)."""
    text, n = "", q + 1
    while n > 0:
        n, rest = divmod(n - 1, 26)
        text = chr(65 + rest) + text
    return text


def row_number(h: Hex) -> int:
    """The row number of ``h``'s label (1 at the top)."""
    return h[1] + (h[0] - (h[0] & 1)) // 2 + 1


def label(h: Hex) -> str:
    """The label of ``h`` (``"D3"``); a hex left of column A or above row 1 prints as
    ``"(q,r)"``."""
    row = row_number(h)
    if h[0] < 0 or row < 1:
        return f"({h[0]},{h[1]})"
    return f"{column_letters(h[0])}{row}"


def parse(text: object) -> Hex:
    """The hex of a label such as ``"D3"`` or ``"AA12"``; ``ValueError`` if it is not one."""
    if not isinstance(text, str):
        raise ValueError(f"not a hex label: {text!r}")
    t = text.strip().upper()
    i = 0
    while i < len(t) and "A" <= t[i] <= "Z":
        i += 1
    if i == 0 or i == len(t) or not t[i:].isdigit() or int(t[i:]) < 1:
        raise ValueError(f"not a hex label: {text!r}")
    q = 0
    for ch in t[:i]:
        q = q * 26 + (ord(ch) - 64)
    q -= 1
    row = int(t[i:])
    return (q, (row - 1) - (q - (q & 1)) // 2)


def from_offset(q: int, row: int) -> Hex:
    """The hex in column ``q`` and row ``row`` (from 1)."""
    return (q, (row - 1) - (q - (q & 1)) // 2)


def centre(h: Hex) -> Point:
    """The lattice point of ``h``'s centre."""
    return (3 * h[0], 2 * h[1] + h[0])


def corner(h: Hex, i: int) -> Point:
    """The lattice point of corner ``i`` (0-5) of ``h``."""
    dx, dy = CORNER_OFFSETS[i % 6]
    return (3 * h[0] + dx, 2 * h[1] + h[0] + dy)


def corners(h: Hex) -> tuple[Point, ...]:
    """The six corners of ``h``, corner 0 first."""
    return tuple(corner(h, i) for i in range(6))


def side(h: Hex, facing: int) -> tuple[Point, Point]:
    """The side a guard facing ``facing`` looks through: corner ``facing + 4`` to corner
    ``facing + 5``."""
    return (corner(h, facing + 4), corner(h, facing + 5))
