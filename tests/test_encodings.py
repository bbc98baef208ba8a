"""Every game's PettingZoo encoding: its module's docstring gives its layout exactly, and its
version rises whenever the layout changes (``encodings.json`` pins each version's fingerprint).

The pins map a game to ``{version: fingerprint}`` (``Encoding.fingerprint()``, a hash of
``Encoding.layout()``). A layout changed under the same version fails here; so does a raised
version without a pin. Nothing here names a game: each test runs for every registered game
that has an encoding.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import citywatch
from citywatch.core.presentation import Encoding
from citywatch.core.registry import game_names
from citywatch.env import pettingzoo_env

PINS = Path(__file__).resolve().parent / "encodings.json"
ENCODED = [name for name in game_names() if citywatch.load(name).encoding() is not None]


def versions(game: str) -> list[int]:
    """Every layout version ``game`` builds, 0 to its newest."""
    newest = encoding_of(game).version
    return list(range(newest + 1))


def encoding_of(game: str, version: int | None = None) -> Encoding:
    found = citywatch.load(game).encoding(version)
    assert found is not None
    return found


LAYOUTS = [(game, version) for game in ENCODED for version in versions(game)]
_OBS_HEADER = re.compile(r"^ {4}block +start +size +(?:max|scale) +what$")
_ACT_HEADER = re.compile(r"^ {4}verb +start +size +values$")
_OBS_ROW = re.compile(r"^ {4}(\w+) +(\d+) +(\d+) +(\d+(?:\.\d+)?)(?: |$)")
_ACT_ROW = re.compile(r"^ {4}(\w+) +(\d+) +(\d+)(?: |$)")


def module_doc(encoding: Encoding) -> tuple[str, str]:
    """The name and docstring of the module that builds ``encoding``'s observation."""
    name = encoding.observation.__module__
    return name, sys.modules[name].__doc__ or ""


def documented(doc: str) -> tuple[list[tuple[str, int, int, str]], list[tuple[str, int, int]]]:
    """The rows of a docstring's observation table (name, start, size, max) and of its action
    table (verb, start, size); a table runs from its header line to the next header."""
    blocks: list[tuple[str, int, int, str]] = []
    verbs: list[tuple[str, int, int]] = []
    table = None
    for line in doc.splitlines():
        if _OBS_HEADER.match(line):
            table = "observation"
        elif _ACT_HEADER.match(line):
            table = "actions"
        elif table == "observation" and (row := _OBS_ROW.match(line)):
            blocks.append((row[1], int(row[2]), int(row[3]), row[4]))
        elif table == "actions" and (act := _ACT_ROW.match(line)):
            verbs.append((act[1], int(act[2]), int(act[3])))
    return blocks, verbs


def number(value: float) -> str:
    """A block's max as the docstring writes it."""
    return str(int(value)) if float(value).is_integer() else str(value)


def pins() -> dict[str, dict[str, str]]:
    loaded: Any = json.loads(PINS.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_every_game_with_an_encoding_is_checked() -> None:
    assert ENCODED, "no registered game has an encoding"
    assert sorted(pins()) == sorted(ENCODED), (
        f"{PINS.name} pins {sorted(pins())} but the games with an encoding are {ENCODED}: "
        f"pin each one's fingerprint under its version, and drop games that have none")


def test_every_version_builds_and_a_missing_one_is_refused() -> None:
    for game in ENCODED:
        for version in versions(game):
            assert encoding_of(game, version).version == version
        newest = versions(game)[-1]
        assert encoding_of(game).version == newest
        for wrong in (newest + 1, -1, "1", True):
            with pytest.raises(ValueError, match="versions"):
                citywatch.load(game).encoding(wrong)  # type: ignore[arg-type]


def limits(enc: Encoding) -> Any:
    """Each number's documented max: its scale when the encoding is scaled, else its high."""
    return enc.observation_high if enc.scale is None else enc.scale


@pytest.mark.parametrize(("game", "version"), LAYOUTS)
def test_blocks_and_verbs_tile_the_vector_and_the_action_space(game: str, version: int) -> None:
    enc = encoding_of(game, version)
    high = limits(enc)
    at = 0
    for name, (start, size) in enc.blocks.items():
        assert start == at, f"{game}: block {name} starts at {start}, not right after the last"
        assert size > 0, f"{game}: block {name} is empty"
        assert len({float(h) for h in high[start:start + size]}) == 1, (
            f"{game}: block {name}'s numbers have different maxima; the layout gives one")
        at += size
    assert at == len(high), f"{game}: the blocks cover {at} of {len(high)} numbers"
    at = 0
    for verb, (start, stop) in enc.verbs.items():
        assert start == at < stop, f"{game}: verb {verb}'s actions are not the next ones"
        at = stop
    assert at == len(enc.actions), f"{game}: the verbs cover {at} of {len(enc.actions)} actions"


@pytest.mark.parametrize(("game", "version"), LAYOUTS)
def test_the_module_docstring_gives_the_layout(game: str, version: int) -> None:
    enc = encoding_of(game, version)
    module, doc = module_doc(enc)
    blocks, verbs = documented(doc)
    high = limits(enc)
    assert blocks == [(name, start, size, number(high[start]))
                      for name, (start, size) in enc.blocks.items()], (
        f"the observation table in {module}'s docstring is not the code's layout "
        f"(name, start, size, max per block); bring it up to date")
    code = [(verb, start, stop - start) for verb, (start, stop) in enc.verbs.items()]
    if not verbs and version > 0:  # the same actions as layout 0, whose table is not repeated
        zero = encoding_of(game, 0)
        assert "layout 0" in doc and enc.verbs == zero.verbs, (
            f"{module}'s docstring has no action table: it must say its actions are layout "
            f"0's (and be so), or give its own table")
        table_module, table_doc = module_doc(zero)
        verbs = documented(table_doc)[1]
    else:
        table_module = module
    assert verbs == code, (
        f"the action table in {table_module}'s docstring is not the code's (verb, start, "
        f"size); bring it up to date")
    for size in (len(high), len(enc.actions), *enc.heads):
        assert str(size) in doc or f"{size:,}" in doc, f"{module}'s docstring never says {size}"
    if enc.scale is not None:
        assert all(0.0 <= h <= 1.0 for h in enc.observation_high), (
            f"{game} v{version} says it is scaled but its observation goes past 1")


SCALED = [(game, version, players) for game, version in LAYOUTS
          if encoding_of(game, version).scale is not None
          for players in sorted({citywatch.load(game).min_players,
                                 citywatch.load(game).max_players})]


@pytest.mark.parametrize(("game", "version", "players"), SCALED)
def test_a_scaled_layout_stays_in_0_1_through_the_environment(game: str, version: int,
                                                              players: int) -> None:
    """Seeded random games (100 steps or more in all) through ``pettingzoo_env(version=...)``:
    every observation of every agent lies in [0, 1] and in its space, at the fewest and the
    most players."""
    env = pettingzoo_env(game, players=players, version=version)
    rng = np.random.default_rng(players)
    steps = games = 0
    while steps < 100:
        env.reset(seed=games)
        games += 1
        for agent in env.agent_iter(max_iter=400):
            obs, _, terminated, truncated, _ = env.last()
            vector = obs["observation"]
            assert env.observation_space(agent).contains(obs), (game, version, agent, steps)
            assert vector.min() >= 0.0 and vector.max() <= 1.0
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1


@pytest.mark.parametrize(("game", "version"), LAYOUTS)
def test_the_layout_is_pinned_under_its_version(game: str, version: int) -> None:
    enc = encoding_of(game, version)
    module, _ = module_doc(enc)
    version, found = enc.version, enc.fingerprint()
    pinned = pins().get(game, {})
    raise_it = (f"raise VERSION in {module} to {version + 1} and pin "
                f'"{version + 1}": "{found}" under "{game}" in tests/{PINS.name}')
    assert str(version) in pinned, (
        f"{game}'s encoding version {version} has no pinned fingerprint: add "
        f'"{version}": "{found}" under "{game}" in tests/{PINS.name}')
    assert pinned[str(version)] == found, (
        f"{game}'s encoding layout changed (fingerprint {found}, pinned {pinned[str(version)]} "
        f"for version {version}) but its version did not: {raise_it}")
    newest = versions(game)[-1]
    assert sorted(map(int, pinned)) == list(range(newest + 1)), (
        f"{game}'s pins are for versions {sorted(map(int, pinned))}: a version rises by one, "
        f"and each keeps its pin (the encoding is at version {newest})")


@pytest.mark.parametrize(("game", "version"), LAYOUTS)
def test_the_environment_is_named_after_the_version(game: str, version: int) -> None:
    enc = encoding_of(game, version)
    env = pettingzoo_env(game, players=citywatch.load(game).min_players, version=version)
    assert env.metadata["name"] == f"citywatch_{game.replace('-', '_')}_v{enc.version}"
    assert env.metadata["encoding_fingerprint"] == enc.fingerprint()


@pytest.mark.parametrize(("game", "version"), LAYOUTS)
def test_the_guide_names_the_environment_and_its_sizes(game: str, version: int) -> None:
    enc = encoding_of(game, version)
    name = f"citywatch_{game.replace('-', '_')}_v{enc.version}"
    guide = Path(__file__).resolve().parent.parent / "docs" / "pettingzoo.md"
    rows = [line for line in guide.read_text(encoding="utf-8").splitlines() if name in line]
    assert rows, f"docs/pettingzoo.md's table of encodings has no row for {name}"
    cells = [cell.strip() for cell in rows[0].split("|")]
    assert f"{len(enc.observation_high):,}" in cells and f"{len(enc.actions):,}" in cells, (
        f"docs/pettingzoo.md's row for {name} does not give its sizes")


def test_a_fingerprint_follows_every_part_of_the_layout() -> None:
    """A block or verb moved, resized, renamed or rescaled, a scale or a head changed: a new
    fingerprint; the version alone: the same one."""
    enc = encoding_of(ENCODED[0], 0)
    first, (start, size) = next(iter(enc.blocks.items()))
    verb, (begin, stop) = next(iter(enc.verbs.items()))
    rescaled = enc.observation_high.copy()
    rescaled[start] += 1
    scale = [float(h) for h in enc.observation_high]
    others = [
        replace(enc, blocks={**enc.blocks, first: (start, size + 1)}),
        replace(enc, blocks={f"{first}_renamed" if n == first else n: where
                             for n, where in enc.blocks.items()}),
        replace(enc, observation_high=rescaled),
        replace(enc, verbs={**enc.verbs, verb: (begin, stop + 1)}),
        replace(enc, scale=scale),
        replace(enc, heads=(3, 4)),
    ]
    prints = [other.fingerprint() for other in others]
    assert enc.fingerprint() not in prints and len(set(prints)) == len(prints)
    halved = replace(others[4], scale=[h / 2 or 1.0 for h in scale])
    assert halved.fingerprint() != others[4].fingerprint()
    assert replace(others[5], heads=(4, 3)).fingerprint() != others[5].fingerprint()
    assert replace(enc, version=enc.version + 1).fingerprint() == enc.fingerprint()
