"""Splitting a table (house rule ``split-at``, ``chouette split``): the bottom half of the line
forms the new table, each keeping its players away and picking a partner again."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import LineError
from chouette.line import (
    FOLLOWS,
    Line,
    join,
    name_proxy,
    new_line,
    split,
    split_due,
)
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import house_rules
from tests.table import seats, show

# ------------------------------------------------------------ splitting a table


@pytest.mark.parametrize(
    ("text", "out", "first", "second"),
    [
        ("a | b, c, d, e, f", set(), "a | b, c", "d | e, f"),
        ("a | b, c, d, e, f, g", set(), "a | b, c, d", "e | f, g"),
        ("a | b, c, d, e, f, g, h", set(), "a | b, c, d", "e | f, g, h"),
        ("a | b, c, d, e, f, g", {"d"}, "a | b, c  (sitting out: d)", "e | f, g"),
        ("a | b, c, d, e, f, g", {"g"}, "a | b, c", "d | e, f  (sitting out: g)"),
    ],
)
def test_s1_the_bottom_half_of_the_line_forms_the_new_table(text, out, first, second):
    line = replace(seats(text), sitting_out=frozenset(out))
    old, new = split(line, HouseRules())
    assert (show(old), show(new)) == (first, second)


def test_s2_a_split_needs_six_players_who_play():
    line = replace(seats("a | b, c, d, e, f"), sitting_out=frozenset({"f"}))
    with pytest.raises(LineError, match=r"a split needs 6 players in the line .* 5 play now"):
        split(line, HouseRules())


def test_s3_each_table_keeps_its_players_away_and_picks_a_partner_again():
    rules = HouseRules(partner_from=4, partner_pick="last", proxies=True)
    line = Line(("a", "b", "c", "d", "e", "f", "g", "h"), partner="h", last_down="g")
    line = name_proxy(line, "c", "b", rules)
    line = name_proxy(line, "f", FOLLOWS, rules)
    old, new = split(line, rules)
    assert show(old) == "a+d | b, c  (away: b decides for c)"
    assert show(new) == "e+h | f, g  (away: f's cube follows the captain's)"
    assert new.last_down == "g" and old.last_down is None


def test_a_split_that_would_part_a_player_away_from_their_proxy_is_refused():
    rules = HouseRules(proxies=True)
    line = name_proxy(Line(("a", "b", "c", "d", "e", "f")), "e", "b", rules)
    with pytest.raises(LineError) as err:
        split(line, rules)
    assert str(err.value) == (
        "b decides for e, who is away, and they would sit at different tables after the "
        "split: name e another proxy first (chouette proxy e --by NAME, or --withdraw it)"
    )


def test_split_at_says_when_the_line_has_grown_past_it():
    rules = HouseRules(split_at=6)
    line = new_line(["a", "b", "c", "d", "e", "f"], rules)
    assert split_due(line, rules) is None
    assert str(split_due(join(line, "g", rules), rules)) == (
        "7 play in the line, past the house's split-at 6: `chouette split NAME` moves the "
        "bottom 3 to a new table"
    )
    assert split_due(join(line, "g", HouseRules()), HouseRules()) is None


@settings(max_examples=examples(120), deadline=None)
@given(
    st.integers(6, 14).flatmap(
        lambda n: st.tuples(
            st.just([f"p{i}" for i in range(n)]),
            st.lists(st.sampled_from([f"p{i}" for i in range(n)]), unique=True, max_size=n - 6),
        )
    ),
    house_rules(),
)
def test_a_split_keeps_everyone_once_in_order_each_table_with_three_who_play(players, rules):
    names, out = players
    line = replace(new_line(names, rules), sitting_out=frozenset(out))
    old, new = split(line, rules)
    assert old.order + new.order == line.order
    assert len(old.active) >= 3 and len(new.active) >= 3
    assert len(new.active) == len(line.active) // 2
    assert old.sitting_out | new.sitting_out == line.sitting_out
    for table in (old, new):
        assert table.partner is None or table.partner in table.active[1:]
