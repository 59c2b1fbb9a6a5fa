"""Opening the ledger: the database URL, SQLite's settings, one transaction per command.

SQLite runs in WAL mode with foreign keys on and a busy timeout, so two terminals at one
table can both write; a writing transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's
documented pysqlite recipe), so two writers queue instead of failing half-way. The same
code runs on PostgreSQL, where a writer locks its session's row.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import ArgumentError
from sqlmodel import Session

from chouette.errors import ChouetteError

BUSY_TIMEOUT_MS = 30_000
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
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(url, connect_args=_connect_args(url))
    except (ArgumentError, ImportError) as err:
        raise ChouetteError(f"cannot use the database {url!r}: {err}") from None
    if engine.dialect.name == "sqlite":
        _sqlite_recipe(engine)
    from db.migrations import ensure_schema

    ensure_schema(engine)
    _engines[url] = engine
    return engine


def _connect_args(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"timeout": BUSY_TIMEOUT_MS / 1000}
    if url.startswith("postgresql"):
        return {"connect_timeout": 10}
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
    bind = engine.execution_options(chouette_write=write)
    with Session(bind, expire_on_commit=False) as session, session.begin():
        yield session


def dispose_all() -> None:
    """Close every pooled connection (tests, and the end of the table mode)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
