"""Turns, card symbols and City Area powers."""

from __future__ import annotations

from collections.abc import Iterable

from citywatch.games.ankh_morpork import effects, events, harm  # noqa: F401  (register frames)
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import (
    ADJACENT_OR_SELF,
    AREAS,
    ASSASSINATE,
    CARD_BY_NAME,
    CARDS,
    DEMON,
    HAND_SIZE,
    MONEY,
    NUM_AREAS,
    PLACE_BUILDING,
    PLACE_MINION,
    PLAY_ANOTHER,
    RANDOM_EVENT,
    REMOVE_TROUBLE,
    SCROLL,
    TROLL,
)
from citywatch.games.ankh_morpork.frames import Handler, advance, apply_action, handler
from citywatch.games.ankh_morpork.frames import legal_actions as legal_actions
from citywatch.games.ankh_morpork.scoring import check_personality
from citywatch.games.ankh_morpork.state import WHITEFACE_CARDS, AnkhMorporkState, Frame

__all__ = ["advance", "apply_action", "begin_turn", "legal_actions"]

MOSSY = CARD_BY_NAME["Doctor Mossy Lawn"].index


# --- placing pieces -------------------------------------------------------------------------
def minion_targets(s: AnkhMorporkState, seat: int, lifted: int = -1) -> list[int]:
    """Areas where ``seat`` may place a minion by the normal rule (rule 6)."""
    mine = s.minions[seat]
    present = [a for a in range(NUM_AREAS) if mine[a] - (a == lifted) > 0]
    if not present:
        return list(range(NUM_AREAS))
    allowed: set[int] = set()
    for a in present:
        allowed |= ADJACENT_OR_SELF[a]
    return sorted(allowed)


def placement_options(
    s: AnkhMorporkState, seat: int, areas: Iterable[int] | None = None
) -> list[tuple[int, int]]:
    """``(area, lifted)`` pairs for placing one minion; ``lifted`` is -1 unless all 12 are out.

    ``areas`` names the places a card allows (overriding adjacency); None means the normal rule.
    """
    named = None if areas is None else sorted(set(areas))
    if s.minion_supply(seat) > 0:
        targets = minion_targets(s, seat) if named is None else named
        return [(a, -1) for a in targets]
    out: list[tuple[int, int]] = []
    for lift in range(NUM_AREAS):
        if s.minions[seat][lift] == 0:
            continue
        targets = minion_targets(s, seat, lift) if named is None else named
        out.extend((a, lift) for a in targets if a != lift)
    return out


def place_minion(
    s: AnkhMorporkState, seat: int, area: int, lifted: int = -1, *, trouble: bool = True
) -> None:
    """Place one of ``seat``'s minions, lifting one from ``lifted`` first if given."""
    if lifted >= 0:
        s.take_piece(seat, lifted)
        s.say(f"{s.colour(seat)} lifted a minion from {s.area_name(lifted)}.")
    s.add_piece(seat, area, trouble=trouble)
    s.say(f"{s.colour(seat)} placed a minion in {s.area_name(area)}.")


def building_options(s: AnkhMorporkState, seat: int, divisor: int = 1) -> list[Action]:
    """Where ``seat`` may build now, paying the cost divided by ``divisor``."""
    mine = s.minions[seat]
    out: list[Action] = []
    lifts = [-1] if s.building_supply(seat) > 0 else s.buildings_of(seat)
    for a in range(NUM_AREAS):
        cost = AREAS[a].cost // divisor
        if mine[a] and s.building[a] < 0 and not s.trouble[a] and s.money[seat] >= cost:
            out.extend(Action("place_building", area=a, extra=lift, other=cost) for lift in lifts)
    return out


def place_building(s: AnkhMorporkState, seat: int, area: int, lifted: int, cost: int) -> None:
    """Pay and build; a building moved from ``lifted`` returns that area's card."""
    if lifted >= 0:
        s.remove_building(lifted)
        s.say(f"{s.colour(seat)} took back their building from {s.area_name(lifted)}.")
    s.money[seat] -= cost
    s.put_building(seat, area)
    s.say(f"{s.colour(seat)} built in {s.area_name(area)} for ${cost}.")


def assassination_options(
    s: AnkhMorporkState, seat: int, verb: str = "assassinate"
) -> list[Action]:
    """Minions of others, trolls and demons standing where there is trouble."""
    out: list[Action] = []
    for a in range(NUM_AREAS):
        if not s.trouble[a]:
            continue
        for owner in range(s.n):
            if owner != seat and s.minions[owner][a]:
                out.append(Action(verb, area=a, seat=owner))
        if s.trolls[a]:
            out.append(Action(verb, area=a, seat=TROLL))
        if s.demons[a]:
            out.append(Action(verb, area=a, seat=DEMON))
    return out


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


def playable_cards(s: AnkhMorporkState, seat: int) -> list[int]:
    """Cards in hand that can be played as the turn's card (not interrupts)."""
    return sorted({c for c in s.hands[seat] if not CARDS[c].is_interrupt})


def play_card(s: AnkhMorporkState, seat: int, card: int) -> None:
    """Take ``card`` from the hand and start resolving its symbols."""
    s.hands[seat].remove(card)
    s.in_play.append(card)
    s.played.append(card)
    s.say(f"{s.colour(seat)} played {CARDS[card].name}.")
    s.stack.append(("card", seat, card, 0))


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
    if MOSSY in s.hands[seat] and s.played:
        last = s.played[-1]
        if last in s.in_play or last in s.discard_pile:
            out.append(Action("mossy", card=last))
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


@handler
class ChooseCard(Handler):
    """The start of a turn: play a card (ruling 2)."""

    kind = "choose"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        cards = playable_cards(s, seat)
        first = [Action("play", card=c) for c in cards] if cards else [Action("pass")]
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


@handler
class EndTurn(Handler):
    """After the cards: use powers, then end the turn."""

    kind = "end"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [Action("end_turn"), *turn_extras(s, f[1])]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        if apply_extra(s, f[1], a):
            return
        end_turn(s, f[1])

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "end the turn"


@handler
class PlayAnother(Handler):
    """The play-another-card symbol."""

    kind = "another"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        plays = [Action("play", card=c) for c in playable_cards(s, seat)]
        if not plays:
            return []
        return [*plays, Action("stop"), *turn_extras(s, seat)]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        seat = f[1]
        if apply_extra(s, seat, a):
            return
        s.stack.pop()
        if a.verb == "play":
            play_card(s, seat, a.card)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "decide whether to play another card"


@handler
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
            return [Action("event"), *turn_extras(s, seat)]
        if kind == PLACE_MINION:
            out = [Action("place_minion", area=a, extra=lift)
                   for a, lift in placement_options(s, seat)]
        elif kind == PLACE_BUILDING:
            out = building_options(s, seat)
        elif kind == ASSASSINATE:
            out = assassination_options(s, seat)
        elif kind == REMOVE_TROUBLE:
            out = [Action("remove_trouble", area=a) for a in range(NUM_AREAS) if s.trouble[a]]
        elif kind == MONEY:
            out = [Action("take_money", extra=symbol.amount)]
        elif kind == SCROLL:
            out = [Action("scroll", card=card)] if effects.can_start(s, seat, card) else []
        else:
            out = []
        extras = turn_extras(s, seat)
        if not out and not extras:
            return [Action("skip", card=card, extra=i)]
        return [*out, Action("skip", card=card, extra=i), *extras]

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
            s.say(f"{s.colour(seat)} assassinates {_piece(s, a.seat)} in {s.area_name(a.area)}.")
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


def _piece(s: AnkhMorporkState, owner: int) -> str:
    from citywatch.games.ankh_morpork.actions import piece_name

    return piece_name(owner)


# --- City Area powers (rulebook, City Area Cards; ruling 3) --------------------------------
def power_options(s: AnkhMorporkState, seat: int) -> list[Action]:
    """Powers ``seat`` may use now: own card, not gained this turn, unused, no demon."""
    out: list[Action] = []
    blocked = s.gained | s.powers_used
    for area in AREAS:
        a = area.index
        if s.area_card[a] != seat or blocked >> a & 1 or s.demons[a]:
            continue
        kind = area.power_kind
        params = area.power_params
        if kind == "money":
            out.append(Action("power", area=a, extra=params["money"]))
        elif kind == "trouble_near":
            out.extend(
                Action("power", area=a, extra=t)
                for t in sorted(ADJACENT_OR_SELF[a])
                if not s.trouble[t] and s.pieces_in(t) > 0
            )
        elif kind == "minion_near":
            if s.money[seat] >= params["cost"]:
                out.extend(
                    Action("power", area=a, extra=t, other=lift)
                    for t, lift in placement_options(s, seat, ADJACENT_OR_SELF[a])
                )
        elif kind == "discard_for_money":
            out.extend(Action("power", area=a, extra=c) for c in sorted(set(s.hands[seat])))
        elif kind == "remove_trouble":
            if s.money[seat] >= params["cost"]:
                out.extend(
                    Action("power", area=a, extra=t) for t in range(NUM_AREAS) if s.trouble[t]
                )
        elif kind == "draw_then_discard":
            out.append(Action("power", area=a))
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
