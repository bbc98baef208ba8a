"""Bots: the heuristic and ISMCTS bots, the registry, and tournaments (issue 4)."""

from __future__ import annotations

import json

import pytest
from helpers import hidden_twin, state_after
from hypothesis import given, settings
from hypothesis import strategies as st

import citywatch
from citywatch.bots import Observation, make_bot, parse_spec
from citywatch.cli import main
from citywatch.core.rng import Rng
from citywatch.games.ankh_morpork.state import AnkhMorporkState
from citywatch.tournament import schedule, tournament, wilson

GAME = citywatch.load("ankh-morpork")
SPECS = ["random", "heuristic", "ismcts:iterations=30:depth=6"]
SEARCH = ["ismcts:iterations=20:depth=4:playout=heuristic:worlds=3:margin=1"]
"""Search options (fixed worlds, the margin over the policy) checked like the others."""

AM = "ankh-morpork"


@pytest.mark.parametrize("spec", SPECS + SEARCH)
def test_bots_only_see_their_own_seat(spec: str) -> None:
    """A bot's choice cannot depend on other hands, personalities, the deck or the dice."""
    compared = 0
    for seed in range(40):
        state = state_after(4, seed, 20 + 7 * seed)
        seat = state.to_move
        if seat is None or state.stack[-1][0] not in ("choose", "card", "another", "end"):
            continue
        if compared >= 5:
            break
        twin = hidden_twin(state, seat)
        assert twin.view(seat) == state.view(seat)
        assert twin.position() != state.position()
        bot = make_bot(spec, AM)
        a = bot.choose(Observation(state, seat), state.legal_actions(), Rng(5))
        b = make_bot(spec, AM).choose(Observation(twin, seat), twin.legal_actions(), Rng(5))
        assert a == b
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("spec", SPECS + SEARCH)
def test_same_seed_same_choices(spec: str) -> None:
    """Bots are deterministic given their seed."""
    state = state_after(3, 4, 15)
    seat = state.to_move
    assert seat is not None
    choices = {make_bot(spec, AM).choose(Observation(state, seat), state.legal_actions(), Rng(9))
               for _ in range(2)}
    assert len(choices) == 1


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 400),
       spec=st.sampled_from(SPECS))
def test_bots_always_choose_a_legal_action(players: int, seed: int, steps: int,
                                           spec: str) -> None:
    """Over random positions every choice is legal and no bot crashes."""
    state = state_after(players, seed, steps)
    if state.to_move is None:
        return
    legal = state.legal_actions()
    choice = make_bot(spec, AM).choose(Observation(state, state.to_move), legal, Rng(seed))
    assert choice in legal


def test_heuristic_bot_takes_a_win_it_can_see() -> None:
    """The heuristic plays toward its personality: Dragon King puts the 8th trouble marker."""
    from helpers import blank, give, minions, set_personalities, start

    pos = set_personalities(blank(players=3), Red="Dragon King of Arms", Blue="Lord Rust",
                            Green="Commander Vimes")
    areas = list(pos["areas"])
    for name in areas[:7]:
        minions(pos, name, Blue=1)
        pos["areas"][name]["trouble"] = True
    minions(pos, areas[8], Blue=1)
    give(pos, "Red", "Doctor Hix", "Groat", "Modo")
    state = start(pos)
    bot = make_bot("heuristic", AM)
    legal = state.legal_actions()
    choice = bot.choose(Observation(state, 0), legal, Rng(1))
    assert str(choice) == "Play Doctor Hix"


def test_bot_specs_and_errors() -> None:
    assert parse_spec("ismcts:iterations=500:depth=8") == (
        "ismcts", {"iterations": 500, "depth": 8})
    assert parse_spec("ismcts:seconds=0.5") == ("ismcts", {"seconds": 0.5})
    for bad in ("genius", "ismcts:iterations", "ismcts:iterations=0", "ismcts:colour=red",
                "ismcts:playout=clever", "heuristic:lookahead=-1", "ismcts:worlds=-1",
                "ismcts:margin=1", "ismcts:playout=heuristic:margin=-1"):
        with pytest.raises(ValueError):
            make_bot(bad, AM)


def test_wilson_interval_against_known_values() -> None:
    """The tournament's 95% Wilson score interval (Wilson 1927; Newcombe 1998 table)."""
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and round(high, 4) == 1.0
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    with pytest.raises(ValueError):
        wilson(3, 0)


def test_schedule_rotates_seats_and_reuses_deals() -> None:
    """Every bot plays every seat equally, with the same deal for each rotation."""
    tasks = schedule("ankh-morpork", ["heuristic", "random", "random"], 7, 3)
    assert len(tasks) == 9
    for k in range(0, 9, 3):
        group = tasks[k:k + 3]
        assert len({(t[2], t[3]) for t in group}) == 1
        assert [t[1].index("heuristic") for t in group] == [0, 2, 1]
    assert len({t[2] for t in tasks}) == 3


def test_tournament_summary_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    result = tournament("ankh-morpork", ["heuristic", "random"], 4, 2)
    assert result["games"] == 4
    h, r = result["bots"]["heuristic"], result["bots"]["random"]
    assert h["games"] == 4 and r["games"] == 4
    assert h["wins"] + r["wins"] == pytest.approx(4)
    assert h["ci_low"] <= h["win_rate"] <= h["ci_high"]
    assert main(["tournament", "ankh-morpork", "--bots", "random,random,heuristic", "--games",
                 "3", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"games", "seed", "bots"} <= set(data)
    for stats in data["bots"].values():
        assert {"games", "wins", "win_rate", "ci_low", "ci_high", "mean_points",
                "seconds_per_decision", "cpu_seconds_per_decision"} <= set(stats)
        # the processor time of a decision is never more than its wall-clock time (one thread)
        assert 0 < stats["cpu_seconds_per_decision"] <= stats["seconds_per_decision"] + 1e-3
    assert main(["tournament", "ankh-morpork", "--bots", "random", "--games", "2"]) == 2


def _heuristic_choice(state: AnkhMorporkState) -> str:
    seat = state.to_move
    assert seat is not None
    return str(make_bot("heuristic", AM).choose(Observation(state, seat), state.legal_actions(),
                                            Rng(3)))


def test_heuristic_bot_blocks_an_opponent_about_to_win() -> None:
    """Eight trouble markers let a Dragon King win at the start of their turn: a heuristic
    Vetinari removes one when it can (issue 4: blocks an opponent one turn from winning)."""
    from helpers import blank, do, give, minions, set_personalities, start

    pos = set_personalities(blank(players=3), Red="Lord Vetinari", Blue="Commander Vimes",
                            Green="Lord Rust")
    for name in list(pos["areas"])[:8]:
        minions(pos, name, Blue=1, Green=1)  # tied: nobody controls these areas
        pos["areas"][name]["trouble"] = True
    minions(pos, "Nap Hill", Red=1)
    give(pos, "Red", "Sergeant Angua", "Groat", "Modo")
    state = start(pos)
    assert _heuristic_choice(state) == "Play Sergeant Angua"
    do(state, "Play Sergeant Angua")
    assert _heuristic_choice(state).startswith("Remove the trouble marker from")


def test_heuristic_bot_protects_itself_with_an_interrupt() -> None:
    """Asked whether to play Gaspode against an assassination, the heuristic bot does."""
    from helpers import blank, do, give, minions, start

    pos = blank(players=2)
    minions(pos, "Dimwell", Red=1, Blue=1)
    pos["areas"]["Dimwell"]["trouble"] = True
    give(pos, "Red", "Mr Gryle", "Groat")
    give(pos, "Blue", "Gaspode", "Modo")
    state = start(pos)
    do(state, "Play Mr Gryle")
    do(state, "Assassinate Blue's minion in Dimwell")
    assert state.to_move == 1
    assert _heuristic_choice(state) == "Play Gaspode"


def test_heuristic_bot_uses_city_area_powers() -> None:
    """With the Seven Sleepers card, the heuristic bot takes its $3 before ending the turn."""
    from helpers import area, blank, do, give, minions, start

    pos = blank(players=2)
    minions(pos, "Seven Sleepers", Red=1)
    area(pos, "Seven Sleepers", building="Red")
    give(pos, "Red", "The Peeled Nuts")
    state = start(pos)
    do(state, "Play The Peeled Nuts")
    assert "Use Seven Sleepers: take $3 from the bank" in [str(a) for a in state.legal_actions()]
    assert _heuristic_choice(state) == "Use Seven Sleepers: take $3 from the bank"


@pytest.mark.parametrize(("spec", "positions"), [("heuristic", 1500),
                                                  ("ismcts:iterations=8:depth=4", 600)])
def test_bots_never_crash_over_thousands_of_positions(spec: str, positions: int) -> None:
    """Every choice in games where this bot plays every seat is legal, position after position."""
    bot = make_bot(spec, AM)
    seen = 0
    seed = 0
    while seen < positions:
        state = GAME.new_game(players=2 + seed % 3, seed=1000 + seed)
        rng = Rng(seed)
        while (seat := state.to_move) is not None and seen < positions:
            legal = state.legal_actions()
            choice = bot.choose(Observation(state, seat), legal, rng)
            assert choice in legal
            state.apply(choice)
            seen += 1
        seed += 1


def test_ismcts_margin_keeps_the_policys_choice_unless_the_search_is_sure() -> None:
    """With ``margin`` the search overrides its playout policy only when its best action
    beats the policy's by that many standard errors: an unreachable margin plays exactly as
    the heuristic (here Guards! Guards!'s Guild Card choice, which it judges from public
    facts), a zero margin lets the most visited action stand."""
    gg = "guards-guards"
    state = citywatch.load(gg).new_game(4, 3)
    seat = state.to_move
    assert seat is not None
    legal = state.legal_actions()
    assert len(legal) > 4
    heuristic = make_bot("heuristic", gg).choose(Observation(state, seat), legal, Rng(1))
    for seed in range(3):
        sure = make_bot("ismcts:iterations=12:depth=3:playout=heuristic:worlds=2:margin=1e9", gg)
        assert sure.choose(Observation(state, seat), legal, Rng(seed)) == heuristic
    spec = "ismcts:iterations=12:depth=3:playout=heuristic:worlds=2:margin=0:prior=0"
    free = [make_bot(spec, gg).choose(Observation(state, seat), legal, Rng(seed))
            for seed in range(3)]
    assert any(choice != heuristic for choice in free)


def test_a_game_names_the_search_options_its_ismcts_was_measured_with() -> None:
    """``Game.search_options`` fill what an ``ismcts`` spec leaves out (Guards! Guards!: the
    measured search with heuristic playouts; Ankh-Morpork: its hard level, random playouts);
    a spec's own options win; an option a game leaves out keeps the bot's default."""
    gg = make_bot("ismcts", "guards-guards")
    assert (gg.iterations, gg.worlds, gg.margin, gg.depth) == (32, 8, 2, 16)
    assert gg.policy is not None
    assert make_bot("ismcts:iterations=5:margin=0", "guards-guards").iterations == 5
    am = make_bot("ismcts", AM)  # the hard level's search (README, "Measured strength")
    assert (am.iterations, am.worlds, am.depth, am.margin, am.policy) == (1200, 32, 6, 0.0, None)
    assert am.exploration == 0.7  # left out: the bot's default


def _attributes_set(bot: object) -> set[str]:
    """The names of the attributes set on ``bot``: its ``__dict__``'s, or for a class compiled
    by mypyc (no ``__dict__``), those of its declared attributes that have a value."""
    if hasattr(bot, "__dict__"):
        return set(vars(bot))
    return {name for name in getattr(type(bot), "__mypyc_attrs__", ()) if hasattr(bot, name)}


def test_difficulty_levels_are_named_bots_every_game_maps_to_a_spec() -> None:
    """Issue 13.3: ``easy``, ``normal`` and ``hard`` are bot names in every game, each the bot
    of the spec its game documents (``Game.level_spec``); a level takes no options, and no
    other word is a level."""
    from citywatch.bots import LEVELS, bot_names
    from citywatch.core.registry import game_names

    assert LEVELS == ("easy", "normal", "hard")
    for name in game_names():
        game = citywatch.load(name)
        assert bot_names(name)[:3] == list(LEVELS)
        state = game.new_game(game.min_players, seed=4)
        for level in LEVELS:
            spec = game.level_spec(level)
            bot, named = make_bot(level, name), make_bot(spec, name)
            assert type(bot) is type(named)
            assert _attributes_set(bot) == _attributes_set(named)
            seat = state.to_move
            assert seat is not None
            if level != "hard":  # the search is slow; its choice is checked elsewhere
                legal = state.legal_actions()
                assert bot.choose(Observation(state, seat), legal, Rng(1)) in legal
    gotc = make_bot("easy", "guardians-of-the-city")
    assert gotc.lookahead == 0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="the level 'hard' takes no options"):
        make_bot("hard:iterations=3", AM)
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        GAME.level_spec("expert")


def test_a_tournament_names_the_levels_it_played() -> None:
    """Issue 13.3: tournaments take levels as bots and report them by level."""
    result = tournament("guardians-of-the-city", ["easy", "normal"], 2, 2)
    assert set(result["bots"]) == {"easy", "normal"}
    assert result["bots"]["easy"]["games"] == 2


def test_ismcts_guided_lets_the_policy_make_only_a_playouts_first_decisions() -> None:
    """``guided=k`` with heuristic playouts: the policy makes at most the first ``k``
    decisions of each playout (none with 0, where it serves only prior and margin), random
    choices the rest; -1 (the default) keeps it for every decision. Anything else, or
    ``guided`` without a policy's playouts, is refused."""
    from citywatch.bots.ismcts import ISMCTSBot

    class Counting:
        """A policy that counts its calls and plays the first legal action."""

        def __init__(self) -> None:
            self.calls = 0

        def choose(self, observation: Observation, legal: list[object], rng: Rng) -> object:
            self.calls += 1
            return legal[0]

    state = state_after(3, 5, 40)
    seat = state.to_move
    assert seat is not None
    legal = state.legal_actions()
    calls = {}
    for guided in (0, 2, -1):
        policy = Counting()
        bot = ISMCTSBot(iterations=10, depth=6, playout="heuristic", guided=guided,
                        policy=policy, evaluator=GAME.evaluate)
        assert bot.choose(Observation(state, seat), legal, Rng(2)) in legal
        calls[guided] = policy.calls
    assert calls[0] == 0
    assert 0 < calls[2] <= 2 * 10 < calls[-1]
    for bad in ("ismcts:guided=0", "ismcts:guided=-2:playout=heuristic"):
        with pytest.raises(ValueError, match="guided"):
            make_bot(bad, AM)
