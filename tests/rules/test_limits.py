"""The pure side of issue 12: amounts and their limit, records read strictly, text shown
safely. No database."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError, LimitError, MoneyError, RecordError
from chouette.game import check_game
from chouette.limits import LIMIT, check_balance, check_points
from chouette.money import check_stake, format_money, parse_money
from chouette.outcome import settle_game
from chouette.record import read_records
from chouette.text import json_safe, shown
from tests.strategies import games

LAWS = settings(max_examples=150, deadline=None)
HIDDEN = "\x00\x07\x1b\x7f\x85\x9b\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069\ufeff"


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


def test_points_and_balances_stop_at_the_limit():
    assert check_points(LIMIT, "deal") == LIMIT
    with pytest.raises(LimitError, match=r"deal: -1000000000000001 points is past"):
        check_points(-LIMIT - 1, "deal")
    with pytest.raises(LimitError, match="deal: a number of points some 4301 digits long is"):
        check_points(10**4300, "deal")
    check_balance("ann", -LIMIT, LIMIT)
    with pytest.raises(LimitError, match="ann's running balance would pass"):
        check_balance("ann", 0, LIMIT + 1)


STAKES = st.one_of(st.integers(1, 500), st.integers(1, LIMIT))


@LAWS
@given(games(), st.data())
def test_a_game_the_limit_allows_books_within_the_limit(played, data):
    """The law behind checking every event: if the game as it stands is allowed, what it
    books stays within the limit, for every player and at every stake."""
    _, _, game, states = played
    players = [game.box, *([game.partner] if game.partner else []), *game.members]
    stakes = {p: data.draw(STAKES, label=f"stake {p}") for p in players}
    try:
        for state in states:
            check_game(state, stakes)
    except LimitError:
        return
    outcome = settle_game(game, stakes)
    assert all(abs(v) <= LIMIT for v in [*outcome.points.values(), *outcome.cents.values()])


@LAWS
@given(st.text())
def test_shown_text_holds_nothing_that_drives_a_terminal(text):
    assert not any(c in shown(text) for c in HIDDEN)
    assert "\n" not in shown(text)


@LAWS
@given(st.recursive(st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))
def test_json_made_safe_is_the_same_json(value):
    safe = json_safe(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(safe) == value
    assert not any(c in safe for c in HIDDEN if c != "\x00")


def test_shown_keeps_plain_text_and_escapes_the_rest():
    assert shown("zoë 👩‍👩‍👧 Big Al") == "zoë 👩‍👩‍👧 Big Al"
    assert shown("\x1b[2J\u202eevil\x9b") == "\\x1b[2J\\u202eevil\\x9b"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '[{"result": {"winner": "box", "winner": "team"}}]',
        '{"events": [{"act": "take", "member": "b", "member": "c"}]}',
        '{"a": 1}\n{"b": {"c": 1, "c": 1}}',
    ],
)
def test_a_key_given_twice_anywhere_is_refused(text):
    with pytest.raises(RecordError, match="is given twice in one object"):
        read_records(text, "record")


def test_records_are_one_value_an_array_or_json_lines():
    one = '{"result": {"winner": "box"}}'
    assert read_records(one, "r") == [("r", {"result": {"winner": "box"}})]
    assert [w for w, _ in read_records(f"[{one}, {one}]", "r")] == ["r record 1", "r record 2"]
    assert [w for w, _ in read_records(f"{one}\n\n{one}\n", "r")] == ["r line 1", "r line 3"]
    pretty = json.dumps({"result": {"winner": "box"}}, indent=2)
    assert read_records(pretty, "r") == [("r", {"result": {"winner": "box"}})]
    # JSON allows a raw line or paragraph separator inside a string: it ends no JSON line
    odd = '{"session": "fri\u2028day", "note": "a\x85b"}'
    assert read_records(f"{odd}\n{one}\n", "r") == [
        ("r line 1", {"session": "fri\u2028day", "note": "a\x85b"}),
        ("r line 2", {"result": {"winner": "box"}}),
    ]
    with pytest.raises(RecordError, match="nested too deeply"):
        read_records("[" * 100_000, "r")
    with pytest.raises(RecordError, match="NaN is not a number a record can hold"):
        read_records('{"x": NaN}', "r")
