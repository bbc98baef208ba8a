"""Actions built once and shared (issue 32): a game's legal-action lists are rebuilt at almost
every step, and an action is an immutable named tuple, so each distinct one is made once,
without the named tuple's interpreted ``__new__``, and handed out again after."""

from __future__ import annotations

from typing import Any, Final

_new_tuple: Final = tuple.__new__


class BuiltActions:
    """The actions of one named-tuple type ``(verb, x, y[, z])`` built so far, by verb, then by
    each integer."""

    def __init__(self, action_type: type) -> None:
        self.action_type = action_type
        self.by_verb: dict[str, dict[int, dict[int, Any]]] = {}

    def _by_y(self, verb: str, x: int) -> dict[int, Any]:
        by_x = self.by_verb.get(verb)
        if by_x is None:
            by_x = self.by_verb[verb] = {}
        by_y = by_x.get(x)
        if by_y is None:
            by_y = by_x[x] = {}
        return by_y

    def two(self, verb: str, x: int, y: int) -> Any:
        """The action ``(verb, x, y)``."""
        by_y = self._by_y(verb, x)
        found = by_y.get(y)
        if found is None:
            found = by_y[y] = _new_tuple(self.action_type, (verb, x, y))
        return found

    def three(self, verb: str, x: int, y: int, z: int) -> Any:
        """The action ``(verb, x, y, z)``."""
        by_y = self._by_y(verb, x)
        by_z = by_y.get(y)
        if by_z is None:
            by_z = by_y[y] = {}
        found = by_z.get(z)
        if found is None:
            found = by_z[z] = _new_tuple(self.action_type, (verb, x, y, z))
        return found
