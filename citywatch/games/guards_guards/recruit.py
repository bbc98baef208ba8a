"""Recruiting Volunteers on Volunteer tiles and in Taverns (rulebook "Recruiting Volunteers",
"When a Player Successfully Recruits", "Infected Volunteers", the Tavern table; rulings 6,
23, 25-29).

Frame ``recruit`` ``(seat, deck, card, charm_tried, extra, tavern)``: with ``card == -1`` the
player takes the face-up card or turns over the top face-down card (ruling 26); then they may
Charm it once (die + effective Charm >= its Charm; a natural 1 fails, a natural 8 succeeds and
gives one extra Volunteer from the same deck, never in a Tavern and never more than one,
rulings 21, 23, 27), Bribe it if the Charm roll failed or was skipped ("X": never), or let it
go onto the face-up pile. Touching an Infectious card gives the Pox (ruling 29).
A recruited card joins through op ``join_volunteer`` ``(seat, volunteer, fate_mark)``: the
Player Bonus, then gifts (dollars, a Scroll, an Item, from the nearest decks), then its Fate
card, then the Luggage moves (ruling 28), then ``TURN_HOOKS.recruited``.
Frame ``tavern`` ``(seat, mode, exclude)``: the deck to turn over for Tavern results 6-8.
``start_recruit``/``start_tavern`` are called by the turn's stop action.

citywatch decisions:
- A recruited card is shown to everyone (it is read aloud), so the log names it.
- If the face-up pile is emptied by a recruit, its replacement is turned over at once, by
  the recruiting player, who catches the Pox if it is Infectious (Infected Volunteers).
- The card being decided lies on top of its face-up pile (it has been turned over for all to
  see); it leaves the pile when recruited and simply stays there when let go.
- The natural-8 extra Volunteer may be declined; it is offered only while the recruiter's
  turn is still on (a Luggage hit that sends them to a Hospital ends it).
- Broadman's +1 turns a Tavern roll of 8 into 8 (the card: "above 8 counts as 8").
- A Bar Brawl (Tavern 1) is an injury for private care (ruling 59).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards.actions import Action, act, verb, vol
from citywatch.games.guards_guards.data import DECK_NAMES, DECKS, TAVERN, VOLUNTEERS
from citywatch.games.guards_guards.fate import DRAW_CARDS, draw_fate_card
from citywatch.games.guards_guards.frames import TURN_HOOKS, handler, op, push, then
from citywatch.games.guards_guards.harm import send_to_hospital
from citywatch.games.guards_guards.state import CHARM, GuardsGuardsState

State = GuardsGuardsState


def _bribe_text(v: int) -> str:
    b = VOLUNTEERS[v].bribe
    return "X" if b is None else f"${b}"


TAKE_FACE_UP: Final = verb(
    "take_face_up", (("volunteer", "volunteer"),),
    lambda a: f"Take the face-up {vol(a.x)} (Charm {VOLUNTEERS[a.x].charm}, "
                     f"Bribe {_bribe_text(a.x)})",
)
TURN_OVER: Final = verb(
    "turn_over", (("deck", "deck"),),
    lambda a: f"Turn over the top face-down {DECK_NAMES[a.x]} card",
)
NO_EXTRA: Final = verb("no_extra_volunteer", (), lambda a: "Recruit no extra Volunteer")
CHARM_VOL: Final = verb(
    "charm_volunteer", (("volunteer", "volunteer"), ("charm", "number")),
    lambda a: f"Charm {vol(a.x)} (Charm {VOLUNTEERS[a.x].charm}; you roll + {a.y})",
)
BRIBE_VOL: Final = verb(
    "bribe_volunteer", (("volunteer", "volunteer"), ("dollars", "number")),
    lambda a: f"Bribe {vol(a.x)} for ${a.y}",
)
LET_GO: Final = verb(
    "let_volunteer_go", (("volunteer", "volunteer"),),
    lambda a: f"Let {vol(a.x)} go (face up)",
)


def start_recruit(s: State, seat: int, deck: int) -> None:
    """``seat`` recruits from ``deck`` on a Volunteer tile."""
    push(s, "recruit", seat, deck, -1, False, False, False)


def touch(s: State, seat: int, v: int) -> None:
    """``seat`` takes or turns face up ``v``: an Infectious card gives the Pox (ruling 29)."""
    if VOLUNTEERS[v].infectious:
        s.catch_pox(seat, f"{vol(v)} is Infectious")


def refill(s: State, seat: int, deck: int) -> None:
    """Keep a face-up card on ``deck``; ``seat`` turns it over (ruling 29)."""
    if not s.vol_up[deck]:
        s.refill_face_up(deck)
        if s.vol_up[deck]:
            touch(s, seat, s.vol_up[deck][-1])


@op("join_volunteer")
def join_volunteer(s: State, seat: int, v: int, fate_mark: bool) -> None:
    """``v`` joins ``seat``: Player Bonus, gifts, Fate card, Luggage (ruling 28)."""
    card = VOLUNTEERS[v]
    s.hand[seat].append(v)
    s.say(f"{s.colour(seat)} recruits {card.name}.")
    for attr, delta in enumerate(card.bonus):
        if delta:
            s.add_attribute(seat, attr, delta)
    if card.gives_dollars:
        s.gain(seat, card.gives_dollars)
        s.say(f"{card.name} brings ${card.gives_dollars}.")
    gifts = [(DRAW_CARDS, seat, kind, count) for kind, count in
             (("curses_and_cures", card.gives_scroll), ("odds_and_sods", card.gives_item))
             if count]
    then(s, *gifts, ("recruit_fate", seat, v, fate_mark),
         ("move_luggage", seat, card.luggage_moves, card.luggage_moves),
         ("recruit_hooks", seat, v))


@op("recruit_fate")
def recruit_fate(s: State, seat: int, v: int, fate_mark: bool) -> None:
    """A card with the Fate mark draws a Fate card."""
    if fate_mark and VOLUNTEERS[v].fate:
        draw_fate_card(s, seat)


@op("recruit_hooks")
def recruit_hooks(s: State, seat: int, v: int) -> None:
    """Tell the modules above (Spell Runs: send the new Volunteer at once, ruling 42)."""
    if s.t.over and s.t.seat == seat:
        return
    for hook in TURN_HOOKS.recruited:
        hook(s, seat, v)


@op("recruit_after")
def recruit_after(s: State, seat: int, deck: int, extra: bool) -> None:
    """After a recruit: refill the face-up pile, then the natural-8 extra Volunteer."""
    refill(s, seat, deck)
    if extra and not (s.t.seat == seat and s.t.over):
        s.say(f"{s.colour(seat)}'s plea draws a crowd: they may recruit one more "
              f"{DECK_NAMES[deck]} Volunteer.")
        push(s, "recruit", seat, deck, -1, False, True, False)


def succeed(s: State, seat: int, deck: int, v: int, extra: bool) -> None:
    """``v`` is recruited (it leaves the face-up pile, where it lay while being decided);
    ``extra``: a natural 8 earned one more."""
    if v in s.vol_up[deck]:
        s.vol_up[deck].remove(v)
    then(s, ("join_volunteer", seat, v, True), ("recruit_after", seat, deck, extra))


class RecruitHandler(Handler[State]):
    """Choose a card, then Charm, Bribe or let it go. Frame:
    ``("recruit", seat, deck, card, charm_tried, extra, tavern)``."""

    kind = "recruit"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, deck, card, tried, extra = f[1], f[2], f[3], f[4], f[5]
        if card < 0:
            out: list[Action] = []
            if s.vol_up[deck]:
                out.append(act(TAKE_FACE_UP, s.vol_up[deck][-1]))
            if s.vol_down[deck] or s.vol_discard[deck]:
                out.append(act(TURN_OVER, deck))
            if extra and out:
                out.append(act(NO_EXTRA))
            return out
        out = []
        if not tried:
            out.append(act(CHARM_VOL, card, s.level(seat, CHARM)))
        bribe = VOLUNTEERS[card].bribe
        if bribe is not None and s.dollars[seat] >= bribe:
            out.append(act(BRIBE_VOL, card, bribe))
        out.append(act(LET_GO, card))
        return out

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat, deck, card, _tried, extra, tavern = f[1], f[2], f[3], f[4], f[5], f[6]
        s.stack.pop()
        if a.verb == TAKE_FACE_UP:
            v = s.vol_up[deck][-1]
            s.say(f"{s.colour(seat)} takes the face-up {vol(v)}.")
            touch(s, seat, v)
            push(s, "recruit", seat, deck, v, False, extra, tavern)
        elif a.verb == TURN_OVER:
            v = s.draw_volunteer(deck)
            s.vol_up[deck].append(v)
            s.say(f"{s.colour(seat)} turns over {vol(v)}.")
            touch(s, seat, v)
            push(s, "recruit", seat, deck, v, False, extra, tavern)
        elif a.verb == NO_EXTRA:
            s.say(f"{s.colour(seat)} recruits no extra Volunteer.")
        elif a.verb == CHARM_VOL:
            level = s.level(seat, CHARM)
            passed, total = s.test(level, VOLUNTEERS[card].charm)
            natural = total - level
            if natural == 8:
                passed = True
            s.say(f"{s.colour(seat)} tries to Charm {vol(card)}: rolls {natural} + {level} = "
                  f"{total} against {VOLUNTEERS[card].charm}: "
                  f"{'success' if passed else 'failure'}"
                  f"{' (a natural 1)' if natural == 1 else ''}.")
            if passed:
                succeed(s, seat, deck, card, natural == 8 and not extra and not tavern)
            else:
                push(s, "recruit", seat, deck, card, True, extra, tavern)
        elif a.verb == BRIBE_VOL:
            s.lose(seat, a.y)
            s.say(f"{s.colour(seat)} bribes {vol(card)} with ${a.y}.")
            succeed(s, seat, deck, card, False)
        elif a.verb == LET_GO:
            s.say(f"{s.colour(seat)} lets {vol(card)} go; the card lies face up.")
            then(s, ("recruit_after", seat, deck, False))

    def describe(self, s: State, f: Frame) -> str:
        if f[3] < 0:
            return f"choose a {DECK_NAMES[f[2]]} Volunteer to recruit"
        return f"recruit {vol(f[3])}: Charm, Bribe or let go"


handler(RecruitHandler)


# --- Taverns (ruling 25) --------------------------------------------------------------------
def tavern_roll(s: State, seat: int) -> int:
    """The Tavern table roll: a look-up, not a test (ruling 25); Broadman adds 1 (max 8)."""
    roll = s.roll()
    if s.has_ability(seat, "tavern_regular"):
        roll = min(8, roll + 1)
    return roll


def start_tavern(s: State, seat: int) -> None:
    """``seat`` rolls on the Tavern table and the result happens."""
    roll = tavern_roll(s, seat)
    result = TAVERN[roll - 1]
    s.say(f"{s.colour(seat)} rolls {roll} on the Tavern table: {result.name}. {result.effect}")
    o = result.op
    kind = o["op"]
    if kind == "go_to":
        send_to_hospital(s, seat, result.name)
    elif kind == "dollars":
        amount = int(o["amount"])
        if amount < 0:
            paid = s.lose(seat, -amount)
            s.say(f"{s.colour(seat)} pays ${paid}.")
        else:
            s.gain(seat, amount)
    elif kind == "tavern_recruit":
        free = bool(o.get("free", False))
        deck_name = str(o["deck"])
        if deck_name == "any":
            push(s, "tavern", seat, "free" if free else "paid", -1)
        else:
            tavern_turn_over(s, seat, DECKS.index(deck_name), free)
    elif kind == "tavern_recruit_two":
        push(s, "tavern", seat, "free_then_paid", -1)


def tavern_turn_over(s: State, seat: int, deck: int, free: bool) -> None:
    """Turn over the top face-down card of ``deck``: it joins (``free``) or is recruited by
    Charm or Bribe with no extra Volunteer (ruling 23)."""
    v = s.draw_volunteer(deck)
    if v < 0:
        s.say(f"The {DECK_NAMES[deck]} deck is empty: nobody comes.")
        return
    s.say(f"{s.colour(seat)} turns over {vol(v)}.")
    touch(s, seat, v)
    if free:
        s.say(f"{vol(v)} joins without a Charm roll or Bribe.")
        then(s, ("join_volunteer", seat, v, True), ("recruit_after", seat, deck, False))
    else:
        s.vol_up[deck].append(v)
        push(s, "recruit", seat, deck, v, False, False, True)


@op("tavern_second")
def tavern_second(s: State, seat: int, exclude: int) -> None:
    """Tavern 8: a card of a different deck, by Charm or Bribe."""
    if s.t.seat == seat and s.t.over:
        return
    push(s, "tavern", seat, "paid", exclude)


class TavernHandler(Handler[State]):
    """Which deck the Tavern card comes from. Frame: ``("tavern", seat, mode, exclude)``,
    ``mode`` "paid", "free" or "free_then_paid"."""

    kind = "tavern"

    def legal(self, s: State, f: Frame) -> list[Action]:
        return [act(TURN_OVER, d) for d in range(len(DECKS))
                if d != f[3] and (s.vol_down[d] or s.vol_discard[d])]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat, mode = f[1], f[2]
        if mode == "free_then_paid":
            then(s, ("tavern_second", seat, a.x))
        tavern_turn_over(s, seat, a.x, mode != "paid")

    def describe(self, s: State, f: Frame) -> str:
        return "choose the Volunteer deck for the Tavern"


handler(TavernHandler)
