"""`--format xlsx --output FILE` of `sheet`, `standings`, `night` and `ledger`: a workbook
openpyxl opens, one sheet a table, amounts as numbers in the money format with the same
totals as `standings --json`, and players' names as text, never a formula."""

from __future__ import annotations

from decimal import Decimal

import pytest

from chouette.words import ENGLISH_WORDS

FORMULA = "=1+1"  # a legal player's name that a spreadsheet must not compute


def two_tables(chouette) -> None:
    chouette("new", "t1", "ann", "bob", FORMULA, "--stake", "2.50")
    chouette("end", "box", "--gammon")
    chouette("new", "t2", "dan", "eve")
    chouette("end", "team")
    chouette("fee", "1", "--to", "ann", "--night", "--note", "room")


def opened(path):
    import openpyxl

    return openpyxl.load_workbook(path)


def rows_of(sheet) -> list[list[object]]:
    return [[c.value for c in row] for row in sheet.iter_rows()]


def test_standings_as_a_spreadsheet_have_the_same_totals_as_its_json(chouette, tmp_path):
    two_tables(chouette)
    out = tmp_path / "club.xlsx"
    said = chouette("standings", "--all", "--format", "xlsx", "--output", str(out)).stdout
    assert said == f"Written to {out}: 1 sheet.\n"
    (sheet,) = opened(out)
    head, *body = rows_of(sheet)
    assert head == ["player", "points", "at the table", "fees and costs", "balance"]
    expected = {p["name"]: p for p in chouette.json("standings", "--all")["players"]}
    assert {r[0]: (r[1], r[-1]) for r in body} == {
        name: (p["points"], Decimal(p["cents"]).scaleb(-2)) for name, p in expected.items()
    }
    assert sum(r[-1] for r in body) == 0
    for row in sheet.iter_rows(min_row=2):
        assert row[0].data_type == "s" and row[-1].data_type == "n"
        assert row[-1].number_format == "+#,##0.00;-#,##0.00;0.00"


def test_a_name_like_a_formula_stays_text(chouette, tmp_path):
    two_tables(chouette)
    out = tmp_path / "t1.xlsx"
    chouette("--session", "t1", "standings", "--format", "xlsx", "--output", str(out))
    (sheet,) = opened(out)
    (cell,) = [row[0] for row in sheet.iter_rows(min_row=2) if row[0].value == FORMULA]
    assert cell.data_type == "s"
    import zipfile

    with zipfile.ZipFile(out) as zipped:  # no formula anywhere in the file
        assert not any("<f>" in zipped.read(n).decode() for n in zipped.namelist())


def test_a_night_is_one_sheet_a_table_and_its_totals(chouette, tmp_path):
    two_tables(chouette)
    out = tmp_path / "night.xlsx"
    assert chouette("night", "--format", "xlsx", "--output", str(out)).stdout.endswith(
        ": 4 sheets.\n"
    )
    book = opened(out)
    assert book.sheetnames == ["t1", "t2", "The night's totals", "notes"]
    totals = {r[0]: r[-1] for r in rows_of(book["The night's totals"])[1:]}
    night = chouette.json("night")["totals"]
    assert totals == {p["name"]: Decimal(p["cents"]).scaleb(-2) for p in night}


@pytest.mark.parametrize("command", [["sheet"], ["ledger", "--all"]])
def test_the_sheet_and_the_ledger_as_spreadsheets(chouette, tmp_path, command):
    two_tables(chouette)
    out = tmp_path / "x.xlsx"
    chouette(*command, "--format", "xlsx", "--output", str(out))
    first = opened(out).worksheets[0]
    head = rows_of(first)[0]
    assert "game" in head
    if command[0] == "ledger":  # every booking, its money a number
        cents = sum(b["cents"] for b in chouette.json("ledger", "--all")["bookings"])
        money = head.index("money")
        assert sum(r[money] for r in rows_of(first)[1:]) == Decimal(cents).scaleb(-2) == 0


def test_a_spreadsheet_is_asked_for_whole(chouette, tmp_path):
    two_tables(chouette)
    for args, said in [
        (["standings", "--format", "xlsx"],
         "--format xlsx writes a file: give it with --output FILE"),
        (["standings", "--output", "x.xlsx"],
         "--output is the spreadsheet's: give it with --format xlsx"),
        (["night", "--format", "csv"], "night writes a table or --format xlsx"),
        (["standings", "--json", "--format", "xlsx", "--output", "x.xlsx"],
         "--json or --format xlsx, not both"),
    ]:  # fmt: skip
        assert chouette(*args, code=2).stderr.endswith(f"Error: {said}\n")
    assert not (tmp_path / "x.xlsx").exists()


def test_the_headings_are_in_the_readers_language(chouette, tmp_path, monkeypatch):
    two_tables(chouette)
    monkeypatch.setenv("LANGUAGE", "da")
    out = tmp_path / "da.xlsx"
    said = chouette("standings", "--format", "xlsx", "--output", str(out)).stdout
    assert said == f"Skrevet til {out}: 1 ark.\n"
    head = rows_of(opened(out).worksheets[0])[0]
    assert head[0] != "player" and ENGLISH_WORDS("player") == "player"
