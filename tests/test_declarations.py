"""Each game declares what it is (``Game.type``, a ``GameType``), and the core and the
interfaces read only declarations (issue 25): no game's name, title, role word or view key
appears in their code or docstrings, and each declaration is true of the game's behaviour."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citywatch.bots import Observation, RandomBot
from citywatch.core.api import COMPETITIVE, COOPERATIVE, EITHER, SEAT, Game
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng

ROOT = Path(__file__).resolve().parents[1] / "citywatch"
GAME_AGNOSTIC = [*(ROOT / part for part in ("core", "lab", "terminal", "server", "cli", "env",
                                             "bots")),
                 *(ROOT / name for name in ("tournament.py", "simulate.py", "saves.py"))]
"""The core and the interfaces: what must know games only by their declarations."""

INTERFACE_KEYS = {"name", "hand", "colour", SEAT}
"""View keys the interfaces use as words of their own: ``name`` and ``hand`` in general, and
``colour``, the server's JSON name of a seat's name (its own protocol, read by the pages)."""


ALLOWED = {("citywatch/lab/results.py", "personalities"):
           "the older name of each seat's role in results files, still read"}
"""Words the scan lets stand in one file, with the reason."""


def _words(text: str) -> str:
    """``text`` lower-cased, each run of other characters than letters and digits one space,
    with a space at each end (so " ankh morpork " matches "Ankh-Morpork" as whole words)."""
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def _forbidden() -> dict[str, str]:
    """Every registered game's words that the core and interfaces must not hold, each (as
    ``_words`` gives it) with the reason: names, titles, role words, declared view keys and
    outcome details keys, option names and set-up choices' keywords (quoted, or before ``=``);
    a set-up choice's name ("deck") may stand in prose, as the core offers choices in
    general."""
    games = [load(name) for name in game_names()]
    choices = {_words(choice.name).strip() for g in games for choice in g.type.setup}
    choices |= {word + "s" for word in choices}
    keywords = {choice.keyword for g in games for choice in g.type.setup}
    words: dict[str, str] = {}
    for g in games:
        words[_words(g.name)] = f"{g.name}'s name"
        words[_words(g.display_name())] = f"{g.name}'s title"
        for title_part in re.split(r"[:.]", g.display_name()):
            if len(_words(title_part).split()) >= 2:
                words[_words(title_part)] = f"{g.name}'s title"
        for word in (g.type.role.name, g.type.role.plural):
            if _words(word).strip() not in choices:
                words[_words(word)] = f"{g.name}'s role"
        view_keys = {g.type.view.name, *g.type.view.hand} - INTERFACE_KEYS
        for key in view_keys | set(g.type.outcome_details):
            words[f'"{key}"'] = f"{g.name}'s view or outcome key"
        for option in g.options:
            words[f'"{option.name}"'] = words[f"{option.name}="] = f"{g.name}'s option"
    for keyword in keywords:
        words[f'"{keyword}"'] = words[f"{keyword}="] = "a set-up choice's keyword"
    return words


def _sources() -> list[Path]:
    """The Python files of the core and the interfaces."""
    files: list[Path] = []
    for path in GAME_AGNOSTIC:
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def test_the_core_and_interfaces_name_no_game() -> None:
    """No game's name, title, role word (but set-up choices such as decks, which the core
    offers in general), view key or outcome detail key in the core or any interface."""
    forbidden = _forbidden()
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            plain = _words(line)
            for word, why in forbidden.items():
                hit = (word in line if word[0] == '"'
                       else re.search(r"(?<!\w)" + re.escape(word), line) is not None
                       if word[-1] == "=" else word in plain)
                where = str(path.relative_to(ROOT.parent))
                if hit and (where, word.strip(' "')) not in ALLOWED:
                    found.append(f"{where}:{number}: {why} "
                                 f"({word.strip()}): {line.strip()}")
    assert not found, "\n".join(found)


def _played(game: Game, players: int, seed: int) -> object:
    """A game of ``players`` random bots from ``seed`` to its end; its final state."""
    state = game.new_game(players, seed)
    bot, rng = RandomBot(), Rng(seed)

    while (seat := state.to_move) is not None:
        state.apply(bot.choose(Observation(state, seat), state.legal_actions(), rng))
    return state


@pytest.mark.parametrize("name", game_names())
def test_a_declaration_is_true_of_its_game(name: str) -> None:
    """Seats match the players the game takes; chance: two seeds start apart; hidden
    information: two seats see different views; every view names its seat and finds its hand
    where declared; a set-up choice names a keyword ``new_game`` takes."""
    game = load(name)
    kind = game.type
    assert kind.seats == (game.min_players, game.max_players)
    players = max(2, kind.seats[0])
    starts = {game.new_game(players, seed).digest() for seed in range(4)}
    assert (len(starts) > 1) == kind.chance
    state = game.new_game(players, 1)
    mine = [{k: v for k, v in state.view(seat).items() if k not in ("seat", kind.view.name)}
            for seat in (0, 1)]
    assert (mine[0] != mine[1]) == kind.hidden_information
    names = [kind.seat_name(state.view(seat)) for seat in range(players)]
    assert all(names) and len(set(names)) == players
    if kind.view.hand:
        assert kind.hand(state.view(0)) is not None
    keywords = {option.name for option in game.options}
    assert not keywords & {choice.keyword for choice in kind.setup}
    for choice in kind.setup:
        # Every shipped document sets up a game under the choice's keyword.
        for shipped in choice.ids():
            value = [shipped] * players if choice.per_seat else shipped
            game.new_game(players, 1, **{choice.keyword: value})


@pytest.mark.parametrize("name", game_names())
def test_outcomes_fill_what_the_declaration_names(name: str) -> None:
    """Played games fill ``Outcome.roles`` with declared values (one per seat, or none for a
    game whose seats have no roles), points per seat, every declared details key, and are
    co-operative only as ``GameType.play`` allows."""
    game = load(name)
    kind = game.type
    players = max(2, kind.seats[0])
    together = set()
    for seed in range(3):
        outcome = _played(game, players, seed).outcome()  # type: ignore[attr-defined]
        assert outcome is not None
        if kind.role.values:
            assert len(outcome.roles) == players
            if not kind.role.extensible:
                assert set(outcome.roles) - {""} <= set(kind.role.values)
        else:
            assert outcome.roles == ()
        points = outcome.seat_points()
        assert points is None or len(points) == players
        assert set(kind.outcome_details) <= set(outcome.details)
        together.add(outcome.cooperative)
    if kind.play == COMPETITIVE:
        assert together == {False}
    elif kind.play == COOPERATIVE:
        assert together == {True}
    else:
        assert kind.play == EITHER


def test_games_and_the_start_page_show_each_declaration(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``citywatch games`` says what each game is, and ``GET /api/games`` carries the
    declaration as JSON."""
    from citywatch.cli import main
    from citywatch.server.tables import catalogue

    assert main(["games"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # wrapped to 80 columns
    listed = {about["name"]: about for about in catalogue()}
    for name in game_names():
        kind = load(name).type
        assert kind.describe() in out
        assert listed[name]["type"] == kind.to_json()
        assert listed[name]["type"]["seats"] == list(kind.seats)
