"""A pytest plugin printing how many compiled (.so) citywatch modules the run loaded:
``PYTHONPATH=$PWD:$PWD/scripts pytest -p report_compiled ...``."""

import sys
from typing import Any


def pytest_sessionfinish(session: Any) -> None:
    so = [k for k, v in sys.modules.items() if k.startswith("citywatch")
          and (getattr(v, "__file__", "") or "").endswith(".so")]
    print(f"\n[{len(so)} compiled citywatch modules loaded]")
