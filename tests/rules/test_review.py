"""Each player's cube decisions reviewed pair by pair, from the engine's three equities: the
decisions a game's events make (one per pair, at that pair's cube, by whoever decided), the
actions open to each and their worth, the proper one, the error, and its cost in points and
in cents. The engine's numbers are given here, exact: the engine itself is tested in
tests/engines/test_gnubg_cube.py and through the command in tests/cli/test_review_cli.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from chouette.review import (
    Asked,
    CubeState,
    Equities,
    decisions,
    options,
    review,
    summaries,
    verdict,
)
from chouette.rules import HouseRules
from tests.table import ev, seats

START = "4HPwATDgc/ABMA"


def game(text: str, *events: str, rules: HouseRules | None = None):
    rules = rules or HouseRules()
    return decisions(seats(text, rules), rules, [ev(e) for e in events])


def exact(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


#: On roll with two checkers on the ace point against two on the opponent's six point: the
#: doubler wins for sure (no gammon: the opponent has borne off 13).
CERTAIN = Equities(Decimal(1), Decimal(2), Decimal(1))
#: The reverse: the side on roll wins only with 3-3, 4-4, 5-5 or 6-6 (p = 1/9), else loses at
#: once; no cube is turned again. ND = 2p - 1 = -7/9, DT = 2(2p - 1) = -14/9.
P = Fraction(1, 9)
LONG_SHOT = Equities(exact(2 * P - 1), exact(2 * (2 * P - 1)), Decimal(1))


# ---------------------------------------------------------------- the decisions of a game


def test_a_box_double_is_a_decision_for_each_pair_and_each_answer_one_more():
    found = game(
        "B | C, M1, M2",
        f"double C M1 --position {START}",
        "take C",
        "beaver M1",
        "raccoon M1",
        "drop M1",
    )
    assert [(d.step, d.member, d.player, d.side, d.action, d.answered) for d in found] == [
        (1, "C", "B", "box", "double", None),
        (1, "M1", "B", "box", "double", None),
        (2, "C", "C", "member", "take", "double"),
        (3, "M1", "M1", "member", "beaver", "double"),
        (4, "M1", "B", "box", "raccoon", "beaver"),
        (5, "M1", "M1", "member", "drop", "raccoon"),
    ]
    assert {d.position for d in found} == {START}
    assert {d.exchange for d in found} == {0}


def test_each_pair_is_reviewed_at_its_own_cube():
    found = game(
        "B | C, M1, M2",
        "auto",
        "double C --by member",
        "take C",
        f"double C M1 M2 --position {START}",
        rules=HouseRules(auto_doubles=1),
    )
    doubles = {d.member: d for d in found if d.step == 4}
    assert (doubles["C"].value, doubles["C"].cube) == (4, CubeState(centred=False, jacoby=False))
    assert (doubles["M1"].value, doubles["M1"].cube) == (2, CubeState(centred=True, jacoby=True))
    assert doubles["C"].asked == Asked(START, CubeState(False, False))


def test_jacoby_counts_only_while_the_house_rule_does():
    off = game("B | C, M1", f"double C --position {START}", rules=HouseRules(jacoby=False))
    assert off[0].cube == CubeState(centred=True, jacoby=False)
    scope = HouseRules(jacoby_scope="any-cube-turned")
    found = game("B | C, M1", "double C", "take C", f"double M1 --position {START}", rules=scope)
    assert found[-1].cube == CubeState(centred=True, jacoby=False)  # a cube was turned


def test_a_member_who_doubles_the_box_and_the_box_who_answers():
    found = game("B | C, M1", f"double M1 --by member --position {START}", "beaver M1")
    assert [(d.player, d.side, d.doubler, d.action) for d in found] == [
        ("M1", "member", "member", "double"),
        ("B", "box", "member", "beaver"),
    ]


def test_single_cube_the_captain_decides_for_the_team():
    rules = HouseRules(cubes="single")
    found = game(
        "B | C, M1", f"double --by team --position {START}", "take C", "double", "take C",
        "take M1", rules=rules,
    )  # fmt: skip
    assert [(d.member, d.player, d.action) for d in found] == [
        ("C", "C", "double"),
        ("M1", "C", "double"),
        ("C", "B", "take"),
        ("M1", "B", "take"),
        ("C", "B", "double"),
        ("M1", "B", "double"),
        ("C", "C", "take"),
        ("M1", "M1", "take"),
    ]
    assert [d.position for d in found] == [START] * 4 + [None] * 4


def test_a_proxy_decides_for_the_member_away():
    rules = HouseRules(proxies=True)
    line = seats("B | C, M1, M2", rules)
    line = type(line)(line.order, line.sitting_out, None, None, away=(("M2", "C"),))
    found = decisions(line, rules, [ev(f"double M2 --position {START}"), ev("take M2")])
    assert [d.player for d in found] == ["B", "C"]


@pytest.mark.parametrize(
    ("rules", "events", "open_"),
    [
        (HouseRules(), ["double C"], (True, True)),
        (HouseRules(beavers=False, raccoons=False), ["double C"], (False, False)),
        (HouseRules(raccoons=False), ["double C"], (True, False)),
        (HouseRules(beavers_by="box"), ["double C"], (False, False)),
        (HouseRules(beavers_by="box"), ["double C --by member"], (True, True)),
        (HouseRules(beaver_limit=1), ["double C"], (True, False)),
        (HouseRules(max_cube=4), ["double C"], (True, False)),
        (HouseRules(max_cube=2), ["double C"], (False, False)),
    ],
)
def test_the_beavers_and_raccoons_open_to_a_pair_follow_the_house_rules(rules, events, open_):
    found = game("B | C, M1", *events, rules=rules)
    assert (found[0].beaver, found[0].raccoon) == open_


def test_a_cube_that_could_not_be_turned_again_under_a_maximum_is_not_scored():
    found = game("B | C, M1", f"double C --position {START}", rules=HouseRules(max_cube=8))
    assert str(found[0].unscored) == (
        "not scored: a cube of 8 could not be turned again under the maximum of 8 (max-cube), "
        "and the engine's money cube has no maximum"
    )
    assert review(found[0], CERTAIN, 100).error is None
    wide = game("B | C, M1", f"double C --position {START}", rules=HouseRules(max_cube=16))
    assert wide[0].unscored is None


# ---------------------------------------------------------------- the engine's numbers


def test_the_certain_win_doubles_and_a_take_costs_exactly_a_point():
    double, take = game("B | C, M1", f"double C --position {START}", "take C")
    scored = review(double, CERTAIN, 500)
    assert (scored.proper, scored.error, scored.cents) == ("double", 0, 0)
    assert verdict(double, CERTAIN) == ("double", "drop")
    scored = review(take, CERTAIN, 500)
    assert (scored.proper, scored.error, scored.points, scored.cents) == ("drop", 1, 1, 500)
    assert review(game("B | C, M1", "double C", "drop C")[1], CERTAIN, 500).error == 0


def test_the_long_shot_doubling_costs_seven_ninths_of_the_cube():
    rules = HouseRules(beavers=False, raccoons=False)
    double, take = game("B | C, M1", f"double C --position {START}", "take C", rules=rules)
    scored = review(double, LONG_SHOT, 100)
    assert scored.proper == "no double" and verdict(double, LONG_SHOT) == ("no double", "take")
    assert round(scored.error, 3) == Decimal("0.778") and scored.cents == 78
    assert review(take, LONG_SHOT, 100).error == 0


def test_with_beavers_the_long_shots_double_costs_more_and_a_plain_take_is_an_error():
    double, take = game("B | C, M1", f"double C --position {START}", "take C")
    # beavered, the doubler loses 2 x 14/9 on 4, so refuses it and pays 2
    assert options(double, LONG_SHOT) == {"double": Decimal(-2), "no double": LONG_SHOT.no_double}
    assert round(review(double, LONG_SHOT, 100).error, 3) == Decimal("1.222")
    scored = review(take, LONG_SHOT, 100)
    assert scored.proper == "beaver" and round(scored.error, 3) == Decimal("0.444")
    assert verdict(take, LONG_SHOT) == ("no double", "beaver")


def test_the_doublers_answer_to_a_beaver_and_the_beaverers_to_a_raccoon():
    found = game("B | C, M1", "double C", "beaver C", "raccoon C", "take C")
    raccoon, take = found[2], found[3]
    good = Equities(Decimal("0.6"), Decimal("0.3"), Decimal(1))  # a bad beaver: DT > 0
    assert options(raccoon, good) == {
        "take": Decimal("0.6"),
        "drop": Decimal(-2),
        "raccoon": Decimal("1.2"),
    }
    assert review(raccoon, good, 100).error == 0
    assert options(take, good) == {"take": Decimal("1.2"), "drop": Decimal(4)}
    assert (review(take, good, 100).proper, review(take, good, 100).error) == ("take", 0)


def test_too_good_is_the_verdict_when_no_double_beats_the_pass():
    double = game("B | C, M1", "double C")[0]
    gammonish = Equities(Decimal("1.3"), Decimal("2.4"), Decimal(1))
    assert verdict(double, gammonish) == ("too good", "drop")
    scored = review(double, gammonish, 100)
    assert (scored.proper, scored.error) == ("no double", Decimal("0.3"))


def test_money_is_the_points_at_the_pairs_stake_to_the_nearest_cent_half_away_from_zero():
    double = game("B | C, M1", "auto", "double C", rules=HouseRules(auto_doubles=1))[0]
    assert double.value == 2  # the cube at 2, centred
    eq = Equities(Decimal("0.250625"), Decimal("0.2"), Decimal(1))  # error 0.050625
    scored = review(double, eq, 10)
    assert scored.points == Decimal("0.101250") and scored.cents == 1  # 1.0125
    assert review(double, eq, 50).cents == 5  # 5.0625
    assert review(double, Equities(Decimal("0.225"), Decimal("0.2"), Decimal(1)), 10).cents == 1
    # 0.025 x 2 x 10 = 0.5 of a cent: up, away from zero


def test_each_players_summary_adds_their_decisions():
    found = game("B | C, M1", f"double C M1 --position {START}", "take C", "drop M1")
    reviewed = [review(d, CERTAIN, 250) for d in found]
    (first, *rest) = summaries(reviewed)
    assert (first.player, first.decisions, first.errors, first.error, first.cents) == (
        "C",
        1,
        1,
        Decimal(1),
        250,
    )
    assert [(s.player, s.decisions, s.errors, s.cents) for s in rest] == [
        ("B", 2, 0, 0),
        ("M1", 1, 0, 0),
    ]
