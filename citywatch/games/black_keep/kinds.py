"""The kind of each Thieves of the Black Keep action, in a few words (``Game.action_kind``):
a Guard card played by its name, a Thief card by what it does (the six move cards are one
kind, "Move"), every other action by what it does."""

from __future__ import annotations

from typing import Final

from citywatch.games.black_keep.actions import GUARD_CARD, Action
from citywatch.games.black_keep.data import GUARD_CARD_NAMES

VERB_KINDS: Final[dict[str, str]] = {
    "start": "Set the Location Dial",
    "buy": "Buy a Guard card",
    "no_buy": "Buy no Guard card",
    "move": "Move",
    "stay": "Move",
    "run": "Run",
    "escape": "Escape",
    "hide": "Play Hide",
    "rest": "Play Rest",
    "pick_pocket": "Pick a pocket",
    "no_guard_card": "Play no Guard card",
    "take": "Take a treasure",
    "leave": "Take no treasure",
}
"""Each verb's kind, but for ``guard_card`` (``action_kind``)."""


def action_kind(action: Action) -> str | None:
    """``"Play <Guard card>"`` for a Guard card played, else the verb's kind
    (``VERB_KINDS``); None for a verb without one."""
    if action.verb == GUARD_CARD:
        return f"Play {GUARD_CARD_NAMES[action.x]}"
    return VERB_KINDS.get(action.verb)
