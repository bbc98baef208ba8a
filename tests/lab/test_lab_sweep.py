"""The lab sweeps options (issue 12): ``simulate --sweep NAME[=V1,V2,...]`` plays game k on
combination k mod C of the swept values and summarises each combination with intervals.

Besides Guards! Guards! (a number option) and Thieves of the Black Keep (a per-table set-up
choice, its scenario), a tiny co-operative game registered here, The Vault, declares choice
options and a per-seat set-up choice (a tool kit per thief): its crew cracks a safe together
or nobody wins.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from citywatch import lab
from citywatch.cli import main
from citywatch.core.api import (
    COOPERATIVE,
    Game,
    GameOption,
    GameType,
    Outcome,
    Role,
    State,
    ViewKeys,
)
from citywatch.core.errors import IllegalAction, InvalidPosition
from citywatch.core.record import Record
from citywatch.core.registry import register, unregister
from citywatch.core.rng import Rng, Seed, rng_from_seed
from citywatch.core.setup_choice import SetupChoice
from citywatch.simulate import simulate
from citywatch.tournament import wilson

NAME = "vault"
ATTEMPTS = 6
NEEDED = 2
LOWEST_SUCCESS = {"easy": 1, "medium": 4, "hard": 7}
"""The least roll of a die that cracks a lock: always on easy, never on hard."""
STARTERS = ({"id": "picks", "name": "Picks"}, {"id": "drills", "name": "Drills"},
            {"id": "charms", "name": "Charms"})
"""The shipped tool kits, one per thief (a per-seat set-up choice that changes nothing)."""
IDS = [str(kit["id"]) for kit in STARTERS]


@dataclass(frozen=True)
class Try:
    """A thief's attempt at the lock, by ``way``."""

    way: str

    def to_json(self) -> dict[str, Any]:
        return {"verb": "try", "way": self.way}

    def __str__(self) -> str:
        return f"Try the lock with {self.way}"


class VaultState(State):
    """The crew takes turns at the lock: a die roll of at least the difficulty's number
    cracks it; ``NEEDED`` cracks within ``ATTEMPTS`` tries and the whole crew wins."""

    def __init__(self, players: int, lowest: int, rng: Rng) -> None:
        self.n = players
        self.lowest = lowest
        self.rng = rng
        self.tries = 0
        self.cracked = 0

    @property
    def game(self) -> Game:
        return GAME

    @property
    def players(self) -> int:
        return self.n

    @property
    def to_move(self) -> int | None:
        return None if self._over() else self.tries % self.n

    def _over(self) -> bool:
        return self.cracked >= NEEDED or self.tries >= ATTEMPTS

    def legal_actions(self) -> list[Any]:
        return [] if self._over() else [Try("picks"), Try("drill")]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action} is not legal now")
        self.tries += 1
        if self.rng.below(6) + 1 >= self.lowest:
            self.cracked += 1

    def copy(self) -> VaultState:
        other = VaultState(self.n, self.lowest, self.rng.copy())
        other.tries, other.cracked = self.tries, self.cracked
        return other

    def outcome(self) -> Outcome | None:
        if not self._over():
            return None
        if self.cracked >= NEEDED:
            return Outcome(tuple(range(self.n)), "the safe was cracked")
        return Outcome((), "the crew ran out of tries")

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"current": self.to_move, "tries": self.tries, "cracked": self.cracked,
                "seats": [{"colour": f"Thief {k + 1}"} for k in range(self.n)]}

    def determinize(self, seat: int, rng: Rng) -> State:
        return self.copy()

    def log(self, seat: int | None = None) -> list[str]:
        return []

    def position(self) -> dict[str, Any]:
        return {"players": self.n, "lowest": self.lowest, "tries": self.tries,
                "cracked": self.cracked, "rng": self.rng.to_json()}

    def turn_count(self) -> int:
        return self.tries


class VaultKits(SetupChoice):
    """Three shipped tool kits, one per thief, that change nothing: a per-seat set-up choice
    for the lab to rotate (``GameType.setup``), under its own words and keyword."""

    name = "kit"
    plural = "kits"
    keyword = "kits"
    per_seat = True

    def shipped(self) -> list[dict[str, Any]]:
        return [dict(kit) for kit in STARTERS]

    def problems(self, data: Any) -> list[str]:
        return [] if data in STARTERS else ["not a shipped kit"]

    def load(self, value: Any) -> dict[str, Any]:
        for kit in STARTERS:
            if value in (kit, kit["id"], kit["name"]):
                return dict(kit)
        raise ValueError(f"no kit {value!r}")


KITS = VaultKits()


class Vault(Game):
    """The Vault: 1 to 3 thieves, co-operative, with choice options ``difficulty`` and
    ``door`` (the door changes nothing) and a number option ``guards`` (nor does it)."""

    name = NAME
    min_players = 1
    max_players = 3
    type = GameType(seats=(1, 3), play=COOPERATIVE, chance=False, hidden_information=False,
                    role=Role("thief", "thieves"), view=ViewKeys("colour"), setup=(KITS,))
    options = (
        GameOption("difficulty", "how hard the lock is", "medium",
                   choices=("easy", "medium", "hard")),
        GameOption("door", "the way in", "front", choices=("front", "back")),
        GameOption("guards", "guards on watch", 1, 0, 4),
    )

    def new_game(self, players: int, seed: Seed, **options: Any) -> VaultState:
        values = self.check_new_game(players, options)
        if len(options.get(KITS.keyword) or KITS.default(players)) != players:
            raise ValueError("one kit per thief")
        return VaultState(players, LOWEST_SUCCESS[values["difficulty"]], rng_from_seed(seed))

    def from_position(self, position: dict[str, Any]) -> State:
        raise InvalidPosition("The Vault has no positions to read")

    def action_from_json(self, data: Any) -> Try:
        if not isinstance(data, dict) or data.get("verb") != "try":
            raise ValueError("not a Vault action")
        return Try(str(data.get("way")))


GAME = Vault()


@pytest.fixture
def vault() -> Iterator[Game]:
    """The Vault registered for the test's duration."""
    register(NAME, __name__)
    yield GAME
    unregister(NAME)


def same_games(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without what depends on the run (timing, backend)."""
    return {k: v for k, v in summary.items() if k not in lab.RUN_KEYS}


def check_rate(rate: dict[str, Any], games: int) -> None:
    assert rate["games"] == games
    assert rate["rate"] == pytest.approx(rate["wins"] / games)
    assert (rate["ci_low"], rate["ci_high"]) == pytest.approx(wilson(rate["wins"], games))


def test_game_k_plays_combination_k_mod_c_of_every_choice(vault: Game,
                                                          tmp_path: Path) -> None:
    """Rule: a choice option swept without values sweeps all its choices; game k is set up
    with combination k mod C (the last swept option varying fastest), as its record says."""
    study = lab.make_study(NAME, 2, 3, ["random"], sweep={"difficulty": None,
                                                          "door": ["back", "front"]})
    assert study.sweep == (("difficulty", ("easy", "medium", "hard")),
                           ("door", ("back", "front")))
    every = lab.combinations(study.sweep)
    assert len(every) == 6 and every[:3] == [
        {"difficulty": "easy", "door": "back"}, {"difficulty": "easy", "door": "front"},
        {"difficulty": "medium", "door": "back"}]
    simulate(NAME, 2, 8, 3, ["random"], tmp_path, sweep={"difficulty": None,
                                                         "door": ["back", "front"]})
    for k in range(8):
        record = Record.load(tmp_path / f"game-{k + 1:05d}.json")
        assert {n: record.options[n] for n in ("difficulty", "door")} == every[k % 6]


def test_sweep_summary_has_a_row_per_combination_with_intervals(vault: Game) -> None:
    """Rule: per combination, its games, the share of games somebody won (the co-operative
    crew's win rate: always on easy, never on hard), each seat's share of the wins and the
    length, with Wilson intervals; the swept option leaves the summary's fixed options."""
    s = simulate(NAME, 2, 9, 5, ["random"], options={"door": "back"},
                 sweep={"difficulty": None}).to_json()
    assert s["options"] == {"door": "back", "guards": 1}
    assert s["sweep"]["options"] == {"difficulty": ["easy", "medium", "hard"]}
    rows = {row["label"]: row for row in s["sweep"]["combinations"]}
    assert list(rows) == ["difficulty=easy", "difficulty=medium", "difficulty=hard"]
    for row in rows.values():
        assert row["games"] == 3
        check_rate(row["any_winner"], 3)
        for seat in row["win_rate_by_seat"]:
            check_rate(seat, 3)
            assert seat["wins"] == pytest.approx(row["any_winner"]["wins"] / 2)
    assert rows["difficulty=easy"]["any_winner"]["rate"] == 1.0
    assert rows["difficulty=hard"]["any_winner"]["rate"] == 0.0
    assert rows["difficulty=easy"]["turns"]["mean"] == NEEDED
    assert rows["difficulty=hard"]["turns"]["mean"] == ATTEMPTS
    assert sum(row["any_winner"]["wins"] for row in rows.values()) == 9 - s["end_reasons"].get(
        "the crew ran out of tries", 0)


def test_a_sweep_meets_every_pairing_of_a_per_seat_choice_equally(vault: Game) -> None:
    """Rule: a per-seat set-up choice the study leaves unchosen is rotated over the games
    through its shipped documents, by id (``seat_rotation``); under a sweep of C
    combinations the rotation steps by k // C, so each combination is played with each
    ordered pairing of shipped kits (not always the same ones)."""
    study = lab.make_study(NAME, 2, 1, ["random"], sweep={"difficulty": None})
    seen = set()
    for k in range(18):  # 3 combinations x 6 ordered pairs of 3 kits
        options = lab.game_options(study, k)
        seen.add((options["difficulty"], tuple(options["kits"])))
    assert len(seen) == 18
    plain = lab.make_study(NAME, 2, 1, ["random"])
    assert [lab.game_options(plain, k)["kits"] for k in range(6)] == [
        [IDS[a], IDS[b]] for a, b in (lab.seat_rotation(3, 2, k) for k in range(6))]
    assert {tuple(lab.game_options(plain, k)["kits"]) for k in range(6)} == {
        (a, b) for a in IDS for b in IDS if a != b}
    three = lab.make_study(NAME, 3, 1, ["random"])
    assert [lab.game_options(three, k)["kits"] for k in range(3)] == [
        IDS, IDS[1:] + IDS[:1], IDS[2:] + IDS[:2]]


def test_a_chosen_per_seat_choice_is_kept_by_id_and_counted_per_seat(vault: Game) -> None:
    """Rule: a study keeps a per-seat set-up choice as a record keeps it (a shipped document
    named by its name kept by its id, ``SetupChoice.check``), plays every game with it, and
    refuses a count that is not one per seat, in the choice's words."""
    study = lab.make_study(NAME, 2, 1, ["random"], {"kits": ["Charms", "picks"]})
    assert study.options["kits"] == ["charms", "picks"]
    assert lab.game_options(study, 4)["kits"] == ["charms", "picks"]
    with pytest.raises(lab.LabError, match="must list one kit per seat: 3 kits, not 2"):
        lab.make_study(NAME, 3, 1, ["random"], {"kits": ["charms", "picks"]})


def test_the_summary_and_report_name_a_per_seat_choice_in_its_own_words(
        vault: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: ``seat_choice`` and ``seat_matrix`` are named by the game's per-seat set-up
    choice (its name and plural, never a game's own key): rotated kits give a matrix of
    every shipped kit against every other, and the report's section and CSV say "kit"."""
    study = lab.make_study(NAME, 2, 2, ["random"])
    results, run = lab.run_study(study, 12, workers=1)
    summary = lab.summarise(study, results, run)
    assert summary["seat_choice"] == {"choice": "kit", "plural": "kits", "keyword": "kits",
                                      "by_seat": None}
    matrix = summary["seat_matrix"]
    names = [str(kit["name"]) for kit in STARTERS]
    assert matrix["choice"] == "kit" and matrix["names"] == names
    for row in names:
        assert set(matrix["rows"][row]) == set(names) - {row}
        for cell in matrix["rows"][row].values():
            assert cell["games"] == 4  # 12 games over 6 ordered pairs, both seats
    from citywatch.lab import report as lab_report

    lab_report.write_csv(tmp_path, summary, results)
    assert (tmp_path / "seat_matrix.csv").read_text().splitlines()[0] == (
        "kit,against,games,wins,rate,ci_low,ci_high")
    page = lab_report.render_html(summary)
    assert "<h2>Kit against kit</h2>" in page and "shipped kits were rotated" in page
    chosen = lab.make_study(NAME, 2, 2, ["random"], {"kits": ["drills", "drills"]})
    results, run = lab.run_study(chosen, 2, workers=1)
    summary = lab.summarise(chosen, results, run)
    assert summary["seat_choice"]["by_seat"] == ["Drills", "Drills"]
    assert summary["seat_matrix"]["rows"] == {"Drills": {}}
    assert "Kits by seat: Drills, Drills." in lab_report.render_html(summary)


def test_a_study_resumes_only_with_the_same_per_seat_documents(vault: Game,
                                                                tmp_path: Path) -> None:
    """Rule: the results header keeps the per-seat set-up choice; a rerun naming the same
    documents (by id, name or JSON form) continues it, and one with other documents, or
    leaving them to rotate, is refused."""
    results_file = tmp_path / lab.RESULTS
    first = lab.make_study(NAME, 2, 5, ["random"], {"kits": ["picks", "drills"]})
    lab.run_study(first, 2, workers=1, results_file=results_file)
    same = lab.make_study(NAME, 2, 5, ["random"], {"kits": [dict(STARTERS[0]), "Drills"]})
    _, run = lab.run_study(same, 4, workers=1, results_file=results_file)
    assert run.to_json()["games_resumed"] == 2
    for other in ({"kits": ["drills", "picks"]}, {}):
        study = lab.make_study(NAME, 2, 5, ["random"], other)
        with pytest.raises(lab.LabError, match="holds a study with options"):
            lab.run_study(study, 4, workers=1, results_file=results_file)


def test_a_per_table_set_up_choice_is_swept_like_a_choice_option(tmp_path: Path) -> None:
    """Rule: a per-table set-up choice (Black Keep's scenario, ``GameType.setup``) is swept
    as an option: without values over every shipped document, each value checked as the
    choice checks it; game k is set up with combination k mod C, as its record says."""
    from citywatch.games.black_keep.scenario import SCENARIOS

    every = lab.make_study("black-keep", 1, 3, ["random"], sweep={"scenario": None})
    assert every.sweep == (("scenario", tuple(SCENARIOS.ids())),)
    with pytest.raises(lab.LabError, match="sweeping scenario: there is no scenario"):
        lab.make_study("black-keep", 1, 3, ["random"], sweep={"scenario": ["no-such"]})
    with pytest.raises(lab.LabError, match="scenario is both swept and given"):
        lab.make_study("black-keep", 1, 3, ["random"], {"scenario": "tutorial"},
                       sweep={"scenario": ["tutorial", "the-vault"]})
    records = tmp_path / "records"
    summary = simulate("black-keep", 1, 4, 3, ["random"], records,
                       sweep={"scenario": ["tutorial", "the-vault"]}).to_json()
    assert "scenario" not in summary["options"]
    assert [row["label"] for row in summary["sweep"]["combinations"]] == [
        "scenario=tutorial", "scenario=the-vault"]
    assert [row["games"] for row in summary["sweep"]["combinations"]] == [2, 2]
    for k in range(4):
        record = Record.load(records / f"game-{k + 1:05d}.json")
        assert record.options["scenario"] == ("tutorial", "the-vault")[k % 2]


def test_guards_guards_one_spell_games_are_shorter() -> None:
    """Rule: a number option is swept over the values given; Guards! Guards! games to one
    Great Spell end sooner than games to five (heuristic bots: random ones never finish)."""
    s = simulate("guards-guards", 2, 4, 2, ["heuristic"], sweep={"spells": [1, 5]}).to_json()
    one, five = s["sweep"]["combinations"]
    assert (one["options"], five["options"]) == ({"spells": 1}, {"spells": 5})
    assert one["games"] == five["games"] == 2
    assert one["turns"]["max"] < five["turns"]["min"]
    assert "spells" not in s["options"]


@pytest.mark.parametrize(("args", "message"), [
    (["--sweep", "guards"], "sweeping guards needs its values"),
    (["--sweep", "guards=1,9"], "from 0 to 4"),
    (["--sweep", "difficulty=easy,tricky"], "must be one of easy, medium, hard"),
    (["--sweep", "difficulty=easy,easy"], "easy given twice"),
    (["--sweep", "alarm=1,2"], "cannot sweep alarm: not an option of vault"),
    (["--sweep", "kits=picks,drills"], "cannot sweep kits: one kit per seat"),
    (["--sweep", "door", "--option", "door=back"], "door is both swept and given"),
    (["--sweep", "door", "--sweep", "door=back"], "--sweep door is given twice"),
])
def test_bad_sweeps_are_usage_errors_that_write_nothing(
        vault: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        message: str) -> None:
    """Rule: a bad sweep exits 2 with a clear message and plays and writes nothing."""
    report = tmp_path / "report"
    assert main(["simulate", NAME, "--players", "2", "--games", "2", "--workers", "1",
                 "--report", str(report), *args]) == 2
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err and out == ""
    assert not report.exists()


@pytest.mark.parametrize("value", ["door=", "=easy", "door=back,,front"])
def test_a_malformed_sweep_is_refused_by_the_parser(vault: Game, value: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: --sweep takes NAME or NAME=V1,V2,...; anything else is a usage error (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        main(["simulate", NAME, "--sweep", value])
    assert stop.value.code == 2
    assert "is not NAME or NAME=V1,V2" in capsys.readouterr().err


def test_a_swept_study_resumes_and_refuses_another_sweep(
        vault: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: the results header records the sweep; a rerun extends the study to the same
    summary as one run, and a rerun with another sweep (values, order, none) is refused."""
    folder = tmp_path / "study"
    base = ["simulate", NAME, "--players", "2", "--seed", "4", "--workers", "1", "--json",
            "--records", str(folder)]
    sweep = ["--sweep", "difficulty=hard,easy", "--sweep", "door"]
    assert main([*base, "--games", "5", *sweep]) == 0
    capsys.readouterr()
    header = json.loads((folder / lab.RESULTS).read_text().splitlines()[0])
    assert header["sweep"] == {"difficulty": ["hard", "easy"], "door": ["front", "back"]}
    assert main([*base, "--games", "12", *sweep]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["run"]["games_resumed"] == 5 and resumed["run"]["games_played"] == 7
    whole = simulate(NAME, 2, 12, 4, ["random"], sweep={"difficulty": ["hard", "easy"],
                                                        "door": None}).to_json()
    assert same_games(resumed) == same_games(whole)
    for other, shown in [(["--sweep", "difficulty=easy,hard", "--sweep", "door"],
                          "sweep difficulty=hard/easy door=front/back, not sweep "
                          "difficulty=easy/hard door=front/back"),
                         (["--sweep", "door", "--sweep", "difficulty=hard,easy"],
                          "not sweep door=front/back difficulty=hard/easy"),
                         ([], "not sweep (none)")]:
        assert main([*base, "--games", "12", *other]) == 2
        assert shown in capsys.readouterr().err
    plain = tmp_path / "plain"
    assert main([*base[:-1], str(plain), "--games", "2"]) == 0
    assert "sweep" not in json.loads((plain / lab.RESULTS).read_text().splitlines()[0])
    capsys.readouterr()
    assert main([*base[:-1], str(plain), "--games", "2", "--sweep", "door"]) == 2
    assert "sweep (none), not sweep door=front/back" in capsys.readouterr().err


def test_the_report_has_a_sweep_table_plot_and_csv(vault: Game, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: with a sweep the report adds sweep.csv (a row per combination), sweep.png and a
    table on the page, and games.csv names each game's combination; the text summary too."""
    report = tmp_path / "report"
    assert main(["simulate", NAME, "--players", "3", "--games", "6", "--seed", "8",
                 "--workers", "1", "--sweep", "difficulty", "--moments", "0",
                 "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "swept options" in out and "difficulty=hard" in out
    summary = json.loads((report / "summary.json").read_text())
    with (report / "sweep.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["difficulty"] for r in rows] == ["easy", "medium", "hard"]
    for row, combination in zip(rows, summary["sweep"]["combinations"], strict=True):
        assert int(row["games"]) == combination["games"] == 2
        assert float(row["any_winner_rate"]) == combination["any_winner"]["rate"]
        assert float(row["seat_2_ci_high"]) == combination["win_rate_by_seat"][2]["ci_high"]
        assert float(row["turns_mean"]) == combination["turns"]["mean"]
    assert rows[0]["any_winner_rate"] == "1.0" and rows[2]["any_winner_rate"] == "0.0"
    with (report / "games.csv").open() as f:
        games = list(csv.DictReader(f))
    assert [g["combination"] for g in games] == ["difficulty=easy", "difficulty=medium",
                                                 "difficulty=hard"] * 2
    assert (report / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (report / "index.html").read_text()
    assert "Swept options" in page and 'src="sweep.png"' in page and "sweep.csv" in page
    assert page.count("<th>hard</th>") == 1


def test_black_keep_sweep_labels_are_printed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule (issue 12, the designer's question): the text summary names every combination of
    a scenario-by-difficulty sweep in full, and prints no empty table for a game that deals
    no roles."""
    assert main(["simulate", "black-keep", "--players", "1", "--games", "2", "--seed", "3",
                 "--bots", "random", "--workers", "1", "--sweep",
                 "scenario=tutorial,the-black-keep", "--sweep", "difficulty=medium"]) == 0
    out = capsys.readouterr().out
    assert "scenario=tutorial, difficulty=medium " in out
    assert "scenario=the-black-keep, difficulty=medium " in out
    assert "\nthief " not in out
