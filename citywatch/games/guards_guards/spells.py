"""Great Spells, Spell Runs, Sabotage, the Wizards' Challenges and the end of the game
(rulebook "Collecting the Great Spells & making a Spell Run", "The Wizards' Challenges",
"Returning the Final Spell", "Sabotage", FAQ; rulings 31-48).

Collecting is the stop action of a spell tile of the player's card not yet returned, with no
open run and no Dragon in the quadrant (rulings 31-32). For the first ``spells_to_win - 1``
spells the run starts at once (frame ``run``: 1-4 Runners from hand, each with at most one
Item, then one of the shortest routes to the gate, ruling 34); the run is announced and
``s.frozen`` set (ruling 39). Sabotage is resolved quadrant by quadrant (ruling 36, frame
``sabotage``): every opponent with a Saboteur there may try Alter Allegiance or Ambush; if
several do, Guild tests decide (highest goes, ties roll again). A successful Saboteur may be
re-planted anywhere, without a test, once the run is over (ruling 38). Runners reaching the
gate try the challenge at once (die + summed stat, eights re-rolled, a natural 1 fails; Ook!
adds 2; a passed test of Challenge 4 stays passed, ruling 44). A pass returns the spell:
Runners discarded (Items to the nearest Odds & Sods deck), $5 and one Attribute Point spent at
once (frame ``challenge``, ruling 45). A failure ends the turn; on later turns the player may
re-try once per turn and send more Volunteers to the gate (up to 6, rulings 42-44). If every
Runner is lost the spell stays with the player, who may start a new run from where they stand
on a later turn (ruling 41).

The Final Spell (the ``spells_to_win``-th) needs a Volunteer in hand; collecting it ends the
turn and the player carries it home (``Run(colour, final=True)``). The first time on a turn
that the piece enters a quadrant with opposing Saboteurs, they may attack its Volunteers
(ruling 46). At the own gate with a Volunteer in hand: Magic 9 and Guild 9 (Challenge 5,
ruling 44); passing both ends the game (ruling 48).

citywatch decision (Making a Spell Run, step 3): routes are offered by the quadrants they
pass (the only thing Sabotage depends on): one route per distinct sequence of quadrants.
citywatch decision (Sabotage): each opponent with a Saboteur in the quadrant is asked in seat
order from the running player's left whether to sabotage and how; only those who want to
roll the Guild tests. Each quadrant is offered once per run (ruling 36), even if the route
passes it twice.
citywatch decision (Alter Allegiance): the Librarian is never picked; with only the Librarian
left, Alter Allegiance is not offered.
citywatch decision (Wizards' Challenges): Ook! is offered after a failed roll that it would
turn into a pass (never after a natural 1).
citywatch decision (Returning the Final Spell): the final challenge is tried as the piece
enters its own gate (and, on later turns, as a free action there); a failed roll ends the turn.
On the Final Spell, a Volunteer attacked by Ambush may take one equipment Item from the hand.
citywatch decision (To Re-attempt the Wizard's Challenge): a Volunteer recruited while the
run waits at the gate must be sent to the gate at once if there is room (ruling 42).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.api import Outcome
from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board, harm
from citywatch.games.guards_guards.actions import Action, act, verb, vol
from citywatch.games.guards_guards.combat import (
    ATTACKER_WON,
    DEFENDER_WON,
    guild_quadrant,
    item_text,
    quadrant_of_tile,
    start_combat,
)
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    CHALLENGES,
    COLOURS,
    CONSTANTS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SPELL_COLOURS,
    SPELL_NAMES,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.dragons import guild_roles, ranking
from citywatch.games.guards_guards.frames import TURN_HOOKS, handler, op, push, then
from citywatch.games.guards_guards.state import GuardsGuardsState, Run, without

State = GuardsGuardsState
FIRST_RUNNERS: Final = int(CONSTANTS["runners_at_first"])
GATE_MAX: Final = int(CONSTANTS["runners_at_gate_max"])
LOYALTY_TARGET: Final = int(CONSTANTS["alter_allegiance_loyalty_target"])
REWARD: Final = CONSTANTS["spell_return_reward"]
OOK: Final = next(c.index for c in FATE_CARDS
                  if any(o.get("use") == "challenge_roll_bonus" for o in c.ops))
OOK_BONUS: Final = int(next(o for o in FATE_CARDS[OOK].ops if o.get("op") == "keep")["amount"])
FINAL_CHALLENGE: Final = len(CHALLENGES) - 1
"""Index of Rincewind's Redemption, the Final Spell's challenge."""
Replants = tuple[tuple[int, int], ...]
"""(owner, quadrant) of Saboteurs owed a free re-plant when the run is over (ruling 38)."""


def _via(code: int) -> str:
    names = []
    while code:
        names.append(QUADRANTS[code % 5 - 1].capitalize())
        code //= 5
    return ", ".join(names)


COLLECT: Final = verb("collect_spell", (("spell", "spell"),),
                      lambda a: f"Collect {SPELL_NAMES[a.x]} ({SPELL_COLOURS[a.x]})")
ADD_RUNNER: Final = verb("add_runner", (("volunteer", "volunteer"), ("item", "item")),
                         lambda a: f"Send {vol(a.x)}{item_text(a.y)} as a Runner")
ROUTE: Final = verb("choose_route", (("via", "route"),),
                    lambda a: f"Launch the Spell Run through {_via(a.x)}")
RETRY: Final = verb("retry_challenge", (("challenge", "number"),),
                    lambda a: f"Attempt {CHALLENGES[a.x].name} (Challenge {a.x + 1})")
TO_GATE: Final = verb("send_to_gate", (("volunteer", "volunteer"), ("item", "item")),
                      lambda a: f"Send {vol(a.x)}{item_text(a.y)} to the gate")
NEW_RUN: Final = verb("new_run", (("spell", "spell"),),
                      lambda a: f"Start a new Spell Run with {SPELL_NAMES[a.x]} from here")
ALTER: Final = verb("alter_allegiance", (("target", "seat"),),
                    lambda a: f"Alter Allegiance: try to turn one of {_colour(a.x)}'s Volunteers")
AMBUSH: Final = verb("ambush", (("target", "seat"),),
                     lambda a: f"Ambush {_colour(a.x)}'s Volunteers with your Saboteur")
LET_PASS: Final = verb("let_pass", (("target", "seat"),),
                       lambda a: f"Let {_colour(a.x)} pass")
DEFEND: Final = verb("defend_with", (("volunteer", "volunteer"), ("item", "item")),
                     lambda a: f"Defend with {vol(a.x)}{item_text(a.y)}")
REPLANT: Final = verb(
    "replant", (("volunteer", "volunteer"), ("quadrant", "quadrant")),
    lambda a: f"Re-plant {vol(a.x)} in the {QUADRANTS[a.y].capitalize()} quadrant")
USE_OOK: Final = verb("use_ook", (("total", "number"), ("target", "number")),
                      lambda a: f"Discard Ook! to add 2 ({a.x} becomes {a.x + 2}, needs {a.y})")
NO_OOK: Final = verb("keep_ook", (), lambda a: "Keep Ook! (the roll fails)")
RAISE: Final = verb("raise_attribute", (("attribute", "attribute"),),
                    lambda a: f"Spend the Attribute Point on {ATTRIBUTES[a.x].capitalize()}")


def _colour(seat: int) -> str:
    return COLOURS[seat]


def gate_guilds(s: State) -> dict[int, int]:
    """Owned gates and their owners' guild quadrants (ruling 5)."""
    return {s.gate[p]: guild_quadrant(s, p) for p in range(s.n) if s.gate[p] >= 0
            and s.guild[p] >= 0}


def routes(s: State, seat: int, start: int) -> list[tuple[int, int]]:
    """(route index, quadrant code) for each distinct quadrant sequence of the shortest
    routes from ``start`` to the seat's gate (ruling 34-35)."""
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, ...]] = set()
    owners = gate_guilds(s)
    for k, route in enumerate(board.shortest_routes(start, s.gate[seat])):
        quads = board.route_quadrants(route, guild_quadrant(s, seat), owners)
        if quads in seen:
            continue
        seen.add(quads)
        code = 0
        for q in reversed(quads):
            code = code * 5 + q + 1
        out.append((k, code))
    return out


def equipment(s: State, seat: int, exclude: tuple[int, ...] = ()) -> list[int]:
    """The seat's Items a Volunteer can carry (not magical ones)."""
    left = list(s.items[seat])
    for i in exclude:
        if i in left:
            left.remove(i)
    return [i for i in dict.fromkeys(left) if not ITEMS[i].magical]


def is_final(s: State, seat: int) -> bool:
    """True if the next spell the seat collects is its Final Spell."""
    return len(s.returned[seat]) >= s.spells_to_win - 1


# --- collecting ---------------------------------------------------------------------------
def stop_actions(s: State, seat: int) -> list[Action]:
    """"Collect <Spell>" on a spell tile of the card (rulings 31-33)."""
    here = s.pos[seat]
    t = TILES[here]
    if t.kind != "spell" or s.run[seat] is not None or not s.hand[seat] or s.t.over:
        return []
    colour = SPELL_COLOURS.index(t.colour)
    if colour not in GUILD_CARDS[s.guild[seat]].spells or colour in s.returned[seat]:
        return []
    if s.dragons[t.quadrant] >= 0:
        return []
    return [act(COLLECT, colour)]


def do_collect(s: State, seat: int, a: Action) -> None:
    """Collect the spell: the Final Spell ends the turn; any other starts a run at once."""
    if is_final(s, seat):
        s.run[seat] = Run(a.x, final=True)
        s.say(f"{s.colour(seat)} collects {SPELL_NAMES[a.x]}, their Final Spell, and must "
              "carry it home in person.")
        harm.end_turn_now(s, seat)
        return
    s.say(f"{s.colour(seat)} collects {SPELL_NAMES[a.x]}.")
    push(s, "run", seat, a.x, s.pos[seat], ())


class RunHandler(Handler[State]):
    """``("run", seat, colour, start tile, chosen)``: choose Runners, then the route."""

    kind = "run"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, start, chosen = f[1], f[3], f[4]
        out: list[Action] = []
        if len(chosen) < FIRST_RUNNERS:
            hand = list(s.hand[seat])
            for v, _ in chosen:
                hand.remove(v)
            items = equipment(s, seat, tuple(i for _, i in chosen if i >= 0))
            for v in dict.fromkeys(hand):
                out.append(act(ADD_RUNNER, v, -1))
                out += [act(ADD_RUNNER, v, i) for i in items]
        if chosen:
            out += [act(ROUTE, code) for _, code in routes(s, seat, start)]
        return out

    def apply(self, s: State, f: Frame, a: Action) -> None:
        _, seat, colour, start, chosen = f
        if a.verb == ADD_RUNNER:
            s.stack[-1] = ("run", seat, colour, start, (*chosen, (a.x, a.y)))
            return
        s.stack.pop()
        k = next(k for k, code in routes(s, seat, start) if code == a.x)
        launch(s, seat, colour, start, chosen, board.shortest_routes(start, s.gate[seat])[k])

    def describe(self, s: State, f: Frame) -> str:
        return f"choose Runners and a route for {SPELL_NAMES[f[2]]}"


handler(RunHandler)


def launch(s: State, seat: int, colour: int, start: int, chosen: tuple[tuple[int, int], ...],
           route: tuple[int, ...]) -> None:
    """Announce the run and resolve its quadrants (Making a Spell Run 1-4)."""
    run = Run(colour)
    for v, item in chosen:
        s.hand[seat].remove(v)
        if item >= 0:
            s.items[seat].remove(item)
        run.runners.append((v, item))
    run.route = route
    run.quadrants = board.route_quadrants(route, guild_quadrant(s, seat), gate_guilds(s))
    s.run[seat] = run
    s.frozen[seat] = True
    names = ", ".join(f"{vol(v)}{item_text(i)}" for v, i in chosen)
    s.say(f"{s.colour(seat)} starts a Spell Run with {SPELL_NAMES[colour]}: {names}, through "
          + ", ".join(QUADRANTS[q].capitalize() for q in run.quadrants) + ".")
    then(s, ("run_quadrant", seat, ()))


# --- sabotage -----------------------------------------------------------------------------
def saboteur_in(s: State, seat: int, q: int) -> tuple[int, int, int] | None:
    """The seat's Saboteur in quadrant ``q``, or None."""
    for sab in s.saboteurs[seat]:
        if sab[0] == q:
            return sab
    return None


def targets(s: State, seat: int) -> list[tuple[int, int]]:
    """The Volunteers a Saboteur may attack: the Runners, or the hand on the Final Spell."""
    run = s.run[seat]
    if run is None:
        return []
    if run.final:
        return [(v, -1) for v in s.hand[seat]]
    return list(run.runners)


def start_sabotage(s: State, seat: int, q: int, replants: Replants) -> bool:
    """Ask the opponents with a Saboteur in ``q``; False if there are none."""
    askers = tuple((seat + k) % s.n for k in range(1, s.n)
                   if saboteur_in(s, (seat + k) % s.n, q) is not None)
    if not askers or not targets(s, seat):
        return False
    push(s, "sabotage", askers[0], "ask", seat, q, askers[1:], (), replants)
    return True


@op("run_quadrant")
def run_quadrant(s: State, seat: int, replants: Replants) -> None:
    """Resolve the next quadrant of the run (each once, ruling 36), or arrive at the gate."""
    run = s.run[seat]
    if run is None:
        return
    if run.final:
        replant(s, replants)
        return
    if not run.runners:
        run.tried = s.turn
        s.say(f"{s.colour(seat)}'s Spell Run fails: every Runner is lost. The spell stays "
              "with them.")
        replant(s, replants)
        return
    while run.next_quadrant < len(run.quadrants):
        q = run.quadrants[run.next_quadrant]
        seen = run.quadrants[:run.next_quadrant]
        run.next_quadrant += 1
        if q not in seen and start_sabotage(s, seat, q, replants):
            return
    run.at_gate += run.runners
    run.runners = []
    s.say(f"{s.colour(seat)}'s Runners reach the gate: "
          + ", ".join(vol(v) for v, _ in run.at_gate) + ".")
    then(s, ("attempt_challenge", seat))
    replant(s, replants)


def replant(s: State, replants: Replants) -> None:
    """Offer each successful Saboteur its free re-plant (ruling 38)."""
    for owner, q in reversed(replants):
        sab = saboteur_in(s, owner, q)
        if sab is not None:
            push(s, "sabotage", owner, "replant", sab[1], q)


def _continue(s: State, seat: int, q: int, replants: Replants) -> None:
    then(s, ("run_quadrant", seat, replants))


def alter_allegiance(s: State, owner: int, seat: int, q: int,
                     replants: Replants) -> None:
    """Pick a Volunteer at random; below 7 on Loyalty it defects with its Item."""
    pool = [x for x in targets(s, seat) if VOLUNTEERS[x[0]].ability != "loyal_ape"]
    v, item = pool[s.rng.below(len(pool))]
    ok, total = s.test(s.stat(v, "loyalty", item), LOYALTY_TARGET)
    if ok:
        s.say(f"{s.colour(owner)}'s Saboteur tries to turn {vol(v)}, who stays loyal "
              f"({total} on Loyalty).")
    else:
        run = s.run[seat]
        assert run is not None
        if run.final:
            s.hand[seat].remove(v)
        else:
            run.runners.remove((v, item))
        s.hand[owner].append(v)
        if item >= 0:
            s.items[owner].append(item)
        s.say(f"{vol(v)}{item_text(item)} defects to {s.colour(owner)} ({total} on Loyalty).")
        replants = (*replants, (owner, q))
    _continue(s, seat, q, replants)


@op("ambush_done")
def ambush_done(s: State, seat: int, owner: int, q: int, sab_vol: int, runner: int,
                replants: Replants, result: int) -> None:
    """After an Ambush: take the loser off the board, then go on with the run."""
    run = s.run[seat]
    if result == ATTACKER_WON and run is not None:
        if run.final:
            if runner in s.hand[seat]:
                s.hand[seat].remove(runner)
        else:
            run.runners = [x for x in run.runners if x[0] != runner]
        replants = (*replants, (owner, q))
    elif result == DEFENDER_WON:
        s.saboteurs[owner] = tuple(x for x in s.saboteurs[owner] if x[1] != sab_vol)
    _continue(s, seat, q, replants)


class SabotageHandler(Handler[State]):
    """Sabotage: ``ask`` an owner, the runner's ``defend`` choice, the free ``replant``."""

    kind = "sabotage"

    def legal(self, s: State, f: Frame) -> list[Action]:
        step = f[2]
        if step == "ask":
            seat = f[3]
            out = []
            if any(VOLUNTEERS[v].ability != "loyal_ape" for v, _ in targets(s, seat)):
                out.append(act(ALTER, seat))
            return [*out, act(AMBUSH, seat), act(LET_PASS, seat)]
        if step == "defend":
            seat = f[1]
            run = s.run[seat]
            if run is not None and run.final:
                return [act(DEFEND, v, i) for v in dict.fromkeys(s.hand[seat])
                        for i in (-1, *equipment(s, seat))]
            return [act(DEFEND, v, i) for v, i in targets(s, seat)]
        return [act(REPLANT, f[3], q) for q in range(len(QUADRANTS))
                if q == f[4] or saboteur_in(s, f[1], q) is None]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        step = f[2]
        if step == "ask":
            _, owner, _, seat, q, rest, wants, replants = f
            if a.verb != LET_PASS:
                wants = (*wants, (owner, a.verb))
            if rest:
                push(s, "sabotage", rest[0], "ask", seat, q, rest[1:], wants, replants)
                return
            if not wants:
                _continue(s, seat, q, replants)
                return
            sab_owner, how = choose_saboteur(s, wants)
            if how == ALTER:
                alter_allegiance(s, sab_owner, seat, q, replants)
            else:
                push(s, "sabotage", seat, "defend", sab_owner, q, replants)
            return
        if step == "defend":
            _, seat, _, owner, q, replants = f
            sab = saboteur_in(s, owner, q)
            if sab is None:
                _continue(s, seat, q, replants)
                return
            bonus = GUILD_CARDS[s.guild[owner]].ambush_bonus
            s.say(f"{s.colour(owner)}'s Saboteur {vol(sab[1])} ambushes {s.colour(seat)}.")
            start_combat(s, owner, sab[1], sab[2], seat, a.x, a.y,
                         ("ambush_done", seat, owner, q, sab[1], a.x, replants), bonus)
            return
        owner, v, q = f[1], f[3], a.y
        s.saboteurs[owner] = tuple(x if x[1] != v else (q, v, x[2]) for x in s.saboteurs[owner])
        s.say(f"{s.colour(owner)} re-plants {vol(v)} in the {QUADRANTS[q].capitalize()} "
              "quadrant.", seats=frozenset({owner}),
              others=f"{s.colour(owner)} re-plants a Saboteur.")

    def describe(self, s: State, f: Frame) -> str:
        if f[2] == "ask":
            return f"decide whether to sabotage {s.colour(f[3])} in the " \
                   f"{QUADRANTS[f[4]].capitalize()} quadrant"
        if f[2] == "defend":
            return "choose the Volunteer who faces the Ambush"
        return "choose where to re-plant your Saboteur"


handler(SabotageHandler)


def choose_saboteur(s: State, wants: tuple[tuple[int, str], ...]) -> tuple[int, str]:
    """Guild tests among the owners who want to sabotage: the highest goes, ties roll again."""
    if len(wants) == 1:
        return wants[0]
    pool = list(wants)
    while len(pool) > 1:
        rolls = [(s.roll() + s.level(o, 1), (o, how)) for o, how in pool]
        s.say("Guild tests for the Sabotage: " + ", ".join(
            f"{s.colour(o)} {r}" for r, (o, _) in rolls) + ".")
        best = max(r for r, _ in rolls)
        pool = [w for r, w in rolls if r == best]
    return pool[0]


# --- the challenges -----------------------------------------------------------------------
def challenge_index(s: State, seat: int) -> int:
    """The index in ``CHALLENGES`` of the seat's next challenge."""
    run = s.run[seat]
    if run is not None and run.final:
        return FINAL_CHALLENGE
    return min(len(s.returned[seat]), FINAL_CHALLENGE - 1)


@op("attempt_challenge")
def attempt_challenge(s: State, seat: int) -> None:
    """Roll each test of the current challenge not yet passed (rulings 22, 44)."""
    run = s.run[seat]
    if run is None or (run.final and not s.hand[seat]) or (not run.final and not run.at_gate):
        return
    run.tried = s.turn
    ch = CHALLENGES[challenge_index(s, seat)]
    s.say(f"{s.colour(seat)} attempts {ch.name} (Challenge {ch.number}).")
    steps = [("challenge_test", seat, k) for k in range(len(ch.tests)) if not run.passed >> k & 1]
    then(s, *steps, ("challenge_done", seat))


def test_bonus(s: State, seat: int, attr: str, source: str) -> int:
    """The summed stat of the Runners at the gate, or the player's level."""
    if source == "player":
        return s.level(seat, ATTRIBUTES.index(attr))
    run = s.run[seat]
    assert run is not None
    return sum(s.stat(v, attr, item) for v, item in run.at_gate)


@op("challenge_test")
def challenge_test(s: State, seat: int, k: int) -> None:
    """One test: die + bonus, eights re-rolled, a natural 1 fails; Ook! may add 2."""
    run = s.run[seat]
    if run is None:
        return
    attr, source, target = CHALLENGES[challenge_index(s, seat)].tests[k]
    bonus = test_bonus(s, seat, attr, source)
    ok, total = s.test(bonus, target, reroll_eights=True)
    if ok:
        run.passed |= 1 << k
        s.say(f"{attr.capitalize()} test passed: {total} (needed {target}).")
        return
    natural_one = total >= target
    s.say(f"{attr.capitalize()} test failed: {total}"
          + (" (a natural 1)" if natural_one else "") + f" (needed {target}).")
    if not natural_one and OOK in s.kept[seat] and total + OOK_BONUS >= target:
        push(s, "challenge", seat, "ook", k, total, target)


@op("challenge_done")
def challenge_done(s: State, seat: int) -> None:
    """Every test passed returns the spell; otherwise the turn ends."""
    run = s.run[seat]
    if run is None:
        return
    ch = CHALLENGES[challenge_index(s, seat)]
    if run.passed != (1 << len(ch.tests)) - 1:
        s.say(f"{s.colour(seat)} fails {ch.name}; their turn ends.")
        harm.end_turn_now(s, seat)
        return
    s.returned[seat] += (run.colour,)
    s.run[seat] = None
    if run.final:
        s.say(f"{s.colour(seat)} returns {SPELL_NAMES[run.colour]}, the Final Spell, and "
              "wins the game!")
        s.result = Outcome(winners=(seat,), reason="the Final Spell returned",
                           points=tuple(len(s.returned[p]) for p in range(s.n)),
                           details={"ranking": ranking(s)}, roles=guild_roles(s))
        return
    for v, item in run.at_gate:
        s.discard_volunteer(v)
        if item >= 0:
            s.return_card(seat, "odds_and_sods", item)
    s.gain(seat, int(REWARD["dollars"]))
    s.say(f"{s.colour(seat)} returns {SPELL_NAMES[run.colour]} to the Unseen University and "
          f"collects ${REWARD['dollars']}; the Runners go home.")
    push(s, "challenge", seat, "point")


def final_outcome(s: State, reason: str) -> Outcome:
    """The result of a game stopped before anyone returned the Final Spell: ranked by spells,
    then dollars (Short Game; ruling 48)."""
    ranks = ranking(s)
    return Outcome(winners=tuple(ranks[0]), reason=reason,
                   points=tuple(len(s.returned[p]) for p in range(s.n)),
                   details={"ranking": ranks}, roles=guild_roles(s))


class ChallengeHandler(Handler[State]):
    """``ook`` (add 2 to a failed roll), ``point`` (spend the Attribute Point, ruling 45),
    ``send_new`` (a just-recruited Volunteer goes to the gate, ruling 42)."""

    kind = "challenge"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, step = f[1], f[2]
        if step == "ook":
            return [act(USE_OOK, f[4], f[5]), act(NO_OOK)] if OOK in s.kept[seat] else []
        if step == "point":
            return [act(RAISE, k) for k in range(3) if s.attrs[seat][k] < 10]
        v = f[3]
        if v not in s.hand[seat]:
            return []
        return [act(TO_GATE, v, i) for i in (-1, *equipment(s, seat))]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat = f[1]
        if a.verb == USE_OOK:
            run = s.run[seat]
            s.kept[seat] = without(s.kept[seat], OOK)
            s.fate_discard.append(OOK)
            if run is not None:
                run.passed |= 1 << f[3]
            s.say(f"{s.colour(seat)} discards Ook!: {a.x + 2} passes.")
        elif a.verb == RAISE:
            s.add_attribute(seat, a.x, 1)
        elif a.verb == TO_GATE:
            send_to_gate(s, seat, a.x, a.y)

    def describe(self, s: State, f: Frame) -> str:
        if f[2] == "ook":
            return "decide whether to discard Ook! to add 2"
        if f[2] == "point":
            return "spend the Attribute Point"
        return f"send {vol(f[3])} to the gate"


handler(ChallengeHandler)


def send_to_gate(s: State, seat: int, v: int, item: int) -> None:
    """A Volunteer from hand joins the Runners at the gate (immune from Sabotage, ruling 43)."""
    run = s.run[seat]
    assert run is not None
    s.hand[seat].remove(v)
    if item >= 0:
        s.items[seat].remove(item)
    run.at_gate.append((v, item))
    s.say(f"{s.colour(seat)} sends {vol(v)}{item_text(item)} to the gate.")


# --- the turn's hooks ---------------------------------------------------------------------
def free_actions(s: State, seat: int) -> list[Action]:
    """Re-try, send to the gate, a new run after every Runner was lost (rulings 41-44)."""
    run = s.run[seat]
    if run is None or s.t.over:
        return []
    out: list[Action] = []
    if run.final:
        if s.pos[seat] == s.gate[seat] and s.hand[seat] and run.tried != s.turn:
            out.append(act(RETRY, FINAL_CHALLENGE))
        return out
    if run.at_gate:
        if run.tried != s.turn:
            out.append(act(RETRY, challenge_index(s, seat)))
        if len(run.at_gate) < GATE_MAX:
            items = (-1, *equipment(s, seat))
            out += [act(TO_GATE, v, i) for v in dict.fromkeys(s.hand[seat]) for i in items]
    elif not run.runners and run.tried != s.turn and s.hand[seat]:
        out.append(act(NEW_RUN, run.colour))
    return out


def do_free(s: State, seat: int, a: Action) -> None:
    """Carry out a free action of ``free_actions``."""
    if a.verb == RETRY:
        attempt_challenge(s, seat)
    elif a.verb == TO_GATE:
        send_to_gate(s, seat, a.x, a.y)
    elif a.verb == NEW_RUN:
        s.run[seat] = None
        push(s, "run", seat, a.x, s.pos[seat], ())


def on_recruited(s: State, seat: int, v: int) -> None:
    """A Volunteer recruited while the run waits at the gate goes there at once (ruling 42)."""
    run = s.run[seat]
    if run is not None and not run.final and run.at_gate and len(run.at_gate) < GATE_MAX:
        push(s, "challenge", seat, "send_new", v)


def on_entered(s: State, seat: int, tile: int) -> None:
    """The Final Spell: Saboteurs of a newly entered quadrant (ruling 46), the own gate."""
    run = s.run[seat]
    if run is None or not run.final:
        return
    if tile == s.gate[seat] and s.hand[seat] and run.tried != s.turn:
        then(s, ("attempt_challenge", seat))
    q = quadrant_of_tile(s, tile)
    if s.t.entered >> q & 1:
        return
    s.t.entered |= 1 << q
    start_sabotage(s, seat, q, ())


TURN_HOOKS.stop.append(stop_actions)
TURN_HOOKS.free.append(free_actions)
TURN_HOOKS.do[COLLECT] = do_collect
for _verb in (RETRY, TO_GATE, NEW_RUN):
    TURN_HOOKS.do[_verb] = do_free
TURN_HOOKS.recruited.append(on_recruited)
TURN_HOOKS.entered.append(on_entered)
