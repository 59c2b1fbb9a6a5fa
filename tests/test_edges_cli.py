"""The rules at their edges (issue 13) through the commands: records, standings, old ledgers."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_inherit_everyone_dropping_is_a_clean_box_win_through_drop_all(chouette):
    chouette("new", "t", "B", "C", "M1", "M2", "--acting-captain", "inherit")
    chouette("double", "C", "M1", "M2")
    out = chouette("drop", "--all").stdout
    assert out.endswith(
        "Next line: B | M1, M2, C\n"
        "Why:\n"
        "  box stays: captain rule, C lost to the box (-1)\n"
        "  B keeps the box; C, the captain, goes to the bottom of the line\n"
    )


def test_inherit_everyone_dropping_is_a_clean_box_win_through_a_record(chouette):
    chouette("new", "t", "B", "C", "M1", "--acting-captain", "inherit", "--cubes", "single")
    record = {
        "events": [
            {"act": "double", "by": "box"},
            {"act": "drop", "member": "C"},
            {"act": "drop", "member": "M1"},
        ]
    }
    out = chouette("record", "-", input=json.dumps(record)).stdout
    assert out == "Booked game 1 of t; next line: B | M1, C\n"


def test_a_box_who_sat_out_rejoins_at_the_bottom(chouette):
    chouette("new", "t", "X", "B", "C", "M1")
    chouette("sit-out", "X")
    chouette("end", "box")
    assert chouette("sit-in", "X").stdout == "X sits in. Line: B | M1, C, X\n"


# ------------------------------------------------------------ the chouette record


def refused(chouette, ledger_url, record, *options):
    before = dump(ledger_url)
    result = chouette(*options, "record", "-", input=json.dumps(record), code=1)
    assert dump(ledger_url) == before
    return result.stderr


def test_a_record_naming_the_wrong_partner_is_refused_and_books_nothing(chouette, ledger_url):
    chouette("new", "t", "B", "P", "C", "M1", "--partner-from", "4")
    record = {"partner": "M1", "result": {"winner": "box"}}
    assert refused(chouette, ledger_url, record) == (
        "Error: record: its 'partner' is M1, but the box's partner is C\n"
    )
    record["partner"] = "C"
    assert chouette("record", "-", input=json.dumps(record)).stdout == (
        "Booked game 1 of t; next line: B+C | M1, P\n"
    )


def test_a_record_whose_session_disagrees_with_the_session_option_is_refused(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob")
    chouette("new", "sat", "ann", "bob")
    record = {"session": "sat", "result": {"winner": "box"}}
    assert refused(chouette, ledger_url, record, "--session", "fri") == (
        "Error: record: its 'session' is sat, but --session names fri: leave 'session' out "
        "or make the two agree\n"
    )
    chouette("--session", "sat", "record", "-", input=json.dumps(record))
    chouette("record", "-", input=json.dumps(record))  # no --session: the record says


def test_records_naming_the_current_session_and_leaving_it_out_are_one_session(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    records = [
        {"result": {"winner": "box"}},  # no 'session': the current one, fri
        {"session": "fri", "line": ["ann", "cat", "bob"], "result": {"winner": "box"}},
        {"result": {"winner": "team"}},
    ]
    out = chouette("record", "-", input="\n".join(json.dumps(r) for r in records)).stdout
    assert out == (
        "Booked game 1 of fri; next line: ann | cat, bob\n"
        "Booked game 2 of fri; next line: ann | bob, cat\n"
        "Booked game 3 of fri; next line: bob | cat, ann\n"
    )
    assert [g["game"] for g in chouette.json("sheet")["games"]] == [1, 2, 3]
    chouette("undo")  # the record, whole
    assert chouette.json("sheet")["games"] == []


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


# ------------------------------------------------------------ old ledgers


def drop_the_edition(ledger_url: str, session: str) -> None:
    """The session as an older chouette stored it: house rules without an edition."""
    engine = create_engine(ledger_url)
    try:
        with engine.begin() as conn:
            rules = json.loads(
                conn.execute(
                    text("SELECT rules FROM session WHERE name = :n"), {"n": session}
                ).scalar_one()
            )
            del rules["edition"]
            conn.execute(
                text("UPDATE session SET rules = :r WHERE name = :n"),
                {"r": json.dumps(rules), "n": session},
            )
    finally:
        engine.dispose()


def test_a_session_of_an_older_chouette_keeps_its_scoring_and_checks_clean(chouette, ledger_url):
    for name in ("old", "new"):
        chouette(
            "new", name, "B", "C", "P", "M1", "M2", "--acting-captain", "inherit",
            "--partner-from", "5", "--player-stake", "P=0.25",
        )  # fmt: skip
    drop_the_edition(ledger_url, "old")
    assert "edition 1 (older scoring)" in chouette("--session", "old", "sheet").stdout
    for name in ("old", "new"):
        chouette("--session", name, "double", "C", "M1", "M2")
        chouette("--session", name, "drop", "--all")
    booked = {
        name: {
            p["name"]: p["cents"] for p in chouette.json("--session", name, "standings")["players"]
        }
        for name in ("old", "new")
    }
    # the box side wins 3 points; the partner's share is 1 point, at P's own 0.25 since edition 2
    assert booked["old"] == {"B": 200, "P": 100, "C": -100, "M1": -100, "M2": -100}
    assert booked["new"] == {"B": 275, "P": 25, "C": -100, "M1": -100, "M2": -100}
    assert chouette.json("--session", "old", "status")["line"] == ["B", "P", "C", "M1", "M2"]
    assert chouette.json("--session", "new", "status")["line"] == ["B", "P", "M1", "M2", "C"]
    assert chouette("check").stdout.startswith("The ledger is consistent")
