"""The coach's speed (issue 30): a hint at normal strength, and a whole game analysed.

Targets (``targets.json``, "coach"): every hint at normal strength within 2 s, the hard level's
pick included; a whole Ankh-Morpork game (4 players, the heuristic in every seat) analysed at
the analysis page's strength (normal) within 60 s. Hints are timed at decisions with a choice
spread over seeded games of each game, with the normal level in every seat (the heuristic for
Ankh-Morpork, whose normal level is a search and would only slow the benchmark).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.coach import analyse, hint
from citywatch.core.record import Record
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

TARGETS = json.loads((Path(__file__).parent / "targets.json").read_text())["coach"]
PLAYERS = {"ankh-morpork": 4, "guards-guards": 4, "guardians-of-the-city": 2, "black-keep": 2}
BOT = {"ankh-morpork": "heuristic"}


def played(game_name: str, seed: int) -> tuple[list[object], list[tuple[object, int]]]:
    """A seeded game's actions (JSON) and its states with a choice (and their movers)."""
    game = load(game_name)
    state = game.new_game(PLAYERS.get(game_name, game.min_players), seed)
    bot = make_bot(BOT.get(game_name, "normal"), game_name)
    rng = Rng(seed)
    actions: list[object] = []
    choices: list[tuple[object, int]] = []
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        if len(legal) > 1:
            choices.append((state.copy(), seat))
        action = bot.choose(Observation(state, seat), legal, rng)
        actions.append(action.to_json())
        state.apply(action)
    return actions, choices


def main() -> None:
    """Time hints in every game and analyses of Ankh-Morpork games; print and check targets."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=12, help="hints timed per game (12)")
    parser.add_argument("--analyses", type=int, default=2, help="games analysed (2)")
    args = parser.parse_args()
    failed = False
    for name in game_names():
        _, choices = played(name, 1)
        picked = choices[:: max(1, len(choices) // args.hints)][: args.hints]
        seconds = []
        for k, (state, seat) in enumerate(picked):
            started = time.perf_counter()
            hint(state, seat, Rng(k), "normal")  # type: ignore[arg-type]
            seconds.append(time.perf_counter() - started)
        worst = max(seconds)
        ok = worst <= TARGETS["hint_seconds"]
        failed |= not ok
        print(f"{name}: hint at normal strength, {len(seconds)} decisions: median "
              f"{statistics.median(seconds):.2f} s, slowest {worst:.2f} s "
              f"(target {TARGETS['hint_seconds']} s) {'ok' if ok else 'MISSED'}")
    for seed in range(1, args.analyses + 1):
        actions, _ = played("ankh-morpork", seed)
        record = Record("ankh-morpork", PLAYERS["ankh-morpork"], seed, {}, actions)
        started = time.perf_counter()
        analysis = analyse(record, "normal")
        took = time.perf_counter() - started
        ok = took <= TARGETS["analysis_seconds"]
        failed |= not ok
        print(f"ankh-morpork: game {seed} ({len(actions)} decisions, "
              f"{len(analysis.turning)} turning points) analysed in {took:.1f} s "
              f"(target {TARGETS['analysis_seconds']} s) {'ok' if ok else 'MISSED'}")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
