"""Guards! Guards! test situations built FROM POSITIONS (``docs/guards-guards-position.md``).

``base()`` is a real game after set-up, written by ``state.position()``; the helpers below edit
that JSON by names (colours, tile ids, card names) and keep it valid: a card given to a hand
is first taken from wherever it was, so every card stays in exactly one place. ``load`` reads
the JSON back with ``GAME.from_position`` (which checks it), and ``scripted`` replaces the
state's random source by scripted dice. ``pending`` (``fate_drawn``, ``luggage_moves``) writes
an effect under way, ``turn_begins`` the moment before a turn; ``act``, ``walk`` and
``finish_turn`` play on through legal actions; ``load_with_dice`` reads a position whose
pending steps throw scripted dice.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from citywatch.core.rng import Rng
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import (
    COLOURS,
    DECKS,
    FATE_CARDS,
    GUILD_CARDS,
    ITEMS,
    QUADRANTS,
    SCROLLS,
    TILE_INDEX,
    TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.game import GAME
from citywatch.games.guards_guards.state import GuardsGuardsState

Position = dict[str, Any]
State = GuardsGuardsState
ATTRS = ("magic", "guild", "charm")


# --- scripted dice ---------------------------------------------------------------------------
class ScriptedRng(Rng):
    """Dice and random picks from scripts: ``roll`` pops ``rolls``, ``below`` pops ``belows``
    (0 when empty); shuffles change nothing. ``to_json`` lets a scripted state still write its
    position."""

    def __init__(self, rolls: Sequence[int] = (), belows: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.belows = list(belows)

    def roll(self, sides: int) -> int:
        assert self.rolls, "the test ran out of scripted die rolls"
        face = self.rolls.pop(0)
        assert 1 <= face <= sides
        return face

    def below(self, n: int) -> int:
        return self.belows.pop(0) % n if self.belows else 0

    def shuffle(self, items: Any) -> None:
        return None

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def copy(self) -> ScriptedRng:
        return self

    def spawn(self) -> ScriptedRng:
        return self

    def to_json(self) -> Any:
        return 0


def scripted(s: State, rolls: Sequence[int] = (), belows: Sequence[int] = ()) -> ScriptedRng:
    """Install scripted dice on ``s`` (the ``rng`` attribute may be replaced in tests)."""
    rng = ScriptedRng(rolls, belows)
    s.rng = rng
    s._legal = None
    return rng


# --- names -----------------------------------------------------------------------------------
def seat_index(colour: str) -> int:
    return COLOURS.index(colour)


def seat(pos: Position, colour: str) -> dict[str, Any]:
    """The seat object of ``colour``."""
    return pos["seats"][seat_index(colour)]


def volunteer(name: str) -> int:
    return next(v.index for v in VOLUNTEERS if v.name == name)


def item_index(name: str) -> int:
    return next(i.index for i in ITEMS if i.name == name)


def scroll_index(name: str) -> int:
    return next(c.index for c in SCROLLS if c.name == name)


def fate_index(name: str) -> int:
    return next(c.index for c in FATE_CARDS if c.name == name)


def tile(name: str) -> int:
    return TILE_INDEX[name]


def deck_of(name: str) -> str:
    """The Volunteer deck key of a Volunteer card."""
    return DECKS[VOLUNTEERS[volunteer(name)].deck]


# --- a real game after set-up ------------------------------------------------------------
def base(players: int = 3, seed: int = 1, guilds: Sequence[str] = (), clear: bool = True,
         rounds: int = 0) -> Position:
    """A real game after set-up as ``state.position()`` JSON, with Red to move before moving.

    ``guilds``: Guild Card names by seat (default: the first free card each seat is offered).
    ``clear``: empty hands (cards to the bottom of their decks), levels at the Guild Card's
    start, $5 each, so that tests start from a known situation. ``rounds``: the short-game
    limit (0: none)."""
    s = GAME.new_game(players, seed, rounds=rounds)
    wanted = [next(g for g in GUILD_CARDS if g.name == name) for name in guilds]
    while s.stack and s.stack[-1][0] == "setup":
        who = s.stack[-1][1]
        acts = s.legal_actions()
        if who < len(wanted):
            acts = [a for a in acts if a.x == wanted[who].index]
        else:
            free = [a for a in acts if all(a.x != g.index and a.y not in g.gates
                                           for g in wanted)]
            acts = free or acts
        s.apply(acts[0])
    pos = s.position()
    if clear:
        for p in pos["seats"]:
            card = next(g for g in GUILD_CARDS if g.name == p["guild_card"])
            for name in p["hand"]:
                pos["volunteers"][deck_of(name)]["face_down"].insert(0, name)
            p["hand"] = []
            for key, deck_kind in (("scrolls", "scrolls"), ("items", "items")):
                for name in p[key]:
                    space = next(k for k in pos["decks"] if k.startswith(deck_kind))
                    pos["decks"][space].insert(0, name)
                p[key] = []
            p["magic"], p["guild"], p["charm"] = card.start
            p["dollars"] = 5
            p["pox"] = False
    return turn_of(pos, "Red")


def unset(players: int = 3, seed: int = 1) -> Position:
    """A new game before anyone has chosen a Guild Card (the ``setup`` decisions pending)."""
    return GAME.new_game(players, seed).position()


def turn_of(pos: Position, colour: str, stopped: bool = False) -> Position:
    """Make it ``colour``'s turn, before moving (or, ``stopped``, after moving: the stop
    actions of their tile are open)."""
    p = seat(pos, colour)
    pos["current"] = colour
    pos["turn_state"] = {
        "seat": colour, "allowance": 0, "steps": 0, "path": [], "used": [], "asked": 0,
        "moving": False, "stopped": stopped, "stop_done": False, "cast": [],
        "planted": False, "recalled": False, "house": False, "entered": 0, "over": False,
    }
    pos["stack"] = [["turn", seat_index(colour), len(p["flasks"]), tile(p["tile"]), 2]]
    pos["volunteer_modifiers"] = []
    pos["turn"] = max(pos["turn"], 1)
    return pos


def turn_begins(pos: Position, colour: str) -> Position:
    """The moment between two turns, just before ``colour``'s begins: the previous player's
    turn is over and nothing is pending, so loading the position begins ``colour``'s turn as
    play does (a run's freeze lifts, missed turns, the Watch House: ruling 7)."""
    before = COLOURS[(seat_index(colour) - 1) % pos["players"]]
    turn_of(pos, before)
    pos["turn_state"].update(stopped=True, stop_done=True, over=True)
    pos["stack"] = []
    return pos


# --- editing by names --------------------------------------------------------------------
def _drop_name(names: list[Any], name: str) -> bool:
    if name in names:
        names.remove(name)
        return True
    return False


def take(pos: Position, volunteer: str | None = None, scroll: str | None = None,
         item: str | None = None, fate: str | None = None) -> None:
    """Take a card out of wherever it is (a hand, a deck, a pile, a Saboteur, a Run)."""
    for p in pos["seats"]:
        if volunteer is not None:
            _drop_name(p["hand"], volunteer)
            p["saboteurs"] = [x for x in p["saboteurs"] if x["volunteer"] != volunteer]
        if scroll is not None:
            _drop_name(p["scrolls"], scroll)
        if item is not None:
            _drop_name(p["items"], item)
            for x in p["saboteurs"]:
                if x["item"] == item:
                    x["item"] = None
        if fate is not None:
            _drop_name(p["kept"], fate)
        run = p["run"]
        if run is not None:
            for key in ("runners", "at_gate"):
                run[key] = [r for r in run[key] if r["volunteer"] != volunteer]
                for r in run[key]:
                    if item is not None and r["item"] == item:
                        r["item"] = None
    if volunteer is not None:
        for piles in pos["volunteers"].values():
            for pile in piles.values():
                _drop_name(pile, volunteer)
    if fate is not None:
        _drop_name(pos["fate"]["deck"], fate)
        _drop_name(pos["fate"]["discard"], fate)
    for cards in pos["decks"].values():
        for name in (scroll, item):
            if name is not None:
                _drop_name(cards, name)


def give(pos: Position, colour: str, volunteer: str | Iterable[str] = (),
         scroll: str | Iterable[str] = (), item: str | Iterable[str] = (),
         fate: str | Iterable[str] = ()) -> Position:
    """Move cards from wherever they are into ``colour``'s hand (Volunteers, Scrolls, Items,
    kept Fate cards)."""
    p = seat(pos, colour)
    for key, names, kind in (("hand", volunteer, "volunteer"), ("scrolls", scroll, "scroll"),
                             ("items", item, "item"), ("kept", fate, "fate")):
        for name in [names] if isinstance(names, str) else list(names):
            take(pos, **{kind: name})
            p[key].append(name)
    return pos


def discard(pos: Position, volunteer: str) -> Position:
    """Put a Volunteer on its deck's discard pile."""
    take(pos, volunteer=volunteer)
    pos["volunteers"][deck_of(volunteer)]["discard"].append(volunteer)
    return pos


def face_up(pos: Position, volunteer: str) -> Position:
    """Put a Volunteer on top of its deck's face-up pile."""
    take(pos, volunteer=volunteer)
    pos["volunteers"][deck_of(volunteer)]["face_up"].append(volunteer)
    return pos


def top_card(pos: Position, volunteer: str) -> Position:
    """Put a Volunteer on top of its face-down deck."""
    take(pos, volunteer=volunteer)
    pos["volunteers"][deck_of(volunteer)]["face_down"].append(volunteer)
    return pos


def only_face_up(pos: Position, volunteer: str) -> Position:
    """Make ``volunteer`` the only face-up card of its deck: the others go to the bottom of
    its face-down deck."""
    take(pos, volunteer=volunteer)
    piles = pos["volunteers"][deck_of(volunteer)]
    piles["face_down"][:0] = piles["face_up"]
    piles["face_up"] = [volunteer]
    return pos


def fate_on_top(pos: Position, name: str) -> Position:
    """Put a Fate card on top of the Fate deck."""
    take(pos, fate=name)
    pos["fate"]["deck"].append(name)
    return pos


def deck_top(pos: Position, space: str, scroll: str | None = None,
             item: str | None = None) -> Position:
    """Put a Scroll or Item on top of the deck space ``space`` (``items_nw``, ...)."""
    take(pos, scroll=scroll, item=item)
    pos["decks"][space].append(scroll if scroll is not None else item)
    return pos


def put(pos: Position, colour: str, tile_id: str) -> Position:
    """Stand ``colour``'s piece on ``tile_id`` (the turn frame's start tile follows)."""
    seat(pos, colour)["tile"] = tile_id
    for f in pos["stack"]:
        if f[0] == "turn" and f[1] == seat_index(colour):
            f[3] = tile(tile_id)
    return pos


def set_level(pos: Position, colour: str, attr: str, value: int) -> Position:
    """Set a permanent Magic, Guild or Charm level."""
    assert attr in ATTRS
    seat(pos, colour)[attr] = value
    return pos


def set_dollars(pos: Position, colour: str, dollars: int) -> Position:
    seat(pos, colour)["dollars"] = dollars
    return pos


def set_pox(pos: Position, colour: str, pox: bool = True) -> Position:
    seat(pos, colour)["pox"] = pox
    return pos


def add_effect(pos: Position, colour: str, kind: str, a: int, b: int, turns: int,
               source: str) -> Position:
    """Give ``colour`` a timed effect ``[kind, a, b, turns, source]`` (kinds ``move``,
    ``move_set``, ``move_cap``, ``attr``, ``fog``; ``turns`` -1: until healed)."""
    seat(pos, colour)["effects"].append([kind, a, b, turns, source])
    return pos


def put_flask(pos: Position, owner: str, target: str) -> Position:
    """Put one of ``owner``'s Fire Water tokens (from their supply) by ``target``'s card; a
    turn of ``target``'s in progress counts it as there since the turn began."""
    supply = seat(pos, owner)
    assert supply["fire_water"] > 0, f"{owner} has no Fire Water token left"
    supply["fire_water"] -= 1
    flasks = seat(pos, target)["flasks"]
    flasks.append(owner)
    for f in pos["stack"]:
        if f[0] == "turn" and f[1] == seat_index(target):
            f[2] = len(flasks)
    return pos


def place_dragon(pos: Position, quadrant: str, name: str) -> Position:
    """Take a Dragon from the pile onto ``quadrant``'s Guild House."""
    assert quadrant in QUADRANTS
    pos["dragons"]["pile"].remove(name)
    pos["dragons"]["board"][quadrant] = name
    return pos


def plant(pos: Position, colour: str, quadrant: str, volunteer: str,
          item: str | None = None) -> Position:
    """Plant ``volunteer`` (with ``item``) as ``colour``'s Saboteur in ``quadrant``."""
    take(pos, volunteer=volunteer, item=item)
    seat(pos, colour)["saboteurs"].append(
        {"quadrant": quadrant, "volunteer": volunteer, "item": item})
    return pos


def set_run(pos: Position, colour: str, spell: str, at_gate: Sequence[tuple[str, str | None]] = (),
            runners: Sequence[tuple[str, str | None]] = (), final: bool = False,
            tried: int = -1) -> Position:
    """Give ``colour`` an open Spell Run (or the Final Spell, ``final``) with these Runners."""
    pairs = []
    for v, i in [*at_gate, *runners]:
        take(pos, volunteer=v, item=i)
        pairs.append({"volunteer": v, "item": i})
    seat(pos, colour)["run"] = {
        "spell": spell, "final": final, "runners": pairs[len(at_gate):],
        "at_gate": pairs[:len(at_gate)], "route": [], "quadrants": [], "next_quadrant": 0,
        "passed": 0, "tried": tried,
    }
    return pos


def far_apart(pos: Position, *places: tuple[str, str], avoid: Sequence[str] = ()) -> Position:
    """Put the named colours on the given tiles and every other player on a street far from
    all of them and from the tiles ``avoid`` (no Pox, no Guild Ability reaches)."""
    from citywatch.games.guards_guards import board

    placed = {c: tile(t) for c, t in places}
    for c, t in placed.items():
        put(pos, c, TILES[t].id)
    taken = [*placed.values(), *(tile(t) for t in avoid)]
    for p in pos["seats"]:
        if p["colour"] in placed:
            continue
        spot = next(t.index for t in TILES if t.kind == "street" and all(
            board.hex_distance(t.index, o) >= 5 for o in taken))
        taken.append(spot)
        put(pos, p["colour"], TILES[spot].id)
    return pos


# --- effects under way ---------------------------------------------------------------------
def pending(pos: Position, *steps: Sequence[Any]) -> Position:
    """Queue automatic steps ``(op name, *args)`` on top of the pending decisions, as a
    position written in the middle of an effect holds them (internal numbers)."""
    pos["stack"].append(["ops", -1, [list(step) for step in steps]])
    return pos


def fate_drawn(pos: Position, colour: str, name: str) -> Position:
    """``colour`` has just drawn the Fate card ``name`` (Mrs Cake not asked): it lies on the
    Fate discard pile and what it says is about to happen."""
    take(pos, fate=name)
    pos["fate"]["discard"].append(name)
    who, card = seat_index(colour), fate_index(name)
    ops = FATE_CARDS[card].ops
    return pending(pos, *[("fate_op", who, card, i) for i in range(len(ops))],
                   ("fate_done", who, card))


def luggage_moves(pos: Position, mover: str, least: int, most: int) -> Position:
    """The Luggage is about to move ``least`` to ``most`` tiles, ``mover`` choosing how far
    and which way at the split."""
    return pending(pos, ("move_luggage", seat_index(mover), least, most))


# --- loading and playing ---------------------------------------------------------------------
def load(pos: Position) -> State:
    """The state of a position (a deep copy is read: the dict may be edited again)."""
    return GAME.from_position(copy.deepcopy(pos))


def load_with_dice(pos: Position, rolls: Sequence[int] = (),
                   belows: Sequence[int] = ()) -> State:
    """The state of a position read with scripted dice from the start: the steps it holds
    under way (``pending``, ``fate_drawn``), which loading runs at once, throw them too
    (``scripted`` installs dice only once loading is over)."""
    from unittest import mock

    from citywatch.games.guards_guards import position

    rng = ScriptedRng(rolls, belows)
    with mock.patch.object(position, "read_rng", lambda raw: rng):
        return load(pos)


def legal(s: State) -> list[Action]:
    s._legal = None
    return s.legal_actions()


def verbs(s: State) -> set[str]:
    return {a.verb for a in legal(s)}


def find(s: State, verb: str, x: int | None = None, y: int | None = None) -> Action:
    for a in legal(s):
        if a.verb == verb and (x is None or a.x == x) and (y is None or a.y == y):
            return a
    raise AssertionError(f"no legal {verb} {x} {y} in {[str(a) for a in legal(s)]}")


def act(s: State, verb: str, x: int | None = None, y: int | None = None) -> None:
    """Apply the legal action with ``verb`` (and ``x``/``y`` if given)."""
    s.apply(find(s, verb, x, y))


def walk(s: State, *tiles: str | int) -> None:
    """Step along the tiles, named by id (or given by index)."""
    for t in tiles:
        act(s, "move_to", tile(t) if isinstance(t, str) else t)


def let_pass(s: State) -> None:
    """Every opponent asked about their Guild Ability lets the mover pass."""
    while top(s) and top(s)[0] == "guild_ability":
        act(s, "let_mover_pass")


def finish_turn(s: State) -> None:
    """The player whose turn it is does nothing more: opponents let them pass, they leave
    the tile's pass-through actions, end the movement and end the turn."""
    who = s.current
    while s.current == who and s.result is None:
        open_verbs = verbs(s)
        verb = next((v for v in ("let_mover_pass", "done_here", "end_movement", "end_turn")
                     if v in open_verbs), None)
        assert verb is not None, f"no way to finish the turn in {[str(a) for a in legal(s)]}"
        act(s, verb)


def top(s: State) -> tuple[Any, ...]:
    return s.stack[-1] if s.stack else ()
