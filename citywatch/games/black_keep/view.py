"""What one seat may see (spec 10), and worlds re-sampled to fit it (determinization).

Public, in every view: the map, torches and Extinguished Torch counters, the lit hexes, every
guard's whole state and what it sees now, the last Guard Phase step by step, each guard's
coming Guard Phase as far as public facts tell (``forecast``, ``intentions``), every Thief
Marker, the market and the number of cards in the decks and of tokens on the crown, and of
every thief its standing, wounds, coins, Guard cards, items, treasure, Exit card, hand and
discard pile (ten cards less the public discards), whether it hides, and the hexes where the
public knows it may be (``possible``).

Hidden: the Location Dials (in solo and co-op every thief's dial is shared by the players, in
rivals a seat sees only its own, the spectator none); every committed plan but the seat's own,
even in co-op, until the reveal (issue 12; citywatch ruling 16); the order of the Guard deck and
the Exit deck and which tokens lie on the crown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from citywatch.core.rng import Rng
from citywatch.games.black_keep import actions as verbs
from citywatch.games.black_keep import intentions
from citywatch.games.black_keep.actions import SEATS, Action, board_hex
from citywatch.games.black_keep.board import BLOCKED, Board
from citywatch.games.black_keep.data import FAKE, GUARD_CARD_NAMES, GUARD_CARDS, REAL_TREASURES
from citywatch.games.black_keep.harm import guard_name
from citywatch.games.black_keep.hexes import FACINGS, neighbour, row_number
from citywatch.games.black_keep.hexes import label as hex_label
from citywatch.games.black_keep.position import guard_json, plan_json, thief_json
from citywatch.games.black_keep.round import (
    DECISIONS,
    Plan,
    can_take,
    card_options,
    dawn,
    describe_plan,
    guard_card_options,
    plan_from_card,
    plan_of,
)
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import (
    DISTRACTED,
    IN_PLAY,
    NONE,
    STATE_HOOKS,
    STATUSES,
    BlackKeepState,
    Thief,
)

State = BlackKeepState


def knows_dial(s: State, seat: int | None, thief: int) -> bool:
    """Whether ``seat`` (None: a spectator) may see thief ``thief``'s Location Dial: its own
    always, every thief's in solo and co-op, never as a spectator (spec 10)."""
    if seat is None:
        return False
    return seat == thief or s.mode != "rivals"


def sees(s: State, guard: int) -> list[str]:
    """The labels of the hexes guard ``guard`` sees now (3.6), in board order."""
    g = s.guards[guard]
    if not g.placed or g.status == DISTRACTED:
        return []
    seen = sight(s.board).seen(g.hex, g.facing, g.status, s.params.bored_reach)
    return [s.board.labels[h] for h in sorted(seen)]


def _guard_view(s: State, number: int) -> dict[str, Any]:
    g = s.guards[number]
    return {"number": number + 1, "name": guard_name(s, g), **guard_json(s, g),
            "sees": sees(s, number)}


def _thief_view(s: State, thief: int, seat: int | None) -> dict[str, Any]:
    t = s.thieves[thief]
    shown = thief_json(s, thief)
    known = knows_dial(s, seat, thief)
    shown["hex_known"] = known
    if not known:
        shown["hex"] = None
    shown["plan"] = None
    if thief == seat and t.plan is not None:
        shown["plan"] = {**plan_json(s, plan_of(t)), "text": describe_plan(s, thief)}
    return shown


def map_json(board: Board) -> dict[str, Any]:
    """The map as the browser draws it (spec 2), made once per board and shared by every view
    (never change it): ``hexes``, each floor hex's label to its axial ``[q, r]``; ``solid``
    the same for the solid hexes; ``walls``, the sides between two floor hexes that are walls,
    as pairs of labels; ``special``, each Special Hex's label to its kind; each tile's id,
    name, block of the label grid (``columns`` as axial q from and to, ``rows`` from and to),
    entry and exit flags, outside edge hexes and printed routes (the Patrolling guards' green
    line, the Wandering guards' red arrows); the crown's hex and the Vault tile. A side of a
    floor hex is the map's edge where the hex across it is neither floor nor solid."""
    known: dict[str, Any] | None = board.derived.get("map_json")
    if known is not None:
        return known
    labels = board.labels
    walls = []
    for i, h in enumerate(board.hexes):
        for f in range(3):  # each side once: its N, NE and SE sides (the rest are others')
            across = board.index.get(neighbour(h, f))
            if across is not None and board.step[i][f] == BLOCKED:
                walls.append(sorted((labels[i], labels[across])))

    tiles = []
    for tile in board.tiles:
        cells = [board.hexes[h] for h in tile.hexes]
        rows = [row_number(c) for c in cells]
        tiles.append({
            "id": tile.id, "name": tile.name,
            "columns": [min(c[0] for c in cells), max(c[0] for c in cells)],
            "rows": [min(rows), max(rows)], "entry": tile.entry, "exit": tile.exit,
            "outside_edge": [labels[h] for h in tile.outside_edge],
            "green_line": [labels[h] for h in tile.green_line],
            "red_arrows": [labels[h] for h in tile.red_arrows]})
    made = {
        "hexes": {labels[i]: [q, r] for i, (q, r) in enumerate(board.hexes)},
        "solid": {hex_label(h): [h[0], h[1]] for h in sorted(board.solid)},
        "walls": sorted(walls),
        "special": {labels[i]: kind for i, kind in sorted(board.special_kind.items())},
        "tiles": tiles,
        "crown": labels[board.crown],
        "vault_tile": board.tiles[board.vault_tile].id,
    }
    board.derived["map_json"] = made
    return made


def guard_steps(s: State) -> list[dict[str, Any]]:
    """The last Guard Phase's public steps (``BlackKeepState.guard_trace``): ``step`` 0 for
    every guard as the phase began (one each, in listing order), then one numbered entry for
    each time a guard stepped, turned or changed status; guards by number from 1."""
    labels = s.board.labels
    first = len(s.guards)
    return [{"step": max(0, k - first + 1), "guard": i + 1,
             "hex": None if hex == NONE else labels[hex], "facing": FACINGS[facing],
             "status": STATUSES[status]}
            for k, (i, hex, facing, status) in enumerate(s.guard_trace)]


PLANNING = ("plan_card", "plan_guard", "plan_treasure")
"""The decisions of a plan: the other seats see only that a thief is making its plan."""


def _decision(s: State, seat: int | None, advice: bool = True) -> dict[str, Any] | None:
    """The pending decision (``StackedState.decision_view``); another seat's plan decisions
    read only "make its plan", so the task tells nothing of the plan (spec 10)."""
    decision = s.decision_view(seat, SEATS, DECISIONS.describe)
    if decision is not None and s.stack and s.stack[-1][0] in PLANNING \
            and s.stack[-1][1] != seat:
        decision["task"] = "make its plan"
    if advice and decision is not None and "actions" in decision and seat is not None:
        decision["warnings"] = intentions.warnings_json(s, seat)
    return decision


def view(s: State, seat: int | None) -> dict[str, Any]:
    """A JSON dict of exactly what ``seat`` may see (``None``: a spectator)."""
    return seat_view(s, seat, advice=True)


def seat_view(s: State, seat: int | None, advice: bool) -> dict[str, Any]:
    """``view``; without ``advice``, none of what is worked out for people from its facts (the
    guards' ``forecast``, the decision's ``warnings``): what an observation vector encodes."""
    s.check_seat(seat)
    board = s.board
    labels = board.labels
    lit = sight(board).lit(s.extinguished, s.params.torch_reach)
    return {
        "game": "black-keep",
        "players": s.n,
        "seat": seat,
        "name": None if seat is None else SEATS[seat],
        "scenario": {"id": board.id, "name": board.name},
        "map": map_json(board),
        "mode": s.mode,
        "difficulty": s.difficulty,
        "advanced": s.advanced,
        "round": s.round,
        "dawn": dawn(s),
        "phase": s.phase,
        "decision": _decision(s, seat, advice),
        "torches": [labels[h] for h in board.torches],
        "extinguished": [labels[h] for h in sorted(s.extinguished)],
        "lit": [labels[h] for h in sorted(lit)],
        "guards": [_guard_view(s, i) for i in range(len(s.guards))],
        "markers": [{"hex": labels[h], "order": order}
                    for h, order in sorted(s.markers.items(), key=lambda m: m[1])],
        "guard_steps": guard_steps(s),
        "forecast": intentions.forecast_json(s) if advice else [],
        "vault_triggered": s.vault_triggered,
        "market": [None if c == NONE else GUARD_CARD_NAMES[c] for c in s.market],
        "guard_deck": len(s.guard_deck),
        "exit_deck": len(s.exit_deck),
        "treasures_on_crown": len(s.treasures),
        "thieves": [_thief_view(s, p, seat) for p in range(s.n)],
        "result": None if s.result is None else s.result.to_json(),
    }


# --- determinization -----------------------------------------------------------------------------
def crown_tokens(s: State, rng: Rng) -> list[int]:
    """Tokens for the crown drawn from what the public knows: as many as lie there, the Fake
    among them while it has not been revealed (advanced game), the rest real treasures that no
    thief carries (6.6, R51: one token per thief plus one was drawn)."""
    carried = {t.treasure for t in s.thieves if t.treasure != NONE}
    pool = [x for x in REAL_TREASURES if x not in carried]
    reals_drawn = s.n if s.advanced else s.n + 1
    fake = min(len(s.treasures), max(0, len(s.treasures) - (reals_drawn - len(carried))))
    rng.shuffle(pool)
    tokens = pool[:len(s.treasures) - fake] + [FAKE] * fake
    rng.shuffle(tokens)
    return tokens


def _guard_part(s: State, seat: int, action: Action) -> Plan:
    """Thief ``seat``'s plan with the Guard card action ``action`` added (as the plan decision
    does)."""
    plan = plan_of(s.thieves[seat])
    if action.verb != verbs.GUARD_CARD:
        return plan
    kind = GUARD_CARDS[action.x].target
    target = action.y if kind == "guard" else (
        board_hex(s.board, action.z) if action.z >= 0 else NONE)
    return plan._replace(guard_card=action.x, target=target)


def card_plans(s: State, seat: int, hex: int, deciding: str) -> list[Plan]:
    """The thief card plans thief ``seat`` could have made on ``hex`` that fit the decision it
    is making now (``deciding``, a frame kind or ""): for ``plan_card`` every one if it has a
    choice (else none: it would not be asked), for ``plan_guard`` those leaving a choice of
    Guard card, for ``plan_treasure`` those ending on the crown, otherwise every one."""
    t = s.thieves[seat]
    here, plan = t.hex, t.plan
    t.hex = hex
    t.plan = None
    options = card_options(s, seat)
    plans = [plan_from_card(s, seat, a) for a in options]
    if deciding == "plan_card" and len(plans) < 2:
        plans = []
    elif deciding in ("plan_guard", "plan_treasure"):
        fitting = []
        for candidate in plans:
            t.plan = candidate
            if can_take(s, seat) if deciding == "plan_treasure" else \
                    len(guard_card_options(s, seat)) > 1:
                fitting.append(candidate)
        plans = fitting
    t.hex, t.plan = here, plan
    return plans


def sample_plan(s: State, seat: int, deciding: str, rng: Rng) -> None:
    """Give thief ``seat`` a random plan, from its hex, that fits the decision it is making
    (``card_plans``): for ``plan_guard`` its thief card only, for ``plan_treasure`` its thief
    card and a Guard card, otherwise a whole plan."""
    t = s.thieves[seat]
    plans = card_plans(s, seat, t.hex, deciding)
    t.plan = plans[rng.below(len(plans))]
    if deciding == "plan_guard":
        return
    extras = guard_card_options(s, seat)
    t.plan = _guard_part(s, seat, extras[rng.below(len(extras))])
    if deciding != "plan_treasure" and can_take(s, seat) and rng.below(2):
        t.plan = plan_of(t)._replace(take=1)


def _candidates(s: State, t: Thief) -> list[int]:
    """The hexes a hidden thief may be on, from public facts: its ``possible`` hexes, or with
    none known every floor hex but those of guards that are not undead (R42)."""
    if t.possible is not None:
        return sorted(t.possible)
    posts = {g.hex for g in s.guards if g.placed and not g.undead}
    return [h for h in range(s.board.size) if h not in posts]


def determinize(s: State, seat: int, rng: Rng) -> State:
    """A full state that ``seat`` cannot tell from ``s``: the Guard and Exit decks' order and
    the crown's tokens re-drawn, in rivals the other thieves' Location Dials drawn from their
    public possibility sets, and every other thief's committed plan (and the one being made)
    re-drawn among its legal plans that fit the decision being made.

    Every pool is built from public facts and sorted before it is drawn from, so the sample
    never depends on the hidden truth.
    """
    d = s.sampling_copy(seat, rng)
    d.say(f"A world sampled for {SEATS[seat]}: the earlier log is not carried over.")
    deck = sorted(d.guard_deck)
    rng.shuffle(deck)
    d.guard_deck = deck
    exits = sorted(d.exit_deck)
    rng.shuffle(exits)
    d.exit_deck = exits
    d.treasures = crown_tokens(d, rng)
    top = d.stack[-1] if d.stack else None
    for p, t in enumerate(d.thieves):
        if p == seat or t.standing != IN_PLAY or t.hex == NONE:
            continue
        deciding = top[0] if top is not None and top[1] == p else ""
        if not knows_dial(d, seat, p):
            hexes = _candidates(d, t)
            if deciding.startswith("plan_"):
                hexes = [h for h in hexes if card_plans(d, p, h, deciding)]
            t.hex = hexes[rng.below(len(hexes))]
        if t.plan is not None:
            sample_plan(d, p, deciding, rng)
    return d

_HEX_WORDS = re.compile(r"(?<!\w)[A-Z]{1,2}[0-9]{1,2}(?!\w)")


def move_spaces(before: dict[str, Any], after: dict[str, Any],
                lines: Sequence[str]) -> list[str]:
    """The hexes one decision touched (issue 26), by label in the map's order, read from
    the spectator's views ``before`` and ``after`` it (where a guard, a thief whose hex is
    known, a Thief Marker or a put-out torch was and is) and the hexes the public ``lines``
    name. The Guard Phase a thief's plan sets off counts as that decision's; its steps in
    between are left out (the map replays them)."""
    found: set[str | None] = set()

    def moved(old: list[dict[str, Any]], new: list[dict[str, Any]], key: str) -> None:
        was = {item[key]: item for item in old}
        for item in new:
            earlier = was.get(item[key], {})
            if earlier.get("hex") != item.get("hex") or earlier.get("facing") != item.get(
                    "facing") or earlier.get("status") != item.get("status"):
                found.update((earlier.get("hex"), item.get("hex")))

    moved(before.get("guards", []), after.get("guards", []), "number")
    moved(before.get("thieves", []), after.get("thieves", []), "name")
    found.update({m["hex"] for m in before.get("markers", [])}
                 ^ {m["hex"] for m in after.get("markers", [])})
    found.update(set(before.get("extinguished", [])) ^ set(after.get("extinguished", [])))
    found.update(word for line in lines for word in _HEX_WORDS.findall(line))
    hexes = after.get("map", {}).get("hexes", {})
    return [label for label in hexes if label in found]


STATE_HOOKS.view = view
STATE_HOOKS.determinize = determinize
