"""Every numeric rule of the Black Keep in one object, so designers can tune them (spec
sections 0 and 14). The defaults are the spec's; a scenario's ``dawn`` overrides ``dawn``."""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Final

_SHORT: Final = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


@dataclass(frozen=True)
class Parameters:
    """The tunable numbers of the rules (defaults from the spec; section in brackets)."""

    hearing_range: int = field(default=4, metadata={
        "min": 1, "max": 12, "help": "steps along open sides a guard hears a noise from (4.5)"})
    torch_reach: int = field(default=2, metadata={
        "min": 0, "max": 8, "help": "steps a burning torch lights (2.8)"})
    bored_reach: int = field(default=2, metadata={
        "min": 0, "max": 8, "help": "hexes a Bored guard sees down its row (3.6)"})
    wounds: int = field(default=3, metadata={
        "min": 1, "max": 9, "help": "a thief's wound counters (6.1)"})
    thief_coins: int = field(default=4, metadata={
        "min": 0, "max": 20, "help": "Gold Coins a thief starts with (6.1)"})
    guard_coins: int = field(default=2, metadata={
        "min": 0, "max": 9, "help": "Gold Coins each living guard carries (4.11)"})
    market_size: int = field(default=3, metadata={
        "min": 0, "max": 8, "help": "face-up Guard cards (6.5)"})
    copies_per_guard_card: int = field(default=2, metadata={
        "min": 0, "max": 8, "help": "copies of each Guard card in the deck (6.5)"})
    exit_cards_per_tile: int = field(default=2, metadata={
        "min": 1, "max": 8, "help": "Exit cards per exit tile (6.7)"})
    pursuing_steps: int = field(default=2, metadata={
        "min": 1, "max": 6, "help": "steps per Guard Phase while Pursuing, undead 1 (4.2)"})
    dawn: int = field(default=0, metadata={
        "min": 0, "max": 100, "help": "the last round; 0: the scenario's own"})

    def __reduce__(self) -> tuple[type[Parameters], tuple[int, ...]]:
        """Pickled as a call of the class with the fields: a compiled frozen dataclass
        cannot be restored field by field."""
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))

    def to_json(self) -> dict[str, int]:
        """The parameters as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Parameters:
        """Parameters from a JSON object of some of the fields (the rest default);
        ``ValueError`` naming an unknown field or a value that is not a whole number from its
        minimum to its maximum (``MINIMUM``, ``MAXIMUM``)."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("parameters must be a JSON object")
        known = {f.name for f in fields(cls)}
        for name, value in data.items():
            if name not in known:
                raise ValueError(f"unknown parameter {_SHORT.repr(name)} "
                                 f"(known: {', '.join(sorted(known))})")
            least, most = MINIMUM[name], MAXIMUM[name]
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not least <= value <= most:
                raise ValueError(f"parameter {name} must be a whole number from {least} to "
                                 f"{most}, not {_SHORT.repr(value)}")
        return replace(cls(), **data)


MINIMUM: Final = {f.name: int(f.metadata["min"]) for f in fields(Parameters)}
"""The least value of each parameter (a guard hears at least one step, a thief has a wound)."""

MAXIMUM: Final = {f.name: int(f.metadata["max"]) for f in fields(Parameters)}
"""The greatest value of each parameter: a few times the spec's default, so a tuned game stays
a game of the same size (docs/black-keep-rulings.md, "Limits"; issue 24)."""

HELP: Final = {f.name: str(f.metadata["help"]) for f in fields(Parameters)}
"""Each parameter in a few words, with its spec section."""
