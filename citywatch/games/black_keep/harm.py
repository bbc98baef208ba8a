"""The one gateway for harm to thieves (spec 4.7, 4.9, 4.10, 6.6): a catch, a wound, death.

Every guard rule that hurts a thief calls ``catch`` or ``wound``, so the protections live here:
the Sword (the first catch by a guard that is not undead costs a wound instead and distracts that
guard) and Armour (the first wound is ignored). A caught or killed thief leaves the map (its hex
becomes ``NONE``) and the game. Every harm is public and written to the log.
"""

from __future__ import annotations

from citywatch.games.black_keep.data import ARMOUR, SWORD
from citywatch.games.black_keep.state import (
    CAUGHT,
    DISTRACTED,
    GUARD_TYPES,
    IN_PLAY,
    KILLED,
    NONE,
    BlackKeepState,
    Guard,
)

State = BlackKeepState

def guard_name(s: State, g: Guard) -> str:
    """How the log names a guard: ``"the Gatehouse stationary guard"``."""
    undead = "undead " if g.undead else ""
    return f"the {s.board.tiles[g.tile].name} {undead}{GUARD_TYPES[g.type]} guard"


def thief_name(seat: int) -> str:
    """How the log names a thief: ``"Thief 1"`` for seat 0."""
    return f"Thief {seat + 1}"


def wound(s: State, seat: int, cause: str) -> None:
    """Thief ``seat`` loses one wound (``cause`` ends the log sentence: ``"shot by ..."``);
    Armour ignores its carrier's first wound; at 0 wounds the thief is killed."""
    t = s.thieves[seat]
    if t.standing != IN_PLAY:
        return
    if t.treasure == ARMOUR and not t.armour_used:
        t.armour_used = True
        s.say(f"{thief_name(seat)} is {cause}; the Armour takes the blow.")
        return
    t.wounds -= 1
    if t.wounds > 0:
        left = "1 wound" if t.wounds == 1 else f"{t.wounds} wounds"
        s.say(f"{thief_name(seat)} is {cause} ({left} left).")
        return
    t.wounds = 0
    t.standing = KILLED
    t.hex = NONE
    s.say(f"{thief_name(seat)} is {cause} and killed.")


def catch(s: State, seat: int, g: Guard) -> None:
    """Guard ``g`` (not undead) catches thief ``seat``, who leaves the game; the Sword's first
    catch instead costs one wound and distracts ``g`` (spec 6.6)."""
    t = s.thieves[seat]
    if t.standing != IN_PLAY:
        return
    if t.treasure == SWORD and not t.sword_used:
        t.sword_used = True
        g.status = DISTRACTED
        g.target = NONE
        s.say(f"{thief_name(seat)} fights free of {guard_name(s, g)} with the Sword.")
        wound(s, seat, "cut in the fight")
        return
    t.standing = CAUGHT
    t.hex = NONE
    s.say(f"{guard_name(s, g).capitalize()} catches {thief_name(seat)} at "
          f"{s.board.labels[g.hex]}.")
