"""A PostgreSQL server of its own for the tests, started from Debian's package, and the
``citywatch serve`` processes of the cluster tests: ``benchmarks/serving.py``'s, which the
benchmarks use too (one piece of code for both).

``make test`` installs PostgreSQL first (``scripts/system-packages``); without it the tests that
use ``running_postgres`` fail with a message saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import serving  # noqa: E402
from serving import free_port, start_server, stop, wait_ready  # noqa: E402

__all__ = ["free_port", "running_postgres", "start_server", "stop", "wait_ready"]


@contextmanager
def running_postgres(*settings: str) -> Iterator[str]:
    """A PostgreSQL server in a temporary directory, stopped and removed on exit; yields the
    URL of an empty database ``citywatch_test``. ``settings`` are extra ``name=value``
    server settings (e.g. ``max_connections=200``)."""
    if serving.postgres_bin() is None:
        pytest.fail(serving.NOT_INSTALLED)
    with serving.running_postgres(*settings) as url:
        yield url
