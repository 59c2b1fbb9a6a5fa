"""Fixtures: every test gets its own ledger file and a pinned clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

NOW = "2026-11-20T20:00:00+00:00"


@pytest.fixture(autouse=True)
def ledger_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("CHOUETTE_DB", str(path))
    monkeypatch.setenv("CHOUETTE_NOW", NOW)
    yield path
    from db.engine import dispose_all

    dispose_all()


class Chouette:
    """``chouette(...)`` as a user types it, through Typer's CliRunner."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, code: int = 0) -> Result:
        from cli import app

        result = self.runner.invoke(app, list(args), input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code == code, (result.stdout, result.stderr)
        return result

    def json(self, *args: str) -> object:
        import json

        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def chouette() -> Chouette:
    return Chouette()
