"""The set-up of ``make test`` on a fresh machine (issue 13, part 1): the system packages the
tests need are found, installed with the system's package manager when possible, and
otherwise named in one clear sentence, before anything else runs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "system-packages"


def run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT)], env={**os.environ, **env}, text=True,
                          capture_output=True, timeout=60, check=False)


def test_nothing_to_do_when_the_packages_are_there(tmp_path: Path) -> None:
    """Both found: exit 0, quietly."""
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    (tmp_path / "pg" / "15" / "bin").mkdir(parents=True)
    (tmp_path / "pg" / "15" / "bin" / "initdb").write_text("")
    done = run({"CITYWATCH_CHROMIUM": str(chromium),
                "CITYWATCH_INITDB": str(tmp_path / "pg" / "*" / "bin" / "initdb")})
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_missing_package_that_cannot_be_installed_is_named(tmp_path: Path) -> None:
    """Without a package manager it can use, the set-up stops at once with one sentence that
    names every missing package and how to install it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "id", "sudo"):  # no apt-get on this PATH
        found = subprocess.run(["bash", "-c", f"command -v {tool} || true"], text=True,
                               capture_output=True, check=True).stdout.strip()
        if found:
            (bin_dir / tool).symlink_to(found)
    done = run({"PATH": str(bin_dir), "CITYWATCH_CHROMIUM": str(tmp_path / "no-chromium"),
                "CITYWATCH_INITDB": str(tmp_path / "no-pg" / "initdb")})
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "chromium postgresql" in lines[0]
    assert "sudo apt-get install chromium postgresql" in lines[0]


def test_make_test_checks_the_system_first_and_ci_only_calls_make_test() -> None:
    """``make test`` runs the check before lint, types and tests; ``.ci/run`` calls only it."""
    makefile = (ROOT / "Makefile").read_text()
    assert "test: system lint types unit" in makefile
    assert "\tscripts/system-packages" in makefile
    commands = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line and not line.startswith("#")]
    assert commands[-1] == "make test"
    assert not any("apt-get" in line for line in commands)


def test_make_play_installs_citywatch_alone_and_takes_a_port(tmp_path: Path) -> None:
    """Issue 16: ``make play`` keeps the environment lean (no test, Ray or PettingZoo extras)
    and serves on ``PORT`` when given (``make play PORT=8123``)."""
    venv = tmp_path / "venv"
    shown = subprocess.run(["make", "-n", "play", f"VENV={venv}", "PORT=8123"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    assert "pip install --quiet -e '.[compile]'\n" in shown
    assert "scripts/build_engine.py\n" in shown  # the compiled engine, or pure Python (issue 32)
    assert ".[dev" not in shown
    assert f"{venv}/bin/citywatch serve --port 8123" in shown
    full = subprocess.run(["make", "-n", "unit", f"VENV={venv}"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert "-e '.[dev,ray,env,train]'" in full
