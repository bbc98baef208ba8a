"""Issue 30, the lab: each game's kinds of action (``Game.action_kind``) and a study's decisive
moments in the report (``--report``, ``--moments``)."""

from __future__ import annotations

import csv
import html
import json
from pathlib import Path
from typing import Any

import pytest

from citywatch import lab
from citywatch.cli import main
from citywatch.core.api import Game, State
from citywatch.core.record import Record, start
from citywatch.core.registry import game_names, load
from citywatch.core.rng import Rng
from citywatch.lab.moments import (
    MAX_MOMENT_GAMES,
    SETTLED,
    measure_moments,
    moment_summary,
    t95,
)
from citywatch.simulate import simulate

GAMES = [name for name in game_names() if name in (
    "ankh-morpork", "black-keep", "guardians-of-the-city", "guards-guards")]
CARD_WORDS = ("Play ", "Cast ", "Use ")
"""How a kind that names a card (or a City Area, a Guild ability) begins."""


def played_states(game: Game, seed: int, steps: int) -> list[State]:
    """The states of a seeded game of random moves, at most ``steps`` decisions long."""
    players = max(game.min_players, min(2, game.max_players))
    state = game.new_game(players=players, seed=seed)
    rng = Rng(seed)
    states = []
    while state.to_move is not None and len(states) < steps:
        states.append(state.copy())
        state.apply(rng.choice(state.legal_actions()))
    return states


def card_named(data: Any) -> str | None:
    """The card an action's JSON says is played or cast, or None: ``card`` of the verbs
    ``play`` and ``guard_card``, ``scroll`` of a verb that casts one."""
    if not isinstance(data, dict):
        return None
    if data.get("verb") in ("play", "guard_card"):
        return f"Play {data['card']}"
    if str(data.get("verb", "")).startswith("cast") and "scroll" in data:
        return f"Cast {data['scroll']}"
    return None


@pytest.mark.parametrize("name", GAMES)
def test_action_kinds_are_few_and_name_the_cards(name: str) -> None:
    """Issue 30 (decisive moments by card or kind of action): a game's ``action_kind`` gives
    a played card its name ("Play <card>") and other actions few kinds in words, fewer than
    the actions they group."""
    game = load(name)
    kinds: set[str] = set()
    texts: set[str] = set()
    named = 0
    for seed in (1, 2):
        for state in played_states(game, seed, 400):
            for action in state.legal_actions():
                kind = game.action_kind(state, action)
                assert kind and kind == kind.strip() and kind[0].isupper() and "_" not in kind
                card = card_named(action.to_json())
                if card is not None:
                    assert kind == card, f"{action} is of kind {kind!r}"
                    named += 1
                kinds.add(kind)
                texts.add(str(action))
    assert named, f"no card was played in {name}"
    others = {kind for kind in kinds if not kind.startswith(CARD_WORDS)}
    assert len(kinds) < len(texts)
    assert 0 < len(others) <= 40, sorted(others)


def test_an_undeclared_action_falls_back_to_its_verb_in_words() -> None:
    """Issue 30: ``Game.action_kind``'s default reads the action's JSON: ``play`` with a
    card names it, another verb in words, an action without a verb by its first word."""

    class Plain:
        def __init__(self, data: Any, text: str = "Shout loudly") -> None:
            self.data, self.text = data, text

        def to_json(self) -> Any:
            return self.data

        def __str__(self) -> str:
            return self.text

    game = load("guardians-of-the-city")
    state = game.new_game(players=2, seed=1)
    kind = super(type(game), game).action_kind
    assert kind(state, Plain({"verb": "play", "card": "Raids"})) == "Play Raids"
    assert kind(state, Plain({"verb": "end_turn"})) == "End turn"
    assert kind(state, Plain([3, 4])) == "Shout"


def decisions_with_a_choice(record: Record) -> int:
    """How many of a record's decisions had more than one legal action."""
    state = start(record)
    count = 0
    for raw in record.actions:
        count += len(state.legal_actions()) > 1
        state.apply(state.game.action_from_json(raw))
    return count


def test_the_report_has_the_decisive_moments(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30 (the lab's report gains the decisive moments): every decision with a choice of
    the games analysed is counted once under its kind; the rows are sorted by the mean absolute
    swing, kinds decided fewer than 5 times last, each mean inside its interval; summary.json,
    moments.csv, moments.png and the page hold them."""
    report, records = tmp_path / "report", tmp_path / "records"
    assert main(["simulate", "guardians-of-the-city", "--players", "2", "--games", "2",
                 "--seed", "3", "--workers", "1", "--moments", "2", "--records", str(records),
                 "--report", str(report), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    moments = summary["decisive_moments"]
    analysed = [Record.load(records / f"game-{k:05d}.json") for k in (1, 2)]
    assert moments["games"] == 2 and moments["level"] == "quick"
    rows = moments["kinds"]
    assert sum(row["decisions"] for row in rows) == moments["decisions"] \
        == sum(decisions_with_a_choice(record) for record in analysed)
    assert any(row["kind"].startswith("Play ") for row in rows)
    order = [(row["decisions"] < SETTLED, -row["mean_abs_swing"]) for row in rows]
    assert order == sorted(order)
    for row in rows:
        assert abs(row["mean_swing"]) <= row["mean_abs_swing"] <= 1
        if row["decisions"] > 1:
            assert row["ci_low"] <= row["mean_swing"] <= row["ci_high"]
        else:
            assert row["ci_low"] is None and row["ci_high"] is None
    assert json.loads((report / "summary.json").read_text())["decisive_moments"] == moments
    with (report / "moments.csv").open() as f:
        table = list(csv.DictReader(f))
    assert [r["kind"] for r in table] == [row["kind"] for row in rows]
    assert [int(r["decisions"]) for r in table] == [row["decisions"] for row in rows]
    assert (report / "moments.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (report / "index.html").read_text()
    assert "Decisive moments" in page and 'src="moments.png"' in page
    assert all(f"<th>{html.escape(row['kind'])}</th>" in page for row in rows)


def test_decisive_moments_are_the_same_in_worker_processes() -> None:
    """Issue 30: the decisive moments are analysed in the lab's worker processes, with the
    same result as in this process (each game replayed from its seeds)."""
    study = lab.make_study("black-keep", 2, 5, ["random"])
    results, _ = lab.run_study(study, 4, workers=1)
    here = measure_moments(study, results, 4, workers=1)
    assert measure_moments(study, results, 4, workers=2) == here
    assert here["games"] == 4 and here["decisions"] > 0


def test_moment_summary_groups_swings_by_kind() -> None:
    """Issue 30: per kind, the count, the mean swing with its 95% interval (mean +- Student's
    t standard errors) and the mean absolute swing, ordered by the mean absolute swing."""
    summary = moment_summary([[("Build", 0.1), ("Move", -0.3)], [("Build", 0.3)]])
    assert summary["games"] == 2 and summary["decisions"] == 3
    move, build = summary["kinds"]
    assert move == {"kind": "Move", "decisions": 1, "mean_swing": -0.3, "ci_low": None,
                    "ci_high": None, "mean_abs_swing": 0.3}
    assert build["decisions"] == 2 and build["mean_swing"] == pytest.approx(0.2)
    half = 12.706 * 0.1  # t with 1 degree of freedom, times the standard error 0.1414 / 1.414
    assert build["ci_low"] == pytest.approx(0.2 - half) and build["ci_high"] == pytest.approx(
        0.2 + half)


def test_t_quantiles_join_the_normal_one() -> None:
    """Issue 30 (honest intervals): the t quantile falls with the degrees of freedom, is
    continuous past the table (30) and tends to the normal 1.96."""
    values = [t95(k) for k in range(1, 200)]
    assert values == sorted(values, reverse=True)
    assert t95(31) == pytest.approx(2.040, abs=0.001) and t95(60) == pytest.approx(2.000,
                                                                                   abs=0.001)
    assert t95(10 ** 6) == pytest.approx(1.96, abs=0.001)


@pytest.mark.parametrize(("args", "message"), [
    (["--moments", "-1", "--report", "REPORT"], "'-1' is not a number of games from 0 to"),
    (["--moments", "many", "--report", "REPORT"], "'many' is not a number of games from 0"),
    (["--moments", str(MAX_MOMENT_GAMES + 1), "--report", "REPORT"], "from 0 to 1000"),
    (["--moments", "3"], "--moments needs --report DIR"),
])
def test_bad_moments_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      args: list[str], message: str) -> None:
    """Issue 30: a --moments that is not a whole number from 0 to the maximum, or one
    without --report, exits 2 with a clear message and plays and writes nothing."""
    report = tmp_path / "report"
    given = [str(report) if a == "REPORT" else a for a in args]
    try:
        code = main(["simulate", "black-keep", "--players", "2", "--games", "3", *given])
    except SystemExit as exit:  # argparse refuses a value its type refuses
        code = exit.code
    assert code == 2
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err and out == ""
    assert not report.exists()


def test_moments_from_python_need_a_report(tmp_path: Path) -> None:
    """Issue 30: ``simulate(moments=N)`` without a report, or a bad N, is refused before any
    game is played."""
    with pytest.raises(lab.LabError, match="part of a report"):
        simulate("black-keep", 2, 2, 1, ["random"], moments=2)
    with pytest.raises(lab.LabError, match="from 0 \\(none\\) to"):
        simulate("black-keep", 2, 2, 1, ["random"], report=tmp_path / "r", moments=-2)
    assert not (tmp_path / "r").exists()
