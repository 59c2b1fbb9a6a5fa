"""The ledger on SQLite and PostgreSQL: round trips, settings, schema versions."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import DBAPIError

from chouette.errors import ChouetteError
from chouette.game import Answer, Deal, Double, End
from chouette.line import Line, new_line
from chouette.rules import HouseRules
from db import open_ledger
from db.codec import line_from_json, line_to_json
from db.commands import play
from db.engine import PAGE_SIZE, WRITE_CACHE_KB, connect, dispose_all
from db.migrations import LATEST
from db.values import Finished, Won
from files.words import words
from tests.dump import Dump, dump, execute
from tests.paths import DATA

pytestmark = pytest.mark.backends("sqlite", "postgres")

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)


@pytest.fixture
def url(ledger_url):
    return ledger_url


@pytest.mark.backends("sqlite")  # no database
def test_line_round_trips_through_json_with_partner_sitting_out_and_last_down():
    line = Line(("ann", "pat", "bob", "cat", "dan"), frozenset({"cat"}), "pat", "dan")
    assert line_from_json(line_to_json(line)) == line


def test_a_game_in_progress_survives_a_restart(url):
    rules = HouseRules(cubes="multi", auto_doubles=2)
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 250, rules)
        play(book, info, [Double("box", ("bob",)), Answer("beaver", "bob")], None)
    dispose_all()
    with open_ledger(url, write=False, now=WHEN) as book:
        info = book.session(None)
        live = book.live(info)
    assert info.rules == rules and info.stake == 250
    assert live.number == 1 and live.game is not None
    assert (live.game.cubes["bob"].value, live.game.cubes["bob"].offer.stage) == (2, "beaver")
    assert info.created_at == WHEN


def test_a_batch_the_database_refuses_is_refused_whole_with_a_message(url):
    """The one writer of booked games (executemany on SQLite, COPY on PostgreSQL) reports a
    refused row as any statement does, and the command writes nothing."""
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob"], rules), 100, rules)
        play(book, info, [End("box")])
    before = dump(url)
    clash = (  # on SQLite no other command can have written meanwhile: writers queue
        "a row clashes with one the ledger already holds"
        if url.startswith("sqlite")
        else "another command changed the ledger at the same moment, or a row clashes with one"
    )
    refused = pytest.raises(ChouetteError, match=clash)
    with refused, open_ledger(url, write=True, now=WHEN) as book:
        games = [
            Finished(info.id, number, "engine", Line(("ann", "bob")), {"ann": 1, "bob": -1},
                     {"ann": 100, "bob": -100}, WHEN, WHEN, detail="{}")
            for number in (90, 91, 91)  # a number given twice: the database refuses the batch
        ]  # fmt: skip
        book.book_games(games)
    assert dump(url) == before


def test_times_come_back_as_utc(url):
    local = datetime(2026, 11, 20, 22, 30, tzinfo=UTC).astimezone(timezone(timedelta(hours=-5)))
    with open_ledger(url, write=True, now=local) as book:
        info = book.create_session(
            "friday", new_line(["ann", "bob"], HouseRules()), 100, HouseRules()
        )
        play(book, info, [End("box")], None)
    with open_ledger(url, write=False, now=WHEN) as book:
        entries = book.entries(None)
    assert {e.at for e in entries} == {datetime(2026, 11, 20, 22, 30, tzinfo=UTC)}
    assert all(e.at.tzinfo is UTC for e in entries)


def test_a_refused_command_rolls_back_everything(url):
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob"], HouseRules()), 100, HouseRules())
    with pytest.raises(ChouetteError), open_ledger(url, write=True, now=WHEN) as book:
        info = book.session(None, lock=True)
        play(book, info, [End("box")], None)  # books game 1 ...
        raise ChouetteError("... and then the command is refused")
    with open_ledger(url, write=False, now=WHEN) as book:
        assert book.entries(None) == []
        assert book.live(book.session(None)).number == 1


def test_the_session_used_last_is_remembered_within_one_command_too(url):
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob"], rules), 100, rules)
        book.create_session("saturday", new_line(["cat", "dan"], rules), 100, rules)
        assert book.session(None).name == "saturday"
        book.use("friday")
        assert book.session(None).name == "friday"
    with open_ledger(url, write=False, now=WHEN) as book:
        assert [(s.name, s.current) for s in book.sessions()] == [
            ("friday", True),
            ("saturday", False),
        ]


def test_a_report_reads_one_snapshot_while_another_command_books_a_game(url):
    """A report sees the ledger as it was when it began, not half of a game booked meanwhile
    (SQLite's read transactions do this; on PostgreSQL it takes REPEATABLE READ)."""
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 100, rules)
    with open_ledger(url, write=False, now=WHEN) as report:
        info = report.session(None)
        assert report.entries(info) == []
        with open_ledger(url, write=True, now=WHEN) as other:  # another terminal ends game 1
            play(other, other.session(None, lock=True), [End("box")])
        assert report.sheet(info) == [] and report.totals(info) == {}
    with open_ledger(url, write=False, now=WHEN) as report:
        assert [line.number for line in report.sheet(report.session(None))] == [1]


def test_a_command_that_waits_too_long_for_the_table_is_refused(url, monkeypatch):
    """A writer waits for another's lock as long as the busy timeout, then gives up with a
    message, having written nothing (SQLite's busy timeout; PostgreSQL's lock_timeout)."""
    monkeypatch.setattr("db.locks.BUSY_TIMEOUT_MS", 300)
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 100, rules)
    with open_ledger(url, write=True, now=WHEN) as book:
        play(book, book.session(None, lock=True), [Double("box", ("bob",))], None)
        with (
            pytest.raises(ChouetteError, match="the ledger is busy") as refused,
            open_ledger(url, write=True, now=WHEN) as other,
        ):
            play(other, other.session(None, lock=True), [End("box")])
        assert "nothing was written" in str(refused.value)
    with open_ledger(url, write=False, now=WHEN) as book:
        live = book.live(book.session(None))
        assert live.game is not None and len(live.game.events) == 1


@pytest.mark.backends("sqlite")
def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(url):
    engine = connect(url)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 30000
        assert conn.execute(text("PRAGMA cache_size")).scalar() == -WRITE_CACHE_KB


def test_a_streamed_read_gives_every_row_in_order_past_a_thousand(url):
    """Reads that stream (the digests the chain keeps, ``ledger --all``) fetch rows a
    thousand at a time: 2,500 games come back whole and in order."""
    rules = HouseRules()
    line = Line(("ann", "bob"))
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob"], rules), 100, rules)
        digests = [f"{number:064x}" for number in range(1, 2501)]
        book.book_won(
            info.id,
            WHEN,
            [Won(number, line_to_json(line), "ann", "bob", 1, 100, "{}", "a" * 64, number, None,
                 digest) for number, digest in enumerate(digests, 1)],
        )  # fmt: skip
        assert list(book.kept_digests(info)) == digests
    with open_ledger(url, write=False, now=WHEN) as book:
        assert list(book.kept_digests(book.session("friday"))) == digests
        lines = list(book.reads.sheet(None))
    assert [g.number for g in lines] == list(range(1, 2501))


@pytest.mark.backends("sqlite")
def test_a_streamed_read_the_database_refuses_comes_out_as_any_statement_s_error(url):
    with open_ledger(url, write=True, now=WHEN) as book, pytest.raises(DBAPIError, match="nope"):
        list(book.reads._stream("SELECT nope FROM game", ()))


@pytest.mark.backends("sqlite")
def test_a_new_sqlite_ledger_has_8_kib_pages_and_an_older_one_keeps_its_own(tmp_path):
    """A new ledger's file is made with PAGE_SIZE pages; a ledger made with SQLite's 4 KiB
    pages keeps them, migrated and written to (a page size changes only by rewriting the
    file, which chouette never does)."""
    fresh = tmp_path / "fresh.sqlite"
    connect(f"sqlite:///{fresh}")
    old = tmp_path / "old.sqlite"
    shutil.copy(V3, old)
    before = page_size(old)
    with open_ledger(f"sqlite:///{old}", write=True, now=WHEN) as book:
        book.put_settings({"note": "written"})
    dispose_all()
    assert page_size(fresh) == PAGE_SIZE == 8192
    assert before == page_size(old) == 4096


def page_size(file: Path) -> int:
    conn = sqlite3.connect(file)
    try:
        return int(conn.execute("PRAGMA page_size").fetchone()[0])
    finally:
        conn.close()


def test_a_fresh_ledger_is_stamped_with_the_latest_schema(url):
    connect(url)
    assert dump(url)["schema_version"] == [(LATEST,)]


def test_a_ledger_from_a_newer_chouette_is_refused(url):
    connect(url)
    dispose_all()
    raw = create_engine(url)
    with raw.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = :v"), {"v": LATEST + 1})
    raw.dispose()
    with pytest.raises(ChouetteError, match="written by a newer chouette") as refused:
        connect(url)
    danish = words("da")(refused.value.said)
    assert "er skrevet af en nyere chouette" in danish and "opgrader chouette" in danish


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


V1 = DATA / "ledger-v1.sqlite"


def migrated(ledger: Path, version: int, tmp_path: Path) -> tuple[Dump, Dump]:
    """A copy of an old ledger file opened (so migrated), with exactly a fresh ledger's
    schema: its rows before and after."""
    old = tmp_path / "old.sqlite"
    shutil.copy(ledger, old)
    before = dump(f"sqlite:///{old}")
    assert before["schema_version"] == [(version,)]
    with open_ledger(f"sqlite:///{old}", write=True, now=WHEN):  # (as a command migrates it)
        pass
    fresh = tmp_path / "fresh.sqlite"
    connect(f"sqlite:///{fresh}")
    dispose_all()
    assert schema(f"sqlite:///{old}") == schema(f"sqlite:///{fresh}")
    after = dump(f"sqlite:///{old}")
    assert after["schema_version"] == [(LATEST,)]
    return before, after


def assert_nights(before: list[Any], after: list[Any]) -> None:
    """Schema 14: every session kept, with the night of the local date it began."""
    assert [r[:-1] for r in after] == before != []
    for row in after:
        began = datetime.fromisoformat(row[-2]).replace(tzinfo=UTC)
        assert row[-1] == began.astimezone().date().isoformat()


@pytest.mark.backends("sqlite")
def test_a_first_schema_ledger_migrates_to_exactly_the_fresh_schema(tmp_path):
    before, after = migrated(V1, 1, tmp_path)
    for table, rows in before.items():
        if table in ("booking", "game"):  # one new column, empty
            assert [r[:-1] for r in after[table]] != [] and len(after[table]) == len(rows)
            assert {r[-1] for r in after[table]} == {None}
        elif table == "session":
            assert_nights(rows, after[table])
        elif table != "schema_version":
            assert after[table] == rows, table


def set_back(url: str, version: int, statements: list[str]) -> tuple[dict[str, object], Dump]:
    """A ledger with a game booked, its schema set back by ``statements`` to ``version``:
    the schema a fresh ledger has, and its rows set back."""
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 1, rules)
        play(book, info, [Double("box", ("bob",)), Answer("take", "bob"), End("box")], None)
    fresh = schema(url)
    dispose_all()
    raw = create_engine(url)
    with raw.begin() as conn:
        for statement in [*statements, f"UPDATE schema_version SET version = {version}"]:
            conn.execute(text(statement))
    raw.dispose()
    return fresh, dump(url)


@pytest.mark.backends("sqlite", "postgres")
def test_an_eighteenth_schema_ledger_migrates_to_tournaments_every_row_kept(url):
    """Schema 19 adds the chouette tournaments' tables (``chouette event``), empty; a ledger
    set back to schema 18 migrates to exactly a fresh ledger's schema."""
    tables = ("tournament_table", "tournament_step", "tournament")
    later = ["DROP TABLE proposal", *BEFORE_SAID_NOTES]  # (schema 20's and 22's)
    fresh, old = set_back(url, 18, [*later, *(f"DROP TABLE {table}" for table in tables)])
    connect(url)
    dispose_all()
    assert schema(url) == fresh
    after = dump(url)
    assert after["schema_version"] == [(LATEST,)]
    for table in (*tables, "proposal"):
        assert after.pop(table) == []
    assert {t: r for t, r in after.items() if t != "schema_version"} == {
        t: r for t, r in old.items() if t != "schema_version"
    }


#: Schema 22's words of the notes chouette says taken out: a ledger of before.
BEFORE_SAID_NOTES = ["ALTER TABLE charge DROP COLUMN words"]
#: Schema 21's chain of each event's steps taken out: a ledger of before (and schema 22's
#: words of the notes).
BEFORE_EVENT_CHAINS = [
    *BEFORE_SAID_NOTES,
    "ALTER TABLE tournament_step DROP COLUMN digest",
    "ALTER TABLE tournament DROP COLUMN digest",
]


@pytest.mark.backends("sqlite", "postgres")
def test_a_twentieth_schema_ledger_chains_its_events_steps(url, chouette):
    """Schema 21 chains each event's steps: a ledger of schema 20 holding an event
    migrates to a fresh ledger's schema, every step digested as it stands and the purse
    sealed with them (a link more), check finds nothing; then a step edited is named."""
    chouette("event", "new", "cup", "--bank", "10", "--levels", "1,2", "--entry", "5")
    chouette("event", "enter", "ann", "bob", "cat")
    chouette("event", "draw", "--seed", "3")
    fresh = schema(url)
    dispose_all()
    raw = create_engine(url)
    with raw.begin() as conn:
        for statement in [*BEFORE_EVENT_CHAINS, "UPDATE schema_version SET version = 20"]:
            conn.execute(text(statement))
    raw.dispose()
    old = dump(url)
    chouette("migrate")
    dispose_all()
    assert schema(url) == fresh
    after = dump(url)
    assert [r[:-1] for r in after["tournament_step"]] == old["tournament_step"]
    assert None not in {r[-1] for r in after["tournament_step"]}
    assert len(after["chain"]) == len(old["chain"]) + 1  # (the purse's seal)
    assert chouette("check").stdout.startswith("The ledger is consistent")
    execute(url, "UPDATE tournament_step SET kind = 'accept' WHERE kind = 'draw'")
    assert "step 2 of the event cup (accept, " in chouette("check", code=1).stderr


@pytest.mark.backends("sqlite", "postgres")
def test_a_twenty_first_schema_ledger_keeps_its_purse_notes_in_the_english_it_wrote(
    url, chouette, monkeypatch
):
    """Schema 22 keeps the words of the notes chouette says (an event's entry): a ledger of
    schema 21, whose purse notes an older chouette wrote as English text, migrates to a fresh
    ledger's schema, every row kept, no words given to them, its chain still whole; its
    notes read as they were written, in every language, and a new entry's are said."""
    from chouette import event

    with monkeypatch.context() as older:
        older.setattr(event, "entry_note", lambda name: f"entry to {name}")  # as 21 wrote
        chouette("event", "new", "cup", "--bank", "10", "--levels", "1,2", "--entry", "5")
        chouette("event", "enter", "ann", "bob", "cat")
    fresh = schema(url)
    dispose_all()
    execute(url, *BEFORE_SAID_NOTES, "UPDATE schema_version SET version = 21")
    old = dump(url)
    chouette("migrate")
    dispose_all()
    assert schema(url) == fresh
    after = dump(url)
    assert [r[:-1] for r in after["charge"]] == old["charge"] and after["charge"][0][-1] is None
    assert chouette("check").stdout.startswith("The ledger is consistent")
    chouette("event", "enter", "dan")
    danish = chouette("--lang", "da", "--session", "cup", "ledger").stdout
    assert danish.count("gebyr til organiser: entry to cup") == 3  # as it was written
    assert danish.count("gebyr til organiser: indskud til cup") == 1  # said anew


@pytest.mark.backends("sqlite", "postgres")
def test_a_nineteenth_schema_ledger_gains_proposals_every_row_kept(url, chouette):
    """Schema 20 adds the players' proposals' table, empty: a ledger set back to schema 19
    migrates to exactly a fresh ledger's schema, every row kept; and the migrated ledger
    keeps a proposal and the keeper's answer."""
    fresh, old = set_back(url, 19, ["DROP TABLE proposal", *BEFORE_EVENT_CHAINS])
    connect(url)
    dispose_all()
    assert schema(url) == fresh
    after = dump(url)
    assert after["schema_version"] == [(LATEST,)] == [(22,)]
    assert after.pop("proposal") == []
    assert {t: r for t, r in after.items() if t != "schema_version"} == {
        t: r for t, r in old.items() if t != "schema_version"
    }
    from chouette.proposals import Proposal
    from db.commands import propose

    (line, *_) = chouette.json("--session", "friday", "settle")["payments"]
    paid = Proposal(line["from"], "pay", payee=line["to"], cents=line["cents"])
    with open_ledger(url, write=True, now=WHEN) as book:
        number = propose(book, book.session("friday"), paid)
    chouette("approve", str(number))
    assert chouette.json("proposals", "--all")["proposals"][0]["state"] == "approved"


V3 = DATA / "ledger-v3.sqlite"


@pytest.mark.backends("sqlite")
def test_a_third_schema_ledger_migrates_and_notes_which_games_each_import_booked(tmp_path):
    """ledger-v3.sqlite, written by schema 3: session money has s01 (games 1–50), a neutral
    record citing game 1 of s05 (game 51), then s05 (games 52–70); friday one live game."""
    before, after = migrated(V3, 3, tmp_path)
    for table, rows in before.items():
        if table == "source_file":  # two new columns
            assert [r[:-2] for r in after[table]] == rows
            ranges = {r[1]: r[-2:] for r in after[table]}
            assert ranges == {
                "s01_money_jacoby_beavers3.mat": (1, 50),
                "cited.jsonl": (None, None),  # its game is known by another file's hash
                "s05_money_nocube.mat": (52, 70),
            }
        elif table in ("game", "booking"):  # no identity; no charge (schema 13)
            assert [r[:-1] for r in after[table]] == rows
            assert {r[-1] for r in after[table]} == {None}
        elif table == "session":
            assert_nights(rows, after[table])
        elif table != "schema_version":
            assert after[table] == rows, table


V4 = DATA / "ledger-v4.sqlite"


@pytest.mark.backends("sqlite")
def test_a_fourth_schema_ledger_migrates_unchanged_and_books_points_past_32_bits(
    chouette, tmp_path, monkeypatch
):
    """ledger-v4.sqlite, written by schema 4: the club of test_transfer, whose friday game 3
    is in progress with a deal of 3,000,000,000 points to eve. Migrated, every row is kept;
    the game ends and books its points (SQLite's integers were 64 bits wide already, so
    schema 6 changes nothing there)."""
    before, after = migrated(V4, 4, tmp_path)
    for table, rows in before.items():
        if table in ("game", "booking"):  # schema 5's identities, 13's charges: empty
            assert [r[:-1] for r in after[table]] == rows
            assert {r[-1] for r in after[table]} == {None}
        elif table == "session":
            assert_nights(rows, after[table])
        elif table != "schema_version":
            assert after[table] == rows, table
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "old.sqlite"))
    chouette("--session", "friday", "end", "box")
    standings = chouette.json("--session", "friday", "standings")["players"]
    assert {
        "name": "eve",
        "points": 3000000000,
        "cents": 300000000000,
        "table_cents": 300000000000,
        "paid_cents": 0,
    } in standings
    chouette("--session", "friday", "fee", "2", "--to", "eve", "--note", "room")  # schema 13
    players = chouette.json("--session", "friday", "standings")["players"]
    eve = next(p for p in players if p["name"] == "eve")
    assert eve["cents"] == 300000000000 + 200 * (len(players) - 1)
    chouette("check")


@pytest.mark.backends("postgres")
def test_points_widen_to_64_bits_when_a_postgresql_ledger_migrates(url, ledger_url):
    """A PostgreSQL ledger of the schema before points were widened (its points columns
    INTEGER, as schema 4 made them) migrates to exactly a fresh ledger's schema, every row
    kept, and then books points past 32 bits."""
    later = (
        "action",
        "preset",
        "session_origin",
        "chain",
        "charge",
        "kept_digest",
        "evaluation",
        "account",
        "tournament",
        "tournament_step",
        "tournament_table",
        "proposal",
    )  # 7–13, 15, 17, 18, 19, 20
    fresh, old = set_back(  # back to schema 5: points INTEGER, and no journal yet
        url,
        5,
        [
            "ALTER TABLE session DROP COLUMN night",
            "ALTER TABLE booking DROP COLUMN charge_id",
            *(f"ALTER TABLE {t} ALTER COLUMN points TYPE INTEGER" for t in ("booking", "pair")),
            *(f"DROP TABLE {table}" for table in reversed(later)),
        ],
    )
    assert schema(url) != fresh
    connect(url)
    dispose_all()
    assert schema(url) == fresh
    after = dump(url)
    assert after["schema_version"] == [(LATEST,)]
    assert all(after[table] == [] for table in later)
    after["booking"] = [r[:-1] for r in after["booking"]]  # schema 13's charge_id, empty
    assert [r[-1] for r in after["session"]] == [WHEN.astimezone().date().isoformat()]
    after["session"] = [r[:-1] for r in after["session"]]  # schema 14's night
    assert {t: r for t, r in after.items() if t not in ("schema_version", *later)} == {
        t: r for t, r in old.items() if t != "schema_version"
    }
    with open_ledger(url, write=True, now=WHEN) as book:
        info = book.session("friday", lock=True)
        play(book, info, [Deal("cat", 3_000_000_000)], None)
        play(book, info, [End("box")], None)
    with open_ledger(url, write=False, now=WHEN) as book:
        assert book.totals(None)["cat"] == (3_000_000_000 - 1, 3_000_000_000 - 1)


@pytest.mark.backends("sqlite")
def test_undo_takes_back_an_import_a_migrated_ledger_can_tell_apart(
    chouette, tmp_path, monkeypatch
):
    old = tmp_path / "old.sqlite"
    shutil.copy(V3, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    said = chouette("--session", "money", "undo").stdout
    assert said == "Undone: took back the import of s05_money_nocube.mat (games 52–70).\n"
    refused = chouette("--session", "money", "undo", code=1).stderr
    assert refused == (
        "Error: game 51 was imported by an older chouette that did not note which games each "
        "file booked: undo cannot take it back\n"
    )
    assert chouette.json("--session", "money", "standings")["players"] == [
        {"name": "Bob", "points": 4, "cents": 200, "table_cents": 200, "paid_cents": 0},
        {"name": "Alice", "points": -4, "cents": -200, "table_cents": -200, "paid_cents": 0},
    ]
    chouette("check")


@pytest.mark.backends("sqlite")
def test_a_migrated_ledger_reports_what_it_held(chouette, tmp_path, monkeypatch):
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    untouched = old.read_bytes()
    refused = chouette("standings", "--all", code=1).stderr  # a report never migrates
    assert refused == (
        f"Error: the ledger at {old} was written by an older chouette (schema 1; this one "
        f"uses {LATEST}): `chouette migrate` brings it up to date (so does any command that "
        "writes); a report never changes the ledger\n"
    )
    assert old.read_bytes() == untouched
    assert chouette("migrate").stdout == f"The ledger is up to date (schema {LATEST}).\n"
    assert chouette.json("standings", "--all")["players"] == [
        {"name": "Big Al", "points": 6, "cents": 600, "table_cents": 600, "paid_cents": 0},
        {"name": "ann", "points": 2, "cents": 500, "table_cents": 500, "paid_cents": 0},
        {"name": "eve", "points": 1, "cents": 250, "table_cents": 250, "paid_cents": 0},
        {"name": "cat", "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0},
        {"name": "dan", "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0},
        {"name": "zoë", "points": -6, "cents": -600, "table_cents": -600, "paid_cents": 0},
        {"name": "bob", "points": -3, "cents": -750, "table_cents": -750, "paid_cents": 0},
    ]
    status = chouette.json("--session", "friday", "status")
    assert status["game"]["cubes"]["bob"]["pending"] == "box"
    chouette("take", "bob")
    chouette.json("end", "box")


@pytest.mark.backends("sqlite")
def test_undo_in_a_migrated_ledger_stops_at_a_line_change_it_cannot_take_back(
    chouette, tmp_path, monkeypatch
):
    """ledger-v4.sqlite's friday: game 1, a change of the line (cat sits out), game 2 and
    game 3 in progress, all before the journal. Undo takes back games 3 and 2 event by
    event; the line change has no journal entry, so undo says it cannot go further (not
    "undo that first", which it cannot do)."""
    old = tmp_path / "old.sqlite"
    shutil.copy(V4, old)
    monkeypatch.setenv("CHOUETTE_DB", str(old))
    chouette("migrate")
    assert chouette("--session", "friday", "log").stdout == (
        "Nothing in friday's journal: what was done there came before chouette kept one. undo "
        "takes it back as an older chouette did: the last event, or the games of the last "
        "file imported.\n"
    )
    for _ in range(5):
        chouette("--session", "friday", "undo")
    assert chouette("--session", "friday", "log").stdout == (
        "Nothing done in friday yet that undo could take back.\n"
    )
    before = dump(f"sqlite:///{old}")
    refused = chouette("--session", "friday", "undo", code=1).stderr
    assert refused == (
        "Error: the line has changed since game 1 ended, by a join, leave or sit-out made "
        "before chouette kept a journal of what was done: undo cannot take game 1 back\n"
    )
    assert dump(f"sqlite:///{old}") == before
    chouette("check")


def test_small_settings_are_kept_by_prefix_and_leave_the_current_session_alone(url):
    """What `chouette serve` keeps (its key, devices, codes): written, overwritten, removed,
    read back by prefix (a `_` or `%` in the prefix is no wildcard); `current_session` is
    `use`'s alone."""
    rules = HouseRules()
    with open_ledger(url, write=True, now=WHEN) as book:
        book.create_session("friday", new_line(["ann", "bob"], rules), 100, rules)
        book.put_settings({"serve.device.a": "1", "serve.device.b": "2", "serveXdevice.c": "3"})
    with open_ledger(url, write=True, now=WHEN) as book:
        book.put_settings({"serve.device.a": "10", "serve.device.b": None, "serve%x": "4"})
        assert book.settings("serve.device.") == {"serve.device.a": "10"}
        with pytest.raises(ChouetteError, match="current_session"):
            book.put_settings({"current_session": "x"})
    with open_ledger(url, write=False, now=WHEN) as book:
        assert book.settings("serve.") == {"serve.device.a": "10"}
        assert book.settings("serve%") == {"serve%x": "4"}
        assert book.settings("serve_") == {}
        assert book.current_name() == "friday"


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


def before_kept_digests(conn) -> None:
    """Schema 18's journal in the chain and kept digests taken out: a ledger of before (and
    schema 20's proposals, later still)."""
    conn.execute(text("DROP TABLE proposal"))
    for statement in BEFORE_SAID_NOTES:  # (and schema 22's)
        conn.execute(text(statement))
    conn.execute(text("DROP TABLE kept_digest"))
    conn.execute(text("ALTER TABLE chain DROP COLUMN journal"))
    conn.execute(text("CREATE TABLE game_digest (game_id INTEGER PRIMARY KEY, digest TEXT)"))


def kept_digests_migrated(before, after) -> None:
    """Schema 18 as it migrates: no digest kept yet, and no link holds a journal's (and
    schema 20: no proposal)."""
    assert after.pop("proposal") == []
    assert before.pop("game_digest") == [] and after.pop("kept_digest") == []
    assert all(row[-1] is None for row in after["chain"])
    after["chain"] = [row[:-1] for row in after["chain"]]


def test_a_fourteenth_schema_ledger_gains_an_empty_store_of_the_engines_evaluations(
    chouette, url, monkeypatch
):
    """Schema 15 adds the evaluations ``chouette review`` keeps: a ledger of schema 14 (as
    one was: no such table) is migrated by the next command that writes, every row kept,
    and the store starts empty."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob", "--position", "4HPwATDgc/ABMA")
    engine = create_engine(url)
    with engine.begin() as conn:
        for table in ("tournament_table", "tournament_step", "tournament"):  # schema 19's
            conn.execute(text(f"DROP TABLE {table}"))
        conn.execute(text("DROP TABLE evaluation"))
        conn.execute(text("DROP TABLE account"))  # (schema 17's: not in a ledger of 14)
        before_kept_digests(conn)
        conn.execute(text("UPDATE schema_version SET version = 14"))
    engine.dispose()
    dispose_all()
    before = dump(url)
    assert "evaluation" not in before
    chouette("migrate")
    after = dump(url)
    assert after.pop("evaluation") == [] and after.pop("schema_version") == [(LATEST,)]
    assert after.pop("account") == []
    kept_digests_migrated(before, after)
    assert all(after.pop(t) == [] for t in ("tournament_table", "tournament_step", "tournament"))
    assert {k: v for k, v in before.items() if k != "schema_version"} == after
    monkeypatch.setenv("CHOUETTE_GNUBG", "/nowhere/gnubg")
    chouette("drop", "bob")
    chouette("end", "box")
    assert chouette("review", code=1).stderr.startswith("Error: GNU Backgammon (gnubg) is not")


def test_the_engines_evaluations_are_kept_exactly_and_the_first_one_stays(url):
    """``chouette review``'s store (schema 15): the equities come back as the engine wrote
    them (exact decimals), by board, cube, beavers and plies; a second answer for the same
    (another review's, meanwhile) leaves the first as it was, and nothing else is found."""
    from decimal import Decimal

    from chouette.review import Asked, CubeState, Equities

    centred = Asked("4HPwATDgc/ABMA", CubeState(centred=True, jacoby=True))
    owned = Asked("4HPwATDgc/ABMA", CubeState(centred=False, jacoby=False))
    first = Equities(Decimal("0.105192"), Decimal("-0.171133"), Decimal("1.000000"))
    with open_ledger(url, write=True, now=WHEN) as book:
        book.keep_evaluations({centred: first}, beavers=True, plies=2, engine="gnubg 1.07")
    with open_ledger(url, write=True, now=WHEN) as book:
        later = Equities(Decimal("0.2"), Decimal("0.3"), Decimal("1"))
        book.keep_evaluations({centred: later}, beavers=True, plies=2, engine="gnubg 1.08")
    with open_ledger(url, write=False, now=WHEN) as book:
        assert book.evaluations([centred, owned], beavers=True, plies=2) == {
            centred: (first, "gnubg 1.07")
        }
        assert book.evaluations([centred], beavers=False, plies=2) == {}
        assert book.evaluations([centred], beavers=True, plies=3) == {}
        assert book.evaluations([], beavers=True, plies=2) == {}


def test_a_sixteenth_schema_ledger_gains_accounts_and_keeps_every_row(url, chouette, tmp_path):
    """Schema 17: the accounts' table, empty; every other row as it was, and the schema of
    a fresh ledger (on SQLite, compared table by table)."""
    chouette("new", "fri", "ann", "bob")
    chouette("end", "box")
    dispose_all()
    raw = create_engine(url)
    with raw.begin() as conn:
        for table in ("tournament_table", "tournament_step", "tournament"):  # schema 19's
            conn.execute(text(f"DROP TABLE {table}"))
        conn.execute(text("DROP TABLE account"))
        before_kept_digests(conn)
        conn.execute(text("UPDATE schema_version SET version = 16"))
    raw.dispose()
    before = dump(url)
    connect(url)
    dispose_all()
    after = dump(url)
    assert after.pop("account") == [] and after.pop("schema_version") == [(LATEST,)]
    kept_digests_migrated(before, after)
    assert all(after.pop(t) == [] for t in ("tournament_table", "tournament_step", "tournament"))
    assert after == {k: v for k, v in before.items() if k != "schema_version"}
    chouette("account", "ann", "--phone", "12345678")  # and the migrated ledger keeps one
    assert chouette.json("account", "--list")["accounts"][0]["phone"] == "12345678"
    if url.startswith("sqlite"):
        fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
        connect(fresh)
        dispose_all()
        assert schema(url) == schema(fresh)


@pytest.mark.backends("sqlite")
def test_the_ledgers_refusals_that_mean_a_bug_are_said_in_the_readers_words(url):
    """What only a bug makes the ledger refuse (the setting ``use`` keeps, a game by an id
    that is not there, taking back a table with a game booked, a driver's parameter style)
    is said as words: Danish and Czech too."""
    from db.ledger import CURRENT
    from db.reads import runner

    with open_ledger(url, write=True, now=WHEN) as book:
        rules = HouseRules()
        info = book.create_session("friday", new_line(["ann", "bob", "cat"], rules), 250, rules)
        play(book, info, [Double("box", ("bob",)), Answer("drop", "bob")], None)
        refusals = []
        for act in (
            lambda: book.put_settings({CURRENT: "x"}),
            lambda: book.stored_game(10**6),
            lambda: book.drop_session(info),
            lambda: runner(lambda sql, params: [], "named"),
        ):
            with pytest.raises(ChouetteError) as refused:
                act()
            refusals.append(refused.value.said)
    assert [str(r) for r in refusals] == [
        "the setting 'current_session' is kept by `use`",
        "internal error: no game with id 1000000",
        "friday has a game booked: it cannot be taken back",
        "internal error: a database driver with named parameters",
    ]
    assert [words("da")(r) for r in refusals] == [
        "indstillingen 'current_session' holdes af `use`",
        "intern fejl: intet spil med id 1000000",
        "friday har et spil bogført: den kan ikke tages tilbage",
        "intern fejl: en databasedriver med named-parametre",
    ]
    assert words("cs")(refusals[2]) == "friday má zapsanou hru: nelze je vrátit"
