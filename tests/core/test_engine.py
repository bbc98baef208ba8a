"""Issue 32: which engine runs. A compiled module beside its ``.py`` is imported in its place;
``CITYWATCH_ENGINE=python`` imports every citywatch module from its source instead, and
``citywatch --version`` and ``citywatch games`` say which engine runs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from citywatch import engine
from citywatch.cli import main

PROBE = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from citywatch.engine import SourceFirst
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
    assert version.startswith("citywatch ") and f"engine: {engine.describe()}" in version
    assert main(["games"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (  # type: ignore[attr-defined]
        f"engine: {engine.describe()}")
