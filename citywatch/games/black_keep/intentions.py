"""The guards' next moves as far as the thieves can know them (issue 28), and warnings before a
risky move.

The guard automaton is a function of public state plus the referee's answers (spec 10). With no
thief on the map the referee always answers "nobody", so running the real Guard Phase
(``guards.guard_phase``) on a copy of the state with every thief taken off (a *ghost*) gives
exactly what each guard will do **if it sees no thief and hears no new noise**: the forecast.
Nothing hidden is read: the copy keeps only public facts that the guards act on (guards,
markers, torches, the vault trigger). Where a die settles something (a guard being placed: the
Wandering guard's shield, a Stationary or Roving guard's facing, R27, R31), the phase is run once
per die face and the different results are the alternatives. A guard waiting for the Vault tile
(R31) also gets the outcomes it would have if a thief stepped onto that tile this round, and a
guard placed on a fixed post the outcome "waits" (R61: a thief may stand there).

A guard's moves until it first spots a thief are those of the ghost (its looks come after each
step and at the start, R24), so a thief ending its movement on hex E is spotted in the coming
Guard Phase if and only if one of the ghost's looks would spot E (or a guard walks into E,
R37), as long as nothing else is spotted first: that is the sight warning. The dead-end warning
is citywatch ruling 26 (``docs/black-keep-rulings.md``).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Final

from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards
from citywatch.games.black_keep.data import EYE, HIDE, PICK_POCKET, RUN
from citywatch.games.black_keep.hexes import FACINGS
from citywatch.games.black_keep.round import (
    OFF_MAP,
    Plan,
    card_options,
    enters_vault,
    plan_from_card,
    thief_steps,
)
from citywatch.games.black_keep.sight import can_spot, sight
from citywatch.games.black_keep.state import (
    DISTRACTED,
    ESCAPED,
    GUARD_FIELDS,
    IN_PLAY,
    NONE,
    STATUSES,
    WANDERING,
    BlackKeepState,
    GuardSnapshot,
)

State = BlackKeepState
FACES: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)
"""The black die's faces."""
IF_VAULT: Final = "if a thief steps onto the Vault tile"
"""The condition of a waiting vault guard's outcomes (R31)."""
IF_POST_TAKEN: Final = "if a thief stands on its post"
"""The condition of a guard that waits instead of being placed (R61)."""


@dataclass(frozen=True)
class Outcome:
    """One way a guard's coming Guard Phase may end, if it sees no thief and hears no noise:
    ``route`` the hexes it stands on in turn after the phase begins (for a guard placed in the
    phase, its post first), where it ends (``hex`` ``NONE``: not on the map), its ``facing``
    and ``status`` then, the die ``faces`` that lead here (empty: no die decides), and
    ``when``, a condition ("" if none: this happens unless a thief is seen or heard)."""

    route: tuple[int, ...]
    hex: int
    facing: int
    status: int
    faces: tuple[int, ...] = ()
    when: str = ""


@dataclass(frozen=True)
class Forecast:
    """Guard ``guard``'s (its index) possible outcomes, and the words that say them
    (``does``, without the guard's name and status)."""

    guard: int
    outcomes: tuple[Outcome, ...]
    does: str

    def text(self, s: State) -> str:
        """``G2 (Interested) walks 1 to C4, faces SE``."""
        g = s.guards[self.guard]
        head = f"G{self.guard + 1}" + (f" ({STATUSES[g.status].capitalize()})" if g.placed
                                       else "")
        return f"{head} {self.does}"


class _Die(Rng):
    """A die that always shows ``face`` and counts its rolls (the ghost's generator; only
    ``roll`` is used in a Guard Phase)."""

    __slots__ = ("face", "rolls")

    def __init__(self, face: int) -> None:
        super().__init__()
        self.face = face
        self.rolls = 0

    def roll(self, sides: int) -> int:
        self.rolls += 1
        return self.face


@dataclass(frozen=True)
class _Run:
    """One Guard Phase of a ghost: the state before and after, its trace, the die face used
    (0: no die was rolled) and whether the vault was triggered in it."""

    before: State
    after: State
    face: int
    vault: bool

    @property
    def trace(self) -> tuple[GuardSnapshot, ...]:
        return self.after.guard_trace


def ghost(s: State, vault: bool = False, noise: int = NONE) -> State:
    """A copy of ``s`` with every thief off the map (no referee answer can be yes), its plans
    gone; the vault triggered if ``vault``; a Run's noise at ``noise`` if given."""
    g = s.copy()
    for t in g.thieves:
        t.standing = ESCAPED if t.standing == IN_PLAY else t.standing
        t.hex = NONE
        t.plan = None
    g.vault_triggered = g.vault_triggered or vault
    g.stack = []
    if noise != NONE:
        guards.noise(g, noise, "run")
    return g


def _phase(before: State, face: int) -> tuple[State, int]:
    """Run the Guard Phase on a copy of the ghost ``before`` with a die showing ``face``;
    the state after and the number of rolls."""
    after = before.copy()
    die = _Die(face)
    after.rng = die
    guards.guard_phase(after)
    return after, die.rolls


RUNS_KEPT: Final = 64
"""How many ghosts' Guard Phases ``runs`` keeps (the newest), by ``public_key``."""
_RUNS: Final[OrderedDict[tuple[Any, ...], list[_Run]]] = OrderedDict()


def public_key(s: State) -> tuple[Any, ...]:
    """Every fact a ghost's Guard Phase reads (the board and rules, the round, the guards in
    full, markers, torches, the vault, the market and the thieves' standing; nothing hidden):
    two states with the same key have the same ``runs``."""
    return (id(s.board), id(s.params), s.mode, s.difficulty, s.advanced, s.round, s.phase,
            s.result is None, s.vault_triggered, s.extinguished,
            tuple(sorted(s.markers.items())), s.marker_count, tuple(s.market),
            len(s.guard_deck), tuple(t.standing for t in s.thieves),
            tuple(tuple(getattr(g, f) for f in GUARD_FIELDS) for g in s.guards))


def runs(s: State, vault: bool = False, noise: int = NONE) -> list[_Run]:
    """The ghost's Guard Phase, once if no die is rolled, else once per face (kept by
    ``public_key``: a view of each seat, every step of an environment, asks again; the
    runs' states are never changed)."""
    key = (public_key(s), vault, noise)
    found = _RUNS.get(key)
    if found is None:
        found = _RUNS[key] = played(s, vault, noise)
        if len(_RUNS) > RUNS_KEPT:
            _RUNS.popitem(last=False)
    else:
        _RUNS.move_to_end(key)
    return found


def played(s: State, vault: bool = False, noise: int = NONE) -> list[_Run]:
    """``runs`` worked out afresh."""
    before = ghost(s, vault, noise)
    after, rolls = _phase(before, FACES[0])
    if not rolls:
        return [_Run(before, after, 0, before.vault_triggered)]
    done = [_Run(before, after, FACES[0], before.vault_triggered)]
    for face in FACES[1:]:
        done.append(_Run(before, _phase(before, face)[0], face, before.vault_triggered))
    return done


def _waits_for_vault(s: State) -> bool:
    return not s.vault_triggered and any(
        not g.placed and guards.waits_for_vault(s.board, g) for g in s.guards)


def _outcome(run: _Run, i: int) -> Outcome:
    """Guard ``i``'s outcome in ``run`` (its die face not yet attached)."""
    n = len(run.before.guards)
    g = run.after.guards[i]
    route: list[int] = []
    start = run.before.guards[i]
    if not start.placed and g.placed:
        route.append(run.trace[i][1])
    last = route[-1] if route else start.hex
    for j, hex, _, _ in run.trace[n:]:
        if j == i and hex != last and hex != NONE:
            route.append(hex)
            last = hex
    if not g.placed:
        return Outcome((), NONE, g.facing, g.status)
    return Outcome(tuple(route), g.hex, g.facing, g.status)


def forecast(s: State) -> list[Forecast]:
    """Every guard's coming Guard Phase as far as public facts tell (the module's doc); empty
    when the game is over."""
    if s.result is not None or not s.guards:
        return []
    worlds = [runs(s)]
    if _waits_for_vault(s):
        worlds.append(runs(s, vault=True))
    found = []
    for i, g in enumerate(s.guards):
        outcomes: list[Outcome] = []
        for w, world in enumerate(worlds):
            faces: dict[Outcome, list[int]] = {}
            for run in world:
                faces.setdefault(_outcome(run, i), []).append(run.face)
            for o, fs in faces.items():
                shown = tuple(fs) if len(faces) > 1 else ()
                o = Outcome(o.route, o.hex, o.facing, o.status, shown, IF_VAULT if w else "")
                if w and any(o.route == k.route and o.facing == k.facing and o.status == k.status
                             for k in outcomes):
                    continue
                outcomes.append(o)
        placed_now = [o for o in outcomes if o.route and not g.placed]
        if placed_now and g.type != WANDERING and any(not o.when for o in placed_now):
            outcomes.append(Outcome((), NONE, g.facing, g.status, (), IF_POST_TAKEN))
        found.append(Forecast(i, tuple(outcomes), describe(s, i, outcomes)))
    return found


# --- words ----------------------------------------------------------------------------------
def _faces(faces: tuple[int, ...]) -> str:
    if not faces:
        return ""
    if len(faces) == 1:
        return f"die {faces[0]}"
    return "die " + ",".join(str(f) for f in faces)


def _one(s: State, i: int, o: Outcome) -> str:
    """What guard ``i`` does in outcome ``o``, in a few words."""
    g = s.guards[i]
    labels = s.board.labels
    if o.hex == NONE:
        return "waits, off the map"
    status = ""
    if o.status != g.status or not g.placed:
        status = f", then {STATUSES[o.status].capitalize()}"
    if not g.placed:
        walk = o.route[1:]
        words = f"appears at {labels[o.route[0]]}"
        if walk:
            words += f", walks to {labels[walk[-1]]}"
        return f"{words}, faces {FACINGS[o.facing]}{status}"
    if not o.route:
        if o.facing != g.facing:
            return f"turns to face {FACINGS[o.facing]}{status}"
        return f"stays at {labels[g.hex]}, facing {FACINGS[o.facing]}{status}"
    steps = len(o.route)
    via = f" via {', '.join(labels[h] for h in o.route[:-1])}" if steps > 1 else ""
    return f"walks {steps} to {labels[o.hex]}{via}, faces {FACINGS[o.facing]}{status}"


def describe(s: State, i: int, outcomes: list[Outcome]) -> str:
    """What guard ``i`` will do, in words: ``walks 1 to C4, faces N``, the choices a die
    settles as ``a die: ... or ...``, and outcomes that need a condition after it."""
    g = s.guards[i]
    plain = [o for o in outcomes if not o.when]
    placed = [o for o in plain if o.hex != NONE]
    parts = []
    if len(plain) == 1:
        parts.append(_one(s, i, plain[0]))
    elif len(placed) > 1 and not g.placed:
        posts = [o.route[0] for o in placed]
        parts.append(f"appears at {_hexes(s, posts)}, by a die")
    elif plain:
        parts.append("a die: " + " or ".join(f"{_one(s, i, o)} ({_faces(o.faces)})"
                                             for o in plain))
    extra = [o for o in outcomes if o.when == IF_VAULT and o.route]
    if extra:
        posts = [o.route[0] for o in extra]
        parts = [f"comes when a thief enters the Vault tile: at {_hexes(s, posts)}"
                 + (", by a die" if len(set(posts)) > 1 else "")]
    if any(o.when == IF_POST_TAKEN for o in outcomes):
        parts.append("not while a thief stands there")
    return "; ".join(parts)


def _hexes(s: State, hexes: list[int]) -> str:
    """Labels of ``hexes`` once each, in board order."""
    return " ".join(s.board.labels[h] for h in sorted(set(hexes)))


def forecast_json(s: State) -> list[dict[str, Any]]:
    """The forecast as the view gives it: per guard its ``number`` (from 1), ``text`` (a line:
    ``G2 (Interested) walks 1 to C4, faces SE``), ``does`` (the same without the guard's
    number and status) and ``outcomes``, each with ``route`` (labels), ``hex`` and
    ``facing`` (None off the map), ``status``, ``die`` (the faces that lead there, empty if
    no die decides) and ``when`` (a condition, or None)."""
    labels = s.board.labels
    return [{"number": f.guard + 1, "text": f.text(s), "does": f.does,
             "outcomes": [{"route": [labels[h] for h in o.route],
                           "hex": None if o.hex == NONE else labels[o.hex],
                           "facing": None if o.hex == NONE else FACINGS[o.facing],
                           "status": STATUSES[o.status], "die": list(o.faces),
                           "when": o.when or None} for o in f.outcomes]}
            for f in forecast(s)]


# --- warnings -------------------------------------------------------------------------------
def _looks(run: _Run) -> list[GuardSnapshot]:
    """Every (guard, hex, facing, status) from which a guard of ``run`` looks, in order."""
    return [snap for snap in run.trace if snap[1] != NONE]


def _spotters(run: _Run, hex: int, hiding: bool, eye: bool) -> list[int]:
    """The guards of ``run`` that would spot (or walk into) a thief on ``hex`` (the first look
    on: the ghost's moves are the real ones until then)."""
    s = run.after
    board = s.board
    view = sight(board)
    lit = view.lit(s.extinguished, s.params.torch_reach)
    n = len(run.before.guards)
    found: list[int] = []
    for k, (i, at, facing, status) in enumerate(run.trace):
        if at == NONE or i in found:
            continue
        if k >= n and at == hex:
            found.append(i)
            continue
        if status == DISTRACTED:
            continue
        seen = view.seen(at, facing, status, s.params.bored_reach)
        if can_spot(board, seen, lit, at, hex, hiding, eye):
            found.append(i)
    return found


def watched(world: list[_Run], eye: bool) -> frozenset[int]:
    """Every hex where some look of the ghost's phase, in any die outcome, would spot a thief
    that is not Hiding."""
    out: set[int] = set()
    for run in world:
        s = run.after
        board = s.board
        view = sight(board)
        lit = view.lit(s.extinguished, s.params.torch_reach)
        for _, at, facing, status in _looks(run):
            if status == DISTRACTED:
                continue
            seen = view.seen(at, facing, status, s.params.bored_reach)
            out.update(h for h in seen if can_spot(board, seen, lit, at, h, False, eye))
            out.add(at)
    return frozenset(out)


def is_dead_end(s: State, seat: int, plan: Plan, world: list[_Run]) -> bool:
    """Citywatch ruling 26: thief ``seat``'s planned movement leads into a dead end when it
    ends on another hex than it starts, the thief can still walk out of the map from there
    (by its own steps to an outside edge hex of its Exit tile: walls, Special Hexes as its keys
    and Lockpicks allow, the guards' hexes after the forecast shut), but only back through a
    hex its movement crossed (its start, a Run's middle hex), and every such way out passes a
    hex where a guard would spot it in the coming Guard Phase (``watched``, in any die
    outcome of ``world``)."""
    t = s.thieves[seat]
    end = plan.end(t.hex)
    if end == t.hex or plan.escape:
        return False
    crossed = frozenset(h for h in (t.hex, plan.first) if h != end and h != NONE)
    blocked = frozenset(g.hex for g in world[0].after.guards if g.placed)
    return (_way_out(s, seat, end, blocked, frozenset())
            and not _way_out(s, seat, end, blocked, crossed)
            and not _way_out(s, seat, end, blocked, watched(world, t.treasure == EYE)))


def _way_out(s: State, seat: int, start: int, blocked: frozenset[int],
             avoid: frozenset[int]) -> bool:
    """Whether thief ``seat`` can walk from ``start`` off the map by its Exit tile without
    entering ``avoid`` or ``blocked``."""
    t = s.thieves[seat]
    todo = deque([start])
    reached = {start}
    while todo:
        here = todo.popleft()
        for _, there, _ in thief_steps(s, t, here, blocked):
            if there == OFF_MAP:
                return True
            if there in reached or there in avoid:
                continue
            reached.add(there)
            todo.append(there)
    return False


def warnings(s: State, seat: int) -> list[str | None]:
    """For each legal action of thief ``seat``'s thief-card decision, a warning or None:
    "seen by G1" when the movement ends where a guard would spot it (whatever the die),
    "may be seen by G1 (die)" when only some die outcomes or the vault guard's appearing would,
    "dead end" (citywatch ruling 26), joined by "; ". Pick Pocket on a guard that sees the
    thief's hex: "G1 sees you". Empty for any other decision. Only the seat's own hex and plan
    and public facts are read."""
    if not s.stack or s.stack[-1] != ("plan_card", seat) or s.result is not None:
        return []
    t = s.thieves[seat]
    eye = t.treasure == EYE
    options = card_options(s, seat)
    base: dict[bool, list[_Run]] = {}
    loud: dict[tuple[int, bool], list[_Run]] = {}
    dead: dict[tuple[int, int], bool] = {}
    maybe_vault = _waits_for_vault(s)
    out: list[str | None] = []
    for a in options:
        plan: Plan = plan_from_card(s, seat, a)
        if plan.escape:
            out.append(None)
            continue
        end = plan.end(t.hex)
        vault = s.vault_triggered or enters_vault(s.board, plan)
        noise = end if plan.card == RUN else NONE
        worlds = []
        for v in (vault, True) if maybe_vault and not vault else (vault,):
            if noise == NONE:
                if v not in base:
                    base[v] = runs(s, v)
                worlds.append(base[v])
            else:
                if (noise, v) not in loud:
                    loud[(noise, v)] = runs(s, v, noise)
                worlds.append(loud[(noise, v)])
        hiding = t.hiding or plan.card == HIDE
        notes = []
        if plan.card == PICK_POCKET:
            g = s.guards[plan.pocket]
            if g.status != DISTRACTED and t.hex in sight(s.board).seen(
                    g.hex, g.facing, g.status, s.params.bored_reach):
                notes.append(f"G{plan.pocket + 1} sees you")
        sure = set.intersection(*(set(_spotters(r, end, hiding, eye)) for r in worlds[0]))
        every = set().union(*(set(_spotters(r, end, hiding, eye)) for w in worlds for r in w))
        if sure:
            notes.append("seen by " + ", ".join(f"G{i + 1}" for i in sorted(sure)))
        rest = every - sure
        if rest:
            notes.append("may be seen by " + ", ".join(f"G{i + 1}" for i in sorted(rest))
                         + " (die)")
        key = (end, plan.first)
        if key not in dead:
            if vault not in base:
                base[vault] = runs(s, vault)
            dead[key] = is_dead_end(s, seat, plan, base[vault])
        if dead[key]:
            notes.append("dead end")
        out.append("; ".join(notes) or None)
    return out


def warnings_json(s: State, seat: int) -> list[dict[str, Any]]:
    """The warnings of ``warnings`` that are not None, each with the action's ``index`` in the
    legal actions, its ``text`` (``str(action)``), the ``hex`` its movement ends on and the
    ``note``."""
    notes = warnings(s, seat)
    if not notes:
        return []
    options = card_options(s, seat)
    t = s.thieves[seat]
    labels = s.board.labels
    return [{"index": k, "action": str(a), "hex": labels[plan_from_card(s, seat, a).end(t.hex)],
             "note": note}
            for k, (a, note) in enumerate(zip(options, notes, strict=True)) if note]

