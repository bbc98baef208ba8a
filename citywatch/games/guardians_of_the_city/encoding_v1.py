"""Guardians of the City for learning agents, layout 1: layout 0 scaled to [0, 1], and a
potential.

The actions are layout 0's (``encoding.py``: ``ACTIONS``, ``INDEX``, the mask), flat: 1543 of
them. The observation has layout 0's 1098 numbers in layout 0's blocks, each divided by its
block's scale and clipped to 1 (``Encoding.scale``; ``observation_high`` is 1.0 throughout),
so it is built, like layout 0's, from the facts of ``state.view(seat)`` only (ruling 17).

**Scales.** Where the rules bound a block (``data.CONSTANTS``), its scale is that bound:
effort 4, support 4, cell strength 6, the decks (50 and 40 cards), the hand (4 cards), the
Action cards a turn (2; a Subversive card only lowers it), the copies of a card design in a
deck (3; 1 of each Galvanised People card), the cards, cells or groups a decision picks (4).
The others were far from anything a game reaches and are measured, over 600 seeded random
games (seeds 0-599, 2, 3 and 4 players in turn, every decision, every seat; the largest value
seen is in brackets), with headroom of about half again: a larger value is clipped to 1.

- ``turn``: 50 (33); ``turns``: 25 (16).
- ``score``: 40 (27); ``counter_terrorism_points``: 25 (15).
- ``shield``: 8 (5); ``decision_amount``: 6 (4); ``boost``: 2 (1).

**Potential** (``Encoding.potential``, for the environment's optional shaped rewards): the
seat's lead on points, from the scores every view shows (the score the game would end with
now): its score over its score plus the best other seat's, 0.5 while both are 0.

**Observation.** 1098 numbers in [0, 1]; ``[seat][pillar]`` and the other pairs as in layout
0. ``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size  scale  what
    turn                           0     1     50  turns begun
    players                        1     3      1  one-hot: 2, 3 or 4 players
    seat                           4     4      1  one-hot: the observing seat
    first                          8     4      1  one-hot: the first player
    current                       12     4      1  one-hot: whose turn it is
    step                          16     5      1  one-hot: set-up, Steps 1-4
    plays                         21     1      2  Action cards played this turn
    cell_strength                 22     3      6  each Terrorist Cell's strength
    cell_frozen                   25     3      1  each cell frozen
    ending                        28     4      1  end conditions waiting for the round's end
    in_play_seat                  32     4      1  one-hot: who plays the Action card resolved
    in_play                       36    34      1  one-hot: that Action card
    in_play_galvanised            70    34      1  one-hot: the Galvanised People card with it
    crisis                       104    28      1  one-hot: the Crisis card being resolved
    to_move                      132     4      1  one-hot: who decides now (0 when over)
    decision                     136    11      1  one-hot: the kind of pending decision
    decision_pillar              147     5      1  one-hot: the pillar an effort decision sets next
    decision_count               152     1      4  cards, cells or groups the decision picks
    decision_amount              153     1      6  the amount a cells or groups decision moves
    decision_raise               154     1      1  a cells or groups decision raises (else lowers)
    own_chosen_effort            155     5      4  the observing seat's effort chosen so far
    effort                       160    20      4  ``[seat][pillar]``: printed National Effort
    effective_effort             180    20      4  ``[seat][pillar]``: effective effort
    required_effort              200     4     12  ``[seat]``: the effort total due
    support                      204    16      4  ``[seat][group]``: support of each Citizen Group
    shield                       220     4      8  ``[seat]``: Shield
    counter_terrorism_points     224     4     25  ``[seat]``: Counter-Terrorism points
    special_intelligence_used    228     4      3  ``[seat]``: Special Intelligence used
    score                        232     4     40  ``[seat]``: score
    hand_count                   236     4      4  ``[seat]``: cards in hand
    action_deck_count            240     4     50  ``[seat]``: cards in the Action deck
    crisis_deck_count            244     4     40  ``[seat]``: cards in the Crisis deck
    action_limit                 248     4      2  ``[seat]``: Action cards it may play a turn
    turns                        252     4     25  ``[seat]``: turns taken
    known_in_hand                256   136      3  ``[seat][Action card]``: copies in hand that
                                                   everybody saw
    action_discard               392   136      3  ``[seat][Action card]``: copies discarded
    crisis_discard               528   112      3  ``[seat][Crisis card]``: copies discarded
    score_pile                   640   136      3  ``[seat][Action card]``: copies scored
    subversive                   776   112      1  ``[seat][Crisis card]``: the active Subversive
    lasting                      888   136      1  ``[seat][Action card]``: lasting Galvanised
    protected_groups            1024    16      1  ``[seat][group]``: protected by a lasting card
    boost                       1040    20      2  ``[seat][pillar]``: lasting cards' boosts
    hand                        1060    34      3  ``[Action card]``: copies in the observing hand
    winners                     1094     4      1  the winners, at the end

**Actions.** 1543, layout 0's: the same verbs and numbers (``VERB_RANGES[verb]`` is
``(start, stop)``); ``encoding``'s docstring holds the table.
"""

from __future__ import annotations

from citywatch.core.presentation import Encoding
from citywatch.core.scaling import scaled
from citywatch.games.guardians_of_the_city.data import CONSTANTS
from citywatch.games.guardians_of_the_city.encoding import encoding_v0
from citywatch.games.guardians_of_the_city.state import GotcState

VERSION = 1
"""The layout's version (the environment's ``_v1``)."""

_COPIES = float(CONSTANTS.max_copies)
_PER_TURN = float(CONSTANTS.actions_per_turn)
SCALES: dict[str, float] = {
    "turn": 50.0,
    "plays": _PER_TURN,
    "decision_count": float(CONSTANTS.hand_size),
    "decision_amount": 6.0,
    "shield": 8.0,
    "counter_terrorism_points": 25.0,
    "special_intelligence_used": _COPIES,
    "score": 40.0,
    "hand_count": float(CONSTANTS.hand_size),
    "action_limit": _PER_TURN,
    "turns": 25.0,
    "known_in_hand": _COPIES,
    "action_discard": _COPIES,
    "crisis_discard": _COPIES,
    "score_pile": _COPIES,
    "lasting": float(CONSTANTS.max_per_galvanised_type),
    "boost": 2.0,
    "hand": _COPIES,
}
"""The blocks whose scale is not layout 0's max (the docstring says why each)."""


def potential(state: GotcState, seat: int) -> float:
    """``seat``'s lead on points in [0, 1], from the scores its view shows (each seat's
    ``score``, ``state.score``, public): its score over its score plus the best other seat's
    (0.5 while both are 0)."""
    scores = [float(state.score(p)) for p in range(state.n)]
    own = scores.pop(seat)
    both = own + max(scores)
    return own / both if both else 0.5


def layout_1(unscaled: Encoding) -> Encoding:
    """Layout 1 from layout 0 (``unscaled``): scaled by ``SCALES``, with ``potential``."""
    return scaled(unscaled, SCALES, VERSION, potential, __name__)


def encoding_v1() -> Encoding:
    """Layout 1: layout 0 scaled to [0, 1], with a potential."""
    return layout_1(encoding_v0())
