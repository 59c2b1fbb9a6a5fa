"""Money (chouette/money.py): amounts as people write them, read to the cent and printed back,
refused past the ledger's limit without arithmetic; a stake is more than zero."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError, LimitError, MoneyError
from chouette.limits import LIMIT
from chouette.money import check_stake, format_money, parse_money

LAWS = settings(max_examples=150, deadline=None)


@LAWS
@given(st.integers(-LIMIT, LIMIT))
def test_every_amount_within_the_limit_reads_back_as_printed(cents):
    assert parse_money(format_money(cents)) == cents
    whole, part = divmod(abs(cents), 100)
    grouped = f"{'-' if cents < 0 else ''}{whole:,}.{part:02d}"  # 1,234,567.89
    assert parse_money(grouped) == cents


@LAWS
@given(st.integers(LIMIT + 1, 10**40), st.booleans())
def test_every_amount_past_the_limit_is_refused_without_arithmetic(cents, negative):
    text = format_money(-cents if negative else cents)
    with pytest.raises(LimitError, match=r"past the ledger's limit of 10,000,000,000,000\.00"):
        parse_money(text)


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("5", 500),
        ("$2.50", 250),
        ("€ 1,000.00", 100000),
        ("1,000,000", 100000000),
        (".50", 50),
        ("-2.", -200),
        ("10000000000000.00", LIMIT),
        ("5,00", 500),  # a decimal comma: one or two digits after it cannot be thousands
        ("2,5", 250),
        ("1.000,50", 100050),  # a Dane's thousands and decimals
        ("-3,5", -350),
        ("150 kr.", 15000),
        ("2,50 Kč", 250),
        ("0.050", 5),
    ],
)
def test_amounts_as_people_write_them(text, cents):
    assert parse_money(text) == cents


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("5,000", MoneyError),  # five thousand, or five with a decimal comma?
        ("1.000", MoneyError),  # one thousand to a Dane, one to a Briton
        ("12.345", MoneyError),
        ("1.000,5.0", MoneyError),
        ("1,00,000.00", MoneyError),
        ("5_00", MoneyError),  # Python's digit grouping: 500.00, as 5,00 was
        ("5.0_0", MoneyError),
        ("0.001", MoneyError),
        ("1e-999999999", MoneyError),
        ("NaN", MoneyError),
        ("Infinity", MoneyError),
        ("1e3", MoneyError),  # 1000.00 to Python; a slip of the finger from 13 at a table
        ("1000e-5", MoneyError),
        ("0e999999999", MoneyError),
        ("1e999999999", MoneyError),
        ("\u0665", MoneyError),  # an Arabic-Indic five, which Decimal reads as 5
        ("9" * 5000, LimitError),
        ("10000000000000.01", LimitError),
    ],
)
def test_amounts_that_are_refused(text, error):
    with pytest.raises(error):
        parse_money(text)


@pytest.mark.parametrize("cents", [0, -1, -500])
def test_a_stake_is_more_than_zero(cents):
    with pytest.raises(ChouetteError, match=r"cat's stake must be more than zero, not -?\d"):
        check_stake(cents, "cat's stake")
