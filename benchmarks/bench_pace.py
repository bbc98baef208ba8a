"""The bots' pace at a table (issue 26): seconds of pause per round, before and after.

Plays ``--games`` games of each game (or only ``--game NAME``) at a table of one person and
bots of ``--level`` (default normal), four seats where the game allows (three bots), with the
server's own bot call (``citywatch.bots.decide.decide_in``); the person's seat is played by
the same bot, as a stand-in. Each decision's seat and the game's turn are recorded. A round
is the stretch between two decisions of the person (seat 0). For each round the pauses are
counted, not slept, under two paces:

- before: the old server's, ``bot_delay`` (0.6 s) before every decision of a bot;
- after: ``citywatch.server.pace.BotPace`` with the server's defaults (a pause before a bot's
  turn only, when the seat to decide changes; the pauses of a round at most 3 s).

Printed per game: the rounds, the bots' decisions per round, and the seconds of pause per
round (mean, median, 90th percentile, most) before and after; beside them the bots' thinking
per round as measured here (mean and most seconds; on a busy machine it is slower), which
the pause does not include. ``--json`` prints the numbers as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from citywatch.bots.decide import decide_in
from citywatch.core.registry import game_names, load
from citywatch.server.pace import ROUND, TURN, BotPace

OLD_DELAY = 0.6
"""The old server's ``bot_delay``: seconds before every bot decision."""
PERSON = 0
"""The seat played as the person's."""


@dataclass
class Round:
    """The bots' part of one round: the game's turn after the person's decision that began
    it, each bot decision's (seat, turn), and the bots' thinking."""

    began: int
    decisions: list[tuple[int, int]] = field(default_factory=list)
    thinking: float = 0.0


def play(game_name: str, players: int, level: str, seed: int, max_rounds: int) -> list[Round]:
    """One game's rounds: each begins at a decision of the person and ends at its next (the
    bots' decisions before the person's first one, and a round with none, left out)."""
    game = load(game_name)
    spec = game.level_spec(level)
    state = game.new_game(players, seed)
    rounds: list[Round] = []
    current: Round | None = None
    step = 0
    while state.to_move is not None and len(rounds) < max_rounds:
        seat = state.to_move
        turn = state.turn_count()
        started = time.perf_counter()
        action = game.action_from_json(decide_in(state, seat, spec, seed, step))
        thought = time.perf_counter() - started
        state.apply(action)
        step += 1
        if seat == PERSON:
            if current is not None and current.decisions:
                rounds.append(current)
            current = Round(state.turn_count())
        elif current is not None:
            current.decisions.append((seat, turn))
            current.thinking += thought
    return rounds


def pauses(rounds: list[Round], players: int) -> tuple[list[float], list[float]]:
    """Seconds of pause per round: the old pace's and ``BotPace``'s (as the server pays
    them: the person's decision begins a round, a pause only when the seat changes)."""
    before = [OLD_DELAY * len(r.decisions) for r in rounds]
    after = []
    pace = BotPace(TURN, ROUND, players)
    for r in rounds:
        pace.person_decided(r.began)
        last = PERSON
        total = 0.0
        for seat, turn in r.decisions:
            total += pace.pause(seat, last, turn)
            last = seat
        after.append(total)
    return before, after


def summary(values: list[float]) -> dict[str, float]:
    """Mean, median, 90th percentile and most of ``values``, rounded."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"mean": round(statistics.fmean(ordered), 2),
            "median": round(statistics.median(ordered), 2),
            "p90": round(p90, 2), "max": round(ordered[-1], 2)}


def measure(game_name: str, games: int, level: str, max_rounds: int) -> dict[str, Any]:
    """The pace numbers of ``games`` games of ``game_name``."""
    players = min(4, load(game_name).max_players)
    rounds: list[Round] = []
    for k in range(games):
        rounds += play(game_name, players, level, 1000 + k, max_rounds)
    before, after = pauses(rounds, players) if rounds else ([0.0], [0.0])
    return {
        "game": game_name, "players": players, "bots": players - 1, "level": level,
        "games": games, "rounds": len(rounds),
        "bot_decisions_per_round": summary([float(len(r.decisions)) for r in rounds] or [0.0]),
        "pause_before_s": summary(before), "pause_after_s": summary(after),
        "thinking_s": summary([r.thinking for r in rounds] or [0.0]),
        "paces": {"before": f"{OLD_DELAY:g} s before every bot decision",
                  "after": f"{TURN:g} s before a bot's turn, at most {ROUND:g} s a round"},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), help="one game (default: all)")
    parser.add_argument("--games", type=int, default=2, help="games per game (default 2)")
    parser.add_argument("--level", default="normal", help="the bots' level (default normal)")
    parser.add_argument("--max-rounds", type=int, default=40,
                        help="the most rounds counted per game (default 40)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    results = [measure(name, args.games, args.level, args.max_rounds)
               for name in ([args.game] if args.game else game_names())]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"Seconds of pause per round (between two of the person's decisions), "
          f"{args.level} bots; before: {OLD_DELAY:g} s per bot decision; after: {TURN:g} s "
          f"per bot turn, at most {ROUND:g} s a round. Thinking is not included in either.")
    head = (f"{'game':<22}{'bots':>5}{'rounds':>7}{'decisions':>10}  "
            f"{'before mean/med/p90/max':>26}  {'after mean/med/p90/max':>24}  "
            f"{'thinking mean/max':>18}")
    print(head)
    for r in results:
        b, a, t = r["pause_before_s"], r["pause_after_s"], r["thinking_s"]
        print(f"{r['game']:<22}{r['bots']:>5}{r['rounds']:>7}"
              f"{r['bot_decisions_per_round']['mean']:>10}  "
              f"{b['mean']:>6}/{b['median']:>5}/{b['p90']:>5}/{b['max']:>6}  "
              f"{a['mean']:>6}/{a['median']:>5}/{a['p90']:>4}/{a['max']:>5}  "
              f"{t['mean']:>8}/{t['max']:>8}")


if __name__ == "__main__":
    main()
