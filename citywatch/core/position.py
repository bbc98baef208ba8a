"""Reading a position back: the checks every game's ``read_position`` shares.

Each refuses what it reads with ``InvalidPosition`` saying what is wrong: a value of the wrong
JSON type, the generator's state, a result's winners, and pending decisions that do not fit
the position they were read with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from citywatch.core.errors import InvalidPosition
from citywatch.core.rng import Rng, rng_from_json

FIT_ERRORS: tuple[type[Exception], ...] = (
    AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError)
"""What a game's rules may raise on a position that does not hold together."""


class _Deciding(Protocol):
    def legal_actions(self) -> Any: ...


S = TypeVar("S", bound=_Deciding)


def need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]``, refused if missing or not of ``kind`` (a bool is never a number)."""
    if key not in data:
        raise InvalidPosition(f"{where} has no {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise InvalidPosition(f"{where}: {key!r} has the wrong type ({value!r})")
    return value


def is_int(low: int, high: int) -> Callable[[Any], bool]:
    """Whether a value is a whole number (not a bool) from ``low`` to ``high``."""
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def is_seat(n: int) -> Callable[[Any], bool]:
    """Whether a value is a seat number of an ``n``-seat game."""
    return is_int(0, n - 1)


def read_rng(raw: Any) -> Rng:
    """The generator a position's ``rng`` holds."""
    try:
        return rng_from_json(raw)
    except ValueError as exc:
        raise InvalidPosition(str(exc)) from None


def read_winners(result: dict[str, Any], n: int) -> list[int]:
    """A result's ``winners``: different seat numbers of an ``n``-seat game."""
    winners = result.get("winners")
    if not isinstance(winners, list) or not all(map(is_seat(n), winners)) \
            or len(set(winners)) != len(winners):
        raise InvalidPosition("result winners must be different seat numbers")
    return winners


POINTS = 10 ** 6
"""Points per seat a result may hold: fewer than this, and more than its negative."""


def read_result(raw: Any, n: int, points_required: bool, fewest_points: int = 0,
                most_points: int = POINTS - 1
                ) -> tuple[dict[str, Any], list[int], list[int] | None]:
    """A position's ``result`` of an ``n``-seat game: the object, its winners
    (``read_winners``) and its ``points``, a whole number per seat from ``fewest_points`` to
    ``most_points`` (None if it has none and ``points_required`` is False). Each game checks
    the result's reason itself."""
    if not isinstance(raw, dict):
        raise InvalidPosition("result must be an object or null")
    winners = read_winners(raw, n)
    points = raw.get("points")
    if points is None and not points_required:
        return raw, winners, None
    if not isinstance(points, list) or len(points) != n or not all(
            map(is_int(fewest_points, most_points), points)):
        raise InvalidPosition(f"result points must be a whole number per seat, from "
                              f"{fewest_points} to {most_points}")
    return raw, winners, points


def check_pending(s: S, advance: Callable[[S], object]) -> None:
    """Run the automatic steps of a state read back and list its legal actions, refusing
    pending decisions that do not fit the position."""
    try:
        advance(s)
        s.legal_actions()
    except InvalidPosition:
        raise
    except FIT_ERRORS as exc:
        raise InvalidPosition(f"the pending decisions do not fit the position: {exc!r}") from None
