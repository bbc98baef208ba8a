"""Issue 26 for Thieves of the Black Keep: the hexes one decision touched
(``Game.move_spaces``), read from the spectator's views and the public lines only."""

from __future__ import annotations

import copy

from citywatch.games.black_keep.game import GAME


def test_move_spaces_are_where_guards_markers_and_torches_changed_and_named_hexes() -> None:
    """Issue 26: a guard that stepped marks the hex it left and the hex it reached (one that
    only turned, its hex), a Thief Marker or a put-out torch its hex, a public line the hexes
    it names (on the map only), in the map's order."""
    after = GAME.new_game(2, 4, scenario="the-vault").view(None)
    labels = list(after["map"]["hexes"])
    assert GAME.move_spaces(after, after, []) == []
    before = copy.deepcopy(after)
    guard = next(g for g in after["guards"] if g["hex"])
    old = next(label for label in labels if label != guard["hex"])
    before["guards"][after["guards"].index(guard)]["hex"] = old
    found = GAME.move_spaces(before, after, [])
    assert found == [label for label in labels if label in {old, guard["hex"]}]
    before = copy.deepcopy(after)
    after["markers"] = [*after["markers"], {"hex": labels[3], "order": 9}]
    after["extinguished"] = [*after["extinguished"], labels[5]]
    assert GAME.move_spaces(before, after, [f"Thief 2's Run makes a noise at {labels[7]}.",
                                            "Round Z99 is not a hex."]) == [
        labels[3], labels[5], labels[7]]
