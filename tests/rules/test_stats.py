"""The club's memory, pure: roles, nights and head to head over score-sheet lines worked by
hand, and the laws: head to head is antisymmetric and sums to each player's money."""

from __future__ import annotations

from datetime import UTC, date, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.outcome import ExtraResult
from chouette.report import GameLine
from chouette.stats import (
    Between,
    club_stats,
    head_to_head_rows,
    money_between,
    night_of,
    per_game,
    players_rows,
)
from chouette.words import ENGLISH_WORDS
from tests.examples import examples


def at(day: int, hour: int) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)


def chouette(number, box, captain, cents, *, partner=None, extras=(), session="friday", ended):
    return GameLine(
        number=number,
        kind="chouette",
        box=box,
        captain=captain,
        points={p: 0 for p in cents},
        cents=cents,
        ended_at=ended,
        session=session,
        extras=tuple(extras),
        partner=partner,
    )


def engine(number, winner, loser, cents, *, session="money", ended):
    return GameLine(
        number, "engine", winner, loser, {winner: 1, loser: -1}, {winner: cents, loser: -cents},
        ended, session,
    )  # fmt: skip


#: Worked by hand: a chouette on the 20th (the last game after midnight), a partner game
#: and an extra on the 27th, and a money session on the 27th.
LEDGER = [
    chouette(
        1, "ann", "bob", {"ann": 5000, "bob": -4000, "cat": -500, "dan": -500}, ended=at(20, 21)
    ),
    chouette(2, "ann", "cat", {"ann": -2000, "cat": 500, "dan": 1000, "bob": 500}, ended=at(21, 1)),
    # ann boxes with cat as partner (50%): bob +5.00, dan -3.00; the box side -2.00 shared.
    chouette(
        1, "ann", "bob", {"ann": -100, "cat": -100, "bob": 500, "dan": -300},
        partner="cat", session="next", ended=at(27, 20),
    ),
    # an extra: dan (team side) wins 1.00 from bob (his teammate), beside a 2.00 pair each.
    chouette(
        2, "bob", "dan", {"bob": -400, "dan": 300, "ann": 100},
        extras=[ExtraResult("dan", "ann", 1, 100)], session="next", ended=at(27, 21),
    ),
    engine(1, "eve", "ann", 1500, ended=at(27, 22)),
]  # fmt: skip


def test_a_night_runs_until_six_in_the_morning():
    assert night_of(datetime(2026, 11, 21, 1, 30)) == date(2026, 11, 20)
    assert night_of(datetime(2026, 11, 21, 6, 0)) == date(2026, 11, 21)


def test_per_game_rounds_to_the_nearest_cent_a_half_away_from_zero():
    assert [per_game(c, g) for c, g in [(5, 2), (-5, 2), (4, 3), (5, 3), (0, 0), (7, 0)]] == [
        3, -3, 1, 2, 0, 0,
    ]  # fmt: skip


def test_the_partner_shares_each_pair_and_the_rounding_is_with_the_box():
    line = chouette(
        1, "ann", "bob", {"ann": -5, "cat": -5, "bob": 5, "dan": 5}, partner="cat", ended=at(20, 21)
    )
    assert money_between(line) == [
        Between("bob", "cat", 2),
        Between("bob", "ann", 3),
        Between("dan", "cat", 2),
        Between("dan", "ann", 3),
        Between("cat", "ann", -1, opposed=False),
    ]


def test_every_player_against_the_hand_worked_ledger():
    found = {s.name: s for s in club_stats(LEDGER)}
    ann = found["ann"]
    assert (ann.sessions, ann.total.games, ann.total.won, ann.total.lost) == (3, 5, 5100, 3600)
    assert {r: (t.games, t.net) for r, t in ann.roles.items()} == {
        "box": (3, 2900),
        "crew": (1, 100),
        "one-on-one": (1, -1500),
    }
    assert ann.biggest_night is not None
    assert (ann.biggest_night.night, ann.biggest_night.cents) == (date(2026, 11, 20), 3000)
    assert [(o.name, o.games, o.cents) for o in ann.head_to_head] == [
        ("bob", 4, 3450),  # +40.00 - 5.00 - 2.50 (the pair, less cat's share) + 2.00
        ("cat", 2, 0),  # +5.00 - 5.00; partners in game 3
        ("dan", 4, -450),  # +5.00 - 10.00 + 1.50 (less cat's share) - 1.00 (the extra)
        ("eve", 1, -1500),
    ]
    assert found["cat"].roles["partner"].net == -100
    ranked = [(s.name, s.total.net) for s in club_stats(LEDGER)]
    assert ranked == [("ann", 1500), ("eve", 1500), ("dan", 500), ("cat", -100), ("bob", -3400)]


def test_since_keeps_the_nights_from_that_date():
    found = {s.name: s for s in club_stats(LEDGER, since=date(2026, 11, 21))}
    assert found["ann"].sessions == 2 and found["ann"].total.games == 3
    assert "cat" in found and found["cat"].total.games == 1


def test_the_tables_read_as_the_cli_prints_them():
    head, cells = players_rows(club_stats(LEDGER[:2]))
    rows = [[ENGLISH_WORDS(c) for c in row] for row in cells]
    assert head[:4] == ["player", "sessions", "games", "won"]
    assert rows[0] == ["ann", "1", "2", "50.00", "20.00", "+30.00", "+15.00", "2026-11-20 +30.00"]
    pairs = [
        [ENGLISH_WORDS(c) for c in row] for row in head_to_head_rows(club_stats(LEDGER[:2]))[1]
    ]
    assert pairs[0] == ["ann", "bob", "2", "+35.00"]
    assert ["cat", "dan", "0", "0.00"] not in pairs  # they never met
    assert all(row[3] != "-" and not row[3].startswith("-") for row in pairs)


names = st.sampled_from(["ann", "bob", "cat", "dan", "eve"])
money = st.integers(-(10**6), 10**6)


@st.composite
def games(draw):
    if draw(st.booleans()):
        winner, loser = draw(st.lists(names, min_size=2, max_size=2, unique=True))
        return engine(1, winner, loser, draw(money), ended=at(draw(st.integers(1, 28)), 21))
    players = draw(st.lists(names, min_size=2, max_size=5, unique=True))
    box, captain, *crew = players
    partner = crew.pop() if crew and draw(st.booleans()) else None
    cents = {m: draw(money) for m in [captain, *crew]}
    side = -sum(cents.values())
    cents[box] = side
    if partner is not None:
        cents[partner] = draw(st.integers(-abs(side) - 5, abs(side) + 5))
        cents[box] -= cents[partner]
    extras = []
    for _ in range(draw(st.integers(0, 2))):
        team, other = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        worth = draw(money)
        cents[team] += worth
        cents[other] -= worth
        extras.append(ExtraResult(team, other, 1, worth))
    return chouette(
        1, box, captain, cents, partner=partner, extras=extras,
        session=draw(st.sampled_from(["a", "b"])), ended=at(draw(st.integers(1, 28)), 23),
    )  # fmt: skip


@settings(max_examples=examples(30))
@given(st.lists(games(), max_size=8), st.integers(0, 100))
def test_head_to_head_is_antisymmetric_and_sums_to_each_players_money(lines, share):
    found = club_stats(lines, shares={"a": share})
    against = {(s.name, o.name): (o.games, o.cents) for s in found for o in s.head_to_head}
    for (a, b), (games_played, cents) in against.items():
        assert against[b, a] == (games_played, -cents)
    for s in found:
        assert sum(o.cents for o in s.head_to_head) == s.total.net
        assert sum(t.net for t in s.roles.values()) == s.total.net
        assert sum(t.games for t in s.roles.values()) == s.total.games
    assert sum(s.total.net for s in found) == 0
