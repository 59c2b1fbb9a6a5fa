"""The names a Tab of shell completion offers: the sessions, the current session, a session's
players in the order of its line, the club nights. Plain SQL through a ``run`` callable (the
driver's own ``execute``, or :class:`db.reads.Reads`' runner), and nothing else loaded: a
Tab answers at once, while :mod:`db.reads` builds whole sessions with their house rules
(seventy dataclasses to load, a third of a Tab). :class:`~db.reads.Reads` answers the same
questions with these functions. Their SQL names the models' tables and columns, each
checked against them by tests/ledger/test_raw_sql.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from chouette.words import said

#: ``run(sql, params)``: the rows of one statement (``?`` marks a parameter).
Run = Callable[[str, Sequence[Any]], Iterable[Sequence[Any]]]

CURRENT = "current_session"


def moment(value: Any) -> datetime:
    """A stored time as aware UTC: SQLite hands the driver its text, PostgreSQL a datetime."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if not isinstance(value, datetime):
        raise TypeError(said("a stored time is not a time: {value}", value=repr(value)))
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def current_name(run: Run) -> str | None:
    """The session used last."""
    for (name,) in run('SELECT value FROM setting WHERE "key" = ?', (CURRENT,)):
        return str(name)
    return None


def session_names(run: Run) -> list[str]:
    """Every session's name, in the order they were started."""
    return [str(r[0]) for r in run("SELECT name FROM session ORDER BY id", ())]


def player_names(run: Run) -> list[str]:
    """Every player's name the ledger holds, in any session, each once, as first written."""
    rows = run("SELECT name FROM player GROUP BY name ORDER BY min(id)", ())
    return [str(r[0]) for r in rows]


def nights(run: Run) -> list[tuple[str, datetime]]:
    """Every night, with when its first session began, in that order."""
    rows = run("SELECT night, min(created_at) FROM session GROUP BY night", ())
    return sorted(((str(n), moment(m)) for n, m in rows), key=lambda r: (r[1], r[0]))


def line_order(run: Run, name: str | None) -> list[str]:
    """The players of the named session's line (or the current session's), in its order as
    stored (:func:`db.codec.line_to_json`); none where there is no such session."""
    name = current_name(run) if name is None else name
    if name is None or "\x00" in name:
        return []
    for (line,) in run("SELECT line FROM session WHERE name = ?", (name,)):
        return [str(player) for player in json.loads(line)["order"]]
    return []
