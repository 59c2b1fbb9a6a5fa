"""A typed name means a player whatever its case, at the command line: every command that
names a player, the closest names suggested, and import's mapping of an engine's names."""

from __future__ import annotations

import json

import pytest

from tests.dump import dump


def test_every_command_that_names_a_player_takes_any_case(chouette):
    chouette("new", "friday", "ann", "bob", "cat", "dan", "--player-stake", "CAT=2.00")
    assert chouette.json("sessions")["sessions"][0]["players"] == 4
    out = chouette("double", "BOB", "Cat", "DAN").stdout
    assert out.startswith("Game 1: the box, ann, doubles bob, cat, dan.")
    assert chouette("beaver", "Bob").stdout.startswith("Game 1: bob beavers.")
    assert chouette("raccoon", "BOB").stdout.startswith("Game 1: the box, ann, raccoons")
    assert chouette("take", "bOB").stdout.startswith("Game 1: bob takes.")
    assert chouette("drop", "CAT").stdout.startswith("Game 1: cat drops.")
    assert chouette("take", "Dan").stdout.startswith("Game 1: dan takes.")
    assert chouette("deal", "DAN", "1").stdout.startswith("Game 1: ann and dan deal")
    chouette("end", "box")
    assert chouette("sit-out", "DAN").stdout.startswith("dan sits out.")
    assert chouette("sit-in", "Dan").stdout.startswith("dan sits in.")
    assert (
        chouette("pay", "BOB", "Ann", "1.00", "--advance").stdout == "bob paid ann 1.00 (friday).\n"
    )
    assert chouette("leave", "DAN").stdout.startswith("dan leaves.")
    assert chouette("join", "Dan").stdout.startswith("dan joins.")  # back, under his name
    game = chouette.json("game", "1")
    assert [e.get("member") or e.get("members") for e in game["events"]] == [
        ["bob", "cat", "dan"],
        "bob",
        "bob",
        "bob",
        "cat",
        "dan",
        "dan",
    ]
    players = {s["name"] for s in chouette.json("standings")["players"]}
    assert players == {"ann", "bob", "cat", "dan"}
    assert "CAT" not in chouette("export").stdout  # cat's own stake is cat's
    assert chouette("standings").stdout.count("cat") == 1


REFUSED = [
    (["take", "bbo"], "Error: bbo is not playing this game; did you mean bob?\n"),
    (["double", "ann", "kat"], "Error: kat is not playing this game; did you mean cat?\n"),
    (["deal", "zed", "1"], "Error: zed is not playing this game\n"),
    (["sit-out", "Dann"], "Error: Dann is not in the line; did you mean dan or ann?\n"),
    (["leave", "anne"], "Error: anne is not in the line; did you mean ann?\n"),
    (
        ["pay", "bobb", "ann", "1.00", "--advance"],
        "Error: bobb has not played in friday (book a payment in the session they played in, "
        "with --session); did you mean bob?\n",
    ),
    (["join", "BOB"], "Error: bob is already in the line\n"),
    (
        ["new", "saturday", "ann", "bob", "Bob"],
        "Error: bob and Bob differ only in case: one session cannot tell them apart (give one "
        "of them another name)\n",
    ),
    (
        ["new", "saturday", "ann", "bob", "--player-stake", "bobby=2.00"],
        "Error: --player-stake: bobby is not in the line; did you mean bob?\n",
    ),
]


@pytest.mark.parametrize(("args", "said"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_an_unknown_name_is_refused_with_the_closest_names(chouette, ledger_url, args, said):
    chouette("new", "friday", "cat", "bob", "ann", "dan")
    chouette("end", "box")
    chouette("double", "ann")
    chouette("take", "ann")
    if args[0] in ("sit-out", "leave", "join"):
        chouette("end", "team")
    before = dump(ledger_url)
    assert chouette(*args, code=1).stderr == said
    assert dump(ledger_url) == before


def test_import_maps_an_engine_name_to_a_seated_player_in_any_case(chouette, tmp_path):
    chouette("new", "friday", "ann", "bob")
    record = {
        "session": "elsewhere",
        "game": 1,
        "winner": "Ann Smith",
        "loser": "bob",
        "cube": 2,
        "result": "single",
        "end": "bearoff",
        "points": 2,
    }
    data = tmp_path / "games.jsonl"
    data.write_text(json.dumps(record) + "\n", encoding="utf-8")
    chouette("import", str(data), "--as", "Ann Smith=ANN")
    assert {s["name"]: s["points"] for s in chouette.json("standings")["players"]} == {
        "ann": 2,
        "bob": -2,
    }


# ---------------------------------------------------------------- one person across the ledger


def test_one_person_written_two_ways_on_two_nights_is_one_account(chouette):
    """Issue 34: Zoë one night and ZOË the next were two accounts in owed, settle --all and
    stats. new (and join) write a new session's player as the ledger already writes them."""
    chouette("new", "fri", "Zoë", "bob", "--night", "n1")
    chouette("end", "box")
    done = chouette("new", "sat", "ZOË", "BOB", "--night", "n2")
    assert done.stdout.endswith("Line: Zoë | bob\n")
    assert done.stderr == (
        "Note: ZOË is written Zoë, as the ledger writes that player\n"
        "Note: BOB is written bob, as the ledger writes that player\n"
    )
    chouette("end", "box")
    assert chouette.json("settle", "--all")["payments"] == [  # type: ignore[index]
        {"from": "bob", "to": "Zoë", "cents": 200}
    ]
    assert {row.split()[0] for row in chouette("owed").stdout.splitlines()[2:]} == {"bob"}
    stats = chouette("stats").stdout.splitlines()
    assert [row.split()[0] for row in stats[2:4]] == ["Zoë", "bob"]
    joined = chouette("--session", "fri", "join", "CAT")  # new to the ledger: as typed
    assert "CAT joins." in joined.stdout and joined.stderr == ""


@pytest.mark.parametrize(
    "other",
    ["\uff22\uff2f\uff22", "b\u03bfb", "b\u043eb"],  # fullwidth ＢＯＢ; a Greek, a Cyrillic o
    ids=["fullwidth", "greek-o", "cyrillic-o"],
)
def test_a_name_that_only_looks_like_a_known_player_is_asked_about(chouette, ledger_url, other):
    chouette("new", "fri", "ann", "bob")
    before = dump(ledger_url)
    asked = chouette("new", "sat", other, "cat", code=1)
    assert asked.stderr == (
        f"Error: {other} looks like bob, who has played in this ledger: type bob to mean that "
        f"player, or give --new-player {other} if {other} is someone else\n"
    )
    asked = chouette("--session", "fri", "join", other, code=1)
    assert "give --new-player if" in asked.stderr
    assert dump(ledger_url) == before  # nothing written
    chouette("new", "sat", other, "cat", "--new-player", other)  # someone else: said so
    assert chouette("status").stdout.splitlines()[1] == f"Line: {other} | cat"


def test_new_player_names_one_of_the_players(chouette):
    refused = chouette("new", "fri", "ann", "bob", "--new-player", "zed", code=2)
    assert refused.stderr == "Error: --new-player zed: not one of the players named\n"


def test_one_session_refuses_two_names_that_look_alike(chouette):
    refused = chouette("new", "fri", "ann", "\u0430nn", "bob", code=1)  # a Cyrillic а
    assert refused.stderr == (
        "Error: ann and \u0430nn look alike: one player named twice, or two players one "
        "session cannot tell apart (give one of them another name)\n"
    )
