"""The kind of each Ankh-Morpork action, in a few words (``Game.action_kind``): a card played
by its name, every other action by what it does, so that the lab groups decisions in a few
meaningful kinds."""

from __future__ import annotations

from typing import Final

from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import AREAS, CARDS

VERB_KINDS: Final[dict[str, str]] = {
    "pass": "Pass",
    "skip": "Skip a symbol",
    "stop": "Play no more cards",
    "end_turn": "End the turn",
    "place_minion": "Place a minion",
    "place_building": "Build",
    "assassinate": "Assassinate",
    "remove_trouble": "Remove a trouble marker",
    "take_money": "Take money",
    "scroll": "Do a card's text",
    "event": "Draw a random event",
    "allow": "Play no interrupt",
    "target": "Aim a card at a player",
    "give_card": "Give a card",
    "discard": "Discard",
    "pay_bank": "Pay the bank",
    "done": "Done",
    "pay": "Pay a player",
    "refuse": "Refuse to pay",
    "take_card_in_front": "Take a card instead of paying",
    "move_minion": "Move a minion",
    "remove_minion": "Remove a minion",
    "remove_building": "Remove a building",
    "replace_building": "Replace a building",
    "place_trouble": "Place a trouble marker",
    "choose_area": "Choose an area",
    "swap_personality": "Swap personality",
    "swap_minions": "Swap minions",
    "hubert": "Make a player pay another",
    "keep_here": "Pay Small Gods to keep a minion",
}
"""Each verb's kind, but for those that play a card or use a City Area (``action_kind``)."""


def action_kind(action: Action) -> str | None:
    """``"Play <card>"`` for a card played (an interrupt too, and Doctor Mossy Lawn), ``"Use
    <area>"`` for a City Area's power, Small Gods' protection by its cost, else the verb's
    kind (``VERB_KINDS``); None for a verb without one."""
    if action.verb == "play" or (action.verb == "protect" and action.card >= 0):
        return f"Play {CARDS[action.card].name}"
    if action.verb == "mossy":
        return "Play Doctor Mossy Lawn"
    if action.verb == "protect":
        return "Pay Small Gods to ignore an event"
    if action.verb == "power":
        return f"Use {AREAS[action.area].name}"
    return VERB_KINDS.get(action.verb)
