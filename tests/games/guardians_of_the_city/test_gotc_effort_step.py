"""Guardians of the City: the National Effort step with the facts in view (issue 29; rulebook
section 7 "Assign National Effort Levels", rulings 7-9 and 17; citywatch rulings 3 and 18).

The deciding seat's own view shows, per pillar, its hand's cards with their requirements and
which cards each level would make playable (the engine's own playability), and its column
follows the assignment pillar by pillar; no other view shows the half-made assignment."""

from __future__ import annotations

import random

from gotc_positions import act, effort, game_with, hand, load
from rich.console import Console

from citywatch.games.guardians_of_the_city.actions import EFFORT, KEEP_EFFORT
from citywatch.games.guardians_of_the_city.data import ACTION_CARDS, PILLARS
from citywatch.games.guardians_of_the_city.effects import playable
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.state import NONE, GotcState
from citywatch.games.guardians_of_the_city.terminal import summary
from citywatch.games.guardians_of_the_city.turn import effort_levels

State = GotcState
P1, P2 = 0, 1
VOLUNTEERISM = "Galvanised People (Volunteerism)"
RAIDS_HAND = ["Raids", VOLUNTEERISM, "Border Patrol", "Neighbourly Help"]


def at_effort(s: State) -> bool:
    """True if the seat to move is assigning National Effort."""
    return s.to_move is not None and s.stack[-1][0] == "effort"


def engine_lists(s: State, seat: int, levels: list[int]) -> tuple[set[str], set[str]]:
    """(cards playable alone, pairs "X with Y") by the engine's ``playable`` once ``levels``
    are the seat's effort."""
    t = s.copy()
    t.effort[seat] = list(levels)
    alone, pairs = set(), set()
    for card, g in playable(t, seat):
        if g == NONE:
            alone.add(ACTION_CARDS[card].name)
        else:
            pairs.add(f"{ACTION_CARDS[card].name} with {ACTION_CARDS[g].name}")
    return alone, pairs


def test_the_playable_lists_are_the_engines_playability_rulings_7_to_9() -> None:
    """Rulings 7-9: for every assignment made in random games, a card is listed as playable
    alone at its pillar's chosen level exactly when the engine lets it be played alone with
    that effort, and a pair "X with Y" is listed at both cards' pillars' chosen levels exactly
    when the engine lets the pair be played."""
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_game(2, seed)
        while s.to_move is not None and s.turn < 24:
            if not (at_effort(s) and not s.stack[-1][2]):
                actions = s.legal_actions()
                s.apply(actions[rng.randrange(len(actions))])
                continue
            seat = s.to_move
            table = s.view(seat)["own"]["effort_step"]["pillars"]
            start, levels = s.copy(), []
            while at_effort(s) and s.stack[-1] == ("effort", seat, tuple(levels)):
                choices = [a for a in s.legal_actions() if a.verb == EFFORT]
                pick = choices[rng.randrange(len(choices))]
                levels.append(pick.y)
                s.apply(pick)
            while len(levels) < len(PILLARS):  # a level left with one choice is taken at once
                forced = effort_levels(start, seat, tuple(levels))
                assert len(forced) == 1
                levels.append(forced[0])
            alone, pairs = engine_lists(start, seat, levels)
            listed = [set(table[i]["playable"][str(v)]) for i, v in enumerate(levels)]
            listed_alone = {x for i, names in enumerate(listed) for x in names
                            if " with " not in x}
            assert listed_alone == alone
            named_pairs = {x for names in listed for x in names if " with " in x}
            both = {x for x in named_pairs
                    if all(x in listed[ACTION_CARDS[c].pillar] for c in _cards_of(x))}
            assert both == pairs
            checked += 1
    assert checked >= 20


def _cards_of(pair: str) -> list[int]:
    card, galvanised = pair.split(" with ")
    return [c for c, a in enumerate(ACTION_CARDS) if a.name in (card, galvanised)]


def test_the_table_lists_the_hands_requirements_per_pillar_section_7() -> None:
    """Section 7 and ruling 8: the effort step lists each hand card under its pillar with its
    printed requirement, and from which level each becomes playable: Raids (Military 3+) from
    Military 3 alone, from Military 2 with Galvanised People (Volunteerism), which lowers its
    requirement by 1; Volunteerism's pairs are listed under Civil from its own 1+."""
    s = assigning()
    step = s.view(P1)["own"]["effort_step"]
    assert step["required"] == 12 and step["next"] == "Military" and step["assigned"] == {}
    rows = {row["pillar"]: row for row in step["pillars"]}
    assert {c["name"]: c["min_effort"] for c in rows["Military"]["cards"]} == {
        "Border Patrol": 1, "Raids": 3}
    assert rows["Civil"]["cards"] == [{"name": VOLUNTEERISM, "copies": 1, "min_effort": 1,
                                       "galvanised": True}]
    military = rows["Military"]["playable"]
    raids_paired = f"Raids with {VOLUNTEERISM}"
    assert military["1"] == ["Border Patrol", f"Border Patrol with {VOLUNTEERISM}"]
    assert "Raids" not in military["2"] and raids_paired in military["2"]
    assert "Raids" in military["3"] and raids_paired in military["3"]
    assert set(rows["Civil"]["playable"]["1"]) == {
        f"{card} with {VOLUNTEERISM}" for card in ("Raids", "Border Patrol", "Neighbourly Help")}
    assert rows["Economic"]["cards"] == [] and rows["Economic"]["playable"]["4"] == []


def assigning(decks: list[str] | None = None) -> State:
    """Player 1 at their set-up effort decision, effort 3-3-2-2-2 (Player 2 waits)."""
    pos = game_with(*RAIDS_HAND)
    hand(pos, P1, RAIDS_HAND)
    effort(pos, P1, "33222")
    s = load(pos)  # Player 2 goes first and keeps their effort
    while s.to_move != P1:
        act(s, "Keep your National Effort as it is")
    return s


def test_the_column_follows_the_assignment_citywatch_ruling_18() -> None:
    """Citywatch ruling 18: while Player 1 assigns pillar by pillar, their own view shows their
    column with the levels chosen so far (the rest as they were), names the pillars assigned,
    and judges the hand's requirements by it."""
    s = assigning()
    act(s, "Set Military effort to 1")
    me = s.view(P1)["seats"][P1]
    assert me["effort"] == {"Military": 1, "Civil": 3, "Economic": 2, "Social": 2,
                            "Psychological": 2}
    assert me["effective_effort"] == me["effort"]
    assert me["effort_assigned"] == ["Military"]
    own = s.view(P1)["own"]
    assert own["effort_step"]["assigned"] == {"Military": 1}
    assert own["effort_step"]["next"] == "Civil"
    met = {c["name"]: c["requirement_met"] for c in own["hand"]}
    assert met["Raids"] is False and met["Border Patrol"] is True
    act(s, "Set Civil effort to 4")
    me = s.view(P1)["seats"][P1]
    assert (me["effort"]["Military"], me["effort"]["Civil"]) == (1, 4)
    assert me["effort_assigned"] == ["Military", "Civil"]
    assert s.effort[P1] == [3, 3, 2, 2, 2]  # nothing is assigned until the last pillar


def test_no_other_view_shows_the_half_made_assignment_citywatch_ruling_18() -> None:
    """Citywatch ruling 18 (and ruling 17: effort is public once assigned): while Player 1
    assigns, Player 2's and a spectator's views show Player 1's effort as it was, no effort
    table and no assigned pillars; they change only in the decision's task ("Civil next");
    once the last pillar is set, every view shows the new effort."""
    s = assigning()
    before = {seat: s.view(seat) for seat in (P2, None)}
    act(s, "Set Military effort to 1", "Set Civil effort to 4")
    for seat in (P2, None):
        view = s.view(seat)
        assert view["seats"][P1]["effort"] == {"Military": 3, "Civil": 3, "Economic": 2,
                                               "Social": 2, "Psychological": 2}
        assert "effort_assigned" not in view["seats"][P1]
        assert view["own"] is None or "effort_step" not in view["own"]
        for key in view:
            if key != "decision":
                assert view[key] == before[seat][key], key
        assert {k: v for k, v in view["decision"].items() if k != "task"} == \
            {k: v for k, v in before[seat]["decision"].items() if k != "task"}
    act(s, "Set Economic effort to 2", "Set Social effort to 3")  # Psychological 2: forced
    assert s.view(P2)["seats"][P1]["effort"]["Civil"] == 4
    assert "effort_step" not in s.view(P1)["own"]


def test_keeping_the_effort_shows_it_as_it_is_ruling_3() -> None:
    """Ruling 3: before any pillar is chosen the column is the effort as it is, which may be
    kept; the effort table is there from the first pillar on."""
    s = assigning()
    view = s.view(P1)
    assert view["seats"][P1]["effort_assigned"] == []
    assert view["seats"][P1]["effort"] == s.view(P2)["seats"][P1]["effort"]
    assert any(a.verb == KEEP_EFFORT for a in s.legal_actions())


def test_the_terminal_shows_the_effort_facts_to_the_assigner_only_citywatch_ruling_18() -> None:
    """Citywatch ruling 18 in the terminal: the assigner's board summary shows one line per
    pillar within 80 columns (assigned levels with ``=``, the next with ``→``, the level from
    which each card becomes playable, ``+`` for one playable earlier only with a Galvanised
    People card); Player 2's shows none."""
    s = assigning()
    act(s, "Set Military effort to 2")
    console = Console(width=80, record=True, color_system=None)
    console.print(summary(s.view(P1)), no_wrap=True, overflow="ellipsis", crop=True)
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "Effort: 12 to assign; your cards playable from each level:" in lines
    military = next(line for line in lines if line.strip().startswith("Military ") and "│" in line)
    assert military.endswith("= 2 │ 1: Border Patrol · 2: Raids+Volunteerism · 3: Raids")
    assert "  Civil        → 3 │ 1: Volunteerism" in lines
    other = Console(width=80, record=True, color_system=None)
    other.print(summary(s.view(P2)), no_wrap=True, overflow="ellipsis", crop=True)
    assert "Effort:" not in other.export_text() and "│" not in other.export_text()
