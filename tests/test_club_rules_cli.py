"""The club rules of issue 13 through the commands: extras on the sheet and in ``game N``,
proxies, the consultation rule, splitting a table and undoing every one of them."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.dump import dump, unchained
from tests.examples import examples
from tests.test_undo import reports

pytestmark = pytest.mark.backends("sqlite", "postgres")

CLASSIC = [
    ("double", "bob", "cat", "dan"),
    ("drop", "cat"),
    ("drop", "dan"),
    ("take", "bob"),
    ("extra", "bob", "cat"),  # cat pays bob a point to hold an extra 2-cube
    ("extra", "dan", "box", "--points", "1"),
]


def evening(chouette, *options: str) -> None:
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--stake", "2", "--extras",
             "--player-stake", "dan=1", *options)  # fmt: skip
    for command in CLASSIC:
        chouette(*command)


# ------------------------------------------------------------ extras


def test_an_extra_is_booked_at_the_boards_end_and_shown_on_the_sheet(chouette):
    evening(chouette)
    booked = chouette.json("end", "box", "--gammon")
    # pairs at 2.00 (dan's at his 1.00): bob -4, cat -1, dan -1; the extras: bob pays cat
    # 2 x 2 less the point cat paid him (at 2.00), dan pays ann 2 (at dan's 1.00)
    assert booked["cents"] == {"ann": 1300, "bob": -1400, "cat": 400, "dan": -300}
    assert booked["points"] == {"ann": 8, "bob": -7, "cat": 2, "dan": -3}
    assert booked["pairs"] == {"bob": -4, "cat": -1, "dan": -1}
    assert booked["extras"] == [
        {"team_side": "bob", "box_side": "cat", "points": -3, "cents": -600},
        {"team_side": "dan", "box_side": "ann", "points": -2, "cents": -200},
    ]
    assert unchained(chouette("sheet").stdout) == (
        "Session fri: stake 2.00 a point; extras on.\n"
        "game    box    captain        ann      bob      cat      dan\n"
        "------  -----  ---------  -------  -------  -------  -------\n"
        "1       ann    bob        +8 → +8  -7 → -7  +2 → +2  -3 → -3\n"
        "total                          +8       -7       +2       -3\n"
        "money                      +13.00   -14.00    +4.00    -3.00\n"
        "Extras (in the games above):\n"
        "  game 1: bob -3 to cat (-6.00)\n"
        "  game 1: dan -2 to ann (-2.00)\n"
        "Why (the rules that decided each game):\n"
        "  game 1: the gammon counts in full for bob: bob's cube was turned (Jacoby)\n"
        "          dan and ann play at 1.00 a point, the lower of their stakes (1.00 and 2.00)\n"
        "          box stays: captain rule, bob lost to the box (-4)\n"
        "          ann keeps the box; bob, the captain, goes to the bottom of the line\n"
    )
    assert chouette.json("sheet")["games"][0]["extras"] == booked["extras"]
    shown = chouette("game", "1").stdout.splitlines()
    assert shown[6:8] == ["  5. extra bob cat --points 2 --premium 1",
                          "  6. extra dan ann --points 1 --premium 0"]  # fmt: skip
    assert shown[12:14] == ["  extra bob v cat: -3 to bob", "  extra dan v ann: -2 to dan"]
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_an_extra_in_progress_is_on_the_status_and_undo_takes_it_back(chouette):
    evening(chouette)
    assert chouette("status").stdout.splitlines()[2:4] == [
        "Extra: cat gives bob an extra on 2 (cat pays bob 1 for it)",
        "Extra: ann gives dan an extra on 1",
    ]
    assert chouette.json("status")["game"]["extras"][1] == {
        "team_side": "dan", "box_side": "ann", "points": 1, "premium": 0,
    }  # fmt: skip
    assert chouette("undo").stdout == (
        "Undone: took back extra dan ann --points 1 --premium 0 (game 1).\n"
    )
    chouette("end", "team")
    assert chouette.json("standings")["players"] == [
        {
            "name": "bob",
            "points": 5,
            "cents": 1000,
            "table_cents": 1000,
            "paid_cents": 0,
        },  # +2 on his cube, +3 on the extra
        {
            "name": "ann",
            "points": 0,
            "cents": -100,
            "table_cents": -100,
            "paid_cents": 0,
        },  # -2 to bob at 2.00, +1 from dan at 1.00
        {"name": "dan", "points": -1, "cents": -100, "table_cents": -100, "paid_cents": 0},
        {
            "name": "cat",
            "points": -4,
            "cents": -800,
            "table_cents": -800,
            "paid_cents": 0,
        },  # -1 dropped, -3 on the extra
    ]


def test_a_game_with_extras_round_trips_through_its_record(chouette):
    evening(chouette)
    chouette("end", "team", "--gammon")
    record = chouette.json("game", "1")
    chouette("new", "sat", "ann", "bob", "cat", "dan", "--stake", "2", "--extras",
             "--player-stake", "dan=1")  # fmt: skip
    del record["session"]
    booked = json.loads(chouette("record", "-", "--json", input=json.dumps(record)).stdout)
    assert chouette.json("game", "1") == {**record, "session": "sat"}
    assert chouette.json("--session", "fri", "sheet")["games"][0]["cents"] == booked["cents"]


def test_an_extra_is_refused_where_extras_are_off_and_nothing_is_written(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    before = dump(ledger_url)
    result = chouette("extra", "bob", "cat", code=1)
    assert result.stderr == "Error: extras are off in this session (house rule --extras)\n"
    assert dump(ledger_url) == before
    record = {"events": [{"act": "extra", "team_side": "bob", "box_side": "cat"}]}
    result = chouette("record", "-", input=json.dumps(record), code=1)
    assert result.stderr == (
        "Error: record, event 1 (extra bob cat --points 2 --premium 1): extras are off in this "
        "session (house rule --extras)\n"
    )
    assert dump(ledger_url) == before


# ------------------------------------------------------------ the rules on the reports


def test_the_club_rules_are_printed_on_the_reports(chouette, tmp_path):
    out = chouette("new", "fri", "ann", "bob", "cat", "--extras", "--proxies",
                   "--consultation", "no-cube-no-talk", "--split-at", "7").stdout  # fmt: skip
    summary = "extras on, consultation no-cube-no-talk, proxies on, split-at 7"
    assert out.splitlines()[0] == f"Session fri: stake 1.00 a point; {summary}."
    assert (
        chouette("sheet").stdout.splitlines()[0] == f"Session fri: stake 1.00 a point; {summary}."
    )
    rules = chouette.json("sessions")["sessions"][0]["rules"]
    assert {k: rules[k] for k in ("extras", "consultation", "proxies", "split-at")} == {
        "extras": True, "consultation": "no-cube-no-talk", "proxies": True, "split-at": 7,
    }  # fmt: skip
    page = tmp_path / "fri.html"
    chouette("report", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    for option, value in (("extras", "on"), ("consultation", "no-cube-no-talk"),
                          ("proxies", "on"), ("split-at", "7")):  # fmt: skip
        assert f"{option}={value}" in html  # the row of its topic says it, as new takes it


def test_the_html_report_lists_the_extras(chouette, tmp_path):
    evening(chouette)
    chouette("end", "box")
    page = tmp_path / "fri.html"
    chouette("report", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert (
        'Extras, counted in the games above: <span class="extra" data-game="1">game 1: bob -1 to '
        'cat (-2.00)</span>; <span class="extra" data-game="1">game 1: dan -1 to ann (-1.00)'
        "</span>."
    ) in html


# ------------------------------------------------------------ proxies


def test_a_cube_that_follows_the_captains_through_the_commands(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--stake", "5", "--proxies")
    assert chouette("proxy", "cat", "--follows", "captain").stdout == (
        "cat is away: cat's cube follows the captain's. "
        "Line: ann | bob, cat, dan  (away: cat's cube follows the captain's)\n"
    )
    out = chouette("double", "bob", "dan").stdout
    assert out.splitlines()[0] == "Game 1: the box, ann, doubles bob, dan (cat's cube follows)."
    assert chouette("take", "cat", code=1).stderr == (
        "Error: cat is away and cat's cube follows the captain's: bob's answer is cat's too\n"
    )
    assert chouette("take", "--all").stdout.splitlines()[:2] == [
        "Game 1: bob takes (cat's cube follows).",
        "Game 1: dan takes.",
    ]
    chouette("end", "team")
    assert chouette.json("standings")["players"] == [
        {"name": "bob", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "cat", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "dan", "points": 2, "cents": 1000, "table_cents": 1000, "paid_cents": 0},
        {"name": "ann", "points": -6, "cents": -3000, "table_cents": -3000, "paid_cents": 0},
    ]
    assert chouette("game", "1").stdout.splitlines()[2:4] == [
        "  1. double bob, dan --by box (cat's cube follows)",
        "  2. take bob (cat's cube follows)",
    ]
    # bob, the winning captain, takes the box: cat is the captain now, and cannot follow
    shown = chouette("status")
    assert shown.stdout.splitlines()[1] == (
        "Line: bob | cat, dan, ann  (away: cat's cube follows the captain's)"
    )
    assert shown.stderr == (
        "Note: cat is away, their cube following the captain's, but is the captain of the next "
        "game: name a proxy (chouette proxy cat --by NAME), withdraw it, or sit cat out.\n"
    )
    assert "but cat is the captain of this game" in chouette("double", "dan", code=1).stderr
    assert chouette("proxy", "cat", "--withdraw").stdout == (
        "cat is back. Line: bob | cat, dan, ann\n"
    )
    chouette("double", "dan")


def test_a_named_proxy_decides_and_the_scorer_says_so(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--proxies")
    assert chouette("proxy", "dan", "--by", "Cat").stdout == (
        "dan is away: cat decides for dan. Line: ann | bob, cat, dan  (away: cat decides for dan)\n"
    )
    chouette("double", "dan")
    assert chouette("beaver", "dan").stdout.splitlines()[0] == (
        "Game 1: dan beavers (cat for dan)."
    )
    chouette("take", "dan")  # the box takes the beaver: the box's own answer
    chouette("end", "box")
    lines = chouette("game", "1").stdout.splitlines()
    assert lines[1:5] == [
        "Line: ann | bob, cat, dan  (away: cat decides for dan)",
        "  1. double dan --by box",
        "  2. beaver dan (cat for dan)",
        "  3. take dan",
    ]
    record = chouette.json("game", "1")
    assert record["away"] == {"dan": "cat"}


def test_proxies_are_refused_where_the_house_rule_is_off_or_mid_game(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat")
    before = dump(ledger_url)
    assert chouette("proxy", "cat", "--by", "dan", code=1).stderr == (
        "Error: proxies are off in this session (house rule --proxies): a player away sits out\n"
    )
    assert chouette("proxy", "cat", code=2).stderr.endswith(
        "Error: give one of --by NAME, --follows captain or --withdraw\n"
    )
    assert dump(ledger_url) == before
    chouette("new", "sat", "ann", "bob", "cat", "--proxies")
    chouette("double", "bob")
    before = dump(ledger_url)
    assert chouette("proxy", "cat", "--by", "dan", code=1).stderr == (
        "Error: game 1 is in progress: change the line after it ends\n"
    )
    assert dump(ledger_url) == before


def test_undo_takes_a_proxy_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--proxies")
    before = reports(chouette)
    chouette("proxy", "dan", "--follows", "captain")
    assert chouette("undo").stdout == (
        "Undone: took back dan is away: dan's cube follows the captain's.\n"
    )
    assert reports(chouette) == before


# ------------------------------------------------------------ splitting a table


def big_evening(chouette, *options: str) -> None:
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay", "--stake", "2",
             "--player-stake", "fay=0.50", "--split-at", "6", *options)  # fmt: skip
    chouette("end", "team")  # bob takes the box: bob | cat, dan, eve, fay, ann


def test_a_split_forms_a_new_table_from_the_bottom_of_the_line(chouette):
    big_evening(chouette)
    joined = chouette("join", "gus")
    assert joined.stdout == "gus joins. Line: bob | cat, dan, eve, fay, ann, gus\n"
    assert joined.stderr == (
        "Note: 7 play in the line, past the house's split-at 6: `chouette split NAME` moves the "
        "bottom 3 to a new table.\n"
    )
    before = chouette.json("standings")
    assert chouette("split", "fri-2").stdout == (
        "Split fri: fay, ann, gus form fri-2 (stake 2.00 a point; split-at 6).\n"
        "fri: bob | cat, dan, eve\n"
        "fri-2: fay | ann, gus\n"
        "Balances stay where they were earned; play the new table with --session fri-2.\n"
    )
    # fay's and ann's balances stay in fri; gus, who never played there, is listed no more
    moved = [p for p in before["players"] if p["name"] != "gus"]
    assert chouette.json("standings")["players"] == moved
    assert chouette.json("--session", "fri-2", "standings")["players"] == [
        {"name": n, "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0}
        for n in ("fay", "ann", "gus")
    ]
    chouette("--session", "fri-2", "end", "box")  # fay's box beats ann and gus at fay's 0.50
    assert chouette.json("--session", "fri-2", "standings")["players"] == [
        {"name": "fay", "points": 2, "cents": 100, "table_cents": 100, "paid_cents": 0},
        {"name": "ann", "points": -1, "cents": -50, "table_cents": -50, "paid_cents": 0},
        {"name": "gus", "points": -1, "cents": -50, "table_cents": -50, "paid_cents": 0},
    ]
    assert chouette.json("--session", "fri", "status")["line"] == ["bob", "cat", "dan", "eve"]
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_undo_takes_a_split_back_at_either_table_while_nothing_happened_since(chouette):
    big_evening(chouette)
    before = {"fri": reports(chouette), "sessions": chouette.json("sessions")}
    chouette("split", "fri-2")
    assert chouette("undo").stdout == (
        "Undone: took back the split of fri: eve, fay, ann to fri-2.\n"
    )
    assert {"fri": reports(chouette), "sessions": chouette.json("sessions")} == before
    chouette("split", "fri-2")
    assert chouette("--session", "fri-2", "undo").stdout == (
        "Undone: took back the split of fri: eve, fay, ann to fri-2.\n"
    )
    assert {"fri": reports(chouette), "sessions": chouette.json("sessions")} == before


def test_undo_of_a_split_is_refused_once_either_table_has_played(chouette, ledger_url):
    big_evening(chouette)
    chouette("split", "fri-2")
    chouette("--session", "fri-2", "end", "box")
    before = dump(ledger_url)
    assert chouette("--session", "fri", "undo", code=1).stderr == (
        "Error: the split cannot be taken back: something was done at fri-2 since (undo that "
        "first: chouette --session fri-2 undo)\n"
    )
    assert dump(ledger_url) == before
    chouette("--session", "fri-2", "undo")  # the game at the new table
    chouette("--session", "fri", "end", "box")
    assert chouette("--session", "fri-2", "undo", code=1).stderr == (
        "Error: the split cannot be taken back: something was done at fri since (undo that "
        "first: chouette --session fri undo)\n"
    )
    chouette("--session", "fri", "undo")
    chouette("--session", "fri-2", "undo")
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["fri"]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ([("double", "cat")], "game 2 is in progress: change the line after it ends"),
        ([("leave", "fay")], "a split needs 6 players in the line (two tables of at least 3): "
                             "5 play now"),
        ([("new", "fri-2", "x", "y")], "there is already a session called fri-2"),
    ],
)  # fmt: skip
def test_a_split_that_cannot_be_made_is_refused_and_writes_nothing(
    chouette, ledger_url, setup, message
):
    big_evening(chouette)
    for command in setup:
        chouette(*command)
    before = dump(ledger_url)
    assert chouette("--session", "fri", "split", "fri-2", code=1).stderr == f"Error: {message}\n"
    assert dump(ledger_url) == before


# ------------------------------------------------------------ the law of undo


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
@settings(max_examples=examples(7), deadline=None)
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
        try:
            chouette("new", "club", "ann", "bob", "cat", "dan", "eve", "fay", "--extras",
                     "--proxies")  # fmt: skip

            def seen() -> dict[str, object]:
                return {**reports(chouette), "sessions": chouette.json("sessions")}

            for command in commands:
                before = seen()
                done = chouette("--session", "club", *command, code=None)
                if done.exit_code != 0:
                    assert done.exit_code == 1 and done.stderr.startswith("Error: "), done
                    assert seen() == before, command
                    continue
                said = chouette("--session", "club", "undo").stdout
                assert said.startswith("Undone: took back "), said
                assert seen() == before, (command, said)
                assert chouette("--session", "club", *command, code=None).exit_code == 0
            chouette("check")
        finally:
            dispose_all()


# ------------------------------------------------------------ the ledger keeps it all


def test_extras_proxies_and_a_split_survive_an_export_and_an_import(
    chouette, tmp_path, monkeypatch
):
    evening(chouette, "--proxies", "--split-at", "5")
    chouette("end", "team", "--gammon")
    chouette("join", "eve")
    chouette("join", "fay")
    chouette("proxy", "dan", "--by", "cat")
    chouette("split", "fri-2")
    chouette("--session", "fri-2", "extra", "eve", "box")
    chouette("--session", "fri-2", "end", "team")
    chouette("--session", "fri-2", "extra", "ann", "fay", "--points", "1")
    chouette("--session", "fri", "double", "cat")
    shown = ("sheet", "standings", "status", "game 1")
    before = {
        (name, what): chouette("--session", name, *what.split()).stdout
        for name in ("fri", "fri-2")
        for what in shown
        if not (name == "fri-2" and what == "game 1")
    }
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(export))
    after = {
        (name, what): chouette("--session", name, *what.split()).stdout for name, what in before
    }
    assert after == before
    assert "game 1: eve +3 from ann (+6.00)" in before["fri-2", "sheet"]
    assert "(away: cat decides for dan)" in before["fri", "status"]
    assert chouette("check").stdout.startswith("The ledger is consistent: 2 sessions")


def test_check_finds_a_games_extras_that_its_events_do_not_give(chouette, ledger_url):
    from sqlalchemy import create_engine, text

    evening(chouette)
    chouette("end", "box")
    engine = create_engine(ledger_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET detail = NULL"))
    engine.dispose()
    assert chouette("check", code=1).stderr.splitlines()[0] == (
        "Problem: fri game 1: the extras it keeps are not what its events booked"
    )


def test_check_finds_someone_away_who_is_not_in_the_line(chouette, ledger_url):
    from sqlalchemy import create_engine, text

    chouette("new", "fri", "ann", "bob", "cat", "--proxies")
    chouette("proxy", "cat", "--by", "bob")
    engine = create_engine(ledger_url)
    with engine.begin() as conn:
        line = conn.execute(text("SELECT line FROM session")).scalar_one()
        damaged = json.loads(line) | {"away": [["zed", "dan"]]}
        conn.execute(text("UPDATE session SET line = :line"), {"line": json.dumps(damaged)})
    engine.dispose()
    assert chouette("check", code=1).stderr.splitlines()[0] == (
        "Problem: fri: someone is away who is not in the line, or away twice"
    )


def test_the_club_commands_take_a_players_name_in_any_case(chouette):
    chouette("new", "fri", "Ann", "Bob", "Cat", "Dan", "--extras", "--proxies")
    assert chouette("proxy", "DAN", "--by", "ann").stdout.startswith(
        "Dan is away: Ann decides for Dan. "
    )
    assert chouette("extra", "bob", "CAT").stdout == (
        "Game 1: Cat gives Bob an extra on 2 (Cat pays Bob 1 for it).\n"
    )
    assert chouette("extra", "cat", "BOX", "--points", "1").stdout == (
        "Game 1: Ann gives Cat an extra on 1.\n"
    )
    # typed with spaces around it, as a name may be (" bob " is bob), box is still the box
    assert chouette("extra", " cat ", " box ", "--points", "1").stdout == (
        "Game 1: Ann gives Cat an extra on 1.\n"
    )
    assert chouette("extra", "bob", "zed", code=1).stderr == (
        "Error: zed is not playing this game\n"
    )
