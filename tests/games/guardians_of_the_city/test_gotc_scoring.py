"""Guardians of the City: the end of the game and the score (rulebook sections 6 and 10,
section 7 Step 4; rulings 18-19; citywatch rulings 14-15), each from a position."""

from __future__ import annotations

from gotc_positions import (
    act,
    action_deck,
    base,
    cells,
    crisis_deck,
    crisis_top,
    effort,
    game_with,
    hand,
    legal,
    load,
    reveal,
    score_pile,
    step2,
    step4,
    support,
    task,
)

from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.scoring import (
    ACTION_DECK_OUT,
    CELLS_ELIMINATED,
    CITIZENS_LEFT,
    CRISIS_DECK_OUT,
    REASONS,
    finish,
    outcome,
)
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
P1, P2, P3 = 0, 1, 2
QUIET = ("Keep your National Effort as it is", "Play no more Action cards this turn",
         "Draw back up to 4 Action cards")


def play_quietly(s: State, turns: int) -> None:
    """Play ``turns`` more turns (or to the end), keeping effort, playing nothing, drawing,
    and taking the first choice a Crisis card asks for."""
    stop = s.turn + turns
    while s.result is None and s.turn <= stop:
        texts = legal(s)
        quiet = [t for t in texts if t in QUIET]
        act(s, quiet[0] if quiet else texts[0])


def test_the_four_end_conditions_are_named() -> None:
    """Rulebook section 6: the game ends when (a) an Action deck runs out, (b) a Crisis deck
    runs out, (c) every Terrorist Cell is eliminated, (d) a player's Citizen Groups all
    left."""
    assert REASONS == (ACTION_DECK_OUT, CRISIS_DECK_OUT, CELLS_ELIMINATED, CITIZENS_LEFT)


def test_running_out_of_action_cards_ends_the_game_at_once_and_loses() -> None:
    """Rulebook section 7 Step 4 and ruling 18 (a): drawing the last Action card ends the game
    at the end of Step 4, and that player loses whatever their score (ruling 19)."""
    pos = step4(game_with("Raids"), P1)
    hand(pos, P1, [])
    action_deck(pos, P1, ["Raids", "Raids"])
    pos["seats"][P1]["ct"] = 20
    s = load(pos)
    assert s.result is not None and s.result.reason == ACTION_DECK_OUT
    assert s.result.winners == (P2,) and s.result.points == (36, 16)
    assert s.result.details["out_of_action_cards"] == [P1]
    assert len(s.hand[P1]) == 2


def test_a_nation_losing_every_group_ends_the_game_at_once_and_scores_0() -> None:
    """Ruling 18 (d): a player without Citizen Groups ends the game as soon as the card has
    resolved (the second Crisis card is never revealed); rulebook section 10: their score is
    0 whatever their points."""
    pos = game_with("Isolated Elderly")
    effort(pos, P1, "33222")
    effort(pos, P2, "22311")
    support(pos, P2, "0001")
    pos["seats"][P2]["ct"] = 30
    crisis_top(pos, P1, ["Isolated Elderly", "Isolated Elderly"])
    s = load(reveal(pos, P1, 2))
    assert s.result is not None and s.result.reason == CITIZENS_LEFT
    assert s.result.winners == (P1,) and s.result.points == (16, 0)
    assert len(s.crisis_deck[P1]) == 39


def test_everyone_losing_their_last_group_together_is_a_draw() -> None:
    """Rulebook section 10 and ruling 19: if every player is left with 0 because all lose
    their last group in the same card, the game is a draw (no winners)."""
    pos = game_with("Isolated Elderly")
    for p in (P1, P2):
        effort(pos, p, "22311")
        support(pos, p, "0001")
    crisis_top(pos, P1, ["Isolated Elderly"])
    s = load(reveal(pos, P1))
    assert s.result is not None and s.result.winners == () and s.result.points == (0, 0)
    assert s.log()[-1] == "The game is a draw: every player has lost."


def test_all_cells_eliminated_finishes_the_round_first() -> None:
    """Ruling 18 (c): when the last cell falls the round is finished, so every player has had
    as many turns, then the game ends and the highest score wins (ruling 19)."""
    pos = step2(game_with("Border Patrol", players=3), P2)
    pos["first"] = "Player 1"
    pos["turn"] = 2
    pos["seats"][P1]["turns"] = 1
    hand(pos, P2, ["Border Patrol", "Raids"])
    effort(pos, P2, "33222")
    cells(pos, "100")
    s = load(pos)
    act(s, "Play Border Patrol")
    assert s.pending == [CELLS_ELIMINATED] and s.result is None
    play_quietly(s, 5)
    assert s.result is not None and s.result.reason == CELLS_ELIMINATED
    assert s.current == P3 and s.turns == [1, 1, 1]
    points = s.result.points
    assert points is not None and points[P2] == s.score(P2)
    assert s.result.winners == tuple(p for p in (P1, P2, P3) if points[p] == max(points))


def test_the_last_seat_eliminating_the_cells_ends_after_its_own_turn() -> None:
    """Ruling 18 (c): eliminated in the last seat's turn, the round is already complete."""
    pos = step2(game_with("Border Patrol"), P2)
    pos["first"] = "Player 1"
    hand(pos, P2, ["Border Patrol"])
    effort(pos, P2, "33222")
    cells(pos, "001")
    s = load(pos)
    act(s, "Play Border Patrol")
    play_quietly(s, 2)
    assert s.result is not None and s.current == P2 and s.turn == 1


def test_an_empty_crisis_deck_ends_the_game_when_the_round_is_over() -> None:
    """Ruling 18 (b): the active player's Crisis deck empty at the end of their Step 3 (after
    the Subversive triggers) ends the game once the round is over."""
    pos = game_with("Coordinated Terror Plot", "Overstretched Forces")
    pos["first"] = "Player 1"
    effort(pos, P1, "33222")
    effort(pos, P2, "33222")
    crisis_deck(pos, P1, ["Coordinated Terror Plot", "Overstretched Forces"])
    cells(pos, "555")
    reveal(pos, P1, 2)
    pos["stack"][-1][2].insert(2, ["crisis_deck_check", P1])
    s = load(pos)
    assert s.pending == [CRISIS_DECK_OUT] and s.cells == [6, 6, 6]
    play_quietly(s, 3)
    assert s.result is not None and s.result.reason == CRISIS_DECK_OUT and s.current == P2


def test_a_collapse_while_the_round_is_finished_ends_it_sooner() -> None:
    """Ruling 18: with (c) waiting for the round, (d) still ends the game at once; the
    outcome names the condition met first and keeps both (citywatch ruling 14)."""
    pos = game_with("Isolated Elderly")
    pos["first"] = "Player 1"
    pos["pending"] = [CELLS_ELIMINATED]
    cells(pos, "000")
    effort(pos, P1, "22311")
    effort(pos, P2, "33222")
    support(pos, P1, "0001")
    crisis_top(pos, P2, ["Isolated Elderly"])
    s = load(reveal(pos, P2))
    assert s.result is not None and s.result.reason == CELLS_ELIMINATED
    assert s.result.details["reasons"] == [CELLS_ELIMINATED, CITIZENS_LEFT]
    assert s.result.winners == (P2,)


def test_the_score_counts_points_support_and_special_intelligence() -> None:
    """Rulebook section 10 and ruling 19: 1 per Counter-Terrorism point, 1 per support point
    of surviving groups, 2 per Special Intelligence used; one held in hand counts 0."""
    pos = base()
    pos["seats"][P1]["ct"] = 7
    support(pos, P1, "4301")
    effort(pos, P1, "32222")
    score_pile(pos, P1, ["Special Intelligence"])
    hand(pos, P2, ["Special Intelligence"])
    s = load(pos)
    assert s.score(P1) == 7 + 8 + 2 and s.score(P2) == 16


def test_a_tie_goes_to_the_most_special_intelligence_then_is_shared() -> None:
    """Rulebook section 10 and ruling 19: equal scores are decided by the Special Intelligence
    cards used; if those are equal too the win is shared (citywatch ruling 15: points as
    counted)."""
    pos = base()
    pos["seats"][P1]["ct"] = 2
    score_pile(pos, P2, ["Special Intelligence"])
    s = load(pos)
    result = outcome(s, [CELLS_ELIMINATED])
    assert result.points == (18, 18) and result.winners == (P2,)
    pos["seats"][P1]["ct"] = 0
    score_pile(pos, P1, ["Special Intelligence"])
    pos["seats"][P2]["ct"] = 0
    result = outcome(load(pos), [CELLS_ELIMINATED])
    assert result.points == (18, 18) and result.winners == (P1, P2)


def test_every_player_losing_at_once_is_a_draw() -> None:
    """Ruling 19: every player out of Action cards at the same moment (one Crisis card): every
    player lost, a draw."""
    pos = game_with("Panic Buying")
    for p in (P1, P2):
        effort(pos, p, "33222")
        action_deck(pos, p, ["Raids"])
    crisis_top(pos, P1, ["Panic Buying"])
    s = load(reveal(pos, P1))
    assert task(s) == (None, "") and s.result is not None
    assert s.result.winners == () and s.result.details["out_of_action_cards"] == [P1, P2]


# --- the end screen's breakdown (issue 26) ---------------------------------------------------
def test_the_breakdown_counts_special_intelligence_once_and_adds_up() -> None:
    """Rulebook section 10 (issue 26): 17 Counter-Terrorism points, 16 support left and one
    Special Intelligence card used read as 17 + 16 + 2 = 35, each part labelled; the card's
    count is said once, in the part's words and the tie break, never added again."""
    pos = base()
    pos["seats"][P1]["ct"] = 17
    support(pos, P1, "4444")
    effort(pos, P1, "33222")
    score_pile(pos, P1, ["Special Intelligence"])
    s = load(pos)
    finish(s, [CELLS_ELIMINATED])
    mine, other = GAME.score_breakdown(s) or ()
    assert s.result is not None and s.result.points is not None
    assert [(p.label, p.points) for p in mine.parts] == [
        ("Counter-Terrorism points", 17), ("Support left", 16),
        ("Special Intelligence used", 2)]
    assert mine.points == s.result.points[P1] == 35
    assert "1 card x 2 points" in mine.parts[2].detail
    assert other.points == s.result.points[P2]
    assert mine.result == "Won: the highest score (35)."
    assert mine.notes == ("Tie break: 1 Special Intelligence card used.",)
    assert [what for what, _value in mine.revealed] == ["Hand"]


def test_a_nation_without_citizen_groups_scores_0_and_is_told_why() -> None:
    """Rulebook section 10 (issue 26): a player whose Citizen Groups all left scores 0
    whatever its points; the breakdown shows its points and a last part taking them away,
    and says why."""
    pos = base()
    pos["seats"][P1]["ct"] = 9
    support(pos, P1, "1000")
    effort(pos, P1, "22221")
    s = load(pos)
    s.support[P1][0] = 0  # its last group leaves
    finish(s, [CITIZENS_LEFT])
    gone, _other = GAME.score_breakdown(s) or ()
    assert [(p.label, p.points) for p in gone.parts] == [
        ("Counter-Terrorism points", 9), ("Support left", 0),
        ("Special Intelligence used", 0), ("No Citizen Group left", -9)]
    assert s.result is not None and s.result.points is not None
    assert gone.points == 0 == s.result.points[P1]
    assert gone.result.startswith("Lost, and scores 0: every Citizen Group left the country")
