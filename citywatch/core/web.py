"""Writing a game's browser facts (``web/board.json`` and the like), which its ``make_web``
module builds and its ``web/board.js`` reads.

The text is stable and reads well in a diff: one top-level key a line, except that a list of
objects puts each object on a line of its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def render_facts(facts: Mapping[str, Any]) -> str:
    """The JSON text of ``facts``: one key a line (a non-empty list of objects one object a
    line), non-ASCII kept as it is, ending in a newline."""
    parts = []
    for key, value in facts.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            rows = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in value)
            parts.append(f"{json.dumps(key)}: [\n{rows}\n]")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def write_facts(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (making its folder if need be) and say so."""
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
