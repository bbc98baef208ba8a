"""Pure Python against the compiled .so files, interleaved, medians (issue 32, Cython route).

    python benchmarks/cython_compare.py [--runs 5] [--game ankh-morpork] [--games 100] [...]

Runs ``cython_playouts.py`` alternately through ``scripts/pure_python.py`` (the .py sources) and
plainly (the .so files where built), and prints each figure's median and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(pure: bool, extra: list[str]) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT}:{ROOT / 'scripts'}")
    prefix = ["-m", "pure_python"] if pure else []
    out = subprocess.run([sys.executable, *prefix, str(ROOT / "benchmarks" / "cython_playouts.py"),
                          *extra], env=env, capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    a, extra = ap.parse_known_args()
    rows: dict[bool, list[dict[str, object]]] = {True: [], False: []}
    for _ in range(a.runs):
        for pure in (True, False):
            rows[pure].append(run(pure, extra))
    keys = ["games_per_second", "decisions_per_second", "ismcts_iterations_per_second"]
    for key in keys:
        if key not in rows[True][0]:
            continue
        p = statistics.median(float(r[key]) for r in rows[True])  # type: ignore[arg-type]
        c = statistics.median(float(r[key]) for r in rows[False])  # type: ignore[arg-type]
        print(f"{key:<30} pure {p:10.1f}  compiled {c:10.1f}  x{c / p:.2f}  (median of {a.runs})")
    for key in ("digest", "ismcts_digest"):
        seen = {str(r.get(key)) for r in rows[True] + rows[False]}
        print(f"{key:<30} {'identical' if len(seen) == 1 else 'DIFFERENT'}: {sorted(seen)}")
    print(f"compiled modules loaded: {rows[False][0]['compiled']}")


if __name__ == "__main__":
    main()
