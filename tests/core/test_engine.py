"""Issue 32: which engine runs. A compiled module beside its ``.py`` is imported in its place;
``CITYWATCH_ENGINE=python`` imports every citywatch module from its source instead, and
``citywatch --version`` and ``citywatch games`` say which engine runs."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pickle
import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

import citywatch
from citywatch import engine
from citywatch.cli import main
from citywatch.core.rng import Rng

PROBE = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from citywatch.engine import SourceFirst
    # (importing the real engine may put the finder in place for its own stale build)
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, SourceFirst)]
    if {forced}:
        sys.meta_path.insert(0, SourceFirst())
    try:
        import citywatch.rules as rules
        print(rules.SOURCE)
    except ImportError as exc:
        print("ImportError")
""")


def _fake_package(tmp_path: Path) -> Path:
    """A package named citywatch whose ``rules`` has a source and a (broken) compiled file
    beside it, as a build would leave one."""
    package = tmp_path / "citywatch"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("SOURCE = 'the .py source'\n")
    (package / f"rules{EXTENSION_SUFFIXES[0]}").write_bytes(b"not a shared object")
    return package


def test_the_source_first_finder_imports_the_py_beside_a_compiled_module(
        tmp_path: Path) -> None:
    """Issue 32: Python imports a compiled module in place of its source; the finder that
    CITYWATCH_ENGINE=python installs imports the source instead, and the compiled file is
    counted as built."""
    package = _fake_package(tmp_path)
    engine_file = Path(engine.__file__).parent.parent
    for forced, expected in ((False, "ImportError"), (True, "the .py source")):
        probe = PROBE.format(root=str(tmp_path), forced=forced)
        found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                               check=True, env={"PYTHONPATH": str(engine_file)},
                               cwd=tmp_path).stdout.strip()
        assert found == expected
    assert [p.name for p in engine.built_modules(package)] == [
        f"rules{EXTENSION_SUFFIXES[0]}"]


def test_the_variable_installs_the_finder_and_the_commands_say_which_engine(
        capsys: object) -> None:
    """Issue 32: with CITYWATCH_ENGINE=python a fresh interpreter has the finder first and
    every citywatch module from a .py file; ``--version`` and ``games`` name the engine."""
    code = ("import sys, citywatch, citywatch.games.ankh_morpork.state as s\n"
            "from citywatch.engine import SourceFirst, compiled_modules, describe\n"
            "print(isinstance(sys.meta_path[0], SourceFirst), s.__file__.endswith('.py'),"
            " compiled_modules(), describe())")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={"CITYWATCH_ENGINE": "python",
                                            "PYTHONPATH": str(Path(engine.__file__).parents[1])}
                           ).stdout.strip()
    assert shown.startswith("True True [] pure Python")
    version = subprocess.run([sys.executable, "-m", "citywatch.cli", "--version"],
                             capture_output=True, text=True, check=True).stdout
    assert version.startswith("citywatch ")
    assert f"engine: {engine.describe()}" in " ".join(version.split())  # (argparse wraps it)
    assert main(["games"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (  # type: ignore[attr-defined]
        f"engine: {engine.describe()}")


def test_a_changed_source_makes_the_package_run_pure_python_until_rebuilt(
        tmp_path: Path) -> None:
    """Issue 32: the pure-Python source is the one truth. The build's manifest records each
    compiled module's source hash; a source changed since (or compiled modules without a
    manifest) makes ``install`` put the source-first finder in place, and ``describe`` says
    why."""
    package = _fake_package(tmp_path)
    source = package / "rules.py"
    assert engine.stale_modules(root=tmp_path) is None  # no manifest yet
    engine.write_manifest([source], tmp_path)
    assert engine.stale_modules(root=tmp_path) == []
    assert engine.stale_modules([source, package / "__init__.py"], tmp_path) == [
        "citywatch/__init__.py"]  # a module the build did not compile is not up to date
    source.write_text("SOURCE = 'edited since the build'\n")
    assert engine.stale_modules(root=tmp_path) == ["citywatch/rules.py"]
    probe = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import importlib.util
        spec = importlib.util.spec_from_file_location("citywatch.engine", {engine.__file__!r})
        engine = importlib.util.module_from_spec(spec)
        engine.__file__ = {str(package / "engine.py")!r}
        spec.loader.exec_module(engine)
        import citywatch.rules as rules
        print(rules.SOURCE, "|", engine.describe())
    """)
    unforced = {k: v for k, v in os.environ.items() if k != engine.VARIABLE}
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True, cwd=tmp_path, env=unforced).stdout.strip()
    assert shown == ("edited since the build | pure Python (1 compiled modules older than "
                     "their source (citywatch/rules.py, ...); rebuild with "
                     "scripts/build_engine.py or make)")


BUILD = Path(__file__).resolve().parents[2] / "scripts" / "build_engine.py"


def _build_script() -> object:
    """``scripts/build_engine.py`` imported as a module (it is not in the package)."""
    spec = importlib.util.spec_from_file_location("build_engine", BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_falls_back_without_a_compiler_and_refuses_bad_options(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32: ``make`` builds the compiled engine where a C compiler is present and leaves
    pure Python where not; a wrong option is refused before any work."""
    build: Any = _build_script()
    assert build.missing_tools() is None  # this machine has gcc, Python.h and mypyc
    monkeypatch.setenv("PATH", "")
    assert build.missing_tools().startswith("no C compiler")
    with pytest.raises(SystemExit) as refused:
        build.main(["--jobs", "0"])
    assert refused.value.code == 2 and "--jobs must be 1 to 64" in capsys.readouterr().err
    assert set(build.MODULES) <= {p.relative_to(BUILD.parents[1]).as_posix()
                                  for p in (BUILD.parents[1] / "citywatch").rglob("*.py")}


GAMES = {"ankh-morpork": 4, "guards-guards": 4, "guardians-of-the-city": 2, "black-keep": 2}
DIGEST = textwrap.dedent("""
    import hashlib, json, sys
    import citywatch
    from citywatch.core.rng import Rng
    from citywatch.engine import compiled_modules
    digests = {}
    for name, players in json.loads(sys.argv[1]).items():
        game, digest = citywatch.load(name), hashlib.sha256()
        for seed in range(1, 4):
            state, rng = game.new_game(players=players, seed=seed), Rng(seed)
            while state.to_move is not None:
                legal = state.legal_actions()
                action = legal[rng.below(len(legal))]
                digest.update(repr(action).encode())
                state.apply(action)
            digest.update(repr(state.outcome()).encode())
        digests[name] = digest.hexdigest()
    print(json.dumps([digests, len(compiled_modules())]))
""")


def test_the_compiled_and_the_pure_python_engines_play_identical_games() -> None:
    """Issue 32: identical games. Three seeded random games of every game give the same
    digest of every action and outcome on the engine built here and on the pure-Python
    source (CITYWATCH_ENGINE=python); where a build is present, it is the one loaded."""
    runs = {}
    for forced in ("", "python"):
        env = {**os.environ, engine.VARIABLE: forced}
        shown = subprocess.run([sys.executable, "-c", DIGEST, json.dumps(GAMES)], env=env,
                               capture_output=True, text=True, check=True).stdout
        runs[forced] = json.loads(shown)
    assert runs[""][0] == runs["python"][0]
    assert runs["python"][1] == 0
    in_use = engine.group_library() is not None and engine.stale_modules() == []  # up to date
    assert (runs[""][1] > 0) == in_use


@pytest.mark.parametrize(("game", "verbs", "verb", "number", "bare"), [
    ("guards_guards", "turn", "MOVE_TO", 3, "END_TURN"),
    ("guardians_of_the_city", "actions", "DISCARD", 5, "DRAW"),
    ("black_keep", "actions", "START", 7, "NO_BUY")])
def test_act_builds_the_action_the_class_builds_once(game: str, verbs: str, verb: str,
                                                     number: int, bare: str) -> None:
    """Issue 32: a game's ``act`` (the fast way its rules build actions) gives an action equal
    to its class's, of that type and with its repr (the records' digests compare reprs), and
    the same object for the same fields."""
    actions = importlib.import_module(f"citywatch.games.{game}.actions")
    named = importlib.import_module(f"citywatch.games.{game}.{verbs}")
    with_number, without = getattr(named, verb), getattr(named, bare)
    action, act = actions.Action, actions.act
    for built, made in ((act(with_number, number), action(with_number, number)),
                        (act(without), action(without))):
        assert built == made
        assert type(built) is action
        assert repr(built) == repr(made) and str(built) == str(made)
    assert act(with_number, number) is act(with_number, number)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_pickles_and_plays_on_the_same(name: str) -> None:
    """Issue 32: a mid-game state (the server's set-up worker and bot pool send states between
    processes) comes back from pickle equal, and plays on exactly as the original, on either
    engine."""
    state = citywatch.load(name).new_game(GAMES[name], 5)
    rng = Rng(5)
    for _ in range(40):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    twin = pickle.loads(pickle.dumps(state))
    assert twin == state
    for _ in range(40):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        assert twin.legal_actions() == legal
        pick = legal[rng.below(len(legal))]
        state.apply(pick)
        twin.apply(pick)
    assert twin.position() == state.position()
    assert twin.log() == state.log()
