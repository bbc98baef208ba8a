"""Guardians of the City: every Action card's effect and its limits, each from a position
(``gotc_positions``). Card texts are citywatch's stand-in cards; the rules cited are the
rulebook's sections and the rulings (``shared/reference/guardians-of-the-city/rulings.md``)."""

from __future__ import annotations

from gotc_positions import (
    Position,
    act,
    cells,
    crisis_top,
    discards,
    effort,
    game_with,
    hand,
    lasting,
    legal,
    load,
    reveal,
    shield,
    step2,
    subversive,
    support,
    task,
)

from citywatch.games.guardians_of_the_city.actions import Action
from citywatch.games.guardians_of_the_city.data import ACTION_BY_NAME, CRISIS_BY_NAME
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
P1, P2 = 0, 1


def card(name: str) -> int:
    """An Action card's index."""
    return ACTION_BY_NAME[name]


def table(*cards: str, level: str = "33222", strength: str = "666",
          groups: str = "4444", others: str = "") -> Position:
    """Player 1's Step 2 holding ``cards`` (all from one starter deck)."""
    pos = game_with(*cards, others=others)
    step2(pos, P1)
    hand(pos, P1, cards)
    effort(pos, P1, level)
    cells(pos, strength)
    support(pos, P1, groups)
    return pos


def plays(s: State) -> list[str]:
    return [t for t in legal(s) if t.startswith("Play ") and t != "Play no more Action cards"
            " this turn"]


# --- Military ---------------------------------------------------------------------------------
def test_border_patrol_reduces_a_chosen_surviving_cell_by_1() -> None:
    """Border Patrol (Military 1): one cell of the player's choice -1, 1 CT point (rulebook
    section 7 Step 2); an eliminated cell is not offered (ruling 15)."""
    s = load(table("Border Patrol", level="14322", strength="605"))
    act(s, "Play Border Patrol")
    assert legal(s) == ["Reduce The Harbour Network", "Reduce The Night Signal"]
    act(s, "Reduce The Night Signal")
    assert s.cells == [6, 0, 4] and s.ct[P1] == 1


def test_maritime_security_patrol_reduces_and_shields_but_needs_military_2() -> None:
    """Maritime Security Patrol (Military 2): -1 to a cell and a Shield of 1; with Military 1
    it cannot be played (ruling 7)."""
    s = load(table("Maritime Security Patrol", level="14322"))
    assert plays(s) == []
    s = load(table("Maritime Security Patrol", level="24222", strength="166"))
    act(s, "Play Maritime Security Patrol", "Reduce The Harbour Network")
    assert s.cells == [0, 6, 6] and s.ct[P1] == 1 and s.shield[P1] == 1


def test_raids_reduces_by_2_and_overkill_scores_nothing() -> None:
    """Raids (Military 3): -2 to one cell; a cell at 1 only gives 1 point (rulebook section 9,
    ruling 1); Military 2 cannot play it."""
    assert plays(load(table("Raids", level="23322"))) == []
    s = load(table("Raids", level="33222", strength="166"))
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.cells == [0, 6, 6] and s.ct[P1] == 1
    s = load(table("Raids", level="33222"))
    act(s, "Play Raids", "Reduce The Night Signal")
    assert s.cells == [6, 6, 4] and s.ct[P1] == 2


def test_joint_task_force_hits_two_different_cells_and_raises_with_civil_3() -> None:
    """Joint Task Force (Military 3): two different cells -1 each (one choice of a pair); with
    Civil 3+ also a chosen group +1; with Civil 2 no raise."""
    s = load(table("Joint Task Force", level="33222", groups="3444"))
    act(s, "Play Joint Task Force")
    assert sorted(legal(s)) == sorted([
        "Reduce The Harbour Network and The Grey Couriers",
        "Reduce The Harbour Network and The Night Signal",
        "Reduce The Grey Couriers and The Night Signal"])
    act(s, "Reduce The Harbour Network and The Night Signal", "Raise the support of Youth")
    assert s.cells == [5, 6, 5] and s.ct[P1] == 2
    assert s.support[P1] == [4, 4, 4, 4]
    s = load(table("Joint Task Force", level="32322", strength="066", groups="3444"))
    act(s, "Play Joint Task Force")  # only two cells survive: both, without a question
    assert s.cells == [0, 5, 5] and s.support[P1] == [3, 4, 4, 4]


def test_precision_strike_reduces_by_3_and_needs_military_4() -> None:
    """Precision Strike (Military 4): -3 to one cell; Military 3 cannot play it."""
    assert plays(load(table("Precision Strike", level="33222"))) == []
    s = load(table("Precision Strike", level="42222", strength="066"))
    act(s, "Play Precision Strike", "Reduce The Grey Couriers")
    assert s.cells == [0, 3, 6] and s.ct[P1] == 3


# --- Civil ------------------------------------------------------------------------------------
def test_first_aid_training_raises_the_weakest_group_ties_chosen_left_ones_never() -> None:
    """First Aid Training (Civil 1): the weakest surviving group +1; the owner breaks ties;
    a group that has left is not "weakest" and never rises (rulebook section 7, ruling 15)."""
    s = load(table("First Aid Training", level="32222", groups="0324"))
    act(s, "Play First Aid Training")
    assert s.support[P1] == [0, 3, 3, 4]
    s = load(table("First Aid Training", groups="2324"))
    act(s, "Play First Aid Training")
    assert legal(s) == ["Raise the support of Youth", "Raise the support of Families"]
    act(s, "Raise the support of Families")
    assert s.support[P1] == [2, 3, 3, 4]


def test_civil_defence_shelters_gives_a_shield_of_2() -> None:
    """Civil Defence Shelters (Civil 2): a Shield of 2 (it takes Crisis losses, ruling 15 and
    ``test_gotc_crisis_cards``); Civil 1 cannot play it."""
    assert plays(load(table("Civil Defence Shelters", level="41322"))) == []
    s = load(table("Civil Defence Shelters", level="32322"))
    act(s, "Play Civil Defence Shelters")
    assert s.shield[P1] == 2


def test_community_policing_reduces_and_raises_capped_at_4() -> None:
    """Community Policing (Civil 2): -1 to a cell and +1 to a chosen group, never above 4
    (rulebook section 9)."""
    s = load(table("Community Policing", level="32322", groups="4434"))
    act(s, "Play Community Policing", "Reduce The Grey Couriers")
    assert s.cells == [6, 5, 6]
    assert "Raise the support of Youth" in legal(s)
    act(s, "Raise the support of Youth")
    assert s.support[P1] == [4, 4, 3, 4]


def test_emergency_response_team_raises_two_groups_and_shields() -> None:
    """Emergency Response Team (Civil 3): two different groups +1 and a Shield of 1; Civil 2
    cannot play it."""
    assert plays(load(table("Emergency Response Team", level="32322"))) == []
    s = load(table("Emergency Response Team", level="23322", groups="2234"))
    act(s, "Play Emergency Response Team")
    assert len(legal(s)) == 6  # every pair of the four groups
    act(s, "Raise the support of Youth and Workers")
    assert s.support[P1] == [3, 3, 3, 4] and s.shield[P1] == 1


def test_restore_essential_services_raises_every_surviving_group() -> None:
    """Restore Essential Services (Civil 4): every surviving group +1 (max 4); a group that
    left stays out (ruling 15); Civil 3 cannot play it."""
    assert plays(load(table("Restore Essential Services", level="33222"))) == []
    s = load(table("Restore Essential Services", level="14222", groups="0341"))
    act(s, "Play Restore Essential Services")
    assert s.support[P1] == [0, 4, 4, 2]


# --- Economic ---------------------------------------------------------------------------------
def test_job_retraining_grants_raises_workers_and_one_more_with_economic_3() -> None:
    """Job Retraining Grants (Economic 1): Workers +1; with Economic 3+ also a chosen group;
    if the Workers have left, nothing for them."""
    s = load(table("Job Retraining Grants", level="32133", groups="3233"))
    act(s, "Play Job Retraining Grants")
    assert s.support[P1] == [3, 3, 3, 3]
    s = load(table("Job Retraining Grants", level="22332", groups="3233"))
    act(s, "Play Job Retraining Grants", "Raise the support of Seniors")
    assert s.support[P1] == [3, 3, 3, 4]
    s = load(table("Job Retraining Grants", level="22322", groups="4044"))
    act(s, "Play Job Retraining Grants", "Raise the support of Youth")
    assert s.support[P1] == [4, 0, 4, 4]


def test_resilient_supply_chains_raises_and_shields() -> None:
    """Resilient Supply Chains (Economic 2): a chosen group +1 and a Shield of 1; Economic 1
    cannot play it."""
    assert plays(load(table("Resilient Supply Chains", level="33123"))) == []
    s = load(table("Resilient Supply Chains", level="32232", groups="1444"))
    act(s, "Play Resilient Supply Chains", "Raise the support of Youth")
    assert s.support[P1] == [2, 4, 4, 4] and s.shield[P1] == 1


def test_freeze_terror_financing_reduces_by_2() -> None:
    """Freeze Terror Financing (Economic 3): -2 to a chosen cell; Economic 2 cannot play it."""
    assert plays(load(table("Freeze Terror Financing", level="33222"))) == []
    s = load(table("Freeze Terror Financing", level="22323", strength="626"))
    act(s, "Play Freeze Terror Financing", "Reduce The Grey Couriers")
    assert s.cells == [6, 0, 6] and s.ct[P1] == 2


def test_business_continuity_plans_raises_the_weakest_and_shields_2() -> None:
    """Business Continuity Plans (Economic 3): the weakest group +1 and a Shield of 2."""
    s = load(table("Business Continuity Plans", level="22332", groups="4413"))
    act(s, "Play Business Continuity Plans")
    assert s.support[P1] == [4, 4, 2, 3] and s.shield[P1] == 2
    assert plays(load(table("Business Continuity Plans", level="33222"))) == []


def test_national_reserves_raises_by_2_capped_and_shields_2() -> None:
    """National Reserves (Economic 4): a chosen group +2 (never above 4) and a Shield of 2."""
    assert plays(load(table("National Reserves", level="23322"))) == []
    s = load(table("National Reserves", level="22422", groups="3124"))
    act(s, "Play National Reserves", "Raise the support of Youth")
    assert s.support[P1] == [4, 1, 2, 4] and s.shield[P1] == 2


# --- Social -----------------------------------------------------------------------------------
def test_neighbourly_help_raises_a_chosen_group() -> None:
    """Neighbourly Help (Social 1): a chosen surviving group +1; left groups are not offered."""
    s = load(table("Neighbourly Help", level="33212", groups="0333"))
    act(s, "Play Neighbourly Help")
    assert legal(s) == ["Raise the support of Workers", "Raise the support of Families",
                        "Raise the support of Seniors"]
    act(s, "Raise the support of Seniors")
    assert s.support[P1] == [0, 3, 3, 4]


def test_community_bonding_event_raises_two_different_groups() -> None:
    """Community Bonding Event (Social 2): two different groups +1; Social 1 cannot play it."""
    assert plays(load(table("Community Bonding Event", level="33312"))) == []
    s = load(table("Community Bonding Event", level="22223", groups="3303"))
    act(s, "Play Community Bonding Event")
    assert len(legal(s)) == 3
    act(s, "Raise the support of Youth and Seniors")
    assert s.support[P1] == [4, 3, 0, 4]


def test_community_tip_off_reduces_again_with_psychological_3() -> None:
    """Community Tip-Off (Social 2): -1 to a cell, and with Psychological 3+ -1 more to a cell
    of the player's choice (the same one or another)."""
    s = load(table("Community Tip-Off", level="22323"))
    act(s, "Play Community Tip-Off", "Reduce The Harbour Network")
    act(s, "Reduce The Harbour Network")
    assert s.cells == [4, 6, 6] and s.ct[P1] == 2
    s = load(table("Community Tip-Off", level="33222"))
    act(s, "Play Community Tip-Off", "Reduce The Harbour Network")
    assert s.cells == [5, 6, 6] and s.ct[P1] == 1


def test_inter_faith_dialogue_raises_three_groups_or_all_that_survive() -> None:
    """Inter-Faith Dialogue (Social 3): three different groups +1; with only two surviving,
    both, without a question."""
    s = load(table("Inter-Faith Dialogue", level="22332", groups="1212"))
    act(s, "Play Inter-Faith Dialogue")
    assert len(legal(s)) == 4
    act(s, "Raise the support of Youth, Workers and Families")
    assert s.support[P1] == [2, 3, 2, 2]
    s = load(table("Inter-Faith Dialogue", level="22231", groups="1020"))
    act(s, "Play Inter-Faith Dialogue")
    assert s.support[P1] == [2, 0, 3, 0]


def test_harmony_festival_raises_all_and_shields_with_psychological_3() -> None:
    """Harmony Festival (Social 4): every group +1, and with Psychological 3+ a Shield of 1."""
    s = load(table("Harmony Festival", level="21243", groups="3344"))
    act(s, "Play Harmony Festival")
    assert s.support[P1] == [4, 4, 4, 4] and s.shield[P1] == 1
    s = load(table("Harmony Festival", level="22242", groups="3344"))
    act(s, "Play Harmony Festival")
    assert s.shield[P1] == 0
    assert plays(load(table("Harmony Festival", level="22233"))) == []


# --- Psychological ----------------------------------------------------------------------------
def test_public_reassurance_shields_1_or_2_with_psychological_3() -> None:
    """Public Reassurance (Psychological 1): a Shield of 1, or 2 with Psychological 3+."""
    s = load(table("Public Reassurance", level="33321"))
    act(s, "Play Public Reassurance")
    assert s.shield[P1] == 1
    s = load(table("Public Reassurance", level="32223"))
    act(s, "Play Public Reassurance")
    assert s.shield[P1] == 2


def test_counter_narrative_campaign_reduces_and_raises() -> None:
    """Counter-Narrative Campaign (Psychological 2): -1 to a cell, +1 to a group;
    Psychological 1 cannot play it."""
    assert plays(load(table("Counter-Narrative Campaign", level="33321"))) == []
    s = load(table("Counter-Narrative Campaign", level="33222", groups="4443"))
    act(s, "Play Counter-Narrative Campaign", "Reduce The Night Signal")
    assert legal(s)[0] == "Raise the support of Youth" and len(legal(s)) == 4
    act(s, "Raise the support of Seniors")
    assert s.cells == [6, 6, 5] and s.support[P1] == [4, 4, 4, 4]


def test_fact_check_network_raises_the_weakest_and_shields() -> None:
    """Fact-Check Network (Psychological 2): the weakest group +1 and a Shield of 1."""
    s = load(table("Fact-Check Network", level="33222", groups="4142"))
    act(s, "Play Fact-Check Network")
    assert s.support[P1] == [4, 2, 4, 2] and s.shield[P1] == 1


def test_resolute_spirit_reduces_by_2_and_raises() -> None:
    """Resolute Spirit (Psychological 3): -2 to a cell and +1 to a group; Psychological 2
    cannot play it."""
    assert plays(load(table("Resolute Spirit", level="33222"))) == []
    s = load(table("Resolute Spirit", level="22233", groups="3444"))
    act(s, "Play Resolute Spirit", "Reduce The Grey Couriers", "Raise the support of Youth")
    assert s.cells == [6, 4, 6] and s.support[P1] == [4, 4, 4, 4]


def test_deradicalisation_programme_reduces_by_2_and_raises_the_weakest() -> None:
    """Deradicalisation Programme (Psychological 4): -2 and the weakest group +1."""
    assert plays(load(table("Deradicalisation Programme", level="22233"))) == []
    s = load(table("Deradicalisation Programme", level="22224", groups="4434"))
    act(s, "Play Deradicalisation Programme", "Reduce The Harbour Network")
    assert s.cells == [4, 6, 6] and s.support[P1] == [4, 4, 4, 4]


def test_special_intelligence_removes_a_subversive_and_scores_2() -> None:
    """Special Intelligence (Psychological 2; rulebook section 8, ruling 9): playable only
    while a Subversive is active; removes the chosen one, whoever drew it, to its drawer's
    Crisis discard pile; goes to the Score pile, worth 2 points and the tie-break; it counts
    toward the 2-card limit."""
    pos = table("Special Intelligence", "Border Patrol", level="33222")
    assert plays(load(pos)) == ["Play Border Patrol"]
    subversive(pos, P1, "Subversive (Disrupt)")
    subversive(pos, P2, "Subversive (Intimidate)")
    s = load(pos)
    act(s, "Play Special Intelligence")
    assert legal(s) == ["Remove Subversive (Disrupt) from in front of Player 1",
                        "Remove Subversive (Intimidate) from in front of Player 2"]
    act(s, "Remove Subversive (Intimidate) from in front of Player 2")
    si = card("Special Intelligence")
    assert s.subversive[P2] == -1
    assert s.crisis_discard[P2][-1] == CRISIS_BY_NAME["Subversive (Intimidate)"]
    assert s.score_pile[P1] == [si] and si not in s.action_discard[P1]
    assert s.score(P1) == 16 + 2 and s.special_intelligence_used(P1) == 1
    assert s.plays == 1
    pos = table("Special Intelligence", level="33321")
    subversive(pos, P2, "Subversive (Intimidate)")
    assert plays(load(pos)) == []  # Psychological 1


# --- Galvanised People (rulebook section 8, ruling 8) -----------------------------------------
def test_galvanised_people_loyalty_protects_the_raised_groups_until_the_next_turn() -> None:
    """Galvanised People (Loyalty): only with a card that raises support; the groups it
    targeted lose nothing (the Shield is not spent) until the start of the owner's next turn,
    when the card goes to the discard pile (ruling 6)."""
    loyalty = "Galvanised People (Loyalty)"
    s = load(table(loyalty, "Raids", "Neighbourly Help"))
    assert sorted(plays(s)) == ["Play Neighbourly Help", f"Play Neighbourly Help with {loyalty}",
                                "Play Raids"]
    act(s, f"Play Neighbourly Help with {loyalty}", "Raise the support of Workers")
    assert [e.card for e in s.lasting[P1]] == [card(loyalty)]
    assert s.lasting[P1][0].protect == 0b10 and card(loyalty) not in s.action_discard[P1]
    pos = table(loyalty, "Neighbourly Help", level="33312", groups="2422")
    lasting(pos, P1, loyalty, "Neighbourly Help", protect=["Workers"])
    shield(pos, P1, 1)
    crisis_top(pos, P1, ["Hate Speech Online"])
    reveal(pos, P1)
    s = load(pos)  # the lowest Social loses 1 in the strongest group: Workers, protected
    assert s.support[P1] == [2, 4, 2, 2] and s.shield[P1] == 1


def test_galvanised_people_conservation_takes_a_card_back_but_never_special_intelligence(
) -> None:
    """Galvanised People (Conservation): after the paired card is discarded, take up to one
    card back from the discard pile (the paired card itself too), never Special Intelligence
    (rulebook section 8); the card taken back is known to everybody."""
    pos = table("Galvanised People (Conservation)", "Border Patrol", level="33222")
    discards(pos, P1, ["Raids"])
    s = load(pos)
    act(s, "Play Border Patrol with Galvanised People (Conservation)",
        "Reduce The Harbour Network")
    assert legal(s) == ["Take Border Patrol back from your discard pile",
                        "Take Raids back from your discard pile", "Take no card back"]
    act(s, "Take Raids back from your discard pile")
    assert s.hand[P1] == [card("Raids")] and s.known[P1] == [card("Raids")]
    assert card("Galvanised People (Conservation)") in s.action_discard[P1]  # not lasting
    assert s.view(P2)["seats"][P1]["known_in_hand"] == ["Raids"]
    pos = table("Galvanised People (Conservation)", "Special Intelligence", level="33222")
    subversive(pos, P2, "Subversive (Intimidate)")
    s = load(pos)
    act(s, "Play Special Intelligence with Galvanised People (Conservation)")
    assert task(s)[0] != "return"  # nothing but Special Intelligence could come back
    assert s.score_pile[P1] == [card("Special Intelligence")]


def test_galvanised_people_unity_adds_1_to_top_level_reductions_and_raises() -> None:
    """Galvanised People (Unity): with a card that reduces a cell or raises support, each such
    top-level amount +1; a nested if_effort op is not changed; not with a Shield-only card."""
    s = load(table("Galvanised People (Unity)", "Civil Defence Shelters", "Community Tip-Off",
                   level="22233", groups="2444"))
    assert "Play Civil Defence Shelters with Galvanised People (Unity)" not in plays(s)
    act(s, "Play Community Tip-Off with Galvanised People (Unity)",
        "Reduce The Harbour Network", "Reduce The Grey Couriers")
    assert s.cells == [4, 5, 6] and s.ct[P1] == 3
    s = load(table("Galvanised People (Unity)", "Counter-Narrative Campaign", level="22332",
                   groups="2444"))
    act(s, "Play Counter-Narrative Campaign with Galvanised People (Unity)",
        "Reduce The Night Signal", "Raise the support of Youth")
    assert s.cells == [6, 6, 4] and s.support[P1] == [4, 4, 4, 4]


def test_galvanised_people_vigilance_freezes_the_reduced_cells() -> None:
    """Galvanised People (Vigilance): with a card that reduces a cell; until the owner's next
    turn the cells it reduced are not raised by Crisis cards."""
    s = load(table("Galvanised People (Vigilance)", "Raids", "Neighbourly Help",
                   level="33222"))
    assert "Play Neighbourly Help with Galvanised People (Vigilance)" not in plays(s)
    act(s, "Play Raids with Galvanised People (Vigilance)", "Reduce The Grey Couriers")
    assert s.lasting[P1][0].frozen == 0b010 and s.frozen_cells() == 0b010
    pos = table("Neighbourly Help", strength="646", others="vanguard")
    lasting(pos, P1, "Galvanised People (Vigilance)", "Raids", frozen=["The Grey Couriers"])
    crisis_top(pos, P1, ["Terror Recruitment Drive"])
    reveal(pos, P1)
    s = load(pos)
    assert s.cells == [6, 4, 6]


def test_galvanised_people_readiness_boosts_effort_only_against_crisis_cards() -> None:
    """Galvanised People (Readiness): the paired card's pillar counts 1 higher (at most 4) for
    Crisis and Subversive conditions until the owner's next turn; printed effort, Action
    requirements and if_effort are unchanged (ruling 4)."""
    s = load(table("Galvanised People (Readiness)", "First Aid Training", "Raids",
                   level="32232", groups="3444"))
    act(s, "Play First Aid Training with Galvanised People (Readiness)")
    assert s.lasting[P1][0].boost_pillar == 1 and s.effective(P1, 1) == 3
    assert s.effort[P1][1] == 2 and "Play Raids" in plays(s)
    pos = table("Neighbourly Help", level="31422")
    lasting(pos, P1, "Galvanised People (Readiness)", "First Aid Training",
            boost=("Civil", 1))
    crisis_top(pos, P1, ["Island-Wide Blackout"])
    reveal(pos, P1)
    s = load(pos)
    assert s.support[P1] == [4, 4, 4, 4]  # Civil counts as 2: the blackout passes


def test_galvanised_people_volunteerism_lowers_the_requirement_by_1_never_below_1() -> None:
    """Galvanised People (Volunteerism): the paired card needs 1 less effort (never less
    than 1); it does not count toward the 2-card limit (ruling 8)."""
    s = load(table("Galvanised People (Volunteerism)", "Raids", "Border Patrol",
                   "Neighbourly Help", level="22323"))
    assert "Play Raids" not in plays(s)
    assert "Play Raids with Galvanised People (Volunteerism)" in plays(s)
    act(s, "Play Raids with Galvanised People (Volunteerism)", "Reduce The Harbour Network")
    assert s.cells == [4, 6, 6] and s.plays == 1
    act(s, "Play Border Patrol", "Reduce The Harbour Network")
    assert s.plays == 2 and task(s)[0] == "step4"
    s = load(table("Galvanised People (Volunteerism)", "Raids", level="13323"))
    assert plays(s) == []  # Raids needs 3, lowered to 2, but Military is 1


def test_galvanised_people_harmony_reaches_one_more_chosen_or_weakest_group() -> None:
    """Galvanised People (Harmony): with a card raising a chosen or the weakest group, one more
    different group is raised; not with a card raising each group or a named one."""
    s = load(table("Galvanised People (Harmony)", "First Aid Training",
                   "Job Retraining Grants", level="32322", groups="2134"))
    assert plays(s) == ["Play First Aid Training",
                        "Play First Aid Training with Galvanised People (Harmony)",
                        "Play Job Retraining Grants"]
    act(s, "Play First Aid Training with Galvanised People (Harmony)")
    assert s.support[P1] == [3, 2, 3, 4]


def test_galvanised_people_resilience_adds_2_to_a_shield_and_stays_as_a_reminder() -> None:
    """Galvanised People (Resilience): with a card that gives a Shield at top level, the
    Shield is 2 larger; the card stays face-up until the owner's next turn."""
    resilience = "Galvanised People (Resilience)"
    s = load(table(resilience, "Civil Defence Shelters", "Harmony Festival", level="13143"))
    assert sorted(plays(s)) == ["Play Civil Defence Shelters",
                                f"Play Civil Defence Shelters with {resilience}",
                                "Play Harmony Festival"]  # its Shield is not at top level
    act(s, f"Play Civil Defence Shelters with {resilience}")
    assert s.shield[P1] == 4 and [e.card for e in s.lasting[P1]] == [card(resilience)]


def test_galvanised_cards_need_their_own_requirement_and_never_play_alone() -> None:
    """Ruling 8: a Galvanised card is played only with an ordinary card and needs its own
    requirement met."""
    s = load(table("Galvanised People (Resilience)", "Civil Defence Shelters",
                   level="32322"))
    assert plays(s) == ["Play Civil Defence Shelters"]
    assert Action("play", card("Galvanised People (Resilience)")) not in s.legal_actions()
