"""The words a game's screens use, for the ``? TERM`` tests (issue 26): every capitalised
term or status word in its action texts, logs, views and terminal screens, and whether
``? TERM`` finds it.

A played game gives the texts (``screen_texts``): every legal action's menu line, every seat's
log, the string values of every seat's view and the game's terminal screens (board, players,
hand, summary, outcome) drawn to plain text every few decisions. Each text is cut into cells
(lines, table columns, list items) and each cell into capitalised phrases (``phrases``):
capitalised words joined by single spaces or by ``of``, ``the``, ``de``, ``&``. A phrase is
known (``known``) when it can be cut into pieces that ``? TERM`` each finds; the first word
of a sentence may be an ordinary word (``Play``, ``Move``, ``Your``) unless the cell is the
phrase alone (a label or a column heading).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from citywatch.core.api import Game
from citywatch.reference import lookup
from citywatch.terminal.screens import screens_for

CONNECTORS = frozenset({"of", "the", "de", "&"})
WORD = r"[A-Z][a-z][\w'!+-]*|[A-Z]{2,}[a-z]*|\+[A-Z][a-z]+|d'[A-Z][a-z]+"
"""A capitalised word (``Bored``, ``Cut``, ``Sisters'``, ``d'Eath``), a word in capitals
(``EVENT``) or a symbol word (``+Card``); single capitals (``A``, ``N``) are labels, not
words."""
EMPHASIS = frozenset({"AND", "OR", "NOT", "DOES", "ALL", "ONE", "MUST", "ANY", "NO", "ONLY",
                      "CAPITALS"})
"""Ordinary words some card texts write in capitals for emphasis."""
PHRASE = re.compile(rf"(?<![\w'])(?:{WORD})(?: (?:(?:of|the|de|&) )*(?:{WORD}))*")
CELLS = re.compile(r"\n|\s{2,}|[│|·→✓✗•]")
SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)[^A-Za-z]*$")


def _render(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()
    assert isinstance(out, str)
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


class Texts:
    """What a seat reads: ``sentences`` (menu lines, log lines and the view's texts, whose
    first word may be an ordinary verb) and ``labels`` (the terminal screens)."""

    def __init__(self) -> None:
        self.sentences: set[str] = set()
        self.labels: set[str] = set()


def screen_texts(game: Game, players: int, seeds: tuple[int, ...], steps: int,
                 every: int = 20, **options: Any) -> Texts:
    """The texts of random games of ``game`` (``random.Random(seed)`` per seed, at most
    ``steps`` decisions each): menu lines, logs, views and terminal screens, the screens and
    views every ``every`` decisions and at the end."""
    screens = screens_for(game)
    summary = getattr(screens, "summary", None)
    found = Texts()
    texts = found.labels

    def look(state: Any, end: bool) -> None:
        for seat in [*range(state.players), None]:
            view = state.view(seat)
            found.sentences.update(_strings(view))
            drawn = [screens.board, screens.players] + ([screens.hand] if seat is not None
                                                         else [])
            if callable(summary):
                drawn.append(summary)
            if end:
                drawn.append(screens.outcome)
            texts.update(_render(draw(view)) for draw in drawn)

    for seed in seeds:
        state = game.new_game(players=players, seed=seed, **options)
        rng = random.Random(seed)
        for step in range(steps):
            if state.to_move is None:
                break
            actions = state.legal_actions()
            found.sentences.update(screens.label(str(a)) for a in actions)
            if step % every == 0:
                look(state, False)
            state.apply(rng.choice(actions))
        for seat in range(state.players):
            found.sentences.update(state.log(seat))
        look(state, state.to_move is None)
    return found


def phrases(text: str, sentence: bool) -> Iterator[tuple[str, bool, str]]:
    """Each capitalised phrase of ``text``: the phrase, whether its first word may be an
    ordinary word, and its cell. It may when it starts a sentence, except in a label
    (``sentence`` false, a cell not ending in a full stop) whose cell is the phrase alone (a
    heading, a status)."""
    for cell in CELLS.split(text):
        alone = re.sub(r"^[^A-Za-z+]+|[^A-Za-z!']+$", "", cell)
        label = not sentence and not cell.rstrip().endswith(".")
        for match in PHRASE.finditer(cell):
            phrase = match.group(0)
            opening = bool(SENTENCE_START.search(cell[:match.start()]))
            yield phrase, opening and (not label or phrase != alone), cell.strip()


def _whole_words(query: str, entry: dict[str, Any]) -> bool:
    """Whether one of the entry's names holds ``query`` (or its singular) as whole words."""
    names = [entry["name"], *entry.get("also", [])]
    folded = [" " + re.sub(r"[^\w&+$]+", " ", str(n).replace("'", "")).casefold() + " "
              for n in names]
    q = re.sub(r"[^\w&+$]+", " ", query.replace("'", "")).casefold().strip()
    forms = {q, re.sub(r"ies$", "y", q), re.sub(r"ves$", "f", q), re.sub(r"es$", "", q),
             re.sub(r"s$", "", q)}
    return any(f" {form} " in name for form in forms if form for name in folded)


class Finder:
    """``? TERM`` on one reference, remembering its answers."""

    def __init__(self, reference: dict[str, Any]) -> None:
        self.reference = reference
        self.answers: dict[str, bool] = {}

    def found(self, words: list[str]) -> bool:
        """Whether ``? TERM`` finds these words (with or without a possessive or a closing
        ``!``) as a whole name or whole words of one (``Marker`` in ``Thief Marker``, not
        ``Tr`` in ``Trouble``)."""
        text = " ".join(words).rstrip("!")
        for query in dict.fromkeys((text, re.sub(r"'s?$", "", text))):
            if not query:
                continue
            if query not in self.answers:
                self.answers[query] = any(_whole_words(query, e)
                                          for e in lookup(self.reference, None, query))
            if self.answers[query]:
                return True
        return False

    def known(self, phrase: str, opening: bool) -> bool:
        """Whether ``phrase`` can be cut into pieces ``? TERM`` finds (connectors between
        pieces left out; the first word left out too if ``opening``)."""
        words = phrase.split(" ")
        if opening and len(words) == 1:
            return True
        for first in [0, 1] if opening else [0]:
            reach = {first}
            for i in range(first, len(words)):
                if i not in reach:
                    continue
                if words[i] in CONNECTORS:
                    reach.add(i + 1)
                    continue
                for j in range(i + 1, len(words) + 1):
                    if words[j - 1] not in CONNECTORS and self.found(words[i:j]):
                        reach.add(j)
            if len(words) in reach:
                return True
        return False


def unknown_terms(reference: dict[str, Any], texts: Texts,
                  ignore: frozenset[str] = frozenset()) -> dict[str, str]:
    """Every phrase of ``texts`` that ``? TERM`` does not find, with a cell it is in;
    phrases in ``ignore`` or part of one of them (the game's own title) are left out."""
    missing: dict[str, str] = {}
    finder = Finder(reference)
    verdicts: dict[tuple[str, bool], bool] = {}
    every = [(t, True) for t in texts.sentences] + [(t, False) for t in texts.labels]
    for text, sentence in every:
        for phrase, opening, cell in phrases(text, sentence):
            if any(phrase in i for i in ignore) or phrase in EMPHASIS or phrase in missing:
                continue
            key = (phrase, opening)
            if key not in verdicts:
                verdicts[key] = finder.known(phrase, opening)
            if not verdicts[key]:
                missing[phrase] = cell
    return missing
