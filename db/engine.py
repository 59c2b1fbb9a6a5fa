"""Opening the ledger: the database URL, SQLite's settings, one transaction per command.

SQLite runs in WAL mode with foreign keys on and a busy timeout, so two terminals at one
table can both write; a writing transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's
documented pysqlite recipe), so two writers queue instead of failing half-way. The same
code runs on PostgreSQL, where a writer locks its session's row (``SELECT … FOR UPDATE``)
and waits for it at most as long as SQLite's busy timeout; a report reads one snapshot
(``REPEATABLE READ``), as it does on SQLite; and processes that find an empty database at
the same moment create its schema one after the other, under an advisory lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import ArgumentError
from sqlmodel import Session

from chouette.errors import ChouetteError

BUSY_TIMEOUT_MS = 30_000
SCHEMA_LOCK = 0x63686F75  # PostgreSQL advisory lock key ("chou") held while creating the schema
_engines: dict[str, Engine] = {}


def database_url(value: str) -> str:
    """A file path (SQLite) or an SQLAlchemy URL."""
    if "://" in value:
        return value
    return "sqlite:///" + str(Path(value).expanduser().resolve())


def connect(url: str) -> Engine:
    """The engine for ``url`` (one per process), with the schema brought up to date."""
    if url in _engines:
        return _engines[url]
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise ChouetteError(f"cannot create the ledger at {path}: {err.strerror}") from None
    try:
        engine = create_engine(url, connect_args=_connect_args(url))
    except (ArgumentError, ImportError) as err:
        raise ChouetteError(f"cannot use the database {url!r}: {err}") from None
    if engine.dialect.name == "sqlite":
        _sqlite_recipe(engine)
    from db.migrations import ensure_schema

    try:
        if engine.dialect.name == "postgresql":
            with engine.connect() as guard:  # released when this transaction ends
                guard.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                ensure_schema(engine)
        else:
            ensure_schema(engine)  # BEGIN IMMEDIATE serialises it
    except BaseException:
        engine.dispose()  # a refused ledger (newer schema, no server) leaves no connection open
        raise
    _engines[url] = engine
    return engine


def _connect_args(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"timeout": BUSY_TIMEOUT_MS / 1000}
    if url.startswith("postgresql"):
        return {"connect_timeout": 10, "options": f"-c lock_timeout={BUSY_TIMEOUT_MS}"}
    return {}


def _sqlite_recipe(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("chouette_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


@contextmanager
def transaction(engine: Engine, *, write: bool) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any error (nothing written)."""
    options: dict[str, Any] = {"chouette_write": write}
    if engine.dialect.name == "postgresql" and not write:
        options["isolation_level"] = "REPEATABLE READ"  # one snapshot for a whole report
    bind = engine.execution_options(**options)
    with Session(bind, expire_on_commit=False) as session, session.begin():
        yield session


def dispose_all() -> None:
    """Close every pooled connection (tests, and the end of the table mode)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
