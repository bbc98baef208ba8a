"""Drawing a Guardians of the City view in the terminal with rich (the game's ``TerminalScreens``).

The board is the shared Terrorist Cells (strength as a bar, eliminated or frozen), the turn and
step, and the cards being resolved; the players' screen is one column per nation: each pillar's
National Effort, each Citizen Group's support, the Shield, Counter-Terrorism points, the score
and the cards in hand, decks and discard piles, then the active Subversives and lasting
Galvanised People cards; the hand is the seat's own Action cards, each with its requirement met
or not. Everything here reads one seat's ``view`` (and reference entries), never the state, and
no screen lists a deck's contents, so another seat's hidden hand never shows.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citywatch.core.guide import is_term, term_text
from citywatch.core.presentation import ScreenFunctions, field_text

View = dict[str, Any]

SEAT_STYLE = ("bold cyan", "bold magenta", "bold yellow", "bold green")
"""Each seat's style, in turn order (Player 1 first)."""
PILLAR_STYLE = {"Military": "bold red", "Civil": "bold bright_blue", "Economic": "bold yellow",
                "Social": "bold green", "Psychological": "bold magenta"}
"""Each Total Defence pillar's style."""
KIND_WORDS = {"action": "Action", "galvanised_people": "Galvanised People",
              "special_intelligence": "Special Intelligence", "crisis": "Crisis",
              "subversive": "Subversive"}
"""A card kind in words."""
EFFORT_MAX = 4
SUPPORT_MAX = 4
CELL_MAX = 6
MET = ("✓ met", "bold green")
NOT_MET = ("✗ not met", "bold red")


def seat_style(name: str) -> str:
    """The style of a seat named ``Player k`` (bold for any other name)."""
    number = name.removeprefix("Player ").strip()
    if number.isdigit() and 1 <= int(number) <= len(SEAT_STYLE):
        return SEAT_STYLE[int(number) - 1]
    return "bold"


def colour(name: str) -> Text:
    """A seat's name in its style."""
    return Text(name, style=seat_style(name))


def bar(value: int, most: int, style: str) -> Text:
    """``value`` of ``most`` as filled and empty squares, then the number."""
    value = max(0, min(value, most))
    return Text.assemble((("■" * value), style), ("·" * (most - value), "dim"), f" {value}")


def pillar(name: str) -> Text:
    """A pillar's name in its style."""
    return Text(name, style=PILLAR_STYLE.get(name, "bold"))


def card_line(card: dict[str, Any] | None) -> Text:
    """A card's name, kind and pillar (and minimum effort for an Action card)."""
    if not card:
        return Text("-", style="dim")
    out = Text(str(card.get("name", "?")), style="bold")
    kind = KIND_WORDS.get(str(card.get("kind", "")), str(card.get("kind", "")))
    where = card.get("pillar")
    details = Text(" (")
    details.append(kind)
    if where:
        details.append(", ")
        details.append_text(pillar(str(where)))
        if "min_effort" in card:
            details.append(f" {card['min_effort']}+")
    details.append(")")
    out.append_text(details)
    return out


def indented(text: str | Text, by: int = 2, style: str = "") -> RenderableType:
    """Text whose wrapped lines keep an indent."""
    return Padding(text if isinstance(text, Text) else Text(text, style=style), (0, 0, 0, by))


# --- the board -----------------------------------------------------------------------------
def cells_table(view: View) -> RenderableType:
    """The shared Terrorist Cells: strength, eliminated, frozen."""
    t = Table.grid(padding=(0, 2, 0, 0))
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True)
    for cell in view.get("cells", ()):
        state = Text("")
        if cell.get("eliminated"):
            state = Text("eliminated", style="bold green")
        elif cell.get("frozen"):
            state = Text("frozen: cannot be raised (Vigilance)", style="bold cyan")
        t.add_row(Text(f"  {cell['name']}", style="bold"),
                  bar(cell["strength"], CELL_MAX, "bold red"), state)
    return Group(Text("Terrorist Cells (shared), strength 0-6:", style="bold"), t)


def turn_lines(view: View) -> list[Text]:
    """Whose turn and which step, with the Action cards played in Step 2."""
    head = Text(f"Turn {view.get('turn', '?')} (first player: ")
    head.append_text(colour(str(view.get("first", "?"))))
    head.append(") · ")
    if view.get("result") is not None:
        return [head.append("the game is over", style="bold")]
    head.append_text(colour(str(view.get("current", "?"))))
    head.append(" to play")
    step = Text(str(view.get("step_name", "")))
    if view.get("step") == 2:
        step.append(f" ({view.get('plays', 0)} of 2 played)")
    return [head, step]


def board(view: View) -> RenderableType:
    """The cells, the turn, the cards being resolved and the end waiting for the round."""
    parts: list[RenderableType] = [cells_table(view), *turn_lines(view)]
    play = view.get("in_play")
    if play:
        line = Text.assemble("In play: ", colour(play["seat"]), " plays ",
                             card_line(play["card"]))
        if play.get("galvanised"):
            line.append(" with ")
            line.append_text(card_line(play["galvanised"]))
        parts.append(line)
        parts.append(indented(str(play["card"].get("text", "")), 2, "dim"))
    crisis = view.get("crisis")
    if crisis:
        parts.append(Text.assemble("Crisis being resolved: ", card_line(crisis)))
        parts.append(indented(str(crisis.get("text", "")), 2, "dim"))
    for reason in () if view.get("result") is not None else view.get("ending") or ():
        parts.append(Text(f"The game ends when this round is over: {reason}.", style="bold red"))
    if view.get("label"):
        parts.append(Text(str(view["label"]), style="dim"))
    return Group(*parts)


# --- the players ---------------------------------------------------------------------------
def effort_cell(seat: dict[str, Any], name: str) -> Text:
    """A pillar's printed effort, and what Crisis cards read when a Readiness boost differs."""
    printed = int(seat["effort"][name])
    out = bar(printed, EFFORT_MAX, PILLAR_STYLE.get(name, "bold"))
    effective = int(seat.get("effective_effort", {}).get(name, printed))
    if effective != printed:
        out.append(f" ({effective} vs Crises)", style="yellow")
    return out


def support_cell(value: int) -> Text:
    """A Citizen Group's support, or that it has left the country."""
    if value <= 0:
        return Text("left the country", style="bold red")
    return bar(value, SUPPORT_MAX, "bold green")


def nations_table(view: View) -> Table:
    """One column per nation: pillars, Citizen Groups, Shield, points, score and cards."""
    seats = list(view.get("seats", ()))
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1),
              collapse_padding=True)
    t.add_column("", no_wrap=True)
    for seat in seats:
        head = colour(seat["name"])
        if seat["name"] == view.get("name"):
            head.append(" (you)")
        if seat["name"] == view.get("current"):
            head.append(" *", style="bold")
        t.add_column(head, no_wrap=True)
    if not seats:
        return t
    first = seats[0]
    for name in first["effort"]:
        t.add_row(pillar(name), *[effort_cell(seat, name) for seat in seats])
    if any(sum(seat["effort"].values()) != seat["required_effort"] for seat in seats):
        t.add_row("Effort assigned",
                  *[f"{sum(seat['effort'].values())} of {seat['required_effort']}"
                    for seat in seats])
    for group in first["support"]:
        t.add_row(Text(group, style="bold"),
                  *[support_cell(int(seat["support"][group])) for seat in seats])
    t.add_row("Shield", *[Text(str(seat["shield"]), style="bold cyan" if seat["shield"] else "")
                          for seat in seats])
    score_rows(t, seats)
    t.add_row("Cards in hand", *[str(seat["hand_count"]) for seat in seats])
    t.add_row("Action deck", *[f"{seat['action_deck_count']}, discard "
                               f"{len(seat['action_discard'])}" for seat in seats])
    t.add_row("Crisis deck", *[f"{seat['crisis_deck_count']}, discard "
                               f"{len(seat['crisis_discard'])}" for seat in seats])
    return t


SCORE_ROWS = {"Counter-Terrorism points": "Counter-Terrorism", "Support left": "Support left",
              "Special Intelligence used": "Special Intel.",
              "No Citizen Group left": "No group left"}
"""The nations' table's short label of each part of the score (``score_parts`` in the view)."""


def score_rows(t: Table, seats: list[dict[str, Any]]) -> None:
    """Add the score part by part (rulebook section 10), each part a labelled row and the
    parts adding up to the Score row below them: Special Intelligence in points with the cards
    used beside them ("2 (1 used)"), shown once one is used; "No group left" takes a nation's
    points away once its Citizen Groups are all gone (its score is deemed 0)."""
    labels = list(dict.fromkeys(part["label"] for seat in seats for part in seat["score_parts"]))
    for label in labels:
        cells = []
        for seat in seats:
            part = next((x for x in seat["score_parts"] if x["label"] == label), None)
            if part is None:
                cells.append("")
            elif label == "Special Intelligence used":
                cells.append(f"{part['points']} ({seat['special_intelligence_used']} used)")
            else:
                cells.append(str(part["points"]))
        if label == "Special Intelligence used" and \
                not any(seat["special_intelligence_used"] for seat in seats):
            continue
        t.add_row(SCORE_ROWS.get(label, label), *cells)
    t.add_row(Text("Score", style="bold"),
              *[Text(str(seat["score"]), style="bold") for seat in seats])


def zero_reasons(seats: list[dict[str, Any]]) -> list[Text]:
    """A sentence for each nation whose score is deemed 0 (rulebook section 10)."""
    return [Text.assemble(colour(seat["name"]), " scores 0: every Citizen Group left the "
                          "country, whatever its other points (rulebook section 10).")
            for seat in seats if seat["score_parts"]
            and seat["score_parts"][-1]["label"] == "No Citizen Group left"]


def lasting_line(seat: dict[str, Any], entry: dict[str, Any]) -> Text:
    """A lasting Galvanised People card and what it does until its owner's next turn."""
    out = Text.assemble(colour(seat["name"]), ": ", (entry["card"], "bold"),
                        f" (with {entry['paired']})")
    what = []
    if entry.get("protects"):
        what.append("protects " + ", ".join(entry["protects"]))
    if entry.get("freezes"):
        what.append("freezes " + ", ".join(entry["freezes"]))
    boost = entry.get("boost")
    if boost:
        what.append(f"{boost['pillar']} +{boost['amount']} against Crises")
    if what:
        out.append(": " + "; ".join(what))
    return out


def players(view: View) -> RenderableType:
    """Every nation's public state, then active Subversives, lasting cards and known cards."""
    parts: list[RenderableType] = [nations_table(view)]
    seats = list(view.get("seats", ()))
    parts.extend(zero_reasons(seats))
    subversives = [(seat, seat["subversive"]) for seat in seats if seat.get("subversive")]
    parts.append(Text("Active Subversives:", style="bold") if subversives
                 else Text("Active Subversives: none", style="dim"))
    for seat, card in subversives:
        parts.append(indented(Text.assemble("in front of ", colour(seat["name"]), ": ",
                                            (card["name"], "bold red"), f": {card['text']}")))
    lasting = [(seat, entry) for seat in seats for entry in seat.get("lasting") or ()]
    if lasting:
        parts.append(Text("Lasting Galvanised People cards:", style="bold"))
        parts.extend(indented(lasting_line(seat, entry)) for seat, entry in lasting)
    for seat in seats:
        if seat.get("known_in_hand") and seat["name"] != view.get("name"):
            parts.append(Text.assemble(colour(seat["name"]), " holds (seen by all): ",
                                       ", ".join(seat["known_in_hand"])))
    note = Text("*: to play · Score: the rows above it added up (2 per Special Intelligence "
                "used)", style="dim")
    decision = view.get("decision")
    if decision and decision.get("seat") != view.get("current"):
        note.append(f" · {decision['seat']} must {decision.get('task', 'decide')}", style="bold")
    parts.append(note)
    return Group(*parts)


def table(view: View) -> RenderableType:
    """One line per nation for every decision screen (issue 26): score, Counter-Terrorism (CT)
    points, Shield, Citizen Groups' support, cards in hand; a line too long ends in '…'."""
    rows: list[list[Text]] = []
    for seat in view.get("seats", ()):
        who = colour(seat["name"])
        if seat["name"] == view.get("name"):
            who.append(" (you)")
        if seat["name"] == view.get("current"):
            who.append(" *", style="bold")
        support = "/".join(str(int(v)) for v in seat["support"].values())
        rows.append([who, Text(f"score {seat['score']}", style="bold"),
                     Text(f"CT points {seat['counter_terrorism_points']}"),
                     Text(f"shield {seat['shield']}"), Text(f"support {support}"),
                     Text(f"hand {seat['hand_count']}")])
    t = Table.grid(padding=(0, 2))
    for k in range(len(rows[0]) if rows else 0):
        last = k == len(rows[0]) - 1
        t.add_column(no_wrap=True, overflow="ellipsis",
                     min_width=None if last else max(row[k].cell_len for row in rows))
    for row in rows:
        t.add_row(*row)
    return t


def summary(view: View) -> RenderableType:
    """The compact screen's board summary: the cells in a line, the step and the turn, then
    each pillar's effort and each Citizen Group's support per nation (the rest is in
    ``table``)."""
    cells = Text("Cells: ", style="bold")
    for k, cell in enumerate(view.get("cells", ())):
        cells.append(" · " if k else "")
        cells.append(f"{cell['name']} ")
        if cell.get("eliminated"):
            cells.append("eliminated", style="bold green")
        else:
            cells.append(str(cell["strength"]), style="bold red")
            if cell.get("frozen"):
                cells.append(" frozen", style="bold cyan")
    head, step = turn_lines(view)[:2] + [Text("")] * (2 - len(turn_lines(view)[:2]))
    return Group(cells, step, *effort_lines(view), head, nations_table(view))


# --- the effort step (issue 29) ------------------------------------------------------------
GALVANISED = "Galvanised People ("


def short_name(name: str) -> str:
    """``Galvanised People (Unity)`` is ``Unity``; any other card keeps its name."""
    return name[len(GALVANISED):].rstrip(")") if name.startswith(GALVANISED) else name


def newly_playable(row: dict[str, Any], names: list[str], seen: set[str]) -> list[str]:
    """The pillar's cards that a level's playable ``names`` add to ``seen`` (which it fills):
    a card alone (``Raids``), a card not yet playable alone but with a Galvanised People card
    (``Raids+Unity``), a Galvanised People card of the pillar (``Unity``)."""
    mine = {card["name"] for card in row["cards"]}
    found: dict[str, str] = {}
    for text in names:
        card, _, galvanised = text.partition(" with ")
        if not galvanised and card in mine:
            found[card] = short_name(card)
    for text in names:
        card, _, galvanised = text.partition(" with ")
        if galvanised and card in mine and card not in found and card not in seen:
            found.setdefault(card + "+", f"{card}+{short_name(galvanised)}")
        if galvanised in mine:
            found.setdefault(galvanised, short_name(galvanised))
    out = [text for key, text in found.items() if key not in seen]
    seen.update(found)
    return out


def effort_lines(view: View) -> list[Text]:
    """While the viewing seat assigns its effort: a head, then one line per pillar: its level
    (``=`` assigned, ``→`` next, else as it was), then from each level the pillar's cards it
    makes playable that a lower level does not (``Raids+Unity``: only with that Galvanised
    People card, the other pillars permitting), and the cards no level makes playable."""
    step = (view.get("own") or {}).get("effort_step")
    if not step or view.get("seat") is None:
        return []
    me = view["seats"][view["seat"]]
    out = [Text(f"Effort: {step['required']} to assign; your cards playable from each level:",
                style="bold")]
    for row in step["pillars"]:
        name = row["pillar"]
        line = Text("  ", no_wrap=True, overflow="ellipsis")
        line.append_text(pillar(name.ljust(13)))
        if name in step["assigned"]:
            line.append(f"= {step['assigned'][name]}", style="bold")
        elif name == step["next"]:
            line.append(f"→ {me['effort'][name]}", style="bold yellow")
        else:
            line.append(f"  {me['effort'][name]}", style="dim")
        line.append(" │ ")
        seen: set[str] = set()
        parts = [f"{level}: {', '.join(new)}" for level, names in row["playable"].items()
                 if (new := newly_playable(row, names, seen))]
        never = [short_name(c["name"]) for c in row["cards"]
                 if c["name"] not in seen and c["name"] + "+" not in seen]
        if never:
            parts.append("never: " + ", ".join(never))
        line.append(" · ".join(parts) if parts else "no cards", style="" if parts else "dim")
        out.append(line)
    return out


def summary_least(view: View) -> int:
    """The lines the compact screen keeps for the summary: during the viewing seat's effort
    step, the cells, step, turn and the effort lines."""
    lines = effort_lines(view)
    return 3 + len(lines) if lines else 0


# --- the hand ------------------------------------------------------------------------------
def hand_lines(view: View, cards: list[dict[str, Any]]) -> list[RenderableType]:
    """The seat's Action cards, one line each (pillar, requirement, own effort, met or not)
    and the card's text below it."""
    me = view["seats"][view["seat"]]
    width = max(len(card["name"]) for card in cards) + 2
    out: list[RenderableType] = []
    for card in cards:
        line = Text("• ")
        line.append(card["name"].ljust(width), style="bold")
        line.append_text(pillar(card["pillar"]))
        line.append(f" {card['min_effort']}+ (yours {me['effort'].get(card['pillar'], '?')}) ")
        line.append(*(MET if card.get("requirement_met") else NOT_MET))
        if card.get("playable_now"):
            line.append(", playable", style="bold green")
        out.append(line)
        out.append(indented(str(card.get("text", "")), 4, "dim"))
    return out


def hand(view: View) -> RenderableType:
    """The viewing seat's Action cards, each with its requirement met or not."""
    own = view.get("own")
    if own is None or view.get("seat") is None:
        return Text("(You are watching: no hand.)", style="dim")
    me = view["seats"][view["seat"]]
    cards = list(own.get("hand") or ())
    head = Text.assemble("Your hand (", colour(me["name"]), f"): {len(cards)} Action card"
                         f"{'' if len(cards) == 1 else 's'}")
    if not cards:
        return head
    parts: list[RenderableType] = [head, *hand_lines(view, cards)]
    if me.get("known_in_hand"):
        parts.append(Text("Everybody saw you take back: " + ", ".join(me["known_in_hand"]),
                          style="dim"))
    return Group(*parts)


# --- menus, the end and help ---------------------------------------------------------------
def label(text: str) -> str:
    """An action's menu line: its own English text ('Play Raids with Galvanised People
    (Unity)')."""
    return text


def outcome(view: View) -> RenderableType:
    """The end of the game: winners (or a draw), the reason and every nation's score (its
    parts follow on the end screen, ``Game.score_breakdown``)."""
    result = view.get("result") or {}
    seats = list(view.get("seats", ()))
    winners = [seats[w]["name"] for w in result.get("winners", ()) if 0 <= w < len(seats)]
    head = Text("Winner: " if len(winners) == 1 else "Winners: ")
    if winners:
        head.append_text(Text(" and ").join(colour(w) for w in winners))
    else:
        head = Text("A draw: nobody wins")
    reason = str(result.get("reason", ""))
    if reason:
        head.append(f" ({reason}).")
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="The end", title_justify="left")
    t.add_column("Nation")
    t.add_column("Score", justify="right")
    points = result.get("points")
    for i, seat in enumerate(seats):  # issue 26: the parts follow, each counted once
        score = points[i] if points is not None and i < len(points) else seat["score"]
        t.add_row(colour(seat["name"]), Text(str(score), style="bold"))
    return Group(head, t)


def describe(entry: dict[str, Any]) -> RenderableType:
    """A reference entry (an Action or Crisis card, a deck, a term, ...): its name, kind,
    pillar and text, then any other fields as ``key: value``, every value in words."""
    if is_term(entry):
        return Group(Text(str(entry["name"]), style="bold"), indented(term_text(entry)))
    head = card_line(entry) if "kind" in entry else Text(str(entry.get("name", "?")),
                                                          style="bold")
    rows: list[RenderableType] = [head]
    if entry.get("text"):
        rows.append(indented(str(entry["text"])))
    shown = {"name", "kind", "pillar", "min_effort", "text"}
    for key, value in entry.items():
        if key not in shown and isinstance(value, (str, int, float, bool)):
            rows.append(indented(f"{key.replace('_', ' ')}: {field_text(value)}", 2, "dim"))
    return Group(*rows)


class GuardiansScreens(ScreenFunctions):
    """The terminal screens of Guardians of the City."""

    def __init__(self) -> None:
        super().__init__(colour, board, players, hand, label, outcome, describe, summary)

    def table(self, view: View) -> RenderableType:
        """One line per nation (every decision screen, issue 26)."""
        return table(view)

    def summary_least(self, view: View) -> int:
        """The summary's lines to keep (the effort step's, issue 29)."""
        return summary_least(view)
