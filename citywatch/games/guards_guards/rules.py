"""Imports every rule module, so that importing this registers all frame handlers, ops,
verbs and turn hooks (``docs/guards-guards-engine.md``)."""

import importlib

# TEMPORARY while the modules are being written in parallel: skip the missing ones.
for _name in ("harm", "luggage", "combat", "magic", "dragons", "fate", "recruit", "spells",
              "abilities", "turn", "setup", "position", "view"):
    try:
        importlib.import_module(f"citywatch.games.guards_guards.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"citywatch.games.guards_guards.{_name}":
            raise
