"""Every numeric rule of the Black Keep in one object, so designers can tune them (spec
sections 0 and 14). The defaults are the spec's; a scenario's ``dawn`` overrides ``dawn``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Parameters:
    """The tunable numbers of the rules (defaults from the spec; section in brackets)."""

    hearing_range: int = 4  # steps along open sides a guard hears a noise from (4.5)
    torch_reach: int = 2  # steps a burning torch lights (2.8)
    bored_reach: int = 2  # hexes a Bored guard sees down its row (3.6)
    wounds: int = 3  # a thief's wound counters (6.1)
    thief_coins: int = 4  # Gold Coins a thief starts with (6.1)
    guard_coins: int = 2  # Gold Coins each living guard carries (4.11)
    market_size: int = 3  # face-up Guard cards (6.5)
    copies_per_guard_card: int = 2  # copies of each Guard card in the deck (6.5)
    exit_cards_per_tile: int = 2  # Exit cards per exit tile (6.7)
    pursuing_steps: int = 2  # steps per Guard Phase while Pursuing, undead 1 (4.2)
    dawn: int = 0  # the last round; 0: the scenario's own

    def to_json(self) -> dict[str, int]:
        """The parameters as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Parameters:
        """Parameters from a JSON object of some of the fields (the rest default);
        ``ValueError`` naming an unknown field or a value that is not a whole number >= 0."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("parameters must be a JSON object")
        known = {f.name for f in fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise ValueError(f"unknown parameter {name!r} (known: {', '.join(sorted(known))})")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"parameter {name} must be a whole number >= 0, not {value!r}")
        return replace(cls(), **data)
