"""The ledger: SQLModel tables, one transaction per command, migrations.

    with open_ledger(url, write=True, now=now) as ledger:
        info = ledger.session(None, lock=True)
        ...

A :class:`~chouette.errors.ChouetteError` raised inside the block rolls the transaction
back, so a refused command writes nothing. Database trouble (a file that cannot be opened,
a server that does not answer, a lock held too long) comes out as a ChouetteError too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from chouette.errors import ChouetteError
from chouette.words import Said, said
from db.urls import database_url

if TYPE_CHECKING:
    from db.ledger import Ledger
    from db.transfer import Verified

__all__ = ["Ledger", "database_url", "open_ledger"]


def __getattr__(name: str) -> Any:
    """``db.Ledger`` on first use: importing ``db`` (for :func:`database_url`, or the quick
    read path of :mod:`db.reading`) loads no database library."""
    if name == "Ledger":
        from db.ledger import Ledger

        return Ledger
    raise AttributeError(f"module 'db' has no attribute {name!r}")


@contextmanager
def open_ledger(
    url: str,
    *,
    write: bool,
    now: datetime,
    clock: Callable[[], datetime] | None = None,
    create: bool | None = None,
) -> Iterator[Ledger]:
    """The ledger at ``url`` in one transaction (``write``: take the write lock at once;
    ``create``, by default ``write``: start a ledger where there is none). ``now`` is the
    time of the command; ``clock`` reads the time again (for a game's end)."""
    from sqlalchemy.exc import DBAPIError

    from db.engine import connect, transaction
    from db.ledger import Ledger

    try:
        engine = connect(url, write=write, create=create, migrated=_chain_every_session(now))
        with transaction(engine, write=write) as session:
            book = Ledger(session, now, clock)
            yield book
            if book.touched:  # each session the command changed: a link of its chain
                from db.chained import seal

                seal(book)
    except (OverflowError, UnicodeEncodeError, DBAPIError) as err:
        raise refusal(err, url) from None


def verify_export(lines: Iterable[tuple[int, str]], now: datetime) -> list[Verified]:
    """``chouette verify``: the export read as a restore reads it (the one reader,
    :func:`db.transfer.read_export`), into a throwaway ledger of its own that is then
    forgotten; each session's verdict. A line a restore refuses raises ChouetteError,
    naming it, as the restore says it."""
    import tempfile
    from pathlib import Path

    from db.engine import forget
    from db.transfer import read_export

    class Discard(Exception):
        """Nothing of the throwaway ledger is kept."""

    found: list[Verified] = []
    with tempfile.TemporaryDirectory(prefix="chouette-verify-") as folder:
        url = f"sqlite:///{Path(folder) / 'verify.db'}"
        try:
            with open_ledger(url, write=True, now=now, create=True) as book:
                found = read_export(book, lines)[1]
                raise Discard
        except Discard:
            pass
        finally:
            forget(url)
    return found


def _chain_every_session(now: datetime) -> Callable[[Any], None]:
    """What follows a migration, in its transaction: each session without a chain gets its
    first link (:func:`db.chained.chain_every_session`; loaded only if a ledger moves)."""

    def chain(conn: Any) -> None:
        from db.chained import chain_every_session

        chain_every_session(conn, now)

    return chain


def refusal(err: Exception, url: str) -> ChouetteError:
    """What a command says when the database refused it: a number or text it cannot hold,
    a clash, a lock held too long, a database it cannot use (``err``: an OverflowError or a
    UnicodeEncodeError from the driver, or a DBAPIError; anything else is raised as it is).
    The one translation, for the ORM's way and the quick read path alike."""
    from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

    from db.engine import first_line, full_disk, masked, unusable

    if isinstance(err, OverflowError):  # SQLite: a Python int beyond 64 bits
        return ChouetteError(
            said(
                "a number too large for the ledger ({reason}); nothing was written", reason=str(err)
            )
        )
    if isinstance(err, UnicodeEncodeError):  # a lone surrogate: bytes that were not UTF-8, say
        return ChouetteError(
            said(
                "text that is not valid Unicode (from bytes that are not UTF-8?) cannot be "
                "stored; nothing was written"
            )
        )
    if not isinstance(err, DBAPIError):
        raise err
    full = full_disk(url, err)
    if full is not None:
        return ChouetteError(full)
    if isinstance(err, IntegrityError):
        # SQLite's writers never overlap (BEGIN IMMEDIATE): a clash there is the command's
        # own row against one the ledger holds; PostgreSQL's may meet another's at once.
        reason = masked(first_line(err), url)
        if str(url).startswith("sqlite"):
            return ChouetteError(
                said(
                    "a row clashes with one the ledger already holds (is it damaged? `chouette "
                    "check` says); nothing was written ({reason})",
                    reason=reason,
                )
            )
        return ChouetteError(
            said(
                "another command changed the ledger at the same moment, or a row clashes with "
                "one the ledger already holds; nothing was written ({reason})",
                reason=reason,
            )
        )
    if isinstance(err, OperationalError):
        if _busy(err):
            from db.locks import timeout_text

            return ChouetteError(
                said(
                    "the ledger is busy: another command held it longer than {wait} "
                    "(CHOUETTE_LOCK_TIMEOUT sets how long to wait); nothing was written, try "
                    "again ({reason})",
                    wait=timeout_text(),
                    reason=masked(first_line(err), url),
                )
            )
        return ChouetteError(unwritten(unusable(url, err)))
    if getattr(err.orig, "sqlstate", None) == "22003":  # PostgreSQL: out of range
        return ChouetteError(
            said(
                "a number too large for the ledger ({reason}); nothing was written",
                reason=masked(first_line(err), url),
            )
        )
    return ChouetteError(unwritten(unusable(url, err)))


def unwritten(why: Said) -> Said:
    """``why`` a command was refused, and that nothing was written."""
    return said("{why}; nothing was written", why=why)


def _busy(err: Any) -> bool:
    """A lock waited for too long (SQLite's busy timeout, PostgreSQL's lock_timeout) or a
    deadlock between two commands."""
    return getattr(err.orig, "sqlstate", None) in ("55P03", "40P01") or (
        "database is locked" in str(err.orig)
    )
