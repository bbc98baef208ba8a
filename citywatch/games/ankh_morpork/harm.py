"""The one gateway for harmful effects, where protections are offered (rulings 12-19).

Every removal or move of a player's minion, removal of a building, and card text
aimed at a player goes through ``request``. If the victim holds a protection that
applies (Gaspode, Susan, Fresh Start Club / Igor, Wallace Sonky, Small Gods), they
are asked first; otherwise the harm happens at once. No card knows about Gaspode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from citywatch.games.ankh_morpork.actions import Action, act, piece_name
from citywatch.games.ankh_morpork.data import (
    CARDS,
    DEMON,
    SMALL_GODS,
    SMALL_GODS_FEE,
    TROLL,
)
from citywatch.games.ankh_morpork.frames import Handler, handler
from citywatch.games.ankh_morpork.state import AnkhMorporkState, Frame, minion_targets

# How a harm comes about.
SYMBOL: Final = "symbol"  # a symbol on another player's card (assassination)
TEXT: Final = "text"  # a card's scroll text
EVENT: Final = "event"  # a random event
OWN: Final = "own"  # one's own card harming one's own piece (Here'n'Now, CMOT Dibbler, Errol)

REMOVE_MINION: Final = "remove_minion"
MOVE_MINION: Final = "move_minion"
REMOVE_BUILDING: Final = "remove_building"
AFFECT: Final = "text"

INTERRUPT_KIND: Final[dict[int, str]] = {
    c.index: c.params["kind"] for c in CARDS if c.effect == "interrupt"
}

Harm = tuple[Any, ...]  # (kind, victim, source seat, via, ...details)
TextEffect = Callable[..., None]
TEXT_EFFECTS: Final[dict[str, TextEffect]] = {}
MOVING_TEXTS: Final = frozenset({"swap"})  # text effects that move the victim's minions (D17)


def text_effect(name: str) -> Callable[[TextEffect], TextEffect]:
    """Register what a card text does to one player once it reaches them."""

    def register(fn: TextEffect) -> TextEffect:
        TEXT_EFFECTS[name] = fn
        return fn

    return register


# --- entry points --------------------------------------------------------------------------
def remove_minion(s: AnkhMorporkState, owner: int, area: int, source: int, via: str) -> None:
    """Remove one of ``owner``'s minions (or a troll or demon) from ``area``."""
    if owner in (TROLL, DEMON):
        if s.minions_of(owner, area):
            s.take_piece(owner, area)
            s.say(f"{piece_name(owner).capitalize()} was removed from {s.area_name(area)}.")
        return
    request(s, (REMOVE_MINION, owner, source, via, area))


def move_minion(
    s: AnkhMorporkState, owner: int, area: int, dest: int, source: int, via: str
) -> None:
    """Move one of ``owner``'s minions (or a troll or demon) from ``area`` to ``dest``."""
    if owner in (TROLL, DEMON):
        if s.minions_of(owner, area):
            s.move_piece(owner, area, dest)
            s.say(f"{piece_name(owner).capitalize()} was moved from {s.area_name(area)} "
                  f"to {s.area_name(dest)}.")
        return
    request(s, (MOVE_MINION, owner, source, via, area, dest))


def remove_building(s: AnkhMorporkState, area: int, source: int, via: str) -> None:
    """Remove the building in ``area``."""
    owner = s.building[area]
    if owner >= 0:
        request(s, (REMOVE_BUILDING, owner, source, via, area))


def affect(s: AnkhMorporkState, victim: int, source: int, effect: str, *args: Any) -> None:
    """Apply card text ``effect`` of ``source``'s card to ``victim`` (Wallace Sonky may stop it)."""
    request(s, (AFFECT, victim, source, TEXT, (effect, *args)))


def request(s: AnkhMorporkState, h: Harm) -> None:
    """Offer the victim their protections, or let the harm happen."""
    victim, source, via = h[1], h[2], h[3]
    if via == TEXT and source != victim and s.immune >> victim & 1:
        s.say(f"{s.colour(victim)} is not affected by the text (Wallace Sonky).")
        return
    if protections(s, h):
        s.stack.append(("protect", victim, h))
    else:
        happen(s, h)


def protections(s: AnkhMorporkState, h: Harm) -> list[Action]:
    """The protections the victim may use against ``h`` (ruling 19: only those that apply)."""
    kind, victim, source, via = h[0], h[1], h[2], h[3]
    wanted: list[str] = []
    by_other = source >= 0 and source != victim
    if via == TEXT and by_other and not s.text_asked >> victim & 1:
        wanted.append("wallace")
    if kind in (REMOVE_MINION, MOVE_MINION) and via in (SYMBOL, TEXT) and by_other:
        wanted.append("gaspode")
    if kind == AFFECT and h[4][0] in MOVING_TEXTS and by_other:
        wanted.append("gaspode")  # D17: a text that moves the victim's minion (The Bursar)
    if kind == REMOVE_MINION:
        wanted += ["susan", "relocate"]
    out: list[Action] = []
    seen: set[str] = set()
    for card in sorted(s.hands[victim]):
        k = INTERRUPT_KIND.get(card)
        if k in wanted and k not in seen:
            seen.add(k)
            out.append(act("protect", card=card))
    if via == EVENT and kind != AFFECT and s.can_use_small_gods(victim):
        out.append(act("protect", area=SMALL_GODS))
    return out


def happen(s: AnkhMorporkState, h: Harm) -> None:
    """Carry out a harm nobody stopped (pieces that have gone meanwhile are skipped)."""
    kind, victim = h[0], h[1]
    if kind == REMOVE_MINION:
        area = h[4]
        if s.minions[victim][area]:
            s.take_piece(victim, area)
            s.say(f"{s.colour(victim)}'s minion was removed from {s.area_name(area)}.")
    elif kind == MOVE_MINION:
        area, dest = h[4], h[5]
        if s.minions[victim][area]:
            s.move_piece(victim, area, dest)
            s.say(f"{s.colour(victim)}'s minion was moved from {s.area_name(area)} to "
                  f"{s.area_name(dest)}.")
    elif kind == REMOVE_BUILDING:
        area = h[4]
        if s.building[area] == victim:
            s.remove_building(area)
            s.say(f"{s.colour(victim)}'s building in {s.area_name(area)} was removed.")
    elif kind == AFFECT:
        effect, *args = h[4]
        TEXT_EFFECTS[effect](s, victim, h[2], *args)


def _describe(s: AnkhMorporkState, h: Harm) -> str:
    kind = h[0]
    if kind == REMOVE_MINION:
        return f"your minion in {s.area_name(h[4])} is about to be removed"
    if kind == MOVE_MINION:
        return f"your minion in {s.area_name(h[4])} is about to be moved to {s.area_name(h[5])}"
    if kind == REMOVE_BUILDING:
        return f"your building in {s.area_name(h[4])} is about to be removed"
    return f"{s.colour(h[2])}'s card text is about to affect you"


class Protect(Handler):
    """A victim decides whether to use a protection."""

    kind = "protect"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        return [*protections(s, f[2]), act("allow")]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        _, victim, h = f
        s.stack.pop()
        if h[3] == TEXT:
            s.text_asked |= 1 << victim
        if a.verb == "allow":
            happen(s, h)
            return
        who = s.colour(victim)
        if a.card < 0:
            s.money[victim] -= SMALL_GODS_FEE
            s.say(f"{who} paid ${SMALL_GODS_FEE} (Small Gods) to ignore the event.")
            return
        s.discard_from_hand(victim, a.card)
        kind = INTERRUPT_KIND[a.card]
        s.say(f"{who} played {CARDS[a.card].name}.")
        if kind == "wallace":
            s.immune |= 1 << victim
        elif kind == "relocate":
            area = h[4]
            s.take_piece(victim, area)
            s.stack.append(("relocate", victim, area))

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return f"decide whether to play an interrupt ({_describe(s, f[2])})"


handler(Protect)


class Relocate(Handler):
    """Fresh Start Club / Igor: put the saved minion into a different area (ruling 14)."""

    kind = "relocate"

    def legal(self, s: AnkhMorporkState, f: Frame) -> list[Action]:
        # Rulebook, Place a Minion: the placing rules apply "including due to the play of an
        # interrupt card"; the saved minion is already off the board.
        return [act("choose_area", area=a) for a in minion_targets(s, f[1]) if a != f[2]]

    def apply(self, s: AnkhMorporkState, f: Frame, a: Action) -> None:
        s.stack.pop()
        s.add_piece(f[1], a.area)
        s.say(f"{s.colour(f[1])}'s minion went to {s.area_name(a.area)} instead.")

    def describe(self, s: AnkhMorporkState, f: Frame) -> str:
        return "choose where the saved minion goes"


handler(Relocate)
