"""Saved games: records written after every decision to the user's data directory.

A save is an ordinary record (``citywatch.core.record``) whose ``meta`` says who sits
where and whether the game is finished; its ``options`` are the game's, so a resumed game
is set up as it was (a save written before games had options has none: the defaults).
Writes are atomic, so a game killed mid-write keeps its previous save; nothing is ever
deleted here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs

from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record

ENV_DIR = "CITYWATCH_DATA_DIR"


def data_dir() -> Path:
    """The user's citywatch data directory (``$CITYWATCH_DATA_DIR`` overrides it)."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    return platformdirs.user_data_path("citywatch", appauthor=False)


def saves_dir() -> Path:
    """Where games in progress and finished games are saved."""
    return data_dir() / "saves"


def now() -> str:
    """The current UTC time, ISO format, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def new_save_path(game: str) -> Path:
    """A fresh file name for a new game's save."""
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    for n in range(1, 10_000):
        path = folder / f"{game}-{stamp}-{n}.json"
        if not path.exists():
            return path
    raise OSError(f"no free save name in {folder}")  # pragma: no cover


@dataclass
class Save:
    """One saved game."""

    path: Path
    record: Record

    @property
    def finished(self) -> bool:
        """True once the game has ended."""
        return bool(self.record.meta.get("finished"))

    @property
    def updated(self) -> str:
        """When the save was last written."""
        return str(self.record.meta.get("updated", ""))

    def describe(self) -> str:
        """One line for a list of saves."""
        seats = ", ".join(self.record.meta.get("seats", []))
        options = "".join(f", {name} {value}" for name, value in shown_options(
            self.record.game, self.record.options, self.record.players).items())
        return (f"{self.record.game}, {self.record.players} players ({seats}){options}, "
                f"{len(self.record.actions)} decisions, saved {self.updated}")


def shown_options(game_name: str, options: dict[str, Any], players: int) -> dict[str, Any]:
    """What a save's line shows of its options (``Game.shown_options``: a set-up choice by
    its document's name); options a game no longer reads are shown as they are."""
    from citywatch.core.registry import load

    try:
        return load(game_name).shown_options(options, players)
    except (KeyError, ValueError):
        return {name: value if isinstance(value, int | str) else "?"
                for name, value in options.items()}


def list_saves() -> tuple[list[Save], list[tuple[Path, str]]]:
    """Every readable save, newest first, and the unreadable ones with the reason."""
    folder = saves_dir()
    saves: list[Save] = []
    broken: list[tuple[Path, str]] = []
    if not folder.is_dir():
        return saves, broken
    for path in sorted(folder.glob("*.json")):
        try:
            saves.append(Save(path, Record.load(path)))
        except InvalidRecord as exc:
            broken.append((path, str(exc)))
    saves.sort(key=lambda s: (s.updated, s.path.name), reverse=True)
    return saves, broken


def write(path: Path, record: Record, *, finished: bool) -> None:
    """Save ``record`` atomically, stamping the time and whether it is finished."""
    record.meta["updated"] = now()
    record.meta["finished"] = finished
    path.parent.mkdir(parents=True, exist_ok=True)
    record.save(path)
