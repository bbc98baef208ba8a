"""High Card, a tiny game with hidden hands, a hidden draw pile and chance: the stand-in for
"a new game on the day it registers" in the conformance, terminal and browser tests.

It implements only the core API (``citywatch.core.api``) and none of the optional seams,
so every interface must fall back to its generic presentation for it.

Rules: a deck of cards 1 to 3n+4 for n players (2 to 4) is shuffled; each seat is dealt two
hidden cards. In turn, a seat plays a card from its hand face up, or draws the top card of
the pile (only with fewer than three cards in hand and a card left in the pile). When every
seat has played two cards the game ends: the highest total of played cards wins (ties share).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from citywatch.core.api import COMPETITIVE, Game, GameType, Outcome, Role, State, ViewKeys
from citywatch.core.errors import IllegalAction, InvalidPosition
from citywatch.core.log import LogEntry, LogNode, log_append, log_lines
from citywatch.core.registry import register, unregister
from citywatch.core.rng import Rng, Seed, rng_from_json, rng_from_seed

NAME = "toy"
PLAYS = 2
MAX_HAND = 3


@dataclass(frozen=True)
class Move:
    """``play`` a card, or ``draw``."""

    verb: str
    card: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "card": self.card} if self.verb == "play" else {"verb": "draw"}

    def __str__(self) -> str:
        return f"Play {self.card}" if self.verb == "play" else "Draw a card"


class HighCardState(State):
    """One moment of High Card."""

    def __init__(self, players: int) -> None:
        self.n = players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.played: list[list[int]] = [[] for _ in range(players)]
        self.pile: list[int] = []  # the top is the last card
        self.current = 0
        self.turns = 0
        self.rng = Rng(0)
        self.tail: LogNode | None = None

    @property
    def game(self) -> Game:
        return GAME

    @property
    def players(self) -> int:
        return self.n

    @property
    def to_move(self) -> int | None:
        return None if self._over() else self.current

    def _over(self) -> bool:
        return all(len(p) >= PLAYS for p in self.played)

    def legal_actions(self) -> list[Any]:
        if self._over():
            return []
        moves: list[Any] = [Move("play", c) for c in sorted(self.hands[self.current])]
        if self.pile and len(self.hands[self.current]) < MAX_HAND:
            moves.append(Move("draw"))
        return moves

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action} is not legal now")
        seat = self.current
        if action.verb == "play":
            self.hands[seat].remove(action.card)
            self.played[seat].append(action.card)
            self.say(LogEntry(f"Seat {seat + 1} played {action.card}."))
        else:
            card = self.pile.pop()
            self.hands[seat].append(card)
            self.say(LogEntry(f"Seat {seat + 1} drew {card}.", frozenset({seat}),
                              f"Seat {seat + 1} drew a card."))
        self.turns += 1
        for step in range(1, self.n + 1):
            nxt = (seat + step) % self.n
            if len(self.played[nxt]) < PLAYS:
                self.current = nxt
                break

    def say(self, entry: LogEntry) -> None:
        self.tail = log_append(self.tail, entry)

    def copy(self) -> HighCardState:
        c = HighCardState(self.n)
        c.hands = [h[:] for h in self.hands]
        c.played = [p[:] for p in self.played]
        c.pile = self.pile[:]
        c.current, c.turns, c.rng, c.tail = self.current, self.turns, self.rng.copy(), self.tail
        return c

    def outcome(self) -> Outcome | None:
        if not self._over():
            return None
        points = tuple(sum(p) for p in self.played)
        best = max(points)
        return Outcome(tuple(s for s in range(self.n) if points[s] == best), "highest total",
                       points)

    def view(self, seat: int | None) -> dict[str, Any]:
        result = self.outcome()
        return {
            "game": NAME,
            "seat": seat,
            "current": self.to_move,
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "played": [p[:] for p in self.played],
            "pile": len(self.pile),
            "result": None if result is None else result.to_json(),
        }

    def determinize(self, seat: int, rng: Rng) -> HighCardState:
        d = self.copy()
        unknown = sorted([c for s in range(self.n) if s != seat for c in d.hands[s]] + d.pile)
        rng.shuffle(unknown)
        for s in range(self.n):
            if s != seat:
                size = len(d.hands[s])
                d.hands[s], unknown = unknown[:size], unknown[size:]
        d.pile = unknown
        d.rng = rng.spawn()
        return d

    def log(self, seat: int | None = None) -> list[str]:
        return log_lines(self.tail, seat)

    def position(self) -> dict[str, Any]:
        return {"players": self.n, "hands": [h[:] for h in self.hands],
                "played": [p[:] for p in self.played], "pile": self.pile[:],
                "current": self.current, "turns": self.turns,
                "rng": self.rng.to_json()}

    def turn_count(self) -> int:
        return self.turns

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HighCardState):
            return NotImplemented
        return self.position() == other.position() and self.log() == other.log()


class HighCard(Game):
    """High Card for 2 to 4 players (see the module's docstring)."""

    name = NAME
    min_players = 2
    max_players = 4
    type = GameType(seats=(2, 4), play=COMPETITIVE, chance=True, hidden_information=True,
                    role=Role("player", "players"), view=ViewKeys("name", ("hand",)))

    def new_game(self, players: int = 2, seed: Seed = 0, **options: Any) -> HighCardState:
        if options:
            raise ValueError(f"unknown options for {NAME}: {sorted(options)}")
        if isinstance(players, bool) or not isinstance(players, int) \
                or not self.min_players <= players <= self.max_players:
            raise ValueError("High Card is for 2 to 4 players")
        s = HighCardState(players)
        s.rng = rng_from_seed(seed)
        s.pile = list(range(1, 3 * players + 5))
        s.rng.shuffle(s.pile)
        for seat in range(players):
            s.hands[seat] = [s.pile.pop(), s.pile.pop()]
            s.say(LogEntry(f"Seat {seat + 1} was dealt {sorted(s.hands[seat])}.",
                           frozenset({seat}), f"Seat {seat + 1} was dealt two cards."))
        s.current = s.rng.below(players)
        s.say(LogEntry(f"Seat {s.current + 1} plays first."))
        return s

    def from_position(self, position: dict[str, Any]) -> HighCardState:
        try:
            n = position["players"]
            s = HighCardState(n)
            s.hands = [list(map(int, h)) for h in position["hands"]]
            s.played = [list(map(int, p)) for p in position["played"]]
            s.pile = list(map(int, position["pile"]))
            s.current, s.turns = int(position["current"]), int(position["turns"])
            s.rng = rng_from_json(position["rng"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidPosition(f"not a High Card position: {exc}") from None
        cards = sorted(c for part in (*s.hands, *s.played, s.pile) for c in part)
        if len(s.hands) != n or len(s.played) != n or cards != list(range(1, 3 * n + 5)):
            raise InvalidPosition("the cards of a High Card position must be 1 to 3n+4, once")
        return s

    def action_from_json(self, data: Any) -> Move:
        if not isinstance(data, dict) or data.get("verb") not in ("play", "draw"):
            raise ValueError(f"not a High Card action: {json.dumps(data)[:80]}")
        if data["verb"] == "draw":
            return Move("draw")
        card = data.get("card")
        if isinstance(card, bool) or not isinstance(card, int):
            raise ValueError("a played card is a whole number")
        return Move("play", card)


GAME = HighCard()


@pytest.fixture
def toy_registered() -> Any:
    """The toy game registered under ``toy`` for the test's duration."""
    register(NAME, __name__)
    yield GAME
    unregister(NAME)
