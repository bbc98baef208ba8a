"""The end of the game and its score (spec section 9, ruling 57).

- Solo (one thief): it wins by escaping with a real treasure, scoring the treasure's value
  plus its wounds left; caught, killed, dawn, or escaping with nothing is a loss.
- Co-op: the crew loses the moment any thief is caught or killed, or at dawn; it wins when
  every thief has escaped and they carry at least one real treasure between them, scoring the
  values of the real treasures carried out plus the wounds left over all thieves (every seat
  gets the crew's score).
- Rivals: caught or killed thieves are out; the first thief to escape with a real treasure
  wins at once (thieves escaping with one in the same Thief Phase share the win); if none does
  by dawn, or nobody is left on the map, nobody wins. A winner scores as a solo thief.

Ties are broken by fewer rounds played: ``Outcome.details["rounds"]`` holds the round the game
ended in (points are whole numbers, so the rounds stay beside them, not inside them).
``Outcome.cooperative`` is True in solo and co-op (the crew wins or loses
together), so ``Outcome.rewards`` gives every thief of a winning crew 1.
"""

from __future__ import annotations

from citywatch.core.api import Outcome, ScorePart, SeatScore
from citywatch.games.black_keep.data import TREASURES
from citywatch.games.black_keep.state import (
    CAUGHT,
    ESCAPED,
    IN_PLAY,
    KILLED,
    NONE,
    STANDINGS,
    BlackKeepState,
    Thief,
)

State = BlackKeepState


def carries_real_treasure(t: Thief) -> bool:
    """Whether ``t`` carries a treasure that is not the Fake."""
    return t.treasure != NONE and TREASURES[t.treasure].real


def thief_score(t: Thief) -> int:
    """A thief's score: its real treasure's value plus its wounds left (0 if it carries no
    real treasure or did not escape)."""
    if t.standing != ESCAPED or not carries_real_treasure(t):
        return 0
    return TREASURES[t.treasure].value + t.wounds


def _outcome(s: State, winners: tuple[int, ...], reason: str,
             points: tuple[int, ...]) -> Outcome:
    return Outcome(winners, reason, points, {
        "rounds": s.round, "mode": s.mode,
        "standings": [STANDINGS[t.standing] for t in s.thieves],
        "treasures": [TREASURES[t.treasure].name if t.treasure != NONE else None
                      for t in s.thieves]}, cooperative=s.mode != "rivals")


def _names(seats: list[int]) -> str:
    names = [f"Thief {p + 1}" for p in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome(s: State, dawn: bool = False) -> Outcome | None:
    """How the game has ended now, or None while it goes on; ``dawn`` when the dawn round has
    just ended (its thieves are caught already, ruling 56)."""
    thieves = s.thieves
    out = [p for p, t in enumerate(thieves) if t.standing in (CAUGHT, KILLED)]
    in_play = [p for p, t in enumerate(thieves) if t.standing == IN_PLAY]
    nobody = tuple(0 for _ in thieves)
    if s.mode == "rivals":
        rich = [p for p, t in enumerate(thieves)
                if t.standing == ESCAPED and carries_real_treasure(t)]
        if rich:
            points = tuple(thief_score(t) if p in rich else 0 for p, t in enumerate(thieves))
            return _outcome(s, tuple(rich), f"{_names(rich)} escaped with a real treasure",
                            points)
        if not in_play:
            return _outcome(s, (), "dawn came and nobody escaped with a real treasure" if dawn
                            else "no thief is left to escape with a real treasure", nobody)
        return None
    if out:  # solo or co-op: a caught or killed thief ends it at once
        why = "dawn came" if dawn else (
            f"{_names(out)} {'was' if len(out) == 1 else 'were'} caught or killed")
        return _outcome(s, (), why, nobody)
    if in_play:
        return None
    total = sum(TREASURES[t.treasure].value for t in thieves if carries_real_treasure(t)) \
        + sum(t.wounds for t in thieves)
    if not any(carries_real_treasure(t) for t in thieves):
        return _outcome(s, (), "escaped without a real treasure", nobody)
    seats = tuple(range(len(thieves)))
    what = "the thief" if len(thieves) == 1 else "every thief"
    return _outcome(s, seats, f"{what} escaped with a real treasure",
                    tuple(total for _ in seats))


def _parts(t: Thief, who: str) -> list[ScorePart]:
    """A thief's score (``thief_score``) as parts: its real treasure's value, its wounds
    left; ``who`` heads each label ("" for the seat's own thief)."""
    if t.standing != ESCAPED or not carries_real_treasure(t):
        return [ScorePart(f"{who}wounds left", t.wounds, _fate(t))] if who else []
    return [ScorePart(f"{who}treasure: {TREASURES[t.treasure].name}",
                      TREASURES[t.treasure].value, "a real treasure carried out"),
            ScorePart(f"{who}wounds left", t.wounds, "")]


def _fate(t: Thief) -> str:
    """What became of a thief, in words."""
    if t.standing == ESCAPED:
        if t.treasure == NONE:
            return "escaped with no treasure"
        name = TREASURES[t.treasure].name
        return (f"escaped with the {name}" if TREASURES[t.treasure].real
                else f"escaped with the {name}, which is not a real treasure")
    return {CAUGHT: "was caught", KILLED: "was killed"}.get(t.standing,
                                                            "was still in the keep")


def end_scores(s: State) -> tuple[SeatScore, ...] | None:
    """Each seat's end of the finished game (``Game.score_breakdown``; spec section 9,
    ruling 57): a winning thief's real treasure and wounds left; in solo and co-op every
    seat holds the crew's score, each thief's treasure and wounds as its own parts; every
    other seat scores 0 and is told why (caught, killed, no real treasure, still in the keep).
    Each thief's Location Dial is revealed."""
    result = s.result
    if result is None:
        return None
    labels = s.board.labels
    crew = s.mode != "rivals"
    out = []
    for p, t in enumerate(s.thieves):
        me = f"Thief {p + 1}"
        if crew and result.winners:
            parts = [part for q, other in enumerate(s.thieves)
                     for part in _parts(other, f"Thief {q + 1}'s ")]
            why = ("Won" if len(s.thieves) == 1 else "Won together") + \
                f": {result.reason}; {me} {_fate(t)}."
        elif crew:
            together = "" if len(s.thieves) == 1 else " together"
            own = f"{me} {_fate(t)}"
            if t.standing in (CAUGHT, KILLED):
                why = f"Lost{together}, and scores 0: {own}."
            else:
                why = (f"Lost{together}, and scores 0: {result.reason}"
                       + (f"; {own}" if together and me not in result.reason else "") + ".")
            parts = []
        elif p in result.winners:
            parts = _parts(t, "")
            shared = [f"Thief {q + 1}" for q in result.winners if q != p]
            why = (f"Won: {_fate(t)} first"
                   + (f", sharing the win with {' and '.join(shared)} (the same Thief Phase)"
                      if shared else "") + ".")
        else:
            parts = []
            why = f"Scores 0: {_fate(t)}; {result.reason}."
        dial = (("Location Dial", labels[t.hex]),) if t.hex != NONE else ()
        out.append(SeatScore(tuple(parts), why, dial, (f"The game ended in round {s.round}.",)))
    return tuple(out)
