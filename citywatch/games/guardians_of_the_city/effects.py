"""The one interpreter of the effect language (``effect_language`` in the card set's JSON).

Every card's behaviour comes from its ops; no card has code of its own. An op is resolved by
an automatic step (``action_op`` for an Action card's ops, ``crisis_op`` for a Crisis card's
and a Subversive's ``each_turn`` ops), and every choice an op asks for becomes a decision frame
on the stack, decided by the player the conventions name (the acting player for Action ops;
for Crisis ops each affected player for their own Citizen Groups and hand, in turn order from
the active player, and the active player for Terrorist Cells: ruling 12).

Where each op of the language is interpreted (checked at import against the JSON):

- ``reduce_cell``, ``raise_support``, ``shield``, ``if_effort``, ``remove_subversive``,
  ``score_this_card``: Action ops, by ``action_op``.
- ``lose_support``, ``discard_from_hand``, ``mill_actions``, ``raise_cell``,
  ``if_any_player``, ``activate_subversive``: Crisis ops, by ``crisis_op``.
- ``modify_next_action``, ``lower_requirement``, ``extra_groups``: read while the paired card
  is checked and resolved (:func:`can_pair`, :func:`bonus`, :func:`extra_groups`).
- ``return_from_discard``: after the paired card is discarded (frame ``return``).
- ``protect_raised_groups``, ``freeze_reduced_cells``, ``boost_effort_vs_crisis``: the lasting
  entry made when the play settles (``settle_play``), read by ``lose_support``, ``raise_cell``
  and the ``who`` selectors.
- ``limit_actions``, ``weaken_reductions``: continuous, read by :func:`action_limit` and
  :func:`weakening` while their Subversive is active.

Frames: ``cells`` (seat, purpose, n, amount, candidates), ``groups`` (seat, purpose,
selector, n, amount), ``lose_next`` (seat, groups, amount), ``lower`` (seat), ``discard``
(seat, count), ``subversive`` (seat), ``return`` (seat, count, excluded kinds).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guardians_of_the_city.actions import (
    DISCARD,
    LOSE_GROUPS,
    LOWER,
    NEXT_LOSS,
    RAISE_CELLS,
    RAISE_GROUPS,
    REDUCE_CELLS,
    REMOVE_SUBVERSIVE,
    SEATS,
    TAKE_BACK,
    TAKE_NOTHING,
    Action,
    act,
    and_list,
)
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    ACTION_KINDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    DATA,
    GROUPS,
    PILLARS,
    ActionCard,
    Op,
    Who,
)
from citywatch.games.guardians_of_the_city.frames import handler, op, push, then
from citywatch.games.guardians_of_the_city.state import (
    CELL_MAX,
    NONE,
    SUPPORT_MAX,
    GotcState,
    Lasting,
    Play,
    play_with,
)

State = GotcState
EFFECT: Final = 0
EACH_TURN: Final = 1
"""Which op list of a Crisis card a ``crisis_op`` step reads."""


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _mask(indexes: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


def seat_order(s: State) -> list[int]:
    """Every seat in turn order, starting with the active player (ruling 12)."""
    return [(s.current + k) % s.n for k in range(s.n)]


# --- who ----------------------------------------------------------------------------------
def affected(s: State, who: Who) -> list[int]:
    """The seats ``who`` selects now, in turn order from the active player, by effective effort
    (rulebook section 7 Step 3: all tied players for lowest and highest; ruling 11)."""
    order = seat_order(s)
    if who.form == "all":
        return order
    values = [s.effective(p, who.pillar) for p in range(s.n)]
    if who.form == "at_most":
        return [p for p in order if values[p] <= who.value]
    if who.form == "at_least":
        return [p for p in order if values[p] >= who.value]
    best = min(values) if who.form == "lowest" else max(values)
    return [p for p in order if values[p] == best]


# --- continuous limits of active Subversives (ruling 14) -----------------------------------
def _continuous(s: State, name: str, seat: int) -> list[Op]:
    found = []
    for card in s.subversive:
        if card == NONE:
            continue
        for o in CRISIS_CARDS[card].while_active:
            if o.name == name and o.who is not None and seat in affected(s, o.who):
                found.append(o)
    return found


def action_limit(s: State, seat: int) -> int:
    """How many non-Galvanised Action cards the seat may play in Step 2: 2, or the smallest
    ``limit_actions`` of an active Subversive that selects it."""
    limit = CONSTANTS.actions_per_turn
    for o in _continuous(s, "limit_actions", seat):
        limit = min(limit, o.maximum)
    return limit


def weakened(amount: int, cut: int, floor: int) -> int:
    """``amount`` lowered by ``cut`` but not below ``floor``; an amount already below the floor
    stays as it is (citywatch ruling 12)."""
    return max(min(amount, floor), amount - cut)


def weakening(s: State, seat: int) -> tuple[int, int]:
    """(amount, floor) of the largest ``weaken_reductions`` that selects the seat, or (0, 0)."""
    best = (0, 0)
    for o in _continuous(s, "weaken_reductions", seat):
        if o.amount > best[0]:
            best = (o.amount, o.floor)
    return best


# --- which cards may be played (ruling 7, 8, 9) --------------------------------------------
def lowered_by(galvanised: int) -> int:
    """How much a Galvanised People card lowers its paired card's requirement."""
    if galvanised == NONE:
        return 0
    return sum(o.amount for o in ACTION_CARDS[galvanised].effect if o.name == "lower_requirement")


def can_play(s: State, seat: int, card: int, lower: int = 0) -> bool:
    """True if ``card`` (not a Galvanised People card) may be played now: the printed effort
    meets its requirement (lowered by ``lower``, never below 1), and a card that removes a
    Subversive needs one to be active (ruling 9)."""
    c = ACTION_CARDS[card]
    if c.is_galvanised:
        return False
    if s.effort[seat][c.pillar] < max(1, c.min_effort - lower):
        return False
    if any(o.name == "remove_subversive" for o in c.effect):
        return any(x != NONE for x in s.subversive)
    return True


def pairs_with(galvanised: ActionCard, card: ActionCard) -> bool:
    """The pairing condition ``pair_with`` of a Galvanised People card (ruling 8)."""
    if card.is_galvanised:
        return False
    tops = card.effect
    if galvanised.needs_op and not any(o.name in galvanised.needs_op for o in tops):
        return False
    groups = galvanised.needs_group_in
    return groups is None or any(o.name == "raise_support" and o.group in groups for o in tops)


def can_pair(s: State, seat: int, galvanised: int, card: int) -> bool:
    """True if ``galvanised`` may be played with ``card`` now: its own requirement, its
    pairing condition and the paired card's (lowered) requirement (ruling 8)."""
    g = ACTION_CARDS[galvanised]
    if not g.is_galvanised or s.effort[seat][g.pillar] < g.min_effort:
        return False
    return pairs_with(g, ACTION_CARDS[card]) and can_play(s, seat, card, lowered_by(galvanised))


def playable(s: State, seat: int) -> list[tuple[int, int]]:
    """Every (card, Galvanised People card or -1) the seat may play now, each once."""
    hand = sorted(set(s.hand[seat]))
    galvs = [g for g in hand if ACTION_CARDS[g].is_galvanised]
    found = []
    for card in hand:
        if ACTION_CARDS[card].is_galvanised:
            continue
        if can_play(s, seat, card):
            found.append((card, NONE))
        for g in galvs:
            if can_pair(s, seat, g, card):
                found.append((card, g))
    return found


# --- resolving an Action card --------------------------------------------------------------
def _action_op_at(card: int, path: tuple[int, ...]) -> Op:
    ops = ACTION_CARDS[card].effect
    found = ops[path[0]]
    for i in path[1:]:
        found = found.then[i]
    return found


def bonus(s: State, name: str, top: bool) -> int:
    """What the paired Galvanised People card adds to a top-level op ``name``
    (``modify_next_action``)."""
    play = s.play
    if not top or play is None or play.galvanised == NONE:
        return 0
    return sum(o.amount for o in ACTION_CARDS[play.galvanised].effect
               if o.name == "modify_next_action" and name in o.ops)


def extra_groups(s: State, top: bool) -> int:
    """How many more groups a top-level raise_support reaches (``extra_groups``)."""
    play = s.play
    if not top or play is None or play.galvanised == NONE:
        return 0
    return sum(o.count for o in ACTION_CARDS[play.galvanised].effect if o.name == "extra_groups")


def start_action(s: State, seat: int, card: int, galvanised: int) -> None:
    """Play ``card`` (with ``galvanised``, or -1) from the seat's hand: its ops resolve in
    order, it goes to the discard pile (or the Score pile), the Galvanised card's after-effects
    follow, then the end conditions are checked (rulings 7, 8, 18)."""
    s.take_from_hand(seat, card)
    if galvanised != NONE:
        s.take_from_hand(seat, galvanised)
    s.play = Play(seat, card, galvanised)
    with_text = f" with {ACTION_CARDS[galvanised].name}" if galvanised != NONE else ""
    s.say(f"{SEATS[seat]} plays {ACTION_CARDS[card].name}{with_text}.")
    steps = [("action_op", (i,)) for i in range(len(ACTION_CARDS[card].effect))]
    then(s, *steps, ("finish_action",), ("check_end",))


@op("action_op")
def _action_op(s: State, path: tuple[int, ...]) -> None:
    play = s.play
    assert play is not None, "an Action op without a card in play"
    o = _action_op_at(play.card, path)
    ACTION_OPS[o.name](s, play.seat, o, path)


def _reduce_cell(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    amount = o.amount + bonus(s, o.name, len(path) == 1)
    cut, floor = weakening(s, seat)
    select_cells(s, seat, "reduce", o.target, o.cells, weakened(amount, cut, floor))


def _raise_support(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    top = len(path) == 1
    amount = o.amount + bonus(s, o.name, top)
    n = o.groups
    if o.group in ("choose", "lowest", "highest"):
        n += extra_groups(s, top)
    select_groups(s, seat, "raise", o.group, n, amount)


def _shield(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    amount = o.amount + bonus(s, o.name, len(path) == 1)
    s.shield[seat] += amount
    s.say(f"{SEATS[seat]} gains a Shield of {amount} (now {s.shield[seat]}).")


def _if_effort(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    if s.effort[seat][o.pillar] >= o.at_least:
        then(s, *[("action_op", (*path, j)) for j in range(len(o.then))])


def _remove_subversive(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    owners = [q for q in range(s.n) if s.subversive[q] != NONE]
    if len(owners) == 1:
        remove_subversive(s, owners[0])
    elif owners:
        push(s, "subversive", seat)


def remove_subversive(s: State, owner: int) -> None:
    """Remove the Subversive in front of ``owner`` to that player's Crisis discard pile
    (rulebook section 8, ruling 9)."""
    card = s.subversive[owner]
    s.subversive[owner] = NONE
    s.crisis_discard[owner].append(card)
    s.say(f"{CRISIS_CARDS[card].name} in front of {SEATS[owner]} is removed.")


def _score_this_card(s: State, seat: int, o: Op, path: tuple[int, ...]) -> None:
    play = s.play
    assert play is not None
    s.play = play_with(play, play.raised, play.reduced, True, True)
    s.score_pile[seat].append(play.card)
    s.say(f"{ACTION_CARDS[play.card].name} goes to {SEATS[seat]}'s Score ({o.points} points).")


ACTION_OPS: Final[dict[str, Callable[[State, int, Op, tuple[int, ...]], None]]] = {
    "reduce_cell": _reduce_cell,
    "raise_support": _raise_support,
    "shield": _shield,
    "if_effort": _if_effort,
    "remove_subversive": _remove_subversive,
    "score_this_card": _score_this_card,
}


@op("finish_action")
def _finish_action(s: State) -> None:
    """The paired card goes to the discard pile (unless scored); then the Galvanised card's
    after-effects (``return_from_discard``) and the play settles."""
    play = s.play
    assert play is not None
    if not play.scored:
        s.discard_action(play.seat, play.card)
    s.play = play_with(play, play.raised, play.reduced, play.scored, True)
    after = [] if play.galvanised == NONE else [
        ("return_for", play.seat, o.count, _mask([ACTION_KINDS.index(k) for k in o.exclude_kinds]))
        for o in ACTION_CARDS[play.galvanised].effect if o.name == "return_from_discard"]
    if after:
        then(s, *after, ("settle_play",))
    else:
        _settle_play(s)


def returnable(s: State, seat: int, excluded: int) -> list[int]:
    """The distinct cards of the seat's discard pile whose kind is not ``excluded``."""
    return sorted({c for c in s.action_discard[seat]
                   if not excluded >> ACTION_KINDS.index(ACTION_CARDS[c].kind) & 1})


@op("return_for")
def _return_for(s: State, seat: int, count: int, excluded: int) -> None:
    if returnable(s, seat, excluded):
        push(s, "return", seat, count, excluded)


@op("settle_play")
def _settle_play(s: State) -> None:
    """A lasting Galvanised card stays in the play area with its lasting effects; any other
    goes to the discard pile (rulebook section 8)."""
    play = s.play
    assert play is not None
    s.play = None
    g = play.galvanised
    if g == NONE:
        return
    card = ACTION_CARDS[g]
    if not card.lasting:
        s.discard_action(play.seat, g)
        return
    entry = Lasting(g, play.card)
    for o in card.effect:
        if o.name == "protect_raised_groups":
            entry = entry._replace(protect=entry.protect | play.raised)
        elif o.name == "freeze_reduced_cells":
            entry = entry._replace(frozen=entry.frozen | play.reduced)
        elif o.name == "boost_effort_vs_crisis":
            pillar = ACTION_CARDS[play.card].pillar if o.pillar < 0 else o.pillar
            entry = entry._replace(boost_pillar=pillar, boost=o.amount)
    s.lasting[play.seat].append(entry)
    s.say(f"{card.name} stays in front of {SEATS[play.seat]} until their next turn.")


# --- Terrorist Cells -----------------------------------------------------------------------
def select_cells(s: State, chooser: int, purpose: str, target: str, n: int,
                 amount: int) -> None:
    """Apply ``purpose`` ("reduce" or "raise") by ``amount`` to the cells ``target`` selects
    among the surviving ones; ``chooser`` picks when there is a choice (a ``cells`` frame)."""
    alive = s.surviving_cells()
    if not alive:
        return
    if target == "each":
        apply_cells(s, chooser, purpose, _mask(alive), amount)
        return
    if target in ("weakest", "strongest"):
        best = (min if target == "weakest" else max)(s.cells[i] for i in alive)
        alive = [i for i in alive if s.cells[i] == best]
        n = 1
    n = min(n, len(alive))
    if n == len(alive):
        apply_cells(s, chooser, purpose, _mask(alive), amount)
    else:
        push(s, "cells", chooser, purpose, n, amount, _mask(alive))


def raised_text(before: int, after: int, most: int, verb: str) -> str:
    """What a raise did, in words: "rises to 3", "rises to 4, the most", or "stays at 4,
    the most" when the value already stood at ``most`` (``verb``: "rises", "is raised")."""
    if after == before:
        return f"stays at {after}, the most"
    return f"{verb} to {after}{', the most' if after == most else ''}"


def apply_cells(s: State, seat: int, purpose: str, mask: int, amount: int) -> None:
    """Reduce (crediting ``seat``: rulebook section 7 Step 2, ruling 1) or raise the cells of
    ``mask`` by ``amount``, kept within 0-6; eliminated cells are never raised and frozen ones
    are not (rulings 1, 15)."""
    frozen = s.frozen_cells()
    for i in _bits(mask):
        before = s.cells[i]
        if purpose == "reduce":
            removed = min(amount, before)
            s.cells[i] = before - removed
            s.ct[seat] += removed
            play = s.play
            if play is not None:
                s.play = play_with(play, play.raised, play.reduced | 1 << i, play.scored,
                                   play.placed)
            end = " and is eliminated" if before and not s.cells[i] else ""
            s.say(f"{CELLS[i]} is reduced to {s.cells[i]}{end}: {SEATS[seat]} scores "
                  f"{removed} Counter-Terrorism point{'s' if removed != 1 else ''}.")
        elif before == 0:
            continue
        elif frozen >> i & 1:
            s.say(f"{CELLS[i]} is frozen by Vigilance and is not raised.")
        else:
            s.cells[i] = min(CELL_MAX, before + amount)
            s.say(f"{CELLS[i]} {raised_text(before, s.cells[i], CELL_MAX, 'is raised')}.")


class CellsHandler(Handler[State]):
    """Frame ``("cells", seat, purpose, n, amount, candidates)``: pick ``n`` cells."""

    kind = "cells"

    def legal(self, s: State, f: Frame) -> list[Action]:
        verb = REDUCE_CELLS if f[2] == "reduce" else RAISE_CELLS
        n: int = f[3]  # typed: an untyped count picks combinations' pairs-only overload
        return [act(verb, _mask(c)) for c in combinations(_bits(f[5]), n)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        apply_cells(s, f[1], f[2], a.x, f[4])

    def describe(self, s: State, f: Frame) -> str:
        which = "Terrorist Cell" if f[3] == 1 else f"{f[3]} Terrorist Cells"
        return f"choose the {which} to {f[2]} by {f[4]}"


handler(CellsHandler)


# --- Citizen Groups ------------------------------------------------------------------------
def group_choices(s: State, seat: int, selector: str, n: int) -> list[int]:
    """The sets (bitmasks) of the seat's surviving groups that ``selector`` may mean with
    ``n`` groups: any ``n`` for choose; the ``n`` lowest or highest, ties broken by the owner."""
    support = s.support[seat]
    alive = [g for g in range(len(GROUPS)) if support[g] > 0]
    n = min(n, len(alive))
    if selector == "choose":
        return [_mask(c) for c in combinations(alive, n)]
    ranked = sorted(support[g] for g in alive)
    if selector == "highest":
        ranked.reverse()
    if n == 0:
        return [0]
    edge = ranked[n - 1]
    if selector == "lowest":
        sure = [g for g in alive if support[g] < edge]
    else:
        sure = [g for g in alive if support[g] > edge]
    tied = [g for g in alive if support[g] == edge]
    return [_mask(sure) | _mask(c) for c in combinations(tied, n - len(sure))]


def select_groups(s: State, seat: int, purpose: str, selector: str, n: int,
                  amount: int) -> None:
    """Apply ``purpose`` ("raise" or "lose") by ``amount`` to the seat's surviving groups that
    ``selector`` names; the seat chooses when there is a choice (a ``groups`` frame)."""
    support = s.support[seat]
    if selector == "each":
        mask = _mask([g for g in range(len(GROUPS)) if support[g] > 0])
    elif selector in GROUPS:
        g = GROUPS.index(selector)
        mask = 1 << g if support[g] > 0 else 0
    else:
        options = group_choices(s, seat, selector, n)
        if len(options) > 1:
            push(s, "groups", seat, purpose, selector, n, amount)
            return
        mask = options[0]
    apply_groups(s, seat, purpose, mask, amount)


def apply_groups(s: State, seat: int, purpose: str, mask: int, amount: int) -> None:
    """Raise the groups of ``mask`` (capped at 4, remembered for Loyalty) or make them lose
    support."""
    if purpose == "lose":
        lose_in(s, seat, mask, amount)
        return
    play = s.play
    if play is not None:
        s.play = play_with(play, play.raised | mask, play.reduced, play.scored,
                               play.placed)
    support = s.support[seat]
    for g in _bits(mask):
        before = support[g]
        support[g] = min(SUPPORT_MAX, before + amount)
        s.say(f"{SEATS[seat]}'s {GROUPS[g]} support "
              f"{raised_text(before, support[g], SUPPORT_MAX, 'rises')}.")


class GroupsHandler(Handler[State]):
    """Frame ``("groups", seat, purpose, selector, n, amount)``: pick the groups."""

    kind = "groups"

    def legal(self, s: State, f: Frame) -> list[Action]:
        verb = RAISE_GROUPS if f[2] == "raise" else LOSE_GROUPS
        return [act(verb, m) for m in group_choices(s, f[1], f[3], f[4]) if m]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        apply_groups(s, f[1], f[2], a.x, f[5])

    def describe(self, s: State, f: Frame) -> str:
        which = "Citizen Group" if f[4] == 1 else f"{f[4]} Citizen Groups"
        if f[2] == "raise":
            return f"choose the {which} to raise by {f[5]}"
        return f"choose the {which} to lose {f[5]} support"


handler(GroupsHandler)


def _order_matters(s: State, seat: int, mask: int, amount: int) -> bool:
    shield = s.shield[seat]
    exposed = [g for g in _bits(mask & ~s.protected_groups(seat)) if s.support[seat][g] > 0]
    return shield > 0 and len(exposed) > 1 and shield < amount * len(exposed)


def lose_in(s: State, seat: int, mask: int, amount: int) -> None:
    """Each group of ``mask`` loses ``amount``, group after group; when the Shield would cover
    only some of them, the owner says which group takes its loss next (a ``lose_next``
    frame)."""
    while mask:
        if _order_matters(s, seat, mask, amount):
            push(s, "lose_next", seat, mask, amount)
            return
        g = _bits(mask)[0]
        mask &= ~(1 << g)
        lose_one(s, seat, g, amount)


def lose_one(s: State, seat: int, g: int, amount: int) -> None:
    """One group loses ``amount`` support one point at a time: Loyalty ignores the point, else
    the Shield takes it, else support drops; at 0 the group leaves and its owner lowers a
    pillar (the ``lower`` frame) while groups survive (rulings 5, 15; ``lose_support``)."""
    support = s.support[seat]
    protected = s.protected_groups(seat) >> g & 1
    for _ in range(amount):
        if support[g] == 0:
            return
        if protected:
            s.say(f"Loyalty keeps {SEATS[seat]}'s {GROUPS[g]} from losing support.")
            continue
        if s.shield[seat] > 0:
            s.shield[seat] -= 1
            s.say(f"{SEATS[seat]}'s Shield takes the loss to {GROUPS[g]} "
                  f"({s.shield[seat]} left).")
            continue
        support[g] -= 1
        if support[g]:
            s.say(f"{SEATS[seat]}'s {GROUPS[g]} support falls to {support[g]}.")
            continue
        s.say(f"{SEATS[seat]}'s {GROUPS[g]} leave the country.")
        if s.surviving(seat) and any(e > 1 for e in s.effort[seat]):
            push(s, "lower", seat)


class LoseNextHandler(Handler[State]):
    """Frame ``("lose_next", seat, groups, amount)``: which group takes its loss next."""

    kind = "lose_next"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(NEXT_LOSS, g) for g in _bits(f[2])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        lose_one(s, f[1], a.x, f[3])
        lose_in(s, f[1], f[2] & ~(1 << a.x), f[3])

    def describe(self, s: State, f: Frame) -> str:
        return f"choose which Citizen Group takes its loss next (Shield {s.shield[f[1]]})"


handler(LoseNextHandler)


class LowerHandler(Handler[State]):
    """Frame ``("lower", seat)``: a Citizen Group has left, so the owner lowers one pillar by
    1 at once, never below 1 (ruling 5)."""

    kind = "lower"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(LOWER, p) for p in range(len(PILLARS)) if s.effort[f[1]][p] > 1]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.effort[f[1]][a.x] -= 1
        s.say(f"{SEATS[f[1]]} lowers {PILLARS[a.x]} effort to {s.effort[f[1]][a.x]}.")

    def describe(self, s: State, f: Frame) -> str:
        return "lower one pillar's National Effort by 1 (a Citizen Group has left)"


handler(LowerHandler)


# --- Crisis cards --------------------------------------------------------------------------
def _crisis_op_at(card: int, which: int, path: tuple[int, ...]) -> Op:
    c = CRISIS_CARDS[card]
    found = (c.effect if which == EFFECT else c.each_turn)[path[0]]
    for i in path[1:]:
        found = found.then[i]
    return found


def start_crisis(s: State, card: int) -> None:
    """Reveal ``card`` from the active player's Crisis deck and resolve it fully, then check
    the end conditions (rulebook section 7 Step 3; rulings 10, 18)."""
    s.crisis = card
    c = CRISIS_CARDS[card]
    s.say(f"{SEATS[s.current]} reveals {c.name}: {c.text}")
    steps = [("crisis_op", card, EFFECT, (i,)) for i in range(len(c.effect))]
    then(s, *steps, ("finish_crisis",), ("check_end",))


def start_trigger(s: State, owner: int) -> None:
    """Resolve the ``each_turn`` ops of the Subversive in front of ``owner`` once, then check
    the end conditions (ruling 14)."""
    card = s.subversive[owner]
    if card == NONE or not CRISIS_CARDS[card].each_turn:
        return
    s.say(f"{CRISIS_CARDS[card].name} in front of {SEATS[owner]} strikes.")
    steps = [("crisis_op", card, EACH_TURN, (i,))
             for i in range(len(CRISIS_CARDS[card].each_turn))]
    then(s, *steps, ("check_end",))


@op("crisis_op")
def _crisis_op(s: State, card: int, which: int, path: tuple[int, ...]) -> None:
    o = _crisis_op_at(card, which, path)
    CRISIS_OPS[o.name](s, o, card, which, path)


@op("finish_crisis")
def _finish_crisis(s: State) -> None:
    """A resolved Crisis card goes to the active player's Crisis discard pile."""
    if s.crisis != NONE:
        s.crisis_discard[s.current].append(s.crisis)
        s.crisis = NONE


def _who(o: Op) -> Who:
    assert o.who is not None
    return o.who


def _lose_support(s: State, o: Op, card: int, which: int, path: tuple[int, ...]) -> None:
    seats = affected(s, _who(o))
    if seats:
        s.say(f"{and_list([SEATS[p] for p in seats])} lose{'s' if len(seats) == 1 else ''} "
              "support.")
    then(s, *[("lose_for", p, o.amount, o.group, o.groups) for p in seats])


@op("lose_for")
def _lose_for(s: State, seat: int, amount: int, selector: str, n: int) -> None:
    if s.surviving(seat):
        select_groups(s, seat, "lose", selector, n, amount)


def _discard_from_hand(s: State, o: Op, card: int, which: int, path: tuple[int, ...]) -> None:
    then(s, *[("discard_for", p, o.amount) for p in affected(s, _who(o))])


@op("discard_for")
def _discard_for(s: State, seat: int, count: int) -> None:
    count = min(count, len(s.hand[seat]))
    if count:
        push(s, "discard", seat, count)


class DiscardHandler(Handler[State]):
    """Frame ``("discard", seat, count)``: discard ``count`` Action cards from hand, one at a
    time (``discard_from_hand``)."""

    kind = "discard"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(DISCARD, c) for c in sorted(set(s.hand[f[1]]))]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.take_from_hand(f[1], a.x)
        s.discard_action(f[1], a.x)
        s.say(f"{SEATS[f[1]]} discards {ACTION_CARDS[a.x].name}.")
        if f[2] > 1 and s.hand[f[1]]:
            push(s, "discard", f[1], f[2] - 1)

    def describe(self, s: State, f: Frame) -> str:
        return f"discard {f[2]} Action card{'s' if f[2] > 1 else ''} from your hand"


handler(DiscardHandler)


def _mill_actions(s: State, o: Op, card: int, which: int, path: tuple[int, ...]) -> None:
    for p in affected(s, _who(o)):
        deck = s.action_deck[p]
        milled = []
        for _ in range(o.amount):
            if deck:
                milled.append(deck.pop())
        s.action_discard[p].extend(milled)
        if milled:
            s.say(f"{SEATS[p]} discards the top of their Action deck: "
                  f"{and_list([ACTION_CARDS[c].name for c in milled])}.")


def _raise_cell(s: State, o: Op, card: int, which: int, path: tuple[int, ...]) -> None:
    select_cells(s, s.current, "raise", o.target, o.cells, o.amount)


def _if_any_player(s: State, o: Op, card: int, which: int, path: tuple[int, ...]) -> None:
    if affected(s, _who(o)):
        then(s, *[("crisis_op", card, which, (*path, j)) for j in range(len(o.then))])


def _activate_subversive(s: State, o: Op, card: int, which: int,
                         path: tuple[int, ...]) -> None:
    seat = s.current
    old = s.subversive[seat]
    if old != NONE:
        s.crisis_discard[seat].append(old)
        s.say(f"{CRISIS_CARDS[old].name} in front of {SEATS[seat]} is replaced.")
    s.subversive[seat] = card
    s.crisis = NONE
    s.say(f"{CRISIS_CARDS[card].name} becomes active in front of {SEATS[seat]}.")


CRISIS_OPS: Final[dict[str, Callable[[State, Op, int, int, tuple[int, ...]], None]]] = {
    "lose_support": _lose_support,
    "discard_from_hand": _discard_from_hand,
    "mill_actions": _mill_actions,
    "raise_cell": _raise_cell,
    "if_any_player": _if_any_player,
    "activate_subversive": _activate_subversive,
}


# --- Special Intelligence and Conservation choices ----------------------------------------
class SubversiveHandler(Handler[State]):
    """Frame ``("subversive", seat)``: which active Subversive to remove."""

    kind = "subversive"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(REMOVE_SUBVERSIVE, q, s.subversive[q]) for q in range(s.n)
                if s.subversive[q] != NONE]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        remove_subversive(s, a.x)

    def describe(self, s: State, f: Frame) -> str:
        return "choose the Subversive to remove"


handler(SubversiveHandler)


class ReturnHandler(Handler[State]):
    """Frame ``("return", seat, count, excluded)``: take up to ``count`` cards back from the
    discard pile (``return_from_discard``); the card taken is known to everybody."""

    kind = "return"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(TAKE_BACK, c) for c in returnable(s, f[1], f[3])] + \
            [act(TAKE_NOTHING)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == TAKE_NOTHING:
            return
        seat = f[1]
        pile = s.action_discard[seat]
        pile.reverse()
        pile.remove(a.x)  # the copy nearest the top
        pile.reverse()
        s.hand[seat].append(a.x)
        s.known[seat].append(a.x)
        s.say(f"{SEATS[seat]} takes {ACTION_CARDS[a.x].name} back into their hand.")
        if f[2] > 1 and returnable(s, seat, f[3]):
            push(s, "return", seat, f[2] - 1, f[3])

    def describe(self, s: State, f: Frame) -> str:
        return f"take up to {f[2]} Action card{'s' if f[2] > 1 else ''} back from your discards"


handler(ReturnHandler)


# --- every op of the language has its one interpreter --------------------------------------
READ_ELSEWHERE: Final = frozenset({
    "modify_next_action", "lower_requirement", "extra_groups", "return_from_discard",
    "protect_raised_groups", "freeze_reduced_cells", "boost_effort_vs_crisis",
    "limit_actions", "weaken_reductions",
})
"""Ops interpreted outside ``action_op`` / ``crisis_op`` (see the module's docstring)."""
INTERPRETED: Final = frozenset(ACTION_OPS) | frozenset(CRISIS_OPS) | READ_ELSEWHERE
if DATA.op_names != INTERPRETED:  # pragma: no cover - a data file with a new op
    raise ImportError("the effect language and its interpreter differ: "
                      f"{sorted(INTERPRETED ^ DATA.op_names)}")
