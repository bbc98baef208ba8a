"""Guardians of the City Vol.2's facts: ``data/guardians-of-the-city.json`` as frozen dataclasses.

The JSON (citywatch's stand-in card set, copied from ``shared/reference/guardians-of-the-city``)
is read and checked once, at import, by :func:`load`. Every card design becomes a small int,
its index in JSON order (``ACTION_CARDS``, ``CRISIS_CARDS``); pillars, Citizen Groups and
Terrorist Cells are indexes into :data:`PILLARS`, :data:`GROUPS`, :data:`CELLS`. A card's
effect is a tuple of :class:`Op`, each checked against the file's own ``effect_language``
(the op's fields, the card kinds it may appear on, continuous ops only while active).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final


class DataError(ValueError):
    """The game's data file is inconsistent."""


PILLAR_NAMES: Final[tuple[str, ...]] = ("Military", "Civil", "Economic", "Social", "Psychological")
"""The five Total Defence pillars, in rulebook order (section 3)."""
ACTION_KINDS: Final[tuple[str, ...]] = ("action", "galvanised_people", "special_intelligence")
"""The kinds of Action card."""
CRISIS_KINDS: Final[tuple[str, ...]] = ("crisis", "subversive")
"""The kinds of Crisis card."""
CELL_TARGETS: Final[tuple[str, ...]] = ("choose", "each", "weakest", "strongest")
"""The ``target`` selectors of the Terrorist Cell ops."""
GROUP_SELECTORS: Final[tuple[str, ...]] = ("choose", "lowest", "highest", "each")
"""The ``group`` selectors other than a group's name."""
WHO_FORMS: Final[tuple[str, ...]] = ("all", "at_most", "at_least", "lowest", "highest")
"""The forms of a ``who`` player selector."""
SPECIAL_INTELLIGENCE_TEXT: Final = ("Remove one active SUBVERSIVE card from play. "
                                    "Add this SPECIAL INTELLIGENCE card to your Score.")
"""The Special Intelligence card's text, quoted by the rulebook (section 8)."""


@dataclass(frozen=True, slots=True)
class Who:
    """A player selector: ``form`` is one of :data:`WHO_FORMS`; ``pillar`` its pillar (-1 for
    ``all``); ``value`` the bound of ``at_most`` / ``at_least`` (0 otherwise)."""

    form: str
    pillar: int = -1
    value: int = 0


@dataclass(frozen=True, slots=True)
class Op:
    """One op of the effect language. Unused fields keep their defaults; ``pillar`` -1 in a
    ``boost_effort_vs_crisis`` op means the paired card's pillar."""

    name: str
    amount: int = 0
    target: str = ""
    cells: int = 1
    group: str = ""
    groups: int = 1
    who: Who | None = None
    pillar: int = -1
    at_least: int = 0
    then: tuple[Op, ...] = ()
    ops: tuple[str, ...] = ()
    count: int = 0
    exclude_kinds: tuple[str, ...] = ()
    points: int = 0
    maximum: int = 0
    floor: int = 0


@dataclass(frozen=True, slots=True)
class ActionCard:
    """An Action card design. ``type`` is the Galvanised People type ("" otherwise);
    ``needs_op`` / ``needs_group_in`` its pairing condition (``needs_group_in`` None when the
    card sets none)."""

    index: int
    id: str
    name: str
    kind: str
    type: str
    copies_in_box: int
    pillar: int
    min_effort: int
    lasting: bool
    needs_op: tuple[str, ...]
    needs_group_in: tuple[str, ...] | None
    effect: tuple[Op, ...]
    text: str

    @property
    def is_galvanised(self) -> bool:
        """True for a Galvanised People card."""
        return self.kind == "galvanised_people"


@dataclass(frozen=True, slots=True)
class CrisisCard:
    """A Crisis card design. ``pillar`` is -1 for a card that only acts on the cells; ``type``
    is the Subversive type ("" otherwise)."""

    index: int
    id: str
    name: str
    kind: str
    type: str
    copies_in_box: int
    pillar: int
    effect: tuple[Op, ...]
    while_active: tuple[Op, ...]
    each_turn: tuple[Op, ...]
    text: str

    @property
    def is_subversive(self) -> bool:
        """True for a Subversive card."""
        return self.kind == "subversive"


@dataclass(frozen=True, slots=True)
class Constants:
    """The numbers of the rules (``rules_constants``)."""

    min_players: int
    max_players: int
    effort_min: int
    effort_max: int
    effort_base: int
    group_start: int
    group_max: int
    cell_start: int
    cell_max: int
    action_deck_size: int
    crisis_deck_size: int
    max_copies: int
    max_per_galvanised_type: int
    max_per_subversive_type: int
    hand_size: int
    actions_per_turn: int
    crises_per_turn: int
    special_intelligence_points: int


@dataclass(frozen=True, slots=True)
class Data:
    """Everything read from the JSON."""

    label: str
    about: str
    pillars: tuple[str, ...]
    groups: tuple[str, ...]
    cells: tuple[str, ...]
    constants: Constants
    action_cards: tuple[ActionCard, ...]
    crisis_cards: tuple[CrisisCard, ...]
    op_names: frozenset[str]
    continuous_ops: frozenset[str]
    starter_decks: tuple[dict[str, Any], ...]
    """The starter decks as JSON objects (``decks.py`` reads and checks them)."""


# --- reading ---------------------------------------------------------------------------------
def _fail(where: str, message: str) -> DataError:
    return DataError(f"{where}: {message}")


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f"{low} or more" if high is None else f"{low} to {high}"
        raise _fail(where, f"must be a whole number {bound}, not {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(where, f"must be text, not {value!r}")
    return value


def _pillar(value: Any, where: str) -> int:
    if value not in PILLAR_NAMES:
        raise _fail(where, f"{value!r} is not a pillar")
    return PILLAR_NAMES.index(value)


class _Reader:
    """Reads ops against the file's ``effect_language``."""

    def __init__(self, language: Any, groups: tuple[str, ...]) -> None:
        if not isinstance(language, dict) or not isinstance(language.get("ops"), dict):
            raise DataError("effect_language must be an object with 'ops'")
        self.specs: dict[str, dict[str, Any]] = language["ops"]
        self.groups = groups
        for name, spec in self.specs.items():
            if not isinstance(spec, dict) or not isinstance(spec.get("fields"), dict) \
                    or not isinstance(spec.get("used_on"), list):
                raise DataError(f"effect_language op {name!r} needs 'fields' and 'used_on'")
        self.used: set[str] = set()

    def who(self, raw: Any, where: str) -> Who:
        if not isinstance(raw, dict):
            raise _fail(where, "who must be an object")
        if set(raw) == {"all"}:
            if raw["all"] is not True:
                raise _fail(where, "who.all must be true")
            return Who("all")
        forms = set(raw) - {"pillar"}
        if "pillar" not in raw or len(forms) != 1 or not forms <= set(WHO_FORMS):
            raise _fail(where, "who needs a pillar and exactly one of at_most, at_least, "
                               "lowest, highest")
        form = forms.pop()
        pillar = _pillar(raw["pillar"], where + ".who.pillar")
        if form in ("at_most", "at_least"):
            return Who(form, pillar, _int(raw[form], f"{where}.who.{form}", 1, 4))
        if raw[form] is not True:
            raise _fail(where, f"who.{form} must be true")
        return Who(form, pillar)

    def ops(self, raw: Any, where: str, kind: str, continuous: bool) -> tuple[Op, ...]:
        if not isinstance(raw, list):
            raise _fail(where, "must be a list of ops")
        return tuple(self.op(item, f"{where}[{i}]", kind, continuous)
                     for i, item in enumerate(raw))

    def op(self, raw: Any, where: str, kind: str, continuous: bool) -> Op:
        if not isinstance(raw, dict) or not isinstance(raw.get("op"), str):
            raise _fail(where, "an op must be an object with an 'op' name")
        name = raw["op"]
        spec = self.specs.get(name)
        if spec is None:
            raise _fail(where, f"op {name!r} is not defined in effect_language")
        self.used.add(name)
        fields: dict[str, str] = spec["fields"]
        for key in raw:
            if key != "op" and key not in fields:
                raise _fail(where, f"field {key!r} is not defined for op {name}")
        for key, desc in fields.items():
            if "optional" not in str(desc) and key not in raw:
                raise _fail(where, f"op {name} misses its field {key!r}")
        if kind not in spec["used_on"]:
            raise _fail(where, f"op {name} may not appear on a {kind} card")
        if bool(spec.get("continuous")) != continuous:
            place = "only in while_active" if spec.get("continuous") else "not in while_active"
            raise _fail(where, f"op {name} belongs {place}")
        values: dict[str, Any] = {"name": name}
        for key, value in raw.items():
            at = f"{where}.{key}"
            if key == "op":
                continue
            if key in ("amount", "count"):
                values[key] = _int(value, at, 1)
            elif key == "cells":
                if raw.get("target") != "choose":
                    raise _fail(where, "cells needs target 'choose'")
                values[key] = _int(value, at, 1, 3)
            elif key == "groups":
                if raw.get("group") not in ("choose", "lowest", "highest"):
                    raise _fail(where, "groups needs group choose, lowest or highest")
                values[key] = _int(value, at, 1, 4)
            elif key == "target":
                if name == "remove_subversive":
                    if value != "choose":
                        raise _fail(at, "must be 'choose'")
                elif value not in CELL_TARGETS:
                    raise _fail(at, f"{value!r} is not a cell target")
                values[key] = value
            elif key == "group":
                if value not in GROUP_SELECTORS and value not in self.groups:
                    raise _fail(at, f"{value!r} is not a group selector")
                values[key] = value
            elif key == "who":
                values[key] = self.who(value, where)
            elif key == "pillar":
                values[key] = -1 if name == "boost_effort_vs_crisis" and value == "paired" \
                    else _pillar(value, at)
            elif key == "at_least":
                values[key] = _int(value, at, 1, 4)
            elif key == "then":
                values[key] = self.ops(value, at, kind, False)
            elif key == "ops":
                if not isinstance(value, list) or not all(v in self.specs for v in value):
                    raise _fail(at, "must list op names")
                values[key] = tuple(value)
            elif key == "exclude_kinds":
                if not isinstance(value, list) or not all(v in ACTION_KINDS for v in value):
                    raise _fail(at, "must list Action card kinds")
                values[key] = tuple(value)
            elif key == "points":
                values[key] = _int(value, at, 0)
            elif key == "max":
                values["maximum"] = _int(value, at, 0)
            elif key == "floor":
                values[key] = _int(value, at, 0)
            else:  # pragma: no cover - every defined field is read above
                raise _fail(at, "is not read by citywatch")
        return Op(**values)


def _constants(raw: Any) -> Constants:
    where = "rules_constants"
    if not isinstance(raw, dict):
        raise DataError("rules_constants must be an object")
    players = raw.get("players")
    if not isinstance(players, list) or not players:
        raise _fail(where, "players must list the player counts")
    total = raw.get("national_effort_total", "")
    if not isinstance(total, str) or not total.startswith("8 + "):
        raise _fail(where, "national_effort_total must read '8 + surviving Citizen Groups'")

    def get(key: str, low: int = 0) -> int:
        return _int(raw.get(key), f"{where}.{key}", low)

    return Constants(
        min_players=min(players), max_players=max(players),
        effort_min=get("national_effort_min", 1), effort_max=get("national_effort_max", 1),
        effort_base=8,
        group_start=get("citizen_group_start_support", 1),
        group_max=get("citizen_group_max_support", 1),
        cell_start=get("terrorist_cell_start_strength", 1),
        cell_max=get("terrorist_cell_max_strength", 1),
        action_deck_size=get("action_deck_size", 1), crisis_deck_size=get("crisis_deck_size", 1),
        max_copies=get("max_copies_per_card", 1),
        max_per_galvanised_type=get("max_per_galvanised_people_type", 1),
        max_per_subversive_type=get("max_per_subversive_type", 1),
        hand_size=get("hand_size", 1), actions_per_turn=get("action_cards_per_turn"),
        crises_per_turn=get("crisis_cards_per_turn"),
        special_intelligence_points=get("special_intelligence_points"),
    )


def _action_card(reader: _Reader, i: int, raw: Any) -> ActionCard:
    where = f"action_cards[{i}]"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    kind = raw.get("kind")
    if kind not in ACTION_KINDS:
        raise _fail(where, f"kind {kind!r} is not an Action card kind")
    where = f"Action card {raw.get('id')}"
    name = _str(raw.get("name"), where + " name")
    card_type = ""
    lasting = False
    needs_op: tuple[str, ...] = ()
    needs_group_in: tuple[str, ...] | None = None
    if kind == "galvanised_people":
        card_type = _str(raw.get("type"), where + " type")
        if name != f"Galvanised People ({card_type})":
            raise _fail(where, "a Galvanised People card's name must show its type")
        if not isinstance(raw.get("lasting"), bool):
            raise _fail(where, "a Galvanised People card needs 'lasting' true or false")
        lasting = raw["lasting"]
        pair = raw.get("pair_with")
        if not isinstance(pair, dict) or not isinstance(pair.get("needs_op"), list) \
                or not all(o in reader.specs for o in pair["needs_op"]):
            raise _fail(where, "pair_with needs 'needs_op', a list of op names")
        needs_op = tuple(pair["needs_op"])
        if "needs_group_in" in pair:
            groups = pair["needs_group_in"]
            if not isinstance(groups, list) or not all(
                    g in GROUP_SELECTORS or g in reader.groups for g in groups):
                raise _fail(where, "needs_group_in must list group selectors")
            needs_group_in = tuple(groups)
    else:
        for key in ("type", "lasting", "pair_with"):
            if key in raw:
                raise _fail(where, f"only Galvanised People cards have {key!r}")
    effect = reader.ops(raw.get("effect"), where + " effect", kind, False)
    if not effect:
        raise _fail(where, "needs an effect")
    if kind == "special_intelligence" and raw.get("text") != SPECIAL_INTELLIGENCE_TEXT:
        raise _fail(where, "Special Intelligence must keep its rulebook text (section 8)")
    return ActionCard(
        index=i, id=_str(raw.get("id"), where + " id"), name=name, kind=kind, type=card_type,
        copies_in_box=_int(raw.get("copies_in_box"), where + " copies_in_box", 1),
        pillar=_pillar(raw.get("pillar"), where + " pillar"),
        min_effort=_int(raw.get("min_effort"), where + " min_effort", 1, 4),
        lasting=lasting, needs_op=needs_op, needs_group_in=needs_group_in, effect=effect,
        text=_str(raw.get("text"), where + " text"),
    )


def _crisis_card(reader: _Reader, i: int, raw: Any) -> CrisisCard:
    where = f"crisis_cards[{i}]"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    kind = raw.get("kind")
    if kind not in CRISIS_KINDS:
        raise _fail(where, f"kind {kind!r} is not a Crisis card kind")
    where = f"Crisis card {raw.get('id')}"
    name = _str(raw.get("name"), where + " name")
    pillar = -1 if raw.get("pillar") is None else _pillar(raw.get("pillar"), where + " pillar")
    effect = reader.ops(raw.get("effect"), where + " effect", kind, False)
    card_type = ""
    while_active: tuple[Op, ...] = ()
    each_turn: tuple[Op, ...] = ()
    if kind == "subversive":
        card_type = _str(raw.get("type"), where + " type")
        if name != f"Subversive ({card_type})":
            raise _fail(where, "a Subversive card's name must show its type")
        if effect != (Op("activate_subversive"),):
            raise _fail(where, "a Subversive's effect is exactly activate_subversive")
        while_active = reader.ops(raw.get("while_active", []), where + " while_active",
                                  kind, True)
        each_turn = reader.ops(raw.get("each_turn", []), where + " each_turn", kind, False)
        if not while_active and not each_turn:
            raise _fail(where, "a Subversive must do something while active or each turn")
    else:
        if not effect:
            raise _fail(where, "needs an effect")
        if "while_active" in raw or "each_turn" in raw or "type" in raw:
            raise _fail(where, "only Subversive cards have a type, while_active or each_turn")
    return CrisisCard(
        index=i, id=_str(raw.get("id"), where + " id"), name=name, kind=kind, type=card_type,
        copies_in_box=_int(raw.get("copies_in_box"), where + " copies_in_box", 1),
        pillar=pillar, effect=effect, while_active=while_active, each_turn=each_turn,
        text=_str(raw.get("text"), where + " text"),
    )


def parse(raw: Any) -> Data:
    """Check the JSON of the card set and return it as :class:`Data`; ``DataError`` naming the
    first fault."""
    if not isinstance(raw, dict):
        raise DataError("the card set must be a JSON object")
    for key in ("about", "label", "pillars", "citizen_groups", "terrorist_cells",
                "rules_constants", "action_cards", "crisis_cards", "starter_decks",
                "effect_language"):
        if key not in raw:
            raise DataError(f"the card set has no {key!r}")
    if raw.get("stand_in") is not True or "stand-in" not in str(raw["label"]):
        raise DataError("the card set must be marked and labelled as stand-in cards")
    if tuple(raw["pillars"]) != PILLAR_NAMES:
        raise DataError(f"pillars must be {', '.join(PILLAR_NAMES)} (rulebook section 3)")
    constants = _constants(raw["rules_constants"])
    groups_raw = raw["citizen_groups"]
    cells_raw = raw["terrorist_cells"]
    if not isinstance(groups_raw, list) or len(groups_raw) != 4 or not all(
            isinstance(g, dict) and g.get("starting_support") == constants.group_start
            and g.get("max_support") == constants.group_max for g in groups_raw):
        raise DataError("there must be 4 Citizen Groups starting at full support "
                        "(rulebook section 3)")
    if not isinstance(cells_raw, list) or len(cells_raw) != 3 or not all(
            isinstance(c, dict) and c.get("starting_strength") == constants.cell_start
            and c.get("max_strength") == constants.cell_max for c in cells_raw):
        raise DataError("there must be 3 Terrorist Cells starting at full strength "
                        "(rulebook section 3)")
    groups = tuple(_str(g.get("name"), "citizen group name") for g in groups_raw)
    cells = tuple(_str(c.get("name"), "terrorist cell name") for c in cells_raw)
    if len(set(groups)) != 4 or len(set(cells)) != 3:
        raise DataError("Citizen Group and Terrorist Cell names must be different")
    reader = _Reader(raw["effect_language"], groups)
    if not isinstance(raw["action_cards"], list) or not isinstance(raw["crisis_cards"], list):
        raise DataError("action_cards and crisis_cards must be lists")
    actions = tuple(_action_card(reader, i, c) for i, c in enumerate(raw["action_cards"]))
    crises = tuple(_crisis_card(reader, i, c) for i, c in enumerate(raw["crisis_cards"]))
    ids = [c.id for c in actions] + [c.id for c in crises]
    names = [c.name for c in actions] + [c.name for c in crises]
    if len(set(ids)) != len(ids) or len(set(names)) != len(names):
        raise DataError("card ids and names must be unique")
    if sum(c.copies_in_box for c in actions) != 70:
        raise DataError("a set holds 70 Action cards (rulebook section 3)")
    if sum(c.copies_in_box for c in crises) != 57:
        raise DataError("a set holds 57 Crisis cards (rulebook section 3)")
    for kind, cards in (("galvanised_people", actions), ("subversive", crises)):
        types = [c.type for c in cards if c.kind == kind]
        if len(set(types)) != len(types):
            raise DataError(f"two {kind} cards share a type")
    unused = set(reader.specs) - reader.used
    if unused:
        raise DataError(f"effect_language defines ops no card uses: {sorted(unused)}")
    decks = raw["starter_decks"]
    if not isinstance(decks, list) or not all(isinstance(d, dict) for d in decks):
        raise DataError("starter_decks must be a list of objects")
    return Data(
        label=_str(raw["label"], "label"), about=_str(raw["about"], "about"),
        pillars=PILLAR_NAMES, groups=groups, cells=cells, constants=constants,
        action_cards=actions, crisis_cards=crises, op_names=frozenset(reader.specs),
        continuous_ops=frozenset(n for n, s in reader.specs.items() if s.get("continuous")),
        starter_decks=tuple(decks),
    )


def load() -> Data:
    """Read and check ``data/guardians-of-the-city.json``."""
    text = resources.files(__package__).joinpath("data", "guardians-of-the-city.json") \
        .read_text(encoding="utf-8")
    return parse(json.loads(text))


DATA: Final = load()
LABEL: Final = DATA.label
"""The stand-in label that must be shown wherever the cards are."""
PILLARS: Final = DATA.pillars
GROUPS: Final = DATA.groups
CELLS: Final = DATA.cells
CONSTANTS: Final = DATA.constants
ACTION_CARDS: Final = DATA.action_cards
CRISIS_CARDS: Final = DATA.crisis_cards
ACTION_BY_NAME: Final = {c.name: c.index for c in ACTION_CARDS}
ACTION_BY_ID: Final = {c.id: c.index for c in ACTION_CARDS}
CRISIS_BY_NAME: Final = {c.name: c.index for c in CRISIS_CARDS}
CRISIS_BY_ID: Final = {c.id: c.index for c in CRISIS_CARDS}
SCORE_POINTS: Final = tuple(sum(op.points for op in c.effect if op.name == "score_this_card")
                            for c in ACTION_CARDS)
"""The end-of-game points of each Action card when it lies in a Score pile."""
