"""Table stakes (house rule ``table-stakes``, the Florida "Chouette Challenge" [S29]): each
player's bank caps what they lose ("all in"), an empty bank sits out, and a player who cannot
cover the starting cube against every opponent is kept out of the box and the captaincy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.line import check_covered, join, leave, new_line, set_bank, sit_in, sit_out
from chouette.outcome import cap_pairs, settle_game
from chouette.rules import HouseRules
from tests.examples import examples
from tests.table import outcome, play, show

FLORIDA = HouseRules(table_stakes=3)


def test_a_box_all_in_shares_its_bank_by_what_each_member_won():
    game = play(
        new_line(["B", "C", "M1", "M2"], FLORIDA),
        *("double C", "take C", "double M1 M2", "take M1", "take M2", "end team gammon"),
        rules=FLORIDA,
    )
    result = outcome(game)  # each won 4 (a gammon on 2): the box has 3
    assert result.points == {"B": -3, "C": 1, "M1": 1, "M2": 1}
    assert result.pairs == {"C": 1, "M1": 1, "M2": 1}
    assert dict(result.next_line.banks) == {"B": 0, "C": 4, "M1": 4, "M2": 4}
    assert "B" in result.next_line.sitting_out  # an empty bank sits out
    assert "B's bank is empty: B sits out (chouette bank B POINTS for a re-entry)" in tuple(
        map(str, result.why)
    )


@pytest.mark.parametrize(
    ("reentry", "hint"),
    [
        ("bank", "B's bank is empty: B sits out (chouette bank B POINTS for a re-entry)"),
        (
            "event",
            "B's bank is empty: B sits out (chouette event reenter B for a re-entry into the "
            "event)",
        ),
        (
            "over",
            "B's bank is empty: B sits out, and is out of the event when the level closes "
            "(its re-entries are over)",
        ),
    ],
)
def test_a_busted_player_is_told_how_to_get_back_in_by_the_table_s_kind(reentry, hint):
    """The way back in is the table's, not the text's: a new bank at a plain table-stakes
    session, the event's re-entry at a table of an event that still takes them, none past
    its re-entries' last level."""
    game = play(
        new_line(["B", "C", "M1", "M2"], FLORIDA),
        *("double C", "take C", "double M1 M2", "take M1", "take M2", "end team gammon"),
        rules=FLORIDA,
    )
    result = settle_game(game, dict.fromkeys(["B", "C", "M1", "M2"], 1), reentry)
    said = tuple(map(str, result.why))
    assert hint in said
    assert sum("bank is empty" in line for line in said) == 1
    assert result.next_line == outcome(game).next_line  # (the kind changes the words only)


def test_a_member_all_in_loses_their_bank_and_no_more():
    line = set_bank(new_line(["B", "C", "M1"], FLORIDA), "M1", 1, FLORIDA)
    result = outcome(play(line, "double M1 --by member", "take M1", "end box", rules=FLORIDA))
    assert result.points == {"B": 2, "C": -1, "M1": -1}  # M1's cube at 2, but a bank of 1


def test_the_box_pays_what_it_took_from_the_losers_and_its_bank():
    capped, why = cap_pairs("B", {"C": 5, "M1": -2, "M2": 4}, {"B": 1, "C": 9, "M1": 9, "M2": 9})
    assert capped == {"C": 2, "M1": -2, "M2": 1}  # 3 to share in 5:4 is 1.67 and 1.33
    assert sum(capped.values()) == 1 and why  # the box: -1, its bank of 1 all in


def test_a_player_who_cannot_cover_the_starting_cube_is_kept_out_of_the_box():
    line = new_line(["B", "C", "M1", "M2"], FLORIDA)
    line = set_bank(line, "B", 2, FLORIDA)  # 2 points against three members: not covered
    assert show(line).startswith("C | B, M1, M2")


def test_a_player_with_an_empty_bank_joins_only_with_a_new_bank():
    line = new_line(["B", "C", "M1", "M2"], FLORIDA)
    result = outcome(play(line, "double M2 --by member", "take M2", "end box", rules=FLORIDA))
    assert result.next_line.bank("B") == 7
    line = leave(result.next_line, "M2", FLORIDA)
    broke = outcome(
        play(line, "double C --by member", "take C", "end box gammon", rules=FLORIDA)
    ).next_line
    assert broke.bank("C") == 0 and "C" in broke.sitting_out
    left = leave(broke, "C", FLORIDA)
    with pytest.raises(ChouetteError, match="C's bank is empty: give C a new bank first"):
        join(left, "C", FLORIDA)
    back = join(set_bank(left, "C", 3, FLORIDA), "C", FLORIDA)
    assert back.bank("C") == 3 and "C" in back.active


@pytest.mark.parametrize(
    ("rules", "name", "points", "message"),
    [
        (HouseRules(), "B", 5, "no table stakes"),
        (FLORIDA, "Z", 5, "Z has not played in this session"),
        (FLORIDA, "B", 0, "a bank is 1 point or more"),
        (FLORIDA, "B", 3, "B's bank is 3 already"),
    ],
)
def test_a_bank_that_cannot_be_set_is_refused(rules, name, points, message):
    with pytest.raises(ChouetteError, match=message):
        set_bank(new_line(["B", "C", "M1"], rules), name, points, rules)


@pytest.mark.parametrize("other", [{"partner_from": 4}, {"extras": True}])
def test_table_stakes_do_not_go_with_partners_or_extras(other):
    with pytest.raises(ChouetteError, match="table-stakes caps each player's losses"):
        HouseRules(table_stakes=50, **other)


pairs = st.dictionaries(st.sampled_from(["C", "M1", "M2", "M3"]), st.integers(-24, 24))
banks = st.fixed_dictionaries({p: st.integers(0, 12) for p in ("B", "C", "M1", "M2", "M3")})


@settings(max_examples=examples(200), deadline=None)
@given(pairs, banks)
def test_nobody_loses_more_than_their_bank_and_nobody_wins_more_than_they_won(pairs, banks):
    """A law: capped, every pair is between what it was and 0, no member loses more than
    their bank, and the box loses no more than its bank; uncapped where everyone covers."""
    capped, _ = cap_pairs("B", pairs, banks)
    for member, points in pairs.items():
        assert min(points, 0) <= capped[member] <= max(points, 0)
        assert capped[member] >= -banks[member]
    assert -sum(capped.values()) >= -banks["B"]
    covered = all(p >= -banks[m] for m, p in pairs.items()) and -sum(pairs.values()) >= -banks["B"]
    if covered:
        assert capped == pairs


def test_a_player_whose_bank_is_empty_sits_in_only_with_a_new_bank():
    line = new_line(["B", "C", "M1", "M2"], FLORIDA)
    result = outcome(play(line, "double C M1 M2", "take C", "take M1", "take M2",
                          "end team gammon", rules=FLORIDA))  # fmt: skip
    broke = result.next_line
    assert broke.bank("B") == 0 and "B" in broke.sitting_out
    with pytest.raises(ChouetteError, match="B's bank is empty: give B a new bank first"):
        sit_in(broke, "B", FLORIDA)


def test_a_game_nobody_seated_can_box_is_refused_naming_the_banks():
    line = new_line(["B", "C", "M1"], FLORIDA)
    line = join(set_bank(set_bank(set_bank(line, "B", 2, FLORIDA), "C", 2, FLORIDA), "M1", 2,
                         FLORIDA), "M2", FLORIDA)  # fmt: skip
    line = set_bank(line, "M2", 2, FLORIDA)
    with pytest.raises(ChouetteError) as refused:
        check_covered(line)
    assert str(refused.value) == (
        "under table stakes nobody seated can cover the box's starting cube against 3 members "
        "(3 points; banks: M2 2, B 2, C 2, M1 2): give one of them a bank of 3 or more "
        "(chouette bank NAME 3) or sit a player out before the game starts"
    )
    check_covered(sit_out(line, "M2", FLORIDA))  # two members: B covers them


@given(st.dictionaries(st.sampled_from(["B", "C", "M1", "M2", "M3"]), st.integers(1, 6),
                       min_size=2))  # fmt: skip
def test_law_a_game_starts_only_with_a_box_that_covers_every_member(banks):
    """Whatever the banks: the line's box covers the starting cube against every member and
    a game may start, or nobody seated could, and the game is refused."""
    line = new_line(list(banks), HouseRules(table_stakes=6))
    for name, points in banks.items():
        if points != 6:
            line = set_bank(line, name, points, HouseRules(table_stakes=6))
    members = len(banks) - 1
    try:
        check_covered(line)
    except ChouetteError:
        assert all(points < members for points in banks.values())
    else:
        assert line.bank(line.box) >= members
