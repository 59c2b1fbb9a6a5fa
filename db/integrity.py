"""The ledger's storage, checked: the database's own checks and every stored value.

On SQLite, SQLite's own ``PRAGMA integrity_check`` (every page, every index entry) and
``PRAGMA foreign_key_check`` (no row refers to a row that is not there); on either database,
every stored value readable as what its column holds (whole numbers, times, UTF-8 text, and
JSON that reads as a line, house rules or an event). PostgreSQL enforces types and foreign
keys itself, and checks its own pages (with data checksums on).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Connection, DateTime, Integer, String, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel

from chouette.card import Origin
from chouette.errors import ChouetteError
from chouette.rules import HouseRules
from db import models  # noqa: F401  (registers the tables)
from db.codec import event_from_body, line_from_json


def _line(data: Any) -> object:
    return line_from_json(json.dumps(data))


def _detail(data: Any) -> object:
    if not isinstance(data, dict):
        raise TypeError("not an object")
    return data


#: Columns of JSON text, by table, and what each must read as.
JSON_COLUMNS: dict[str, dict[str, Callable[[Any], object]]] = {
    "session": {"rules": HouseRules.from_dict, "line": _line},
    "game": {"line_before": _line, "line_after": _line, "detail": _detail},
    "event": {"body": lambda data: event_from_body(json.dumps(data))},
    "action": {"detail": _detail},
    "preset": {"rules": HouseRules.from_dict},
    "session_origin": {"detail": Origin.from_dict},
}
_SHAPES = (ChouetteError, ValueError, KeyError, TypeError, AttributeError)


def storage(conn: Connection) -> list[str]:
    """The database file (SQLite's own checks) and every stored value: readable as what its
    column holds."""
    problems = []
    if conn.dialect.name == "sqlite":
        try:
            found = [row[0] for row in conn.exec_driver_sql("PRAGMA integrity_check").all()]
        except DBAPIError as err:  # damaged where the check itself must read
            found = [str(err.orig)]
        if found != ["ok"]:
            problems += [
                "the database file is damaged: "
                + line.removeprefix("*** in database main ***\n").replace("\n", "; ")
                for line in found
            ]
            return problems  # a damaged file: what is read from it cannot be trusted
        for table, rowid, parent, _ in conn.exec_driver_sql("PRAGMA foreign_key_check").all():
            problems.append(f"{table} row {rowid} refers to a row of {parent} that is not there")
    return problems + values(conn)


def values(conn: Connection) -> list[str]:
    """Every stored value readable as its column's kind: whole numbers (SQLite keeps any
    value in any column), times, UTF-8 text, JSON."""
    problems: list[str] = []
    sqlite = conn.dialect.name == "sqlite"
    for table in SQLModel.metadata.sorted_tables:
        for column in table.columns:
            kind = getattr(column.type, "impl_instance", column.type)  # SQLModel's AutoString
            name, where = column.name, table.name
            if sqlite and isinstance(kind, Integer | Boolean):
                allowed = "('integer', 'null')" if column.nullable else "('integer')"
                for rowid, found, value in conn.exec_driver_sql(
                    f"SELECT rowid, typeof({name}), CAST({name} AS TEXT) FROM {where} "
                    f"WHERE typeof({name}) NOT IN {allowed} LIMIT 20"
                ).all():
                    problems.append(
                        f"{where} row {rowid}: {name} is {found} {value!r}, not a whole number"
                    )
            elif sqlite and isinstance(kind, String | DateTime):
                problems += _texts(
                    conn, where, name, bool(column.nullable), isinstance(kind, DateTime)
                )
            elif name in JSON_COLUMNS.get(where, ()):
                problems += _json_texts(conn, where, name)
    return problems


def _texts(conn: Connection, table: str, column: str, nullable: bool, time: bool) -> list[str]:
    """SQLite: a column of text holds UTF-8 text (a time: ISO 8601; JSON: JSON)."""
    problems = []
    json_text = column in JSON_COLUMNS.get(table, ())
    for rowid, found, raw in conn.exec_driver_sql(
        f"SELECT rowid, typeof({column}), CAST({column} AS BLOB) FROM {table}"
    ).all():
        if found == "null" and nullable:
            continue
        where = f"{table} row {rowid}: {column}"
        if found != "text":
            problems.append(f"{where} is {found}, not text")
            continue
        try:
            decoded = bytes(raw).decode("utf-8")
            if time:
                datetime.fromisoformat(decoded)
        except UnicodeDecodeError:
            problems.append(f"{where} is not UTF-8 text")
            continue
        except ValueError:
            problems.append(f"{where} is not a time: {decoded[:60]!r}")
            continue
        if json_text:
            problems += _readable(where, JSON_COLUMNS[table][column], decoded)
        if len(problems) >= 20:
            break
    return problems


def _json_texts(conn: Connection, table: str, column: str) -> list[str]:
    """PostgreSQL: a column of JSON text holds JSON."""
    problems = []
    for key, body in conn.execute(text(f"SELECT id, {column} FROM {table}")).all():
        if body is not None:
            problems += _readable(f"{table} {key}: {column}", JSON_COLUMNS[table][column], body)
    return problems


def _readable(where: str, read: Callable[[Any], object], body: str) -> list[str]:
    """JSON text that reads as what its column holds (a line, house rules, an event)."""
    try:
        data = json.loads(body)
    except ValueError:
        return [f"{where} is not JSON: {body[:60]!r}"]
    try:
        read(data)
    except _SHAPES as err:
        return [f"{where} is not what it should hold ({err}): {body[:60]!r}"]
    return []


def damage(url: str) -> list[str]:
    """The damage :func:`storage` finds in the ledger at ``url`` (none: it is sound), looked
    for after a command met data it could not read; read-only, on a connection of its own."""
    from db.engine import connect

    try:
        with connect(url, write=False).connect() as conn:
            return storage(conn)
    except (ChouetteError, DBAPIError, ValueError) as err:
        return [str(err)]
