"""Opening the ledger: the database URL, SQLite's settings, one transaction per command.

SQLite runs in WAL mode with foreign keys on and a busy timeout, so two terminals at one
table can both write; a writing transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's
documented pysqlite recipe), so two writers queue instead of failing half-way. The same
code runs on PostgreSQL, where a writer locks its session's row (``SELECT … FOR UPDATE``)
and waits for it at most as long as SQLite's busy timeout; a report reads one snapshot
(``REPEATABLE READ``), as it does on SQLite; and processes that find an empty database at
the same moment create its schema one after the other, under an advisory lock.

A read never changes the database: on SQLite its connections refuse to write
(``query_only``), a file it cannot write is opened read-only (``mode=ro``; on a read-only
disk, where not even SQLite's shared-memory file can be made, as an immutable file), and it
finds the current schema or says why not. Only a write migrates an older
ledger, and only a command that starts one (``new``, restoring an export, ``migrate``)
creates a ledger: its file readable by its owner alone (0600, its folder 0700 when chouette
makes it). A database holding other tables than chouette's is never touched.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlmodel import Session

from chouette.errors import ChouetteError
from db.urls import database_url as database_url
from db.urls import masked as masked
from db.urls import shown_url as shown_url
from db.urls import sqlite_file as sqlite_file
from db.urls import where as where

BUSY_TIMEOUT_MS = 30_000
_engines: dict[tuple[str, bool], Engine] = {}


def connect(url: str, *, write: bool = True, create: bool | None = None) -> Engine:
    """The engine for ``url`` (one per process and mode), the schema checked.

    A read (``write`` false) needs a ledger of the current schema; a write brings an older
    ledger up to date; ``create`` (default: ``write``) makes a new ledger where there is
    none, and only then."""
    create = write if create is None else create
    if (url, write) in _engines:
        return _engines[url, write]
    file = sqlite_file(url)
    if file is not None:
        _check_file(file, create=create)
    engine = _engine(url, file, write=write)
    from db.migrations import ensure_schema

    try:
        try:
            ensure_schema(engine, write=write, create=create, where=where(url))
        except DBAPIError as err:
            if file is None or write or not _cannot_open(err) or _wal_of(file).exists():
                raise
            # A read-only disk or folder, with no write-ahead log to read: SQLite cannot
            # make its shared-memory file, but the file alone is the whole ledger.
            engine.dispose()
            engine = _engine(url, file, write=False, immutable=True)
            ensure_schema(engine, write=False, create=False, where=where(url))
    except DBAPIError as err:
        engine.dispose()
        raise ChouetteError(unusable(url, err)) from None
    except UnicodeDecodeError:  # SQLite: the schema's own text, damaged
        engine.dispose()
        raise ChouetteError(
            f"the ledger at {where(url)} is damaged (its schema is not readable text): "
            "restore it from a backup"
        ) from None
    except BaseException:
        engine.dispose()  # a refused ledger (newer schema, no server) leaves no connection open
        raise
    _engines[url, write] = engine
    return engine


def unusable(url: str, err: DBAPIError) -> str:
    """Why the database at ``url`` cannot be used, for a person."""
    reason = masked(first_line(err), url)
    file = sqlite_file(url)
    if file is None:
        return f"the database {shown_url(url)} cannot be used: {reason}"
    if "file is not a database" in reason:
        return f"{file} is not a chouette ledger (not an SQLite database)"
    if "malformed" in reason or "no such table" in reason:
        return (
            f"the ledger at {file} is damaged ({reason}): restore it from a backup "
            "(an export restores with `chouette import FILE` into an empty ledger)"
        )
    if ("read-only" in reason or _cannot_open(err)) and not _writable(file):
        return (
            f"the ledger at {file} is on a read-only disk or folder, or the file is "
            f"read-only: it can be read, not written ({reason})"
        )
    return f"the ledger at {file} cannot be used: {reason}"


def first_line(err: DBAPIError) -> str:
    return str(err.orig).strip().splitlines()[0] if err.orig else str(err).splitlines()[0]


def _cannot_open(err: DBAPIError) -> bool:
    reason = str(err.orig)
    return "unable to open database file" in reason or "readonly database" in reason


def _writable(file: Path) -> bool:
    return os.access(file, os.W_OK) and os.access(file.parent, os.W_OK)


def _wal_of(file: Path) -> Path:
    return file.with_name(file.name + "-wal")


def _check_file(file: Path, *, create: bool) -> None:
    """The ledger's file is there (or, for a command that starts a ledger, made: 0600)."""
    try:
        there = file.exists()
    except OSError as err:  # a name too long for the filesystem, say
        raise ChouetteError(f"cannot use the ledger at {file}: {err.strerror}") from None
    if there:
        if not file.is_file():
            raise ChouetteError(f"{file} is not a file: give --db the path of a ledger file")
        return
    if not create:
        raise ChouetteError(
            f"there is no ledger at {file}: `chouette new NAME PLAYER...` starts one "
            "(or check --db and CHOUETTE_DB)"
        )
    try:
        if not file.parent.exists():
            file.parent.mkdir(parents=True, mode=0o700)
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another command made it a moment ago
    except OSError as err:
        raise ChouetteError(f"cannot create the ledger at {file}: {err.strerror}") from None


def _engine(url: str, file: Path | None, *, write: bool, immutable: bool = False) -> Engine:
    """A writer's engine, or a reader's: on SQLite its connections refuse to write
    (``query_only``), and a file that cannot be written is opened read-only (``mode=ro``)."""
    try:
        if file is not None and not write and (immutable or not _writable(file)):
            engine = create_engine(url, creator=_read_only(file, immutable=immutable))
        else:
            engine = create_engine(url, connect_args=_connect_args(url))
    except (ArgumentError, ImportError, ValueError) as err:
        raise ChouetteError(
            f"cannot use the database {shown_url(url)}: {masked(str(err), url)}"
        ) from None
    if engine.dialect.name == "sqlite":
        _sqlite_recipe(engine, read_only=not write)
    return engine


def _read_only(file: Path, *, immutable: bool) -> Callable[[], sqlite3.Connection]:
    """Connections that cannot write the file (``immutable``: nor look for other writers)."""
    uri = f"file:{quote(str(file))}?mode=ro" + ("&immutable=1" if immutable else "")

    def open_file() -> sqlite3.Connection:
        return sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
        )

    return open_file


def _connect_args(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"timeout": BUSY_TIMEOUT_MS / 1000}
    if url.startswith("postgresql"):
        return {"connect_timeout": 10, "options": f"-c lock_timeout={BUSY_TIMEOUT_MS}"}
    return {}


def _sqlite_recipe(engine: Engine, *, read_only: bool) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if read_only:  # a report cannot write, whatever it runs
            cursor.execute("PRAGMA query_only=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("chouette_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


@contextmanager
def transaction(engine: Engine, *, write: bool) -> Iterator[Session]:
    """One transaction: a write commits on success and rolls back on any error (nothing
    written); a read is rolled back at its end, having nothing to commit."""
    options: dict[str, Any] = {"chouette_write": write}
    if engine.dialect.name == "postgresql" and not write:
        options["isolation_level"] = "REPEATABLE READ"  # one snapshot for a whole report
    bind = engine.execution_options(**options)
    with Session(bind, expire_on_commit=False) as session:
        if write:
            with session.begin():
                yield session
            return
        session.begin()
        try:
            yield session
        finally:
            with suppress(DBAPIError):  # a damaged file may refuse even that; the error said so
                session.rollback()


def opened(url: str) -> bool:
    """Whether this process has opened the ledger at ``url``."""
    return any(key[0] == url for key in _engines)


def dispose_all() -> None:
    """Close every pooled connection (tests, and the end of the table mode)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
