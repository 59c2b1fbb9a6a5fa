"""A session as the rules see it: its stake and each player's own, its house rules, its line
between games, the club night it belongs to, and its game in progress. The ledger
(:mod:`db`) reads them from its rows and hands them to the rules; nothing here knows where
they were kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from chouette.game import Game
from chouette.line import Line
from chouette.money import Cents
from chouette.points import pair_stake
from chouette.rules import HouseRules


@dataclass(frozen=True)
class SessionInfo:
    """A session as the rules see it: stake, house rules, the line between games."""

    id: int
    name: str
    stake: Cents
    rules: HouseRules
    line: Line
    created_at: datetime
    night: str  # the club night it belongs to (chouette.nights)
    player_stakes: dict[str, Cents] = field(default_factory=dict)

    def stake_of(self, player: str) -> Cents:
        return self.player_stakes.get(player, self.stake)

    def stakes(self, players: Iterable[str]) -> dict[str, Cents]:
        return {p: self.stake_of(p) for p in players}

    def pair_stake(self, a: str, b: str) -> Cents:
        """What a point is worth between ``a`` and ``b`` (the rules' lower-stake rule)."""
        return pair_stake(self.stakes((a, b)), a, b)


@dataclass(frozen=True)
class LiveGame:
    """The game in progress, or the number of the next one (``game`` None: not started;
    ``carry``: the automatic doubles the last game carried over to it, under the house rule
    ``auto-past-limit carry-over``, else None)."""

    number: int
    game: Game | None = None
    row_id: int | None = None
    carry: int | None = None

    @property
    def started(self) -> bool:
        return self.game is not None
