"""A typed name means a player whatever its case (``BOB`` is bob); an unknown name is refused
with the closest names suggested; two players of one session never differ only in case."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import LineError, PlayerError
from chouette.line import join, new_line
from chouette.names import closest, did_you_mean, match, resolve
from chouette.rules import HouseRules
from tests.dump import dump

SEATED = ("ann", "bob", "Zoë", "Big Al")

# ---------------------------------------------------------------- the pure rules

MEANS = [
    ("bob", "bob"),
    ("BOB", "bob"),
    ("Bob", "bob"),
    ("zoë", "Zoë"),
    ("ZOË", "Zoë"),
    ("big al", "Big Al"),
    ("bobby", None),
    ("zed", None),
]


@pytest.mark.parametrize(("typed", "player"), MEANS)
def test_a_typed_name_means_the_player_it_differs_from_only_in_case(typed, player):
    assert match(typed, SEATED) == player


def test_the_exact_spelling_wins_and_a_name_that_could_be_two_is_refused():
    older = ("bob", "Bob", "ann")  # a ledger written before case twins were refused
    assert match("Bob", older) == "Bob" and match("bob", older) == "bob"
    with pytest.raises(PlayerError, match="BOB could be bob or Bob: type the name exactly"):
        match("BOB", older)


SUGGESTIONS = [
    ("bbo", "; did you mean bob?"),
    ("zoe", "; did you mean Zoë?"),
    ("BIG AL.", "; did you mean Big Al?"),
    ("xavier", ""),
]


@pytest.mark.parametrize(("typed", "said"), SUGGESTIONS)
def test_an_unknown_name_suggests_the_closest_names(typed, said):
    assert did_you_mean(typed, SEATED) == said


def test_several_close_names_are_listed_closest_first():
    assert closest("dan", ["don", "dean", "ann", "zed"]) == ["dean", "don", "ann"]
    assert did_you_mean("dan", ["don", "dean", "ann"]) == "; did you mean dean, don or ann?"


def test_resolve_refuses_a_name_that_means_nobody_in_the_callers_words():
    assert resolve("ANN", SEATED, "is not in the line") == "ann"
    with pytest.raises(PlayerError) as refused:
        resolve("bbo", SEATED, "is not in the line")
    assert str(refused.value) == "bbo is not in the line; did you mean bob?"


@given(st.sampled_from(SEATED), st.lists(st.booleans(), min_size=6, max_size=6))
def test_every_case_of_a_seated_name_means_that_player(name, upper):
    typed = "".join(c.upper() if u else c.lower() for c, u in zip(name, upper * 2, strict=False))
    assert match(typed, SEATED) == name


def test_a_new_line_refuses_two_names_that_differ_only_in_case():
    with pytest.raises(LineError, match="bob and BOB differ only in case"):
        new_line(["ann", "bob", "BOB"], HouseRules())
    line = new_line(["ann", "bob"], HouseRules())
    with pytest.raises(LineError, match="bob is already in the line, and Bob differs only"):
        join(line, "Bob", HouseRules())


# ---------------------------------------------------------------- at the command line


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
