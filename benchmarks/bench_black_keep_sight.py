"""Speed of the Black Keep's line of sight (``citywatch/games/black_keep/sight.py``).

Prints, for a scenario (The Black Keep by default), the microseconds per ``seen()`` of an arc
status on a cold cache (a new ``Sight``: the viewer's lines are judged on the first facing
asked) and on a warm one, and the seconds to fill the whole table (every hex, facing and
status) from nothing. The reference (``los_reference.py``) needs about 25 ms per (hex, facing)
for the arc, about 30 s for the table.

    .venv/bin/python benchmarks/bench_black_keep_sight.py [--scenario NAME] [--repeat N]
"""

from __future__ import annotations

import argparse
import time

from citywatch.games.black_keep import scenario
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.sight import Sight
from citywatch.games.black_keep.state import ALERT, STATUSES


def cold_us(board: Board) -> float:
    """Mean microseconds of a first ``seen(hex, facing, ALERT)`` per hex, on a new Sight."""
    view = Sight(board)
    start = time.perf_counter()
    for v in range(board.size):
        view.seen(v, v % 6, ALERT)
    return (time.perf_counter() - start) / board.size * 1e6


def warm_us(board: Board, repeat: int) -> float:
    """Mean microseconds of ``seen`` over every (hex, facing, status) once all are cached."""
    view = Sight(board)
    keys = [(v, f, s) for v in range(board.size) for f in range(6) for s in range(len(STATUSES))]
    for v, f, s in keys:
        view.seen(v, f, s)
    seen = view.seen
    start = time.perf_counter()
    for _ in range(repeat):
        for v, f, s in keys:
            seen(v, f, s)
    return (time.perf_counter() - start) / (repeat * len(keys)) * 1e6


def table_seconds(board: Board) -> float:
    """Seconds to fill every (hex, facing, status) of a new Sight."""
    view = Sight(board)
    start = time.perf_counter()
    for v in range(board.size):
        for f in range(6):
            for s in range(len(STATUSES)):
                view.seen(v, f, s)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="the-black-keep")
    parser.add_argument("--repeat", type=int, default=20, help="rounds of warm calls")
    args = parser.parse_args()
    board = scenario.load(args.scenario)
    print(f"{board.name}: {board.size} floor hexes")
    print(f"seen(), cold cache: {cold_us(board):10.1f} us per call (first facing of each hex)")
    print(f"seen(), warm cache: {warm_us(board, args.repeat):10.3f} us per call")
    print(f"whole table ({board.size} x 6 x {len(STATUSES)}): {table_seconds(board):.2f} s")


if __name__ == "__main__":
    main()
