"""How domain values are stored as text: the line, events, house rules, times.

One codec per value, used by every part of the ledger that writes or reads it (live play,
records, imports, the export and its restore, ``chouette check``), so a value is always
stored one way and always read back the same.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from chouette.amend import Correction
from chouette.costs import KINDS, Charge
from chouette.game import Event
from chouette.line import Line
from chouette.outcome import ExtraResult
from chouette.record import event_to_json, parse_event
from chouette.report import extra_result_json
from chouette.rules import HouseRules
from chouette.words import Joined, Said, Sayable, as_data, from_data, said


def line_to_dict(line: Line) -> dict[str, Any]:
    """The line as plain data: the order, who sits out (in line order), partner, last down,
    and who is away (``[player, proxy]`` pairs, the proxy null when their cube follows the
    captain's; written only when someone is, so a line without is stored as it always was),
    ``alone`` when the box declined a partner, ``banks`` under table stakes and ``credits``
    when a player has one (each written only then)."""
    data: dict[str, Any] = {
        "order": list(line.order),
        "sitting_out": [p for p in line.order if p in line.sitting_out],
        "partner": line.partner,
        "last_down": line.last_down,
    }
    if line.away:
        data["away"] = [[player, proxy] for player, proxy in line.away]
    if line.alone:
        data["alone"] = True
    if line.banks:
        data["banks"] = [[player, points] for player, points in line.banks]
    if line.credits:
        data["credits"] = [[player, cents] for player, cents in line.credits]
    return data


def line_from_dict(data: Mapping[str, Any]) -> Line:
    """A line from :func:`line_to_dict`'s data (an engine game's line holds its order only)."""
    order = data["order"]
    if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
        raise TypeError(said("a line's order is a list of names"))
    away = data.get("away") or ()
    if not all(
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and (item[1] is None or isinstance(item[1], str))
        for item in away
    ):
        raise TypeError(said("a line's away players are [player, proxy] pairs"))
    banks = _pairs(data.get("banks"), "banks")
    credits = _pairs(data.get("credits"), "credits")
    return Line(
        order=tuple(order),
        sitting_out=frozenset(data.get("sitting_out") or ()),
        partner=data.get("partner"),
        last_down=data.get("last_down"),
        away=tuple((player, proxy) for player, proxy in away),
        alone=data.get("alone") is True,
        banks=banks,
        credits=credits,
    )


def _pairs(items: Any, what: str) -> tuple[tuple[str, int], ...]:
    """A line's ``[player, whole number]`` pairs (its banks, its credits)."""
    items = items or ()
    if not isinstance(items, list | tuple) or not all(
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], int)
        and not isinstance(item[1], bool)
        for item in items
    ):
        if what == "banks":
            raise TypeError(said("a line's banks are [player, points] pairs"))
        raise TypeError(said("a line's credits are [player, cents] pairs"))
    return tuple((player, number) for player, number in items)


def line_to_json(line: Line) -> str:
    return json.dumps(line_to_dict(line), ensure_ascii=False)


def line_from_json(text: str) -> Line:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise TypeError(said("a line is a JSON object"))
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


def extras_to_detail(
    extras: Sequence[ExtraResult], amended: Sequence[Correction] = ()
) -> str | None:
    """What a chouette game's extras booked and the corrections made to it, as its row's
    detail (None: it had neither; a game never amended is stored as it always was)."""
    data: dict[str, Any] = {}
    if extras:
        data["extras"] = [extra_result_json(e) for e in extras]
    if amended:
        data["amended"] = [c.to_json() for c in amended]
    return json.dumps(data, ensure_ascii=False) if data else None


def _chouette_detail(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict) or not ({"extras", "amended"} & data.keys()):
        raise TypeError(said("a chouette game's detail holds its extras or its corrections"))
    return data


def extras_from_detail(text: str | None) -> tuple[ExtraResult, ...]:
    """A chouette game's extras as its row's detail keeps them (none without a detail)."""
    data = _chouette_detail(text)
    if not isinstance(data.get("extras", []), list):
        raise TypeError(said("a chouette game's extras are a list"))
    return tuple(
        ExtraResult(e["team_side"], e["box_side"], int(e["points"]), int(e["cents"]))
        for e in data.get("extras", [])
    )


def amended_from_detail(text: str | None) -> tuple[Correction, ...]:
    """The corrections made to a chouette game, oldest first, as its row's detail keeps
    them (none without a detail)."""
    found = _chouette_detail(text).get("amended", [])
    if not isinstance(found, list):
        raise TypeError(said("a chouette game's corrections are a list"))
    return tuple(Correction.from_json(c) for c in found)


def utc(moment: datetime) -> datetime:
    """Stored naive (SQLite drops offsets); read back as aware UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime | None) -> str | None:
    """A stored time as ISO 8601 text in UTC (for the export)."""
    return None if moment is None else utc(moment).isoformat()


def shares_to_json(charge: Charge) -> str:
    """A charge's shares as stored: ``[[player, cents], ...]``, in the order written."""
    return json.dumps([[name, cents] for name, cents in charge.shares], ensure_ascii=False)


def note_words(note: Sayable) -> str | None:
    """A charge's note as its ``words`` column keeps it: a note chouette said, as words
    kept as data (JSON); None for a note as typed."""
    return None if isinstance(note, str) else json.dumps(as_data(note), ensure_ascii=False)


def said_note(note: str, words: Any) -> Sayable:
    """A stored (or exported) charge's note: the words chouette said it in (``words``, as
    :func:`note_words` writes them, as text or as read), to be said in the reader's
    language; else the note as it is (typed, or kept before schema 22). Words that do not
    say the note in English are not read: the note is, and the chain, which digests both,
    finds the change. Words that are not words raise ValueError."""
    if words is None:
        return note
    found = from_data(json.loads(words) if isinstance(words, str) else words)
    return found if str(found) == note else note


def charge_from_row(
    kind: str, creditor: str, cents: int, shares: Any, note: str, words: Any = None
) -> Charge:
    """A stored (or exported) charge; its shares as :func:`shares_to_json` writes them, as
    text or as read; its note as :func:`said_note` reads it."""
    found = json.loads(shares) if isinstance(shares, str) else shares
    if not isinstance(found, list) or not found:
        raise TypeError(said("a charge's shares are a list of [player, cents]"))
    parts = []
    for part in found:
        if not (
            isinstance(part, list)
            and len(part) == 2
            and isinstance(part[0], str)
            and type(part[1]) is int
        ):
            raise TypeError(
                said("a charge's share is [player, cents], not {part}", part=repr(part))
            )
        parts.append((part[0], part[1]))
    if kind not in KINDS:
        raise ValueError(said("{kind} is neither a fee, an expense nor a prize", kind=repr(kind)))
    return Charge(kind, creditor, cents, tuple(parts), said_note(note, words))


def said_detail(what: Sayable) -> dict[str, Any]:
    """What a journal entry says was done: its English (``said``: what the session's chain
    and an older chouette read) and the same words as data (``say``), said in each reader's
    language when read (:func:`said_of`)."""
    return {"said": str(what), "say": as_data(what)}


def charge_said(made: Charge) -> Said:
    """A fee, a shared cost or a prize in a few words, as its journal entry says it: ``fee:
    bob owes ann 5.00 (table fee)``, ``prize: ann owes bob 90.00 (1st place in fcc)``."""
    if made.kind == "fee":
        return said("fee: {charge}", charge=made.told())
    if made.kind == "prize":
        return said("prize: {charge}", charge=made.told())
    return said("shared cost: {charge}", charge=made.told())


def said_of(detail: Mapping[str, Any]) -> Sayable:
    """What a journal entry says was done, in words to say: its words kept as data, or the
    English an older chouette kept (or a damaged entry's data: its English)."""
    if "say" in detail:
        try:
            found = from_data(detail["say"])
        except ValueError:
            found = None
        if isinstance(found, Said | Joined | str):
            return found
    kept = detail.get("said")
    return kept if isinstance(kept, str) else ""
