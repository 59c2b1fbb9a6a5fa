"""The ledger's limit (chouette/limits.py): points and running balances stop at it, and a game
the limit allows books within it, for every player at every stake."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import LimitError
from chouette.game import check_game
from chouette.limits import LIMIT, check_balance, check_points
from chouette.outcome import settle_game
from tests.strategies import games

LAWS = settings(max_examples=150, deadline=None)


def test_points_and_balances_stop_at_the_limit():
    assert check_points(LIMIT, "deal") == LIMIT
    with pytest.raises(LimitError, match=r"deal: -1000000000000001 points is past"):
        check_points(-LIMIT - 1, "deal")
    with pytest.raises(LimitError, match="deal: a number of points some 4301 digits long is"):
        check_points(10**4300, "deal")
    check_balance("ann", -LIMIT, LIMIT)
    with pytest.raises(LimitError, match="ann's running balance would pass"):
        check_balance("ann", 0, LIMIT + 1)


STAKES = st.one_of(st.integers(1, 500), st.integers(1, LIMIT))


@LAWS
@given(games(), st.data())
def test_a_game_the_limit_allows_books_within_the_limit(played, data):
    """The law behind checking every event: if the game as it stands is allowed, what it
    books stays within the limit, for every player and at every stake."""
    _, _, game, states = played
    players = [game.box, *([game.partner] if game.partner else []), *game.members]
    stakes = {p: data.draw(STAKES, label=f"stake {p}") for p in players}
    try:
        for state in states:
            check_game(state, stakes)
    except LimitError:
        return
    outcome = settle_game(game, stakes)
    assert all(abs(v) <= LIMIT for v in [*outcome.points.values(), *outcome.cents.values()])
