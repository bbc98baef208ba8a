"""Guards! Guards!'s facts: the board tiles, cards and tables of ``data/guards-guards.json``,
and the street names and place texts of ``data/places.json`` (citywatch's own).

The JSON is read and checked once, at import, by :func:`load`, and turned into frozen
dataclasses. Every id becomes a small int: its index in JSON order (tiles, volunteers, scrolls,
items, fate cards, dragons, guild cards, deck spaces), or its index in :data:`QUADRANTS`,
:data:`DECKS`, :data:`SPELL_COLOURS`. The ``op`` fields of cards and tables keep the JSON
objects, made read-only: dicts become ``MappingProxyType`` and lists become tuples.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

ATTRIBUTES: Final[tuple[str, ...]] = ("magic", "guild", "charm")
"""A player's three attributes, in Guild Card order."""
DECKS: Final[tuple[str, ...]] = ("lords_ladies", "man_beast", "shades_shadows")
"""The three Volunteer decks."""
DECK_NAMES: Final[tuple[str, ...]] = ("Lords & Ladies", "Man & Beast", "Shades & Shadows")
"""Readable names of :data:`DECKS`."""
STATS: Final[tuple[str, ...]] = ("loyalty", "streetwise", "brawl", "toughness")
"""A Volunteer's four stats, in card order."""

KINDS: Final[tuple[str, ...]] = (
    "street", "bridge", "volunteer_lords_ladies", "volunteer_man_beast",
    "volunteer_shades_shadows", "tavern", "temple", "merchant", "hospital", "watch_house",
    "guild_house", "spell", "start_gate", "curry_gardens", "sunshine_sanctuary",
)
"""Every tile kind the board may use."""
SHOP_KINDS: Final = {"odds_and_sods": "merchant", "curses_and_cures": "temple"}
"""The kind of shop each card deck (Items, Scrolls) is sold at."""

_FLAGS: Final = frozenset({"brethren", "fate", "wanted", "infectious"})
_GIFTS: Final = frozenset({"dollars", "scroll", "item"})
_DURATIONS: Final = frozenset({"instant", "until_healed", "this_turn", "turns"})
_NEAREST_PLACES: Final = frozenset({"nearest_hospital", "nearest_watch_house"})


class DataError(ValueError):
    """The game's data file is inconsistent."""


Op = Mapping[str, Any]
"""A card's or table's ``op`` object from the JSON, read-only (nested lists are tuples)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A walkable hex. ``quadrant`` is -1 for a border gate, whose ``border_of`` then holds its
    two quadrants (``()`` otherwise); ``colour`` is "" unless it is a spell tile or gate."""

    index: int
    id: str
    q: int
    r: int
    kind: str
    quadrant: int
    border_of: tuple[int, ...]
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Volunteer:
    """A Volunteer card. ``bribe`` is None for "X" (cannot be bribed); ``bonus`` is the Player
    Bonus as (magic, guild, charm) deltas; ``ability`` is the ability key or ""."""

    index: int
    id: str
    deck: int
    name: str
    charm: int
    bribe: int | None
    loyalty: int
    streetwise: int
    brawl: int
    toughness: int
    luggage_moves: int
    brethren: bool
    fate: bool
    wanted: bool
    infectious: bool
    bonus: tuple[int, int, int]
    gives_dollars: int
    gives_scroll: int
    gives_item: int
    magic_defence: int
    ability: str
    ability_text: str

    def stat(self, name: str) -> int:
        """The printed Loyalty, Streetwise, Brawl or Toughness (``name`` from :data:`STATS`)."""
        if name not in STATS:
            raise ValueError(f"unknown Volunteer stat {name!r}")
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True, slots=True)
class Scroll:
    """A Curses & Cures scroll. ``turns`` is 0 unless ``duration`` is "turns"; the defence
    fields are "" / 0 when the scroll allows no defence roll."""

    index: int
    id: str
    name: str
    price: int
    magic_target: int
    target: str
    op: Op
    effect: str
    duration: str
    turns: int
    defence_attribute: str
    defence_of: str
    defence_target: int


@dataclass(frozen=True, slots=True)
class Item:
    """An Odds & Sods item. ``bonus`` holds (stat, delta) pairs for the Volunteer carrying it;
    ``op`` is its special effect, or None for plain equipment."""

    index: int
    id: str
    name: str
    price: int
    kind: str
    magical: bool
    single_use: bool
    bonus: tuple[tuple[str, int], ...]
    op: Op | None
    effect: str

    def bonus_for(self, stat: str) -> int:
        """The change this item makes to ``stat`` (0 if none)."""
        for name, delta in self.bonus:
            if name == stat:
                return delta
        return 0


@dataclass(frozen=True, slots=True)
class FateCard:
    """A Fate card and the ops it applies, in order."""

    index: int
    id: str
    name: str
    effect: str
    ops: tuple[Op, ...]


@dataclass(frozen=True, slots=True)
class Dragon:
    """A Dragon card."""

    index: int
    id: str
    name: str
    brawl: int
    toughness: int


@dataclass(frozen=True, slots=True)
class GuildCard:
    """A Guild Card. ``guild`` is a quadrant index, ``guild_house`` a tile index, ``gates`` the
    tile indexes (ascending) of the Start Gates it may start on (ruling 3), ``start`` the
    starting (magic, guild, charm), ``spells`` its five spell colour indexes."""

    index: int
    id: str
    guild: int
    name: str
    guild_house: int
    gates: tuple[int, ...]
    start: tuple[int, int, int]
    spells: tuple[int, ...]
    ambush_bonus: int
    ability_key: str
    ability_name: str
    ability_text: str
    ability_test_target: int
    defence_attribute: str
    defence_of: str
    defence_target: int
    fire_water: int


@dataclass(frozen=True, slots=True)
class TavernResult:
    """One line of the Tavern table (``roll`` 1-8)."""

    roll: int
    name: str
    effect: str
    op: Op


@dataclass(frozen=True, slots=True)
class Challenge:
    """A Wizards' Challenge; each test is (attribute, source "runners"/"player", target)."""

    number: int
    name: str
    tests: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True, slots=True)
class DeckSpace:
    """A deck space on the board: ``deck`` is "odds_and_sods" or "curses_and_cures", ``shop``
    the tile index of its nearest shop, ``cards`` how many cards it takes at setup."""

    index: int
    id: str
    deck: str
    shop: int
    cards: int


@dataclass(frozen=True, slots=True)
class LuggageTrack:
    """The Luggage's track as tile indexes: ``before`` the split, then the ``grey`` or the
    ``orange`` branch, then ``after``, and back to the first tile (ruling 79)."""

    start: int
    before: tuple[int, ...]
    grey: tuple[int, ...]
    orange: tuple[int, ...]
    after: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything :func:`load` makes of the JSON; the module's constants are its fields."""

    quadrants: tuple[str, ...]
    spell_colours: tuple[str, ...]
    spell_names: tuple[str, ...]
    spell_tiles: tuple[int, ...]
    tiles: tuple[Tile, ...]
    colours: tuple[str, ...]
    start_gates: tuple[int, ...]
    guild_houses: tuple[int, ...]
    volunteers: tuple[Volunteer, ...]
    scrolls: tuple[Scroll, ...]
    items: tuple[Item, ...]
    fate_cards: tuple[FateCard, ...]
    dragons: tuple[Dragon, ...]
    guild_cards: tuple[GuildCard, ...]
    tavern: tuple[TavernResult, ...]
    challenges: tuple[Challenge, ...]
    deck_spaces: tuple[DeckSpace, ...]
    walls: tuple[tuple[int, int], ...]
    luggage: LuggageTrack
    university_hexes: frozenset[tuple[int, int]]
    river_hexes: frozenset[tuple[int, int]]
    constants: Op
    uses: Mapping[str, str]
    """What one does at each kind of tile (``places.json``); no entry for a street."""


def _freeze(value: Any) -> Any:
    """A read-only copy of a JSON value: dicts become mapping proxies, lists tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _int(value: Any, where: str, low: int = -1_000, high: int = 1_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DataError(f"{where}: expected a whole number in {low}..{high}, got {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise DataError(f"{where}: expected a non-empty text, got {value!r}")
    return value


def _choice(value: Any, options: tuple[str, ...], where: str) -> int:
    if value not in options:
        raise DataError(f"{where}: {value!r} is not one of {', '.join(options)}")
    return options.index(value)


def _unique(ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise DataError(f"{what} id {i!r} is used twice")
        seen.add(i)


def _tile_name(raw: Mapping[str, Any], kind: str, colour: str) -> str:
    name = raw.get("name")
    if isinstance(name, str) and name:
        return name
    if kind == "spell":
        return f"{colour.capitalize()} spell tile"
    if kind == "start_gate":
        return f"{colour.capitalize()} Start Gate"
    return f"{kind.replace('_', ' ').capitalize()} {raw['q']},{raw['r']}"


def _street_names(board: Mapping[str, Any], places: Mapping[str, Any]) -> dict[str, str]:
    """``places.json``'s street names by tile id: every street named once, nothing else."""
    _unique([str(t.get("id")) for t in board["tiles"]], "tile")
    kinds = {str(t.get("id")): t.get("kind") for t in board["tiles"]}
    names: dict[str, str] = {}
    for pair in places.get("streets") or ():
        if not isinstance(pair, list) or len(pair) != 2:
            raise DataError(f"places.json streets: {pair!r} is not a [tile id, name] pair")
        tid, name = pair
        if tid not in kinds:
            raise DataError(f"places.json streets: unknown tile id {tid!r}")
        if kinds[tid] != "street":
            raise DataError(f"places.json streets: {tid} is not a street tile")
        if tid in names:
            raise DataError(f"places.json streets: {tid} is named twice")
        names[tid] = _str(name, f"places.json street {tid}")
    missing = [tid for tid, kind in kinds.items() if kind == "street" and tid not in names]
    if missing:
        raise DataError(f"places.json streets: no name for {', '.join(missing[:5])}")
    return names


def _uses(places: Mapping[str, Any]) -> Mapping[str, str]:
    """``places.json``'s uses: a text for every kind of tile but the street."""
    uses = places.get("uses") or {}
    wanted = set(KINDS) - {"street"}
    if set(uses) != wanted:
        raise DataError(f"places.json uses: needs exactly the kinds {sorted(wanted)}")
    return MappingProxyType({k: _str(uses[k], f"places.json use of {k}") for k in KINDS
                             if k in uses})


def _tiles(board: Mapping[str, Any], quadrants: tuple[str, ...],
           streets: Mapping[str, str]) -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    coords: set[tuple[int, int]] = set()
    _unique([str(t.get("id")) for t in board["tiles"]], "tile")
    for i, raw in enumerate(board["tiles"]):
        tid = _str(raw.get("id"), f"tile {i}")
        q, r = _int(raw.get("q"), f"tile {tid} q"), _int(raw.get("r"), f"tile {tid} r")
        if (q, r) in coords:
            raise DataError(f"tile {tid}: another tile already stands on hex ({q}, {r})")
        coords.add((q, r))
        kind = KINDS[_choice(raw.get("kind"), KINDS, f"tile {tid} kind")]
        colour = raw.get("colour") or ""
        if not isinstance(colour, str) or (kind in ("spell", "start_gate") and not colour):
            raise DataError(f"tile {tid}: spell tiles and start gates need a colour")
        if raw.get("quadrant") is None:
            border = raw.get("border_of") or []
            if kind != "start_gate" or len(border) != 2 or len(set(border)) != 2:
                raise DataError(f"tile {tid}: only a border start gate may have no quadrant, "
                                "and it must name the two quadrants it borders")
            quadrant = -1
            border_of = tuple(_choice(b, quadrants, f"tile {tid} border_of") for b in border)
        else:
            if raw.get("border_of"):
                raise DataError(f"tile {tid}: a tile with a quadrant cannot border two")
            quadrant = _choice(raw["quadrant"], quadrants, f"tile {tid} quadrant")
            border_of = ()
        name = streets[tid] if kind == "street" else _tile_name(raw, kind, colour)
        tiles.append(Tile(i, tid, q, r, kind, quadrant, border_of, name, colour))
    seen: dict[str, str] = {}
    for t in tiles:
        for key in {t.id.lower(), t.name.lower()}:
            if key in seen and seen[key] != t.id:
                raise DataError(f"tiles {seen[key]} and {t.id} share the name or id {key!r}")
            seen[key] = t.id
    return tuple(tiles)


def _gate_colours(tiles: tuple[Tile, ...], centre: tuple[float, float],
                  quadrants: tuple[str, ...]) -> tuple[int, ...]:
    """The start gates clockwise around the University, the first quadrant's own gate first."""
    gates = [t for t in tiles if t.kind == "start_gate"]
    if len(gates) != 6 or len({g.colour for g in gates}) != 6:
        raise DataError("the board needs six start gates of six different colours")

    def angle(t: Tile) -> float:
        x, y = _pixel(t.q, t.r)
        return math.atan2(x - centre[0], centre[1] - y) % (2 * math.pi)

    gates.sort(key=angle)
    first = next((k for k, g in enumerate(gates) if g.quadrant == 0), None)
    if first is None:
        raise DataError(f"the {quadrants[0]} quadrant has no start gate of its own")
    return tuple(g.index for g in gates[first:] + gates[:first])


def _pixel(q: int, r: int) -> tuple[float, float]:
    return 1.5 * q, math.sqrt(3) * (r + q / 2)


def _volunteer(i: int, raw: Mapping[str, Any]) -> Volunteer:
    vid = _str(raw.get("id"), f"volunteer {i}")
    deck = _choice(raw.get("deck"), DECKS, f"volunteer {vid} deck")
    bribe = raw.get("bribe")
    stats = {s: _int(raw.get(s), f"volunteer {vid} {s}", 0, 12) for s in STATS}
    flags = set(raw.get("flags") or ())
    if not flags <= _FLAGS:
        raise DataError(f"volunteer {vid}: unknown flags {sorted(flags - _FLAGS)}")
    bonus_raw = raw.get("player_bonus") or {}
    if not set(bonus_raw) <= set(ATTRIBUTES):
        raise DataError(f"volunteer {vid}: player_bonus may change only {', '.join(ATTRIBUTES)}")
    m, g, c = (_int(bonus_raw.get(a, 0), f"volunteer {vid} bonus", -10, 10) for a in ATTRIBUTES)
    gives = raw.get("gives") or {}
    if not set(gives) <= _GIFTS:
        raise DataError(f"volunteer {vid}: unknown gifts {sorted(set(gives) - _GIFTS)}")
    dollars, scroll, item = (_int(gives.get(k, 0), f"volunteer {vid} gives", 0, 20)
                             for k in ("dollars", "scroll", "item"))
    ability = raw.get("ability")
    if ability is not None and not (ability.get("key") and ability.get("text")):
        raise DataError(f"volunteer {vid}: an ability needs a key and a text")
    return Volunteer(
        index=i, id=vid, deck=deck, name=_str(raw.get("name"), f"volunteer {vid} name"),
        charm=_int(raw.get("charm"), f"volunteer {vid} charm", 0, 20),
        bribe=None if bribe == "X" else _int(bribe, f"volunteer {vid} bribe", 0, 100),
        loyalty=stats["loyalty"], streetwise=stats["streetwise"], brawl=stats["brawl"],
        toughness=stats["toughness"],
        luggage_moves=_int(raw.get("luggage_moves"), f"volunteer {vid} luggage_moves", 0, 20),
        brethren="brethren" in flags, fate="fate" in flags, wanted="wanted" in flags,
        infectious="infectious" in flags, bonus=(m, g, c),
        gives_dollars=dollars, gives_scroll=scroll, gives_item=item,
        magic_defence=_int(raw.get("magic_defence", 0), f"volunteer {vid} magic_defence", 0, 10),
        ability="" if ability is None else str(ability["key"]),
        ability_text="" if ability is None else str(ability["text"]),
    )


def _op(raw: Any, where: str) -> Op:
    if not isinstance(raw, dict) or not isinstance(raw.get("op"), str):
        raise DataError(f"{where}: an op must be an object with an 'op' name")
    frozen: Op = _freeze(raw)
    return frozen


def _scroll(i: int, raw: Mapping[str, Any]) -> Scroll:
    sid = _str(raw.get("id"), f"scroll {i}")
    duration = raw.get("duration")
    if duration not in _DURATIONS:
        raise DataError(f"scroll {sid}: unknown duration {duration!r}")
    turns = _int(raw.get("turns"), f"scroll {sid} turns", 1, 20) if duration == "turns" else 0
    defence = raw.get("defence") or {}
    if defence and not (defence.get("attribute") and defence.get("of")):
        raise DataError(f"scroll {sid}: a defence roll needs an attribute and whose it is")
    return Scroll(
        i, sid, _str(raw.get("name"), f"scroll {sid} name"),
        _int(raw.get("price"), f"scroll {sid} price", 0, 100),
        _int(raw.get("magic_target"), f"scroll {sid} magic_target", 0, 20),
        _str(raw.get("target"), f"scroll {sid} target"), _op(raw.get("op"), f"scroll {sid}"),
        _str(raw.get("effect"), f"scroll {sid} effect"), duration, turns,
        str(defence.get("attribute", "")), str(defence.get("of", "")),
        _int(defence.get("target", 0), f"scroll {sid} defence target", 0, 20),
    )


def _item(i: int, raw: Mapping[str, Any]) -> Item:
    iid = _str(raw.get("id"), f"item {i}")
    bonus = raw.get("bonus") or {}
    if not set(bonus) <= set(STATS):
        raise DataError(f"item {iid}: bonuses apply only to {', '.join(STATS)}")
    op = raw.get("op")
    return Item(
        i, iid, _str(raw.get("name"), f"item {iid} name"),
        _int(raw.get("price"), f"item {iid} price", 0, 100),
        _str(raw.get("kind"), f"item {iid} kind"),
        bool(raw.get("magical")), bool(raw.get("single_use")),
        tuple((s, _int(bonus[s], f"item {iid} bonus", -10, 10)) for s in STATS if s in bonus),
        None if op is None else _op(op, f"item {iid}"),
        _str(raw.get("effect"), f"item {iid} effect"),
    )


def _fate(i: int, raw: Mapping[str, Any], tile_ids: Mapping[str, int]) -> FateCard:
    fid = _str(raw.get("id"), f"fate card {i}")
    ops = tuple(_op(o, f"fate card {fid}") for o in raw.get("ops") or ())
    if not ops:
        raise DataError(f"fate card {fid}: needs at least one op")
    for o in ops:
        place = o.get("place")
        if o["op"] == "go_to" and place not in _NEAREST_PLACES and place not in tile_ids:
            raise DataError(f"fate card {fid}: go_to names unknown tile {place!r}")
    return FateCard(i, fid, _str(raw.get("name"), f"fate card {fid} name"),
                    _str(raw.get("effect"), f"fate card {fid} effect"), ops)


def _guild_card(i: int, raw: Mapping[str, Any], quadrants: tuple[str, ...],
                spell_colours: tuple[str, ...], tiles: tuple[Tile, ...],
                tile_ids: Mapping[str, int], houses: tuple[int, ...]) -> GuildCard:
    gid = _str(raw.get("id"), f"guild card {i}")
    guild = _choice(raw.get("guild"), quadrants, f"guild card {gid} guild")
    house = tile_ids.get(raw.get("guild_house", ""), -1)
    if house != houses[guild]:
        raise DataError(f"guild card {gid}: guild_house {raw.get('guild_house')!r} is not the "
                        f"{quadrants[guild]} Guild House")
    own = [t.index for t in tiles if t.kind == "start_gate" and t.quadrant == guild]
    border = [t.index for t in tiles if t.kind == "start_gate" and guild in t.border_of]
    if len(own) != 1 or len(border) != 1:
        raise DataError(f"guild card {gid}: the {quadrants[guild]} quadrant needs one gate of "
                        f"its own and one border gate (ruling 3), found {len(own)} and "
                        f"{len(border)}")
    start = raw.get("start") or {}
    m, g, c = (_int(start.get(a), f"guild card {gid} start {a}", 0, 10) for a in ATTRIBUTES)
    spells = tuple(_choice(s, spell_colours, f"guild card {gid} great_spells")
                   for s in raw.get("great_spells") or ())
    if len(spells) != 5 or len(set(spells)) != 5:
        raise DataError(f"guild card {gid}: needs five different Great Spells")
    ambush = [s for s in raw.get("sabotage_skills") or () if s.get("skill") == "ambush"]
    if len(ambush) != 1:
        raise DataError(f"guild card {gid}: needs exactly one Ambush sabotage skill")
    ability = raw.get("guild_ability") or {}
    test = ability.get("test") or {}
    defence = ability.get("defence") or {}
    return GuildCard(
        i, gid, guild, _str(raw.get("name"), f"guild card {gid} name"), house,
        tuple(sorted(own + border)), (m, g, c), spells,
        _int(ambush[0].get("saboteur_brawl_bonus", 0), f"guild card {gid} ambush", -10, 10),
        _str(ability.get("key"), f"guild card {gid} ability key"),
        _str(ability.get("name"), f"guild card {gid} ability name"),
        _str(ability.get("effect"), f"guild card {gid} ability effect"),
        _int(test.get("target"), f"guild card {gid} ability test target", 0, 20),
        _str(defence.get("attribute"), f"guild card {gid} defence attribute"),
        _str(defence.get("of"), f"guild card {gid} defence of"),
        _int(defence.get("target"), f"guild card {gid} defence target", 0, 20),
        _int((raw.get("tokens") or {}).get("fire_water", 0), f"guild card {gid} tokens", 0, 20),
    )


def _ref(tile_ids: Mapping[str, int], tid: Any, where: str) -> int:
    if tid not in tile_ids:
        raise DataError(f"{where}: unknown tile id {tid!r}")
    return tile_ids[tid]


def _luggage(raw: Mapping[str, Any], tile_ids: Mapping[str, int]) -> LuggageTrack:
    track = raw.get("track") or []
    splits = [k for k, e in enumerate(track) if isinstance(e, dict)]
    if len(splits) != 1:
        raise DataError(f"the Luggage track needs exactly one split, found {len(splits)}")
    k = splits[0]
    split = track[k].get("split") or {}
    grey, orange = split.get("grey") or [], split.get("orange") or []
    if not grey or not orange or k == 0 or k == len(track) - 1:
        raise DataError("the Luggage split needs a tile before it, two branches and a tile "
                        "after it")
    every = track[:k] + grey + orange + track[k + 1:]
    _unique(every, "Luggage track tile")
    ids = {name: tuple(_ref(tile_ids, x, "Luggage track") for x in part) for name, part in
           (("before", track[:k]), ("grey", grey), ("orange", orange), ("after", track[k + 1:]))}
    start = _ref(tile_ids, raw.get("start"), "Luggage start")
    if start not in {t for part in ids.values() for t in part}:
        raise DataError("the Luggage must start on its track")
    return LuggageTrack(start, ids["before"], ids["grey"], ids["orange"], ids["after"])


def load(raw: Mapping[str, Any], places: Mapping[str, Any] | None = None) -> GameData:
    """Check the parsed JSON (and ``places.json``'s, the packaged one if None) and build every
    table; :class:`DataError` names any problem."""
    try:
        return _load(raw, _read("places.json") if places is None else places)
    except DataError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise DataError(f"malformed game data ({type(exc).__name__}: {exc})") from exc


def _load(raw: Mapping[str, Any], places: Mapping[str, Any]) -> GameData:
    board = raw["board"]
    quadrants = tuple(board["clockwise_quadrants"])
    if sorted(quadrants) != sorted(board["quadrants"]) or len(quadrants) != 4:
        raise DataError("clockwise_quadrants must list the four quadrants once each")
    if tuple(raw["attribute_track"]["attributes"]) != ATTRIBUTES:
        raise DataError(f"the attribute track must be {ATTRIBUTES}")
    tiles = _tiles(board, quadrants, _street_names(board, places))
    tile_ids = {t.id: t.index for t in tiles}
    coords = {(t.q, t.r) for t in tiles}

    university = frozenset((int(h[0]), int(h[1])) for h in board["unseen_university"]["hexes"])
    river = frozenset((int(h[0]), int(h[1])) for h in board["river"]["hexes"])
    if university & coords or river & coords:
        raise DataError("a listed tile lies on a University or river hex")

    houses = []
    for q in quadrants:
        h = _ref(tile_ids, board["quadrants"][q].get("guild_house"), f"quadrant {q} guild_house")
        if tiles[h].kind != "guild_house" or quadrants[tiles[h].quadrant] != q:
            raise DataError(f"quadrant {q}: {tiles[h].id} is not a Guild House in it")
        houses.append(h)
    guild_houses = tuple(houses)

    spells = raw["great_spells"]
    spell_colours = tuple(_str(s.get("colour"), "great spell colour") for s in spells)
    spell_names = tuple(_str(s.get("name"), "great spell name") for s in spells)
    spell_tiles = tuple(_ref(tile_ids, s.get("tile"), f"spell {s['colour']}") for s in spells)
    if len(set(spell_colours)) != len(spells) or len(set(spell_tiles)) != len(spells):
        raise DataError("Great Spells need distinct colours and tiles")
    for colour, t in zip(spell_colours, spell_tiles, strict=True):
        if tiles[t].kind != "spell" or tiles[t].colour != colour:
            raise DataError(f"spell {colour}: tile {tiles[t].id} is not the {colour} spell tile")
    if sum(t.kind == "spell" for t in tiles) != len(spells):
        raise DataError("every spell tile needs a Great Spell")

    centre = board["unseen_university"]["centre"]
    start_gates = _gate_colours(tiles, _pixel(int(centre[0]), int(centre[1])), quadrants)
    colours = tuple(tiles[g].colour.capitalize() for g in start_gates)

    volunteers = tuple(_volunteer(i, v) for i, v in enumerate(raw["volunteers"]))
    _unique([v.id for v in volunteers], "volunteer")
    scrolls = tuple(_scroll(i, s) for i, s in enumerate(raw["scrolls"]))
    _unique([s.id for s in scrolls], "scroll")
    items = tuple(_item(i, s) for i, s in enumerate(raw["items"]))
    _unique([s.id for s in items], "item")
    fates = tuple(_fate(i, f, tile_ids) for i, f in enumerate(raw["fate_cards"]))
    _unique([f.id for f in fates], "fate card")
    dragons = tuple(
        Dragon(i, _str(d.get("id"), f"dragon {i}"), _str(d.get("name"), f"dragon {i} name"),
               _int(d.get("brawl"), f"dragon {i} brawl", 0, 50),
               _int(d.get("toughness"), f"dragon {i} toughness", 0, 50))
        for i, d in enumerate(raw["dragons"])
    )
    guild_cards = tuple(
        _guild_card(i, g, quadrants, spell_colours, tiles, tile_ids, guild_houses)
        for i, g in enumerate(raw["guilds"])
    )
    _unique([g.id for g in guild_cards], "guild card")

    tavern = tuple(
        TavernResult(_int(t.get("roll"), "tavern roll", 1, 8), _str(t.get("name"), "tavern name"),
                     _str(t.get("effect"), "tavern effect"), _op(t.get("op"), "tavern result"))
        for t in sorted(raw["tavern_table"], key=lambda t: t.get("roll", 0))
    )
    if [t.roll for t in tavern] != list(range(1, 9)):
        raise DataError("the Tavern table needs one result for each roll 1 to 8")

    challenges = []
    for n, ch in enumerate(raw["wizards_challenges"], start=1):
        if ch.get("number") != n:
            raise DataError("Wizards' Challenges must be numbered 1, 2, 3... in order")
        tests = []
        for test in ch.get("tests") or ():  # not ``t``: an int above (mypyc checks it)
            attr = test.get("attribute")
            if attr not in STATS + ATTRIBUTES or test.get("source") not in ("runners", "player"):
                raise DataError(f"challenge {n}: bad test {test!r}")
            tests.append((str(attr), str(test["source"]),
                          _int(test.get("target"), "test", 0, 50)))
        if not tests:
            raise DataError(f"challenge {n}: needs at least one test")
        challenges.append(Challenge(n, _str(ch.get("name"), f"challenge {n}"), tuple(tests)))

    deck_spaces = []
    for i, d in enumerate(board["deck_spaces"]):
        did = _str(d.get("id"), f"deck space {i}")
        deck = d.get("deck")
        if deck not in SHOP_KINDS:
            raise DataError(f"deck space {did}: unknown deck {deck!r}")
        shop = _ref(tile_ids, d.get("nearest_shop"), f"deck space {did}")
        if tiles[shop].kind != SHOP_KINDS[deck]:
            raise DataError(f"deck space {did}: its shop must be a {SHOP_KINDS[deck]}")
        deck_spaces.append(DeckSpace(i, did, deck, shop,
                                     _int(d.get("cards_at_setup"), f"deck space {did}", 0, 50)))
    if set(SHOP_KINDS) - {d.deck for d in deck_spaces}:
        raise DataError("the board needs a deck space for Items and one for Scrolls")

    walls = []
    for w in board.get("walls") or ():
        a, b = (_ref(tile_ids, x, "wall") for x in w)
        ta, tb = tiles[a], tiles[b]
        dq, dr = ta.q - tb.q, ta.r - tb.r
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 != 1:
            raise DataError(f"wall {w}: its tiles are not adjacent")
        walls.append((a, b))

    for kind in ("curry_gardens", "sunshine_sanctuary"):
        if sum(t.kind == kind for t in tiles) != 1:
            raise DataError(f"the board needs exactly one {kind} tile")
    for deck in DECKS:
        if not any(t.kind == f"volunteer_{deck}" for t in tiles):
            raise DataError(f"the board has no {deck} Volunteer tile")

    return GameData(
        quadrants, spell_colours, spell_names, spell_tiles, tiles, colours, start_gates,
        guild_houses, volunteers, scrolls, items, fates, dragons, guild_cards, tavern,
        tuple(challenges), tuple(deck_spaces), tuple(walls), _luggage(board["luggage"], tile_ids),
        university, river, _freeze(dict(raw["rules_constants"])), _uses(places),
    )


def _read(name: str = "guards-guards.json") -> Any:
    path = resources.files(__package__).joinpath("data").joinpath(name)
    with path.open("r", encoding="utf-8") as f:
        return json.load(f)


GAME: Final = load(_read())
"""All the game's facts; the names below are its fields."""

QUADRANTS: Final[tuple[str, ...]] = GAME.quadrants
"""The quadrants clockwise from the north-west: thieves, assassins, alchemists, fools."""
SPELL_COLOURS: Final[tuple[str, ...]] = GAME.spell_colours
"""The eight Great Spell colours (lower case), in JSON order."""
SPELL_NAMES: Final[tuple[str, ...]] = GAME.spell_names
"""The Great Spells' names, by colour index."""
SPELL_TILES: Final[tuple[int, ...]] = GAME.spell_tiles
"""The spell tile of each colour index."""
TILES: Final[tuple[Tile, ...]] = GAME.tiles
"""Every walkable tile, in JSON order."""
TILE_INDEX: Final[dict[str, int]] = {t.id: t.index for t in TILES}
"""JSON tile id -> tile index."""
COLOURS: Final[tuple[str, ...]] = GAME.colours
"""The six player colours (the start gates' colours, capitalised), clockwise round the
University from the Thieves' own gate: Red, Blue, Black, White, Yellow, Green."""
START_GATES: Final[tuple[int, ...]] = GAME.start_gates
"""The six start gates' tiles, in :data:`COLOURS` order."""
GUILD_HOUSES: Final[tuple[int, ...]] = GAME.guild_houses
"""Each quadrant's Guild House tile; also the Guild Houses in clockwise order (ruling 72)."""
VOLUNTEERS: Final[tuple[Volunteer, ...]] = GAME.volunteers
"""All 90 Volunteer cards, in JSON order."""
SCROLLS: Final[tuple[Scroll, ...]] = GAME.scrolls
"""The Curses & Cures scrolls."""
ITEMS: Final[tuple[Item, ...]] = GAME.items
"""The Odds & Sods items."""
FATE_CARDS: Final[tuple[FateCard, ...]] = GAME.fate_cards
"""The Fate cards."""
DRAGONS: Final[tuple[Dragon, ...]] = GAME.dragons
"""The Dragon cards."""
GUILD_CARDS: Final[tuple[GuildCard, ...]] = GAME.guild_cards
"""The eight Guild Cards."""
TAVERN: Final[tuple[TavernResult, ...]] = GAME.tavern
"""The Tavern table; ``TAVERN[roll - 1]`` is the result for ``roll``."""
CHALLENGES: Final[tuple[Challenge, ...]] = GAME.challenges
"""The five Wizards' Challenges; ``CHALLENGES[n - 1]`` is challenge ``n``."""
DECK_SPACES: Final[tuple[DeckSpace, ...]] = GAME.deck_spaces
"""The four Item and Scroll deck spaces."""
ITEM_DECKS: Final[tuple[int, ...]] = tuple(
    d.index for d in DECK_SPACES if d.deck == "odds_and_sods"
)
"""The Odds & Sods (Items) deck spaces."""
SCROLL_DECKS: Final[tuple[int, ...]] = tuple(
    d.index for d in DECK_SPACES if d.deck == "curses_and_cures"
)
"""The Curses & Cures (Scrolls) deck spaces."""
WALLS: Final[tuple[tuple[int, int], ...]] = GAME.walls
"""Pairs of adjacent tiles with no passage between them."""
LUGGAGE_TRACK: Final[LuggageTrack] = GAME.luggage
"""The Luggage's track (see ``board`` for the next-tile table)."""
UNIVERSITY_HEXES: Final[frozenset[tuple[int, int]]] = GAME.university_hexes
"""The Unseen University's (q, r) hexes (impassable)."""
RIVER_HEXES: Final[frozenset[tuple[int, int]]] = GAME.river_hexes
"""The River Ankh's (q, r) hexes (impassable; bridges cross it)."""
CONSTANTS: Final[Op] = GAME.constants
"""The JSON's ``rules_constants``, read-only."""
USES: Final[Mapping[str, str]] = GAME.uses
"""What one does at each kind of tile but the street, in words (``places.json``)."""


def _of_kind(kind: str) -> tuple[int, ...]:
    return tuple(t.index for t in TILES if t.kind == kind)


HOSPITALS: Final = _of_kind("hospital")
"""The Hospital tiles."""
WATCH_HOUSES: Final = _of_kind("watch_house")
"""The Watch House tiles."""
MERCHANTS: Final = _of_kind("merchant")
"""The merchant (Odds & Sods shop) tiles."""
TEMPLES: Final = _of_kind("temple")
"""The temple (Curses & Cures shop) tiles."""
TAVERNS: Final = _of_kind("tavern")
"""The Tavern tiles."""
CURRY_GARDENS: Final[int] = _of_kind("curry_gardens")[0]
"""The Curry Gardens tile."""
SUNSHINE_SANCTUARY: Final[int] = _of_kind("sunshine_sanctuary")[0]
"""The Sunshine Sanctuary for Sick Dragons tile."""
VOLUNTEER_TILES: Final[dict[int, int]] = {
    t.index: DECKS.index(t.kind.removeprefix("volunteer_"))
    for t in TILES if t.kind.startswith("volunteer_")
}
"""Volunteer tile -> the index in :data:`DECKS` of the deck recruited there."""

_BY_NAME: Final[dict[str, int]] = {}
for _t in TILES:
    _BY_NAME[_t.id.lower()] = _t.index
    _BY_NAME[_t.name.lower()] = _t.index
for _t in TILES:  # the names streets had before places.json, for old records (issue 27)
    if _t.kind == "street":
        _BY_NAME.setdefault(f"street {_t.q},{_t.r}", _t.index)
del _t


def tile_named(text: str) -> Tile:
    """The tile whose id, name or old name ("Street q,r" for a street) is ``text``
    (case-insensitive); ``ValueError`` if none."""
    try:
        return TILES[_BY_NAME[text.strip().lower()]]
    except KeyError:
        raise ValueError(f"no tile has the id or name {text!r}") from None
