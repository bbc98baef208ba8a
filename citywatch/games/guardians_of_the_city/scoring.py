"""The end of the game and the final score (rulebook sections 6 and 10; rulings 18 and 19).

End conditions (rulebook section 6), checked after every Action card, every Crisis card,
every Subversive trigger and at the end of Step 4 (the ``check_end`` step; ruling 18):

- (a) a player's Action deck is empty: the game ends at once and that player loses;
- (d) a player has no Citizen Group left: the game ends at once;
- (c) every Terrorist Cell is at 0, or (b) the active player's Crisis deck is empty at the end
  of their Step 3: the round is finished first (every player has had as many turns), unless
  (a) or (d) ends the game sooner.

Scoring (ruling 19): Counter-Terrorism points + surviving support + 2 per Special
Intelligence used; 0 for a player with no Citizen Groups; a player who ran out of Action cards
loses whatever the score. Highest score wins; a tie goes to the most Special Intelligence used,
and if still tied the win is shared. If every player has lost (all groups gone, or out of
Action cards, at the same moment) the game is a draw.
"""

from __future__ import annotations

from typing import Any, Final

from citywatch.core.api import Outcome, ScorePart, SeatScore
from citywatch.games.guardians_of_the_city.actions import SEATS, and_list
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, GROUPS, SCORE_POINTS
from citywatch.games.guardians_of_the_city.frames import op
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
ACTION_DECK_OUT: Final = "an Action deck ran out"
"""End condition (a)."""
CRISIS_DECK_OUT: Final = "a Crisis deck ran out"
"""End condition (b)."""
CELLS_ELIMINATED: Final = "every Terrorist Cell was eliminated"
"""End condition (c)."""
CITIZENS_LEFT: Final = "a nation's Citizen Groups all left"
"""End condition (d)."""
REASONS: Final[tuple[str, ...]] = (
    ACTION_DECK_OUT, CRISIS_DECK_OUT, CELLS_ELIMINATED, CITIZENS_LEFT)
"""Every end condition, in the rulebook's order (a)-(d)."""


def wiped_out(s: State) -> list[int]:
    """The seats with no Citizen Group left."""
    return [p for p in range(s.n) if s.surviving(p) == 0]


def decked_out(s: State) -> list[int]:
    """The seats whose Action deck is empty."""
    return [p for p in range(s.n) if not s.action_deck[p]]


def _wait_for_round(s: State, reason: str) -> None:
    if reason not in s.pending:
        s.pending.append(reason)
        s.say(f"The game will end when this round is over: {reason}.")


@op("check_end")
def check_end(s: State) -> None:
    """Check every end condition now (ruling 18); end the game at once for (a) and (d)."""
    if not s.surviving_cells():
        _wait_for_round(s, CELLS_ELIMINATED)
    now = []
    if wiped_out(s):
        now.append(CITIZENS_LEFT)
    if decked_out(s):
        now.append(ACTION_DECK_OUT)
    if now:
        finish(s, [*s.pending, *now])


@op("crisis_deck_check")
def crisis_deck_check(s: State, seat: int) -> None:
    """End condition (b), at the end of the seat's Step 3 after the Subversive triggers."""
    if not s.crisis_deck[seat]:
        _wait_for_round(s, CRISIS_DECK_OUT)


def round_is_over(s: State, next_seat: int) -> bool:
    """True (and the game ended) if an end condition waits for the round and ``next_seat``
    would start a new round (ruling 18)."""
    if s.pending and s.turn > 0 and next_seat == s.first:
        finish(s, list(s.pending))
        return True
    return False


def outcome(s: State, reasons: list[str]) -> Outcome:
    """The outcome of a game ending now for ``reasons`` (the first is the condition met
    first): scores and winners by ruling 19."""
    wiped = set(wiped_out(s))
    decked = set(decked_out(s))
    points = tuple(s.score(p) for p in range(s.n))
    contenders = [p for p in range(s.n) if p not in wiped and p not in decked]
    winners: tuple[int, ...] = ()
    if contenders:
        best = max(points[p] for p in contenders)
        top = [p for p in contenders if points[p] == best]
        most = max(s.special_intelligence_used(p) for p in top)
        winners = tuple(p for p in top if s.special_intelligence_used(p) == most)
    return Outcome(winners, reasons[0], points, outcome_details(s, reasons),
                   roles=tuple(d.name for d in s.decks))


def outcome_details(s: State, reasons: list[str]) -> dict[str, Any]:
    """The game's own facts beside the winners: every condition met, who ran out, who lost
    every group, each seat's Special Intelligence used (the tie break)."""
    return {
        "reasons": list(reasons),
        "out_of_action_cards": decked_out(s),
        "without_citizens": wiped_out(s),
        "special_intelligence": [s.special_intelligence_used(p) for p in range(s.n)],
    }


def finish(s: State, reasons: list[str]) -> None:
    """End the game now for ``reasons``."""
    result = outcome(s, reasons)
    s.result = result
    scores = ", ".join(f"{SEATS[p]} {result.points[p]}" for p in range(s.n)) \
        if result.points is not None else ""
    s.say(f"The game ends: {and_list(list(reasons))}. Scores: {scores}.")
    if result.winners:
        s.say(f"{and_list([SEATS[p] for p in result.winners])} "
              f"win{'s' if len(result.winners) == 1 else ''}.")
    else:
        s.say("The game is a draw: every player has lost.")


def score_parts(s: State, p: int) -> tuple[ScorePart, ...]:
    """Seat ``p``'s score as it stands, part by part (rulebook section 10): (a)
    Counter-Terrorism points, (b) support left among surviving Citizen Groups, (c) 2 points
    per Special Intelligence card used, counted once (the Score pile); with no Citizen Group
    left a last part takes the rest away (the score is deemed 0). The parts add up to
    ``s.score(p)``."""
    support = [(g, x) for g, x in zip(GROUPS, s.support[p], strict=True) if x]
    used = s.special_intelligence_used(p)
    parts = [ScorePart("Counter-Terrorism points", s.ct[p],
                       "1 per Terrorist Cell strength point reduced"),
             ScorePart("Support left", sum(x for _g, x in support),
                       ", ".join(f"{g} {x}" for g, x in support) or "no Citizen Group left"),
             ScorePart("Special Intelligence used",
                       sum(SCORE_POINTS[c] for c in s.score_pile[p]),
                       f"{used} card{'' if used == 1 else 's'} x 2 points")]
    if s.surviving(p) == 0:
        parts.append(ScorePart("No Citizen Group left", -sum(x.points for x in parts),
                               "the score is deemed 0"))
    return tuple(parts)


def end_scores(s: State) -> tuple[SeatScore, ...] | None:
    """Each seat's end of the finished game (``Game.score_breakdown``), by rulebook section
    10: (a) Counter-Terrorism points, (b) support left among surviving Citizen Groups, (c)
    2 points per Special Intelligence card used, counted once (the Score pile); a seat with
    no Citizen Group left scores 0, shown as a last part that takes the rest away. Why it won
    or lost (ruling 19: out of Action cards loses; ties go to the most Special Intelligence
    used, then are shared), and its hand revealed."""
    result = s.result
    if result is None:
        return None
    out = []
    for p in range(s.n):
        used = s.special_intelligence_used(p)
        parts = score_parts(s, p)
        hand = ", ".join(ACTION_CARDS[c].name for c in s.hand[p]) or "no cards"
        notes = (f"Tie break: {used} Special Intelligence card{'' if used == 1 else 's'} "
                 "used.",)
        out.append(SeatScore(parts, _why(s, p, result), (("Hand", hand),), notes))
    return tuple(out)


def _why(s: State, p: int, result: Outcome) -> str:
    """Why seat ``p`` won or lost, in a sentence (ruling 19)."""
    points = result.points or tuple(s.score(q) for q in range(s.n))
    wiped, decked = set(wiped_out(s)), set(decked_out(s))
    draw = "" if result.winners else " Every player lost: the game is a draw."
    if p in wiped:
        return ("Lost, and scores 0: every Citizen Group left the country (section 10)."
                + draw)
    if p in decked:
        return ("Lost: ran out of Action cards (end condition a), whatever the score."
                + draw)
    mine, used = points[p], s.special_intelligence_used(p)
    contenders = [q for q in range(s.n) if q not in wiped and q not in decked]
    best = max(points[q] for q in contenders)
    top = [q for q in contenders if points[q] == best]
    if p in result.winners:
        others = [SEATS[q] for q in result.winners if q != p]
        if len(top) == 1:
            return f"Won: the highest score ({best})."
        if others:
            return (f"Won, shared with {and_list(others)}: tied on {best} and on Special "
                    f"Intelligence used ({used}).")
        beaten = [s.special_intelligence_used(q) for q in top if q != p]
        return (f"Won: tied on {best} and used the most Special Intelligence cards ({used} "
                f"against {max(beaten)}).")
    if mine == best:
        most = s.special_intelligence_used(result.winners[0])
        return (f"Did not win: tied on {best}, but used fewer Special Intelligence cards "
                f"({used} against {most}).")
    return f"Did not win: {best - mine} behind the highest score ({best})."
