"""Moving by destination (issue 27): one choice for each place the mover can reach with the
movement left, standing for the steps there (``core.api.Plan``).

The engine's rules do not change: a walk is the turn's own "Move to" steps along a shortest
path (``board.shortest_routes``), with "Done at" for each place of passing actions on the
way (a shop, temple, Guild House or Watch House not yet used this turn), and "End movement
here" at the end when the mover may stop there, there is movement left, and the place is
not one of passing actions (there the walk ends on arrival, for the person to act).

Where the shortest paths to a place differ in what can happen on the way, one walk is
offered per difference, named by what can happen on it and not on every other way (else "not"
and what the others pass; ``via``, also added to its text): the bridge crossed, the
Luggage's tile passed, a quadrant a Dragon holds, the opponents whose Guild Ability could reach
the mover (within 2 tiles, ruling 17, neither in a Hospital or Watch House, ruling 56, not
asked this turn, ruling 49), the Pox passing either way (ruling 58), and the quadrants entered
while carrying the Final Spell (ruling 46). All of it is read from public facts and the mover's
own: where the pieces, the Luggage and the Dragons are, who has the Pox, the mover's own run
(every opponent in reach counts, whether or not their ability could do anything now).

Walks go to tiles 2 or more steps away where the mover may end its movement (rulings 12-13:
not the Luggage's tile, another player's Start Gate or a tile another player holds alone); the
next tile is one "Move to" already, and a tile where one may not stop is passed on the way.
"""

from __future__ import annotations

from citywatch.core.api import Plan
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import RANGE, allowance
from citywatch.games.guards_guards.actions import Action, tile
from citywatch.games.guards_guards.data import QUADRANTS, TILES
from citywatch.games.guards_guards.state import GuardsGuardsState
from citywatch.games.guards_guards.turn import END_MOVE, LEAVE, MOVE_TO, PASS_KINDS

State = GuardsGuardsState
SAFE_KINDS = frozenset({"hospital", "watch_house"})
"""Places where Guild Abilities and the Pox cannot touch anyone (ruling 56)."""
GO_TO = "go_to"
"""The verb naming a walk in its JSON (a plan's name, never an action of the engine)."""


def _quadrant_name(q: int) -> str:
    return f"{QUADRANTS[q].capitalize()}'"


def _quadrants_of(t: int) -> tuple[int, ...]:
    """The quadrants tile ``t`` belongs to, as anyone can see (a border gate: both)."""
    found = TILES[t]
    return (found.quadrant,) if found.quadrant >= 0 else tuple(found.border_of)


def what_happens(s: State, seat: int, route: tuple[int, ...]) -> tuple[str, ...]:
    """What can happen to ``seat`` walking ``route`` (its first tile where it stands), as
    phrases, in a fixed order (see the module's docstring)."""
    entered = route[1:]
    bridges = [tile(t) for t in entered if TILES[t].kind == "bridge"]
    out = [f"over {name}" for name in bridges]
    if s.luggage in entered:
        out.append("past the Luggage")
    dragons = sorted({q for t in entered for q in _quadrants_of(t) if s.dragons[q] >= 0})
    out += [f"through the Dragon's quadrant ({_quadrant_name(q)})" for q in dragons]
    reach: list[str] = []
    pox: list[str] = []
    for k in range(1, s.n):
        other = (seat + k) % s.n
        there = s.pos[other]
        if there < 0 or TILES[there].kind in SAFE_KINDS:
            continue
        open_to = [t for t in entered if TILES[t].kind not in SAFE_KINDS]
        if not s.t.asked & (1 << other) and any(
                board.hex_distance(t, there) <= RANGE for t in open_to):
            reach.append(s.colour(other))
        if (s.pox[seat] or s.pox[other]) and any(
                board.hex_distance(t, there) <= 1 for t in open_to):
            pox.append(s.colour(other))
    if reach:
        out.append("in reach of " + _listed(reach) + ("'s" if len(reach) == 1 else "'")
                   + " Guild Abilit" + ("y" if len(reach) == 1 else "ies"))
    if pox:
        out.append("next to " + _listed(pox) + " (the Pox)")
    run = s.run[seat]
    if run is not None and run.final:
        quadrants = sorted({q for t in entered for q in _quadrants_of(t)
                            if not s.t.entered >> q & 1})
        if quadrants:
            out.append("into " + _listed([_quadrant_name(q) for q in quadrants])
                       + " quadrant" + ("s" if len(quadrants) > 1 else "")
                       + " with the Final Spell")
    return tuple(out)


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _difference(happens: tuple[str, ...], common: set[str],
                groups: dict[tuple[str, ...], tuple[int, ...]]) -> str:
    """How one way differs from the others to the same place: what can happen on it that
    does not on every way, else "not" and what the other ways pass."""
    own = [phrase for phrase in happens if phrase not in common]
    if own:
        return ", ".join(own)
    others = dict.fromkeys(phrase for h in groups for phrase in h if phrase not in common)
    return "not " + ", not ".join(others)


def _steps(s: State, seat: int, route: tuple[int, ...], left: int) -> tuple[Action, ...]:
    """The decisions of walking ``route`` (see the module's docstring)."""
    out: list[Action] = []
    last = route[-1]
    for t in route[1:]:
        out.append(Action(MOVE_TO, t))
        if t != last and TILES[t].kind in PASS_KINDS and t not in s.t.used:
            out.append(Action(LEAVE, t))
    if TILES[last].kind not in PASS_KINDS and len(route) - 1 < left:
        out.append(Action(END_MOVE, last))
    return tuple(out)


def walks(s: State) -> list[Plan]:
    """Every walk the seat to move may take now (none unless it is moving on its turn)."""
    seat = s.to_move
    if seat is None or not s.stack or s.stack[-1][0] != "turn" or s.stack[-1][4] != 2:
        return []
    t = s.t
    if t.seat != seat or t.stopped or t.over:
        return []
    here = s.pos[seat]
    left = allowance(s, seat) - t.steps
    if here < 0 or left < 2:
        return []
    legal = set(s.legal_actions())
    plans: list[Plan] = []
    for goal, distance in board.reachable(here, left).items():
        if distance < 2:
            continue
        if not s.can_end_on(seat, goal):
            continue
        groups: dict[tuple[str, ...], tuple[int, ...]] = {}
        for route in board.shortest_routes(here, goal):
            groups.setdefault(what_happens(s, seat, route), route)
        common = set.intersection(*(set(h) for h in groups))
        for happens, route in groups.items():
            steps = _steps(s, seat, route, left)
            if steps[0] not in legal:
                continue
            stops = steps[-1].verb == END_MOVE or distance == left
            text = (f"Go to {tile(goal)}{' and stop' if stops else ''} "
                    f"({distance} spaces)")
            json: dict[str, object] = {"verb": GO_TO, "tile": tile(goal)}
            if len(groups) > 1:
                json["via"] = _difference(happens, common, groups)
                text += f": {json['via']}"
            plans.append(Plan(text, json, steps))
    return plans
