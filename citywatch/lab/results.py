"""The results file: one line per finished game (``Result``), appended as the games end and
read back when a study is run again (``ResultsFile``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from citywatch.core.api import Game, Outcome
from citywatch.core.registry import load
from citywatch.lab.study import FORMAT, LabError, Study, sweep_json

RESULTS = "games.jsonl"
"""The results file's name in a study's folder."""


OLD_ROLES = "personalities"
"""What results files written before ``roles`` called each seat's role (still read)."""


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
    roles: tuple[str, ...]
    """Each seat's role (``Outcome.roles``)."""
    points: tuple[int, ...] | None
    cards: tuple[tuple[str, ...], ...]
    cooperative: bool = False
    """The seats won or lost together (``Outcome.cooperative``)."""

    def wins(self, players: int) -> list[float]:
        """Each seat's win (``Outcome.rewards``): winners split 1, but every winner of a
        co-operative game wins 1."""
        return Outcome(self.winners, self.reason,
                       cooperative=self.cooperative).rewards(players)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object (one line of the results file; ``cooperative`` only
        when true)."""
        data = {"game": self.index, "seed": self.seed, "bot_seed": self.bot_seed,
                "first": self.first, "winners": list(self.winners), "reason": self.reason,
                "turns": self.turns, "decisions": self.decisions,
                "roles": list(self.roles),
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
                       tuple(str(p) for p in data["roles" if "roles" in data else OLD_ROLES]),
                       None if points is None else tuple(int(p) for p in points),
                       tuple(tuple(str(c) for c in seat) for seat in data["cards"]),
                       data.get("cooperative", False) is True)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a game result: {exc!r}") from None


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
        out is its default; a header without options is an older study's, all defaults; a
        set-up choice's documents compared as ``SetupChoice.load`` reads them, so a shipped
        one given by its id or as its JSON form is the same; a per-seat choice left out,
        rotated, is not one chosen)."""
        if not isinstance(stored, dict):
            raise LabError(f"{self.path}: the study header's options are not an object")
        game = load(self.study.game)
        try:
            return _set_up(game, stored) == _set_up(game, self.study.options)
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


def _set_up(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """What ``options`` set the game up with: every option's value (``Game.option_values``),
    each set-up choice's documents as their JSON forms (``SetupChoice.load``; a per-seat one
    left out: ``None``). ``ValueError`` for options the game refuses."""
    values: dict[str, Any] = game.option_values(options)
    for choice in game.type.setup:
        value = values.get(choice.keyword, options.get(choice.keyword))
        if value is None:
            values[choice.keyword] = None
        elif choice.per_seat:
            values[choice.keyword] = [choice.load(item) for item in value]
        else:
            values[choice.keyword] = choice.load(value)
    return values


def _show_study(key: str, value: Any) -> str:
    """A header field in words; a sweep as ``NAME=1/5 OTHER=a/b`` (``(none)``)."""
    if key == "sweep" and isinstance(value, dict):
        return " ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}"
                        for k, v in value.items()) or "(none)"
    return _show(value)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "(none)"
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)
