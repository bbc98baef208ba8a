"""Guardians of the City's card set (``data.py``): what a set contains (rulebook section 3),
the stand-in label, every op of the effect language interpreted once, and a data file that
breaks its own language refused on load."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from citywatch.games.guardians_of_the_city import effects
from citywatch.games.guardians_of_the_city.data import (
    ACTION_CARDS,
    CELLS,
    CRISIS_CARDS,
    DATA,
    GROUPS,
    LABEL,
    PILLARS,
    SCORE_POINTS,
    DataError,
    parse,
)

RAW: dict[str, Any] = json.loads(
    resources.files("citywatch.games.guardians_of_the_city").joinpath(
        "data", "guardians-of-the-city.json").read_text(encoding="utf-8"))
SHARED = (Path(__file__).resolve().parents[4] / "shared" / "reference" / "guardians-of-the-city"
          / "guardians-of-the-city.json")


def test_a_set_holds_what_the_rulebook_lists() -> None:
    """Rulebook section 3: 5 Total Defence pillars, 4 Citizen Groups, 3 Terrorist Cells, 70
    Action cards and 57 Crisis cards in one set."""
    assert PILLARS == ("Military", "Civil", "Economic", "Social", "Psychological")
    assert len(GROUPS) == 4 and len(CELLS) == 3
    assert sum(c.copies_in_box for c in ACTION_CARDS) == 70
    assert sum(c.copies_in_box for c in CRISIS_CARDS) == 57
    kinds: dict[str, int] = {}
    for c in ACTION_CARDS + CRISIS_CARDS:  # type: ignore[operator]
        kinds[c.kind] = kinds.get(c.kind, 0) + c.copies_in_box
    assert kinds == {"action": 59, "galvanised_people": 8, "special_intelligence": 3,
                     "crisis": 50, "subversive": 7}


def test_the_game_is_about_keeping_support_while_fighting_the_cells() -> None:
    """Rulebook section 1 (objective): each nation keeps its citizens' support (4 groups at 4)
    while fighting a shared terrorist threat (3 cells at 6); only Special Intelligence scores
    from the Score pile (section 8, 2 points)."""
    assert DATA.constants.group_start == 4 and DATA.constants.cell_start == 6
    assert [c.name for c in ACTION_CARDS if SCORE_POINTS[c.index]] == ["Special Intelligence"]
    assert SCORE_POINTS[ACTION_CARDS[25].index] == 2


def test_the_cards_are_labelled_as_stand_ins() -> None:
    """The issue and the card set: citywatch's own stand-in cards, labelled as such."""
    assert "stand-in" in LABEL and "not the printed" in LABEL
    assert "stand-in" in DATA.about


def test_the_copy_in_the_game_folder_is_the_shared_card_set() -> None:
    """data/guardians-of-the-city.json is a copy of the shared reference file (as for
    Guards! Guards!, skipped where the shared folder is not beside the project)."""
    if not SHARED.is_file():  # pragma: no cover
        pytest.skip(f"{SHARED} is not available")
    packaged = resources.files("citywatch.games.guardians_of_the_city").joinpath(
        "data", "guardians-of-the-city.json").read_bytes()
    assert packaged == SHARED.read_bytes()


def test_every_op_of_the_language_has_one_interpreter() -> None:
    """effects.py interprets every op of ``effect_language`` (and nothing else): Action ops,
    Crisis ops, and the Galvanised and continuous ops read where they apply."""
    assert DATA.op_names == effects.INTERPRETED
    assert not set(effects.ACTION_OPS) & set(effects.CRISIS_OPS)
    assert not effects.READ_ELSEWHERE & (set(effects.ACTION_OPS) | set(effects.CRISIS_OPS))
    assert DATA.continuous_ops == {"limit_actions", "weaken_reductions"}


def broken(change: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def _card(raw: dict[str, Any], card_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in raw["action_cards"] + raw["crisis_cards"]
                                 if c["id"] == card_id)
    return found


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: _card(r, "A03")["effect"][0].update(op="vanish"),
     "op 'vanish' is not defined in effect_language"),
    (lambda r: _card(r, "A03")["effect"][0].update(colour=1),
     "field 'colour' is not defined for op reduce_cell"),
    (lambda r: _card(r, "A03")["effect"][0].pop("amount"), "misses its field 'amount'"),
    (lambda r: _card(r, "A03")["effect"].append({"op": "mill_actions", "who": {"all": True},
                                                 "amount": 1}),
     "op mill_actions may not appear on a action card"),
    (lambda r: _card(r, "C24").update(while_active=_card(r, "C24")["each_turn"]),
     "op lose_support belongs not in while_active"),
    (lambda r: _card(r, "C22").update(effect=[]), "effect is exactly activate_subversive"),
    (lambda r: _card(r, "A01").update(copies_in_box=4), "a set holds 70 Action cards"),
    (lambda r: _card(r, "A26").update(text="Remove a Subversive."), "rulebook text"),
    (lambda r: _card(r, "C17")["effect"][0]["who"].update(lowest=True),
     "exactly one of at_most"),
    (lambda r: _card(r, "A27").update(name="Galvanised People"), "must show its type"),
    (lambda r: r.update(stand_in=False), "stand-in cards"),
    (lambda r: r["citizen_groups"].pop(), "there must be 4 Citizen Groups"),
])
def test_a_data_file_breaking_its_language_is_refused(change: Any, message: str) -> None:
    """The card set is checked on load against its own effect_language (fields, kinds,
    continuous ops) and the rulebook's facts; DataError names the fault."""
    with pytest.raises(DataError, match=message.replace("(", r"\(")):
        parse(broken(change))
