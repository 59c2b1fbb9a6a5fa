"""A chouette tournament (an event) as the rules see it: entries into the pool, each with a
bank; levels with a rising starting cube; banks carried from level to level and checked to
add up; a player out once their bank is gone; re-entries until a level; the end's ranking.
The draw is ``test_event_draw.py``, the payouts ``test_event_payouts.py``."""

from __future__ import annotations

import random

import pytest

from chouette.errors import ChouetteError
from chouette.event import (
    Accepted,
    Closed,
    Drawn,
    Ended,
    Entered,
    EventRules,
    Reentered,
    accept,
    bank_problem,
    card_lines,
    close,
    draw,
    drawn,
    end,
    enter,
    new_event,
    parse_levels,
    parse_payout,
    parse_table_size,
    reenter,
    reentry_at,
    reentry_problem,
    replay,
    seconds_left,
)
from chouette.rules import HouseRules

EIGHT = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


def florida(**terms: object) -> EventRules:
    """The Florida shape: a bank of 50, the cube 1 to 64, tables of 3 to 5, re-entries until
    level 4 (and here an entry of 20.00 and a payout of 50/30/20)."""
    given = {
        "bank": 50,
        "levels": (1, 2, 4, 8, 16, 32, 64),
        "organiser": "org",
        "house": HouseRules(table_stakes=50),
        "minutes": 45,
        "entry": 2000,
        "reentries_until": 4,
        "payout": (50, 30, 20),
        **terms,
    }
    return EventRules(**given)  # type: ignore[arg-type]


def started(rules: EventRules | None = None, seed: int = 7):
    state = enter(new_event("fcc", rules or florida()), EIGHT)
    return drawn(state, draw(state, seed, random.Random(seed)))


def banks_after(state, moves: dict[str, int]) -> dict[str, int]:
    """Each seated player's bank after their table moved it by ``moves`` (zero-sum)."""
    assert sum(moves.values()) == 0
    return {p: state.banks[p] + moves.get(p, 0) for p in state.seated}


def test_each_entry_pays_into_the_pool_and_gets_a_bank():
    state = enter(new_event("fcc", florida()), ["ann", "bob"])
    assert state.pool == 4000 and state.banks == {"ann": 50, "bob": 50}
    assert state.cube == 1 and state.level == 1


def test_the_starting_cube_rises_by_level_and_stays_at_the_last():
    rules = florida()
    assert [rules.cube(n) for n in (1, 2, 3, 7, 8, 20)] == [1, 2, 4, 64, 64, 64]
    assert rules.table_rules(3) == HouseRules(table_stakes=50, starting_cube=4)


def test_a_level_closes_carrying_every_bank_and_putting_out_the_busted():
    state = started()
    moves = {"ann": -50, "bob": 30, "cat": 20}
    after = close(state, banks_after(state, moves))
    assert after.level == 2 and after.cube == 2 and after.drawn is None
    assert after.out == {"ann": 1}
    assert after.banks["bob"] == 80 and sum(after.banks[p] for p in after.players_in) == 400
    assert "ann" not in after.players_in
    again = drawn(after, draw(after, 3, random.Random(3)))
    assert "ann" not in again.seated and len(again.seated) == 7


def test_banks_that_do_not_add_up_to_what_was_carried_in_are_refused():
    state = started()
    wrong = {**banks_after(state, {}), "ann": 49}
    assert str(bank_problem(state, wrong)) == (
        "the banks of level 1 add up to 399, but 400 were carried into it and given during it"
    )
    with pytest.raises(ChouetteError, match="add up to 399, but 400"):
        close(state, wrong)
    strays = {**banks_after(state, {}), "zed": 0}
    assert "do not name the players at its tables: zed" in str(bank_problem(state, strays))


def test_a_reentry_gives_a_fresh_bank_and_another_entry():
    state = started()
    state = close(state, banks_after(state, {"ann": -50, "bob": 50}))  # ann out at level 1
    state = reenter(state, "ann", None)
    assert state.out == {} and state.banks["ann"] == 50 and state.entries["ann"] == 2
    assert state.pool == 9 * 2000


def test_a_reentry_at_the_table_counts_the_fresh_bank_among_the_levels():
    state = started()
    state = reenter(state, "ann", 0)  # ann's bank is gone at her table, mid-level
    assert state.carried == 450 and state.table_of("ann") is not None
    moves = {"ann": -50, "bob": 50}  # her first bank went to bob; she has a fresh 50
    banks = {**banks_after(state, moves), "ann": 50}
    assert bank_problem(state, banks) is None


@pytest.mark.parametrize(
    ("terms", "level", "player", "bank", "message"),
    [
        ({"reentries_until": None}, 1, "ann", 0, "takes no re-entries"),
        ({}, 5, "ann", None, r"re-entries closed after level 4 \(this is level 5\)"),
        ({}, 1, "zed", None, "zed has not entered fcc"),
        ({}, 1, "ann", 12, "ann still has 12 in the bank: a re-entry is for a player whose"),
    ],
)
def test_a_reentry_that_cannot_be_is_refused_with_the_reason(terms, level, player, bank, message):
    state = started(florida(**terms))
    for _ in range(level - 1):
        state = close(state, banks_after(state, {}))
        state = drawn(state, draw(state, level, random.Random(level)))
    with pytest.raises(ChouetteError, match=message):
        reenter(state, player, bank)
    assert reentry_problem(state, player, bank) is not None


def test_entries_close_after_the_reentries_level_and_a_late_entry_sits_where_there_is_room():
    state = started(florida(table_size=(3, 5)))  # eight: two tables of four
    state = enter(state, ["ivy"])
    assert state.table_of("ivy") is not None and state.carried == 450
    state = enter(state, ["jon"])
    assert state.table_of("jon") != state.table_of("ivy")  # the table with fewer players
    state = enter(state, ["kim", "lou"])  # two tables of five: full
    assert state.waiting == ("kim", "lou") and state.table_of("lou") is None
    closed = close(state, banks_after(state, {}))
    assert closed.banks["lou"] == 50 and "lou" in closed.players_in
    late = started(florida(reentries_until=None))
    late = close(late, banks_after(late, {}))
    with pytest.raises(ChouetteError, match=r"entries closed after level 1 \(this is level 2\)"):
        enter(late, ["zed"])


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["ann"], "ann has entered already"),
        (["zed", "zed"], "zed is named twice"),
        (["ANN"], "ann and ANN differ only in case"),
        (["Org"], "org and Org differ only in case"),  # the organiser, who holds the pool
        (["box"], "cannot be a player's name"),
    ],
)
def test_an_entry_that_cannot_be_is_refused(players, message):
    with pytest.raises(ChouetteError, match=message):
        enter(enter(new_event("fcc", florida()), ["ann"]), players)


def test_the_end_ranks_by_bank_then_the_later_out_and_pays_the_pool_to_the_cent():
    state = started()
    state = close(state, banks_after(state, {"ann": -50, "bob": 50}))  # ann out at level 1
    state = drawn(state, draw(state, 1, random.Random(1)))
    moves = {"bob": -100, "cat": 60, "dan": 40}
    state = end(state, banks_after(state, moves), None)
    places = [(p.place, p.name, p.bank, p.out_at, p.cents) for p in state.final or ()]
    assert places == [
        (1, "cat", 110, None, 8000),
        (2, "dan", 90, None, 4800),
        (3, "eve", 50, None, 800),  # four level at 50 share the third place's 3200
        (3, "fay", 50, None, 800),
        (3, "gus", 50, None, 800),
        (3, "hal", 50, None, 800),
        (7, "bob", 0, 2, 0),  # out at level 2
        (8, "ann", 0, 1, 0),  # out at level 1
    ]
    assert sum(p.cents for p in state.final or ()) == state.pool == 16000


def test_ties_rolled_off_take_their_places_from_a_seeded_roll():
    state = started(florida(ties="roll"))
    first = end(state, banks_after(state, {}), random.Random(5))
    again = end(state, banks_after(state, {}), random.Random(5))
    assert first.final == again.final
    assert [p.place for p in first.final or ()] == list(range(1, 9))
    assert [p.cents for p in first.final or ()][:3] == [8000, 4800, 3200]
    with pytest.raises(ChouetteError, match="a seed is needed"):
        end(state, banks_after(state, {}), None)


def test_an_ended_event_takes_nothing_more():
    state = end(started(), banks_after(started(), {}), None)
    for refused in (
        lambda: enter(state, ["zed"]),
        lambda: reenter(state, "ann", None),
        lambda: draw(state, 1, random.Random(1)),
        lambda: end(state, None, None),
    ):
        with pytest.raises(ChouetteError, match="the event fcc has ended"):
            refused()


def test_only_an_entrant_accepts_the_rules_once():
    state = enter(new_event("fcc", florida()), ["ann", "bob"])
    state = accept(state, ["ann"])
    assert state.accepted == {"ann"}
    with pytest.raises(ChouetteError, match="ann accepted the event's rules already"):
        accept(state, ["ann"])
    with pytest.raises(ChouetteError, match="zed did not enter fcc"):
        accept(state, ["zed"])


def test_the_journal_replayed_is_the_event():
    rules = florida()
    state = started(rules, seed=11)
    made = state.drawn
    assert made is not None
    steps = [
        Entered(EIGHT),
        Accepted(("ann", "bob")),
        Drawn(made.seed, made.tables, made.repeats, made.exact),
        Reentered("ann"),
        Closed({**banks_after(state, {"ann": -50, "bob": 50}), "ann": 50}),
        Ended(),
    ]
    replayed = replay("fcc", rules, steps)
    live = reenter(accept(state, ["ann", "bob"]), "ann", 0)
    live = end(close(live, {**banks_after(state, {"ann": -50, "bob": 50}), "ann": 50}), None, None)
    assert replayed == live


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        ({"levels": ()}, "a level at least"),
        ({"levels": (1, 3)}, "a power of two"),
        ({"levels": (4, 2)}, "rises from level to level: 2 after 4"),
        ({"payout": (50, 40)}, "add up to 100, not 90"),
        ({"payout": (40, 60)}, "no more than the place above it: 60% after 40%"),
        ({"table_size": (5, 3)}, "the fewer first: 5-3"),
        ({"table_size": (1, 3)}, "the smallest table must be from 2"),
        ({"house": HouseRules(table_stakes=10)}, "table stakes of its bank"),
        ({"house": HouseRules(table_stakes=50, max_cube=16)}, "above max-cube 16"),
        ({"bank": 0}, "--bank must be from 1"),
        ({"ties": "coin"}, "--ties is one of split, roll"),
    ],
)
def test_terms_that_cannot_be_are_refused(terms, message):
    with pytest.raises(ChouetteError, match=message):
        florida(**terms)


def test_terms_are_read_back_as_written_and_parsed_from_the_options():
    rules = florida(preset="florida-challenge", ties="roll")
    assert EventRules.from_dict(rules.to_dict()) == rules
    assert parse_levels("1, 2,4") == (1, 2, 4) and parse_payout("50,25,15,10") == (50, 25, 15, 10)
    assert parse_table_size("3-5") == (3, 5) and parse_table_size("4") == (4, 4)
    with pytest.raises(ChouetteError, match="--levels: 'x' is not a whole number"):
        parse_levels("1,x")


def test_the_clock_counts_down_a_level_and_stops_at_nought():
    from datetime import UTC, datetime, timedelta

    began = datetime(2026, 1, 9, 19, 0, tzinfo=UTC)
    assert seconds_left(began, 45, began + timedelta(minutes=30)) == 15 * 60
    assert seconds_left(began, 45, began + timedelta(hours=2)) == 0
    assert seconds_left(began, None, began) is None


def test_the_card_says_every_term():
    said = dict((topic, str(text)) for topic, text in card_lines(florida()))
    assert said["Levels"].startswith("The starting cube by level: 1, 2, 4, 8, 16, 32, 64")
    assert said["Entries"] == "Each entry pays 20.00 into the prize pool, held by org."
    assert "until level 4" in said["Re-entries"] and "50%, 30%, 20%" in said["Payouts"]
    assert said["Clock"] == "A level lasts 45 minutes."


def test_a_table_s_way_back_in_is_the_event_s_re_entry_until_its_last_level():
    """What a table of level N tells a busted player (:func:`chouette.outcome.emptied`):
    the event's re-entry up to ``--reentries-until``, none past it or without re-entries."""
    rules = florida()
    assert [reentry_at(rules, level) for level in (1, 4, 5, 7)] == [
        "event", "event", "over", "over",
    ]  # fmt: skip
    assert reentry_at(florida(reentries_until=None), 1) == "over"


@pytest.mark.parametrize(
    ("place", "english"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th")],
)  # fmt: skip
def test_a_place_is_written_as_each_language_writes_it(place, english):
    """``1st``, ``11th``, ``22nd`` in English; ``22.`` in Danish and Czech, in a purse's
    note too."""
    from chouette.event import ordinal, place_note
    from files.words import words

    assert str(ordinal(place)) == english
    assert str(place_note(place, "fcc")) == f"{english} place in fcc"
    assert words("da")(place_note(place, "fcc")) == f"{place}. plads i fcc"
    assert words("cs")(place_note(place, "fcc")) == f"{place}. místo v fcc"
