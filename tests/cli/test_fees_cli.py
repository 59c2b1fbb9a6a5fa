"""`chouette fee` and `chouette expense` at the doors: booked in the ledger, in settle, the
ledger report and the journal, taken back whole by undo, carried by export, covered by
check's and verify's chain; a refusal writes nothing."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from cli import run_words
from tests.dump import dump


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "dan", "--stake", "5.00")


def test_a_fee_charges_every_player_but_the_organiser_by_default(chouette):
    evening(chouette)
    result = chouette("fee", "5", "--to", "ann", "--note", "table fee")
    assert result.stdout == "Fee in friday: bob, cat and dan owe ann 5.00 each (table fee).\n"
    assert chouette("settle", "--format", "csv").stdout.splitlines() == [
        "from,to,amount",
        "bob,ann,5.00",
        "cat,ann,5.00",
        "dan,ann,5.00",
    ]


def test_a_fee_charges_only_the_players_named(chouette):
    evening(chouette)
    got = chouette.json("fee", "20", "BOB", "ann", "--to", "ann", "--note", "room hire")
    assert got == {
        "session": "friday",
        "kind": "fee",
        "to": "ann",
        "cents": 2000,
        "note": "room hire",
        "shares": [{"player": "bob", "cents": 2000}],
        "moves": {"bob": -2000, "ann": 2000},
        "left_over": [],
    }


def test_a_shared_cost_says_the_cents_left_over_out_loud(chouette):
    evening(chouette)
    result = chouette(
        "expense", "cat", "10.02", "--among", "ann", "bob", "dan", "cat", "--note", "beer"
    )
    assert result.stdout == (
        "Shared cost in friday: cat paid 10.02 (beer), shared by ann, bob, dan and cat: cat is "
        "owed 2.51 by ann, 2.51 by bob and 2.50 by dan.\n"
        "2 cents left over: ann and bob pay 1 cent more.\n"
    )
    got = chouette.json("expense", "ann", "1", "--among", "bob", "--among", "cat", "--note", "x")
    assert got["moves"] == {"bob": -50, "cat": -50, "ann": 100} and got["left_over"] == []
    balances = {p["name"]: p["cents"] for p in chouette.json("standings")["players"]}
    assert balances == {"ann": -151, "bob": -301, "cat": 702, "dan": -250}


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["fee", "5", "--to", "zed", "--note", "x"], 1, "Error: zed has not played in friday"),
        (["fee", "5", "bob", "eve", "--to", "ann", "--note", "x"], 1, "Error: eve has not played"),
        (["fee", "0", "--to", "ann", "--note", "x"], 1, "Error: a fee must be more than zero"),
        (["fee", "--to", "ann", "--note", "x", "--", "-5"], 1, "Error: a fee must be more than"),
        (["fee", "5", "ann", "--to", "ann", "--note", "x"], 1, "Error: nobody to charge the fee"),
        (["fee", "5", "--note", "x"], 2, "Error: say who is owed the fee: --to PLAYER"),
        (["fee", "5", "--to", "ann"], 2, "Error: say what the fee is for: --note TEXT"),
        (["fee", "five", "--to", "ann", "--note", "x"], 2, "Error: AMOUNT: 'five' is not"),
        (["expense", "ann", "9", "bob", "--note", "x"], 2, "Error: name who shares it"),
        (["expense", "ann", "9", "--among", "ann", "--note", "x"], 1, "Error: ann is the only one"),
        (["expense", "ann", "9", "--among", "bob", "--among", "BOB", "--note", "x"], 1,
         "Error: bob is named twice"),
        (["expense", "ann", "9", "--note", " "], 1, "Error: say what it is for"),
    ],
)  # fmt: skip
def test_a_charge_that_cannot_be_booked_is_refused_and_writes_nothing(
    chouette, ledger_url, args, code, said
):
    evening(chouette)
    before = dump(ledger_url)
    assert chouette(*args, code=code).stderr.startswith(said)
    assert dump(ledger_url) == before


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_a_charge_back_whole_and_log_and_the_ledger_list_it(chouette):
    evening(chouette)
    chouette("fee", "5", "--to", "ann", "--note", "table fee")
    chouette("expense", "bob", "9", "--note", "pizza")
    log = chouette("log").stdout
    assert "the shared cost: bob paid 9.00 (pizza), shared by ann, bob, cat and dan" in log
    assert "the fee: bob, cat and dan owe ann 5.00 each (table fee)" in log
    ledger = chouette("ledger", "--format", "csv").stdout
    assert "dan,0,-5.00,fee to ann: table fee" in ledger
    assert "bob,0,+6.75,a shared cost paid: pizza" in ledger
    assert chouette.json("undo")["undone"] == "charge"
    balances = {p["name"]: p["cents"] for p in chouette.json("standings")["players"]}
    assert balances == {"ann": 1500, "bob": -500, "cat": -500, "dan": -500}
    chouette("check")


def test_an_export_carries_charges_and_a_changed_fee_is_found(chouette, ledger_url, tmp_path):
    evening(chouette)
    chouette("fee", "5", "--to", "ann", "--note", "table fee")
    chouette("expense", "bob", "10", "--among", "bob", "cat", "dan", "--note", "pizza")
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = [json.loads(line) for line in backup.read_text().splitlines()]
    assert [line["type"] for line in lines if line["kind"] == "charge"] == ["fee", "expense"]
    settled = chouette("settle").stdout
    restored = tmp_path / "restored.db"
    assert chouette("--db", str(restored), "import", str(backup)).stdout.startswith(
        "Restored 1 session, 0 games, 2 fees and shared costs and 0 payments"
    )
    assert chouette("--db", str(restored), "settle").stdout == settled
    changed = tmp_path / "changed.jsonl"
    changed.write_text(backup.read_text().replace('"cents": 500,', '"cents": 50,'))
    refused = chouette("verify", str(changed), code=1).stderr  # as a restore reads it
    assert refused.startswith(f"Error: {changed}: line ") and "its shares are not" in refused
    engine = create_engine(ledger_url)
    with engine.begin() as conn:  # a fee changed behind chouette's back
        conn.execute(text("UPDATE charge SET cents = 50 WHERE kind = 'fee'"))
    engine.dispose()
    problems = json.loads(chouette("check", "--json", code=1).stdout)["problems"]
    assert (
        "friday: the fee 'bob, cat and dan owe ann 5.00 each (table fee)': its shares are not "
        "what a fee of 0.50 gives (bob, cat and dan owe ann 0.50 each (table fee))"
    ) in problems
    assert any("friday's chain" in p for p in problems)


def game_and_fee(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +15.00, bob -10.00, cat -5.00
    chouette("fee", "3", "--to", "cat", "--note", "table fee")  # ann, bob -3.00; cat +6.00


def test_standings_show_fees_and_costs_in_a_column_of_their_own(chouette):
    game_and_fee(chouette)
    chouette("pay", "bob", "ann", "10.00")
    assert chouette("standings").stdout == (
        "player      points    at the table    fees and costs    paid (+) / received (-)"
        "    balance\n"
        "--------  --------  --------------  ----------------  -------------------------"
        "  ---------\n"
        "ann             +3          +15.00             -3.00                     -10.00"
        "      +2.00\n"
        "cat             -1           -5.00             +6.00                       0.00"
        "      +1.00\n"
        "bob             -2          -10.00             -3.00                     +10.00"
        "      -3.00\n"
    )
    assert chouette.json("standings")["players"][1] == {
        "name": "cat",
        "points": -1,
        "cents": 100,
        "table_cents": -500,
        "paid_cents": 0,
        "costs_cents": 600,
    }  # ranked by what was won at the table: a fee moves a balance, never a place
    assert chouette("standings", "--format", "csv").stdout.splitlines()[0] == (
        "player,points,money"
    )
    assert chouette("settle", "--format", "csv").stdout.splitlines()[1:] == [
        "bob,ann,2.00",
        "bob,cat,1.00",
    ]


def test_the_report_shows_fees_and_costs_apart(chouette, tmp_path):
    from tests.dom import parse

    game_and_fee(chouette)
    page = tmp_path / "friday.html"
    chouette("report", "--html", str(page))
    standings = parse(page.read_text()).one(id="standings")
    assert [th.text() for th in standings.all("th")][3:] == [
        "at the table",
        "fees and costs",
        "balance",
    ]
    cat = standings.one("tr", "standing", data_player="cat")
    assert [td.text() for td in cat.all("td", "num")] == ["-1", "-5.00", "+6.00", "+1.00"]


def test_the_keepers_command_line_books_a_fee_and_a_cost_and_the_board_shows_them(
    chouette, ledger_url
):
    from tests.dom import parse
    from tests.serve.test_serve_pages import NOW
    from web.app import templates
    from web.table import Table

    chouette("new", "friday", "ann", "bob", "cat", "--stake", "5.00")
    table = Table(
        ledger_url, None, lambda: NOW, commands=run_words
    )  # what POST /keeper/act runs for `line`
    ok, said = table.run_line("fee 2 --to ann --note 'table fee'", "friday")
    assert ok and said == ["Fee in friday: bob and cat owe ann 2.00 each (table fee)."]
    ok, said = table.run_line("expense zed 9 --note pizza", "friday")
    assert not ok and said[0].startswith("Error: zed has not played in friday")
    board = table.snapshot().board
    page = parse(templates().get_template("_board.html").render(board=board))
    standings = page.one(id="standings")
    assert "fees and costs" in [th.text() for th in standings.all("th")]
    assert {
        r.attrs["data-player"]: r.one("td", "costs").text() for r in standings.all("tr", "standing")
    } == {"ann": "+4.00", "bob": "-2.00", "cat": "-2.00"}


def test_a_restored_charge_must_be_its_own_split(chouette, tmp_path):
    evening(chouette)
    chouette("expense", "bob", "10", "--among", "bob", "cat", "dan", "--note", "pizza")
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = [line for line in backup.read_text().splitlines() if '"kind": "chain"' not in line]
    number = next(i for i, line in enumerate(lines, 1) if '"kind": "charge"' in line)
    bent = [line.replace('["cat", 333]', '["cat", 300]') for line in lines]
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(bent) + "\n")
    result = chouette("--db", str(tmp_path / "copy.db"), "import", str(changed), code=1)
    assert result.stderr == (
        f"Error: line {number}: its shares are not what a shared cost of 10.00 gives (bob paid "
        "10.00 (pizza), shared by bob, cat and dan: cat and dan owe bob 3.33 each)\n"
    )


# ---------------------------------------------------------------- a whole night


def night_of_two_tables(chouette) -> None:
    chouette("new", "t1", "ann", "bob", "cat")
    chouette("new", "t2", "dan", "eve", "bob")  # bob sits at both tables


def test_a_night_fee_charges_every_player_of_the_nights_tables_once(chouette):
    night_of_two_tables(chouette)
    said = chouette("fee", "3", "--to", "ann", "--night", "--note", "room").stdout
    assert said == (
        "Fee in t1: bob and cat owe ann 3.00 each (room).\n"
        "Fee in t2: dan and eve owe ann 3.00 each (room).\n"
    )  # ann plays at t1, not at t2 (the current table): owed there all the same
    night = chouette.json("night")
    assert {p["name"]: p["cents"] for p in night["totals"]} == {
        "ann": 1200, "bob": -300, "cat": -300, "dan": -300, "eve": -300,
    }  # fmt: skip
    assert sum(p["cents"] for p in night["totals"]) == 0
    assert chouette("settle", "--night", "--format", "csv").stdout.splitlines()[1:] == [
        "bob,ann,3.00", "cat,ann,3.00", "dan,ann,3.00", "eve,ann,3.00",
    ]  # fmt: skip


def test_a_night_fee_to_an_organiser_at_another_table_or_none(chouette):
    night_of_two_tables(chouette)
    chouette("new", "old", "zoe", "ann", "--night", "last week")
    got = chouette.json("--session", "t2", "fee", "2", "--to", "zoe", "--night", "--note", "room")
    assert [(c["session"], c["moves"]) for c in got["charges"]] == [
        ("t1", {"ann": -200, "bob": -200, "cat": -200, "zoe": 600}),
        ("t2", {"dan": -200, "eve": -200, "zoe": 400}),
    ]
    said = chouette("fee", "2", "--to", "zed", "--night", "--note", "x", code=1).stderr
    assert said.startswith("Error: zed has played in no session here")
    assert chouette(
        "fee", "2", "bob", "--to", "ann", "--night", "--note", "x", code=2
    ).stderr.endswith("Error: PLAYER or --night, not both\n")


def test_a_night_expense_is_split_among_the_whole_night_to_the_cent(chouette):
    night_of_two_tables(chouette)
    said = chouette("expense", "dan", "10.01", "--night", "t2", "--note", "pizza", code=1)
    assert said.stderr.startswith("Error: there is no night called t2")
    night = chouette.json("night")["night"]
    said = chouette("expense", "dan", "10.01", "--night", night, "--note", "pizza").stdout
    assert said == (
        "Shared cost in t1: dan paid 6.01 (pizza), shared by ann, bob and cat: dan is owed 2.01"
        " by ann, 2.00 by bob and 2.00 by cat.\n"
        "1 cent left over: ann pays 1 cent more.\n"
        "Shared cost in t2: dan paid 4.00 (pizza), shared by dan and eve: eve owes dan 2.00.\n"
    )
    totals = {p["name"]: p["cents"] for p in chouette.json("night")["totals"]}
    assert totals == {"ann": -201, "bob": -200, "cat": -200, "dan": 801, "eve": -200}
    chouette("--session", "t1", "undo")  # each table's part is undone at its table
    assert {
        p["name"]: p["cents"] for p in chouette.json("--session", "t1", "standings")["players"]
    } == {
        "ann": 0,
        "bob": 0,
        "cat": 0,
    }  # fmt: skip (dan, who paid, is no longer listed at t1: nothing booked for him there)
