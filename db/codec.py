"""How domain values are stored as text: the line, events, house rules, times.

One codec per value, used by every part of the ledger that writes or reads it (live play,
records, imports, the export and its restore, ``chouette check``), so a value is always
stored one way and always read back the same.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from chouette.game import Event
from chouette.line import Line
from chouette.record import event_to_json, parse_event
from chouette.rules import HouseRules


def line_to_dict(line: Line) -> dict[str, Any]:
    """The line as plain data: the order, who sits out (in line order), partner, last down."""
    return {
        "order": list(line.order),
        "sitting_out": [p for p in line.order if p in line.sitting_out],
        "partner": line.partner,
        "last_down": line.last_down,
    }


def line_from_dict(data: Mapping[str, Any]) -> Line:
    """A line from :func:`line_to_dict`'s data (an engine game's line holds its order only)."""
    order = data["order"]
    if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
        raise TypeError("a line's order is a list of names")
    return Line(
        order=tuple(order),
        sitting_out=frozenset(data.get("sitting_out") or ()),
        partner=data.get("partner"),
        last_down=data.get("last_down"),
    )


def line_to_json(line: Line) -> str:
    return json.dumps(line_to_dict(line), ensure_ascii=False)


def line_from_json(text: str) -> Line:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise TypeError("a line is a JSON object")
    return line_from_dict(data)


def event_to_body(event: Event) -> str:
    """An event as stored: the chouette game record's event object (``end`` included)."""
    return json.dumps(event_to_json(event), ensure_ascii=False)


def event_from_body(body: str) -> Event:
    return parse_event(json.loads(body), "stored event", allow_end=True)


def rules_to_json(rules: HouseRules) -> str:
    return json.dumps(rules.to_dict())


def rules_from_json(text: str) -> HouseRules:
    return HouseRules.from_dict(json.loads(text))


def utc(moment: datetime) -> datetime:
    """Stored naive (SQLite drops offsets); read back as aware UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime | None) -> str | None:
    """A stored time as ISO 8601 text in UTC (for the export)."""
    return None if moment is None else utc(moment).isoformat()
