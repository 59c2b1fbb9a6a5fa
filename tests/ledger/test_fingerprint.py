"""Each session's record is chained (chouette/chain.py, db/chained.py): the fingerprint
is printed by settle, sheet, the report and the scoreboard's data; ``check`` finds a byte
changed in the ledger, ``verify`` one changed in an export, and ``restore`` refuses an
export whose chain does not check, writing nothing. An export restored keeps its chain and
its fingerprints; undo appends to the chain, which still checks."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from db.engine import dispose_all as dispose
from db.migrations import LATEST
from db.transfer import is_export
from tests.dump import dump
from tests.examples import examples
from tests.ledger.test_export_lines import evening_export, mutate
from tests.paths import DATA

pytestmark = pytest.mark.backends("sqlite", "postgres")

V1 = DATA / "ledger-v1.sqlite"  # schema 1: two sessions, before chains
FINGERPRINT = re.compile(r"^Fingerprint of friday: ([0-9a-f]{10})$", re.M)


def evening(chouette) -> None:
    chouette.begun(
        ("new", "friday", "ann", "bob", "cat"),
        ("double", "bob"),
        ("take", "bob"),
        ("end", "box"),  # ann +4.00, bob -2.00... as the rules book it
        ("pay", "bob", "ann", "1.00", "--note", "cash"),
    )


def printed(chouette) -> str:
    found = FINGERPRINT.search(chouette("settle").stdout)
    assert found is not None
    return found[1]


def sql(url: str, statement: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(statement))
    finally:
        engine.dispose()


def test_every_report_of_the_session_prints_the_same_fingerprint(chouette, tmp_path):
    evening(chouette)
    fp = printed(chouette)
    assert chouette.json("settle")["fingerprint"] == fp
    assert FINGERPRINT.search(chouette("sheet").stdout)[1] == fp
    assert chouette.json("sheet")["fingerprint"] == fp
    page = tmp_path / "friday.html"
    chouette("report", "--html", str(page))
    assert f'<code class="fingerprint" data-session="friday">{fp}</code>' in page.read_text()
    assert chouette.json("settle", "--all")["fingerprints"] == {"friday": fp}


def test_each_change_and_each_undo_moves_the_fingerprint_and_the_chain_checks(chouette):
    evening(chouette)
    seen = [printed(chouette)]
    chouette("join", "dan")
    seen.append(printed(chouette))
    chouette("undo")
    seen.append(printed(chouette))
    assert len(set(seen)) == 3  # an undo is a link of its own: the chain only grows
    assert chouette("check").stdout.startswith("The ledger is consistent")


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("UPDATE payment SET note = 'cheque'", "a payment's note"),
        ("UPDATE event SET body = replace(body, '\"bob\"', '\"cat\"') WHERE seq = 0",
         "an event"),
        ("UPDATE chain SET what = 'nothing happened' WHERE seq = 2", "a link"),
    ],
)  # fmt: skip
def test_a_byte_changed_in_the_ledger_is_found_by_check(chouette, ledger_url, statement, why):
    evening(chouette)
    assert chouette("check").stdout.startswith("The ledger is consistent")
    sql(ledger_url, statement)
    problems = chouette("check", code=1).stderr
    assert "friday's chain: " in problems, why


def test_an_export_verifies_offline_and_restores_with_its_fingerprint(chouette, tmp_path):
    evening(chouette)
    fp = printed(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    result = chouette("verify", str(backup))
    assert result.stdout == f"friday: fingerprint {fp}, the chain checks\n"
    assert chouette.json("verify", str(backup))["sessions"] == [
        {"session": "friday", "fingerprint": fp, "problem": None}
    ]
    copy = tmp_path / "copy.db"
    chouette("--db", str(copy), "import", str(backup))
    assert FINGERPRINT.search(chouette("--db", str(copy), "settle").stdout)[1] == fp
    again = tmp_path / "again.jsonl"
    chouette("--db", str(copy), "export", str(again))
    assert again.read_text().splitlines()[1:] == backup.read_text().splitlines()[1:]


@pytest.mark.parametrize(
    ("old", "new"),
    [('"note": "cash"', '"note": "cask"'), ('"cents": 100', '"cents": 101')],
)
def test_a_byte_changed_in_an_export_is_found_by_verify_and_refused_by_restore(
    chouette, tmp_path, old, new
):
    evening(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = backup.read_text().splitlines()
    changed = [line.replace(old, new) if '"kind": "payment"' in line else line for line in lines]
    assert changed != lines
    backup.write_text("\n".join(changed) + "\n")
    result = chouette("verify", str(backup), code=1)
    assert result.stdout.startswith("friday: DOES NOT CHECK (line ")
    assert result.stderr == "Error: 1 session in backup.jsonl does not check\n"
    copy = tmp_path / "copy.db"
    refused = chouette("--db", str(copy), "import", str(backup), code=1).stderr
    chain_line = 1 + next(i for i, t in enumerate(changed) if '"kind": "chain"' in t)
    assert refused.startswith(f"Error: line {chain_line}: friday's chain does not check: ")
    assert refused.endswith("; nothing was restored\n")


def test_a_chain_taken_out_of_the_ledger_is_found_by_check(chouette, ledger_url):
    evening(chouette)
    sql(ledger_url, "DELETE FROM chain")
    assert chouette.json("settle")["fingerprint"] is None
    problems = json.loads(chouette("check", "--json", code=1).stdout)["problems"]
    assert problems == [
        "friday has no chain: nothing proves its record (every session of a ledger is "
        "chained as it begins, or as its ledger moved to schema 16; its links were taken out "
        "of the ledger)"
    ]


@pytest.mark.backends("sqlite")
def test_every_session_of_an_older_ledger_is_chained_as_it_migrates(chouette, tmp_path):
    """A ledger of schema 1 (before chains): `migrate` gives each session a first link, its
    record as it stands, so its export gives every session a chain and verifies."""
    old = tmp_path / "old.sqlite"
    shutil.copy(V1, old)
    chouette("--db", str(old), "migrate")
    fingerprints = chouette.json("--db", str(old), "settle", "--all")["fingerprints"]
    assert sorted(fingerprints) == ["friday", "saturday"]
    assert all(re.fullmatch(r"[0-9a-f]{10}", fp) for fp in fingerprints.values())
    assert chouette("--db", str(old), "check").stdout.startswith("The ledger is consistent")
    backup = tmp_path / "old.jsonl"
    chouette("--db", str(old), "export", str(backup))
    assert chouette.json("verify", str(backup))["ok"]


def test_an_imports_games_are_chained_as_check_digests_them_again(chouette, tmp_path):
    # an import digests each game as it books it (db/imports.py), not by reading it back:
    # names to escape, a time, a cited source; then a correction of the session, and undo
    chouette("new", "friday", 'Zoë "Z"', "Bjørn\\", "ann", "--stake", "2.50")
    records = [
        {"winner": 'Zoë "Z"', "loser": "Bjørn\\", "cube": 2, "result": "gammon", "points": 4,
         "played_at": "2026-11-20T21:30:00+01:00"},
        {"winner": "ann", "loser": 'Zoë "Z"', "cube": 1, "result": "single", "points": 1,
         "end": "drop", "source": {"engine": "xg", "sha256": "AB" * 32, "game_index": 7}},
    ]  # fmt: skip
    games = tmp_path / "games.jsonl"
    games.write_text(
        "".join(
            json.dumps({"session": "s", "game": i, "end": "bearoff", **r}) + "\n"
            for i, r in enumerate(records, 1)
        ),
        encoding="utf-8",
    )
    chouette("import", str(games))
    assert chouette("check").stdout.startswith("The ledger is consistent: 1 session, 2 games")
    chouette("undo")
    chouette("import", str(games))  # the games' ids again, their digests kept before
    assert chouette("check").stdout.startswith("The ledger is consistent: 1 session, 2 games")


def test_verify_refuses_a_file_that_is_no_export(chouette, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    assert chouette("verify", str(other), code=1).stderr == (
        f"Error: {other}: line 1: it is not JSON (Expecting value: line 1 column 1 (char 0))\n"
    )
    heading = json.dumps({"kind": "chouette-ledger", "format": 1})
    other.write_text(heading + "\n")
    assert chouette("verify", str(other)).stdout == ""


# ---------------------------------------------------------------- verify reads as restore does

VERDICT = re.compile(r"^(?P<session>.+?): DOES NOT CHECK \(line (?P<line>\d+)\): (?P<why>.*)$")
REFUSED = re.compile(r"^Error: line (?P<line>\d+): (?:(?P<session>.+?)'s chain does not check: )?")


def verify_says(chouette, path) -> tuple[int, str] | None:
    """What ``verify`` finds first: the line and the reason (None: every session checks)."""
    result = chouette("verify", str(path), code=None)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        return None
    assert result.exit_code == 1, result.stderr
    found = VERDICT.match(result.stdout.splitlines()[0]) if result.stdout else None
    if found is not None:
        return int(found["line"]), found["why"]
    said = result.stderr.removeprefix(f"Error: {path}: ").rstrip("\n")
    line, _, why = said.removeprefix("line ").partition(": ")
    return int(line), why


def restore_says(chouette, path, copy) -> tuple[int, str] | None:
    """What restoring the export refuses: the line and the reason (None: restored)."""
    result = chouette("--db", str(copy), "import", str(path), code=None)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        return None
    assert result.exit_code == 1, result.stderr
    said = result.stderr.rstrip("\n")
    found = REFUSED.match(said)
    assert found is not None, said
    why = said[found.end() :]
    if found["session"] is not None:
        why = why.removesuffix("; nothing was restored")
    return int(found["line"]), why


def payment_lines(lines: list[str]) -> list[int]:
    return [i for i, t in enumerate(lines) if '"kind": "payment"' in t]


def swapped(lines: list[str], i: int, j: int) -> list[str]:
    lines = list(lines)
    lines[i], lines[j] = lines[j], lines[i]
    return lines


#: Doctored exports: each is refused by ``verify`` and by restore alike (the issue's list
#: first). Each takes an export's lines and returns them doctored.
DOCTORED = {
    "a chain deleted and a cent changed": lambda lines: [
        t.replace('"cents": 100,', '"cents": 101,') for t in lines if '"kind": "chain"' not in t
    ],
    "a chain deleted": lambda lines: [t for t in lines if '"kind": "chain"' not in t],
    "a cent changed": lambda lines: [t.replace('"cents": 100,', '"cents": 99,') for t in lines],
    "a key given twice": lambda lines: [
        t.replace('"note": "cash"', '"note": "cash", "note": "cask"') for t in lines
    ],
    "an unknown kind of line": lambda lines: [
        *lines[:2],
        '{"kind": "gossip", "session": "friday"}',
        *lines[2:],
    ],
    "a line of a session not in the file": lambda lines: [
        t.replace('"kind": "payment", "session": "friday"', '"kind": "payment", "session": "x"')
        for t in lines
    ],
    "a payment left out": lambda lines: [t for t in lines if '"note": "tip"' not in t],
    "two payments swapped": lambda lines: swapped(lines, *payment_lines(lines)),
    "a link's words changed": lambda lines: [
        t.replace('"what": "bob paid ann 1.00"', '"what": "bob paid ann 9.00"') for t in lines
    ],
    "the stake changed": lambda lines: [
        t.replace('"stake_cents": 100,', '"stake_cents": 200,', 1) for t in lines
    ],
    "an event changed": lambda lines: [t.replace('"act": "take"', '"act": "drop"') for t in lines],
    "the heading given twice": lambda lines: [lines[0], *lines],
}


@pytest.mark.parametrize("doctoring", DOCTORED.values(), ids=list(DOCTORED))
def test_every_doctored_export_is_refused_by_verify_and_restore_for_the_same_reason(
    chouette, tmp_path, doctoring
):
    evening(chouette)
    chouette("pay", "bob", "ann", "0.50", "--note", "tip")
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = backup.read_text().splitlines()
    assert verify_says(chouette, backup) is None
    doctored = tmp_path / "doctored.jsonl"
    changed = doctoring(lines)
    assert changed != lines
    doctored.write_text("\n".join(changed) + "\n")
    verdict = verify_says(chouette, doctored)
    assert verdict is not None, "verify vouched for a doctored export"
    assert restore_says(chouette, doctored, tmp_path / "copy.db") == verdict
    copy = tmp_path / "copy.db"
    assert not copy.exists() or not dump(f"sqlite:///{copy}").get("session")  # nothing restored


def test_a_chain_taken_out_is_said_plainly(chouette, tmp_path):
    evening(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = [t for t in backup.read_text().splitlines() if '"kind": "chain"' not in t]
    backup.write_text("\n".join(lines) + "\n")
    why = (
        "it has no chain, so nothing proves its record: its chain line is missing (an export "
        f"of schema {LATEST} gives one for every session)"
    )
    assert verify_says(chouette, backup) == (2, why)
    assert json.loads(chouette("verify", str(backup), "--json", code=1).stdout)["sessions"] == [
        {"session": "friday", "fingerprint": None, "problem": why}
    ]


def test_an_export_from_before_chains_is_restored_but_not_vouched_for(chouette, tmp_path):
    """An export of schema 11 or older has no chain: a restore takes it (and chains it from
    then on), but ``verify`` says nothing proves it."""
    evening(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    lines = [t for t in backup.read_text().splitlines() if '"kind": "chain"' not in t]
    lines[0] = lines[0].replace(f'"schema": {LATEST}', '"schema": 11')
    backup.write_text("\n".join(lines) + "\n")
    assert verify_says(chouette, backup) == (
        2,
        "the export was written before chouette chained records (schema 11): nothing proves "
        "its record",
    )
    copy = tmp_path / "copy.db"
    assert restore_says(chouette, backup, copy) is None
    assert re.fullmatch(r"[0-9a-f]{10}", chouette.json("--db", str(copy), "settle")["fingerprint"])


def test_verify_refuses_a_device_a_pipe_and_a_line_too_long_at_once(
    chouette, tmp_path, monkeypatch
):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        assert chouette("verify", path, code=1).stderr == (
            f"Error: {path} is not a regular file (a device, a pipe or a folder): no chouette "
            "export\n"
        )
    evening(chouette)
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    monkeypatch.setattr("files.whole.MAX_EXPORT_LINE", 400)  # the session's line is longer
    why = (2, "line 2 is longer than 400 characters: no line of a chouette export is")
    result = chouette("verify", str(backup), code=1)
    assert result.stderr == f"Error: {backup}: {why[1]}\n"
    refused = chouette("--db", str(tmp_path / "copy.db"), "import", str(backup), code=1)
    assert refused.stderr == f"Error: {why[1]}\n"


@pytest.fixture(scope="module")
def real_export(tmp_path_factory) -> list[str]:
    return evening_export(tmp_path_factory.mktemp("export"))


@pytest.mark.slow
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_verify_and_restore_agree_on_every_mutated_export(chouette, tmp_path, real_export, data):
    """The law: whatever one edit does to an export, ``verify`` and restore read it as one:
    both take it, or both refuse it, naming the same line for the same reason."""
    changed = mutate(real_export, data)
    where = Path(tempfile.mkdtemp(dir=tmp_path))
    path = where / "changed.jsonl"
    path.write_text("\n".join(changed) + "\n", "utf-8")
    verdict = verify_says(chouette, path)
    first = next((t for t in changed if t.strip()), "")
    if not is_export(first):  # import reads it as an engine file
        assert verdict is not None
        return
    assert restore_says(chouette, path, where / "copy.db") == verdict


# ---------------------------------------------------------------- the digests the seal keeps


def kept(url: str) -> list[tuple[str, int, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [
                (part, number, digest)
                for part, number, digest in conn.execute(
                    text("SELECT part, number, digest FROM kept_digest ORDER BY part, number")
                )
            ]
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("part", "number", "said"),
    [
        ("record", 1, "friday's digest kept of game 1 is not the game's (damaged)"),
        ("record", 0, "friday's digests kept of its record besides its games are not"),
        ("record", -1, "friday's digests kept of its record besides its games are not"),
    ],
)
def test_a_damaged_kept_digest_is_found_by_check_and_never_sealed(
    chouette, ledger_url, tmp_path, part, number, said
):
    """Seen: a kept game digest damaged passed check, and the next command sealed a link
    made with it: from then on the untouched record was called changed, and its export
    refused to restore. Now check names it, and the seal, finding that what it keeps does
    not give the newest link, digests the session afresh."""
    evening(chouette)
    assert [(p, n) for p, n, _ in kept(ledger_url) if p == "record"] == [
        ("record", -1), ("record", 0), ("record", 1)
    ]  # fmt: skip
    where = f"part = '{part}'" + ("" if number is None else f" AND number = {number}")
    sql(ledger_url, f"UPDATE kept_digest SET digest = '{'0' * 64}' WHERE {where}")
    found = json.loads(chouette("check", "--json", code=1).stdout)["problems"]
    assert len(found) == 1 and found[0].startswith(said), found
    chouette("pay", "cat", "ann", "0.50")  # the next command: sealed from the record itself
    assert chouette("check").stdout.startswith("The ledger is consistent")
    backup = tmp_path / "backup.jsonl"
    chouette("export", str(backup))
    assert verify_says(chouette, backup) is None
    assert restore_says(chouette, backup, tmp_path / "copy.db") is None


def test_digests_kept_taken_out_are_taken_afresh(chouette, ledger_url):
    """What the seal keeps is only a way to digest less: with none kept, the ledger is
    consistent, and the next command digests the session afresh and keeps it again."""
    evening(chouette)
    sql(ledger_url, "DELETE FROM kept_digest")
    assert chouette("check").stdout.startswith("The ledger is consistent")
    chouette("pay", "cat", "ann", "0.50")
    assert chouette("check").stdout.startswith("The ledger is consistent")
    assert [n for p, n, _ in kept(ledger_url) if p == "record"] == [-2, -1, 0, 1]


def test_the_seal_takes_what_it_keeps_once_it_gives_the_newest_link(chouette, ledger_url):
    """The seal's fast way, a game digested once: what is kept gives the newest link's
    state, and a command on the game in progress digests only that game again."""
    from datetime import UTC, datetime

    from db import open_ledger
    from db.chained import kept_fits

    evening(chouette)
    chouette("double", "cat")
    with open_ledger(ledger_url, write=False, now=datetime.now(UTC)) as book:
        info = book.session("friday")
        assert kept_fits(book, info, book.last_link(info).state, None)
    sql(ledger_url, f"UPDATE kept_digest SET digest = '{'0' * 64}' WHERE number = 1")
    with open_ledger(ledger_url, write=False, now=datetime.now(UTC)) as book:
        info = book.session("friday")
        assert not kept_fits(book, info, book.last_link(info).state, None)


# ---------------------------------------------------------------- the law of check

#: Each kind of single edit of a row, by the type of its value.
EDITS = {
    int: lambda v: v + 1,
    str: lambda v: v[:-1] + ("1" if v[-1:] != "1" else "2") if v else "x",
}


@pytest.mark.backends("sqlite")
def test_any_single_edit_of_the_journal_a_kept_digest_or_a_booking_is_found_by_check(
    chouette, ledger_file, tmp_path
):
    """The law: whichever row of the journal, the digests the seal keeps or the bookings
    is changed in one value, taken out, or swapped with its neighbour, ``check`` finds it
    (every such edit of a small evening, tried one at a time on a copy)."""
    import sqlite3

    evening(chouette)
    chouette("pay", "cat", "ann", "0.50", "--note", "tip")
    assert chouette("check").stdout.startswith("The ledger is consistent")
    dispose()
    columns = {
        "action": ("kind", "detail", "at"),
        "kept_digest": ("digest",),
        "booking": ("player", "points", "cents"),
    }
    edits = []
    with sqlite3.connect(ledger_file) as conn:
        for table, names in columns.items():
            rows = conn.execute(f"SELECT rowid, {', '.join(names)} FROM {table}").fetchall()
            for rowid, *values in rows:
                if table != "kept_digest":  # (one taken out is digested afresh: below)
                    edits.append(f"DELETE FROM {table} WHERE rowid = {rowid}")
                for name, value in zip(names, values, strict=True):
                    if name == "at":
                        edits.append(
                            f"UPDATE {table} SET at = replace(at, ':00', ':01') "
                            f"WHERE rowid = {rowid}"
                        )
                        continue
                    changed = EDITS[type(value)](value)
                    edits.append((f"UPDATE {table} SET {name} = ? WHERE rowid = {rowid}", changed))
            if table == "action":
                for (first, *_), (second, *_) in itertools.pairwise(rows):
                    edits.append(
                        f"UPDATE {table} SET detail = CASE rowid WHEN {first} THEN "
                        f"(SELECT detail FROM {table} WHERE rowid = {second}) ELSE "
                        f"(SELECT detail FROM {table} WHERE rowid = {first}) END "
                        f"WHERE rowid IN ({first}, {second})"
                    )
    missed = []
    for number, edit in enumerate(edits):
        copy = tmp_path / f"edit-{number}.db"
        shutil.copy(ledger_file, copy)
        with sqlite3.connect(copy) as conn:
            if isinstance(edit, tuple):
                conn.execute(*edit[:1], edit[1:])
            else:
                conn.execute(edit)
        result = chouette("--db", str(copy), "check", code=None)
        assert "Traceback" not in result.stderr
        if result.exit_code != 1:
            missed.append(edit)
        dispose()
    assert missed == []
    assert len(edits) > 40
