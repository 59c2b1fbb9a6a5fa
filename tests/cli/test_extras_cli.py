"""House rule ``extras`` through the commands: an extra on the sheet, in ``status`` and
``game N``, in its record and on the HTML report; refused where extras are off."""

from __future__ import annotations

import json

import pytest

from tests.dump import dump, unchained

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
