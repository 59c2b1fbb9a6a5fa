"""Schema versions and migrations, from the first schema on.

A new database gets the current schema straight from the models and is stamped with
:data:`LATEST`. An older database is brought forward by the ordered migrations below, each
in the same transaction as its version stamp; the tests check that a migrated old file has
exactly the schema (and keeps every row) of a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
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

import db.models  # noqa: F401  (registers the tables)
from chouette.errors import ChouetteError
from chouette.nights import night_of
from chouette.words import Sayable, said

Migration = Callable[[Connection], None]


def of_a_session(name: str, *columns: Column[Any]) -> Table:
    """A table as a migration made it (frozen then, whatever the models say now): an id,
    the session its rows belong to, and ``columns``."""
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    return Table(
        name,
        frozen,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("session.id"), nullable=False),
        *columns,
    )


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


def v6_wide_points(conn: Connection) -> None:
    """Schema 6: points as wide as money (64 bits), so a ledger within the limits of
    :mod:`chouette.limits` restores on PostgreSQL as on SQLite, whose integers are 64 bits
    already (there the schema is unchanged: only the stamp moves)."""
    if conn.dialect.name != "postgresql":
        return
    for table in ("booking", "pair"):
        conn.execute(text(f"ALTER TABLE {table} ALTER COLUMN points TYPE BIGINT"))


def v7_actions(conn: Connection) -> None:
    """Schema 7: the journal of everything done to a session, so ``undo`` takes back the
    last thing done, whatever it was (what was done before has no entry: ``undo`` takes
    back the games it can tell apart, as before)."""
    action = of_a_session(
        "action",
        Column("kind", String, nullable=False),
        Column("detail", String, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    action.create(conn)
    conn.execute(text("CREATE INDEX action_by_session ON action (session_id, id)"))


def reserved(version: int) -> Migration:
    """A schema number set aside for a change made alongside this one (8 the journal's hash
    chain, 9 games' identities across engine formats, 10 club nights): until it lands here,
    its migration changes nothing."""

    def migrate(conn: Connection) -> None:
        del conn

    migrate.__name__ = f"v{version}_reserved"
    migrate.__doc__ = f"Schema {version}: reserved (see :func:`reserved`)."
    return migrate


def v11_presets(conn: Connection) -> None:
    """Schema 11: the club's own presets (``chouette rules --save``), and where each
    session's house rules came from (a preset, and the options given beside it)."""
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    preset = Table(
        "preset",
        frozen,
        Column("id", Integer, primary_key=True),
        Column("name", String, nullable=False, unique=True),
        Column("rules", String, nullable=False),
        Column("saved_from", String, nullable=False),
        Column("saved_at", DateTime(timezone=True), nullable=False),
    )
    origin = Table(
        "session_origin",
        frozen,
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, ForeignKey("session.id"), nullable=False, unique=True),
        Column("detail", String, nullable=False),
    )
    preset.create(conn)
    origin.create(conn)


def v12_chain(conn: Connection) -> None:
    """Schema 12: each session's tamper-evident chain (:mod:`chouette.chain`). A session
    of an older ledger is chained from its next change on: its record as it stands then is
    the first link's (the chain proves nothing about what was changed before)."""
    chain = of_a_session(
        "chain",
        Column("seq", Integer, nullable=False),
        Column("at", String, nullable=False),
        Column("what", String, nullable=False),
        Column("state", String, nullable=False),
        Column("hash", String, nullable=False),
    )
    chain.create(conn)
    conn.execute(text("CREATE UNIQUE INDEX chain_by_session ON chain (session_id, seq)"))
    Table(
        "game_digest",
        MetaData(),
        Column("game_id", Integer, primary_key=True),
        Column("digest", String, nullable=False),
    ).create(conn)


def v13_charges(conn: Connection) -> None:
    """Schema 13: fees and shared costs (``chouette fee``, ``chouette expense``), each booked
    like a payment, its bookings naming it."""
    of_a_session(
        "charge",
        Column("kind", String, nullable=False),
        Column("creditor", String, nullable=False),
        Column("cents", BigInteger, nullable=False),
        Column("shares", String, nullable=False),
        Column("note", String, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    ).create(conn)
    conn.execute(text("ALTER TABLE booking ADD COLUMN charge_id INTEGER REFERENCES charge (id)"))


def v14_nights(conn: Connection) -> None:
    """Schema 14: the club night each session belongs to (:mod:`chouette.nights`); a
    session of an older ledger belongs to the local date it began (schema 10, set aside for
    club nights, stays empty: ledgers past it have run it already)."""
    if conn.dialect.name == "sqlite":  # SQLite adds a NOT NULL column with a default only
        conn.execute(text("ALTER TABLE session ADD COLUMN night VARCHAR NOT NULL DEFAULT ''"))
    else:
        conn.execute(text("ALTER TABLE session ADD COLUMN night VARCHAR"))
    for session_id, began in conn.execute(text("SELECT id, created_at FROM session")).all():
        if isinstance(began, str):  # SQLite hands back its text, PostgreSQL a datetime
            began = datetime.fromisoformat(began)
        began = began.replace(tzinfo=UTC) if began.tzinfo is None else began
        conn.execute(
            text("UPDATE session SET night = :night WHERE id = :id"),
            {"night": night_of(began, datetime.astimezone), "id": session_id},
        )
    if conn.dialect.name != "sqlite":
        conn.execute(text("ALTER TABLE session ALTER COLUMN night SET NOT NULL"))


def v15_evaluations(conn: Connection) -> None:
    """Schema 15: the engine's evaluations of cube decisions (``chouette review``), kept so
    that a review asks the engine once for each; empty in a ledger migrated to it."""
    Table(
        "evaluation",
        MetaData(),
        Column("position", String, primary_key=True),
        Column("centred", Boolean, primary_key=True),
        Column("jacoby", Boolean, primary_key=True),
        Column("beavers", Boolean, primary_key=True),
        Column("plies", Integer, primary_key=True),
        Column("no_double", String, nullable=False),
        Column("double_take", String, nullable=False),
        Column("double_pass", String, nullable=False),
        Column("engine", String, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    ).create(conn)


def v16_every_session_chained(conn: Connection) -> None:
    """Schema 16: every session is chained. A session of a ledger older than schema 12 was
    chained from its next change on, so an export could give it no chain, and then nothing
    told a doctored export (its chain line taken out) from an honest one. The migration
    changes no table: the command that migrates chains each session that has no chain as
    the ledger moves (``migrated``, given to :func:`ensure_schema`:
    :func:`db.chained.chain_every_session`), in the same transaction; from this schema on a
    restore refuses an export that gives a session none."""


def v17_accounts(conn: Connection) -> None:
    """Schema 17: where each player is paid (``chouette account``), for the whole club."""
    Table(
        "account",
        MetaData(),
        Column("player", String, primary_key=True),
        Column("holder", String, nullable=False),
        Column("iban", String, nullable=False),
        Column("phone", String, nullable=False),
        Column("swish", String, nullable=False),
        Column("saved_at", DateTime(timezone=True), nullable=False),
    ).create(conn)


def v18_kept_digests(conn: Connection) -> None:
    """Schema 18: the journal in the chain, and the digests the seal keeps verified. Each
    link holds its session's journal's digest (``chain.journal``; none in a link made
    before). The digests kept of a session's record, once only its games' by their id
    (``game_digest``), are kept by position in the record (``kept_digest``), so that the
    seal can check them against its newest link before it uses them; the first command of
    each session digests it afresh."""
    conn.execute(text("ALTER TABLE chain ADD COLUMN journal VARCHAR"))
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    Table(
        "kept_digest",
        frozen,
        Column("session_id", Integer, ForeignKey("session.id"), primary_key=True),
        Column("part", String, primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("digest", String, nullable=False),
    ).create(conn)
    conn.execute(text("DROP TABLE game_digest"))


def v19_tournaments(conn: Connection) -> None:
    """Schema 19: chouette tournaments (``chouette event``): each event's terms and purse,
    its journal of steps, and its sessions (the tables of each level, and the purse)."""
    frozen = MetaData()
    Table("session", frozen, Column("id", Integer, primary_key=True))
    tournament = Table(
        "tournament",
        frozen,
        Column("id", Integer, primary_key=True),
        Column("name", String, nullable=False, unique=True),
        Column("terms", String, nullable=False),
        Column("purse_id", Integer, ForeignKey("session.id"), nullable=False, unique=True),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )
    step = Table(
        "tournament_step",
        frozen,
        Column("id", Integer, primary_key=True),
        Column("tournament_id", Integer, ForeignKey("tournament.id"), nullable=False),
        Column("kind", String, nullable=False),
        Column("detail", String, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    table = Table(
        "tournament_table",
        frozen,
        Column("session_id", Integer, ForeignKey("session.id"), primary_key=True),
        Column("tournament_id", Integer, ForeignKey("tournament.id"), nullable=False),
        Column("level", Integer, nullable=False),
        Column("number", Integer, nullable=False),
        Column("closed", Boolean, nullable=False),
    )
    for made in (tournament, step, table):
        made.create(conn)
    conn.execute(text("CREATE INDEX step_by_tournament ON tournament_step (tournament_id, id)"))
    conn.execute(
        text("CREATE INDEX table_by_tournament ON tournament_table (tournament_id, level, number)")
    )


def v20_proposals(conn: Connection) -> None:
    """Schema 20: the lines players propose from their phones, waiting for the keeper
    (``chouette proposals``, ``approve``, ``refuse``)."""
    Table(
        "proposal",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("session_id", Integer, nullable=False),
        Column("player", String, nullable=False),
        Column("act", String, nullable=False),
        Column("member", String, nullable=False),
        Column("game", Integer, nullable=False),
        Column("origin", Integer, nullable=False),
        Column("stage", String, nullable=False),
        Column("payee", String, nullable=False),
        Column("cents", BigInteger, nullable=False),
        Column("proposed_at", DateTime(timezone=True), nullable=False),
        Column("state", String, nullable=False),
        Column("reason", String, nullable=False),
        Column("decided_at", DateTime(timezone=True), nullable=True),
    ).create(conn)
    conn.execute(text("CREATE INDEX proposal_by_session ON proposal (session_id, state)"))


def v21_event_chains(conn: Connection) -> None:
    """Schema 21: an event's steps are chained. Each step holds the digest of the event's
    steps up to it, and each event where that chain begins (its name, terms and start); the
    purse's record holds the newest, so its chain proves the steps too. The command that
    migrates chains the steps each event has, as they stand, and seals its purse
    (``migrated``: :func:`db.chained.chain_every_session`), in the same transaction."""
    conn.execute(text("ALTER TABLE tournament ADD COLUMN digest VARCHAR"))
    conn.execute(text("ALTER TABLE tournament_step ADD COLUMN digest VARCHAR"))


def v22_said_notes(conn: Connection) -> None:
    """Schema 22: a charge's note chouette says itself (an event's entries and prizes) is
    also kept as words and their values, to be said in the reader's language. Notes booked
    before keep their English and read as it."""
    conn.execute(text("ALTER TABLE charge ADD COLUMN words VARCHAR"))


#: ``MIGRATIONS[i]`` brings a database from version ``i + 1`` to ``i + 2``.
MIGRATIONS: list[Migration] = [
    v2_payments_and_imports,
    v3_running_balances,
    v4_import_ranges,
    v5_game_identities,
    v6_wide_points,
    v7_actions,
    reserved(8),
    reserved(9),
    reserved(10),
    v11_presets,
    v12_chain,
    v13_charges,
    v14_nights,
    v15_evaluations,
    v16_every_session_chained,
    v17_accounts,
    v18_kept_digests,
    v19_tournaments,
    v20_proposals,
    v21_event_chains,
    v22_said_notes,
]
LATEST = len(MIGRATIONS) + 1
SCHEMA_LOCK = 0x63686F75  # PostgreSQL advisory lock key ("chou") held while creating the schema
#: Where a database is, when the caller does not say.
THIS_DATABASE = said("this database")


def current_version(conn: Connection, where: Sayable = THIS_DATABASE) -> int | None:
    """The schema version of the database, or None for an empty one. A database holding
    other tables, or chouette's without a sound schema stamp, is refused: nothing in it is
    touched."""
    tables = set(inspect(conn).get_table_names())
    if not tables:
        return None
    known = set(SQLModel.metadata.tables)
    if "schema_version" not in tables:
        if tables & known:
            raise ChouetteError(
                said(
                    "the ledger at {where} has lost its schema stamp (chouette's tables, but no "
                    "schema_version table): it cannot be read safely; restore it from a backup",
                    where=where,
                )
            )
        others = sorted(tables)
        listed = ", ".join(others[:5]) + (", …" if len(others) > 5 else "")
        raise ChouetteError(
            said(
                "{where} is not a chouette ledger (it holds other tables: {tables}): give "
                "chouette a database of its own with --db",
                where=where,
                tables=listed,
            )
        )
    rows = conn.execute(text("SELECT version FROM schema_version")).all()
    stamp = rows[0][0] if len(rows) == 1 else None
    if not isinstance(stamp, int) or isinstance(stamp, bool) or stamp < 1:
        if not rows:
            raise ChouetteError(
                said(
                    "the ledger at {where} has a damaged schema stamp (its schema_version table "
                    "is empty): it cannot be read safely; restore it from a backup",
                    where=where,
                )
            )
        raise ChouetteError(
            said(
                "the ledger at {where} has a damaged schema stamp (its schema_version table "
                "holds {found}): it cannot be read safely; restore it from a backup",
                where=where,
                found=", ".join(repr(r[0]) for r in rows[:3]),
            )
        )
    if stamp > LATEST:
        raise ChouetteError(
            said(
                "the ledger at {where} was written by a newer chouette (schema {stamp}, this "
                "one knows {latest}): upgrade chouette",
                where=where,
                stamp=stamp,
                latest=LATEST,
            )
        )
    if stamp == LATEST and known - tables:
        raise ChouetteError(
            said(
                "the ledger at {where} has lost tables ({tables}): it cannot be read safely; "
                "restore it from a backup",
                where=where,
                tables=", ".join(sorted(known - tables)),
            )
        )
    return stamp


def ensure_schema(
    engine: Engine,
    *,
    write: bool = True,
    create: bool = True,
    where: Sayable = THIS_DATABASE,
    migrated: Callable[[Connection], None] | None = None,
) -> None:
    """Check the schema; for a write, bring an older ledger up to date (then ``migrated``,
    in the same transaction: the chains of its sessions), and with ``create`` make the
    schema of an empty database: once, under the write lock."""
    try:
        with engine.connect() as conn:
            if conn.execute(text("SELECT version FROM schema_version")).all() == [
                (LATEST,)
            ] and _tables(conn) == len(SQLModel.metadata.tables):
                return
    except DBAPIError:
        pass  # no schema yet, or an unusual one: looked at closely below
    with engine.connect() as conn:
        version = current_version(conn, where)
    if version == LATEST:
        return
    if version is None and not create:
        raise ChouetteError(
            said(
                "the ledger at {where} is empty: `chouette new NAME PLAYER...` starts one",
                where=where,
            )
        )
    if version is not None and not write:
        raise ChouetteError(
            said(
                "the ledger at {where} was written by an older chouette (schema {version}; this "
                "one uses {latest}): `chouette migrate` brings it up to date (so does any "
                "command that writes); a report never changes the ledger",
                where=where,
                version=version,
                latest=LATEST,
            )
        )
    with engine.execution_options(chouette_write=True).begin() as conn:
        if conn.dialect.name == "postgresql":  # held until this transaction ends
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        version = current_version(conn, where)  # again, under the lock
        if version is None:
            if not create:
                raise ChouetteError(said("the ledger at {where} is empty", where=where))
            SQLModel.metadata.create_all(conn)
            conn.execute(text("INSERT INTO schema_version (version) VALUES (:v)"), {"v": LATEST})
        elif version < LATEST:
            for migrate in MIGRATIONS[version - 1 :]:
                migrate(conn)
            conn.execute(text("DELETE FROM schema_version"))
            conn.execute(text("INSERT INTO schema_version (version) VALUES (:v)"), {"v": LATEST})
            if migrated is not None:
                migrated(conn)  # (schema 16: every session chained)
    _write_ahead(engine)


def _tables(conn: Connection) -> int:
    """How many of chouette's tables the database holds (one query, for every command)."""
    names = sorted(SQLModel.metadata.tables)
    marks = ", ".join(f":t{i}" for i in range(len(names)))
    catalogue = (
        f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ({marks})"
        if conn.dialect.name == "sqlite"
        else "SELECT count(*) FROM pg_catalog.pg_tables "
        f"WHERE schemaname = current_schema() AND tablename IN ({marks})"
    )
    return int(
        conn.execute(text(catalogue), {f"t{i}": n for i, n in enumerate(names)}).scalar_one()
    )


def _write_ahead(engine: Engine) -> None:
    """SQLite: the write-ahead log, a setting the file keeps (made outside a transaction)."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            driver = conn.connection.dbapi_connection
            assert driver is not None
            driver.execute("PRAGMA journal_mode=WAL")
