"""Guardians of the City: the log says what happened (issue 29). A raise capped at the most a
Citizen Group's support (4) or a Terrorist Cell's strength (6) can be (rulebook section 9) is
told as such: "rises to 4, the most", and "stays at 4, the most" for one already there."""

from __future__ import annotations

from gotc_positions import act, cells, crisis_top, effort, game_with, hand, load, reveal, step2
from gotc_positions import support as set_support

from citywatch.games.guardians_of_the_city.effects import raised_text
from citywatch.games.guardians_of_the_city.state import GotcState

P1, P2 = 0, 1


def new_lines(s: GotcState, before: int) -> list[str]:
    """The log's sentences after the first ``before``, as every seat reads them."""
    return s.log(None)[before:]


def test_the_raise_sentence_names_a_cap_and_a_value_that_stays() -> None:
    """Rulebook section 9: support never rises above 4, cell strength never above 6; the
    sentence says "the most" when the value reaches the cap and "stays" when it was there."""
    assert raised_text(2, 3, 4, "rises") == "rises to 3"
    assert raised_text(3, 4, 4, "rises") == "rises to 4, the most"
    assert raised_text(4, 4, 4, "rises") == "stays at 4, the most"
    assert raised_text(6, 6, 6, "is raised") == "stays at 6, the most"


def test_community_policing_on_a_group_at_4_says_it_stays_at_4() -> None:
    """Community Policing (Civil 2): +1 to a chosen group, never above 4 (rulebook section
    9): Youth at 4 "stays at 4, the most", never "rises to 4"."""
    pos = game_with("Community Policing")
    step2(pos, P1)
    hand(pos, P1, ["Community Policing"])
    effort(pos, P1, "32322")
    cells(pos, "666")
    set_support(pos, P1, "4434")
    s = load(pos)
    before = len(s.log(None))
    act(s, "Play Community Policing", "Reduce The Grey Couriers", "Raise the support of Youth")
    lines = new_lines(s, before)
    assert "Player 1's Youth support stays at 4, the most." in lines
    assert not any("rises to 4" in line for line in lines)
    assert s.support[P1] == [4, 4, 3, 4]


def test_national_reserves_capped_says_rises_to_4_the_most() -> None:
    """National Reserves (Economic 4): a chosen group +2, never above 4 (rulebook section 9):
    from 3 it "rises to 4, the most"."""
    pos = game_with("National Reserves")
    step2(pos, P1)
    hand(pos, P1, ["National Reserves"])
    effort(pos, P1, "22422")
    set_support(pos, P1, "3124")
    s = load(pos)
    before = len(s.log(None))
    act(s, "Play National Reserves", "Raise the support of Youth")
    assert "Player 1's Youth support rises to 4, the most." in new_lines(s, before)


def test_coordinated_terror_plot_says_which_cells_rise_and_which_stay_at_6() -> None:
    """Coordinated Terror Plot: every surviving cell +1, never above 6 (ruling 15): a cell at
    6 "stays at 6, the most", one at 5 "is raised to 6, the most"; an eliminated cell is
    never raised and not named."""
    pos = game_with("Coordinated Terror Plot")
    effort(pos, P1, "33222")
    effort(pos, P2, "33222")
    cells(pos, "605")
    crisis_top(pos, P1, ["Coordinated Terror Plot"])
    s = load(reveal(pos, P1))
    lines = s.log(None)
    assert "The Harbour Network stays at 6, the most." in lines
    assert "The Night Signal is raised to 6, the most." in lines
    assert not any(line.startswith("The Grey Couriers") for line in lines)
    assert s.cells == [6, 0, 6]
