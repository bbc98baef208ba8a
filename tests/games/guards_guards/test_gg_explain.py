"""Guards! Guards! choices that explain themselves (issue 27): the Guild Cards on offer, the
Wizards' Challenge and each Runner's exact chance, who may collect a spell tile, Volunteers'
stats and spells in words; only ever to the seat that decides (rulings 69-70)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rich.console import Console
from test_gg_combat import make, script, vid

from citywatch.games.guards_guards import terminal
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import (
    CHALLENGES,
    GUILD_CARDS,
    SPELL_COLOURS,
    SPELL_TILES,
    TILES,
)
from citywatch.games.guards_guards.explain import (
    challenge_words,
    roll_chance,
    spell_tile_note,
    volunteer_words,
)
from citywatch.games.guards_guards.frames import advance
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.spells import ADD_RUNNER, COLLECT, do_collect
from citywatch.games.guards_guards.view import volunteer_json

RED = SPELL_COLOURS.index("red")


def brute_force(bonus: int, target: int, reroll: bool) -> Fraction:
    """Every sequence of four dice, rolled through the game's own ``State.test``."""
    passed = 0
    for faces in itertools.product(range(1, 9), repeat=4):
        s = make()
        script(s, *faces, 1, 1)  # a fifth die only after four 8s: the total passes anyway
        passed += s.test(bonus, target, reroll_eights=reroll)[0]
    return Fraction(passed, 8 ** 4)


def test_rulings_21_22_chance_matches_a_brute_force_count() -> None:
    """Rulings 21-22: a natural 1 on the first die fails; in a Wizards' Challenge each 8 is
    rolled again and added. The exact chance equals a count over every roll of the dice."""
    for bonus, target in ((0, 9), (4, 9), (5, 11), (1, 12), (9, 9), (12, 11), (0, 20), (3, 26)):
        assert roll_chance(bonus, target) == brute_force(bonus, target, True), (bonus, target)
    assert roll_chance(4, 9, reroll_eights=False) == brute_force(4, 9, False) == Fraction(1, 2)
    assert roll_chance(20, 9) == Fraction(7, 8)  # only the natural 1 fails


def collecting(hand: list[str]) -> tuple[object, list[int]]:
    """Seat 0 collects the red spell with ``hand`` and is to choose Runners."""
    s = make()
    s.pos[0] = SPELL_TILES[RED]
    runners = [vid(name) for name in hand]
    s.hand[0] += runners
    do_collect(s, 0, Action(COLLECT, RED))
    advance(s)
    return s, runners


def test_runners_say_the_attribute_the_target_and_each_chance() -> None:
    """Making a Spell Run / the Wizards' Challenges: Challenge 1 tests the Runners' summed
    Streetwise against 9; each Runner's note gives its Streetwise and the exact chance."""
    s, (rincewind, dibbler) = collecting(["Rincewind", "Cut-Me-Own-Throat Dibbler"])
    decision = s.view(0)["decision"]
    assert decision["notes"][0] == challenge_words(0)
    assert "Streetwise, 9 or more" in decision["notes"][0]
    notes = dict(zip(decision["actions"], decision["action_notes"], strict=True))
    assert notes["Send Rincewind as a Runner"] == "Streetwise 4: 50% to pass"  # 5, 6, 7, 8 of 8
    s.apply(Action(ADD_RUNNER, rincewind, -1))
    decision = s.view(0)["decision"]
    assert "So far Rincewind (Streetwise 4): 50% to pass." in decision["notes"]
    notes = dict(zip(decision["actions"], decision["action_notes"], strict=True))
    assert notes["Send Cut-Me-Own-Throat Dibbler as a Runner"].startswith("Streetwise 5: 88%")
    assert "notes" not in (s.view(1)["decision"] or {})  # ruling 70: another's hand is hidden
    assert "action_notes" not in (s.view(None)["decision"] or {})


def test_challenge_4_names_both_tests() -> None:
    """Malich's Melancholy (Challenge 4) tests Brawl, then Streetwise, 11 or more each."""
    words = challenge_words(3)
    assert CHALLENGES[3].name in words
    assert "Brawl, 11 or more; then Streetwise, 11 or more" in words


def test_guild_card_choice_shows_levels_and_ability_to_the_chooser_only() -> None:
    """Set Up (ruling 2): each Guild Card on offer with its starting Magic, Guild and Charm
    and its Guild Ability; the other seats see no notes (the choice is the chooser's)."""
    s = GAME.new_game(3, seed=3)
    seat = s.to_move
    decision = s.view(seat)["decision"]
    faces = {c["name"]: c for c in decision["guild_cards"]}
    assert set(faces) == {g.name for g in GUILD_CARDS}
    cut = faces["The Cutpurse"]
    assert cut["start"] == {"magic": 1, "guild": 3, "charm": 2}
    assert cut["ability"] == "Cut Purse" and "3 dollars" in cut["ability_text"]
    assert decision["notes"][0] == "Thieves (Cut Purse): Magic 1, Guild 3; Charm: Cutpurse 2, " \
                                   "Housebreaker 3"
    assert all(len(line) <= 80 for line in decision["notes"])
    k = decision["actions"].index("Join as The Cutpurse (Thieves) starting at Red Gate")
    assert decision["action_notes"][k] == "Magic 1, Guild 3, Charm 2; Guild Ability: Cut Purse"
    other = (seat + 1) % 3
    assert "guild_cards" not in s.view(other)["decision"]
    assert "notes" not in s.view(other)["decision"]


def test_ruling_32_spell_tile_says_who_may_collect_it() -> None:
    """Ruling 32: a spell is collected on its tile by a player whose card has it, not yet
    returned, with no Dragon in the quadrant; the other owners are named (Guild Cards are
    public, ruling 69)."""
    s = make(cards=("thieves_1", "assassins_2"))  # The Blade has the red spell too
    red_tile = SPELL_TILES[RED]
    s.hand[0].append(vid("The Dean"))
    owners = [p for p in range(2) if RED in GUILD_CARDS[s.guild[p]].spells]
    assert owners == [0, 1]
    assert spell_tile_note(s, 0, red_tile) == (
        f"{TILES[red_tile].name} (The Kindling Word): yours: stop here to collect it; also on "
        "the card of Blue.")
    s.returned[1] = (RED,)
    assert spell_tile_note(s, 0, red_tile).endswith("also on the card of Blue (returned).")
    s.dragons[TILES[red_tile].quadrant] = 0
    assert "not while a Dragon is in the" in spell_tile_note(s, 0, red_tile)
    indigo = SPELL_TILES[SPELL_COLOURS.index("indigo")]
    assert "not on your Guild Card, so not yours to collect" in spell_tile_note(s, 0, indigo)


def test_volunteer_stats_in_words() -> None:
    """A Volunteer card's Charm, Bribe ("X": cannot be bribed), Loyalty, Streetwise, Brawl,
    Toughness and Luggage moves, in words (the terminal's hand and the browser's hover)."""
    sybil = volunteer_words(volunteer_json(vid("Lady Sybil Ramkin")))
    assert sybil == ("Charm 8, cannot be bribed, Loyalty 5, Streetwise 1, Brawl 2, "
                     "Toughness 3, moves the Luggage 2 tiles")
    s = make()
    s.hand[0].append(vid("Lady Sybil Ramkin"))
    console = Console(width=80, record=True, color_system=None)
    console.print(terminal.hand(s.view(0)))
    assert "Lady Sybil Ramkin: Charm 8, cannot be bribed" in " ".join(console.export_text().split())


def test_spells_in_words_and_octarine_returned_shows() -> None:
    """Winning the Game: the spells returned are named in words, so a returned Octarine no
    longer looks the same as one still wanted (its letter was 8, the same in capitals)."""
    s = make(cards=("thieves_2", "assassins_1"))  # The Housebreaker: violet, octarine, ...
    s.returned[0] = (SPELL_COLOURS.index("octarine"),)
    seat = s.view(0)["seats"][0]
    assert terminal.spells_line(seat, 5).plain == "1/5 Octarine"
    assert terminal.spells_text(seat, 5).plain == (
        "R Spells returned 1 of 5: Octarine; still wanted: Violet, Red, Orange, Yellow.")
