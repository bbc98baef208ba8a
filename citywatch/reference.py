"""The ``rules`` command: how to play a game (``Game.how_to_play()``, ``core/guide.py``), then
the entries of its rules reference, for people; or the entries of one kind, or of any kind,
called NAME (``citywatch rules GAME [KIND] NAME``).

A reference (``Game.reference()``) is a JSON object: each key whose value is a list of entries
(objects with a ``"name"``) is a section, and a kind is a section's name or its singular
(``cards`` or ``card``). An optional ``"titles"`` object names the sections' headings (else a
section's heading is its name, capitalised). Entries are printed by their fields: a few fields
have a look of their own (``id`` and ``number`` label an entry, and an entry may be looked up by
its ``number``; ``deck`` colours its name; ``symbols``, ``cost``, ``borders_river``,
``interrupt``, ...), and any other field is a ``key: value`` row. The guide's terms are the
reference's ``terms`` section (``meaning``, ``also``: other names they are found by); printed in
the guide, they are not printed again with the reference.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citywatch.core.guide import TERMS, Guide
from citywatch.core.registry import game_names, load

WIDE = 140
"""From this many columns on, the whole reference is printed as tables."""
MAX_WIDTH = 160
"""The widest the whole reference is printed."""
PANEL_WIDTH = 100
"""The widest a looked-up entry is printed."""
SHORT = 20
"""A field whose values are all at most this long is not wrapped in a table."""

_DECK_STYLES = {"green": "green", "brown": "dark_orange3"}
_LABELS = ("id", "number")
"""Fields that label an entry beside its name; the first an entry has is its label."""
_FACTS = ("id", "number", "deck", "interrupt", "borders_river")
"""Fields summed up in one line at the head of a looked-up entry, in this order."""
_BRIEF = ("deck", "interrupt", "cost", "borders_river")
"""Fields summed up after an entry's name in the narrow listing."""
_PLAIN = ("symbols", "text")
"""Fields shown without their name in the narrow listing."""

Entry = dict[str, Any]


def _fold(text: str) -> str:
    """``text`` for comparing: case, apostrophes and repeated spaces do not count."""
    return " ".join(text.replace("'", "").replace("\u2019", "").split()).casefold()


def singular(section: str) -> str:
    """The singular of a section's name: ``cards`` -> ``card``, ``personalities`` ->
    ``personality``, ``boxes`` -> ``box``; a name not ending in ``s`` is its own singular."""
    if section.endswith("ies") and len(section) > 3:
        return section[:-3] + "y"
    if section.endswith(("sses", "shes", "ches", "xes")):
        return section[:-2]
    if section.endswith("s") and not section.endswith("ss"):
        return section[:-1]
    return section


def sections(reference: dict[str, Any]) -> list[str]:
    """The reference's sections, in its order: the keys whose value is a list of entries."""
    return [key for key, value in reference.items()
            if isinstance(value, list)
            and all(isinstance(e, dict) and "name" in e for e in value)]


def kinds(reference: dict[str, Any]) -> list[str]:
    """The kinds of entries in the reference: each section's singular, in order."""
    return [singular(s) for s in sections(reference)]


def _section(reference: dict[str, Any], kind: str) -> str:
    """The section holding ``kind`` (its name or singular, any case, ``-`` for ``_``);
    ``ValueError`` listing the known kinds if none does."""
    wanted = kind.casefold().replace("-", "_")
    for section in sections(reference):
        if wanted in (section.casefold(), singular(section).casefold()):
            return section
    known = ", ".join(kinds(reference)) or "none"
    raise ValueError(f"unknown kind {kind!r}; known kinds: {known}")


def _kind(section: str) -> str:
    """A section's kind as people read it: ``action_cards`` -> ``action card``."""
    return singular(section).replace("_", " ")


def _title(reference: dict[str, Any], section: str) -> str:
    titles = reference.get("titles")
    title = titles.get(section) if isinstance(titles, dict) else None
    return str(title) if title else section.replace("_", " ").capitalize()


def _entries(reference: dict[str, Any], kind: str | None) -> list[tuple[str, Entry]]:
    chosen = sections(reference) if kind is None else [_section(reference, kind)]
    return [(_kind(s), e) for s in chosen for e in reference[s]]


def _names(entry: Entry) -> list[str]:
    """The names an entry is found by: its ``name``, then any ``also`` (a term's other
    names)."""
    also = entry.get("also")
    return [str(entry["name"]), *(str(a) for a in also)] if isinstance(also, list) \
        else [str(entry["name"])]


def _forms(query: str) -> list[str]:
    """``query`` (folded), then its last word's singular forms, if it may be a plural:
    ``saboteurs`` -> ``saboteur``, ``hexes`` -> ``hex``, ``thieves`` -> ``thief``."""
    forms = [query]
    if query.endswith("ies"):
        forms.append(query[:-3] + "y")
    if query.endswith("ves"):
        forms.append(query[:-3] + "f")
    if query.endswith("es"):
        forms.append(query[:-2])
    if query.endswith("s") and not query.endswith("ss"):
        forms.append(query[:-1])
    return forms


def _find(reference: dict[str, Any], kind: str | None, name: str) -> list[tuple[str, Entry]]:
    query = _fold(name)
    if not query:
        return []
    entries = _entries(reference, kind)
    forms = _forms(query)
    for form in forms:
        exact = [(k, e) for k, e in entries
                 if form in (_fold(n) for n in _names(e))
                 or ("number" in e and str(e["number"]) == form)]
        if exact:
            return exact
    for form in forms:
        partial = [(k, e) for k, e in entries if any(form in _fold(n) for n in _names(e))]
        if partial:
            return partial
    return []


def lookup(reference: dict[str, Any], kind: str | None, name: str) -> list[Entry]:
    """The entries of ``kind`` (``None``: any kind) called ``name``, ignoring case.

    Exact matches if there are any, else every entry whose name contains ``name``;
    apostrophes are ignored, an entry with a ``number`` may also be named by it, a term by
    any of its ``also`` names, and a plural finds the singular (``Saboteurs``, ``Hexes``).
    ``ValueError`` for a kind the reference does not have.
    """
    return [e for _, e in _find(reference, kind, name)]


def suggest(reference: dict[str, Any], kind: str | None, name: str) -> list[str]:
    """Up to three names of ``kind`` (``None``: any kind) spelled like ``name``, best first."""
    names: dict[str, str] = {}
    for _, entry in _entries(reference, kind):
        for known in _names(entry):
            names.setdefault(_fold(known), known)
    return [names[n] for n in difflib.get_close_matches(_fold(name), list(names), n=3)]


def _reference(game: str) -> dict[str, Any]:
    """The game's reference; just its name if it has none."""
    try:
        return load(game).reference()
    except NotImplementedError:
        return {"game": game}


def _guide(game: str) -> Guide | None:
    """The game's how-to-play guide, if it has one."""
    return load(game).how_to_play()


class _Name(argparse.Action):
    """Join the NAME words; refuse a KIND the game does not have, or a KIND without a NAME.
    KIND and NAME that are no kind but together name entries (``Location Dial``, ``Bored``)
    look those up in every kind."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        words = [] if values is None or isinstance(values, str) else list(values)
        setattr(namespace, self.dest, " ".join(words) if words else None)
        if namespace.kind is None:
            return
        reference = _reference(namespace.game)
        if not sections(reference):
            return  # run() says the game has no reference
        try:
            _section(reference, namespace.kind)
        except ValueError:
            anything = " ".join([namespace.kind, *words])
            if _find(reference, None, anything):
                namespace.kind = None
                setattr(namespace, self.dest, anything)
                return
            parser.error(f"argument kind: invalid choice: {namespace.kind!r} "
                         f"(choose from {', '.join(kinds(reference))})")
        if not words:
            parser.error(f"name the {namespace.kind} to look up")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "rules", help="look up the entries of a game's rules reference",
        description="Print a game's rules reference, or the entries of one kind whose name "
                    "matches NAME.")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("kind", nargs="?", metavar="KIND",
                   help="what to look up: a section of the game's reference or its singular, "
                        "as headed in 'citywatch rules GAME' (default: everything); or leave "
                        "it out and give a name of any kind, such as a term ('citywatch rules "
                        "GAME NAME')")
    p.add_argument("name", nargs="*", action=_Name, metavar="NAME",
                   help="the name, or part of it, in any case (a numbered entry also by its "
                        "number)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch rules``; return the exit status."""
    reference = _reference(args.game)
    everything = args.kind is None and not args.name
    if everything and args.json:
        print(json.dumps(reference))
        return 0
    if not sections(reference):
        if args.json:
            print(json.dumps({"matches": []}))
        print(f"citywatch rules: {args.game} has no rules reference yet", file=sys.stderr)
        return 1
    console = Console(highlight=False, markup=False, emoji=False)
    if everything:
        guide = _guide(args.game)
        if guide:
            _emit(console, guide_renderables(guide), min(console.width, PANEL_WIDTH))
        skip = (TERMS,) if guide else ()
        _emit(console, reference_renderables(reference, console.width >= WIDE, skip),
              min(console.width, MAX_WIDTH))
        return 0
    found = _find(reference, args.kind, args.name)
    if args.json:
        print(json.dumps({"matches": [e for _, e in found]}))
    if not found:
        close = suggest(reference, args.kind, args.name)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        print(f"citywatch rules: no {args.kind} called '{args.name}'{hint}", file=sys.stderr)
        return 1
    if not args.json:
        panels: list[RenderableType] = [entry_panel(kind, entry) for kind, entry in found]
        if len(found) > 1:
            section = ("entries" if args.kind is None
                       else _section(reference, args.kind).replace("_", " "))
            panels.insert(0, Text(f"{len(found)} {section} match '{args.name}'", style="dim"))
        _emit(console, panels, min(console.width, PANEL_WIDTH))
    return 0


def _emit(console: Console, renderables: list[RenderableType], width: int | None = None) -> None:
    """Print to a terminal as is; elsewhere as plain text without trailing spaces."""
    if console.is_terminal:
        for r in renderables:
            console.print(r, width=width)
        return
    with console.capture() as capture:
        for r in renderables:
            console.print(r, width=width)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in capture.get().splitlines()))


def _symbols(entry: Entry) -> str:
    return ", ".join(str(s) for s in entry["symbols"]) or "no symbols"


def _river(entry: Entry) -> str:
    return "borders the river" if entry["borders_river"] else "away from the river"


def _label(key: str) -> str:
    return key.replace("_", " ")


def _value(value: Any) -> str:
    """Any field's value as text: lists joined by commas, yes or no for a flag."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(str(k))}: {_value(v)}" for k, v in value.items())
    return "" if value is None else str(value)


def _name(entry: Entry) -> Text:
    style = _DECK_STYLES.get(str(entry.get("deck", "")), "")
    return Text().append(str(entry["name"]), style=f"bold {style}".strip())


def _fact(entry: Entry, key: str) -> str:
    """A field of the one-line summary of a looked-up entry ("" to leave it out)."""
    value = entry[key]
    if key == "number":
        return f"number {value}"
    if key == "deck":
        return f"{value} deck"
    if key == "interrupt":
        return "an interrupt" if value else ""
    if key == "borders_river":
        return _river(entry)
    return _value(value)


def _row(entry: Entry, key: str) -> Text:
    """A field of a looked-up entry, as the value of its row."""
    if key == "symbols":
        return Text(_symbols(entry), style="cyan")
    if key == "cost":
        return Text(f"${entry[key]} to build")
    return Text(_value(entry[key]))


def entry_panel(kind: str, entry: Entry) -> Panel:
    """One entry of ``kind`` in a panel: its name and every fact about it."""
    rows = Table.grid(padding=(0, 2))
    rows.add_column(style="dim", no_wrap=True)
    rows.add_column()
    facts = [f for f in (_fact(entry, k) for k in _FACTS if k in entry) if f]
    rest = [k for k in entry if k != "name" and k not in _FACTS]
    if facts:
        rows.add_row(kind, Text(", ".join(facts)))
    elif "text" in rest or "meaning" in rest:
        said = "text" if "text" in rest else "meaning"
        rows.add_row(kind, _row(entry, said))
        rest.remove(said)
    for key in rest:
        rows.add_row("also called" if key == "also" else _label(key), _row(entry, key))
    return Panel(rows, title=_name(entry), title_align="left", box=box.ROUNDED)


def guide_renderables(guide: Guide) -> list[RenderableType]:
    """A how-to-play guide (``core/guide.py``): its title and intro, then each section under
    its heading: paragraphs, bulleted lists, and the terms beside their meanings."""
    out: list[RenderableType] = [Text(str(guide["title"]), style="bold")]
    if guide.get("intro"):
        out += ["", Text(str(guide["intro"]))]
    for section in guide["sections"]:
        out += ["", Rule(Text(str(section["title"]), style="bold"), align="left"), ""]
        if section["id"] == TERMS:
            out.append(_terms_grid(section["terms"]))
            continue
        for i, block in enumerate(section["body"]):
            if i:
                out.append("")
            if isinstance(block, list):
                items = Table.grid(padding=(0, 1))
                items.add_column(no_wrap=True)
                items.add_column(ratio=1)
                for item in block:
                    items.add_row("  -", Text(str(item)))
                out.append(items)
            else:
                out.append(Text(str(block)))
    out.append("")
    return out


def _terms_grid(terms: list[Entry]) -> Table:
    """Terms in two columns: the name (and its other names), the meaning."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", max_width=26)
    grid.add_column(ratio=1)
    for term in terms:
        meaning = Text(str(term["meaning"]))
        if term.get("also"):
            meaning.append(f" (Also: {_value(term['also'])}.)", style="dim")
        grid.add_row(str(term["name"]), meaning)
    return grid


def reference_renderables(reference: dict[str, Any], wide: bool,
                          skip: Sequence[str] = ()) -> list[RenderableType]:
    """Every entry of every section but those in ``skip``: as tables if ``wide``, else as
    lists."""
    out: list[RenderableType] = [
        Text(f"{reference.get('game', '')}: rules reference", style="bold")]
    for section in sections(reference):
        if section in skip:
            continue
        entries = reference[section]
        title = Text(f"{_title(reference, section)} ({len(entries)})", style="bold")
        kind = _kind(section)
        out += ["", Rule(title, align="left"), "",
                _table(kind, entries) if wide else _list(entries)]
    return out


def _fields(entries: list[Entry]) -> list[str]:
    """Every field of ``entries``, in the order they first appear."""
    return list(dict.fromkeys(k for e in entries for k in e))


def _cell(entry: Entry, key: str) -> Text | str:
    if key == "name":
        return _name(entry)
    if key not in entry:
        return ""
    if key == "symbols":
        return _symbols(entry)
    if key == "cost":
        return f"${entry[key]}"
    return _value(entry[key])


def _add_column(table: Table, kind: str, key: str, entries: list[Entry]) -> None:
    values = [e[key] for e in entries if key in e]
    if key == "name":
        table.add_column(kind, no_wrap=True)
    elif key == "number":
        table.add_column("no.", justify="right", no_wrap=True)
    elif key == "symbols":
        table.add_column("symbols", style="cyan", max_width=30)
    elif key == "cost":
        table.add_column("cost", justify="right", no_wrap=True)
    elif key == "borders_river":
        table.add_column("river", no_wrap=True)
    elif key in ("adjacent", "power"):
        table.add_column(key, ratio=2 if key == "adjacent" else 3)
    elif all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        table.add_column(_label(key), justify="right", no_wrap=True)
    elif all(len(_value(v)) <= SHORT for v in values):
        table.add_column(_label(key), no_wrap=True)
    else:
        table.add_column(_label(key), ratio=1)


def _table(kind: str, entries: list[Entry]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, expand=True, header_style="bold dim")
    fields = _fields(entries)
    if "symbols" in fields:  # the interrupt is one of the symbols
        fields = [f for f in fields if f != "interrupt"]
    for key in fields:
        _add_column(table, kind, key, entries)
    for e in entries:
        table.add_row(*(_cell(e, key) for key in fields))
    return table


def _list(entries: list[Entry]) -> RenderableType:
    """Entries one below the other: beside their ``id`` or ``number`` if they have one."""
    bodies = []
    for e in entries:
        body = _name(e)
        label = next((k for k in _LABELS if k in e), None)
        brief = [b for b in (_brief(e, k) for k in e if k in _BRIEF) if b]
        if brief:
            body.append("  " + ", ".join(brief), style="dim")
        more = Text()
        for key in e:
            if key in ("name", label) or key in _BRIEF:
                continue
            line = _symbols(e) if key == "symbols" else _value(e[key])
            if key not in _PLAIN:
                line = f"{_label(key)}: {line}"
            more.append(("\n" if more else "") + line,
                        style="cyan" if key == "symbols" else "")
        bodies.append((str(e[label]) if label else "", body, more))
    if any(label for label, _, _ in bodies):
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True, style="dim")
        grid.add_column(ratio=1)
        for i, (label, body, more) in enumerate(bodies):
            if i:
                grid.add_row()
            grid.add_row(label, body.append("\n").append_text(more) if more else body)
        return grid
    blocks: list[RenderableType] = []
    for i, (_, body, more) in enumerate(bodies):
        if i:
            blocks.append("")
        blocks.append(body)
        if more:
            blocks.append(Padding(more, (0, 0, 0, 4)))
    return Group(*blocks)


def _brief(entry: Entry, key: str) -> str:
    """A field summed up after the name in the narrow listing ("" to leave it out)."""
    value = entry[key]
    if key == "interrupt":
        return "interrupt" if value else ""
    if key == "cost":
        return f"${value}"
    if key == "borders_river":
        return _river(entry)
    return _value(value)
