"""The journal's entries are read against one model per kind: ``check`` names a damaged
entry (an unknown kind, a field missing or mistyped, a game or payment that is not there,
a detail that is not JSON), ``log`` lists it as damaged, and ``undo`` refuses it, naming
it, with nothing taken back: ``undo`` never reports what it did not do."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")


def damage(url: str, kind: str | None = None, detail: str | None = None) -> int:
    """Change the newest journal entry as a damaged disk or a hand would; its id."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            row = conn.execute(text("SELECT id, kind, detail FROM action ORDER BY id DESC")).first()
            assert row is not None
            conn.execute(
                text("UPDATE action SET kind = :kind, detail = :detail WHERE id = :id"),
                {"kind": kind or row.kind, "detail": detail or row.detail, "id": row.id},
            )
            return int(row.id)
    finally:
        engine.dispose()


def newest_detail(url: str) -> dict:
    """The newest journal entry's detail, as written."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT detail FROM action ORDER BY id DESC")).scalars()
            return json.loads(found.first())
    finally:
        engine.dispose()


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "team")  # bob and cat +1.00, ann -2.00
    chouette("pay", "ann", "bob", "1.00")


def test_undo_of_a_payment_whose_entry_has_an_unknown_kind_refuses_and_keeps_it(
    chouette, ledger_url
):
    """Seen: undo printed "took back ann paid bob 1.00", exited 0, and the payment stayed."""
    evening(chouette)
    entry = damage(ledger_url, kind="paymnt")
    before = dump(ledger_url)
    result = chouette("undo", code=1)
    assert result.stdout == ""
    assert result.stderr.startswith(
        "Error: the last thing done to friday cannot be taken back: friday's journal entry "
        f"{entry} ('paymnt', "
    )
    assert result.stderr.endswith(
        "is damaged ('paymnt' is no kind of entry chouette writes); nothing was taken back. "
        "`chouette check` lists what is wrong with the ledger\n"
    )
    assert dump(ledger_url) == before
    problems = chouette("check", code=1).stderr.splitlines()
    assert any(f"friday's journal entry {entry} ('paymnt'" in p for p in problems), problems
    assert "is damaged" in chouette("log").stdout


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"id": 999}, "it names a payment (id 999) that is not in the session"),
        ({"id": "1"}, "id: input should be a valid integer"),
        ({"said": None}, "said: input should be a valid string"),
    ],
)
def test_a_payments_entry_that_names_no_payment_of_the_session_is_damaged(
    chouette, ledger_url, change, said
):
    evening(chouette)
    detail = newest_detail(ledger_url)
    damage(ledger_url, detail=json.dumps({**detail, **change}))
    before = dump(ledger_url)
    assert f"is damaged ({said}); nothing was taken back" in chouette("undo", code=1).stderr
    assert dump(ledger_url) == before
    assert any(said in p for p in chouette("check", code=1).stderr.splitlines())


def test_an_entry_naming_a_game_that_is_gone_is_refused_not_crashed_on(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    detail = newest_detail(ledger_url)
    damage(ledger_url, detail=json.dumps({**detail, "game_id": detail["game_id"] + 50}))
    result = chouette("undo", code=1)
    assert "it names game 1 (id " in result.stderr and "Traceback" not in result.stderr
    assert "which is not in the session" in result.stderr


def test_an_entry_that_is_not_json_is_named_by_check_and_refused_by_undo(chouette, ledger_url):
    evening(chouette)
    entry = damage(ledger_url, detail="{not json")
    assert "is damaged (its detail is not JSON)" in chouette("undo", code=1).stderr
    problems = chouette("check", code=1).stderr
    assert f"friday's journal entry {entry} ('payment', " in problems
    assert "Traceback" not in problems


def test_an_honest_journal_of_every_kind_passes_check_and_undoes(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay", "--proxies")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")
    chouette("pay", "bob", "ann", "1.00")
    chouette("sit-out", "fay")
    chouette("sit-in", "fay")
    chouette("accept", "--all")
    chouette("sessions", "--rename", "friday", "fri")
    chouette("split", "fri-2")
    record = {"events": [], "result": {"winner": "box", "kind": "single"}}
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record))
    chouette("--session", "fri", "record", str(source))
    assert chouette("check").stdout.startswith("The ledger is consistent")
    for session, times in (("fri", 3), ("friday", 6)):  # the record, split, rename; the rest
        for _ in range(times):
            assert chouette("--session", session, "undo").stdout.startswith("Undone: ")
    assert chouette("check").stdout.startswith("The ledger is consistent")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"game_id": 999}, "it names game 1 (id 999), which is not in the session"),
        ({"first": 40}, "it names event 40 of game 1, which is not there"),
        ({"was": {"act": "take", "member": "bob"}}, "the end it says the game had is not an end"),
        (
            {"games": [{"id": 999, "line_before": {"order": ["ann"]}, "detail": None}]},
            "it names a game (id 999) that is not in the session",
        ),
        ({"note": 5}, "note: input should be a valid string"),
    ],
)
def test_a_corrections_entry_that_does_not_fit_the_session_is_damaged(
    chouette, ledger_url, change, said
):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    chouette("amend", "1", "--result", "team", "--note", "the team won")
    detail = newest_detail(ledger_url)
    damage(ledger_url, detail=json.dumps({**detail, **change}))
    before = dump(ledger_url)
    assert f"is damaged ({said}); nothing was taken back" in chouette("undo", code=1).stderr
    assert dump(ledger_url) == before
    assert any(said in p for p in chouette("check", code=1).stderr.splitlines())


@pytest.mark.parametrize(
    ("lang", "refused"),
    [
        (
            "da",
            "fridays journalpost {entry} ('payment', 2026-11-20T20:00:00+00:00) er beskadiget "
            "(dens detaljer er ikke JSON); intet blev taget tilbage",
        ),
        (
            "cs",
            "záznam deníku {entry} v friday ('payment', 2026-11-20T20:00:00+00:00) je poškozený "
            "(jeho podrobnosti nejsou JSON); nic nebylo vzato zpět",
        ),
    ],
)
def test_a_damaged_entry_is_named_in_the_readers_words(chouette, ledger_url, lang, refused):
    evening(chouette)
    entry = damage(ledger_url, detail="{not json")
    said = " ".join(chouette("--lang", lang, "undo", code=1).stderr.split())
    assert refused.format(entry=entry) in said
