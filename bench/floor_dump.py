"""The floor for ``ledger --all``: a plain sqlite3 dump of the same bookings, with the
session's name and the game's number, written as CSV.

python bench/floor_dump.py FILE
"""

from __future__ import annotations

import csv
import sqlite3
import sys

conn = sqlite3.connect(sys.argv[1])
csv.writer(sys.stdout, lineterminator="\n").writerows(
    conn.execute(
        "SELECT b.at, s.name, g.number, b.player, b.points, b.cents FROM booking b "
        "JOIN session s ON s.id = b.session_id LEFT JOIN game g ON g.id = b.game_id "
        "ORDER BY b.id"
    )
)
