"""The coach at the terminal (issue 30): the ``hint`` command's screen and whether hints are
allowed.

A hint judges the decision from the asking seat's own information only (``citywatch.coach``);
this module lays its estimates out under the numbers the terminal's menu gives the choices, so
the person can type the one they want. A choice inside a group is reached in steps: its number
reads ``7 › 2`` (type 7, then 2).

Nothing here reads a state: the hint, the decision's numbered choices and their steps.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from citywatch.coach import STRENGTHS, Hint, allowed_by_default
from citywatch.coach.hints import percent
from citywatch.terminal.compact import Option, Steps, one_line

LEVELS = tuple(STRENGTHS)
"""What ``hint LEVEL`` accepts (``hint`` alone: normal)."""
DEFAULT_LEVEL = "normal"
HARD_MARK = "  (hard level's pick)"
LEAST_OPTIONS = 3
"""The fewest options the hint screen lists, however short the terminal."""


def hints_allowed(meta: dict[str, Any], people: int) -> bool:
    """Whether a saved game allows hints: its ``hints_allowed`` setting, else the default for
    ``people`` at the keyboard."""
    setting = meta.get("hints_allowed")
    return setting if isinstance(setting, bool) else allowed_by_default(people)


def parse_level(words: str) -> str | None:
    """The strength ``hint WORDS`` asks for (``""``: the default); None if not one."""
    word = words.strip().lower()
    if not word:
        return DEFAULT_LEVEL
    return word if word in LEVELS else None


def number_paths(shown: Sequence[tuple[int, Option]], steps: Steps, picking: str,
                 wanted: set[int]) -> dict[int, str]:
    """What to type to take each legal action in ``wanted`` (by index) from the screen showing
    ``shown`` (picking field ``picking`` of ``steps``): ``'7'``, or ``'7 › 2'`` for an action
    inside a group (type 7, then 2 in the list it opens), as the terminal's steps would go."""
    paths: dict[int, str] = {}
    for n, option in shown:
        inside = [i for i in option.actions if i in wanted]
        if not inside:
            continue
        if len(option.actions) == 1:
            paths[inside[0]] = str(n)
            continue
        deeper = Steps(steps.forms, steps.labels, [*steps.picks, (picking, option.value)])
        step = deeper.step()
        if step is None:
            continue
        for i, path in number_paths(list(enumerate(step[1], 1)), deeper, step[0],
                                    set(inside)).items():
            paths[i] = f"{n} › {path}"
    return paths


def hint_lines(judged: Hint, indices: Sequence[int], labels: Sequence[str],
               paths: dict[int, str], who: str, width: int, most: int) -> list[Text]:
    """The hint screen for ``who``: a heading, then the options best first (at most ``most``),
    each with what to type for it, its chance and its text, the hard level's pick marked.
    ``indices[k]`` is option k's legal index (its ``labels`` text and its ``paths`` entry)."""
    chance = "the crew's chance" if judged.cooperative else "your chance"
    lines = [one_line(Text(f"The coach, for {who} ({judged.strength}: {judged.worlds} worlds "
                           f"sampled from what you know, {judged.seconds:.1f} s):",
                           style="bold"), width),
             one_line(Text(f"{chance} of winning after each choice, best first.",
                           style="dim"), width)]
    order = sorted(range(len(judged.options)), key=lambda k: -judged.options[k].chance)
    most = max(LEAST_OPTIONS, most)
    shown = order if len(order) <= most else order[:most - 1]
    column = max([len(paths.get(indices[k], "–")) for k in shown] + [1])
    for k in shown:
        option = judged.options[k]
        mark = HARD_MARK if k == judged.hard else ""
        path = paths.get(indices[k], "–")
        head = f"{path:>{column}}{'.' if path != '–' else ' '} "
        figures = f"{percent(option.chance):>4} ±{round(100 * option.error):<2} "
        line = Text(head, style="bold")
        line.append(figures, style="cyan")
        room = max(1, width - len(head) - len(figures) - len(mark))
        line.append_text(one_line(labels[indices[k]], room))
        line.append(mark, style="green")
        lines.append(line)
    if len(shown) < len(order):
        lines.append(Text(f"… and {len(order) - len(shown)} more, below these", style="dim"))
    how = "Type a choice's number to take it"
    if any("›" in paths.get(indices[k], "") for k in shown):
        how += " ('7 › 2': type 7, then 2)"
    if any(indices[k] not in paths for k in shown):
        how += "; '–': not on this screen ('b' goes back)"
    how += ". Every seat is told that you asked."
    lines += [Text(part, style="dim") for part in textwrap.wrap(how, max(20, width))]
    return lines
