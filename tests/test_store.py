"""The ledger on a real SQLite file: round trips, settings, schema versions."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from chouette.errors import ChouetteError
from chouette.game import Answer, Double, End
from chouette.line import Line, new_line
from chouette.rules import HouseRules
from db import open_ledger
from db.engine import connect, dispose_all
from db.migrations import LATEST
from db.store import line_from_json, line_to_json
from tests.dump import dump

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)


@pytest.fixture
def url(ledger_file):
    return f"sqlite:///{ledger_file}"


def test_line_round_trips_through_json_with_partner_sitting_out_and_last_down():
    line = Line(("ann", "pat", "bob", "cat", "dan"), frozenset({"cat"}), "pat", "dan")
    assert line_from_json(line_to_json(line)) == line


def test_a_game_in_progress_survives_a_restart(url):
    rules = HouseRules(cubes="multi", auto_doubles=2)
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 250, rules)
        book.play(info, [Double("box", ("bob",)), Answer("beaver", "bob")], None)
    dispose_all()
    with open_ledger(url, write=False, now=WHEN) as book:
        info = book.session(None)
        live = book.live(info)
    assert info.rules == rules and info.stake == 250
    assert live.number == 1 and live.game is not None
    assert (live.game.cubes["bob"].value, live.game.cubes["bob"].offer.stage) == (2, "beaver")
    assert info.created_at == WHEN


def test_times_come_back_as_utc(url):
    local = datetime(2026, 11, 20, 22, 30, tzinfo=UTC).astimezone()
    with open_ledger(url, write=True, now=local) as book:
        info = book.create_session(
            "friday", new_line(["ann", "bob"], HouseRules()), 100, HouseRules()
        )
        book.play(info, [End("box")], None)
    with open_ledger(url, write=False, now=WHEN) as book:
        entries = book.entries(None)
    assert {e.at for e in entries} == {datetime(2026, 11, 20, 22, 30, tzinfo=UTC)}
    assert all(e.at.tzinfo is UTC for e in entries)


def test_a_refused_command_rolls_back_everything(url):
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob"], HouseRules()), 100, HouseRules())
    with pytest.raises(ChouetteError), open_ledger(url, write=True, now=WHEN) as book:
        info = book.session(None, lock=True)
        book.play(info, [End("box")], None)  # books game 1 ...
        raise ChouetteError("... and then the command is refused")
    with open_ledger(url, write=False, now=WHEN) as book:
        assert book.entries(None) == []
        assert book.live(book.session(None)).number == 1


def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(url):
    engine = connect(url)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 30000


def test_a_fresh_ledger_is_stamped_with_the_latest_schema(url, ledger_file):
    connect(url)
    with sqlite3.connect(ledger_file) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchall() == [(LATEST,)]


def test_a_ledger_from_a_newer_chouette_is_refused(url, ledger_file):
    connect(url)
    dispose_all()
    with sqlite3.connect(ledger_file) as raw:
        raw.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    with pytest.raises(ChouetteError, match="written by a newer chouette"):
        connect(url)


def schema(url: str) -> dict[str, object]:
    """Tables, columns (name, type, nullable), indexes and unique constraints."""
    engine = create_engine(url)
    try:
        insp = inspect(engine)
        return {
            table: (
                sorted((c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(table)),
                sorted((i["name"], tuple(i["column_names"])) for i in insp.get_indexes(table)),
                sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table)),
                sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"])
                    for f in insp.get_foreign_keys(table)
                ),
            )
            for table in sorted(insp.get_table_names())
        }
    finally:
        engine.dispose()


V1 = Path(__file__).parent / "data" / "ledger-v1.sqlite"


def test_a_first_schema_ledger_migrates_to_exactly_the_fresh_schema(tmp_path):
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    before = dump(f"sqlite:///{old}")
    assert before["schema_version"] == [(1,)]
    connect(f"sqlite:///{old}")
    fresh = tmp_path / "fresh.sqlite"
    connect(f"sqlite:///{fresh}")
    dispose_all()
    assert schema(f"sqlite:///{old}") == schema(f"sqlite:///{fresh}")
    after = dump(f"sqlite:///{old}")
    assert after["schema_version"] == [(LATEST,)]
    for table, rows in before.items():
        if table == "booking":  # one new column, empty
            assert [r[:-1] for r in after[table]] != [] and len(after[table]) == len(rows)
            assert {r[-1] for r in after[table]} == {None}
        elif table != "schema_version":
            assert after[table] == rows, table


def test_a_migrated_ledger_reports_what_it_held(chouette, tmp_path, monkeypatch):
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    assert chouette.json("standings", "--all")["players"] == [
        {"name": "Big Al", "points": 6, "cents": 600},
        {"name": "ann", "points": 2, "cents": 500},
        {"name": "eve", "points": 1, "cents": 250},
        {"name": "cat", "points": 0, "cents": 0},
        {"name": "dan", "points": 0, "cents": 0},
        {"name": "zoë", "points": -6, "cents": -600},
        {"name": "bob", "points": -3, "cents": -750},
    ]
    status = chouette.json("--session", "friday", "status")
    assert status["game"]["cubes"]["bob"]["pending"] == "box"
    chouette("take", "bob")
    chouette.json("end", "box")
