"""Set-based writes: many rows in one driver-level statement (``executemany`` on SQLite,
``COPY`` on PostgreSQL), not one ORM object each.

Used by the ledger's one writer of booked games (:meth:`db.ledger.Ledger.book_games`), for
one game or a hundred thousand. Ids for new games are taken under the write lock the
transaction already holds, so game rows and their bookings go in as two statements. Each
batch's statement is made from the table and columns the models name (:func:`columns_of`),
never from names written here.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from chouette.limits import check_balance

if TYPE_CHECKING:  # SQLAlchemy is loaded when a write needs it: few_collections() before
    from sqlalchemy import Connection


class Columns(NamedTuple):
    """A table and some of its columns, in the order a batch's rows give their values: the
    names its statement is made with, taken from the models (:func:`columns_of`)."""

    table: str
    names: tuple[str, ...]

    def without(self, *names: str) -> Columns:
        """The same, these columns left out (each must be one of them)."""
        for name in names:
            if name not in self.names:
                raise KeyError(f"{self.table}: no column {name!r} to leave out")
        return Columns(self.table, tuple(n for n in self.names if n not in names))


def columns_of(*attributes: Any) -> Columns:
    """The table and names of these columns of one model (``GameRow.id, GameRow.number``),
    as the model declares them: a batch's statement names nothing the schema does not (a
    column renamed in a model is a type error here, and an AttributeError at import)."""
    found = [attribute.expression for attribute in attributes]  # each a Column of its table
    tables = {column.table.name for column in found}
    if len(tables) != 1:
        raise ValueError(f"the columns of one table, not of {', '.join(sorted(tables))}")
    return Columns(tables.pop(), tuple(str(column.name) for column in found))


@contextmanager
def few_collections(*, freeze: bool = False) -> Iterator[None]:
    """While a command loads the database libraries, reads and books many games: Python's
    cycle collector paused (it runs again after, as it would). The games' rows, tuples and
    dicts hold no cycles (reference counting frees them, so memory stays flat), yet every
    few hundred of them made the collector walk every object the libraries hold: a sixth of
    an import of 100,000 records went on that (and a tenth of loading the libraries).

    ``freeze``: what is alive at the end is kept out of every later collection
    (``gc.freeze``): for the libraries' modules and classes, loaded meanwhile, which live as
    long as the process (else the first collection after walks them all, once)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if paused:
            gc.enable()


def bind(conn: Connection, model: Any, column: str, value: Any) -> Any:
    """``value`` as the database driver takes it for that column (SQLAlchemy's own conversion)."""
    kind = model.__table__.c[column].type.dialect_impl(conn.dialect)
    process = kind.bind_processor(conn.dialect)
    return process(value) if process is not None else value


def insert_many(conn: Connection, columns: Columns, rows: list[tuple[Any, ...]]) -> None:
    """A whole batch of rows into the table, giving these columns, in one statement."""
    if not rows:
        return
    table, names = columns
    if conn.dialect.name == "postgresql":
        _copy(conn, table, names, rows)
        return
    sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    _many(conn, sql, rows)


def upsert_many(
    conn: Connection, columns: Columns, rows: list[tuple[Any, ...]], *, keys: int = 1
) -> None:
    """A whole batch of rows into the table in one statement, each in place of the row
    with its key (the first ``keys`` columns) where there is one (``INSERT … ON
    CONFLICT``, which SQLite and PostgreSQL both have)."""
    if not rows:
        return
    table, names = columns
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    key, rest = names[:keys], names[keys:]
    sql = (
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join([mark] * len(names))}) "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET "
        + ", ".join(f"{c} = excluded.{c}" for c in rest)
    )
    _many(conn, sql, rows)


def _many(conn: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """One statement for every row of ``rows``. SQLite: the driver's own executemany, in
    this transaction (SQLAlchemy would look at every row on its way); its errors come out
    as SQLAlchemy's, as from any statement."""
    if conn.dialect.name != "sqlite":
        conn.exec_driver_sql(sql, rows)
        return
    driver: Any = conn.connection.dbapi_connection
    assert driver is not None
    try:
        driver.executemany(sql, rows)
    except conn.dialect.loaded_dbapi.Error as err:
        raise _refused(conn, sql, err) from err


def driver_rows(conn: Connection, sql: str, params: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """SQLite: the rows of a query read from the driver's own cursor, a thousand at a time
    as SQLite steps through them (SQLAlchemy would fetch them one by one and make a row
    object of each); its errors come out as SQLAlchemy's, as from any statement."""
    driver: Any = conn.connection.dbapi_connection
    assert driver is not None
    try:
        cursor = driver.execute(sql, params)
        while rows := cursor.fetchmany(1000):
            yield from rows
    except conn.dialect.loaded_dbapi.Error as err:
        raise _refused(conn, sql, err) from err


def _copy(
    conn: Connection, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]
) -> None:
    """PostgreSQL: the rows through ``COPY … FROM STDIN`` in this transaction (an import of
    100,000 games takes a quarter less time than with an ``INSERT`` per row). The driver's
    errors come out as SQLAlchemy's, as from any other statement, so a refused copy is
    reported like a refused insert."""
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    driver: Any = conn.connection.dbapi_connection  # psycopg's connection: cursor().copy()
    assert driver is not None
    try:
        with driver.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
    except conn.dialect.loaded_dbapi.Error as err:
        raise _refused(conn, sql, err) from err


def _refused(conn: Connection, sql: str, err: Exception) -> Exception:
    """The driver's error as SQLAlchemy's, as from any other statement."""
    from sqlalchemy.exc import DBAPIError

    return DBAPIError.instance(sql, None, err, conn.dialect.loaded_dbapi.Error)


def allocate_ids(conn: Connection, ids: Columns, count: int) -> list[int]:
    """Ids for ``count`` new rows of the table (``ids``: its id column), under the write
    lock this transaction holds."""
    from sqlalchemy import text

    (table, (column,)) = ids
    if conn.dialect.name == "postgresql":
        rows = conn.execute(
            text(
                f"SELECT nextval(pg_get_serial_sequence('{table}', '{column}')) "
                "FROM generate_series(1, :n)"
            ),
            {"n": count},
        )
        return [int(r[0]) for r in rows]
    top = conn.execute(text(f"SELECT COALESCE(MAX({column}), 0) FROM {table}")).scalar_one()
    return list(range(int(top) + 1, int(top) + 1 + count))


def move_balances(conn: Connection, deltas: Iterable[tuple[int, str, int, int]]) -> None:
    """Add (session, player, points, cents) to the running balances, in one upsert."""
    points: dict[tuple[int, str], int] = {}
    cents: dict[tuple[int, str], int] = {}
    get_points, get_cents = points.get, cents.get  # the loop runs once a booking
    for session_id, player, gained, paid in deltas:
        key = (session_id, player)
        points[key] = get_points(key, 0) + gained
        cents[key] = get_cents(key, 0) + paid
    if not points:
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    _check_balances(conn, points, cents, mark)
    conn.exec_driver_sql(
        f"INSERT INTO balance (session_id, player, points, cents) "
        f"VALUES ({mark}, {mark}, {mark}, {mark}) "
        "ON CONFLICT (session_id, player) DO UPDATE SET "
        "points = balance.points + excluded.points, cents = balance.cents + excluded.cents",
        [(s, p, total, cents[s, p]) for (s, p), total in points.items()],
    )


def _check_balances(
    conn: Connection,
    points: dict[tuple[int, str], int],
    cents: dict[tuple[int, str], int],
    mark: str,
) -> None:
    """Every balance a write moves stays within the limit (so no sum leaves 64 bits: SQLite
    would silently turn it into a float). The write lock is held: nobody moves them now."""
    sessions = sorted({session_id for session_id, _ in points})
    rows = conn.exec_driver_sql(
        "SELECT session_id, player, points, cents FROM balance "
        f"WHERE session_id IN ({', '.join([mark] * len(sessions))})",
        tuple(sessions),
    ).all()
    now = {(s, p): (pts, c) for s, p, pts, c in rows}
    for key, gained in points.items():
        before_points, before_cents = now.get(key, (0, 0))
        check_balance(key[1], before_points + gained, before_cents + cents[key])
