"""Schema versions and migrations, from the first schema on.

A new database gets the current schema straight from the models and is stamped with
:data:`LATEST`. An older database is brought forward by the ordered migrations below, each
in the same transaction as its version stamp; the tests check that a migrated old file has
exactly the schema (and keeps every row) of a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    inspect,
    text,
)
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

from chouette.errors import ChouetteError
from db import models  # noqa: F401  (registers the tables)

Migration = Callable[[Connection], None]


def v2_payments_and_imports(conn: Connection) -> None:
    """Schema 2: payments between players, imported engine files, the club-ledger index."""
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    payment = Table(
        "payment",
        frozen,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("session.id"), nullable=False),
        Column("payer", String, nullable=False),
        Column("payee", String, nullable=False),
        Column("cents", BigInteger, nullable=False),
        Column("note", String, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    source_file = Table(
        "source_file",
        frozen,
        Column("sha256", String, primary_key=True),
        Column("name", String, nullable=False),
        Column("format", String, nullable=False),
        Column("session_id", Integer, ForeignKey("session.id"), nullable=False),
        Column("games", Integer, nullable=False),
        Column("imported_at", DateTime(timezone=True), nullable=False),
    )
    payment.create(conn)
    source_file.create(conn)
    conn.execute(text("ALTER TABLE booking ADD COLUMN payment_id INTEGER REFERENCES payment (id)"))
    conn.execute(text("CREATE INDEX booking_by_player ON booking (player, points, cents)"))


def v3_running_balances(conn: Connection) -> None:
    """Schema 3: every player's running totals per session, filled from the bookings; the
    totals no longer need covering indexes on the bookings, which only slowed every write."""
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    balance = Table(
        "balance",
        frozen,
        Column("session_id", Integer, ForeignKey("session.id"), primary_key=True),
        Column("player", String, primary_key=True),
        Column("points", BigInteger, nullable=False),
        Column("cents", BigInteger, nullable=False),
    )
    balance.create(conn)
    conn.execute(
        text(
            "INSERT INTO balance (session_id, player, points, cents) "
            "SELECT session_id, player, SUM(points), SUM(cents) FROM booking "
            "GROUP BY session_id, player"
        )
    )
    conn.execute(text("DROP INDEX booking_by_player"))
    conn.execute(text("DROP INDEX booking_by_session"))
    conn.execute(text("CREATE INDEX booking_session ON booking (session_id)"))


def v4_import_ranges(conn: Connection) -> None:
    """Schema 4: the session's game numbers each imported file booked, so ``undo`` can take
    a whole import back. Filled in for an earlier import where its games can still be told
    apart: booked by that import (same time), under the file's own hash, numbered without
    a gap. A file whose records cited other files is left without (it cannot be undone)."""
    conn.execute(text("ALTER TABLE source_file ADD COLUMN first_game INTEGER"))
    conn.execute(text("ALTER TABLE source_file ADD COLUMN last_game INTEGER"))
    mine = (
        "FROM game g WHERE g.session_id = source_file.session_id AND g.kind = 'engine' "
        "AND g.source_sha256 = source_file.sha256 AND g.started_at = source_file.imported_at"
    )
    conn.execute(
        text(
            f"UPDATE source_file SET first_game = (SELECT MIN(g.number) {mine}), "
            f"last_game = (SELECT MAX(g.number) {mine}) "
            f"WHERE games > 0 AND games = (SELECT COUNT(*) {mine}) "
            f"AND games = (SELECT MAX(g.number) - MIN(g.number) + 1 {mine})"
        )
    )


def v5_game_identities(conn: Connection) -> None:
    """Schema 5: each imported game's identity (players, place in the session, score
    before, moves and result), so that a later export of a session books only its new
    games. Games imported before have none (what they were cannot be read back from the
    ledger); an import matches them by their file, index and result instead."""
    conn.execute(text("ALTER TABLE game ADD COLUMN game_key VARCHAR"))
    conn.execute(text("CREATE UNIQUE INDEX game_by_key ON game (game_key)"))


#: ``MIGRATIONS[i]`` brings a database from version ``i + 1`` to ``i + 2``.
MIGRATIONS: list[Migration] = [
    v2_payments_and_imports,
    v3_running_balances,
    v4_import_ranges,
    v5_game_identities,
]
LATEST = len(MIGRATIONS) + 1


def current_version(conn: Connection) -> int | None:
    """The schema version of the database, or None for an empty one."""
    tables = set(inspect(conn).get_table_names())
    if "schema_version" not in tables:
        if tables & set(SQLModel.metadata.tables):
            raise ChouetteError("this database has chouette tables but no schema version")
        return None
    version = conn.execute(text("SELECT MAX(version) FROM schema_version")).scalar()
    return int(version) if version is not None else None


def ensure_schema(engine: Engine) -> None:
    """Create or migrate the schema, once, under the write lock."""
    try:
        with engine.connect() as conn:
            if conn.execute(text("SELECT MAX(version) FROM schema_version")).scalar() == LATEST:
                return
    except DBAPIError:
        pass  # no schema yet: create it below
    with engine.execution_options(chouette_write=True).begin() as conn:
        version = current_version(conn)
        if version is None:
            SQLModel.metadata.create_all(conn)
            conn.execute(text("INSERT INTO schema_version (version) VALUES (:v)"), {"v": LATEST})
            return
        if version > LATEST:
            raise ChouetteError(
                f"this ledger was written by a newer chouette (schema {version}, "
                f"this one knows {LATEST}): upgrade chouette"
            )
        for migrate in MIGRATIONS[version - 1 :]:
            migrate(conn)
        conn.execute(text("DELETE FROM schema_version"))
        conn.execute(text("INSERT INTO schema_version (version) VALUES (:v)"), {"v": LATEST})
