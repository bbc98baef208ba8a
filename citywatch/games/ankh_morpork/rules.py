"""Turns, card symbols and City Area powers."""

from __future__ import annotations

from typing import Final

from citywatch.games.ankh_morpork import effects, events, harm
from citywatch.games.ankh_morpork.actions import Action, act, piece_name
from citywatch.games.ankh_morpork.data import (
    ADJACENT_OR_SELF,
    AREAS,
    ASSASSINATE,
    CARD_BY_NAME,
    CARDS,
    HAND_SIZE,
    MONEY,
    NUM_AREAS,
    PLACE_BUILDING,
    PLACE_MINION,
    PLAY_ANOTHER,
    RANDOM_EVENT,
    REMOVE_TROUBLE,
    SCROLL,
)
from citywatch.games.ankh_morpork.frames import (
    DECISIONS,
    Handler,
    advance,
    apply_action,
    handler,
)
from citywatch.games.ankh_morpork.frames import legal_actions as legal_actions
from citywatch.games.ankh_morpork.scoring import check_personality
from citywatch.games.ankh_morpork.state import (
    WHITEFACE_CARDS,
    AnkhMorporkState,
    Frame,
    assassination_options,
    building_options,
    holds,
    place_building,
    place_minion,
    placement_options,
    play_card,
    playable_cards,
)

__all__ = ["advance", "apply_action", "begin_turn", "legal_actions"]

MOSSY: Final = CARD_BY_NAME["Doctor Mossy Lawn"].index

# Actions built once and shared (they are immutable values): legal-action lists are rebuilt
# at almost every step of a search's playouts.
PLAY: Final = tuple(act("play", card=c.index) for c in CARDS)
PASS: Final = act("pass")
END_TURN: Final = act("end_turn")
STOP: Final = act("stop")
EVENT: Final = act("event")
PLACE: Final = tuple(tuple(act("place_minion", area=a, extra=lift) for lift in range(-1, NUM_AREAS))
              for a in range(NUM_AREAS))
"""``PLACE[area][lifted + 1]``: place a minion in ``area``, lifting one from ``lifted``."""
SKIP: Final = tuple(tuple(act("skip", card=c.index, extra=i) for i in range(len(c.symbols)))
             for c in CARDS)
"""``SKIP[card][symbol]``: skip that symbol of the card."""


# --- the turn ------------------------------------------------------------------------------
def begin_turn(s: AnkhMorporkState) -> None:
    """Start the current seat's turn: check their personality first (ruling 1)."""
    seat = s.current
    s.turn += 1
    s.powers_used = 0
    s.gained = 0
    s.played = []
    s.immune = 0
    s.text_asked = 0
    s.say(f"Turn {s.turn}: {s.colour(seat)} to play.")
    if check_personality(s, seat):
        return
    s.stack.append(("choose", seat))


def end_turn(s: AnkhMorporkState, seat: int) -> None:
    """Discard what is still in play, refill to five (ruling 4), pass to the left."""
    s.discard_pile.extend(s.in_play)
    s.in_play.clear()
    stuck = sum(1 for c in s.in_front[seat] if c in WHITEFACE_CARDS)
    need = HAND_SIZE - len(s.hands[seat]) - stuck
    if need > 0:
        s.draw_cards(seat, need)
    s.stack.clear()
    s.current = (seat + 1) % s.n


def finish_card(s: AnkhMorporkState, card: int) -> None:
    """A resolved card goes to the discard pile (unless it went elsewhere)."""
    if card in s.in_play:
        s.in_play.remove(card)
        s.discard_pile.append(card)


def turn_extras(s: AnkhMorporkState, seat: int) -> list[Action]:
    """City Area powers and Doctor Mossy Lawn, open at the main points of one's own turn."""
    if seat != s.current:
        return []
    out = power_options(s, seat)
    if s.played and holds(s.hands[seat], MOSSY):
        last = s.played[-1]
        if last in s.in_play or last in s.discard_pile:
            out.append(act("mossy", card=last))
    return out


def apply_extra(s: AnkhMorporkState, seat: int, a: Action) -> bool:
    """Carry out a power or Mossy Lawn action; False if ``a`` is neither."""
    if a.verb == "power":
        use_power(s, seat, a)
        return True
    if a.verb == "mossy":
        s.discard_from_hand(seat, MOSSY)
        if a.card in s.in_play:
            s.in_play.remove(a.card)
        else:
            s.discard_pile.remove(a.card)
        s.hands[seat].append(a.card)
        s.say(
            f"{s.colour(seat)} played Doctor Mossy Lawn: the turn ends and "
            f"{CARDS[a.card].name} goes back to their hand."
        )
        end_turn(s, seat)
        return True
    return False


class ChooseCard(Handler):
    """The start of a turn: play a card (ruling 2)."""

    kind = "choose"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        cards = playable_cards(s, seat)
        first = [PLAY[c] for c in cards] if cards else [PASS]
        return first + turn_extras(s, seat)

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        seat = f[1]
        if apply_extra(s, seat, a):
            return
        s.stack[-1] = ("end", seat)
        if a.verb == "pass":
            s.say(f"{s.colour(seat)} has no card to play and passes.")
            return
        play_card(s, seat, a.card)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "choose a card to play"


handler(ChooseCard)


class EndTurn(Handler):
    """After the cards: use powers, then end the turn."""

    kind = "end"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [END_TURN, *turn_extras(s, f[1])]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        if apply_extra(s, f[1], a):
            return
        end_turn(s, f[1])

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "end the turn"


handler(EndTurn)


class PlayAnother(Handler):
    """The play-another-card symbol."""

    kind = "another"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        plays = [PLAY[c] for c in playable_cards(s, seat)]
        if not plays:
            return []
        return [*plays, STOP, *turn_extras(s, seat)]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        seat = f[1]
        if apply_extra(s, seat, a):
            return
        s.stack.pop()
        if a.verb == "play":
            play_card(s, seat, a.card)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "decide whether to play another card"


handler(PlayAnother)


class ResolveCard(Handler):
    """A played card's symbols, left to right; each optional but the random event."""

    kind = "card"

    def prepare(self, s: AnkhMorporkState, f: Frame) -> bool:
        _, seat, card, i = f
        symbols = CARDS[card].symbols
        if i >= len(symbols):
            s.stack.pop()
            finish_card(s, card)
            return True
        if symbols[i].kind == PLAY_ANOTHER:
            finish_card(s, card)
            s.stack[-1] = ("another", seat)
            return True
        return False

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        _, seat, card, i = f
        symbol = CARDS[card].symbols[i]
        kind = symbol.kind
        out: list[Action]
        if kind == RANDOM_EVENT:
            # ruling 20: with the deck empty the symbol does nothing, the card goes on
            return [EVENT, *turn_extras(s, seat)]
        if kind == PLACE_MINION:
            out = [PLACE[a][lift + 1] for a, lift in placement_options(s, seat)]
        elif kind == PLACE_BUILDING:
            out = building_options(s, seat)
        elif kind == ASSASSINATE:
            out = assassination_options(s, seat)
        elif kind == REMOVE_TROUBLE:
            out = [act("remove_trouble", area=a) for a in range(NUM_AREAS) if s.trouble[a]]
        elif kind == MONEY:
            out = [act("take_money", extra=symbol.amount)]
        elif kind == SCROLL:
            out = [act("scroll", card=card)] if effects.can_start(s, seat, card) else []
        else:
            out = []
        extras = turn_extras(s, seat)
        if not out and not extras:
            return [SKIP[card][i]]
        return [*out, SKIP[card][i], *extras]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, card, i = f
        if apply_extra(s, seat, a):
            return
        s.stack[-1] = ("card", seat, card, i + 1)
        verb = a.verb
        if verb == "skip":
            return
        if verb == "place_minion":
            place_minion(s, seat, a.area, a.extra)
        elif verb == "place_building":
            place_building(s, seat, a.area, a.extra, a.other)
        elif verb == "assassinate":
            s.say(f"{s.colour(seat)} assassinated {_piece(s, a.seat)} in {s.area_name(a.area)}.")
            harm.remove_minion(s, a.seat, a.area, seat, harm.SYMBOL)
        elif verb == "remove_trouble":
            s.trouble[a.area] = False
            s.say(f"{s.colour(seat)} removed the trouble marker from {s.area_name(a.area)}.")
        elif verb == "take_money":
            s.money[seat] += a.extra
            s.say(f"{s.colour(seat)} took ${a.extra} from the bank.")
        elif verb == "scroll":
            s.immune = 0
            s.text_asked = 0
            effects.start(s, seat, card)
        elif verb == "event":
            events.draw_event(s)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        symbol = CARDS[f[2]].symbols[f[3]]
        return f"decide on the {symbol.describe()} symbol of {CARDS[f[2]].name}"


handler(ResolveCard)


def _piece(s: AnkhMorporkState, owner: int) -> str:
    return piece_name(owner)


# --- City Area powers (rulebook, City Area Cards; ruling 3) --------------------------------
def power_options(s: AnkhMorporkState, seat: int) -> list[Action]:
    """Powers ``seat`` may use now: own card, not gained this turn, unused, no demon."""
    out: list[Action] = []
    if not holds(s.area_card, seat):
        return out
    blocked = s.gained | s.powers_used
    for area in AREAS:
        a = area.index
        if s.area_card[a] != seat or blocked >> a & 1 or s.demons[a]:
            continue
        kind = area.power_kind
        params = area.power_params
        if kind == "money":
            out.append(act("power", area=a, extra=params["money"]))
        elif kind == "trouble_near":
            out.extend(
                act("power", area=a, extra=t)
                for t in sorted(ADJACENT_OR_SELF[a])
                if not s.trouble[t] and s.pieces_in(t) > 0
            )
        elif kind == "minion_near":
            if s.money[seat] >= params["cost"]:
                out.extend(
                    act("power", area=a, extra=t, other=lift)
                    for t, lift in placement_options(s, seat, ADJACENT_OR_SELF[a])
                )
        elif kind == "discard_for_money":
            out.extend(act("power", area=a, extra=c) for c in sorted(set(s.hands[seat])))
        elif kind == "remove_trouble":
            if s.money[seat] >= params["cost"]:
                out.extend(
                    act("power", area=a, extra=t) for t in range(NUM_AREAS) if s.trouble[t]
                )
        elif kind == "draw_then_discard":
            out.append(act("power", area=a))
    return out


def use_power(s: AnkhMorporkState, seat: int, a: Action) -> None:
    """Carry out a City Area power."""
    area = AREAS[a.area]
    s.powers_used |= 1 << a.area
    who = s.colour(seat)
    kind = area.power_kind
    if kind == "money":
        s.money[seat] += a.extra
        s.say(f"{who} used {area.name} and took ${a.extra}.")
    elif kind == "trouble_near":
        s.trouble[a.extra] = True
        s.say(f"{who} used {area.name} to put a trouble marker in {s.area_name(a.extra)}.")
    elif kind == "minion_near":
        s.money[seat] -= area.power_params["cost"]
        s.say(f"{who} used {area.name} and paid ${area.power_params['cost']}.")
        place_minion(s, seat, a.extra, a.other)
    elif kind == "discard_for_money":
        s.discard_from_hand(seat, a.extra)
        s.money[seat] += area.power_params["money"]
        s.say(f"{who} used {area.name}: discarded {CARDS[a.extra].name} and took "
              f"${area.power_params['money']}.")
    elif kind == "remove_trouble":
        s.money[seat] -= area.power_params["cost"]
        s.trouble[a.extra] = False
        s.say(f"{who} used {area.name}: paid ${area.power_params['cost']} to remove the "
              f"trouble marker from {s.area_name(a.extra)}.")
    elif kind == "draw_then_discard":
        s.say(f"{who} used {area.name} to draw a card and discard one.")
        s.stack.append(("fx", seat, -1, "discard_one"))
        s.draw_cards(seat, 1)


DECISIONS.begin_turn = begin_turn
