"""Fixtures: every test gets its own empty ledger and a pinned clock.

The ledger is an SQLite file in ``tmp_path``. A test module that says
``pytestmark = pytest.mark.backends("sqlite", "postgres")`` runs each of its tests twice,
with the ids ``sqlite`` and ``postgres``: the second time on a fresh database of a real
PostgreSQL server (``tests/pg.py``), started once for the run. A test of SQLite itself
(pragmas, the file, an old schema file) says ``@pytest.mark.backends("sqlite")``.
``ledger_url`` is the database's SQLAlchemy URL on either backend; ``ledger_file`` is the
SQLite file.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path

import pytest
import typer
from hypothesis import settings
from typer.testing import CliRunner, Result

import typer_internals
from tests.examples import PROFILE

pytest_plugins = ["tests.pg"]


def _command_once(app: typer.Typer) -> object:
    """chouette's Click command, made once for the run, as the CLI makes it once a process
    (``cli.get_command_once``: the table prompt and ``serve`` run many commands through
    it). Typer's CliRunner would make it anew for every command a test runs: every
    command's parameters read from its signature, nine tenths of a test command's time."""
    from cli import app as chouette_app
    from cli import get_command_once

    return get_command_once() if app is chouette_app else _make_command(app)


_make_command = typer_internals.run_tests_through(_command_once)

# Hypothesis profiles: ``ci`` (the default, what CI runs) tries every law as many times as
# each test asks; ``dev`` (HYPOTHESIS_PROFILE=dev, the quick loop) a fifth of that.
settings.register_profile("ci", deadline=None)
settings.register_profile("dev", deadline=None, max_examples=20)
settings.load_profile(PROFILE)

NOW = "2026-11-20T20:00:00+00:00"
BACKENDS = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "backends(*names): run the test on these ledger backends (sqlite, postgres); "
        "default sqlite",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is None or "backend" not in metafunc.fixturenames:
        return
    unknown = set(marker.args) - set(BACKENDS)
    if unknown or not marker.args:
        raise pytest.UsageError(f"backends({marker.args}): choose from {BACKENDS}")
    if marker.args == ("sqlite",):
        return  # the default: no id suffix
    metafunc.parametrize(
        "backend",
        [
            pytest.param(name, id=name, marks=[pytest.mark.postgres] if name == "postgres" else [])
            for name in marker.args
        ],
        indirect=True,
    )


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database this test runs on: ``sqlite`` or ``postgres``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(autouse=True)
def ledger_url(
    request: pytest.FixtureRequest,
    backend: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[str]:
    """The test's own empty ledger (``CHOUETTE_DB`` points at it) and a pinned clock."""
    from db.engine import dispose_all

    monkeypatch.setenv("CHOUETTE_NOW", NOW)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the table's history, say
    monkeypatch.delenv("FORCE_COLOR", raising=False)  # exact outputs are plain text
    monkeypatch.setenv("LANGUAGE", "en")  # English, whatever the machine speaks
    monkeypatch.delenv("CHOUETTE_LANG", raising=False)
    if backend == "postgres":
        url = request.getfixturevalue("postgres_server").fresh_ledger()
        monkeypatch.setenv("CHOUETTE_DB", url)
        yield url
        dispose_all()
        return
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("CHOUETTE_DB", str(path))
    yield f"sqlite:///{path}"
    dispose_all()


@pytest.fixture
def ledger_file(backend: str, tmp_path: Path) -> Path:
    """The SQLite file of the test's ledger (SQLite tests only: elsewhere use ``ledger_url``)."""
    if backend != "sqlite":
        pytest.fail("ledger_file is the SQLite file: use ledger_url, or mark the test sqlite")
    return tmp_path / "ledger.db"


#: The ledger files :meth:`Chouette.built` made, by what made them.
_BEGUN: dict[Hashable, bytes] = {}


class Chouette:
    """``chouette(...)`` as a user types it, through Typer's CliRunner."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, code: int | None = 0) -> Result:
        """Run the command; its exit code must be ``code`` (None: whatever it is)."""
        from cli import app

        result = self.runner.invoke(app, list(args), input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if code is not None:
            assert result.exit_code == code, (result.stdout, result.stderr)
        return result

    def begun(self, *commands: tuple[str, ...]) -> None:
        """The test's ledger as ``commands`` leave a new one (each must succeed). On SQLite
        the ledger is made once a run for these commands and its file copied: a new ledger
        costs as much as the rest of a small test, and the pinned clock makes every copy
        the ledger the commands would have made. A test of the commands themselves runs
        them."""

        def run(chouette: Chouette) -> None:
            for command in commands:
                chouette(*command)

        self.built(run, commands)

    def built(self, build: Callable[[Chouette], None], key: Hashable = None) -> None:
        """The test's ledger as ``build(chouette)`` leaves a new one: on SQLite, made once a
        run (for ``build``, or ``key``: the same key, the same ledger) and copied, as
        :meth:`begun` does; on PostgreSQL, built."""
        from db.engine import dispose_all

        target = os.environ["CHOUETTE_DB"]
        if "://" in target:  # PostgreSQL: built
            build(self)
            return
        key = build if key is None else key
        if key not in _BEGUN:
            with tempfile.TemporaryDirectory() as made:
                os.environ["CHOUETTE_DB"] = str(Path(made) / "ledger.db")
                try:
                    build(self)
                    dispose_all()  # every connection closed: the file holds the whole ledger
                    assert [p.name for p in Path(made).iterdir()] == ["ledger.db"]
                    _BEGUN[key] = (Path(made) / "ledger.db").read_bytes()
                finally:
                    os.environ["CHOUETTE_DB"] = target
        Path(target).write_bytes(_BEGUN[key])

    def json(self, *args: str) -> object:
        import json

        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def chouette() -> Chouette:
    return Chouette()


def in_zone(monkeypatch: pytest.MonkeyPatch, zone: str) -> Iterator[None]:
    """A fixture's body: the reader's clock in the time zone ``zone`` while the test runs."""
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
