"""A study's report: the summary as JSON and CSV files, and an HTML page with plots (PNG)."""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citywatch.core.registry import load
from citywatch.lab.results import Result
from citywatch.lab.study import shown_value

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

RATE = ("games", "wins", "rate", "ci_low", "ci_high")
SPREAD = ("games", "mean", "median", "q1", "q3", "min", "max")
MOMENT_COLUMNS = ("kind", "decisions", "mean_swing", "ci_low", "ci_high", "mean_abs_swing")
"""The columns of ``moments.csv``: a row per kind of action (``lab.moments``)."""
TOP_KINDS = 15
"""The most kinds of action ``moments.png`` shows."""
COLOURS = ("#4c72b0", "#c44e52", "#8c8c8c", "#937860", "#55a868", "#8172b3", "#da8bc3")
"""Colours of the end reasons in the plots, in the summary's order of reasons."""


def write_report(folder: Path, summary: dict[str, Any], results: Sequence[Result]) -> list[Path]:
    """Write ``summary.json``, the CSV tables, the plots and ``index.html``; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [_write_json(folder / "summary.json", summary)]
    written += write_csv(folder, summary, results)
    written += write_plots(folder, summary, results)
    page = folder / "index.html"
    page.write_text(render_html(summary), encoding="utf-8")
    written.append(page)
    return written


def _write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def _table(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _rate_row(rate: dict[str, Any]) -> list[Any]:
    return [rate[k] for k in RATE]


def write_csv(folder: Path, summary: dict[str, Any], results: Sequence[Result]) -> list[Path]:
    """One CSV per table of the summary, and ``games.csv`` with one row per game."""
    names = summary["seat_names"]
    firsts = summary["first_player_by_seat"]
    sweep = summary["sweep"]["combinations"] if "sweep" in summary else []
    out = [
        _table(folder / "seats.csv", ("seat", "name", "bot", "moved_first", *RATE),
               [[s, names[s], summary["bots"][s], firsts[s], *_rate_row(r)]
                for s, r in enumerate(summary["win_rate_by_seat"])]),
        _table(folder / "turn_order.csv", ("after_first", *RATE),
               [[k, *_rate_row(r)] for k, r in enumerate(summary["win_rate_by_turn_order"])]),
        _table(folder / "roles.csv", ("role", *RATE),
               [[k, *_rate_row(r)] for k, r in summary["win_rate_by_role"].items()]),
        _table(folder / "bots.csv", ("bot", *RATE),
               [[k, *_rate_row(r)] for k, r in summary["win_rate_by_bot"].items()]),
        _table(folder / "end_reasons.csv", ("reason", "games", "share", "ci_low", "ci_high",
                                            *(f"turns_{k}" for k in SPREAD[1:])),
               [[k, r["wins"], r["rate"], r["ci_low"], r["ci_high"],
                 *(summary["turns_by_end_reason"][k][s] for s in SPREAD[1:])]
                for k, r in summary["end_reason_rates"].items()]),
        _table(folder / "cards.csv", ("card", *RATE),
               [[k, *_rate_row(r)] for k, r in summary["win_rate_by_card"].items()]),
        _table(folder / "games.csv", ("game", "seed", "bot_seed", "first", "winners", "reason",
                                      "turns", "decisions", "roles", "points",
                                      *(("combination",) if sweep else ())),
               [[r.index, r.seed, r.bot_seed, "" if r.first is None else r.first,
                 " ".join(map(str, r.winners)), r.reason, r.turns, r.decisions,
                 ";".join(r.roles), " ".join(map(str, r.points or ())),
                 *((sweep[r.index % len(sweep)]["label"],) if sweep else ())]
                for r in results]),
    ]
    if sweep:
        out.append(write_sweep_csv(folder, summary))
    moments = summary.get("decisive_moments")
    if moments is not None:
        out.append(_table(folder / "moments.csv", MOMENT_COLUMNS,
                          [[row[k] for k in MOMENT_COLUMNS] for row in moments["kinds"]]))
    matrix = summary.get("seat_matrix")
    if matrix is not None:
        out.append(_table(folder / "seat_matrix.csv", (matrix["choice"], "against", *RATE),
                          [[row, column, *_rate_row(rate)]
                           for row, cells in matrix["rows"].items()
                           for column, rate in cells.items()]))
    return out


def write_sweep_csv(folder: Path, summary: dict[str, Any]) -> Path:
    """``sweep.csv``: a row per combination of swept values: the values, games, the share
    of games somebody won, each seat's win rate (all with intervals) and the length."""
    swept = list(summary["sweep"]["options"])
    seats = range(summary["players"])
    header = [*swept, "games", *(f"any_winner_{k}" for k in RATE[1:]),
              *(f"seat_{s}_{k}" for s in seats for k in RATE[1:]),
              *(f"turns_{k}" for k in SPREAD[1:]), "mean_decisions"]
    rows = [[*(c["options"][name] for name in swept), c["games"],
             *(c["any_winner"][k] for k in RATE[1:]),
             *(c["win_rate_by_seat"][s][k] for s in seats for k in RATE[1:]),
             *(c["turns"][k] for k in SPREAD[1:]), c["mean_decisions"]]
            for c in summary["sweep"]["combinations"]]
    return _table(folder / "sweep.csv", header, rows)


def _errorbars(ax: Axes, labels: Sequence[str], rates: Sequence[dict[str, Any]],
               baseline: float | None, colour: str = "#4c72b0") -> None:
    """Horizontal bars of rates with their intervals, the first label on top."""
    y = list(range(len(labels)))[::-1]
    values = [r["rate"] for r in rates]
    low = [r["rate"] - r["ci_low"] for r in rates]
    high = [r["ci_high"] - r["rate"] for r in rates]
    ax.barh(y, values, xerr=[low, high], color=colour, alpha=0.8, capsize=3,
            error_kw={"elinewidth": 1})
    ax.set_yticks(y, labels)
    if baseline is not None:
        ax.axvline(baseline, color="black", linestyle="--", linewidth=1,
                   label=f"even share {baseline:.0%}")
        ax.legend(loc="best", fontsize="small")
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlim(0, min(1.0, max([r["ci_high"] for r in rates] + [0.1]) * 1.1))
    ax.grid(axis="x", alpha=0.3)


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return path


def write_plots(folder: Path, summary: dict[str, Any], results: Sequence[Result]) -> list[Path]:
    """``roles.png``, ``seats.png``, ``turns.png``, ``end_reasons.png``, ``cards.png``,
    for a study that sweeps options ``sweep.png``, and with the decisive moments
    ``moments.png``."""
    from matplotlib.figure import Figure  # matplotlib takes ~1 s to import: only for the plots

    out = []
    players = summary["players"]
    even = 1 / players
    games = summary["games"]
    title = (f"{games} games, {players} players, bots {', '.join(sorted(set(summary['bots'])))}"
             + _options(summary))

    roles = summary["win_rate_by_role"]
    fig = Figure(figsize=(8, 1.2 + 0.45 * max(1, len(roles))))
    ax = fig.subplots()
    ranked = sorted(roles.items(), key=lambda kv: -kv[1]["rate"])
    _errorbars(ax, [f"{k} ({v['games']})" for k, v in ranked], [v for _, v in ranked], even)
    role = summary["role"]
    ax.set_title(f"Win rate by {role} (times dealt), 95% intervals\n{title}", fontsize=10)
    out.append(_save(fig, folder / "roles.png"))

    fig = Figure(figsize=(8, 1.6 + 0.9 * players))
    top, bottom = fig.subplots(2, 1)
    _errorbars(top, summary["seat_names"], summary["win_rate_by_seat"], even)
    top.set_title("Win rate by seat", fontsize=10)
    order = ["moved first"] + [f"{k} after first" for k in range(1, players)]
    _errorbars(bottom, order, summary["win_rate_by_turn_order"], even, "#55a868")
    bottom.set_title("Win rate by place in turn order", fontsize=10)
    out.append(_save(fig, folder / "seats.png"))

    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    reasons = list(summary["end_reasons"])
    turns = [r.turns for r in results]
    if turns:
        lo, hi = min(turns), max(turns)
        bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 40 + 1)))
        data = [[r.turns for r in results if r.reason == reason] for reason in reasons]
        ax.hist(data, bins=bins, stacked=True, label=reasons,
                color=[COLOURS[k % len(COLOURS)] for k in range(len(reasons))])
        ax.axvline(summary["turns"]["median"], color="black", linestyle="--", linewidth=1,
                   label=f"median {summary['turns']['median']:g}")
        ax.legend(fontsize="small")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title(f"Game length by end reason\n{title}", fontsize=10)
    out.append(_save(fig, folder / "turns.png"))

    fig = Figure(figsize=(8, 2.6))
    ax = fig.subplots()
    shares = summary["end_reason_rates"]
    _errorbars(ax, [f"{k} ({v['wins']:g})" for k, v in shares.items()], list(shares.values()),
               None, "#c44e52")
    ax.set_title("How games end (share of games), 95% intervals", fontsize=10)
    out.append(_save(fig, folder / "end_reasons.png"))

    cards = summary["most_decisive_cards"] + summary["least_decisive_cards"]
    fig = Figure(figsize=(8, 1.2 + 0.32 * max(1, len(cards))))
    ax = fig.subplots()
    if cards:
        colours = ["#55a868"] * len(summary["most_decisive_cards"])
        colours += ["#c44e52"] * len(summary["least_decisive_cards"])
        _errorbars(ax, [f"{c['card']} ({c['games']})" for c in cards], cards, even)
        for patch, colour in zip(ax.patches, colours, strict=False):
            patch.set_facecolor(colour)
    else:
        ax.text(0.5, 0.5, f"no card played {summary['min_plays']} times or more",
                ha="center", va="center", transform=ax.transAxes)
    ax.set_title("Win rate of players who played the card: most and least decisive\n"
                 f"(cards played at least {summary['min_plays']} times), 95% intervals",
                 fontsize=10)
    out.append(_save(fig, folder / "cards.png"))

    if "sweep" in summary:
        rows = summary["sweep"]["combinations"]
        fig = Figure(figsize=(8, 1.4 + 0.4 * len(rows)))
        ax = fig.subplots()
        _errorbars(ax, [f"{c['label']} ({c['games']})" for c in rows],
                   [c["any_winner"] for c in rows], None, "#55a868")
        ax.set_xlim(0, 1)
        ax.set_title("Share of games somebody won (a co-operative crew's win rate) by swept "
                     f"options (games), 95% intervals\n{title}", fontsize=10)
        out.append(_save(fig, folder / "sweep.png"))
    if "decisive_moments" in summary:
        out.append(plot_moments(folder, summary["decisive_moments"]))
    return out


def plot_moments(folder: Path, moments: dict[str, Any]) -> Path:
    """``moments.png``: the mean swing of the ``TOP_KINDS`` kinds of action with the largest
    mean absolute swing among those seen twice or more (an interval needs two), with their
    95% intervals, the largest on top."""
    from matplotlib.figure import Figure

    rows = [row for row in moments["kinds"] if row["ci_low"] is not None][:TOP_KINDS]
    fig = Figure(figsize=(8, 1.4 + 0.36 * max(1, len(rows))))
    ax = fig.subplots()
    if rows:
        y = list(range(len(rows)))[::-1]
        means = [row["mean_swing"] for row in rows]
        ax.barh(y, means, xerr=[[m - row["ci_low"] for m, row in zip(means, rows, strict=True)],
                                [row["ci_high"] - m for m, row in zip(means, rows, strict=True)]],
                color=["#55a868" if m >= 0 else "#c44e52" for m in means], alpha=0.8,
                capsize=3, error_kw={"elinewidth": 1})
        ax.set_yticks(y, [f"{row['kind']} ({row['decisions']})" for row in rows])
        ax.axvline(0, color="black", linewidth=1)
        ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.0f}" if round(100 * v) else "0")
        ax.set_xlabel("mean swing of the mover's winning chance (percentage points)")
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.text(0.5, 0.5, "no kind of action was decided twice with a choice", ha="center",
                va="center", transform=ax.transAxes)
    ax.set_title(f"Decisive moments: mean swing by kind of action (decisions), 95% intervals\n"
                 f"{moments['games']} games analysed at {moments['level']} strength, "
                 f"largest mean absolute swing on top", fontsize=10)
    return _save(fig, folder / "moments.png")


def _pct(rate: dict[str, Any]) -> str:
    return (f"<td>{rate['rate']:.1%}</td>"
            f"<td>{rate['ci_low']:.1%} – {rate['ci_high']:.1%}</td>")


def _rows(items: Sequence[tuple[str, dict[str, Any]]], wins: bool = True) -> str:
    return "\n".join(
        f"<tr><th>{html.escape(name)}</th><td>{r['games']}</td>"
        + (f"<td>{r['wins']:g}</td>" if wins else "") + _pct(r) + "</tr>"
        for name, r in items)


def render_seat_matrix(summary: dict[str, Any]) -> str:
    """The section of a per-seat set-up choice's documents against each other, titled with
    the choice's name ("NAME against NAME"; empty for a game without such a choice): a cell
    per row document and column document, the row's win rate, its interval and games."""
    matrix = summary.get("seat_matrix")
    if matrix is None:
        return ""
    e = html.escape
    name = str(matrix["choice"])
    words = summary.get("seat_choice") or {}
    plural = str(words.get("plural") or f"{name}s")
    names = matrix["names"]
    head = (f"<tr><th>{e(name)} \\ against</th>" + "".join(f"<th>{e(n)}</th>" for n in names)
            + "</tr>")
    rows = []
    for row in names:
        cells = []
        for column in names:
            rate = matrix["rows"].get(row, {}).get(column)
            cells.append("<td>–</td>" if rate is None else
                         f"<td>{rate['rate']:.1%}<br><small>{rate['ci_low']:.1%} – "
                         f"{rate['ci_high']:.1%}<br>{rate['games']} games</small></td>")
        rows.append(f"<tr><th>{e(row)}</th>{''.join(cells)}</tr>")
    by_seat = words.get("by_seat")
    chosen = (f"{e(plural.capitalize())} by seat: {e(', '.join(by_seat))}."
              if isinstance(by_seat, list) else
              f"The shipped {e(plural)} were rotated over the seats so each pairing was played.")
    return f"""
<h2>{e(name.capitalize())} against {e(name)}</h2>
<p class="note">Win rate of the row's {e(name)} in the games it played against the column's
{e(name)} (a share of the win per game), with its 95% Wilson interval. {chosen} All cells are
in seat_matrix.csv.</p>
<table>{head}
{chr(10).join(rows)}</table>
"""


def render_sweep(summary: dict[str, Any]) -> str:
    """The swept-options section (empty without a sweep): a row per combination with its
    games, the share of games somebody won, each seat's win rate and the mean length."""
    if "sweep" not in summary:
        return ""
    e = html.escape
    swept = list(summary["sweep"]["options"])
    names = summary["seat_names"]
    head = ("<tr>" + "".join(f"<th>{e(n)}</th>" for n in swept) + "<th>games</th>"
            "<th>somebody won</th><th>95% interval</th>"
            + "".join(f"<th>{e(n)}</th>" for n in names) + "<th>mean turns</th></tr>")
    rows = []
    for c in summary["sweep"]["combinations"]:
        seats = "".join(
            f"<td>{r['rate']:.1%}<br><small>{r['ci_low']:.1%} – {r['ci_high']:.1%}</small></td>"
            for r in c["win_rate_by_seat"])
        values = "".join(f"<th>{e(str(c['options'][n]))}</th>" for n in swept)
        rows.append(f"<tr>{values}<td>{c['games']}</td>{_pct(c['any_winner'])}{seats}"
                    f"<td>{_num(c['turns']['mean'])}</td></tr>")
    return f"""
<h2>Swept options</h2>
<p class="note">Game k played combination k mod {len(rows)} of the swept values. "Somebody
won": the share of the combination's games with a winner (for a co-operative game, the
crew's win rate); each seat's column is its share of the wins; 95% Wilson intervals. All
columns are in sweep.csv.</p>
<table>{head}
{chr(10).join(rows)}</table>
<img src="sweep.png" alt="share of games somebody won by swept options">
"""


def _points(value: float | None) -> str:
    """A swing in signed percentage points, one decimal (``"+3.2"``); ``–`` for none."""
    return "–" if value is None else f"{100 * value:+.1f}"


def render_moments(summary: dict[str, Any]) -> str:
    """The decisive moments' section (empty without them): a row per kind of action with
    its decisions, mean swing, interval and mean absolute swing, and the plot."""
    moments = summary.get("decisive_moments")
    if moments is None:
        return ""
    e = html.escape
    rows = "\n".join(
        f"<tr><th>{e(row['kind'])}</th><td>{row['decisions']}</td>"
        f"<td>{_points(row['mean_swing'])}</td>"
        + ("<td>–</td>" if row["ci_low"] is None
           else f"<td>{_points(row['ci_low'])} – {_points(row['ci_high'])}</td>")
        + f"<td>{100 * row['mean_abs_swing']:.1f}</td></tr>"
        for row in moments["kinds"])
    return f"""
<h2>Decisive moments</h2>
<p class="note">The coach analysed the first {moments['games']} games at {e(moments['level'])}
strength: before and after each of the {moments['decisions']} decisions with a choice, the
mover's chance of winning (a co-operative crew's) as the mover could judge it. A decision's
swing is its chance after less before, in percentage points. Per card or kind of action: its
decisions, the mean swing with its 95% interval (Student's t; none for a single decision)
and the mean absolute swing, which orders the rows: the kinds of decision that moved the
chances most come first (mind the counts). All rows are in moments.csv.</p>
<table><tr><th>card or kind of action</th><th>decisions</th><th>mean swing</th>
<th>95% interval</th><th>mean absolute swing</th></tr>
{rows}</table>
<img src="moments.png" alt="mean swing by kind of action">
"""


def render_html(summary: dict[str, Any]) -> str:
    """The report page: the study, its tables with intervals, and the plots."""
    e = html.escape
    role = summary["role"]
    head = "<tr><th></th><th>games</th><th>wins</th><th>win rate</th><th>95% interval</th></tr>"
    seats = _rows([(f"{n} ({b})", r) for n, b, r in zip(
        summary["seat_names"], summary["bots"], summary["win_rate_by_seat"], strict=True)])
    order = _rows([("moved first" if k == 0 else f"{k} after first", r)
                   for k, r in enumerate(summary["win_rate_by_turn_order"])])
    people = _rows(sorted(summary["win_rate_by_role"].items(),
                          key=lambda kv: -kv[1]["rate"]))
    bots = _rows(list(summary["win_rate_by_bot"].items()))
    ends = "\n".join(
        f"<tr><th>{e(k)}</th><td>{r['wins']:g}</td>{_pct(r)}"
        + "".join(f"<td>{_num(summary['turns_by_end_reason'][k][s])}</td>"
                  for s in ("mean", "median", "q1", "q3")) + "</tr>"
        for k, r in summary["end_reason_rates"].items())
    top = _rows([(c["card"], c) for c in summary["most_decisive_cards"]])
    bottom = _rows([(c["card"], c) for c in summary["least_decisive_cards"]])
    turns = summary["turns"]
    run = summary["run"]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>citywatch study: {e(summary['game'])}, {summary['games']} games</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; }}
th, td {{ padding: 0.2rem 0.7rem; border-bottom: 1px solid #ddd; text-align: right; }}
th:first-child {{ text-align: left; }}
img {{ max-width: 100%; }}
.note {{ color: #666; font-size: 0.9rem; }}
</style></head><body>
<h1>{e(summary['game'])}: {summary['games']} games, {summary['players']} players</h1>
<p>Master seed {summary['seed']}; bots {e(', '.join(summary['bots']))}{e(_options(summary))}.
Mean turns {turns['mean']:.1f} (median {_num(turns['median'])}, quartiles {_num(turns['q1'])} –
{_num(turns['q3'])}); mean decisions {summary['mean_decisions']:.1f}.</p>
<p class="note">Intervals are 95% Wilson score intervals. A drawn game gives each winner an equal
share. This run: {e(run['backend'])}, {run['workers']} workers, {run['games_played']} games
played, {run['games_resumed']} read back from games.jsonl, {summary['games_per_second']:.1f}
games/s.</p>
{render_sweep(summary)}
<h2>By {e(role)}</h2>
<p class="note">Games: the times each {e(role)} was played.</p>
<table>{head}
{people}</table>
<img src="roles.png" alt="win rate by {e(role)}">
{render_seat_matrix(summary)}
<h2>Seats and turn order</h2>
<table>{head}
{seats}</table>
<table>{head}
{order}</table>
<img src="seats.png" alt="win rate by seat and turn order">

<h2>Bots</h2>
<table>{head}
{bots}</table>

<h2>How and when games end</h2>
<table><tr><th></th><th>games</th><th>share</th><th>95% interval</th><th>mean turns</th>
<th>median</th><th>q1</th><th>q3</th></tr>
{ends}</table>
<img src="end_reasons.png" alt="end reasons">
<img src="turns.png" alt="game length histogram">

<h2>Cards</h2>
<p class="note">Win rate of the players who played the card, among cards played at least
{summary['min_plays']} times (games: seat-games in which the card was played).
All cards are in cards.csv.</p>
<h3>Most decisive</h3>
<table>{head}
{top}</table>
<h3>Least decisive</h3>
<table>{head}
{bottom}</table>
<img src="cards.png" alt="most and least decisive cards">
{render_moments(summary)}
<p class="note">Files: summary.json, seats.csv, turn_order.csv, roles.csv, bots.csv,
end_reasons.csv, cards.csv, games.csv, games.jsonl{
', seat_matrix.csv' if summary.get('seat_matrix') is not None else ''}{
', sweep.csv' if 'sweep' in summary else ''}{
', moments.csv' if 'decisive_moments' in summary else ''}.</p>
</body></html>
"""


def _options(summary: dict[str, Any]) -> str:
    """``"; options NAME=2, OTHER=100"`` for a study with game options, else ``""``
    (and ``"; sweep NAME=1/5"`` for a study that sweeps options); a set-up choice's
    document of one's own by its name (``shown_value``)."""
    game = load(summary["game"])
    options = summary.get("options") or {}
    text = ("; options " + ", ".join(f"{k}={shown_value(game, k, v)}" for k, v in options.items())
            if options else "")
    swept = summary.get("sweep", {}).get("options", {})
    if swept:
        text += "; sweep " + ", ".join(
            f"{k}={'/'.join(str(shown_value(game, k, value)) for value in v)}"
            for k, v in swept.items())
    return text


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:g}" if value == int(value) else f"{value:.1f}"
