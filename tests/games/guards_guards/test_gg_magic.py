"""Guards! Guards! Scrolls and magical Items (rulebook "Casting Scrolls and using magical Items";
rulings 52-57)."""

from __future__ import annotations

from test_gg_combat import iid, make, script, top, vid

from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import HOSPITALS, SCROLLS, TILES
from citywatch.games.guards_guards.frames import advance, push
from citywatch.games.guards_guards.harm import LET_IT_HAPPEN, USE_WAND, lose_volunteer
from citywatch.games.guards_guards.magic import (
    CAST,
    CAST_ON_PLAYER,
    CAST_ON_VOLUNTEER,
    CAST_PLAIN,
    CAST_TO_TILE,
    LET_GO,
    NO_MAGIC,
    RESURRECT,
    STAFF_ON,
    USE_ITEM,
    magic_actions,
    need,
)
from citywatch.games.guards_guards.state import CHARM, GUILD, MAGIC, UNTIL_HEALED, GuardsGuardsState


def sc(name: str) -> int:
    return next(c.index for c in SCROLLS if c.name == name)


def react(s: GuardsGuardsState, seat: int = 1) -> None:
    """Open seat's out-of-turn window at the start of seat 0's turn."""
    push(s, "react", seat)
    advance(s)


def cast(s: GuardsGuardsState, seat: int, scroll: int, target: Action) -> None:
    s.scrolls[seat].append(scroll)
    react(s, seat)
    s.apply(Action(CAST, scroll))
    if top(s)[0] == "cast":  # else the only target was taken at once
        assert target in s.legal_actions(), s.legal_actions()
        s.apply(target)


def pick(s: GuardsGuardsState, a: Action) -> None:
    """Choose ``a`` in the ``cast`` frame, unless it was the only choice (taken at once)."""
    if top(s)[0] == "cast":
        s.apply(a)


def test_rulebook_magic_defence_example_target_5_plus_2_needs_7() -> None:
    """"If a Scroll's Target Value is 5 and the player they are attempting to cast it against
    has a +2 to defend against Magic; the attacking player requires ... 7 or higher.\""""
    s = make(3)
    s.hand[0].append(vid("Lord Havelock Vetinari"))  # magic defence 2
    boots = sc("Leaden Boots")  # Magic 5
    s.attrs[1][MAGIC] = 2
    script(s, 5, 1)  # 2+5 = 7: cast; the defence roll a natural 1 fails
    cast(s, 1, boots, Action(CAST_ON_PLAYER, boots, 0))
    assert ("move", -2, 0, UNTIL_HEALED, "Leaden Boots") in s.effects[0]
    assert boots not in s.scrolls[1]


def test_ruling_55_only_the_highest_defence_counts() -> None:
    """Ruling 55: "Magic defence adds only the highest single value among the target's
    Volunteers in hand and the Octarine Amulet.\""""
    s = make()
    s.hand[0] += [vid("Lord Havelock Vetinari"), vid("The Dean")]  # 2 and 1
    s.items[0].append(iid("Octarine Amulet"))
    assert s.magic_defence(0) == 2


def test_ruling_55_no_defence_added_on_own_target() -> None:
    """Ruling 55 / rulebook: the defence is added when "targeting such a player" (an
    opponent): a cure on oneself needs only the card's target."""
    s = make()
    s.hand[1].append(vid("Lord Havelock Vetinari"))
    cure = sc("Remedy for the Lesser Pox")
    s.scrolls[1].append(cure)
    react(s, 1)
    s.apply(Action(CAST, cure))
    assert Action(CAST_ON_PLAYER, cure, 1) in s.legal_actions()
    assert Action(CAST_ON_PLAYER, cure, 0) in s.legal_actions()


def test_rulebook_failed_scroll_stays_in_hand_and_ruling_53_one_attempt_per_turn() -> None:
    """"That card is kept by the player" and ruling 53: "Each Scroll card gets at most one
    casting attempt per turn.\""""
    s = make()
    hex_ = sc("Hex of Sneezing")
    script(s, 2)
    cast(s, 1, hex_, Action(CAST_ON_PLAYER, hex_, 0))
    assert hex_ in s.scrolls[1] and not s.pox[0]
    assert Action(CAST, hex_) not in magic_actions(s, 1)


def test_ruling_53_cast_scroll_goes_to_bottom_of_nearest_curses_deck() -> None:
    """Ruling 53: "A cast Scroll goes to the Curses & Cures deck nearest the caster.\""""
    s = make()
    hex_ = sc("Hex of Sneezing")
    script(s, 8, 1)
    cast(s, 1, hex_, Action(CAST_ON_PLAYER, hex_, 0))
    assert s.pox[0]
    assert s.decks[s.deck_for(1, "curses_and_cures")] == [hex_]


def test_ruling_52_wand_comes_before_the_defence_roll() -> None:
    """Ruling 52: "A cancel (Wand of Fizzling) comes straight after the success it cancels,
    before any defence roll.\""""
    s = make()
    s.items[0].append(iid("Wand of Fizzling"))
    hex_ = sc("Hex of Sneezing")
    script(s, 8, 1)
    cast(s, 1, hex_, Action(CAST_ON_PLAYER, hex_, 0))
    assert top(s)[0] == "wand"
    s.apply(Action(USE_WAND))
    assert not s.pox[0] and hex_ not in s.scrolls[1]  # still counts as cast


def test_rulebook_defence_roll_avoids_the_effect() -> None:
    """"any defence rolls the targeted player may attempt, to escape the effects\"."""
    s = make()
    s.attrs[0][MAGIC] = 3
    hex_ = sc("Hex of Sneezing")  # defence Magic 6
    script(s, 8, 3)  # cast; 3+3 = 6 resists
    cast(s, 1, hex_, Action(CAST_ON_PLAYER, hex_, 0))
    assert not s.pox[0]


def test_ruling_56_no_magic_from_or_at_a_hospital() -> None:
    """Ruling 56: "A player in a Hospital or Watch House cannot use Magic ..., or be targeted
    by them\"."""
    s = make()
    hex_ = sc("Hex of Sneezing")
    s.scrolls[1].append(hex_)
    s.pos[0] = HOSPITALS[0]
    assert magic_actions(s, 1) == []
    s.pos[0] = s.gate[0]
    s.pos[1] = HOSPITALS[0]
    assert magic_actions(s, 1) == []


def test_scroll_effects_on_players() -> None:
    """Curse of Boils (Charm -2), Muddled Wits (Magic and Guild -1), Stumbling Step (2 turns),
    Stasis (no move next turn), Fog (no Guild Ability)."""
    for name, want in (
        ("Curse of Boils", [("attr", CHARM, -2, UNTIL_HEALED, "Curse of Boils")]),
        ("Curse of Muddled Wits", [("attr", MAGIC, -1, UNTIL_HEALED, "Curse of Muddled Wits"),
                                   ("attr", GUILD, -1, UNTIL_HEALED, "Curse of Muddled Wits")]),
        ("Hex of the Stumbling Step", [("move", -2, 0, 2, "Hex of the Stumbling Step")]),
        ("Stasis", [("move_cap", 0, 0, 1, "Stasis")]),
    ):
        s = make()
        card = sc(name)
        script(s, 8, 1)
        s.attrs[1][MAGIC] = 5
        cast(s, 1, card, Action(CAST_ON_PLAYER, card, 0))
        assert list(s.effects[0]) == want, name


def test_scroll_self_effects_stride_fog_translocation() -> None:
    """Seven-League Stride (+2 for 3 turns), Fog of Obscurity, Inadvertent Translocation."""
    s = make()
    stride, fog = sc("Seven-League Stride"), sc("Fog of Obscurity")
    script(s, 8, 8, 8, 8)
    s.scrolls[1].append(fog)
    cast(s, 1, stride, Action(CAST_PLAIN, stride))
    s.apply(Action(CAST, fog))
    pick(s, Action(CAST_PLAIN, fog))
    assert ("move", 2, 0, 3, "Seven-League Stride") in s.effects[1]
    assert ("fog", 0, 0, 1, "Fog of Obscurity") in s.effects[1]
    s = make()
    tr = sc("Inadvertent Translocation")
    s.pos[0] = next(t.index for t in TILES if t.kind == "street" and t.quadrant == 0)
    s.scrolls[0].append(tr)
    push(s, "cast", 0, tr)
    advance(s)
    options = s.legal_actions()
    assert options and all(a.verb == CAST_TO_TILE and TILES[a.y].quadrant == 0 for a in options)
    script(s, 8, 8)
    s.apply(options[0])
    assert s.pos[0] == options[0].y


def test_scroll_volunteer_effects_this_turn() -> None:
    """Troll Strength +2 Brawl, Iron Skin +2 Toughness, Binding Loyalty +3, Sharp Wits +2
    Streetwise on an own Volunteer; Wobbly Knees -2/-2 on a public opposing Runner."""
    from citywatch.games.guards_guards.state import Run

    s = make()
    v = vid("The Bursar")
    s.hand[1].append(v)
    for name in ("Troll Strength", "Iron Skin", "Word of Binding Loyalty", "Sharp Wits"):
        card = sc(name)
        script(s, 8, 8)
        s.scrolls[1].append(card)
        push(s, "cast", 1, card)
        advance(s)
        pick(s, Action(CAST_ON_VOLUNTEER, card, v))
    assert s.stat(v, "brawl") == 2 and s.stat(v, "toughness") == 3
    assert s.stat(v, "loyalty") == 6 and s.stat(v, "streetwise") == 2
    wobbly = sc("Curse of Wobbly Knees")
    runner = vid("Count Notfaroutoe")
    s.run[0] = Run(0)
    s.run[0].runners.append((runner, -1))
    s.hand[0].append(vid("The Dean"))  # hidden in hand: not a target
    script(s, 8, 1)
    s.scrolls[1].append(wobbly)
    push(s, "cast", 1, wobbly)
    advance(s)
    if top(s)[0] == "cast":
        s.apply(s.legal_actions()[0])
    assert s.stat(runner, "brawl") == 1 and s.stat(runner, "toughness") == 2


def test_banishing_word_sends_saboteurs_home_unless_guild_7() -> None:
    """Banishing Word: "Every opposing Saboteur planted there is sent back to its owner's hand,
    unless its owner passes a Guild test of 7\"."""
    s = make(3)
    b = sc("Banishing Word")
    s.saboteurs[0] += ((1, vid("Carding"), -1),)
    s.saboteurs[2] += ((1, vid("Spelter"), -1),)
    s.attrs[0][GUILD] = 1
    s.attrs[2][GUILD] = 4
    script(s, 8, 8, 3, 4)  # cast (8), Guild: 1+3 fails, 4+4 holds
    s.attrs[1][MAGIC] = 0
    cast(s, 1, b, Action("cast_on_quadrant", b, 1))
    assert vid("Carding") in s.hand[0] and not s.saboteurs[0]
    assert s.saboteurs[2] == ((1, vid("Spelter"), -1),)


def test_dragons_bane_only_in_a_dragon_fight() -> None:
    """Dragon's Bane: "Add 4 to the combined Brawl roll of a Dragon fight in progress.\""""
    s = make()
    bane = sc("Dragon's Bane")
    s.scrolls[1].append(bane)
    assert magic_actions(s, 1) == []
    s.stack.append(("dragon", -1, "fight", 0, ((1, vid("The Dean"), -1),), 0, False))
    push(s, "react", 1, "dragon")
    advance(s)
    script(s, 8, 8)
    s.apply(Action(CAST, bane))
    pick(s, Action(CAST_PLAIN, bane))
    assert any("Dragon's Bane adds 4" in line for line in s.log())


def test_summon_the_luggage_and_sliver_move_the_luggage() -> None:
    """Summon the Luggage (1-3 tiles) and the Sliver of Sapient Pearwood (up to 3 tiles)."""
    s = make()
    card = sc("Summon the Luggage")
    script(s, 8, 8)
    cast(s, 1, card, Action(CAST_PLAIN, card))
    assert top(s)[0] == "luggage_path" or s.luggage != make().luggage or "luggage_tiles" in {
        a.verb for a in s.legal_actions()}
    s = make()
    s.items[1].append(iid("Sliver of Sapient Pearwood"))
    react(s, 1)
    assert Action(USE_ITEM, iid("Sliver of Sapient Pearwood")) in s.legal_actions()


def test_cures_remedy_panacea_and_nanny_oggs() -> None:
    """Remedy for the Lesser Pox cures the Pox; Universal Panacea and Nanny Ogg's Cure All also
    cure every 'until healed' effect."""
    from citywatch.games.guards_guards.state import Effect

    s = make()
    s.pox[1] = True
    s.effects[1] += (Effect("attr", CHARM, -2, UNTIL_HEALED, "Curse of Boils"),)
    remedy = sc("Remedy for the Lesser Pox")
    script(s, 8, 8)
    cast(s, 1, remedy, Action(CAST_ON_PLAYER, remedy, 1))
    assert not s.pox[1] and s.effects[1]
    while top(s)[0] != "idle":
        s.apply(Action(NO_MAGIC))
    s.items[1].append(iid("Nanny Ogg's Cure All"))
    react(s, 1)
    s.apply(Action(USE_ITEM, iid("Nanny Ogg's Cure All")))
    assert not s.effects[1] and not s.items[1]


def test_seven_league_boots_only_before_the_first_step() -> None:
    """Seven-League Boots: "Use them as your movement starts: this turn you may move up to 10
    spaces\"."""
    s = make()
    boots = iid("Seven-League Boots")
    s.items[0].append(boots)
    assert Action(USE_ITEM, boots) in magic_actions(s, 0)
    s.t.steps = 1
    s.t.moving = True
    assert Action(USE_ITEM, boots) not in magic_actions(s, 0)
    s.t.steps = 0
    s.t.moving = False
    from citywatch.games.guards_guards.magic import do_magic

    do_magic(s, 0, Action(USE_ITEM, boots))
    assert ("move_set", 10, 0, 1, "Seven-League Boots") in s.effects[0]
    assert Action(USE_ITEM, boots) not in magic_actions(s, 1)


def test_wizards_staff_gives_two_brawl_or_toughness() -> None:
    """Wizard's Staff: "Give one of your Volunteers +2 Brawl or +2 Toughness until the end of
    the turn.\""""
    s = make()
    staff = iid("Wizard's Staff")
    v = vid("The Dean")
    s.items[1].append(staff)
    s.hand[1].append(v)
    react(s, 1)
    s.apply(Action(USE_ITEM, staff))
    assert set(s.legal_actions()) == {Action(STAFF_ON, v, 2), Action(STAFF_ON, v, 3)}
    s.apply(Action(STAFF_ON, v, 3))
    assert s.stat(v, "toughness") == 4 and staff not in s.items[1]


def test_reg_shoes_recipe_brings_a_volunteer_back_with_its_item() -> None:
    """Reg Shoe's Recipe: "the Volunteer gets up again and returns to your hand with any Item it
    carried\"."""
    s = make()
    reg = sc("Reg Shoe's Recipe")
    s.scrolls[1].append(reg)
    v, mail = vid("The Dean"), iid("Chain-Mail Shirt")
    lose_volunteer(s, 1, v, mail, "a test")
    advance(s)
    assert set(s.legal_actions()) == {Action(RESURRECT, v), Action(LET_GO, v)}
    script(s, 6)
    s.attrs[1][MAGIC] = 0
    s.apply(Action(RESURRECT, v))
    assert v in s.hand[1] and mail in s.items[1] and reg not in s.scrolls[1]


def test_octarine_amulet_defends_like_plus_one() -> None:
    """Octarine Amulet: "While it is in your hand it defends you like a Volunteer with magic
    defence +1.\""""
    s = make(3)
    s.items[0].append(iid("Octarine Amulet"))
    hex_ = sc("Hex of Sneezing")
    s.scrolls[1].append(hex_)
    react(s, 1)
    s.apply(Action(CAST, hex_))
    assert Action(CAST_ON_PLAYER, hex_, 0) in s.legal_actions()
    assert need(s, 1, hex_, 0) == SCROLLS[hex_].magic_target + 1
    assert LET_IT_HAPPEN
