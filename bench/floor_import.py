"""The floor for ``import``: a raw importer that reads and parses a file of neutral records
and writes a bare game row and two bookings each, with raw sqlite3, in one transaction.

python bench/floor_import.py RECORDS.jsonl NEW.db
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from typing import Any

data, db = sys.argv[1], sys.argv[2]
with open(data, encoding="utf-8") as lines:
    rows = [json.loads(text) for text in lines]
conn = sqlite3.connect(db)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute(
    "CREATE TABLE raw_game (id INTEGER PRIMARY KEY, session_id, number, kind, detail, "
    "source_sha256, source_index, at)"
)
conn.execute(
    "CREATE TABLE raw_booking (id INTEGER PRIMARY KEY, session_id, game_id, player, points, "
    "cents, at)"
)
at = "2026-11-20T20:00:00+00:00"


def bookings() -> Iterator[tuple[Any, ...]]:
    for i, r in enumerate(rows, 1):
        yield (i, r["winner"], r["points"], r["points"] * 100, at)
        yield (i, r["loser"], -r["points"], -r["points"] * 100, at)


with conn:
    conn.executemany(
        "INSERT INTO raw_game VALUES (?, 1, ?, 'engine', ?, 'x', ?, ?)",
        ((i, i, json.dumps(r), i, at) for i, r in enumerate(rows, 1)),
    )
    conn.executemany(
        "INSERT INTO raw_booking (session_id, game_id, player, points, cents, at) "
        "VALUES (1, ?, ?, ?, ?, ?)",
        bookings(),
    )
conn.close()
