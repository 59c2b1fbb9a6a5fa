"""The cube's house rules of issue 25 through the commands and the scorekeeper's page: the
options at ``new`` and on the reports, a refusal that writes nothing, automatic doubles
carried over from one game to the next (and undone), resignations to some members, an
extra's redoubles, the record and ``game N --json``."""

from __future__ import annotations

import json

import pytest

from chouette.line import new_line
from chouette.rules import HouseRules
from cli import run_words
from tests.ledger.test_undo import reports
from tests.serve.test_serve_pages import NOW, board_of, render
from web.moves import legal

pytestmark = pytest.mark.backends("sqlite", "postgres")

OPTIONS = [
    "--jacoby-scope", "any-cube-turned", "--beavers-by", "team", "--beaver-limit", "2",
    "--auto-doubles", "1", "--auto-past-limit", "carry-over", "--box-takes", "half",
    "--box-doubles", "with-captain", "--extras", "--mandatory-extras", "--extra-redoubles",
    "--resignations", "per-member", "--no-deals", "--consultation", "after-accept",
]  # fmt: skip


def test_the_new_options_are_stored_printed_and_in_json(chouette, tmp_path):
    out = chouette("new", "fri", "ann", "bob", "cat", *OPTIONS).stdout
    summary = (
        "jacoby any-cube-turned, beavers-by team, beaver-limit 2, auto-doubles 1, "
        "auto-past-limit carry-over, box-doubles with-captain, box-takes half, extras on, "
        "mandatory-extras on, extra-redoubles on, resignations per-member, deals off, "
        "consultation after-accept"
    )
    assert out.splitlines()[0] == f"Session fri: stake 1.00 a point; {summary}."
    rules = chouette.json("sessions")["sessions"][0]["rules"]
    assert {k: rules[k] for k in ("jacoby-scope", "beaver-limit", "box-takes", "deals")} == {
        "jacoby-scope": "any-cube-turned", "beaver-limit": 2, "box-takes": "half",
        "deals": False,
    }  # fmt: skip
    assert rules["edition"] == 4
    page = tmp_path / "fri.html"
    chouette("report", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert 'data-options="box-takes=half mandatory-beaver=off"' in html


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--no-jacoby", "--jacoby-scope", "any-cube-turned"],
         "Error: jacoby-scope any-cube-turned needs Jacoby: turn jacoby on or leave the scope "
         "per-cube\n"),
        (["--mandatory-extras"],
         "Error: mandatory-extras needs extras: turn extras on or mandatory-extras off\n"),
    ],
)  # fmt: skip
def test_a_session_with_rules_that_do_not_go_together_is_refused(chouette, options, message):
    done = chouette("new", "fri", "ann", "bob", "cat", *options, code=1)
    assert done.stderr == message
    assert "fri" not in chouette("sessions", code=None).stdout  # nothing written


def test_a_deal_that_leaves_a_lone_taker_is_refused_and_writes_nothing(chouette):
    chouette("new", "fri", "B", "C", "M1", "M2", "--mandatory-beaver")
    for command in (("double", "C", "M1", "M2"), ("take", "C"), ("drop", "M1")):
        chouette(*command)
    before = reports(chouette)
    done = chouette("deal", "M2", "0", code=1)
    assert done.stderr == (
        "Error: M2's answer would leave C the only one to take the box's double: under the "
        "house rule mandatory-beaver C must beaver or drop (undo C's take first)\n"
    )
    assert reports(chouette) == before


def test_an_automatic_double_carried_over_waits_for_the_box_and_undo_takes_it_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--auto-doubles", "1",
             "--auto-past-limit", "carry-over")  # fmt: skip
    chouette("auto-double")
    said = chouette("auto-double").stdout
    assert said == "Game 1: tied opening roll: an automatic double carried over to the next game.\n"
    assert chouette.json("status")["game"]["carried_over"] == 1
    chouette("end", "box")
    status = chouette.json("status")
    assert status["game"] is None and status["carry"] == 1
    assert "Carried over: 1 automatic double, for the box to accept or decline first" in (
        chouette("status").stdout
    )
    before = reports(chouette)
    refused = chouette("double", "bob", code=1)
    assert refused.stderr == (
        "Error: 1 automatic double carried over from the last game: the box accepts or "
        "declines it first (chouette carry accept|decline)\n"
    )
    assert reports(chouette) == before
    chouette("carry", "decline")
    assert chouette("undo").stdout == (
        "Undone: took back carry decline (1 automatic double carried over) (game 2 has not "
        "started now).\n"
    )
    assert reports(chouette) == before
    chouette("carry", "accept")
    assert {c["value"] for c in chouette.json("status")["game"]["cubes"].values()} == {2}
    booked = chouette.json("end", "team", "--gammon")
    assert booked["pairs"] == {"cat": 2, "bob": 2}  # centred at 2: a single under Jacoby
    assert chouette.json("game", "2")["events"] == [
        {"act": "carry", "doubles": 1, "accepted": True}
    ]
    assert chouette.json("game", "1")["events"] == [
        {"act": "auto-double"},
        {"act": "auto-double", "carried": True},
    ]


def test_a_record_after_a_carried_over_game_answers_the_carry_first(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--auto-doubles", "1",
             "--auto-past-limit", "carry-over")  # fmt: skip
    games = [
        {"events": [{"act": "auto-double"}, {"act": "auto-double"}], "result": {"winner": "box"}},
        {"events": [], "result": {"winner": "box"}},
    ]
    done = chouette("record", "-", input=json.dumps(games), code=1)
    assert done.stderr == (
        "Error: record record 2, result: 1 automatic double carried over from the last game: the "
        "box accepts or declines it first (chouette carry accept|decline)\n"
    )
    games[1]["events"] = [{"act": "carry", "doubles": 1, "accepted": True}]
    chouette("record", "-", input=json.dumps(games))
    assert chouette.json("sheet")["games"][1]["points"] == {"ann": 4, "bob": -2, "cat": -2}


def test_further_automatic_doubles_at_the_boxs_choice(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--auto-doubles", "1",
             "--auto-past-limit", "box-choice")  # fmt: skip
    chouette("auto-double")
    ignored = chouette("auto-double")
    assert ignored.stderr == (
        "Note: the tied roll doubles nothing unless the box chooses it (chouette auto-double "
        "--box-chooses), as the session's 1 automatic double has been played.\n"
    )
    assert chouette("auto-double", "--box-chooses").stdout.startswith(
        "Game 1: tied opening roll: the box, ann, chooses an automatic double.\n"
    )
    assert chouette.json("end", "box")["pairs"] == {"bob": -4, "cat": -4}


def test_resignations_to_some_members_through_the_commands(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--resignations", "per-member")
    chouette("double", "bob", "--by", "member")
    chouette("take", "bob")
    chouette("resign", "bob", "cat", "--gammon")
    assert chouette.json("status")["game"]["cubes"]["cat"]["resign"] == "gammon"
    refused = chouette("end", "box", code=1)
    assert refused.stderr == (
        "Error: the game cannot end while the box's resignation waits for an answer from bob "
        "and cat: accept or refuse it first (resign --accept or --refuse)\n"
    )
    assert chouette("resign", "--accept", "bob").stdout.startswith(
        "Game 1: bob accepts the box's resignation.\n"
    )
    chouette("resign", "--refuse", "--all")
    booked = chouette.json("end", "box")
    assert booked["pairs"] == {"bob": 4, "cat": -1, "dan": -1}  # bob's cube at 2: a gammon
    assert chouette("undo").stdout.startswith("Undone: took back end box single")


def test_an_extras_redouble_through_the_commands(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--extras", "--extra-redoubles")
    for command in (
        ("double", "bob", "cat", "dan"),
        ("drop", "cat"),
        ("drop", "dan"),
        ("take", "bob"),
        ("extra", "bob", "cat"),
        ("double-extra", "bob", "cat"),
    ):
        chouette(*command)
    extra = chouette.json("status")["game"]["extras"][0]
    assert extra["cube"] == {
        "value": 2, "holder": "bob", "pending": True, "settled": None, "void": False,
    }  # fmt: skip
    chouette("drop-extra", "bob", "cat")
    booked = chouette.json("end", "box", "--gammon")
    assert booked["extras"] == [{"team_side": "bob", "box_side": "cat", "points": 3, "cents": 300}]


def test_no_settlements_refuses_a_deal(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--no-deals")
    assert chouette("deal", "bob", "1", code=1).stderr == (
        "Error: deals are off in this session (house rule --no-deals: no settlements): play "
        "the game out\n"
    )


# ------------------------------------------------------------ the scorekeeper's page


def test_the_page_offers_the_carry_and_the_boxs_choice_and_the_resignations(chouette, ledger_url):
    from web.table import Table

    rules = HouseRules(auto_doubles=1, auto_past_limit="carry-over")
    line = new_line(["ann", "bob", "cat"], rules)
    waiting = legal(line, rules, None, carry=2)
    assert waiting.carry == 2 and not waiting.box_doubles and not waiting.end
    choice = HouseRules(auto_doubles=0, auto_past_limit="box-choice")
    found = legal(line, choice, None)
    assert found.auto_double_box and not found.auto_double
    chouette("new", "fri", "ann", "bob", "cat", "--resignations", "per-member")
    chouette("resign", "bob")
    page = render("_controls.html", board_of(ledger_url))
    bob = page.one(data_member="bob")
    buttons = {
        b.attrs["value"]: "disabled" not in b.attrs
        for b in bob.one("form", "buttons").all("button")
    }
    assert buttons["resign --accept --game 1 -- bob"] and buttons["resign --refuse --game 1 -- bob"]
    assert not buttons["take --game 1 -- bob"]
    assert not page.one(data_member="cat").all("button", value="resign --accept --game 1 -- cat")
    served = Table(ledger_url, None, lambda: NOW, commands=run_words)
    ok, said = served.run_line("resign --accept --game 1 -- bob", "fri")  # bob's button
    assert ok and said[0] == "Game 1: bob accepts the box's resignation.", said


def test_beaver_limit_allows_a_beaver_on_each_fresh_double(chouette):
    """Issue 34: a beaver on a later double is not refused for the game's earlier beaver."""
    chouette("new", "fri", "ann", "bob", "--beaver-limit", "1")
    for command in (("double", "bob"), ("beaver", "bob"), ("take", "bob"),
                    ("double", "bob", "--by", "member")):  # fmt: skip
        chouette(*command)
    assert "beaver to 16 pending" in chouette("beaver", "bob").stdout
    done = chouette("raccoon", "bob", code=1)
    assert done.stderr == (
        "Error: bob cannot raccoon: bob's cube has had a beaver on this double, the limit "
        "(beaver-limit 1)\n"
    )


def test_the_act_and_la_presets_play_their_sources_scope_and_the_card_says_it(chouette):
    """Issue 34: ACT's mandatory beaver binds only "if the box cubes all of the team"; L.A.'s
    box is held to break even only "if the box is doubled by everyone at the same time"."""
    chouette("new", "act", "B", "C", "M1", "M2", "--rules", "act")
    card = dict((w["topic"], w["text"]) for w in chouette.json("rules")["card"])
    assert card["Box answers"].endswith(
        "A member who alone takes a box double given to the whole team (every member still "
        "in) must beaver or drop."
    )
    for command in (("double", "C", "M1"), ("drop", "M1")):
        chouette(*command)
    assert "C: cube 2, C owns it" in chouette("take", "C").stdout  # two of three: no lone taker
    chouette("new", "la", "B", "C", "M1", "M2", "--rules", "la")
    card = dict((w["topic"], w["text"]) for w in chouette.json("rules")["card"])
    assert card["Box answers"].startswith("When every member still in doubles the box at once")
    for member in ("C", "M1"):
        chouette("double", member, "--by", "member")
    chouette("take", "M1")
    assert "C: out, +1 (B dropped)" in chouette("drop", "C").stdout  # two of three: free
