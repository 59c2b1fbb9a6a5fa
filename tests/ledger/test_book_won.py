"""An import's games booked by :meth:`db.ledger.Ledger.book_won`: exactly what the ledger's
general writer of finished games (:meth:`~db.ledger.Ledger.book_games`) books for the same
games, row for row, and nothing past the ledger's limit."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from chouette.errors import ChouetteError
from chouette.limits import LIMIT
from chouette.line import Line, new_line
from chouette.points import pair_money
from chouette.rules import HouseRules
from db import open_ledger
from db.codec import line_to_json
from db.values import Finished, Won
from tests.dump import dump
from tests.examples import examples

pytestmark = pytest.mark.backends("sqlite", "postgres")

WHEN = datetime(2026, 11, 20, 21, 30, tzinfo=UTC)
PLAYERS = ("ann", "bob", "cat", "dan")
STAKES = {"ann": 100, "bob": 250, "cat": 100, "dan": 5}
RULES = HouseRules()
#: each session of the law its own: the ledger outlives Hypothesis' examples
NAMES = itertools.count()

#: (winner, loser, points) of each game: the pairs in both orders, points of any cube
GAMES = st.lists(
    st.tuples(st.permutations(PLAYERS), st.integers(0, 3 * 64)).map(
        lambda drawn: (drawn[0][0], drawn[0][1], drawn[1])
    ),
    min_size=1,
    max_size=30,
)


def booked_both_ways(
    url: str, games: Sequence[tuple[str, str, int]]
) -> tuple[int, int, dict[tuple[str, str], tuple[int, int]]]:
    """Two new sessions of the same players at the same stakes: ``games`` booked into one
    by ``book_won`` and into the other by ``book_games``. Their ids, and what ``book_won``
    says each winner won from each loser."""
    n = next(NAMES)
    with open_ledger(url, write=True, now=WHEN) as book:
        sessions = []
        for way in ("won", "finished"):
            line = new_line(list(PLAYERS), RULES)
            sessions.append(book.create_session(f"{way}-{n}", line, 100, RULES, STAKES))
        won, finished = sessions
        moved = book.book_won(
            won.id, WHEN, [item(won.id, g, *game) for g, game in enumerate(games, 1)]
        )
        book.book_games(
            [as_finished(finished.id, item(finished.id, g, *game)) for g, game in
             enumerate(games, 1)]
        )  # fmt: skip
    return won.id, finished.id, moved


def item(session_id: int, number: int, winner: str, loser: str, points: int) -> Won:
    """A game as the import hands it to ``book_won`` (the file and the key differ by session:
    each is unique in the ledger)."""
    cents = pair_money(points, min(STAKES[winner], STAKES[loser]))
    return Won(
        number,
        line_to_json(Line((winner, loser))),
        winner,
        loser,
        points,
        cents,
        f'{{"winner": "{winner}", "loser": "{loser}", "points": {points}}}',
        f"{session_id:064x}",
        number,
        f"{session_id}-{number}" if number % 3 else None,
        f"{number:064x}",
    )


def as_finished(session_id: int, won: Won) -> Finished:
    """The same game as any command hands it to ``book_games``."""
    return Finished(
        session_id,
        won.number,
        "engine",
        Line((won.winner, won.loser)),
        {won.winner: won.points, won.loser: -won.points},
        {won.winner: won.cents, won.loser: -won.cents},
        WHEN,
        WHEN,
        detail=won.detail,
        source=(won.sha256, won.source_index),
        key=won.key,
        digest=won.digest,
    )


def session_rows(url: str, session_id: int) -> dict[str, list[tuple[Any, ...]]]:
    """What a session's games wrote, by game number, without what tells the sessions apart
    (their ids, and the file and keys the law gives each)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            read = lambda sql: [  # noqa: E731
                tuple(row) for row in conn.execute(text(sql), {"s": session_id})
            ]
            return {
                "game": read(
                    'SELECT number, kind, "over", line_before, line_after, detail, source_index, '
                    "game_key IS NULL, started_at, ended_at FROM game WHERE session_id = :s "
                    "ORDER BY number"
                ),
                "booking": read(
                    "SELECT g.number, b.player, b.points, b.cents, b.at, b.payment_id, "
                    "b.charge_id FROM booking b JOIN game g ON g.id = b.game_id "
                    "WHERE b.session_id = :s ORDER BY b.id"
                ),
                "digest": read(
                    "SELECT number, digest FROM kept_digest WHERE session_id = :s "
                    "AND part = 'record' AND number > 0 ORDER BY number"
                ),
                "balance": read(
                    "SELECT player, points, cents FROM balance WHERE session_id = :s "
                    "ORDER BY player"
                ),
            }
    finally:
        engine.dispose()


@pytest.mark.backends("sqlite")
@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(games=GAMES)
def test_book_won_books_what_book_games_books_for_the_same_games(ledger_url, games):
    won, finished, _ = booked_both_ways(ledger_url, games)
    rows = session_rows(ledger_url, won)
    assert rows == session_rows(ledger_url, finished)
    assert len(rows["game"]) == len(rows["digest"]) == len(games)
    assert len(rows["booking"]) == 2 * len(games)
    assert sum(points for _, points, _ in rows["balance"]) == 0
    assert sum(cents for _, _, cents in rows["balance"]) == 0


def test_book_won_books_what_book_games_books_on_either_database(ledger_url):
    games = [("ann", "bob", 2), ("bob", "ann", 4), ("dan", "cat", 3), ("ann", "bob", 0)]
    won, finished, moved = booked_both_ways(ledger_url, games)
    assert list(moved.items()) == [
        (("ann", "bob"), (2, 200)),
        (("bob", "ann"), (4, 400)),
        (("dan", "cat"), (3, 15)),
    ]
    rows = session_rows(ledger_url, won)
    assert rows == session_rows(ledger_url, finished)
    assert rows["balance"] == [
        ("ann", -2, -200),
        ("bob", 2, 200),
        ("cat", -3, -15),
        ("dan", 3, 15),
    ]


@pytest.mark.parametrize(
    ("points", "stake", "message"),
    [
        (LIMIT + 1, 1, "a booking of bob: .* past the ledger's limit of .* points"),
        (LIMIT // 10, 100, "a booking of money to bob is past the ledger's limit"),
    ],
)
def test_a_game_past_the_limit_is_refused_naming_its_winner_and_nothing_is_written(
    ledger_url, points, stake, message
):
    with open_ledger(ledger_url, write=True, now=WHEN) as book:
        info = book.create_session("friday", new_line(["ann", "bob"], RULES), 100, RULES)
    before = dump(ledger_url)
    fine = Won(1, line_to_json(Line(("ann", "bob"))), "ann", "bob", 1, 100, "{}", "a" * 64, 1,
               None, "0" * 64)  # fmt: skip
    past = fine._replace(
        number=2, winner="bob", loser="ann", points=points, cents=points * stake, source_index=2
    )
    with (
        pytest.raises(ChouetteError, match=message),
        open_ledger(ledger_url, write=True, now=WHEN) as book,
    ):
        book.book_won(info.id, WHEN, [fine, past])
    assert dump(ledger_url) == before
