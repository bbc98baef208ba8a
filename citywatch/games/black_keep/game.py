"""The Thieves of the Black Keep game object: set-up from a scenario, and the State API seams.

Its set-up choice is the ``scenario`` (``scenario.ScenarioChoice``: a shipped id, or a
scenario of one's own as JSON, checked by ``scenario.problems``). Its options are words
(``GameOption`` choices): ``difficulty``, ``mode`` and ``advanced``; then every number of the
rules (``Parameters``) as a tuning option (``--option hearing_range=3``, ``--sweep
wounds=1,2,3``). ``parameters`` (a JSON object of some ``Parameters`` fields) sets them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from citywatch.core.api import (
    EITHER,
    SEAT,
    Game,
    GameOption,
    GameType,
    Role,
    SeatScore,
    State,
    ViewKeys,
)
from citywatch.core.presentation import Encoding, TerminalScreens
from citywatch.core.rng import Seed
from citywatch.games.black_keep import (
    kinds,
    scoring,
    view,  # noqa: F401  (registers the view)
)
from citywatch.games.black_keep import scenario as scenarios
from citywatch.games.black_keep.actions import Action
from citywatch.games.black_keep.params import HELP, MAXIMUM, MINIMUM, Parameters
from citywatch.games.black_keep.position import read_position
from citywatch.games.black_keep.setup import new_game
from citywatch.games.black_keep.state import DIFFICULTIES, STATE_HOOKS, BlackKeepState


class BlackKeep(Game):
    """Thieves of the Black Keep for 1 to 4 thieves against a keep the program runs: solo,
    co-op or rivals, on a shipped scenario or a scenario file."""

    name = "black-keep"
    title = "Thieves of the Black Keep"
    min_players = 1
    max_players = 4
    type = GameType(
        seats=(1, 4), play=EITHER, chance=True, hidden_information=True,
        role=Role("thief", "thieves"), view=ViewKeys("name", ("thieves", SEAT, "hand")),
        setup=(scenarios.SCENARIOS,), points="score",
        outcome_details=("rounds", "mode", "standings", "treasures"))
    """Co-op or solo (the crew wins together) or rivals, as the ``mode`` option says; every
    thief is alike."""
    search_options = {"iterations": 16, "worlds": 4, "exploration": 0.1, "prior": 0.1,
                      "depth": 4, "playout": "heuristic", "margin": 2}
    """ISMCTS as measured against the heuristic: a short search over heuristic playouts
    (``HeuristicBot.PLAYOUT``) that keeps the heuristic's own choice unless it is sure."""
    levels = {"easy": "heuristic:lookahead=1"}
    """Easy: the heuristic looking one round ahead, not two; normal: the heuristic; hard:
    ``ismcts``."""
    options = (
        GameOption("difficulty", "the guards' bows and extra guards (spec 4.12)", "medium",
                   choices=DIFFICULTIES),
        GameOption("mode", "co-op (solo for one thief) or rivals (spec section 9)", "coop",
                   choices=("coop", "rivals")),
        GameOption("advanced", "the Roving guard and the Fake treasure: as the scenario "
                   "says, on or off", "scenario", choices=("scenario", "on", "off")),
        *(GameOption(name, HELP[name], default, minimum=MINIMUM[name], maximum=MAXIMUM[name],
                     tuning=True)
          for name, default in Parameters().to_json().items()),
    )
    """The players' choices, then every number of ``Parameters`` as a tuning option."""

    def new_game(self, players: int = 1, seed: Seed = 0, **options: Any) -> BlackKeepState:
        """Set up a game (spec section 8) of ``players`` thieves with the game's options
        (``scenario``: a shipped id or a scenario's JSON; ``difficulty``; ``mode``;
        ``advanced``) and ``parameters`` (some ``Parameters`` fields as JSON);
        ``ValueError`` for any bad choice."""
        values = self.check_new_game(players, options, known=("parameters",))
        given = values.get("parameters") or {}
        if not isinstance(given, dict):
            raise ValueError("parameters must be a JSON object")
        tuned = {f.name: values[f.name] for f in fields(Parameters) if f.name in options}
        params = Parameters.from_json({**given, **tuned})
        chosen = values["scenario"]
        board = scenarios.load(chosen) if isinstance(chosen, str) else scenarios.from_doc(chosen)
        advanced = {"scenario": None, "on": True, "off": False}[values["advanced"]]
        mode = None if values["mode"] == "coop" else values["mode"]
        return new_game(board, params, players, seed, mode=mode,
                        difficulty=values["difficulty"], advanced=advanced)

    def from_position(self, position: dict[str, Any]) -> BlackKeepState:
        """Read a position written by ``state.position()`` (``docs/black-keep-position.md``);
        ``InvalidPosition`` naming the first fault."""
        return read_position(position)

    def action_from_json(self, data: Any) -> Action:
        """Read an action's JSON form."""
        return Action.from_json(data)

    def action_kind(self, state: State, action: Any) -> str:
        """A Guard card played by its name ("Play Water Arrow"), the Thief cards by what
        they do ("Move", "Run", "Play Hide"), anything else by what it does (``kinds.py``;
        another verb by ``Game.action_kind``)."""
        return kinds.action_kind(action) or super().action_kind(state, action)

    def evaluate(self, state: Any) -> list[float] | None:
        """Each seat's share of winning, judged from the way still to go, wounds and the
        guards close by (``evaluate.py``)."""
        from citywatch.games.black_keep.evaluate import evaluate

        assert isinstance(state, BlackKeepState)
        return evaluate(state)

    def plays_together(self, state: State) -> bool:
        """Solo and co-op: the crew wins or loses together; rivals: each thief for itself."""
        assert isinstance(state, BlackKeepState)
        return state.mode != "rivals"

    def score_breakdown(self, state: State) -> tuple[SeatScore, ...] | None:
        """A winning thief's treasure and wounds (the crew's, thief by thief, in solo and
        co-op), why each seat won or lost, and each Location Dial
        (``scoring.end_scores``)."""
        assert isinstance(state, BlackKeepState)
        return scoring.end_scores(state)

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        """The hexes one decision touched (``view.move_spaces``): where guards, known
        thieves, noise markers and torches changed, and the hexes its public lines name."""
        return view.move_spaces(before, after, lines)

    def encoding(self, version: int | None = None) -> Encoding:
        """The fixed action space and observation vector of layout ``version`` (None: the
        newest; ``encoding.py``, needs numpy)."""
        from citywatch.core.presentation import pick_version
        from citywatch.games.black_keep.encoding import encoding_v0
        from citywatch.games.black_keep.encoding_v1 import encoding_v1

        return pick_version(self.name, version, {0: encoding_v0, 1: encoding_v1})

    def web_folder(self) -> Path:
        """``web/``: the SVG map (``board.js``), its styles and its data (``board.json``)."""
        return Path(__file__).parent / "web"

    def terminal(self) -> TerminalScreens:
        """The map, the thieves and the hand in the terminal (``terminal.py``)."""
        from citywatch.games.black_keep.terminal import BlackKeepScreens

        return BlackKeepScreens()

    def how_to_play(self) -> dict[str, Any]:
        """Set-up, a round, how to win and the terms (``reference.py``)."""
        from citywatch.games.black_keep.reference import how_to_play

        return how_to_play()

    def reference(self) -> dict[str, Any]:
        """The thief cards, Guard cards, treasures and scenarios for people
        (``reference.py``)."""
        from citywatch.games.black_keep.reference import reference

        return reference(self.name)

    def bots(self) -> dict[str, Any]:
        """The heuristic thief (``heuristic.py``)."""
        from citywatch.games.black_keep.heuristic import HeuristicBot

        return {"heuristic": HeuristicBot}


GAME = BlackKeep()
STATE_HOOKS.game = GAME
