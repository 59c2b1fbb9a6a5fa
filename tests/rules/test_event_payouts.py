"""An event's payouts: the pool shared by place, to the cent, summing to the pool exactly;
ties sharing their places' money; a field smaller than the places paid shares the pool among
those there are. Laws, with Hypothesis."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.event import payouts, shares

POOLS = st.integers(0, 10**15)


@st.composite
def percents(draw: st.DrawFn) -> tuple[int, ...]:
    """Per cents of places, summing to 100, each no more than the one above."""
    cuts = sorted(draw(st.lists(st.integers(1, 99), max_size=8, unique=True)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    return tuple(sorted(parts, reverse=True))


@st.composite
def fields(draw: st.DrawFn) -> list[list[str]]:
    """Players ranked best first, ties together."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=12))
    names = iter(f"p{i}" for i in range(100))
    return [[next(names) for _ in range(size)] for size in sizes]


@given(POOLS, percents())
def test_shares_sum_to_the_pool_and_follow_the_places(pool, parts):
    paid = shares(pool, parts)
    assert sum(paid) == pool
    assert all(a >= b for a, b in itertools.pairwise(paid))
    for cents, part in zip(paid, parts, strict=True):
        assert abs(cents * 100 - pool * part) < 100  # within a cent of the exact share


@given(POOLS, percents(), fields())
def test_payouts_sum_to_the_pool_and_no_one_is_paid_less_than_a_worse_place(pool, parts, field):
    paid = payouts(field, pool, parts)
    assert sum(paid.values()) == pool
    assert set(paid) == {p for group in field for p in group}
    ranked = [[paid[p] for p in group] for group in field]
    for group in ranked:
        assert max(group) - min(group) <= 1  # tied players differ by an odd cent at most
    for better, worse in itertools.pairwise(ranked):
        assert min(better) >= max(worse) - 1


def test_fifty_twenty_five_fifteen_ten_of_a_pool_of_100_01():
    assert shares(10001, (50, 25, 15, 10)) == [5001, 2500, 1500, 1000]
    assert shares(10003, (50, 25, 15, 10)) == [5002, 2501, 1500, 1000]


def test_tied_players_share_their_places_money_the_odd_cent_to_the_first():
    paid = payouts([["ann"], ["bob", "cat"], ["dan"]], 10001, (50, 25, 15, 10))
    assert paid == {"ann": 5001, "bob": 2000, "cat": 2000, "dan": 1000}
    paid = payouts([["ann", "bob", "cat"]], 100, (60, 40))
    assert paid == {"ann": 34, "bob": 33, "cat": 33}


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ([["ann"]], {"ann": 10000}),
        ([["ann"], ["bob"]], {"ann": 6667, "bob": 3333}),  # 50:25 of the whole pool
    ],
)
def test_a_field_smaller_than_the_places_shares_the_pool_among_those_there_are(field, expected):
    assert payouts(field, 10000, (50, 25, 15, 10)) == expected
