"""Guardians of the City: what each seat sees (ruling 17; citywatch rulings 5-7) and worlds
re-sampled for a seat (determinization), from positions and random games."""

from __future__ import annotations

import json
from collections import Counter

from gotc_positions import (
    act,
    base,
    discards,
    effort,
    game_with,
    hand,
    lasting,
    load,
    score_pile,
    step2,
    subversive,
)

from citywatch.core.rng import Rng
from citywatch.games.guardians_of_the_city.data import ACTION_BY_NAME
from citywatch.games.guardians_of_the_city.game import GAME
from citywatch.games.guardians_of_the_city.state import GotcState

State = GotcState
P1, P2 = 0, 1
PUBLIC = ("deck", "effort", "effective_effort", "support", "left_the_country", "shield",
          "counter_terrorism_points", "special_intelligence_used", "score", "hand_count",
          "known_in_hand", "action_deck_count", "crisis_deck_count", "action_discard",
          "crisis_discard", "score_pile", "subversive", "lasting")


def busy() -> State:
    """Player 1 in Step 2 with a Subversive out, a lasting card, piles and a Score pile."""
    loyalty = "Galvanised People (Loyalty)"
    pos = step2(game_with(loyalty, "Galvanised People (Conservation)"), P1)
    hand(pos, P1, ["Galvanised People (Conservation)", "Border Patrol", "Raids"])
    discards(pos, P1, ["Community Tip-Off"])
    discards(pos, P2, ["Raids", "Border Patrol"])
    lasting(pos, P2, loyalty, "Neighbourly Help", protect=["Youth"])
    subversive(pos, P2, "Subversive (Disrupt)")
    score_pile(pos, P2, ["Special Intelligence"])
    s = load(pos)
    act(s, "Play Border Patrol with Galvanised People (Conservation)",
        "Reduce The Harbour Network", "Take Community Tip-Off back from your discard pile")
    return s


def test_every_view_shows_the_public_facts_of_ruling_17() -> None:
    """Ruling 17: the number of cards in each hand and deck, every discard and Score pile,
    effort, support, cells, Counter-Terrorism points, Shields, active Subversives and lasting
    Galvanised cards are public: every seat's and the spectator's view shows them all alike."""
    s = busy()
    views = [s.view(P1), s.view(P2), s.view(None)]
    for view in views:
        assert json.loads(json.dumps(view)) == view
        for key in ("cells", "ending", "in_play", "crisis", "turn", "current", "step", "label"):
            assert view[key] == views[2][key]
        for p in (P1, P2):
            public = {k: view["seats"][p][k] for k in PUBLIC}
            assert public == {k: views[2]["seats"][p][k] for k in PUBLIC}
    them = views[0]["seats"][P2]
    assert them["hand_count"] == 4 and them["action_deck_count"] == 46 - 4
    assert them["action_discard"] == ["Raids", "Border Patrol"]
    assert them["score_pile"] == ["Special Intelligence"]
    assert them["subversive"]["name"] == "Subversive (Disrupt)"
    assert them["lasting"] == [{"card": "Galvanised People (Loyalty)",
                                "paired": "Neighbourly Help", "protects": ["Youth"],
                                "freezes": [], "boost": None}]
    assert views[2]["cells"][0] == {"name": "The Harbour Network", "strength": 5,
                                    "eliminated": False, "frozen": False}


def test_hands_are_hidden_from_the_others_but_not_from_their_owner() -> None:
    """Ruling 17: hands are hidden, Special Intelligence included; a seat sees its own hand
    (with whether each card's requirement is met and whether it may be played now); the
    spectator sees no hand."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "Border Patrol"])
    hand(pos, P2, ["Special Intelligence", "Raids"])
    s = load(pos)
    mine = s.view(P1)["own"]["hand"]
    assert [c["name"] for c in mine] == ["Raids", "Border Patrol"]
    assert [c["playable_now"] for c in mine] == [s.effort[P1][0] >= 3, True]
    assert s.view(None)["own"] is None
    assert s.view(P2)["own"]["hand"][0]["name"] == "Special Intelligence"
    hand(pos, P2, ["Border Patrol", "Border Patrol"])
    other = load(pos)
    assert other.view(P1) == s.view(P1) and other.view(None) == s.view(None)
    assert other.view(P2) != s.view(P2)


def test_deck_order_is_hidden_even_from_its_owner() -> None:
    """Ruling 17: decks are face down and their order is unknown even to their owner: no view
    names a deck's cards, and a world sampled for the owner re-deals the owner's decks."""
    s = GAME.new_game(2, 11)
    deck = s.action_deck[P1]
    view = json.dumps(s.view(P1))
    assert '"action_deck"' not in view and '"crisis_deck"' not in view
    worlds = {tuple(s.determinize(P1, Rng(k)).action_deck[P1]) for k in range(5)}
    assert len(worlds) == 5 and all(Counter(w) == Counter(deck) for w in worlds)
    assert {tuple(s.determinize(P1, Rng(k)).crisis_deck[P1]) for k in range(3)} != \
        {tuple(s.crisis_deck[P1])}


def test_a_card_taken_back_by_conservation_stays_known() -> None:
    """Citywatch ruling 6: everybody saw the card leave the discard pile, so it is a known
    card of that hand, kept by every sampled world."""
    s = busy()
    tip_off = ACTION_BY_NAME["Community Tip-Off"]
    assert s.view(P2)["seats"][P1]["known_in_hand"] == ["Community Tip-Off"]
    for k in range(5):
        world = s.determinize(P2, Rng(k))
        assert tip_off in world.hand[P1] and world.known[P1] == [tip_off]


def test_deck_lists_are_public() -> None:
    """Citywatch ruling 5: every view shows every player's deck list."""
    s = GAME.new_game(2, 1, decks=["lifeline", "heartland"])
    assert s.view(P2)["seats"][P1]["deck"]["id"] == "lifeline"
    assert s.view(None)["seats"][P2]["deck"]["name"] == "Heartland (stand-in preset)"


def test_determinize_keeps_the_view_and_resamples_only_hidden_parts() -> None:
    """A world sampled for a seat shows that seat exactly its view; only the other hands (but
    known cards) and every deck's order change, each from its own pool."""
    s = busy()
    for seat in (P1, P2):
        for k in range(6):
            world = s.determinize(seat, Rng(k))
            assert world.view(seat) == s.view(seat)
            assert world.hand[seat] == s.hand[seat]
            for p in (P1, P2):
                assert world.action_discard[p] == s.action_discard[p]
                assert Counter(world.hand[p] + world.action_deck[p]) == \
                    Counter(s.hand[p] + s.action_deck[p])
                assert Counter(world.crisis_deck[p]) == Counter(s.crisis_deck[p])
            assert GAME.from_position(json.loads(json.dumps(world.position()))).position() \
                == world.position()


def test_determinization_never_depends_on_the_hidden_truth() -> None:
    """Two states that differ only in what a seat cannot see give that seat the same sampled
    world for the same sampling seed (OpenSpiel's resampler bug)."""
    s = busy()
    for seat in (P1, P2):
        twin = s.determinize(seat, Rng(99))
        assert twin.position() != s.position()
        for j in (1, 2):
            assert s.determinize(seat, Rng(j)).position() == \
                twin.determinize(seat, Rng(j)).position()


def test_the_log_names_drawn_cards_only_to_the_drawer() -> None:
    """Ruling 17 and citywatch ruling 7: the drawer's log names the cards, the others' says
    how many; discards are public."""
    s = GAME.new_game(2, 2)
    mine = [line for line in s.log(P1) if line.startswith("Player 1 draws")]
    theirs = [line for line in s.log(P2) if line.startswith("Player 1 draws")]
    assert theirs == ["Player 1 draws 4 Action cards."]
    assert mine != theirs and len(mine) == 1
    assert all(len(s.log(seat)) == len(s.log()) for seat in (P1, P2))


def test_a_world_sampled_for_another_seat_always_has_a_move() -> None:
    """A world sampled for Player 2 while Player 1 chooses Action cards may deal Player 1 a
    hand with nothing playable: stopping is still offered, so the world plays on."""
    pos = step2(base(), P1)
    hand(pos, P1, ["Raids", "Raids"])
    effort(pos, P1, "33222")
    s = load(pos)
    worlds = [s.determinize(P2, Rng(k)) for k in range(40)]
    stuck = [w for w in worlds if not any(a.verb == "play" for a in w.legal_actions())]
    assert stuck, "some sampled hand holds nothing playable"
    for world in stuck:
        assert [str(a) for a in world.legal_actions()] == ["Play no more Action cards this turn"]
        world.apply(world.legal_actions()[0])
        assert world.to_move is not None or world.result is not None
