"""Issue 26 for Guardians of the City: the cells and nations one decision touched
(``Game.move_spaces``), read from the spectator's views and the public lines only."""

from __future__ import annotations

import copy

from citywatch.games.guardians_of_the_city.game import GAME


def test_move_spaces_are_the_cells_and_nations_that_changed_or_are_named() -> None:
    """Issue 26: a cell whose strength changed or that a public line names, then a nation whose
    support, Shield or Counter-Terrorism points changed (by its seat's name), in the board's
    order; a nation whose effort alone changed is not marked."""
    after = GAME.new_game(2, 8).view(None)
    cells = [cell["name"] for cell in after["cells"]]
    assert GAME.move_spaces(after, after, []) == []
    before = copy.deepcopy(after)
    after["cells"][2]["strength"] -= 1
    group = next(iter(after["seats"][1]["support"]))
    after["seats"][1]["support"][group] -= 1
    after["seats"][0]["effort"] = {}
    assert GAME.move_spaces(before, after, [f"{cells[0]} is named."]) == [
        cells[0], cells[2], after["seats"][1]["name"]]
    before = copy.deepcopy(after)
    after["seats"][0]["shield"] += 1
    assert GAME.move_spaces(before, after, []) == [after["seats"][0]["name"]]
