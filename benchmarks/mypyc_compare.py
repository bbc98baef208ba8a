"""Pure Python against mypyc-compiled modules, in one run: ``python benchmarks/mypyc_compare.py``.

Runs the workload of ``bench_engine`` (random games/s, decisions/s, ISMCTS iterations/s of
``DEFAULT_SEARCH``) in fresh subprocesses, alternating pure (the ``.so`` files beside the
sources ignored) and compiled, and prints each run and the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import importlib.machinery as m, json, os, sys
root = os.path.join(sys.argv[1], "citywatch")
if sys.argv[2] == "pure":
    source_only = m.FileFinder.path_hook((m.SourceFileLoader, m.SOURCE_SUFFIXES),
                                         (m.SourcelessFileLoader, m.BYTECODE_SUFFIXES))
    def hook(path):
        if os.path.abspath(path).startswith(root):
            return source_only(path)
        raise ImportError(path)
    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()
sys.path.insert(0, os.path.join(sys.argv[1], "benchmarks"))
import bench_engine as b
import citywatch
game, players, games = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
citywatch.load(game)
compiled = sorted(k for k, v in sys.modules.items() if k.startswith("citywatch")
                  and (getattr(v, "__file__", "") or "").endswith(".so"))
gps, dps, states = b.random_games(game, players, games, 1)
its, _, _ = b.ismcts_speed(game, states[len(states) // 3:], profile=False)
print(json.dumps({"compiled": len(compiled), "gps": gps, "dps": dps, "its": its}))
"""


def run(mode: str, game: str, players: int, games: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), mode, game, str(players),
                          str(games)], check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", default="ankh-morpork")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    rows: dict[str, list[dict[str, float]]] = {"pure": [], "compiled": []}
    for _ in range(args.rounds):
        for mode in ("pure", "compiled"):
            r = run(mode, args.game, args.players, args.games)
            rows[mode].append(r)
            print(mode, json.dumps({k: round(v, 1) for k, v in r.items()}), flush=True)
    med = {mode: {k: statistics.median(r[k] for r in rs) for k in ("gps", "dps", "its")}
           for mode, rs in rows.items()}
    for k in ("gps", "dps", "its"):
        print(f"{k}: pure {med['pure'][k]:.1f}  compiled {med['compiled'][k]:.1f}  "
              f"x{med['compiled'][k] / med['pure'][k]:.2f}  (medians of {args.rounds})")


if __name__ == "__main__":
    main()
