"""The Black Keep's actions: a verb and up to three small integers.

Each verb is declared once here with what its integers mean (the core's
``citywatch.core.verbs.Verbs`` table), so that ``str()`` reads as English and the JSON form
names things (``{"verb": "move", "card": "Move N/NE", "direction": "NE", "to": "D3"}``).

A hex in an action is not a board index but its label's code (``hex_code``: column and row),
so an action reads and writes its hexes by label without the board; ``board_hex`` turns a
code back into the board's index. Guards are named by their number in listing order, from 1.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from citywatch.core.built import BuiltActions
from citywatch.core.verbs import FieldKind, Names, Number, VerbAction3, Verbs
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.data import GUARD_CARD_NAMES, GUARD_CARDS, LOOT, THIEF_CARD_NAMES
from citywatch.games.black_keep.hexes import FACINGS, from_offset, label, parse, row_number

SEATS: Final[tuple[str, ...]] = ("Thief 1", "Thief 2", "Thief 3", "Thief 4")
"""The seats' names, in seat order (one thief per seat)."""
ROWS: Final = 1024
"""Rows per column in a hex code."""


def hex_code(board: Board, index: int) -> int:
    """The code of a board hex: ``column * ROWS + row - 1``."""
    h = board.hexes[index]
    return h[0] * ROWS + row_number(h) - 1


def board_hex(board: Board, code: int) -> int:
    """The board index of a hex code; ``ValueError`` if it is not a floor hex of ``board``."""
    h = from_offset(code // ROWS, code % ROWS + 1)
    if h not in board.index:
        raise ValueError(f"{label(h)} is not a floor hex of {board.name}")
    return board.index[h]


class HexLabel(FieldKind):
    """A hex code, written as its label (``"D3"``)."""

    def name(self, index: int) -> str:
        """The label."""
        return label(from_offset(index // ROWS, index % ROWS + 1))

    def from_json(self, raw: Any) -> int:
        """The code of a label."""
        q, r = parse(raw)
        row = r + (q - (q & 1)) // 2 + 1
        if q < 0 or not 1 <= row <= ROWS:
            raise ValueError(f"{raw!r} is off the label grid")
        return q * ROWS + row - 1


class GuardNumber(FieldKind):
    """A guard's index in listing order, written as its number from 1."""

    def name(self, index: int) -> str:
        """``guard 3``."""
        return f"guard {index + 1}"

    def to_json(self, index: int) -> Any:
        """The number from 1."""
        return index + 1

    def from_json(self, raw: Any) -> int:
        """The index of a number from 1."""
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
            raise ValueError(f"{raw!r} is not a guard number (1 or more)")
        return raw - 1


KINDS: Final[dict[str, FieldKind]] = {
    "hex": HexLabel(),
    "direction": Names("direction", FACINGS),
    "thief_card": Names("thief card", THIEF_CARD_NAMES),
    "guard_card": Names("Guard card", GUARD_CARD_NAMES),
    "guard": GuardNumber(),
    "loot": Names("loot", LOOT),
    "number": Number(),
}
"""Field kind -> how its integers are named and read."""

VERBS: Final[Verbs[Action]] = Verbs(3, KINDS)
"""Every declared verb by name."""
verb = VERBS.declare


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a tuple as native
class Action(VerbAction3):
    """One decision: a declared verb and up to three integers (-1 when unused); ``to_json``
    naming cards, directions and hexes by name."""

    __slots__ = ()
    VERBS = VERBS


_BUILT: Final = BuiltActions(Action)
"""Every action ``act`` has built (``core.built``)."""


def act(verb: str, x: int = -1, y: int = -1, z: int = -1) -> Action:
    """``Action(verb, x, y, z)``, built once (then shared)."""
    found: Action = _BUILT.three(verb, x, y, z)
    return found


def _hex(code: int) -> str:
    return KINDS["hex"].name(code)


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _card(i: int) -> str:
    return THIEF_CARD_NAMES[i]


def _guard_card_text(a: Action) -> str:
    card = GUARD_CARDS[a.x]
    if card.target == "guard":
        return f"Play {card.name} on guard {a.y + 1} at {_hex(a.z)}"
    if card.target == "torch":
        return f"Play {card.name} at the torch at {_hex(a.z)}"
    if card.target == "hex":
        return f"Play {card.name} at {_hex(a.z)}"
    return f"Play {card.name} with the Run"


# --- set-up ----------------------------------------------------------------------------------
START: Final = verb("start", (("hex", "hex"),), lambda a: f"Set your Location Dial to {_hex(a.x)}")
# --- Resource Phase --------------------------------------------------------------------------
BUY: Final = verb("buy", (("card", "guard_card"),),
                  lambda a: f"Buy {GUARD_CARD_NAMES[a.x]} for {_coins(GUARD_CARDS[a.x].cost)}")
NO_BUY: Final = verb("no_buy", (), lambda a: "Buy no Guard card")
# --- the plan: the thief card ----------------------------------------------------------------
MOVE: Final = verb("move", (("card", "thief_card"), ("direction", "direction"), ("to", "hex")),
                   lambda a: f"Play {_card(a.x)}: step {FACINGS[a.y]} to {_hex(a.z)}")
STAY: Final = verb("stay", (("card", "thief_card"),),
                   lambda a: f"Play {_card(a.x)} and stay (both ways are blocked)")
RUN: Final = verb("run", (("first", "direction"), ("second", "direction"), ("to", "hex")),
                  lambda a: f"Run {FACINGS[a.x]}" + (f" then {FACINGS[a.y]}" if a.y >= 0 else "")
                  + f" to {_hex(a.z)}")
ESCAPE: Final = verb("escape", (("card", "thief_card"), ("first", "direction"),
                                ("second", "direction")),
                     lambda a: f"Play {_card(a.x)}: " + (
                         f"step {FACINGS[a.y]}, then escape {FACINGS[a.z]} off the map" if a.z >= 0
                         else f"escape {FACINGS[a.y]} off the map"))
HIDE: Final = verb("hide", (), lambda a: "Play Hide")
REST: Final = verb("rest", (), lambda a: "Play Rest: take your discarded cards back")
PICK_POCKET: Final = verb("pick_pocket", (("guard", "guard"), ("at", "hex"), ("take", "loot")),
                          lambda a: f"Pick the pocket of guard {a.x + 1} at {_hex(a.y)} "
                          f"for its {LOOT[a.z]}")
# --- the plan: the Guard card and the treasure -----------------------------------------------
GUARD_CARD: Final = verb("guard_card", (("card", "guard_card"), ("guard", "guard"), ("at", "hex")),
                         _guard_card_text)
NO_GUARD_CARD: Final = verb("no_guard_card", (), lambda a: "Play no Guard card")
TAKE: Final = verb("take", (), lambda a: "Take a treasure from the crown")
LEAVE: Final = verb("leave", (), lambda a: "Take no treasure")
