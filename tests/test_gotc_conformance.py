"""The conformance suite's checks of one game (``tests/test_conformance.py``), run on Guardians
of the City while its folder (``citywatch/games/_guardians_of_the_city``) is still kept out of
the registry: the game is registered under its future name around each check only. Every
check that takes just the game runs (copies, determinism, illegal actions, actions in JSON,
views, determinization, positions, records, secret seeds, tampered records, and the refusal of
a PettingZoo environment without an encoding); the web server's fuzz is left to the day the
game registers. Once the folder is renamed, the suite itself runs these and this file goes."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import test_conformance as conformance

from citywatch.core.api import Game
from citywatch.core.registry import load, register, unregister

NAME = "guardians-of-the-city"
MODULE = "citywatch.games._guardians_of_the_city.game"
CHECKS: list[Callable[[Game], Any]] = [
    check for name, check in sorted(vars(conformance).items())
    if name.startswith("test_") and callable(check)
    and list(inspect.signature(check).parameters) == ["game"]
]


@pytest.fixture
def game() -> Iterator[Game]:
    """The game, registered under its future name while the check runs."""
    register(NAME, MODULE)
    try:
        yield load(NAME)
    finally:
        unregister(NAME)


def test_the_checks_are_found() -> None:
    """The conformance suite's one-game checks are all collected here."""
    names = {check.__name__ for check in CHECKS}
    assert len(names) >= 16
    assert {"test_copy_equals_original_and_copies_are_independent",
            "test_determinization_never_depends_on_hidden_truth",
            "test_corrupt_positions_are_refused",
            "test_record_replays_to_the_identical_state"} <= names


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__.removeprefix("test_"))
def test_guardians_of_the_city_passes_the_conformance_check(
        check: Callable[[Game], Any], game: Game) -> None:
    """The conformance check (its own docstring says which promise of the core API)."""
    check(game)
