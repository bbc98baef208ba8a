"""Build citywatch's compiled engine with mypyc, in place, or leave pure Python (issue 32).

``python scripts/build_engine.py`` compiles the rules modules of every game and the core
modules they call (``MODULES``) into extension files beside their ``.py`` sources, and writes
``citywatch/engine-build.json``: each compiled module's source hash, which
``citywatch.engine`` checks at import (a changed source runs pure Python until rebuilt).

- Nothing to do when the manifest matches the sources: it prints "up to date".
- No C compiler, no Python headers or no mypyc: it says so and leaves pure Python (exit 0).
- A failed build removes what it wrote and leaves pure Python; ``--strict`` makes that exit 1
  (``make test`` uses it where a compiler is present).
- ``--clean`` removes the compiled modules and the manifest.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from citywatch import engine  # noqa: E402

AM = "citywatch/games/ankh_morpork/"
GG = "citywatch/games/guards_guards/"
GC = "citywatch/games/guardians_of_the_city/"
BK = "citywatch/games/black_keep/"
MODULES: tuple[str, ...] = (
    "citywatch/core/stack.py", "citywatch/core/rng.py", "citywatch/core/log.py",
    "citywatch/core/built.py",
    "citywatch/bots/ismcts.py",
    *(AM + name + ".py" for name in (
        "kinds", "data", "actions", "state", "harm", "events", "effects", "rules", "scoring",
        "position", "view", "evaluate", "heuristic", "frames")),
    *(GG + name + ".py" for name in (
        "kinds", "data", "actions", "state", "frames", "board", "places", "abilities",
        "combat", "dragons", "fate", "harm", "luggage", "magic", "recruit", "rules", "setup",
        "spells", "turn", "position", "evaluate", "heuristic")),
    *(GC + name + ".py" for name in (
        "kinds", "data", "actions", "state", "frames", "decks", "effects", "scoring", "turn",
        "position", "evaluate", "heuristic")),
    *(BK + name + ".py" for name in (
        "kinds", "data", "actions", "state", "hexes", "params", "guards", "harm",
        "intentions", "referee", "round", "scenario", "scoring", "setup", "sight",
        "position", "evaluate", "heuristic", "board")),
)
"""The compiled modules, as paths from the repository root; every other module stays Python."""
LOG = Path("build") / "engine-build.log"
"""The compilers' output, kept from the last build (``build/`` is not committed)."""


def missing_tools() -> str | None:
    """Why nothing can be compiled here (no C compiler, headers or mypyc), or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    for package, name in (("mypyc.build", "mypyc (it comes with mypy)"),
                          ("setuptools", "setuptools")):
        try:
            importlib.import_module(package)
        except ImportError:
            return f"no {name}"
    return None


def clean() -> None:
    """Remove every compiled module and the manifest."""
    for path in engine.built_modules(ROOT / "citywatch"):
        path.unlink()
    library = engine.group_library(ROOT)
    if library is not None:
        library.unlink()
    (ROOT / engine.MANIFEST).unlink(missing_ok=True)


def build(jobs: int) -> None:
    """Compile ``MODULES`` in place with mypyc (C files in a temporary folder, compiled by
    ``jobs`` parallel compilers), then write the manifest."""
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory(prefix="citywatch-build-") as work:
        code = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            f"modules = mypycify({list(MODULES)!r}, opt_level='3', multi_file=True,\n"
            f"                   group_name={engine.GROUP!r})\n"
            "setup(name='citywatch-engine', ext_modules=modules, script_args=[\n"
            f"    'build_ext', '--inplace', '--parallel', '{jobs}',\n"
            f"    '--build-temp', {work + '/temp'!r}, '--build-lib', {work + '/lib'!r}])\n")
        env = {**os.environ, "PYTHONPATH": str(ROOT), engine.VARIABLE: "python"}
        log = ROOT / LOG
        log.parent.mkdir(exist_ok=True)
        with log.open("w") as out:
            done = subprocess.run([sys.executable, "-c", code], env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed (exit {done.returncode}); its output: {LOG}")
    engine.write_manifest([ROOT / module for module in MODULES], ROOT)


def main(argv: list[str] | None = None) -> int:
    """Build, report and fall back as the module's docstring says."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 if a compiler is present but the build fails")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel C compilers (default: the machine's cores)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.jobs > 64:
        parser.error("--jobs must be 1 to 64")
    if args.clean:
        clean()
        print("engine: compiled modules removed; citywatch runs in pure Python")
        return 0
    sources = [ROOT / module for module in MODULES]
    if engine.stale_modules(sources, ROOT) == [] and all(
            engine.extension_of(source) is not None for source in sources):
        print(f"engine: compiled, up to date ({len(MODULES)} modules)")
        return 0
    why = missing_tools()
    if why is not None:
        clean()
        print(f"engine: {why}: citywatch runs in pure Python")
        return 0
    clean()
    print(f"engine: compiling {len(MODULES)} modules with mypyc ({args.jobs} jobs; a few "
          "minutes, once)...", flush=True)
    started = time.monotonic()
    try:
        build(args.jobs)
    except (RuntimeError, OSError) as failure:
        clean()
        print(f"engine: the build failed; citywatch runs in pure Python\n{failure}",
              file=sys.stderr)
        return 1 if args.strict else 0
    print(f"engine: compiled {len(MODULES)} modules in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
