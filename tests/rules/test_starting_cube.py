"""The starting cube (house rule ``starting-cube``): every cube of a game starts at N,
centred, as a chouette tournament's level plays it (the Florida "Chouette Challenge" [S29]:
1, 2, 4 … 64 by session). A single is worth N points, a take turns it to 2N, Jacoby still
counts a gammon single on it; under table stakes, covering the starting cube means N points
against each opponent."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.card import rule_lines
from chouette.errors import ChouetteError
from chouette.line import new_line, set_bank, uncovered
from chouette.rules import HouseRules
from tests.table import outcome, play, show

LEVEL_TWO = HouseRules(starting_cube=2)


def test_a_single_at_a_starting_cube_of_two_is_two_points_a_pair():
    game = play(new_line(["B", "C", "M1"], LEVEL_TWO), "end team", rules=LEVEL_TWO)
    assert outcome(game).points == {"B": -4, "C": 2, "M1": 2}


def test_a_take_turns_the_starting_cube_to_twice_its_value():
    game = play(
        new_line(["B", "C", "M1"], LEVEL_TWO),
        "double C",
        "take C",
        "end box gammon",
        rules=LEVEL_TWO,
    )
    # C's cube at 4, a gammon; M1's centred 2: Jacoby counts it single
    assert outcome(game).points == {"B": 10, "C": -8, "M1": -2}


def test_under_table_stakes_a_starting_cube_is_covered_by_its_points_against_each():
    rules = HouseRules(table_stakes=50, starting_cube=4)
    line = set_bank(new_line(["B", "C", "M1", "M2"], rules), "B", 11, rules)
    assert show(line).startswith("C | B, M1, M2")  # 11 cannot cover 4 against three members
    covered = set_bank(new_line(["B", "C", "M1", "M2"], rules), "B", 12, rules)
    assert show(covered).startswith("B | C, M1, M2")


def test_a_game_nobody_can_box_at_the_starting_cube_is_said_in_its_points():
    rules = HouseRules(table_stakes=50, starting_cube=8)
    line = new_line(["B", "C", "M1", "M2"], rules)
    for player in line.order:
        line = set_bank(line, player, 20, rules)
    said = str(uncovered(line, 8))
    assert said.startswith(
        "under table stakes nobody seated can cover the box's starting cube of 8 against 3 "
        "members (24 points; banks: "
    )
    assert said.endswith(
        "give one of them a bank of 24 or more (chouette bank NAME 24) or sit a player out "
        "before the game starts"
    )
    assert uncovered(line, 4) is None  # 20 covers 4 against three members


@pytest.mark.parametrize(
    ("given_rules", "message"),
    [
        ({"starting_cube": 3}, "starting-cube must be a power of two"),
        ({"starting_cube": 0}, "starting-cube must be a power of two"),
        ({"starting_cube": 8, "max_cube": 4}, "starting-cube 8 is above max-cube 4"),
    ],
)
def test_a_starting_cube_that_cannot_be_is_refused(given_rules, message):
    with pytest.raises(ChouetteError, match=message):
        HouseRules(**given_rules)


def test_the_card_says_the_starting_cube_and_the_default_says_nothing_new():
    said = dict(rule_lines(HouseRules(starting_cube=8)))["Cubes"]
    assert said.endswith("Every cube starts the game at 8, centred: a single is worth 8 points.")
    assert "starts the game" not in dict(rule_lines(HouseRules()))["Cubes"]
    assert "starting-cube" not in HouseRules().to_dict()  # rules stored before it read the same
    assert HouseRules.from_dict(HouseRules(starting_cube=8).to_dict()).starting_cube == 8


@given(st.integers(0, 6), st.sampled_from(["team", "box"]))
def test_a_starting_cube_scales_a_plain_game_and_keeps_it_zero_sum(power, winner):
    cube = 1 << power
    rules = HouseRules(starting_cube=cube)
    plain = outcome(play(new_line(["B", "C", "M1"], HouseRules()), f"end {winner}"))
    scaled = outcome(play(new_line(["B", "C", "M1"], rules), f"end {winner}", rules=rules))
    assert scaled.points == {p: cube * v for p, v in plain.points.items()}
    assert sum(scaled.points.values()) == 0
