"""What one seat may see (rulings 69-70), and worlds re-sampled to fit it (determinization).

Public: money, levels, Guild Cards, returned spells, the Pox, Fire Water, effects, Runners,
face-up and discarded Volunteers, the prices of bought cards, how many cards each hand holds
and how many Saboteurs each player has planted. Hidden: which Volunteers, Scrolls and Items
another hand holds, each Saboteur's identity and quadrant, and the order of every deck.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from citywatch.core.api import ScorePart, SeatScore
from citywatch.core.rng import Rng
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    COLOURS,
    DECK_NAMES,
    DECK_SPACES,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    GUILD_HOUSES,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    SPELL_NAMES,
    STATS,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.explain import decision_notes, offered_guild_cards
from citywatch.games.guards_guards.frames import DECISIONS
from citywatch.games.guards_guards.position import run_json
from citywatch.games.guards_guards.state import STATE_HOOKS, GuardsGuardsState
from citywatch.games.guards_guards.turn import shop_deck

State = GuardsGuardsState
ITEM_CODE = 100
"""``bought`` holds a Scroll's index, or ``ITEM_CODE`` + an Item's index."""


def volunteer_json(v: int) -> dict[str, Any]:
    """A Volunteer card's face."""
    card = VOLUNTEERS[v]
    return {
        "name": card.name, "deck": DECK_NAMES[card.deck], "charm": card.charm,
        "bribe": "X" if card.bribe is None else card.bribe, "loyalty": card.loyalty,
        "streetwise": card.streetwise, "brawl": card.brawl, "toughness": card.toughness,
        "luggage_moves": card.luggage_moves,
        "marks": [m for m, on in (("brethren", card.brethren), ("fate", card.fate),
                                  ("wanted", card.wanted), ("infectious", card.infectious))
                  if on],
        "bonus": {a: d for a, d in zip(ATTRIBUTES, card.bonus, strict=True) if d},
        "ability": card.ability_text,
    }


def held_bought(s: State, p: int) -> list[int]:
    """The codes of ``s.bought[p]`` whose card ``p`` still holds (a price stays public only
    while the card is in the hand)."""
    return [c for c in s.bought[p]
            if (c in s.scrolls[p] if c < ITEM_CODE else c - ITEM_CODE in s.items[p])]


def _price(code: int) -> int:
    return ITEMS[code - ITEM_CODE].price if code >= ITEM_CODE else SCROLLS[code].price


def _seat_json(s: State, p: int, seat: int | None) -> dict[str, Any]:
    g = s.guild[p]
    card = GUILD_CARDS[g] if g >= 0 else None
    return {
        "colour": COLOURS[p],
        "guild_card": None if card is None else {
            "name": card.name, "guild": QUADRANTS[card.guild],
            "spells": [SPELL_COLOURS[c] for c in card.spells],
            "ability": card.ability_name, "ability_text": card.ability_text,
        },
        "gate": None if s.gate[p] < 0 else TILES[s.gate[p]].id,
        "tile": None if s.pos[p] < 0 else TILES[s.pos[p]].id,
        "levels": {a: s.attrs[p][i] for i, a in enumerate(ATTRIBUTES)},
        "effective": {a: s.level(p, i) for i, a in enumerate(ATTRIBUTES)},
        "dollars": s.dollars[p],
        "volunteers": len(s.hand[p]),
        "scrolls": len(s.scrolls[p]),
        "items": len(s.items[p]),
        "bought_prices": sorted(_price(c) for c in held_bought(s, p)),
        "kept": [FATE_CARDS[c].name for c in s.kept[p]],
        "saboteurs": len(s.saboteurs[p]),
        "returned": [SPELL_COLOURS[c] for c in s.returned[p]],
        "pox": s.pox[p],
        "fire_water": s.fire_water[p],
        "flasks": [COLOURS[o] for o in s.flasks[p]],
        "effects": [{"kind": e[0], "a": e[1], "b": e[2], "turns": e[3], "source": e[4]}
                    for e in s.effects[p]],
        "missed": s.missed[p],
        "jailed": s.jailed[p],
        "run": run_json(s.run[p]),
    }


def _own_json(s: State, seat: int) -> dict[str, Any]:
    return {
        "hand": [volunteer_json(v) for v in s.hand[seat]],
        "scrolls": [{"name": SCROLLS[c].name, "price": SCROLLS[c].price,
                     "magic_target": SCROLLS[c].magic_target, "text": SCROLLS[c].effect}
                    for c in s.scrolls[seat]],
        "items": [{"name": ITEMS[c].name, "price": ITEMS[c].price, "text": ITEMS[c].effect}
                  for c in s.items[seat]],
        "saboteurs": [{"quadrant": QUADRANTS[q], "volunteer": VOLUNTEERS[v].name,
                       "item": None if i < 0 else ITEMS[i].name}
                      for q, v, i in s.saboteurs[seat]],
    }


def view(s: State, seat: int | None) -> dict[str, Any]:
    """A JSON dict of exactly what ``seat`` may see (``None``: a spectator)."""
    s.check_seat(seat)
    decision = s.decision_view(seat, COLOURS, DECISIONS.describe)
    t = s.t
    if decision is not None and s.to_move == seat and t.seat == seat and s.current == seat \
            and t.moving and not t.stopped:
        left = max(0, t.allowance - t.steps)
        decision["reachable"] = sorted(TILES[x].id for x in board.reachable(s.pos[seat], left))
    if decision is not None and seat is not None and s.to_move == seat:
        explain_decision(s, seat, decision)
    return {
        "game": "guards-guards",
        "players": s.n,
        "seat": seat,
        "colour": None if seat is None else COLOURS[seat],
        "spells_to_win": s.spells_to_win,
        "turn": s.turn,
        "current": COLOURS[s.current],
        "decision": decision,
        "luggage": None if s.luggage < 0 else TILES[s.luggage].id,
        "dragons": {QUADRANTS[q]: {"name": DRAGONS[d].name, "brawl": DRAGONS[d].brawl,
                                   "toughness": DRAGONS[d].toughness}
                    for q, d in enumerate(s.dragons) if d >= 0},
        "dragon_pile": len(s.dragon_pile),
        "volunteer_decks": [
            {"deck": DECK_NAMES[d], "face_down": len(s.vol_down[d]),
             "face_up": [volunteer_json(v) for v in s.vol_up[d][-1:]],
             "face_up_count": len(s.vol_up[d]),
             "discard": [VOLUNTEERS[v].name for v in s.vol_discard[d]]}
            for d in range(3)
        ],
        "fate_deck": len(s.fate_deck),
        "fate_discard": [FATE_CARDS[c].name for c in s.fate_discard],
        "card_decks": {space.id: len(s.decks[space.index]) for space in DECK_SPACES},
        "volunteer_modifiers": [[VOLUNTEERS[v].name, STATS[i], d] for v, i, d in s.vol_mods],
        "seats": [_seat_json(s, p, seat) for p in range(s.n)],
        "own": None if seat is None else _own_json(s, seat),
        "result": None if s.result is None else s.result.to_json(),
    }


def explain_decision(s: State, seat: int, decision: dict[str, Any]) -> None:
    """Issue 27: the deciding seat's ``notes`` (lines about the whole choice) and
    ``action_notes`` (one per action, "" for none), from what that seat may know; at set-up,
    the faces of the ``guild_cards`` on offer."""
    legal = s.legal_actions()
    lines, notes = decision_notes(s, seat, legal, decision["actions_json"])
    cards = offered_guild_cards(s, legal)
    if cards:
        decision["guild_cards"] = cards
    if lines:
        decision["notes"] = lines
    if any(notes):
        decision["action_notes"] = notes


FINAL_SPELL = "the Final Spell returned"
"""``Outcome.reason`` when a player returned the Final Spell (``spells.challenge_done``)."""


def _spells(n: int) -> str:
    return f"{n} Great Spell{'' if n == 1 else 's'}"


def end_scores(s: State) -> tuple[SeatScore, ...] | None:
    """Each seat's end of the finished game (``Game.score_breakdown``): one point per Great
    Spell returned, each named (Winning the Game); why it won or lost (the Final Spell, the
    Dragons' win, or the Short Game's judging by spells, then dollars; ruling 48); its Guild
    Card, hand and Saboteurs revealed."""
    result = s.result
    if result is None:
        return None
    out = []
    for p in range(s.n):
        parts = tuple(ScorePart(f"Great Spell returned: {SPELL_NAMES[c]}", 1,
                                SPELL_COLOURS[c]) for c in s.returned[p])
        guild = GUILD_CARDS[s.guild[p]].name if s.guild[p] >= 0 else "none"
        hand = [VOLUNTEERS[v].name for v in s.hand[p]]
        cards = [SCROLLS[c].name for c in s.scrolls[p]] + [ITEMS[c].name for c in s.items[p]]
        saboteurs = [f"{VOLUNTEERS[v].name} in the {QUADRANTS[q]} quadrant"
                     for q, v, _item in s.saboteurs[p]]
        revealed = (("Guild Card", guild), ("Volunteers in hand", ", ".join(hand) or "none"),
                    ("Scrolls and Items", ", ".join(cards) or "none"),
                    ("Saboteurs", ", ".join(saboteurs) or "none"))
        notes = (f"Dollars: ${s.dollars[p]} (the tie break when Great Spells are tied).",)
        out.append(SeatScore(parts, _why(s, p), revealed, notes))
    return tuple(out)


def _why(s: State, p: int) -> str:
    """Why seat ``p`` won or lost, in a sentence."""
    result = s.result
    assert result is not None
    mine = len(s.returned[p])
    have = f"returned {_spells(mine)}" if mine else "returned no Great Spell (0 points)"
    if result.reason == "the dragons win":
        return (f"Lost: the Dragons won (the last fight against a Dragon was lost), and every "
                f"player loses; {have}.")
    if result.reason == FINAL_SPELL:
        (winner,) = result.winners
        if p == winner:
            return f"Won: returned the Final Spell, the {_spells(s.spells_to_win)} to win."
        return (f"Did not win: {COLOURS[winner]} returned the Final Spell first; {have}.")
    # Stopped and judged as the Short Game: spells, then dollars (ruling 48).
    best = max(len(x) for x in s.returned)
    tied = [q for q in range(s.n) if len(s.returned[q]) == best]
    if p in result.winners:
        shared = [COLOURS[q] for q in result.winners if q != p]
        if len(tied) == 1:
            how = f"the most Great Spells returned ({best})"
        elif shared:
            how = f"tied on {_spells(best)} and on dollars (${s.dollars[p]})"
        else:
            how = f"tied on {_spells(best)} and held the most dollars (${s.dollars[p]})"
        return (f"Won when the game stopped ({result.reason}): {how}"
                + (f"; shares the win with {' and '.join(shared)}" if shared else "") + ".")
    if mine == best:
        top = s.dollars[result.winners[0]]
        return (f"Did not win: tied on {_spells(best)}, but held ${s.dollars[p]} against "
                f"${top} when the game stopped ({result.reason}).")
    return (f"Did not win: {have}, {best - mine} fewer than the winner when the game stopped "
            f"({result.reason}).")


def determinize(s: State, seat: int, rng: Rng) -> State:
    """A full state that ``seat`` cannot tell from ``s``: hidden parts drawn from ``rng``.

    Pools are computed from public facts: every card minus those ``seat`` can see. Another
    player's Saboteurs are re-drawn from the Brethren of the pool into random quadrants;
    a bought card is re-drawn among unseen cards of the same kind and price (ruling 69).
    """
    d = s.sampling_copy(seat, rng)
    d.say(f"A world sampled for {COLOURS[seat]}: the earlier log is not carried over.")
    others = [p for p in range(d.n) if p != seat]
    for p in range(d.n):
        d.bought[p] = tuple(held_bought(d, p))
    _redeal_volunteers(d, seat, others, rng)
    _redeal_cards(d, seat, others, rng, shown_deck(d, seat))
    _redeal_runners(d, seat, rng)
    hidden_fates = sorted(d.fate_deck)  # sorted: the sample may not depend on the true order
    rng.shuffle(hidden_fates)
    d.fate_deck = hidden_fates
    d.dragon_pile.sort()
    rng.shuffle(d.dragon_pile)
    return d


def _redeal_runners(d: State, seat: int, rng: Rng) -> None:
    """Runners another seat is choosing for a Spell Run are hidden until the run is announced:
    re-pick them (and their Items) from that seat's re-dealt hand, as many as were chosen."""
    f = d.stack[-1] if d.stack else None
    if f is None or f[0] != "run" or f[1] == seat or not f[4]:
        return
    mover = f[1]
    hand = sorted(d.hand[mover])
    rng.shuffle(hand)
    items = sorted(d.items[mover])
    rng.shuffle(items)
    chosen = []
    for _, item in f[4]:
        chosen.append((hand.pop(), items.pop() if item >= 0 and items else -1))
    d.stack[-1] = (*f[:4], tuple(chosen))


def _redeal_volunteers(d: State, seat: int, others: list[int], rng: Rng) -> None:
    pool: list[int] = []
    for p in others:
        pool += d.hand[p]
        pool += [v for _, v, _ in d.saboteurs[p]]
    for deck in range(3):
        pool += d.vol_down[deck]
    pool.sort()
    by_deck: list[list[int]] = [[v for v in pool if VOLUNTEERS[v].deck == k] for k in range(3)]
    need = [len(d.vol_down[k]) for k in range(3)]
    spare = [len(by_deck[k]) - need[k] for k in range(3)]
    for k in range(3):
        rng.shuffle(by_deck[k])
    # Saboteurs first: Brethren from decks that can spare a card
    for p in others:
        new: list[tuple[int, int, int]] = []
        quadrants = list(range(4))
        rng.shuffle(quadrants)
        for i, (_, _, item) in enumerate(d.saboteurs[p]):
            choices = [v for k in range(3) if spare[k] > 0 for v in by_deck[k]
                       if VOLUNTEERS[v].brethren]
            v = choices[rng.below(len(choices))]
            k = VOLUNTEERS[v].deck
            by_deck[k].remove(v)
            spare[k] -= 1
            new.append((quadrants[i], v, item))
        d.saboteurs[p] = tuple(new)
    rest: list[int] = []
    for k in range(3):
        d.vol_down[k] = by_deck[k][:need[k]]
        rest += by_deck[k][need[k]:]
    rng.shuffle(rest)
    for p in others:
        size = len(d.hand[p])
        d.hand[p] = rest[:size]
        del rest[:size]


def shown_deck(s: State, seat: int) -> int:
    """The deck space ``seat`` is looking through at a Merchant or Temple now, or -1 (the
    shopper sees the whole deck: rulebook, Casting Scrolls "lift the ... deck")."""
    if not s.stack:
        return -1
    f = s.stack[-1]
    if f[0] != "pass_through" or f[1] != seat:
        return -1
    kind = TILES[f[2]].kind
    if kind not in SHOP_DECKS:
        return -1
    return shop_deck(s, seat, SHOP_DECKS[kind])


SHOP_DECKS = {"merchant": "odds_and_sods", "temple": "curses_and_cures"}


def _redeal_cards(d: State, seat: int, others: list[int], rng: Rng, shown: int) -> None:
    for kind, hands, cards, offset in (("curses_and_cures", d.scrolls, SCROLLS, 0),
                                       ("odds_and_sods", d.items, ITEMS, ITEM_CODE)):
        spaces = [sp.index for sp in DECK_SPACES if sp.deck == kind and sp.index != shown]
        pool: list[int] = [c for p in others for c in hands[p]]
        for sp in spaces:
            pool += d.decks[sp]
        pool.sort()
        rng.shuffle(pool)
        # bought cards keep their price
        for p in others:
            bought = [c - offset for c in d.bought[p] if (c >= ITEM_CODE) == (offset > 0)]
            new_hand: list[int] = []
            new_bought: list[int] = [c for c in d.bought[p] if (c >= ITEM_CODE) != (offset > 0)]
            for c in bought:
                same = next(x for x in pool if cards[x].price == cards[c].price)
                pool.remove(same)
                new_hand.append(same)
                new_bought.append(same + offset)
            hands[p][:] = new_hand + [0] * (len(hands[p]) - len(new_hand))
            d.bought[p] = tuple(new_bought)
        for p in others:
            fixed = len([c for c in d.bought[p] if (c >= ITEM_CODE) == (offset > 0)])
            for i in range(fixed, len(hands[p])):
                hands[p][i] = pool.pop()
        for sp in spaces:
            size = len(d.decks[sp])
            d.decks[sp] = pool[:size]
            del pool[:size]


_TILE_WORDS = re.compile(r"(?<!\w)(?:" + "|".join(
    re.escape(t.name) for t in sorted(TILES, key=lambda t: -len(t.name))) + r")(?!\w)")
_TILE_IDS = {t.name: t.id for t in TILES}
_HOUSES = dict(zip(QUADRANTS, GUILD_HOUSES, strict=True))


def move_spaces(before: dict[str, Any], after: dict[str, Any],
                lines: Sequence[str]) -> list[str]:
    """The tiles one decision touched (issue 26), by id (as the views name them) in the
    board's order: where a player's piece or the Luggage was and went (the spectator's views
    ``before`` and ``after`` it), a Guild House a Dragon came to, and the tiles the public
    ``lines`` name."""
    ids: set[str | None] = set()
    for old, new in zip(before.get("seats", []), after.get("seats", []), strict=False):
        if old.get("tile") != new.get("tile"):
            ids.update((old.get("tile"), new.get("tile")))
    if before.get("luggage") != after.get("luggage"):
        ids.update((before.get("luggage"), after.get("luggage")))
    came = set(after.get("dragons") or {}) - set(before.get("dragons") or {})
    ids.update(TILES[_HOUSES[q]].id for q in came if q in _HOUSES)
    ids.update(_TILE_IDS[match.group(0)] for line in lines
               for match in _TILE_WORDS.finditer(line))
    return [t.id for t in TILES if t.id in ids]


STATE_HOOKS.view = view
STATE_HOOKS.determinize = determinize
