"""A typed name means a player whatever its case (``BOB`` is bob); an unknown name is refused
with the closest names suggested; two players of one session never differ only in case."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import LineError, PlayerError
from chouette.line import join, new_line
from chouette.names import closest, did_you_mean, match, resolve
from chouette.rules import HouseRules

SEATED = ("ann", "bob", "Zoë", "Big Al")


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
