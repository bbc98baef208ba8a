"""The referee: the only code that reads a thief's secret hex on the guards' behalf (spec 10).

The guard automaton is a function of public state plus the answers to two questions: which
thieves does this guard spot now (3.7), and which thieves are really in this hex (4.4). Whoever
calls these makes the answer public at once (a marker, a catch, a wound, a log line).
"""

from __future__ import annotations

from citywatch.games.black_keep.data import EYE
from citywatch.games.black_keep.sight import can_spot, sight
from citywatch.games.black_keep.state import DISTRACTED, IN_PLAY, NONE, BlackKeepState, Guard

State = BlackKeepState

def sightings(s: State, g: Guard) -> list[tuple[int, int]]:
    """``(seat, hex)`` of every thief guard ``g`` spots now (3.7, R18, R19): ``g`` is placed and
    not Distracted, the thief's hex is in its field of view, and the thief is on a neighbouring
    hex, or (its hex is lit or it carries the Eye) and it is not Hiding."""
    if not g.placed or g.status == DISTRACTED:
        return []
    board = s.board
    view = sight(board)
    seen = view.seen(g.hex, g.facing, g.status, s.params.bored_reach)
    found: list[tuple[int, int]] = []
    lit: frozenset[int] | None = None
    for seat, t in enumerate(s.thieves):
        here = t.hex  # NONE is never seen
        if here in seen and t.standing == IN_PLAY:
            if lit is None:
                lit = view.lit(s.extinguished, s.params.torch_reach)
            if can_spot(board, seen, lit, g.hex, here, t.hiding, t.treasure == EYE):
                found.append((seat, here))
    return found


def spotted_by(s: State, g: Guard) -> list[int]:
    """The seats of the thieves guard ``g`` spots now (see ``sightings``)."""
    return [seat for seat, _ in sightings(s, g)]


def in_hex(s: State, hex: int) -> list[int]:
    """The seats of the thieves in play really in ``hex``."""
    return [seat for seat, t in enumerate(s.thieves) if t.standing == IN_PLAY and t.hex == hex]


def reveal(s: State, seat: int) -> int:
    """The hex of thief ``seat`` when a rule makes it public (a failed Pick Pocket: the guard
    spots it, R48); ``NONE`` if the thief is not on the map."""
    t = s.thieves[seat]
    return t.hex if t.standing == IN_PLAY else NONE
