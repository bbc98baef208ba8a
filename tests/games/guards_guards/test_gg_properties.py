"""Guards! Guards!: property tests over random games (hypothesis).

Legal actions are chosen by the drawn integers; after EVERY step: each Volunteer, Scroll, Item
and Fate card is in exactly one place and each Dragon once; attributes are on the 0-10 track
and effective levels never below 0; dollars are never negative; at most one player stands on a
one-player tile (the mover passing through excepted); the state is a valid position that
round-trips through JSON (position and every seat's view equal); and no seat's view names a
Volunteer, Scroll or Item hidden in another hand (rulings 69-70).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citywatch.games.guards_guards.data import (
    DRAGONS,
    FATE_CARDS,
    ITEMS,
    SCROLLS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.state import SHARED_TILES, GuardsGuardsState

State = GuardsGuardsState
VOLUNTEER_NAMES = [v.name for v in VOLUNTEERS]


def cards_in_one_place(s: State) -> None:
    vols: Counter[int] = Counter()
    scrolls: Counter[int] = Counter()
    items: Counter[int] = Counter()
    fates: Counter[int] = Counter()
    for p in range(s.n):
        vols.update(s.hand[p])
        for _, v, i in s.saboteurs[p]:
            vols[v] += 1
            if i >= 0:
                items[i] += 1
        scrolls.update(s.scrolls[p])
        items.update(s.items[p])
        fates.update(s.kept[p])
        run = s.run[p]
        if run is not None:
            for v, i in run.runners + run.at_gate:
                vols[v] += 1
                if i >= 0:
                    items[i] += 1
    for f in s.stack:  # Volunteers on their way to fight a Dragon
        if f[0] == "dragon" and f[2] in ("send", "fight"):
            for _, v, i in f[4]:
                vols[v] += 1
                if i >= 0:
                    items[i] += 1
    for d in range(3):
        vols.update(s.vol_down[d] + s.vol_up[d] + s.vol_discard[d])
    fates.update(s.fate_deck + s.fate_discard)
    for space, cards in enumerate(s.decks):
        (items if space in (0, 1) else scrolls).update(cards)
    assert vols == Counter(range(len(VOLUNTEERS)))
    assert scrolls == Counter(range(len(SCROLLS)))
    assert items == Counter(range(len(ITEMS)))
    assert fates == Counter(range(len(FATE_CARDS)))
    dragons = Counter(s.dragon_pile) + Counter(d for d in s.dragons if d >= 0)
    assert dragons == Counter(range(len(DRAGONS)))


def tracks_money_and_tiles(s: State) -> None:
    for p in range(s.n):
        assert all(0 <= a <= 10 for a in s.attrs[p])
        assert all(s.level(p, a) >= 0 for a in range(3))
        assert s.dollars[p] >= 0
    standing: Counter[int] = Counter()
    for p in range(s.n):
        passing = s.t.moving and not s.t.stopped and p == s.t.seat
        if s.pos[p] >= 0 and not passing:
            standing[s.pos[p]] += 1
    assert all(n == 1 or t in SHARED_TILES for t, n in standing.items()), \
        [TILES[t].name for t, n in standing.items() if n > 1]


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in strings(v)]
    if isinstance(value, list | tuple):
        return [x for v in value for x in strings(v)]
    return []


def names_in(text: str, name: str, longer: list[str]) -> bool:
    """True if ``name`` occurs in ``text`` other than inside a longer card name."""
    for other in longer:
        text = text.replace(other, "")
    return name in text


def round_trips_and_hides(s: State) -> None:
    pos = s.position()
    text = json.dumps(pos)
    back = GAME.from_position(json.loads(text))
    assert back.position() == pos
    for seat in range(s.n):
        view = s.view(seat)
        assert back.view(seat) == view
        view = dict(view)
        view.pop("volunteer_modifiers")  # a Scroll cast on a Volunteer names it in public
        leaves = strings(view)
        # A Scroll or Item is named in public once it is used: the task of a committed cast
        # ("choose the target of ..."), a City Map's effect shown face up.
        public_use = strings(view["decision"]) + [
            e["source"] for p in view["seats"] for e in p["effects"]]
        card_leaves = [leaf for leaf in leaves if leaf not in public_use]
        for other in range(s.n):
            if other == seat:
                continue
            hidden = [(VOLUNTEERS[v].name, leaves) for v in s.hand[other]]
            hidden += [(SCROLLS[c].name, card_leaves) for c in s.scrolls[other]]
            hidden += [(ITEMS[c].name, card_leaves) for c in s.items[other]]
            for name, where in hidden:
                longer = [n for n in VOLUNTEER_NAMES if name in n and n != name]
                assert not any(names_in(leaf, name, longer) for leaf in where), \
                    f"{s.colour(seat)}'s view names {name} of {s.colour(other)}'s hand"


def check(s: State) -> None:
    cards_in_one_place(s)
    tracks_money_and_tiles(s)
    round_trips_and_hides(s)


def play(seed: int, players: int, choices: list[int], prefer_moves: bool) -> None:
    s = GAME.new_game(players, seed)
    check(s)
    for c in choices:
        if s.outcome() is not None:
            break
        acts = s.legal_actions()
        if prefer_moves:  # wander the city rather than end turns at once
            moving = [a for a in acts if a.verb not in ("end_movement", "end_turn")]
            if moving and c % 4:
                acts = moving
        s.apply(acts[c % len(acts)])
        check(s)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       choices=st.lists(st.integers(0, 10**6), min_size=50, max_size=250))
def test_random_games_keep_every_invariant(seed: int, players: int, choices: list[int]) -> None:
    """Every reached state: cards in one place, levels on the track, dollars >= 0, one player
    per one-player tile, a valid position that round-trips, views that hide others' hands."""
    play(seed, players, choices, prefer_moves=False)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       choices=st.lists(st.integers(0, 10**6), min_size=150, max_size=400))
def test_wandering_games_keep_every_invariant(seed: int, players: int,
                                              choices: list[int]) -> None:
    """The same invariants in games whose players mostly keep moving (recruiting, shopping,
    spells and the Luggage come up more often)."""
    play(seed, players, choices, prefer_moves=True)
