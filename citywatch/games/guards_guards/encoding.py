"""Guards! Guards! for learning agents: a fixed action space and a fixed observation vector.

``observation(state, seat)`` encodes the facts of ``state.view(seat)`` (rulings 69-70) as a
float32 vector of ``OBS_SIZE`` numbers; ``action_mask(state)`` marks the legal actions.

**Version.** ``VERSION`` numbers this layout; the environment is
``citywatch_<game>_v<VERSION>``. Raise it by one with any change to the tables below (a block
or verb added, moved, resized, renamed or rescaled, or what a number or an action means) and
pin the new ``Encoding.fingerprint()`` under it in ``tests/encodings.json``;
``tests/test_encodings.py`` checks the tables against the code and the fingerprint against the
pin.

**Observation.** 3048 numbers (``OBS_SIZE``), the same for every player count, each from 0
to its block's max (``OBS_HIGH``; the numbers marked clipped are cut to it). Seats are
absolute and blocks of seats a game lacks stay 0; a ``[seat][tile]`` block holds seat ``s``,
tile ``t`` at ``start + len(TILES) * s + t`` (and alike). Tiles, volunteers, scrolls, items,
Guild Cards, dragons, quadrants and spell colours are numbered in the data's order.
``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size   max  what
    turn                           0     1  9999  turns begun (clipped)
    dollars                        1     6    99  ``[seat]``: each seat's dollars (clipped)
    levels                         7    36    10  ``[seat][6]``: magic, guild and charm as printed,
                                                  then each as it counts now (clipped at 10)
    counts                        43    24    90  ``[seat][4]``: volunteers in hand, scrolls, items,
                                                  saboteurs planted
    missed_turns                  67     6     9  ``[seat]``: turns the seat still misses (clipped)
    runners                       73    12     6  ``[seat][2]``: the seat's spell run: runners on
                                                  the way, runners at the gate (clipped)
    deck_sizes                    85     9    90  cards in the 3 face-down volunteer decks, the Fate
                                                  deck, the 4 card decks, the dragon pile (clipped)
    seat                          94     6     1  one-hot: the observing seat
    players                      100     5     1  one-hot: 2 to 6 players
    current                      105     6     1  one-hot: whose turn it is
    to_move                      111     6     1  one-hot: who decides now (0 when over)
    decision                     117    23     1  one-hot: the kind of pending decision
                                                  (``FRAME_KINDS``, sorted)
    position                     140   948     1  ``[seat][tile]``: where each seat stands
    gate                        1088   948     1  ``[seat][tile]``: each seat's gate
    guild_card                  2036    48     1  ``[seat][Guild Card]``: each seat's Guild Card
    returned                    2084    48     1  ``[seat][spell colour]``: Great Spells each seat
                                                  returned
    run_spell                   2132    48     1  ``[seat][spell colour]``: the spell of each seat's
                                                  run
    flags                       2180    18     1  ``[seat][3]``: has the pox, is jailed, has fire
                                                  water placed on it
    luggage                     2198   158     1  ``[tile]``: where the Luggage is
    dragons                     2356    16     1  ``[quadrant][dragon]``: the dragon in each
                                                  quadrant
    face_up                     2372    90     1  ``[volunteer]``: the top face-up volunteer of each
                                                  volunteer deck
    discarded                   2462    90     1  ``[volunteer]``: volunteers in the discard piles
    hand                        2552    90     1  ``[volunteer]``: the observing seat's hand
    own_scrolls                 2642    20     1  ``[scroll]``: the observing seat's scrolls
    own_items                   2662    20     1  ``[item]``: the observing seat's items
    own_saboteurs               2682   360     1  ``[quadrant][volunteer]``: the observing seat's
                                                  saboteurs
    winners                     3042     6     1  the winners, at the end

**Actions.** 51,477 (``NUM_ACTIONS``): every declared verb (``actions.VERBS``) with every value
of its fields, numbered by ``citywatch.core.spaces.ActionSpace``: verbs in name order, and
within a verb its fields as mixed-radix digits, the first field most significant, each digit
the field's value + 1 (-1, unused, is 0), so a field of N values takes N + 1 digits. A field's
kind gives its values: tiles, volunteers, scrolls, items, Fate cards, dragons, Guild Cards,
seats 0-5, quadrants, decks, attributes (3), stats (4), spell colours, a ``number`` 0 to
``MAX_NUMBER`` and a ``route`` code (``actions.ROUTE_CODES``). ``ACTIONS`` and ``INDEX``
compute an action from its number and back without listing them; ``VERB_RANGES[verb]`` is
``(start, stop)``. Fields below: name (kind, values)::

    verb                   start    size  values
    add_runner                 0    1911  volunteer (90) x item (20)
    alter_allegiance        1911       7  target (seat, 6)
    ambush                  1918       7  target (seat, 6)
    bribe_volunteer         1925    3822  volunteer (90) x dollars (number, 41)
    buy_item                5747     882  item (20) x dollars (number, 41)
    buy_point               6629     168  attribute (3) x dollars (number, 41)
    buy_scroll              6797     882  scroll (20) x dollars (number, 41)
    cake_allow              7679      37  fate (36)
    cake_cancel             7716      37  fate (36)
    cast                    7753      21  scroll (20)
    cast_on_player          7774     147  scroll (20) x target (seat, 6)
    cast_on_quadrant        7921     105  scroll (20) x quadrant (4)
    cast_on_volunteer       8026    1911  scroll (20) x target (volunteer, 90)
    cast_plain              9937      21  scroll (20)
    cast_to_tile            9958    3339  scroll (20) x tile (158)
    charm_volunteer        13297    3822  volunteer (90) x charm (number, 41)
    choose_guild           17119    1431  guild_card (8) x gate (tile, 158)
    choose_route           18550    3126  via (route, 3125)
    collect_pay            21676    6678  tile (158) x dollars (number, 41)
    collect_spell          28354       9  spell (8)
    cure_here              28363     159  tile (158)
    defend_with            28522    1911  volunteer (90) x item (20)
    discard_to_cure        30433      91  volunteer (90)
    done_here              30524     159  tile (158)
    draw_from              30683    6678  shop (tile, 158) x cards (number, 41)
    end_movement           37361     159  tile (158)
    end_turn               37520       1
    fight_dragon           37521       5  quadrant (4)
    friend_deck            37526       4  deck (3)
    give_up_wanted         37530      91  volunteer (90)
    go_to_hospital         37621       1
    jail_bail              37622      42  dollars (number, 41)
    jail_charm             37664      42  charm (number, 41)
    jail_slant             37706       1
    jail_stay              37707       1
    keep_ook               37708       1
    leave_item             37709      21  item (20)
    let_go                 37730      91  volunteer (90)
    let_it_happen          37821       1
    let_mover_pass         37822       7  target (seat, 6)
    let_pass               37829       7  target (seat, 6)
    let_volunteer_go       37836      91  volunteer (90)
    luggage_tiles          37927      42  tiles (number, 41)
    luggage_way            37969     159  tile (158)
    move_to                38128     159  tile (158)
    new_run                38287       9  spell (8)
    no_extra_volunteer     38296       1
    no_magic               38297       1
    no_more_fighters       38298       1
    pay_beggars            38299      42  dollars (number, 41)
    plant                  38341     455  volunteer (90) x quadrant (4)
    plant_item             38796      21  item (20)
    plant_no_item          38817       1
    raise_attribute        38818       4  attribute (3)
    recall                 38822     455  quadrant (4) x volunteer (90)
    recall_to_fight        39277      91  volunteer (90)
    recruit_here           39368     636  tile (158) x deck (3)
    replant                40004     455  volunteer (90) x quadrant (4)
    resurrect              40459      91  volunteer (90)
    retry_challenge        40550      42  challenge (number, 41)
    send_fighter           40592    1911  volunteer (90) x item (20)
    send_to_gate           42503    1911  volunteer (90) x item (20)
    spend_fate_point       44414       4  attribute (3)
    staff_on               44418     455  volunteer (90) x stat (4)
    summon_dragon          44873     455  quadrant (4) x discard (volunteer, 90)
    take_face_up           45328      91  volunteer (90)
    take_item              45419      21  item (20)
    take_the_pox           45440       1
    taken_to               45441     159  watch_house (tile, 158)
    tavern_here            45600     159  tile (158)
    try_plant              45759      42  guild (number, 41)
    turn_in                45801    3822  volunteer (90) x dollars (number, 41)
    turn_over              49623       4  deck (3)
    use_cure_all           49627       1
    use_guild_ability      49628      63  guild_card (8) x target (seat, 6)
    use_item               49691      21  item (20)
    use_ook                49712    1764  total (number, 41) x target (number, 41)
    use_wand               51476       1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from citywatch.core.presentation import Encoding
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

VERSION = 0
"""The layout's version (the environment's ``_v<VERSION>``): raise it by one with any change to
the layout the module's docstring gives, and pin the new fingerprint (``tests/encodings.json``)."""

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
VERB_RANGES: dict[str, tuple[int, int]] = {name: SPACE.verb_range(name) for name in VERB_NAMES}
"""Verb -> (first number, one past the last) of its actions."""


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


COUNTED = DECK_SIZES + 9
"""The numbers before this one are the counts (every block before ``seat``); the rest are 0 or
1."""
_SPELLS, _GUILDS, _DRAGONS = len(SPELL_COLOURS), len(GUILD_CARDS), len(DRAGONS)


def observation(state: GuardsGuardsState, seat: int) -> Vector:
    """What ``seat`` may see of ``state`` (the facts of its view), as a vector."""
    s = state
    n = s.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    counts = [0] * COUNTED  # built as a list and copied in once: numpy's item writes are slow
    counts[TURN] = min(s.turn, MAX_TURN)
    ones = [SEAT + seat, PLAYERS + n - 2, CURRENT + s.current]
    level = s.level
    for p in range(n):
        counts[DOLLARS + p] = min(s.dollars[p], MAX_DOLLARS)
        at = LEVELS + 6 * p
        counts[at:at + 3] = s.attrs[p][:3]
        counts[at + 3:at + 6] = [min(10, level(p, a)) for a in range(3)]
        at = COUNTS + 4 * p
        counts[at:at + 4] = (
            len(s.hand[p]), len(s.scrolls[p]), len(s.items[p]), len(s.saboteurs[p]))
        counts[WAITING + p] = min(9, s.missed[p])
        run = s.run[p]
        if run is not None:
            counts[AT_GATE + 2 * p] = min(6, len(run.runners))
            counts[AT_GATE + 2 * p + 1] = min(6, len(run.at_gate))
            ones.append(RUN + p * _SPELLS + run.colour)
        if s.pos[p] >= 0:
            ones.append(POSITION + p * NT + s.pos[p])
            ones.append(GATE + p * NT + s.gate[p])
        if s.guild[p] >= 0:
            ones.append(GUILD + p * _GUILDS + s.guild[p])
        ones += [RETURNED + p * _SPELLS + c for c in s.returned[p]]
        if s.pox[p]:
            ones.append(FLAGS + 3 * p)
        if s.jailed[p]:
            ones.append(FLAGS + 3 * p + 1)
        if s.flasks[p]:
            ones.append(FLAGS + 3 * p + 2)
    sizes = [*map(len, s.vol_down), len(s.fate_deck), *map(len, s.decks), len(s.dragon_pile)]
    counts[DECK_SIZES: DECK_SIZES + len(sizes)] = [min(NV, x) for x in sizes]
    if s.result is None and s.stack:
        f = s.stack[-1]
        if f[1] >= 0:
            ones.append(TO_MOVE + f[1])
        ones.append(FRAME + _FRAME[f[0]])
    if s.luggage >= 0:
        ones.append(LUGGAGE + s.luggage)
    ones += [DRAGON + q * _DRAGONS + d for q, d in enumerate(s.dragons) if d >= 0]
    for d in range(3):
        ones += [FACE_UP + v for v in s.vol_up[d][-1:]]
        ones += [DISCARD + v for v in s.vol_discard[d]]
    ones += [HAND + v for v in s.hand[seat]]
    ones += [OWN_SCROLLS + c for c in s.scrolls[seat]]
    ones += [OWN_ITEMS + c for c in s.items[seat]]
    ones += [OWN_SABOTEURS + q * NV + v for q, v, _ in s.saboteurs[seat]]
    if s.result is not None:
        ones += [WINNERS + w for w in s.result.winners]
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[:COUNTED] = counts
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    return out


__all__ = ["ACTIONS", "INDEX", "OBS_HIGH", "OBS_SIZE", "action_mask", "observation"]


def encoding_v0() -> Encoding:
    """Layout 0: the flat action space and the unscaled observation above."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES)
