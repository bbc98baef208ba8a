"""Choices that explain themselves (issue 27): what a Guild Card gives, what a Wizards'
Challenge tests and each Runner's chance, who may collect a spell tile, a Volunteer's stats
and a player's spells in words.

Everything here is read by the view for the seat that decides (``decision_notes``) or built
from public facts and that seat's own cards: Guild Cards and returned spells are public
(ruling 69); a Runner's stats are those of the deciding seat's own hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from citywatch.games.guards_guards.data import (
    ATTRIBUTES,
    CHALLENGES,
    COLOURS,
    GUILD_CARDS,
    QUADRANTS,
    SPELL_COLOURS,
    SPELL_NAMES,
    TILES,
    GuildCard,
    tile_named,
)
from citywatch.games.guards_guards.state import GuardsGuardsState

State = GuardsGuardsState
DIE = 8
"""The game's die has eight sides (Dice; rulings 21-22)."""


# --- the dice -----------------------------------------------------------------------------------
@cache
def _chain_reaches(need: int) -> Fraction:
    """The chance that one roll, with each 8 rolled again and added, comes to ``need`` or
    more (no natural-1 rule: that applies to the first die only)."""
    if need <= 1:
        return Fraction(1)
    plain = Fraction(sum(1 for face in range(1, DIE) if face >= need), DIE)
    return plain + Fraction(1, DIE) * _chain_reaches(need - DIE)


def roll_chance(bonus: int, target: int, reroll_eights: bool = True) -> Fraction:
    """The exact chance that die + ``bonus`` reaches ``target``, as ``State.test`` rolls it: a
    natural 1 on the first die fails (ruling 21); with ``reroll_eights`` (a Wizards'
    Challenge) each 8 is rolled again and added (ruling 22)."""
    out = Fraction(0)
    for face in range(2, DIE + 1):
        if face == DIE and reroll_eights:
            out += Fraction(1, DIE) * _chain_reaches(target - bonus - DIE)
        elif face + bonus >= target:
            out += Fraction(1, DIE)
    return out


def percent(p: Fraction) -> str:
    """A chance as a whole percentage, never rounded to 0 or 100 unless it is."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    return f"{min(99, max(1, round(float(p) * 100)))}%"


# --- Guild Cards --------------------------------------------------------------------------------
def levels_words(start: Sequence[int]) -> str:
    """Starting levels as words: 'Magic 1, Guild 3, Charm 2'."""
    return ", ".join(f"{a.capitalize()} {n}" for a, n in zip(ATTRIBUTES, start, strict=True))


def guild_lines(cards: Sequence[GuildCard]) -> list[str]:
    """The Guild Cards on offer, a line per guild within 80 columns, levels in words: the
    levels its cards share, then each that differs card by card ('Thieves (Cut Purse): Magic
    1, Guild 3; Charm: Cutpurse 2, Housebreaker 3')."""
    guilds: dict[int, list[GuildCard]] = {}
    for g in cards:
        guilds.setdefault(g.guild, []).append(g)
    out = []
    for same in guilds.values():
        head = f"{QUADRANTS[same[0].guild].capitalize()} ({same[0].ability_name}): "
        if len(same) == 1:
            out.append(f"{head}{same[0].name.removeprefix('The ')}, {levels_words(same[0].start)}")
            continue
        shared = [f"{a.capitalize()} {same[0].start[k]}" for k, a in enumerate(ATTRIBUTES)
                  if len({g.start[k] for g in same}) == 1]
        differ = [f"{a.capitalize()}: " + ", ".join(
                      f"{g.name.removeprefix('The ')} {g.start[k]}" for g in same)
                  for k, a in enumerate(ATTRIBUTES) if len({g.start[k] for g in same}) > 1]
        out.append(head + "; ".join(x for x in (", ".join(shared), "; ".join(differ)) if x))
    return out


def guild_card_json(g: GuildCard) -> dict[str, Any]:
    """A Guild Card's face for the set-up choice: guild, starting levels, Guild Ability (its
    test and the target's defence), Great Spells, Fire Water tokens."""
    return {
        "name": g.name, "guild": QUADRANTS[g.guild],
        "start": dict(zip(ATTRIBUTES, g.start, strict=True)),
        "ability": g.ability_name, "ability_text": g.ability_text,
        "ability_test": f"Guild {g.ability_test_target} or more",
        "defence": (f"the target resists with {g.defence_attribute.capitalize()} "
                    f"{g.defence_target} or more" if g.defence_attribute else ""),
        "spells": [SPELL_COLOURS[c] for c in g.spells],
        "fire_water": g.fire_water,
    }


# --- spells in words ------------------------------------------------------------------------------
def spells_words(spells: Iterable[str], returned: Iterable[str]) -> tuple[list[str], list[str]]:
    """A Guild Card's spell colours split into (returned, still wanted), as capitalised
    colour names; a returned colour not on the card still counts as returned."""
    done = list(dict.fromkeys(returned))
    wanted = [c for c in spells if c not in done]
    return [c.capitalize() for c in done], [c.capitalize() for c in wanted]


# --- Volunteers in words -----------------------------------------------------------------------
def volunteer_words(v: Mapping[str, Any]) -> str:
    """A Volunteer card's numbers in words, from its face in a view: 'Charm 10, cannot be
    bribed, Loyalty 4, Streetwise 2, Brawl 1, Toughness 3, moves the Luggage 2 tiles'."""
    bribe = v.get("bribe")
    words = [f"Charm {v['charm']}",
             "cannot be bribed" if bribe in (None, "X") else f"Bribe ${bribe}",
             f"Loyalty {v['loyalty']}", f"Streetwise {v['streetwise']}",
             f"Brawl {v['brawl']}", f"Toughness {v['toughness']}"]
    moves = int(v.get("luggage_moves") or 0)
    if moves:
        words.append(f"moves the Luggage {moves} tile{'' if moves == 1 else 's'}")
    marks = [str(m).capitalize() for m in v.get("marks") or ()]
    if marks:
        words.append(", ".join(marks))
    bonus = [f"{str(a).capitalize()} {int(d):+d}" for a, d in (v.get("bonus") or {}).items()]
    if bonus:
        words.append("gives its player " + ", ".join(bonus))
    return ", ".join(words)


# --- what the deciding seat is told --------------------------------------------------------------
def challenge_words(number: int) -> str:
    """What a Wizards' Challenge tests, in a sentence: 'Windel's Wisdom (Challenge 1): die +
    the Runners' Streetwise, 9 or more.'"""
    ch = CHALLENGES[number]
    who = "the Runners'" if ch.tests[0][1] == "runners" else "your"
    tests = [f"{attr.capitalize()}, {target} or more" for attr, _, target in ch.tests]
    return f"{ch.name} (Challenge {ch.number}): die + {who} " + "; then ".join(tests) + "."


def runners_chance(s: State, seat: int, number: int,
                   runners: Sequence[tuple[int, int]], passed: int = 0) -> Fraction:
    """The chance that Runners ``runners`` ((volunteer, item) pairs of the seat's) pass every
    test of challenge ``number`` not yet ``passed`` (a bit per test), if they all arrive:
    Sabotage on the way and a kept Ook! (ruling 44) are not counted."""
    p = Fraction(1)
    for k, (attr, _, target) in enumerate(CHALLENGES[number].tests):
        if passed >> k & 1:
            continue
        p *= roll_chance(sum(s.stat(v, attr, i) for v, i in runners), target)
    return p


def _stat_words(s: State, number: int, v: int, item: int) -> str:
    attrs = [attr for attr, _, _ in CHALLENGES[number].tests]
    return ", ".join(f"{a.capitalize()} {s.stat(v, a, item)}" for a in attrs)


def runner_notes(s: State, seat: int, number: int, chosen: Sequence[tuple[int, int]],
                 candidates: Sequence[tuple[int, int]], passed: int = 0
                 ) -> tuple[list[str], dict[tuple[int, int], str]]:
    """The lines saying what the challenge tests and the chance of the Runners chosen so far,
    and a short note per candidate (volunteer, item): its stat and the chance with it."""
    from citywatch.games.guards_guards.actions import vol

    lines = [challenge_words(number)]
    if chosen:
        names = ", ".join(f"{vol(v)} ({_stat_words(s, number, v, i)})" for v, i in chosen)
        lines.append(f"So far {names}: "
                     f"{percent(runners_chance(s, seat, number, chosen, passed))} to pass.")
    notes: dict[tuple[int, int], str] = {}
    for v, item in candidates:
        p = runners_chance(s, seat, number, (*chosen, (v, item)), passed)
        notes[(v, item)] = f"{_stat_words(s, number, v, item)}: {percent(p)} to pass"
    plain = [(v, i) for v, i in candidates if i < 0]
    if plain:
        lines.append("Chance with each added (8s roll again, a 1 fails): " + ", ".join(
            f"{vol(v)} {notes[(v, i)].split(': ')[-1].removesuffix(' to pass')}"
            for v, i in plain) + ".")
    return lines, notes


def spell_tile_note(s: State, seat: int, tile: int) -> str:
    """Who may collect the Great Spell of a spell tile (the Guild Cards are public, ruling
    69): whether ``seat`` may (rulings 31-33) and the other players whose card has it."""
    t = TILES[tile]
    colour = SPELL_COLOURS.index(t.colour)
    owners = [p for p in range(s.n)
              if s.guild[p] >= 0 and colour in GUILD_CARDS[s.guild[p]].spells]
    others = [f"{COLOURS[p]}{' (returned)' if colour in s.returned[p] else ''}"
              for p in owners if p != seat]
    if seat not in owners:
        mine = "not on your Guild Card, so not yours to collect"
    elif colour in s.returned[seat]:
        mine = "yours, returned already"
    elif s.dragons[t.quadrant] >= 0:
        mine = (f"yours, but not while a Dragon is in the "
                f"{QUADRANTS[t.quadrant].capitalize()} quadrant")
    elif s.run[seat] is not None:
        mine = "yours, once your open Spell Run is over"
    elif not s.hand[seat]:
        mine = "yours to collect with a Volunteer in hand"
    else:
        mine = "yours: stop here to collect it"
    who = f"; also on the card of {', '.join(others)}" if others else ""
    return f"{t.name} ({SPELL_NAMES[colour]}): {mine}{who}."


def named_tiles(actions_json: Iterable[Any]) -> list[int]:
    """The tiles the actions' JSON names (any field holding a tile's name), in order."""
    out: dict[int, None] = {}
    for a in actions_json:
        if not isinstance(a, dict):
            continue
        for key, value in a.items():
            if key == "verb" or not isinstance(value, str):
                continue
            try:
                out[tile_named(value).index] = None
            except ValueError:
                continue
    return list(out)


def offered_guild_cards(s: State, actions: Sequence[Any]) -> list[dict[str, Any]]:
    """The faces of the Guild Cards a set-up choice offers (``guild_card_json``), in order."""
    from citywatch.games.guards_guards import setup

    if not s.stack or s.stack[-1][0] != "setup":
        return []
    offered = dict.fromkeys(a.x for a in actions if a.verb == setup.CHOOSE_GUILD)
    return [guild_card_json(GUILD_CARDS[g]) for g in offered]


def decision_notes(s: State, seat: int, actions: Sequence[Any],
                   actions_json: Sequence[Any]) -> tuple[list[str], list[str]]:
    """What the deciding ``seat`` is told about its decision: lines about the whole choice,
    and a short note per action ("" for none), from what the seat may know."""
    from citywatch.games.guards_guards import setup, spells

    lines: list[str] = []
    notes = [""] * len(actions)
    f = s.stack[-1] if s.stack else ()
    if f and f[0] == "setup":
        offered = dict.fromkeys(a.x for a in actions if a.verb == setup.CHOOSE_GUILD)
        lines += guild_lines([GUILD_CARDS[g] for g in offered])
        for k, a in enumerate(actions):
            if a.verb == setup.CHOOSE_GUILD:
                g = GUILD_CARDS[a.x]
                notes[k] = f"{levels_words(g.start)}; Guild Ability: {g.ability_name}"
    if f and f[0] == "run" and f[1] == seat:
        number = spells.challenge_index(s, seat)
        candidates = [(a.x, a.y) for a in actions if a.verb == spells.ADD_RUNNER]
        more, by = runner_notes(s, seat, number, f[4], candidates)
        lines += more
        now = percent(runners_chance(s, seat, number, f[4]))
        for k, a in enumerate(actions):
            if a.verb == spells.ADD_RUNNER:
                notes[k] = by[(a.x, a.y)]
            elif a.verb == spells.ROUTE:
                notes[k] = f"the Runners so far: {now} to pass"
    tiles = named_tiles(actions_json)
    if f and f[0] == "turn" and s.pos[seat] >= 0 and s.current == seat:
        tiles.insert(0, s.pos[seat])
    for t in dict.fromkeys(tiles):
        if TILES[t].kind == "spell":
            lines.append(spell_tile_note(s, seat, t))
            for k, a in enumerate(actions_json):
                if isinstance(a, dict) and TILES[t].name in a.values():
                    notes[k] = notes[k] or spell_tile_note(s, seat, t)
    return lines, notes
