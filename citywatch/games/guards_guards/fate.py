"""Fate cards: drawing one and carrying out its ops (rulebook "When a Player Successfully
Recruits a Volunteer"; rulings 19-20, 54, 66, 85).

``draw_fate_card(s, seat)`` draws the top card (the discards shuffled in when the deck runs
out, ruling 66) and reads it aloud; a holder of Mrs Evadne Cake ("foresight") may discard her
to cancel it before it takes effect (frame ``fate``, stage ``cake``). The card's ``ops`` then
run in order as queued steps; the card goes to ``s.fate_discard``, unless it is kept (Ook!,
into ``s.kept``). Choices are frame ``fate`` stages: ``attribute`` (spend a point),
``free_deck`` (A Friend at the Bar), ``pay_or_pox`` (The Beggars' Guild Calls), ``crackdown``
(which Wanted Volunteer the Watch takes).

Scrolls and Items "from the nearest deck" (Fate cards, starting Volunteers' gifts) are drawn
by ``draw_nearest``, the queued step ``DRAW_CARDS``: from a tile equally near two decks that
both hold cards the seat chooses which (ruling 18, frame ``draw_from``), and that question is
settled before the steps queued after it; an empty deck gives way to the other (ruling 67).
``draw`` takes them at once, from the first of equally near decks (citywatch ruling 5).

citywatch decisions:
- "Go to" a place puts the piece there without moving it (rulings 19-20): a Hospital or Watch
  House ends the drawer's turn, any other place only ends their movement.
- Being sent to a Hospital by a Fate card counts as an injury for private care (ruling 59).
- "On your next turn" (Fog on the Ankh) drawn during the drawer's own turn lasts through their
  following turn; the rest of the current turn is also covered, harmlessly, since a Fate card
  is only drawn once movement is over (ruling 54).
- The Watch Are Looking for Someone: the holder picks which Wanted Volunteer goes (ruling 85);
  with Carrot in hand the Volunteer is still discarded but there is no arrest.
- A Friend at the Bar: the drawer picks the deck; the card joins as if recruited (bonuses,
  gifts, Infectious, the Luggage), without its Fate mark.
- The Beggars' Guild Calls: with at least 1 dollar the drawer chooses; without, they catch it.
- Exploding Swamp Dragon: everyone sees whether a Scroll or an Item went (hand counts are
  public), only the holder sees which card (ruling 70).
"""

from __future__ import annotations

from typing import Final

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action, act, tile, verb, vol
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    DECK_NAMES,
    DECK_SPACES,
    DECKS,
    FATE_CARDS,
    ITEMS,
    SCROLLS,
    TILE_INDEX,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import OPS, handler, op, push, then
from citywatch.games.guards_guards.harm import (
    arrest,
    arrest_at_nearest,
    lose_volunteer,
    miss_turns,
    place,
    send_to_hospital,
)
from citywatch.games.guards_guards.state import Effect, GuardsGuardsState

State = GuardsGuardsState
CARD_KINDS: Final = {"curses_and_cures": "Scroll", "odds_and_sods": "Item"}
"""The two kinds of card deck, by the name of a single card."""
SPACE_AT_SHOP: Final = {d.shop: d.index for d in DECK_SPACES}
"""Deck space by the tile of its shop (each shop serves one deck space)."""
CAKE: Final = next(v.index for v in VOLUNTEERS if v.ability == "foresight")

CAKE_CANCEL: Final = verb(
    "cake_cancel", (("fate", "fate"),),
    lambda a: f"Discard Mrs Evadne Cake to cancel {FATE_CARDS[a.x].name}",
)
CAKE_ALLOW: Final = verb(
    "cake_allow", (("fate", "fate"),),
    lambda a: f"Keep Mrs Evadne Cake and let {FATE_CARDS[a.x].name} happen",
)
SPEND_POINT: Final = verb(
    "spend_fate_point", (("attribute", "attribute"),),
    lambda a: f"Spend the Attribute Point on {ATTRIBUTES[a.x].capitalize()}",
)
FRIEND_DECK: Final = verb(
    "friend_deck", (("deck", "deck"),),
    lambda a: f"Take the top face-down {DECK_NAMES[a.x]} card",
)
PAY_BEGGARS: Final = verb(
    "pay_beggars", (("dollars", "number"),),
    lambda a: f"Pay the Beggars ${a.x}",
)
CATCH_POX: Final = verb("take_the_pox", (), lambda a: "Refuse the Beggars and catch the Pox")


def _draw_from_text(a: Action) -> str:
    """'Draw from the Scroll deck of 7 cards by Temple of Offler': the deck by its shop and
    how many cards it holds, never which."""
    space = SPACE_AT_SHOP.get(a.x)
    what = f"{CARD_KINDS[DECK_SPACES[space].deck]} deck" if space is not None else "deck"
    return f"Draw from the {what} of {a.y} card{'' if a.y == 1 else 's'} by {tile(a.x)}"


DRAW_FROM: Final = verb("draw_from", (("shop", "tile"), ("cards", "number")), _draw_from_text)
GIVE_UP: Final = verb(
    "give_up_wanted", (("volunteer", "volunteer"),),
    lambda a: f"Give up {vol(a.x)} to the Watch",
)


def turns_from_next(s: State, seat: int, turns: int) -> int:
    """An Effect's ``turns`` for "your next ``turns`` turns": one more while the seat's own
    turn is in progress, since that turn counts down too (ruling 54)."""
    return turns + 1 if s.current == seat and s.t.seat == seat and not s.t.over else turns


def draw_fate_card(s: State, seat: int) -> None:
    """``seat`` draws the top Fate card and reads it aloud; Mrs Cake may cancel it."""
    card = s.draw_fate()
    if card < 0:
        s.say("The Fate deck is empty: nothing happens.")
        return
    c = FATE_CARDS[card]
    s.fate_discard.append(card)  # face up at once: a position taken mid-card still holds it
    s.say(f"{s.colour(seat)} draws the Fate card {c.name}: {c.effect}")
    if CAKE in s.hand[seat]:
        push(s, "fate", seat, "cake", card)
    else:
        resolve(s, seat, card)


def resolve(s: State, seat: int, card: int) -> None:
    """Queue the card's ops in order, then its discard."""
    steps = [("fate_op", seat, card, i) for i in range(len(FATE_CARDS[card].ops))]
    then(s, *steps, ("fate_done", seat, card))


@op("fate_done")
def fate_done(s: State, seat: int, card: int) -> None:
    """The card was laid on the Fate discard pile when drawn (and taken back if kept):
    nothing is left to do; the op marks the end of the card in the log's order."""


@op("fate_op")
def fate_op(s: State, seat: int, card: int, index: int) -> None:
    """Carry out op ``index`` of Fate card ``card`` drawn by ``seat``."""
    c = FATE_CARDS[card]
    o = c.ops[index]
    kind = o["op"]
    name = c.name
    if kind == "call_brethren":
        if "call_brethren" in OPS:
            then(s, ("call_brethren", seat))
        else:
            s.say("The Brethren do not hear the Call: nothing happens.")
    elif kind == "move_luggage":
        mover = (seat + 1) % s.n if o.get("mover") == "left_player" else seat
        if "tiles" in o:
            then(s, ("move_luggage", mover, int(o["tiles"]), int(o["tiles"])))
        else:
            then(s, ("move_luggage", mover, int(o["min"]), int(o["max"])))
    elif kind == "go_to":
        go_to(s, seat, str(o["place"]), bool(o.get("arrest", False)), name)
    elif kind == "dollars":
        amount = int(o["amount"])
        if amount >= 0:
            s.gain(seat, amount)
            s.say(f"{s.colour(seat)} takes ${amount} from the Bank.")
        else:
            paid = s.lose(seat, -amount)
            s.say(f"{s.colour(seat)} pays ${paid} to the Bank.")
    elif kind == "catch_pox":
        radius = int(o.get("radius", 0))
        here = s.pos[seat]
        for other in range(s.n):
            if other == seat or (radius > 0 and s.pos[other] >= 0
                                 and board.hex_distance(here, s.pos[other]) <= radius):
                if not s.catch_pox(other, name):
                    s.say(f"{s.colour(other)} does not catch the Pox.")
    elif kind == "attribute_point":
        push(s, "fate", seat, "attribute", card)
    elif kind == "attribute":
        s.add_attribute(seat, ATTRIBUTES.index(str(o["attribute"])), int(o["delta"]))
    elif kind == "draw":
        draw_nearest(s, seat, str(o["deck"]), int(o.get("count", 1)))
    elif kind == "lose_random_card":
        lose_random_card(s, seat)
    elif kind == "lose_random_volunteer":
        if s.hand[seat]:
            v = s.hand[seat].pop(s.rng.below(len(s.hand[seat])))
            lose_volunteer(s, seat, v, -1, name)
        else:
            s.say(f"{s.colour(seat)} has no Volunteer in hand to lose.")
    elif kind == "free_volunteer":
        push(s, "fate", seat, "free_deck", card)
    elif kind == "keep":
        if card in s.fate_discard:
            s.fate_discard.remove(card)
        s.kept[seat] += (card,)
        s.say(f"{s.colour(seat)} keeps {name}.")
    elif kind == "wanted_crackdown":
        if any(VOLUNTEERS[v].wanted for v in s.hand[seat]):
            push(s, "fate", seat, "crackdown", card)
        else:
            s.say(f"{s.colour(seat)} holds no Wanted Volunteer: nothing happens.")
    elif kind == "miss_turn":
        miss_turns(s, seat, int(o.get("turns", 1)), name)
    elif kind == "pay_or_pox":
        push(s, "fate", seat, "pay_or_pox", card)
    elif kind == "collect_from_each":
        amount = int(o["amount"])
        for k in range(1, s.n):
            other = (seat + k) % s.n
            paid = s.lose(other, amount)
            s.gain(seat, paid)
            if paid:
                s.say(f"{s.colour(other)} gives {s.colour(seat)} ${paid}.")
    elif kind == "movement_cap":
        turns = turns_from_next(s, seat, int(o.get("turns", 1)))
        s.effects[seat] += (Effect("move_cap", int(o["max"]), 0, turns, name),)
        s.say(f"{s.colour(seat)} may move at most {o['max']} spaces on their next turn.")
    else:  # pragma: no cover - the data has no other ops
        raise ValueError(f"unknown Fate op {kind!r}")


def go_to(s: State, seat: int, where: str, arrested: bool, why: str) -> None:
    """Send ``seat`` to a place without moving (rulings 19-20)."""
    if where == "nearest_hospital":
        send_to_hospital(s, seat, why)
        return
    if where == "nearest_watch_house":
        arrest_at_nearest(s, seat, why)
        return
    target = TILE_INDEX[where]
    if arrested:
        arrest(s, seat, target, why)
        return
    landed = place(s, seat, target)
    s.say(f"{s.colour(seat)} goes to {tile(landed)} ({why}).")
    if s.current == seat and s.t.seat == seat:
        s.t.stopped = True
        s.t.moving = False


DRAW_CARDS: Final = "draw_cards"
"""The queued step ``(DRAW_CARDS, seat, kind, count)``: ``draw_nearest``."""


@op(DRAW_CARDS)
def draw_nearest(s: State, seat: int, kind: str, count: int) -> None:
    """``seat`` takes ``count`` cards of ``kind`` for free from the nearest deck (hidden,
    ruling 70); of two equally near decks that both hold cards, the seat chooses which
    (ruling 18) in a ``draw_from`` frame. Called as a queued step (or as the last thing a
    step does), the question is settled before the steps queued after it."""
    if count <= 0:
        return
    choices = s.draw_choices(seat, kind)
    if len(choices) > 1:
        push(s, "draw_from", seat, kind, count, choices)
    else:
        take_cards(s, seat, kind, count, choices[0] if choices else -1)


def take_cards(s: State, seat: int, kind: str, count: int, space: int) -> None:
    """``seat`` takes ``count`` cards of ``kind`` from deck space ``space`` (-1: the nearest),
    the other deck once it is empty (ruling 67)."""
    for _ in range(count):
        card = s.draw_card(seat, kind, space)
        if card < 0:
            s.say("The decks are empty: nothing is taken.")
            return
        if kind == "curses_and_cures":
            s.scrolls[seat].append(card)
            s.say(f"{s.colour(seat)} takes the Scroll {SCROLLS[card].name}.",
                  frozenset({seat}), f"{s.colour(seat)} takes a Scroll.")
        else:
            s.items[seat].append(card)
            s.say(f"{s.colour(seat)} takes the Item {ITEMS[card].name}.",
                  frozenset({seat}), f"{s.colour(seat)} takes an Item.")


def _draw_frame(f: Frame) -> tuple[int, str, int, tuple[int, ...]]:
    """A ``draw_from`` frame's seat, kind, count and deck spaces; ``ValueError`` naming the
    fault if they do not fit together."""
    seat, kind, count, spaces = f[1], f[2], f[3], f[4]
    if kind not in CARD_KINDS:
        raise ValueError(f"a draw_from frame names an unknown deck kind {kind!r}")
    if (isinstance(count, bool) or not isinstance(count, int) or count < 1
            or not isinstance(spaces, tuple) or len(spaces) < 2):
        raise ValueError(f"a draw_from frame needs a count >= 1 and two deck spaces: {f!r}")
    for d in spaces:
        if (isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < len(DECK_SPACES)
                or DECK_SPACES[d].deck != kind):
            raise ValueError(f"a draw_from frame offers {d!r}, not a {kind} deck space")
    return seat, kind, count, spaces


class DrawFromHandler(Handler[State]):
    """Which of two equally near decks a seat draws from (ruling 18). Frame:
    ``("draw_from", seat, kind, count, deck spaces)``. If fewer than two of them still hold
    cards, the draw goes ahead without a question (ruling 67)."""

    kind = "draw_from"

    def prepare(self, s: State, f: Frame) -> bool:
        seat, kind, count, spaces = _draw_frame(f)
        if sum(1 for d in spaces if s.decks[d]) >= 2:
            return False
        s.stack.pop()
        take_cards(s, seat, kind, count, -1)
        return True

    def legal(self, s: State, f: Frame) -> list[Action]:
        spaces = _draw_frame(f)[3]
        return [act(DRAW_FROM, DECK_SPACES[d].shop, len(s.decks[d]))
                for d in spaces if s.decks[d]]

    def apply(self, s: State, f: Frame, a: Action) -> None:
        seat, kind, count, _ = _draw_frame(f)
        s.stack.pop()
        space = SPACE_AT_SHOP[a.x]
        s.say(f"{s.colour(seat)} draws from the {CARD_KINDS[kind]} deck by {tile(a.x)}.")
        take_cards(s, seat, kind, count, space)

    def describe(self, s: State, f: Frame) -> str:
        return f"choose which of two equally near {CARD_KINDS[f[2]]} decks to draw from"


handler(DrawFromHandler)


def lose_random_card(s: State, seat: int) -> None:
    """One of the seat's Scrolls and Items, at random, goes to the bottom of the nearest deck
    of its kind (ruling 67)."""
    pool = len(s.scrolls[seat]) + len(s.items[seat])
    if not pool:
        s.say(f"{s.colour(seat)} has no Scroll or Item to lose.")
        return
    k = s.rng.below(pool)
    if k < len(s.scrolls[seat]):
        card = s.scrolls[seat].pop(k)
        s.return_card(seat, "curses_and_cures", card)
        s.say(f"{s.colour(seat)} loses the Scroll {SCROLLS[card].name}.",
              frozenset({seat}), f"{s.colour(seat)} loses a Scroll.")
    else:
        card = s.items[seat].pop(k - len(s.scrolls[seat]))
        s.return_card(seat, "odds_and_sods", card)
        s.say(f"{s.colour(seat)} loses the Item {ITEMS[card].name}.",
              frozenset({seat}), f"{s.colour(seat)} loses an Item.")


class FateHandler(Handler[State]):
    """A Fate card's choice. Frame: ``("fate", seat, stage, card)``."""

    kind = "fate"

    def legal(self, s: State, f: Frame) -> list[Action]:
        seat, stage, card = f[1], f[2], f[3]
        if stage == "cake":
            return [act(CAKE_CANCEL, card), act(CAKE_ALLOW, card)]
        if stage == "attribute":
            return [act(SPEND_POINT, a) for a in range(3) if s.attrs[seat][a] < 10] or [
                act(SPEND_POINT, 0)]
        if stage == "free_deck":
            return [act(FRIEND_DECK, d) for d in range(len(DECKS))
                    if s.vol_down[d] or s.vol_discard[d]]
        if stage == "pay_or_pox":
            amount = int(FATE_CARDS[card].ops[0].get("amount", 1))
            out = [act(PAY_BEGGARS, amount)] if s.dollars[seat] >= amount else []
            return [*out, act(CATCH_POX)]
        if stage == "crackdown":
            return [act(GIVE_UP, v) for v in s.hand[seat] if VOLUNTEERS[v].wanted]
        return []

    def apply(self, s: State, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat, card = f[1], f[3]
        name = FATE_CARDS[card].name
        if a.verb == CAKE_CANCEL:
            s.hand[seat].remove(CAKE)
            s.discard_volunteer(CAKE)
            s.say(f"{s.colour(seat)} discards Mrs Evadne Cake, who saw it coming: "
                  f"{name} is cancelled.")
        elif a.verb == CAKE_ALLOW:
            resolve(s, seat, card)
        elif a.verb == SPEND_POINT:
            s.add_attribute(seat, a.x, 1)
        elif a.verb == FRIEND_DECK:
            v = s.draw_volunteer(a.x)
            if v < 0:
                s.say("That deck is empty: nothing happens.")
                return
            s.say(f"{s.colour(seat)} turns over {vol(v)}, who joins them ({name}).")
            if VOLUNTEERS[v].infectious:
                s.catch_pox(seat, f"touching {vol(v)}")
            then(s, ("join_volunteer", seat, v, False))
        elif a.verb == PAY_BEGGARS:
            s.lose(seat, a.x)
            s.say(f"{s.colour(seat)} pays the Beggars ${a.x}.")
        elif a.verb == CATCH_POX:
            if not s.catch_pox(seat, name):
                s.say(f"{s.colour(seat)} does not catch the Pox.")
        elif a.verb == GIVE_UP:
            s.hand[seat].remove(a.x)
            lose_volunteer(s, seat, a.x, -1, name)
            arrest_at_nearest(s, seat, name)

    def describe(self, s: State, f: Frame) -> str:
        name = FATE_CARDS[f[3]].name
        return {
            "cake": f"decide whether Mrs Cake cancels {name}",
            "attribute": "spend an Attribute Point",
            "free_deck": "choose a Volunteer deck",
            "pay_or_pox": "pay the Beggars or catch the Pox",
            "crackdown": "choose a Wanted Volunteer to give up",
        }.get(f[2], "decide")


handler(FateHandler)
