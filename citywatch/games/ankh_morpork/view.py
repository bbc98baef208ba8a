"""What one seat may see, and worlds re-sampled to fit it (determinization)."""

from __future__ import annotations

from typing import Any

from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import (
    AREAS,
    CARDS,
    COLOURS,
    EVENTS,
    NUM_AREAS,
    PERSONALITIES,
    TWO_PLAYER_REMOVED_PERSONALITIES,
)
from citywatch.games.ankh_morpork.frames import DECISIONS
from citywatch.games.ankh_morpork.position import area_json
from citywatch.games.ankh_morpork.state import STATE_HOOKS, AnkhMorporkState

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def shuffle(rng: Rng, items: list[Any]) -> None:
    """``rng.shuffle(items)``, drawing the same numbers, with ``Rng``'s SplitMix64 inlined
    (the step of ``Rng.next64``): sampling a world shuffles some 90 cards."""
    if type(rng) is not Rng:
        rng.shuffle(items)
        return
    state = rng.state
    for i in range(len(items) - 1, 0, -1):
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    rng.state = state


def _names(items: list[int]) -> list[str]:
    return [CARDS[c].name for c in items]


def revealed_hands(s: AnkhMorporkState, seat: int) -> set[int]:
    """Seats whose hand ``seat`` is being shown right now (Cable Street Particulars)."""
    out: set[int] = set()
    for f in s.stack:
        if f[0] == "fx" and f[3] == "make_discard" and f[1] == seat:
            out.add(f[4])
    return out


def view(s: AnkhMorporkState, seat: int | None) -> dict[str, Any]:
    """A JSON dict of exactly what ``seat`` may see (``None``: a spectator, public facts only)."""
    s.check_seat(seat)
    decision = s.decision_view(seat, COLOURS, DECISIONS.describe)
    ended = s.result is not None
    return {
        "game": "ankh-morpork",
        "players": s.n,
        "seat": seat,
        "colour": None if seat is None else COLOURS[seat],
        "turn": s.turn,
        "current": COLOURS[s.current],
        "decision": decision,
        "areas": {AREAS[a].name: area_json(s, a) for a in range(NUM_AREAS)},
        "seats": [
            {
                "colour": COLOURS[p],
                "money": s.money[p],
                "hand_size": len(s.hands[p]),
                "in_front": _names(s.in_front[p]),
                "minions_in_supply": s.minion_supply(p),
                "buildings_in_supply": s.building_supply(p),
                "personality": PERSONALITIES[s.personality[p]].name if ended or p == seat
                else None,
            }
            for p in range(s.n)
        ],
        "hand": [] if seat is None else _names(s.hands[seat]),
        "shown_hands": {} if seat is None else {
            COLOURS[p]: _names(s.hands[p]) for p in sorted(revealed_hands(s, seat))},
        "seen_personalities": [] if seat is None else [
            PERSONALITIES[p].name for p in s.seen[seat]],
        "draw_pile_size": len(s.draw_pile),
        "discard_pile": _names(s.discard_pile[::-1]),
        "in_play": _names(s.in_play),
        "out_of_game": _names(s.out_of_game),
        "events_left": len(s.events),
        "events_done": [EVENTS[e].name for e in s.events_done],
        "unused_personalities": len(s.unused_personalities),
        "played_this_turn": _names(s.played),
        "powers_used": [AREAS[a].name for a in range(NUM_AREAS) if s.powers_used >> a & 1],
        "gained_this_turn": [AREAS[a].name for a in range(NUM_AREAS) if s.gained >> a & 1],
        "immune": [COLOURS[p] for p in range(s.n) if s.immune >> p & 1],
        "text_asked": [COLOURS[p] for p in range(s.n) if s.text_asked >> p & 1],
        "result": None if s.result is None else s.result.to_json(),
    }


def determinize(s: AnkhMorporkState, seat: int, rng: Rng) -> AnkhMorporkState:
    """A full state that ``seat`` cannot tell from ``s``: hidden parts drawn from ``rng``.

    The pools re-dealt are computed from public facts (all cards minus the visible
    ones), never from where the hidden cards truly are.
    """
    d = s.sampling_copy(seat, rng)
    d.say(f"A world sampled for {COLOURS[seat]}: the earlier log is not carried over.")
    known = {seat} | revealed_hands(s, seat)
    visible = set(d.discard_pile) | set(d.in_play) | set(d.out_of_game)
    for p in range(d.n):
        visible |= set(d.in_front[p])
        if p in known:
            visible |= set(d.hands[p])
    pool = [c for c in range(len(CARDS)) if c not in visible]
    shuffle(rng, pool)
    for p in range(d.n):
        if p not in known:
            size = len(d.hands[p])
            d.hands[p] = pool[:size]
            del pool[:size]
    d.draw_pile = pool
    people = [p.index for p in PERSONALITIES
              if d.n > 2 or p.name not in TWO_PLAYER_REMOVED_PERSONALITIES]
    revealed = set(range(d.n)) if d.result is not None else {seat}
    for p in revealed:
        people.remove(d.personality[p])
    shuffle(rng, people)
    for p in range(d.n):
        if p not in revealed:
            d.personality[p] = people.pop()
        if p != seat:
            d.seen[p] = []
    d.unused_personalities = people
    events = sorted(set(range(len(EVENTS))) - set(d.events_done))
    shuffle(rng, events)
    d.events = events
    d.stack = [_redeal_frame(f, seat, d, rng) for f in d.stack]
    return d


def _redeal_frame(f: tuple[Any, ...], seat: int, d: AnkhMorporkState, rng: Rng) -> tuple[Any, ...]:
    """Stanley's two taken cards are known only to the taker: re-pick them for others."""
    if f[0] == "fx" and f[3] == "give_back" and f[1] != seat:
        hand = d.hands[f[1]]
        picks = list(hand)
        shuffle(rng, picks)
        return (*f[:5], *picks[: len(f) - 5])
    return f


STATE_HOOKS.view = view
STATE_HOOKS.determinize = determinize
