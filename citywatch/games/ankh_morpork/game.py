"""The Ankh-Morpork game object: set-up (rulebook, Setup; rulings 29-30)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citywatch.core.api import Game, State
from citywatch.core.rng import Seed, rng_from_seed
from citywatch.games.ankh_morpork import rules, view  # noqa: F401  (register turn and views)
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import (
    AREAS,
    CARDS,
    EVENTS,
    HAND_SIZE,
    PERSONALITIES,
    STARTING_AREAS,
    STARTING_MONEY,
    TWO_PLAYER_REMOVED_CARDS,
    TWO_PLAYER_REMOVED_PERSONALITIES,
)
from citywatch.games.ankh_morpork.evaluate import evaluate
from citywatch.games.ankh_morpork.frames import advance
from citywatch.games.ankh_morpork.heuristic import HeuristicBot
from citywatch.games.ankh_morpork.position import read_position
from citywatch.games.ankh_morpork.state import STATE_HOOKS, AnkhMorporkState

if TYPE_CHECKING:
    from citywatch.core.presentation import Encoding, TerminalScreens


class AnkhMorpork(Game):
    """Discworld: Ankh-Morpork for 2 to 4 players."""

    name = "ankh-morpork"
    title = "Discworld: Ankh-Morpork"
    min_players = 2
    max_players = 4
    role = "personality"
    search_options = {"iterations": 1200, "depth": 6, "worlds": 32}
    """ISMCTS as the hard level plays it (README, "Measured strength"): random playouts cut
    after 6 decisions and judged by the fitted ``evaluate``, over 32 worlds sampled once."""
    levels = {"easy": "heuristic:lookahead=0:width=8",
              "normal": "ismcts:iterations=300:depth=6:worlds=16",
              "hard": "ismcts:iterations=1200:depth=6:worlds=32"}
    """Easy: the heuristic's fast playout version, judging each action by its result alone;
    normal: a quick search (about 0.1 s a decision); hard: ``search_options`` (under 0.5 s).
    Each spec is measured in the README, "Measured strength"."""

    def new_game(self, players: int = 4, seed: Seed = 0, **options: Any) -> AnkhMorporkState:
        """Set up a game: pieces, money, personalities, decks, hands, first player."""
        self.check_new_game(players, options)
        s = AnkhMorporkState(players)
        s.rng = rng_from_seed(seed)
        rng = s.rng
        for seat in range(players):
            s.money[seat] = STARTING_MONEY
            for area in STARTING_AREAS:
                s.minions[seat][area] += 1
        for area in STARTING_AREAS:
            s.trouble[area] = True
        s.events = list(range(len(EVENTS)))
        rng.shuffle(s.events)
        people = [p.index for p in PERSONALITIES
                  if players > 2 or p.name not in TWO_PLAYER_REMOVED_PERSONALITIES]
        rng.shuffle(people)
        s.personality = people[:players]
        s.unused_personalities = people[players:]
        removed = TWO_PLAYER_REMOVED_CARDS if players == 2 else ()
        s.out_of_game = [c.index for c in CARDS if c.name in removed]
        green = [c.index for c in CARDS if c.deck == "green" and c.name not in removed]
        brown = [c.index for c in CARDS if c.deck == "brown" and c.name not in removed]
        rng.shuffle(brown)
        rng.shuffle(green)
        s.draw_pile = brown + green  # the top of the pile is the end of the list
        for seat in range(players):
            s.draw_cards(seat, HAND_SIZE)
        s.current = rng.below(players)
        s.say(f"A game for {players} players begins; {s.colour(s.current)} plays first.")
        advance(s)
        return s

    def from_position(self, position: dict[str, Any]) -> AnkhMorporkState:
        """Read a position written by ``state.position()``."""
        return read_position(position)

    def action_from_json(self, data: Any) -> Action:
        """Read an action's JSON form."""
        return Action.from_json(data)

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's share of winning: the fitted evaluation (``evaluate.py``)."""
        assert isinstance(state, AnkhMorporkState)
        return evaluate(state)

    def bots(self) -> dict[str, Any]:
        """The heuristic bot."""
        return {"heuristic": HeuristicBot}

    def reference(self) -> dict[str, Any]:
        """The game's facts for people: cards, areas, events, personalities (JSON)."""
        return {
            "game": self.name,
            "cards": [
                {"id": c.id, "name": c.name, "deck": c.deck,
                 "symbols": [s.describe() for s in c.symbols], "text": c.text,
                 "interrupt": c.is_interrupt}
                for c in CARDS
            ],
            "areas": [
                {"number": a.number, "name": a.name, "cost": a.cost,
                 "adjacent": [AREAS[i].name for i in a.adjacent],
                 "borders_river": a.borders_river, "power": a.power}
                for a in AREAS
            ],
            "events": [{"name": e.name, "text": e.text} for e in EVENTS],
            "personalities": [{"name": p.name, "wins_if": p.wins_if} for p in PERSONALITIES],
            "titles": {"areas": "City areas", "events": "Random events"},
        }

    # --- presentation (the seams of citywatch.core.presentation) ------------------------
    def terminal(self) -> TerminalScreens:
        """The city, players and hand as rich tables (``terminal.py``)."""
        from citywatch.games.ankh_morpork.terminal import AnkhMorporkScreens

        return AnkhMorporkScreens(self.reference())

    def encoding(self) -> Encoding:
        """The fixed action space and observation vector (``encoding.py``, needs numpy)."""
        from citywatch.core.presentation import Encoding
        from citywatch.games.ankh_morpork import encoding as enc

        return Encoding(enc.ACTIONS, enc.INDEX, enc.OBS_HIGH, enc.observation,
                        enc.action_mask)

    def web_folder(self) -> Path:
        """``web/``: the SVG board (``board.js``) and its card data."""
        return Path(__file__).parent / "web"


GAME = AnkhMorpork()
STATE_HOOKS.game = GAME
