"""The server against a real PostgreSQL server, started here from Debian's package.

``make test`` installs PostgreSQL first (``scripts/system-packages``); without it these fail.
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
from pathlib import Path
from typing import Any

import psycopg
import pytest
from test_server import check_act, check_bots_resume, check_create, check_restart
from test_server_security import (
    check_failing_bots_fail_the_table,
    check_unbounded_bots_resume_with_offered_levels,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of its own in a temporary directory; the URL of an empty database."""
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
    port = _free_port()
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(
        [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(root),
         "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
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


def test_create_on_postgres(postgres: str) -> None:
    check_create(postgres)


def test_act_on_postgres(postgres: str) -> None:
    check_act(postgres)


def test_restart_on_postgres(postgres: str) -> None:
    check_restart(postgres)
    check_bots_resume(postgres)


def test_an_old_database_upgrades_and_bots_fail_visibly_on_postgres(postgres: str) -> None:
    """Issue 15 on PostgreSQL: a first-release database gains the new columns and its
    unbounded bots play offered levels; failing bots fail the table, stored."""
    server, _name = postgres.rsplit("/", 1)
    with psycopg.connect(server.replace("postgresql://", "postgresql://", 1) + "/postgres",
                         autocommit=True) as conn:
        conn.execute("CREATE DATABASE citywatch_upgrade")
    check_unbounded_bots_resume_with_offered_levels(server + "/citywatch_upgrade")
    check_failing_bots_fail_the_table(postgres)
