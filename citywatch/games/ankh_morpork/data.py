"""Ankh-Morpork's facts, loaded from the JSON files beside this module and checked once."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

PLACE_MINION: Final = "place_minion"
PLACE_BUILDING: Final = "place_building"
ASSASSINATE: Final = "assassinate"
REMOVE_TROUBLE: Final = "remove_trouble"
MONEY: Final = "money"
SCROLL: Final = "scroll"
RANDOM_EVENT: Final = "random_event"
PLAY_ANOTHER: Final = "play_another_card"
INTERRUPT: Final = "interrupt"
SYMBOL_KINDS: Final[tuple[str, ...]] = (
    PLACE_MINION, PLACE_BUILDING, ASSASSINATE, REMOVE_TROUBLE, MONEY, SCROLL,
    RANDOM_EVENT, PLAY_ANOTHER, INTERRUPT,
)
SYMBOL_NAMES: Final = {
    PLACE_MINION: "place a minion",
    PLACE_BUILDING: "place a building",
    ASSASSINATE: "assassination",
    REMOVE_TROUBLE: "remove a trouble marker",
    MONEY: "take money",
    SCROLL: "card text",
    RANDOM_EVENT: "random event",
    PLAY_ANOTHER: "play another card",
    INTERRUPT: "interrupt",
}

COLOURS: Final[tuple[str, ...]] = ("Red", "Blue", "Green", "Yellow")
TROLL: Final = 4
DEMON: Final = 5
PIECE_NAMES: Final = {TROLL: "troll", DEMON: "demon"}


class DataError(ValueError):
    """The game's data files are inconsistent."""


@dataclass(frozen=True)
class Symbol:
    """One symbol at the top of a card; ``amount`` is set for money symbols."""

    kind: str
    amount: int = 0

    def describe(self) -> str:
        """A short readable name."""
        if self.kind == MONEY:
            return f"take ${self.amount}"
        return SYMBOL_NAMES[self.kind]


@dataclass(frozen=True)
class Card:
    """A player card: symbols left to right, its text and its effect."""

    index: int
    id: str
    name: str
    deck: str
    symbols: tuple[Symbol, ...]
    text: str
    effect: str | None
    params: dict[str, Any]

    @property
    def is_interrupt(self) -> bool:
        """True for the six interrupt cards."""
        return any(s.kind == INTERRUPT for s in self.symbols)


@dataclass(frozen=True)
class Area:
    """A city area and its City Area card."""

    index: int
    number: int
    name: str
    cost: int
    adjacent: tuple[int, ...]
    borders_river: bool
    power: str
    power_kind: str
    power_params: dict[str, Any]


@dataclass(frozen=True)
class Event:
    """A random event card."""

    index: int
    name: str
    text: str


@dataclass(frozen=True)
class Personality:
    """A personality card."""

    index: int
    name: str
    wins_if: str


def _read(name: str) -> Any:
    path = resources.files(__package__).joinpath("data").joinpath(name)
    with path.open("r", encoding="utf-8") as f:
        return json.load(f)


def _symbol(raw: Any, card: str) -> Symbol:
    if isinstance(raw, str):
        if raw not in SYMBOL_KINDS or raw == MONEY:
            raise DataError(f"card {card!r} has unknown symbol {raw!r}")
        return Symbol(raw)
    if isinstance(raw, dict) and set(raw) == {MONEY} and isinstance(raw[MONEY], int):
        return Symbol(MONEY, raw[MONEY])
    raise DataError(f"card {card!r} has malformed symbol {raw!r}")


def _load() -> tuple[
    tuple[Card, ...], tuple[Area, ...], tuple[Event, ...], tuple[Personality, ...], dict[str, Any]
]:
    facts = _read("ankh-morpork.json")
    effect_file = _read("effects.json")
    effects = effect_file["effects"]
    powers = effect_file["area_powers"]
    cards = []
    for i, raw in enumerate(facts["player_cards"]):
        symbols = tuple(_symbol(s, raw["name"]) for s in raw["symbols"])
        spec = effects.get(raw["name"])
        needs = any(s.kind in (SCROLL, INTERRUPT) for s in symbols)
        if needs != (spec is not None):
            raise DataError(f"card {raw['name']!r}: effect entry does not match its symbols")
        params = {k: v for k, v in (spec or {}).items() if k != "effect"}
        cards.append(
            Card(i, raw["id"], raw["name"], raw["deck"], symbols, raw["text"],
                 None if spec is None else spec["effect"], params)
        )
    names = [c.name for c in cards]
    if len(set(names)) != len(names):
        raise DataError("card names are not unique")
    for name in effects:
        if name not in names:
            raise DataError(f"effects.json names unknown card {name!r}")
    for group in facts["same_text_groups"]:
        specs = {json.dumps(effects.get(n), sort_keys=True) for n in group}
        if len(specs) != 1:
            raise DataError(f"cards with the same text have different effects: {group}")
    areas = []
    for i, raw in enumerate(facts["city_areas"]):
        if raw["number"] != i + 1:
            raise DataError("city areas must be listed by number")
        if raw["name"] not in powers:
            raise DataError(f"area {raw['name']!r} has no power in effects.json")
        power = dict(powers[raw["name"]])
        kind = power.pop("power")
        areas.append(
            Area(i, raw["number"], raw["name"], raw["building_cost"],
                 tuple(n - 1 for n in raw["adjacent"]), raw["borders_river"], raw["power"],
                 kind, power)
        )
    for a in areas:
        for b in a.adjacent:
            if a.index not in areas[b].adjacent:
                raise DataError(f"adjacency of {a.name} and {areas[b].name} is not symmetric")
    events = tuple(Event(i, e["name"], e["text"]) for i, e in enumerate(facts["random_events"]))
    people = tuple(
        Personality(i, p["name"], p["wins_if"]) for i, p in enumerate(facts["personalities"])
    )
    if len(cards) != 101 or len(areas) != 12 or len(events) != 12 or len(people) != 7:
        raise DataError("expected 101 cards, 12 areas, 12 events and 7 personalities")
    return tuple(cards), tuple(areas), events, people, facts


_DATA = _load()
CARDS: Final = _DATA[0]
AREAS: Final = _DATA[1]
EVENTS: Final = _DATA[2]
PERSONALITIES: Final = _DATA[3]
FACTS: Final = _DATA[4]
COMPONENTS: Final[dict[str, Any]] = FACTS["components"]
SAME_TEXT_GROUPS: Final[list[list[str]]] = FACTS["same_text_groups"]

CARD_BY_NAME: Final = {c.name: c for c in CARDS}
AREA_BY_NAME: Final = {a.name: a for a in AREAS}
EVENT_BY_NAME: Final = {e.name: e for e in EVENTS}
PERSONALITY_BY_NAME: Final = {p.name: p for p in PERSONALITIES}
NUM_AREAS: Final = len(AREAS)
ADJACENT: Final[tuple[frozenset[int], ...]] = tuple(frozenset(a.adjacent) for a in AREAS)
ADJACENT_OR_SELF: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset((a.index, *a.adjacent)) for a in AREAS
)

MINIONS_PER_PLAYER: Final[int] = COMPONENTS["minions_per_player"]
BUILDINGS_PER_PLAYER: Final[int] = COMPONENTS["buildings_per_player"]
TROLLS: Final[int] = COMPONENTS["trolls"]
DEMONS: Final[int] = COMPONENTS["demons"]
STARTING_MONEY: Final[int] = COMPONENTS["starting_money"]
HAND_SIZE: Final[int] = COMPONENTS["hand_size"]
STARTING_AREAS: Final = tuple(AREA_BY_NAME[n].index for n in COMPONENTS["starting_areas"])
DIE: Final = 12

TWO_PLAYER_REMOVED_CARDS: Final[tuple[str, ...]] = ("Hubert", "Cosmo Lavish")
TWO_PLAYER_REMOVED_PERSONALITIES: Final[tuple[str, ...]] = ("Chrysoprase",)
VETINARI_AREAS: Final = {2: 11, 3: 10, 4: 9}
LORD_AREAS: Final = {2: 7, 3: 5, 4: 4}
DRAGON_KING_TROUBLE: Final = 8
CHRYSOPRASE_WORTH: Final = 50
RIOT_TROUBLE: Final = 8
SMALL_GODS_FEE: Final = 3

SMALL_GODS: Final = AREA_BY_NAME["Small Gods"].index
LORDS: Final[tuple[str, ...]] = ("Lord Selachii", "Lord Rust", "Lord de Worde")


def card_named(name: str) -> Card:
    """The card called ``name``; ``ValueError`` if there is none."""
    try:
        return CARD_BY_NAME[name]
    except KeyError:
        raise ValueError(f"no card is called {name!r}") from None


def area_named(name: str) -> Area:
    """The area called ``name``; ``ValueError`` if there is none."""
    try:
        return AREA_BY_NAME[name]
    except KeyError:
        raise ValueError(f"no area is called {name!r}") from None


# --- texts for players ------------------------------------------------------------------------
_SAME_CONDITION = re.compile(r"^Same condition as (?P<name>.+?)\.$")
_NOTES = (
    # "(no text)", "(no scroll; the printed line ... is flavour only)": the card has no text
    (re.compile(r"^\(no (?:text|scroll)[^)]*\)$"), ""),
    # cross-references between cards with the same text, and where a reading came from
    (re.compile(r"\s*\((?:same (?:text )?as|done by|card text:)[^)]*\)"), ""),
    (re.compile(r"Per FAQ: "), "This card "),
    (re.compile(r"\(FAQ: "), "("),
    (re.compile(r"; (?:two|three|\d+) sources add that (?P<rest>[^.]+)"), r" (\g<rest>)"),
)


def player_text(text: str) -> str:
    """A card, area, event or personality text as players read it: the research notes of
    the data file (cross-references, "Per FAQ", sources, "(no text)") taken out, and
    "Same condition as X." replaced by X's own text. The one place where they are taken out:
    the reference, the browser's facts and the terminal all show this."""
    same = _SAME_CONDITION.match(text)
    if same is not None:
        text = PERSONALITY_BY_NAME[same.group("name")].wins_if
    for pattern, replacement in _NOTES:
        text = pattern.sub(replacement, text)
    return text.strip()
