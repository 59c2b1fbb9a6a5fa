"""What a board is worth (chouette/points.py): the cube × 1, 2 or 3, Jacoby, the pair's stake."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.points import (
    MULTIPLIER,
    fit_points,
    is_cube_value,
    kind_of,
    pair_money,
    pair_points,
    pair_stake,
    signed_points,
)


@pytest.mark.parametrize(
    ("cube", "kind", "centred", "jacoby", "points"),
    [
        (1, "single", True, True, 1),
        (1, "gammon", True, True, 1),  # Jacoby: a centred cube's gammon counts single
        (1, "backgammon", True, False, 3),  # no Jacoby: it counts
        (2, "gammon", False, True, 4),  # a turned cube: the gammon counts
        (4, "backgammon", False, True, 12),
    ],
)
def test_a_pair_is_paid_the_cube_times_its_level_jacoby_applied(
    cube, kind, centred, jacoby, points
):
    assert pair_points(cube, kind, centred=centred, jacoby=jacoby) == points


@given(st.integers(0, 40), st.sampled_from(sorted(MULTIPLIER)))
def test_the_level_is_read_back_from_the_points(power, kind):
    cube = 2**power
    points = pair_points(cube, kind)
    assert is_cube_value(cube) and kind_of(points, cube) == kind
    assert fit_points(points, cube, kind) == (cube, kind)


def test_what_no_cube_makes_is_found_out():
    assert not is_cube_value(0) and not is_cube_value(6)
    assert kind_of(5, 2) is None  # 5 is no level of a 2-cube
    assert fit_points(5, 1, "single") is None  # no cube × 1, 2 or 3 makes 5
    # 6 points: no cube of 6 or 3 exists, so a 2-cube's backgammon, whatever level was given
    assert fit_points(6, 1, "gammon") == (2, "backgammon")


def test_a_pair_plays_at_the_lower_stake_and_money_is_points_times_it():
    stakes = {"ann": 500, "bob": 200}
    assert pair_stake(stakes, "ann", "bob") == pair_stake(stakes, "bob", "ann") == 200
    assert pair_money(-3, 200) == -600
    assert [signed_points(p) for p in (2, -1, 0)] == ["+2", "-1", "0"]
