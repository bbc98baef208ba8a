"""The Guards! Guards! game object: options, set-up and the presentation seams."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citywatch.core.api import (
    COMPETITIVE,
    Game,
    GameOption,
    GameType,
    Plan,
    Role,
    SeatScore,
    State,
    ViewKeys,
)
from citywatch.core.guide import load_guide, with_terms
from citywatch.core.rng import Seed, rng_from_seed
from citywatch.games.guards_guards import (
    kinds,
    places,
    rules,  # noqa: F401  (registers every rule)
    view,
)
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import (
    CHALLENGES,
    DRAGONS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    SPELL_COLOURS,
    SPELL_NAMES,
    TAVERN,
    TILES,
    VOLUNTEERS,
    GuildCard,
)
from citywatch.games.guards_guards.explain import levels_words
from citywatch.games.guards_guards.frames import advance
from citywatch.games.guards_guards.setup import deal
from citywatch.games.guards_guards.state import STATE_HOOKS, GuardsGuardsState

if TYPE_CHECKING:
    from citywatch.core.presentation import Encoding, TerminalScreens


DEFAULT_ROUNDS = 100
"""A game stops after this many rounds unless told otherwise (citywatch ruling 6)."""
MAX_ROUNDS = 300
"""The most rounds option ``rounds`` may set (0, no limit, aside): three times the default
(citywatch ruling 6; issue 24)."""


USUAL_VERBS = frozenset({"no_magic", "take_item"})
"""The verbs of the usual choices: "Cast nothing now" in a magic window (citywatch ruling 24)
and taking a defeated Volunteer's Item (ruling 25); a decision offers at most one of them."""


class GuardsGuards(Game):
    """Guards! Guards! for 2 to 6 players. Options (the Short Game): ``spells`` (1-5) to
    return, and ``rounds``: stop after that many rounds and judge by spells, then dollars
    (default ``DEFAULT_ROUNDS``, at most ``MAX_ROUNDS``; 0 plays until someone wins; citywatch
    ruling 6)."""

    name = "guards-guards"
    title = "Guards! Guards!"
    min_players = 2
    max_players = 6
    type = GameType(
        seats=(2, 6), play=COMPETITIVE, chance=True, hidden_information=True,
        role=Role("Guild Card", "Guild Cards", tuple(g.name for g in GUILD_CARDS)),
        view=ViewKeys("colour", ("own", "hand")), points="Great Spells returned",
        outcome_details=("ranking",))
    """Each seat is dealt a secret Guild Card; the dragons may beat everyone."""
    search_options = {"iterations": 32, "worlds": 8, "exploration": 0.1, "prior": 0.1,
                      "depth": 16, "playout": "heuristic", "margin": 2}
    """ISMCTS as measured against the heuristic (README, "Measured strength")."""
    options = (
        GameOption("spells", "Great Spells to win", 5, 1, 5),
        GameOption("rounds", "rounds before the game stops and is judged as the Short "
                             "Game; 0: no limit", DEFAULT_ROUNDS, 0, MAX_ROUNDS),
    )

    def new_game(self, players: int = 4, seed: Seed = 0, **options: Any) -> GuardsGuardsState:
        """Set up a game: decks, the Luggage, the roll for the first player; the seats then
        choose Guild Cards and gates (rulebook, Set Up; rulings 1-6)."""
        values = self.check_new_game(players, options)
        spells, rounds = values["spells"], values["rounds"]
        s = GuardsGuardsState(players)
        s.spells_to_win = spells
        s.rounds = rounds
        s.rng = rng_from_seed(seed)
        s.say(f"A game of Guards! Guards! for {players} players begins"
              + ("." if spells == 5 else f": the first to return {spells} Great Spells wins."))
        deal(s)
        advance(s)
        return s

    def from_position(self, position: dict[str, Any]) -> GuardsGuardsState:
        """Read a position written by ``state.position()``."""
        from citywatch.games.guards_guards.position import read_position

        return read_position(position)

    def action_from_json(self, data: Any) -> Action:
        """Read an action's JSON form."""
        return Action.from_json(data)

    def action_kind(self, state: State, action: Any) -> str:
        """A Scroll cast or an Item used by its name ("Cast Leaden Boots"), anything else by
        what it does ("Move", "Recruit") (``kinds.py``;
        another verb by ``Game.action_kind``)."""
        return kinds.action_kind(action) or super().action_kind(state, action)

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's share of winning, judged from spells returned and progress."""
        from citywatch.games.guards_guards.evaluate import evaluate

        assert isinstance(state, GuardsGuardsState)
        return evaluate(state)

    def bots(self) -> dict[str, Any]:
        """The heuristic bot."""
        from citywatch.games.guards_guards.heuristic import HeuristicBot

        return {"heuristic": HeuristicBot}

    def how_to_play(self) -> dict[str, Any]:
        """Set-up, a turn, how to win and the terms, from the 2012 rulebook
        (``data/how-to-play.json``)."""
        return load_guide(Path(__file__).parent / "data" / "how-to-play.json")

    def score_breakdown(self, state: State) -> tuple[SeatScore, ...] | None:
        """A point per Great Spell returned, why each seat won or lost, and each seat's
        Guild Card, hand and Saboteurs (``view.end_scores``)."""
        assert isinstance(state, GuardsGuardsState)
        return view.end_scores(state)

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        """The tiles one decision touched, by id (``view.move_spaces``): where pieces, the
        Luggage or a Dragon went, and the tiles its public lines name."""
        from citywatch.games.guards_guards.view import move_spaces

        return move_spaces(before, after, lines)

    def plans(self, state: State) -> list[Plan]:
        """Walks to every place within the movement left (``walks.walks``, issue 27)."""
        from citywatch.games.guards_guards.walks import walks

        assert isinstance(state, GuardsGuardsState)
        return walks(state)

    def usual_choice(self, state: State, actions: Sequence[Any]) -> int | None:
        """In a magic window (the start of another player's turn, a combat, a Dragon fight),
        "Cast nothing now" (citywatch ruling 24); after winning a combat, taking the loser's
        Item (ruling 25). Elsewhere no default. Reads only the seat's own choices."""
        for index, action in enumerate(actions):
            if action.verb in USUAL_VERBS:
                return index
        return None

    def never_hurts(self, state: State, action: Any) -> bool:
        """True only for taking a defeated Volunteer's Item (citywatch ruling 25). "Cast
        nothing now" can hurt, so it is always asked (ruling 24)."""
        return isinstance(action, Action) and action.verb == "take_item"

    def reference(self) -> dict[str, Any]:
        """The game's facts for people: cards, places and streets, Dragons, the Great Spells, the
        Wizards' Challenges, the Tavern table, the Guild Abilities and the terms (JSON)."""
        return with_terms({
            "game": self.name,
            "volunteers": [
                {"name": v.name, "deck": ("Lords & Ladies", "Man & Beast",
                                          "Shades & Shadows")[v.deck],
                 "charm": v.charm, "bribe": "X" if v.bribe is None else v.bribe,
                 "loyalty": v.loyalty, "streetwise": v.streetwise, "brawl": v.brawl,
                 "toughness": v.toughness, "luggage_moves": v.luggage_moves,
                 "marks": [m for m, on in (("Brethren", v.brethren), ("Fate", v.fate),
                                           ("Wanted", v.wanted),
                                           ("Infectious", v.infectious)) if on],
                 "ability": v.ability_text}
                for v in VOLUNTEERS
            ],
            "scrolls": [{"name": c.name, "price": c.price, "magic_target": c.magic_target,
                         "text": c.effect} for c in SCROLLS],
            "items": [{"name": c.name, "price": c.price, "magical": c.magical,
                       "text": c.effect} for c in ITEMS],
            "fate_cards": [{"name": c.name, "text": c.effect} for c in FATE_CARDS],
            "guild_cards": [{"name": g.name, "guild": QUADRANTS[g.guild].capitalize(),
                             "start": levels_words(g.start), "ability": g.ability_name,
                             "text": g.ability_text} for g in GUILD_CARDS],
            "dragons": [{"name": d.name, "brawl": d.brawl, "toughness": d.toughness}
                        for d in DRAGONS],
            "places": [{"name": t.name, "kind": t.kind.replace("_", " "),
                        "where": places.where(t.index), "use": places.use(t.index)}
                       for t in TILES if t.kind != "street"],
            "streets": [{"name": t.name, "kind": "street", "where": places.where(t.index)}
                        for t in TILES if t.kind == "street"],
            "great_spells": [
                {"name": name, "colour": colour.capitalize(),
                 "wanted_by": ", ".join(g.name for g in GUILD_CARDS if i in g.spells)}
                for i, (name, colour) in enumerate(zip(SPELL_NAMES, SPELL_COLOURS,
                                                       strict=True))],
            "wizards_challenges": [
                {"number": c.number, "name": c.name,
                 "tests": "; ".join(f"{attribute.capitalize()} of "
                                    f"{'the Runners' if source == 'runners' else 'the player'}"
                                    f", {target} or more"
                                    for attribute, source, target in c.tests)}
                for c in CHALLENGES],
            "tavern_table": [{"roll": t.roll, "name": t.name, "text": t.effect}
                             for t in TAVERN],
            "guild_abilities": [
                {"name": name, "guild_cards": ", ".join(g.name for g in cards),
                 "text": cards[0].ability_text}
                for name, cards in _abilities().items()],
            "titles": {"fate_cards": "Fate cards", "guild_cards": "Guild Cards",
                       "great_spells": "Great Spells", "wizards_challenges":
                       "Wizards' Challenges", "tavern_table": "Tavern table",
                       "guild_abilities": "Guild Abilities"},
        }, self.how_to_play())

    # --- presentation (the seams of citywatch.core.presentation) ------------------------
    def terminal(self) -> TerminalScreens:
        """The hex map, players and hand (``terminal.py``)."""
        from citywatch.games.guards_guards.screens import GuardsGuardsScreens

        return GuardsGuardsScreens(self.reference())

    def encoding(self, version: int | None = None) -> Encoding:
        """The fixed action space and observation vector of layout ``version`` (None: the
        newest; ``encoding.py``, needs numpy)."""
        from citywatch.core.presentation import pick_version
        from citywatch.games.guards_guards.encoding import encoding_v0
        from citywatch.games.guards_guards.encoding_v1 import encoding_v1

        return pick_version(self.name, version, {0: encoding_v0, 1: encoding_v1})

    def web_folder(self) -> Path:
        """``web/``: the SVG hex board (``board.js``) and its data (``board.json``)."""
        return Path(__file__).parent / "web"


def _abilities() -> dict[str, list[GuildCard]]:
    """Each Guild Ability's name and the Guild Cards that have it, in card order."""
    found: dict[str, list[GuildCard]] = {}
    for g in GUILD_CARDS:
        found.setdefault(g.ability_name, []).append(g)
    return found


GAME = GuardsGuards()
STATE_HOOKS.game = GAME
