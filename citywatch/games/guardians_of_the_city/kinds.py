"""The kind of each Guardians of the City action, in a few words (``Game.action_kind``): an
Action card played by its name, every other action by what it does."""

from __future__ import annotations

from typing import Final

from citywatch.games.guardians_of_the_city.actions import PLAY, Action
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS

VERB_KINDS: Final[dict[str, str]] = {
    "effort": "Set a National Effort",
    "keep_effort": "Keep the National Effort",
    "end_plays": "Play no more cards",
    "reduce_cells": "Reduce Terrorist Cells",
    "raise_cells": "Raise Terrorist Cells",
    "raise_groups": "Raise support",
    "lose_groups": "Lose support",
    "next_loss": "Order the losses",
    "lower": "Lower a National Effort",
    "discard": "Discard a card",
    "draw": "Draw cards",
    "remove_subversive": "Remove a Subversive card",
    "take_back": "Take a card back",
    "take_nothing": "Take no card back",
}
"""Each verb's kind, but for ``play`` (``action_kind``)."""


def action_kind(action: Action) -> str | None:
    """``"Play <card>"`` for an Action card played (galvanised or not), else the verb's kind
    (``VERB_KINDS``); None for a verb without one."""
    if action.verb == PLAY:
        return f"Play {ACTION_CARDS[action.x].name}"
    return VERB_KINDS.get(action.verb)
