"""What the scroll texts do. Cards with the same text share one effect (``effects.json``).

An effect starts when its scroll is done; further choices are ``fx`` frames
``("fx", seat, card, step, *args)``. Whatever a text does to another player goes
through ``harm`` so that protections are offered in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from citywatch.games.ankh_morpork import harm
from citywatch.games.ankh_morpork.actions import Action, act, piece_name
from citywatch.games.ankh_morpork.data import (
    ADJACENT,
    ADJACENT_OR_SELF,
    AREA_BY_NAME,
    AREAS,
    CARDS,
    DEMON,
    DIE,
    HAND_SIZE,
    NUM_AREAS,
    PERSONALITIES,
    TROLL,
)
from citywatch.games.ankh_morpork.events import roll
from citywatch.games.ankh_morpork.frames import Handler, handler, op, then
from citywatch.games.ankh_morpork.state import (
    WHITEFACE_CARDS,
    AnkhMorporkState,
    Frame,
    assassination_options,
    building_options,
    place_building,
    place_minion,
    placement_options,
    play_card,
    playable_cards,
)

SORTED_ADJACENT: Final = tuple(tuple(sorted(ADJACENT[a])) for a in range(NUM_AREAS))
"""Each area's neighbours in board order."""

Params = dict[str, Any]
Starter = Callable[[AnkhMorporkState, int, int, Params], None]
Check = Callable[[AnkhMorporkState, int, int, Params], bool]
StepLegal = Callable[[AnkhMorporkState, Frame], list[Action]]
StepApply = Callable[[AnkhMorporkState, Frame, Action], None]

STARTERS: Final[dict[str, Starter]] = {}
CHECKS: Final[dict[str, Check]] = {}
STEP_LEGAL: Final[dict[str, StepLegal]] = {}
STEP_APPLY: Final[dict[str, StepApply]] = {}
STEP_TEXT: Final[dict[str, str]] = {}


def effect(name: str, check: Check | None = None) -> Callable[[Starter], Starter]:
    """Register how effect ``name`` starts, and when it can (default: always)."""

    def register(fn: Starter) -> Starter:
        STARTERS[name] = fn
        if check is not None:
            CHECKS[name] = check
        return fn

    return register


def step(name: str, text: str) -> Callable[[type], type]:
    """Register a class with static ``legal`` and ``apply`` for fx step ``name``."""

    def register(cls: type) -> type:
        STEP_LEGAL[name] = cls.legal  # type: ignore[attr-defined]
        STEP_APPLY[name] = cls.apply  # type: ignore[attr-defined]
        STEP_TEXT[name] = text
        return cls

    return register


def can_start(s: AnkhMorporkState, seat: int, card: int) -> bool:
    """True if doing the card's text can change anything now."""
    c = CARDS[card]
    check = CHECKS.get(c.effect or "")
    return True if check is None else check(s, seat, card, c.params)


def start(s: AnkhMorporkState, seat: int, card: int) -> None:
    """Do the card's text."""
    c = CARDS[card]
    STARTERS[c.effect or ""](s, seat, card, c.params)


def fx(s: AnkhMorporkState, seat: int, card: int, name: str, *args: Any) -> None:
    """Push a decision of an effect."""
    s.stack.append(("fx", seat, card, name, *args))


class Fx(Handler):
    """Dispatches an effect's decision to its step."""

    kind = "fx"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return STEP_LEGAL[f[3]](s, f)

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        STEP_APPLY[f[3]](s, f, a)

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return STEP_TEXT[f[3]]


handler(Fx)


@op("affect")
def _affect(s: AnkhMorporkState, victim: int, source: int, name: str, *args: Any) -> None:
    harm.affect(s, victim, source, name, *args)


@op("refill")
def _refill(s: AnkhMorporkState, seat: int) -> None:
    stuck = sum(1 for c in s.in_front[seat] if c in WHITEFACE_CARDS)
    need = HAND_SIZE - len(s.hands[seat]) - stuck
    if need > 0:
        s.draw_cards(seat, need)


# --- helpers ---------------------------------------------------------------------------------
def _who(s: AnkhMorporkState, seat: int) -> str:
    return s.colour(seat)


def _transfer(s: AnkhMorporkState, payer: int, payee: int, amount: int) -> int:
    paid = min(amount, s.money[payer])
    s.money[payer] -= paid
    s.money[payee] += paid
    s.say(f"{_who(s, payer)} paid ${paid} to {_who(s, payee)}.")
    return paid


def _give_card(s: AnkhMorporkState, giver: int, receiver: int, card: int) -> None:
    s.hands[giver].remove(card)
    s.hands[receiver].append(card)
    s.say(
        f"{_who(s, giver)} gave {CARDS[card].name} to {_who(s, receiver)}.",
        seats=(giver, receiver),
        others=f"{_who(s, giver)} gave a card to {_who(s, receiver)}.",
    )


def _distinct(cards: list[int]) -> list[int]:
    return sorted(set(cards))


def _gain(s: AnkhMorporkState, seat: int, amount: int, why: str) -> None:
    s.money[seat] += amount
    s.say(f"{_who(s, seat)} took ${amount} from the bank ({why}).")


def _others_with_cards(s: AnkhMorporkState, seat: int) -> list[int]:
    return [t for t in s.others(seat) if s.hands[t]]


def _pieces(s: AnkhMorporkState, area: int) -> list[int]:
    """Owners of the pieces standing in ``area``: seats, then troll and demon."""
    return [o for o in (*range(s.n), TROLL, DEMON) if s.minions_of(o, area)]


def _remove_by_text(s: AnkhMorporkState, owner: int, area: int, source: int) -> None:
    harm.remove_minion(s, owner, area, source, harm.TEXT)


# --- choosing another player -----------------------------------------------------------------
Targets = Callable[[AnkhMorporkState, int], list[int]]
TARGETS: Final[dict[str, Targets]] = {}
TARGET_DONE: Final[dict[str, Callable[[AnkhMorporkState, int, int, int], None]]] = {}


def target(
    name: str, who: Targets
) -> Callable[[Callable[[AnkhMorporkState, int, int, int], None]], Any]:
    """Register an effect that starts by choosing another player from ``who(s, seat)``."""

    def register(fn: Callable[[AnkhMorporkState, int, int, int], None]) -> Any:
        TARGETS[name] = who
        TARGET_DONE[name] = fn

        def starter(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
            fx(s, seat, card, "target", name)

        STARTERS[name] = starter
        CHECKS[name] = lambda s, seat, card, params: bool(who(s, seat))
        return fn

    return register


@step("target", "choose a player")
class _Target:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("target", card=f[2], seat=t) for t in TARGETS[f[4]](s, f[1])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.say(f"{_who(s, f[1])} chose {_who(s, a.seat)}.")
        TARGET_DONE[f[4]](s, f[1], f[2], a.seat)


def _all_others(s: AnkhMorporkState, seat: int) -> list[int]:
    return s.others(seat)


# --- money and cards from others ------------------------------------------------------------
@effect("loan")
def _loan(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    s.money[seat] += params["amount"]
    s.in_play.remove(card)
    s.in_front[seat].append(card)
    s.say(f"{_who(s, seat)} took a loan of ${params['amount']} ({CARDS[card].name}).")


@target("beggars", _others_with_cards)
def _beggars(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "beggars", card, CARDS[card].params["cards"])


@harm.text_effect("beggars")
def _beggars_give(s: AnkhMorporkState, victim: int, source: int, card: int, count: int) -> None:
    count = min(count, len(s.hands[victim]))
    if count:
        fx(s, victim, card, "give", source, count)


@step("give", "choose a card to give")
class _Give:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("give_card", card=c, seat=f[4]) for c in _distinct(s.hands[f[1]])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, giver, card, name, receiver, left = f
        if left > 1:
            s.stack[-1] = ("fx", giver, card, name, receiver, left - 1)
        else:
            s.stack.pop()
        _give_card(s, giver, receiver, a.card)


@effect("sunshine", lambda s, seat, card, p: any(
    s.money[t] >= p["money"] or s.hands[t] for t in s.others(seat)))
def _sunshine(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    then(s, *(("affect", t, seat, "sunshine", card, params["money"]) for t in s.others(seat)))


@harm.text_effect("sunshine")
def _sunshine_give(s: AnkhMorporkState, victim: int, source: int, card: int, money: int) -> None:
    fx(s, victim, card, "money_or_card", source, money)


@step("money_or_card", "give either money or a card")
class _MoneyOrCard:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        giver, receiver, money = f[1], f[4], f[5]
        out = [act("pay", seat=receiver, extra=money)] if s.money[giver] >= money else []
        return out + [act("give_card", card=c, seat=receiver) for c in _distinct(s.hands[giver])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "pay":
            _transfer(s, f[1], f[4], a.extra)
        else:
            _give_card(s, f[1], f[4], a.card)


@effect("seamstress", lambda s, seat, card, p: bool(s.hands[seat]))
def _seamstress(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "give_for_money", params["money"])


@step("give_for_money", "choose a card and a player to give it to")
class _GiveForMoney:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        return [act("give_card", card=c, seat=t)
                for c in _distinct(s.hands[seat]) for t in s.others(seat)]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        harm.affect(s, a.seat, f[1], "seamstress", a.card, f[4])


@harm.text_effect("seamstress")
def _seamstress_take(s: AnkhMorporkState, victim: int, source: int, card: int, money: int) -> None:
    if card in s.hands[source]:
        _give_card(s, source, victim, card)
        _transfer(s, victim, source, money)


@effect("thieves", lambda s, seat, card, p: any(s.money[t] for t in s.others(seat)))
def _thieves(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    then(s, *(("affect", t, seat, "take_money", params["money"]) for t in s.others(seat)))


@harm.text_effect("take_money")
def _take_money(s: AnkhMorporkState, victim: int, source: int, amount: int) -> None:
    _transfer(s, victim, source, amount)


@target("take_from_player", lambda s, seat: [t for t in s.others(seat) if s.money[t]])
def _nobby(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "take_money", CARDS[card].params["money"])


@target("whiteface", _all_others)
def _whiteface(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "whiteface", card, CARDS[card].params["money"])


@harm.text_effect("whiteface")
def _whiteface_choice(s: AnkhMorporkState, victim: int, source: int, card: int, money: int) -> None:
    fx(s, victim, card, "pay_or_take", source, money)


@step("pay_or_take", "pay, or take the card in front of you")
class _PayOrTake:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        victim, card, source, money = f[1], f[2], f[4], f[5]
        out = [act("pay", seat=source, extra=money)] if s.money[victim] >= money else []
        if card in s.in_play:
            out.append(act("take_card_in_front", card=card))
        return out

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        victim, card = f[1], f[2]
        if a.verb == "pay":
            _transfer(s, victim, f[4], a.extra)
            return
        s.in_play.remove(card)
        s.in_front[victim].append(card)
        s.say(f"{CARDS[card].name} now lies in front of {_who(s, victim)}, taking a hand slot.")


@effect("hubert", lambda s, seat, card, p: s.n >= 3)
def _hubert(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "hubert", params["money"])


@step("hubert", "choose who gives money to whom")
class _Hubert:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        others = s.others(f[1])
        return [act("hubert", seat=p, other=q) for p in others for q in others if p != q]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        harm.affect(s, a.seat, f[1], "give_money", a.other, f[4])


@harm.text_effect("give_money")
def _give_money(s: AnkhMorporkState, victim: int, source: int, payee: int, amount: int) -> None:
    _transfer(s, victim, payee, amount)


@target("stanley", _others_with_cards)
def _stanley(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "stanley", card, CARDS[card].params["cards"])


@harm.text_effect("stanley")
def _stanley_take(s: AnkhMorporkState, victim: int, source: int, card: int, count: int) -> None:
    hand = s.hands[victim]
    taken = []
    for _ in range(min(count, len(hand))):
        c = hand.pop(s.rng.below(len(hand)))
        taken.append(c)
    s.hands[source].extend(taken)
    names = ", ".join(CARDS[c].name for c in taken)
    s.say(f"{_who(s, source)} took {names} at random from {_who(s, victim)}.",
          seats=(source, victim),
          others=f"{_who(s, source)} took {len(taken)} cards at random from {_who(s, victim)}.")
    if len(taken) > 1:
        fx(s, source, card, "give_back", victim, *taken)


@step("give_back", "choose which card to give back")
class _GiveBack:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("give_card", card=c, seat=f[4]) for c in sorted(set(f[5:]))
                if c in s.hands[f[1]]]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        _give_card(s, f[1], f[4], a.card)


@target("cable_street", _others_with_cards)
def _cable_street(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "cable_street", card)


@harm.text_effect("cable_street")
def _cable_street_look(s: AnkhMorporkState, victim: int, source: int, card: int) -> None:
    names = ", ".join(CARDS[c].name for c in sorted(s.hands[victim]))
    s.say(f"{_who(s, source)} looked at {_who(s, victim)}'s hand: {names}.",
          seats=(source, victim), others=f"{_who(s, source)} looked at {_who(s, victim)}'s hand.")
    fx(s, source, card, "make_discard", victim)


@step("make_discard", "choose a card the other player must discard")
class _MakeDiscard:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("discard", card=c, seat=f[4]) for c in _distinct(s.hands[f[4]])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.discard_from_hand(a.seat, a.card)
        s.say(f"{_who(s, a.seat)} discarded {CARDS[a.card].name}.")


@target("chair", _all_others)
def _chair(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "chair")


@harm.text_effect("chair")
def _chair_swap(s: AnkhMorporkState, victim: int, source: int) -> None:
    s.hands[victim], s.hands[source] = s.hands[source], s.hands[victim]
    s.say(f"{_who(s, source)} and {_who(s, victim)} exchanged hands.")


# --- discarding and drawing -----------------------------------------------------------------
def _has_cards(s: AnkhMorporkState, seat: int, card: int, params: Params) -> bool:
    return bool(s.hands[seat])


@effect("discard_for_money", _has_cards)
def _discard_for_money(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "discard_for_money", params["per"])


@step("discard_for_money", "discard cards for money, or stop")
class _DiscardForMoney:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [*(act("discard", card=c) for c in _distinct(s.hands[f[1]])), act("done")]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        if a.verb == "done":
            s.stack.pop()
            return
        s.discard_from_hand(f[1], a.card)
        _gain(s, f[1], f[4], f"discarded {CARDS[a.card].name}")


@effect("may_discard", _has_cards)
def _may_discard(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "discard_upto", params["cards"])


@effect("alchemists")
def _alchemists(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    then(s, ("refill", seat))
    fx(s, seat, card, "discard_upto", params["cards"])


@step("discard_upto", "discard a card, or stop")
class _DiscardUpTo:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [*(act("discard", card=c) for c in _distinct(s.hands[f[1]])), act("done")]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, card, name, left = f
        if a.verb == "done" or left <= 1:
            s.stack.pop()
        else:
            s.stack[-1] = ("fx", seat, card, name, left - 1)
        if a.verb == "discard":
            s.discard_from_hand(seat, a.card)
            s.say(f"{_who(s, seat)} discarded {CARDS[a.card].name}.")


@effect("must_discard", _has_cards)
def _must_discard(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "discard_one")


@step("discard_one", "discard a card")
class _DiscardOne:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("discard", card=c) for c in _distinct(s.hands[f[1]])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.discard_from_hand(f[1], a.card)
        s.say(f"{_who(s, f[1])} discarded {CARDS[a.card].name}.")


@effect("draw")
def _draw(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    s.draw_cards(seat, params["cards"])


@effect("draw_per_building", lambda s, seat, card, p: bool(s.buildings_of(seat)))
def _draw_per_building(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    s.draw_cards(seat, len(s.buildings_of(seat)))


@effect("history_monks", lambda s, seat, card, p: bool(s.discard_pile))
def _history_monks(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    s.rng.shuffle(s.discard_pile)
    taken = [s.discard_pile.pop() for _ in range(min(params["cards"], len(s.discard_pile)))]
    s.hands[seat].extend(taken)
    s.say(f"{_who(s, seat)} drew {', '.join(CARDS[c].name for c in taken)} from the "
          f"discard pile.", seats=(seat,),
          others=f"{_who(s, seat)} drew {len(taken)} cards from the discard pile.")


# --- money from the bank ----------------------------------------------------------------------
@effect("money_per_trouble", lambda s, seat, card, p: s.trouble_count() > 0)
def _money_per_trouble(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    _gain(s, seat, params["per"] * s.trouble_count(), "trouble markers")


@effect("money_per_building", lambda s, seat, card, p: any(b >= 0 for b in s.building))
def _money_per_building(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    count = sum(1 for b in s.building if b >= 0)
    _gain(s, seat, params["per"] * count, "buildings on the board")


@effect("money_per_minion_in_area",
        lambda s, seat, card, p: s.pieces_in(AREA_BY_NAME[p["area"]].index) > 0)
def _money_per_minion(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    area = AREA_BY_NAME[params["area"]].index
    _gain(s, seat, params["per"] * s.pieces_in(area), f"minions in {params['area']}")


@effect("slant", lambda s, seat, card, p: any(s.trouble))
def _slant(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "slant", params["per"])


@step("slant", "choose an area with a trouble marker")
class _Slant:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("choose_area", area=a) for a in range(NUM_AREAS) if s.trouble[a]]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        _gain(s, f[1], f[4] * s.pieces_in(a.area), f"minions in {s.area_name(a.area)}")


# --- dice --------------------------------------------------------------------------------------
def _roll_value(s: AnkhMorporkState, seat: int) -> int:
    value = s.rng.roll(DIE)
    s.say(f"{_who(s, seat)} rolled {value}.")
    return value


@effect("here_n_now")
def _here_n_now(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    value = _roll_value(s, seat)
    if value >= 7:
        fx(s, seat, card, "target", "take_from_player")
    elif value == 1:
        fx(s, seat, card, "remove_own")


@effect("cmot")
def _cmot(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    value = _roll_value(s, seat)
    if value >= 7:
        _gain(s, seat, params["gain"], "CMOT Dibbler")
    elif value == 1:
        fx(s, seat, card, "pay_or_remove_own", params["pay"])


@step("remove_own", "remove one of your minions")
class _RemoveOwn:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat = f[1]
        return [act("remove_minion", area=a, seat=seat)
                for a in range(NUM_AREAS) if s.minions[seat][a]]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        _remove_by_text(s, f[1], a.area, f[4] if len(f) > 4 else f[1])


@step("pay_or_remove_own", "pay the bank or remove one of your minions")
class _PayOrRemoveOwn:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        seat, amount = f[1], f[4]
        out = [act("pay_bank", extra=amount)] if s.money[seat] >= amount else []
        return out + _RemoveOwn.legal(s, f[:4])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "pay_bank":
            s.money[f[1]] -= a.extra
            s.say(f"{_who(s, f[1])} paid ${a.extra} to the bank.")
        else:
            _remove_by_text(s, f[1], a.area, f[1])


@effect("errol")
def _errol(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    value = _roll_value(s, seat)
    if value >= 7:
        fx(s, seat, card, "remove_in_trouble")
    elif value == 1:
        fx(s, seat, card, "remove_own")


@step("remove_in_trouble", "choose a minion to remove from an area with trouble")
class _RemoveInTrouble:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("remove_minion", area=a, seat=o)
                for a in range(NUM_AREAS) if s.trouble[a] for o in _pieces(s, a)]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        _remove_by_text(s, a.seat, a.area, f[1])


@effect("carcer")
def _carcer(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    areas = [_roll_area(s) for _ in range(params["rolls"])]
    for area in reversed(areas):
        fx(s, seat, card, "remove_in_area", area)


def _roll_area(s: AnkhMorporkState) -> int:
    return roll(s)


@step("remove_in_area", "choose a minion to remove")
class _RemoveInArea:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        area = f[4]
        return [act("remove_minion", area=area, seat=o) for o in _pieces(s, area)]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.say(f"{_who(s, f[1])} chose {piece_name(a.seat)} in {s.area_name(a.area)}.")
        _remove_by_text(s, a.seat, a.area, f[1])


@effect("remove_minion_in_area",
        lambda s, seat, card, p: s.pieces_in(AREA_BY_NAME[p["area"]].index) > 0)
def _dean(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "remove_in_area", AREA_BY_NAME[params["area"]].index)


# --- personalities ----------------------------------------------------------------------------
@effect("zorgo", lambda s, seat, card, p: bool(s.unused_personalities))
def _zorgo(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "zorgo")


@step("zorgo", "decide whether to swap your personality")
class _Zorgo:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("swap_personality"), act("done")]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat = f[1]
        if a.verb == "done":
            s.say(f"{_who(s, seat)} kept their personality.")
            return
        pool = s.unused_personalities
        i = s.rng.below(len(pool))
        old = s.personality[seat]
        s.personality[seat], pool[i] = pool[i], old
        s.say(f"{_who(s, seat)} swapped {PERSONALITIES[old].name} for "
              f"{PERSONALITIES[s.personality[seat]].name}.", seats=(seat,),
              others=f"{_who(s, seat)} swapped their personality for an unused one.")


@effect("mrs_cake", lambda s, seat, card, p: bool(s.unused_personalities))
def _mrs_cake(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    pool = sorted(s.unused_personalities)
    hidden = s.rng.below(len(pool))
    shown = [p for i, p in enumerate(pool) if i != hidden]
    s.seen[seat] = shown
    names = ", ".join(PERSONALITIES[p].name for p in shown) or "nothing"
    s.say(f"{_who(s, seat)} looked at the unused personalities: {names}.", seats=(seat,),
          others=f"{_who(s, seat)} looked at all but one of the unused personalities.")


# --- placing and moving minions ------------------------------------------------------------
def _placements(s: AnkhMorporkState, seat: int, areas: Any) -> list[Action]:
    return [act("place_minion", area=a, extra=lift)
            for a, lift in placement_options(s, seat, areas)]


def _place(s: AnkhMorporkState, seat: int, a: Action, trouble: bool = True) -> None:
    place_minion(s, seat, a.area, a.extra, trouble=trouble)


PLACE_AREAS: Final[dict[str, Callable[[AnkhMorporkState, int, Params], list[int]]]] = {
    "place_minion_at_building": lambda s, seat, p: s.buildings_of(seat),
    "place_minion_quietly": lambda s, seat, p: list(range(NUM_AREAS)),
    "place_minion_in_trouble": lambda s, seat, p: [a for a in range(NUM_AREAS) if s.trouble[a]],
    "place_minions_near": lambda s, seat, p: sorted(
        ADJACENT_OR_SELF[AREA_BY_NAME[p["area"]].index]
    ),
}


def _place_effect(name: str) -> None:
    def check(s: AnkhMorporkState, seat: int, card: int, params: Params) -> bool:
        return bool(placement_options(s, seat, PLACE_AREAS[name](s, seat, params)))

    def starter(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
        fx(s, seat, card, "place", name, params.get("minions", 1), 0)

    STARTERS[name] = starter
    CHECKS[name] = check


for _name in PLACE_AREAS:
    _place_effect(_name)


@step("place", "choose where to place a minion")
class _Place:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        _, seat, card, _, name, left, placed = f
        out = _placements(s, seat, PLACE_AREAS[name](s, seat, CARDS[card].params))
        return [*out, act("done")] if placed and out else out

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, card, step_name, name, left, placed = f
        if a.verb == "done" or left <= 1:
            s.stack.pop()
        else:
            s.stack[-1] = ("fx", seat, card, step_name, name, left - 1, placed + 1)
        if a.verb == "place_minion":
            _place(s, seat, a, trouble=name != "place_minion_quietly")


def _own_minion_in_trouble_moves(s: AnkhMorporkState, seat: int) -> list[Action]:
    mine = s.minions[seat]
    return [act("move_minion", area=a, seat=seat, extra=b)
            for a in range(NUM_AREAS) if s.trouble[a] and mine[a]
            for b in SORTED_ADJACENT[a]]


def _own_minion_anywhere_moves(s: AnkhMorporkState, seat: int) -> list[Action]:
    mine = s.minions[seat]
    return [act("move_minion", area=a, seat=seat, extra=b)
            for a in range(NUM_AREAS) if mine[a]
            for b in range(NUM_AREAS) if b != a]


def _other_minion_moves(s: AnkhMorporkState, seat: int) -> list[Action]:
    others = s.others(seat)
    return [act("move_minion", area=a, seat=o, extra=b)
            for a in range(NUM_AREAS) for o in others if s.minions[o][a]
            for b in SORTED_ADJACENT[a]]


MOVES: Final[dict[str, Callable[[AnkhMorporkState, int], list[Action]]]] = {
    "rincewind": _own_minion_in_trouble_moves,
    "move_own_minion_anywhere": _own_minion_anywhere_moves,
    "move_other_minion": _other_minion_moves,
}


def _can_move_own_in_trouble(s: AnkhMorporkState, seat: int) -> bool:
    mine = s.minions[seat]
    return any(s.trouble[a] and mine[a] and SORTED_ADJACENT[a] for a in range(NUM_AREAS))


def _can_move_own_anywhere(s: AnkhMorporkState, seat: int) -> bool:
    return NUM_AREAS > 1 and any(s.minions[seat])


def _can_move_other(s: AnkhMorporkState, seat: int) -> bool:
    others = s.others(seat)
    return any(s.minions[o][a] and SORTED_ADJACENT[a] for a in range(NUM_AREAS) for o in others)


CAN_MOVE: Final[dict[str, Callable[[AnkhMorporkState, int], bool]]] = {
    "rincewind": _can_move_own_in_trouble,
    "move_own_minion_anywhere": _can_move_own_anywhere,
    "move_other_minion": _can_move_other,
}
"""Whether ``MOVES`` of the same name would list any move, without listing them."""


def _move_effect(name: str) -> None:
    def check(s: AnkhMorporkState, seat: int, card: int, params: Params) -> bool:
        return CAN_MOVE[name](s, seat)

    def starter(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
        fx(s, seat, card, "move", name)

    STARTERS[name] = starter
    CHECKS[name] = check


for _name in MOVES:
    _move_effect(_name)


@step("move", "choose a minion to move")
class _Move:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return MOVES[f[4]](s, f[1])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        harm.move_minion(s, a.seat, a.area, a.extra, f[1], harm.TEXT)


@effect("hobsons", lambda s, seat, card, p: s.money[seat] >= p["money"]
        and _can_move_own_anywhere(s, seat))
def _hobsons(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "pay_then", params["money"], "move", "move_own_minion_anywhere")


@effect("burleigh", lambda s, seat, card, p: s.money[seat] >= p["money"]
        and bool(_assassinations(s, seat)))
def _burleigh(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "pay_then", params["money"], "assassinate")


@step("pay_then", "choose a player to pay")
class _PayThen:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("pay", seat=t, extra=f[4]) for t in s.others(f[1])]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, card, _, amount, *rest = f
        s.stack.pop()
        _transfer(s, seat, a.seat, amount)
        fx(s, seat, card, *rest)


def _assassinations(s: AnkhMorporkState, seat: int) -> list[Action]:
    return assassination_options(s, seat)


@step("assassinate", "choose a minion to assassinate")
class _Assassinate:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return _assassinations(s, f[1])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        _remove_by_text(s, a.seat, a.area, f[1])


@effect("cosmo", lambda s, seat, card, p: s.money[seat] >= p["money"])
def _cosmo(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "target", "cosmo")


TARGETS["cosmo"] = _all_others


def _cosmo_target(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "cosmo", card, CARDS[card].params["money"])


TARGET_DONE["cosmo"] = _cosmo_target


@harm.text_effect("cosmo")
def _cosmo_pay(s: AnkhMorporkState, victim: int, source: int, card: int, money: int) -> None:
    _transfer(s, source, victim, money)
    fx(s, victim, card, "remove_not_source", source)


@step("remove_not_source", "remove a minion (not the card player's) from an area with trouble")
class _RemoveNotSource:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        source = f[4]
        return [act("remove_minion", area=a, seat=o)
                for a in range(NUM_AREAS) if s.trouble[a]
                for o in _pieces(s, a) if o != source]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.seat == f[1]:  # D18: a minion the paid player chose among their own just goes
            s.take_piece(a.seat, a.area)
            s.say(f"{_who(s, a.seat)} removed their own minion from {s.area_name(a.area)}.")
            return
        _remove_by_text(s, a.seat, a.area, f[4])


@effect("auditors")
def _auditors(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    then(s, *(("affect", t, seat, "auditors", card) for t in s.others(seat)))


@harm.text_effect("auditors")
def _auditors_remove(s: AnkhMorporkState, victim: int, source: int, card: int) -> None:
    if any(s.minions[victim]):
        fx(s, victim, card, "remove_own", source)


def _swap_moves(s: AnkhMorporkState, seat: int) -> list[Action]:
    pieces = [(a, o) for a in range(NUM_AREAS) for o in _pieces(s, a)]
    return [act("swap_minions", area=a1, seat=o1, extra=a2, other=o2)
            for i, (a1, o1) in enumerate(pieces) for (a2, o2) in pieces[i + 1:]
            if a1 != a2 and o1 != o2]


def _can_swap(s: AnkhMorporkState, seat: int) -> bool:
    """Whether ``_swap_moves`` would list any swap, without listing them."""
    pieces = [(a, o) for a in range(NUM_AREAS) for o in _pieces(s, a)]
    return any(a1 != a2 and o1 != o2
               for i, (a1, o1) in enumerate(pieces) for (a2, o2) in pieces[i + 1:])


@effect("bursar", lambda s, seat, card, p: _can_swap(s, seat))
def _bursar(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "swap")


@step("swap", "choose two minions to swap")
class _Swap:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return _swap_moves(s, f[1])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        seat = f[1]
        owners = tuple(o for o in (a.seat, a.other) if o < TROLL and o != seat)
        _swap_next(s, seat, a, owners)


def _swap_next(s: AnkhMorporkState, seat: int, a: Action, owners: tuple[int, ...]) -> None:
    if owners:
        harm.affect(s, owners[0], seat, "swap", tuple(a), owners[1:])
        return
    if s.minions_of(a.seat, a.area) and s.minions_of(a.other, a.extra):
        s.take_piece(a.seat, a.area)
        s.take_piece(a.other, a.extra)
        s.add_piece(a.seat, a.extra)
        s.add_piece(a.other, a.area)
        s.say(f"{piece_name(a.seat).capitalize()} in {s.area_name(a.area)} and "
              f"{piece_name(a.other)} in {s.area_name(a.extra)} swapped places.")


@harm.text_effect("swap")
def _swap_asked(
    s: AnkhMorporkState, victim: int, source: int, raw: tuple[Any, ...], owners: tuple[int, ...]
) -> None:
    _swap_next(s, source, Action(*raw), owners)


# --- buildings ---------------------------------------------------------------------------------
def _replacements(s: AnkhMorporkState, seat: int, trouble: bool) -> list[Action]:
    lifts = [-1] if s.building_supply(seat) > 0 else s.buildings_of(seat)
    return [act("replace_building", area=a, seat=o, extra=lift)
            for a in range(NUM_AREAS)
            if (o := s.building[a]) >= 0 and o != seat and s.trouble[a] == trouble
            and s.money[seat] >= AREAS[a].cost
            for lift in lifts]


@effect("replace_building",
        lambda s, seat, card, p: bool(_replacements(s, seat, p["trouble"])))
def _replace_building(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "replace", params["trouble"])


@step("replace", "choose a building to replace")
class _Replace:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return _replacements(s, f[1], f[4])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        harm.affect(s, a.seat, f[1], "replace", a.area, a.extra)


@harm.text_effect("replace")
def _replace(s: AnkhMorporkState, victim: int, source: int, area: int, lift: int) -> None:
    cost = AREAS[area].cost
    if s.building[area] != victim or s.money[source] < cost:
        return
    if lift >= 0:
        s.remove_building(lift)
    s.remove_building(area)
    _transfer(s, source, victim, cost)
    s.put_building(source, area)
    s.say(f"{_who(s, source)} replaced {_who(s, victim)}'s building in {s.area_name(area)}.")


@effect("half_price_building")
def _half_price(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "build", 2)


def _half_price_check(s: AnkhMorporkState, seat: int, card: int, params: Params) -> bool:
    return bool(building_options(s, seat, 2))


CHECKS["half_price_building"] = _half_price_check


@step("build", "choose where to build")
class _Build:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return building_options(s, f[1], f[4])

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        place_building(s, f[1], a.area, a.extra, a.other)


@target("fire_brigade", lambda s, seat: [t for t in s.others(seat) if s.buildings_of(t)])
def _fire_brigade(s: AnkhMorporkState, seat: int, card: int, t: int) -> None:
    harm.affect(s, t, seat, "fire_brigade", card, CARDS[card].params["money"])


@harm.text_effect("fire_brigade")
def _fire_brigade_ask(s: AnkhMorporkState, victim: int, source: int, card: int, money: int) -> None:
    fx(s, victim, card, "pay_or_lose", source, money)


@step("pay_or_lose", "pay, or risk losing a building")
class _PayOrLose:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        victim, source, money = f[1], f[4], f[5]
        out = [act("pay", seat=source, extra=money)] if s.money[victim] >= money else []
        return [*out, act("refuse")]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        victim, card, source = f[1], f[2], f[4]
        if a.verb == "pay":
            _transfer(s, victim, source, a.extra)
            return
        s.say(f"{_who(s, victim)} refused to pay.")
        fx(s, source, card, "burn", victim)


@step("burn", "choose a building to remove, or none")
class _Burn:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        victim = f[4]
        return [*(act("remove_building", area=a, seat=victim) for a in s.buildings_of(victim)),
                act("done")]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        if a.verb == "remove_building":
            harm.remove_building(s, a.area, f[1], harm.TEXT)


# --- trouble -------------------------------------------------------------------------------------
def _mob_areas(s: AnkhMorporkState) -> list[int]:
    return [a for a in range(NUM_AREAS)
            if not s.trouble[a] and any(s.trouble[b] for b in ADJACENT[a])]


def _hix_areas(s: AnkhMorporkState) -> list[int]:
    return [a for a in range(NUM_AREAS) if not s.trouble[a]]


TROUBLE_AREAS: Final = {"mob": _mob_areas, "hix": _hix_areas}


def _trouble_effect(name: str) -> None:
    def check(s: AnkhMorporkState, seat: int, card: int, params: Params) -> bool:
        return bool(TROUBLE_AREAS[name](s))

    def starter(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
        fx(s, seat, card, "trouble", name)

    STARTERS[name] = starter
    CHECKS[name] = check


for _name in TROUBLE_AREAS:
    _trouble_effect(_name)


@step("trouble", "choose where to put a trouble marker")
class _Trouble:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [act("place_trouble", area=a) for a in TROUBLE_AREAS[f[4]](s)]

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.trouble[a.area] = True
        s.say(f"{_who(s, f[1])} put a trouble marker in {s.area_name(a.area)}.")


# --- playing more cards -----------------------------------------------------------------------
@effect("play_two")
def _play_two(s: AnkhMorporkState, seat: int, card: int, params: Params) -> None:
    fx(s, seat, card, "play_two", params["cards"])


@step("play_two", "choose another card to play, or stop")
class _PlayTwo:
    @staticmethod
    def legal(s: AnkhMorporkState, f: Frame) -> list[Action]:
        plays = [act("play", card=c) for c in playable_cards(s, f[1])]
        return [*plays, act("stop")] if plays else []

    @staticmethod
    def apply(s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, seat, card, name, left = f
        if a.verb == "stop" or left <= 1:
            s.stack.pop()
        else:
            s.stack[-1] = ("fx", seat, card, name, left - 1)
        if a.verb == "play":
            play_card(s, seat, a.card)


@effect("interrupt", lambda s, seat, card, p: False)
def _interrupt(  # pragma: no cover
    s: AnkhMorporkState, seat: int, card: int, params: Params
) -> None:
    raise AssertionError("interrupts are played through the harm gateway, not as scrolls")


_missing = {c.effect for c in CARDS if c.effect} - set(STARTERS)
if _missing:  # pragma: no cover - a data/code mismatch is a programming error
    raise RuntimeError(f"card effects without code: {sorted(_missing)}")
