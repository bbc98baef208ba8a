"""Guardians of the City test situations built FROM POSITIONS
(``docs/guardians-of-the-city-position.md``).

``base()`` is a real game after set-up, written by ``state.position()``; the helpers below edit
that JSON by names (seats, card names, groups, cells, pillars) and keep it valid: a card put in
a hand, on a deck or a pile is first taken from wherever it was in that seat's own cards, so
every card of a deck stays in exactly one place. ``load`` reads the JSON back with
``GAME.from_position`` (which checks it). ``step2`` writes the moment a seat plays Action
cards, ``reveal`` the moment a seat reveals its top Crisis cards, ``triggers`` the moment the
active Subversives strike; each leaves the seat's Step 4 below, so play stops there; ``step4``
the moment a seat discards and draws.
``act`` plays on through legal actions named by their text.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from citywatch.games.guardians_of_the_city.actions import SEATS
from citywatch.games.guardians_of_the_city.data import CELLS, GROUPS, PILLARS
from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.state import GotcState

Position = dict[str, Any]
State = GotcState
ACTION_PLACES = ("action_deck", "action_discard", "hand")
CRISIS_PLACES = ("crisis_deck", "crisis_discard")


def base(players: int = 2, seed: int = 1, decks: Any = None) -> Position:
    """A real game at its first decision (set-up effort), as a position."""
    return copy.deepcopy(GAME.new_game(players, seed, decks=decks).position())


def deck_with(*names: str) -> str:
    """The id of the first starter deck holding every card named."""
    for deck in STARTER_DECKS:
        listed = {row["name"] for side in ("action", "crisis") for row in deck.to_json()[side]}
        if set(names) <= listed:
            return deck.id
    raise AssertionError(f"no starter deck holds all of {names}")


def game_with(*cards: str, players: int = 2, seed: int = 1, others: str = "") -> Position:
    """``base`` where seat 0 plays a starter deck holding ``cards`` and the others play
    ``others`` (a starter deck id; default the same deck)."""
    mine = deck_with(*cards)
    return base(players, seed, [mine] + [others or mine] * (players - 1))


def load(pos: Position) -> State:
    """Read the position back (checked by ``from_position``)."""
    return GAME.from_position(copy.deepcopy(pos))


def seat(pos: Position, p: int) -> dict[str, Any]:
    """The seat's part of the position."""
    seats: list[dict[str, Any]] = pos["seats"]
    return seats[p]


def _take(sj: dict[str, Any], name: str, places: tuple[str, ...]) -> None:
    for place in places:
        pile = sj[place]
        if name in pile:
            pile.reverse()
            pile.remove(name)
            pile.reverse()
            if place == "hand" and name in sj["known"] and \
                    sj["known"].count(name) > sj["hand"].count(name):
                sj["known"].remove(name)
            return
    raise AssertionError(f"{sj['seat']} has no more {name!r} to move (check the deck list)")


def hand(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Give seat ``p`` exactly ``names`` in hand (the old hand goes to the bottom of the
    deck)."""
    sj = seat(pos, p)
    sj["action_deck"][:0] = sj["hand"]
    sj["hand"] = []
    sj["known"] = []
    for name in names:
        _take(sj, name, ("action_deck", "action_discard"))
        sj["hand"].append(name)
    return pos


def deck_top(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Put ``names`` on top of the seat's Action deck, the first name drawn first."""
    sj = seat(pos, p)
    for name in reversed(list(names)):
        _take(sj, name, ACTION_PLACES)
        sj["action_deck"].append(name)
    return pos


def action_deck(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Leave exactly ``names`` in the seat's Action deck (the first drawn first); every other
    card of the deck goes to the discard pile."""
    sj = seat(pos, p)
    sj["action_discard"].extend(sj["action_deck"])
    sj["action_deck"] = []
    for name in reversed(list(names)):
        _take(sj, name, ("action_discard",))
        sj["action_deck"].append(name)
    return pos


def discards(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Move ``names`` onto the seat's Action discard pile."""
    sj = seat(pos, p)
    for name in names:
        _take(sj, name, ("action_deck", "action_discard"))
        sj["action_discard"].append(name)
    return pos


def crisis_top(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Put ``names`` on top of the seat's Crisis deck, the first name revealed first."""
    sj = seat(pos, p)
    for name in reversed(list(names)):
        _take(sj, name, CRISIS_PLACES)
        sj["crisis_deck"].append(name)
    return pos


def crisis_deck(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Leave exactly ``names`` in the seat's Crisis deck (the first revealed first)."""
    sj = seat(pos, p)
    sj["crisis_discard"].extend(sj["crisis_deck"])
    sj["crisis_deck"] = []
    for name in reversed(list(names)):
        _take(sj, name, ("crisis_discard",))
        sj["crisis_deck"].append(name)
    return pos


def subversive(pos: Position, p: int, name: str | None) -> Position:
    """Make ``name`` the Subversive active in front of seat ``p`` (None: none); the old one
    goes back to the bottom of the seat's Crisis deck."""
    sj = seat(pos, p)
    if sj["subversive"] is not None:
        sj["crisis_deck"].insert(0, sj["subversive"])
        sj["subversive"] = None
    if name is not None:
        _take(sj, name, CRISIS_PLACES)
        sj["subversive"] = name
    return pos


def score_pile(pos: Position, p: int, names: Iterable[str]) -> Position:
    """Move ``names`` (Special Intelligence) into the seat's Score pile."""
    sj = seat(pos, p)
    for name in names:
        _take(sj, name, ACTION_PLACES)
        sj["score_pile"].append(name)
    return pos


def effort(pos: Position, p: int, levels: str) -> Position:
    """Set the printed effort from five digits in pillar order, e.g. ``"43212"``."""
    seat(pos, p)["effort"] = dict(zip(PILLARS, (int(c) for c in levels), strict=True))
    return pos


def support(pos: Position, p: int, levels: str) -> Position:
    """Set the four groups' support from four digits in group order, e.g. ``"4301"``."""
    seat(pos, p)["support"] = dict(zip(GROUPS, (int(c) for c in levels), strict=True))
    return pos


def cells(pos: Position, levels: str) -> Position:
    """Set the three cells' strength from three digits, e.g. ``"630"``."""
    pos["cells"] = dict(zip(CELLS, (int(c) for c in levels), strict=True))
    return pos


def shield(pos: Position, p: int, amount: int) -> Position:
    """Set the seat's Shield."""
    seat(pos, p)["shield"] = amount
    return pos


def lasting(pos: Position, p: int, card: str, paired: str, protect: Iterable[str] = (),
            frozen: Iterable[str] = (), boost: tuple[str, int] | None = None) -> Position:
    """Put a lasting Galvanised People card in front of seat ``p``."""
    sj = seat(pos, p)
    _take(sj, card, ACTION_PLACES)
    sj["lasting"].append({
        "card": card, "paired": paired, "protect": list(protect), "frozen": list(frozen),
        "boost": None if boost is None else {"pillar": boost[0], "amount": boost[1]}})
    return pos


def _turn(pos: Position, p: int, step: int, stack: list[Any]) -> Position:
    pos["current"] = SEATS[p]
    pos["turn"] = max(pos["turn"], 1)
    pos["step"] = step
    pos["plays"] = 0
    seat(pos, p)["turns"] = max(seat(pos, p)["turns"], 1)
    pos["stack"] = [["ops", -1, [["check_end"]]], ["step4", p], *stack]
    return pos


def step4(pos: Position, p: int) -> Position:
    """Seat ``p`` is in Step 4: discard, then draw (the end is checked after)."""
    return _turn(pos, p, 4, [])


def step2(pos: Position, p: int) -> Position:
    """Seat ``p`` is in Step 2 with no card played yet (its Step 4 waits below)."""
    return _turn(pos, p, 2, [["play", p]])


def reveal(pos: Position, p: int, count: int = 1) -> Position:
    """Seat ``p`` reveals ``count`` Crisis cards from the top of its deck (then Step 4)."""
    steps = [["reveal", p]] * count + [["check_end"]]
    return _turn(pos, p, 3, [["ops", -1, steps]])


def triggers(pos: Position, p: int) -> Position:
    """The active Subversives strike at the end of seat ``p``'s Step 3 (then Step 4)."""
    return _turn(pos, p, 3, [["ops", -1, [["triggers", p], ["check_end"]]]])


def legal(s: State) -> list[str]:
    """The legal actions' texts."""
    return [str(a) for a in s.legal_actions()]


def act(s: State, *texts: str) -> State:
    """Apply the legal actions named by their texts, in order."""
    for text in texts:
        found = [a for a in s.legal_actions() if str(a) == text]
        assert found, f"{text!r} is not legal; legal: {legal(s)}"
        s.apply(found[0])
    return s


def task(s: State) -> tuple[str | None, str]:
    """(kind of the pending frame, the seat deciding) for asserting where play stopped."""
    if s.to_move is None:
        return None, ""
    return s.stack[-1][0], SEATS[s.to_move]
