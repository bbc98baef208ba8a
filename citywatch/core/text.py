"""Text that one person sends and others see (player names, deck and scenario names and
descriptions): one rule for all of it (issue 16 for names, issue 24 for the rest).

A shown text is a string, stripped and in Unicode NFC form, of ``shortest`` to ``longest``
characters, with no character of the categories in ``HIDDEN``: control characters (NUL, line
breaks), format characters (right-to-left overrides, zero-width marks), surrogates and line
or paragraph separators, which could hide or disguise what others read.
"""

from __future__ import annotations

import unicodedata
from typing import Any

SHOWN_TITLE = 60
"""The most characters of a document's name shown as its title (``title_of``)."""
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories a shown text may not hold: control, format (bidirectional overrides,
zero-width marks), surrogates, line and paragraph separators."""


class TextError(ValueError):
    """A shown text that breaks the rule; the message is one sentence naming the field."""


def clean_text(raw: Any, who: str, longest: int, shortest: int = 1) -> str:
    """``raw`` stripped and in NFC form if it keeps the rule (a string of ``shortest`` to
    ``longest`` characters, none of category ``HIDDEN``); else ``TextError`` in one sentence
    starting with ``who`` (``"the deck's name"``). The characters are looked at one by one
    only once the length is right, so a long text costs little to refuse."""
    if not isinstance(raw, str):
        raise TextError(f"{who} must be text")
    text = unicodedata.normalize("NFC", raw.strip())
    if not shortest <= len(text) <= longest:
        raise TextError(f"{who} must have {shortest} to {longest} characters, not {len(text)}")
    if any(unicodedata.category(c) in HIDDEN for c in text):
        raise TextError(f"{who} may not hold control or invisible formatting characters")
    return text


def text_problem(raw: Any, who: str, longest: int, shortest: int = 1) -> str | None:
    """The sentence saying how ``raw`` breaks the rule of ``clean_text``, or None if it keeps
    it."""
    try:
        clean_text(raw, who, longest, shortest)
    except TextError as exc:
        return str(exc)
    return None


def title_of(doc: Any, otherwise: str) -> str:
    """A JSON document's ``"name"`` (else its ``"id"``) to show as its title, cleaned, if it
    keeps the rule of ``clean_text`` within ``SHOWN_TITLE`` characters; else ``otherwise``
    (a scenario or deck that breaks the rule is named without repeating its text)."""
    if isinstance(doc, dict):
        for key in ("name", "id"):
            try:
                return clean_text(doc.get(key), key, SHOWN_TITLE)
            except TextError:
                continue
    return otherwise
