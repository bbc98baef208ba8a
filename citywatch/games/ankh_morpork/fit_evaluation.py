"""Fit the weights of ``evaluate.py`` to who won games between heuristic bots.

Plays ``--games`` four-player games of ``heuristic`` bots (seeds from ``--seed`` on), records
every seat's ``evaluate.features`` every eighth decision, and fits a softmax over the seats
(conditional logit, a little L2) to the winner of each game. The result, with the held-out
log-loss beside that of equal shares, goes to ``data/evaluation.json``. The playing, scoring
and fitting are ``citywatch.bots.fitting``'s. Deterministic for the same arguments; run it
again after changing the features or the heuristic, and commit its output::

    python -m citywatch.games.ankh_morpork.fit_evaluation
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citywatch.bots.fitting import Sample, play_and_record, run
from citywatch.bots.fitting import log_loss as log_loss
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.evaluate import FEATURES, WEIGHTS_JSON, features
from citywatch.games.ankh_morpork.game import GAME
from citywatch.games.ankh_morpork.heuristic import HeuristicBot

EVERY = 8
"""Record the features every this many decisions."""
PLAYERS = 4
"""The games fitted on are for this many players."""


def play(seed: int, players: int = PLAYERS) -> list[Sample]:
    """One game between heuristic bots: its samples (none if nobody or several won)."""
    return play_and_record(GAME.new_game(players, seed), HeuristicBot(), Rng(seed), features,
                           EVERY)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Play, fit, write ``--out``; return what was written."""
    return run(argv, description=__doc__.splitlines()[0], play=play, features=FEATURES,
               out=WEIGHTS_JSON, players=PLAYERS, games=240, held_out=60, seed=7000,
               about="Weights of evaluate.FEATURES, fitted by fit_evaluation.py to the winners "
                     "of four-player heuristic games; log-losses per sample, lower is better.")


if __name__ == "__main__":
    main()
