"""The quick way to read the ledger for a report: no ORM where none is needed.

:func:`open_reads` hands a command the reports' reads (:class:`db.reads.Reads`) in one read
transaction. On an SQLite ledger of the current schema, a plain file, it opens the file
with :mod:`sqlite3` alone, as the ORM's read path would (``query_only``; read-only,
``mode=ro``, where the file or its folder cannot be written) and checks the same schema
stamp and tables, so a report starts without loading SQLAlchemy, SQLModel or pydantic.
Anything else — PostgreSQL, a URL with options, a missing, older, newer or damaged ledger, a
file SQLite will not open — goes the ORM's way (:func:`db.open_ledger`), which says what is
wrong exactly as every command does.

:data:`SCHEMA` and :data:`TABLES` name the schema this chouette writes without importing it;
tests/system/test_startup.py checks them against db/migrations.py and db/models.py: a new migration
or table is named here too. (Until it is, a ledger of the new schema is read the ORM's way,
slower, and one of the schema before is read as it is rather than called older.)
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from chouette.errors import ChouetteError
from db.locks import lock_timeout_ms
from db.urls import sqlite_file

if TYPE_CHECKING:  # the reports' reads load with the house rules: a Tab needs neither
    from db.names import Run
    from db.reads import Reads

SCHEMA = 22
TABLES = (
    "account",
    "action",
    "balance",
    "booking",
    "chain",
    "charge",
    "evaluation",
    "event",
    "game",
    "kept_digest",
    "pair",
    "payment",
    "player",
    "preset",
    "proposal",
    "schema_version",
    "session",
    "session_origin",
    "setting",
    "source_file",
    "tournament",
    "tournament_step",
    "tournament_table",
)

_opened: set[str] = set()


def opened(url: str) -> bool:
    """Whether this process read the ledger at ``url`` the quick way."""
    return url in _opened


@contextmanager
def open_reads(url: str, *, now: datetime) -> Iterator[Reads]:
    """The reports' reads of the ledger at ``url``, in one read transaction (``now``: the
    time of the command, for the ORM's way). Database trouble comes out as a
    :class:`~chouette.errors.ChouetteError`, as from :func:`db.open_ledger`."""
    from db.reads import Reads

    with _quick(url, now=now) as found:
        yield found if isinstance(found, Reads) else Reads(found, dialect="sqlite")


@contextmanager
def open_names(url: str, *, now: datetime) -> Iterator[Run]:
    """The statements of one read transaction of the ledger at ``url``, for the names a Tab
    of shell completion offers (:mod:`db.names`): on an SQLite ledger, nothing but
    :mod:`sqlite3` loaded. Database trouble comes out as in :func:`open_reads`."""
    with _quick(url, now=now) as found:
        yield found if callable(found) else found.statements


@contextmanager
def _quick(url: str, *, now: datetime) -> Iterator[Reads | Run]:
    """The driver's ``execute`` on a read transaction of the SQLite ledger at ``url``, its
    errors said as the ORM's way says them; or, where the ORM's way must look, the reads of
    a ledger opened that way."""
    conn = _connect(url)
    if conn is None:
        from db import open_ledger

        with open_ledger(url, write=False, now=now) as book:
            yield book.reads
        return
    try:
        yield conn.execute
    except (sqlite3.Error, OverflowError, UnicodeEncodeError) as err:
        raise _refusal(err, url) from None
    finally:
        conn.close()  # the read transaction ends unwritten


def _connect(url: str) -> sqlite3.Connection | None:
    """A connection to the SQLite ledger at ``url`` in a read transaction, its schema
    checked; None where the ORM's way must look."""
    file = sqlite_file(url)
    if file is None or "?" in url:  # the ORM's way reads the URL's options (db/urls.py)
        return None
    try:
        if not stat.S_ISREG(os.stat(file).st_mode):
            return None
    except OSError:
        return None
    writable = os.access(file, os.W_OK) and os.access(file.parent, os.W_OK)
    conn = None
    try:
        conn = sqlite3.connect(
            _uri(file, read_only=not writable),
            uri=True,
            timeout=lock_timeout_ms() / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        conn.execute(f"PRAGMA busy_timeout={lock_timeout_ms()}")
        conn.execute("PRAGMA query_only=ON")  # a report cannot write, whatever it runs
        conn.execute("BEGIN")
        marks = ", ".join("?" * len(TABLES))
        found = conn.execute(
            f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ({marks})",
            TABLES,
        ).fetchone()
        if found != (len(TABLES),):
            conn.close()
            return None
        if conn.execute("SELECT version FROM schema_version").fetchall() != [(SCHEMA,)]:
            conn.close()
            return None
    except (sqlite3.Error, UnicodeDecodeError):
        if conn is not None:
            conn.close()
        return None
    _opened.add(url)
    return conn


def _uri(file: Path, *, read_only: bool) -> str:
    return f"file:{quote(str(file))}" + ("?mode=ro" if read_only else "")


def _refusal(err: Exception, url: str) -> ChouetteError:
    """What the ORM's way says of the same trouble (SQLAlchemy is loaded only now)."""
    from sqlalchemy.exc import DBAPIError

    from db import refusal

    if isinstance(err, sqlite3.Error):
        wrapped: Any = DBAPIError.instance(None, None, err, sqlite3.Error)
        return refusal(wrapped, url)
    return refusal(err, url)
