"""What a command loads when it starts: only what it needs.

``--help`` and shell completion load no database library; a report on an SQLite ledger
reads it with :mod:`sqlite3` alone (no SQLAlchemy, SQLModel or pydantic); a command that
writes loads the ORM. Which modules a process imports is deterministic, so these are exact
checks (how long they take is the benchmark's, bench/run.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from db.reading import SCHEMA, TABLES
from tests.paths import ROOT

ORM = {"sqlalchemy", "sqlmodel"}
PYDANTIC = {"pydantic", "pydantic_core"}  # SQLModel's models, and Typer's checks of a path
DATABASE = ORM | PYDANTIC | {"sqlite3", "_sqlite3", "psycopg"}
SERVER = {"starlette", "uvicorn", "jinja2"}

# The console script's own start (chouette/__main__.py), and the modules at its exit.
PROGRAM = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv[0] = "chouette"
from chouette.__main__ import run
run()
"""


def loaded(*args: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    """The top-level packages ``chouette ARGS`` imported, and what it printed."""
    modules, out = loaded_modules(*args, env=env)
    return {m.split(".")[0] for m in modules}, out


def loaded_modules(*args: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    """Every module ``chouette ARGS`` imported, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        timeout=120,  # a hang guard
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1])), done.stdout


def completion(words: str, ledger: Path) -> dict[str, str]:
    """The environment in which Typer answers a Tab after ``words`` (as bash asks)."""
    return {
        "_CHOUETTE_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split(" ")) - 1),
        "CHOUETTE_DB": str(ledger),
    }


@pytest.fixture
def evening(chouette, ledger_file):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")
    chouette("new", "saturday", "dan", "eve")
    chouette("--session", "friday", "double", "cat")
    return ledger_file


def test_help_loads_no_database_library_nor_the_server():
    modules, out = loaded("--help")
    assert "Keep score at a backgammon chouette" in out
    assert not modules & (DATABASE | SERVER | {"tabulate"})


def test_tabulate_is_loaded_only_to_print_a_table(evening):
    """tabulate lays out every terminal table, and only a command that prints one loads it:
    not ``status --json``, a Tab, CSV or JSON."""
    for args, env in (
        (["--db", str(evening), "status", "--json"], None),
        (["--db", str(evening), "ledger", "--format", "csv"], None),
        (["--db", str(evening), "sheet", "--json"], None),
        ([], completion("chouette take ", evening)),
    ):
        modules, out = loaded(*args, env=env)
        assert out, args
        assert "tabulate" not in modules, args
    for args in (["standings"], ["ledger", "--format", "markdown"], ["status"]):
        modules, out = loaded("--db", str(evening), *args)
        assert "-----" in out, args
        assert "tabulate" in modules, args


def test_completing_a_players_name_loads_no_database_library_but_sqlite3(evening):
    modules, out = loaded(env=completion("chouette take ", evening))
    assert out.split() == ["ann", "cat", "bob"]  # the line, as it turned after game 1
    assert not modules & (ORM | PYDANTIC | SERVER | {"psycopg"})
    modules, out = loaded(env=completion("chouette pay c", evening))
    assert out.split() == ["cat"]
    assert not modules & (ORM | PYDANTIC)


def test_a_tab_loads_neither_the_reports_reads_nor_the_games_model(evening):
    """A Tab reads names with plain SQL (db/names.py): the reports' reads (db/reads.py) and
    what they build sessions and games with are some seventy dataclasses, a third of a Tab."""
    for words, answer in (("chouette take ", ["ann", "cat", "bob"]), ("chouette night ", None)):
        modules, out = loaded_modules(env=completion(words, evening))
        assert answer is None or out.split() == answer
        assert not modules & {"db.reads", "chouette.game", "chouette.report", "chouette.card"}


def test_completing_a_sessions_name_loads_no_database_library_but_sqlite3(evening):
    modules, out = loaded(env=completion("chouette --session ", evening))
    assert out.split() == ["friday", "saturday"]
    assert not modules & (ORM | PYDANTIC | SERVER)
    modules, out = loaded(env=completion("chouette --session sa", evening))
    assert out.split() == ["saturday"]


@pytest.mark.parametrize(
    "args",
    [
        ["status", "--json"],
        ["status"],
        ["standings", "--all"],
        ["settle"],
        ["sheet", "--all", "--format", "csv"],
        ["ledger", "--json"],
        ["game", "1"],
        ["sessions"],
        ["report", "--html", "REPORT"],
    ],
    ids=lambda args: " ".join(args),
)
def test_a_report_on_an_sqlite_ledger_loads_no_orm(evening, tmp_path, args):
    """Nor pydantic, but where Typer checks a file's path (``--html FILE``)."""
    page = str(tmp_path / "page.html")
    modules, out = loaded("--db", str(evening), *[page if a == "REPORT" else a for a in args])
    assert out
    assert "sqlite3" in modules
    assert not modules & (ORM | SERVER)
    assert not modules & PYDANTIC or "REPORT" in args


def test_a_command_that_writes_loads_the_orm(evening):
    modules, out = loaded("--db", str(evening), "take", "cat")
    assert out.startswith("Game 2: cat takes.")
    assert modules >= {"sqlalchemy", "sqlmodel"}


def test_a_command_that_writes_loads_the_export_lines_models_only_to_restore(evening, tmp_path):
    """Every command that writes seals its sessions' chains with db/transfer.py, whose export
    reader's pydantic models (db/export_lines.py) only a restore needs."""
    modules, out = loaded_modules("--db", str(evening), "take", "cat")
    assert out.startswith("Game 2: cat takes.")
    assert "db.transfer" in modules
    assert "db.export_lines" not in modules
    export = tmp_path / "friday.jsonl"
    loaded_modules("--db", str(evening), "export", str(export))
    modules, out = loaded_modules("--db", str(tmp_path / "new.db"), "import", str(export))
    assert out.startswith("Restored 2 sessions")
    assert "db.export_lines" in modules


def test_a_ledger_of_an_older_schema_is_read_the_orms_way(evening):
    """The quick way reads only the schema it knows; anything else goes the ORM's way,
    which says what is wrong as every command does."""
    import sqlite3

    conn = sqlite3.connect(evening)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA - 1,))
    conn.commit()
    conn.close()
    modules, out = loaded("--db", str(evening), "status")
    assert out == ""
    assert "sqlalchemy" in modules


def test_the_quick_way_knows_the_schema_the_orm_writes():
    """A new table or migration is named in db/reading.py too (else reports go the
    ORM's way, slower)."""
    from sqlmodel import SQLModel

    from db.migrations import LATEST

    assert SCHEMA == LATEST
    assert set(TABLES) == set(SQLModel.metadata.tables)


def test_the_tests_run_every_command_through_the_one_click_command(chouette, monkeypatch):
    """The tests' CliRunner takes chouette's Click command made once (tests/conftest.py),
    as the CLI does, rather than making it anew for every command (which cost a third of
    the suite): should Typer stop asking ``typer.testing._get_command`` for it, this says so."""
    import cli

    made = cli.get_command_once()
    asked: list[object] = []

    def once() -> object:
        asked.append(made)
        return made

    monkeypatch.setattr(cli, "get_command_once", once)
    chouette("--help")
    chouette("new", "friday", "ann", "bob", "cat")
    assert asked == [made, made]


def test_a_command_is_made_when_it_is_first_asked_for(monkeypatch):
    """The CLI's group makes each command from its function when a command line, a Tab or
    ``--help`` first asks for it (making all fifty-odd was a quarter of a Tab), and makes it
    as Typer would have made it at the start."""
    import typer.main

    import cli

    monkeypatch.setattr(cli, "_command", None)
    group = cli.get_command_once()
    assert group is cli.get_command_once()
    assert group.commands == {}
    eager = typer.main.get_command(cli.app)
    assert group.list_commands(None) == eager.list_commands(None)  # in the app's order
    take = group.get_command(None, "take")
    assert list(group.commands) == ["take"]
    assert group.get_command(None, "take") is take
    assert group.get_command(None, "nope") is None
    for name in eager.list_commands(None):
        made, expected = group.get_command(None, name), eager.get_command(None, name)
        assert type(made) is type(expected)
        assert (made.name, made.help, made.hidden) == (
            expected.name,
            expected.help,
            expected.hidden,
        )
        assert [p.name for p in made.params] == [p.name for p in expected.params]


def test_a_mistyped_command_is_answered_with_the_commands_it_may_mean(chouette):
    """Typer suggests from the commands made so far: the group makes them all first."""
    for words in (["tkae"], ["--db", "x.db", "stauts"]):
        result = chouette(*words, code=2)
        assert "Did you mean" in result.stderr, result.stderr
    assert "Did you mean 'take', 'table'?" in chouette("tkae", code=2).stderr
