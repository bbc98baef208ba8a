"""A heuristic thief: to the crown in the dark, then out by its Exit tile.

It looks only at a world sampled from its own view (``Observation.sample``): its own Location
Dial is its own to know, the other thieves' plans, the decks' order and the crown's tokens are
re-drawn, and in rivals the other thieves' dials too.

- Start: the start hex with the shortest way to the crown that no guard sees lit now or after
  its next turns, away from guards (and, in co-op, from the thieves already placed).
- Buy: Lockpicks when its way runs through Special Hexes it cannot open; a Noise Arrow while a
  Roving guard is on the map or a guard would hear the treasure alarm (to lure them away from
  the crown, R30, R32); a Water Arrow when burning
  torches light its way; while Lockpicks are wanted and not on offer, a cheap card to turn
  the row over, keeping their price.
- Plan: every legal thief card is tried on a copy of the world, through the Thief Phase and
  the coming Guard Phase (``guards.guard_phase`` is cheap), and the plan whose result looks
  best wins (``outlook``): nobody caught, the way to go short (``evaluate.way_to_go``) and
  not late for dawn, a treasure carried, wounds kept, no guard able to step into its hex next
  phase and no Thief Marker there with hunters near, near the crown no guard that the
  treasure alarm would call (``alarm``: luring them first pays), cards left in hand that
  still lead on (so it Rests when they do not), and in co-op away from the other thieves.
  With ``lookahead`` 2 (the default) the ``CANDIDATES`` best plans are judged again by the
  best plan of the round after. Hiding wins when every move would be seen in the light;
  taking the treasure on the crown is planned whenever possible.
- Crew (co-op, section 9: one real treasure between them wins, any thief caught loses): the
  first thief in seat order still in play fetches the treasure (``evaluate.fetcher``); the
  others make for their Exit tiles and wait there. A thief without a real treasure never
  steps off the map while a crewmate is still in and no real treasure of the crew is out
  (``DESERTED``, below every position in play), except when staying is lost anyway: in the
  dawn round (R56: every thief still on the map is caught) or when the trial already has a
  crewmate caught (``own_part``). Once a real treasure is out, the others leave. A thief
  carrying one heads out at once.
- Guard cards: each playable one is tried the same way and played when it beats keeping it
  (a Noise Arrow that draws the Roving guard away from the crown, a Water Arrow that keeps it
  dark, a Moss Arrow that muffles a Run, Art or Hip Flask on a guard about to see it).

Ties go to the first legal action, so its choices depend only on the sampled world.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from citywatch.bots.base import WorldBot
from citywatch.core.rng import Rng
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep.actions import Action, board_hex
from citywatch.games.black_keep.data import (
    GUARD_CARDS,
    HAMMER,
    LOCKPICKS,
    MOSS_ARROW,
    NOISE_ARROW,
    RUN,
    THIEF_CARDS,
    WATER_ARROW,
)
from citywatch.games.black_keep.evaluate import (
    STEPS_PER_ROUND,
    danger,
    fetcher,
    goal_table,
    needs_lockpicks,
    rounds_left,
    wants_treasure,
    way_to_go,
)
from citywatch.games.black_keep.round import (
    Plan,
    can_take,
    card_options,
    dawn,
    end_round,
    guard_phase,
    plan_from_card,
    plan_of,
    resource_phase,
    thief_phase,
)
from citywatch.games.black_keep.scoring import carries_real_treasure
from citywatch.games.black_keep.sight import can_spot, sight
from citywatch.games.black_keep.state import (
    ALERT,
    BORED,
    CAUGHT,
    DISTRACTED,
    ESCAPED,
    IN_PLAY,
    INTERESTED,
    KILLED,
    NONE,
    PURSUING,
    ROVING,
    STATIONARY,
    BlackKeepState,
)

State = BlackKeepState
WIN: Final = 1000.0
"""A result that wins (or, negated, loses) the game."""
STEP: Final = 10.0
"""One step less to go."""
LATE: Final = 20.0
"""Each round its steps still to go would take beyond dawn (at ``evaluate.STEPS_PER_ROUND``).
A thief in play is always worth between a loss and a win (``WIN / 2`` either way)."""
TREASURE: Final = 120.0
"""A real treasure carried."""
WOUND: Final = 30.0
"""One wound counter kept."""
DANGER: Final = 15.0
"""One unit of ``evaluate.danger``."""
ALARM: Final = 40.0
"""A guard that would come at the treasure alarm (``alarm``)."""
ALARM_STEPS: Final = 7
"""How near the crown (steps) the thief must be for ``alarm`` to count."""
CREW: Final = 15.0
"""Ending within a step of another thief of the crew (one look or noise finds both)."""
LEADS_ON: Final = 4.0
"""Each card in hand (up to two) that steps nearer the goal from where the thief ends."""
HAND: Final = 0.2
"""Each card in hand."""
COIN: Final = 0.5
"""A Gold Coin; ``COIN_WANTED`` while it is saved toward Lockpicks that are needed."""
COIN_WANTED: Final = 4.0
KEEP: Final = 3.0
"""A Guard card kept for later, per coin of its cost: it must bring more to be played."""
CANDIDATES: Final = 5
"""Plans tried again two rounds deep (``lookahead`` 2)."""
FIRST: Final = 0.1
"""The weight of a plan's own outcome beside that of the best plan after it."""
SEEN: Final = 40.0
"""A start hex a guard sees lit."""
NEAR: Final = 20.0
"""A start hex within two steps of a guard."""
SHARED: Final = 40.0
"""A start hex another thief of the crew took: one look or noise would find both."""
LOST_TIE: Final = 0.01
"""The weight of the thief's ``own_part`` in a trial its crew has lost anyway (a crewmate
that stays put is caught): its plans still rank, deserting last."""
DESERTED: Final = -WIN / 2 - 1
"""Co-op: escaping empty-handed while another thief of the crew is still in and no real
treasure is out yet: worse than any position in play (``outlook`` keeps those within
``WIN / 2``), so the thief leaves so only when staying is lost anyway (dawn), but better
than a lost game (``outlook`` -``WIN``)."""


# --- trying a plan ------------------------------------------------------------------------------
def simulate(world: State, seat: int, plan: Plan) -> State:
    """A copy of ``world`` after thief ``seat`` carries out ``plan`` (the other thieves stay
    where they are), the Thief Phase's steps and the Guard Phase that follows (7.4, 7.5)."""
    c = world.copy()
    for t in c.thieves:
        t.plan = None
        t.possible = None  # nothing to learn in a trial: it only costs time
    c.thieves[seat].plan = plan
    thief_phase(c)
    if c.result is None:
        guard_phase(c)
    return c


def crew_lost(s: State, seat: int) -> bool:
    """Whether the game is lost for thief ``seat``: it is caught or killed, or (solo, co-op)
    any thief of the crew is (section 9)."""
    if s.mode == "rivals":
        return s.thieves[seat].standing in (CAUGHT, KILLED)
    return any(t.standing in (CAUGHT, KILLED) for t in s.thieves)


def escaped_value(s: State, seat: int) -> float:
    """What thief ``seat``'s escape is worth: a win with a real treasure; without one a loss
    in solo and rivals; in co-op, once the game is over its result, once a real treasure of
    the crew is out a step short of a win (the others only have to follow), else
    ``DESERTED`` (section 9; see the module)."""
    t = s.thieves[seat]
    if carries_real_treasure(t):
        return WIN
    if s.mode == "rivals" or s.n == 1:
        return -WIN / 2
    if s.result is not None:
        return WIN if seat in s.result.winners else -WIN
    if any(o.standing == ESCAPED and carries_real_treasure(o) for o in s.thieves):
        return WIN / 2
    return DESERTED


def leading_cards(s: State, seat: int) -> int:
    """How many different cards in thief ``seat``'s hand step nearer its goal from its hex (or,
    on its Exit tile's edge with nothing more to fetch, off the map)."""
    t = s.thieves[seat]
    here = t.hex
    board = s.board
    table = goal_table(s, seat)
    best = table[here]
    row = board.step[here]
    off = board.off_map[here] if best == 0 and not wants_treasure(s, seat) else ()
    count = 0
    for c in set(t.hand):
        card = THIEF_CARDS[c]
        if card.kind == "move":
            ways: tuple[int, ...] = card.directions
        elif card.kind == "run" and t.treasure != HAMMER:
            ways = tuple(range(6))
        else:
            continue
        if any(f in off or (row[f] >= 0 and table[row[f]] < best) for f in ways):
            count += 1
    return count


def alarm(s: State, seat: int) -> float:
    """While thief ``seat`` goes for the crown: ``ALARM`` for each guard that would hear the
    treasure alarm and come (4.5, R32: Distracted, Bored or Interested within hearing), or that
    hunts a marker near the crown anyway (Alert, Pursuing; Returning guards are deaf to the
    alarm, and Alert ones heed it only for a nearer marker), weighed by how near the
    thief is to the crown (full next to it, nothing from ``ALARM_STEPS`` steps away), so that
    luring such guards away before taking pays."""
    if not wants_treasure(s, seat):
        return 0.0
    board = s.board
    crown = board.crown
    near = board.distances(crown)[s.thieves[seat].hex]
    if near < 0 or near >= ALARM_STEPS:
        return 0.0
    heard = board.distances(crown)
    reach = s.params.hearing_range
    count = 0
    for g in s.guards:
        if not g.placed or not 0 <= heard[g.hex] <= reach:
            continue
        if g.status in (DISTRACTED, BORED, INTERESTED):
            count += 1
        elif g.status in (ALERT, PURSUING) and g.target in s.markers:
            if heard[g.target] <= reach or heard[g.hex] < board.distances(g.target)[g.hex]:
                count += 1  # it goes near the crown anyway, or the alarm would call it
    return ALARM * count * (1 - near / ALARM_STEPS)


def outlook(s: State, seat: int) -> float:
    """How good ``s`` looks for thief ``seat`` (and its crew): see the module."""
    t = s.thieves[seat]
    if crew_lost(s, seat):
        return -WIN + LOST_TIE * own_part(s, seat)
    if t.standing == ESCAPED:
        return escaped_value(s, seat)
    if s.result is not None:
        return WIN if seat in s.result.winners else -WIN
    if s.round >= dawn(s):
        return -WIN  # dawn ends this round: still on the map means caught (R56)
    return position(s, seat)


def own_part(s: State, seat: int) -> float:
    """Thief ``seat``'s own standing in a game its crew has lost (co-op: another thief was
    caught), so that its plans still rank as if the crewmate had got away: caught or killed
    ``-WIN / 2``, escaped with a real treasure ``WIN / 2``, escaped without ``DESERTED``,
    else its ``position``."""
    t = s.thieves[seat]
    if t.standing in (CAUGHT, KILLED):
        return -WIN / 2
    if t.standing == ESCAPED:
        return WIN / 2 if carries_real_treasure(t) else DESERTED
    return position(s, seat)


def position(s: State, seat: int) -> float:
    """The value of thief ``seat`` in play (within ``WIN / 2`` either way): see the
    module."""
    t = s.thieves[seat]
    steps = way_to_go(s, seat, -1)  # the steps themselves, every door open
    late = max(0.0, steps / STEPS_PER_ROUND - rounds_left(s))
    value = -STEP * way_to_go(s, seat) - LATE * late
    if carries_real_treasure(t):
        value += TREASURE
    value += WOUND * t.wounds - DANGER * danger(s, seat) - alarm(s, seat)
    value += LEADS_ON * min(2, leading_cards(s, seat)) + HAND * len(t.hand)
    wanted = 0
    if needs_lockpicks(s, seat):
        wanted = min(t.coins, GUARD_CARDS[LOCKPICKS].cost)
    value += COIN_WANTED * wanted + COIN * (t.coins - wanted)
    if s.mode != "rivals":
        near = s.board.distances(t.hex)
        for p, o in enumerate(s.thieves):
            if p != seat and o.standing == IN_PLAY and o.hex != NONE:
                if 0 <= near[o.hex] <= 1:
                    value -= CREW
                value -= DANGER / 2 * danger(s, p)
    return max(-WIN / 2, min(WIN / 2, value))


# --- the decisions ------------------------------------------------------------------------------
def card_plan(world: State, seat: int, action: Action) -> Plan:
    """The plan a thief card action starts, taking a treasure if it ends on the crown, and with
    a Moss Arrow on a Run when the thief holds one."""
    t = world.thieves[seat]
    plan = plan_from_card(world, seat, action)
    if plan.card == RUN and not plan.escape and MOSS_ARROW in t.guard_cards:
        plan = plan._replace(guard_card=MOSS_ARROW)
    saved = t.plan
    t.plan = plan
    take = can_take(world, seat)
    t.plan = saved
    return plan._replace(take=1) if take else plan


def next_plan(c: State) -> None:
    """Carry a trial world on from the end of its Guard Phase to the next round's plan: the end
    of the round (dawn, R56) and the Resource Phase's changes (7.1), buying nothing."""
    end_round(c)
    if c.result is None:
        c.round += 1
        resource_phase(c)


def best_reply(world: State, seat: int) -> float:
    """The ``outlook`` of thief ``seat``'s best plan in the next round of a trial world (its
    own outlook if the thief is no longer in play or the game is over)."""
    c = world.copy()
    next_plan(c)
    if c.result is not None or c.thieves[seat].standing != IN_PLAY:
        return outlook(c, seat)
    return max(outlook(simulate(c, seat, card_plan(c, seat, a)), seat)
               for a in card_options(c, seat))


def choose_card(world: State, seat: int, actions: list[Action], lookahead: int) -> Action:
    """The thief card whose trial ends best (``outlook``); with ``lookahead`` 2, the
    ``CANDIDATES`` best are tried again with the thief's best plan of the round after."""
    trials = [simulate(world, seat, card_plan(world, seat, a)) for a in actions]
    first = [outlook(c, seat) for c in trials]
    if lookahead < 2:
        return actions[max(range(len(actions)), key=first.__getitem__)]
    order = sorted(range(len(actions)), key=lambda i: -first[i])[:CANDIDATES]
    return actions[max(order, key=lambda i: best_reply(trials[i], seat) + FIRST * first[i])]


def guard_card_plan(world: State, seat: int, action: Action) -> Plan:
    """Thief ``seat``'s plan with the Guard card action added, taking a treasure if it can."""
    t = world.thieves[seat]
    plan = plan_of(t)
    if action.verb == verbs.GUARD_CARD:
        kind = GUARD_CARDS[action.x].target
        target = action.y if kind == "guard" else (
            board_hex(world.board, action.z) if action.z >= 0 else NONE)
        plan = plan._replace(guard_card=action.x, target=target)
    saved = t.plan
    t.plan = plan
    take = can_take(world, seat)
    t.plan = saved
    return plan._replace(take=1) if take else plan


def choose_guard_card(world: State, seat: int, actions: list[Action]) -> Action:
    """The Guard card (or none) whose trial ends best, a card played only when it brings more
    than ``KEEP`` per coin it cost."""
    def value(a: Action) -> float:
        keep = KEEP * GUARD_CARDS[a.x].cost if a.verb == verbs.GUARD_CARD else 0.0
        return outlook(simulate(world, seat, guard_card_plan(world, seat, a)), seat) - keep

    return max(actions, key=value)


def start_value(world: State, seat: int, hex: int) -> float:
    """How good a start hex is: the way to go from it, less ``SEEN`` if a guard sees it lit now
    or (a Stationary guard in its routine) after its next two turns, ``NEAR`` if a guard stands
    within two steps, ``SHARED`` on a hex another thief already took (co-op)."""
    t = world.thieves[seat]
    saved = t.hex
    t.hex = hex
    value = -STEP * way_to_go(world, seat)
    t.hex = saved
    board = world.board
    view = sight(board)
    lit = view.lit(world.extinguished, world.params.torch_reach)
    near = board.distances(hex)
    for g in world.guards:
        if not g.placed or g.status == DISTRACTED:
            continue
        turns = 3 if g.type == STATIONARY and g.home is None else 1
        for k in range(turns):
            seen = view.seen(g.hex, (g.facing + k) % 6, g.status, world.params.bored_reach)
            if can_spot(board, seen, lit, g.hex, hex, False, False):
                value -= SEEN
                break
        if 0 <= near[g.hex] <= 2:
            value -= NEAR
    if world.mode != "rivals" and any(p != seat and o.hex == hex
                                      for p, o in enumerate(world.thieves)):
        value -= SHARED
    return value


def choose_start(world: State, seat: int, actions: list[Action]) -> Action:
    """The start hex with the best ``start_value``."""
    return max(actions, key=lambda a: start_value(world, seat, board_hex(world.board, a.x)))


def torches_on_way(s: State, seat: int) -> bool:
    """Whether a burning torch lights a hex of thief ``seat``'s way to its next goal (followed
    downhill along ``goal_table`` from its hex, at most 40 steps)."""
    t = s.thieves[seat]
    if t.hex == NONE:
        return False
    board = s.board
    lit = sight(board).lit(s.extinguished, s.params.torch_reach)
    table = goal_table(s, seat)
    here = t.hex
    for _ in range(40):
        if here in lit:
            return True
        nearer = [x for x in board.step[here] if x >= 0 and table[x] < table[here]]
        if not nearer:
            return False
        here = min(nearer, key=lambda x: table[x])
    return False


def choose_buy(world: State, seat: int, actions: list[Action]) -> Action:
    """Lockpicks when the way needs them; a Noise Arrow while a Roving guard is about or a guard
    would hear the treasure alarm (to lure them, R30, R32), a Water
    Arrow when torches light the way (one of each held at a time), keeping Lockpicks' price
    while they are wanted; a cheap card to turn the row over while Lockpicks are wanted and
    not on offer; else nothing. In co-op a thief that is not the crew's fetcher buys nothing
    (citywatch ruling 27): the row stays for the fetcher."""
    t = world.thieves[seat]
    offered = {a.x: a for a in actions if a.verb == verbs.BUY}
    none = next(a for a in actions if a.verb == verbs.NO_BUY)
    if world.mode != "rivals" and fetcher(world) not in (seat, NONE):
        return none  # co-op: a thief waiting by its exit leaves the row to the fetcher
    price = GUARD_CARDS[LOCKPICKS].cost
    wanted = needs_lockpicks(world, seat)
    if wanted and LOCKPICKS in offered:
        return offered[LOCKPICKS]
    reserve = price if wanted else 0

    def affordable(card: int) -> bool:
        return card in offered and t.coins - GUARD_CARDS[card].cost >= reserve

    heard = world.board.distances(world.board.crown)
    lure = any(g.placed and (g.type == ROVING or 0 <= heard[g.hex] <= world.params.hearing_range)
               for g in world.guards)
    if lure and NOISE_ARROW not in t.guard_cards and affordable(NOISE_ARROW):
        return offered[NOISE_ARROW]
    if WATER_ARROW not in t.guard_cards and affordable(WATER_ARROW) \
            and torches_on_way(world, seat):
        return offered[WATER_ARROW]
    if wanted:
        cheap = sorted((c for c in offered if affordable(c)),
                       key=lambda c: (GUARD_CARDS[c].cost, c))
        if cheap:
            return offered[cheap[0]]
    return none


class HeuristicBot(WorldBot):
    """Steals the crown's treasure in the dark, from a sampled world only."""

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ("lookahead",)
    """The options a spec may set."""
    PLAYOUT: ClassVar[dict[str, int]] = {"lookahead": 1}
    """The options of the bot when search bots play out with it (quicker)."""

    def __init__(self, lookahead: int = 2) -> None:
        if lookahead not in (1, 2):
            raise ValueError("lookahead must be 1 (this round) or 2 (and the next)")
        self.lookahead = lookahead

    def choose_in(self, world: Any, seat: int, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action the plan prefers in ``world``, a world already sampled for
        ``seat`` (search bots' playouts call this to skip sampling again)."""
        assert isinstance(world, BlackKeepState)
        if len(legal_actions) == 1:
            return legal_actions[0]
        kind = world.stack[-1][0] if world.stack else ""
        if kind == "start":
            return choose_start(world, seat, legal_actions)
        if kind == "buy":
            return choose_buy(world, seat, legal_actions)
        if kind == "plan_card":
            return choose_card(world, seat, legal_actions, self.lookahead)
        if kind == "plan_guard":
            return choose_guard_card(world, seat, legal_actions)
        if kind == "plan_treasure":
            return next((a for a in legal_actions if a.verb == verbs.TAKE), legal_actions[0])
        return legal_actions[0]


__all__ = ["HeuristicBot", "choose_buy", "choose_card", "choose_guard_card", "choose_start",
           "outlook", "simulate"]

