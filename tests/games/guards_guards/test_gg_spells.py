"""Guards! Guards! Great Spells, Spell Runs, Sabotage, the Wizards' Challenges and the end
(rulings 31-48)."""

from __future__ import annotations

from test_gg_combat import make, script, top, vid

from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import SPELL_COLOURS, SPELL_TILES, TILES
from citywatch.games.guards_guards.frames import advance
from citywatch.games.guards_guards.spells import (
    ADD_RUNNER,
    ALTER,
    COLLECT,
    LET_PASS,
    RAISE,
    REPLANT,
    RETRY,
    ROUTE,
    do_collect,
    free_actions,
    stop_actions,
)
from citywatch.games.guards_guards.state import GuardsGuardsState, Run

RED = SPELL_COLOURS.index("red")


def on_red(s: GuardsGuardsState) -> None:
    s.pos[0] = SPELL_TILES[RED]


def test_ruling_32_collect_needs_own_spell_and_no_dragon() -> None:
    """Ruling 32: "stop on its tile with the spell on your card and not yet returned, and with
    no Dragon in that quadrant.\""""
    s = make()
    on_red(s)
    assert stop_actions(s, 0) == []  # ruling 33: no Volunteer, no run
    s.hand[0].append(vid("The Dean"))
    assert stop_actions(s, 0) == [Action(COLLECT, RED)]
    s.dragons[TILES[SPELL_TILES[RED]].quadrant] = 0
    assert stop_actions(s, 0) == []
    s.dragons = [-1] * 4
    s.returned[0] = (RED,)
    assert stop_actions(s, 0) == []


def test_ruling_31_one_open_run_at_a_time() -> None:
    """Ruling 31: "at most one open Spell Run, and collects no other Great Spell until it is
    returned.\""""
    s = make()
    on_red(s)
    s.hand[0].append(vid("The Dean"))
    s.run[0] = Run(SPELL_COLOURS.index("orange"))
    assert stop_actions(s, 0) == []


def send_runners(s: GuardsGuardsState, runners: list[int]) -> None:
    """Choose the Runners and the first route (a single choice is taken at once)."""
    for v in runners:
        if top(s)[0] == "run":
            s.apply(Action(ADD_RUNNER, v, -1))
    if top(s)[0] == "run":
        s.apply(next(a for a in s.legal_actions() if a.verb == ROUTE))


def launch(s: GuardsGuardsState, runners: list[int]) -> None:
    on_red(s)
    s.hand[0] += runners
    do_collect(s, 0, Action(COLLECT, RED))
    advance(s)
    send_runners(s, runners)


def test_rulebook_spell_run_reaches_gate_and_passes_challenge_1() -> None:
    """"If any of the Runners successfully reach the Unseen University on the same turn, the
    player may immediately attempt the next Wizard's Challenge"; a pass gives $5 and an
    Attribute Point (ruling 45) and discards the Runners."""
    s = make()
    a, b = vid("Rincewind"), vid("Cut-Me-Own-Throat Dibbler")  # Streetwise 4 + 5
    script(s, 2)  # 9 + 2 = 11 >= 9
    launch(s, [a, b])
    assert s.frozen[0]
    assert top(s)[0] == "challenge"
    s.apply(Action(RAISE, 0))
    assert s.returned[0] == (RED,) and s.run[0] is None and s.dollars[0] == 10
    assert a in s.vol_discard[0] and b in s.vol_discard[1]


def test_rulebook_failed_challenge_ends_turn_and_retry_once_per_turn() -> None:
    """"If a player fails the Wizard's Challenge THEIR TURN ENDS"; ruling 44: "One attempt at
    the current challenge is allowed per turn.\""""
    s = make()
    script(s, 1)
    launch(s, [vid("Rincewind")])
    run = s.run[0]
    assert run is not None and run.at_gate and s.t.over
    s.t.over = False
    assert Action(RETRY, 0) not in free_actions(s, 0)
    s.turn += 1
    assert Action(RETRY, 0) in free_actions(s, 0)


def test_ruling_44_challenge_4_passed_test_stays_passed() -> None:
    """Ruling 44: "In Challenges 4 and 5 a passed test stays passed, and later turns re-roll
    only the failed one.\""""
    s = make()
    s.returned[0] = (1, 2, 3)
    s.spells_to_win = 5
    run = Run(4)
    run.at_gate = [(vid("Dorfl"), -1), (vid("The Librarian"), -1)]  # Brawl 7, Streetwise 5
    s.run[0] = run
    s.turn = 5
    script(s, 5, 2)  # Brawl 12 passes; Streetwise 7 fails
    s.apply(Action(RETRY, 3)) if False else free_actions(s, 0)
    from citywatch.games.guards_guards.spells import do_free

    do_free(s, 0, Action(RETRY, 3))
    advance(s)
    assert run.passed == 0b01
    s.turn = 6
    s.t.over = False
    script(s, 8, 1)  # only Streetwise: 5 + 8 + 1 = 14
    do_free(s, 0, Action(RETRY, 3))
    advance(s)
    assert s.returned[0] == (1, 2, 3, 4)


def test_sabotage_alter_allegiance_defects_and_replants_after_the_run() -> None:
    """Alter Allegiance: "If the Loyalty test fails, the Volunteer ... switch their loyalty to
    the attacking player"; ruling 38: the re-plant happens once the run is over."""
    s = make()
    gate_q = 0  # thieves: the gate's quadrant is always passed
    s.saboteurs[1] += ((gate_q, vid("Carding"), -1),)
    runner = vid("Rincewind")  # Loyalty 1
    on_red(s)
    s.hand[0].append(runner)
    do_collect(s, 0, Action(COLLECT, RED))
    advance(s)
    send_runners(s, [runner])
    assert top(s)[0] == "sabotage"
    assert set(s.legal_actions()) >= {Action(ALTER, 0), Action(LET_PASS, 0)}
    script(s, 2)  # 1 + 2 = 3 < 7
    s.apply(Action(ALTER, 0))
    assert runner in s.hand[1]
    assert top(s)[0] == "sabotage" and s.legal_actions()[0].verb == REPLANT
    s.apply(Action(REPLANT, vid("Carding"), 2))
    assert s.saboteurs[1] == ((2, vid("Carding"), -1),)
    run = s.run[0]
    assert run is not None and not run.runners and not run.at_gate  # ruling 41


def test_sabotage_librarian_cannot_be_altered() -> None:
    """The Librarian: "Cannot be the target of Alter Allegiance.\""""
    s = make()
    s.saboteurs[1] += ((0, vid("Carding"), -1),)
    on_red(s)
    s.hand[0].append(vid("The Librarian"))
    do_collect(s, 0, Action(COLLECT, RED))
    advance(s)
    send_runners(s, [vid("The Librarian")])
    assert Action(ALTER, 0) not in s.legal_actions()


def test_final_spell_collect_ends_turn_and_final_challenge_wins() -> None:
    """"To collect the last of the Great Spells ... the player's turn ends"; at the Start
    Gate: Magic 9 and Guild 9; ruling 48: "The game ends as soon as a player passes the final
    challenge.\""""
    s = make()
    s.spells_to_win = 2
    s.returned[0] = (SPELL_COLOURS.index("orange"),)
    on_red(s)
    s.hand[0].append(vid("The Dean"))
    do_collect(s, 0, Action(COLLECT, RED))
    run = s.run[0]
    assert run is not None and run.final and s.t.over
    s.turn += 1
    s.t.over = False
    s.pos[0] = s.gate[0]
    assert free_actions(s, 0) == [Action(RETRY, 4)]
    script(s, 8, 1, 2)  # Magic 1+8+1 = 10; Guild 3+2 = 5 fails
    from citywatch.games.guards_guards.spells import do_free

    do_free(s, 0, Action(RETRY, 4))
    advance(s)
    assert s.result is None and run.passed == 0b01
    s.turn += 1
    s.t.over = False
    script(s, 6)  # Guild 3+6 = 9
    do_free(s, 0, Action(RETRY, 4))
    advance(s)
    assert s.result is not None and s.result.winners == (0,)


def test_ruling_48_ranking_by_spells_then_dollars() -> None:
    """Ruling 48: "rank players by Great Spells returned, then by dollars; any remaining tie is
    shared.\""""
    from citywatch.games.guards_guards.spells import final_outcome

    s = make(3)
    s.returned[1] = (0,)
    s.dollars = [9, 1, 9]
    out = final_outcome(s, "stopped")
    assert out.details["ranking"] == [[1], [0, 2]] and out.winners == (1,)


def test_sabotage_ambush_runner_defeated_then_saboteur_replants() -> None:
    """Ambush: "If the Saboteur defeats the Spell Runner in combat the player making the Spell
    Run must discard the targeted Volunteer Card ... The Attacking Player may then choose to
    re-plant their successful Saboteur\"."""
    from citywatch.games.guards_guards.spells import AMBUSH

    s = make()
    count = vid("Count Notfaroutoe")  # Brawl 3
    s.saboteurs[1] += ((0, count, -1),)
    runner = vid("The Bursar")  # Toughness 1
    on_red(s)
    s.hand[0].append(runner)
    do_collect(s, 0, Action(COLLECT, RED))
    advance(s)
    send_runners(s, [runner])
    script(s, 6, 2)  # 3 + 6 = 9 > 1 + 2
    s.apply(Action(AMBUSH, 0))
    assert runner in s.vol_discard[0]
    assert top(s)[0] == "sabotage" and s.legal_actions()[0].verb == REPLANT
    s.apply(Action(REPLANT, count, 3))
    assert s.saboteurs[1] == ((3, count, -1),)
    run = s.run[0]
    assert run is not None and not run.runners
