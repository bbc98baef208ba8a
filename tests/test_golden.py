"""Golden playthroughs (issue 25): seeded games of every game, decision by decision.

As OpenSpiel keeps a playthrough per game, ``tests/golden/<game>.json`` (written by
``tests/golden/make_golden.py``, which says what each holds) records seeded games: at every
decision the seat to move, the legal actions, the action taken and each seat's view (and the
spectator's), and at the end the outcome. The test plays the same games again through the core
API and stops at the first difference, naming the game, the step and what differs. If the
rules were meant to change, regenerate the files and say why in the commit.
"""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from golden.make_golden import FULL_LEGAL, PLAYTHROUGHS, observe, views

from citywatch.core.registry import GAMES as REGISTERED
from citywatch.core.registry import game_names, load

GOLDEN = Path(__file__).parent / "golden"
GAMES = [name for name in game_names() if REGISTERED[name].startswith("citywatch.games.")]
"""The package's games (not one a test registers, as the toy game)."""


def golden(game: str) -> list[dict[str, Any]]:
    """The recorded playthroughs of ``game``."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{game}.json").read_text())
    assert data["game"] == game
    playthroughs: list[dict[str, Any]] = data["playthroughs"]
    return playthroughs


def first_change(recorded: Any, now: Any, path: str = "") -> str:
    """Where two JSON values first differ, as ``path: recorded -> now``."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key in sorted(recorded.keys() | now.keys()):
            if recorded.get(key, "(missing)") != now.get(key, "(missing)"):
                return first_change(recorded.get(key, "(missing)"), now.get(key, "(missing)"),
                                    f"{path}.{key}")
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        for i, (a, b) in enumerate(zip(recorded, now, strict=True)):
            if a != b:
                return first_change(a, b, f"{path}[{i}]")
    return f"{path or 'the value'}: {json.dumps(recorded)[:200]} -> {json.dumps(now)[:200]}"


def _seat(key: str) -> str:
    return "the spectator" if key == "spectator" else f"seat {key}"


def difference(recorded: dict[str, Any], now: dict[str, Any], actions: list[str]) -> str | None:
    """What differs between two records of one decision (``observe``), or ``None``
    (``actions``: the legal actions now, by ``str()``)."""
    if recorded["to_move"] != now["to_move"]:
        return f"the seat to move is {now['to_move']}, recorded {recorded['to_move']}"
    if recorded.get("legal") != now.get("legal"):
        old, new = ([text for text, _ in r["legal"]] for r in (recorded, now))
        gone, added = [t for t in old if t not in new], [t for t in new if t not in old]
        if gone or added:
            return (f"the legal actions differ ({len(old)} recorded, {len(new)} now); no longer "
                    f"legal: {gone}; newly legal: {added}")
        return ("the legal actions differ in order or JSON: "
                + first_change(recorded["legal"], now["legal"]))
    if recorded.get("legal_sha256") != now.get("legal_sha256"):
        return f"the legal actions differ from the recorded digest; now {actions}"
    if recorded.get("outcome") != now.get("outcome"):
        return f"the outcome differs: {first_change(recorded['outcome'], now['outcome'])}"
    for key, value in recorded["views_sha256"].items():
        if now["views_sha256"].get(key) != value:
            return f"{_seat(key)}'s view differs from the recorded digest"
    return None


def replay(game: str, number: int, recorded: dict[str, Any]) -> str | None:
    """Play recorded playthrough ``number`` of ``game`` again; the first difference, or
    ``None``."""
    regenerate = (f"if the rules were meant to change, run python tests/golden/make_golden.py "
                  f"--game {game} and say why in the commit")
    where = f"issue 25: golden playthrough {number + 1} of {game}"
    state = load(game).new_game(recorded["players"], recorded["seed"], **recorded["options"])
    for key, view in views(state).items() if "start_views" in recorded else ():
        if view != recorded["start_views"].get(key):
            change = first_change(recorded["start_views"].get(key), view)
            return f"{where}, at the start: {_seat(key)}'s view differs at {change} ({regenerate})"
    for step, expected in enumerate([*recorded["decisions"], recorded["end"]]):
        taken = expected.get("taken")
        actions = state.legal_actions()
        problem = difference(expected, observe(state, step, taken), [str(a) for a in actions])
        if problem:
            return f"{where}, step {step}: {problem} ({regenerate})"
        if taken is not None:
            state.apply(actions[taken])
    return None


def test_every_game_has_a_golden_playthrough() -> None:
    """Issue 25: a golden file and playthroughs for every game of the package, and for no
    other name."""
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == GAMES
    assert sorted(PLAYTHROUGHS) == GAMES
    for game in GAMES:
        assert [(p["players"], p["seed"], p["options"]) for p in golden(game)] == [
            (players, seed, options) for players, seed, options in PLAYTHROUGHS[game]], game


@pytest.mark.parametrize("game", GAMES)
def test_golden_playthrough(game: str) -> None:
    """Issue 25: the golden playthroughs of each game: every decision's seat to move, legal
    actions and views, and the outcome, as recorded."""
    for number, recorded in enumerate(golden(game)):
        assert recorded["end"]["outcome"] is not None, f"{game}: a playthrough ends the game"
        problem = replay(game, number, recorded)
        assert problem is None, problem


def _tampered(change: str) -> tuple[str, dict[str, Any]]:
    """Black Keep's first playthrough with one recorded fact changed."""
    recorded = copy.deepcopy(golden("black-keep")[0])
    step = recorded["decisions"][3]
    if change == "view":
        step["views_sha256"]["0"] = "0" * 16
    elif change == "legal":
        step["legal"][0][0] = "Fly to the moon"
    elif change == "legal digest":
        recorded["decisions"][FULL_LEGAL]["legal_sha256"] = "0" * 16
    elif change == "to_move":
        step["to_move"] = 3
    else:
        recorded["end"]["outcome"]["reason"] = "the moon"
    return change, recorded


@pytest.mark.parametrize(("change", "words"), [
    ("view", "step 3: seat 0's view differs"),
    ("legal", "step 3: the legal actions differ (4 recorded, 4 now); no longer legal: "
              "['Fly to the moon']"),
    ("legal digest", f"step {FULL_LEGAL}: the legal actions differ from the recorded digest; "
                     "now ['"),
    ("to_move", "step 3: the seat to move is 0, recorded 3"),
    ("outcome", "the outcome differs: .reason: \"the moon\" -> "),
])
def test_a_difference_names_the_game_step_and_what(change: str, words: str) -> None:
    """The failure says which game, playthrough and step differ, what, and how to regenerate."""
    message = replay("black-keep", 0, _tampered(change)[1])
    assert message is not None
    assert message.startswith("issue 25: golden playthrough 1 of black-keep, ")
    assert words in message
    assert message.endswith("run python tests/golden/make_golden.py --game black-keep and say "
                            "why in the commit)")


def test_the_golden_script_uses_only_the_core() -> None:
    """The playthroughs are game-agnostic: the script imports citywatch's core and nothing
    else of citywatch."""
    tree = ast.parse((GOLDEN / "make_golden.py").read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {m for m in modules if m and m.startswith("citywatch")} <= {
        "citywatch.core.api", "citywatch.core.registry", "citywatch.core.rng"}
