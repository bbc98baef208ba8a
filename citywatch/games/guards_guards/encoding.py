"""Guards! Guards! for learning agents: a fixed action space and a fixed observation vector.

The action space is every declared verb (``actions.VERBS``) with every value of its fields,
numbered in mixed radix: verb by verb, each field taking -1 (unused) or one of its kind's
values (tiles, volunteers, seats, ...; a ``number`` field 0 to ``MAX_NUMBER``). ``ACTIONS``
and ``INDEX`` compute an action from its number and back without listing them.
``observation(state, seat)`` encodes the facts of ``state.view(seat)`` (rulings 69-70) as a
float32 vector of ``OBS_SIZE`` numbers; ``action_mask(state)`` marks the legal actions.
``docs/pettingzoo.md`` describes the layouts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from citywatch.core.spaces import ActionIndex, ActionList, ActionSpace, Layout
from citywatch.games.guards_guards import rules  # noqa: F401  (registers every verb and frame)
from citywatch.games.guards_guards.actions import ROUTE_CODES, VERBS, Action
from citywatch.games.guards_guards.data import (
    DECKS,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import DECISIONS
from citywatch.games.guards_guards.state import GuardsGuardsState

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

MAX_SEATS = 6
MAX_NUMBER = 40
MAX_DOLLARS = 99
MAX_TURN = 9999
_KIND_SIZE = {
    "tile": len(TILES), "volunteer": len(VOLUNTEERS), "scroll": len(SCROLLS),
    "item": len(ITEMS), "fate": len(FATE_CARDS), "dragon": len(DRAGONS),
    "guild_card": len(GUILD_CARDS), "seat": MAX_SEATS, "quadrant": len(QUADRANTS),
    "deck": len(DECKS), "attribute": 3, "stat": 4, "spell": len(SPELL_COLOURS),
    "number": MAX_NUMBER + 1, "route": ROUTE_CODES,
}

# --- the action space -------------------------------------------------------------------------
SPACE = ActionSpace(VERBS, _KIND_SIZE)
"""Every action numbered (``citywatch.core.spaces``)."""
VERB_NAMES = SPACE.verb_names
NUM_ACTIONS = len(SPACE)


def action_index(action: Action) -> int:
    """The number of ``action``; ``KeyError`` if it is outside the action space."""
    return SPACE.number(action.verb, (action.x, action.y, action.z))


def index_action(index: int) -> Action:
    """The action numbered ``index``; ``IndexError`` if out of range."""
    name, values = SPACE.action_at(index)
    return Action(name, *values)


ACTIONS: Sequence[Action] = ActionList(NUM_ACTIONS, index_action)
INDEX: Mapping[Any, int] = ActionIndex(Action, ACTIONS, action_index)


def action_mask(state: GuardsGuardsState) -> Mask:
    """1 at the number of every legal action of the seat to move, else 0."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.to_move is not None:
        mask[[action_index(a) for a in state.legal_actions()]] = 1
    return mask


# --- the observation --------------------------------------------------------------------------
FRAME_KINDS = tuple(sorted(DECISIONS.handlers))
_FRAME = {k: i for i, k in enumerate(FRAME_KINDS)}
_OBSERVATION = Layout()
LAYOUT = _OBSERVATION.blocks
"""Block name -> (start, size) in the observation vector, in order."""
_HIGH = _OBSERVATION.high
_block = _OBSERVATION.block


NT, NV = len(TILES), len(VOLUNTEERS)
TURN = _block("turn", 1, MAX_TURN)
DOLLARS = _block("dollars", MAX_SEATS, MAX_DOLLARS)  # [seat]
LEVELS = _block("levels", MAX_SEATS * 6, 10)  # [seat][magic, guild, charm, effective x3]
COUNTS = _block("counts", MAX_SEATS * 4, NV)  # [seat][volunteers, scrolls, items, saboteurs]
WAITING = _block("missed_turns", MAX_SEATS, 9)
AT_GATE = _block("runners", MAX_SEATS * 2, 6)  # [seat][on the way, at the gate]
DECK_SIZES = _block("deck_sizes", 3 + 1 + 4 + 1, NV)  # volunteer decks, fate, card decks, dragons
SEAT = _block("seat", MAX_SEATS)
PLAYERS = _block("players", MAX_SEATS - 1)
CURRENT = _block("current", MAX_SEATS)
TO_MOVE = _block("to_move", MAX_SEATS)
FRAME = _block("decision", len(FRAME_KINDS))
POSITION = _block("position", MAX_SEATS * NT)  # [seat][tile]
GATE = _block("gate", MAX_SEATS * NT)
GUILD = _block("guild_card", MAX_SEATS * len(GUILD_CARDS))
RETURNED = _block("returned", MAX_SEATS * len(SPELL_COLOURS))
RUN = _block("run_spell", MAX_SEATS * len(SPELL_COLOURS))
FLAGS = _block("flags", MAX_SEATS * 3)  # [seat][pox, jailed, fire water placed on them]
LUGGAGE = _block("luggage", NT)
DRAGON = _block("dragons", len(QUADRANTS) * len(DRAGONS))
FACE_UP = _block("face_up", NV)
DISCARD = _block("discarded", NV)
HAND = _block("hand", NV)
OWN_SCROLLS = _block("own_scrolls", len(SCROLLS))
OWN_ITEMS = _block("own_items", len(ITEMS))
OWN_SABOTEURS = _block("own_saboteurs", len(QUADRANTS) * NV)  # [quadrant][volunteer]
WINNERS = _block("winners", MAX_SEATS)
OBS_SIZE = len(_HIGH)
OBS_HIGH = np.array(_HIGH, dtype=np.float32)


def observation(state: GuardsGuardsState, seat: int) -> Vector:
    """What ``seat`` may see of ``state`` (the facts of its view), as a vector."""
    s = state
    n = s.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[TURN] = min(s.turn, MAX_TURN)
    ones = [SEAT + seat, PLAYERS + n - 2, CURRENT + s.current]
    for p in range(n):
        out[DOLLARS + p] = min(s.dollars[p], MAX_DOLLARS)
        for a in range(3):
            out[LEVELS + 6 * p + a] = s.attrs[p][a]
            out[LEVELS + 6 * p + 3 + a] = min(10, s.level(p, a))
        out[COUNTS + 4 * p: COUNTS + 4 * p + 4] = (
            len(s.hand[p]), len(s.scrolls[p]), len(s.items[p]), len(s.saboteurs[p]))
        out[WAITING + p] = min(9, s.missed[p])
        run = s.run[p]
        if run is not None:
            out[AT_GATE + 2 * p] = min(6, len(run.runners))
            out[AT_GATE + 2 * p + 1] = min(6, len(run.at_gate))
            ones.append(RUN + p * len(SPELL_COLOURS) + run.colour)
        if s.pos[p] >= 0:
            ones.append(POSITION + p * NT + s.pos[p])
            ones.append(GATE + p * NT + s.gate[p])
        if s.guild[p] >= 0:
            ones.append(GUILD + p * len(GUILD_CARDS) + s.guild[p])
        ones += [RETURNED + p * len(SPELL_COLOURS) + c for c in s.returned[p]]
        for k, on in enumerate((s.pox[p], s.jailed[p], bool(s.flasks[p]))):
            if on:
                ones.append(FLAGS + 3 * p + k)
    sizes = [*map(len, s.vol_down), len(s.fate_deck), *map(len, s.decks), len(s.dragon_pile)]
    out[DECK_SIZES: DECK_SIZES + len(sizes)] = [min(NV, x) for x in sizes]
    if s.result is None and s.stack:
        f = s.stack[-1]
        if f[1] >= 0:
            ones.append(TO_MOVE + f[1])
        ones.append(FRAME + _FRAME[f[0]])
    if s.luggage >= 0:
        ones.append(LUGGAGE + s.luggage)
    ones += [DRAGON + q * len(DRAGONS) + d for q, d in enumerate(s.dragons) if d >= 0]
    for d in range(3):
        ones += [FACE_UP + v for v in s.vol_up[d][-1:]]
        ones += [DISCARD + v for v in s.vol_discard[d]]
    ones += [HAND + v for v in s.hand[seat]]
    ones += [OWN_SCROLLS + c for c in s.scrolls[seat]]
    ones += [OWN_ITEMS + c for c in s.items[seat]]
    ones += [OWN_SABOTEURS + q * NV + v for q, v, _ in s.saboteurs[seat]]
    if s.result is not None:
        ones += [WINNERS + w for w in s.result.winners]
    out[ones] = 1.0
    return out


__all__ = ["ACTIONS", "INDEX", "OBS_HIGH", "OBS_SIZE", "action_mask", "observation"]
