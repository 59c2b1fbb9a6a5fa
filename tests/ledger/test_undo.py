"""Undo takes back the last thing done in the session, whatever it was, and says what.

A journal notes every command that changed a session; ``undo`` takes back the newest and
``chouette log`` lists them, newest first. The law: any command followed by ``undo`` leaves
the status, standings, score sheet, ledger, settlement and log exactly as they were.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.dump import unchained
from tests.examples import examples

NEUTRAL = {
    "session": "club",
    "winner": "ann",
    "loser": "bob",
    "cube": 1,
    "result": "single",
    "end": "bearoff",
    "points": 1,
}


def reports(chouette) -> dict[str, object]:
    """Everything a player can read of the session and the ledger, and the whole ledger as
    `export` writes it (players' own stakes and when they joined included)."""
    read: dict[str, object] = {
        name: chouette.json(*args)
        for name, args in {
            "status": ("status",),
            "standings": ("standings",),
            "sheet": ("sheet",),
            "ledger": ("ledger",),
            "settle": ("settle",),
            "log": ("log",),
        }.items()
    }
    read["export"] = chouette("export").stdout
    return unchained(read)  # type: ignore[return-value]


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_back_a_payment(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    before = reports(chouette)
    chouette("pay", "bob", "ann", "1.00", "--advance", "--note", "settling up")
    assert chouette("undo").stdout == "Undone: took back the payment: bob paid ann 1.00.\n"
    assert reports(chouette) == before
    assert (
        chouette("undo").stdout
        == "Undone: took back end box single (game 1 has not started now).\n"
    )


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_back_a_join_a_leave_a_sit_out_and_a_sit_in(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    states = [reports(chouette)]
    for command in (("join", "dan", "--stake", "2"), ("sit-out", "cat"), ("sit-in", "cat")):
        chouette(*command)
        states.append(reports(chouette))
    chouette("leave", "dan")
    said = [chouette("undo").stdout for _ in range(4)]
    assert said == [
        "Undone: took back dan leaves.\n",
        "Undone: took back cat sits in.\n",
        "Undone: took back cat sits out.\n",
        "Undone: took back dan joins at 2.00 a point.\n",
    ]
    assert reports(chouette) == states[0]
    # the game before the line changes can be taken back now (it never could after a leave)
    assert (
        chouette("undo").stdout
        == "Undone: took back end box single (game 1 has not started now).\n"
    )


@pytest.mark.backends("sqlite", "postgres")
def test_a_player_who_joins_again_gets_their_stake_back(chouette):
    # the session's stake (4.00) is not cat's (2.00), so the money tells them apart
    chouette("new", "friday", "ann", "bob", "cat", "--stake", "4", "--player-stake", "cat=2")
    chouette("leave", "cat")
    before = reports(chouette)
    chouette("join", "cat", "--stake", "3")
    chouette("undo")
    assert reports(chouette) == before
    assert chouette("join", "cat").stdout == "cat joins at 2.00 a point. Line: ann | bob, cat\n"
    chouette("end", "team")
    players = {p["name"]: p for p in chouette.json("standings")["players"]}
    assert players["bob"] == {
        "name": "bob",
        "points": 1,
        "cents": 400,
        "table_cents": 400,
        "paid_cents": 0,
    }
    assert players["cat"] == {
        "name": "cat",
        "points": 1,
        "cents": 200,
        "table_cents": 200,
        "paid_cents": 0,
    }  # ann's box at 2.00


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_back_a_whole_command_of_several_events(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    chouette("double", "bob", "cat")
    before = reports(chouette)
    chouette("take", "--all")
    assert chouette("undo").stdout == "Undone: took back take bob, take cat (game 1).\n"
    assert reports(chouette) == before
    assert chouette("undo").stdout == (
        "Undone: took back double bob, cat --by box (game 1 has not started now).\n"
    )


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_back_a_record_of_games(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    before = reports(chouette)
    records = "\n".join(json.dumps({"result": {"winner": w}}) for w in ("team", "box", "box"))
    chouette("record", "-", input=records + "\n")
    assert chouette("undo").stdout == "Undone: took back the record of games 2–4.\n"
    assert reports(chouette) == before


@pytest.mark.backends("sqlite", "postgres")
def test_log_lists_what_undo_would_take_back_newest_first(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob", "cat")
    assert chouette("log").stdout == "Nothing done in friday yet that undo could take back.\n"
    chouette("double", "bob")
    chouette("drop", "bob")
    chouette("end", "box")
    chouette("pay", "bob", "ann", "1.50", "--advance")
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({**NEUTRAL, "game": 1}) + "\n", encoding="utf-8")
    chouette("import", str(path))
    chouette("sit-out", "cat")
    assert [row.split(None, 2)[2] for row in chouette("log").stdout.splitlines()[2:]] == [
        "cat sits out",
        "the import of games.jsonl (game 2)",
        "the payment: bob paid ann 1.50",
        "end box single (game 1)",
        "drop bob (game 1)",
        "double bob --by box (game 1)",
    ]
    assert chouette.json("log", "--limit", "1")["done"] == [
        {"at": "2026-11-20T20:00:00+00:00", "what": "line", "text": "cat sits out"}
    ]


@pytest.mark.parametrize(
    ("lang", "listed"),
    [
        (
            "da",
            [
                "delingen af friday: eve, fay, dan til late",
                "dan er med igen",
                "dan står over",
                "omdøbningen af club til friday",
                "reglerne accepteret af ann, bob og cat",
                "betalingen: bob betalte ann 1,50",
                "dan kommer med til 2,00 pr. point, med en kredit på 10,00",
            ],
        ),
        (
            "cs",
            [
                "rozdělení friday: eve, fay, dan do late",
                "dan se vrací do hry",
                "dan vynechává",
                "přejmenování club na friday",
                "přijetí pravidel: ann, bob a cat",
                "platba: bob zaplatil hráči ann 1,50",
                "dan přisedá o 2,00 za bod, s úvěrem 10,00",
            ],
        ),
    ],
)
def test_what_was_done_is_listed_and_taken_back_in_the_readers_words(chouette, lang, listed):
    """The journal keeps what each command did as words and their values, not as English:
    ``log`` and ``undo`` say it in the reader's language; ``--json`` keeps the English."""
    chouette("new", "club", "ann", "bob", "cat", "eve", "fay")
    chouette("join", "dan", "--stake", "2", "--credit", "10")
    chouette("pay", "bob", "ann", "1.50", "--advance")
    chouette("accept", "ann", "bob", "cat")
    chouette("sessions", "--rename", "club", "friday")
    chouette("sit-out", "dan")
    chouette("sit-in", "dan")
    chouette("split", "late")
    english = [row.split(None, 2)[2] for row in chouette("log").stdout.splitlines()[2:]]
    assert english == [
        "the split of friday: eve, fay, dan to late",
        "dan sits in",
        "dan sits out",
        "the rename of club to friday",
        "the acceptance of the rules by ann, bob and cat",
        "the payment: bob paid ann 1.50",
        "dan joins at 2.00 a point, with a credit of 10.00",
    ]
    rows = chouette("--lang", lang, "log").stdout.splitlines()[2:]
    assert [row.split(None, 2)[2] for row in rows] == listed
    assert chouette("--lang", lang, "log", "--json").stdout == chouette("log", "--json").stdout
    chouette("undo")
    rows = chouette("--lang", lang, "log").stdout.splitlines()[2:]
    assert [row.split(None, 2)[2] for row in rows] == listed[1:]


def test_undo_help_names_every_change_it_takes_back(chouette):
    """Each of these changes is taken back by undo, and undo's help says so."""
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay", "--proxies")
    text = " ".join(chouette("undo", "--help").stdout.split())
    for args, named in [
        (("join", "gus"), "a join"),
        (("leave", "fay"), "leave"),
        (("sit-out", "eve"), "sit-out"),
        (("proxy", "dan", "--by", "ann"), "a proxy"),
        (("split", "fri-2"), "a split"),
        (("pay", "bob", "ann", "1.00", "--advance"), "a payment"),
    ]:
        before = chouette("log").stdout
        chouette(*args)
        assert chouette("undo").stdout.startswith("Undone: ")
        assert chouette("log").stdout == before
        assert named in text, (args, text)


@pytest.mark.backends("sqlite", "postgres")
def test_log_limit_is_one_or_more_on_either_backend(chouette):
    """``--limit 0`` said nothing had been done yet; ``--limit -1`` listed everything on
    SQLite and called the PostgreSQL ledger unusable. Both are a usage error now."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    for limit in ("0", "-1"):
        result = chouette("log", "--limit", limit, code=2)
        assert "Invalid value for '--limit'" in result.stderr and not result.stdout
    assert chouette.json("log", "--limit", "1")["done"][0]["text"] == "double bob --by box (game 1)"


# ---------------------------------------------------------------- the law

COMMANDS = [
    ("auto-double",),
    ("double", "bob"),
    ("double", "bob", "cat"),
    ("double", "cat", "--by", "member"),
    ("take", "bob"),
    ("take", "--all"),
    ("drop", "cat"),
    ("drop", "--all"),
    ("beaver", "bob"),
    ("raccoon", "bob"),
    ("deal", "dan", "1"),
    ("deal", "cat", "-2"),
    ("end", "box"),
    ("end", "team", "--gammon"),
    ("pay", "ann", "bob", "1.25", "--advance"),
    ("pay", "cat", "ann", "0.50", "--advance", "--note", "a drink"),
    ("pay", "bob", "ann", "1.00"),  # refused unless bob owes ann that much
    ("join", "eve"),
    ("join", "eve", "--stake", "2"),
    ("leave", "eve"),
    ("leave", "dan"),
    ("join", "dan"),
    ("sit-out", "cat"),
    ("sit-in", "cat"),
    ("record", "-"),
    ("import", "FILE"),
    # the cube's house rules (each refused where the session's rules do not have it)
    ("auto-double", "--box-chooses"),
    ("carry", "accept"),
    ("carry", "decline"),
    ("resign", "bob"),
    ("resign", "--gammon"),
    ("resign", "--accept", "bob"),
    ("resign", "--refuse", "--all"),
    ("captain-resigns", "cat"),
    ("captain-resigns", "dan", "--gammon"),
    # the rules card: an acceptance of the rules is a thing done, taken back by undo
    ("accept", "ann", "bob"),
    # a correction of a past game (refused unless game 1 or 2 is over and ended otherwise)
    ("amend", "1", "--result", "team", "gammon", "--note", "it was a gammon"),
    ("amend", "2", "--result", "box", "--note", "the box won"),
    ("extra", "bob", "cat"),
    ("double-extra", "bob", "cat"),
    ("take-extra", "bob", "cat"),
    ("drop-extra", "bob", "cat"),
    # the box's partner and table stakes
    ("partner", "cat"),
    ("partner", "--none"),
    ("buy-out",),
    ("bank", "ann", "5"),
]

# The house rules a session of the law is started with (after `--auto-doubles 1`).
RULES: list[tuple[str, ...]] = [
    (),
    ("--auto-past-limit", "carry-over", "--captain-resigns", "takeover"),
    ("--auto-past-limit", "box-choice", "--resignations", "per-member", "--box-takes", "half"),
    ("--extras", "--mandatory-extras", "--extra-redoubles", "--jacoby-scope", "any-cube-turned",
     "--box-doubles", "with-captain"),
    ("--mandatory-beaver", "--beaver-limit", "1", "--beavers-by", "team", "--no-deals",
     "--box-takes", "break-even"),
    ("--partner-from", "4", "--partner-pick", "box", "--buy-outs", "--partner-run",
     "--retention", "won-not-loss"),
    ("--table-stakes", "2", "--retention", "score-sign"),
]  # fmt: skip


def run_command(chouette, command, folder: Path, step: int):
    """Run one of COMMANDS as a user would (a record on standard input, an import of a small
    file of its own); refused commands are part of the game too."""
    if command == ("record", "-"):
        return chouette("record", "-", input='{"result": {"winner": "team"}}\n', code=None)
    if command == ("import", "FILE"):
        path = folder / f"import-{step}.jsonl"
        game = {**NEUTRAL, "game": step, "winner": "ann" if step % 2 else "bob"}
        game["loser"] = "bob" if game["winner"] == "ann" else "ann"
        path.write_text(json.dumps(game) + "\n", encoding="utf-8")
        return chouette("import", str(path), code=None)
    return chouette(*command, code=None)


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=14), st.sampled_from(RULES))
# drawn at random, an answer to a beaver, a player sitting back in or one joining again
# seldom succeeds (each needs the command before it): these run every time
@example([("double", "bob"), ("beaver", "bob"), ("raccoon", "bob")], ())
@example([("record", "-"), ("end", "team", "--gammon")], ())
@example([("double", "bob", "cat"), ("take", "bob"), ("drop", "cat"), ("end", "box")], ())
@example([("double", "bob", "cat"), ("take", "--all"), ("double", "cat", "--by", "member"),
          ("drop", "--all")], ())  # fmt: skip
@example([("sit-out", "cat"), ("sit-in", "cat"), ("leave", "dan"), ("join", "dan")], ())
@example([("join", "eve"), ("leave", "eve"), ("join", "eve", "--stake", "2")], ())
@example([("pay", "ann", "bob", "1.25", "--advance"),
          ("pay", "cat", "ann", "0.50", "--advance", "--note", "a drink"),
          ("auto-double",), ("deal", "dan", "1"), ("deal", "cat", "-2"),
          ("import", "FILE")], ())  # fmt: skip
# and so do the cube's house rules: a carry-over, resignations, an extra's redouble
@example([("auto-double",), ("auto-double",), ("end", "box"), ("carry", "accept")], RULES[1])
@example([("double", "bob", "cat"), ("take", "--all"), ("captain-resigns", "cat"),
          ("end", "team")], RULES[1])  # fmt: skip
@example([("resign", "bob"), ("resign", "--accept", "bob"), ("resign", "--gammon"),
          ("resign", "--refuse", "--all")], RULES[2])  # fmt: skip
@example([("accept", "ann", "bob"), ("double", "bob"), ("accept", "cat")], ())
@example([("double", "bob"), ("take", "bob"), ("end", "box"), ("sit-out", "cat"),
          ("end", "box"), ("double", "cat", "--by", "member"),
          ("amend", "1", "--result", "team", "gammon", "--note", "a gammon")], ())  # fmt: skip
@example([("double", "bob", "cat"), ("drop", "cat"), ("take", "bob"), ("extra", "bob", "cat"),
          ("double-extra", "bob", "cat"), ("take-extra", "bob", "cat"), ("drop", "bob")],
         RULES[3])  # fmt: skip
@example([("double", "bob", "cat"), ("drop", "cat"), ("take", "bob"), ("extra", "bob", "cat"),
          ("drop", "bob")], RULES[3])  # fmt: skip
@example([("partner", "cat"), ("buy-out",), ("double", "bob", "--by", "member"),
          ("drop", "bob"), ("end", "box"), ("partner", "--none")], RULES[5])  # fmt: skip
@example([("double", "bob"), ("take", "bob"), ("end", "team", "--gammon"), ("bank", "ann", "5"),
          ("end", "box")], RULES[6])  # fmt: skip
# a correction taken back puts its games' bookings back in the ledger's order, past an
# imported game it does not book again
@example([("join", "eve"), ("end", "box"), ("import", "FILE"), ("auto-double",),
          ("amend", "1", "--result", "team", "gammon", "--note", "a gammon")], ())  # fmt: skip
def test_any_command_followed_by_undo_changes_nothing(commands, options):
    """Whatever state the session is in, a command that succeeds and is then undone leaves
    every report exactly as it was; then the command is given again, and play goes on."""
    from db.engine import dispose_all
    from tests.conftest import Chouette

    chouette = Chouette()  # the ledger is made anew for each example, below (a copy)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CHOUETTE_DB"] = str(Path(folder) / "ledger.db")
        chouette.begun(("new", "club", "ann", "bob", "cat", "dan", "--auto-doubles", "1",
                        *options))  # fmt: skip
        try:
            before = reports(chouette)  # read again only after a step that changed something
            for step, command in enumerate(commands, start=1):
                done = run_command(chouette, command, Path(folder), step)
                if done.exit_code != 0:
                    assert done.exit_code == 1 and done.stderr.startswith("Error: "), done
                    assert reports(chouette) == before, command
                    continue
                if unchained(chouette.json("log")) == before["log"]:  # no trail: it did
                    # nothing (an auto-double past the limit, say), or the law fails here
                    assert reports(chouette) == before, command
                    continue  # (undo would take back what was done before it)
                said = chouette("undo").stdout
                assert said.startswith("Undone: took back "), said
                assert reports(chouette) == before, (command, said)
                assert run_command(chouette, command, Path(folder), step).exit_code == 0
                before = reports(chouette)
            chouette("check")
        finally:
            dispose_all()


# ---------------------------------------------------------------- the club's commands undone


CLUB_COMMANDS = [
    ("double", "bob", "cat"),
    ("take", "--all"),
    ("drop", "--all"),
    ("extra", "bob", "cat"),
    ("extra", "dan", "box", "--points", "1"),
    ("extra", "cat", "dan", "--points", "4", "--premium", "0"),
    ("end", "box"),
    ("end", "team", "--gammon"),
    ("proxy", "dan", "--follows", "captain"),
    ("proxy", "eve", "--by", "cat"),
    ("proxy", "dan", "--withdraw"),
    ("join", "gus"),
    ("leave", "gus"),
    ("split", "second"),
]


@pytest.mark.backends("sqlite")
@settings(max_examples=examples(10), deadline=None)
@given(st.lists(st.sampled_from(CLUB_COMMANDS), min_size=1, max_size=10))
# drawn at random, a split, a withdrawn proxy or a player who joins and leaves seldom
# succeeds (the line changes only between games): these run every time
@example([("split", "second")])
@example([("proxy", "dan", "--follows", "captain"), ("proxy", "dan", "--withdraw")])
@example([("proxy", "eve", "--by", "cat"), ("join", "gus"), ("leave", "gus")])
@example([("double", "bob", "cat"), ("take", "--all"), ("extra", "bob", "cat"),
          ("extra", "dan", "box", "--points", "1"), ("end", "team", "--gammon")])  # fmt: skip
@example([("double", "bob", "cat"), ("drop", "--all"),
          ("extra", "cat", "dan", "--points", "4", "--premium", "0"), ("end", "box")])  # fmt: skip
def test_any_club_command_followed_by_undo_changes_nothing(commands):
    """Whatever the session's state, an extra, a proxy or a split that succeeds and is then
    undone leaves every report and the list of sessions as they were; then it is given
    again and play goes on."""
    from db.engine import dispose_all
    from tests.conftest import Chouette

    chouette = Chouette()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CHOUETTE_DB"] = str(Path(folder) / "ledger.db")
        chouette.begun(("new", "club", "ann", "bob", "cat", "dan", "eve", "fay", "--extras",
                        "--proxies"))  # fmt: skip
        try:

            def seen() -> dict[str, object]:
                return {**reports(chouette), "sessions": chouette.json("sessions")}

            before = seen()  # read again only after a step that changed something
            for command in commands:
                done = chouette("--session", "club", *command, code=None)
                if done.exit_code != 0:
                    assert done.exit_code == 1 and done.stderr.startswith("Error: "), done
                    assert seen() == before, command
                    continue
                said = chouette("--session", "club", "undo").stdout
                assert said.startswith("Undone: took back "), said
                assert seen() == before, (command, said)
                assert chouette("--session", "club", *command, code=None).exit_code == 0
                before = seen()
            chouette("check")
        finally:
            dispose_all()


@pytest.mark.backends("sqlite", "postgres")
def test_undo_takes_back_a_board_given_afterwards(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob", "--position", "4HPwATDgc/ABMA")
    chouette("take", "bob")
    chouette("end", "box")
    before = reports(chouette)
    chouette("position", "1", "2", "YAAAGAAAAAAAAA")  # the double's board, given again
    assert reports(chouette) != before
    assert chouette("undo").stdout == (
        "Undone: took back the position YAAAGAAAAAAAAA of game 1's step 2.\n"
    )
    assert reports(chouette) == before
    assert chouette("check").stdout.startswith("The ledger is consistent")


@pytest.mark.parametrize(
    ("lang", "nothing", "booked"),
    [
        (
            "da",
            "intet at fortryde i friday: intet spil er spillet",
            "friday har et spil bogført, og posteringer er regnskabets optegnelse: fortryd dem "
            "først (chouette --session friday undo) for at slette den",
        ),
        (
            "cs",
            "v friday není co vrátit: nebyla odehrána žádná hra",
            "friday má zapsanou hru a zápisy jsou záznamem knihy: nejprve je vraťte (chouette "
            "--session friday undo), chcete-li ji smazat",
        ),
    ],
)
def test_the_ledgers_refusals_read_in_the_readers_words(chouette, lang, nothing, booked):
    chouette("new", "friday", "ann", "bob", "cat")
    assert nothing in chouette("--lang", lang, "undo", code=1).stderr
    assert "nothing to undo in friday: no game has been played" in chouette("undo", code=1).stderr
    chouette("end", "box")
    refused = chouette("--lang", lang, "sessions", "--delete", "friday", code=1).stderr
    assert booked in " ".join(refused.split())
