"""Rewrite ``@handler``-decorated classes as ``class X(Handler): ...`` followed by ``handler(X)``.

mypyc makes any class with a decorator a non-extension class, and a non-extension class may not
inherit from the compiled ``Handler``; calling the (identity-returning) decorator after the class
registers it the same way. Usage: ``python scripts/undecorate_handlers.py FILE...``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def rewrite(path: Path) -> int:
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    edits: list[tuple[int, int, str]] = []  # (decorator line, class end line, name)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and len(node.decorator_list) == 1:
            dec = node.decorator_list[0]
            if isinstance(dec, ast.Name) and dec.id == "handler":
                assert node.end_lineno is not None
                edits.append((dec.lineno, node.end_lineno, node.name))
    for dec_line, end_line, name in reversed(edits):
        lines.insert(end_line, f"\n\nhandler({name})\n")
        assert lines[dec_line - 1].strip() == "@handler"
        del lines[dec_line - 1]
    path.write_text("".join(lines))
    return len(edits)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(arg, rewrite(Path(arg)))
