"""Compiled engine against pure Python, and against OpenSpiel's C++ hearts, in one run (issue 32).

Per game (the seats of ``targets.json``): random games, decisions and ISMCTS iterations per
second (``bench_engine.random_games`` and ``ismcts_speed`` with ``DEFAULT_SEARCH``), each run in
a fresh child process, once with the compiled modules beside the sources and once with
``CITYWATCH_ENGINE=python``, the rounds interleaved; the table shows the medians. Every child
feeds every action, outcome and ISMCTS choice to a digest, and the run fails if two engines
played different games. ``--baseline REV`` also measures that commit's engine (today's is
a7e4c8c) from a temporary ``git worktree``, in pure Python. OpenSpiel's hearts (``pyspiel``,
the extra ``bench``) is played by the same loop: random legal actions, chance outcomes sampled,
driven from Python; its C++ ISMCTS bot gives the search figure beside ours.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGETS: dict[str, Any] = json.loads((HERE / "targets.json").read_text())

WORKLOADS: dict[str, tuple[int, int]] = {
    "ankh-morpork": (1000, 10),
    "guards-guards": (100, 10),
    "guardians-of-the-city": (1000, 6),
    "black-keep": (3000, 3),
}
"""Per game: random games per child, and mid-game positions searched (at most 10). The
compiled engine's child plays about a second of random games, so that the process's first
games (filling its caches) and the machine's noise weigh little; pure Python takes two to
three times as long."""
DEFAULT_WORKLOAD = (50, 3)
"""The workload of a game missing from ``WORKLOADS``."""
SEED = 1
SAMPLE_EVERY = 97
"""Hearts keeps a position for the search every this many decisions (``random_games``' rate)."""
HEARTS_GAMES = 300
HEARTS_ITERATIONS = 300
"""Iterations of OpenSpiel's ISMCTS per position: those of ``bench_engine.DEFAULT_SEARCH``."""
HEARTS_POSITIONS = 10
HEARTS_PASSES = 12
"""Decisions of the passing at most (3 cards a seat): OpenSpiel 2.0.2's ISMCTS crashes the
interpreter (SIGSEGV) searching some hearts positions in the passing, so it searches only
positions of the play, later in a game than this."""

MEASURES = {
    "games_per_second": "random games/s",
    "decisions_per_second": "decisions/s",
    "ismcts_iterations_per_second": "ISMCTS iterations/s",
}
"""What every child measures, and its label in the table."""
BUILD_HINT = ("build them with `make engine` or `.venv/bin/python scripts/build_engine.py` "
              "(needs a C compiler; a few minutes); remove them with `--clean`")


class DigestMismatch(Exception):
    """Two engines (or two rounds) played different games: a compiled module changed the rules."""


def median_rates(runs: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """The median of each of ``MEASURES`` over the runs of one engine."""
    return {key: statistics.median(float(run[key]) for run in runs) for key in MEASURES}


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``, or None if either is missing or the denominator is 0."""
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def common_digest(game: str, runs: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """The digest every run of every engine reported for ``game``; raises ``DigestMismatch``
    naming each engine's digests if they are not all the same."""
    seen = {(engine, str(run["digest"])) for engine, rows in runs.items() for run in rows}
    digests = {digest for _, digest in seen}
    if len(digests) != 1:
        detail = "; ".join(f"{engine} {digest[:16]}" for engine, digest in sorted(seen))
        raise DigestMismatch(f"{game}: the engines played different games "
                             f"(digests of every action, outcome and ISMCTS choice: {detail})")
    return digests.pop()


def rate(value: float | None) -> str:
    """A rate for the table: thousands separated, one decimal below 100; "-" if missing."""
    if value is None:
        return "-"
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def times(value: float | None) -> str:
    """A ratio for the table: "x1.52", two significant digits below 0.1 ("x0.0012"); "-" if
    missing."""
    if value is None:
        return "-"
    return f"x{value:.2f}" if value >= 0.1 else f"x{value:.2g}"


def table_rows(results: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per game and measure: the medians of each engine, compiled over pure, compiled
    over today's and the target of ``targets.json`` (for random games and ISMCTS)."""
    rows = []
    for game, result in results.items():
        medians = {engine: data["median"] for engine, data in result["engines"].items()}
        for key, label in MEASURES.items():
            pure, compiled, today = (medians[engine][key] if engine in medians else None
                                     for engine in ("pure", "compiled", "today"))
            target = (TARGETS.get(game, {}).get("speedup_vs_today")
                      if key != "decisions_per_second" else None)
            rows.append({"game": game, "seats": result["players"], "workload": label,
                         "pure": pure, "compiled": compiled,
                         "compiled_over_pure": ratio(compiled, pure), "today": today,
                         "compiled_over_today": ratio(compiled, today), "target": target})
    return rows


def format_table(rows: Sequence[Mapping[str, Any]], with_today: bool) -> list[str]:
    """The table's lines; today's columns only ``with_today``."""
    head = (f"{'game':<22}{'seats':>5}  {'workload':<20}{'pure':>10}{'compiled':>10}"
            f"{'ratio':>8}")
    if with_today:
        head += f"{'today':>10}{'vs today':>10}{'target':>8}"
    lines = [head]
    for row in rows:
        line = (f"{row['game']:<22}{row['seats']:>5}  {row['workload']:<20}"
                f"{rate(row['pure']):>10}{rate(row['compiled']):>10}"
                f"{times(row['compiled_over_pure']):>8}")
        if with_today:
            target = "" if row["target"] is None else f">= x{row['target']}"
            line += (f"{rate(row['today']):>10}{times(row['compiled_over_today']):>10}"
                     f"{target:>8}")
        lines.append(line)
    return lines


def hearts_lines(results: Mapping[str, Mapping[str, Any]], hearts: Mapping[str, Any]) -> list[str]:
    """Hearts' figures (``hearts``: the medians of every run), and each game's decisions and
    ISMCTS iterations per second over those of the hearts runs between its own (pure and
    compiled)."""
    lines = [f"OpenSpiel {hearts['version']} C++ hearts, 4 seats, random legal actions driven "
             f"from Python, chance sampled (medians): {rate(hearts['games_per_second'])} games/s, "
             f"{rate(hearts['decisions_per_second'])} decisions/s "
             f"({hearts['decisions_per_game']:.1f} a game); its C++ ISMCTS: "
             f"{rate(hearts['ismcts_iterations_per_second'])} iterations/s "
             f"({HEARTS_ITERATIONS} a position, one random rollout to the end each)",
             "ours over hearts (over the hearts runs interleaved with each game's own):",
             f"{'game':<22}{'decisions/s pure':>18}{'compiled':>10}"
             f"{'ISMCTS it/s pure':>18}{'compiled':>10}"]
    for game, result in results.items():
        medians = result["engines"]
        peer = result.get("hearts") or hearts
        cells = [times(ratio(medians[engine]["median"][key], peer[key])
                       if engine in medians else None)
                 for key in ("decisions_per_second", "ismcts_iterations_per_second")
                 for engine in ("pure", "compiled")]
        lines.append(f"{game:<22}{cells[0]:>18}{cells[1]:>10}{cells[2]:>18}{cells[3]:>10}")
    return lines


def measure_game(job: Mapping[str, Any]) -> dict[str, Any]:
    """In a child: play ``job``'s random games and searches with the citywatch under
    ``job["root"]``; the rates, the digest of the games and which engine ran."""
    root = Path(job["root"]).resolve()
    sys.path.insert(0, str(root))
    import bench_engine

    import citywatch

    if not Path(citywatch.__file__ or "").resolve().is_relative_to(root):
        raise SystemExit(f"citywatch came from {citywatch.__file__}, not from {root}")
    digest = hashlib.sha256()
    games_per_second, decisions_per_second, states = bench_engine.random_games(
        job["game"], job["players"], job["games"], job["seed"], digest)
    mid = [s for s in states[len(states) // 3:] if s.to_move is not None][:job["positions"]]
    iterations, _, _ = bench_engine.ismcts_speed(job["game"], mid, profile=False, digest=digest)
    try:
        from citywatch import engine
        described, loaded = engine.describe(), len(engine.compiled_modules())
    except ImportError:
        described, loaded = "pure Python (no citywatch.engine)", 0
    return {"games_per_second": games_per_second, "decisions_per_second": decisions_per_second,
            "ismcts_iterations_per_second": iterations, "digest": digest.hexdigest(),
            "engine": described, "compiled_modules": loaded}


def measure_hearts(job: Mapping[str, Any]) -> dict[str, Any]:
    """In a child: OpenSpiel's hearts, random games (chance outcomes sampled by their
    probabilities) driven from Python, then its C++ ISMCTS bot on positions of those games
    (in the play, after the passing)."""
    from importlib.metadata import version

    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("hearts")
    rng = random.Random(job["seed"])
    positions: list[Any] = []
    decisions = 0
    start = time.perf_counter()
    for _ in range(job["games"]):
        state = game.new_initial_state()
        played = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(actions, probabilities)[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                decisions += 1
                played += 1
                if (played > HEARTS_PASSES and decisions % SAMPLE_EVERY == 0
                        and len(positions) < job["positions"]):
                    positions.append(state.clone())
            state.apply_action(action)
    elapsed = time.perf_counter() - start
    evaluator = pyspiel.RandomRolloutEvaluator(1, job["seed"])
    start = time.perf_counter()
    for state in positions:
        bot = pyspiel.ISMCTSBot(job["seed"], evaluator, 2.0, job["iterations"], -1,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                                False, False)
        bot.step(state)
    searched = time.perf_counter() - start
    return {"games_per_second": job["games"] / elapsed,
            "decisions_per_second": decisions / elapsed,
            "decisions_per_game": decisions / job["games"],
            "ismcts_iterations_per_second": job["iterations"] * len(positions) / searched,
            "version": version("open_spiel")}


def run_child(job: Mapping[str, Any], pure: bool) -> dict[str, Any]:
    """Run ``job`` in a fresh interpreter (with ``CITYWATCH_ENGINE=python`` if ``pure``, else
    without it), from ``job["root"]``; its result."""
    env = {k: v for k, v in os.environ.items() if k != "CITYWATCH_ENGINE"}
    if pure:
        env["CITYWATCH_ENGINE"] = "python"
    root = str(job.get("root", ROOT))
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                           json.dumps(dict(job))], cwd=root, env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"the child measuring {dict(job)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@contextmanager
def checkout(rev: str | None) -> Iterator[Path | None]:
    """A temporary ``git worktree`` of ``rev`` (removed afterwards), or None, with the reason
    printed, when there is no ``rev``, no git or no such commit in this clone."""
    if rev is None:
        yield None
        return
    git = shutil.which("git")
    known = git is not None and subprocess.run(
        [git, "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True).returncode == 0
    if git is None or not known:
        print(f"today's engine ({rev}) not measured: "
              f"{'no git' if git is None else 'no such commit in this clone'}")
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="citywatch-today-"))
    tree = folder / "citywatch"
    try:
        subprocess.run([git, "-C", str(ROOT), "worktree", "add", "--detach", "--quiet",
                        str(tree), rev], check=True)
        yield tree
    finally:
        subprocess.run([git, "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def built_modules() -> list[Path]:
    """The compiled modules built beside this checkout's sources."""
    sys.path.insert(0, str(ROOT))
    from citywatch.engine import built_modules as built

    return built(ROOT / "citywatch")


HEARTS_JOB = {"kind": "hearts", "games": HEARTS_GAMES, "positions": HEARTS_POSITIONS,
              "iterations": HEARTS_ITERATIONS, "seed": SEED}
HEARTS_KEYS = ("games_per_second", "decisions_per_second", "decisions_per_game",
               "ismcts_iterations_per_second")


def hearts_summary(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The medians of hearts' runs, and its version."""
    return {**{key: statistics.median(float(run[key]) for run in runs) for key in HEARTS_KEYS},
            "version": runs[0]["version"]}


def has_pyspiel() -> bool:
    """True if OpenSpiel is installed; else False, with a line saying how to install it."""
    if importlib.util.find_spec("pyspiel") is not None:
        return True
    print("OpenSpiel's hearts skipped: pyspiel is not installed (the extra 'bench', "
          "open_spiel==2.0.2: pip install -e '.[bench]'; make bench installs it)")
    return False


def bench_game(game: str, players: int, workload: tuple[int, int], engines: Mapping[str, Path],
               rounds: int, hearts: bool) -> dict[str, Any]:
    """Measure one game with every engine (name -> checkout), and OpenSpiel's hearts if
    ``hearts``, ``rounds`` times interleaved; prints a line on the engines and the digest;
    raises ``DigestMismatch``."""
    games, positions = workload
    runs: dict[str, list[dict[str, Any]]] = {engine: [] for engine in engines}
    hearts_runs: list[dict[str, Any]] = []
    order = [*engines, *(["hearts"] if hearts else [])]
    for number in range(rounds):
        for engine in order if number % 2 == 0 else order[::-1]:
            if engine == "hearts":
                hearts_runs.append(run_child(HEARTS_JOB, pure=True))
                continue
            job = {"kind": "game", "root": str(engines[engine]), "game": game,
                   "players": players, "games": games, "positions": positions, "seed": SEED}
            runs[engine].append(run_child(job, pure=engine != "compiled"))
    digest = common_digest(game, runs)
    described = "; ".join(f"{engine}: {rows[0]['engine']}" for engine, rows in runs.items())
    print(f"{game}: {players} seats; a child plays {games} random games and searches "
          f"{positions} of their positions; {described}; the same games and choices in every "
          f"run (sha256 {digest[:16]})", flush=True)
    if "compiled" in runs and not runs["compiled"][0]["compiled_modules"]:
        print(f"  warning: no compiled module loaded for {game}: its compiled column is pure "
              f"Python (built for another Python?)")
    return {"players": players, "random_games": games, "ismcts_positions": positions,
            "digest": digest,
            "engines": {engine: {"engine": rows[0]["engine"],
                                 "compiled_modules": rows[0]["compiled_modules"],
                                 "median": median_rates(rows), "runs": rows}
                        for engine, rows in runs.items()},
            "hearts": {**hearts_summary(hearts_runs), "runs": hearts_runs}
            if hearts_runs else None}


def main() -> None:
    """Measure, print the table and (with ``--json``) write the numbers."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--game", action="append",
                   help="only this game (repeatable; default: every registered game)")
    p.add_argument("--rounds", type=int, default=5, help="children per engine (medians)")
    p.add_argument("--games", type=int, help="random games a child (default: per game)")
    p.add_argument("--positions", type=int, help="positions searched a child (default: per game)")
    p.add_argument("--baseline", metavar="REV",
                   help="also measure this commit's engine, pure (today's: a7e4c8c)")
    p.add_argument("--no-hearts", action="store_true", help="leave OpenSpiel's hearts out")
    p.add_argument("--json", metavar="PATH", help="write the numbers to PATH")
    args = p.parse_args()
    if args.child:
        job = json.loads(args.child)
        print(json.dumps(measure_hearts(job) if job["kind"] == "hearts" else measure_game(job)))
        return
    built = built_modules()
    from citywatch.core.registry import game_names, load

    engines: dict[str, Path] = {"pure": ROOT}
    if built:
        engines["compiled"] = ROOT
    else:
        print(f"compiled column missing: no compiled modules are built in {ROOT / 'citywatch'}; "
              f"{BUILD_HINT}")
    with_hearts = not args.no_hearts and has_pyspiel()
    results: dict[str, dict[str, Any]] = {}
    with checkout(args.baseline) as today:
        if today is not None:
            engines["today"] = today
        for game in args.game or game_names():
            players = TARGETS.get(game, {}).get("players", load(game).max_players)
            default_games, default_positions = WORKLOADS.get(game, DEFAULT_WORKLOAD)
            workload = (args.games or default_games, args.positions or default_positions)
            try:
                results[game] = bench_game(game, players, workload, engines, args.rounds,
                                           with_hearts)
            except DigestMismatch as exc:
                raise SystemExit(f"FAILED, games not identical: {exc}") from None
    every_hearts_run = [run for result in results.values() if result["hearts"]
                        for run in result["hearts"]["runs"]]
    hearts = hearts_summary(every_hearts_run) if every_hearts_run else None
    print()
    print(f"Engines, medians of {args.rounds} interleaved runs (ratio: compiled over pure; "
          f"vs today: compiled over {args.baseline}'s pure Python)" if "today" in engines
          else f"Engines, medians of {args.rounds} interleaved runs (ratio: compiled over pure)")
    for line in format_table(table_rows(results), "today" in engines):
        print(line)
    if hearts is not None:
        print()
        for line in hearts_lines(results, hearts):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"rounds": args.rounds, "seed": SEED, "baseline": args.baseline if "today" in engines
             else None, "compiled_built": len(built), "games": results,
             "table": table_rows(results), "hearts": hearts}, indent=1) + "\n")


if __name__ == "__main__":
    main()
