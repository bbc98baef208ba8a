"""The Guards! Guards! tests' scaffolding: an idle decision at the bottom of a scripted stack."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citywatch.core.stack import Frame, Handler
from citywatch.games.guards_guards.actions import VERBS, Action, verb
from citywatch.games.guards_guards.frames import DECISIONS
from citywatch.games.guards_guards.state import GuardsGuardsState

IDLE = "test_idle"
"""The idle decision's verb."""


class IdleHandler(Handler[GuardsGuardsState]):
    """A frame that always waits: the bottom of a test's stack (``test_gg_combat.make``)."""

    kind = "idle"

    def legal(self, s: GuardsGuardsState, f: Frame) -> list[Action]:
        return [Action(IDLE, 0), Action(IDLE, 1)]

    def apply(self, s: GuardsGuardsState, f: Frame, a: Action) -> None:
        return None


@pytest.fixture(autouse=True)
def idle_frames() -> Iterator[None]:
    """The idle decision and its verb exist only while a test of this folder runs: the game's
    encodings number every declared verb and decision kind, so a scaffolding one left behind
    would change them for the tests that run next in the same process."""
    verb(IDLE, (("n", "number"),), lambda a: f"Wait ({a.x})")
    DECISIONS.handler(IdleHandler)
    yield
    del DECISIONS.handlers[IdleHandler.kind]
    VERBS.withdraw(IDLE)
