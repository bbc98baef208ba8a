"""Guardians of the City positions: the whole state as JSON with names, written and read back.

The format is documented in ``docs/guardians-of-the-city-position.md``. ``read_position``
refuses what no game could hold, raising ``InvalidPosition`` naming the first fault: a deck
that breaks a deck rule, a card of a seat's deck in two places or none (or a card it does not
hold), support off 0-4, a cell off 0-6, effort off 1-4 or not adding up to 8 + surviving
groups, a hand above 4, a Score pile holding anything but Special Intelligence, a game that
should have ended, a malformed pending decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from citywatch.core.api import Outcome
from citywatch.core.errors import InvalidPosition
from citywatch.core.position import check_pending, is_int, is_seat, need, read_result, read_rng
from citywatch.core.stack import Frame, frame_from_json, frame_to_json
from citywatch.games.guardians_of_the_city import turn  # noqa: F401  (registers the frames)
from citywatch.games.guardians_of_the_city.actions import SEATS, names_of
from citywatch.games.guardians_of_the_city.data import (
    ACTION_BY_NAME,
    ACTION_CARDS,
    ACTION_KINDS,
    CELLS,
    CONSTANTS,
    CRISIS_BY_NAME,
    CRISIS_CARDS,
    GROUP_SELECTORS,
    GROUPS,
    PILLARS,
    SCORE_POINTS,
)
from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS, DeckError, load_deck
from citywatch.games.guardians_of_the_city.frames import DECISIONS, advance
from citywatch.games.guardians_of_the_city.scoring import (
    CELLS_ELIMINATED,
    CRISIS_DECK_OUT,
    REASONS,
    decked_out,
    outcome_details,
    wiped_out,
)
from citywatch.games.guardians_of_the_city.state import (
    NONE,
    STATE_HOOKS,
    GotcState,
    Lasting,
    Play,
)

FORMAT: Final = "citywatch-guardians-of-the-city-position/1"
State = GotcState


def _action_names(cards: list[int]) -> list[str]:
    return [ACTION_CARDS[c].name for c in cards]


def _crisis_names(cards: list[int]) -> list[str]:
    return [CRISIS_CARDS[c].name for c in cards]


def _lasting_json(e: Lasting) -> dict[str, Any]:
    return {
        "card": ACTION_CARDS[e.card].name,
        "paired": ACTION_CARDS[e.paired].name,
        "protect": names_of(e.protect, GROUPS),
        "frozen": names_of(e.frozen, CELLS),
        "boost": None if e.boost_pillar < 0 else {"pillar": PILLARS[e.boost_pillar],
                                                  "amount": e.boost},
    }


def _seat_json(s: State, p: int) -> dict[str, Any]:
    return {
        "seat": SEATS[p],
        "deck": s.decks[p].to_json(),
        "effort": dict(zip(PILLARS, s.effort[p], strict=True)),
        "support": dict(zip(GROUPS, s.support[p], strict=True)),
        "shield": s.shield[p],
        "ct": s.ct[p],
        "turns": s.turns[p],
        "hand": _action_names(s.hand[p]),
        "known": _action_names(s.known[p]),
        "action_deck": _action_names(s.action_deck[p]),
        "action_discard": _action_names(s.action_discard[p]),
        "score_pile": _action_names(s.score_pile[p]),
        "crisis_deck": _crisis_names(s.crisis_deck[p]),
        "crisis_discard": _crisis_names(s.crisis_discard[p]),
        "subversive": None if s.subversive[p] == NONE else CRISIS_CARDS[s.subversive[p]].name,
        "lasting": [_lasting_json(e) for e in s.lasting[p]],
    }


def write_position(s: State) -> dict[str, Any]:
    """The whole state as a JSON dict (cards, groups, cells, pillars by name; seats by their
    names; decks and piles top last)."""
    play = s.play
    result = s.result
    return {
        "format": FORMAT,
        "players": s.n,
        "first": SEATS[s.first],
        "current": SEATS[s.current],
        "turn": s.turn,
        "step": s.step,
        "plays": s.plays,
        "cells": dict(zip(CELLS, s.cells, strict=True)),
        "pending": list(s.pending),
        "seats": [_seat_json(s, p) for p in range(s.n)],
        "play": None if play is None else {
            "seat": SEATS[play.seat], "card": ACTION_CARDS[play.card].name,
            "galvanised": None if play.galvanised == NONE
            else ACTION_CARDS[play.galvanised].name,
            "raised": names_of(play.raised, GROUPS),
            "reduced": names_of(play.reduced, CELLS), "scored": play.scored,
            "placed": play.placed,
        },
        "crisis": None if s.crisis == NONE else CRISIS_CARDS[s.crisis].name,
        "stack": [frame_to_json(f) for f in s.stack],
        "rng": s.rng.to_json(),
        "result": None if result is None else {
            **result.to_json(), "reasons": list(result.details.get("reasons", [result.reason])),
        },
    }


# --- reading ------------------------------------------------------------------------------
def _number(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f"at least {low}" if high is None else f"{low} to {high}"
        raise InvalidPosition(f"{where} must be a whole number {bound}, not {value!r}")
    return value


def _seat(value: Any, n: int, where: str) -> int:
    if value not in SEATS[:n]:
        raise InvalidPosition(f"{where}: {value!r} is not a seat of a {n}-player game")
    return SEATS.index(value)


def _names(raw: Any, table: dict[str, int], kind: str, where: str) -> list[int]:
    if not isinstance(raw, list):
        raise InvalidPosition(f"{where} must be a list of {kind} names")
    found = []
    for name in raw:
        if not isinstance(name, str) or name not in table:
            raise InvalidPosition(f"{where}: {name!r} is not an {kind}")
        found.append(table[name])
    return found


def _levels(raw: Any, names: tuple[str, ...], low: int, high: int, where: str) -> list[int]:
    if not isinstance(raw, dict) or set(raw) != set(names):
        raise InvalidPosition(f"{where} must give a number for each of {', '.join(names)}")
    return [_number(raw[k], f"{where} {k}", low, high) for k in names]


def _mask(raw: Any, names: tuple[str, ...], where: str) -> int:
    if not isinstance(raw, list) or not all(x in names for x in raw) \
            or len(set(raw)) != len(raw):
        raise InvalidPosition(f"{where} must list different names of {', '.join(names)}")
    return sum(1 << names.index(x) for x in raw)


_ACTIONS: Final = ACTION_BY_NAME
_CRISES: Final = CRISIS_BY_NAME


def _read_lasting(raw: Any, where: str) -> Lasting:
    if not isinstance(raw, dict):
        raise InvalidPosition(f"{where} must be an object")
    card = _names([raw.get("card")], _ACTIONS, "Action card", where)[0]
    paired = _names([raw.get("paired")], _ACTIONS, "Action card", where)[0]
    c = ACTION_CARDS[card]
    if not c.lasting:
        raise InvalidPosition(f"{where}: {c.name} is not a lasting Galvanised People card")
    if ACTION_CARDS[paired].is_galvanised:
        raise InvalidPosition(f"{where}: a Galvanised card is paired with an ordinary card")
    ops = {o.name: o for o in c.effect}
    protect = _mask(raw.get("protect", []), GROUPS, where + " protect")
    frozen = _mask(raw.get("frozen", []), CELLS, where + " frozen")
    if protect and "protect_raised_groups" not in ops:
        raise InvalidPosition(f"{where}: {c.name} protects no Citizen Group")
    if frozen and "freeze_reduced_cells" not in ops:
        raise InvalidPosition(f"{where}: {c.name} freezes no Terrorist Cell")
    boost = raw.get("boost")
    pillar, amount = -1, 0
    if boost is not None:
        o = ops.get("boost_effort_vs_crisis")
        if o is None or not isinstance(boost, dict):
            raise InvalidPosition(f"{where}: {c.name} boosts no effort")
        if boost.get("pillar") not in PILLARS:
            raise InvalidPosition(f"{where}: the boosted pillar must be a pillar")
        pillar = PILLARS.index(boost["pillar"])
        amount = _number(boost.get("amount"), where + " boost amount", 1, 3)
        if amount != o.amount or (o.pillar >= 0 and pillar != o.pillar) or (
                o.pillar < 0 and pillar != ACTION_CARDS[paired].pillar):
            raise InvalidPosition(f"{where}: the boost does not match {c.name}")
    elif "boost_effort_vs_crisis" in ops:
        raise InvalidPosition(f"{where}: {c.name} must boost the paired card's pillar")
    return Lasting(card, paired, protect, frozen, pillar, amount)


def _read_seat(s: State, p: int, raw: Any) -> None:
    where = SEATS[p]
    if not isinstance(raw, dict):
        raise InvalidPosition(f"{where} must be an object")
    if raw.get("seat", where) != where:
        raise InvalidPosition(f"seat {p + 1} must be {where}")
    try:
        s.decks[p] = load_deck(raw.get("deck"))
    except DeckError as exc:
        raise InvalidPosition(f"{where}'s deck: {exc}") from None
    s.effort[p] = _levels(raw.get("effort"), PILLARS, CONSTANTS.effort_min,
                          CONSTANTS.effort_max, where + " effort")
    s.support[p] = _levels(raw.get("support"), GROUPS, 0, CONSTANTS.group_max,
                           where + " support")
    s.shield[p] = _number(raw.get("shield", 0), where + " shield")
    s.ct[p] = _number(raw.get("ct", 0), where + " ct")
    s.turns[p] = _number(raw.get("turns", 0), where + " turns")
    for key in ("hand", "known", "action_deck", "action_discard", "score_pile"):
        getattr(s, key)[p] = _names(raw.get(key, []), _ACTIONS, "Action card", f"{where} {key}")
    for key in ("crisis_deck", "crisis_discard"):
        getattr(s, key)[p] = _names(raw.get(key, []), _CRISES, "Crisis card", f"{where} {key}")
    sub = raw.get("subversive")
    s.subversive[p] = NONE if sub is None else _names([sub], _CRISES, "Crisis card", where)[0]
    if s.subversive[p] != NONE and not CRISIS_CARDS[s.subversive[p]].is_subversive:
        raise InvalidPosition(f"{where}: {sub} is not a Subversive")
    lasting = raw.get("lasting", [])
    if not isinstance(lasting, list):
        raise InvalidPosition(f"{where} lasting must be a list")
    s.lasting[p] = [_read_lasting(e, f"{where} lasting") for e in lasting]
    if len(s.hand[p]) > CONSTANTS.hand_size:
        raise InvalidPosition(f"{where} holds {len(s.hand[p])} cards; a hand never holds more "
                              f"than {CONSTANTS.hand_size} (ruling 16)")
    if Counter(s.known[p]) - Counter(s.hand[p]):
        raise InvalidPosition(f"{where}: a card known to be in the hand is not in it")
    for card in s.score_pile[p]:
        if not SCORE_POINTS[card]:
            raise InvalidPosition(f"{where}: {ACTION_CARDS[card].name} cannot be in a Score "
                                  "pile (only Special Intelligence: rulebook section 8)")


def _read_play(s: State, raw: Any) -> None:
    if raw is None:
        return
    where = "play"
    if not isinstance(raw, dict):
        raise InvalidPosition("play must be an object or null")
    seat = _seat(raw.get("seat"), s.n, where)
    card = _names([raw.get("card")], _ACTIONS, "Action card", where)[0]
    galv = raw.get("galvanised")
    g = NONE if galv is None else _names([galv], _ACTIONS, "Action card", where)[0]
    if ACTION_CARDS[card].is_galvanised or (g != NONE and not ACTION_CARDS[g].is_galvanised):
        raise InvalidPosition("play: a Galvanised People card is played with an ordinary card")
    scored, placed = raw.get("scored", False), raw.get("placed", False)
    if not isinstance(scored, bool) or (scored and not SCORE_POINTS[card]):
        raise InvalidPosition(f"play: {ACTION_CARDS[card].name} cannot be scored")
    if not isinstance(placed, bool) or (scored and not placed):
        raise InvalidPosition("play: placed must be true or false, and true once scored")
    s.play = Play(seat, card, g, _mask(raw.get("raised", []), GROUPS, "play raised"),
                  _mask(raw.get("reduced", []), CELLS, "play reduced"), scored, placed)


def _check_cards(s: State) -> None:
    """Every card of each seat's deck is in exactly one place, and nothing else is anywhere."""
    for p in range(s.n):
        held: Counter[int] = Counter()
        for pile in (s.hand[p], s.action_deck[p], s.action_discard[p], s.score_pile[p]):
            held.update(pile)
        held.update(e.card for e in s.lasting[p])
        play = s.play
        if play is not None and play.seat == p:
            if not play.placed:
                held[play.card] += 1
            if play.galvanised != NONE:
                held[play.galvanised] += 1
        _compare(held, s.decks[p].action, ACTION_CARDS, SEATS[p], "Action")
        crises: Counter[int] = Counter(s.crisis_deck[p] + s.crisis_discard[p])
        if s.subversive[p] != NONE:
            crises[s.subversive[p]] += 1
        if s.crisis != NONE and s.current == p:
            crises[s.crisis] += 1
        _compare(crises, s.decks[p].crisis, CRISIS_CARDS, SEATS[p], "Crisis")


def _compare(held: Counter[int], counts: tuple[int, ...], cards: Any, seat: str,
             side: str) -> None:
    for card in held:
        if not counts[card]:
            raise InvalidPosition(f"{seat} holds {cards[card].name}, which is not in their "
                                  f"{side} deck")
    for card, n in enumerate(counts):
        if held[card] != n:
            raise InvalidPosition(f"{seat}'s deck has {n} {cards[card].name} but {held[card]} "
                                  f"{'is' if held[card] == 1 else 'are'} in their hand, piles "
                                  "or play (every card is in exactly one place)")


# --- pending decisions ---------------------------------------------------------------------
def _is_path(v: Any) -> bool:
    return isinstance(v, tuple) and 1 <= len(v) <= 4 and all(is_int(0, 15)(x) for x in v)


def _is_levels(v: Any) -> bool:
    return isinstance(v, tuple) and len(v) < len(PILLARS) and all(is_int(1, 4)(x) for x in v)


def _specs(n: int) -> tuple[dict[str, tuple[Callable[[Any], bool], ...]], ...]:
    seat = is_seat(n)
    amount = is_int(1, 9)
    groups = is_int(1, 2 ** len(GROUPS) - 1)
    cells = is_int(1, 2 ** len(CELLS) - 1)
    kinds = is_int(0, 2 ** len(ACTION_KINDS) - 1)

    def one_of(*options: Any) -> Callable[[Any], bool]:
        return lambda v: v in options

    frames: dict[str, tuple[Callable[[Any], bool], ...]] = {
        "effort": (seat, _is_levels),
        "play": (seat,),
        "cells": (seat, one_of("reduce", "raise"), is_int(1, 3), is_int(0, 9), cells),
        "groups": (seat, one_of("raise", "lose"), one_of("choose", "lowest", "highest"),
                   is_int(1, 4), amount),
        "lose_next": (seat, groups, amount),
        "lower": (seat,),
        "discard": (seat, is_int(1, 4)),
        "subversive": (seat,),
        "return": (seat, amount, kinds),
        "step4": (seat,),
    }
    steps: dict[str, tuple[Callable[[Any], bool], ...]] = {
        "assign_effort": (seat,), "play_actions": (seat,), "crisis_step": (seat,),
        "discard_and_draw": (seat,), "reveal": (seat,), "triggers": (seat,),
        "trigger": (seat,), "crisis_deck_check": (seat,), "check_end": (),
        "action_op": (_is_path,), "finish_action": (), "settle_play": (),
        "return_for": (seat, amount, kinds),
        "crisis_op": (is_int(0, len(CRISIS_CARDS) - 1), is_int(0, 1), _is_path),
        "finish_crisis": (),
        "lose_for": (seat, amount, one_of(*GROUP_SELECTORS, *GROUPS), is_int(1, 4)),
        "discard_for": (seat, amount),
    }
    return frames, steps


FRAME_KINDS, STEP_NAMES = (set(x) for x in _specs(2))
if FRAME_KINDS | {"ops"} != set(DECISIONS.handlers) or set(DECISIONS.ops) != STEP_NAMES:
    raise ImportError("position.py does not know every frame kind and automatic step")


def _check_frame(f: Frame, n: int) -> None:
    frames, steps = _specs(n)
    kind = f[0] if f and isinstance(f[0], str) else None
    if kind == "ops":
        if len(f) != 3 or f[1] != -1 or not isinstance(f[2], tuple) or not f[2]:
            raise InvalidPosition(f"malformed queued steps {frame_to_json(f)!r}")
        for step in f[2]:
            spec = steps.get(step[0]) if isinstance(step, tuple) and step else None
            if spec is None or len(step) != len(spec) + 1 or not all(
                    check(v) for check, v in zip(spec, step[1:], strict=True)):
                raise InvalidPosition(f"malformed queued step {frame_to_json(step)!r}")
        return
    spec = frames.get(kind) if kind is not None else None
    if spec is None or len(f) != len(spec) + 1 or not all(
            check(v) for check, v in zip(spec, f[1:], strict=True)):
        raise InvalidPosition(f"malformed pending decision {frame_to_json(f)!r}")


def _queued(s: State, name: str) -> bool:
    return any(f[0] == "ops" and any(step[0] == name for step in f[2]) for f in s.stack)


TURN_FRAMES: Final = frozenset({"effort", "play", "step4"})
TURN_STEPS: Final = frozenset({"assign_effort", "play_actions", "crisis_step", "discard_and_draw",
                               "reveal", "triggers", "trigger", "crisis_deck_check", "check_end"})


def _checking_next(s: State) -> bool:
    """True if the end conditions are checked before the turn goes on (the card or trigger
    being resolved queued ``check_end`` ahead of every later step of the turn)."""
    for f in reversed(s.stack):
        if f[0] in TURN_FRAMES:
            return False
        if f[0] == "ops":
            for step in f[2]:
                if step[0] in TURN_STEPS:
                    return bool(step[0] == "check_end")
    return False


def _check_running(s: State) -> None:
    """What a running game must hold: effort adding up, no end condition overlooked."""
    for p in range(s.n):
        lowering = sum(1 for f in s.stack if f[0] == "lower" and f[1] == p)
        wanted = CONSTANTS.effort_base + max(1, s.surviving(p)) + lowering
        if sum(s.effort[p]) != wanted:
            raise InvalidPosition(f"{SEATS[p]}'s National Effort adds up to "
                                  f"{sum(s.effort[p])}, not {wanted} (8 + surviving Citizen "
                                  "Groups: ruling 5)")
    checking = _checking_next(s)
    if (wiped_out(s) or decked_out(s)) and not checking:
        raise InvalidPosition("a player has no Citizen Groups or no Action deck left, so the "
                              "game is over (rulebook section 6)")
    if not s.surviving_cells() and CELLS_ELIMINATED not in s.pending and not checking:
        raise InvalidPosition("every Terrorist Cell is eliminated but the end is not pending "
                              "(ruling 18)")
    for p in range(s.n):
        if not s.crisis_deck[p] and CRISIS_DECK_OUT not in s.pending and not (
                p == s.current and s.step == 3):
            raise InvalidPosition(f"{SEATS[p]}'s Crisis deck is empty but the end is not "
                                  "pending (ruling 18)")
    if s.play is not None and (s.play.seat != s.current or not (
            _queued(s, "finish_action") or _queued(s, "settle_play"))):
        raise InvalidPosition("an Action card in play must be the active player's and still "
                              "being resolved")
    if s.crisis != NONE and not _queued(s, "finish_crisis"):
        raise InvalidPosition("a Crisis card in play must still be being resolved")


def _read_outcome(raw: Any, s: State) -> Outcome:
    raw, winners, points = read_result(raw, s.n, points_required=True, most_points=999)
    reasons = raw.get("reasons", [raw.get("reason")])
    if not isinstance(reasons, list) or not reasons or not all(r in REASONS for r in reasons):
        raise InvalidPosition(f"result reasons must be end conditions: {', '.join(REASONS)}")
    if raw.get("reason", reasons[0]) != reasons[0]:
        raise InvalidPosition("result reason must be the first of its reasons")
    assert points is not None  # points_required
    return Outcome(tuple(winners), reasons[0], tuple(points), outcome_details(s, reasons))


def read_position(data: Any) -> State:
    """Build a state from a position; ``InvalidPosition`` saying what is wrong."""
    if not isinstance(data, dict):
        raise InvalidPosition("a position must be a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidPosition(f"unknown position format {data.get('format')!r}")
    n = need(data, "players", int, "the position")
    if not CONSTANTS.min_players <= n <= CONSTANTS.max_players:
        raise InvalidPosition(f"players must be {CONSTANTS.min_players} to "
                              f"{CONSTANTS.max_players}, not {n}")
    seats = need(data, "seats", list, "the position")
    if len(seats) != n:
        raise InvalidPosition(f"seats must list {n} players, not {len(seats)}")
    s = State([STARTER_DECKS[0]] * n)
    for p, raw in enumerate(seats):
        _read_seat(s, p, raw)
    s.first = _seat(data.get("first", SEATS[0]), n, "first")
    s.current = _seat(data.get("current", SEATS[0]), n, "current")
    s.turn = _number(data.get("turn", 0), "turn")
    s.step = _number(data.get("step", 0), "step", 0, 4)
    s.plays = _number(data.get("plays", 0), "plays", 0, CONSTANTS.actions_per_turn)
    s.cells = _levels(need(data, "cells", dict, "the position"), CELLS, 0, CONSTANTS.cell_max,
                      "cells")
    pending = data.get("pending", [])
    if not isinstance(pending, list) or not all(
            r in (CELLS_ELIMINATED, CRISIS_DECK_OUT) for r in pending) \
            or len(set(pending)) != len(pending):
        raise InvalidPosition(f"pending must list end conditions that wait for the round: "
                              f"{CELLS_ELIMINATED!r}, {CRISIS_DECK_OUT!r}")
    s.pending = list(pending)
    _read_play(s, data.get("play"))
    crisis = data.get("crisis")
    s.crisis = NONE if crisis is None else _names([crisis], _CRISES, "Crisis card", "crisis")[0]
    _check_cards(s)
    stack = data.get("stack", [])
    if not isinstance(stack, list):
        raise InvalidPosition("stack must be a list")
    for raw in stack:
        frame = frame_from_json(raw)
        if not isinstance(frame, tuple):
            raise InvalidPosition(f"malformed pending decision {raw!r}")
        _check_frame(frame, n)
        s.stack.append(frame)
    s.rng = read_rng(data.get("rng", 0))
    result = data.get("result")
    if result is not None:
        s.result = _read_outcome(result, s)
        if s.stack:
            raise InvalidPosition("a finished game has no pending decisions")
        return s
    _check_running(s)
    check_pending(s, advance)
    return s


STATE_HOOKS.write_position = write_position
