"""One bot decision from a position: what a web server's worker process runs.

Everything crosses the process boundary as JSON-ready values (the position, the seed), so a
decision depends only on them: the same table, step and bot give the same action anywhere.
"""

from __future__ import annotations

from typing import Any

from citywatch.bots import BOTS, make_bot, parse_spec
from citywatch.bots.base import Observation
from citywatch.core.api import State
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
    return decide_in(load(game_name).from_position(position), seat, spec, seed, step)


def decide_in(state: State, seat: int, spec: str, seed: Seed, step: int) -> Any:
    """``decide`` on a state (which the bot sees only through ``seat``'s observation)."""
    if state.to_move != seat:
        raise ValueError(f"seat {seat} is not to decide in this position")
    legal = state.legal_actions()
    bot = make_bot(spec, state.game.name)
    action = bot.choose(Observation(state, seat), legal, bot_rng(seed, step))
    if action not in legal:
        raise ValueError(f"bot {spec!r} chose an action that is not legal")
    return action.to_json()


def is_instant(spec: str) -> bool:
    """True if bot ``spec`` decides in constant time (it does not think: ``random``)."""
    try:
        name, _options = parse_spec(spec)
    except ValueError:
        return False
    return bool(getattr(BOTS.get(name), "INSTANT", False))
