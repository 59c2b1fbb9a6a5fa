"""What every ledger must satisfy, however many writers it had and wherever they were killed.

Read straight from the tables (not through ``db.ledger``), so that the store cannot vouch
for itself:

- every finished game's bookings sum to zero, in points and in cents, and every payment's;
- a game in progress has no bookings; a session has at most one game in progress;
- a session's games are numbered 1, 2, … n: none lost, none twice;
- a chouette game's events are numbered 0, 1, … k, and replaying them books exactly what
  the ledger holds, and rotates the line as stored (``replay=True``);
- the session's line is where its last chouette game left it (``lines=True``: for ledgers
  whose line was not changed by join, leave or sit-out);
- every running balance is the sum of that player's bookings in that session.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, create_engine, text

from chouette.game import Game, replay
from chouette.outcome import settle_game
from chouette.record import parse_event
from chouette.rules import HouseRules
from db.codec import line_from_json


@dataclass
class Facts:
    """What the ledger holds, per session name."""

    finished: dict[str, list[int]] = field(default_factory=dict)  # numbers of finished games
    live: dict[str, int | None] = field(default_factory=dict)  # the game in progress
    events: dict[tuple[str, int], int] = field(default_factory=dict)  # events per chouette game
    bookings: int = 0

    def games(self, session: str) -> int:
        return len(self.finished.get(session, []))


@dataclass
class Tables:
    sessions: list[Any]
    games: list[Any]
    events: dict[int, list[tuple[int, str]]]
    bookings: list[Any]
    stakes: dict[tuple[int, str], int | None]
    balances: dict[tuple[int, str], tuple[int, int]]


def read_tables(url: str) -> Tables:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return _read(conn)
    finally:
        engine.dispose()


def _read(conn: Connection) -> Tables:
    def rows(sql: str) -> list[Any]:
        return list(conn.execute(text(sql)).all())

    events: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, seq, body in rows("SELECT game_id, seq, body FROM event ORDER BY game_id, seq"):
        events[game_id].append((seq, body))
    return Tables(
        sessions=rows("SELECT id, name, rules, line, stake_cents FROM session ORDER BY id"),
        games=rows(
            "SELECT id, session_id, number, kind, over, line_before, line_after FROM game "
            "ORDER BY session_id, number"
        ),
        events=events,
        bookings=rows("SELECT game_id, payment_id, player, points, cents, session_id FROM booking"),
        balances={
            (sid, player): (int(points), int(cents))
            for sid, player, points, cents in rows(
                "SELECT session_id, player, points, cents FROM balance"
            )
        },
        stakes={
            (sid, name): stake
            for sid, name, stake in rows("SELECT session_id, name, stake_cents FROM player")
        },
    )


def check_ledger(url: str, *, replay_games: bool = True, lines: bool = True) -> Facts:
    """Every invariant above (an AssertionError names the first broken one); the facts."""
    tables = read_tables(url)
    facts = Facts(bookings=len(tables.bookings))
    booked: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    payments: dict[int, list[int]] = defaultdict(list)
    summed: dict[tuple[int, str], tuple[int, int]] = {}
    for game_id, payment_id, player, points, cents, session_id in tables.bookings:
        total = summed.get((session_id, player), (0, 0))
        summed[session_id, player] = (total[0] + int(points), total[1] + int(cents))
        assert (game_id is None) != (payment_id is None), ("a booking of what?", player)
        if payment_id is not None:
            payments[payment_id].append(int(cents))
            continue
        assert player not in booked[game_id], ("a player booked twice in a game", game_id)
        booked[game_id][player] = (int(points), int(cents))
    for payment_id, cents in payments.items():
        assert len(cents) == 2 and sum(cents) == 0, ("a payment that does not balance", payment_id)
    kept = {key: value for key, value in tables.balances.items() if value != (0, 0)}
    assert kept == {k: v for k, v in summed.items() if v != (0, 0)}, "running balances"
    for session_id, name, rules_json, line_json, stake in tables.sessions:
        rules = HouseRules.from_dict(json.loads(rules_json))
        mine = [g for g in tables.games if g[1] == session_id]
        numbers = [g[2] for g in mine]
        assert numbers == list(range(1, len(mine) + 1)), (name, "game numbers", numbers)
        live = [g[2] for g in mine if not g[4]]
        assert len(live) <= 1, (name, "games in progress", live)
        facts.live[name] = live[0] if live else None
        facts.finished[name] = [g[2] for g in mine if g[4]]
        last_line = None
        for game_id, _, number, kind, over, line_before, line_after in mine:
            where = f"{name} game {number}"
            held = booked.get(game_id, {})
            if not over:
                assert kind == "chouette" and not held, (where, "bookings of a game in progress")
            else:
                assert held, (where, "a finished game without bookings")
                assert sum(p for p, _ in held.values()) == 0, (where, "points do not sum to 0")
                assert sum(c for _, c in held.values()) == 0, (where, "cents do not sum to 0")
            if kind != "chouette":
                continue
            steps = tables.events.get(game_id, [])
            assert [s for s, _ in steps] == list(range(len(steps))) and steps, (where, "events")
            facts.events[(name, number)] = len(steps)
            last_line = line_after if over else line_before
            if not replay_games:
                continue
            events = [parse_event(json.loads(body), where, allow_end=True) for _, body in steps]
            game = replay(line_from_json(line_before), rules, events)
            assert game.over == bool(over), (where, "over", game.over, over)
            if over:
                stakes = {p: tables.stakes.get((session_id, p)) or stake for p in players(game)}
                outcome = settle_game(game, stakes)
                expected = {p: (outcome.points[p], outcome.cents[p]) for p in outcome.points}
                assert held == expected, (where, "bookings are not what its events give")
                assert line_from_json(line_after) == outcome.next_line, (where, "next line")
        if lines and last_line is not None:
            assert line_from_json(line_json) == line_from_json(last_line), (name, "line")
    return facts


def players(game: Game) -> list[str]:
    return [game.box, *([game.partner] if game.partner else []), *game.members]
