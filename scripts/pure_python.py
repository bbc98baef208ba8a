"""Run citywatch from its .py sources even where compiled modules sit beside them (issue 32).

``PYTHONPATH=$PWD:$PWD/scripts python -m pure_python SCRIPT ARGS`` runs SCRIPT in pure Python,
and ``pytest -p pure_python`` runs the tests in pure Python: both set ``CITYWATCH_ENGINE=python``
before citywatch is imported, so its ``engine.SourceFirst`` finder is installed.
"""

from __future__ import annotations

import os
import runpy
import sys

os.environ["CITYWATCH_ENGINE"] = "python"
import citywatch  # noqa: E402,F401  (installs the finder now, for what is imported next)

if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
