"""Where chouette keeps things: the default ledger in the XDG data folder (an older ledger
in the configuration folder still found), and ``chouette where`` saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import default_database


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of its own, with no ledger named by the environment."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "CHOUETTE_DB"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_the_default_ledger_is_in_the_xdg_data_folder(home, monkeypatch):
    assert default_database() == home / ".local/share/chouette/chouette.db"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert default_database() == home / "data/chouette/chouette.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # the spec: ignored when relative
    assert default_database() == home / ".local/share/chouette/chouette.db"


def test_a_ledger_kept_where_an_older_chouette_kept_it_is_still_used(home):
    older = home / ".config/chouette/chouette.db"
    older.parent.mkdir(parents=True)
    older.write_bytes(b"")
    assert default_database() == older
    newer = home / ".local/share/chouette/chouette.db"
    newer.parent.mkdir(parents=True)
    newer.write_bytes(b"")
    assert default_database() == newer  # once there is one in the data folder, that one


def test_where_names_the_ledger_what_chose_it_and_the_session(chouette, ledger_file):
    chouette("new", "fri", "ann", "bob")
    found = chouette.json("where")
    assert found["ledger"] == str(ledger_file)
    assert found["ledger_from"] == "CHOUETTE_DB"
    assert found["exists"] is True
    assert (found["session"], found["session_from"]) == ("fri", "last")
    text = chouette("where").stdout
    assert text.startswith(
        f"Ledger:   {ledger_file} (exists), from CHOUETTE_DB\nSession:  fri (the one used last)\n"
    )
    assert f"\nSettings: CHOUETTE_DB={ledger_file}, CHOUETTE_NOW=" in text  # (the tests' clock)
    named = chouette("--session", "sat", "where").stdout.splitlines()[1]
    assert (
        named
        == "Session:  sat (from --session, but there is no session called sat (sessions: fri))"
    )


def test_where_hides_a_pin_and_a_password(chouette, monkeypatch):
    monkeypatch.setenv("CHOUETTE_PIN", "123456")
    url = "postgresql+psycopg://club:s3cret@127.0.0.1:1/club"
    found = chouette.json("--db", url, "where")
    assert found["environment"]["CHOUETTE_PIN"] == "set"
    assert found["ledger"] == "postgresql+psycopg://club:***@127.0.0.1:1/club"
    assert found["ledger_from"] == "--db"
    assert "s3cret" not in chouette("--db", url, "where").output
    assert "123456" not in chouette("--db", url, "where").output


def test_where_hides_the_password_of_the_ledger_chouette_db_names(chouette, monkeypatch):
    """Issue 34: the Settings line showed CHOUETTE_DB as it is, password and all, which
    the banner and every error mask (a libpq ``password=`` parameter too)."""
    for url in (
        "postgresql+psycopg://club:s3cret@127.0.0.1:1/club",
        "postgresql+psycopg://club@127.0.0.1:1/club?password=s3cret&connect_timeout=1",
    ):
        monkeypatch.setenv("CHOUETTE_DB", url)
        text = chouette("where").output
        found = chouette.json("where")
        assert "s3cret" not in text and "s3cret" not in json.dumps(found)
        assert "***" in found["environment"]["CHOUETTE_DB"]
        assert "Settings: CHOUETTE_DB=postgresql+psycopg://club" in text
