"""RULES.md §6: every worked example, as a score sheet. Each also checks the zero sum.
(E8–E10, the cube's club house rules of RULES.md §7, are in ``tests/rules/test_cube_rules.py``.)"""

from __future__ import annotations

import pytest

from chouette.errors import AutoDoubleIgnored, RuleError
from chouette.rules import HouseRules
from chouette.settlement import Payment, settle
from tests.table import outcome, play, play_on, show

NO_JACOBY = HouseRules(jacoby=False)


def e1(*ending: str, rules: HouseRules | None = None):
    game = play(
        "B | C, M1, M2",
        "double C M1",
        "drop M1",
        "beaver C",
        "raccoon C",
        *ending,
        rules=rules,
    )
    result = outcome(game)
    assert sum(result.points.values()) == 0
    assert sum(result.cents.values()) == 0
    return game, result


def test_e1_box_wins_a_gammon_under_jacoby():
    game, result = e1("take C", "end box gammon")
    assert game.cubes["C"].value == 8 and game.cubes["C"].owner == "member"
    assert result.points == {"C": -16, "M2": -1, "M1": -1, "B": 18}
    assert show(result.next_line) == "B | M1, M2, C"


def test_e1_box_wins_a_gammon_without_jacoby():
    _, result = e1("take C", "end box gammon", rules=NO_JACOBY)
    assert result.points == {"C": -16, "M2": -2, "M1": -1, "B": 19}


def test_e1_team_wins_a_gammon_under_jacoby():
    _, result = e1("take C", "end team gammon")
    assert result.points == {"C": 16, "M2": 1, "M1": -1, "B": -16}
    assert show(result.next_line) == "C | M1, M2, B"


def test_e1_box_wins_a_backgammon_under_jacoby():
    _, result = e1("take C", "end box backgammon")
    assert result.points == {"C": -24, "M2": -1, "M1": -1, "B": 26}


def test_e2_box_refuses_the_beaver_and_pays_two():
    game = play("B | M1", "double M1", "beaver M1", "drop M1")
    assert outcome(game).points == {"M1": 2, "B": -2}


def test_e2_member_refuses_the_raccoon_and_pays_four():
    game = play("B | M1", "double M1", "beaver M1", "raccoon M1", "drop M1")
    assert outcome(game).points == {"M1": -4, "B": 4}


def test_e2_raccoon_is_rejected_when_raccoons_are_off():
    rules = HouseRules(raccoons=False)
    game = play("B | M1", "double M1", "beaver M1", rules=rules)
    with pytest.raises(RuleError, match="B cannot raccoon: raccoons are off"):
        play("B | M1", "double M1", "beaver M1", "raccoon M1", rules=rules)
    assert game.cubes["M1"].value == 2 and game.cubes["M1"].offer is not None


def test_e3_automatic_double_and_the_ignored_second_tie():
    rules = HouseRules(auto_doubles=1)
    game = play("B | C, M1", "auto", rules=rules)
    assert {m: (c.value, c.owner) for m, c in game.cubes.items()} == {
        "C": (2, "centre"),
        "M1": (2, "centre"),
    }
    with pytest.raises(AutoDoubleIgnored, match="the session's 1 automatic double has been played"):
        play("B | C, M1", "auto", "auto", rules=rules)


@pytest.mark.parametrize(
    ("jacoby", "expected"),
    [(True, {"C": 2, "M1": 2, "B": -4}), (False, {"C": 4, "M1": 4, "B": -8})],
)
def test_e3_team_gammon_on_an_automatically_doubled_cube(jacoby, expected):
    rules = HouseRules(auto_doubles=1, jacoby=jacoby)
    game = play("B | C, M1", "auto", "end team gammon", rules=rules)
    assert outcome(game).points == expected


def test_e4_single_cube_with_individual_takes():
    rules = HouseRules(cubes="single")
    game = play(
        "B | C, M1, M2",
        "double",
        "take C",
        "drop M1",
        "take M2",
        "double --by team",
        "take C",
        "end box gammon",
        rules=rules,
    )
    assert outcome(game).points == {"C": -8, "M2": -8, "M1": -1, "B": 17}


def test_e5_ownership_after_takes_and_redoubles():
    game = play(
        "B | C, M1, M2",
        "double C --by member",
        "take C",
        "double M1 --by member",
        "take M1",
        "double C",
        "take C",
        "double M2",
        "take M2",
    )
    owners = {m: (c.value, c.owner) for m, c in game.cubes.items()}
    assert owners == {"C": (4, "member"), "M1": (2, "box"), "M2": (2, "member")}
    for allowed in ("double C --by member", "double M2 --by member", "double M1"):
        assert play_on(game, allowed)
    for refused, reason in (
        ("double M1 --by member", "M1 cannot double: the box owns M1's cube"),
        ("double C", "the box cannot double C: C owns the cube"),
        ("double M2", "the box cannot double M2: M2 owns the cube"),
    ):
        with pytest.raises(RuleError, match=reason):
            play_on(game, refused)
    result = outcome(play_on(game, "end team single"))
    assert result.points == {"B": -8, "C": 4, "M1": 2, "M2": 2}


def test_e6_per_player_stakes_pay_at_the_lower_stake():
    game = play("B | A, C, D", "deal A -2", "deal C -2", "deal D 4")
    result = outcome(game, {"A": 100, "B": 200, "C": 200, "D": 400})
    assert result.cents == {"B": -200, "A": -200, "C": -400, "D": 800}


def test_e7_fewest_payments():
    balances = {"A": 600, "B": 400, "C": -400, "D": -300, "E": -300}
    assert settle(balances) == [
        Payment("C", "B", 400),
        Payment("D", "A", 300),
        Payment("E", "A", 300),
    ]
