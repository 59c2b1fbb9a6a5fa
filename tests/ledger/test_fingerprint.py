"""Each session's record is chained (chouette/chain.py, db/chained.py): the fingerprint
is printed by settle, sheet, the report and the scoreboard's data; ``check`` finds a byte
changed in the ledger, ``verify`` one changed in an export, and ``restore`` refuses an
export whose chain does not check, writing nothing. An export restored keeps its chain and
its fingerprints; undo appends to the chain, which still checks."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import create_engine, text

pytestmark = pytest.mark.backends("sqlite", "postgres")

FINGERPRINT = re.compile(r"^Fingerprint of friday: ([0-9a-f]{10})$", re.M)


def evening(chouette) -> None:
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "box")  # ann +4.00, bob -2.00... as the rules book it
    chouette("pay", "bob", "ann", "1.00", "--note", "cash")


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


def test_a_session_of_an_older_ledger_is_chained_from_its_next_change(chouette, ledger_url):
    evening(chouette)
    sql(ledger_url, "DELETE FROM chain")  # as a ledger of schema 11 has none
    assert chouette.json("settle")["fingerprint"] is None
    assert "Fingerprint" not in chouette("settle").stdout
    assert chouette("check").stdout.startswith("The ledger is consistent")
    chouette("pay", "cat", "ann", "1.00")
    assert re.fullmatch(r"[0-9a-f]{10}", printed(chouette))
    assert chouette("check").stdout.startswith("The ledger is consistent")


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
        f"Error: {other}: line 1 is not JSON: this is no chouette export\n"
    )
    heading = json.dumps({"kind": "chouette-ledger", "format": 1})
    other.write_text(heading + "\n")
    assert chouette("verify", str(other)).stdout == ""
