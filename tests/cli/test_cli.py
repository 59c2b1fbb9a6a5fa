"""A whole evening through the CLI, every report as exact text, every --json shape."""

from __future__ import annotations

import json
import os
import re

import pytest

from tests.dump import dump, unchained

pytestmark = pytest.mark.backends("sqlite", "postgres")

EVENING = [
    ("new", "friday", "ann", "bob", "cat", "dan", "--stake", "2.50", "--player-stake", "dan=1.00"),
    ("double", "bob", "cat", "dan"),
    ("take", "bob"),
    ("beaver", "cat"),
    ("raccoon", "cat"),
    ("drop", "cat"),
    ("drop", "dan"),
]


def play_evening(chouette):
    for args in EVENING:
        chouette(*args)


def test_a_cube_exchange_reads_like_the_table(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    assert chouette("double", "bob", "cat").stdout == (
        "Game 1: the box, ann, doubles bob, cat.\n"
        "  bob: cube 1, double to 2 pending: bob to answer\n"
        "  cat: cube 1, double to 2 pending: cat to answer\n"
    )
    assert chouette("beaver", "bob").stdout == (
        "Game 1: bob beavers.\n  bob: cube 2, beaver to 4 pending: ann to answer\n"
    )
    assert chouette("raccoon", "bob").stdout == (
        "Game 1: the box, ann, raccoons on bob's cube.\n"
        "  bob: cube 4, raccoon to 8 pending: bob to answer\n"
    )


@pytest.mark.parametrize(
    ("code", "doubled", "taken"),
    [
        (
            "da",
            "Spil 1: boksen, ann, dobler bob.\n"
            "  bob: terning 1, dobling til 2 venter: bob skal svare\n",
            "Spil 1: bob tager.\n  bob: terning 2, bob ejer den\n",
        ),
        (
            "cs",
            "Hra 1: bankéř ann zdvojuje: bob.\n  bob: kostka 1, zdvojení na 2 čeká: odpovídá bob\n",
            "Hra 1: bob přijímá.\n  bob: kostka 2, vlastní ji bob\n",
        ),
    ],
)
def test_an_event_reads_in_the_terminals_language(chouette, monkeypatch, code, doubled, taken):
    chouette("new", "friday", "ann", "bob", "cat")
    monkeypatch.setenv("LANGUAGE", code)
    assert chouette("double", "bob").stdout == doubled
    assert chouette("take", "bob").stdout == taken
    monkeypatch.setenv("LANGUAGE", "en")
    assert chouette.json("status")["game"]["cubes"]["bob"]["value"] == 2


def test_status_shows_every_cube(chouette):
    play_evening(chouette)
    assert chouette("status").stdout == (
        "Session friday: game 1 (in progress)\n"
        "Line: ann | bob, cat, dan\n"
        "At risk (the most each can lose on this game, as the cubes stand): ann 4.00 (1), "
        "bob 15.00 (6), cat 10.00 (4), dan 1.00 (1)\n"
        "member      cube  owner    to answer    state\n"
        "--------  ------  -------  -----------  ---------------------------------\n"
        "bob            2  bob      -            live\n"
        "cat            4  cat      -            out, -4 (cat refused the raccoon)\n"
        "dan            1  centre   -            out, -1 (dan dropped)\n"
    )


def test_undo_takes_back_the_last_event(chouette):
    play_evening(chouette)
    assert chouette("undo").stdout == "Undone: took back drop dan (game 1).\n"
    assert chouette.json("status") == {
        "session": "friday",
        "line": ["ann", "bob", "cat", "dan"],
        "box": "ann",
        "captain": "bob",
        "crew": ["cat", "dan"],
        "partner": None,
        "sitting_out": [],
        "away": {},
        "game": {
            "number": 1,
            "cubes": {
                "bob": {"value": 2, "owner": "bob", "pending": None, "out": False},
                "cat": {"value": 4, "owner": "cat", "pending": None, "out": True},
                "dan": {"value": 1, "owner": "centre", "pending": "dan", "out": False},
            },
        },
        "at_risk": {  # bob's cube at 2 as a backgammon; cat lost 4; dan's double, taken
            "ann": {"points": 8, "cents": 1100},
            "bob": {"points": 6, "cents": 1500},
            "cat": {"points": 4, "cents": 1000},
            "dan": {"points": 6, "cents": 600},
        },
    }


def test_end_books_the_game_at_per_player_stakes(chouette):
    play_evening(chouette)
    assert chouette.json("end", "team", "--gammon") == {
        "session": "friday",
        "game": 1,
        "pairs": {"bob": 4, "cat": -4, "dan": -1},
        "points": {"ann": 1, "bob": 4, "cat": -4, "dan": -1},
        "cents": {"ann": 100, "bob": 1000, "cat": -1000, "dan": -100},
        "next_line": ["bob", "cat", "dan", "ann"],
        "why": [
            "the gammon counts in full for bob: bob's cube was turned (Jacoby)",
            "dan and ann play at 1.00 a point, the lower of their stakes (1.00 and 2.50)",
            "box goes: captain rule, bob beat the box (+4)",
            "bob takes the box; ann goes to the bottom of the line",
        ],
        "over": True,
        "said": [
            "Game 1: the team wins a gammon.",
            "  bob: out, +4 (board)",
            "Game 1 is over.",
        ],
    }
    assert chouette("status").stdout == (
        "Session friday: game 2 (not started)\nLine: bob | cat, dan, ann\n"
    )


def test_a_pipe_in_a_name_stays_inside_its_markdown_cell(chouette):
    chouette("new", "friday", "a|b", "cat")
    chouette("end", "box")
    standings = chouette("standings", "--format", "markdown").stdout
    assert "\n| a\\|b " in standings
    sheet = chouette("sheet", "--format", "markdown").stdout.splitlines()[1:6]
    assert "a\\|b" in sheet[0]
    # every row has the header's cells (player, points, money; game, box, captain, a|b,
    # cat): the | in a|b is escaped, \| as GFM reads it
    for rows, cells in ((standings.splitlines(), 3), (sheet, 5)):
        assert {len(row.replace("\\|", "").split("|")) - 2 for row in rows} == {cells}


def test_reports_after_a_game(chouette):
    play_evening(chouette)
    chouette("end", "team", "--gammon")
    assert chouette("sheet", "--format", "csv").stdout == (
        "game,kind,box,captain,ann,bob,cat,dan\n"
        "1,chouette,ann,bob,1,4,-4,-1\n"
        "total,points,,,1,4,-4,-1\n"
        "total,money,,,1.00,10.00,-10.00,-1.00\n"
    )
    assert unchained(chouette("sheet", "--format", "markdown").stdout) == (
        "Session friday: stake 2.50 a point; standard rules.\n"
        "| game   | box   | captain   |     ann |     bob |     cat |     dan |\n"
        "|--------|-------|-----------|---------|---------|---------|---------|\n"
        "| 1      | ann   | bob       | +1 → +1 | +4 → +4 | -4 → -4 | -1 → -1 |\n"
        "| total  |       |           |      +1 |      +4 |      -4 |      -1 |\n"
        "| money  |       |           |   +1.00 |  +10.00 |  -10.00 |   -1.00 |\n"
        "Why (the rules that decided each game):\n"
        "  game 1: the gammon counts in full for bob: bob's cube was turned (Jacoby)\n"
        "          dan and ann play at 1.00 a point, the lower of their stakes (1.00 and 2.50)\n"
        "          box goes: captain rule, bob beat the box (+4)\n"
        "          bob takes the box; ann goes to the bottom of the line\n"
    )
    assert chouette("standings").stdout == (
        "player      points    money\n"
        "--------  --------  -------\n"
        "bob             +4   +10.00\n"
        "ann             +1    +1.00\n"
        "dan             -1    -1.00\n"
        "cat             -4   -10.00\n"
    )
    assert chouette.json("standings") == {
        "session": "friday",
        "players": [
            {"name": "bob", "points": 4, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
            {"name": "ann", "points": 1, "cents": 100, "table_cents": 100, "paid_cents": 0},
            {"name": "dan", "points": -1, "cents": -100, "table_cents": -100, "paid_cents": 0},
            {"name": "cat", "points": -4, "cents": -1000, "table_cents": -1000, "paid_cents": 0},
        ],
    }
    assert unchained(chouette.json("sheet")) == {
        "session": "friday",
        "players": ["ann", "bob", "cat", "dan"],
        "accepted": [],
        "not_accepted": ["bob", "cat", "dan", "ann"],
        "games": [
            {
                "game": 1,
                "points": {"ann": 1, "bob": 4, "cat": -4, "dan": -1},
                "cents": {"ann": 100, "bob": 1000, "cat": -1000, "dan": -100},
                "why": [
                    "the gammon counts in full for bob: bob's cube was turned (Jacoby)",
                    "dan and ann play at 1.00 a point, the lower of their stakes (1.00 and 2.50)",
                    "box goes: captain rule, bob beat the box (+4)",
                    "bob takes the box; ann goes to the bottom of the line",
                ],
            }
        ],
    }
    assert unchained(chouette("settle").stdout) == (
        "from    to      amount\n"
        "------  ----  --------\n"
        "cat     bob      10.00\n"
        "dan     ann       1.00\n"
    )
    assert unchained(chouette.json("settle")) == {
        "payments": [
            {"from": "cat", "to": "bob", "cents": 1000},
            {"from": "dan", "to": "ann", "cents": 100},
        ]
    }
    assert chouette("ledger", "--format", "csv").stdout == (
        "time (UTC),session,game,player,points,money,note\n"
        "2026-11-20 20:00,friday,1,ann,+1,+1.00,game\n"
        "2026-11-20 20:00,friday,1,bob,+4,+10.00,game\n"
        "2026-11-20 20:00,friday,1,cat,-4,-10.00,game\n"
        "2026-11-20 20:00,friday,1,dan,-1,-1.00,game\n"
    )
    ledger = chouette.json("ledger")
    assert [(b["player"], b["cents"]) for b in ledger["bookings"]] == [
        ("ann", 100),
        ("bob", 1000),
        ("cat", -1000),
        ("dan", -100),
    ]


def test_undo_of_an_end_removes_its_bookings_and_restores_the_line(chouette):
    play_evening(chouette)
    chouette("end", "team", "--gammon")
    assert chouette("undo").stdout == "Undone: took back end team gammon (game 1).\n"
    assert chouette.json("standings")["players"] == [
        {"name": n, "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0}
        for n in ("ann", "bob", "cat", "dan")
    ]
    assert chouette.json("status")["line"] == ["ann", "bob", "cat", "dan"]
    assert chouette.json("status")["game"]["number"] == 1
    chouette("end", "box")
    assert chouette.json("standings")["players"][0] == {
        "name": "ann",
        "points": 7,
        "cents": 1600,
        "table_cents": 1600,
        "paid_cents": 0,
    }


def test_every_pair_dropping_ends_the_game(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob", "cat")
    chouette("drop", "bob")
    out = chouette("drop", "cat").stdout
    assert "Game 1 is over." in out and "Next line: ann | cat, bob" in out


def test_game_json_is_a_record_that_books_the_same_game(chouette, tmp_path):
    play_evening(chouette)
    chouette("end", "box", "--backgammon", "--resigned")
    record = chouette.json("game", "1")
    assert record == {
        "session": "friday",
        "line": ["ann", "bob", "cat", "dan"],
        "events": [
            {"act": "double", "by": "box", "members": ["bob", "cat", "dan"]},
            {"act": "take", "member": "bob"},
            {"act": "beaver", "member": "cat"},
            {"act": "raccoon", "member": "cat"},
            {"act": "drop", "member": "cat"},
            {"act": "drop", "member": "dan"},
        ],
        "result": {"winner": "box", "kind": "backgammon", "resigned": True},
        "why": [
            "the backgammon counts in full for bob: bob's cube was turned (Jacoby)",
            "dan and ann play at 1.00 a point, the lower of their stakes (1.00 and 2.50)",
            "box stays: captain rule, bob lost to the box (-6)",
            "ann keeps the box; bob, the captain, goes to the bottom of the line",
        ],
    }
    chouette(
        "new",
        "saturday",
        "ann",
        "bob",
        "cat",
        "dan",
        "--stake",
        "2.50",
        "--player-stake",
        "dan=1.00",
    )
    del record["session"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    booked = chouette.json("record", str(path))
    assert booked["session"] == "saturday"
    assert booked["points"] == {"ann": 11, "bob": -6, "cat": -4, "dan": -1}


def test_record_reads_json_lines_from_stdin(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    lines = "\n".join(
        json.dumps(r)
        for r in [
            {"line": ["ann", "bob", "cat"], "events": [], "result": {"winner": "box"}},
            {"box": "ann", "captain": "cat", "crew": ["bob"], "result": {"winner": "team"}},
        ]
    )
    out = chouette("record", "-", input=lines).stdout
    assert out == (
        "Booked game 1 of friday; next line: ann | cat, bob\n"
        "Booked game 2 of friday; next line: cat | bob, ann\n"
    )


BAD_RECORDS = [
    (
        '{"line": ["bob", "ann", "cat"], "result": {"winner": "box"}}',
        "record: its line bob, ann, cat is not the session's line (ann, bob, cat)",
    ),
    (
        '[{"result": {"winner": "box"}}, {"events": [{"act": "raccoon", "member": "cat"}]}]',
        "record 2, event 1 (raccoon cat): there is no double on cat's cube to raccoon",
    ),
    (
        '{"events": [{"act": "double", "by": "member", "members": ["zed"]}]}',
        "record, event 1 (double zed --by member): zed is not playing this game",
    ),
    (
        '{"events": [{"act": "double", "members": ["bob"]}]}',
        "record: no 'result', but bob, cat still playing",
    ),
    ('{"events": [{"act": "dance"}]}', "record, event 1: 'act' must be one of auto-double,"),
    ('{"result": {"winner": "box", "kind": "triple"}}', "'kind' must be single, gammon or"),
    ("[1, 2", "not JSON"),
    ('{"session": "nope", "result": {"winner": "box"}}', "there is no session called nope"),
]


@pytest.mark.parametrize(("text", "message"), BAD_RECORDS)
def test_a_bad_record_is_refused_whole_and_writes_nothing(chouette, ledger_url, text, message):
    chouette.begun(("new", "friday", "ann", "bob", "cat"))
    before = dump(ledger_url)
    result = chouette("record", "-", input=text, code=1)
    assert message in result.stderr
    assert result.stderr.startswith("Error: ")
    assert dump(ledger_url) == before


REFUSALS = [
    (["take", "zed"], "zed is not playing this game"),
    (["double", "ann"], "ann is the box: name a member of the team"),
    (["drop", "cat"], "there is no double on cat's cube to drop"),
    (["end", "box"], "the game cannot end with a decision pending on bob's cube"),
    (["join", "eve"], "game 2 is in progress: change the line after it ends"),
    (["sit-out", "cat"], "game 2 is in progress: change the line after it ends"),
    (["new", "friday", "x", "y"], "there is already a session called friday"),
    (["--session", "nope", "status"], "there is no session called nope"),
    (["take", "bob", "--game", "1"], "game 1 is over, and game 2 is the current game"),
    (["take", "bob", "--game", "3"], "there is no game 3 yet: game 2 is in progress"),
    (["raccoon", "bob"], "bob cannot raccoon: only a beaver can be raccooned"),
    (["auto-double"], "automatic doubles happen on the opening roll"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_refusals_name_the_people_exit_1_and_write_nothing(chouette, ledger_url, args, message):
    chouette.begun(("new", "friday", "ann", "bob", "cat"), ("end", "box"), ("double", "bob"))
    before = dump(ledger_url)
    result = chouette(*args, code=1)
    assert result.stderr == f"Error: {message}\n" or message in result.stderr
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("da", "Fejl: bob kan ikke raccoone: kun en beaver kan raccoones\n"),
        ("cs", "Chyba: bob nemůže dát mývala: mývala lze dát jen na bobra\n"),
    ],
)
def test_a_refusal_reads_in_the_terminals_language(chouette, monkeypatch, language, message):
    """The game's refusal is said in the words of the terminal's language (``LANGUAGE``, as
    gettext reads it), exit 1 as in English."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("double", "bob")
    monkeypatch.setenv("LANGUAGE", language)
    assert chouette("raccoon", "bob", code=1).stderr == message


def test_an_ignored_automatic_double_says_so_and_writes_nothing(chouette, ledger_url):
    chouette("new", "friday", "ann", "bob", "cat", "--auto-doubles", "1")
    chouette("auto-double")
    before = dump(ledger_url)
    result = chouette("auto-double")
    assert result.stdout == ""  # a note is for the person, on stderr
    assert result.stderr == (
        "Note: the tied roll doubles nothing, as the session's 1 automatic double has been "
        "played.\n"
    )
    assert dump(ledger_url) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "x", "a", "b", "--stake", "1.0051"], "not a whole number of cents"),
        (["new", "x", "a", "b", "--cubes", "triple"], "Invalid value"),
        (["end", "sideways"], "Invalid value"),
        (["take"], "name the member whose cube you take, or use --all"),
        (["end", "box", "--gammon", "--backgammon"], "--gammon or --backgammon, not both"),
        (["double", "bob", "--game", "0"], "Invalid value for '--game'"),  # games count from 1
        (["double", "bob", "--game", "-1"], "Invalid value for '--game'"),
    ],
)
def test_bad_usage_exits_2(chouette, args, message):
    chouette.begun(("new", "friday", "ann", "bob"))
    assert message in chouette(*args, code=2).stderr


def test_no_session_yet_is_a_clear_error(chouette, backend, ledger_url):
    """A report of a ledger not started yet says so, and names it; once a ledger is started
    (`chouette migrate`), a report of it says it has no session yet."""
    from db.engine import where

    result = chouette("status", code=1)
    if backend == "sqlite":
        assert result.stderr == (
            f"Error: there is no ledger at {where(ledger_url)}: `chouette new NAME PLAYER...` "
            "starts one (or check --db and CHOUETTE_DB)\n"
        )
    else:
        assert result.stderr == (
            f"Error: the ledger at {where(ledger_url)} is empty: `chouette new NAME PLAYER...` "
            "starts one\n"
        )
    chouette("migrate")
    result = chouette("status", code=1)
    assert result.stderr == "Error: no session yet: start one with `chouette new NAME PLAYER...`\n"


def test_roll_off_prints_the_rolls_and_is_reproducible(chouette):
    out = chouette("new", "friday", "ann", "bob", "cat", "dan", "--roll", "--seed", "7").stdout
    again = chouette("new", "saturday", "ann", "bob", "cat", "dan", "--roll", "--seed", "7").stdout
    assert out.startswith("Roll-off (seed 7):\n  round 1: ann ")
    assert out.splitlines()[:-2] == again.splitlines()[:-2]
    assert out.splitlines()[-1] == again.splitlines()[-1]


def test_line_changes_between_games(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "--newcomer", "before-loser")
    chouette("end", "box")
    assert (
        chouette("join", "dan", "--stake", "3").stdout
        == "dan joins at 3.00 a point. Line: ann | cat, dan, bob\n"
    )
    assert chouette("sit-out", "cat").stdout == (
        "cat sits out. Line: ann | dan, bob  (sitting out: cat)\n"
    )
    assert chouette.json("status")["captain"] == "dan"
    # no game since cat sat out: cat is the captain again, as before
    assert chouette("sit-in", "cat").stdout == "cat sits in. Line: ann | cat, dan, bob\n"
    assert chouette("leave", "ann").stdout == "ann leaves. Line: cat | dan, bob\n"
    chouette("end", "team")
    names = [p["name"] for p in chouette.json("standings")["players"]]
    assert sorted(names) == ["ann", "bob", "cat", "dan"]


def test_session_option_switches_the_current_session(chouette):
    chouette("new", "friday", "ann", "bob")
    chouette("new", "saturday", "cat", "dan")
    assert chouette.json("status")["session"] == "saturday"
    chouette("--session", "friday", "end", "box")
    assert chouette.json("status")["session"] == "friday"
    out = chouette("sessions").stdout
    assert [line.split()[:2] for line in out.splitlines()[2:]] == [
        ["*", "friday"],
        ["saturday", "2026-11-20"],
    ]


@pytest.mark.parametrize(
    ("lang", "rules"), [("da", "standardregler"), ("cs", "standardní pravidla")]
)
def test_the_sessions_house_rules_read_in_the_readers_words(chouette, lang, rules):
    """Standard rules in the reader's words; changed ones as ``chouette new`` takes them."""
    chouette("new", "friday", "ann", "bob")
    chouette("new", "saturday", "cat", "dan", "--no-beavers")
    rows = chouette("--lang", lang, "sessions").stdout.splitlines()[2:]
    assert rows[0].endswith(rules) and rows[1].endswith("beavers off, raccoons off")
    assert chouette("sessions").stdout.splitlines()[2].endswith("standard rules")


def test_single_cube_evening_e4(chouette):
    chouette("new", "friday", "B", "C", "M1", "M2", "--cubes", "single")
    for args in (
        ["double"],
        ["take", "C"],
        ["drop", "M1"],
        ["take", "M2"],
        ["double", "--by", "team"],
        ["take", "C"],
    ):
        chouette(*args)
    assert chouette.json("end", "box", "--gammon")["points"] == {
        "B": 17,
        "C": -8,
        "M1": -1,
        "M2": -8,
    }


def test_take_all_answers_every_pending_double(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan")
    chouette("double", "bob", "cat")
    chouette("double", "dan", "--by", "member")
    refused = chouette("take", "--all", code=1).stderr
    assert refused == (
        "Error: take --all answers for one side, but both have answers pending: the box on "
        "dan's cube, and bob, cat on their own; take them by name\n"
    )
    chouette("take", "dan")
    chouette("take", "--all")
    cubes = chouette.json("status")["game"]["cubes"]
    assert {m: c["owner"] for m, c in cubes.items()} == {"bob": "bob", "cat": "cat", "dan": "box"}


def test_table_mode_runs_the_evening_at_one_prompt(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    script = "double bob\ntake bob\nbogus\nend team --gammon\nstandings --json\nquit\n"
    result = chouette("table", input=script, code=1)  # a script with a line that failed
    out = result.stdout
    assert "Game 1: bob takes." in out
    assert out.count("bob | cat, ann") == 1  # the next line, said once after the game
    assert '"cents": 400' in out  # bob won 4 points at 1.00
    assert "> " not in out  # piped in: a script, no prompts
    assert result.stderr == (
        "Error: No such command 'bogus'. (help lists the commands)\n"
        "Error: 1 line of the script failed (line 3)\n"
    )
    assert chouette.json("status")["box"] == "bob"


def test_a_script_at_the_table_whose_lines_all_work_exits_0(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    done = chouette("table", input="double bob\ndrop bob\n--session friday\n")
    assert done.stderr == ""
    assert "Session friday: game 1 (in progress)" in done.stdout  # options alone: status
    assert "Usage:" not in done.stdout


def test_a_mistyped_session_at_the_table_leaves_the_table_where_it_was(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    done = chouette("table", input="--session fridya status\nstatus\n", code=1)
    assert done.stderr.startswith("Error: there is no session called fridya")
    assert done.stdout.startswith("Session friday: game 1")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("serve", "Error: serve runs at a shell's prompt, until Ctrl-C: start it in another "
         "terminal\n"),
        ("table", "Error: table runs at a shell's prompt: this is the table already\n"),
        ("take", "Error: name the member whose cube you take, or use --all\n"),
        ("take bob --gamme 1", "Error: No such option: --gamme (Possible options: --game) "
         "(help take explains it)\n"),
        ("double --by", "Error: Option '--by' requires an argument. (help double explains it)\n"),
        ("--show-completion", "Error: --show-completion sets up a shell's Tab: run it at a "
         "shell's prompt\n"),
    ],
)  # fmt: skip
def test_a_line_the_table_cannot_run_says_why_in_one_line(chouette, line, said):
    chouette("new", "friday", "ann", "bob", "cat")
    result = chouette("table", input=line + "\n", code=1)
    assert result.stderr.startswith(said)
    assert "Usage:" not in result.output


LINES_REFUSED_AT_THE_TABLE = [
    ("--session friday serve --port 0",
     "Error: serve runs at a shell's prompt, until Ctrl-C: start it in another terminal"),
    ("--session=friday table", "Error: table runs at a shell's prompt: this is the table already"),
    ("--db {db} demo",
     "Error: demo runs at a shell's prompt (it plays in a throw-away ledger of its own)"),
    ("record -",
     "Error: record - reads standard input, which is the table's prompt here: give it a file "
     "of records (or pipe them to chouette record - at a shell's prompt)"),
]  # fmt: skip


def test_a_command_that_cannot_run_at_the_table_is_refused_after_global_options(
    chouette, ledger_url
):
    """``serve`` after ``--session`` started the server and the prompt hung; ``record -``
    read the rest of the script as its records. The real console script, in a process of its
    own, so that a line that hangs fails the test instead of stopping it."""
    import subprocess

    from tests import procs

    chouette("new", "friday", "ann", "bob", "cat")
    lines = [line.format(db=ledger_url) for line, _ in LINES_REFUSED_AT_THE_TABLE]
    script = "\n".join([*lines, "double bob", "status --json"]) + "\n"
    try:
        done = subprocess.run(
            [procs.script(), "table"],
            input=script,
            capture_output=True,
            text=True,
            env=procs.environment(ledger_url),
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("a line at the table's prompt hung")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        *(said for _, said in LINES_REFUSED_AT_THE_TABLE),
        "Error: 4 lines of the script failed (lines 1, 2, 3, 4)",
    ]
    assert (
        json.loads(done.stdout[done.stdout.index("{") :])["game"]["cubes"]["bob"]["pending"]
        == "bob"
    )  # the lines after them ran


def test_help_at_the_table_lists_its_commands_as_typed_there(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    out = chouette(
        "table", input="help\nhelp take\ntake -h\n--session friday take bob --help\n"
    ).stdout
    assert "The table's commands (help COMMAND explains one; Tab completes):" in out
    assert "  take " in out and "  serve " not in out and "  quit " in out
    said = " ".join(out.split())  # each command's first sentence, whole, however it wraps
    assert (
        "rules The session's rules card: every house rule in words, the stakes, the preset "
        "they came from and what was changed, who accepted them and when. accept The players "
    ) in said
    assert out.count("Usage: take [OPTIONS] [MEMBER]") == 3 and "Usage: chouette" not in out


@pytest.mark.parametrize(("lang", "usage"), [("da", "Brug: "), ("cs", "Použití: ")])
def test_help_at_the_table_shows_a_command_as_typed_there_in_every_language(chouette, lang, usage):
    chouette("new", "friday", "ann", "bob", "cat")
    out = chouette("--lang", lang, "table", input="help take\ntake -h\n").stdout
    assert out.count(f"{usage}take [OPTIONS] [MEMBER]") == 2 and f"{usage}chouette" not in out
    # the table's help leaves -h to the commands run after it in the same process
    assert chouette("take", "-h").stdout.startswith("Usage: chouette take [OPTIONS] [MEMBER]")


def test_tab_at_the_table_completes_what_the_shells_tab_does(chouette, tmp_path, monkeypatch):
    from cli import Options, table_choices

    chouette("new", "friday", "ann", "Big Al", "cat")
    chouette("new", "sat", "dan", "eve")
    at = Options(None, "friday")  # the table's session
    assert table_choices(at, [], "se") == ["sessions", "settle"]  # not serve: refused there
    assert table_choices(at, [], "q") == ["quit"]
    assert table_choices(at, ["double"], "") == ["ann", "Big Al", "cat"]
    assert table_choices(at, ["double", "--by"], "") == ["box", "member", "team"]
    assert table_choices(at, ["double"], "--b") == ["--by"]
    assert table_choices(at, ["--session", "sat", "take"], "") == ["dan", "eve"]
    assert table_choices(at, ["new", "x", "--like"], "s") == ["sat"]
    assert table_choices(at, ["help"], "sit") == ["sit-out", "sit-in"]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "friday.mat").write_text("")
    assert table_choices(at, ["import"], "fri") == ["friday.mat"]  # bash's files, as a shell


def test_the_demo_settles_an_evening(chouette, tmp_path, ledger_url):
    out = chouette("demo").stdout
    assert out.count("$ chouette ") == 23
    assert out.rstrip().splitlines()[-2] == "eve     cat      30.00"
    assert re.fullmatch(r"Fingerprint of friday: [0-9a-f]{10}", out.rstrip().splitlines()[-1])
    assert not os.path.exists(tmp_path / "ledger.db")  # the demo never touches the ledger
    assert dump(ledger_url) == {}


def test_a_player_who_played_cannot_come_back_at_another_stake(chouette):
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("end", "box")
    chouette("leave", "cat")
    result = chouette("join", "cat", "--stake", "5", code=1)
    assert result.stderr == (
        "Error: cat has played in friday at 1.00 a point: a different stake needs a new "
        "session (the games already booked must replay to the same money)\n"
    )
    assert (
        chouette("join", "cat", "--stake", "1.00").stdout
        == "cat joins at 1.00 a point. Line: ann | bob, cat\n"
    )
    chouette("check")


def test_a_player_back_at_their_own_stake_is_told_it(chouette):
    """eve played at her own 3.00 and comes back without --stake: she plays at 3.00 still,
    and the line says so, at the terminal and in the journal."""
    chouette("new", "friday", "ann", "bob", "cat")
    chouette("join", "eve", "--stake", "3")
    chouette("end", "box")
    chouette("leave", "eve")
    said = "eve joins at 3.00 a point"
    assert chouette("join", "EVE").stdout == f"{said}. Line: ann | cat, bob, eve\n"
    assert chouette.json("log", "--limit", "1")["done"][0]["text"] == said
    assert chouette("join", "dan").stdout == "dan joins. Line: ann | cat, bob, eve, dan\n"


@pytest.mark.parametrize("text", ["", "[]", "\n\n"])
def test_recording_nothing_is_refused(chouette, text):
    chouette("new", "friday", "ann", "bob")
    result = chouette("record", "-", input=text, code=1)
    assert result.stderr == "Error: standard input holds no records to book\n"


def test_the_partner_is_announced_with_the_line_and_shown_on_the_sheet(chouette):
    chouette("new", "p", "ann", "bob", "cat", "dan", "eve", "--partner-from", "5")
    ended = chouette("end", "team").stdout
    assert ended.endswith(
        "Next line: bob+dan | cat, eve, ann\n"
        "Why:\n"
        "  cat, the box's partner, takes 50% of the box side's -3: -1, and the box -2 (the "
        "odd point to the box) (partner-share 50)\n"
        "  box goes: captain rule, bob beat the box (+1)\n"
        "  bob takes the box; ann goes to the bottom of the line; cat, the box's partner, "
        "becomes captain\n"
        "  cat is no longer the box's partner: the box changed hands\n"
        "  dan becomes the box's partner: 5 seated, a partner from 5 (the next after the box)\n"
    )
    assert chouette("leave", "eve").stdout == (
        "eve leaves. Line: bob | cat, dan, ann\n"
        "dan is no longer the box's partner: 4 seated, a partner from 5; dan plays on the team "
        "again.\n"
    )
    assert chouette("join", "fay").stdout.endswith(
        "dan becomes the box's partner: 5 seated, a partner from 5 (the next after the box).\n"
    )
    assert chouette("sheet").stdout.splitlines()[3].startswith("1       ann+cat  bob")
    assert chouette.json("sheet")["games"][0]["partner"] == "cat"
