"""The twelve random events (rulebook, back page; rulings 18 and 20-23)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from citywatch.games.ankh_morpork import harm
from citywatch.games.ankh_morpork.actions import Action, act, piece_name
from citywatch.games.ankh_morpork.data import (
    ADJACENT,
    AREAS,
    CARDS,
    DEMON,
    DEMONS,
    DIE,
    EVENTS,
    NUM_AREAS,
    RIOT_TROUBLE,
    SMALL_GODS,
    SMALL_GODS_FEE,
    TROLL,
    TROLLS,
)
from citywatch.games.ankh_morpork.frames import Handler, handler, op, then
from citywatch.games.ankh_morpork.scoring import end_on_points
from citywatch.games.ankh_morpork.state import GONE, AnkhMorporkState, Frame

EventFn = Callable[[AnkhMorporkState], None]
EVENT_FUNCTIONS: Final[dict[str, EventFn]] = {}


def event(name: str) -> Callable[[EventFn], EventFn]:
    """Register the function that resolves the event called ``name``."""

    def register(fn: EventFn) -> EventFn:
        EVENT_FUNCTIONS[name] = fn
        return fn

    return register


def roll(s: AnkhMorporkState, why: str = "") -> int:
    """Roll the twelve-sided die; return the area index (0-11) and log it."""
    value = s.rng.roll(DIE)
    area = value - 1
    s.say(f"The die shows {value}: {AREAS[area].name}{why}.")
    return area


def draw_event(s: AnkhMorporkState) -> None:
    """Draw and resolve the top random event (ruling 20)."""
    if not s.events:
        s.say("No random events are left.")
        return
    e = s.events.pop()
    s.events_done.append(e)
    s.say(f"Random event: {EVENTS[e].name}.")
    EVENT_FUNCTIONS[EVENTS[e].name](s)


def turn_order_from(s: AnkhMorporkState, seat: int) -> tuple[int, ...]:
    """All seats in turn order starting with ``seat``."""
    return tuple((seat + k) % s.n for k in range(s.n))


@event("The Dragon")
def dragon(s: AnkhMorporkState) -> None:
    area = roll(s)
    ops: list[tuple[object, ...]] = []
    for owner in range(s.n):
        ops.extend(("harm_minion", owner, area) for _ in range(s.minions[owner][area]))
    ops.extend(("harm_minion", TROLL, area) for _ in range(s.trolls[area]))
    ops.extend(("harm_minion", DEMON, area) for _ in range(s.demons[area]))
    ops.append(("harm_building", area))
    ops.append(("clear_trouble", area))
    then(s, *ops)


@op("harm_minion")
def _harm_minion(s: AnkhMorporkState, owner: int, area: int) -> None:
    harm.remove_minion(s, owner, area, -1, harm.EVENT)


@op("harm_building")
def _harm_building(s: AnkhMorporkState, area: int) -> None:
    harm.remove_building(s, area, -1, harm.EVENT)


@op("clear_trouble")
def _clear_trouble(s: AnkhMorporkState, area: int) -> None:
    s.trouble[area] = False


@event("Flood")
def flood(s: AnkhMorporkState) -> None:
    rolled = [roll(s), roll(s)]
    flooded = 0
    for a in rolled:
        if AREAS[a].borders_river:
            flooded |= 1 << a
    if not flooded:
        s.say("Neither area borders the river: nothing floods.")
        return
    names = ", ".join(AREAS[a].name for a in range(NUM_AREAS) if flooded >> a & 1)
    s.say(f"Flooded: {names}.")
    rolled_mask = 1 << rolled[0] | 1 << rolled[1]  # ruling 21: no moving into either rolled area
    order = turn_order_from(s, s.current)[1:]
    s.stack.append(("flood", s.current, flooded, order, (0,) * 12, rolled_mask))


class Flood(Handler):
    """Each player in turn order moves their minions out of the flooded areas (ruling 21)."""

    kind = "flood"

    def _left(self, s: AnkhMorporkState, f: Frame) -> list[int]:
        seat, flooded, kept = f[1], f[2], f[4]
        return [a for a in range(NUM_AREAS)
                if flooded >> a & 1 and s.minions[seat][a] - kept[a] > 0]

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        if self._left(s, f):
            return False
        flooded, rest = f[2], f[3]
        s.stack.pop()
        if rest:
            s.stack.append(("flood", rest[0], flooded, rest[1:], (0,) * 12, *f[5:]))
        return True

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat, forbidden = f[1], f[5] if len(f) > 5 else f[2]
        out: list[Action] = []
        for a in self._left(s, f):
            out.extend(
                act("move_minion", area=a, seat=seat, extra=b)
                for b in sorted(ADJACENT[a])
                if not forbidden >> b & 1
            )
            if s.can_use_small_gods(seat):
                out.append(act("keep_here", area=a))
        return out

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        seat, flooded, rest, kept = f[1], f[2], f[3], f[4]
        if a.verb == "keep_here":
            s.money[seat] -= SMALL_GODS_FEE
            s.say(f"{s.colour(seat)} paid ${SMALL_GODS_FEE} (Small Gods) to keep a minion in "
                  f"{s.area_name(a.area)}.")
            k = list(kept)
            k[a.area] += 1
            s.stack[-1] = ("flood", seat, flooded, rest, tuple(k), *f[5:])
            return
        s.move_piece(seat, a.area, a.extra)
        s.say(f"{s.colour(seat)} moved a minion out of the flood from {s.area_name(a.area)} "
              f"to {s.area_name(a.extra)}.")

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "move minions out of the flood"


handler(Flood)


@event("Fire")
def fire(s: AnkhMorporkState) -> None:
    then(s, ("fire", -1))


@op("fire")
def _fire(s: AnkhMorporkState, last: int) -> None:
    area = roll(s)
    if s.building[area] < 0:
        s.say("There is no building there: the fire goes out.")
        return
    if last >= 0 and area not in ADJACENT[last]:
        s.say(f"{AREAS[area].name} is not next to {AREAS[last].name}: the fire goes out.")
        return
    then(s, ("fire", area))
    harm.remove_building(s, area, -1, harm.EVENT)


@event("Fog")
def fog(s: AnkhMorporkState) -> None:
    taken = [s.draw_pile.pop() for _ in range(min(5, len(s.draw_pile)))]
    s.discard_pile.extend(taken)
    names = ", ".join(CARDS[c].name for c in taken) or "nothing"
    s.say(f"The fog discards the top of the draw pile: {names}.")


@event("Riots")
def riots(s: AnkhMorporkState) -> None:
    count = s.trouble_count()
    if count >= RIOT_TROUBLE:
        s.say(f"There are {count} trouble markers: riots end the game.")
        end_on_points(s, "riots")
    else:
        s.say(f"Only {count} trouble markers: the riots come to nothing.")


@event("Explosion")
def explosion(s: AnkhMorporkState) -> None:
    area = roll(s)
    harm.remove_building(s, area, -1, harm.EVENT)


@event("Mysterious Murders")
def murders(s: AnkhMorporkState) -> None:
    s.stack.append(("murders", s.current, -1, turn_order_from(s, s.current)[1:]))


class Murders(Handler):
    """Each player rolls and removes a minion from the rolled area (ruling 9)."""

    kind = "murders"

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        _, seat, area, rest = f
        if area < 0:
            area = roll(s, f" for {s.colour(seat)}")
            s.stack[-1] = ("murders", seat, area, rest)
            if s.pieces_in(area) == 0:
                s.say("Nobody is there.")
                self._next(s, rest)
            return True
        return False

    def _next(self, s: AnkhMorporkState, rest: tuple[int, ...]) -> None:
        s.stack.pop()
        if rest:
            s.stack.append(("murders", rest[0], -1, rest[1:]))

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        _, seat, area, _ = f
        owners = [o for o in (*range(s.n), TROLL, DEMON) if o != seat and s.minions_of(o, area)]
        if not owners and s.minions[seat][area]:
            owners = [seat]
        return [act("remove_minion", area=area, seat=o) for o in owners]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        self._next(s, f[3])
        s.say(f"{s.colour(f[1])} chose {piece_name(a.seat)} in {s.area_name(a.area)}.")
        harm.remove_minion(s, a.seat, a.area, -1, harm.EVENT)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "choose a minion to remove"


handler(Murders)


@event("Demons from the Dungeon Dimensions")
def demons(s: AnkhMorporkState) -> None:
    then(s, *(("demon", roll(s)) for _ in range(4)))


@op("demon")
def _demon(s: AnkhMorporkState, area: int) -> None:
    if sum(s.demons) >= DEMONS:
        s.say("No demons are left in the supply.")
        return
    s.stack.append(("demon", -1, area, turn_order_from(s, s.current)))


class Demon(Handler):
    """Place a demon unless a player with a piece there pays Small Gods (ruling 18)."""

    kind = "demon"

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        _, seat, area, rest = f
        if seat >= 0 and _has_piece(s, seat, area) and s.can_use_small_gods(seat):
            return False
        s.stack.pop()
        if rest:
            s.stack.append(("demon", rest[0], area, rest[1:]))
        else:
            s.add_piece(DEMON, area)
            s.say(f"A demon appears in {s.area_name(area)}.")
        return True

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("protect", area=harm_small_gods()), act("allow")]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, area, rest = f
        if a.verb == "allow":
            s.stack[-1] = ("demon", -1, area, rest)
            return
        s.stack.pop()
        s.money[seat] -= SMALL_GODS_FEE
        s.say(f"{s.colour(seat)} paid ${SMALL_GODS_FEE} (Small Gods): no demon appears in "
              f"{s.area_name(area)}.")

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return f"decide whether to pay Small Gods to stop a demon in {s.area_name(f[2])}"


handler(Demon)


def harm_small_gods() -> int:
    return SMALL_GODS


def _has_piece(s: AnkhMorporkState, seat: int, area: int) -> bool:
    return s.minions[seat][area] > 0 or s.building[area] == seat


@event("Subsidence")
def subsidence(s: AnkhMorporkState) -> None:
    then(s, *(("subside", seat) for seat in turn_order_from(s, s.current)))


@op("subside")
def _subside(s: AnkhMorporkState, seat: int) -> None:
    owned = len(s.buildings_of(seat))
    if not owned:
        return
    keep = min(owned, s.money[seat] // 2)
    s.money[seat] -= 2 * keep
    s.say(f"{s.colour(seat)} paid ${2 * keep} for {keep} of {owned} buildings.")
    if owned > keep:
        s.stack.append(("subside", seat, owned - keep))


class Subside(Handler):
    """A player who cannot pay for every building chooses which to lose."""

    kind = "subside"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("remove_building", area=a, seat=f[1]) for a in s.buildings_of(f[1])]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, left = f
        if left > 1:
            s.stack[-1] = ("subside", seat, left - 1)
        else:
            s.stack.pop()
        s.remove_building(a.area)
        s.say(f"{s.colour(seat)} could not pay: their building in {s.area_name(a.area)} "
              f"is removed.")

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "choose a building to lose"


handler(Subside)


@event("Bloody Stupid Johnson")
def bloody_stupid_johnson(s: AnkhMorporkState) -> None:
    area = roll(s)
    owner = s.area_card[area]
    if owner < 0:
        s.say("Nobody owns that City Area card.")
        return
    s.area_card[area] = GONE
    s.say(f"{s.colour(owner)}'s {AREAS[area].name} card leaves the game.")
    if s.minions[owner][area]:
        harm.remove_minion(s, owner, area, -1, harm.EVENT)


@event("Trolls")
def trolls(s: AnkhMorporkState) -> None:
    for _ in range(3):
        area = roll(s)
        if sum(s.trolls) >= TROLLS:
            s.say("No trolls are left in the supply.")
            continue
        s.add_piece(TROLL, area)
        s.say(f"A troll arrives in {s.area_name(area)}.")


@event("Earthquake")
def earthquake(s: AnkhMorporkState) -> None:
    then(s, *(("harm_building", roll(s)) for _ in range(2)))


missing = {e.name for e in EVENTS} - set(EVENT_FUNCTIONS)
if missing:  # pragma: no cover - a data/code mismatch is a programming error
    raise RuntimeError(f"random events without code: {sorted(missing)}")
