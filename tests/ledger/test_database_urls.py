"""A ledger's URL options are honoured or refused, never passed on unread: an SQLite URL's
``?mode=ro`` opens the ledger read-only (reports work, writes are refused, no SQLAlchemy
warning); a PostgreSQL URL's ``options=-csearch_path=club`` puts the ledger in schema
``club`` on a real server; any other option is refused, named."""

from __future__ import annotations

import warnings

import pytest
from sqlalchemy import create_engine, text

from chouette.errors import ChouetteError
from db.urls import UrlOptions, url_options
from tests.dump import dump

SQLITE_TAKES = "(an SQLite ledger's URL takes mode=ro only: the ledger opened read-only)"
POSTGRES_TAKES = (
    "(a PostgreSQL URL takes libpq's connection parameters, such as sslmode or "
    "connect_timeout, and options=-csearch_path=SCHEMA)"
)


@pytest.mark.parametrize(
    ("url", "read"),
    [
        ("sqlite:////srv/club.db", UrlOptions("sqlite:////srv/club.db")),
        ("sqlite:////srv/club.db?mode=ro", UrlOptions("sqlite:////srv/club.db", read_only=True)),
        (
            "postgresql+psycopg://u:p@db/club?options=-csearch_path%3Dclub&sslmode=require",
            UrlOptions("postgresql+psycopg://u:p@db/club?sslmode=require", schema="club"),
        ),
        (
            "postgresql+psycopg://u@db/club?options=-c%20search_path%3DClub",
            UrlOptions("postgresql+psycopg://u@db/club", schema="club"),
        ),
        (
            "postgresql+psycopg://u@db/club?options=--search-path%3Dclub",
            UrlOptions("postgresql+psycopg://u@db/club", schema="club"),
        ),
    ],
)
def test_the_options_chouette_takes_are_read(url, read):
    assert url_options(url) == read


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("sqlite:////srv/club.db?mode=rw", "the ledger's URL says mode=rw: an SQLite ledger's "
         "URL takes mode=ro only: the ledger opened read-only"),
        ("sqlite:////srv/club.db?timeout=5", "the ledger's URL has an option chouette does not "
         f"take: timeout {SQLITE_TAKES}"),
        ("sqlite:////srv/club.db?uri=true&immutable=1", "the ledger's URL has options chouette "
         f"does not take: immutable, uri {SQLITE_TAKES}"),
        ("sqlite:////srv/club.db?mode=ro&mode=rw", "the ledger's URL gives mode twice: give it "
         "once"),
        ("postgresql+psycopg://u@db/club?mode=ro", "the database URL has an option chouette does "
         f"not take: mode {POSTGRES_TAKES}"),
        ("postgresql+psycopg://u@db/club?client_encoding=latin1", "the database URL has an "
         f"option chouette does not take: client_encoding {POSTGRES_TAKES}"),
        ("postgresql+psycopg://u@db/club?options=-c%20work_mem%3D1MB%20-clock_timeout%3D5",
         "the database URL's options set what chouette does not take: lock_timeout, work_mem (it "
         "takes -csearch_path=SCHEMA, the ledger's schema; CHOUETTE_LOCK_TIMEOUT sets the lock "
         "timeout)"),
        ("postgresql+psycopg://u@db/club?options=-csearch_path%3Dclub,public", "the database "
         "URL's search_path is 'club,public': name the one schema the ledger lives in (letters, "
         "digits and _)"),
        ("postgresql+psycopg://u@db/club?options=search_path", "the database URL's options hold "
         "'search_path': chouette takes -csearch_path=SCHEMA there"),
    ],
)  # fmt: skip
def test_other_options_are_refused_by_name(url, said):
    with pytest.raises(ChouetteError) as refused:
        url_options(url)
    assert str(refused.value) == said


@pytest.mark.backends("sqlite")
def test_an_sqlite_ledger_given_read_only_is_read_and_never_written(
    chouette, ledger_url, ledger_file
):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    before = dump(ledger_url)
    read_only = f"sqlite:///{ledger_file}?mode=ro"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no SQLAlchemy warning, raw or not
        standings = chouette("--db", read_only, "standings")
        assert standings.stderr == "" and "ann" in standings.stdout
        assert chouette("--db", read_only, "status", "--json").stderr == ""
        assert chouette("--db", read_only, "check").stderr == ""
        for command in (
            ["take", "bob"],
            ["pay", "ann", "bob", "1", "--advance"],
            ["undo"],
            ["migrate"],
        ):
            refused = chouette("--db", read_only, *command, code=1)
            assert refused.stderr == (
                f"Error: the ledger at {ledger_file} is opened read-only (mode=ro in its URL): "
                "this command writes, so nothing was written; leave ?mode=ro out of --db or "
                "CHOUETTE_DB to write\n"
            )
    assert dump(ledger_url) == before


@pytest.mark.backends("sqlite")
def test_a_new_ledger_is_never_made_through_a_read_only_url(chouette, tmp_path):
    missing = tmp_path / "new.db"
    chouette("--db", f"sqlite:///{missing}?mode=ro", "new", "friday", "ann", "bob", code=1)
    assert not missing.exists()


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("query", ["mode=rw", "timeout=5", "cache=shared&mode=ro"])
def test_an_sqlite_url_with_another_option_is_refused_without_a_warning(
    chouette, ledger_url, ledger_file, query
):
    chouette("new", "friday", "ann", "bob", "cat")
    before = dump(ledger_url)
    for command in (["standings"], ["pay", "ann", "bob", "1", "--advance"]):
        result = chouette("--db", f"sqlite:///{ledger_file}?{query}", *command, code=1)
        assert result.stderr.startswith("Error: the ledger's URL ")
        assert "Warning" not in result.stderr and "Traceback" not in result.stderr
    assert dump(ledger_url) == before


def schema_of(url: str) -> dict[str, list[str]]:
    """The tables of each schema but the server's own."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN "
                    "('pg_catalog', 'information_schema') ORDER BY 1, 2"
                )
            ).all()
    finally:
        engine.dispose()
    found: dict[str, list[str]] = {}
    for schema, table in rows:
        found.setdefault(schema, []).append(table)
    return found


@pytest.fixture
def club_schema(postgres_server) -> str:
    postgres_server.execute(
        "DROP SCHEMA IF EXISTS club CASCADE; CREATE SCHEMA club AUTHORIZATION chouette", "ledger"
    )
    return "club"


@pytest.mark.postgres
@pytest.mark.backends("postgres")
def test_a_postgres_ledger_lives_in_the_schema_its_url_names(chouette, ledger_url, club_schema):
    club = f"{ledger_url}?options=-csearch_path%3Dclub"
    chouette("--db", club, "new", "friday", "ann", "bob", "cat")
    chouette("--db", club, "double", "bob")
    chouette("--db", club, "take", "bob")
    chouette("--db", club, "end", "box")
    tables = schema_of(ledger_url)
    assert "public" not in tables  # the ledger did not land in public
    assert "booking" in tables["club"] and "schema_version" in tables["club"]
    assert chouette("--db", club, "check").stdout.startswith("The ledger is consistent")
    assert chouette.json("--db", club, "standings")["players"][0] == {
        "name": "ann",
        "points": 3,
        "cents": 300,
        "table_cents": 300,
        "paid_cents": 0,
    }
    # the same database without the option is another, empty, ledger
    assert "the ledger at" in chouette("--db", ledger_url, "standings", code=1).stderr


@pytest.mark.postgres
@pytest.mark.backends("postgres")
def test_a_postgres_url_naming_a_schema_that_is_not_there_is_refused(chouette, ledger_url):
    nowhere = f"{ledger_url}?options=-csearch_path%3Dnowhere"
    result = chouette("--db", nowhere, "new", "friday", "ann", "bob", code=1)
    shown = ledger_url.replace(":club-night@", ":***@")
    assert result.stderr == (
        f"Error: the database {shown}?options=-csearch_path%3Dnowhere has no schema nowhere "
        "that chouette's role may use (its URL's search_path names it): create it (CREATE "
        "SCHEMA nowhere) or correct the URL\n"
    )
    assert "public" not in schema_of(ledger_url)


@pytest.mark.postgres
@pytest.mark.backends("postgres")
def test_a_postgres_url_with_an_option_chouette_does_not_take_is_refused(chouette, ledger_url):
    for query in ("mode=ro", "options=-cwork_mem%3D1MB"):
        result = chouette("--db", f"{ledger_url}?{query}", "new", "friday", "ann", "bob", code=1)
        assert result.stderr.startswith("Error: the database URL")
    assert "public" not in schema_of(ledger_url)


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize(
    ("lang", "read_only", "options", "missing"),
    [
        (
            "da",
            "er åbnet skrivebeskyttet (mode=ro i dets URL)",
            "Fejl: regnskabets URL har en indstilling, chouette ikke tager: timeout (et SQLite",
            "Fejl: der er intet regnskab i ",
        ),
        (
            "cs",
            "je otevřená jen pro čtení (mode=ro v její URL)",
            "Chyba: URL knihy má volbu, kterou chouette nepřijímá: timeout (URL knihy SQLite",
            "Chyba: v ",
        ),
    ],
)
def test_the_ledgers_refusals_are_said_in_the_readers_language(
    chouette, ledger_file, tmp_path, lang, read_only, options, missing
):
    """db/engine.py and db/urls.py refuse a ledger in the terminal's language."""
    chouette("new", "friday", "ann", "bob", "cat")
    url = f"sqlite:///{ledger_file}"
    refused = chouette("--lang", lang, "--db", url + "?mode=ro", "take", "bob", code=1)
    assert read_only in refused.stderr
    refused = chouette("--lang", lang, "--db", url + "?timeout=5", "standings", code=1)
    assert refused.stderr.startswith(options)
    nowhere = chouette("--lang", lang, "--db", str(tmp_path / "none.db"), "standings", code=1)
    assert nowhere.stderr.startswith(missing) and "chouette new NAME" in nowhere.stderr
