"""Write the fixed positions of the perft test (``tests/test_perft.py``), one folder per game.

Run ``.venv/bin/python tests/perft/make_positions.py [--game NAME] [--counts]`` from the
project's folder; it rewrites exactly the same files every time (everything is seeded), so this
script is where each position comes from. ``tests/perft/<game>/`` holds:

- ``start-<P>p-seed<S>[-<option><value>...].json``: a new game of P players with seed S (and
  those options), before its first decision;
- the mid-game positions, ``<what>-<P>p.json``: random games of P players (game k has seed k,
  and ``Rng(k).choice`` picks among its legal actions, for k = 1, 2, ...) played until the
  first decision that matches:
  - in Ankh-Morpork, by the frame on top of the decision stack (``state.stack[-1]``,
    ``citywatch/games/ankh_morpork/frames.py``):
    - ``interrupt-question-4p.json``: a ``protect`` frame against the removal of a minion: its
      owner is asked whether to play an interrupt (Gaspode, Fresh Start Club, Susan...,
      ``harm.py``); here Fresh Start Club against an assassination;
    - ``drumknott-chain-2p.json``: the ``play_two`` step of Drumknott's text: play another card
      of the two, or stop;
    - ``assassination-choice-3p.json``: the assassination symbol of a card with pieces to
      choose from;
    - ``random-event-next-4p.json``: the random-event symbol of a card, the event about to be
      drawn;
  - in the other games, by the words of a legal action (``str(action)``), named in ``WORDS``;
- ``counts.json``: per position, the depth it is counted to and the count per depth.

Each position is checked to read back (``from_position``) into the same position. Changing
what this script writes changes the counts: regenerate both in one, explained, commit
(``--counts`` rewrites each ``counts.json`` from the positions, at the depths of ``DEPTHS``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citywatch.core.api import State
from citywatch.core.registry import load
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import ASSASSINATE, CARDS, RANDOM_EVENT
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.perft import perft_counts

HERE = Path(__file__).resolve().parent
MAX_GAMES = 500

Options = dict[str, Any]
STARTS: dict[str, list[tuple[int, int, Options]]] = {  # game: (players, seed, options)
    "ankh-morpork": [(2, 1, {}), (3, 2, {}), (4, 3, {})],
    "guards-guards": [(2, 1, {}), (4, 2, {"spells": 1}), (6, 3, {})],
    "guardians-of-the-city": [(2, 1, {}), (3, 2, {}),
                              (4, 3, {"decks": ["lifeline", "vanguard", "heartland",
                                                "total_defence"]})],
    "black-keep": [(1, 1, {}), (2, 2, {"mode": "rivals"}), (3, 3, {"scenario": "the-vault"}),
                   (4, 4, {"scenario": "the-black-keep", "difficulty": "hard"})],
}

WORDS: dict[str, dict[str, tuple[int, Options, str]]] = {  # game: name: (players, options, words)
    "guards-guards": {
        "guild-test-question-3p": (3, {"spells": 1}, "Guild test, 6 or more"),
        "plant-saboteur-3p": (3, {"spells": 1}, "as your Saboteur in the"),
    },
    "guardians-of-the-city": {
        "reduce-a-cell-2p": (2, {}, "Reduce "),
        "take-back-3p": (3, {}, "back from your discard pile"),
    },
    "black-keep": {
        "noise-arrow-2p": (2, {"scenario": "the-vault"}, "Play Noise Arrow at"),
        "buy-guard-card-1p": (1, {}, "Buy Noise Arrow"),
    },
}

DEPTHS: dict[str, dict[str, int]] = {  # game: position: depth (``--counts``)
    "ankh-morpork": {"start-2p-seed1": 8, "start-3p-seed2": 8, "start-4p-seed3": 7,
                     "interrupt-question-4p": 8, "drumknott-chain-2p": 8,
                     "assassination-choice-3p": 8, "random-event-next-4p": 8},
    "guards-guards": {"start-2p-seed1": 6, "start-4p-seed2-spells1": 5, "start-6p-seed3": 5,
                      "guild-test-question-3p": 8, "plant-saboteur-3p": 8},
    "guardians-of-the-city": {"start-2p-seed1": 8, "start-3p-seed2": 8,
                              "start-4p-seed3-decks": 8, "reduce-a-cell-2p": 8,
                              "take-back-3p": 8},
    "black-keep": {"start-1p-seed1": 5, "start-2p-seed2-moderivals": 6,
                   "start-3p-seed3-scenariothe-vault": 7,
                   "start-4p-seed4-scenariothe-black-keep-difficultyhard": 7,
                   "noise-arrow-2p": 5, "buy-guard-card-1p": 5},
}

Frame = tuple[Any, ...]


def _symbol(kind: str) -> Callable[[Frame], bool]:
    def matches(f: Frame) -> bool:
        return f[0] == "card" and CARDS[f[2]].symbols[f[3]].kind == kind

    return matches


FRAMES: dict[str, tuple[int, Callable[[Frame], bool]]] = {  # Ankh-Morpork: (players, frame)
    "interrupt-question-4p": (4, lambda f: f[0] == "protect" and f[2][0] == "remove_minion"),
    "drumknott-chain-2p": (2, lambda f: f[0] == "fx" and f[3] == "play_two"
                           and CARDS[f[2]].name == "Drumknott"),
    "assassination-choice-3p": (3, _symbol(ASSASSINATE)),
    "random-event-next-4p": (4, _symbol(RANDOM_EVENT)),
}


def find(game: str, players: int, wanted: Callable[[State], bool],
         options: Options | None = None) -> State:
    """The first decision of the seeded random games that is ``wanted``."""
    for k in range(1, MAX_GAMES + 1):
        state = load(game).new_game(players, k, **(options or {}))
        chooser = Rng(k)
        while state.to_move is not None:
            if wanted(state):
                return state
            state.apply(chooser.choice(state.legal_actions()))
    raise LookupError(f"{game}: no such decision in {MAX_GAMES} random games")


def _top_frame(wanted: Callable[[Frame], bool]) -> Callable[[State], bool]:
    def matches(state: State) -> bool:
        assert isinstance(state, AnkhMorporkState)
        return wanted(state.stack[-1])

    return matches


def _offers(words: str) -> Callable[[State], bool]:
    return lambda state: any(words in str(a) for a in state.legal_actions())


def start_name(players: int, seed: int, options: Options) -> str:
    """``start-2p-seed1``, with each option's name and value (``decks`` by name only)."""
    shown = "".join(f"-{k}" if k == "decks" else f"-{k}{v}" for k, v in options.items())
    return f"start-{players}p-seed{seed}{shown}"


def positions(game: str) -> dict[str, dict[str, Any]]:
    """Every fixed position of ``game``, by name (without ``.json``)."""
    found = {start_name(n, seed, options): load(game).new_game(n, seed, **options)
             for n, seed, options in STARTS[game]}
    if game == "ankh-morpork":
        found.update({name: find(game, n, _top_frame(wanted))
                      for name, (n, wanted) in FRAMES.items()})
    found.update({name: find(game, n, _offers(words), options)
                  for name, (n, options, words) in WORDS.get(game, {}).items()})
    out: dict[str, dict[str, Any]] = {}
    for name, state in found.items():
        position = state.position()
        assert load(game).from_position(position).position() == position, name
        out[name] = position
    assert sorted(out) == sorted(DEPTHS[game]), f"{game}: DEPTHS names other positions"
    return out


def main(argv: list[str]) -> int:
    games = [argv[argv.index("--game") + 1]] if "--game" in argv else list(STARTS)
    for game in games:
        folder = HERE / game
        folder.mkdir(exist_ok=True)
        for name, position in positions(game).items():
            (folder / f"{name}.json").write_text(
                json.dumps(position, indent=1, sort_keys=True) + "\n")
            print(f"wrote {game}/{name}.json")
        if "--counts" in argv:
            lines = []
            for name, depth in DEPTHS[game].items():
                state = load(game).from_position(json.loads((folder / f"{name}.json").read_text()))
                entry = {"depth": depth, "counts": perft_counts(state, depth)}
                lines.append(f" {json.dumps(name + '.json')}: {json.dumps(entry)}")
            (folder / "counts.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
            print(f"wrote {game}/counts.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
