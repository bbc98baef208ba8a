"""Thieves of the Black Keep positions: the whole state as one JSON object with names, written
and read back.

The format is documented in ``docs/black-keep-position.md``. Hexes are labels (``"D3"``),
facings ``N`` to ``NW``, statuses, cards, treasures and standings by name, tiles by id, seats
by name (``"Thief 1"``), guards by number from 1 in listing order; decks list their top last.
``read_position`` refuses what no game could hold, raising ``InvalidPosition`` naming the first
fault: unknown names, a guard or thief off the floor, a guard list that is not the scenario's
for the difficulty, two markers on a hex, a thief on a guard's hex, wounds or coins out of
range, a card in two places (or more copies than the decks hold), a plan that is not legal, a
hex outside its thief's public possibility set, a malformed pending decision, a game that
should have ended.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from citywatch.core.api import Outcome
from citywatch.core.errors import InvalidPosition
from citywatch.core.position import check_pending, is_seat, need, read_result, read_rng
from citywatch.core.stack import Frame, frame_from_json, frame_to_json
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep import guards as guard_rules
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.actions import SEATS, board_hex
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.data import (
    FAKE,
    GUARD_CARD_NAMES,
    GUARD_CARDS,
    LOCKPICKS,
    LOOT,
    REST,
    THIEF_CARD_NAMES,
    TREASURE_NAMES,
)
from citywatch.games.black_keep.hexes import FACINGS
from citywatch.games.black_keep.params import Parameters
from citywatch.games.black_keep.round import (
    DECISIONS,
    Plan,
    advance,
    can_take,
    card_options,
    dawn,
    guard_card_options,
    plan_from_card,
    plan_of,
)
from citywatch.games.black_keep.scoring import outcome
from citywatch.games.black_keep.setup import check_choices
from citywatch.games.black_keep.state import (
    DEFAULT_STATUS,
    GUARD_TYPES,
    IN_PLAY,
    KILLED,
    NONE,
    RETURNING,
    ROVING,
    STANDINGS,
    STATE_HOOKS,
    STATUSES,
    BlackKeepState,
    Guard,
    Home,
)

FORMAT: Final = "citywatch-black-keep-position/1"
State = BlackKeepState
PHASES: Final[tuple[str, ...]] = ("setup", "resource", "plan", "thief", "guard", "over")
"""The phases a state may be in (``BlackKeepState.phase``)."""


# --- writing --------------------------------------------------------------------------------------
def _label(board: Board, hex: int) -> str | None:
    return None if hex == NONE else board.labels[hex]


def scenario_json(board: Board) -> str | dict[str, Any]:
    """A shipped scenario's id, or the scenario's own JSON document."""
    if board.id in scenarios.names():
        shared = scenarios.load(board.id)
        if board is shared or board.source == shared.source:
            return board.id
    return board.source


def route_json(pos: int, direction: int) -> dict[str, int]:
    """A route state: the index on the green line or red arrows, and the direction (+1, -1)."""
    return {"position": pos, "direction": direction}


def guard_json(s: State, g: Guard) -> dict[str, Any]:
    """One guard's every field (spec 4.1), by name."""
    board = s.board
    home = g.home
    return {
        "tile": board.tiles[g.tile].id,
        "role": g.role,
        "type": GUARD_TYPES[g.type],
        "undead": g.undead,
        "bow": g.bow,
        "placed": g.placed,
        "hex": _label(board, g.hex) if g.placed else None,
        "facing": FACINGS[g.facing],
        "status": STATUSES[g.status],
        "route": route_json(g.route_pos, g.route_dir),
        "home": None if home is None else {
            "hex": board.labels[home.hex], "route": route_json(home.route_pos, home.route_dir),
            "facing": FACINGS[home.facing]},
        "target": _label(board, g.target),
        "key": g.key,
        "coins": g.coins,
        "shot": [SEATS[p] for p in range(s.n) if g.shot >> p & 1],
    }


def plan_json(s: State, plan: Plan) -> dict[str, Any]:
    """A thief's plan (7.2) by name: its card, the hexes of its steps, whether it escapes, the
    Pick Pocket's guard (number) and loot, the Guard card and its target (a guard's number or
    a hex label), whether it takes a treasure."""
    board = s.board
    target: int | str | None = None
    if plan.guard_card != NONE and plan.target != NONE:
        target = plan.target + 1 if GUARD_CARDS[plan.guard_card].target == "guard" \
            else board.labels[plan.target]
    return {
        "card": THIEF_CARD_NAMES[plan.card],
        "first": _label(board, plan.first),
        "second": _label(board, plan.second),
        "escape": bool(plan.escape),
        "pocket": None if plan.pocket == NONE else plan.pocket + 1,
        "loot": None if plan.loot == NONE else LOOT[plan.loot],
        "guard_card": None if plan.guard_card == NONE else GUARD_CARD_NAMES[plan.guard_card],
        "target": target,
        "take": bool(plan.take),
    }


def thief_json(s: State, seat: int) -> dict[str, Any]:
    """One thief's every field (spec 6.1), its secrets (hex, plan) included."""
    t = s.thieves[seat]
    board = s.board
    possible = t.possible if t.standing == IN_PLAY and t.hex != NONE else None
    return {
        "name": SEATS[seat],
        "hex": _label(board, t.hex),
        "wounds": t.wounds,
        "hand": [THIEF_CARD_NAMES[c] for c in t.hand],
        "discard": [THIEF_CARD_NAMES[c] for c in t.discard],
        "coins": t.coins,
        "guard_cards": [GUARD_CARD_NAMES[c] for c in t.guard_cards],
        "lockpicks": t.lockpicks,
        "keys": [tile.id for k, tile in enumerate(board.tiles) if t.keys >> k & 1],
        "treasure": None if t.treasure == NONE else TREASURE_NAMES[t.treasure],
        "armour_used": t.armour_used,
        "sword_used": t.sword_used,
        "exit": None if t.exit_tile == NONE else board.tiles[t.exit_tile].id,
        "hiding": t.hiding,
        "standing": STANDINGS[t.standing],
        "plan": None if t.plan is None else plan_json(s, plan_of(t)),
        "possible": None if possible is None else [board.labels[h] for h in sorted(possible)],
    }


def write_position(s: State) -> dict[str, Any]:
    """The whole state as a JSON dict (hexes by label, everything else by name)."""
    board = s.board
    result = s.result
    return {
        "format": FORMAT,
        "scenario": scenario_json(board),
        "parameters": s.params.to_json(),
        "players": s.n,
        "mode": s.mode,
        "difficulty": s.difficulty,
        "advanced": s.advanced,
        "round": s.round,
        "phase": s.phase,
        "guards": [guard_json(s, g) for g in s.guards],
        "thieves": [thief_json(s, p) for p in range(s.n)],
        "markers": {board.labels[h]: order
                    for h, order in sorted(s.markers.items(), key=lambda m: m[1])},
        "markers_placed": s.marker_count,
        "extinguished": [board.labels[h] for h in sorted(s.extinguished)],
        "guard_deck": [GUARD_CARD_NAMES[c] for c in s.guard_deck],
        "market": [None if c == NONE else GUARD_CARD_NAMES[c] for c in s.market],
        "exit_deck": [board.tiles[k].id for k in s.exit_deck],
        "treasures": [TREASURE_NAMES[x] for x in s.treasures],
        "vault_triggered": s.vault_triggered,
        "guard_trace": [[i + 1, _label(board, hex), FACINGS[facing], STATUSES[status]]
                        for i, hex, facing, status in s.guard_trace],
        "stack": [frame_to_json(f) for f in s.stack],
        "rng": s.rng.to_json(),
        "result": None if result is None else result.to_json(),
    }


# --- reading: values ------------------------------------------------------------------------------
def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidPosition(f"{where} must be a JSON object, not {value!r}")
    return value


def _number(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise InvalidPosition(f"{where} must be a whole number {bound}, not {value!r}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidPosition(f"{where} must be true or false, not {value!r}")
    return value


def _name(value: Any, names: tuple[str, ...], kind: str, where: str) -> int:
    if not isinstance(value, str) or value not in names:
        raise InvalidPosition(f"{where}: {value!r} is not {kind} (one of {', '.join(names)})")
    return names.index(value)


def _names(value: Any, names: tuple[str, ...], kind: str, where: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidPosition(f"{where} must be a list of {kind} names")
    return [_name(v, names, kind, where) for v in value]


def _hex(board: Board, value: Any, where: str) -> int:
    """The floor hex of a label; refused if it is not one of ``board``."""
    try:
        return board.at(value)
    except ValueError:
        raise InvalidPosition(f"{where}: {value!r} is not a floor hex of {board.name}") from None


def _maybe_hex(board: Board, value: Any, where: str) -> int:
    return NONE if value is None else _hex(board, value, where)


def _hexes(board: Board, value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidPosition(f"{where} must be a list of hex labels")
    hexes = [_hex(board, v, where) for v in value]
    twice = [board.labels[h] for h, k in Counter(hexes).items() if k > 1]
    if twice:
        raise InvalidPosition(f"{where} lists {', '.join(twice)} twice")
    return hexes


def _tile(board: Board, value: Any, where: str) -> int:
    ids = tuple(tile.id for tile in board.tiles)
    return _name(value, ids, f"a tile of {board.name}", where)


def _seat_mask(value: Any, n: int, where: str) -> int:
    seats = _names(value, SEATS[:n], "a seat", where)
    if len(set(seats)) != len(seats):
        raise InvalidPosition(f"{where} names a seat twice")
    return sum(1 << p for p in seats)


def _route(value: Any, length: int, where: str) -> tuple[int, int]:
    raw = _object(value, where)
    pos = _number(raw.get("position"), f"{where} position", 0, max(0, length - 1))
    direction = raw.get("direction")
    if direction not in (1, -1) or isinstance(direction, bool):
        raise InvalidPosition(f"{where} direction must be 1 or -1, not {direction!r}")
    return pos, direction


# --- reading: guards ------------------------------------------------------------------------------
def _read_guard(s: State, g: Guard, number: int, raw: Any) -> None:
    """Fill ``g`` (made by ``create_guards``: its identity is fixed) from its JSON."""
    board = s.board
    where = f"guard {number}"
    raw = _object(raw, where)
    tile = board.tiles[g.tile]
    identity = (tile.id, g.role, GUARD_TYPES[g.type], g.undead)
    given = (raw.get("tile"), raw.get("role"), raw.get("type"), raw.get("undead"))
    if given != identity:
        raise InvalidPosition(
            f"{where} must be the {tile.id} tile's {g.role} {'undead ' if g.undead else ''}"
            f"{GUARD_TYPES[g.type]} guard (the scenario's guards for {s.difficulty}"
            f"{', advanced' if s.advanced else ''}, in listing order: ruling 23), not {given}")
    if _flag(raw.get("bow"), f"{where} bow") != g.bow:
        raise InvalidPosition(f"{where} {'has' if g.bow else 'has no'} bow on {s.difficulty} "
                              "(rulings 39, 40)")
    g.placed = _flag(raw.get("placed"), f"{where} placed")
    hex = raw.get("hex")
    if g.placed:
        g.hex = _hex(board, hex, f"{where} hex")
    elif hex is not None:
        raise InvalidPosition(f"{where} is not placed, so it has no hex")
    g.facing = _name(raw.get("facing"), FACINGS, "a facing", f"{where} facing")
    g.status = _name(raw.get("status"), STATUSES, "a status", f"{where} status")
    route = guard_rules.route_of(board, g)
    g.route_pos, g.route_dir = _route(raw.get("route"), len(route), f"{where} route")
    home = raw.get("home")
    if home is not None:
        home = _object(home, f"{where} home")
        pos, direction = _route(home.get("route"), len(route), f"{where} home route")
        g.home = Home(_hex(board, home.get("hex"), f"{where} home hex"), pos, direction,
                      _name(home.get("facing"), FACINGS, "a facing", f"{where} home facing"))
    g.target = _maybe_hex(board, raw.get("target"), f"{where} target")
    g.key = _flag(raw.get("key"), f"{where} key")
    coins = _number(raw.get("coins"), f"{where} coins", 0, s.params.guard_coins)
    if coins not in (0, s.params.guard_coins):
        raise InvalidPosition(f"{where} carries {s.params.guard_coins} coins or none (R62), "
                              f"not {coins}")
    g.coins = coins
    g.shot = _seat_mask(raw.get("shot"), s.n, f"{where} shot")
    if g.undead and (g.key or g.coins or g.bow):
        raise InvalidPosition(f"{where} is undead: it carries no key, coins or bow (R41)")
    if g.type == ROVING and g.home is not None:
        raise InvalidPosition(f"{where} is the Roving guard, which has no home (R30)")
    if g.status == RETURNING and g.home is None:
        raise InvalidPosition(f"{where} is Returning but has no home (R38)")
    if g.type != ROVING and g.status == DEFAULT_STATUS[g.type] and g.home is not None:
        raise InvalidPosition(f"{where} is in its default status, so it has no home (R38)")
    if g.placed and guard_rules.waits_for_vault(board, g) and not s.vault_triggered:
        raise InvalidPosition(f"{where} waits for a thief to enter the Vault tile (R31)")


def _read_guard_trace(s: State, raw: Any) -> None:
    """``s.guard_trace`` from its JSON: empty, or every guard in listing order as the Guard
    Phase began, then its steps, each ``[number, hex or null, facing, status]``."""
    board = s.board
    trace = []
    for k, entry in enumerate(raw):
        where = f"guard_trace entry {k + 1}"
        if not isinstance(entry, list) or len(entry) != 4:
            raise InvalidPosition(f"{where} must be [guard, hex, facing, status]")
        number = _number(entry[0], f"{where} guard", 1, len(s.guards)) - 1
        if k < len(s.guards) and number != k:
            raise InvalidPosition(f"guard_trace begins with every guard in listing order: "
                                  f"{where} is guard {number + 1}, not {k + 1}")
        trace.append((number, _maybe_hex(board, entry[1], f"{where} hex"),
                      _name(entry[2], FACINGS, "a facing", f"{where} facing"),
                      _name(entry[3], STATUSES, "a status", f"{where} status")))
    if trace and len(trace) < len(s.guards):
        raise InvalidPosition(f"guard_trace begins with all {len(s.guards)} guards")
    s.guard_trace = tuple(trace)


# --- reading: thieves -----------------------------------------------------------------------------
def _read_thief(s: State, seat: int, raw: Any) -> None:
    board = s.board
    t = s.thieves[seat]
    where = SEATS[seat]
    raw = _object(raw, where)
    if raw.get("name", where) != where:
        raise InvalidPosition(f"thief {seat + 1} must be named {where!r}")
    t.standing = _name(raw.get("standing"), STANDINGS, "a standing", f"{where} standing")
    t.hex = _maybe_hex(board, raw.get("hex"), f"{where} hex")
    if t.standing != IN_PLAY and t.hex != NONE:
        raise InvalidPosition(f"{where} is {STANDINGS[t.standing]}, so it is not on the map")
    if t.standing == IN_PLAY and t.hex == NONE and s.round > 0:
        raise InvalidPosition(f"{where} is in play but its Location Dial is not set")
    t.wounds = _number(raw.get("wounds"), f"{where} wounds", 0, s.params.wounds)
    if (t.wounds == 0) != (t.standing == KILLED):
        raise InvalidPosition(f"{where} has {t.wounds} wounds left and is "
                              f"{STANDINGS[t.standing]}: a thief with none is killed")
    t.hand = _names(raw.get("hand"), THIEF_CARD_NAMES, "a thief card", f"{where} hand")
    t.discard = _names(raw.get("discard"), THIEF_CARD_NAMES, "a thief card", f"{where} discard")
    held = Counter(t.hand + t.discard)
    for c, name in enumerate(THIEF_CARD_NAMES):
        if held[c] != 1:
            raise InvalidPosition(f"{where} has {name} in {held[c]} places: each of its ten "
                                  "cards is in its hand or its discard pile (R45)")
    if REST in t.discard:
        raise InvalidPosition(f"{where}: Rest never leaves the hand (R45)")
    t.coins = _number(raw.get("coins"), f"{where} coins")
    t.guard_cards = _names(raw.get("guard_cards"), GUARD_CARD_NAMES, "a Guard card",
                           f"{where} guard_cards")
    if LOCKPICKS in t.guard_cards:
        raise InvalidPosition(f"{where}: Lockpicks are kept as 'lockpicks', not held to play")
    t.lockpicks = _flag(raw.get("lockpicks"), f"{where} lockpicks")
    keys = raw.get("keys")
    if not isinstance(keys, list):
        raise InvalidPosition(f"{where} keys must list tile ids")
    tiles = [_tile(board, k, f"{where} keys") for k in keys]
    if len(set(tiles)) != len(tiles):
        raise InvalidPosition(f"{where} keys name a tile twice")
    t.keys = sum(1 << k for k in tiles)
    treasure = raw.get("treasure")
    t.treasure = NONE if treasure is None else _name(treasure, TREASURE_NAMES, "a treasure",
                                                     f"{where} treasure")
    if t.treasure == FAKE:
        raise InvalidPosition(f"{where} carries the Fake, which is discarded at once (R51)")
    t.armour_used = _flag(raw.get("armour_used"), f"{where} armour_used")
    t.sword_used = _flag(raw.get("sword_used"), f"{where} sword_used")
    exit_tile = raw.get("exit")
    t.exit_tile = NONE if exit_tile is None else _tile(board, exit_tile, f"{where} exit")
    if t.exit_tile == NONE or not board.tiles[t.exit_tile].exit:
        raise InvalidPosition(f"{where}'s Exit card must name an exit tile (6.7)")
    t.hiding = _flag(raw.get("hiding"), f"{where} hiding")
    possible = raw.get("possible")
    if possible is not None:
        hexes = _hexes(board, possible, f"{where} possible")
        if t.standing != IN_PLAY or t.hex == NONE:
            raise InvalidPosition(f"{where} is not on the map: it has no possible hexes")
        if t.hex not in hexes:
            raise InvalidPosition(f"{where} stands on {board.labels[t.hex]}, which is not among "
                                  "its possible hexes (they always hold the truth)")
        t.possible = frozenset(hexes)
    plan = raw.get("plan")
    if plan is not None:
        if t.standing != IN_PLAY or s.phase != "plan":
            raise InvalidPosition(f"{where} has a plan outside the plan phase or off the map")
        t.plan = _read_plan(s, seat, plan)


def _read_plan(s: State, seat: int, raw: Any) -> Plan:
    board = s.board
    where = f"{SEATS[seat]} plan"
    raw = _object(raw, where)
    card = _name(raw.get("card"), THIEF_CARD_NAMES, "a thief card", f"{where} card")
    pocket = raw.get("pocket")
    loot = raw.get("loot")
    guard_card = raw.get("guard_card")
    gc = NONE if guard_card is None else _name(guard_card, GUARD_CARD_NAMES, "a Guard card",
                                               f"{where} guard_card")
    target = raw.get("target")
    aim = NONE
    if target is not None:
        if gc == NONE:
            raise InvalidPosition(f"{where} has a target but no Guard card")
        if GUARD_CARDS[gc].target == "guard":
            aim = _number(target, f"{where} target", 1, len(s.guards)) - 1
        else:
            aim = _hex(board, target, f"{where} target")
    return Plan(
        card,
        first=_maybe_hex(board, raw.get("first"), f"{where} first"),
        second=_maybe_hex(board, raw.get("second"), f"{where} second"),
        escape=int(_flag(raw.get("escape"), f"{where} escape")),
        pocket=NONE if pocket is None else _number(pocket, f"{where} pocket", 1,
                                                   len(s.guards)) - 1,
        loot=NONE if loot is None else _name(loot, LOOT, "loot", f"{where} loot"),
        guard_card=gc, target=aim, take=int(_flag(raw.get("take"), f"{where} take")))


def _check_plan(s: State, seat: int, stage: str) -> None:
    """The plan of thief ``seat`` is one the plan decisions could have made (ruling 58), as
    far as ``stage`` (``card``, ``guard``: the card and Guard card, or ``all``)."""
    t = s.thieves[seat]
    plan = plan_of(t)
    where = f"{SEATS[seat]}'s plan"
    card_part = Plan(plan.card, plan.first, plan.second, plan.escape, plan.pocket, plan.loot)
    if not any(plan_from_card(s, seat, a) == card_part for a in card_options(s, seat)):
        raise InvalidPosition(f"{where} is not a legal play of {THIEF_CARD_NAMES[plan.card]} "
                              f"from {s.board.labels[t.hex]} (6.2, 6.3, ruling 58)")
    if stage == "card":
        if plan.guard_card != NONE or plan.take:
            raise InvalidPosition(f"{where} is still choosing its Guard card")
        return
    t.plan = card_part
    chosen = (plan.guard_card, plan.target)
    offered = {(NONE, NONE)}
    for a in guard_card_options(s, seat):
        if a.verb == verbs.GUARD_CARD:
            kind = GUARD_CARDS[a.x].target
            offered.add((a.x, a.y if kind == "guard" else
                         board_hex(s.board, a.z) if a.z >= 0 else NONE))
    if chosen not in offered:
        raise InvalidPosition(f"{where}: that Guard card and target are not legal (6.5)")
    t.plan = card_part._replace(guard_card=plan.guard_card, target=plan.target)
    if (stage == "guard" and plan.take) or (plan.take and not can_take(s, seat)):
        raise InvalidPosition(f"{where} cannot take a treasure (R51)")
    t.plan = plan


# --- reading: decks, markers, frames --------------------------------------------------------------
def _read_decks(s: State, data: dict[str, Any]) -> None:
    board, params = s.board, s.params
    s.guard_deck = _names(need(data, "guard_deck", list, "the position"), GUARD_CARD_NAMES,
                          "a Guard card", "guard_deck")
    market = need(data, "market", list, "the position")
    s.market = [NONE if c is None else _name(c, GUARD_CARD_NAMES, "a Guard card", "market")
                for c in market]
    every = len(GUARD_CARDS) * params.copies_per_guard_card
    if len(s.market) != min(params.market_size, every):
        raise InvalidPosition(f"the market has {min(params.market_size, every)} places "
                              f"(6.5), not {len(s.market)}")
    counts = Counter(s.guard_deck + [c for c in s.market if c != NONE])
    for t in s.thieves:
        counts.update(t.guard_cards)
        counts[LOCKPICKS] += t.lockpicks
    for c, k in counts.items():
        if k > params.copies_per_guard_card:
            raise InvalidPosition(f"{k} copies of {GUARD_CARD_NAMES[c]} are in the deck, the "
                                  f"market and the thieves' hands; there are only "
                                  f"{params.copies_per_guard_card} (6.5)")
    exits = [k for k, tile in enumerate(board.tiles) if tile.exit]
    s.exit_deck = [_tile(board, k, "exit_deck") for k in need(data, "exit_deck", list,
                                                                   "the position")]
    copies = max(params.exit_cards_per_tile, -(-s.n // len(exits)))
    dealt = Counter(s.exit_deck + [t.exit_tile for t in s.thieves])
    for k, count in dealt.items():
        if k not in exits or count > copies:
            raise InvalidPosition(f"the Exit deck has {copies} cards of each exit tile "
                                  f"(6.7); {count} of {board.tiles[k].id} are dealt or left")
    s.treasures = _names(need(data, "treasures", list, "the position"), TREASURE_NAMES,
                         "a treasure", "treasures")
    carried = [t.treasure for t in s.thieves if t.treasure != NONE]
    tokens = Counter(s.treasures + carried)
    for x, k in tokens.items():
        if k > 1:
            raise InvalidPosition(f"the {TREASURE_NAMES[x]} is in {k} places (6.6)")
    fakes = tokens[FAKE]
    if fakes and not s.advanced:
        raise InvalidPosition("the Fake is only in the advanced game (6.6)")
    taken_fake = 1 if s.advanced and not fakes else 0
    if len(s.treasures) + len(carried) + taken_fake != s.n + 1:
        raise InvalidPosition(f"{s.n + 1} treasure tokens were drawn (one per thief plus one, "
                              f"R51): {len(s.treasures)} on the crown and {len(carried)} "
                              f"carried{' and the Fake discarded' if taken_fake else ''} "
                              "do not add up")


def _read_markers(s: State, data: dict[str, Any]) -> None:
    board = s.board
    raw = need(data, "markers", dict, "the position")
    markers: dict[int, int] = {}
    for text, order in raw.items():
        hex = _hex(board, text, "markers")
        if hex in markers:
            raise InvalidPosition(f"two Thief Markers on {board.labels[hex]}: a hex holds at "
                                  "most one (R43)")
        markers[hex] = _number(order, f"the order of the marker on {text}")
    s.marker_count = _number(need(data, "markers_placed", int, "the position"),
                             "markers_placed")
    if len(set(markers.values())) != len(markers) or any(
            k >= s.marker_count for k in markers.values()):
        raise InvalidPosition(f"marker orders must be different numbers below markers_placed "
                              f"({s.marker_count})")
    s.markers = dict(sorted(markers.items(), key=lambda m: m[1]))
    torches = set(board.torches)
    out = _hexes(board, need(data, "extinguished", list, "the position"), "extinguished")
    for hex in out:
        if hex not in torches:
            raise InvalidPosition(f"extinguished: {board.labels[hex]} holds no torch (2.8)")
    s.extinguished = frozenset(out)


def _frame_specs(n: int) -> tuple[dict[str, int], dict[str, int]]:
    """Frame kinds and automatic steps, each with how many seat arguments it takes."""
    frames = {"start": 1, "buy": 1, "plan_card": 1, "plan_guard": 1, "plan_treasure": 1}
    steps = {"start": 1, "resource": 0, "buy": 1, "plan": 1, "reveal": 0, "thief_phase": 0,
             "guard_phase": 0, "end_round": 0}
    return frames, steps


FRAME_KINDS, STEP_NAMES = (set(x) for x in _frame_specs(1))
if FRAME_KINDS | {"ops"} != set(DECISIONS.handlers) or set(DECISIONS.ops) != STEP_NAMES:
    raise ImportError("position.py does not know every frame kind and automatic step")


def _check_frame(f: Frame, n: int) -> None:
    frames, steps = _frame_specs(n)
    seat = is_seat(n)
    kind = f[0] if f and isinstance(f[0], str) else None
    if kind == "ops":
        if len(f) != 3 or f[1] != -1 or not isinstance(f[2], tuple) or not f[2]:
            raise InvalidPosition(f"malformed queued steps {frame_to_json(f)!r}")
        for step in f[2]:
            args = steps.get(step[0]) if isinstance(step, tuple) and step else None
            if args is None or len(step) != args + 1 or not all(map(seat, step[1:])):
                raise InvalidPosition(f"malformed queued step {frame_to_json(step)!r}")
        return
    args = frames.get(kind) if kind is not None else None
    if args is None or len(f) != args + 1 or not all(map(seat, f[1:])):
        raise InvalidPosition(f"malformed pending decision {frame_to_json(f)!r}")


def _read_stack(s: State, raw: Any) -> None:
    if not isinstance(raw, list):
        raise InvalidPosition("stack must be a list")
    for item in raw:
        frame = frame_from_json(item)
        if not isinstance(frame, tuple):
            raise InvalidPosition(f"malformed pending decision {item!r}")
        _check_frame(frame, s.n)
        s.stack.append(frame)
    for f in s.stack:
        if f[0] != "ops" and s.thieves[f[1]].standing != IN_PLAY:
            raise InvalidPosition(f"{SEATS[f[1]]} is out of the game but must decide {f[0]}")
    top = s.stack[-1] if s.stack else None
    for seat, t in enumerate(s.thieves):
        deciding = top is not None and top[1] == seat
        if top is not None and top[0] == "plan_card" and deciding and t.plan is not None:
            raise InvalidPosition(f"{SEATS[seat]} is choosing its thief card but has a plan")
        if t.plan is None:
            if deciding and top is not None and top[0] in ("plan_guard", "plan_treasure"):
                raise InvalidPosition(f"{SEATS[seat]} is completing a plan it does not have")
            continue
        if t.hex == NONE:
            raise InvalidPosition(f"{SEATS[seat]} has a plan but no Location Dial")
        stage = "all"
        if deciding and top is not None:
            stage = {"plan_guard": "card", "plan_treasure": "guard"}.get(top[0], "all")
        _check_plan(s, seat, stage)


# --- reading: the whole ---------------------------------------------------------------------------
def _read_board(raw: Any) -> Board:
    if isinstance(raw, str):
        if raw not in scenarios.names():
            raise InvalidPosition(f"scenario {raw!r} is not a shipped scenario (one of "
                                  f"{', '.join(scenarios.names())}, or the scenario's JSON)")
        return scenarios.load(raw)
    if not isinstance(raw, dict):
        raise InvalidPosition("scenario must be a shipped scenario's id or a scenario's JSON")
    try:
        return scenarios.from_doc(raw)
    except ValueError as exc:
        raise InvalidPosition(f"scenario: {exc}") from None


def _read_outcome(raw: Any, s: State) -> Outcome:
    raw, winners, points = read_result(raw, s.n, points_required=True)
    reason = raw.get("reason")
    found = next((o for o in (outcome(s), outcome(s, dawn=True)) if o is not None
                  and (list(o.winners), o.reason, list(o.points or ())) == (
                      winners, reason, points)), None)
    if found is None:
        raise InvalidPosition("result is not how this position ends (section 9)")
    return found


def _check_pieces(s: State) -> None:
    """Where guards and thieves may stand together (rulings 37, 42)."""
    board = s.board
    for seat, t in enumerate(s.thieves):
        if t.hex == NONE:
            continue
        for number, g in enumerate(s.guards, 1):
            if g.placed and g.hex == t.hex and not g.undead and not t.sword_used:
                raise InvalidPosition(
                    f"{SEATS[seat]} stands on {board.labels[t.hex]} with guard {number}: a thief "
                    "never steps into a guard's hex and a guard stepping in catches it (R37, R42)")


def read_position(data: Any) -> State:
    """Build a state from a position; ``InvalidPosition`` naming the first fault."""
    try:
        return _read(data)
    except InvalidPosition:
        raise
    except (AttributeError, AssertionError, IndexError, KeyError, TypeError,
            ValueError) as exc:
        raise InvalidPosition(f"the position does not hold together: {exc!r}") from None


def _read(data: Any) -> State:
    if not isinstance(data, dict):
        raise InvalidPosition("a position must be a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidPosition(f"unknown position format {data.get('format')!r}")
    board = _read_board(need(data, "scenario", (str, dict), "the position"))
    try:
        params = Parameters.from_json(need(data, "parameters", dict, "the position"))
    except ValueError as exc:
        raise InvalidPosition(f"parameters: {exc}") from None
    n = need(data, "players", int, "the position")
    mode = need(data, "mode", str, "the position")
    difficulty = need(data, "difficulty", str, "the position")
    advanced = need(data, "advanced", bool, "the position")
    try:
        check_choices(board, n, mode, difficulty, advanced)
    except ValueError as exc:
        raise InvalidPosition(str(exc)) from None
    s = State(board, params, n)
    s.mode, s.difficulty, s.advanced = mode, difficulty, advanced
    s.round = _number(need(data, "round", int, "the position"), "round", 0, dawn(s))
    s.turn = s.round
    s.phase = need(data, "phase", str, "the position")
    if s.phase not in PHASES:
        raise InvalidPosition(f"phase must be one of {', '.join(PHASES)}, not {s.phase!r}")
    s.vault_triggered = need(data, "vault_triggered", bool, "the position")
    guard_rules.create_guards(s)
    raw_guards = need(data, "guards", list, "the position")
    if len(raw_guards) != len(s.guards):
        raise InvalidPosition(f"{board.name} has {len(s.guards)} guards on {difficulty}"
                              f"{', advanced' if advanced else ''}, not {len(raw_guards)}")
    for number, (g, raw) in enumerate(zip(s.guards, raw_guards, strict=True), 1):
        _read_guard(s, g, number, raw)
    _read_guard_trace(s, need(data, "guard_trace", list, "the position"))
    raw_thieves = need(data, "thieves", list, "the position")
    if len(raw_thieves) != n:
        raise InvalidPosition(f"thieves must list {n} thieves, not {len(raw_thieves)}")
    for seat, raw in enumerate(raw_thieves):
        _read_thief(s, seat, raw)
    _read_markers(s, data)
    _read_decks(s, data)
    _check_pieces(s)
    _read_stack(s, need(data, "stack", list, "the position"))
    s.rng = read_rng(need(data, "rng", (int, dict), "the position"))
    if "result" not in data:
        raise InvalidPosition("the position has no 'result'")
    if data["result"] is not None:
        s.result = _read_outcome(data["result"], s)
        if s.stack or s.phase != "over":
            raise InvalidPosition("a finished game is in its 'over' phase with no decisions")
        return s
    if s.phase == "over" or outcome(s) is not None:
        raise InvalidPosition("this position's game is over (section 9) but has no result")
    if not s.stack:
        raise InvalidPosition("a game in progress has a pending decision")
    check_pending(s, advance)
    return s


STATE_HOOKS.write_position = write_position
