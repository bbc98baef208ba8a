"""Import citywatch from its .py sources even where compiled .so files sit beside them.

``python -c 'import pure_python' ...`` is awkward, so: ``PYTHONPATH=$PWD:$PWD/scripts python -m
pure_python SCRIPT ARGS`` runs SCRIPT in pure Python, and ``pytest -p pure_python`` runs the tests
in pure Python. Used to compare compiled against pure in one worktree (issue 32).
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType


class PureFinder(MetaPathFinder):
    """Finds ``citywatch`` modules as .py files only."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "citywatch" and not name.startswith("citywatch."):
            return None
        leaf = name.rpartition(".")[2]
        for entry in (path if path is not None else sys.path):
            base = Path(entry or ".") / leaf
            if (base / "__init__.py").is_file():
                return importlib.util.spec_from_file_location(
                    name, base / "__init__.py", submodule_search_locations=[str(base)])
            if base.with_suffix(".py").is_file():
                return importlib.util.spec_from_file_location(name, base.with_suffix(".py"))
        return None


sys.meta_path.insert(0, PureFinder())

if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
