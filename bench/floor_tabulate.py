"""The floor for ``ledger --all`` as a table: python, sqlite3 and tabulate on the same
bookings, nothing else: the session's name, the game's number, each booking's local time,
points and money written as the ledger writes them, laid out by tabulate's ``simple`` format
as chouette hands it the cells (``disable_numparse``, the numbers aligned right).

python bench/floor_tabulate.py FILE
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime

from tabulate import tabulate


def money(cents: int) -> str:
    sign = "+" if cents > 0 else "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


conn = sqlite3.connect(sys.argv[1])
times: dict[str, str] = {}
rows = []
for at, session, number, player, points, cents in conn.execute(
    "SELECT b.at, s.name, g.number, b.player, b.points, b.cents FROM booking b "
    "JOIN session s ON s.id = b.session_id LEFT JOIN game g ON g.id = b.game_id "
    "ORDER BY b.id"
):
    when = times.get(at)
    if when is None:
        moment = datetime.fromisoformat(at).replace(tzinfo=UTC).astimezone()
        when = times[at] = f"{moment:%Y-%m-%d %H:%M}"
    game = "" if number is None else str(number)
    point = f"{points:+d}" if points else "0"
    rows.append([when, session, game, player, point, money(cents), "game"])
headers = ["time", "session", "game", "player", "points", "money", "note"]
align = ["left", "left", "right", "left", "right", "right", "left"]
sys.stdout.write(
    tabulate(rows, headers, tablefmt="simple", disable_numparse=True, colalign=align) + "\n"
)
