"""The known evening the page tests render: five players with names that need escaping,
three games at odd cents, each player's running balance; :func:`evening` gives
:func:`chouette.page.render_report` its arguments."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from chouette.report import GameLine, standings
from chouette.rules import HouseRules
from chouette.settlement import settle

ANN = "ann"
BOBBY = "Robert'); DROP TABLE players;--"
CAT = '<b>cat</b> & "co"'
ZOE = "Zoë Ωmega"
DAN = "dan"  # joined, never played
PLAYERS = [ANN, BOBBY, CAT, ZOE, DAN]
NOW = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)

# Stake 2.37 a point (odd cents); Zoë plays for 1.01. (box, captain, points, cents) per game.
GAMES = [
    (ANN, BOBBY, {ANN: 9, BOBBY: -4, ZOE: -4, CAT: -1},
     {ANN: 1589, BOBBY: -948, ZOE: -404, CAT: -237}),
    (ANN, ZOE, {ANN: -4, ZOE: 2, CAT: 1, BOBBY: 1},
     {ANN: -676, ZOE: 202, CAT: 237, BOBBY: 237}),
    (ZOE, CAT, {ZOE: 1, CAT: -1, BOBBY: 1, ANN: -1},
     {ZOE: 101, CAT: -101, BOBBY: 101, ANN: -101}),
]  # fmt: skip
RUNNING = {  # each player's balance before the first game and after each game, in cents
    ANN: [0, 1589, 913, 812],
    BOBBY: [0, -948, -711, -610],
    CAT: [0, -237, 0, -101],
    ZOE: [0, -404, -202, -101],
    DAN: [0, 0, 0, 0],
}


def evening(**changes: Any) -> dict[str, Any]:
    """render_report's arguments for the known evening (``changes`` override)."""
    lines = [
        GameLine(n, "chouette", box, captain, pts, cents, session="friday")
        for n, (box, captain, pts, cents) in enumerate(GAMES, start=1)
    ]
    totals = {p: (sum(g[2].get(p, 0) for g in GAMES), RUNNING[p][-1]) for p in PLAYERS}
    values: dict[str, Any] = {
        "session": "friday",
        "stake": 237,
        "rules": HouseRules(),
        "players": PLAYERS,
        "lines": lines,
        "standings": standings(PLAYERS, totals),
        "payments": settle({p: c for p, (_, c) in totals.items()}),
        "generated_at": NOW,
        "player_stakes": {ZOE: 101},
    }
    return {**values, **changes}
