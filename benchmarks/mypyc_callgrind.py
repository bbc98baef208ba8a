"""Callgrind instruction counts, pure Python against the mypyc-compiled modules, per game:
``python benchmarks/mypyc_callgrind.py [--n N] [--what games|ismcts] [--baseline DIR] [GAME...]``
(build first with ``python scripts/build_engine.py``). Each count is N seeded random games (or
N positions searched) minus the same process with 0 (imports and set-up subtracted);
deterministic, so one run per cell."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = ROOT / "benchmarks" / "mypyc_callgrind_child.py"
PLAYERS = {"ankh-morpork": 4, "guards-guards": 4, "guardians-of-the-city": 2, "black-keep": 2}
"""The seats of ``targets.json``."""


def instructions(mode: str, game: str, players: int, what: str, n: int,
                 tree: Path = ROOT) -> int:
    """Instructions callgrind counts for one child run, in the checkout ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg",
                              sys.executable, str(CHILD), mode, game, str(players), what, str(n)],
                             cwd=tree, check=True, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(tree)}).stderr
    found = re.search(r"Collected : (\d+)", out)
    assert found is not None, out[-2000:]
    loaded = re.search(r"(\d+) compiled modules loaded", out)
    assert loaded is not None and (mode == "pure") == (loaded.group(1) == "0"), out[-2000:]
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--n", type=int, default=20, help="random games per run")
    parser.add_argument("--what", choices=("games", "ismcts"), default="games",
                        help="random games, or ISMCTS on positions of 20 random games")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="a checkout of an older engine (e.g. `git worktree add --detach "
                             "DIR a7e4c8c`), measured in pure Python beside this one")
    args = parser.parse_args()
    if args.n < 1 or (args.baseline is not None and not (args.baseline / "citywatch").is_dir()):
        parser.error("--n must be positive and --baseline a checkout of citywatch")
    runs = {"pure": ("pure", ROOT), "compiled": ("compiled", ROOT)}
    if args.baseline is not None:
        runs = {"baseline": ("pure", args.baseline.resolve()), **runs}
    for game in args.games:
        players = PLAYERS[game]
        cost = {}
        for label, (mode, tree) in runs.items():
            cost[label] = (instructions(mode, game, players, args.what, args.n, tree)
                           - instructions(mode, game, players, args.what, 0, tree))
        first = cost.get("baseline", cost["pure"])
        print(f"{game} ({players}p, {args.what}, n={args.n}): " + ", ".join(
            f"{label} {value / 1e6:.0f}M (x{first / value:.2f})" for label, value in cost.items()),
            flush=True)


if __name__ == "__main__":
    main()
