"""Guards! Guards! for learning agents, layout 1: actions chosen head by head, a scaled observation.

The environment ``citywatch_guards_guards_v1`` (``encoding(1)``, the newest). It keeps layout
0's action numbering (``encoding.ACTIONS``, ``INDEX``, ``action_mask``: the table below) and
its observation blocks (``encoding.observation``: the facts of ``state.view(seat)``, rulings
69-70); what changes is how an agent chooses an action and the range of each number.

**Heads.** An action is chosen head by head (``Encoding.heads`` = ``HEADS``, ``parts``;
``citywatch.env.factored``): the environment's action space is ``Discrete(159)``, and each
step's mask marks the values of the head to choose that some legal action allows given the
heads chosen so far. A head with one legal value is taken without a step, and the action is
applied once the heads name one legal action. Six heads, ``(78, 159, 159, 6, 6, 6)``:

    head  size  values
    0       78  the verb, numbered in name order (the action table below)
    1      159  the first field's value + 1 (0: unused): a tile (158), a volunteer (90),
                a number 0-40 (41), ...; for ``choose_route``, the route's first digit + 1
    2      159  the second field's value + 1 (0: unused); for ``choose_route``, the route's
                second digit + 1
    3-5      6  ``choose_route`` only: the route's third, fourth and fifth digits + 1;
                0 for every other verb

A route (``actions.ROUTE_CODES``) is five base-5 digits, lowest first: its quadrants in order,
each quadrant + 1, then 0 past its end; on its head each digit is + 1 like any field (so 1
is "no further quadrant", 2 to 5 the quadrants, and 0 only an unused field). Split so
(``DIGITS``) rather than taking one head of 3,126 values, the widest head is a tile's 159
values, not 3,126, at every step, and a route is chosen a quadrant at a time, from at most
five values, as a player traces it on the board.

**Observation.** 3048 numbers (``OBS_SIZE``), each in [0, 1] (``OBS_HIGH`` all 1.0): layout
0's vector with every number divided by its block's scale (``SCALE``) and clipped to 1.
Layout 0's ``deck_sizes`` is cut into four blocks (``SPLIT``) so that each has a scale of its
own; every number stays where it was. A scale is the largest value its block reached in 300
random games (seeds 1000-1299) and 200 games of the heuristic bot (seeds 5000-5199), 2 to 6
players in turn (``SCALES``); one-hot blocks have scale 1. Seats are absolute and blocks of
seats a game lacks stay 0; a ``[seat][tile]`` block holds seat ``s``, tile ``t`` at
``start + len(TILES) * s + t`` (and alike). ``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size scale  what
    turn                           0     1   600  turns begun (100 rounds of 6 seats)
    dollars                        1     6    44  ``[seat]``: each seat's dollars
    levels                         7    36     8  ``[seat][6]``: magic, guild and charm as
                                                  printed, then each as it counts now
    counts                        43    24     9  ``[seat][4]``: volunteers in hand, scrolls,
                                                  items, saboteurs planted
    missed_turns                  67     6     1  ``[seat]``: the seat misses its next turn
                                                  (one or more turns to miss)
    runners                       73    12     6  ``[seat][2]``: the seat's spell run: runners
                                                  on the way, runners at the gate
    volunteer_decks               85     3    30  cards in the 3 face-down volunteer decks
    fate_deck                     88     1    36  cards in the Fate deck
    card_decks                    89     4    14  cards in the 4 Scroll and Item decks
    dragon_pile                   93     1     4  cards in the dragon pile
    seat                          94     6     1  one-hot: the observing seat
    players                      100     5     1  one-hot: 2 to 6 players
    current                      105     6     1  one-hot: whose turn it is
    to_move                      111     6     1  one-hot: who decides now (0 when over)
    decision                     117    23     1  one-hot: the kind of pending decision
                                                  (``FRAME_KINDS``, sorted)
    position                     140   948     1  ``[seat][tile]``: where each seat stands
    gate                        1088   948     1  ``[seat][tile]``: each seat's gate
    guild_card                  2036    48     1  ``[seat][Guild Card]``: each seat's Guild Card
    returned                    2084    48     1  ``[seat][spell colour]``: Great Spells each
                                                  seat returned
    run_spell                   2132    48     1  ``[seat][spell colour]``: the spell of each
                                                  seat's run
    flags                       2180    18     1  ``[seat][3]``: has the pox, is jailed, has
                                                  fire water placed on it
    luggage                     2198   158     1  ``[tile]``: where the Luggage is
    dragons                     2356    16     1  ``[quadrant][dragon]``: the dragon in each
                                                  quadrant
    face_up                     2372    90     1  ``[volunteer]``: the top face-up volunteer of
                                                  each volunteer deck
    discarded                   2462    90     1  ``[volunteer]``: volunteers in the discard
                                                  piles
    hand                        2552    90     1  ``[volunteer]``: the observing seat's hand
    own_scrolls                 2642    20     1  ``[scroll]``: the observing seat's scrolls
    own_items                   2662    20     1  ``[item]``: the observing seat's items
    own_saboteurs               2682   360     1  ``[quadrant][volunteer]``: the observing
                                                  seat's saboteurs
    winners                     3042     6     1  the winners, at the end

**Potential.** ``potential(state, seat)`` (``Encoding.potential``, for the environment's
``shaping``) follows the order in which a game is judged (Winning the Game, and the Short
Game's spells, then dollars; ruling 48): ``0.9 * spells + 0.1 * purse``, at most 1, where
``spells`` is the seat's Great Spells returned over the spells it needs to win
(``spells_to_win``, 5 unless the Short Game sets fewer) and ``purse`` its share of all the
seats' dollars (an even share while nobody has any). One spell (at least 0.9 / 5 = 0.18)
always outweighs the whole purse (0.1), as a spell outweighs any dollars in the judging.
Returned spells and dollars are public in every view.

**Actions.** 51,477 (``NUM_ACTIONS``), numbered as in layout 0 (``encoding``'s docstring
explains the numbering and the field kinds and holds the table); head 0 numbers the verbs in
that table's order.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from citywatch.core.presentation import Encoding
from citywatch.core.spaces import Layout
from citywatch.games.guards_guards import encoding as v0
from citywatch.games.guards_guards.actions import VERBS, Action
from citywatch.games.guards_guards.state import GuardsGuardsState

VERSION = 1
"""The layout's version (the environment's ``_v<VERSION>``): raise it by one with any change to
the layout the module's docstring gives, and pin the new fingerprint (``tests/encodings.json``)."""

# --- the observation --------------------------------------------------------------------------
SPLIT: Mapping[str, tuple[tuple[str, int], ...]] = {
    "deck_sizes": (("volunteer_decks", 3), ("fate_deck", 1), ("card_decks", 4),
                   ("dragon_pile", 1)),
}
"""Layout 0's blocks that layout 1 cuts into smaller blocks (name, size), each with its own
scale; every number stays where it is."""
SCALES: Mapping[str, float] = {
    "turn": 600, "dollars": 44, "levels": 8, "counts": 9, "missed_turns": 1, "runners": 6,
    "volunteer_decks": 30, "fate_deck": 36, "card_decks": 14, "dragon_pile": 4,
}
"""Block -> what 1.0 stands for: the largest value the block reached in 300 random games
(seeds 1000-1299) and 200 games of the heuristic bot (seeds 5000-5199), 2 to 6 players in
turn; larger values are clipped to 1. Every other block is 0 or 1 already (scale 1)."""


def _layout() -> Layout:
    """Layout 0's blocks in order, those of ``SPLIT`` cut, each with its scale."""
    layout = Layout()
    for name, (_, size) in v0.LAYOUT.items():
        for part, length in SPLIT.get(name, ((name, size),)):
            layout.block(part, length, SCALES.get(part, 1.0))
    return layout


_OBSERVATION = _layout()
LAYOUT = _OBSERVATION.blocks
"""Block name -> (start, size) in the observation vector, in order."""
SCALE = np.array(_OBSERVATION.high, dtype=np.float32)
"""What 1.0 stands for, number by number."""
OBS_SIZE = len(SCALE)
OBS_HIGH = np.ones(OBS_SIZE, dtype=np.float32)
_COUNTED = max(start + size for name, (start, size) in LAYOUT.items() if name in SCALES)
"""The numbers before this one hold every block with a scale other than 1."""
_INVERSE = (1.0 / SCALE[:_COUNTED]).astype(np.float32)


def observation(state: GuardsGuardsState, seat: int) -> v0.Vector:
    """What ``seat`` may see of ``state``: layout 0's vector (the facts of its view), each
    number divided by its scale and clipped to 1."""
    out = v0.observation(state, seat)
    counted = out[:_COUNTED]
    counted *= _INVERSE
    np.minimum(counted, 1.0, out=counted)
    return out


# --- the actions, head by head ----------------------------------------------------------------
DIGITS: Mapping[str, tuple[int, ...]] = {"route": (5,) * 5}
"""A field kind chosen as several heads: the radix of each digit, lowest first (a route's five
quadrants in order, each quadrant + 1, 0 past its end: ``actions.ROUTE_CODES``); a head holds
a digit + 1, 0 when the field is unused."""


def _slots(verb: str) -> tuple[int, ...]:
    """How many values each head after the verb takes for ``verb``: a field's value + 1 (0 for
    unused), or each digit + 1 of a field of a ``DIGITS`` kind."""
    sizes: list[int] = []
    for _, kind in VERBS[verb].fields:
        digits = DIGITS.get(kind)
        sizes += (v0._KIND_SIZE[kind] + 1,) if digits is None else [r + 1 for r in digits]
    return tuple(sizes)


_VERB_SLOTS = {verb: _slots(verb) for verb in v0.VERB_NAMES}
_VERB_NUMBER = {verb: i for i, verb in enumerate(v0.VERB_NAMES)}
HEADS: tuple[int, ...] = (len(v0.VERB_NAMES), *(
    max(slots[k] for slots in _VERB_SLOTS.values() if k < len(slots))
    for k in range(max(map(len, _VERB_SLOTS.values())))))
"""Head 0: the verb (in name order); then the field heads, each as large as its largest use."""
_PARTS: dict[Action, tuple[int, ...]] = {}
"""``parts`` of each action asked so far (at most one entry per action of the space)."""


def parts(action: Action) -> tuple[int, ...]:
    """The value of ``action`` on each head (``HEADS``): its verb's number, then each field's
    value + 1 (each digit + 1 of a route), 0 on the heads it does not use."""
    found = _PARTS.get(action)
    if found is None:
        values = [_VERB_NUMBER[action.verb]]
        for (_, kind), value in zip(VERBS[action.verb].fields, action[1:], strict=False):
            radices = DIGITS.get(kind)
            if radices is None or value < 0:
                values += [value + 1] * (1 if radices is None else len(radices))
                continue
            for radix in radices:
                value, digit = divmod(value, radix)
                values.append(digit + 1)
        found = (*values, *[0] * (len(HEADS) - len(values)))
        _PARTS[action] = found
    return found


# --- the potential ----------------------------------------------------------------------------
SPELLS_WEIGHT = 0.9
"""The potential's weight on returned spells; the rest is the seat's share of the dollars."""


def potential(state: GuardsGuardsState, seat: int) -> float:
    """``0.9 * spells + 0.1 * purse``, at most 1: the share of the Great Spells ``seat`` must
    return to win that it has returned, and its share of all seats' dollars, the judging's
    tie break (public: returned spells, the spells to win and dollars are in every view)."""
    spells = min(1.0, len(state.returned[seat]) / state.spells_to_win)
    table = sum(state.dollars)
    purse = state.dollars[seat] / table if table else 1.0 / len(state.dollars)
    return min(1.0, SPELLS_WEIGHT * spells + (1.0 - SPELLS_WEIGHT) * purse)


def encoding_v1() -> Encoding:
    """Layout 1: the flat numbering of layout 0 chosen head by head, the observation scaled."""
    return Encoding(v0.ACTIONS, v0.INDEX, OBS_HIGH, observation, v0.action_mask, VERSION,
                    LAYOUT, v0.VERB_RANGES, heads=HEADS, parts=parts,
                    scale=tuple(_OBSERVATION.high), potential=potential)
