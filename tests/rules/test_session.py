"""A session as the rules see it (chouette/session.py): each player's stake, a pair's stake."""

from __future__ import annotations

from datetime import UTC, datetime

from chouette.line import new_line
from chouette.rules import HouseRules
from chouette.session import LiveGame, SessionInfo


def friday(**stakes: int) -> SessionInfo:
    return SessionInfo(
        1,
        "friday",
        500,
        HouseRules(),
        new_line(["ann", "bob", "cat"], HouseRules()),
        datetime(2026, 11, 20, 20, tzinfo=UTC),
        "2026-11-20",
        player_stakes=stakes,
    )


def test_a_player_plays_at_their_own_stake_else_the_sessions():
    info = friday(cat=200)
    assert info.stakes(["ann", "cat"]) == {"ann": 500, "cat": 200}
    assert info.pair_stake("ann", "cat") == info.pair_stake("cat", "ann") == 200
    assert info.pair_stake("ann", "bob") == 500


def test_a_game_not_started_is_only_its_number():
    waiting = LiveGame(3)
    assert not waiting.started and waiting.number == 3 and waiting.carry is None
