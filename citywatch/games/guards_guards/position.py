"""Guards! Guards! positions: the whole state as JSON with names, written and read back.

The format is documented in ``docs/guards-guards-position.md``. ``read_position`` checks
what a real game could never hold (a card in two places or none, a level off the 0-10
track, two players on a one-player tile, two Saboteurs of one player in a quadrant, ...)
and raises ``InvalidPosition`` naming the first fault.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from citywatch.core.api import Outcome
from citywatch.core.errors import InvalidPosition
from citywatch.core.position import POINTS, check_pending, read_result, read_rng
from citywatch.core.stack import frame_from_json, frame_to_json
from citywatch.games.guards_guards.data import (
    COLOURS,
    DECK_SPACES,
    DECKS,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    STATS,
    TILE_INDEX,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import DECISIONS, advance
from citywatch.games.guards_guards.state import (
    STATE_HOOKS,
    Effect,
    GuardsGuardsState,
    Run,
    Turn,
)

FORMAT: Final = "citywatch-guards-guards-position/1"
EFFECT_KINDS: Final[tuple[str, ...]] = ("move", "move_set", "move_cap", "attr", "fog")
State = GuardsGuardsState

_BY_NAME: Final[dict[str, dict[str, int]]] = {
    "volunteer": {v.name: v.index for v in VOLUNTEERS},
    "scroll": {c.name: c.index for c in SCROLLS},
    "item": {c.name: c.index for c in ITEMS},
    "fate card": {c.name: c.index for c in FATE_CARDS},
    "dragon": {d.name: d.index for d in DRAGONS},
    "guild card": {g.name: g.index for g in GUILD_CARDS},
}


def _tile_id(t: int) -> str | None:
    return None if t < 0 else TILES[t].id


def _pairs(pairs: list[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"volunteer": VOLUNTEERS[v].name, "item": None if i < 0 else ITEMS[i].name}
            for v, i in pairs]


def run_json(run: Run | None) -> dict[str, Any] | None:
    """An open Spell Run as JSON (None for no run)."""
    if run is None:
        return None
    return {
        "spell": SPELL_COLOURS[run.colour], "final": run.final,
        "runners": _pairs(run.runners), "at_gate": _pairs(run.at_gate),
        "route": [TILES[t].id for t in run.route],
        "quadrants": [QUADRANTS[q] for q in run.quadrants],
        "next_quadrant": run.next_quadrant, "passed": run.passed, "tried": run.tried,
    }


def _seat_json(s: State, p: int) -> dict[str, Any]:
    return {
        "colour": COLOURS[p],
        "guild_card": None if s.guild[p] < 0 else GUILD_CARDS[s.guild[p]].name,
        "gate": _tile_id(s.gate[p]),
        "tile": _tile_id(s.pos[p]),
        "magic": s.attrs[p][0], "guild": s.attrs[p][1], "charm": s.attrs[p][2],
        "dollars": s.dollars[p],
        "hand": [VOLUNTEERS[v].name for v in s.hand[p]],
        "scrolls": [SCROLLS[c].name for c in s.scrolls[p]],
        "items": [ITEMS[c].name for c in s.items[p]],
        "kept": [FATE_CARDS[c].name for c in s.kept[p]],
        "bought": list(s.bought[p]),
        "saboteurs": [{"quadrant": QUADRANTS[q], "volunteer": VOLUNTEERS[v].name,
                       "item": None if i < 0 else ITEMS[i].name}
                      for q, v, i in s.saboteurs[p]],
        "returned": [SPELL_COLOURS[c] for c in s.returned[p]],
        "pox": s.pox[p],
        "fire_water": s.fire_water[p],
        "flasks": [COLOURS[o] for o in s.flasks[p]],
        "effects": [list(e) for e in s.effects[p]],
        "missed": s.missed[p], "jailed": s.jailed[p], "own_turns": s.own_turns[p],
        "house_turn": s.house_turn[p], "frozen": s.frozen[p],
        "run": run_json(s.run[p]),
    }


def write_position(s: State) -> dict[str, Any]:
    """The whole state as a JSON dict (tiles by id, cards by name, seats by colour)."""
    t = s.t
    return {
        "format": FORMAT,
        "players": s.n,
        "spells_to_win": s.spells_to_win,
        "rounds": s.rounds,
        "seats": [_seat_json(s, p) for p in range(s.n)],
        "volunteers": {
            DECKS[d]: {"face_down": [VOLUNTEERS[v].name for v in s.vol_down[d]],
                       "face_up": [VOLUNTEERS[v].name for v in s.vol_up[d]],
                       "discard": [VOLUNTEERS[v].name for v in s.vol_discard[d]]}
            for d in range(3)
        },
        "fate": {"deck": [FATE_CARDS[c].name for c in s.fate_deck],
                 "discard": [FATE_CARDS[c].name for c in s.fate_discard]},
        "decks": {space.id: [(SCROLLS if space.deck == "curses_and_cures" else ITEMS)[c].name
                             for c in s.decks[space.index]] for space in DECK_SPACES},
        "dragons": {"pile": [DRAGONS[d].name for d in s.dragon_pile],
                    "board": {QUADRANTS[q]: DRAGONS[d].name
                              for q, d in enumerate(s.dragons) if d >= 0}},
        "luggage": TILES[s.luggage].id if s.luggage >= 0 else None,
        "volunteer_modifiers": [[VOLUNTEERS[v].name, STATS[i], d] for v, i, d in s.vol_mods],
        "current": COLOURS[s.current],
        "turn": s.turn,
        "turn_state": {
            "seat": COLOURS[t.seat], "allowance": t.allowance, "steps": t.steps,
            "path": [TILES[x].id for x in t.path], "used": [TILES[x].id for x in t.used],
            "asked": t.asked, "moving": t.moving, "stopped": t.stopped,
            "stop_done": t.stop_done, "cast": [list(c) for c in t.cast],
            "planted": t.planted, "recalled": t.recalled, "house": t.house,
            "entered": t.entered, "over": t.over,
        },
        "stack": [frame_to_json(f) for f in s.stack],
        "rng": s.rng.to_json(),
        "result": None if s.result is None else s.result.to_json(),
    }


# --- reading ------------------------------------------------------------------------------
def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise InvalidPosition(f"{where} has no {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise InvalidPosition(f"{where}: {key!r} must not be true/false")
    if not isinstance(value, kinds):
        raise InvalidPosition(f"{where}: {key!r} has the wrong type ({value!r})")
    return value


def _count(value: Any, where: str, top: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidPosition(f"{where} must be a whole number of at least 0, not {value!r}")
    if top is not None and value > top:
        raise InvalidPosition(f"{where} must be at most {top}, not {value}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidPosition(f"{where} must be true or false")
    return value


def _named(kind: str, name: Any, where: str) -> int:
    table = _BY_NAME[kind]
    if not isinstance(name, str) or name not in table:
        raise InvalidPosition(f"{where}: {name!r} is not a {kind}")
    return table[name]


def _named_list(kind: str, names: Any, where: str) -> list[int]:
    if not isinstance(names, list):
        raise InvalidPosition(f"{where} must be a list of {kind} names")
    return [_named(kind, n, where) for n in names]


def _tile(value: Any, where: str, optional: bool = False) -> int:
    if value is None and optional:
        return -1
    if not isinstance(value, str) or value not in TILE_INDEX:
        raise InvalidPosition(f"{where}: {value!r} is not a tile id")
    return TILE_INDEX[value]


def _choice(value: Any, options: tuple[str, ...], where: str) -> int:
    if value not in options:
        raise InvalidPosition(f"{where}: {value!r} is not one of {', '.join(options)}")
    return options.index(value)


def _colour(value: Any, n: int, where: str) -> int:
    if value not in COLOURS[:n]:
        raise InvalidPosition(f"{where}: {value!r} is not a colour in a {n}-player game")
    return COLOURS.index(value)


def _item_or_none(value: Any, where: str) -> int:
    return -1 if value is None else _named("item", value, where)


def _read_pairs(raw: Any, where: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise InvalidPosition(f"{where} must be a list")
    out = []
    for entry in raw:
        if not isinstance(entry, dict):
            raise InvalidPosition(f"{where} entries must be objects")
        out.append((_named("volunteer", entry.get("volunteer"), where),
                    _item_or_none(entry.get("item"), where)))
    return out


def _read_run(raw: Any, where: str) -> Run | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidPosition(f"{where} must be an object or null")
    run = Run(_choice(raw.get("spell"), SPELL_COLOURS, where),
              _flag(raw.get("final", False), where + " final"))
    run.runners = _read_pairs(raw.get("runners", []), where + " runners")
    run.at_gate = _read_pairs(raw.get("at_gate", []), where + " at_gate")
    route = raw.get("route", [])
    if not isinstance(route, list):
        raise InvalidPosition(f"{where} route must be a list of tile ids")
    run.route = tuple(_tile(t, where + " route") for t in route)
    quads = raw.get("quadrants", [])
    if not isinstance(quads, list):
        raise InvalidPosition(f"{where} quadrants must be a list")
    run.quadrants = tuple(_choice(q, QUADRANTS, where + " quadrants") for q in quads)
    run.next_quadrant = _count(raw.get("next_quadrant", 0), where + " next_quadrant",
                               len(run.quadrants))
    run.passed = _count(raw.get("passed", 0), where + " passed", 3)
    tried = raw.get("tried", -1)
    if isinstance(tried, bool) or not isinstance(tried, int) or tried < -1:
        raise InvalidPosition(f"{where} tried must be a turn number or -1")
    run.tried = tried
    return run


def _read_effect(raw: Any, where: str) -> Effect:
    if (not isinstance(raw, list) or len(raw) != 5 or raw[0] not in EFFECT_KINDS
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw[1:4])
            or not isinstance(raw[4], str)):
        raise InvalidPosition(f"{where}: malformed effect {raw!r}")
    if raw[3] < -1 or raw[3] == 0:
        raise InvalidPosition(f"{where}: an effect lasts -1 (until healed) or 1+ turns")
    return Effect(raw[0], raw[1], raw[2], raw[3], raw[4])


def _read_seat(s: State, p: int, raw: Any) -> None:
    where = f"seat {COLOURS[p]}"
    if not isinstance(raw, dict):
        raise InvalidPosition(f"{where} must be an object")
    if raw.get("colour") != COLOURS[p]:
        raise InvalidPosition(f"seat {p} must be {COLOURS[p]}")
    card = raw.get("guild_card")
    s.guild[p] = -1 if card is None else _named("guild card", card, where)
    s.gate[p] = _tile(raw.get("gate"), where + " gate", optional=True)
    s.pos[p] = _tile(raw.get("tile"), where + " tile", optional=True)
    if s.gate[p] >= 0 and TILES[s.gate[p]].kind != "start_gate":
        raise InvalidPosition(f"{where}: the gate must be a Start Gate")
    if s.guild[p] >= 0 and s.gate[p] not in GUILD_CARDS[s.guild[p]].gates:
        raise InvalidPosition(f"{where}: {TILES[s.gate[p]].name} is not a gate of the "
                              f"{QUADRANTS[GUILD_CARDS[s.guild[p]].guild]} (ruling 3)")
    if (s.guild[p] < 0) != (s.pos[p] < 0) or (s.guild[p] < 0) != (s.gate[p] < 0):
        raise InvalidPosition(f"{where}: guild card, gate and tile are set together")
    s.attrs[p] = [_count(raw.get(k, 0), f"{where} {k}", 10) for k in ("magic", "guild", "charm")]
    s.dollars[p] = _count(raw.get("dollars", 0), where + " dollars")
    s.hand[p] = _named_list("volunteer", raw.get("hand", []), where + " hand")
    s.scrolls[p] = _named_list("scroll", raw.get("scrolls", []), where + " scrolls")
    s.items[p] = _named_list("item", raw.get("items", []), where + " items")
    s.kept[p] = tuple(_named_list("fate card", raw.get("kept", []), where + " kept"))
    bought = raw.get("bought", [])
    if not isinstance(bought, list) or not all(
            isinstance(b, int) and (0 <= b < len(SCROLLS) or 100 <= b < 100 + len(ITEMS))
            for b in bought):
        raise InvalidPosition(f"{where} bought must list scroll numbers or 100 + item numbers")
    s.bought[p] = tuple(bought)
    sabs = raw.get("saboteurs", [])
    if not isinstance(sabs, list):
        raise InvalidPosition(f"{where} saboteurs must be a list")
    for entry in sabs:
        if not isinstance(entry, dict):
            raise InvalidPosition(f"{where} saboteurs must be objects")
        q = _choice(entry.get("quadrant"), QUADRANTS, where + " saboteur")
        v = _named("volunteer", entry.get("volunteer"), where + " saboteur")
        if not VOLUNTEERS[v].brethren:
            raise InvalidPosition(f"{where}: {VOLUNTEERS[v].name} is not of the Brethren")
        if any(q == other[0] for other in s.saboteurs[p]):
            raise InvalidPosition(f"{where}: two Saboteurs in the {QUADRANTS[q]} (ruling 37)")
        s.saboteurs[p] += ((q, v, _item_or_none(entry.get("item"), where + " saboteur")),)
    returned = raw.get("returned", [])
    if not isinstance(returned, list):
        raise InvalidPosition(f"{where} returned must be a list of spell colours")
    s.returned[p] = tuple(_choice(c, SPELL_COLOURS, where + " returned") for c in returned)
    if len(set(s.returned[p])) != len(s.returned[p]):
        raise InvalidPosition(f"{where}: a spell is returned twice")
    if s.guild[p] >= 0 and not set(s.returned[p]) <= set(GUILD_CARDS[s.guild[p]].spells):
        raise InvalidPosition(f"{where}: a returned spell is not on the Guild Card")
    s.pox[p] = _flag(raw.get("pox", False), where + " pox")
    s.fire_water[p] = _count(raw.get("fire_water", 0), where + " fire_water")
    flasks = raw.get("flasks", [])
    if not isinstance(flasks, list):
        raise InvalidPosition(f"{where} flasks must be a list of colours")
    s.flasks[p] = tuple(_colour(c, s.n, where + " flasks") for c in flasks)
    effects = raw.get("effects", [])
    if not isinstance(effects, list):
        raise InvalidPosition(f"{where} effects must be a list")
    s.effects[p] = tuple(_read_effect(e, where) for e in effects)
    s.missed[p] = _count(raw.get("missed", 0), where + " missed")
    s.jailed[p] = _flag(raw.get("jailed", False), where + " jailed")
    s.own_turns[p] = _count(raw.get("own_turns", 0), where + " own_turns")
    house = raw.get("house_turn", -9)
    if isinstance(house, bool) or not isinstance(house, int):
        raise InvalidPosition(f"{where} house_turn must be a whole number")
    s.house_turn[p] = house
    s.frozen[p] = _flag(raw.get("frozen", False), where + " frozen")
    s.run[p] = _read_run(raw.get("run"), where + " run")


def _check_cards(s: State, stack: list[tuple[Any, ...]]) -> None:
    """Every card is in exactly one place (a hand, a pile, a Saboteur, a Run, a Dragon
    fight of the pending ``stack``)."""
    vols: Counter[int] = Counter()
    scrolls: Counter[int] = Counter()
    items: Counter[int] = Counter()
    fates: Counter[int] = Counter()
    for p in range(s.n):
        vols.update(s.hand[p])
        vols.update(v for _, v, _ in s.saboteurs[p])
        items.update(i for _, _, i in s.saboteurs[p] if i >= 0)
        scrolls.update(s.scrolls[p])
        items.update(s.items[p])
        fates.update(s.kept[p])
        run = s.run[p]
        if run is not None:
            for v, i in run.runners + run.at_gate:
                vols[v] += 1
                if i >= 0:
                    items[i] += 1
    for f in stack:
        if f[0] == "dragon" and f[2] in ("send", "fight"):
            for _, v, i in f[4]:  # Volunteers sent to fight a Dragon
                vols[v] += 1
                if i >= 0:
                    items[i] += 1
    for d in range(3):
        vols.update(s.vol_down[d])
        vols.update(s.vol_up[d])
        vols.update(s.vol_discard[d])
    fates.update(s.fate_deck)
    fates.update(s.fate_discard)
    for space in DECK_SPACES:
        (scrolls if space.deck == "curses_and_cures" else items).update(s.decks[space.index])
    for name, counts, table in (("volunteer", vols, VOLUNTEERS), ("scroll", scrolls, SCROLLS),
                                ("item", items, ITEMS), ("fate card", fates, FATE_CARDS)):
        for card in table:
            if counts[card.index] != 1:
                where = "nowhere" if counts[card.index] == 0 else "in two places"
                raise InvalidPosition(f"the {name} {card.name!r} is {where}")
    for d in range(3):
        for v in s.vol_down[d] + s.vol_up[d] + s.vol_discard[d]:
            if VOLUNTEERS[v].deck != d:
                raise InvalidPosition(f"{VOLUNTEERS[v].name} is in the wrong Volunteer deck")
    for space in DECK_SPACES:
        if len(s.decks[space.index]) > len(SCROLLS):
            raise InvalidPosition(f"deck {space.id} holds too many cards")
    dragons = Counter(s.dragon_pile) + Counter(d for d in s.dragons if d >= 0)
    for dragon in DRAGONS:
        if dragons[dragon.index] != 1:
            raise InvalidPosition(f"the Dragon {dragon.name!r} must be in the pile or on the "
                                  "board, once")


def _check_tiles(s: State) -> None:
    """One-player tiles hold one player; gates are different (rulings 3, 12)."""
    gates = [g for g in s.gate if g >= 0]
    if len(set(gates)) != len(gates):
        raise InvalidPosition("two players share a Start Gate")
    guilds = [g for g in s.guild if g >= 0]
    if len(set(guilds)) != len(guilds):
        raise InvalidPosition("two players hold the same Guild Card")
    seen: dict[int, int] = {}
    for p in range(s.n):
        t = s.pos[p]
        if t < 0:
            continue
        passing = s.t.moving and not s.t.stopped and p == s.t.seat
        if passing:
            continue
        if t in seen and TILES[t].kind not in ("bridge", "hospital", "watch_house"):
            raise InvalidPosition(f"{COLOURS[seen[t]]} and {COLOURS[p]} both stand on "
                                  f"{TILES[t].name}, which holds one player (ruling 12)")
        seen[t] = p
        for q, other in enumerate(s.gate):
            if other == t and q != p:
                raise InvalidPosition(f"{COLOURS[p]} stands on {COLOURS[q]}'s Start Gate "
                                      "(ruling 13)")


def _read_turn(s: State, raw: Any) -> None:
    if not isinstance(raw, dict):
        raise InvalidPosition("turn_state must be an object")
    t = Turn(_colour(raw.get("seat", COLOURS[s.current]), s.n, "turn_state seat"))
    t.allowance = _count(raw.get("allowance", 0), "turn_state allowance")
    t.steps = _count(raw.get("steps", 0), "turn_state steps")
    for key in ("path", "used"):
        value = raw.get(key, [])
        if not isinstance(value, list):
            raise InvalidPosition(f"turn_state {key} must be a list of tile ids")
        setattr(t, key, [_tile(x, f"turn_state {key}") for x in value])
    t.asked = _count(raw.get("asked", 0), "turn_state asked")
    for key in ("moving", "stopped", "stop_done", "planted", "recalled", "house", "over"):
        setattr(t, key, _flag(raw.get(key, False), f"turn_state {key}"))
    t.entered = _count(raw.get("entered", 0), "turn_state entered", 15)
    cast = raw.get("cast", [])
    if not isinstance(cast, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c)
            for c in cast):
        raise InvalidPosition("turn_state cast must be a list of [seat, scroll] pairs")
    t.cast = [(c[0], c[1]) for c in cast]
    s.t = t


def _outcome(raw: Any, n: int) -> Outcome:
    raw, winners, points = read_result(raw, n, points_required=False, fewest_points=-POINTS + 1)
    reason = raw.get("reason")
    if not isinstance(reason, str):
        raise InvalidPosition("result reason must be text")
    return Outcome(tuple(winners), reason, None if points is None else tuple(points))


def read_position(data: Any) -> State:
    """Build a state from a position; ``InvalidPosition`` saying what is wrong."""
    if not isinstance(data, dict):
        raise InvalidPosition("a position must be a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidPosition(f"unknown position format {data.get('format')!r}")
    n = _need(data, "players", int, "the position")
    if not 2 <= n <= 6:
        raise InvalidPosition(f"players must be 2 to 6, not {n}")
    s = State(n)
    s.spells_to_win = _count(data.get("spells_to_win", 5), "spells_to_win", 5)
    if s.spells_to_win < 1:
        raise InvalidPosition("spells_to_win must be 1 to 5")
    s.rounds = _count(data.get("rounds", 0), "rounds")
    seats = _need(data, "seats", list, "the position")
    if len(seats) != n:
        raise InvalidPosition(f"seats must list {n} players, not {len(seats)}")
    s.current = _colour(data.get("current"), n, "current")
    s.turn = _count(data.get("turn", 0), "turn")
    _read_turn(s, data.get("turn_state", {}))
    for p, raw in enumerate(seats):
        _read_seat(s, p, raw)
    vols = _need(data, "volunteers", dict, "the position")
    for d, deck in enumerate(DECKS):
        raw = vols.get(deck)
        if not isinstance(raw, dict):
            raise InvalidPosition(f"volunteers must have an object for {deck!r}")
        s.vol_down[d] = _named_list("volunteer", raw.get("face_down", []), deck + " face_down")
        s.vol_up[d] = _named_list("volunteer", raw.get("face_up", []), deck + " face_up")
        s.vol_discard[d] = _named_list("volunteer", raw.get("discard", []), deck + " discard")
    fate = _need(data, "fate", dict, "the position")
    s.fate_deck = _named_list("fate card", fate.get("deck", []), "fate deck")
    s.fate_discard = _named_list("fate card", fate.get("discard", []), "fate discard")
    decks = _need(data, "decks", dict, "the position")
    for space in DECK_SPACES:
        kind = "scroll" if space.deck == "curses_and_cures" else "item"
        s.decks[space.index] = _named_list(kind, decks.get(space.id, []), f"deck {space.id}")
    unknown = set(decks) - {space.id for space in DECK_SPACES}
    if unknown:
        raise InvalidPosition(f"unknown decks: {sorted(unknown)}")
    dragons = _need(data, "dragons", dict, "the position")
    s.dragon_pile = _named_list("dragon", dragons.get("pile", []), "dragon pile")
    on_board = dragons.get("board", {})
    if not isinstance(on_board, dict):
        raise InvalidPosition("dragons board must be an object by quadrant")
    for q, name in on_board.items():
        s.dragons[_choice(q, QUADRANTS, "dragons board")] = _named("dragon", name, "dragons")
    s.luggage = _tile(data.get("luggage"), "luggage")
    mods = data.get("volunteer_modifiers", [])
    if not isinstance(mods, list):
        raise InvalidPosition("volunteer_modifiers must be a list")
    for m in mods:
        if not isinstance(m, list) or len(m) != 3 or not isinstance(m[2], int):
            raise InvalidPosition(f"malformed volunteer modifier {m!r}")
        s.vol_mods.append((_named("volunteer", m[0], "volunteer_modifiers"),
                           _choice(m[1], STATS, "volunteer_modifiers"), m[2]))
    stack = data.get("stack", [])
    if not isinstance(stack, list):
        raise InvalidPosition("stack must be a list")
    for raw in stack:
        if (not isinstance(raw, list) or len(raw) < 2 or raw[0] not in DECISIONS.handlers
                or isinstance(raw[1], bool) or not isinstance(raw[1], int)
                or not -1 <= raw[1] < n):
            raise InvalidPosition(f"malformed stack frame {raw!r}")
        s.stack.append(frame_from_json(raw))
    try:
        _check_cards(s, s.stack)
    except (IndexError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidPosition):
            raise
        raise InvalidPosition(f"a pending Dragon fight is malformed: {exc!r}") from None
    _check_tiles(s)
    s.rng = read_rng(data.get("rng", 0))
    result = data.get("result")
    if result is not None:
        s.result = _outcome(result, n)
    if s.result is not None:
        if s.stack:
            raise InvalidPosition("a finished game has no pending decisions")
        return s
    check_pending(s, advance)
    return s


STATE_HOOKS.write_position = write_position
