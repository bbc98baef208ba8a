"""Studies: what decides a study's games (``Study``, ``make_study``), its swept options, and
each game's options and seeds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any

from citywatch.bots import make_bot
from citywatch.core.api import Game
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.core.setup_choice import SetupChoice

FORMAT = "citywatch-study/1"
"""The ``format`` of a study header (the first line of a results file)."""

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class LabError(ValueError):
    """A study that cannot run as asked: bad options, a foreign results file, no cluster."""


Sweep = tuple[tuple[str, tuple[Any, ...]], ...]
"""Swept options in order, each with its values: ``(("NAME", ("a", "b")),)``."""


@dataclass(frozen=True)
class Study:
    """What decides a study's games: the game, seats, master seed, one bot spec per seat,
    the game's options (those given; the others keep their defaults) and the swept options
    (``sweep``: game k plays combination k mod C of their values, ``sweep_combination``).
    The options hold the set-up choices (``GameType.setup``) as a record keeps them
    (``SetupChoice.check``: a shipped document by its id, one's own as its JSON form). A
    per-seat set-up choice the options leave out is rotated over the games through its
    shipped documents (``game_options``, ``seat_rotation``)."""

    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    sweep: Sweep = ()

    def to_json(self) -> dict[str, Any]:
        """The study as the header line of a results file (``sweep`` only when it sweeps)."""
        header = {"format": FORMAT, "game": self.game, "players": self.players,
                  "seed": self.seed, "bots": list(self.bots), "options": dict(self.options)}
        if self.sweep:
            header["sweep"] = sweep_json(self.sweep)
        return header


def sweep_json(sweep: Sweep) -> dict[str, list[Any]]:
    """A sweep as JSON: each swept option's values, in sweep order."""
    return {name: list(values) for name, values in sweep}


def combinations(sweep: Sweep) -> list[dict[str, Any]]:
    """Every combination of the swept values, the last option varying fastest (one empty
    combination for no sweep)."""
    names = [name for name, _ in sweep]
    return [dict(zip(names, values, strict=True))
            for values in product(*(values for _, values in sweep))]


def combination_label(combination: Mapping[str, Any], game: Game | None = None) -> str:
    """``"NAME=a, OTHER=2"`` (``"all games"`` for the empty combination); with the ``game``,
    a set-up choice's document of one's own is shown by its name (``shown_value``)."""
    return ", ".join(f"{k}={v if game is None else shown_value(game, k, v)}"
                     for k, v in combination.items()) or "all games"


def shown_value(game: Game, name: str, value: Any) -> Any:
    """An option's value in a few words: a set-up choice's (``GameType.setup``) document of
    one's own by its name (``SetupChoice.show``), a shipped one by its id as given (the word
    ``--option`` and ``--sweep`` take), any other option's value as it is."""
    choice = game.type.choice(name)
    return value if choice is None or isinstance(value, str) else choice.show(value)


def seat_choices(game: Game) -> tuple[SetupChoice, ...]:
    """The game's per-seat set-up choices (``GameType.setup``), in declaration order."""
    return tuple(choice for choice in game.type.setup if choice.per_seat)


def first_seat_choice(game: Game) -> SetupChoice | None:
    """The game's first per-seat set-up choice, or None: the one the summary's
    ``seat_choice`` and ``seat_matrix`` are about (a game declares at most one in practice;
    any further one is still rotated and checked, but not tallied)."""
    every = seat_choices(game)
    return every[0] if every else None


def check_sweep(game: Game, sweep: Mapping[str, Sequence[Any] | None],
                options: Mapping[str, Any]) -> Sweep:
    """The checked sweep: each name one of the game's options or per-table set-up choices
    (``GameType.setup``) not also in ``options``; its values (``None``: every choice of a
    choice option, every shipped document of a set-up choice) each checked by
    ``GameOption.check`` or ``SetupChoice.check_one``, none repeated. A per-seat set-up
    choice is not swept (left unchosen, its shipped documents rotate over the games).
    ``LabError`` naming what is wrong."""
    declared = {option.name: option for option in game.options}
    setup = {choice.keyword: choice for choice in game.type.setup}
    sweepable = [*declared, *(k for k, c in setup.items() if not c.per_seat)]
    checked: list[tuple[str, tuple[Any, ...]]] = []
    for name, values in sweep.items():
        option, choice = declared.get(name), setup.get(name)
        if choice is not None and choice.per_seat:
            raise LabError(f"cannot sweep {name}: one {choice.name} per seat is chosen, not "
                           f"swept (left unchosen, the shipped {choice.plural} rotate over "
                           "the games)")
        if option is None and choice is None:
            offered = (f"its options are {', '.join(sweepable)}" if sweepable
                       else "it has no options")
            raise LabError(f"cannot sweep {name}: not an option of {game.name} ({offered})")
        if name in options:
            raise LabError(f"option {name} is both swept and given; sweep it or give it")
        if values is None:
            if choice is not None:
                values = choice.ids()
            elif option is not None and option.choices:
                values = option.choices
            else:
                assert option is not None
                raise LabError(f"sweeping {name} needs its values, e.g. {name}="
                               f"{option.minimum},{option.minimum + 1} "
                               f"({option.describe_range()})")
        if isinstance(values, str) or not values:
            raise LabError(f"sweeping {name} needs a list of values")
        if option is not None:
            check = option.check
        else:
            assert choice is not None
            check = choice.check_one
        try:
            values = tuple(check(value) for value in values)
        except ValueError as exc:
            raise LabError(f"sweeping {name}: {exc}") from None
        repeated = sorted({str(shown_value(game, name, v)) for v in values
                           if values.count(v) > 1})
        if repeated:
            raise LabError(f"sweeping {name}: {', '.join(repeated)} given twice")
        checked.append((name, values))
    return tuple(checked)


def make_study(game_name: str, players: int, seed: int, bot_names: Sequence[str],
               options: Mapping[str, Any] | None = None,
               sweep: Mapping[str, Sequence[Any] | None] | None = None) -> Study:
    """A checked study; one bot name is used for every seat; ``sweep`` names options to
    sweep, each with its values (``None``: every choice). The options are kept as a record
    keeps them (``Game.checked_options``); a per-seat set-up choice must list one value per
    seat. ``LabError`` if it is wrong."""
    try:
        game = load(game_name)
        chosen = game.checked_options(options or {})
    except ValueError as exc:
        raise LabError(str(exc)) from None
    swept = check_sweep(game, sweep or {}, chosen)
    if not game.min_players <= players <= game.max_players:
        raise LabError(
            f"{game_name} is for {game.min_players} to {game.max_players} players, not {players}"
        )
    for choice in seat_choices(game):
        values = chosen.get(choice.keyword)
        if values is not None and len(values) != players:
            raise LabError(f"option {choice.keyword} must list one {choice.name} per seat: "
                           f"{players} {choice.plural}, not {len(values)}")
    names = list(bot_names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise LabError(f"give one bot for all seats or one per seat ({players}), not {len(names)}")
    for name in set(names):
        try:
            make_bot(name, game_name)
        except ValueError as exc:
            raise LabError(str(exc)) from None
    return Study(game_name, players, seed, tuple(names), chosen, swept)


@lru_cache(maxsize=8)
def rotated_choices(game_name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each per-seat set-up choice of the game that ships documents: its keyword and the
    shipped documents' ids, in order (``SetupChoice.ids``)."""
    return tuple((choice.keyword, tuple(choice.ids()))
                 for choice in seat_choices(load(game_name)) if choice.ids())


def seat_rotation(shipped: int, players: int, index: int) -> list[int]:
    """The shipped documents (by number) each seat of game ``index`` gets when a study
    leaves a per-seat set-up choice unchosen: with 2 players, each ordered pair of different
    shipped documents in turn (so each pairing is played from both seats); with more
    players, seat s gets document (index + s) mod count."""
    if players == 2 and shipped > 1:
        pairs = [(a, b) for a in range(shipped) for b in range(shipped) if a != b]
        return list(pairs[index % len(pairs)])
    return [(index + seat) % shipped for seat in range(players)]


def sweep_combination(study: Study, index: int) -> dict[str, Any]:
    """The swept options' values of game ``index``: combination ``index`` mod C of
    ``combinations`` (empty without a sweep)."""
    every = combinations(study.sweep)
    return every[index % len(every)]


def game_options(study: Study, index: int) -> dict[str, Any]:
    """The options game ``index`` of ``study`` is set up with: the study's, the swept
    values of ``sweep_combination``, and for each per-seat set-up choice the study leaves
    unchosen, the shipped documents' ids of ``seat_rotation``: with C combinations swept,
    rotation step ``index // C``, so every combination meets every pairing equally often."""
    options = dict(study.options)
    options.update(sweep_combination(study, index))
    step = index // len(combinations(study.sweep))
    for keyword, ids in rotated_choices(study.game):
        if keyword not in options:
            options[keyword] = [ids[k] for k in seat_rotation(len(ids), study.players, step)]
    return options


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """Game ``index``'s (game seed, bot seed): ``Rng(seed)``'s draws 2k+1 and 2k+2, halved."""
    rng = Rng((seed + 2 * index * _GOLDEN) & _MASK)
    return rng.next64() >> 1, rng.next64() >> 1
