"""Clicks per decision on the browser table (issue 26: at most 1.5 in Ankh-Morpork and
Guards! Guards!, in a scripted game against normal bots).

A table of one person and ``--bots`` normal bots is created on a ``citywatch serve``
subprocess (bot delay 0, a fresh SQLite file, the chosen seed); Debian's chromium plays the
person's page with Playwright, clicking buttons as a person would, and the script counts:

- **decisions**: the person's seat's recorded decisions (the engine asks only when there are
  two choices or more, decision D1), whether the person took them or the page took them for
  the person (the "Take what can never hurt without asking" setting);
- **clicks**: every click on a choice button or on a step button of a big choice (app.js
  takes a decision of more than 13 choices in steps); nothing else is clicked;
- **by the page**: decisions the page took (a usual choice that can never hurt);
- **turns**: the person's turns, and **asked out of turn**: decisions asked while another
  seat's turn was on (Guards! Guards!' "Cast nothing now" at the start of every opponent's
  turn is one);
- **by a plan** (issue 27): decisions the page took as the next steps of a plan the person
  chose (``Game.plans``: walking to a place clicked on the map), so **asked** = decisions - by
  the page - by a plan.

Plans (``--plans on``, the default): where the decisions a normal bot would take next in the
person's place (while they stay the person's) lead to the same view of the person's as one of
the plans offered, after two decisions or more, the person takes that plan (the one that
stands for the most of them); ``--plans off`` never does (issue 26's measure).

The person follows a fixed, seeded policy (``--policy``): ``bot`` takes what a normal bot
would take in its place (so the game is a realistic one), ``usual`` takes the usual choice
when there is one and otherwise what the bot would, ``first`` clicks the first button
(the usual choice where there is one). The page's own auto-take still takes what never
hurts when the setting is on (``--auto``: ``on``, ``off`` or ``page``, the page's default).

To choose, the script keeps a mirror of the game: it applies the person's decisions and the
bots' (worked out as the server does: the same bot, seed and step, from the position), and
checks at every decision of the person's that the page offers exactly the mirror's legal
actions, with the same usual and never-hurts marks. ``--model`` plays the same games
without a browser, counting the clicks app.js would need (its LIMIT and steps); the browser
run checks that model at every decision (``model_mismatches``, expected 0).

Run: ``PYTHONPATH=. python benchmarks/bench_clicks.py --game ankh-morpork --seeds 1-4``.
Prints one line per game and a summary (JSON with ``--json``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from serving import free_port, start_server, stop, wait_ready

from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.bots.decide import bot_rng
from citywatch.core.api import Game, Plan, State, following
from citywatch.core.registry import load
from citywatch.lab.play import first_seat

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update"]
LIMIT = 13
"""app.js's LIMIT: the most buttons for one decision; more choices are taken in steps."""
TARGET = 1.5
"""Issue 26: at most this many clicks per decision on average."""
DEFAULT_GAMES = ("ankh-morpork", "guards-guards")

CHOICE = "#actions button.action[data-index]:not([disabled])"
STEP_BUTTON = "#actions button.step:not([disabled])"
WAIT_FOR_ME = """() => document.body.dataset.over === 'yes'
    || (document.body.dataset.mine === 'yes' && document.body.dataset.pending !== 'yes'
        && document.body.dataset.walking !== 'yes')"""
MOVED = """(before) => document.body.dataset.step !== before.step
    || (document.body.dataset.picks || '0') !== before.picks
    || document.querySelector('#error .banner') !== null"""


# --- app.js's big choices, in Python ------------------------------------------------------
def value_key(value: Any) -> str:
    """app.js ``valueKey``: a value's JSON text ("" for a missing field)."""
    return "" if value is _MISSING else json.dumps(value, separators=(",", ":"),
                                                   ensure_ascii=False)


_MISSING = object()


def field_of(choice: Any, name: str) -> Any:
    """The value of field ``name`` of a choice's JSON (``_MISSING`` if absent)."""
    return choice.get(name, _MISSING) if isinstance(choice, dict) else _MISSING


def next_step(choices: Sequence[Any], left: list[int],
              picked: set[str]) -> tuple[str, dict[str, list[int]]] | None:
    """app.js ``nextStep``: the field to pick next among the choices ``left`` and its groups
    (value key -> indices, in order of first appearance), or None if they are shown."""
    if len(left) <= LIMIT or not all(isinstance(c, dict) for c in choices):
        return None
    fields: list[str] = []
    for i in left:
        for key in choices[i]:
            if key not in fields:
                fields.append(key)
    fields.sort(key=lambda f: f != "verb")
    for name in fields:
        if name in picked:
            continue
        groups: dict[str, list[int]] = {}
        for i in left:
            groups.setdefault(value_key(field_of(choices[i], name)), []).append(i)
        if len(groups) > 1:
            return name, groups
    return None


def opened(groups: list[list[int]], usual: int) -> list[bool]:
    """app.js ``opened``: which groups are shown as their choices (in ``groups`` order)."""
    is_open = [len(g) == 1 for g in groups]

    def count() -> int:
        pairs = zip(groups, is_open, strict=True)
        return (1 if usual >= 0 else 0) + sum(
            len([i for i in g if i != usual]) if o else 1 for g, o in pairs)
    for k in range(len(groups)):
        if is_open[k]:
            continue
        is_open[k] = True
        if count() > LIMIT:
            is_open[k] = False
    return is_open


def board_clicks(choices: Sequence[Any], target: int) -> int | None:
    """How many clicks send choice ``target`` by a click on the board (app.js ``pick``): 1
    if one of its values (a field other than the verb) names no other choice, 2 if the click
    leaves at most ``LIMIT`` choices, shown as buttons; None if no value of it can be clicked
    (a value a board draws: a string)."""
    chosen = choices[target]
    if not isinstance(chosen, dict):
        return None
    best: int | None = None
    for key, value in chosen.items():
        if key == "verb" or not isinstance(value, str):
            continue
        naming = [c for c in choices if isinstance(c, dict) and any(
            k != "verb" and v == value for k, v in c.items())]
        clicks = 1 if len(naming) == 1 else 2 if len(naming) <= LIMIT else None
        if clicks is not None and (best is None or clicks < best):
            best = clicks
    return best


def clicks_to(choices: Sequence[Any], usual: int, target: int, board: bool = False) -> int:
    """How many clicks app.js needs to send choice ``target`` by its buttons: the step
    buttons of a big choice, then the choice's own button (``usual``: -1 for none); with
    ``board``, by a click on the board where that takes fewer (``board_clicks``)."""
    buttons = button_clicks(choices, usual, target)
    on_board = board_clicks(choices, target) if board else None
    return buttons if on_board is None else min(buttons, on_board)


def button_clicks(choices: Sequence[Any], usual: int, target: int) -> int:
    """``clicks_to`` by the buttons only."""
    picks: list[tuple[str, str]] = []
    clicks = 0
    while True:
        left = [i for i in range(len(choices))
                if all(value_key(field_of(choices[i], f)) == k for f, k in picks)]
        if target == usual and usual in left:
            return clicks + 1
        step = next_step(choices, left, {f for f, _ in picks})
        if step is None:
            return clicks + 1
        name, groups = step
        keys = list(groups)
        shown = opened([groups[k] for k in keys], usual)
        for key, is_open in zip(keys, shown, strict=True):
            if target in groups[key]:
                if is_open:
                    return clicks + 1
                picks.append((name, key))
                clicks += 1
                break


# --- the counts ---------------------------------------------------------------------------
@dataclass
class Count:
    """What the person did in one game (or several, added up)."""

    games: int = 0
    decisions: int = 0
    clicks: int = 0
    by_page: int = 0
    step_clicks: int = 0
    turns: int = 0
    out_of_turn: int = 0
    by_plan: int = 0
    """Decisions taken as the next steps of a plan the person chose (issue 27)."""
    harmless_by_hand: int = 0
    """Decisions taken by hand whose usual choice can never hurt (auto-take could take them)."""
    usual_by_hand: int = 0
    """Decisions where the person clicked the usual choice (confirmations, one click each)."""
    model_mismatches: int = 0
    seconds: float = 0.0
    kinds: dict[str, list[int]] = field(default_factory=dict)
    """Per kind of decision (its verbs): [decisions, clicks]."""

    def add(self, other: Count) -> None:
        """Add ``other``'s numbers to these."""
        for name in ("games", "decisions", "clicks", "by_page", "by_plan", "step_clicks", "turns",
                     "out_of_turn", "harmless_by_hand", "usual_by_hand", "model_mismatches",
                     "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind, (d, c) in other.kinds.items():
            mine = self.kinds.setdefault(kind, [0, 0])
            mine[0] += d
            mine[1] += c

    def chose(self, mirror: Mirror, target: int, clicks: int, kind: list[int], usual: int,
              harmless: bool) -> None:
        """Count the person's choice ``target`` made with ``clicks`` (``kind``: its kind's
        [decisions, clicks]), then take it on ``mirror`` (a plan's next steps counted as
        decisions taken by a plan)."""
        self.clicks += clicks
        self.step_clicks += clicks - 1
        self.harmless_by_hand += harmless
        self.usual_by_hand += target == usual
        kind[1] += clicks
        taken = mirror.take(target)
        self.decisions += taken - 1
        self.by_plan += taken - 1

    def per_decision(self) -> float:
        """Clicks per decision."""
        return self.clicks / self.decisions if self.decisions else 0.0

    def summary(self) -> dict[str, Any]:
        """The numbers, and the ratios."""
        out = asdict(self)
        out["clicks_per_decision"] = round(self.per_decision(), 3)
        out["clicks_per_turn"] = round(self.clicks / self.turns, 3) if self.turns else None
        out["decisions_per_turn"] = round(self.decisions / self.turns, 3) if self.turns else None
        asked = self.decisions - self.by_page - self.by_plan
        out["asked_per_turn"] = round(asked / self.turns, 3) if self.turns else None
        out["seconds"] = round(self.seconds, 1)
        return out


def kind_of(choices: Sequence[Any]) -> str:
    """A decision's kind for the breakdown: its verbs, sorted."""
    verbs = sorted({str(c.get("verb", "?")) if isinstance(c, dict) else "?" for c in choices})
    return " / ".join(verbs)


class Mirror:
    """The game as the server plays it: the person's decisions applied as they are sent, the
    bots' worked out as the server does (``decide_in`` on the position, seed and step)."""

    def __init__(self, game: Game, players: int, seed: int, person: int,
                 bots: str, policy: str, plans: bool = True) -> None:
        self.game = game
        self.state: State = game.new_game(players=players, seed=seed)
        self.seed = seed
        self.person = person
        self.bot = make_bot(bots, game.name)
        self.policy = policy
        self.use_plans = plans
        self.step = 0
        self.turn_seat = first_seat(self.state)
        self.turns = 1 if self.turn_seat == person else 0

    def bot_choice(self, state: State | None = None, step: int | None = None) -> int:
        """The index of the legal action a normal bot takes for the seat to move now (in
        ``state`` at ``step``: by default the mirror's)."""
        state = self.state if state is None else state
        seat = state.to_move
        assert seat is not None
        world = self.game.from_position(state.position())
        legal = world.legal_actions()
        chosen = self.bot.choose(Observation(world, seat), legal,
                                 bot_rng(self.seed, self.step if step is None else step))
        return legal.index(chosen)

    def plans(self) -> list[Plan]:
        """The plans offered now (``Game.plans``)."""
        return self.game.plans(self.state)

    def bot_views(self, most: int = 16) -> list[str]:
        """The person's views (JSON text) after each of the next decisions a bot would take
        in the person's place, while the decisions stay the person's."""
        state, step = self.state.copy(), self.step
        out: list[str] = []
        while len(out) < most and state.to_move == self.person:
            state.apply(state.legal_actions()[self.bot_choice(state, step)])
            step += 1
            out.append(json.dumps(state.view(self.person), sort_keys=True))
        return out

    def plan_choice(self) -> int | None:
        """The index among the choices (the legal actions, then the plans) of the plan that
        leads where the bot's next decisions lead, standing for the most of them (two at
        least); None if none does."""
        plans = self.plans() if self.use_plans else []
        if not plans:
            return None
        ahead = self.bot_views()
        best: tuple[int, int] | None = None
        for index, plan in enumerate(plans):
            state = self.state.copy()
            for action in plan.actions:
                if following(state, self.person, [action]) is None:
                    break
                state.apply(action)
            seen = json.dumps(state.view(self.person), sort_keys=True)
            if seen in ahead[1:]:
                reach = ahead.index(seen)
                if best is None or reach > best[0]:
                    best = (reach, index)
        return None if best is None else len(self.state.legal_actions()) + best[1]

    def follow(self, plan: Plan) -> int:
        """Take ``plan`` as the page does: its steps one at a time while each is the
        person's legal decision (the bots deciding in between); how many were taken."""
        taken = 0
        steps = list(plan.actions)
        while steps:
            self.play_bots()
            action = following(self.state, self.person, steps)
            if action is None:
                break
            self.apply(self.state.legal_actions().index(action))
            steps.pop(0)
            taken += 1
        return taken

    def play_bots(self) -> None:
        """Let the bots move until the person is to decide or the game is over."""
        while (seat := self.state.to_move) is not None and seat != self.person:
            self.apply(self.bot_choice())

    def apply(self, index: int) -> None:
        """Apply legal action ``index`` of the seat to move."""
        self.state.apply(self.state.legal_actions()[index])
        self.step += 1
        current = first_seat(self.state)
        if current != self.turn_seat and current == self.person:
            self.turns += 1
        self.turn_seat = current

    def choices(self, offered: bool = False) -> list[Any]:
        """The person's choices: JSON, in order (the legal actions, then the plans if the
        person uses them, or with ``offered``, as the server sends them)."""
        plans = self.game.plans(self.state) if self.use_plans or offered else []
        return [a.to_json() for a in self.state.legal_actions()] + [dict(p.json) for p in plans]

    def usual(self) -> tuple[int, bool]:
        """The usual choice (-1: none) and whether it can never hurt."""
        legal = self.state.legal_actions()
        index = self.game.usual_choice(self.state, legal)
        if index is None:
            return -1, False
        return index, self.game.never_hurts(self.state, legal[index])

    def wanted(self) -> int:
        """The choice the person's policy takes (when the page does not take one)."""
        usual, _ = self.usual()
        if self.policy == "first":
            return usual if usual >= 0 else 0
        if self.policy == "usual" and usual >= 0:
            return usual
        plan = self.plan_choice()
        return self.bot_choice() if plan is None else plan

    def take(self, index: int) -> int:
        """Take choice ``index`` (an action, or past them a plan, followed to its end); the
        decisions taken."""
        legal = self.state.legal_actions()
        if index < len(legal):
            self.apply(index)
            return 1
        return self.follow(self.plans()[index - len(legal)])


def model_game(game_name: str, seed: int, bots: int, policy: str, auto: bool,
               plans: bool = True, board: bool = False) -> Count:
    """One game without a browser: the clicks app.js would need (``clicks_to``; with
    ``board``, a choice naming a place is clicked on the board where that takes fewer)."""
    started = time.monotonic()
    mirror = Mirror(load(game_name), bots + 1, seed, 0, "normal", policy, plans)
    count = Count(games=1)
    while True:
        mirror.play_bots()
        if mirror.state.to_move is None:
            break
        choices = mirror.choices()
        usual, harmless = mirror.usual()
        count.decisions += 1
        count.out_of_turn += mirror.turn_seat != mirror.person
        kind = count.kinds.setdefault(kind_of(choices), [0, 0])
        kind[0] += 1
        if auto and harmless:
            count.by_page += 1
            mirror.apply(usual)
            continue
        target = mirror.wanted()
        count.chose(mirror, target, clicks_to(choices, usual, target, board), kind,
                    usual, harmless)
    count.turns = mirror.turns
    count.seconds = time.monotonic() - started
    return count


# --- the browser --------------------------------------------------------------------------
def server_choices(base: str, token: str) -> list[dict[str, Any]]:
    """The choices the server offers the seat of ``token`` now."""
    response = httpx.get(f"{base}/api/view/{token}", timeout=30)
    response.raise_for_status()
    choices: list[dict[str, Any]] = response.json()["choices"]
    return choices


def check_offer(offered: list[dict[str, Any]], mirror: Mirror) -> None:
    """The page's server offers exactly the mirror's choices and marks; AssertionError if not."""
    usual, harmless = mirror.usual()
    assert [c["json"] for c in offered] == mirror.choices(True), "the server offers other choices"
    marked = [i for i, c in enumerate(offered) if c.get("usual")]
    assert marked == ([usual] if usual >= 0 else []), "another usual choice"
    assert bool(usual >= 0 and offered[usual].get("never_hurts")) == harmless


def browser_game(page: Any, base: str, game_name: str, seed: int, bots: int, policy: str,
                 auto: str, plans: bool = True) -> Count:
    """One game played on the real page; the clicks counted as they are made."""
    started = time.monotonic()
    response = httpx.post(f"{base}/api/tables", json={
        "game": game_name, "seats": ["human"] + ["normal"] * bots, "seed": seed}, timeout=60)
    response.raise_for_status()
    link = next(s["link"] for s in response.json()["seats"] if s["link"])
    token = link.rsplit("/", 1)[1]
    mirror = Mirror(load(game_name), bots + 1, seed, 0, "normal", policy, plans)
    page.goto(base + link)
    page.wait_for_function("() => document.body.dataset.step !== undefined")
    if auto != "page":
        page.locator("#auto-take").set_checked(auto == "on")
    count = Count(games=1)
    while True:
        page.wait_for_function(WAIT_FOR_ME, timeout=120000, polling=20)
        mirror.play_bots()
        if page.evaluate("document.body.dataset.over") == "yes":
            assert mirror.state.to_move is None, "the page ended before the mirror"
            break
        step = int(page.evaluate("document.body.dataset.step"))
        assert step == mirror.step, f"page at step {step}, mirror at {mirror.step}"
        choices = mirror.choices()
        check_offer(server_choices(base, token), mirror)
        usual, harmless = mirror.usual()
        count.decisions += 1
        count.out_of_turn += mirror.turn_seat != mirror.person
        kind = count.kinds.setdefault(kind_of(choices), [0, 0])
        kind[0] += 1
        if page.evaluate("document.body.dataset.autotake") == "yes":
            assert harmless, "the page takes a choice that may hurt"
            page.wait_for_function("(s) => document.body.dataset.step !== s", arg=str(step),
                                   timeout=30000, polling=20)
            count.by_page += 1
            mirror.apply(usual)
            continue
        target = mirror.wanted()
        clicks = click_to(page, choices, target)
        count.model_mismatches += clicks != clicks_to(choices, usual, target)
        count.chose(mirror, target, clicks, kind, usual, harmless)
    count.turns = mirror.turns
    count.seconds = time.monotonic() - started
    return count


def click_to(page: Any, choices: Sequence[Any], target: int) -> int:
    """Click the buttons that send choice ``target``: its own button if shown, else the step
    button of the group holding it, until it is sent; the number of clicks."""
    clicks = 0
    while True:
        before = page.evaluate(
            "() => ({step: document.body.dataset.step, picks: document.body.dataset.picks || '0'})")
        own = page.locator(f"{CHOICE}[data-index='{target}']")
        if own.count():
            own.first.click()
        else:
            for button in page.locator(STEP_BUTTON).all():
                name = button.get_attribute("data-field") or ""
                if button.get_attribute("data-value") == value_key(field_of(choices[target],
                                                                            name)):
                    button.click()
                    break
            else:
                raise AssertionError(f"no button leads to choice {target}")
        clicks += 1
        page.wait_for_function(MOVED, arg=before, timeout=30000, polling=20)
        error = page.locator("#error .banner")
        assert error.count() == 0, f"the server refused a click: {error.inner_text()}"
        if page.evaluate("document.body.dataset.step") != before["step"]:
            return clicks


def browser_run(games: Iterable[str], seeds: list[int], bots: int, policy: str,
                auto: str, port: int | None, plans: bool = True) -> dict[str, list[Count]]:
    """Every game and seed on one server and one browser."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="citywatch-clicks-"))
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "server.log"
    server = start_server(f"sqlite:///{folder / 'tables.db'}", port, log,
                          "--table-rate", "1000/minute", "--tables-per-address", "1000")
    results: dict[str, list[Count]] = {}
    try:
        wait_ready(base, server, log)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for game in games:
                    for seed in seeds:
                        context = browser.new_context(viewport={"width": 1366, "height": 800})
                        try:
                            count = browser_game(context.new_page(), base, game, seed, bots,
                                                 policy, auto, plans)
                        finally:
                            context.close()
                        report_line(game, seed, count)
                        results.setdefault(game, []).append(count)
            finally:
                browser.close()
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def report_line(game: str, seed: int, count: Count) -> None:
    """One game's numbers, as it ends."""
    print(f"{game} seed {seed}: {count.clicks} clicks / {count.decisions} decisions = "
          f"{count.per_decision():.2f} ({count.by_page} by the page, {count.by_plan} by a plan, "
          f"{count.step_clicks} step "
          f"clicks, {count.turns} turns, {count.out_of_turn} asked out of turn, "
          f"{count.harmless_by_hand} harmless and {count.usual_by_hand} usual by hand) "
          f"{count.seconds:.0f} s", flush=True)


def seed_list(text: str) -> list[int]:
    """``"1-4"`` or ``"1,3,7"`` -> the seeds."""
    out: list[int] = []
    for part in text.split(","):
        low, dash, high = part.partition("-")
        out += list(range(int(low), int(high) + 1)) if dash else [int(low)]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Measure; exit 1 if a game is above the target (or the page and the model disagree)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (repeat); default: "
                        + ", ".join(DEFAULT_GAMES))
    parser.add_argument("--seeds", default="1-3", help="seeds, e.g. 1-4 or 1,5 (default 1-3)")
    parser.add_argument("--bots", type=int, default=3, help="normal bots (default 3)")
    parser.add_argument("--policy", choices=("bot", "usual", "first"), default="bot")
    parser.add_argument("--auto", choices=("on", "off", "page"), default="page",
                        help="the auto-take setting (page: the page's default)")
    parser.add_argument("--plans", choices=("on", "off"), default="on",
                        help="take a plan where it stands for the bot's next decisions")
    parser.add_argument("--board", action="store_true",
                        help="with --model: click the board where that takes fewer clicks")
    parser.add_argument("--model", action="store_true",
                        help="no browser: count the clicks app.js would need")
    parser.add_argument("--port", type=int, help="the server's port (default: a free one)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    games = args.game or list(DEFAULT_GAMES)
    seeds = seed_list(args.seeds)
    if args.model:
        if args.auto == "page":
            parser.error("--model needs --auto on or off (it has no page)")
        results: dict[str, list[Count]] = {}
        for game in games:
            for seed in seeds:
                count = model_game(game, seed, args.bots, args.policy, args.auto == "on",
                                   args.plans == "on", args.board)
                report_line(game, seed, count)
                results.setdefault(game, []).append(count)
    else:
        results = browser_run(games, seeds, args.bots, args.policy, args.auto, args.port,
                              args.plans == "on")
    summary: dict[str, Any] = {}
    failed = False
    for game, counts in results.items():
        total = Count()
        for count in counts:
            total.add(count)
        summary[game] = total.summary()
        failed |= total.per_decision() > TARGET or total.model_mismatches > 0
    about = {"policy": args.policy, "auto": args.auto, "plans": args.plans,
             "board": args.board and args.model, "bots": args.bots,
             "seeds": args.seeds,
             "browser": not args.model, "target": TARGET}
    if args.json:
        print(json.dumps({"run": about, "games": summary}, indent=1))
    else:
        print(json.dumps(about))
        for game, numbers in summary.items():
            print(f"{game}: {numbers['clicks']} clicks / {numbers['decisions']} decisions = "
                  f"{numbers['clicks_per_decision']} per decision ({numbers['by_page']} by the "
                  f"page; {numbers['clicks_per_turn']} clicks and "
                  f"{numbers['decisions_per_turn']} decisions per turn, "
                  f"{numbers['asked_per_turn']} of them asked; "
                  f"{numbers['out_of_turn']} asked out of turn; "
                  f"{numbers['harmless_by_hand']} harmless and "
                  f"{numbers['usual_by_hand']} usual by hand; "
                  f"model mismatches {numbers['model_mismatches']})")
            kinds = sorted(numbers["kinds"].items(), key=lambda kv: -kv[1][1])[:8]
            for kind, (d, c) in kinds:
                print(f"    {c:5d} clicks {d:5d} decisions  {kind}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
