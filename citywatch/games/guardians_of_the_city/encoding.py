"""Guardians of the City for learning agents: a fixed action space and a fixed observation vector.

``observation(state, seat)`` encodes the facts of ``state.view(seat)`` (ruling 17) as a
float32 vector of ``OBS_SIZE`` numbers in ``[0, OBS_HIGH]``; ``action_mask(state)`` marks the
legal actions of the seat to move.

**Version.** ``VERSION`` numbers this layout; the environment is
``citywatch_<game>_v<VERSION>``. Raise it by one with any change to the tables below (a block
or verb added, moved, resized, renamed or rescaled, or what a number or an action means) and
pin the new ``Encoding.fingerprint()`` under it in ``tests/encodings.json``;
``tests/test_encodings.py`` checks the tables against the code and the fingerprint against the
pin.
Layout 1 (``encoding_v1.py``, the newest) is this one scaled to [0, 1], with a potential.

**Observation.** 1098 numbers (``OBS_SIZE``), the same for every player count, each from 0
to its block's max (``OBS_HIGH``; every number is clipped to it): everything public, the
seat's own hand, and of other hands only the cards everybody saw; never a deck's order. Seats
are absolute (seat 0 is Player 1) and blocks of seats a game lacks stay 0; a
``[seat][pillar]`` block holds seat ``s``, pillar ``i`` at ``start + len(PILLARS) * s + i``
(and alike). Pillars, Citizen Groups, Terrorist Cells, Action and Crisis cards are numbered in
the data's order; card counts are copies of each card design. ``LAYOUT[block]`` is
``(start, size)``::

    block                      start  size   max  what
    turn                           0     1   999  turns begun
    players                        1     3     1  one-hot: 2, 3 or 4 players
    seat                           4     4     1  one-hot: the observing seat
    first                          8     4     1  one-hot: the first player
    current                       12     4     1  one-hot: whose turn it is
    step                          16     5     1  one-hot: set-up, Steps 1-4
    plays                         21     1     9  Action cards played this turn
    cell_strength                 22     3     6  each Terrorist Cell's strength
    cell_frozen                   25     3     1  each cell frozen
    ending                        28     4     1  end conditions waiting for the round's end
                                                  (``scoring.REASONS``)
    in_play_seat                  32     4     1  one-hot: who plays the Action card being resolved
    in_play                       36    34     1  one-hot: that Action card
    in_play_galvanised            70    34     1  one-hot: the Galvanised People card paired with it
    crisis                       104    28     1  one-hot: the Crisis card being resolved
    to_move                      132     4     1  one-hot: who decides now (0 when over)
    decision                     136    11     1  one-hot: the kind of pending decision
                                                  (``FRAME_KINDS``, sorted)
    decision_pillar              147     5     1  one-hot: the pillar an effort decision sets next
    decision_count               152     1     9  cards, cells or groups the decision picks
    decision_amount              153     1     9  the amount a cells or groups decision moves
    decision_raise               154     1     1  a cells or groups decision raises (else lowers)
    own_chosen_effort            155     5     4  the observing seat's effort chosen so far, per
                                                  pillar
    effort                       160    20     4  ``[seat][pillar]``: printed National Effort
    effective_effort             180    20     4  ``[seat][pillar]``: effective effort
    required_effort              200     4    12  ``[seat]``: the effort total due
    support                      204    16     4  ``[seat][group]``: support of each Citizen Group
    shield                       220     4     9  ``[seat]``: Shield
    counter_terrorism_points     224     4    99  ``[seat]``: Counter-Terrorism points
    special_intelligence_used    228     4     9  ``[seat]``: Special Intelligence used
    score                        232     4    99  ``[seat]``: score
    hand_count                   236     4     9  ``[seat]``: cards in hand
    action_deck_count            240     4    50  ``[seat]``: cards in the Action deck
    crisis_deck_count            244     4    40  ``[seat]``: cards in the Crisis deck
    action_limit                 248     4     9  ``[seat]``: Action cards it may play a turn
    turns                        252     4   999  ``[seat]``: turns taken
    known_in_hand                256   136     9  ``[seat][Action card]``: copies in hand that
                                                  everybody saw
    action_discard               392   136     9  ``[seat][Action card]``: copies in the discard
                                                  pile
    crisis_discard               528   112     9  ``[seat][Crisis card]``: copies in the Crisis
                                                  discard pile
    score_pile                   640   136     9  ``[seat][Action card]``: copies in the Score pile
    subversive                   776   112     1  ``[seat][Crisis card]``: the active Subversive
                                                  card
    lasting                      888   136     9  ``[seat][Action card]``: lasting Galvanised People
                                                  cards
    protected_groups            1024    16     1  ``[seat][group]``: groups a lasting card protects
    boost                       1040    20     9  ``[seat][pillar]``: effort boosts of lasting cards
    hand                        1060    34     9  ``[Action card]``: copies in the observing seat's
                                                  hand
    winners                     1094     4     1  the winners, at the end

**Actions.** 1543 (``NUM_ACTIONS``): every declared verb (``actions.VERBS``) with every value
of its fields, numbered by ``citywatch.core.spaces.ActionSpace``: verbs in name order, and
within a verb its fields as mixed-radix digits, the first field most significant, each digit
the field's value + 1 (-1, unused, is 0), so a field of N values takes N + 1 digits. A field
takes pillars, Citizen Groups, Action cards, Crisis cards, seats 0-3, a ``number`` (an effort
level 0 to ``MAX_NUMBER``), or a bitmask of Terrorist Cells (``cells``) or of Citizen Groups
(``groups``). ``ACTIONS`` lists them and ``INDEX`` numbers them; ``VERB_RANGES[verb]`` is
``(start, stop)``. Fields below: name (kind, values)::

    verb                   start    size  values
    discard                    0      35  card (action_card, 34)
    draw                      35       1
    effort                    36      36  pillar (5) x level (number, 5)
    end_plays                 72       1
    keep_effort               73       1
    lose_groups               74      17  groups (16)
    lower                     91       6  pillar (5)
    next_loss                 97       5  group (4)
    play                     102    1225  card (action_card, 34) x galvanised (action_card, 34)
    raise_cells             1327       9  cells (8)
    raise_groups            1336      17  groups (16)
    reduce_cells            1353       9  cells (8)
    remove_subversive       1362     145  seat (4) x card (crisis_card, 28)
    take_back               1507      35  card (action_card, 34)
    take_nothing            1542       1
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from citywatch.core.presentation import Encoding
from citywatch.core.spaces import ActionSpace, Layout
from citywatch.games.guardians_of_the_city import view  # noqa: F401  (registers every frame)
from citywatch.games.guardians_of_the_city.actions import SEATS, VERBS, Action
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CONSTANTS,
    CRISIS_CARDS,
    GROUPS,
    PILLARS,
)
from citywatch.games.guardians_of_the_city.effects import action_limit
from citywatch.games.guardians_of_the_city.frames import DECISIONS
from citywatch.games.guardians_of_the_city.scoring import REASONS
from citywatch.games.guardians_of_the_city.state import NONE, GotcState

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

VERSION = 0
"""The layout's version (the environment's ``_v<VERSION>``): raise it by one with any change to
the layout the module's docstring gives, and pin the new fingerprint (``tests/encodings.json``)."""

MAX_SEATS = len(SEATS)
MAX_NUMBER = CONSTANTS.effort_max
"""The largest ``number`` field (an effort level)."""
MAX_TURN = 999
MAX_POINTS = 99
MAX_CARDS = 9
"""The cap of small counts (hand size, copies of a card, Shield, plays, ...)."""
NA, NC = len(ACTION_CARDS), len(CRISIS_CARDS)
NP, NG, NCELL = len(PILLARS), len(GROUPS), len(CELLS)
_KIND_VALUES = {
    "pillar": NP, "group": NG, "action_card": NA, "crisis_card": NC, "seat": MAX_SEATS,
    "number": MAX_NUMBER + 1, "cells": 1 << NCELL, "groups": 1 << NG,
}

# --- the action space -------------------------------------------------------------------------
SPACE = ActionSpace(VERBS, _KIND_VALUES)
"""Every action numbered (``citywatch.core.spaces``)."""
VERB_NAMES = SPACE.verb_names
ACTIONS: tuple[Action, ...] = tuple(
    Action(name, *values) for name, values in map(SPACE.action_at, range(len(SPACE))))
"""Every action, by number."""
INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}
"""Action -> its number."""
NUM_ACTIONS = len(ACTIONS)
VERB_RANGES: dict[str, tuple[int, int]] = {name: SPACE.verb_range(name) for name in VERB_NAMES}
"""Verb -> (first number, one past the last) of its actions."""


def action_mask(state: GotcState) -> Mask:
    """1 at the number of every legal action of the seat to move, else 0 (all 0 once the game
    is over)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.to_move is not None:
        mask[[INDEX[a] for a in state.legal_actions()]] = 1
    return mask


# --- the observation --------------------------------------------------------------------------
FRAME_KINDS = tuple(sorted(DECISIONS.handlers))
_FRAME = {k: i for i, k in enumerate(FRAME_KINDS)}
_OBSERVATION = Layout()
LAYOUT = _OBSERVATION.blocks
"""Block name -> (start, size) in the observation vector, in order."""
_HIGH = _OBSERVATION.high
_block = _OBSERVATION.block


# the table
TURN = _block("turn", 1, MAX_TURN)
PLAYERS = _block("players", MAX_SEATS - 1)  # one-hot: 2, 3, 4 players
SEAT = _block("seat", MAX_SEATS)
FIRST = _block("first", MAX_SEATS)
CURRENT = _block("current", MAX_SEATS)
STEP = _block("step", 5)  # set-up, Steps 1-4
PLAYS = _block("plays", 1, MAX_CARDS)
CELL_STRENGTH = _block("cell_strength", NCELL, CONSTANTS.cell_max)
CELL_FROZEN = _block("cell_frozen", NCELL)
ENDING = _block("ending", len(REASONS))  # end conditions waiting for the round
IN_PLAY_SEAT = _block("in_play_seat", MAX_SEATS)
IN_PLAY = _block("in_play", NA)
IN_PLAY_GALVANISED = _block("in_play_galvanised", NA)
CRISIS = _block("crisis", NC)
# the decision (what the view's "decision" says: who, and the task)
TO_MOVE = _block("to_move", MAX_SEATS)
DECISION = _block("decision", len(FRAME_KINDS))
DECISION_PILLAR = _block("decision_pillar", NP)  # the pillar an effort frame sets next
DECISION_COUNT = _block("decision_count", 1, MAX_CARDS)  # cards or cells or groups to pick
DECISION_AMOUNT = _block("decision_amount", 1, MAX_CARDS)
DECISION_RAISE = _block("decision_raise", 1)  # a cells or groups frame raises
OWN_CHOSEN = _block("own_chosen_effort", NP, MAX_NUMBER)  # the seat's own choices so far
# every seat, public: [seat][...]
EFFORT = _block("effort", MAX_SEATS * NP, CONSTANTS.effort_max)
EFFECTIVE = _block("effective_effort", MAX_SEATS * NP, CONSTANTS.effort_max)
REQUIRED = _block("required_effort", MAX_SEATS, CONSTANTS.effort_base + NG)
SUPPORT = _block("support", MAX_SEATS * NG, CONSTANTS.group_max)
SHIELD = _block("shield", MAX_SEATS, MAX_CARDS)
CT = _block("counter_terrorism_points", MAX_SEATS, MAX_POINTS)
SPECIAL = _block("special_intelligence_used", MAX_SEATS, MAX_CARDS)
SCORE = _block("score", MAX_SEATS, MAX_POINTS)
HAND_COUNT = _block("hand_count", MAX_SEATS, MAX_CARDS)
ACTION_DECK = _block("action_deck_count", MAX_SEATS, CONSTANTS.action_deck_size)
CRISIS_DECK = _block("crisis_deck_count", MAX_SEATS, CONSTANTS.crisis_deck_size)
LIMIT = _block("action_limit", MAX_SEATS, MAX_CARDS)
TURNS = _block("turns", MAX_SEATS, MAX_TURN)
KNOWN = _block("known_in_hand", MAX_SEATS * NA, MAX_CARDS)  # copies of each card
ACTION_DISCARD = _block("action_discard", MAX_SEATS * NA, MAX_CARDS)
CRISIS_DISCARD = _block("crisis_discard", MAX_SEATS * NC, MAX_CARDS)
SCORE_PILE = _block("score_pile", MAX_SEATS * NA, MAX_CARDS)
SUBVERSIVE = _block("subversive", MAX_SEATS * NC)
LASTING = _block("lasting", MAX_SEATS * NA, MAX_CARDS)
PROTECTED = _block("protected_groups", MAX_SEATS * NG)
BOOST = _block("boost", MAX_SEATS * NP, MAX_CARDS)
# the seat's own hand, and the end
HAND = _block("hand", NA, MAX_CARDS)
WINNERS = _block("winners", MAX_SEATS)
OBS_SIZE = len(_HIGH)
OBS_HIGH = np.array(_HIGH, dtype=np.float32)


def _decision(s: GotcState, seat: int, out: Vector, ones: list[int]) -> None:
    """The frame on top of the stack, as far as the view's task tells it."""
    f = s.stack[-1]
    kind = f[0]
    if kind not in _FRAME:
        return
    if f[1] >= 0:
        ones.append(TO_MOVE + f[1])
    ones.append(DECISION + _FRAME[kind])
    if kind == "effort":
        chosen = f[2]
        if len(chosen) < NP:
            ones.append(DECISION_PILLAR + len(chosen))
        if f[1] == seat:
            out[OWN_CHOSEN: OWN_CHOSEN + len(chosen)] = chosen
    elif kind == "cells":  # (seat, purpose, n, amount, candidates)
        out[DECISION_COUNT] = f[3]
        out[DECISION_AMOUNT] = f[4]
        if f[2] == "raise":
            ones.append(DECISION_RAISE)
    elif kind == "groups":  # (seat, purpose, selector, n, amount)
        out[DECISION_COUNT] = f[4]
        out[DECISION_AMOUNT] = f[5]
        if f[2] == "raise":
            ones.append(DECISION_RAISE)
    elif kind in ("discard", "return"):  # (seat, count, ...)
        out[DECISION_COUNT] = f[2]


def observation(state: GotcState, seat: int) -> Vector:
    """What ``seat`` may see of ``state`` (the facts of its view), as a vector: everything
    public, the seat's own hand, and nothing of other hands (but cards everybody saw go back)
    or of any deck's order."""
    s = state
    n = s.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[TURN] = s.turn
    out[PLAYS] = s.plays
    ones = [PLAYERS + n - 2, SEAT + seat, FIRST + s.first, CURRENT + s.current, STEP + s.step]
    frozen = s.frozen_cells()
    for i, strength in enumerate(s.cells):
        out[CELL_STRENGTH + i] = strength
        if frozen >> i & 1:
            ones.append(CELL_FROZEN + i)
    ones += [ENDING + REASONS.index(r) for r in s.pending]
    if s.play is not None:
        ones += [IN_PLAY_SEAT + s.play.seat, IN_PLAY + s.play.card]
        if s.play.galvanised != NONE:
            ones.append(IN_PLAY_GALVANISED + s.play.galvanised)
    if s.crisis != NONE:
        ones.append(CRISIS + s.crisis)
    if s.result is None and s.stack:
        _decision(s, seat, out, ones)
    counted: list[int] = []  # positions that count one copy of a card each
    for p in range(n):
        out[EFFORT + p * NP: EFFORT + (p + 1) * NP] = s.effort[p]
        out[EFFECTIVE + p * NP: EFFECTIVE + (p + 1) * NP] = [s.effective(p, i)
                                                           for i in range(NP)]
        out[REQUIRED + p] = s.required_effort(p)
        out[SUPPORT + p * NG: SUPPORT + (p + 1) * NG] = s.support[p]
        out[SHIELD + p] = s.shield[p]
        out[CT + p] = s.ct[p]
        out[SPECIAL + p] = s.special_intelligence_used(p)
        out[SCORE + p] = s.score(p)
        out[HAND_COUNT + p] = len(s.hand[p])
        out[ACTION_DECK + p] = len(s.action_deck[p])
        out[CRISIS_DECK + p] = len(s.crisis_deck[p])
        out[LIMIT + p] = action_limit(s, p)
        out[TURNS + p] = s.turns[p]
        counted += [KNOWN + p * NA + c for c in s.known[p]]
        counted += [ACTION_DISCARD + p * NA + c for c in s.action_discard[p]]
        counted += [CRISIS_DISCARD + p * NC + c for c in s.crisis_discard[p]]
        counted += [SCORE_PILE + p * NA + c for c in s.score_pile[p]]
        if s.subversive[p] != NONE:
            ones.append(SUBVERSIVE + p * NC + s.subversive[p])
        for e in s.lasting[p]:
            counted.append(LASTING + p * NA + e.card)
            ones += [PROTECTED + p * NG + g for g in range(NG) if e.protect >> g & 1]
            if e.boost_pillar >= 0:
                out[BOOST + p * NP + e.boost_pillar] += e.boost
    counted += [HAND + c for c in s.hand[seat]]
    np.add.at(out, counted, 1.0)
    if s.result is not None:
        ones += [WINNERS + w for w in s.result.winners]
    out[ones] = 1.0
    np.minimum(out, OBS_HIGH, out=out)
    return out


__all__ = ["ACTIONS", "INDEX", "LAYOUT", "NUM_ACTIONS", "OBS_HIGH", "OBS_SIZE", "action_mask",
           "observation"]


def encoding_v0() -> Encoding:
    """Layout 0: the flat action space and the unscaled observation above."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES)
