"""Club nights: the tables of one evening, settled together, and the debts that last.

A session belongs to a **night**: by default the local date it began (``2026-11-20``), or a
name the club gives it (``chouette new … --night NAME``); a table split off keeps its
night. A night's **totals** are money (points at tables of different stakes do not add up),
and its **settlement** is the fewest payments that clear every player's balances summed
over its tables, so a player at two tables pays once.

**What is still owed** (``chouette owed``) is the fewest payments that clear every player's
balance summed over every session (games, fees and costs, and every payment booked, in any
session): the club's ``settle --all``. Each payment is dated by the night its payer's debt
arose, oldest first (first in, first out): a player's balance on each night, in the order
the nights began, is a lot; a night that goes the other way pays off their oldest lots first.
A payment is cut where the payer's lots are, so one payment may be listed for two nights.
Everything is exact in cents: the debts a player pays and is paid sum to their balance.

Pure: no clock (today's date is passed in), no database.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

Local = Callable[[datetime], datetime]


def night_of(moment: datetime, local: Local) -> str:
    """The night a session begun at ``moment`` belongs to by default: its local date."""
    return local(moment).date().isoformat()
