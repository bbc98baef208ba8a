"""Error classes: each is a ``ValueError`` with a message that says why."""


class IllegalAction(ValueError):
    """An action that is not legal in the current state."""


class InvalidPosition(ValueError):
    """A position dictionary that does not describe a valid state."""


class InvalidRecord(ValueError):
    """A game record that is malformed or does not replay."""


class UnknownGame(ValueError):
    """A game name that no registered game answers to."""
