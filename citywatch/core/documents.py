"""Size limits of the JSON documents people upload (a scenario, a deck), checked before any
rule of the game is: one walk over the document that stops as soon as a limit is broken, so
the largest document a server accepts (its body limit) costs little to refuse (issue 24)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DocumentLimits:
    """The size limits of one kind of document: at most ``chars`` characters of compact JSON,
    lists and objects at most ``depth`` deep (the document itself is depth 1), and no string
    (key or value) longer than ``string`` characters. ``what`` names the document in
    messages ("a scenario")."""

    what: str
    chars: int
    depth: int
    string: int

    def problems(self, doc: Any) -> list[str]:
        """Each limit ``doc`` breaks, one sentence each starting ``limit:`` (empty: within
        every limit). Costs at most about ``chars`` steps, however large ``doc`` is."""
        found: list[str] = []
        size = longest = 0
        level: list[Any] = [doc]
        depth = 0
        while level and size <= self.chars:  # one level of nesting at a time
            depth += 1
            inside: list[Any] = []
            for value in level:
                if isinstance(value, str):
                    size += len(value) + 2
                    longest = max(longest, len(value))
                elif isinstance(value, dict | list):
                    size += 1 + max(len(value), 1)  # brackets and commas
                    if size > self.chars:
                        break
                    if isinstance(value, dict):
                        keys = [str(key) for key in value]
                        size += sum(map(len, keys)) + 3 * len(keys)  # quotes and colons
                        longest = max(longest, *map(len, keys), 0)
                        inside.extend(value.values())
                    else:
                        inside.extend(value)
                elif isinstance(value, bool) or value is None:
                    size += 5
                elif isinstance(value, int):
                    size += value.bit_length() * 3 // 10 + 2  # digits, no str() of a huge one
                else:
                    size += 24
            if depth >= self.depth and size <= self.chars and any(
                    isinstance(value, dict | list) for value in inside):
                found.append(f"limit: {self.what} nests lists and objects at most "
                             f"{self.depth} deep")
                break
            level = inside
        if size > self.chars:
            found.append(f"limit: {self.what} holds at most {self.chars} characters of "
                         f"JSON, and this one holds more")
        if longest > self.string:
            found.append(f"limit: a text in {self.what} holds at most {self.string} "
                         f"characters, not {longest}")
        return found
