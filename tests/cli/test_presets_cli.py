"""Club presets and the rules card through the commands: ``new --rules``, ``rules`` (the
card, ``--presets``, ``--preset``, ``--save``, ``--forget``), ``accept`` (journalled, undone,
on the sheet, the report and the keeper's page), and the resignation's answers, which gave
the word ``accept`` to the rules (``resign --accept``/``--refuse``)."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from chouette.errors import ChouetteError
from chouette.presets import PUBLISHED, override, published
from chouette.rules import HouseRules
from cli import run_words
from tests.dump import dump
from tests.serve.test_serve_pages import board_of, render

pytestmark = pytest.mark.backends("sqlite", "postgres")

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")


def cambridge(chouette) -> None:
    """Cambridge's rules with consulting option 2, full consultation."""
    said = chouette(
        "new", "fri", "ann", "bob", "cat", "dan", "--rules", "cambridge", "--consultation",
        "free", "--stake", "2.50", "--player-stake", "dan=1",
    ).stdout  # fmt: skip
    assert said == (
        "Session fri: stake 2.50 a point; beavers off, raccoons off, auto-past-limit "
        "box-choice, newcomer before-loser, deals off, proxies on.\n"
        "Rules from the preset cambridge, changed: consultation free (the preset: "
        "no-cube-no-talk). The table accepts them with chouette accept PLAYER... (chouette "
        "rules shows the card).\n"
        "dan plays at 1.00 a point.\n"
        "Line: ann | bob, cat, dan\n"
    )


CARD = """\
Rules card: fri
Stake: 2.50 a point; own stakes: dan 1.00 (a pair plays at the lower).
Preset: cambridge, Cambridge Backgammon chouette rules, [S8] https://cambridgebackgammon.org/chouette-rules/
Changed from the preset (marked *): consultation free (the preset: no-cube-no-talk).

  Cubes:             Each member has their own cube against the box.
  Box doubles:       The box may double any members it chooses.
  Box answers:       The box takes or drops each member's double as it likes.
  Beavers:           No beavers, no raccoons.
  Automatic doubles: Only if the box chooses, on a tied opening roll.
  Gammons:           Jacoby: a gammon or backgammon counts single against a member whose cube was never turned (automatic doubles do not turn it).
  Rotation:          The box stays if it beat the captain; otherwise the captain takes the box. The loser goes to the bottom of the line.
  Captain out:       A captain who is out hands the board to an acting captain, but the captain's own result decides the rotation.
  Newcomers:         A newcomer sits at the bottom, ahead of the player just sent down.
  Partner:           No box partner.
  Extras:            No extras.
  Settling:          No deals (settlements); the box resigns the whole board or nothing.
  Talk:              Anyone may talk over the team's plays. (The table keeps this rule: chouette does not check it.) *
  Away:              A player away names a proxy, or their cube follows the captain's.
  Size:              No limit on the table's size.

"""  # noqa: E501


def test_a_presets_card_is_printed_and_accepted(chouette, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    cambridge(chouette)
    assert chouette("rules").stdout == CARD + (
        "Accepted by: nobody yet.\n"
        "Not yet accepted: ann, bob, cat, dan (chouette accept PLAYER...).\n"
    )
    assert chouette("accept", "ann", "BOB").stdout == (
        "ann and bob accept the rules of fri.\nNot yet accepted: cat, dan.\n"
    )
    assert chouette("rules").stdout == CARD + (
        "Accepted by: ann (2026-11-20 20:00 UTC), bob (2026-11-20 20:00 UTC).\n"
        "Not yet accepted: cat, dan (chouette accept PLAYER...).\n"
    )
    assert chouette("accept", "--all").stdout == (
        "cat and dan accept the rules of fri.\nEveryone seated has accepted the rules.\n"
    )
    assert chouette("rules").stdout.endswith(
        "Accepted by: ann (2026-11-20 20:00 UTC), bob (2026-11-20 20:00 UTC), cat (2026-11-20 "
        "20:00 UTC), dan (2026-11-20 20:00 UTC).\n"
    )
    # a newcomer has not accepted them: the card asks them
    chouette("join", "eve")
    assert chouette("rules").stdout.endswith("Not yet accepted: eve (chouette accept PLAYER...).\n")


def test_the_rules_card_and_acceptance_in_json(chouette):
    cambridge(chouette)
    assert chouette.json("accept", "bob") == {
        "session": "fri",
        "accepted": ["bob"],
        "at": "2026-11-20T20:00:00+00:00",
        "not_accepted": ["ann", "cat", "dan"],
    }
    card = chouette.json("rules")
    rules = card.pop("rules")
    words = card.pop("card")
    assert card == {
        "session": "fri",
        "stake_cents": 250,
        "player_stakes": {"dan": 100},
        "preset": {
            "name": "cambridge",
            "kind": "published",
            "title": "Cambridge Backgammon chouette rules",
            "source": {
                "tag": "S8",
                "title": "Cambridge Backgammon chouette rules",
                "url": "https://cambridgebackgammon.org/chouette-rules/",
            },
            "partly_read": False,
        },
        "origin_known": True,
        "overridden": [{"option": "consultation", "preset": "no-cube-no-talk", "value": "free"}],
        "accepted": [{"player": "bob", "at": "2026-11-20T20:00:00+00:00"}],
        "not_accepted": ["ann", "cat", "dan"],
    }
    assert rules["consultation"] == "free" and rules["deals"] is False
    assert words[0] == {"topic": "Cubes", "text": "Each member has their own cube against the box."}
    assert [w["topic"] for w in words][-1] == "Size"


def test_the_presets_listed_each_citing_its_source(chouette):
    listed = chouette("rules", "--presets").stdout.splitlines()
    assert listed[0].split() == ["preset", "rules", "source", "chouette's", "choices"]
    assert listed[2].split()[:2] == ["act", "Backgammon"]
    assert "[S11] https://www.bgonline.org/forums/webbbs_config.pl?read=141034" in listed[11]
    assert listed[5].startswith("boston") and "(partly read)" in listed[5]
    assert listed[5].endswith("raccoons, retention")
    found = chouette.json("rules", "--presets")["presets"]
    assert [p["name"] for p in found][:3] == ["act", "amsterdam-020", "rotterdam-010"]
    la = next(p for p in found if p["name"] == "la")
    assert set(la) == {
        "name", "kind", "title", "source", "partly_read", "rules", "stated", "ours", "notes",
    }  # fmt: skip
    assert la["ours"] == [
        {
            "option": "jacoby",
            "value": True,
            "why": "not in the rules as posted; the research notes take L.A. to play it "
            "(implicitly)",
        }
    ]
    words = (
        "To retain the box you must win the game, if played to completion against anyone, or "
        "have the last active crew member pass your cube or make a negative settlement. Your "
        "net result for the game can not result in a loss;"
    )
    assert {"option": "retention", "value": "won-not-loss", "words": words} in la["stated"]
    one = chouette("rules", "--preset", "L.A.").stdout.splitlines()
    assert one[:4] == [
        "Preset la: L.A. chouette rules (Joe Russell, 2013)",
        "Source: L.A. chouette rules (Joe Russell, BGonline, 2013), [S11] "
        "https://www.bgonline.org/forums/webbbs_config.pl?read=141034",
        "",
        "The source states:",
    ]
    assert "  jacoby on: not in the rules as posted; the research notes take L.A. to play it " \
        "(implicitly)" in one  # fmt: skip
    assert chouette.json("rules", "--preset", "esk")["partly_read"] is True


def test_a_clubs_own_preset_is_kept_for_the_next_evening(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob", "cat", "--rules", "la", "--no-jacoby")
    assert chouette("rules", "--save", "Tuesday club").stdout == (
        "The rules of fri are the club's preset Tuesday club: chouette new NAME PLAYER... "
        "--rules 'Tuesday club'\n"
    )
    before = dump(ledger_url)
    refused = chouette("rules", "--save", "l.a.", code=1)
    assert refused.stderr == (
        "Error: l.a. is the name of the published preset la (L.A. chouette rules (Joe Russell, "
        "2013)): a club's own preset takes another name\n"
    )
    refused = chouette("rules", "--save", "tuesday CLUB", code=1)
    assert refused.stderr == (
        "Error: the club has a preset called Tuesday club already (saved from fri): "
        "--replace saves over it\n"
    )
    assert dump(ledger_url) == before
    said = chouette("new", "sat", "dan", "eve", "--rules", "tuesday club", "--jacoby").stdout
    assert said.splitlines()[1] == (
        "Rules from the preset Tuesday club, changed: jacoby on (the preset: off). The table "
        "accepts them with chouette accept PLAYER... (chouette rules shows the card)."
    )
    card = chouette.json("rules")
    assert card["preset"] == {
        "name": "Tuesday club",
        "kind": "club",
        "saved_at": "2026-11-20T20:00:00+00:00",
        "saved_from": "fri",
    }
    assert card["rules"]["retention"] == "won-not-loss" and card["rules"]["jacoby"] is True
    assert chouette("rules").stdout.splitlines()[2] == (
        "Preset: Tuesday club, the club's own (saved on 2026-11-20 20:00 UTC from fri)."
    )
    assert chouette.json("rules", "--presets")["presets"][-1] == {
        "name": "Tuesday club",
        "kind": "club",
        "saved_at": "2026-11-20T20:00:00+00:00",
        "saved_from": "fri",
        "rules": chouette.json("--session", "fri", "rules")["rules"],
    }
    assert chouette("rules", "--save", "tuesday club", "--replace").stdout.startswith(
        "The rules of sat are the club's preset Tuesday club:"
    )
    assert chouette.json("rules", "--preset", "Tuesday Club")["saved_from"] == "sat"
    assert chouette("rules", "--forget", "TUESDAY club").stdout == (
        "The club's preset Tuesday club is forgotten (the sessions started from it keep their "
        "rules).\n"
    )
    assert chouette("rules", "--forget", "Tuesday club", code=2).stderr == (
        "Error: the club has no preset called Tuesday club\n"
    )
    # the session started from it keeps its rules and says where they came from
    assert chouette.json("rules")["preset"]["name"] == "Tuesday club"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--rules", "boston-tea"), 2, "--rules: there is no preset called boston-tea (presets: "
         "act, amsterdam-020, rotterdam-010, boston, cambridge, clinton-hill, colorado, esk, "
         "florida-challenge, la, laws-1931, woolsey; chouette rules --presets lists them)"),
        (("--rules", "cambridge", "--raccoons"), 1, "raccoons need beavers: turn beavers on or "
         "raccoons off (with the preset cambridge)"),
        (("--rules", "club:la"), 2, "--rules: there is no preset called la (presets: act, "
         "amsterdam-020, rotterdam-010, boston, cambridge, clinton-hill, colorado, esk, "
         "florida-challenge, la, laws-1931, woolsey; chouette rules --presets lists them)"),
    ],
)  # fmt: skip
def test_a_preset_that_cannot_be_played_is_refused_and_no_ledger_is_made(
    chouette, ledger_url, backend, args, code, message
):
    result = chouette("new", "fri", "ann", "bob", *args, code=code)
    assert result.stderr == f"Error: {message}\n"
    if backend == "sqlite":
        assert not Path(ledger_url.removeprefix("sqlite:///")).exists()


def test_options_beside_a_preset_that_turn_beavers_off_turn_raccoons_off_too(chouette):
    chouette("new", "fri", "ann", "bob", "--rules", "act", "--no-beavers")
    card = chouette.json("rules")
    assert (card["rules"]["beavers"], card["rules"]["raccoons"]) == (False, False)
    assert card["overridden"] == [
        {"option": "beavers", "preset": True, "value": False},
        {"option": "raccoons", "preset": True, "value": False},
    ]


def test_a_session_without_a_preset_says_the_options_given(chouette):
    chouette("new", "fri", "ann", "bob", "--retention", "beat-all", "--jacoby")
    assert chouette("rules").stdout.splitlines()[2] == (
        "Preset: none; chouette's defaults, with retention beat-all."
    )
    assert chouette.json("rules")["preset"] is None


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("accept", "zed"), 1, "zed is not in the line of fri: only a seated player accepts "
         "its rules"),
        (("accept", "bob", "zed", "yan"), 1, "zed, yan are not in the line of fri: only a "
         "seated player accepts its rules"),
        (("accept", "ann"), 1, "ann accepted these rules already: nothing recorded (chouette "
         "rules shows who accepted them)"),
        (("accept", "bob", "bob"), 1, "bob is named twice"),
        (("accept",), 2, "name the players who accept the rules, or use --all for everyone "
         "seated"),
        (("accept", "bob", "--all"), 2, "name the players who accept or use --all, not both"),
        (("rules", "--presets", "--save", "x"), 2,
         "one of --presets, --preset, --save and --forget at a time"),
        (("rules", "--replace"), 2, "--replace goes with --save NAME"),
        (("rules", "--preset", "nope"), 2,
         "there is no preset called nope (chouette rules --presets lists them)"),
    ],
)  # fmt: skip
def test_refusals_of_the_rules_commands_name_the_players_and_write_nothing(
    chouette, ledger_url, args, code, message
):
    chouette.begun(("new", "fri", "ann", "bob", "cat"), ("accept", "ann"))
    before = dump(ledger_url)
    assert chouette(*args, code=code).stderr == f"Error: {message}\n"
    assert dump(ledger_url) == before


def test_everyone_accepted_already_is_refused(chouette):
    chouette("new", "fri", "ann", "bob")
    chouette("accept", "--all")
    assert chouette("accept", "--all", code=1).stderr == (
        "Error: everyone seated in fri has accepted its rules already\n"
    )


def test_an_acceptance_is_a_thing_done_that_log_lists_and_undo_takes_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob")
    chouette("accept", "ann", "cat")
    assert chouette.json("log")["done"][0] == {
        "at": "2026-11-20T20:00:00+00:00",
        "what": "accept",
        "text": "the acceptance of the rules by ann and cat",
    }
    assert chouette("undo").stdout == (
        "Undone: took back the acceptance of the rules by ann and cat.\n"
    )
    assert chouette.json("rules")["accepted"] == []
    assert chouette.json("undo")["undone"] == "events"  # then the game's own events


def test_the_sheet_and_the_report_list_who_accepted(chouette, tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    cambridge(chouette)
    chouette("end", "box")
    assert "Accepted by" not in chouette("sheet").stdout  # nobody yet: the sheet as before
    assert chouette.json("sheet")["not_accepted"] == ["ann", "cat", "dan", "bob"]
    chouette("accept", "ann", "cat")
    sheet = chouette("sheet").stdout.splitlines()
    assert sheet[-3:-1] == [
        "Accepted by: ann (2026-11-20 20:00 UTC), cat (2026-11-20 20:00 UTC).",
        "Not yet accepted: dan, bob (chouette accept PLAYER...).",
    ]
    found = chouette.json("sheet")
    assert found["accepted"] == [
        {"player": "ann", "at": "2026-11-20T20:00:00+00:00"},
        {"player": "cat", "at": "2026-11-20T20:00:00+00:00"},
    ]
    assert list(found)[-1] == "games"
    assert "accepted" not in chouette.json("sheet", "--all")  # the club ledger: no one card
    page = tmp_path / "fri.html"
    chouette("report", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert (
        '<p class="card">Preset: cambridge, Cambridge Backgammon chouette rules, [S8] '
        "https://cambridgebackgammon.org/chouette-rules/</p>"
    ) in html
    assert (
        '<p class="card">Accepted by: ann (2026-11-20 20:00 UTC), cat (2026-11-20 20:00 UTC).</p>'
    ) in html


@pytest.mark.backends("sqlite")
def test_an_export_keeps_the_presets_the_origins_and_the_acceptances(chouette, tmp_path):
    cambridge(chouette)
    chouette("accept", "bob", "ann")
    chouette("rules", "--save", "club nights")
    chouette("end", "team")
    card, presets = chouette.json("rules"), chouette.json("rules", "--presets")
    export = tmp_path / "ledger.jsonl"
    chouette("export", str(export))
    lines = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    assert [item["kind"] for item in lines] == [
        "chouette-ledger", "session", "preset", "game", "accept", "chain",
    ]  # fmt: skip
    chouette("--db", str(tmp_path / "copy.db"), "import", str(export))
    assert chouette.json("--db", str(tmp_path / "copy.db"), "rules") == card
    assert chouette.json("--db", str(tmp_path / "copy.db"), "rules", "--presets") == presets


def test_a_split_table_keeps_where_its_rules_came_from_and_asks_its_players_again(chouette):
    chouette("new", "fri", "a", "b", "c", "d", "e", "f", "--rules", "esk")
    chouette("accept", "--all")
    chouette("split", "sat")
    card = chouette.json("--session", "sat", "rules")
    assert card["preset"]["name"] == "esk" and card["accepted"] == []
    assert card["not_accepted"] == ["d", "e", "f"]
    assert chouette.json("--session", "fri", "rules")["not_accepted"] == []


def test_the_keeper_page_records_a_players_acceptance(chouette, ledger_url):
    from web.table import Table

    chouette("new", "fri", "ann", "bob", "cat")
    chouette("accept", "ann")
    page = render("_controls.html", board_of(ledger_url))
    buttons = [f.attrs["data-form"] for f in page.all("form") if "accept-rules" in str(f)]
    assert buttons == ["accept-rules:bob", "accept-rules:cat"]
    served = Table(ledger_url, None, lambda: NOW, commands=run_words)
    button = page.one("form", data_form="accept-rules:cat").one("button")
    assert served.run_line(button.attrs["value"], "fri") == (
        True,
        ["cat accepts the rules of fri.", "Not yet accepted: bob."],
    )
    assert chouette.json("rules")["not_accepted"] == ["bob"]
    board = render("_board.html", board_of(ledger_url))
    assert [p.text() for p in board.all("p", cls="accepted")] == [
        "Accepted by: ann (2026-11-20 20:00 UTC), cat (2026-11-20 20:00 UTC). "
        "Not yet accepted: bob (chouette accept PLAYER...)."
    ]


def test_a_players_phone_shows_the_rules_card_open_until_they_accept(chouette, ledger_url):
    """Issue 21: the phone shows its player the rules card (in the page's language, as
    ``chouette rules`` says it) with the button to accept it; once accepted, the card stays,
    folded, and the button is gone."""
    from chouette.card import rule_lines
    from files.words import translation
    from tests.dom import Node, parse
    from web.app import templates

    chouette("new", "fri", "ann", "bob", "cat", "--rules", "esk")
    board = board_of(ledger_url)

    def phone(lang: str = "en") -> Node:
        page = templates(lang).get_template("_mine.html")
        return parse(page.render(board=board, player="bob", settlement=[]))

    card = phone().one("details", "card")
    assert "open" in card.attrs and phone().all("form", "accept")
    assert board.house_rules is not None
    assert [dd.text() for dd in card.all("dd")] == [t for _, t in rule_lines(board.house_rules)]
    assert card.all("dt")[0].text() == "Cubes"
    danish = phone("da").one("details", "card")
    assert [dd.text() for dd in danish.all("dd")] == [t for _, t in board.card(translation("da"))]
    assert danish.all("dd")[0].text() != card.all("dd")[0].text()
    chouette("accept", "bob")
    board = board_of(ledger_url)
    assert "open" not in phone().one("details", "card").attrs and not phone().all("form")


# ------------------------------------------------------------ the resignation's answers


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--accept", "--refuse", "bob"), "--accept or --refuse, not both"),
        (("--accept", "bob", "--gammon"), "--accept answers the resignation offered, at its "
         "level: leave out --gammon and --backgammon"),
        (("--accept",), "name the members who answer, or use --all to accept for everyone "
         "asked"),
        (("--refuse", "bob", "--all"), "name the members who answer or use --all, not both"),
        (("--all",), "--all answers for everyone asked, with --accept or --refuse; the box "
         "offers to every member still in when it names none"),
    ],
)  # fmt: skip
def test_the_answers_to_a_resignation_are_typed_as_resign_accept_or_refuse(
    chouette, ledger_url, args, message
):
    chouette("new", "fri", "ann", "bob", "cat", "--resignations", "per-member")
    chouette("resign", "--gammon")
    before = dump(ledger_url)
    assert chouette("resign", *args, code=2).stderr == f"Error: {message}\n"
    assert dump(ledger_url) == before
    assert chouette("resign", "--accept", "bob", "cat").stdout.splitlines()[:2] == [
        "Game 1: bob accepts the box's resignation.",
        "Game 1: cat accepts the box's resignation.",
    ]
    assert chouette.json("game", "1")["events"][-2:] == [
        {"act": "resign-accept", "member": "bob"},
        {"act": "resign-accept", "member": "cat"},
    ]
    assert (
        chouette("log")
        .stdout.splitlines()[2]
        .endswith("resign --accept bob, resign --accept cat (game 1)")
    )


def test_a_record_written_before_the_rename_still_reads(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--resignations", "per-member")
    record = {
        "line": ["ann", "bob", "cat"],
        "events": [
            {"act": "resign", "kind": "gammon", "members": ["bob", "cat"]},
            {"act": "accept", "member": "bob"},
            {"act": "refuse", "member": "cat"},
        ],
        "result": {"winner": "box"},
    }
    chouette("record", "-", input=json.dumps(record))
    assert chouette.json("game", "1")["events"][1:] == [
        {"act": "resign-accept", "member": "bob"},
        {"act": "resign-refuse", "member": "cat"},
    ]


# ------------------------------------------------------------ the club rules on the reports


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


# ------------------------------------------------------------ every rule both ways, any preset

#: A value that turns each optional number on (off is ``off``), and the second value of each
#: number that is never off: a house rule added without one here fails the test below.
ON_VALUES: dict[str, list[object]] = {
    "max_cube": [64],
    "partner_from": [5],
    "split_at": [8],
    "beaver_limit": [1],
    "table_stakes": [20],
    "rounds": [5],
    "until": ["23:00"],
    "auto_doubles": [0, 2],
    "partner_share": [50, 30],
    "starting_cube": [1, 4],
}

#: What a form needs beside it to be played at all (raccoons need beavers, …).
NEEDS: dict[tuple[str, object], dict[str, object]] = {
    ("raccoons", True): {"beavers": True},
    ("beavers_by", "team"): {"beavers": True},
    ("beavers_by", "box"): {"beavers": True},
    ("beaver_limit", 1): {"beavers": True},
    ("jacoby_scope", "any-cube-turned"): {"jacoby": True},
    ("mandatory_extras", True): {"extras": True, "mandatory_beaver": False, "table_stakes": None},
    ("extra_redoubles", True): {"extras": True, "table_stakes": None},
    ("extras", True): {"table_stakes": None},
    ("mandatory_beaver", True): {"mandatory_extras": False},
    ("partner_optional", True): {"partner_from": 5, "partner_pick": "next", "table_stakes": None},
    ("partner_run", True): {"partner_from": 5, "table_stakes": None},
    ("buy_outs", True): {"partner_from": 5, "table_stakes": None},
    ("partner_from", 5): {"table_stakes": None},
    ("partner_pick", "box"): {"partner_optional": False},
    ("table_stakes", 20): {"partner_from": None, "extras": False},
    ("rounds", 5): {"until": None},
    ("until", "23:00"): {"rounds": None},
}


def new_command() -> Any:
    import typer.main

    from cli import app

    return typer.main.get_command(app).commands["new"]  # type: ignore[attr-defined]


def rule_forms() -> list[dict[str, object]]:
    """Every form of every house rule ``new`` takes: on and off (``--x``/``--no-x``, a number
    or ``off``), every choice of a choice, as the options given (HouseRules field names)."""
    import typing

    hints = typing.get_type_hints(HouseRules)
    params = {p.name: p for p in new_command().params}
    forms = []
    for field in dataclasses.fields(HouseRules):
        if field.name == "edition":  # the scoring's edition: chouette's, not the table's
            assert field.name not in params
            continue
        assert field.name in params, f"house rule {field.name} has no option at new"
        kind = hints[field.name]
        if kind is bool:
            assert params[field.name].secondary_opts, f"--{field.name} has no --no- form"
            values: list[object] = [True, False]
        elif typing.get_origin(kind) is typing.Literal:
            values = list(typing.get_args(kind))
        else:
            assert field.name in ON_VALUES, f"house rule {field.name}: give it values here"
            values = list(ON_VALUES[field.name])
            if type(None) in typing.get_args(kind):
                values.append(None)
        forms += [{field.name: value} for value in values]
    return forms


def form_args(given: dict[str, object]) -> list[str]:
    """The options as typed."""
    params = {p.name: p for p in new_command().params}
    args: list[str] = []
    for name, value in given.items():
        param = params[name]
        if value is True or value is False:
            args.append(param.opts[0] if value else param.secondary_opts[0])
        else:
            args += [param.opts[0], "off" if value is None else str(value)]
    return args


def groups_beside(preset: str | None) -> list[dict[str, object]]:
    """Every form (with what it needs) beside ``preset``, each proved playable there, put
    together in as few sessions as the rules allow."""
    base = HouseRules() if preset is None else published(preset).rules
    groups: list[dict[str, object]] = []
    for form in rule_forms():
        ((name, value),) = form.items()
        wanted = {**NEEDS.get((name, value), {}), **form}
        check = {k: v for k, v in wanted.items() if k != "until"}  # until: a moment, at new
        override(base, check)  # the form is played beside the preset (or refused here)
        for group in groups:
            if any(k in group and group[k] != v for k, v in wanted.items()):
                continue
            try:
                override(base, {k: v for k, v in (group | wanted).items() if k != "until"})
            except ChouetteError:
                continue
            group |= wanted
            break
        else:
            groups.append(dict(wanted))
    return groups


@pytest.mark.parametrize("preset", [None, *(p.name for p in PUBLISHED)])
def test_every_house_rule_is_switched_both_ways_beside_every_preset(chouette, preset):
    """Issue 34: a preset that turns a rule on never leaves it stuck on (``--rules la
    --no-extras``): each form of each rule is given beside each preset and is played."""
    beside = [] if preset is None else ["--rules", preset]
    for number, group in enumerate(groups_beside(preset)):
        made = chouette.json("new", f"s{number}", "ann", "bob", "cat", *beside, *form_args(group))
        rules = HouseRules.from_dict(made["rules"])
        for name, value in group.items():
            if name == "until" and value is not None:
                assert rules.until is not None
            else:
                assert getattr(rules, name) == value, (preset, name, value)


def test_a_rule_given_off_beside_a_preset_takes_the_rules_that_need_it_off_too(chouette):
    """``--rules la --no-extras`` was refused with advice no option could follow."""
    said = chouette("new", "fri", "ann", "bob", "--rules", "la", "--no-extras").stdout
    assert "changed: extras off (the preset: on), mandatory-extras off (the preset: on)." in said
    card = chouette.json("rules")
    assert (card["rules"]["extras"], card["rules"]["mandatory-extras"]) == (False, False)
    chouette("new", "sat", "ann", "bob", "--rules", "la", "--no-extras", "--mandatory-extras",
             code=1)  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "heading", "states", "partly", "notes"),
    [
        ("da", "Forvalg la: ", "Kilden siger:", "(delvist læst)", "Ikke sat af forvalget:"),
        ("cs", "Předvolba la: ", "Pramen uvádí:", "(přečteno zčásti)", "Předvolba nenastavuje:"),
    ],
)
def test_a_preset_and_the_list_of_presets_are_said_in_the_readers_language(
    chouette, lang, heading, states, partly, notes
):
    """Issue 36: ``rules --preset`` and ``rules --presets`` in the reader's words; what a
    source says is quoted as it says it, and an option's name and value are typed words."""
    one = chouette("--lang", lang, "rules", "--preset", "la").stdout.splitlines()
    assert one[0].startswith(heading) and one[3] == states and notes in one
    assert "  cubes multi: \u201cIndividual cubes;\u201d" in one  # the source's own words
    assert "The source states:" not in one and "Every other house rule" not in "\n".join(one)
    listed = chouette("--lang", lang, "rules", "--presets").stdout.splitlines()
    assert "preset " not in listed[0] and "source" not in listed[0]
    assert partly in next(line for line in listed if line.startswith("boston"))
