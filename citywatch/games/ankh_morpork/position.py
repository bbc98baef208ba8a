"""Positions: the whole state as JSON, written and read back with validation.

See ``docs/position-format.md`` for the format.
"""

from __future__ import annotations

from typing import Any, Final

from citywatch.core.api import Outcome
from citywatch.core.errors import InvalidPosition
from citywatch.core.position import POINTS, check_pending, read_result, read_rng
from citywatch.core.stack import frame_from_json, frame_to_json
from citywatch.games.ankh_morpork.data import (
    AREA_BY_NAME,
    AREAS,
    BUILDINGS_PER_PLAYER,
    CARD_BY_NAME,
    CARDS,
    COLOURS,
    DEMONS,
    EVENT_BY_NAME,
    EVENTS,
    MINIONS_PER_PLAYER,
    NUM_AREAS,
    PERSONALITIES,
    PERSONALITY_BY_NAME,
    TROLLS,
    TWO_PLAYER_REMOVED_PERSONALITIES,
)
from citywatch.games.ankh_morpork.frames import HANDLERS, advance
from citywatch.games.ankh_morpork.state import (
    DISPLAY,
    GONE,
    NO_BUILDING,
    STATE_HOOKS,
    AnkhMorporkState,
)

FORMAT: Final = "citywatch-ankh-morpork-position/1"


def _names(items: list[int], table: Any) -> list[str]:
    return [table[i].name for i in items]


def _mask_names(mask: int) -> list[str]:
    return [AREAS[a].name for a in range(NUM_AREAS) if mask >> a & 1]


def _seat_mask(mask: int, n: int) -> list[str]:
    return [COLOURS[i] for i in range(n) if mask >> i & 1]


def area_json(s: AnkhMorporkState, a: int) -> dict[str, Any]:
    """One area's pieces, trouble, building and City Area card."""
    card = s.area_card[a]
    return {
        "minions": {COLOURS[p]: s.minions[p][a] for p in range(s.n) if s.minions[p][a]},
        "trolls": s.trolls[a],
        "demons": s.demons[a],
        "trouble": s.trouble[a],
        "building": None if s.building[a] == NO_BUILDING else COLOURS[s.building[a]],
        "card": "display" if card == DISPLAY else "gone" if card == GONE else COLOURS[card],
    }


def write_position(s: AnkhMorporkState) -> dict[str, Any]:
    """The whole state as a JSON-serialisable dict."""
    n = s.n
    return {
        "format": FORMAT,
        "players": n,
        "areas": {AREAS[a].name: area_json(s, a) for a in range(NUM_AREAS)},
        "seats": [
            {
                "colour": COLOURS[p],
                "money": s.money[p],
                "personality": PERSONALITIES[s.personality[p]].name,
                "hand": _names(s.hands[p], CARDS),
                "in_front": _names(s.in_front[p], CARDS),
                "seen_personalities": _names(s.seen[p], PERSONALITIES),
            }
            for p in range(n)
        ],
        "draw_pile": _names(s.draw_pile[::-1], CARDS),
        "discard_pile": _names(s.discard_pile[::-1], CARDS),
        "in_play": _names(s.in_play, CARDS),
        "out_of_game": _names(s.out_of_game, CARDS),
        "unused_personalities": _names(s.unused_personalities, PERSONALITIES),
        "events": _names(s.events[::-1], EVENTS),
        "events_done": _names(s.events_done, EVENTS),
        "current": COLOURS[s.current],
        "turn": s.turn,
        "gained_this_turn": _mask_names(s.gained),
        "powers_used": _mask_names(s.powers_used),
        "played_this_turn": _names(s.played, CARDS),
        "immune": _seat_mask(s.immune, n),
        "text_asked": _seat_mask(s.text_asked, n),
        "stack": [frame_to_json(f) for f in s.stack],
        "rng": s.rng.to_json(),
        "result": None if s.result is None else s.result.to_json(),
    }


class _Reader:
    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise InvalidPosition("a position must be a JSON object")
        self.data = data

    def get(self, key: str, kind: type | tuple[type, ...], where: Any = None) -> Any:
        src = self.data if where is None else where
        if key not in src:
            raise InvalidPosition(f"position has no {key!r}")
        value = src[key]
        if isinstance(value, bool) and kind is not bool and bool not in _kinds(kind):
            raise InvalidPosition(f"{key!r} must be {_kind_name(kind)}, not {value!r}")
        if not isinstance(value, kind):
            raise InvalidPosition(f"{key!r} must be {_kind_name(kind)}, not {value!r}")
        return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in _kinds(kind))


def _card(name: Any, where: str) -> int:
    if not isinstance(name, str) or name not in CARD_BY_NAME:
        raise InvalidPosition(f"{where}: {name!r} is not a card")
    return CARD_BY_NAME[name].index


def _cards(names: Any, where: str) -> list[int]:
    if not isinstance(names, list):
        raise InvalidPosition(f"{where} must be a list of card names")
    return [_card(x, where) for x in names]


def _colour(name: Any, n: int, where: str) -> int:
    if name not in COLOURS[:n]:
        raise InvalidPosition(f"{where}: {name!r} is not a colour in a {n}-player game")
    return COLOURS.index(name)


def _area_mask(names: Any, where: str) -> int:
    if not isinstance(names, list):
        raise InvalidPosition(f"{where} must be a list of area names")
    mask = 0
    for name in names:
        if name not in AREA_BY_NAME:
            raise InvalidPosition(f"{where}: {name!r} is not an area")
        mask |= 1 << AREA_BY_NAME[name].index
    return mask


def _seat_mask_read(names: Any, n: int, where: str) -> int:
    if not isinstance(names, list):
        raise InvalidPosition(f"{where} must be a list of colours")
    mask = 0
    for name in names:
        mask |= 1 << _colour(name, n, where)
    return mask


def _personality(name: Any, where: str) -> int:
    if name not in PERSONALITY_BY_NAME:
        raise InvalidPosition(f"{where}: {name!r} is not a personality")
    return PERSONALITY_BY_NAME[name].index


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidPosition(f"{where} must be a whole number of at least 0, not {value!r}")
    return value


def read_position(data: Any) -> AnkhMorporkState:
    """Build a state from a position; raise ``InvalidPosition`` saying what is wrong."""
    r = _Reader(data)
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidPosition(f"unknown position format {data.get('format')!r}")
    n = r.get("players", int)
    if not 2 <= n <= 4:
        raise InvalidPosition(f"players must be 2 to 4, not {n}")
    s = AnkhMorporkState(n)
    areas = r.get("areas", dict)
    unknown = set(areas) - set(AREA_BY_NAME)
    if unknown:
        raise InvalidPosition(f"unknown areas: {sorted(unknown)}")
    for area in AREAS:
        a = area.index
        if area.name not in areas:
            raise InvalidPosition(f"position has no area {area.name!r}")
        raw = areas[area.name]
        if not isinstance(raw, dict):
            raise InvalidPosition(f"area {area.name!r} must be an object")
        minions = r.get("minions", dict, raw)
        for colour, count in minions.items():
            s.minions[_colour(colour, n, f"minions in {area.name}")][a] = _count(
                count, f"{colour}'s minions in {area.name}")
        s.trolls[a] = _count(raw.get("trolls", 0), f"trolls in {area.name}")
        s.demons[a] = _count(raw.get("demons", 0), f"demons in {area.name}")
        trouble = raw.get("trouble", False)
        if not isinstance(trouble, bool):
            raise InvalidPosition(f"trouble in {area.name} must be true or false")
        s.trouble[a] = trouble
        b = raw.get("building")
        s.building[a] = NO_BUILDING if b is None else _colour(b, n, f"building in {area.name}")
        card = raw.get("card", "display")
        s.area_card[a] = (DISPLAY if card == "display" else GONE if card == "gone"
                          else _colour(card, n, f"City Area card of {area.name}"))
        if s.area_card[a] != GONE and s.area_card[a] != (
            DISPLAY if s.building[a] == NO_BUILDING else s.building[a]
        ):
            raise InvalidPosition(
                f"the {area.name} card must be held by the owner of its building "
                f"(or be on display when there is none, or 'gone')")
    for p in range(n):
        if sum(s.minions[p]) > MINIONS_PER_PLAYER:
            raise InvalidPosition(
                f"{COLOURS[p]} has {sum(s.minions[p])} minions on the board; "
                f"there are only {MINIONS_PER_PLAYER}")
        if len(s.buildings_of(p)) > BUILDINGS_PER_PLAYER:
            raise InvalidPosition(f"{COLOURS[p]} has more than {BUILDINGS_PER_PLAYER} buildings")
    if sum(s.trolls) > TROLLS:
        raise InvalidPosition(f"there are only {TROLLS} trolls")
    if sum(s.demons) > DEMONS:
        raise InvalidPosition(f"there are only {DEMONS} demons")

    seats = r.get("seats", list)
    if len(seats) != n:
        raise InvalidPosition(f"seats must list {n} players, not {len(seats)}")
    for p, raw in enumerate(seats):
        if not isinstance(raw, dict):
            raise InvalidPosition(f"seat {p} must be an object")
        if raw.get("colour", COLOURS[p]) != COLOURS[p]:
            raise InvalidPosition(f"seat {p} must be {COLOURS[p]}")
        s.money[p] = _count(raw.get("money"), f"{COLOURS[p]}'s money")
        s.personality[p] = _personality(raw.get("personality"), f"{COLOURS[p]}'s personality")
        s.hands[p] = _cards(raw.get("hand", []), f"{COLOURS[p]}'s hand")
        s.in_front[p] = _cards(raw.get("in_front", []), f"cards in front of {COLOURS[p]}")
        s.seen[p] = [_personality(x, "seen personalities")
                     for x in _list(raw.get("seen_personalities", []), "seen_personalities")]
    s.draw_pile = _cards(r.get("draw_pile", list), "draw_pile")[::-1]
    s.discard_pile = _cards(data.get("discard_pile", []), "discard_pile")[::-1]
    s.in_play = _cards(data.get("in_play", []), "in_play")
    s.out_of_game = _cards(data.get("out_of_game", []), "out_of_game")
    every = [c for h in s.hands for c in h] + [c for f in s.in_front for c in f]
    every += s.draw_pile + s.discard_pile + s.in_play + s.out_of_game
    if sorted(every) != list(range(len(CARDS))):
        seen: set[int] = set()
        dup = sorted({CARDS[c].name for c in every if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(CARDS[c].name for c in set(range(len(CARDS))) - set(every))
        raise InvalidPosition(
            f"every one of the {len(CARDS)} cards must be in exactly one place; "
            f"twice: {dup[:5]}, missing: {missing[:5]}")

    s.unused_personalities = [
        _personality(x, "unused_personalities")
        for x in _list(data.get("unused_personalities", []), "unused_personalities")
    ]
    expected = sorted(p.index for p in PERSONALITIES
                      if n > 2 or p.name not in TWO_PLAYER_REMOVED_PERSONALITIES)
    if sorted(s.personality + s.unused_personalities) != expected:
        raise InvalidPosition(
            "personalities in play and unused must be each available personality once")
    events = [_event(x) for x in _list(data.get("events", []), "events")][::-1]
    done = [_event(x) for x in _list(data.get("events_done", []), "events_done")]
    if sorted(events + done) != list(range(len(EVENTS))):
        raise InvalidPosition("events and events_done must hold each random event once")
    s.events, s.events_done = events, done
    s.current = _colour(r.get("current", str), n, "current")
    s.turn = _count(data.get("turn", 0), "turn")
    s.gained = _area_mask(data.get("gained_this_turn", []), "gained_this_turn")
    s.powers_used = _area_mask(data.get("powers_used", []), "powers_used")
    s.played = _cards(data.get("played_this_turn", []), "played_this_turn")
    s.immune = _seat_mask_read(data.get("immune", []), n, "immune")
    s.text_asked = _seat_mask_read(data.get("text_asked", []), n, "text_asked")
    s.rng = read_rng(data.get("rng", 0))
    result = data.get("result")
    if result is not None:
        s.result = _outcome(result, n)
    stack = _list(data.get("stack", []), "stack")
    s.stack = [_frame(f) for f in stack]
    _check_stack(s)
    return s


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidPosition(f"{where} must be a list")
    return value


def _event(name: Any) -> int:
    if name not in EVENT_BY_NAME:
        raise InvalidPosition(f"{name!r} is not a random event")
    return EVENT_BY_NAME[name].index


def _outcome(raw: Any, n: int) -> Outcome:
    raw, winners, points = read_result(raw, n, points_required=False, fewest_points=-POINTS + 1)
    if not winners:
        raise InvalidPosition("result winners must name a seat")
    reason = raw.get("reason")
    if reason not in ("personality", "riots", "deck"):
        raise InvalidPosition("result reason must be personality, riots or deck")
    return Outcome(tuple(winners), reason, None if points is None else tuple(points))


def _frame(raw: Any) -> tuple[Any, ...]:
    if (not isinstance(raw, list) or len(raw) < 2 or raw[0] not in HANDLERS
            or not isinstance(raw[1], int)):
        raise InvalidPosition(f"malformed stack frame {raw!r}")
    frame: tuple[Any, ...] = frame_from_json(raw)
    return frame


def _check_stack(s: AnkhMorporkState) -> None:
    if s.result is not None:
        if s.stack:
            raise InvalidPosition("a finished game has no pending decisions")
        return
    for f in s.stack:
        if not -1 <= f[1] < s.n:
            raise InvalidPosition(f"stack frame {list(f)!r} names a seat that is not playing")
    check_pending(s, advance)


STATE_HOOKS.write_position = write_position
