"""Ankh-Morpork for learning agents, layout 1: layout 0 scaled to [0, 1], and a potential.

The actions are layout 0's (``encoding.py``: ``ACTIONS``, ``INDEX``, the mask), flat: 5393 of
them. The observation has layout 0's 1563 numbers in layout 0's blocks, each divided by its
block's scale and clipped to 1 (``Encoding.scale``; ``observation_high`` is 1.0 throughout),
so it is built, like layout 0's, from the facts of ``state.view(seat)`` only.

**Scales.** A block keeps layout 0's max where the rules bound it closely (pieces, the deck,
the events: the max is reached or nearly); the four below were far from anything a game
reaches and are measured instead, over 600 seeded random games (seeds 0-599, 2, 3 and 4
players in turn, every decision, every seat; the largest value seen is in brackets), with
headroom for longer or richer games: a larger value is clipped to 1.

- ``turn``: 100 (76). Every turn draws at least one card, so no game is much longer than the
  opening draw pile (89 cards at most).
- ``money``: 100 (75). Chrysoprase wins at a net worth of 50.
- ``hand_size``: 20 (14).
- ``unused_personalities``: 4, the most there can be (7 cards, less the 2 to 4 dealt, less
  Chrysoprase at 2 players).

**Potential** (``Encoding.potential``, for the environment's optional shaped rewards): the
mean of the two ways a game is won (rulebook, Winning the Game and End of the Game).
``personality_share``: how far the seat's own secret personality is from its win, as the
view's ``progress`` shows the seat: ``have / need`` (areas controlled, areas with a minion,
trouble markers, net worth), clipped to [0, 1]; for Commander Vimes, who wins when the draw
pile runs out, the share of the opening draw pile drawn so far. ``points_share``: the seat's
share of the points every seat would score were the game to end now (``scoring.points``,
ruling 25; a negative score counts 0, an even share while nobody has any), which decides
most games, the ones the draw pile ends. A seat sees its own personality only, and the
points are public (minions, buildings, money, loans), so the potential is the seat's.

**Observation.** 1563 numbers in [0, 1]; ``[seat][area]`` and the other pairs as in layout 0.
``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size  scale  what
    turn                           0     1    100  turns begun
    draw_pile_size                 1     1    101  cards left to draw
    events_left                    2     1     12  random events not yet drawn
    unused_personalities           3     1      4  personality cards nobody holds
    money                          4     4    100  each seat's money
    hand_size                      8     4     20  each seat's number of cards in hand
    minions_in_supply             12     4     12  each seat's minions off the board
    buildings_in_supply           16     4      6  each seat's buildings off the board
    minions                       20    48     12  minions, ``[seat][area]``
    trolls                        68    12      3  trolls per area
    demons                        80    12      4  demons per area
    trouble                       92    12      1  trouble marker per area
    seat                         104     4      1  one-hot: the observing seat
    players                      108     3      1  one-hot: 2, 3 or 4 players
    current                      111     4      1  one-hot: whose turn it is
    to_move                      115     4      1  one-hot: who decides now (0 when over)
    decision                     119    12      1  one-hot: the kind of pending decision
    text_step                    131    29      1  one-hot: the card-text step (kind ``fx``)
    building                     160    48      1  buildings, ``[seat][area]``
    area_card                    208    60      1  City Area card owner, ``[seat][area]``; row 4 =
                                                   out of the game
    powers_used                  268    12      1  area powers used this turn
    gained_this_turn             280    12      1  area cards gained this turn
    immune                       292     4      1  seats shielded by Wallace Sonky from the text
    text_asked                   296     4      1  seats already offered Wallace Sonky
    personality                  300    28      1  ``[seat][personality]``: own personality;
                                                   everyone's at the end
    seen_personalities           328     7      1  unused personalities this seat saw (Mrs Cake)
    known_hands                  335   404      1  ``[seat][card]``: own hand, and hands shown
    in_front                     739   404      1  ``[seat][card]``: cards in front of each seat
    discard_pile                1143   101      1  cards in the discard pile
    in_play                     1244   101      1  cards in play
    out_of_game                 1345   101      1  cards out of the game
    played_this_turn            1446   101      1  cards played this turn
    events_done                 1547    12      1  random events already drawn
    winners                     1559     4      1  the winners, at the end

**Actions.** 5393, layout 0's: the same verbs and numbers (``VERB_RANGES[verb]`` is
``(start, stop)``); ``encoding``'s docstring holds the table.
"""

from __future__ import annotations

from citywatch.core.presentation import Encoding
from citywatch.core.scaling import scaled
from citywatch.games.ankh_morpork.data import (
    CARDS,
    HAND_SIZE,
    PERSONALITIES,
    TWO_PLAYER_REMOVED_CARDS,
    TWO_PLAYER_REMOVED_PERSONALITIES,
)
from citywatch.games.ankh_morpork.encoding import encoding_v0
from citywatch.games.ankh_morpork.scoring import points
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.games.ankh_morpork.view import progress

VERSION = 1
"""The layout's version (the environment's ``_v1``)."""

PLAYER_COUNTS = (2, 3, 4)


def _left(total: int, per_seat: int, removed_at_two: int, players: int) -> int:
    """What is left of ``total`` after ``per_seat`` each, less ``removed_at_two`` at 2."""
    return total - per_seat * players - (removed_at_two if players == 2 else 0)


OPENING_DRAW_PILE = {n: _left(len(CARDS), HAND_SIZE, len(TWO_PLAYER_REMOVED_CARDS), n)
                     for n in PLAYER_COUNTS}
"""Players -> the draw pile's size once the hands are dealt."""
MOST_UNUSED_PERSONALITIES = max(
    _left(len(PERSONALITIES), 1, len(TWO_PLAYER_REMOVED_PERSONALITIES), n)
    for n in PLAYER_COUNTS)

SCALES: dict[str, float] = {
    "turn": 100.0,
    "money": 100.0,
    "hand_size": 20.0,
    "unused_personalities": float(MOST_UNUSED_PERSONALITIES),
}
"""The blocks whose scale is not layout 0's max (the docstring says why each)."""


def personality_share(state: AnkhMorporkState, seat: int) -> float:
    """How near ``seat``'s own personality is to its win, in [0, 1]: the ``progress`` entry of
    ``state.view(seat)`` (built by the view's own ``progress``, without the rest of the view)
    and the view's ``draw_pile_size`` for Commander Vimes."""
    own = progress(state, seat)
    if own["need"]:
        share = own["have"] / own["need"]
    else:  # Commander Vimes: the opening draw pile drawn so far
        share = 1.0 - len(state.draw_pile) / OPENING_DRAW_PILE[state.n]
    return min(max(float(share), 0.0), 1.0)


def points_share(state: AnkhMorporkState, seat: int) -> float:
    """``seat``'s share of the points all seats would score now (negative scores count 0;
    an even share while no seat has any)."""
    scores = [max(score, 0) for score in points(state)]
    total = sum(scores)
    return scores[seat] / total if total else 1.0 / state.n


def potential(state: AnkhMorporkState, seat: int) -> float:
    """The mean of ``personality_share`` and ``points_share``, in [0, 1]."""
    return 0.5 * personality_share(state, seat) + 0.5 * points_share(state, seat)


def layout_1(unscaled: Encoding) -> Encoding:
    """Layout 1 from layout 0 (``unscaled``): scaled by ``SCALES``, with ``potential``."""
    return scaled(unscaled, SCALES, VERSION, potential, __name__)


def encoding_v1() -> Encoding:
    """Layout 1: layout 0 scaled to [0, 1], with a potential."""
    return layout_1(encoding_v0())
