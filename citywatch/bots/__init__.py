"""Bots: they talk only to the core API and see only their seat's observation.

A bot is named by a spec: ``random``, ``heuristic``, ``ismcts:iterations=500:depth=10``, or
by a difficulty level a player understands, ``easy``, ``normal`` or ``hard``: the spec each game
names for it (``Game.level_spec``).
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from citywatch.bots.base import Bot, Observation
from citywatch.bots.ismcts import ISMCTSBot
from citywatch.bots.random_bot import RandomBot
from citywatch.core.registry import load

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "ismcts": ISMCTSBot,
}


LEVELS = ("easy", "normal", "hard")
"""The difficulty levels, weakest first."""


def bot_names(game: str) -> list[str]:
    """Every bot name usable for ``game``: the levels, then the bots by name."""
    return [*LEVELS, *sorted({*BOTS, *load(game).bots()})]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``'ismcts:iterations=500:depth=8'`` -> ``('ismcts', {'iterations': 500, 'depth': 8})``."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot option {part!r} in {spec!r} must look like key=value")
        value: Any = raw
        for kind in (int, float):
            try:
                value = kind(raw)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return name.strip().lower(), options


def _literal(node: ast.expr) -> Any:
    """A default written as a literal (``300``, ``-1``, ``"random"``), else None."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def option_defaults(factory: Callable[..., Bot]) -> dict[str, Any]:
    """The default of each keyword of a bot's constructor: from its signature, or for a class
    compiled by mypyc (whose methods have none) from its ``.py`` source beside the module."""
    try:
        parameters = inspect.signature(factory).parameters
        return {name: p.default for name, p in parameters.items()
                if p.default is not inspect.Parameter.empty}
    except (TypeError, ValueError):
        pass
    module = sys.modules.get(getattr(factory, "__module__", ""))
    compiled = Path(getattr(module, "__file__", "") or "")
    suffix = next((s for s in EXTENSION_SUFFIXES if compiled.name.endswith(s)), None)
    if suffix is None:
        return {}
    source = compiled.with_name(compiled.name.removesuffix(suffix) + ".py")
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == getattr(factory, "__name__", None):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    arguments = item.args.args[len(item.args.args) - len(item.args.defaults):]
                    return {a.arg: _literal(d) for a, d in
                            zip(arguments, item.args.defaults, strict=True)}
    return {}


def check_option_kinds(name: str, factory: Callable[..., Bot], options: dict[str, Any]) -> None:
    """``ValueError`` naming the option if a value is not of the kind its default is (a whole
    number, a number or a word)."""
    defaults = option_defaults(factory)
    for key, value in options.items():
        default = defaults.get(key)
        if isinstance(default, bool) or default is None or default is inspect.Parameter.empty:
            continue
        if isinstance(default, int) and not isinstance(value, int):
            raise ValueError(f"bot {name!r}: {key} must be a whole number, not {value!r}")
        if isinstance(default, float) and not isinstance(value, int | float):
            raise ValueError(f"bot {name!r}: {key} must be a number, not {value!r}")
        if isinstance(default, str) and not isinstance(value, str):
            options[key] = str(value)


def make_bot(spec: str, game: str) -> Bot:
    """A new bot from its spec; ``ValueError`` naming the problem if it is unknown or wrong."""
    name, options = parse_spec(spec)
    g = load(game)
    if name in LEVELS:
        level = g.level_spec(name)
        if options:
            raise ValueError(f"the level {name!r} takes no options (it is {level})")
        return make_bot(level, game)
    factories: dict[str, Callable[..., Bot]] = {**BOTS, **g.bots()}
    if name not in factories:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names(game))}")
    allowed: tuple[str, ...] = getattr(factories[name], "OPTIONS", ())
    for key in options:
        if key not in allowed:
            takes = f"takes only {', '.join(allowed)}" if allowed else "takes no options"
            raise ValueError(f"bot {name!r} {takes}, not {key!r}")
    check_option_kinds(name, factories[name], options)
    if name == "ismcts":
        options = {**g.search_options, **options}
        options.setdefault("evaluator", g.evaluate)
        if options.get("playout") == "heuristic" and "heuristic" in g.bots():
            heuristic = g.bots()["heuristic"]
            options.setdefault("policy", heuristic(**getattr(heuristic, "PLAYOUT", {})))
    try:
        bot: Bot = factories[name](**options)
    except (TypeError, OverflowError) as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
    return bot


__all__ = ["BOTS", "LEVELS", "Bot", "ISMCTSBot", "Observation", "RandomBot", "bot_names",
           "make_bot", "parse_spec"]
