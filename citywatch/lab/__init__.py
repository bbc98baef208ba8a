"""The balance lab: many games between bots, in parallel, resumable, summarised with intervals.

A library for any registered game (the caller names it): playing one game between bots
(``play_game``), studies and their results file, the backends that run them, and the summary
(``summarise``, ``Summary``). ``citywatch.lab_report`` and the ``citywatch simulate`` command
(``citywatch.simulate``) are built on it.

Game k of a study depends only on the master seed and k: its game seed and bot seed are the
(2k+1)-th and (2k+2)-th numbers of ``Rng(seed)``, however the games are shared out (one process,
a pool of processes on this machine, or a Ray cluster). Each finished game is appended as one
line of JSON to a results file; a rerun of the same study plays only the games still missing.
A study may sweep options: game k is set up with combination k mod C of the swept values.
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import IO, Any

from citywatch.bots import Bot, Observation, make_bot
from citywatch.core.api import Game, Outcome, State
from citywatch.core.record import Record
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.tournament import wilson

FORMAT = "citywatch-study/1"
RESULTS = "games.jsonl"
MAX_BATCH = 64
BATCH_SECONDS = 0.5
MIN_PLAYS = 20
TOP_CARDS = 10
RUN_KEYS = frozenset({"seconds", "games_per_second", "decisions_per_second", "run"})
"""Summary keys that describe one run (timing, backend), not the games."""

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class LabError(ValueError):
    """A study that cannot run as asked: bad options, a foreign results file, no cluster."""


# Playing one game ---------------------------------------------------------------------------


@dataclass
class GameResult:
    """One simulated game."""

    seed: int
    outcome: Outcome
    turns: int
    decisions: int
    record: Record
    first: int | None = None
    cards: list[list[str]] = field(default_factory=list)


def play_game(
    game_name: str,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    bot_seed: int,
    *,
    digests: bool = False,
    options: Mapping[str, Any] | None = None,
) -> GameResult:
    """Play one game to the end, set up with the game's ``options``; bots see only their
    seat's observation.

    The result also names the seat that moved first and the cards each seat played
    (actions whose JSON has the verb ``"play"`` and a ``"card"``), in order, without repeats.
    """
    game = load(game_name)
    chosen = dict(options or {})
    state: State = game.new_game(players=players, seed=seed, **chosen)
    first = first_seat(state)
    rngs = [Rng(bot_seed + 7919 * seat) for seat in range(players)]
    record = Record(game_name, players, seed, chosen, [], [] if digests else None)
    cards: list[list[str]] = [[] for _ in range(players)]
    decisions = 0
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        action = bots[seat].choose(Observation(state, seat), legal, rngs[seat])
        state.apply(action)
        decisions += 1
        data = action.to_json()
        record.actions.append(data)
        if isinstance(data, dict) and data.get("verb") == "play":
            card = data.get("card")
            if isinstance(card, str) and card not in cards[seat]:
                cards[seat].append(card)
        if record.digests is not None:
            record.digests.append(state.digest())
    outcome = state.outcome()
    assert outcome is not None
    turns = state.turn_count()
    return GameResult(seed, outcome, turns, decisions, record, first, cards)


def first_seat(state: State) -> int | None:
    """The seat to move first: the spectator view's ``current`` (a seat or its colour)."""
    view = state.view(None)
    current = view.get("current")
    if isinstance(current, int) and not isinstance(current, bool):
        return current
    if isinstance(current, str):
        for number, seat in enumerate(view.get("seats", [])):
            if isinstance(seat, dict) and seat.get("colour") == current:
                return number
    return state.to_move


# Studies ------------------------------------------------------------------------------------


Sweep = tuple[tuple[str, tuple[Any, ...]], ...]
"""Swept options in order, each with its values: ``(("difficulty", ("easy", "hard")),)``."""


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
    """``"scenario=vault, difficulty=easy"`` (``"all games"`` for the empty combination)."""
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
def _starters(game_name: str) -> tuple[dict[str, Any], ...]:
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
        starters = _starters(study.game)
        step = index // len(combinations(study.sweep))
        options[book.keyword] = [dict(starters[k])
                                 for k in deck_rotation(len(starters), study.players, step)]
    return options


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """Game ``index``'s (game seed, bot seed): ``Rng(seed)``'s draws 2k+1 and 2k+2, halved."""
    rng = Rng((seed + 2 * index * _GOLDEN) & _MASK)
    return rng.next64() >> 1, rng.next64() >> 1


@dataclass(frozen=True)
class Result:
    """One finished game, compact: one line of the results file."""

    index: int
    seed: int
    bot_seed: int
    first: int | None
    winners: tuple[int, ...]
    reason: str
    turns: int
    decisions: int
    personalities: tuple[str, ...]
    points: tuple[int, ...] | None
    cards: tuple[tuple[str, ...], ...]
    cooperative: bool = False
    """The seats won or lost together (``Outcome.cooperative``)."""

    def wins(self, players: int) -> list[float]:
        """Each seat's win (``Outcome.rewards``): winners split 1, but every winner of a
        co-operative game wins 1."""
        return Outcome(self.winners, self.reason,
                       details={"cooperative": self.cooperative}).rewards(players)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object (one line of the results file; ``cooperative`` only
        when true)."""
        data = {"game": self.index, "seed": self.seed, "bot_seed": self.bot_seed,
                "first": self.first, "winners": list(self.winners), "reason": self.reason,
                "turns": self.turns, "decisions": self.decisions,
                "personalities": list(self.personalities),
                "points": None if self.points is None else list(self.points),
                "cards": [list(c) for c in self.cards]}
        if self.cooperative:
            data["cooperative"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """Read a result line; ``ValueError`` if it is not one."""
        if not isinstance(data, dict):
            raise ValueError("a result must be a JSON object")
        try:
            points = data["points"]
            return cls(int(data["game"]), int(data["seed"]), int(data["bot_seed"]),
                       None if data["first"] is None else int(data["first"]),
                       tuple(int(w) for w in data["winners"]), str(data["reason"]),
                       int(data["turns"]), int(data["decisions"]),
                       tuple(str(p) for p in data["personalities"]),
                       None if points is None else tuple(int(p) for p in points),
                       tuple(tuple(str(c) for c in seat) for seat in data["cards"]),
                       data.get("cooperative", False) is True)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a game result: {exc!r}") from None


Played = tuple[dict[str, Any], dict[str, Any] | None]
"""A played game as sent back by a worker: its result line, and its record if asked for."""


def play_batch(study: Study, indices: Sequence[int], records: bool = False) -> list[Played]:
    """Play the games ``indices`` of ``study`` (in a worker); return their results."""
    bots = [make_bot(spec, study.game) for spec in study.bots]
    out: list[Played] = []
    for index in indices:
        game_seed, bot_seed = game_seeds(study.seed, index)
        game = play_game(study.game, study.players, game_seed, bots, bot_seed, digests=records,
                         options=game_options(study, index))
        outcome = game.outcome
        points = outcome.points or outcome.details.get("final_points")
        result = Result(index, game_seed, bot_seed, game.first, tuple(outcome.winners),
                        outcome.reason, game.turns, game.decisions,
                        tuple(outcome.details.get("personalities", ())),
                        None if points is None else tuple(int(p) for p in points),
                        tuple(tuple(c) for c in game.cards), outcome.cooperative)
        out.append((result.to_json(), game.record.to_json() if records else None))
    return out


def timed_batch(study: Study, indices: Sequence[int], records: bool) -> tuple[list[Played], float]:
    """``play_batch`` and the seconds it took (for worker processes and Ray tasks)."""
    start = time.perf_counter()
    played = play_batch(study, indices, records)
    return played, time.perf_counter() - start


def _worker_init() -> None:
    """Leave Ctrl-C to the main process."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Batcher:
    """Hands out the games to play in batches that take about ``BATCH_SECONDS`` each.

    The first batches hold one game; later ones are sized from the seconds per game seen so
    far, at most ``MAX_BATCH`` games and at most a share of what is left, so every worker
    stays busy to the end. ``in_flight`` batches are kept queued: two per worker.
    """

    def __init__(self, todo: Sequence[int], workers: int) -> None:
        self.todo = deque(todo)
        self.workers = workers
        self.in_flight = 2 * workers
        self.games = 0
        self.seconds = 0.0

    def next(self) -> tuple[int, ...] | None:
        """The next batch, or None when every game has been handed out."""
        if not self.todo:
            return None
        size = 1
        if self.games and self.seconds > 0:
            size = round(BATCH_SECONDS * self.games / self.seconds)
        share = math.ceil(len(self.todo) / (2 * self.workers))
        size = max(1, min(size, MAX_BATCH, share))
        return tuple(self.todo.popleft() for _ in range(min(size, len(self.todo))))

    def finished(self, games: int, seconds: float) -> None:
        """Note a batch of ``games`` that took ``seconds``."""
        self.games += games
        self.seconds += seconds


# The results file ---------------------------------------------------------------------------


class ResultsFile:
    """The JSONL results file: a header line (the study), then one line per finished game.

    Lines are flushed one by one, so a killed study loses at most the line being written;
    a torn last line is dropped when the file is opened again.
    """

    def __init__(self, path: Path, study: Study) -> None:
        self.path = path
        self.study = study
        self.results: dict[int, Result] = {}
        self._file: IO[str] | None = None

    def open(self) -> dict[int, Result]:
        """Read the games already played (checking the header) and open for appending."""
        good = 0  # where the last whole, readable line ends
        if self.path.exists():
            data = self.path.read_bytes()
            position = number = 0
            while position < len(data):
                end = data.find(b"\n", position)
                if end < 0:
                    break  # a torn last line: the study was stopped while writing it
                number += 1
                raw, position = data[position:end], end + 1
                try:
                    item = json.loads(raw)
                    result = Result.from_json(item) if number > 1 else None
                except ValueError:
                    if position >= len(data):
                        break  # the last line, garbled: torn too
                    what = "a study header" if number == 1 else "a game result"
                    raise LabError(f"{self.path}: line {number} is not {what}") from None
                if result is None:
                    self._check_header(item)
                else:
                    self.results.setdefault(result.index, result)
                good = position
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if good:
            with self.path.open("r+b") as f:
                f.truncate(good)  # drop a torn last line
            self._file = self.path.open("a", encoding="utf-8")
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._file.write(json.dumps(self.study.to_json(), separators=(",", ":")) + "\n")
            self._file.flush()
        return self.results

    def _check_header(self, item: Any) -> None:
        header = self.study.to_json()
        if not isinstance(item, dict) or item.get("format") != FORMAT:
            raise LabError(f"{self.path} is not a citywatch study results file")
        item = {"options": {}, **item}
        different = [key for key in ("game", "players", "seed", "bots")
                     if item.get(key) != header[key]]
        if not different and not self._same_options(item["options"]):
            different.append("options")
        if not different and not self._same_sweep(item.get("sweep", {})):
            different.append("sweep")
        if different:
            shown = {**header, "sweep": header.get("sweep", {})}
            found = ", ".join(f"{k} {_show_study(k, item.get(k, {}))}" for k in different)
            asked = ", ".join(f"{k} {_show_study(k, shown[k])}" for k in different)
            raise LabError(f"{self.path} holds a study with {found}, not {asked}; rerun with the "
                           "same options to continue it, or use another directory")

    def _same_options(self, stored: Any) -> bool:
        """True if a header's ``options`` set the game up as the study's do (an option left
        out is its default; a header without options is an older study's, all defaults)."""
        if not isinstance(stored, dict):
            raise LabError(f"{self.path}: the study header's options are not an object")
        game = load(self.study.game)
        book = game.decks()
        if book is not None and stored.get(book.keyword) != self.study.options.get(book.keyword):
            return False
        try:
            return game.option_values(stored) == game.option_values(self.study.options)
        except ValueError:
            return False

    def _same_sweep(self, stored: Any) -> bool:
        """True if a header's ``sweep`` sweeps the same options, values and order as the
        study's (none stored: no sweep)."""
        if not isinstance(stored, dict):
            raise LabError(f"{self.path}: the study header's sweep is not an object")
        return list(stored.items()) == list(sweep_json(self.study.sweep).items())

    def add(self, result: Result) -> None:
        """Append one finished game and flush it."""
        assert self._file is not None, "open() the results file first"
        self.results.setdefault(result.index, result)
        self._file.write(json.dumps(result.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


def _show_study(key: str, value: Any) -> str:
    """A header field in words; a sweep as ``spells=1/5 rounds=3/4`` (``(none)``)."""
    if key == "sweep" and isinstance(value, dict):
        return " ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}"
                        for k, v in value.items()) or "(none)"
    return _show(value)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "(none)"
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


# Backends -----------------------------------------------------------------------------------


Emit = Callable[[Played], None]


def run_serial(study: Study, todo: Sequence[int], records: bool, emit: Emit) -> None:
    """Play the games one after another in this process."""
    for index in todo:
        for played in play_batch(study, [index], records):
            emit(played)


def run_processes(study: Study, todo: Sequence[int], records: bool, emit: Emit,
                  workers: int) -> None:
    """Play batches of games in ``workers`` processes on this machine."""
    batcher = Batcher(todo, workers)
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init) as pool:
        pending: set[Future[tuple[list[Played], float]]] = set()
        try:
            while True:
                while len(pending) < batcher.in_flight and (batch := batcher.next()):
                    pending.add(pool.submit(timed_batch, study, batch, records))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    played, seconds = future.result()
                    batcher.finished(len(played), seconds)
                    for item in played:
                        emit(item)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def ray_target(address: str | None) -> tuple[str, int] | None:
    """The (host, port) a Ray address points at, or None for ``local``/``auto``/the default.

    ``LabError`` if the address is not ``HOST:PORT`` or ``ray://HOST:PORT``.
    """
    if address is None:
        address = os.environ.get("RAY_ADDRESS") or None
    if address is None or address in ("local", "auto"):
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise LabError(f"the Ray address {address!r} should be HOST:PORT, ray://HOST:PORT, "
                       "'auto' or 'local'")
    return host, int(port)


def run_ray(study: Study, todo: Sequence[int], records: bool, emit: Emit,
            address: str | None, workers: int | None) -> int:
    """Play batches of games as Ray tasks: on a cluster at ``address``, or ``local``.

    ``None`` is Ray's own default (``RAY_ADDRESS``, a cluster running here, else a new local
    instance). A local instance gets ``workers`` CPUs when given. Code is shipped to a cluster
    as a runtime environment, so its workers need only Ray and the same Python. Return the
    cluster's CPUs.
    """
    try:
        import ray
    except ImportError:
        raise LabError("--ray needs the ray package: pip install 'citywatch[ray]'") from None
    started = False
    if not ray.is_initialized():
        target = ray_target(address)
        if target is not None:
            try:
                socket.create_connection(target, timeout=5).close()
            except OSError as exc:
                reason = exc.strerror or str(exc) or type(exc).__name__
                raise LabError(f"cannot reach the Ray cluster at {address}: {reason}") from None
        options: dict[str, Any] = {}
        if target is not None:
            import citywatch

            options["runtime_env"] = {"py_modules": [citywatch]}
        if not (address or "").startswith("ray://"):  # Ray Client takes no other options
            options.update(log_to_driver=False, logging_level=logging.ERROR)
        if target is None:
            options["include_dashboard"] = False
        if address == "local" and workers is not None:
            options["num_cpus"] = workers
        try:
            ray.init(address=address, **options)
        except Exception as exc:  # Ray raises many kinds; all mean no cluster
            hint = ("; a cluster with token authentication also needs RAY_AUTH_MODE=token"
                    if target is not None and "RAY_AUTH_MODE" not in os.environ else "")
            raise LabError(f"cannot start or join the Ray cluster at {address or 'default'}: "
                           f"{exc}{hint}") from None
        started = True
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = max(1, int(resources.get("CPU", 1)))
        task: Any = ray.remote(num_cpus=1)(timed_batch)
        batcher = Batcher(todo, cpus)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < batcher.in_flight and (batch := batcher.next()):
                    pending.append(task.remote(study, batch, records))
                if not pending:
                    break
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    played, seconds = ray.get(ref)
                    batcher.finished(len(played), seconds)
                    for item in played:
                        emit(item)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return cpus
    finally:
        if started:
            ray.shutdown()


# Running a study ----------------------------------------------------------------------------


Progress = Callable[[int, int], None]
"""Told (games done, games in the study) at the start and after every game."""


@dataclass
class Run:
    """How one run of a study went: backend, workers, games played now and read back."""

    backend: str
    workers: int
    played: int = 0
    resumed: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The run as JSON."""
        return {"backend": self.backend, "workers": self.workers, "games_played": self.played,
                "games_resumed": self.resumed}


def run_study(study: Study, games: int, *, workers: int | None = None, ray: str | None = None,
              use_ray: bool = False, results_file: Path | None = None,
              records: Path | None = None, progress: Progress | None = None,
              ) -> tuple[list[Result], Run]:
    """Play games ``0 .. games-1`` of ``study`` (skipping those already in ``results_file``).

    ``workers`` processes on this machine (default: every core), or Ray tasks when
    ``use_ray`` (``ray`` is the address). Return the results in game order and how it ran.
    """
    if games < 1:
        raise LabError("games must be at least 1")
    if workers is not None and workers < 1:
        raise LabError("workers must be at least 1")
    if use_ray:
        run = Run("ray", workers or 0)
    else:
        count = workers or os.cpu_count() or 1
        run = Run("serial" if count == 1 else "processes", count)
    store = ResultsFile(results_file, study) if results_file is not None else None
    done: dict[int, Result] = {}
    if store is not None:
        done = {k: r for k, r in store.open().items() if k < games}
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    run.resumed = len(done)
    todo = [k for k in range(games) if k not in done]
    if progress is not None:
        progress(len(done), games)

    def emit(played: Played) -> None:
        line, record = played
        result = Result.from_json(line)
        if record is not None and records is not None:
            Record.from_json(record).save(records / f"game-{result.index + 1:05d}.json")
        if store is not None:
            store.add(result)
        done[result.index] = result
        run.played += 1
        run.decisions += result.decisions
        if progress is not None:
            progress(len(done), games)

    want = records is not None
    start = time.perf_counter()
    try:
        if not todo:
            pass
        elif use_ray:
            run.workers = run_ray(study, todo, want, emit, ray, workers)
        elif run.workers == 1 or len(todo) == 1:
            run_serial(study, todo, want, emit)
        else:
            run_processes(study, todo, want, emit, min(run.workers, len(todo)))
    finally:
        run.seconds = time.perf_counter() - start
        if store is not None:
            store.close()
    return [done[k] for k in range(games)], run


@contextmanager
def progress_bar(enabled: bool | None = None) -> Iterator[Progress | None]:
    """A rich progress bar on stderr (games done, rate, time left); only on a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.speed
            return Text("" if speed is None else f"{speed:.1f} games/s")

    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task_id: list[Any] = []

    def update(done: int, total: int) -> None:
        if not task_id:
            task_id.append(bar.add_task("games", total=total, completed=done))
        else:
            bar.update(task_id[0], completed=done)

    with bar:
        yield update


# Summary ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """A win rate (or any share) with its 95% Wilson interval."""

    games: int
    wins: float

    @property
    def rate(self) -> float:
        """``wins / games`` (0 when there are no games)."""
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval ((0, 1) when there are no games), never excluding the rate."""
        if not self.games:
            return 0.0, 1.0
        low, high = wilson(self.wins, self.games)
        return min(low, self.rate), max(high, self.rate)

    def to_json(self) -> dict[str, Any]:
        """``games, wins, rate, ci_low, ci_high``."""
        low, high = self.interval()
        return {"games": self.games, "wins": self.wins, "rate": self.rate,
                "ci_low": low, "ci_high": high}


def spread(values: Sequence[int]) -> dict[str, Any]:
    """``games, mean, median, q1, q3, min, max`` of a list of counts (None when empty)."""
    if not values:
        return {"games": 0, "mean": None, "median": None, "q1": None, "q3": None,
                "min": None, "max": None}
    data = sorted(values)
    return {"games": len(data), "mean": sum(data) / len(data), "median": quantile(data, 0.5),
            "q1": quantile(data, 0.25), "q3": quantile(data, 0.75), "min": data[0],
            "max": data[-1]}


def quantile(data: Sequence[int], q: float) -> float:
    """The ``q`` quantile of sorted ``data``, interpolating linearly between ranks."""
    position = (len(data) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(data) - 1)
    return float(data[low] + (data[high] - data[low]) * (position - low))


@dataclass
class Tally:
    """Wins (shares of a game) out of games, by key."""

    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)

    def add(self, key: str, win: float) -> None:
        """Count one game for ``key`` with its share of the win."""
        self.games[key] = self.games.get(key, 0) + 1
        self.wins[key] = self.wins.get(key, 0.0) + win

    def rates(self) -> dict[str, Rate]:
        """Each key's rate, keys sorted."""
        return {k: Rate(self.games[k], self.wins[k]) for k in sorted(self.games)}


def seat_names(game_name: str, players: int) -> list[str]:
    """Seat names from the spectator view (colours), else ``seat N``."""
    seats = load(game_name).new_game(players=players, seed=0).view(None).get("seats", [])
    names = []
    for number in range(players):
        seat = seats[number] if number < len(seats) else None
        colour = seat.get("colour") if isinstance(seat, dict) else None
        names.append(colour if isinstance(colour, str) else f"seat {number}")
    return names


def summarise(study: Study, results: Sequence[Result], run: Run,
              min_plays: int = MIN_PLAYS) -> dict[str, Any]:
    """The study's summary as JSON (see docs/lab.md); ``results`` in game order."""
    players = study.players
    games = len(results)
    wins = [0.0] * players
    firsts = [0] * players
    order_games = [0] * players
    order_wins = [0.0] * players
    personalities = Tally()
    bots = Tally()
    cards = Tally()
    reasons: dict[str, int] = {}  # the game's own end reasons, as its outcomes name them
    turns: dict[str, list[int]] = {}
    decisions = 0
    for result in results:
        won = result.wins(players)
        for seat in range(players):
            wins[seat] += won[seat]
            bots.add(study.bots[seat], won[seat])
            if result.personalities:
                personalities.add(result.personalities[seat], won[seat])
            for card in result.cards[seat] if result.cards else ():
                cards.add(card, won[seat])
            if result.first is not None:
                offset = (seat - result.first) % players
                order_games[offset] += 1
                order_wins[offset] += won[seat]
        if result.first is not None:
            firsts[result.first] += 1
        reasons[result.reason] = reasons.get(result.reason, 0) + 1
        turns.setdefault(result.reason, []).append(result.turns)
        decisions += result.decisions
    reasons = {k: reasons[k] for k in sorted(reasons)}
    order = [Rate(order_games[k], order_wins[k]) for k in range(players)]
    by_personality = personalities.rates()
    card_rates = cards.rates()
    eligible = sorted(((k, r) for k, r in card_rates.items() if r.games >= min_plays),
                      key=lambda kv: (-kv[1].rate, kv[0]))
    top = eligible[:min(TOP_CARDS, math.ceil(len(eligible) / 2))]
    bottom = eligible[len(top):][-min(TOP_CARDS, len(eligible) // 2):] if len(eligible) > 1 else []
    all_turns = [r.turns for r in results]
    names = seat_names(study.game, players)
    seconds = run.seconds
    extra = {**deck_summary(study, results), **sweep_summary(study, results)}
    swept = {name for name, _ in study.sweep}
    options = {k: v for k, v in load(study.game).option_values(study.options).items()
               if k not in swept}
    return {
        "game": study.game,
        "role": load(study.game).role,
        "players": players,
        "games": games,
        "seed": study.seed,
        "bots": list(study.bots),
        "options": options,
        "wins_by_seat": wins,
        "wins_by_personality": {k: personalities.wins[k] for k in by_personality},
        "end_reasons": reasons,
        "mean_turns": sum(all_turns) / games if games else 0.0,
        "mean_decisions": sum(r.decisions for r in results) / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": run.played / seconds if seconds and run.played else 0.0,
        "decisions_per_second": run.decisions / seconds if seconds and run.decisions else 0.0,
        "seat_names": names,
        "win_rate_by_seat": [Rate(games, wins[s]).to_json() for s in range(players)],
        "first_player_by_seat": firsts,
        "win_rate_by_turn_order": [r.to_json() for r in order],
        "win_rate_by_personality": {k: r.to_json() for k, r in by_personality.items()},
        "win_rate_by_bot": {k: r.to_json() for k, r in bots.rates().items()},
        "end_reason_rates": {k: Rate(games, n).to_json() for k, n in reasons.items()},
        "turns": spread(all_turns),
        "turns_by_end_reason": {k: spread(turns[k]) for k in reasons},
        "min_plays": min_plays,
        "win_rate_by_card": {k: r.to_json() for k, r in card_rates.items()},
        "most_decisive_cards": [{"card": k, **r.to_json()} for k, r in top],
        "least_decisive_cards": [{"card": k, **r.to_json()} for k, r in bottom],
        **extra,
        "run": run.to_json(),
    }


def deck_summary(study: Study, results: Sequence[Result]) -> dict[str, Any]:
    """For a game with decks: ``deck_choice`` (the decks per seat the study chose, or
    ``"rotated starter decks"``) and ``deck_matrix``: ``decks`` (names, starter decks first)
    and ``rows``: for row deck A and column deck B (A not B), A's win rate in the games where
    A and B sat at the same table (each seat's share of the win), with its Wilson interval.
    Nothing for a game without decks."""
    book = load(study.game).decks()
    if book is None:
        return {}
    chosen = study.options.get(book.keyword)
    choice: Any = ([str(deck.get("name", "?")) for deck in chosen]
                   if isinstance(chosen, list) else "rotated starter decks")
    cells: dict[tuple[str, str], Tally] = {}
    seen: set[str] = set()
    for result in results:
        decks = result.personalities
        if len(decks) != study.players:
            continue
        wins = result.wins(study.players)
        seen.update(decks)
        for seat, deck in enumerate(decks):
            won = wins[seat]
            for other_seat, other in enumerate(decks):
                if other_seat != seat and other != deck:
                    cells.setdefault((deck, other), Tally()).add("", won)
    starters = [str(deck["name"]) for deck in _starters(study.game)]
    names = [n for n in starters if n in seen] + sorted(seen - set(starters))
    rows: dict[str, dict[str, Any]] = {}
    for row in names:
        rows[row] = {}
        for column in names:
            tally = cells.get((row, column))
            if tally is not None:
                rows[row][column] = tally.rates()[""].to_json()
    return {"deck_choice": choice, "deck_matrix": {"decks": names, "rows": rows}}


def sweep_summary(study: Study, results: Sequence[Result]) -> dict[str, Any]:
    """For a study that sweeps options: ``sweep``, with ``options`` (each swept option's
    values) and ``combinations``, one per combination in order: its ``options`` and
    ``label``, ``games``, ``any_winner`` (the share of its games somebody won: a co-operative
    crew's win rate), ``win_rate_by_seat`` (each seat's share of the wins), ``turns`` (as
    the summary's) and ``mean_decisions``. Nothing for a study without a sweep."""
    if not study.sweep:
        return {}
    every = combinations(study.sweep)
    anyone = [Tally() for _ in every]
    seats = [Tally() for _ in every]
    turns: list[list[int]] = [[] for _ in every]
    decisions = [0] * len(every)
    for result in results:
        k = result.index % len(every)
        won = result.wins(study.players)
        anyone[k].add("", 1.0 if result.winners else 0.0)
        for seat in range(study.players):
            seats[k].add(str(seat), won[seat])
        turns[k].append(result.turns)
        decisions[k] += result.decisions
    rows = []
    for k, combination in enumerate(every):
        games = len(turns[k])
        by_seat = seats[k].rates()
        rows.append({
            "options": combination,
            "label": combination_label(combination),
            "games": games,
            "any_winner": anyone[k].rates().get("", Rate(0, 0.0)).to_json(),
            "win_rate_by_seat": [by_seat.get(str(seat), Rate(0, 0.0)).to_json()
                                 for seat in range(study.players)],
            "turns": spread(turns[k]),
            "mean_decisions": decisions[k] / games if games else 0.0,
        })
    return {"sweep": {"options": sweep_json(study.sweep), "combinations": rows}}


@dataclass
class Summary:
    """A study's summary as an object; ``extra`` holds the further fields (see docs/lab.md)."""

    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    wins_by_seat: list[float] = field(default_factory=list)
    wins_by_personality: dict[str, float] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    mean_turns: float = 0.0
    mean_decisions: float = 0.0
    seconds: float = 0.0
    games_per_second: float = 0.0
    decisions_per_second: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_personality": self.wins_by_personality,
            "end_reasons": self.end_reasons,
            "mean_turns": self.mean_turns,
            "mean_decisions": self.mean_decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
            **self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Summary:
        """A summary from its JSON object."""
        names = [f for f in cls.__dataclass_fields__ if f != "extra"]
        return cls(**{k: data[k] for k in names},
                   extra={k: v for k, v in data.items() if k not in names})
