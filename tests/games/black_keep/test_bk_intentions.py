"""The guards' next moves as far as the thieves can know them, and the warnings before a risky
move (issue 28, ``intentions``).

The forecast is the real Guard Phase run with every thief off the map (spec 10: the guards act
on public facts and the referee's answers), so it must be the same in every world a thief cannot
tell apart, and a guard that sees and hears nobody must end on one of its forecast outcomes.
"""

from __future__ import annotations

from typing import Any

import pytest
from bk_positions import at, game, guard, scripted, thief, without_unplaced
from rich.console import Console

from citywatch.core.rng import Rng
from citywatch.games.black_keep import intentions, terminal
from citywatch.games.black_keep.data import THIEF_CARDS
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.round import card_options
from citywatch.games.black_keep.state import (
    CAUGHT,
    IN_PLAY,
    KILLED,
    NONE,
    BlackKeepState,
)

State = BlackKeepState


def planning(s: State, seat: int = 0) -> State:
    """``s`` with thief ``seat`` holding every thief card and deciding its thief card."""
    t = s.thieves[seat]
    t.hand = list(range(len(THIEF_CARDS)))
    t.exit_tile = 0
    s.round = 1
    s.phase = "plan"
    s.stack = [("plan_card", seat)]
    return s


def only(s: State, number: int) -> intentions.Forecast:
    return intentions.forecast(s)[number - 1]


# --- what a guard will do ------------------------------------------------------------------
def test_a_bored_stationary_guard_is_forecast_to_turn_one_side_clockwise() -> None:
    """R25: a Stationary guard facing NW faces N after its Guard Phase; no die decides."""
    s = without_unplaced(game("tutorial"))
    guard(s, "E4", "NW")
    f = only(s, 1)
    assert [(o.route, s.board.labels[o.hex], o.facing, o.faces, o.when) for o in f.outcomes] \
        == [((), "E4", 0, (), "")]
    assert f.text(s) == "G1 (Bored) turns to face N"


def test_a_patrolling_guard_is_forecast_one_step_along_its_line() -> None:
    """R26 and R28: a Patrolling guard on its star steps to the next hex of the green line and
    faces the one after."""
    s = without_unplaced(game("the-vault"))
    line = s.board.tiles[0].green_line
    guard(s, s.board.labels[line[0]], type="patrolling")
    f = only(s, 1)
    (o,) = f.outcomes
    assert o.route == (line[1],) and o.hex == line[1]
    assert s.board.step[line[1]][o.facing] == line[2]
    assert f.does.startswith(f"walks 1 to {s.board.labels[line[1]]}, faces ")


def test_the_vault_guard_waits_until_a_thief_enters_the_vault_tile_then_a_die_picks_a_shield(
) -> None:
    """R31 and R27: the vault guard appears only after a thief stepped onto the Vault tile, on
    the red shield a die picks; before that its forecast says so, with each shield as a
    choice; after the trigger the faces of the die are the alternatives."""
    s = without_unplaced(game("the-vault"))
    vault = next(i for i, g in enumerate(s.guards) if g.role == "vault")
    shields = set(s.board.tiles[s.guards[vault].tile].red_shields)
    f = intentions.forecast(s)[vault]
    plain = [o for o in f.outcomes if not o.when]
    assert [o.hex for o in plain] == [NONE]
    called = [o for o in f.outcomes if o.when == intentions.IF_VAULT]
    assert {o.route[0] for o in called} == shields
    assert "comes when a thief enters the Vault tile" in f.does
    s.vault_triggered = True
    f = intentions.forecast(s)[vault]
    assert {o.route[0] for o in f.outcomes} == shields
    assert sorted(face for o in f.outcomes for face in o.faces) == [1, 2, 3, 4, 5, 6]
    assert f.does.startswith("appears at ") and "by a die" in f.does


def test_a_pursuing_guard_is_forecast_two_steps_toward_the_marker() -> None:
    """R34: a Pursuing guard steps twice toward the nearest visible marker."""
    s = without_unplaced(game("tutorial"))
    guard(s, "C6", "N", status="pursuing", home="C6", target="C3")
    s.markers[at(s, "C3")] = 0
    s.marker_count = 1
    (o,) = only(s, 1).outcomes
    assert [s.board.labels[h] for h in o.route] == ["C5", "C4"]


# --- the forecast reads public facts only (spec 10) ----------------------------------------
def plan_decisions(seed: int, players: int, mode: str, scenario: str,
                   rounds: int = 6) -> list[State]:
    """States at the thief-card decisions of a game played at random (never escaping)."""
    s = GAME.new_game(players, seed=seed, scenario=scenario, difficulty="hard",
                      **({"mode": mode} if mode != "coop" else {}))
    rng = Rng(1000 + seed)
    found = []
    while s.result is None and s.round <= rounds:
        legal = s.legal_actions()
        if s.stack[-1][0] == "plan_card":
            found.append(s.copy())
        kept = [a for a in legal if "escape" not in str(a)] or legal
        s.apply(kept[rng.below(len(kept))])
    return found


@pytest.mark.parametrize("scenario", ["tutorial", "the-vault", "the-black-keep"])
def test_the_forecast_is_the_same_in_every_world_a_thief_cannot_tell_apart(scenario: str) -> None:
    """Spec 10: the forecast and the warnings depend on public facts (and the seat's own
    secrets) only: ``determinize`` re-draws the hidden Location Dials, plans and decks, and
    changes neither."""
    for seed in range(3):
        for s in plan_decisions(seed, 2, "rivals", scenario):
            seat = s.stack[-1][1]
            other = 1 - seat
            want = intentions.forecast_json(s)
            warned = s.view(seat)["decision"]["warnings"]
            for k in range(3):
                world = s.determinize(other, Rng(k))
                assert intentions.forecast_json(world) == want
                world = s.determinize(seat, Rng(k))
                assert world.view(seat)["decision"]["warnings"] == warned


def test_no_other_seat_and_no_spectator_reads_the_warnings() -> None:
    """Spec 10 and citywatch ruling 16: the warnings are about the deciding seat's own plan,
    so only its own view has them; every view has the same forecast."""
    s = plan_decisions(1, 2, "rivals", "the-vault")[0]
    seat = s.stack[-1][1]
    assert "warnings" in s.view(seat)["decision"]
    assert "warnings" not in s.view(1 - seat)["decision"]
    assert "warnings" not in s.view(None)["decision"]
    assert s.view(seat)["forecast"] == s.view(1 - seat)["forecast"] == s.view(None)["forecast"]


def quiet(before: State, after: State) -> bool:
    """Whether nothing a thief did or suffered this round changed a guard: no marker placed
    (no noise, no sighting), no Guard card played, every guard as it stood when the phase
    began is as at the plan, no thief caught, killed or wounded."""
    if after.marker_count != before.marker_count or any(
            "'s " + word in line for line in after.log(None)[len(before.log(None)):]
            for word in ("Art", "Hip Flask", "Diligent", "Adjust Rigging", "Pick Pocket")):
        return False
    n = len(before.guards)
    for g, (_, hex, facing, status) in zip(before.guards, after.guard_trace[:n], strict=True):
        if g.placed and (g.hex, g.facing, g.status) != (hex, facing, status):
            return False
    return all(a.standing not in (CAUGHT, KILLED) and a.wounds == b.wounds
               for a, b in zip(after.thieves, before.thieves, strict=True))


@pytest.mark.parametrize("scenario", ["tutorial", "the-vault", "the-black-keep"])
def test_a_guard_that_sees_and_hears_nobody_ends_on_a_forecast_outcome(scenario: str) -> None:
    """Section 5, R24-R38: after a round in which no thief was seen or heard and no Guard card
    acted, every guard stands where one of the outcomes forecast at the plan said (the
    vault's outcomes count once a thief has stepped onto it, R31)."""
    checked = 0
    for seed in range(4):
        s = GAME.new_game(1, seed=seed, scenario=scenario, difficulty="hard")
        rng = Rng(77 + seed)
        while s.result is None and s.round <= 10:
            legal = s.legal_actions()
            if s.stack[-1][0] == "plan_card":
                before = s.copy()
                told = intentions.forecast(before)
                game_round = s.round
                while s.result is None and s.round == game_round:
                    legal = s.legal_actions()
                    kept = [a for a in legal if "escape" not in str(a)
                            and not str(a).startswith("Run")] or legal
                    s.apply(kept[rng.below(len(kept))])
                if s.guard_trace and quiet(before, s):
                    for f, g in zip(told, s.guards, strict=True):
                        ends = {(o.hex, o.facing, o.status) if o.hex != NONE else (NONE,)
                                for o in f.outcomes
                                if not o.when or (o.when == intentions.IF_VAULT
                                                  and s.vault_triggered)}
                        assert ((g.hex, g.facing, g.status) if g.placed else (NONE,)) in ends, \
                            (scenario, seed, f.text(before))
                        checked += 1
                continue
            kept = [a for a in legal if "escape" not in str(a)] or legal
            s.apply(kept[rng.below(len(kept))])
    assert checked > 10


# --- warnings (citywatch ruling 26) --------------------------------------------------------
def risky(s: State) -> dict[str, set[str]]:
    """The warnings on the quiet moves (not a Run) of the seat deciding, by end hex: the set
    of notes."""
    out: dict[str, set[str]] = {}
    for w in intentions.warnings_json(s, s.stack[-1][1]):
        if not w["action"].startswith("Run"):
            out.setdefault(w["hex"], set()).add(w["note"])
    return out


def watched_mouth() -> State:
    """The Tutorial: the Bored guard on D4 faces NW, so after its turn it looks N along D3 and
    D2 (both lit by the torch D1); the thief stands on D2, at the mouth of the north-east room
    (open only at D2|E2), with the Guardroom as its Exit tile."""
    s = without_unplaced(game("tutorial"))
    guard(s, "D4", "NW")
    thief(s, 0, "D2")
    return planning(s)


def test_a_move_into_a_guards_coming_sight_is_marked() -> None:
    """3.7, R18 and R24: a move ending on D3, which the guard will see (lit) after its turn,
    is marked "seen by G1" before it is chosen; a move to C2, which no guard sees, is not."""
    s = watched_mouth()
    marks = risky(s)
    assert marks["D3"] == {"seen by G1"}
    assert "C2" not in marks


def test_a_move_into_a_room_whose_only_way_out_is_watched_is_a_dead_end() -> None:
    """Citywatch ruling 26: stepping from D2 into the north-east room (open only at D2|E2),
    whose way out is back through D2, which the guard will see, is marked a dead end."""
    s = watched_mouth()
    marks = risky(s)
    assert marks["E2"] == {"dead end"}
    assert not any("dead end" in note for hex, notes in marks.items() if hex != "E2"
                   for note in notes)


def test_no_dead_end_when_the_way_back_is_not_watched() -> None:
    """Citywatch ruling 26: with the guard facing away (it turns to SW, not toward D2), the
    same step into the room is no dead end."""
    s = watched_mouth()
    s.guards[0].facing = 2  # SE: it turns to S
    assert "E2" not in risky(s)


def test_a_hiding_thief_is_warned_only_from_next_to_a_guard() -> None:
    """R19 and R47: Hide keeps a thief in a lit hex unseen except from a neighbouring hex."""
    s = without_unplaced(game("tutorial"))
    guard(s, "D4", "NW")
    thief(s, 0, "D2")
    planning(s)
    options = [str(a) for a in card_options(s, 0)]
    notes = dict(zip(options, intentions.warnings(s, 0), strict=True))
    assert notes["Play Hide"] is None
    thief(s, 0, "D3")
    options = [str(a) for a in card_options(s, 0)]
    notes = dict(zip(options, intentions.warnings(s, 0), strict=True))
    assert notes["Play Hide"] == "seen by G1"


def test_a_run_is_warned_when_its_noise_brings_a_guard_to_see_the_runner() -> None:
    """R32 and R28: a Run's noise within 4 steps makes the Bored guard Alert and turns it
    toward the noise, so a Run ending in its new field is marked seen."""
    s = watched_mouth()
    notes = dict(zip([str(a) for a in s.legal_actions()], intentions.warnings(s, 0),
                     strict=True))
    runs = {text: note for text, note in notes.items() if text.startswith("Run")}
    assert runs and any(note and "seen by G1" in note for note in runs.values())


def test_warnings_only_at_the_thief_card_decision() -> None:
    """The warnings are for the thief card only: at other decisions there are none."""
    s = watched_mouth()
    s.stack = [("buy", 0)]
    assert intentions.warnings(s, 0) == []


# --- the terminal --------------------------------------------------------------------------
def screen_lines(renderable: Any, width: int = 80) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


def test_the_terminal_summary_has_one_line_per_guard_and_the_warnings_within_80_columns() -> None:
    """Issue 28: on the decision screen, one line per guard saying its next move, and the
    warnings on the seat's own moves, each within 80 columns."""
    s = scripted(watched_mouth(), 1, 1)
    view = s.view(0)
    lines = screen_lines(terminal.summary(view))
    assert any(line.startswith(" 1 D4") and "turns to face N" in line for line in lines)
    assert any(line.startswith("Careful:") and "D3: seen by G1" in line for line in lines)
    assert any("Move to E2: dead end" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)
    assert terminal.summary_least(view) == len(lines)


def test_every_seat_reads_the_same_forecast_line_per_guard() -> None:
    """Spec 10: the forecast is public; its lines name every guard once, in listing order."""
    s = plan_decisions(2, 1, "coop", "the-black-keep")[0]
    view = s.view(0)
    numbers = [f["number"] for f in view["forecast"]]
    assert numbers == list(range(1, len(s.guards) + 1))
    assert all(f["text"].startswith(f"G{f['number']}") for f in view["forecast"])
    assert all(t.standing == IN_PLAY for t in s.thieves)


def _outcomes(found: list[Any]) -> list[Any]:
    """What a list of ghost Guard Phases comes to: each one's die face and trace."""
    return [(run.face, run.vault, run.after.guard_trace) for run in found]


@pytest.mark.parametrize("scenario", ["tutorial", "the-vault", "the-black-keep"])
def test_spec_10_the_kept_guard_phases_are_those_of_the_public_facts(scenario: str) -> None:
    """Spec 10 (the guards act on public facts): the Guard Phases ``runs`` keeps, found again
    by ``public_key`` from another state of the same facts (a thief moved, a card planned),
    are the ones worked out afresh for every state of seeded games."""
    import random

    checked = 0
    for seed in range(40):
        if checked >= 150:
            break
        s = GAME.new_game(2, seed, scenario=scenario)
        rng = random.Random(seed)
        while s.to_move is not None:
            for vault in (False, True):
                assert _outcomes(intentions.runs(s, vault)) == _outcomes(
                    intentions.played(s, vault))
            checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked >= 150
