"""Guardians of the City: set-up and the four steps of a turn (rulebook sections 2, 5-9;
rulings 1-16), each from a position (``gotc_positions``) or a fresh game."""

from __future__ import annotations

import pytest
from gotc_positions import (
    act,
    base,
    cells,
    crisis_deck,
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
    step4,
    subversive,
    support,
    task,
    triggers,
)

from citywatch.core.errors import IllegalAction
from citywatch.games.guardians_of_the_city.actions import Action
from citywatch.games.guardians_of_the_city.data import ACTION_BY_NAME, CRISIS_BY_NAME
from citywatch.games.guardians_of_the_city.decks import STARTER_DECKS
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
P1, P2, P3 = 0, 1, 2


def keep_all(s: State) -> None:
    """Every seat keeps its set-up effort."""
    while s.turn == 0:
        act(s, "Keep your National Effort as it is")


# --- set-up ---------------------------------------------------------------------------------
def test_players_2_to_4_each_with_their_own_decks() -> None:
    """Rulebook section 2 (2, 3 or 4 players, each with a personal set): other counts are
    refused; each seat plays its own deck (citywatch ruling 4: starter decks by default)."""
    for players in (1, 5):
        with pytest.raises(ValueError, match="2 to 4 players"):
            GAME.new_game(players, 1)
    s = GAME.new_game(4, 1)
    assert [d.id for d in s.decks] == [d.id for d in STARTER_DECKS]


def test_set_up_shuffles_deals_4_and_draws_the_first_player_at_random() -> None:
    """Rulebook section 5 and section 4 rule 4 (decks shuffled), rulings 2-3 and citywatch
    ruling 1: each player holds 4 Action cards, 46 + 40 cards wait face down in random order,
    and the first player is drawn at random; citywatch ruling 2: effort starts at the deck's
    suggestion."""
    firsts = set()
    orders = set()
    for seed in range(12):
        s = GAME.new_game(3, seed)
        firsts.add(s.first)
        orders.add(tuple(s.action_deck[P1]))
        assert [len(h) for h in s.hand] == [4, 4, 4]
        assert [len(d) for d in s.action_deck] == [46, 46, 46]
        assert [len(d) for d in s.crisis_deck] == [40, 40, 40]
        assert s.cells == [6, 6, 6] and s.support[P2] == [4, 4, 4, 4]
        assert s.effort[P1] == list(STARTER_DECKS[0].suggested_effort)
        assert task(s) == ("effort", f"Player {s.first + 1}")
    assert firsts == {0, 1, 2} and len(orders) == 12


def test_set_up_effort_is_assigned_in_turn_order_before_the_first_turn() -> None:
    """Ruling 3 and citywatch rulings 2-3: at set-up each player, from the first, assigns 12
    effort (1-4 per pillar) pillar by pillar or keeps the suggestion; then the first turn."""
    s = GAME.new_game(2, 3)
    first = s.first
    assert legal(s)[0] == "Keep your National Effort as it is"
    act(s, "Set Military effort to 4", "Set Civil effort to 4")
    assert legal(s) == ["Set Economic effort to 1", "Set Economic effort to 2"]
    act(s, "Set Economic effort to 2")
    assert s.effort[first] == [4, 4, 2, 1, 1]  # Social and Psychological had one level left
    assert task(s) == ("effort", f"Player {2 - first}")
    act(s, "Keep your National Effort as it is")
    assert s.turn == 1 and s.current == first and task(s) == ("effort", f"Player {first + 1}")


def test_set_up_effort_counts_against_crises_before_a_players_first_turn() -> None:
    """Ruling 3: the effort assigned at set-up is what the first player's Crisis cards read for
    the players who have not had a turn."""
    pos = crisis_deck(game_with("Fear Mongering"), P1, ["Fear Mongering", "Fear Mongering"])
    pos["first"] = "Player 1"
    effort(pos, P1, "32223")
    effort(pos, P2, "33321")
    hand(pos, P1, ["Border Patrol"])
    s = load(pos)
    keep_all(s)
    act(s, "Keep your National Effort as it is", "Play no more Action cards this turn")
    assert task(s) == ("groups", "Player 2")


# --- Step 1 -----------------------------------------------------------------------------------
def test_step_1_assigns_8_plus_surviving_groups() -> None:
    """Rulebook section 7 "Assign National Effort Levels" and ruling 4: in Step 1 the total is
    8 + surviving Citizen Groups (11 with three), each pillar 1-4; effort changes nowhere else."""
    pos = base()
    support(pos, P1, "0444")
    effort(pos, P1, "32222")
    s = load(step4(pos, P2))
    act(s, "Draw back up to 4 Action cards")
    assert task(s) == ("effort", "Player 1") and s.step == 1
    assert "Keep your National Effort as it is" in legal(s)
    act(s, "Set Military effort to 4")
    assert legal(s) == ["Set Civil effort to 1", "Set Civil effort to 2", "Set Civil effort to 3",
                        "Set Civil effort to 4"]
    act(s, "Set Civil effort to 4")  # the other three pillars have one level left
    assert s.effort[P1] == [4, 4, 1, 1, 1] and sum(s.effort[P1]) == 11
    assert task(s)[0] == "play" and not any(t.startswith("Set ") for t in legal(s))


def test_the_turn_has_four_steps_in_order() -> None:
    """Rulebook section 6: assign effort, play up to 2 Action cards, reveal 2 Crisis cards,
    discard and draw back to 4; then the next player clockwise (ruling 2)."""
    s = GAME.new_game(2, 5)
    keep_all(s)
    first = s.first
    seen = []
    while s.current == first:
        kind = task(s)[0]
        if not seen or seen[-1] != kind:
            seen.append(kind)
        legal_now = s.legal_actions()
        s.apply(legal_now[-1])  # keep, stop, the last choice, draw
    assert [k for k in seen if k in ("effort", "play", "step4")] == ["effort", "play", "step4"]
    assert s.current == 1 - first and len(s.crisis_deck[first]) == 38


# --- Step 2 -----------------------------------------------------------------------------------
def test_action_cards_need_their_printed_effort_and_passing_is_allowed() -> None:
    """Ruling 7 (rulebook section 7 Step 2): a card is played only if the printed effort meets
    its requirement; a card may be played even when it does nothing; stopping is allowed."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "First Aid Training"])
    effort(pos, P1, "23322")
    s = load(pos)
    assert legal(s) == ["Play First Aid Training", "Play no more Action cards this turn"]
    act(s, "Play First Aid Training", "Raise the support of Youth")  # it does nothing
    assert s.support[P1] == [4, 4, 4, 4] and ACTION_BY_NAME["First Aid Training"] in \
        s.action_discard[P1]
    assert task(s)[0] == "step4"


def test_at_most_two_action_cards_each_scored_before_the_next() -> None:
    """Rulebook section 7 Step 2 and ruling 7: up to 2 Action cards, each resolved and scored
    before the next."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "Raids", "Border Patrol"])
    effort(pos, P1, "33222")
    s = load(pos)
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.ct[P1] == 2 and s.plays == 1
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.ct[P1] == 4 and task(s)[0] == "step4"


def test_galvanised_cards_do_not_count_toward_the_limit() -> None:
    """Rulebook section 8 and ruling 8: Galvanised People cards ride with ordinary cards and do
    not count toward the 2-card limit, so up to 4 cards leave the hand in one Step 2."""
    unity, volunteer = "Galvanised People (Unity)", "Galvanised People (Volunteerism)"
    pos = step2(game_with(unity, volunteer), P1)
    hand(pos, P1, [unity, volunteer, "Border Patrol", "Raids"])
    effort(pos, P1, "22332")
    s = load(pos)
    act(s, f"Play Raids with {volunteer}", "Reduce The Harbour Network")
    act(s, f"Play Border Patrol with {unity}", "Reduce The Harbour Network")
    assert s.cells == [2, 6, 6] and s.ct[P1] == 4
    assert sorted(s.action_discard[P1]) == sorted(
        ACTION_BY_NAME[c] for c in (unity, volunteer, "Border Patrol", "Raids"))


def test_a_galvanised_card_needs_its_pairing_condition() -> None:
    """Ruling 8: a Galvanised card pairs only with a card meeting its ``pair_with``."""
    loyalty = "Galvanised People (Loyalty)"
    pos = step2(game_with(loyalty, "Raids"), P1)
    hand(pos, P1, [loyalty, "Raids"])
    effort(pos, P1, "33222")
    s = load(pos)
    assert legal(s) == ["Play Raids", "Play no more Action cards this turn"]


def test_special_intelligence_needs_an_active_subversive() -> None:
    """Ruling 9 (rulebook section 8): Special Intelligence is playable only while a Subversive
    is active somewhere, and with Psychological 2."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Special Intelligence", "Border Patrol"])
    assert "Play Special Intelligence" not in legal(load(pos))
    subversive(pos, P2, "Subversive (Sabotage)")
    assert "Play Special Intelligence" in legal(load(pos))


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    """Ruling 7: a card that may not be played is refused with IllegalAction, and the state
    does not change."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "Border Patrol"])
    effort(pos, P1, "23322")
    s = load(pos)
    before = s.position()
    for bad in (Action("play", ACTION_BY_NAME["Raids"]), Action("draw"), ("play", 2, -1)):
        try:
            s.apply(bad)
        except IllegalAction as exc:
            assert "Player 1 must play up to 2 Action cards" in str(exc)
        else:  # pragma: no cover
            raise AssertionError("an illegal action was applied")
    assert s.position() == before


# --- Step 3 -----------------------------------------------------------------------------------
def test_two_crisis_cards_in_turn_and_a_subversive_counts_as_one() -> None:
    """Ruling 10 (rulebook section 7 Step 3, section 8): two Crisis cards, each fully resolved
    before the next; a Subversive counts as one of the two and is not replaced; it becomes
    active in front of the revealer (ruling 13)."""
    pos = game_with("Subversive (Disrupt)", "Coordinated Terror Plot")
    crisis_top(pos, P1, ["Subversive (Disrupt)", "Coordinated Terror Plot"])
    cells(pos, "355")
    reveal(pos, P1, 2)
    s = load(pos)
    assert len(s.crisis_deck[P1]) == 38 and s.cells == [4, 6, 6]
    assert s.subversive[P1] == CRISIS_BY_NAME["Subversive (Disrupt)"]
    assert s.crisis_discard[P1] == [CRISIS_BY_NAME["Coordinated Terror Plot"]]


def test_a_crisis_hits_the_active_player_too_reading_effort_when_it_resolves() -> None:
    """Ruling 11: every player meeting the condition is hit, the active player included, by
    effort as it stands when the op resolves: a group leaving lowers effort before the next
    op of the same card (Market Crash's discard then reads the new levels)."""
    pos = game_with("Market Crash")
    effort(pos, P1, "33222")
    effort(pos, P2, "32232")
    support(pos, P1, "1444")
    hand(pos, P1, ["Raids"])
    hand(pos, P2, ["Raids"])
    crisis_top(pos, P1, ["Market Crash"])
    reveal(pos, P1)
    s = load(pos)
    act(s, "Lose support in Youth", "Lower Economic effort by 1 (a Citizen Group has left)",
        "Lose support in Youth")
    assert s.effort[P1] == [3, 3, 1, 2, 2]
    assert s.action_discard[P1] == [ACTION_BY_NAME["Raids"]]
    assert s.hand[P2] == [ACTION_BY_NAME["Raids"]]  # only Player 1 is lowest now


def test_subversives_strike_at_the_end_of_every_step_3_in_turn_order() -> None:
    """Ruling 14 (rulebook section 8 "every turn"): each active Subversive's each_turn ops
    resolve once at the end of Step 3 of every player's turn, the active player's own first,
    then the others in turn order; the revealed turn included (ruling 10)."""
    pos = game_with("Subversive (Intimidate)", "Subversive (Divide)")
    effort(pos, P1, "14322")
    effort(pos, P2, "23232")
    subversive(pos, P1, "Subversive (Intimidate)")
    subversive(pos, P2, "Subversive (Divide)")
    s = load(triggers(pos, P2))  # Player 2's turn: Divide (Player 1 lowest Social) first
    assert [line for line in s.log() if "strikes" in line] == [
        "Subversive (Divide) in front of Player 2 strikes."]
    act(s, "Lose support in Youth")
    assert [line for line in s.log() if "strikes" in line][-1] == \
        "Subversive (Intimidate) in front of Player 1 strikes."
    act(s, "Lose support in Youth")
    assert s.support[P1] == [2, 4, 4, 4]
    pos = game_with("Subversive (Intimidate)")
    effort(pos, P1, "14322")
    crisis_deck(pos, P1, ["Subversive (Intimidate)", "Coordinated Terror Plot"])
    reveal(pos, P1, 1)
    pos["stack"][-1][2].insert(1, ["triggers", P1])
    s = load(pos)
    assert task(s) == ("groups", "Player 1")


def test_identical_continuous_limits_do_not_add_up() -> None:
    """Ruling 14: two active Subversive (Disrupt), one per player, still allow 1 card."""
    pos = step2(game_with("Subversive (Disrupt)"), P1)
    subversive(pos, P1, "Subversive (Disrupt)")
    subversive(pos, P2, "Subversive (Disrupt)")
    hand(pos, P1, ["Border Patrol", "Border Patrol", "Raids"])
    effort(pos, P1, "32322")
    s = load(pos)
    act(s, "Play Border Patrol", "Reduce The Harbour Network")
    assert s.plays == 1 and task(s)[0] == "step4"


def test_each_player_has_one_subversive_at_most() -> None:
    """Rulebook section 8 and ruling 13: a new Subversive replaces the revealer's old one,
    which goes to that player's Crisis discard pile; another player's stays."""
    pos = game_with("Subversive (Deceive)", "Subversive (Divide)")
    subversive(pos, P1, "Subversive (Divide)")
    subversive(pos, P2, "Subversive (Divide)")
    crisis_top(pos, P1, ["Subversive (Deceive)"])
    effort(pos, P1, "33222")
    effort(pos, P2, "33222")
    s = load(reveal(pos, P1))
    assert s.subversive == [CRISIS_BY_NAME["Subversive (Deceive)"],
                            CRISIS_BY_NAME["Subversive (Divide)"]]
    assert s.crisis_discard[P1] == [CRISIS_BY_NAME["Subversive (Divide)"]]


def test_choices_in_a_crisis_are_made_by_each_owner_in_turn_order() -> None:
    """Ruling 12: each affected player chooses for their own groups, in turn order from the
    active player; the active player chooses between tied cells."""
    pos = game_with("Border Incursion", players=3)
    for p in (P1, P2, P3):
        effort(pos, p, "23322")
    cells(pos, "444")
    crisis_top(pos, P2, ["Border Incursion"])
    s = load(reveal(pos, P2))
    assert task(s) == ("cells", "Player 2")
    act(s, "Raise The Night Signal")
    order = []
    while task(s)[0] == "groups":
        order.append(task(s)[1])
        act(s, legal(s)[0])
    assert order == ["Player 2", "Player 3", "Player 1"]


# --- limits, shields, lasting cards -----------------------------------------------------------
def test_support_and_cells_stay_within_their_limits() -> None:
    """Rulebook section 9 and ruling 15: support never above 4 nor below 0, a cell never above
    6 nor below 0; a group at 0 has left and a cell at 0 is eliminated, for good."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "Neighbourly Help"])
    effort(pos, P1, "32222")
    support(pos, P1, "4440")
    cells(pos, "166")
    s = load(pos)
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.cells == [0, 6, 6] and s.ct[P1] == 1
    act(s, "Play Neighbourly Help")
    assert legal(s) == ["Raise the support of Youth", "Raise the support of Workers",
                        "Raise the support of Families"]


def test_the_shield_takes_losses_and_the_owner_orders_them_when_it_matters() -> None:
    """Citywatch ruling 9 (effect language, shield): each point of loss is taken from the
    Shield while it lasts; when it covers only some of the groups hit, the owner says which
    group takes its loss next."""
    pos = game_with("Island-Wide Blackout")
    effort(pos, P1, "41322")
    effort(pos, P2, "33222")
    support(pos, P1, "1444")
    shield(pos, P1, 2)
    crisis_top(pos, P1, ["Island-Wide Blackout"])
    s = load(reveal(pos, P1))
    assert task(s) == ("lose_next", "Player 1") and len(legal(s)) == 4
    act(s, "Apply the loss to Youth next", "Apply the loss to Workers next")
    assert s.shield[P1] == 0 and s.support[P1] == [1, 4, 3, 3]


def test_start_of_turn_removes_lasting_cards_and_the_shield() -> None:
    """Ruling 6 (rulebook section 8): immediately before Step 1 the active player's lasting
    Galvanised cards go to their discard pile, their Shield goes and their effects end."""
    readiness = "Galvanised People (Readiness)"
    pos = game_with(readiness)
    lasting(pos, P1, readiness, "Raids", boost=("Military", 1))
    shield(pos, P1, 3)
    effort(pos, P1, "33222")
    s = load(step4(pos, P2))
    assert s.effective(P1, 0) == s.effort[P1][0] + 1
    act(s, "Draw back up to 4 Action cards")
    assert s.current == P1 and s.lasting[P1] == [] and s.shield[P1] == 0
    assert s.action_discard[P1][-1] == ACTION_BY_NAME[readiness]


def test_counter_terrorism_points_for_each_point_actually_removed() -> None:
    """Ruling 1 (rulebook section 5 step 1, section 7 Step 2): one shared row of cells; the
    player whose card removes strength scores it; raising takes no points away and the raised
    strength scores again."""
    pos = step2(base(), P2)
    hand(pos, P2, ["Raids", "Border Patrol"])
    effort(pos, P2, "33222")
    cells(pos, "266")
    pos["seats"][P1]["ct"] = 5
    s = load(pos)
    act(s, "Play Raids", "Reduce The Harbour Network")
    assert s.ct == [5, 2] and s.cells == [0, 6, 6]
    assert "Reduce The Harbour Network" not in legal(act(s, "Play Border Patrol"))


# --- Step 4 -----------------------------------------------------------------------------------
def test_step_4_discards_any_then_draws_up_to_4() -> None:
    """Rulebook section 7 Step 4 and ruling 16 (citywatch ruling 7): discard any number of
    Action cards, then draw back to 4; only the drawer reads what was drawn."""
    pos = step4(base(), P1)
    hand(pos, P1, ["Raids", "Border Patrol"])
    s = load(pos)
    assert legal(s) == ["Discard Border Patrol", "Discard Raids", "Draw back up to 4 Action cards"]
    act(s, "Discard Raids", "Draw back up to 4 Action cards")
    assert len(s.hand[P1]) == 4 and s.action_discard[P1] == [ACTION_BY_NAME["Raids"]]
    assert "Player 1 draws 3 Action cards." in s.log(P2)
    assert "Player 1 draws 3 Action cards." not in s.log(P1)


def test_cards_lost_to_a_crisis_come_back_only_in_the_owners_step_4() -> None:
    """Ruling 16: a hand emptied by a Crisis card stays short until its owner's own Step 4."""
    pos = game_with("Transport Breakdown")
    effort(pos, P1, "33222")
    effort(pos, P2, "32322")
    hand(pos, P2, ["Raids"])
    crisis_top(pos, P1, ["Transport Breakdown"])
    s = load(reveal(pos, P1))
    assert s.hand[P2] == [] and task(s) == ("step4", "Player 1")
    act(s, "Draw back up to 4 Action cards")
    assert s.current == P2 and s.hand[P2] == []


def test_the_deck_running_short_draws_what_is_left() -> None:
    """Ruling 16: with fewer cards left than needed, the player draws them all."""
    pos = step4(base(), P1)
    hand(pos, P1, [])
    deck = seat(pos, P1)["action_deck"]
    seat(pos, P1)["action_discard"] = deck[:-2]
    seat(pos, P1)["action_deck"] = deck[-2:]
    s = load(pos)
    assert len(s.hand[P1]) == 2 and s.action_deck[P1] == [] and s.result is not None
