"""``chouette check`` compares the ledger's schema with the one chouette makes: a trigger, a
view, a rule, a table or a column planted in the ledger, or an index or constraint dropped,
is named (on SQLite from ``sqlite_master``, on PostgreSQL from the catalogue of the
ledger's schema)."""

from __future__ import annotations

import json
import shutil

import pytest

from db.engine import connect, dispose_all
from db.integrity import compare, found, made
from tests.dump import execute
from tests.paths import DATA

pytestmark = pytest.mark.backends("sqlite", "postgres")

V1 = DATA / "ledger-v1.sqlite"

#: The issue's trigger: every booking written a cent richer than it was booked.
TRIGGER = {
    "sqlite": [
        "CREATE TRIGGER bump AFTER INSERT ON booking "
        "BEGIN UPDATE booking SET cents = cents + 1 WHERE id = new.id; END"
    ],
    "postgres": [
        "CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN UPDATE booking SET cents = cents + 1 WHERE id = NEW.id; RETURN NULL; END $$",
        "CREATE TRIGGER bump AFTER INSERT ON booking FOR EACH ROW EXECUTE FUNCTION bump()",
    ],
}
PLANTED = [
    ("a trigger", TRIGGER, ["the schema holds a trigger chouette does not make: bump on booking"]),
    (
        "an extra view",
        {"sqlite": ["CREATE VIEW sneaky AS SELECT * FROM booking"]},
        ["the schema holds a view chouette does not make: sneaky"],
    ),
    (
        "a dropped index",
        {"sqlite": ["DROP INDEX booking_session"]},
        ["table booking lacks the index booking_session on (session_id)"],
    ),
    (
        "an extra column",
        {"sqlite": ["ALTER TABLE payment ADD COLUMN extra REAL"]},
        ["table payment holds a column chouette does not make: extra REAL"],
    ),
    (
        "an extra table",
        {"sqlite": ["CREATE TABLE notes (id INTEGER PRIMARY KEY)"]},
        ["the schema holds a table chouette does not make: notes"],
    ),
    (
        "a dropped unique index",
        {"sqlite": ["DROP INDEX game_by_key"]},
        ["table game lacks the index game_by_key unique on (game_key)"],
    ),
    (
        "an index made unique elsewhere",
        {
            "sqlite": [
                "DROP INDEX action_by_session",
                "CREATE INDEX action_by_session ON action (kind)",
            ]
        },
        ["index action_by_session of table action is on (kind), not on (session_id, id)"],
    ),
]


def problems(chouette) -> list[str]:
    result = chouette("check", "--json", code=None)
    return list(json.loads(result.stdout)["problems"])


def test_a_fresh_ledger_has_exactly_the_schema_chouette_makes(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    assert problems(chouette) == []


@pytest.mark.parametrize(("what", "sql", "said"), PLANTED, ids=[p[0] for p in PLANTED])
def test_what_is_planted_in_or_dropped_from_the_schema_is_named(
    chouette, ledger_url, backend, what, sql, said
):
    chouette("new", "friday", "ann", "bob", "cat")
    execute(ledger_url, *sql.get(backend, sql["sqlite"]))
    result = chouette("check", code=1)
    assert [line.removeprefix("Problem: ") for line in result.stderr.splitlines()[:-1]] == said
    assert (
        result.stderr.splitlines()[-1]
        == f"Error: {len(said)} problem{'s' * (len(said) > 1)} in the ledger"
    )


def test_the_planted_trigger_forges_bookings_and_check_names_it(chouette, ledger_url, backend):
    chouette("new", "friday", "ann", "bob", "cat")
    execute(ledger_url, *TRIGGER[backend])
    chouette("end", "box")  # booked; the trigger adds a cent to every booking
    found_ = problems(chouette)
    assert found_[0] == "the schema holds a trigger chouette does not make: bump on booking"
    assert any("does not sum to zero" in problem for problem in found_[1:])


@pytest.mark.parametrize(
    ("lang", "trigger", "index"),
    [
        (
            "da",
            "Problem: skemaet har en trigger, chouette ikke laver: bump på booking",
            "Problem: tabellen game mangler indekset game_by_key entydigt på (game_key)",
        ),
        (
            "cs",
            "Problém: schéma má trigger, který chouette nevytváří: bump nad booking",
            "Problém: tabulce game chybí index game_by_key jedinečný nad (game_key)",
        ),
    ],
)
def test_check_names_what_is_planted_in_the_readers_language(
    chouette, ledger_url, backend, lang, trigger, index
):
    chouette("new", "friday", "ann", "bob", "cat")
    execute(ledger_url, *TRIGGER[backend])
    execute(ledger_url, "DROP INDEX game_by_key")
    told = chouette("--lang", lang, "check", code=1).stderr.splitlines()
    assert trigger in told and index in told
    english = "the schema holds a trigger chouette does not make: bump on booking"
    assert english in problems(chouette)  # --json: English


@pytest.mark.backends("sqlite")
def test_a_migrated_first_schema_ledger_has_exactly_the_schema_chouette_makes(tmp_path):
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    engine = connect(f"sqlite:///{old}")  # migrated
    with engine.connect() as conn:
        assert compare(made(conn.dialect), found(conn)) == []
    dispose_all()


@pytest.mark.parametrize(
    ("lang", "stored", "replayed"),
    [
        ("en", "(a line is a JSON object): '[1]'", "do not replay (a line is a JSON object)"),
        (
            "da",
            "(en række er et JSON-objekt): '[1]'",
            "afspilles igen (en række er et JSON-objekt)",
        ),
        ("cs", "(řada je objekt JSON): '[1]'", "přehrát (řada je objekt JSON)"),
    ],
)
def test_a_stored_value_that_is_not_what_it_should_be_is_named_in_the_readers_language(
    chouette, ledger_url, lang, stored, replayed
):
    """Why a stored value is not what its column holds is said in the reader's words too
    (chouette's reason; what Python or the database says stays theirs)."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("drop", "bob")
    execute(ledger_url, "UPDATE game SET line_before = '[1]'")
    told = chouette("--lang", lang, "check", code=1).stderr.splitlines()
    assert any(line.endswith(stored) for line in told), told
    assert any(line.endswith(replayed) for line in told), told
