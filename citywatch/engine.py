"""Which engine runs: citywatch's pure-Python modules, or compiled ones built beside them.

The ``.py`` source is the one truth (issue 32, ``docs/engine-speed.md``). A compiled module
(an extension file next to its ``.py``, built by ``scripts/build_engine.py``) is imported in its
place, after mypyc's shared library of them all (``GROUP``). With the environment variable
``CITYWATCH_ENGINE=python`` every citywatch module is imported from its ``.py`` source instead
(``SourceFirst``), so one checkout can run, test and measure both; ``citywatch --version`` and
``citywatch games`` say which runs (``describe``). The build writes a manifest of its sources'
hashes: a source changed since, or compiled modules without a manifest, make the whole package
run from its sources until rebuilt (``fallback``). This module imports nothing of citywatch
and acts as it is imported: the package's ``__init__`` imports it before any other submodule.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
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
GROUP = "citywatch_engine"
"""mypyc's name for the compiled modules' shared library, ``citywatch_engine__mypyc*.so``
beside the package folder (where mypyc derives the modules' ``__file__`` from)."""
MANIFEST = Path(PACKAGE) / "engine-build.json"
"""The build's manifest, from the repository root: each compiled module's source hash."""


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


fallback: str | None = None
"""Why compiled modules that are present are not used (stale or unverified), or None."""


def source_hash(source: Path) -> str:
    """The SHA-256 of a source file's bytes, in hex."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def write_manifest(sources: Sequence[Path], root: Path) -> None:
    """Record the hashes of the compiled ``sources`` (paths under ``root``) in the manifest."""
    hashes = {source.relative_to(root).as_posix(): source_hash(source) for source in sources}
    (root / MANIFEST).write_text(json.dumps({"modules": hashes}, indent=1, sort_keys=True))


def stale_modules(sources: Sequence[Path] | None = None, root: Path | None = None
                  ) -> list[str] | None:
    """The compiled modules whose source differs from the manifest's hash (or ``sources``
    that the manifest lacks); None when there is no readable manifest."""
    base = root if root is not None else Path(__file__).resolve().parent.parent
    try:
        recorded = json.loads((base / MANIFEST).read_text())["modules"]
        assert isinstance(recorded, dict)
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        return None
    wanted = ({s.relative_to(base).as_posix() for s in sources} if sources is not None
              else set(recorded))
    stale = sorted(wanted - set(recorded))
    for name in sorted(wanted & set(recorded)):
        source = base / name
        if not source.is_file() or source_hash(source) != recorded[name]:
            stale.append(name)
    return stale


def install() -> None:
    """Put ``SourceFirst`` first on the import path if the environment asks for it, or if
    compiled modules are present but stale or without a manifest (once)."""
    global fallback
    if not forced_pure() and built_modules():
        stale = stale_modules()
        if stale is None:
            fallback = "compiled modules without a build manifest"
        elif stale:
            fallback = (f"{len(stale)} compiled modules older than their source "
                        f"({stale[0]}, ...); rebuild with scripts/build_engine.py or make")
    if (forced_pure() or fallback) and not any(isinstance(f, SourceFirst)
                                               for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())
    elif not forced_pure() and not fallback:
        _load_group_library()


def group_library(root: Path | None = None) -> Path | None:
    """The compiled modules' shared library beside the package folder, or None."""
    base = root if root is not None else Path(__file__).resolve().parent.parent
    for suffix in EXTENSION_SUFFIXES:
        library = base / f"{GROUP}__mypyc{suffix}"
        if library.is_file():
            return library
    return None


def _load_group_library() -> None:
    """Import the shared library by its path, so that the compiled modules find it in
    ``sys.modules`` whatever the import path holds (an editable install adds only the
    package, not the folder the library sits in)."""
    name = f"{GROUP}__mypyc"
    library = group_library()
    if library is None or name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, library)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


def compiled_modules() -> list[str]:
    """The citywatch modules imported now from compiled extension files, sorted."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith(PACKAGE + ".")
                  and str(getattr(module, "__file__", "") or "").endswith(
                      tuple(EXTENSION_SUFFIXES)))


def extension_of(source: Path) -> Path | None:
    """The compiled extension file beside a ``.py`` source, or None."""
    for suffix in EXTENSION_SUFFIXES:
        candidate = source.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None


def built_modules(root: Path | None = None) -> list[Path]:
    """The compiled extension files present in the package folder (imported or not)."""
    folder = root if root is not None else Path(__file__).resolve().parent
    return sorted({p for suffix in EXTENSION_SUFFIXES for p in folder.rglob(f"*{suffix}")})


def describe() -> str:
    """Which engine runs, in words: "pure Python", "pure Python (CITYWATCH_ENGINE=python;
    N compiled modules left unused)" or "compiled: N modules" (those of the build, which every
    import of them uses; the same answer whatever this process has imported so far)."""
    built = built_modules()
    if fallback is not None:
        return f"pure Python ({fallback})"
    if forced_pure():
        return (f"pure Python ({VARIABLE}=python; {len(built)} compiled modules left unused)"
                if built else "pure Python")
    return f"compiled: {len(built)} modules" if built else "pure Python"


install()
