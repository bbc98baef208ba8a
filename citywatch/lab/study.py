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
    For a game with decks, the options may choose the decks per seat (``GameDecks.keyword``,
    each deck's JSON form); without that choice the starter decks are rotated over the games
    (``game_options``)."""

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


def combination_label(combination: Mapping[str, Any]) -> str:
    """``"NAME=a, OTHER=2"`` (``"all games"`` for the empty combination)."""
    return ", ".join(f"{k}={v}" for k, v in combination.items()) or "all games"


def check_sweep(game: Game, sweep: Mapping[str, Sequence[Any] | None],
                options: Mapping[str, Any]) -> Sweep:
    """The checked sweep: each name one of the game's options not also in ``options``; its
    values (``None``: every choice of a choice option) each checked by ``GameOption.check``,
    none repeated. ``LabError`` naming what is wrong."""
    declared = {option.name: option for option in game.options}
    checked: list[tuple[str, tuple[Any, ...]]] = []
    for name, values in sweep.items():
        option = declared.get(name)
        if option is None:
            offered = (f"its options are {', '.join(declared)}" if declared
                       else "it has no options")
            raise LabError(f"cannot sweep {name}: not an option of {game.name} ({offered})")
        if name in options:
            raise LabError(f"option {name} is both swept and given; sweep it or give it")
        if values is None:
            if not option.choices:
                raise LabError(f"sweeping {name} needs its values, e.g. {name}="
                               f"{option.minimum},{option.minimum + 1} "
                               f"({option.describe_range()})")
            values = option.choices
        if isinstance(values, str) or not values:
            raise LabError(f"sweeping {name} needs a list of values")
        try:
            values = tuple(option.check(value) for value in values)
        except ValueError as exc:
            raise LabError(f"sweeping {name}: {exc}") from None
        repeated = sorted({str(v) for v in values if values.count(v) > 1})
        if repeated:
            raise LabError(f"sweeping {name}: {', '.join(repeated)} given twice")
        checked.append((name, values))
    return tuple(checked)


def make_study(game_name: str, players: int, seed: int, bot_names: Sequence[str],
               options: Mapping[str, Any] | None = None,
               sweep: Mapping[str, Sequence[Any] | None] | None = None) -> Study:
    """A checked study; one bot name is used for every seat; ``sweep`` names options to
    sweep, each with its values (``None``: every choice). ``LabError`` if it is wrong."""
    try:
        game = load(game_name)
        game.option_values(options or {})
    except ValueError as exc:
        raise LabError(str(exc)) from None
    swept = check_sweep(game, sweep or {}, options or {})
    if not game.min_players <= players <= game.max_players:
        raise LabError(
            f"{game_name} is for {game.min_players} to {game.max_players} players, not {players}"
        )
    book = game.decks()
    chosen = (options or {}).get(book.keyword) if book is not None else None
    if book is not None and chosen is not None and len(chosen) != players:
        raise LabError(f"option {book.keyword} must list one deck per seat: {players} decks, "
                       f"not {len(chosen)}")
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
    return Study(game_name, players, seed, tuple(names), dict(options or {}), swept)


@lru_cache(maxsize=8)
def starter_decks(game_name: str) -> tuple[dict[str, Any], ...]:
    """The game's starter decks as JSON, in order (none for a game without decks)."""
    book = load(game_name).decks()
    return tuple(book.starters()) if book is not None else ()


def deck_rotation(starters: int, players: int, index: int) -> list[int]:
    """The starter decks (by number) of game ``index`` when a study chooses no decks: with 2
    players, each ordered pair of different starter decks in turn (so each pairing is played
    from both seats); with more players, seat s gets starter deck (index + s) mod count."""
    if players == 2 and starters > 1:
        pairs = [(a, b) for a in range(starters) for b in range(starters) if a != b]
        return list(pairs[index % len(pairs)])
    return [(index + seat) % starters for seat in range(players)]


def sweep_combination(study: Study, index: int) -> dict[str, Any]:
    """The swept options' values of game ``index``: combination ``index`` mod C of
    ``combinations`` (empty without a sweep)."""
    every = combinations(study.sweep)
    return every[index % len(every)]


def game_options(study: Study, index: int) -> dict[str, Any]:
    """The options game ``index`` of ``study`` is set up with: the study's, the swept
    values of ``sweep_combination``, and for a game with decks that the study leaves
    unchosen, the starter decks of ``deck_rotation``: with C combinations swept, rotation
    step ``index // C``, so every combination meets every pairing of decks equally often."""
    options = dict(study.options)
    options.update(sweep_combination(study, index))
    book = load(study.game).decks()
    if book is not None and book.keyword not in options:
        starters = starter_decks(study.game)
        step = index // len(combinations(study.sweep))
        options[book.keyword] = [dict(starters[k])
                                 for k in deck_rotation(len(starters), study.players, step)]
    return options


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """Game ``index``'s (game seed, bot seed): ``Rng(seed)``'s draws 2k+1 and 2k+2, halved."""
    rng = Rng((seed + 2 * index * _GOLDEN) & _MASK)
    return rng.next64() >> 1, rng.next64() >> 1
