"""Set-up of a game of the Black Keep (spec section 8, rulings 53, 54).

From the game's seeded generator, in this order: shuffle the Guard deck and lay out three
cards; shuffle the Exit deck and deal one to each thief (seat order); draw the treasure
tokens. Then the guards are created and placed (``guards``), each thief gets its ten cards,
wound counters and coins, and finally each thief, in seat order, secretly sets its Location
Dial (the ``start`` decisions); round 1 then begins with its Resource Phase.
"""

from __future__ import annotations

from dataclasses import replace

from citywatch.core.rng import Seed, rng_from_seed
from citywatch.games.black_keep import guards
from citywatch.games.black_keep.board import Board
from citywatch.games.black_keep.data import FAKE, GUARD_CARDS, REAL_TREASURES, THIEF_CARDS
from citywatch.games.black_keep.params import Parameters
from citywatch.games.black_keep.round import advance, then
from citywatch.games.black_keep.state import DIFFICULTIES, MODES, BlackKeepState

State = BlackKeepState


def check_choices(board: Board, thieves: object, mode: str | None, difficulty: str,
                  advanced: object) -> str:
    """The mode of a game of ``thieves`` thieves (default: solo for one, else co-op);
    ``ValueError`` naming what is wrong with the number of thieves, mode, difficulty or
    advanced flag."""
    if isinstance(thieves, bool) or not isinstance(thieves, int):
        raise ValueError("the number of thieves must be a whole number")
    if not board.min_players <= thieves <= board.max_players:
        raise ValueError(f"{board.name} is for {board.min_players} to {board.max_players} "
                         f"thieves, not {thieves}")
    if mode is None:
        mode = "solo" if thieves == 1 else "coop"
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "solo" and thieves != 1:
        raise ValueError(f"solo is for one thief, not {thieves}")
    if mode == "rivals" and thieves < 2:
        raise ValueError("rivals is for 2 to 4 thieves")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, "
                         f"not {difficulty!r}")
    if advanced is not None and not isinstance(advanced, bool):
        raise ValueError(f"advanced must be true or false, not {advanced!r}")
    return mode


def new_game(board: Board, params: Parameters, thieves: int, seed: Seed,
             mode: str | None = None, difficulty: str = "medium",
             advanced: object = None) -> State:
    """A game of ``thieves`` thieves on ``board`` (section 8): ``mode`` solo, coop or rivals
    (default: solo for one thief, else co-op), ``difficulty`` easy, medium or hard,
    ``advanced`` (default: the scenario's); all randomness from ``seed``'s generator.
    ``ValueError`` (and nothing made) for a bad choice."""
    mode = check_choices(board, thieves, mode, difficulty, advanced)
    if not params.dawn:
        params = replace(params, dawn=board.dawn)
    s = State(board, params, thieves)
    s.rng = rng_from_seed(seed)
    s.mode = mode
    s.difficulty = difficulty
    s.advanced = board.advanced if advanced is None else bool(advanced)  # checked: a bool
    s.phase = "setup"
    s.say(f"A game of Thieves of the Black Keep begins: {board.name}, {thieves} "
          f"{'thief' if thieves == 1 else 'thieves'}, {mode}, {difficulty}"
          f"{', advanced' if s.advanced else ''}; dawn comes after round {params.dawn}.")
    deal(s)
    guards.create_guards(s)
    guards.place_initial_guards(s)
    for t in s.thieves:  # 8.4
        t.hand = list(range(len(THIEF_CARDS)))
        t.wounds = params.wounds
        t.coins = params.thief_coins
    then(s, *(("start", seat) for seat in range(thieves)))
    advance(s)
    return s


def deal(s: State) -> None:
    """8.2: the Guard deck and its face-up row, the Exit cards, the treasure tokens."""
    params = s.params
    deck = [c for c in range(len(GUARD_CARDS)) for _ in range(params.copies_per_guard_card)]
    s.rng.shuffle(deck)
    s.market = [deck.pop() for _ in range(min(params.market_size, len(deck)))]
    s.guard_deck = deck
    exits = [k for k, tile in enumerate(s.board.tiles) if tile.exit]
    copies = max(params.exit_cards_per_tile, -(-s.n // len(exits)))  # enough for every thief
    exit_deck = [k for k in exits for _ in range(copies)]
    s.rng.shuffle(exit_deck)
    for seat, t in enumerate(s.thieves):
        t.exit_tile = exit_deck.pop()
        s.say(f"Thief {seat + 1}'s Exit card: the {s.board.tiles[t.exit_tile].name}.")
    s.exit_deck = exit_deck
    real = list(REAL_TREASURES)
    s.rng.shuffle(real)
    tokens = real[:s.n] + [FAKE] if s.advanced else real[:s.n + 1]
    s.rng.shuffle(tokens)
    s.treasures = tokens
