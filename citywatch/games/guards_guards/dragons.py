"""The Elucidated Brethren and the Dragons (rulebook "Elucidated Brethren of the Ebon Night",
"Dragons", "The Dragons Win!"; rulings 8, 68, 71-78).

Summoning: before moving, a player holding 3 or more Brethren (Lupine Wonse counts two) may
summon a Dragon to a Guild House without one, discarding one Brethren; it takes the whole turn
(ruling 8). The Call (op ``call_brethren``, queued by the Fate card): each Brethren in a hand
or planted rolls die + Loyalty and answers below 7 (Wonse always); 3 or more answers bring a
random Dragon to the drawer's Guild House, or the next clockwise without one (ruling 72).
Each arrival is followed by a fight everyone but a summoner must join (ruling 73).

Fights (frame ``("dragon", seat, "send", quadrant, fighters, order, must, final)`` to send
Volunteers, then ``("dragon", -1, "fight", quadrant, fighters, bane, final)`` which rolls
once every ``react`` window above it is closed): combined Brawl (with Items and this turn's
magic) + Lady Sybil 3 + Errol 5 + Dragon's Bane + one roll (eights re-rolled, a natural 1
fails) against the Dragon's Toughness. A win sends the Dragon back to the pile (ruling 68) and
pays each owner $1 per Volunteer (ruling 75); a loss makes each fighter test Toughness
(+4 with the Dragon-Proof Shield) against the Dragon's Brawl, and the failures are discarded,
their Items back in the owner's hand (ruling 76). With a Dragon in all four quadrants the
fight is the last one: losing it ends the game, everyone loses (ruling 78).

citywatch decision (Fighting a Dragon): Volunteers are sent in seat order from the active
player; each player sends what they must, then may add more, up to 6 in all. A player with no
Volunteer in hand who must send recalls a planted Saboteur (with its Item).
citywatch decision (Fighting a Dragon): a player fights a Dragon of their own will as a free
action on their own turn ("Fight the Dragon in ..."): they send at least one Volunteer, and
then every other player may add Volunteers. A fight's survivors go back to their owners'
hands (a recalled Saboteur too).
citywatch decision (How Dragons Come into Play): a summons is not allowed on a turn in which a
Saboteur was planted (ruling 8: it replaces the plant).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.api import Outcome
from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import harm
from citywatch.games.guards_guards.actions import Action, act, verb, vol
from citywatch.games.guards_guards.combat import guild_quadrant, item_text
from citywatch.games.guards_guards.data import (
    CONSTANTS,
    DRAGONS,
    GUILD_CARDS,
    GUILD_HOUSES,
    ITEMS,
    QUADRANTS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import TURN_HOOKS, handler, op, push
from citywatch.games.guards_guards.state import GuardsGuardsState, without

State = GuardsGuardsState
MAX_FIGHTERS: Final = int(CONSTANTS["dragon_fighters_max"])
SUMMON_NEEDS: Final = int(CONSTANTS["summon_dragon_brethren"])
SHIELD: Final = next(i.index for i in ITEMS if (i.op or {}).get("op") == "dragon_toughness")
SHIELD_BONUS: Final = int((ITEMS[SHIELD].op or {})["delta"])
DRAGON_BONUS: Final = {"dragon_lore": 3, "dragon_slayer": 5}
"""Lady Sybil and Errol's additions to a fight's combined Brawl."""
Fighter = tuple[int, int, int]


def house_name(q: int) -> str:
    """The Guild House of quadrant ``q``."""
    return TILES[GUILD_HOUSES[q]].name


SUMMON: Final = verb(
    "summon_dragon", (("quadrant", "quadrant"), ("discard", "volunteer")),
    lambda a: f"Summon a Dragon to the {house_name(a.x)} (discard {vol(a.y)}; it takes your "
              "whole turn)")
FIGHT: Final = verb("fight_dragon", (("quadrant", "quadrant"),),
                    lambda a: f"Fight the Dragon at the {house_name(a.x)}")
SEND: Final = verb("send_fighter", (("volunteer", "volunteer"), ("item", "item")),
                   lambda a: f"Send {vol(a.x)}{item_text(a.y)} to fight the Dragon")
RECALL_TO_FIGHT: Final = verb(
    "recall_to_fight", (("volunteer", "volunteer"),),
    lambda a: f"Recall your Saboteur {vol(a.x)} to fight the Dragon")
NO_MORE: Final = verb("no_more_fighters", (), lambda a: "Send no more Volunteers")


def brethren_count(s: State, seat: int) -> int:
    """Brethren in hand, Lupine Wonse counting two."""
    return sum(2 if VOLUNTEERS[v].ability == "supreme_grand_master" else 1
               for v in s.hand[seat] if VOLUNTEERS[v].brethren)


def four_dragons(s: State) -> bool:
    """A Dragon in every quadrant (The Dragons Win!)."""
    return all(d >= 0 for d in s.dragons)


def order_from(s: State, first: int) -> tuple[int, ...]:
    """Every seat in order from ``first``."""
    return tuple((first + k) % s.n for k in range(s.n))


def place_dragon(s: State, quadrant: int) -> int:
    """A random Dragon from the pile onto ``quadrant``'s Guild House (ruling 68)."""
    pile = s.dragon_pile
    d = pile.pop(s.rng.below(len(pile)))
    s.dragons[quadrant] = d
    s.say(f"{DRAGONS[d].name} (Brawl {DRAGONS[d].brawl}, Toughness {DRAGONS[d].toughness}) "
          f"lands on the {house_name(quadrant)}!")
    return d


def begin_fight(s: State, quadrant: int, first: int, must: int) -> None:
    """Ask for fighters against the Dragon of ``quadrant``, from seat ``first``; ``must`` is
    the bitmask of seats that must send one (ruling 73)."""
    push(s, "dragon", first, "send", quadrant, (), order_from(s, first), must,
         four_dragons(s))


# --- summoning (rulebook, How Dragons Come into Play) ------------------------------------------
def summon_actions(s: State, seat: int) -> list[Action]:
    """"Summon a Dragon to ..." for each free Guild House and each Brethren to discard."""
    if (s.t.over or s.t.planted or not s.dragon_pile
            or brethren_count(s, seat) < SUMMON_NEEDS):
        return []
    brethren = [v for v in dict.fromkeys(s.hand[seat]) if VOLUNTEERS[v].brethren]
    return [act(SUMMON, q, v) for q in range(len(QUADRANTS)) if s.dragons[q] < 0
            for v in brethren]


def do_summon(s: State, seat: int, a: Action) -> None:
    """Show the Brethren, discard one, place a Dragon, end the turn, fight it."""
    shown = ", ".join(vol(v) for v in s.hand[seat] if VOLUNTEERS[v].brethren)
    s.say(f"{s.colour(seat)} shows the Brethren ({shown}) and summons a Dragon.")
    s.hand[seat].remove(a.y)
    s.discard_volunteer(a.y)
    s.say(f"{s.colour(seat)} discards {vol(a.y)}.")
    harm.end_turn_now(s, seat)
    place_dragon(s, a.x)
    others = sum(1 << o for o in range(s.n) if o != seat)
    begin_fight(s, a.x, s.current, others)


@op("call_brethren")
def call_brethren(s: State, drawer: int) -> None:
    """The Supreme Grand Master's Call (Fate card; ruling 71)."""
    answers = 0
    for seat in order_from(s, drawer):
        pool = [(v, -1, False) for v in s.hand[seat]]
        pool += [(v, item, True) for _, v, item in s.saboteurs[seat]]
        for v, item, planted in pool:
            if not VOLUNTEERS[v].brethren:
                continue
            where = "a planted Saboteur" if planted else "in their hand"
            if VOLUNTEERS[v].ability == "supreme_grand_master":
                answers += 1
                s.say(f"{s.colour(seat)}'s {vol(v)} ({where}) always answers the Call.")
                continue
            total = s.roll() + s.stat(v, "loyalty", item)
            if total < 7:
                answers += 1
                s.say(f"{s.colour(seat)}'s {vol(v)} ({where}) answers the Call ({total}).")
            else:
                s.say(f"{s.colour(seat)} rolls {total} for a Brethren: it stays loyal.",
                      seats=frozenset({seat}),
                      others=f"{s.colour(seat)} rolls {total} for a Brethren: it stays loyal.")
    s.say(f"{answers} Brethren answer the Call.")
    if answers < 3 or not s.dragon_pile:
        return
    start = guild_quadrant(s, drawer)
    for k in range(4):
        q = (start + k) % 4
        if s.dragons[q] < 0:
            place_dragon(s, q)
            begin_fight(s, q, s.current, (1 << s.n) - 1)
            return


# --- sending fighters --------------------------------------------------------------------------
def _send_options(s: State, seat: int) -> list[Action]:
    out = [act(SEND, v, -1) for v in dict.fromkeys(s.hand[seat])]
    out += [act(SEND, v, i) for v in dict.fromkeys(s.hand[seat])
            for i in dict.fromkeys(s.items[seat]) if not ITEMS[i].magical
            and ITEMS[i].kind == "equipment"]
    return out


class DragonHandler(Handler[State]):
    """Sending Volunteers against a Dragon, and the fight itself."""

    kind = "dragon"

    def prepare(self, s: State, f: Frame) -> bool:
        if f[2] == "fight":
            s.stack.pop()
            resolve_fight(s, f[3], f[4], f[5], f[6])
            return True
        _, seat, _, q, sent, order, must, final = f
        if not order:
            s.stack.pop()
            if s.dragons[q] < 0:
                return True
            if not sent:
                s.say("Nobody fights the Dragon.")
                if final:
                    dragons_win(s)
                return True
            push(s, "dragon", -1, "fight", q, sent, 0, final)
            for other in reversed(order_from(s, s.current)):
                push(s, "react", other, "dragon")
            return True
        if len(sent) >= MAX_FIGHTERS or not self.legal(s, f):
            s.stack[-1] = ("dragon", order[1] if len(order) > 1 else -1, "send", q, sent,
                           order[1:], must & ~(1 << seat), final)
            return True
        return False

    def legal(self, s: State, f: Frame) -> list[Action]:
        _, seat, _, q, sent, order, must, final = f
        options = _send_options(s, seat)
        required = bool(must >> seat & 1)
        if required and not options:
            return [act(RECALL_TO_FIGHT, v) for _, v, _ in s.saboteurs[seat]]
        if not options:
            return []
        return options if required else [*options, act(NO_MORE)]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        _, seat, _, q, sent, order, must, final = f
        if a.verb == NO_MORE:
            s.stack[-1] = ("dragon", order[1] if len(order) > 1 else -1, "send", q, sent,
                           order[1:], must & ~(1 << seat), final)
            return
        if a.verb == RECALL_TO_FIGHT:
            sab = next(x for x in s.saboteurs[seat] if x[1] == a.x)
            s.saboteurs[seat] = without(s.saboteurs[seat], sab)
            fighter = (seat, a.x, sab[2])
            s.say(f"{s.colour(seat)} recalls a Saboteur, {vol(a.x)}"
                  f"{item_text(sab[2])}, to fight the Dragon.")
        else:
            s.hand[seat].remove(a.x)
            if a.y >= 0:
                s.items[seat].remove(a.y)
            fighter = (seat, a.x, a.y)
            s.say(f"{s.colour(seat)} sends {vol(a.x)}{item_text(a.y)} to fight the Dragon.")
        s.stack[-1] = ("dragon", seat, "send", q, (*sent, fighter), order,
                       must & ~(1 << seat), final)

    def describe(self, s: State, f: Frame) -> str:
        d = s.dragons[f[3]]
        name = DRAGONS[d].name if d >= 0 else "the Dragon"
        return f"send Volunteers to fight {name}"


handler(DragonHandler)


def fight_brawl(s: State, sent: tuple[Fighter, ...], bane: int) -> int:
    """The combined Brawl of a fight: Volunteers with Items and magic, Lady Sybil, Errol,
    Dragon's Bane."""
    total = bane
    for _, v, item in sent:
        total += s.stat(v, "brawl", item) + DRAGON_BONUS.get(VOLUNTEERS[v].ability, 0)
    return total


def roller(s: State, sent: tuple[Fighter, ...]) -> int:
    """The owner of the highest-Brawl fighter; ties to the earliest seat from the active
    player (ruling 74)."""
    rank = {seat: k for k, seat in enumerate(order_from(s, s.current))}
    best = max(sent, key=lambda f: (s.stat(f[1], "brawl", f[2]), -rank[f[0]]))
    return best[0]


def resolve_fight(s: State, q: int, sent: tuple[Fighter, ...], bane: int, final: bool) -> None:
    """The combined roll against the Dragon, then payment or Toughness tests."""
    d = s.dragons[q]
    if d < 0:
        for seat, v, item in sent:
            _home(s, seat, v, item)
        return
    dragon = DRAGONS[d]
    brawl = fight_brawl(s, sent, bane)
    who = roller(s, sent)
    total, one = s.contest_roll(brawl)
    if not one and total >= dragon.toughness:
        s.say(f"{s.colour(who)} rolls for the fighters: {total} against Toughness "
              f"{dragon.toughness}. {dragon.name} is wounded and leaves the city!")
        s.dragons[q] = -1
        s.dragon_pile.append(d)
        for seat, v, item in sent:
            _home(s, seat, v, item)
            s.gain(seat, 1)
        paid = {seat: sum(1 for o, _, _ in sent if o == seat) for seat, _, _ in sent}
        s.say("The Patrician pays " + ", ".join(
            f"{s.colour(seat)} ${n}" for seat, n in paid.items()) + ".")
        return
    s.say(f"{s.colour(who)} rolls for the fighters: {total}"
          + (" (a natural 1)" if one else "") + f" against Toughness {dragon.toughness}. "
          f"{dragon.name} is unhurt and breathes fire!")
    for seat, v, item in sent:
        tough = s.stat(v, "toughness", item) + (SHIELD_BONUS if item == SHIELD else 0)
        ok, got = s.test(tough, dragon.brawl, reroll_eights=True)
        if ok:
            s.say(f"{vol(v)} survives ({got} against Brawl {dragon.brawl}).")
            _home(s, seat, v, item)
        else:
            harm.lose_volunteer(s, seat, v, item, f"burnt by {dragon.name}", item_to=-1)
    if final:
        dragons_win(s)


def _home(s: State, seat: int, v: int, item: int) -> None:
    s.hand[seat].append(v)
    if item >= 0:
        s.items[seat].append(item)


def ranking(s: State) -> list[list[int]]:
    """Seats ranked by Great Spells returned, then dollars; ties share a place (ruling 48)."""
    keys = sorted({(len(s.returned[p]), s.dollars[p]) for p in range(s.n)}, reverse=True)
    return [[p for p in range(s.n) if (len(s.returned[p]), s.dollars[p]) == k] for k in keys]


def guild_roles(s: State) -> tuple[str, ...]:
    """Each seat's Guild Card name (``Outcome.roles``)."""
    return tuple(GUILD_CARDS[g].name if g >= 0 else "" for g in s.guild)


def dragons_win(s: State) -> None:
    """The last fight is lost: the game ends and everyone loses (ruling 78)."""
    s.say("The Dragons win! Ankh-Morpork burns, and every player loses.")
    s.result = Outcome(winners=(), reason="the dragons win",
                       points=tuple(len(s.returned[p]) for p in range(s.n)),
                       details={"ranking": ranking(s)}, roles=guild_roles(s))


def fight_actions(s: State, seat: int) -> list[Action]:
    """"Fight the Dragon at ..." for each Dragon, if the seat has a Volunteer in hand."""
    if s.t.over or not s.hand[seat]:
        return []
    return [act(FIGHT, q) for q in range(len(QUADRANTS)) if s.dragons[q] >= 0]


def do_fight(s: State, seat: int, a: Action) -> None:
    """The active player sends at least one Volunteer; the others may join."""
    s.say(f"{s.colour(seat)} goes to fight {DRAGONS[s.dragons[a.x]].name}.")
    begin_fight(s, a.x, seat, 1 << seat)


TURN_HOOKS.before_move.append(summon_actions)
TURN_HOOKS.free.append(fight_actions)
TURN_HOOKS.do[SUMMON] = do_summon
TURN_HOOKS.do[FIGHT] = do_fight
