"""The Guardians of the City Vol.2 game object: set-up with decks, and the State API seams."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citywatch.core.api import (
    COMPETITIVE,
    Game,
    GameType,
    Role,
    SeatScore,
    State,
    ViewKeys,
)
from citywatch.core.presentation import Encoding, TerminalScreens
from citywatch.core.rng import Seed, rng_from_seed
from citywatch.games.guardians_of_the_city import (
    kinds,
    scoring,
    view,  # noqa: F401  (registers the view)
)
from citywatch.games.guardians_of_the_city.actions import SEATS, Action
from citywatch.games.guardians_of_the_city.data import LABEL
from citywatch.games.guardians_of_the_city.decks import (
    DECKS,
    STARTER_DECKS,
    Deck,
    DeckError,
    deck_from,
)
from citywatch.games.guardians_of_the_city.frames import advance
from citywatch.games.guardians_of_the_city.position import read_position
from citywatch.games.guardians_of_the_city.state import STATE_HOOKS, GotcState
from citywatch.games.guardians_of_the_city.turn import deal


def choose_decks(players: int, decks: Any) -> list[Deck]:
    """One checked deck per seat: ``decks`` lists, per seat, a starter deck's id or name, a
    :class:`Deck` or a deck's JSON form; None gives seat k the k-th starter deck. ``DeckError``
    (a ``ValueError``) naming the seat and the rule broken."""
    if decks is None:
        return [STARTER_DECKS[p % len(STARTER_DECKS)] for p in range(players)]
    if isinstance(decks, (str, dict)) or not isinstance(decks, (list, tuple)):
        raise DeckError("decks must list one deck per player")
    if len(decks) != players:
        raise DeckError(f"decks must list one deck per player: {players} decks, "
                        f"not {len(decks)}")
    chosen = []
    for p, value in enumerate(decks):
        try:
            chosen.append(deck_from(value))
        except DeckError as exc:
            raise DeckError(f"{SEATS[p]}'s deck: {exc}") from None
    return chosen


class GuardiansOfTheCity(Game):
    """Guardians of the City Vol.2 for 2 to 4 players, on citywatch's stand-in cards.
    ``new_game`` takes ``decks``: one deck per seat (starter decks by default)."""

    name = "guardians-of-the-city"
    title = "Guardians of the City Vol.2"
    min_players = 2
    max_players = 4
    type = GameType(
        seats=(2, 4), play=COMPETITIVE, chance=True, hidden_information=True,
        role=Role("deck", "decks", tuple(d.name for d in STARTER_DECKS), extensible=True),
        view=ViewKeys("name", ("own", "hand")),
        setup=(DECKS,), points="score",
        outcome_details=("reasons", "out_of_action_cards", "without_citizens",
                         "special_intelligence"))
    """Each seat plays a deck, a starter deck or its own."""
    search_options = {"iterations": 36, "worlds": 6, "exploration": 0.1, "prior": 0.1,
                      "depth": 8, "playout": "heuristic", "margin": 1}
    """ISMCTS as measured against the heuristic (README, "Measured strength")."""
    levels = {"easy": "heuristic:lookahead=0"}
    """Easy: the heuristic judging plays by their text, not by trying them; normal: the
    heuristic; hard: ``ismcts`` (above the heuristic, README)."""

    def new_game(self, players: int = 2, seed: Seed = 0, decks: Any = None,
                 **options: Any) -> GotcState:
        """Set up a game (rulebook sections 4-5, rulings 2-3): ``decks`` per seat (a starter
        deck's id or name, a ``Deck`` or a deck's JSON form; default: the starter decks in
        order), shuffled with the generator of ``seed``."""
        self.check_new_game(players, options)
        s = GotcState(choose_decks(players, decks))
        s.rng = rng_from_seed(seed)
        s.say(f"A game of Guardians of the City Vol.2 for {players} players begins ({LABEL}): "
              + ", ".join(f"{SEATS[p]} plays {d.name}" for p, d in enumerate(s.decks)) + ".")
        deal(s)
        advance(s)
        return s

    def from_position(self, position: dict[str, Any]) -> GotcState:
        """Read a position written by ``state.position()`` (``InvalidPosition`` if it could
        not happen)."""
        return read_position(position)

    def action_from_json(self, data: Any) -> Action:
        """Read an action's JSON form."""
        return Action.from_json(data)

    def action_kind(self, state: State, action: Any) -> str:
        """An Action card played by its name ("Play Raids"), anything else by what
        it does ("Set a National Effort") (``kinds.py``;
        another verb by ``Game.action_kind``)."""
        return kinds.action_kind(action) or super().action_kind(state, action)

    def how_to_play(self) -> dict[str, Any]:
        """Set-up, a turn, how to win and the terms (``reference.py``)."""
        from citywatch.games.guardians_of_the_city.reference import how_to_play

        return how_to_play()

    def score_breakdown(self, state: State) -> tuple[SeatScore, ...] | None:
        """The score's three parts (Special Intelligence counted once), why each seat won
        or lost, and each hand (``scoring.end_scores``)."""
        assert isinstance(state, GotcState)
        return scoring.end_scores(state)

    def reference(self) -> dict[str, Any]:
        """The game's facts for people: pillars, Citizen Groups, Terrorist Cells, every Action
        and Crisis card, the starter decks and the terms (``reference.py``)."""
        from citywatch.games.guardians_of_the_city.reference import reference

        return reference(self.name)

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        """The cells and nations one decision touched (``view.move_spaces``)."""
        return view.move_spaces(before, after, lines)

    def terminal(self) -> TerminalScreens:
        """The cells, nations and hand in the terminal (``terminal.py``)."""
        from citywatch.games.guardians_of_the_city.terminal import GuardiansScreens

        return GuardiansScreens()

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's share of winning, judged from its score and standing (``evaluate.py``)."""
        from citywatch.games.guardians_of_the_city.evaluate import evaluate

        assert isinstance(state, GotcState)
        return evaluate(state)

    def bots(self) -> dict[str, Any]:
        """The heuristic bot (``heuristic.py``)."""
        from citywatch.games.guardians_of_the_city.heuristic import HeuristicBot

        return {"heuristic": HeuristicBot}

    def encoding(self, version: int | None = None) -> Encoding:
        """The fixed action space and observation vector of layout ``version`` (None: the
        newest; ``encoding.py``, needs numpy)."""
        from citywatch.core.presentation import pick_version
        from citywatch.games.guardians_of_the_city.encoding import encoding_v0
        from citywatch.games.guardians_of_the_city.encoding_v1 import encoding_v1

        return pick_version(self.name, version, {0: encoding_v0, 1: encoding_v1})

    def web_folder(self) -> Path:
        """``web/``: the browser board (``board.js``, ``board.css``) and its card facts
        (``board.json``, written by ``make_web.py``)."""
        return Path(__file__).parent / "web"


GAME = GuardiansOfTheCity()
STATE_HOOKS.game = GAME
