"""Schema versions and migrations, from the first schema on.

A new database gets the current schema straight from the models and is stamped with
:data:`LATEST`. An older database is brought forward by the ordered migrations below, each
in the same transaction as its version stamp; the tests check that a migrated old file has
exactly the schema (and keeps every row) of a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

from chouette.errors import ChouetteError
from db import models  # noqa: F401  (registers the tables)

Migration = Callable[[Connection], None]

#: ``MIGRATIONS[i]`` brings a database from version ``i + 1`` to ``i + 2``.
MIGRATIONS: list[Migration] = []
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
