"""One bot decision from a position: what a web server's worker process runs.

Everything crosses the process boundary as JSON-ready values (the position, the seed), so a
decision depends only on them: the same table, step and bot give the same action anywhere.
"""

from __future__ import annotations

from typing import Any

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.core.registry import load
from citywatch.core.rng import Rng, Seed, rng_from_seed


def bot_rng(seed: Seed, step: int) -> Rng:
    """The generator a bot uses for the decision after ``step`` actions of a game seeded
    ``seed``: secret if the seed is, and independent of the game's own numbers."""
    return rng_from_seed(seed).derive(step)


def decide(game_name: str, position: dict[str, Any], seat: int, spec: str, seed: Seed,
           step: int) -> Any:
    """The JSON of the action bot ``spec`` takes for ``seat`` in ``position``.

    ``ValueError`` if the position is not ``seat``'s decision or the bot breaks the rules.
    """
    game = load(game_name)
    state = game.from_position(position)
    if state.to_move != seat:
        raise ValueError(f"seat {seat} is not to decide in this position")
    legal = state.legal_actions()
    bot = make_bot(spec, game_name)
    action = bot.choose(Observation(state, seat), legal, bot_rng(seed, step))
    if action not in legal:
        raise ValueError(f"bot {spec!r} chose an action that is not legal")
    return action.to_json()
