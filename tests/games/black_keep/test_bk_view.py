"""Thieves of the Black Keep: what each seat sees (spec 10), worlds re-sampled for a seat
(determinization), and the thieves' public possibility sets that those worlds draw hidden
Location Dials from.

Each test names the rule it checks: spec section 10, a ruling (Rn), or a citywatch ruling of
``docs/black-keep-rulings.md`` ("citywatch ruling N"). Situations are positions
(``bk_positions.opening``, edited by labels) or pieces placed by label (``bk_positions.game``).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bk_positions import at, corridor, game, guard, load, opening, put_guard, put_thief, thief
from hypothesis import given, settings
from hypothesis import strategies as st

from citywatch.core.rng import Rng
from citywatch.games.black_keep import guards as guard_rules
from citywatch.games.black_keep import round as rounds
from citywatch.games.black_keep.data import FAKE, REAL_TREASURES
from citywatch.games.black_keep.game import GAME
from citywatch.games.black_keep.sight import sight
from citywatch.games.black_keep.state import IN_PLAY, NONE, BlackKeepState
from citywatch.games.black_keep.view import PLANNING, crown_tokens, knows_dial

State = BlackKeepState
SECRET = ("hex", "hex_known", "plan")
"""The parts of a thief in a view that depend on who looks."""


def do(s: State, *texts: str) -> None:
    """Apply actions named by their text, in order."""
    for text in texts:
        legal = {str(a): a for a in s.legal_actions()}
        assert text in legal, f"{text!r} is not offered; offered: {sorted(legal)}"
        s.apply(legal[text])


def labels(s: State, hexes: Any) -> list[str]:
    return sorted(s.board.labels[h] for h in hexes)


def rivals() -> State:
    """The Vault, two rival thieves on A4 and D7, the Gatehouse's Art in Thief 2's hand, a
    marker on C3 and the torch at A3 put out; Thief 1 to plan."""
    pos = opening("the-vault", 2, "rivals", starts=("A4", "D7"))
    pos["thieves"][1]["guard_cards"] = ["Noise Arrow"]
    pos["guard_deck"] = [c for c in pos["guard_deck"] if c != "Noise Arrow"]
    pos["market"] = [None if c == "Noise Arrow" else c for c in pos["market"]]
    pos["markers"], pos["markers_placed"] = {"C3": 0}, 1
    pos["extinguished"] = ["A3"]
    return load(pos)


# --- what every seat sees (spec 10) -----------------------------------------------------------
def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what depends on the seat: who looks, the decision, dials and plans."""
    rest = {k: v for k, v in view.items() if k not in ("seat", "name", "decision")}
    rest["thieves"] = [{k: v for k, v in t.items() if k not in SECRET} for t in view["thieves"]]
    return rest


def test_section_10_public_facts_are_the_same_in_every_view() -> None:
    """Spec 10: the map, torches and counters, every guard's state, the markers, discards,
    coins, items, treasures, wounds, the market and the decks' sizes are public: every seat and
    the spectator see them alike."""
    s = rivals()
    views = [s.view(0), s.view(1), s.view(None)]
    assert all(json.loads(json.dumps(v)) == v for v in views)
    assert public_part(views[0]) == public_part(views[1]) == public_part(views[2])
    v = views[2]
    assert v["scenario"] == {"id": "the-vault", "name": "The Vault"}
    assert v["markers"] == [{"hex": "C3", "order": 0}] and v["extinguished"] == ["A3"]
    assert v["guards"][0]["hex"] == "F4" and v["guards"][0]["status"] == "bored"
    assert v["guard_deck"] == len(s.guard_deck) and v["treasures_on_crown"] == 3
    assert v["thieves"][1]["guard_cards"] == ["Noise Arrow"]
    assert v["round"] == 1 and v["dawn"] == 30


def test_section_10_guards_show_their_field_of_view_and_the_light() -> None:
    """Spec 10 and 3.6: each guard's current field of view (``sees``) and the lit hexes are in
    the view, so a board can shade them; a Distracted guard sees nothing."""
    s = rivals()
    v = s.view(None)
    for g, shown in zip(s.guards, v["guards"], strict=True):
        if g.placed:
            seen = sight(s.board).seen(g.hex, g.facing, g.status, s.params.bored_reach)
            assert shown["sees"] == [s.board.labels[h] for h in sorted(seen)]
        else:
            assert shown["sees"] == [] and shown["hex"] is None
    assert v["lit"] == [s.board.labels[h] for h in sorted(sight(s.board).lit(s.extinguished, 2))]
    assert "A3" not in v["lit"]
    s.guards[0].status = 0  # Distracted
    assert s.view(None)["guards"][0]["sees"] == []


def test_section_10_rivals_see_only_their_own_dial_hand_and_plan() -> None:
    """Spec 10, rivals: a seat sees its own Location Dial and plan, no other thief's; the
    spectator sees no dial and no plan."""
    s = rivals()
    do(s, "Play Hide")
    assert s.to_move == 1
    mine, theirs, nobody = s.view(0), s.view(1), s.view(None)
    assert mine["thieves"][0]["hex"] == "A4" and mine["thieves"][0]["plan"]["card"] == "Hide"
    assert mine["thieves"][0]["plan"]["text"] == "Hide"
    assert mine["thieves"][1]["hex"] is None and not mine["thieves"][1]["hex_known"]
    assert theirs["thieves"][1]["hex"] == "D7" and theirs["thieves"][0]["hex"] is None
    assert theirs["thieves"][0]["plan"] is None
    assert all(t["hex"] is None and t["plan"] is None for t in nobody["thieves"])
    assert not any(knows_dial(s, None, p) for p in range(2))


def test_citywatch_ruling_16_coop_shares_dials_but_not_plans_before_the_reveal() -> None:
    """Spec 10 and citywatch ruling 16: in co-op every thief's dial is shared by the players,
    but a committed plan stays out of the other seats' views and logs until the reveal."""
    pos = opening("the-vault", 2, "coop", starts=("A4", "D7"))
    s = load(pos)
    do(s, "Play Hide")
    other = s.view(1)
    assert other["thieves"][0]["hex"] == "A4" and other["thieves"][0]["hex_known"]
    assert other["thieves"][0]["plan"] is None
    assert "Thief 1 has made its plan." in s.log(1)
    assert not any("plans:" in line for line in s.log(1))
    assert any(line == "Thief 1 plans: Hide." for line in s.log(0))
    assert s.view(None)["thieves"][0]["hex"] is None
    do(s, "Play Hide")  # the reveal
    assert "Thief 1 plays Hide." in s.log(1)


def test_section_10_another_seats_plan_decision_reads_make_its_plan() -> None:
    """Spec 10, citywatch ruling 17: the task of another seat's plan decision tells nothing of
    its plan; only the seat to move sees its task and its actions."""
    s = rivals()
    do(s, "Play Hide", "Run N then N to D5")
    assert s.stack[-1] == ("plan_guard", 1)
    mine, other = s.view(1)["decision"], s.view(0)["decision"]
    assert mine["task"] == "plan a Guard card or none" and "actions" in mine
    assert other == {"seat": "Thief 2", "task": "make its plan"} and s.stack[-1][0] in PLANNING
    assert s.view(None)["decision"] == other


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.sampled_from(["tutorial", "the-vault", "the-black-keep"]), st.integers(2, 4),
       st.sampled_from(["coop", "rivals"]), st.integers(0, 2 ** 32))
def test_section_10_no_seat_reads_another_seats_plan_or_rival_dial(name: str, thieves: int,
                                                                   mode: str,
                                                                   seed: int) -> None:
    """Spec 10 and citywatch ruling 16, over random games: no view, log line or action text of
    a seat (or the spectator) holds another seat's plan, nor in rivals its Location Dial."""
    s = GAME.new_game(thieves, seed, scenario=name, mode=mode, parameters={"dawn": 6})
    rng = Rng(seed)
    while s.to_move is not None:
        for seat in [*range(thieves), None]:
            v = s.view(seat)
            for p, t in enumerate(v["thieves"]):
                if p == seat:
                    continue
                assert t["plan"] is None
                assert (t["hex"] is not None) == (seat is not None and mode == "coop"
                                                  and s.thieves[p].hex != NONE)
            log = s.log(-1 if seat is None else seat)
            for p in range(thieves):
                if p == seat:
                    continue
                assert not any(line.startswith(f"Thief {p + 1} plans:") for line in log)
                if mode == "rivals" or seat is None:
                    assert not any(line.startswith(f"Thief {p + 1} moves to")
                                   or f"Thief {p + 1} sets its Location Dial to" in line
                                   for line in log)
            decision = v["decision"]
            assert ("actions" in decision) == (seat == s.to_move)
        s.apply(s.legal_actions()[rng.below(len(s.legal_actions()))])


# --- determinization -----------------------------------------------------------------------------
def test_determinize_keeps_the_public_facts_and_the_seats_own_secrets() -> None:
    """Spec 10: a world sampled for a seat shows that seat exactly its view (its own dial, hand
    and plan included), and reads back as a valid position."""
    s = rivals()
    do(s, "Play Hide")
    for k in range(20):
        world = s.determinize(1, Rng(k))
        assert world.view(1) == s.view(1)
        assert GAME.from_position(world.position()).position() == world.position()
        assert world.thieves[1].hex == s.thieves[1].hex


def test_determinize_resamples_hidden_dials_from_the_possible_hexes() -> None:
    """Spec 10, rivals: another thief's Location Dial is drawn from its public possibility
    set, so it varies between worlds and never leaves the set; the Guard deck is re-shuffled."""
    s = rivals()
    possible = s.thieves[1].possible
    assert possible is not None and len(possible) == 5
    dials, decks = Counter(), set()
    for k in range(60):
        world = s.determinize(0, Rng(k))
        dials[world.thieves[1].hex] += 1
        decks.add(tuple(world.guard_deck))
        assert world.thieves[0].hex == s.thieves[0].hex
    assert set(dials) <= possible and len(dials) > 2
    assert len(decks) > 1 and all(sorted(d) == sorted(s.guard_deck) for d in decks)


def test_determinize_redraws_other_plans_among_legal_ones() -> None:
    """Spec 10 and citywatch ruling 16: another seat's committed plan is re-drawn among the
    plans it could have made from its (sampled) hex; the worlds are valid positions, so each
    drawn plan is legal (``read_position`` checks it, ruling 58)."""
    s = rivals()
    do(s, "Play Hide")
    plans = set()
    for k in range(40):
        world = s.determinize(1, Rng(k))
        plans.add(world.thieves[0].plan)
        GAME.from_position(world.position())
    assert len(plans) > 3 and all(p is not None for p in plans)


def test_determinize_never_reads_the_hidden_truth() -> None:
    """OpenSpiel's resampler bug: two states differing only in what seat 1 cannot see (thief
    1's dial and plan) give seat 1 the same worlds."""
    s = rivals()
    do(s, "Play Hide")
    twin = s.determinize(1, Rng(5))
    assert twin.thieves[0].hex != s.thieves[0].hex or twin.thieves[0].plan != s.thieves[0].plan
    for k in range(10):
        assert s.determinize(1, Rng(k)).position() == twin.determinize(1, Rng(k)).position()


def test_determinize_of_a_plan_being_made_fits_the_decision() -> None:
    """Spec 10: when another thief is choosing its Guard card, the world gives it a thief card
    that leaves such a choice (else it would not be asked)."""
    s = rivals()
    do(s, "Play Hide", "Run N then N to D5")
    for k in range(20):
        world = s.determinize(0, Rng(k))
        assert world.stack[-1] == ("plan_guard", 1)
        assert len(world.legal_actions()) > 1
        assert GAME.from_position(world.position()).position() == world.position()


def test_r51_crown_tokens_are_redrawn_from_the_treasures_nobody_carries() -> None:
    """6.6, R51: the crown's tokens are re-drawn from the real treasures no thief carries, and
    the Fake stays among them in the advanced game until it is revealed."""
    pos = opening("the-black-keep", 2, "coop", starts=("A4", "A5"))
    carried = pos["treasures"].pop()
    pos["thieves"][1]["treasure"] = carried
    s = load(pos)
    assert s.advanced and FAKE in s.treasures
    seen: set[int] = set()
    for k in range(30):
        tokens = crown_tokens(s, Rng(k))
        assert len(tokens) == len(s.treasures) and FAKE in tokens
        assert s.thieves[1].treasure not in tokens
        seen |= set(tokens)
    assert seen - {FAKE} <= set(REAL_TREASURES) - {s.thieves[1].treasure}
    assert len(seen) > len(s.treasures)


# --- the public possibility sets --------------------------------------------------------------
def test_r53_the_set_starts_as_every_start_hex() -> None:
    """R53, citywatch ruling 21: a thief sets its dial secretly on any outside edge hex of an
    entry tile with no guard, so that is all everybody knows."""
    s = GAME.new_game(1, 2, scenario="the-vault")
    do(s, "Set your Location Dial to D7")
    assert labels(s, s.thieves[0].possible) == [s.board.labels[h] for h in rounds.start_hexes(s)]


def test_6_3_a_revealed_card_spreads_the_set_by_its_reach() -> None:
    """6.2, 6.3, R58: after the reveal a thief may be wherever its card could take it from any
    of its possible hexes: a Move card's two directions, a Run's one or two steps, Hide in
    place."""
    s = load(opening("the-vault", 1, starts=("A4",)))
    t = s.thieves[0]
    blocked = rounds.guard_hexes(s)
    start = frozenset({at(s, "C4")})
    assert labels(s, rounds.reachable(s, t, start, 2, blocked)) == ["C5", "D4"]  # Move SE/S
    assert labels(s, rounds.reachable(s, t, start, 0, blocked)) == ["C3"]  # the door D3: shut
    shut = frozenset({at(s, "C3")})
    assert rounds.reachable(s, t, shut, 0, blocked) == shut  # both ways shut: it stays
    assert rounds.reachable(s, t, start, 7, blocked) == start  # Hide
    run = rounds.reachable(s, t, start, 6, blocked)
    assert {at(s, h) for h in ("C4", "B3", "E4", "B5", "A5")} <= run
    assert not {at(s, h) for h in ("D3", "C6", "C7")} & run  # doors shut (R49); 3 steps


def test_r32_a_runs_noise_tells_everybody_where_the_runner_is() -> None:
    """4.5, R32, citywatch ruling 18: a Run's noise at its end hex is public and names its
    runner, so the runner's set is that hex."""
    s = load(opening("the-vault", 1, starts=("A4",)))
    do(s, "Run SE then SE to C5")
    assert labels(s, s.thieves[0].possible) == ["C5"]
    assert "Thief 1's Run makes a noise at C5." in s.log(None)


def test_r18_r64_a_look_rules_out_the_hexes_it_would_have_spotted() -> None:
    """3.7, R64: a guard that looks spots every thief on a hex it would spot it on and marks
    that hex; so no thief is on such a hex left without a marker. A dark hex stays possible."""
    s = game(corridor(7, torches=["D3"]), thieves=1)
    g = guard(s, "D1", facing="S", status="interested", bow=False)
    thief(s, 0, "D7")
    s.thieves[0].possible = frozenset(at(s, h) for h in ("D2", "D4", "D6", "D7"))
    s.markers = {at(s, "D4"): 0}
    s.marker_count = 1
    guard_rules.look(s, g)
    assert labels(s, s.thieves[0].possible) == ["D4", "D6", "D7"]  # D2 lit and unmarked


def test_r39_a_bow_that_does_not_shoot_rules_out_every_spottable_hex() -> None:
    """R39: a bow guard shoots a thief it spots (at most once a round), and the shot is
    public; so a bow that did not shoot rules out even marked hexes, and one that shot leaves
    only the spottable marked hexes."""
    s = game(corridor(7, torches=["D3"]), thieves=2)
    g = guard(s, "D1", facing="S", status="interested", bow=True)
    thief(s, 0, "D7")
    thief(s, 1, "D4")
    both = frozenset(at(s, h) for h in ("D2", "D4", "D7"))
    s.thieves[0].possible = s.thieves[1].possible = both
    guard_rules.mark(s, at(s, "D2"))
    guard_rules.look(s, g)
    assert labels(s, s.thieves[0].possible) == ["D7"]
    assert labels(s, s.thieves[1].possible) == ["D2", "D4"]


def test_r42_r37_after_the_guard_phase_no_thief_stands_on_a_living_guards_hex() -> None:
    """R42, R37: a thief never steps into a guard's hex and a guard stepping in catches it, so
    after the Guard Phase no possible hex holds a guard that is not undead."""
    pos = opening("the-vault", 1, starts=("A4",))
    put_thief(pos, 0, "A4", possible=["A4", "D3", "E4", "G4"])
    s = load(pos)
    do(s, "Play Hide")
    posts = {g.hex for g in s.guards if g.placed and not g.undead}
    assert s.thieves[0].possible is not None
    assert not posts & s.thieves[0].possible and at(s, "A4") in s.thieves[0].possible


def test_r48_pick_pocket_places_the_thief_beside_a_guard() -> None:
    """R48: a revealed Pick Pocket means the thief stands beside a guard it could rob; a
    successful one that it stands beside that guard."""
    pos = opening("the-vault", 1, starts=("A4",))
    put_guard(pos, 1, "F4", facing="N")
    put_thief(pos, 0, "F5", possible=["F5", "A4", "C3"])
    s = load(pos)
    do(s, "Pick the pocket of guard 1 at F4 for its key")
    assert s.thieves[0].keys and labels(s, s.thieves[0].possible) == ["F5"]
    assert rounds.narrow(None, s.board.step[at(s, "F4")]) == frozenset(
        h for h in s.board.step[at(s, "F4")] if h >= 0)


def test_r51_taking_a_treasure_places_the_thief_on_the_crown() -> None:
    """R51: taking a treasure is public and happens on the crown."""
    pos = opening("the-vault", 1, starts=("A4",))
    put_thief(pos, 0, "K10", possible=["K10", "A4"], keys=["vault"])
    s = load(pos)
    do(s, "Play Move S/SW: step S to K11", "Take a treasure from the crown")
    t = s.thieves[0]
    assert t.standing == IN_PLAY and t.treasure != NONE and labels(s, t.possible) == ["K11"]


def test_section_10_the_sets_follow_public_facts_and_referee_answers_only() -> None:
    """Spec 10 (as acceptance case 20), citywatch ruling 21: two states that differ only in a
    thief's hidden hex and get the same referee answers end the Guard Phase with the same
    possible hexes."""
    states = []
    for where in ("D6", "D7"):
        s = game(corridor(7, torches=["D2"]), thieves=1)
        guard(s, "D1", facing="S", status="interested", bow=True)
        thief(s, 0, where)
        s.thieves[0].possible = frozenset(at(s, h) for h in ("D3", "D5", "D6", "D7"))
        guard_rules.guard_phase(s)
        rounds.learn_from_guards(s)
        states.append(s)
    a, b = states
    assert a.thieves[0].possible == b.thieves[0].possible
    assert labels(a, a.thieves[0].possible) == ["D5", "D6", "D7"]  # D3 is lit and seen


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.sampled_from(["tutorial", "the-vault", "the-black-keep"]), st.integers(1, 4),
       st.sampled_from(["coop", "rivals"]), st.sampled_from(["easy", "medium", "hard"]),
       st.integers(0, 2 ** 32))
def test_section_10_the_true_hex_is_always_possible(name: str, thieves: int, mode: str,
                                                    difficulty: str, seed: int) -> None:
    """Spec 10: over random games, every thief on the map stands on one of its public possible
    hexes after every decision (the set only ever drops what public facts rule out)."""
    if thieves == 1:
        mode = "coop"
    s = GAME.new_game(thieves, seed, scenario=name, mode=mode, difficulty=difficulty)
    rng = Rng(seed)
    while s.to_move is not None:
        legal = s.legal_actions()
        quiet = [a for a in legal if str(a) in ("Play Hide", "Buy no Guard card")]
        s.apply(quiet[0] if quiet and rng.below(3) else legal[rng.below(len(legal))])
        for t in s.thieves:
            if t.standing == IN_PLAY and t.hex != NONE:
                assert t.possible is not None and t.hex in t.possible
