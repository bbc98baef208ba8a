"""Drawing an Ankh-Morpork view in the terminal with rich (the game's ``TerminalScreens``).

Everything here reads a seat's ``view`` (and the game's public reference), never
the state itself.
"""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citywatch.core.guide import is_term, term_text

STYLE = {"Red": "bold red", "Blue": "bold blue", "Green": "bold green", "Yellow": "bold yellow"}
SHORT = {
    "place a minion": "Minion",
    "place a building": "Build",
    "assassination": "Assassinate",
    "remove a trouble marker": "No-trouble",
    "card text": "Text",
    "random event": "EVENT",
    "play another card": "+Card",
    "interrupt": "Interrupt",
}


def colour(name: str) -> Text:
    """A colour name in its colour."""
    return Text(name, style=STYLE.get(name, ""))


def symbols(card: dict[str, Any]) -> str:
    """A card's symbols, left to right, in short words."""
    out = []
    for s in card["symbols"]:
        out.append(s.replace("take ", "") if s.startswith("take $") else SHORT.get(s, s))
    return " → ".join(out) if out else "(none)"


def board(view: dict[str, Any], reference: dict[str, Any]) -> RenderableType:
    """The twelve areas: number, cost, minions per colour, trolls, demons, trouble, building."""
    colours = [s["colour"] for s in view["seats"]]
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), title="The city")
    t.add_column("#", justify="right")
    t.add_column("Area", no_wrap=True)
    t.add_column("$", justify="right")
    for c in colours:
        t.add_column(Text(c[0], style=STYLE[c]), justify="right")
    t.add_column("Tr", justify="right")
    t.add_column("Dm", justify="right")
    t.add_column("!", justify="center")
    t.add_column("Building", no_wrap=True)
    for area in reference["areas"]:
        a = view["areas"][area["name"]]
        row: list[Text | str] = [str(area["number"]), area["name"], str(area["cost"])]
        for c in colours:
            n = a["minions"].get(c, 0)
            row.append(Text(str(n), style=STYLE[c]) if n else Text(".", style="dim"))
        row.append(str(a["trolls"]) if a["trolls"] else Text(".", style="dim"))
        row.append(Text(str(a["demons"]), style="bold magenta") if a["demons"]
                   else Text(".", style="dim"))
        row.append(Text("!", style="bold red") if a["trouble"] else Text(".", style="dim"))
        building = a["building"]
        row.append(colour(building) if building else Text("-", style="dim"))
        t.add_row(*row)
    return t


def players(view: dict[str, Any], reference: dict[str, Any]) -> RenderableType:
    """Each player's public position."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    for name, justify in (("Player", "left"), ("$", "right"), ("Minions", "right"),
                          ("Hand", "right"), ("City Area cards", "left"), ("In front", "left")):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for seat in view["seats"]:
        c = seat["colour"]
        cards = [name for name, a in view["areas"].items() if a["card"] == c]
        who = colour(c)
        if c == view["colour"]:
            who.append(" (you)")
        if c == view["current"]:
            who.append(" *", style="bold")
        t.add_row(who, str(seat["money"]), f"{12 - seat['minions_in_supply']}/12",
                  str(seat["hand_size"]), ", ".join(cards) or "-",
                  ", ".join(seat["in_front"]) or "-")
    pile = Text(f"Draw pile {view['draw_pile_size']}  ·  random events left "
                f"{view['events_left']}  ·  discard pile {len(view['discard_pile'])}", style="dim")
    return Group(t, pile)


def table(view: dict[str, Any], reference: dict[str, Any]) -> RenderableType:
    """One line per player for every decision screen (issue 26): money, minions on the board,
    cards in hand, City Area cards and cards in front; a line too long ends in '…'."""
    rows: list[list[Text]] = []
    for seat in view["seats"]:
        c = seat["colour"]
        who = colour(c)
        if c == view["colour"]:
            who.append(" (you)")
        if c == view["current"]:
            who.append(" *", style="bold")
        cards = [name for name, a in view["areas"].items() if a["card"] == c]
        rest = Text(f"areas: {', '.join(cards)}" if cards else "no areas",
                    style="" if cards else "dim")
        if seat["in_front"]:
            rest.append(f" · in front: {', '.join(seat['in_front'])}")
        rows.append([who, Text(f"${seat['money']}"),
                     Text(f"minions {12 - seat['minions_in_supply']}/12"),
                     Text(f"hand {seat['hand_size']}"), rest])
    return Group(*aligned(rows))


def aligned(rows: list[list[Text]], gap: int = 2) -> list[Text]:
    """Rows of cells as lines, each column as wide as its widest cell, each line on one line
    (cut with '…' where it is too long)."""
    widths = [max(row[k].cell_len for row in rows) for k in range(len(rows[0]))] if rows else []
    lines = []
    for row in rows:
        line = Text(no_wrap=True, overflow="ellipsis")
        for k, cell in enumerate(row):
            part = cell.copy()
            if k < len(row) - 1:
                part.pad_right(widths[k] - cell.cell_len + gap)
            line.append_text(part)
        line.rstrip()
        lines.append(line)
    return lines


def summary(view: dict[str, Any], reference: dict[str, Any]) -> RenderableType:
    """The compact screen's board summary (issue 16): one's personality's progress, where
    trouble, buildings, demons and trolls are, and the piles (the players are in
    ``table``)."""
    numbers = {a["name"]: a["number"] for a in reference["areas"]}
    areas = sorted(view["areas"].items(), key=lambda item: numbers[item[0]])
    city = Text()
    for heading, key in (("Trouble", "trouble"), ("Buildings", "building"),
                         ("Demons", "demons"), ("Trolls", "trolls")):
        places = [(name, a) for name, a in areas if a[key]]
        if not places:
            continue
        city.append(f"{' · ' if city else ''}{heading}: ", style="bold")
        for k, (name, a) in enumerate(places):
            city.append(f"{', ' if k else ''}{numbers[name]} {name}")
            if key == "building":
                city.append(f" ({a['building'][0]})", style=STYLE.get(a["building"], ""))
            elif key in ("demons", "trolls") and a[key] > 1:
                city.append(f" ×{a[key]}")
    lines: list[RenderableType] = []
    known = view.get("progress")
    if known:
        lines.append(Text(known["line"], style="bold green" if known["met"] else "bold"))
    lines.append(city if city else Text("No trouble, buildings, demons or trolls yet.",
                                        style="dim"))
    lines.append(Text(f"Draw pile {view['draw_pile_size']}  ·  random events left "
                      f"{view['events_left']}  ·  discard pile {len(view['discard_pile'])}  ·  "
                      "*: to play", style="dim"))
    return Group(*lines)


def hand(view: dict[str, Any], reference: dict[str, Any]) -> RenderableType:
    """The seat's own hand with symbols and text, and its personality."""
    cards = {c["name"]: c for c in reference["cards"]}
    me = view["seats"][view["seat"]]
    lines: list[RenderableType] = [Text.assemble(
        "Your hand (", colour(view["colour"]), ") · you are ", (str(me["personality"]), "bold"))]
    lines.extend(progress(view))
    for name in view["hand"]:
        card = cards[name]
        lines.append(Text.assemble("  ", (name, "bold"), "  ", (symbols(card), "cyan")))
        text = card["text"]
        if text and not text.startswith("("):
            lines.append(indented(text, 6, "dim"))
    if not view["hand"]:
        lines.append(Text("  (no cards)"))
    seen = view.get("seen_personalities")
    if seen:
        lines.append(Text(f"  (Mrs Cake showed you these unused personalities: {', '.join(seen)})"))
    return Group(*lines)


def progress(view: dict[str, Any]) -> list[RenderableType]:
    """One's own personality's progress at this table: a line, and its notes dimmed."""
    known = view.get("progress")
    if not known:
        return []
    style = "bold green" if known["met"] else "bold"
    out: list[RenderableType] = [indented(known["line"], 2, style)]
    out.extend(indented(note, 2, "dim") for note in known["notes"])
    return out


def label(text: str, reference: dict[str, Any]) -> str:
    """An action's text with area numbers: 'Place a minion in Nap Hill (12)'."""
    names = sorted((a["name"] for a in reference["areas"]), key=len, reverse=True)
    numbers = {a["name"]: a["number"] for a in reference["areas"]}
    pattern = re.compile(r"\b(in|from|to) (" + "|".join(re.escape(n) for n in names) + r")\b")
    return pattern.sub(lambda m: f"{m.group(1)} {m.group(2)} ({numbers[m.group(2)]})", text)


def indented(text: str, by: int, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(Text(text, style=style), (0, 0, 0, by))


def outcome(view: dict[str, Any]) -> RenderableType:
    """The end of the game: winners, reason, personalities and points (each seat's points
    part by part follow on the end screen, ``Game.score_breakdown``)."""
    result = view["result"]
    colours = [s["colour"] for s in view["seats"]]
    winners = Text(" and ").join(colour(colours[w]) for w in result["winners"])
    reason = {"personality": "a personality's victory condition was met",
              "riots": "riots broke out", "deck": "the draw pile ran out"}[result["reason"]]
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="The end")
    t.add_column("Player")
    t.add_column("Personality")
    t.add_column("Points", justify="right")
    for i, seat in enumerate(view["seats"]):
        points = "-" if result["points"] is None else str(result["points"][i])
        t.add_row(colour(seat["colour"]), seat["personality"] or "?", points)
    return Group(Text.assemble("Winner: ", winners, f" ({reason})."), t)


def describe_card(card: dict[str, Any]) -> RenderableType:
    """A card for the '?' help."""
    kind = "interrupt card" if card.get("interrupt") else f"{card['deck']} card"
    return Text.assemble((card["name"], "bold"), f" ({kind})\n  symbols: {symbols(card)}\n  ",
                         card["text"])


def describe_area(area: dict[str, Any]) -> RenderableType:
    """An area for the '?' help."""
    return Text.assemble(
        (f"{area['number']}. {area['name']}", "bold"),
        f" (building costs ${area['cost']}; next to {', '.join(area['adjacent'])}"
        f"{'; on the river' if area['borders_river'] else ''})\n  power: {area['power']}")


def describe_other(entry: dict[str, Any]) -> RenderableType:
    """An event or a personality for the '?' help."""
    body = entry.get("text") or entry.get("wins_if") or ""
    return Text.assemble((entry["name"], "bold"), f"\n  {body}")


def describe(entry: dict[str, Any]) -> RenderableType:
    """Any reference entry for the '?' help: a card, an area, an event, a personality or a
    term."""
    if is_term(entry):
        return Text.assemble((entry["name"], "bold"), f"\n  {term_text(entry)}")
    if "deck" in entry:
        return describe_card(entry)
    if "cost" in entry:
        return describe_area(entry)
    return describe_other(entry)


class AnkhMorporkScreens:
    """The terminal screens of Ankh-Morpork, with the game's reference at hand."""

    def __init__(self, reference: dict[str, Any]) -> None:
        self.reference = reference

    def colour(self, name: str) -> Text:
        """A colour name in its colour."""
        return colour(name)

    def board(self, view: dict[str, Any]) -> RenderableType:
        """The twelve areas."""
        return board(view, self.reference)

    def players(self, view: dict[str, Any]) -> RenderableType:
        """Every seat's money, pieces, cards in front and (known) personality."""
        return players(view, self.reference)

    def hand(self, view: dict[str, Any]) -> RenderableType:
        """The viewing seat's cards and personality."""
        return hand(view, self.reference)

    def summary(self, view: dict[str, Any]) -> RenderableType:
        """Progress, the city in a line or two, the piles (the compact screen, issue 16)."""
        return summary(view, self.reference)

    def table(self, view: dict[str, Any]) -> RenderableType:
        """One line per player (every decision screen, issue 26)."""
        return table(view, self.reference)

    def label(self, text: str) -> str:
        """An action's text with area numbers."""
        return label(text, self.reference)

    def outcome(self, view: dict[str, Any]) -> RenderableType:
        """Winners, reason, personalities and points."""
        return outcome(view)

    def describe(self, entry: dict[str, Any]) -> RenderableType:
        """A reference entry for the '?' help."""
        return describe(entry)
