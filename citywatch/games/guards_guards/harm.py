"""The one gateway for harm: Hospitals, arrests, lost Volunteers, a turn cut short.

Every rule that hurts a player calls these, so protections live in one place: Nanny Ogg's
Cure All (FAQ; citywatch ruling 3), Carrot (no arrest), Reg Shoe's Recipe (pushed as a
``resurrect`` frame, decided in ``magic``), and Fire Water fizzling in a safe place
(ruling 57).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action, act, tile, verb, vol
from citywatch.games.guards_guards.data import ITEMS, SCROLLS, WATCH_HOUSES
from citywatch.games.guards_guards.frames import handler, push, then
from citywatch.games.guards_guards.state import UNTIL_HEALED, GuardsGuardsState

State = GuardsGuardsState
CURE_ALL: Final = next(i.index for i in ITEMS if (i.op or {}).get("op") == "avoid_hospital_or_cure")
REG_SHOES: Final = next(c.index for c in SCROLLS if c.op.get("op") == "resurrect_volunteer")

USE_CURE_ALL: Final = verb(
    "use_cure_all", (), lambda a: "Drink Nanny Ogg's Cure All: stay where you are"
)
GO_TO_HOSPITAL: Final = verb("go_to_hospital", (), lambda a: "Go to the Hospital")


def turn_frame(s: State) -> Frame | None:
    """The ``turn`` frame of the turn in progress, if any."""
    for f in s.stack:
        if f[0] == "turn":
            return f
    return None


def end_movement(s: State, seat: int) -> None:
    """The mover's movement ends now: on this tile, or the last tile passed (or the start)
    where they may stop; failing all, the nearest free tile (rulings 12-13)."""
    t = s.t
    t.stopped = True
    t.moving = False
    if s.can_end_on(seat, s.pos[seat]):
        return
    f = turn_frame(s)
    back = [*t.path[:-1][::-1]]
    if f is not None and len(f) > 3 and f[3] >= 0:
        back.append(f[3])
    for where in back:
        if s.can_end_on(seat, where):
            s.pos[seat] = where
            s.say(f"{s.colour(seat)} stops at {tile(where)}.")
            return
    where = place(s, seat, s.pos[seat])
    s.say(f"{s.colour(seat)} stops at {tile(where)}.")


def end_turn_now(s: State, seat: int) -> None:
    """End ``seat``'s turn at once if it is the turn in progress (rulings 20, FAQ Fire
    Water). Frames of that turn see ``s.t.over`` and close. A mover cut short while passing
    a tile they may not stop on stops where ``end_movement`` says."""
    if s.current == seat and s.t.seat == seat:
        if s.t.moving and not s.t.stopped:
            end_movement(s, seat)
        s.t.over = True
        s.t.stopped = True


def fizzle_flasks(s: State, seat: int) -> None:
    """Fire Water tokens on ``seat`` go back to their owners (ruling 57)."""
    for owner in s.flasks[seat]:
        s.fire_water[owner] += 1
        s.say(f"{s.colour(owner)}'s Fire Water by {s.colour(seat)} fizzles and goes back.")
    s.flasks[seat] = ()


def place(s: State, seat: int, where: int) -> int:
    """Put the seat's piece on ``where`` (or the nearest tile it may stand on, rulings 19 and
    82) without moving it; return the tile. A player carrying the Final Spell is never put on
    their own gate (ruling 47)."""
    run = s.run[seat]
    avoid = s.gate[seat] if run is not None and run.final else -1
    target = s.free_tile_near(seat, where, avoid)
    s.pos[seat] = target
    return target


def send_to_hospital(s: State, seat: int, why: str, injury: bool = True) -> None:
    """Send ``seat`` to the nearest Hospital (Hospitals; rulings 19-20, 59-60). A holder of
    Nanny Ogg's Cure All is asked first whether to drink it and stay (FAQ)."""
    if CURE_ALL in s.items[seat]:
        push(s, "cure_all", seat, why, injury)
        return
    _go_to_hospital(s, seat, why, injury)


def _go_to_hospital(s: State, seat: int, why: str, injury: bool) -> None:
    hospital = s.nearest_hospital(seat)
    s.pos[seat] = hospital
    s.say(f"{s.colour(seat)} goes to {tile(hospital)} ({why}).")
    cure_at_hospital(s, seat, injury)
    end_turn_now(s, seat)


def cure(s: State, seat: int, pox: bool = True, until_healed: bool = True) -> int:
    """Cure the Pox and/or every 'until healed' effect; return how many ailments went (an
    effect of one source, like Curse of Muddled Wits, is one ailment)."""
    count = 0
    if pox and s.pox[seat]:
        s.pox[seat] = False
        count += 1
    if until_healed:
        count += len({e[4] for e in s.effects[seat] if e[3] == UNTIL_HEALED})
        s.effects[seat] = tuple(e for e in s.effects[seat] if e[3] != UNTIL_HEALED)
    return count


def cure_at_hospital(s: State, seat: int, injury: bool) -> None:
    """A Hospital cures everything: private care at $1 per ailment, else the City Health
    Service and a missed turn (rulings 59-60). Fire Water fizzles (ruling 57)."""
    fizzle_flasks(s, seat)
    ailments = int(s.pox[seat]) + int(injury) + len(
        {e[4] for e in s.effects[seat] if e[3] == UNTIL_HEALED})
    cure(s, seat)
    if ailments == 0:
        s.say(f"{s.colour(seat)} is healthy; the doctors send them away.")
    elif s.dollars[seat] >= ailments:
        s.lose(seat, ailments)
        s.say(f"{s.colour(seat)} pays ${ailments} for private care and is cured.")
    else:
        s.missed[seat] += 1
        s.say(f"{s.colour(seat)} cannot pay ${ailments}: the City Health Service cures them, "
              "and they miss their next turn.")


class CureAllHandler(Handler[State]):
    """Drink Nanny Ogg's Cure All, or go to the Hospital (FAQ)."""

    kind = "cure_all"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(USE_CURE_ALL), act(GO_TO_HOSPITAL)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat, why, injury = f[1], f[2], f[3]
        if a.verb == USE_CURE_ALL:
            s.items[seat].remove(CURE_ALL)
            s.return_card(seat, "odds_and_sods", CURE_ALL)
            s.say(f"{s.colour(seat)} drinks Nanny Ogg's Cure All and shrugs off {why}.")
        else:
            _go_to_hospital(s, seat, why, injury)

    def describe(self, s: State, f: Frame) -> str:
        return f"decide how to answer {f[2]}"  # names no card: the hand is hidden


handler(CureAllHandler)


def arrest(s: State, seat: int, where: int, why: str) -> bool:
    """Arrest ``seat``: to the Watch House ``where`` (a tile), turn over (City Watch House;
    rulings 19-20); Carrot in hand prevents it. True if arrested."""
    if s.has_ability(seat, "no_arrest"):
        s.say(f"{s.colour(seat)} is not arrested ({why}): Carrot vouches for them.")
        return False
    s.pos[seat] = where
    s.jailed[seat] = True
    s.say(f"{s.colour(seat)} is arrested and taken to {tile(where)} ({why}).")
    fizzle_flasks(s, seat)
    end_turn_now(s, seat)
    return True


TAKEN_TO: Final = verb("taken_to", (("watch_house", "tile"),),
                       lambda a: f"Be taken to {tile(a.x)}")


def arrest_at_nearest(s: State, seat: int, why: str) -> None:
    """Arrest ``seat`` at the nearest Watch House; if two are equally near, the player
    chooses (ruling 18) with a ``watch_house`` frame."""
    here = s.pos[seat]
    ties = board.nearest(here, WATCH_HOUSES)
    if len(ties) > 1 and not s.has_ability(seat, "no_arrest"):
        push(s, "watch_house", seat, why, ties)
    else:
        arrest(s, seat, ties[0], why)


class WatchHouseHandler(Handler[State]):
    """Which of two equally near Watch Houses an arrested player is taken to (ruling 18)."""

    kind = "watch_house"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(TAKEN_TO, t) for t in f[3]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        arrest(s, f[1], a.x, f[2])

    def describe(self, s: State, f: Frame) -> str:
        return "choose which of two equally near Watch Houses to be taken to"


handler(WatchHouseHandler)


def lose_volunteer(s: State, seat: int, volunteer: int, item: int, why: str,
                   item_to: int = -2) -> None:
    """``seat``'s Volunteer is discarded (with its Item: to ``item_to``'s hand if >= 0, else
    back to the owner's hand when ``item_to == -1``, else to the nearest Odds & Sods deck).
    The owner may then cast Reg Shoe's Recipe (a ``resurrect`` frame, decided in ``magic``)."""
    s.discard_volunteer(volunteer)
    s.say(f"{s.colour(seat)}'s {vol(volunteer)} is discarded ({why}).")
    if item >= 0:
        if item_to >= 0:
            s.items[item_to].append(item)
        elif item_to == -1:
            s.items[seat].append(item)
        else:
            s.return_card(seat, "odds_and_sods", item)
    if REG_SHOES in s.scrolls[seat] and not s.is_safe_place(seat):
        push(s, "resurrect", seat, volunteer, item if item_to == -2 else -1)


WAND: Final = next(
    i.index for i in ITEMS if (i.op or {}).get("op") == "cancel_scroll_or_guild_ability"
)
USE_WAND: Final = verb("use_wand", (), lambda a: "Use the Wand of Fizzling: it has no effect")
LET_IT_HAPPEN: Final = verb("let_it_happen", (), lambda a: "Keep the Wand")


def offer_wand(s: State, target: int, what: str, allow: tuple[tuple[object, ...], ...],
               cancelled: tuple[tuple[object, ...], ...] = ()) -> None:
    """Just after an opponent's Scroll or Guild Ability succeeds against ``target``: if they
    hold the Wand of Fizzling they may cancel it (ruling 52). Then the ops ``allow`` run (the
    effect, with its defence roll) or, if cancelled, ``cancelled``."""
    if WAND in s.items[target] and not s.is_safe_place(target):
        push(s, "wand", target, what, allow, cancelled)
    else:
        then(s, *allow)


class WandHandler(Handler[State]):
    """The Wand of Fizzling, straight after a success against the seat (ruling 52)."""

    kind = "wand"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(USE_WAND), act(LET_IT_HAPPEN)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat, what, allow, cancelled = f[1], f[2], f[3], f[4]
        if a.verb == USE_WAND:
            s.items[seat].remove(WAND)
            s.return_card(seat, "odds_and_sods", WAND)
            s.say(f"{s.colour(seat)} waves the Wand of Fizzling: {what} has no effect.")
            then(s, *cancelled)
        else:
            then(s, *allow)

    def describe(self, s: State, f: Frame) -> str:
        return f"decide how to answer {f[2]}"  # names no card: the hand is hidden


handler(WandHandler)


def miss_turns(s: State, seat: int, turns: int, why: str) -> None:
    """``seat`` misses its next ``turns`` turns."""
    s.missed[seat] += turns
    s.say(f"{s.colour(seat)} will miss {turns} turn{'s' if turns != 1 else ''} ({why}).")
