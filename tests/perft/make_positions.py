"""Write the fixed Ankh-Morpork positions of the perft test (``tests/test_perft.py``).

Run ``.venv/bin/python tests/perft/make_positions.py`` from the project's folder; it rewrites
exactly the same files every time (everything is seeded), so this script is where each
position comes from:

- ``start-<P>p-seed<S>.json``: a new game of P players with seed S, before its first decision.
- the mid-game positions, ``<what>-<P>p.json``: random games of P players (game k has seed k,
  and ``Rng(k).choice`` picks among its legal actions, for k = 1, 2, ...) played until the
  first decision that matches, looking at the frame on top of the decision stack
  (``state.stack[-1]``, ``citywatch/games/ankh_morpork/frames.py``):
  - ``interrupt-question-4p.json``: a ``protect`` frame against the removal of a minion: its
    owner is asked whether to play an interrupt (Gaspode, Fresh Start Club, Susan...,
    ``harm.py``); here Fresh Start Club against an assassination;
  - ``drumknott-chain-2p.json``: the ``play_two`` step of Drumknott's text: play another card of
    the two, or stop;
  - ``assassination-choice-3p.json``: the assassination symbol of a card with pieces to choose from;
  - ``random-event-next-4p.json``: the random-event symbol of a card, the event about to be drawn.

Each position is checked to read back (``from_position``) into the same position. Changing
what this script writes changes ``counts.json``: regenerate both in one, explained, commit
(``--counts`` rewrites ``counts.json`` from the positions, at the depths it already has).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import ASSASSINATE, CARDS, RANDOM_EVENT
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.perft import perft_counts

HERE = Path(__file__).resolve().parent
GAME = "ankh-morpork"
STARTS = [(2, 1), (3, 2), (4, 3)]  # (players, seed)
MAX_GAMES = 500

Frame = tuple[Any, ...]


def _symbol(kind: str) -> Callable[[Frame], bool]:
    def matches(f: Frame) -> bool:
        return f[0] == "card" and CARDS[f[2]].symbols[f[3]].kind == kind

    return matches


MIDGAME: dict[str, tuple[int, Callable[[Frame], bool]]] = {  # name: (players, wanted frame)
    "interrupt-question-4p": (4, lambda f: f[0] == "protect" and f[2][0] == "remove_minion"),
    "drumknott-chain-2p": (2, lambda f: f[0] == "fx" and f[3] == "play_two"
                           and CARDS[f[2]].name == "Drumknott"),
    "assassination-choice-3p": (3, _symbol(ASSASSINATE)),
    "random-event-next-4p": (4, _symbol(RANDOM_EVENT)),
}


def find(players: int, wanted: Callable[[Frame], bool]) -> AnkhMorporkState:
    """The first decision of the seeded random games whose top frame is ``wanted``."""
    game = load(GAME)
    for k in range(1, MAX_GAMES + 1):
        state = game.new_game(players, k)
        assert isinstance(state, AnkhMorporkState)
        chooser = Rng(k)
        while state.to_move is not None:
            if wanted(state.stack[-1]):
                return state
            state.apply(chooser.choice(state.legal_actions()))
    raise LookupError(f"no such decision in {MAX_GAMES} random games")


def positions() -> dict[str, dict[str, Any]]:
    """Every fixed position, by file name."""
    game = load(GAME)
    found = {f"start-{n}p-seed{seed}.json": game.new_game(n, seed) for n, seed in STARTS}
    found.update({f"{name}.json": find(*how) for name, how in MIDGAME.items()})
    out: dict[str, dict[str, Any]] = {}
    for name, state in found.items():
        position = state.position()
        assert game.from_position(position).position() == position, name
        out[name] = position
    return out


def main(argv: list[str]) -> int:
    for name, position in positions().items():
        (HERE / name).write_text(json.dumps(position, indent=1, sort_keys=True) + "\n")
        print(f"wrote {name}")
    if "--counts" in argv:
        path = HERE / "counts.json"
        counts = json.loads(path.read_text())
        game = load(GAME)
        for name, entry in counts.items():
            state = game.from_position(json.loads((HERE / name).read_text()))
            entry["counts"] = perft_counts(state, entry["depth"])
        lines = [f" {json.dumps(name)}: {json.dumps(entry)}" for name, entry in counts.items()]
        path.write_text("{\n" + ",\n".join(lines) + "\n}\n")
        print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
