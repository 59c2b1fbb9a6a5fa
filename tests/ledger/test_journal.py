"""The journal's entries are read against one model per kind: ``check`` names a damaged
entry (an unknown kind, a field missing or mistyped, a game or payment that is not there,
a detail that is not JSON), ``log`` lists it as damaged, and ``undo`` refuses it, naming
it, with nothing taken back: ``undo`` never reports what it did not do."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import create_engine, text

from tests.dump import dump, execute

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


# ---------------------------------------------------------------- the journal in the chain


def two_payments(chouette) -> None:
    """Cat pays ann 5.00, then bob pays ann 4.00: the journal's two newest entries."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")  # ann +2.00, bob and cat -1.00
    chouette("pay", "cat", "ann", "5.00", "--advance")
    chouette("pay", "bob", "ann", "4.00", "--advance")


def problems(chouette) -> list[str]:
    return json.loads(chouette("check", "--json", code=None).stdout)["problems"]


JOURNAL_CHANGED = (
    "friday's journal is not the one its newest link ({seq}, 2026-11-20T20:00:00+00:00) was "
    "made with: an entry was changed, taken out, moved or added outside chouette since, and "
    "undo would take back what the journal says"
)


@pytest.mark.parametrize(
    "edit",
    [
        "DELETE FROM action WHERE id = (SELECT max(id) FROM action)",
        "UPDATE action SET detail = (SELECT detail FROM action a WHERE a.id = action.id - 1) "
        "WHERE id = (SELECT max(id) FROM action)",
    ],
    ids=["the newest taken out", "the newest's detail the one before's"],
)
def test_any_edit_of_the_journal_is_found_by_check(chouette, ledger_url, edit):
    two_payments(chouette)
    assert problems(chouette) == []
    execute(ledger_url, edit)
    assert JOURNAL_CHANGED.format(seq=4) in problems(chouette)
    before = dump(ledger_url)
    assert chouette("undo", code=1).stderr == UNDO_REFUSED  # nothing taken back
    assert dump(ledger_url) == before


def point_newest_at_first_payment(url: str) -> None:
    """The journal's newest entry (bob's 4.00) edited to name cat's payment's id."""
    engine = create_engine(url)
    with engine.begin() as conn:
        cat, bob = conn.execute(text("SELECT id FROM payment ORDER BY id")).scalars().all()
        newest = conn.execute(text("SELECT max(id) FROM action")).scalar_one()
        detail = conn.execute(
            text("SELECT detail FROM action WHERE id = :id"), {"id": newest}
        ).scalar_one()
        assert f'"id": {bob}' in detail
        conn.execute(
            text("UPDATE action SET detail = :detail WHERE id = :id"),
            {"detail": detail.replace(f'"id": {bob}', f'"id": {cat}'), "id": newest},
        )
    engine.dispose()


UNDO_REFUSED = (
    "Error: friday's journal is not the one its newest link (4, 2026-11-20T20:00:00+00:00) "
    "was made with: an entry was changed, taken out, moved or added outside chouette, so undo "
    "cannot know what to take back (chouette check says so too); nothing was taken back\n"
)


def test_an_entry_pointed_at_another_payment_is_found_and_undo_refuses(chouette, ledger_url):
    """Seen: the newest entry's payment id edited to the one before it, undo took back
    cat's 5.00 and said it took back bob's 4.00, and check said the ledger was consistent.
    Now check finds it, and undo takes nothing back."""
    two_payments(chouette)
    point_newest_at_first_payment(ledger_url)
    assert JOURNAL_CHANGED.format(seq=4) in problems(chouette)
    before = dump(ledger_url)
    assert chouette("undo", code=1).stderr == UNDO_REFUSED
    assert dump(ledger_url) == before


def test_undo_says_what_it_took_back_not_what_the_journal_noted(chouette, ledger_url):
    """Where nothing vouches for the journal (a ledger's links made before schema 18 hold
    no digest of it), undo says what it took back as the ledger has it, not the words the
    entry noted."""
    two_payments(chouette)
    execute(ledger_url, "UPDATE chain SET journal = NULL")
    point_newest_at_first_payment(ledger_url)
    said = chouette("undo").stdout
    assert said == "Undone: took back the payment: cat paid ann 5.00.\n"  # what it removed
    engine = create_engine(ledger_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT payer FROM payment")).scalars().all() == ["bob"]
    engine.dispose()


def test_entries_swapped_are_found_by_check(chouette, ledger_url):
    two_payments(chouette)
    engine = create_engine(ledger_url)
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT id, detail FROM action ORDER BY id DESC")).all()[:2]
        (newest, first), (older, second) = rows
        for action, detail in ((newest, second), (older, first)):
            conn.execute(
                text("UPDATE action SET detail = :d WHERE id = :id"), {"d": detail, "id": action}
            )
    engine.dispose()
    assert JOURNAL_CHANGED.format(seq=4) in problems(chouette)


def test_the_journal_is_chained_through_undo(chouette, ledger_url):
    """An undo takes the journal's digest back to what it was before the entry it took
    back: the chain checks after each, and each link holds the journal's digest."""
    two_payments(chouette)
    chouette("undo")
    chouette("undo")
    chouette("pay", "bob", "ann", "1.00", "--advance")
    assert problems(chouette) == []
    engine = create_engine(ledger_url)
    with engine.connect() as conn:
        links = conn.execute(text("SELECT seq, journal FROM chain ORDER BY seq")).all()
    engine.dispose()
    journals = [journal for _, journal in links]
    assert None not in journals
    assert len(journals) == 7  # new, end, two payments, two undos, a payment
    assert journals[4] == journals[2] and journals[5] == journals[1]  # each undo, as before


def test_undo_stops_where_a_restore_began_the_journal(chouette, tmp_path, ledger_url):
    """An export does not carry the journal: a restored session's journal begins with the
    restore, and undo says it cannot go back past it; what is done after it undoes."""
    two_payments(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    copy = tmp_path / "copy.db"
    chouette("--db", str(copy), "import", str(backup))
    assert chouette("--db", str(copy), "check").stdout.startswith("The ledger is consistent")
    refused = chouette("--db", str(copy), "undo", code=1).stderr
    assert refused == (
        "Error: what was done to friday before it was restored from an export is not in this "
        "ledger's journal (an export does not carry it): undo cannot take it back; nothing "
        "was taken back\n"
    )
    chouette("--db", str(copy), "pay", "bob", "ann", "1.00", "--advance")
    said = chouette("--db", str(copy), "undo").stdout
    assert said == "Undone: took back the payment: bob paid ann 1.00.\n"
    assert chouette("--db", str(copy), "check").stdout.startswith("The ledger is consistent")
