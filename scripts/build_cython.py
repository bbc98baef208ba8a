"""Compile the forward-model modules with Cython 3 in pure-Python mode, in place (issue 32).

    python scripts/build_cython.py [--game ankh_morpork] [--core] [--bots] [--annotation-typing]
    python scripts/build_cython.py --clean     # remove every .so/.c: back to pure Python

The .py files stay the one source: each ``x.py`` gets an ``x.cpython-*.so`` beside it, which
Python imports in its place. Generated .c files go to build/cython/, never into the package.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "citywatch"

CORE = ["api", "errors", "log", "rng", "stack", "verbs", "position", "text", "signature", "record"]
"""The core modules a game's forward model calls."""

NOT_RULES = {"__init__", "terminal", "make_web", "make_names", "screens", "encoding",
             "fit_evaluation"}
"""Presentation and tooling, left in pure Python."""


def rules_modules(game: str) -> list[Path]:
    return sorted(p for p in (PKG / "games" / game).glob("*.py") if p.stem not in NOT_RULES)


def clean() -> None:
    for p in list(PKG.rglob("*.so")) + list(PKG.rglob("*.c")):
        p.unlink()
        print("removed", p.relative_to(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append", default=[], help="games/<name> rules modules")
    ap.add_argument("--core", action="store_true", help="the core modules in CORE")
    ap.add_argument("--bots", action="store_true", help="bots/ismcts.py too")
    ap.add_argument("--only", nargs="*", default=[], help="these .py paths only")
    ap.add_argument("--annotation-typing", action="store_true",
                    help="let Cython enforce annotated types (off by default)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--clean", action="store_true")
    ap.add_argument("--force", action="store_true", help="regenerate the C even if up to date")
    a = ap.parse_args()
    if a.clean:
        clean()
        return
    files = [ROOT / p for p in a.only]
    for game in a.game:
        files += rules_modules(game)
    if a.core:
        files += [PKG / "core" / f"{m}.py" for m in CORE]
    if a.bots:
        files += [PKG / "bots" / "ismcts.py"]
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    exts = [Extension(".".join(p.relative_to(ROOT).with_suffix("").parts),
                      [str(p.relative_to(ROOT))]) for p in files]
    start = time.perf_counter()
    modules = cythonize(
        exts, build_dir=str(ROOT / "build" / "cython"), nthreads=a.jobs, quiet=True, force=a.force,
        compiler_directives={"language_level": 3, "binding": False, "profile": False,
                             "linetrace": False, "annotation_typing": a.annotation_typing,
                             "embedsignature": False})
    dist = Distribution({"ext_modules": modules})
    cmd = build_ext(dist)
    cmd.inplace = True
    cmd.build_temp = str(ROOT / "build" / "cython-tmp")
    cmd.parallel = a.jobs
    import os
    os.chdir(ROOT)
    cmd.ensure_finalized()
    cmd.run()
    print(f"built {len(modules)} modules in {time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
