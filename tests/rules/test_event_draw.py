"""An event's draw: the tables of a level, their sizes within the event's table size, drawn
by a seeded generator (the same seed and the same event draw the same tables, so anyone can
check a draw), with as few pairings repeated from the earlier levels as the numbers allow:
proven fewest where every draw can be weighed, a seeded search's fewest past that."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.event import (
    EXACT_DRAWS,
    EventRules,
    close,
    draw,
    drawn,
    enter,
    last_two,
    misfit,
    new_event,
    possible_draws,
    table_sizes,
)
from chouette.rules import HouseRules


def event(players: int, size: tuple[int, int] = (3, 5)):
    rules = EventRules(
        bank=10,
        levels=(1, 2, 4),
        organiser="org",
        house=HouseRules(table_stakes=10),
        table_size=size,
    )
    return enter(new_event("cup", rules), [f"p{i:03d}" for i in range(players)])


def next_level(state, seed: int):
    made = draw(state, seed, random.Random(seed))
    state = drawn(state, made)
    return close(state, {p: state.banks[p] for p in state.seated}), made


def repeats(state, tables) -> int:
    met = state.met()
    return sum(
        met[(a, b) if a < b else (b, a)] for t in tables for a, b in itertools.combinations(t, 2)
    )


@pytest.mark.parametrize(
    ("count", "size", "sizes"),
    [
        (8, (3, 5), (4, 4)),
        (7, (3, 5), (4, 3)),
        (11, (3, 5), (4, 4, 3)),
        (16, (3, 5), (4, 4, 4, 4)),
        (128, (3, 5), (5,) * 24 + (4, 4)),
        (2, (3, 5), (2,)),  # fewer than a table's least: one final table
    ],
)
def test_tables_are_as_few_and_as_even_as_the_table_size_allows(count, size, sizes):
    assert table_sizes(count, *size) == sizes
    assert misfit(sizes, *size) is None


@pytest.mark.parametrize(
    ("count", "size", "sizes", "note"),
    [
        # issue 39: eight at tables of 4 to 5, two busted: one table of 6 (1 seat outside;
        # two tables of 3 would put 2 outside)
        (6, (4, 5), (6,), "6 players do not fit tables of 4 to 5: one table of 6."),
        # 4 + 3 puts 1 seat outside, one table of 7 two: two tables
        (7, (4, 5), (4, 3), "7 players do not fit tables of 4 to 5: 2 tables of 4, 3."),
        # 6 + 5 and 4 + 4 + 3 put 1 seat outside each: the fewer tables
        (11, (4, 5), (6, 5), "11 players do not fit tables of 4 to 5: 2 tables of 6, 5."),
        (6, (4, 4), (6,), "6 players do not fit tables of 4 to 4: one table of 6."),
        # never a table under 3, though 3 + 2 would be nearer tables of 4
        (5, (4, 4), (5,), "5 players do not fit tables of 4 to 4: one table of 5."),
    ],
)
def test_players_who_do_not_fit_the_table_size_sit_at_the_nearest_split(count, size, sizes, note):
    assert table_sizes(count, *size) == sizes
    assert str(misfit(sizes, *size)) == note


def test_one_player_left_is_refused_and_told_event_end_finishes():
    with pytest.raises(ChouetteError, match=r"1 player is in: .*event end finishes the event"):
        table_sizes(1, 4, 5)


def test_the_nearest_split_is_drawn_again_from_the_same_seed():
    state = event(6, (4, 5))
    made = draw(state, 39, random.Random(39))
    assert [len(t) for t in made.tables] == [6]
    assert draw(state, 39, random.Random(39)) == made


def outside(sizes, least: int, most: int) -> int:
    return sum(max(least - s, 0, s - most) for s in sizes)


@given(st.integers(2, 300), st.integers(2, 8), st.integers(0, 6))
def test_table_sizes_seat_everyone_once_within_the_size_whenever_a_split_is(count, least, extra):
    most = least + extra
    sizes = table_sizes(count, least, most)
    assert sum(sizes) == count
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)
    if count < least:  # a final table
        assert sizes == (count,)
        return
    assert min(sizes) >= min(least, 3)
    # k tables hold k*least to k*most: within the size whenever some k does
    fits = any(k * least <= count <= k * most for k in range(1, count + 1))
    assert (outside(sizes, least, most) == 0) == fits
    assert (misfit(sizes, least, most) is None) == fits
    # and no even split of tables of 3 or more is nearer, nor as near with fewer tables
    for k in range(1, count // min(least, 3) + 1):
        base, more = divmod(count, k)
        other = (base + 1,) * more + (base,) * (k - more)
        assert (outside(sizes, least, most), len(sizes)) <= (outside(other, least, most), k)


def test_the_same_seed_draws_the_same_tables_and_another_seed_may_not():
    state = event(12)
    first = draw(state, 42, random.Random(42))
    assert draw(state, 42, random.Random(42)) == first
    assert any(draw(state, s, random.Random(s)).tables != first.tables for s in range(5))
    assert sorted(p for t in first.tables for p in t) == sorted(state.players_in)


def test_eight_players_repeat_as_few_pairings_as_two_tables_of_four_allow():
    state, seen = event(8), []
    # two tables of four: level 2's tables each hold two from each of level 1's (4 repeats:
    # no split does better), and every level the fewest of any split
    for level in range(1, 5):
        players = list(state.players_in)
        state, made = next_level(state, level)
        assert made.exact
        assert made.repeats == min_repeats_by_brute_force(seen, players)
        seen.append(made)
    assert [m.repeats for m in seen][:2] == [0, 4]


def min_repeats_by_brute_force(levels, players) -> int:
    """The fewest repeats of two tables of four after ``levels``, by every split (a pair
    that met twice counting twice)."""
    met = Counter(
        tuple(sorted(pair))
        for m in levels
        for t in m.tables
        for pair in itertools.combinations(t, 2)
    )
    best = None
    for four in itertools.combinations(players, 4):
        rest = [p for p in players if p not in four]
        cost = sum(
            met[tuple(sorted(pair))] for t in (four, rest) for pair in itertools.combinations(t, 2)
        )
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


@settings(max_examples=20, deadline=None)
@given(st.integers(6, 10), st.integers(0, 2**32), st.integers(1, 4))
def test_an_exact_draw_has_the_fewest_repeats_of_any_draw(count, seed, levels):
    state = event(count)
    for level in range(levels - 1):
        state, _ = next_level(state, seed + level)
    made = draw(state, seed, random.Random(seed))
    assert made.exact and made.repeats == repeats(state, made.tables)
    sizes = [len(t) for t in made.tables]
    # every way to sit them (each a few times over), weighed one by one: none repeats fewer
    best = min(repeats(state, split) for split in splits(list(state.players_in), sizes))
    assert made.repeats == best


def splits(players, sizes):
    """Every way to cut ``players`` into tables of ``sizes``, in order."""
    if not sizes:
        yield []
        return
    for group in itertools.combinations(players, sizes[0]):
        rest = [p for p in players if p not in group]
        for tail in splits(rest, sizes[1:]):
            yield [group, *tail]


def test_a_large_field_is_drawn_by_a_seeded_search_with_few_repeats():
    state = event(40)
    assert possible_draws(table_sizes(40, 3, 5)) > EXACT_DRAWS
    for level in range(1, 4):
        state, made = next_level(state, level)
        assert not made.exact or level == 1
        assert made.repeats == 0  # forty players at tables of five: no one needs to meet again
    again = draw(state, 9, random.Random(9))
    assert again == draw(state, 9, random.Random(9))  # reproducible from its seed


def test_a_draw_counts_a_pair_that_met_twice_twice():
    state, _ = next_level(event(4, (4, 4)), 1)
    state, made = next_level(state, 2)
    assert made.repeats == 6  # four at one table: the six pairs met once before
    made = draw(state, 3, random.Random(3))
    assert made.repeats == 12


def test_a_level_is_drawn_once_and_needs_two_players_in():
    state = event(6)
    made = draw(state, 1, random.Random(1))
    with pytest.raises(ChouetteError, match="level 1 is drawn already"):
        draw(drawn(state, made), 2, random.Random(2))
    with pytest.raises(ChouetteError, match="1 player is in: a table needs two"):
        draw(event(1), 1, random.Random(1))


@pytest.mark.parametrize("size", [(3, 5), (2, 4), (4, 6)])
def test_the_last_two_in_are_drawn_head_to_head_and_told_so(size):
    """Two players left make one table of two, whatever the table size: a chouette of two
    is a plain game, box against captain with one cube (CNB Italy's last two;
    backgammonchouette.com's last with chips), and the draw says so. Three make a
    chouette, and the draw says nothing of the kind."""
    made = draw(event(2, size), 5, random.Random(5))
    assert [len(t) for t in made.tables] == [2]
    assert str(last_two(made)) == (
        "p000 and p001 are the last two in: they play head to head, the box against the "
        "captain with one cube, until one of them has every point (chouette event end ranks "
        "them by bank whenever the event stops)."
    )
    assert last_two(draw(event(3, size), 5, random.Random(5))) is None
