"""The whole content of a ledger, to prove that a refused command wrote nothing."""

from __future__ import annotations

from sqlalchemy import MetaData, create_engine, select


def dump(url: str) -> dict[str, list[tuple[object, ...]]]:
    engine = create_engine(url)
    try:
        meta = MetaData()
        meta.reflect(engine)
        with engine.connect() as conn:
            return {
                name: sorted((tuple(row) for row in conn.execute(select(table))), key=repr)
                for name, table in sorted(meta.tables.items())
            }
    finally:
        engine.dispose()
