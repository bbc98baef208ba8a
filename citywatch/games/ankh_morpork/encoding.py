"""Ankh-Morpork for learning agents: a fixed action space and a fixed observation vector.

``ACTIONS`` enumerates, verb by verb, every ``Action`` value that can ever be legal in a
game of 2 to 4 players; ``INDEX`` is its inverse. ``observation(state, seat)`` encodes
exactly the facts of ``state.view(seat)`` as a float32 vector of ``OBS_SIZE`` numbers, and
``action_mask(state)`` marks the legal actions of the seat to move.

**Version.** ``VERSION`` numbers this layout; the environment is
``citywatch_<game>_v<VERSION>``. Raise it by one with any change to the tables below (a block
or verb added, moved, resized, renamed or rescaled, or what a number or an action means) and
pin the new ``Encoding.fingerprint()`` under it in ``tests/encodings.json``;
``tests/test_encodings.py`` checks the tables against the code and the fingerprint against the
pin.
Layout 1 (``encoding_v1.py``, the newest) is this one scaled to [0, 1], with a potential.

**Observation.** 1563 float32 numbers (``OBS_SIZE``), the same for every player count, each
from 0 to its block's max (``OBS_HIGH``): counts first, then 0/1 facts. Seats are absolute
(seat 0 is Red) and blocks of seats a game lacks stay 0; a ``[seat][area]`` block holds seat
``s``, area ``a`` at ``start + 12 * s + a`` (and alike for other pairs). Cards, areas, events
and personalities are numbered in the order of the game's data (``CARDS``, ``AREAS``,
``EVENTS``, ``PERSONALITIES``). Money is clipped at 999 and the turn at 9999. The vector
leaves out the order of the discard pile and the pending decision's details beyond its kind
(the mask lists the choices). ``LAYOUT[block]`` is ``(start, size)``::

    block                      start  size   max  what
    turn                           0     1  9999  turns begun
    draw_pile_size                 1     1   101  cards left to draw
    events_left                    2     1    12  random events not yet drawn
    unused_personalities           3     1     7  personality cards nobody holds
    money                          4     4   999  each seat's money
    hand_size                      8     4   101  each seat's number of cards in hand
    minions_in_supply             12     4    12  each seat's minions off the board
    buildings_in_supply           16     4     6  each seat's buildings off the board
    minions                       20    48    12  minions, ``[seat][area]`` (index ``20 + 12*seat +
                                                  area``)
    trolls                        68    12     3  trolls per area
    demons                        80    12     4  demons per area
    trouble                       92    12     1  trouble marker per area
    seat                         104     4     1  one-hot: the observing seat
    players                      108     3     1  one-hot: 2, 3 or 4 players
    current                      111     4     1  one-hot: whose turn it is
    to_move                      115     4     1  one-hot: who decides now (0 when over)
    decision                     119    12     1  one-hot: the kind of pending decision
                                                  (``FRAME_KINDS``, sorted)
    text_step                    131    29     1  one-hot: the card-text step when the kind is
                                                  ``fx`` (``FX_STEPS``)
    building                     160    48     1  buildings, ``[seat][area]``
    area_card                    208    60     1  City Area card owner, ``[seat][area]``; row 4 =
                                                  out of the game
    powers_used                  268    12     1  area powers used this turn
    gained_this_turn             280    12     1  area cards gained this turn (their power is
                                                  closed)
    immune                       292     4     1  seats shielded by Wallace Sonky from the current
                                                  text
    text_asked                   296     4     1  seats already offered Wallace Sonky for the
                                                  current text
    personality                  300    28     1  ``[seat][personality]``: own personality;
                                                  everyone's at the end
    seen_personalities           328     7     1  unused personalities this seat saw (Mrs Cake)
    known_hands                  335   404     1  ``[seat][card]``: own hand, and any hand shown to
                                                  this seat
    in_front                     739   404     1  ``[seat][card]``: cards lying in front of each
                                                  seat
    discard_pile                1143   101     1  cards in the discard pile
    in_play                     1244   101     1  cards in play
    out_of_game                 1345   101     1  cards out of the game
    played_this_turn            1446   101     1  cards played this turn
    events_done                 1547    12     1  random events already drawn
    winners                     1559     4     1  the winners, at the end

**Actions.** 5393 (``NUM_ACTIONS``): ``ACTIONS[i]`` is action ``i``, every
``Action(verb, card, area, seat, extra, other)`` the rules can produce, grouped by verb in the
order of the verb list, each group in the order of the loops in ``_VERBS`` (the first value
slowest). Seats range over 0-3 whatever the player count. ``VERB_RANGES[verb]`` is
``(start, stop)``::

    verb                   start    size  values
    play                       0      95  card: every card but the six interrupts
    pass                      95       1
    skip                      96     161  card, symbol index: each symbol but "play another card"
                                          and "random event"
    stop                     257       1
    end_turn                 258       1
    place_minion             259     144  area x lift (-1, or the other 11 areas)
    place_building           403     288  area x cost (full or half) x lift of a building (-1 or
                                          another area)
    assassinate              691      72  area x owner (seats 0-3, troll 4, demon 5)
    remove_trouble           763      12  area
    take_money               775       5  the amounts printed on money symbols ($1-$5)
    scroll                   780      70  the cards with a scroll symbol
    event                    850       1
    power                    851     219  per area power: money (its amount), The Shades (an area
                                          next to it or itself), Dolly Sisters / Dimwell (such an
                                          area x lift), The Scours (any card), Isle of Gods (any
                                          area), Unreal Estate
    mossy                   1070      95  the card taken back: any card but the interrupts
    protect                 1165       6  the five protecting interrupts, and Small Gods
    allow                   1171       1
    target                  1172      44  the 11 cards whose text chooses a player x seat
    give_card               1216     404  card x seat
    discard                 1620     505  card x (own: -1, or the seat made to discard)
    pay_bank                2125       1  CMOT Dibbler's $2
    done                    2126       1
    pay                     2127      12  seat x the amounts texts demand ($1, $2, $5)
    refuse                  2139       1
    take_card_in_front      2140       2  Dr Whiteface, The Fools' Guild
    move_minion             2142     528  area x seat x destination (another area)
    remove_minion           2670      72  area x owner
    remove_building         2742      48  area x seat
    replace_building        2790     576  area x seat x lift of own building
    place_trouble           3366      12  area
    choose_area             3378      12  area
    swap_personality        3390       1
    swap_minions            3391    1980  (area, owner) x (a later area, another owner)
    hubert                  5371      12  payer x payee, different seats
    keep_here               5383      10  the areas on the river (only the Flood asks)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from citywatch.core.presentation import Encoding
from citywatch.games.ankh_morpork import rules  # noqa: F401  (registers every frame handler)
from citywatch.games.ankh_morpork.actions import _TEXTS, Action
from citywatch.games.ankh_morpork.data import (
    ADJACENT_OR_SELF,
    AREAS,
    BUILDINGS_PER_PLAYER,
    CARDS,
    DEMON,
    DEMONS,
    EVENTS,
    MINIONS_PER_PLAYER,
    MONEY,
    NUM_AREAS,
    PERSONALITIES,
    PLAY_ANOTHER,
    RANDOM_EVENT,
    SCROLL,
    SMALL_GODS,
    TROLL,
    TROLLS,
)
from citywatch.games.ankh_morpork.effects import STEP_LEGAL, TARGETS
from citywatch.games.ankh_morpork.frames import HANDLERS
from citywatch.games.ankh_morpork.harm import INTERRUPT_KIND
from citywatch.games.ankh_morpork.state import GONE, AnkhMorporkState
from citywatch.games.ankh_morpork.view import revealed_hands

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

VERSION = 0
"""The layout's version (the environment's ``_v<VERSION>``): raise it by one with any change to
the layout the module's docstring gives, and pin the new fingerprint (``tests/encodings.json``)."""

MAX_SEATS = 4
OWNERS = (*range(MAX_SEATS), TROLL, DEMON)  # pieces: the seats' minions, trolls, demons
NUM_CARDS = len(CARDS)
NUM_PEOPLE = len(PERSONALITIES)
NUM_EVENTS = len(EVENTS)
MAX_MONEY = 999  # money and turn are clipped to these so the observation box is finite
MAX_TURN = 9999

# --- the action space -------------------------------------------------------------------------
_AREAS = range(NUM_AREAS)
_SEATS = range(MAX_SEATS)
_PLAYABLE = tuple(c.index for c in CARDS if not c.is_interrupt)  # interrupts are never played
_PROTECTING = ("wallace", "gaspode", "susan", "relocate")  # Mossy Lawn is played as "mossy"


def _lifts(area: int) -> list[int]:
    """No lift (-1), or any other area a piece or building may be taken from."""
    return [-1, *(b for b in _AREAS if b != area)]


def _param(key: str, *effects: str) -> list[int]:
    """The distinct values of ``key`` in the parameters of cards with one of ``effects``."""
    return sorted({c.params[key] for c in CARDS if c.effect in effects})


def _power_actions() -> list[Action]:
    out: list[Action] = []
    for area in AREAS:
        a, kind, params = area.index, area.power_kind, area.power_params
        if kind == "money":
            out.append(Action("power", area=a, extra=params["money"]))
        elif kind == "trouble_near":
            out += [Action("power", area=a, extra=t) for t in sorted(ADJACENT_OR_SELF[a])]
        elif kind == "minion_near":
            out += [Action("power", area=a, extra=t, other=lift)
                    for t in sorted(ADJACENT_OR_SELF[a]) for lift in _lifts(t)]
        elif kind == "discard_for_money":
            out += [Action("power", area=a, extra=c) for c in range(NUM_CARDS)]
        elif kind == "remove_trouble":
            out += [Action("power", area=a, extra=t) for t in _AREAS]
        elif kind == "draw_then_discard":
            out.append(Action("power", area=a))
        elif kind != "small_gods":  # Small Gods is paid through "protect" and "keep_here"
            raise ValueError(f"no actions known for the area power {kind!r}")
    return out


# verb -> every value of that verb that can be legal, in a fixed order
_VERBS: dict[str, Callable[[], list[Action]]] = {
    "play": lambda: [Action("play", card=c) for c in _PLAYABLE],
    "pass": lambda: [Action("pass")],
    "skip": lambda: [Action("skip", card=c, extra=i) for c in _PLAYABLE
                     for i, sym in enumerate(CARDS[c].symbols)
                     if sym.kind not in (PLAY_ANOTHER, RANDOM_EVENT)],
    "stop": lambda: [Action("stop")],
    "end_turn": lambda: [Action("end_turn")],
    "place_minion": lambda: [Action("place_minion", area=a, extra=lift)
                             for a in _AREAS for lift in _lifts(a)],
    "place_building": lambda: [
        Action("place_building", area=a, extra=lift, other=cost)
        for a in _AREAS for cost in sorted({AREAS[a].cost, AREAS[a].cost // 2})
        for lift in _lifts(a)],
    "assassinate": lambda: [Action("assassinate", area=a, seat=o) for a in _AREAS for o in OWNERS],
    "remove_trouble": lambda: [Action("remove_trouble", area=a) for a in _AREAS],
    "take_money": lambda: [Action("take_money", extra=m) for m in sorted(
        {s.amount for c in CARDS for s in c.symbols if s.kind == MONEY})],
    "scroll": lambda: [Action("scroll", card=c) for c in _PLAYABLE
                       if any(s.kind == SCROLL for s in CARDS[c].symbols)],
    "event": lambda: [Action("event")],
    "power": _power_actions,
    "mossy": lambda: [Action("mossy", card=c) for c in _PLAYABLE],
    "protect": lambda: [
        *(Action("protect", card=c) for c, kind in sorted(INTERRUPT_KIND.items())
          if kind in _PROTECTING),
        Action("protect", area=SMALL_GODS)],
    "allow": lambda: [Action("allow")],
    "target": lambda: [Action("target", card=c.index, seat=t) for c in CARDS
                       if c.effect in TARGETS or c.effect == "here_n_now" for t in _SEATS],
    "give_card": lambda: [Action("give_card", card=c, seat=t)
                          for c in range(NUM_CARDS) for t in _SEATS],
    "discard": lambda: [Action("discard", card=c, seat=t)
                        for c in range(NUM_CARDS) for t in (-1, *_SEATS)],
    "pay_bank": lambda: [Action("pay_bank", extra=m) for m in _param("pay", "cmot")],
    "done": lambda: [Action("done")],
    "pay": lambda: [Action("pay", seat=t, extra=m) for t in _SEATS for m in _param(
        "money", "sunshine", "whiteface", "hobsons", "burleigh", "fire_brigade")],
    "refuse": lambda: [Action("refuse")],
    "take_card_in_front": lambda: [Action("take_card_in_front", card=c.index) for c in CARDS
                                   if c.effect == "whiteface"],
    "move_minion": lambda: [Action("move_minion", area=a, seat=t, extra=b)
                            for a in _AREAS for t in _SEATS for b in _AREAS if b != a],
    "remove_minion": lambda: [Action("remove_minion", area=a, seat=o)
                              for a in _AREAS for o in OWNERS],
    "remove_building": lambda: [Action("remove_building", area=a, seat=t)
                                for a in _AREAS for t in _SEATS],
    "replace_building": lambda: [Action("replace_building", area=a, seat=t, extra=lift)
                                 for a in _AREAS for t in _SEATS for lift in _lifts(a)],
    "place_trouble": lambda: [Action("place_trouble", area=a) for a in _AREAS],
    "choose_area": lambda: [Action("choose_area", area=a) for a in _AREAS],
    "swap_personality": lambda: [Action("swap_personality")],
    # the first piece is always in the lower-numbered area, and the owners differ
    "swap_minions": lambda: [Action("swap_minions", area=a1, seat=o1, extra=a2, other=o2)
                             for a1 in _AREAS for o1 in OWNERS
                             for a2 in range(a1 + 1, NUM_AREAS) for o2 in OWNERS if o2 != o1],
    "hubert": lambda: [Action("hubert", seat=p, other=q) for p in _SEATS for q in _SEATS
                       if p != q],
    # only the Flood asks, and it floods only areas on the river
    "keep_here": lambda: [Action("keep_here", area=a.index) for a in AREAS if a.borders_river],
}

if set(_VERBS) != set(_TEXTS):  # pragma: no cover - a new verb needs its actions listed here
    raise RuntimeError(f"verbs without a place in the action space: {set(_TEXTS) ^ set(_VERBS)}")


def _build() -> tuple[tuple[Action, ...], dict[str, tuple[int, int]]]:
    actions: list[Action] = []
    ranges: dict[str, tuple[int, int]] = {}
    for verb in _TEXTS:
        start = len(actions)
        actions += _VERBS[verb]()
        ranges[verb] = (start, len(actions))
    return tuple(actions), ranges


ACTIONS, VERB_RANGES = _build()
"""Every action that can be legal, grouped by verb; ``VERB_RANGES[verb]`` = (start, stop)."""
INDEX: dict[Action, int] = {a: i for i, a in enumerate(ACTIONS)}
NUM_ACTIONS = len(ACTIONS)
if len(INDEX) != NUM_ACTIONS:  # pragma: no cover
    raise RuntimeError("the action space lists an action twice")


def action_index(action: Action) -> int:
    """The index of ``action``; ``KeyError`` if it is not in the action space."""
    return INDEX[action]


def index_action(index: int) -> Action:
    """The action at ``index``; ``IndexError`` if out of range."""
    if not 0 <= index < NUM_ACTIONS:
        raise IndexError(f"action index must be 0 to {NUM_ACTIONS - 1}, not {index}")
    return ACTIONS[index]


def action_mask(state: AnkhMorporkState) -> Mask:
    """1 at the index of every legal action of the seat to move, else 0 (all 0 when over)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.to_move is not None:
        try:
            mask[[INDEX[a] for a in state.legal_actions()]] = 1
        except KeyError as exc:  # pragma: no cover - the action space missed a legal action
            raise KeyError(f"legal action {exc.args[0]!r} has no index in the action space") \
                from None
    return mask


# --- the observation --------------------------------------------------------------------------
FRAME_KINDS = tuple(sorted(HANDLERS))
FX_STEPS = tuple(sorted(STEP_LEGAL))
_FRAME = {k: i for i, k in enumerate(FRAME_KINDS)}
_STEP = {k: i for i, k in enumerate(FX_STEPS)}

LAYOUT: dict[str, tuple[int, int]] = {}
"""Block name -> (start, size) in the observation vector, in order."""
_HIGH: list[float] = []


def _block(name: str, size: int, high: float = 1.0) -> int:
    start = len(_HIGH)
    LAYOUT[name] = (start, size)
    _HIGH.extend([float(high)] * size)
    return start


# counts, in one contiguous run (filled by one slice assignment)
TURN = _block("turn", 1, MAX_TURN)
DRAW_PILE = _block("draw_pile_size", 1, NUM_CARDS)
EVENTS_LEFT = _block("events_left", 1, NUM_EVENTS)
UNUSED = _block("unused_personalities", 1, NUM_PEOPLE)
MONEY_ = _block("money", MAX_SEATS, MAX_MONEY)
HAND_SIZE_ = _block("hand_size", MAX_SEATS, NUM_CARDS)
MINION_SUPPLY = _block("minions_in_supply", MAX_SEATS, MINIONS_PER_PLAYER)
BUILDING_SUPPLY = _block("buildings_in_supply", MAX_SEATS, BUILDINGS_PER_PLAYER)
MINIONS = _block("minions", MAX_SEATS * NUM_AREAS, MINIONS_PER_PLAYER)  # [seat][area]
TROLL_COUNT = _block("trolls", NUM_AREAS, TROLLS)
DEMON_COUNT = _block("demons", NUM_AREAS, DEMONS)
TROUBLE = _block("trouble", NUM_AREAS)
COUNTS_END = len(_HIGH)
# 0/1 facts
SEAT = _block("seat", MAX_SEATS)  # one-hot: whose observation this is
PLAYERS = _block("players", 3)  # one-hot: 2, 3 or 4 players
CURRENT = _block("current", MAX_SEATS)  # one-hot: whose turn it is
TO_MOVE = _block("to_move", MAX_SEATS)  # one-hot: who decides now (none when over)
FRAME = _block("decision", len(FRAME_KINDS))  # one-hot: the kind of the pending decision
FX_STEP = _block("text_step", len(FX_STEPS))  # one-hot: which card-text step, for kind "fx"
BUILDING = _block("building", MAX_SEATS * NUM_AREAS)  # [seat][area]
AREA_CARD = _block("area_card", (MAX_SEATS + 1) * NUM_AREAS)  # [seat, or 4 = gone][area]
POWERS_USED = _block("powers_used", NUM_AREAS)
GAINED = _block("gained_this_turn", NUM_AREAS)
IMMUNE = _block("immune", MAX_SEATS)
TEXT_ASKED = _block("text_asked", MAX_SEATS)
PERSONALITY = _block("personality", MAX_SEATS * NUM_PEOPLE)  # [seat][personality]
SEEN = _block("seen_personalities", NUM_PEOPLE)
HANDS = _block("known_hands", MAX_SEATS * NUM_CARDS)  # [seat][card]: own and shown hands
IN_FRONT = _block("in_front", MAX_SEATS * NUM_CARDS)  # [seat][card]
DISCARD = _block("discard_pile", NUM_CARDS)
IN_PLAY = _block("in_play", NUM_CARDS)
OUT_OF_GAME = _block("out_of_game", NUM_CARDS)
PLAYED = _block("played_this_turn", NUM_CARDS)
EVENTS_DONE = _block("events_done", NUM_EVENTS)
WINNERS = _block("winners", MAX_SEATS)

OBS_SIZE = len(_HIGH)
OBS_HIGH: Vector = np.array(_HIGH, dtype=np.float32)
"""The largest value of each entry (the observation box's upper bound; the lower is 0)."""

_BITS = tuple(tuple(a for a in _AREAS if m >> a & 1) for m in range(1 << NUM_AREAS))
_SEAT_BITS = tuple(tuple(p for p in _SEATS if m >> p & 1) for m in range(1 << MAX_SEATS))
_PAD = tuple([0] * (MAX_SEATS - n) for n in range(MAX_SEATS + 1))  # seats a game lacks
_PAD_AREAS = tuple([0] * ((MAX_SEATS - n) * NUM_AREAS) for n in range(MAX_SEATS + 1))
_GONE_CARD = AREA_CARD + MAX_SEATS * NUM_AREAS


def observation(state: AnkhMorporkState, seat: int) -> Vector:
    """What ``seat`` may see of ``state`` (the facts of ``state.view(seat)``), as a vector."""
    s = state
    n = s.n
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
    pad = _PAD[n]
    minions = s.minions
    counts = [
        min(s.turn, MAX_TURN), len(s.draw_pile), len(s.events), len(s.unused_personalities),
        *(m if m < MAX_MONEY else MAX_MONEY for m in s.money), *pad,
        *map(len, s.hands), *pad,
        *(MINIONS_PER_PLAYER - sum(m) for m in minions), *pad,
        *(BUILDINGS_PER_PLAYER - s.building.count(p) for p in range(n)), *pad,
    ]
    for m in minions:
        counts += m
    counts += _PAD_AREAS[n]
    counts += s.trolls
    counts += s.demons
    counts += s.trouble
    ones = [SEAT + seat, PLAYERS + n - 2, CURRENT + s.current]
    result = s.result
    if result is None and s.stack:
        f = s.stack[-1]
        ones += (TO_MOVE + f[1], FRAME + _FRAME[f[0]])
        if f[0] == "fx":
            ones.append(FX_STEP + _STEP[f[3]])
    ones += [BUILDING + b * NUM_AREAS + a for a, b in enumerate(s.building) if b >= 0]
    ones += [AREA_CARD + c * NUM_AREAS + a if c >= 0 else _GONE_CARD + a
             for a, c in enumerate(s.area_card) if c >= 0 or c == GONE]
    ones += map(POWERS_USED.__add__, _BITS[s.powers_used])
    ones += map(GAINED.__add__, _BITS[s.gained])
    ones += map(IMMUNE.__add__, _SEAT_BITS[s.immune & 15])
    ones += map(TEXT_ASKED.__add__, _SEAT_BITS[s.text_asked & 15])
    for p in range(n):
        ones += map((IN_FRONT + p * NUM_CARDS).__add__, s.in_front[p])
    for p in range(n) if result is not None else (seat,):
        ones.append(PERSONALITY + p * NUM_PEOPLE + s.personality[p])
    ones += map(SEEN.__add__, s.seen[seat])
    ones += map((HANDS + seat * NUM_CARDS).__add__, s.hands[seat])
    for p in revealed_hands(s, seat):
        ones += map((HANDS + p * NUM_CARDS).__add__, s.hands[p])
    ones += map(DISCARD.__add__, s.discard_pile)
    ones += map(IN_PLAY.__add__, s.in_play)
    ones += map(OUT_OF_GAME.__add__, s.out_of_game)
    ones += map(PLAYED.__add__, s.played)
    ones += map(EVENTS_DONE.__add__, s.events_done)
    if result is not None:
        ones += map(WINNERS.__add__, result.winners)
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[:COUNTS_END] = counts
    out[ones] = 1.0
    return out


def encoding_v0() -> Encoding:
    """Layout 0: the flat action space and the unscaled observation above."""
    return Encoding(ACTIONS, INDEX, OBS_HIGH, observation, action_mask, VERSION, LAYOUT,
                    VERB_RANGES)
