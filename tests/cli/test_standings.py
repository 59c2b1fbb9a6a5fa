"""The text standings show the evening's money apart from the payments booked since: money
won at the table, payments, and the balance they leave (JSON and CSV keep their shape)."""

from __future__ import annotations

import csv
import io

import pytest

from chouette.report import Rows, Standing, standings_rows
from chouette.words import ENGLISH_WORDS

pytestmark = pytest.mark.backends("sqlite", "postgres")

TABLE = [Standing("ann", 8, 300), Standing("dan", 1, 100), Standing("bob", -9, -400)]


def english(table: Rows) -> tuple[list[str], list[list[str]]]:
    """A table as the English terminal writes its headings and cells."""
    head, rows = table
    return [str(h) for h in head], [[ENGLISH_WORDS(c) for c in row] for row in rows]


def test_without_payments_the_standings_are_as_ever():
    assert (
        english(standings_rows(TABLE))
        == english(standings_rows(TABLE, {}))
        == (
            ["player", "points", "money"],
            [["ann", "+8", "+3.00"], ["dan", "+1", "+1.00"], ["bob", "-9", "-4.00"]],
        )
    )


def test_with_payments_each_player_shows_the_table_the_payments_and_the_balance():
    headers, rows = english(standings_rows(TABLE, {"bob": 500, "ann": -500}))
    assert headers == ["player", "points", "at the table", "paid (+) / received (-)", "balance"]
    assert rows == [
        ["ann", "+8", "+8.00", "-5.00", "+3.00"],
        ["dan", "+1", "+1.00", "0.00", "+1.00"],
        ["bob", "-9", "-9.00", "+5.00", "-4.00"],
    ]


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +15.00, bob -10.00, cat -5.00


def test_standings_after_a_payment(chouette):
    evening(chouette)
    before = chouette("standings").stdout
    assert before.splitlines()[0].split() == ["player", "points", "money"]
    chouette("pay", "bob", "ann", "10.00", "--advance")
    assert chouette("standings").stdout == (
        "player      points    at the table    paid (+) / received (-)    balance\n"
        "--------  --------  --------------  -------------------------  ---------\n"
        "ann             +3          +15.00                     -10.00      +5.00\n"
        "cat             -1           -5.00                       0.00      -5.00\n"
        "bob             -2          -10.00                     +10.00       0.00\n"
    )
    assert chouette.json("standings")["players"] == [
        {"name": "ann", "points": 3, "cents": 500, "table_cents": 1500, "paid_cents": -1000},
        {"name": "cat", "points": -1, "cents": -500, "table_cents": -500, "paid_cents": 0},
        {"name": "bob", "points": -2, "cents": 0, "table_cents": -1000, "paid_cents": 1000},
    ]
    rows = list(csv.reader(io.StringIO(chouette("standings", "--format", "csv").stdout)))
    assert rows == [
        ["player", "points", "money"],
        ["ann", "+3", "+5.00"],
        ["cat", "-1", "-5.00"],
        ["bob", "-2", "0.00"],
    ]


def test_the_club_ledger_counts_every_sessions_payments(chouette):
    evening(chouette)
    chouette("new", "saturday", "cat", "dan")
    chouette("end", "box")  # at 1.00 a point: cat +1.00, dan -1.00
    assert "at the table" not in chouette("standings", "--all").stdout
    chouette("pay", "dan", "cat", "1.00", "--advance")  # in saturday
    assert "at the table" not in chouette("--session", "friday", "standings").stdout
    lines = chouette("standings", "--all", "--format", "markdown").stdout.splitlines()
    assert lines[0].split("|")[1:-1] == [
        " player   ",
        "   points ",
        "   at the table ",
        "   paid (+) / received (-) ",
        "   balance ",
    ]
    cells = {row.split("|")[1].strip(): row.split("|")[3:6] for row in lines[2:]}
    assert {p: [c.strip() for c in v] for p, v in cells.items()} == {
        "ann": ["+15.00", "0.00", "+15.00"],
        "bob": ["-10.00", "0.00", "-10.00"],
        "cat": ["-4.00", "-1.00", "-5.00"],
        "dan": ["-1.00", "+1.00", "0.00"],
    }


def test_a_payment_moves_a_balance_never_a_place():
    """Ranked by what each won at the table: an overpayment that leaves the night's biggest
    loser with a positive balance leaves them last (the TV once put them second)."""
    from chouette.report import standings

    totals = {"ann": (3, 1500), "bob": (-2, -1000), "cat": (-1, 2000)}  # cat paid 25.00
    ranked = standings(["ann", "bob", "cat"], totals, {"cat": 2500, "ann": -2500})
    assert [(s.name, s.table_cents, s.paid, s.cents) for s in ranked] == [
        ("ann", 4000, -2500, 1500),
        ("cat", -500, 2500, 2000),
        ("bob", -1000, 0, -1000),
    ]
    ties = standings(["ann", "bob"], {"ann": (1, 0), "bob": (2, 100)}, {"bob": 100})
    assert [s.name for s in ties] == ["bob", "ann"]  # equal at the table: more points first


def test_the_standings_rank_by_the_table_after_an_advance(chouette):
    evening(chouette)
    chouette("pay", "cat", "ann", "25.00", "--advance")  # cat pays 20.00 more than owed
    assert [p["name"] for p in chouette.json("standings")["players"]] == ["ann", "cat", "bob"]
    table = chouette("standings").stdout.splitlines()
    assert [line.split()[0] for line in table[2:]] == ["ann", "cat", "bob"]
    assert table[3].split() == ["cat", "-1", "-5.00", "+25.00", "+20.00"]


# ------------------------------------------------------------ who the standings list


def test_a_player_who_joined_and_left_without_playing_is_not_listed(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    chouette("join", "Zed Newcomer")
    chouette("leave", "Zed Newcomer")
    chouette("new", "saturday", "ann", "dan")
    for scope in ([], ["--all"]):
        names = [
            p["name"] for p in chouette.json("--session", "friday", "standings", *scope)["players"]
        ]
        assert "Zed Newcomer" not in names
        sheet = chouette.json("--session", "friday", "sheet", *scope)
        assert "Zed Newcomer" not in sheet["players"]
        page = tmp_path / "page.html"
        chouette("--session", "friday", "report", "--html", str(page), *scope)
        assert "Zed Newcomer" not in page.read_text(encoding="utf-8")
    friday = chouette.json("--session", "friday", "standings")["players"]
    assert [p["name"] for p in friday] == ["ann", "bob", "cat"]
    club = chouette.json("standings", "--all")["players"]
    assert [p["name"] for p in club] == ["ann", "dan", "bob", "cat"]  # dan is seated saturday


def test_a_player_who_played_or_was_paid_stays_listed_at_0(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("deal", "bob", "0")
    chouette("deal", "cat", "0")  # every pair at 0: game 1 books 0 to everyone
    chouette("join", "dan")
    chouette("pay", "ann", "dan", "5", "--advance")
    chouette("pay", "dan", "ann", "5", "--advance")
    chouette("leave", "cat")
    chouette("leave", "dan")
    for scope in ([], ["--all"]):
        table = chouette.json("standings", *scope)["players"]
        assert table == [
            {"name": n, "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0}
            for n in ("ann", "bob", "cat", "dan")
        ]


def test_a_player_whose_only_game_was_undone_is_not_listed(chouette):
    chouette("new", "friday", "ann", "bob")
    chouette("end", "team")
    chouette("join", "dan")
    chouette("end", "team")
    chouette("undo")  # takes back game 2's end, its only event: dan's balance is back at 0
    chouette("leave", "dan")
    for scope in ([], ["--all"]):
        names = [p["name"] for p in chouette.json("standings", *scope)["players"]]
        assert names == ["bob", "ann"]


def a_box_beating_five(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay", "--stake", "1.25")
    chouette("end", "box")  # ann +6.25, the five members -1.25 each


@pytest.mark.parametrize(
    ("code", "heading"),
    [("da", ["spiller", "point", "penge"]), ("cs", ["hráč", "body", "peníze"])],
)
def test_the_standings_read_in_danish_and_czech_with_a_decimal_comma(
    chouette, monkeypatch, code, heading
):
    a_box_beating_five(chouette)
    english = chouette.json("standings")
    monkeypatch.setenv("LANGUAGE", code)
    lines = chouette("standings").stdout.splitlines()
    assert lines[0].split() == heading
    assert lines[2].split() == ["ann", "+5", "+6,25"]
    assert lines[3].split() == ["bob", "-1", "-1,25"]
    assert chouette.json("standings") == english  # what programs read is the same
    assert "+6.25" in chouette("standings", "--format", "csv").stdout  # (for programs)
