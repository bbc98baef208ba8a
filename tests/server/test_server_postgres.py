"""The server against a real PostgreSQL server, started here from Debian's package.

``make test`` installs PostgreSQL first (``scripts/system-packages``); without it these fail.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from postgres_helpers import running_postgres
from test_end_and_rematch import check_one_rematch
from test_server import check_act, check_bots_resume, check_create, check_restart
from test_server_security import (
    check_failing_bots_fail_the_table,
    check_unbounded_bots_resume_with_offered_levels,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of its own in a temporary directory; the URL of an empty database."""
    with running_postgres() as url:
        yield url


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


def test_one_rematch_on_postgres(postgres: str) -> None:
    """Issue 26: two processes asked for the rematch at once set up one table."""
    check_one_rematch(postgres)
