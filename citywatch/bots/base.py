"""The bot interface: a bot sees one seat's observation, never the true state."""

from __future__ import annotations

from typing import Any, Protocol

from citywatch.core.api import State
from citywatch.core.rng import Rng


class Observation:
    """What one seat may know: its view, and worlds sampled consistently with it.

    ``sample`` re-deals everything hidden from the seat; the true state itself is
    not reachable through this object's public interface.
    """

    __slots__ = ("seat", "_state", "_view")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self._state = state
        self._view: dict[str, Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (computed on first use)."""
        if self._view is None:
            self._view = self._state.view(self.seat)
        return self._view

    def sample(self, rng: Rng) -> State:
        """A full state consistent with ``view`` (a determinization)."""
        return self._state.determinize(self.seat, rng)


class Bot(Protocol):
    """Chooses one of the legal actions for the seat it plays."""

    name: str

    def choose(self, observation: Observation, legal_actions: list[Any], rng: Rng) -> Any:
        """Return one element of ``legal_actions``."""
        ...


class WorldBot:
    """A bot that decides in one world sampled from its view: ``choose`` samples a world
    (unless there is only one legal action) and asks ``choose_in``, which search bots'
    playouts call directly on a world they already sampled."""

    name: str

    def choose(self, observation: Observation, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action the bot prefers, judged on a world sampled from the view."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.choose_in(observation.sample(rng), observation.seat, legal_actions, rng)

    def choose_in(self, world: Any, seat: int, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action the bot prefers in ``world``, a world already sampled for
        ``seat``."""
        raise NotImplementedError
