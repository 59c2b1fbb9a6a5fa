"""The whole content of a ledger, to prove that a refused command wrote nothing.

Every table the database holds (not only those chouette knows), every row, sorted. Rows come
as the driver gives them, so compare dumps of one database with each other.
"""

from __future__ import annotations

import json

from sqlalchemy import Engine, create_engine, inspect, text

Dump = dict[str, list[tuple[object, ...]]]


def dump(url: str) -> Dump:
    engine = create_engine(url)
    try:
        return _rows(engine)
    finally:
        engine.dispose()


def execute(url: str, *statements: str) -> None:
    """Run SQL on a ledger as someone with the file would, outside chouette, in one
    transaction (to damage it on purpose)."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
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


def unchained(value: object) -> object:
    """A report without what the session's chain makes of it (chouette/chain.py): the
    ``Fingerprint …`` lines, ``fingerprint(s)`` keys and an export's ``chain`` lines. Undo
    takes a change back but adds a link (the chain only grows), so the fingerprint after
    an undo is a new one: compare the rest."""
    if isinstance(value, str):
        if value.startswith("{"):  # a report's --json, as printed
            try:
                return json.dumps(unchained(json.loads(value)), indent=2, ensure_ascii=False)
            except ValueError:
                pass
        return "".join(
            line
            for line in value.splitlines(keepends=True)
            if not line.startswith(("Fingerprint of ", "Fingerprints: "))
            and '{"kind": "chain", ' not in line
        )
    if isinstance(value, dict):
        return {
            k: unchained(v) for k, v in value.items() if k not in ("fingerprint", "fingerprints")
        }
    if isinstance(value, list):
        return [unchained(v) for v in value]
    return value


def unchained_dump(url: str) -> Dump:
    """:func:`dump` without the chain table (what undo adds to: see :func:`unchained`)."""
    return {table: rows for table, rows in dump(url).items() if table != "chain"}
