"""One measured run for callgrind: ``python benchmarks/mypyc_callgrind_child.py MODE GAME
PLAYERS WHAT N`` with MODE ``pure`` (the ``.so`` files beside the sources ignored) or
``compiled``, WHAT ``games`` (N seeded random games, seeds 1 to N) or ``ismcts`` (the default
search on N positions of 20 random games); N=0 measures the rest alone, to subtract."""
import os
import sys

if sys.argv[1] == "pure":
    os.environ["CITYWATCH_ENGINE"] = "python"  # citywatch.engine then imports the .py sources
sys.path.insert(0, "benchmarks")
import bench_engine as b  # noqa: E402

import citywatch  # noqa: E402

game, players, what, n = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
citywatch.load(game)
compiled = [k for k, v in sys.modules.items() if k.startswith("citywatch")
            and (getattr(v, "__file__", "") or "").endswith(".so")]
print(f"{len(compiled)} compiled modules loaded", file=sys.stderr)
if what == "games":
    b.random_games(game, players, n, 1)
else:
    _, _, st = b.random_games(game, players, 20, 1)
    if n:  # N positions searched (0: the random games alone, to subtract)
        b.ismcts_speed(game, st[len(st) // 3:][:n], profile=False)
