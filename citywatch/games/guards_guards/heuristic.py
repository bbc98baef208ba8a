"""A heuristic Guards! Guards! bot: it plays toward returning its Great Spells.

It looks only at a world sampled from its own view (``Observation.sample``), so it never
reads another player's hidden cards. Its plan each turn: finish an open Spell Run (re-try the
challenge, send help), else walk to its nearest unreturned spell when it has Runners enough
for the next Wizard's Challenge, else walk to recruit the Volunteers that challenge tests;
the Final Spell is walked home. Out of its turn it uses every Guild Ability and Sabotage it
is offered and every protection it holds.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from citywatch.bots.base import WorldBot
from citywatch.core.rng import Rng
from citywatch.games.guards_guards import board
from citywatch.games.guards_guards.actions import Action
from citywatch.games.guards_guards.data import (
    GUILD_CARDS,
    ITEMS,
    SPELL_TILES,
    VOLUNTEERS,
)
from citywatch.games.guards_guards.evaluate import (
    DECK_FOR_STAT,
    challenge_stats,
    target_tile,
)
from citywatch.games.guards_guards.state import MAGIC, GuardsGuardsState

State = GuardsGuardsState
ALWAYS: Final[tuple[str, ...]] = (
    "use_guild_ability", "alter_allegiance", "ambush", "use_wand", "use_cure_all", "resurrect",
    "take_item", "jail_slant", "use_ook", "cake_allow", "no_magic",
)
NEVER_FIRST: Final[tuple[str, ...]] = (
    "end_turn", "let_pass", "let_mover_pass", "let_it_happen", "keep_ook", "summon_dragon",
    "buy_scroll", "cast", "use_item", "recall", "try_plant", "fight_dragon", "discard_to_cure",
    "luggage_tiles",
)


class HeuristicBot(WorldBot):
    """Plays toward returning its spells, from a sampled world only."""

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ()
    """The options a spec may set."""

    def choose_in(self, world: Any, seat: int, legal_actions: list[Any], rng: Rng) -> Any:
        """The legal action the plan prefers in ``world``, a world already sampled for
        ``seat`` (search bots' playouts call this to skip sampling again)."""
        assert isinstance(world, GuardsGuardsState)
        by_verb: dict[str, list[Action]] = {}
        for a in legal_actions:
            by_verb.setdefault(a.verb, []).append(a)
        choice = self._choose(world, seat, by_verb, rng)
        if choice is not None:
            return choice
        options = [a for a in legal_actions if a.verb not in NEVER_FIRST] or legal_actions
        return options[rng.below(len(options))]

    def _choose(self, s: State, seat: int, by: dict[str, list[Action]],
                rng: Rng) -> Action | None:
        for verb in ALWAYS:
            if verb in by:
                return by[verb][0]
        if "draw_from" in by:  # of two equally near decks, the fuller one (ruling 18)
            return max(by["draw_from"], key=lambda a: a.y)
        if "choose_guild" in by:
            def spread(a: Action) -> float:
                card = GUILD_CARDS[a.x]
                return sum(board.WALK[a.y][SPELL_TILES[c]] for c in card.spells) / 5
            return min(by["choose_guild"], key=spread)
        if "retry_challenge" in by:
            return by["retry_challenge"][0]
        if "send_to_gate" in by:
            return self._best_pair(s, seat, by["send_to_gate"])
        if "collect_spell" in by:
            return by["collect_spell"][0]
        if "add_runner" in by:
            run = s.run[seat]
            if run is None or len(run.runners) < 4:
                return self._best_pair(s, seat, by["add_runner"])
        if "choose_route" in by:
            return by["choose_route"][rng.below(len(by["choose_route"]))]
        if "raise_attribute" in by or "spend_fate_point" in by or "buy_point" in by:
            key = "raise_attribute" if "raise_attribute" in by else (
                "spend_fate_point" if "spend_fate_point" in by else "buy_point")
            if key != "buy_point" or s.dollars[seat] >= 10:
                return self._attribute(s, seat, by[key])
        if "collect_pay" in by:
            return by["collect_pay"][0]
        if "turn_in" in by:
            return by["turn_in"][0]
        if "buy_item" in by:
            stats = challenge_stats(s, seat)
            for a in by["buy_item"]:
                item = ITEMS[a.x]
                if (stats and any(item.bonus_for(st) > 0 for st in stats)
                        and s.dollars[seat] >= a.y + 4):
                    return a
        if "done_here" in by:
            return by["done_here"][0]
        if "jail_bail" in by:
            return by["jail_bail"][0]
        if "discard_to_cure" in by:
            return by["discard_to_cure"][0]
        if "recruit_here" in by:
            stats = challenge_stats(s, seat)
            wanted = DECK_FOR_STAT.get(stats[0], 1) if stats else 1
            return min(by["recruit_here"], key=lambda a: a.y != wanted)
        if "tavern_here" in by:
            return by["tavern_here"][0]
        if "cure_here" in by and s.pox[seat]:
            return by["cure_here"][0]
        if "take_face_up" in by or "turn_over" in by:
            stats = challenge_stats(s, seat) or ("streetwise",)
            for a in by.get("take_face_up", []):
                if sum(VOLUNTEERS[a.x].stat(st) for st in stats) >= 3:
                    return a
            if "turn_over" in by:
                return by["turn_over"][0]
        if "charm_volunteer" in by:
            return by["charm_volunteer"][0]
        if "bribe_volunteer" in by:
            a = by["bribe_volunteer"][0]
            if s.dollars[seat] >= a.y + 2:
                return a
        if "move_to" in by or "end_movement" in by:
            return self._step(s, seat, by, rng)
        return None

    def _best_pair(self, s: State, seat: int, options: list[Action]) -> Action:
        stats = challenge_stats(s, seat) or ("toughness", "brawl")

        def value(a: Action) -> int:
            return sum(s.stat(a.x, st, a.y) for st in stats)
        return max(options, key=value)

    def _attribute(self, s: State, seat: int, options: list[Action]) -> Action:
        late = len(s.returned[seat]) >= s.spells_to_win - 2
        levels = s.attrs[seat]

        def want(a: Action) -> float:
            attr = a.x
            if not late and attr == 2 and levels[2] < 6:
                return -1.0
            if attr == 2:
                return 20.0
            return levels[attr] - (0.5 if attr == MAGIC else 0.0)
        return min(options, key=want)

    def _step(self, s: State, seat: int, by: dict[str, list[Action]], rng: Rng) -> Action:
        target = target_tile(s, seat)
        here = s.pos[seat]
        walk = board.WALK
        moves = by.get("move_to", [])
        better = [a for a in moves if walk[a.x][target] < walk[here][target]]
        ends = by.get("end_movement", [])
        if here == target and ends:
            return ends[0]
        if better:
            return better[rng.below(len(better))]
        if ends:
            return ends[0]
        if "end_turn" in by and not moves:
            return by["end_turn"][0]
        return moves[rng.below(len(moves))] if moves else next(iter(by.values()))[0]
