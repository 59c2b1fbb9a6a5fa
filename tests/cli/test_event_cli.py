"""A chouette tournament through the commands (``chouette event``): an eight-player event of
the Florida shape from ``event new`` to ``event end``, draws reproducible from their seed,
a player busted and out of the next draw, a re-entry into the pool, banks carried across
levels and summing right, payouts to the cent and booked so ``settle`` pays them; the JSON
shapes of docs/INTERFACE.md; refusals that name the reason and write nothing."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from tests.conftest import NOW
from tests.dump import dump

EIGHT = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
FLORIDA = (
    "event", "new", "fcc", "--bank", "50", "--levels", "1,2,4,8,16,32,64", "--minutes", "45",
    "--entry", "20", "--reentries-until", "4", "--payout", "50,30,20",
    "--rules", "florida-challenge", "--organiser", "org",
)  # fmt: skip


def florida(chouette) -> dict:
    """The event started, eight entered and accepted, level 1 drawn with seed 7."""
    chouette(*FLORIDA)
    chouette("event", "enter", *EIGHT)
    chouette("event", "accept", "--all")
    return chouette.json("event", "draw", "--seed", "7")


def table_line(chouette, table: str) -> dict:
    return chouette.json("--session", table, "status")


def deal(chouette, table: str, member: str, points: int) -> None:
    """At ``table``, the box and ``member`` settle their pair at ``points`` (the member's
    side), every other member at 0: a game that moves the banks exactly that much."""
    line = table_line(chouette, table)
    for other in [line["captain"], *line["crew"]]:
        chouette("--session", table, "deal", other, str(points if other == member else 0))


def banks(chouette) -> dict[str, int]:
    return {p["name"]: p["bank"] for p in chouette.json("event", "standings")["players"]}


def test_a_florida_event_runs_from_new_to_end(chouette):
    drawn = florida(chouette)
    assert drawn == {
        "event": "fcc",
        "level": 1,
        "cube": 1,
        "seed": 7,
        "repeats": 0,
        "fewest_proven": True,
        "tables": [
            {"table": "fcc-L1-T1", "seats": ["hal", "eve", "cat", "gus"]},
            {"table": "fcc-L1-T2", "seats": ["bob", "dan", "fay", "ann"]},
        ],
    }
    assert table_line(chouette, "fcc-L1-T1")["banks"] == dict.fromkeys(
        ["hal", "eve", "cat", "gus"], 50
    )

    # level 1: the box, hal, deals eve out of her whole bank: busted
    deal(chouette, "fcc-L1-T1", "eve", -50)
    assert banks(chouette) == {**dict.fromkeys(EIGHT, 50), "hal": 100, "eve": 0}

    # the level closes: banks carried, eve out, and out of the next draw
    level2 = chouette.json("event", "next", "--seed", "11")
    assert (level2["closed"], level2["out"], level2["level"], level2["cube"]) == (1, ["eve"], 2, 2)
    assert sum(level2["banks"].values()) == 400 and "eve" not in level2["banks"]
    assert level2["tables"] == [
        {"table": "fcc-L2-T1", "seats": ["fay", "bob", "gus", "hal"]},
        {"table": "fcc-L2-T2", "seats": ["dan", "cat", "ann"]},
    ]
    assert level2["repeats"] == 3 and level2["fewest_proven"] is True
    eve = next(p for p in chouette.json("event", "standings")["players"] if p["name"] == "eve")
    assert eve == {"name": "eve", "bank": 0, "table": None, "out": True}
    refused = chouette("--session", "fcc-L1-T1", "double", "cat", code=1)
    assert "fcc-L1-T1 is a table of level 1 of the event fcc, which is over" in refused.stderr

    # eve re-enters: a fresh bank, another entry into the pool, a seat at the smaller table
    back = chouette.json("event", "reenter", "eve")
    assert back == {
        "event": "fcc",
        "player": "eve",
        "entries": 2,
        "bank": 50,
        "table": "fcc-L2-T2",
        "pool_cents": 18000,
    }

    # level 2: a single at the starting cube of 2 moves each pair's banks by 2
    chouette("--session", "fcc-L2-T1", "end", "team")
    assert table_line(chouette, "fcc-L2-T1")["banks"] == {
        "fay": 44, "bob": 52, "gus": 52, "hal": 102,
    }  # fmt: skip
    deal(chouette, "fcc-L2-T2", "cat", 50)  # dan, the box, all in to cat
    assert banks(chouette) == {
        "hal": 102, "cat": 100, "bob": 52, "gus": 52, "ann": 50, "eve": 50, "fay": 44, "dan": 0,
    }  # fmt: skip
    assert sum(banks(chouette).values()) == 450  # 400 carried in, and eve's fresh 50

    # the end: ranked by bank, the pool of 180.00 paid 50/30/20 to the cent
    ended = chouette.json("event", "end")
    assert ended["pool_cents"] == 18000
    assert [
        (p["place"], p["name"], p["bank"], p["out_at"], p["cents"]) for p in ended["places"]
    ] == [
        (1, "hal", 102, None, 9000),
        (2, "cat", 100, None, 5400),
        (3, "bob", 52, None, 1800),  # bob and gus level: the third place's 36.00 shared
        (3, "gus", 52, None, 1800),
        (5, "ann", 50, None, 0),
        (5, "eve", 50, None, 0),
        (7, "fay", 44, None, 0),
        (8, "dan", 0, 2, 0),
    ]
    assert ended["payouts"] == [
        {"name": "hal", "cents": 9000},
        {"name": "cat", "cents": 5400},
        {"name": "bob", "cents": 1800},
        {"name": "gus", "cents": 1800},
    ]

    # booked in the purse as prizes the organiser owes: settle pays them, net of the entries
    purse = {
        p["name"]: p["cents"] for p in chouette.json("--session", "fcc", "standings")["players"]
    }
    assert purse == {
        "org": 0, "hal": 7000, "cat": 3400, "bob": -200, "gus": -200, "ann": -2000,
        "eve": -4000, "fay": -2000, "dan": -2000,
    }  # fmt: skip
    settled = dict.fromkeys(purse, 0)
    for payment in chouette.json("--session", "fcc", "settle")["payments"]:
        settled[payment["from"]] -= payment["cents"]
        settled[payment["to"]] += payment["cents"]
    assert settled == purse
    assert "The ledger is consistent" in chouette("check").stdout


def test_two_busts_leaving_six_at_tables_of_four_to_five_draw_one_table_of_six(chouette):
    # issue 39: six do not split into tables of 4 to 5; the nearest split is drawn and said
    chouette(*FLORIDA, "--table-size", "4-5")
    chouette("event", "enter", *EIGHT)
    chouette("event", "accept", "--all")
    tables = chouette.json("event", "draw", "--seed", "7")["tables"]
    assert [len(t["seats"]) for t in tables] == [4, 4]
    busted = {t["seats"][1] for t in tables}
    for table in tables:
        deal(chouette, table["table"], table["seats"][1], -50)
    said = chouette("event", "next", "--seed", "11").stdout
    assert "6 players do not fit tables of 4 to 5: one table of 6." in said
    players = chouette.json("event", "standings")["players"]
    assert {p["name"]: p["table"] for p in players} == {
        p: None if p in busted else "fcc-L2-T1" for p in EIGHT
    }


def test_the_same_seed_draws_the_same_tables_again(chouette):
    drawn = florida(chouette)
    assert chouette("event", "undo").stdout == "Undone in fcc: the draw of level 1.\n"
    again = chouette.json("event", "draw", "--seed", "7")
    assert again["tables"] == drawn["tables"]
    seen = set()
    for seed in range(4):  # other seeds draw other tables
        chouette("event", "undo")
        seen.add(str(chouette.json("event", "draw", "--seed", str(seed))["tables"]))
    assert len(seen) > 1


def test_a_draw_without_a_seed_says_the_seed_it_drew_with(chouette):
    chouette(*FLORIDA)
    chouette("event", "enter", *EIGHT)
    said = chouette("event", "draw").stdout.splitlines()
    assert said[0].startswith("Level 1 of fcc (starting cube 1), drawn with seed ")
    assert said[1] == "0 pairings repeated from the earlier levels: the fewest possible."
    assert said[2].split() == ["table", "line", "(banks)"]


def test_standings_say_the_level_the_cube_the_clock_and_the_pool(chouette):
    florida(chouette)
    said = chouette("event", "standings").stdout.splitlines()
    ends = datetime.fromisoformat(NOW).astimezone() + timedelta(minutes=45)
    assert said[0] == (
        f"fcc: level 1, starting cube 1, ends at {ends:%H:%M} (45:00 left); the pool is 160.00."
    )
    assert said[1].split() == ["player", "bank", "table", "entries", "out", "at", "level"]
    shown = chouette.json("event", "standings")
    assert set(shown) == {
        "event", "level", "cube", "pool_cents", "ends_at", "ended", "undone_draws", "players",
    }  # fmt: skip
    assert shown["ends_at"] == "2026-11-20T20:45:00+00:00"
    assert set(shown["players"][0]) == {"name", "bank", "table", "out"}


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (("event", "reenter", "ann"), 1, "ann still has 50 in the bank: a re-entry is for a "),
        (("event", "reenter", "zed"), 1, "zed has not entered fcc (event enter zed)"),
        (("event", "enter", "ann"), 1, "ann has entered already"),
        (("event", "draw"), 1, "level 1 is drawn already (event next closes it"),
        (("event", "accept", "ann"), 1, "ann accepted the event's rules already"),
        (("event", "new", "x", "--bank", "5", "--levels", "1,3"), 1, "a power of two"),
        (("event", "new", "x", "--bank", "5", "--levels", "1,x"), 2, "--levels: 'x' is not"),
        (("event", "new", "x", "--bank", "5", "--levels", "1", "--payout", "60,30"), 1,
         "add up to 100, not 90"),
        (("event", "new", "fcc", "--bank", "5", "--levels", "1"), 1,
         "there is already a session called fcc"),
        (("--session", "fcc-L1-T1", "bank", "hal", "60"), 1,
         "a bank is set anew by a re-entry (chouette event reenter NAME)"),
        (("--session", "fcc-L1-T1", "join", "zed"), 1,
         "a player joins it by entering the event (chouette event enter NAME)"),
        (("--session", "fcc-L1-T1", "split", "x"), 1, "its tables are drawn, not split"),
        (("sessions", "--delete", "fcc-L1-T2"), 1, "its tables are drawn, not split or deleted"),
        (("event", "new", "x" * 69, "--bank", "5", "--levels", "1"), 1,
         "an event's name is at most 68 characters, leaving room for its tables' names"),
        (("sessions", "--rename", "fcc", "cup"), 1,
         "fcc is the purse of the event fcc: it keeps the event's name"),
    ],
)  # fmt: skip
def test_what_the_event_refuses_is_said_with_the_reason_and_writes_nothing(
    chouette, ledger_url, args, code, said
):
    chouette.begun(  # florida(chouette), made once on SQLite
        tuple(FLORIDA),
        ("event", "enter", *EIGHT),
        ("event", "accept", "--all"),
        ("event", "draw", "--seed", "7", "--json"),
    )
    before = dump(ledger_url)
    result = chouette(*args, code=code)
    assert said in result.stderr
    assert dump(ledger_url) == before


def test_reentries_close_after_their_level(chouette):
    chouette(*FLORIDA[:-6], "--reentries-until", "1", "--organiser", "org")
    chouette("event", "enter", *EIGHT)
    drawn = chouette.json("event", "draw", "--seed", "7")
    first = drawn["tables"][0]
    deal(chouette, first["table"], first["seats"][1], -50)
    chouette("event", "next", "--seed", "1")
    result = chouette("event", "reenter", first["seats"][1], code=1)
    assert result.stderr == "Error: re-entries closed after level 1 (this is level 2)\n"


def test_the_level_does_not_close_with_a_game_in_progress(chouette):
    drawn = florida(chouette)
    table = drawn["tables"][1]["table"]
    chouette("--session", table, "double", drawn["tables"][1]["seats"][1])
    result = chouette("event", "next", code=1)
    assert result.stderr == (
        f"Error: game 1 is in progress at {table}: finish it or undo it before the level closes\n"
    )


def test_every_step_is_undone_back_to_nothing(chouette, ledger_url):
    empty = dump(ledger_url)
    chouette("new", "friday", "ann", "bob")  # (another session, kept)
    start = dump(ledger_url)
    drawn = florida(chouette)
    first = drawn["tables"][0]
    deal(chouette, first["table"], first["seats"][1], -50)
    chouette("event", "next", "--seed", "3")
    chouette("event", "reenter", first["seats"][1])
    chouette("event", "end")
    undone = []
    refused = chouette("event", "undo")  # the end
    undone.append(refused.stdout)
    for _ in range(2):  # the re-entry, the close of level 1 and the draw of level 2
        undone.append(chouette("event", "undo").stdout)
    assert undone[:3] == [
        "Undone in fcc: the end of fcc.\n",
        f"Undone in fcc: the re-entry of {first['seats'][1]}.\n",
        "Undone in fcc: the close of level 1 and the draw of level 2.\n",
    ]
    result = chouette("event", "undo", code=1)  # the deal at the table comes first
    assert "something was done at fcc-L1-T1 since its draw: undo it there first" in (result.stderr)
    for _ in range(3):  # the three deals of the game at the table
        chouette("--session", first["table"], "undo")
    assert chouette.json("event", "undo") == {"event": "fcc", "undone": "draw"}
    for _ in range(2):  # the acceptance, the entries
        chouette("event", "undo")
    assert chouette("event", "undo").stdout == "Undone in fcc: the event fcc itself.\n"
    after = dump(ledger_url)
    assert after == start != empty  # (the tables' kept digests go with their sessions)


# ---------------------------------------------------------------- a busted player at a table


def busted(chouette, *terms: str) -> str:
    """A three-player event of banks of 2 at level 1 (``terms`` more): the box beats bob,
    the captain, on a cube of 2, and bob's bank is gone. What the game said."""
    chouette(
        "event", "new", "cup", "--bank", "2", "--levels", "1,2", "--organiser", "org",
        "--rules", "florida-challenge", *terms,
    )  # fmt: skip
    chouette("event", "enter", "ann", "bob", "cat")
    chouette("event", "draw", "--seed", "1")
    assert table_line(chouette, "cup-L1-T1")["line"] == ["ann", "bob", "cat"]
    chouette("--session", "cup-L1-T1", "double", "bob")
    chouette("--session", "cup-L1-T1", "take", "bob")
    return chouette("--session", "cup-L1-T1", "end", "box").stdout


@pytest.mark.parametrize(
    ("terms", "hint"),
    [
        (
            ("--reentries-until", "1"),
            "bob's bank is empty: bob sits out (chouette event reenter bob for a re-entry into "
            "the event)",
        ),
        (
            (),
            "bob's bank is empty: bob sits out, and is out of the event when the level closes "
            "(its re-entries are over)",
        ),
    ],
    ids=["re-entries open", "no re-entries"],
)
def test_a_player_busted_at_an_event_s_table_is_told_the_event_s_way_back(chouette, terms, hint):
    """Not `chouette bank` (refused at an event's table): the event's re-entry while it
    takes them, or nothing; the game's reasons say the same afterwards, in the reader's
    language too."""
    said = busted(chouette, *terms)
    assert hint in said and "chouette bank" not in said
    assert hint in chouette("--session", "cup-L1-T1", "game", "1").stdout
    assert [hint] == [
        w for w in chouette.json("--session", "cup-L1-T1", "sheet")["games"][0]["why"]
        if "bank is empty" in w
    ]  # fmt: skip
    danish = chouette("--lang", "da", "--session", "cup-L1-T1", "game", "1").stdout
    assert hint not in danish and "chouette event reenter bob" in danish if terms else True


def test_amend_before_a_re_entry_makes_it_again_or_says_why_not(chouette, ledger_url):
    """A game corrected at an event's table with a re-entry after it: the re-entry stands
    when the corrected game still empties the player's bank; when it no longer does,
    amend refuses, saying the player re-entered since (not "an older chouette"), and
    nothing is written."""
    busted(chouette, "--reentries-until", "1")
    chouette("event", "reenter", "bob")
    chouette("--session", "cup-L1-T1", "end", "team")  # game 2, bob back in
    chouette(
        "--session", "cup-L1-T1", "amend", "1", "gammon", "--result", "box", "--note", "g"
    )  # fmt: skip  (bob all in still: the re-entry stands)
    assert table_line(chouette, "cup-L1-T1")["banks"]["bob"] == 3  # (2, and game 2 won)
    chouette("--session", "cup-L1-T1", "undo")
    before = dump(ledger_url)
    refused = chouette(
        "--session", "cup-L1-T1", "amend", "1", "--result", "team", "--note", "team", code=1
    ).stderr  # fmt: skip
    assert "older chouette" not in refused
    assert refused.startswith(
        "Error: bob re-entered the event after their bank was gone ('bob re-enters cup: a "
        "fresh bank of 2', before game 2), but with this correction bob would still have 3 in "
        "the bank: a correction does not take a re-entry back (chouette event undo does"
    ), refused
    assert dump(ledger_url) == before
    assert chouette.json("event", "standings")["pool_cents"] == 0


def test_the_last_two_play_head_to_head_until_one_is_left(chouette):
    """With two players left, event next seats them head to head (one table of two: the box
    against the captain, one cube) and says so; their game moves their banks at the level's
    cube, all in; once one is busted, event next refuses and event end pays the winner."""
    busted(chouette)  # (no re-entries: bob is out when level 1 closes)
    said = chouette("event", "next", "--seed", "2").stdout
    assert "ann and cat are the last two in: they play head to head" in said
    line = table_line(chouette, "cup-L2-T1")
    assert len(line["line"]) == 2 and line["crew"] == []
    before = banks(chouette)
    box, captain = line["box"], line["captain"]
    chouette("--session", "cup-L2-T1", "double", captain)
    chouette("--session", "cup-L2-T1", "take", captain)
    chouette("--session", "cup-L2-T1", "end", "box")
    after = banks(chouette)
    assert sum(after.values()) == sum(before.values())
    assert after[captain] == 0 and after[box] == before[box] + before[captain]  # all in
    refused = chouette("event", "next", "--seed", "3", code=1).stderr
    assert "event end closes the level and ends the event" in refused
    ended = chouette.json("event", "end")
    assert ended["places"][0]["name"] == box


# ---------------------------------------------------------------- a draw taken back


def problems_of(chouette) -> list[str]:
    return json.loads(chouette("check", "--json", code=None).stdout)["problems"]


def test_a_draw_taken_back_stays_on_the_record_for_good(chouette, tmp_path, monkeypatch):
    """An organiser could undo draws until the tables suit a friend: every draw taken back
    stays in the event's journal (and chain and export) with its seed, `event standings`
    and `check` say the level was drawn again, and event undo never takes that record back
    (it takes back the steps before it). A draw with a game played at its tables is not
    taken back at all while the game stands."""
    florida(chouette)  # level 1 drawn with seed 7
    chouette("--session", "fcc-L1-T1", "double", "eve")  # a game in progress
    refused = chouette("event", "undo", code=1).stderr
    assert refused.startswith("Error: something was done at fcc-L1-T1 since its draw")
    chouette("--session", "fcc-L1-T1", "undo")
    assert chouette("event", "undo").stdout == "Undone in fcc: the draw of level 1.\n"
    chouette("event", "draw", "--seed", "9")
    shown = chouette.json("event", "standings")
    assert [(u["level"], u["seed"]) for u in shown["undone_draws"]] == [(1, 7)]
    said = chouette("event", "standings").stdout
    assert (
        "Taken back: level 1 of fcc was drawn with seed 7 at 2026-11-20 20:00 UTC and that "
        "draw was taken back at 2026-11-20 20:00 UTC (event undo)." in said
    )
    checked = chouette("check")
    assert "Note: level 1 of fcc was drawn with seed 7" in checked.stdout
    assert "The ledger is consistent" in checked.stdout
    notes = chouette.json("check")["notes"]
    assert len(notes) == 1 and notes[0].startswith("level 1 of fcc was drawn with seed 7")
    chouette("event", "undo")  # the second draw taken back too: both on the record
    assert chouette("event", "undo").stdout.startswith("Undone in fcc: the acceptance")
    assert len(chouette.json("event", "standings")["undone_draws"]) == 2  # (they stay)
    assert problems_of(chouette) == []  # (their chain made afresh after the step taken back)
    chouette("event", "accept", "--all")
    chouette("event", "draw", "--seed", "11")
    export = tmp_path / "fcc.jsonl"
    chouette("export", str(export))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    restored = chouette.json("event", "standings")["undone_draws"]
    assert [(u["level"], u["seed"]) for u in restored] == [(1, 7), (1, 9)]
    assert len(chouette.json("check")["notes"]) == 2
