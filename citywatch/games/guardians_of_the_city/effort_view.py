"""The National Effort step with the facts in view (issue 29), for the deciding seat only.

While a seat assigns its effort pillar by pillar (the ``effort`` frame of ``turn.py``), the
levels it has chosen so far live only on the decision stack. Effort levels are public (ruling
17), but a half-made assignment is not yet effort: it is shown in the deciding seat's own view
and in no other, and the log tells everybody the whole assignment once it is made (citywatch
ruling 18).

``pending_effort`` is that seat's column as it follows the assignment: the levels chosen so far,
then the pillars still to assign at their current levels. ``effort_step_json`` is the table the
step shows: per pillar, the hand's cards of that pillar with their printed requirement, and per
level which cards it would make playable. Playability is the engine's own (``playable`` of
``effects.py``, ruling 7-9) in the state with that pillar at that level and every other pillar
at the most (4), so a pair whose Galvanised People card sits in another pillar is listed with
its partner ("other pillars permitting").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, CONSTANTS, PILLARS
from citywatch.games.guardians_of_the_city.effects import playable
from citywatch.games.guardians_of_the_city.state import NONE, GotcState

State = GotcState
LEVELS = range(CONSTANTS.effort_min, CONSTANTS.effort_max + 1)


def choosing(s: State, seat: int | None) -> tuple[int, ...] | None:
    """The levels ``seat`` has chosen so far while it is assigning effort now, else None."""
    if seat is None or s.result is not None or not s.stack or s.to_move != seat:
        return None
    top = s.stack[-1]
    if top[0] != "effort" or top[1] != seat:
        return None
    return tuple(top[2])


def pending_effort(s: State, seat: int, chosen: tuple[int, ...]) -> list[int]:
    """The seat's column while it assigns: ``chosen`` for the first pillars, then the current
    levels of the pillars still to assign."""
    return [*chosen, *s.effort[seat][len(chosen):]]


def playable_at(s: State, seat: int, pillar: int, level: int) -> list[str]:
    """The names of the seat's hand cards that ``level`` in ``pillar`` makes playable (every
    other pillar at the most): a card of the pillar alone (``"Raids"``) or in a pair with a
    Galvanised People card (``"Raids with Unity"``), and a Galvanised People card of the pillar
    with the card it pairs with, in the engine's order, each once."""
    t = s.copy()
    t.effort[seat] = [level if i == pillar else CONSTANTS.effort_max
                      for i in range(len(PILLARS))]
    found: list[str] = []
    for card, galvanised in playable(t, seat):
        mine = ACTION_CARDS[card].pillar == pillar
        if galvanised == NONE:
            text = ACTION_CARDS[card].name if mine else ""
        elif mine or ACTION_CARDS[galvanised].pillar == pillar:
            text = f"{ACTION_CARDS[card].name} with {ACTION_CARDS[galvanised].name}"
        else:
            text = ""
        if text and text not in found:
            found.append(text)
    return found


def effort_step_json(s: State, seat: int, chosen: tuple[int, ...]) -> dict[str, Any]:
    """What the effort step shows the deciding seat: the total to assign, the pillars assigned
    so far and the next one, and per pillar its hand cards (name, copies, printed requirement)
    and per level the cards it would make playable."""
    held = Counter(s.hand[seat])
    pillars = []
    for i, name in enumerate(PILLARS):
        cards = [{"name": ACTION_CARDS[c].name, "copies": n,
                  "min_effort": ACTION_CARDS[c].min_effort,
                  "galvanised": ACTION_CARDS[c].is_galvanised}
                 for c, n in sorted(held.items()) if ACTION_CARDS[c].pillar == i]
        pillars.append({"pillar": name, "cards": cards,
                        "playable": {str(v): playable_at(s, seat, i, v) for v in LEVELS}})
    return {
        "required": s.required_effort(seat),
        "assigned": dict(zip(PILLARS, chosen, strict=False)),
        "next": PILLARS[len(chosen)] if len(chosen) < len(PILLARS) else None,
        "pillars": pillars,
    }
