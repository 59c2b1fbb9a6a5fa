"""Set-based writes: many rows in one driver-level ``executemany``, not one ORM object each.

Used where a command writes many games at once (``chouette record`` of a file of games,
``chouette import`` of an engine file). Ids for new games are taken under the write lock the
transaction already holds, so game rows and their bookings go in as two statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, text

#: A booking as written: session, game (or None), payment (or None), player, points, cents, time.
Booking = tuple[int, int | None, int | None, str, int, int, datetime]
BOOKING_COLUMNS = ("session_id", "game_id", "payment_id", "player", "points", "cents", "at")


def bind(conn: Connection, model: Any, column: str, value: Any) -> Any:
    """``value`` as the database driver takes it for that column (SQLAlchemy's own conversion)."""
    kind = model.__table__.c[column].type.dialect_impl(conn.dialect)
    process = kind.bind_processor(conn.dialect)
    return process(value) if process is not None else value


def insert_many(
    conn: Connection, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]
) -> None:
    """One ``INSERT`` for a whole batch of rows."""
    if not rows:
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join([mark] * len(columns))})"
    conn.exec_driver_sql(sql, rows)


def allocate_ids(conn: Connection, table: str, count: int) -> list[int]:
    """Ids for ``count`` new rows of ``table``, under the write lock this transaction holds."""
    if conn.dialect.name == "postgresql":
        rows = conn.execute(
            text(
                f"SELECT nextval(pg_get_serial_sequence('{table}', 'id')) "
                "FROM generate_series(1, :n)"
            ),
            {"n": count},
        )
        return [int(r[0]) for r in rows]
    top = conn.execute(text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar_one()
    return list(range(int(top) + 1, int(top) + 1 + count))


def insert_bookings(conn: Connection, rows: Sequence[Booking]) -> None:
    """Bookings, and the running balances they move: the one way bookings are written."""
    if not rows:
        return
    from db.models import BookingRow

    times: dict[datetime, Any] = {}
    bound = [
        (
            *row[:6],
            times.get(row[6]) or times.setdefault(row[6], bind(conn, BookingRow, "at", row[6])),
        )
        for row in rows
    ]
    insert_many(conn, "booking", BOOKING_COLUMNS, bound)
    move_balances(conn, [(row[0], row[3], row[4], row[5]) for row in rows])


def move_balances(conn: Connection, deltas: Sequence[tuple[int, str, int, int]]) -> None:
    """Add (session, player, points, cents) to the running balances, in one upsert."""
    totals: dict[tuple[int, str], list[int]] = {}
    for session_id, player, points, cents in deltas:
        total = totals.setdefault((session_id, player), [0, 0])
        total[0] += points
        total[1] += cents
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(
        f"INSERT INTO balance (session_id, player, points, cents) "
        f"VALUES ({mark}, {mark}, {mark}, {mark}) "
        "ON CONFLICT (session_id, player) DO UPDATE SET "
        "points = balance.points + excluded.points, cents = balance.cents + excluded.cents",
        [(s, p, pts, c) for (s, p), (pts, c) in totals.items()],
    )
