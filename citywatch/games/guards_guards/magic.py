"""Scrolls and magical Items (rulebook "Casting Scrolls and using magical Items"; rulings 52-57,
85).

Casting: "Cast <Scroll>" opens the ``cast`` frame, where the caster names the target; the
Magic test is die + Magic level against the card's Magic target, plus the target's magic
defence only when the target is an opponent or one of their Volunteers (ruling 55). Each
Scroll card gets one attempt per turn (``s.t.cast``, ruling 53). A failed Scroll stays in
hand; a cast one goes to the bottom of the Curses & Cures deck nearest the caster. After a
success against an opponent, the target may use the Wand of Fizzling (``harm.offer_wand``,
ruling 52), then rolls the card's defence, then the effect happens. Magical Items need no
roll. Nobody in a Hospital or Watch House casts, uses Items or is targeted (ruling 56).

Windows: on the player's own turn, at any point (``TURN_HOOKS.free``); out of turn, the
``react`` frame: ``("react", seat)`` at the start of each opponent's turn (pushed by the turn),
``("react", seat, "combat", fight)`` in combat steps 1-2, ``("react", seat, "dragon")`` before
a Dragon fight's roll; and the ``resurrect`` frame (Reg Shoe's Recipe) after a Volunteer of the
seat is discarded.

citywatch decision (Casting Scrolls): out of turn, Scrolls and magical Items are used in these
windows only: the start of each opponent's turn, combat steps 1-2, before a Dragon fight's
roll, and Reg Shoe's Recipe straight after a Volunteer is lost.
citywatch decision (Casting Scrolls, rulings 69-70): an opposing Volunteer may be targeted only
where it is public: a Runner on a Spell Run or at a gate, a Dragon fighter, or a Volunteer in
a combat in progress; cards in a hand and planted Saboteurs are hidden and cannot be named.
citywatch decision (Casting Scrolls): the target, and for Inadvertent Translocation the
street tile, is named before the Magic roll; choosing a Scroll commits to one attempt.
citywatch decision (Banishing Word): the target is a quadrant, so no magic defence is added;
each owner of opposing Saboteurs there may use the Wand of Fizzling, then rolls Guild 7 once
for each of their Saboteurs there; Saboteurs of a player in a Hospital or Watch House are not
affected (ruling 56).
citywatch decision (Stasis; ruling 10): Stasis is a movement cap of 0 (``move_cap``), so
Seven-League Boots still override it.
citywatch decision (Seven-League Stride): cast on one's own turn after movement has begun,
"this turn" does not count, so it lasts four turns including this one.
citywatch decision (Fog of Obscurity): "until the start of your next turn": cast on one's own
turn it lasts this turn and the next (2), otherwise until the end of the next turn (1).
citywatch decision (Wizard's Staff): it is a magical Item used in the same windows as Scrolls,
on any Volunteer of the user's.
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import harm
from citywatch.games.guards_guards.actions import Action, act, tile, verb, vol
from citywatch.games.guards_guards.actions import seat as seat_name
from citywatch.games.guards_guards.combat import quadrant_of_tile
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    STATS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import TURN_HOOKS, handler, op, push, then
from citywatch.games.guards_guards.state import (
    MAGIC,
    UNTIL_HEALED,
    Effect,
    GuardsGuardsState,
)

State = GuardsGuardsState


def _item_with(name: str) -> int:
    return next(i.index for i in ITEMS if (i.op or {}).get("op") == name)


def _scroll_with(name: str) -> int:
    return next(c.index for c in SCROLLS if c.op.get("op") == name)


CURE_ALL: Final = harm.CURE_ALL
REG_SHOES: Final = harm.REG_SHOES
WAND: Final = harm.WAND
BOOTS: Final = next(i.index for i in ITEMS if i.magical and (i.op or {}).get("set") == 10)
STAFF: Final = _item_with("volunteer_stats_choice")
SLIVER: Final = _item_with("move_luggage")
AMULET: Final = _item_with("magic_defence")
BANISH: Final = _scroll_with("banish_saboteurs")
BANE: Final = _scroll_with("dragon_fight_bonus")
TRANSLOCATION: Final = _scroll_with("teleport")
ACTIVE_ITEMS: Final[tuple[int, ...]] = (CURE_ALL, BOOTS, STAFF, SLIVER)
"""Items with an effect a player chooses to use (the Wand is offered by ``harm``)."""
STREETS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(t.index for t in TILES if t.kind == "street" and t.quadrant == q)
    for q in range(len(QUADRANTS))
)
"""Each quadrant's street tiles (Inadvertent Translocation)."""


def _need_text(a: Action) -> str:
    """The Magic test, without the target's defence (which their hidden hand decides)."""
    sc = SCROLLS[a.x]
    extra = " plus the target's magic defence" if a.verb in (
        "cast_on_player", "cast_on_volunteer") and sc.target != "own_volunteer" else ""
    return f"needs {sc.magic_target}{extra} or more on die + Magic"


CAST: Final = verb("cast", (("scroll", "scroll"),),
                   lambda a: f"Cast {SCROLLS[a.x].name} (Magic {SCROLLS[a.x].magic_target})")
CAST_ON_PLAYER: Final = verb(
    "cast_on_player", (("scroll", "scroll"), ("target", "seat")),
    lambda a: f"Cast {SCROLLS[a.x].name} on {seat_name(a.y)} ({_need_text(a)})")
CAST_ON_VOLUNTEER: Final = verb(
    "cast_on_volunteer", (("scroll", "scroll"), ("target", "volunteer")),
    lambda a: f"Cast {SCROLLS[a.x].name} on {vol(a.y)} ({_need_text(a)})")
CAST_ON_QUADRANT: Final = verb(
    "cast_on_quadrant", (("scroll", "scroll"), ("quadrant", "quadrant")),
    lambda a: f"Cast {SCROLLS[a.x].name} on the {QUADRANTS[a.y].capitalize()} quadrant "
                     f"({_need_text(a)})")
CAST_TO_TILE: Final = verb(
    "cast_to_tile", (("scroll", "scroll"), ("tile", "tile")),
    lambda a: f"Cast {SCROLLS[a.x].name} to land on {tile(a.y)} ({_need_text(a)})")
CAST_PLAIN: Final = verb(
    "cast_plain", (("scroll", "scroll"),),
    lambda a: f"Cast {SCROLLS[a.x].name} ({_need_text(a)})")
USE_ITEM: Final = verb("use_item", (("item", "item"),), lambda a: _use_text(a.x))
STAFF_ON: Final = verb(
    "staff_on", (("volunteer", "volunteer"), ("stat", "stat")),
    lambda a: f"Use the Wizard's Staff: {vol(a.x)} has +2 {STATS[a.y].capitalize()} this turn")
NO_MAGIC: Final = verb("no_magic", (), lambda a: "Cast nothing now")
RESURRECT: Final = verb(
    "resurrect", (("volunteer", "volunteer"),),
    lambda a: f"Cast Reg Shoe's Recipe on {vol(a.x)} (needs "
                     f"{SCROLLS[REG_SHOES].magic_target} or more on die + Magic)")
LET_GO: Final = verb("let_go", (("volunteer", "volunteer"),),
                     lambda a: f"Let {vol(a.x)} stay discarded")


def _use_text(item: int) -> str:
    if item == CURE_ALL:
        return "Drink Nanny Ogg's Cure All: cure the Pox and every 'until healed' effect"
    if item == BOOTS:
        return "Put on the Seven-League Boots: move up to 10 spaces this turn"
    if item == STAFF:
        return "Use the Wizard's Staff on one of your Volunteers"
    if item == SLIVER:
        return "Use the Sliver of Sapient Pearwood: move the Luggage up to 3 tiles"
    return f"Use the {ITEMS[item].name}"


# --- who and what may be targeted -------------------------------------------------------------
def can_use_magic(s: State, seat: int) -> bool:
    """Not in a Hospital or Watch House, on the board (ruling 56)."""
    return s.pos[seat] >= 0 and not s.is_safe_place(seat)


def find_fight(s: State) -> int:
    """The stack index of the Dragon fight in progress (``("dragon", -1, "fight", quadrant,
    fighters, bane, final)``), or -1."""
    for k in range(len(s.stack) - 1, -1, -1):
        f = s.stack[k]
        if f[0] == "dragon" and len(f) > 2 and f[2] == "fight":
            return k
    return -1


def fighters(s: State) -> tuple[tuple[int, int, int], ...]:
    """The (seat, volunteer, item) of the Dragon fight in progress."""
    k = find_fight(s)
    return () if k < 0 else s.stack[k][4]


def combats(s: State) -> list[tuple[object, ...]]:
    """Every combat in its magic steps (from the ``react`` frames)."""
    return [f[3] for f in s.stack if f[0] == "react" and len(f) > 3 and f[2] == "combat"]


def own_volunteers(s: State, seat: int) -> list[int]:
    """The seat's Volunteers anywhere: hand, Runners, at the gate, Saboteurs, fighters."""
    out = list(s.hand[seat])
    run = s.run[seat]
    if run is not None:
        out += [v for v, _ in run.runners] + [v for v, _ in run.at_gate]
    out += [v for _, v, _ in s.saboteurs[seat]]
    out += [v for o, v, _ in fighters(s) if o == seat]
    return out


def public_volunteers(s: State, caster: int) -> list[tuple[int, int]]:
    """(owner, volunteer) of opposing Volunteers the caster may name (rulings 56, 69-70)."""
    out: list[tuple[int, int]] = []
    for other in range(s.n):
        if other == caster or not can_use_magic(s, other):
            continue
        run = s.run[other]
        if run is not None:
            out += [(other, v) for v, _ in run.runners + run.at_gate]
        out += [(other, v) for o, v, _ in fighters(s) if o == other]
        for c in combats(s):
            for seat_at, vol_at in ((c[0], c[1]), (c[3], c[4])):
                if seat_at == other and (other, vol_at) not in out:
                    out.append((other, int(vol_at)))  # type: ignore[call-overload]
    return out


def owner_of(s: State, volunteer: int) -> int:
    """The seat that has ``volunteer`` anywhere, or -1."""
    for seat in range(s.n):
        if volunteer in own_volunteers(s, seat):
            return seat
        for c in combats(s):
            if (c[0] == seat and c[1] == volunteer) or (c[3] == seat and c[4] == volunteer):
                return seat
    return -1


def need(s: State, caster: int, scroll: int, target_seat: int) -> int:
    """The Magic total needed: the card's target, plus the target's magic defence if it is an
    opponent (ruling 55)."""
    base = SCROLLS[scroll].magic_target
    if target_seat >= 0 and target_seat != caster:
        base += s.magic_defence(target_seat)
    return base


def cast_targets(s: State, seat: int, scroll: int) -> list[Action]:
    """The "Cast ... on ..." actions of the ``cast`` frame for a Scroll."""
    sc = SCROLLS[scroll]
    target = sc.target
    if target in ("any_player", "opponent"):
        return [act(CAST_ON_PLAYER, scroll, o) for o in range(s.n)
                if (o != seat or target == "any_player") and can_use_magic(s, o)]
    if target == "own_volunteer":
        if scroll == REG_SHOES:
            return []
        return [act(CAST_ON_VOLUNTEER, scroll, v) for v in own_volunteers(s, seat)]
    if target == "opposing_volunteer":
        return [act(CAST_ON_VOLUNTEER, scroll, v) for _, v in public_volunteers(s, seat)]
    if target == "quadrant":
        return [act(CAST_ON_QUADRANT, scroll, q) for q in range(len(QUADRANTS))]
    if scroll == TRANSLOCATION:
        here = quadrant_of_tile(s, s.pos[seat])
        return [act(CAST_TO_TILE, scroll, t) for t in STREETS_OF[here]
                if t != s.pos[seat] and s.can_end_on(seat, t)
                and all(s.pos[o] != t for o in range(s.n))]
    if target == "dragon_fight":
        return [act(CAST_PLAIN, scroll)] if find_fight(s) >= 0 else []
    return [act(CAST_PLAIN, scroll)]


def can_use_item(s: State, seat: int, item: int) -> bool:
    """True if ``item`` (in hand) can be used now by ``seat``."""
    if item == CURE_ALL:
        return s.pox[seat] or any(e[3] == UNTIL_HEALED for e in s.effects[seat])
    if item == BOOTS:
        t = s.t
        return (s.current == seat and t.seat == seat and not t.moving and not t.stopped
                and t.steps == 0 and not t.over)
    if item == STAFF:
        return bool(own_volunteers(s, seat))
    return item == SLIVER


def magic_actions(s: State, seat: int) -> list[Action]:
    """Every Scroll the seat may try now and every magical Item it may use (ruling 53, 56)."""
    if not can_use_magic(s, seat):
        return []
    out = [act(CAST, c) for c in dict.fromkeys(s.scrolls[seat])
           if (seat, c) not in s.t.cast and cast_targets(s, seat, c)]
    out += [act(USE_ITEM, i) for i in dict.fromkeys(s.items[seat])
            if i in ACTIVE_ITEMS and can_use_item(s, seat, i)]
    return out


def do_magic(s: State, seat: int, a: Action) -> None:
    """Carry out a ``CAST`` or ``USE_ITEM`` action of ``magic_actions``."""
    if a.verb == CAST:
        push(s, "cast", seat, a.x)
        return
    item = a.x
    if item == STAFF:
        push(s, "cast", seat, -1 - STAFF)
        return
    s.items[seat].remove(item)
    s.return_card(seat, "odds_and_sods", item)
    if item == CURE_ALL:
        harm.cure(s, seat)
        s.say(f"{s.colour(seat)} drinks Nanny Ogg's Cure All and is cured.")
    elif item == BOOTS:
        s.effects[seat] += (Effect("move_set", 10, 0, 1, ITEMS[BOOTS].name),)
        s.say(f"{s.colour(seat)} puts on the Seven-League Boots: up to 10 spaces this turn.")
    elif item == SLIVER:
        s.say(f"{s.colour(seat)} uses the Sliver of Sapient Pearwood on the Luggage.")
        then(s, ("move_luggage", seat, 0, 3))


# --- casting ----------------------------------------------------------------------------------
def attempt(s: State, caster: int, scroll: int, a: Action) -> None:
    """Roll the Magic test for ``a`` (a target action of the ``cast`` frame) and, on a success,
    send the card back and let the effect follow (after the Wand and the defence roll)."""
    sc = SCROLLS[scroll]
    s.t.cast.append((caster, scroll))
    target_seat = -1
    if a.verb == CAST_ON_PLAYER:
        target_seat = a.y
    elif a.verb == CAST_ON_VOLUNTEER:
        target_seat = owner_of(s, a.y)
    needed = need(s, caster, scroll, target_seat)
    what = _target_text(s, a)
    ok, total = s.test(s.level(caster, MAGIC), needed)
    if not ok:
        s.say(f"{s.colour(caster)} fails to cast {sc.name}{what} ({total}, needed {needed}); "
              "the Scroll stays in hand.")
        return
    s.scrolls[caster].remove(scroll)
    s.return_card(caster, "curses_and_cures", scroll)
    s.say(f"{s.colour(caster)} casts {sc.name}{what} ({total}, needed {needed}).")
    effect = ("scroll_effect", caster, scroll, a.verb, a.y)
    if scroll == BANISH:
        for owner in range(s.n):
            if owner != caster and can_use_magic(s, owner) and any(
                    q == a.y for q, _, _ in s.saboteurs[owner]):
                harm.offer_wand(s, owner, sc.name, (("banish", caster, owner, a.y),))
        return
    if target_seat >= 0 and target_seat != caster:
        harm.offer_wand(s, target_seat, sc.name, (effect,))
    else:
        then(s, effect)


def _target_text(s: State, a: Action) -> str:
    if a.verb == CAST_ON_PLAYER:
        return f" on {s.colour(a.y)}"
    if a.verb == CAST_ON_VOLUNTEER:
        return f" on {vol(a.y)}"
    if a.verb == CAST_ON_QUADRANT:
        return f" on the {QUADRANTS[a.y].capitalize()} quadrant"
    if a.verb == CAST_TO_TILE:
        return f" to {tile(a.y)}"
    return ""


def _turns(s: State, target: int, scroll: int) -> int:
    sc = SCROLLS[scroll]
    if sc.duration == "until_healed":
        return UNTIL_HEALED
    turns = sc.turns if sc.duration == "turns" else 1
    own_turn = s.current == target and s.t.seat == target
    if sc.op.get("op") == "guild_ability_immunity" and own_turn:
        return turns + 1
    if sc.target == "self" and sc.op.get("op") == "movement" and own_turn and (
            s.t.moving or s.t.stopped or s.t.steps > 0):
        return turns + 1
    return turns


@op("scroll_effect")
def scroll_effect(s: State, caster: int, scroll: int, how: str, target: int) -> None:
    """The defence roll, then the Scroll's effect (rulebook, Casting Scrolls 2)."""
    sc = SCROLLS[scroll]
    kind = sc.op["op"]
    seat = caster
    volunteer = -1
    if how == CAST_ON_PLAYER:
        seat = target
    elif how == CAST_ON_VOLUNTEER:
        volunteer = target
        seat = owner_of(s, volunteer)
        if seat < 0:
            s.say(f"{vol(volunteer)} is no longer there: {sc.name} has no effect.")
            return
    if sc.defence_attribute and seat != caster:
        attr = ATTRIBUTES.index(sc.defence_attribute)
        ok, total = s.test(s.level(seat, attr), sc.defence_target)
        if ok:
            s.say(f"{s.colour(seat)} resists {sc.name} ({total} on "
                  f"{sc.defence_attribute.capitalize()}, needed {sc.defence_target}).")
            return
        s.say(f"{s.colour(seat)} fails to resist {sc.name} ({total}).")
    name = sc.name
    if kind == "cure":
        harm.cure(s, seat, pox=True, until_healed="until_healed" in sc.op["what"])
        s.say(f"{s.colour(seat)} is cured by {name}.")
    elif kind == "movement":
        if "set" in sc.op:
            s.effects[seat] += (Effect("move_cap", int(sc.op["set"]), 0,
                                          _turns(s, seat, scroll), name),)
        else:
            s.effects[seat] += (Effect("move", int(sc.op["delta"]), 0,
                                          _turns(s, seat, scroll), name),)
        s.say(f"{name} takes hold of {s.colour(seat)}.")
    elif kind == "attribute":
        s.effects[seat] += (Effect("attr", ATTRIBUTES.index(sc.op["attribute"]),
                                      int(sc.op["delta"]), _turns(s, seat, scroll), name),)
        s.say(f"{name} takes hold of {s.colour(seat)}.")
    elif kind == "attributes":
        for attr_name, delta in sc.op["deltas"].items():
            s.effects[seat] += (Effect("attr", ATTRIBUTES.index(attr_name), int(delta),
                                          _turns(s, seat, scroll), name),)
        s.say(f"{name} takes hold of {s.colour(seat)}.")
    elif kind == "volunteer_stats":
        for stat_name, delta in sc.op["deltas"].items():
            s.vol_mods.append((volunteer, STATS.index(stat_name), int(delta)))
        s.say(f"{vol(volunteer)} is under {name} until the end of the turn.")
    elif kind == "teleport":
        where = harm.place(s, caster, target)
        s.say(f"{s.colour(caster)} vanishes with a faint pop and lands on {tile(where)}.")
        if s.current == caster and s.t.seat == caster and s.t.moving:
            s.t.moving = False
            s.t.stopped = True
    elif kind == "dragon_fight_bonus":
        k = find_fight(s)
        if k >= 0:
            f = s.stack[k]
            s.stack[k] = (*f[:5], f[5] + int(sc.op["delta"]), *f[6:])
            s.say(f"{name} adds {sc.op['delta']} to the fight against the Dragon.")
    elif kind == "move_luggage":
        then(s, ("move_luggage", caster, int(sc.op["min"]), int(sc.op["max"])))
    elif kind == "guild_ability_immunity":
        s.effects[seat] += (Effect("fog", 0, 0, _turns(s, seat, scroll), name),)
        s.say(f"A fog hides {s.colour(seat)} from every Guild Ability.")
    elif kind == "catch_pox":
        if not s.catch_pox(seat, name):
            s.say(f"{s.colour(seat)} does not catch the Pox.")


@op("banish")
def banish(s: State, caster: int, owner: int, quadrant: int) -> None:
    """Banishing Word on one owner's Saboteurs in ``quadrant``: Guild 7 each, or back to hand."""
    keep = []
    for sab in s.saboteurs[owner]:
        q, v, item = sab
        if q != quadrant:
            keep.append(sab)
            continue
        ok, total = s.test(s.level(owner, 1), 7)
        if ok:
            keep.append(sab)
            s.say(f"{s.colour(owner)}'s Saboteur holds firm ({total} on Guild).")
        else:
            s.hand[owner].append(v)
            if item >= 0:
                s.items[owner].append(item)
            s.say(f"{s.colour(owner)}'s Saboteur {vol(v)} is banished back to their hand "
                  f"({total} on Guild).")
    s.saboteurs[owner] = tuple(keep)


def use_staff(s: State, seat: int, volunteer: int, stat: int) -> None:
    """The Wizard's Staff: +2 Brawl or Toughness this turn, no roll."""
    s.items[seat].remove(STAFF)
    s.return_card(seat, "odds_and_sods", STAFF)
    s.vol_mods.append((volunteer, stat, 2))
    s.say(f"{s.colour(seat)} uses the Wizard's Staff: {vol(volunteer)} has +2 "
          f"{STATS[stat].capitalize()} this turn.")


# --- frames -----------------------------------------------------------------------------------
class CastHandler(Handler[State]):
    """``("cast", seat, scroll)``: name the target and roll; ``scroll`` < 0 is the Item
    ``-1 - scroll`` (the Wizard's Staff: choose the Volunteer and the stat)."""

    kind = "cast"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, card = f[1], f[2]
        if card < 0:
            if STAFF not in s.items[seat]:
                return []
            return [act(STAFF_ON, v, st) for v in own_volunteers(s, seat)
                    for st in (STATS.index("brawl"), STATS.index("toughness"))]
        if card not in s.scrolls[seat] or (seat, card) in s.t.cast:
            return []
        return cast_targets(s, seat, card)

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == STAFF_ON:
            use_staff(s, f[1], a.x, a.y)
        else:
            attempt(s, f[1], f[2], a)

    def describe(self, s: State, f: Frame) -> str:
        if f[2] < 0:
            return "choose a Volunteer and a stat for the Wizard's Staff"
        return f"choose the target of {SCROLLS[f[2]].name}"


handler(CastHandler)


class ReactHandler(Handler[State]):
    """An out-of-turn magic window: cast Scrolls, use magical Items, or cast nothing now."""

    kind = "react"

    def legal(self, s: State, f: Frame) -> list[Action]:
        actions = magic_actions(s, f[1])
        return [*actions, act(NO_MAGIC)] if actions else []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        if a.verb == NO_MAGIC:
            s.stack.pop()
            return
        do_magic(s, f[1], a)

    def describe(self, s: State, f: Frame) -> str:
        mode = f[2] if len(f) > 2 else "turn"
        if mode == "combat":
            return "cast Scrolls or use magical Items before the combat, or cast nothing"
        if mode == "dragon":
            return "cast Scrolls or use magical Items before the Dragon fight, or cast nothing"
        return f"cast Scrolls or use magical Items at the start of {s.colour(s.current)}'s " \
               "turn, or cast nothing"


handler(ReactHandler)


class ResurrectHandler(Handler[State]):
    """``("resurrect", seat, volunteer, item)``: Reg Shoe's Recipe straight after a loss."""

    kind = "resurrect"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, v = f[1], f[2]
        if (REG_SHOES not in s.scrolls[seat] or (seat, REG_SHOES) in s.t.cast
                or not can_use_magic(s, seat)
                or v not in s.vol_discard[VOLUNTEERS[v].deck]):
            return []
        return [act(RESURRECT, v), act(LET_GO, v)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == LET_GO:
            return
        seat, v, item = f[1], f[2], f[3]
        s.t.cast.append((seat, REG_SHOES))
        ok, total = s.test(s.level(seat, MAGIC), SCROLLS[REG_SHOES].magic_target)
        if not ok:
            s.say(f"{s.colour(seat)} fails to cast Reg Shoe's Recipe ({total}); "
                  "the Scroll stays in hand.")
            return
        s.scrolls[seat].remove(REG_SHOES)
        s.return_card(seat, "curses_and_cures", REG_SHOES)
        s.vol_discard[VOLUNTEERS[v].deck].remove(v)
        s.hand[seat].append(v)
        got = ""
        if item >= 0:
            for deck in s.decks:
                if item in deck:
                    deck.remove(item)
                    s.items[seat].append(item)
                    got = f" with the {ITEMS[item].name}"
                    break
        s.say(f"{s.colour(seat)} casts Reg Shoe's Recipe ({total}): {vol(v)} gets up again "
              f"and returns to their hand{got}.")

    def describe(self, s: State, f: Frame) -> str:
        return f"decide what becomes of {vol(f[2])}"  # names no card: the hand is hidden


handler(ResurrectHandler)


def _free(s: State, seat: int) -> list[Action]:
    if s.t.over:
        return []
    return magic_actions(s, seat)


TURN_HOOKS.free.append(_free)
TURN_HOOKS.do[CAST] = do_magic
TURN_HOOKS.do[USE_ITEM] = do_magic
