"""The whole content of a ledger, to prove that a refused command wrote nothing.

Every table the database holds (not only those chouette knows), every row, sorted. Rows come
as the driver gives them, so compare dumps of one database with each other.
"""

from __future__ import annotations

from sqlalchemy import Engine, create_engine, inspect, text

Dump = dict[str, list[tuple[object, ...]]]


def dump(url: str) -> Dump:
    engine = create_engine(url)
    try:
        return _rows(engine)
    finally:
        engine.dispose()


class Snapshots:
    """``dump`` many times over one connection pool (for fuzzing)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url)

    def __call__(self) -> Dump:
        return _rows(self.engine)

    def close(self) -> None:
        self.engine.dispose()


def _rows(engine: Engine) -> Dump:
    quote = engine.dialect.identifier_preparer.quote
    with engine.connect() as conn:
        return {
            name: sorted(
                (tuple(row) for row in conn.execute(text(f"SELECT * FROM {quote(name)}"))),
                key=repr,
            )
            for name in sorted(inspect(conn).get_table_names())
        }
