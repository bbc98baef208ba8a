"""Callgrind instruction counts, pure Python against the mypyc-compiled modules, per game:
``python benchmarks/mypyc_callgrind.py [--games N] [GAME...]`` (build first with
``python scripts/build_engine.py``). Each count is N seeded random games minus the same process
with 0 games (imports and set-up subtracted); deterministic, so one run per cell."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = ROOT / "benchmarks" / "mypyc_callgrind_child.py"
PLAYERS = {"ankh-morpork": 4, "guards-guards": 4, "guardians-of-the-city": 2, "black-keep": 2}
"""The seats of ``targets.json``."""


def instructions(mode: str, game: str, players: int, what: str, n: int) -> int:
    """Instructions callgrind counts for one child run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg",
                              sys.executable, str(CHILD), mode, game, str(players), what, str(n)],
                             cwd=ROOT, check=True, capture_output=True, text=True).stderr
    found = re.search(r"Collected : (\d+)", out)
    assert found is not None, out[-2000:]
    loaded = re.search(r"(\d+) compiled modules loaded", out)
    assert loaded is not None and (mode == "pure") == (loaded.group(1) == "0"), out[-2000:]
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--n", type=int, default=20, help="random games per run")
    args = parser.parse_args()
    for game in args.games:
        players = PLAYERS[game]
        cost = {}
        for mode in ("pure", "compiled"):
            cost[mode] = (instructions(mode, game, players, "games", args.n)
                          - instructions(mode, game, players, "games", 0))
        print(f"{game} ({players}p, {args.n} games, seeds 1-{args.n}): "
              f"pure {cost['pure'] / 1e6:.0f}M, compiled {cost['compiled'] / 1e6:.0f}M "
              f"instructions: x{cost['pure'] / cost['compiled']:.2f}", flush=True)


if __name__ == "__main__":
    main()
