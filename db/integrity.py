"""The ledger's storage, checked: the database's own checks, its schema and every stored value.

On SQLite, SQLite's own ``PRAGMA integrity_check`` (every page, every index entry) and
``PRAGMA foreign_key_check`` (no row refers to a row that is not there); on either database,
the schema as chouette makes it (:func:`schema`: no table, column, index, constraint,
trigger, view or rule added, dropped or changed), and every stored value readable as what
its column holds (whole numbers, times, UTF-8 text, and JSON that reads as a line, house
rules or an event). PostgreSQL enforces types and foreign keys itself, and checks its own
pages (with data checksums on).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Integer,
    String,
    Table,
    UniqueConstraint,
    inspect,
    text,
)
from sqlalchemy.exc import CompileError, DBAPIError
from sqlmodel import SQLModel

import db.models  # noqa: F401  (registers the tables)
from chouette.card import Origin
from chouette.errors import ChouetteError
from chouette.rules import HouseRules
from chouette.words import Said, Sayable, from_data, reason_of, said
from db.codec import charge_from_row, event_from_body, line_from_json


def _line(data: Any) -> object:
    return line_from_json(json.dumps(data))


def _detail(data: Any) -> object:
    if not isinstance(data, dict):
        raise TypeError(said("not an object"))
    return data


def _shares(data: Any) -> object:
    return charge_from_row("fee", "", 0, data, "")


#: Columns of JSON text, by table, and what each must read as.
JSON_COLUMNS: dict[str, dict[str, Callable[[Any], object]]] = {
    "session": {"rules": HouseRules.from_dict, "line": _line},
    "game": {"line_before": _line, "line_after": _line, "detail": _detail},
    "event": {"body": lambda data: event_from_body(json.dumps(data))},
    "action": {"detail": _detail},
    "preset": {"rules": HouseRules.from_dict},
    "session_origin": {"detail": Origin.from_dict},
    "charge": {"shares": _shares, "words": from_data},
}
_SHAPES = (ChouetteError, ValueError, KeyError, TypeError, AttributeError)


def storage(conn: Connection) -> list[Sayable]:
    """The database file (SQLite's own checks) and every stored value: readable as what its
    column holds."""
    problems: list[Sayable] = []
    if conn.dialect.name == "sqlite":
        try:
            found = [row[0] for row in conn.exec_driver_sql("PRAGMA integrity_check").all()]
        except DBAPIError as err:  # damaged where the check itself must read
            found = [str(err.orig)]
        if found != ["ok"]:
            problems += [
                said(
                    "the database file is damaged: {detail}",
                    detail=line.removeprefix("*** in database main ***\n").replace("\n", "; "),
                )
                for line in found
            ]
            return problems  # a damaged file: what is read from it cannot be trusted
        for table, rowid, parent, _ in conn.exec_driver_sql("PRAGMA foreign_key_check").all():
            problems.append(
                said(
                    "{table} row {rowid} refers to a row of {parent} that is not there",
                    table=table,
                    rowid=rowid,
                    parent=parent,
                )
            )
    return problems + schema(conn) + values(conn)


# ---------------------------------------------------------------- the schema


@dataclass(frozen=True)
class Shape:
    """A schema as the check compares it: each table's columns (name: type as the database
    writes it, and whether it may be null), primary key, indexes (name: columns and
    uniqueness), unique constraints and foreign keys; and the triggers, views and rules
    beside the tables (name: the table they act on)."""

    tables: dict[str, TableShape]
    triggers: dict[str, str]
    views: dict[str, str]
    rules: dict[str, str]


@dataclass(frozen=True)
class TableShape:
    columns: dict[str, tuple[str, bool]]
    key: tuple[str, ...]
    indexes: dict[str, tuple[tuple[str, ...], bool]]
    uniques: frozenset[tuple[str, ...]]
    references: frozenset[tuple[tuple[str, ...], str, tuple[str, ...]]]


def schema(conn: Connection) -> list[Said]:
    """What in the ledger's schema (on PostgreSQL: the schema it lives in) chouette does not
    make, or lacks what it makes: the file's tables, columns, indexes, constraints, triggers,
    views and rules against those of :func:`made`. A trigger planted on ``booking`` would
    change every booking as it is written; a dropped index or constraint lets rows in that
    the ledger refuses."""
    return compare(made(conn.dialect), found(conn))


def made(dialect: Any) -> Shape:
    """The schema chouette makes (a new ledger, or an older one migrated: the tests hold
    them equal), its types as ``dialect`` writes them."""
    tables = {table.name: _made_table(table, dialect) for table in SQLModel.metadata.sorted_tables}
    return Shape(tables, {}, {}, {})


def _made_table(table: Table, dialect: Any) -> TableShape:
    return TableShape(
        columns={
            c.name: (c.type.compile(dialect=dialect), bool(c.nullable)) for c in table.columns
        },
        key=tuple(c.name for c in table.primary_key.columns),
        indexes={
            str(i.name): (tuple(c.name for c in i.columns), bool(i.unique)) for i in table.indexes
        },
        uniques=frozenset(
            tuple(c.name for c in u.columns)
            for u in table.constraints
            if isinstance(u, UniqueConstraint)
        ),
        references=frozenset(
            (
                tuple(e.parent.name for e in f.elements),
                f.referred_table.name,
                tuple(e.column.name for e in f.elements),
            )
            for f in table.foreign_key_constraints
        ),
    )


def found(conn: Connection) -> Shape:
    """The ledger's schema as its database's catalogue holds it: on SQLite ``sqlite_master``,
    on PostgreSQL the catalogue of the ledger's schema (``current_schema()``)."""
    seen = inspect(conn)
    dialect = conn.dialect
    tables = {}
    for name in seen.get_table_names():
        indexes = {}
        for index in seen.get_indexes(name):
            if index.get("duplicates_constraint"):  # PostgreSQL: a unique constraint's own
                continue
            # an index on an expression: its expressions (its column names, None there)
            columns = tuple(str(c) for c in index.get("expressions") or index["column_names"])
            indexes[str(index["name"])] = (columns, bool(index["unique"]))
        tables[name] = TableShape(
            columns={
                c["name"]: (_kind(c["type"], dialect), bool(c["nullable"]))
                for c in seen.get_columns(name)
            },
            key=tuple(seen.get_pk_constraint(name)["constrained_columns"]),
            indexes=indexes,
            uniques=frozenset(tuple(u["column_names"]) for u in seen.get_unique_constraints(name)),
            references=frozenset(
                (
                    tuple(f["constrained_columns"]),
                    f["referred_table"],
                    tuple(f["referred_columns"]),
                )
                for f in seen.get_foreign_keys(name)
            ),
        )
    if dialect.name == "sqlite":
        beside = {
            kind: {
                str(n): str(t)
                for n, t in conn.exec_driver_sql(
                    f"SELECT name, tbl_name FROM sqlite_master WHERE type = '{kind}'"
                ).all()
            }
            for kind in ("trigger", "view")
        }
        return Shape(tables, beside["trigger"], beside["view"], {})
    triggers = conn.execute(
        text(
            "SELECT t.tgname, c.relname FROM pg_catalog.pg_trigger t "
            "JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND c.relnamespace = "
            "(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = current_schema())"
        )
    ).all()
    views = [*seen.get_view_names(), *seen.get_materialized_view_names()]
    rules = conn.execute(
        text(
            "SELECT rulename, tablename FROM pg_catalog.pg_rules "
            "WHERE schemaname = current_schema()"
        )
    ).all()
    return Shape(
        tables,
        {str(n): str(t) for n, t in triggers},
        {str(v): str(v) for v in views},
        {str(n): str(t) for n, t in rules},
    )


def _kind(kind: Any, dialect: Any) -> str:
    """A column's type as the database writes it (one SQLAlchemy does not know: its name)."""
    try:
        return str(kind.compile(dialect=dialect))
    except CompileError:
        return str(getattr(kind, "__visit_name__", kind)).upper()


#: What the schema holds beside its tables, said: one planted (on its table, or not), one
#: lacking; by kind (``trigger``, ``view``, ``rule``), whole sentences for each.
BESIDE: dict[str, tuple[Said, Said, Said]] = {
    "trigger": (
        said("the schema holds a trigger chouette does not make: {name} on {table}"),
        said("the schema holds a trigger chouette does not make: {name}"),
        said("the schema lacks the trigger {name}"),
    ),
    "view": (
        said("the schema holds a view chouette does not make: {name} on {table}"),
        said("the schema holds a view chouette does not make: {name}"),
        said("the schema lacks the view {name}"),
    ),
    "rule": (
        said("the schema holds a rule chouette does not make: {name} on {table}"),
        said("the schema holds a rule chouette does not make: {name}"),
        said("the schema lacks the rule {name}"),
    ),
}


def compare(want: Shape, have: Shape) -> list[Said]:
    """Each difference between the schema chouette makes and the ledger's, in words."""
    problems = []
    for name in sorted(have.tables.keys() - want.tables.keys()):
        problems.append(said("the schema holds a table chouette does not make: {name}", name=name))
    for name in sorted(want.tables.keys() - have.tables.keys()):
        problems.append(said("the schema lacks the table {name}", name=name))
    for name in sorted(want.tables.keys() & have.tables.keys()):
        problems += _table(name, want.tables[name], have.tables[name])
    for kind, wanted, held in (
        ("trigger", want.triggers, have.triggers),
        ("view", want.views, have.views),
        ("rule", want.rules, have.rules),
    ):
        on_table, alone, lacking = BESIDE[kind]
        for name in sorted(held.keys() - wanted.keys()):
            planted = on_table if held[name] != name else alone
            problems.append(_filled(planted, name=name, table=held[name]))
        for name in sorted(wanted.keys() - held.keys()):
            problems.append(_filled(lacking, name=name))
    return problems


def _filled(sentence: Said, **values: str) -> Said:
    """``sentence`` with the values its placeholders name."""
    wanted = {k: v for k, v in values.items() if "{" + k + "}" in sentence.text}
    return Said(sentence.text, tuple(wanted.items()))


def _table(name: str, want: TableShape, have: TableShape) -> list[Said]:
    problems = []
    for column in sorted(have.columns.keys() - want.columns.keys()):
        problems.append(
            said(
                "table {table} holds a column chouette does not make: {column} {kind}",
                table=name,
                column=column,
                kind=have.columns[column][0],
            )
        )
    for column in sorted(want.columns.keys() - have.columns.keys()):
        problems.append(said("table {table} lacks the column {column}", table=name, column=column))
    for column in sorted(want.columns.keys() & have.columns.keys()):
        if have.columns[column] != want.columns[column]:
            problems.append(
                said(
                    "column {column} is {found}, not {wanted}",
                    column=f"{name}.{column}",
                    found=_column(have.columns[column]),
                    wanted=_column(want.columns[column]),
                )
            )
    if have.key != want.key:
        problems.append(
            said(
                "table {table}'s primary key is ({found}), not ({wanted})",
                table=name,
                found=", ".join(have.key),
                wanted=", ".join(want.key),
            )
        )
    for index in sorted(have.indexes.keys() - want.indexes.keys()):
        problems.append(
            said(
                "table {table} holds an index chouette does not make: {index} {shape}",
                table=name,
                index=index,
                shape=_index(have.indexes[index]),
            )
        )
    for index in sorted(want.indexes.keys() - have.indexes.keys()):
        problems.append(
            said(
                "table {table} lacks the index {index} {shape}",
                table=name,
                index=index,
                shape=_index(want.indexes[index]),
            )
        )
    for index in sorted(want.indexes.keys() & have.indexes.keys()):
        if have.indexes[index] != want.indexes[index]:
            problems.append(
                said(
                    "index {index} of table {table} is {found}, not {wanted}",
                    index=index,
                    table=name,
                    found=_index(have.indexes[index]),
                    wanted=_index(want.indexes[index]),
                )
            )
    for columns in sorted(have.uniques - want.uniques):
        problems.append(
            said(
                "table {table} holds a unique constraint chouette does not make: ({columns})",
                table=name,
                columns=", ".join(columns),
            )
        )
    for columns in sorted(want.uniques - have.uniques):
        problems.append(
            said(
                "table {table} lacks its unique constraint on ({columns})",
                table=name,
                columns=", ".join(columns),
            )
        )
    for columns, table, keys in sorted(have.references - want.references):
        problems.append(
            said(
                "table {table} holds a foreign key chouette does not make: ({columns}) to "
                "{parent} ({keys})",
                table=name,
                columns=", ".join(columns),
                parent=table,
                keys=", ".join(keys),
            )
        )
    for columns, table, keys in sorted(want.references - have.references):
        problems.append(
            said(
                "table {table} lacks its foreign key ({columns}) to {parent} ({keys})",
                table=name,
                columns=", ".join(columns),
                parent=table,
                keys=", ".join(keys),
            )
        )
    return problems


def _column(shape: tuple[str, bool]) -> str:
    """A column's type as SQL writes it (``INTEGER NOT NULL``): the same in every language."""
    kind, nullable = shape
    return f"{kind}{'' if nullable else ' NOT NULL'}"


def _index(shape: tuple[tuple[str, ...], bool]) -> Said:
    columns, unique = shape
    if unique:
        return said("unique on ({columns})", columns=", ".join(columns))
    return said("on ({columns})", columns=", ".join(columns))


def values(conn: Connection) -> list[Said]:
    """Every stored value readable as its column's kind: whole numbers (SQLite keeps any
    value in any column), times, UTF-8 text, JSON."""
    problems: list[Said] = []
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
                        said(
                            "{where} is {kind} {value}, not a whole number",
                            where=_row(where, rowid, name),
                            kind=found,
                            value=repr(value),
                        )
                    )
            elif sqlite and isinstance(kind, String | DateTime):
                problems += _texts(
                    conn, where, name, bool(column.nullable), isinstance(kind, DateTime)
                )
            elif name in JSON_COLUMNS.get(where, ()):
                problems += _json_texts(conn, where, name)
    return problems


def _row(table: str, rowid: int, column: str) -> Said:
    """A stored value, by its table, row and column: ``game row 3: detail``."""
    return said("{table} row {rowid}: {column}", table=table, rowid=rowid, column=column)


def _texts(conn: Connection, table: str, column: str, nullable: bool, time: bool) -> list[Said]:
    """SQLite: a column of text holds UTF-8 text (a time: ISO 8601; JSON: JSON)."""
    problems = []
    json_text = column in JSON_COLUMNS.get(table, ())
    for rowid, found, raw in conn.exec_driver_sql(
        f"SELECT rowid, typeof({column}), CAST({column} AS BLOB) FROM {table}"
    ).all():
        if found == "null" and nullable:
            continue
        where = _row(table, rowid, column)
        if found != "text":
            problems.append(said("{where} is {kind}, not text", where=where, kind=found))
            continue
        try:
            decoded = bytes(raw).decode("utf-8")
            if time:
                datetime.fromisoformat(decoded)
        except UnicodeDecodeError:
            problems.append(said("{where} is not UTF-8 text", where=where))
            continue
        except ValueError:
            problems.append(
                said("{where} is not a time: {value}", where=where, value=repr(decoded[:60]))
            )
            continue
        if json_text:
            problems += _readable(where, JSON_COLUMNS[table][column], decoded)
        if len(problems) >= 20:
            break
    return problems


def _json_texts(conn: Connection, table: str, column: str) -> list[Said]:
    """PostgreSQL: a column of JSON text holds JSON."""
    problems = []
    for key, body in conn.execute(text(f"SELECT id, {column} FROM {table}")).all():
        if body is not None:
            problems += _readable(f"{table} {key}: {column}", JSON_COLUMNS[table][column], body)
    return problems


def _readable(where: Sayable, read: Callable[[Any], object], body: str) -> list[Said]:
    """JSON text that reads as what its column holds (a line, house rules, an event)."""
    try:
        data = json.loads(body)
    except ValueError:
        return [said("{where} is not JSON: {body}", where=where, body=repr(body[:60]))]
    try:
        read(data)
    except _SHAPES as err:
        reason = reason_of(err)
        return [
            said(
                "{where} is not what it should hold ({reason}): {body}",
                where=where,
                reason=reason,
                body=repr(body[:60]),
            )
        ]
    return []


def damage(url: str) -> list[Sayable]:
    """The damage :func:`storage` finds in the ledger at ``url`` (none: it is sound), looked
    for after a command met data it could not read; read-only, on a connection of its own."""
    from db.engine import connect

    try:
        with connect(url, write=False).connect() as conn:
            return storage(conn)
    except ChouetteError as err:
        return [err.said]
    except (DBAPIError, ValueError) as err:
        return [reason_of(err)]
