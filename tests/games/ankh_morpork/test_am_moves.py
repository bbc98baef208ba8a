"""Issue 26 for Ankh-Morpork: the areas a decision touched (``Game.move_spaces``) and the moves
since a seat's last decision, hidden cards never among them."""

from __future__ import annotations

import copy
import json

from helpers import GAME, do, give, start
from test_am_table import hidden_card_move, red

from citywatch.core.moves import MoveHistory

COLOURS = ["Red", "Blue", "Green", "Yellow"]


def test_move_spaces_are_the_areas_named_by_public_lines_or_changed_on_the_board() -> None:
    """Issue 26: the areas one decision touched are those its public lines name and those
    whose pieces or trouble changed between the spectator's views, in board order; a private
    line naming an area does not count (only public lines are read)."""
    s = hidden_card_move()
    after = s.view(None)
    assert GAME.move_spaces(after, after, ["Red placed a minion in Dimwell."]) == ["Dimwell"]
    before = copy.deepcopy(after)
    before["areas"]["The Hippo"]["trouble"] = not after["areas"]["The Hippo"]["trouble"]
    assert GAME.move_spaces(before, after, ["Red looked towards Dolly Sisters."]) == [
        "Dolly Sisters", "The Hippo"]
    written = len(s.log(-1))
    s.say("Red secretly looked towards The Shades.", seats=(0, 1))
    assert s.log(-1)[written:] == []  # what the history hands the game: public lines only
    assert GAME.move_spaces(after, s.view(None), s.log(-1)[written:]) == []
    s.say("Red looked towards The Shades.")
    assert GAME.move_spaces(after, s.view(None), s.log(-1)[written:]) == ["The Shades"]


def test_moves_sent_to_other_seats_name_no_card_of_a_hidden_hand() -> None:
    """Issue 26 (hidden information): Red's Cable Street Particulars, watched by Green: Green's
    moves hold Red's move with Green's own lines (that Red looked, not the cards) and Dimwell;
    Blue's hold the cards Blue may read; the spectator's none of them."""
    p = red("Cable Street Particulars", "Groat")
    give(p, "Blue", "Mr Boggis", "Stanley", "Modo")
    s = start(p)
    history = MoveHistory(s)
    for text in ("Play Cable Street Particulars", "Do the text of Cable Street Particulars",
                 "Make Blue discard Stanley", "Place a minion in Dimwell"):
        seat = s.to_move
        assert seat == 0
        do(s, text)
        history.add(seat, s)

    def moves(seat: int | None) -> list[dict[str, object]]:
        return history.since(seat, s.log(-1 if seat is None else seat), s.to_move, COLOURS)

    green, blue, spectator = moves(2), moves(1), moves(None)
    assert [m["by"] for m in green] == ["Red"] and green[0]["spaces"] == ["Dimwell"]
    assert green[0]["lines"] == s.log(2)[-len(green[0]["lines"]):]
    for secret in ("Modo", "Mr Boggis"):
        assert secret not in json.dumps(green) and secret not in json.dumps(spectator)
    assert "Mr Boggis" in json.dumps(blue)
    assert blue[0]["spaces"] == green[0]["spaces"] == spectator[0]["spaces"]
    assert blue[0]["mentions"] and all("Blue" in blue[0]["lines"][i]
                                       for i in blue[0]["mentions"])
