"""``chouette record`` through the commands: a record that disagrees with the session is
refused and books nothing; records naming the current session or leaving it out are one."""

from __future__ import annotations

import json

import pytest

from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")


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
