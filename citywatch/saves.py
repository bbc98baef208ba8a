"""Saved games: records written after every decision to the user's data directory.

A save is an ordinary record (``citywatch.core.record``) whose ``meta`` says who sits
where and whether the game is finished; its ``options`` are the game's, so a resumed game
is set up as it was (a save written before games had options has none: the defaults).
Writes are atomic, so a game killed mid-write keeps its previous save; nothing is ever
deleted here. A save open in a terminal is marked in use by a lock file beside it
(``NAME.json.lock``: the process and host), so a second terminal does not open it too.
"""

from __future__ import annotations

import json
import os
import socket
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


# --- a save in use ---------------------------------------------------------------------------
class SaveInUse(Exception):
    """The save is open in another terminal (its lock names the process)."""

    def __init__(self, path: Path, holder: dict[str, Any]) -> None:
        self.path = path
        self.holder = holder
        super().__init__(f"{path.name} is open in another terminal ({describe_holder(holder)})")


def lock_path(path: Path) -> Path:
    """The lock file beside a save: ``NAME.json.lock``."""
    return path.with_name(path.name + ".lock")


def describe_holder(holder: dict[str, Any]) -> str:
    """Who holds a lock, in words: 'process 123 on host x, since ...'."""
    since = f", since {holder['started']}" if holder.get("started") else ""
    return f"process {holder.get('pid', '?')} on {holder.get('host', '?')}{since}"


def lock_holder(path: Path) -> dict[str, Any] | None:
    """Who holds the save at ``path`` open, or None if nobody does. A lock left by a process
    of this host that no longer runs (a killed terminal) is stale: it is removed and None
    returned. A lock from another host cannot be checked, so it holds."""
    lock = lock_path(path)
    try:
        holder = json.loads(lock.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        holder = {}
    if not isinstance(holder, dict):
        holder = {}
    if holder.get("host") == socket.gethostname() and not _running(holder.get("pid"),
                                                                   holder.get("since")):
        lock.unlink(missing_ok=True)
        return None
    return holder


def _running(pid: Any, since: Any = None) -> bool:
    """Whether the process ``pid`` of this host runs (an unreadable pid counts as gone); with
    ``since``, its start time (``_started``) where the system tells it, a process that took
    the number of one that ended does not count."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process
    started = _started(pid)
    return since is None or started is None or started == since


def _started(pid: int) -> str | None:
    """When process ``pid`` started, as the system counts it (Linux's ``/proc``), or None
    where it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def lock(path: Path) -> None:
    """Mark the save at ``path`` in use by this process (a lock file with its pid and host);
    ``SaveInUse`` if another live process holds it. A stale lock is taken over."""
    target = lock_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    mine = {"pid": os.getpid(), "host": socket.gethostname(), "started": now(),
            "since": _started(os.getpid())}
    for _ in range(2):
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = lock_holder(path)
            if holder is not None:
                raise SaveInUse(path, holder) from None
            continue  # the stale lock was removed: try again
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(mine))
        return
    raise SaveInUse(path, lock_holder(path) or {})  # pragma: no cover (a race lost twice)


def unlock(path: Path) -> None:
    """Release this process's lock on the save at ``path`` (another's is left alone)."""
    target = lock_path(path)
    try:
        holder = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(holder, dict) and holder.get("pid") == os.getpid() \
            and holder.get("host") == socket.gethostname():
        target.unlink(missing_ok=True)
