"""Write the golden playthroughs of ``tests/test_golden.py``: ``tests/golden/<game>.json``.

Run ``.venv/bin/python tests/golden/make_golden.py [--game NAME]`` from the project's folder; it
rewrites exactly the same files every time (everything is seeded). As OpenSpiel's playthroughs
do, each file records seeded games of one game through the core API only: ``PLAYTHROUGHS``
names, per game, the players, seed and options of each; at each decision, ``Rng(seed).below``
picks the index of the action taken among the legal actions.

Per decision (``observe``): the step (from 0), the seat to move, the legal actions (``str()``
and JSON in full for the first ``FULL_LEGAL`` decisions, then the sha256 of that list), the
index taken, and the sha256 of each seat's ``view(seat)`` and of the spectator's ``view(None)``
(``digest``: the first 16 hex digits of the sha256 of the canonical JSON). The first playthrough
of each game also has its views at the start in full; at the end, the views' digests and
``outcome().to_json()``.

A rules change that alters any of these shows up in the test, naming the game, playthrough and
step; if the change was meant, run this script and say why in the commit (the diff of the JSON
files shows which decisions moved).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from citywatch.core.api import State
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

HERE = Path(__file__).resolve().parent
FULL_LEGAL = 25
"""Decisions (from the first) whose legal actions are written out in full."""

Options = dict[str, Any]
PLAYTHROUGHS: dict[str, list[tuple[int, int, Options]]] = {  # game: (players, seed, options)
    "ankh-morpork": [(2, 1, {}), (4, 3, {})],
    "guards-guards": [(2, 1, {"spells": 1, "rounds": 10}), (3, 2, {"spells": 1, "rounds": 12})],
    "guardians-of-the-city": [(2, 1, {}),
                              (3, 2, {"decks": ["lifeline", "vanguard", "total_defence"]})],
    # seeds chosen among the first 40 for long games: dawn comes (tutorial), rivals
    "black-keep": [(1, 25, {}), (2, 4, {"mode": "rivals", "scenario": "the-vault"}),
                   (2, 22, {"scenario": "the-black-keep", "difficulty": "hard"})],
}


def digest(data: Any) -> str:
    """The first 16 hex digits of the sha256 of ``data``'s canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def views(state: State) -> dict[str, Any]:
    """Each seat's view (by seat number, from ``"0"``) and the spectator's."""
    out: dict[str, Any] = {str(seat): state.view(seat) for seat in range(state.players)}
    out["spectator"] = state.view(None)
    return out


def legal(state: State) -> list[list[Any]]:
    """The legal actions as ``[str(action), action.to_json()]`` pairs."""
    return [[str(action), action.to_json()] for action in state.legal_actions()]


def observe(state: State, step: int, taken: int | None) -> dict[str, Any]:
    """What the golden file records of the decision at ``step`` (``taken``: the index played;
    ``None`` at the end, where the outcome is recorded instead)."""
    seen: dict[str, Any] = {"step": step, "to_move": state.to_move}
    if taken is None:
        outcome = state.outcome()
        seen["outcome"] = None if outcome is None else outcome.to_json()
    elif step < FULL_LEGAL:
        seen["legal"] = legal(state)
    else:
        seen["legal_sha256"] = digest(legal(state))
    if taken is not None:
        seen["taken"] = taken
    seen["views_sha256"] = {seat: digest(view) for seat, view in views(state).items()}
    return seen


def play(game: str, players: int, seed: int, options: Options) -> dict[str, Any]:
    """One seeded playthrough of ``game``, to the end."""
    state = load(game).new_game(players, seed, **options)
    chooser = Rng(seed)
    record: dict[str, Any] = {"players": players, "seed": seed, "options": options,
                              "start_views": views(state), "decisions": []}
    while state.to_move is not None:
        actions = state.legal_actions()
        taken = chooser.below(len(actions))
        record["decisions"].append(observe(state, len(record["decisions"]), taken))
        state.apply(actions[taken])
    record["end"] = observe(state, len(record["decisions"]), None)
    return record


def write(game: str) -> Path:
    """Play ``game``'s playthroughs and write its golden file (one line per decision)."""
    parts = []
    for number, (players, seed, options) in enumerate(PLAYTHROUGHS[game]):
        record = play(game, players, seed, options)
        lines = [f"  {json.dumps({k: record[k] for k in ('players', 'seed', 'options')})[:-1]},"]
        if number == 0:
            lines += ['  "start_views": {', ",\n".join(
                f"   {json.dumps(seat)}: {json.dumps(view, sort_keys=True)}"
                for seat, view in record["start_views"].items()), "  },"]
        steps = ",\n".join(f"   {json.dumps(d)}" for d in record["decisions"])
        lines += ['  "decisions": [', steps, f'  ], "end": {json.dumps(record["end"])}}}']
        parts.append("\n".join(lines))
    path = HERE / f"{game}.json"
    path.write_text(f'{{"game": {json.dumps(game)}, "playthroughs": [\n'
                    + ",\n".join(parts) + "\n]}\n")
    return path


def main(argv: list[str]) -> int:
    games = [argv[argv.index("--game") + 1]] if "--game" in argv else game_names()
    for game in games:
        if game not in PLAYTHROUGHS:
            print(f"{game}: no playthrough named in PLAYTHROUGHS", file=sys.stderr)
            return 2
        path = write(game)
        print(f"wrote {path.name} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
