"""The guard automaton (spec sections 4 and 5): set-up of the guards, the Resource Phase's part,
noise and hearing, looking, the Guard Phase, and the guard-side effects of Guard cards.

Everything here is a function of public state (guards, markers, torches) plus the referee's
answers (``referee.sightings``, ``referee.in_hex``, ``referee.reveal``); nothing here reads a
thief's hex. Harm to thieves goes through ``harm``. Hexes are ``Board`` indices; paths come
from ``Board.distances`` (breadth-first from the goal, cached per board) with the first step
chosen in the order of ruling 29.
"""

from __future__ import annotations

from typing import Final

from citywatch.games.black_keep import harm, referee
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import (
    ALERT,
    BORED,
    DEFAULT_STATUS,
    DIFFICULTIES,
    DISTRACTED,
    GUARD_TYPES,
    INTERESTED,
    NONE,
    PATROLLING,
    PURSUING,
    RETURNING,
    ROVING,
    STATIONARY,
    WANDERING,
    BlackKeepState,
    Guard,
    GuardSnapshot,
    Home,
)

State = BlackKeepState

NOISES: Final[tuple[str, ...]] = ("run", "arrow", "treasure")
"""The kinds of noise (4.5): a thief's Run, a Noise Arrow, taking a treasure."""
TIE_TURNS: Final[tuple[int, ...]] = (0, 1, -1, 2, -2, 3)
"""Ruling 29: ahead, ahead-right, ahead-left, back-right, back-left, behind."""
TIE_ORDER: Final = tuple(tuple((f + t) % 6 for t in TIE_TURNS) for f in range(6))
"""Per facing, the facings of the first step in tie-break order (ruling 29)."""
ROUTINE: Final[tuple[int, ...]] = (BORED, INTERESTED)


# --- paths (4.4, R29, R66) --------------------------------------------------------------------
def first_step(board: Board, here: int, facing: int, goal: int) -> int:
    """The facing of the first step of a shortest path from ``here`` to ``goal`` for a guard
    facing ``facing`` (ties: ruling 29); ``NONE`` on the goal or with no path (R66)."""
    dist = board.distances(goal)
    d = dist[here] - 1
    if d < 0:
        return NONE
    row = board.step[here]
    for f in TIE_ORDER[facing]:
        there = row[f]
        if there >= 0 and dist[there] == d:
            return f
    return NONE  # pragma: no cover - a BFS distance always has a neighbour one step nearer


def route_of(board: Board, g: Guard) -> tuple[int, ...]:
    """The route a guard walks in its default status: the green line (Patrolling), the red
    arrows (Wandering), none otherwise."""
    tile = board.tiles[g.tile]
    if g.type == PATROLLING:
        return tile.green_line
    if g.type == WANDERING:
        return tile.red_arrows
    return ()


def next_route_pos(g: Guard, route: tuple[int, ...]) -> int:
    """The route index a guard in its default status steps to next."""
    if g.type == WANDERING:
        return (g.route_pos + g.route_dir) % len(route)
    return g.route_pos + g.route_dir


def facing_to(board: Board, here: int, there: int) -> int:
    """The facing from ``here`` to its open neighbour ``there``."""
    return board.step[here].index(there)


def shield_for_roll(board: Board, tile: int, roll: int) -> int:
    """The red shield a die roll picks on ``tile``: shield ``(roll - 1) mod n + 1`` of the
    ``n`` listed (R27)."""
    shields = board.tiles[tile].red_shields
    return shields[(roll - 1) % len(shields)]


# --- set-up (section 8, step 3) ---------------------------------------------------------------
def create_guards(s: State) -> None:
    """Make ``s.guards`` in listing order (R23) for the state's difficulty and advanced flag:
    every basic guard, hard guards on hard (R40), the vault guard, the Roving guard when
    advanced; bows by difficulty (R39, R40); keys and coins (R62). None is placed yet."""
    if s.difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, "
                         f"not {s.difficulty!r}")
    board = s.board
    hard = s.difficulty == "hard"
    bows = s.difficulty != "easy"
    guards: list[Guard] = []
    for k, tile in enumerate(board.tiles):
        for slot in tile.guards:
            if (slot.role == "hard" and not hard) or (slot.role == "roving" and not s.advanced):
                continue
            g = Guard(k, slot.role, GUARD_TYPES.index(slot.type), slot.undead)
            g.bow = bows and not g.undead and g.type != ROVING and slot.role != "roving"
            g.key = not g.undead
            g.coins = 0 if g.undead else s.params.guard_coins
            guards.append(g)
    s.guards = guards


def waits_for_vault(board: Board, g: Guard) -> bool:
    """Whether ``g`` appears only once a thief has stepped onto the Vault tile (R31): the vault
    guard and the Vault tile's hard guard."""
    return g.role == "vault" or (g.role == "hard" and g.tile == board.vault_tile)


def place_guard(s: State, g: Guard) -> bool:
    """Put ``g`` on the map in its default status (8.3): Stationary on its crescent facing a
    die roll, Patrolling on its star facing along the line, Wandering on the red shield a die
    picks (the next free one in loop order if a thief is there), Roving on the crown facing a
    die roll. A guard is never placed on a thief (R61): it waits and False is returned."""
    board = s.board
    tile = board.tiles[g.tile]
    route = route_of(board, g)
    if g.type == WANDERING:
        rolled = shield_for_roll(board, g.tile, s.roll())
        shields = sorted(tile.red_shields, key=route.index)
        start = shields.index(rolled)
        free = [h for h in shields[start:] + shields[:start] if not referee.in_hex(s, h)]
        if not free:
            return False
        hex = free[0]
        g.route_pos = route.index(hex)
        g.route_dir = 1
        g.facing = facing_to(board, hex, route[next_route_pos(g, route)])
    else:
        spot = {STATIONARY: tile.crescent, PATROLLING: tile.star, ROVING: board.crown}[g.type]
        if spot is None:
            raise ValueError(f"{tile.name} has no marker for a {GUARD_TYPES[g.type]} guard")
        hex = spot
        if referee.in_hex(s, hex):
            return False
        if g.type == PATROLLING:
            g.route_pos = 0
            g.route_dir = 1
            g.facing = facing_to(board, hex, route[1])
        else:
            g.facing = s.roll() - 1
    g.hex = hex
    g.status = DEFAULT_STATUS[g.type]
    g.home = None
    g.target = NONE
    g.placed = True
    return True


def place_initial_guards(s: State) -> None:
    """Set-up step 3: place every created guard in listing order except those that wait for
    the Vault tile (R31); a Stationary guard whose crescent holds a thief waits (R61)."""
    for g in s.guards:
        if not g.placed and not waits_for_vault(s.board, g):
            place_guard(s, g)


def place_waiting_guards(s: State) -> None:
    """Start of the Guard Phase: place every waiting guard whose time has come: the vault
    guards once a thief has stepped onto the Vault tile (R31), a guard kept off a thief (R61)."""
    for g in s.guards:
        if g.placed or (waits_for_vault(s.board, g) and not s.vault_triggered):
            continue
        if place_guard(s, g):
            s.say(f"{harm.guard_name(s, g).capitalize()} appears at {s.board.labels[g.hex]}.")


# --- Resource Phase ---------------------------------------------------------------------------
def resource_phase(s: State) -> None:
    """The guards' part of the Resource Phase (R22, R39): bows may shoot again; Distracted
    guards return to their default status (one that a Sword distracted away from home walks
    back first: Returning)."""
    for g in s.guards:
        g.shot = 0
        if g.status == DISTRACTED:
            g.status = RETURNING if g.home is not None else DEFAULT_STATUS[g.type]


# --- markers, looking, spotting (3.7, 4.6, R24, R43, R64) -------------------------------------
def mark(s: State, hex: int) -> None:
    """Put a Thief Marker on ``hex`` unless one is there (R43: at most one per hex)."""
    if hex not in s.markers:
        s.markers[hex] = s.marker_count
        s.marker_count += 1


def record_home(g: Guard) -> None:
    """Remember where ``g`` leaves its default status (R38), unless it already has a home or
    is the Roving guard (R30: no home)."""
    if g.home is None and g.type != ROVING:
        g.home = Home(g.hex, g.route_pos, g.route_dir, g.facing)


def spotted(s: State, g: Guard, seat: int, hex: int) -> None:
    """Guard ``g`` has spotted thief ``seat`` at ``hex``: a marker there, a bow shot (once per
    round per thief, R39), and Pursuing (4.8)."""
    if hex not in s.markers or g.status != PURSUING:
        s.say(f"{harm.guard_name(s, g).capitalize()} spots a thief at {s.board.labels[hex]}.")
    mark(s, hex)
    bit = 1 << seat
    if g.bow and not g.shot & bit:
        g.shot |= bit
        harm.wound(s, seat, f"shot by {harm.guard_name(s, g)}")
    if g.status != PURSUING:
        if g.status != RETURNING:
            record_home(g)
        g.status = PURSUING


def look(s: State, g: Guard) -> None:
    """Guard ``g`` looks (3.7, R64): every thief it spots gets a marker on its hex, may be shot,
    and makes it Pursuing."""
    if g.placed and g.status != DISTRACTED:
        for seat, hex in referee.sightings(s, g):
            spotted(s, g, seat, hex)


def visible_markers(s: State, g: Guard) -> list[int]:
    """The hexes of the markers in guard ``g``'s field of view (R20: light does not matter)."""
    if not s.markers or g.status == DISTRACTED:
        return []
    seen = sight(s.board).seen(g.hex, g.facing, g.status, s.params.bored_reach)
    return [h for h in s.markers if h in seen]


def nearest_marker(s: State, g: Guard, hexes: list[int]) -> int:
    """Of the marker hexes ``hexes``, the nearest to ``g`` in steps (ties: the newest) that it
    can reach (R66); ``NONE`` if none."""
    dist = s.board.distances(g.hex)
    best, best_key = NONE, (0, 0)
    for h in hexes:
        d = dist[h]
        if d < 0:
            continue
        key = (d, -s.markers[h])
        if best == NONE or key < best_key:
            best, best_key = h, key
    return best


def choose(s: State, g: Guard) -> None:
    """Goal reached or gone (4.7, R35): the nearest visible marker becomes the target with the
    status unchanged; with none, Returning (Roving: Alert with no target, R30)."""
    target = nearest_marker(s, g, visible_markers(s, g))
    g.target = target
    if target != NONE:
        return
    if g.type == ROVING:
        g.status = ALERT
    elif g.home is None:  # pragma: no cover - a guard out of its default status has a home
        g.status = DEFAULT_STATUS[g.type]
    else:
        g.status = RETURNING


# --- noise and hearing (4.5, R32) -------------------------------------------------------------
def noise(s: State, hex: int, kind: str) -> None:
    """A noise of ``kind`` (run, arrow, treasure) at ``hex``: a marker there if none (R43);
    every placed guard within ``hearing_range`` steps along open sides hears it (undead not a
    Noise Arrow, R41): Distracted, Bored and Interested become Alert, record home and target
    it; an Alert guard retargets only to a strictly nearer marker; each that reacts turns
    toward the noise (R28). Pursuing and Returning guards are unaffected."""
    if kind not in NOISES:
        raise ValueError(f"noise kind must be one of {', '.join(NOISES)}, not {kind!r}")
    board = s.board
    if not 0 <= hex < board.size:
        raise ValueError(f"no floor hex {hex} on {board.name}")
    mark(s, hex)
    dist = board.distances(hex)
    reach = s.params.hearing_range
    for g in s.guards:
        if not g.placed or (g.undead and kind == "arrow"):
            continue
        status = g.status
        if status in (PURSUING, RETURNING):
            continue
        d = dist[g.hex]
        if d < 0 or d > reach:
            continue
        if status == ALERT:
            old = g.target
            if old != NONE and old in s.markers and 0 <= board.distances(old)[g.hex] <= d:
                continue
        else:
            record_home(g)
            g.status = ALERT
            s.say(f"{harm.guard_name(s, g).capitalize()} hears a noise and is Alert.")
        g.target = hex
        turn = first_step(board, g.hex, g.facing, hex)
        if turn != NONE:
            g.facing = turn


# --- moving (4.4, R28, R35-R37) ---------------------------------------------------------------
def enter(s: State, g: Guard, there: int, facing: int, hunting: bool) -> bool:
    """Guard ``g`` steps into ``there`` and faces ``facing``; the enter effects in order (4.4):
    relight (not undead, R21), catch or wound every thief there (R37, R41), remove the marker,
    look; True if its movement ends: it was ``hunting`` a target and found a thief or a marker
    (then it chooses, R35), or a Sword distracted it."""
    g.hex = there
    g.facing = facing
    if not g.undead and there in s.extinguished:
        s.extinguished = s.extinguished - {there}
        s.say(f"{harm.guard_name(s, g).capitalize()} relights the torch at "
              f"{s.board.labels[there]}.")
    found = False
    seats = referee.in_hex(s, there)
    if seats:
        found = True
        for seat in seats:
            if g.undead:
                harm.wound(s, seat, f"struck by {harm.guard_name(s, g)}")
            else:
                harm.catch(s, seat, g)
    if there in s.markers:
        del s.markers[there]
        found = True
    look(s, g)
    if g.status == DISTRACTED:
        return True
    if found and hunting:
        choose(s, g)
        return True
    return False


def step_toward(s: State, g: Guard, goal: int, hunting: bool) -> bool:
    """One step of ``g`` along a shortest path to ``goal`` (R29), facing the first step onward
    (R28), with the enter effects; True if its movement ends (``enter``) or it cannot step."""
    board = s.board
    f = first_step(board, g.hex, g.facing, goal)
    if f == NONE:
        return True
    there = board.step[g.hex][f]
    onward = first_step(board, there, f, goal)
    return enter(s, g, there, f if onward == NONE else onward, hunting)


def routine(s: State, g: Guard) -> None:
    """One move of ``g``'s default routine: Stationary rotates one side clockwise and looks
    (R25); Patrolling and Wandering step to the next route hex and face the one after,
    Patrolling turning round at once at either end of its line (R26, R27)."""
    if g.type == STATIONARY:
        g.facing = (g.facing + 1) % 6
        look(s, g)
        return
    board = s.board
    route = route_of(board, g)
    if not route:
        return
    pos = next_route_pos(g, route)
    there = route[pos]
    g.route_pos = pos
    if g.type == PATROLLING and (pos == 0 or pos == len(route) - 1):
        g.route_dir = -g.route_dir
    enter(s, g, there, facing_to(board, there, route[next_route_pos(g, route)]), False)


def arrive_home(s: State, g: Guard) -> None:
    """A Returning guard is home (R38): its default status, route state and routine again,
    facing the next route hex (Stationary: facing kept)."""
    home = g.home
    g.status = DEFAULT_STATUS[g.type]
    g.target = NONE
    g.home = None
    if home is not None:
        g.route_pos = home.route_pos
        g.route_dir = home.route_dir
    route = route_of(s.board, g)
    if route:
        g.facing = facing_to(s.board, g.hex, route[next_route_pos(g, route)])


def act(s: State, g: Guard, trace: list[GuardSnapshot] | None = None, number: int = 0) -> None:
    """Guard ``g`` (number ``number`` in listing order) acts in the Guard Phase (section 5);
    each step after which it is still Pursuing is added to ``trace`` (``guard_phase``)."""
    status = g.status
    if not g.placed or status == DISTRACTED:
        return
    if status in ROUTINE:
        routine(s, g)
        return
    if g.type == ROVING and status == ALERT:  # R30
        target = nearest_marker(s, g, list(s.markers))
        g.target = target
        if target == NONE:
            return
        if target == g.hex:
            del s.markers[target]
            choose(s, g)
            return
        step_toward(s, g, target, True)
        return
    if status == RETURNING:  # R38
        home = g.home
        if home is None:  # pragma: no cover - Returning guards always have a home
            arrive_home(s, g)
            return
        if g.hex != home.hex:
            step_toward(s, g, home.hex, False)
        if g.status == RETURNING and g.hex == home.hex:
            arrive_home(s, g)
        return
    steps = s.params.pursuing_steps if status == PURSUING and not g.undead else 1  # R33, R34
    board = s.board
    for _ in range(steps):
        if g.status == PURSUING:
            seen = nearest_marker(s, g, visible_markers(s, g))
            if seen != NONE:
                g.target = seen
        target = g.target
        if target == NONE or target not in s.markers or board.distances(target)[g.hex] < 0:
            choose(s, g)
            return
        if target == g.hex:  # a noise on the guard's own hex: investigated where it stands
            del s.markers[target]
            choose(s, g)
            return
        if step_toward(s, g, target, True):
            return
        if trace is not None and g.status == PURSUING:
            trace.append((number, g.hex, g.facing, g.status))
        if g.status != PURSUING:
            return


def guard_phase(s: State) -> None:
    """The Guard Phase (section 5): place waiting guards (R31, R61), every placed guard looks,
    then every placed guard acts, in listing order (R23).

    Its public steps become ``s.guard_trace``: every guard as the phase begins, then a
    snapshot (index, hex, facing, status) each time a guard's look changed its status, after
    each step of a Pursuing guard, and after each guard's action that changed it."""
    place_waiting_guards(s)
    everyone = s.guards
    last = [(i, g.hex, g.facing, g.status) for i, g in enumerate(everyone)]
    trace = last[:]
    placed = [i for i, g in enumerate(everyone) if g.placed]
    for i in placed:
        g = everyone[i]
        look(s, g)
        if g.status != last[i][3]:  # a look changes nothing else of the guard
            last[i] = snap = (i, g.hex, g.facing, g.status)
            trace.append(snap)
    for i in placed:
        g = everyone[i]
        act(s, g, trace, i)
        before = trace[-1] if trace[-1][0] == i else last[i]
        snap = (i, g.hex, g.facing, g.status)
        if snap != before:
            trace.append(snap)
    s.guard_trace = tuple(trace)


# --- Guard cards: the guard's side (6.5, R41, R48, R63) ---------------------------------------
# The thieves' module checks the card's range and target first; each function returns whether
# the card had an effect (False: it is spent for nothing, R63).
def distract(s: State, g: Guard) -> bool:
    """Art or Hip Flask: ``g`` becomes Distracted until the next Resource Phase (undead are
    immune, R41)."""
    if not g.placed or g.undead:
        return False
    g.status = DISTRACTED
    g.target = NONE
    s.say(f"{harm.guard_name(s, g).capitalize()} is Distracted.")
    return True


def diligent(s: State, g: Guard) -> bool:
    """Diligent: ``g``, in its default status and not undead, makes one routine move now (with
    its enter effects) and looks (R24)."""
    if not g.placed or g.undead or g.status not in ROUTINE:
        return False
    routine(s, g)
    return True


def adjust_rigging(s: State, g: Guard) -> bool:
    """Adjust Rigging: a Patrolling or Wandering guard in its default status (not undead)
    reverses its route direction and faces its new next hex; a Patrolling guard at an end of
    its line already faces its only way on, so nothing changes."""
    if not g.placed or g.undead or g.type not in (PATROLLING, WANDERING) \
            or g.status not in ROUTINE:
        return False
    route = route_of(s.board, g)
    g.route_dir = -g.route_dir
    pos = next_route_pos(g, route)
    if not 0 <= pos < len(route):
        g.route_dir = -g.route_dir
        return False
    g.facing = facing_to(s.board, g.hex, route[pos])
    return True


def spot_pick_pocket(s: State, g: Guard, seat: int) -> bool:
    """A failed Pick Pocket on ``g`` (R48): ``g`` spots thief ``seat`` (marker, bow, Pursuing),
    then looks (R24)."""
    hex = referee.reveal(s, seat)
    if not g.placed or hex == NONE:
        return False
    spotted(s, g, seat, hex)
    look(s, g)
    return True
