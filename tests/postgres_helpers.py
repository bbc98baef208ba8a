"""A PostgreSQL server of its own for the tests, started from Debian's package.

``make test`` installs PostgreSQL first (``scripts/system-packages``); without it the tests that
use ``running_postgres`` fail with a message saying so.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_postgres(*settings: str) -> Iterator[str]:
    """A PostgreSQL server in a temporary directory, stopped and removed on exit; yields the
    URL of an empty database ``citywatch_test``. ``settings`` are extra ``name=value``
    server settings (e.g. ``max_connections=200``)."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.fail("PostgreSQL is not installed: make test installs it "
                    "(scripts/system-packages), or: sudo apt-get install postgresql")
    root = Path(tempfile.mkdtemp(prefix="citywatch-pg-"))
    user: dict[str, Any] = {}
    if os.geteuid() == 0:  # postgres refuses to run as root
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        user = {"user": owner.pw_uid, "group": owner.pw_gid}
    data = root / "data"
    subprocess.run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "--no-sync", "-E", "UTF8"],
                   check=True, capture_output=True, cwd=root, timeout=120, **user)
    port = free_port()
    extra = [arg for setting in settings for arg in ("-c", setting)]
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(
        [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(root),
         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", *extra],
        stdout=log, stderr=subprocess.STDOUT, cwd=root, **user)
    try:
        end = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(host="127.0.0.1", port=port, user="postgres",
                                     dbname="postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE citywatch_test")
                break
            except psycopg.OperationalError:
                if server.poll() is not None or time.monotonic() > end:
                    raise AssertionError(
                        "PostgreSQL did not start: " + (root / "server.log").read_text()
                    ) from None
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/citywatch_test"
    finally:
        server.send_signal(signal.SIGINT)  # a fast shutdown: it closes client connections
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        log.close()
        shutil.rmtree(root, ignore_errors=True)
