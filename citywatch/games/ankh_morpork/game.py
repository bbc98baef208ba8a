"""The Ankh-Morpork game object: set-up (rulebook, Setup; rulings 29-30)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citywatch.core.api import COMPETITIVE, Game, GameType, Role, SeatScore, State, ViewKeys
from citywatch.core.guide import Guide, load_guide, with_terms
from citywatch.core.rng import Seed, rng_from_seed
from citywatch.games.ankh_morpork import (
    kinds,
    rules,  # noqa: F401  (registers the turn)
    view,  # noqa: F401  (registers the views)
)
from citywatch.games.ankh_morpork.actions import Action
from citywatch.games.ankh_morpork.data import (
    AREAS,
    CARDS,
    EVENTS,
    HAND_SIZE,
    PERSONALITIES,
    RANDOM_EVENT,
    STARTING_AREAS,
    STARTING_MONEY,
    TWO_PLAYER_REMOVED_CARDS,
    TWO_PLAYER_REMOVED_PERSONALITIES,
    player_text,
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
    type = GameType(
        seats=(2, 4), play=COMPETITIVE, chance=True, hidden_information=True,
        role=Role("personality", "personalities", tuple(p.name for p in PERSONALITIES)),
        view=ViewKeys("colour", ("hand",)))
    """Each seat is dealt a secret personality; ``Outcome.final_points`` when one wins."""
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

    def action_kind(self, state: State, action: Any) -> str:
        """A card played by its name ("Play Mr Boggis"), a City Area's power by its
        area ("Use The Scours"), anything else by what it does ("Build") (``kinds.py``;
        another verb by ``Game.action_kind``)."""
        return kinds.action_kind(action) or super().action_kind(state, action)

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's share of winning: the fitted evaluation (``evaluate.py``)."""
        assert isinstance(state, AnkhMorporkState)
        return evaluate(state)

    def bots(self) -> dict[str, Any]:
        """The heuristic bot."""
        return {"heuristic": HeuristicBot}

    def usual_choice(self, state: State, actions: Sequence[Any]) -> int | None:
        """On a card's symbol, the symbol's own action when it is the only one (the City Area
        powers and Doctor Mossy Lawn aside): "Take $3", "Do the text of ...", the random
        event; skipping when the symbol can do nothing. At the end of the turn, a power that
        takes money from the bank, else ending the turn. Elsewhere no default."""
        assert isinstance(state, AnkhMorporkState)
        return usual(state, actions)[0]

    def never_hurts(self, state: State, action: Any) -> bool:
        """True for the usual choice when it is taking money from the bank (a symbol or a
        City Area power), skipping a symbol that can do nothing (the powers and Mossy Lawn
        stay open at the next decision of the turn), or doing a text that only brings the
        player money when nothing but skipping it is offered (decision D31)."""
        assert isinstance(state, AnkhMorporkState)
        actions = state.legal_actions()
        index, harmless = usual(state, actions)
        return harmless and index is not None and actions[index] == action

    def last_move(self, state: State) -> dict[str, Any] | None:
        """The newest decision whose public log lines name an area (``view.last_move``):
        ``by`` the deciding seat's colour, ``spaces`` the areas named, in board order."""
        assert isinstance(state, AnkhMorporkState)
        found = view.last_move(state)
        return None if found is None else {"by": found["by"], "spaces": found["areas"]}

    def how_to_play(self) -> Guide:
        """Set-up, a turn, how to win and the terms, from the rulebook
        (``data/how-to-play.json``)."""
        return load_guide(Path(__file__).parent / "data" / "how-to-play.json")

    def score_breakdown(self, state: State) -> tuple[SeatScore, ...] | None:
        """Points part by part, why each seat won or lost, personalities and hands
        (``view.end_scores``)."""
        assert isinstance(state, AnkhMorporkState)
        return view.end_scores(state)

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        """The areas one decision touched (``view.move_spaces``): named by its public lines,
        or changed between the spectator's views."""
        return view.move_spaces(before, after, lines)

    def reference(self) -> dict[str, Any]:
        """The game's facts for people: cards, areas, events, personalities (JSON), their
        texts as players read them (``data.player_text``: no research notes), and the terms
        of the how-to-play guide."""
        return with_terms({
            "game": self.name,
            "cards": [
                {"id": c.id, "name": c.name, "deck": c.deck,
                 "symbols": [s.describe() for s in c.symbols], "text": player_text(c.text),
                 "interrupt": c.is_interrupt}
                for c in CARDS
            ],
            "areas": [
                {"number": a.number, "name": a.name, "cost": a.cost,
                 "adjacent": [AREAS[i].name for i in a.adjacent],
                 "borders_river": a.borders_river, "power": player_text(a.power)}
                for a in AREAS
            ],
            "events": [{"name": e.name, "text": player_text(e.text)} for e in EVENTS],
            "personalities": [{"name": p.name, "wins_if": player_text(p.wins_if)}
                              for p in PERSONALITIES],
            "titles": {"areas": "City areas", "events": "Random events"},
        }, self.how_to_play())

    # --- presentation (the seams of citywatch.core.presentation) ------------------------
    def terminal(self) -> TerminalScreens:
        """The city, players and hand as rich tables (``terminal.py``)."""
        from citywatch.games.ankh_morpork.terminal import AnkhMorporkScreens

        return AnkhMorporkScreens(self.reference())

    def encoding(self, version: int | None = None) -> Encoding:
        """The fixed action space and observation vector of layout ``version`` (None: the
        newest; ``encoding.py``, needs numpy)."""
        from citywatch.core.presentation import pick_version
        from citywatch.games.ankh_morpork.encoding import encoding_v0
        from citywatch.games.ankh_morpork.encoding_v1 import encoding_v1

        return pick_version(self.name, version, {0: encoding_v0, 1: encoding_v1})

    def web_folder(self) -> Path:
        """``web/``: the SVG board (``board.js``) and its card data."""
        return Path(__file__).parent / "web"


_ASIDE = frozenset({"skip", "power", "mossy"})
"""Verbs offered beside a symbol's own actions: skipping it, powers, Doctor Mossy Lawn."""
MONEY_TEXTS = frozenset({"money_per_trouble", "money_per_building", "money_per_minion_in_area",
                         "thieves", "take_from_player"})
"""Card texts (effects) that only bring their player money, from the bank or from other
players, and change nothing else (decision D31): Sacharissa Cripslock, The Post Office, The
Opera House, The Thieves' Guild, Nobby Nobbs and the cards with the same texts."""


def usual(s: AnkhMorporkState, actions: Sequence[Action]) -> tuple[int | None, bool]:
    """The index of the usual choice among ``actions`` (the legal actions of the seat to
    move; None: no default) and whether it never hurts its taker. Reads the decision
    being made and the public board only."""
    if s.result is not None or not s.stack:
        return None, False
    frame = s.stack[-1]
    if frame[0] == "card":
        symbol = CARDS[frame[2]].symbols[frame[3]]
        own = [i for i, a in enumerate(actions) if a.verb not in _ASIDE]
        if symbol.kind == RANDOM_EVENT or len(own) == 1:
            return (own[0], _harmless(frame[2], actions, own[0])) if own else (None, False)
        if not own:  # the symbol can do nothing now: skip it, the powers stay open
            skips = [i for i, a in enumerate(actions) if a.verb == "skip"]
            return (skips[0], True) if skips else (None, False)
        return None, False
    if frame[0] == "end":
        for i, a in enumerate(actions):
            if a.verb == "power" and AREAS[a.area].power_kind == "money":
                return i, True
        ends = [i for i, a in enumerate(actions) if a.verb == "end_turn"]
        return (ends[0], False) if ends else (None, False)
    return None, False


def _harmless(card: int, actions: Sequence[Action], index: int) -> bool:
    """Whether the symbol's only own action ``actions[index]`` of card ``card`` can never hurt
    its taker: taking money from the bank, or (decision D31) doing a text of ``MONEY_TEXTS``
    when the only other choice is skipping it, so that no power or Mossy Lawn could come
    first and change what the text brings."""
    verb = actions[index].verb
    if verb == "take_money":
        return True
    return (verb == "scroll" and CARDS[card].effect in MONEY_TEXTS
            and all(a.verb in ("scroll", "skip") for a in actions))


GAME = AnkhMorpork()
STATE_HOOKS.game = GAME
