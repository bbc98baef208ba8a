"""``citywatch scenario``: a game's shipped scenarios (``list``), or a scenario file checked
against every rule (``check``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citywatch.cli.arguments import read_json_file, scenario_option
from citywatch.core.registry import game_names, load


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scenario`` subcommand, with ``list`` and ``check``, to ``subparsers``."""
    scen = subparsers.add_parser("scenario",
                                 help="list a game's scenarios or check a scenario file")
    scen_sub = scen.add_subparsers(dest="scenario_command", required=True)
    scen_list = scen_sub.add_parser("list", help="the shipped scenarios of every game with some")
    scen_list.add_argument("scenario_game", nargs="?", default=None, choices=game_names(),
                           metavar="GAME", help="only this game")
    scen_check = scen_sub.add_parser("check", help="check a scenario file against every rule")
    scen_check.add_argument("file", type=Path, help="a scenario's JSON file")
    scen_check.add_argument("--game", dest="scenario_game", choices=game_names(),
                            help="the scenario's game (needed only when several games have "
                                 "scenarios)")


def run(args: argparse.Namespace) -> int:
    """``citywatch scenario list [GAME]`` and ``citywatch scenario check FILE``: exit 0 for a
    good scenario, 1 for one that breaks rules (each printed), 2 for a file that cannot be
    read or a game without scenarios."""
    with_scenarios = [n for n in game_names() if scenario_option(load(n)) is not None]
    name = args.scenario_game
    if name is None and args.scenario_command == "check":
        if len(with_scenarios) != 1:
            print(f"citywatch scenario check: give --game ({', '.join(with_scenarios)})",
                  file=sys.stderr)
            return 2
        name = with_scenarios[0]
    names = [name] if name else with_scenarios
    for game_name in names:
        if scenario_option(load(game_name)) is None:
            print(f"citywatch scenario: error: {game_name} has no scenarios", file=sys.stderr)
            return 2
    if args.scenario_command == "list":
        for game_name in names:
            option = scenario_option(load(game_name))
            assert option is not None
            print(f"{load(game_name).display_name()} ({game_name}): scenarios "
                  f"(default {option.default})")
            for choice in option.choices:
                print(f"  {choice}")
        return 0
    option = scenario_option(load(name))
    assert option is not None and option.document is not None
    try:
        data = read_json_file(args.file)
    except ValueError as exc:
        print(f"citywatch scenario check: {exc}", file=sys.stderr)
        return 2
    problems = option.document(data)
    title = option.show(data) if isinstance(data, dict) else "the file"
    if problems:
        print(f"{args.file}: {title} breaks {len(problems)} rule(s) of a "
              f"{load(name).display_name()} scenario:")
        for problem in problems:
            print(f"  - {problem}")
        return 1
    print(f"{args.file}: {title} is a good scenario for {load(name).display_name()}")
    return 0
