"""The Luggage: moving it clockwise along its track (rulebook "The Luggage"; rulings 79-82).

``then(s, ("move_luggage", mover, least, most))`` moves it: the mover picks how many tiles
(``least``..``most``; nothing to pick when they are equal) and, at the split, the grey or the
orange path (frame ``luggage_path``). Every tile it enters hits everyone standing there, the
mover included (ruling 80): they go to the nearest Hospital through ``harm.send_to_hospital``.
Entering a Guild House whose quadrant has a Dragon sends that Dragon anti-clockwise to the next
Guild House without one; if every Guild House has one, it stays (ruling 81). Nobody may stop on
the Luggage's tile (``state.can_end_on``; ruling 82).

citywatch decision: the Luggage moves one tile at a time, and every hit of a tile is settled
(a Cure All drunk or not) before it moves on (rulebook, The Luggage).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action, act, tile, verb
from citywatch.games.guards_guards.data import DRAGONS, GUILD_HOUSES, QUADRANTS, TILES
from citywatch.games.guards_guards.frames import handler, op, push, then
from citywatch.games.guards_guards.harm import send_to_hospital
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
HOUSE_QUADRANT: Final[dict[int, int]] = {house: q for q, house in enumerate(GUILD_HOUSES)}
"""Guild House tile -> its quadrant."""

LUGGAGE_TILES: Final = verb(
    "luggage_tiles", (("tiles", "number"),),
    lambda a: f"Move the Luggage {a.x} tile{'s' if a.x != 1 else ''}",
)
LUGGAGE_WAY: Final = verb(
    "luggage_way", (("tile", "tile"),),
    lambda a: f"Send the Luggage down the "
                     f"{board.LUGGAGE_BRANCH_NAMES.get(_split_key(a.x), 'other')} path "
                     f"(to {tile(a.x)})",
)
_SPLITS: Final = tuple(t for t in range(len(TILES)) if len(board.LUGGAGE_NEXT[t]) > 1)


def _split_key(to: int) -> tuple[int, int]:
    for split in _SPLITS:
        if to in board.LUGGAGE_NEXT[split]:
            return (split, to)
    return (-1, to)


@op("move_luggage")
def move_luggage(s: State, mover: int, least: int, most: int) -> None:
    """Move the Luggage ``least``..``most`` tiles; ``mover`` chooses the count and the path."""
    if s.luggage < 0 or most <= 0:
        return
    if least == most:
        s.say(f"{s.colour(mover)} moves the Luggage {most} tile{'s' if most != 1 else ''}.")
        then(s, ("luggage_step", mover, most))
    else:
        push(s, "luggage_path", mover, -1, max(0, least), most)


@op("luggage_step")
def luggage_step(s: State, mover: int, left: int) -> None:
    """Move the Luggage one tile of the ``left`` still to go (asking at the split)."""
    if left <= 0:
        return
    nexts = board.LUGGAGE_NEXT[s.luggage]
    if not nexts:
        return
    if len(nexts) > 1:
        push(s, "luggage_path", mover, left, 0, 0)
        return
    enter(s, mover, nexts[0], left)


def enter(s: State, mover: int, to: int, left: int) -> None:
    """The Luggage enters ``to``: the rest of the move is queued, then everyone there is hit
    (ruling 80) and a Dragon in that Guild House flies off (ruling 81)."""
    s.luggage = to
    then(s, ("luggage_step", mover, left - 1))
    quadrant = HOUSE_QUADRANT.get(to)
    if quadrant is not None and s.dragons[quadrant] >= 0:
        scare_dragon(s, quadrant)
    for seat in range(s.n):
        if s.pos[seat] == to and not s.is_safe_place(seat):
            send_to_hospital(s, seat, "hit by the Luggage")


def scare_dragon(s: State, quadrant: int) -> None:
    """The Dragon in ``quadrant`` flies anti-clockwise to the next Guild House without a
    Dragon; it stays if there is none (ruling 81)."""
    dragon = s.dragons[quadrant]
    for k in range(1, 4):
        q = (quadrant - k) % 4
        if s.dragons[q] < 0:
            s.dragons[q] = dragon
            s.dragons[quadrant] = -1
            s.say(f"{DRAGONS[dragon].name} flees the Luggage and flies to "
                  f"{tile(GUILD_HOUSES[q])} ({QUADRANTS[q].capitalize()}).")
            return
    s.say(f"{DRAGONS[dragon].name} has nowhere to flee from the Luggage and stays.")


class LuggagePathHandler(Handler[State]):
    """How far the Luggage goes (``f[2] == -1``: pick ``f[3]``..``f[4]`` tiles) or which way it
    goes at the split (ruling 79). Frame: ``("luggage_path", mover, left, least, most)``."""

    kind = "luggage_path"

    def legal(self, s: State, f: Frame) -> list[Action]:
        if f[2] < 0:
            return [act(LUGGAGE_TILES, n) for n in range(f[3], f[4] + 1)]
        return [act(LUGGAGE_WAY, t) for t in board.LUGGAGE_NEXT[s.luggage]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        mover = f[1]
        if a.verb == LUGGAGE_TILES:
            if a.x > 0:
                s.say(f"{s.colour(mover)} moves the Luggage {a.x} "
                      f"tile{'s' if a.x != 1 else ''}.")
                then(s, ("luggage_step", mover, a.x))
            else:
                s.say(f"{s.colour(mover)} leaves the Luggage where it is.")
            return
        s.say(f"{s.colour(mover)} sends the Luggage down the "
              f"{board.LUGGAGE_BRANCH_NAMES.get((s.luggage, a.x), 'other')} path.")
        enter(s, mover, a.x, f[2])

    def describe(self, s: State, f: Frame) -> str:
        if f[2] < 0:
            return f"choose how far the Luggage moves ({f[3]} to {f[4]} tiles)"
        return "choose the Luggage's path at the split"


handler(LuggagePathHandler)
