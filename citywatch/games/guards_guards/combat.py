"""Combat (rulebook "Combat Rules"; rulings 21-24, 40).

``start_combat`` runs the four steps: 1 the attacker's offensive magic and 2 the defender's
defensive magic (each a ``react`` window, decided in ``magic``), 3 the attacker's Brawl roll
and 4 the defender's Toughness roll (eights re-rolled, a natural 1 fails, ruling 22).
A Brawl greater than the Toughness hits; an equal or lower one fails (ruling 24) and the
defender strikes back once. The winner may take the loser's Item (frame ``combat``), else it
goes to the nearest Odds & Sods deck (ruling 40). Rincewind ("runs_away") who loses goes back
to his owner's hand instead of the discard pile, and his Item is lost to him.

The caller learns the outcome through its ``context`` op: ``then(s, (*context, result))``
with ``result`` one of ``ATTACKER_WON``, ``DEFENDER_WON`` or ``NO_RESULT``; by then the loser
is already discarded (or back in hand), so the caller only takes it off the board.

citywatch decision (Combat Rules, step 4): a natural 1 on the Toughness roll fails that roll,
so the blow lands (unless the Brawl roll failed first). No Toughness roll is made against a
Brawl roll that failed with a natural 1.
citywatch decision (Combat Rules, A Failed Attack): the strike back is steps 3-4 with the roles
reversed; there are no new magic steps (this turn's magic still counts). A Brawl bonus of the
attacker (the Ambush bonus) counts only on its own strike.
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import harm
from citywatch.games.guards_guards.actions import Action, act, verb, vol
from citywatch.games.guards_guards.data import GUILD_CARDS, ITEMS, TILES, VOLUNTEERS
from citywatch.games.guards_guards.frames import handler, op, push, then
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
NO_RESULT: Final = 0
ATTACKER_WON: Final = 1
DEFENDER_WON: Final = 2
Fight = tuple[int, int, int, int, int, int, int, tuple[object, ...]]
"""(attacker seat, volunteer, item, defender seat, volunteer, item, Brawl bonus, context)."""

TAKE_ITEM: Final = verb("take_item", (("item", "item"),), lambda a: f"Take the {ITEMS[a.x].name}")
LEAVE_ITEM: Final = verb(
    "leave_item", (("item", "item"),),
    lambda a: f"Leave the {ITEMS[a.x].name} (it goes to the nearest Odds & Sods deck)")


def quadrant_of_tile(s: State, tile: int) -> int:
    """The quadrant of ``tile``; a border gate counts as its owner's guild quadrant, or its
    first quadrant if nobody owns it (ruling 5)."""
    t = TILES[tile]
    if t.quadrant >= 0:
        return t.quadrant
    for seat in range(s.n):
        if s.gate[seat] == tile and s.guild[seat] >= 0:
            return GUILD_CARDS[s.guild[seat]].guild
    return t.border_of[0]


def guild_quadrant(s: State, seat: int) -> int:
    """The quadrant of the seat's Guild Card."""
    return GUILD_CARDS[s.guild[seat]].guild


def item_text(item: int) -> str:
    """" carrying the <Item>" or ""."""
    return f" carrying the {ITEMS[item].name}" if item >= 0 else ""


def start_combat(s: State, attacker_seat: int, attacker_volunteer: int, attacker_item: int,
                 defender_seat: int, defender_volunteer: int, defender_item: int,
                 context: tuple[object, ...], brawl_bonus: int = 0) -> None:
    """Begin a combat; ``context`` is the op ``(name, *args)`` told the result."""
    fight: Fight = (attacker_seat, attacker_volunteer, attacker_item, defender_seat,
                    defender_volunteer, defender_item, brawl_bonus, tuple(context))
    s.say(f"Combat: {s.colour(attacker_seat)}'s {vol(attacker_volunteer)}"
          f"{item_text(attacker_item)} attacks {s.colour(defender_seat)}'s "
          f"{vol(defender_volunteer)}{item_text(defender_item)}.")
    then(s, ("combat_strike", fight))
    push(s, "react", defender_seat, "combat", fight)
    push(s, "react", attacker_seat, "combat", fight)


def strike(s: State, a_seat: int, a_vol: int, a_item: int, bonus: int, d_seat: int,
           d_vol: int, d_item: int) -> bool:
    """One blow: Brawl roll against Toughness roll (steps 3-4); True if it hits."""
    brawl = s.stat(a_vol, "brawl", a_item) + bonus
    b_total, b_one = s.contest_roll(brawl)
    if b_one:
        s.say(f"{vol(a_vol)} rolls a natural 1 (Brawl {brawl}) and misses.")
        return False
    tough = s.stat(d_vol, "toughness", d_item)
    t_total, t_one = s.contest_roll(tough)
    if t_one:
        s.say(f"{vol(a_vol)} strikes with {b_total}; {vol(d_vol)} rolls a natural 1 for "
              "Toughness: a hit.")
        return True
    hit = b_total > t_total
    s.say(f"{vol(a_vol)} strikes with {b_total} against {vol(d_vol)}'s Toughness {t_total}: "
          + ("a hit." if hit else "no hit."))
    return hit


@op("combat_strike")
def combat_strike(s: State, fight: Fight) -> None:
    """Steps 3-4, then the strike back if the attack failed."""
    a_seat, a_vol, a_item, d_seat, d_vol, d_item, bonus, context = fight
    if a_vol not in volunteers_anywhere(s, a_seat) or d_vol not in volunteers_anywhere(s, d_seat):
        then(s, (*context, NO_RESULT))
        return
    if strike(s, a_seat, a_vol, a_item, bonus, d_seat, d_vol, d_item):
        finish(s, a_seat, d_seat, d_vol, d_item, context, ATTACKER_WON)
        return
    s.say(f"{vol(d_vol)} strikes back.")
    if strike(s, d_seat, d_vol, d_item, 0, a_seat, a_vol, a_item):
        finish(s, d_seat, a_seat, a_vol, a_item, context, DEFENDER_WON)
        return
    s.say("Neither is defeated.")
    then(s, (*context, NO_RESULT))


def volunteers_anywhere(s: State, seat: int) -> set[int]:
    """Every Volunteer the seat has anywhere: hand, Runners, Saboteurs."""
    out = set(s.hand[seat])
    run = s.run[seat]
    if run is not None:
        out.update(v for v, _ in run.runners)
        out.update(v for v, _ in run.at_gate)
    out.update(v for _, v, _ in s.saboteurs[seat])
    return out


def finish(s: State, winner: int, loser: int, loser_vol: int, item: int,
           context: tuple[object, ...], result: int) -> None:
    """The loser is defeated: the winner may take its Item (ruling 40)."""
    if item >= 0:
        push(s, "combat", winner, loser, loser_vol, item, context, result)
    else:
        defeat(s, winner, loser, loser_vol, -1, False, context, result)


def defeat(s: State, winner: int, loser: int, loser_vol: int, item: int, take: bool,
           context: tuple[object, ...], result: int) -> None:
    """Discard the defeated Volunteer (Rincewind runs home instead), then tell the caller."""
    then(s, (*context, result))
    if VOLUNTEERS[loser_vol].ability == "runs_away":
        s.hand[loser].append(loser_vol)
        s.say(f"{vol(loser_vol)} runs for it and is back in {s.colour(loser)}'s hand.")
        if item >= 0:
            if take:
                s.items[winner].append(item)
                s.say(f"{s.colour(winner)} takes the {ITEMS[item].name}.")
            else:
                s.return_card(loser, "odds_and_sods", item)
                s.say(f"The {ITEMS[item].name} goes to the nearest Odds & Sods deck.")
        return
    if item >= 0:
        s.say(f"{s.colour(winner)} " + (f"takes the {ITEMS[item].name}." if take else
                                          f"leaves the {ITEMS[item].name}."))
    harm.lose_volunteer(s, loser, loser_vol, item, "defeated in combat",
                        item_to=winner if take else -2)


class CombatHandler(Handler[State]):
    """The winner of a combat takes the loser's Item or leaves it (ruling 40)."""

    kind = "combat"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(TAKE_ITEM, f[4]), act(LEAVE_ITEM, f[4])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        _, winner, loser, loser_vol, item, context, result = f
        defeat(s, winner, loser, loser_vol, item, a.verb == TAKE_ITEM, context, result)

    def describe(self, s: State, f: Frame) -> str:
        return f"decide whether to take the {ITEMS[f[4]].name}"


handler(CombatHandler)
