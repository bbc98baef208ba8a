"""Winning: personalities (rulings 1, 26-28), the end of the game and points (24-25)."""

from __future__ import annotations

from typing import Final

from citywatch.core.api import Outcome
from citywatch.games.ankh_morpork.data import (
    AREAS,
    CARDS,
    CHRYSOPRASE_WORTH,
    DRAGON_KING_TROUBLE,
    LORD_AREAS,
    LORDS,
    NUM_AREAS,
    PERSONALITIES,
    VETINARI_AREAS,
)
from citywatch.games.ankh_morpork.state import LOAN_CARDS, AnkhMorporkState

MINION_POINTS: Final = 5


def controls(s: AnkhMorporkState, seat: int, area: int) -> bool:
    """More pieces than each other player and than the trolls; no demon (ruling 27)."""
    if s.demons[area]:
        return False
    mine = s.minions[seat][area] + (s.building[area] == seat)
    if mine <= s.trolls[area]:
        return False
    for other in range(s.n):
        if other != seat and s.minions[other][area] + (s.building[area] == other) >= mine:
            return False
    return True


def controlled_areas(s: AnkhMorporkState, seat: int) -> int:
    """How many areas ``seat`` controls."""
    mine_row, building, trolls, demons = s.minions[seat], s.building, s.trolls, s.demons
    others = [(q, s.minions[q]) for q in range(s.n) if q != seat]
    count = 0
    for a in range(NUM_AREAS):  # ``controls`` for every area, unrolled: search calls it often
        mine = mine_row[a] + (building[a] == seat)
        if not mine or demons[a] or mine <= trolls[a]:
            continue
        if all(row[a] + (building[a] == q) < mine for q, row in others):
            count += 1
    return count


def spy_areas(s: AnkhMorporkState, seat: int) -> int:
    """Demon-free areas holding at least one of ``seat``'s minions (ruling 28)."""
    return sum(1 for a in range(NUM_AREAS) if s.minions[seat][a] and not s.demons[a])


def net_worth(s: AnkhMorporkState, seat: int) -> int:
    """Cash + cost of own buildings outside demon areas - $12 per loan (ruling 26)."""
    buildings = sum(AREAS[a].cost for a in s.buildings_of(seat) if not s.demons[a])
    debt: int = sum(CARDS[c].params["repay"] for c in s.in_front[seat] if c in LOAN_CARDS)
    return s.money[seat] + buildings - debt


def personality_met(s: AnkhMorporkState, seat: int) -> bool:
    """True if ``seat``'s personality's win condition holds now."""
    name = PERSONALITIES[s.personality[seat]].name
    if name == "Lord Vetinari":
        return spy_areas(s, seat) >= VETINARI_AREAS[s.n]
    if name in LORDS:
        return controlled_areas(s, seat) >= LORD_AREAS[s.n]
    if name == "Dragon King of Arms":
        return s.trouble_count() >= DRAGON_KING_TROUBLE
    if name == "Chrysoprase":
        return net_worth(s, seat) >= CHRYSOPRASE_WORTH
    return False  # Commander Vimes wins only when the deck runs out


def check_personality(s: AnkhMorporkState, seat: int) -> bool:
    """At the start of ``seat``'s turn: end the game if their personality is met (ruling 1)."""
    if not personality_met(s, seat):
        return False
    name = PERSONALITIES[s.personality[seat]].name
    s.say(f"{s.colour(seat)} reveals {name} and wins.")
    _finish(s, Outcome((seat,), "personality", None, {"personality": name}))
    return True


def points(s: AnkhMorporkState) -> tuple[int, ...]:
    """Points per seat (ruling 25): $5 a minion, building costs, cash, loans repaid or -15."""
    out = []
    for seat in range(s.n):
        total = 0
        for a in range(NUM_AREAS):
            if s.demons[a]:
                continue
            total += MINION_POINTS * s.minions[seat][a]
            if s.building[a] == seat:
                total += AREAS[a].cost
        cash = s.money[seat]
        for card in s.in_front[seat]:
            if card in LOAN_CARDS:
                repay = CARDS[card].params["repay"]
                if cash >= repay:
                    cash -= repay
                else:
                    total -= CARDS[card].params["penalty"]
        out.append(total + cash)
    return tuple(out)


def best_area_card(s: AnkhMorporkState, seat: int) -> int:
    """The cost of the most expensive City Area card ``seat`` holds (0 if none)."""
    return max((AREAS[a].cost for a in range(NUM_AREAS) if s.area_card[a] == seat), default=0)


def winners_on_points(s: AnkhMorporkState, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Most points; ties broken by the most expensive City Area card; else shared."""
    top = max(scores)
    tied = [seat for seat in range(s.n) if scores[seat] == top]
    if len(tied) > 1:
        best = max(best_area_card(s, seat) for seat in tied)
        tied = [seat for seat in tied if best_area_card(s, seat) == best]
    return tuple(tied)


def end_on_points(s: AnkhMorporkState, reason: str) -> None:
    """End the game and score it on points."""
    scores = points(s)
    winners = winners_on_points(s, scores)
    s.say("Points: " + ", ".join(f"{s.colour(i)} {p}" for i, p in enumerate(scores)) + ".")
    s.say("Winner: " + " and ".join(s.colour(w) for w in winners) + ".")
    _finish(s, Outcome(winners, reason, scores))


def end_by_deck(s: AnkhMorporkState) -> None:
    """The draw pile is empty: Commander Vimes wins, else points (ruling 24)."""
    s.say("The draw pile is empty: the game ends.")
    for seat in range(s.n):
        if PERSONALITIES[s.personality[seat]].name == "Commander Vimes":
            s.say(f"{s.colour(seat)} reveals Commander Vimes and wins.")
            _finish(s, Outcome((seat,), "deck", None, {"personality": "Commander Vimes"}))
            return
    end_on_points(s, "deck")


def _finish(s: AnkhMorporkState, outcome: Outcome) -> None:
    names = [PERSONALITIES[p].name for p in s.personality]
    s.say("Personalities: " + ", ".join(f"{s.colour(i)} was {n}" for i, n in enumerate(names))
          + ".")
    s.result = Outcome(outcome.winners, outcome.reason, outcome.points, outcome.details,
                       roles=tuple(names), final_points=tuple(points(s)))
    s.stack.clear()
