"""The game-agnostic API every game implements.

A ``Game`` makes states; a ``State`` is one moment of one game. Every decision,
in turn or out of turn, is one ``legal_actions()`` / ``apply()`` step taken by
the seat ``to_move``. Simultaneous hidden moves are modelled as a sequence of
such steps whose choices stay hidden in the other seats' views.
"""

from __future__ import annotations

import hashlib
import json
import reprlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from citywatch.core.rng import Rng, Seed
from citywatch.core.setup_choice import SetupChoice

if TYPE_CHECKING:  # presentation.py imports this module
    from citywatch.core.presentation import Encoding, TerminalScreens

JSON = Any


class Action(Protocol):
    """A small hashable value with a readable ``str()`` and a JSON form."""

    def __hash__(self) -> int: ...

    def to_json(self) -> JSON: ...


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats, why, and points per seat if scored.

    ``roles`` names each seat's role (``GameType.role``), ``final_points`` each seat's points
    when the game ended even if it was not decided on points; ``cooperative`` True marks a
    game the seats won or lost together, where ``rewards`` gives every winner the whole win
    and ``shares`` still splits it. ``details`` holds a game's own facts, which no interface
    reads (``GameType.outcome_details`` names them).
    """

    winners: tuple[int, ...]
    reason: str
    points: tuple[int, ...] | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    roles: tuple[str, ...] = field(default=(), compare=False)
    """Each seat's role value (``GameType.role``); empty for a game whose seats have none."""
    final_points: tuple[int, ...] | None = field(default=None, compare=False)
    """Each seat's points at the end when ``points`` is None (a game won otherwise)."""
    cooperative: bool = field(default=False, compare=False)
    """Whether the seats won or lost together."""

    def seat_points(self) -> tuple[int, ...] | None:
        """Each seat's points: ``points``, else ``final_points``; None if the game has none."""
        return self.points if self.points is not None else self.final_points

    def shares(self, players: int) -> list[float]:
        """Each seat's share of the win: winners split 1, everyone else 0; a game everybody
        lost (no winners) gives all 0. The scale of evaluators and search values (a co-op
        crew's win too is split)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if seat in self.winners else 0.0 for seat in range(players)]

    def rewards(self, players: int) -> list[float]:
        """Each seat's reward, and its win in win rates (environments, tournaments, the lab):
        1 to every winner of a co-operative game, otherwise ``shares``."""
        if self.cooperative:
            return [1.0 if seat in self.winners else 0.0 for seat in range(players)]
        return self.shares(players)

    def to_json(self) -> JSON:
        """The outcome as a JSON-serialisable dict."""
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "points": None if self.points is None else list(self.points),
        }


@dataclass(frozen=True)
class ScorePart:
    """One labelled part of a seat's points at the end (``SeatScore.parts``)."""

    label: str
    """What the part counts, in words ("Buildings", "Special Intelligence used")."""
    points: int
    detail: str = ""
    """How it was counted, in words ("3 minions x 5"); empty: nothing to add."""

    def to_json(self) -> JSON:
        """``{"label", "points", "detail"}``."""
        return {"label": self.label, "points": self.points, "detail": self.detail}


@dataclass(frozen=True)
class SeatScore:
    """One seat's end of a finished game as every interface shows it (``Game.score_breakdown``):
    its points as labelled parts that add up to its ``Outcome.seat_points()``, the reason for
    its result in words, and what the end reveals of what it kept hidden."""

    parts: tuple[ScorePart, ...]
    result: str
    """The seat's result and why, one or two sentences ("Scores 0: every Citizen Group left
    the country.")."""
    revealed: tuple[tuple[str, str], ...] = ()
    """Facts hidden during play and shown now the game is over: (what, the fact in words)."""
    notes: tuple[str, ...] = ()
    """Facts beside the points that score nothing (a tie break, what a rule did not count)."""

    @property
    def points(self) -> int:
        """The parts added up."""
        return sum(part.points for part in self.parts)

    def to_json(self) -> JSON:
        """``{"points", "parts", "result", "revealed": [{"what", "value"}], "notes"}``."""
        return {"points": self.points, "parts": [part.to_json() for part in self.parts],
                "result": self.result,
                "revealed": [{"what": what, "value": value} for what, value in self.revealed],
                "notes": list(self.notes)}


COMPETITIVE, COOPERATIVE, EITHER = "competitive", "cooperative", "either"
"""``GameType.play``: every seat for itself, the seats together against the game, or either
as the set-up chooses (``Outcome.cooperative`` tells which a finished game was)."""


@dataclass(frozen=True)
class Plan:
    """A run of one seat's decisions offered as one choice (issue 27): "Go to the Mended Drum"
    stands for each step there. Its ``actions`` stay separate recorded decisions: an interface
    takes them one at a time, each only while the decision is still that seat's (or is again,
    after others decided in between) and the next one is legal, and stops at the first that is
    not (``following``)."""

    text: str
    """What a person reads (a button, a menu line)."""
    json: dict[str, Any]
    """Its name as an action's JSON names things: a ``"verb"`` and fields naming the board's
    places, so that board clicks and choices in steps narrow plans as they narrow actions."""
    actions: tuple[Any, ...]
    """The decisions it stands for, in order (at least one; the first is legal now)."""

    def to_json(self) -> dict[str, Any]:
        """``{"text", "json", "steps": [each action's JSON]}``."""
        return {"text": self.text, "json": dict(self.json),
                "steps": [action.to_json() for action in self.actions]}


def following(state: State, seat: int, actions: Sequence[Any]) -> Any | None:
    """The next action of a plan's ``actions`` still to take for ``seat`` in ``state`` (those
    before it taken already are left out by the caller): the first action if the decision is
    ``seat``'s and it is legal, else None (the plan stops there)."""
    if not actions or state.to_move != seat:
        return None
    return actions[0] if actions[0] in state.legal_actions() else None


@dataclass(frozen=True)
class Role:
    """What a game calls each seat's role, as the lab's "win rate by ..." names it."""

    name: str
    """In words, singular (``Outcome.roles`` holds one value per seat)."""
    plural: str
    values: tuple[str, ...] = ()
    """Every value a seat may be given; empty: the seats have no roles that differ."""
    extensible: bool = False
    """Whether a player's own set-up may add values (a deck of one's own, say)."""


@dataclass(frozen=True)
class ViewKeys:
    """Where the interfaces find two things in a seat's own ``State.view``."""

    name: str
    """The key naming the viewing seat as the other seats know it (a colour, say)."""
    hand: tuple[str, ...] = ()
    """The path of keys to the list the seat holds; ``SEAT`` steps into the list entry of the
    viewing seat (``view["seat"]``). Empty: the seats hold nothing."""


SEAT = "#seat"
"""In ``ViewKeys.hand``: the viewing seat's entry of the list before it."""


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once for every interface (OpenSpiel's game type): the
    interfaces read this, never a game's own keys."""

    seats: tuple[int, int]
    """The fewest and most seats (``Game.min_players``, ``Game.max_players``)."""
    play: str
    """``COMPETITIVE``, ``COOPERATIVE`` or ``EITHER``."""
    chance: bool
    """Whether the game has random events (shuffles, dice): two seeds may start apart."""
    hidden_information: bool
    """Whether some seat may not see everything (hands, face-down cards)."""
    role: Role
    view: ViewKeys
    setup: tuple[SetupChoice, ...] = ()
    """The choices made before play that a document of one's own may fill (a deck per seat,
    a scenario per table)."""
    points: str = "points"
    """What ``Outcome.points`` counts, in words."""
    outcome_details: tuple[str, ...] = ()
    """The ``Outcome.details`` keys every finished game fills (parts of the points, tie
    breaks): the game's own facts, shown as they are."""

    def __post_init__(self) -> None:
        """``ValueError`` for a ``play`` that is not one of the three words, or seats out of
        order."""
        if self.play not in (COMPETITIVE, COOPERATIVE, EITHER):
            raise ValueError(f"play must be {COMPETITIVE}, {COOPERATIVE} or {EITHER}, "
                             f"not {self.play!r}")
        if not 1 <= self.seats[0] <= self.seats[1]:
            raise ValueError(f"seats {self.seats} are not a range")

    def describe(self) -> str:
        """The declaration in a few words: play, chance, hidden information and the role,
        e.g. ``competitive, chance, hidden information; each seat a card``."""
        play = "co-operative or competitive" if self.play == EITHER else self.play
        facts = [play, *(["chance"] if self.chance else []),
                 *(["hidden information"] if self.hidden_information else [])]
        role = (f"each seat a {self.role.name}" if self.role.values
                else f"every {self.role.name} alike")
        return ", ".join(facts) + "; " + role

    def to_json(self) -> dict[str, Any]:
        """The declaration as JSON (tuples as lists; each set-up choice as
        ``SetupChoice.to_json``), for pages and tools."""
        plain = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "setup"}
        data: dict[str, Any] = json.loads(json.dumps(plain, default=asdict))
        data["setup"] = [choice.to_json() for choice in self.setup]
        return data

    def choice(self, keyword: str) -> SetupChoice | None:
        """The set-up choice ``new_game`` takes as ``keyword``, or None."""
        return next((c for c in self.setup if c.keyword == keyword), None)

    def seat_name(self, view: Mapping[str, Any]) -> str | None:
        """The viewing seat's name in its own ``view`` (``ViewKeys.name``), or None."""
        name = view.get(self.view.name)
        return str(name) if isinstance(name, str | int) and name != "" else None

    def hand(self, view: Mapping[str, Any]) -> list[Any] | None:
        """The list the viewing seat holds in its own ``view`` (``ViewKeys.hand``), or None."""
        if not self.view.hand:
            return None
        here: Any = view
        for key in self.view.hand:
            if key == SEAT:
                seat = view.get("seat")
                if not (isinstance(here, list) and isinstance(seat, int)
                        and 0 <= seat < len(here)):
                    return None
                here = here[seat]
            elif isinstance(here, Mapping):
                here = here.get(key)
            else:
                return None
        return list(here) if isinstance(here, list) else None


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = 4
_SHORT.maxlevel = 2


def _short(value: object) -> str:
    """``repr(value)`` cut to a few dozen characters, for an error message."""
    return _SHORT.repr(value)


@dataclass(frozen=True)
class GameOption:
    """One option of a game's set-up, as ``Game.options`` declares it: its name, a few words
    of help and its default. A number option has a range, ``minimum`` to ``maximum`` (both
    required: a number without an upper bound could ask any amount of work of a server,
    issue 24); a choice option names its ``choices`` (words). A choice that a document
    fills (a deck, a scenario) is a ``SetupChoice``, not an option."""

    name: str
    help: str
    default: int | str
    minimum: int = 0
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    tuning: bool = False
    """A designer's number that tunes the rules (shown apart from a player's options)."""

    def __post_init__(self) -> None:
        """``ValueError`` for a number option without an upper bound, or whose default is
        outside its range (a game's declaration is wrong, not a player's choice)."""
        if self.choices:
            return
        if self.maximum is None:
            raise ValueError(f"number option {self.name} needs a maximum (issue 24)")
        if not (isinstance(self.default, int)
                and self.minimum <= self.default <= self.maximum):
            raise ValueError(f"number option {self.name}: default {self.default!r} is not in "
                             f"its range {self.minimum}-{self.maximum}")

    def describe_range(self) -> str:
        """The values in words: ``1-5``, ``easy, medium or hard``."""
        if self.choices:
            return (", ".join(self.choices[:-1]) + " or " + self.choices[-1]
                    if len(self.choices) > 1 else self.choices[0])
        return f"{self.minimum}-{self.maximum}"

    def check(self, value: Any) -> Any:
        """``value`` if it is one of the option's values; ``ValueError`` naming the option,
        what it takes and its meaning otherwise."""
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return value
            raise ValueError(f"option {self.name} must be one of {', '.join(self.choices)} "
                             f"({self.help}), not {_short(value)}")
        assert self.maximum is not None  # __post_init__
        if (isinstance(value, bool) or not isinstance(value, int)
                or not self.minimum <= value <= self.maximum):
            raise ValueError(f"option {self.name} must be a whole number from {self.minimum} "
                             f"to {self.maximum} ({self.help}), not {_short(value)}")
        assert isinstance(value, int)
        return value

    def to_json(self) -> dict[str, Any]:
        """``name, help, default, min, max, tuning``, or for a choice option ``name, help,
        default, choices``."""
        if self.choices:
            return {"name": self.name, "help": self.help, "default": self.default,
                    "choices": list(self.choices)}
        return {"name": self.name, "help": self.help, "default": self.default,
                "min": self.minimum, "max": self.maximum, "tuning": self.tuning}


class State(ABC):
    """One moment of a game."""

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this state belongs to."""

    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action ``to_move`` may take now."""

    @abstractmethod
    def apply(self, action: Any) -> None:
        """Apply a legal action; raise ``IllegalAction`` and change nothing otherwise."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy with the same random generator state."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game runs, else how it ended."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-serialisable dict of exactly what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A full state consistent with ``view(seat)``, hidden parts re-sampled with ``rng``."""

    @abstractmethod
    def log(self, seat: int | None = None) -> list[str]:
        """The sentences of the log that ``seat`` may read (``None``: all of them)."""

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The whole state as a JSON dict that ``Game.from_position`` reads back."""

    @abstractmethod
    def turn_count(self) -> int:
        """How many turns have begun."""

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.outcome() is not None

    def digest(self) -> str:
        """A short hash of the position, for comparing states across machines."""
        text = json.dumps(self.position(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class Game(ABC):
    """A game: its name, its options, a factory of states, and the optional parts through
    which the interfaces present it (``docs/architecture.md``, "Adding a game")."""

    name: str
    """The registry's name: the game's folder with ``-`` for ``_``."""
    title: str = ""
    """The name people know it by, on pages and in lists (default: ``name``)."""
    min_players: int
    max_players: int
    search_options: Mapping[str, Any] = MappingProxyType({})
    """The ``ismcts`` bot's options when a spec leaves them out (what this game's search was
    measured with); empty: the bot's own defaults."""
    levels: Mapping[str, str] = MappingProxyType({})
    """The bot spec of each difficulty level this game measured (``easy``, ``normal``,
    ``hard``; README); a level left out plays ``level_spec``'s default."""
    type: GameType
    """What the game is (``GameType``): what every interface reads of it."""
    options: tuple[GameOption, ...] = ()
    """The options ``new_game`` takes as keywords; every interface offers these."""

    @abstractmethod
    def new_game(self, players: int, seed: Seed, **options: Any) -> State:
        """A fresh state, set up with the generator of ``seed`` (``core.rng.rng_from_seed``);
        ``ValueError`` if the players, seed or options are not valid."""

    @abstractmethod
    def from_position(self, position: dict[str, Any]) -> State:
        """Read a position back; raise ``InvalidPosition`` if it is not valid."""

    @abstractmethod
    def action_from_json(self, data: JSON) -> Any:
        """Read an action from its JSON form; raise ``ValueError`` if malformed."""

    def check_new_game(self, players: Any, options: Mapping[str, Any],
                       known: tuple[str, ...] = ()) -> dict[str, Any]:
        """What ``new_game`` checks first: ``ValueError`` unless every option is declared
        in ``options`` (or one of ``known``, which the game checks itself) and valid, and
        ``players`` is a whole number in the game's range. Return every declared option's
        value (the defaults filled in) and the ``known`` ones given."""
        values = self.option_values({k: v for k, v in options.items() if k not in known})
        values.update({k: v for k, v in options.items() if k in known})
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players} to {self.max_players} "
                             f"players, not {players}")
        return values

    def option_values(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every declared option's value and every per-table set-up choice's
        (``GameType.setup``): those in ``options``, checked, and the defaults of the others.
        ``ValueError`` naming an unknown option or a value out of range. A per-seat set-up
        choice (a deck per seat) is checked too but left out of the result: its default
        depends on the number of seats."""
        values = self.checked_options(options)
        chosen = {choice.keyword: choice for choice in self.type.setup if not choice.per_seat}
        return {**{option.name: values.get(option.name, option.default)
                   for option in self.options},
                **{keyword: values.get(keyword, choice.default(self.min_players))
                   for keyword, choice in chosen.items()}}

    def checked_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` as a record keeps them: each checked (``GameOption.check``,
        ``SetupChoice.check``: a shipped document by its id, one's own as its JSON form);
        ``ValueError`` naming an unknown option or a value that breaks a rule."""
        declared = {option.name: option for option in self.options}
        setup = {choice.keyword: choice for choice in self.type.setup}
        unknown = sorted(set(options) - set(declared) - set(setup))
        if unknown:
            names = [*declared, *setup]
            offered = f"its options are {', '.join(names)}" if names else "it has no options"
            raise ValueError(f"unknown options for {self.name}: {', '.join(map(str, unknown))}"
                             f" ({offered})")
        return {name: declared[name].check(value) if name in declared
                else setup[name].check(value) for name, value in options.items()}

    def changed_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options and per-table set-up choices in ``options`` whose value is not the
        default (checked as ``option_values`` checks them), in declaration order."""
        values = self.option_values(options)
        defaults = {**{option.name: option.default for option in self.options},
                    **{choice.keyword: choice.default(self.min_players)
                       for choice in self.type.setup if not choice.per_seat}}
        return {name: values[name] for name, default in defaults.items()
                if values[name] != default}

    def shown_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """What a table's title shows of its options: those not at their default
        (``changed_options``), a set-up choice by its document's name, and each per-seat
        set-up choice (a deck per seat) whatever it is."""
        shown: dict[str, Any] = {}
        for name, value in self.changed_options(options).items():
            choice = self.type.choice(name)
            shown[name] = value if choice is None else choice.show(value)
        for choice in self.type.setup:
            if choice.per_seat:
                chosen = options.get(choice.keyword) or choice.default(players)
                shown[choice.keyword] = choice.show(list(chosen))
        return shown

    def evaluate(self, state: State) -> list[float] | None:
        """Each seat's estimated share of winning (summing to 1), or None if unknown."""
        return None

    def plays_together(self, state: State) -> bool:
        """True if the seats of ``state`` win or lose together (a co-operative game: its
        evaluation gives every seat the crew's chance split, as ``Outcome.shares`` does).
        Default: ``type.play`` is ``COOPERATIVE``; a game whose set-up chooses overrides it."""
        return self.type.play == COOPERATIVE

    def bots(self) -> dict[str, Any]:
        """Bots that know this game, by name: factories taking keyword options."""
        return {}

    def usual_choice(self, state: State, actions: Sequence[Any]) -> int | None:
        """The index in ``actions`` (the legal actions of ``state``'s seat to move) of the
        choice most players make here, which interfaces offer as the default (one click, or
        Enter), or None for no default. It reads only what that seat may see."""
        return None

    def never_hurts(self, state: State, action: Any) -> bool:
        """True if ``action``, when it is the usual choice, can never hurt the seat that
        takes it (e.g. taking money from the bank), so a player may let the interface take it
        unasked; it is still a recorded decision. It reads only what that seat may see."""
        return False

    def action_kind(self, state: State, action: Any) -> str:
        """The card or kind of action ``action`` (legal in ``state``) is, in a few words, for
        grouping decisions (the lab's decisive moments): ``"Play Mr Boggis"``, ``"Move"``,
        ``"Build"``. Few kinds, each meaningful to a player. Default: from the action's JSON,
        ``"Play <card>"`` for the verb ``play`` with a ``card``, else its verb in words
        (``"end_turn"``: ``"End turn"``); an action without a verb by the first word of its
        ``str()``."""
        data = action.to_json()
        if isinstance(data, dict) and isinstance(data.get("verb"), str) and data["verb"]:
            card = data.get("card")
            if data["verb"] == "play" and isinstance(card, str):
                return f"Play {card}"
            return str(data["verb"]).replace("_", " ").capitalize()
        words = str(action).split()
        return words[0] if words else "Action"

    def plans(self, state: State) -> list[Plan]:
        """Runs of decisions the seat to move may take as one choice (``Plan``), such as
        walking to a place chosen on the map (issue 27), offered beside its legal actions; each
        plan's first action is legal now. Read only from what that seat may see (its own
        decision, public facts). Default: none."""
        return []

    def last_move(self, state: State) -> dict[str, Any] | None:
        """What the newest public move touched, for interfaces to highlight (issue 16): a
        JSON dict with ``by``, the mover's name as the views give it (a colour, say), and
        ``spaces``, the names of the board's places it touched, in board order; a game may add
        keys of its own. Read from public facts only (the same for every seat, so it may be
        sent to anyone); None if there is nothing to highlight. Default: None."""
        return None

    def score_breakdown(self, state: State) -> tuple[SeatScore, ...] | None:
        """Each seat's end of the finished game ``state`` (a ``SeatScore`` per seat): its
        points as labelled parts adding up to ``Outcome.seat_points()``, why it won or lost,
        and the hidden facts the end reveals; None while the game runs. Shown by the end
        screens of every interface, the same for every seat (the game is over). Default:
        one part per seat, the points as ``GameType.points`` names them (none for a game
        without points), and whether the seat won."""
        outcome = state.outcome()
        if outcome is None:
            return None
        points = outcome.seat_points()
        label = self.type.points[:1].upper() + self.type.points[1:]
        return tuple(
            SeatScore(() if points is None else (ScorePart(label, points[seat]),),
                      ("Won" if seat in outcome.winners else "Did not win")
                      + f": {outcome.reason}.")
            for seat in range(state.players))

    def move_spaces(self, before: dict[str, Any], after: dict[str, Any],
                    lines: Sequence[str]) -> list[str]:
        """The board's places one decision touched, for interfaces to mark (issue 26):
        ``before`` and ``after`` are the spectator's views (``view(None)``) around the
        decision and ``lines`` the public log lines (``log(-1)``) it wrote, so the answer
        holds public facts only and is the same for every seat. Names as the game's board
        knows them (``web_folder``'s ``board.js`` marks them), in board order. Default: none."""
        return []

    def level_spec(self, level: str) -> str:
        """The bot spec the difficulty ``level`` plays: the game's own (``levels``), else
        ``easy`` the random bot, ``normal`` the game's heuristic (``ismcts`` without one) and
        ``hard`` ``ismcts`` (with ``search_options``); ``ValueError`` for another word."""
        if level in self.levels:
            return self.levels[level]
        defaults = {"easy": "random",
                    "normal": "heuristic" if "heuristic" in self.bots() else "ismcts",
                    "hard": "ismcts"}
        if level not in defaults:
            raise ValueError(f"unknown level {level!r}: easy, normal or hard")
        return defaults[level]

    def reference(self) -> dict[str, Any]:
        """The game's facts for people (JSON), for ``citywatch rules`` and ``? NAME``: each
        key whose value is a list of entries (objects with a ``"name"``) is a section, e.g.
        ``"cards": [...]``, and its singular is the kind (``citywatch rules GAME card NAME``);
        an optional ``"titles"`` object gives sections headings other than their capitalised
        name. An entry's fields are shown as ``key: value``; ``number`` also finds it.
        Default: no sections, just ``{"game": name}``."""
        return {"game": self.name}

    def how_to_play(self) -> dict[str, Any] | None:
        """How to play the game, for people new to it (``core/guide.py``: set-up, a turn, how
        to win and the terms, each a section), shown at the top of ``citywatch rules`` and on
        the server's ``/how-to-play/<name>`` page; its terms are also in ``reference()``, for
        ``? TERM``. Default: None, no guide."""
        return None

    def display_name(self) -> str:
        """``title``, or ``name`` if the game has none."""
        return self.title or self.name

    def terminal(self) -> TerminalScreens | None:
        """How the game looks in the terminal; None: the generic screens."""
        return None

    def encoding(self, version: int | None = None) -> Encoding | None:
        """The fixed action space and observation vector of layout ``version`` (None: the
        newest; ``ValueError`` for one the game lacks); None: no PettingZoo environment."""
        return None

    def web_folder(self) -> Path | None:
        """A folder with ``board.js`` and its data, served at ``/games/<name>/``; None: the
        browser shows the generic view panel."""
        return None
