"""Thieves of the Black Keep: the guard automaton (spec sections 4, 5 and 10; rulings R22-R43,
R60-R66; acceptance cases 7-16 and 20 of section 13).

Situations are built from text (``bk_positions``): a scenario or a small corridor map, with
guards, thieves, markers and torches placed by label. Each test names the rule it checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from bk_positions import (
    SCENARIOS,
    at,
    corridor,
    extinguish,
    facing,
    game,
    guard,
    marker,
    markers,
    public_guards,
    scripted,
    small_board,
    status,
    thief,
    where,
    without_unplaced,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citywatch.core.log import log_lines
from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards as rules
from citywatch.games.black_keep import harm, referee
from citywatch.games.black_keep.data import ARMOUR, EYE, SWORD
from citywatch.games.black_keep.hexes import FACINGS
from citywatch.games.black_keep.state import (
    ALERT,
    CAUGHT,
    DIFFICULTIES,
    DISTRACTED,
    IN_PLAY,
    INTERESTED,
    KILLED,
    NONE,
    PATROLLING,
    STATUSES,
    WANDERING,
    BlackKeepState,
    Guard,
)

State = BlackKeepState


def phases(s: State, n: int = 1) -> None:
    """``n`` Guard Phases in a row (no Resource Phase between them), with only the guards the
    test placed (and the vault guards, which wait for their trigger)."""
    without_unplaced(s)
    for _ in range(n):
        rules.guard_phase(s)


def face(s: State, a: str, b: str) -> str:
    """The facing from hex ``a`` to its neighbour ``b``, by name."""
    return FACINGS[rules.facing_to(s.board, at(s, a), at(s, b))]


PATCHES_REFEREE = pytest.mark.skipif(
    (rules.__file__ or "").endswith((".so", ".pyd")),
    reason="patches the referee's functions, which compiled callers call directly")
"""For the tests that record the referee's answers by patching its module (pure Python only;
the same source is what the compiled build runs)."""


@contextmanager
def referee_answers() -> Iterator[list[Any]]:
    """Record every answer the referee gives the guards while the block runs."""
    answers: list[Any] = []
    real_sightings, real_in_hex = referee.sightings, referee.in_hex

    def sightings(s: State, g: Guard) -> list[tuple[int, int]]:
        found = real_sightings(s, g)
        answers.append(("spots", tuple(found)))
        return found

    def in_hex(s: State, hex: int) -> list[int]:
        found = real_in_hex(s, hex)
        answers.append(("in", hex, tuple(found)))
        return found

    referee.sightings = sightings
    referee.in_hex = in_hex
    try:
        yield answers
    finally:
        referee.sightings = real_sightings
        referee.in_hex = real_in_hex


# --- acceptance cases (spec 13) -----------------------------------------------------------------
def test_case_07_r25_stationary_guard_turns_clockwise() -> None:
    """Case 7 (R25): a Stationary guard facing NW faces N after its Guard Phase."""
    s = game("tutorial")
    g = guard(s, "E4", facing="NW")
    phases(s)
    assert (where(s, g), facing(g), status(g)) == ("E4", "N", "bored")


def test_case_08_r26_patrolling_guard_turns_round_at_the_shield() -> None:
    """Case 8 (R26): reaching its shield a Patrolling guard faces back along the line at once,
    and next phase steps toward the star."""
    s = game("the-vault")
    g = guard(s, "M4", facing=face_of("the-vault", "M4", "N4"), type="patrolling")
    phases(s)
    assert (where(s, g), g.route_dir, facing(g)) == ("N4", -1, face(s, "N4", "M4"))
    phases(s)
    assert (where(s, g), facing(g)) == ("M4", face(s, "M4", "L4"))


def face_of(scenario: str, a: str, b: str) -> str:
    """The facing between two neighbours of a scenario, by name."""
    return face(game(scenario), a, b)


def test_case_09_r27_die_rolls_one_and_four_pick_the_first_of_three_shields() -> None:
    """Case 9 (R27): with three red shields, rolls 1 and 4 both start on the first shield."""
    s = game("the-vault")
    gatehouse = s.board.tiles[0]
    assert len(gatehouse.red_shields) == 3
    for roll in (1, 4):
        assert rules.shield_for_roll(s.board, 0, roll) == gatehouse.red_shields[0]
        t = scripted(game("the-vault"), roll)
        g = Guard(0, "basic", WANDERING)
        t.guards.insert(0, g)
        assert rules.place_guard(t, g)
        assert where(t, g) == "E4" and facing(g) == face(t, "E4", "F4") and g.route_pos == 0
    assert rules.shield_for_roll(s.board, 0, 2) == gatehouse.red_shields[1]


def test_case_10_r32_hearing_is_four_steps_along_open_sides() -> None:
    """Case 10 (R32): a Run 4 steps away makes an Interested guard Alert; 5 steps away, or 2
    steps through a wall with no way round, does not; a Pursuing guard ignores it."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling")
    rules.noise(s, at(s, "D6"), "run")
    assert status(g) == "interested" and markers(s) == ["D6"]
    rules.noise(s, at(s, "D5"), "run")
    assert status(g) == "alert" and where(s, g) == "D1" and facing(g) == "S"
    assert g.target == at(s, "D5") and g.home is not None and g.home.hex == at(s, "D1")

    walled = game(corridor(7, walls=[("D2", "D3")]))
    w = guard(walled, "D1", facing="S", type="patrolling")
    rules.noise(walled, at(walled, "D3"), "run")
    assert status(w) == "interested" and w.target == NONE

    chasing = game(corridor(7))
    p = guard(chasing, "D1", facing="S", status="pursuing", type="patrolling", target="D6")
    marker(chasing, "D6")
    rules.noise(chasing, at(chasing, "D3"), "run")
    assert status(p) == "pursuing" and p.target == at(chasing, "D6")


def test_case_11_r34_r37_a_spotted_thief_two_steps_away_is_caught_that_phase() -> None:
    """Case 11 (R34, R37): a thief spotted 2 steps ahead of an Interested guard is caught in
    that Guard Phase (Pursuing: two steps)."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling")
    t = thief(s, 0, "D3")
    phases(s)
    assert t.standing == CAUGHT and t.hex == NONE
    assert where(s, g) == "D3" and markers(s) == []


def test_case_12_r35_r38_decoy_marker_then_returning_home_then_routine() -> None:
    """Case 12 (R35, R38, R26): a guard reaching a decoy marker with nothing else visible starts
    Returning, walks home one step per phase, then resumes its routine in its old direction."""
    s = game("the-vault")
    g = guard(s, "J4", facing=face_of("the-vault", "J4", "K4"), type="patrolling")
    pos, direction = g.route_pos, g.route_dir
    decoy = at(s, "K6")
    rules.noise(s, decoy, "arrow")
    assert status(g) == "alert" and g.target == decoy
    steps = s.board.distances(decoy)[at(s, "J4")]
    assert steps == 2
    for k in range(steps):
        phases(s)
        assert s.board.distances(decoy)[g.hex] == steps - k - 1
    assert status(g) == "returning" and markers(s) == [] and g.target == NONE
    for _ in range(steps):
        assert where(s, g) != "J4"
        phases(s)
    assert (where(s, g), status(g), g.home) == ("J4", "interested", None)
    assert (g.route_pos, g.route_dir, facing(g)) == (pos, direction, face(s, "J4", "K4"))
    phases(s)
    assert where(s, g) == "K4"


def test_case_13_r39_a_bow_shoots_a_thief_once_per_round_and_three_rounds_kill() -> None:
    """Case 13 (R39): a bow guard that sees the same thief at the start and after a step shoots
    it once; three rounds of being shot kill it."""
    s = game(corridor(10))
    g = guard(s, "D1", facing="S", type="patrolling", bow=True)
    t = thief(s, 0, "D8")
    phases(s)
    assert where(s, g) == "D3" and status(g) == "pursuing"
    assert t.wounds == 2 and t.standing == IN_PLAY and markers(s) == ["D8"]
    rules.resource_phase(s)
    rules.look(s, g)
    rules.look(s, g)
    assert t.wounds == 1
    rules.resource_phase(s)
    rules.look(s, g)
    assert (t.wounds, t.standing, t.hex) == (0, KILLED, NONE)


def test_case_14_r41_undead_wound_instead_of_catching_and_ignore_noise_arrows() -> None:
    """Case 14 (R41): an undead guard entering a thief's hex wounds it and does not catch it;
    it ignores a Noise Arrow but hears a Run."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="wandering", undead=True, status="alert", target="D2",
              home="D1")
    marker(s, "D2")
    t = thief(s, 0, "D2")
    phases(s)
    assert where(s, g) == "D2" and t.standing == IN_PLAY and t.wounds == 2
    assert status(g) == "returning" and markers(s) == []

    quiet = game(corridor(7))
    u = guard(quiet, "D1", facing="S", type="wandering", undead=True)
    rules.noise(quiet, at(quiet, "D3"), "arrow")
    assert status(u) == "interested" and markers(quiet) == ["D3"]
    rules.noise(quiet, at(quiet, "D4"), "run")
    assert status(u) == "alert" and u.target == at(quiet, "D4")


def test_case_15_r31_r61_the_vault_guard_appears_after_the_vault_tile_is_entered() -> None:
    """Case 15 (R31, R61): the vault guard appears on the rolled shield, or the next free one
    if a thief is there, only after a thief stepped onto the Vault tile."""
    s = scripted(game("the-vault"), 2)
    vault = next(g for g in s.guards if g.role == "vault")
    phases(s, 2)
    assert not vault.placed
    s.vault_triggered = True
    rules.place_waiting_guards(s)
    assert vault.placed and where(s, vault) == "K8" and status(vault) == "interested"

    busy = without_unplaced(scripted(game("the-vault"), 2))
    busy.vault_triggered = True
    thief(busy, 0, "K8", hiding=True)
    rules.place_waiting_guards(busy)
    shields = busy.board.tiles[busy.board.vault_tile].red_shields
    assert busy.board.labels[shields[1]] == "K8" and where(busy, next(
        g for g in busy.guards if g.role == "vault")) == busy.board.labels[shields[2]]


def test_case_16_r30_roving_guard_waits_on_the_crown_then_goes_for_the_nearest_marker() -> None:
    """Case 16 (R30): the Roving guard stays on the crown with no markers, and walks one step per
    phase to the nearest marker once one appears."""
    s = game("the-black-keep")
    g = guard(s, "K11", facing="N", type="roving", tile="vault")
    assert status(g) == "alert"
    phases(s, 2)
    assert (where(s, g), facing(g), g.target) == ("K11", "N", NONE)
    goal = at(s, "K8")
    marker(s, "K8")
    before = s.board.distances(goal)[g.hex]
    phases(s)
    assert g.target == goal and s.board.distances(goal)[g.hex] == before - 1
    phases(s, before - 1)
    assert where(s, g) == "K8" and markers(s) == [] and status(g) == "alert"
    assert g.home is None


def test_case_20_section_10_hidden_positions_with_equal_answers_give_equal_guards() -> None:
    """Case 20 (section 10): two states that differ only in a hidden thief's position, with the
    same referee answers, produce identical guard moves; a seen thief changes them."""
    def run(hex_label: str) -> tuple[tuple[Any, ...], list[Any]]:
        s = scripted(game("the-vault", thieves=2), 3, 5)
        rules.place_initial_guards(s)
        thief(s, 0, "A5")
        thief(s, 1, hex_label)
        with referee_answers() as answers:
            for _ in range(3):
                rules.resource_phase(s)
                rules.guard_phase(s)
        return public_guards(s), answers

    first, answers_first = run("N1")
    second, answers_second = run("N2")
    assert answers_first == answers_second
    assert first == second
    seen, _ = run("K4")
    assert seen != first


# --- rulings R22-R43, R60-R66 --------------------------------------------------------------------
def test_r22_distracted_guards_stand_still_hear_noise_and_recover_at_resource_phase() -> None:
    """R22: a Distracted guard neither moves nor rotates; a noise makes it Alert; otherwise the
    next Resource Phase returns it to its default status."""
    s = game("tutorial")
    g = guard(s, "E4", facing="SE")
    assert rules.distract(s, g)
    phases(s, 2)
    assert (where(s, g), facing(g), status(g)) == ("E4", "SE", "distracted")
    rules.resource_phase(s)
    assert status(g) == "bored"
    rules.distract(s, g)
    rules.noise(s, at(s, "E6"), "run")
    assert status(g) == "alert" and g.home is not None and g.home.hex == at(s, "E4")


def test_r22_distracted_guard_sees_nothing() -> None:
    """R22, 3.6: a Distracted guard spots nobody, not even a thief beside it."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", status="distracted", type="patrolling")
    thief(s, 0, "D2")
    assert referee.spotted_by(s, g) == []
    phases(s)
    assert markers(s) == [] and where(s, g) == "D1"


def test_r23_guards_are_listed_by_tile_then_as_the_tile_lists_them() -> None:
    """R23, R40: tiles in scenario order, each tile's guards as listed (hard and roving only
    when they are in the game)."""
    s = game("the-black-keep", difficulty="hard")
    listed = [(s.board.tiles[g.tile].id, g.role, g.type, g.undead) for g in s.guards]
    assert listed == [
        ("gatehouse", "basic", 0, False), ("gatehouse", "hard", 1, False),
        ("hall", "basic", 1, False), ("hall", "hard", 2, False),
        ("chapel", "basic", 2, False), ("chapel", "hard", 0, False),
        ("vault", "vault", 2, False), ("vault", "hard", 0, False), ("vault", "roving", 3, False),
        ("crypt", "basic", 2, True), ("crypt", "basic", 0, True)]
    easy = game("the-black-keep", difficulty="easy", advanced=False)
    assert [g.role for g in easy.guards] == ["basic", "basic", "basic", "vault", "basic",
                                             "basic"]
    with pytest.raises(ValueError, match="difficulty"):
        game("the-vault", difficulty="nightmare")


def test_r23_guards_act_in_listing_order() -> None:
    """R23: the first guard in listing order reaches a shared marker first; the second finds it
    gone and chooses (none visible: Returning)."""
    s = game(corridor(7))
    a = guard(s, "D2", facing="S", type="patrolling", status="alert", target="D3", home="D2")
    b = guard(s, "D4", facing="N", type="wandering", status="alert", target="D3", home="D4")
    marker(s, "D3")
    phases(s)
    assert where(s, a) == "D3" and status(a) == "returning"
    assert where(s, b) == "D4" and status(b) == "returning"


def test_r24_a_guard_looks_after_its_rotation() -> None:
    """R24, R28: a Stationary guard looks after rotating and spots a thief it now faces (its
    facing does not change by spotting); the bow shoots (medium)."""
    s = game("tutorial")
    g = guard(s, "E4", facing="NE")
    t = thief(s, 0, "F4")
    rules.look(s, g)
    assert markers(s) == []
    phases(s)
    assert facing(g) == "SE" and markers(s) == ["F4"] and status(g) == "pursuing"
    assert t.wounds == 2 and g.home is not None and g.home.hex == at(s, "E4")


def test_r24_a_guard_looks_after_a_diligent_move() -> None:
    """R24, 6.5 Diligent: a guard in its default status makes one routine move at once and
    looks; a guard out of its default status or undead is not affected (R41, R63)."""
    s = game("tutorial")
    g = guard(s, "E4", facing="NE")
    thief(s, 0, "F4")
    assert rules.diligent(s, g)
    assert facing(g) == "SE" and markers(s) == ["F4"]
    assert not rules.diligent(s, g)  # now Pursuing
    u = game(corridor(7))
    dead = guard(u, "D1", facing="S", type="stationary", undead=True)
    assert not rules.diligent(u, dead) and facing(dead) == "S"


def test_r24_r48_a_failed_pick_pocket_is_a_sighting() -> None:
    """R24, R48: when a Pick Pocket fails the guard spots the thief (marker, bow, Pursuing) and
    looks."""
    s = game("tutorial")
    g = guard(s, "E4", facing="SE")
    t = thief(s, 0, "D4")
    assert rules.spot_pick_pocket(s, g, 0)
    assert markers(s) == ["D4"] and status(g) == "pursuing" and t.wounds == 2
    off = game("tutorial")
    h = guard(off, "E4", facing="SE")
    assert not rules.spot_pick_pocket(off, h, 0) and status(h) == "bored"  # R63


def test_r25_only_a_bored_stationary_guard_rotates() -> None:
    """R25: a Stationary guard rotates only in its default status (Bored); Alert, it walks to
    its target instead."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="stationary", status="alert", target="D4", home="D1")
    marker(s, "D4")
    phases(s)
    assert where(s, g) == "D2" and facing(g) == "S"


def test_r26_patrolling_guard_steps_along_its_line_and_faces_the_next_hex() -> None:
    """R26: one hex per phase along the green line, facing the hex after; at the star it turns
    round too."""
    s = game("the-vault")
    g = guard(s, "I4", facing="SE", type="patrolling", route_dir=-1)
    phases(s)
    assert (where(s, g), g.route_dir, facing(g)) == ("H4", 1, face(s, "H4", "I4"))
    phases(s)
    assert (where(s, g), facing(g)) == ("I4", face(s, "I4", "J4"))


def test_r27_wandering_guard_walks_its_loop_and_adjust_rigging_reverses_it() -> None:
    """R27, 6.5 Adjust Rigging: a Wandering guard steps one hex per phase along the red arrows
    and faces the next; Adjust Rigging reverses its direction at once."""
    s = scripted(game("the-vault", difficulty="hard"), 1)
    g = next(g for g in s.guards if g.type == WANDERING and g.role == "hard")
    assert rules.place_guard(s, g)
    assert where(s, g) == "I4" and facing(g) == face(s, "I4", "J4")
    phases(s)
    assert where(s, g) == "J4" and facing(g) == face(s, "J4", "K4")
    assert rules.adjust_rigging(s, g)
    assert g.route_dir == -1 and facing(g) == face(s, "J4", "I4")
    phases(s, 2)
    assert where(s, g) == "I5" and facing(g) == face(s, "I5", "I6")


def test_r26_adjust_rigging_at_the_end_of_a_line_changes_nothing() -> None:
    """R26, R63, citywatch ruling 3: a Patrolling guard on its star already faces its only way
    on; Adjust Rigging has no effect on it, nor on a guard out of its default status."""
    s = game("the-vault")
    g = guard(s, "H4", facing=face_of("the-vault", "H4", "I4"), type="patrolling")
    assert not rules.adjust_rigging(s, g) and g.route_dir == 1
    g.status = ALERT
    g.route_pos = 2
    assert not rules.adjust_rigging(s, g)


def test_r28_after_a_step_a_guard_faces_the_first_step_toward_its_goal() -> None:
    """R28: after each step a guard faces the first step toward its goal; on the goal it keeps
    its last step's direction; hearing turns it toward the noise at once."""
    s = game("the-vault")
    g = guard(s, "J4", facing="N", type="patrolling", status="alert", target="K6", home="J4")
    goal = at(s, "K6")
    marker(s, "K6")
    first = rules.first_step(s.board, g.hex, g.facing, goal)
    phases(s)
    assert g.hex == s.board.step[at(s, "J4")][first]
    assert g.facing == rules.first_step(s.board, g.hex, first, goal) != NONE
    phases(s)
    assert g.hex == goal and g.facing != NONE
    hearing = game("the-vault")
    h = guard(hearing, "K4", facing="N", type="stationary", tile="hall")
    rules.noise(hearing, at(hearing, "K6"), "run")
    assert h.facing == rules.first_step(hearing.board, h.hex, 0, at(hearing, "K6")) != 0


def test_r29_ties_go_ahead_then_right_then_left_then_back() -> None:
    """R29: among equal shortest paths the first step is ahead, ahead-right, ahead-left,
    back-right, back-left, behind, relative to the facing."""
    every = [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)]
    s = game(small_board(every))
    d4 = at(s, "D4")
    goal = s.board.step[s.board.step[d4][1]][0]  # NE then N: two equal paths (N, NE)
    assert rules.first_step(s.board, d4, 0, goal) == 0  # facing N: ahead
    assert rules.first_step(s.board, d4, 1, goal) == 1  # facing NE: ahead
    assert rules.first_step(s.board, d4, 5, goal) == 0  # facing NW: N is ahead-right
    assert rules.first_step(s.board, d4, 2, goal) == 1  # facing SE: NE is ahead-left
    assert rules.first_step(s.board, d4, 4, goal) == 0  # facing SW: N is back-right
    assert rules.first_step(s.board, d4, 3, goal) == 1  # facing S: NE is back-left, N behind


def test_r30_roving_guard_prefers_the_newest_of_equal_markers_and_never_returns() -> None:
    """R30: the Roving guard heads for the closest marker (ties: newest); finding a marker with
    none visible it stays Alert with no target (never Returning, no home, no bow)."""
    s = game(corridor(9), difficulty="hard")
    g = guard(s, "D5", facing="N", type="roving")
    marker(s, "D2", "D8")
    phases(s)
    assert where(s, g) == "D6" and g.target == at(s, "D8")
    phases(s, 2)
    assert where(s, g) == "D8"
    assert status(g) == "alert" and g.home is None
    hk = game("the-black-keep", difficulty="hard")
    assert not next(x for x in hk.guards if x.role == "roving").bow


def test_r31_the_vault_tiles_hard_guard_appears_with_the_vault_guard_and_waits_for_its_crescent(
) -> None:
    """R31, R61: on hard the Vault tile's Stationary guard appears together with the vault
    guard, but waits while a thief stands on its crescent."""
    s = scripted(game("the-vault", difficulty="hard"), 1, 2, 3, 4)
    rules.place_initial_guards(s)
    vault_guards = [g for g in s.guards if g.tile == s.board.vault_tile]
    assert [g.placed for g in vault_guards] == [False, False]
    s.vault_triggered = True
    thief(s, 0, "K10", hiding=True)
    rules.place_waiting_guards(s)
    assert [g.placed for g in vault_guards] == [True, False]
    s.thieves[0].hex = at(s, "K11")
    rules.place_waiting_guards(s)
    assert vault_guards[1].placed and where(s, vault_guards[1]) == "K10"


def test_r32_an_alert_guard_retargets_only_to_a_strictly_nearer_noise() -> None:
    """R32: an Alert guard takes a new noise as its target only if strictly nearer (in steps)
    than its current one; then it turns toward it."""
    s = game(corridor(7))
    g = guard(s, "D4", facing="N", type="patrolling", status="alert", target="D2", home="D4")
    marker(s, "D2")
    rules.noise(s, at(s, "D6"), "run")
    assert g.target == at(s, "D2") and facing(g) == "N"
    rules.noise(s, at(s, "D5"), "run")
    assert g.target == at(s, "D5") and facing(g) == "S"


def test_r32_returning_guards_do_not_hear() -> None:
    """R32: a Returning guard is not affected by a noise."""
    s = game(corridor(7))
    g = guard(s, "D3", facing="S", type="patrolling", status="returning", home="D1")
    rules.noise(s, at(s, "D4"), "run")
    assert status(g) == "returning" and g.target == NONE


def test_r33_an_alert_guard_steps_one_hex_per_phase() -> None:
    """R33: an Alert guard steps one hex per phase toward its target marker."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="N", type="patrolling", status="alert", target="D5", home="D1")
    marker(s, "D5")
    phases(s)
    assert where(s, g) == "D2" and facing(g) == "S" and status(g) == "alert"


def test_r34_pursuing_guard_keeps_its_target_when_none_is_visible() -> None:
    """R34: a Pursuing guard steps twice; before each step it takes the nearest visible marker,
    or keeps its target if none is visible."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="N", type="patrolling", status="pursuing", target="D6", home="D1")
    marker(s, "D6")
    phases(s)
    assert where(s, g) == "D3" and g.target == at(s, "D6")


def test_r34_r35_pursuing_guard_switches_to_a_nearer_visible_marker_and_stops_there() -> None:
    """R34, R35: a Pursuing guard takes the nearest visible marker before each step; entering a
    marker ends its movement and it chooses the next visible one, staying Pursuing."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling", status="pursuing", target="D6", home="D1")
    marker(s, "D6", "D2")
    phases(s)
    assert where(s, g) == "D2" and g.target == at(s, "D6") and status(g) == "pursuing"
    assert markers(s) == ["D6"]


def test_r34_undead_pursue_one_hex_per_phase() -> None:
    """R34, R41: an undead Pursuing guard steps once per phase."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling", status="pursuing", target="D6", home="D1",
              undead=True)
    marker(s, "D6")
    phases(s)
    assert where(s, g) == "D2"


def test_r35_catching_a_thief_ends_the_movement() -> None:
    """R35, R37: a Pursuing guard that catches a thief at its first step takes no second step;
    it chooses the next visible marker."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="patrolling", status="pursuing", target="D2", home="D1")
    marker(s, "D5", "D2")
    t = thief(s, 0, "D2", hiding=True)
    phases(s)
    assert t.standing == CAUGHT and where(s, g) == "D2" and g.target == at(s, "D5")


def test_r36_a_routine_guard_clears_a_marker_and_carries_on() -> None:
    """R36: a guard in its default status walking over a marker removes it and carries on."""
    s = game("the-vault")
    g = guard(s, "J4", facing=face_of("the-vault", "J4", "K4"), type="patrolling")
    marker(s, "K4")
    phases(s)
    assert where(s, g) == "K4" and markers(s) == [] and status(g) == "interested"
    phases(s)
    assert where(s, g) == "L4"


def test_r36_a_returning_guard_clears_a_marker_and_carries_on() -> None:
    """R36: a Returning guard walking over a marker removes it and keeps Returning."""
    s = game(corridor(7))
    g = guard(s, "D4", facing="N", type="patrolling", status="returning", home="D1")
    marker(s, "D3")
    phases(s)
    assert where(s, g) == "D3" and markers(s) == [] and status(g) == "returning"


def test_r37_a_guard_catches_every_thief_in_a_hex_it_enters_marker_or_not() -> None:
    """R37: walking into thieves catches all of them, with no marker on their hex."""
    s = game("the-vault", thieves=2)
    g = guard(s, "J4", facing="N", type="patrolling")
    a = thief(s, 0, "K4")
    b = thief(s, 1, "K4")
    phases(s)
    assert where(s, g) == "K4" and (a.standing, b.standing) == (CAUGHT, CAUGHT)
    assert a.hex == b.hex == NONE and markers(s) == []


def test_r38_home_is_where_the_guard_left_its_default_status() -> None:
    """R38: leaving its default status a guard records its hex, route index and direction."""
    s = game("the-vault")
    g = guard(s, "K4", facing="SE", type="patrolling", route_dir=-1)
    rules.noise(s, at(s, "K6"), "run")
    assert g.home is not None
    assert (g.home.hex, g.home.route_pos, g.home.route_dir) == (at(s, "K4"), 3, -1)


def test_r39_r40_bows_by_difficulty() -> None:
    """R39, R40: easy: no bows; medium: basic and vault guards; hard: the hard guards too;
    never the Roving guard or undead."""
    def bows(difficulty: str) -> list[tuple[str, str]]:
        s = game("the-black-keep", difficulty=difficulty)
        return [(s.board.tiles[g.tile].id, g.role) for g in s.guards if g.bow]

    assert bows("easy") == []
    assert bows("medium") == [("gatehouse", "basic"), ("hall", "basic"), ("chapel", "basic"),
                              ("vault", "vault")]
    assert bows("hard") == [("gatehouse", "basic"), ("gatehouse", "hard"), ("hall", "basic"),
                            ("hall", "hard"), ("chapel", "basic"), ("chapel", "hard"),
                            ("vault", "vault"), ("vault", "hard")]


def test_r41_undead_ignore_guard_cards_and_do_not_relight() -> None:
    """R41, R21: undead ignore Art and Hip Flask, Diligent, Adjust Rigging; a living guard
    relights a torch it steps into, an undead one does not."""
    s = game(corridor(7, torches=["D3"]))
    dead = guard(s, "D1", facing="S", type="wandering", undead=True)
    assert not rules.distract(s, dead) and not rules.adjust_rigging(s, dead)
    assert status(dead) == "interested"
    dead.status, dead.target = ALERT, at(s, "D6")
    rules.record_home(dead)
    marker(s, "D6")
    extinguish(s, "D3")
    phases(s, 2)
    assert where(s, dead) == "D3" and s.extinguished == {at(s, "D3")}
    other = game(corridor(7, torches=["D3"]))
    living = guard(other, "D2", facing="S", type="patrolling", status="alert", target="D5",
                   home="D2")
    marker(other, "D5")
    extinguish(other, "D3")
    phases(other)
    assert where(other, living) == "D3" and other.extinguished == frozenset()


def test_r41_r62_keys_and_coins() -> None:
    """R62, R41: every guard that is not undead carries its key and 2 coins; undead carry
    neither."""
    s = game("the-black-keep", difficulty="hard")
    for g in s.guards:
        assert (g.key, g.coins) == ((False, 0) if g.undead else (True, 2))
    assert any(g.undead for g in s.guards)


def test_r42_guards_share_hexes() -> None:
    """R42: guards never block guards: a guard steps into a hex holding another."""
    s = game("the-vault")
    g = guard(s, "J4", facing="SE", type="patrolling")
    other = guard(s, "K4", facing="N", type="stationary", tile="hall")
    other.status = DISTRACTED  # it stays put
    phases(s)
    assert where(s, g) == where(s, other) == "K4"


def test_r43_at_most_one_marker_per_hex_removed_only_by_entering() -> None:
    """R43: a second noise on a marked hex adds no marker (the first keeps its order); seeing a
    marker does not remove it; entering does."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="S", type="stationary")
    rules.noise(s, at(s, "D6"), "run")
    rules.noise(s, at(s, "D6"), "arrow")
    assert s.markers == {at(s, "D6"): 0} and s.marker_count == 1
    marker(s, "D2")
    g.status = INTERESTED  # it sees D2 down its row
    rules.look(s, g)
    assert markers(s) == ["D2", "D6"]


def test_r60_the_vault_guard_acts_in_the_phase_it_appears() -> None:
    """R60, R31: the program moves the vault guard; it steps along its loop in the Guard Phase
    in which it appears."""
    s = scripted(game("the-vault"), 1)
    s.vault_triggered = True
    phases(s)
    vault = next(g for g in s.guards if g.role == "vault")
    assert where(s, vault) == "I8"
    assert any("appears at H8" in line for line in log_entries(s))


def log_entries(s: State) -> list[str]:
    """The state's log, oldest first."""
    return log_lines(s.log_tail, None)


def test_r61_a_stationary_guard_waits_until_its_crescent_is_free() -> None:
    """R61: a guard is never placed on a thief: a Stationary guard waits, then appears
    (citywatch ruling 4: it is tried again at the start of every Guard Phase)."""
    s = scripted(game("tutorial"), 2)
    thief(s, 0, "E4", hiding=True)
    rules.place_initial_guards(s)
    g = s.guards[0]
    assert not g.placed
    rules.guard_phase(s)
    assert not g.placed
    s.thieves[0].hex = at(s, "D7")
    rules.guard_phase(s)
    assert g.placed and where(s, g) == "E4" and facing(g) == "SE"  # rolled NE, then turned


def test_r63_cards_on_guards_no_longer_valid_have_no_effect() -> None:
    """R63: a card on a guard that is not on the map, or an undead one, is spent for nothing."""
    s = game("the-vault")
    unplaced = s.guards[0]
    assert not rules.distract(s, unplaced) and not rules.diligent(s, unplaced)
    assert not rules.adjust_rigging(s, unplaced)


def test_r64_a_look_marks_every_spotted_hex_once_and_shoots_each_thief_once() -> None:
    """R64: a look spots every spottable thief; two thieves on one hex make one marker; each is
    shot once per round."""
    s = game(corridor(7), thieves=3)
    g = guard(s, "D1", facing="S", type="patrolling", bow=True)
    a, b, c = thief(s, 0, "D4"), thief(s, 1, "D4"), thief(s, 2, "D6", hiding=True)
    rules.look(s, g)
    rules.look(s, g)
    assert markers(s) == ["D4"] and (a.wounds, b.wounds, c.wounds) == (2, 2, 3)
    assert sorted(referee.spotted_by(s, g)) == [0, 1]


def test_r65_a_guard_that_spots_a_thief_targets_the_nearest_visible_marker_at_its_next_step(
) -> None:
    """R65: spotting does not set the target; the next step takes the nearest visible marker."""
    s = game("tutorial")
    g = guard(s, "E4", facing="SE")
    t = thief(s, 0, "F4")
    rules.look(s, g)
    assert status(g) == "pursuing" and g.target == NONE
    phases(s)
    assert t.standing == CAUGHT and where(s, g) == "F4"


def test_r66_a_marker_with_no_path_is_ignored() -> None:
    """R66: a marker the guard cannot reach is ignored, even when it is the nearest."""
    s = game(small_board([f"D{r}" for r in range(1, 8)] + [f"F{r}" for r in range(1, 8)]))
    g = guard(s, "D4", facing="N", type="roving")
    marker(s, "F4")
    phases(s)
    assert where(s, g) == "D4" and g.target == NONE
    marker(s, "D1")
    phases(s)
    assert where(s, g) == "D3" and g.target == at(s, "D1")


# --- harm: Sword, Armour, Eye, Hide (6.6, R19) ---------------------------------------------------
def test_sword_fights_free_of_the_first_catch_and_distracts_the_guard() -> None:
    """6.6 Sword: the first catch by a living guard costs a wound instead and distracts that
    guard; the next catch holds. A Sword-distracted guard away from home walks back after the
    Resource Phase (citywatch ruling 1)."""
    s = game(corridor(7))
    g = guard(s, "D1", facing="N", type="patrolling", status="pursuing", target="D2", home="D1")
    marker(s, "D2")
    t = thief(s, 0, "D2", treasure=SWORD, hiding=True)
    phases(s)
    assert (t.standing, t.wounds, t.sword_used, status(g)) == (IN_PLAY, 2, True, "distracted")
    rules.resource_phase(s)
    assert status(g) == "returning"
    harm.catch(s, 0, g)
    assert t.standing == CAUGHT and t.hex == NONE


def test_armour_ignores_the_first_wound() -> None:
    """6.6 Armour: the first wound its carrier would take is ignored."""
    s = game(corridor(7))
    t = thief(s, 0, "D3", treasure=ARMOUR)
    harm.wound(s, 0, "shot")
    assert (t.wounds, t.armour_used) == (3, True)
    harm.wound(s, 0, "shot")
    assert t.wounds == 2


def test_r18_r19_light_hide_and_the_eye_decide_spotting() -> None:
    """R18, R19: in the dark a thief is spotted only from a neighbouring hex; a Hiding thief
    likewise even when lit; the Eye lights its carrier unless it Hides."""
    s = game(corridor(7, torches=[]))
    g = guard(s, "D1", facing="S", type="patrolling")
    t = thief(s, 0, "D4")
    assert referee.spotted_by(s, g) == []
    t.hex = at(s, "D2")
    assert referee.spotted_by(s, g) == [0]
    t.hex, t.treasure = at(s, "D4"), EYE
    assert referee.spotted_by(s, g) == [0]
    t.hiding = True
    assert referee.spotted_by(s, g) == []
    lit = game(corridor(7))
    h = guard(lit, "D1", facing="S", type="patrolling")
    thief(lit, 0, "D4", hiding=True)
    assert referee.spotted_by(lit, h) == []
    assert referee.in_hex(lit, at(lit, "D4")) == [0]


def test_noise_refuses_bad_input_and_changes_nothing() -> None:
    """Bad input gets a clear error and changes nothing."""
    s = game(corridor(7))
    with pytest.raises(ValueError, match="noise kind"):
        rules.noise(s, at(s, "D3"), "shout")
    with pytest.raises(ValueError, match="no floor hex"):
        rules.noise(s, 999, "run")
    assert s.markers == {}


# --- properties over random guard phases ----------------------------------------------------------
def random_state(name: str, thieves: int, difficulty: str, seed: int) -> tuple[State, Rng]:
    """A game with every guard placed (vault guards by chance), thieves on random free floor
    hexes, a few markers, and a generator for the rest of the test."""
    s = game(name, thieves=thieves, difficulty=difficulty)
    s.rng = Rng(seed)
    rng = Rng(seed + 1)
    rules.place_initial_guards(s)
    s.vault_triggered = rng.below(2) == 0
    occupied = {g.hex for g in s.guards if g.placed}
    free = [h for h in range(s.board.size) if h not in occupied]
    for t in s.thieves:
        t.hex = free[rng.below(len(free))]
        t.hiding = rng.below(4) == 0
    for _ in range(rng.below(4)):
        rules.mark(s, rng.below(s.board.size))
    return s, rng


def thieves_move(s: State, rng: Rng) -> None:
    """Every thief in play steps to a random open neighbour without a guard, or stays."""
    guarded = {g.hex for g in s.guards if g.placed}
    for t in s.thieves:
        if t.standing != IN_PLAY:
            continue
        ways = [n for n in s.board.step[t.hex] if n >= 0 and n not in guarded]
        if ways and rng.below(3):
            t.hex = ways[rng.below(len(ways))]


def check_invariants(s: State) -> None:
    """Markers one per hex with distinct orders, guards on floor hexes with valid statuses,
    thieves out of play off the map."""
    orders = list(s.markers.values())
    assert len(set(orders)) == len(orders) and all(0 <= o < s.marker_count for o in orders)
    assert all(0 <= h < s.board.size for h in s.markers)
    for g in s.guards:
        if g.placed:
            assert 0 <= g.hex < s.board.size and 0 <= g.facing < 6
            assert 0 <= g.status < len(STATUSES)
            assert g.target == NONE or 0 <= g.target < s.board.size
            if g.type in (PATROLLING, WANDERING):
                assert 0 <= g.route_pos < len(rules.route_of(s.board, g))
        else:
            assert g.hex == NONE
    for t in s.thieves:
        if t.standing in (CAUGHT, KILLED):
            assert t.hex == NONE
        else:
            assert 0 <= t.hex < s.board.size and t.wounds > 0


@settings(derandomize=True, max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(1, 4), st.sampled_from(DIFFICULTIES),
       st.integers(0, 2**32))
def test_random_guard_phases_keep_the_invariants(name: str, thieves: int, difficulty: str,
                                                 seed: int) -> None:
    """Over random rounds (thieves wander, noises, vault trigger): markers one per hex, guards
    on floor hexes with valid statuses, caught and killed thieves off the map."""
    s, rng = random_state(name, thieves, difficulty, seed)
    check_invariants(s)
    kinds = rules.NOISES
    for _ in range(12):
        rules.resource_phase(s)
        thieves_move(s, rng)
        if rng.below(3) == 0:
            rules.noise(s, rng.below(s.board.size), kinds[rng.below(3)])
        if rng.below(5) == 0:
            s.vault_triggered = True
        rules.guard_phase(s)
        check_invariants(s)


@PATCHES_REFEREE
@settings(derandomize=True, max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(1, 3), st.sampled_from(DIFFICULTIES),
       st.integers(0, 2**32))
def test_section_10_guards_depend_only_on_public_state_and_referee_answers(
        name: str, thieves: int, difficulty: str, seed: int) -> None:
    """Section 10: two states differing only in one thief's hidden hex, given the same referee
    answers, end every guard phase with identical guards, markers and torches."""
    s, rng = random_state(name, thieves, difficulty, seed)
    guarded = {g.hex for g in s.guards if g.placed}
    free = [h for h in range(s.board.size) if h not in guarded]
    twin = s.copy()
    twin.thieves[0].hex = free[rng.below(len(free))]
    for _ in range(4):
        with referee_answers() as one:
            rules.guard_phase(s)
        with referee_answers() as other:
            rules.guard_phase(twin)
        if one != other:
            return
        assert public_guards(s) == public_guards(twin)
        assert [(t.standing, t.wounds) for t in s.thieves] == \
            [(t.standing, t.wounds) for t in twin.thieves]


@PATCHES_REFEREE
def test_answers_recorder_sees_every_referee_question() -> None:
    """The section 10 property is not vacuous: the recorder catches the referee's answers."""
    s = game(corridor(7))
    guard(s, "D1", facing="S", type="patrolling")
    thief(s, 0, "D3")
    with referee_answers() as answers:
        phases(s)
    assert ("spots", ((0, at(s, "D3")),)) in answers and ("in", at(s, "D3"), (0,)) in answers

