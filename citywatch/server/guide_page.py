"""The "How to play" pages: ``/how-to-play/<game>``, a game's guide (``Game.how_to_play()``,
``core/guide.py``) as HTML, and ``/how-to-play``, the games that have one.

Pages are built here from the guide's data only, every text escaped; the start page and the
table page link to them. A guide is public (no seat, no table), so the pages need no token.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from citywatch.core.guide import TERMS, Guide
from citywatch.core.registry import game_names, load

HEAD = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} · citywatch</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">
  <link rel="stylesheet" href="/static/how-to-play.css">
</head>
<body class="guide-page">
  <header class="top">
    <a class="brand" href="/">citywatch</a>
    <span class="game-name">{game}</span>
  </header>
"""
TAIL = """</body>
</html>
"""


def anchor(name: str) -> str:
    """A term's anchor on its game's page: ``term-`` and its name in lower-case words joined
    by ``-`` (``Bus Stop`` -> ``term-bus-stop``)."""
    return "term-" + ("-".join(re.findall(r"[a-z0-9]+", name.casefold())) or "x")


def _block(block: Any) -> str:
    if isinstance(block, list):
        items = "".join(f"<li>{escape(str(item))}</li>" for item in block)
        return f"<ul>{items}</ul>"
    return f"<p>{escape(str(block))}</p>"


def _terms(terms: list[dict[str, Any]]) -> str:
    rows = []
    for term in terms:
        also = term.get("also") or []
        more = (f' <span class="also">Also: {escape(", ".join(map(str, also)))}.</span>'
                if also else "")
        rows.append(f'<div class="term" id="{anchor(str(term["name"]))}">'
                    f"<dt>{escape(str(term['name']))}</dt>"
                    f"<dd>{escape(str(term['meaning']))}{more}</dd></div>")
    return f'<dl class="terms">{"".join(rows)}</dl>'


def _others(current: str | None) -> str:
    """Links to every game's guide (the current one marked), and to the start page."""
    links = []
    for name in game_names():
        game = load(name)
        if game.how_to_play() is None:
            continue
        title = escape(game.display_name())
        if name == current:
            links.append(f'<li><span aria-current="page">{title}</span></li>')
        else:
            links.append(f'<li><a href="/how-to-play/{escape(name)}">{title}</a></li>')
    return (f'<nav class="panel guide-games" aria-label="Games"><h2>How to play</h2>'
            f'<ul>{"".join(links)}</ul><p><a class="button" href="/">Start a table</a></p>'
            "</nav>")


def guide_page(name: str, guide: Guide, title: str) -> str:
    """The page of game ``name`` (people call it ``title``): the guide's title and intro, a
    list of its sections, each section (paragraphs and lists; the terms as a list of
    definitions, each with its anchor), and links to the other games' guides."""
    contents = "".join(f'<li><a href="#{escape(str(s["id"]))}">{escape(str(s["title"]))}</a></li>'
                       for s in guide["sections"])
    parts = [HEAD.format(title=escape(str(guide["title"])), game=escape(title)),
             '  <main class="guide">\n    <article class="panel guide-text">',
             f"<h1>{escape(str(guide['title']))}</h1>"]
    if guide.get("intro"):
        parts.append(f'<p class="lead">{escape(str(guide["intro"]))}</p>')
    parts.append(f'<nav class="guide-contents" aria-label="Contents"><ol>{contents}</ol></nav>')
    for section in guide["sections"]:
        body = (_terms(section["terms"]) if section["id"] == TERMS
                else "".join(_block(b) for b in section["body"]))
        parts.append(f'<section id="{escape(str(section["id"]))}">'
                     f"<h2>{escape(str(section['title']))}</h2>{body}</section>")
    parts += ["    </article>", f"    {_others(name)}", "  </main>", TAIL]
    return "\n".join(parts)


def index_page() -> str:
    """``/how-to-play``: the games that have a guide."""
    return "\n".join([HEAD.format(title="How to play", game="How to play"),
                      '  <main class="guide guide-index">', f"    {_others(None)}", "  </main>",
                      TAIL])


def missing_page(name: str) -> str:
    """The page for a game with no guide, or no game of that name."""
    return "\n".join([HEAD.format(title="No guide", game=""),
                      '  <main class="guide guide-index">',
                      f'    <section class="panel"><h1>No guide for {escape(name)}</h1>'
                      "<p>There is no how-to-play guide by that name.</p></section>",
                      f"    {_others(None)}", "  </main>", TAIL])
