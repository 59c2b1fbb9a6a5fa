"""What is wrong with a record, as values (chouette/checks.py): the checks ``chouette check``
runs and a restored export must pass, each a list of sentences, empty when all is well."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from chouette.checks import (
    by_player,
    engine_problems,
    line_problems,
    numbers_problems,
    source_problems,
    stranger_problems,
    sum_problems,
)
from chouette.line import Line
from tests.rules.test_session import friday


class Booked(NamedTuple):
    player: str
    points: int
    cents: int


class Source(NamedTuple):
    name: str
    games: int
    first_game: int | None
    last_game: int | None


def test_a_line_that_cannot_be_is_named():
    assert line_problems("friday", Line(("ann", "bob", "cat"))) == []
    assert list(map(str, line_problems("friday", Line(("ann", "bob", "ann"))))) == [
        "friday: someone sits twice in the line"
    ]


def test_games_are_numbered_one_two_three_without_a_gap():
    info = friday()
    assert numbers_problems(info, [1, 2, 3]) == []
    (said,) = numbers_problems(info, [1, 3])
    assert str(said).startswith("friday: its games are not numbered 1 to 2 (missing: 2;")


@given(st.lists(st.integers(-3, 40), min_size=1, max_size=12))
def test_the_gaps_named_are_the_first_five_missing_numbers(found):
    """The law: the numbers named missing are the first five of 1 … the highest number
    found that are not found."""
    said = numbers_problems(friday(), found)
    gaps = sorted(set(range(1, max(found) + 1)) - set(found))[:5]
    if found == list(range(1, len(found) + 1)):
        assert said == []
    else:
        (problem,) = said
        shown = str(problem).split("(missing: ")[1].split(";")[0]
        assert shown == (", ".join(map(str, gaps)) or "none")


def test_a_game_numbered_past_a_billion_is_named_without_counting_to_it():
    """An export or a damaged ledger may number a game 10**18: the gaps named are the first
    five, found without listing every number up to it (that took all the memory there was)."""
    (said,) = numbers_problems(friday(), [1, 10**18])
    assert "(missing: 2, 3, 4, 5, 6;" in str(said)


def test_bookings_sum_to_zero_and_are_summed_per_player():
    rows = [Booked("ann", 2, 1000), Booked("bob", -2, -1000), Booked("ann", 1, 500)]
    assert sum_problems("game 1", rows[:2]) == []
    assert list(map(str, sum_problems("game 1", rows))) == [
        "game 1: the bookings do not sum to zero (+1 points, +5.00)"
    ]
    assert by_player(rows) == {"ann": (3, 1500), "bob": (-2, -1000)}


def test_a_stranger_and_a_file_that_names_other_games_are_found():
    assert list(map(str, stranger_problems("friday", ["ann", "zed"], ["ann", "bob"]))) == [
        "friday: zed is seated or booked but not a player of the session"
    ]
    kinds = {1: "engine", 2: "engine", 3: "chouette"}
    assert source_problems("friday", Source("a.mat", 2, 1, 2), kinds) == []
    assert list(map(str, source_problems("friday", Source("a.mat", 2, 2, 3), kinds))) == [
        "friday: a.mat booked games 2 to 3, but the session holds 1 engine games there"
    ]


def test_an_imported_game_pays_the_winners_points_at_the_pairs_stake():
    info = friday(bob=200)
    detail = {"winner": "ann", "loser": "bob", "points": 2, "cube": 1, "result": "gammon"}
    right = {"ann": (2, 400), "bob": (-2, -400)}
    assert engine_problems("game 4", detail, right, info) == []
    wrong = {"ann": (2, 1000), "bob": (-2, -1000)}  # at ann's stake, not the pair's
    assert list(map(str, engine_problems("game 4", detail, wrong, info))) == [
        "game 4: the bookings are not ann +2 from bob"
    ]
    assert list(map(str, engine_problems("game 4", "nonsense", right, info))) == [
        "game 4: its stored result is not a result ('\"nonsense\"')"
    ]


def test_a_finding_reads_in_danish_and_czech():
    from files.words import words

    (found,) = sum_problems("game 1", [Booked("ann", 1, 625)])
    assert words("da")(found) == "game 1: bogføringerne summer ikke til nul (+1 point, +6,25)"
    assert words("cs")(found) == "game 1: zápisy nedávají součet nula (+1 bodů, +6,25)"
