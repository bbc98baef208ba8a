"""The Black Keep's numbers as tuning options (issue 12: "Every numeric rule lives in one
parameters object ... so designers can tune it"): each field of ``Parameters`` is a number
option with the spec's default and a least value, so ``--option``, ``--sweep`` and the start
page reach every one; ``parameters`` (a JSON object) still sets several at once."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from citywatch.cli import main
from citywatch.core.registry import load
from citywatch.games.black_keep.params import MINIMUM, Parameters

GAME = load("black-keep")
NUMBERS = [f.name for f in fields(Parameters)]


def test_every_parameter_is_a_tuning_option_with_the_spec_default() -> None:
    """Spec 0 and 14: one option per number of the rules, at the spec's default."""
    tuning = {o.name: o for o in GAME.options if o.tuning}
    assert list(tuning) == NUMBERS
    defaults = Parameters()
    for name, option in tuning.items():
        assert option.default == getattr(defaults, name)
        assert option.minimum == MINIMUM[name]
        assert option.to_json()["tuning"] is True
    assert not any(o.tuning for o in GAME.options if o.choices)


def test_a_tuning_option_sets_the_parameter_and_the_json_object_too() -> None:
    """``hearing_range=3`` reaches the state's Parameters (4.5 uses it); an option given by
    name wins over the same field in ``parameters``; the others keep the spec's values."""
    s = GAME.new_game(1, 5, hearing_range=3, parameters={"wounds": 2, "hearing_range": 6})
    assert s.params.hearing_range == 3 and s.params.wounds == 2
    assert s.params.torch_reach == Parameters().torch_reach
    assert s.thieves[0].wounds == 2  # 6.1: a thief starts with its wound counters
    assert GAME.from_position(json.loads(json.dumps(s.position()))).params == s.params


@pytest.mark.parametrize(("options", "words"), [
    ({"hearing_range": 0}, "option hearing_range must be a whole number from 1 to 12"),
    ({"wounds": -1}, "option wounds must be a whole number from 1 to 9"),
    ({"torch_reach": "2"}, "option torch_reach must be a whole number"),
    ({"parameters": [1]}, "parameters must be a JSON object"),
    ({"parameters": {"wounds": 0}}, "parameter wounds must be a whole number from 1 to 9"),
    ({"parameters": {"speed": 1}}, "unknown parameter 'speed'"),
])
def test_bad_numbers_are_refused_naming_the_option(options: dict[str, object],
                                                   words: str) -> None:
    """A number below its least value, or not a whole number, is a clear ValueError."""
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        GAME.new_game(1, 1, **options)


def test_a_designer_sweeps_a_number_from_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --sweep wounds=1,3`` plays a row per value; ``citywatch games`` lists the
    numbers apart from the players' options."""
    assert main(["simulate", "black-keep", "--players", "1", "--games", "4", "--seed", "2",
                 "--bots", "random", "--workers", "1", "--sweep", "wounds=1,3",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    labels = [row["label"] for row in summary["sweep"]["combinations"]]
    assert labels == ["wounds=1", "wounds=3"]
    assert main(["simulate", "black-keep", "--players", "1", "--games", "1", "--bots",
                 "random", "--workers", "1", "--option", "torch_reach=1"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "torch_reach 1" in header and "hearing_range" not in header  # changed ones only
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "the rules' numbers, for designers to tune:" in out
    assert "--option hearing_range=N: steps along open sides a guard hears a noise from" in out
