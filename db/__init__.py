"""The ledger: SQLModel tables, one transaction per command, migrations.

    with open_ledger(url, write=True, now=now) as ledger:
        info = ledger.session(None, lock=True)
        ...

A :class:`~chouette.errors.ChouetteError` raised inside the block rolls the transaction
back, so a refused command writes nothing. Database trouble (a file that cannot be opened,
a server that does not answer, a lock held too long) comes out as a ChouetteError too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from chouette.errors import ChouetteError
from db.engine import (
    connect,
    database_url,
    first_line,
    masked,
    transaction,
    unusable,
)
from db.ledger import Ledger

__all__ = ["Ledger", "database_url", "open_ledger"]


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
    try:
        engine = connect(url, write=write, create=create)
        with transaction(engine, write=write) as session:
            yield Ledger(session, now, clock)
    except OverflowError as err:  # SQLite: a Python int beyond 64 bits
        raise ChouetteError(
            f"a number too large for the ledger ({err}); nothing was written"
        ) from None
    except UnicodeEncodeError:  # a lone surrogate: bytes that were not UTF-8, say
        raise ChouetteError(
            "text that is not valid Unicode (from bytes that are not UTF-8?) cannot be "
            "stored; nothing was written"
        ) from None
    except IntegrityError as err:
        # SQLite's writers never overlap (BEGIN IMMEDIATE): a clash there is the command's
        # own row against one the ledger holds; PostgreSQL's may meet another's at once.
        why = (
            "a row clashes with one the ledger already holds (is it damaged? `chouette check` says)"
            if str(url).startswith("sqlite")
            else "another command changed the ledger at the same moment, or a row clashes with "
            "one the ledger already holds"
        )
        raise ChouetteError(
            f"{why}; nothing was written ({masked(first_line(err), url)})"
        ) from None
    except OperationalError as err:
        if _busy(err):
            raise ChouetteError(
                "the ledger is busy: another command held it too long; nothing was written, "
                f"try again ({masked(first_line(err), url)})"
            ) from None
        raise ChouetteError(unusable(url, err) + "; nothing was written") from None
    except DBAPIError as err:
        if getattr(err.orig, "sqlstate", None) == "22003":  # PostgreSQL: out of range
            raise ChouetteError(
                f"a number too large for the ledger ({masked(first_line(err), url)}); "
                "nothing was written"
            ) from None
        raise ChouetteError(unusable(url, err) + "; nothing was written") from None


def _busy(err: DBAPIError) -> bool:
    """A lock waited for too long (SQLite's busy timeout, PostgreSQL's lock_timeout) or a
    deadlock between two commands."""
    return getattr(err.orig, "sqlstate", None) in ("55P03", "40P01") or (
        "database is locked" in str(err.orig)
    )
