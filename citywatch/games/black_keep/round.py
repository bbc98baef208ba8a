"""A round of the Black Keep (spec section 7, rulings 44-59, 61-63): the decisions of the
thieves and the Thief Phase; the guards' part is ``guards``'.

``DECISIONS`` (``citywatch.core.stack``) holds the frame handlers. A round (``begin_round``):

1. Resource Phase: Distracted guards back to their default status, Hide ends
   (``guards.resource_phase``); ``("buy", seat)``: each thief in seat order may buy one
   face-up Guard card, and the row is refilled at once (ruling 50).
2. Plan, each thief in seat order, a short sequence of its own decisions: ``("plan_card",
   seat)`` the thief card with its choices, ``("plan_guard", seat)`` an optional Guard card
   and its target, ``("plan_treasure", seat)`` whether to take a treasure (only when the
   movement ends on the crown). Only legal plans are offered (ruling 58); the plan is secret
   (``Thief.plan``) until the reveal.
3. Reveal: thief card names and Guard card targets are public; directions stay secret.
4. Thief Phase (ruling 59): moves, escapes, treasures, Guard cards, Pick Pockets, noises, the
   vault trigger; then the end of the game is checked.
5. Guard Phase (``guards.guard_phase``).
6. End of round: the end of the game, and at dawn every thief still on the map is caught
   (ruling 56).

A thief's secrets (its hex, its directions) are logged for the seats that may know them
(``knowers``: every seat in solo and co-op, only its own in rivals, spec 10); its plan for its
own seat only until the reveal. What each step makes public narrows the thieves' public
possibility sets (``Thief.possible``: ``learn_from_reveal``, ``learn_from_guards``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final, NamedTuple

from citywatch.core.stack import Decisions, Frame, Handler
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep import guards
from citywatch.games.black_keep.actions import SEATS, Action, act, board_hex, hex_code
from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.data import (
    COINS,
    FAKE,
    GUARD_CARDS,
    HAMMER,
    HIDE,
    KEY,
    LOCKPICKS,
    LOOT,
    MOSS_ARROW,
    NOISE_ARROW,
    PICK_POCKET,
    REST,
    RUN,
    THIEF_CARDS,
    TREASURES,
    WATER_ARROW,
)
from citywatch.games.black_keep.harm import guard_name, thief_name
from citywatch.games.black_keep.hexes import distance
from citywatch.games.black_keep.scoring import outcome
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import (
    CAUGHT,
    DISTRACTED,
    ESCAPED,
    IN_PLAY,
    NONE,
    STATE_HOOKS,
    BlackKeepState,
    Thief,
)

State = BlackKeepState
DECISIONS: Final[Decisions[BlackKeepState]] = Decisions()
op: Final = DECISIONS.op
then: Final = DECISIONS.then
OFF_MAP: Final = -2
"""Where a step off the map (an escape) leads."""


handler: Final = DECISIONS.handler
"""Register a frame handler class under its ``kind`` (a class decorator)."""


advance: Final = DECISIONS.advance
"""Run automatic steps until a thief must choose."""


class Plan(NamedTuple):
    """A thief's plan for the round (7.2), all small ints (``NONE`` when unused): the thief
    card; the hexes of its first and second step; ``escape`` 1 if its last step leaves the
    map; the guard and loot of a Pick Pocket; the Guard card and its target (a guard's index,
    or a board hex for Noise and Water Arrows); ``take`` 1 to take a treasure."""

    card: int
    first: int = NONE
    second: int = NONE
    escape: int = 0
    pocket: int = NONE
    loot: int = NONE
    guard_card: int = NONE
    target: int = NONE
    take: int = 0

    def end(self, start: int) -> int:
        """Where the movement ends from ``start`` (before any escape step)."""
        return self.second if self.second >= 0 else self.first if self.first >= 0 else start


def plan_of(t: Thief) -> Plan:
    """``t``'s plan as a ``Plan`` (positions store it as a plain tuple)."""
    assert t.plan is not None, "the thief has no plan"
    return t.plan if isinstance(t.plan, Plan) else Plan(*t.plan)


# --- who may know a thief's secrets (spec 10) --------------------------------------------------
def knowers(s: State, seat: int) -> frozenset[int]:
    """The seats that may know thief ``seat``'s secrets: all in solo and co-op, itself in
    rivals."""
    return frozenset((seat,)) if s.mode == "rivals" else frozenset(range(s.n))


def tell(s: State, seat: int, text: str, others: str | None = None) -> None:
    """Log ``text`` for the seats that may know thief ``seat``'s secrets (others: ``others``)."""
    s.say(text, seats=knowers(s, seat), others=others)


# --- thief steps (6.3, rulings 42, 49, 52) -----------------------------------------------------
def guard_hexes(s: State) -> frozenset[int]:
    """The hexes holding a placed guard (undead included, ruling 42)."""
    return frozenset(g.hex for g in s.guards if g.placed)


def thief_steps(s: State, t: Thief, here: int,
                blocked: frozenset[int]) -> list[tuple[int, int, bool]]:
    """Every legal step of thief ``t`` from ``here``: ``(facing, there, stops)``, ``there``
    ``OFF_MAP`` for an escape from an outside edge hex of its Exit tile (ruling 52);
    ``stops`` when Lockpicks open a Special Hex without a key (ruling 49). ``blocked`` are
    the guards' hexes (ruling 42)."""
    board = s.board
    steps: list[tuple[int, int, bool]] = []
    row = board.step[here]
    exit_edge = t.exit_tile != NONE and here in board.tiles[t.exit_tile].outside_edge
    for f in range(6):
        there = row[f]
        if there == BLOCKED:
            if exit_edge and f in board.off_map[here]:
                steps.append((f, OFF_MAP, True))
            continue
        if there in blocked:
            continue
        if board.special[there]:
            if t.keys >> board.tile_of[there] & 1:
                steps.append((f, there, False))
            elif t.lockpicks:
                steps.append((f, there, True))
            continue
        steps.append((f, there, False))
    return steps


def enters_vault(board: Board, plan: Plan) -> bool:
    """Whether the plan's movement steps onto a hex of the Vault tile (4.3, ruling 31)."""
    return any(h >= 0 and board.tile_of[h] == board.vault_tile for h in (plan.first, plan.second))


# --- set-up: the Location Dial (8.4, ruling 53) ------------------------------------------------
def start_hexes(s: State) -> list[int]:
    """The hexes a thief may start on: outside edge hexes of entry tiles holding no guard
    (ruling 53)."""
    taken = guard_hexes(s)
    return sorted(h for tile in s.board.tiles if tile.entry for h in tile.outside_edge
                  if h not in taken)


@op("start")
def push_start(s: State, seat: int) -> None:
    """Ask thief ``seat`` for its start hex."""
    s.stack.append(("start", seat))


class StartHandler(Handler[State]):
    """``("start", seat)``: set the Location Dial, secretly (8.4)."""

    kind = "start"

    def legal(self, s: State, f: Frame) -> list[Any]:
        return [act(verbs.START, hex_code(s.board, h)) for h in start_hexes(s)]

    def apply(self, s: State, f: Frame, a: Any) -> None:
        seat = f[1]
        s.stack.pop()
        t = s.thieves[seat]
        t.hex = board_hex(s.board, a.x)
        t.possible = frozenset(start_hexes(s))  # public: any start hex (ruling 53)
        tell(s, seat, f"{thief_name(seat)} sets its Location Dial to {s.board.labels[t.hex]}.",
             f"{thief_name(seat)} sets its Location Dial.")

    def describe(self, s: State, f: Frame) -> str:
        return "choose your start hex"


handler(StartHandler)


# --- the round -------------------------------------------------------------------------------
def dawn(s: State) -> int:
    """The last round (the parameters', else the scenario's)."""
    return s.params.dawn or s.board.dawn


def begin_round(s: State) -> None:
    """Queue a whole round (section 7)."""
    s.round += 1
    s.turn = s.round
    s.say(f"Round {s.round} of {dawn(s)} begins.")
    seats = range(s.n)
    then(s, ("resource",), *(("buy", p) for p in seats), *(("plan", p) for p in seats),
         ("reveal",), ("thief_phase",), ("guard_phase",), ("end_round",))


DECISIONS.begin_turn = begin_round


@op("resource")
def resource_phase(s: State) -> None:
    """7.1: Distracted guards back to their default status (ruling 22), Hide ends (ruling
    47)."""
    s.phase = "resource"
    guards.resource_phase(s)
    for t in s.thieves:
        t.hiding = False


def buy_options(s: State, seat: int) -> list[int]:
    """The different face-up Guard cards thief ``seat`` can afford (a second Lockpicks is
    never offered)."""
    t = s.thieves[seat]
    return sorted({c for c in s.market if c != NONE and GUARD_CARDS[c].cost <= t.coins
                   and not (c == LOCKPICKS and t.lockpicks)})


@op("buy")
def push_buy(s: State, seat: int) -> None:
    """Let thief ``seat`` buy, if it is in play."""
    if s.thieves[seat].standing == IN_PLAY:
        s.stack.append(("buy", seat))


class BuyHandler(Handler[State]):
    """``("buy", seat)``: buy one face-up Guard card or none (6.5, ruling 50)."""

    kind = "buy"

    def legal(self, s: State, f: Frame) -> list[Any]:
        return [act(verbs.BUY, c) for c in buy_options(s, f[1])] + [act(verbs.NO_BUY)]

    def apply(self, s: State, f: Frame, a: Any) -> None:
        seat = f[1]
        s.stack.pop()
        if a.verb == verbs.NO_BUY:
            return
        t = s.thieves[seat]
        card = GUARD_CARDS[a.x]
        t.coins -= card.cost
        if a.x == LOCKPICKS:
            t.lockpicks = True
        else:
            t.guard_cards.append(a.x)
            t.guard_cards.sort()
        place = s.market.index(a.x)
        s.market[place] = s.guard_deck.pop() if s.guard_deck else NONE
        s.say(f"{thief_name(seat)} buys {card.name} for {card.cost} "
              f"coin{'' if card.cost == 1 else 's'}.")

    def describe(self, s: State, f: Frame) -> str:
        return "buy a Guard card or none"


handler(BuyHandler)


# --- the plan (7.2, rulings 45, 46, 48, 50, 51, 58) ---------------------------------------------
@op("plan")
def push_plan(s: State, seat: int) -> None:
    """Ask thief ``seat`` for its plan, if it is in play."""
    s.phase = "plan"
    if s.thieves[seat].standing == IN_PLAY:
        s.stack.append(("plan_card", seat))


def card_options(s: State, seat: int) -> list[Action]:
    """Every legal thief card with its choices for thief ``seat`` (6.2, 6.3)."""
    t = s.thieves[seat]
    here = t.hex
    blocked = guard_hexes(s)
    board = s.board
    code = hex_code
    options: list[Action] = []
    steps = thief_steps(s, t, here, blocked)
    for c in sorted(set(t.hand)):
        card = THIEF_CARDS[c]
        if card.kind == "move":
            ways = [(f, there) for f, there, _ in steps if f in card.directions]
            for f, there in sorted(ways, key=lambda w: card.directions.index(w[0])):
                options.append(act(verbs.ESCAPE, c, f) if there == OFF_MAP
                               else act(verbs.MOVE, c, f, code(board, there)))
            if not ways:
                options.append(act(verbs.STAY, c))
        elif card.kind == "run":
            if t.treasure == HAMMER:
                continue
            for f, there, stops in steps:
                if there == OFF_MAP:
                    options.append(act(verbs.ESCAPE, c, f))
                    continue
                options.append(act(verbs.RUN, f, NONE, code(board, there)))
                if stops:
                    continue
                for f2, there2, _ in thief_steps(s, t, there, blocked):
                    options.append(act(verbs.ESCAPE, c, f, f2) if there2 == OFF_MAP
                                   else act(verbs.RUN, f, f2, code(board, there2)))
        elif card.kind == "hide":
            options.append(act(verbs.HIDE))
        elif card.kind == "rest":
            options.append(act(verbs.REST))
        else:
            options += pocket_options(s, here)
    return options


def pocket_options(s: State, here: int) -> list[Action]:
    """Pick Pocket on each guard on a neighbouring hex (across an open side) that is not
    undead, for whichever of its key and coins it still has (6.2, ruling 48)."""
    near = set(s.board.step[here])
    options = []
    for i, g in enumerate(s.guards):
        if g.placed and not g.undead and g.hex in near:
            at = hex_code(s.board, g.hex)
            if g.key:
                options.append(act(verbs.PICK_POCKET, i, at, KEY))
            if g.coins > 0:
                options.append(act(verbs.PICK_POCKET, i, at, COINS))
    return options


def plan_from_card(s: State, seat: int, a: Action) -> Plan:
    """The plan a thief card action starts."""
    board = s.board
    here = s.thieves[seat].hex
    if a.verb == verbs.MOVE:
        return Plan(a.x, first=board_hex(board, a.z))
    if a.verb == verbs.STAY:
        return Plan(a.x)
    if a.verb == verbs.RUN:
        there = board_hex(board, a.z)
        if a.y < 0:
            return Plan(RUN, first=there)
        return Plan(RUN, first=board.step[here][a.x], second=there)
    if a.verb == verbs.ESCAPE:
        if a.z < 0:
            return Plan(a.x, escape=1)
        return Plan(a.x, first=board.step[here][a.y], escape=1)
    if a.verb == verbs.HIDE:
        return Plan(HIDE)
    if a.verb == verbs.REST:
        return Plan(REST)
    assert a.verb == verbs.PICK_POCKET
    return Plan(PICK_POCKET, pocket=a.x, loot=a.z)


@lru_cache(maxsize=4096)
def arrow_hexes(board: Board, here: int, reach: int) -> tuple[int, ...]:
    """The floor hexes within ``reach`` hexes of ``here`` with an uninterrupted centre-to-centre
    sight line from it (6.5: Noise and Water Arrows), ``here`` itself included."""
    centre = board.hexes[here]
    view = sight(board)
    return tuple(i for i, h in enumerate(board.hexes)
                 if distance(centre, h) <= reach and (i == here or view.clear_line(here, i)))


def guard_card_options(s: State, seat: int) -> list[Action]:
    """No Guard card, or each Guard card thief ``seat`` holds with each legal target from the
    hex its planned movement ends on (6.5); none when it escapes."""
    t = s.thieves[seat]
    plan = plan_of(t)
    options = [act(verbs.NO_GUARD_CARD)]
    if plan.escape:
        return options
    board = s.board
    end = plan.end(t.hex)
    where = board.hexes[end]
    for c in sorted(set(t.guard_cards)):
        card = GUARD_CARDS[c]
        if card.target == "guard":
            for i, g in enumerate(s.guards):
                if card.accepts(g) and distance(where, board.hexes[g.hex]) <= card.range:
                    options.append(act(verbs.GUARD_CARD, c, i, hex_code(board, g.hex)))
        elif card.target == "run":
            if plan.card == RUN:
                options.append(act(verbs.GUARD_CARD, c))
        elif card.target == "hex":
            options += [act(verbs.GUARD_CARD, c, NONE, hex_code(board, h))
                        for h in arrow_hexes(board, end, card.range)]
        elif card.target == "torch":
            torches = set(board.torches) - s.extinguished
            options += [act(verbs.GUARD_CARD, c, NONE, hex_code(board, h))
                        for h in arrow_hexes(board, end, card.range) if h in torches]
    return options


def can_take(s: State, seat: int) -> bool:
    """Whether thief ``seat``'s plan may take a treasure: its movement ends on the crown, it
    carries none, and tokens lie there (6.6, ruling 51)."""
    t = s.thieves[seat]
    plan = plan_of(t)
    return (not plan.escape and plan.end(t.hex) == s.board.crown and t.treasure == NONE
            and bool(s.treasures))


def commit(s: State, seat: int) -> None:
    """The plan of thief ``seat`` is complete: secret until the reveal, from the other seats
    too, even in co-op (issue 12: choices stay out of other views until revealed)."""
    s.say(f"{thief_name(seat)} plans: {describe_plan(s, seat)}.", seats=frozenset((seat,)),
          others=f"{thief_name(seat)} has made its plan.")


def describe_plan(s: State, seat: int) -> str:
    """A plan in words (for the seats that may know it)."""
    t = s.thieves[seat]
    plan = plan_of(t)
    labels = s.board.labels
    words = THIEF_CARDS[plan.card].name
    hexes = [labels[h] for h in (plan.first, plan.second) if h >= 0]
    if hexes:
        words += " to " + " and ".join(hexes)
    elif THIEF_CARDS[plan.card].kind == "move" and not plan.escape:
        words += " and stay (both ways are blocked)"
    if plan.escape:
        words += ", escaping off the map"
    if plan.pocket >= 0:
        words += f" on guard {plan.pocket + 1} for its {LOOT[plan.loot]}"
    if plan.guard_card >= 0:
        words += ", with " + guard_card_words(s, plan)
    if plan.take:
        words += ", taking a treasure"
    return words


def guard_card_words(s: State, plan: Plan) -> str:
    """``Art on guard 2 at E4``, ``Noise Arrow at C5``, ``Moss Arrow``."""
    card = GUARD_CARDS[plan.guard_card]
    if card.target == "guard":
        return f"{card.name} on guard {plan.target + 1} at " \
               f"{s.board.labels[s.guards[plan.target].hex]}"
    if card.target in ("hex", "torch"):
        return f"{card.name} at {s.board.labels[plan.target]}"
    return card.name


class PlanCardHandler(Handler[State]):
    """``("plan_card", seat)``: the thief card and its choices (7.2)."""

    kind = "plan_card"

    def legal(self, s: State, f: Frame) -> list[Any]:
        return card_options(s, f[1])

    def apply(self, s: State, f: Frame, a: Any) -> None:
        seat = f[1]
        s.stack.pop()
        s.thieves[seat].plan = plan_from_card(s, seat, a)
        s.stack.append(("plan_guard", seat))

    def describe(self, s: State, f: Frame) -> str:
        return "plan your thief card"


handler(PlanCardHandler)


class PlanGuardHandler(Handler[State]):
    """``("plan_guard", seat)``: an optional Guard card and its target (6.5, ruling 50)."""

    kind = "plan_guard"

    def legal(self, s: State, f: Frame) -> list[Any]:
        return guard_card_options(s, f[1])

    def apply(self, s: State, f: Frame, a: Any) -> None:
        seat = f[1]
        s.stack.pop()
        t = s.thieves[seat]
        if a.verb == verbs.GUARD_CARD:
            card = GUARD_CARDS[a.x]
            target = a.y if card.target == "guard" else (
                board_hex(s.board, a.z) if a.z >= 0 else NONE)
            t.plan = plan_of(t)._replace(guard_card=a.x, target=target)
        if can_take(s, seat):
            s.stack.append(("plan_treasure", seat))
        else:
            commit(s, seat)

    def describe(self, s: State, f: Frame) -> str:
        return "plan a Guard card or none"


handler(PlanGuardHandler)


class PlanTreasureHandler(Handler[State]):
    """``("plan_treasure", seat)``: take a treasure from the crown or not (ruling 51)."""

    kind = "plan_treasure"

    def legal(self, s: State, f: Frame) -> list[Any]:
        return [act(verbs.TAKE), act(verbs.LEAVE)]

    def apply(self, s: State, f: Frame, a: Any) -> None:
        seat = f[1]
        s.stack.pop()
        t = s.thieves[seat]
        if a.verb == verbs.TAKE:
            t.plan = plan_of(t)._replace(take=1)
        commit(s, seat)

    def describe(self, s: State, f: Frame) -> str:
        return "decide whether to take a treasure"


handler(PlanTreasureHandler)


# --- the reveal (7.3) ------------------------------------------------------------------------
@op("reveal")
def reveal(s: State) -> None:
    """Card names and Guard card targets become public; directions stay secret."""
    for seat, t in enumerate(s.thieves):
        if t.standing != IN_PLAY or t.plan is None:
            continue
        plan = plan_of(t)
        words = f"{thief_name(seat)} plays {THIEF_CARDS[plan.card].name}"
        if plan.guard_card >= 0:
            words += " and " + guard_card_words(s, plan)
        s.say(words + ".")


# --- public possibility sets (spec 10): what everybody may deduce of each Location Dial -------
# ``Thief.possible`` always holds the thief's hex; determinization samples hidden dials from it.
# It is narrowed by the referee's public answers too (``referee.learn_from_look``).
def narrow(possible: frozenset[int] | None, hexes: Iterable[int]) -> frozenset[int]:
    """``possible`` (None: anywhere) narrowed to the floor hexes among ``hexes``."""
    keep = frozenset(h for h in hexes if h >= 0)
    return keep if possible is None else possible & keep


def reachable(s: State, t: Thief, hexes: frozenset[int], card: int,
              blocked: frozenset[int]) -> frozenset[int]:
    """Where thief ``t`` may be after playing thief card ``card`` from any of ``hexes`` without
    escaping, by the legal plans of 6.2 and 6.3 (ruling 58): a Move's two directions (or stay
    when both are shut), a Run's one or two steps, Pick Pocket beside a guard it could rob,
    Hide and Rest in place."""
    kind = THIEF_CARDS[card].kind
    if kind in ("hide", "rest"):
        return hexes
    if kind == "pick_pocket":
        beside = {h for g in s.guards if g.placed and not g.undead and (g.key or g.coins > 0)
                  for h in s.board.step[g.hex]}
        return hexes & frozenset(beside)
    out: set[int] = set()
    if kind == "move":
        ways = THIEF_CARDS[card].directions
        for h in hexes:
            steps = [there for f, there, _ in thief_steps(s, t, h, blocked) if f in ways]
            out.update(there for there in steps if there != OFF_MAP)
            if not steps:
                out.add(h)
        return frozenset(out)
    first: dict[int, bool] = {}  # a Run: first steps (and whether Lockpicks stop there), then on
    for h in hexes:
        for _, there, stops in thief_steps(s, t, h, blocked):
            if there != OFF_MAP:
                first[there] = first.get(there, True) and stops
    out.update(first)
    for there, stops in first.items():
        if not stops:
            out.update(x for _, x, _ in thief_steps(s, t, there, blocked) if x != OFF_MAP)
    return frozenset(out)


def learn_from_reveal(s: State, t: Thief, plan: Plan, blocked: frozenset[int]) -> None:
    """Narrow ``t.possible`` by its revealed cards: where its thief card may have taken it,
    and the public target of its Guard card, in range of where it ends (6.5)."""
    if t.possible is None:
        return
    possible = reachable(s, t, t.possible, plan.card, blocked)
    if plan.guard_card >= 0:
        card = GUARD_CARDS[plan.guard_card]
        hexes = s.board.hexes
        if card.target == "guard":
            aim = hexes[s.guards[plan.target].hex]
            possible = frozenset(h for h in possible if distance(hexes[h], aim) <= card.range)
        elif card.target in ("hex", "torch"):
            aim, view = hexes[plan.target], sight(s.board)
            possible = frozenset(h for h in possible if distance(hexes[h], aim) <= card.range
                                 and (h == plan.target or view.clear_line(h, plan.target)))
    t.possible = possible


def learn_from_guards(s: State) -> None:
    """After the Guard Phase: no thief stands on the hex of a guard that is not undead (it
    cannot step there, and a guard stepping in catches it), unless the Sword fought free."""
    posts = frozenset(g.hex for g in s.guards if g.placed and not g.undead)
    for t in s.thieves:
        if t.possible is not None and t.standing == IN_PLAY and not t.sword_used:
            t.possible = t.possible - posts


# --- the Thief Phase (7.4, ruling 59) -----------------------------------------------------------
@op("thief_phase")
def thief_phase(s: State) -> None:
    """Moves, escapes, treasures, Guard cards, Pick Pockets, noises, the vault trigger; then
    the end of the game is checked."""
    s.phase = "thief"
    board = s.board
    plans: dict[int, Plan] = {seat: plan_of(t) for seat, t in enumerate(s.thieves)
                              if t.standing == IN_PLAY and t.plan is not None}
    entered_vault = False
    blocked = guard_hexes(s)
    for seat, plan in plans.items():  # what the revealed cards tell everybody (spec 10)
        learn_from_reveal(s, s.thieves[seat], plan, blocked)
    for seat, plan in plans.items():  # 1. every thief moves, at once (ruling 44)
        t = s.thieves[seat]
        play_card(t, plan.card)
        if plan.card == HIDE:
            t.hiding = True
        entered_vault = entered_vault or enters_vault(board, plan)
        end = plan.end(t.hex)
        if end != t.hex:
            tell(s, seat, f"{thief_name(seat)} moves to {board.labels[end]}.")
        t.hex = end
    for seat, plan in plans.items():  # 2. escapes (ruling 52)
        if plan.escape:
            escape(s, seat)
    noises: list[tuple[int, int, str]] = []  # (seat, hex, kind), step 6 sorts them
    for seat, plan in plans.items():  # 3. treasures (ruling 51)
        if plan.take and take_treasure(s, seat):
            s.thieves[seat].possible = frozenset((board.crown,))  # public: it took one
            noises.append((seat, board.crown, "treasure"))
    muffled: set[int] = set()
    for seat, plan in plans.items():  # 4. Guard cards, in seat order (rulings 50, 63)
        if plan.guard_card >= 0:
            s.thieves[seat].guard_cards.remove(plan.guard_card)
            if plan.guard_card == MOSS_ARROW:
                muffled.add(seat)
            elif play_guard_card(s, seat, plan) and plan.guard_card == NOISE_ARROW:
                noises.append((seat, plan.target, "arrow"))
    for seat, plan in plans.items():  # 5. Pick Pockets, in seat order (ruling 48)
        if plan.card == PICK_POCKET:
            pick_pocket(s, seat, plan)
    for seat, plan in plans.items():  # 6. noises, in seat order (ruling 32)
        if plan.card == RUN and not plan.escape and seat not in muffled:
            noises.append((seat, plan.end(NONE), "run"))
    order = {"run": 0, "arrow": 1, "treasure": 2}
    for seat, hex, kind in sorted(noises, key=lambda n: (n[0], order[n[2]])):
        if kind == "run":  # the runner's end hex is heard by everybody (spec 10)
            s.say(f"{thief_name(seat)}'s Run makes a noise at {board.labels[hex]}.")
            s.thieves[seat].possible = frozenset((hex,))
        guards.noise(s, hex, kind)
    if entered_vault and not s.vault_triggered:  # 7. the vault trigger (ruling 31)
        s.vault_triggered = True
        if board.vault_guard:
            s.say(f"A thief has stepped into the {board.tiles[board.vault_tile].name}: "
                  "the vault guard will appear.")
    for t in s.thieves:
        t.plan = None
    check_end(s)


def play_card(t: Thief, card: int) -> None:
    """Thief card ``card`` leaves the hand for the face-up discard; Rest instead takes the
    discard back and stays in hand (ruling 45)."""
    if card == REST:
        t.hand += t.discard
        t.discard.clear()
        t.hand.sort()
        return
    t.hand.remove(card)
    t.discard.append(card)


def escape(s: State, seat: int) -> None:
    """Thief ``seat`` steps off the map from its Exit tile (6.7, ruling 52)."""
    t = s.thieves[seat]
    tile = s.board.tiles[t.exit_tile].name
    t.standing = ESCAPED
    t.hex = NONE
    carried = f"the {TREASURES[t.treasure].name}" if t.treasure != NONE else "nothing"
    s.say(f"{thief_name(seat)} escapes from the {tile} carrying {carried}.")


def take_treasure(s: State, seat: int) -> bool:
    """Thief ``seat``, on the crown, takes and reveals the top token (6.6, ruling 51); the
    Fake is discarded. False if none is left or it cannot take one now."""
    t = s.thieves[seat]
    if t.standing != IN_PLAY or t.hex != s.board.crown or t.treasure != NONE:
        return False
    if not s.treasures:
        tell(s, seat, f"{thief_name(seat)} finds the crown bare.")
        return False
    token = s.treasures.pop()
    name = TREASURES[token].name
    if token == FAKE:
        s.say(f"{thief_name(seat)} takes a treasure from the crown: the {name}! "
              "It is worthless and discarded.")
    else:
        t.treasure = token
        s.say(f"{thief_name(seat)} takes a treasure from the crown: the {name}.")
    return True


def play_guard_card(s: State, seat: int, plan: Plan) -> bool:
    """Resolve thief ``seat``'s Guard card (spent either way); True if it had its effect. A
    target no longer valid (or a thief no longer in play) means no effect (ruling 63). A Noise
    Arrow's noise is made with the other noises (step 6)."""
    t = s.thieves[seat]
    card = GUARD_CARDS[plan.guard_card]
    board = s.board
    done = False
    if t.standing == IN_PLAY:
        if card.target == "guard":
            g = s.guards[plan.target]
            if card.accepts(g) and distance(board.hexes[t.hex],
                                            board.hexes[g.hex]) <= card.range:
                effect = {"Art": guards.distract, "Hip Flask": guards.distract,
                          "Diligent": guards.diligent,
                          "Adjust Rigging": guards.adjust_rigging}[card.name]
                s.say(f"{thief_name(seat)}'s {card.name} works on {guard_name(s, g)}.")
                done = effect(s, g)
        elif plan.guard_card == WATER_ARROW:
            if plan.target not in s.extinguished:
                s.extinguished = s.extinguished | {plan.target}
                s.say(f"{thief_name(seat)}'s Water Arrow puts out the torch at "
                      f"{board.labels[plan.target]}.")
                done = True
        else:
            done = True
    if not done:
        s.say(f"{thief_name(seat)}'s {card.name} has no effect.")
    return done


def pick_pocket(s: State, seat: int, plan: Plan) -> None:
    """Thief ``seat``'s Pick Pocket (6.2, ruling 48): if the guard is still beside it, not
    undead and still has the loot, the thief takes it when the guard cannot see its hex (or is
    Distracted); otherwise the guard spots it. No effect if the target is gone (ruling 63)."""
    t = s.thieves[seat]
    g = s.guards[plan.pocket]
    has = g.key if plan.loot == KEY else g.coins > 0
    if t.standing != IN_PLAY or not g.placed or g.undead or not has \
            or g.hex not in s.board.step[t.hex]:
        s.say(f"{thief_name(seat)}'s Pick Pocket has no effect.")
        return
    if g.status != DISTRACTED and t.hex in sight(s.board).seen(g.hex, g.facing, g.status,
                                                              s.params.bored_reach):
        s.say(f"{thief_name(seat)} fumbles at the pocket of {guard_name(s, g)}.")
        guards.spot_pick_pocket(s, g, seat)
        return
    t.possible = narrow(t.possible, s.board.step[g.hex])  # public: it stood beside g
    if plan.loot == KEY:
        g.key = False
        t.keys |= 1 << g.tile
        s.say(f"{thief_name(seat)} picks the key of {guard_name(s, g)}.")
    else:
        t.coins += g.coins
        s.say(f"{thief_name(seat)} picks {g.coins} coins from {guard_name(s, g)}.")
        g.coins = 0


@op("guard_phase")
def guard_phase(s: State) -> None:
    """Section 5, by the guards' module; then the end of the game is checked."""
    s.phase = "guard"
    guards.guard_phase(s)
    learn_from_guards(s)
    check_end(s)


@op("end_round")
def end_round(s: State) -> None:
    """7.6: at the end of the dawn round every thief still on the map is caught (ruling 56)."""
    if s.round < dawn(s):
        return
    for seat, t in enumerate(s.thieves):
        if t.standing == IN_PLAY:
            t.standing = CAUGHT
            t.hex = NONE
            s.say(f"Dawn breaks: {thief_name(seat)} is caught in the keep.")
    check_end(s, dawn=True)


def check_end(s: State, dawn: bool = False) -> None:
    """End the game if section 9 says so."""
    if s.result is not None:
        return
    result = outcome(s, dawn)
    if result is not None:
        s.result = result
        s.phase = "over"
        s.say(f"The game is over: {result.reason}.")


def seat_name(seat: int) -> str:
    """A seat's name, for the error message of an illegal action."""
    return SEATS[seat]


def legal_actions(s: State) -> list[Action]:
    """The legal actions of the seat to move (the state's ``legal_actions``)."""
    return DECISIONS.legal_actions(s)


def apply_action(s: State, action: Any) -> None:
    """Apply a legal action and advance (the state's ``apply``). Module-level functions, not
    lambdas, so that a state whose compiled class keeps its hooks per instance pickles."""
    DECISIONS.apply(s, action, Action, seat_name)


STATE_HOOKS.legal_actions = legal_actions
STATE_HOOKS.apply_action = apply_action
