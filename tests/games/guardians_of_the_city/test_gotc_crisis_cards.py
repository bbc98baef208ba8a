"""Guardians of the City: every Crisis card's effect and its limits, each from a position
(``gotc_positions``): who it hits (rulebook section 7 Step 3; rulings 11-12), what it does, and
what it cannot do (limits of rulebook section 9, ruling 15)."""

from __future__ import annotations

from gotc_positions import (
    Position,
    act,
    action_deck,
    cells,
    crisis_top,
    effort,
    game_with,
    hand,
    lasting,
    legal,
    load,
    reveal,
    seat,
    shield,
    step2,
    subversive,
    support,
    task,
    triggers,
)

from citywatch.games.guardians_of_the_city.data import ACTION_BY_NAME, CRISIS_BY_NAME
from citywatch.games.guardians_of_the_city.scoring import ACTION_DECK_OUT
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
P1, P2 = 0, 1


def crisis(name: str, mine: str, theirs: str, groups: str = "4444", others: str = "4444",
           strength: str = "666") -> Position:
    """Player 1 reveals ``name`` with effort ``mine`` against Player 2's ``theirs``."""
    pos = game_with(name)
    effort(pos, P1, mine)
    effort(pos, P2, theirs)
    support(pos, P1, groups)
    support(pos, P2, others)
    cells(pos, strength)
    crisis_top(pos, P1, [name])
    return reveal(pos, P1)


def striking(name: str, owner: int, mine: str, theirs: str, groups: str = "4444",
             others: str = "4444", strength: str = "666") -> Position:
    """The Subversive ``name`` in front of ``owner`` strikes at the end of Player 1's Step 3."""
    pos = game_with(name)
    effort(pos, P1, mine)
    effort(pos, P2, theirs)
    support(pos, P1, groups)
    support(pos, P2, others)
    cells(pos, strength)
    subversive(pos, owner, name)
    return triggers(pos, P1)


# --- Military ---------------------------------------------------------------------------------
def test_border_incursion_raises_the_weakest_cell_and_hits_the_lowest_military() -> None:
    """Border Incursion: the weakest surviving cell +1, and every player tied for the lowest
    Military loses 1 in a group of their choice, the active player choosing first (ruling
    12); tied weakest cells are chosen by the active player."""
    s = load(crisis("Border Incursion", "23322", "24222", strength="646"))
    assert s.cells == [6, 5, 6]
    assert task(s) == ("groups", "Player 1")
    act(s, "Lose support in Seniors")
    assert task(s) == ("groups", "Player 2")
    act(s, "Lose support in Youth")
    assert s.support == [[4, 4, 4, 3], [3, 4, 4, 4]]
    s = load(crisis("Border Incursion", "13422", "24222", strength="505"))
    assert task(s) == ("cells", "Player 1")
    assert legal(s) == ["Raise The Harbour Network", "Raise The Night Signal"]
    act(s, "Raise The Night Signal", "Lose support in Youth")
    assert s.cells == [5, 0, 6] and s.support[P2] == [4, 4, 4, 4]


def test_armed_standoff_hits_military_1_in_two_different_groups() -> None:
    """Armed Standoff: Military 1 loses 1 in each of two chosen groups; Military 2 is safe."""
    s = load(crisis("Armed Standoff", "14322", "23322"))
    assert task(s) == ("groups", "Player 1") and len(legal(s)) == 6
    act(s, "Lose support in Workers and Seniors")
    assert s.support == [[4, 3, 4, 3], [4, 4, 4, 4]]


def test_overstretched_forces_hits_military_4_and_readiness_can_reach_it() -> None:
    """Overstretched Forces: Military 4 loses 1 in a chosen group; Military 3 is safe unless
    Readiness lifts it to 4 against Crisis cards (ruling 4)."""
    s = load(crisis("Overstretched Forces", "42222", "33222"))
    act(s, "Lose support in Youth")
    assert s.support == [[3, 4, 4, 4], [4, 4, 4, 4]]
    pos = crisis("Overstretched Forces", "33222", "33222")
    lasting(pos, P2, "Galvanised People (Readiness)", "Raids", boost=("Military", 1))
    s = load(pos)
    assert task(s) == ("groups", "Player 2")


def test_terror_recruitment_drive_raises_by_2_capped_at_6() -> None:
    """Terror Recruitment Drive: the weakest cell +2, never above 6 (ruling 15); Military 1
    loses 1 in a chosen group."""
    s = load(crisis("Terror Recruitment Drive", "23322", "14322", strength="565"))
    assert legal(s) == ["Raise The Harbour Network", "Raise The Night Signal"]
    act(s, "Raise The Harbour Network", "Lose support in Families")
    assert s.cells == [6, 6, 5] and s.support == [[4, 4, 4, 4], [4, 4, 3, 4]]


# --- Civil ------------------------------------------------------------------------------------
def test_flash_floods_hits_every_player_tied_for_the_lowest_civil() -> None:
    """Flash Floods: all players tied for the lowest Civil lose 1 in a chosen group (rulebook
    section 7 Step 3: all tied players are affected)."""
    s = load(crisis("Flash Floods", "32322", "32322"))
    act(s, "Lose support in Youth", "Lose support in Workers")
    assert s.support == [[3, 4, 4, 4], [4, 3, 4, 4]]
    s = load(crisis("Flash Floods", "33222", "32322"))
    assert task(s) == ("groups", "Player 2")


def test_island_wide_blackout_hits_every_group_and_a_group_leaving_lowers_effort() -> None:
    """Island-Wide Blackout: Civil 1 loses 1 in every group; a group at 0 leaves and its owner
    lowers one pillar by 1 at once (rulings 5, 15)."""
    s = load(crisis("Island-Wide Blackout", "41322", "33222", groups="1244"))
    assert task(s) == ("lower", "Player 1")
    assert legal(s) == ["Lower Military effort by 1 (a Citizen Group has left)",
                        "Lower Economic effort by 1 (a Citizen Group has left)",
                        "Lower Social effort by 1 (a Citizen Group has left)",
                        "Lower Psychological effort by 1 (a Citizen Group has left)"]
    act(s, "Lower Economic effort by 1 (a Citizen Group has left)")
    assert s.support[P1] == [0, 1, 3, 3] and s.effort[P1] == [4, 1, 2, 2, 2]
    assert s.support[P2] == [4, 4, 4, 4]


def test_disease_outbreak_hits_the_strongest_group_ties_chosen_by_the_owner() -> None:
    """Disease Outbreak: the lowest Civil loses 1 in their strongest group."""
    s = load(crisis("Disease Outbreak", "42222", "33222", groups="1234"))
    assert s.support[P1] == [1, 2, 3, 3]
    s = load(crisis("Disease Outbreak", "42222", "33222", groups="4434"))
    assert legal(s) == ["Lose support in Youth", "Lose support in Workers",
                        "Lose support in Seniors"]


def test_transport_breakdown_discards_a_chosen_card_from_civil_2_or_less() -> None:
    """Transport Breakdown: Civil 2 or less discards 1 Action card of their choice; an empty
    hand discards nothing and is refilled only in its own Step 4 (ruling 16)."""
    pos = crisis("Transport Breakdown", "32322", "23322")
    hand(pos, P1, ["Raids", "Border Patrol", "Raids"])
    s = load(pos)
    assert task(s) == ("discard", "Player 1")
    assert legal(s) == ["Discard Border Patrol", "Discard Raids"]
    act(s, "Discard Raids")
    assert sorted(s.hand[P1]) == [0, 2] and s.action_discard[P1][-1] == 2
    assert len(s.hand[P2]) == 4
    pos = crisis("Transport Breakdown", "33222", "32322")
    hand(pos, P2, [])
    s = load(pos)
    assert s.hand[P2] == [] and task(s)[0] == "step4"


# --- Economic ---------------------------------------------------------------------------------
def test_market_crash_costs_support_and_a_card() -> None:
    """Market Crash: the lowest Economic loses 1 in a chosen group, then discards 1 card."""
    pos = crisis("Market Crash", "33222", "33123")
    hand(pos, P2, ["Raids", "Resolute Spirit"])
    s = load(pos)
    act(s, "Lose support in Seniors", "Discard Resolute Spirit")
    assert s.support[P2] == [4, 4, 4, 3] and s.hand[P2] == [ACTION_BY_NAME["Raids"]]


def test_panic_buying_discards_the_top_two_and_an_empty_deck_ends_the_game() -> None:
    """Panic Buying: Economic 2 or less discards the top 2 cards of their Action deck; if
    that empties it the game ends after the card and that player loses (ruling 18 (a))."""
    pos = crisis("Panic Buying", "33321", "33222")
    s = load(pos)
    assert len(s.action_deck[P2]) == 44 and len(s.action_discard[P2]) == 2
    assert len(s.action_deck[P1]) == 46
    pos = crisis("Panic Buying", "33321", "33222")
    action_deck(pos, P2, ["Raids", "Border Patrol"])
    s = load(pos)
    assert s.result is not None and s.result.reason == ACTION_DECK_OUT
    assert s.result.winners == (P1,)


def test_retrenchment_wave_hits_workers_only_while_they_remain() -> None:
    """Retrenchment Wave: the lowest Economic loses 1 in Workers; if the Workers have left,
    nothing happens to that player."""
    s = load(crisis("Retrenchment Wave", "33123", "33222"))
    assert s.support[P1] == [4, 3, 4, 4]
    s = load(crisis("Retrenchment Wave", "32123", "33222", groups="4044"))
    assert s.support[P1] == [4, 0, 4, 4] and s.support[P2] == [4, 4, 4, 4]


def test_cyber_attack_on_banks_hits_economic_1_in_two_groups() -> None:
    """Cyber Attack on Banks: Economic 1 loses 1 in two chosen groups; Economic 2 is safe."""
    s = load(crisis("Cyber Attack on Banks", "33222", "43113"))
    assert task(s) == ("groups", "Player 2")
    act(s, "Lose support in Youth and Families")
    assert s.support == [[4, 4, 4, 4], [3, 4, 3, 4]]


# --- Social -----------------------------------------------------------------------------------
def test_divisive_rumours_hits_the_lowest_social() -> None:
    """Divisive Rumours: the lowest Social loses 1 in a chosen group."""
    s = load(crisis("Divisive Rumours", "33312", "23322"))
    act(s, "Lose support in Families")
    assert s.support == [[4, 4, 3, 4], [4, 4, 4, 4]]


def test_communal_tensions_hits_social_1_in_two_groups_or_all_left() -> None:
    """Communal Tensions: Social 1 loses 1 in two chosen groups; with one group left, that
    one (rulebook section 9: a group can fall to 0 and leave)."""
    s = load(crisis("Communal Tensions", "33312", "33312"))
    act(s, "Lose support in Youth and Workers", "Lose support in Families and Seniors")
    assert s.support == [[3, 3, 4, 4], [4, 4, 3, 3]]
    s = load(crisis("Communal Tensions", "22212", "33222", groups="0010"))
    assert s.result is not None and s.support[P1] == [0, 0, 0, 0]


def test_hate_speech_online_hits_the_strongest_group_of_the_lowest_social() -> None:
    """Hate Speech Online: the lowest Social loses 1 in their strongest group."""
    s = load(crisis("Hate Speech Online", "33222", "33312", others="2341"))
    assert s.support[P2] == [2, 3, 3, 1]


def test_isolated_elderly_hits_seniors_of_the_lowest_social() -> None:
    """Isolated Elderly: the lowest Social loses 1 in Seniors (tied players both)."""
    s = load(crisis("Isolated Elderly", "33222", "33222"))
    assert s.support == [[4, 4, 4, 3], [4, 4, 4, 3]]


# --- Psychological ----------------------------------------------------------------------------
def test_fear_mongering_hits_psychological_2_or_less_in_turn_order() -> None:
    """Fear Mongering: Psychological 2 or less loses 1 in a chosen group, each affected player
    choosing in turn order from the active player (ruling 12); Psychological 3 is safe."""
    s = load(crisis("Fear Mongering", "33222", "22332"))
    assert task(s) == ("groups", "Player 1")
    act(s, "Lose support in Youth")
    assert task(s) == ("groups", "Player 2")
    act(s, "Lose support in Youth")
    s = load(crisis("Fear Mongering", "32223", "22332"))
    assert task(s) == ("groups", "Player 2")


def test_fake_news_wave_hits_the_strongest_group_of_the_lowest_psychological() -> None:
    """Fake News Wave: the lowest Psychological loses 1 in their strongest group."""
    s = load(crisis("Fake News Wave", "33321", "33222", groups="3433"))
    assert s.support == [[3, 3, 3, 3], [4, 4, 4, 4]]


def test_online_radicalisation_raises_the_weakest_and_hits_psychological_1() -> None:
    """Online Radicalisation: the weakest cell +1; Psychological 1 loses 1 in a chosen
    group."""
    s = load(crisis("Online Radicalisation", "33321", "33222", strength="603"))
    act(s, "Lose support in Youth")
    assert s.cells == [6, 0, 4] and s.support[P1] == [3, 4, 4, 4]


def test_youth_disillusionment_hits_youth_of_the_lowest_psychological() -> None:
    """Youth Disillusionment: the lowest Psychological loses 1 in Youth."""
    s = load(crisis("Youth Disillusionment", "33222", "33321"))
    assert s.support == [[4, 4, 4, 4], [3, 4, 4, 4]]


def test_coordinated_terror_plot_raises_every_surviving_cell() -> None:
    """Coordinated Terror Plot: every surviving cell +1 (never above 6); an eliminated cell is
    never raised again (rulebook section 7 Step 2, ruling 15)."""
    s = load(crisis("Coordinated Terror Plot", "33222", "33222", strength="605"))
    assert s.cells == [6, 0, 6]


# --- Subversives (rulebook section 8; rulings 13-14) ------------------------------------------
def test_subversive_disrupt_limits_civil_2_or_less_to_one_card_plus_galvanised() -> None:
    """Subversive (Disrupt): becomes active in front of its revealer, replacing their old one
    (ruling 13); while active a player with Civil 2 or less plays at most 1 non-Galvanised
    card, a Galvanised card still rides along (ruling 8)."""
    pos = crisis("Subversive (Disrupt)", "33222", "33222")
    subversive(pos, P1, "Subversive (Intimidate)")
    s = load(pos)
    assert s.subversive[P1] == CRISIS_BY_NAME["Subversive (Disrupt)"]
    assert s.crisis_discard[P1] == [CRISIS_BY_NAME["Subversive (Intimidate)"]]
    pos = game_with("Subversive (Disrupt)", "Galvanised People (Volunteerism)")
    subversive(pos, P2, "Subversive (Disrupt)")
    step2(pos, P1)
    effort(pos, P1, "32322")
    hand(pos, P1, ["Border Patrol", "Border Patrol", "Galvanised People (Volunteerism)",
                   "Neighbourly Help"])
    s = load(pos)
    act(s, "Play Border Patrol with Galvanised People (Volunteerism)",
        "Reduce The Harbour Network")
    assert task(s)[0] == "step4" and s.plays == 1
    effort(pos, P1, "33222")
    s = load(pos)
    act(s, "Play Border Patrol", "Reduce The Harbour Network")
    assert task(s)[0] == "play"


def test_subversive_deceive_weakens_reductions_down_to_1() -> None:
    """Subversive (Deceive): a player with Psychological 2 or less reduces cells by 1 less,
    never below 1."""
    pos = game_with("Subversive (Deceive)", "Raids", "Border Patrol")
    subversive(pos, P2, "Subversive (Deceive)")
    step2(pos, P1)
    effort(pos, P1, "33222")
    hand(pos, P1, ["Raids", "Border Patrol", "Neighbourly Help"])
    s = load(pos)
    act(s, "Play Raids", "Reduce The Harbour Network")
    act(s, "Play Border Patrol", "Reduce The Harbour Network")
    assert s.cells == [4, 6, 6] and s.ct[P1] == 2
    effort(pos, P1, "32223")
    s = load(pos)
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.cells == [4, 6, 6]


def test_subversive_divide_strikes_the_lowest_social_every_turn() -> None:
    """Subversive (Divide): at the end of every turn's Step 3 the lowest Social loses 1 in a
    chosen group, whoever drew it (ruling 14)."""
    s = load(striking("Subversive (Divide)", P2, "33312", "33222"))
    act(s, "Lose support in Seniors")
    assert s.support == [[4, 4, 4, 3], [4, 4, 4, 4]]


def test_subversive_sabotage_mills_economic_1_every_turn() -> None:
    """Subversive (Sabotage): every turn, Economic 1 discards the top card of their Action
    deck."""
    pos = striking("Subversive (Sabotage)", P1, "33222", "43113")
    top = seat(pos, P2)["action_deck"][-1]
    s = load(pos)
    assert len(s.action_deck[P2]) == 45 and len(s.action_deck[P1]) == 46
    assert s.action_discard[P2] == [ACTION_BY_NAME[top]]


def test_subversive_infiltrate_raises_the_weakest_if_anyone_has_military_1() -> None:
    """Subversive (Infiltrate): every turn, if any player's Military is 1, the weakest cell +1
    once; otherwise nothing."""
    s = load(striking("Subversive (Infiltrate)", P1, "14322", "14322", strength="465"))
    assert s.cells == [5, 6, 5]
    s = load(striking("Subversive (Infiltrate)", P1, "23322", "23322", strength="465"))
    assert s.cells == [4, 6, 5]


def test_subversive_radicalise_hits_the_strongest_group_of_psychological_1() -> None:
    """Subversive (Radicalise): every turn, Psychological 1 loses 1 in their strongest
    group; the Shield takes it first (ruling 15)."""
    pos = striking("Subversive (Radicalise)", P2, "33321", "33222", groups="1342")
    s = load(pos)
    assert s.support[P1] == [1, 3, 3, 2]
    shield(pos, P1, 1)
    s = load(pos)
    assert s.support[P1] == [1, 3, 4, 2] and s.shield[P1] == 0


def test_subversive_intimidate_hits_military_1_every_turn() -> None:
    """Subversive (Intimidate): every turn, Military 1 loses 1 in a chosen group."""
    s = load(striking("Subversive (Intimidate)", P1, "33222", "14322"))
    assert task(s) == ("groups", "Player 2")
    act(s, "Lose support in Workers")
    assert s.support[P2] == [4, 3, 4, 4]
