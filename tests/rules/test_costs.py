"""Fees and shared costs, the rules alone: a fee charges each player named, never the
organiser; a shared cost is split to the cent, the cents left over said out loud; either
sums to zero."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.costs import (
    Charge,
    check_charge,
    expense,
    fee,
    night_expense,
    night_fee,
    split,
)
from chouette.errors import ChouetteError, LimitError


@pytest.mark.parametrize(
    ("total", "among", "shares"),
    [
        (3000, ["ann", "bob", "cat"], [("ann", 1000), ("bob", 1000), ("cat", 1000)]),
        (1000, ["ann", "bob", "cat"], [("ann", 334), ("bob", 333), ("cat", 333)]),
        (1001, ["cat", "ann", "bob"], [("cat", 334), ("ann", 334), ("bob", 333)]),
        (2, ["ann", "bob", "cat"], [("ann", 1), ("bob", 1), ("cat", 0)]),
        (500, ["ann"], [("ann", 500)]),
    ],
)
def test_a_cost_is_split_to_the_cent_the_first_written_paying_the_cents_left_over(
    total, among, shares
):
    assert list(split(total, among)) == shares


def test_a_fee_charges_each_player_named_but_the_organiser():
    charge = fee(500, ["ann", "bob", "cat"], "ann", "table fee")
    assert charge.debts == (("bob", 500), ("cat", 500))
    assert charge.moves() == {"bob": -500, "cat": -500, "ann": 1000}
    assert str(charge.told()) == "bob and cat owe ann 5.00 each (table fee)"
    assert charge.remainder() is None


def test_a_fee_from_one_player_says_so():
    assert str(fee(1250, ["bob"], "ann", "room").told()) == "bob owes ann 12.50 (room)"


def test_a_shared_cost_is_owed_to_the_payer_who_pays_their_own_share():
    charge = expense("ann", 1000, ["ann", "bob", "cat"], "pizza")
    assert charge.moves() == {"bob": -333, "cat": -333, "ann": 666}
    assert str(charge.remainder()) == "1 cent left over: ann pays 1 cent more"
    assert str(charge.told()) == (
        "ann paid 10.00 (pizza), shared by ann, bob and cat: bob and cat owe ann 3.33 each"
    )


def test_the_cents_left_over_are_said_out_loud_naming_who_pays_them():
    charge = expense("dan", 1002, ["ann", "bob", "cat", "dan"], "beer")
    assert str(charge.remainder()) == "2 cents left over: ann and bob pay 1 cent more"
    assert charge.moves() == {"ann": -251, "bob": -251, "cat": -250, "dan": 752}
    assert str(charge.told()).endswith("dan is owed 2.51 by ann, 2.51 by bob and 2.50 by cat")


def test_a_payer_may_pay_for_others_alone():
    charge = expense("ann", 900, ["bob", "cat"], "taxi")
    assert charge.moves() == {"bob": -450, "cat": -450, "ann": 900}


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: fee(0, ["bob"], "ann", "fee"), "a fee must be more than zero, not 0.00"),
        (lambda: fee(-100, ["bob"], "ann", "fee"), "a fee must be more than zero, not -1.00"),
        (lambda: fee(100, ["ann"], "ann", "fee"), "nobody to charge the fee: ann is the organiser"),
        (lambda: fee(100, ["bob", "bob"], "ann", "fee"), "bob is named twice"),
        (lambda: fee(100, ["bob"], "ann", "  "), "say what it is for (--note TEXT)"),
        (lambda: expense("ann", 0, ["bob"], "x"), "a shared cost must be more than zero"),
        (lambda: expense("ann", 100, ["ann"], "x"), "ann is the only one sharing the cost"),
        (lambda: expense("ann", 100, [], "x"), "a cost is shared among somebody"),
        (lambda: expense("ann", 100, ["bob", "cat", "bob"], "x"), "bob is named twice"),
    ],
)
def test_a_charge_that_makes_no_sense_is_refused_naming_why(make, message):
    with pytest.raises(ChouetteError, match=None) as err:
        make()
    assert str(err.value).startswith(message)


def test_a_fee_past_the_ledgers_limit_in_all_is_refused():
    with pytest.raises(LimitError):
        fee(10**15, ["bob", "cat"], "ann", "a fortune")


def test_a_charge_read_back_must_be_its_own_split_among_players_of_the_session():
    charge = expense("ann", 1000, ["ann", "bob", "cat"], "pizza")
    assert check_charge(charge, {"ann", "bob", "cat"}, "friday") == charge
    bent = Charge("expense", "ann", 1000, (("ann", 0), ("bob", 500), ("cat", 500)), "pizza")
    with pytest.raises(
        ChouetteError, match=r"its shares are not what a shared cost of 10\.00 gives"
    ):
        check_charge(bent, {"ann", "bob", "cat"}, "friday")
    with pytest.raises(ChouetteError, match="cat has not played in friday"):
        check_charge(charge, {"ann", "bob"}, "friday")


NAMES = st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=10, unique=True)


@settings(max_examples=30)
@given(st.integers(1, 10**9), NAMES, st.data())
def test_any_split_sums_to_zero_and_its_shares_differ_by_at_most_a_cent(cents, among, data):
    payer = data.draw(st.sampled_from([*among, "z"]))
    kind = data.draw(st.sampled_from(["fee", "expense"]))
    if among == [payer]:
        return
    charge = fee(cents, among, payer, "n") if kind == "fee" else expense(payer, cents, among, "n")
    assert sum(charge.moves().values()) == 0
    shares = [c for _, c in charge.shares]
    assert max(shares) - min(shares) <= 1
    if kind == "expense":
        assert sum(shares) == cents
        assert len(charge.left_over) == cents % len(among)
    else:
        assert charge.owed == cents * len(charge.debts)


# ---------------------------------------------------------------- a whole night


NAMES = st.sampled_from(["ann", "bob", "cat", "dan", "eve", "fay", "gus"])
TABLES = st.lists(
    st.tuples(
        st.sampled_from(["t1", "t2", "t3"]), st.lists(NAMES, min_size=1, max_size=5, unique=True)
    ),
    min_size=1,
    max_size=3,
    unique_by=lambda t: t[0],
)


def moved(charges: list[tuple[str, Charge]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for _, made in charges:
        for name, cents in made.moves().items():
            total[name] = total.get(name, 0) + cents
    return total


@given(TABLES, st.integers(min_value=1, max_value=10_000), NAMES)
def test_a_night_fee_charges_each_player_once_and_the_night_sums_to_zero(tables, cents, to):
    everyone = {p for _, players in tables for p in players} - {to}
    if not everyone:
        with pytest.raises(ChouetteError, match="the only player of the night"):
            night_fee(cents, tables, to, "room")
        return
    charges = night_fee(cents, tables, to, "room")
    assert sum(moved(charges).values()) == 0  # the night sums to zero
    assert moved(charges) == {**{p: -cents for p in everyone}, to: cents * len(everyone)}
    for session, made in charges:  # each at the first table its player sat at
        first = {p: next(s for s, ps in tables if p in ps) for p in everyone}
        assert all(first[name] == session for name, _ in made.debts)


@given(TABLES, st.integers(min_value=1, max_value=100_000), NAMES)
def test_a_night_expense_is_one_split_of_the_whole_night_and_sums_to_zero(tables, cents, payer):
    sharers = list(dict.fromkeys(p for _, players in tables for p in players))
    if sharers == [payer]:
        with pytest.raises(ChouetteError, match="the only one sharing"):
            night_expense(payer, cents, tables, "pizza")
        return
    charges = night_expense(payer, cents, tables, "pizza")
    assert sum(moved(charges).values()) == 0
    whole = dict(split(cents, sharers))
    owed = {name: -c for name, c in whole.items() if name != payer and c}
    assert {k: v for k, v in moved(charges).items() if k != payer and v} == owed


def test_an_organiser_at_no_table_is_owed_by_everyone_once():
    charges = night_fee(300, [("t1", ["ann", "bob"]), ("t2", ["cat", "bob"])], "zoe", "room")
    assert [(s, c.debts) for s, c in charges] == [
        ("t1", (("ann", 300), ("bob", 300))),
        ("t2", (("cat", 300),)),
    ]
