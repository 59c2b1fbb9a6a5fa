"""A board on a cube decision through the commands: ``--position`` on double, take, drop,
beaver and raccoon, checked when typed (a usage error, nothing written), kept with the event
and shown by ``game N``; and ``chouette position N STEP ID`` giving it afterwards, which
``log`` lists and ``undo`` takes back."""

from __future__ import annotations

import pytest

from tests.dump import dump

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
ACE_AGAINST_SIX = "YAAAGAAAAAAAAA"


@pytest.fixture
def evening(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--stake", "5")
    return chouette


def test_each_cube_command_keeps_the_board_it_is_given(evening):
    evening("double", "bob", "cat", "--position", START_XGID)
    evening("beaver", "bob", "--position", START)
    evening("raccoon", "bob")
    evening("take", "bob", "--position", START)
    evening("drop", "cat")
    evening("double", "dan", "--by", "member", "--position", ACE_AGAINST_SIX)
    evening("take", "dan")
    events = evening.json("game", "1")["events"]
    assert [e.get("position") for e in events] == [
        START,
        START,
        None,
        START,
        None,
        ACE_AGAINST_SIX,
        None,
    ]
    shown = evening("game", "1").stdout
    assert f"  1. double bob, cat --by box --position {START}\n" in shown
    assert f"  6. double dan --by member --position {ACE_AGAINST_SIX}\n" in shown


def test_single_cube_the_teams_double_takes_a_board_too(chouette):
    chouette("new", "sat", "B", "C", "M1", "--cubes", "single")
    chouette("double", "--by", "team", "--position", START)
    chouette("take", "C", "--position", START)
    assert [e.get("position") for e in chouette.json("game", "1")["events"]] == [START, START]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["double", "bob", "--position", "4HPw"],
            "Error: 4HPw is not a position: a GNU Backgammon Position ID is 14 letters, digits, "
            "+ or / (4HPwATDgc/ABMA), and an XGID starts with XGID=",
        ),
        (
            ["double", "bob", "--position", "AAAAAAAAAAAAAA"],
            "Error: AAAAAAAAAAAAAA: the player on roll has borne off every checker: the game is "
            "over, there is no cube decision",
        ),
        (
            ["take", "--all", "--position", START_XGID.replace(":0:10", ":5:10")],
            f"Error: {START_XGID.replace(':0:10', ':5:10')} is a match position (5 points): "
            "chouette reviews money play, a match length of 0",
        ),
    ],
)
def test_a_malformed_position_is_a_usage_error_and_writes_nothing(evening, ledger_url, args, said):
    evening("double", "cat")
    before = dump(ledger_url)
    result = evening(*args, code=2)
    assert result.stderr.splitlines() == [said]
    assert dump(ledger_url) == before


def test_an_answer_at_another_board_is_refused_and_writes_nothing(evening, ledger_url):
    evening("double", "bob", "--position", START)
    before = dump(ledger_url)
    result = evening("take", "bob", "--position", ACE_AGAINST_SIX, code=1)
    assert result.stderr == (
        f"Error: the position {ACE_AGAINST_SIX} is not the board of this double, given as "
        f"{START}: a double and its answers are made at one board\n"
    )
    assert dump(ledger_url) == before


# ---------------------------------------------------------------- afterwards


def finished(chouette) -> None:
    chouette("double", "bob", "cat")
    chouette("take", "bob")
    chouette("drop", "cat")
    chouette("end", "box")


def test_a_board_given_afterwards_goes_to_the_decision_and_undo_takes_it_back(evening):
    finished(evening)
    sheet = evening("sheet").stdout
    out = evening("position", "1", "2", START_XGID).stdout
    assert out == f"Game 1: the position {START} is the board of step 2.\n"
    assert [e.get("position") for e in evening.json("game", "1")["events"]] == [None, START, None]
    now = evening("sheet").stdout
    # nothing booked changes; the record does, and with it the fingerprint (a new link)
    assert now.splitlines()[:-1] == sheet.splitlines()[:-1] and now != sheet
    assert (
        evening("log").stdout.splitlines()[2].endswith(f"the position {START} of game 1's step 2")
    )
    assert evening("check").stdout.startswith("The ledger is consistent")
    assert evening("undo").stdout == f"Undone: took back the position {START} of game 1's step 2.\n"
    assert all("position" not in e for e in evening.json("game", "1")["events"])
    assert evening("check").stdout.startswith("The ledger is consistent")


def test_a_board_given_again_replaces_the_exchanges_other_board(evening):
    evening("double", "bob", "cat", "--position", START)
    evening("take", "bob", "--position", START)
    evening("drop", "cat")
    found = evening.json("position", "1", "3", ACE_AGAINST_SIX)
    assert found == {
        "session": "fri",
        "game": 1,
        "step": 3,
        "position": ACE_AGAINST_SIX,
        "steps": [1, 2, 3],
    }
    positions = [e.get("position") for e in evening.json("game", "1")["events"]]
    assert positions == [ACE_AGAINST_SIX] * 3


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["position", "2", "1", START], "Error: there is no game 2 in fri"),
        (
            ["position", "1", "9", START],
            "Error: game 1 has steps 1 to 4 (chouette game 1 lists them), not 9",
        ),
        (
            ["position", "1", "4", START],
            "Error: step 4 of game 1 is end box single: a position belongs to a double, a take, "
            "a drop, a beaver or a raccoon",
        ),
        (
            ["position", "1", "1", "4HPw"],
            "Error: 4HPw is not a position: a GNU Backgammon Position ID is 14 letters, digits, "
            "+ or / (4HPwATDgc/ABMA), and an XGID starts with XGID=",
        ),
    ],
)
def test_a_board_that_cannot_be_given_is_refused_and_writes_nothing(
    evening, ledger_url, args, said
):
    finished(evening)
    before = dump(ledger_url)
    result = evening(*args, code=None)
    assert result.exit_code == (2 if "4HPw" in args else 1)
    assert result.stderr.splitlines() == [said]
    assert dump(ledger_url) == before


def test_a_board_given_twice_is_refused_the_second_time(evening):
    finished(evening)
    evening("position", "1", "1", START)
    result = evening("position", "1", "1", START, code=1)
    assert result.stderr == f"Error: step 1 of game 1 is at the position {START} already\n"
