"""The core's declared-verb table (``citywatch.core.verbs``) and the action space and
observation layout built on it (``citywatch.core.spaces``), on a toy game's verbs.

Rules checked: a verb is declared once with at most ``size`` fields of known kinds; an action's
JSON names its fields by kind, leaves out unused (-1) fields and reads back to the same
integers; malformed JSON is a ``ValueError`` naming the field and the verb.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from citywatch.core.spaces import ActionSpace, Layout
from citywatch.core.verbs import FieldKind, Names, NameSet, Number, Verbs, and_list, names_of

COLOURS = ("Red", "Green", "Blue")


class Move(NamedTuple):
    """A toy action of two integers."""

    verb: str
    x: int = -1
    y: int = -1


def table() -> Verbs[Move]:
    """A table with a colour, a case-blind colour, a set of colours and a number."""
    kinds: dict[str, FieldKind] = {
        "colour": Names("colour", COLOURS),
        "any_case": Names("colour", COLOURS, ignore_case=True),
        "colours": NameSet("colours", COLOURS),
        "number": Number(),
    }
    verbs: Verbs[Move] = Verbs(2, kinds)
    verbs.declare("paint", (("colour", "colour"), ("coats", "number")),
                  lambda a: f"Paint it {COLOURS[a.x]}")
    verbs.declare("mix", (("colours", "colours"),), lambda a: f"Mix {a.x}")
    verbs.declare("pick", (("colour", "any_case"),), lambda a: "Pick")
    verbs.declare("pass", (), lambda a: "Pass")
    return verbs


def test_the_table_is_a_mapping_of_declared_verbs_that_read_as_english() -> None:
    verbs = table()
    assert sorted(verbs) == ["mix", "paint", "pass", "pick"] and len(verbs) == 4
    assert "paint" in verbs and "fly" not in verbs
    assert verbs["paint"].fields == (("colour", "colour"), ("coats", "number"))
    assert verbs["paint"].text(Move("paint", 2, 1)) == "Paint it Blue"
    assert verbs.name_of("colours", 0b101) == "Red and Blue"
    assert verbs.name_of("number", 7) == "7" and verbs.name_of("colour", 1) == "Green"


@pytest.mark.parametrize("fields", [
    (("a", "number"), ("b", "number"), ("c", "number")),  # more than size
    (("a", "weight"),),  # unknown kind
    (("a", "number"), ("a", "number")),  # a key twice
    (("verb", "number"),),  # the key of the verb itself
])
def test_a_verb_with_bad_fields_is_refused_and_not_declared(
        fields: tuple[tuple[str, str], ...]) -> None:
    verbs = table()
    with pytest.raises(ValueError, match="bad fields for verb 'odd'"):
        verbs.declare("odd", fields, lambda a: "odd")
    assert "odd" not in verbs


def test_a_verb_is_declared_once() -> None:
    verbs = table()
    with pytest.raises(ValueError, match="verb 'pass' declared twice"):
        verbs.declare("pass", (), lambda a: "Pass again")
    assert verbs["pass"].text(Move("pass")) == "Pass"


def test_json_names_each_field_by_its_kind_leaves_out_unused_ones_and_reads_back() -> None:
    verbs = table()
    cases: list[tuple[str, tuple[int, int], dict[str, Any]]] = [
        ("paint", (1, 3), {"verb": "paint", "colour": "Green", "coats": 3}),
        ("paint", (0, -1), {"verb": "paint", "colour": "Red"}),
        ("mix", (0b110, -1), {"verb": "mix", "colours": ["Green", "Blue"]}),
        ("pass", (-1, -1), {"verb": "pass"}),
    ]
    for name, values, data in cases:
        assert verbs.to_json(name, values) == data
        assert verbs.from_json(data) == (name, list(values))


def test_names_match_ignoring_case_only_where_the_kind_says_so() -> None:
    verbs = table()
    assert verbs.from_json({"verb": "pick", "colour": "bLUE"}) == ("pick", [2, -1])
    with pytest.raises(ValueError, match="unknown colour 'blue'"):
        verbs.from_json({"verb": "paint", "colour": "blue"})


@pytest.mark.parametrize(("data", "message"), [
    ("paint", "must be an object with a 'verb'"),
    ({"colour": "Red"}, "must be an object with a 'verb'"),
    ({"verb": "fly"}, "unknown verb 'fly'"),
    ({"verb": "pass", "colour": "Red"}, r"unknown fields for 'pass': \['colour'\]"),
    ({"verb": "paint", "colour": 1}, "field 'colour' of 'paint': unknown colour 1"),
    ({"verb": "paint", "coats": -1}, "field 'coats' of 'paint': -1 is not a whole number"),
    ({"verb": "paint", "coats": True}, "field 'coats' of 'paint': True is not a whole number"),
    ({"verb": "mix", "colours": []}, "field 'colours' of 'mix': .* not a list of different"),
    ({"verb": "mix", "colours": ["Red", "Red"]}, "not a list of different colours"),
    ({"verb": "mix", "colours": ["Red", "Pink"]}, "not a list of different colours"),
])
def test_malformed_json_is_a_value_error_naming_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        table().from_json(data)


def test_names_must_differ_and_sets_list_bits_in_order() -> None:
    with pytest.raises(ValueError, match="the colour names are not all different"):
        Names("colour", ("Red", "red"), ignore_case=True)
    assert names_of(0b011, COLOURS) == ["Red", "Green"]
    assert and_list([]) == "" and and_list(["a"]) == "a" and and_list(["a", "b", "c"]) == \
        "a, b and c"


def test_the_action_space_numbers_verbs_in_name_order_first_field_most_significant() -> None:
    """``citywatch.core.spaces.ActionSpace``: each field's digit is its value + 1."""
    space = ActionSpace(table(), {"colour": 3, "any_case": 3, "colours": 8, "number": 2})
    assert space.verb_names == ("mix", "paint", "pass", "pick")
    assert len(space) == 9 + 4 * 3 + 1 + 4
    assert space.verb_range("mix") == (0, 9) and space.verb_range("paint") == (9, 21)
    assert space.verb_range("pick") == (22, 26)
    assert space.number("paint", (-1, -1)) == 9
    assert space.number("paint", (0, 1)) == 9 + 1 * 3 + 2
    assert space.action_at(9 + 1 * 3 + 2) == ("paint", [0, 1])
    assert space.action_at(21) == ("pass", [-1, -1])
    assert all(space.number(*space.action_at(i)) == i for i in range(len(space)))


@pytest.mark.parametrize(("verb", "values"), [
    ("fly", (-1, -1)),  # no such verb
    ("paint", (3, -1)),  # a colour out of range
    ("paint", (0, 2)),  # a number out of range
    ("mix", (1, 0)),  # a value for a field the verb does not have
])
def test_an_action_outside_the_space_has_no_number(verb: str, values: tuple[int, int]) -> None:
    space = ActionSpace(table(), {"colour": 3, "any_case": 3, "colours": 8, "number": 2})
    with pytest.raises(KeyError):
        space.number(verb, values)


def test_a_number_outside_the_space_is_an_index_error() -> None:
    space = ActionSpace(table(), {"colour": 3, "any_case": 3, "colours": 8, "number": 2})
    for bad in (-1, len(space)):
        with pytest.raises(IndexError, match=f"action index must be 0 to 25, not {bad}"):
            space.action_at(bad)


def test_a_layout_adds_named_blocks_in_order_with_their_highest_values() -> None:
    layout = Layout()
    assert layout.block("turn", 1, 99.0) == 0 and layout.block("seat", 3) == 1
    assert layout.blocks == {"turn": (0, 1), "seat": (1, 3)}
    assert layout.high == [99.0, 1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="bad observation block 'seat'"):
        layout.block("seat", 2)
    assert len(layout.high) == 4
