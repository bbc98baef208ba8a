"""Guards! Guards!: drawing from one of two equally near decks (ruling 18), built from positions.

Ruling 18: "'Nearest' Hospital, Watch House or deck is counted in walking steps from the
player's tile; for a deck, count to its shop in deck_spaces. If two are equally near, the
player concerned chooses." Ruling 67: "A shop whose deck is empty uses the other deck of that
kind." Citywatch ruling 5: a card RETURNED to the nearest deck goes to the first of two equally
near decks without asking; a card DRAWN from one is drawn from the deck the player chooses.
"""

from __future__ import annotations

import pytest
from gg_positions import (
    Position,
    State,
    base,
    far_apart,
    fate_on_top,
    give,
    legal,
    load,
    tile,
    top,
    top_card,
)

from citywatch.core.errors import IllegalAction, InvalidPosition, InvalidRecord
from citywatch.core.record import Record, replay
from citywatch.core.rng import Rng
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import (
    DECK_SPACES,
    GUILD_CARDS,
    ITEMS,
    SCROLLS,
    TILES,
)
from citywatch.games.guards_guards.encoding import action_index, action_mask, index_action
from citywatch.games.guards_guards.fate import draw_fate_card, draw_nearest, lose_random_card
from citywatch.games.guards_guards.frames import advance, then
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.heuristic import HeuristicBot

SCROLL_FATE = "A Scroll Falls off a Shelf"  # F21: the nearest Curses & Cures deck
ITEM_FATE = "Fell off the Back of a Cart"  # F22: the nearest Odds & Sods deck
KINDS = {"curses_and_cures": ("scrolls", SCROLL_FATE), "odds_and_sods": ("items", ITEM_FATE)}
CARD_NAMES = [c.name for c in SCROLLS] + [c.name for c in ITEMS]


def ties(kind: str) -> list[int]:
    """The tiles equally near two decks of ``kind``, counted to their shops (ruling 18)."""
    return [t.index for t in TILES if len(board.nearest_deck(t.index, kind)) == 2]


def tie_street(kind: str) -> str:
    """A street tile equally near both decks of ``kind``."""
    return next(TILES[t].id for t in ties(kind) if TILES[t].kind == "street")


def space_id(space: int) -> str:
    return DECK_SPACES[space].id


def on_tie(kind: str) -> Position:
    """Red to move on a street equally near both decks of ``kind``, everyone else far away."""
    return far_apart(base(), ("Red", tie_street(kind)))


def fate_drawn(pos: Position, name: str) -> State:
    """Red draws the Fate card ``name`` (on top of the Fate deck) in the position ``pos``."""
    fate_on_top(pos, name)
    s = load(pos)
    draw_fate_card(s, 0)
    s._legal = None
    advance(s)
    return s


def asked(s: State) -> bool:
    return bool(s.stack) and top(s)[0] == "draw_from"


def shop_space(a: Action) -> int:
    return next(d.index for d in DECK_SPACES if d.shop == a.x)


# --- when the question is asked ------------------------------------------------------------------
def test_ruling_18_four_tiles_are_equally_near_two_decks_of_each_kind() -> None:
    """Ruling 18 counts to each deck's shop: four tiles tie for the Scroll decks and four for the
    Item decks; none is a shop or a Start Gate, so shops and starting gifts never tie here."""
    gates = {g for card in GUILD_CARDS for g in card.gates}
    shops = {d.shop for d in DECK_SPACES}
    for kind in KINDS:
        tied = ties(kind)
        assert len(tied) == 4
        assert not set(tied) & (gates | shops)
        for t in tied:
            near = board.nearest_deck(t, kind)
            assert len({board.WALK[t][DECK_SPACES[d].shop] for d in near}) == 1


@pytest.mark.parametrize("kind", list(KINDS))
def test_ruling_18_a_fate_card_drawn_on_a_tie_asks_which_deck(kind: str) -> None:
    """Ruling 18: F21/F22 ("the top card of the nearest deck") on a tile equally near both
    decks: the drawer chooses; each choice names the deck by its shop and how many cards it
    holds, never a card; a deck not offered is refused and changes nothing."""
    key, fate = KINDS[kind]
    s = fate_drawn(on_tie(kind), fate)
    assert asked(s) and s.to_move == 0 and not getattr(s, key)[0]
    options = legal(s)
    spaces = board.nearest_deck(s.pos[0], kind)
    assert [a.verb for a in options] == ["draw_from", "draw_from"]
    assert [shop_space(a) for a in options] == list(spaces)
    assert [a.y for a in options] == [len(s.decks[d]) for d in spaces]
    for a in options:
        text = str(a)
        assert TILES[a.x].name in text and f"of {a.y} cards" in text
        assert not any(name in text for name in CARD_NAMES)
        assert a.to_json() == {"verb": "draw_from", "shop": TILES[a.x].name, "cards": a.y}
        assert Action.from_json(a.to_json()) == a
    view = s.view(0)["decision"]
    assert "equally near" in view["task"] and view["actions"] == [str(a) for a in options]
    assert "actions" not in s.view(1)["decision"]  # only the drawer sees the choices
    before = s.position()
    other = next(d for d in DECK_SPACES if d.deck != kind)
    with pytest.raises(IllegalAction):
        s.apply(Action("draw_from", other.shop, len(s.decks[other.index])))
    with pytest.raises(IllegalAction):
        s.apply(Action("draw_from", options[0].x, options[0].y + 1))  # a wrong count
    assert s.position() == before


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("choice", [0, 1])
def test_ruling_18_each_choice_draws_the_top_card_of_that_deck(kind: str, choice: int) -> None:
    """Ruling 18: the chosen deck gives its top card; the other deck is untouched; only the
    drawer reads which card it was (ruling 70)."""
    key, fate = KINDS[kind]
    s = fate_drawn(on_tie(kind), fate)
    a = legal(s)[choice]
    chosen = shop_space(a)
    other = next(d for d in board.nearest_deck(s.pos[0], kind) if d != chosen)
    card, rest, untouched = s.decks[chosen][-1], s.decks[chosen][:-1], s.decks[other][:]
    s.apply(a)
    assert not asked(s)
    assert getattr(s, key)[0] == [card]
    assert s.decks[chosen] == rest and s.decks[other] == untouched
    name = (SCROLLS if kind == "curses_and_cures" else ITEMS)[card].name
    assert any(name in line for line in s.log(0))
    assert not any(name in line for line in s.log(1))
    assert f"Red draws from the {'Scroll' if key == 'scrolls' else 'Item'} deck by " \
           f"{TILES[a.x].name}." in s.log(1)


@pytest.mark.parametrize("kind", list(KINDS))
def test_ruling_18_no_question_where_one_deck_is_nearer(kind: str) -> None:
    """Ruling 18: from a tile with one nearest deck the card comes from it at once."""
    key, fate = KINDS[kind]
    street = next(t for t in TILES if t.kind == "street" and t.index not in ties(kind))
    pos = far_apart(base(), ("Red", street.id))
    nearest = board.nearest_deck(street.index, kind)[0]
    card = load(pos).decks[nearest][-1]
    s = fate_drawn(pos, fate)
    assert not asked(s)
    assert getattr(s, key)[0] == [card] and len(s.decks[nearest]) == 9


# --- ruling 67: empty decks ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("empty", [0, 1])
def test_ruling_67_with_one_tied_deck_empty_there_is_no_question(kind: str, empty: int) -> None:
    """Ruling 67: if one of the equally near decks is empty, the card comes from the other
    without a question."""
    key, fate = KINDS[kind]
    pos = on_tie(kind)
    spaces = board.nearest_deck(tile(tie_street(kind)), kind)
    gone = space_id(spaces[empty])
    give(pos, "Blue", **{key[:-1]: list(pos["decks"][gone])})  # the deck's cards to Blue
    full = spaces[1 - empty]
    s0 = load(pos)
    card = s0.decks[full][-1]
    s = fate_drawn(pos, fate)
    assert not asked(s)
    assert getattr(s, key)[0] == [card] and not s.decks[spaces[empty]]


def test_ruling_67_a_chosen_deck_that_runs_out_gives_way_to_the_other() -> None:
    """Rulings 18 and 67: drawing two Scrolls, the chosen deck holds one: the second card comes
    from the other equally near deck."""
    kind = "curses_and_cures"
    pos = on_tie(kind)
    s = load(pos)
    first, second = board.nearest_deck(s.pos[0], kind)
    give(pos, "Blue", scroll=[SCROLLS[c].name for c in s.decks[first][1:]])  # one card left
    s = load(pos)
    last, other_top = s.decks[first][0], s.decks[second][-1]
    draw_nearest(s, 0, kind, 2)
    s._legal = None
    advance(s)
    assert asked(s)
    a = next(a for a in legal(s) if shop_space(a) == first)
    assert a.y == 1 and str(a).endswith(f"of 1 card by {TILES[a.x].name}")
    s.apply(a)
    assert s.scrolls[0] == [last, other_top] and not s.decks[first]


# --- returns keep citywatch ruling 5 -------------------------------------------------------------
def test_citywatch_ruling_5_a_returned_card_goes_to_the_first_tied_deck_without_asking() -> None:
    """Citywatch ruling 5: F23 (Exploding Swamp Dragon) sends a Scroll to the bottom of the
    nearest deck; from a tie it joins the first deck (DECK_SPACES order) and nobody is asked."""
    kind = "curses_and_cures"
    pos = on_tie(kind)
    give(pos, "Red", scroll=SCROLLS[0].name)
    s = load(pos)
    first = board.nearest_deck(s.pos[0], kind)[0]
    lose_random_card(s, 0)
    s._legal = None
    advance(s)
    assert not asked(s) and not s.scrolls[0]
    assert s.decks[first][0] == 0


# --- every drawing rule asks ---------------------------------------------------------------------
def test_ruling_6_and_18_a_starting_gift_on_a_tie_asks() -> None:
    """Rulings 6 and 18: a starting Volunteer's gift comes from the deck nearest the player;
    dealt on a tile equally near two Scroll decks, the player chooses before the next card is
    dealt."""
    pos = top_card(on_tie("curses_and_cures"), "The Lecturer in Recent Runes")
    s = load(pos)
    then(s, ("deal_volunteer", 0, 0), ("deal_volunteer", 0, 1))
    s._legal = None
    hand_before = len(s.hand[0])
    advance(s)
    assert asked(s) and len(s.hand[0]) == hand_before + 1  # the second card waits
    a = legal(s)[0]
    card = s.decks[shop_space(a)][-1]
    s.apply(a)
    assert s.scrolls[0] == [card] and len(s.hand[0]) == hand_before + 2


# --- positions and records -----------------------------------------------------------------------
def test_ruling_18_a_position_with_the_question_round_trips() -> None:
    """The pending question is written in the position and read back to the same question."""
    s = fate_drawn(on_tie("curses_and_cures"), SCROLL_FATE)
    pos = s.position()
    spaces = list(board.nearest_deck(s.pos[0], "curses_and_cures"))
    assert pos["stack"][-1] == ["draw_from", 0, "curses_and_cures", 1, spaces]
    again = GAME.from_position(pos)
    assert again.position() == pos and again.legal_actions() == legal(s)
    choice = legal(s)[1]
    s.apply(choice)
    again.apply(choice)
    assert again.position() == s.position()


@pytest.mark.parametrize(("frame", "why"), [
    (["draw_from", 0, "curses_and_cures", 1, [0, 1]], "not a curses_and_cures deck space"),
    (["draw_from", 0, "pies", 1, [2, 3]], "unknown deck kind"),
    (["draw_from", 0, "curses_and_cures", 0, [2, 3]], "count >= 1"),
    (["draw_from", 0, "curses_and_cures", 1, [2]], "two deck spaces"),
    (["draw_from", 0, "curses_and_cures", 1, [2, 9]], "offers 9"),
])
def test_ruling_18_a_malformed_question_in_a_position_is_refused(frame: list[object],
                                                                  why: str) -> None:
    """A ``draw_from`` frame whose fields do not fit is refused, naming the fault."""
    pos = load(on_tie("curses_and_cures")).position()
    pos["stack"].append(frame)
    with pytest.raises(InvalidPosition, match=why):
        GAME.from_position(pos)


def test_ruling_67_a_read_question_with_one_deck_left_draws_at_once() -> None:
    """A position whose pending question has only one deck with cards left draws from it at
    once (ruling 67)."""
    kind = "curses_and_cures"
    pos = on_tie(kind)
    give(pos, "Blue", scroll=list(pos["decks"]["scrolls_ne"]))
    pos = load(pos).position()
    pos["stack"].append(["draw_from", 0, kind, 1, [2, 3]])
    top_card_name = pos["decks"]["scrolls_sw"][-1]
    s = GAME.from_position(pos)
    assert not asked(s) and [SCROLLS[c].name for c in s.scrolls[0]] == [top_card_name]


def _game_with_the_question(players: int = 3) -> tuple[int, list[Action]]:
    """A seed and the actions of a random game from it that reach a ``draw_from`` question
    and answer it (random bots walk onto the tied tiles now and then)."""
    for seed in range(200):
        s = GAME.new_game(players, seed)
        rng = Rng(seed)
        actions: list[Action] = []
        while s.outcome() is None and len(actions) < 600:
            options = s.legal_actions()
            a = options[rng.below(len(options))]
            was_asked = asked(s)
            s.apply(a)
            actions.append(a)
            if was_asked:
                return seed, actions
    raise AssertionError("no random game from seeds 0-199 met the question")


def test_ruling_18_the_choice_replays_from_a_record() -> None:
    """A record holding a ``draw_from`` answer replays to the same state (digests verified),
    and a record whose answer names a deck not offered is refused at that action."""
    seed, actions = _game_with_the_question()
    assert actions[-1].verb == "draw_from"
    s = GAME.new_game(3, seed)
    digests = []
    for a in actions:
        s.apply(a)
        digests.append(s.digest())
    record = Record(GAME.name, 3, seed, {}, [a.to_json() for a in actions], digests)
    again = replay(record.to_json(), verify=True)
    assert again.position() == s.position()
    last = actions[-1]
    wrong = next(d for d in DECK_SPACES if d.shop != last.x)
    bad = record.to_json()
    bad["actions"][-1] = {"verb": "draw_from", "shop": TILES[wrong.shop].name, "cards": last.y}
    with pytest.raises(InvalidRecord, match=f"action {len(actions)} "):
        replay(bad)


# --- bots and learning agents --------------------------------------------------------------------
def test_ruling_18_the_heuristic_bot_draws_from_the_fuller_deck() -> None:
    """The heuristic bot takes the equally near deck holding more cards."""
    kind = "curses_and_cures"
    spaces = board.nearest_deck(tile(tie_street(kind)), kind)
    for fuller, thinner in (spaces, spaces[::-1]):
        pos = on_tie(kind)
        give(pos, "Blue", scroll=pos["decks"][space_id(thinner)][:4])
        s = fate_drawn(pos, SCROLL_FATE)
        choice = HeuristicBot().choose_in(s, 0, legal(s), Rng(1))
        assert shop_space(choice) == fuller


def test_ruling_18_the_question_is_in_the_action_space() -> None:
    """Every ``draw_from`` answer has a number in the fixed action space and back, and the mask
    marks exactly the legal ones."""
    s = fate_drawn(on_tie("odds_and_sods"), ITEM_FATE)
    mask = action_mask(s)
    numbers = [action_index(a) for a in legal(s)]
    assert [index_action(i) for i in numbers] == legal(s)
    assert sorted(i for i in range(len(mask)) if mask[i]) == sorted(numbers)
