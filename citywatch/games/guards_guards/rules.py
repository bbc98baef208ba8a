"""Imports every rule module, so that importing this registers all frame handlers, ops,
verbs and turn hooks (``docs/guards-guards-engine.md``)."""

from citywatch.games.guards_guards import (  # noqa: F401
    abilities,
    combat,
    dragons,
    fate,
    harm,
    luggage,
    magic,
    position,
    recruit,
    setup,
    spells,
    turn,
    view,
)
