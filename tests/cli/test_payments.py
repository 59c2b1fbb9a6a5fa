"""A payment of more than the payer owes the payee is refused unless it is meant
(``--advance``: a loan, a credit, a balance taken over), and the refusal and the warning
name the balances it leaves. What a payer owes a payee is the most a payment between them
can settle: the smaller of what the payer owes and what the payee is owed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.money import Advance
from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")

CENTS = st.integers(-(10**6), 10**6)


@pytest.mark.parametrize(
    ("payer", "payee", "cents", "owed", "over"),
    [
        (-1000, 1500, 1000, 1000, 0),  # pays what they owe
        (-1000, 1500, 1200, 1000, 200),  # 2.00 more than they owe
        (-1000, 400, 1000, 400, 600),  # the payee is owed less than that
        (500, 1500, 100, 0, 100),  # the payer owes nobody
        (-1000, -200, 100, 0, 100),  # the payee is owed nothing
    ],
)
def test_what_a_payer_owes_a_payee(payer, payee, cents, owed, over):
    against = Advance("bob", "ann", cents, payer, payee)
    assert (against.owed, against.over) == (owed, over)


@given(CENTS, CENTS, st.integers(1, 10**6))
def test_a_payment_within_what_is_owed_passes_nobody_over_zero(payer, payee, cents):
    against = Advance("bob", "ann", cents, payer, payee)
    if not against.over:
        assert payer + cents <= 0 and payee - cents >= 0
    else:
        assert payer + cents > 0 or payee - cents < 0
    assert against.owed + against.over >= cents and 0 <= against.owed <= cents + against.owed


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +15.00, bob -10.00, cat -5.00


def test_a_payment_of_what_is_owed_is_booked_without_a_word(chouette):
    evening(chouette)
    result = chouette("pay", "bob", "ann", "10.00")
    assert result.stdout == "bob paid ann 10.00 (friday).\n" and result.stderr == ""


def test_a_payment_of_more_than_is_owed_is_refused_naming_the_balances(chouette, ledger_url):
    evening(chouette)
    before = dump(ledger_url)
    result = chouette("pay", "bob", "ann", "100", code=1)
    assert result.stderr == (
        "Error: bob owes ann 10.00 at most (bob -10.00, ann +15.00): paying 100.00 would "
        "leave bob +90.00 and ann -85.00; nothing was written. Give --advance if it is meant "
        "(a loan, a credit, a balance taken over)\n"
    )
    result = chouette("pay", "ann", "cat", "1", code=1)
    assert result.stderr.startswith("Error: ann owes cat nothing (ann +15.00, cat -5.00): ")
    assert dump(ledger_url) == before


def test_an_advance_is_booked_with_a_warning_naming_the_balances_it_leaves(chouette):
    evening(chouette)
    result = chouette("pay", "bob", "ann", "12.00", "--advance", "--note", "a loan")
    assert result.stdout == "bob paid ann 12.00 (friday).\n"
    assert result.stderr == (
        "Warning: bob paid ann 2.00 more than bob owed: an advance, leaving bob +2.00 and "
        "ann +3.00\n"
    )
    # cat owes 5.00, bob is owed 2.00 now: 1.00 more than cat owes bob
    assert chouette.json("pay", "cat", "bob", "3.00", "--advance")["advance_cents"] == 100
    balances = {p["name"]: p["cents"] for p in chouette.json("standings")["players"]}
    assert balances == {"ann": 300, "bob": -100, "cat": -200}


def test_a_player_leaving_early_has_their_balance_taken_over(chouette):
    """The README's example: cat pays ann her balance and takes it over (cat owes ann only
    5.00 of it): meant, so booked with --advance; the night still sums to zero."""
    evening(chouette)
    chouette("pay", "cat", "ann", "15.00", "--advance", "--note", "takes over ann's balance")
    players = {p["name"]: p["cents"] for p in chouette.json("standings")["players"]}
    assert players == {"ann": 0, "bob": -1000, "cat": 1000}
    assert sum(players.values()) == 0


@pytest.mark.parametrize(
    ("lang", "payer", "payee"),
    [
        ("da", "betalte ann: taxa", "betalt af bob: taxa"),
        ("cs", "zaplatil(a) hráči ann: taxa", "zaplatil(a) bob: taxa"),
    ],
)
def test_the_ledger_says_a_payment_in_the_readers_words_and_csv_in_english(
    chouette, lang, payer, payee
):
    chouette("new", "friday", "ann", "bob", "cat")
    for line in (["double", "bob"], ["drop", "bob"], ["end", "box"]):
        chouette(*line)
    chouette("pay", "bob", "ann", "1", "--note", "taxa")
    table = chouette("--lang", lang, "ledger").stdout
    assert payer in table and payee in table
    game = {"da": "spil", "cs": "hra"}[lang]
    assert table.splitlines()[2].rstrip().endswith(game)
    csv = chouette("--lang", lang, "ledger", "--format", "csv").stdout
    assert "paid ann: taxa" in csv and "paid by bob: taxa" in csv and ",game" in csv
