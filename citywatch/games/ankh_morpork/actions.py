"""Ankh-Morpork actions: small hashable values with a readable ``str()`` and a JSON form.

An action holds only numbers: a verb, and card, area and seat indexes (-1 when unused),
so it stays valid on copies of the state. ``extra`` and ``other`` carry a second area,
an amount or a second seat, depending on the verb.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from citywatch.games.ankh_morpork.data import (
    AREAS,
    CARDS,
    COLOURS,
    DEMON,
    TROLL,
    area_named,
    card_named,
)


def seat_name(seat: int) -> str:
    """A seat's colour, or 'troll' / 'demon' for neutral pieces."""
    if seat == TROLL:
        return "troll"
    if seat == DEMON:
        return "demon"
    return COLOURS[seat]


def piece_name(owner: int) -> str:
    """'Blue's minion', 'a troll', 'a demon'."""
    if owner in (TROLL, DEMON):
        return f"a {seat_name(owner)}"
    return f"{seat_name(owner)}'s minion"


def _seat_from_name(name: Any) -> int:
    if name == "troll":
        return TROLL
    if name == "demon":
        return DEMON
    if name in COLOURS:
        return COLOURS.index(name)
    raise ValueError(f"unknown seat {name!r}")


def _area(i: int) -> str:
    return AREAS[i].name


def _card(i: int) -> str:
    return CARDS[i].name


# verb -> (fields used, formatter)
_TEXTS: Final[dict[str, Any]] = {
    "play": lambda a: f"Play {_card(a.card)}",
    "pass": lambda a: "Pass: you hold no card you can play",
    "skip": lambda a: f"Skip {CARDS[a.card].symbols[a.extra].describe()} on {_card(a.card)}",
    "stop": lambda a: "Play no more cards",
    "end_turn": lambda a: "End your turn",
    "place_minion": lambda a: (
        f"Place a minion in {_area(a.area)}"
        if a.extra < 0
        else f"Move a minion from {_area(a.extra)} to {_area(a.area)}"
    ),
    "place_building": lambda a: (
        f"Build in {_area(a.area)} for ${a.other}"
        + ("" if a.extra < 0 else f", moving your building from {_area(a.extra)}")
    ),
    "assassinate": lambda a: f"Assassinate {piece_name(a.seat)} in {_area(a.area)}",
    "remove_trouble": lambda a: f"Remove the trouble marker from {_area(a.area)}",
    "take_money": lambda a: f"Take ${a.extra} from the bank",
    "scroll": lambda a: f"Do the text of {_card(a.card)}",
    "event": lambda a: "Draw a random event",
    "power": lambda a: _power_text(a),
    "mossy": lambda a: f"Play Doctor Mossy Lawn: end your turn and take back {_card(a.card)}",
    "protect": lambda a: _protect_text(a),
    "allow": lambda a: "Play no interrupt",
    "target": lambda a: f"Aim {_card(a.card)} at {seat_name(a.seat)}",
    "give_card": lambda a: f"Give {_card(a.card)} to {seat_name(a.seat)}",
    "discard": lambda a: (
        f"Discard {_card(a.card)}" if a.seat < 0
        else f"Make {seat_name(a.seat)} discard {_card(a.card)}"
    ),
    "pay_bank": lambda a: f"Pay ${a.extra} to the bank",
    "done": lambda a: "Done",
    "pay": lambda a: f"Pay ${a.extra} to {seat_name(a.seat)}",
    "refuse": lambda a: "Refuse to pay",
    "take_card_in_front": lambda a: f"Take {_card(a.card)} in front of you instead of paying",
    "move_minion": lambda a: (
        f"Move {piece_name(a.seat)} from {_area(a.area)} to {_area(a.extra)}"
    ),
    "remove_minion": lambda a: f"Remove {piece_name(a.seat)} from {_area(a.area)}",
    "remove_building": lambda a: f"Remove {seat_name(a.seat)}'s building in {_area(a.area)}",
    "replace_building": lambda a: (
        f"Replace {seat_name(a.seat)}'s building in {_area(a.area)} with yours"
        + ("" if a.extra < 0 else f", moving your building from {_area(a.extra)}")
    ),
    "place_trouble": lambda a: f"Put a trouble marker in {_area(a.area)}",
    "choose_area": lambda a: f"Choose {_area(a.area)}",
    "swap_personality": lambda a: "Swap your personality for a random unused one",
    "swap_minions": lambda a: (
        f"Swap {piece_name(a.seat)} in {_area(a.area)} with "
        f"{piece_name(a.other)} in {_area(a.extra)}"
    ),
    "hubert": lambda a: f"Make {seat_name(a.seat)} give $3 to {seat_name(a.other)}",
    "keep_here": lambda a: f"Pay $3 (Small Gods) to keep your minion in {_area(a.area)}",
}

_POWER_TEXTS: Final[dict[str, Any]] = {
    "The Shades": lambda a: f"Use The Shades: put a trouble marker in {_area(a.extra)}",
    "Dolly Sisters": lambda a: f"Use Dolly Sisters: pay $3 to place a minion in {_area(a.extra)}",
    "Dimwell": lambda a: f"Use Dimwell: pay $3 to place a minion in {_area(a.extra)}",
    "The Scours": lambda a: f"Use The Scours: discard {_card(a.extra)} and take $2",
    "Isle of Gods": lambda a: (
        f"Use Isle of Gods: pay $2 to remove the trouble marker from {_area(a.extra)}"
    ),
    "Unreal Estate": lambda a: "Use Unreal Estate: draw a card, then discard one",
}


def _power_text(a: Action) -> str:
    name = _area(a.area)
    if name in _POWER_TEXTS:
        text: str = _POWER_TEXTS[name](a)
        if name in ("Dolly Sisters", "Dimwell") and a.other >= 0:
            text += f" (lifting your minion from {_area(a.other)})"
        return text
    return f"Use {name}: take ${a.extra} from the bank"


def _protect_text(a: Action) -> str:
    if a.card < 0:
        return "Pay $3 (Small Gods) to ignore the event for this piece"
    return f"Play {_card(a.card)}"


# Which fields of each verb name a card, an area or a seat in JSON; the rest are ints.
_CARD_FIELDS: Final = {"card"}
_AREA_FIELDS: Final = {"area"}
_SEAT_FIELDS: Final = {"seat"}
_AREA_EXTRA_VERBS: Final = {
    "place_minion", "place_building", "move_minion", "replace_building", "swap_minions",
}
_SEAT_OTHER_VERBS: Final = {"swap_minions", "hubert"}


class Action(NamedTuple):
    """One decision: a verb and up to five small integers."""

    verb: str
    card: int = -1
    area: int = -1
    seat: int = -1
    extra: int = -1
    other: int = -1

    def __str__(self) -> str:
        text: str = _TEXTS[self.verb](self)
        return text

    def to_json(self) -> dict[str, Any]:
        """A JSON dict naming cards, areas and seats by name."""
        data: dict[str, Any] = {"verb": self.verb}
        if self.card >= 0:
            data["card"] = _card(self.card)
        if self.area >= 0:
            data["area"] = _area(self.area)
        if self.seat >= 0:
            data["seat"] = seat_name(self.seat)
        if self.extra >= 0:
            data["extra"] = _area(self.extra) if self.verb in _AREA_EXTRA_VERBS else self.extra
        if self.other >= 0:
            data["other"] = (
                seat_name(self.other) if self.verb in _SEAT_OTHER_VERBS else self.other
            )
        if self.verb == "power":
            name = _area(self.area)
            if name in ("The Shades", "Dolly Sisters", "Dimwell", "Isle of Gods"):
                data["extra"] = _area(self.extra)
            elif name == "The Scours":
                data["extra"] = _card(self.extra)
            if self.other >= 0:
                data["other"] = _area(self.other)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read an action dict; raise ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
            raise ValueError("an action must be an object with a 'verb'")
        verb = data["verb"]
        if verb not in _TEXTS:
            raise ValueError(f"unknown verb {verb!r}")
        unknown = set(data) - {"verb", "card", "area", "seat", "extra", "other"}
        if unknown:
            raise ValueError(f"unknown action fields {sorted(unknown)}")
        card = card_named(data["card"]).index if "card" in data else -1
        area = area_named(data["area"]).index if "area" in data else -1
        seat = _seat_from_name(data["seat"]) if "seat" in data else -1
        extra = _read_extra(verb, area, data.get("extra", -1))
        other = data.get("other", -1)
        if isinstance(other, str):
            other = (
                area_named(other).index if verb == "power" else _seat_from_name(other)
            )
        if not isinstance(extra, int) or not isinstance(other, int):
            raise ValueError("action fields 'extra' and 'other' must be numbers or names")
        return cls(verb, card, area, seat, extra, other)


_new_tuple: Final = tuple.__new__
_MADE: Final[dict[str, dict[int, Action]]] = {}
"""Every action ``act`` has built: by verb, then by its five numbers packed in one int."""


def act(verb: str, card: int = -1, area: int = -1, seat: int = -1, extra: int = -1,
        other: int = -1) -> Action:
    """``Action(verb, card, area, seat, extra, other)``: the one built before with these
    fields, else a new one, built without the named tuple's interpreted ``__new__``
    (legal-action lists are rebuilt at almost every step of a search)."""
    if not (-1 <= card < 255 and -1 <= area < 255 and -1 <= seat < 255 and -1 <= extra < 255
            and -1 <= other < 255):
        return _new_tuple(Action, (verb, card, area, seat, extra, other))
    key = (card + 1) | (area + 1) << 8 | (seat + 1) << 16 | (extra + 1) << 24 | (other + 1) << 32
    made = _MADE.get(verb)
    if made is None:
        made = _MADE[verb] = {}
    action = made.get(key)
    if action is None:
        action = made[key] = _new_tuple(Action, (verb, card, area, seat, extra, other))
    return action


def _read_extra(verb: str, area: int, raw: Any) -> int:
    if not isinstance(raw, str):
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise ValueError("action field 'extra' must be a number or a name")
        return raw
    if verb == "power" and area >= 0 and _area(area) == "The Scours":
        return card_named(raw).index
    return area_named(raw).index
