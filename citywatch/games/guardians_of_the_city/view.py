"""What one seat may see (ruling 17), and worlds re-sampled to fit it (determinization).

Public, in every view: each player's deck list (decks are declared at the table), the number
of cards in each hand and deck, every discard pile and Score pile, effort (printed and as
Crisis cards read it), support, Shields, Counter-Terrorism points, the cells, active
Subversives and lasting Galvanised People cards, the cards being resolved, and hand cards
everybody saw go back into a hand (Conservation). Hidden: the other hands, and the order of
every deck, even from its owner; a seat sees its own hand, and its own effort assignment while
it makes it (citywatch ruling 18, ``effort_view.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city import turn  # noqa: F401  (registers the frames)
from citywatch.games.guardians_of_the_city.actions import SEATS, names_of
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CRISIS_CARDS,
    GROUPS,
    LABEL,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.effects import action_limit, playable
from citywatch.games.guardians_of_the_city.effort_view import (
    choosing,
    effort_step_json,
    pending_effort,
)
from citywatch.games.guardians_of_the_city.frames import DECISIONS
from citywatch.games.guardians_of_the_city.scoring import score_parts
from citywatch.games.guardians_of_the_city.state import EFFORT_MAX, NONE, STATE_HOOKS, GotcState

State = GotcState
STEPS = ("set-up", "Step 1: assign National Effort", "Step 2: play Action cards",
         "Step 3: reveal Crisis cards", "Step 4: discard and draw")
"""What ``view["step"]`` means, by number."""


def action_card_json(card: int) -> dict[str, Any]:
    """An Action card's face."""
    c = ACTION_CARDS[card]
    face: dict[str, Any] = {"name": c.name, "kind": c.kind, "pillar": PILLARS[c.pillar],
                            "min_effort": c.min_effort, "text": c.text}
    if c.is_galvanised:
        face["lasting"] = c.lasting
    return face


def crisis_card_json(card: int) -> dict[str, Any]:
    """A Crisis card's face."""
    c = CRISIS_CARDS[card]
    return {"name": c.name, "kind": c.kind,
            "pillar": None if c.pillar < 0 else PILLARS[c.pillar], "text": c.text}


def _seat_json(s: State, p: int) -> dict[str, Any]:
    sub = s.subversive[p]
    return {
        "name": SEATS[p],
        "deck": s.decks[p].to_json(),
        "effort": dict(zip(PILLARS, s.effort[p], strict=True)),
        "effective_effort": {pillar: s.effective(p, i) for i, pillar in enumerate(PILLARS)},
        "required_effort": s.required_effort(p),
        "support": dict(zip(GROUPS, s.support[p], strict=True)),
        "left_the_country": [g for g, x in zip(GROUPS, s.support[p], strict=True) if x == 0],
        "shield": s.shield[p],
        "counter_terrorism_points": s.ct[p],
        "special_intelligence_used": s.special_intelligence_used(p),
        "score": s.score(p),
        "score_parts": [part.to_json() for part in score_parts(s, p)],
        "hand_count": len(s.hand[p]),
        "known_in_hand": [ACTION_CARDS[c].name for c in s.known[p]],
        "action_deck_count": len(s.action_deck[p]),
        "crisis_deck_count": len(s.crisis_deck[p]),
        "action_discard": [ACTION_CARDS[c].name for c in s.action_discard[p]],
        "crisis_discard": [CRISIS_CARDS[c].name for c in s.crisis_discard[p]],
        "score_pile": [ACTION_CARDS[c].name for c in s.score_pile[p]],
        "subversive": None if sub == NONE else crisis_card_json(sub),
        "lasting": [{"card": ACTION_CARDS[e.card].name, "paired": ACTION_CARDS[e.paired].name,
                     "protects": names_of(e.protect, GROUPS),
                     "freezes": names_of(e.frozen, CELLS),
                     "boost": None if e.boost_pillar < 0 else {
                         "pillar": PILLARS[e.boost_pillar], "amount": e.boost}}
                    for e in s.lasting[p]],
        "action_limit": action_limit(s, p),
        "turns": s.turns[p],
    }


def _own_json(s: State, seat: int) -> dict[str, Any]:
    can = {c for pair in playable(s, seat) for c in pair if c != NONE} \
        if s.step == 2 and s.current == seat and s.result is None else set()
    chosen = choosing(s, seat)
    effort = s.effort[seat] if chosen is None else pending_effort(s, seat, chosen)
    hand = []
    for c in s.hand[seat]:
        face = action_card_json(c)
        face["requirement_met"] = effort[ACTION_CARDS[c].pillar] >= ACTION_CARDS[c].min_effort
        face["playable_now"] = c in can
        hand.append(face)
    own: dict[str, Any] = {"hand": hand}
    if chosen is not None:
        own["effort_step"] = effort_step_json(s, seat, chosen)
    return own


def _assigning_json(s: State, seat: int | None, seats: list[dict[str, Any]]) -> None:
    """In the deciding seat's own view only, its column follows its effort assignment so
    far (citywatch ruling 18): ``effort`` and ``effective_effort`` with the levels chosen, and
    ``effort_assigned`` naming the pillars assigned this step."""
    chosen = choosing(s, seat)
    if seat is None or chosen is None:
        return
    levels = pending_effort(s, seat, chosen)
    column = seats[seat]
    column["effort"] = dict(zip(PILLARS, levels, strict=True))
    column["effective_effort"] = {
        pillar: min(EFFORT_MAX, v + sum(e.boost for e in s.lasting[seat] if e.boost_pillar == i))
        for i, (pillar, v) in enumerate(zip(PILLARS, levels, strict=True))}
    column["effort_assigned"] = list(PILLARS[:len(chosen)])


def view(s: State, seat: int | None) -> dict[str, Any]:
    """A JSON dict of exactly what ``seat`` may see (``None``: a spectator)."""
    s.check_seat(seat)
    decision = s.decision_view(seat, SEATS, DECISIONS.describe)
    frozen = s.frozen_cells()
    play = s.play
    seats = [_seat_json(s, p) for p in range(s.n)]
    _assigning_json(s, seat, seats)
    return {
        "game": "guardians-of-the-city",
        "label": LABEL,
        "players": s.n,
        "seat": seat,
        "name": None if seat is None else SEATS[seat],
        "turn": s.turn,
        "first": SEATS[s.first],
        "current": SEATS[s.current],
        "step": s.step,
        "step_name": STEPS[s.step],
        "plays": s.plays,
        "decision": decision,
        "cells": [{"name": name, "strength": s.cells[i], "eliminated": s.cells[i] == 0,
                   "frozen": bool(frozen >> i & 1)} for i, name in enumerate(CELLS)],
        "ending": list(s.pending),
        "in_play": None if play is None else {
            "seat": SEATS[play.seat], "card": action_card_json(play.card),
            "galvanised": None if play.galvanised == NONE
            else action_card_json(play.galvanised)},
        "crisis": None if s.crisis == NONE else crisis_card_json(s.crisis),
        "seats": seats,
        "own": None if seat is None else _own_json(s, seat),
        "result": None if s.result is None else s.result.to_json(),
    }


def determinize(s: State, seat: int, rng: Rng) -> State:
    """A full state that ``seat`` cannot tell from ``s``: the other hands (but for the cards
    everybody knows) and every deck's order re-drawn from ``rng``.

    Each pool is built from public facts only and sorted before it is shuffled: another
    player's unknown hand cards and deck are their deck list minus every public card, so the
    sample never depends on the hidden truth.
    """
    d = s.sampling_copy(seat, rng)
    d.say(f"A world sampled for {SEATS[seat]}: the earlier log is not carried over.")
    for p in range(d.n):
        if p == seat:
            pool = sorted(d.action_deck[p])
            rng.shuffle(pool)
            d.action_deck[p] = pool
        else:
            unknown = list((Counter(d.hand[p]) - Counter(d.known[p])).elements())
            pool = sorted(unknown + d.action_deck[p])
            rng.shuffle(pool)
            d.hand[p] = d.known[p] + pool[:len(unknown)]
            d.action_deck[p] = pool[len(unknown):]
        crises = sorted(d.crisis_deck[p])
        rng.shuffle(crises)
        d.crisis_deck[p] = crises
    return d


def move_spaces(before: dict[str, Any], after: dict[str, Any],
                lines: Sequence[str]) -> list[str]:
    """What one decision touched (issue 26), in the board's order: the Terrorist Cells whose
    strength or state changed or that its public ``lines`` name, then the nations (by seat
    name) whose Citizen Groups' support, Shield or Counter-Terrorism points changed (the
    spectator's views ``before`` and ``after`` it)."""
    text = "\n".join(lines)
    old_cells = {cell["name"]: cell for cell in before.get("cells", [])}
    spaces = [cell["name"] for cell in after.get("cells", [])
              if old_cells.get(cell["name"]) != cell or cell["name"] in text]
    old_seats = {seat["name"]: seat for seat in before.get("seats", [])}
    for seat in after.get("seats", []):
        was = old_seats.get(seat["name"], {})
        if any(was.get(key) != seat.get(key)
               for key in ("support", "shield", "counter_terrorism_points")):
            spaces.append(seat["name"])
    return spaces


STATE_HOOKS.view = view
STATE_HOOKS.determinize = determinize
