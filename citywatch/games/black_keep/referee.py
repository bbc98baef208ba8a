"""The referee: the only code that reads a thief's secret hex on the guards' behalf (spec 10).

The guard automaton is a function of public state plus the answers to two questions: which
thieves does this guard spot now (3.7), and which thieves are really in this hex (4.4). Whoever
calls these makes the answer public at once (a marker, a catch, a wound, a log line), and what
everybody learns from a look narrows the thieves' public ``possible`` hexes
(``learn_from_look``), which determinization samples hidden Location Dials from.
"""

from __future__ import annotations

from citywatch.games.black_keep.data import EYE
from citywatch.games.black_keep.sight import can_spot, sight
from citywatch.games.black_keep.state import DISTRACTED, IN_PLAY, NONE, BlackKeepState, Guard

State = BlackKeepState


def sightings(s: State, g: Guard) -> list[tuple[int, int]]:
    """``(seat, hex)`` of every thief guard ``g`` spots now (3.7, R18, R19): ``g`` is placed and
    not Distracted, the thief's hex is in its field of view, and the thief is on a neighbouring
    hex, or (its hex is lit or it carries the Eye) and it is not Hiding. The caller makes the
    answer public (markers, shots), so the thieves' public ``possible`` hexes learn from it."""
    return _look(s, g, True)


def spots(s: State, g: Guard) -> list[tuple[int, int]]:
    """The answer of ``sightings``, without anything learnt from it (a question only)."""
    return _look(s, g, False)


def _look(s: State, g: Guard, learn: bool) -> list[tuple[int, int]]:
    if not g.placed or g.status == DISTRACTED:
        return []
    board = s.board
    seen = sight(board).seen(g.hex, g.facing, g.status, s.params.bored_reach)
    found: list[tuple[int, int]] = []
    lit: frozenset[int] | None = None
    learners: list[int] = []
    for seat, t in enumerate(s.thieves):
        if t.standing != IN_PLAY:
            continue
        here = t.hex  # NONE is never seen
        if here in seen:
            if lit is None:
                lit = sight(board).lit(s.extinguished, s.params.torch_reach)
            if can_spot(board, seen, lit, g.hex, here, t.hiding, t.treasure == EYE):
                found.append((seat, here))
        possible = t.possible
        if learn and possible is not None and here != NONE and not possible.isdisjoint(seen):
            learners.append(seat)
    if learners:
        learn_from_look(s, g, seen, found, learners)
    return found


def spotted_by(s: State, g: Guard) -> list[int]:
    """The seats of the thieves guard ``g`` spots now (see ``sightings``)."""
    return [seat for seat, _ in spots(s, g)]


def in_hex(s: State, hex: int) -> list[int]:
    """The seats of the thieves in play really in ``hex``."""
    return [seat for seat, t in enumerate(s.thieves) if t.standing == IN_PLAY and t.hex == hex]


def reveal(s: State, seat: int) -> int:
    """The hex of thief ``seat`` when a rule makes it public (a failed Pick Pocket: the guard
    spots it, R48); ``NONE`` if the thief is not on the map."""
    t = s.thieves[seat]
    if t.standing != IN_PLAY:
        return NONE
    t.possible = frozenset((t.hex,))  # public from now on (spec 10)
    return t.hex


# --- what everybody learns from a look (spec 10; the thieves' ``possible`` hexes) -------------
def learn_from_look(s: State, g: Guard, seen: frozenset[int], found: list[tuple[int, int]],
                    seats: list[int]) -> None:
    """Narrow the public ``possible`` hexes of the thieves ``seats`` after guard ``g``, seeing
    ``seen``, looked and spotted ``found``. A thief on a hex where ``g`` would spot it is
    spotted, and every spotted hex holds a Thief Marker afterwards: so no thief is on such a hex
    without a marker. A bow that has not shot a thief this round tells whether it spotted it
    (the shot is public, R39)."""
    board = s.board
    lit = sight(board).lit(s.extinguished, s.params.torch_reach)
    marked = s.markers.keys() | {hex for _, hex in found}
    for seat in seats:
        t = s.thieves[seat]
        possible = t.possible
        assert possible is not None
        eye = t.treasure == EYE
        spottable = frozenset(h for h in possible & seen
                              if can_spot(board, seen, lit, g.hex, h, t.hiding, eye))
        if g.bow and not g.shot >> seat & 1:  # a shot would tell
            if any(seat == p for p, _ in found):
                t.possible = spottable & marked
            else:
                t.possible = possible - spottable
        elif spottable:
            t.possible = possible - (spottable - marked)
