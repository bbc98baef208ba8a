"""The kind of each Guards! Guards! action, in a few words (``Game.action_kind``): a Scroll
cast by its name, an Item used by its name, every other action by what it does."""

from __future__ import annotations

from typing import Final

from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import GUILD_CARDS, ITEMS, SCROLLS

CASTS: Final = frozenset({"cast", "cast_on_player", "cast_on_volunteer", "cast_on_quadrant",
                          "cast_to_tile", "cast_plain"})
"""The verbs that cast the Scroll ``x``."""

VERB_KINDS: Final[dict[str, str]] = {
    "use_cure_all": "Use Nanny Ogg's Cure All",
    "go_to_hospital": "Go to the Hospital",
    "taken_to": "Be taken to a Watch House",
    "use_wand": "Use the Wand of Fizzling",
    "let_it_happen": "Keep the Wand of Fizzling",
    "cake_cancel": "Discard Mrs Evadne Cake",
    "cake_allow": "Keep Mrs Evadne Cake",
    "spend_fate_point": "Spend an Attribute Point",
    "friend_deck": "Take a Volunteer card",
    "pay_beggars": "Pay the Beggars",
    "take_the_pox": "Catch the Pox",
    "draw_from": "Draw from a shop",
    "give_up_wanted": "Give up a Volunteer to the Watch",
    "let_mover_pass": "Let a player pass",
    "take_item": "Take an Item",
    "leave_item": "Leave an Item",
    "summon_dragon": "Summon a Dragon",
    "fight_dragon": "Fight a Dragon",
    "send_fighter": "Send a fighter",
    "recall_to_fight": "Recall a Saboteur to fight",
    "no_more_fighters": "Send no more fighters",
    "luggage_tiles": "Move the Luggage",
    "luggage_way": "Steer the Luggage",
    "staff_on": "Use the Wizard's Staff",
    "no_magic": "Cast nothing",
    "resurrect": "Cast Reg Shoe's Recipe",
    "let_go": "Let a Volunteer stay discarded",
    "take_face_up": "Take a face-up Volunteer",
    "turn_over": "Turn over a Volunteer card",
    "no_extra_volunteer": "Recruit no extra Volunteer",
    "charm_volunteer": "Charm a Volunteer",
    "bribe_volunteer": "Bribe a Volunteer",
    "let_volunteer_go": "Let a Volunteer go",
    "choose_guild": "Choose a Guild card",
    "collect_spell": "Collect a spell",
    "add_runner": "Add a Runner",
    "choose_route": "Choose a Spell Run's route",
    "retry_challenge": "Attempt a challenge",
    "send_to_gate": "Send a Volunteer to the gate",
    "new_run": "Start a new Spell Run",
    "alter_allegiance": "Alter Allegiance",
    "ambush": "Ambush",
    "let_pass": "Let a player pass",
    "defend_with": "Defend",
    "replant": "Re-plant a Saboteur",
    "use_ook": "Use Ook!",
    "keep_ook": "Keep Ook!",
    "raise_attribute": "Spend an Attribute Point",
    "move_to": "Move",
    "end_movement": "End movement",
    "end_turn": "End the turn",
    "try_plant": "Try to plant a Saboteur",
    "plant": "Plant a Saboteur",
    "plant_item": "Give a Saboteur an Item",
    "plant_no_item": "Plant a Saboteur without an Item",
    "recall": "Recall a Saboteur",
    "discard_to_cure": "Discard a Volunteer to be cured",
    "recruit_here": "Recruit",
    "tavern_here": "Roll on the Tavern table",
    "cure_here": "Be cured",
    "collect_pay": "Collect pay",
    "buy_point": "Buy an Attribute point",
    "buy_item": "Buy an Item",
    "buy_scroll": "Buy a Scroll",
    "turn_in": "Turn in a Volunteer",
    "done_here": "Done here",
    "jail_charm": "Talk out of the Watch House",
    "jail_bail": "Pay bail",
    "jail_slant": "Discard Mr Slant to walk out",
    "jail_stay": "Stay in the Watch House",
}
"""Each verb's kind, but for casting a Scroll, using an Item and a Guild ability
(``action_kind``)."""


def action_kind(action: Action) -> str | None:
    """``"Cast <Scroll>"``, ``"Use <Item>"``, ``"Use <Guild ability>"``, else the verb's kind
    (``VERB_KINDS``); None for a verb without one."""
    if action.verb in CASTS:
        return f"Cast {SCROLLS[action.x].name}"
    if action.verb == "use_item":
        return f"Use {ITEMS[action.x].name}"
    if action.verb == "use_guild_ability":
        return f"Use {GUILD_CARDS[action.x].ability_name}"
    return VERB_KINDS.get(action.verb)
