"""What one seat may see, and worlds re-sampled to fit it (determinization)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from citywatch.core.api import ScorePart, SeatScore
from citywatch.core.log import is_mark
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.data import (
    AREA_BY_NAME,
    AREAS,
    CARDS,
    CHRYSOPRASE_WORTH,
    COLOURS,
    DRAGON_KING_TROUBLE,
    EVENTS,
    LORD_AREAS,
    LORDS,
    NUM_AREAS,
    PERSONALITIES,
    TWO_PLAYER_REMOVED_PERSONALITIES,
    VETINARI_AREAS,
    player_text,
)
from citywatch.games.ankh_morpork.frames import DECISIONS
from citywatch.games.ankh_morpork.position import area_json
from citywatch.games.ankh_morpork.scoring import (
    MINION_POINTS,
    best_area_card,
    controlled_areas,
    net_worth,
    personality_met,
    points,
    spy_areas,
)
from citywatch.games.ankh_morpork.state import LOAN_CARDS, STATE_HOOKS, AnkhMorporkState


def shuffle(rng: Rng, items: list[Any]) -> None:
    """``rng.shuffle(items)``: sampling a world shuffles some 90 cards."""
    rng.shuffle(items)


def plural(n: int, word: str) -> str:
    """"1 minion", "2 minions"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _names(items: list[int]) -> list[str]:
    return [CARDS[c].name for c in items]


def revealed_hands(s: AnkhMorporkState, seat: int) -> set[int]:
    """Seats whose hand ``seat`` is being shown right now (Cable Street Particulars)."""
    out: set[int] = set()
    for f in s.stack:
        if f[0] == "fx" and f[3] == "make_discard" and f[1] == seat:
            out.add(f[4])
    return out


def view(s: AnkhMorporkState, seat: int | None) -> dict[str, Any]:
    """A JSON dict of exactly what ``seat`` may see (``None``: a spectator, public facts only)."""
    s.check_seat(seat)
    decision = s.decision_view(seat, COLOURS, DECISIONS.describe)
    ended = s.result is not None
    return {
        "game": "ankh-morpork",
        "players": s.n,
        "seat": seat,
        "colour": None if seat is None else COLOURS[seat],
        "turn": s.turn,
        "current": COLOURS[s.current],
        "decision": decision,
        "areas": {AREAS[a].name: area_json(s, a) for a in range(NUM_AREAS)},
        "seats": [
            {
                "colour": COLOURS[p],
                "money": s.money[p],
                "hand_size": len(s.hands[p]),
                "in_front": _names(s.in_front[p]),
                "minions_in_supply": s.minion_supply(p),
                "buildings_in_supply": s.building_supply(p),
                "personality": PERSONALITIES[s.personality[p]].name if ended or p == seat
                else None,
            }
            for p in range(s.n)
        ],
        "hand": [] if seat is None else _names(s.hands[seat]),
        "shown_hands": {} if seat is None else {
            COLOURS[p]: _names(s.hands[p]) for p in sorted(revealed_hands(s, seat))},
        "seen_personalities": [] if seat is None else [
            PERSONALITIES[p].name for p in s.seen[seat]],
        "draw_pile_size": len(s.draw_pile),
        "discard_pile": _names(s.discard_pile[::-1]),
        "in_play": _names(s.in_play),
        "out_of_game": _names(s.out_of_game),
        "events_left": len(s.events),
        "events_done": [EVENTS[e].name for e in s.events_done],
        "unused_personalities": len(s.unused_personalities),
        "played_this_turn": _names(s.played),
        "powers_used": [AREAS[a].name for a in range(NUM_AREAS) if s.powers_used >> a & 1],
        "gained_this_turn": [AREAS[a].name for a in range(NUM_AREAS) if s.gained >> a & 1],
        "immune": [COLOURS[p] for p in range(s.n) if s.immune >> p & 1],
        "text_asked": [COLOURS[p] for p in range(s.n) if s.text_asked >> p & 1],
        "result": None if s.result is None else s.result.to_json(),
        "progress": None if seat is None else progress(s, seat),
        "scores": None if not ended else [score_breakdown(s, p) for p in range(s.n)],
    }


_AREA_WORDS: Final = re.compile(r"\b(" + "|".join(
    re.escape(a.name) for a in sorted(AREAS, key=lambda a: -len(a.name))) + r")\b")


def last_move(s: AnkhMorporkState) -> dict[str, Any] | None:
    """The newest decision whose public log lines name an area: who decided and the areas
    those lines name (what the move and its consequences touched), in board order; None if
    no decision has touched an area yet. Public facts only."""
    node = s.log_tail
    named: set[str] = set()
    while node is not None:
        entry = node[0]
        if is_mark(entry):
            if named:
                return {"by": entry[0],
                        "areas": [a.name for a in AREAS if a.name in named]}
        elif isinstance(entry, str):
            named.update(_AREA_WORDS.findall(entry))
        node = node[1]
    return None


def move_spaces(before: dict[str, Any], after: dict[str, Any],
                lines: Sequence[str]) -> list[str]:
    """The areas one decision touched (issue 26), in board order: those the public ``lines``
    it wrote name, and those whose pieces or trouble differ between the spectator's views
    ``before`` and ``after`` it (a trouble marker removed when a minion left, say)."""
    named = {name for line in lines for name in _AREA_WORDS.findall(line)}
    old, new = before.get("areas", {}), after.get("areas", {})
    named.update(name for name in new if old.get(name) != new[name])
    return [a.name for a in AREAS if a.name in named]


def progress(s: AnkhMorporkState, seat: int) -> dict[str, Any]:
    """How far ``seat``'s own personality is from winning at this table: ``have`` of
    ``need`` (None for Commander Vimes), one sentence (``line``), further facts (``notes``),
    whether it holds now (``met``: it wins at the start of the seat's turn), and the
    personality's full text. Only for the seat itself: the personality is secret."""
    person = PERSONALITIES[s.personality[seat]]
    name = person.name
    players = f"{s.n} players"
    demon_areas = [AREAS[a].name for a in range(NUM_AREAS) if s.demons[a]]
    notes: list[str] = []
    have: int | None
    need: int | None
    if name == "Lord Vetinari":
        have, need = spy_areas(s, seat), VETINARI_AREAS[s.n]
        line = f"Your minions are in {have} of the {need} areas you need ({players})."
        if demon_areas:
            notes.append("Areas with a demon do not count: " + ", ".join(demon_areas) + ".")
    elif name in LORDS:
        have, need = controlled_areas(s, seat), LORD_AREAS[s.n]
        line = f"You control {have} of the {need} areas you need ({players})."
        if demon_areas:
            notes.append("Nobody controls an area with a demon: " + ", ".join(demon_areas) + ".")
    elif name == "Dragon King of Arms":
        have, need = s.trouble_count(), DRAGON_KING_TROUBLE
        line = f"{have} of the {need} trouble markers you need are on the board."
    elif name == "Chrysoprase":
        have, need = net_worth(s, seat), CHRYSOPRASE_WORTH
        buildings = sum(AREAS[a].cost for a in s.buildings_of(seat) if not s.demons[a])
        loans = sum(CARDS[c].params["repay"] for c in s.in_front[seat] if c in LOAN_CARDS)
        line = (f"Your net worth is ${have} of the ${need} you need: cash ${s.money[seat]}"
                f" + buildings ${buildings}" + (f" - loans ${loans}" if loans else "") + ".")
        if any(s.demons[a] for a in s.buildings_of(seat)):
            notes.append("Your buildings in areas with a demon are worth $0.")
    else:  # Commander Vimes
        have = need = None
        line = (f"You win if the draw pile runs out ({len(s.draw_pile)} cards left) "
                "and nobody has won before.")
    met = personality_met(s, seat)
    if met:
        notes.append("Your condition holds now: you win at the start of your next turn "
                     "if it still does.")
    return {"personality": name, "text": player_text(person.wins_if), "have": have,
            "need": need, "line": line, "notes": notes, "met": met}


def score_breakdown(s: AnkhMorporkState, seat: int) -> dict[str, Any]:
    """``seat``'s points at the end (rulebook, End of the Game; ruling 25), part by part:
    $5 a minion and each building's printed cost outside areas with a demon, $1 a dollar,
    each loan repaid with $12 from the cash or -15 points; ``total`` is ``scoring.points``.
    ``not_counted`` lists what stands in areas with a demon (it scores nothing)."""
    minions = buildings = 0
    built: list[str] = []
    lost_minions = 0
    lost_buildings: list[str] = []
    for a in range(NUM_AREAS):
        mine = s.minions[seat][a]
        if s.demons[a]:
            lost_minions += mine
            if s.building[a] == seat:
                lost_buildings.append(AREAS[a].name)
            continue
        minions += mine
        if s.building[a] == seat:
            buildings += AREAS[a].cost
            built.append(AREAS[a].name)
    cash = s.money[seat]
    loans: list[dict[str, Any]] = []
    loan_points = 0
    for card in s.in_front[seat]:
        if card not in LOAN_CARDS:
            continue
        repay, penalty = CARDS[card].params["repay"], CARDS[card].params["penalty"]
        repaid = cash >= repay
        cash -= repay if repaid else 0
        points = -repay if repaid else -penalty
        loan_points += points
        loans.append({"card": CARDS[card].name, "repaid": repaid, "points": points})
    total = MINION_POINTS * minions + buildings + s.money[seat] + loan_points
    return {
        "colour": COLOURS[seat],
        "minions": minions,
        "minion_points": MINION_POINTS * minions,
        "buildings": built,
        "building_points": buildings,
        "money": s.money[seat],
        "loans": loans,
        "loan_points": loan_points,
        "not_counted": {"minions": lost_minions, "buildings": lost_buildings},
        "total": total,
    }


_ENDS: Final = {"riots": "riots broke out (eight or more trouble markers)",
         "deck": "the draw pile ran out"}


def end_scores(s: AnkhMorporkState) -> tuple[SeatScore, ...] | None:
    """Each seat's end of the finished game (``Game.score_breakdown``): its points part by
    part as ``score_breakdown`` counts them (rulebook, End of the Game; ruling 25), adding up
    to ``scoring.points``; why it won or lost (a personality's condition, Commander Vimes, or
    the most points with the City Area card tie break); its personality and hand revealed."""
    result = s.result
    if result is None:
        return None
    scores = points(s)
    winners = result.winners
    by_personality = result.points is None
    out = []
    for seat in range(s.n):
        sheet = score_breakdown(s, seat)
        parts = [ScorePart("Minions", sheet["minion_points"],
                           f"{plural(sheet['minions'], 'minion')} x ${MINION_POINTS}"),
                 ScorePart("Buildings", sheet["building_points"],
                           ", ".join(f"{name} ${AREA_BY_NAME[name].cost}"
                                     for name in sheet["buildings"])),
                 ScorePart("Money", sheet["money"], f"${sheet['money']} in cash")]
        parts += [ScorePart(f"Loan: {loan['card']}", loan["points"],
                            f"repaid with ${-loan['points']}" if loan["repaid"]
                            else f"not repaid: -{-loan['points']} points")
                  for loan in sheet["loans"]]
        lost = sheet["not_counted"]
        notes = []
        if lost["minions"] or lost["buildings"]:
            what = ([plural(lost["minions"], "minion")] if lost["minions"] else []) + \
                [f"building in {name}" for name in lost["buildings"]]
            notes.append(f"Not counted, in an area with a demon: {', '.join(what)}.")
        out.append(SeatScore(tuple(parts), _why(s, seat, scores, winners, by_personality),
                             (("Personality", PERSONALITIES[s.personality[seat]].name),
                              ("Hand", ", ".join(_names(s.hands[seat])) or "no cards")),
                             tuple(notes)))
    return tuple(out)


def _why(s: AnkhMorporkState, seat: int, scores: tuple[int, ...], winners: tuple[int, ...],
         by_personality: bool) -> str:
    """Why ``seat`` won or lost, in a sentence."""
    result = s.result
    assert result is not None
    if by_personality:
        (winner,) = winners
        name = PERSONALITIES[s.personality[winner]].name
        if result.reason == "deck":
            how = "the draw pile ran out, and Commander Vimes wins then"
        else:
            how = f"the victory condition held at the start of {COLOURS[winner]}'s turn"
        if seat == winner:
            return f"Won as {name}: {how}; the points did not count."
        return f"Did not win: {COLOURS[winner]} won as {name} ({how}); the points did not count."
    end = _ENDS.get(result.reason, result.reason)
    top = max(scores)
    tied = [p for p in range(s.n) if scores[p] == top]
    if seat in winners:
        shared = [COLOURS[p] for p in winners if p != seat]
        if len(tied) == 1:
            how = f"the most points ({top})"
        elif len(winners) < len(tied):
            how = (f"tied on {top} points and held the most expensive City Area card "
                   f"(${best_area_card(s, seat)})")
        else:
            how = (f"tied on {top} points, with equally expensive City Area cards "
                   f"(${best_area_card(s, seat)})")
        return (f"Won on points when {end}: {how}"
                + (f"; shares the win with {' and '.join(shared)}" if shared else "") + ".")
    if scores[seat] == top:
        return (f"Did not win: tied on {top} points, but "
                f"{' and '.join(COLOURS[p] for p in winners)} held a more expensive City Area "
                f"card (${best_area_card(s, winners[0])} against "
                f"${best_area_card(s, seat)}).")
    return f"Did not win: {top - scores[seat]} points behind the winner when {end}."


def determinize(s: AnkhMorporkState, seat: int, rng: Rng) -> AnkhMorporkState:
    """A full state that ``seat`` cannot tell from ``s``: hidden parts drawn from ``rng``.

    The pools re-dealt are computed from public facts (all cards minus the visible
    ones), never from where the hidden cards truly are.
    """
    d = s.sampling_copy(seat, rng)
    d.say(f"A world sampled for {COLOURS[seat]}: the earlier log is not carried over.")
    known = {seat} | revealed_hands(s, seat)
    visible = set(d.discard_pile) | set(d.in_play) | set(d.out_of_game)
    for p in range(d.n):
        visible |= set(d.in_front[p])
        if p in known:
            visible |= set(d.hands[p])
    pool = [c for c in range(len(CARDS)) if c not in visible]
    shuffle(rng, pool)
    for p in range(d.n):
        if p not in known:
            size = len(d.hands[p])
            d.hands[p] = pool[:size]
            del pool[:size]
    d.draw_pile = pool
    people = [p.index for p in PERSONALITIES
              if d.n > 2 or p.name not in TWO_PLAYER_REMOVED_PERSONALITIES]
    revealed = set(range(d.n)) if d.result is not None else {seat}
    for p in revealed:
        people.remove(d.personality[p])
    shuffle(rng, people)
    for p in range(d.n):
        if p not in revealed:
            d.personality[p] = people.pop()
        if p != seat:
            d.seen[p] = []
    d.unused_personalities = people
    events = sorted(set(range(len(EVENTS))) - set(d.events_done))
    shuffle(rng, events)
    d.events = events
    d.stack = [_redeal_frame(f, seat, d, rng) for f in d.stack]
    return d


def _redeal_frame(f: tuple[Any, ...], seat: int, d: AnkhMorporkState, rng: Rng) -> tuple[Any, ...]:
    """Stanley's two taken cards are known only to the taker: re-pick them for others."""
    if f[0] == "fx" and f[3] == "give_back" and f[1] != seat:
        hand = d.hands[f[1]]
        picks = list(hand)
        shuffle(rng, picks)
        return (*f[:5], *picks[: len(f) - 5])
    return f


STATE_HOOKS.view = view
STATE_HOOKS.determinize = determinize
