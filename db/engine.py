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

The URL's options are honoured or refused (:func:`db.urls.url_options`): an SQLite ledger
given with ``?mode=ro`` is opened read-only and every command that writes is refused; a
PostgreSQL ledger given ``options=-csearch_path=SCHEMA`` lives in that schema, which must
exist. How long a writer waits for another's lock, and the note that it waits, are
:mod:`db.locks`'s.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlmodel import Session

from chouette.errors import ChouetteError
from chouette.words import Said, said
from db.locks import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from db.locks import Watch, lock_timeout_ms, waiting
from db.urls import UrlOptions, url_options
from db.urls import database_url as database_url
from db.urls import masked as masked
from db.urls import shown_url as shown_url
from db.urls import sqlite_file as sqlite_file
from db.urls import where as where

_engines: dict[tuple[str, bool], Engine] = {}
#: SQLite: the page size of a new ledger's file (SQLite's default is 4 KiB), set before its
#: first page is written (a ledger made before keeps the pages it has). A game row is about
#: 400 bytes: twice as many to a page, with the cache below, take a sixth off SQLite's
#: share of an import of many games (README, performance).
PAGE_SIZE = 8192
#: SQLite: the page cache of a connection that writes, in KiB (SQLite's default is 2,000).
#: A command fills it only as far as it reads and writes: an import of many games spills
#: the pages of the indexes it grows to the log fewer times over.
WRITE_CACHE_KB = 8000


def connect(
    url: str,
    *,
    write: bool = True,
    create: bool | None = None,
    migrated: Callable[[Connection], None] | None = None,
) -> Engine:
    """The engine for ``url`` (one per process and mode), the schema checked.

    A read (``write`` false) needs a ledger of the current schema; a write brings an older
    ledger up to date (``migrated``: what follows in the same transaction, the sessions'
    chains); ``create`` (default: ``write``) makes a new ledger where there is none, and
    only then."""
    create = write if create is None else create
    if (url, write) in _engines:
        return _engines[url, write]
    given = url_options(url)
    if write and given.read_only:
        raise ChouetteError(
            said(
                "the ledger at {where} is opened read-only (mode=ro in its URL): this "
                "command writes, so nothing was written; leave ?mode=ro out of --db or "
                "CHOUETTE_DB to write",
                where=where(url),
            )
        )
    file = sqlite_file(url)
    if file is not None:
        _check_file(file, create=create)
    engine = _engine(given, file, write=write)
    from db.migrations import ensure_schema

    try:
        try:
            if given.schema is not None:
                _check_schema(engine, given.schema, url)
            ensure_schema(engine, write=write, create=create, where=where(url), migrated=migrated)
        except DBAPIError as err:
            if file is None or write or not _cannot_open(err) or _wal_of(file).exists():
                raise
            # A read-only disk or folder, with no write-ahead log to read: SQLite cannot
            # make its shared-memory file, but the file alone is the whole ledger.
            engine.dispose()
            engine = _engine(given, file, write=False, immutable=True)
            ensure_schema(engine, write=False, create=False, where=where(url))
    except DBAPIError as err:
        engine.dispose()
        raise ChouetteError(full_disk(url, err) or unusable(url, err)) from None
    except UnicodeDecodeError:  # SQLite: the schema's own text, damaged
        engine.dispose()
        raise ChouetteError(
            said(
                "the ledger at {where} is damaged (its schema is not readable text): "
                "restore it from a backup",
                where=where(url),
            )
        ) from None
    except BaseException:
        engine.dispose()  # a refused ledger (newer schema, no server) leaves no connection open
        raise
    _engines[url, write] = engine
    return engine


def _check_schema(engine: Engine, schema: str, url: str) -> None:
    """PostgreSQL: the schema the URL's ``search_path`` names is there, and the one the
    ledger's tables are made and read in."""
    with engine.connect() as conn:
        current = conn.execute(text("SELECT current_schema()")).scalar()
    if current != schema:
        raise ChouetteError(
            said(
                "the database {url} has no schema {schema} that chouette's role may use (its "
                "URL's search_path names it): create it (CREATE SCHEMA {schema}) or correct "
                "the URL",
                url=shown_url(url),
                schema=schema,
            )
        )


def unusable(url: str, err: DBAPIError) -> Said:
    """Why the database at ``url`` cannot be used, for a person."""
    reason = masked(first_line(err), url)
    file = sqlite_file(url)
    if file is None:
        return said(
            "the database {url} cannot be used: {reason}", url=shown_url(url), reason=reason
        )
    if "file is not a database" in reason:
        return said("{file} is not a chouette ledger (not an SQLite database)", file=str(file))
    if "malformed" in reason or "no such table" in reason:
        return said(
            "the ledger at {file} is damaged ({reason}): restore it from a backup (an export "
            "restores with `chouette import FILE` into an empty ledger)",
            file=str(file),
            reason=reason,
        )
    if ("read-only" in reason or _cannot_open(err)) and not _writable(file):
        return said(
            "the ledger at {file} is on a read-only disk or folder, or the file is read-only: "
            "it can be read, not written ({reason})",
            file=str(file),
            reason=reason,
        )
    return said("the ledger at {file} cannot be used: {reason}", file=str(file), reason=reason)


#: SQLite: on an I/O error, a disk with less free space than this is taken to be full (the
#: shared-memory file or the write-ahead log could not grow: SQLite says only "disk I/O
#: error").
FULL_BELOW = 1 << 20


def full_disk(url: str, err: DBAPIError) -> Said | None:
    """What a command says when the ledger's disk is full (None: that is not what went
    wrong): plainly, and that nothing was written. SQLite says ``database or disk is full``
    when the file cannot grow, and only ``disk I/O error`` when its shared-memory file or
    its log cannot; PostgreSQL says ``disk_full`` (SQLSTATE 53100)."""
    reason = masked(first_line(err), url)
    if getattr(err.orig, "sqlstate", None) == "53100":
        return said(
            "the disk of the database server at {url} is full: nothing was written; make "
            "room there and try again ({reason})",
            url=shown_url(url),
            reason=reason,
        )
    file = sqlite_file(url)
    name = str(getattr(err.orig, "sqlite_errorname", ""))
    if file is None or not (name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR")):
        return None
    if name != "SQLITE_FULL":
        try:
            room = os.statvfs(file.parent)
        except OSError:
            return None
        if room.f_bavail * room.f_frsize >= FULL_BELOW:
            return None
    return said(
        "the disk holding the ledger at {file} is full: nothing was written; make room on "
        "it and try again ({reason})",
        file=str(file),
        reason=reason,
    )


def first_line(err: DBAPIError) -> str:
    return str(err.orig).strip().splitlines()[0] if err.orig else str(err).splitlines()[0]


def _cannot_open(err: DBAPIError) -> bool:
    reason = str(err.orig)
    return "unable to open database file" in reason or "readonly database" in reason


def _writable(file: Path) -> bool:
    return os.access(file, os.W_OK) and os.access(file.parent, os.W_OK)


def _wal_of(file: Path) -> Path:
    return file.with_name(file.name + "-wal")


def cannot_use(file: Path | str, err: OSError) -> Said:
    """The ledger at ``file`` cannot be used: the system's reason (``err``) after it."""
    return said("cannot use the ledger at {file}: {reason}", file=str(file), reason=err.strerror)


def _check_file(file: Path, *, create: bool) -> None:
    """The ledger's file is there (or, for a command that starts a ledger, made: 0600)."""
    try:
        there = file.exists()
    except OSError as err:  # a name too long for the filesystem, say
        raise ChouetteError(cannot_use(file, err)) from None
    if there:
        if not file.is_file():
            raise ChouetteError(
                said("{file} is not a file: give --db the path of a ledger file", file=str(file))
            )
        return
    if not create:
        raise ChouetteError(
            said(
                "there is no ledger at {file}: `chouette new NAME PLAYER...` starts one (or "
                "check --db and CHOUETTE_DB)",
                file=str(file),
            )
        )
    try:
        if not file.parent.exists():
            file.parent.mkdir(parents=True, mode=0o700)
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another command made it a moment ago
    except OSError as err:
        raise ChouetteError(
            said(
                "cannot create the ledger at {file}: {reason}", file=str(file), reason=err.strerror
            )
        ) from None


def _engine(
    given: UrlOptions, file: Path | None, *, write: bool, immutable: bool = False
) -> Engine:
    """A writer's engine, or a reader's: on SQLite its connections refuse to write
    (``query_only``), and a file that cannot be written, or given read-only (``?mode=ro``),
    is opened read-only (``mode=ro``)."""
    url = given.url
    try:
        if file is not None and not write and (immutable or given.read_only or not _writable(file)):
            engine = create_engine(url, creator=_read_only(file, immutable=immutable))
        else:
            engine = create_engine(url, connect_args=_connect_args(given))
    except (ArgumentError, ImportError, ValueError) as err:
        raise ChouetteError(
            said(
                "cannot use the database {url}: {reason}",
                url=shown_url(url),
                reason=masked(str(err), url),
            )
        ) from None
    if engine.dialect.name == "sqlite":
        _sqlite_recipe(engine, read_only=not write)
    elif engine.dialect.name == "postgresql" and write:
        _postgres_waits(engine)
    return engine


def _read_only(file: Path, *, immutable: bool) -> Callable[[], sqlite3.Connection]:
    """Connections that cannot write the file (``immutable``: nor look for other writers)."""
    uri = f"file:{quote(str(file))}?mode=ro" + ("&immutable=1" if immutable else "")

    def open_file() -> sqlite3.Connection:
        return sqlite3.connect(
            uri, uri=True, timeout=lock_timeout_ms() / 1000, check_same_thread=False
        )

    return open_file


def _connect_args(given: UrlOptions) -> dict[str, Any]:
    """The driver's settings: the lock timeout, and on PostgreSQL the ledger's schema (the
    URL's own ``options``, read by :func:`url_options`, are these)."""
    if given.url.startswith("sqlite"):
        return {"timeout": lock_timeout_ms() / 1000}
    if given.url.startswith("postgresql"):
        options = f"-c lock_timeout={lock_timeout_ms()}"
        if given.schema is not None:
            options += f" -c search_path={given.schema}"
        return {"connect_timeout": 10, "options": options}
    return {}


def _sqlite_recipe(engine: Engine, *, read_only: bool) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={lock_timeout_ms()}")
        if read_only:  # a report cannot write, whatever it runs
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute(f"PRAGMA page_size={PAGE_SIZE}")  # no change to a file with pages
            cursor.execute(f"PRAGMA cache_size=-{WRITE_CACHE_KB}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        if not conn.get_execution_options().get("chouette_write", False):
            conn.exec_driver_sql("BEGIN")
            return
        with waiting():  # it waits only for another writer's transaction to end
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def _postgres_waits(engine: Engine) -> None:
    """A writer's transaction on PostgreSQL is watched (:class:`db.locks.Watch`): when it
    has run a moment, the server says whether it waits for another's lock."""

    def blocked(pid: int) -> bool:
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("SELECT cardinality(pg_blocking_pids(%s)) > 0", (pid,))
            row = cursor.fetchone()
            return bool(row and row[0])
        finally:
            raw.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        if not conn.get_execution_options().get("chouette_write", False):
            return
        pid = conn.connection.dbapi_connection.info.backend_pid
        conn.info["chouette_watch"] = Watch(lambda: blocked(pid)).start()

    def on_end(conn: Any) -> None:
        watch = conn.info.pop("chouette_watch", None)
        if watch is not None:  # (this event comes before the COMMIT: no wait with the lock)
            watch.stop(wait=False)
            conn.info["chouette_looking"] = watch

    def on_checkin(_dbapi_connection: Any, record: Any) -> None:
        # The transaction over, its connection back: a look still under way ends first, so
        # that its own connection comes back to this pool, never to one the command has
        # disposed of by then (where it stayed open for the garbage collector to find).
        watch = record.info.pop("chouette_looking", None)
        if watch is not None:
            watch.stop()

    event.listen(engine, "commit", on_end)
    event.listen(engine, "rollback", on_end)
    event.listen(engine, "checkin", on_checkin)


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


def forget(url: str) -> None:
    """Close the connections to the ledger at ``url`` and forget its engines (a throwaway
    ledger, gone after)."""
    for key in [k for k in _engines if k[0] == url]:
        _engines.pop(key).dispose()


def dispose_all() -> None:
    """Close every pooled connection (tests, and the end of the table mode)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
