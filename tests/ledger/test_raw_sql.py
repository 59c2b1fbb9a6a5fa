"""SQLModel is the one schema: the SQL that runs without the ORM names only what it declares.

The reports, a Tab of shell completion and the import read and write with plain SQL for
speed (db/reads.py, db/names.py, db/reading.py, db/bulk.py, …). A model's table or column
renamed, or taken away, must not leave such a statement behind to fail in the field, or
worse to read another column by position. So every SQL text in the code (outside
db/migrations.py, which keeps each old schema as it was) is read here, and each table and
column it names is looked up in the models' metadata, an ``alias.column`` in its own
table; ``SELECT *`` (columns by position) and an ``INSERT`` that names no columns are
refused. The statements whose names are made at run time (db/bulk.py's batches) take them
from the models themselves, and refuse a column a model lacks.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import MetaData
from sqlmodel import SQLModel

import db.models  # noqa: F401  (registers the tables)
from tests.paths import ROOT

#: Where SQL is written: every module of the ledger, the server and the command line. The
#: migrations are left out: each creates or alters the tables as they were at its version.
SOURCES = sorted([*(ROOT / "db").glob("*.py"), *(ROOT / "web").glob("*.py"), ROOT / "cli.py"])
FROZEN = {ROOT / "db" / "migrations.py"}

#: How an SQL text starts, a statement or a clause added to one (the house writes SQL's
#: keywords in capitals; a help text's ``FROM owes TO`` starts otherwise).
STATEMENT = re.compile(
    r"\s*\(?\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM|WITH|COPY|AND|OR|WHERE|ORDER BY"
    r"|GROUP BY|LIMIT|(LEFT )?JOIN|FROM|ON CONFLICT)\b"
)
#: A name as SQL reads it: "quoted", or a word (capitals: a keyword), or a parameter.
TOKEN = re.compile(r"'(?:[^']|'')*'|\"[^\"]+\"|[:%]?[A-Za-z_][A-Za-z0-9_]*|\S")
#: What follows a table's name and is no alias.
NOT_ALIAS = {"ON", "WHERE", "ORDER", "GROUP", "LIMIT", "JOIN", "LEFT", "INNER", "SET", "AS"}
#: What an f-string puts in that is made at run time: left unchecked here.
MADE = "__made__"
#: SQLite's own column of every table.
PSEUDO = {"rowid"}
#: The databases' catalogues (integrity checks, the schema stamp), which no model declares.
CATALOGUE = re.compile(r"^(sqlite_\w+|pg_catalog\.\w+)$")


@dataclass(frozen=True)
class Sql:
    """One SQL text of the code: where it is, and the texts beside it in its function (a
    clause added to a statement names the statement's tables there)."""

    where: str
    text: str
    scope: tuple[str, ...]


def schema(metadata: MetaData) -> dict[str, set[str]]:
    """Each table's columns, by the table's name."""
    return {name: {c.name for c in table.columns} for name, table in metadata.tables.items()}


def constants(tree: ast.Module) -> dict[str, str]:
    """The module's own string constants (``SESSION_COLUMNS = "id, name, …"``)."""
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def text_of(node: ast.expr, known: Mapping[str, str]) -> str | None:
    """The text of a string, an f-string (a module's constant put in; anything else made at
    run time as :data:`MADE`) or a sum of them; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                inner = value.value
                name = inner.id if isinstance(inner, ast.Name) else None
                parts.append(known.get(name or "", f" {MADE} "))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text_of(node.left, known), text_of(node.right, known)
        return None if left is None or right is None else left + right
    return None


@functools.cache
def sql_texts(path: Path) -> tuple[Sql, ...]:
    """Every SQL text of a module, docstrings aside (read once a run: the tests that rename
    a column read the same sources, which cost a second each time)."""
    return tuple(_sql_texts(path))


def _sql_texts(path: Path) -> Iterator[Sql]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    known = constants(tree)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    seen: set[int] = set()
    for scope in reversed(scopes):  # the innermost function first: its texts are its own
        found: list[tuple[int, str]] = []
        for node in ast.walk(scope):
            if id(node) in seen or id(node) in docstrings or not isinstance(node, ast.expr):
                continue
            text = text_of(node, known)
            if text is None:
                continue
            for inner in ast.walk(node):  # a sum's parts are not texts of their own
                seen.add(id(inner))
            if STATEMENT.match(text):
                found.append((node.lineno, text))
        texts = tuple(text for _, text in found)
        for line, text in found:
            yield Sql(f"{path.relative_to(ROOT)}:{line}", text, texts)


def tables_in(text: str) -> dict[str, str]:
    """The tables a text names, by the alias it gives each (a table is its own alias)."""
    words = [w.strip('"') for w in TOKEN.findall(text)]
    found: dict[str, str] = {}
    for i, word in enumerate(words[:-1]):
        table = words[i + 1]
        if (
            word in ("FROM", "JOIN", "INTO", "UPDATE")
            and (i == 0 or words[i - 1] != "DO")  # ON CONFLICT … DO UPDATE SET
            and re.fullmatch(r"[a-z_][a-z0-9_]*", table)
            and (i + 2 >= len(words) or words[i + 2] != "(" or word == "INTO")  # a function
        ):
            if table == "pg_catalog" and i + 3 < len(words):  # pg_catalog.pg_class
                table = "pg_catalog." + words[i + 3]
                after = words[i + 4] if i + 4 < len(words) else ""
            else:
                after = words[i + 2] if i + 2 < len(words) else ""
            found[table] = table
            if (
                re.fullmatch(r"[a-z_][a-z0-9_]*", after)
                and after.upper() not in NOT_ALIAS
                and after != MADE
            ):
                found[after] = table
            if word == "INTO":
                found["excluded"] = table  # INSERT … ON CONFLICT … excluded.column
    return found


def problems(sql: Sql, tables: Mapping[str, set[str]]) -> list[str]:
    """What the text names that the models do not declare, each said with where it is."""
    aliases: dict[str, str] = {}
    for text in sql.scope:
        aliases |= tables_in(text)
    mine = tables_in(sql.text)
    aliases |= mine
    named = set((mine or aliases).values())  # a clause alone: its statement's tables
    if any(CATALOGUE.match(t) for t in named):
        return []  # a catalogue's columns are the database's, not the models'
    said = [f"{sql.where}: table {t!r} is no model's" for t in named - set(tables) - {MADE}]
    if said:
        return said
    named.discard(MADE)  # a table named at run time (db/bulk.py): its model checks it
    in_scope = set().union(*(tables[t] for t in named or tables))
    if re.search(r"SELECT\s+(DISTINCT\s+)?(\w+\.)?\*", sql.text):
        said.append(f"{sql.where}: SELECT * reads columns by their place, not their names")
    if re.search(r"INSERT INTO\s+\S+\s+(VALUES|SELECT)\b", sql.text):
        said.append(f"{sql.where}: an INSERT that names no columns")
    words = TOKEN.findall(sql.text)
    for i, word in enumerate(words):
        name = word.strip('"')
        before = words[i - 1] if i else ""
        after = words[i + 1] if i + 1 < len(words) else ""
        if (
            not re.fullmatch(r"[a-z_][a-z0-9_]*", name)  # a keyword, a mark, a literal
            or name in aliases
            or name in PSEUDO
            or name == MADE
            or (after == "(" and not word.startswith('"') and before != "INTO")  # a function
            or before == "AS"  # a name given in the statement
            or (before == "." and i >= 2 and words[i - 2] in aliases)  # checked below
        ):
            if before == "." and i >= 2 and words[i - 2] in aliases:
                table = aliases[words[i - 2]]
                if name not in tables.get(table, set()) | PSEUDO:
                    said.append(f"{sql.where}: {table} has no column {name!r}")
            continue
        if name not in in_scope:
            where = ", ".join(sorted(named)) or "any table"
            said.append(f"{sql.where}: {name!r} is no column of {where}")
    return said


def all_problems(tables: Mapping[str, set[str]]) -> list[str]:
    return [
        problem
        for path in SOURCES
        if path not in FROZEN
        for sql in sql_texts(path)
        for problem in problems(sql, tables)
    ]


def test_every_sql_text_names_only_the_models_tables_and_columns():
    assert all_problems(schema(SQLModel.metadata)) == []


def test_the_check_reads_the_sql_of_the_reports_a_tab_and_the_import():
    """The check sees the statements it is for (else it would pass by reading nothing)."""
    places = {
        sql.where.split(":")[0] for path in SOURCES if path not in FROZEN for sql in sql_texts(path)
    }
    for module in ("db/reads.py", "db/names.py", "db/reading.py", "db/bulk.py", "db/ledger.py"):
        assert module in places
    texts = [sql.text for sql in sql_texts(ROOT / "db" / "reads.py")]
    assert any("FROM booking b JOIN session s ON s.id = b.session_id" in t for t in texts)
    assert any(t.startswith("SELECT id, name, stake_cents") for t in texts)  # a constant put in


def renamed(table: str, column: str, new: str) -> MetaData:
    """A copy of the models' metadata with one column renamed, as a model's change would."""
    copy = MetaData()
    for found in SQLModel.metadata.tables.values():
        found.to_metadata(copy)
    copy.tables[table].c[column].name = new
    return copy


@pytest.mark.parametrize(
    ("table", "column", "uses"),
    [
        ("game", "number", ["db/reads.py"]),
        ("game", "game_key", ["db/ledger.py"]),
        ("session", "night", ["db/reads.py", "db/names.py"]),
        ("booking", "player", ["db/reads.py"]),
        ("session", "line", ["db/reads.py", "db/names.py"]),
        ("setting", "key", ["db/names.py"]),
        ("balance", "cents", ["db/reads.py", "db/bulk.py"]),
    ],
)
def test_a_renamed_column_fails_the_check_at_every_raw_statement_left_behind(table, column, uses):
    """Rename a model's column and the SQL still naming the old one is found, loudly: in the
    reports' reads, a Tab's names, the import's batches."""
    found = all_problems(schema(renamed(table, column, column + "_renamed")))
    assert found, f"renaming {table}.{column} went unnoticed"
    assert {problem.split(":")[0] for problem in found} >= set(uses)
    assert all(repr(column) in problem for problem in found)


def test_a_renamed_table_fails_the_check():
    copy = MetaData()
    for found in SQLModel.metadata.tables.values():
        found.to_metadata(copy, name="payments" if found.name == "payment" else None)
    found = all_problems(schema(copy))
    assert any("table 'payment' is no model's" in problem for problem in found)


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * FROM game WHERE session_id = ?",
        "SELECT g.* FROM game g",
        "INSERT INTO booking VALUES (?, ?)",
        "SELECT number FROM game g JOIN session s ON s.id = g.sesion_id",
        "SELECT nmber FROM game",
        'SELECT value FROM setting WHERE "kee" = ?',
        "SELECT s.night FROM sessions s",
    ],
)
def test_the_check_refuses_what_a_model_does_not_declare(text):
    sql = Sql("here:1", text, (text,))
    assert problems(sql, schema(SQLModel.metadata))


def test_a_clause_added_to_a_statement_is_checked_against_its_tables():
    scope = ("SELECT player FROM balance WHERE points != 0", " AND session_id = ?", " AND nmbr = ?")
    tables = schema(SQLModel.metadata)
    assert problems(Sql("here:1", scope[1], scope), tables) == []
    assert problems(Sql("here:2", scope[2], scope), tables) == [
        "here:2: 'nmbr' is no column of balance"
    ]


def test_a_batch_names_its_table_and_columns_by_the_models_attributes():
    """db/bulk.py's batches make their statements at run time, from names the models give:
    a column renamed in a model is renamed in every batch (a type error, and an
    AttributeError at import, where the old name is still used)."""
    import db.ledger
    from db.bulk import Columns, columns_of
    from db.models import BookingRow, GameRow

    assert columns_of(GameRow.id, GameRow.number) == ("game", ("id", "number"))
    with pytest.raises(ValueError, match="the columns of one table"):
        columns_of(GameRow.id, BookingRow.player)
    tables = schema(SQLModel.metadata)
    batches = [v for v in vars(db.ledger).values() if isinstance(v, Columns)]
    assert len(batches) >= 8
    for table, names in batches:
        assert set(names) <= tables[table], (table, names)
    with pytest.raises(KeyError, match="no column 'nope'"):
        db.ledger.GAME_COLUMNS.without("nope")
