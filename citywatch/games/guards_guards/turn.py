"""The turn: start-of-turn duties, Saboteurs, movement, pass-through actions, the stop action
and the end of the turn (rulebook "A Player's Turn", "Movement", "Basic Actions", "A Player's
Guild House", "Temples and Shops", "City Watch House", "Wanted Volunteers", "The Pox",
"Hospitals", "Planting a Saboteur", the Turn Guide; rulings 7-20, 37, 39, 42, 54, 56-63, 77).

``begin_turn`` (``DECISIONS.begin_turn``) starts the next seat's turn: frame ``turn``
``(seat, flasks_at_start, start_tile, phase)``. Phase 0: missed turns (ruling 16) and the
Watch House (frame ``jail``, ruling 61); phase 1: each opponent's ``react`` window (if the
magic module is loaded), in seat order from the active player's left; phase 2: the turn
itself, one decision at a time: before moving, "Try to plant a Saboteur" and
``TURN_HOOKS.before_move``; "Move to <tile>" / "End movement here"; after each step the Pox
(ruling 58), ``TURN_HOOKS.entered``, the Guild Ability windows (``abilities``) and the tile's
pass-through actions (frame ``pass_through``); once stopped, one stop action (recruit, Tavern,
Hospital, ``TURN_HOOKS.stop``) and "End your turn"; at any point the free actions (recall a
Saboteur, discard Mrs Whitlow / Hughnon Ridcully, ``TURN_HOOKS.free``). At the end: timed
effects count down (ruling 54), ``vol_mods`` clear, Fire Water tokens that were on the player
when the turn began fizzle home. Frame ``plant`` chooses the Saboteur, quadrant and Item.

citywatch decisions:
- Movement ends by itself once every space is used; a step onto a tile where the mover may
  not end is offered only while at least one more space is left (Movement; ruling 12). If
  the allowance shrinks mid-move (the Pox caught), the mover stops on the last tile passed
  where they may.
- The allowance is worked out afresh at every step, so a change during the move (the Pox,
  a City Map bought on the way) counts at once (ruling 10).
- Pass-through actions are offered on each entry to a tile; once one is used there, that tile
  offers none again this turn (ruling 14). A player who does not move may use their own tile.
- A Guild House visit is used when $3 is collected or a point bought; not on the own turn
  right after one where it was used (ruling 63), not in a Dragon's quadrant (ruling 77).
- Shops show the whole nearest deck (the other one of its kind if that is empty, ruling 67);
  Dibbler takes 1 dollar off each Item (never below 1). A City Map goes to the hand and its
  +1 movement starts at once (3 turns, this one first); when it runs out the card goes to
  the bottom of the nearest Odds & Sods deck.
- While a Spell Run is open (not the Final Spell) the only stop actions are recruiting
  (ruling 42).
- A failed Saboteur plant uses the turn's one attempt. The plant needs a Brethren Volunteer in
  hand and a quadrant without one's own Saboteur; it is not allowed after a recall on the
  same turn (ruling 37) or while an opponent's announced run freezes Saboteurs (ruling 39),
  which also forbids recalls.
- A missed turn counts as a turn for timed effects and Fire Water (rulings 16, 54).
- Fire Water is checked before each action its card lists: recruiting, a Tavern roll,
  buying, collecting Guild pay or buying points, turning in Wanted Volunteers, being cured,
  planting a Saboteur, and the other modules' "collect_spell", "new_run", "cast",
  "summon_dragon" and "fight_dragon" turn actions. Moving, recalling, using an Item,
  re-trying a challenge and sending Runners are not in its list.
- In the Watch House the player may roll Charm (once), pay $2 bail, discard Mr Slant, or stay:
  staying (or failing with no bail paid) misses this turn, and they leave freely next turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.abilities import allowance, fire_water_explodes
from citywatch.games.guards_guards.actions import Action, act, tile, verb, vol
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    CONSTANTS,
    DECK_NAMES,
    DECK_SPACES,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    TILES,
    VOLUNTEER_TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import (
    DECISIONS,
    TURN_HOOKS,
    handler,
    op,
    push,
    then,
)
from citywatch.games.guards_guards.harm import (
    cure,
    cure_at_hospital,
    end_movement,
    end_turn_now,
    fizzle_flasks,
)
from citywatch.games.guards_guards.recruit import start_recruit, start_tavern
from citywatch.games.guards_guards.spells import final_outcome
from citywatch.games.guards_guards.state import (
    CHARM,
    GUILD,
    UNTIL_HEALED,
    Effect,
    GuardsGuardsState,
    Turn,
)

State = GuardsGuardsState
PLANT_TARGET: Final = int(CONSTANTS["plant_saboteur_guild_target"])
HOUSE_PAYMENT: Final = int(CONSTANTS["guild_house_payment"])
POINT_COST: Final = int(CONSTANTS["attribute_point_cost"])
POINTS_PER_VISIT: Final = int(CONSTANTS["attribute_points_per_visit"])
JAIL_TARGET: Final = int(CONSTANTS["watch_house_charm_target"])
BAIL: Final = int(CONSTANTS["bail"])
PASS_KINDS: Final = frozenset({"guild_house", "merchant", "temple", "watch_house"})
SAFE_KINDS: Final = frozenset({"hospital", "watch_house"})
CITY_MAP_OP: Final = "movement"
SLANT: Final = next(v.index for v in VOLUNTEERS if v.ability == "lawyer")
SPACES_OF: Final = {kind: tuple(d.index for d in DECK_SPACES if d.deck == kind)
                    for kind in ("odds_and_sods", "curses_and_cures")}
CURERS: Final = {v.index: v.ability for v in VOLUNTEERS if v.ability in ("pox_cure", "blessing")}

# --- verbs ----------------------------------------------------------------------------------
MOVE_TO: Final = verb("move_to", (("tile", "tile"),), lambda a: f"Move to {tile(a.x)}")
END_MOVE: Final = verb("end_movement", (("tile", "tile"),),
                       lambda a: f"End movement here ({tile(a.x)})")
END_TURN: Final = verb("end_turn", (), lambda a: "End your turn")
MOVES: Final = tuple(act(MOVE_TO, t) for t in range(len(TILES)))
"""``MOVE_TO`` each tile, built once: the turn offers a step to every neighbour at each step."""
END_MOVES: Final = tuple(act(END_MOVE, t) for t in range(len(TILES)))
"""``END_MOVE`` on each tile, built once."""
END_TURN_NOW: Final = act(END_TURN)
"""The ``END_TURN`` action, built once."""
TRY_PLANT: Final = verb(
    "try_plant", (("guild", "number"),),
    lambda a: f"Try to plant a Saboteur (Guild test, {PLANT_TARGET} or more; you roll + {a.x})",
)
PLANT: Final = verb(
    "plant", (("volunteer", "volunteer"), ("quadrant", "quadrant")),
    lambda a: f"Plant {vol(a.x)} as your Saboteur in the {QUADRANTS[a.y].capitalize()}' "
                     "quadrant",
)
PLANT_ITEM: Final = verb("plant_item", (("item", "item"),),
                         lambda a: f"Give your Saboteur the {ITEMS[a.x].name}")
PLANT_NO_ITEM: Final = verb("plant_no_item", (), lambda a: "Plant your Saboteur without an Item")
RECALL: Final = verb(
    "recall", (("quadrant", "quadrant"), ("volunteer", "volunteer")),
    lambda a: f"Recall your Saboteur {vol(a.y)} from the {QUADRANTS[a.x].capitalize()}' "
                     "quadrant",
)
DISCARD_CURE: Final = verb(
    "discard_to_cure", (("volunteer", "volunteer"),),
    lambda a: f"Discard {vol(a.x)} to cure the Pox"
                     + (" and every 'until healed' effect"
                        if VOLUNTEERS[a.x].ability == "blessing" else ""),
)
RECRUIT_HERE: Final = verb(
    "recruit_here", (("tile", "tile"), ("deck", "deck")),
    lambda a: f"Recruit a {DECK_NAMES[a.y]} Volunteer at {tile(a.x)}",
)
TAVERN_HERE: Final = verb("tavern_here", (("tile", "tile"),),
                          lambda a: f"Roll on the Tavern table at {tile(a.x)}")
CURE_HERE: Final = verb("cure_here", (("tile", "tile"),),
                        lambda a: f"Be cured at {tile(a.x)} (your turn ends)")
COLLECT: Final = verb("collect_pay", (("tile", "tile"), ("dollars", "number")),
                      lambda a: f"Collect ${a.y} at the {tile(a.x)}")
BUY_POINT: Final = verb(
    "buy_point", (("attribute", "attribute"), ("dollars", "number")),
    lambda a: f"Buy a {ATTRIBUTES[a.x].capitalize()} point for ${a.y}",
)
BUY_ITEM: Final = verb("buy_item", (("item", "item"), ("dollars", "number")),
                       lambda a: f"Buy {ITEMS[a.x].name} for ${a.y}")
BUY_SCROLL: Final = verb("buy_scroll", (("scroll", "scroll"), ("dollars", "number")),
                         lambda a: f"Buy {SCROLLS[a.x].name} for ${a.y}")
TURN_IN: Final = verb("turn_in", (("volunteer", "volunteer"), ("dollars", "number")),
                      lambda a: f"Turn in {vol(a.x)} for a ${a.y} reward")
LEAVE: Final = verb("done_here", (("tile", "tile"),), lambda a: f"Done at {tile(a.x)}")
JAIL_ROLL: Final = verb(
    "jail_charm", (("charm", "number"),),
    lambda a: f"Talk your way out (Charm test, {JAIL_TARGET} or more; you roll + {a.x})",
)
JAIL_BAIL: Final = verb("jail_bail", (("dollars", "number"),), lambda a: f"Pay ${a.x} bail")
JAIL_SLANT: Final = verb("jail_slant", (), lambda a: "Discard Mr Slant to walk out")
JAIL_STAY: Final = verb(
    "jail_stay", (), lambda a: "Stay in the Watch House (miss this turn, leave freely next turn)")

FIRE_WATER_VERBS: Final = frozenset(
    {"collect_spell", "new_run", "cast", "summon_dragon", "fight_dragon"}
)
"""Other modules' turn actions that Fire Water spoils (the card's list), by verb name."""
OWN_VERBS: Final = frozenset({MOVE_TO, END_MOVE, END_TURN, TRY_PLANT, RECALL, DISCARD_CURE,
                              RECRUIT_HERE, TAVERN_HERE, CURE_HERE})


# --- helpers ---------------------------------------------------------------------------------
def dragon_in(s: State, where: int) -> bool:
    """True if a Dragon holds the quadrant of tile ``where`` (ruling 77)."""
    q = TILES[where].quadrant
    return q >= 0 and s.dragons[q] >= 0


def frozen_out(s: State, seat: int) -> bool:
    """True while an opponent's announced run forbids planting and recalling (ruling 39)."""
    return any(s.frozen[o] for o in range(s.n) if o != seat)


def run_open(s: State, seat: int) -> bool:
    """True while a Spell Run (not the Final Spell) is open (ruling 42)."""
    r = s.run[seat]
    return r is not None and not r.final


def item_price(s: State, seat: int, item: int) -> int:
    """An Item's price for ``seat``: Dibbler takes 1 off, never below 1."""
    price = ITEMS[item].price
    if s.has_ability(seat, "bargain"):
        price = max(1, price - 1)
    return price


def shop_deck(s: State, seat: int, kind: str) -> int:
    """The deck space a shop sells from: the nearest of ``kind``, or the other if it is empty
    (ruling 67); -1 if both are empty."""
    first = s.deck_for(seat, kind)
    if s.decks[first]:
        return first
    for space in SPACES_OF[kind]:
        if s.decks[space]:
            return space
    return -1


def house_open(s: State, seat: int) -> bool:
    """True if the seat may use its Guild House this turn (ruling 63 and 77)."""
    g = GUILD_CARDS[s.guild[seat]]
    if s.dragons[g.guild] >= 0:
        return False
    return s.house_turn[seat] != s.own_turns[seat] - 1


def provide(providers: list[Callable[[State, int], list[Action]]], s: State,
            seat: int) -> list[Action]:
    """Every action the hook providers offer."""
    out: list[Action] = []
    for p in providers:
        out.extend(p(s, seat))
    return out


# --- the turn's start and end ------------------------------------------------------------------
def begin_turn(s: State) -> None:
    """The next seat's turn begins (ruling 7), unless the agreed rounds are over (the Short
    Game, citywatch ruling 6)."""
    if s.rounds and s.turn >= s.rounds * s.n:
        s.say(f"{s.rounds} rounds are over: the game is judged by spells, then dollars.")
        s.result = final_outcome(s, f"{s.rounds} rounds played")
        return
    seat = (s.current + 1) % s.n
    s.current = seat
    s.turn += 1
    s.own_turns[seat] += 1
    s.t = Turn(seat)
    s.frozen[seat] = False
    s.stack.append(("turn", seat, len(s.flasks[seat]), s.pos[seat], 0))


DECISIONS.begin_turn = begin_turn


def end_of_turn(s: State, seat: int, flasks_at_start: int) -> None:
    """Timed effects count down (ruling 54), this turn's Volunteer modifiers go, and Fire
    Water that was already on the player when the turn began fizzles home."""
    keep: list[Effect] = []
    for e in s.effects[seat]:
        if e.turns == UNTIL_HEALED:
            keep.append(e)
        elif e.turns > 1:
            keep.append(Effect(e.kind, e.a, e.b, e.turns - 1, e.source))
        else:
            s.say(f"{e.source} wears off for {s.colour(seat)}.")
            expire(s, seat, e)
    s.effects[seat] = tuple(keep)
    s.vol_mods.clear()
    old = min(flasks_at_start, len(s.flasks[seat]))
    if old:
        for owner in s.flasks[seat][:old]:
            s.fire_water[owner] += 1
            s.say(f"{s.colour(owner)}'s Fire Water by {s.colour(seat)} fizzles and goes back.")
        s.flasks[seat] = s.flasks[seat][old:]
    s.t.over = True
    s.t.stopped = True


def expire(s: State, seat: int, e: Effect) -> None:
    """A run-out City Map goes to the bottom of the nearest Odds & Sods deck."""
    for item in s.items[seat]:
        if ITEMS[item].name == e.source and (ITEMS[item].op or {}).get("op") == CITY_MAP_OP:
            s.items[seat].remove(item)
            s.return_card(seat, "odds_and_sods", item)
            return


# --- the turn frame ----------------------------------------------------------------------------
class TurnHandler(Handler[State]):
    """The active player's turn. Frame: ``("turn", seat, flasks_at_start, start_tile,
    phase)``."""

    kind = "turn"

    def prepare(self, s: State, f: Frame) -> bool:
        seat, flasks, phase = f[1], f[2], f[4]
        t = s.t
        if phase == 0:
            if s.missed[seat] > 0:
                s.missed[seat] -= 1
                s.say(f"{s.colour(seat)} misses this turn.")
                end_of_turn(s, seat, flasks)
                s.stack.pop()
                return True
            s.stack[-1] = (*f[:4], 1)
            if s.jailed[seat]:
                push(s, "jail", seat, False)
            return True
        if t.over:
            end_of_turn(s, seat, flasks)
            s.stack.pop()
            return True
        if phase == 1:
            s.stack[-1] = (f[0], seat, flasks, s.pos[seat], 2)
            if "react" in DECISIONS.handlers:
                for k in range(s.n - 1, 0, -1):
                    push(s, "react", (seat + k) % s.n)
            return True
        if not t.stopped and t.moving and t.steps >= allowance(s, seat):
            end_movement(s, seat)
            return True
        return False

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat = f[1]
        t = s.t
        here = s.pos[seat]
        out: list[Action] = []
        if not t.stopped:
            if not t.moving and t.steps == 0:
                if can_plant(s, seat):
                    out.append(act(TRY_PLANT, s.level(seat, GUILD)))
                out.extend(provide(TURN_HOOKS.before_move, s, seat))
            left = allowance(s, seat) - t.steps
            moves = []
            if left > 0:
                for nb in board.NEIGHBOURS[here]:
                    if left > 1 or s.can_end_on(seat, nb):
                        moves.append(MOVES[nb])
            out.extend(moves)
            if s.can_end_on(seat, here) or not moves:
                out.append(END_MOVES[here])
        else:
            if not t.stop_done:
                out.extend(stop_actions(s, seat))
            out.append(END_TURN_NOW)
        out.extend(free_actions(s, seat))
        return out

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f[1]
        t = s.t
        v = a.verb
        if v == MOVE_TO:
            step(s, seat, a.x)
        elif v == END_MOVE:
            moved = t.steps > 0
            t.allowance = allowance(s, seat) if not moved else t.allowance
            end_movement(s, seat)
            if not moved:
                then(s, ("guild_windows", seat), ("turn_pass_through", seat, s.pos[seat]))
        elif v == END_TURN:
            t.over = True
        elif v == TRY_PLANT:
            try_plant(s, seat)
        elif v == RECALL:
            recall(s, seat, a.x, a.y)
        elif v == DISCARD_CURE:
            discard_to_cure(s, seat, a.x)
        elif v == RECRUIT_HERE:
            t.stop_done = True
            if not fire_water_explodes(s, seat):
                s.say(f"{s.colour(seat)} tries to recruit at {tile(a.x)}.")
                start_recruit(s, seat, a.y)
        elif v == TAVERN_HERE:
            t.stop_done = True
            if not fire_water_explodes(s, seat):
                start_tavern(s, seat)
        elif v == CURE_HERE:
            t.stop_done = True
            if not fire_water_explodes(s, seat):
                s.say(f"{s.colour(seat)} stops at {tile(a.x)} to be cured.")
                cure_at_hospital(s, seat, False)
                end_turn_now(s, seat)
        else:
            if t.stopped and not t.stop_done and a in provide(TURN_HOOKS.stop, s, seat):
                t.stop_done = True
            if v in FIRE_WATER_VERBS and fire_water_explodes(s, seat):
                return
            TURN_HOOKS.do[v](s, seat, a)

    def describe(self, s: State, f: Frame) -> str:
        t = s.t
        if not t.stopped:
            left = allowance(s, f[1]) - t.steps
            return f"move ({left} space{'s' if left != 1 else ''} left) or act"
        return "take a stop action or end the turn"


handler(TurnHandler)


def stop_actions(s: State, seat: int) -> list[Action]:
    """The stop actions of the tile where the movement ended (ruling 15; ruling 42)."""
    here = s.pos[seat]
    kind = TILES[here].kind
    out: list[Action] = []
    if here in VOLUNTEER_TILES and not dragon_in(s, here):
        deck = VOLUNTEER_TILES[here]
        if s.vol_up[deck] or s.vol_down[deck] or s.vol_discard[deck]:
            out.append(act(RECRUIT_HERE, here, deck))
    elif kind == "tavern" and not dragon_in(s, here):
        out.append(act(TAVERN_HERE, here))
    if run_open(s, seat):
        return out
    if kind == "hospital":
        out.append(act(CURE_HERE, here))
    out.extend(provide(TURN_HOOKS.stop, s, seat))
    return out


def free_actions(s: State, seat: int) -> list[Action]:
    """Actions open at any point of the own turn (ruling 9)."""
    out: list[Action] = []
    if s.saboteurs[seat] and not frozen_out(s, seat):
        out.extend(act(RECALL, q, v) for q, v, _ in s.saboteurs[seat])
    seen: set[int] = set()
    for v in s.hand[seat]:
        ability = CURERS.get(v)
        if ability is None or v in seen:
            continue
        seen.add(v)
        if s.pox[seat] or (ability == "blessing" and any(
                e.turns == UNTIL_HEALED for e in s.effects[seat])):
            out.append(act(DISCARD_CURE, v))
    out.extend(provide(TURN_HOOKS.free, s, seat))
    return out


# --- movement ----------------------------------------------------------------------------------
def step(s: State, seat: int, to: int) -> None:
    """One step to a neighbouring tile, then what entering it brings."""
    t = s.t
    if not t.moving:
        t.moving = True
        t.allowance = allowance(s, seat)
    s.pos[seat] = to
    t.steps += 1
    t.path.append(to)
    if TILES[to].kind in SAFE_KINDS:
        fizzle_flasks(s, seat)
    then(s, ("turn_pox", seat), ("turn_entered", seat, to), ("guild_windows", seat),
         ("turn_pass_through", seat, to))


@op("turn_pox")
def pox_after_step(s: State, seat: int) -> None:
    """The Pox passes at hex distance 1, either way (ruling 58)."""
    here = s.pos[seat]
    if here < 0:
        return
    for k in range(1, s.n):
        other = (seat + k) % s.n
        there = s.pos[other]
        if there < 0 or board.hex_distance(here, there) > 1:
            continue
        if s.pox[seat] and not s.is_safe_place(seat):
            s.catch_pox(other, f"from {s.colour(seat)}")
        elif s.pox[other] and not s.is_safe_place(other):
            s.catch_pox(seat, f"from {s.colour(other)}")


@op("turn_entered")
def entered(s: State, seat: int, where: int) -> None:
    """The modules above hear of each step (the Final Spell's Saboteurs, ruling 46)."""
    if s.t.over:
        return
    for hook in TURN_HOOKS.entered:
        hook(s, seat, where)


@op("turn_pass_through")
def pass_through(s: State, seat: int, where: int) -> None:
    """Offer the pass-through actions of ``where`` (ruling 14)."""
    if s.t.over or s.pos[seat] != where or where in s.t.used:
        return
    if TILES[where].kind in PASS_KINDS:
        push(s, "pass_through", seat, where, False, 0)


# --- pass-through actions ----------------------------------------------------------------------
class PassThroughHandler(Handler[State]):
    """A pass-through tile's actions. Frame: ``("pass_through", seat, tile, collected,
    points_bought)``."""

    kind = "pass_through"

    def prepare(self, s: State, f: Frame) -> bool:
        if s.t.over or s.pos[f[1]] != f[2]:
            s.stack.pop()
            return True
        return False

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, here, collected, points = f[1], f[2], f[3], f[4]
        kind = TILES[here].kind
        out: list[Action] = []
        if kind == "guild_house":
            if here == GUILD_CARDS[s.guild[seat]].guild_house and house_open(s, seat):
                if not collected:
                    out.append(act(COLLECT, here, HOUSE_PAYMENT))
                if points < POINTS_PER_VISIT and s.dollars[seat] >= POINT_COST:
                    out.extend(act(BUY_POINT, attr, POINT_COST) for attr in range(3)
                               if s.attrs[seat][attr] < 10)
        elif kind == "merchant" and not dragon_in(s, here):
            space = shop_deck(s, seat, "odds_and_sods")
            if space >= 0:
                for item in s.decks[space]:
                    price = item_price(s, seat, item)
                    if price <= s.dollars[seat]:
                        out.append(act(BUY_ITEM, item, price))
        elif kind == "temple" and not dragon_in(s, here):
            space = shop_deck(s, seat, "curses_and_cures")
            if space >= 0:
                for scroll in s.decks[space]:
                    price = SCROLLS[scroll].price
                    if price <= s.dollars[seat]:
                        out.append(act(BUY_SCROLL, scroll, price))
        elif kind == "watch_house":
            extra = 1 if s.has_ability(seat, "informer") else 0
            out.extend(act(TURN_IN, v, reward(v) + extra)
                       for v in dict.fromkeys(s.hand[seat]) if VOLUNTEERS[v].wanted)
        out.append(act(LEAVE, here))
        return out

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat, here, _collected, points = f[1], f[2], f[3], f[4]
        if a.verb == LEAVE:
            s.stack.pop()
            return
        if fire_water_explodes(s, seat):
            s.stack.pop()
            return
        if here not in s.t.used:
            s.t.used.append(here)
        name = s.colour(seat)
        if a.verb == COLLECT:
            s.gain(seat, a.y)
            s.house_turn[seat] = s.own_turns[seat]
            s.t.house = True
            s.say(f"{name} collects ${a.y} at the {tile(here)}.")
            s.stack[-1] = (*f[:3], True, points)
        elif a.verb == BUY_POINT:
            s.lose(seat, a.y)
            s.house_turn[seat] = s.own_turns[seat]
            s.t.house = True
            s.say(f"{name} buys a {ATTRIBUTES[a.x].capitalize()} point for ${a.y}.")
            s.add_attribute(seat, a.x, 1)
            s.stack[-1] = (*f[:4], points + 1)
        elif a.verb == BUY_ITEM:
            buy(s, seat, "odds_and_sods", a.x, a.y)
        elif a.verb == BUY_SCROLL:
            buy(s, seat, "curses_and_cures", a.x, a.y)
        elif a.verb == TURN_IN:
            s.hand[seat].remove(a.x)
            s.discard_volunteer(a.x)
            s.gain(seat, a.y)
            s.say(f"{name} turns in {vol(a.x)} at {tile(here)} for a ${a.y} reward.")

    def describe(self, s: State, f: Frame) -> str:
        return f"act at {tile(f[2])}"


handler(PassThroughHandler)


def reward(v: int) -> int:
    """The Wanted reward: Bribe + 1, an "X" counting as 0 (ruling 62)."""
    return (VOLUNTEERS[v].bribe or 0) + 1


def buy(s: State, seat: int, kind: str, card: int, price: int) -> None:
    """Buy ``card`` from the shop's deck; its price is public, the card hidden (ruling 69)."""
    for space in SPACES_OF[kind]:
        if card in s.decks[space]:
            s.decks[space].remove(card)
            break
    s.lose(seat, price)
    name = s.colour(seat)
    if kind == "curses_and_cures":
        s.scrolls[seat].append(card)
        s.bought[seat] += (card,)
        s.say(f"{name} buys the Scroll {SCROLLS[card].name} for ${price}.", frozenset({seat}),
              f"{name} buys a Scroll for ${price}.")
        return
    s.items[seat].append(card)
    s.bought[seat] += (100 + card,)
    item = ITEMS[card]
    o = item.op or {}
    if o.get("op") == CITY_MAP_OP and "delta" in o:
        s.effects[seat] += (Effect("move", int(o["delta"]), 0, int(o["turns"]), item.name),)
        s.say(f"{name} buys the {item.name} for ${price} and shows it: +{o['delta']} movement "
              f"for {o['turns']} turns.")
        return
    s.say(f"{name} buys the Item {item.name} for ${price}.", frozenset({seat}),
          f"{name} buys an Item for ${price}.")


# --- free actions ------------------------------------------------------------------------------
def discard_to_cure(s: State, seat: int, v: int) -> None:
    """Mrs Whitlow cures the Pox; Hughnon Ridcully the Pox and 'until healed' effects."""
    s.hand[seat].remove(v)
    s.discard_volunteer(v)
    cure(s, seat, pox=True, until_healed=VOLUNTEERS[v].ability == "blessing")
    s.say(f"{s.colour(seat)} discards {vol(v)} and is cured.")


def recall(s: State, seat: int, quadrant: int, v: int) -> None:
    """A planted Saboteur (and its Item) comes back to the hand (Planting a Saboteur)."""
    for k, (q, who, item) in enumerate(s.saboteurs[seat]):
        if q == quadrant and who == v:
            s.saboteurs[seat] = s.saboteurs[seat][:k] + s.saboteurs[seat][k + 1:]
            s.hand[seat].append(v)
            if item >= 0:
                s.items[seat].append(item)
            break
    s.t.recalled = True
    s.say(f"{s.colour(seat)} recalls {vol(v)} from the {QUADRANTS[quadrant].capitalize()}' "
          "quadrant.", frozenset({seat}), f"{s.colour(seat)} recalls a Saboteur.")


# --- planting a Saboteur (ruling 37) -------------------------------------------------------------
def brethren_in_hand(s: State, seat: int) -> list[int]:
    """The seat's Brethren Volunteers in hand."""
    return [v for v in dict.fromkeys(s.hand[seat]) if VOLUNTEERS[v].brethren]


def free_quadrants(s: State, seat: int) -> list[int]:
    """Quadrants where the seat has no Saboteur yet (ruling 37)."""
    used = {q for q, _, _ in s.saboteurs[seat]}
    return [q for q in range(len(QUADRANTS)) if q not in used]


def can_plant(s: State, seat: int) -> bool:
    """True if the seat may try to plant a Saboteur now."""
    t = s.t
    return (not t.planted and not t.recalled and not frozen_out(s, seat)
            and bool(brethren_in_hand(s, seat)) and bool(free_quadrants(s, seat)))


def try_plant(s: State, seat: int) -> None:
    """The Guild test (5+) to plant a Saboteur; on a pass, choose who, where and an Item."""
    s.t.planted = True
    if fire_water_explodes(s, seat):
        return
    level = s.level(seat, GUILD)
    passed, total = s.test(level, PLANT_TARGET)
    s.say(f"{s.colour(seat)} tries to plant a Saboteur: rolls {total - level} + {level} = "
          f"{total} against {PLANT_TARGET}: {'success' if passed else 'failure'}.")
    if passed:
        push(s, "plant", seat, -1, -1)


class PlantHandler(Handler[State]):
    """Choose the Saboteur and quadrant, then its Item. Frame: ``("plant", seat, volunteer,
    quadrant)``."""

    kind = "plant"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat = f[1]
        if f[2] < 0:
            return [act(PLANT, v, q) for v in brethren_in_hand(s, seat)
                    for q in free_quadrants(s, seat)]
        return [act(PLANT_NO_ITEM),
                *(act(PLANT_ITEM, i) for i in dict.fromkeys(s.items[seat]))]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f[1]
        s.stack.pop()
        if a.verb == PLANT:
            push(s, "plant", seat, a.x, a.y)
            return
        v, q = f[2], f[3]
        item = a.x if a.verb == PLANT_ITEM else -1
        s.hand[seat].remove(v)
        if item >= 0:
            s.items[seat].remove(item)
        s.saboteurs[seat] += ((q, v, item),)
        s.say(f"{s.colour(seat)} plants {vol(v)} as a Saboteur in the "
              f"{QUADRANTS[q].capitalize()}' quadrant"
              + (f" with the {ITEMS[item].name}." if item >= 0 else "."),
              frozenset({seat}), f"{s.colour(seat)} plants a Saboteur.")

    def describe(self, s: State, f: Frame) -> str:
        return "choose a Saboteur and its quadrant" if f[2] < 0 else "equip your Saboteur"


handler(PlantHandler)


# --- the Watch House (ruling 61) ---------------------------------------------------------
class JailHandler(Handler[State]):
    """Leaving the Watch House at the start of the turn. Frame: ``("jail", seat, rolled)``."""

    kind = "jail"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, rolled = f[1], f[2]
        out: list[Action] = []
        if not rolled:
            out.append(act(JAIL_ROLL, s.level(seat, CHARM)))
        if s.dollars[seat] >= BAIL:
            out.append(act(JAIL_BAIL, BAIL))
        if SLANT in s.hand[seat]:
            out.append(act(JAIL_SLANT))
        out.append(act(JAIL_STAY))
        return out

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat = f[1]
        s.stack.pop()
        name = s.colour(seat)
        if a.verb == JAIL_ROLL:
            level = s.level(seat, CHARM)
            passed, total = s.test(level, JAIL_TARGET)
            s.say(f"{name} tries to talk their way out: rolls {total - level} + {level} = "
                  f"{total} against {JAIL_TARGET}: {'free' if passed else 'still held'}.")
            if passed:
                s.jailed[seat] = False
            else:
                push(s, "jail", seat, True)
        elif a.verb == JAIL_BAIL:
            s.lose(seat, a.x)
            s.jailed[seat] = False
            s.say(f"{name} pays ${a.x} bail and walks out.")
        elif a.verb == JAIL_SLANT:
            s.hand[seat].remove(SLANT)
            s.discard_volunteer(SLANT)
            s.jailed[seat] = False
            s.say(f"{name} discards Mr Slant, who has them out at once.")
        else:
            s.jailed[seat] = False
            s.t.over = True
            s.t.stopped = True
            s.say(f"{name} stays in the Watch House this turn and will leave freely next turn.")

    def describe(self, s: State, f: Frame) -> str:
        return "get out of the Watch House"


handler(JailHandler)
