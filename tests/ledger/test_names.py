"""The names a Tab of shell completion offers (db/names.py), read the quick way on SQLite
and the ORM's way elsewhere: the ledger's own sessions, lines and nights."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chouette.line import new_line
from chouette.rules import HouseRules
from db import open_ledger
from db.names import current_name, line_order, nights, session_names
from db.reading import open_names

pytestmark = pytest.mark.backends("sqlite", "postgres")

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)
RULES = HouseRules()


def test_a_tab_offers_the_ledgers_sessions_lines_and_nights_on_either_database(ledger_url):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob", "cat"], RULES), 100, RULES)
        book.create_session(
            "saturday", new_line(["dan", "eve"], RULES), 100, RULES, night="club night"
        )
        sessions = book.reads.session_names(), book.reads.nights()
    with open_names(ledger_url, now=WHEN) as run:
        assert session_names(run) == ["friday", "saturday"]
        assert current_name(run) == "saturday"
        assert line_order(run, None) == ["dan", "eve"]
        assert line_order(run, "friday") == ["ann", "bob", "cat"]
        assert line_order(run, "sunday") == []
        assert line_order(run, "fri\x00day") == []
        assert [night for night, _ in nights(run)] == ["2026-11-20", "club night"]
        assert (session_names(run), nights(run)) == sessions  # the reports read them so


def test_a_ledger_without_a_session_offers_no_names(ledger_url):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob"], RULES), 100, RULES)
        book.drop_session(book.session("friday"))
    with open_names(ledger_url, now=WHEN) as run:
        assert session_names(run) == []
        assert current_name(run) is None
        assert line_order(run, None) == []
