"""Guards! Guards! combat (rulebook "Combat Rules"; rulings 21-24, 40).

Also holds the small helpers the other ``test_gg_*`` files of this part import: a hand-built
state, a scripted die and an idle frame under the decision being tested.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from citywatch.core.rng import Rng
from citywatch.core.stack import Frame
from citywatch.games.guards_guards import (
    encoding,  # noqa: F401  (its layout is fixed before conftest's test-only verb and frame)
    rules,  # noqa: F401  (registers every rule)
)
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.board import LUGGAGE_START
from citywatch.games.guards_guards.combat import (
    ATTACKER_WON,
    DEFENDER_WON,
    LEAVE_ITEM,
    NO_RESULT,
    TAKE_ITEM,
    start_combat,
)
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    GUILD_CARDS,
    ITEMS,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.frames import OPS, advance, op
from citywatch.games.guards_guards.state import GuardsGuardsState, Turn


class ScriptedRng(Rng):
    """A die that rolls the scripted faces, then 4s; ``below`` takes scripted picks, then 0."""

    def __init__(self, rolls: Iterable[int] = (), picks: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.picks = list(picks)

    def roll(self, sides: int) -> int:
        return self.rolls.pop(0) if self.rolls else 4

    def below(self, n: int) -> int:
        return self.picks.pop(0) if self.picks else 0

    def shuffle(self, items: Any) -> None:
        return None

    def copy(self) -> ScriptedRng:
        return ScriptedRng(self.rolls, self.picks)


RESULTS: list[tuple[Any, ...]] = []
if "test_result" not in OPS:
    @op("test_result")
    def _record(s: GuardsGuardsState, *args: Any) -> None:
        RESULTS.append(args)


def vid(name: str) -> int:
    """A Volunteer's index by name."""
    return next(v.index for v in VOLUNTEERS if v.name == name)


def iid(name: str) -> int:
    """An Item's index by name."""
    return next(i.index for i in ITEMS if i.name == name)


def guild_card(guild_id: str) -> int:
    """A Guild Card's index by id."""
    return next(g.index for g in GUILD_CARDS if g.id == guild_id)


def make(players: int = 2, rolls: Iterable[int] = (), picks: Iterable[int] = (),
         cards: tuple[str, ...] = ("thieves_1", "assassins_1", "alchemists_1",
                                   "fools_1")) -> GuardsGuardsState:
    """A state with seats on their gates, empty hands, seat 0 to move before moving."""
    s = GuardsGuardsState(players)
    for seat in range(players):
        g = guild_card(cards[seat])
        s.guild[seat] = g
        s.gate[seat] = GUILD_CARDS[g].gates[0]
        s.pos[seat] = s.gate[seat]
        s.attrs[seat] = list(GUILD_CARDS[g].start)
        s.dollars[seat] = 5
    s.dragon_pile = [0, 1, 2, 3]
    s.luggage = LUGGAGE_START
    s.decks = [[] for _ in DECK_SPACES]
    s.current = 0
    s.turn = 1
    s.t = Turn(0)
    s.rng = ScriptedRng(rolls, picks)
    s.stack.append(("idle", 0))
    RESULTS.clear()
    return s


def script(s: GuardsGuardsState, *rolls: int, picks: Iterable[int] = ()) -> None:
    """Script the next die faces (and ``below`` picks)."""
    s.rng = ScriptedRng(rolls, picks)


def top(s: GuardsGuardsState) -> Frame:
    """The frame deciding now."""
    return s.stack[-1]


def idle(s: GuardsGuardsState) -> bool:
    """True when everything above the test's idle frame is settled."""
    return top(s)[0] == "idle"


def fight(s: GuardsGuardsState, a_vol: int, d_vol: int, a_item: int = -1, d_item: int = -1,
          bonus: int = 0) -> None:
    """Seat 0's ``a_vol`` (a Saboteur) attacks seat 1's ``d_vol`` (in hand)."""
    s.saboteurs[0] += ((0, a_vol, a_item),)
    s.hand[1].append(d_vol)
    start_combat(s, 0, a_vol, a_item, 1, d_vol, d_item, ("test_result", "done"), bonus)
    advance(s)


DETRITUS = vid("Detritus") if any(v.name == "Detritus" for v in VOLUNTEERS) else 0


def test_rulebook_combat_brawl_greater_than_toughness_hits() -> None:
    """"If the Saboteur/Attacker's total Brawl Score is greater than the Defenders total
    Toughness Score the attacker's blow hits its target and the Defender is defeated. The
    defeated Volunteer must be discarded.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")  # Brawl 3; Toughness 1
    script(s, 5, 4)  # 3+5=8 against 1+4=5
    fight(s, a, d)
    assert idle(s)
    assert RESULTS == [("done", ATTACKER_WON)]
    assert d in s.vol_discard[VOLUNTEERS[d].deck]


def test_ruling_24_equal_brawl_fails_and_defender_strikes_back() -> None:
    """Ruling 24: "In combat, a Brawl equal to the Toughness is a failed strike, and the
    defender strikes back.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")  # Brawl 3 / Toughness 4; Brawl 0 / T 1
    script(s, 2, 4, 7, 2)  # 3+2=5 vs 1+4=5: fails; back: 0+7=7 vs 4+2=6: hits
    fight(s, a, d)
    assert RESULTS == [("done", DEFENDER_WON)]
    assert a in s.vol_discard[VOLUNTEERS[a].deck]


def test_rulebook_failed_counter_attack_leaves_both() -> None:
    """"If the counter attack is unsuccessful, the Saboteur remains in play.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")
    script(s, 2, 4, 2, 6)
    fight(s, a, d)
    assert RESULTS == [("done", NO_RESULT)]
    assert s.saboteurs[0] and d in s.hand[1]


def test_ruling_21_natural_one_fails_whatever_the_bonus() -> None:
    """Ruling 21: "A natural 1 on the first die of any test fails, whatever the bonuses.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")
    script(s, 1, 1)  # attacker's 1 misses; the strike back also rolls a 1
    fight(s, a, d, bonus=20)
    assert RESULTS == [("done", NO_RESULT)]


def test_ruling_22_eights_are_rerolled_in_combat() -> None:
    """Ruling 22: "A natural 8 is re-rolled and added ... in every combat or Dragon roll.\""""
    s = make()
    a, d = vid("The Bursar"), vid("Count Notfaroutoe")  # Brawl 0 vs Toughness 4
    script(s, 8, 1, 4)  # 8+1 = 9 > 4+4 = 8: the re-rolled 1 just adds
    fight(s, a, d)
    assert RESULTS == [("done", ATTACKER_WON)]


def test_ruling_40_winner_may_take_the_losers_item() -> None:
    """Ruling 40: "The winner of a combat may take the loser's Item.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")
    mail = iid("Chain-Mail Shirt")
    script(s, 6, 2)  # 9 vs 1+2+2 = 5
    fight(s, a, d, d_item=mail)
    assert top(s)[0] == "combat"
    assert set(s.legal_actions()) == {Action(TAKE_ITEM, mail), Action(LEAVE_ITEM, mail)}
    s.apply(Action(TAKE_ITEM, mail))
    assert mail in s.items[0]
    assert RESULTS == [("done", ATTACKER_WON)]


def test_ruling_40_item_left_goes_to_nearest_odds_and_sods_deck() -> None:
    """Ruling 40: "if they do not, it goes to the nearest Odds & Sods deck.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")
    mail = iid("Chain-Mail Shirt")
    script(s, 6, 2)
    fight(s, a, d, d_item=mail)
    s.apply(Action(LEAVE_ITEM, mail))
    assert mail not in s.items[0]
    assert any(deck and deck[0] == mail for deck in s.decks)


def test_rulebook_items_and_magic_count_in_the_brawl() -> None:
    """"adds the attacking Volunteer's Brawl Value (including any additional points gained
    from Items or magic)\"."""
    s = make()
    a, d = vid("The Bursar"), vid("Count Notfaroutoe")  # Brawl 0 vs Toughness 4
    s.vol_mods.append((a, 2, 2))  # Troll Strength
    script(s, 4, 4)  # 0 + 3 (Troll's Club) + 2 + 4 = 9 > 8
    fight(s, a, d, a_item=iid("Troll's Club"))
    assert RESULTS == [("done", ATTACKER_WON)]


def test_rincewind_runs_away_back_to_hand_and_loses_his_item() -> None:
    """Rincewind: "If he loses a combat he runs for it: he returns to your hand instead of the
    discard pile, but any Item he carried is lost.\""""
    s = make()
    a, d = vid("Count Notfaroutoe"), vid("Rincewind")
    helmet = iid("Watchman's Helmet")
    script(s, 6, 2)
    fight(s, a, d, d_item=helmet)
    s.apply(Action(LEAVE_ITEM, helmet))
    assert s.hand[1].count(d) == 2  # back in hand (the caller takes him off the board)
    assert d not in s.vol_discard[VOLUNTEERS[d].deck]
    assert helmet not in s.items[1]


def test_rulebook_combat_offensive_then_defensive_magic() -> None:
    """"1. Offensive magic: The Saboteur/Attacker may attempt to cast any Scrolls ...
    2. Defensive magic: The targeted player may attempt to cast any Scrolls\"."""
    from citywatch.games.guards_guards.data import SCROLLS

    troll = next(c.index for c in SCROLLS if c.name == "Troll Strength")
    iron = next(c.index for c in SCROLLS if c.name == "Iron Skin")
    s = make()
    s.scrolls[0].append(troll)
    s.scrolls[1].append(iron)
    a, d = vid("Count Notfaroutoe"), vid("The Bursar")
    s.saboteurs[0] += ((0, a, -1),)
    s.hand[1].append(d)
    start_combat(s, 0, a, -1, 1, d, -1, ("test_result", "done"))
    advance(s)
    assert top(s)[:2] == ("react", 0)
    assert s.stack[-2][:2] == ("react", 1)


def test_ambush_bonus_adds_to_the_saboteurs_brawl() -> None:
    """Assassins' Ambush: "your Saboteur adds 1 to its Brawl in an Ambush.\""""
    s = make()
    a, d = vid("The Bursar"), vid("Count Notfaroutoe")  # Brawl 0 vs Toughness 4
    script(s, 5, 1 + 0)  # 0+1+5 = 6; Toughness roll natural 1 -> hit anyway
    fight(s, a, d, bonus=1)
    assert RESULTS == [("done", ATTACKER_WON)]
    s = make()
    script(s, 5, 2)  # 0+1+5 = 6 > 4+2 = 6? no: equal fails
    fight(s, a, d, bonus=1)
    assert RESULTS[0][1] in (NO_RESULT, DEFENDER_WON)
