"""Which engine runs: citywatch's pure-Python modules, or compiled ones built beside them.

Issue 32 plans compiled builds of the rules modules (``docs/engine-speed.md``); the ``.py``
source stays the one truth. A compiled module (an extension file next to its ``.py``) is
imported in its place; with the environment variable ``CITYWATCH_ENGINE=python`` every
citywatch module is imported from its ``.py`` source instead (``SourceFirst``), so the same
checkout can run, test and measure both. ``citywatch --version`` and ``citywatch games`` say
which runs (``describe``). This module imports nothing of citywatch, and installs the finder
as it is imported: the package's ``__init__`` imports it before any other submodule.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

VARIABLE = "CITYWATCH_ENGINE"
"""The environment variable that chooses the engine: ``python`` forces the sources."""
PACKAGE = "citywatch"


class SourceFirst(MetaPathFinder):
    """Finds citywatch's modules as ``.py`` files only, never as compiled extensions."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """The spec of ``name``'s source file (a package's ``__init__.py``), or None for a
        module outside citywatch or one without a source file."""
        if not name.startswith(PACKAGE + "."):
            return None
        leaf = name.rpartition(".")[2]
        for entry in path if path is not None else sys.path:
            base = Path(entry or ".") / leaf
            if (base / "__init__.py").is_file():
                return importlib.util.spec_from_file_location(
                    name, base / "__init__.py", submodule_search_locations=[str(base)])
            if base.with_suffix(".py").is_file():
                return importlib.util.spec_from_file_location(name, base.with_suffix(".py"))
        return None


def forced_pure() -> bool:
    """True if the environment asks for the pure-Python modules (``CITYWATCH_ENGINE=python``)."""
    return os.environ.get(VARIABLE, "").strip().lower() == "python"


def install() -> None:
    """Put ``SourceFirst`` first on the import path if the environment asks for it (once)."""
    if forced_pure() and not any(isinstance(f, SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())


def compiled_modules() -> list[str]:
    """The citywatch modules imported now from compiled extension files, sorted."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith(PACKAGE + ".")
                  and str(getattr(module, "__file__", "") or "").endswith(
                      tuple(EXTENSION_SUFFIXES)))


def built_modules(root: Path | None = None) -> list[Path]:
    """The compiled extension files present in the package folder (imported or not)."""
    folder = root if root is not None else Path(__file__).resolve().parent
    return sorted({p for suffix in EXTENSION_SUFFIXES for p in folder.rglob(f"*{suffix}")})


def describe() -> str:
    """Which engine runs, in words: "pure Python", "pure Python (CITYWATCH_ENGINE=python;
    N compiled modules left unused)" or "compiled: N modules" (of those imported now)."""
    built = built_modules()
    if forced_pure():
        return (f"pure Python ({VARIABLE}=python; {len(built)} compiled modules left unused)"
                if built else "pure Python")
    loaded = compiled_modules()
    if loaded:
        return f"compiled: {len(loaded)} modules ({len(built)} built)"
    return "pure Python" if not built else f"pure Python ({len(built)} compiled modules built)"


install()
