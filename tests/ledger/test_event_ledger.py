"""What the ledger keeps of a chouette tournament (schema 19): its journal, purse and tables
exported and restored whole; ``chouette check`` replaying every event, drawing every level
again from its seed and proving its banks; tampering named."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_event_cli import EIGHT, FLORIDA, deal
from tests.dump import dump, execute

pytestmark = pytest.mark.backends("sqlite", "postgres")

READS = [
    ("event", "standings", "--json"),
    ("event", "rules", "--json"),
    ("--session", "fcc", "standings", "--json"),
    ("--session", "fcc", "settle", "--json"),
    ("--session", "fcc-L1-T1", "sheet", "--json"),
    ("--session", "fcc-L2-T2", "status", "--json"),
]


def two_levels(chouette) -> None:
    """The Florida event through level 1 and into level 2: eve busted, out, back in (on
    SQLite, a copy of the ledger made once)."""
    chouette.built(play_two_levels)


def play_two_levels(chouette) -> None:
    chouette(*FLORIDA)
    chouette("event", "enter", *EIGHT)
    chouette("event", "accept", "ann", "bob")
    chouette("event", "draw", "--seed", "7")
    deal(chouette, "fcc-L1-T1", "eve", -50)
    chouette("event", "next", "--seed", "11")
    chouette("event", "reenter", "eve")
    chouette("--session", "fcc-L2-T1", "end", "team")


def test_an_event_is_exported_and_restored_whole(chouette, tmp_path, monkeypatch, backend, request):
    two_levels(chouette)
    before = {args: chouette(*args).stdout for args in READS}
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    event = lines[-1]
    assert event["kind"] == "event" and event["purse"] == "fcc"
    assert [s["kind"] for s in event["steps"]] == ["enter", "accept", "draw", "next", "reenter"]
    assert event["tables"][:2] == [["fcc", 0, 0, True], ["fcc-L1-T1", 1, 1, True]]
    assert {line["name"]: line["stake_cents"] for line in lines if line["kind"] == "session"} == {
        "fcc": 100, "fcc-L1-T1": 0, "fcc-L1-T2": 0, "fcc-L2-T1": 0, "fcc-L2-T2": 0,
    }  # fmt: skip
    if backend == "postgres":
        copy = request.getfixturevalue("postgres_server").create_database()
    else:
        copy = str(tmp_path / "copy.db")
    monkeypatch.setenv("CHOUETTE_DB", copy)
    chouette("import", str(export))
    assert {args: chouette(*args).stdout for args in READS} == before
    assert chouette("check").stdout.startswith("The ledger is consistent: 5 sessions")
    again = tmp_path / "again.jsonl"
    chouette("export", str(again))
    assert again.read_text().split("\n", 1)[1] == export.read_text().split("\n", 1)[1]
    ended = chouette.json("event", "end")  # the restored event goes on
    assert sum(p["cents"] for p in ended["payouts"]) == ended["pool_cents"] == 18000


def unchained(event: dict) -> None:
    """An exported event with the chain of its steps taken out (as an export before schema
    21): what is wrong in it is found by its replay."""
    del event["digest"]
    for step in event["steps"]:
        del step["digest"]


def test_a_restore_refuses_an_event_whose_banks_do_not_add_up(chouette, tmp_path, monkeypatch):
    two_levels(chouette)
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = export.read_text().splitlines()
    event = json.loads(lines[-1])
    event["steps"][3]["detail"]["banks"]["hal"] = 101  # level 1 closed with a point made up
    unchained(event)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(event)]) + "\n")
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    refused = chouette("import", str(bad), code=1).stderr
    assert refused.startswith(f"Error: line {len(lines)}: level 1 of fcc closed with banks")


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        (
            "UPDATE tournament_step SET detail = REPLACE(detail, '\"seed\": 7', '\"seed\": 8') "
            "WHERE kind = 'draw'",
            "level 1 of fcc: seed 8 draws other tables than the journal holds",
        ),
        (
            "UPDATE session SET line = REPLACE(line, '[\"hal\", 102]', '[\"hal\", 112]') "
            "WHERE name = 'fcc-L2-T1'",
            "fcc: the banks of level 2 add up to 460, but 450 were carried into it and given "
            "during it",
        ),
        (
            "UPDATE session SET line = REPLACE(line, '[\"hal\", 100]', '[\"hal\", 90]') "
            "WHERE name = 'fcc-L1-T1'",
            "level 1 of fcc closed with banks its tables no longer hold: hal",
        ),
        (
            "UPDATE session SET stake_cents = 0 WHERE name = 'fcc'",
            "the session fcc has a stake of 0, and is no table of an event",
        ),
    ],
    ids=["a draw", "the banks in play", "a closed table", "a stake of 0"],
)
def test_check_names_what_was_tampered_with(chouette, ledger_url, sql, problem):
    two_levels(chouette)
    chouette("check")
    execute(ledger_url, sql)
    result = chouette("check", code=1)
    assert f"Problem: {problem}\n" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("ended", "was", "now", "problem"),
    [
        (
            True,
            '"payout": [50, 30, 20]',
            '"payout": [100]',
            "the prizes fcc booked in its purse fcc are not the payouts its terms and ranking "
            "make: hal 90.00, bob 45.00, gus 45.00 booked; hal 180.00 made",
        ),
        (
            False,
            '"entry_cents": 2000',
            '"entry_cents": 2500',
            "the entry fee fcc booked for eve in its purse fcc is not the entry its terms "
            "charge (25.00 each)",
        ),
    ],
    ids=["a payout", "an entry"],
)
def test_check_finds_terms_that_no_longer_make_the_money_booked(
    chouette, ledger_url, ended, was, now, problem
):
    """A payout or an entry changed in the terms has the event's
    payouts or entries say other money than its purse booked. check names it."""
    two_levels(chouette)
    if ended:
        chouette("event", "end")
    chouette("check")
    execute(ledger_url, f"UPDATE tournament SET terms = REPLACE(terms, '{was}', '{now}')")
    result = chouette("check", code=1)
    assert f"Problem: {problem}\n" in result.stderr, result.stderr


def test_entries_without_a_fee_keep_the_purse_s_chain(chouette):
    """An event without --entry books no fee: the players it adds to its purse (and takes
    back at undo) are in the purse's chain all the same, and check finds nothing."""
    chouette("event", "new", "cup", "--bank", "10", "--levels", "1")
    chouette("event", "enter", "ann", "bob")
    assert "The ledger is consistent" in chouette("check").stdout
    chouette("event", "undo")
    assert "The ledger is consistent" in chouette("check").stdout


def test_a_table_journal_says_what_the_event_did_there_and_refuses_to_undo_it(chouette):
    two_levels(chouette)
    log = chouette("--session", "fcc-L2-T2", "log").stdout
    assert "eve joins, entering fcc" in log
    refused = chouette("--session", "fcc-L2-T2", "undo", code=1)
    assert refused.stderr == (
        "Error: the last thing done to fcc-L2-T2 was done by the event fcc: chouette event "
        "undo takes it back\n"
    )
    assert chouette("event", "undo").stdout == "Undone in fcc: the re-entry of eve.\n"
    assert "eve" not in chouette.json("--session", "fcc-L2-T2", "status")["line"]


# ---------------------------------------------------------------- the event's journal lines


def problems(chouette) -> list[str]:
    return json.loads(chouette("check", "--json", code=None).stdout)["problems"]


def test_the_event_s_journal_lines_are_chained_check_finds_one_edited(chouette, ledger_url):
    """What the event writes in its sessions' journals (a player seated, a fresh bank, an
    entry's fee) is in their chains (schema 18): an entry edited outside chouette is found
    by check, and event undo refuses it, taking nothing back."""
    two_levels(chouette)
    assert problems(chouette) == []
    execute(
        ledger_url,
        'UPDATE action SET detail = REPLACE(detail, \'"player": "eve"\', \'"player": "ann"\') '
        "WHERE session_id = (SELECT id FROM session WHERE name = 'fcc-L2-T2')",
    )
    assert any(p.startswith("fcc-L2-T2's journal is not the one") for p in problems(chouette))
    before = dump(ledger_url)
    refused = chouette("event", "undo", code=1).stderr
    assert refused.startswith("Error: fcc-L2-T2's journal is not the one its newest link")
    assert refused.endswith("nothing was taken back\n")
    assert dump(ledger_url) == before


def test_a_purse_entry_taken_out_is_found_and_event_undo_refuses(chouette, ledger_url):
    two_levels(chouette)
    execute(
        ledger_url,
        "DELETE FROM action WHERE id = (SELECT max(id) FROM action WHERE session_id = "
        "(SELECT id FROM session WHERE name = 'fcc'))",
    )  # (eve's re-entry fee's entry)
    assert any(p.startswith("fcc's journal is not the one") for p in problems(chouette))
    before = dump(ledger_url)
    assert "nothing was taken back" in chouette("event", "undo", code=1).stderr
    assert dump(ledger_url) == before


def test_the_event_s_journal_lines_keep_words_as_values(chouette):
    """A table's journal line and the purse's fee are kept as words and values (``said``
    and ``say``), so each reader's log says them in their language."""
    two_levels(chouette)
    assert "eve joins, entering fcc" in chouette("--session", "fcc-L2-T2", "log").stdout
    danish = chouette("--lang", "da", "--session", "fcc-L2-T2", "log").stdout
    assert "eve joins, entering fcc" not in danish and "eve" in danish and "fcc" in danish
    czech = chouette("--lang", "cs", "--session", "fcc", "log").stdout
    assert "fee:" not in czech and "org" in czech


def test_after_a_restore_event_undo_stops_at_the_restore(chouette, tmp_path, monkeypatch):
    """An export does not carry the journal: in a restored ledger event undo refuses to
    take back what the event did before the restore (nothing taken back), as undo does,
    and what is done after it is taken back as before; verify checks the export."""
    two_levels(chouette)
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    checked = chouette.json("verify", str(export))
    assert {"fcc", "fcc-L1-T1", "fcc-L2-T2"} <= {s["session"] for s in checked["sessions"]}
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    refused = chouette("event", "undo", code=1).stderr
    assert "before it was restored from an export" in refused
    assert refused.endswith("nothing was taken back\n")
    assert chouette.json("event", "standings")["pool_cents"] == 18000  # (nothing undone)
    chouette("event", "enter", "ivy")
    assert chouette("event", "undo").stdout == "Undone in fcc: the entry of ivy.\n"
    assert chouette.json("event", "standings")["pool_cents"] == 18000
    assert problems(chouette) == []


def test_verify_refuses_an_export_whose_event_does_not_replay(chouette, tmp_path):
    two_levels(chouette)
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = export.read_text().splitlines()
    event = json.loads(lines[-1])
    event["steps"][2]["detail"]["seed"] = 8  # level 1 drawn from another seed
    unchained(event)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(event)]) + "\n")
    refused = chouette("verify", str(bad), code=1).stderr
    assert "seed 8 draws other tables than the journal holds" in refused


def test_an_events_purse_with_something_booked_is_refused_in_whole_sentences():
    """``event undo`` of the event itself, its purse holding a booking: a sentence for each
    kind of booking, in the reader's words (no English noun glued in)."""
    from db.events import _undo_there_first
    from files.words import words

    refused = [_undo_there_first("fcc", kind) for kind in ("a game", "a payment", "a fee")]
    assert [str(r) for r in refused] == [
        "fcc has a game booked: undo it there first",
        "fcc has a payment booked: undo it there first",
        "fcc has a fee or cost booked: undo it there first",
    ]
    assert words("da")(refused[1]) == "fcc har en betaling bogført: fortryd den der først"
    assert words("cs")(refused[0]) == "fcc má zapsanou hru: nejdřív ji tam vraťte"


# ---------------------------------------------------------------- the chain of its steps


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        (
            "UPDATE tournament_step SET detail = REPLACE(detail, '\"bob\"', '\"cat\"') "
            "WHERE kind = 'accept'",
            "step 2 of the event fcc (accept, 2026-11-20T20:00:00+00:00) is not the one its "
            "chain was made with",
        ),
        (
            "UPDATE tournament_step SET detail = REPLACE(detail, '\"seed\": 7', "
            "'\"seed\": 8') WHERE kind = 'draw'",
            "step 3 of the event fcc (draw, 2026-11-20T20:00:00+00:00) is not the one its "
            "chain was made with",
        ),
        (
            "UPDATE tournament SET terms = REPLACE(terms, '\"entry_cents\": 2000', "
            "'\"entry_cents\": 2500')",
            "the terms of the event fcc are not those the chain of its steps began with",
        ),
        (
            "DELETE FROM tournament_step WHERE id = (SELECT max(id) FROM tournament_step)",
            "fcc's chain: ",
        ),
    ],
    ids=["a step that still replays", "a draw", "the terms", "the last step taken out"],
)
def test_check_names_a_step_edited_behind_the_program_s_back(chouette, ledger_url, sql, problem):
    """The event's steps are chained (schema 21): each holds the digest of the steps up to
    it, the event where they began (its terms), and the purse's record the newest, so its
    chain and fingerprint prove them. A step edited outside chouette (even one whose event
    still replays), the terms changed, or the last step taken out: check names it."""
    two_levels(chouette)
    assert problems(chouette) == []
    execute(ledger_url, sql)
    found = problems(chouette)
    assert any(p.startswith(problem) for p in found), found


def test_an_export_keeps_the_chain_of_the_steps_and_a_restore_checks_it(
    chouette, tmp_path, monkeypatch
):
    """The export carries each step's digest; a restore (and verify) digests each step
    again and refuses one edited, naming it, even where the event still replays."""
    two_levels(chouette)
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = export.read_text().splitlines()
    event = json.loads(lines[-1])
    assert len({step["digest"] for step in event["steps"]}) == 5
    event["steps"][1]["detail"]["players"] = ["ann", "cat"]  # (still replays)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(event)]) + "\n")
    refused = chouette("verify", str(bad), code=1).stderr
    assert f"line {len(lines)}: step 2 of the event fcc (accept, " in refused
    unchained(event)  # the digests taken out too: the purse's chain does not fit
    bad.write_text("\n".join([*lines[:-1], json.dumps(event)]) + "\n")
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    refused = chouette("import", str(bad), code=1).stderr
    assert "fcc's chain does not check" in refused, refused


def test_an_event_s_steps_are_sealed_in_its_purse_s_chain(chouette):
    """Every step of the event (and its undo) is a link of its purse's chain: its
    fingerprint changes with each."""
    chouette(*FLORIDA)
    seen = {chouette.json("--session", "fcc", "sheet")["fingerprint"]}
    for step in (("event", "enter", *EIGHT), ("event", "draw", "--seed", "7"), ("event", "undo")):
        chouette(*step)
        seen.add(chouette.json("--session", "fcc", "sheet")["fingerprint"])
    assert len(seen) == 4
    assert problems(chouette) == []


def test_the_purse_s_own_notes_are_said_in_the_reader_s_language(chouette, tmp_path, monkeypatch):
    """Issue 36: the notes chouette writes in the purse (an entry, a re-entry, a place) are
    kept as words and their values: ``ledger`` says them in Danish and in Czech with no
    English word, its ``--json`` and the export keep the English (with the words beside it),
    a restored ledger says them again, and the place is written as each language does."""
    from tests.cli.test_languages_cli import the_languages_own, words

    two_levels(chouette)
    chouette("event", "end")
    purse = ("--session", "fcc", "ledger")
    english = chouette(*purse).stdout
    for note in ("entry to fcc", "re-entry to fcc", "1st place in fcc", "2nd place in fcc"):
        assert note in english
    names = {*EIGHT, "fcc", "org", "utc"}
    told = {lang: chouette("--lang", lang, *purse).stdout for lang in ("da", "cs")}
    for lang, text in told.items():
        assert not words(text) & words(english) - names - the_languages_own(lang), lang
        same = chouette("--lang", lang, *purse, "--json").stdout
        assert same == chouette(*purse, "--json").stdout
    assert "1. plads i fcc" in told["da"] and "genindskud til fcc" in told["da"]
    assert "1. místo v fcc" in told["cs"] and "opětovný vklad do fcc" in told["cs"]
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    charges = [line for line in lines if line["kind"] == "charge"]
    assert {c["note"] for c in charges} >= {"entry to fcc", "re-entry to fcc", "1st place in fcc"}
    assert all(c["words"]["values"]["event"] == "fcc" for c in charges)
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    assert chouette("--lang", "da", *purse).stdout == told["da"]


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize(
    ("words", "problem"),
    [
        ("REPLACE(words, 'entry to', 're-entry to')", "fcc's chain: the record is not the one"),
        ("'{\"said\": 5}'", "charge row 1: words is not what it should hold"),
    ],
    ids=["other words", "no words"],
)
def test_a_purse_note_s_words_changed_behind_the_program_s_back_are_found(
    chouette, ledger_url, words, problem
):
    """The words of a note chouette said are in the purse's chain: words edited to say
    another note are never shown (the note is, as written) and ``check`` names the chain;
    words that are no words are named where they are."""
    chouette(*FLORIDA)
    chouette("event", "enter", "ann", "bob")
    execute(ledger_url, f"UPDATE charge SET words = {words} WHERE id = 1")
    assert f"Problem: {problem}" in chouette("check", code=1).stderr
    if problem.startswith("fcc's chain"):
        shown = chouette("--lang", "da", "--session", "fcc", "ledger").stdout
        assert "gebyr til org: entry to fcc" in shown and "genindskud" not in shown


@pytest.mark.backends("sqlite")
def test_a_restore_refuses_a_purse_note_whose_words_say_another(chouette, tmp_path, monkeypatch):
    """An export whose note's words say something else than the note is refused, by line,
    and nothing is written."""
    chouette(*FLORIDA)
    chouette("event", "enter", "ann", "bob")
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    (number, charge), *_ = [(n, c) for n, c in enumerate(lines, 1) if c["kind"] == "charge"]
    charge["words"]["said"] = "re-entry to {event}"
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    refused = chouette("import", str(export), code=1).stderr
    assert refused == f"Error: line {number}: a charge's words do not say its note\n"
    assert not (tmp_path / "copy.db").exists() or "fcc" not in chouette("sessions").stdout
