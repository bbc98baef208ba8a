"""Guild Abilities: Cut Purse, Street Theatre, Fire Water, Unnatural Selection (rulebook
"Guild Abilities", FAQ; rulings 49-52, 54-57).

After each step of the mover (and when they end their movement without having moved), the
turn queues op ``guild_windows`` ``(mover)``: each opponent within 2 hex tiles (ruling 17),
not yet asked this turn (``s.t.asked``, ruling 49), with neither of them in a Hospital or
Watch House (ruling 56), gets frame ``guild_ability`` ``(owner, mover)``, one at a time in seat
order from the active player's left, each settled in full before the next is asked (ruling
51). Ruling 50 follows: a mover is only ever asked about where a step has brought them, so a
first step out of range is safe. Using it: a Guild test (``s.test``) against the card's
target, 8 against a holder of Lord Vetinari; on a pass the target may wave the Wand of
Fizzling (ruling 52, ``harm.offer_wand``), then rolls the card's defence, then the effect.
Nobody carrying a Fog of Obscurity (an Effect of kind ``fog``) can be targeted.

Fire Water puts one of the owner's tokens in ``s.flasks[target]``; ``fire_water_explodes``
(called before each action the card lists) makes it explode on the target's own turn: the
action fails, the turn ends, the tokens go home. The turn's end returns tokens that were
already there when the turn began (the card: "by the end of the target's next turn").
Street Theatre ends the movement at once (on the tile just entered, or the last tile passed
where the mover may stop), or gives -2 movement on the next turn if movement was over.

citywatch decisions:
- An opponent is asked once per turn of the mover, even if they let the mover pass (ruling
  49's "once per turn"); an ability that could do nothing (Fire Water with no token left,
  Unnatural Selection against an empty hand, Cut Purse against nobody with nothing) is not
  offered.
- A mover who has used all their movement counts as having finished moving (Street Theatre's
  -2 next turn).
- When several Fire Water tokens lie on a player they all explode together.
- Unnatural Selection's Volunteer is picked at random when the defence is rolled (after any
  Wand of Fizzling).
- The mover's movement allowance (ruling 10) lives here, as Street Theatre needs it.
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action, act, verb, vol
from citywatch.games.guards_guards.actions import seat as seat_name
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    CONSTANTS,
    GUILD_CARDS,
    ITEMS,
    SCROLLS,
)
from citywatch.games.guards_guards.fate import turns_from_next
from citywatch.games.guards_guards.frames import handler, op, push, then
from citywatch.games.guards_guards.harm import (
    end_movement,
    end_turn_now,
    lose_volunteer,
    offer_wand,
)
from citywatch.games.guards_guards.state import GUILD, Effect, GuardsGuardsState

State = GuardsGuardsState
MOVEMENT: Final = int(CONSTANTS["movement"])
MOVEMENT_WITH_POX: Final = int(CONSTANTS["movement_with_pox"])
RANGE: Final = int(CONSTANTS["guild_ability_range_tiles"])

USE_ABILITY: Final = verb(
    "use_guild_ability", (("guild_card", "guild_card"), ("target", "seat")),
    lambda a: f"Use {GUILD_CARDS[a.x].ability_name} on {seat_name(a.y)} "
                     f"(Guild test, {GUILD_CARDS[a.x].ability_test_target} or more; 8 against Lord "
                     "Vetinari's holder)",
)
LET_PASS: Final = verb(
    "let_mover_pass", (("target", "seat"),), lambda a: f"Let {seat_name(a.x)} pass"
)


# --- movement allowance (ruling 10) -----------------------------------------------------------
def allowance(s: State, seat: int) -> int:
    """Spaces ``seat`` may move this turn: 6 (4 with the Pox) plus every ``move`` delta, then
    the lowest ``move_cap``, never below 0; a ``move_set`` (Seven-League Boots, Stasis)
    overrides it all, the latest one winning (ruling 10)."""
    base = MOVEMENT_WITH_POX if s.pox[seat] else MOVEMENT
    cap = -1
    fixed = -1
    for e in s.effects[seat]:
        if e[0] == "move":
            base += e[1]
        elif e[0] == "move_cap":
            cap = e[1] if cap < 0 else min(cap, e[1])
        elif e[0] == "move_set":
            fixed = e[1]
    if fixed >= 0:
        return fixed
    if cap >= 0:
        base = min(base, cap)
    return max(0, base)


def movement_finished(s: State, seat: int) -> bool:
    """True unless ``seat`` is the mover and may still take a step."""
    t = s.t
    if s.current != seat or t.seat != seat or t.over or t.stopped:
        return True
    return t.steps >= allowance(s, seat)


# --- Fire Water ------------------------------------------------------------------------------
def fire_water_explodes(s: State, seat: int) -> bool:
    """Called before ``seat`` tries an action Fire Water spoils: if a token lies on them and
    it is their own turn, it explodes: the action fails, the turn ends and the tokens go back
    to their owners (FAQ). True if it exploded."""
    if not s.flasks[seat] or s.current != seat or s.t.seat != seat or s.t.over:
        return False
    for owner in s.flasks[seat]:
        s.fire_water[owner] += 1
    owners = ", ".join(s.colour(o) for o in dict.fromkeys(s.flasks[seat]))
    s.flasks[seat] = ()
    s.say(f"Fire Water explodes in {s.colour(seat)}'s hands: the action fails and their turn "
          f"ends (the token goes back to {owners}).")
    end_turn_now(s, seat)
    return True


# --- the windows (rulings 49-51) ---------------------------------------------------------------
def fogged(s: State, seat: int) -> bool:
    """True if a Fog of Obscurity hides ``seat`` from Guild Abilities."""
    return any(e[0] == "fog" for e in s.effects[seat])


def could_use(s: State, owner: int, target: int) -> bool:
    """True if ``owner``'s Guild Ability could touch ``target`` now."""
    g = s.guild[owner]
    if g < 0 or owner == target or s.pos[owner] < 0 or s.pos[target] < 0:
        return False
    if s.is_safe_place(owner) or s.is_safe_place(target) or fogged(s, target):
        return False
    if board.hex_distance(s.pos[owner], s.pos[target]) > RANGE:
        return False
    key = GUILD_CARDS[g].ability_key
    if key == "fire_water":
        return s.fire_water[owner] > 0
    if key == "unnatural_selection":
        return bool(s.hand[target])
    if key == "cut_purse":
        return bool(s.dollars[target] or s.scrolls[target] or s.items[target])
    return True


def test_target(s: State, owner: int, target: int) -> int:
    """The Guild test's target: the card's, or 8 against Lord Vetinari's holder."""
    base = GUILD_CARDS[s.guild[owner]].ability_test_target
    return max(base, 8) if s.has_ability(target, "patricians_displeasure") else base


@op("guild_windows")
def guild_windows(s: State, mover: int) -> None:
    """Ask the next eligible opponent (seat order from the active player's left) whether to
    use their Guild Ability on ``mover``; the rest are asked once that is settled."""
    if s.t.over or s.t.seat != mover:
        return
    for k in range(1, s.n):
        owner = (s.current + k) % s.n
        if owner == mover or s.t.asked & (1 << owner):
            continue
        if could_use(s, owner, mover):
            s.t.asked |= 1 << owner
            then(s, ("guild_windows", mover))
            push(s, "guild_ability", owner, mover)
            return


class GuildAbilityHandler(Handler[State]):
    """Use the Guild Ability on the passing player, or let them pass.
    Frame: ``("guild_ability", owner, mover)``."""

    kind = "guild_ability"

    def prepare(self, s: State, f: Frame) -> bool:
        if not could_use(s, f[1], f[2]) or s.t.over:
            s.stack.pop()
            return True
        return False

    def legal(self, s: State, f: Frame) -> list[Action]:
        owner, target = f[1], f[2]
        return [act(USE_ABILITY, s.guild[owner], target),
                act(LET_PASS, target)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        owner, target = f[1], f[2]
        if a.verb == LET_PASS:
            return
        card = GUILD_CARDS[s.guild[owner]]
        level = s.level(owner, GUILD)
        need = test_target(s, owner, target)
        passed, total = s.test(level, need)
        s.say(f"{s.colour(owner)} uses {card.ability_name} on {s.colour(target)}: rolls "
              f"{total - level} + {level} = {total} against {need}: "
              f"{'success' if passed else 'failure'}.")
        if not passed:
            return
        if card.ability_key == "fire_water":
            s.fire_water[owner] -= 1
        offer_wand(s, target, card.ability_name, (("guild_defence", owner, target),),
                   (("guild_cancelled", owner, target),))

    def describe(self, s: State, f: Frame) -> str:
        return (f"decide whether to use {GUILD_CARDS[s.guild[f[1]]].ability_name} on "
                f"{s.colour(f[2])}")


handler(GuildAbilityHandler)


@op("guild_cancelled")
def guild_cancelled(s: State, owner: int, target: int) -> None:
    """The Wand of Fizzling cancelled it: a Fire Water token goes home."""
    if GUILD_CARDS[s.guild[owner]].ability_key == "fire_water":
        s.fire_water[owner] += 1


@op("guild_defence")
def guild_defence(s: State, owner: int, target: int) -> None:
    """The target's defence roll, then the effect."""
    card = GUILD_CARDS[s.guild[owner]]
    key = card.ability_key
    if key == "unnatural_selection":
        if not s.hand[target]:
            return
        v = s.hand[target][s.rng.below(len(s.hand[target]))]
        bonus = s.stat(v, card.defence_attribute)
        passed, total = s.test(bonus, card.defence_target)
        s.say(f"{card.ability_name} picks {vol(v)} from {s.colour(target)}'s hand: "
              f"{card.defence_attribute.capitalize()} roll {total - bonus} + {bonus} = {total} "
              f"against {card.defence_target}: {'survives' if passed else 'falls'}.")
        if not passed:
            s.hand[target].remove(v)
            lose_volunteer(s, target, v, -1, card.ability_name)
        return
    attr = ATTRIBUTES.index(card.defence_attribute)
    level = s.level(target, attr)
    passed, total = s.test(level, card.defence_target)
    s.say(f"{s.colour(target)} defends with {card.defence_attribute.capitalize()}: rolls "
          f"{total - level} + {level} = {total} against {card.defence_target}: "
          f"{'safe' if passed else 'fails'}.")
    if passed:
        if key == "fire_water":
            s.fire_water[owner] += 1
        return
    if key == "cut_purse":
        cut_purse(s, owner, target)
    elif key == "fire_water":
        s.flasks[target] += (owner,)
        s.say(f"{s.colour(owner)}'s Fire Water now fizzes beside {s.colour(target)}.")
    elif key == "street_theatre":
        street_theatre(s, owner, target)


def cut_purse(s: State, owner: int, target: int) -> None:
    """3 dollars (or all) to the thief; with no money, a random Scroll or Item instead."""
    if s.dollars[target]:
        paid = s.lose(target, 3)
        s.gain(owner, paid)
        s.say(f"{s.colour(owner)} cuts {s.colour(target)}'s purse: ${paid}.")
        return
    pool = len(s.scrolls[target]) + len(s.items[target])
    if not pool:
        return
    k = s.rng.below(pool)
    if k < len(s.scrolls[target]):
        card = s.scrolls[target].pop(k)
        s.scrolls[owner].append(card)
        name, kind = SCROLLS[card].name, "a Scroll"
    else:
        card = s.items[target].pop(k - len(s.scrolls[target]))
        s.items[owner].append(card)
        name, kind = ITEMS[card].name, "an Item"
    s.say(f"{s.colour(owner)} lifts {name} from {s.colour(target)}.",
          frozenset({owner, target}), f"{s.colour(owner)} lifts {kind} from {s.colour(target)}.")


def street_theatre(s: State, owner: int, target: int) -> None:
    """End the mover's movement now, or -2 movement next turn if it had ended."""
    if not movement_finished(s, target):
        s.say(f"A troupe of clowns blocks {s.colour(target)}'s way: their movement ends.")
        end_movement(s, target)
        return
    turns = turns_from_next(s, target, 1)
    s.effects[target] += (Effect("move", -2, 0, turns, "Street Theatre"),)
    s.say(f"{s.colour(target)} will move 2 fewer spaces on their next turn (Street Theatre).")

