"""The ``rules`` command: a game's cards, areas, events and personalities, for people."""

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

from citywatch.core.registry import game_names, load

KINDS = ("card", "area", "event", "personality")
SECTIONS = {"card": "cards", "area": "areas", "event": "events", "personality": "personalities"}
WIDE = 140
"""From this many columns on, the whole reference is printed as tables."""
MAX_WIDTH = 160
"""The widest the whole reference is printed."""
PANEL_WIDTH = 100
"""The widest a looked-up entry is printed."""

_TITLES = {"card": "Cards", "area": "City areas", "event": "Random events",
           "personality": "Personalities"}
_DECK_STYLES = {"green": "green", "brown": "dark_orange3"}

Entry = dict[str, Any]


def _fold(text: str) -> str:
    """``text`` for comparing: case, apostrophes and repeated spaces do not count."""
    return " ".join(text.replace("'", "").replace("\u2019", "").split()).casefold()


def _entries(reference: dict[str, Any], kind: str | None) -> list[tuple[str, Entry]]:
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; known kinds: {', '.join(KINDS)}")
    kinds = KINDS if kind is None else (kind,)
    return [(k, e) for k in kinds for e in reference.get(SECTIONS[k], [])]


def _find(reference: dict[str, Any], kind: str | None, name: str) -> list[tuple[str, Entry]]:
    query = _fold(name)
    if not query:
        return []
    entries = _entries(reference, kind)
    exact = [(k, e) for k, e in entries
             if _fold(e["name"]) == query or (k == "area" and str(e["number"]) == query)]
    return exact or [(k, e) for k, e in entries if query in _fold(e["name"])]


def lookup(reference: dict[str, Any], kind: str | None, name: str) -> list[Entry]:
    """The entries of ``kind`` (``None``: any kind) called ``name``, ignoring case.

    Exact matches if there are any, else every entry whose name contains ``name``;
    apostrophes are ignored and an area may also be named by its number.
    ``ValueError`` for an unknown kind.
    """
    return [e for _, e in _find(reference, kind, name)]


def suggest(reference: dict[str, Any], kind: str | None, name: str) -> list[str]:
    """Up to three names of ``kind`` (``None``: any kind) spelled like ``name``, best first."""
    names: dict[str, str] = {}
    for _, entry in _entries(reference, kind):
        names.setdefault(_fold(entry["name"]), entry["name"])
    return [names[n] for n in difflib.get_close_matches(_fold(name), list(names), n=3)]


class _Name(argparse.Action):
    """Join the NAME words; refuse a KIND without a NAME."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        words = [] if values is None or isinstance(values, str) else list(values)
        if namespace.kind is not None and not words:
            parser.error(f"name the {namespace.kind} to look up")
        setattr(namespace, self.dest, " ".join(words) if words else None)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` subcommand to ``subparsers``."""
    p = subparsers.add_parser(
        "rules", help="look up cards, areas, events and personalities",
        description="Print a game's cards, city areas, random events and personalities, "
                    "or the entries of one kind whose name matches NAME.")
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("kind", nargs="?", choices=KINDS, help="what to look up (default: everything)")
    p.add_argument("name", nargs="*", action=_Name, metavar="NAME",
                   help="the name, or part of it, in any case (an area also by its number)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch rules``; return the exit status."""
    try:
        reference = load(args.game).reference()
    except NotImplementedError:
        print(f"citywatch rules: {args.game} has no rules reference yet", file=sys.stderr)
        return 1
    console = Console(highlight=False, markup=False, emoji=False)
    if args.kind is None:
        if args.json:
            print(json.dumps(reference))
        else:
            _emit(console, reference_renderables(reference, console.width >= WIDE),
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
            heading = f"{len(found)} {SECTIONS[args.kind]} match '{args.name}'"
            panels.insert(0, Text(heading, style="dim"))
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


def _symbols(card: Entry) -> str:
    return ", ".join(card["symbols"]) or "no symbols"


def _river(area: Entry) -> str:
    return "borders the river" if area["borders_river"] else "away from the river"


def _name(entry: Entry, kind: str) -> Text:
    style = _DECK_STYLES.get(entry.get("deck", ""), "") if kind == "card" else ""
    return Text().append(entry["name"], style=f"bold {style}".strip())


def entry_panel(kind: str, entry: Entry) -> Panel:
    """One entry of ``kind`` in a panel: its name and every fact about it."""
    rows = Table.grid(padding=(0, 2))
    rows.add_column(style="dim", no_wrap=True)
    rows.add_column()
    if kind == "card":
        interrupt = ", an interrupt" if entry["interrupt"] else ""
        rows.add_row("card", Text(f"{entry['id']}, {entry['deck']} deck{interrupt}"))
        rows.add_row("symbols", Text(_symbols(entry), style="cyan"))
        rows.add_row("text", Text(entry["text"]))
    elif kind == "area":
        rows.add_row("area", Text(f"number {entry['number']}, {_river(entry)}"))
        rows.add_row("cost", Text(f"${entry['cost']} to build"))
        rows.add_row("adjacent", Text(", ".join(entry["adjacent"])))
        rows.add_row("power", Text(entry["power"]))
    elif kind == "event":
        rows.add_row("event", Text(entry["text"]))
    else:
        rows.add_row("wins if", Text(entry["wins_if"]))
    return Panel(rows, title=_name(entry, kind), title_align="left", box=box.ROUNDED)


def reference_renderables(reference: dict[str, Any], wide: bool) -> list[RenderableType]:
    """Every card, area, event and personality: as tables if ``wide``, else as entries."""
    out: list[RenderableType] = [Text(f"{reference['game']}: rules reference", style="bold")]
    for kind in KINDS:
        entries = reference[SECTIONS[kind]]
        title = Text(f"{_TITLES[kind]} ({len(entries)})", style="bold")
        out += ["", Rule(title, align="left"), "",
                _table(kind, entries) if wide else _list(kind, entries)]
    return out


def _table(kind: str, entries: list[Entry]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, expand=True, header_style="bold dim")
    if kind == "card":
        table.add_column("id", no_wrap=True)
        table.add_column("card", no_wrap=True)
        table.add_column("deck", no_wrap=True)
        table.add_column("symbols", style="cyan", max_width=30)
        table.add_column("text", ratio=1)
        for e in entries:
            table.add_row(e["id"], _name(e, kind), e["deck"], _symbols(e), e["text"])
    elif kind == "area":
        table.add_column("no.", justify="right", no_wrap=True)
        table.add_column("area", no_wrap=True)
        table.add_column("cost", justify="right", no_wrap=True)
        table.add_column("adjacent", ratio=2)
        table.add_column("river", no_wrap=True)
        table.add_column("power", ratio=3)
        for e in entries:
            table.add_row(str(e["number"]), _name(e, kind), f"${e['cost']}",
                          ", ".join(e["adjacent"]), "yes" if e["borders_river"] else "no",
                          e["power"])
    else:
        field = "text" if kind == "event" else "wins_if"
        table.add_column(kind, no_wrap=True)
        table.add_column("text" if kind == "event" else "wins if", ratio=1)
        for e in entries:
            table.add_row(_name(e, kind), e[field])
    return table


def _list(kind: str, entries: list[Entry]) -> RenderableType:
    if kind in ("event", "personality"):
        blocks: list[RenderableType] = []
        for i, e in enumerate(entries):
            text = e["text"] if kind == "event" else "wins if: " + e["wins_if"]
            if i:
                blocks.append("")
            blocks += [_name(e, kind), Padding(Text(text), (0, 0, 0, 4))]
        return Group(*blocks)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True, style="dim")
    grid.add_column(ratio=1)
    for i, e in enumerate(entries):
        if i:
            grid.add_row()
        body = _name(e, kind)
        if kind == "card":
            interrupt = ", interrupt" if e["interrupt"] else ""
            body.append(f"  {e['deck']}{interrupt}", style="dim")
            body.append("\n" + _symbols(e), style="cyan")
            body.append("\n" + e["text"])
            label = e["id"]
        else:
            body.append(f"  ${e['cost']}, {_river(e)}", style="dim")
            body.append("\nadjacent: " + ", ".join(e["adjacent"]))
            body.append("\npower: " + e["power"])
            label = str(e["number"])
        grid.add_row(label, body)
    return grid
