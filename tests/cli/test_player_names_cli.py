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
