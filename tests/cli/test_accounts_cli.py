"""Accounts and payment codes at the doors: `chouette account` (an IBAN checked, a bad one
refused with nothing written, `--list` at the terminal only), export and restore, and
`settle --qr`: a night of two tables settled into codes a bank app reads (decoded here with
zxing, field by field). No account number on any shared output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from tests.conftest import NOW as PINNED
from tests.conftest import in_zone
from tests.dump import dump

NOW = datetime.fromisoformat(PINNED)
ANN_IBAN = "DE89 3704 0044 0532 0130 00"
ANN_COMPACT = "DE89370400440532013000"
EVA_IBAN = "CZ65 0800 0000 1920 0014 5399"
EVA_COMPACT = "CZ6508000000192000145399"


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reader's clock in UTC: a night's local date is the pinned clock's date."""
    yield from in_zone(monkeypatch, "UTC")


def two_tables(chouette) -> None:
    """A night of two tables: ann's box wins from bob and cat (a gammon, single under
    Jacoby); eva's box loses to dan; ann and eva have accounts."""
    chouette("new", "t1", "ann", "bob", "cat", "--stake", "5")
    chouette("end", "box", "--gammon")
    chouette("new", "t2", "eva", "dan", "--stake", "2.50")
    chouette("end", "team")
    chouette("account", "ann", "--iban", ANN_IBAN, "--name", "Ann Smith")
    chouette("account", "eva", "--iban", EVA_IBAN)


def decoded(path: Path) -> str:
    """What a bank app reads from a PNG: its one QR code's text, by zxing-cpp."""
    import zxingcpp
    from PIL import Image

    (found,) = zxingcpp.read_barcodes(Image.open(path))
    assert found.format == zxingcpp.BarcodeFormat.QRCode
    return str(found.text)


# ---------------------------------------------------------------- accounts


def test_an_account_is_kept_and_listed_at_the_terminal(chouette):
    chouette("new", "fri", "ann", "bob")
    said = chouette("account", "ANN", "--iban", ANN_IBAN.lower(), "--name", "  Ann  Smith ")
    assert said.stdout.splitlines()[0] == "Account of ann saved."
    chouette("account", "bob", "--phone", "+45 12 34 56 78", "--swish", "070-123 45 67")
    assert chouette.json("account", "--list") == {
        "accounts": [
            {"player": "ann", "holder": "Ann Smith", "iban": ANN_COMPACT, "phone": "",
             "swish": ""},
            {"player": "bob", "holder": "", "iban": "", "phone": "+4512345678",
             "swish": "0701234567"},
        ]
    }  # fmt: skip
    listed = chouette("account", "--list").stdout
    assert "DE89 3704 0044 0532 0130 00" in listed and "+4512345678" in listed
    chouette("account", "ann", "--name", "")  # one field cleared, the others kept
    assert chouette.json("account", "ann")["accounts"][0]["iban"] == ANN_COMPACT


@pytest.mark.parametrize(
    ("iban", "why"),
    [
        ("DE89 3704 0044 0532 0130 01", "its check digits are wrong"),
        ("DE41 3704 0044 0532 013", "its length or format is not its country's"),
        ("XX00 1234", "its check digits are wrong"),
    ],
)
def test_a_bad_iban_is_refused_and_nothing_is_written(chouette, ledger_url, iban, why):
    chouette("new", "fri", "ann", "bob")
    before = dump(ledger_url)
    said = chouette("account", "ann", "--iban", iban, "--phone", "12345678", code=1).stderr
    assert said == f"Error: {iban!r} is no IBAN ({why}): nothing written\n"
    assert dump(ledger_url) == before


def test_an_account_is_for_a_player_the_ledger_knows(chouette):
    chouette("new", "fri", "ann", "bob")
    said = chouette("account", "zed", "--iban", ANN_IBAN, code=1).stderr
    assert said.startswith("Error: zed has played in no session here")
    assert chouette("account", code=2).stderr.endswith(
        "Error: name a player, or --list for every account\n"
    )


def test_the_page_refuses_accounts_and_files_on_the_servers_computer():
    from web.table import command_words

    for line, said in [
        ("account --list", "account shows players' bank accounts: run it at a terminal"),
        ("account ann --iban x", "account shows players' bank accounts: run it at a terminal"),
        ("settle --qr /tmp/x", "--qr writes files on the server's computer: run it at a terminal"),
        ("sheet --format xlsx --output=/tmp/x.xlsx",
         "--output writes files on the server's computer: run it at a terminal"),
    ]:  # fmt: skip
        with pytest.raises(ChouetteError) as refused:
            command_words(line)
        assert str(refused.value) == said


def test_an_account_is_exported_and_restored(chouette, tmp_path):
    two_tables(chouette)
    chouette("account", "bob", "--swish", "0701234567")
    chouette("export", str(tmp_path / "club.jsonl"))
    lines = [json.loads(t) for t in (tmp_path / "club.jsonl").read_text().splitlines()]
    assert next(x for x in lines if x["kind"] == "account") == {
        "kind": "account", "player": "ann", "holder": "Ann Smith", "iban": ANN_COMPACT,
        "phone": "", "swish": "",
    }  # fmt: skip
    listed = chouette.json("account", "--list")
    chouette("--db", str(tmp_path / "copy.db"), "import", str(tmp_path / "club.jsonl"))
    assert chouette.json("--db", str(tmp_path / "copy.db"), "account", "--list") == listed


def test_a_restored_account_is_checked_as_the_command_checks_it(chouette, tmp_path):
    two_tables(chouette)
    chouette("export", str(tmp_path / "club.jsonl"))
    text = (tmp_path / "club.jsonl").read_text().replace(ANN_COMPACT, ANN_COMPACT[:-1] + "1")
    (tmp_path / "bad.jsonl").write_text(text)
    said = chouette("--db", str(tmp_path / "copy.db"), "import", str(tmp_path / "bad.jsonl"),
                    code=1).stderr  # fmt: skip
    assert "is no IBAN (its check digits are wrong)" in said


# ---------------------------------------------------------------- payment codes


def test_a_night_of_two_tables_settles_into_codes_a_bank_app_reads(chouette, tmp_path):
    two_tables(chouette)
    said = chouette("settle", "--night", "--qr", str(tmp_path / "codes")).stdout
    assert "bob pays ann 5.00 EUR: scan the code to pay Ann Smith" in said
    assert "eva pays dan 2.50 EUR: dan has no account for it (chouette account dan)" in said
    folder = tmp_path / "codes"
    assert said.endswith(f"2 payment codes written to {folder} (FROM-TO.png).\n")
    files = sorted(p.name for p in (tmp_path / "codes").iterdir())
    assert files == ["bob-ann.png", "cat-ann.png"]  # dan has none: none made up
    fields = decoded(tmp_path / "codes" / "bob-ann.png").split("\n")
    assert fields == [
        "BCD", "002", "1", "SCT", "", "Ann Smith", ANN_COMPACT, "EUR5.00", "", "",
        "chouette t1, t2, night 2026-11-20",
    ]  # fmt: skip
    assert decoded(tmp_path / "codes" / "cat-ann.png").split("\n")[7] == "EUR5.00"
    assert (tmp_path / "codes" / "bob-ann.png").stat().st_mode & 0o077 == 0  # the owner's


def test_koruna_are_paid_by_a_short_payment_descriptor(chouette, tmp_path):
    two_tables(chouette)
    chouette("account", "dan", "--iban", EVA_IBAN, "--name", "Dan Novák")
    chouette("--session", "t2", "settle", "--qr", str(tmp_path), "--currency", "CZK")
    text = decoded(tmp_path / "eva-dan.png")
    head, version, *pairs = text.split("*")
    assert (head, version) == ("SPD", "1.0")
    assert dict(p.split(":", 1) for p in pairs) == {
        "ACC": EVA_COMPACT, "AM": "2.50", "CC": "CZK", "RN": "Dan Novák",
        "MSG": "chouette t2, night 2026-11-20",
    }  # fmt: skip


def test_kronor_by_swish_and_a_phone_number_written_out(chouette, tmp_path):
    two_tables(chouette)
    chouette("account", "dan", "--swish", "070 123 45 67")
    chouette("account", "ann", "--phone", "+45 12 34 56 78")
    chouette("--session", "t2", "settle", "--qr", str(tmp_path), "--currency", "SEK")
    assert decoded(tmp_path / "eva-dan.png") == (
        "C0701234567;2,50;chouette%20t2%2C%20night%202026-11-20;0"
    )
    said = chouette("--session", "t1", "settle", "--qr", "-", "--currency", "DKK").stdout
    assert "bob pays ann 5.00 DKK to the phone number +4512345678" in said
    assert "▀" not in said  # nothing to scan: the number and the amount


def test_settle_qr_dash_draws_the_codes_in_the_terminal(chouette):
    two_tables(chouette)
    said = chouette("--session", "t1", "settle", "--qr", "-").stdout
    assert said.count("scan the code to pay Ann Smith") == 2
    assert "█" in said or "▀" in said


def test_settle_qr_is_not_a_message_or_a_format(chouette):
    two_tables(chouette)
    for extra in (["--message"], ["--format", "csv"]):
        said = chouette("settle", "--qr", "-", *extra, code=2).stderr
        assert said.endswith("Error: --qr draws payment codes: not with --message or --format\n")


def test_an_amount_a_code_cannot_carry_is_refused_by_name_and_no_file_is_made_for_it(
    chouette, tmp_path
):
    """QR Platba's amount is at most 10 characters (9999999.99 CZK): eva's 10,000,000.00
    would be a code the bank app rejects. Her line is refused, naming her, dan and the
    limit, with no file; the night's other payments get their codes; exit 1."""
    chouette("new", "t1", "ann", "bob", "cat", "--stake", "5")
    chouette("end", "box")
    chouette("new", "big", "eva", "dan", "--stake", "10000000")
    chouette("end", "team")
    chouette("account", "ann", "--iban", EVA_IBAN)
    chouette("account", "dan", "--iban", EVA_IBAN)
    folder = tmp_path / "codes"
    said = chouette("settle", "--night", "--qr", str(folder), "--currency", "CZK", code=1)
    assert said.stderr == (
        "Error: eva pays dan 10000000.00 CZK: more than a payment code carries (QR Platba "
        "(SPAYD): at most 9999999.99 CZK); no code is made for this payment: pay it another "
        "way\n"
    )
    assert "bob pays ann 5.00 CZK: scan the code to pay ann" in said.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["bob-ann.png", "cat-ann.png"]
    assert "AM:5.00*" in decoded(folder / "bob-ann.png")
    # in euros the same payment fits an EPC code
    chouette("settle", "--night", "--qr", str(tmp_path / "eur"))
    assert decoded(tmp_path / "eur" / "eva-dan.png").split("\n")[7] == "EUR10000000.00"
    danish = chouette("--lang", "da", "--session", "big", "settle", "--qr", "-", "--currency",
                      "CZK", code=1).stderr  # fmt: skip
    assert "højst 9.999.999,99 CZK" in danish and "▀" not in danish


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["epc", "spayd", "swish"]),
    offset=st.integers(0, 10**15),
)
def test_every_code_written_decodes_to_the_exact_cents_of_its_line(tmp_path_factory, kind, offset):
    """The law, as a bank app reads the PNG: whatever the amount within the format's
    limits, the code decoded says exactly the line's cents; beyond them none is drawn."""
    from chouette.payments import AMOUNTS, Account, payment_code
    from files.codes import png, write_codes

    least, most = AMOUNTS[kind]
    cents = least + offset % (most - least + 1)
    currency = {"epc": "EUR", "spayd": "CZK", "swish": "SEK"}[kind]
    account = Account("ann", "Ann", EVA_COMPACT, swish="0701234567")
    code = payment_code("bob", "ann", cents, account, currency, "chouette friday")
    assert code.kind == kind
    folder = tmp_path_factory.mktemp("codes")
    (path,) = write_codes(folder, [code])
    assert path.read_bytes() == png(code.payload)
    text = decoded(path)
    if kind == "epc":
        amount = text.split("\n")[7].removeprefix("EUR")
    elif kind == "spayd":
        amount = dict(f.split(":", 1) for f in text.split("*")[2:])["AM"]
    else:
        amount = text.split(";")[1].replace(",", ".")
    whole, part = amount.split(".")
    assert int(whole) * 100 + int(part) == cents and len(part) == 2
    beyond = payment_code("bob", "ann", most + 1 + offset, account, currency, "x")
    assert beyond.kind == "refused" and write_codes(folder, [beyond]) == []


# ---------------------------------------------------------------- no account number leaks


def test_no_account_number_on_any_shared_output(chouette, ledger_url, tmp_path):
    from tests.dom import parse
    from web.app import templates
    from web.table import Table

    two_tables(chouette)
    chouette("account", "bob", "--phone", "+4598765432", "--swish", "0701234567")
    secrets = [ANN_COMPACT, EVA_COMPACT, "DE89 3704", "98765432", "0701234567"]
    shared = [
        chouette("settle", "--night").stdout,
        chouette("settle", "--night", "--message").stdout,
        chouette("settle", "--night", "--json").stdout,
        chouette("--session", "t1", "settle").stdout,
        chouette("standings", "--all").stdout,
        chouette("night").stdout,
    ]
    chouette("--session", "t1", "report", "--html", str(tmp_path / "r.html"))
    shared.append((tmp_path / "r.html").read_text())
    board = Table(ledger_url, "t1", lambda: NOW).snapshot().board
    shared.append(str(parse(templates().get_template("_board.html").render(board=board))))
    for text in shared:
        for secret in secrets:
            assert secret not in text
