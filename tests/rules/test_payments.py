"""A settlement line as a bank app reads it (chouette.payments): the EPC069-12 payload for
euros, SPAYD for koruna, Swish's prefilled code for kronor, a phone number written out, and
no code at all where the payee has no account for it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.payments import (
    AMOUNTS,
    CODE_NAMES,
    SPAYD_AMOUNT,
    Account,
    amount_text,
    check_holder,
    check_number,
    compact,
    epc,
    payment_code,
    remittance,
    spayd,
    swish,
)
from chouette.words import ENGLISH_WORDS

ANN = Account("ann", "Ann Smith", "DE89370400440532013000", "+4512345678", "0701234567")
TEXT = remittance("friday", "2026-11-20")


def test_a_euro_payment_is_an_epc_sepa_transfer_in_eleven_lines():
    assert epc(ANN, 1250, TEXT).split("\n") == [
        "BCD",  # service tag
        "002",  # version: BIC optional in the EEA
        "1",  # UTF-8
        "SCT",  # SEPA credit transfer
        "",  # no BIC
        "Ann Smith",
        "DE89370400440532013000",
        "EUR12.50",
        "",  # no purpose
        "",  # no structured reference: the text follows
        "chouette friday, night 2026-11-20",
    ]


def test_the_epc_payload_keeps_to_its_limits():
    long = Account("ann", "A" * 90, "DE89370400440532013000")
    lines = epc(long, 1, "x" * 200).split("\n")
    assert len(lines[5]) == 70 and len(lines[10]) == 140
    assert lines[7] == "EUR0.01"
    assert len(epc(long, 1, "x" * 200).encode()) <= 331  # EPC069-12: version 13 at most


def test_a_koruna_payment_is_a_short_payment_descriptor():
    czk = Account("eva", "", "CZ6508000000192000145399")
    assert spayd(czk, 48050, "chouette fri*day") == (
        "SPD*1.0*ACC:CZ6508000000192000145399*AM:480.50*CC:CZK*RN:eva*MSG:chouette fri%2Aday"
    )


def test_a_krona_payment_is_swishs_prefilled_code_with_nothing_editable():
    assert swish(ANN, 10000, "chouette friday") == "C0701234567;100,00;chouette%20friday;0"


@pytest.mark.parametrize(
    ("currency", "kind"), [("EUR", "epc"), ("CZK", "spayd"), ("SEK", "swish"), ("DKK", "phone")]
)
def test_the_currency_chooses_the_code_the_payees_account_allows(currency, kind):
    code = payment_code("bob", "ann", 1250, ANN, currency, TEXT)
    assert code.kind == kind and code.file_name == "bob-ann.png"
    assert code.drawn == (kind != "phone")


def test_a_payee_with_only_a_phone_gets_the_number_and_amount_written_out():
    phone = Account("ann", phone="+4512345678")
    code = payment_code("bob", "ann", 1250, phone, "EUR", TEXT)
    assert (code.kind, code.payload) == ("phone", "")
    assert str(code.said) == "bob pays ann 12.50 EUR to the phone number +4512345678"


@pytest.mark.parametrize("account", [None, Account("ann"), Account("ann", swish="0701234567")])
def test_a_payee_without_an_account_for_it_gets_no_code_and_none_is_made_up(account):
    code = payment_code("bob", "ann", 1250, account, "EUR", TEXT)
    assert (code.kind, code.payload, code.drawn) == ("none", "", False)
    assert str(code.said) == (
        "bob pays ann 12.50 EUR: ann has no account for it (chouette account ann)"
    )


def test_what_a_line_says_reads_in_danish_and_czech():
    from files.words import words

    code = payment_code("bob", "ann", 125050, ANN, "EUR", TEXT)
    assert (
        words("da")(code.said) == "bob betaler ann 1.250,50 EUR: scan koden for at betale Ann Smith"
    )
    assert words("cs")(code.said) == (
        "bob platí ann 1\u00a0250,50 EUR: naskenujte kód a zaplaťte Ann Smith"
    )
    assert ENGLISH_WORDS(code.said) == "bob pays ann 1250.50 EUR: scan the code to pay Ann Smith"


@given(st.integers(min_value=1, max_value=99_999_999_999))
def test_an_amount_is_written_with_two_decimals_and_no_grouping(cents):
    text = amount_text(cents)
    whole, part = text.split(".")
    assert int(whole) * 100 + int(part) == cents and len(part) == 2


def test_an_iban_is_written_compact_and_numbers_keep_digits_and_a_plus():
    assert compact(" de89 3704 0044 0532 0130 00 ") == "DE89370400440532013000"
    assert check_number("+45 12-34.56 78", "phone number") == "+4512345678"
    assert check_number("", "phone number") == ""
    with pytest.raises(ChouetteError, match="'call me' is no phone number"):
        check_number("call me", "phone number")
    assert check_holder("  Ann   Smith ") == "Ann Smith"
    with pytest.raises(ChouetteError, match="no account holder's name"):
        check_holder("Ann\nSmith")


# ---------------------------------------------------------------- what a code can carry

ACCOUNTS = {
    "EUR": ANN,
    "CZK": Account("eva", "", "CZ6508000000192000145399"),
    "SEK": Account("ann", swish="0701234567"),
}


def carried(payload: str) -> int:
    """The cents a payload's amount field says, read as each format writes it."""
    if payload.startswith("BCD\n"):
        text = payload.split("\n")[7].removeprefix("EUR")
    elif payload.startswith("SPD*"):
        text = dict(f.split(":", 1) for f in payload.split("*")[2:])["AM"]
    else:
        text = payload.split(";")[1].replace(",", ".")
    whole, part = text.split(".")
    assert len(part) == 2 and whole.isdigit() and part.isdigit()
    return int(whole) * 100 + int(part)


@given(
    currency=st.sampled_from(["EUR", "CZK", "SEK"]),
    cents=st.integers(1, 10**15)
    | st.sampled_from(
        [n + d for bounds in AMOUNTS.values() for n in bounds for d in (-1, 0, 1) if n + d > 0]
    ),
)
def test_every_code_carries_its_lines_exact_cents_and_every_amount_beyond_a_limit_is_refused(
    currency, cents
):
    code = payment_code("bob", "ann", cents, ACCOUNTS[currency], currency, TEXT)
    kind = {"EUR": "epc", "CZK": "spayd", "SEK": "swish"}[currency]
    least, most = AMOUNTS[kind]
    if least <= cents <= most:
        assert (code.kind, code.drawn) == (kind, True)
        assert carried(code.payload) == cents
        if kind == "spayd":
            assert len(amount_text(cents)) <= SPAYD_AMOUNT
    else:
        assert (code.kind, code.payload, code.drawn) == ("refused", "", False)
        text = str(code.said)
        assert text.startswith(f"bob pays ann {amount_text(cents)} {currency}: ")
        limit = most if cents > most else least
        assert f"{CODE_NAMES[kind]}: at {'most' if cents > most else 'least'} " in text
        assert f" {amount_text(limit)} {currency});" in text


def test_each_formats_published_limits():
    """EPC069-12: EUR 0.01 to 999999999.99; SPAYD's AM: 10 characters with the point
    (9999999.99); Swish: 1.00 to 999999999999.99 SEK."""
    assert AMOUNTS == {
        "epc": (1, 99_999_999_999),
        "spayd": (1, 999_999_999),
        "swish": (100, 99_999_999_999_999),
    }
    assert len(amount_text(AMOUNTS["spayd"][1])) == 10  # "9999999.99"
    assert len(amount_text(AMOUNTS["spayd"][1] + 1)) == 11
    czk = payment_code("eva", "dan", 10**9, ACCOUNTS["CZK"], "CZK", TEXT)
    assert str(czk.said) == (
        "eva pays dan 10000000.00 CZK: more than a payment code carries (QR Platba (SPAYD): at "
        "most 9999999.99 CZK); no code is made for this payment: pay it another way"
    )
    sek = payment_code("bob", "ann", 99, ACCOUNTS["SEK"], "SEK", TEXT)
    assert str(sek.said) == (
        "bob pays ann 0.99 SEK: less than a payment code carries (Swish: at least 1.00 SEK); "
        "no code is made for this payment: pay it another way"
    )
    # a phone number written out carries any amount
    phone = payment_code("bob", "ann", 10**15, Account("ann", phone="+4512345678"), "DKK", TEXT)
    assert phone.kind == "phone"


def test_a_refused_amount_reads_in_danish_and_czech():
    from files.words import words

    code = payment_code("eva", "dan", 10**9, ACCOUNTS["CZK"], "CZK", TEXT)
    assert words("da")(code.said).startswith("eva betaler dan 10.000.000,00 CZK: ")
    assert "9.999.999,99 CZK" in words("da")(code.said)
    assert words("cs")(code.said).startswith("eva platí dan 10\u00a0000\u00a0000,00 CZK: ")
