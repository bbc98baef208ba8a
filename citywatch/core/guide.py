"""How to play a game: a short guide for people new to it, kept as data in the game's folder
(``Game.how_to_play()``), and its terms, which ``? TERM`` and ``citywatch rules`` look up.

A guide is a JSON object::

    {"title": "How to play ...", "intro": "one paragraph",
     "sections": [{"id": "setup", "title": "Set-up", "body": [...]},
                  {"id": "turn", ...}, {"id": "winning", ...},
                  {"id": "terms", "title": "Terms", "terms": [{"name": ..., "meaning": ...}]}]}

Every guide has the sections ``REQUIRED`` (set-up, a turn, how to win, the terms), in that order,
and may have others between them. A section's ``body`` is a list of blocks: a string is a
paragraph, a list of strings a bulleted list. A term has a ``name``, a ``meaning`` (sentences)
and may have ``also``, other names it is known by (a short form on a screen, a long form on a
card). Interfaces read a guide only through this module.
"""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

Guide = dict[str, Any]
REQUIRED = ("setup", "turn", "winning", "terms")
"""The sections every guide has, in this order: set-up, a turn, how to win, the terms."""
TERMS = "terms"
"""The guide's section of terms, and the reference's section they are looked up in."""


class GuideError(ValueError):
    """A guide that breaks the format above; the message says where."""


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GuideError(f"{where} must be a non-empty string")
    return value


def _body(body: Any, where: str) -> None:
    if not isinstance(body, list) or not body:
        raise GuideError(f"{where} must be a non-empty list of paragraphs and lists")
    for i, block in enumerate(body):
        if isinstance(block, list):
            if not block:
                raise GuideError(f"{where}[{i}] is an empty list")
            for j, item in enumerate(block):
                _text(item, f"{where}[{i}][{j}]")
        else:
            _text(block, f"{where}[{i}]")


def _terms(terms: Any, where: str) -> None:
    if not isinstance(terms, list) or not terms:
        raise GuideError(f"{where} must be a non-empty list of terms")
    seen: set[str] = set()
    for i, term in enumerate(terms):
        if not isinstance(term, dict) or set(term) - {"name", "meaning", "also"}:
            raise GuideError(f"{where}[{i}] must be an object with name, meaning and also")
        names = [_text(term.get("name"), f"{where}[{i}].name")]
        _text(term.get("meaning"), f"{where}[{i}].meaning")
        also = term.get("also", [])
        if not isinstance(also, list):
            raise GuideError(f"{where}[{i}].also must be a list of names")
        names += [_text(a, f"{where}[{i}].also") for a in also]
        for name in names:
            if name.casefold() in seen:
                raise GuideError(f"{where}: the term {name!r} is named twice")
            seen.add(name.casefold())


def check_guide(guide: Any) -> Guide:
    """``guide`` if it keeps the format of this module; ``GuideError`` saying where not."""
    if not isinstance(guide, dict):
        raise GuideError("a guide must be a JSON object")
    _text(guide.get("title"), "title")
    if "intro" in guide:
        _text(guide["intro"], "intro")
    sections = guide.get("sections")
    if not isinstance(sections, list):
        raise GuideError("sections must be a list")
    ids = []
    for i, section in enumerate(sections):
        where = f"sections[{i}]"
        if not isinstance(section, dict):
            raise GuideError(f"{where} must be an object")
        ids.append(_text(section.get("id"), f"{where}.id"))
        _text(section.get("title"), f"{where}.title")
        if section["id"] == TERMS:
            _terms(section.get("terms"), f"{where}.terms")
        else:
            _body(section.get("body"), f"{where}.body")
    if len(set(ids)) != len(ids):
        raise GuideError("two sections have the same id")
    if [i for i in ids if i in REQUIRED] != list(REQUIRED):
        raise GuideError(f"the sections must include {', '.join(REQUIRED)}, in that order")
    return guide


def load_guide(source: Path | Traversable) -> Guide:
    """The guide in the JSON file ``source``, checked (``GuideError`` if it breaks the
    format)."""
    return check_guide(json.loads(source.read_text(encoding="utf-8")))


def terms(guide: Guide | None) -> list[dict[str, Any]]:
    """The guide's terms, in its order (none without a guide)."""
    if not guide:
        return []
    return next(s["terms"] for s in guide["sections"] if s["id"] == TERMS)


def with_terms(reference: dict[str, Any], guide: Guide | None) -> dict[str, Any]:
    """``reference`` (``Game.reference()``) with the guide's terms as its last section,
    ``terms`` (kind ``term``), so ``? TERM`` and ``citywatch rules GAME term NAME`` find them."""
    found = terms(guide)
    if not found:
        return reference
    titles = dict(reference.get("titles") or {})
    titles[TERMS] = "Terms"
    return {**reference, TERMS: [dict(t) for t in found], "titles": titles}


def is_term(entry: dict[str, Any]) -> bool:
    """Whether a reference entry is a term of a guide (it has a ``meaning``)."""
    return "meaning" in entry


def term_text(entry: dict[str, Any]) -> str:
    """A term's meaning as one text, its other names after it: ``... (Also: Build.)``."""
    also = entry.get("also") or []
    return str(entry["meaning"]) + (f" (Also: {', '.join(map(str, also))}.)" if also else "")
